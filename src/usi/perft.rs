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

/// The words after `go perft`.
pub(super) fn parse_depth(args: &[&str]) -> Result<u32, String> {
    let [d] = args else {
        return Err("go perft needs a depth (and nothing after it)".into());
    };
    match d.parse::<u32>() {
        Ok(depth) if depth <= MAX_DEPTH => Ok(depth),
        _ => Err(format!(
            "go perft: depth '{}' is not a number from 0 to {MAX_DEPTH}",
            truncate(d)
        )),
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
