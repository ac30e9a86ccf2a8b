//! Move ordering: what a worker learns about moves as it searches (killers, history, counter moves, capture
//! history), the scores it gives each move from that and from the captures' values, and the picker that hands the
//! moves out best first. Alpha-beta cuts off sooner the earlier it meets the best move, so ordering is most of its
//! speed. The worker's correction history (`correction`) travels with these statistics from search to search.

use super::correction::CorrectionHistory;
use super::MAX_PLY;
use crate::engine::eval::{capture_value, see_ge, GameEval};
use crate::rules::moves::{Move, MoveList, MAX_MOVES};
use crate::rules::piece::{Color, KIND_COUNT};
use crate::rules::position::Position;
use crate::rules::variant::Variant;

/// History index of a move: its origin square or dropped kind, and its destination.
#[inline]
fn history_index(m: Move) -> usize {
    let from = if m.is_drop() {
        81 + m.dropped().index()
    } else {
        m.from().index()
    };
    from * 81 + m.to().index()
}
const HISTORY_SIZE: usize = 88 * 81;

/// Capture-history index of a capture: the mover's colour, the capturing kind, the destination and the kind
/// captured.
#[inline]
fn capture_index<V: Variant>(pos: &Position<V>, m: Move) -> usize {
    let mover = pos.piece_at(m.from()).kind().index();
    let victim = pos.piece_at(m.to()).kind().index();
    ((pos.side_to_move().index() * KIND_COUNT + mover) * 81 + m.to().index()) * KIND_COUNT + victim
}
const CAPTURE_SIZE: usize = 2 * KIND_COUNT * 81 * KIND_COUNT;

/// The range the move histories (quiet and capture) keep to by `pull`'s gravity: about +-HISTORY_LIMIT.
pub(super) const HISTORY_LIMIT: i32 = 16384;

/// The bonus of a move that cut off at `depth` (a malus for those tried before it in vain). It is capped, and
/// each update pulls a value towards it in proportion to what is left (a gravity that keeps the values within about
/// +-HISTORY_LIMIT without rescaling). It grows with the depth as Stockfish's does, to a sixth of the range: a move's
/// history follows what cuts off now within a few updates. The old bonus, depth² up to 400 (a fortieth of the
/// range at most, a thousandth at depth 4), learnt so slowly that the ordering and the reductions barely read it:
/// equal time, 9x9, byoyomi 100, 400 games, +21 +/- 34. Positive from depth 1, the least depth of a node that is
/// not a quiescence node.
#[inline]
fn history_bonus(depth: i32) -> i32 {
    (600 * (depth + 1) - 800).min(2600)
}

/// A statistic `v` pulled towards `bonus` (towards `-bonus` when it is negative, a malus) in proportion to what is
/// left before `limit`: the gravity that keeps the move histories (`HISTORY_LIMIT`) and the correction history within
/// about +-limit without rescaling.
#[inline]
pub(super) fn pull(v: i32, bonus: i32, limit: i32) -> i32 {
    v + bonus - v * bonus.abs() / limit
}

/// Move scores, by the move's place in its list (not zeroed first: a node's list is scored once, in full).
pub(super) type Scores = arrayvec::ArrayVec<i32, MAX_MOVES>;

/// One worker thread's move-ordering statistics. They carry over from one search to the next (the positions of
/// consecutive moves of a game are alike), aged at each new search, and are emptied with the table.
pub(super) struct MoveOrdering {
    /// Two quiet moves per ply that last cut off there: a sibling position often has the same refutation.
    killers: [[Move; 2]; MAX_PLY + 1],
    /// Per colour and `history_index`: raised for a quiet move that cuts off, lowered for the quiet moves
    /// tried before it, both by `history_bonus`.
    history: Vec<[i32; HISTORY_SIZE]>,
    /// The quiet move that last cut off right after the opponent's move, by that move's `history_index`.
    counter_moves: Vec<Move>,
    /// Capture history, by `capture_index`: raised for a capture that cuts off, lowered for the captures tried
    /// before the move that cut off (capture or not). It orders captures of the same victim, and captures of
    /// victims close in value, by what has worked.
    captures: Vec<i16>,
    /// How far the static score has been off, by pawns and by hands (`CorrectionHistory`).
    pub(super) correction: CorrectionHistory,
}

impl MoveOrdering {
    pub(super) fn new() -> Self {
        MoveOrdering {
            killers: [[Move::NONE; 2]; MAX_PLY + 1],
            history: vec![[0; HISTORY_SIZE]; 2],
            counter_moves: vec![Move::NONE; HISTORY_SIZE],
            captures: vec![0; CAPTURE_SIZE],
            correction: CorrectionHistory::new(),
        }
    }

    /// Readies the statistics for a new search: killers belong to the plies of the last search and go; the
    /// history is halved, so that it still orders the first iterations but soon follows the new position.
    pub(super) fn new_search(&mut self) {
        self.killers = [[Move::NONE; 2]; MAX_PLY + 1];
        for side in self.history.iter_mut() {
            for e in side.iter_mut() {
                *e /= 2;
            }
        }
    }

    #[inline]
    pub(super) fn is_killer(&self, ply: usize, m: Move) -> bool {
        m == self.killers[ply][0] || m == self.killers[ply][1]
    }

    /// The two killers of `ply`, the latest first.
    #[inline]
    pub(super) fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply]
    }

    /// The quiet move that last cut off right after the move that led to `pos` (none after a null move).
    #[inline]
    pub(super) fn counter_move<V: GameEval>(&self, pos: &Position<V>) -> Move {
        pos.history()
            .last()
            .filter(|s| !s.mv.is_none())
            .map_or(Move::NONE, |s| self.counter_moves[history_index(s.mv)])
    }

    /// The history score of a quiet move by `us`.
    #[inline]
    pub(super) fn history(&self, us: Color, m: Move) -> i32 {
        self.history[us.index()][history_index(m)]
    }

    /// Credits the quiet move `m` that cut off at `ply` (of `pos`, before it is played), and debits the quiet
    /// moves `tried` before it in vain.
    pub(super) fn reward_quiet<V: GameEval>(
        &mut self,
        pos: &Position<V>,
        m: Move,
        tried: &MoveList,
        depth: i32,
        ply: usize,
    ) {
        if self.killers[ply][0] != m {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = m;
        }
        let bonus = history_bonus(depth);
        let h = &mut self.history[pos.side_to_move().index()];
        let e = &mut h[history_index(m)];
        *e = pull(*e, bonus, HISTORY_LIMIT);
        for &q in tried {
            let e = &mut h[history_index(q)];
            *e = pull(*e, -bonus, HISTORY_LIMIT);
        }
        if let Some(prev) = pos.history().last() {
            if !prev.mv.is_none() {
                self.counter_moves[history_index(prev.mv)] = m;
            }
        }
    }

    /// Credits the opponent's move that led to `pos` when every move of `pos` failed low at `depth`: a quiet
    /// move (no capture, no promotion, no null move) that left us nothing better than alpha was a good one, and
    /// its history (the opponent's table) rises as if it had cut off.
    pub(super) fn reward_prior<V: GameEval>(&mut self, pos: &Position<V>, depth: i32) {
        let Some(prev) = pos.history().last() else {
            return;
        };
        if prev.mv.is_none() || prev.mv.is_promotion() || prev.captured.is_some() {
            return;
        }
        let e = &mut self.history[(!pos.side_to_move()).index()][history_index(prev.mv)];
        *e = pull(*e, history_bonus(depth), HISTORY_LIMIT);
    }

    /// The capture history of the capture `m`, added to its score among the captures.
    #[inline]
    pub(super) fn capture_history<V: Variant>(&self, pos: &Position<V>, m: Move) -> i32 {
        i32::from(self.captures[capture_index(pos, m)])
    }

    /// Credits the capture `m` that cut off (`None` when the move that did is no capture), and debits the
    /// captures `tried` before it.
    pub(super) fn reward_capture<V: Variant>(
        &mut self,
        pos: &Position<V>,
        m: Option<Move>,
        tried: &MoveList,
        depth: i32,
    ) {
        // the gravity keeps each entry within +-(HISTORY_LIMIT + the largest bonus), well inside an i16
        let bonus = history_bonus(depth);
        if let Some(m) = m {
            let e = &mut self.captures[capture_index(pos, m)];
            *e = pull(i32::from(*e), bonus, HISTORY_LIMIT) as i16;
        }
        for &q in tried {
            let e = &mut self.captures[capture_index(pos, q)];
            *e = pull(i32::from(*e), -bonus, HISTORY_LIMIT) as i16;
        }
    }

    /// Scores `moves` for `pick`: the table's move, winning captures and promotions, killers, the counter move,
    /// then quiet moves by history, with losing captures after the killers.
    pub(super) fn score_moves<V: GameEval>(
        &self,
        pos: &Position<V>,
        moves: &MoveList,
        tt_move: Move,
        ply: usize,
    ) -> Scores {
        let mut scores = Scores::new();
        let us = pos.side_to_move();
        let counter = self.counter_move(pos);
        for &m in moves.iter() {
            scores.push(if m == tt_move {
                1 << 30
            } else if !m.is_drop() && pos.piece_at(m.to()).is_some() {
                // captures: most valuable victim first, then least valuable attacker; losing ones (by static
                // exchange) after the killers
                let victim = capture_value::<V>(pos.piece_at(m.to()).kind());
                let attacker = V::BOARD_VALUE[pos.piece_at(m.from()).kind().index()];
                let base = if see_ge(pos, m, 0) { 1 << 28 } else { 1 << 24 };
                base + victim * 16 - attacker / 16 + if m.is_promotion() { 500 } else { 0 }
            } else if m.is_promotion() {
                (1 << 27) + 100
            } else if m == self.killers[ply][0] {
                (1 << 26) + 2
            } else if m == self.killers[ply][1] {
                (1 << 26) + 1
            } else if m == counter {
                1 << 25
            } else {
                self.history[us.index()][history_index(m)]
            });
        }
        scores
    }
}

/// Moves the best-scored remaining move to `i` and returns it: a selection step for the first few moves (a
/// cut-off usually comes early), then one sort of the rest.
#[inline]
pub(super) fn pick(moves: &mut MoveList, scores: &mut Scores, i: usize) -> Move {
    const SELECT: usize = 6;
    if i == SELECT && moves.len() > SELECT + 1 {
        let n = moves.len();
        let mut pairs: arrayvec::ArrayVec<(i32, Move), MAX_MOVES> =
            (SELECT..n).map(|j| (scores[j], moves[j])).collect();
        pairs.sort_unstable_by_key(|p| std::cmp::Reverse(p.0));
        for (k, (sc, m)) in pairs.into_iter().enumerate() {
            scores[SELECT + k] = sc;
            moves[SELECT + k] = m;
        }
    }
    if i >= SELECT {
        return moves[i];
    }
    let mut best = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
    moves[i]
}
