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
