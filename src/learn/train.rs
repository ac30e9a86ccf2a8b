//! `hayate train`: fits the network of `engine::nnue` to self-play data on the CPU, then quantises it.
//!
//! The float network is the quantised one before rounding: `acc = b1 + Σ W1[f]` over the active inputs of each
//! perspective, `x = clamp(acc, 0, 1)²` for both perspectives (side to move first), then the head: one dense
//! layer to the output (a linear head), or dense layers of `DEEP_L1` and `DEEP_L2` units, each followed by
//! `clamp(·, 0, 1)`, before the output (a deep head). The evaluation is `out × scale` centipawns. The loss is
//! `(σ(out) − t)²` with the target `t = λ σ(score / scale) + (1 − λ) result`. The first layer's gradient is
//! sparse (only the rows of active inputs), so each batch updates only those rows (Adam, moments kept per
//! weight). Batches are split over the rayon threads, each summing its own gradient.
//!
//! A king-bucketed net is trained with one more block of first-layer rows than it has king buckets: the shared
//! block of `dataset` that every sample also activates; quantising adds it into each king block.

use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;

use super::dataset::Dataset;
use crate::engine::nnue::file;
use crate::engine::nnue::network::{
    Deep, Head, Network, DEEP_BIAS_LIMIT, DEEP_L1, DEEP_L2, QO, QW, QX,
};
use crate::engine::nnue::simd::{QA, QB};
use crate::rules::rng::SplitMix64;
use crate::GameKind;

/// Weights are kept where the quantised net can hold them: the linear output weight times QB within ±127, and
/// the first layer's so that a sum of 40 of them stays far inside i16 at QA.
const W2_LIMIT: f32 = 127.0 / QB as f32;
const W1_LIMIT: f32 = 1.98;
/// The deep head's int8 weights times QW within ±127, its int16 output weights times QO within ±32767.
const DEEP_W_LIMIT: f32 = 127.0 / QW as f32;
const DEEP_OUT_LIMIT: f32 = 32767.0 / QO as f32;
/// Biases of the head: far from anything the data asks for, inside what the quantised deep head accepts.
const BIAS_LIMIT: f32 = (DEEP_BIAS_LIMIT / (QX * QO)) as f32;

#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub game: GameKind,
    /// The game's input count.
    pub inputs: usize,
    /// The king buckets of a king-bucketed net (`features::KING_BUCKETS`), 0 for a plain net.
    pub king_buckets: usize,
    pub hidden: usize,
    /// A deep head (`DEEP_L1` and `DEEP_L2` hidden units) instead of the linear one.
    pub deep: bool,
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
    /// A net to start from instead of random weights (of this shape: plain, linear head), so that a generation
    /// goes on from what the last one learnt from data no longer kept.
    pub init: Option<std::sync::Arc<Network>>,
}

/// A dense layer of the head: for each input its `outputs` weights (input-major, so that a non-zero input is one
/// contiguous column), and a bias per output.
#[derive(Clone, Debug)]
pub struct Dense {
    pub inputs: usize,
    pub outputs: usize,
    pub w: Vec<f32>,
    pub b: Vec<f32>,
    /// Each weight is kept within ±limit (what its quantised form can hold).
    pub limit: f32,
}

impl Dense {
    fn zeros(inputs: usize, outputs: usize, limit: f32) -> Self {
        Dense {
            inputs,
            outputs,
            w: vec![0.0; inputs * outputs],
            b: vec![0.0; outputs],
            limit,
        }
    }

    fn zeros_like(&self) -> Self {
        Dense::zeros(self.inputs, self.outputs, self.limit)
    }

    /// `z = W x + b`, skipping the inputs that are zero (most of them, after a clamp).
    #[inline]
    fn forward(&self, x: &[f32], z: &mut [f32]) {
        z.copy_from_slice(&self.b);
        let n = self.outputs;
        for (i, &xi) in x.iter().enumerate() {
            if xi == 0.0 {
                continue;
            }
            let col = &self.w[i * n..(i + 1) * n];
            z.iter_mut().zip(col).for_each(|(z, w)| *z += xi * w);
        }
    }

    /// Adds this sample's gradient to `g` and writes the gradient of the layer's input to `dx` (0 for a zero
    /// input: it came out of a clamp whose gradient there is 0 anyway).
    #[inline]
    fn backward(&self, x: &[f32], dz: &[f32], g: &mut Dense, dx: &mut [f32]) {
        g.b.iter_mut().zip(dz).for_each(|(b, d)| *b += d);
        let n = self.outputs;
        for (i, &xi) in x.iter().enumerate() {
            if xi == 0.0 {
                dx[i] = 0.0;
                continue;
            }
            let at = i * n..(i + 1) * n;
            g.w[at.clone()]
                .iter_mut()
                .zip(dz)
                .for_each(|(g, d)| *g += xi * d);
            dx[i] = self.w[at].iter().zip(dz).map(|(w, d)| w * d).sum();
        }
    }

    /// The weights one output row after another (the quantised net's layout).
    fn rows(&self) -> Vec<f32> {
        let mut r = vec![0.0; self.w.len()];
        for (i, col) in self.w.chunks_exact(self.outputs).enumerate() {
            for (o, &w) in col.iter().enumerate() {
                r[o * self.inputs + i] = w;
            }
        }
        r
    }

    fn add(&mut self, o: &Dense) {
        self.w.iter_mut().zip(&o.w).for_each(|(a, b)| *a += b);
        self.b.iter_mut().zip(&o.b).for_each(|(a, b)| *a += b);
    }
}

/// Float parameters (and, with the same layout, gradients and Adam moments).
#[derive(Clone, Debug)]
pub struct Params {
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// The head: one layer (linear) or three (deep), the last with one output.
    pub head: Vec<Dense>,
}

/// One sample's activations through the net, kept for the backward pass.
struct Scratch {
    /// The first layer's output, both perspectives.
    acc: Vec<f32>,
    /// The input of each head layer (`x[0]` the SCReLU of `acc`).
    x: Vec<Vec<f32>>,
    /// The output of each head layer before its activation.
    z: Vec<Vec<f32>>,
    /// Gradients of the same.
    dx: Vec<Vec<f32>>,
    dz: Vec<Vec<f32>>,
}

impl Scratch {
    fn new(p: &Params) -> Self {
        let xs: Vec<Vec<f32>> = p.head.iter().map(|l| vec![0.0; l.inputs]).collect();
        let zs: Vec<Vec<f32>> = p.head.iter().map(|l| vec![0.0; l.outputs]).collect();
        Scratch {
            acc: vec![0.0; 2 * p.b1.len()],
            dx: xs.clone(),
            x: xs,
            dz: zs.clone(),
            z: zs,
        }
    }
}

impl Params {
    fn zeros(inputs: usize, hidden: usize, deep: bool) -> Self {
        let head = if deep {
            vec![
                Dense::zeros(2 * hidden, DEEP_L1, DEEP_W_LIMIT),
                Dense::zeros(DEEP_L1, DEEP_L2, DEEP_W_LIMIT),
                Dense::zeros(DEEP_L2, 1, DEEP_OUT_LIMIT),
            ]
        } else {
            vec![Dense::zeros(2 * hidden, 1, W2_LIMIT)]
        };
        Params {
            w1: vec![0.0; inputs * hidden],
            b1: vec![0.0; hidden],
            head,
        }
    }

    fn zeros_like(&self) -> Self {
        Params {
            w1: vec![0.0; self.w1.len()],
            b1: vec![0.0; self.b1.len()],
            head: self.head.iter().map(Dense::zeros_like).collect(),
        }
    }

    /// Random starting weights; the first `random_rows` first-layer rows random, the rest (a shared block) 0.
    pub fn random(inputs: usize, random_rows: usize, hidden: usize, deep: bool, seed: u64) -> Self {
        let mut r = SplitMix64::new(seed);
        let mut u = |a: f32| (r.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 * a - a;
        let mut p = Params::zeros(inputs, hidden, deep);
        p.w1[..random_rows * hidden]
            .iter_mut()
            .for_each(|w| *w = u(0.1));
        p.b1.iter_mut().for_each(|w| *w = u(0.1) + 0.1);
        let layers = p.head.len();
        for (i, l) in p.head.iter_mut().enumerate() {
            let a = 1.0 / (l.inputs as f32).sqrt();
            l.w.iter_mut().for_each(|w| *w = u(a));
            if i + 1 < layers {
                // hidden units start inside their active range, not dead at 0
                l.b.iter_mut().for_each(|b| *b = 0.1);
            }
        }
        p
    }

    /// The float net a quantised one stands for (a plain net with a linear head, of `cfg`'s shape).
    pub fn from_network(net: &Network, cfg: &TrainConfig) -> Result<Self, String> {
        let Head::Linear { w, b } = &net.head else {
            return Err("--init: only a net with the linear head can be trained on".into());
        };
        if net.block != 0 || cfg.king_buckets != 0 || cfg.deep || net.hidden != cfg.hidden {
            return Err(format!(
                "--init: the net is (inputs -> {}) x 2 -> 1{}, not the shape asked for",
                net.hidden,
                if net.block != 0 {
                    " with king buckets"
                } else {
                    ""
                }
            ));
        }
        let mut p = Params::zeros(net.inputs, net.hidden, false);
        let qa = QA as f32;
        p.w1.iter_mut()
            .zip(&net.w1)
            .for_each(|(f, &q)| *f = f32::from(q) / qa);
        p.b1.iter_mut()
            .zip(&net.b1)
            .for_each(|(f, &q)| *f = f32::from(q) / qa);
        // one output: the input-major layout is the row
        p.head[0]
            .w
            .iter_mut()
            .zip(w)
            .for_each(|(f, &q)| *f = f32::from(q) / QB as f32);
        p.head[0].b[0] = *b as f32 / (QA * QB) as f32;
        Ok(p)
    }

    /// The float output for inputs `us` (side to move) and `them`, the activations left in `s`.
    fn forward(&self, us: &[u32], them: &[u32], s: &mut Scratch) -> f32 {
        let h = self.b1.len();
        let (a_us, a_them) = s.acc.split_at_mut(h);
        for (a, feats) in [(a_us, us), (a_them, them)] {
            a.copy_from_slice(&self.b1);
            for &f in feats {
                let row = &self.w1[f as usize * h..(f as usize + 1) * h];
                a.iter_mut().zip(row).for_each(|(x, w)| *x += w);
            }
        }
        for (x, a) in s.x[0].iter_mut().zip(&s.acc) {
            let c = a.clamp(0.0, 1.0);
            *x = c * c;
        }
        let last = self.head.len() - 1;
        for (l, layer) in self.head.iter().enumerate() {
            let (xs, next) = s.x.split_at_mut(l + 1);
            layer.forward(&xs[l], &mut s.z[l]);
            if l < last {
                for (x, z) in next[0].iter_mut().zip(&s.z[l]) {
                    *x = z.clamp(0.0, 1.0);
                }
            }
        }
        s.z[last][0]
    }

    /// Adds the gradient of one sample (whose forward pass left `s`) to `g`, `dout` being the loss's derivative
    /// by the output; returns the gradient by each first-layer unit in `s.acc`'s stead (`dacc`).
    fn backward(&self, s: &mut Scratch, dout: f32, g: &mut Params, dacc: &mut [f32]) {
        let last = self.head.len() - 1;
        s.dz[last][0] = dout;
        for l in (0..=last).rev() {
            self.head[l].backward(&s.x[l], &s.dz[l], &mut g.head[l], &mut s.dx[l]);
            if l > 0 {
                let (dzs, _) = s.dz.split_at_mut(l);
                for ((d, &dx), &z) in dzs[l - 1].iter_mut().zip(&s.dx[l]).zip(&s.z[l - 1]) {
                    *d = if z > 0.0 && z < 1.0 { dx } else { 0.0 };
                }
            }
        }
        for ((d, &dx), &a) in dacc.iter_mut().zip(&s.dx[0]).zip(&s.acc) {
            *d = if a > 0.0 && a < 1.0 {
                dx * 2.0 * a
            } else {
                0.0
            };
        }
    }

    /// The evaluation (centipawns, side to move) the float net gives a sample.
    pub fn eval(&self, us: &[u32], them: &[u32], scale: f32) -> f32 {
        let mut s = Scratch::new(self);
        self.forward(us, them, &mut s) * scale
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
        let q32 = |x: f32, s: i32| {
            let lim = DEEP_BIAS_LIMIT as f32;
            (x * s as f32).round().clamp(-lim, lim) as i32
        };
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
        let head = match self.head.as_slice() {
            [out] => Head::Linear {
                w: out.rows().iter().map(|&w| q(w, QB, 127.0)).collect(),
                b: (out.b[0] * (QA * QB) as f32).round() as i32,
            },
            [l2, l3, out] => {
                let bytes = |l: &Dense| l.rows().iter().map(|&w| q(w, QW, 127.0) as i8).collect();
                let biases = |l: &Dense| l.b.iter().map(|&b| q32(b, QX * QW)).collect();
                Head::Deep(Deep::new(
                    bytes(l2),
                    biases(l2),
                    bytes(l3),
                    biases(l3),
                    out.rows().iter().map(|&w| q(w, QO, 32767.0)).collect(),
                    q32(out.b[0], QX * QO),
                ))
            }
            _ => unreachable!("a head has one or three layers"),
        };
        Network {
            game,
            inputs,
            block,
            hidden,
            scale: scale.round() as i32,
            w1,
            b1: self.b1.iter().map(|&w| q(w, QA, 32767.0)).collect(),
            head,
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
        g: p.zeros_like(),
        touched: vec![false; inputs],
        loss: 0.0,
    };
    let mut s = Scratch::new(p);
    let mut dacc = vec![0.0f32; 2 * h];
    let (mut us, mut them) = (Vec::with_capacity(128), Vec::with_capacity(128));
    for &i in idx {
        let i = i as usize;
        d.inputs_into(i, &mut us, &mut them);
        let (us, them) = (us.as_slice(), them.as_slice());
        let out = p.forward(us, them, &mut s);
        let sg = sigmoid(out);
        let t = target(d, i, cfg);
        g.loss += f64::from((sg - t) * (sg - t));
        let dout = 2.0 * (sg - t) * sg * (1.0 - sg);
        p.backward(&mut s, dout, &mut g.g, &mut dacc);
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
            let mut s = Scratch::new(p);
            let (mut us, mut them) = (Vec::with_capacity(128), Vec::with_capacity(128));
            c.iter()
                .map(|&i| {
                    d.inputs_into(i as usize, &mut us, &mut them);
                    let sg = sigmoid(p.forward(&us, &them, &mut s));
                    let t = target(d, i as usize, cfg);
                    f64::from((sg - t) * (sg - t))
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
        let slice = |w: &mut [f32], m: &mut [f32], v: &mut [f32], g: &[f32], lim: f32| {
            for (((w, m), v), g) in w.iter_mut().zip(m).zip(v).zip(g) {
                adam_step(w, m, v, g * scale, &st, lim);
            }
        };
        for (f, _) in g.touched.iter().enumerate().filter(|t| *t.1) {
            let r = f * h..(f + 1) * h;
            slice(
                &mut p.w1[r.clone()],
                &mut self.m.w1[r.clone()],
                &mut self.v.w1[r.clone()],
                &g.g.w1[r],
                W1_LIMIT,
            );
        }
        slice(&mut p.b1, &mut self.m.b1, &mut self.v.b1, &g.g.b1, W1_LIMIT);
        for (l, layer) in p.head.iter_mut().enumerate() {
            let (m, v, gl) = (&mut self.m.head[l], &mut self.v.head[l], &g.g.head[l]);
            slice(&mut layer.w, &mut m.w, &mut v.w, &gl.w, layer.limit);
            slice(&mut layer.b, &mut m.b, &mut v.b, &gl.b, BIAS_LIMIT);
        }
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
    let mut p = match &cfg.init {
        Some(net) => Params::from_network(net, cfg)?,
        None => Params::random(rows, random_rows, cfg.hidden, cfg.deep, cfg.seed),
    };
    let mut adam = Adam {
        m: p.zeros_like(),
        v: p.zeros_like(),
        t: 0,
    };
    let quantise = |p: &Params| p.quantise(cfg.game, cfg.scale, cfg.inputs, cfg.king_buckets);
    if cfg.init.is_some() {
        // where the starting net stands on this data, to compare each epoch with
        let start = loss(&p, val, cfg);
        report(&EpochReport {
            epoch: 0,
            train_loss: loss(&p, train, cfg),
            val_loss: start,
            lr: 0.0,
            seconds: 0.0,
        });
    }
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
                    a.g.head
                        .iter_mut()
                        .zip(&b.g.head)
                        .for_each(|(x, y)| x.add(y));
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
