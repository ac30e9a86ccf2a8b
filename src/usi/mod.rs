//! The USI protocol front end.
//!
//! A reader thread ([`reader`]) turns stdin into commands on a channel; the [`Engine`] on the protocol thread owns
//! the position ([`Game`]), the [`Options`] and the searcher, and starts each search on a thread of its own
//! ([`search`]), so that `stop`, `ponderhit`, `isready` and `quit` are answered while a search runs. stdout
//! carries protocol lines only, each written whole and flushed ([`Output`]).

mod bench;
mod engine;
mod game;
mod go;
mod job;
mod mate;
mod options;
mod output;
mod perft;
mod reader;
mod report;
mod search;

pub use engine::Engine;
pub use game::Game;
pub use go::{parse_go, GoRequest};
pub use options::{Options, Setting};
pub use output::Output;
pub use report::{info_line, usi_score};

/// Runs the USI loop on stdin/stdout until `quit` or end of input.
pub fn run() {
    let mut engine = Engine::new();
    engine.run();
}

/// A word of the input as error messages quote it: at most 40 characters, so that one error line stays short.
fn truncate(s: &str) -> String {
    s.chars().take(40).collect()
}
