//! Derives a game's material values from self-play (Texel's method): plays games of Hayate against itself at a
//! fixed number of nodes per move from random openings, keeps the quiet positions with the game's result, and
//! fits the board and hand values of every piece kind so that the evaluation predicts the results best.
//!
//! ```text
//! cargo run --release --example tune -- <shogi|minishogi|yarishogi> [games] [nodes] [seed] [threads]
//! ```
//!
//! The other evaluation terms (king safety, placement, mobility) stay as they are and enter the fit as a fixed
//! offset. The output is the two arrays to paste into `src/eval.rs`, with the command that produced them.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use hayate::eval::{eval_terms, GameEval};
use hayate::matches::openings::SplitMix64;
use hayate::piece::{Color, Kind, KIND_COUNT};
use hayate::position::Repetition;
use hayate::search::{mate_in_moves, Limits, Searcher, TimeOptions};
use hayate::{Minishogi, Position, Shogi, Yari};

/// One quiet position: material differences (side to move minus opponent) by board kind and hand kind, the rest
/// of the evaluation, and the result for the side to move (1, 0.5, 0).
struct Sample {
    board: [i8; KIND_COUNT],
    hand: [i8; 7],
    rest: f64,
    result: f64,
}

/// The library's SplitMix64, with `below` by remainder: the figures quoted in `src/eval.rs` came from this sequence.
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
    for c in Color::ALL {
        for &k in V::BOARD_KINDS {
            if k != Kind::King {
                board[k.index()] += sign(c) * pos.pieces(c, k).count() as i8;
            }
        }
        for &k in V::HAND_KINDS {
            hand[k.index()] += sign(c) * pos.hand(c).count(k) as i8;
        }
    }
    let t = eval_terms(pos);
    let rest = (t.king_safety + t.placement + t.mobility) as f64;
    let rest = if us == Color::Black { rest } else { -rest };
    (
        Sample {
            board,
            hand,
            rest,
            result: 0.0,
        },
        us,
    )
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
    let limits = Limits {
        nodes: Some(nodes),
        multipv: 1,
        ..Limits::default()
    };
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

struct Model {
    board: [f64; KIND_COUNT],
    hand: [f64; 7],
}

impl Model {
    fn eval(&self, s: &Sample) -> f64 {
        let mut v = s.rest;
        for i in 0..KIND_COUNT {
            v += self.board[i] * s.board[i] as f64;
        }
        for i in 0..7 {
            v += self.hand[i] * s.hand[i] as f64;
        }
        v
    }
    fn error(&self, data: &[Sample], k: f64) -> f64 {
        data.iter()
            .map(|s| (s.result - sigmoid(self.eval(s), k)).powi(2))
            .sum::<f64>()
            / data.len() as f64
    }
}

fn run<V: GameEval>(name: &str, games: usize, nodes: u64, seed: u64, threads: usize) {
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
    let data = data.into_inner().unwrap_or_default();
    eprintln!("{} samples from {games} games", data.len());
    if data.is_empty() {
        return;
    }

    let mut m = Model {
        board: V::BOARD_VALUE.map(f64::from),
        hand: V::HAND_VALUE.map(f64::from),
    };
    let start = Model {
        board: m.board,
        hand: m.hand,
    };
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

    // which features vary at all (kinds absent from a game keep their value)
    let mut board_seen = [0usize; KIND_COUNT];
    let mut hand_seen = [0usize; 7];
    for s in &data {
        for (seen, &x) in board_seen.iter_mut().zip(&s.board) {
            *seen += usize::from(x != 0);
        }
        for (seen, &x) in hand_seen.iter_mut().zip(&s.hand) {
            *seen += usize::from(x != 0);
        }
    }
    // full-batch gradient descent with Adam; a weak pull toward the hand-set values keeps rare kinds sensible
    let prior = 1e-7;
    let lr = 2.0;
    let (mut mb, mut vb) = ([0f64; KIND_COUNT], [0f64; KIND_COUNT]);
    let (mut mh, mut vh) = ([0f64; 7], [0f64; 7]);
    let n = data.len() as f64;
    for step in 1..=3000 {
        let mut gb = [0f64; KIND_COUNT];
        let mut gh = [0f64; 7];
        let c = k * std::f64::consts::LN_10 / 400.0;
        for s in &data {
            let p = sigmoid(m.eval(s), k);
            let d = -2.0 * (s.result - p) * p * (1.0 - p) * c / n;
            for (g, &x) in gb.iter_mut().zip(&s.board) {
                *g += d * x as f64;
            }
            for (g, &x) in gh.iter_mut().zip(&s.hand) {
                *g += d * x as f64;
            }
        }
        let t = step as f64;
        let adam = |w: &mut f64, g: f64, mm: &mut f64, vv: &mut f64, w0: f64| {
            let g = g + 2.0 * prior * (*w - w0);
            *mm = 0.9 * *mm + 0.1 * g;
            *vv = 0.999 * *vv + 0.001 * g * g;
            let mh = *mm / (1.0 - 0.9f64.powf(t));
            let vh = *vv / (1.0 - 0.999f64.powf(t));
            *w -= lr * mh / (vh.sqrt() + 1e-12);
        };
        for i in 0..KIND_COUNT {
            if board_seen[i] > 0 {
                adam(
                    &mut m.board[i],
                    gb[i],
                    &mut mb[i],
                    &mut vb[i],
                    start.board[i],
                );
            }
        }
        for i in 0..7 {
            if hand_seen[i] > 0 {
                adam(&mut m.hand[i], gh[i], &mut mh[i], &mut vh[i], start.hand[i]);
            }
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
    for i in 0..KIND_COUNT {
        if board_seen[i] > 0 {
            println!(
                "//   board {:>2}: {:>5.0} (was {:>4}, in {} positions)",
                names[i], m.board[i], start.board[i], board_seen[i]
            );
        }
    }
    for i in 0..7 {
        if hand_seen[i] > 0 {
            println!(
                "//   hand  {:>2}: {:>5.0} (was {:>4}, in {} positions)",
                names[i], m.hand[i], start.hand[i], hand_seen[i]
            );
        }
    }
    let round = |v: f64| (v / 5.0).round() as i32 * 5;
    let board: Vec<String> = (0..KIND_COUNT)
        .map(|i| {
            if board_seen[i] > 0 {
                round(m.board[i]).to_string()
            } else {
                (start.board[i] as i32).to_string()
            }
        })
        .collect();
    let hand: Vec<String> = (0..7)
        .map(|i| {
            if hand_seen[i] > 0 {
                round(m.hand[i]).to_string()
            } else {
                (start.hand[i] as i32).to_string()
            }
        })
        .collect();
    println!(
        "const BOARD_VALUE: [i32; KIND_COUNT] = [{}];",
        board.join(", ")
    );
    println!("const HAND_VALUE: [i32; 7] = [{}];", hand.join(", "));
    let r = draws.lock().map(|r| *r).unwrap_or_default();
    eprintln!("{} games decided, {} drawn", r[0], r[1]);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, d: u64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let variant = args.first().map_or("minishogi", String::as_str);
    let games = arg(1, 1000) as usize;
    let nodes = arg(2, 5000);
    let seed = arg(3, 1);
    let threads = arg(4, 1).max(1) as usize;
    match variant {
        "shogi" => run::<Shogi>(variant, games, nodes, seed, threads),
        "minishogi" => run::<Minishogi>(variant, games, nodes, seed, threads),
        "yarishogi" | "yari" => run::<Yari>(variant, games, nodes, seed, threads),
        v => eprintln!("unknown variant '{v}'"),
    }
}
