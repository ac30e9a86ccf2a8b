//! Perft regression tests: the suites in `perft/` (reference positions with counts from Fairy-Stockfish, plus crafted
//! positions for single rules, counted with pyffish), the start positions, and the `hayate perft` command line.
//!
//! The quick tests check every suite position up to a depth that keeps each file within a few seconds in the test
//! profile; `cargo test --release -- --ignored` checks every listed depth and the deep start-position counts.

// a test fails by panicking: unwrap is how it states what must succeed (the library keeps to [lints])
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use hayate::rules::perft::perft;
use hayate::rules::suite::{parse_suite, run_suite};
use hayate::{Minishogi, Position, Shogi, Variant, Yari};

const SHOGI_SUITE: &str = include_str!("../perft/shogi.txt");
const MINISHOGI_SUITE: &str = include_str!("../perft/minishogi.txt");
const YARI_SUITE: &str = include_str!("../perft/yarishogi.txt");

// Quick-test depths: every position of a file up to this depth. Today no line lists more than D4 and a whole file
// takes about a second in the test profile, so the quick tests check every count; deeper lines added later are
// left to the ignored `*_full` tests.
const SHOGI_QUICK_DEPTH: u32 = 4;
const MINISHOGI_QUICK_DEPTH: u32 = 4;
const YARI_QUICK_DEPTH: u32 = 4;

// Each file holds the reference positions (24, 22, 22) and the crafted ones (12, 10, 12); fewer means a file lost
// lines.
const SHOGI_MIN_ENTRIES: usize = 36;
const MINISHOGI_MIN_ENTRIES: usize = 32;
const YARI_MIN_ENTRIES: usize = 34;

/// Checks `text` up to `max_depth` and fails on any mismatch or on a file with fewer than `min_entries` positions.
fn check_suite<V: Variant>(name: &str, text: &str, max_depth: u32, min_entries: usize) {
    let entries = parse_suite(text).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(
        entries.len() >= min_entries,
        "{name}: {} positions, expected at least {min_entries}",
        entries.len()
    );
    for e in &entries {
        let depths: Vec<u32> = e.expected.iter().map(|&(d, _)| d).collect();
        let want: Vec<u32> = (1..=depths.len() as u32).collect();
        assert_eq!(
            depths, want,
            "{name} line {}: depths must run D1, D2, ... in order",
            e.line
        );
        assert!(
            depths.len() >= 3,
            "{name} line {}: fewer than three depths",
            e.line
        );
    }
    let start = Instant::now();
    let mut checked = 0;
    let (mismatches, nodes) = run_suite::<V>(&entries, max_depth, |_, _, _, _| checked += 1);
    let depths = if max_depth == u32::MAX {
        "at every listed depth".to_string()
    } else {
        format!("up to D{max_depth}")
    };
    eprintln!(
        "{name}: {} positions, {checked} counts {depths}, {nodes} nodes, {:.2} s",
        entries.len(),
        start.elapsed().as_secs_f64()
    );
    assert!(checked > 0, "{name}: nothing checked");
    assert!(
        mismatches.is_empty(),
        "{name}: {} mismatches: {mismatches:#?}",
        mismatches.len()
    );
}

fn check_startpos<V: Variant>(name: &str, counts: &[(u32, u64)]) {
    let mut pos = Position::<V>::startpos();
    for &(depth, expected) in counts {
        let start = Instant::now();
        let found = perft(&mut pos, depth);
        eprintln!(
            "{name} startpos D{depth}: {found} ({:.2} s)",
            start.elapsed().as_secs_f64()
        );
        assert_eq!(found, expected, "{name} start position, depth {depth}");
    }
}

// ---- suites, quick depths ----

#[test]
fn suite_shogi_quick() {
    check_suite::<Shogi>(
        "perft/shogi.txt",
        SHOGI_SUITE,
        SHOGI_QUICK_DEPTH,
        SHOGI_MIN_ENTRIES,
    );
}

#[test]
fn suite_minishogi_quick() {
    check_suite::<Minishogi>(
        "perft/minishogi.txt",
        MINISHOGI_SUITE,
        MINISHOGI_QUICK_DEPTH,
        MINISHOGI_MIN_ENTRIES,
    );
}

#[test]
fn suite_yarishogi_quick() {
    check_suite::<Yari>(
        "perft/yarishogi.txt",
        YARI_SUITE,
        YARI_QUICK_DEPTH,
        YARI_MIN_ENTRIES,
    );
}

// ---- start positions ----

#[test]
fn startpos_shogi() {
    check_startpos::<Shogi>("shogi", &[(1, 30), (2, 900), (3, 25_470), (4, 719_731)]);
}

#[test]
fn startpos_minishogi() {
    check_startpos::<Minishogi>(
        "minishogi",
        &[(1, 14), (2, 181), (3, 2_512), (4, 35_401), (5, 533_203)],
    );
}

#[test]
fn startpos_yari() {
    check_startpos::<Yari>("yari", &[(1, 20), (2, 400), (3, 7_960), (4, 158_404)]);
}

// ---- deep lines: cargo test --release -- --ignored ----

#[test]
#[ignore = "deep: every listed depth; run with cargo test --release -- --ignored"]
fn suite_shogi_full() {
    check_suite::<Shogi>("perft/shogi.txt", SHOGI_SUITE, u32::MAX, SHOGI_MIN_ENTRIES);
}

#[test]
#[ignore = "deep: every listed depth; run with cargo test --release -- --ignored"]
fn suite_minishogi_full() {
    check_suite::<Minishogi>(
        "perft/minishogi.txt",
        MINISHOGI_SUITE,
        u32::MAX,
        MINISHOGI_MIN_ENTRIES,
    );
}

#[test]
#[ignore = "deep: every listed depth; run with cargo test --release -- --ignored"]
fn suite_yarishogi_full() {
    check_suite::<Yari>(
        "perft/yarishogi.txt",
        YARI_SUITE,
        u32::MAX,
        YARI_MIN_ENTRIES,
    );
}

#[test]
#[ignore = "deep: run with cargo test --release -- --ignored"]
fn startpos_shogi_deep() {
    check_startpos::<Shogi>("shogi", &[(5, 19_861_490), (6, 547_581_517)]);
}

#[test]
#[ignore = "deep: run with cargo test --release -- --ignored"]
fn startpos_minishogi_deep() {
    check_startpos::<Minishogi>("minishogi", &[(6, 8_276_188), (7, 132_680_617)]);
}

#[test]
#[ignore = "deep: run with cargo test --release -- --ignored"]
fn startpos_yari_deep() {
    check_startpos::<Yari>("yari", &[(5, 3_174_917), (6, 63_607_658)]);
}

// ---- the command line ----

fn hayate() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hayate"))
}

#[test]
fn cli_divide_minishogi_depth3() {
    let out = hayate()
        .args([
            "perft",
            "--variant",
            "minishogi",
            "--depth",
            "3",
            "--divide",
        ])
        .output()
        .expect("run hayate");
    assert!(out.status.success(), "exit status {:?}", out.status);
    let stdout = String::from_utf8(out.stdout).expect("utf-8 output");
    let lines: Vec<&str> = stdout.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(
        lines.len(),
        15,
        "14 root moves and a total expected:\n{stdout}"
    );
    assert_eq!(
        lines[14].trim(),
        "Nodes searched: 2512",
        "last line:\n{stdout}"
    );
    let mut moves = Vec::new();
    let mut sum = 0;
    for l in &lines[..14] {
        let (mv, n) = l
            .split_once(": ")
            .unwrap_or_else(|| panic!("not '<move>: <count>': {l:?}"));
        let usi_move = |s: &str| {
            let b = s.as_bytes();
            let sq = |f: u8, r: u8| (b'1'..=b'5').contains(&f) && (b'a'..=b'e').contains(&r);
            match b {
                [p, b'*', f, r] => b"RBGSP".contains(p) && sq(*f, *r),
                [f1, r1, f2, r2] | [f1, r1, f2, r2, b'+'] => sq(*f1, *r1) && sq(*f2, *r2),
                _ => false,
            }
        };
        assert!(usi_move(mv), "not a minishogi USI move: {mv:?}");
        let n: u64 = n
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("bad count in {l:?}"));
        assert!(n > 0, "{l:?}");
        moves.push(mv.to_string());
        sum += n;
    }
    assert_eq!(sum, 2512, "the divide counts add up to the total");
    moves.sort();
    moves.dedup();
    assert_eq!(moves.len(), 14, "root moves are distinct");
    assert!(
        moves.iter().any(|m| m == "5d5c"),
        "pawn push 5d5c missing: {moves:?}"
    );
}

#[test]
fn cli_suite_reports_mismatch() {
    let path: PathBuf = std::env::temp_dir().join(format!(
        "hayate-perft-test-{}-mismatch.txt",
        std::process::id()
    ));
    std::fs::write(
        &path,
        "# one correct line, one with a deliberately wrong D2 count\n\
         rbsgk/4p/5/P4/KGSBR b - 1 ; D1 14 ; D2 181 ; D3 2512\n\
         4k/2G2/3S1/5/K4 b P 1 ; D1 29 ; D2 12345\n",
    )
    .expect("write temp suite");
    let out = hayate()
        .args(["perft", "--variant", "minishogi", "--suite"])
        .arg(&path)
        .output()
        .expect("run hayate");
    let _ = std::fs::remove_file(&path);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !out.status.success(),
        "a wrong count must fail the run:\n{text}"
    );
    let mismatch_lines: Vec<&str> = text
        .lines()
        .filter(|l| l.to_lowercase().contains("mismatch") && l.contains("12345"))
        .collect();
    assert!(
        !mismatch_lines.is_empty(),
        "no line names the mismatch:\n{text}"
    );
    let named = mismatch_lines.iter().any(|l| {
        let tokens: Vec<&str> = l.split(|c: char| !c.is_ascii_alphanumeric()).collect();
        tokens.contains(&"D2") && tokens.contains(&"8") && l.contains("4k/2G2/3S1/5/K4")
    });
    assert!(
        named,
        "the mismatch should name depth D2, the count found (8) and the position:\n{text}"
    );
    assert!(
        !text.lines().any(|l| l.to_lowercase().contains("mismatch")
            && l.contains("rbsgk/4p/5/P4/KGSBR")
            && !l.contains("12345")),
        "the correct line is not a mismatch:\n{text}"
    );
}
