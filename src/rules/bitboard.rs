//! Bitboards over a machine word chosen per variant.
//!
//! Squares are numbered file-major (`file_index * RANKS + rank_index`, file index 0 = file 1, rank index 0 =
//! rank `a`), so one file occupies consecutive bits: a pawn or lance moves by a one-bit shift and a file mask is a
//! run of ones. The word is `u32` for 5×5, `u64` for 9×7 and `u128` for 9×9; every table is stored as `u128` and
//! narrowed on load, which costs nothing.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

use crate::rules::square::Square;

/// The unsigned integer behind a bitboard.
pub trait BitWord:
    Copy
    + Eq
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    const ZERO: Self;
    const ONE: Self;
    const BITS: u32;
    fn from_u128(x: u128) -> Self;
    fn to_u128(self) -> u128;
    fn count_ones(self) -> u32;
    fn trailing_zeros(self) -> u32;
    fn leading_zeros(self) -> u32;
    /// Clears the lowest set bit.
    fn clear_lowest(self) -> Self;
}

macro_rules! impl_word {
    ($t:ty) => {
        impl BitWord for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn from_u128(x: u128) -> Self {
                x as $t
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline(always)]
            fn leading_zeros(self) -> u32 {
                <$t>::leading_zeros(self)
            }
            #[inline(always)]
            fn clear_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
        }
    };
}
impl_word!(u32);
impl_word!(u64);
impl_word!(u128);

/// A set of squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard<W: BitWord>(pub W);

impl<W: BitWord> Bitboard<W> {
    pub const EMPTY: Self = Bitboard(W::ZERO);

    #[inline(always)]
    pub fn from_u128(x: u128) -> Self {
        Bitboard(W::from_u128(x))
    }
    #[inline(always)]
    pub fn square(sq: Square) -> Self {
        Bitboard(W::ONE << sq.index() as u32)
    }
    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.0 == W::ZERO
    }
    #[inline(always)]
    pub fn any(self) -> bool {
        self.0 != W::ZERO
    }
    #[inline(always)]
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }
    /// More than one square.
    #[inline(always)]
    pub fn several(self) -> bool {
        self.0.clear_lowest() != W::ZERO
    }
    #[inline(always)]
    pub fn has(self, sq: Square) -> bool {
        (self.0 >> sq.index() as u32) & W::ONE != W::ZERO
    }
    /// The lowest square; the set must not be empty.
    #[inline(always)]
    pub fn lsb(self) -> Square {
        debug_assert!(self.any());
        Square::new(self.0.trailing_zeros() as u8)
    }
    /// The highest square; the set must not be empty.
    #[inline(always)]
    pub fn msb(self) -> Square {
        debug_assert!(self.any());
        Square::new((W::BITS - 1 - self.0.leading_zeros()) as u8)
    }
    /// Each square moved one rank forward for `c` (Black: toward rank a, one index down). Squares on the last
    /// rank would wrap into the neighbouring file: callers shift only pieces that cannot stand there.
    #[inline(always)]
    pub fn forward(self, c: crate::rules::piece::Color) -> Self {
        match c {
            crate::rules::piece::Color::Black => Bitboard(self.0 >> 1),
            crate::rules::piece::Color::White => Bitboard(self.0 << 1),
        }
    }
    #[inline(always)]
    pub fn pop(&mut self) -> Option<Square> {
        if self.is_empty() {
            None
        } else {
            let sq = self.lsb();
            self.0 = self.0.clear_lowest();
            Some(sq)
        }
    }
}

impl<W: BitWord> Iterator for Bitboard<W> {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        self.pop()
    }
}

macro_rules! bin_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl<W: BitWord> $tr for Bitboard<W> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, rhs: Self) -> Self {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl<W: BitWord> $tra for Bitboard<W> {
            #[inline(always)]
            fn $fa(&mut self, rhs: Self) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bin_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bin_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bin_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<W: BitWord> Not for Bitboard<W> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        Bitboard(!self.0)
    }
}

impl<W: BitWord> Debug for Bitboard<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Bitboard({:#x})", self.0.to_u128())
    }
}
