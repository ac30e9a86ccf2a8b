//! Tests of the tsume solver (`engine::tsume`), one binary:
//! - `suites`: exact lengths on 9×9 problems from a public set and on minishogi and Yari shogi suites generated
//!   here, each of those lengths proven again by the brute-force search of `brute`; every line replayed.
//! - `limits`: positions without a mate answer "no mate"; stop, time and node limits end the search at once;
//!   progress is reported; the defender's-hand convention and kingless attackers.

// a test fails by panicking: unwrap is how it states what must succeed (the library keeps to [lints])
#![allow(clippy::unwrap_used)]

mod brute;
mod limits;
mod suites;

use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

// The latency tests run alone: with the suites' searches on both cores of a small machine, a searcher could wait
// for the scheduler longer than the 50 ms it has to answer a stop.
static CPU: RwLock<()> = RwLock::new(());

/// Held by ordinary tests: any number may run together.
fn shared() -> RwLockReadGuard<'static, ()> {
    CPU.read().unwrap_or_else(|e| e.into_inner())
}

/// Held by the latency tests: no other test runs (and searches) meanwhile.
fn exclusive() -> RwLockWriteGuard<'static, ()> {
    CPU.write().unwrap_or_else(|e| e.into_inner())
}
