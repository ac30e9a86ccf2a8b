//! The float network that `hayate train` fits: the quantised net of `engine::nnue` before rounding, its forward
//! and backward passes for one sample, and its quantisation. See `train` for the loss and the optimiser.
//!
//! `acc = b1 + Σ W1[f]` over the active inputs of each perspective, `x = clamp(acc, 0, 1)²` for both perspectives
//! (side to move first), then the head: one dense layer to the output (a linear head), or dense layers of
//! `DEEP_L1` and `DEEP_L2` units, each followed by `clamp(·, 0, 1)`, before the output (a deep head). The
//! evaluation is `out × scale` centipawns.

use super::train::{TrainConfig, TrainError};
use crate::engine::nnue::network::{
    Deep, Head, Network, DEEP_BIAS_LIMIT, DEEP_L1, DEEP_L2, QO, QW, QX,
};
use crate::engine::nnue::simd::{QA, QB};
use crate::rules::rng::SplitMix64;
use crate::GameKind;

/// Weights are kept where the quantised net can hold them: the linear output weight times QB within ±127, and
/// the first layer's so that a sum of 40 of them stays far inside i16 at QA.
const W2_LIMIT: f32 = 127.0 / QB as f32;
pub(super) const W1_LIMIT: f32 = 1.98;
/// The deep head's int8 weights times QW within ±127, its int16 output weights times QO within ±32767.
const DEEP_W_LIMIT: f32 = 127.0 / QW as f32;
const DEEP_OUT_LIMIT: f32 = 32767.0 / QO as f32;
/// Biases of the head: far from anything the data asks for, inside what the quantised deep head accepts.
pub(super) const BIAS_LIMIT: f32 = (DEEP_BIAS_LIMIT / (QX * QO)) as f32;

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

    pub(super) fn add(&mut self, o: &Dense) {
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
pub(super) struct Scratch {
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
    pub(super) fn new(p: &Params) -> Self {
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

    pub(super) fn zeros_like(&self) -> Self {
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
    pub fn from_network(net: &Network, cfg: &TrainConfig) -> Result<Self, TrainError> {
        let Head::Linear { w, b } = &net.head else {
            return Err(TrainError::InitHead);
        };
        if net.block != 0 || cfg.king_buckets != 0 || cfg.deep || net.hidden != cfg.hidden {
            return Err(TrainError::InitShape {
                hidden: net.hidden,
                king_buckets: net.block != 0,
            });
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
    pub(super) fn forward(&self, us: &[u32], them: &[u32], s: &mut Scratch) -> f32 {
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
    pub(super) fn backward(&self, s: &mut Scratch, dout: f32, g: &mut Params, dacc: &mut [f32]) {
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
