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

use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

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

    /// Lets several searchers use the table at once for the span of `f` (see [`SharedTable`]).
    pub fn share<R>(&mut self, f: impl FnOnce(&SharedTable) -> R) -> R {
        let shared = SharedTable {
            base: self.entries.as_mut_ptr(),
            capacity: self.capacity,
            buckets: AtomicUsize::new(self.buckets),
            used: AtomicUsize::new(self.used),
            grow: AtomicBool::new(false),
            prepared: AtomicUsize::new(self.buckets),
            preparing: AtomicBool::new(false),
            rendezvous: Mutex::new(Rendezvous::default()),
            resume: Condvar::new(),
            locks: (0..LOCKS).map(|_| Lock::default()).collect(),
            _table: PhantomData,
        };
        let r = f(&shared);
        self.buckets = shared.buckets.into_inner();
        self.used = shared.used.into_inner();
        r
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

/// Spin locks for the buckets of a [`SharedTable`], one per cache line (two searchers taking neighbouring locks
/// would otherwise pass the line back and forth), each bucket under lock `index % LOCKS`.
const LOCKS: usize = 1 << 10;

#[derive(Default)]
#[repr(align(64))]
struct Lock(AtomicBool);

/// A searcher's entries added less those freed, gathered before they go to the shared count (one shared line
/// written by every store would pass between the searchers' cores).
const PENDING: isize = 256;

/// The searchers of a shared table, for its growth.
#[derive(Default)]
struct Rendezvous {
    /// Searchers that use the table.
    active: usize,
    /// Searchers paused for the growth.
    waiting: usize,
    /// Growths done, to tell a paused searcher that its growth is over.
    growths: u64,
}

/// The table as several searchers see it at once. A bucket's entries are several words each, and an entry read
/// half written could claim a proof for another position: each bucket is read and written under its lock (with
/// two searchers the locks are nearly always free, and an uncontended lock costs far less than the probe's own
/// wait for memory).
///
/// It grows as the table alone does, and for the same reasons (a small search spread over the whole memory ran
/// ten times slower, in page faults). Growing moves entries between buckets, which no searcher may see half
/// done: the store that finds the table half full raises `grow`, each searcher pauses at its next node (where it
/// holds no lock and nothing read from the table but copies), and the last to pause, or to leave, grows it.
pub struct SharedTable<'t> {
    base: *mut Bucket,
    capacity: usize,
    /// Buckets in use; changed only while every searcher is paused (or gone).
    buckets: AtomicUsize,
    /// Entries in use, less what the searchers have not passed on yet.
    used: AtomicUsize,
    grow: AtomicBool,
    /// Buckets whose memory is already mapped (see [`SharedTable::prepare`]), and whether a searcher is mapping
    /// more.
    prepared: AtomicUsize,
    preparing: AtomicBool,
    rendezvous: Mutex<Rendezvous>,
    resume: Condvar,
    locks: Box<[Lock]>,
    _table: PhantomData<&'t mut Table>,
}

// SAFETY: the buckets behind `base` are reached only under their lock (`with_bucket`) or by the growth, which runs
// while every other searcher is paused or gone; the table they belong to is borrowed mutably for the shared
// table's whole life.
unsafe impl Sync for SharedTable<'_> {}

impl SharedTable<'_> {
    /// A searcher's access to the table; the table counts it among those a growth waits for until it is dropped.
    pub fn join(&self) -> SharedRef<'_> {
        self.rendezvous().active += 1;
        SharedRef {
            table: self,
            pending: 0,
        }
    }

    fn rendezvous(&self) -> std::sync::MutexGuard<'_, Rendezvous> {
        // the growth holds no invariant that a panic elsewhere could break: a poisoned lock is still good
        self.rendezvous.lock().unwrap_or_else(|e| e.into_inner())
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        bucket_of(key, self.buckets.load(Ordering::Relaxed))
    }

    #[inline(always)]
    fn with_bucket<R>(&self, key: u64, f: impl FnOnce(&mut Bucket) -> R) -> R {
        let b = self.bucket(key);
        let lock = &self.locks[b % LOCKS].0;
        while lock
            .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            while lock.load(Ordering::Relaxed) {
                std::hint::spin_loop();
            }
        }
        // SAFETY: `b < buckets <= capacity`, which the buffer holds; the lock makes this the bucket's only access.
        let r = f(unsafe { &mut *self.base.add(b) });
        lock.store(false, Ordering::Release);
        r
    }

    /// Passes on a searcher's count of entries added (less those freed), and asks for a growth once half the
    /// entries in use are taken (see [`Table::grow_if_full`]).
    fn add(&self, pending: isize) {
        let used = if pending >= 0 {
            self.used.fetch_add(pending as usize, Ordering::Relaxed) + pending as usize
        } else {
            self.used
                .fetch_sub(pending.unsigned_abs(), Ordering::Relaxed)
                .saturating_sub(pending.unsigned_abs())
        };
        let buckets = self.buckets.load(Ordering::Relaxed);
        if buckets >= self.capacity {
            return;
        }
        if used * 2 >= buckets * BUCKET {
            self.grow.store(true, Ordering::Relaxed);
        } else if used * 8 >= buckets * BUCKET * 3 {
            self.prepare(buckets, (buckets * 2).min(self.capacity));
        }
    }

    /// Maps the memory of the buckets the next growth will use, `from..to`, by writing to each page, before the
    /// growth: the kernel zeroes each page at its first write, and done during the growth that work kept every
    /// other searcher waiting (将棋図巧 No. 1, two searchers: a tenth of all the time). No searcher reads or
    /// writes buckets beyond those in use, and the growth waits for this searcher.
    fn prepare(&self, from: usize, to: usize) {
        if self.prepared.load(Ordering::Relaxed) >= to
            || self.preparing.swap(true, Ordering::Relaxed)
        {
            return;
        }
        const PAGE: usize = 4096;
        let start = self.base.wrapping_add(from) as usize;
        let end = self.base.wrapping_add(to) as usize;
        let mut page = start.next_multiple_of(PAGE);
        while page < end {
            // SAFETY: inside the buffer (`to <= capacity`), in buckets no other searcher touches (see above);
            // the byte written is the zero it holds.
            unsafe { std::ptr::write_volatile(page as *mut u8, 0) };
            page += PAGE;
        }
        self.prepared.store(to, Ordering::Relaxed);
        self.preparing.store(false, Ordering::Relaxed);
    }

    /// Where a searcher pauses for a growth that was asked for; the last to pause grows the table.
    fn pause(&self) {
        let mut r = self.rendezvous();
        if !self.grow.load(Ordering::Relaxed) {
            return;
        }
        r.waiting += 1;
        if r.waiting == r.active {
            self.grow_now(&mut r);
            return;
        }
        let growths = r.growths;
        while r.growths == growths {
            r = self.resume.wait(r).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// A searcher is done with the table; if the others are all paused for a growth, it grows the table.
    fn leave(&self) {
        let mut r = self.rendezvous();
        r.active -= 1;
        if r.waiting > 0 && r.waiting == r.active {
            self.grow_now(&mut r);
        }
    }

    fn grow_now(&self, r: &mut Rendezvous) {
        let old = self.buckets.load(Ordering::Relaxed);
        let new = (old * 2).min(self.capacity);
        // SAFETY: every other searcher of the table is paused in `pause` or gone (`r` counts them), and none
        // holds a reference into the buckets: this is the only access.
        let entries = unsafe { std::slice::from_raw_parts_mut(self.base, self.capacity) };
        let lost = spread(entries, old, new);
        self.used.fetch_sub(lost, Ordering::Relaxed);
        self.buckets.store(new, Ordering::Relaxed);
        self.grow.store(false, Ordering::Relaxed);
        r.waiting = 0;
        r.growths += 1;
        self.resume.notify_all();
    }

    /// [`Table::hashfull`].
    pub fn hashfull(&self) -> u32 {
        (self.used.load(Ordering::Relaxed) as u64 * 1000 / (self.capacity * BUCKET) as u64) as u32
    }

    /// [`Table::megabytes`].
    pub fn megabytes(&self) -> usize {
        (self.capacity * std::mem::size_of::<Bucket>()) >> 20
    }
}

/// One searcher's access to a [`SharedTable`].
pub struct SharedRef<'a> {
    table: &'a SharedTable<'a>,
    /// Entries added less entries freed, not yet passed on to the table's count.
    pending: isize,
}

impl SharedRef<'_> {
    /// [`Table::prefetch`].
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        prefetch_bucket(self.table.base.wrapping_add(self.table.bucket(key)));
    }

    /// [`TableRef::store`] on a shared table.
    fn store_data(&mut self, key: u64, new: Data) {
        let (taken, freed) = self.table.with_bucket(key, |b| b.store(key, new));
        self.pending += taken as isize - freed as isize;
        if self.pending.abs() >= PENDING {
            self.table.add(std::mem::take(&mut self.pending));
        }
    }

    /// Pauses for a growth if one was asked for (the searcher must hold nothing read from the table but copies).
    #[inline(always)]
    pub fn pause_if_growing(&self) {
        if self.table.grow.load(Ordering::Relaxed) {
            self.table.pause();
        }
    }
}

impl Drop for SharedRef<'_> {
    fn drop(&mut self) {
        self.table.add(std::mem::take(&mut self.pending));
        self.table.leave();
    }
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
mod tests {
    use super::*;
    use crate::rules::piece::Kind;

    #[test]
    fn proofs_cover_stronger_hands_and_disproofs_weaker_ones() {
        let mut t = Table::new(1);
        let g = HandBits::EMPTY.plus(Kind::Gold);
        let gs = g.plus(Kind::Silver);
        TableRef::Own(&mut t).store(42, g, 0, INF, 5, 0, 10);
        assert_eq!(TableRef::Own(&mut t).probe(42, gs, 100, 1, 1).pn, 0);
        assert_eq!(
            TableRef::Own(&mut t).probe(42, gs, 3, 1, 1).pn,
            1,
            "a 5-ply proof is no proof within 3 plies"
        );
        assert_eq!(
            TableRef::Own(&mut t)
                .probe(42, HandBits::EMPTY, 100, 1, 1)
                .pn,
            1
        );
        TableRef::Own(&mut t).store(7, gs, INF, 0, DEPTH_INF, 0, 10);
        assert_eq!(TableRef::Own(&mut t).probe(7, g, 100, 1, 1).dn, 0);
        assert_eq!(
            TableRef::Own(&mut t)
                .probe(7, gs.plus(Kind::Rook), 100, 1, 1)
                .dn,
            1
        );
        assert!(t.hashfull() < 1000);
    }

    /// A size that is not the start size times a power of two: the last growth is less than a doubling, and the
    /// search must go on through it (it once ended in a panic at 48 MB).
    #[test]
    fn growing_to_an_odd_capacity_keeps_the_table_consistent() {
        let mut t = Table::new(3);
        assert_ne!(t.capacity % START_BUCKETS, 0);
        let keys: Vec<u64> = (1..=60_000u64)
            .map(|i| {
                // SplitMix64's finaliser: keys as random as Zobrist keys (a multiplicative sequence spreads
                // over the buckets too evenly to fill any)
                let mut z = i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                z ^ (z >> 31)
            })
            .collect();
        for (i, &k) in keys.iter().enumerate() {
            TableRef::Own(&mut t).store(
                k,
                HandBits::EMPTY,
                0,
                INF,
                (i % 100) as u16,
                0,
                1 + i as u64,
            );
        }
        assert_eq!(t.buckets, t.capacity, "the table grew to its whole memory");
        let held: usize = (0..t.buckets)
            .map(|b| t.entries[b].keys.iter().filter(|&&k| k != 0).count())
            .sum();
        assert_eq!(held, t.used, "the count of entries in use stays exact");
        let mut found = 0;
        for (i, &k) in keys.iter().enumerate() {
            let p = TableRef::Own(&mut t).probe(k, HandBits::EMPTY, DEPTH_INF, 1, 1);
            if p.found {
                assert_eq!((p.pn, p.len), (0, (i % 100) as u16), "key {i}");
                found += 1;
            }
        }
        assert!(found > 55_000, "{found} of 60000 entries kept");
    }

    /// Two searchers storing at once through a shared table that grows under them (each pausing for the growth
    /// as a searcher does at every node): every entry stays readable, and the count of entries in use stays exact.
    #[test]
    fn a_shared_table_grows_under_two_searchers_and_keeps_every_entry() {
        let mut t = Table::new(16);
        let start = t.buckets;
        // keys spread evenly, as in `growing_keeps_every_entry`: no bucket overflows, so none is lost
        let key = |i: u64| i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        t.share(|shared| {
            std::thread::scope(|scope| {
                for half in 0..2u64 {
                    let mut r = TableRef::Shared(shared.join());
                    scope.spawn(move || {
                        for i in (1 + half * 20_000)..=(20_000 + half * 20_000) {
                            r.pause_if_growing();
                            r.store(key(i), HandBits::EMPTY, 0, INF, (i % 100) as u16, 0, 1);
                            let p = r.probe(key(i), HandBits::EMPTY, DEPTH_INF, 1, 1);
                            assert_eq!((p.pn, p.len), (0, (i % 100) as u16), "key {i}");
                        }
                    });
                }
            });
        });
        assert!(t.buckets > start, "the table grew while shared");
        let held: usize = (0..t.buckets)
            .map(|b| t.entries[b].keys.iter().filter(|&&k| k != 0).count())
            .sum();
        assert_eq!(held, t.used, "the count of entries in use stays exact");
        for i in 1..=40_000u64 {
            let p = TableRef::Own(&mut t).probe(key(i), HandBits::EMPTY, DEPTH_INF, 1, 1);
            assert_eq!((p.pn, p.len), (0, (i % 100) as u16), "key {i}");
        }
    }

    #[test]
    fn growing_keeps_every_entry() {
        let mut t = Table::new(8);
        let keys: Vec<u64> = (1..=40_000u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        for (i, &k) in keys.iter().enumerate() {
            TableRef::Own(&mut t).store(k, HandBits::EMPTY, 0, INF, (i % 100) as u16, 0, 1);
        }
        assert!(t.buckets > START_BUCKETS, "the table grew");
        for (i, &k) in keys.iter().enumerate() {
            let p = TableRef::Own(&mut t).probe(k, HandBits::EMPTY, DEPTH_INF, 1, 1);
            assert_eq!((p.pn, p.len), (0, (i % 100) as u16), "key {i}");
        }
    }
}
