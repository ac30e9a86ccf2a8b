use std::sync::atomic::AtomicBool;
use std::time::Duration;

use hayate::engine::tsume::suite::{parse_suite, Expected};
use hayate::engine::tsume::{solve, tsume_position, DefenderHand, MateLimits, MateResult};
use hayate::{Minishogi, Shogi, Variant, Yari};

use crate::brute::shortest_mate;

fn limits() -> MateLimits {
    MateLimits {
        time: Some(Duration::from_secs(20)),
        hash_mb: 16,
        ..MateLimits::default()
    }
}

/// [`limits`] with two searchers on one table for the first proof.
fn two_searchers() -> MateLimits {
    MateLimits {
        threads: 2,
        ..limits()
    }
}

/// Solves every problem of a suite file and checks the length against the file, and (up to `brute_max` plies)
/// against the brute-force search.
fn check_suite<V: Variant>(text: &str, brute_max: u16) {
    check_suite_with::<V>(text, brute_max, &limits());
}

fn check_suite_with<V: Variant>(text: &str, brute_max: u16, limits: &MateLimits) {
    let problems = parse_suite(text).expect("suite parses");
    assert!(!problems.is_empty());
    let stop = AtomicBool::new(false);
    for p in &problems {
        let pos = tsume_position::<V>(&p.sfen, DefenderHand::FillIfEmpty).expect("valid sfen");
        let Expected::Mate(expected) = p.expected else {
            panic!("line {}: no length", p.line)
        };
        let r = solve(&pos, limits, &stop, None);
        let MateResult::Mate(pv) = &r.result else {
            panic!("line {} ({}): {:?}", p.line, p.sfen, r.result)
        };
        assert!(
            r.shortest_proven,
            "line {}: shortening did not finish",
            p.line
        );
        assert_eq!(
            r.length,
            Some(expected),
            "line {} ({}): {pv:?}",
            p.line,
            p.sfen
        );
        if expected as u16 <= brute_max {
            assert_eq!(
                shortest_mate(&pos, expected as u16 + 2),
                Some(expected as u16),
                "line {}: brute force disagrees",
                p.line
            );
        }
    }
}

#[test]
fn shogi_13_ply_problems_from_a_public_set_have_their_length() {
    let _cpu = crate::shared();
    check_suite::<Shogi>(include_str!("../data/tsume/shogi13.txt"), 0);
}

#[test]
fn minishogi_suite_lengths_are_exact_and_brute_force_proven() {
    let _cpu = crate::shared();
    check_suite::<Minishogi>(include_str!("../data/tsume/minishogi.txt"), 13);
}

#[test]
fn yari_suite_lengths_are_exact_and_brute_force_proven() {
    let _cpu = crate::shared();
    check_suite::<Yari>(include_str!("../data/tsume/yari.txt"), 9);
}

/// Two searchers sharing the table find the same lengths in all three games (each result they store is one
/// either would have stored alone; which of them proves a node first varies from run to run).
#[test]
fn two_searchers_on_one_table_find_the_exact_lengths() {
    let _cpu = crate::shared();
    check_suite_with::<Shogi>(
        include_str!("../data/tsume/shogi13.txt"),
        0,
        &two_searchers(),
    );
    check_suite_with::<Minishogi>(
        include_str!("../data/tsume/minishogi.txt"),
        0,
        &two_searchers(),
    );
    check_suite_with::<Yari>(include_str!("../data/tsume/yari.txt"), 0, &two_searchers());
}

/// A problem long enough for both searchers to work on it for a while (将棋図巧 No. 1, 45 plies from its end,
/// tests/data/tsume/long.txt): the exact length, its line checked by replaying it.
#[test]
fn two_searchers_prove_a_45_ply_tail_exactly() {
    let _cpu = crate::shared();
    let sfen = "1pG6/Gs+P6/pP7/n1lsS4/1k7/n5b2/1N+Bp5/1S7/9 b RPr2gn3l12p 1";
    let pos = tsume_position::<Shogi>(sfen, DefenderHand::AsGiven).unwrap();
    let limits = MateLimits {
        time: Some(Duration::from_secs(60)),
        hash_mb: 64,
        threads: 2,
        ..MateLimits::default()
    };
    let r = solve(&pos, &limits, &AtomicBool::new(false), None);
    assert!(matches!(r.result, MateResult::Mate(_)), "{:?}", r.result);
    assert!(r.shortest_proven);
    assert_eq!(r.length, Some(45));
}

#[test]
fn short_shogi_problems_match_the_brute_force_search() {
    let _cpu = crate::shared();
    // mate in 1 (head gold), 3 and 5 by the brute force; a futile interposition not counted (the rook's check
    // from a distance: the defender could drop between, unguarded, and it changes nothing)
    for sfen in [
        "4k4/9/4P4/9/9/9/9/9/9 b G 1",
        "7nl/7k1/9/7N1/9/9/9/9/9 b GS 1",
        "3sks3/9/4P4/9/9/9/9/9/9 b 2G 1",
        "8k/9/8P/9/9/9/9/9/8R b G 1",
    ] {
        let pos = tsume_position::<Shogi>(sfen, DefenderHand::FillIfEmpty).unwrap();
        let r = solve(&pos, &limits(), &AtomicBool::new(false), None);
        let brute = shortest_mate(&pos, 9).map(|l| l as usize);
        match r.result {
            MateResult::Mate(_) => assert_eq!(r.length, brute, "{sfen}"),
            other => assert_eq!(brute, None, "{sfen}: {other:?}"),
        }
    }
}

/// 駒余り: between mates of equal length the line reported is one that leaves the attacker nothing in hand. In
/// this 11-ply minishogi problem the defence 4b4a at ply 8 is mated in as many plies as 4b5a, but with a pawn
/// left in the attacker's hand; the solver reports a line without one.
#[test]
fn equal_length_lines_prefer_no_pieces_left_in_hand() {
    let _cpu = crate::shared();
    use hayate::rules::movegen::GenMode;
    use hayate::rules::moves::MoveList;
    let sfen = "5/2k2/3+sG/+P3+S/4R b r2bgp 1";
    let pos = tsume_position::<Minishogi>(sfen, DefenderHand::FillIfEmpty).expect("valid sfen");
    let attacker = pos.side_to_move();
    // the line with a piece to spare is a real mate of the same length
    let mut other = pos.clone();
    other
        .play_usi_moves("1d2c 3b4a 1e4e P*4b 4e4b 4a4b S*4c 4b4a 2c3b 4a5a 3b4b".split(' '))
        .expect("legal line");
    let mut replies = MoveList::new();
    other.generate(GenMode::All, &mut replies);
    assert!(replies.is_empty(), "the other line ends in mate");
    assert_eq!(other.hand(attacker).total(), 1, "with a pawn to spare");

    let r = solve(&pos, &limits(), &AtomicBool::new(false), None);
    let MateResult::Mate(pv) = &r.result else {
        panic!("{:?}", r.result)
    };
    assert_eq!(r.length, Some(11));
    assert_eq!(r.surplus, 0);
    let mut end = pos.clone();
    for &m in pv {
        assert!(end.is_legal(m), "{m:?} legal");
        end.do_move(m);
    }
    replies.clear();
    end.generate(GenMode::All, &mut replies);
    assert!(replies.is_empty(), "the reported line ends in mate");
    assert!(
        end.hand(attacker).is_empty(),
        "nothing left in hand: {pv:?}"
    );
}
