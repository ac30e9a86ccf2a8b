//! The first layer's output per perspective, kept along the search: one entry per move played, each made from
//! the one below by adding and subtracting the weight rows of the at most four inputs the move changed. A null
//! move changes no input and pushes nothing. With a king-bucketed net a king move into another region changes
//! every input of its side's perspective: that half of the entry is refreshed after the move.

use super::features::{active, king_offset, move_delta, Features};
use super::network::Network;
use super::simd::{add_sub, add_sub_scalar};
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::position::Position;

/// Entries allocated at first: the search's ply limit and a little more (it grows if ever needed).
const INITIAL_ENTRIES: usize = 160;

/// A stack of accumulators; each entry is `hidden` values for Black's perspective, then `hidden` for White's.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    hidden: usize,
    data: Vec<i16>,
    top: usize,
}

impl AccumulatorStack {
    /// A stack holding the full refresh of `pos`.
    pub fn new<V: Features>(net: &Network, pos: &Position<V>) -> Self {
        let mut s = AccumulatorStack {
            hidden: net.hidden,
            data: vec![0; INITIAL_ENTRIES * 2 * net.hidden],
            top: 0,
        };
        s.refresh(net, pos);
        s
    }

    /// Recomputes the top entry from the position's inputs.
    pub fn refresh<V: Features>(&mut self, net: &Network, pos: &Position<V>) {
        for c in Color::ALL {
            self.refresh_side(net, pos, c);
        }
    }

    /// Recomputes `c`'s half of the top entry.
    fn refresh_side<V: Features>(&mut self, net: &Network, pos: &Position<V>, c: Color) {
        let h = self.hidden;
        let at = self.top * 2 * h;
        let out = &mut self.data[at + c.index() * h..at + (c.index() + 1) * h];
        out.copy_from_slice(&net.b1);
        for f in active(pos, c, net.block as u32) {
            let row = net.row(f);
            for (o, w) in out.iter_mut().zip(row) {
                *o = o.wrapping_add(*w);
            }
        }
    }

    /// The full refresh of `pos`, without touching the stack (for checks).
    pub fn refreshed<V: Features>(net: &Network, pos: &Position<V>) -> Vec<i16> {
        let mut s = AccumulatorStack {
            hidden: net.hidden,
            data: vec![0; 2 * net.hidden],
            top: 0,
        };
        s.refresh(net, pos);
        s.data
    }

    /// The top entry: Black's perspective, then White's.
    pub fn top(&self) -> &[i16] {
        let n = 2 * self.hidden;
        &self.data[self.top * n..(self.top + 1) * n]
    }

    /// Plays `m` on `pos` and pushes the entry of the position after it.
    #[inline]
    pub fn make<V: Features>(&mut self, net: &Network, pos: &mut Position<V>, m: Move) {
        self.make_with(net, pos, m, false);
    }

    /// As `make`, with the portable kernel only (to check the vector one against).
    pub fn make_scalar<V: Features>(&mut self, net: &Network, pos: &mut Position<V>, m: Move) {
        self.make_with(net, pos, m, true);
    }

    #[inline(always)]
    fn make_with<V: Features>(
        &mut self,
        net: &Network,
        pos: &mut Position<V>,
        m: Move,
        scalar: bool,
    ) {
        let us = pos.side_to_move();
        let before = pos.king(us);
        let king_moves = net.block != 0 && !m.is_drop() && m.from() == before;
        self.push_with(net, pos, m, scalar);
        pos.do_move(m);
        if king_moves && king_offset::<V>(us, before, 1) != king_offset::<V>(us, pos.king(us), 1) {
            self.refresh_side(net, pos, us);
        }
    }

    #[inline(always)]
    fn push_with<V: Features>(&mut self, net: &Network, pos: &Position<V>, m: Move, scalar: bool) {
        let h = self.hidden;
        let n = 2 * h;
        if (self.top + 2) * n > self.data.len() {
            self.data.resize(self.data.len() * 2, 0);
        }
        let delta = move_delta(pos, m, net.block as u32);
        let (below, above) = self.data.split_at_mut((self.top + 1) * n);
        let src = &below[self.top * n..];
        for c in Color::ALL {
            let d = &delta[c.index()];
            let adds: arrayvec::ArrayVec<&[i16], 2> = d.add.iter().map(|&f| net.row(f)).collect();
            let subs: arrayvec::ArrayVec<&[i16], 2> = d.sub.iter().map(|&f| net.row(f)).collect();
            let range = c.index() * h..(c.index() + 1) * h;
            let dst = &mut above[range.clone()];
            if scalar {
                add_sub_scalar(dst, &src[range], &adds, &subs);
            } else {
                add_sub(dst, &src[range], &adds, &subs);
            }
        }
        self.top += 1;
    }

    /// Drops the top entry; call with `pos.undo_move()`.
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.top > 0, "accumulator stack underflow");
        self.top = self.top.saturating_sub(1);
    }

    /// The evaluation of `pos` (whose entry is on top) for the side to move, in centipawns. Debug builds check
    /// the incremental entry against a full refresh.
    #[inline]
    pub fn evaluate<V: Features>(&self, net: &Network, pos: &Position<V>) -> i32 {
        let h = self.hidden;
        let acc = self.top();
        debug_assert!(
            acc == Self::refreshed(net, pos).as_slice(),
            "incremental accumulator differs from a refresh in {}",
            pos.to_sfen()
        );
        let (black, white) = acc.split_at(h);
        match pos.side_to_move() {
            Color::Black => net.output(black, white),
            Color::White => net.output(white, black),
        }
    }
}
