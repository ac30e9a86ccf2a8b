//! Hayate: a shogi engine for standard shogi (9×9), minishogi (5×5) and Yari shogi (9×7).
//!
//! One folder per layer; each layer depends only on those above it in this list:
//! - [`rules`]: the games themselves — squares, bitboards, pieces, hands, moves, attack tables, the
//!   [`Variant`] trait and the [`GameKind`] that names a game at run time, positions with SFEN and USI notation,
//!   legal move generation and perft. Everything is generic over the game's [`Variant`].
//! - [`engine`]: evaluation, search (Lazy SMP), transposition table and `bench`, generic over the same games.
//! - [`host`]: the engine host below the protocol front ends: the game being played, the options, the output
//!   channel, search jobs and the stdin reader.
//! - front ends: [`usi`] (the protocol loop), [`xboard`] (CECP, for XBoard and WinBoard) and
//!   [`matches`](mod@matches) (`hayate match`, hosting and judging other engines); [`gui`] (`hayate gui`, a local
//!   web GUI, which hosts engines through the host's engine process as `hayate match` does); [`learn`] (making
//!   nets). None imports another (`tests/layers.rs` checks this). The command line (`src/cli/`) and the
//!   choice of protocol by the first input line (`src/main.rs`) belong to the binary.

pub mod engine;
pub mod gui;
pub mod host;
pub mod learn;
pub mod matches;
pub mod rules;
pub mod usi;
pub mod xboard;

pub use rules::game::{EnteringKingRule, GameKind};
pub use rules::moves::{Move, MoveList};
pub use rules::position::Position;
pub use rules::variant::{Minishogi, Shogi, Variant, Yari};
