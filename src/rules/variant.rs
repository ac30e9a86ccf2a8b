//! The three games. Everything that differs between them lives here, as associated constants and tables of a
//! zero-sized type; `Position<V>`, move generation and search are generic over it and monomorphised, so each
//! board's masks and sizes fold into constants.

use std::fmt::Debug;

use crate::rules::attacks::*;
use crate::rules::bitboard::{BitWord, Bitboard};
use crate::rules::game::GameKind;
use crate::rules::piece::{Kind, KIND_COUNT};

/// What a repeated position means for the game's result.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RepetitionRule {
    /// Fourth occurrence draws, unless one side checked throughout (it loses).
    Draw,
    /// Fourth occurrence loses for Black (sente), unless one side checked throughout (it loses).
    BlackLoses,
}

/// A list of kinds computed at compile time (a slice cannot be built by a `const fn`, an array and a length can).
pub struct KindList {
    kinds: [Kind; KIND_COUNT],
    len: usize,
}

impl KindList {
    /// `list` without the king, in the same order.
    pub const fn without_king(list: &[Kind]) -> KindList {
        let mut out = KindList {
            kinds: [Kind::King; KIND_COUNT],
            len: 0,
        };
        let mut i = 0;
        while i < list.len() {
            if !matches!(list[i], Kind::King) {
                out.kinds[out.len] = list[i];
                out.len += 1;
            }
            i += 1;
        }
        out
    }

    pub const fn as_slice(&'static self) -> &'static [Kind] {
        self.kinds.split_at(self.len).0
    }
}

pub trait Variant: 'static + Copy + Default + Send + Sync + Debug {
    /// The bitboard word: wide enough for `FILES * RANKS` bits.
    type Word: BitWord;
    /// The game's run-time name.
    const KIND: GameKind;
    /// The canonical name used by `--variant` and `USI_Variant`.
    const NAME: &'static str = Self::KIND.name();
    const FILES: usize;
    const RANKS: usize;
    const SQUARES: usize = Self::FILES * Self::RANKS;
    /// How many ranks the promotion zone has.
    const ZONE_DEPTH: usize;
    const START_SFEN: &'static str;
    /// Kinds that may stand on the board, the king included.
    const BOARD_KINDS: &'static [Kind];
    /// Kinds that may stand on the board other than the king: the movers of move generation (derived, in
    /// `BOARD_KINDS`' order).
    const NON_KING_KINDS: &'static [Kind] = KindList::without_king(Self::BOARD_KINDS).as_slice();
    /// Kinds that may be held in hand.
    const HAND_KINDS: &'static [Kind];
    /// How many pieces of each unpromoted kind (indexed by `Kind`, king included) the game has, both sides.
    const PIECE_TOTALS: [u8; 8];
    const REPETITION: RepetitionRule;
    /// Whether the CSA entering-king declaration exists in this game.
    const ENTERING_KING: bool;

    fn tables() -> &'static Tables;

    /// All squares of the board.
    #[inline(always)]
    fn board() -> Bitboard<Self::Word> {
        Bitboard::from_u128(Self::tables().board)
    }
}

const fn movements(list: &[(Kind, Movement)]) -> [Movement; KIND_COUNT] {
    let mut out = [Movement::NONE; KIND_COUNT];
    let mut i = 0;
    while i < list.len() {
        out[list[i].0 as usize] = list[i].1;
        i += 1;
    }
    out
}

const fn steps(s: &'static [(i8, i8)]) -> Movement {
    Movement {
        steps: s,
        slides: &[],
    }
}

const GOLD: Movement = steps(&GOLD_STEPS);

/// Standard shogi piece movement (also minishogi's, for the kinds it has).
const SHOGI_MOVES: [Movement; KIND_COUNT] = movements(&[
    (Kind::Pawn, steps(&[FORWARD])),
    (
        Kind::Lance,
        Movement {
            steps: &[],
            slides: &[FORWARD],
        },
    ),
    (Kind::Knight, steps(&KNIGHT_JUMPS)),
    (Kind::Silver, steps(&SILVER_STEPS)),
    (Kind::Gold, GOLD),
    (
        Kind::Bishop,
        Movement {
            steps: &[],
            slides: &DIAGONAL,
        },
    ),
    (
        Kind::Rook,
        Movement {
            steps: &[],
            slides: &ORTHOGONAL,
        },
    ),
    (Kind::King, steps(&KING_STEPS)),
    (Kind::ProPawn, GOLD),
    (Kind::ProLance, GOLD),
    (Kind::ProKnight, GOLD),
    (Kind::ProSilver, GOLD),
    (
        Kind::ProBishop,
        Movement {
            steps: &ORTHOGONAL,
            slides: &DIAGONAL,
        },
    ),
    (
        Kind::ProRook,
        Movement {
            steps: &DIAGONAL,
            slides: &ORTHOGONAL,
        },
    ),
]);

/// Yari shogi: the yari pieces slide forward; their promoted forms slide backward.
const YARI_MOVES: [Movement; KIND_COUNT] = movements(&[
    (Kind::Pawn, steps(&[FORWARD])),
    (
        Kind::Knight,
        Movement {
            steps: &KNIGHT_JUMPS,
            slides: &[FORWARD],
        },
    ),
    (
        Kind::Bishop,
        Movement {
            steps: &[(-1, -1), (1, -1)],
            slides: &[FORWARD],
        },
    ),
    (
        Kind::Rook,
        Movement {
            steps: &[],
            slides: &[FORWARD, (-1, 0), (1, 0)],
        },
    ),
    (Kind::King, steps(&KING_STEPS)),
    (
        Kind::ProPawn,
        Movement {
            steps: &[(-1, -1), (0, -1), (1, -1)],
            slides: &[BACKWARD],
        },
    ),
    (
        Kind::ProKnight,
        Movement {
            steps: &GOLD_STEPS,
            slides: &[BACKWARD],
        },
    ),
    (
        Kind::ProBishop,
        Movement {
            steps: &GOLD_STEPS,
            slides: &[BACKWARD],
        },
    ),
    (
        Kind::ProRook,
        Movement {
            steps: &[],
            slides: &ORTHOGONAL,
        },
    ),
]);

static SHOGI_TABLES: Tables = Tables::build(9, 9, 3, &SHOGI_MOVES);
static MINISHOGI_TABLES: Tables = Tables::build(5, 5, 1, &SHOGI_MOVES);
static YARI_TABLES: Tables = Tables::build(7, 9, 3, &YARI_MOVES);

/// Standard shogi, 9×9.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Shogi;

impl Variant for Shogi {
    type Word = u128;
    const KIND: GameKind = GameKind::Shogi;
    const FILES: usize = 9;
    const RANKS: usize = 9;
    const ZONE_DEPTH: usize = 3;
    const START_SFEN: &'static str =
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    /// Every kind: 9×9 shogi has them all.
    const BOARD_KINDS: &'static [Kind] = &Kind::ALL;
    const HAND_KINDS: &'static [Kind] = &[
        Kind::Pawn,
        Kind::Lance,
        Kind::Knight,
        Kind::Silver,
        Kind::Gold,
        Kind::Bishop,
        Kind::Rook,
    ];
    const PIECE_TOTALS: [u8; 8] = [18, 4, 4, 4, 4, 2, 2, 2];
    const REPETITION: RepetitionRule = RepetitionRule::Draw;
    const ENTERING_KING: bool = true;
    #[inline(always)]
    fn tables() -> &'static Tables {
        &SHOGI_TABLES
    }
}

/// Minishogi, 5×5.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Minishogi;

impl Variant for Minishogi {
    type Word = u32;
    const KIND: GameKind = GameKind::Minishogi;
    const FILES: usize = 5;
    const RANKS: usize = 5;
    const ZONE_DEPTH: usize = 1;
    const START_SFEN: &'static str = "rbsgk/4p/5/P4/KGSBR b - 1";
    const BOARD_KINDS: &'static [Kind] = &[
        Kind::Pawn,
        Kind::Silver,
        Kind::Gold,
        Kind::Bishop,
        Kind::Rook,
        Kind::King,
        Kind::ProPawn,
        Kind::ProSilver,
        Kind::ProBishop,
        Kind::ProRook,
    ];
    const HAND_KINDS: &'static [Kind] = &[
        Kind::Pawn,
        Kind::Silver,
        Kind::Gold,
        Kind::Bishop,
        Kind::Rook,
    ];
    const PIECE_TOTALS: [u8; 8] = [2, 0, 0, 2, 2, 2, 2, 2];
    const REPETITION: RepetitionRule = RepetitionRule::BlackLoses;
    const ENTERING_KING: bool = false;
    #[inline(always)]
    fn tables() -> &'static Tables {
        &MINISHOGI_TABLES
    }
}

/// Yari shogi, 9 ranks × 7 files.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Yari;

impl Variant for Yari {
    type Word = u64;
    const KIND: GameKind = GameKind::Yari;
    const FILES: usize = 7;
    const RANKS: usize = 9;
    const ZONE_DEPTH: usize = 3;
    const START_SFEN: &'static str = "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1";
    const BOARD_KINDS: &'static [Kind] = &[
        Kind::Pawn,
        Kind::Knight,
        Kind::Bishop,
        Kind::Rook,
        Kind::King,
        Kind::ProPawn,
        Kind::ProKnight,
        Kind::ProBishop,
        Kind::ProRook,
    ];
    const HAND_KINDS: &'static [Kind] = &[Kind::Pawn, Kind::Knight, Kind::Bishop, Kind::Rook];
    const PIECE_TOTALS: [u8; 8] = [14, 0, 4, 0, 0, 4, 4, 2];
    const REPETITION: RepetitionRule = RepetitionRule::Draw;
    const ENTERING_KING: bool = false;
    #[inline(always)]
    fn tables() -> &'static Tables {
        &YARI_TABLES
    }
}
