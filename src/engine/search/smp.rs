//! The Lazy SMP pieces: the thread pool, what the workers of one search share, and the table of nodes being
//! searched that makes them spread out.

use std::sync::atomic::{AtomicU64, Ordering};

pub(super) use crate::engine::busy::BusyTable;
use std::sync::Mutex;
use std::time::Duration;

use super::{Control, Info, Limits, SearchResult};
use crate::engine::nnue::Network;
use crate::engine::params::SearchParams;
use crate::engine::tt::TranspositionTable;
use crate::rules::piece::Color;

/// Each worker's stack: the node search recurses up to `MAX_PLY` deep with move lists on the stack.
const STACK_SIZE: usize = 64 * 1024 * 1024;

pub(super) fn build_pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .stack_size(STACK_SIZE)
        .thread_name(|i| format!("search-{i}"))
        .build()
        .unwrap_or_else(|e| panic!("cannot start search threads: {e}"))
}

/// What the workers of one search share.
pub(super) struct Shared<'a> {
    pub(super) tt: &'a TranspositionTable,
    pub(super) control: &'a Control,
    /// Nodes searched, one counter per worker, each written by its worker only.
    pub(super) counters: &'a [AtomicU64],
    pub(super) limits: &'a Limits,
    pub(super) optimum: Option<Duration>,
    pub(super) maximum: Option<Duration>,
    pub(super) on_info: &'a (dyn Fn(&Info) + Sync),
    pub(super) draw_value: i32,
    pub(super) max_moves_to_draw: u32,
    pub(super) root_side: Color,
    /// The deepest iteration any worker has completed, with its result.
    pub(super) deepest: Mutex<Option<SearchResult>>,
    /// Nodes being searched, with more than one worker.
    pub(super) busy: Option<&'a BusyTable>,
    /// The net of the game searched, if the search uses one.
    pub(super) net: Option<&'a Network>,
    /// The length in plies of a mate the tsume solver proved before the search (by checks only): the search
    /// carries on only to find a shorter one, which may begin with a quiet move.
    pub(super) proven_mate: Option<i32>,
    /// The game's search parameters with the `SearchParams` option's overrides applied.
    pub(super) params: SearchParams,
}

impl Shared<'_> {
    pub(super) fn total_nodes(&self) -> u64 {
        self.counters
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .sum()
    }
}

/// Shallower nodes are over too soon for another worker to gain by avoiding them.
pub(super) const DEFER_DEPTH: i32 = 3;
