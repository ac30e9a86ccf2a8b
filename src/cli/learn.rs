//! `hayate selfplay` and `hayate train`: making training data from Hayate's own games and a net from it.

use hayate::learn::record::DataFileError;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::cli::GameArg;
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
    /// Play with this net (of the game) instead of the classical evaluation.
    #[arg(long)]
    pub eval_file: Option<PathBuf>,
    /// Play only this share of the games: K/N plays the games whose number is K modulo N (numbers and seeds as
    /// in the whole run), for runs spread over machines; the shards' files together are the whole run's data.
    #[arg(long, default_value = "0/1")]
    pub shard: hayate::host::Shard,
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

pub fn run_selfplay(a: &SelfplayArgs) -> ExitCode {
    if !interrupt::install_handlers() {
        log::warn!("cannot catch Ctrl-C: a stopped run may lose its last game");
    }
    let Some(net) = eval_file_net_or_say("--eval-file", a.eval_file.as_deref(), a.variant.0) else {
        return ExitCode::FAILURE;
    };
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

#[derive(Args, Debug)]
pub struct TrainArgs {
    /// The game.
    #[arg(long, value_enum, ignore_case = true, default_value = GameKind::Minishogi.name())]
    pub variant: GameArg,
    /// Data files written by `hayate selfplay`.
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// The final quantised net.
    #[arg(long)]
    pub output: PathBuf,
    /// Hidden units per perspective (a multiple of 16).
    #[arg(long, default_value_t = 256)]
    pub hidden: usize,
    #[arg(long, default_value_t = 20)]
    pub epochs: usize,
    #[arg(long, default_value_t = 4096)]
    pub batch: usize,
    /// Adam's learning rate.
    #[arg(long, default_value_t = 0.001)]
    pub lr: f32,
    /// After this fraction of the epochs the learning rate is multiplied by --lr-drop.
    #[arg(long, default_value_t = 0.7)]
    pub lr_drop_at: f32,
    #[arg(long, default_value_t = 0.1)]
    pub lr_drop: f32,
    /// Weight of the search score in the target (the game result has 1 - lambda).
    #[arg(long, default_value_t = 0.7)]
    pub lambda: f32,
    /// Centipawns per unit of the net's output (the sigmoid's scale).
    #[arg(long, default_value_t = 400.0)]
    pub scale: f32,
    /// Games whose index is a multiple of this are held out for validation (0: none).
    #[arg(long, default_value_t = 20)]
    pub val_every: u32,
    /// Training threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Seed of the initial weights and of the shuffling.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A folder for each epoch's quantised net (epoch-N.nnue).
    #[arg(long)]
    pub checkpoints: Option<PathBuf>,
    /// King buckets: one block of inputs per region of the perspective's own king (nine: file in thirds,
    /// distance from the back rank 0/1/2+), trained with a shared block that is folded into each.
    #[arg(long)]
    pub king_buckets: bool,
    /// A deep head: (inputs -> hidden) x 2 -> 32 -> 32 -> 1 instead of (inputs -> hidden) x 2 -> 1.
    #[arg(long)]
    pub deep: bool,
    /// Start from this net (of the same shape, linear head) instead of random weights.
    #[arg(long)]
    pub init: Option<PathBuf>,
}

pub fn run_train(a: &TrainArgs) -> ExitCode {
    with_variant!(a.variant.0, V => train_for::<V>(a))
}

fn train_for<V: hayate::Variant>(a: &TrainArgs) -> ExitCode {
    use hayate::engine::nnue::Features;
    use hayate::learn::{dataset, train};
    if a.hidden == 0 || !a.hidden.is_multiple_of(16) || a.hidden > 1024 {
        eprintln!("error: --hidden must be a multiple of 16, at most 1024");
        return ExitCode::FAILURE;
    }
    let threads = a.threads.unwrap_or_else(all_cores);
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: cannot start training threads: {e}");
            return ExitCode::FAILURE;
        }
    };
    let Some(init) = eval_file_net_or_say("--init", a.init.as_deref(), a.variant.0) else {
        return ExitCode::FAILURE;
    };
    let t0 = std::time::Instant::now();
    let paths: Vec<&std::path::Path> = a.data.iter().map(|p| p.as_path()).collect();
    let king_buckets = if a.king_buckets {
        hayate::engine::nnue::features::KING_BUCKETS
    } else {
        0
    };
    let (tr, val) = match dataset::load::<V>(&paths, a.val_every, a.king_buckets) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "train: {} {} training and {} validation positions read in {:.1} s; net {}{} -> {} x 2 -> {}1",
        V::NAME,
        tr.len(),
        val.len(),
        t0.elapsed().as_secs_f64(),
        <V as Features>::INPUTS,
        if king_buckets > 0 {
            format!(" x {king_buckets} king buckets")
        } else {
            String::new()
        },
        a.hidden,
        if a.deep { "32 -> 32 -> " } else { "" }
    );
    let cfg = train::TrainConfig {
        game: V::KIND,
        inputs: <V as Features>::INPUTS,
        king_buckets,
        hidden: a.hidden,
        deep: a.deep,
        epochs: a.epochs,
        batch: a.batch,
        lr: a.lr,
        lr_drop_at: a.lr_drop_at,
        lr_drop: a.lr_drop,
        lambda: a.lambda,
        scale: a.scale,
        seed: a.seed,
        output: a.output.clone(),
        checkpoints: a.checkpoints.clone(),
        init,
    };
    let report = |r: &train::EpochReport| {
        println!(
            "epoch {:>3}/{}  train loss {:.6}  validation loss {:.6}  lr {:.2e}  {:.1} s",
            r.epoch, a.epochs, r.train_loss, r.val_loss, r.lr, r.seconds
        );
    };
    match pool.install(|| train::train(&cfg, &tr, &val, &report)) {
        Ok(_) => {
            println!(
                "train: net written to {} in {:.1} s",
                a.output.display(),
                t0.elapsed().as_secs_f64()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

#[derive(Args, Debug)]
pub struct DataArgs {
    #[command(subcommand)]
    pub action: DataAction,
}

#[derive(clap::Subcommand, Debug)]
pub enum DataAction {
    /// For each file: its layout, records, games, distinct positions, results and plies.
    Info {
        #[arg(long, value_enum, ignore_case = true, default_value = GameKind::Minishogi.name())]
        variant: GameArg,
        #[arg(required = true, num_args = 1..)]
        files: Vec<PathBuf>,
    },
    /// Append the records of FILES to --output (packed when it is new), leaving out every position it already
    /// holds: converts first-layout files, and joins shards or runs into one data set.
    Pack {
        #[arg(long, value_enum, ignore_case = true, default_value = GameKind::Minishogi.name())]
        variant: GameArg,
        #[arg(long)]
        output: PathBuf,
        #[arg(required = true, num_args = 1..)]
        files: Vec<PathBuf>,
    },
}

pub fn run_data(a: &DataArgs) -> ExitCode {
    let r = match &a.action {
        DataAction::Info { variant, files } => {
            with_variant!(variant.0, V => data_info::<V>(files))
        }
        DataAction::Pack {
            variant,
            output,
            files,
        } => with_variant!(variant.0, V => data_pack::<V>(output, files)),
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn data_info<V: hayate::Variant>(files: &[PathBuf]) -> Result<(), DataFileError> {
    use hayate::learn::record::for_each_record;
    for path in files {
        let (mut records, mut plies) = (0u64, 0u64);
        let mut results = [0u64; 3];
        let mut games = std::collections::HashSet::new();
        let mut positions = std::collections::HashSet::new();
        let format = for_each_record::<V>(path, |r| {
            records += 1;
            plies += u64::from(r.ply);
            results[usize::from(r.result.min(2))] += 1;
            games.insert(r.game);
            positions.insert(r.to_sfen::<V>());
        })?;
        let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        println!(
            "{}: {} version {}, {} records of {} bytes ({} bytes), {} games, {} distinct positions, \
             side to move won {} drew {} lost {}, mean ply {:.1}",
            path.display(),
            V::NAME,
            format.version(),
            records,
            format.record_size::<V>(),
            bytes,
            games.len(),
            positions.len(),
            results[2],
            results[1],
            results[0],
            plies as f64 / records.max(1) as f64
        );
    }
    Ok(())
}

fn data_pack<V: hayate::Variant>(
    output: &std::path::Path,
    files: &[PathBuf],
) -> Result<(), DataFileError> {
    use hayate::learn::record::{for_each_record, open_append};
    let mut out = open_append::<V>(output)?;
    let (before, mut written, mut read) = (out.duplicates, 0usize, 0u64);
    for path in files {
        let mut batch = Vec::new();
        let mut failed = None;
        for_each_record::<V>(path, |r| {
            read += 1;
            batch.push(r);
            if batch.len() == 10_000 && failed.is_none() {
                match out.append::<V>(&batch) {
                    Ok(n) => written += n,
                    Err(e) => failed = Some(e),
                }
                batch.clear();
            }
        })?;
        if failed.is_none() {
            match out.append::<V>(&batch) {
                Ok(n) => written += n,
                Err(e) => failed = Some(e),
            }
        }
        if let Some(error) = failed {
            return Err(DataFileError::Io {
                what: "write",
                path: output.to_path_buf(),
                error,
            });
        }
    }
    println!(
        "data: {read} records read, {written} appended to {} (version {}), {} positions it already held left out",
        output.display(),
        out.format().version(),
        out.duplicates - before
    );
    Ok(())
}
