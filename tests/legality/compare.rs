//! Comparing the engine with the reference at one position.

use hayate::rules::movegen::GenMode;
use hayate::rules::piece::Color;
use hayate::rules::position::notation::move_to_usi;
use hayate::rules::square::Square;
use hayate::{Minishogi, Move, MoveList, Position, Shogi, Variant, Yari};
use std::collections::BTreeSet;

use super::*;

pub(crate) fn square_usi((f, r): Sq) -> String {
    format!("{}{}", f + 1, (b'a' + r as u8) as char)
}

pub(crate) fn ref_usi(m: &RefMove) -> String {
    match m.drop {
        Some(k) => format!("{}*{}", letter(k), square_usi(m.to)),
        None => format!(
            "{}{}{}",
            square_usi(m.from),
            square_usi(m.to),
            if m.promote { "+" } else { "" }
        ),
    }
}

pub(crate) trait RefGame: Variant {
    const GAME: Game;
}
impl RefGame for Shogi {
    const GAME: Game = Game::Shogi;
}
impl RefGame for Minishogi {
    const GAME: Game = Game::Mini;
}
impl RefGame for Yari {
    const GAME: Game = Game::Yari;
}

pub(crate) fn sq_of<V: RefGame>(s: Square) -> Sq {
    (s.file_index(V::RANKS), s.rank_index(V::RANKS))
}

pub(crate) fn to_ref<V: RefGame>(m: Move) -> RefMove {
    if m.is_drop() {
        RefMove {
            drop: Some(m.dropped()),
            from: (0, 0),
            to: sq_of::<V>(m.to()),
            promote: false,
        }
    } else {
        RefMove {
            drop: None,
            from: sq_of::<V>(m.from()),
            to: sq_of::<V>(m.to()),
            promote: m.is_promotion(),
        }
    }
}

pub(crate) fn usi_set(set: &BTreeSet<RefMove>) -> Vec<String> {
    set.iter().map(ref_usi).collect()
}

/// Asserts that two move sets are equal, listing the difference in USI.
pub(crate) fn assert_same_moves(
    what: &str,
    engine: &BTreeSet<RefMove>,
    reference: &BTreeSet<RefMove>,
    ctx: &str,
) {
    if engine != reference {
        let extra: BTreeSet<RefMove> = engine.difference(reference).copied().collect();
        let missing: BTreeSet<RefMove> = reference.difference(engine).copied().collect();
        panic!(
            "{what}: engine and reference differ at {ctx}\n  engine only: {:?}\n  reference only: {:?}",
            usi_set(&extra),
            usi_set(&missing)
        );
    }
}

pub(crate) fn engine_set<V: RefGame>(list: &MoveList, what: &str, ctx: &str) -> BTreeSet<RefMove> {
    let set: BTreeSet<RefMove> = list.iter().map(|&m| to_ref::<V>(m)).collect();
    assert_eq!(set.len(), list.len(), "{what}: duplicate moves at {ctx}");
    set
}

/// Every check of one position. `rp` is the reference's own copy of the position and `move_number` its SFEN move
/// number; returns the reference's legal moves.
pub(crate) fn check_position<V: RefGame>(
    pos: &Position<V>,
    rp: &RefPos,
    move_number: u32,
) -> Vec<RefMove> {
    let g = V::GAME;
    assert_eq!((V::FILES, V::RANKS), (g.files(), g.ranks()));
    let sfen = pos.to_sfen();
    let ctx = format!("{} position {sfen}", V::NAME);
    let ctx = ctx.as_str();

    // the engine's state against the reference's replay
    for s in rp.squares() {
        let p = pos.piece_at(Square::from_coords(s.0, s.1, g.ranks()));
        let p = p.is_some().then(|| (p.color(), p.kind()));
        assert_eq!(p, rp.at(s), "piece on {} at {ctx}", square_usi(s));
    }
    for c in [Color::Black, Color::White] {
        for k in SHOGI_HAND {
            let expected = if g.hand_kinds().contains(&k) {
                rp.hands[c as usize][hand_slot(k)]
            } else {
                0
            };
            assert_eq!(
                pos.hand(c).count(k),
                expected,
                "{c:?} hand of {k:?} at {ctx}"
            );
        }
    }
    assert_eq!(pos.side_to_move(), rp.side, "side to move at {ctx}");

    // SFEN and keys
    assert_eq!(sfen, rp.sfen(move_number), "to_sfen");
    assert_eq!(pos.key(), pos.compute_key(), "incremental key at {ctx}");
    let again = Position::<V>::from_sfen(&sfen)
        .unwrap_or_else(|e| panic!("from_sfen(to_sfen()) failed with '{e}' at {ctx}"));
    assert_eq!(again.to_sfen(), sfen, "SFEN round trip at {ctx}");
    assert_eq!(again.key(), pos.key(), "key after SFEN round trip at {ctx}");

    // check
    let us = rp.side;
    assert_eq!(pos.in_check(), rp.in_check(us), "in_check at {ctx}");

    // the move sets
    let reference_moves = rp.legal_moves();
    let reference: BTreeSet<RefMove> = reference_moves.iter().copied().collect();
    let all = engine_set::<V>(&pos.legal_moves(), "legal_moves", ctx);
    assert_same_moves("legal moves", &all, &reference, ctx);
    let mut list = MoveList::new();
    pos.generate(GenMode::All, &mut list);
    assert_same_moves(
        "GenMode::All",
        &engine_set::<V>(&list, "All", ctx),
        &reference,
        ctx,
    );

    let captures: BTreeSet<RefMove> = reference
        .iter()
        .filter(|m| rp.is_capture(m))
        .copied()
        .collect();
    let quiets: BTreeSet<RefMove> = reference.difference(&captures).copied().collect();
    let mut gives_check = BTreeSet::new();
    for m in &reference {
        if rp.apply(m).in_check(opp(us)) {
            gives_check.insert(*m);
        }
    }
    let quiet_promotions: BTreeSet<RefMove> =
        quiets.iter().filter(|m| m.promote).copied().collect();
    for (mode, expected) in [
        (GenMode::Captures, &captures),
        (GenMode::QuietPromotions, &quiet_promotions),
        (GenMode::Quiets, &quiets),
        (GenMode::Checks, &gives_check),
    ] {
        let mut list = MoveList::new();
        pos.generate(mode, &mut list);
        let what = format!("{mode:?}");
        assert_same_moves(&what, &engine_set::<V>(&list, &what, ctx), expected, ctx);
    }

    // every legal move: notation, gives_check, do and undo
    let mut scratch = pos.clone();
    let key = pos.key();
    for &m in pos.legal_moves().iter() {
        let r = to_ref::<V>(m);
        let usi = move_to_usi::<V>(m);
        assert_eq!(usi, ref_usi(&r), "move_to_usi at {ctx}");
        assert_eq!(pos.parse_move(&usi), Ok(m), "parse_move({usi}) at {ctx}");
        assert!(pos.is_legal(m), "is_legal({usi}) at {ctx}");
        let checks = gives_check.contains(&r);
        assert_eq!(pos.gives_check(m), checks, "gives_check({usi}) at {ctx}");
        scratch.do_move(m);
        assert_eq!(
            scratch.key(),
            scratch.compute_key(),
            "key after {usi} at {ctx}"
        );
        assert_eq!(scratch.in_check(), checks, "in_check after {usi} at {ctx}");
        assert_eq!(scratch.side_to_move(), opp(us), "side after {usi} at {ctx}");
        scratch.undo_move();
        assert_eq!(scratch.key(), key, "key after {usi} and undo at {ctx}");
        assert_eq!(
            scratch.to_sfen(),
            sfen,
            "SFEN after {usi} and undo at {ctx}"
        );
    }
    // moves the reference calls illegal are not legal for the engine either
    for m in rp.pseudo_moves() {
        if !reference.contains(&m) {
            let usi = ref_usi(&m);
            assert!(
                pos.parse_move(&usi).is_err(),
                "parse_move({usi}) accepted at {ctx}"
            );
        }
    }
    reference_moves
}
