//! `hayate match`: engine-versus-engine matches between two USI engines, in any of the three games.
//!
//! - Engines ([`crate::host::engine_process`]) are separate processes driven over USI: `usi`/`usiok`, `USI_Variant` and `UCI_Variant`
//!   (for minishogi and Yari shogi; for shogi only when listed), the `option.<Name>=<value>` options,
//!   `isready`/`readyok`; per game `isready`/`readyok` and `usinewgame`; per move `position sfen <start> moves ...`
//!   and a `go` for the engine's time control ([`crate::host::time_control::TimeControl`]: clocks with both sides' real remaining
//!   times, `movetime`, `nodes`, `depth`); `gameover win|lose|draw` at the end of a game; `quit` (then a kill) at
//!   the end of the match. Every read has a deadline; stderr is read and dropped.
//! - Concurrency: `--concurrency C` worker threads each own one process of each engine and reuse them for all
//!   their games; an engine that crashed or hung (or failed `isready` before a game) is killed and started afresh
//!   for the worker's next game.
//! - Games come in pairs from the same opening with colours swapped: game `2k + 1` (1-based, odd) has the first
//!   engine as sente, game `2k + 2` the second engine. Pair `k` uses file opening `k` (cycling), followed by
//!   `--random-plies` random legal plies ([`openings`]). `hayate openings` writes a file of level openings
//!   ([`balanced`]).
//! - Judging ([`play`], with the host's referee [`crate::host::judge`]): every move is checked with Hayate's rules
//!   core; see [`crate::host::judge::Reason`] for the endings; [`adjudication`] reads the engines' scores for `--resign` and `--draw`, whose rules are the host's
//!   ([`crate::host::adjudication`]).
//! - Statistics ([`stats`]): W-D-L, score, logistic Elo with its 95% interval, LOS, draw ratio, pair
//!   (pentanomial) counts and the SPRT — trinomial by default, `model=pentanomial` optional (fastchess's GSPRT,
//!   logistic Elo). When the SPRT decides, no new game starts; games already running finish and count.
//! - Records (`record_files`, in the host's formats [`crate::host::records`]): `--out DIR` gets `games.txt`, one line per game in game order, and for standard shogi
//!   one CSA file per game, `0001.csa` and on; while a game runs, its live record `live/<n>.txt`, rewritten after
//!   every move, which `hayate gui --watch DIR` follows.
//! - Clusters ([`cluster`]): `--shard K/N` plays the pairs whose number is K modulo N, with the whole match's
//!   openings, seeds and game numbers, and never stops for the SPRT; `--merge` joins the shards' `--out` folders
//!   (each with its `match.json`) into the whole match's records and summary.
//! - Stopping ([`crate::host::interrupt`]): on SIGINT or SIGTERM no new game starts, the running games are abandoned (their
//!   engines killed), and the summary of the finished games is printed.

pub mod adjudication;
pub mod balanced;
pub mod cluster;
pub mod kif;
pub mod openings;
pub mod play;
mod progress;
mod record_files;
mod runner;
pub mod spsa;
pub mod stats;
mod tally;
mod worker;

use std::path::PathBuf;
use std::time::Duration;

use crate::host::Shard;
use crate::{with_variant, GameKind};

use crate::host::engine_process::{EngineSpec, StartError};
use crate::host::time_control::TimeControl;
pub use openings::{parse_opening, Opening, OpeningError, RandomPliesError};
use play::GameLimits;
pub use progress::{progress_bar, standing};
pub use record_files::RecordFilesError;
use stats::SprtConfig;
pub use tally::{summary_lines, FinishedGame, MatchSummary, SummaryFrame};

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: [EngineSpec; 2],
    /// Each engine's time control: its own `tc=`, or the match's `--tc`.
    pub tcs: [TimeControl; 2],
    /// `shogi`, `minishogi` or `yarishogi`.
    pub variant: GameKind,
    pub games: usize,
    pub concurrency: usize,
    pub limits: GameLimits,
    /// Opening lines: `[position] (startpos | [sfen] <sfen>) [moves ...]`; empty: the start position.
    pub openings: Vec<String>,
    /// Random legal plies played after each opening.
    pub random_plies: usize,
    /// The seed of the random plies.
    pub seed: u64,
    /// The directory for `games.txt` and the CSA files.
    pub out_dir: Option<PathBuf>,
    pub sprt: Option<SprtConfig>,
    /// For starting an engine and for each `isready` before a game.
    pub ready_timeout: Duration,
    /// The opening pairs this run plays (`Shard::WHOLE`: all); see [`cluster`].
    pub shard: Shard,
}

impl MatchConfig {
    /// The numbers (0-based) of the games this run plays, in order: those of the pairs its shard owns.
    pub fn shard_games(&self) -> Vec<usize> {
        (0..self.games)
            .filter(|&i| self.shard.owns((i / 2) as u64))
            .collect()
    }
}

/// Where a match writes: finished lines, and (on a terminal) a progress bar kept below them.
pub trait Report: Sync {
    /// A line of progress or of the summary.
    fn line(&self, text: &str);
    /// The progress bar's new text; None takes it away.
    fn progress(&self, _bar: Option<&str>) {}
}

impl<F: Fn(&str) + Sync> Report for F {
    fn line(&self, text: &str) {
        self(text)
    }
}

/// Why a match could not start: a configuration that cannot give its first game (an error once games are being
/// played stops the match instead, and is told in its summary).
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    #[error("--games must be at least 1")]
    NoGames,
    #[error(transparent)]
    Openings(#[from] OpeningError),
    #[error(transparent)]
    RandomPlies(#[from] RandomPliesError),
    #[error(transparent)]
    Records(#[from] RecordFilesError),
    #[error("engine {number} ({cmd}): {error}")]
    Engine {
        number: usize,
        cmd: String,
        error: StartError,
    },
}

/// Plays a match, printing progress and the summary through `report`; Err for a configuration that cannot start
/// (bad openings, an engine that does not start). An error during the match stops it and is reported in the
/// summary's `error`.
pub fn run_match(cfg: &MatchConfig, report: &dyn Report) -> Result<MatchSummary, MatchError> {
    with_variant!(cfg.variant, V => runner::run::<V>(cfg, report))
}

/// Checks a record file for the game `variant`; returns the number of games.
pub fn verify_records(
    variant: GameKind,
    text: &str,
    max_plies: usize,
) -> Result<usize, crate::host::records::RecordFileError> {
    with_variant!(variant, V => crate::host::records::verify_file::<V>(text, max_plies))
}
