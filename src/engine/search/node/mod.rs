//! The alpha-beta search of one node below the root (principal variation search), its steps labelled in the
//! order they run.
//!
//! A node returns early where it can (steps 1 to 9: the horizon, an aborted search, a bound or a rule that
//! settles it, or a static guess that it cannot matter); otherwise it searches its moves (steps 10 to 16) and
//! stores what it found (step 17). The pruning steps trade exactness for depth: each skips work that rarely
//! changes the result, and what it gets wrong at one depth the next iteration, one ply deeper, usually corrects.
//!
//! The steps that prune the whole node or one move are in `prune`, the late-move reductions in `reduce`; their
//! margins are the game's `SearchParams` (`engine::params`).

use std::ops::ControlFlow;

mod prune;
mod reduce;

use super::driver::Worker;
use super::picker::MovePicker;
use super::smp::DEFER_DEPTH;
use super::{INFINITE, MATE, MATE_BOUND, MAX_PLY};
use crate::engine::eval::GameEval;
use crate::engine::tt::{Bound, TtData};
use crate::rules::moves::{Move, MoveList};
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
    /// The table's move is a capture or a promotion.
    tt_noisy: bool,
}

impl Node {
    fn is_pv(&self) -> bool {
        self.kind == NodeKind::Pv
    }
}

/// What a node's move loop has found so far (step 16).
struct Tried {
    /// The window's lower bound, raised by each move that beats it.
    alpha: i32,
    best: i32,
    best_move: Move,
    /// The quiet moves and the captures searched without cutting off, which lose history at a cut-off.
    quiets: MoveList,
    captures: MoveList,
}

/// The verdict of the singular-extension test (step 13).
enum Singular {
    No,
    Extend,
    ExtendTwice,
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
        // a child searched before the move loop (null move, ProbCut) inherits this line's double extensions
        self.double_extensions[ply + 1] = self.double_extensions[ply];

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
        if !pv_node {
            if let Some(t) = tt {
                if let Some(s) = tt_cutoff(&t, depth, alpha, beta, ply) {
                    if s >= beta
                        && self.params().tt_cut_history != 0
                        && !t.mv.is_none()
                        && self.is_quiet(t.mv)
                    {
                        // the move that cut off here before, credited as if it had just cut off again,
                        // with no other move to debit
                        let none_tried = MoveList::new();
                        self.ordering
                            .reward_quiet(&self.pos, t.mv, &none_tried, depth, ply);
                    }
                    return s;
                }
            }
        }

        // Step 6. Static evaluation (`static_eval`).
        let (raw_eval, static_eval) = self.static_eval(tt, in_check);
        self.evals[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.evals[ply - 2];
        let tt_noisy = tt.is_some_and(|t| !t.mv.is_none() && !self.is_quiet(t.mv));
        let mut node = Node {
            ply,
            depth,
            kind,
            in_check,
            static_eval,
            raw_eval,
            improving,
            tt_noisy,
        };

        // Steps 7 to 9b. Pruning the whole node on a static guess (`prune_node`).
        if !pv_node && !in_check && excluded.is_none() {
            if let Some(s) = self.prune_node(&node, alpha, beta, tt) {
                return s;
            }
        }

        // Step 9c. Internal iterative reduction: a PV or cut node that the table knows no move for was not
        // searched before (or its entry was lost), so its move ordering is a guess; it is searched a ply
        // shallower, which costs little and fills the table for the deeper search of the next iteration.
        if (pv_node || kind == NodeKind::Cut)
            && excluded.is_none()
            && depth >= self.params().iir_min_depth
            && tt.is_none_or(|t| t.mv == Move::NONE)
        {
            node.depth -= 1;
        }

        // Steps 10 to 17. The moves (`search_moves`).
        self.search_moves(&node, alpha, beta, tt, key)
    }

    /// Step 6. Static evaluation, which the pruning steps compare with the window; the table keeps it, so a
    /// transposition saves the evaluation. Not trusted in check (a threat the static score cannot see).
    /// Improving: the static score beats the one of our previous move; prune less when it does. A score two
    /// plies up that is unknown (that node was in check, or is the root, which keeps none) counts as beaten.
    /// The table keeps the raw score; the steps below read it corrected by the correction history (what the
    /// searches of positions with the same pawns or the same hands found it to be off by, `correction`).
    /// Returns (raw, corrected): (0, -INFINITE) in check.
    #[inline]
    fn static_eval(&mut self, tt: Option<TtData>, in_check: bool) -> (i32, i32) {
        if in_check {
            return (0, -INFINITE);
        }
        let raw_eval = match tt {
            Some(t) if t.bound != Bound::None && t.eval.abs() < MATE_BOUND => t.eval,
            _ => self.eval(),
        };
        let static_eval = self
            .ordering
            .correction
            .corrected(&self.pos, raw_eval)
            .clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        (raw_eval, static_eval)
    }

    /// Steps 10 to 17: the node's moves, searched best first, then its result stored.
    #[inline]
    fn search_moves(
        &mut self,
        n: &Node,
        alpha: i32,
        beta: i32,
        tt: Option<TtData>,
        key: u64,
    ) -> i32 {
        let (ply, depth) = (n.ply, n.depth);
        let excluded = self.excluded[ply];
        let tt_move = tt.map_or(Move::NONE, |t| t.mv);

        // Step 10. The move picker: the moves are generated in stages, best first (`MovePicker`), so that a
        // node that cuts off early generates few of them. None legal loses in all three games, checkmate or not.
        let mut picker = MovePicker::new(&self.pos, &self.ordering, tt_move, ply);

        // Step 11. Loop through the moves. With several workers, this node is marked as being searched, and a
        // move after the first whose position another worker is searching right now is put off to the end of the
        // list, once: by then that worker has stored its result, or this one searches something else meanwhile.
        let mut tried = Tried {
            alpha,
            best: -INFINITE,
            best_move: Move::NONE,
            quiets: MoveList::new(),
            captures: MoveList::new(),
        };
        let mut searched = 0;
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
            if self.prune_move(n, c, tried.best, tried.alpha, searched) {
                continue;
            }

            // Step 13. Extensions (`extension`).
            let ext = match self.extension(n, c, tt, tt_move, beta) {
                ControlFlow::Continue(ext) => ext,
                ControlFlow::Break(s) => return s,
            };
            let new_depth = depth - 1 + ext;
            self.double_extensions[ply + 1] = self.double_extensions[ply] + u8::from(ext >= 2);

            // Step 14. Late move reductions, decided before the move is played (they read the mover's history).
            let r = self.reduction(n, c, new_depth, searched);

            // Step 15. Make the move and search it (`search_move`).
            let score = self.search_move(n, m, next_key, &tried, beta, new_depth, r, searched);
            if self.stopped {
                return 0;
            }
            searched += 1;

            // Step 16. Check for a new best move (`note_score`).
            if self.note_score(n, &mut tried, c, capture, score, beta) {
                break;
            }
        }
        if picker.yielded() == 0 {
            return -MATE + ply as i32;
        }
        if searched == 0 {
            // every move was pruned: fail low with a bound the table may keep
            return tried.alpha;
        }
        if excluded.is_none() {
            if tried.best <= alpha && self.params().prior_bonus != 0 {
                self.ordering.reward_prior(&self.pos, depth);
            }
            self.learn_and_store(key, n, tried.best, tried.best_move, alpha, beta);
        }
        tried.best
    }

    /// Step 15. Make the move and search it: the first with the full window, the others with a null window,
    /// reduced by `r`, and searched again when they beat alpha (`search_late_move`).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn search_move(
        &mut self,
        n: &Node,
        m: Move,
        next_key: u64,
        tried: &Tried,
        beta: i32,
        new_depth: i32,
        r: i32,
        searched: i32,
    ) -> i32 {
        let alpha = tried.alpha;
        self.make(m);
        debug_assert_eq!(
            self.pos.key(),
            next_key,
            "key_after disagrees with do_move for {m:?}"
        );
        let score = if searched == 0 {
            -self.search(-beta, -alpha, new_depth, n.ply + 1, n.kind.first_child())
        } else {
            self.search_late_move(n, alpha, beta, tried.best, new_depth, r)
        };
        self.unmake();
        score
    }

    /// Step 16. Check for a new best move. A quiet move that cuts off becomes a killer and gains history
    /// (the quiet moves tried before it lose some), so that it comes early in the next similar node; a
    /// capture that cuts off gains capture history, and the captures tried before the move that cut off
    /// lose some either way. Capture history against none, equal time, 9x9, byoyomi 100, 400 games:
    /// +22 +/- 34.
    /// True when the move cuts off.
    #[inline]
    fn note_score(
        &mut self,
        n: &Node,
        t: &mut Tried,
        c: Candidate,
        capture: bool,
        score: i32,
        beta: i32,
    ) -> bool {
        let m = c.mv;
        if score > t.best {
            t.best = score;
            if score > t.alpha {
                t.best_move = m;
                t.alpha = score;
                if n.is_pv() {
                    self.update_pv(n.ply, m);
                }
                if score >= beta {
                    if c.quiet {
                        self.ordering
                            .reward_quiet(&self.pos, m, &t.quiets, n.depth, n.ply);
                    }
                    self.ordering.reward_capture(
                        &self.pos,
                        capture.then_some(m),
                        &t.captures,
                        n.depth,
                    );
                    return true;
                }
            }
        }
        if c.quiet {
            t.quiets.push(m);
        } else if capture {
            t.captures.push(m);
        }
        false
    }

    /// Step 17. Store the result in the transposition table: the score with its bound, the best move (none after
    /// a fail low), and the static score for the next visit.
    /// The correction history learns how far the static score was off, where the result says so: not from a fail
    /// high at or below the static score, nor a fail low at or above it (those bounds say nothing about the
    /// error), nor when a capture or promotion was best (a gain in material the static score of a quiet position
    /// was never meant to see), nor from mate scores.
    fn learn_and_store(
        &mut self,
        key: u64,
        n: &Node,
        best: i32,
        best_move: Move,
        original_alpha: i32,
        beta: i32,
    ) {
        if !n.in_check
            && best.abs() < MATE_BOUND
            && (best_move.is_none() || self.is_quiet(best_move))
            && !(best >= beta && best <= n.static_eval)
            && !(best <= original_alpha && best >= n.static_eval)
        {
            self.ordering
                .correction
                .update(&self.pos, best - n.static_eval, n.depth);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.store_entry(key, n.ply, best_move, best, n.raw_eval, n.depth, bound);
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
