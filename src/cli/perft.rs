//! `hayate perft`: the leaf counts of the legal move tree, per move with `--divide`, or a suite file checked.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;

use hayate::rules::perft::{divide, perft};
use hayate::rules::position::notation::move_to_usi;
use hayate::rules::suite::{parse_suite, run_suite};
use hayate::{with_variant, GameKind, Position, Variant};

use super::GameArg;

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// The game.
    #[arg(long, value_enum, ignore_case = true, default_value = GameKind::Shogi.name())]
    pub variant: GameArg,
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
