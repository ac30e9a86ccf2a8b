//! The USI front end, driven the way a GUI drives it: the real `hayate` binary with piped stdin and stdout.
//!
//! Every test talks to its own engine process through [`process::Engine`]: a writer thread feeds stdin (so that a test can
//! never block on a full pipe), a reader thread turns stdout into timestamped lines on a channel, and every wait
//! has a timeout, so that an engine that hangs fails the test instead of blocking it. Every `bestmove` the engine
//! plays is checked for legality with the library (`Position::parse_move`) in the position the engine reports
//! with `d` or that the test keeps itself.
//!
//! Engines run with `Threads 1` (or 2) and `USI_Hash 16`. The two latency tests take an exclusive lock so that
//! the other tests' searches do not compete with them for the two cores of the test machine.

// a test fails by panicking: unwrap is how it states what must succeed (the library keeps to [lints])
#![allow(clippy::unwrap_used)]

mod bad_input;
mod commands;
mod eof_and_quit;
mod handshake;
mod jobs;
mod legality;
mod process;
mod random_input;
mod responsiveness;
#[path = "../common/scratch.rs"]
mod scratch;
mod self_play;

use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::time::Duration;

const SHOGI_START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const MINI_START: &str = "rbsgk/4p/5/P4/KGSBR b - 1";
const YARI_START: &str = "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1";
/// Sente to move mates at once with G*5b (the pawn on 5c guards the gold); no other move mates.
const MATE_IN_ONE: &str = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";
/// Gote to move is checkmated (the same position after G*5b).
const MATED: &str = "4k4/4G4/4P4/9/9/9/9/9/4K4 w - 2";

/// Replies that need no search (readyok, errors, `d`).
const QUICK: Duration = Duration::from_secs(5);
/// A shallow search (depth 1 to 3, 3000 nodes).
const SEARCH: Duration = Duration::from_secs(15);

// ================================================================================================================
// Scheduling: the latency tests run alone
// ================================================================================================================

static CPU: RwLock<()> = RwLock::new(());

/// Held by ordinary tests: any number may run together.
fn shared() -> RwLockReadGuard<'static, ()> {
    CPU.read().unwrap_or_else(|e| e.into_inner())
}

/// Held by the latency tests: no other test runs (and searches) meanwhile.
fn exclusive() -> RwLockWriteGuard<'static, ()> {
    CPU.write().unwrap_or_else(|e| e.into_inner())
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
