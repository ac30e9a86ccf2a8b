//! `hayate openings`: a file of level openings for `hayate match --openings`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::cli::GameArg;
use hayate::host::interrupt;
use hayate::matches::balanced::{self, BalancedConfig, Scorer};
use hayate::matches::openings;
use hayate::{with_variant, GameKind};

#[derive(Args, Debug)]
pub struct OpeningsArgs {
    /// The game.
    #[arg(long, value_enum, ignore_case = true, default_value = GameKind::Shogi.name())]
    pub variant: GameArg,
    /// The file written, one opening a line (`startpos moves ...`).
    #[arg(long)]
    pub output: PathBuf,
    /// Openings wanted.
    #[arg(long, default_value_t = 200)]
    pub count: usize,
    /// Random legal plies from the start position.
    #[arg(long, default_value_t = 8)]
    pub plies: usize,
    /// Nodes of the search that scores each candidate.
    #[arg(long, default_value_t = 150_000)]
    pub nodes: u64,
    /// Keep a candidate when the search scores it within this many centipawns of level.
    #[arg(long, default_value_t = 120)]
    pub max_score: i32,
    /// Seed of the random plies: candidate i is the random opening of pair i of `hayate match --random-plies
    /// <plies> --seed <seed>`.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads, each scoring its own candidates (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Hash per thread, MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Score with this net (of the game) instead of the embedded one.
    #[arg(long, conflicts_with = "no_nnue")]
    pub eval_file: Option<PathBuf>,
    /// Score with the classical evaluation.
    #[arg(long)]
    pub no_nnue: bool,
    /// Give up after this many candidates.
    #[arg(long, default_value_t = 100_000)]
    pub max_candidates: usize,
}

pub fn run_openings(a: &OpeningsArgs) -> ExitCode {
    if !interrupt::install_handlers() {
        log::warn!("cannot catch Ctrl-C");
    }
    let Some(net) =
        crate::cli::eval_file_net_or_say("--eval-file", a.eval_file.as_deref(), a.variant.0)
    else {
        return ExitCode::FAILURE;
    };
    let cfg = BalancedConfig {
        plies: a.plies,
        count: a.count,
        nodes: a.nodes.max(1),
        max_score: a.max_score,
        seed: a.seed,
        threads: a.threads.unwrap_or_else(crate::cli::all_cores),
        hash_mb: a.hash.max(1),
        eval: match net {
            Some(n) => Scorer::Net(n),
            None if a.no_nnue => Scorer::Classical,
            None => Scorer::Embedded,
        },
        max_candidates: a.max_candidates,
    };
    let progress = |done: usize, kept: usize| {
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\rcandidates {done}  kept {kept} ");
        let _ = err.flush();
    };
    let stop = interrupt::requested;
    let r = with_variant!(a.variant.0, V => balanced::build::<V>(&cfg, &stop, &progress).map(|b| {
        let lines: Vec<String> = b.openings.iter().map(|o| openings::opening_line::<V>(&o.opening)).collect();
        (b, lines)
    }));
    eprintln!();
    let (book, lines) = match r {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let header = format!(
        "# hayate openings --variant {} --count {} --plies {} --nodes {} --max-score {} --seed {} --hash {}{}: {} of {} \
         candidates kept\n",
        a.variant.0.name(),
        a.count,
        a.plies,
        cfg.nodes,
        a.max_score,
        a.seed,
        cfg.hash_mb,
        match (&a.eval_file, a.no_nnue) {
            (Some(p), _) => format!(" --eval-file {}", p.display()),
            (None, true) => " --no-nnue".to_string(),
            (None, false) => String::new(),
        },
        book.openings.len(),
        book.candidates
    );
    let text = header + &lines.join("\n") + if lines.is_empty() { "" } else { "\n" };
    if let Err(e) = std::fs::write(&a.output, text) {
        eprintln!("error: cannot write {}: {e}", a.output.display());
        return ExitCode::FAILURE;
    }
    let mean = book.openings.iter().map(|o| o.score as f64).sum::<f64>()
        / book.openings.len().max(1) as f64;
    println!(
        "openings: {} of {} candidates kept (|score| <= {} cp at {} nodes, mean score {:+.0}) written to {}",
        book.openings.len(),
        book.candidates,
        a.max_score,
        cfg.nodes,
        mean,
        a.output.display()
    );
    if book.openings.len() < a.count || interrupt::requested() {
        eprintln!("error: fewer openings than asked for");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
