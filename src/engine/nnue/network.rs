//! The quantised network: `(inputs → H) × 2 perspectives`, SCReLU after the first layer, then a head: either one
//! output (`Head::Linear`, the first nets) or two small hidden layers of `DEEP_L1` and `DEEP_L2` units before the
//! output (`Head::Deep`). The first layer is shared by both perspectives; the head reads the side to move's
//! hidden units first, then the other side's. A king-bucketed net has one block of the game's inputs per region
//! of the perspective's own king (`features`).

use super::features::{Features, KING_BUCKETS};
use super::simd::{self, screlu_dot, screlu_dot_scalar, QA, QB};
use crate::GameKind;

/// Units of the deep head's first hidden layer.
pub const DEEP_L1: usize = 32;
/// Units of the deep head's second hidden layer.
pub const DEEP_L2: usize = 32;
/// The deep head's activations are bytes: 1.0 is `QX` (so that a byte times an int8 weight, twice, fits the
/// 16-bit lanes of the vector multiply-add).
pub const QX: i32 = 127;
/// The deep head's hidden-layer weights are int8: 1.0 is `QW`, so they lie within ±127/64.
pub const QW: i32 = 64;
/// The deep head's output weights are int16: 1.0 is `QO` (finer than int8, as the output's error is the
/// evaluation's).
pub const QO: i32 = 1024;

/// The layers after the first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Head {
    /// `[us, them] → 1`: `w` has `hidden` weights for the side to move, then `hidden` for the other side, ×QB;
    /// the bias is ×QA×QB.
    Linear { w: Vec<i16>, b: i32 },
    /// `[us, them] → DEEP_L1 → DEEP_L2 → 1`.
    Deep(Deep),
}

/// The deep head's weights. Each unit's weights are one contiguous row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deep {
    /// `DEEP_L1` rows of `2 × hidden` (side to move first), ×QW.
    pub w2: Vec<i8>,
    /// ×QX×QW.
    pub b2: Vec<i32>,
    /// `DEEP_L2` rows of `DEEP_L1`, ×QW.
    pub w3: Vec<i8>,
    /// ×QX×QW.
    pub b3: Vec<i32>,
    /// `DEEP_L2` output weights, ×QO.
    pub w4: Vec<i16>,
    /// ×QX×QO.
    pub b4: i32,
    /// `w2` again, laid out for inputs that are mostly zero: for each group of four inputs, the `DEEP_L1` units'
    /// four weights of that group, so that a non-zero group is one broadcast against contiguous weights.
    /// Derived from `w2` by `Deep::new`.
    w2_by_group: Vec<i8>,
}

impl Deep {
    pub fn new(
        w2: Vec<i8>,
        b2: Vec<i32>,
        w3: Vec<i8>,
        b3: Vec<i32>,
        w4: Vec<i16>,
        b4: i32,
    ) -> Deep {
        let inputs = w2.len() / DEEP_L1;
        let mut w2_by_group = vec![0i8; w2.len()];
        for (o, row) in w2.chunks_exact(inputs).enumerate() {
            for (i, &w) in row.iter().enumerate() {
                w2_by_group[(i / 4 * DEEP_L1 + o) * 4 + i % 4] = w;
            }
        }
        Deep {
            w2,
            b2,
            w3,
            b3,
            w4,
            b4,
            w2_by_group,
        }
    }

    /// The first small layer's weights grouped by four inputs (see the field).
    pub fn w2_by_group(&self) -> &[i8] {
        &self.w2_by_group
    }
}

/// Biases of the deep head stay within this, so that no sum of a layer can overflow 32 bits.
pub const DEEP_BIAS_LIMIT: i32 = 1 << 24;

/// A network for one game, as `file` reads and writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    pub game: GameKind,
    /// All first-layer inputs: the game's inputs, times `KING_BUCKETS` for a king-bucketed net.
    pub inputs: usize,
    /// The game's input count for a king-bucketed net (the stride between king blocks), 0 for a plain one.
    pub block: usize,
    pub hidden: usize,
    /// Centipawns per unit of the float network's output (the `scale` of the trainer's sigmoid).
    pub scale: i32,
    /// First-layer weights, one row of `hidden` per input (so that an input's row is contiguous), ×QA.
    pub w1: Vec<i16>,
    /// First-layer biases, ×QA.
    pub b1: Vec<i16>,
    pub head: Head,
}

/// Evaluations are kept inside this, well away from mate scores.
pub const EVAL_LIMIT: i32 = 20_000;

impl Network {
    /// Whether this net's layout is the one of `V` (plain or king-bucketed).
    pub fn fits<V: Features>(&self) -> bool {
        self.game == V::KIND
            && match self.block {
                0 => self.inputs == V::INPUTS,
                b => b == V::INPUTS && self.inputs == V::INPUTS * KING_BUCKETS,
            }
    }

    /// The weight row of input `f`.
    #[inline(always)]
    pub fn row(&self, f: u32) -> &[i16] {
        let at = f as usize * self.hidden;
        &self.w1[at..at + self.hidden]
    }

    /// The evaluation in centipawns for the side to move, from the accumulators of the side to move (`us`) and
    /// of the other side (`them`).
    #[inline]
    pub fn output(&self, us: &[i16], them: &[i16]) -> i32 {
        let (out, unit) = match &self.head {
            Head::Linear { w, b } => (self.linear(w, *b, us, them, false), QA * QB),
            Head::Deep(d) => (self.deep(d, us, them, false), QX * QO),
        };
        debug_assert_eq!(
            out,
            match &self.head {
                Head::Linear { w, b } => self.linear(w, *b, us, them, true),
                Head::Deep(d) => self.deep(d, us, them, true),
            },
            "SIMD and scalar outputs differ"
        );
        let cp = out * i64::from(self.scale) / i64::from(unit);
        cp.clamp(-EVAL_LIMIT as i64, EVAL_LIMIT as i64) as i32
    }

    /// The linear head's output, ×QA×QB.
    #[inline(always)]
    fn linear(&self, w: &[i16], b: i32, us: &[i16], them: &[i16], scalar: bool) -> i64 {
        let h = self.hidden;
        let dot = if scalar {
            screlu_dot_scalar
        } else {
            screlu_dot
        };
        let sum = dot(us, &w[..h]) + dot(them, &w[h..]);
        sum / QA as i64 + i64::from(b)
    }

    /// The deep head's output, ×QX×QO.
    #[inline(always)]
    fn deep(&self, d: &Deep, us: &[i16], them: &[i16], scalar: bool) -> i64 {
        let h = self.hidden;
        let mut x = [0u8; 2 * super::file::MAX_HIDDEN];
        let x = &mut x[..2 * h];
        simd::screlu_bytes(us, &mut x[..h], scalar);
        simd::screlu_bytes(them, &mut x[h..], scalar);
        let mut y1 = [0u8; DEEP_L1];
        if scalar {
            simd::affine_crelu(x, &d.w2, &d.b2, &mut y1, true);
        } else {
            simd::affine_crelu_sparse(x, &d.w2_by_group, &d.w2, &d.b2, &mut y1);
        }
        let mut y2 = [0u8; DEEP_L2];
        simd::affine_crelu(&y1, &d.w3, &d.b3, &mut y2, scalar);
        let out: i32 = y2
            .iter()
            .zip(&d.w4)
            .map(|(&y, &w)| i32::from(y) * i32::from(w))
            .sum();
        i64::from(out) + i64::from(d.b4)
    }

    /// A network of zeros except for what `f` says, for tests: `f(i)` fills the first-layer weights.
    pub fn with_weights(
        game: GameKind,
        inputs: usize,
        hidden: usize,
        mut f: impl FnMut(usize) -> i16,
    ) -> Network {
        Network {
            game,
            inputs,
            block: 0,
            hidden,
            scale: 400,
            w1: (0..inputs * hidden).map(&mut f).collect(),
            b1: (0..hidden).map(&mut f).collect(),
            head: Head::Linear {
                w: (0..2 * hidden)
                    .map(|i| (f(i) % 128).clamp(-127, 127))
                    .collect(),
                b: 0,
            },
        }
    }

    /// As `with_weights`, with a deep head whose weights `f` also fills (for tests).
    pub fn deep_with_weights(
        game: GameKind,
        inputs: usize,
        hidden: usize,
        mut f: impl FnMut(usize) -> i16,
    ) -> Network {
        let mut net = Network::with_weights(game, inputs, hidden, &mut f);
        let mut byte = |i| (f(i) % 128) as i8;
        net.head = Head::Deep(Deep::new(
            (0..DEEP_L1 * 2 * hidden).map(&mut byte).collect(),
            (0..DEEP_L1).map(|i| i32::from(byte(i)) * 64).collect(),
            (0..DEEP_L2 * DEEP_L1).map(&mut byte).collect(),
            (0..DEEP_L2).map(|i| i32::from(byte(i)) * 64).collect(),
            (0..DEEP_L2).map(|i| i16::from(byte(i)) * 8).collect(),
            0,
        ));
        net
    }
}
