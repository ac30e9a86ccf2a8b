//! The solver's transposition table: buckets of entries keyed by the board (side to move included), each entry
//! holding the attacker's hand it was searched with — or, once the position is solved, its proof pieces (the
//! least hand that still mates) or disproof pieces (the most hand that still fails). A lookup therefore answers
//! for every hand the stored one dominates (proofs) or is dominated by (disproofs).
//!
//! Proofs carry their length (plies to mate against the longest defence of that proof) and disproofs the depth
//! limit they hold for (`DEPTH_INF` when no depth limit was involved), so that the shortening pass can run
//! depth-limited searches on the same table.
//!
//! When a bucket is full the entry with the least search effort behind it is replaced: cheap results are the
//! cheapest to find again. That keeps the table usable however long the search runs.

mod shared;

pub use shared::{SharedRef, SharedTable};

use super::hands::HandBits;
use crate::engine::zeroed::{prefetch, ZeroValid, ZeroedBuffer};

/// Proof and disproof numbers: `INF` marks the solved side.
pub const INF: u32 = 1 << 30;
/// A depth (remaining plies) that means "no limit".
pub const DEPTH_INF: u16 = 60_000;

const BUCKET: usize = 8;

/// An entry less its key.
#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Data {
    hand: u32,
    pn: u32,
    dn: u32,
    /// Search effort (nodes) spent below this entry.
    amount: u32,
    /// Proven: the proof's length. Disproven: the depth limit the disproof holds for. Unsolved: the depth searched with.
    len: u16,
    mv: u16,
}

/// The keys of a bucket share one cache line, apart from the rest of the entries: most probes are for children
/// the table does not hold, and those now read one line instead of the whole bucket's four (on 将棋図巧 No. 1
/// three probes in four found nothing, and loading whole buckets was the largest single stall of the search).
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Bucket {
    /// [`tag`] of each entry's key; 0 marks an empty slot.
    keys: [u64; BUCKET],
    data: [Data; BUCKET],
}

// SAFETY: a bucket is plain integers; all zeros is a bucket of empty slots.
unsafe impl ZeroValid for Bucket {}

/// The stored form of a key: never 0, which marks an empty slot (only keys 0 and 1 share it).
#[inline(always)]
fn tag(key: u64) -> u64 {
    key.max(1)
}

/// What the table knows of a position for a given hand and depth.
#[derive(Clone, Copy, Debug)]
pub struct Probe {
    pub pn: u32,
    pub dn: u32,
    /// Proven: the proof's length. Disproven: the depth it holds for.
    pub len: u16,
    /// Proven: proof pieces; disproven: disproof pieces; otherwise the hand asked about.
    pub hand: HandBits,
    pub mv: u16,
    pub found: bool,
}

pub struct Table {
    entries: ZeroedBuffer<Bucket>,
    /// Buckets in use: the table starts small and doubles as it fills (see [`Table::grow`]).
    buckets: usize,
    /// Buckets the memory holds.
    capacity: usize,
    used: usize,
}

/// Buckets in use at first: one huge page.
const START_BUCKETS: usize = (2 << 20) / std::mem::size_of::<Bucket>();

impl Table {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> Table {
        let bytes = mb.max(1) << 20;
        let capacity = (bytes / std::mem::size_of::<Bucket>()).max(1);
        Table {
            entries: ZeroedBuffer::new(capacity, true),
            buckets: capacity.min(START_BUCKETS),
            capacity,
            used: 0,
        }
    }

    /// Empties the table (a new problem).
    pub fn clear(&mut self) {
        // a fresh zeroed mapping instead of writing every entry: the kernel zeroes pages as they are touched
        let len = self.entries.len();
        self.entries = ZeroedBuffer::new(1, false); // the old table goes first: two never coexist
        self.entries = ZeroedBuffer::new(len, true);
        self.buckets = self.capacity.min(START_BUCKETS);
        self.used = 0;
    }

    /// The memory the table may fill, in megabytes.
    pub fn megabytes(&self) -> usize {
        (self.capacity * std::mem::size_of::<Bucket>()) >> 20
    }

    /// Occupied entries in permille of the whole table, for USI `hashfull`.
    pub fn hashfull(&self) -> u32 {
        (self.used as u64 * 1000 / (self.capacity * BUCKET) as u64) as u32
    }

    /// Doubles the buckets in use once half their entries are taken (the last step only up to the capacity).
    ///
    /// Why grow at all: a table spread over its whole memory from the start touches a new page with nearly every
    /// store, so a long search spends much of its time in page faults and TLB misses (4 KB pages: the kernel
    /// cannot give a huge page to a region already partly mapped), and a short one pays for zeroing pages it
    /// barely uses. Grown from one huge page, the part in use is dense and backed by huge pages.
    ///
    /// How the entries move: [`spread`].
    fn grow_if_full(&mut self) {
        if self.buckets >= self.capacity || self.used * 2 < self.buckets * BUCKET {
            return;
        }
        let buckets = (self.buckets * 2).min(self.capacity);
        self.used -= spread(&mut self.entries, self.buckets, buckets);
        self.buckets = buckets;
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        bucket_of(key, self.buckets)
    }

    /// Starts loading the keys of `key`'s bucket into the cache: the children of a node are probed one after another,
    /// each probe a miss in a large table, so their loads are started together first.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        prefetch_bucket(&self.entries[self.bucket(key)]);
    }

    /// [`TableRef::store`] on the table alone.
    fn store_data(&mut self, key: u64, new: Data) {
        let b = self.bucket(key);
        let (taken, freed) = self.entries[b].store(key, new);
        self.used = self.used + taken as usize - freed;
        if taken {
            self.grow_if_full();
        }
    }
}

/// The bucket of `key` among `buckets`: the high part of `key * buckets` (see [`Table::grow_if_full`]).
#[inline(always)]
fn bucket_of(key: u64, buckets: usize) -> usize {
    (((key as u128) * (buckets as u128)) >> 64) as usize
}

#[inline(always)]
fn prefetch_bucket(b: *const Bucket) {
    // no reference is made: another searcher may be writing the bucket
    // SAFETY: `b` points into the table; only addresses are computed.
    let (keys, data) = unsafe {
        (
            std::ptr::addr_of!((*b).keys) as *const u8,
            std::ptr::addr_of!((*b).data) as *const u8,
        )
    };
    prefetch(keys);
    // slots fill from the first, so the line after the keys holds most buckets' entries (the first three)
    prefetch(data);
}

/// Moves the entries of the first `old` buckets of `entries` to their buckets among `new` (more), and returns how
/// many were lost to full buckets. A bucket's index is the high part of `key * buckets`, so with `new` buckets
/// instead of `old` an entry of bucket `b` goes to one of `b * new / old ..= (b + 1) * new / old`, never below
/// `b`: walking the buckets from the last down, every target is either `b` itself (taken out first) or a bucket
/// already walked. With an exact doubling the two targets of `b` are its own; with a smaller last step (a memory
/// size that is not the start size times a power of two) neighbouring buckets share a target, and an entry that
/// finds it full replaces the one with the least effort behind it, as a store would.
fn spread(entries: &mut [Bucket], old: usize, new: usize) -> usize {
    let mut lost = 0;
    for b in (0..old).rev() {
        if entries[b].keys == [0; BUCKET] {
            // read, not written: a page never touched stays unmapped
            continue;
        }
        let moved = std::mem::take(&mut entries[b]);
        for (i, &k) in moved.keys.iter().enumerate() {
            if k == 0 {
                continue;
            }
            let nb = bucket_of(k, new);
            debug_assert!(nb >= b, "entries move up, into buckets already walked");
            let nb = &mut entries[nb];
            let e = moved.data[i];
            if let Some(slot) = nb.keys.iter().position(|&s| s == 0) {
                nb.keys[slot] = k;
                nb.data[slot] = e;
                continue;
            }
            lost += 1;
            let weakest = (0..BUCKET).min_by_key(|&j| nb.data[j].amount).unwrap_or(0);
            if nb.data[weakest].amount < e.amount {
                nb.keys[weakest] = k;
                nb.data[weakest] = e;
            }
        }
    }
    lost
}

/// The table as one searcher sees it: its own, or shared with other searchers.
pub enum TableRef<'a> {
    Own(&'a mut Table),
    Shared(SharedRef<'a>),
}

impl TableRef<'_> {
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        match self {
            TableRef::Own(t) => t.prefetch(key),
            TableRef::Shared(t) => t.prefetch(key),
        }
    }

    /// Looks up the position with board key `key`, attacker hand `hand`, searched with `depth` plies left.
    /// A proof applies when its pieces are dominated by `hand` and it is short enough; a disproof when its
    /// pieces dominate `hand` and it held for at least `depth`. Otherwise the exact entry's numbers are returned,
    /// tightened by the unsolved entries of dominated and dominating hands (a stronger hand is at least as hard
    /// to disprove, a weaker one at least as hard to prove).
    #[inline(always)]
    pub fn probe(
        &self,
        key: u64,
        hand: HandBits,
        depth: u16,
        default_pn: u32,
        default_dn: u32,
    ) -> Probe {
        let probe = |b: &Bucket| b.probe(key, hand, depth, default_pn, default_dn);
        match self {
            TableRef::Own(t) => probe(&t.entries[t.bucket(key)]),
            TableRef::Shared(r) => r.table.with_bucket(key, |b| probe(b)),
        }
    }

    /// Stores a result. A proof or disproof also drops the entries of the same board that it makes redundant.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn store(
        &mut self,
        key: u64,
        hand: HandBits,
        pn: u32,
        dn: u32,
        len: u16,
        mv: u16,
        amount: u64,
    ) {
        let new = Data::new(hand, pn, dn, len, mv, amount);
        match self {
            TableRef::Own(t) => t.store_data(key, new),
            TableRef::Shared(r) => r.store_data(key, new),
        }
    }

    /// A shared table's searcher pauses here for a growth (see [`SharedTable`]).
    #[inline(always)]
    pub fn pause_if_growing(&self) {
        if let TableRef::Shared(t) = self {
            t.pause_if_growing();
        }
    }

    pub fn hashfull(&self) -> u32 {
        match self {
            TableRef::Own(t) => t.hashfull(),
            TableRef::Shared(t) => t.table.hashfull(),
        }
    }

    pub fn megabytes(&self) -> usize {
        match self {
            TableRef::Own(t) => t.megabytes(),
            TableRef::Shared(t) => t.table.megabytes(),
        }
    }
}

impl Data {
    fn new(hand: HandBits, pn: u32, dn: u32, len: u16, mv: u16, amount: u64) -> Data {
        Data {
            hand: hand.raw(),
            pn,
            dn,
            amount: amount.clamp(1, u32::MAX as u64) as u32,
            len,
            mv,
        }
    }
}

impl Bucket {
    /// [`TableRef::probe`] in this bucket.
    fn probe(
        &self,
        key: u64,
        hand: HandBits,
        depth: u16,
        default_pn: u32,
        default_dn: u32,
    ) -> Probe {
        let bucket = self;
        let tag = tag(key);
        let mut r = Probe {
            pn: default_pn,
            dn: default_dn,
            len: 0,
            hand,
            mv: 0,
            found: false,
        };
        // most probes find nothing: all eight keys compared at once (vector compares), then only the matches read
        let mut matches = 0u32;
        for (i, &k) in bucket.keys.iter().enumerate() {
            matches |= ((k == tag) as u32) << i;
        }
        if matches == 0 {
            return r;
        }
        let mut best_proof: Option<&Data> = None;
        let mut other: Option<&Data> = None;
        while matches != 0 {
            let i = matches.trailing_zeros() as usize;
            matches &= matches - 1;
            let e = &bucket.data[i];
            let eh = HandBits::from_raw(e.hand);
            if e.pn == 0 {
                if hand.dominates(eh) && e.len <= depth && best_proof.is_none_or(|p| e.len < p.len)
                {
                    best_proof = Some(e);
                }
            } else if e.dn == 0 {
                if eh.dominates(hand) && e.len >= depth {
                    return Probe {
                        pn: INF,
                        dn: 0,
                        len: e.len,
                        hand: eh,
                        mv: e.mv,
                        found: true,
                    };
                }
            } else if e.len != depth {
                // numbers found with another depth left are kept apart (a node reached at two depths whose
                // numbers overwrote each other was expanded afresh at every visit: most of the shortening pass's
                // nodes on 将棋図巧 No. 1 and its 45-ply tail), and serve only where this depth has none
                if eh == hand && other.is_none() {
                    other = Some(e);
                }
            } else if eh == hand {
                r.pn = e.pn;
                r.dn = e.dn;
                r.mv = e.mv;
                r.found = true;
            } else if hand.dominates(eh) {
                r.dn = r.dn.max(e.dn);
            } else if eh.dominates(hand) {
                r.pn = r.pn.max(e.pn);
            }
        }
        if let (false, Some(e)) = (r.found, other) {
            r.pn = r.pn.max(e.pn);
            r.dn = r.dn.max(e.dn);
            r.mv = e.mv;
            r.found = true;
        }
        if let Some(e) = best_proof {
            return Probe {
                pn: 0,
                dn: INF,
                len: e.len,
                hand: HandBits::from_raw(e.hand),
                mv: e.mv,
                found: true,
            };
        }
        r
    }

    /// [`TableRef::store`] in this bucket: whether the entry took an empty slot, and how many entries it made
    /// redundant and freed.
    fn store(&mut self, key: u64, new: Data) -> (bool, usize) {
        let tag = tag(key);
        let (hand, pn, dn, len) = (HandBits::from_raw(new.hand), new.pn, new.dn, new.len);
        let bucket = self;
        let mut slot: Option<usize> = None;
        let mut freed = 0;
        for i in 0..BUCKET {
            let k = bucket.keys[i];
            if k == 0 {
                if slot.is_none() {
                    slot = Some(i);
                }
                continue;
            }
            if k != tag {
                continue;
            }
            let e = bucket.data[i];
            let eh = HandBits::from_raw(e.hand);
            // (an unsolved entry's `len` is the depth it was searched with)
            let redundant = if pn == 0 {
                // a proof with fewer pieces and no greater length covers it, and any unsolved entry it covers
                eh.dominates(hand) && e.dn != 0 && e.len >= len
            } else if dn == 0 {
                hand.dominates(eh) && e.pn != 0 && e.len <= len
            } else {
                // a solved entry for the same hand stays, and the unsolved one goes beside it: a node is searched
                // unsolved only where that proof is too long or that disproof too shallow for the depth, and
                // without its numbers a depth-limited search expands the node afresh on every visit (the
                // shortening pass of 将棋図巧 No. 1 could run past a minute that way)
                eh == hand && e.pn != 0 && e.dn != 0 && e.len == len
            };
            if redundant {
                if slot.is_none() {
                    bucket.data[i] = new;
                    slot = Some(i);
                    continue;
                }
                bucket.keys[i] = 0;
                bucket.data[i] = Data::default();
                freed += 1;
            }
        }
        match slot {
            Some(i) => {
                let fresh = bucket.keys[i] == 0;
                bucket.keys[i] = tag;
                bucket.data[i] = new;
                (fresh, freed)
            }
            None => {
                // replace the entry with the least effort behind it
                let i = (0..BUCKET)
                    .min_by_key(|&i| bucket.data[i].amount)
                    .unwrap_or(0);
                bucket.keys[i] = tag;
                bucket.data[i] = new;
                (false, freed)
            }
        }
    }
}

#[cfg(test)]
mod tests;
