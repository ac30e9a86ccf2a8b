//! Random input: lines of protocol words, random bytes and random text never break the protocol.

use std::time::Duration;

use proptest::prelude::*;
use proptest::test_runner::Config;

use crate::process::Engine;
use crate::shared;

/// Words of the protocol. Left out: quit (it ends the session), bench and perft (they keep the cores busy for
/// long; `jobs.rs` tests them), LogFile (it would create files), and numbers large enough to allocate a big table.
const VOCAB: &[&str] = &[
    "usi",
    "isready",
    "setoption",
    "name",
    "value",
    "usinewgame",
    "ucinewgame",
    "position",
    "startpos",
    "sfen",
    "moves",
    "go",
    "btime",
    "wtime",
    "byoyomi",
    "binc",
    "winc",
    "movetime",
    "depth",
    "nodes",
    "infinite",
    "ponder",
    "searchmoves",
    "mate",
    "stop",
    "ponderhit",
    "gameover",
    "win",
    "lose",
    "draw",
    "d",
    "eval",
    "USI_Hash",
    "Threads",
    "USI_Ponder",
    "MultiPV",
    "USI_Variant",
    "UCI_Variant",
    "shogi",
    "minishogi",
    "yarishogi",
    "5x5+5_shogi",
    "NetworkDelay",
    "MinimumThinkingTime",
    "SlowMover",
    "ResignValue",
    "DrawValue",
    "EnteringKingRule",
    "NoEnteringKing",
    "CSARule24",
    "MaxMovesToDraw",
    "Clear_Hash",
    "true",
    "false",
    "0",
    "1",
    "2",
    "3",
    "16",
    "-1",
    "x",
    "99999999999999999999",
    "7g7f",
    "3c3d",
    "8h2b+",
    "P*5e",
    "G*5b",
    "5e4d",
    "1a1a",
    "4g4f",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",
    "rbsgk/4p/5/P4/KGSBR",
    "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR",
    "4k4/9/4P4/9/9/9/9/9/4K4",
    "b",
    "w",
    "-",
    "G",
    "+",
    "*",
    "/",
    "\t",
];

fn vocab_line() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(proptest::sample::select(VOCAB), 1..9)
        .prop_map(|w| w.join(" ").into_bytes())
}

fn byte_line() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        any::<u8>().prop_filter("no newline", |&b| b != b'\n'),
        0..80,
    )
}

fn text_line() -> impl Strategy<Value = Vec<u8>> {
    "[ -~]{0,60}".prop_map(String::into_bytes)
}

/// A line that could end the session or keep the cores busy for long.
fn hazardous(line: &[u8]) -> bool {
    let s = String::from_utf8_lossy(line).to_lowercase();
    matches!(s.split_whitespace().next(), Some("quit") | Some("bench"))
        || s.contains("perft")
        || s.contains("logfile")
}

/// What the engine reads as an `isready` command (each gets a `readyok`).
fn is_isready(line: &[u8]) -> bool {
    std::str::from_utf8(line).is_ok_and(|s| s.split_whitespace().next() == Some("isready"))
}

fn lines() -> impl Strategy<Value = Vec<Vec<u8>>> {
    proptest::collection::vec(
        prop_oneof![4 => vocab_line(), 1 => byte_line(), 1 => text_line()],
        1..12,
    )
    .prop_filter("no session-ending line", |ls| {
        ls.iter().all(|l| !hazardous(l))
    })
}

/// Feeds the lines to a fresh engine; afterwards it must still answer isready and play a legal move.
fn survives(lines: &[Vec<u8>]) {
    let dir = std::env::temp_dir();
    let mut e = Engine::raw_in(Some(&dir));
    e.send("setoption name Threads value 1");
    e.send("setoption name USI_Hash value 16");
    e.sync();
    for l in lines {
        let mut b = l.clone();
        b.push(b'\n');
        e.send_raw(&b);
    }
    e.send("stop");
    e.send("setoption name ResignValue value 0");
    // one readyok for each isready among the random lines, then ours
    let expected = lines.iter().filter(|l| is_isready(l)).count() + 1;
    e.send("isready");
    for _ in 0..expected {
        let (_, out) = e.wait_for(Duration::from_secs(20), "readyok", |l| l == "readyok");
        if let Some(bad) = out.iter().find(|l| l.contains('\r')) {
            e.fail(&format!("output line with a carriage return: {bad:?}"));
        }
    }
    e.assert_silent(Duration::from_millis(20), "after the last readyok");
    e.go_legal("go depth 1");
}

proptest! {
    #![proptest_config(Config {
        cases: 40,
        max_shrink_iters: 200,
        failure_persistence: None,
        ..Config::default()
    })]

    #[test]
    fn random_lines_never_break_the_protocol(lines in lines()) {
        let _cpu = shared();
        survives(&lines);
    }
}
