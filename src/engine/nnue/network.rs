//! The quantised network: `(inputs → H) × 2 perspectives → 1`, SCReLU after the first layer. The first layer is
//! shared by both perspectives; the output layer has one weight per hidden unit of the side to move and one per
//! hidden unit of the other side. A king-bucketed net has one block of the game's inputs per region of the
//! perspective's own king (`features`).

use super::features::{Features, KING_BUCKETS};
use super::simd::{screlu_dot, screlu_dot_scalar, QA, QB};
use crate::GameKind;

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
    /// Output weights: `hidden` for the side to move, then `hidden` for the other side, ×QB.
    pub w2: Vec<i16>,
    /// Output bias, ×QA×QB.
    pub b2: i32,
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
        let h = self.hidden;
        let sum = screlu_dot(us, &self.w2[..h]) + screlu_dot(them, &self.w2[h..]);
        let v = self.scaled(sum);
        debug_assert_eq!(
            v,
            self.scaled(
                screlu_dot_scalar(us, &self.w2[..h]) + screlu_dot_scalar(them, &self.w2[h..])
            ),
            "SIMD and scalar outputs differ"
        );
        v
    }

    #[inline(always)]
    fn scaled(&self, sum: i64) -> i32 {
        let out = sum / QA as i64 + self.b2 as i64;
        let cp = out * self.scale as i64 / (QA as i64 * QB as i64);
        cp.clamp(-EVAL_LIMIT as i64, EVAL_LIMIT as i64) as i32
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
            w2: (0..2 * hidden)
                .map(|i| (f(i) % 128).clamp(-127, 127))
                .collect(),
            b2: 0,
        }
    }
}
