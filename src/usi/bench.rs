//! USI `bench [depth]`: the bench positions of the current game, each searched to a fixed depth on an emptied
//! table, with the searcher `hayate bench` uses (one thread, its own table), so that `bench 8` here gives the
//! node counts of `hayate bench --variant <game> --depth 8 --threads 1 --hash 16`. Run as a job: `stop` ends the
//! running search and the bench with `info string bench stopped`.

use std::sync::atomic::Ordering;
use std::time::Instant;

use crate::engine::bench::{MINISHOGI_POSITIONS, SHOGI_POSITIONS, YARI_POSITIONS};
use crate::engine::eval::GameEval;
use crate::engine::search::{Control, Limits, Searcher, TimeOptions};
use crate::rules::position::notation::move_to_usi;
use crate::rules::position::Position;
use crate::GameKind;

use super::job::{Halt, Reporter};
use super::truncate;

pub(super) const THREADS: usize = 1;
pub(super) const HASH_MB: usize = 16;
const DEFAULT_DEPTH: i32 = 8;
/// The depth range of `hayate bench`.
const MAX_DEPTH: i32 = 100;

/// The words after `bench`: an optional depth.
pub(super) fn parse_depth(args: &[&str]) -> Result<i32, String> {
    match args {
        [] => Ok(DEFAULT_DEPTH),
        [d] => match d.parse::<i32>() {
            Ok(depth) if (1..=MAX_DEPTH).contains(&depth) => Ok(depth),
            _ => Err(format!(
                "bench: depth '{}' is not a number from 1 to {MAX_DEPTH}",
                truncate(d)
            )),
        },
        _ => Err("bench takes at most a depth".into()),
    }
}

pub(super) fn positions(game: GameKind) -> &'static [&'static str] {
    match game {
        GameKind::Shogi => &SHOGI_POSITIONS,
        GameKind::Minishogi => &MINISHOGI_POSITIONS,
        GameKind::Yari => &YARI_POSITIONS,
    }
}

/// Searches each of `sfens` to `depth` with `searcher`, whose control `halt` stops, one line a position, then
/// the totals.
pub(super) fn run_bench<V: GameEval>(
    searcher: &mut Searcher,
    sfens: &[&str],
    depth: i32,
    halt: &Halt,
    report: &Reporter,
) {
    let limits = Limits {
        depth: Some(depth),
        multipv: 1,
        ..Limits::default()
    };
    let (mut nodes, mut secs) = (0, 0.0);
    for (i, sfen) in sfens.iter().enumerate() {
        let pos = match Position::<V>::from_sfen(sfen) {
            Ok(p) => p,
            Err(e) => {
                report
                    .output()
                    .error(&format!("bench position {sfen}: {e}"));
                continue;
            }
        };
        searcher.clear();
        reset(&searcher.control());
        // read after the reset: a stop that came before it is seen here, one after it stops the search
        if halt.requested() {
            break;
        }
        let start = Instant::now();
        let r = searcher.search(&pos, &limits, &TimeOptions::default(), &|_| {});
        let t = start.elapsed().as_secs_f64();
        if halt.requested() {
            break;
        }
        nodes += r.nodes;
        secs += t;
        let best = r.best.map_or("none".to_string(), move_to_usi::<V>);
        report.send(&format!(
            "info string {} position {:>2}: depth {} nodes {:>10} time {:>7.0} ms bestmove {best} score {}",
            V::NAME,
            i + 1,
            r.depth,
            r.nodes,
            t * 1000.0,
            r.score
        ));
    }
    if halt.requested() {
        report.finish("info string bench stopped");
        return;
    }
    report.send("info string ===========================");
    report.send(&format!(
        "info string Total time (ms) : {:.0}",
        secs * 1000.0
    ));
    report.send(&format!("info string Nodes searched: {nodes}"));
    report.finish(&format!(
        "info string Nodes/second: {:.0}",
        nodes as f64 / secs.max(1e-9)
    ));
}

/// Readies the bench searcher's control for the next position, as `hayate bench` does.
fn reset(control: &Control) {
    control.stop.store(false, Ordering::SeqCst);
    control.pondering.store(false, Ordering::SeqCst);
    if let Ok(mut s) = control.start.lock() {
        *s = Instant::now();
    }
}
