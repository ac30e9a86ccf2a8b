//! Command-line front end: `hayate perft ...`, `hayate bench ...`, `hayate match ...`.

pub mod learn;
pub mod mate;
pub mod openings;

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use clap::builder::PossibleValue;
use clap::{ArgAction, Args, CommandFactory, Parser, Subcommand, ValueEnum};

use hayate::engine::search::Searcher;
use hayate::rules::perft::{divide, perft};
use hayate::rules::position::notation::move_to_usi;
use hayate::rules::suite::{parse_suite, run_suite};
use hayate::{with_variant, GameKind, Position, Variant};

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
    Selfplay(crate::cli::learn::SelfplayArgs),
    /// Train a net (NNUE) from self-play data on the CPU and write it quantised.
    Train(crate::cli::learn::TrainArgs),
    /// Write a file of level openings for `match --openings`: random plies kept when a search scores them close
    /// to level.
    Openings(crate::cli::openings::OpeningsArgs),
    /// Speak XBoard's protocol (CECP) on stdin/stdout instead of USI, for XBoard and WinBoard (a first input
    /// line `xboard` does the same without the subcommand).
    Xboard,
}

/// A game on the command line: the names and aliases are [`GameKind`]'s, listed in `--help`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game(pub GameKind);

const GAMES: [Game; 3] = [
    Game(GameKind::ALL[0]),
    Game(GameKind::ALL[1]),
    Game(GameKind::ALL[2]),
];

impl ValueEnum for Game {
    fn value_variants<'a>() -> &'a [Self] {
        &GAMES
    }
    fn to_possible_value(&self) -> Option<PossibleValue> {
        let names = self.0.aliases();
        Some(PossibleValue::new(names[0]).aliases(names[1..].iter().copied()))
    }
}

/// The games of `hayate bench`: one, or `all`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchGames(Option<GameKind>);

impl BenchGames {
    fn list(self) -> Vec<GameKind> {
        self.0.map_or(GameKind::ALL.to_vec(), |g| vec![g])
    }
}

const BENCH_GAMES: [BenchGames; 4] = [
    BenchGames(Some(GameKind::ALL[0])),
    BenchGames(Some(GameKind::ALL[1])),
    BenchGames(Some(GameKind::ALL[2])),
    BenchGames(None),
];

impl ValueEnum for BenchGames {
    fn value_variants<'a>() -> &'a [Self] {
        &BENCH_GAMES
    }
    fn to_possible_value(&self) -> Option<PossibleValue> {
        match self.0 {
            Some(g) => Game(g).to_possible_value(),
            None => Some(PossibleValue::new("all")),
        }
    }
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// The game, or all three.
    #[arg(long, value_enum, ignore_case = true, default_value = "all")]
    pub variant: BenchGames,
    /// Search depth for every position.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(i32).range(1..=100))]
    pub depth: i32,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: u64,
    /// Hash table size in MB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub hash: u64,
    /// Instead of the fixed-depth run: time to depth with one thread and with this many, per position, at a
    /// depth per position that one thread needs at least --min-ms for; prints the ratios.
    #[arg(long, value_parser = clap::value_parser!(u64).range(2..=1024))]
    pub scaling: Option<u64>,
    /// With --scaling: the least time one thread spends on a position (it sets the position's depth).
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub min_ms: u64,
    /// With --scaling: timings of each thread count per position (alternating), averaged. Five by default: one
    /// timing with several threads ranges over a factor of five on some positions, and with three the summary
    /// moved by 0.3 from one run to the next.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=100))]
    pub rounds: u64,
    /// A net file for its game (the header names it), used instead of the embedded one.
    #[arg(long)]
    pub eval_file: Option<std::path::PathBuf>,
    /// Search with the classical evaluation only (UseNNUE false).
    #[arg(long)]
    pub no_nnue: bool,
}

pub fn run_bench(args: &BenchArgs) -> ExitCode {
    let games = &args.variant.list();
    if let Some(threads) = args.scaling {
        hayate::engine::bench::run_scaling(
            games,
            threads as usize,
            args.hash as usize,
            args.min_ms,
            args.rounds as usize,
            &|l| println!("{l}"),
        );
        return ExitCode::SUCCESS;
    }
    let mut searcher = Searcher::new(args.threads as usize, args.hash as usize);
    searcher.use_nnue = !args.no_nnue;
    if let Some(path) = &args.eval_file {
        let mut errors = Vec::new();
        let loaded = games
            .iter()
            .find_map(|&g| match hayate::engine::nnue::load(path, g) {
                Ok(net) => Some((g, net)),
                Err(e) => {
                    errors.push(format!("{g}: {e}"));
                    None
                }
            });
        match loaded {
            Some((g, net)) => {
                println!(
                    "{g}: net {} ({} -> {} x 2 -> 1)",
                    path.display(),
                    net.inputs,
                    net.hidden
                );
                searcher.set_net(g, Some(net));
            }
            None => {
                eprintln!("error: --eval-file: {}", errors.join("; "));
                return ExitCode::FAILURE;
            }
        }
    }
    let totals = hayate::engine::bench::run_bench(
        games,
        args.depth,
        &mut searcher,
        &|l| println!("{l}"),
        &|| false,
    );
    if let Some(t) = totals {
        for line in t.lines() {
            println!("{line}");
        }
        // last, for scripts and the signature test (tests/search/bench.rs)
        println!("Bench: {}", t.nodes);
    }
    ExitCode::SUCCESS
}

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// The game.
    #[arg(long, value_enum, ignore_case = true, default_value = GameKind::Shogi.name())]
    pub variant: Game,
    /// Start from this SFEN instead of the game's start position.
    #[arg(long)]
    pub sfen: Option<String>,
    /// USI moves to play from the start position first.
    #[arg(long, num_args = 1.., allow_hyphen_values = false)]
    pub moves: Vec<String>,
    /// Depth of the tree.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Print the count below each root move.
    #[arg(long)]
    pub divide: bool,
    /// Check every position of a suite file instead.
    #[arg(long, conflicts_with_all = ["sfen", "moves", "depth", "divide"])]
    pub suite: Option<String>,
    /// With --suite: skip depths above this one.
    #[arg(long, default_value_t = u32::MAX)]
    pub max_depth: u32,
}

pub fn run_perft(args: &PerftArgs) -> ExitCode {
    with_variant!(args.variant.0, V => perft_for::<V>(args))
}

fn perft_for<V: Variant>(args: &PerftArgs) -> ExitCode {
    if let Some(path) = &args.suite {
        return suite_for::<V>(path, args.max_depth);
    }
    let Some(depth) = args.depth else {
        eprintln!("error: perft needs --depth N (or --suite FILE)");
        return ExitCode::from(2);
    };
    let mut pos = match &args.sfen {
        Some(s) => match Position::<V>::from_sfen(s) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        },
        None => Position::<V>::startpos(),
    };
    if let Err(e) = pos.play_usi_moves(args.moves.iter().map(String::as_str)) {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let start = Instant::now();
    let out = std::io::stdout();
    let mut out = out.lock();
    let total = if args.divide {
        let mut total = u64::from(depth == 0);
        for (m, n) in divide(&mut pos, depth) {
            let _ = writeln!(out, "{}: {n}", move_to_usi::<V>(m));
            total += n;
        }
        total
    } else {
        perft(&mut pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "time {:.3} s, {:.1} M nodes/s",
        secs,
        total as f64 / secs.max(1e-9) / 1e6
    );
    let _ = writeln!(out, "Nodes searched: {total}");
    ExitCode::SUCCESS
}

fn suite_for<V: Variant>(path: &str, max_depth: u32) -> ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: cannot read {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let entries = match parse_suite(&text) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let (mismatches, total) = run_suite::<V>(&entries, max_depth, |e, d, expected, found| {
        let verdict = if expected == found { "ok" } else { "MISMATCH" };
        println!(
            "line {:>3} D{d} {found:>12} expected {expected:>12} {verdict}  {}",
            e.line, e.sfen
        );
    });
    let secs = start.elapsed().as_secs_f64();
    for m in &mismatches {
        match (&m.error, m.found) {
            (Some(err), _) => println!("mismatch: line {}: {}: {err}", m.line, m.sfen),
            (None, Some(found)) => println!(
                "mismatch: line {} D{}: expected {} found {found}: {}",
                m.line, m.depth, m.expected, m.sfen
            ),
            (None, None) => {}
        }
    }
    eprintln!(
        "time {:.3} s, {:.1} M nodes/s",
        secs,
        total as f64 / secs.max(1e-9) / 1e6
    );
    println!(
        "{} positions, {} mismatches, Nodes searched: {total}",
        entries.len(),
        mismatches.len()
    );
    if mismatches.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// An engine: cmd=<path> [arg=<a> ...] [dir=<d>] [name=<n>] [tc=<spec>] [option.<Name>=<value> ...]; give it
    /// twice. tc= overrides --tc for this engine.
    #[arg(long = "engine", num_args = 1.., action = ArgAction::Append, value_name = "KEY=VALUE")]
    pub engines: Vec<String>,
    /// The game.
    #[arg(long, value_enum, ignore_case = true, default_value = GameKind::Shogi.name())]
    pub variant: Game,
    /// Number of games (the most, with --sprt).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub games: u64,
    /// Games played at the same time (each with its own two engine processes).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub concurrency: u64,
    /// Time control, all in milliseconds: byoyomi=<ms>, <base>+<inc> (Fischer), <base> (sudden death),
    /// <base>/byoyomi=<ms>, movetime=<ms>, nodes=<n> or depth=<n>.
    #[arg(long, value_name = "SPEC")]
    pub tc: Option<String>,
    /// Milliseconds an engine may exceed its time before it loses on time.
    #[arg(long, default_value_t = 200)]
    pub tolerance: u64,
    /// Milliseconds a move under nodes= or depth= may take before the engine counts as hung.
    #[arg(long, default_value_t = 60_000)]
    pub hang_timeout: u64,
    /// Draw a game at this many plies (opening moves included; 0: no limit) [default: 512; with --verify, the
    /// length that `maxplies` games must have, unchecked by default].
    #[arg(long)]
    pub max_plies: Option<usize>,
    /// Openings, one a line: [position] (startpos | [sfen] <sfen>) [moves ...]; one per game pair, in order.
    #[arg(long)]
    pub openings: Option<String>,
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
    pub out: Option<String>,
    /// Sequential test: elo0=<e> elo1=<e> [alpha=0.05] [beta=0.05] [model=trinomial|pentanomial].
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// Adjudicate a loss: score=<cp> count=<n> (both engines agree by at least cp for their last n moves).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub resign: Option<Vec<String>>,
    /// Adjudicate a draw: ply=<p> count=<n> score=<cp> (from ply p, both within +/- cp for their last n moves).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub draw: Option<Vec<String>>,
    /// Milliseconds allowed for starting an engine and for each isready.
    #[arg(long, default_value_t = 10_000)]
    pub ready_timeout: u64,
    /// Milliseconds to wait for bestmove after `stop` before an engine counts as hung.
    #[arg(long, default_value_t = 1000)]
    pub stop_grace: u64,
    /// Do not play: replay every game of this record file (or DIR/games.txt) with the rules core and check its
    /// result.
    #[arg(long, conflicts_with_all = ["engines", "out", "sprt", "openings", "random_plies", "resign", "draw"])]
    pub verify: Option<String>,
}

#[derive(Args, Debug)]
pub struct GuiArgs {
    /// Port on 127.0.0.1 (0: a free one).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// An engine the page may use: cmd=<path> [arg=<a> ...] [dir=<d>] [name=<n>] [option.<Name>=<value> ...];
    /// repeat for more. Without one, this Hayate.
    #[arg(long = "engine", num_args = 1.., action = ArgAction::Append, value_name = "KEY=VALUE")]
    pub engines: Vec<String>,
    /// A record to replay on the page: a games.txt (or the --out folder of a running `hayate match`, whose
    /// games in progress are shown move by move) or a CSA file.
    #[arg(long, value_name = "FILE|DIR")]
    pub watch: Option<std::path::PathBuf>,
}

pub fn run_gui(args: &GuiArgs) -> ExitCode {
    use hayate::matches::engine::EngineSpec;
    let fail = |msg: String| {
        eprintln!("hayate gui: {msg}");
        ExitCode::from(2)
    };
    let mut engines = Vec::new();
    for words in engine_groups("gui") {
        match EngineSpec::parse(&words) {
            Ok(s) => engines.push(s),
            Err(e) => return fail(e),
        }
    }
    debug_assert_eq!(args.engines.is_empty(), engines.is_empty());
    if engines.is_empty() {
        let exe = match std::env::current_exe() {
            Ok(p) => p,
            Err(e) => return fail(format!("cannot find this executable: {e}")),
        };
        engines.push(EngineSpec {
            cmd: exe.to_string_lossy().into_owned(),
            name: Some("Hayate".into()),
            ..EngineSpec::default()
        });
    }
    let config = hayate::gui::GuiConfig {
        port: args.port,
        engines,
        watch: args.watch.clone(),
    };
    match hayate::gui::serve(config) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(e),
    }
}

/// The words of each `--engine` occurrence of a subcommand: the derived `engines` field holds them all in one
/// list, so the command line is read again for the grouping.
fn engine_groups(subcommand: &str) -> Vec<Vec<String>> {
    let matches = Cli::command().get_matches();
    matches
        .subcommand_matches(subcommand)
        .and_then(|m| m.get_occurrences::<String>("engines"))
        .map(|occ| occ.map(|o| o.cloned().collect()).collect())
        .unwrap_or_default()
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

pub fn run_match(args: &MatchArgs) -> ExitCode {
    use hayate::matches::adjudication::{DrawRule, ResignRule};
    use hayate::matches::engine::EngineSpec;
    use hayate::matches::play::GameLimits;
    use hayate::matches::stats::SprtConfig;
    use hayate::matches::time_control::TimeControl;
    use hayate::matches::{interrupt, run_match as play, verify_records, MatchConfig};
    use std::io::IsTerminal;
    use std::time::Duration;

    let variant = args.variant.0;
    let fail = |msg: String| {
        eprintln!("error: {msg}");
        ExitCode::from(2)
    };
    if let Some(path) = &args.verify {
        let mut file = std::path::PathBuf::from(path);
        if file.is_dir() {
            file.push(hayate::matches::GAMES_FILE);
        }
        let text = match std::fs::read_to_string(&file) {
            Ok(t) => t,
            Err(e) => return fail(format!("cannot read {}: {e}", file.display())),
        };
        return match verify_records(variant, &text, args.max_plies.unwrap_or(0)) {
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
        };
    }
    let groups = engine_groups("match");
    if groups.len() != 2 {
        return fail(format!(
            "a match needs exactly two --engine options, not {}",
            groups.len()
        ));
    }
    let mut specs = Vec::new();
    for words in &groups {
        match EngineSpec::parse(words) {
            Ok(s) => specs.push(s),
            Err(e) => return fail(e),
        }
    }
    let tc = match args.tc.as_deref().map(TimeControl::parse) {
        Some(Ok(t)) => Some(t),
        Some(Err(e)) => return fail(format!("--tc: {e}")),
        None => None,
    };
    let mut tcs = Vec::new();
    for (i, s) in specs.iter().enumerate() {
        match s.tc.or(tc) {
            Some(t) => tcs.push(t),
            None => {
                return fail(format!(
                    "engine {} has no time control: give --tc <spec> or tc=<spec> in its --engine",
                    i + 1
                ))
            }
        }
    }
    let sprt = match &args.sprt {
        Some(words) => match SprtConfig::parse(words) {
            Ok(s) => Some(s),
            Err(e) => return fail(e),
        },
        None => None,
    };
    let resign = match &args.resign {
        Some(words) => match ResignRule::parse(words) {
            Ok(r) => Some(r),
            Err(e) => return fail(e),
        },
        None => None,
    };
    let draw = match &args.draw {
        Some(words) => match DrawRule::parse(words) {
            Ok(d) => Some(d),
            Err(e) => return fail(e),
        },
        None => None,
    };
    let openings = match &args.openings {
        Some(p) => match std::fs::read_to_string(p) {
            Ok(t) => t.lines().map(str::to_string).collect(),
            Err(e) => return fail(format!("cannot read {p}: {e}")),
        },
        None => Vec::new(),
    };
    let ([e1, e2], [t1, t2]): ([EngineSpec; 2], [TimeControl; 2]) =
        match (specs.try_into(), tcs.try_into()) {
            (Ok(e), Ok(t)) => (e, t),
            _ => return fail("a match needs exactly two engines".into()),
        };
    let cfg = MatchConfig {
        engines: [e1, e2],
        tcs: [t1, t2],
        variant,
        games: args.games as usize,
        concurrency: args.concurrency as usize,
        limits: GameLimits {
            tolerance: Duration::from_millis(args.tolerance),
            stop_grace: Duration::from_millis(args.stop_grace),
            hang_timeout: Duration::from_millis(args.hang_timeout),
            max_plies: args.max_plies.unwrap_or(512),
            resign,
            draw,
        },
        openings,
        random_plies: args.random_plies as usize,
        seed: args.seed.unwrap_or_else(hayate::rules::rng::clock_seed),
        out_dir: args.out.as_ref().map(Into::into),
        sprt,
        ready_timeout: Duration::from_millis(args.ready_timeout),
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
        Err(e) => fail(e),
    }
}
