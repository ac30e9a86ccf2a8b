//! The engine host: what every protocol front end (USI, XBoard) runs the engine with, below them all and knowing
//! none of them.
//!
//! The game being played as one value ([`Game`], with `with_game!` into the generic code), the engine's options
//! and a checked change of one ([`Options`], [`Setting`], the net it loads: `NetChange`), the output channel
//! ([`Output`]: whole lines to stdout, copied to the log file), work off the protocol thread (`job`: the job, its
//! halt and reporter, and `lock_searcher`), the stdin reader thread ([`reader`]), `truncate` for error messages,
//! and the rules that end a game early by the scores ([`adjudication`], for matches and self-play). The binary
//! reads the first line through [`reader`] and chooses the protocol from it.
//!
//! What hosting other engines shares with the GUI: the referee ([`judge`]: every move and ending judged with the
//! rules core) and the record formats ([`records`]: games.txt lines, live records, replay checking, CSA).

pub mod adjudication;
pub mod engine_process;
mod game;
pub mod interrupt;
pub(crate) mod job;
pub mod judge;
mod options;
mod output;
pub mod reader;
pub mod records;
mod shard;
pub mod time_control;

pub(crate) use game::with_game;
pub use game::Game;
pub(crate) use options::NetChange;
pub use options::{option_lines, Options, Setting};
pub use output::Output;
pub use shard::{Shard, ShardError};

/// The protocols quote a word of their input as the rules' notations do.
pub(crate) use crate::rules::truncate;
