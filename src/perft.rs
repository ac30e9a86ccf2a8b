//! Perft: the number of leaf nodes of the legal move tree, counting the last ply by the length of the legal
//! move list (every generated move is legal).

use crate::movegen::GenMode;
use crate::moves::Move;
use crate::moves::MoveList;
use crate::position::Position;
use crate::variant::Variant;

pub fn perft<V: Variant>(pos: &mut Position<V>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.generate(GenMode::All, &mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut nodes = 0;
    for &m in &list {
        pos.do_move(m);
        nodes += perft(pos, depth - 1);
        pos.undo_move();
    }
    nodes
}

/// The count below each root move, in generation order.
pub fn divide<V: Variant>(pos: &mut Position<V>, depth: u32) -> Vec<(Move, u64)> {
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
