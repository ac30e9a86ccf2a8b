//! Search tests for all three games.
//!
//! - Mate problems (mate in 1, 3 and 5 plies, drops and promotions among the mating moves), each proved to be a
//!   forced mate of exactly that length by the small AND-OR solver below, which reads the engine only through
//!   `legal_moves`, `do_move`/`undo_move` and `key`. The engine must report `MATE - plies` exactly, and its best
//!   move (and every attacker move of its PV) must keep a forced mate of the remaining length. Every problem is
//!   also played from the other side (board turned round, colours swapped) with White to move.
//! - Game mates on the clock: positions 1 to 9 plies before the checkmate of Hayate's own self-play games
//!   (tests/data/mates/game_mates.txt), each length proven by a brute force that allows quiet attacker moves
//!   (brute_mate.rs), and the mate problems above, searched at `go movetime 3000`: the exact distance is
//!   reported and the best move starts a shortest mate.
//! - Legality: over a few hundred random playout positions per game, the best move, the whole PV and the ponder
//!   move are legal; with no legal move the result is `best: None` and `-MATE` (checkmate and stalemate).
//! - Repetition by each game's rule through `Position::repetition`, perpetual check included, in both colours;
//!   and the search's use of it (a repetition ends a minishogi game with a loss for sente, a draw elsewhere).
//! - Determinism, `searchmoves`, MultiPV and stopping an infinite search.

// a test fails by panicking: unwrap is how it states what must succeed (the library keeps to [lints])
#![allow(clippy::unwrap_used)]

mod bench;
mod brute_mate;
mod driver;
mod game_mates;
mod legality;
mod mates;
mod repetition;

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use hayate::engine::eval::GameEval;
use hayate::engine::search::{
    mate_in_moves, Info, Limits, SearchResult, Searcher, TimeOptions, MATE, MATE_BOUND,
};
use hayate::rules::piece::Color;
use hayate::rules::position::notation::move_to_usi;
use hayate::rules::position::Repetition;
use hayate::{GameKind, Minishogi, Move, Position, Shogi, Variant, Yari};

// ================================================================================================================
// Helpers
// ================================================================================================================

const HASH_MB: usize = 16;

fn pos<V: Variant>(sfen: &str) -> Position<V> {
    Position::<V>::from_sfen(sfen).unwrap_or_else(|e| panic!("{}: bad SFEN {sfen}: {e}", V::NAME))
}

/// A position reached from `sfen` by playing `moves` (USI), with its history kept.
fn play<V: Variant>(sfen: &str, moves: &[&str]) -> Position<V> {
    let mut p = pos::<V>(sfen);
    p.play_usi_moves(moves.iter().copied())
        .unwrap_or_else(|e| panic!("{}: cannot play {moves:?} from {sfen}: {e}", V::NAME));
    p
}

fn usi<V: Variant>(m: Move) -> String {
    move_to_usi::<V>(m)
}

fn line<V: Variant>(pv: &[Move]) -> String {
    pv.iter()
        .map(|&m| usi::<V>(m))
        .collect::<Vec<_>>()
        .join(" ")
}

fn depth(d: i32) -> Limits {
    Limits {
        depth: Some(d),
        multipv: 1,
        ..Limits::default()
    }
}

/// Searches with the default time options (the searcher begins its control from `limits.start` itself).
fn search<V: GameEval>(
    s: &Searcher,
    p: &Position<V>,
    limits: &Limits,
    on_info: &(dyn Fn(&Info) + Sync),
) -> SearchResult {
    s.search(p, limits, &TimeOptions::default(), on_info)
}

fn search_depth<V: GameEval>(p: &Position<V>, d: i32) -> SearchResult {
    let s = Searcher::new(1, HASH_MB);
    search(&s, p, &depth(d), &|_| {})
}

/// The same position seen from the other side: the board turned round, colours swapped, the other side to move.
fn flip_sfen(sfen: &str) -> String {
    let f: Vec<&str> = sfen.split_whitespace().collect();
    let swap = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    let ranks: Vec<String> = f[0]
        .split('/')
        .rev()
        .map(|rank| {
            // tokens: a digit run, or an optional '+' and a letter
            let mut tokens: Vec<String> = Vec::new();
            let mut plus = false;
            for c in rank.chars() {
                if c == '+' {
                    plus = true;
                } else if c.is_ascii_digit() {
                    tokens.push(c.to_string());
                } else {
                    tokens.push(format!("{}{}", if plus { "+" } else { "" }, swap(c)));
                    plus = false;
                }
            }
            tokens.reverse();
            tokens.concat()
        })
        .collect();
    let side = if f[1] == "b" { "w" } else { "b" };
    let hand = if f[2] == "-" {
        "-".to_string()
    } else {
        // counts and letters; sente's (upper case) first after the swap
        let mut items: Vec<String> = Vec::new();
        let mut count = String::new();
        for c in f[2].chars() {
            if c.is_ascii_digit() {
                count.push(c);
            } else {
                items.push(format!("{count}{}", swap(c)));
                count.clear();
            }
        }
        let (mut up, low): (Vec<String>, Vec<String>) = items
            .into_iter()
            .partition(|s| s.chars().last().is_some_and(|c| c.is_ascii_uppercase()));
        up.extend(low);
        up.concat()
    };
    let num = f.get(3).copied().unwrap_or("1");
    format!("{} {side} {hand} {num}", ranks.join("/"))
}

/// A USI move seen from the other side (see `flip_sfen`).
fn flip_move<V: Variant>(m: &str) -> String {
    let b = m.as_bytes();
    let sq = |s: &[u8]| {
        let file = (s[0] - b'0') as usize;
        let rank = (s[1] - b'a') as usize;
        format!(
            "{}{}",
            V::FILES + 1 - file,
            (b'a' + (V::RANKS - 1 - rank) as u8) as char
        )
    };
    if b[1] == b'*' {
        format!("{}*{}", b[0] as char, sq(&b[2..4]))
    } else {
        format!("{}{}{}", sq(&b[0..2]), sq(&b[2..4]), &m[4..])
    }
}

/// xorshift64*: a small seeded generator, so that every run sees the same positions.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

// ================================================================================================================
// Brute-force mate solver
// ================================================================================================================

/// AND-OR search over the engine's legal moves: the attacker tries every move, the defender every reply, and a
/// side to move with no legal move has lost (checkmate or not, in all three games; a mating pawn drop is never
/// generated). Results are cached by key and remaining plies; repetition plays no part within a few plies.
#[derive(Default)]
struct Solver {
    cache: HashMap<(u64, u32), bool>,
    /// Let the attacker try only checking moves (a tsume-style proof; the default tries every move).
    checks_only: bool,
}

impl Solver {
    /// The side to move (the attacker) can force a win within `plies` plies (odd: its own last move included).
    fn wins<V: Variant>(&mut self, p: &mut Position<V>, plies: u32) -> bool {
        if plies == 0 {
            return false;
        }
        if let Some(&r) = self.cache.get(&(p.key(), plies)) {
            return r;
        }
        let mut moves: Vec<Move> = p.legal_moves().to_vec();
        // checks first: only the speed depends on the order
        moves.sort_by_key(|&m| !p.gives_check(m));
        if self.checks_only {
            moves.retain(|&m| p.gives_check(m));
        }
        let mut won = false;
        for m in moves {
            p.do_move(m);
            let lost = self.loses(p, plies - 1);
            p.undo_move();
            if lost {
                won = true;
                break;
            }
        }
        self.cache.insert((p.key(), plies), won);
        won
    }

    /// The side to move (the defender) cannot avoid losing within `plies` plies (even).
    fn loses<V: Variant>(&mut self, p: &mut Position<V>, plies: u32) -> bool {
        let moves = p.legal_moves();
        if moves.is_empty() {
            return true;
        }
        if plies == 0 {
            return false;
        }
        for &m in moves.iter() {
            p.do_move(m);
            let won = self.wins(p, plies - 1);
            p.undo_move();
            if !won {
                return false;
            }
        }
        true
    }

    /// The exact length in plies of the shortest forced win of the side to move, if within `max` plies.
    fn mate_length<V: Variant>(&mut self, p: &mut Position<V>, max: u32) -> Option<u32> {
        (1..=max).step_by(2).find(|&n| self.wins(p, n))
    }
}
