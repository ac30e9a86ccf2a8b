//! The table shared by several searchers of one problem: per-bucket spin locks, and the growth that waits for
//! every searcher to pause (see [`SharedTable`]).

use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

use super::{bucket_of, prefetch_bucket, spread, Bucket, Data, Table, BUCKET};

impl Table {
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
    pub(super) fn with_bucket<R>(&self, key: u64, f: impl FnOnce(&mut Bucket) -> R) -> R {
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
    pub(super) table: &'a SharedTable<'a>,
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
    pub(super) fn store_data(&mut self, key: u64, new: Data) {
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
