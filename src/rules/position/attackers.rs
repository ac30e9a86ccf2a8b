//! Attacks in a position: sliding rays, attackers of a square, pins, lines between squares.

use super::{Bb, Position};
use crate::rules::attacks::{direction_is_positive, opposite_direction};
use crate::rules::piece::{Color, Kind};
use crate::rules::square::Square;
use crate::rules::variant::Variant;

impl<V: Variant> Position<V> {
    /// Squares reached by sliding from `sq` in absolute direction `d`, up to and including the first blocker.
    #[inline(always)]
    pub fn slide(d: usize, sq: Square, occ: Bb<V>) -> Bb<V> {
        let t = V::tables();
        let ray = Bb::<V>::from_u128(t.ray[d][sq.index()]);
        let blockers = ray & occ;
        if blockers.is_empty() {
            return ray;
        }
        let b = if direction_is_positive(d) {
            blockers.lsb()
        } else {
            blockers.msb()
        };
        ray ^ Bb::<V>::from_u128(t.ray[d][b.index()])
    }

    /// Squares attacked by a piece of colour `c` and kind `k` standing on `sq`, given the occupancy.
    #[inline(always)]
    pub fn attacks_from(c: Color, k: Kind, sq: Square, occ: Bb<V>) -> Bb<V> {
        let t = V::tables();
        let mut att = Bb::<V>::from_u128(t.step[c.index()][k.index()][sq.index()]);
        let mut dirs = t.slides[c.index()][k.index()];
        while dirs != 0 {
            let d = dirs.trailing_zeros() as usize;
            dirs &= dirs - 1;
            att |= Self::slide(d, sq, occ);
        }
        att
    }

    /// Sliders of colour `c` that would reach `sq` on an empty board.
    #[inline(always)]
    pub(super) fn slider_candidates(&self, c: Color, sq: Square) -> Bb<V> {
        let t = V::tables();
        let mut bb = Bb::<V>::EMPTY;
        for cls in 0..t.slide_classes {
            bb |= Bb::<V>::from_u128(t.slide_reach[c.index()][cls][sq.index()])
                & self.by_slide_class[cls];
        }
        bb & self.by_color[c.index()]
    }

    /// Every slider of colour `c`.
    #[inline(always)]
    pub(crate) fn sliders(&self, c: Color) -> Bb<V> {
        let mut bb = Bb::<V>::EMPTY;
        for cls in 0..V::tables().slide_classes {
            bb |= self.by_slide_class[cls];
        }
        bb & self.by_color[c.index()]
    }

    /// Step attackers of colour `c` (restricted to `enemy`, a subset of `c`'s pieces) onto `sq`.
    #[inline(always)]
    fn step_attackers(&self, c: Color, sq: Square, enemy: Bb<V>) -> Bb<V> {
        let t = V::tables();
        if (Bb::<V>::from_u128(t.step_reach[sq.index()]) & enemy).is_empty() {
            return Bb::<V>::EMPTY;
        }
        let mut att = Bb::<V>::EMPTY;
        for cls in 0..t.step_classes {
            let k = t.step_class_kind[cls] as usize;
            att |=
                Bb::<V>::from_u128(t.step[(!c).index()][k][sq.index()]) & self.by_step_class[cls];
        }
        att & enemy
    }

    /// Pieces of colour `c` attacking `sq`, given the occupancy (which may differ from the board's by removed
    /// pieces, e.g. a king stepping away).
    pub fn attackers_to(&self, c: Color, sq: Square, occ: Bb<V>) -> Bb<V> {
        let enemy = self.by_color[c.index()] & occ;
        let mut att = self.step_attackers(c, sq, enemy);
        for s in self.slider_candidates(c, sq) & occ {
            if (Self::between(s, sq) & occ).is_empty() {
                att |= Bb::<V>::square(s);
            }
        }
        att
    }

    /// Whether colour `c` attacks `sq`, given the occupancy.
    #[inline]
    pub fn is_attacked(&self, c: Color, sq: Square, occ: Bb<V>) -> bool {
        let enemy = self.by_color[c.index()] & occ;
        if self.step_attackers(c, sq, enemy).any() {
            return true;
        }
        for s in self.slider_candidates(c, sq) & occ {
            if (Self::between(s, sq) & occ).is_empty() {
                return true;
            }
        }
        false
    }

    /// Pieces of colour `c` standing alone between `c`'s king and an enemy slider aimed at it.
    pub fn pinned_pieces(&self, c: Color, occ: Bb<V>) -> Bb<V> {
        let ksq = self.kings[c.index()];
        let ours = self.by_color[c.index()];
        let mut pinned = Bb::<V>::EMPTY;
        for s in self.slider_candidates(!c, ksq) & occ {
            let between = Self::between(s, ksq) & occ;
            if !between.several() && (between & ours).any() {
                pinned |= between;
            }
        }
        pinned
    }

    /// Pieces of colour `c` standing alone between a slider of `c` and the enemy king: moving one off that
    /// line uncovers a check. The enemy king must be on the board.
    pub fn discovered_check_candidates(&self, c: Color) -> Bb<V> {
        let ek = self.kings[(!c).index()];
        let occ = self.occupied();
        let ours = self.by_color[c.index()];
        let mut found = Bb::<V>::EMPTY;
        for s in self.slider_candidates(c, ek) {
            let between = Self::between(s, ek) & occ;
            if !between.several() && (between & ours).any() {
                found |= between;
            }
        }
        found
    }

    /// Squares between two squares on one line (exclusive); empty when they are not aligned.
    #[inline(always)]
    pub fn between(a: Square, b: Square) -> Bb<V> {
        let t = V::tables();
        let d = t.direction[a.index()][b.index()];
        if d == 0 {
            return Bb::<V>::EMPTY;
        }
        let d = (d - 1) as usize;
        Bb::<V>::from_u128(t.ray[d][a.index()] & t.ray[opposite_direction(d)][b.index()])
    }

    /// The whole line through two aligned squares (both included); empty when they are not aligned.
    #[inline(always)]
    pub fn line(a: Square, b: Square) -> Bb<V> {
        let t = V::tables();
        let d = t.direction[a.index()][b.index()];
        if d == 0 {
            return Bb::<V>::EMPTY;
        }
        let d = (d - 1) as usize;
        Bb::<V>::from_u128(t.ray[d][a.index()] | t.ray[opposite_direction(d)][a.index()])
            | Bb::<V>::square(a)
    }
}
