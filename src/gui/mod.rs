//! `hayate gui`: a local web GUI for the three games, served to a browser on this machine only.
//!
//! The page (`page/`, embedded in the binary) draws the board and sends the player's clicks; every rule lives
//! here on the server, in the rules core: the page learns the legal moves from the server and never decides one
//! itself. Layers, each a module:
//! - [`server`]: the TCP listener on 127.0.0.1, one thread per connection; [`http`] reads a request head and
//!   answers the page's files; [`access`] is the token, Host and Origin check every request and socket passes.
//! - [`socket`]: one WebSocket per page, a loop that reads the page's messages and forwards the engines' events.
//! - [`session`]: what one page is doing (the game, the engine playing, the analysis), driven by [`protocol`]
//!   messages; [`record`] is the game itself (start, moves, judged by the match referee), [`formats`] the
//!   import and export of positions and records, [`clock`] the players' clocks, [`worker`] an engine process on a
//!   thread of its own, [`watch`] the record files replayed and a running match's games in progress followed.

mod access;
mod assets;
mod clock;
pub mod formats;
mod http;
mod info;
pub mod protocol;
pub mod record;
mod server;
pub mod session;
mod socket;
mod watch;
mod worker;

use crate::host::engine_process::EngineSpec;

pub use server::{serve, ServeError};

/// What `hayate gui` was started with.
#[derive(Clone, Debug)]
pub struct GuiConfig {
    /// 0 picks a free port.
    pub port: u16,
    /// The engines the page may start, in command-line order; the page names them by index.
    pub engines: Vec<EngineSpec>,
    /// A record file (or `hayate match --out` folder, with its games in progress) the page may replay.
    pub watch: Option<std::path::PathBuf>,
}
