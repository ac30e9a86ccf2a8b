//! The rules of the three games: types, attack tables, positions, legal move generation and perft.
//!
//! Nothing here knows of search or of any protocol.

pub mod attacks;
pub mod bitboard;
pub mod game;
pub mod hand;
pub mod legality;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod position;
pub mod random_plies;
pub mod rng;
pub mod square;
pub mod suite;
pub mod variant;
pub mod zobrist;

/// A word of outside input as an error message quotes it: its first 40 characters, so that a pasted book cannot
/// make a message of its own size.
pub fn truncate(s: &str) -> String {
    s.chars().take(40).collect()
}
