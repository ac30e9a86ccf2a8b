//! `hayate train`: fits the network of `engine::nnue` to self-play data on the CPU, then quantises it.
//!
//! The float network (`float_net`) is the quantised one before rounding. The loss is `(σ(out) − t)²` with the
//! target `t = λ σ(score / scale) + (1 − λ) result`. The first layer's gradient is sparse (only the rows of active
//! inputs), so each batch updates only those rows (Adam, moments kept per weight). Batches are split over the
//! rayon threads, each summing its own gradient.
//!
//! A king-bucketed net is trained with one more block of first-layer rows than it has king buckets: the shared
//! block of `dataset` that every sample also activates; quantising adds it into each king block.

use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;

use super::dataset::Dataset;
pub use super::float_net::{Dense, Params};
use super::float_net::{Scratch, BIAS_LIMIT, W1_LIMIT};
use crate::engine::nnue::file;
use crate::engine::nnue::network::Network;
use crate::rules::rng::SplitMix64;
use crate::GameKind;

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

/// Why training did not start or its nets were not written: no data, a starting net (`--init`) of another shape
/// than the one asked for, or a file that cannot be written (in the net file's own words).
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    #[error("no training positions")]
    NoPositions,
    #[error("--init: only a net with the linear head can be trained on")]
    InitHead,
    #[error(
        "--init: the net is (inputs -> {hidden}) x 2 -> 1{}, not the shape asked for",
        if *.king_buckets { " with king buckets" } else { "" }
    )]
    InitShape { hidden: usize, king_buckets: bool },
    #[error("cannot create {}: {error}", .path.display())]
    Create {
        path: PathBuf,
        #[source]
        error: std::io::Error,
    },
    #[error(transparent)]
    Save(#[from] file::NetSaveError),
}

/// Trains on `train`, reports each epoch (validation loss on `val`), writes checkpoints and the final quantised
/// net; returns the float parameters.
pub fn train(
    cfg: &TrainConfig,
    train: &Dataset,
    val: &Dataset,
    report: &dyn Fn(&EpochReport),
) -> Result<Params, TrainError> {
    if train.is_empty() {
        return Err(TrainError::NoPositions);
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
        std::fs::create_dir_all(dir).map_err(|error| TrainError::Create {
            path: dir.clone(),
            error,
        })?;
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

#[cfg(test)]
mod tests {
    use super::TrainError;

    #[test]
    fn init_shape_names_the_nets_shape() {
        let plain = TrainError::InitShape {
            hidden: 16,
            king_buckets: false,
        };
        assert_eq!(
            plain.to_string(),
            "--init: the net is (inputs -> 16) x 2 -> 1, not the shape asked for"
        );
        let kings = TrainError::InitShape {
            hidden: 8,
            king_buckets: true,
        };
        assert_eq!(
            kings.to_string(),
            "--init: the net is (inputs -> 8) x 2 -> 1 with king buckets, not the shape asked for"
        );
    }
}
