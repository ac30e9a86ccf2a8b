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
pub(crate) mod job;
mod mate;
mod options;
mod output;
mod perft;
pub(crate) mod reader;
mod report;
mod search;

pub(crate) use engine::lock;
pub use engine::Engine;
pub(crate) use game::with_game;
pub use game::Game;
pub use go::{parse_go, GoRequest};
pub(crate) use options::NetChange;
pub use options::{Options, Setting};
pub use output::Output;
pub use report::{info_line, usi_score};

/// Runs the USI loop on stdin/stdout until `quit` or end of input, unless the first line is `xboard`: that is
/// how XBoard and WinBoard open a session, and the rest of it goes to the CECP front end ([`crate::xboard`]).
pub fn run() {
    let rx = reader::spawn_reader();
    let first = loop {
        match rx.recv().unwrap_or(reader::Input::Eof) {
            // a blank line means nothing in either protocol
            reader::Input::Line(l) if l.trim().is_empty() => continue,
            reader::Input::Line(l) if l.trim() == "xboard" => return crate::xboard::run_on(rx),
            first => break first,
        }
    };
    Engine::new().run_on(rx, first);
}

/// A word of the input as error messages quote it: at most 40 characters, so that one error line stays short.
pub(crate) fn truncate(s: &str) -> String {
    s.chars().take(40).collect()
}
