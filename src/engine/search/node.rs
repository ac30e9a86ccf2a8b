//! The alpha-beta search of one node below the root (principal variation search), its steps labelled in the
//! order they run.
//!
//! A node returns early where it can (steps 1 to 9: the horizon, an aborted search, a bound or a rule that
//! settles it, or a static guess that it cannot matter); otherwise it searches its moves (steps 10 to 16) and
//! stores what it found (step 17). The pruning steps trade exactness for depth: each skips work that rarely
//! changes the result, and what it gets wrong at one depth the next iteration, one ply deeper, usually corrects.

use std::sync::LazyLock;

use super::driver::Worker;
use super::ordering::HISTORY_LIMIT;
use super::picker::MovePicker;
use super::smp::DEFER_DEPTH;
use super::{INFINITE, MATE, MATE_BOUND, MAX_PLY};
use crate::engine::eval::{see_ge, GameEval};
use crate::engine::tt::{Bound, TtData};
use crate::rules::movegen::GenMode;
use crate::rules::moves::{Move, MoveList, MAX_MOVES};
use crate::rules::piece::Kind;
use crate::rules::position::Repetition;

/// What a node is expected to be, from how its parent searches it (Knuth and Moore's node types): a PV node is
/// searched with an open window on the principal line; the others with a null window, a cut node expected to fail
/// high (some move refutes its parent's move) and an all node expected to fail low (every move searched, none
/// reaching beta). One of three, so that a node can never be both PV and cut.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum NodeKind {
    Pv,
    Cut,
    All,
}

impl NodeKind {
    /// The kind of a null-window child searched to refute or confirm this node's move: cut and all alternate
    /// down a line, and a PV node's late moves lead to cut nodes (their refutation is what is expected).
    fn opposite(self) -> Self {
        match self {
            NodeKind::Cut => NodeKind::All,
            NodeKind::Pv | NodeKind::All => NodeKind::Cut,
        }
    }

    /// The kind of the child reached by this node's first move: the principal line goes on through a PV node's,
    /// the others alternate.
    fn first_child(self) -> Self {
        match self {
            NodeKind::Pv => NodeKind::Pv,
            k => k.opposite(),
        }
    }

    /// This node searched again with a null window (the singular-extension test): a PV node becomes an all node.
    fn off_pv(self) -> Self {
        match self {
            NodeKind::Pv => NodeKind::All,
            k => k,
        }
    }
}

/// What the steps before the move loop learnt about a node, for the steps inside it.
struct Node {
    ply: usize,
    depth: i32,
    kind: NodeKind,
    in_check: bool,
    /// -INFINITE in check.
    static_eval: i32,
    /// The static score before its correction, what the table keeps (0 in check).
    raw_eval: i32,
    /// The static score beats the one two plies up.
    improving: bool,
}

impl Node {
    fn is_pv(&self) -> bool {
        self.kind == NodeKind::Pv
    }
}

/// The verdict of the singular-extension test (step 13).
enum Singular {
    No,
    Extend,
    Reduce,
    Cut(i32),
}

/// A move of the loop, with what the pruning and reduction steps ask of it.
#[derive(Clone, Copy)]
struct Candidate {
    mv: Move,
    /// Neither a capture nor a promotion.
    quiet: bool,
    gives_check: bool,
}

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

/// Mate scores are stored relative to the node, so that they stay right when read at another ply.
fn score_to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

fn score_from_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// The score of a table entry that settles the node without a search: one from at least this depth whose bound
/// already decides it against the window.
pub(super) fn tt_cutoff(t: &TtData, depth: i32, alpha: i32, beta: i32, ply: usize) -> Option<i32> {
    if t.depth < depth {
        return None;
    }
    let s = score_from_tt(t.score, ply);
    let cut = match t.bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
        Bound::None => false,
    };
    cut.then_some(s)
}

impl<V: GameEval> Worker<'_, V> {
    /// What every node does first, here and in the quiescence search: counts itself, polls the stop flag and
    /// the clock every 1024 nodes, and records its ply as the selective depth. False once the search is stopped:
    /// the node then returns at once, and its score is never used.
    #[inline]
    pub(super) fn enter_node(&mut self, ply: usize) -> bool {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_stop();
        }
        if self.stopped {
            return false;
        }
        self.seldepth = self.seldepth.max(ply);
        true
    }

    /// The alpha-beta search of one node, `depth` plies deep, of the `kind` its parent expects (`NodeKind`): a
    /// PV node is searched with an open window and never cut off by the table; a cut node's late moves are
    /// reduced more.
    pub(super) fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        kind: NodeKind,
    ) -> i32 {
        let pv_node = kind == NodeKind::Pv;
        // Step 1. Initialize node. The line below starts empty, so that a parent never copies a stale one; at
        // the horizon the quiescence search takes over, which settles the captures before a static score counts.
        self.pv_len[ply] = 0;
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, 0);
        }

        // Step 2. Count the node and check for an aborted search (`enter_node`).
        if !self.enter_node(ply) {
            return 0;
        }

        // Step 3. Mate distance pruning. No score here can beat a mate in fewer plies than this node's, nor be
        // worse than being mated at once: with the window narrowed to what is possible, a shorter mate found
        // elsewhere cuts this subtree off at once. Costs two comparisons; saves most of the work once a mate is
        // known.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        // Step 4. The game's rules: a repetition scored by the game's rule (the first repetition stands for the
        // game's outcome: a loss for the side giving perpetual check, for sente in minishogi, a draw otherwise),
        // or a draw by the move limit. Then the ply limit, where the arrays end: the static score has to do.
        if let Some(score) = self.score_by_rule(ply) {
            return score;
        }
        if ply >= MAX_PLY - 1 {
            return self.eval();
        }

        let in_check = self.pos.in_check();
        let key = self.pos.key();

        // Step 5. Transposition table lookup. A bound from an earlier search at least as deep settles the node
        // when it already decides it against the window; not at PV nodes, whose exact line and score the root
        // reports (a cut-off there would cut the PV short). The table's move is searched first in any case.
        // A singular-extension search of this node (step 13) leaves one move out: its result is not this
        // node's, so it neither reads a cut-off from the table nor stores one, nor prunes the node as a whole.
        let excluded = self.excluded[ply];
        let tt = if excluded.is_none() {
            self.sh.tt.probe(key)
        } else {
            None
        };
        let tt_move = tt.map_or(Move::NONE, |t| t.mv);
        if !pv_node {
            if let Some(s) = tt.and_then(|t| tt_cutoff(&t, depth, alpha, beta, ply)) {
                return s;
            }
        }

        // Step 6. Static evaluation, which the pruning steps below compare with the window; the table keeps it,
        // so a transposition saves the evaluation. Not trusted in check (a threat the static score cannot see).
        // Improving: the static score beats the one of our previous move; prune less when it does. A score two
        // plies up that is unknown (that node was in check, or is the root, which keeps none) counts as beaten.
        // The table keeps the raw score; the steps below read it corrected by the correction history (what the
        // searches of positions with the same pawns or the same hands found it to be off by, `correction`).
        let raw_eval = if in_check {
            0
        } else {
            match tt {
                Some(t) if t.bound != Bound::None && t.eval.abs() < MATE_BOUND => t.eval,
                _ => self.eval(),
            }
        };
        let static_eval = if in_check {
            -INFINITE
        } else {
            self.ordering
                .correction
                .corrected(&self.pos, raw_eval)
                .clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
        };
        self.evals[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.evals[ply - 2];
        let node = Node {
            ply,
            depth,
            kind,
            in_check,
            static_eval,
            raw_eval,
            improving,
        };

        if !pv_node && !in_check && excluded.is_none() {
            // Step 7. Razoring: far below alpha near the leaves, only captures (or promotions) could save the node;
            // if the quiescence search cannot lift it to alpha either, fail low at once. Costs a quiescence search
            // where the margin is missed; saves the full-width search of hopeless positions.
            if depth <= 3 && alpha.abs() < MATE_BOUND {
                if let Some(s) = self.razor(&node, alpha) {
                    return s;
                }
            }
            if beta.abs() < MATE_BOUND {
                // Step 8. Reverse futility pruning (static null move): far above beta at shallow depth, assume
                // the opponent cannot catch up and cut off with the static score. The margin grows with the
                // depth, the more the opponent could win back, and shrinks by a step when improving. Not for a
                // bare king, which may have no legal move at all (a loss the static score cannot see).
                if depth <= 6
                    && static_eval - 120 * (depth - i32::from(improving)) >= beta
                    && !self.bare_king()
                {
                    return static_eval;
                }
                // Step 9. Null move pruning.
                if let Some(s) = self.null_move(&node, beta) {
                    return s;
                }
                // Step 9b. ProbCut: a capture that beats beta by a wide margin in a search a few plies
                // shallower very likely beats beta at full depth too.
                if let Some(s) = self.probcut(&node, beta, tt) {
                    return s;
                }
            }
        }

        // Step 10. The move picker: the moves are generated in stages, best first (`MovePicker`), so that a
        // node that cuts off early generates few of them. None legal loses in all three games, checkmate or not.
        let mut picker = MovePicker::new(&self.pos, &self.ordering, tt_move, ply);

        // Step 11. Loop through the moves. With several workers, this node is marked as being searched, and a
        // move after the first whose position another worker is searching right now is put off to the end of the
        // list, once: by then that worker has stored its result, or this one searches something else meanwhile.
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = Move::NONE;
        let mut searched = 0;
        let mut quiets_tried: MoveList = MoveList::new();
        let mut captures_tried: MoveList = MoveList::new();
        let busy = self.sh.busy.filter(|_| depth >= DEFER_DEPTH);
        let _mark = busy.and_then(|b| b.claim(key));
        while let Some(m) = picker.next(&self.pos, &self.ordering) {
            if m == excluded {
                continue;
            }
            let next_key = self.pos.key_after(m);
            if let Some(b) = busy {
                if searched > 0 && !picker.in_deferred_stage() && b.is_busy(next_key) {
                    picker.defer(m);
                    continue;
                }
            }
            self.sh.tt.prefetch(next_key);
            let capture = self.is_capture(m);
            let quiet = !capture && !m.is_promotion();
            let gives_check = self.pos.gives_check(m);
            let c = Candidate {
                mv: m,
                quiet,
                gives_check,
            };

            // Step 12. Pruning at shallow depth.
            if self.prune_move(&node, c, best, alpha, searched) {
                continue;
            }

            // Step 13. Extensions: at PV nodes, a check that does not lose material is searched a ply deeper,
            // since the horizon would otherwise cut the principal line short. Sacrificial checks are not: with
            // pieces in hand nearly every position has them, and extending them all makes the tree explode. Nor
            // checks off the PV: extending those doubled the nodes to a given depth (9x9 bench, depth 12: 27.3 M
            // -> 13.6 M without) for no strength. None in the last third of the ply range, so that a long chain
            // of checks ends before the ply limit.
            let mut ext = i32::from(
                gives_check && pv_node && ply < 2 * MAX_PLY / 3 && see_ge(&self.pos, m, 0),
            );
            // Singular extension: when the table's move is the only good one here (every other move, searched
            // shallower, stays well below its score), it is searched a ply deeper, since the line hangs on it.
            // When another move also reaches beta, the node has several good moves and fails high at once
            // (multi-cut); when the table's score alone beats beta, the table's move is searched a ply
            // shallower. Costs one reduced search at deep nodes with a table move.
            if m == tt_move && ext == 0 {
                match self.singular(&node, tt, m, beta) {
                    Singular::Extend => ext = 1,
                    Singular::Reduce => ext = -1,
                    Singular::Cut(s) => return s,
                    Singular::No => {}
                }
                if self.stopped {
                    return 0;
                }
            }
            let new_depth = depth - 1 + ext;

            // Step 14. Late move reductions, decided before the move is played (they read the mover's history).
            let r = self.reduction(&node, c, new_depth, searched);

            // Step 15. Make the move and search it: the first with the full window, the others with a null
            // window, reduced by `r`, and searched again when they beat alpha.
            self.make(m);
            debug_assert_eq!(
                self.pos.key(),
                next_key,
                "key_after disagrees with do_move for {m:?}"
            );
            let score = if searched == 0 {
                -self.search(-beta, -alpha, new_depth, ply + 1, kind.first_child())
            } else {
                self.search_late_move(&node, alpha, beta, new_depth, r)
            };
            self.unmake();
            if self.stopped {
                return 0;
            }
            searched += 1;

            // Step 16. Check for a new best move. A quiet move that cuts off becomes a killer and gains history
            // (the quiet moves tried before it lose some), so that it comes early in the next similar node; a
            // capture that cuts off gains capture history, and the captures tried before the move that cut off
            // lose some either way. Capture history against none, equal time, 9x9, byoyomi 100, 400 games:
            // +22 +/- 34.
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if quiet {
                            self.ordering
                                .reward_quiet(&self.pos, m, &quiets_tried, depth, ply);
                        }
                        self.ordering.reward_capture(
                            &self.pos,
                            capture.then_some(m),
                            &captures_tried,
                            depth,
                        );
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push(m);
            } else if capture {
                captures_tried.push(m);
            }
        }
        if picker.yielded() == 0 {
            return -MATE + ply as i32;
        }
        if searched == 0 {
            // every move was pruned: fail low with a bound the table may keep
            return alpha;
        }

        // Step 17. Store the result in the transposition table: the score with its bound, the best move (none
        // after a fail low), and the static score for the next visit.
        if excluded.is_none() {
            // The correction history learns how far the static score was off, where the result says so: not
            // from a fail high at or below the static score, nor a fail low at or above it (those bounds say
            // nothing about the error), nor when a capture or promotion was best (a gain in material the static
            // score of a quiet position was never meant to see), nor from mate scores.
            if !in_check
                && best.abs() < MATE_BOUND
                && (best_move.is_none() || self.is_quiet(best_move))
                && !(best >= beta && best <= node.static_eval)
                && !(best <= original_alpha && best >= node.static_eval)
            {
                self.ordering
                    .correction
                    .update(&self.pos, best - node.static_eval, depth);
            }
            self.store(key, &node, best, best_move, original_alpha, beta);
        }
        best
    }

    /// Step 4: the score the game's rules give this node, if they end the game here.
    fn score_by_rule(&self, ply: usize) -> Option<i32> {
        match self.pos.repetition(32) {
            Repetition::None => {
                let limit = self.sh.max_moves_to_draw;
                (limit > 0 && self.pos.move_number() > limit).then(|| self.draw_score())
            }
            Repetition::Draw => Some(self.draw_score()),
            Repetition::Win => Some(MATE - ply as i32),
            Repetition::Loss => Some(-MATE + ply as i32),
        }
    }

    fn draw_score(&self) -> i32 {
        if self.pos.side_to_move() == self.sh.root_side {
            self.sh.draw_value
        } else {
            -self.sh.draw_value
        }
    }

    /// Step 7: razoring's verdict, if it settles the node (0 when the search was stopped meanwhile).
    fn razor(&mut self, n: &Node, alpha: i32) -> Option<i32> {
        let margin = 300 + 250 * n.depth * n.depth;
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
        const PROBCUT_MARGIN: i32 = 200;
        let depth = n.depth;
        let pc_beta = beta + PROBCUT_MARGIN;
        if depth < 5 || pc_beta >= MATE_BOUND {
            return None;
        }
        if tt.is_some_and(|t| {
            t.depth >= depth - 3 && t.score < pc_beta && t.score.abs() < MATE_BOUND
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
                    depth - 4,
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
                    depth - 3,
                    Bound::Lower,
                );
                return Some(v);
            }
        }
        None
    }

    /// Step 13's singular-extension test for the table's move `m` (see there).
    fn singular(&mut self, n: &Node, tt: Option<TtData>, m: Move, beta: i32) -> Singular {
        let Some(t) = tt else { return Singular::No };
        if n.depth < 8
            || t.depth < n.depth - 3
            || !matches!(t.bound, Bound::Lower | Bound::Exact)
            || t.score.abs() >= MATE_BOUND
        {
            return Singular::No;
        }
        let tt_score = score_from_tt(t.score, n.ply);
        let singular_beta = tt_score - 2 * n.depth;
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
            Singular::Extend
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
    /// single saving of the search. Wrong in zugzwang, so skipped with only king and pawns; and where a quiet drop
    /// can mate (`king_in_danger`), which passing hides. Never twice in a row, which would only return to the
    /// same position. From depth 10 a fail high is verified by a reduced search of this node itself, since a
    /// wrong cut-off that deep hides too much. Returns the fail-high score (0 when stopped meanwhile).
    fn null_move(&mut self, n: &Node, beta: i32) -> Option<i32> {
        let depth = n.depth;
        if depth < 3
            || n.static_eval < beta
            || !self.has_pieces()
            || !self.last_move_not_null()
            || self.king_in_danger()
        {
            return None;
        }
        let r = 3 + depth / 4;
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
        if depth < 10 {
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
    fn prune_move(&self, n: &Node, c: Candidate, best: i32, alpha: i32, searched: i32) -> bool {
        if n.is_pv() || best <= -MATE_BOUND {
            return false;
        }
        let depth = n.depth;
        if n.in_check {
            // a quiet evasion that loses material outright: mostly an interposed drop the checker takes for free,
            // which only delays the attack past the horizon (a capture of the checker is never skipped); evasions
            // are not reduced, so the depth it would be searched to is the node's less one
            return c.quiet && !c.gives_check && self.quiet_loses_material(c.mv, depth - 1);
        }
        // a capture, promotion or check that loses more material than the depth could win back (with pieces in
        // hand nearly every position has sacrificial checking drops, most of which only lose the piece)
        if !c.quiet || c.gives_check {
            return depth <= 6 && !see_ge(&self.pos, c.mv, -120 * depth);
        }
        if depth <= 8 && searched >= (4 + depth * depth) / (2 - i32::from(n.improving)) {
            return true;
        }
        let lmr_depth = (depth - 1 - self.reduction(n, c, depth - 1, searched)).max(0);
        // not where only a mate would beat alpha: a quiet move can mate, which no margin on the static score
        // foresees
        if lmr_depth <= 6 && alpha < MATE_BOUND && n.static_eval + 150 + 120 * lmr_depth <= alpha {
            return true;
        }
        self.quiet_loses_material(c.mv, lmr_depth)
    }

    /// Step 12's exchange pruning of a quiet move to be searched `d` plies deep: it loses more material by static
    /// exchange than a search that shallow could win back.
    fn quiet_loses_material(&self, m: Move, d: i32) -> bool {
        d <= 6 && !see_ge(&self.pos, m, -40 * (d * d).max(1))
    }

    /// Step 14. Late move reductions: a quiet move that comes late in the ordering is unlikely to beat alpha, so
    /// it is searched shallower first (and again at full depth if it does beat alpha). The reduction grows with
    /// the depth and the number of moves searched before (`REDUCTIONS`); it is one less at PV nodes and for
    /// killers, two more at cut nodes, and less or more by the move's history. Not for the first three moves,
    /// captures, promotions, evasions, nor checks at PV nodes. This is where the search's depth comes from: most
    /// moves of most nodes are reduced. Quiet checks elsewhere are reduced like any quiet move: with pieces in
    /// hand nearly every position has many checking drops, and searching them all at full depth made the tree
    /// explode wherever a king is exposed (9x9 bench to depth 12: 42.0 M nodes, 37.9 M of them in position 8;
    /// 8.8 M reducing them).
    fn reduction(&self, n: &Node, c: Candidate, new_depth: i32, searched: i32) -> i32 {
        if n.depth < 3 || searched < 3 || !c.quiet || n.in_check || (c.gives_check && n.is_pv()) {
            return 0;
        }
        let mut r = reduction_table(n.depth, searched);
        if n.is_pv() {
            r -= 1;
        }
        if self.ordering.is_killer(n.ply, c.mv) {
            r -= 1;
        }
        // at a node expected to fail high, only one move has to reach beta and the late ones seldom do: two
        // plies more (against none: 9x9, byoyomi 100, 400 games from balanced openings, +22.6 +/- 34.1)
        if n.kind == NodeKind::Cut {
            r += 2;
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
    /// neither.
    fn search_late_move(&mut self, n: &Node, alpha: i32, beta: i32, new_depth: i32, r: i32) -> i32 {
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
            s = -self.search(-alpha - 1, -alpha, new_depth, ply, n.kind.opposite());
        }
        if s > alpha && s < beta && n.is_pv() && !self.stopped {
            s = -self.search(-beta, -alpha, new_depth, ply, NodeKind::Pv);
        }
        s
    }

    /// Step 17: the node's result in the table.
    fn store(
        &self,
        key: u64,
        n: &Node,
        best: i32,
        best_move: Move,
        original_alpha: i32,
        beta: i32,
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.store_entry(key, n.ply, best_move, best, n.raw_eval, n.depth, bound);
    }

    /// A result in the table, its score made relative to the node (`score_to_tt`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store_entry(
        &self,
        key: u64,
        ply: usize,
        mv: Move,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        self.sh.tt.store(
            key,
            TtData {
                mv,
                score: score_to_tt(score, ply),
                eval,
                depth,
                bound,
            },
        );
    }

    /// Appends the child's line to `m` as this ply's principal variation.
    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][0] = m;
        let n = self.pv_len[ply + 1].min(MAX_PLY - 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][1..=n].copy_from_slice(&tail[0][..n]);
        self.pv_len[ply] = n + 1;
    }

    /// Whether the side to move's king may face a mating attack: enemy pieces near it while the enemy holds
    /// pieces to drop. Passing (null move) and static cut-offs are unsound there: a quiet drop can mate.
    fn king_in_danger(&self) -> bool {
        let us = self.pos.side_to_move();
        let them = !us;
        let hand = self.pos.hand(them);
        if hand.total() == 0 {
            return false;
        }
        let zone = crate::rules::position::Bb::<V>::from_u128(
            V::tables().near2[self.pos.king(us).index()],
        );
        (zone & self.pos.color_bb(them) & !self.pos.kind_bb(Kind::King)).any()
    }

    /// Whether the side to move has nothing but its king, on the board and in hand.
    fn bare_king(&self) -> bool {
        let us = self.pos.side_to_move();
        self.pos.color_bb(us).count() == 1 && self.pos.hand(us).total() == 0
    }

    /// Whether the side to move has a piece besides pawns and its king, on the board or in hand.
    fn has_pieces(&self) -> bool {
        let us = self.pos.side_to_move();
        let board =
            self.pos.color_bb(us) & !self.pos.kind_bb(Kind::Pawn) & !self.pos.kind_bb(Kind::King);
        board.any() || self.pos.hand(us).total() > self.pos.hand(us).count(Kind::Pawn) as u32
    }

    /// Whether `m` takes a piece in the current position.
    fn is_capture(&self, m: Move) -> bool {
        !m.is_drop() && self.pos.piece_at(m.to()).is_some()
    }

    /// Neither a capture nor a promotion, in the current position.
    fn is_quiet(&self, m: Move) -> bool {
        !m.is_promotion() && !self.is_capture(m)
    }

    fn last_move_not_null(&self) -> bool {
        self.pos.history().last().is_none_or(|s| !s.mv.is_none())
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
