//! A position of one game: board, hands, side to move, incremental Zobrist key, checkers and pinned pieces,
//! with do/undo and the history needed for repetition detection.

pub mod notation;
mod repetition;
pub mod sfen;

pub use repetition::{Repetition, RepetitionVerdict};

use std::fmt;

use crate::rules::attacks::{
    direction_is_positive, opposite_direction, MAX_CLASSES, MAX_SLIDE_CLASSES, MAX_SQUARES,
    NO_CLASS,
};
use crate::rules::bitboard::Bitboard;
use crate::rules::game::EnteringKingRule;
use crate::rules::hand::Hand;
use crate::rules::moves::Move;
use crate::rules::piece::{Color, Kind, Piece, KIND_COUNT};
use crate::rules::square::Square;
use crate::rules::variant::Variant;
use crate::rules::zobrist::KEYS;

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
    pub(crate) board: [Piece; MAX_SQUARES],
    pub(crate) by_color: [Bb<V>; 2],
    pub(crate) by_kind: [Bb<V>; KIND_COUNT],
    /// Pieces of both colours by step class and by slide class (see `Tables::step_class`).
    pub(crate) by_step_class: [Bb<V>; MAX_CLASSES],
    pub(crate) by_slide_class: [Bb<V>; MAX_SLIDE_CLASSES],
    pub(crate) hands: [Hand; 2],
    pub(crate) side: Color,
    /// The SFEN move number: 1 at the start, one more after each move.
    pub(crate) move_number: u32,
    pub(crate) kings: [Square; 2],
    /// Board part of the key, with the side to move folded in.
    pub(crate) board_key: u64,
    pub(crate) hand_key: u64,
    /// Pieces giving check to the side to move.
    pub(crate) checkers: Bb<V>,
    /// Pieces of the side to move pinned to its own king.
    pub(crate) pinned: Bb<V>,
    pub(crate) history: Vec<StateInfo<V>>,
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

    // ----- attacks -----------------------------------------------------------------------------------------

    /// Squares reached by sliding from `sq` in absolute direction `d`, up to and including the first blocker.
    #[inline(always)]
    pub fn slide(d: usize, sq: Square, occ: Bb<V>) -> Bb<V> {
        let t = V::tables();
        let ray = Bb::<V>::from_u128(t.ray[d][sq.index()]);
        let blockers = ray & occ;
        if blockers.is_empty() {
            return ray;
        }
        let b = if direction_is_positive(d) {
            blockers.lsb()
        } else {
            blockers.msb()
        };
        ray ^ Bb::<V>::from_u128(t.ray[d][b.index()])
    }

    /// Squares attacked by a piece of colour `c` and kind `k` standing on `sq`, given the occupancy.
    #[inline(always)]
    pub fn attacks_from(c: Color, k: Kind, sq: Square, occ: Bb<V>) -> Bb<V> {
        let t = V::tables();
        let mut att = Bb::<V>::from_u128(t.step[c.index()][k.index()][sq.index()]);
        let mut dirs = t.slides[c.index()][k.index()];
        while dirs != 0 {
            let d = dirs.trailing_zeros() as usize;
            dirs &= dirs - 1;
            att |= Self::slide(d, sq, occ);
        }
        att
    }

    /// Sliders of colour `c` that would reach `sq` on an empty board.
    #[inline(always)]
    fn slider_candidates(&self, c: Color, sq: Square) -> Bb<V> {
        let t = V::tables();
        let mut bb = Bb::<V>::EMPTY;
        for cls in 0..t.slide_classes {
            bb |= Bb::<V>::from_u128(t.slide_reach[c.index()][cls][sq.index()])
                & self.by_slide_class[cls];
        }
        bb & self.by_color[c.index()]
    }

    /// Step attackers of colour `c` (restricted to `enemy`, a subset of `c`'s pieces) onto `sq`.
    #[inline(always)]
    fn step_attackers(&self, c: Color, sq: Square, enemy: Bb<V>) -> Bb<V> {
        let t = V::tables();
        if (Bb::<V>::from_u128(t.step_reach[sq.index()]) & enemy).is_empty() {
            return Bb::<V>::EMPTY;
        }
        let mut att = Bb::<V>::EMPTY;
        for cls in 0..t.step_classes {
            let k = t.step_class_kind[cls] as usize;
            att |=
                Bb::<V>::from_u128(t.step[(!c).index()][k][sq.index()]) & self.by_step_class[cls];
        }
        att & enemy
    }

    /// Pieces of colour `c` attacking `sq`, given the occupancy (which may differ from the board's by removed
    /// pieces, e.g. a king stepping away).
    pub fn attackers_to(&self, c: Color, sq: Square, occ: Bb<V>) -> Bb<V> {
        let enemy = self.by_color[c.index()] & occ;
        let mut att = self.step_attackers(c, sq, enemy);
        for s in self.slider_candidates(c, sq) & occ {
            if (Self::between(s, sq) & occ).is_empty() {
                att |= Bb::<V>::square(s);
            }
        }
        att
    }

    /// Whether colour `c` attacks `sq`, given the occupancy.
    #[inline]
    pub fn is_attacked(&self, c: Color, sq: Square, occ: Bb<V>) -> bool {
        let enemy = self.by_color[c.index()] & occ;
        if self.step_attackers(c, sq, enemy).any() {
            return true;
        }
        for s in self.slider_candidates(c, sq) & occ {
            if (Self::between(s, sq) & occ).is_empty() {
                return true;
            }
        }
        false
    }

    /// Pieces of colour `c` standing alone between `c`'s king and an enemy slider aimed at it.
    pub fn pinned_pieces(&self, c: Color, occ: Bb<V>) -> Bb<V> {
        let ksq = self.kings[c.index()];
        let ours = self.by_color[c.index()];
        let mut pinned = Bb::<V>::EMPTY;
        for s in self.slider_candidates(!c, ksq) & occ {
            let between = Self::between(s, ksq) & occ;
            if !between.several() && (between & ours).any() {
                pinned |= between;
            }
        }
        pinned
    }

    /// Squares between two squares on one line (exclusive); empty when they are not aligned.
    #[inline(always)]
    pub fn between(a: Square, b: Square) -> Bb<V> {
        let t = V::tables();
        let d = t.direction[a.index()][b.index()];
        if d == 0 {
            return Bb::<V>::EMPTY;
        }
        let d = (d - 1) as usize;
        Bb::<V>::from_u128(t.ray[d][a.index()] & t.ray[opposite_direction(d)][b.index()])
    }

    /// The whole line through two aligned squares (both included); empty when they are not aligned.
    #[inline(always)]
    pub fn line(a: Square, b: Square) -> Bb<V> {
        let t = V::tables();
        let d = t.direction[a.index()][b.index()];
        if d == 0 {
            return Bb::<V>::EMPTY;
        }
        let d = (d - 1) as usize;
        Bb::<V>::from_u128(t.ray[d][a.index()] | t.ray[opposite_direction(d)][a.index()])
            | Bb::<V>::square(a)
    }

    // ----- do and undo -------------------------------------------------------------------------------------

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
    fn put(&mut self, p: Piece, sq: Square) {
        let b = Bb::<V>::square(sq);
        self.board[sq.index()] = p;
        self.by_color[p.color().index()] |= b;
        self.by_kind[p.kind().index()] |= b;
        self.toggle_classes(p.kind(), b);
        self.board_key ^= KEYS.piece[p.code()][sq.index()];
    }

    #[inline(always)]
    fn remove(&mut self, sq: Square) -> Piece {
        let p = self.board[sq.index()];
        let b = Bb::<V>::square(sq);
        self.board[sq.index()] = Piece::NONE;
        self.by_color[p.color().index()] ^= b;
        self.by_kind[p.kind().index()] ^= b;
        self.toggle_classes(p.kind(), b);
        self.board_key ^= KEYS.piece[p.code()][sq.index()];
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
            let k = match (m.is_promotion(), k.promoted()) {
                (true, Some(pk)) => pk,
                _ => k,
            };
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
        let us = self.side;
        let mut key = self.key() ^ KEYS.side;
        let to = m.to();
        if m.is_drop() {
            let k = m.dropped();
            let n = self.hands[us.index()].count(k) as usize;
            key ^= KEYS.piece[Piece::new(us, k).code()][to.index()];
            if n > 0 {
                key ^=
                    KEYS.hand[us.index()][k.index()][n] ^ KEYS.hand[us.index()][k.index()][n - 1];
            }
        } else {
            let from = m.from();
            let p = self.board[from.index()];
            if p.is_none() {
                return key;
            }
            let k = match (m.is_promotion(), p.kind().promoted()) {
                (true, Some(pk)) => pk,
                _ => p.kind(),
            };
            key ^= KEYS.piece[p.code()][from.index()]
                ^ KEYS.piece[Piece::new(us, k).code()][to.index()];
            let captured = self.board[to.index()];
            if captured.is_some() {
                let ck = captured.kind().unpromoted();
                let n = self.hands[us.index()].count(ck) as usize;
                key ^= KEYS.piece[captured.code()][to.index()];
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
            self.remove(m.to());
            self.hands[us.index()].add(m.dropped());
        } else {
            let p = self.remove(m.to());
            let k = if m.is_promotion() {
                p.kind().unpromoted()
            } else {
                p.kind()
            };
            self.put(Piece::new(us, k), m.from());
            if k == Kind::King {
                self.kings[us.index()] = m.from();
            }
            if st.captured.is_some() {
                self.put(st.captured, m.to());
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

    pub(crate) fn update_check_info(&mut self) {
        let us = self.side;
        let occ = self.occupied();
        self.checkers = self.attackers_to(!us, self.kings[us.index()], occ);
        self.pinned = self.pinned_pieces(us, occ);
    }

    /// The key computed from scratch, to check the incremental one.
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for sq in 0..V::SQUARES {
            let p = self.board[sq];
            if p.is_some() {
                key ^= KEYS.piece[p.code()][sq];
            }
        }
        if self.side == Color::White {
            key ^= KEYS.side;
        }
        for c in Color::ALL {
            for &k in V::HAND_KINDS {
                key ^= KEYS.hand[c.index()][k.index()][self.hands[c.index()].count(k) as usize];
            }
        }
        key
    }

    /// Whether `c` has an unpromoted pawn on the file of `sq`.
    #[inline(always)]
    pub fn has_pawn_on_file(&self, c: Color, sq: Square) -> bool {
        let file = Bb::<V>::from_u128(V::tables().file[sq.file_index(V::RANKS)]);
        (self.pieces(c, Kind::Pawn) & file).any()
    }

    /// An empty position (no pieces), used as the base of SFEN parsing.
    pub(crate) fn empty() -> Self {
        Position {
            board: [Piece::NONE; MAX_SQUARES],
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

    pub(crate) fn place(&mut self, p: Piece, sq: Square) {
        self.put(p, sq);
        if p.kind() == Kind::King {
            self.kings[p.color().index()] = sq;
        }
    }

    pub(crate) fn set_hand(&mut self, c: Color, k: Kind, n: u8) {
        self.hands[c.index()].set(k, n);
    }

    pub(crate) fn finish_setup(&mut self, side: Color, move_number: u32) {
        self.side = side;
        self.move_number = move_number;
        self.board_key = 0;
        self.hand_key = 0;
        for sq in 0..V::SQUARES {
            let p = self.board[sq];
            if p.is_some() {
                self.board_key ^= KEYS.piece[p.code()][sq];
            }
        }
        if side == Color::White {
            self.board_key ^= KEYS.side;
        }
        for c in Color::ALL {
            for &k in V::HAND_KINDS {
                self.hand_key ^=
                    KEYS.hand[c.index()][k.index()][self.hands[c.index()].count(k) as usize];
            }
        }
        self.history.clear();
        self.update_check_info();
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
