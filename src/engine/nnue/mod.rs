//! The learned evaluation (NNUE): a small network whose first layer is updated incrementally as moves are made.
//!
//! - `features`: the inputs per game and perspective, and the (at most four) inputs a move changes;
//! - `network`: the quantised weights and the output layer;
//! - `accumulator`: the first layer's output per perspective, a stack entry per move along the search;
//! - `simd`: the vector kernels (AVX2 chosen at run time) and their portable twins;
//! - `file`: the net file format, checked on load.
//!
//! Nets are per game. The search uses the net of its game when one is loaded and `UseNNUE` is on, the
//! classical evaluation otherwise. Each game's net is embedded (`nets/minishogi.nnue`, `nets/shogi.nnue`,
//! `nets/yari.nnue`); docs/nets.md says how each was made.

pub mod accumulator;
pub mod features;
pub mod file;
pub mod network;
pub mod simd;

use std::fmt;
use std::path::Path;
use std::sync::Arc;

pub use accumulator::AccumulatorStack;
pub use features::Features;
pub use file::NetError;
pub use network::Network;

use crate::{with_variant, GameKind};

/// The input count of a game's nets.
pub fn inputs(game: GameKind) -> usize {
    with_variant!(game, V => <V as Features>::INPUTS)
}

/// Loads a net file for `game`: the one way every command and option reads a net file (`--eval-file`,
/// `EvalFile`), so that they accept and refuse the same files with the same reasons.
pub fn load(path: &Path, game: GameKind) -> Result<Arc<Network>, NetError> {
    file::load(path, game, inputs(game)).map(Arc::new)
}

/// Loads a net file for the first of `games` it fits, for a command that runs several games and is given one
/// net (`hayate bench --eval-file`).
pub fn load_any(path: &Path, games: &[GameKind]) -> Result<(GameKind, Arc<Network>), FitsNoGame> {
    let mut errors = Vec::new();
    for &g in games {
        match load(path, g) {
            Ok(net) => return Ok((g, net)),
            Err(e) => errors.push((g, e)),
        }
    }
    Err(FitsNoGame(errors))
}

/// Why a net file fits none of the games it was tried for: each game's reason.
#[derive(Debug)]
pub struct FitsNoGame(pub Vec<(GameKind, NetError)>);

impl fmt::Display for FitsNoGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (g, e)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{g}: {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for FitsNoGame {}

/// The net built into the binary for `game` (None only if its bytes fail the checks, which the tests rule out).
pub fn embedded(game: GameKind) -> Option<Arc<Network>> {
    let bytes: &[u8] = match game {
        // docs/nets.md gives the commands, seeds and sizes that made each net
        GameKind::Minishogi => include_bytes!("../../../nets/minishogi.nnue"),
        GameKind::Shogi => include_bytes!("../../../nets/shogi.nnue"),
        GameKind::Yari => include_bytes!("../../../nets/yari.nnue"),
    };
    match file::from_bytes(bytes, game, inputs(game)) {
        Ok(n) => Some(Arc::new(n)),
        Err(e) => {
            log::error!("the embedded {game} net is unusable: {e}");
            None
        }
    }
}

#[cfg(test)]
mod tests;
