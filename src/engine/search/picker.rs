//! The staged move picker of the node search: it hands out a node's moves best first, generating each kind only
//! when the moves before it have not cut the node off.
//!
//! Most nodes that cut off do so with the table's move or a capture. Generating and scoring every legal move
//! first (well over a hundred with pieces in hand) was about a quarter of the search's time; now the table's move
//! is checked for legality and searched before anything is generated, the captures (and quiet promotions) come
//! next, then the killers and the counter move (checked the same way), the losing captures, and only then the
//! quiet moves and drops, generated and ordered by history. In check, all evasions are generated at once, since
//! they are few. The order is the one the single scored list gave, the captures' by capture history as well.

use arrayvec::ArrayVec;

use super::ordering::{MoveOrdering, Scores};
use crate::engine::eval::{capture_value, see_ge, GameEval};
use crate::rules::movegen::GenMode;
use crate::rules::moves::{Move, MoveList, MAX_MOVES};
use crate::rules::position::Position;

/// A generated move with its ordering score.
#[derive(Clone, Copy)]
struct Scored {
    mv: Move,
    score: i32,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    TableMove,
    GenerateCaptures,
    GoodCaptures,
    Refutations,
    BadCaptures,
    GenerateQuiets,
    Quiets,
    GenerateEvasions,
    Evasions,
    Deferred,
    Done,
}

/// How many moves of a list are picked by selection before the rest is sorted: a cut-off usually comes early.
const SELECT: usize = 6;

/// The score below which quiet promotions sit in the capture stage: after every capture.
const QUIET_PROMOTION: i32 = -1_000_000;

pub(super) struct MovePicker {
    stage: Stage,
    tt_move: Move,
    /// Killers 1 and 2, then the counter move; `Move::NONE` where there is none or it repeats one before.
    refutations: [Move; 3],
    refutation_index: usize,
    list: ArrayVec<Scored, MAX_MOVES>,
    cur: usize,
    /// Captures that lose material by static exchange, put off until after the killers.
    bad_captures: MoveList,
    bad_index: usize,
    /// Moves the search put off (`defer`), handed out again at the end.
    deferred: MoveList,
    deferred_index: usize,
    /// Moves handed out so far, the deferred ones counted once.
    yielded: usize,
    ply: usize,
}

impl MovePicker {
    pub(super) fn new<V: GameEval>(
        pos: &Position<V>,
        ordering: &MoveOrdering,
        tt_move: Move,
        ply: usize,
    ) -> Self {
        let (stage, refutations) = if pos.in_check() {
            // the evasions are scored all at once, the killers and counter move among them
            (Stage::GenerateEvasions, [Move::NONE; 3])
        } else {
            let [k1, k2] = ordering.killers(ply);
            let counter = ordering.counter_move(pos);
            let k1 = if k1 == tt_move { Move::NONE } else { k1 };
            let k2 = if k2 == tt_move || k2 == k1 {
                Move::NONE
            } else {
                k2
            };
            let counter = if counter == tt_move || counter == k1 || counter == k2 {
                Move::NONE
            } else {
                counter
            };
            (Stage::TableMove, [k1, k2, counter])
        };
        MovePicker {
            stage,
            tt_move,
            refutations,
            refutation_index: 0,
            list: ArrayVec::new(),
            cur: 0,
            bad_captures: MoveList::new(),
            bad_index: 0,
            deferred: MoveList::new(),
            deferred_index: 0,
            yielded: 0,
            ply,
        }
    }

    /// Moves handed out so far: none once the picker is done means the side to move has no legal move.
    pub(super) fn yielded(&self) -> usize {
        self.yielded
    }

    /// Whether the move just handed out came from the deferred list (and so may not be put off again).
    pub(super) fn in_deferred_stage(&self) -> bool {
        self.stage == Stage::Deferred
    }

    /// Puts off the move just handed out until every other move has been handed out.
    pub(super) fn defer(&mut self, m: Move) {
        self.deferred.push(m);
        self.yielded -= 1;
    }

    /// The next move, best first; `None` when all have been handed out.
    pub(super) fn next<V: GameEval>(
        &mut self,
        pos: &Position<V>,
        ordering: &MoveOrdering,
    ) -> Option<Move> {
        let m = self.next_move(pos, ordering)?;
        self.yielded += 1;
        Some(m)
    }

    /// The captures and quiet promotions, scored: a capture by its victim, attacker and capture history, a
    /// quiet promotion between the good captures and the bad.
    #[inline]
    fn generate_captures<V: GameEval>(&mut self, pos: &Position<V>, ordering: &MoveOrdering) {
        let mut moves = MoveList::new();
        pos.generate(GenMode::Captures, &mut moves);
        pos.generate(GenMode::QuietPromotions, &mut moves);
        self.fill(&moves, |m| {
            if pos.piece_at(m.to()).is_some() {
                capture_score(pos, m) + ordering.capture_history(pos, m)
            } else {
                QUIET_PROMOTION
            }
        });
    }

    /// The quiet moves, scored by their history.
    #[inline]
    fn generate_quiets<V: GameEval>(&mut self, pos: &Position<V>, ordering: &MoveOrdering) {
        let mut moves = MoveList::new();
        pos.generate(GenMode::Quiets, &mut moves);
        let us = pos.side_to_move();
        // the quiet promotions came with the captures
        moves.retain(|m| !m.is_promotion());
        self.fill(&moves, |m| ordering.history(us, m));
    }

    /// Every evasion of a side in check, scored as one list.
    #[inline]
    fn generate_evasions<V: GameEval>(&mut self, pos: &Position<V>, ordering: &MoveOrdering) {
        let mut moves = MoveList::new();
        pos.generate(GenMode::All, &mut moves);
        let scores = ordering.score_moves(pos, &moves, self.tt_move, self.ply);
        self.list.clear();
        self.cur = 0;
        for (&mv, &score) in moves.iter().zip(scores.iter()) {
            self.list.push(Scored { mv, score });
        }
    }

    fn next_move<V: GameEval>(
        &mut self,
        pos: &Position<V>,
        ordering: &MoveOrdering,
    ) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TableMove => {
                    self.stage = Stage::GenerateCaptures;
                    if !self.tt_move.is_none() && pos.is_legal(self.tt_move) {
                        return Some(self.tt_move);
                    }
                }
                Stage::GenerateCaptures => {
                    self.generate_captures(pos, ordering);
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => {
                    while let Some(s) = self.pick_scored() {
                        if s.mv == self.tt_move {
                            continue;
                        }
                        if s.score > QUIET_PROMOTION && !see_ge(pos, s.mv, 0) {
                            self.bad_captures.push(s.mv);
                            continue;
                        }
                        return Some(s.mv);
                    }
                    self.stage = Stage::Refutations;
                }
                Stage::Refutations => {
                    while self.refutation_index < 3 {
                        let m = self.refutations[self.refutation_index];
                        self.refutation_index += 1;
                        // a killer or counter move that captures or promotes here came with the captures
                        if !m.is_none()
                            && !m.is_promotion()
                            && (m.is_drop() || pos.piece_at(m.to()).is_none())
                            && pos.is_legal(m)
                        {
                            return Some(m);
                        }
                    }
                    self.stage = Stage::BadCaptures;
                }
                Stage::BadCaptures => {
                    if let Some(m) = next_in(&self.bad_captures, &mut self.bad_index) {
                        return Some(m);
                    }
                    self.stage = Stage::GenerateQuiets;
                }
                Stage::GenerateQuiets => {
                    self.generate_quiets(pos, ordering);
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    while let Some(s) = self.pick_scored() {
                        if s.mv != self.tt_move && !self.refutations.contains(&s.mv) {
                            return Some(s.mv);
                        }
                    }
                    self.stage = Stage::Deferred;
                }
                Stage::GenerateEvasions => {
                    self.generate_evasions(pos, ordering);
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => {
                    if let Some(s) = self.pick_scored() {
                        return Some(s.mv);
                    }
                    self.stage = Stage::Deferred;
                }
                Stage::Deferred => {
                    if let Some(m) = next_in(&self.deferred, &mut self.deferred_index) {
                        return Some(m);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    /// Replaces the list with `moves`, each scored by `score`.
    fn fill(&mut self, moves: &MoveList, score: impl Fn(Move) -> i32) {
        self.list.clear();
        self.cur = 0;
        for &mv in moves {
            self.list.push(Scored {
                mv,
                score: score(mv),
            });
        }
    }

    /// The best-scored move of the list not yet picked: a selection step for the first few, then one sort of
    /// the rest.
    fn pick_scored(&mut self) -> Option<Scored> {
        let i = self.cur;
        let n = self.list.len();
        if i >= n {
            return None;
        }
        self.cur += 1;
        if i == SELECT && n > SELECT + 1 {
            self.list[SELECT..].sort_unstable_by_key(|s| std::cmp::Reverse(s.score));
        }
        if i < SELECT {
            let mut best = i;
            for j in i + 1..n {
                if self.list[j].score > self.list[best].score {
                    best = j;
                }
            }
            self.list.swap(i, best);
        }
        Some(self.list[i])
    }
}

/// Scores the captures and quiet promotions of a quiescence node out of check for `ordering::pick`: the table's
/// move, then the captures by `capture_score`, then the promotions. Without the static exchange test of the full
/// scoring: the quiescence search skips the losing captures anyway, so it would only cost time.
pub(super) fn score_captures<V: GameEval>(
    pos: &Position<V>,
    moves: &MoveList,
    tt_move: Move,
) -> Scores {
    moves
        .iter()
        .map(|&m| {
            if m == tt_move {
                1 << 30
            } else if pos.piece_at(m.to()).is_some() {
                capture_score(pos, m)
            } else {
                QUIET_PROMOTION
            }
        })
        .collect()
}

/// The move of `list` at `*index`, if any, stepping past it.
fn next_in(list: &MoveList, index: &mut usize) -> Option<Move> {
    let m = list.get(*index).copied();
    *index += usize::from(m.is_some());
    m
}

/// A capture's order among captures: the most valuable victim first, then the least valuable attacker;
/// promoting adds a little.
fn capture_score<V: GameEval>(pos: &Position<V>, m: Move) -> i32 {
    let victim = capture_value::<V>(pos.piece_at(m.to()).kind());
    let attacker = V::BOARD_VALUE[pos.piece_at(m.from()).kind().index()];
    victim * 16 - attacker / 16 + if m.is_promotion() { 500 } else { 0 }
}
