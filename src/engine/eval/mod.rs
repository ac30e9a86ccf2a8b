//! Static evaluation in centipawns from the side to move: material on the board and in hand, and king safety
//! (attackers and defenders near each king, pieces in the opponent's hand counted as potential attackers).
//!
//! Each game supplies its values through `GameEval`; the terms are shared. A learned evaluation can replace
//! `evaluate` behind the same signature.

use crate::rules::piece::{Color, Kind, KIND_COUNT};
use crate::rules::position::{Bb, Position};
use crate::rules::square::Square;
use crate::rules::variant::{Minishogi, Shogi, Variant, Yari};

/// Per-game evaluation constants.
pub trait GameEval: Variant {
    /// Value of a piece on the board, by kind (the king's entry is unused).
    const BOARD_VALUE: [i32; KIND_COUNT];
    /// Value of a piece in hand, by unpromoted kind (P L N S G B R).
    const HAND_VALUE: [i32; 7];
    /// Penalty per enemy attacker (non-pawn) within two squares of the king.
    const ATTACKER_NEAR_KING: i32;
    /// Bonus per own gold, silver or promoted minor piece next to the king.
    const DEFENDER_NEAR_KING: i32;
    /// Penalty per non-pawn piece in the opponent's hand, when it already has an attacker near the king.
    const HAND_THREAT: i32;
    /// Piece-square terms by kind and relative rank (0 = own back rank, counting toward the opponent).
    const RANK_BONUS: [[i32; 9]; KIND_COUNT];
    /// Per square a sliding piece attacks.
    const MOBILITY: i32;
}

/// No bonus for any rank.
const FLAT: [i32; 9] = [0; 9];

// 9×9: started from the classic material scale used by Bonanza-era engines (pawn 90, lance 315, knight 405,
// silver 495, gold 540, bishop 855, rook 990, horse 945, dragon 1395; in hand P 105, L 350, N 450, S 550, G 600,
// B 950, R 1100: a little above the board value because a drop can go anywhere), hand-set piece-square terms (the
// king stays home, silvers and golds form a castle one or two ranks up, knights and lances should not rush, pawns
// gain a little as they advance) and hand-set king-safety and mobility weights (30, 20, 10, 3). Then, with the
// search of 5445ee2, Hayate played 3000 games against itself at 5000 nodes a move from 8 random plies and all of
// them were fitted together to the results of 174425 quiet positions:
// `cargo run --release --example tune -- shogi 3000 5000 29 2 ranks,king` (error 0.21981 -> 0.21831). Material
// moved by a few percent; defenders next to the king and mobility gained most. At equal nodes against the
// previous values: W 535 D 2 L 463 over 1000 games (`hayate match --variant shogi ... --tc nodes=20000
// --random-plies 8`, seeds 47, 53 and 59: +27.9, +24.4 and +24.4 Elo; about +25 +/- 22 together).
impl GameEval for Shogi {
    const BOARD_VALUE: [i32; KIND_COUNT] = [
        100, 315, 410, 510, 550, 855, 980, 0, 535, 540, 540, 540, 950, 1395,
    ];
    const HAND_VALUE: [i32; 7] = [105, 345, 435, 555, 610, 950, 1100];
    const ATTACKER_NEAR_KING: i32 = 43;
    const DEFENDER_NEAR_KING: i32 = 59;
    const HAND_THREAT: i32 = 27;
    const RANK_BONUS: [[i32; 9]; KIND_COUNT] = [
        [1, 0, 14, 1, 0, 15, 14, 0, 0],              // pawn
        [5, 3, 2, 1, 0, -3, -7, -1, 0],              // lance
        [-1, 0, 6, 11, 10, -5, -13, 0, 0],           // knight
        [1, 30, 15, 14, 7, 0, -6, -9, -14],          // silver
        [8, 25, 7, 4, -4, -10, -14, -15, -18],       // gold
        [-2, -1, 1, 0, 0, 0, 0, 0, 0],               // bishop
        [-3, -9, -1, 0, 2, 1, 0, 0, 0],              // rook
        [47, 14, -2, -26, -50, -70, -80, -90, -100], // king
        [0, 0, 0, 0, 0, 0, -1, 2, -7],               // tokin
        [0, 0, 0, 0, 0, 0, -1, 0, 0],                // promoted lance
        [0, 0, 0, 0, 0, 0, 1, 0, 1],                 // promoted knight
        [0, 0, 0, 0, 0, 0, 0, -1, 1],                // promoted silver
        [0, 0, 0, 1, 1, 1, 2, 0, 2],                 // horse
        [0, 0, 0, -1, -2, -1, 2, 2, 3],              // dragon
    ];
    const MOBILITY: i32 = 34;
}

// 5×5: material and piece-square terms from self-play. Starting from values scaled from 9×9 (P 100, S 500, G 580,
// B 650, R 750, +P 600, +S 590, +B 850, +R 1000; in hand P 130, S 560, G 640, B 700, R 800; no piece-square terms),
// a first fit of the material alone (10000 games, search of 9403dbf without its razoring) gave P 115 ... +R 1015;
// then Hayate (e4f2b63's search) played 10000 games against itself at 5000 nodes a move from 8 random plies, and
// material and rank terms together were fitted to the results of its 113424 quiet positions by Texel's method:
// `cargo run --release --example tune -- minishogi 10000 5000 1 2 ranks` (mean squared error 0.13646 -> 0.13437).
// Last, with the search of 5445ee2 and those values, 10000 more games (107223 positions) fitted material, rank
// terms and the king-safety and mobility weights together (those had been hand-set at 25, 10, 15 and 3):
// `cargo run --release --example tune -- minishogi 10000 5000 21 2 ranks,king` (error 0.13409 -> 0.13143). At
// equal nodes these values beat the previous ones by +36.3 +/- 15.3 Elo over 2000 games (`hayate match --variant
// minishogi ... --tc nodes=20000 --random-plies 8 --seed 37`). The rank terms of a kind share one degree of freedom with its material value (their counts sum to the piece
// count), so only their differences carry meaning.
impl GameEval for Minishogi {
    const BOARD_VALUE: [i32; KIND_COUNT] =
        [150, 0, 0, 595, 630, 640, 755, 0, 565, 0, 0, 555, 875, 1020];
    const HAND_VALUE: [i32; 7] = [165, 0, 0, 550, 625, 640, 765];
    const ATTACKER_NEAR_KING: i32 = 78;
    const DEFENDER_NEAR_KING: i32 = 16;
    const HAND_THREAT: i32 = 38;
    // by relative rank, 0 = own back rank (5 ranks)
    const RANK_BONUS: [[i32; 9]; KIND_COUNT] = [
        [2, 46, 0, -11, 0, 0, 0, 0, 0], // pawn
        FLAT,
        FLAT,
        [-8, 36, 33, 2, -10, 0, 0, 0, 0],   // silver
        [32, 11, 20, -12, -30, 0, 0, 0, 0], // gold
        [-39, 16, -1, -8, 7, 0, 0, 0, 0],   // bishop
        [-19, -10, -10, 4, 34, 0, 0, 0, 0], // rook
        [6, -9, -3, 1, 6, 0, 0, 0, 0],      // king
        [0, 0, 3, 6, -29, 0, 0, 0, 0],      // tokin
        FLAT,
        FLAT,
        [0, 0, 1, 4, -14, 0, 0, 0, 0], // promoted silver
        [1, 7, 6, 0, -6, 0, 0, 0, 0],  // horse
        [-2, 7, 0, 1, -2, 0, 0, 0, 0], // dragon
    ];
    const MOBILITY: i32 = 5;
}

// Yari shogi: material from self-play. Starting from values set by hand from the pieces' mobility (the yari
// pieces move forward only, so they are worth less than their 9×9 namesakes: P 100, yari knight 380, yari bishop
// 420, yari rook 650, +P 500, +N 600, +B 600, +R 1000; in hand P 120, N 420, B 460, R 700), Hayate played 4000
// games against itself at 5000 nodes a move from 8 random plies, and the values were fitted to the results of
// its 133370 quiet positions by Texel's method: `cargo run --release --example tune -- yarishogi 4000 5000 1`
// (mean squared error 0.22058 -> 0.22023). The fit moved most values by a few percent; a pawn in hand lost a
// quarter. The games were played by the search of 9403dbf without its razoring. Then, with the search of 5445ee2,
// 8000 more games (295012 positions) fitted material, piece-square terms (hand-set until then: the king stays
// home, the forward-only pieces lose value near the far side) and the king-safety and mobility weights (hand-set
// at 25, 15, 10 and 3) together: `cargo run --release --example tune -- yarishogi 8000 5000 23 2 ranks,king`
// (error 0.21932 -> 0.21837). The largest change is mobility, 3 -> 20 per square: a yari piece that can still
// move forward is worth much more than a blocked one. At equal nodes against the previous values: +44.5 +/- 34.4
// Elo over 400 games (`hayate match --variant yarishogi ... --tc nodes=20000 --random-plies 8 --seed 41`) and
// +43.1 +/- 28.0 over 600 more (`--seed 43`): W 561 D 3 L 436 in all.
// (A fit of the rank terms alone, without the king-safety and mobility weights, had lost at equal nodes.)
impl GameEval for Yari {
    const BOARD_VALUE: [i32; KIND_COUNT] =
        [105, 0, 390, 0, 0, 445, 635, 0, 505, 0, 600, 0, 610, 995];
    const HAND_VALUE: [i32; 7] = [95, 0, 435, 0, 0, 475, 700];
    const ATTACKER_NEAR_KING: i32 = 50;
    const DEFENDER_NEAR_KING: i32 = 21;
    const HAND_THREAT: i32 = 29;
    const RANK_BONUS: [[i32; 9]; KIND_COUNT] = [
        [-1, -6, -1, 7, 7, 17, 15, -1, 0], // pawn
        FLAT,
        [10, 3, 11, -6, 5, 3, -9, -16, 0], // knight
        FLAT,
        FLAT,
        [9, 10, 5, 5, 6, 3, -6, -17, 0],            // bishop
        [-11, 1, 1, 0, 0, 2, 1, 2, 1],              // rook
        [28, 13, -1, -20, -40, -59, -69, -79, -89], // king
        [0, 0, -1, 1, 0, 0, 2, 0, -4],              // tokin
        FLAT,
        [0, 0, 0, 1, 0, 1, 0, -2, -4], // promoted knight
        FLAT,
        [0, 0, 0, 1, 1, 0, 3, 1, 1],      // horse
        [0, 0, -1, 0, -2, -1, -1, 2, -1], // dragon
    ];
    const MOBILITY: i32 = 20;
}

/// The evaluation broken into terms, each from Black's point of view.
#[derive(Clone, Copy, Debug, Default)]
pub struct EvalTerms {
    pub board_material: i32,
    pub hand_material: i32,
    pub king_safety: i32,
    pub placement: i32,
    pub mobility: i32,
}

impl EvalTerms {
    pub fn total(&self) -> i32 {
        self.board_material + self.hand_material + self.king_safety + self.placement + self.mobility
    }
}

/// The king-safety and mobility counts that the evaluation weighs (each Black's count minus White's), so that
/// a tuner can fit their weights: the evaluation is linear in them.
#[derive(Clone, Copy, Debug, Default)]
pub struct SafetyCounts {
    /// Enemy non-pawn pieces within two squares of one's king (weighed by `ATTACKER_NEAR_KING`, a penalty).
    pub attackers: i32,
    /// Own golds, silvers and gold-moving promoted pieces next to one's king (`DEFENDER_NEAR_KING`).
    pub defenders: i32,
    /// Non-pawn pieces in the enemy's hand while the enemy has an attacker near one's king (`HAND_THREAT`, a
    /// penalty).
    pub hand_threats: i32,
    /// Squares attacked by one's sliding pieces and not occupied by one's own pieces (`MOBILITY`).
    pub mobility: i32,
}

pub fn eval_terms<V: GameEval>(pos: &Position<V>) -> EvalTerms {
    terms_and_counts(pos).0
}

/// The king-safety and mobility counts of a position (see `SafetyCounts`).
pub fn safety_counts<V: GameEval>(pos: &Position<V>) -> SafetyCounts {
    terms_and_counts(pos).1
}

#[inline]
fn terms_and_counts<V: GameEval>(pos: &Position<V>) -> (EvalTerms, SafetyCounts) {
    let mut t = EvalTerms::default();
    let mut n = SafetyCounts::default();
    for &k in V::BOARD_KINDS {
        if k == Kind::King {
            continue;
        }
        let v = V::BOARD_VALUE[k.index()];
        let diff =
            pos.pieces(Color::Black, k).count() as i32 - pos.pieces(Color::White, k).count() as i32;
        t.board_material += v * diff;
    }
    for &k in V::HAND_KINDS {
        let v = V::HAND_VALUE[k.index()];
        let diff = pos.hand(Color::Black).count(k) as i32 - pos.hand(Color::White).count(k) as i32;
        t.hand_material += v * diff;
    }
    let occ = pos.occupied();
    for c in Color::ALL {
        let sign = if c == Color::Black { 1 } else { -1 };
        for sq in pos.color_bb(c) {
            let k = pos.piece_at(sq).kind();
            let r = sq.rank_index(V::RANKS);
            let rel = if c == Color::Black {
                V::RANKS - 1 - r
            } else {
                r
            };
            t.placement += sign * V::RANK_BONUS[k.index()][rel.min(8)];
            if V::tables().slides[c.index()][k.index()] != 0 {
                let mobility = Position::<V>::attacks_from(c, k, sq, occ) & !pos.color_bb(c);
                n.mobility += sign * mobility.count() as i32;
            }
        }
        let ksq = pos.king(c);
        let zone2 = Bb::<V>::from_u128(V::tables().near2[ksq.index()]);
        let zone1 = Bb::<V>::from_u128(V::tables().near1[ksq.index()]);
        let them = !c;
        let attackers =
            zone2 & pos.color_bb(them) & !pos.kind_bb(Kind::Pawn) & !pos.kind_bb(Kind::King);
        let defenders = zone1
            & pos.color_bb(c)
            & (pos.kind_bb(Kind::Gold)
                | pos.kind_bb(Kind::Silver)
                | pos.kind_bb(Kind::ProPawn)
                | pos.kind_bb(Kind::ProSilver)
                | pos.kind_bb(Kind::ProKnight)
                | pos.kind_bb(Kind::ProLance));
        n.attackers += sign * attackers.count() as i32;
        n.defenders += sign * defenders.count() as i32;
        if attackers.any() {
            let hand = pos.hand(them);
            n.hand_threats += sign * (hand.total() as i32 - hand.count(Kind::Pawn) as i32);
        }
    }
    t.king_safety = -n.attackers * V::ATTACKER_NEAR_KING + n.defenders * V::DEFENDER_NEAR_KING
        - n.hand_threats * V::HAND_THREAT;
    t.mobility = n.mobility * V::MOBILITY;
    (t, n)
}

/// The evaluation from the side to move's point of view.
pub fn evaluate<V: GameEval>(pos: &Position<V>) -> i32 {
    let v = eval_terms(pos).total();
    if pos.side_to_move() == Color::Black {
        v
    } else {
        -v
    }
}

/// The value of capturing a piece of this kind: its board value plus what it is worth in the captor's hand.
#[inline]
pub fn capture_value<V: GameEval>(k: Kind) -> i32 {
    V::BOARD_VALUE[k.index()] + V::HAND_VALUE[k.unpromoted().index().min(6)]
}

/// Static exchange evaluation: whether the exchange that `m` starts on its destination square gains at least
/// `threshold` for the mover, both sides recapturing with their least valuable attacker. Slider x-rays are
/// found by recomputing the attackers as pieces leave the square's lines.
pub fn see_ge<V: GameEval>(
    pos: &Position<V>,
    m: crate::rules::moves::Move,
    threshold: i32,
) -> bool {
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
        let k = match (m.is_promotion(), k.promoted()) {
            (true, Some(pk)) => pk,
            _ => k,
        };
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
