//! Tsume solver benchmarks (divan): the long problems that are too slow for `cargo test`, solved with the limits
//! a user would give (`hayate mate --hash 256`), one sample each.
//!
//! Run with `cargo bench --bench tsume`. The full 69-ply 将棋図巧 No. 1 and Microcosmos are timed with
//! `hayate mate --suite tests/data/tsume/long.txt --hash 2048 --time 60000` (see tests/data/tsume/README.md).

// benchmarks of fixed, known-good inputs
#![allow(clippy::unwrap_used)]

use std::sync::atomic::AtomicBool;

use divan::Bencher;
use hayate::engine::tsume::{solve, tsume_position, DefenderHand, MateLimits, MateResult};
use hayate::Shogi;

fn main() {
    divan::main();
}

/// 将棋図巧 No. 1 from 33 and from 45 plies before its end (the first two lines of long.txt).
const ZUKO_1_TAILS: &[(&str, usize)] = &[
    (
        "1pG6/Gs+P6/pP7/n1lsS4/1k7/n3b4/1N+Bp5/1S7/9 b RPr2gn3l12p 1",
        33,
    ),
    (
        "1pG6/Gs+P6/pP7/n1lsS4/1k7/n5b2/1N+Bp5/1S7/9 b RPr2gn3l12p 1",
        45,
    ),
];

#[divan::bench(args = [33, 45], sample_count = 1, sample_size = 1)]
fn zuko_1_tail(bencher: Bencher, plies: usize) {
    let Some(&(sfen, _)) = ZUKO_1_TAILS.iter().find(|p| p.1 == plies) else {
        panic!("no {plies}-ply problem")
    };
    let pos = tsume_position::<Shogi>(sfen, DefenderHand::FillIfEmpty).expect("valid sfen");
    let limits = MateLimits {
        hash_mb: 256,
        ..MateLimits::default()
    };
    bencher.bench(|| {
        let r = solve(&pos, &limits, &AtomicBool::new(false), None);
        assert!(matches!(r.result, MateResult::Mate(_)));
        assert_eq!(r.length, Some(plies));
    });
}

/// The 45-ply tail with one and with two searchers on one table (`hayate mate --threads`): the second searcher's
/// gain in wall time, side by side.
#[divan::bench(args = [1, 2], sample_count = 1, sample_size = 1)]
fn zuko_1_tail_45_searchers(bencher: Bencher, threads: usize) {
    let pos =
        tsume_position::<Shogi>(ZUKO_1_TAILS[1].0, DefenderHand::FillIfEmpty).expect("valid sfen");
    let limits = MateLimits {
        hash_mb: 256,
        threads,
        ..MateLimits::default()
    };
    bencher.bench(|| {
        let r = solve(&pos, &limits, &AtomicBool::new(false), None);
        assert!(matches!(r.result, MateResult::Mate(_)));
        assert_eq!(r.length, Some(45));
    });
}
