//! Pieces in hand.

use crate::rules::piece::{Kind, HAND_KIND_COUNT};

/// The count of each droppable kind (indexed P L N S G B R) held by one side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Hand([u8; HAND_KIND_COUNT]);

impl Hand {
    /// The order SFEN writes hands in.
    pub const SFEN_ORDER: [Kind; HAND_KIND_COUNT] = [
        Kind::Rook,
        Kind::Bishop,
        Kind::Gold,
        Kind::Silver,
        Kind::Knight,
        Kind::Lance,
        Kind::Pawn,
    ];

    #[inline(always)]
    pub fn count(&self, kind: Kind) -> u8 {
        self.0[kind.index()]
    }
    #[inline(always)]
    pub fn has(&self, kind: Kind) -> bool {
        self.0[kind.index()] != 0
    }
    #[inline(always)]
    pub fn add(&mut self, kind: Kind) {
        self.0[kind.index()] += 1;
    }
    #[inline(always)]
    pub fn remove(&mut self, kind: Kind) {
        self.0[kind.index()] -= 1;
    }
    pub fn set(&mut self, kind: Kind, n: u8) {
        self.0[kind.index()] = n;
    }
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&n| n == 0)
    }
    /// Total number of pieces held.
    pub fn total(&self) -> u32 {
        self.0.iter().map(|&n| n as u32).sum()
    }
}
