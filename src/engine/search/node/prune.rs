//! Steps 7 to 9b and 12: pruning a whole node on a static guess, or one of its moves, before searching it; step
//! 13's extensions, whose singular-extension test is a pruning search of its own.

use std::ops::ControlFlow;

use super::{score_from_tt, Candidate, Node, NodeKind, Singular};
use crate::engine::eval::{see_ge, GameEval};
use crate::engine::params::DOUBLE_EXTENSIONS_MAX;
use crate::engine::search::driver::Worker;
use crate::engine::search::{MATE, MATE_BOUND, MAX_PLY};
use crate::engine::tt::{Bound, TtData};
use crate::rules::movegen::GenMode;
use crate::rules::moves::{Move, MoveList};
use crate::rules::piece::Kind;

impl<V: GameEval> Worker<'_, V> {
    /// Steps 7 to 9b: the node settled by a static guess before any move is searched; not at PV nodes, in check
    /// or in a singular-extension search (see step 5).
    #[inline]
    pub(super) fn prune_node(
        &mut self,
        n: &Node,
        alpha: i32,
        beta: i32,
        tt: Option<TtData>,
    ) -> Option<i32> {
        let p = self.params();
        // Step 7. Razoring: far below alpha near the leaves, only captures (or promotions) could save the node;
        // if the quiescence search cannot lift it to alpha either, fail low at once. Costs a quiescence search
        // where the margin is missed; saves the full-width search of hopeless positions.
        if n.depth <= p.razor_depth && alpha.abs() < MATE_BOUND {
            if let Some(s) = self.razor(n, alpha) {
                return Some(s);
            }
        }
        if beta.abs() >= MATE_BOUND {
            return None;
        }
        // Step 8. Reverse futility pruning (static null move): far above beta at shallow depth, assume the
        // opponent cannot catch up and cut off with the static score. The margin grows with the depth, the more
        // the opponent could win back, and shrinks by a step when improving. Not for a bare king, which may have
        // no legal move at all (a loss the static score cannot see).
        if n.depth <= p.rfp_depth
            && n.static_eval - p.rfp_per_depth * (n.depth - i32::from(n.improving)) >= beta
            && !self.bare_king()
        {
            return Some(n.static_eval);
        }
        // Step 9. Null move pruning.
        if let Some(s) = self.null_move(n, beta) {
            return Some(s);
        }
        // Step 9b. ProbCut: a capture that beats beta by a wide margin in a search a few plies shallower very
        // likely beats beta at full depth too.
        self.probcut(n, beta, tt)
    }

    /// Step 7: razoring's verdict, if it settles the node (0 when the search was stopped meanwhile).
    fn razor(&mut self, n: &Node, alpha: i32) -> Option<i32> {
        let p = self.params();
        let margin = p.razor_base + p.razor_per_depth_sq * n.depth * n.depth;
        if n.static_eval + margin >= alpha {
            return None;
        }
        let v = self.qsearch(alpha - 1, alpha, n.ply, 0);
        if self.stopped {
            return Some(0);
        }
        if v >= alpha {
            return None;
        }
        // the quiescence search does not see a position without legal moves, lost in all three games
        Some(if self.pos.has_legal_move() {
            v
        } else {
            -MATE + n.ply as i32
        })
    }

    /// Step 9b: ProbCut's verdict, if a capture settles the node. From depth 5, each capture whose static
    /// exchange alone would lift the static score to `beta + PROBCUT_MARGIN` is tried, first with a quiescence
    /// search, then (when that holds) with a search four plies shallower, both with the null window at that raised
    /// beta; one that holds there fails the node high. Not when the table already says that a search nearly as
    /// deep stayed below the raised beta. At equal time (9x9, byoyomi 100, balanced openings) against the search
    /// without it: +12 +/- 34 Elo over 401 games, +55 +/- 45 over 234 in an earlier run of the same match.
    fn probcut(&mut self, n: &Node, beta: i32, tt: Option<TtData>) -> Option<i32> {
        let p = self.params();
        let depth = n.depth;
        let pc_beta = beta + p.probcut_margin;
        if depth < p.probcut_min_depth || pc_beta >= MATE_BOUND {
            return None;
        }
        if tt.is_some_and(|t| {
            t.depth >= depth - p.probcut_tt_slack && t.score < pc_beta && t.score.abs() < MATE_BOUND
        }) {
            return None;
        }
        let mut captures = MoveList::new();
        self.pos.generate(GenMode::Captures, &mut captures);
        for &m in captures.iter() {
            if !see_ge(&self.pos, m, pc_beta - n.static_eval) {
                continue;
            }
            self.make(m);
            let mut v = -self.qsearch(-pc_beta, -pc_beta + 1, n.ply + 1, 0);
            if v >= pc_beta {
                v = -self.search(
                    -pc_beta,
                    -pc_beta + 1,
                    depth - p.probcut_reduction,
                    n.ply + 1,
                    n.kind.opposite(),
                );
            }
            self.unmake();
            if self.stopped {
                return Some(0);
            }
            if v >= pc_beta && v < MATE_BOUND {
                self.store_entry(
                    self.pos.key(),
                    n.ply,
                    m,
                    v,
                    n.raw_eval,
                    depth - p.probcut_tt_slack,
                    Bound::Lower,
                );
                return Some(v);
            }
        }
        None
    }

    /// Step 13's singular-extension test for the table's move `m` (see there).
    pub(super) fn singular(
        &mut self,
        n: &Node,
        tt: Option<TtData>,
        m: Move,
        beta: i32,
    ) -> Singular {
        let Some(t) = tt else { return Singular::No };
        let p = self.params();
        if n.depth < p.singular_min_depth
            || t.depth < n.depth - p.singular_tt_slack
            || !matches!(t.bound, Bound::Lower | Bound::Exact)
            || t.score.abs() >= MATE_BOUND
        {
            return Singular::No;
        }
        let tt_score = score_from_tt(t.score, n.ply);
        let singular_beta = tt_score - p.singular_margin_per_depth * n.depth;
        self.excluded[n.ply] = m;
        let v = self.search(
            singular_beta - 1,
            singular_beta,
            (n.depth - 1) / 2,
            n.ply,
            n.kind.off_pv(),
        );
        self.excluded[n.ply] = Move::NONE;
        if v < singular_beta {
            if !n.is_pv()
                && v < singular_beta.saturating_sub(p.singular_double_margin)
                && self.double_extensions[n.ply] < DOUBLE_EXTENSIONS_MAX
            {
                Singular::ExtendTwice
            } else {
                Singular::Extend
            }
        } else if singular_beta >= beta {
            Singular::Cut(singular_beta)
        } else if tt_score >= beta {
            Singular::Reduce
        } else {
            Singular::No
        }
    }

    /// Step 9. Null move pruning: let the opponent move twice; if a reduced search still cannot bring them below
    /// beta, this node fails high. Costs one shallow search; where it cuts, saves a full-width one, the largest
    /// single saving of the search. Wrong in zugzwang, so skipped with only king and pawns. Never twice in a row,
    /// which would only return to the same position. From depth 10 a fail high is verified by a reduced search of
    /// this node itself, since a wrong cut-off that deep hides too much. Returns the fail-high score (0 when
    /// stopped meanwhile).
    /// It used to be skipped wherever a quiet drop might mate (enemy pieces within two squares of the king and
    /// pieces in the enemy's hand), for a Yari quiet mate the search then found a ply earlier. That is most
    /// middlegame nodes of 9×9: 724 k of the 920 k null-move tries to depth 13 in bench position 8, 20 k of 32 k
    /// in position 5; without the guard the 9×9 bench to depth 13 takes 17.1 M nodes instead of 38.5 M, and the
    /// Yari mate is found at depth 16 in 0.61 M nodes instead of depth 13 in 1.1 M.
    fn null_move(&mut self, n: &Node, beta: i32) -> Option<i32> {
        let p = self.params();
        let depth = n.depth;
        if depth < p.null_min_depth
            || n.static_eval < beta
            || !self.has_pieces()
            || !self.last_move_not_null()
        {
            return None;
        }
        let r = p.null_base_r + depth / p.null_r_divisor;
        self.pos.do_null_move();
        let s = -self.search(
            -beta,
            -beta + 1,
            depth - 1 - r,
            n.ply + 1,
            n.kind.opposite(),
        );
        self.pos.undo_null_move();
        if self.stopped {
            return Some(0);
        }
        if s < beta {
            return None;
        }
        // an unproven mate is not reported: the null move is not a legal move
        let s = if s >= MATE_BOUND { beta } else { s };
        if depth < p.null_verify_depth {
            return Some(s);
        }
        let v = self.search(beta - 1, beta, depth - 1 - r, n.ply, NodeKind::All);
        (v >= beta).then_some(s)
    }

    /// Step 12. Pruning at shallow depth, skipping a move without searching it: not at PV nodes, nor before
    /// some move has escaped being mated. Captures, promotions and checks that lose material outright by static
    /// exchange are skipped near the leaves, and so are quiet evasions (interposed drops, mostly). The last two
    /// are what a mating attack with pieces in hand is made of: searching every sacrificial check and every
    /// interposition at full width made the tree explode there (9x9 bench to depth 13: 52.4 M nodes, 42.2 M of
    /// them in position 8; 23.2 M and 16.2 M with both pruned), and at equal time (byoyomi 100, 410 games from
    /// balanced openings) pruning them scored +22 +/- 34 Elo.
    /// For quiet moves: late-move pruning skips the late ones, which rarely matter once the ordering has put the
    /// promising ones first (twice as late when improving);
    /// futility pruning skips them when the static score is so far below alpha that a quiet move cannot make up
    /// for it; static-exchange pruning skips those that lose more material than the depth could win back.
    /// Futility and exchange pruning look at the depth the move would be searched to after its late-move
    /// reduction (Stockfish's lmrDepth), not the node's: a late quiet move of a deep node is searched about as
    /// shallow as a move near the leaves, and pruned as such. Against pruning by the node's depth (up to 3 for
    /// futility, 6 for exchanges and move counts): half the nodes to depth 12 on the 9x9 bench, and +49 +/- 40
    /// Elo at byoyomi 100 (300 games from balanced openings).
    pub(super) fn prune_move(
        &self,
        n: &Node,
        c: Candidate,
        best: i32,
        alpha: i32,
        searched: i32,
    ) -> bool {
        if n.is_pv() || best <= -MATE_BOUND {
            return false;
        }
        let p = self.params();
        let depth = n.depth;
        if n.in_check {
            // a quiet evasion that loses material outright: mostly an interposed drop the checker takes for free,
            // which only delays the attack past the horizon (a capture of the checker is never skipped); evasions
            // are not reduced, so the depth it would be searched to is the node's less one
            return c.quiet && !c.gives_check && self.quiet_loses_material(c.mv, depth - 1);
        }
        // a capture, promotion or check only when it loses more material than the depth could win back (with
        // pieces in hand nearly every position has sacrificial checking drops, most of which only lose the piece);
        // a check is never pruned by move count, unlike Stockfish's and YaneuraOu's quiet checks: those drops are
        // where a shogi game is decided (pruning the late ones as well, SPRT at byoyomi 20: H0 after 1229 games,
        // -58.2 +/- 19.5; docs/strength.md)
        if !c.quiet || c.gives_check {
            return depth <= p.noisy_see_depth
                && !see_ge(&self.pos, c.mv, -p.noisy_see_per_depth * depth);
        }
        if depth <= p.lmp_depth
            && searched >= (p.lmp_base + depth * depth) / (2 - i32::from(n.improving))
        {
            return true;
        }
        let lmr_depth = (depth - 1 - self.reduction(n, c, depth - 1, searched)).max(0);
        // not where only a mate would beat alpha: a quiet move can mate, which no margin on the static score
        // foresees
        if lmr_depth <= p.futility_depth
            && alpha < MATE_BOUND
            && n.static_eval + p.futility_base + p.futility_per_depth * lmr_depth <= alpha
        {
            return true;
        }
        self.quiet_loses_material(c.mv, lmr_depth)
    }

    /// Step 12's exchange pruning of a quiet move to be searched `d` plies deep: it loses more material by static
    /// exchange than a search that shallow could win back.
    fn quiet_loses_material(&self, m: Move, d: i32) -> bool {
        let p = self.params();
        d <= p.quiet_see_depth && !see_ge(&self.pos, m, -p.quiet_see_per_depth_sq * (d * d).max(1))
    }

    /// Step 13. Extensions: at PV nodes, a check that does not lose material is searched a ply deeper, since the
    /// horizon would otherwise cut the principal line short. Sacrificial checks are not: with pieces in hand
    /// nearly every position has them, and extending them all makes the tree explode. Nor checks off the PV:
    /// extending those doubled the nodes to a given depth (9x9 bench, depth 12: 27.3 M -> 13.6 M without) for no
    /// strength. None in the last third of the ply range, so that a long chain of checks ends before the ply
    /// limit.
    /// Singular extension: when the table's move is the only good one here (every other move, searched
    /// shallower, stays well below its score), it is searched a ply deeper, since the line hangs on it. When
    /// another move also reaches beta, the node has several good moves and fails high at once (multi-cut); when
    /// the table's score alone beats beta, the table's move is searched a ply shallower. Off the PV, a move far
    /// below the others' bound is searched two plies deeper (`singular_double_margin`). Costs one reduced search
    /// at deep nodes with a table move.
    /// Continue with the extension in plies (-1 to 2), or Break with the node's score (a multi-cut, or 0 once
    /// the search was stopped).
    #[inline]
    pub(super) fn extension(
        &mut self,
        n: &Node,
        c: Candidate,
        tt: Option<TtData>,
        tt_move: Move,
        beta: i32,
    ) -> ControlFlow<i32, i32> {
        let m = c.mv;
        let mut ext = i32::from(
            c.gives_check && n.is_pv() && n.ply < 2 * MAX_PLY / 3 && see_ge(&self.pos, m, 0),
        );
        if m == tt_move && ext == 0 {
            match self.singular(n, tt, m, beta) {
                Singular::Extend => ext = 1,
                Singular::ExtendTwice => ext = 2,
                Singular::Reduce => ext = -1,
                Singular::Cut(s) => return ControlFlow::Break(s),
                Singular::No => {}
            }
            if self.stopped {
                return ControlFlow::Break(0);
            }
        }
        ControlFlow::Continue(ext)
    }

    /// Whether the side to move has nothing but its king, on the board and in hand.
    pub(super) fn bare_king(&self) -> bool {
        let us = self.pos.side_to_move();
        self.pos.color_bb(us).count() == 1 && self.pos.hand(us).total() == 0
    }

    /// Whether the side to move has a piece besides pawns and its king, on the board or in hand.
    pub(super) fn has_pieces(&self) -> bool {
        let us = self.pos.side_to_move();
        let board =
            self.pos.color_bb(us) & !self.pos.kind_bb(Kind::Pawn) & !self.pos.kind_bb(Kind::King);
        board.any() || self.pos.hand(us).total() > self.pos.hand(us).count(Kind::Pawn) as u32
    }
}
