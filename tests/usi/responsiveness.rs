//! Responsiveness during a search: `stop`, `isready`, `ponderhit`, `gameover` and other commands, and the
//! clock limits.

use std::time::Duration;

use crate::legality::check_bestmove;
use crate::process::Engine;
use crate::{exclusive, ms, shared, MATED, MATE_IN_ONE, MINI_START, QUICK, SEARCH};

/// `stop` during `go infinite`: a legal bestmove within 50 ms of writing `stop` (measured to the moment the
/// reader thread has the line). The test holds the CPU lock so no other test's search competes for the cores.
#[test]
fn stop_during_go_infinite_answers_within_50ms() {
    let _cpu = exclusive();
    let setups: [(&str, &str); 3] = [
        ("shogi", "position startpos"),
        ("shogi", "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e"),
        ("minishogi", "position startpos"),
    ];
    let mut latencies = Vec::new();
    for threads in [1, 2] {
        let mut e = Engine::with_threads(threads);
        for (variant, setup) in setups {
            e.accept(&format!("setoption name USI_Variant value {variant}"));
            e.send(setup);
            let sfen = e.sfen();
            for round in 0..2 {
                e.send("go infinite");
                e.wait_for(SEARCH, "search info", |l| l.starts_with("info depth"));
                e.assert_no_bestmove(Duration::from_millis(150 + 100 * round), "go infinite");
                let t = e.send("stop");
                let (l, _) = e.bestmove(QUICK);
                let lat = l.at.duration_since(t);
                if let Err(err) = check_bestmove(&sfen, &l.text) {
                    e.fail(&format!("after stop: {err}"));
                }
                latencies.push(lat);
                e.assert_silent(Duration::from_millis(20), "after the bestmove");
            }
        }
    }
    let worst = latencies.iter().max().copied().unwrap_or_default();
    eprintln!(
        "stop -> bestmove latencies (ms): {:?}; worst {:.2}",
        latencies
            .iter()
            .map(|&d| (ms(d) * 100.0).round() / 100.0)
            .collect::<Vec<_>>(),
        ms(worst)
    );
    assert!(
        worst <= Duration::from_millis(50),
        "stop answered after {:.1} ms",
        ms(worst)
    );
}

/// `isready` during a search: `readyok` within 50 ms, the search going on.
#[test]
fn isready_during_search_answers_within_50ms() {
    let _cpu = exclusive();
    let mut latencies = Vec::new();
    for threads in [1, 2] {
        let mut e = Engine::with_threads(threads);
        e.send("position startpos moves 2g2f 8c8d");
        let sfen = e.sfen();
        e.send("go infinite");
        e.wait_for(SEARCH, "search info", |l| l.starts_with("info depth"));
        for _ in 0..5 {
            std::thread::sleep(Duration::from_millis(60));
            let t = e.send("isready");
            let (l, before) = e.wait_for(QUICK, "readyok", |l| l == "readyok");
            if let Some(b) = before.iter().find(|b| !b.starts_with("info depth")) {
                e.fail(&format!("unexpected '{b}' during the search"));
            }
            latencies.push(l.at.duration_since(t));
        }
        let t = e.send("stop");
        let (l, _) = e.bestmove(QUICK);
        if let Err(err) = check_bestmove(&sfen, &l.text) {
            e.fail(&err);
        }
        assert!(l.at.duration_since(t) <= Duration::from_millis(50));
    }
    let worst = latencies.iter().max().copied().unwrap_or_default();
    eprintln!(
        "isready -> readyok latencies during search (ms): {:?}; worst {:.2}",
        latencies
            .iter()
            .map(|&d| (ms(d) * 100.0).round() / 100.0)
            .collect::<Vec<_>>(),
        ms(worst)
    );
    assert!(
        worst <= Duration::from_millis(50),
        "readyok after {:.1} ms",
        ms(worst)
    );
}

#[test]
fn go_ponder_waits_for_ponderhit() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.accept("setoption name USI_Ponder value true");
    e.send("position startpos moves 7g7f 3c3d");
    let sfen = e.sfen();
    e.send("go ponder btime 1000 wtime 1000 byoyomi 100");
    e.assert_no_bestmove(Duration::from_millis(500), "go ponder before ponderhit");
    let t = e.send("ponderhit");
    let (l, _) = e.bestmove(SEARCH);
    if let Err(err) = check_bestmove(&sfen, &l.text) {
        e.fail(&err);
    }
    // after ponderhit the clock rules: at most the byoyomi plus the main time
    let took = l.at.duration_since(t);
    assert!(
        took <= Duration::from_millis(1500),
        "{:.0} ms after ponderhit",
        ms(took)
    );
    e.assert_silent(Duration::from_millis(50), "after the bestmove");
}

#[test]
fn go_ponder_answers_stop() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.accept("setoption name USI_Ponder value true");
    e.send("position startpos moves 2g2f");
    let sfen = e.sfen();
    e.send("go ponder btime 0 wtime 0 byoyomi 200");
    e.assert_no_bestmove(Duration::from_millis(500), "go ponder before stop");
    let t = e.send("stop");
    let (l, _) = e.bestmove(QUICK);
    if let Err(err) = check_bestmove(&sfen, &l.text) {
        e.fail(&err);
    }
    assert!(l.at.duration_since(t) <= Duration::from_millis(200));
    // the engine is idle again: a new search is accepted
    e.go_legal("go depth 2");
}

/// A mate found at once must not end a ponder search before ponderhit.
#[test]
fn go_ponder_on_mate_in_one_waits_for_ponderhit() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.accept("setoption name USI_Ponder value true");
    e.send(&format!("position sfen {MATE_IN_ONE}"));
    e.send("go ponder btime 1000 wtime 1000 byoyomi 100");
    e.assert_no_bestmove(Duration::from_millis(500), "go ponder on a mate in one");
    e.send("ponderhit");
    let (l, _) = e.bestmove(SEARCH);
    assert_eq!(l.text, "bestmove G*5b");
}

/// `go infinite` must wait for `stop` even when the answer is known at once.
#[test]
fn go_infinite_waits_for_stop_on_decided_positions() {
    let _cpu = shared();
    let mut e = Engine::new();
    for (sfen, answer) in [(MATED, "bestmove resign"), (MATE_IN_ONE, "bestmove G*5b")] {
        e.send(&format!("position sfen {sfen}"));
        e.send("go infinite");
        e.assert_no_bestmove(
            Duration::from_millis(500),
            &format!("go infinite in {sfen}"),
        );
        e.send("stop");
        let (l, _) = e.bestmove(QUICK);
        assert_eq!(l.text, answer, "in {sfen}");
        e.assert_silent(Duration::from_millis(50), "after the bestmove");
    }
}

#[test]
fn gameover_stops_a_search() {
    let _cpu = shared();
    let mut e = Engine::new();
    for result in ["win", "lose", "draw"] {
        e.send("position startpos moves 7g7f");
        let sfen = e.sfen();
        e.send("go infinite");
        e.wait_for(SEARCH, "search info", |l| l.starts_with("info depth"));
        e.send(&format!("gameover {result}"));
        // a bestmove is allowed (and must then be legal), nothing else but search info
        let lines = e.sync();
        let bestmoves: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
        assert!(bestmoves.len() <= 1, "{lines:?}");
        for b in bestmoves {
            if let Err(err) = check_bestmove(&sfen, b) {
                e.fail(&err);
            }
        }
        if let Some(b) = lines
            .iter()
            .find(|l| !l.starts_with("bestmove") && !l.starts_with("info depth"))
        {
            e.fail(&format!("unexpected '{b}' after gameover"));
        }
        // no search left running: a new one starts at once
        e.go_legal("go depth 2");
    }
}

/// Other commands while a search runs: `go` and `setoption` are refused with one error line each and the search
/// goes on; `position`, `d` and `eval` are served; `stop` then gives one bestmove for the position searched.
#[test]
fn commands_during_a_search() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.send("position startpos moves 7g7f");
    let searched = e.sfen();
    e.send("go infinite");
    e.wait_for(SEARCH, "search info", |l| l.starts_with("info depth"));
    for line in [
        "go depth 2",
        "setoption name MultiPV value 2",
        "setoption name USI_Variant value minishogi",
    ] {
        e.send(line);
        let (l, _) = e.wait_for(QUICK, "error", |l| !l.starts_with("info depth"));
        if !l.text.starts_with("info string error: ") {
            e.fail(&format!("'{line}' during a search: got '{}'", l.text));
        }
    }
    // a new position for the next search; the running one is unaffected
    e.send("position startpos moves 2g2f");
    e.send("eval");
    let (l, _) = e.wait_for(QUICK, "eval", |l| !l.starts_with("info depth"));
    assert!(l.text.starts_with("info string eval "), "{}", l.text);
    let after = e.sfen();
    assert_eq!(
        after,
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL w - 2"
    );
    e.send("stop");
    let (l, _) = e.bestmove(QUICK);
    if let Err(err) = check_bestmove(&searched, &l.text) {
        e.fail(&err);
    }
    let lines = e.sync();
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "a second bestmove: {lines:?}"
    );
    e.go_legal("go depth 2");
}

/// Sends `go`, checks that the bestmove is legal in `sfen`, and returns the time from the write of `go` to the
/// bestmove line.
fn timed_bestmove(e: &mut Engine, sfen: &str, go: &str) -> Duration {
    let t = e.send(go);
    let (l, _) = e.bestmove(SEARCH);
    if let Err(err) = check_bestmove(sfen, &l.text) {
        e.fail(&err);
    }
    l.at.duration_since(t)
}

/// The clock limits are kept (the engine keeps its NetworkDelay of 120 ms in hand), measured from the
/// write of `go` to the bestmove line.
#[test]
fn time_limits_are_kept() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.send("position startpos moves 7g7f 3c3d");
    let sfen = e.sfen();
    for (go, limit_ms) in [
        ("go btime 0 wtime 0 byoyomi 500", 500),
        ("go movetime 300", 300),
        ("go btime 1000 wtime 1000 binc 100 winc 100", 1000),
        ("go btime 200 wtime 200", 200),
    ] {
        let took = timed_bestmove(&mut e, &sfen, go);
        assert!(
            took <= Duration::from_millis(limit_ms),
            "'{go}' answered after {:.0} ms",
            ms(took)
        );
    }
}

/// In byoyomi with the main time spent, time left unused is lost, so the search uses it: the bestmove comes
/// near the end of the byoyomi less the NetworkDelay (120 ms here), not after the iteration that happened to
/// end past half of it. Load can only make the answer later, so the lower bound holds on a busy machine too.
#[test]
fn byoyomi_is_used_in_full() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.send("position startpos moves 7g7f 3c3d");
    let sfen = e.sfen();
    for _ in 0..2 {
        let took = timed_bestmove(&mut e, &sfen, "go btime 0 wtime 0 byoyomi 600");
        assert!(
            took >= Duration::from_millis(440) && took <= Duration::from_millis(600),
            "byoyomi 600 answered after {:.0} ms",
            ms(took)
        );
    }
}

/// Sente's king in the zone with 19 pieces there and a lance in hand: 28 points, a CSA 27-point declaration.
#[test]
fn entering_king_declaration() {
    let _cpu = shared();
    const DECLARE: &str = "GGGGSSSS1/RB1K5/PPPPPPPPP/9/9/9/9/9/4k4 b L 1";
    let mut e = Engine::new();
    e.send(&format!("position sfen {DECLARE}"));
    e.send("go depth 3");
    assert_eq!(e.bestmove(SEARCH).0.text, "bestmove win");
    // go infinite: the declaration too waits for stop
    e.send("go infinite");
    e.assert_no_bestmove(Duration::from_millis(300), "go infinite with a declaration");
    e.send("stop");
    assert_eq!(e.bestmove(QUICK).0.text, "bestmove win");
    // 28 points are too few under the 24-point rule (31 as sente), and no rule means no declaration
    for rule in ["CSARule24", "NoEnteringKing"] {
        e.accept(&format!("setoption name EnteringKingRule value {rule}"));
        let l = e.go_legal("go depth 2");
        assert_ne!(l, "bestmove win", "{rule}");
    }
}

/// A won minishogi game (from a match record) in which the tsume helper, its table kept from move to move,
/// once stepped its node count past every clock check at the 17th move of sente and never returned: every
/// `go byoyomi 200` of the winning side must be answered with a legal move well within the byoyomi's tolerance.
#[test]
fn the_mate_helper_keeps_to_byoyomi_in_a_won_game() {
    let _cpu = shared();
    let moves: Vec<&str> = "2e1d 4a5b 3e3d 5b4a 1d4a+ 5a4a B*3c B*2b 1e2e 3a3b 3c2b 2a2b B*4d B*3a 4e3e 4a4b \
                            4d2b 3a2b 2e2b 1a2b B*3c 3b3c G*2c 2b1a 3d3c R*2a S*3b 4b3b 2c3b B*4c 3b2a 4c2a"
        .split_whitespace()
        .collect();
    let mut e = Engine::with_threads(1);
    e.accept("setoption name USI_Variant value minishogi");
    e.accept("usinewgame");
    let mut slowest = Duration::ZERO;
    for ply in (0..=moves.len()).step_by(2) {
        e.send(&match ply {
            0 => format!("position sfen {MINI_START}"),
            _ => format!(
                "position sfen {MINI_START} moves {}",
                moves[..ply].join(" ")
            ),
        });
        let sfen = e.sfen();
        let t = e.send("go btime 0 wtime 0 byoyomi 200");
        let (l, _) = e.bestmove(Duration::from_secs(5));
        if let Err(err) = check_bestmove(&sfen, &l.text) {
            e.fail(&format!("ply {ply}: {err}"));
        }
        slowest = slowest.max(l.at.duration_since(t));
    }
    eprintln!(
        "slowest bestmove after go byoyomi 200: {:.1} ms",
        ms(slowest)
    );
    assert!(
        slowest < Duration::from_millis(1000),
        "a bestmove came {:.1} ms after go byoyomi 200",
        ms(slowest)
    );
}
