//! The table's own tests: hand domination, growth, and sharing.

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
