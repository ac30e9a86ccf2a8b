//! Training samples: the records of data files turned into the network's active inputs (per perspective, the
//! side to move's first), their scores and results, split into training and validation by game, so that no
//! game has positions on both sides of the split.

use std::path::Path;

use super::record::{read_file, Record};
use crate::engine::nnue::features::{board_feature, hand_feature, Features};
use crate::rules::piece::Color;
use crate::rules::square::Square;

#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Active inputs of all samples, one after the other: the side to move's, then the other side's.
    pub feats: Vec<u16>,
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
    pub fn inputs(&self, i: usize) -> (&[u16], &[u16]) {
        let (a, b, c) = (
            self.starts[2 * i] as usize,
            self.starts[2 * i + 1] as usize,
            self.starts[2 * i + 2] as usize,
        );
        (&self.feats[a..b], &self.feats[b..c])
    }

    fn push<V: Features>(&mut self, r: &Record) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        for persp in [r.side, !r.side] {
            self.feats.extend(record_inputs::<V>(r, persp));
            self.starts.push(self.feats.len() as u32);
        }
        self.scores.push(f32::from(r.score));
        self.results.push(f32::from(r.result) / 2.0);
    }
}

/// The active inputs of a record's position from `persp` (the same as `features::active` of the position).
pub fn record_inputs<V: Features>(r: &Record, persp: Color) -> Vec<u16> {
    let mut out = Vec::with_capacity(48);
    for (i, &p) in r.board.iter().enumerate() {
        if p.is_some() {
            out.push(board_feature::<V>(persp, p, Square::new(i as u8)) as u16);
        }
    }
    for owner in Color::ALL {
        for (&k, &n) in V::HAND_KINDS.iter().zip(&r.hands[owner.index()]) {
            for c in 1..=n {
                out.push(hand_feature::<V>(persp, owner, k, c) as u16);
            }
        }
    }
    out
}

/// Reads data files of game `V`; games whose index is a multiple of `val_every` go to validation (none when
/// `val_every` is 0).
pub fn load<V: Features>(paths: &[&Path], val_every: u32) -> Result<(Dataset, Dataset), String> {
    let (mut train, mut val) = (Dataset::default(), Dataset::default());
    for p in paths {
        for r in read_file::<V>(p)? {
            if val_every > 0 && r.game % val_every == 0 {
                val.push::<V>(&r);
            } else {
                train.push::<V>(&r);
            }
        }
    }
    Ok((train, val))
}
