//! The attacker's hand packed into one word, with the per-kind comparisons that proof and disproof pieces need,
//! and the tsume convention for the defender's hand.
//!
//! The table keys a position by its board alone and keeps the attacker's hand beside it. That is enough: pieces
//! never leave the game, so within one search the defender's hand is whatever the board and the attacker's hand
//! leave of the pieces that were in play at the root. A bigger attacker hand therefore always means a smaller
//! defender hand, and "hand A dominates hand B" is one comparison of packed words.

use crate::rules::hand::Hand;
use crate::rules::piece::{Kind, HAND_KIND_COUNT};

/// Bit offset of each hand kind (indexed P L N S G B R): five bits for pawns (up to 18), three for the others
/// (up to 4 in any game), each followed by one guard bit that catches the borrow of a per-field subtraction.
const SHIFT: [u32; HAND_KIND_COUNT] = [0, 6, 10, 14, 18, 22, 26];
const WIDTH: [u32; HAND_KIND_COUNT] = [5, 3, 3, 3, 3, 3, 3];
const GUARDS: u32 = {
    let mut g = 0;
    let mut i = 0;
    while i < HAND_KIND_COUNT {
        g |= 1 << (SHIFT[i] + WIDTH[i]);
        i += 1;
    }
    g
};

/// A hand of one side: counts per droppable kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct HandBits(u32);

impl HandBits {
    pub const EMPTY: HandBits = HandBits(0);
    /// Every field at its largest value: "any hand at all" (a disproof that no extra piece can overturn).
    pub const FULL: HandBits = HandBits({
        let mut v = 0;
        let mut i = 0;
        while i < HAND_KIND_COUNT {
            v |= ((1 << WIDTH[i]) - 1) << SHIFT[i];
            i += 1;
        }
        v
    });

    pub fn from_hand(h: &Hand) -> HandBits {
        let mut v = 0;
        for (i, shift) in SHIFT.iter().enumerate() {
            v |= (h.count(Kind::from_index(i)) as u32) << shift;
        }
        HandBits(v)
    }

    #[inline(always)]
    pub fn raw(self) -> u32 {
        self.0
    }
    #[inline(always)]
    pub fn from_raw(v: u32) -> HandBits {
        HandBits(v)
    }

    #[inline(always)]
    pub fn count(self, k: Kind) -> u32 {
        let i = k.index();
        (self.0 >> SHIFT[i]) & ((1 << WIDTH[i]) - 1)
    }

    #[inline(always)]
    fn with(self, k: Kind, n: u32) -> HandBits {
        let i = k.index();
        let mask = ((1 << WIDTH[i]) - 1) << SHIFT[i];
        HandBits((self.0 & !mask) | (n.min((1 << WIDTH[i]) - 1) << SHIFT[i]))
    }

    /// One more piece of `k` (saturating at the field's maximum, which "any number" also uses).
    #[inline(always)]
    pub fn plus(self, k: Kind) -> HandBits {
        self.with(k, self.count(k) + 1)
    }
    /// One piece of `k` fewer (not below zero).
    #[inline(always)]
    pub fn minus(self, k: Kind) -> HandBits {
        self.with(k, self.count(k).saturating_sub(1))
    }
    #[inline(always)]
    pub fn set(self, k: Kind, n: u32) -> HandBits {
        self.with(k, n)
    }

    /// At least as many pieces of every kind as `other`.
    #[inline(always)]
    pub fn dominates(self, other: HandBits) -> bool {
        ((self.0 | GUARDS).wrapping_sub(other.0)) & GUARDS == GUARDS
    }

    /// The larger count of each kind.
    pub fn union(self, other: HandBits) -> HandBits {
        let mut r = self;
        for i in 0..HAND_KIND_COUNT {
            let k = Kind::from_index(i);
            if other.count(k) > r.count(k) {
                r = r.with(k, other.count(k));
            }
        }
        r
    }

    /// The smaller count of each kind.
    pub fn intersection(self, other: HandBits) -> HandBits {
        let mut r = self;
        for i in 0..HAND_KIND_COUNT {
            let k = Kind::from_index(i);
            if other.count(k) < r.count(k) {
                r = r.with(k, other.count(k));
            }
        }
        r
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl std::fmt::Debug for HandBits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Hand(")?;
        for k in Hand::SFEN_ORDER {
            let n = self.count(k);
            if n > 0 {
                write!(f, "{}{}", n, k.letter())?;
            }
        }
        write!(f, ")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dominance_is_per_kind() {
        let a = HandBits::EMPTY.plus(Kind::Pawn).plus(Kind::Gold);
        let b = HandBits::EMPTY.plus(Kind::Gold);
        assert!(a.dominates(b));
        assert!(!b.dominates(a));
        assert!(a.dominates(a));
        let c = HandBits::EMPTY.plus(Kind::Rook);
        assert!(!a.dominates(c) && !c.dominates(a));
        assert!(HandBits::FULL.dominates(a));
        let p18 = HandBits::EMPTY.set(Kind::Pawn, 18);
        assert_eq!(p18.count(Kind::Pawn), 18);
        assert!(p18.dominates(a.minus(Kind::Gold)));
        assert_eq!(a.union(c).count(Kind::Rook), 1);
        assert_eq!(a.intersection(c), HandBits::EMPTY);
        assert_eq!(HandBits::FULL.plus(Kind::Rook), HandBits::FULL);
    }
}
