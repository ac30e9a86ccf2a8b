//! A plain AND/OR search with iterative deepening that proves a tsume's shortest length independently of the
//! df-pn solver: it reads the rules only through `legal_moves`, `gives_check`, `do_move`/`undo_move`, and it
//! shares only the convention of what a futile interposition is (such a drop and its capture cost no plies).

use std::collections::HashMap;

use hayate::engine::tsume::moves::is_futile_interposition;
use hayate::{Position, Variant};

type Memo = HashMap<(u64, u16), bool>;

/// Whether the attacker (to move) mates within `depth` plies.
fn or_node<V: Variant>(pos: &mut Position<V>, depth: u16, memo: &mut Memo) -> bool {
    if depth == 0 {
        return false;
    }
    if let Some(&r) = memo.get(&(pos.key(), depth)) {
        return r;
    }
    let mut found = false;
    for m in pos.legal_moves() {
        if !pos.gives_check(m) {
            continue;
        }
        pos.do_move(m);
        let ok = and_node(pos, depth - 1, memo);
        pos.undo_move();
        if ok {
            found = true;
            break;
        }
    }
    memo.insert((pos.key(), depth), found);
    found
}

/// Whether every defence (the defender is to move, in check) is mated within `depth` plies.
fn and_node<V: Variant>(pos: &mut Position<V>, depth: u16, memo: &mut Memo) -> bool {
    if let Some(&r) = memo.get(&(pos.key(), depth)) {
        return r;
    }
    let mut all = true;
    for m in pos.legal_moves() {
        let futile = is_futile_interposition(pos, m);
        if !futile && depth == 0 {
            all = false;
            break;
        }
        pos.do_move(m);
        let ok = if futile {
            or_node(pos, depth + 1, memo)
        } else {
            or_node(pos, depth - 1, memo)
        };
        pos.undo_move();
        if !ok {
            all = false;
            break;
        }
    }
    memo.insert((pos.key(), depth), all);
    all
}

/// The shortest mate's length, searching odd lengths up to `max`.
pub fn shortest_mate<V: Variant>(pos: &Position<V>, max: u16) -> Option<u16> {
    let mut pos = pos.clone();
    let mut memo = Memo::new();
    (1..=max)
        .step_by(2)
        .find(|&d| or_node(&mut pos, d, &mut memo))
}
