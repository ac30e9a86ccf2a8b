//! XBoard itself, under a virtual X server, hosting Hayate against Hayate: one game in each of the three games
//! through CECP, and minishogi through the UCI2WB adapter with Hayate in USI mode. Each game XBoard saves is
//! judged by the rules core ([`crate::pgn`]); the final board is kept as a screenshot, with the game and XBoard's
//! log, under `target/xboard/`.

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use hayate::{Minishogi, Shogi, Variant, Yari};

use crate::exclusive;
use crate::pgn;

/// Set to 1 to skip these tests where the GUI tools cannot be installed.
const SKIP_VAR: &str = "HAYATE_SKIP_GUI_TESTS";

/// Each side's clock: short, so that a game takes seconds, with an increment and enough main time that no flag
/// falls on a loaded 2-core machine (one run in five failed its Yari game at 5 s + 0.1 s while other work loaded
/// the machine).
const CLOCK: [&str; 4] = ["-tc", "0:10", "-inc", "0.2"];

/// The longest a game may take, clock and start-up included.
const GAME_LIMIT: Duration = Duration::from_secs(150);

/// The tools the tests run, each looked up in PATH and in /usr/games (where Debian puts xboard and uci2wb).
fn tool(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/games")])
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// The tools, or `None` when the tests are skipped on purpose; missing tools fail the test.
fn tools(names: &[&str]) -> Option<Vec<PathBuf>> {
    let found: Vec<Option<PathBuf>> = names.iter().map(|n| tool(n)).collect();
    let missing: Vec<&str> = names
        .iter()
        .zip(&found)
        .filter(|(_, f)| f.is_none())
        .map(|(n, _)| *n)
        .collect();
    if missing.is_empty() {
        return Some(found.into_iter().flatten().collect());
    }
    if std::env::var(SKIP_VAR).as_deref() == Ok("1") {
        eprintln!("GUI test skipped ({SKIP_VAR}=1): missing {missing:?}");
        return None;
    }
    panic!(
        "the GUI tests need {missing:?} (Debian packages: xboard xvfb uci2wb imagemagick; .ci/run installs them); \
         set {SKIP_VAR}=1 to skip these tests"
    );
}

/// Where the artifacts go: `target/xboard/`.
fn artifacts() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap_or(Path::new("."))
        .join("xboard");
    fs::create_dir_all(&dir).expect("cannot create target/xboard");
    dir
}

/// A child process killed when the test ends, however it ends.
struct Process(Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A virtual X server on a free display (`-displayfd` lets it choose and tell).
fn xvfb(xvfb: &Path) -> (Process, String) {
    let mut child = Command::new(xvfb)
        .args([
            "-displayfd",
            "1",
            "-screen",
            "0",
            "1024x768x24",
            "-nolisten",
            "tcp",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("cannot start Xvfb");
    let stdout = child.stdout.take().expect("no Xvfb stdout");
    let child = Process(child);
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("Xvfb did not say its display");
    let display = format!(":{}", line.trim());
    (child, display)
}

/// Plays one game in XBoard's Two Machines mode and returns the saved game; the screenshot, the game and
/// XBoard's log are left in `target/xboard/<name>.*`.
fn host(name: &str, tools: &[PathBuf], engine: &str, board: &[&str]) -> pgn::Game {
    let (xboard, xvfb_bin, import) = (&tools[0], &tools[1], &tools[2]);
    let out = artifacts();
    let work = out.join(format!("{name}.work"));
    let _ = fs::remove_dir_all(&work);
    fs::create_dir_all(&work).expect("cannot create the work folder");
    let game = out.join(format!("{name}.pgn"));
    let shot = out.join(format!("{name}.png"));
    let log = out.join(format!("{name}.debug"));
    let _ = fs::remove_file(&game);
    let (_x, display) = xvfb(xvfb_bin);
    let settings = work.join("xboardrc").display().to_string();
    let work_dir = work.display().to_string();
    let (game_path, log_path) = (game.display().to_string(), log.display().to_string());
    let mut args: Vec<&str> = vec![
        "-fcp",
        engine,
        "-scp",
        engine,
        "-fd",
        &work_dir,
        "-sd",
        &work_dir,
        "-mode",
        "TwoMachines",
        "-smpCores",
        "1",
        "-defaultHashSize",
        "16",
        "-repeatsToDraw",
        "4",
        "-popupExitMessage",
        "false",
        // a settings file of its own, so that the user's ~/.xboardrc plays no part
        "-settingsFile",
        &settings,
        "-saveSettingsFile",
        &settings,
        "-saveGameFile",
        &game_path,
        "-debug",
        "-nameOfDebugFile",
        &log_path,
        "-boardSize",
        "Medium",
        // XBoard's own shogi pieces and board
        "-pid",
        "~~/themes/shogi",
        "-flipBlack",
        "true",
        "-trueColors",
        "true",
        "-liteBackTextureFile",
        "~~/themes/textures/wood_l.png",
        "-darkBackTextureFile",
        "~~/themes/textures/wood_l.png",
    ];
    args.extend(CLOCK);
    args.extend(board);
    let xb_out = fs::File::create(work.join("xboard.out")).expect("cannot create xboard.out");
    let _xb = Process(
        Command::new(xboard)
            .args(&args)
            .env("DISPLAY", &display)
            .current_dir(&work)
            .stdout(xb_out.try_clone().expect("xboard.out"))
            .stderr(xb_out)
            .spawn()
            .expect("cannot start xboard"),
    );
    let start = Instant::now();
    let text = loop {
        if let Ok(t) = fs::read_to_string(&game) {
            if t.contains("[Result \"") && !t.contains("[Result \"*\"]") {
                break t;
            }
        }
        if start.elapsed() > GAME_LIMIT {
            panic!(
                "{name}: no finished game after {GAME_LIMIT:?}; XBoard's log: {}",
                log.display()
            );
        }
        std::thread::sleep(Duration::from_millis(250));
    };
    // the final board stays on screen: photograph it (the root window, trimmed to XBoard's)
    std::thread::sleep(Duration::from_millis(500));
    let status = Command::new(import)
        .args(["-window", "root", "-trim", "+repage"])
        .arg(&shot)
        .env("DISPLAY", &display)
        .status()
        .expect("cannot run import");
    assert!(status.success(), "{name}: import failed");
    eprintln!(
        "{name}: {} moves in {:.1} s; screenshot {}",
        text.matches('.').count(),
        start.elapsed().as_secs_f64(),
        shot.display()
    );
    pgn::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}: {}", game.display()))
}

/// Checks the game: the variant and start position XBoard recorded, every move legal, the end by the rules.
fn judge<V: Variant>(name: &str, game: &pgn::Game, variant: &str, fen: Option<&str>) {
    assert_eq!(game.variant, variant, "{name}");
    assert_eq!(game.fen.as_deref(), fen, "{name}");
    match pgn::judge::<V>(game) {
        Ok(n) => eprintln!(
            "{name}: {n} legal plies, {} {{{}}}",
            game.result, game.reason
        ),
        Err(e) => panic!("{name}: {e}"),
    }
}

fn hayate() -> String {
    env!("CARGO_BIN_EXE_hayate").to_string()
}

#[test]
fn xboard_hosts_a_shogi_game() {
    let Some(t) = tools(&["xboard", "Xvfb", "import"]) else {
        return;
    };
    let _cpu = exclusive();
    let game = host("shogi", &t, &hayate(), &["-variant", "shogi"]);
    judge::<Shogi>("shogi", &game, "shogi", None);
}

#[test]
fn xboard_hosts_a_minishogi_game() {
    let Some(t) = tools(&["xboard", "Xvfb", "import"]) else {
        return;
    };
    let _cpu = exclusive();
    let game = host("minishogi", &t, &hayate(), &["-variant", "minishogi"]);
    judge::<Minishogi>(
        "minishogi",
        &game,
        "minishogi",
        Some("rbsgk/4p/5/P4/KGSBR[-] w 0 1"),
    );
}

#[test]
fn xboard_hosts_a_yari_shogi_game() {
    let Some(t) = tools(&["xboard", "Xvfb", "import"]) else {
        return;
    };
    let _cpu = exclusive();
    let game = host("yarishogi", &t, &hayate(), &["-variant", "yarishogi"]);
    judge::<Yari>(
        "yarishogi",
        &game,
        "yarishogi",
        Some("rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR[-] w 0 1"),
    );
}

/// Minishogi as XBoard plays it with a USI engine: XBoard's shogi on a 5×5 board with its own minishogi start
/// position (the settings of XBoard's `mini` theme), the engine behind UCI2WB, which sets `UCI_Variant`.
#[test]
fn xboard_hosts_a_minishogi_game_through_uci2wb() {
    let Some(t) = tools(&["xboard", "Xvfb", "import", "uci2wb"]) else {
        return;
    };
    let _cpu = exclusive();
    let engine = format!("{} -s {}", t[3].display(), hayate());
    let board = [
        "-variant",
        "shogi",
        "-boardWidth",
        "5",
        "-boardHeight",
        "5",
        "-holdingsSize",
        "5",
        "-pieceToCharTable",
        "P.BR.S...G.+.++.+Kp.br.s...g.+.++.+k",
        "-loadPositionFile",
        "~~/themes/conf/mini.fen",
    ];
    let game = host("minishogi-uci2wb", &t, &engine, &board);
    judge::<Minishogi>(
        "minishogi-uci2wb",
        &game,
        "shogi",
        Some("rbsgk/4p/5/P4/KGSBR[-] w 0 1"),
    );
}
