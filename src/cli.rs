//! Command-line front end: `hayate perft ...`.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Parser, Subcommand, ValueEnum};

use hayate::notation::move_to_usi;
use hayate::perft::{divide, perft};
use hayate::suite::{parse_suite, run_suite};
use hayate::{Minishogi, Position, Shogi, Variant, Yari};

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
    /// Search a fixed list of positions to a fixed depth and report nodes and speed.
    Bench(BenchArgs),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BenchGame {
    Shogi,
    Minishogi,
    #[value(alias = "yari")]
    Yarishogi,
    All,
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// The game, or all three.
    #[arg(long, value_enum, default_value = "shogi")]
    pub variant: BenchGame,
    /// Search depth for every position.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(i32).range(1..=100))]
    pub depth: i32,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: u64,
    /// Hash table size in MB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub hash: u64,
}

pub fn run_bench(args: &BenchArgs) -> ExitCode {
    let games: &[&str] = match args.variant {
        BenchGame::Shogi => &["shogi"],
        BenchGame::Minishogi => &["minishogi"],
        BenchGame::Yarishogi => &["yarishogi"],
        BenchGame::All => &["shogi", "minishogi", "yarishogi"],
    };
    hayate::bench::run_bench(
        games,
        args.depth,
        args.threads as usize,
        args.hash as usize,
        &|l| println!("{l}"),
    );
    ExitCode::SUCCESS
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum VariantName {
    Shogi,
    Minishogi,
    #[value(alias = "yari")]
    Yarishogi,
}

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// The game.
    #[arg(long, value_enum, default_value = "shogi")]
    pub variant: VariantName,
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
    match args.variant {
        VariantName::Shogi => perft_for::<Shogi>(args),
        VariantName::Minishogi => perft_for::<Minishogi>(args),
        VariantName::Yarishogi => perft_for::<Yari>(args),
    }
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
