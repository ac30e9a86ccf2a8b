//! `hayate bench`: a fixed list of positions per game searched to a fixed depth. With one thread the node
//! count is the same on every run and serves as the search's signature.

use std::time::Instant;

use crate::engine::eval::GameEval;
use crate::engine::search::{Limits, Searcher, TimeOptions};
use crate::rules::position::notation::move_to_usi;
use crate::rules::position::sfen::SfenError;
use crate::rules::position::Position;
use crate::{with_variant, GameKind};

/// Start position, openings, middlegames, endgames and positions with many pieces in hand.
pub const SHOGI_POSITIONS: [&str; 10] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgk1snl/5g1s1/+Rp1ppp1pp/2p3p2/7b1/1P7/P2PPPPPP/2G1KSGR1/LN+b4NL w Pp 20",
    "1nsg1g1nl/lr1k1s1b1/1pppppp2/p6pp/9/4P4/PPPP1PPPP/LB1S3SR/1N1GKG1NL b - 13",
    "l4gsnl/3gkr1b1/1p1p1pppp/p2sp4/1Pp6/P4P2P/B1P1GKPP1/1S5SR/LN2G2+nL b n2p 39",
    "ln5nb/2gk2srb/3g4l/p1p1sPppp/1p5P1/P1PPP1G2/1PN3P1P/L1S1GS2L/5KRN1 b 3P 61",
    "2s1ksg1l/9/+Ppnppp1pp/9/s2P1b3/2P1NPP2/4PBpPP/G4SLR1/1K1GG2NL w NL3Pr 60",
    "lk3g1nl/3sgs3/pp2p2p1/B2p4p/9/1P7/+l1GPPPPPP/3R2S2/1NS1K1GNL b N3Prb2p 39",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "2+R1bk1nl/l2g2s2/pppp1p1pp/9/7G1/2P2PS1P/PP1PP1PP1/2+bSR4/4KGSNL w N2Pgnl 32",
    "8k/6G2/7S1/9/9/9/9/9/4K4 b P 1",
];

pub const MINISHOGI_POSITIONS: [&str; 9] = [
    "rbsgk/4p/5/P4/KGSBR b - 1",
    "3k1/K2sg/4R/3pB/+r4 b Pbgs 61",
    "1bs1p/5/3kg/G4/1KS2 b 2RPb 21",
    "rk3/b4/1s2P/PR2S/K1G2 w Gb 22",
    "1b1k1/3sg/5/2G2/1KSB1 w P2rp 10",
    "rb+Pg1/5/3k1/P4/KGSB1 b Sr 7",
    "5/1bsk1/P4/3S1/KG3 w RBGrp 28",
    "3gk/ps2p/5/K1G2/3BR b RBs 11",
    "1k1rs/p4/5/2G2/KBSP1 b BGr 27",
];

pub const YARI_POSITIONS: [&str; 9] = [
    "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1",
    "4br1/r1nk1b1/pnp2p1/3pp1p/1p5/PPP2P1/R2PP1P/1BB1NNR/4K2 b - 23",
    "r1nkb1r/6b/pnppppp/7/1pP4/PP5/3PPPP/4N2/RBBK1NR w - 10",
    "rnnkr2/4bb1/ppp1p2/3p1pp/7/5P1/PPPPPNP/R1B2K1/2B2NR b - 13",
    "3k2r/r3b2/p+Bn1pbp/2ppP2/2P2p1/6P/PP1P1+n1/B1K1NN1/4R1R b Pp 33",
    "r6/3k3/3p1p1/1pp4/p2K3/1P5/PNP4/1BBP+n2/6R w R2BPr2n4p 60",
    "2n1k2/r2b2r/npppbpp/3Pp2/p5P/P6/RPP1PP1/1K2NN1/1BB3R b - 25",
    "r4br/2kb3/p1nNpp1/2pp2p/7/P2PKP1/2B1P1P/2B4/R3NNR w 3p 26",
    "rnk1bb1/nrn4/1pp3p/p6/3NPp1/P4B1/1PPP1PP/4RR1/1B1K3 w 2P 38",
];

/// Searches every position of `sfens` to `depth`, one line each through `out`; returns (nodes, seconds), or
/// `None` as soon as `halted` says so (checked before each search and after it, so that a search a stop cut
/// short is not counted).
fn bench_game<V: GameEval>(
    sfens: &[&str],
    depth: i32,
    searcher: &mut Searcher,
    out: &dyn Fn(&str),
    halted: &dyn Fn() -> bool,
) -> Option<(u64, f64)> {
    let mut total = 0;
    let mut secs = 0.0;
    for (i, sfen) in sfens.iter().enumerate() {
        let pos = match Position::<V>::from_sfen(sfen) {
            Ok(p) => p,
            Err(e) => {
                out(&format!("info string error: bench position {sfen}: {e}"));
                continue;
            }
        };
        searcher.clear();
        // made before `halted` is read: a stop that comes after the check is stamped after this start, so the
        // search keeps it
        let limits = Limits {
            depth: Some(depth),
            multipv: 1,
            ..Limits::default()
        };
        if halted() {
            return None;
        }
        let start = Instant::now();
        let r = searcher.search(&pos, &limits, &TimeOptions::default(), &|_| {});
        let t = start.elapsed().as_secs_f64();
        if halted() {
            return None;
        }
        total += r.nodes;
        secs += t;
        let best = r.best.map_or("none".to_string(), move_to_usi::<V>);
        out(&format!(
            "{} position {:>2}: depth {} nodes {:>10} time {:>7.0} ms bestmove {best} score {}",
            V::NAME,
            i + 1,
            r.depth,
            r.nodes,
            t * 1000.0,
            r.score
        ));
    }
    Some((total, secs))
}

/// The bench positions of a game.
pub fn positions(game: GameKind) -> &'static [&'static str] {
    match game {
        GameKind::Shogi => &SHOGI_POSITIONS,
        GameKind::Minishogi => &MINISHOGI_POSITIONS,
        GameKind::Yari => &YARI_POSITIONS,
    }
}

/// What a finished bench run adds up to.
#[derive(Clone, Copy, Debug)]
pub struct BenchTotals {
    /// With one thread, the search's signature.
    pub nodes: u64,
    pub seconds: f64,
}

impl BenchTotals {
    /// The closing lines, the node count on the last but one.
    pub fn lines(&self) -> [String; 4] {
        [
            "===========================".to_string(),
            format!("Total time (ms) : {:.0}", self.seconds * 1000.0),
            format!("Nodes searched: {}", self.nodes),
            format!(
                "Nodes/second: {:.0}",
                self.nodes as f64 / self.seconds.max(1e-9)
            ),
        ]
    }
}

/// Runs the bench for the given games with `searcher` (its table emptied before each position), one line per
/// position through `out`; `None` when `halted` stopped it.
pub fn run_bench(
    games: &[GameKind],
    depth: i32,
    searcher: &mut Searcher,
    out: &dyn Fn(&str),
    halted: &dyn Fn() -> bool,
) -> Option<BenchTotals> {
    let mut totals = BenchTotals {
        nodes: 0,
        seconds: 0.0,
    };
    for g in games {
        let (n, s) =
            with_variant!(*g, V => bench_game::<V>(positions(*g), depth, searcher, out, halted))?;
        totals.nodes += n;
        totals.seconds += s;
    }
    Some(totals)
}

/// Times of one position in a scaling run: the depth, then the seconds of each round with one thread and with
/// the tested thread count.
struct Scaling {
    depth: i32,
    one: Vec<f64>,
    many: Vec<f64>,
}

/// Calibrates a depth for `pos` (the first completed depth that one thread reaches after `min_ms`), then times
/// one thread and `threads` threads to that depth, `rounds` times each, alternating, on an emptied table.
fn scaling_position<V: GameEval>(
    pos: &Position<V>,
    threads: usize,
    hash_mb: usize,
    min_ms: u64,
    rounds: usize,
) -> Scaling {
    let mut one = Searcher::new(1, hash_mb);
    let mut many = Searcher::new(threads, hash_mb);
    let control = one.control();
    one.clear();
    let reached = std::sync::atomic::AtomicI32::new(0);
    let calibrate = |info: &crate::engine::search::Info| {
        if info.progress_only || info.multipv != 1 {
            return;
        }
        reached.fetch_max(info.depth, std::sync::atomic::Ordering::Relaxed);
        if info.time_ms >= min_ms {
            control.stop();
        }
    };
    let limits = Limits {
        multipv: 1,
        ..Limits::default()
    };
    one.search(pos, &limits, &TimeOptions::default(), &calibrate);
    let depth = reached.load(std::sync::atomic::Ordering::Relaxed).max(1);
    let time = |s: &mut Searcher| {
        s.clear();
        let limits = Limits {
            depth: Some(depth),
            multipv: 1,
            ..Limits::default()
        };
        let start = Instant::now();
        s.search(pos, &limits, &TimeOptions::default(), &|_| {});
        start.elapsed().as_secs_f64()
    };
    let mut r = Scaling {
        depth,
        one: Vec::new(),
        many: Vec::new(),
    };
    for _ in 0..rounds {
        r.one.push(time(&mut one));
        r.many.push(time(&mut many));
    }
    r
}

/// `scaling_position` for a position given as SFEN.
fn scaling_sfen<V: GameEval>(
    sfen: &str,
    threads: usize,
    hash_mb: usize,
    min_ms: u64,
    rounds: usize,
) -> Result<Scaling, SfenError> {
    let pos = Position::<V>::from_sfen(sfen)?;
    Ok(scaling_position(&pos, threads, hash_mb, min_ms, rounds))
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len().max(1) as f64
}

/// `hayate bench --scaling T`: time to depth with one thread and with `threads`, per position of each game's
/// list, at a depth per position that one thread needs at least `min_ms` for (so that no position is over
/// before the threads have anything to share). Prints per position and the summary: the mean and geometric mean
/// of the per-position ratios and the ratio of the total times. Returns the mean of the ratios.
pub fn run_scaling(
    games: &[GameKind],
    threads: usize,
    hash_mb: usize,
    min_ms: u64,
    rounds: usize,
    out: &dyn Fn(&str),
) -> f64 {
    let mut ratios = Vec::new();
    let (mut total_one, mut total_many) = (0.0, 0.0);
    for g in games {
        for (i, sfen) in positions(*g).iter().enumerate() {
            let s = match with_variant!(*g, V => scaling_sfen::<V>(sfen, threads, hash_mb, min_ms, rounds))
            {
                Ok(s) => s,
                Err(e) => {
                    out(&format!("info string error: bench position {sfen}: {e}"));
                    continue;
                }
            };
            let (a, b) = (mean(&s.one), mean(&s.many));
            let list = |v: &[f64]| {
                v.iter()
                    .map(|x| format!("{:.0}", x * 1000.0))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            // a position that one thread settles at once (a mate found at depth 1) has no time to share
            let counted = a * 1000.0 >= min_ms as f64 / 4.0;
            out(&format!(
                "{g} position {:>2}: depth {:>2} 1 thread {:>7.0} ms ({}) {threads} threads {:>7.0} ms ({}) ratio {:.2}{}",
                i + 1,
                s.depth,
                a * 1000.0,
                list(&s.one),
                b * 1000.0,
                list(&s.many),
                a / b.max(1e-9),
                if counted { "" } else { " (not counted)" }
            ));
            if counted {
                ratios.push(a / b.max(1e-9));
                total_one += a;
                total_many += b;
            }
        }
    }
    let n = ratios.len().max(1) as f64;
    let mean_ratio = ratios.iter().sum::<f64>() / n;
    let geometric = (ratios.iter().map(|r| r.ln()).sum::<f64>() / n).exp();
    out("===========================");
    out(&format!("Positions: {}", ratios.len()));
    out(&format!("Mean time-to-depth ratio: {mean_ratio:.2}"));
    out(&format!("Geometric mean ratio: {geometric:.2}"));
    out(&format!(
        "Total time ratio: {:.2} ({:.0} ms / {:.0} ms)",
        total_one / total_many.max(1e-9),
        total_one * 1000.0,
        total_many * 1000.0
    ));
    mean_ratio
}
