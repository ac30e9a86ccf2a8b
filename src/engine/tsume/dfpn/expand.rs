//! Expanding a node: its moves with their table values, or the initial numbers of the children the table does
//! not know (their replies counted).

use super::{dec, inc, DfpnSolver, NO_REP};
use crate::engine::tsume::children::{link_promotions, Child, NO_PREV};
use crate::engine::tsume::hands::HandBits;
use crate::engine::tsume::moves::{
    attacker_hand_after, count_checks, generate_checks, generate_evasions, interposition_squares,
    is_futile_interposition, move_bias, REPLY_UNIT,
};
use crate::engine::tsume::repcache::RepCache;
use crate::engine::tsume::table::{DEPTH_INF, INF};
use crate::rules::moves::MoveList;
use crate::rules::variant::Variant;

impl<V: Variant> DfpnSolver<'_, V> {
    /// Disproof pieces of an OR node without checks: any number of the kinds it holds, none of the others (a
    /// kind it lacks might give a check by a drop).
    pub(super) fn no_check_disproof(hand: HandBits) -> HandBits {
        let mut dh = HandBits::FULL;
        for &k in V::HAND_KINDS {
            if hand.count(k) == 0 {
                dh = dh.set(k, 0);
            }
        }
        dh
    }

    /// Proof pieces at an AND node (the defender to move, in check) given its children's union `ph`: when the
    /// check could be blocked, a kind the defender lacks might have been dropped had the attacker held fewer of
    /// them, so the proof needs all the attacker's pieces of that kind.
    pub(super) fn and_proof_hand(&self, ph: HandBits, hand: HandBits) -> HandBits {
        if interposition_squares(&self.pos).is_empty() {
            return ph;
        }
        let defender_hand = self.pos.hand(!self.attacker);
        let mut ph = ph;
        for &k in V::HAND_KINDS {
            if !defender_hand.has(k) {
                ph = ph.set(k, hand.count(k));
            }
        }
        ph
    }

    /// Creates the children of the current node, with their table values or initial estimates. Stops early at
    /// a child that settles the node (a proven check, a disproving evasion).
    pub(super) fn expand(
        &mut self,
        or_node: bool,
        hand: HandBits,
        rem: u16,
        path: u64,
        children: &mut Vec<Child>,
    ) {
        let mut moves = MoveList::new();
        if or_node {
            generate_checks(&self.pos, &mut moves);
        } else {
            generate_evasions(&self.pos, &mut moves);
        }
        // every child's table probe is a cache miss in a large table: start all their loads before the first probe
        let mut keys = arrayvec::ArrayVec::<u64, { crate::rules::moves::MAX_MOVES }>::new();
        let mut full_keys = arrayvec::ArrayVec::<u64, { crate::rules::moves::MAX_MOVES }>::new();
        for &m in moves.iter() {
            let k = self.pos.board_key_after(m);
            self.tt.prefetch(k);
            keys.push(k);
            let fk = k ^ self.pos.hand_key_after(m);
            self.estimates.prefetch(fk);
            full_keys.push(fk);
        }
        // the last drop child on each square, for the delayed interpositions
        let mut last_drop = [NO_PREV; 128];
        for (i, &m) in moves.iter().enumerate() {
            let child_hand = if or_node {
                attacker_hand_after(&self.pos, hand, m)
            } else {
                hand
            };
            let futile = !or_node && self.futile_rule && is_futile_interposition(&self.pos, m);
            let child_rem = if futile { inc(rem) } else { dec(rem) };
            let mut c = Child {
                mv: m,
                key: keys[i],
                full_key: full_keys[i],
                hand: child_hand,
                pn: 1,
                dn: 1,
                len: 0,
                phand: child_hand,
                rep: NO_REP,
                futile,
                prev: NO_PREV,
            };
            if !or_node && m.is_drop() {
                let to = m.to().index();
                c.prev = last_drop[to];
                last_drop[to] = children.len() as u16;
            }
            if let Some(ply) = self.path.get(c.full_key) {
                c.pn = INF;
                c.dn = 0;
                c.len = DEPTH_INF;
                c.rep = ply;
            } else {
                let p = self.tt.probe(c.key, child_hand, child_rem, 1, 1);
                let rep = if p.pn != 0 && p.dn != 0 {
                    self.reps.get(RepCache::child(path, m))
                } else {
                    None
                };
                if let Some(d) = rep {
                    c.pn = INF;
                    c.dn = 0;
                    c.len = d.len;
                    c.phand = d.hand;
                    c.rep = d.rep;
                } else if p.found {
                    c.pn = p.pn;
                    c.dn = p.dn;
                    c.len = p.len;
                    c.phand = p.hand;
                } else if c.prev == NO_PREV || child_rem == 0 {
                    self.estimate(&mut c, or_node, child_rem);
                }
                // a delayed interposition keeps 1/1 until it is searched: estimating it costs a move generation
                // that is wasted whenever an earlier interposition on its square already refutes the check
            }
            let settles = if or_node {
                c.pn == 0
            } else {
                c.dn == 0 && c.rep == NO_REP
            };
            children.push(c);
            if settles {
                break;
            }
        }
        link_promotions(&self.pos, children);
    }

    /// Initial numbers of a child not in the table: its number of replies (none means it is solved), in units of
    /// [`REPLY_UNIT`], plus [`move_bias`] for what the move itself says. The counts are remembered in
    /// [`Estimates`]: a node is expanded again each time its parent searches it, and counting its children's
    /// replies anew cost two of every three nodes searched.
    pub(super) fn estimate(&mut self, c: &mut Child, or_node: bool, child_rem: u16) {
        if !or_node && child_rem == 0 {
            c.pn = INF;
            c.dn = 0;
            c.len = 0;
            c.phand = HandBits::FULL;
            return;
        }
        // a remembered estimate counts as a node too: the table's replacement weighs entries by the nodes below
        // them, so the search (and its node count) stays exactly that of counting the replies again
        self.nodes += 1;
        let (pn, dn) = match self.estimates.get(c.full_key) {
            Some(counts) => counts,
            None => {
                let Some(counts) = self.count_replies(c, or_node) else {
                    return;
                };
                self.estimates.put(c.full_key, counts.0, counts.1);
                counts
            }
        };
        let (bias_pn, bias_dn) = move_bias(&self.pos, c.mv, or_node);
        c.pn = pn * REPLY_UNIT + bias_pn;
        c.dn = dn * REPLY_UNIT + bias_dn;
    }

    /// The child's replies counted (evasions after a check: its proof number; checks after an evasion: its
    /// disproof number; the other number 1), or `None` when there are none and the child is solved: then its
    /// result is in `c` and in the table.
    pub(super) fn count_replies(&mut self, c: &mut Child, or_node: bool) -> Option<(u32, u32)> {
        self.pos.do_move(c.mv);
        let counts = if or_node {
            // counted without listing them: most children are estimated, few expanded
            let evasions = self.pos.count_legal_moves_drop_squares_once();
            if evasions == 0 {
                c.pn = 0;
                c.dn = INF;
                c.len = 0;
                c.phand = self.and_proof_hand(HandBits::EMPTY, c.hand);
                self.tt.store(c.key, c.phand, 0, INF, 0, 0, 1);
                None
            } else {
                Some((evasions, 1))
            }
        } else {
            let replies = count_checks(&self.pos);
            if replies == 0 {
                c.pn = INF;
                c.dn = 0;
                c.len = DEPTH_INF;
                c.phand = Self::no_check_disproof(c.hand);
                self.tt.store(c.key, c.phand, INF, 0, DEPTH_INF, 0, 1);
                None
            } else {
                Some((1, replies))
            }
        };
        self.pos.undo_move();
        counts
    }
}
