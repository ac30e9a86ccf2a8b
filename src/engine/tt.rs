//! The shared transposition table: lock-free, two 64-bit words per entry.
//!
//! Each entry stores `key ^ data` and `data`; a reader accepts the entry only when the two still xor to its key,
//! so a torn write by another thread reads as a miss instead of as another position's data (the "lockless
//! hashing" of Hyatt and Mann). A move read from the table is still checked for legality before it is played.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};

use super::zeroed::{prefetch, ZeroValid, ZeroedBuffer};
use crate::rules::moves::Move;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    None = 0,
    /// The score is at most this (fail low).
    Upper = 1,
    /// The score is at least this (fail high).
    Lower = 2,
    Exact = 3,
}

#[derive(Clone, Copy, Debug)]
pub struct TtData {
    pub mv: Move,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

/// Entries per bucket: the probe scans them all, the store replaces the least valuable.
const BUCKET: usize = 4;

// SAFETY: an entry is two atomic integers; zero is a valid value of each.
unsafe impl ZeroValid for Entry {}

pub struct TranspositionTable {
    entries: ZeroedBuffer<Entry>,
    buckets: usize,
    generation: AtomicU8,
    /// A search may have written entries since the table was last cleared.
    dirty: AtomicBool,
    /// Every page has been written once (by `clear`), so the kernel has mapped them all: a fresh mapping's
    /// pages are mapped as they are first touched, at a cost a search on the clock should not pay.
    touched: AtomicBool,
}

fn pack(d: &TtData, generation: u8) -> u64 {
    (d.mv.raw() as u64)
        | ((d.score as i16 as u16 as u64) << 16)
        | ((d.eval as i16 as u16 as u64) << 32)
        | ((d.depth.clamp(-1, 254) as u8 as u64).wrapping_add(1) & 0xff) << 48
        | (d.bound as u64) << 56
        | ((generation as u64) & 0x3f) << 58
}

fn unpack(x: u64) -> (TtData, u8) {
    let bound = match (x >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => Bound::None,
    };
    (
        TtData {
            mv: Move::from_raw(x as u16),
            score: (x >> 16) as u16 as i16 as i32,
            eval: (x >> 32) as u16 as i16 as i32,
            depth: ((x >> 48) & 0xff) as i32 - 1,
            bound,
        },
        ((x >> 58) & 0x3f) as u8,
    )
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> Self {
        let bytes = mb.max(1) * 1024 * 1024;
        let buckets = (bytes / (16 * BUCKET)).max(1);
        Self::with_buckets(buckets)
    }

    /// An empty table of the same size, in a fresh mapping: constant time, where `clear` writes every entry
    /// (tens of milliseconds for 64 MB, hundreds under load, which `usinewgame` must not cost: a GUI often sends
    /// `go` right after it, with the clock running). The fresh pages are zeroed by the kernel as they are touched.
    pub fn emptied(&self) -> Self {
        Self::with_buckets(self.buckets)
    }

    /// A fresh, untouched table of `buckets` buckets.
    fn with_buckets(buckets: usize) -> Self {
        TranspositionTable {
            entries: ZeroedBuffer::new(buckets * BUCKET, true),
            buckets,
            generation: AtomicU8::new(0),
            dirty: AtomicBool::new(false),
            touched: AtomicBool::new(false),
        }
    }

    pub fn clear(&self) {
        for e in self.entries.iter() {
            e.check.store(0, Ordering::Relaxed);
            e.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
        self.dirty.store(false, Ordering::Relaxed);
        self.touched.store(true, Ordering::Relaxed);
    }

    /// Whether a search may have written entries since the last `clear` (a fresh table is not dirty).
    pub fn is_dirty(&self) -> bool {
        self.dirty.load(Ordering::Relaxed)
    }

    /// Whether every page is mapped already (see the field).
    pub fn is_touched(&self) -> bool {
        self.touched.load(Ordering::Relaxed)
    }

    /// Marks the start of a new search, so that older entries are replaced first.
    pub fn new_search(&self) {
        self.dirty.store(true, Ordering::Relaxed);
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (((key as u128) * (self.buckets as u128)) >> 64) as usize * BUCKET
    }

    /// Starts loading the bucket of `key` into the cache, so that a probe soon after does not wait on memory.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        prefetch(self.entries[self.bucket(key)..].as_ptr());
    }

    pub fn probe(&self, key: u64) -> Option<TtData> {
        let b = self.bucket(key);
        for e in &self.entries[b..b + BUCKET] {
            let data = e.data.load(Ordering::Relaxed);
            if data != 0 && e.check.load(Ordering::Relaxed) ^ data == key {
                return Some(unpack(data).0);
            }
        }
        None
    }

    pub fn store(&self, key: u64, d: TtData) {
        let generation = self.generation.load(Ordering::Relaxed) & 0x3f;
        let b = self.bucket(key);
        let bucket = &self.entries[b..b + BUCKET];
        let mut victim = 0;
        let mut victim_value = i32::MAX;
        for (i, e) in bucket.iter().enumerate() {
            let data = e.data.load(Ordering::Relaxed);
            if data == 0 {
                victim = i;
                break;
            }
            if e.check.load(Ordering::Relaxed) ^ data == key {
                let (old, _) = unpack(data);
                // keep a deeper exact result of the same position, and its move when the new one has none
                if d.bound != Bound::Exact && old.depth > d.depth + 2 {
                    return;
                }
                let mut d = d;
                if d.mv.is_none() {
                    d.mv = old.mv;
                }
                let x = pack(&d, generation);
                e.data.store(x, Ordering::Relaxed);
                e.check.store(key ^ x, Ordering::Relaxed);
                return;
            }
            let (old, g) = unpack(data);
            let age = (generation.wrapping_sub(g) & 0x3f) as i32;
            let value = old.depth - 8 * age;
            if value < victim_value {
                victim_value = value;
                victim = i;
            }
        }
        let x = pack(&d, generation);
        bucket[victim].data.store(x, Ordering::Relaxed);
        bucket[victim].check.store(key ^ x, Ordering::Relaxed);
    }

    /// Permille of the first thousand entries used by the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 0x3f;
        let n = self.entries.len().min(1000);
        let used = self.entries[..n]
            .iter()
            .filter(|e| {
                let data = e.data.load(Ordering::Relaxed);
                data != 0 && unpack(data).1 == generation
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::square::Square;

    /// A table is dirty from the first search after a clear until the next clear, and touched once cleared;
    /// `emptied` gives a fresh, clean and untouched table without the entries.
    #[test]
    fn dirty_and_touched_follow_searches_and_clears() {
        let tt = TranspositionTable::new(1);
        assert!(!tt.is_dirty() && !tt.is_touched());
        tt.clear();
        assert!(!tt.is_dirty() && tt.is_touched());
        tt.new_search();
        let d = TtData {
            mv: Move::NONE,
            score: 5,
            eval: 3,
            depth: 4,
            bound: Bound::Lower,
        };
        tt.store(77, d);
        assert!(tt.is_dirty());
        let fresh = tt.emptied();
        assert!(!fresh.is_dirty() && !fresh.is_touched());
        assert!(fresh.probe(77).is_none());
        assert!(tt.probe(77).is_some());
        tt.clear();
        assert!(!tt.is_dirty() && tt.probe(77).is_none());
    }

    #[test]
    fn store_then_probe_round_trips() {
        let tt = TranspositionTable::new(1);
        let mv = Move::normal(Square::new(3), Square::new(2), true);
        let d = TtData {
            mv,
            score: -31000,
            eval: 123,
            depth: 17,
            bound: Bound::Lower,
        };
        tt.store(0xdead_beef_1234_5678, d);
        let got = tt
            .probe(0xdead_beef_1234_5678)
            .expect("stored entry is found");
        assert_eq!(got.mv, mv);
        assert_eq!(got.score, -31000);
        assert_eq!(got.eval, 123);
        assert_eq!(got.depth, 17);
        assert_eq!(got.bound, Bound::Lower);
        assert!(tt.probe(0x1111_2222_3333_4444).is_none());
    }
}
