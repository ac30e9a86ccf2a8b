//! USI `bench [depth]`: the bench positions of the current game, each searched to a fixed depth on an emptied
//! table, with the searcher `hayate bench` uses (one thread, its own table), so that `bench 8` here gives the
//! node counts of `hayate bench --variant <game> --depth 8 --threads 1 --hash 16`. Run as a job: `stop` ends the
//! running search and the bench with `info string bench stopped`.

use crate::engine::bench::run_bench;
use crate::engine::search::Searcher;
use crate::GameKind;

use crate::host::job::{Halt, Reporter};
use crate::host::truncate;

pub(super) const THREADS: usize = 1;
pub(super) const HASH_MB: usize = 16;
const DEFAULT_DEPTH: i32 = 8;
/// The depth range of `hayate bench`.
const MAX_DEPTH: i32 = 100;

/// Why the words after `bench` were refused: more than one, or a depth out of range; the word quoted is cut to
/// 40 characters.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(super) enum BenchDepthError {
    #[error("bench: depth '{0}' is not a number from 1 to {MAX_DEPTH}")]
    Depth(String),
    #[error("bench takes at most a depth")]
    Words,
}

/// The words after `bench`: an optional depth.
pub(super) fn parse_depth(args: &[&str]) -> Result<i32, BenchDepthError> {
    match args {
        [] => Ok(DEFAULT_DEPTH),
        [d] => match d.parse::<i32>() {
            Ok(depth) if (1..=MAX_DEPTH).contains(&depth) => Ok(depth),
            _ => Err(BenchDepthError::Depth(truncate(d))),
        },
        _ => Err(BenchDepthError::Words),
    }
}

/// Runs the bench of `game` with `searcher`, each line as an `info string`, until `halt` stops it.
pub(super) fn run(
    searcher: &mut Searcher,
    game: GameKind,
    depth: i32,
    halt: &Halt,
    report: &Reporter,
) {
    let out = |l: &str| report.send(&format!("info string {l}"));
    match run_bench(&[game], depth, searcher, &out, &|| halt.requested()) {
        None => report.finish("info string bench stopped"),
        Some(totals) => {
            let [lines @ .., last] = totals.lines();
            lines.iter().for_each(|l| out(l));
            report.finish(&format!("info string {last}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_errors_say_the_range() {
        assert_eq!(parse_depth(&[]), Ok(DEFAULT_DEPTH));
        assert_eq!(
            parse_depth(&["0"]).unwrap_err().to_string(),
            "bench: depth '0' is not a number from 1 to 100"
        );
        assert_eq!(
            parse_depth(&["1", "2"]).unwrap_err().to_string(),
            "bench takes at most a depth"
        );
    }
}
