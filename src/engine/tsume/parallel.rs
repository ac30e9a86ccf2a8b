//! Several searchers on one problem: the root searches (the first proof and the shortening pass's searches) run
//! on as many threads as the solver is given, every thread a df-pn searcher from the root on one shared table.
//!
//! Each uses what the others store, and the first to solve the root stops the others. Alone they would follow
//! one path; they spread out at the defender's nodes, where a searcher whose best evasion another searcher is
//! in takes the best of the others (see `DfpnSolver::mid`). A mate must answer every evasion, so that work is
//! rarely lost. The table is sound under sharing for the reason it is sound at all: every stored result holds
//! for the position whatever the path (repetition-dependent disproofs stay in each searcher's own cache), and
//! each bucket is read and written whole, under its lock.
//!
//! Reading the line afterwards stays with one searcher: it runs short depth-limited searches, one after another.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::dfpn::{Abort, DfpnSolver, NodeResult, Parallel};
use super::table::TableRef;
use super::STACK_BYTES;
use crate::engine::busy::BusyTable;
use crate::rules::variant::Variant;

/// What one searcher of a root search ends with.
struct Outcome {
    result: NodeResult,
    aborted: Option<Abort>,
    hit_ply_cap: bool,
    nodes: u64,
}

impl<V: Variant> DfpnSolver<'_, V> {
    /// Proves or disproves the current position (the root: ply 0) within `depth` plies (`DEPTH_INF`: no limit),
    /// with `threads` searchers on this searcher's table.
    pub fn search_root(&mut self, depth: u16) -> NodeResult {
        if self.threads <= 1 {
            return self.search(depth, 0);
        }
        let threads = self.threads;
        let seed = self.seed();
        let start_nodes = self.nodes;
        let TableRef::Own(table) = &mut self.tt else {
            return self.search(depth, 0);
        };
        let busy = BusyTable::new();
        let halt = AtomicBool::new(false);
        let helper_nodes = AtomicU64::new(0);
        let link = |helper| Parallel {
            busy: &busy,
            halt: &halt,
            helper_nodes: &helper_nodes,
            helper,
        };
        let (outcomes, next_progress) = table.share(|shared| {
            let run = |mut s: DfpnSolver<V>| {
                let result = s.search(depth, 0);
                if s.aborted.is_none() {
                    halt.store(true, Ordering::Relaxed);
                }
                let o = Outcome {
                    result,
                    aborted: s.aborted,
                    hit_ply_cap: s.hit_ply_cap,
                    nodes: s.nodes,
                };
                (o, s.next_progress)
            };
            std::thread::scope(|scope| {
                let helpers: Vec<_> = (1..threads)
                    .filter_map(|i| {
                        let s =
                            seed.searcher(TableRef::Shared(shared.join()), link(true), 0, false);
                        std::thread::Builder::new()
                            .name(format!("tsume-{i}"))
                            .stack_size(STACK_BYTES)
                            .spawn_scoped(scope, || run(s).0)
                            .map_err(|e| log::warn!("tsume: cannot start a helper searcher: {e}"))
                            .ok()
                    })
                    .collect();
                let main = seed.searcher(
                    TableRef::Shared(shared.join()),
                    link(false),
                    start_nodes,
                    true,
                );
                let (main, next_progress) = run(main);
                // the helpers end at the flag, or at `stop` or the limits as the main searcher did
                halt.store(true, Ordering::Relaxed);
                let mut outcomes = vec![main];
                for h in helpers {
                    match h.join() {
                        Ok(o) => outcomes.push(o),
                        Err(_) => log::error!("tsume: a helper searcher panicked"),
                    }
                }
                (outcomes, next_progress)
            })
        });
        // the first searcher that solved the root, else the main one (stopped or out of limits)
        let done = outcomes
            .iter()
            .position(|o| o.aborted.is_none())
            .unwrap_or(0);
        self.nodes = outcomes.iter().map(|o| o.nodes).sum();
        self.aborted = outcomes[done].aborted;
        // a line cut at the ply cap by any searcher may lie behind what the others read in the table
        self.hit_ply_cap |= outcomes.iter().any(|o| o.hit_ply_cap);
        self.next_progress = next_progress;
        outcomes[done].result
    }
}
