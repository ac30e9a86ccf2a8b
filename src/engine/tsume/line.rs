//! After a proof: the shortening pass, the principal line, and its verification.
//!
//! Shortening (KomoringHeights' MinLength idea): once the root is proven with a mate of length L, search again
//! for a mate within L - 2 plies on the same table, until that fails; the last success is the shortest mate
//! against the longest defence. The line is then read from the table: at the attacker's turn a check proven
//! within the remaining length, at the defender's turn an evasion whose exact value is the remaining length less
//! one (an evasion proven within that bound and not within two plies less) — so the defence is the longest.
//! The line is finally replayed on a fresh position and checked.

use super::dfpn::DfpnSolver;
use super::moves::{
    attacker_hand_after, generate_checks, generate_evasions, is_futile_interposition,
};
use super::table::DEPTH_INF;
use crate::rules::movegen::GenMode;
use crate::rules::moves::{Move, MoveList};
use crate::rules::position::Position;
use crate::rules::variant::Variant;

/// Searches for ever shorter mates from the root; returns the shortest length found and whether it is proven
/// to be the shortest (no search ran out of time or was stopped).
pub fn shorten<V: Variant>(s: &mut DfpnSolver<V>, mut len: u16) -> (u16, bool) {
    while len >= 3 {
        let r = s.search_root(len - 2);
        if s.aborted.is_some() {
            return (len, false);
        }
        if r.pn == 0 {
            log::debug!(
                "tsume: mate within {} plies, {} nodes, {:?}",
                r.len,
                s.nodes,
                s.elapsed()
            );
            len = r.len.min(len - 2);
        } else {
            log::debug!(
                "tsume: no mate within {} plies, {} nodes, {:?}",
                len - 2,
                s.nodes,
                s.elapsed()
            );
            return (len, true);
        }
    }
    (len, true)
}

/// One candidate reply with what the table says of it.
struct Candidate {
    mv: Move,
    futile: bool,
    /// Upper bound on the plies to mate after the move (proof length in the table).
    bound: u16,
}

impl Candidate {
    /// The plies the defence lasts: futile interpositions count two plies less than real moves.
    fn value(&self) -> u16 {
        if self.futile {
            self.bound.saturating_sub(1)
        } else {
            self.bound + 1
        }
    }
}

/// Reads the principal line from the table, the root being proven with exact value `value` (plies).
/// `exact` asks for depth-limited searches that make the defence the longest one; they are optional work and
/// stop at the soft deadline, and the rest of the line then follows the table's bounds. A proof the table lost
/// is searched again, up to the hard limits. Returns `None` if one could not be found again.
pub fn principal_line<V: Variant>(
    s: &mut DfpnSolver<V>,
    value: u16,
    mut exact: bool,
) -> Option<Vec<Move>> {
    let mut line = Vec::new();
    let mut v = value;
    let result = loop {
        if line.len() > 4 * DEPTH_INF as usize {
            break None;
        }
        let ply = line.len() as u16;
        let (m, next) = if s.pos.side_to_move() == s.attacker {
            if v == 0 {
                break None;
            }
            match attacker_move(s, v, ply) {
                Some((m, len)) => (m, len.min(v - 1)),
                None => break None,
            }
        } else {
            let mut moves = MoveList::new();
            generate_evasions(&s.pos, &mut moves);
            if moves.is_empty() || v == 0 {
                break Some(());
            }
            let cands = defences(s, &moves, v, ply);
            let Some(c) = longest_defence(s, &cands, v, ply, &mut exact) else {
                break None;
            };
            if c.futile && c.value() == 0 {
                break Some(());
            }
            (c.mv, c.bound)
        };
        line.push(m);
        s.pos.do_move(m);
        v = next;
    };
    for _ in 0..line.len() {
        s.pos.undo_move();
    }
    result.map(|()| line)
}

/// The attacker's move of the line with `v` plies left and the plies to mate after it: the check with the
/// shortest proof in the table (among equals, a drop, so that less is left in hand); where the table lost the
/// proof (replaced, or never stored below a depth-limited search), the first check proven again within the plies
/// left.
fn attacker_move<V: Variant>(s: &mut DfpnSolver<V>, v: u16, ply: u16) -> Option<(Move, u16)> {
    let mut moves = MoveList::new();
    generate_checks(&s.pos, &mut moves);
    let mut chosen = None;
    let mut best_len = u16::MAX;
    for &m in moves.iter() {
        if let Some(l) = proven_len(s, m, v - 1) {
            if l < best_len || (l == best_len && m.is_drop()) {
                best_len = l;
                chosen = Some(m);
            }
        }
    }
    if chosen.is_some() {
        return chosen.map(|m| (m, best_len));
    }
    for &m in moves.iter() {
        s.pos.do_move(m);
        let r = s.search_required(v - 1, ply + 1);
        s.pos.undo_move();
        if s.aborted.is_some() {
            return None;
        }
        if r.pn == 0 {
            return Some((m, r.len));
        }
    }
    None
}

/// The defender's `moves` with the plies to mate after each (from the table, or searched again within the plies
/// left), the longest defence first: real moves before futile ones among equals, and captures last, since they
/// leave the attacker's hand as it is.
fn defences<V: Variant>(
    s: &mut DfpnSolver<V>,
    moves: &MoveList,
    v: u16,
    ply: u16,
) -> Vec<Candidate> {
    let mut cands = Vec::with_capacity(moves.len());
    for &m in moves.iter() {
        let futile = s.futile_rule && is_futile_interposition(&s.pos, m);
        let limit = if futile { v + 1 } else { v - 1 };
        let bound = match proven_len(s, m, limit) {
            Some(l) => l,
            None => {
                s.pos.do_move(m);
                let r = s.search_required(limit, ply + 1);
                s.pos.undo_move();
                if r.pn == 0 {
                    r.len
                } else {
                    limit
                }
            }
        };
        cands.push(Candidate {
            mv: m,
            futile,
            bound,
        });
    }
    cands.sort_by_key(|c| (std::cmp::Reverse(c.value()), c.futile));
    cands
}

/// The defence of the line among `cands` (longest first): with `exact`, the first that a search cannot mate two
/// plies sooner than its bound says (`exact` turns false once the deadline stops those searches); the first
/// otherwise.
fn longest_defence<'a, V: Variant>(
    s: &mut DfpnSolver<V>,
    cands: &'a [Candidate],
    v: u16,
    ply: u16,
    exact: &mut bool,
) -> Option<&'a Candidate> {
    if *exact {
        for c in cands {
            if c.value() < v {
                break;
            }
            if c.bound < 2 {
                return Some(c);
            }
            s.pos.do_move(c.mv);
            let r = s.search(c.bound - 2, ply + 1);
            s.pos.undo_move();
            if s.aborted.is_some() {
                *exact = false;
                break;
            }
            if r.pn != 0 {
                return Some(c);
            }
        }
    }
    cands.first()
}

/// The length of the proof of the position after `m` in the table, if one holds within `limit` plies.
fn proven_len<V: Variant>(s: &DfpnSolver<V>, m: Move, limit: u16) -> Option<u16> {
    let hand = s.attacker_hand();
    let child_hand = if s.pos.side_to_move() == s.attacker {
        attacker_hand_after(&s.pos, hand, m)
    } else {
        hand
    };
    let p =
        s.tt.probe(s.pos.board_key_after(m), child_hand, limit, 1, 1);
    (p.pn == 0).then_some(p.len)
}

/// Why a mating line does not verify: a move illegal where it is played, an attacker move that is no check, or
/// an end that is no mate.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MateLineError {
    #[error("move {number} ({mv:?}) is illegal")]
    Illegal { number: usize, mv: Move },
    #[error("attacker move {number} ({mv:?}) is no check")]
    NoCheck { number: usize, mv: Move },
    #[error("the line ends with the attacker to move")]
    AttackerToMove,
    #[error("the defender still has {0:?} at the end")]
    DefenderMove(Move),
}

/// Replays a mating line from `root` and checks it: every move legal, every attacker move a check, and at the
/// end the defender to move with no legal move but futile interpositions (none at all when `futile_rule` is
/// off). Returns the mate's length, futile interpositions (and their captures) not counted.
pub fn verify<V: Variant>(
    root: &Position<V>,
    line: &[Move],
    futile_rule: bool,
) -> Result<usize, MateLineError> {
    let mut pos = root.clone();
    let attacker = pos.side_to_move();
    let mut futile = 0;
    for (i, &m) in line.iter().enumerate() {
        if !pos.is_legal(m) {
            return Err(MateLineError::Illegal {
                number: i + 1,
                mv: m,
            });
        }
        if pos.side_to_move() == attacker {
            if !pos.gives_check(m) {
                return Err(MateLineError::NoCheck {
                    number: i + 1,
                    mv: m,
                });
            }
        } else if futile_rule && is_futile_interposition(&pos, m) {
            futile += 1;
        }
        pos.do_move(m);
    }
    if pos.side_to_move() == attacker {
        return Err(MateLineError::AttackerToMove);
    }
    let mut replies = MoveList::new();
    pos.generate(GenMode::All, &mut replies);
    if let Some(m) = replies
        .iter()
        .find(|&&m| !(futile_rule && is_futile_interposition(&pos, m)))
    {
        return Err(MateLineError::DefenderMove(*m));
    }
    Ok(line.len() - 2 * futile)
}

/// Pieces left in the attacker's hand after playing `line` from the current position (駒余り when not zero).
pub fn surplus_after<V: Variant>(pos: &Position<V>, line: &[Move]) -> u32 {
    let attacker = pos.side_to_move();
    let mut p = pos.clone();
    for &m in line {
        p.do_move(m);
    }
    p.hand(attacker).total()
}

/// How many alternative defences [`prefer_no_surplus`] reads at most: each costs a line reading, and a long
/// problem can have many defender moves of equal value.
const SURPLUS_TRIES: usize = 48;

/// The tsume convention between lines of equal length: the one that leaves the attacker no pieces in hand (no
/// 駒余り) is preferred. When `line` (read by [`principal_line`], verified length `len`) ends with pieces left,
/// this tries, from the last move back to the first, the other moves of either side that the table (or a
/// search within the remaining plies) proves as quickly, reads their lines, and keeps the first whole line of
/// the same verified length that ends with an empty hand. Returns `line` unchanged when there is none within
/// the budget or the limits.
pub fn prefer_no_surplus<V: Variant>(
    s: &mut DfpnSolver<V>,
    line: Vec<Move>,
    len: usize,
    futile_rule: bool,
) -> Vec<Move> {
    let root = s.pos.clone();
    if surplus_after(&root, &line) == 0 {
        return line;
    }
    let mut tries = 0;
    for i in (0..line.len()).rev() {
        for &m in &line[..i] {
            s.pos.do_move(m);
        }
        let found = alternative_at(s, &root, &line, i, len, futile_rule, &mut tries);
        for _ in 0..i {
            s.pos.undo_move();
        }
        if let Some(better) = found {
            return better;
        }
        if tries >= SURPLUS_TRIES || s.aborted.is_some() {
            break;
        }
    }
    line
}

/// At ply `i` of `line` (the searcher's position is the one before it), the first other move whose
/// continuation gives a whole line of length `len` without surplus.
fn alternative_at<V: Variant>(
    s: &mut DfpnSolver<V>,
    root: &Position<V>,
    line: &[Move],
    i: usize,
    len: usize,
    futile_rule: bool,
    tries: &mut usize,
) -> Option<Vec<Move>> {
    let chosen = line[i];
    let or_node = s.pos.side_to_move() == s.attacker;
    let futile_chosen = !or_node && futile_rule && is_futile_interposition(&s.pos, chosen);
    // the plies the chosen move's continuation takes: an alternative must mate within as many
    let rest = (line.len() - i - 1) as u16;
    let mut moves = MoveList::new();
    if or_node {
        generate_checks(&s.pos, &mut moves);
    } else {
        generate_evasions(&s.pos, &mut moves);
    }
    for &m in moves.iter() {
        let futile = !or_node && futile_rule && is_futile_interposition(&s.pos, m);
        if m == chosen || futile != futile_chosen {
            continue;
        }
        if *tries >= SURPLUS_TRIES || s.aborted.is_some() {
            return None;
        }
        *tries += 1;
        s.pos.do_move(m);
        let proven =
            s.tt.probe(s.pos.board_key(), s.attacker_hand(), rest, 1, 1)
                .pn
                == 0
                || {
                    let r = s.search(rest, i as u16 + 1);
                    r.pn == 0
                };
        let tail = if proven && s.aborted.is_none() {
            principal_line(s, rest, true)
        } else {
            None
        };
        s.pos.undo_move();
        let Some(tail) = tail else { continue };
        let mut whole = line[..i].to_vec();
        whole.push(m);
        whole.extend(tail);
        if verify(root, &whole, futile_rule) == Ok(len) && surplus_after(root, &whole) == 0 {
            return Some(whole);
        }
    }
    None
}
