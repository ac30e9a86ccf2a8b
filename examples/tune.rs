//! Derives a game's evaluation values from self-play (Texel's method): plays games of Hayate against itself at a
//! fixed number of nodes per move from random openings, keeps the quiet positions with the game's result, and
//! fits the values so that the evaluation predicts the results best.
//!
//! ```text
//! cargo run --release --features dev-tools --example tune -- <shogi|minishogi|yarishogi> [games] [nodes] [seed] [threads] [fit] [samples]
//! ```
//!
//! The material values (board and hand) are always fitted. `fit` adds more, comma-separated: `ranks` for the
//! piece-square terms (`RANK_BONUS`, by kind and relative rank), `king` for the king-safety and mobility weights
//! (`ATTACKER_NEAR_KING`, `DEFENDER_NEAR_KING`, `HAND_THREAT`, `MOBILITY`); `material` (or anything else) fits
//! the material alone. The terms not fitted keep the engine's values. With a `samples` file the positions are
//! read from it when it exists, and written to it after the games otherwise, so that several fits can share one
//! set of games. The output is the values to paste into `src/engine/eval/` (one file per game).

// developer tools built on request (`--features dev-tools`), not the engine
#![allow(clippy::unwrap_used)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use hayate::engine::eval::{evaluate, safety_counts, GameEval};
use hayate::engine::search::{mate_in_moves, Limits, Searcher, TimeOptions};
use hayate::rules::piece::{Color, Kind, KIND_COUNT};
use hayate::rules::position::Repetition;
use hayate::rules::rng::SplitMix64;
use hayate::{Minishogi, Position, Shogi, Yari};

/// One quiet position: its features, each the side to move's count minus the opponent's, and the result for the
/// side to move (1, 0.5, 0). The evaluation is linear in the features: material by board kind and hand kind,
/// pieces by kind and relative rank (0 = own back rank), and the king-safety and mobility counts, signed so that
/// each weight is positive (attackers and hand threats are penalties).
struct Sample {
    board: [i8; KIND_COUNT],
    hand: [i8; 7],
    rank: [[i8; 9]; KIND_COUNT],
    king: [i16; NK],
    result: f64,
}

/// The library's SplitMix64, with `below` by remainder: the figures quoted in `docs/evaluation-values.md` came from this sequence.
struct Rng(SplitMix64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        (self.0.next_u64() % n as u64) as usize
    }
}

const MAX_PLIES: usize = 400;
/// Random plies before the engine takes over, and plies after that before positions are kept.
const RANDOM_PLIES: usize = 8;
const SKIP_PLIES: usize = 4;

fn sample<V: GameEval>(pos: &Position<V>) -> (Sample, Color) {
    let us = pos.side_to_move();
    let sign = |c: Color| if c == us { 1i8 } else { -1 };
    let mut board = [0i8; KIND_COUNT];
    let mut hand = [0i8; 7];
    let mut rank = [[0i8; 9]; KIND_COUNT];
    for c in Color::ALL {
        for sq in pos.color_bb(c) {
            let r = sq.rank_index(V::RANKS);
            let rel = if c == Color::Black {
                V::RANKS - 1 - r
            } else {
                r
            };
            rank[pos.piece_at(sq).kind().index()][rel.min(8)] += sign(c);
        }
        for &k in V::BOARD_KINDS {
            if k != Kind::King {
                board[k.index()] += sign(c) * pos.pieces(c, k).count() as i8;
            }
        }
        for &k in V::HAND_KINDS {
            hand[k.index()] += sign(c) * pos.hand(c).count(k) as i8;
        }
    }
    let n = safety_counts(pos);
    let view = if us == Color::Black { 1 } else { -1 };
    let king = [-n.attackers, n.defenders, -n.hand_threats, n.mobility].map(|x| (view * x) as i16);
    let s = Sample {
        board,
        hand,
        rank,
        king,
        result: 0.0,
    };
    // the features with the engine's values must give the engine's evaluation, or the fit fits something else
    let w = engine_weights::<V>();
    let linear: f64 = s.features().map(|(i, x)| w[i] * x).sum();
    assert_eq!(
        linear,
        f64::from(evaluate(pos)),
        "the tuner's features do not reproduce the evaluation of {}",
        pos.to_sfen()
    );
    (s, us)
}

/// The engine's values as a parameter vector (the order of `Sample::features`).
fn engine_weights<V: GameEval>() -> Vec<f64> {
    let mut w = Vec::with_capacity(NP);
    w.extend(V::BOARD_VALUE.map(f64::from));
    w.extend(V::HAND_VALUE.map(f64::from));
    w.extend(V::RANK_BONUS.iter().flatten().map(|&x| f64::from(x)));
    w.extend(
        [
            V::ATTACKER_NEAR_KING,
            V::DEFENDER_NEAR_KING,
            V::HAND_THREAT,
            V::MOBILITY,
        ]
        .map(f64::from),
    );
    w
}

/// Plays one game; returns its kept samples with their results filled in.
fn play<V: GameEval>(searcher: &mut Searcher, nodes: u64, rng: &mut Rng) -> Vec<Sample> {
    let mut pos = Position::<V>::startpos();
    for _ in 0..RANDOM_PLIES {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Vec::new();
        }
        pos.do_move(moves[rng.below(moves.len())]);
    }
    searcher.clear();
    let mut kept: Vec<(Sample, Color)> = Vec::new();
    // the winner, or None for a draw
    let winner: Option<Color> = 'game: {
        for ply in 0..MAX_PLIES {
            let us = pos.side_to_move();
            match pos.repetition(MAX_PLIES) {
                Repetition::None => {}
                Repetition::Draw => break 'game None,
                Repetition::Win => break 'game Some(us),
                Repetition::Loss => break 'game Some(!us),
            }
            // one `Limits` per search: its clock starts when it is made
            let limits = Limits {
                nodes: Some(nodes),
                multipv: 1,
                ..Limits::default()
            };
            let r = searcher.search(&pos, &limits, &TimeOptions::default(), &|_| {});
            let Some(best) = r.best else {
                break 'game Some(!us);
            };
            if let Some(n) = mate_in_moves(r.score) {
                break 'game Some(if n > 0 { us } else { !us });
            }
            // quiet: not in check, and the engine's choice does not capture (the static value stands)
            let captures = !best.is_drop() && pos.piece_at(best.to()).is_some();
            if ply >= SKIP_PLIES && !pos.in_check() && !captures && r.score.abs() < 3000 {
                kept.push(sample(&pos));
            }
            pos.do_move(best);
        }
        None
    };
    kept.into_iter()
        .map(|(mut s, side)| {
            s.result = match winner {
                None => 0.5,
                Some(w) if w == side => 1.0,
                Some(_) => 0.0,
            };
            s
        })
        .collect()
}

fn sigmoid(x: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * x / 400.0))
}

/// Parameters in one vector: board values by kind, hand values by kind, rank bonuses by kind and rank, then the
/// king-safety and mobility weights.
const NB: usize = KIND_COUNT;
const NH: usize = 7;
const NR: usize = KIND_COUNT * 9;
const NK: usize = 4;
const NP: usize = NB + NH + NR + NK;
const KING_NAMES: [&str; NK] = [
    "ATTACKER_NEAR_KING",
    "DEFENDER_NEAR_KING",
    "HAND_THREAT",
    "MOBILITY",
];

impl Sample {
    /// The features matching the parameter vector.
    fn features(&self) -> impl Iterator<Item = (usize, f64)> + '_ {
        let board = self
            .board
            .iter()
            .enumerate()
            .map(|(i, &x)| (i, i16::from(x)));
        let hand = (self.hand.iter().enumerate()).map(|(i, &x)| (NB + i, i16::from(x)));
        let rank = self
            .rank
            .iter()
            .flatten()
            .enumerate()
            .map(|(i, &x)| (NB + NH + i, i16::from(x)));
        let king = self
            .king
            .iter()
            .enumerate()
            .map(|(i, &x)| (NB + NH + NR + i, x));
        board
            .chain(hand)
            .chain(rank)
            .chain(king)
            .filter(|&(_, x)| x != 0)
            .map(|(i, x)| (i, f64::from(x)))
    }

    /// One line of the samples file: the result, then every feature.
    fn to_line(&self) -> String {
        let mut v: Vec<String> = vec![self.result.to_string()];
        v.extend(self.board.iter().map(|x| x.to_string()));
        v.extend(self.hand.iter().map(|x| x.to_string()));
        v.extend(self.rank.iter().flatten().map(|x| x.to_string()));
        v.extend(self.king.iter().map(|x| x.to_string()));
        v.join(" ")
    }

    fn from_line(line: &str) -> Option<Sample> {
        let mut it = line.split_whitespace();
        let result = it.next()?.parse().ok()?;
        let mut s = Sample {
            board: [0; KIND_COUNT],
            hand: [0; 7],
            rank: [[0; 9]; KIND_COUNT],
            king: [0; NK],
            result,
        };
        for x in s
            .board
            .iter_mut()
            .chain(s.hand.iter_mut())
            .chain(s.rank.iter_mut().flatten())
        {
            *x = it.next()?.parse().ok()?;
        }
        for x in &mut s.king {
            *x = it.next()?.parse().ok()?;
        }
        Some(s)
    }
}

struct Model {
    w: Vec<f64>,
}

impl Model {
    fn eval(&self, s: &Sample) -> f64 {
        s.features().map(|(i, x)| self.w[i] * x).sum()
    }
    fn error(&self, data: &[Sample], k: f64) -> f64 {
        data.iter()
            .map(|s| (s.result - sigmoid(self.eval(s), k)).powi(2))
            .sum::<f64>()
            / data.len() as f64
    }
}

/// Plays the games, or reads their positions from `file` when it exists (and writes them there otherwise).
fn samples<V: GameEval>(
    games: usize,
    nodes: u64,
    seed: u64,
    threads: usize,
    file: Option<&str>,
) -> Vec<Sample> {
    if let Some(text) = file.and_then(|f| std::fs::read_to_string(f).ok()) {
        let data: Vec<Sample> = text.lines().filter_map(Sample::from_line).collect();
        eprintln!("{} samples read from {}", data.len(), file.unwrap_or(""));
        return data;
    }
    let data = Mutex::new(Vec::new());
    let next = AtomicUsize::new(0);
    let draws = Mutex::new([0usize; 2]);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let mut searcher = Searcher::new(1, 16);
                loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= games {
                        break;
                    }
                    let mut rng = Rng(SplitMix64::new(
                        seed ^ (g as u64).wrapping_mul(0x2545_f491_4f6c_dd1d),
                    ));
                    let samples = play::<V>(&mut searcher, nodes, &mut rng);
                    if let (Some(first), Ok(mut r)) = (samples.first(), draws.lock()) {
                        r[usize::from(first.result == 0.5)] += 1;
                    }
                    if let Ok(mut d) = data.lock() {
                        d.extend(samples);
                    }
                    if (g + 1).is_multiple_of(100) {
                        eprintln!("{} games", g + 1);
                    }
                }
            });
        }
    });
    let data: Vec<Sample> = data.into_inner().unwrap_or_default();
    eprintln!("{} samples from {games} games", data.len());
    let r = draws.lock().map(|r| *r).unwrap_or_default();
    eprintln!("{} games decided, {} drawn", r[0], r[1]);
    if let Some(f) = file {
        let text: String = data.iter().map(|s| s.to_line() + "\n").collect();
        if let Err(e) = std::fs::write(f, text) {
            eprintln!("cannot write {f}: {e}");
        }
    }
    data
}

#[allow(clippy::too_many_arguments)]
fn run<V: GameEval>(
    name: &str,
    games: usize,
    nodes: u64,
    seed: u64,
    threads: usize,
    ranks: bool,
    king: bool,
    file: Option<&str>,
) {
    let data = samples::<V>(games, nodes, seed, threads, file);
    if data.is_empty() {
        return;
    }

    let w0 = engine_weights::<V>();
    let mut m = Model { w: w0.clone() };
    // the scale K that fits the hand-set values best, then kept while the values move
    let mut k = 1.0;
    let mut best = f64::MAX;
    for i in 1..=60 {
        let kk = i as f64 * 0.05;
        let e = m.error(&data, kk);
        if e < best {
            best = e;
            k = kk;
        }
    }
    eprintln!("K = {k:.2}, error with the hand-set values {best:.5}");

    // which features vary at all (kinds absent from a game keep their value); the king's material is no feature
    let mut seen = vec![0usize; NP];
    for s in &data {
        for (i, _) in s.features() {
            seen[i] += 1;
        }
    }
    seen[Kind::King.index()] = 0;
    let fitted = |i: usize| {
        seen[i] > 0 && (i < NB + NH || (ranks && i < NB + NH + NR) || (king && i >= NB + NH + NR))
    };
    // full-batch gradient descent with Adam; a weak pull toward the hand-set values keeps rare features sensible
    let prior = 1e-7;
    let lr = 2.0;
    let (mut mm, mut vv) = (vec![0f64; NP], vec![0f64; NP]);
    let n = data.len() as f64;
    for step in 1..=3000 {
        let mut g = vec![0f64; NP];
        let c = k * std::f64::consts::LN_10 / 400.0;
        for s in &data {
            let p = sigmoid(m.eval(s), k);
            let d = -2.0 * (s.result - p) * p * (1.0 - p) * c / n;
            for (i, x) in s.features() {
                g[i] += d * x;
            }
        }
        let t = step as f64;
        for i in (0..NP).filter(|&i| fitted(i)) {
            let gi = g[i] + 2.0 * prior * (m.w[i] - w0[i]);
            mm[i] = 0.9 * mm[i] + 0.1 * gi;
            vv[i] = 0.999 * vv[i] + 0.001 * gi * gi;
            let mh = mm[i] / (1.0 - 0.9f64.powf(t));
            let vh = vv[i] / (1.0 - 0.999f64.powf(t));
            m.w[i] -= lr * mh / (vh.sqrt() + 1e-12);
        }
        if step % 500 == 0 {
            eprintln!("step {step}: error {:.5}", m.error(&data, k));
        }
    }
    let names = [
        "P", "L", "N", "S", "G", "B", "R", "K", "+P", "+L", "+N", "+S", "+B", "+R",
    ];
    println!(
        "// {name}: {games} games at {nodes} nodes/move, seed {seed}, {} positions; K {k:.2}; error {best:.5} -> {:.5}",
        data.len(),
        m.error(&data, k)
    );
    for i in (0..NB + NH).filter(|&i| fitted(i)) {
        let (what, kind) = if i < NB {
            ("board", i)
        } else {
            ("hand ", i - NB)
        };
        println!(
            "//   {what} {:>2}: {:>5.0} (was {:>4}, in {} positions)",
            names[kind], m.w[i], w0[i], seen[i]
        );
    }
    let value = |i: usize, step: f64| {
        if fitted(i) {
            ((m.w[i] / step).round() * step) as i32
        } else {
            w0[i] as i32
        }
    };
    let list = |r: std::ops::Range<usize>, step: f64| -> String {
        r.map(|i| value(i, step).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!(
        "const BOARD_VALUE: [i32; KIND_COUNT] = [{}];",
        list(0..NB, 5.0)
    );
    println!("const HAND_VALUE: [i32; 7] = [{}];", list(NB..NB + NH, 5.0));
    if king {
        for (j, name) in KING_NAMES.iter().enumerate() {
            let i = NB + NH + NR + j;
            println!(
                "const {name}: i32 = {}; // {:.1}, was {}",
                value(i, 1.0),
                m.w[i],
                w0[i]
            );
        }
    }
    if ranks {
        println!("const RANK_BONUS: [[i32; 9]; KIND_COUNT] = [");
        for (kind, name) in names.iter().enumerate() {
            let at = NB + NH + kind * 9;
            println!("    [{}], // {name}", list(at..at + 9, 1.0));
        }
        println!("];");
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, d: u64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let variant = args.first().map_or("minishogi", String::as_str);
    let games = arg(1, 1000) as usize;
    let nodes = arg(2, 5000);
    let seed = arg(3, 1);
    let threads = arg(4, 1).max(1) as usize;
    let fit: Vec<&str> = args.get(5).map_or(Vec::new(), |s| s.split(',').collect());
    let (ranks, king) = (fit.contains(&"ranks"), fit.contains(&"king"));
    let file = args.get(6).map(String::as_str);
    match variant {
        "shogi" => run::<Shogi>(variant, games, nodes, seed, threads, ranks, king, file),
        "minishogi" => run::<Minishogi>(variant, games, nodes, seed, threads, ranks, king, file),
        "yarishogi" | "yari" => {
            run::<Yari>(variant, games, nodes, seed, threads, ranks, king, file)
        }
        v => eprintln!("unknown variant '{v}'"),
    }
}
