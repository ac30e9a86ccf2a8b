//! A node's result once its loop ends: length and proof pieces of a proof, depth, disproof pieces and
//! repetition dependence of a disproof, and where each is stored.

use super::{dec, inc, DfpnSolver, Node, NodeResult, NO_REP};
use crate::engine::tsume::children::{evaluate, Child};
use crate::engine::tsume::hands::HandBits;
use crate::engine::tsume::moves::captured_kind;
use crate::engine::tsume::repcache::RepDisproof;
use crate::engine::tsume::table::{DEPTH_INF, INF};
use crate::rules::moves::Move;
use crate::rules::piece::Kind;
use crate::rules::variant::Variant;

impl<V: Variant> DfpnSolver<'_, V> {
    /// The node's result once its loop ends, stored where it holds: a proof or a disproof in the table, a
    /// disproof that rests on a repetition of an ancestor in the repetition cache for this path only, the numbers
    /// of an unsolved node in the table with the depth it was searched with.
    pub(super) fn settle(
        &mut self,
        node: &Node,
        (pn, dn): (u32, u32),
        amount: u64,
        children: &[Child],
    ) -> NodeResult {
        let key = self.pos.board_key();
        let (or_node, hand) = (node.or_node, node.hand);
        if self.aborted.is_some() {
            NodeResult::unsolved(pn, dn, hand)
        } else if pn == 0 {
            let (r, mv) = self.proof(or_node, hand, children);
            self.tt.store(key, r.hand, 0, INF, r.len, mv.raw(), amount);
            r
        } else if dn == 0 {
            let (mut r, mv) = self.disproof(or_node, hand, children);
            if r.rep >= node.ply {
                // the only repetitions were back to this very node: the disproof holds on any path
                r.rep = NO_REP;
            }
            if r.rep == NO_REP {
                self.tt.store(key, r.hand, INF, 0, r.len, mv.raw(), amount);
            } else {
                let d = RepDisproof {
                    hand: r.hand,
                    len: r.len,
                    rep: r.rep,
                };
                self.reps.put(node.path, d);
            }
            r
        } else {
            let (_, (best, _, _)) = evaluate(or_node, children);
            let mv = children[best].mv.raw();
            self.tt.store(key, hand, pn, dn, node.rem, mv, amount);
            NodeResult::unsolved(pn, dn, hand)
        }
    }

    /// Length, proof pieces and best move of a proven node.
    fn proof(&self, or_node: bool, hand: HandBits, children: &[Child]) -> (NodeResult, Move) {
        if or_node {
            let Some(c) = children.iter().filter(|c| c.pn == 0).min_by_key(|c| c.len) else {
                unreachable!("a proven OR node has a proven child")
            };
            let mut ph = c.phand;
            if c.mv.is_drop() {
                ph = ph.plus(c.mv.dropped());
            } else if let Some(k) = captured_kind(&self.pos, c.mv) {
                ph = ph.minus(k);
            }
            debug_assert!(
                hand.dominates(ph),
                "proof pieces {ph:?} exceed the hand {hand:?}"
            );
            let r = NodeResult {
                pn: 0,
                dn: INF,
                len: c.len.saturating_add(1),
                hand: ph,
                rep: NO_REP,
            };
            (r, c.mv)
        } else {
            let mut ph = HandBits::EMPTY;
            let mut len = 0;
            let mut mv = Move::NONE;
            for c in children {
                ph = ph.union(c.phand);
                let l = if c.futile {
                    c.len.saturating_sub(1)
                } else {
                    c.len.saturating_add(1)
                };
                if l > len || mv.is_none() {
                    len = l.max(len);
                    mv = c.mv;
                }
            }
            let r = NodeResult {
                pn: 0,
                dn: INF,
                len,
                hand: self.and_proof_hand(ph, hand),
                rep: NO_REP,
            };
            (r, mv)
        }
    }

    /// Depth, disproof pieces, repetition dependence and best move of a disproven node.
    fn disproof(&self, or_node: bool, hand: HandBits, children: &[Child]) -> (NodeResult, Move) {
        if or_node {
            let mut dh = HandBits::FULL;
            let mut depth = DEPTH_INF;
            let mut rep = NO_REP;
            for c in children {
                let mut h = c.phand;
                if c.mv.is_drop() {
                    h = h.plus(c.mv.dropped());
                } else if let Some(k) = captured_kind(&self.pos, c.mv) {
                    h = h.minus(k);
                }
                dh = dh.intersection(h);
                depth = depth.min(inc(c.len));
                rep = rep.min(c.rep);
            }
            for &k in V::HAND_KINDS {
                if hand.count(k) == 0 {
                    dh = dh.set(k, 0);
                }
            }
            let r = NodeResult {
                pn: INF,
                dn: 0,
                len: depth,
                hand: dh,
                rep,
            };
            (r, children.first().map_or(Move::NONE, |c| c.mv))
        } else {
            // the disproving evasion that holds most widely: no repetition, then the deepest
            let Some(c) = children
                .iter()
                .filter(|c| c.dn == 0)
                .max_by_key(|c| (c.rep == NO_REP, c.rep, c.len))
            else {
                unreachable!("a disproven AND node has a disproven child")
            };
            let mut dh = c.phand;
            if c.mv.is_drop() {
                let k: Kind = c.mv.dropped();
                dh = dh.set(k, dh.count(k).min(hand.count(k)));
            }
            let depth = if c.futile { dec(c.len) } else { inc(c.len) };
            let r = NodeResult {
                pn: INF,
                dn: 0,
                len: depth,
                hand: dh,
                rep: c.rep,
            };
            (r, c.mv)
        }
    }
}
