//! Colours, piece kinds and coloured pieces.
//!
//! One set of kinds serves every variant: the letters are shared (SFEN uses P L N S G B R K and their promoted
//! forms in all three games) and each variant gives its own kinds their own movement.

use std::fmt;
use std::ops::Not;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Color {
    /// Sente, upper case in SFEN, `b` to move; moves toward rank a.
    Black = 0,
    /// Gote, lower case in SFEN, `w` to move.
    White = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::Black, Color::White];
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

/// A piece kind. The first seven are the kinds that can be held in hand, in index order P L N S G B R.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(u8)]
pub enum Kind {
    Pawn = 0,
    Lance = 1,
    Knight = 2,
    Silver = 3,
    Gold = 4,
    Bishop = 5,
    Rook = 6,
    King = 7,
    ProPawn = 8,
    ProLance = 9,
    ProKnight = 10,
    ProSilver = 11,
    ProBishop = 12,
    ProRook = 13,
}

pub const KIND_COUNT: usize = 14;
pub const HAND_KIND_COUNT: usize = 7;

impl Kind {
    pub const ALL: [Kind; KIND_COUNT] = [
        Kind::Pawn,
        Kind::Lance,
        Kind::Knight,
        Kind::Silver,
        Kind::Gold,
        Kind::Bishop,
        Kind::Rook,
        Kind::King,
        Kind::ProPawn,
        Kind::ProLance,
        Kind::ProKnight,
        Kind::ProSilver,
        Kind::ProBishop,
        Kind::ProRook,
    ];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn from_index(i: usize) -> Kind {
        Kind::ALL[i]
    }

    /// The promoted form, if this kind promotes at all (in any variant).
    #[inline(always)]
    pub const fn promoted(self) -> Option<Kind> {
        match self {
            Kind::Pawn => Some(Kind::ProPawn),
            Kind::Lance => Some(Kind::ProLance),
            Kind::Knight => Some(Kind::ProKnight),
            Kind::Silver => Some(Kind::ProSilver),
            Kind::Bishop => Some(Kind::ProBishop),
            Kind::Rook => Some(Kind::ProRook),
            _ => None,
        }
    }

    /// The kind that stands on the destination after a board move of this kind, promoting or not (a kind that
    /// cannot promote stays itself).
    #[inline(always)]
    pub const fn after_move(self, promote: bool) -> Kind {
        match (promote, self.promoted()) {
            (true, Some(pk)) => pk,
            _ => self,
        }
    }

    /// The kind a captured piece becomes in hand.
    #[inline(always)]
    pub const fn unpromoted(self) -> Kind {
        match self {
            Kind::ProPawn => Kind::Pawn,
            Kind::ProLance => Kind::Lance,
            Kind::ProKnight => Kind::Knight,
            Kind::ProSilver => Kind::Silver,
            Kind::ProBishop => Kind::Bishop,
            Kind::ProRook => Kind::Rook,
            k => k,
        }
    }

    #[inline(always)]
    pub const fn is_promoted(self) -> bool {
        self as u8 >= Kind::ProPawn as u8
    }

    /// Can be held in hand and dropped (P L N S G B R).
    #[inline(always)]
    pub const fn is_hand_kind(self) -> bool {
        (self as u8) < HAND_KIND_COUNT as u8
    }

    /// The upper-case letter of the unpromoted form.
    pub const fn letter(self) -> char {
        match self.unpromoted() {
            Kind::Pawn => 'P',
            Kind::Lance => 'L',
            Kind::Knight => 'N',
            Kind::Silver => 'S',
            Kind::Gold => 'G',
            Kind::Bishop => 'B',
            Kind::Rook => 'R',
            _ => 'K',
        }
    }

    /// The unpromoted kind written with this (case-insensitive) letter.
    pub fn from_letter(c: char) -> Option<Kind> {
        Some(match c.to_ascii_uppercase() {
            'P' => Kind::Pawn,
            'L' => Kind::Lance,
            'N' => Kind::Knight,
            'S' => Kind::Silver,
            'G' => Kind::Gold,
            'B' => Kind::Bishop,
            'R' => Kind::Rook,
            'K' => Kind::King,
            _ => return None,
        })
    }
}

/// A coloured piece, or no piece: `colour << 4 | kind`, with `NONE` for an empty square.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece(u8);

/// The kind of each value of a piece code's low four bits; 14 and 15 are not kinds (15 is `NONE`'s).
const KIND_OF_CODE: [Kind; 16] = {
    let mut t = [Kind::Pawn; 16];
    let mut i = 0;
    while i < KIND_COUNT {
        t[i] = Kind::ALL[i];
        i += 1;
    }
    t
};

impl Piece {
    pub const NONE: Piece = Piece(0xff);

    #[inline(always)]
    pub const fn new(color: Color, kind: Kind) -> Piece {
        Piece(((color as u8) << 4) | kind as u8)
    }
    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0xff
    }
    #[inline(always)]
    pub const fn is_some(self) -> bool {
        self.0 != 0xff
    }
    /// The kind. `NONE` reads as a pawn: callers that may meet an empty square test `is_none` first, and the
    /// answer is defined so that a forgotten test cannot crash the engine.
    #[inline(always)]
    pub const fn kind(self) -> Kind {
        KIND_OF_CODE[(self.0 & 0x0f) as usize]
    }
    /// The colour; `NONE` reads as White (defined, never to be relied on).
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 & 0x10 == 0 {
            Color::Black
        } else {
            Color::White
        }
    }
    /// The raw code, for tables indexed by piece (`< 32`, `NONE` excepted).
    #[inline(always)]
    pub const fn code(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            return write!(f, ".");
        }
        let k = self.kind();
        let c = k.letter();
        let c = if self.color() == Color::Black {
            c
        } else {
            c.to_ascii_lowercase()
        };
        if k.is_promoted() {
            write!(f, "+{c}")
        } else {
            write!(f, "{c}")
        }
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_piece_decodes_to_its_colour_and_kind_and_none_does_not_panic() {
        for c in Color::ALL {
            for k in Kind::ALL {
                let p = Piece::new(c, k);
                assert!(p.is_some());
                assert_eq!((p.color(), p.kind()), (c, k));
            }
        }
        assert!(Piece::NONE.is_none());
        let _ = (Piece::NONE.kind(), Piece::NONE.color());
    }
}
