//! The entering-king declaration (入玉宣言) of 9×9 shogi.

use super::{Bb, Position};
use crate::rules::game::EnteringKingRule;
use crate::rules::piece::{Color, Kind};
use crate::rules::variant::Variant;

impl<V: Variant> Position<V> {
    /// The entering-king declaration points of `c` (5 per rook or bishop, promoted or not, 1 per other piece;
    /// counting pieces in `c`'s promotion zone and in hand), and the number of `c`'s pieces in the zone other
    /// than the king.
    pub fn declaration_points(&self, c: Color) -> (u32, u32) {
        let zone = Bb::<V>::from_u128(V::tables().zone[c.index()]);
        let in_zone = zone & self.color_bb(c) & !self.kind_bb(Kind::King);
        let big = self.kind_bb(Kind::Rook)
            | self.kind_bb(Kind::Bishop)
            | self.kind_bb(Kind::ProRook)
            | self.kind_bb(Kind::ProBishop);
        let big_in_zone = (in_zone & big).count();
        let hand = self.hand(c);
        let big_in_hand = hand.count(Kind::Rook) as u32 + hand.count(Kind::Bishop) as u32;
        let small = in_zone.count() - big_in_zone + hand.total() - big_in_hand;
        (5 * (big_in_zone + big_in_hand) + small, in_zone.count())
    }

    /// Whether the side to move may declare a win by entering king under `rule`: its king in the zone, not in
    /// check, at least ten other pieces in the zone, and the rule's points.
    pub fn can_declare(&self, rule: EnteringKingRule) -> bool {
        let Some((black_points, white_points)) = rule.points() else {
            return false;
        };
        if !V::ENTERING_KING || self.in_check() {
            return false;
        }
        let c = self.side;
        let zone = Bb::<V>::from_u128(V::tables().zone[c.index()]);
        if !zone.has(self.king(c)) {
            return false;
        }
        let (points, pieces) = self.declaration_points(c);
        let needed = if c == Color::Black {
            black_points
        } else {
            white_points
        };
        pieces >= 10 && points >= needed
    }
}
