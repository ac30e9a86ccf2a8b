//! Playing and taking back moves (and null moves), keeping the Zobrist keys, checkers and pins up to date
//! incrementally; a debug assertion recomputes the key after every change.

use super::{Bb, Position, StateInfo};
use crate::rules::attacks::NO_CLASS;
use crate::rules::moves::Move;
use crate::rules::piece::{Color, Kind, Piece};
use crate::rules::square::Square;
use crate::rules::variant::Variant;
use crate::rules::zobrist::KEYS;

impl<V: Variant> Position<V> {
    #[inline(always)]
    fn toggle_classes(&mut self, k: Kind, b: Bb<V>) {
        let t = V::tables();
        let sc = t.step_class[k.index()];
        if sc != NO_CLASS {
            self.by_step_class[sc as usize] ^= b;
        }
        let lc = t.slide_class[k.index()];
        if lc != NO_CLASS {
            self.by_slide_class[lc as usize] ^= b;
        }
    }

    #[inline(always)]
    pub(super) fn put(&mut self, p: Piece, sq: Square) {
        self.set_piece::<true>(p, sq);
    }

    /// Puts `p` on `sq`, updating the board key only when `KEY` (taking a move back restores the saved keys
    /// instead).
    #[inline(always)]
    fn set_piece<const KEY: bool>(&mut self, p: Piece, sq: Square) {
        let b = Bb::<V>::square(sq);
        self.board[sq.index()] = p;
        self.by_color[p.color().index()] |= b;
        self.by_kind[p.kind().index()] |= b;
        self.toggle_classes(p.kind(), b);
        if KEY {
            self.board_key ^= KEYS.piece[p.code()][sq.index()];
        }
    }

    #[inline(always)]
    fn remove(&mut self, sq: Square) -> Piece {
        self.lift::<true>(sq)
    }

    /// Takes the piece off `sq`, updating the board key only when `KEY`.
    #[inline(always)]
    fn lift<const KEY: bool>(&mut self, sq: Square) -> Piece {
        let p = self.board[sq.index()];
        let b = Bb::<V>::square(sq);
        self.board[sq.index()] = Piece::NONE;
        self.by_color[p.color().index()] ^= b;
        self.by_kind[p.kind().index()] ^= b;
        self.toggle_classes(p.kind(), b);
        if KEY {
            self.board_key ^= KEYS.piece[p.code()][sq.index()];
        }
        p
    }

    #[inline(always)]
    fn hand_add(&mut self, c: Color, k: Kind) {
        let n = self.hands[c.index()].count(k) as usize;
        self.hand_key ^=
            KEYS.hand[c.index()][k.index()][n] ^ KEYS.hand[c.index()][k.index()][n + 1];
        self.hands[c.index()].add(k);
    }

    #[inline(always)]
    fn hand_remove(&mut self, c: Color, k: Kind) {
        let n = self.hands[c.index()].count(k) as usize;
        self.hand_key ^=
            KEYS.hand[c.index()][k.index()][n] ^ KEYS.hand[c.index()][k.index()][n - 1];
        self.hands[c.index()].remove(k);
    }

    /// Plays a move that must be legal in this position (as generated, or checked by `parse_move` or
    /// `is_legal`).
    pub fn do_move(&mut self, m: Move) {
        let us = self.side;
        let mut captured = Piece::NONE;
        let state = StateInfo {
            mv: m,
            captured,
            board_key: self.board_key,
            hand_key: self.hand_key,
            checkers: self.checkers,
            pinned: self.pinned,
        };
        if m.is_drop() {
            let k = m.dropped();
            self.hand_remove(us, k);
            self.put(Piece::new(us, k), m.to());
        } else {
            let (from, to) = (m.from(), m.to());
            if self.board[to.index()].is_some() {
                captured = self.remove(to);
                self.hand_add(us, captured.kind().unpromoted());
            }
            let p = self.remove(from);
            let k = p.kind();
            let k = k.after_move(m.is_promotion());
            self.put(Piece::new(us, k), to);
            if k == Kind::King {
                self.kings[us.index()] = to;
            }
        }
        self.history.push(StateInfo { captured, ..state });
        self.side = !us;
        self.board_key ^= KEYS.side;
        self.move_number += 1;
        self.checkers = self.checkers_after(m);
        self.pinned = self.pinned_pieces(!us, self.occupied());
        debug_assert_eq!(
            self.checkers,
            self.attackers_to(us, self.kings[(!us).index()], self.occupied())
        );
        debug_assert_eq!(
            self.key(),
            self.compute_key(),
            "incremental key diverged after {m:?}"
        );
    }

    /// The key the position will have after `m` (a legal move), without playing it: lets the search prefetch
    /// the table entry of the next node early.
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        self.board_key_after(m) ^ self.hand_key_after(m)
    }

    /// The board part of [`Position::key_after`] (side to move included): the tsume solver's table key.
    #[inline]
    pub fn board_key_after(&self, m: Move) -> u64 {
        let us = self.side;
        let mut key = self.board_key ^ KEYS.side;
        let to = m.to();
        if m.is_drop() {
            key ^= KEYS.piece[Piece::new(us, m.dropped()).code()][to.index()];
        } else {
            let from = m.from();
            let p = self.board[from.index()];
            if p.is_none() {
                return key;
            }
            let k = p.kind().after_move(m.is_promotion());
            key ^= KEYS.piece[p.code()][from.index()]
                ^ KEYS.piece[Piece::new(us, k).code()][to.index()];
            let captured = self.board[to.index()];
            if captured.is_some() {
                key ^= KEYS.piece[captured.code()][to.index()];
            }
        }
        key
    }

    /// The hands' part of [`Position::key_after`].
    #[inline]
    pub fn hand_key_after(&self, m: Move) -> u64 {
        let us = self.side;
        let mut key = self.hand_key;
        if m.is_drop() {
            let k = m.dropped();
            let n = self.hands[us.index()].count(k) as usize;
            if n > 0 {
                key ^=
                    KEYS.hand[us.index()][k.index()][n] ^ KEYS.hand[us.index()][k.index()][n - 1];
            }
        } else {
            let captured = self.board[m.to().index()];
            // a move from an empty square changes nothing, as in `board_key_after`
            if self.board[m.from().index()].is_some() && captured.is_some() {
                let ck = captured.kind().unpromoted();
                let n = self.hands[us.index()].count(ck) as usize;
                if n < crate::rules::zobrist::MAX_HAND_COUNT {
                    key ^= KEYS.hand[us.index()][ck.index()][n]
                        ^ KEYS.hand[us.index()][ck.index()][n + 1];
                }
            }
        }
        key
    }

    /// Takes back the last move played with `do_move`; does nothing when there is none.
    pub fn undo_move(&mut self) {
        let Some(st) = self.history.pop() else {
            return;
        };
        let m = st.mv;
        let us = !self.side;
        if m.is_drop() {
            self.lift::<false>(m.to());
            self.hands[us.index()].add(m.dropped());
        } else {
            let p = self.lift::<false>(m.to());
            let k = if m.is_promotion() {
                p.kind().unpromoted()
            } else {
                p.kind()
            };
            self.set_piece::<false>(Piece::new(us, k), m.from());
            if k == Kind::King {
                self.kings[us.index()] = m.from();
            }
            if st.captured.is_some() {
                self.set_piece::<false>(st.captured, m.to());
                self.hands[us.index()].remove(st.captured.kind().unpromoted());
            }
        }
        self.side = us;
        self.move_number -= 1;
        self.board_key = st.board_key;
        self.hand_key = st.hand_key;
        self.checkers = st.checkers;
        self.pinned = st.pinned;
        debug_assert_eq!(
            self.key(),
            self.compute_key(),
            "key diverged after undoing {m:?}"
        );
    }

    /// Passes the turn (for null-move pruning); must not be called in check. Undo with `undo_null_move`.
    pub fn do_null_move(&mut self) {
        debug_assert!(!self.in_check());
        self.history.push(StateInfo {
            mv: Move::NONE,
            captured: Piece::NONE,
            board_key: self.board_key,
            hand_key: self.hand_key,
            checkers: self.checkers,
            pinned: self.pinned,
        });
        self.side = !self.side;
        self.board_key ^= KEYS.side;
        self.move_number += 1;
        self.update_check_info();
    }

    pub fn undo_null_move(&mut self) {
        if let Some(st) = self.history.pop() {
            self.side = !self.side;
            self.move_number -= 1;
            self.board_key = st.board_key;
            self.hand_key = st.hand_key;
            self.checkers = st.checkers;
            self.pinned = st.pinned;
        }
    }

    /// The pieces checking the side to move after `m` was played by the other side: the moved piece itself, or
    /// a slider it uncovered.
    #[inline(always)]
    fn checkers_after(&self, m: Move) -> Bb<V> {
        let t = V::tables();
        let mover = !self.side;
        let king = self.kings[self.side.index()];
        let occ = self.occupied();
        let to = m.to();
        let mut checkers = Bb::<V>::EMPTY;
        let kind = self.board[to.index()].kind();
        if Self::attacks_from(mover, kind, to, occ).has(king) {
            checkers = Bb::<V>::square(to);
        }
        if !m.is_drop() {
            let d = t.direction[king.index()][m.from().index()];
            if d != 0 {
                let d = (d - 1) as usize;
                let hit = Self::slide(d, king, occ) & occ;
                if hit.any()
                    && hit != Bb::<V>::square(to)
                    && (hit & self.slider_candidates(mover, king)).any()
                {
                    checkers |= hit;
                }
            }
        }
        checkers
    }

    pub(super) fn update_check_info(&mut self) {
        let us = self.side;
        let occ = self.occupied();
        self.checkers = self.attackers_to(!us, self.kings[us.index()], occ);
        self.pinned = self.pinned_pieces(us, occ);
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::position::random_playouts;
    use crate::rules::variant::{Minishogi, Shogi, Variant, Yari};

    /// The keys predicted for each legal move are those the move then gives, over random playouts (captures,
    /// promotions and drops of every kind among them).
    fn keys_after_match<V: Variant>(seed: u64) {
        random_playouts::<V>(seed, 20, 120, |pos| {
            for &m in pos.legal_moves().iter() {
                let (key, board_key) = (pos.key_after(m), pos.board_key_after(m));
                pos.do_move(m);
                assert_eq!((pos.key(), pos.board_key()), (key, board_key), "{m:?}");
                pos.undo_move();
            }
        });
    }

    #[test]
    fn keys_after_a_move_are_predicted_exactly() {
        keys_after_match::<Shogi>(1);
        keys_after_match::<Minishogi>(2);
        keys_after_match::<Yari>(3);
    }
}
