//! `hayate data`: self-play data files looked into, or packed into one without repeated positions.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::cli::GameArg;
use hayate::learn::record::DataFileError;
use hayate::{with_variant, GameKind};

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
