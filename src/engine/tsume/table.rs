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

use super::hands::HandBits;
use crate::engine::zeroed::{prefetch, ZeroValid, ZeroedBuffer};

/// Proof and disproof numbers: `INF` marks the solved side.
pub const INF: u32 = 1 << 30;
/// A depth (remaining plies) that means "no limit".
pub const DEPTH_INF: u16 = 60_000;

const BUCKET: usize = 8;

#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    key: u64,
    hand: u32,
    pn: u32,
    dn: u32,
    /// Search effort (nodes) spent below this entry; 0 marks an empty slot.
    amount: u32,
    /// Proven: the proof's length. Disproven: the depth limit the disproof holds for. Unsolved: the depth searched with.
    len: u16,
    mv: u16,
}

// SAFETY: an entry is plain integers; all zeros is the empty slot.
unsafe impl ZeroValid for Entry {}

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
    entries: ZeroedBuffer<Entry>,
    /// Buckets in use: the table starts small and doubles as it fills (see [`Table::grow`]).
    buckets: usize,
    /// Buckets the memory holds.
    capacity: usize,
    used: usize,
}

/// Buckets in use at first: one huge page.
const START_BUCKETS: usize = (2 << 20) / (BUCKET * std::mem::size_of::<Entry>());

impl Table {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> Table {
        let bytes = mb.max(1) << 20;
        let capacity = Self::capacity_for(bytes / (BUCKET * std::mem::size_of::<Entry>()));
        Table {
            entries: ZeroedBuffer::new(capacity * BUCKET, true),
            buckets: capacity.min(START_BUCKETS),
            capacity,
            used: 0,
        }
    }

    /// The usable bucket count: the start size times a power of two (each growth doubles the buckets in use, so
    /// that every entry moves to one of two buckets), at most `max` — the rounding loses less than a
    /// `START_BUCKETS`-th of the memory.
    fn capacity_for(max: usize) -> usize {
        let max = max.max(1);
        if max <= START_BUCKETS {
            return max;
        }
        let shift = (max / START_BUCKETS).ilog2();
        (max >> shift) << shift
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

    /// Occupied entries in permille of the whole table, for USI `hashfull`.
    pub fn hashfull(&self) -> u32 {
        (self.used as u64 * 1000 / (self.capacity * BUCKET) as u64) as u32
    }

    /// Doubles the buckets in use once half their entries are taken.
    ///
    /// Why grow at all: a table spread over its whole memory from the start touches a new page with nearly every
    /// store, so a long search spends much of its time in page faults and TLB misses (4 KB pages: the kernel
    /// cannot give a huge page to a region already partly mapped), and a short one pays for zeroing pages it
    /// barely uses. Grown from one huge page, the part in use is dense and backed by huge pages.
    ///
    /// A bucket's index is the high part of `key * buckets`, so with twice the buckets an entry of bucket `b`
    /// goes to `2b` or `2b + 1`; walking the buckets from the last down, those two are empty when `b` is moved.
    fn grow_if_full(&mut self) {
        if self.buckets >= self.capacity || self.used * 2 < self.buckets * BUCKET {
            return;
        }
        let old = self.buckets;
        self.buckets = (old * 2).min(self.capacity);
        debug_assert_eq!(
            self.buckets,
            old * 2,
            "the capacity is the start size times a power of two"
        );
        for b in (0..old).rev() {
            let mut moved = [Entry::default(); BUCKET];
            moved.copy_from_slice(&self.entries[b * BUCKET..(b + 1) * BUCKET]);
            self.entries[b * BUCKET..(b + 1) * BUCKET].fill(Entry::default());
            for e in moved {
                if e.amount == 0 {
                    continue;
                }
                let nb = self.bucket(e.key);
                let Some(slot) = self.entries[nb..nb + BUCKET]
                    .iter_mut()
                    .find(|s| s.amount == 0)
                else {
                    unreachable!("the two buckets an old one splits into start empty")
                };
                *slot = e;
            }
        }
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        (((key as u128) * (self.buckets as u128)) >> 64) as usize * BUCKET
    }

    /// Starts loading the bucket of `key` into the cache: the children of a node are probed one after another,
    /// each probe a miss in a large table, so their loads are started together first.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        let p = self.entries[self.bucket(key)..].as_ptr();
        const LINE: usize = 64 / std::mem::size_of::<Entry>();
        for i in (0..BUCKET).step_by(LINE) {
            prefetch(p.wrapping_add(i));
        }
    }

    /// Looks up the position with board key `key`, attacker hand `hand`, searched with `depth` plies left.
    /// A proof applies when its pieces are dominated by `hand` and it is short enough; a disproof when its
    /// pieces dominate `hand` and it held for at least `depth`. Otherwise the exact entry's numbers are returned,
    /// tightened by the unsolved entries of dominated and dominating hands (a stronger hand is at least as hard
    /// to disprove, a weaker one at least as hard to prove).
    pub fn probe(
        &self,
        key: u64,
        hand: HandBits,
        depth: u16,
        default_pn: u32,
        default_dn: u32,
    ) -> Probe {
        let b = self.bucket(key);
        let mut r = Probe {
            pn: default_pn,
            dn: default_dn,
            len: 0,
            hand,
            mv: 0,
            found: false,
        };
        let mut best_proof: Option<&Entry> = None;
        let mut other: Option<&Entry> = None;
        for e in &self.entries[b..b + BUCKET] {
            if e.amount == 0 || e.key != key {
                continue;
            }
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

    /// Stores a result. A proof or disproof also drops the entries of the same board that it makes redundant.
    #[allow(clippy::too_many_arguments)]
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
        let b = self.bucket(key);
        let amount = amount.clamp(1, u32::MAX as u64) as u32;
        let new = Entry {
            key,
            hand: hand.raw(),
            pn,
            dn,
            amount,
            len,
            mv,
        };
        let mut slot: Option<usize> = None;
        for i in b..b + BUCKET {
            let e = self.entries[i];
            if e.amount == 0 {
                if slot.is_none() {
                    slot = Some(i);
                }
                continue;
            }
            if e.key != key {
                continue;
            }
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
                    self.entries[i] = new;
                    slot = Some(i);
                    continue;
                }
                self.entries[i] = Entry::default();
                self.used -= 1;
            }
        }
        match slot {
            Some(i) => {
                let fresh = self.entries[i].amount == 0;
                self.entries[i] = new;
                if fresh {
                    self.used += 1;
                    self.grow_if_full();
                }
            }
            None => {
                // replace the entry with the least effort behind it
                let i = (b..b + BUCKET)
                    .min_by_key(|&i| self.entries[i].amount)
                    .unwrap_or(b);
                self.entries[i] = new;
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
        t.store(42, g, 0, INF, 5, 0, 10);
        assert_eq!(t.probe(42, gs, 100, 1, 1).pn, 0);
        assert_eq!(
            t.probe(42, gs, 3, 1, 1).pn,
            1,
            "a 5-ply proof is no proof within 3 plies"
        );
        assert_eq!(t.probe(42, HandBits::EMPTY, 100, 1, 1).pn, 1);
        t.store(7, gs, INF, 0, DEPTH_INF, 0, 10);
        assert_eq!(t.probe(7, g, 100, 1, 1).dn, 0);
        assert_eq!(t.probe(7, gs.plus(Kind::Rook), 100, 1, 1).dn, 1);
        assert!(t.hashfull() < 1000);
    }

    #[test]
    fn growing_keeps_every_entry() {
        let mut t = Table::new(8);
        let keys: Vec<u64> = (1..=40_000u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        for (i, &k) in keys.iter().enumerate() {
            t.store(k, HandBits::EMPTY, 0, INF, (i % 100) as u16, 0, 1);
        }
        assert!(t.buckets > START_BUCKETS, "the table grew");
        for (i, &k) in keys.iter().enumerate() {
            let p = t.probe(k, HandBits::EMPTY, DEPTH_INF, 1, 1);
            assert_eq!((p.pn, p.len), (0, (i % 100) as u16), "key {i}");
        }
    }
}
