//! A brute-force prover of a game mate's exact length, independent of the search and of the tsume solver: an
//! AND/OR search with iterative deepening over odd ply counts that reads the rules only through `legal_moves`,
//! `has_legal_move`, `gives_check` (to try checks first: only the speed depends on the order), `do_move`/`undo_move`
//! and `key`. Unlike a tsume proof (tests/tsume/brute.rs) the attacker may play any legal move, quiet ones
//! included; the defender must be lost after every legal reply; a side to move with no legal move has lost
//! (checkmate or not, in all three games: the rules never generate a mating pawn drop).
//!
//! Repetition plays no part: along a shortest mate (the attacker always moves to a position of shorter distance)
//! no position recurs, so whether a search scores a repetition as a draw or a loss leaves the exact distance of a
//! position set up from a SFEN (no history) unchanged; and no repetition rule ends a game within 9 plies.
//!
//! Shared by the search tests (tests/search/game_mates.rs) and the generator of their data
//! (examples/game_mates.rs, which includes this file by path).

#![allow(dead_code)]

use std::collections::HashMap;
use std::time::Instant;

use hayate::{Move, Position, Variant};

/// The bounds known for one position: the longest length proven too short, the shortest proven enough.
#[derive(Clone, Copy)]
struct Bounds {
    fails: u32,
    holds: u32,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            fails: 0,
            holds: u32::MAX,
        }
    }
}

/// The prover: memoised by key and remaining plies (as bounds: a win within n plies is a win within more, a
/// failure within n a failure within fewer). Optionally bounded by a deadline: once past it, every answer is
/// void (`aborted`).
#[derive(Default)]
pub struct BruteMate {
    /// Positions with the attacker to move: "wins within n plies".
    or_memo: HashMap<u64, Bounds>,
    /// Positions with the defender to move: "loses within n plies".
    and_memo: HashMap<u64, Bounds>,
    pub nodes: u64,
    pub deadline: Option<Instant>,
    pub aborted: bool,
}

impl BruteMate {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn with_deadline(deadline: Instant) -> Self {
        BruteMate {
            deadline: Some(deadline),
            ..Self::default()
        }
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024) {
            if let Some(d) = self.deadline {
                if Instant::now() > d {
                    self.aborted = true;
                }
            }
        }
        self.aborted
    }

    /// OR node: the side to move (the attacker) can force a win within `plies` plies (its own last move
    /// included; odd).
    pub fn wins<V: Variant>(&mut self, p: &mut Position<V>, plies: u32) -> bool {
        if plies == 0 || self.tick() {
            return false;
        }
        let key = p.key();
        let b = self.or_memo.get(&key).copied().unwrap_or_default();
        if plies >= b.holds {
            return true;
        }
        if plies <= b.fails {
            return false;
        }
        let mut moves: Vec<Move> = p.legal_moves().to_vec();
        moves.sort_by_key(|&m| !p.gives_check(m));
        let mut won = false;
        for m in moves {
            p.do_move(m);
            let lost = self.loses(p, plies - 1);
            p.undo_move();
            if self.aborted {
                return false;
            }
            if lost {
                won = true;
                break;
            }
        }
        let e = self.or_memo.entry(key).or_default();
        if won {
            e.holds = e.holds.min(plies);
        } else {
            e.fails = e.fails.max(plies);
        }
        won
    }

    /// AND node: the side to move (the defender) cannot avoid losing within `plies` plies (even): it has no legal
    /// move, or every legal reply leaves the attacker a win within `plies - 1`.
    pub fn loses<V: Variant>(&mut self, p: &mut Position<V>, plies: u32) -> bool {
        if self.tick() {
            return false;
        }
        let key = p.key();
        let b = self.and_memo.get(&key).copied().unwrap_or_default();
        if plies >= b.holds {
            return true;
        }
        if plies <= b.fails && b.fails > 0 {
            return false;
        }
        let moves = p.legal_moves();
        let lost = if moves.is_empty() {
            true
        } else if plies == 0 {
            false
        } else {
            let mut all = true;
            for &m in moves.iter() {
                p.do_move(m);
                let won = self.wins(p, plies - 1);
                p.undo_move();
                if self.aborted {
                    return false;
                }
                if !won {
                    all = false;
                    break;
                }
            }
            all
        };
        let e = self.and_memo.entry(key).or_default();
        if lost {
            e.holds = e.holds.min(plies);
        } else {
            e.fails = e.fails.max(plies);
        }
        lost
    }

    /// The exact length in plies of the side to move's shortest forced win, if within `max`: every shorter odd
    /// length is refuted first. `None` also when the deadline passed (see `aborted`).
    pub fn shortest<V: Variant>(&mut self, p: &Position<V>, max: u32) -> Option<u32> {
        let mut q = p.clone();
        for n in (1..=max).step_by(2) {
            let won = self.wins(&mut q, n);
            if self.aborted {
                return None;
            }
            if won {
                return Some(n);
            }
        }
        None
    }

    /// Whether `m` (legal here) starts a win within `plies`: after it the defender loses within `plies - 1`.
    pub fn starts_win<V: Variant>(&mut self, p: &Position<V>, m: Move, plies: u32) -> bool {
        let mut q = p.clone();
        q.do_move(m);
        self.loses(&mut q, plies - 1)
    }
}
