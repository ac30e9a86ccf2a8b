//! Training samples: the records of data files, kept packed with their scores and results and turned into the
//! network's active inputs (per perspective, the side to move's first) when a batch needs them; split into
//! training and validation by game, so that no game has positions on both sides of the split.
//!
//! For a king-bucketed net each sample also carries, per active input, the same input in a shared block after
//! the king blocks (a "factoriser": what a piece on a square is worth whatever the king's square). It exists only
//! in training: the quantised net adds it into every king block.

use std::path::{Path, PathBuf};

use super::packed::{PackError, Packing};
use super::record::{for_each_record, DataFileError, Record};
use crate::engine::nnue::features::{
    board_feature, hand_feature, king_offset, Features, KING_BUCKETS,
};
use crate::rules::piece::{Color, Kind, Piece};
use crate::rules::square::Square;

/// Samples kept packed (`packed`), about 40 bytes each for 9×9, their inputs decoded when a batch needs them,
/// so that tens of millions fit in memory.
#[derive(Clone, Debug)]
pub struct Dataset {
    packing: Packing,
    /// Each sample's position, `packing.bytes` each.
    positions: Vec<u8>,
    /// The search's score, centipawns, for the side to move.
    pub scores: Vec<f32>,
    /// The game's result for the side to move: 0, 0.5 or 1.
    pub results: Vec<f32>,
    /// Turns a packed position into the inputs of the side to move, then of the other side.
    decode: fn(&Packing, &[u8], bool, &mut Vec<u32>, &mut Vec<u32>),
    king_buckets: bool,
}

/// The inputs of a packed position of game `V` for both perspectives, the side to move's first.
fn decode<V: Features>(
    packing: &Packing,
    bytes: &[u8],
    king_buckets: bool,
    us: &mut Vec<u32>,
    them: &mut Vec<u32>,
) {
    us.clear();
    them.clear();
    // the bytes were packed from a record when the data set was loaded
    if let Some(r) = packing.unpack(bytes) {
        us.extend(training_inputs::<V>(&r, r.side, king_buckets));
        them.extend(training_inputs::<V>(&r, !r.side, king_buckets));
    }
}

impl Dataset {
    pub fn new<V: Features>(king_buckets: bool) -> Dataset {
        Dataset {
            packing: Packing::of::<V>(),
            positions: Vec::new(),
            scores: Vec::new(),
            results: Vec::new(),
            decode: decode::<V>,
            king_buckets,
        }
    }

    pub fn len(&self) -> usize {
        self.scores.len()
    }

    pub fn is_empty(&self) -> bool {
        self.scores.is_empty()
    }

    /// Sample i's inputs: the side to move's into `us`, the other side's into `them`.
    #[inline]
    pub fn inputs_into(&self, i: usize, us: &mut Vec<u32>, them: &mut Vec<u32>) {
        let n = self.packing.bytes;
        (self.decode)(
            &self.packing,
            &self.positions[i * n..(i + 1) * n],
            self.king_buckets,
            us,
            them,
        );
    }

    fn push(&mut self, r: &Record) -> Result<(), PackError> {
        let at = self.positions.len();
        self.positions.resize(at + self.packing.bytes, 0);
        self.packing.pack(r, &mut self.positions[at..])?;
        self.scores.push(f32::from(r.score));
        self.results.push(f32::from(r.result) / 2.0);
        Ok(())
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

/// Why the training data could not be read: a data file refused, or a record whose position cannot be packed
/// (named by its file and SFEN, since the file's own checks passed it).
#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    #[error(transparent)]
    Data(#[from] DataFileError),
    #[error("{}: {error} ({sfen})", .path.display())]
    Record {
        path: PathBuf,
        #[source]
        error: PackError,
        sfen: String,
    },
}

/// Reads data files of game `V`, for a plain or a king-bucketed net; games whose index is a multiple of
/// `val_every` go to validation (none when `val_every` is 0).
pub fn load<V: Features>(
    paths: &[&Path],
    val_every: u32,
    king_buckets: bool,
) -> Result<(Dataset, Dataset), DatasetError> {
    let (mut train, mut val) = (
        Dataset::new::<V>(king_buckets),
        Dataset::new::<V>(king_buckets),
    );
    for p in paths {
        let mut failed = None;
        for_each_record::<V>(p, |r| {
            if failed.is_some() {
                return;
            }
            let to = if val_every > 0 && r.game % val_every == 0 {
                &mut val
            } else {
                &mut train
            };
            if let Err(error) = to.push(&r) {
                failed = Some(DatasetError::Record {
                    path: p.to_path_buf(),
                    error,
                    sfen: r.to_sfen::<V>(),
                });
            }
        })?;
        if let Some(e) = failed {
            return Err(e);
        }
    }
    Ok((train, val))
}
