//! Step 14: late-move reductions, and step 15's searches of a move after the first.

use std::sync::LazyLock;

use super::{Candidate, Node, NodeKind};
use crate::engine::eval::GameEval;
use crate::engine::search::driver::Worker;
use crate::engine::search::ordering::HISTORY_LIMIT;
use crate::engine::search::{MATE_BOUND, MAX_PLY};
use crate::rules::moves::MAX_MOVES;

/// The late-move reduction before adjustments, 0.6·ln(depth)·ln(moves searched) + 0.5 rounded down, as computed
/// when the table is filled. Against ln·ln/2 (which searched most late moves of deep nodes a ply deeper), equal
/// time, 9x9, byoyomi 100, 400 games: +32 +/- 34; 0.7·ln·ln + 0.5 against this one: -33 +/- 50 after 189 games.
fn base_reduction(depth: i32, searched: i32) -> i32 {
    ((depth as f32).ln() * (searched as f32).ln() * 0.6 + 0.5) as i32
}

/// `base_reduction` for every depth up to `MAX_PLY` and every move count below `MAX_MOVES` (0 where either is
/// 0: never reduced), so that the move loop reads a byte instead of taking two logarithms. Those bounds cover
/// all the search can reach: the root's depth is below `MAX_PLY` and no step deepens a child beyond its parent
/// (a check extension only cancels the ply's step), and a node has fewer than `MAX_MOVES` moves.
static REDUCTIONS: LazyLock<Vec<[u8; MAX_MOVES]>> = LazyLock::new(|| {
    (0..=MAX_PLY as i32)
        .map(|depth| {
            let mut row = [0u8; MAX_MOVES];
            for (searched, r) in row.iter_mut().enumerate().skip(1) {
                if depth > 0 {
                    // at most 0.6·ln(128)·ln(599) + 0.5 < 20
                    *r = base_reduction(depth, searched as i32) as u8;
                }
            }
            row
        })
        .collect()
});

#[inline]
fn reduction_table(depth: i32, searched: i32) -> i32 {
    debug_assert!(
        (0..=MAX_PLY as i32).contains(&depth) && (0..MAX_MOVES as i32).contains(&searched)
    );
    let d = (depth.max(0) as usize).min(MAX_PLY);
    let n = (searched.max(0) as usize).min(MAX_MOVES - 1);
    i32::from(REDUCTIONS[d][n])
}

impl<V: GameEval> Worker<'_, V> {
    /// Step 14. Late move reductions: a quiet move that comes late in the ordering is unlikely to beat alpha, so
    /// it is searched shallower first (and again at full depth if it does beat alpha). The reduction grows with
    /// the depth and the number of moves searched before (`REDUCTIONS`); it is one less at PV nodes and for
    /// killers, two more at cut nodes, and less or more by the move's history. Not for the first three moves,
    /// captures and promotions (unless `lmr_noisy_min_searched` is set), evasions, nor checks at PV nodes. This
    /// is where the search's depth comes from: most moves of most nodes are reduced. Quiet checks elsewhere are
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
        let mut r = reduction_table(n.depth, searched);
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
        // moves that have often cut off elsewhere are reduced less, moves that never do more
        r -= self.ordering.history(self.pos.side_to_move(), c.mv) / (HISTORY_LIMIT / 2);
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

    /// The table holds exactly what the formula gives, wherever the search can read it.
    #[test]
    fn reduction_table_matches_the_formula() {
        for depth in 1..=MAX_PLY as i32 {
            for searched in 1..MAX_MOVES as i32 {
                let r = base_reduction(depth, searched);
                assert!((0..20).contains(&r), "{depth} {searched}: {r}");
                assert_eq!(reduction_table(depth, searched), r, "{depth} {searched}");
            }
        }
    }
}
