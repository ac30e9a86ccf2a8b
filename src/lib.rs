//! Hayate: a shogi engine for standard shogi (9×9), minishogi (5×5) and Yari shogi (9×7).
//!
//! Layers, each depending only on those below it:
//! - types and rules: `bitboard`, `square`, `piece`, `hand`, `moves`, `attacks`, `variant`, `position`, `sfen`,
//!   `notation`, `zobrist`, `movegen`, `perft`, `suite` — generic over the [`variant::Variant`] of the game;
//! - engine: `eval`, `search`, `tt`, `bench`;
//! - front ends: `usi` (the protocol loop) and `matches` (`hayate match`).

pub mod attacks;
pub mod bench;
pub mod bitboard;
pub mod eval;
pub mod hand;
pub mod matches;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod position;
pub mod search;
pub mod sfen;
pub mod square;
pub mod suite;
pub mod tt;
pub mod usi;
pub mod variant;
pub mod zobrist;

pub use moves::{Move, MoveList};
pub use position::Position;
pub use variant::{Minishogi, Shogi, Variant, Yari};
