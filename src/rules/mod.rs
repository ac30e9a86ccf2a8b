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
pub mod rng;
pub mod square;
pub mod suite;
pub mod variant;
pub mod zobrist;
