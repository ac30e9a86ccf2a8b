//! Disproofs that rest on a repetition, remembered for the path they were found on.
//!
//! Such a disproof holds only while the repeated ancestor is on the path, so the table never gets it (see
//! `dfpn`), and without it a node whose every line ends in a repetition or at the depth limit is disproven again
//! on every visit: the shortening pass's last search (the one that fails) spent most of its nodes that way, once
//! tens of millions. A path is named by a key built from the search's start and the moves from there; the same
//! key means the same ancestors, the same depth left and the same hand, so the disproof holds there again. A small
//! direct-mapped cache is enough: the repeated visits come close together (a 1 MB one, missing the processor's
//! cache on every lookup, made 将棋図巧 No. 1 a sixth slower).

use super::hands::HandBits;
use crate::rules::moves::Move;

/// Small enough to stay in the cache: it is looked up for every unsolved child.
const SLOTS: usize = 1 << 12;

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    hand: u32,
    len: u16,
    rep: u16,
}

pub struct RepCache {
    slots: Vec<Slot>,
    searches: u64,
}

/// A disproof found through a repetition: disproof pieces, the depth it holds for, the repeated ancestor's ply.
#[derive(Clone, Copy)]
pub struct RepDisproof {
    pub hand: HandBits,
    pub len: u16,
    pub rep: u16,
}

/// SplitMix64's finaliser: path keys must not collide for paths that differ in one move.
#[inline(always)]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl RepCache {
    pub fn new() -> RepCache {
        RepCache {
            slots: vec![Slot::default(); SLOTS],
            searches: 0,
        }
    }

    /// The path key of a new search's start: each search has its own, since its depth limit and the ply of its
    /// start may differ (entries of earlier searches are then never matched, only overwritten).
    pub fn start(&mut self) -> u64 {
        self.searches += 1;
        mix(self.searches.wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }

    #[inline(always)]
    pub fn child(path: u64, m: Move) -> u64 {
        mix(path ^ (m.raw() as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }

    #[inline(always)]
    pub fn get(&self, path: u64) -> Option<RepDisproof> {
        let s = self.slots[path as usize & (SLOTS - 1)];
        (s.key == path && path != 0).then(|| RepDisproof {
            hand: HandBits::from_raw(s.hand),
            len: s.len,
            rep: s.rep,
        })
    }

    pub fn put(&mut self, path: u64, d: RepDisproof) {
        self.slots[path as usize & (SLOTS - 1)] = Slot {
            key: path,
            hand: d.hand.raw(),
            len: d.len,
            rep: d.rep,
        };
    }
}
