//! `go mate <ms>|infinite`: the tsume solver (df-pn, `engine::tsume`) on the current position, run as a job.
//! It answers exactly one of `checkmate <moves>`, `checkmate nomate` or `checkmate timeout` (also after `stop`),
//! with an `info` line of nodes, nps, hashfull and time about once a second meanwhile.

use std::time::Duration;

use crate::engine::tsume::{futile_rule, solve, MateLimits, MateProgress, MateResult};
use crate::rules::position::notation::move_to_usi;
use crate::rules::position::Position;
use crate::rules::variant::Variant;

use crate::host::job::{Halt, Reporter};

/// Solves `pos` within `time` milliseconds (None: until `stop`), with a table of `hash_mb` megabytes and
/// `threads` searchers; futile interpositions go uncounted in 9×9 shogi only (see [`futile_rule`]).
pub(super) fn run_mate<V: Variant>(
    pos: &Position<V>,
    time: Option<u64>,
    hash_mb: usize,
    threads: usize,
    halt: &Halt,
    report: &Reporter,
) {
    let limits = MateLimits {
        time: time.map(Duration::from_millis),
        hash_mb,
        threads,
        futile_interpositions: futile_rule::<V>(),
        ..MateLimits::default()
    };
    let progress = |p: &MateProgress| {
        report.send(&format!(
            "info time {} nodes {} nps {} hashfull {}",
            p.time_ms, p.nodes, p.nps, p.hashfull
        ))
    };
    let r = solve(pos, &limits, halt.flag(), Some(&progress));
    report.send(&format!(
        "info time {} nodes {} hashfull {}",
        r.time.as_millis(),
        r.nodes,
        r.hashfull
    ));
    report.finish(&checkmate_line::<V>(&r.result));
}

/// The answer: a stopped solve has found nothing within the time it was given.
fn checkmate_line<V: Variant>(r: &MateResult) -> String {
    match r {
        MateResult::Mate(line) => {
            let moves: Vec<String> = line.iter().map(|&m| move_to_usi::<V>(m)).collect();
            format!("checkmate {}", moves.join(" "))
        }
        MateResult::NoMate => "checkmate nomate".into(),
        MateResult::Timeout | MateResult::Stopped => "checkmate timeout".into(),
    }
}
