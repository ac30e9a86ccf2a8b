//! 9×9 values: the Bonanza-era material scale (a piece in hand a little above its board value, since a drop can
//! go anywhere), refitted with piece-square, king-safety and mobility terms on Hayate's self-play games
//! (`docs/evaluation-values.md` has the commands and the matches that showed each gain).

use super::GameEval;
use crate::engine::params::SearchParams;
use crate::rules::piece::KIND_COUNT;
use crate::rules::variant::Shogi;

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
    const CORRECTION: bool = true;
    const SEARCH: SearchParams = SearchParams::SHOGI;
}
