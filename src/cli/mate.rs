//! `hayate mate`: the tsume solver on one SFEN or on a suite file.

use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clap::Args;

use crate::cli::GameArg;
use hayate::engine::tsume::suite::{parse_suite, run_suite};
use hayate::engine::tsume::{
    futile_rule, solve, tsume_position, DefenderHand, MateLimits, MateResult,
};
use hayate::rules::position::notation::move_to_usi;
use hayate::{with_variant, GameKind};

#[derive(Args, Debug)]
pub struct MateArgs {
    /// The game.
    #[arg(long, value_enum, ignore_case = true, default_value = GameKind::Shogi.name())]
    pub variant: GameArg,
    /// The problem (attacker to move; the attacker's king may be missing; a defender hand left out means "all
    /// remaining pieces").
    #[arg(long, required_unless_present = "suite", conflicts_with = "suite")]
    pub sfen: Option<String>,
    /// A suite file: one problem a line, `<sfen> ; <length>`, `<sfen> ; nomate` or `<sfen> moves <solution>`.
    #[arg(long)]
    pub suite: Option<String>,
    /// Time limit per problem in milliseconds (none by default).
    #[arg(long)]
    pub time: Option<u64>,
    /// Node limit per problem.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub hash: u64,
    /// Searchers for the root searches (the first proof and the shortening pass's), on one shared table; the
    /// line is read by one.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
    /// Report the first mate found without the shortening pass.
    #[arg(long)]
    pub no_shorten: bool,
    /// Count every interposition (by default futile interpositions are not counted in 9×9 shogi, as in tsume;
    /// minishogi and Yari shogi count every interposition).
    #[arg(long)]
    pub count_futile: bool,
    /// Leave futile interpositions uncounted in minishogi and Yari shogi too (the 9×9 tsume convention; the
    /// suites of tests/data/tsume/ are written with it).
    #[arg(long, conflicts_with = "count_futile")]
    pub futile_rule: bool,
}

pub fn run_mate(args: &MateArgs) -> ExitCode {
    let mut limits = MateLimits {
        time: args.time.map(Duration::from_millis),
        nodes: args.nodes,
        hash_mb: args.hash as usize,
        shortest: !args.no_shorten,
        threads: args.threads as usize,
        ..MateLimits::default()
    };
    with_variant!(args.variant.0, V => {
        limits.futile_interpositions = !args.count_futile && (args.futile_rule || futile_rule::<V>());
        if let Some(path) = &args.suite {
            let text = match std::fs::read_to_string(path) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("cannot read {path}: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let problems = match parse_suite(&text) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("{path}: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let s = run_suite::<V>(&problems, &limits, &mut |l| println!("{l}"));
            let total: Duration = s.times.iter().sum();
            println!(
                "Solved correctly: {}/{}, wrong length: {}, wrong verdict: {}, unsolved: {}, median time {:.1} ms, \
                 total time {:.3} s, nodes {}",
                s.correct,
                s.problems,
                s.wrong_length,
                s.wrong,
                s.unsolved,
                s.median_time().as_secs_f64() * 1000.0,
                total.as_secs_f64(),
                s.nodes
            );
            return if s.all_correct() { ExitCode::SUCCESS } else { ExitCode::FAILURE };
        }
        let sfen = args.sfen.as_deref().unwrap_or_default();
        let pos = match tsume_position::<V>(sfen, DefenderHand::FillIfEmpty) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("bad sfen: {e}");
                return ExitCode::FAILURE;
            }
        };
        let stop = AtomicBool::new(false);
        let progress = |p: &hayate::engine::tsume::MateProgress| {
            eprintln!("info time {} nodes {} nps {} hashfull {}", p.time_ms, p.nodes, p.nps, p.hashfull);
        };
        let r = solve(&pos, &limits, &stop, Some(&progress));
        match &r.result {
            MateResult::Mate(pv) => {
                let line: Vec<String> = pv.iter().map(|&m| move_to_usi::<V>(m)).collect();
                println!("checkmate {}", line.join(" "));
                println!(
                    "length {}{}",
                    r.length.unwrap_or(pv.len()),
                    if r.shortest_proven { "" } else { " (not proven shortest)" }
                );
            }
            MateResult::NoMate => println!("checkmate nomate"),
            MateResult::Timeout | MateResult::Stopped => println!("checkmate timeout"),
        }
        println!(
            "time {} ms nodes {} nps {} hashfull {}",
            r.time.as_millis(),
            r.nodes,
            (r.nodes as f64 / r.time.as_secs_f64().max(1e-9)) as u64,
            r.hashfull
        );
        ExitCode::SUCCESS
    })
}
