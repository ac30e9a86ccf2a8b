//! Minishogi values, all fitted on Hayate's self-play games (`docs/evaluation-values.md`). The rank terms of a
//! kind share one degree of freedom with its material value (their counts sum to the piece count), so only their
//! differences carry meaning.

use super::{GameEval, FLAT};
use crate::engine::params::SearchParams;
use crate::rules::piece::KIND_COUNT;
use crate::rules::variant::Minishogi;

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
    const CORRECTION: bool = false;
    const SEARCH: SearchParams = SearchParams::MINISHOGI;
}
