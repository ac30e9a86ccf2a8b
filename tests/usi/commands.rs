//! go mate, go perft, searchmoves, MultiPV, variants; and engine bugs found by these tests.

use std::time::Duration;

use hayate::{Minishogi, Position};

use crate::handshake::field;
use crate::legality::{check_in, Verdict};
use crate::process::Engine;
use crate::{ms, shared, MATE_IN_ONE, MINI_START, QUICK, SEARCH, SHOGI_START};

#[test]
fn go_mate_finds_a_mate_in_one() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.send(&format!("position sfen {MATE_IN_ONE}"));
    e.send("go mate 2000");
    let (l, before) = e.wait_for(SEARCH, "checkmate", |l| l.starts_with("checkmate"));
    e.settle();
    assert_eq!(l.text, "checkmate G*5b");
    assert!(before.iter().all(|b| b.starts_with("info ")), "{before:?}");
    e.assert_silent(Duration::from_millis(50), "after checkmate");
}

#[test]
fn go_mate_in_the_start_position_finds_no_mate() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.send("position startpos");
    let t = e.send("go mate 500");
    let (l, before) = e.wait_for(SEARCH, "checkmate", |l| l.starts_with("checkmate"));
    e.settle();
    // no check at all: the solver proves at once that there is no mate
    assert_eq!(l.text, "checkmate nomate");
    assert!(before.iter().all(|b| b.starts_with("info ")), "{before:?}");
    let took = l.at.duration_since(t);
    assert!(
        took <= Duration::from_millis(1500),
        "{:.0} ms for go mate 500",
        ms(took)
    );
    e.assert_silent(Duration::from_millis(50), "after checkmate");
    e.go_legal("go depth 2");
}

/// Tsume problems as GUIs send them, without the attacker's king and with the defender's hand given, in each
/// game: `go mate` answers the solver's verified line; a normal search refuses the kingless position.
#[test]
fn go_mate_solves_kingless_tsume_in_each_game() {
    let _cpu = shared();
    let cases = [
        (
            "shogi",
            "+P8/9/2S6/1+P7/kN7/9/SL7/9/9 b 2r2b4g2s3n3l16p 1",
            "checkmate 8d9d 9e9d 8e9c+ 9d9c 9a9b 9c9b 7c8b+ 9b9c 8b8c 9c9d 8c8d 9d9e 8d8e",
        ),
        (
            "minishogi",
            "RBk+b+R/2+s2/5/5/5 b Ggs2p 1",
            "checkmate 4a5b+ P*4a 5a4a",
        ),
        (
            "yarishogi",
            "3+P1+nk/7/6+P/7/7/7/7/7/7 b NP4r4b2n11p 1",
            "checkmate N*2c",
        ),
    ];
    for (game, sfen, answer) in cases {
        let mut e = Engine::new();
        e.accept(&format!("setoption name USI_Variant value {game}"));
        e.accept(&format!("position sfen {sfen}"));
        e.send("go mate 10000");
        let (l, before) = e.wait_for(SEARCH, "checkmate", |l| l.starts_with("checkmate"));
        assert_eq!(l.text, answer, "{game}");
        assert!(before.iter().all(|b| b.starts_with("info ")), "{before:?}");
        e.settle();
        let err = e.reject("go depth 2");
        assert!(err.contains("go mate"), "{err}");
    }
}

/// `stop` ends `go mate infinite` at once with `checkmate timeout`, and the engine serves the next command.
#[test]
fn stop_ends_go_mate_infinite() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.accept("setoption name USI_Hash value 16");
    // Microcosmos (1525 plies): the solver works on it far longer than the test waits (a middlegame without a
    // mate served here until the solver learnt to disprove it within 300 ms)
    e.accept("position sfen g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1");
    e.send("go mate infinite");
    e.assert_silent(Duration::from_millis(300), "go mate infinite");
    let t = e.send("stop");
    let (l, _) = e.wait_for(QUICK, "checkmate", |l| l.starts_with("checkmate"));
    let took = l.at.duration_since(t);
    assert_eq!(l.text, "checkmate timeout");
    assert!(took <= Duration::from_millis(50), "{:.0} ms", ms(took));
    e.settle();
    // the engine plays on afterwards (the tsume has no attacker king, so a game position follows)
    e.accept("position startpos");
    e.go_legal("go depth 2");
}

#[test]
fn uci_variant_selects_minishogi() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.accept("setoption name UCI_Variant value minishogi");
    e.accept("position startpos");
    assert_eq!(e.sfen(), MINI_START);
    e.send("go depth 3");
    let (l, _) = e.bestmove(SEARCH);
    let pos = Position::<Minishogi>::startpos();
    assert_eq!(check_in(&pos, &l.text), Ok(Verdict::Move), "{}", l.text);
    // the Fairy-Stockfish name, then back to shogi and on to Yari
    e.accept("setoption name USI_Variant value shogi");
    e.accept("position startpos");
    assert_eq!(e.sfen(), SHOGI_START);
    e.accept("setoption name UCI_Variant value 5x5+5_shogi");
    e.accept("position startpos");
    assert_eq!(e.sfen(), MINI_START);
    e.accept("setoption name USI_Variant value yarishogi");
    e.accept("position startpos moves 4g4f");
    e.go_legal("go depth 3");
}

/// What UCI2WB sends for XBoard's minishogi: `UCI_Variant 5x5+5_shogi`, then XBoard's FEN (holdings in brackets,
/// `w` for sente) unchanged in `position sfen`, and moves in USI.
#[test]
fn uci2wb_minishogi_position_with_xboards_fen() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.accept("setoption name UCI_Variant value 5x5+5_shogi");
    e.accept("setoption name USI_Ponder value 1");
    e.accept("setoption name USI_Ponder value 0");
    e.accept("position sfen rbsgk/4p/5/P4/KGSBR[-] w 0 1 moves 5d5c");
    assert_eq!(e.sfen(), "rbsgk/4p/P4/5/KGSBR w - 2");
    e.accept("position sfen rbsg1/4k/5/P4/KGSBR[p] b 0 1");
    assert_eq!(e.sfen(), "rbsg1/4k/5/P4/KGSBR w p 2");
    e.go_legal("go depth 2");
    // a bad one changes nothing
    e.reject("position sfen rbsgk/4p/5/P4/KGSBR[K] w 0 1");
    assert_eq!(e.sfen(), "rbsg1/4k/5/P4/KGSBR w p 2");
}

#[test]
fn go_perft_3_in_minishogi() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.accept("setoption name USI_Variant value minishogi");
    e.accept("position startpos");
    e.send("go perft 3");
    let (l, before) = e.wait_for(SEARCH, "Nodes searched", |l| {
        l.starts_with("Nodes searched")
    });
    assert_eq!(l.text, "Nodes searched: 2512");
    // one line per legal root move, and the counts add up
    let pos = Position::<Minishogi>::startpos();
    let mut sum = 0u64;
    let mut roots = 0;
    for b in &before {
        if b.starts_with("info string ") {
            continue;
        }
        let (m, n) = b
            .split_once(": ")
            .unwrap_or_else(|| panic!("unexpected perft line '{b}'"));
        assert!(pos.parse_move(m).is_ok(), "{m} is not legal");
        sum += n.parse::<u64>().unwrap();
        roots += 1;
    }
    assert_eq!(roots, pos.legal_moves().len());
    assert_eq!(sum, 2512);
    e.go_legal("go depth 2");
}

#[test]
fn searchmoves_restricts_the_root_and_multipv_reports_each_line() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.accept("position startpos");
    for _ in 0..2 {
        let l = e.go_legal("go depth 3 searchmoves 9g9f 1g1f");
        assert!(l == "bestmove 9g9f" || l == "bestmove 1g1f", "{l}");
    }
    e.accept("setoption name MultiPV value 3");
    e.send("go depth 3");
    let (_, infos) = e.bestmove(SEARCH);
    for k in 1..=3 {
        assert!(
            infos
                .iter()
                .any(|i| i.starts_with("info depth 3 ") && i.contains(&format!(" multipv {k} "))),
            "no depth-3 line for multipv {k}: {infos:?}"
        );
    }
}

// ================================================================================================================
// Engine bugs found by these tests (ignored until fixed in src/)
// ================================================================================================================

/// The `nodes` of each `info` line must count the nodes searched so far.
#[test]
fn info_nodes_count_the_nodes_searched() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.accept("position startpos");
    e.send("go depth 3");
    let (_, infos) = e.bestmove(SEARCH);
    for i in infos.iter().filter(|i| i.starts_with("info depth")) {
        let words: Vec<&str> = i.split(' ').collect();
        let depth: u32 = field(&words, "depth").unwrap().parse().unwrap();
        let nodes: u64 = field(&words, "nodes").unwrap().parse().unwrap();
        // at depth 2 or more every one of the 30 root moves has been searched
        if depth >= 2 {
            assert!(nodes >= 30, "'{i}'");
        }
    }
}

/// A GUI sends the next `position` and `go` (or a `setoption`) as soon as it reads `bestmove`; the engine
/// must accept them. Repeated 300 times with `go depth 1`, which takes about a millisecond.
#[test]
fn a_go_sent_right_after_bestmove_is_accepted() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.settle = false;
    e.send("position startpos moves 7g7f 3c3d");
    for i in 0..300 {
        e.send("go depth 1");
        let (l, _) = e.wait_for(SEARCH, "bestmove", |l| {
            l.starts_with("bestmove") || l.starts_with("info string error")
        });
        if l.text.starts_with("info string error") {
            e.fail(&format!("iteration {i}: '{}'", l.text));
        }
        if i % 2 == 1 {
            // a setoption right after the bestmove; its refusal would be the next line
            e.send("setoption name MultiPV value 1");
        }
    }
    let lines = e.sync();
    assert!(lines.is_empty(), "{lines:?}");
}

/// perft 0 is one node (the position itself), as the library's `perft(pos, 0)` returns. `go perft` runs like a
/// search, so `isready` does not wait for it: the test waits for the total (or an error) instead.
#[test]
fn go_perft_0_counts_one_node() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.accept("position startpos");
    e.send("go perft 0");
    let (l, mut lines) = e.wait_for(QUICK, "the total or an error", |l| {
        l.starts_with("Nodes searched") || l.starts_with("info string error: ")
    });
    lines.push(l.text);
    let rest = e.sync();
    assert!(rest.is_empty(), "{rest:?}");
    assert!(
        lines.iter().any(|l| l == "Nodes searched: 1")
            || (lines.len() == 1 && lines[0].starts_with("info string error: ")),
        "{lines:?}"
    );
}

/// The interposition convention (docs/tsume.md): in minishogi and Yari shogi `go mate` counts every
/// interposition, so that its length is the game's forced-mate distance. In both positions the defender can
/// drop a piece between the checking piece and its king, a drop that the 9×9 tsume convention would leave
/// uncounted as futile (`hayate mate --futile-rule` finds 9 and 13 plies there).
#[test]
fn go_mate_counts_every_interposition_in_minishogi_and_yari() {
    let _cpu = shared();
    let cases = [
        ("minishogi", "p4/1k3/P2R1/5/5 b RBb2g2s 1", 11, "S*3a"),
        (
            "yarishogi",
            "1+B+R4/k6/7/7/7/7/7/7/7 b R2r3b4n14p 1",
            15,
            "P*5b",
        ),
    ];
    for (game, sfen, plies, interposition) in cases {
        let mut e = Engine::new();
        e.accept(&format!("setoption name USI_Variant value {game}"));
        e.accept(&format!("position sfen {sfen}"));
        e.send("go mate 20000");
        let (l, _) = e.wait_for(SEARCH, "checkmate", |l| l.starts_with("checkmate"));
        e.settle();
        let line: Vec<&str> = l.text.split_whitespace().skip(1).collect();
        assert_eq!(line.len(), plies, "{game}: {}", l.text);
        assert!(line.contains(&interposition), "{game}: {}", l.text);
    }
}
