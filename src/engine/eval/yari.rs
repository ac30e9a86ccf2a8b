//! Yari shogi values, fitted on Hayate's self-play games (`docs/evaluation-values.md`). The yari pieces move
//! forward only, so they are worth less than their 9×9 namesakes, and mobility weighs much more than in the other
//! games: a yari piece that can still move forward is worth much more than a blocked one.

use super::{GameEval, FLAT};
use crate::engine::params::SearchParams;
use crate::rules::piece::KIND_COUNT;
use crate::rules::variant::Yari;

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
    const CORRECTION: bool = true;
    const SEARCH: SearchParams = SearchParams::BASE;
}
