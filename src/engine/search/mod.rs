//! Parallel iterative-deepening alpha-beta search (Lazy SMP).
//!
//! Every worker searches the same root on its own copy of the position, sharing only the transposition table,
//! the stop flag, the node counters and the table of nodes being searched. Workers diverge through their own
//! move-ordering histories, the table entries the others leave, and by putting off a late move, at the root as
//! inside the tree, whose position another worker is searching at that moment (see `smp::BusyTable`). Skipping
//! depths per helper (Stockfish's old pattern) measured slower here (time to depth 10 on the shogi bench, 2
//! threads: 1.25× with skipping, 1.29× without); a worker giving up an iteration that another had completed
//! measured no better. The main worker reports progress and keeps the clock; the deepest completed iteration of
//! any worker gives the best move.
//!
//! The modules, from the front end inwards:
//! - this one: what the front ends use (`Searcher`, `Limits`, `Info`, `SearchResult`, the mate scores);
//! - `control`: the stop and ponder flags and the clock, shared with the front end while a search runs;
//! - `mate_probe`: the tsume solver's slice of a timed move, which proves long mates the search cannot see;
//! - `time`: how long a move may take (`budget`) and when an iteration is the last (`time_to_stop`);
//! - `smp`: what the workers share, and the table of nodes being searched;
//! - `driver`: one worker's iterative deepening, aspiration windows, root search, reports and polling;
//! - `node`: the alpha-beta search of one node, its steps labelled in the order they run;
//! - `qsearch`: the quiescence search at the leaves;
//! - `ordering`: killers, histories and counter moves, the move scores they give, and the move picker;
//! - `correction`: the correction history, what the static score has been off by in similar positions.

mod control;
mod correction;
mod driver;
mod make;
mod mate_probe;
mod node;
mod ordering;
mod picker;
mod qsearch;
mod smp;
mod time;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::engine::eval::GameEval;
use crate::engine::nnue::{self, Network};
use crate::engine::params::ParamOverrides;
use crate::engine::tt::{Bound, TranspositionTable};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::GameKind;

pub use control::Control;
pub use time::{budget, Clock, TimeOptions, MAX_TIME_MS};

use driver::Worker;
use mate_probe::{MateProbe, ProvenMate};
use ordering::MoveOrdering;
use smp::{build_pool, BusyTable, Shared};

pub const MATE: i32 = 32000;
pub const INFINITE: i32 = 32001;
/// Scores beyond this are mate scores.
pub const MATE_BOUND: i32 = MATE - 1000;
pub const MAX_PLY: usize = 128;

/// What bounds one search.
#[derive(Clone, Debug)]
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
    /// When the command arrived: the clock of this move counts from it, and a stop requested since then ends
    /// the search even if it came before the search began. `Limits::default()` takes the time of its call, so
    /// build one `Limits` per search.
    pub start: Instant,
    /// The search starts pondering (`go ponder`): the clock waits for `Control::ponderhit`.
    pub ponder: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            depth: None,
            nodes: None,
            movetime: None,
            infinite: false,
            clock: None,
            searchmoves: Vec::new(),
            multipv: 0,
            start: Instant::now(),
            ponder: false,
        }
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

impl SearchResult {
    /// The answer when the side to move has no legal move: it has lost.
    fn no_move() -> Self {
        SearchResult {
            best: None,
            pv: Vec::new(),
            ponder: None,
            score: -MATE,
            depth: 0,
            nodes: 0,
        }
    }
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
    /// Each worker thread's move-ordering statistics, kept between searches (`None` while a search holds them).
    orderings: Vec<Mutex<Option<Box<MoveOrdering>>>>,
    /// The tsume solver run before timed searches, with its table kept between moves.
    mate_probe: MateProbe,
    /// A net per game (indexed as `GameKind::ALL`), used when `use_nnue` is on.
    nets: [Option<Arc<Network>>; 3],
    /// Evaluate with the game's net when there is one (the `UseNNUE` option).
    pub use_nnue: bool,
    /// Values that replace the game's search parameters (the `SearchParams` option, set by `hayate tune`).
    pub param_overrides: ParamOverrides,
}

fn fresh_orderings(threads: usize) -> Vec<Mutex<Option<Box<MoveOrdering>>>> {
    (0..threads)
        .map(|_| Mutex::new(Some(Box::new(MoveOrdering::new()))))
        .collect()
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
            orderings: fresh_orderings(threads.max(1)),
            mate_probe: MateProbe::new(mate_probe_mb(hash_mb)),
            nets: GameKind::ALL.map(nnue::embedded),
            use_nnue: true,
            param_overrides: ParamOverrides::default(),
        }
    }

    fn game_index(game: GameKind) -> usize {
        GameKind::ALL.iter().position(|&g| g == game).unwrap_or(0)
    }

    /// Sets (or with `None` removes) the net of `game`.
    pub fn set_net(&mut self, game: GameKind, net: Option<Arc<Network>>) {
        self.nets[Self::game_index(game)] = net;
    }

    /// The net a search of `game` would use now, if any.
    pub fn net(&self, game: GameKind) -> Option<&Arc<Network>> {
        self.nets[Self::game_index(game)]
            .as_ref()
            .filter(|_| self.use_nnue)
    }

    /// Rebuilds the pool only when the count changes.
    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.max(1);
        if threads != self.threads {
            self.pool = build_pool(threads);
            self.threads = threads;
            self.orderings = fresh_orderings(threads);
        }
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    pub fn set_hash(&mut self, mb: usize) {
        self.tt = Arc::new(TranspositionTable::new(mb));
        self.mate_probe = MateProbe::new(mate_probe_mb(mb));
    }

    /// Empties the table and the move-ordering statistics: the next search starts from nothing (a new game, or
    /// the bench, whose node counts must not depend on what ran before).
    /// Constant time for the table: one written since its last clear is replaced by a fresh mapping (see
    /// `TranspositionTable::emptied`), one still empty is kept as it is.
    pub fn clear(&mut self) {
        if self.tt.is_dirty() {
            self.tt = Arc::new(self.tt.emptied());
        }
        self.orderings = fresh_orderings(self.threads);
        self.mate_probe.clear();
    }

    /// The table's heavy work, done while no clock runs (`isready`), so that neither `usinewgame` nor the first
    /// search of a game pays for it: after a finished game the last game's entries are cleared, and a table
    /// never written is written once, so that the kernel maps its pages now (64 MB: a few milliseconds here,
    /// up to hundreds under load in a search that touches them one by one). `clear` then finds it empty.
    pub fn prepare(&mut self, after_game: bool) {
        let stale = after_game && self.tt.is_dirty();
        let untouched = !self.tt.is_dirty() && !self.tt.is_touched();
        if stale || untouched {
            self.tt.clear();
        }
    }

    /// Thread `id`'s statistics, aged for a new search (new ones if a search that held them was cut short).
    fn take_ordering(&self, id: usize) -> Box<MoveOrdering> {
        let kept = self.orderings[id]
            .lock()
            .map(|mut o| o.take())
            .unwrap_or_default();
        let mut o = kept.unwrap_or_else(|| Box::new(MoveOrdering::new()));
        o.new_search();
        o
    }

    fn keep_ordering(&self, id: usize, o: Box<MoveOrdering>) {
        if let Ok(mut slot) = self.orderings[id].lock() {
            *slot = Some(o);
        }
    }

    /// The flags through which another thread stops the search or ends its pondering.
    pub fn control(&self) -> Arc<Control> {
        Arc::clone(&self.control)
    }

    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Searches `pos` within `limits`, reporting through `on_info` from the main worker, and returns the best
    /// move. The search begins the control itself, from `limits.start` and `limits.ponder`: a stop or ponderhit
    /// sent after that instant holds even if it arrives before this call.
    pub fn search<V: GameEval>(
        &self,
        pos: &Position<V>,
        limits: &Limits,
        time: &TimeOptions,
        on_info: &(dyn Fn(&Info) + Sync),
    ) -> SearchResult {
        self.control.begin(limits.start, limits.ponder);
        self.tt.new_search();
        let (optimum, maximum) = budget(pos.side_to_move(), limits, time);
        let proven = self.try_proven_mate(pos, limits, optimum);
        if let Some(p) = proven.as_ref().filter(|p| p.line.len() <= 1) {
            // a mate in one is the shortest there is
            return self.play_proven_mate(pos, p.clone(), on_info);
        }
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
            // a net of another game cannot be set (`set_net` callers load it for its game); checked anyway
            net: self.net(V::KIND).filter(|n| n.fits::<V>()).map(|n| &**n),
            proven_mate: proven.as_ref().map(|p| p.line.len() as i32),
            params: self.param_overrides.apply(V::SEARCH),
        };
        let result = Mutex::new(None);
        self.pool.scope(|s| {
            for id in 1..self.threads {
                let shared = &shared;
                s.spawn(move |_| {
                    let mut w = Worker::new(id, pos.clone(), shared, self.take_ordering(id));
                    w.iterate();
                    self.keep_ordering(id, w.into_ordering());
                });
            }
            let mut w = Worker::new(0, pos.clone(), &shared, self.take_ordering(0));
            let r = w.iterate();
            self.keep_ordering(0, w.into_ordering());
            // the main worker is done: stop the helpers
            self.control.halt();
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
        let mut r = main.unwrap_or_else(SearchResult::no_move);
        r.nodes = nodes;
        if let Some(mut p) = proven {
            // the search's mate if it is as short as the solver's, the solver's line otherwise
            let plies = p.line.len() as i32;
            if r.best.is_none() || r.score < MATE - plies {
                p.nodes += nodes;
                return self.play_proven_mate(pos, p, on_info);
            }
        }
        if r.best.is_some() {
            self.mate_probe.record_score(pos.side_to_move(), r.score);
        }
        r
    }

    /// The tsume solver's slice (see `mate_probe`): only for a move on the clock with nothing asked of the
    /// search but a move (no pondering, infinite analysis, MultiPV, searchmoves, depth or node limit), so that
    /// analysis and fixed-depth or fixed-node runs are what they were. The solver mates by checks only: a
    /// shorter mate may begin with a quiet move, so the search still runs (see `Shared::proven_mate`).
    fn try_proven_mate<V: GameEval>(
        &self,
        pos: &Position<V>,
        limits: &Limits,
        optimum: Option<Duration>,
    ) -> Option<ProvenMate> {
        let optimum = optimum?;
        if limits.ponder
            || limits.infinite
            || limits.multipv > 1
            || !limits.searchmoves.is_empty()
            || limits.depth.is_some()
            || limits.nodes.is_some()
        {
            return None;
        }
        let slice = self.mate_probe.slice(pos.side_to_move(), optimum);
        self.mate_probe.solve(pos, slice, &self.control)
    }

    /// Reports the solver's mate and answers with its first move.
    fn play_proven_mate<V: GameEval>(
        &self,
        pos: &Position<V>,
        mate: ProvenMate,
        on_info: &(dyn Fn(&Info) + Sync),
    ) -> SearchResult {
        let plies = mate.line.len() as i32;
        let score = MATE - plies;
        on_info(&Info {
            depth: plies,
            seldepth: plies,
            multipv: 1,
            score,
            bound: Bound::Exact,
            nodes: mate.nodes,
            time_ms: self.control.elapsed().as_millis() as u64,
            hashfull: mate.hashfull,
            pv: mate.line.clone(),
            progress_only: false,
        });
        self.mate_probe.record_score(pos.side_to_move(), score);
        SearchResult {
            best: mate.line.first().copied(),
            ponder: mate.line.get(1).copied(),
            pv: mate.line,
            score,
            depth: plies,
            nodes: mate.nodes,
        }
    }
}

/// The tsume table's size beside a transposition table of `hash_mb`: a quarter, within 4 MB..512 MB (its pages
/// are only touched as the solver uses them).
fn mate_probe_mb(hash_mb: usize) -> usize {
    (hash_mb / 4).clamp(4, 512)
}
