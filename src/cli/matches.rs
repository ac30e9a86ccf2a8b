//! `hayate match`: a match between two USI engines, or the check of a record file (`--verify`), or the merge of
//! a cluster's shards (`--merge`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::str::FromStr;
use std::time::Duration;

use clap::{ArgAction, ArgMatches, Args};

use hayate::host::adjudication::{DrawRule, DrawWord, ResignRule, ResignWord, RuleError};
use hayate::host::engine_process::{EngineSpec, EngineSpecError};
use hayate::host::time_control::TimeControl;
use hayate::matches::play::GameLimits;
use hayate::matches::stats::{SprtConfig, SprtError, SprtWord};
use hayate::GameKind;

use super::{engine_groups, opening_lines, GameArg, ReadError};

/// The words of `hayate match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// An engine: cmd=<path> [arg=<a> ...] [dir=<d>] [name=<n>] [tc=<spec>] [option.<Name>=<value> ...]; give it
    /// twice. tc= overrides --tc for this engine.
    #[arg(long = "engine", num_args = 1.., action = ArgAction::Append, value_name = "KEY=VALUE")]
    pub engines: Vec<String>,
    /// The game.
    #[arg(long, value_enum, ignore_case = true, default_value = GameKind::Shogi.name())]
    pub variant: GameArg,
    /// Number of games (the most, with --sprt).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub games: u64,
    /// Games played at the same time (each with its own two engine processes).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub concurrency: u64,
    /// Time control, all in milliseconds: byoyomi=<ms>, <base>+<inc> (Fischer), <base> (sudden death),
    /// <base>/byoyomi=<ms>, movetime=<ms>, nodes=<n> or depth=<n>.
    #[arg(long, value_name = "SPEC", value_parser = TimeControl::parse)]
    pub tc: Option<TimeControl>,
    /// Milliseconds an engine may exceed its time before it loses on time.
    #[arg(long, default_value_t = GameLimits::TOLERANCE_MS)]
    pub tolerance: u64,
    /// Milliseconds a move under nodes= or depth= may take before the engine counts as hung.
    #[arg(long, default_value_t = GameLimits::HANG_TIMEOUT_MS)]
    pub hang_timeout: u64,
    /// Draw a game at this many plies (opening moves included; 0: no limit) [default: 512; with --verify, the
    /// length that `maxplies` games must have, unchecked by default].
    #[arg(long)]
    pub max_plies: Option<usize>,
    /// Openings, one a line: [position] (startpos | [sfen] <sfen>) [moves ...]; one per game pair, in order.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Random legal plies from the start position (after each file opening with --openings).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=1000))]
    pub random_plies: u64,
    /// Seed of the random plies [default: from the clock, shown in the header].
    #[arg(long)]
    pub seed: Option<u64>,
    /// A directory for the records: games.txt (one line per game: `<result> <reason> sfen <start> moves ...`)
    /// and, for standard shogi, one CSA file per game (0001.csa, ...); while the match runs, live/<n>.txt for each
    /// game in progress, rewritten after every move (`* playing sfen ... moves ...`, the engines, the clocks, the scores).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Sequential test: elo0=<e> elo1=<e> [alpha=0.05] [beta=0.05] [model=trinomial|pentanomial].
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", value_parser = SprtWord::from_str)]
    pub sprt: Option<Vec<SprtWord>>,
    /// Adjudicate a loss: score=<cp> count=<n> (both engines agree by at least cp for their last n moves).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", value_parser = ResignWord::from_str)]
    pub resign: Option<Vec<ResignWord>>,
    /// Adjudicate a draw: ply=<p> count=<n> score=<cp> (from ply p, both within +/- cp for their last n moves).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", value_parser = DrawWord::from_str)]
    pub draw: Option<Vec<DrawWord>>,
    /// Milliseconds allowed for starting an engine and for each isready.
    #[arg(long, default_value_t = 10_000)]
    pub ready_timeout: u64,
    /// Milliseconds to wait for bestmove after `stop` before an engine counts as hung.
    #[arg(long, default_value_t = GameLimits::STOP_GRACE_MS)]
    pub stop_grace: u64,
    /// Do not play: replay every game of this record file (or DIR/games.txt) with the rules core and check its
    /// result.
    #[arg(long, value_name = "FILE|DIR", conflicts_with_all = ["engines", "out", "sprt", "openings", "random_plies", "resign", "draw"])]
    pub verify: Option<PathBuf>,
    /// Play only shard K of N (for a cluster's job array): the game pairs whose number is K modulo N, with the
    /// whole match's openings, random plies, seeds and game numbers. Needs --out (and --seed with
    /// --random-plies). A shard plays all its games: --sprt does not stop it, --merge evaluates the SPRT over
    /// all the shards' games.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<hayate::host::Shard>,
    /// Do not play: merge the --out folders of all the shards of one match into --out (games.txt in game order,
    /// the CSA and KIF files, match.json) and print the summary of the whole match, SPRT included.
    #[arg(long, value_name = "DIR", num_args = 1.., conflicts_with_all = ["engines", "sprt", "openings", "random_plies", "resign", "draw", "verify", "shard", "seed", "tc"])]
    pub merge: Option<Vec<PathBuf>>,
}

/// Match output on stdout. On a terminal a progress bar stays on the last line: it is erased (`\r`, then
/// `ESC [2K`, erase the line) before each normal line and drawn again after it; elsewhere only plain lines go out.
struct Console {
    tty: bool,
    bar: std::sync::Mutex<Option<String>>,
}

const ERASE_LINE: &str = "\r\x1b[2K";

impl hayate::matches::Report for Console {
    fn line(&self, text: &str) {
        let out = std::io::stdout();
        let mut out = out.lock();
        if !self.tty {
            let _ = writeln!(out, "{text}");
            let _ = out.flush();
            return;
        }
        let bar = self.bar.lock().map(|b| b.clone()).unwrap_or(None);
        let _ = match bar {
            Some(b) => write!(out, "{ERASE_LINE}{text}\n{b}"),
            None => writeln!(out, "{text}"),
        };
        let _ = out.flush();
    }

    fn progress(&self, bar: Option<&str>) {
        if !self.tty {
            return;
        }
        let Ok(mut kept) = self.bar.lock() else {
            return;
        };
        let out = std::io::stdout();
        let mut out = out.lock();
        let _ = match bar {
            Some(b) => write!(out, "{ERASE_LINE}{b}"),
            None if kept.is_some() => write!(out, "{ERASE_LINE}"),
            None => Ok(()),
        };
        let _ = out.flush();
        *kept = bar.map(str::to_string);
    }
}

/// Why `hayate match`'s options do not make a match.
#[derive(Debug, thiserror::Error)]
pub enum MatchArgError {
    #[error(transparent)]
    Read(#[from] ReadError),
    #[error("a match needs exactly two --engine options, not {0}")]
    EngineCount(usize),
    #[error("{0}")]
    Engine(EngineSpecError),
    #[error("engine {0} has no time control: give --tc <spec> or tc=<spec> in its --engine")]
    NoTimeControl(usize),
    #[error("--sprt: {0}")]
    Sprt(#[from] SprtError),
    #[error("--resign: {0}")]
    Resign(RuleError),
    #[error("--draw: {0}")]
    Draw(RuleError),
    #[error("--shard needs --out: the merge reads the shard's records there")]
    ShardWithoutOut,
    #[error(
        "--shard with --random-plies needs --seed: every shard must draw the same random openings"
    )]
    ShardWithoutSeed,
}

/// `hayate match`; `matches` is the command line as clap read it, for the grouping of `--engine`'s words.
pub fn run_match(args: &MatchArgs, matches: &ArgMatches) -> ExitCode {
    use hayate::host::interrupt;
    use hayate::matches::run_match as play;
    use std::io::IsTerminal;

    let fail = |msg: String| {
        eprintln!("error: {msg}");
        ExitCode::from(2)
    };
    if let Some(path) = &args.verify {
        return verify(args, path);
    }
    if let Some(dirs) = &args.merge {
        return merge(dirs, args.out.as_deref());
    }
    let cfg = match match_config(args, &engine_groups(matches, "match")) {
        Ok(c) => c,
        Err(e) => return fail(e.to_string()),
    };
    if !interrupt::install_handlers() {
        log::warn!(
            "no SIGINT/SIGTERM handlers on this platform: an interrupted match leaves no summary"
        );
    }
    let console = Console {
        tty: std::io::stdout().is_terminal(),
        bar: std::sync::Mutex::new(None),
    };
    match play(&cfg, &console) {
        Ok(s) => match (s.interrupted, &s.error) {
            (Some(sig), _) => ExitCode::from(u8::try_from(128 + sig).unwrap_or(1)),
            (None, Some(_)) => ExitCode::FAILURE,
            (None, None) => ExitCode::SUCCESS,
        },
        Err(e) => fail(e.to_string()),
    }
}

/// `hayate match --merge`: one error line for each thing wrong with the shards, or the merged summary.
fn merge(dirs: &[PathBuf], out: Option<&Path>) -> ExitCode {
    let Some(out) = out else {
        eprintln!("error: --merge needs --out DIR, the folder for the merged records");
        return ExitCode::from(2);
    };
    match hayate::matches::cluster::merge(dirs, out) {
        Ok(lines) => {
            for l in lines {
                println!("{l}");
            }
            ExitCode::SUCCESS
        }
        Err(errors) => {
            for e in errors {
                eprintln!("error: {e}");
            }
            ExitCode::from(2)
        }
    }
}

/// `hayate match --verify`: replays every game of a record file (or `DIR/games.txt`).
fn verify(args: &MatchArgs, path: &Path) -> ExitCode {
    let mut file = path.to_path_buf();
    if file.is_dir() {
        file.push(hayate::host::records::GAMES_FILE);
    }
    let text = match std::fs::read_to_string(&file) {
        Ok(t) => t,
        Err(source) => {
            eprintln!("error: {}", ReadError { path: file, source });
            return ExitCode::from(2);
        }
    };
    let max_plies = args.max_plies.unwrap_or(0);
    match hayate::matches::verify_records(args.variant.0, &text, max_plies) {
        Ok(n) => {
            println!(
                "{}: {n} games replayed legally, results agree with the rules",
                file.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("{}: {e}", file.display());
            ExitCode::FAILURE
        }
    }
}

/// The match that the options describe, `groups` the words of each `--engine`.
fn match_config(
    args: &MatchArgs,
    groups: &[Vec<String>],
) -> Result<hayate::matches::MatchConfig, MatchArgError> {
    let [e1, e2] = match groups {
        [a, b] => [a, b].map(|w| EngineSpec::parse(w).map_err(MatchArgError::Engine)),
        _ => return Err(MatchArgError::EngineCount(groups.len())),
    };
    let engines = [e1?, e2?];
    let tc = |i: usize| {
        let spec: &EngineSpec = &engines[i];
        spec.tc
            .or(args.tc)
            .ok_or(MatchArgError::NoTimeControl(i + 1))
    };
    let tcs = [tc(0)?, tc(1)?];
    if args.shard.is_some() && args.out.is_none() {
        return Err(MatchArgError::ShardWithoutOut);
    }
    if args.shard.is_some() && args.random_plies > 0 && args.seed.is_none() {
        return Err(MatchArgError::ShardWithoutSeed);
    }
    let sprt = args
        .sprt
        .as_deref()
        .map(SprtConfig::from_words)
        .transpose()?;
    let resign = args
        .resign
        .as_deref()
        .map(ResignRule::from_words)
        .transpose()
        .map_err(MatchArgError::Resign)?;
    let draw = args
        .draw
        .as_deref()
        .map(DrawRule::from_words)
        .transpose()
        .map_err(MatchArgError::Draw)?;
    let openings = opening_lines(args.openings.as_deref())?;
    Ok(hayate::matches::MatchConfig {
        engines,
        tcs,
        variant: args.variant.0,
        games: args.games as usize,
        concurrency: args.concurrency as usize,
        limits: GameLimits {
            tolerance: Duration::from_millis(args.tolerance),
            stop_grace: Duration::from_millis(args.stop_grace),
            hang_timeout: Duration::from_millis(args.hang_timeout),
            max_plies: args.max_plies.unwrap_or(GameLimits::MAX_PLIES),
            resign,
            draw,
        },
        openings,
        random_plies: args.random_plies as usize,
        seed: args.seed.unwrap_or_else(hayate::rules::rng::clock_seed),
        out_dir: args.out.clone(),
        sprt,
        ready_timeout: Duration::from_millis(args.ready_timeout),
        shard: args.shard.unwrap_or_default(),
    })
}
