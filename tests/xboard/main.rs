//! The XBoard (CECP) front end, driven as XBoard drives it: the real `hayate` binary with piped stdin and stdout
//! ([`protocol`], [`bad_input`]); and XBoard itself, under Xvfb, hosting Hayate against Hayate in all three
//! games, directly and (minishogi) through the UCI2WB adapter in USI mode ([`gui`]). Every game XBoard saves is
//! replayed and judged by Hayate's rules core ([`pgn`]), and a screenshot of each final board is kept under
//! `target/xboard/` for people to look at.
//!
//! The GUI tests need `xboard`, `Xvfb`, `uci2wb` and ImageMagick's `import` (Debian: `xboard xvfb uci2wb
//! imagemagick`; `.ci/run` installs them). Without them they fail and say so, unless `HAYATE_SKIP_GUI_TESTS=1`
//! is set. They run one at a time and alone (an exclusive lock), so that the engines' clocks are not starved.

// a test fails by panicking: unwrap is how it states what must succeed (the library keeps to [lints])
#![allow(clippy::unwrap_used)]

mod bad_input;
mod gui;
mod pgn;
mod process;
mod protocol;
#[path = "../common/scratch.rs"]
mod scratch;

use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::time::Duration;

/// Replies that need no search.
const QUICK: Duration = Duration::from_secs(5);
/// A short search (a few plies, or `st 1`).
const SEARCH: Duration = Duration::from_secs(20);

static CPU: RwLock<()> = RwLock::new(());

/// Held by the protocol tests: any number run together.
fn shared() -> RwLockReadGuard<'static, ()> {
    CPU.read().unwrap_or_else(|e| e.into_inner())
}

/// Held by the GUI tests: one at a time, nothing else searching.
fn exclusive() -> RwLockWriteGuard<'static, ()> {
    CPU.write().unwrap_or_else(|e| e.into_inner())
}
