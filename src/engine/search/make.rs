//! Making and taking back moves in the search, and the static evaluation: the one place where the net's
//! accumulators follow the position. Without a net both are the position's own do/undo and the classical
//! evaluation, unchanged.

use super::driver::Worker;
use crate::engine::eval::{evaluate, GameEval};
use crate::rules::moves::Move;

impl<V: GameEval> Worker<'_, V> {
    #[inline(always)]
    pub(super) fn make(&mut self, m: Move) {
        match &mut self.nnue {
            Some((net, acc)) => acc.make(net, &mut self.pos, m),
            None => self.pos.do_move(m),
        }
    }

    #[inline(always)]
    pub(super) fn unmake(&mut self) {
        self.pos.undo_move();
        if let Some((_, acc)) = &mut self.nnue {
            acc.pop();
        }
    }

    /// The static evaluation for the side to move: the net's when the search has one, else the classical one.
    #[inline(always)]
    pub(super) fn eval(&self) -> i32 {
        match &self.nnue {
            Some((net, acc)) => acc.evaluate(net, &self.pos),
            None => evaluate(&self.pos),
        }
    }
}
