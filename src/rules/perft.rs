//! Perft: the number of leaf nodes of the legal move tree. The last ply is counted in bulk: every generated move
//! is legal, so the generator counts the moves it would list (a popcount per piece) without making them.

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
