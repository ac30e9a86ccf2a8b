//! Work that runs like a search: `go` with clock figures too large for the time arithmetic, `go perft` and
//! `bench`. Each answers `stop` at once, leaves `isready` answered, and leaves the engine ready for the next `go`.

use std::process::Command;
use std::time::Duration;

use crate::legality::check_bestmove;
use crate::process::Engine;
use crate::{exclusive, ms, shared, QUICK, SEARCH};

/// i64::MAX, the largest figure a GUI can write that the engine reads as a number.
const HUGE: &str = "9223372036854775807";

/// `<usi move>: <count>`, the line of one root move of `go perft`.
fn is_root_line(line: &str) -> bool {
    line.split_once(": ")
        .is_some_and(|(m, n)| !m.contains(' ') && n.parse::<u64>().is_ok())
}

/// Clock figures of years: this build checks arithmetic overflow, and the search must neither panic nor answer
/// before `stop` (the budget is years), and the next `go` must be served (no "search state poisoned").
#[test]
fn huge_clock_times_search_until_stop_and_the_next_go_is_served() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.send("position startpos moves 7g7f");
    let sfen = e.sfen();
    for go in [
        format!("go btime {HUGE} wtime {HUGE}"),
        format!("go btime {HUGE} wtime {HUGE} byoyomi {HUGE}"),
        format!("go btime {HUGE} wtime {HUGE} binc {HUGE} winc {HUGE}"),
        format!("go btime 0 wtime 0 byoyomi {HUGE}"),
        format!("go movetime {HUGE}"),
    ] {
        e.send(&go);
        e.wait_for(SEARCH, "search info", |l| l.starts_with("info depth"));
        e.assert_no_bestmove(Duration::from_millis(300), &go);
        e.send("stop");
        let (l, _) = e.bestmove(QUICK);
        if let Err(err) = check_bestmove(&sfen, &l.text) {
            e.fail(&format!("'{go}' then stop: {err}"));
        }
        e.go_legal("go depth 2");
    }
    let lines = e.sync();
    assert!(lines.is_empty(), "{lines:?}");
}

/// `go perft 8` from the start positions takes hours; `isready` is answered meanwhile, `go` and `setoption` are
/// refused, and `stop` ends it within 100 ms with `info string perft stopped` and no total. The next perft counts
/// in full.
#[test]
fn stop_during_go_perft_8_answers_within_100ms() {
    let _cpu = exclusive();
    let mut e = Engine::new();
    let mut latencies = Vec::new();
    for (variant, two_plies) in [("shogi", 900), ("minishogi", 181), ("yarishogi", 400)] {
        e.accept(&format!("setoption name USI_Variant value {variant}"));
        e.accept("position startpos");
        e.send("go perft 8");
        std::thread::sleep(Duration::from_millis(200));
        let t = e.send("isready");
        let (l, before) = e.wait_for(QUICK, "readyok", |l| l == "readyok");
        assert!(
            l.at.duration_since(t) <= Duration::from_millis(100),
            "readyok after {:.0} ms",
            ms(l.at.duration_since(t))
        );
        let mut roots = before.len();
        for line in ["go depth 1", "go perft 1", "setoption name MultiPV value 2"] {
            e.send(line);
            let (l, before) = e.wait_for(QUICK, "error", |l| !is_root_line(l));
            if !l.text.starts_with("info string error: ") {
                e.fail(&format!("'{line}' during a perft: got '{}'", l.text));
            }
            roots += before.len();
        }
        let t = e.send("stop");
        let (l, before) = e.wait_for(QUICK, "perft stopped", |l| !is_root_line(l));
        if l.text != "info string perft stopped" {
            e.fail(&format!("stop during go perft 8: got '{}'", l.text));
        }
        latencies.push(l.at.duration_since(t));
        roots += before.len();
        assert!(roots < 10, "{variant}: {roots} root moves done at depth 8");
        e.assert_silent(Duration::from_millis(100), "after perft stopped");
        e.send("go perft 2");
        let (l, _) = e.wait_for(QUICK, "Nodes searched", |l| {
            l.starts_with("Nodes searched") || l.starts_with("info string error")
        });
        assert_eq!(l.text, format!("Nodes searched: {two_plies}"), "{variant}");
    }
    let worst = latencies.iter().max().copied().unwrap_or_default();
    eprintln!(
        "stop -> perft stopped latencies (ms): {:?}",
        latencies.iter().map(|&d| ms(d)).collect::<Vec<_>>()
    );
    assert!(
        worst <= Duration::from_millis(100),
        "perft stopped after {:.1} ms",
        ms(worst)
    );
    e.go_legal("go depth 2");
}

#[test]
fn quit_or_end_of_input_during_go_perft_8_exits_at_once() {
    let _cpu = shared();
    for ending in ["quit", "EOF"] {
        let mut e = Engine::new();
        e.send("position startpos");
        e.send("go perft 8");
        std::thread::sleep(Duration::from_millis(200));
        if ending == "quit" {
            e.send("quit");
        } else {
            e.close_stdin();
        }
        let status = e.wait_exit(Duration::from_millis(500));
        assert!(
            matches!(status, Some(s) if s.success()),
            "{ending} during go perft 8: {status:?}"
        );
    }
}

/// `bench` searches the bench positions one after another for seconds; `isready` is answered meanwhile and
/// `stop` ends it promptly with `info string bench stopped`, after which the engine plays on.
#[test]
fn stop_during_bench_answers_within_100ms() {
    let _cpu = exclusive();
    let mut e = Engine::new();
    e.accept("position startpos");
    e.send("bench 30");
    std::thread::sleep(Duration::from_millis(300));
    let t = e.send("isready");
    let (l, before) = e.wait_for(QUICK, "readyok", |l| l == "readyok");
    assert!(
        l.at.duration_since(t) <= Duration::from_millis(100),
        "readyok after {:.0} ms",
        ms(l.at.duration_since(t))
    );
    if let Some(b) = before
        .iter()
        .find(|b| !b.starts_with("info string shogi position "))
    {
        e.fail(&format!("unexpected '{b}' during the bench"));
    }
    let t = e.send("stop");
    let (l, _) = e.wait_for(QUICK, "bench stopped", |l| {
        !l.starts_with("info string shogi position ")
    });
    if l.text != "info string bench stopped" {
        e.fail(&format!("stop during bench: got '{}'", l.text));
    }
    let took = l.at.duration_since(t);
    assert!(
        took <= Duration::from_millis(100),
        "bench stopped after {:.1} ms",
        ms(took)
    );
    e.assert_silent(Duration::from_millis(100), "after bench stopped");
    e.go_legal("go depth 2");
}

/// A whole `bench` counts the nodes that `hayate bench` counts for the same game, depth, one thread and a 16 MB
/// table.
#[test]
fn bench_counts_the_nodes_of_hayate_bench() {
    let _cpu = shared();
    let cli = Command::new(env!("CARGO_BIN_EXE_hayate"))
        .args(["bench", "--variant", "minishogi", "--depth", "3"])
        .args(["--threads", "1", "--hash", "16"])
        .output()
        .expect("cannot run hayate bench");
    let cli = String::from_utf8_lossy(&cli.stdout);
    let want = cli
        .lines()
        .find_map(|l| l.strip_prefix("Nodes searched: "))
        .unwrap_or_else(|| panic!("no total from hayate bench: {cli}"))
        .to_string();
    let mut e = Engine::new();
    e.accept("setoption name USI_Variant value minishogi");
    e.accept("position startpos");
    e.send("bench 3");
    let (l, before) = e.wait_for(SEARCH, "the bench's total", |l| {
        l.starts_with("info string Nodes searched: ") || l.starts_with("info string error")
    });
    assert_eq!(l.text, format!("info string Nodes searched: {want}"));
    let positions = before
        .iter()
        .filter(|b| b.starts_with("info string minishogi position "))
        .count();
    assert_eq!(positions, 9, "{before:?}");
    let l = e.recv(QUICK, "nodes per second");
    assert!(
        l.text.starts_with("info string Nodes/second: "),
        "{}",
        l.text
    );
    e.go_legal("go depth 2");
}
