//! Nodes being searched by some thread right now, for the parallel searches (the playing search and the tsume
//! solver) to spread their threads over different subtrees.

use std::sync::atomic::{AtomicU64, Ordering};

/// Nodes that some worker is searching right now, by key (ABDADA's "exclusive" flag, without its counters): a
/// worker that meets a late move whose position another worker is already searching puts it off to the end of
/// its list, so that two workers spend less time on the same subtree at the same moment. The playing search marks
/// only nodes with some plies to go, the tsume solver every node it searches; a slot taken by another position
/// is simply not marked.
pub struct BusyTable {
    slots: Vec<AtomicU64>,
}

const BUSY_SLOTS: usize = 1 << 15;

impl Default for BusyTable {
    fn default() -> Self {
        Self::new()
    }
}

impl BusyTable {
    pub fn new() -> Self {
        BusyTable {
            slots: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }
    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(key as usize) & (BUSY_SLOTS - 1)]
    }
    #[inline]
    pub fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }
    /// Marks `key` as being searched; the guard clears the mark when the node is done.
    #[inline]
    pub fn claim(&self, key: u64) -> Option<BusyGuard<'_>> {
        let slot = self.slot(key);
        slot.compare_exchange(0, key, Ordering::Relaxed, Ordering::Relaxed)
            .ok()
            .map(|_| BusyGuard { slot, key })
    }
}

pub struct BusyGuard<'a> {
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
