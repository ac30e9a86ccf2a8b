//! Time controls: each engine's own, the real clocks in `go`, `nodes` and `depth` without a clock, late
//! answers and hangs.

use std::path::Path;

use hayate::host::judge::{Outcome, Reason};
use hayate::Shogi;

use crate::{
    args, common_tc, endings, fake, records, run_match, scratch, verify_all, LIMIT, SHOGI_CYCLE,
};

fn with(mut engine: Vec<String>, words: &[&str]) -> Vec<String> {
    engine.extend(words.iter().map(|w| w.to_string()));
    engine
}

/// The `go` commands in an engine's log, as word lists.
fn go_lines(log: &Path) -> Vec<Vec<String>> {
    std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("go"))
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}

/// The number after `key` in a go command.
fn field(go: &[String], key: &str) -> u64 {
    let i = go
        .iter()
        .position(|w| w == key)
        .unwrap_or_else(|| panic!("no {key} in {go:?}"));
    go[i + 1].parse().unwrap()
}

#[test]
fn each_engine_gets_its_own_time_control_and_the_real_clocks() {
    let dir = scratch("tc");
    let out = dir.join("out");
    let (log1, log2) = (dir.join("e1.log"), dir.join("e2.log"));
    let l1 = format!("log={}", log1.display());
    let l2 = format!("log={}", log2.display());
    // engine 1: main time and byoyomi; engine 2: Fischer; the match's --tc applies to neither
    let e1 = with(
        fake(&[
            SHOGI_CYCLE[0],
            SHOGI_CYCLE[1],
            SHOGI_CYCLE[2],
            &l1,
            "sleep=30",
        ]),
        &["tc=1000/byoyomi=100"],
    );
    let e2 = with(
        fake(&[SHOGI_CYCLE[0], SHOGI_CYCLE[1], SHOGI_CYCLE[2], &l2]),
        &["tc=5000+50"],
    );
    let c = common_tc(&out, "1", "movetime=10");
    let r = run_match(&e1, &e2, &args(&c, &[]), LIMIT);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains(
            "Fake script #1: 1000 ms + byoyomi 100 ms, Fake script #2: 5000 ms + 50 ms per move, tolerance"
        ),
        "{}",
        r.stdout
    );
    assert_eq!(
        endings(&records(&out)),
        [(Outcome::Draw, Reason::Repetition)]
    );
    let (g1, g2) = (go_lines(&log1), go_lines(&log2));
    assert_eq!((g1.len(), g2.len()), (6, 6));
    assert_eq!(g1[0].join(" "), "go btime 1000 wtime 5000 byoyomi 100");
    for i in 0..6 {
        assert_eq!(g1[i][..2], ["go", "btime"]);
        assert_eq!(
            (g1[i].len(), field(&g1[i], "byoyomi")),
            (7, 100),
            "{:?}",
            g1[i]
        );
        assert_eq!(g2[i][..2], ["go", "btime"]);
        assert_eq!(
            (g2[i].len(), field(&g2[i], "binc"), field(&g2[i], "winc")),
            (9, 0, 50)
        );
        // engine 1 is sente: both engines see both real clocks, and a clock moves only on its owner's move
        assert_eq!(field(&g2[i], "wtime"), field(&g1[i], "wtime"));
        if i + 1 < 6 {
            assert_eq!(field(&g2[i], "btime"), field(&g1[i + 1], "btime"));
            assert!(field(&g1[i + 1], "wtime") <= field(&g2[i], "wtime") + 50);
        }
        assert!(field(&g1[i], "btime") <= 1000);
    }
    // five moves of 30 ms or more came off engine 1's main time
    assert!(field(&g1[5], "btime") <= 1000 - 5 * 30, "{:?}", g1[5]);
}

#[test]
fn nodes_and_depth_go_without_a_clock() {
    let dir = scratch("nodes");
    let out = dir.join("out");
    let (log1, log2) = (dir.join("e1.log"), dir.join("e2.log"));
    let l1 = format!("log={}", log1.display());
    let l2 = format!("log={}", log2.display());
    let e1 = with(
        fake(&[SHOGI_CYCLE[0], SHOGI_CYCLE[1], SHOGI_CYCLE[2], &l1]),
        &["tc=depth=3"],
    );
    let e2 = fake(&[SHOGI_CYCLE[0], SHOGI_CYCLE[1], SHOGI_CYCLE[2], &l2]);
    let c = common_tc(&out, "2", "nodes=500");
    let r = run_match(&e1, &e2, &args(&c, &[]), LIMIT);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains("Fake script #1: depth 3, Fake script #2: nodes 500, hang timeout 60000 ms"),
        "{}",
        r.stdout
    );
    assert_eq!(
        endings(&records(&out)),
        [(Outcome::Draw, Reason::Repetition); 2]
    );
    let (g1, g2) = (go_lines(&log1), go_lines(&log2));
    assert_eq!(g1.len(), 12);
    assert!(g1.iter().all(|g| g.join(" ") == "go depth 3"), "{g1:?}");
    assert_eq!(g2.len(), 12);
    assert!(g2.iter().all(|g| g.join(" ") == "go nodes 500"), "{g2:?}");
}

#[test]
fn late_movetime_answers_lose_and_hangs_under_nodes_are_caught() {
    let dir = scratch("movetime");
    let out = dir.join("out");
    // go movetime 50: an answer after 300 ms is past the 100 ms tolerance (the host sends stop at 150 ms and the
    // answer comes within the 300 ms grace after it)
    let late = fake(&[SHOGI_CYCLE[0], SHOGI_CYCLE[1], SHOGI_CYCLE[2], "sleep=300"]);
    let c = common_tc(&out, "2", "movetime=50");
    let r = run_match(&late, &fake(&SHOGI_CYCLE), &args(&c, &[]), LIMIT);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    let recs = records(&out);
    assert_eq!(
        endings(&recs),
        [
            (Outcome::WhiteWins, Reason::Time),
            (Outcome::BlackWins, Reason::Time)
        ]
    );
    verify_all::<Shogi>(&recs, 0);
    // an answer within the move time plays on: the game ends by repetition
    let on_time = fake(&[SHOGI_CYCLE[0], SHOGI_CYCLE[1], SHOGI_CYCLE[2], "sleep=20"]);
    let c = common_tc(&out, "1", "movetime=150");
    let r = run_match(&on_time, &fake(&SHOGI_CYCLE), &args(&c, &[]), LIMIT);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert_eq!(
        endings(&records(&out)),
        [(Outcome::Draw, Reason::Repetition)]
    );

    // go nodes and an engine that never answers, not even stop: the hang timeout ends the game
    let c = common_tc(&out, "2", "nodes=1000");
    let r = run_match(
        &fake(&SHOGI_CYCLE),
        &fake(&["hang"]),
        &args(&c, &["--hang-timeout", "300"]),
        LIMIT,
    );
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    let recs = records(&out);
    assert_eq!(
        endings(&recs),
        [
            (Outcome::BlackWins, Reason::Hang),
            (Outcome::WhiteWins, Reason::Hang)
        ]
    );
    verify_all::<Shogi>(&recs, 0);
    assert!(r.secs < 10.0, "{} s", r.secs);
}
