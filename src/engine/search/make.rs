//! Making and taking back moves in the search, and the static evaluation: the one place where the net's
//! accumulators follow the position. Without a net both are the position's own do/undo and the classical
//! evaluation, unchanged.

use super::driver::Worker;
use super::ordering::{cont_index, ContRows, NO_CONT};
use crate::engine::eval::{evaluate, GameEval};
use crate::rules::moves::Move;

impl<V: GameEval> Worker<'_, V> {
    #[inline(always)]
    pub(super) fn make(&mut self, m: Move) {
        if let Some((net, acc)) = &mut self.nnue {
            acc.push_move(net, &self.pos, m);
        }
        self.cont_stack.push(cont_index(&self.pos, m));
        self.pos.do_move(m);
    }

    #[inline(always)]
    pub(super) fn unmake(&mut self) {
        self.pos.undo_move();
        self.cont_stack.pop();
        if let Some((_, acc)) = &mut self.nnue {
            acc.pop();
        }
    }

    /// Passes the move (null move pruning); the continuation histories see no move.
    pub(super) fn make_null(&mut self) {
        self.cont_stack.push(NO_CONT);
        self.pos.do_null_move();
    }

    pub(super) fn unmake_null(&mut self) {
        self.pos.undo_null_move();
        self.cont_stack.pop();
    }

    /// The continuation rows of the node: the moves one and two plies before it, `NO_CONT` above the root.
    #[inline(always)]
    pub(super) fn cont_rows(&self) -> ContRows {
        let s = &self.cont_stack;
        let n = s.len();
        [
            if n >= 1 { s[n - 1] } else { NO_CONT },
            if n >= 2 { s[n - 2] } else { NO_CONT },
        ]
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
