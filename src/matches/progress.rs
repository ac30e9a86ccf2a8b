//! What a match prints while it runs: the header, a line per finished game with the first engine's standing, the
//! SPRT's decision, and the progress bar kept below them on a terminal.

use super::stats::{self, SprtConfig, SprtDecision};
use super::tally::{decision_name, fmt_elo, fmt_wdl, model_name, pct, FinishedGame, MatchSummary};
use super::MatchConfig;

/// `Match <a> vs <b>: <game>, <n> games, <time controls>, ...`: the match's settings.
pub(super) fn header(
    cfg: &MatchConfig,
    names: &[String; 2],
    game: &str,
    concurrency: usize,
    file_openings: usize,
) -> String {
    let mut extras = Vec::new();
    if let Some(r) = &cfg.limits.resign {
        extras.push(r.describe());
    }
    if let Some(d) = &cfg.limits.draw {
        extras.push(d.describe());
    }
    if let Some(s) = &cfg.sprt {
        extras.push(format!(
            "SPRT elo0 {} elo1 {} alpha {} beta {} ({})",
            s.elo0,
            s.elo1,
            s.alpha,
            s.beta,
            model_name(s.model)
        ));
    }
    let shard = if cfg.shard == crate::host::Shard::WHOLE {
        String::new()
    } else {
        format!(
            " (shard {}: {} of them, all played)",
            cfg.shard,
            cfg.shard_games().len()
        )
    };
    format!(
        "Match {} vs {}: {}, {} games{shard}, {}, tolerance {} ms, concurrency {}, {}{}",
        names[0],
        names[1],
        game,
        cfg.games,
        describe_tcs(cfg, names),
        cfg.limits.tolerance.as_millis(),
        concurrency,
        describe_openings(cfg, file_openings),
        extras.iter().map(|e| format!(", {e}")).collect::<String>()
    )
}

/// `Game 3/10: <a> (sente) vs <b> (gote): 1-0 checkmate, 57 plies | <a> vs <b>: <standing>`.
pub(super) fn game_line(
    cfg: &MatchConfig,
    names: &[String; 2],
    g: &FinishedGame,
    s: &MatchSummary,
) -> String {
    let rec = &g.record;
    format!(
        "Game {}/{}: {} (sente) vs {} (gote): {} {}{}, {} plies | {} vs {}: {}",
        g.index + 1,
        cfg.games,
        names[g.sente],
        names[1 - g.sente],
        rec.outcome.as_str(),
        rec.reason.as_str(),
        if rec.detail.is_empty() {
            String::new()
        } else {
            format!(" ({})", rec.detail)
        },
        rec.moves.len(),
        names[0],
        names[1],
        standing(s, cfg.sprt.as_ref())
    )
}

/// The line announcing that the SPRT decided after `games` games.
pub(super) fn sprt_line(llr: f64, decision: SprtDecision, games: u32) -> String {
    format!(
        "SPRT: {} after {games} games (LLR {llr:.2}); no new games start",
        decision_name(decision)
    )
}

/// The time controls for the header: one, or each engine's.
fn describe_tcs(cfg: &MatchConfig, names: &[String; 2]) -> String {
    let [a, b] = cfg.tcs;
    let mut s = if a == b {
        a.describe()
    } else {
        format!(
            "{}: {}, {}: {}",
            names[0],
            a.describe(),
            names[1],
            b.describe()
        )
    };
    if !a.has_clock() || !b.has_clock() {
        s.push_str(&format!(
            ", hang timeout {} ms",
            cfg.limits.hang_timeout.as_millis()
        ));
    }
    s
}

fn describe_openings(cfg: &MatchConfig, file_openings: usize) -> String {
    let base = if cfg.openings.is_empty() {
        "the start position".to_string()
    } else {
        format!("{file_openings} opening(s)")
    };
    if cfg.random_plies > 0 {
        format!(
            "{base} + {} random plies (seed {})",
            cfg.random_plies, cfg.seed
        )
    } else {
        base
    }
}

/// The first engine's standing, in parts: `W 3 D 1 L 1`, `70.0%`, `Elo +147.2 +/- 300.5` and, with an SPRT,
/// `LLR 0.12 (-2.94, 2.94)`.
fn standing_parts(s: &MatchSummary, sprt: Option<&SprtConfig>) -> Vec<String> {
    let f = &s.first;
    let mut out = vec![fmt_wdl(f), pct(f.score())];
    match stats::elo_estimate(f) {
        Some(e) if e.margin.is_finite() => {
            out.push(format!("Elo {} +/- {:.1}", fmt_elo(e.elo), e.margin))
        }
        Some(e) => out.push(format!("Elo {}", fmt_elo(e.elo))),
        None => {}
    }
    if let Some(cfg) = sprt {
        let (lo, hi) = cfg.bounds();
        let llr = s.sprt.map_or(0.0, |(l, _)| l);
        out.push(format!("LLR {llr:.2} ({lo:.2}, {hi:.2})"));
    }
    out
}

/// `W 3 D 1 L 1, 70.0%, Elo +147.2 +/- 300.5[, LLR 0.12 (-2.94, 2.94)]`: the first engine's standing.
pub fn standing(s: &MatchSummary, sprt: Option<&SprtConfig>) -> String {
    standing_parts(s, sprt).join(", ")
}

/// The progress bar: `[#######-------------] 37/200  W 12 D 10 L 15  47.3%  Elo -18.7 +/- 60.1  LLR ...`.
pub fn progress_bar(s: &MatchSummary, total: usize, sprt: Option<&SprtConfig>) -> String {
    const WIDTH: usize = 20;
    let done = s.first.games() as usize;
    let filled = (done * WIDTH).checked_div(total).unwrap_or(0).min(WIDTH);
    let mut out = format!(
        "[{}{}] {done}/{total}  {}",
        "#".repeat(filled),
        "-".repeat(WIDTH - filled),
        standing_parts(s, sprt).join("  ")
    );
    if s.interrupted.is_some() {
        out.push_str("  (stopping)");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::stats::{SprtModel, Wdl};

    #[test]
    fn standing_and_progress_bar() {
        let mut s = MatchSummary {
            first: Wdl::new(12, 10, 15),
            ..Default::default()
        };
        assert_eq!(
            standing(&s, None),
            "W 12 D 10 L 15, 45.9%, Elo -28.2 +/- 98.4"
        );
        let sprt = SprtConfig {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Trinomial,
        };
        s.sprt = Some((-0.523, SprtDecision::Continue));
        assert_eq!(
            progress_bar(&s, 200, Some(&sprt)),
            "[###-----------------] 37/200  W 12 D 10 L 15  45.9%  Elo -28.2 +/- 98.4  LLR -0.52 (-2.94, 2.94)"
        );
        // all games won: no finite interval
        let s = MatchSummary {
            first: Wdl::new(2, 0, 0),
            ..Default::default()
        };
        assert_eq!(
            progress_bar(&s, 2, None),
            "[####################] 2/2  W 2 D 0 L 0  100.0%  Elo +inf"
        );
        let s = MatchSummary::default();
        assert_eq!(
            progress_bar(&s, 10, None),
            "[--------------------] 0/10  W 0 D 0 L 0  -"
        );
    }
}
