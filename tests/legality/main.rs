//! Differential tests of the engine's rules core against a slow reference move generator.
//!
//! The reference below is written only from `RULES.md`, with plain coordinate arithmetic on a square array: no
//! bitboards, no attack tables and no call into the engine's generator, attack or check code. It reads the engine
//! only through `piece_at`, `hand`, `side_to_move` and the accessors of `Move`. Random playouts (seeded by
//! proptest, moves picked by a small PRNG with a bias toward captures, drops and checks) and random set-up
//! positions then compare, at every position reached:
//!
//! - the board, hands and side to move kept by the engine with the reference's own replay of the moves;
//! - the engine's legal move set with the reference set, both ways, and with no duplicate;
//! - `GenMode::Captures`, `Quiets`, `QuietPromotions` and `Checks` with the matching subsets of the reference set;
//! - `gives_check` and `in_check` with brute-force attack detection;
//! - `to_sfen` with the reference's SFEN, and `from_sfen(to_sfen())` (same SFEN, same key);
//! - do then undo of every legal move (same SFEN, same key), `key() == compute_key()` after every move;
//! - `move_to_usi` with the reference's notation, and `parse_move(move_to_usi(m)) == m`;
//! - `from_sfen` accepting exactly the random set-ups that the reference calls valid.

// a test fails by panicking: unwrap is how it states what must succeed (the library keeps to [lints])
#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;

use hayate::{Minishogi, Position, Shogi, Yari};
use proptest::prelude::*;
use proptest::test_runner::Config;

mod compare;
mod playouts;
mod reference;

use compare::*;
use playouts::*;
use reference::*;

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn shogi_playouts_match_reference(seed in any::<u64>()) {
        let mut rng = Rng(seed);
        let start = SHOGI_STARTS[rng.below(SHOGI_STARTS.len())];
        let plies = 40 + rng.below(61);
        playout::<Shogi>(&mut rng, start, plies);
    }
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn minishogi_playouts_match_reference(seed in any::<u64>()) {
        let mut rng = Rng(seed);
        let start = MINI_STARTS[rng.below(MINI_STARTS.len())];
        let plies = 40 + rng.below(61);
        playout::<Minishogi>(&mut rng, start, plies);
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn yari_playouts_match_reference(seed in any::<u64>()) {
        let mut rng = Rng(seed);
        let start = YARI_STARTS[rng.below(YARI_STARTS.len())];
        let plies = 40 + rng.below(61);
        playout::<Yari>(&mut rng, start, plies);
    }
}

proptest! {
    #![proptest_config(config(1500))]

    #[test]
    fn shogi_setups_match_reference(seed in any::<u64>()) {
        setup_test::<Shogi>(seed);
    }

    #[test]
    fn minishogi_setups_match_reference(seed in any::<u64>()) {
        setup_test::<Minishogi>(seed);
    }

    #[test]
    fn yari_setups_match_reference(seed in any::<u64>()) {
        setup_test::<Yari>(seed);
    }
}

// ================================================================================================================
// Fixed positions for the rare rules
// ================================================================================================================

/// Checks the position against the reference and returns the legal moves in USI.
fn fixed<V: RefGame>(sfen: &str) -> BTreeSet<String> {
    let pos = Position::<V>::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    let rp = RefPos::from_sfen(V::GAME, sfen);
    let n = sfen.split_whitespace().nth(3).unwrap().parse().unwrap();
    check_position(&pos, &rp, n).iter().map(ref_usi).collect()
}

#[test]
fn start_positions_match_reference() {
    for s in SHOGI_STARTS {
        fixed::<Shogi>(s);
    }
    for s in MINI_STARTS {
        fixed::<Minishogi>(s);
    }
    for s in YARI_STARTS {
        fixed::<Yari>(s);
    }
    assert_eq!(fixed::<Shogi>(SHOGI_STARTS[0]).len(), 30);
    assert_eq!(fixed::<Minishogi>(MINI_STARTS[0]).len(), 14);
}

#[test]
fn mating_pawn_drop_is_illegal() {
    // gold on 2c guards 1b and 2b, knight on 3c guards 2a: P*1b would mate
    let moves = fixed::<Shogi>("8k/9/6NG1/9/9/9/9/9/4K4 b P 1");
    assert!(!moves.contains("P*1b"));
    assert!(moves.contains("P*1c"));
    // a gote silver on 2a can take the pawn: the drop only checks
    let moves = fixed::<Shogi>("7sk/9/6NG1/9/9/9/9/9/4K4 b P 1");
    assert!(moves.contains("P*1b"));
    // the defending gold on 2b is pinned by the bishop on 4d, so it cannot take: mate
    let moves = fixed::<Shogi>("8k/6Sg1/8G/5B3/9/9/9/9/4K4 b P 1");
    assert!(!moves.contains("P*1b"));
    // without the bishop the gold takes the pawn
    let moves = fixed::<Shogi>("8k/6Sg1/8G/9/9/9/9/9/4K4 b P 1");
    assert!(moves.contains("P*1b"));
    // gote mates the same way from the other side of the board
    let moves = fixed::<Shogi>("4k4/9/9/9/9/9/1gn6/9/K8 w p 1");
    assert!(!moves.contains("P*9h"));

    let moves = fixed::<Minishogi>("4k/2S2/3G1/5/K4 b P 1");
    assert!(!moves.contains("P*1b"));
    let moves = fixed::<Minishogi>("3sk/5/3G1/5/K4 b P 1");
    assert!(moves.contains("P*1b"));

    // Yari: the yari rook on 4b guards 2b and 1b, the yari knight on 3c jumps to 2a
    let moves = fixed::<Yari>("6k/3R3/4N2/7/7/7/7/7/3K3 b P 1");
    assert!(!moves.contains("P*1b"));
    // moved to 4c, the yari rook no longer guards rank b: the king takes the pawn
    let moves = fixed::<Yari>("6k/7/3RN2/7/7/7/7/7/3K3 b P 1");
    assert!(moves.contains("P*1b"));
}

#[test]
fn drop_and_promotion_rules() {
    // nifu (an unpromoted pawn on the file) but not with a tokin; no pawn, lance or knight drop where it is dead
    let moves = fixed::<Shogi>("4k4/9/9/9/9/9/P7+P/9/4K4 b PLN 1");
    assert!(!moves.iter().any(|m| m.starts_with("P*9")));
    assert!(moves.contains("P*1e"));
    assert!(!moves.contains("P*5a") && !moves.contains("L*5a"));
    assert!(!moves.contains("N*5a") && !moves.contains("N*5b") && moves.contains("N*5c"));
    // forced and optional promotion
    let moves = fixed::<Shogi>("4k4/P8/9/9/9/5L3/9/N8/4K4 b - 1");
    assert!(moves.contains("9b9a+") && !moves.contains("9b9a"));
    assert!(moves.contains("4f4a+") && !moves.contains("4f4a"));
    assert!(moves.contains("4f4c+") && moves.contains("4f4c"));
    assert!(!moves.contains("4f4d+"));
    // yari bishop and knight must promote on the last rank; the yari rook need not
    let moves = fixed::<Yari>("k6/7/7/7/7/6B/6N/6R/3K3 b - 1");
    assert!(moves.contains("1f1a+") && !moves.contains("1f1a"));
    assert!(moves.contains("1f1c+") && moves.contains("1f1c"));
    // minishogi: only the last rank promotes; a move out of it may promote too
    let moves = fixed::<Minishogi>("1S2k/5/P4/5/K4 b - 1");
    assert!(moves.contains("4a3b+") && moves.contains("4a3b"));
    assert!(moves.contains("5c5b") && !moves.contains("5c5b+"));
}
