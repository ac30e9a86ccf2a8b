//! Search progress in USI words: `info` lines and scores.

use crate::engine::search::{Info, MATE, MATE_BOUND};
use crate::engine::tt::Bound;
use crate::rules::position::notation::move_to_usi;
use crate::rules::variant::Variant;

/// Formats a search score as USI: `cp N` or `mate N` (plies; negative when being mated).
pub fn usi_score(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", MATE - score)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", MATE + score)
    } else {
        format!("cp {score}")
    }
}

pub fn info_line<V: Variant>(i: &Info) -> String {
    let nps = i.nodes * 1000 / i.time_ms.max(1);
    if i.progress_only {
        return format!(
            "info nodes {} nps {nps} time {} hashfull {}",
            i.nodes, i.time_ms, i.hashfull
        );
    }
    let bound = match i.bound {
        Bound::Lower => " lowerbound",
        Bound::Upper => " upperbound",
        _ => "",
    };
    let pv: Vec<String> = i.pv.iter().map(|&m| move_to_usi::<V>(m)).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {}{} nodes {} nps {} time {} hashfull {}{}{}",
        i.depth,
        i.seldepth,
        i.multipv,
        usi_score(i.score),
        bound,
        i.nodes,
        nps,
        i.time_ms,
        i.hashfull,
        if pv.is_empty() { "" } else { " pv " },
        pv.join(" ")
    )
}
