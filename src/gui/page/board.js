// Draws a board of any size with both hands as SVG. It only draws: which moves exist is the server's word
// (state.legal); this file turns SFEN letters into pictures and pointer positions into squares.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const CELL = 56;
const MARGIN = 22;
const HAND_H = 64;
const HAND_ORDER = ["R", "B", "G", "S", "N", "L", "P"];
// rank labels in Japanese notation; Yari shogi keeps its letters, having no Japanese notation
const RANK_KANJI = "一二三四五六七八九";

// One kanji per piece, by game; promoted pieces are drawn in red.
const KANJI = {
  shogi: { K: "玉", k: "王", R: "飛", B: "角", G: "金", S: "銀", N: "桂", L: "香", P: "歩",
           "+R": "龍", "+B": "馬", "+S": "全", "+N": "圭", "+L": "杏", "+P": "と" },
  yarishogi: { K: "玉", k: "王", R: "車", B: "槍", N: "桂", P: "歩",
               "+R": "飛", "+B": "金", "+N": "金", "+P": "銀" },
};
KANJI.minishogi = KANJI.shogi;

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// The board of an SFEN: rows from rank a, each from file F down to 1; cells are null or {letter, black}.
function parseSfen(sfen) {
  const [board, side, hands] = sfen.split(" ");
  const rows = board.split("/").map(row => {
    const cells = [];
    let promoted = false;
    for (const ch of row) {
      if (ch >= "0" && ch <= "9") {
        for (let i = 0; i < Number(ch); i++) cells.push(null);
      } else if (ch === "+") {
        promoted = true;
      } else {
        cells.push({ letter: (promoted ? "+" : "") + ch.toUpperCase(), black: ch === ch.toUpperCase() });
        promoted = false;
      }
    }
    return cells;
  });
  const hand = { b: {}, w: {} };
  let n = "";
  for (const ch of hands === "-" ? "" : hands) {
    if (ch >= "0" && ch <= "9") { n += ch; continue; }
    const who = ch === ch.toUpperCase() ? "b" : "w";
    hand[who][ch.toUpperCase()] = (hand[who][ch.toUpperCase()] || 0) + (n ? Number(n) : 1);
    n = "";
  }
  return { rows, side, hand };
}

function squareName(files, col, row) {
  return String(files - col) + String.fromCharCode(97 + row);
}

// Where a USI square is drawn: the centre of its cell.
function squareCentre(geo, sq) {
  const file = Number(sq[0]);
  const row = sq.charCodeAt(1) - 97;
  let col = geo.files - file;
  let r = row;
  if (geo.flipped) { col = geo.files - 1 - col; r = geo.ranks - 1 - r; }
  return [geo.x0 + col * CELL + CELL / 2, geo.y0 + r * CELL + CELL / 2];
}

function pieceLabel(game, letter, black, latin) {
  if (latin) return letter;
  const set = KANJI[game] || KANJI.shogi;
  if (letter === "K") return black ? set.K : set.k;
  return set[letter] || letter;
}

// A shogi piece: a pentagon pointing at the opponent, the label upright for its owner.
function drawPiece(parent, cx, cy, size, label, promoted, turned) {
  const g = el("g", { class: "piece", transform: `translate(${cx} ${cy})` + (turned ? " rotate(180)" : "") }, parent);
  const w = size * 0.42, h = size * 0.46;
  el("path", { d: `M0 ${-h} L${w * 0.78} ${-h * 0.68} L${w} ${h} L${-w} ${h} L${-w * 0.78} ${-h * 0.68} Z` }, g);
  const t = el("text", { y: size * 0.04, "font-size": label.length > 1 ? size * 0.36 : size * 0.5 }, g);
  if (promoted) t.setAttribute("class", "promoted");
  t.textContent = label;
  return g;
}

// Draws everything; `ui` holds the page's choices (flip, latin, selection, targets, arrows).
function drawBoard(svg, state, ui) {
  const game = state.game;
  const pos = parseSfen(state.sfen);
  const ranks = pos.rows.length, files = pos.rows[0].length;
  const geo = { ranks, files, flipped: ui.flipped, x0: MARGIN, y0: HAND_H + MARGIN };
  const width = files * CELL + 2 * MARGIN, height = ranks * CELL + 2 * MARGIN + 2 * HAND_H;
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("data-game", game);
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  const defs = el("defs", {}, svg);
  for (const [id, colour] of [["head0", "#1d5fd1"], ["head1", "#2a9d3a"], ["head2", "#c77c00"]]) {
    const m = el("marker", { id, viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 3, markerHeight: 3, orient: "auto-start-reverse" }, defs);
    el("path", { d: "M0 0 L10 5 L0 10 z", fill: colour }, m);
  }
  const last = state.moves.length ? state.moves[state.moves.length - 1] : null;
  const lastSquares = last ? (last[1] === "*" ? [last.slice(2, 4)] : [last.slice(0, 2), last.slice(2, 4)]) : [];
  // coordinates: file numbers above, rank letters (kanji in Japanese notation) on the right (as sente sees them,
  // turned when flipped)
  for (let c = 0; c < files; c++) {
    const file = ui.flipped ? c + 1 : files - c;
    const t = el("text", { class: "coord", x: geo.x0 + c * CELL + CELL / 2, y: geo.y0 - 10 }, svg);
    t.textContent = file;
  }
  for (let r = 0; r < ranks; r++) {
    const rank = ui.flipped ? ranks - 1 - r : r;
    const t = el("text", { class: "coord", x: geo.x0 + files * CELL + 11, y: geo.y0 + r * CELL + CELL / 2 }, svg);
    t.textContent = ui.japanese && game !== "yarishogi" ? RANK_KANJI[rank] : String.fromCharCode(97 + rank);
  }
  for (let row = 0; row < ranks; row++) {
    for (let col = 0; col < files; col++) {
      const sq = squareName(files, col, row);
      const [cx, cy] = squareCentre(geo, sq);
      let cls = "sq";
      if (lastSquares.includes(sq)) cls += " last";
      if (state.check === sq) cls += " check";
      if (ui.selected === sq) cls += " selected";
      el("rect", { class: cls, x: cx - CELL / 2, y: cy - CELL / 2, width: CELL, height: CELL, "data-sq": sq }, svg);
      const p = pos.rows[row][col];
      if (p) {
        const g = drawPiece(svg, cx, cy, CELL, pieceLabel(game, p.letter, p.black, ui.latin), p.letter[0] === "+", p.black === ui.flipped);
        g.setAttribute("data-piece", (p.black ? "b" : "w") + p.letter);
        g.setAttribute("data-at", sq);
      }
      if (ui.targets.includes(sq)) el("circle", { class: "target", cx, cy, r: CELL * 0.16 }, svg);
    }
  }
  // hands: gote's above the board, sente's below (swapped when flipped)
  for (const who of ["b", "w"]) {
    const top = (who === "w") !== ui.flipped;
    const y = top ? 4 : geo.y0 + ranks * CELL + MARGIN - 4;
    el("rect", { class: "hand", x: MARGIN, y, width: files * CELL, height: HAND_H - 8, "data-hand-of": who }, svg);
    let i = 0;
    for (const k of HAND_ORDER) {
      const n = pos.hand[who][k];
      if (!n) continue;
      const cx = MARGIN + 30 + i * 50, cy = y + (HAND_H - 8) / 2;
      const slot = el("rect", { class: "hand-slot", x: cx - 24, y: y + 2, width: 48, height: HAND_H - 12, "data-hand": who + k }, svg);
      if (ui.selectedHand === who + k) slot.setAttribute("class", "hand-slot selected");
      const g = drawPiece(svg, cx, cy, 46, pieceLabel(game, k, who === "b", ui.latin), false, (who === "b") === ui.flipped);
      g.setAttribute("class", "piece hand-piece");
      if (n > 1) {
        const t = el("text", { class: "count", x: cx + 18, y: cy + 22 }, svg);
        t.textContent = n;
      }
      i++;
    }
  }
  // analysis arrows: the first move of each line, the best line thickest
  (ui.arrows || []).forEach((mv, i) => {
    const colour = ["#1d5fd1", "#2a9d3a", "#c77c00"][Math.min(i, 2)];
    const head = "url(#head" + Math.min(i, 2) + ")";
    const [tx, ty] = squareCentre(geo, mv.slice(2, 4));
    let fx, fy;
    if (mv[1] === "*") {
      // a drop comes from the mover's hand, drawn from the hand's edge
      fx = tx; fy = ((pos.side === "b") !== ui.flipped) ? geo.y0 + ranks * CELL + MARGIN : HAND_H;
    } else {
      [fx, fy] = squareCentre(geo, mv.slice(0, 2));
    }
    el("line", { class: "arrow", x1: fx, y1: fy, x2: tx, y2: ty, stroke: colour, "stroke-width": Math.max(3, 9 - 3 * i), "marker-end": head, "data-arrow": mv }, svg);
  });
  return geo;
}

window.Board = { drawBoard, parseSfen, pieceLabel, KANJI };
