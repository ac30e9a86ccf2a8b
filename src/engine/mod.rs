//! The playing engine: evaluation, search, transposition table and the fixed-depth bench.

pub mod bench;
pub mod busy;
pub mod eval;
pub mod nnue;
pub mod params;
pub mod search;
pub mod tsume;
pub mod tt;
pub mod zeroed;
