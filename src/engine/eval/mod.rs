//! Static evaluation in centipawns from the side to move: material on the board and in hand, and king safety
//! (attackers and defenders near each king, pieces in the opponent's hand counted as potential attackers).
//!
//! Each game supplies its values through `GameEval`; the terms are shared. A learned evaluation can replace
//! `evaluate` behind the same signature.

use crate::engine::params::SearchParams;
use crate::rules::piece::{Color, Kind, KIND_COUNT};
use crate::rules::position::{Bb, Position};
use crate::rules::variant::Variant;

mod minishogi;
mod see;
mod shogi;
mod yari;

pub use see::see_ge;

/// Per-game evaluation constants.
pub trait GameEval: Variant {
    /// Value of a piece on the board, by kind (the king's entry is unused).
    const BOARD_VALUE: [i32; KIND_COUNT];
    /// Value of a piece in hand, by unpromoted kind (P L N S G B R).
    const HAND_VALUE: [i32; 7];
    /// Penalty per enemy attacker (non-pawn) within two squares of the king.
    const ATTACKER_NEAR_KING: i32;
    /// Bonus per own gold, silver or promoted minor piece next to the king.
    const DEFENDER_NEAR_KING: i32;
    /// Penalty per non-pawn piece in the opponent's hand, when it already has an attacker near the king.
    const HAND_THREAT: i32;
    /// Piece-square terms by kind and relative rank (0 = own back rank, counting toward the opponent).
    const RANK_BONUS: [[i32; 9]; KIND_COUNT];
    /// Per square a sliding piece attacks.
    const MOBILITY: i32;
    /// Whether the search corrects the static score by its correction history (`search::correction`). Not in
    /// minishogi: with one pawn a side the pawn table holds a handful of entries for the whole game, and there
    /// the correction cost strength (equal time, byoyomi 100, 200 games from level openings: the search without
    /// it against the one with it, both with capture history, +93 +/- 50). In Yari shogi the two histories
    /// together against neither: +61 +/- 49 (200 games from level openings).
    const CORRECTION: bool;
    /// The search's margins for this game (`engine::params`).
    const SEARCH: SearchParams;
}

/// No bonus for any rank.
const FLAT: [i32; 9] = [0; 9];

/// The evaluation broken into terms, each from Black's point of view.
#[derive(Clone, Copy, Debug, Default)]
pub struct EvalTerms {
    pub board_material: i32,
    pub hand_material: i32,
    pub king_safety: i32,
    pub placement: i32,
    pub mobility: i32,
}

impl EvalTerms {
    pub fn total(&self) -> i32 {
        self.board_material + self.hand_material + self.king_safety + self.placement + self.mobility
    }
}

/// The king-safety and mobility counts that the evaluation weighs (each Black's count minus White's), so that
/// a tuner can fit their weights: the evaluation is linear in them.
#[derive(Clone, Copy, Debug, Default)]
pub struct SafetyCounts {
    /// Enemy non-pawn pieces within two squares of one's king (weighed by `ATTACKER_NEAR_KING`, a penalty).
    pub attackers: i32,
    /// Own golds, silvers and gold-moving promoted pieces next to one's king (`DEFENDER_NEAR_KING`).
    pub defenders: i32,
    /// Non-pawn pieces in the enemy's hand while the enemy has an attacker near one's king (`HAND_THREAT`, a
    /// penalty).
    pub hand_threats: i32,
    /// Squares attacked by one's sliding pieces and not occupied by one's own pieces (`MOBILITY`).
    pub mobility: i32,
}

pub fn eval_terms<V: GameEval>(pos: &Position<V>) -> EvalTerms {
    terms_and_counts(pos).0
}

/// The king-safety and mobility counts of a position (see `SafetyCounts`).
pub fn safety_counts<V: GameEval>(pos: &Position<V>) -> SafetyCounts {
    terms_and_counts(pos).1
}

#[inline]
fn terms_and_counts<V: GameEval>(pos: &Position<V>) -> (EvalTerms, SafetyCounts) {
    let mut t = EvalTerms::default();
    let mut n = SafetyCounts::default();
    for &k in V::HAND_KINDS {
        let v = V::HAND_VALUE[k.index()];
        let diff = pos.hand(Color::Black).count(k) as i32 - pos.hand(Color::White).count(k) as i32;
        t.hand_material += v * diff;
    }
    let occ = pos.occupied();
    for c in Color::ALL {
        let sign = if c == Color::Black { 1 } else { -1 };
        // by kind, through the kind's bitboard: no board lookup per piece, and the per-kind tests (a slider?)
        // once per kind instead of once per piece
        for &k in V::BOARD_KINDS {
            let pieces = pos.pieces(c, k);
            if pieces.is_empty() {
                continue;
            }
            if k != Kind::King {
                t.board_material += sign * V::BOARD_VALUE[k.index()] * pieces.count() as i32;
            }
            let bonus = &V::RANK_BONUS[k.index()];
            let slider = V::tables().slides[c.index()][k.index()] != 0;
            for sq in pieces {
                let r = sq.rank_index(V::RANKS);
                let rel = if c == Color::Black {
                    V::RANKS - 1 - r
                } else {
                    r
                };
                t.placement += sign * bonus[rel.min(8)];
                if slider {
                    let mobility = Position::<V>::attacks_from(c, k, sq, occ) & !pos.color_bb(c);
                    n.mobility += sign * mobility.count() as i32;
                }
            }
        }
        let ksq = pos.king(c);
        let zone2 = Bb::<V>::from_u128(V::tables().near2[ksq.index()]);
        let zone1 = Bb::<V>::from_u128(V::tables().near1[ksq.index()]);
        let them = !c;
        let attackers =
            zone2 & pos.color_bb(them) & !pos.kind_bb(Kind::Pawn) & !pos.kind_bb(Kind::King);
        let defenders = zone1
            & pos.color_bb(c)
            & (pos.kind_bb(Kind::Gold)
                | pos.kind_bb(Kind::Silver)
                | pos.kind_bb(Kind::ProPawn)
                | pos.kind_bb(Kind::ProSilver)
                | pos.kind_bb(Kind::ProKnight)
                | pos.kind_bb(Kind::ProLance));
        n.attackers += sign * attackers.count() as i32;
        n.defenders += sign * defenders.count() as i32;
        if attackers.any() {
            let hand = pos.hand(them);
            n.hand_threats += sign * (hand.total() as i32 - hand.count(Kind::Pawn) as i32);
        }
    }
    t.king_safety = -n.attackers * V::ATTACKER_NEAR_KING + n.defenders * V::DEFENDER_NEAR_KING
        - n.hand_threats * V::HAND_THREAT;
    t.mobility = n.mobility * V::MOBILITY;
    (t, n)
}

/// The evaluation from the side to move's point of view.
pub fn evaluate<V: GameEval>(pos: &Position<V>) -> i32 {
    let v = eval_terms(pos).total();
    if pos.side_to_move() == Color::Black {
        v
    } else {
        -v
    }
}

/// The value of capturing a piece of this kind: its board value plus what it is worth in the captor's hand.
#[inline]
pub fn capture_value<V: GameEval>(k: Kind) -> i32 {
    V::BOARD_VALUE[k.index()] + V::HAND_VALUE[k.unpromoted().index().min(6)]
}
