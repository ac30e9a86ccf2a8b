//! Legality of one move without generating the others.
//!
//! The staged move picker plays the transposition-table move and the killers before it generates anything, and
//! those moves come from other positions (a hash collision, a sibling node, even another game's board size when
//! a table is reused), so each must be checked first; generating every legal move to find one would cost more
//! than the stage saves. The rules here are those of the generator in `movegen.rs`, asked of one move: the
//! answer must be the generator's for every 16-bit value, which the tests below compare exhaustively with
//! [`Position::is_legal_by_generation`].

use crate::rules::moves::Move;
use crate::rules::piece::{Color, Kind};
use crate::rules::position::{Bb, Position};
use crate::rules::square::Square;
use crate::rules::variant::Variant;

/// The bits of a drop that `Move::drop` never sets: the promotion flag and the high bits of the kind field
/// (`Move::dropped` reads only three). A drop with any of them set was never generated, whatever its kind and
/// square say.
const DROP_UNUSED_BITS: u16 = 0x7c00;

impl<V: Variant> Position<V> {
    /// Whether `m` is a legal move here. Takes any 16-bit value, such as a move from the hash table that
    /// belongs to another position, and answers as [`Position::is_legal_by_generation`] does.
    #[inline]
    pub fn is_legal(&self, m: Move) -> bool {
        if m.is_drop() {
            self.is_legal_drop(m)
        } else {
            self.is_legal_board_move(m)
        }
    }

    fn is_legal_drop(&self, m: Move) -> bool {
        if m.raw() & DROP_UNUSED_BITS != 0 {
            return false;
        }
        let to = m.to();
        // before any bitboard test: a square past the word would overflow the shift
        if to.index() >= V::SQUARES {
            return false;
        }
        let k = m.dropped();
        // the hand has no slot for the king, and a kind of another game may not be dropped here
        if !V::HAND_KINDS.contains(&k) {
            return false;
        }
        let t = V::tables();
        let us = self.side_to_move();
        if !self.hand(us).has(k)
            || self.occupied().has(to)
            || Bb::<V>::from_u128(t.dead[us.index()][k.index()]).has(to)
        {
            return false;
        }
        let checkers = self.checkers();
        if checkers.any()
            && (checkers.several() || !Self::between(self.king(us), checkers.lsb()).has(to))
        {
            return false;
        }
        if k == Kind::Pawn {
            if self.has_pawn_on_file(us, to) {
                return false;
            }
            // only a drop onto the square in front of the enemy king can mate at once; a kingless side's
            // table entry is empty, so nothing is tested then
            let them = !us;
            let front = Bb::<V>::from_u128(
                t.step[them.index()][Kind::Pawn.index()][self.king(them).index()],
            );
            if front.has(to) && self.pawn_drop_mates(to) {
                return false;
            }
        }
        true
    }

    fn is_legal_board_move(&self, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        // also rejects the kingless side's king slot (`V::SQUARES`) and `Move::NONE`'s square 0 to square 0
        if from.index() >= V::SQUARES || to.index() >= V::SQUARES || from == to {
            return false;
        }
        let t = V::tables();
        let us = self.side_to_move();
        let ours = self.color_bb(us);
        if !ours.has(from) || ours.has(to) {
            return false;
        }
        let k = self.piece_at(from).kind();
        let occ = self.occupied();
        if k == Kind::King {
            // the king never promotes; it may go anywhere its steps reach that is safe once it has left `from`,
            // in check or not
            return !m.is_promotion()
                && Bb::<V>::from_u128(t.step[us.index()][Kind::King.index()][from.index()])
                    .has(to)
                && !self.is_attacked(!us, to, occ ^ Bb::<V>::square(from));
        }
        let checkers = self.checkers();
        if checkers.several() || !Self::reaches(us, k, from, to, occ) {
            return false;
        }
        let ksq = self.king(us);
        if checkers.any() {
            let checker = checkers.lsb();
            if to != checker && !Self::between(ksq, checker).has(to) {
                return false;
            }
        }
        if self.pinned().has(from) && !Self::line(ksq, from).has(to) {
            return false;
        }
        if !t.promotes[k.index()] {
            // the generator gives these kinds no dead-square test (none of them is dead anywhere in these
            // games), so neither does this
            return !m.is_promotion();
        }
        if m.is_promotion() {
            let zone = Bb::<V>::from_u128(t.zone[us.index()]);
            zone.has(from) || zone.has(to)
        } else {
            !Bb::<V>::from_u128(t.dead[us.index()][k.index()]).has(to)
        }
    }

    /// Whether a piece of `us` and kind `k` on `from` attacks `to`: `attacks_from(..).has(to)` without building
    /// the whole attack set, which for a slider means a blocker scan along every one of its directions.
    #[inline(always)]
    fn reaches(us: Color, k: Kind, from: Square, to: Square, occ: Bb<V>) -> bool {
        let t = V::tables();
        if Bb::<V>::from_u128(t.step[us.index()][k.index()][from.index()]).has(to) {
            return true;
        }
        let d = t.direction[from.index()][to.index()];
        d != 0
            && t.slides[us.index()][k.index()] & (1 << (d - 1)) != 0
            && (Self::between(from, to) & occ).is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::moves::MoveList;
    use crate::rules::rng::SplitMix64;
    use crate::rules::variant::{Minishogi, Shogi, Yari};

    /// The generator's verdict on all 65536 raw values at once, from one generation: asking
    /// `is_legal_by_generation` value by value would make a full sweep cost 65536 generations. Each position
    /// also asks `is_legal_by_generation` itself about a few values, so that this shortcut stays its equal.
    struct Generated {
        bits: Vec<u64>,
    }

    impl Generated {
        fn of(list: &MoveList) -> Self {
            let mut bits = vec![0u64; 1 << 10];
            for m in list {
                let r = m.raw() as usize;
                bits[r >> 6] |= 1 << (r & 63);
            }
            Generated { bits }
        }
        fn has(&self, m: Move) -> bool {
            let r = m.raw() as usize;
            self.bits[r >> 6] & (1 << (r & 63)) != 0
        }
    }

    #[derive(Default, Debug)]
    struct Tally {
        positions: u64,
        in_check: u64,
        double_check: u64,
        kingless: u64,
        full_sweeps: u64,
        board_sweeps: u64,
        compared: u64,
        legal_found: u64,
    }

    impl std::ops::AddAssign for Tally {
        fn add_assign(&mut self, o: Tally) {
            self.positions += o.positions;
            self.in_check += o.in_check;
            self.double_check += o.double_check;
            self.kingless += o.kingless;
            self.full_sweeps += o.full_sweeps;
            self.board_sweeps += o.board_sweeps;
            self.compared += o.compared;
            self.legal_found += o.legal_found;
        }
    }

    #[derive(Clone, Copy, PartialEq, Eq)]
    enum Sweep {
        None,
        /// Every drop of the eight kind codes onto every square code (off the board included) and every
        /// board move between two board squares, both promotion flags.
        Board,
        /// Every 16-bit value.
        Full,
    }

    struct Checker<'a, V: Variant> {
        pos: &'a Position<V>,
        generated: Generated,
        tally: &'a mut Tally,
    }

    impl<V: Variant> Checker<'_, V> {
        fn agree(&mut self, m: Move) {
            let fast = self.pos.is_legal(m);
            assert_eq!(
                fast,
                self.generated.has(m),
                "{} is_legal({m:?}) (raw {:#06x}) at {}",
                V::NAME,
                m.raw(),
                self.pos.to_sfen()
            );
            self.tally.compared += 1;
            self.tally.legal_found += fast as u64;
        }
    }

    /// Compares the two answers at `pos` for its own legal moves, the moves of `neighbours` (the lists of nearby
    /// positions: near misses), random values and, if asked, a sweep. Returns the legal moves.
    fn check_position<V: Variant>(
        pos: &Position<V>,
        rng: &mut SplitMix64,
        neighbours: &[&MoveList],
        sweep: Sweep,
        tally: &mut Tally,
    ) -> MoveList {
        let list = pos.legal_moves();
        tally.positions += 1;
        tally.in_check += pos.in_check() as u64;
        tally.double_check += pos.checkers().several() as u64;
        tally.kingless += !pos.has_king(pos.side_to_move()) as u64;
        let mut c = Checker {
            pos,
            generated: Generated::of(&list),
            tally,
        };
        for &m in &list {
            c.agree(m);
        }
        for n in neighbours {
            for &m in n.iter() {
                c.agree(m);
            }
        }
        let squares = V::SQUARES;
        for i in 0..300 {
            let m = match i % 3 {
                0 => Move::from_raw(rng.next_u64() as u16),
                1 => Move::normal(
                    Square::new(rng.below(squares) as u8),
                    Square::new(rng.below(squares) as u8),
                    rng.below(2) == 0,
                ),
                _ => Move::drop(
                    Kind::from_index(rng.below(8)),
                    Square::new(rng.below(squares) as u8),
                ),
            };
            c.agree(m);
            if i % 50 == 0 {
                assert_eq!(
                    pos.is_legal_by_generation(m),
                    c.generated.has(m),
                    "the shortcut of is_legal_by_generation at {m:?}"
                );
            }
        }
        if let Some(&m) = list.first() {
            assert!(pos.is_legal_by_generation(m));
        }
        match sweep {
            Sweep::None => {}
            Sweep::Board => {
                c.tally.board_sweeps += 1;
                for k in 0..8 {
                    for to in 0..128u8 {
                        c.agree(Move::drop(Kind::from_index(k), Square::new(to)));
                    }
                }
                for from in 0..squares as u8 {
                    for to in 0..squares as u8 {
                        for promote in [false, true] {
                            c.agree(Move::normal(Square::new(from), Square::new(to), promote));
                        }
                    }
                }
            }
            Sweep::Full => {
                c.tally.full_sweeps += 1;
                for raw in 0..=u16::MAX {
                    c.agree(Move::from_raw(raw));
                }
            }
        }
        list
    }

    /// Picks a move with a bias toward checks, captures and drops, so that games reach checks, double checks,
    /// pins and full hands.
    fn pick<V: Variant>(pos: &Position<V>, list: &MoveList, rng: &mut SplitMix64) -> Move {
        let pool: MoveList = match rng.below(100) {
            0..=29 => list
                .iter()
                .copied()
                .filter(|&m| pos.gives_check(m))
                .collect(),
            30..=59 => list
                .iter()
                .copied()
                .filter(|&m| !m.is_drop() && pos.piece_at(m.to()).is_some())
                .collect(),
            60..=74 => list.iter().copied().filter(|m| m.is_drop()).collect(),
            _ => MoveList::new(),
        };
        let pool = if pool.is_empty() { list } else { &pool };
        pool[rng.below(pool.len())]
    }

    /// The SFENs of a perft suite file.
    fn suite(text: &'static str) -> impl Iterator<Item = &'static str> {
        text.lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .map(|l| l.split(';').next().unwrap_or("").trim())
    }

    /// Random games from `starts` (tsume SFENs, whose side to move has no king, in `tsume_starts`) until
    /// `positions` positions have been checked.
    fn games<V: Variant>(
        seed: u64,
        starts: &[&str],
        tsume_starts: &[&str],
        positions: u64,
        full_sweep_every: u64,
        board_sweep_every: u64,
    ) -> Tally {
        let mut rng = SplitMix64::new(seed);
        let mut tally = Tally::default();
        let all: Vec<(&str, bool)> = starts
            .iter()
            .map(|&s| (s, false))
            .chain(tsume_starts.iter().map(|&s| (s, true)))
            .collect();
        let mut game = 0;
        let mut double_check_sweeps = 0;
        while tally.positions < positions {
            // every start once, then random ones
            let (sfen, tsume) = all[if game < all.len() {
                game
            } else {
                rng.below(all.len())
            }];
            game += 1;
            let parsed = if tsume {
                Position::<V>::from_tsume_sfen(sfen)
            } else {
                Position::<V>::from_sfen(sfen)
            };
            let mut pos = parsed.unwrap_or_else(|e| panic!("{}: {sfen}: {e}", V::NAME));
            let plies = 20 + rng.below(180);
            let mut before_last = MoveList::new();
            let mut last = MoveList::new();
            for _ in 0..plies {
                let n = tally.positions;
                let sweep = if n % full_sweep_every == 0
                    || (pos.checkers().several() && double_check_sweeps < 20)
                {
                    Sweep::Full
                } else if n % board_sweep_every == 0 || pos.in_check() {
                    Sweep::Board
                } else {
                    Sweep::None
                };
                double_check_sweeps += (sweep == Sweep::Full && pos.checkers().several()) as u32;
                let list =
                    check_position(&pos, &mut rng, &[&last, &before_last], sweep, &mut tally);
                if list.is_empty() {
                    break;
                }
                let m = pick(&pos, &list, &mut rng);
                // the next position's moves, asked here
                pos.do_move(m);
                let next = pos.legal_moves();
                pos.undo_move();
                let mut c = Checker {
                    pos: &pos,
                    generated: Generated::of(&list),
                    tally: &mut tally,
                };
                for &m in &next {
                    c.agree(m);
                }
                pos.do_move(m);
                before_last = std::mem::replace(&mut last, list);
            }
        }
        tally
    }

    const SHOGI_EXTRA: &[&str] = &[
        // double check by rook and bishop, drops in hand on both sides
        "4k4/9/9/9/4R3B/9/9/9/4K4 w GP2p 1",
        // uchifuzume, and the same drop made legal by a defender that can take
        "8k/9/6NG1/9/9/9/9/9/4K4 b P 1",
        "7sk/9/6NG1/9/9/9/9/9/4K4 b P 1",
        // the defender of the mating square is pinned
        "8k/6Sg1/8G/5B3/9/9/9/9/4K4 b P 1",
        "4k4/9/9/9/9/9/1gn6/9/K8 w p 1",
        // nifu next to a tokin; dead drops
        "4k4/9/9/9/9/9/P7+P/9/4K4 b PLN 1",
        // forced and optional promotions
        "4k4/P8/9/9/9/5L3/9/N8/4K4 b - 1",
    ];
    const SHOGI_TSUME: &[&str] = &[
        "7nk/9/7G1/9/9/9/9/9/9 b RBG2P 1",
        "6snl/6gk1/7p1/7N1/9/9/9/9/9 b RBGS 1",
    ];
    const MINI_EXTRA: &[&str] = &[
        "4k/5/2B1R/5/K4 w g 1",
        "4k/2S2/3G1/5/K4 b P 1",
        "3sk/5/3G1/5/K4 b P 1",
        "1S2k/5/P4/5/K4 b - 1",
    ];
    const MINI_TSUME: &[&str] = &["3sk/5/3G1/5/5 b GP 1"];
    const YARI_EXTRA: &[&str] = &[
        "6k/7/5N1/7/6R/7/7/7/3K3 w p 1",
        "6k/3R3/4N2/7/7/7/7/7/3K3 b P 1",
        "6k/7/3RN2/7/7/7/7/7/3K3 b P 1",
        "k6/7/7/7/7/6B/6N/6R/3K3 b - 1",
    ];
    const YARI_TSUME: &[&str] = &["5nk/7/7/5N1/7/7/7/7/7 b RBP 1"];

    fn starts<V: Variant>(perft: &'static str, extra: &[&'static str]) -> Vec<&'static str> {
        let mut v = vec![V::START_SFEN];
        v.extend(suite(perft));
        v.extend_from_slice(extra);
        v
    }

    fn shogi(seed: u64, positions: u64, full: u64, board: u64) -> Tally {
        let s = starts::<Shogi>(include_str!("../../perft/shogi.txt"), SHOGI_EXTRA);
        games::<Shogi>(seed, &s, SHOGI_TSUME, positions, full, board)
    }
    fn minishogi(seed: u64, positions: u64, full: u64, board: u64) -> Tally {
        let s = starts::<Minishogi>(include_str!("../../perft/minishogi.txt"), MINI_EXTRA);
        games::<Minishogi>(seed, &s, MINI_TSUME, positions, full, board)
    }
    fn yari(seed: u64, positions: u64, full: u64, board: u64) -> Tally {
        let s = starts::<Yari>(include_str!("../../perft/yarishogi.txt"), YARI_EXTRA);
        games::<Yari>(seed, &s, YARI_TSUME, positions, full, board)
    }

    /// The rare cases must have been reached, or the comparison proves little about them.
    fn assert_coverage(name: &str, t: &Tally, positions: u64) {
        log::debug!("{name}: {t:?}");
        assert!(t.positions >= positions, "{name}: {t:?}");
        assert!(t.in_check * 20 >= t.positions, "{name}: few checks: {t:?}");
        assert!(t.double_check > 0, "{name}: no double check: {t:?}");
        assert!(t.kingless > 0, "{name}: no kingless side to move: {t:?}");
        assert!(t.full_sweeps > 0 && t.board_sweeps > 0, "{name}: {t:?}");
    }

    #[test]
    fn shogi_fast_legality_matches_generation() {
        let t = shogi(1, 20_000, 400, 25);
        assert_coverage("shogi", &t, 20_000);
    }

    #[test]
    fn minishogi_fast_legality_matches_generation() {
        let t = minishogi(2, 20_000, 400, 25);
        assert_coverage("minishogi", &t, 20_000);
    }

    #[test]
    fn yari_fast_legality_matches_generation() {
        let t = yari(3, 20_000, 400, 25);
        assert_coverage("yari", &t, 20_000);
    }

    /// The same, bigger: `cargo test --release --lib legality -- --ignored`.
    #[test]
    #[ignore]
    fn fast_legality_matches_generation_at_length() {
        let mut total = Tally::default();
        for seed in 10..14 {
            let t = shogi(seed, 100_000, 100, 4);
            assert_coverage("shogi", &t, 100_000);
            total += t;
            let t = minishogi(seed, 100_000, 100, 4);
            assert_coverage("minishogi", &t, 100_000);
            total += t;
            let t = yari(seed, 100_000, 100, 4);
            assert_coverage("yari", &t, 100_000);
            total += t;
        }
        log::info!("total: {total:?}");
    }
}
