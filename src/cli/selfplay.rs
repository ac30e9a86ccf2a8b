//! `hayate selfplay`: labelled positions from Hayate's games against itself, for training.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::{all_cores, eval_file_net_or_say};
use crate::cli::GameArg;
use hayate::engine::nnue;
use hayate::host::adjudication::ResignRule;
use hayate::host::interrupt;
use hayate::learn::selfplay::{self, SelfplayConfig, SelfplaySummary};
use hayate::{with_variant, GameKind};

#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// The game.
    #[arg(long, value_enum, ignore_case = true, default_value = GameKind::Minishogi.name())]
    pub variant: GameArg,
    /// The data file; an existing one (of the same game) is appended to, its games numbered on.
    #[arg(long)]
    pub output: PathBuf,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Stop once this run has written this many positions.
    #[arg(long, default_value_t = 100_000)]
    pub positions: u64,
    /// Threads, each playing its own games (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Seed of the openings and random moves; game i of a seed always starts the same way.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Uniformly random plies at the start of each game.
    #[arg(long, default_value_t = 8)]
    pub random_plies: usize,
    /// Chance per move of picking one of the best MultiPV lines at random instead of the best move.
    #[arg(long, default_value_t = 0.05)]
    pub random_move_rate: f64,
    /// Lines searched for such a random move.
    #[arg(long, default_value_t = 4)]
    pub multipv: usize,
    /// How far (centipawns) below the best line a randomly picked line may score.
    #[arg(long, default_value_t = 100)]
    pub random_move_margin: i32,
    /// A game still running after this many plies is a draw.
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// Adjudicate a win when both sides' scores are beyond this (centipawns) ...
    #[arg(long, default_value_t = 2500)]
    pub adjudicate_score: i32,
    /// ... for this many moves each.
    #[arg(long, default_value_t = 4)]
    pub adjudicate_count: usize,
    /// Hash per thread, MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Play with this net (of the game) instead of the embedded one.
    #[arg(long, conflicts_with = "no_nnue")]
    pub eval_file: Option<PathBuf>,
    /// Play with the classical evaluation (a first generation's data, before any net).
    #[arg(long)]
    pub no_nnue: bool,
    /// Play only this share of the games: K/N plays the games whose number is K modulo N (numbers and seeds as
    /// in the whole run), for runs spread over machines; the shards' files together are the whole run's data.
    #[arg(long, default_value = "0/1")]
    pub shard: hayate::host::Shard,
}

pub fn run_selfplay(a: &SelfplayArgs) -> ExitCode {
    if !interrupt::install_handlers() {
        log::warn!("cannot catch Ctrl-C: a stopped run may lose its last game");
    }
    let Some(file_net) = eval_file_net_or_say("--eval-file", a.eval_file.as_deref(), a.variant.0)
    else {
        return ExitCode::FAILURE;
    };
    // the embedded net by default, as the engine plays: data from the classical evaluation is only ever a first
    // generation's, and a run that silently fell back to it would waste its hours
    let (net, evaluated_by) = match (file_net, &a.eval_file) {
        (Some(n), Some(path)) => (Some(n), format!("the net {}", path.display())),
        _ if a.no_nnue => (None, "the classical evaluation".to_string()),
        _ => match nnue::embedded(a.variant.0) {
            Some(n) => (Some(n), "the embedded net".to_string()),
            None => {
                eprintln!("error: the embedded {} net is unusable", a.variant.0.name());
                return ExitCode::FAILURE;
            }
        },
    };
    eprintln!(
        "selfplay: {} at {} nodes a move, evaluated by {evaluated_by}",
        a.variant.0.name(),
        a.nodes
    );
    let cfg = SelfplayConfig {
        output: a.output.clone(),
        nodes: a.nodes,
        positions: a.positions,
        threads: a.threads.unwrap_or_else(all_cores),
        seed: a.seed,
        random_plies: a.random_plies,
        random_move_rate: a.random_move_rate,
        multipv: a.multipv.max(1),
        random_move_margin: a.random_move_margin,
        max_plies: a.max_plies,
        resign: ResignRule {
            score: a.adjudicate_score,
            count: a.adjudicate_count.max(1),
        },
        hash_mb: a.hash.max(1),
        net,
        shard: a.shard,
    };
    let progress = |s: &SelfplaySummary| {
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\rgames {}  positions {}  {:.0} pos/s  black {} white {} draws {}  duplicates {}  {:.0} s ",
            s.games,
            s.positions,
            s.positions as f64 / s.seconds.max(1e-9),
            s.black_wins,
            s.white_wins,
            s.draws,
            s.duplicates,
            s.seconds
        );
        let _ = err.flush();
    };
    let stop = interrupt::requested;
    let r = with_variant!(a.variant.0, V => selfplay::run::<V>(&cfg, &stop, &progress));
    eprintln!();
    match r {
        Ok(s) => {
            println!(
                "selfplay: {} games, {} positions ({} duplicates left out) in {:.1} s ({:.0} positions/s) appended to {}",
                s.games,
                s.positions,
                s.duplicates,
                s.seconds,
                s.positions as f64 / s.seconds.max(1e-9),
                cfg.output.display()
            );
            if interrupt::requested() {
                ExitCode::from(128 + interrupt::signal().clamp(0, 127) as u8)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
