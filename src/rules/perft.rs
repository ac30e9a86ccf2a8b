//! Perft: the number of leaf nodes of the legal move tree. The last ply is counted in bulk: every generated move
//! is legal, so the generator counts the moves it would list (a popcount per piece) without making them.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::rules::movegen::GenMode;
use crate::rules::moves::Move;
use crate::rules::moves::MoveList;
use crate::rules::position::Position;
use crate::rules::variant::Variant;

pub fn perft<V: Variant>(pos: &mut Position<V>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return pos.count_legal_moves();
    }
    let mut list = MoveList::new();
    pos.generate(GenMode::All, &mut list);
    let mut nodes = 0;
    for &m in &list {
        pos.do_move(m);
        nodes += perft(pos, depth - 1);
        pos.undo_move();
    }
    nodes
}

/// The count below each root move, in generation order; no root moves at depth 0 (whose perft is 1).
pub fn divide<V: Variant>(pos: &mut Position<V>, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let list = pos.legal_moves();
    list.iter()
        .map(|&m| {
            pos.do_move(m);
            let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
            pos.undo_move();
            (m, n)
        })
        .collect()
}

/// [`perft`] for a caller that may stop it (the USI `go perft`): None once `stop` is set. The flag is read at
/// every node two or more plies above the leaves, so that a stop takes effect within one depth-2 subtree (a few
/// microseconds) at any depth; [`perft`] itself has no such check and stays as fast as it is.
pub fn perft_until<V: Variant>(
    pos: &mut Position<V>,
    depth: u32,
    stop: &AtomicBool,
) -> Option<u64> {
    if depth < 2 {
        return Some(perft(pos, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut list = MoveList::new();
    pos.generate(GenMode::All, &mut list);
    let mut nodes = 0;
    for &m in &list {
        pos.do_move(m);
        let n = perft_until(pos, depth - 1, stop);
        pos.undo_move();
        nodes += n?;
    }
    Some(nodes)
}

/// [`divide`] for a caller that may stop it: each root move's count goes to `on_move` as soon as it is known.
/// Returns the perft total (1 at depth 0, as [`perft`] counts it), or None once `stop` is set; the position is
/// left as it was either way.
pub fn divide_until<V: Variant>(
    pos: &mut Position<V>,
    depth: u32,
    stop: &AtomicBool,
    mut on_move: impl FnMut(Move, u64),
) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    let mut total = 0;
    for &m in &pos.legal_moves() {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        pos.do_move(m);
        let n = perft_until(pos, depth - 1, stop);
        pos.undo_move();
        let n = n?;
        on_move(m, n);
        total += n;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::{Minishogi, Shogi};

    #[test]
    fn stoppable_counts_match_perft_and_divide() {
        let go_on = AtomicBool::new(false);
        let mut pos = Position::<Minishogi>::startpos();
        for depth in 0..=4 {
            let mut roots = Vec::new();
            let total = divide_until(&mut pos, depth, &go_on, |m, n| roots.push((m, n)));
            assert_eq!(total, Some(perft(&mut pos, depth)), "depth {depth}");
            assert_eq!(perft_until(&mut pos, depth, &go_on), total, "depth {depth}");
            assert_eq!(roots, divide(&mut pos, depth), "depth {depth}");
        }
        assert_eq!(pos.key(), Position::<Minishogi>::startpos().key());
    }

    #[test]
    fn a_set_flag_stops_at_once_and_keeps_the_position() {
        let stop = AtomicBool::new(true);
        let mut pos = Position::<Shogi>::startpos();
        let mut roots = 0;
        assert_eq!(divide_until(&mut pos, 8, &stop, |_, _| roots += 1), None);
        assert_eq!(roots, 0);
        assert_eq!(perft_until(&mut pos, 8, &stop), None);
        // depth 1 has no subtree to stop in
        assert_eq!(perft_until(&mut pos, 1, &stop), Some(30));
        assert_eq!(pos.to_sfen(), Position::<Shogi>::startpos().to_sfen());
    }
}
