//! Move generation benchmarks (divan): perft from each game's start position, and legal move generation
//! (`GenMode::All` and `GenMode::Captures`) on middlegame positions taken from the perft suites in `perft/`, named
//! by their number of legal moves (the maximum-mobility shogi position has no capture); and `is_legal`, which decides
//! one move directly, against `is_legal_by_generation`, which generates every legal move to look for it.
//!
//! Run with `cargo bench --bench movegen`; `cargo bench --bench movegen -- --help` lists divan's options.

// benchmarks of fixed, known-good inputs
#![allow(clippy::unwrap_used)]

use std::fmt;

use divan::counter::ItemsCount;
use divan::{black_box, Bencher};
use hayate::rules::movegen::GenMode;
use hayate::rules::perft::perft;
use hayate::{Minishogi, Move, MoveList, Position, Shogi, Variant, Yari};

fn main() {
    divan::main();
}

/// A suite position, shown in the report by its short name.
#[derive(Clone, Copy)]
struct Named {
    name: &'static str,
    sfen: &'static str,
}

impl fmt::Display for Named {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

const SHOGI_POSITIONS: &[Named] = &[
    Named {
        name: "drops-207",
        sfen: "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    },
    Named {
        name: "playout-46",
        sfen: "lnsgk1snl/5g1s1/+Rp1ppp1pp/2p3p2/7b1/1P7/P2PPPPPP/2G1KSGR1/LN+b4NL w Pp 20",
    },
    Named {
        name: "playout-79",
        sfen: "2s1ksg1l/9/+Ppnppp1pp/9/s2P1b3/2P1NPP2/4PBpPP/G4SLR1/1K1GG2NL w NL3Pr 60",
    },
    Named {
        name: "max-593",
        sfen: "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    },
];

const MINISHOGI_POSITIONS: &[Named] = &[
    Named {
        name: "playout-60",
        sfen: "1R1gk/3r1/2B2/2G2/KS3 b SPbp 31",
    },
    Named {
        name: "playout-47",
        sfen: "5/1bsk1/P4/3S1/KG3 w RBGrp 28",
    },
    Named {
        name: "playout-26",
        sfen: "R2g1/r1sk1/4P/P1GB1/K1S2 w b 16",
    },
];

const YARI_POSITIONS: &[Named] = &[
    Named {
        name: "playout-111",
        sfen: "r5r/1k5/p1R1bpp/7/P6/2b1nPP/2P2+nb/1K5/1R5 w 2N4Pb3p 52",
    },
    Named {
        name: "playout-40",
        sfen: "3k2r/r3b2/p+Bn1pbp/2ppP2/2P2p1/6P/PP1P1+n1/B1K1NN1/4R1R b Pp 33",
    },
    Named {
        name: "playout-27",
        sfen: "1nk1b1r/5b1/1p+PR1+Np/p4n1/2pp1p1/Br2N1P/1B2PP1/PK5/R6 w 3P 60",
    },
];

/// Perft from the start position; the counter reports leaf nodes per second.
fn perft_startpos<V: Variant>(bencher: Bencher, depth: u32) {
    let mut pos = Position::<V>::startpos();
    let nodes = perft(&mut pos, depth);
    bencher
        .counter(ItemsCount::new(nodes))
        .bench_local(|| perft(&mut pos, black_box(depth)));
}

/// One call of the legal move generator in `mode`; the counter reports generated moves per second.
fn generate<V: Variant>(bencher: Bencher, p: Named, mode: GenMode) {
    let pos =
        Position::<V>::from_sfen(p.sfen).unwrap_or_else(|e| panic!("{}: bad SFEN: {e}", p.sfen));
    let mut list = MoveList::new();
    pos.generate(mode, &mut list);
    bencher
        .counter(ItemsCount::new(list.len()))
        .bench_local(|| {
            let mut list = MoveList::new();
            black_box(&pos).generate(black_box(mode), &mut list);
            list.len()
        });
}

/// Legality of a mix of moves, as the search's staged picker asks it of hash and killer moves: the position's
/// legal moves and those of the position after its first move (the other side's, mostly illegal here). The
/// counter reports moves checked per second.
fn legality<V: Variant>(bencher: Bencher, p: Named, fast: bool) {
    let mut pos =
        Position::<V>::from_sfen(p.sfen).unwrap_or_else(|e| panic!("{}: bad SFEN: {e}", p.sfen));
    let mut moves: Vec<Move> = pos.legal_moves().to_vec();
    pos.do_move(moves[0]);
    moves.extend(pos.legal_moves().iter().copied());
    pos.undo_move();
    bencher
        .counter(ItemsCount::new(moves.len()))
        .bench_local(|| {
            let pos = black_box(&pos);
            moves
                .iter()
                .filter(|&&m| {
                    if fast {
                        pos.is_legal(m)
                    } else {
                        pos.is_legal_by_generation(m)
                    }
                })
                .count()
        });
}

mod perft_startpos {
    use super::*;

    #[divan::bench]
    fn shogi_d4(bencher: Bencher) {
        perft_startpos::<Shogi>(bencher, 4);
    }

    #[divan::bench]
    fn minishogi_d5(bencher: Bencher) {
        perft_startpos::<Minishogi>(bencher, 5);
    }

    #[divan::bench]
    fn yari_d4(bencher: Bencher) {
        perft_startpos::<Yari>(bencher, 4);
    }
}

mod generate_all {
    use super::*;

    #[divan::bench(args = SHOGI_POSITIONS)]
    fn shogi(bencher: Bencher, p: Named) {
        generate::<Shogi>(bencher, p, GenMode::All);
    }

    #[divan::bench(args = MINISHOGI_POSITIONS)]
    fn minishogi(bencher: Bencher, p: Named) {
        generate::<Minishogi>(bencher, p, GenMode::All);
    }

    #[divan::bench(args = YARI_POSITIONS)]
    fn yari(bencher: Bencher, p: Named) {
        generate::<Yari>(bencher, p, GenMode::All);
    }
}

mod generate_captures {
    use super::*;

    #[divan::bench(args = SHOGI_POSITIONS)]
    fn shogi(bencher: Bencher, p: Named) {
        generate::<Shogi>(bencher, p, GenMode::Captures);
    }

    #[divan::bench(args = MINISHOGI_POSITIONS)]
    fn minishogi(bencher: Bencher, p: Named) {
        generate::<Minishogi>(bencher, p, GenMode::Captures);
    }

    #[divan::bench(args = YARI_POSITIONS)]
    fn yari(bencher: Bencher, p: Named) {
        generate::<Yari>(bencher, p, GenMode::Captures);
    }
}

mod is_legal {
    use super::*;

    #[divan::bench(args = SHOGI_POSITIONS)]
    fn shogi(bencher: Bencher, p: Named) {
        legality::<Shogi>(bencher, p, true);
    }

    #[divan::bench(args = MINISHOGI_POSITIONS)]
    fn minishogi(bencher: Bencher, p: Named) {
        legality::<Minishogi>(bencher, p, true);
    }

    #[divan::bench(args = YARI_POSITIONS)]
    fn yari(bencher: Bencher, p: Named) {
        legality::<Yari>(bencher, p, true);
    }
}

mod is_legal_by_generation {
    use super::*;

    #[divan::bench(args = SHOGI_POSITIONS)]
    fn shogi(bencher: Bencher, p: Named) {
        legality::<Shogi>(bencher, p, false);
    }

    #[divan::bench(args = MINISHOGI_POSITIONS)]
    fn minishogi(bencher: Bencher, p: Named) {
        legality::<Minishogi>(bencher, p, false);
    }

    #[divan::bench(args = YARI_POSITIONS)]
    fn yari(bencher: Bencher, p: Named) {
        legality::<Yari>(bencher, p, false);
    }
}
