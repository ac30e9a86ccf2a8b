//! Static exchange evaluation: the material balance of the captures a move starts on its destination square.

use super::{capture_value, GameEval};
use crate::rules::moves::Move;
use crate::rules::piece::Kind;
use crate::rules::position::{Bb, Position};
use crate::rules::square::Square;

/// Static exchange evaluation: whether the exchange that `m` starts on its destination square gains at least
/// `threshold` for the mover, both sides recapturing with their least valuable attacker. Slider x-rays are
/// found by recomputing the attackers as pieces leave the square's lines.
pub fn see_ge<V: GameEval>(pos: &Position<V>, m: Move, threshold: i32) -> bool {
    let to = m.to();
    let us = pos.side_to_move();
    let victim = pos.piece_at(to);
    let mut swap = if victim.is_some() {
        capture_value::<V>(victim.kind())
    } else {
        0
    } - threshold;
    if swap < 0 {
        return false;
    }
    let (moved, from_bb) = if m.is_drop() {
        (m.dropped(), Bb::<V>::EMPTY)
    } else {
        let k = pos.piece_at(m.from()).kind();
        let k = k.after_move(m.is_promotion());
        (k, Bb::<V>::square(m.from()))
    };
    swap = capture_value::<V>(moved) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = (pos.occupied() ^ from_bb) | Bb::<V>::square(to);
    let mut stm = us;
    let mut res = 1;
    loop {
        stm = !stm;
        let attackers = pos.attackers_to(stm, to, occ) & occ & !from_bb;
        if attackers.is_empty() {
            break;
        }
        res ^= 1;
        // least valuable attacker
        let mut best: Option<(i32, Square)> = None;
        for sq in attackers {
            let k = pos.piece_at(sq).kind();
            let v = if k == Kind::King {
                i32::MAX / 2
            } else {
                capture_value::<V>(k)
            };
            if best.is_none_or(|(bv, _)| v < bv) {
                best = Some((v, sq));
            }
        }
        let Some((value, sq)) = best else { break };
        if value >= i32::MAX / 2 {
            // the king may capture only if the other side has nothing left to recapture with
            let others = pos.attackers_to(!stm, to, occ) & occ & !from_bb;
            return if others.any() { res ^ 1 != 0 } else { res != 0 };
        }
        swap = value - swap;
        if swap < res {
            break;
        }
        occ ^= Bb::<V>::square(sq);
    }
    res != 0
}
