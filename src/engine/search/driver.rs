//! One worker's search of the root: iterative deepening, aspiration windows, the root move loop, the reports
//! and results it gives, and the polling of the stop flag, the node limit and the clock.

use std::sync::atomic::Ordering;
use std::time::Duration;

use super::node::NodeKind;
use super::ordering::MoveOrdering;
use super::smp::{Shared, DEFER_DEPTH};
use super::{Info, SearchResult, INFINITE, MATE, MATE_BOUND, MAX_PLY};
use crate::engine::eval::GameEval;
use crate::engine::nnue::{AccumulatorStack, Network};
use crate::engine::params::SearchParams;
use crate::engine::tt::Bound;
use crate::rules::moves::Move;
use crate::rules::position::Position;

#[derive(Clone)]
pub(super) struct RootMove {
    pub(super) mv: Move,
    pub(super) score: i32,
    pub(super) prev_score: i32,
    bound: Bound,
    pv: Vec<Move>,
}

pub(super) struct Worker<'a, V: GameEval> {
    id: usize,
    pub(super) pos: Position<V>,
    pub(super) sh: &'a Shared<'a>,
    pub(super) nodes: u64,
    pub(super) seldepth: usize,
    pub(super) ordering: Box<MoveOrdering>,
    /// The principal variation found below each ply, `pv_len[ply]` moves long.
    pub(super) pv: Vec<[Move; MAX_PLY + 1]>,
    pub(super) pv_len: [usize; MAX_PLY + 1],
    /// Static evaluation by ply (-INFINITE in check), to tell whether the side to move is improving.
    pub(super) evals: [i32; MAX_PLY + 1],
    /// The move a singular-extension search leaves out at each ply (`Move::NONE` in an ordinary search).
    pub(super) excluded: [Move; MAX_PLY + 1],
    /// The double extensions on the line from the root to each ply (step 13).
    pub(super) double_extensions: [u8; MAX_PLY + 2],
    /// The search has been stopped: every node returns at once, and the unfinished iteration is thrown away.
    pub(super) stopped: bool,
    next_progress: Duration,
    pub(super) root_moves: Vec<RootMove>,
    completed_depth: i32,
    /// The net and its accumulators, when the search evaluates with a net.
    pub(super) nnue: Option<(&'a Network, AccumulatorStack)>,
}

impl<'a, V: GameEval> Worker<'a, V> {
    /// A worker with the move-ordering statistics its thread kept from the searches before.
    pub(super) fn new(
        id: usize,
        pos: Position<V>,
        sh: &'a Shared<'a>,
        ordering: Box<MoveOrdering>,
    ) -> Self {
        let nnue = sh.net.map(|net| (net, AccumulatorStack::new(net, &pos)));
        Worker {
            id,
            pos,
            sh,
            nodes: 0,
            seldepth: 0,
            ordering,
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            evals: [-INFINITE; MAX_PLY + 1],
            excluded: [Move::NONE; MAX_PLY + 1],
            double_extensions: [0; MAX_PLY + 2],
            stopped: false,
            next_progress: Duration::from_secs(1),
            root_moves: Vec::new(),
            completed_depth: 0,
            nnue,
        }
    }

    /// The search's parameters (the game's, with the `SearchParams` option's overrides): a reference that
    /// outlives the borrow of the worker, so that a step can read them while it searches on.
    #[inline(always)]
    pub(super) fn params(&self) -> &'a SearchParams {
        let sh: &'a Shared<'a> = self.sh;
        &sh.params
    }

    /// The move-ordering statistics, for the thread's next search.
    pub(super) fn into_ordering(self) -> Box<MoveOrdering> {
        self.ordering
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Polls the stop flag, and on the main worker the clock and the node limit. Called every 1024 nodes: often
    /// enough to stop within a millisecond, rarely enough to cost nothing measurable.
    pub(super) fn check_stop(&mut self) {
        self.sh.counters[self.id].store(self.nodes, Ordering::Relaxed);
        if self.sh.control.stopped() {
            self.stopped = true;
            return;
        }
        if !self.is_main() {
            return;
        }
        if let Some(n) = self.sh.limits.nodes {
            if self.sh.total_nodes() >= n {
                self.sh.control.halt();
                self.stopped = true;
                return;
            }
        }
        // progress between iterations, at most once a second
        let elapsed = self.sh.control.elapsed();
        if elapsed >= self.next_progress {
            self.next_progress = elapsed + Duration::from_secs(1);
            if elapsed >= Duration::from_secs(1) {
                (self.sh.on_info)(&Info {
                    depth: 0,
                    seldepth: self.seldepth as i32,
                    multipv: 0,
                    score: 0,
                    bound: Bound::None,
                    nodes: self.sh.total_nodes(),
                    time_ms: elapsed.as_millis() as u64,
                    hashfull: self.sh.tt.hashfull(),
                    pv: Vec::new(),
                    progress_only: true,
                });
            }
        }
        if let Some(max) = self.sh.maximum {
            if !self.sh.control.pondering() && self.sh.control.elapsed() >= max {
                self.sh.control.halt();
                self.stopped = true;
            }
        }
    }

    /// Iterative deepening: searches the root to depth 1, 2, ... until a limit or a stop, each iteration's
    /// scores centring the next one's windows and its best move searched first. Returns the last completed
    /// iteration's result.
    pub(super) fn iterate(&mut self) -> SearchResult {
        let legal = self.pos.legal_moves();
        let wanted = &self.sh.limits.searchmoves;
        self.root_moves = legal
            .iter()
            .filter(|m| wanted.is_empty() || wanted.contains(m))
            .map(|&mv| RootMove {
                mv,
                score: -INFINITE,
                prev_score: -INFINITE,
                bound: Bound::None,
                pv: vec![mv],
            })
            .collect();
        if self.root_moves.is_empty() {
            if self.is_main() {
                (self.sh.on_info)(&Info {
                    depth: 0,
                    seldepth: 0,
                    multipv: 1,
                    score: -MATE,
                    bound: Bound::Exact,
                    nodes: 0,
                    time_ms: self.sh.control.elapsed().as_millis() as u64,
                    hashfull: 0,
                    pv: Vec::new(),
                    progress_only: false,
                });
                self.sh.control.wait_until_released(self.sh.limits.infinite);
            }
            return SearchResult::no_move();
        }
        let max_depth = self
            .sh
            .limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 1)
            .clamp(1, MAX_PLY as i32 - 1);
        let multipv = self.sh.limits.multipv.clamp(1, self.root_moves.len());
        let mut best_move_changes = 0;
        let mut last_best = Move::NONE;
        let mut depth = 1;
        while depth <= max_depth {
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..multipv {
                self.seldepth = 0;
                self.aspiration(depth, pv_idx);
                if self.stopped {
                    break;
                }
                // stable sorts: the unsettled moves by their new scores, then the settled lines among themselves,
                // so that line 1 is always the best of them
                self.root_moves[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                self.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.is_main() {
                    self.report(depth, multipv.min(pv_idx + 1));
                }
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            self.publish(depth);
            if self.root_moves[0].mv != last_best {
                best_move_changes += 1;
                last_best = self.root_moves[0].mv;
            }
            if self.is_main() && self.time_to_stop(depth, best_move_changes) {
                break;
            }
            if self.is_main() {
                best_move_changes = best_move_changes * 3 / 4;
            }
            depth += 1;
        }
        self.sh.counters[self.id].store(self.nodes, Ordering::Relaxed);
        if self.is_main() {
            self.sh.control.wait_until_released(self.sh.limits.infinite);
        }
        let best = &self.root_moves[0];
        SearchResult {
            best: Some(best.mv),
            pv: best.pv.clone(),
            ponder: best.pv.get(1).copied(),
            score: best.score,
            depth: self.completed_depth,
            nodes: self.nodes,
        }
    }

    /// Records a completed iteration as the deepest so far; a helper that completes the depth limit ends the
    /// search (all workers stop, and the result is taken from the deepest iteration).
    fn publish(&self, depth: i32) {
        let best = &self.root_moves[0];
        if let Ok(mut d) = self.sh.deepest.lock() {
            if d.as_ref().is_none_or(|r| depth > r.depth) {
                *d = Some(SearchResult {
                    best: Some(best.mv),
                    pv: best.pv.clone(),
                    ponder: best.pv.get(1).copied(),
                    score: best.score,
                    depth,
                    nodes: 0,
                });
            }
        }
        if !self.is_main()
            && self.sh.limits.depth == Some(depth)
            && !self.sh.limits.infinite
            && !self.sh.control.pondering()
        {
            self.sh.control.halt();
        }
    }

    /// Sends the first `lines` principal variations; a line not yet searched at `depth` shows the one before.
    fn report(&self, depth: i32, lines: usize) {
        self.sh.counters[self.id].store(self.nodes, Ordering::Relaxed);
        let nodes = self.sh.total_nodes();
        let time_ms = self.sh.control.elapsed().as_millis() as u64;
        for (i, rm) in self.root_moves.iter().take(lines).enumerate() {
            let (score, d) = if rm.score == -INFINITE {
                (rm.prev_score, depth - 1)
            } else {
                (rm.score, depth)
            };
            if score == -INFINITE {
                continue;
            }
            (self.sh.on_info)(&Info {
                depth: d.max(1),
                seldepth: self.seldepth.max(d as usize) as i32,
                multipv: i + 1,
                score,
                bound: rm.bound,
                nodes,
                time_ms,
                hashfull: self.sh.tt.hashfull(),
                pv: rm.pv.clone(),
                progress_only: false,
            });
        }
    }

    /// Searches line `pv_idx` in a narrow window around its previous score, which cuts more of the tree as long
    /// as the score stays inside; a score outside widens the window on that side and searches again.
    fn aspiration(&mut self, depth: i32, pv_idx: usize) {
        let prev = self.root_moves[pv_idx].prev_score;
        let p = self.params();
        let mut delta = p.aspiration_delta;
        let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < MATE_BOUND {
            ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let score = self.root_search(alpha, beta, depth, pv_idx);
            if self.stopped {
                return;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
            } else {
                return;
            }
            delta += delta / 2 + p.aspiration_growth;
            if delta > p.aspiration_max {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// The root's move loop for line `pv_idx` (the lines before it are settled): the first move with the full
    /// window, the others with a null window and again with the full one when they beat alpha. Each move's score,
    /// bound and line go to its `RootMove`.
    fn root_search(&mut self, mut alpha: i32, beta: i32, depth: i32, pv_idx: usize) -> i32 {
        let original_alpha = alpha;
        let mut best = -INFINITE;
        // The moves in their order at the start; a new best move is rotated to the front of the list below, so
        // each move's place is looked up as it comes. As inside the tree, a move whose position another worker is
        // searching right now is put off to the end, once.
        let mut order: Vec<Move> = self.root_moves[pv_idx..].iter().map(|rm| rm.mv).collect();
        let generated = order.len();
        let mut next = 0;
        while next < order.len() {
            let k = next;
            next += 1;
            let m = order[k];
            if let Some(b) = self.sh.busy {
                if k > 0
                    && k < generated
                    && depth >= DEFER_DEPTH
                    && b.is_busy(self.pos.key_after(m))
                {
                    order.push(m);
                    continue;
                }
            }
            let Some(i) = self.root_moves[pv_idx..].iter().position(|rm| rm.mv == m) else {
                continue;
            };
            let i = i + pv_idx;
            let check = self.pos.gives_check(m);
            self.make(m);
            self.nodes += 1;
            let ext = i32::from(check);
            let score = if i == pv_idx {
                -self.search(-beta, -alpha, depth - 1 + ext, 1, NodeKind::Pv)
            } else {
                let mut s = -self.search(-alpha - 1, -alpha, depth - 1 + ext, 1, NodeKind::Cut);
                if s > alpha && s < beta && !self.stopped {
                    s = -self.search(-beta, -alpha, depth - 1 + ext, 1, NodeKind::Pv);
                }
                s
            };
            self.unmake();
            if self.stopped {
                return best;
            }
            let rm = &mut self.root_moves[i];
            if i == pv_idx || score > alpha {
                rm.score = score;
                rm.bound = if score >= beta {
                    Bound::Lower
                } else if score <= original_alpha {
                    Bound::Upper
                } else {
                    Bound::Exact
                };
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend_from_slice(&self.pv[1][..self.pv_len[1]]);
            } else {
                rm.score = -INFINITE;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    // move the new best to the front of the unsettled lines
                    self.root_moves[pv_idx..=i].rotate_right(1);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
