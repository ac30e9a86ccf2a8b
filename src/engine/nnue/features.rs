//! The network's inputs, per perspective: one plane of squares per (own/opponent, board kind) and thermometer
//! features for the hands ("holds at least n of this kind"), with the board turned 180° for gote so that both
//! perspectives see their own pieces moving up the board.
//!
//! Layout of the inputs of a game with K board kinds, S squares and T = the most pieces of all hand kinds:
//! `[own kind 0 .. own kind K-1, their kind 0 .. their kind K-1]` planes of S each, then T own hand features
//! and T of the opponent's. A hand count changing by one toggles exactly one thermometer feature, so any move
//! changes at most four inputs per perspective (a capture: the mover leaves, arrives, the captured piece goes,
//! one hand feature comes).
//!
//! A king-bucketed net (`Network::block` non-zero) has `KING_BUCKETS` such blocks of inputs, one per region of
//! the board where the perspective's own king stands (seen from that perspective): input `bucket × block + f`.
//! Its inputs change as above except when a king moves to another region, which moves its side's whole
//! perspective to another block (the accumulator then refreshes that perspective).

use arrayvec::ArrayVec;

use crate::rules::moves::Move;
use crate::rules::piece::{Color, Kind, Piece, KIND_COUNT};
use crate::rules::position::Position;
use crate::rules::square::Square;
use crate::rules::variant::Variant;

/// More than the active features of any position: each of the at most 40 pieces is one feature.
pub const MAX_ACTIVE: usize = 64;

/// The active features of one perspective.
pub type Active = ArrayVec<u32, MAX_ACTIVE>;

const fn plane_table(kinds: &[Kind]) -> [u8; KIND_COUNT] {
    let mut t = [u8::MAX; KIND_COUNT];
    let mut i = 0;
    while i < kinds.len() {
        t[kinds[i] as usize] = i as u8;
        i += 1;
    }
    t
}

const fn hand_offsets(kinds: &[Kind], totals: &[u8; 8]) -> [u16; KIND_COUNT] {
    let mut t = [u16::MAX; KIND_COUNT];
    let mut at = 0u16;
    let mut i = 0;
    while i < kinds.len() {
        t[kinds[i] as usize] = at;
        at += totals[kinds[i] as usize] as u16;
        i += 1;
    }
    t
}

const fn hand_total(kinds: &[Kind], totals: &[u8; 8]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < kinds.len() {
        n += totals[kinds[i] as usize] as usize;
        i += 1;
    }
    n
}

/// The input layout of a game, derived at compile time from its `Variant` constants.
pub trait Features: Variant {
    /// Plane of each board kind (`u8::MAX` for kinds the game does not have).
    const PLANE: [u8; KIND_COUNT] = plane_table(Self::BOARD_KINDS);
    /// First thermometer feature of each hand kind within one side's hand block.
    const HAND_OFFSET: [u16; KIND_COUNT] = hand_offsets(Self::HAND_KINDS, &Self::PIECE_TOTALS);
    /// Thermometer features of one side's hand.
    const HAND_FEATURES: usize = hand_total(Self::HAND_KINDS, &Self::PIECE_TOTALS);
    const BOARD_FEATURES: usize = 2 * Self::BOARD_KINDS.len() * Self::SQUARES;
    /// All inputs of one perspective: 520 for minishogi, 1186 for Yari, 2344 for 9×9 shogi.
    const INPUTS: usize = Self::BOARD_FEATURES + 2 * Self::HAND_FEATURES;
    /// The king bucket of each square (seen from the king's side).
    const KING_BUCKET: [u8; 81] = king_bucket_table(Self::FILES, Self::RANKS);
}

impl<V: Variant> Features for V {}

/// The king regions of a king-bucketed net: the king's file in three bands (the outer thirds and the middle)
/// times its distance from its own back rank (0, 1, 2 or more), seen from the king's side. Three by three,
/// not a bucket per square: a block per square overfits the data a 2-core machine can make (minishogi: 400k
/// positions, validation loss 0.0200 against the plain net's 0.0187).
pub const KING_BUCKETS: usize = 9;

const fn king_bucket_table(files: usize, ranks: usize) -> [u8; 81] {
    let mut t = [0u8; 81];
    let mut sq = 0;
    while sq < files * ranks {
        let (f, r) = (sq / ranks, sq % ranks);
        let file_band = (2 * f + 1) * 3 / (2 * files);
        let from_home = ranks - 1 - r;
        let rank_band = if from_home < 2 { from_home } else { 2 };
        t[sq] = (file_band * 3 + rank_band) as u8;
        sq += 1;
    }
    t
}

/// The first input of `persp`'s block: the bucket of `persp`'s own king (seen from `persp`) times `block` (0 for
/// a plain net, so every offset is 0). A side without a king (a tsume attacker) uses the first block.
#[inline(always)]
pub fn king_offset<V: Features>(persp: Color, king: Square, block: u32) -> u32 {
    let k = king.index();
    let rel = if k >= V::SQUARES {
        return 0;
    } else if persp == Color::Black {
        k
    } else {
        V::SQUARES - 1 - k
    };
    u32::from(V::KING_BUCKET[rel]) * block
}

/// The input of `piece` on `sq` seen from `persp`.
#[inline(always)]
pub fn board_feature<V: Features>(persp: Color, piece: Piece, sq: Square) -> u32 {
    let theirs = (piece.color() != persp) as usize;
    let s = if persp == Color::Black {
        sq.index()
    } else {
        V::SQUARES - 1 - sq.index()
    };
    let plane = theirs * V::BOARD_KINDS.len() + V::PLANE[piece.kind().index()] as usize;
    (plane * V::SQUARES + s) as u32
}

/// The input "`owner` holds at least `n` (≥ 1) of `kind`" seen from `persp`.
#[inline(always)]
pub fn hand_feature<V: Features>(persp: Color, owner: Color, kind: Kind, n: u8) -> u32 {
    let theirs = (owner != persp) as usize;
    (V::BOARD_FEATURES
        + theirs * V::HAND_FEATURES
        + V::HAND_OFFSET[kind.index()] as usize
        + (n as usize - 1)) as u32
}

/// Every active input of `pos` from `persp`, for a net whose king block is `block` (0: a plain net).
pub fn active<V: Features>(pos: &Position<V>, persp: Color, block: u32) -> Active {
    let off = king_offset::<V>(persp, pos.king(persp), block);
    let mut out = Active::new();
    for c in Color::ALL {
        for sq in pos.color_bb(c) {
            out.push(off + board_feature::<V>(persp, pos.piece_at(sq), sq));
        }
        for &k in V::HAND_KINDS {
            for n in 1..=pos.hand(c).count(k) {
                out.push(off + hand_feature::<V>(persp, c, k, n));
            }
        }
    }
    out
}

/// The inputs a move switches off and on, for one perspective.
#[derive(Clone, Debug, Default)]
pub struct Delta {
    pub add: ArrayVec<u32, 2>,
    pub sub: ArrayVec<u32, 2>,
}

/// What `m` (legal in `pos`, not yet played) changes, for each perspective (indexed by colour), for a net whose
/// king block is `block`. When `m` moves a king of a king-bucketed net, the mover's entry is not valid (the
/// caller refreshes that perspective).
#[inline]
pub fn move_delta<V: Features>(pos: &Position<V>, m: Move, block: u32) -> [Delta; 2] {
    let us = pos.side_to_move();
    let mut d = [Delta::default(), Delta::default()];
    for persp in Color::ALL {
        let off = king_offset::<V>(persp, pos.king(persp), block);
        let board_feature = |persp, p, sq| off + board_feature::<V>(persp, p, sq);
        let hand_feature = |persp, owner, k, n| off + hand_feature::<V>(persp, owner, k, n);
        let e = &mut d[persp.index()];
        if m.is_drop() {
            let k = m.dropped();
            e.sub
                .push(hand_feature(persp, us, k, pos.hand(us).count(k)));
            e.add.push(board_feature(persp, Piece::new(us, k), m.to()));
        } else {
            let p = pos.piece_at(m.from());
            e.sub.push(board_feature(persp, p, m.from()));
            let moved = Piece::new(us, p.kind().after_move(m.is_promotion()));
            e.add.push(board_feature(persp, moved, m.to()));
            let captured = pos.piece_at(m.to());
            if captured.is_some() {
                e.sub.push(board_feature(persp, captured, m.to()));
                let k = captured.kind().unpromoted();
                e.add
                    .push(hand_feature(persp, us, k, pos.hand(us).count(k) + 1));
            }
        }
    }
    d
}
