//! The quiescence search: beyond the horizon, only moves that change the material (captures, and a pawn's
//! promotion at the first ply) are searched, until the position is quiet enough for its static score to count.
//! In check every evasion is searched, since standing pat is no option there.

use super::driver::Worker;
use super::node::tt_cutoff;
use super::ordering::pick;
use super::picker::score_captures;
use super::{INFINITE, MATE, MATE_BOUND, MAX_PLY};
use crate::engine::eval::{capture_value, see_ge, GameEval};
use crate::engine::tt::Bound;
use crate::rules::movegen::GenMode;
use crate::rules::moves::{Move, MoveList};
use crate::rules::piece::Kind;
use crate::rules::position::Position;

/// What promoting adds to the moving piece's board value (0 for a move that does not promote).
fn promotion_gain<V: GameEval>(pos: &Position<V>, m: Move) -> i32 {
    if !m.is_promotion() {
        return 0;
    }
    let k = pos.piece_at(m.from()).kind();
    k.promoted()
        .map_or(0, |p| V::BOARD_VALUE[p.index()] - V::BOARD_VALUE[k.index()])
}

impl<V: GameEval> Worker<'_, V> {
    pub(super) fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, qdepth: i32) -> i32 {
        if !self.enter_node(ply) {
            return 0;
        }
        let in_check = self.pos.in_check();
        // the ply limit, and one on the quiescence plies: evasions, drops among them, could go on for long
        if ply >= MAX_PLY - 1 || qdepth > self.params().qsearch_max_plies {
            return if in_check { 0 } else { self.eval() };
        }
        // The table: a bound from an earlier quiescence search of this position (or any deeper search) that
        // decides it against the window settles it, and its move is tried first. Quiescence nodes beyond the
        // first ply search fewer moves (no promotions), so their entries count as shallower.
        let key = self.pos.key();
        let qdepth_tt = if qdepth == 0 { 0 } else { -1 };
        let tt = self.sh.tt.probe(key);
        let mut tt_move = Move::NONE;
        let mut tt_eval = None;
        if let Some(t) = tt {
            if let Some(s) = tt_cutoff(&t, qdepth_tt, alpha, beta, ply) {
                return s;
            }
            tt_move = t.mv;
            if !in_check && t.bound != Bound::None && t.eval.abs() < MATE_BOUND {
                tt_eval = Some(t.eval);
            }
        }
        let original_alpha = alpha;
        let mut moves = MoveList::new();
        let stand_pat;
        if in_check {
            // all evasions; no legal move is mate
            self.pos.generate(GenMode::All, &mut moves);
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
            stand_pat = -INFINITE;
        } else {
            // stand pat: the side to move need not capture, so the static score is a lower bound
            stand_pat = tt_eval.unwrap_or_else(|| self.eval());
            if stand_pat >= beta {
                if tt.is_none() {
                    // a stand-pat cut-off: a lower bound, the static score kept for the next visit
                    let b = Bound::Lower;
                    self.store_entry(key, ply, Move::NONE, stand_pat, stand_pat, qdepth_tt, b);
                }
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            self.pos.generate(GenMode::Captures, &mut moves);
            if qdepth == 0 {
                self.push_pawn_promotions(&mut moves);
            }
        }
        let mut scores = if in_check {
            self.ordering
                .score_moves(&self.pos, &moves, tt_move, ply.min(MAX_PLY))
        } else {
            score_captures(&self.pos, &moves, tt_move)
        };
        let mut best = stand_pat;
        let mut best_move = Move::NONE;
        for i in 0..moves.len() {
            let m = pick(&mut moves, &mut scores, i);
            if !in_check && self.qsearch_skips(m, &moves, stand_pat, alpha) {
                continue;
            }
            self.make(m);
            let s = -self.qsearch(-beta, -alpha, ply + 1, qdepth + 1);
            self.unmake();
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    best_move = m;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha && best_move != Move::NONE {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let eval = if in_check { 0 } else { stand_pat };
        self.store_entry(key, ply, best_move, best, eval, qdepth_tt, bound);
        best
    }

    /// Appends the quiet pawn promotions: a promotion that gains much changes the material as a capture does;
    /// searched at the first quiescence ply only, where they matter most and cost least.
    #[inline]
    fn push_pawn_promotions(&self, moves: &mut MoveList) {
        let start = moves.len();
        self.pos.generate(GenMode::QuietPromotions, moves);
        let mut i = start;
        while i < moves.len() {
            if self.pos.piece_at(moves[i].from()).kind() == Kind::Pawn {
                i += 1;
            } else {
                moves.swap_remove(i);
            }
        }
    }

    /// Whether the quiescence search, out of check, skips the capture or promotion `m` of `moves`: delta pruning,
    /// a losing exchange, or the non-promotion of a move that may promote.
    #[inline]
    fn qsearch_skips(&self, m: Move, moves: &MoveList, stand_pat: i32, alpha: i32) -> bool {
        // Delta pruning: even winning this piece (or promoting) cannot lift the score to alpha.
        let target = self.pos.piece_at(m.to());
        let gain = if target.is_some() {
            capture_value::<V>(target.kind()) + promotion_gain::<V>(&self.pos, m)
        } else {
            promotion_gain::<V>(&self.pos, m)
        };
        if stand_pat + gain + self.params().delta_margin <= alpha {
            return true;
        }
        // losing captures cannot raise the score
        if !see_ge(&self.pos, m, 0) {
            return true;
        }
        // skip the non-promotion when promoting is possible (the promotion is searched)
        !m.is_promotion()
            && moves
                .iter()
                .any(|&o| o.is_promotion() && o.from() == m.from() && o.to() == m.to())
    }
}
