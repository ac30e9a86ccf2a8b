//! The page in Debian's headless Chromium, driven over the DevTools protocol: a complete game against Hayate
//! on each board by clicking, analysis and a tsume through the page's buttons, a screenshot of each board.
//! Positions are checked against the state the page received over its socket and against the rules core.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
use headless_chrome::{Browser, LaunchOptions, Tab};
use serde_json::Value;

use hayate::{with_variant, GameKind, Position};

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
    // a fresh profile and no background traffic: the machine has no network, and Chromium would keep trying
    let args: Vec<&std::ffi::OsStr> = [
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-default-browser-check",
    ]
    .iter()
    .map(std::ffi::OsStr::new)
    .collect();
    let opts = LaunchOptions::default_builder()
        .path(Some(path))
        .headless(true)
        .sandbox(false)
        .window_size(Some((1300, 900)))
        .user_data_dir(Some(profile.to_path_buf()))
        .idle_browser_timeout(Duration::from_secs(300))
        .args(args)
        .build()
        .expect("launch options");
    Browser::new(opts).expect("start chromium")
}

struct Page<'a> {
    tab: &'a Tab,
}

impl Page<'_> {
    fn eval(&self, js: &str) -> Value {
        let r = self.tab.evaluate(js, false).expect("evaluate");
        r.value.unwrap_or(Value::Null)
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
                "timed out waiting for {what}; state {}",
                self.state()
            );
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    /// A real mouse click (press and release) at the centre of the element.
    fn click(&self, selector: &str) {
        let js = format!(
            "(() => {{ const e = document.querySelector('{selector}'); if (!e) return null; \
             e.scrollIntoView({{block: 'nearest'}}); const r = e.getBoundingClientRect(); \
             return JSON.stringify([r.left + r.width / 2, r.top + r.height / 2]); }})()"
        );
        let at: Value =
            serde_json::from_str(self.eval(&js).as_str().unwrap_or("null")).expect("JSON");
        let (x, y) = match (at[0].as_f64(), at[1].as_f64()) {
            (Some(x), Some(y)) => (x, y),
            _ => panic!("no element {selector}"),
        };
        self.tab
            .click_point(headless_chrome::browser::tab::point::Point { x, y })
            .expect("click");
    }

    fn set_value(&self, id: &str, value: &str) {
        self.eval(&format!(
            "(() => {{ const e = document.getElementById('{id}'); e.value = '{value}'; e.dispatchEvent(new Event('change')); }})()"
        ));
    }

    fn screenshot(&self, name: &str) -> PathBuf {
        let png = self
            .tab
            .capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true)
            .expect("screenshot");
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

/// A whole game: the page's player (sente) plays the first legal move the server lists, by clicking; Hayate
/// answers as gote. Returns the final state.
fn play_game(page: &Page, game: &str, kind: GameKind) -> Value {
    page.set_value("game", game);
    page.click("#new");
    page.wait("the new board", Duration::from_secs(10), |p| {
        p.state()["game"] == kind.name() && p.moves().is_empty()
    });
    page.set_value("engine-side", "white");
    page.set_value("tc", ENGINE_TC);
    page.click("#play");
    page.wait("the engine on gote", Duration::from_secs(10), |p| {
        p.state()["engine_side"] == "white"
    });
    let start = page.state()["start_sfen"]
        .as_str()
        .expect("start")
        .to_string();
    loop {
        let s = page.state();
        if !s["result"].is_null() {
            return s;
        }
        let played = page.moves();
        assert!(
            played.len() < MAX_PLIES,
            "{game}: no result after {MAX_PLIES} plies"
        );
        if played.len() == 12 {
            page.screenshot(&format!("{game}-play.png"));
        }
        let mv = s["legal"][0]
            .as_str()
            .expect("a legal move on our turn")
            .to_string();
        page.play_by_clicks(&mv, true);
        // our move, then the engine's reply (or the end)
        page.wait("our move", Duration::from_secs(10), |p| {
            p.moves().len() > played.len()
        });
        assert_eq!(page.moves()[played.len()], mv, "{game}: the clicked move");
        page.wait("the engine's reply", Duration::from_secs(60), |p| {
            let s = p.state();
            !s["result"].is_null()
                || (s["thinking"] == false && !s["legal"].as_array().is_some_and(|l| l.is_empty()))
        });
        let s = page.state();
        let moves = page.moves();
        assert_eq!(
            s["sfen"].as_str(),
            Some(replay(kind, &start, &moves).as_str()),
            "{game}: the position"
        );
    }
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
    let arrows = page.eval("document.querySelectorAll('#board [data-arrow]').length");
    assert_eq!(arrows.as_u64(), Some(3), "{game}: one arrow per line");
    page.screenshot(&format!("{game}-analysis.png"));
    page.click("#analysis .pv[data-multipv=\"1\"] span[data-pv-index=\"1\"]");
    // the line as the page showed it when clicked (it is redrawn as the search goes on)
    let line: Vec<String> = page
        .eval("JSON.stringify(window.hayate.lineClicked || null)")
        .as_str()
        .and_then(|t| serde_json::from_str(t).ok())
        .expect("a line was clicked");
    assert_eq!(line.len(), 2);
    page.wait("the line played out", Duration::from_secs(10), |p| {
        p.moves() == line
    });
    page.click("#stop");
    page.wait("analysis stopped", Duration::from_secs(10), |p| {
        p.state()["analysing"] == false
    });
}

#[test]
fn complete_games_analysis_and_tsume_on_all_three_boards() {
    let Some(path) = chromium() else { return };
    let _one = BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let server = Server::start(&[]);
    let profile = std::env::temp_dir().join(format!("hayate-gui-test-{}", std::process::id()));
    let browser = launch(path, &profile);
    let tab = browser.new_tab().expect("tab");
    tab.set_default_timeout(Duration::from_secs(30));
    tab.navigate_to(&server.url("/")).expect("open the page");
    let page = Page { tab: &tab };
    page.wait("the first state", Duration::from_secs(20), |p| {
        !p.state().is_null()
    });
    for (game, kind) in [
        ("minishogi", GameKind::Minishogi),
        ("yarishogi", GameKind::Yari),
        ("shogi", GameKind::Shogi),
    ] {
        let end = play_game(&page, game, kind);
        eprintln!(
            "{game}: {} {} after {} plies",
            end["result"],
            end["reason"],
            end["moves"].as_array().map_or(0, |m| m.len())
        );
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
    drop(browser);
    let _ = std::fs::remove_dir_all(&profile);
}
