//! `hayate bench`: a fixed list of positions per game searched to a fixed depth; its node count is the search's
//! signature.

use std::process::ExitCode;

use clap::builder::PossibleValue;
use clap::{Args, ValueEnum};

use hayate::engine::search::Searcher;
use hayate::GameKind;

use super::GameArg;

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
            Some(g) => GameArg(g).to_possible_value(),
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
    /// Search parameters in place of the game's own, as the `SearchParams` option takes them (`name=value`
    /// words separated by commas): the tree a tuning run's values or a knob under test would search. For the
    /// fixed-depth run; `--scaling` times the game's own values.
    #[arg(long, default_value = "")]
    pub search_params: hayate::engine::params::ParamOverrides,
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
    searcher.param_overrides = args.search_params.clone();
    if let Some(path) = &args.eval_file {
        match hayate::engine::nnue::load_any(path, games) {
            Ok((g, net)) => {
                println!(
                    "{g}: net {} ({} -> {} x 2 -> 1)",
                    path.display(),
                    net.inputs,
                    net.hidden
                );
                searcher.set_net(g, Some(net));
            }
            Err(e) => {
                eprintln!("error: --eval-file: {e}");
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
