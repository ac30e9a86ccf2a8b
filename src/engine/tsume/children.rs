//! A node's children in the df-pn search: their numbers, the node's numbers from theirs, the child to search
//! next, and the delayed expansion that keeps some children out of the node's numbers until a sibling fails.

use super::hands::HandBits;
use super::table::INF;
use crate::engine::busy::BusyTable;
use crate::rules::moves::Move;
use crate::rules::piece::Kind;
use crate::rules::position::Position;
use crate::rules::variant::Variant;

/// One move of the node being searched, with what is known of the position after it.
#[derive(Clone, Copy)]
pub struct Child {
    pub mv: Move,
    /// Board key after the move (the table key).
    pub key: u64,
    /// Full key after the move (repetition).
    pub full_key: u64,
    /// The attacker's hand after the move.
    pub hand: HandBits,
    pub pn: u32,
    pub dn: u32,
    pub len: u16,
    /// Proof or disproof pieces once solved.
    pub phand: HandBits,
    /// Disproven through a repetition: the ply of the repeated ancestor (see `NodeResult`).
    pub rep: u16,
    pub futile: bool,
    /// Delayed expansion: the index of the sibling this move waits for (`NO_PREV`: none). See [`active`].
    pub prev: u16,
}

/// No sibling to wait for.
pub const NO_PREV: u16 = u16::MAX;

/// Delayed expansion (KomoringHeights' idea): moves that rarely matter until a sibling has failed wait for that
/// sibling. At an AND node the interpositions on one square wait for the weaker piece's drop there to be proven
/// (were every kind on every square counted at once, a distant check would look many times harder to prove than
/// it is); at either node a non-promotion of a pawn, bishop or rook waits for its promotion to fail for the side
/// to move. A waiting move is no part of the node's numbers. That changes the search's order, never its results:
/// an AND node is proven only once every move is (each waiting move becomes active when the move it waits for is
/// proven), an OR node disproven only once every move is; a waiting move already solved against the side to
/// move still settles the node.
#[inline(always)]
pub fn active(or_node: bool, children: &[Child], c: &Child) -> bool {
    c.prev == NO_PREV || {
        let p = &children[c.prev as usize];
        if or_node {
            p.dn == 0
        } else {
            p.pn == 0
        }
    }
}

/// Links each non-promotion of a pawn, bishop or rook to its promotion (see [`active`]).
pub fn link_promotions<V: Variant>(pos: &Position<V>, children: &mut [Child]) {
    for i in 0..children.len() {
        let m = children[i].mv;
        if m.is_drop() || !m.is_promotion() {
            continue;
        }
        let k = pos.piece_at(m.from()).kind();
        if !matches!(k, Kind::Pawn | Kind::Bishop | Kind::Rook) {
            continue;
        }
        let twin = children.iter().position(|c| {
            let n = c.mv;
            !n.is_drop() && !n.is_promotion() && n.from() == m.from() && n.to() == m.to()
        });
        if let Some(j) = twin {
            children[j].prev = i as u16;
        }
    }
}

/// What a node's loop needs from its children, in one pass: the node's proof and disproof numbers from its
/// active children's (a waiting child counts only once it has settled the node) and, while it is unsolved, the
/// active child to search (least proof number at an OR node, least disproof number at an AND node), the second
/// least of those numbers, and the sum of the other active children's disproof (OR) or proof (AND) numbers.
#[inline]
pub fn evaluate(or_node: bool, children: &[Child]) -> ((u32, u32), (usize, u32, u64)) {
    let mut best = usize::MAX;
    let mut best_phi = INF + 1;
    let mut second = INF;
    let mut solved = false;
    let mut sum: u64 = 0;
    for (i, c) in children.iter().enumerate() {
        let (phi, delta) = if or_node { (c.pn, c.dn) } else { (c.dn, c.pn) };
        if !active(or_node, children, c) {
            solved |= phi == 0;
            continue;
        }
        sum += delta as u64;
        if phi < best_phi {
            second = best_phi.min(second);
            best_phi = phi;
            best = i;
        } else if phi < second {
            second = phi;
        }
    }
    let (phi, delta) = if solved || best_phi == 0 {
        (0, INF)
    } else if sum == 0 {
        (INF, 0)
    } else {
        (best_phi.min(INF), sum.min(INF as u64 - 1) as u32)
    };
    let numbers = if or_node { (phi, delta) } else { (delta, phi) };
    if best == usize::MAX {
        return (numbers, (0, INF, 0));
    }
    let c = &children[best];
    let d = if or_node { c.dn } else { c.pn };
    (numbers, (best, second.min(INF), sum - d as u64))
}

/// At a defender's node, the active evasion other than `except` with the least disproof number below `INF`
/// whose position no searcher is in, if there is one: where another searcher is in the best evasion.
pub fn idle_evasion(children: &[Child], except: usize, busy: &BusyTable) -> Option<usize> {
    let mut alt = None;
    let mut alt_dn = INF;
    for (i, c) in children.iter().enumerate() {
        if i != except && c.dn < alt_dn && active(false, children, c) && !busy.is_busy(c.full_key) {
            alt = Some(i);
            alt_dn = c.dn;
        }
    }
    alt
}

/// The best child's threshold from the second best's number: a little above it (1+ε), so that the search does
/// not flip between two children of almost equal promise. ε = 1/4 at attacker nodes, 1/2 at defender nodes.
///
/// With one ε for both kinds of node, 1/4 was the best (with 1/8, 将棋図巧 No. 1 took 16.6 M nodes instead of 16.2 M,
/// four positions on its and Microcosmos' solutions 48.5 M instead of 45.2 M, the minishogi and Yari suites 3-6%
/// more; 1/2, 1/3 and 1/16 were worse still). Apart (`hayate mate --suite`, nodes; attacker ε / defender ε):
/// 1/4 / 1/2 against 1/4 / 1/4: No. 1 14.56 M -> 13.93 M (64 MB table) and 15.34 M -> 13.99 M (256 MB), the seven
/// other long positions (No. 1 from plies 12-36, No. 1 itself, Microcosmos' two tails) 62.3 M -> 60.8 M, full
/// Microcosmos 122.1 M -> 119.0 M (2 GB), the 13-ply, minishogi and Yari suites 3%, 4% and 9% fewer. Defender
/// ε 1 or 1/3: long positions 65.8 M / 64.7 M, the small suites between; attacker ε 1/2, 1/6 or 1/8 with
/// defender 1/2: No. 1 17.8 M / 14.1 M / 14.6 M. A defender's second-best evasion is usually as hopeless as the
/// best: staying longer on the best costs less than switching back and forth.
#[inline(always)]
pub fn one_plus_epsilon(second: u32, or_node: bool) -> u32 {
    if second >= INF {
        INF
    } else {
        let eps = if or_node { second / 4 } else { second / 2 };
        (second + eps + 1).min(INF)
    }
}
