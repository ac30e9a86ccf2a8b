//! Building a position from nothing (SFEN parsing places pieces, then `finish_setup` derives the keys, checkers
//! and pins), and the key computed from scratch that checks the incremental one.

use super::{Bb, Position};
use crate::rules::attacks::{MAX_CLASSES, MAX_SLIDE_CLASSES, TABLE_SQUARES};
use crate::rules::hand::Hand;
use crate::rules::piece::{Color, Kind, Piece, KIND_COUNT};
use crate::rules::square::Square;
use crate::rules::variant::Variant;
use crate::rules::zobrist::KEYS;

impl<V: Variant> Position<V> {
    /// The key computed from scratch, to check the incremental one.
    pub fn compute_key(&self) -> u64 {
        let (board, hand) = self.keys_from_scratch();
        board ^ hand
    }

    /// The board part (side to move folded in) and the hand part of the key, from scratch.
    fn keys_from_scratch(&self) -> (u64, u64) {
        let mut board = 0;
        for sq in 0..V::SQUARES {
            let p = self.board[sq];
            if p.is_some() {
                board ^= KEYS.piece[p.code()][sq];
            }
        }
        if self.side == Color::White {
            board ^= KEYS.side;
        }
        let mut hand = 0;
        for c in Color::ALL {
            for &k in V::HAND_KINDS {
                hand ^= KEYS.hand[c.index()][k.index()][self.hands[c.index()].count(k) as usize];
            }
        }
        (board, hand)
    }

    /// An empty position (no pieces), used as the base of SFEN parsing.
    pub(super) fn empty() -> Self {
        Position {
            board: [Piece::NONE; TABLE_SQUARES],
            by_color: [Bb::<V>::EMPTY; 2],
            by_kind: [Bb::<V>::EMPTY; KIND_COUNT],
            by_step_class: [Bb::<V>::EMPTY; MAX_CLASSES],
            by_slide_class: [Bb::<V>::EMPTY; MAX_SLIDE_CLASSES],
            hands: [Hand::default(); 2],
            side: Color::Black,
            move_number: 1,
            kings: [Square::new(0); 2],
            board_key: 0,
            hand_key: 0,
            checkers: Bb::<V>::EMPTY,
            pinned: Bb::<V>::EMPTY,
            history: Vec::with_capacity(512),
        }
    }

    pub(super) fn place(&mut self, p: Piece, sq: Square) {
        self.put(p, sq);
        if p.kind() == Kind::King {
            self.kings[p.color().index()] = sq;
        }
    }

    /// Puts `c`'s king on the empty table slot past the board (see `attacks::TABLE_SQUARES`).
    pub(super) fn set_no_king(&mut self, c: Color) {
        self.kings[c.index()] = Square::new(V::SQUARES as u8);
    }

    pub(super) fn set_hand(&mut self, c: Color, k: Kind, n: u8) {
        self.hands[c.index()].set(k, n);
    }

    pub(super) fn finish_setup(&mut self, side: Color, move_number: u32) {
        self.side = side;
        self.move_number = move_number;
        (self.board_key, self.hand_key) = self.keys_from_scratch();
        self.history.clear();
        self.update_check_info();
    }
}
