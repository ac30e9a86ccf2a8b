//! The page in Debian's headless Chromium, driven over the DevTools protocol: a complete game against Hayate
//! on each board by clicking, analysis and a tsume through the page's buttons, a screenshot of each board.
//! Positions are checked against the state the page received over its socket and against the rules core.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::Value;

use hayate::{with_variant, GameKind, Position};

use super::cdp::{Browser, Mouse, Tab};
use super::server::Server;

/// Set to 1 to skip these tests where Chromium cannot be installed.
const SKIP_VAR: &str = "HAYATE_SKIP_GUI_TESTS";
const CHROMIUM: &str = "/usr/bin/chromium";
/// The engine's strength in the games: enough to win against the first legal move, fast on a loaded machine.
const ENGINE_TC: &str = "nodes=3000";
/// A game that runs longer than this is a failure of the engine or the page.
const MAX_PLIES: usize = 400;

/// One browser at a time: two of them on a 2-core machine starve the engines.
static BROWSER: Mutex<()> = Mutex::new(());

fn chromium() -> Option<PathBuf> {
    if std::env::var(SKIP_VAR).as_deref() == Ok("1") {
        eprintln!("browser test skipped ({SKIP_VAR}=1)");
        return None;
    }
    let p = PathBuf::from(CHROMIUM);
    assert!(
        p.exists(),
        "{CHROMIUM} is missing: install Debian's chromium (and fonts-noto-cjk), or set {SKIP_VAR}=1 to skip"
    );
    Some(p)
}

fn screenshot_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/gui-screenshots");
    std::fs::create_dir_all(&dir).expect("screenshot folder");
    dir
}

fn launch(path: PathBuf, profile: &Path) -> Browser {
    // a fresh profile and no background traffic: the machine has no network, and Chromium would keep trying;
    // no throttling of timers or renderers, which would slow the page's polling on a loaded machine
    let args = [
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-default-browser-check",
        "--disable-background-timer-throttling",
        "--disable-backgrounding-occluded-windows",
        "--disable-renderer-backgrounding",
        "--disable-dev-shm-usage",
        "--disable-extensions",
        "--force-color-profile=srgb",
    ];
    Browser::launch(&path, profile, (1300, 900), &args)
}

struct Page<'a> {
    tab: &'a Tab<'a>,
}

impl Page<'_> {
    fn eval(&self, js: &str) -> Value {
        self.tab.evaluate(js, false)
    }

    /// The last state the page received over its socket.
    fn state(&self) -> Value {
        let text = self.eval("JSON.stringify(window.hayate && window.hayate.state || null)");
        serde_json::from_str(text.as_str().unwrap_or("null")).expect("state JSON")
    }

    fn last(&self, ty: &str) -> Value {
        let text = self.eval(&format!(
            "JSON.stringify(window.hayate.last['{ty}'] || null)"
        ));
        serde_json::from_str(text.as_str().unwrap_or("null")).expect("JSON")
    }

    fn wait(&self, what: &str, within: Duration, mut ok: impl FnMut(&Page) -> bool) {
        let deadline = Instant::now() + within;
        while !ok(self) {
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}; last error {}; state {}",
                self.last("error"),
                self.state()
            );
            std::thread::sleep(Duration::from_millis(15));
        }
    }

    /// Waits inside the page until `cond` (JavaScript over the last state `s`) holds, and returns that state:
    /// one DevTools call instead of one per poll.
    fn wait_in_page(&self, cond: &str, within: Duration) -> Value {
        let js = format!(
            "new Promise(done => {{ const t0 = Date.now(); const poll = () => {{ const s = window.hayate.state; \
             if (s && ({cond})) done(JSON.stringify(s)); else if (Date.now() - t0 > {ms}) done('null'); \
             else setTimeout(poll, 5); }}; poll(); }})",
            ms = within.as_millis()
        );
        let r = self.tab.evaluate(&js, true);
        let v: Value = serde_json::from_str(r.as_str().unwrap_or("null")).expect("JSON");
        assert!(
            !v.is_null(),
            "timed out waiting for {cond}; last error {}; state {}",
            self.last("error"),
            self.state()
        );
        v
    }

    /// The centre of an element in the viewport.
    fn centre(&self, selector: &str) -> (f64, f64) {
        let js = format!(
            "(() => {{ const e = document.querySelector('{selector}'); if (!e) return null; \
             e.scrollIntoView({{block: 'nearest'}}); const r = e.getBoundingClientRect(); \
             return JSON.stringify([r.left + r.width / 2, r.top + r.height / 2]); }})()"
        );
        let at: Value =
            serde_json::from_str(self.eval(&js).as_str().unwrap_or("null")).expect("JSON");
        match (at[0].as_f64(), at[1].as_f64()) {
            (Some(x), Some(y)) => (x, y),
            _ => panic!("no element {selector}"),
        }
    }

    /// One mouse event with the left button.
    fn mouse(&self, kind: Mouse, at: (f64, f64)) {
        self.tab.mouse(kind, at);
    }

    /// A real mouse click (press and release) at the centre of the element.
    fn click(&self, selector: &str) {
        self.tab.click_point(self.centre(selector));
    }

    fn set_value(&self, id: &str, value: &str) {
        self.eval(&format!(
            "(() => {{ const e = document.getElementById('{id}'); e.value = '{value}'; e.dispatchEvent(new Event('change')); }})()"
        ));
    }

    fn screenshot(&self, name: &str) -> PathBuf {
        let png = self.tab.capture_png();
        let path = screenshot_dir().join(name);
        std::fs::write(&path, png).expect("write screenshot");
        path
    }

    fn moves(&self) -> Vec<String> {
        let s = self.state();
        s["moves"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|m| m.as_str().unwrap_or("").to_string())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Plays `mv` by clicking: the piece (or the hand's piece) then the square, and the promotion dialog when
    /// it comes up.
    fn play_by_clicks(&self, mv: &str, black: bool) {
        if mv.as_bytes()[1] == b'*' {
            let side = if black { 'b' } else { 'w' };
            self.click(&format!("[data-hand=\"{side}{}\"]", &mv[..1]));
            self.click(&format!("[data-sq=\"{}\"]", &mv[2..4]));
        } else {
            self.click(&format!("[data-sq=\"{}\"]", &mv[..2]));
            self.click(&format!("[data-sq=\"{}\"]", &mv[2..4]));
        }
        let dialog = self.eval("!document.getElementById('promotion').hidden");
        if dialog == Value::Bool(true) {
            self.click(if mv.ends_with('+') {
                "#promote-yes"
            } else {
                "#promote-no"
            });
        }
    }
}

/// The SFEN after `moves` from `start`, by the rules core.
fn replay(kind: GameKind, start: &str, moves: &[String]) -> String {
    with_variant!(kind, V => {
        let mut p = Position::<V>::from_sfen(start).expect("start SFEN");
        p.play_usi_moves(moves.iter().map(String::as_str)).expect("legal moves");
        p.to_sfen()
    })
}

/// Our move: the king steps forward whenever it can (the page shows where it stands), so that the engine mates
/// it soon and the test stays short; otherwise the first legal move the server lists that is not the king's
/// (a king shuffling sideways makes long games).
fn kamikaze(state: &Value, king: &str) -> String {
    let legal: Vec<&str> = state["legal"]
        .as_array()
        .expect("legal")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let forward = legal
        .iter()
        .filter(|m| king.len() == 2 && m.starts_with(king) && m.as_bytes()[3] < king.as_bytes()[1])
        .min_by_key(|m| m.as_bytes()[3]);
    let other = legal
        .iter()
        .find(|m| king.len() != 2 || !m.starts_with(king));
    forward
        .or(other)
        .or(legal.first())
        .expect("a legal move on our turn")
        .to_string()
}

/// A whole game: the page's player (sente) plays by clicking (see [`kamikaze`]); Hayate answers as gote.
/// Returns the final state. Each ply costs a handful of DevTools round trips, no more: on a loaded 2-core
/// machine each one takes tens of milliseconds.
fn play_game(page: &Page, game: &str, kind: GameKind, tc: &str) -> Value {
    page.set_value("game", game);
    page.click("#new");
    page.wait("the new board", Duration::from_secs(10), |p| {
        p.state()["game"] == kind.name() && p.moves().is_empty()
    });
    page.set_value("engine-side", "white");
    page.set_value("tc", tc);
    page.click("#play");
    page.wait("the engine on gote", Duration::from_secs(10), |p| {
        p.state()["engine_side"] == "white"
    });
    let start = page.state()["start_sfen"]
        .as_str()
        .expect("start")
        .to_string();
    let mut s = page.state();
    loop {
        if !s["result"].is_null() {
            return s;
        }
        let played = s["moves"].as_array().expect("moves").len();
        assert!(
            played < MAX_PLIES,
            "{game}: no result after {MAX_PLIES} plies"
        );
        if played == 4 {
            page.screenshot(&format!("{game}-play.png"));
        }
        let king = page.eval(
            "(document.querySelector('#board [data-piece=\"bK\"]') || {dataset: {}}).dataset.at || ''",
        );
        let mv = kamikaze(&s, king.as_str().unwrap_or(""));
        page.play_by_clicks(&mv, true);
        // our move, then the engine's reply (or the end), waited for inside the page
        s = page.wait_in_page(
            &format!(
                "s.result || (s.moves.length >= {} && !s.thinking)",
                played + 2
            ),
            Duration::from_secs(60),
        );
        let moves: Vec<String> = serde_json::from_value(s["moves"].clone()).expect("moves");
        assert_eq!(moves[played], mv, "{game}: the clicked move");
        assert_eq!(
            s["sfen"].as_str(),
            Some(replay(kind, &start, &moves).as_str()),
            "{game}: the position"
        );
    }
}

/// A move dragged (press on the piece, move, release on the square), taken back with the button; then a
/// bishop move that may promote, the dialog answered.
fn drag_and_promotion(page: &Page) {
    let from = page.centre("[data-sq=\"7g\"]");
    let to = page.centre("[data-sq=\"7f\"]");
    page.mouse(Mouse::Pressed, from);
    page.mouse(Mouse::Moved, ((from.0 + to.0) / 2.0, (from.1 + to.1) / 2.0));
    page.mouse(Mouse::Moved, to);
    page.mouse(Mouse::Released, to);
    let s = page.wait_in_page("s.moves.length == 1", Duration::from_secs(10));
    assert_eq!(s["moves"], serde_json::json!(["7g7f"]));
    page.click("#takeback");
    page.wait_in_page("s.moves.length == 0", Duration::from_secs(10));
    page.set_value("text", "position startpos moves 7g7f 3c3d");
    page.click("#import");
    page.wait_in_page("s.moves.length == 2", Duration::from_secs(10));
    page.click("[data-sq=\"8h\"]");
    page.click("[data-sq=\"2b\"]");
    assert_eq!(
        page.eval("!document.getElementById('promotion').hidden"),
        Value::Bool(true),
        "the promotion dialog"
    );
    assert_eq!(
        page.eval("document.getElementById('promote-yes').textContent"),
        "馬"
    );
    page.screenshot("shogi-promotion.png");
    page.click("#promote-yes");
    let s = page.wait_in_page("s.moves.length == 3", Duration::from_secs(10));
    assert_eq!(s["moves"][2], "8h2b+");
    assert_eq!(
        s["sfen"],
        "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4"
    );
}

/// A KIF pasted and imported: the move list in Japanese notation and the ranks in kanji (the screenshot of a 9×9
/// game in progress), then in USI at the press of the notation button, and back.
fn japanese_notation(page: &Page) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kif/kifu-for-windows.kif");
    let bytes = std::fs::read(path).expect("the KIF file");
    let text = hayate::rules::notation::header::decode(&bytes, Some("kif")).expect("Shift_JIS");
    let json = serde_json::to_string(&text).expect("JSON");
    page.eval(&format!("document.getElementById('text').value = {json}"));
    page.click("#import");
    let s = page.wait_in_page("s.moves.length == 40", Duration::from_secs(10));
    let shown = |p: &Page| -> Vec<String> {
        let list = p.eval(
            "JSON.stringify([...document.querySelectorAll('#moves li:not(.ending)')].map(l => l.firstChild.textContent))",
        );
        serde_json::from_str(list.as_str().unwrap_or("[]")).expect("JSON")
    };
    let coords = |p: &Page| {
        p.eval("[...document.querySelectorAll('#board .coord')].map(t => t.textContent).join('')")
    };
    let japanese = shown(page);
    assert_eq!(
        japanese,
        serde_json::from_value::<Vec<String>>(s["moves_ja"].clone()).expect("moves_ja")
    );
    assert_eq!(japanese[..3], ["▲７六歩", "△８四歩", "▲６八銀"]);
    assert_eq!(japanese[10], "▲５八金右");
    assert_eq!(japanese[22], "▲同　歩");
    assert_eq!(coords(page), "987654321一二三四五六七八九");
    // what the record says beside the moves: the players, each move's time, a comment, the ending
    assert_eq!(
        page.eval("document.getElementById('players').textContent"),
        "☗ 羽生善治  ☖ 渡辺明"
    );
    assert_eq!(
        page.eval("[...document.querySelectorAll('#moves li')].slice(0, 2).map(l => l.textContent + '|' + l.title).join(',')"),
        "▲７六歩 0:17|角道を開ける。,△８四歩 1:12|"
    );
    assert_eq!(
        page.eval("document.querySelector('#moves li:last-child').textContent"),
        "投了"
    );
    // the analysis lines in Japanese notation too, continuing from the game's last move
    page.set_value("multipv", "2");
    page.click("#analyse");
    page.wait("two analysis lines", Duration::from_secs(30), |p| {
        p.last("analysis")["lines"].as_array().is_some_and(|l| {
            l.len() == 2
                && l.iter()
                    .all(|x| x["pv"].as_array().is_some_and(|pv| pv.len() >= 3))
        })
    });
    page.click("#stop");
    page.wait("analysis stopped", Duration::from_secs(10), |p| {
        p.state()["analysing"] == false
    });
    let pv = page.eval(
        "JSON.stringify([...document.querySelectorAll('#analysis .pv[data-multipv=\"1\"] span')].map(s => s.textContent))",
    );
    let pv: Vec<String> = serde_json::from_str(pv.as_str().unwrap_or("[]")).expect("JSON");
    let lines = page.last("analysis")["lines"].clone();
    assert_eq!(
        pv,
        serde_json::from_value::<Vec<String>>(lines[0]["pv_ja"].clone()).expect("pv_ja")
    );
    assert!(pv[0].starts_with('▲'), "{pv:?}");
    page.screenshot("shogi-japanese.png");
    page.click("#notation");
    assert_eq!(shown(page), page.moves());
    assert_eq!(coords(page), "987654321abcdefghi");
    page.click("#notation");
    assert_eq!(shown(page), japanese);
}

/// Analysis on the start position: MultiPV lines as arrows and text, then a move of the best line clicked.
fn analyse(page: &Page, game: &str) {
    page.set_value("engine-side", "none");
    page.click("#play");
    page.click("#new");
    page.wait("a fresh board", Duration::from_secs(10), |p| {
        p.moves().is_empty() && p.state()["engine_side"].is_null()
    });
    page.set_value("multipv", "3");
    page.click("#analyse");
    page.wait("three analysis lines", Duration::from_secs(30), |p| {
        let a = p.last("analysis");
        a["lines"].as_array().is_some_and(|l| {
            l.len() == 3
                && l.iter()
                    .all(|x| x["pv"].as_array().is_some_and(|pv| pv.len() >= 2))
        }) && a["depth"].as_u64() >= Some(3)
    });
    // the text and arrows are redrawn with each line; one arrow per line once all three are in
    page.wait("three arrows", Duration::from_secs(10), |p| {
        p.eval("document.querySelectorAll('#board [data-arrow]').length")
            .as_u64()
            == Some(3)
    });
    page.screenshot(&format!("{game}-analysis.png"));
    // the line as the page showed it when clicked; the text is redrawn (and may rewrap) as the search goes on,
    // so a click that landed between two redraws on something else is tried again
    page.eval("window.hayate.lineClicked = null");
    let mut line: Option<Vec<String>> = None;
    for _ in 0..10 {
        page.click("#analysis .pv[data-multipv=\"1\"] span[data-pv-index=\"1\"]");
        line = page
            .eval("JSON.stringify(window.hayate.lineClicked || null)")
            .as_str()
            .and_then(|t| serde_json::from_str(t).ok());
        if line.is_some() {
            break;
        }
    }
    let line = line.expect("a move of the best line clicked");
    assert_eq!(line.len(), 2);
    page.wait("the line played out", Duration::from_secs(10), |p| {
        p.moves() == line
    });
    page.click("#stop");
    page.wait("analysis stopped", Duration::from_secs(10), |p| {
        p.state()["analysing"] == false
    });
}

/// The engine's scores of the game just played, drawn: one point of the graph's line per ply with a score.
fn eval_graph(page: &Page) {
    let scored = page.state()["evals"]
        .as_array()
        .expect("evals")
        .iter()
        .filter(|e| !e.is_null())
        .count();
    let points = page.eval(
        "(() => { const l = document.getElementById('eval-line'); \
         return l ? l.getAttribute('points').trim().split(/\\s+/).length : 0; })()",
    );
    assert!(scored >= 2, "the engine scored its moves: {scored}");
    assert_eq!(points.as_u64(), Some(scored as u64));
    page.screenshot("eval-graph.png");
}

/// A handicap chosen in the page's Start control: the game starts from its SFEN, gote to move.
fn handicap(page: &Page) {
    page.set_value("game", "shogi");
    page.set_value("start", "bishop");
    page.click("#new");
    let bishop = "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
    page.wait("the bishop handicap", Duration::from_secs(10), |p| {
        p.state()["start_sfen"] == bishop
    });
    let s = page.state();
    assert_eq!(
        (s["sfen"].as_str(), s["game"].as_str()),
        (Some(bishop), Some("shogi"))
    );
    assert!(page.moves().is_empty());
    page.screenshot("handicap.png");
}

/// A 9×9 game in progress pasted as KIF, shown in Japanese notation and in USI.
#[test]
fn a_pasted_kif_in_japanese_notation() {
    let Some(path) = chromium() else { return };
    let _one = BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let server = Server::start(&[]);
    let profile = std::env::temp_dir().join(format!("hayate-gui-test-kif-{}", std::process::id()));
    let browser = launch(path, &profile);
    let tab = browser.new_tab();
    tab.set_default_timeout(Duration::from_secs(30));
    tab.navigate_to(&server.url("/"));
    let page = Page { tab: &tab };
    page.wait("the first state", Duration::from_secs(20), |p| {
        !p.state().is_null()
    });
    japanese_notation(&page);
}

/// A running `hayate match` watched on the page: the game in progress is listed as playing, and once shown at
/// its last ply the page follows it, the move count growing without a click.
#[test]
fn a_running_match_is_watched_live() {
    let Some(path) = chromium() else { return };
    let _one = BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let dir = std::env::temp_dir().join(format!("hayate-gui-browser-live-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // paced by the clock, not by nodes: at a fixed node count a fast machine plays a debug build's game in two or
    // three seconds, and CI once saw both games end before the browser had shown either growing; at 150 ms a move
    // a game lasts several seconds on any machine, and three of them finish well within the test
    let mut matched = super::server::start_minishogi_match(&dir, "byoyomi=150", 3);
    let server = Server::start(&["--watch", dir.to_str().expect("path")]);
    let profile = std::env::temp_dir().join(format!("hayate-gui-test-live-{}", std::process::id()));
    let browser = launch(path, &profile);
    let tab = browser.new_tab();
    tab.set_default_timeout(Duration::from_secs(30));
    tab.navigate_to(&server.url("/"));
    let page = Page { tab: &tab };
    let playing = "[...document.getElementById('watch-games').options].findIndex(o => o.text.includes('playing'))";
    let text = |p: &Page| {
        p.eval("document.getElementById('watch-ply').textContent")
            .as_str()
            .unwrap_or("")
            .to_string()
    };
    // a game that ends before it was seen growing by two moves gives way to the next one
    let mut grown = None;
    for _ in 0..3 {
        page.wait("a game in progress listed", Duration::from_secs(60), |p| {
            p.eval(playing).as_i64().is_some_and(|i| i >= 0)
        });
        let index = page.eval(playing).as_i64().expect("index");
        page.set_value("watch-games", &index.to_string());
        page.click("#watch-last");
        let shown = |p: &Page| -> Option<(usize, usize, bool)> {
            let s = p.state();
            let w = &s["watched"];
            (w[0].as_i64() == Some(index)).then(|| {
                (
                    p.moves().len(),
                    w[1].as_u64().unwrap_or(0) as usize,
                    s["result"].is_null(),
                )
            })
        };
        // ▶| clicked before the selected game's moves have arrived leaves the page at ply 0 (seen once in a
        // loaded full run: watched [0, 47], no moves shown); a user clicks again, and so does the test
        page.wait("the game in progress shown", Duration::from_secs(10), |p| {
            let at_end = shown(p).is_some_and(|(ply, plies, _)| ply == plies);
            if !at_end && shown(p).is_some() {
                p.click("#watch-last");
            }
            at_end
        });
        let (first, _, _) = shown(&page).expect("shown");
        page.wait(
            "the game's plies, or its end",
            Duration::from_secs(60),
            |p| {
                shown(p).is_some_and(|(ply, plies, playing)| {
                    !playing || (ply == plies && ply >= first + 2)
                })
            },
        );
        if shown(&page).is_some_and(|(_, _, playing)| playing) {
            grown = Some(index);
            break;
        }
    }
    let index = grown.expect("a game seen growing on the page");
    // the count shown, the move list and the graph of the engines' scores agree with the state, at the last ply
    let agree = "(() => { const s = window.hayate.state; \
        return document.getElementById('watch-ply').textContent === `ply ${s.moves.length} / ${s.watched[1]} (playing)` \
        && document.getElementById('moves').children.length === s.moves.length \
        && s.evals.some(e => e !== null) && document.getElementById('eval-line') \
        && document.getElementById('eval-line').getAttribute('points').trim().split(/\\s+/).length \
           === s.evals.filter(e => e !== null).length; })()";
    page.wait("the page's count and graph", Duration::from_secs(10), |p| {
        p.eval(agree) == Value::Bool(true)
    });
    page.screenshot("watch-live.png");
    // the game ends and moves to the finished games: the page shows its result
    page.wait("the game over", Duration::from_secs(120), |p| {
        !p.state()["result"].is_null()
    });
    assert!(!text(&page).contains("playing"), "{}", text(&page));
    assert_eq!(matched.wait().expect("match").code(), Some(0));
    let games = std::fs::read_to_string(dir.join("games.txt")).expect("games.txt");
    let line = games.lines().nth(index as usize).expect("the game's line");
    let finished: Vec<&str> = line
        .split_once(" moves")
        .expect("moves")
        .1
        .split_whitespace()
        .collect();
    let moves = page.moves();
    assert!(finished.len() >= moves.len() && finished[..moves.len()] == moves[..]);
    drop(browser);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&profile);
}

#[test]
fn complete_games_analysis_and_tsume_on_all_three_boards() {
    let Some(path) = chromium() else { return };
    let _one = BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let watched =
        std::env::temp_dir().join(format!("hayate-gui-browser-{}.txt", std::process::id()));
    std::fs::write(
        &watched,
        "0-1 resign sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 3e3d 3a3b\n",
    )
    .expect("record");
    // Hayate, and an engine that crashes on its first `go`
    let hayate = format!("cmd={}", env!("CARGO_BIN_EXE_hayate"));
    let crasher = format!(
        "arg={}/tests/fake_engines/fake_engine.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let server = Server::start(&[
        "--watch",
        watched.to_str().expect("path"),
        "--engine",
        &hayate,
        "name=Hayate",
        "--engine",
        "cmd=python3",
        &crasher,
        "arg=crash",
        "name=Crasher",
    ]);
    let profile = std::env::temp_dir().join(format!("hayate-gui-test-{}", std::process::id()));
    let browser = launch(path, &profile);
    let tab = browser.new_tab();
    // the longest call is a wait inside the page for the engine's move
    tab.set_default_timeout(Duration::from_secs(90));
    tab.navigate_to(&server.url("/"));
    let page = Page { tab: &tab };
    page.wait("the first state", Duration::from_secs(20), |p| {
        !p.state().is_null()
    });
    drag_and_promotion(&page);
    // minishogi's game on a Fischer clock (drawn in its screenshots), the others at fixed nodes
    for (game, kind, tc) in [
        ("minishogi", GameKind::Minishogi, "10000+100"),
        ("yarishogi", GameKind::Yari, ENGINE_TC),
        ("shogi", GameKind::Shogi, ENGINE_TC),
    ] {
        let t = Instant::now();
        let end = play_game(&page, game, kind, tc);
        eprintln!(
            "{game}: {} {} after {} plies in {:.1} s",
            end["result"],
            end["reason"],
            end["moves"].as_array().map_or(0, |m| m.len()),
            t.elapsed().as_secs_f64()
        );
        if tc != ENGINE_TC {
            assert!(end["clocks"].is_array(), "{game}: clocks shown");
        }
        if game == "minishogi" {
            eval_graph(&page);
        }
        page.screenshot(&format!("{game}-end.png"));
        analyse(&page, game);
    }
    // tsume: a mate in 3 imported as SFEN, solved, the solution stepped through to the mate
    page.set_value("text", "RBk+b+R/2+s2/5/5/5 b Ggs2p 1");
    page.click("#import");
    page.wait("the problem", Duration::from_secs(10), |p| {
        p.state()["game"] == "minishogi" && p.moves().is_empty()
    });
    page.click("#mate");
    page.wait("the solution", Duration::from_secs(30), |p| {
        p.last("mate")["result"] == "mate"
    });
    let solution = page.last("mate")["moves"].as_array().expect("moves").len();
    assert_eq!(solution, 3);
    for i in 0..solution {
        page.click("#mate-next");
        page.wait("the next step", Duration::from_secs(10), |p| {
            p.moves().len() == i + 1
        });
    }
    let s = page.state();
    assert_eq!(
        (s["result"].as_str(), s["reason"].as_str()),
        (Some("1-0"), Some("checkmate"))
    );
    page.screenshot("tsume.png");
    // the Latin piece set and the flipped board
    page.click("#pieces");
    page.click("#flip");
    let label = page.eval("document.querySelector('#board [data-piece] text').textContent");
    assert!(
        label
            .as_str()
            .is_some_and(|l| l.chars().all(|c| c.is_ascii_uppercase() || c == '+')),
        "{label}"
    );
    page.screenshot("tsume-latin-flipped.png");
    page.click("#pieces");
    page.click("#flip");
    handicap(&page);
    // the watched record, stepped through
    page.wait("the watched games", Duration::from_secs(10), |p| {
        p.eval("document.getElementById('watch-games').options.length")
            .as_u64()
            == Some(1)
    });
    page.click("#watch-first");
    page.wait("the watched game", Duration::from_secs(10), |p| {
        p.state()["watched"] == serde_json::json!([0, 2])
    });
    page.click("#watch-next");
    page.wait("ply 1", Duration::from_secs(10), |p| p.moves() == ["3e3d"]);
    page.click("#watch-next");
    page.wait("ply 2", Duration::from_secs(10), |p| {
        p.moves() == ["3e3d", "3a3b"]
    });
    let s = page.state();
    assert_eq!(s["sfen"], "rb1gk/2s1p/5/P1S2/KG1BR b - 3");
    assert_eq!(
        (s["result"].as_str(), s["reason"].as_str()),
        (Some("0-1"), Some("resign"))
    );
    page.screenshot("watch.png");
    // Auto: from the start, the shown ply advances by itself to the end, then the button pauses it
    page.click("#watch-first");
    page.wait("the watched start", Duration::from_secs(10), |p| {
        p.state()["watched"] == serde_json::json!([0, 2]) && p.moves().is_empty()
    });
    page.click("#watch-auto");
    assert_eq!(
        page.eval("document.getElementById('watch-auto').textContent"),
        "Pause"
    );
    page.wait("ply 1 by itself", Duration::from_secs(10), |p| {
        p.moves() == ["3e3d"]
    });
    page.wait("ply 2 by itself", Duration::from_secs(10), |p| {
        p.moves().len() == 2
    });
    page.click("#watch-auto");
    assert_eq!(
        page.eval("document.getElementById('watch-auto').textContent"),
        "Auto"
    );
    // a crashed engine: reported on the page with a button that starts it again (it crashes again)
    page.set_value("engine", "1");
    page.set_value("engine-side", "black");
    page.set_value("tc", "nodes=100");
    page.click("#new");
    page.click("#play");
    page.wait("the crash reported", Duration::from_secs(20), |p| {
        p.eval("!!document.getElementById('restart')") == Value::Bool(true)
    });
    let status = page.eval("document.getElementById('engine-problem').textContent");
    assert!(
        status
            .as_str()
            .is_some_and(|t| t.starts_with("engine Crasher failed: the engine exited")),
        "{status}"
    );
    page.screenshot("engine-crash.png");
    page.eval("window.hayate.last.engine_error = null");
    page.click("#restart");
    page.wait(
        "the restarted engine's crash",
        Duration::from_secs(20),
        |p| !p.last("engine_error").is_null(),
    );
    drop(browser);
    let _ = std::fs::remove_file(&watched);
    let _ = std::fs::remove_dir_all(&profile);
}
