//! The XBoard/WinBoard front end: the Chess Engine Communication Protocol (CECP, protocol 2), as XBoard speaks
//! it for shogi boards.
//!
//! It shares the engine core with the USI front end: the same [`Searcher`](crate::engine::search::Searcher),
//! [`Options`](crate::usi::Options), [`Game`](crate::usi::Game), reader thread and jobs, so the protocol thread
//! never blocks either. What is XBoard's own lives here: the commands ([`session`]), the move notation
//! ([`notation`]), the FEN with holdings ([`fen`]), the time controls ([`clock`]), what XBoard is told about each
//! game ([`variants`]), and the thinking job with its output and the game's end ([`think`]).
//!
//! The session starts when the first line on stdin is `xboard` (what XBoard and WinBoard send first), or with
//! `hayate xboard`. stdout carries protocol lines only; diagnostics go through `log` to stderr.

mod clock;
pub mod fen;
pub mod notation;
mod session;
mod think;
mod variants;

use std::sync::mpsc::Receiver;

use crate::usi::reader::{spawn_reader, Input};

pub use session::Session;

/// Runs a CECP session on stdin/stdout until `quit` or end of input (`hayate xboard`; the `xboard` line may
/// still come and is then a no-op).
pub fn run() {
    run_on(spawn_reader());
}

/// Runs a CECP session on input that is already being read, after its `xboard` line.
pub(crate) fn run_on(rx: Receiver<Input>) {
    Session::new().run(rx);
}

/// A word of the input as error messages quote it (at most 40 characters).
fn truncate(s: &str) -> String {
    crate::usi::truncate(s)
}
