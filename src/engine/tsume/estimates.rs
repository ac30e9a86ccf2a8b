//! The reply counts behind the initial numbers of children not in the table, remembered between expansions (the
//! solver turns them into numbers with `moves::move_bias`, which depends on the move that reached the child).
//!
//! A node is expanded afresh each time its parent searches it, and each child the table does not know is
//! estimated again by playing it and counting its replies: on 将棋図巧 No. 1 those counts were 72% of the nodes,
//! and this cache answers a quarter (256 KB) to two fifths (4 MB) of them. Storing them in the table instead made
//! it grow and evict real results (fewer nodes, more time), so they go to this small direct-mapped cache, sized to
//! stay in the processor's caches.
//!
//! Only unsolved estimates are kept (a child without replies is solved and goes to the table): an entry that a
//! collision confuses with another position can then only mislead the search's order, never its results.

use crate::engine::zeroed::{prefetch, ZeroedBuffer};

pub struct Estimates {
    /// Per slot: the key's upper half, then the proof and disproof numbers (16 bits each); 0 is empty.
    slots: ZeroedBuffer<u64>,
    mask: usize,
    /// The size the cache grows to once a search fills the first one.
    full: usize,
    /// Counts stored since the cache was made.
    stored: usize,
}

/// Slots at first (256 KB). A helper searcher makes a cache for every root search, and one of the full size for
/// each was the cost of `go mate` on a short mate at a large USI_Hash: glibc's allocator, its mapping threshold
/// raised past 4 MB by the first one freed, wrote all the zeros itself each time (a six-ply mate with Threads 2:
/// a median of 8.1 ms at USI_Hash 16384, 4.0 ms at 16 MB), and a fresh mapping instead costs a page fault for
/// each of the few hundred slots that a short search touches.
const FIRST: usize = 1 << 15;

impl Estimates {
    /// A cache that grows to 1/512 of the table's memory, 256 KB to 4 MB: on 将棋図巧 No. 1 (2 GB table) 4 MB took
    /// about 5% less time than 256 KB; a small table means a short search, which should not pay for touching more.
    pub fn new(table_mb: usize) -> Estimates {
        let full = ((table_mb << 20) / 512 / 8)
            .clamp(FIRST, 1 << 19)
            .next_power_of_two();
        Estimates {
            slots: ZeroedBuffer::new(FIRST, false),
            mask: FIRST - 1,
            full,
            stored: 0,
        }
    }

    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        prefetch(self.slots.as_ptr().wrapping_add(key as usize & self.mask));
    }

    /// The reply counts stored for the position with full key `key`, as (proof, disproof) counts (both at least 1).
    #[inline(always)]
    pub fn get(&self, key: u64) -> Option<(u32, u32)> {
        let s = self.slots[key as usize & self.mask];
        (s >> 32 == key >> 32 && s != 0).then_some(((s >> 16) as u32 & 0xffff, s as u32 & 0xffff))
    }

    /// Remembers the counts of an unsolved child (both at least 1; larger than 16 bits are not kept).
    #[inline(always)]
    pub fn put(&mut self, key: u64, pn: u32, dn: u32) {
        if pn == 0 || dn == 0 || pn > 0xffff || dn > 0xffff {
            return;
        }
        self.stored += 1;
        if self.stored > self.mask && self.mask + 1 < self.full {
            // a long search: the full size, empty (the counts it held are found again as they are needed)
            self.slots = ZeroedBuffer::new(self.full, false);
            self.mask = self.full - 1;
        }
        self.slots[key as usize & self.mask] =
            (key & 0xffff_ffff_0000_0000) | (pn as u64) << 16 | dn as u64;
    }
}
