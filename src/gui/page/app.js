// The page's logic: a WebSocket to the server, which holds the game; this script sends the player's choices
// and draws whatever state comes back. A move is only ever one of state.legal.
"use strict";

const $ = id => document.getElementById(id);
const ui = { flipped: false, latin: false, japanese: true, selected: null, selectedHand: null, targets: [], arrows: [], dragging: false };
let state = null, hello = null, analysisLines = [], lastAnalysis = null, mateMoves = [], mateNames = [], mateStep = 0, stateAt = 0, pendingPromotion = null;

const socket = new WebSocket(`ws://${location.host}/socket?token=${encodeURIComponent(window.HAYATE_TOKEN)}`);
window.hayateSocket = socket;
// what the tests read: the last message of each type
window.hayate = { last: {} };

function send(msg) { socket.send(JSON.stringify(msg)); }

function setStatus(text, error) {
  const s = $("status");
  s.textContent = text;
  s.className = error ? "error" : "";
}

socket.onclose = () => setStatus("disconnected from the server", true);
socket.onmessage = ev => {
  const msg = JSON.parse(ev.data);
  window.hayate.last[msg.type] = msg;
  switch (msg.type) {
    case "hello": onHello(msg); break;
    case "state": onState(msg); break;
    case "error": setStatus(msg.message, true); break;
    case "analysis": onAnalysis(msg); break;
    case "mate": onMate(msg); break;
    case "engine_error": onEngineError(msg); break;
    case "export": $("text").value = msg.text; setStatus(msg.format + " exported"); break;
    case "games": onGames(msg); break;
  }
};

function onHello(msg) {
  hello = msg;
  $("game").replaceChildren(...msg.games.map(g => new Option(`${g.name} (${g.files}×${g.ranks})`, g.name)));
  $("engine").replaceChildren(...msg.engines.map((e, i) => new Option(e, i)));
  fillStarts();
  if (msg.watching) {
    $("watch").hidden = false;
    // from then on the server pushes the list whenever a running match's games grow or end
    send({ type: "watch_list" });
  }
}

let watchedGames = [];
function onGames(msg) {
  watchedGames = msg.games;
  const sel = $("watch-games"), keep = sel.value;
  sel.replaceChildren(...msg.games.map((g, i) => {
    if (g.error) return new Option(`${i + 1}: ${g.error}`, i);
    const who = g.players ? ` ${g.players[0]} – ${g.players[1]}` : "";
    const end = g.live ? "playing" : `${g.result || ""} ${g.reason || ""}`;
    return new Option(`${i + 1}: ${g.game}${who} ${end} (${g.plies} plies)`, i);
  }));
  if (keep !== "" && Number(keep) < msg.games.length) sel.value = keep;
  showWatchPly();
}

function showWatchPly() {
  const w = state && state.watched;
  const live = w && watchedGames[w[0]] && watchedGames[w[0]].live ? " (playing)" : "";
  $("watch-ply").textContent = w ? `ply ${state.moves.length} / ${w[1]}${live}` : "";
}

// Replays the watched game: the server holds it and shows it at the asked ply.
let watchTimer = null;
function watchGo(ply) {
  const index = Number($("watch-games").value);
  if (Number.isNaN(index)) return;
  const plies = state && state.watched && state.watched[0] === index ? state.watched[1] : Infinity;
  send({ type: "watch", index, ply: Math.max(0, Math.min(ply, plies)) });
}
function watchPly() { return state && state.watched ? state.moves.length : 0; }
$("watch-refresh").onclick = () => send({ type: "watch_list" });
$("watch-games").onchange = () => watchGo(0);
$("watch-first").onclick = () => watchGo(0);
$("watch-prev").onclick = () => watchGo(watchPly() - 1);
$("watch-next").onclick = () => watchGo(state && state.watched ? watchPly() + 1 : 1);
// no ply: the server's last, which a game in progress may have moved past since the page heard of it
$("watch-last").onclick = () => {
  const index = Number($("watch-games").value);
  if (!Number.isNaN(index)) send({ type: "watch", index });
};
$("watch-auto").onclick = () => {
  if (watchTimer) { clearInterval(watchTimer); watchTimer = null; $("watch-auto").textContent = "Auto"; return; }
  $("watch-auto").textContent = "Pause";
  watchTimer = setInterval(() => {
    if (state && state.watched && watchPly() >= state.watched[1]) return;
    watchGo(state && state.watched ? watchPly() + 1 : 1);
  }, 700);
};

function fillStarts() {
  const g = hello.games.find(g => g.name === $("game").value) || hello.games[0];
  $("start").replaceChildren(...g.starts.map(s => new Option(s, s)));
}

function onState(msg) {
  const newPosition = !state || state.sfen !== msg.sfen;
  // a solution belongs to the game it was found in
  if (state && state.start_sfen !== msg.start_sfen) { $("mate-result").replaceChildren(); mateMoves = []; mateNames = []; }
  state = msg;
  stateAt = performance.now();
  window.hayate.state = msg;
  if (newPosition) {
    ui.selected = null; ui.selectedHand = null; ui.targets = [];
    if (!msg.analysing) { ui.arrows = []; analysisLines = []; lastAnalysis = null; $("analysis").textContent = ""; }
  }
  if (!msg.analysing) ui.arrows = [];
  if ($("game").value !== msg.game) { $("game").value = msg.game; fillStarts(); }
  let text = "";
  if (msg.result) text = `${msg.result} (${msg.reason})`;
  else if (msg.thinking) text = "engine thinking…";
  else if (msg.analysing) text = "analysing…";
  else text = (msg.sfen.split(" ")[1] === "b" ? "sente" : "gote") + " to move";
  setStatus(text);
  draw();
  drawMoves();
  drawGraph();
  drawClocks();
  showWatchPly();
}

function draw() {
  if (!state) return;
  Board.drawBoard($("board"), state, ui);
}

// Japanese notation (▲７六歩, ranks 一..九) where the game has it: not Yari shogi, whose names come as none.
function japanese() { return ui.japanese && state && state.game !== "yarishogi"; }
function moveText(usi, names, i) { return japanese() && names && names[i] ? names[i] : usi; }

// A recorded move time as KIF shows it, m:ss.
function clockText(ms) {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function drawMoves() {
  const list = $("moves");
  const times = state.times_ms || [], comments = state.comments || [];
  const items = state.moves.map((m, i) => {
    const li = document.createElement("li");
    li.textContent = moveText(m, state.moves_ja, i);
    if (times[i] != null) {
      const t = document.createElement("span");
      t.className = "time";
      t.textContent = " " + clockText(times[i]);
      li.appendChild(t);
    }
    // a recorded comment after the move: shown when the mouse rests on it
    if (comments[i + 1]) { li.title = comments[i + 1]; li.classList.add("commented"); }
    li.dataset.usi = m;
    if (i === state.moves.length - 1) li.classList.add("last");
    return li;
  });
  if (state.recorded_ending) {
    const li = document.createElement("li");
    li.textContent = state.recorded_ending;
    li.className = "ending";
    items.push(li);
  }
  list.replaceChildren(...items);
  list.scrollTop = list.scrollHeight;
  // an imported record's players, header fields and the comment on the position shown
  const names = state.names;
  $("players").textContent = names ? `☗ ${names[0]}  ☖ ${names[1]}` : "";
  $("players").title = (state.headers || []).map(([k, v]) => `${k}：${v}`).join("\n");
  $("comment").textContent = comments[state.moves.length] || "";
}

// The evaluation graph: one point per ply from the engines' scores (sente's side), clipped at ±2000.
function drawGraph() {
  const svg = $("graph");
  svg.replaceChildren();
  const n = Math.max(state.evals.length, 2);
  const x = i => i * 300 / (n - 1), y = cp => 50 - Math.max(-2000, Math.min(2000, cp)) / 40;
  const mid = document.createElementNS("http://www.w3.org/2000/svg", "line");
  Object.entries({ x1: 0, x2: 300, y1: 50, y2: 50, stroke: "#999", "stroke-width": 0.5 }).forEach(([k, v]) => mid.setAttribute(k, v));
  svg.appendChild(mid);
  const pts = state.evals.map((e, i) => e === null ? null : `${x(i).toFixed(1)},${y(e).toFixed(1)}`).filter(p => p);
  if (pts.length) {
    const pl = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
    Object.entries({ points: pts.join(" "), fill: "none", stroke: "#1d5fd1", "stroke-width": 1.5, id: "eval-line" }).forEach(([k, v]) => pl.setAttribute(k, v));
    svg.appendChild(pl);
  }
}

function fmt(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function drawClocks() {
  if (!state) return;
  const [top, bottom] = ui.flipped ? ["clock-bottom", "clock-top"] : ["clock-top", "clock-bottom"];
  for (const [id, side, idx] of [[top, "white", 1], [bottom, "black", 0]]) {
    const e = $(id);
    if (!state.clocks) { e.textContent = ""; e.className = "clock"; continue; }
    let left = state.clocks[idx];
    if (state.running === side) left -= performance.now() - stateAt;
    const byo = state.byoyomi ? ` +${state.byoyomi / 1000}s` : "";
    e.textContent = `${side === "black" ? "☗" : "☖"} ${fmt(left)}${byo}`;
    e.className = "clock" + (state.running === side ? " running" : "");
  }
}
setInterval(drawClocks, 200);

function onAnalysis(msg) {
  lastAnalysis = msg;
  analysisLines = msg.lines;
  ui.arrows = msg.lines.slice(0, 3).map(l => l.pv[0]).filter(m => m);
  const box = $("analysis");
  box.replaceChildren();
  const head = document.createElement("div");
  head.textContent = `depth ${msg.depth}, ${msg.nodes} nodes`;
  box.appendChild(head);
  msg.lines.forEach(l => {
    const div = document.createElement("div");
    div.className = "pv";
    div.dataset.multipv = l.multipv;
    div.append(`${l.multipv}. ${l.score.padEnd(9)} `);
    l.pv.forEach((m, k) => {
      const s = document.createElement("span");
      s.textContent = moveText(m, l.pv_ja, k);
      s.dataset.usi = m;
      s.dataset.pvIndex = k;
      div.appendChild(s);
    });
    box.appendChild(div);
  });
  draw();
}

// Clicking a move of a line plays the line out up to it. The text is redrawn with every info line, so the
// press itself acts (a click needs the same element under press and release) and plays the line as shown.
$("analysis").addEventListener("pointerdown", ev => {
  const span = ev.target.closest("span[data-pv-index]");
  if (!span) return;
  const shown = Array.from(span.parentElement.querySelectorAll("span")).map(s => s.dataset.usi);
  const line = shown.slice(0, Number(span.dataset.pvIndex) + 1);
  window.hayate.lineClicked = line;
  line.forEach(mv => send({ type: "move", move: mv }));
});

function onMate(msg) {
  mateMoves = msg.moves;
  mateNames = msg.moves_ja || [];
  mateStep = 0;
  const box = $("mate-result");
  box.replaceChildren();
  if (msg.result !== "mate") { box.textContent = `tsume: ${msg.result}`; return; }
  box.append(`mate in ${msg.moves.length}: `);
  const back = document.createElement("button");
  back.textContent = "◀"; back.id = "mate-back";
  back.onclick = () => { if (mateStep > 0) { mateStep--; send({ type: "takeback" }); showStep(); } };
  const fwd = document.createElement("button");
  fwd.textContent = "▶"; fwd.id = "mate-next";
  fwd.onclick = () => { if (mateStep < mateMoves.length) { send({ type: "move", move: mateMoves[mateStep] }); mateStep++; showStep(); } };
  const line = document.createElement("span");
  line.id = "mate-line";
  box.append(back, fwd, " ", line);
  showStep();
}

function showStep() {
  const line = $("mate-line");
  if (!line) return;
  line.replaceChildren(...mateMoves.map((m, i) => {
    const s = document.createElement("span");
    s.textContent = moveText(m, mateNames, i) + " ";
    if (i < mateStep) s.style.fontWeight = "bold";
    return s;
  }));
}

// A failed engine stays reported (apart from the status line, which every state rewrites) until restarted.
function onEngineError(msg) {
  const box = $("engine-problem");
  box.replaceChildren(`engine ${hello ? hello.engines[msg.engine] : msg.engine} failed: ${msg.message} `);
  const b = document.createElement("button");
  b.textContent = "Restart engine";
  b.id = "restart";
  b.onclick = () => { box.hidden = true; box.replaceChildren(); send({ type: "restart", engine: msg.engine }); };
  box.appendChild(b);
  box.hidden = false;
}

// --- moving: click a piece then a square, or drag it there; drops from the hand the same way ---

function movesFrom(from) { return state.legal.filter(m => m.startsWith(from)); }
function targetsOf(moves) { return [...new Set(moves.map(m => m.slice(2, 4)))]; }

function selectSquare(sq) {
  const moves = movesFrom(sq);
  if (!moves.length || sq.length !== 2) return false;
  ui.selected = sq; ui.selectedHand = null; ui.targets = targetsOf(moves);
  return true;
}

function selectHand(key) {
  const side = state.sfen.split(" ")[1];
  if (key[0] !== side) return false;
  const moves = state.legal.filter(m => m.startsWith(key[1] + "*"));
  if (!moves.length) return false;
  ui.selectedHand = key; ui.selected = null; ui.targets = targetsOf(moves);
  return true;
}

function clearSelection() { ui.selected = null; ui.selectedHand = null; ui.targets = []; }

// Sends the move from the selection to `to`, asking about promotion when both forms are legal.
function tryMove(to) {
  if (!ui.targets.includes(to)) return false;
  const prefix = ui.selected ? ui.selected + to : ui.selectedHand[1] + "*" + to;
  const options = state.legal.filter(m => m.startsWith(prefix));
  clearSelection();
  if (options.length === 1) send({ type: "move", move: options[0] });
  else if (options.length === 2) askPromotion(prefix);
  draw();
  return true;
}

function askPromotion(move) {
  pendingPromotion = move;
  const pos = Board.parseSfen(state.sfen);
  const file = Number(move[0]), row = move.charCodeAt(1) - 97;
  const cell = pos.rows[row][pos.rows[0].length - file];
  $("promote-yes").textContent = Board.pieceLabel(state.game, "+" + cell.letter, cell.black, ui.latin);
  $("promote-no").textContent = Board.pieceLabel(state.game, cell.letter, cell.black, ui.latin);
  $("promotion").hidden = false;
}
$("promote-yes").onclick = () => { $("promotion").hidden = true; send({ type: "move", move: pendingPromotion + "+" }); };
$("promote-no").onclick = () => { $("promotion").hidden = true; send({ type: "move", move: pendingPromotion }); };

function hit(ev) {
  const t = document.elementFromPoint(ev.clientX, ev.clientY);
  if (!t || !t.dataset) return {};
  return { sq: t.dataset.sq, hand: t.dataset.hand };
}

$("board").addEventListener("pointerdown", ev => {
  if (!state || !$("promotion").hidden) return;
  const { sq, hand } = hit(ev);
  if (sq && (ui.selected || ui.selectedHand) && tryMove(sq)) return;
  if ((sq && selectSquare(sq)) || (hand && selectHand(hand))) ui.dragging = true;
  else clearSelection();
  draw();
});
$("board").addEventListener("pointerup", ev => {
  if (!ui.dragging) return;
  ui.dragging = false;
  const { sq } = hit(ev);
  if (sq && sq !== ui.selected) tryMove(sq);
});

// --- controls ---

$("game").onchange = fillStarts;
$("new").onclick = () => send({ type: "new", game: $("game").value, start: $("start").value });
$("flip").onclick = () => { ui.flipped = !ui.flipped; draw(); drawClocks(); };
$("pieces").onclick = () => { ui.latin = !ui.latin; $("pieces").textContent = ui.latin ? "Kanji pieces" : "Latin pieces"; draw(); };
$("notation").onclick = () => {
  ui.japanese = !ui.japanese;
  $("notation").textContent = ui.japanese ? "USI notation" : "Japanese notation";
  if (!state) return;
  draw(); drawMoves(); showStep();
  if (lastAnalysis) onAnalysis(lastAnalysis);
};
$("takeback").onclick = () => send({ type: "takeback" });
$("play").onclick = () => send({ type: "play", engine: Number($("engine").value), side: $("engine-side").value, tc: $("tc").value });
$("analyse").onclick = () => send({ type: "analyse", engine: Number($("engine").value), multipv: Number($("multipv").value) });
$("stop").onclick = () => send({ type: "stop" });
$("mate").onclick = () => send({ type: "mate", engine: Number($("engine").value), ms: Number($("mate-ms").value) });
$("import").onclick = () => send({ type: "import", text: $("text").value });
for (const b of document.querySelectorAll("[data-export]")) b.onclick = () => send({ type: "export", format: b.dataset.export });
