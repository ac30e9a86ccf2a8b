//! `go perft <depth>`: the move-tree count of the current position, one `<move>: <count>` line per root move as
//! each is known, then `Nodes searched: <total>`; run as a job, so that `stop` ends it within a few
//! milliseconds with `info string perft stopped` and no total.

use std::time::Instant;

use crate::rules::perft::divide_until;
use crate::rules::position::notation::move_to_usi;
use crate::rules::position::Position;
use crate::rules::variant::Variant;

use crate::host::job::{Halt, Reporter};
use crate::host::truncate;

/// Deeper counts never finish; the cap keeps the recursion (a move list a ply) well inside a thread's stack.
const MAX_DEPTH: u32 = 64;

/// Why the words after `go perft` were refused: not a single word, or no depth in range; the word quoted is cut
/// to 40 characters.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(super) enum PerftDepthError {
    #[error("go perft needs a depth (and nothing after it)")]
    Words,
    #[error("go perft: depth '{0}' is not a number from 0 to {MAX_DEPTH}")]
    Depth(String),
}

/// The words after `go perft`.
pub(super) fn parse_depth(args: &[&str]) -> Result<u32, PerftDepthError> {
    let [d] = args else {
        return Err(PerftDepthError::Words);
    };
    match d.parse::<u32>() {
        Ok(depth) if depth <= MAX_DEPTH => Ok(depth),
        _ => Err(PerftDepthError::Depth(truncate(d))),
    }
}

pub(super) fn run_perft<V: Variant>(
    mut pos: Position<V>,
    depth: u32,
    halt: &Halt,
    report: &Reporter,
) {
    let start = Instant::now();
    let total = divide_until(&mut pos, depth, halt.flag(), |m, n| {
        report.send(&format!("{}: {n}", move_to_usi::<V>(m)))
    });
    let Some(total) = total else {
        report.finish("info string perft stopped");
        return;
    };
    let ms = start.elapsed().as_millis().max(1);
    report.send(&format!(
        "info string time {ms} ms, {} nodes/s",
        u128::from(total) * 1000 / ms
    ));
    report.finish(&format!("Nodes searched: {total}"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_errors_say_the_range() {
        assert_eq!(parse_depth(&["3"]), Ok(3));
        assert_eq!(
            parse_depth(&["65"]).unwrap_err().to_string(),
            "go perft: depth '65' is not a number from 0 to 64"
        );
        assert_eq!(
            parse_depth(&[]).unwrap_err().to_string(),
            "go perft needs a depth (and nothing after it)"
        );
    }
}
