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

/// Solves every problem of a suite file and checks the length against the file, and (up to `brute_max` plies)
/// against the brute-force search.
fn check_suite<V: Variant>(text: &str, brute_max: u16) {
    let problems = parse_suite(text).expect("suite parses");
    assert!(!problems.is_empty());
    let stop = AtomicBool::new(false);
    for p in &problems {
        let pos = tsume_position::<V>(&p.sfen, DefenderHand::FillIfEmpty).expect("valid sfen");
        let Expected::Mate(expected) = p.expected else {
            panic!("line {}: no length", p.line)
        };
        let r = solve(&pos, &limits(), &stop, None);
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
    check_suite::<Shogi>(include_str!("../data/tsume/shogi13.txt"), 0);
}

#[test]
fn minishogi_suite_lengths_are_exact_and_brute_force_proven() {
    check_suite::<Minishogi>(include_str!("../data/tsume/minishogi.txt"), 13);
}

#[test]
fn yari_suite_lengths_are_exact_and_brute_force_proven() {
    check_suite::<Yari>(include_str!("../data/tsume/yari.txt"), 9);
}

#[test]
fn short_shogi_problems_match_the_brute_force_search() {
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
