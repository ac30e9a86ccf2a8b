//! The XBoard/WinBoard front end: the Chess Engine Communication Protocol (CECP, protocol 2), as XBoard speaks
//! it for shogi boards.
//!
//! It runs on the engine host ([`crate::host`]) as the USI front end does: the same
//! [`Searcher`](crate::engine::search::Searcher), [`Options`](crate::host::Options), [`Game`](crate::host::Game),
//! reader thread and jobs, so the protocol thread never blocks either. What is XBoard's own lives here: the
//! commands ([`session`]), the move notation ([`notation`]), the time controls ([`clock`]), what XBoard is told
//! about each game ([`variants`]), and the thinking job with its output and the game's end ([`think`]); the FEN
//! with holdings is in the rules ([`crate::rules::position::xboard_fen`]), since USI reads it too.
//!
//! The session starts when the first line on stdin is `xboard` (what XBoard and WinBoard send first; `main.rs`
//! reads that line and hands the input over), or with `hayate xboard`. stdout carries protocol lines only;
//! diagnostics go through `log` to stderr.

mod clock;
pub mod notation;
mod session;
mod think;
mod variants;

use std::sync::mpsc::Receiver;

use crate::host::reader::{spawn_reader, Input};

pub use session::Session;

/// Runs a CECP session on stdin/stdout until `quit` or end of input (`hayate xboard`; the `xboard` line may
/// still come and is then a no-op).
pub fn run() {
    run_on(spawn_reader());
}

/// Runs a CECP session on input that is already being read, after its `xboard` line.
pub fn run_on(rx: Receiver<Input>) {
    Session::new().run(rx);
}
