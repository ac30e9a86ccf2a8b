//! The positions on the current path, for the repetition test.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Keys are already random: hash them as they are.
#[derive(Default)]
pub struct KeyHasher(u64);
impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("only u64 keys are hashed")
    }
    fn write_u64(&mut self, k: u64) {
        self.0 = k;
    }
}
type PathSet = HashMap<u64, u16, BuildHasherDefault<KeyHasher>>;

/// Slots of the path's filter.
const PATH_FILTER: usize = 1 << 12;

/// The positions on the current path (full keys, with their plies), for the repetition test of every child.
/// Nearly every child is off the path: a count per slot of some key bits (8 KB, in the first-level cache)
/// answers those without a hash-map lookup.
pub(super) struct Path {
    plies: PathSet,
    filter: Box<[u16; PATH_FILTER]>,
}

impl Path {
    pub(super) fn new() -> Path {
        Path {
            plies: PathSet::default(),
            filter: Box::new([0; PATH_FILTER]),
        }
    }

    #[inline(always)]
    pub(super) fn slot(key: u64) -> usize {
        // the map's hash uses the key's low and high bits; the filter uses others
        (key >> 20) as usize & (PATH_FILTER - 1)
    }

    #[inline(always)]
    pub(super) fn get(&self, key: u64) -> Option<u16> {
        if self.filter[Self::slot(key)] == 0 {
            return None;
        }
        self.plies.get(&key).copied()
    }

    pub(super) fn insert(&mut self, key: u64, ply: u16) {
        if self.plies.insert(key, ply).is_none() {
            self.filter[Self::slot(key)] += 1;
        }
    }

    pub(super) fn remove(&mut self, key: u64) {
        if self.plies.remove(&key).is_some() {
            self.filter[Self::slot(key)] -= 1;
        }
    }

    pub(super) fn clear(&mut self) {
        self.plies.clear();
        self.filter.fill(0);
    }
}
