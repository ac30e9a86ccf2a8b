//! The USI protocol front end.
//!
//! The host's reader thread ([`crate::host::reader`]) turns stdin into commands on a channel; the [`Engine`] on the
//! protocol thread owns the position ([`Game`](crate::host::Game)), the [`Options`](crate::host::Options) and the
//! searcher, and starts each search on a thread of its own ([`search`]), so that `stop`, `ponderhit`, `isready`
//! and `quit` are answered while a search runs. stdout carries protocol lines only, each written whole and flushed
//! ([`Output`](crate::host::Output)). Which protocol a session speaks is chosen before it gets here (`main.rs`).

mod bench;
mod engine;
mod go;
mod mate;
mod perft;
mod report;
mod search;

use std::sync::mpsc::Receiver;

use crate::host::reader::Input;

pub use engine::Engine;
pub use go::{parse_go, GoRequest};
pub use report::{info_line, usi_score};

/// Runs the USI loop on input that is already being read, starting with `first` (read from it before, to choose
/// the protocol), until `quit` or end of input.
pub fn run_on(rx: Receiver<Input>, first: Input) {
    Engine::new().run_on(rx, first);
}
