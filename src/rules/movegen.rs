//! Legal move generation: every move generated is legal, so perft counts the last ply by the list's length.
//!
//! Legality comes from the check and pin information kept by the position: in check, non-king moves must capture
//! the checker or block its line (and a double check leaves only king moves); a pinned piece stays on the line
//! through its king; the king steps only to squares the opponent does not attack once the king has left its
//! square. Drops obey the three drop rules: no dead drops, no second pawn on a file (nifu), no pawn drop that
//! mates at once (uchifuzume).

use crate::rules::moves::{Move, MoveList};
use crate::rules::piece::{Color, Kind};
use crate::rules::position::{Bb, Position};
use crate::rules::square::Square;
use crate::rules::variant::Variant;

/// Which moves to generate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GenMode {
    /// All legal moves.
    All,
    /// Legal moves that capture (each promotion choice of a capture included).
    Captures,
    /// Legal moves that do not capture, drops included.
    Quiets,
    /// Legal moves that give check.
    Checks,
    /// Legal promotions that do not capture (quiescence search adds them to the captures).
    QuietPromotions,
}

impl<V: Variant> Position<V> {
    /// All legal moves.
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(GenMode::All, &mut list);
        list
    }

    /// Appends the legal moves of `mode` to `list`.
    pub fn generate(&self, mode: GenMode, list: &mut MoveList) {
        match mode {
            GenMode::All => self.generate_filtered::<true, true>(list),
            GenMode::Captures => self.generate_filtered::<true, false>(list),
            GenMode::Quiets => self.generate_filtered::<false, true>(list),
            GenMode::QuietPromotions => {
                self.generate_into::<false, true, _>(&mut PromotionSink(list));
            }
            GenMode::Checks => {
                let start = list.len();
                self.generate_filtered::<true, true>(list);
                let mut i = start;
                while i < list.len() {
                    if self.gives_check(list[i]) {
                        i += 1;
                    } else {
                        list.swap_remove(i);
                    }
                }
            }
        }
    }

    /// The number of legal moves, counted without listing them (perft's last ply).
    pub fn count_legal_moves(&self) -> u64 {
        let mut sink = CountSink(0);
        self.generate_into::<true, true, _>(&mut sink);
        sink.0
    }

    /// The number of legal moves with all drops onto one square counted as one (a tsume solver's estimate of
    /// how many defences a position has: the interpositions on one square mostly stand or fall together).
    pub fn count_legal_moves_drop_squares_once(&self) -> u32 {
        if self.checkers().any() {
            return self.count_evasions_drop_squares_once();
        }
        let mut sink = DropSquaresCountSink::<V> {
            moves: 0,
            drop_squares: Bb::<V>::EMPTY,
        };
        self.generate_into::<true, true, _>(&mut sink);
        sink.moves + sink.drop_squares.count()
    }

    /// The same count for a side in check, found from the few squares that answer the check (the checker's and
    /// those between it and the king) instead of from every piece: the solver counts the defences of most checks
    /// it looks at, and a defender has many pieces but a check few answering squares.
    fn count_evasions_drop_squares_once(&self) -> u32 {
        let t = V::tables();
        let us = self.side_to_move();
        let ksq = self.king(us);
        let occ = self.occupied();
        let mut sink = DropSquaresCountSink::<V> {
            moves: 0,
            drop_squares: Bb::<V>::EMPTY,
        };
        sink.board_moves(
            ksq,
            Bb::<V>::EMPTY,
            self.safe_king_steps_gathered(V::board() & !self.color_bb(us)),
        );
        let checkers = self.checkers();
        if checkers.several() {
            return sink.moves;
        }
        let between = Self::between(ksq, checkers.lsb());
        let zone = Bb::<V>::from_u128(t.zone[us.index()]);
        let pinned = self.pinned();
        for to in between | checkers {
            for from in self.attackers_to(us, to, occ) & !Bb::<V>::square(ksq) {
                if pinned.has(from) && !Self::line(ksq, from).has(to) {
                    continue;
                }
                let k = self.piece_at(from).kind().index();
                let alive = !Bb::<V>::from_u128(t.dead[us.index()][k]);
                let at = Bb::<V>::square(to);
                if t.promotes[k] {
                    let (promoting, stay) = Self::split_promotions(from, at, zone, alive);
                    sink.board_moves(from, promoting, stay);
                } else {
                    sink.board_moves(from, Bb::<V>::EMPTY, at);
                }
            }
        }
        self.generate_drops(&mut sink, between);
        sink.moves + sink.drop_squares.count()
    }

    /// The squares of `wanted` the king of the side to move can step to without being attacked there, found
    /// square by square: out of check the king mostly has one or two flights (it stands among its own pieces),
    /// and asking each of them for an attacker is cheaper than gathering every slider's rays. With the gathering
    /// (`safe_king_steps_gathered`) for every position, perft 6 of 9x9 shogi took 12% longer (docs/testing.md).
    #[inline(always)]
    fn safe_king_steps(&self, wanted: Bb<V>) -> Bb<V> {
        let us = self.side_to_move();
        let ksq = self.king(us);
        let occ_without_king = self.occupied() ^ Bb::<V>::square(ksq);
        let steps =
            Bb::<V>::from_u128(V::tables().step[us.index()][Kind::King.index()][ksq.index()]);
        let mut safe = Bb::<V>::EMPTY;
        for to in steps & wanted {
            if !self.is_attacked(!us, to, occ_without_king) {
                safe |= Bb::<V>::square(to);
            }
        }
        safe
    }

    /// [`Self::safe_king_steps`] for a king in check, whose flights the solver generates and counts.
    ///
    /// The enemy's attacks are gathered once for all the flight squares (from the few step pieces near enough
    /// and from each slider, with the king off the board so that it hides nothing behind it), not square by
    /// square: the solver counts the evasions of most checks it looks at, and testing each flight square
    /// alone repeated the same piece lookups up to eight times.
    #[inline(always)]
    fn safe_king_steps_gathered(&self, wanted: Bb<V>) -> Bb<V> {
        let t = V::tables();
        let us = self.side_to_move();
        let them = !us;
        let ksq = self.king(us);
        let flights =
            Bb::<V>::from_u128(t.step[us.index()][Kind::King.index()][ksq.index()]) & wanted;
        if flights.is_empty() {
            return flights;
        }
        let enemy = self.color_bb(them);
        let mut attacked = Bb::<V>::EMPTY;
        for s in enemy & Bb::<V>::from_u128(t.king_step_reach[ksq.index()]) {
            let k = self.piece_at(s).kind();
            attacked |= Bb::<V>::from_u128(t.step[them.index()][k.index()][s.index()]);
        }
        let mut safe = flights & !attacked;
        if safe.is_empty() {
            return safe;
        }
        let occ_without_king = self.occupied() ^ Bb::<V>::square(ksq);
        for s in self.sliders(them) {
            let k = self.piece_at(s).kind();
            let mut dirs = t.slides[them.index()][k.index()];
            while dirs != 0 {
                let d = dirs.trailing_zeros() as usize;
                dirs &= dirs - 1;
                safe &= !Self::slide(d, s, occ_without_king);
            }
            if safe.is_empty() {
                break;
            }
        }
        safe
    }

    /// A promoting piece's moves from `from` to `to` split into promotions (the move starts or ends in the
    /// zone) and non-promotions (none onto a square where the piece could never move again: not in `alive`).
    #[inline(always)]
    fn split_promotions(from: Square, to: Bb<V>, zone: Bb<V>, alive: Bb<V>) -> (Bb<V>, Bb<V>) {
        let promoting = if zone.has(from) { to } else { to & zone };
        (promoting, to & alive)
    }

    fn generate_filtered<const CAPTURES: bool, const QUIETS: bool>(&self, list: &mut MoveList) {
        self.generate_into::<CAPTURES, QUIETS, _>(&mut ListSink(list));
    }

    fn generate_into<const CAPTURES: bool, const QUIETS: bool, S: MoveSink<V>>(
        &self,
        sink: &mut S,
    ) {
        let t = V::tables();
        let us = self.side_to_move();
        let them = !us;
        let ksq = self.king(us);
        let occ = self.occupied();
        let ours = self.color_bb(us);
        let theirs = self.color_bb(them);
        let board = V::board();
        let wanted = match (CAPTURES, QUIETS) {
            (true, true) => board & !ours,
            (true, false) => theirs,
            (false, true) => board & !occ,
            (false, false) => Bb::<V>::EMPTY,
        };

        // a king in check is where the tsume solver generates most (the defender's evasions), and there the
        // gathered attacks are faster; elsewhere the king has few flights, asked square by square
        let king_steps = if self.checkers().any() {
            self.safe_king_steps_gathered(wanted)
        } else {
            self.safe_king_steps(wanted)
        };
        sink.board_moves(ksq, Bb::<V>::EMPTY, king_steps);
        if self.checkers().several() {
            return;
        }

        let (target, drop_target) = if self.checkers().any() {
            let checker = self.checkers().lsb();
            let between = Self::between(ksq, checker);
            (between | self.checkers(), between)
        } else {
            (board & !ours, board & !occ)
        };
        let target = target & wanted;

        // board moves
        let zone = Bb::<V>::from_u128(t.zone[us.index()]);

        // Pawns move together by one shift (file-major squares: forward is one bit); a pawn never stands on its
        // last rank, so the shift never wraps into the next file. Pinned pawns go through the per-piece path.
        let pawns = self.pieces(us, Kind::Pawn);
        let to = Bb::<V>::forward(pawns & !self.pinned(), us) & target;
        let alive = !Bb::<V>::from_u128(t.dead[us.index()][Kind::Pawn.index()]);
        sink.pawn_moves(us, to & zone, to & alive);

        for &k in V::NON_KING_KINDS {
            if t.covered_by_class[k.index()] {
                continue;
            }
            let froms = if k == Kind::Pawn {
                pawns & self.pinned()
            } else if t.generate_as_class[k.index()] {
                self.step_class_bb(t.step_class[k.index()] as usize) & ours
            } else {
                self.pieces(us, k)
            };
            if froms.is_empty() {
                continue;
            }
            let promotes = t.promotes[k.index()];
            let alive = !Bb::<V>::from_u128(t.dead[us.index()][k.index()]);
            for from in froms {
                let mut to = Self::attacks_from(us, k, from, occ) & target;
                if self.pinned().has(from) {
                    to &= Self::line(ksq, from);
                }
                if promotes {
                    let (promoting, stay) = Self::split_promotions(from, to, zone, alive);
                    sink.board_moves(from, promoting, stay);
                } else {
                    sink.board_moves(from, Bb::<V>::EMPTY, to);
                }
            }
        }

        // drops
        if QUIETS {
            self.generate_drops(sink, drop_target);
        }
    }

    fn generate_drops<S: MoveSink<V>>(&self, sink: &mut S, target: Bb<V>) {
        let t = V::tables();
        let us = self.side_to_move();
        let hand = *self.hand(us);
        if hand.is_empty() || target.is_empty() {
            return;
        }
        for &k in V::HAND_KINDS {
            if !hand.has(k) {
                continue;
            }
            let mut to = target & !Bb::<V>::from_u128(t.dead[us.index()][k.index()]);
            if k == Kind::Pawn {
                for p in self.pieces(us, Kind::Pawn) {
                    to &= !Bb::<V>::from_u128(t.file[p.file_index(V::RANKS)]);
                }
                // the one square where a pawn drop checks: in front of the enemy king
                let them = !us;
                let front = Bb::<V>::from_u128(
                    t.step[them.index()][Kind::Pawn.index()][self.king(them).index()],
                );
                if (to & front).any() && self.pawn_drop_mates(front.lsb()) {
                    to ^= front;
                }
            }
            sink.drops(k, to);
        }
    }

    /// Whether a pawn dropped by the side to move on `to` (in front of the enemy king) would mate.
    pub(crate) fn pawn_drop_mates(&self, to: Square) -> bool {
        let t = V::tables();
        let us = self.side_to_move();
        let them = !us;
        let enemy_king = self.king(them);
        let occ = self.occupied() | Bb::<V>::square(to);
        // Capture by a piece other than the king. A pinned defender never can: the pawn sits next to the king on
        // its file, so the capture would leave any pin line.
        let defenders = self.attackers_to(them, to, occ) & !Bb::<V>::square(enemy_king);
        if defenders.any() && (defenders & !self.pinned_pieces(them, occ)).any() {
            return false;
        }
        // King escape, the capture of the pawn included.
        let escapes =
            Bb::<V>::from_u128(t.step[them.index()][Kind::King.index()][enemy_king.index()])
                & !self.color_bb(them);
        let occ = occ ^ Bb::<V>::square(enemy_king);
        for sq in escapes {
            if !self.is_attacked(us, sq, occ) {
                return false;
            }
        }
        true
    }

    /// Whether a legal move gives check.
    pub fn gives_check(&self, m: Move) -> bool {
        let t = V::tables();
        let us = self.side_to_move();
        let enemy_king = self.king(!us);
        let to = m.to();
        let (kind, occ) = if m.is_drop() {
            (m.dropped(), self.occupied() | Bb::<V>::square(to))
        } else {
            let from = m.from();
            let k = self.piece_at(from).kind();
            let k = k.after_move(m.is_promotion());
            let occ = (self.occupied() ^ Bb::<V>::square(from)) | Bb::<V>::square(to);
            // discovered check: a slider of ours behind `from`, on a line to the king that `to` leaves
            let d = t.direction[enemy_king.index()][from.index()];
            if d != 0 && !Self::line(enemy_king, from).has(to) {
                let d = (d - 1) as usize;
                let hit = Self::slide(d, enemy_king, occ) & occ;
                if hit.any() {
                    let p = self.piece_at(hit.lsb());
                    let back = crate::rules::attacks::opposite_direction(d);
                    if p.is_some()
                        && p.color() == us
                        && t.slides[us.index()][p.kind().index()] & (1 << back) != 0
                    {
                        return true;
                    }
                }
            }
            (k, occ)
        };
        Self::attacks_from(us, kind, to, occ).has(enemy_king)
    }

    /// Whether `m` is a legal move here, by generating every legal move and looking for it: the reference that
    /// the fast [`Position::is_legal`] (in `legality.rs`) is tested against. Takes any 16-bit value.
    pub fn is_legal_by_generation(&self, m: Move) -> bool {
        if m.is_none() {
            return false;
        }
        let mut list = MoveList::new();
        self.generate(GenMode::All, &mut list);
        list.contains(&m)
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut list = MoveList::new();
        self.generate(GenMode::All, &mut list);
        !list.is_empty()
    }
}

/// Where generated moves go: a list, or a count.
trait MoveSink<V: Variant> {
    /// Moves from `from` promoting on each square of `promote` and not promoting on each square of `stay`.
    fn board_moves(&mut self, from: Square, promote: Bb<V>, stay: Bb<V>);
    /// Pawn moves one step forward onto each square of `promote` (promoting) and `stay` (not promoting).
    fn pawn_moves(&mut self, us: Color, promote: Bb<V>, stay: Bb<V>);
    fn drops(&mut self, kind: Kind, to: Bb<V>);
}

struct ListSink<'a>(&'a mut MoveList);

impl<V: Variant> MoveSink<V> for ListSink<'_> {
    #[inline(always)]
    fn board_moves(&mut self, from: Square, promote: Bb<V>, stay: Bb<V>) {
        for sq in promote {
            self.0.push(Move::normal(from, sq, true));
        }
        for sq in stay {
            self.0.push(Move::normal(from, sq, false));
        }
    }
    #[inline(always)]
    fn pawn_moves(&mut self, us: Color, promote: Bb<V>, stay: Bb<V>) {
        // Black's pawn moves toward rank a, one index down; White's one index up
        let back = |to: Square| match us {
            Color::Black => Square::new(to.index() as u8 + 1),
            Color::White => Square::new(to.index() as u8 - 1),
        };
        for sq in promote {
            self.0.push(Move::normal(back(sq), sq, true));
        }
        for sq in stay {
            self.0.push(Move::normal(back(sq), sq, false));
        }
    }
    #[inline(always)]
    fn drops(&mut self, kind: Kind, to: Bb<V>) {
        for sq in to {
            self.0.push(Move::drop(kind, sq));
        }
    }
}

/// A list sink that keeps only the promoting moves (so no drop).
struct PromotionSink<'a>(&'a mut MoveList);

impl<V: Variant> MoveSink<V> for PromotionSink<'_> {
    #[inline(always)]
    fn board_moves(&mut self, from: Square, promote: Bb<V>, _stay: Bb<V>) {
        MoveSink::<V>::board_moves(&mut ListSink(self.0), from, promote, Bb::<V>::EMPTY);
    }
    #[inline(always)]
    fn pawn_moves(&mut self, us: Color, promote: Bb<V>, _stay: Bb<V>) {
        MoveSink::<V>::pawn_moves(&mut ListSink(self.0), us, promote, Bb::<V>::EMPTY);
    }
    #[inline(always)]
    fn drops(&mut self, _kind: Kind, _to: Bb<V>) {}
}

struct CountSink(u64);

impl<V: Variant> MoveSink<V> for CountSink {
    #[inline(always)]
    fn board_moves(&mut self, _from: Square, promote: Bb<V>, stay: Bb<V>) {
        self.0 += (promote.count() + stay.count()) as u64;
    }
    #[inline(always)]
    fn pawn_moves(&mut self, _us: Color, promote: Bb<V>, stay: Bb<V>) {
        self.0 += (promote.count() + stay.count()) as u64;
    }
    #[inline(always)]
    fn drops(&mut self, _kind: Kind, to: Bb<V>) {
        self.0 += to.count() as u64;
    }
}

/// Counts board moves one by one and drops once per square.
struct DropSquaresCountSink<V: Variant> {
    moves: u32,
    drop_squares: Bb<V>,
}

impl<V: Variant> MoveSink<V> for DropSquaresCountSink<V> {
    #[inline(always)]
    fn board_moves(&mut self, _from: Square, promote: Bb<V>, stay: Bb<V>) {
        self.moves += promote.count() + stay.count();
    }
    #[inline(always)]
    fn pawn_moves(&mut self, _us: Color, promote: Bb<V>, stay: Bb<V>) {
        self.moves += promote.count() + stay.count();
    }
    #[inline(always)]
    fn drops(&mut self, _kind: Kind, to: Bb<V>) {
        self.drop_squares |= to;
    }
}
