//! `hayate tune`: the search's parameters tuned by SPSA over game pairs of an engine against itself
//! (`matches::spsa`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use hayate::engine::params::SearchParams;
use hayate::host::adjudication::{ResignRule, ResignWord};
use hayate::host::engine_process::EngineSpec;
use hayate::host::time_control::TimeControl;
use hayate::matches::play::GameLimits;
use hayate::matches::spsa::{run_spsa, ParamSpec, SpsaConfig};
use hayate::matches::MatchConfig;

use super::GameArg;

#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The engine whose parameters are tuned (it must take the SearchParams option, as Hayate does):
    /// cmd=<path> [arg=<a> ...] [dir=<d>] [option.<Name>=<value> ...]. Both sides of every pair run it.
    #[arg(long = "engine", num_args = 1.., value_name = "KEY=VALUE", required = true)]
    pub engine: Vec<String>,
    /// The game; the parameters' start values are this game's.
    #[arg(long, value_enum, ignore_case = true, default_value = hayate::GameKind::Shogi.name())]
    pub variant: GameArg,
    /// A value to tune: name[=start][:min:max[:c_end]] (repeat for more). By default the start is the game's
    /// value, the range half to twice it, c_end (the perturbation at the end) a twentieth of the range, at least 1.
    #[arg(long = "param", value_name = "SPEC", value_parser = <ParamSpec as std::str::FromStr>::from_str, required = true)]
    pub params: Vec<ParamSpec>,
    /// Game pairs to play.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub pairs: u64,
    /// Pairs played at the same time (each with its own two engine processes).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub concurrency: u64,
    /// Time control (as `hayate match --tc`).
    #[arg(long, value_name = "SPEC", value_parser = TimeControl::parse)]
    pub tc: TimeControl,
    /// Openings, one a line (as `hayate match --openings`); pair k plays line k, cycling.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Random legal plies after each opening.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=1000))]
    pub random_plies: u64,
    /// Seed of the perturbations' signs and the random plies [default: from the clock].
    #[arg(long)]
    pub seed: Option<u64>,
    /// The step per point of result at the last pair, as a share of c_end² (fishtest's r_end).
    #[arg(long, default_value_t = 0.002)]
    pub r_end: f64,
    /// Adjudicate a loss: score=<cp> count=<n> (as `hayate match --resign`).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", value_parser = <ResignWord as std::str::FromStr>::from_str)]
    pub resign: Option<Vec<ResignWord>>,
    /// A folder for params.txt (the values after each pair, the first line as the SearchParams option takes
    /// them) and spsa.txt (one line per pair).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// Why the command line gives no tuning run.
#[derive(Debug, thiserror::Error)]
enum TuneArgError {
    #[error(transparent)]
    Engine(#[from] hayate::host::engine_process::EngineSpecError),
    #[error(transparent)]
    Param(#[from] hayate::matches::spsa::ParamSpecError),
    #[error("--resign: {0}")]
    Resign(hayate::host::adjudication::RuleError),
    #[error(transparent)]
    Read(#[from] super::ReadError),
}

pub fn run_tune(a: &TuneArgs) -> ExitCode {
    let fail = |msg: &dyn std::fmt::Display| {
        eprintln!("error: {msg}");
        ExitCode::from(2)
    };
    match config(a) {
        Ok(cfg) => {
            if !hayate::host::interrupt::install_handlers() {
                log::warn!("cannot catch Ctrl-C: an interrupted run prints no final values");
            }
            let report = |line: &str| println!("{line}");
            match run_spsa(&cfg, &report) {
                Ok(_) => ExitCode::SUCCESS,
                Err(e) => fail(&e),
            }
        }
        Err(e) => fail(&e),
    }
}

fn config(a: &TuneArgs) -> Result<SpsaConfig, TuneArgError> {
    let spec = EngineSpec::parse(&a.engine)?;
    let base = SearchParams::of_game(a.variant.0);
    let params = a
        .params
        .iter()
        .map(|p| p.resolve(&base))
        .collect::<Result<Vec<_>, _>>()?;
    let resign = a
        .resign
        .as_deref()
        .map(ResignRule::from_words)
        .transpose()
        .map_err(TuneArgError::Resign)?;
    let openings = super::opening_lines(a.openings.as_deref())?;
    let tc = spec.tc.unwrap_or(a.tc);
    Ok(SpsaConfig {
        template: MatchConfig {
            engines: [spec.clone(), spec],
            tcs: [tc, tc],
            variant: a.variant.0,
            games: 2,
            concurrency: 1,
            limits: GameLimits::standard(resign, None),
            openings,
            random_plies: a.random_plies as usize,
            seed: a.seed.unwrap_or_else(hayate::rules::rng::clock_seed),
            out_dir: None,
            sprt: None,
            ready_timeout: Duration::from_secs(10),
            shard: hayate::host::Shard::WHOLE,
        },
        params,
        pairs: a.pairs as usize,
        concurrency: a.concurrency as usize,
        r_end: a.r_end,
        out_dir: a.out.clone(),
    })
}
