//! A position of one game: board, hands, side to move, incremental Zobrist key, checkers and pinned pieces,
//! with do/undo and the history needed for repetition detection.

mod attackers;
pub mod csa;
mod declaration;
mod make;
pub mod notation;
mod repetition;
mod setup;
pub mod sfen;
pub mod xboard_fen;

pub use repetition::{Repetition, RepetitionVerdict};

use std::fmt;

use crate::rules::attacks::{MAX_CLASSES, MAX_SLIDE_CLASSES, TABLE_SQUARES};
use crate::rules::bitboard::Bitboard;
use crate::rules::hand::Hand;
use crate::rules::moves::Move;
use crate::rules::piece::{Color, Kind, Piece, KIND_COUNT};
use crate::rules::square::Square;
use crate::rules::variant::Variant;

/// The bitboard of variant `V`.
pub type Bb<V> = Bitboard<<V as Variant>::Word>;

/// What `do_move` saves so that `undo_move` can restore the position exactly.
#[derive(Clone, Copy, Debug)]
pub struct StateInfo<V: Variant> {
    pub mv: Move,
    pub captured: Piece,
    pub board_key: u64,
    pub hand_key: u64,
    pub checkers: Bb<V>,
    pub pinned: Bb<V>,
}

#[derive(Clone)]
pub struct Position<V: Variant> {
    board: [Piece; TABLE_SQUARES],
    by_color: [Bb<V>; 2],
    by_kind: [Bb<V>; KIND_COUNT],
    /// Pieces of both colours by step class and by slide class (see `Tables::step_class`).
    by_step_class: [Bb<V>; MAX_CLASSES],
    by_slide_class: [Bb<V>; MAX_SLIDE_CLASSES],
    hands: [Hand; 2],
    side: Color,
    /// The SFEN move number: 1 at the start, one more after each move.
    move_number: u32,
    kings: [Square; 2],
    /// Board part of the key, with the side to move folded in.
    board_key: u64,
    hand_key: u64,
    /// Pieces giving check to the side to move.
    checkers: Bb<V>,
    /// Pieces of the side to move pinned to its own king.
    pinned: Bb<V>,
    history: Vec<StateInfo<V>>,
}

impl<V: Variant> Position<V> {
    // ----- accessors ---------------------------------------------------------------------------------------

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Piece {
        self.board[sq.index()]
    }
    #[inline(always)]
    pub fn occupied(&self) -> Bb<V> {
        self.by_color[0] | self.by_color[1]
    }
    #[inline(always)]
    pub fn color_bb(&self, c: Color) -> Bb<V> {
        self.by_color[c.index()]
    }
    #[inline(always)]
    pub fn kind_bb(&self, k: Kind) -> Bb<V> {
        self.by_kind[k.index()]
    }
    #[inline(always)]
    pub fn pieces(&self, c: Color, k: Kind) -> Bb<V> {
        self.by_kind[k.index()] & self.by_color[c.index()]
    }
    #[inline(always)]
    pub fn hand(&self, c: Color) -> &Hand {
        &self.hands[c.index()]
    }
    #[inline(always)]
    pub fn king(&self, c: Color) -> Square {
        self.kings[c.index()]
    }
    /// Whether `c` has a king on the board (false only for the attacker of a tsume problem, see
    /// [`Position::from_tsume_sfen`]).
    #[inline(always)]
    pub fn has_king(&self, c: Color) -> bool {
        self.kings[c.index()].index() < V::SQUARES
    }
    /// The board part of the key (pieces on the board and the side to move, no hands).
    #[inline(always)]
    pub fn board_key(&self) -> u64 {
        self.board_key
    }
    #[inline(always)]
    pub fn checkers(&self) -> Bb<V> {
        self.checkers
    }
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }
    #[inline(always)]
    pub fn pinned(&self) -> Bb<V> {
        self.pinned
    }
    /// Pieces of both colours in step class `class` (see `Tables::step_class`).
    #[inline(always)]
    pub(crate) fn step_class_bb(&self, class: usize) -> Bb<V> {
        self.by_step_class[class]
    }
    /// The hands part of the key (the pieces both sides hold).
    #[inline(always)]
    pub fn hand_key(&self) -> u64 {
        self.hand_key
    }
    /// The Zobrist key of board, hands and side to move.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.board_key ^ self.hand_key
    }
    #[inline(always)]
    pub fn move_number(&self) -> u32 {
        self.move_number
    }
    /// Moves played since the position was set up.
    pub fn game_ply(&self) -> usize {
        self.history.len()
    }
    pub fn history(&self) -> &[StateInfo<V>] {
        &self.history
    }

    /// Whether `c` has an unpromoted pawn on the file of `sq`.
    #[inline(always)]
    pub fn has_pawn_on_file(&self, c: Color, sq: Square) -> bool {
        let file = Bb::<V>::from_u128(V::tables().file[sq.file_index(V::RANKS)]);
        (self.pieces(c, Kind::Pawn) & file).any()
    }

    /// The start position of the game.
    pub fn startpos() -> Self {
        match Self::from_sfen(V::START_SFEN) {
            Ok(p) => p,
            Err(e) => unreachable!("the built-in start SFEN of {} is invalid: {e}", V::NAME),
        }
    }
}

impl<V: Variant> fmt::Display for Position<V> {
    /// A diagram with file numbers on top, followed by the SFEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for fi in (0..V::FILES).rev() {
            write!(f, "{:>3}", fi + 1)?;
        }
        writeln!(f)?;
        for r in 0..V::RANKS {
            for fi in (0..V::FILES).rev() {
                let p = self.board[Square::from_coords(fi, r, V::RANKS).index()];
                write!(f, "{:>3}", p.to_string())?;
            }
            writeln!(f, "  {}", (b'a' + r as u8) as char)?;
        }
        writeln!(f, "sfen {}", self.to_sfen())
    }
}

impl<V: Variant> fmt::Debug for Position<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_sfen())
    }
}

/// Test positions: `games` random games of up to `plies` plies from the start, `visit` called on each position
/// that has a legal move, before the random move is played (left as it was found).
#[cfg(test)]
pub(crate) fn random_playouts<V: Variant>(
    seed: u64,
    games: usize,
    plies: usize,
    mut visit: impl FnMut(&mut Position<V>),
) {
    let mut rng = crate::rules::rng::SplitMix64::new(seed);
    for _ in 0..games {
        let mut pos = Position::<V>::startpos();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            visit(&mut pos);
            pos.do_move(moves[rng.below(moves.len())]);
        }
    }
}
