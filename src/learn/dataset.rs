//! Training samples: the records of data files turned into the network's active inputs (per perspective, the
//! side to move's first), their scores and results, split into training and validation by game, so that no
//! game has positions on both sides of the split.
//!
//! For a king-bucketed net each sample also carries, per active input, the same input in a shared block after
//! the king blocks (a "factoriser": what a piece on a square is worth whatever the king's square). It exists only
//! in training: the quantised net adds it into every king block.

use std::path::Path;

use super::record::{read_file, Record};
use crate::engine::nnue::features::{
    board_feature, hand_feature, king_offset, Features, KING_BUCKETS,
};
use crate::rules::piece::{Color, Kind, Piece};
use crate::rules::square::Square;

#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Active inputs of all samples, one after the other: the side to move's, then the other side's.
    pub feats: Vec<u32>,
    /// Sample i's side-to-move inputs are `feats[starts[2i]..starts[2i+1]]`, the other side's
    /// `feats[starts[2i+1]..starts[2i+2]]`.
    pub starts: Vec<u32>,
    /// The search's score, centipawns, for the side to move.
    pub scores: Vec<f32>,
    /// The game's result for the side to move: 0, 0.5 or 1.
    pub results: Vec<f32>,
}

impl Dataset {
    pub fn len(&self) -> usize {
        self.scores.len()
    }

    pub fn is_empty(&self) -> bool {
        self.scores.is_empty()
    }

    /// Sample i's inputs: (side to move's, other side's).
    #[inline]
    pub fn inputs(&self, i: usize) -> (&[u32], &[u32]) {
        let (a, b, c) = (
            self.starts[2 * i] as usize,
            self.starts[2 * i + 1] as usize,
            self.starts[2 * i + 2] as usize,
        );
        (&self.feats[a..b], &self.feats[b..c])
    }

    fn push<V: Features>(&mut self, r: &Record, king_buckets: bool) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        for persp in [r.side, !r.side] {
            self.feats
                .extend(training_inputs::<V>(r, persp, king_buckets));
            self.starts.push(self.feats.len() as u32);
        }
        self.scores.push(f32::from(r.score));
        self.results.push(f32::from(r.result) / 2.0);
    }
}

/// The active inputs of a record's position from `persp` (the same as `features::active` of the position).
pub fn record_inputs<V: Features>(r: &Record, persp: Color) -> Vec<u32> {
    let mut out = Vec::with_capacity(48);
    for (i, &p) in r.board.iter().enumerate() {
        if p.is_some() {
            out.push(board_feature::<V>(persp, p, Square::new(i as u8)));
        }
    }
    for owner in Color::ALL {
        for (&k, &n) in V::HAND_KINDS.iter().zip(&r.hands[owner.index()]) {
            for c in 1..=n {
                out.push(hand_feature::<V>(persp, owner, k, c));
            }
        }
    }
    out
}

/// The inputs the trainer sees for a record from `persp`: `record_inputs` for a plain net; for a king-bucketed
/// one each of them in the block of `persp`'s king (as `features::active` of the position with that net) and
/// again in the shared block after all king blocks.
pub fn training_inputs<V: Features>(r: &Record, persp: Color, king_buckets: bool) -> Vec<u32> {
    let plain = record_inputs::<V>(r, persp);
    if !king_buckets {
        return plain;
    }
    let own_king = Piece::new(persp, Kind::King);
    let king = r
        .board
        .iter()
        .position(|&p| p == own_king)
        .map_or(Square::new(V::SQUARES as u8), |i| Square::new(i as u8));
    let off = king_offset::<V>(persp, king, V::INPUTS as u32);
    let shared = (KING_BUCKETS * V::INPUTS) as u32;
    let mut out = Vec::with_capacity(2 * plain.len());
    out.extend(plain.iter().map(|&f| off + f));
    out.extend(plain.iter().map(|&f| shared + f));
    out
}

/// Reads data files of game `V`, with the inputs of a plain or a king-bucketed net; games whose index is a
/// multiple of `val_every` go to validation (none when `val_every` is 0).
pub fn load<V: Features>(
    paths: &[&Path],
    val_every: u32,
    king_buckets: bool,
) -> Result<(Dataset, Dataset), String> {
    let (mut train, mut val) = (Dataset::default(), Dataset::default());
    for p in paths {
        for r in read_file::<V>(p)? {
            if val_every > 0 && r.game % val_every == 0 {
                val.push::<V>(&r, king_buckets);
            } else {
                train.push::<V>(&r, king_buckets);
            }
        }
    }
    Ok((train, val))
}
