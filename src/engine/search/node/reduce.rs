//! Step 14: late-move reductions, and step 15's searches of a move after the first.

use std::sync::LazyLock;

use super::{Candidate, Node, NodeKind};
use crate::engine::eval::GameEval;
use crate::engine::search::driver::Worker;
use crate::engine::search::{MATE_BOUND, MAX_PLY};
use crate::rules::moves::MAX_MOVES;

/// `ln(n)` for every depth up to `MAX_PLY` and every move count below `MAX_MOVES` (`MAX_MOVES` is the larger), so
/// that the move loop multiplies two table entries instead of taking two logarithms.
static LN: LazyLock<[f32; MAX_MOVES]> = LazyLock::new(|| {
    let mut ln = [0f32; MAX_MOVES];
    for (n, l) in ln.iter_mut().enumerate().skip(1) {
        *l = (n as f32).ln();
    }
    ln
});

/// The late-move reduction before adjustments, `lmr_log_mul`·ln(depth)·ln(moves searched) + `lmr_log_base`
/// (both in thousandths) rounded down; 0 where either count is 0 (never reduced). 9x9 started from 0.6 and 0.5:
/// against ln·ln/2 (which searched most late moves of deep nodes a ply deeper), equal time, 9x9, byoyomi 100,
/// 400 games: +32 +/- 34; 0.7·ln·ln + 0.5 against 0.6: -33 +/- 50 after 189 games. The products stay in f32 as
/// the table of fixed values they replace did, so the defaults reduce exactly as before.
#[inline]
fn base_reduction(depth: i32, searched: i32, log_mul: i32, log_base: i32) -> i32 {
    debug_assert!(
        (0..=MAX_PLY as i32).contains(&depth) && (0..MAX_MOVES as i32).contains(&searched)
    );
    if depth <= 0 || searched <= 0 {
        return 0;
    }
    // the clamps never bite: the root's depth is below MAX_PLY, no step deepens a child beyond its parent, and a
    // node has fewer than MAX_MOVES moves
    let d = (depth as usize).min(MAX_PLY);
    let n = (searched as usize).min(MAX_MOVES - 1);
    (LN[d] * LN[n] * (log_mul as f32 / 1000.0) + log_base as f32 / 1000.0) as i32
}

impl<V: GameEval> Worker<'_, V> {
    /// Step 14. Late move reductions: a quiet move that comes late in the ordering is unlikely to beat alpha, so
    /// it is searched shallower first (and again at full depth if it does beat alpha). The reduction grows with
    /// the depth and the number of moves searched before (`base_reduction`); it is one less at PV nodes and for
    /// killers, two more at cut nodes, `lmr_check` less for a check (off until an SPRT passes), and less or more
    /// by the move's history. Not for the first three moves, captures and promotions (unless
    /// `lmr_noisy_min_searched` is set), evasions, nor checks at PV nodes. This is where the search's depth comes
    /// from: most moves of most nodes are reduced. Quiet checks elsewhere are
    /// reduced like any quiet move: with pieces in hand nearly every position has many checking drops, and
    /// searching them all at full depth made the tree explode wherever a king is exposed (9x9 bench to depth 12:
    /// 42.0 M nodes, 37.9 M of them in position 8; 8.8 M reducing them).
    pub(super) fn reduction(&self, n: &Node, c: Candidate, new_depth: i32, searched: i32) -> i32 {
        let p = self.params();
        if n.depth < p.lmr_min_depth || n.in_check || (c.gives_check && n.is_pv()) {
            return 0;
        }
        // a late capture or promotion (the ordering put it after the winning ones and the killers) waits for its
        // own move count, and is reduced a ply less than a quiet move; the quiet moves' statistics are not its own
        let min_searched = if c.quiet {
            p.lmr_min_searched
        } else {
            p.lmr_noisy_min_searched
        };
        if searched < min_searched {
            return 0;
        }
        let mut r = base_reduction(n.depth, searched, p.lmr_log_mul, p.lmr_log_base);
        if n.is_pv() {
            r -= 1;
        }
        // at a node expected to fail high, only one move has to reach beta and the late ones seldom do: two
        // plies more (against none: 9x9, byoyomi 100, 400 games from balanced openings, +22.6 +/- 34.1)
        if n.kind == NodeKind::Cut {
            r += p.lmr_cut_node;
        }
        if !c.quiet {
            return (r - 1).clamp(0, new_depth - 1);
        }
        if self.ordering.is_killer(n.ply, c.mv) {
            r -= 1;
        }
        if n.tt_noisy {
            r += p.lmr_tt_noisy;
        }
        if c.gives_check {
            r -= p.lmr_check;
        }
        // moves that have often cut off elsewhere are reduced less, moves that never do more
        r -= self.ordering.history(self.pos.side_to_move(), c.mv) / p.lmr_history_div.max(1);
        r.clamp(0, new_depth - 1)
    }

    /// Step 15 for every move after the first (principal variation search): a null window proves the move no
    /// better than alpha at the cost of a small tree, first at the reduced depth; a move that beats alpha there
    /// is searched at full depth, and at a PV node with the full window to get its exact score and line.
    /// Cut nodes alternate as in Stockfish: the reduced search's node is expected to fail high (it only has to
    /// refute the late move), a full-depth null-window search is the opposite of this node, and a PV search is
    /// neither. A reduced score far above the best so far (`lmr_deeper_margin`) has the full-depth search go a
    /// ply deeper: the move looks better than the reduction assumed.
    pub(super) fn search_late_move(
        &mut self,
        n: &Node,
        alpha: i32,
        beta: i32,
        best: i32,
        mut new_depth: i32,
        r: i32,
    ) -> i32 {
        let ply = n.ply + 1;
        let mut s = -self.search(
            -alpha - 1,
            -alpha,
            new_depth - r,
            ply,
            if r > 0 {
                NodeKind::Cut
            } else {
                n.kind.opposite()
            },
        );
        if s > alpha && r > 0 && !self.stopped {
            if s > best.saturating_add(self.params().lmr_deeper_margin) && s < MATE_BOUND {
                new_depth += 1;
            }
            s = -self.search(-alpha - 1, -alpha, new_depth, ply, n.kind.opposite());
        }
        if s > alpha && s < beta && n.is_pv() && !self.stopped {
            s = -self.search(-beta, -alpha, new_depth, ply, NodeKind::Pv);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::search::ordering::HISTORY_LIMIT;

    /// The defaults reduce exactly as the fixed table of 0.6·ln·ln + 0.5 did (computed here in f32 from the
    /// logarithms themselves), and stay within the byte that table held.
    #[test]
    fn default_reductions_are_the_fixed_formulas() {
        let p = crate::engine::params::SearchParams::BASE;
        assert_eq!((p.lmr_log_mul, p.lmr_log_base), (600, 500));
        assert_eq!(p.lmr_history_div, HISTORY_LIMIT / 2);
        for depth in 0..=MAX_PLY as i32 {
            for searched in 0..MAX_MOVES as i32 {
                let fixed = if depth == 0 || searched == 0 {
                    0
                } else {
                    ((depth as f32).ln() * (searched as f32).ln() * 0.6 + 0.5) as i32
                };
                let r = base_reduction(depth, searched, p.lmr_log_mul, p.lmr_log_base);
                assert_eq!(r, fixed, "{depth} {searched}");
                assert!((0..20).contains(&r), "{depth} {searched}: {r}");
            }
        }
        // a tuning run's other values take effect
        assert_eq!(
            base_reduction(20, 30, 1000, 0),
            (20f32.ln() * 30f32.ln()) as i32
        );
        assert_eq!(base_reduction(20, 30, 0, 2500), 2);
    }
}
