//! Moves in 16 bits: `to` (bits 0-6), `from` square or dropped kind (bits 7-13), promote (bit 14), drop (bit 15).

use arrayvec::ArrayVec;

use crate::rules::piece::Kind;
use crate::rules::square::Square;

/// Upper bound of legal moves in any position of any variant (the 9×9 maximum is 593).
pub const MAX_MOVES: usize = 600;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

pub type MoveList = ArrayVec<Move, MAX_MOVES>;

const PROMOTE: u16 = 1 << 14;
const DROP: u16 = 1 << 15;

impl Move {
    /// Not a move: from and to both square 0.
    pub const NONE: Move = Move(0);

    #[inline(always)]
    pub const fn normal(from: Square, to: Square, promote: bool) -> Move {
        Move(to.index() as u16 | (from.index() as u16) << 7 | if promote { PROMOTE } else { 0 })
    }
    #[inline(always)]
    pub const fn drop(kind: Kind, to: Square) -> Move {
        Move(to.index() as u16 | (kind as u16) << 7 | DROP)
    }
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::new((self.0 & 0x7f) as u8)
    }
    /// The origin square; meaningless for a drop.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::new(((self.0 >> 7) & 0x7f) as u8)
    }
    /// The dropped kind; meaningless for a board move.
    #[inline(always)]
    pub const fn dropped(self) -> Kind {
        Kind::from_index(((self.0 >> 7) & 0x7) as usize)
    }
    #[inline(always)]
    pub const fn is_drop(self) -> bool {
        self.0 & DROP != 0
    }
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & PROMOTE != 0
    }
    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0
    }
    #[inline(always)]
    pub const fn from_raw(raw: u16) -> Move {
        Move(raw)
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_drop() {
            write!(f, "Move({}*{})", self.dropped().letter(), self.to().index())
        } else {
            write!(
                f,
                "Move({}-{}{})",
                self.from().index(),
                self.to().index(),
                if self.is_promotion() { "+" } else { "" }
            )
        }
    }
}
