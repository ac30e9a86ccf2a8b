//! `hayate train`: a net trained from self-play data and written quantised.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::{all_cores, eval_file_net_or_say};
use crate::cli::GameArg;
use hayate::{with_variant, GameKind};

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
