//! Parallel iterative-deepening alpha-beta search (Lazy SMP).
//!
//! Every worker searches the same root on its own copy of the position, sharing only the transposition table,
//! the stop flag, the node counters and the table of nodes being searched. Workers diverge through their own
//! move-ordering histories, the table entries the others leave, and by putting off a late move, at the root as
//! inside the tree, whose position another worker is searching at that moment (see `BusyTable`). Skipping depths
//! per helper (Stockfish's old pattern) measured slower here (time to depth 10 on the shogi bench, 2 threads:
//! 1.25× with skipping, 1.29× without); a worker giving up an iteration that another had completed measured no
//! better. The main worker reports progress and keeps the clock; the deepest completed iteration of any worker
//! gives the best move.
//!
//! Node steps, in the order they run (each labelled in `Worker::search`): mate-distance pruning, repetition by
//! the game's rule, table cut-off, static evaluation, razoring, reverse futility (static null move), null-move
//! pruning, move loop with late-move pruning, futility pruning of quiet moves, check extension, late-move
//! reductions and principal-variation re-searches; quiescence resolves captures and pawn promotions (and all
//! evasions when in check).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::engine::eval::{capture_value, evaluate, see_ge, GameEval};
use crate::engine::tt::{Bound, TranspositionTable, TtData};
use crate::rules::movegen::GenMode;
use crate::rules::moves::{Move, MoveList};
use crate::rules::piece::{Color, Kind};
use crate::rules::position::{Position, Repetition};

pub const MATE: i32 = 32000;
pub const INFINITE: i32 = 32001;
/// Scores beyond this are mate scores.
pub const MATE_BOUND: i32 = MATE - 1000;
pub const MAX_PLY: usize = 128;

/// The clock as the front end received it (milliseconds).
#[derive(Clone, Copy, Debug, Default)]
pub struct Clock {
    /// Remaining main time, indexed by colour (Black = btime, White = wtime).
    pub time: [u64; 2],
    pub inc: [u64; 2],
    pub byoyomi: u64,
}

/// What bounds one search.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    pub infinite: bool,
    pub clock: Option<Clock>,
    /// Search only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// Number of principal variations to report (at least 1).
    pub multipv: usize,
}

/// Time-management settings (milliseconds, and percent for the slow mover).
#[derive(Clone, Copy, Debug)]
pub struct TimeOptions {
    pub network_delay: u64,
    pub minimum_thinking: u64,
    pub slow_mover: u64,
}

impl Default for TimeOptions {
    fn default() -> Self {
        TimeOptions {
            network_delay: 40,
            minimum_thinking: 20,
            slow_mover: 100,
        }
    }
}

/// Flags shared between the front end and a running search.
#[derive(Debug)]
pub struct Control {
    pub stop: AtomicBool,
    /// While set, the search ignores the clock (pondering); cleared by `ponderhit`.
    pub pondering: AtomicBool,
    /// When the clock started counting for this move (reset on `ponderhit`).
    pub start: Mutex<Instant>,
}

impl Default for Control {
    fn default() -> Self {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            start: Mutex::new(Instant::now()),
        }
    }
}

impl Control {
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }
    pub fn ponderhit(&self) {
        if let Ok(mut s) = self.start.lock() {
            *s = Instant::now();
        }
        self.pondering.store(false, Ordering::SeqCst);
    }
    /// Blocks while the search may not answer yet: in infinite mode or while pondering, until `stop` (or
    /// `ponderhit`, which clears pondering). Polled each millisecond, so the answer follows at once.
    pub fn wait_until_released(&self, infinite: bool) {
        while (infinite || self.pondering.load(Ordering::Relaxed))
            && !self.stop.load(Ordering::Relaxed)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    fn elapsed(&self) -> Duration {
        self.start.lock().map(|s| s.elapsed()).unwrap_or_default()
    }
}

/// One line of search progress.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: i32,
    pub seldepth: i32,
    pub multipv: usize,
    pub score: i32,
    pub bound: Bound,
    pub nodes: u64,
    pub time_ms: u64,
    pub hashfull: u32,
    pub pv: Vec<Move>,
    /// A progress report between iterations: only nodes, time and hashfull are meaningful.
    pub progress_only: bool,
}

#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None` when the side to move has no legal move.
    pub best: Option<Move>,
    /// The principal variation of the best move (empty when there is none).
    pub pv: Vec<Move>,
    pub ponder: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub nodes: u64,
}

/// Converts a score to "mate in N moves" (positive: the side to move mates), if it is a mate score.
pub fn mate_in_moves(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Some(-((MATE + score) / 2))
    } else {
        None
    }
}

/// Owns the thread pool and the transposition table across searches.
pub struct Searcher {
    pool: rayon::ThreadPool,
    threads: usize,
    tt: Arc<TranspositionTable>,
    control: Arc<Control>,
    /// Score for a draw from the root side's point of view.
    pub draw_value: i32,
    /// A game reaching this SFEN move number is a draw (0: no limit), as `MaxMovesToDraw` says.
    pub max_moves_to_draw: u32,
    busy: BusyTable,
}

/// Nodes that some worker is searching right now, by key (ABDADA's "exclusive" flag, without its counters): a
/// worker that meets a late move whose position another worker is already searching puts it off to the end of
/// its list, so that two workers spend less time on the same subtree at the same moment. Only nodes with at
/// least `DEFER_DEPTH` plies to go are marked; a slot taken by another position is simply not marked.
struct BusyTable {
    slots: Vec<AtomicU64>,
}

const BUSY_SLOTS: usize = 1 << 15;
const DEFER_DEPTH: i32 = 3;

impl BusyTable {
    fn new() -> Self {
        BusyTable {
            slots: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }
    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(key as usize) & (BUSY_SLOTS - 1)]
    }
    #[inline]
    fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }
    /// Marks `key` as being searched; the guard clears the mark when the node is done.
    #[inline]
    fn claim(&self, key: u64) -> Option<BusyGuard<'_>> {
        let slot = self.slot(key);
        slot.compare_exchange(0, key, Ordering::Relaxed, Ordering::Relaxed)
            .ok()
            .map(|_| BusyGuard { slot, key })
    }
}

struct BusyGuard<'a> {
    slot: &'a AtomicU64,
    key: u64,
}

impl Drop for BusyGuard<'_> {
    fn drop(&mut self) {
        let _ = self
            .slot
            .compare_exchange(self.key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

const STACK_SIZE: usize = 64 * 1024 * 1024;

fn build_pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .stack_size(STACK_SIZE)
        .thread_name(|i| format!("search-{i}"))
        .build()
        .unwrap_or_else(|e| panic!("cannot start search threads: {e}"))
}

impl Searcher {
    pub fn new(threads: usize, hash_mb: usize) -> Self {
        Searcher {
            pool: build_pool(threads),
            threads: threads.max(1),
            tt: Arc::new(TranspositionTable::new(hash_mb)),
            control: Arc::new(Control::default()),
            draw_value: 0,
            max_moves_to_draw: 0,
            busy: BusyTable::new(),
        }
    }

    /// Rebuilds the pool only when the count changes.
    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.max(1);
        if threads != self.threads {
            self.pool = build_pool(threads);
            self.threads = threads;
        }
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    pub fn set_hash(&mut self, mb: usize) {
        self.tt = Arc::new(TranspositionTable::new(mb));
    }

    pub fn clear(&mut self) {
        self.tt.clear();
    }

    pub fn control(&self) -> Arc<Control> {
        Arc::clone(&self.control)
    }

    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Searches `pos` within `limits`, reporting through `on_info` from the main worker, and returns the best
    /// move. The caller resets `control` (stop and pondering flags, start time) before calling.
    pub fn search<V: GameEval>(
        &self,
        pos: &Position<V>,
        limits: &Limits,
        time: &TimeOptions,
        on_info: &(dyn Fn(&Info) + Sync),
    ) -> SearchResult {
        self.tt.new_search();
        let (optimum, maximum) = budget(pos.side_to_move(), limits, time);
        let counters: Vec<AtomicU64> = (0..self.threads).map(|_| AtomicU64::new(0)).collect();
        let shared = Shared {
            tt: &self.tt,
            control: &self.control,
            counters: &counters,
            limits,
            optimum,
            maximum,
            on_info,
            draw_value: self.draw_value,
            max_moves_to_draw: self.max_moves_to_draw,
            root_side: pos.side_to_move(),
            busy: (self.threads > 1).then_some(&self.busy),
            deepest: Mutex::new(None),
        };
        let result = Mutex::new(None);
        self.pool.scope(|s| {
            for id in 1..self.threads {
                let shared = &shared;
                s.spawn(move |_| {
                    let mut w = Worker::new(id, pos.clone(), shared);
                    w.iterate();
                });
            }
            let mut w = Worker::new(0, pos.clone(), &shared);
            let r = w.iterate();
            // the main worker is done: stop the helpers
            self.control.stop();
            if let Ok(mut slot) = result.lock() {
                *slot = Some(r);
            }
        });
        let nodes = counters.iter().map(|c| c.load(Ordering::Relaxed)).sum();
        let main = result.into_inner().ok().flatten();
        // a helper's deeper completed iteration beats the main worker's (single line only: MultiPV lines are the
        // main worker's)
        let deepest = shared.deepest.into_inner().ok().flatten();
        let main = match (main, deepest) {
            (Some(m), Some(d)) if limits.multipv <= 1 && d.depth > m.depth && m.best.is_some() => {
                Some(d)
            }
            (m, _) => m,
        };
        let mut r = main.unwrap_or(SearchResult {
            best: None,
            pv: Vec::new(),
            ponder: None,
            score: -MATE,
            depth: 0,
            nodes: 0,
        });
        r.nodes = nodes;
        r
    }
}

/// The optimum and maximum time for this move, from the clock and the options (None: no time limit).
pub fn budget(
    side: Color,
    limits: &Limits,
    opts: &TimeOptions,
) -> (Option<Duration>, Option<Duration>) {
    if limits.infinite {
        return (None, None);
    }
    if let Some(mt) = limits.movetime {
        let t = Duration::from_millis(mt.saturating_sub(opts.network_delay).max(1));
        return (Some(t), Some(t));
    }
    let Some(clock) = limits.clock else {
        return (None, None);
    };
    let left = clock.time[side.index()];
    let inc = clock.inc[side.index()];
    let byo = clock.byoyomi;
    let delay = opts.network_delay;
    // the most we may use without losing on time
    let hard = (left + byo).saturating_sub(delay).max(1);
    // With an increment and no byoyomi, a reserve stays on the clock: once the main time is spent the engine lives
    // on the increment, and spending all but `NetworkDelay` of what is left each move loses on time as soon as
    // the machine is loaded and the reply comes late (seen in 2 s + 100 ms games on a busy 2-core machine). The
    // increment refills what a move spends, so the clock settles near the reserve plus the increment.
    let usable = if byo == 0 {
        let reserve = (4 * delay).max(inc).min(left / 2);
        left.saturating_sub(reserve).max(opts.minimum_thinking)
    } else {
        hard
    };
    // spread the main time over the moves expected to remain, then add the increment and most of the byoyomi
    let moves_to_go = 40u64;
    let mut optimum = left / moves_to_go + inc * 9 / 10;
    optimum = optimum * opts.slow_mover / 100;
    if byo > 0 {
        // once the main time is short, the byoyomi is the budget: spend it nearly fully
        optimum += byo.saturating_sub(delay);
    }
    let optimum = optimum.max(opts.minimum_thinking).min(hard).min(usable);
    let maximum = (optimum * 4)
        .min(hard)
        .min(usable)
        .min(if byo > 0 {
            left / 4 + byo.saturating_sub(delay)
        } else {
            left / 5 + inc
        })
        .max(optimum.min(hard));
    (
        Some(Duration::from_millis(optimum)),
        Some(Duration::from_millis(maximum.max(1))),
    )
}

struct Shared<'a> {
    tt: &'a TranspositionTable,
    control: &'a Control,
    counters: &'a [AtomicU64],
    limits: &'a Limits,
    optimum: Option<Duration>,
    maximum: Option<Duration>,
    on_info: &'a (dyn Fn(&Info) + Sync),
    draw_value: i32,
    max_moves_to_draw: u32,
    root_side: Color,
    /// The deepest iteration any worker has completed, with its result.
    deepest: Mutex<Option<SearchResult>>,
    /// Nodes being searched, with more than one worker.
    busy: Option<&'a BusyTable>,
}

#[derive(Clone)]
struct RootMove {
    mv: Move,
    score: i32,
    prev_score: i32,
    bound: Bound,
    pv: Vec<Move>,
}

/// History index of a move: its origin square or dropped kind, and its destination.
#[inline]
fn history_index(m: Move) -> usize {
    let from = if m.is_drop() {
        81 + m.dropped().index()
    } else {
        m.from().index()
    };
    from * 81 + m.to().index()
}
const HISTORY_SIZE: usize = 88 * 81;

struct Worker<'a, V: GameEval> {
    id: usize,
    pos: Position<V>,
    sh: &'a Shared<'a>,
    nodes: u64,
    seldepth: usize,
    killers: [[Move; 2]; MAX_PLY + 1],
    history: Vec<[i32; HISTORY_SIZE]>,
    counter_moves: Vec<Move>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// Static evaluation by ply (-INFINITE in check), to tell whether the side to move is improving.
    evals: [i32; MAX_PLY + 1],
    stopped: bool,
    next_progress: Duration,
    root_moves: Vec<RootMove>,
    completed_depth: i32,
}

impl<'a, V: GameEval> Worker<'a, V> {
    fn new(id: usize, pos: Position<V>, sh: &'a Shared<'a>) -> Self {
        Worker {
            id,
            pos,
            sh,
            nodes: 0,
            seldepth: 0,
            killers: [[Move::NONE; 2]; MAX_PLY + 1],
            history: vec![[0; HISTORY_SIZE]; 2],
            counter_moves: vec![Move::NONE; HISTORY_SIZE],
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            evals: [-INFINITE; MAX_PLY + 1],
            stopped: false,
            next_progress: Duration::from_secs(1),
            root_moves: Vec::new(),
            completed_depth: 0,
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    fn total_nodes(&self) -> u64 {
        self.sh
            .counters
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .sum()
    }

    fn draw_score(&self) -> i32 {
        if self.pos.side_to_move() == self.sh.root_side {
            self.sh.draw_value
        } else {
            -self.sh.draw_value
        }
    }

    /// Polls the stop flag, and on the main worker the clock and the node limit.
    fn check_stop(&mut self) {
        self.sh.counters[self.id].store(self.nodes, Ordering::Relaxed);
        if self.sh.control.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if !self.is_main() {
            return;
        }
        if let Some(n) = self.sh.limits.nodes {
            if self.total_nodes() >= n {
                self.sh.control.stop();
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
                    nodes: self.total_nodes(),
                    time_ms: elapsed.as_millis() as u64,
                    hashfull: self.sh.tt.hashfull(),
                    pv: Vec::new(),
                    progress_only: true,
                });
            }
        }
        if let Some(max) = self.sh.maximum {
            if !self.sh.control.pondering.load(Ordering::Relaxed)
                && self.sh.control.elapsed() >= max
            {
                self.sh.control.stop();
                self.stopped = true;
            }
        }
    }

    fn iterate(&mut self) -> SearchResult {
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
            return SearchResult {
                best: None,
                pv: Vec::new(),
                ponder: None,
                score: -MATE,
                depth: 0,
                nodes: 0,
            };
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
            && !self.sh.control.pondering.load(Ordering::Relaxed)
        {
            self.sh.control.stop();
        }
    }

    fn time_to_stop(&self, depth: i32, best_move_changes: i32) -> bool {
        if self.sh.control.pondering.load(Ordering::Relaxed) {
            return false;
        }
        // a found mate needs no deeper search unless asked
        if self.root_moves[0].score.abs() >= MATE_BOUND
            && depth as i64 >= 2 * (MATE - self.root_moves[0].score.abs()) as i64
            && self.sh.limits.depth.is_none()
            && !self.sh.limits.infinite
        {
            return true;
        }
        let Some(optimum) = self.sh.optimum else {
            return false;
        };
        // spend more when the best move keeps changing or the score falls
        let falling = self.root_moves[0].prev_score != -INFINITE
            && self.root_moves[0].score + 30 < self.root_moves[0].prev_score;
        let mut factor = 100 + 40 * best_move_changes.min(3) as u32;
        if falling {
            factor += 50;
        }
        // one legal move: no need to think
        if self.root_moves.len() == 1 && self.sh.limits.searchmoves.is_empty() {
            return true;
        }
        let target = optimum * factor / 100;
        let target = self.sh.maximum.map_or(target, |m| target.min(m));
        self.sh.control.elapsed() >= target * 6 / 10
    }

    fn report(&self, depth: i32, lines: usize) {
        self.sh.counters[self.id].store(self.nodes, Ordering::Relaxed);
        let nodes = self.total_nodes();
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

    fn aspiration(&mut self, depth: i32, pv_idx: usize) {
        let prev = self.root_moves[pv_idx].prev_score;
        let mut delta = 40;
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
            delta += delta / 2 + 10;
            if delta > 1500 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

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
            self.pos.do_move(m);
            self.nodes += 1;
            let ext = i32::from(check);
            let score = if i == pv_idx {
                -self.search(-beta, -alpha, depth - 1 + ext, 1, true)
            } else {
                let mut s = -self.search(-alpha - 1, -alpha, depth - 1 + ext, 1, false);
                if s > alpha && s < beta && !self.stopped {
                    s = -self.search(-beta, -alpha, depth - 1 + ext, 1, true);
                }
                s
            };
            self.pos.undo_move();
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

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][0] = m;
        let n = self.pv_len[ply + 1].min(MAX_PLY - 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][1..=n].copy_from_slice(&tail[0][..n]);
        self.pv_len[ply] = n + 1;
    }

    fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, 0);
        }
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_stop();
        }
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        // Mate-distance pruning: no score here can beat a shorter mate already found.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        // Repetition, scored by the game's rule (the first repetition stands for the game's outcome).
        match self.pos.repetition(32) {
            Repetition::None => {
                let limit = self.sh.max_moves_to_draw;
                if limit > 0 && self.pos.move_number() > limit {
                    return self.draw_score();
                }
            }
            Repetition::Draw => return self.draw_score(),
            Repetition::Win => return MATE - ply as i32,
            Repetition::Loss => return -MATE + ply as i32,
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(&self.pos);
        }

        let in_check = self.pos.in_check();
        let key = self.pos.key();

        // Transposition table: a deep enough bound from an earlier search cuts off at once.
        let tt = self.sh.tt.probe(key);
        let tt_move = tt.map_or(Move::NONE, |t| t.mv);
        if let Some(t) = tt {
            if !pv_node && t.depth >= depth {
                let s = score_from_tt(t.score, ply);
                let cut = match t.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                    Bound::None => false,
                };
                if cut {
                    return s;
                }
            }
        }

        // Static evaluation (not trusted in check).
        let static_eval = if in_check {
            -INFINITE
        } else {
            match tt {
                Some(t) if t.bound != Bound::None && t.eval.abs() < MATE_BOUND => t.eval,
                _ => evaluate(&self.pos),
            }
        };
        self.evals[ply] = static_eval;
        // Improving: the static score beats the one of our previous move; prune less when it does. A score two
        // plies up that is unknown (that node was in check, or is the root, which keeps none) counts as beaten.
        let improving = !in_check && ply >= 2 && static_eval > self.evals[ply - 2];

        // Razoring: far below alpha near the leaves, only captures (or promotions) could save the node; if the
        // quiescence search cannot lift it to alpha either, fail low at once.
        if !pv_node && !in_check && depth <= 3 && alpha.abs() < MATE_BOUND {
            let margin = 300 + 250 * depth * depth;
            if static_eval + margin < alpha {
                let v = self.qsearch(alpha - 1, alpha, ply, 0);
                if self.stopped {
                    return 0;
                }
                // the quiescence search does not see a position without legal moves, lost in all three games
                if v < alpha {
                    return if self.pos.has_legal_move() {
                        v
                    } else {
                        -MATE + ply as i32
                    };
                }
            }
        }
        if !pv_node && !in_check && beta.abs() < MATE_BOUND {
            // Reverse futility: far above beta at shallow depth, assume a cut-off. Not for a bare king, which
            // may have no legal move at all (a loss the static score cannot see).
            if depth <= 6
                && static_eval - 120 * (depth - i32::from(improving)) >= beta
                && !self.bare_king()
            {
                return static_eval;
            }
            // Null move: let the opponent move twice; if it still cannot reach beta, this node fails high.
            // Skipped with only king and pawns (zugzwang-like), and verified by a reduced search when deep.
            if depth >= 3
                && static_eval >= beta
                && self.has_pieces()
                && self.last_move_not_null()
                && !self.king_in_danger()
            {
                let r = 3 + depth / 4;
                self.pos.do_null_move();
                let s = -self.search(-beta, -beta + 1, depth - 1 - r, ply + 1, false);
                self.pos.undo_null_move();
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    let s = if s >= MATE_BOUND { beta } else { s };
                    if depth < 10 {
                        return s;
                    }
                    let v = self.search(beta - 1, beta, depth - 1 - r, ply, false);
                    if v >= beta {
                        return s;
                    }
                }
            }
        }

        let mut moves = MoveList::new();
        self.pos.generate(GenMode::All, &mut moves);
        // No legal move loses in all three games (checkmate or not).
        if moves.is_empty() {
            return -MATE + ply as i32;
        }
        let mut scores = self.score_moves(&moves, tt_move, ply);

        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = Move::NONE;
        let mut searched = 0;
        let mut quiets_tried: MoveList = MoveList::new();
        let us = self.pos.side_to_move();
        let busy = self.sh.busy.filter(|_| depth >= DEFER_DEPTH);
        let _mark = busy.and_then(|b| b.claim(key));
        // moves put off because another worker is searching them come back at the end of the list, once
        let generated = moves.len();
        let mut next = 0;
        while next < moves.len() {
            let i = next;
            next += 1;
            let m = pick(&mut moves, &mut scores, i);
            let next_key = self.pos.key_after(m);
            if let Some(b) = busy {
                if searched > 0 && i < generated && !moves.is_full() && b.is_busy(next_key) {
                    moves.push(m);
                    scores[moves.len() - 1] = i32::MIN;
                    continue;
                }
            }
            self.sh.tt.prefetch(next_key);
            let capture = !m.is_drop() && self.pos.piece_at(m.to()).is_some();
            let quiet = !capture && !m.is_promotion();
            let gives_check = self.pos.gives_check(m);

            // Static-exchange pruning: at shallow depth skip moves that lose material outright.
            if !pv_node && !in_check && best > -MATE_BOUND && depth <= 6 && !gives_check {
                let margin = if quiet {
                    -40 * depth * depth
                } else {
                    -120 * depth
                };
                if !see_ge(&self.pos, m, margin) {
                    continue;
                }
            }
            if !pv_node && !in_check && best > -MATE_BOUND && quiet && !gives_check {
                // Late-move pruning: at shallow depth, late quiet moves rarely matter.
                if depth <= 6 && searched >= (4 + depth * depth) / (2 - i32::from(improving)) {
                    continue;
                }
                // Futility: a quiet move cannot lift a hopeless static score above alpha.
                if depth <= 3 && static_eval + 150 + 120 * depth <= alpha {
                    continue;
                }
            }

            // Check extension, for checks that do not lose material: with pieces in hand nearly every position
            // has sacrificial checks, and extending them all makes the tree explode.
            let ext = i32::from(gives_check && ply < 2 * MAX_PLY / 3 && see_ge(&self.pos, m, 0));
            let new_depth = depth - 1 + ext;

            self.pos.do_move(m);
            debug_assert_eq!(
                self.pos.key(),
                next_key,
                "key_after disagrees with do_move for {m:?}"
            );
            let score = if searched == 0 {
                -self.search(-beta, -alpha, new_depth, ply + 1, pv_node)
            } else {
                // Late-move reductions for quiet moves that come late in the ordering.
                let mut r = 0;
                if depth >= 3 && searched >= 3 && quiet && !in_check && !gives_check {
                    r = ((depth as f32).ln() * (searched as f32).ln() / 2.0) as i32;
                    if pv_node {
                        r -= 1;
                    }
                    if m == self.killers[ply][0] || m == self.killers[ply][1] {
                        r -= 1;
                    }
                    // moves that have often cut off elsewhere are reduced less, moves that never do more
                    r -= self.history[us.index()][history_index(m)] / 8192;
                    r = r.clamp(0, new_depth - 1);
                }
                let mut s = -self.search(-alpha - 1, -alpha, new_depth - r, ply + 1, false);
                if s > alpha && r > 0 && !self.stopped {
                    s = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, false);
                }
                if s > alpha && s < beta && pv_node && !self.stopped {
                    s = -self.search(-beta, -alpha, new_depth, ply + 1, true);
                }
                s
            };
            self.pos.undo_move();
            if self.stopped {
                return 0;
            }
            searched += 1;
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
                            self.reward_quiet(m, &quiets_tried, depth, ply, us);
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push(m);
            }
        }
        if searched == 0 {
            // every move was pruned: fail low with a bound the table may keep
            return alpha;
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.sh.tt.store(
            key,
            TtData {
                mv: best_move,
                score: score_to_tt(best, ply),
                eval: if in_check { 0 } else { static_eval },
                depth,
                bound,
            },
        );
        best
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

    fn has_pieces(&self) -> bool {
        let us = self.pos.side_to_move();
        let board =
            self.pos.color_bb(us) & !self.pos.kind_bb(Kind::Pawn) & !self.pos.kind_bb(Kind::King);
        board.any() || self.pos.hand(us).total() > self.pos.hand(us).count(Kind::Pawn) as u32
    }

    fn last_move_not_null(&self) -> bool {
        self.pos.history().last().is_none_or(|s| !s.mv.is_none())
    }

    fn reward_quiet(&mut self, m: Move, tried: &MoveList, depth: i32, ply: usize, us: Color) {
        if self.killers[ply][0] != m {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = m;
        }
        let bonus = (depth * depth).min(400);
        let h = &mut self.history[us.index()];
        let e = &mut h[history_index(m)];
        *e += bonus - *e * bonus / 16384;
        for &q in tried {
            let e = &mut h[history_index(q)];
            *e -= bonus + *e * bonus / 16384;
        }
        if let Some(prev) = self.pos.history().last() {
            if !prev.mv.is_none() {
                self.counter_moves[history_index(prev.mv)] = m;
            }
        }
    }

    fn score_moves(
        &self,
        moves: &MoveList,
        tt_move: Move,
        ply: usize,
    ) -> [i32; crate::rules::moves::MAX_MOVES] {
        let mut scores = [0i32; crate::rules::moves::MAX_MOVES];
        let us = self.pos.side_to_move();
        let counter = self
            .pos
            .history()
            .last()
            .filter(|s| !s.mv.is_none())
            .map_or(Move::NONE, |s| self.counter_moves[history_index(s.mv)]);
        for (i, &m) in moves.iter().enumerate() {
            scores[i] = if m == tt_move {
                1 << 30
            } else if !m.is_drop() && self.pos.piece_at(m.to()).is_some() {
                // captures: most valuable victim first, then least valuable attacker; losing ones (by static
                // exchange) after the killers
                let victim = capture_value::<V>(self.pos.piece_at(m.to()).kind());
                let attacker = V::BOARD_VALUE[self.pos.piece_at(m.from()).kind().index()];
                let base = if see_ge(&self.pos, m, 0) {
                    1 << 28
                } else {
                    1 << 24
                };
                base + victim * 16 - attacker / 16 + if m.is_promotion() { 500 } else { 0 }
            } else if m.is_promotion() {
                (1 << 27) + 100
            } else if m == self.killers[ply][0] {
                (1 << 26) + 2
            } else if m == self.killers[ply][1] {
                (1 << 26) + 1
            } else if m == counter {
                1 << 25
            } else {
                self.history[us.index()][history_index(m)]
            };
        }
        scores
    }

    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, qdepth: i32) -> i32 {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_stop();
        }
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 1 || qdepth > 16 {
            return if in_check { 0 } else { evaluate(&self.pos) };
        }
        let mut moves = MoveList::new();
        let stand_pat;
        if in_check {
            // all evasions; no legal move is mate
            self.pos.generate(GenMode::All, &mut moves);
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
            stand_pat = -INFINITE;
        } else {
            stand_pat = evaluate(&self.pos);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            self.pos.generate(GenMode::Captures, &mut moves);
            // Promotions that gain much (a pawn's, a rook's) change the material as a capture does; searched at
            // the first quiescence ply only, where they matter most and cost least.
            if qdepth == 0 {
                let start = moves.len();
                self.pos.generate(GenMode::QuietPromotions, &mut moves);
                let mut i = start;
                while i < moves.len() {
                    if self.pos.piece_at(moves[i].from()).kind() == Kind::Pawn {
                        i += 1;
                    } else {
                        moves.swap_remove(i);
                    }
                }
            }
        }
        let mut scores = self.score_moves(&moves, Move::NONE, ply.min(MAX_PLY));
        let mut best = stand_pat;
        for i in 0..moves.len() {
            let m = pick(&mut moves, &mut scores, i);
            if !in_check {
                // Delta pruning: even winning this piece (or promoting) cannot lift the score to alpha.
                let target = self.pos.piece_at(m.to());
                let gain = if target.is_some() {
                    capture_value::<V>(target.kind()) + promotion_gain::<V>(&self.pos, m)
                } else {
                    promotion_gain::<V>(&self.pos, m)
                };
                if stand_pat + gain + 200 <= alpha {
                    continue;
                }
                // losing captures cannot raise the score
                if !see_ge(&self.pos, m, 0) {
                    continue;
                }
                // skip the non-promotion when promoting is possible (the promotion is searched)
                if !m.is_promotion()
                    && moves
                        .iter()
                        .any(|&o| o.is_promotion() && o.from() == m.from() && o.to() == m.to())
                {
                    continue;
                }
            }
            self.pos.do_move(m);
            let s = -self.qsearch(-beta, -alpha, ply + 1, qdepth + 1);
            self.pos.undo_move();
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// What promoting adds to the moving piece's board value (0 for a move that does not promote).
fn promotion_gain<V: GameEval>(pos: &Position<V>, m: Move) -> i32 {
    if !m.is_promotion() {
        return 0;
    }
    let k = pos.piece_at(m.from()).kind();
    k.promoted()
        .map_or(0, |p| V::BOARD_VALUE[p.index()] - V::BOARD_VALUE[k.index()])
}

/// Moves the best-scored remaining move to `i` and returns it: a selection step for the first few moves (a
/// cut-off usually comes early), then one sort of the rest.
#[inline]
fn pick(
    moves: &mut MoveList,
    scores: &mut [i32; crate::rules::moves::MAX_MOVES],
    i: usize,
) -> Move {
    const SELECT: usize = 6;
    if i == SELECT && moves.len() > SELECT + 1 {
        let n = moves.len();
        let mut pairs: arrayvec::ArrayVec<(i32, Move), { crate::rules::moves::MAX_MOVES }> =
            (SELECT..n).map(|j| (scores[j], moves[j])).collect();
        pairs.sort_unstable_by_key(|p| std::cmp::Reverse(p.0));
        for (k, (sc, m)) in pairs.into_iter().enumerate() {
            scores[SELECT + k] = sc;
            moves[SELECT + k] = m;
        }
    }
    if i >= SELECT {
        return moves[i];
    }
    let mut best = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
    moves[i]
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

#[cfg(test)]
mod budget_tests {
    use super::*;

    fn ms(d: Option<Duration>) -> u64 {
        d.map_or(0, |d| d.as_millis() as u64)
    }

    fn fischer(left: u64, inc: u64) -> (u64, u64) {
        let limits = Limits {
            clock: Some(Clock {
                time: [left, left],
                inc: [inc, inc],
                byoyomi: 0,
            }),
            ..Limits::default()
        };
        let (o, m) = budget(Color::Black, &limits, &TimeOptions::default());
        (ms(o), ms(m))
    }

    #[test]
    fn increment_play_keeps_a_reserve() {
        // plenty of time: a fortieth of it plus most of the increment
        assert_eq!(fischer(2000, 100), (140, 500));
        // main time nearly spent: a reserve of 4 x NetworkDelay (160 ms), or half of what is left, stays
        assert_eq!(fischer(400, 100), (100, 180));
        assert_eq!(fischer(260, 100), (96, 130));
        assert_eq!(fischer(137, 100), (69, 69));
        // living on the increment, the clock climbs back to about 400 ms and each move spends about 100 ms
        let mut left = 137;
        for _ in 0..200 {
            let (o, m) = fischer(left, 100);
            assert!(left - m >= 160.min(left / 2), "{left} {m}");
            left = left - o + 100;
        }
        assert!((390..=400).contains(&left), "{left}");
    }

    #[test]
    fn byoyomi_is_spent_nearly_fully() {
        let limits = Limits {
            clock: Some(Clock {
                time: [0, 0],
                inc: [0, 0],
                byoyomi: 1000,
            }),
            ..Limits::default()
        };
        let (o, m) = budget(Color::White, &limits, &TimeOptions::default());
        assert_eq!((ms(o), ms(m)), (960, 960));
    }
}
