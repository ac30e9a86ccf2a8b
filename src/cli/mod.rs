//! Command-line front end: the subcommands and their arguments, a file each; here the list of them and what they
//! share (the game argument, the grouping of `--engine`'s words).

pub mod bench;
pub mod data;
pub mod gui;
pub mod matches;
pub mod mate;
pub mod openings;
pub mod perft;
pub mod selfplay;
pub mod train;
pub mod tune;

pub use bench::{run_bench, BenchArgs};
pub use gui::{run_gui, GuiArgs};
pub use matches::{run_match, MatchArgs};
pub use perft::{run_perft, PerftArgs};

use clap::builder::PossibleValue;
use clap::{ArgMatches, Parser, Subcommand, ValueEnum};

use hayate::GameKind;

#[derive(Parser, Debug)]
#[command(
    name = "hayate",
    version,
    about = "Hayate shogi engine (shogi, minishogi, Yari shogi)"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count the leaf nodes of the legal move tree, or check a perft suite file.
    Perft(PerftArgs),
    /// Search a fixed list of positions to a fixed depth and report nodes and speed; with no arguments (all
    /// games, depth 8, one thread) the last line, `Bench: <nodes>`, is the search's signature.
    Bench(BenchArgs),
    /// Play a match between two USI engines (or check a record file with --verify).
    Match(MatchArgs),
    /// Solve a tsume problem (or a suite of them) with the df-pn solver.
    Mate(crate::cli::mate::MateArgs),
    /// Serve a local web GUI (play, analyse, solve, import/export) and print the URL to open.
    Gui(GuiArgs),
    /// Play Hayate against itself at fixed nodes and write labelled quiet positions for training.
    Selfplay(crate::cli::selfplay::SelfplayArgs),
    /// Train a net (NNUE) from self-play data on the CPU and write it quantised.
    Train(crate::cli::train::TrainArgs),
    /// Look into self-play data files, or pack them into one file without duplicated positions.
    Data(crate::cli::data::DataArgs),
    /// Write a file of level openings for `match --openings`: random plies kept when a search scores them close
    /// to level.
    Openings(crate::cli::openings::OpeningsArgs),
    /// Tune the search's parameters by SPSA: game pairs of an engine against itself, one side with the values
    /// pushed up and the other with them pushed down (the SearchParams option), each pair moving the values.
    Tune(crate::cli::tune::TuneArgs),
    /// Speak XBoard's protocol (CECP) on stdin/stdout instead of USI, for XBoard and WinBoard (a first input
    /// line `xboard` does the same without the subcommand).
    Xboard,
}

/// A game on the command line: the names and aliases are [`GameKind`]'s, listed in `--help`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameArg(pub GameKind);

const GAMES: [GameArg; 3] = [
    GameArg(GameKind::ALL[0]),
    GameArg(GameKind::ALL[1]),
    GameArg(GameKind::ALL[2]),
];

impl ValueEnum for GameArg {
    fn value_variants<'a>() -> &'a [Self] {
        &GAMES
    }
    fn to_possible_value(&self) -> Option<PossibleValue> {
        let names = self.0.aliases();
        Some(PossibleValue::new(names[0]).aliases(names[1..].iter().copied()))
    }
}

/// The words of each `--engine` occurrence of a subcommand, from the command line as clap read it once: the
/// derived `engines` field holds them all in one list (clap derives a list per occurrence only unstably).
pub(crate) fn engine_groups(matches: &ArgMatches, subcommand: &str) -> Vec<Vec<String>> {
    matches
        .subcommand_matches(subcommand)
        .and_then(|m| m.get_occurrences::<String>("engines"))
        .map(|occ| occ.map(|o| o.cloned().collect()).collect())
        .unwrap_or_default()
}

/// The default thread count of the data commands: every core.
pub fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Why the net of a flag (`--eval-file`, `--init`) did not load: the flag, then the net file's own reason.
#[derive(Debug, thiserror::Error)]
#[error("{flag}: {error}")]
pub struct FlagNetError {
    flag: &'static str,
    error: hayate::engine::nnue::NetError,
}

/// The net of `flag` (`--eval-file`, `--init`) for `game`, if given.
pub fn eval_file_net(
    flag: &'static str,
    path: Option<&std::path::Path>,
    game: GameKind,
) -> Result<Option<std::sync::Arc<hayate::engine::nnue::Network>>, FlagNetError> {
    path.map(|p| hayate::engine::nnue::load(p, game))
        .transpose()
        .map_err(|error| FlagNetError { flag, error })
}

/// [`eval_file_net`], its error said on stderr; None when it failed (the command then exits with failure).
pub fn eval_file_net_or_say(
    flag: &'static str,
    path: Option<&std::path::Path>,
    game: GameKind,
) -> Option<Option<std::sync::Arc<hayate::engine::nnue::Network>>> {
    eval_file_net(flag, path, game)
        .map_err(|e| eprintln!("error: {e}"))
        .ok()
}

/// A file a subcommand could not read, in the words `hayate match` and `hayate tune` print.
#[derive(Debug, thiserror::Error)]
#[error("cannot read {}: {source}", .path.display())]
pub struct ReadError {
    pub path: std::path::PathBuf,
    pub source: std::io::Error,
}

/// The lines of an openings file (`--openings`); none without one.
pub fn opening_lines(path: Option<&std::path::Path>) -> Result<Vec<String>, ReadError> {
    let Some(p) = path else {
        return Ok(Vec::new());
    };
    let text = std::fs::read_to_string(p).map_err(|source| ReadError {
        path: p.to_path_buf(),
        source,
    })?;
    Ok(text.lines().map(str::to_string).collect())
}
