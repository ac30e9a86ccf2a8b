//! `hayate train`: fits the network of `engine::nnue` to self-play data on the CPU, then quantises it.
//!
//! The float network is the quantised one before rounding: `acc = b1 + Σ W1[f]` over the active inputs of each
//! perspective, `h = clamp(acc, 0, 1)²`, `out = w2 · [h_us, h_them] + b2`, the evaluation being `out × scale`
//! centipawns. The loss is `(σ(out) − t)²` with the target `t = λ σ(score / scale) + (1 − λ) result`. The first
//! layer's gradient is sparse (only the rows of active inputs), so each batch updates only those rows (Adam,
//! moments kept per weight). Batches are split over the rayon threads, each summing its own gradient.
//!
//! A king-bucketed net is trained with one more block of first-layer rows than it has king buckets: the shared
//! block of `dataset` that every sample also activates; quantising adds it into each king block.

use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;

use super::dataset::Dataset;
use crate::engine::nnue::file;
use crate::engine::nnue::network::Network;
use crate::engine::nnue::simd::{QA, QB};
use crate::rules::rng::SplitMix64;
use crate::GameKind;

/// Weights are kept where the quantised net can hold them: the output weight times QB within ±127, and the
/// first layer's so that a sum of 40 of them stays far inside i16 at QA.
const W2_LIMIT: f32 = 127.0 / QB as f32;
const W1_LIMIT: f32 = 1.98;

#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub game: GameKind,
    /// The game's input count.
    pub inputs: usize,
    /// The king buckets of a king-bucketed net (`features::KING_BUCKETS`), 0 for a plain net.
    pub king_buckets: usize,
    pub hidden: usize,
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    /// The learning rate is multiplied by `lr_drop` after this fraction of the epochs.
    pub lr_drop_at: f32,
    pub lr_drop: f32,
    pub lambda: f32,
    /// Centipawns per unit of output.
    pub scale: f32,
    pub seed: u64,
    pub output: PathBuf,
    /// Where each epoch's quantised net goes (`epoch-N.nnue`), if anywhere.
    pub checkpoints: Option<PathBuf>,
}

/// Float parameters (and, with the same layout, gradients and Adam moments).
#[derive(Clone, Debug)]
pub struct Params {
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
    pub b2: f32,
}

impl Params {
    fn zeros(inputs: usize, hidden: usize) -> Self {
        Params {
            w1: vec![0.0; inputs * hidden],
            b1: vec![0.0; hidden],
            w2: vec![0.0; 2 * hidden],
            b2: 0.0,
        }
    }

    /// Random starting weights; the first `random_rows` first-layer rows random, the rest (a shared block) 0.
    pub fn random(inputs: usize, random_rows: usize, hidden: usize, seed: u64) -> Self {
        let mut r = SplitMix64::new(seed);
        let mut u = |a: f32| (r.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 * a - a;
        let mut p = Params::zeros(inputs, hidden);
        p.w1[..random_rows * hidden]
            .iter_mut()
            .for_each(|w| *w = u(0.1));
        p.b1.iter_mut().for_each(|w| *w = u(0.1) + 0.1);
        let a = 1.0 / (2.0 * hidden as f32).sqrt();
        p.w2.iter_mut().for_each(|w| *w = u(a));
        p
    }

    /// The float output for inputs `us` (side to move) and `them`, and the accumulators.
    fn forward(&self, us: &[u32], them: &[u32], acc: &mut [f32]) -> f32 {
        let h = self.b1.len();
        let (a_us, a_them) = acc.split_at_mut(h);
        for (a, feats) in [(a_us, us), (a_them, them)] {
            a.copy_from_slice(&self.b1);
            for &f in feats {
                let row = &self.w1[f as usize * h..(f as usize + 1) * h];
                a.iter_mut().zip(row).for_each(|(x, w)| *x += w);
            }
        }
        let mut out = self.b2;
        for (x, w) in acc.iter().zip(&self.w2) {
            let c = x.clamp(0.0, 1.0);
            out += c * c * w;
        }
        out
    }

    /// The evaluation (centipawns, side to move) the float net gives a sample.
    pub fn eval(&self, us: &[u32], them: &[u32], scale: f32) -> f32 {
        let mut acc = vec![0.0; 2 * self.b1.len()];
        self.forward(us, them, &mut acc) * scale
    }

    /// The quantised net. With `king_buckets` (a king-bucketed net of a game with `game_inputs` inputs) the
    /// shared block is added into each king block, kept within the first layer's limit.
    pub fn quantise(
        &self,
        game: GameKind,
        scale: f32,
        game_inputs: usize,
        king_buckets: usize,
    ) -> Network {
        let q = |x: f32, s: i32, lim: f32| (x * s as f32).round().clamp(-lim, lim) as i16;
        let hidden = self.b1.len();
        let (inputs, block, w1) = if king_buckets == 0 {
            let w1 = self.w1.iter().map(|&w| q(w, QA, 32767.0)).collect();
            (self.w1.len() / hidden, 0, w1)
        } else {
            let inputs = game_inputs * king_buckets;
            let shared = &self.w1[inputs * hidden..];
            let w1 = self.w1[..inputs * hidden]
                .iter()
                .enumerate()
                .map(|(j, &w)| {
                    let sum = (w + shared[j % (game_inputs * hidden)]).clamp(-W1_LIMIT, W1_LIMIT);
                    q(sum, QA, 32767.0)
                })
                .collect();
            (inputs, game_inputs, w1)
        };
        Network {
            game,
            inputs,
            block,
            hidden,
            scale: scale.round() as i32,
            w1,
            b1: self.b1.iter().map(|&w| q(w, QA, 32767.0)).collect(),
            w2: self.w2.iter().map(|&w| q(w, QB, 127.0)).collect(),
            b2: (self.b2 * (QA * QB) as f32).round() as i32,
        }
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// One chunk's gradient: dense buffers, with the first-layer rows it touched listed.
struct Grad {
    g: Params,
    touched: Vec<bool>,
    loss: f64,
}

fn target(d: &Dataset, i: usize, cfg: &TrainConfig) -> f32 {
    cfg.lambda * sigmoid(d.scores[i] / cfg.scale) + (1.0 - cfg.lambda) * d.results[i]
}

fn chunk_grad(p: &Params, d: &Dataset, idx: &[u32], cfg: &TrainConfig) -> Grad {
    let (inputs, h) = (p.w1.len() / p.b1.len(), p.b1.len());
    let mut g = Grad {
        g: Params::zeros(inputs, h),
        touched: vec![false; inputs],
        loss: 0.0,
    };
    let mut acc = vec![0.0f32; 2 * h];
    let mut dacc = vec![0.0f32; 2 * h];
    for &i in idx {
        let i = i as usize;
        let (us, them) = d.inputs(i);
        let out = p.forward(us, them, &mut acc);
        let s = sigmoid(out);
        let t = target(d, i, cfg);
        g.loss += f64::from((s - t) * (s - t));
        let dout = 2.0 * (s - t) * s * (1.0 - s);
        g.g.b2 += dout;
        for j in 0..2 * h {
            let x = acc[j];
            let c = x.clamp(0.0, 1.0);
            g.g.w2[j] += dout * c * c;
            dacc[j] = if x > 0.0 && x < 1.0 {
                dout * p.w2[j] * 2.0 * x
            } else {
                0.0
            };
        }
        for (half, feats) in [(0, us), (1, them)] {
            let da = &dacc[half * h..(half + 1) * h];
            g.g.b1.iter_mut().zip(da).for_each(|(b, d)| *b += d);
            for &f in feats {
                let f = f as usize;
                g.touched[f] = true;
                let row = &mut g.g.w1[f * h..(f + 1) * h];
                row.iter_mut().zip(da).for_each(|(w, d)| *w += d);
            }
        }
    }
    g
}

/// Mean loss of the float net over a data set.
pub fn loss(p: &Params, d: &Dataset, cfg: &TrainConfig) -> f64 {
    if d.is_empty() {
        return 0.0;
    }
    let idx: Vec<u32> = (0..d.len() as u32).collect();
    let total: f64 = idx
        .par_chunks(1024)
        .map(|c| {
            let mut acc = vec![0.0f32; 2 * p.b1.len()];
            c.iter()
                .map(|&i| {
                    let (us, them) = d.inputs(i as usize);
                    let s = sigmoid(p.forward(us, them, &mut acc));
                    let t = target(d, i as usize, cfg);
                    f64::from((s - t) * (s - t))
                })
                .sum::<f64>()
        })
        .sum();
    total / d.len() as f64
}

struct Adam {
    m: Params,
    v: Params,
    t: i32,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPS: f32 = 1e-8;

/// One Adam step's learning rate and bias corrections.
struct Step {
    lr: f32,
    c1: f32,
    c2: f32,
}

#[inline(always)]
fn adam_step(w: &mut f32, m: &mut f32, v: &mut f32, g: f32, s: &Step, lim: f32) {
    *m = BETA1 * *m + (1.0 - BETA1) * g;
    *v = BETA2 * *v + (1.0 - BETA2) * g * g;
    *w -= s.lr * (*m / s.c1) / ((*v / s.c2).sqrt() + EPS);
    *w = w.clamp(-lim, lim);
}

impl Adam {
    fn step(&mut self, p: &mut Params, g: &Grad, n: usize, lr: f32) {
        self.t += 1;
        let st = Step {
            lr,
            c1: 1.0 - BETA1.powi(self.t),
            c2: 1.0 - BETA2.powi(self.t),
        };
        let scale = 1.0 / n as f32;
        let h = p.b1.len();
        for (f, _) in g.touched.iter().enumerate().filter(|t| *t.1) {
            for j in f * h..(f + 1) * h {
                adam_step(
                    &mut p.w1[j],
                    &mut self.m.w1[j],
                    &mut self.v.w1[j],
                    g.g.w1[j] * scale,
                    &st,
                    W1_LIMIT,
                );
            }
        }
        for j in 0..h {
            let gb = g.g.b1[j] * scale;
            adam_step(
                &mut p.b1[j],
                &mut self.m.b1[j],
                &mut self.v.b1[j],
                gb,
                &st,
                W1_LIMIT,
            );
        }
        for j in 0..2 * h {
            let gw = g.g.w2[j] * scale;
            adam_step(
                &mut p.w2[j],
                &mut self.m.w2[j],
                &mut self.v.w2[j],
                gw,
                &st,
                W2_LIMIT,
            );
        }
        let gb = g.g.b2 * scale;
        adam_step(&mut p.b2, &mut self.m.b2, &mut self.v.b2, gb, &st, 1e6);
    }
}

/// One epoch's figures.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    pub epoch: usize,
    pub train_loss: f64,
    pub val_loss: f64,
    pub lr: f32,
    pub seconds: f64,
}

/// Trains on `train`, reports each epoch (validation loss on `val`), writes checkpoints and the final quantised
/// net; returns the float parameters.
pub fn train(
    cfg: &TrainConfig,
    train: &Dataset,
    val: &Dataset,
    report: &dyn Fn(&EpochReport),
) -> Result<Params, String> {
    if train.is_empty() {
        return Err("no training positions".into());
    }
    let (rows, random_rows) = match cfg.king_buckets {
        0 => (cfg.inputs, cfg.inputs),
        k => (cfg.inputs * (k + 1), cfg.inputs * k),
    };
    let mut p = Params::random(rows, random_rows, cfg.hidden, cfg.seed);
    let mut adam = Adam {
        m: Params::zeros(rows, cfg.hidden),
        v: Params::zeros(rows, cfg.hidden),
        t: 0,
    };
    let quantise = |p: &Params| p.quantise(cfg.game, cfg.scale, cfg.inputs, cfg.king_buckets);
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut rng = SplitMix64::new(cfg.seed ^ 0x5eed);
    let threads = rayon::current_num_threads().max(1);
    let start = Instant::now();
    if let Some(dir) = &cfg.checkpoints {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    for epoch in 1..=cfg.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let lr = if (epoch as f32) > cfg.lr_drop_at * cfg.epochs as f32 {
            cfg.lr * cfg.lr_drop
        } else {
            cfg.lr
        };
        let mut total = 0.0;
        for batch in order.chunks(cfg.batch.max(1)) {
            let per = batch.len().div_ceil(threads);
            let g = batch
                .par_chunks(per.max(1))
                .map(|c| chunk_grad(&p, train, c, cfg))
                .reduce_with(|mut a, b| {
                    for (f, _) in b.touched.iter().enumerate().filter(|t| *t.1) {
                        let h = cfg.hidden;
                        a.touched[f] = true;
                        let (ra, rb) =
                            (&mut a.g.w1[f * h..(f + 1) * h], &b.g.w1[f * h..(f + 1) * h]);
                        ra.iter_mut().zip(rb).for_each(|(x, y)| *x += y);
                    }
                    a.g.b1.iter_mut().zip(&b.g.b1).for_each(|(x, y)| *x += y);
                    a.g.w2.iter_mut().zip(&b.g.w2).for_each(|(x, y)| *x += y);
                    a.g.b2 += b.g.b2;
                    a.loss += b.loss;
                    a
                });
            if let Some(g) = g {
                total += g.loss;
                adam.step(&mut p, &g, batch.len(), lr);
            }
        }
        let r = EpochReport {
            epoch,
            train_loss: total / train.len() as f64,
            val_loss: loss(&p, val, cfg),
            lr,
            seconds: start.elapsed().as_secs_f64(),
        };
        report(&r);
        if let Some(dir) = &cfg.checkpoints {
            let path = dir.join(format!("epoch-{epoch}.nnue"));
            file::save(&quantise(&p), &path)?;
        }
    }
    file::save(&quantise(&p), Path::new(&cfg.output))?;
    Ok(p)
}
