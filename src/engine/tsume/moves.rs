//! The solver's move generation: the attacker's checks generated directly (drops only onto the squares that
//! check, board moves only onto checking squares or off a discovery line), the defender's evasions (the legal
//! moves of a side in check), and the test for futile interpositions (無駄合い).

use crate::rules::bitboard::Bitboard;
use crate::rules::movegen::GenMode;
use crate::rules::moves::{Move, MoveList};
use crate::rules::piece::Kind;
use crate::rules::position::{Bb, Position};
use crate::rules::square::Square;
use crate::rules::variant::Variant;

use super::hands::HandBits;

/// Where the checks go: listed for a node's expansion, only counted for an estimate of a child.
trait CheckSink<V: Variant> {
    /// Moves from `from` to each square of `to`, promoting or not.
    fn moves(&mut self, from: Square, to: Bb<V>, promote: bool);
    /// Drops of `kind` on each square of `to`.
    fn drops(&mut self, kind: Kind, to: Bb<V>);
    /// One move.
    fn one(&mut self, m: Move);
}

impl<V: Variant> CheckSink<V> for MoveList {
    #[inline(always)]
    fn moves(&mut self, from: Square, to: Bb<V>, promote: bool) {
        for sq in to {
            self.push(Move::normal(from, sq, promote));
        }
    }
    #[inline(always)]
    fn drops(&mut self, kind: Kind, to: Bb<V>) {
        for sq in to {
            self.push(Move::drop(kind, sq));
        }
    }
    #[inline(always)]
    fn one(&mut self, m: Move) {
        self.push(m);
    }
}

/// The checks counted so far, the drops among them only as their squares.
struct CheckCount<V: Variant> {
    moves: u32,
    drop_squares: Bb<V>,
}

impl<V: Variant> CheckSink<V> for CheckCount<V> {
    #[inline(always)]
    fn moves(&mut self, _: Square, to: Bb<V>, _: bool) {
        self.moves += to.count();
    }
    #[inline(always)]
    fn drops(&mut self, _: Kind, to: Bb<V>) {
        // drops of several kinds onto one square count once: they mostly stand or fall together
        self.drop_squares |= to;
    }
    #[inline(always)]
    fn one(&mut self, _: Move) {
        self.moves += 1;
    }
}

/// Appends every legal check of the side to move.
pub fn generate_checks<V: Variant>(pos: &Position<V>, list: &mut MoveList) {
    checks_into(pos, list);
}

/// The number of legal checks of the side to move, drops onto one square counted once (a child's disproof
/// estimate), without listing them. The drops of several kinds onto one square mostly stand or fall together, as
/// the interpositions do in the defender's count: counting each kind made a defence that leaves the attacker
/// many drop kinds look many times harder to disprove than it is (将棋図巧 No. 1: 15.34 M nodes instead of
/// 16.27 M; its 45-ply tail 2.16 M instead of 2.42 M; the small minishogi and Yari suites 3-6% more).
pub fn count_checks<V: Variant>(pos: &Position<V>) -> u32 {
    let mut n = CheckCount::<V> {
        moves: 0,
        drop_squares: Bb::<V>::EMPTY,
    };
    checks_into(pos, &mut n);
    n.moves + n.drop_squares.count()
}

/// The legal checks of the side to move, into `sink`.
fn checks_into<V: Variant, S: CheckSink<V>>(pos: &Position<V>, sink: &mut S) {
    let us = pos.side_to_move();
    if !pos.has_king(!us) {
        return;
    }
    if pos.in_check() {
        // an attacker in check must also answer the check: rare in tsume, so the general path serves
        let mut list = MoveList::new();
        pos.generate(GenMode::Checks, &mut list);
        for &m in list.iter() {
            sink.one(m);
        }
        return;
    }
    drop_checks(pos, sink);
    // pieces that would uncover a check by a slider of ours if they left the line to the king
    let discoverers = pos.discovered_check_candidates(us);
    board_checks(pos, discoverers, sink);
    if pos.has_king(us) && discoverers.has(pos.king(us)) {
        king_discoveries(pos, sink);
    }
}

/// The checking drops: onto the squares from which the dropped piece would attack the king (a pawn not where
/// it would mate, nor on a file that has one of ours).
#[inline(always)]
fn drop_checks<V: Variant, S: CheckSink<V>>(pos: &Position<V>, sink: &mut S) {
    let us = pos.side_to_move();
    let hand = *pos.hand(us);
    if hand.is_empty() {
        return;
    }
    let t = V::tables();
    let ek = pos.king(!us);
    let occ = pos.occupied();
    let empty = V::board() & !occ;
    for &k in V::HAND_KINDS {
        if !hand.has(k) {
            continue;
        }
        let mut to = Position::<V>::attacks_from(!us, k, ek, occ)
            & empty
            & !Bb::<V>::from_u128(t.dead[us.index()][k.index()]);
        if k == Kind::Pawn {
            if let Some(sq) = to.into_iter().next() {
                if pos.has_pawn_on_file(us, sq) || pos.pawn_drop_mates(sq) {
                    to = Bb::<V>::EMPTY;
                }
            }
        }
        sink.drops(k, to);
    }
}

/// The checking moves of the pieces on the board other than the king: onto a square from which the piece (or
/// its promoted form) attacks the king, or off the line of one of our sliders to it (`discoverers`).
#[inline(always)]
fn board_checks<V: Variant, S: CheckSink<V>>(pos: &Position<V>, discoverers: Bb<V>, sink: &mut S) {
    let us = pos.side_to_move();
    let them = !us;
    let t = V::tables();
    let ek = pos.king(them);
    let occ = pos.occupied();
    let ours = pos.color_bb(us);
    let zone = Bb::<V>::from_u128(t.zone[us.index()]);
    let own_king = pos.king(us);
    let pinned = pos.pinned();
    let board = V::board();
    for &k in V::NON_KING_KINDS {
        // a step piece checks by moving only from near the king, or by uncovering a slider's line
        let pieces = pos.pieces(us, k)
            & (Bb::<V>::from_u128(t.step_checkers[us.index()][k.index()][ek.index()])
                | discoverers);
        if pieces.is_empty() {
            continue;
        }
        // The squares from which the piece checks, once per kind: vacating `from` changes them only when `from`
        // blocks one of the kind's rays from the king, and then `from` is itself among them.
        let checks = Position::<V>::attacks_from(them, k, ek, occ);
        let promoted = if t.promotes[k.index()] {
            k.promoted()
        } else {
            None
        };
        let pro_checks = promoted.map_or(Bb::<V>::EMPTY, |pk| {
            Position::<V>::attacks_from(them, pk, ek, occ)
        });
        let alive = !Bb::<V>::from_u128(t.dead[us.index()][k.index()]);
        for from in pieces {
            let fb = Bitboard::square(from);
            let mut to = Position::<V>::attacks_from(us, k, from, occ) & board & !ours;
            if pinned.has(from) {
                to &= Position::<V>::line(own_king, from);
            }
            if to.is_empty() {
                continue;
            }
            let discovered = if discoverers.has(from) {
                to & !Position::<V>::line(ek, from)
            } else {
                Bb::<V>::EMPTY
            };
            let stay_checks = if checks.has(from) {
                Position::<V>::attacks_from(them, k, ek, occ ^ fb)
            } else {
                checks
            } | discovered;
            sink.moves(from, to & alive & stay_checks, false);
            if let Some(pk) = promoted {
                let promoting = if zone.has(from) { to } else { to & zone };
                if promoting.is_empty() {
                    continue;
                }
                let pro_checks = if pro_checks.has(from) {
                    Position::<V>::attacks_from(them, pk, ek, occ ^ fb)
                } else {
                    pro_checks
                } | discovered;
                sink.moves(from, promoting & pro_checks, true);
            }
        }
    }
}

/// The king's moves that uncover a check by one of our sliders: off the line to the enemy king, onto a square
/// not attacked (the king itself never checks).
#[inline(always)]
fn king_discoveries<V: Variant, S: CheckSink<V>>(pos: &Position<V>, sink: &mut S) {
    let us = pos.side_to_move();
    let them = !us;
    let t = V::tables();
    let ek = pos.king(them);
    let own_king = pos.king(us);
    let to = Bb::<V>::from_u128(t.step[us.index()][Kind::King.index()][own_king.index()])
        & V::board()
        & !pos.color_bb(us)
        & !Position::<V>::line(ek, own_king);
    let occ_without = pos.occupied() ^ Bitboard::square(own_king);
    for sq in to {
        if !pos.is_attacked(them, sq, occ_without) {
            sink.one(Move::normal(own_king, sq, false));
        }
    }
}

/// Appends the defender's legal moves (it is in check, so these are its evasions).
#[inline]
pub fn generate_evasions<V: Variant>(pos: &Position<V>, list: &mut MoveList) {
    pos.generate(GenMode::All, list);
}

/// Whether an evasion is a futile interposition (無駄合い): a piece dropped between a distant checker and the
/// king on a square that no defender piece guards, the king included (so the checker takes it for free and
/// stands no nearer to being taken). Such a drop only delays the mate by two plies, and tsume lengths do not
/// count it. An interposition next to the king, a guarded one, and one by a board move always count.
pub fn is_futile_interposition<V: Variant>(pos: &Position<V>, m: Move) -> bool {
    if !m.is_drop() {
        return false;
    }
    let checkers = pos.checkers();
    if checkers.several() || checkers.is_empty() {
        return false;
    }
    let us = pos.side_to_move();
    let ksq = pos.king(us);
    let to = m.to();
    if !Position::<V>::between(ksq, checkers.lsb()).has(to) {
        return false;
    }
    let occ = pos.occupied() | Bitboard::square(to);
    !pos.is_attacked(us, to, occ)
}

/// What one reply counts for in a child's initial numbers: the units left between counts are for
/// [`move_bias`].
pub const REPLY_UNIT: u32 = 3;

/// [`move_bias`]'s weight of a check's features.
const CHECK: u32 = 4;
/// [`move_bias`]'s weight of an evasion's features.
const EVASION: u32 = 2;

/// Extra initial proof and disproof numbers for the child after `m` (the side to move plays it), from how the
/// moved piece stands on its square — the df-pn+ features of KomoringHeights' initial estimation, added here to
/// our counts of replies, which rank the children coarsely and leave many ties. At an OR node (`m` a check): a
/// check onto a square the defender guards twice is harder to prove; a check the attacker backs (more of its
/// pieces on the square than the defender's) or one that takes a gold or silver (the king's guards) is harder to
/// disprove; any other unbacked check (a sacrifice, or taking a lesser piece) is harder to prove. At an AND
/// node (`m` an evasion): taking a piece or interposing a piece that is guarded better than attacked makes the
/// mate harder; a king move is neutral; an interposition the attacker simply takes makes the escape harder.
/// Measured on node counts (将棋図巧 No. 1, five positions on its and Microcosmos' solutions, the minishogi and
/// Yari suites): 19-29% fewer expansions on the shogi problems, the suites about even; `REPLY_UNIT` 2-5 and
/// weights 1-4 were tried, and the king's distance to the check (worse). Telling a gold or silver taken from a
/// lesser piece: 1-5% fewer nodes on all but No. 1 (+0.4%). With the defender's ε of 1/2
/// ([`one_plus_epsilon`](super::children::one_plus_epsilon)) the checks' weight went from 3 to 4 (nodes, weight 3
/// -> 4: No. 1 13.93 M -> 13.08 M with a 64 MB table, 13.99 M -> 13.23 M with 256 MB; the other six long
/// positions 46.9 M -> 46.1 M; full Microcosmos 119.0 M -> 118.5 M; the minishogi suite -1.5%, the Yari suite
/// +6.5% (0.1 s); 5 and 6: No. 1 14.0 M and 19.0 M with 64 MB; the evasions' weight 1 or 3, or the unit 4 with
/// weights 4 and 3 or 5 and 3: 3-10% more on the long positions).
#[inline]
pub fn move_bias<V: Variant>(pos: &Position<V>, m: Move, or_node: bool) -> (u32, u32) {
    let us = pos.side_to_move();
    let taken = captured_kind(pos, m);
    if !or_node {
        if taken.is_some() {
            return (EVASION, 0);
        }
        if !m.is_drop() && m.from() == pos.king(us) {
            return (0, 0);
        }
    }
    let (to, occ) = (m.to(), pos.occupied());
    let ours = pos.attackers_to(us, to, occ).count() + m.is_drop() as u32;
    let theirs = pos.attackers_to(!us, to, occ).count();
    if or_node {
        let guarded_twice = if theirs >= 2 { CHECK } else { 0 };
        if ours > theirs || matches!(taken, Some(Kind::Gold | Kind::Silver)) {
            (guarded_twice, CHECK)
        } else {
            (guarded_twice + CHECK, 0)
        }
    } else if theirs < ours {
        (EVASION, 0)
    } else {
        (0, EVASION)
    }
}

/// The kind that a move adds to the mover's hand (a capture), if any.
#[inline]
pub fn captured_kind<V: Variant>(pos: &Position<V>, m: Move) -> Option<Kind> {
    if m.is_drop() {
        return None;
    }
    let p = pos.piece_at(m.to());
    p.is_some().then(|| p.kind().unpromoted())
}

/// The attacker's hand after its move `m` (a drop spends a piece, a capture adds one).
#[inline]
pub fn attacker_hand_after<V: Variant>(pos: &Position<V>, hand: HandBits, m: Move) -> HandBits {
    if m.is_drop() {
        hand.minus(m.dropped())
    } else {
        match captured_kind(pos, m) {
            Some(k) => hand.plus(k),
            None => hand,
        }
    }
}

/// Whether the defender (to move, in check) could block the check with a drop on some square: the check comes
/// from a distance. Proof pieces must then record every kind the defender lacks (see `dfpn`).
pub fn interposition_squares<V: Variant>(pos: &Position<V>) -> Bb<V> {
    let checkers = pos.checkers();
    if checkers.several() || checkers.is_empty() {
        return Bb::<V>::EMPTY;
    }
    Position::<V>::between(pos.king(pos.side_to_move()), checkers.lsb())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::{Minishogi, Shogi, Yari};

    /// The number of moves in `moves` with all drops onto one square counted as one.
    fn counted_drop_squares_once(moves: &[Move]) -> usize {
        let drop_squares: std::collections::BTreeSet<usize> = moves
            .iter()
            .filter(|m| m.is_drop())
            .map(|m| m.to().index())
            .collect();
        moves.iter().filter(|m| !m.is_drop()).count() + drop_squares.len()
    }

    /// Direct check generation must list (and count) exactly the legal moves that give check.
    fn same_as_filtered<V: Variant>(sfen: &str) {
        let pos = Position::<V>::from_tsume_sfen(sfen).expect(sfen);
        let mut a = MoveList::new();
        generate_checks(&pos, &mut a);
        let mut b = MoveList::new();
        pos.generate(GenMode::Checks, &mut b);
        // the count takes the drops onto one square as one check, whatever the kinds dropped
        assert_eq!(
            count_checks(&pos) as usize,
            counted_drop_squares_once(&a),
            "{sfen}"
        );
        // every check gives a position in check: its defences counted from the answering squares must be
        // those of the full legal move list (drops onto one square counted once)
        let mut pos = pos;
        for &m in a.iter() {
            pos.do_move(m);
            let legal = pos.legal_moves();
            assert_eq!(
                pos.count_legal_moves_drop_squares_once() as usize,
                counted_drop_squares_once(&legal),
                "{sfen} after {m:?}"
            );
            pos.undo_move();
        }
        let mut a: Vec<u16> = a.iter().map(|m| m.raw()).collect();
        let mut b: Vec<u16> = b.iter().map(|m| m.raw()).collect();
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b, "{sfen}");
    }

    /// The same over random playouts from each game's start (many positions with pins, checks and drops).
    fn playouts<V: Variant>(seed: u64) {
        crate::rules::position::random_playouts::<V>(seed, 40, 80, |pos| {
            same_as_filtered::<V>(&pos.to_sfen())
        });
    }

    #[test]
    fn direct_checks_match_on_random_playouts() {
        playouts::<Shogi>(1);
        playouts::<Minishogi>(2);
        playouts::<Yari>(3);
    }

    #[test]
    fn direct_checks_match_the_filtered_legal_moves() {
        same_as_filtered::<Shogi>(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        );
        same_as_filtered::<Shogi>("7nl/5+Rgk1/6ppp/9/9/9/9/9/4K4 b BGSNLPb2g3s2n2l14p 1");
        same_as_filtered::<Shogi>("4k4/9/4P4/9/9/9/9/9/4K3L b GSN2Pr2b3g3s3n3l15p 1");
        same_as_filtered::<Shogi>("3k5/9/3S5/9/3R5/9/9/9/B8 b GN 1");
        same_as_filtered::<Minishogi>("2k2/5/2P2/5/K3R b GSbgsp 1");
        same_as_filtered::<Yari>("3k3/7/7/2R4/7/1N5/5B1/7/3K3 b NBPnbr 1");
    }

    fn bias(sfen: &str, usi: &str, or_node: bool) -> (u32, u32) {
        let pos = Position::<Shogi>::from_tsume_sfen(sfen).expect(sfen);
        let m = pos.parse_move(usi).expect(usi);
        move_bias(&pos, m, or_node)
    }

    #[test]
    fn move_bias_reads_backing_sacrifice_capture_king_move_and_interposition() {
        // attacker: a silver on 5c and a gold in hand against the king on 5a
        let checks = "4k4/9/4S4/9/9/9/9/9/9 b G 1";
        assert_eq!(
            bias(checks, "G*5b", true),
            (0, CHECK),
            "backed by the silver"
        );
        assert_eq!(
            bias(checks, "G*6a", true),
            (CHECK, 0),
            "an unbacked drop is a sacrifice"
        );
        // two defenders on 4b (the king and the gold on 3a): harder to prove; backed only by the silver, no more
        // than it is guarded, it is a sacrifice too; a gold on 3c backs it more than it is guarded
        assert_eq!(
            bias("4k1g2/9/4S4/9/9/9/9/9/9 b G 1", "G*4b", true),
            (2 * CHECK, 0)
        );
        assert_eq!(
            bias("4k1g2/9/4S1G2/9/9/9/9/9/9 b G 1", "G*4b", true),
            (CHECK, CHECK)
        );
        // the defender in check from a rook on 5i, a gold in hand (the attacker's king far away on 9i)
        let evasions = "4k4/9/9/9/9/9/9/9/K3R4 w g 1";
        assert_eq!(bias(evasions, "5a4a", false), (0, 0), "a king move");
        assert_eq!(
            bias(evasions, "G*5b", false),
            (EVASION, 0),
            "guarded by the king"
        );
        assert_eq!(
            bias(evasions, "G*5e", false),
            (0, EVASION),
            "the rook takes it"
        );
        // an unbacked gold next to the king: the king takes it
        assert_eq!(
            bias("4k4/4G4/9/9/9/9/9/9/K8 w - 1", "5a5b", false),
            (EVASION, 0)
        );
    }
}
