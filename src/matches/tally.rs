//! The tally of a match: W-D-L of the first engine overall and by colour, the endings, the pairs for the
//! pentanomial count, the SPRT decision, and the summary printed at the end.

use std::collections::{BTreeMap, HashMap};

use crate::rules::piece::Color;

use super::play::GameRecord;
use super::stats::{self, Penta, SprtConfig, SprtDecision, SprtModel, Wdl};
use super::MatchConfig;
use crate::host::judge::{Outcome, Reason};
use crate::host::Shard;
use crate::GameKind;

/// One finished game of a match.
#[derive(Clone, Debug)]
pub struct FinishedGame {
    /// 0-based game number.
    pub index: usize,
    /// Which engine (0 or 1) played sente.
    pub sente: usize,
    pub record: GameRecord,
}

/// What a match produced.
#[derive(Clone, Debug, Default)]
pub struct MatchSummary {
    pub names: [String; 2],
    pub games: Vec<FinishedGame>,
    /// Results of the first engine, overall and by its colour.
    pub first: Wdl,
    pub first_as_sente: Wdl,
    pub first_as_gote: Wdl,
    pub sente_wins: u32,
    pub gote_wins: u32,
    pub draws: u32,
    pub reasons: BTreeMap<Reason, u32>,
    /// Complete pairs, by the first engine's points.
    pub penta: Penta,
    /// The LLR and decision when an SPRT ran: at the decision, or after the last game without one.
    pub sprt: Option<(f64, SprtDecision)>,
    /// The games counted in `sprt` (games still running when the SPRT decided finish and count in the W-D-L
    /// figures, not in the decision).
    pub sprt_games: u32,
    /// Set when the match stopped on an error.
    pub error: Option<String>,
    /// The signal that stopped the match, if one did.
    pub interrupted: Option<i32>,
}
/// Counts games as they finish, in any order.
pub(super) struct Tally<'a> {
    pub summary: MatchSummary,
    sprt: Option<&'a SprtConfig>,
    /// The first engine's half points in the game of each pair that finished first, until its partner finishes.
    open_pairs: HashMap<usize, u32>,
    /// Once the SPRT has decided, later games no longer move its figures.
    sprt_decided: bool,
}

impl<'a> Tally<'a> {
    pub fn new(names: [String; 2], sprt: Option<&'a SprtConfig>) -> Self {
        Tally {
            summary: MatchSummary {
                names,
                ..Default::default()
            },
            sprt,
            open_pairs: HashMap::new(),
            sprt_decided: false,
        }
    }

    /// Counts a finished game: W-D-L, its ending, its pair once both games are in, and the SPRT's figures.
    pub fn count(&mut self, g: &FinishedGame) {
        let summary = &mut self.summary;
        let rec = &g.record;
        let first_colour = if g.sente == 0 {
            Color::Black
        } else {
            Color::White
        };
        let hp = rec.outcome.half_points(first_colour);
        let add = |w: &mut Wdl| match hp {
            2 => w.wins += 1,
            1 => w.draws += 1,
            _ => w.losses += 1,
        };
        add(&mut summary.first);
        add(if g.sente == 0 {
            &mut summary.first_as_sente
        } else {
            &mut summary.first_as_gote
        });
        match rec.outcome {
            Outcome::BlackWins => summary.sente_wins += 1,
            Outcome::WhiteWins => summary.gote_wins += 1,
            Outcome::Draw => summary.draws += 1,
        }
        *summary.reasons.entry(rec.reason).or_default() += 1;
        let pair = g.index / 2;
        if let Some(other) = self.open_pairs.remove(&pair) {
            summary.penta.add((other + hp) as usize);
        } else {
            self.open_pairs.insert(pair, hp);
        }
        if let (Some(sprt), false) = (self.sprt, self.sprt_decided) {
            let llr = sprt.llr(&summary.first, &summary.penta);
            summary.sprt = Some((llr, sprt.decide(llr)));
            summary.sprt_games = summary.first.games();
        }
    }

    /// The SPRT's LLR and decision the first time it is asked after the SPRT decided; None otherwise.
    pub fn new_decision(&mut self) -> Option<(f64, SprtDecision)> {
        match self.summary.sprt {
            Some((llr, decision)) if !self.sprt_decided && decision != SprtDecision::Continue => {
                self.sprt_decided = true;
                Some((llr, decision))
            }
            _ => None,
        }
    }
}

pub(super) fn model_name(m: SprtModel) -> &'static str {
    match m {
        SprtModel::Trinomial => "trinomial",
        SprtModel::Pentanomial => "pentanomial",
    }
}

pub(super) fn decision_name(d: SprtDecision) -> &'static str {
    match d {
        SprtDecision::Continue => "continue",
        SprtDecision::AcceptH0 => "H0 accepted",
        SprtDecision::AcceptH1 => "H1 accepted",
    }
}

pub(super) fn fmt_elo(x: f64) -> String {
    // no "-0.0"
    let x = x + 0.0;
    if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{x:+.1}")
    }
}

pub(super) fn fmt_wdl(w: &Wdl) -> String {
    format!("W {} D {} L {}", w.wins, w.draws, w.losses)
}

pub(super) fn pct(x: Option<f64>) -> String {
    x.map_or("-".to_string(), |x| format!("{:.1}%", 100.0 * x))
}

/// What the summary tells beside the games' figures; a merge of shards has it from their `match.json`.
pub struct SummaryFrame<'a> {
    pub variant: GameKind,
    /// The games this run was to play, for the line of an interrupted run.
    pub planned: usize,
    pub sprt: Option<&'a SprtConfig>,
    pub shard: Shard,
}

impl SummaryFrame<'_> {
    pub fn of(cfg: &MatchConfig) -> SummaryFrame<'_> {
        SummaryFrame {
            variant: cfg.variant,
            planned: cfg.shard_games().len(),
            sprt: cfg.sprt.as_ref(),
            shard: cfg.shard,
        }
    }
}

/// The final summary, one line per figure.
pub fn summary_lines(s: &MatchSummary, frame: &SummaryFrame) -> Vec<String> {
    let [a, b] = &s.names;
    let n = s.first.games();
    let second = s.first.flipped();
    let shard = if frame.shard == Shard::WHOLE {
        String::new()
    } else {
        format!(", shard {}", frame.shard)
    };
    let mut out = vec![format!(
        "Results of {a} vs {b} ({}, {n} games{shard}):",
        frame.variant
    )];
    for (name, total, sente, gote) in [
        (a, s.first, s.first_as_sente, s.first_as_gote),
        (
            b,
            second,
            s.first_as_gote.flipped(),
            s.first_as_sente.flipped(),
        ),
    ] {
        out.push(format!(
            "  {name}: {}, score {:.1}/{n} ({})",
            fmt_wdl(&total),
            total.points(),
            pct(total.score())
        ));
        out.push(format!(
            "  {name} as sente: {}; as gote: {}",
            fmt_wdl(&sente),
            fmt_wdl(&gote)
        ));
    }
    out.push(format!(
        "  Sente won {}, gote won {}, drawn {}",
        s.sente_wins, s.gote_wins, s.draws
    ));
    out.push(elo_line(s));
    out.push(format!(
        "  LOS: {}, draw ratio: {}",
        pct(stats::los(&s.first)),
        pct(s.first.draw_ratio())
    ));
    let p = &s.penta.counts;
    out.push(format!(
        "  Pairs by {a}'s points (0, 1/2, 1, 3/2, 2): {} {} {} {} {} ({} pairs)",
        p[0],
        p[1],
        p[2],
        p[3],
        p[4],
        s.penta.pairs()
    ));
    out.extend(sprt_line(s, frame));
    let reasons: Vec<String> = s
        .reasons
        .iter()
        .map(|(r, c)| format!("{} {c}", r.as_str()))
        .collect();
    out.push(format!("  Endings: {}", reasons.join(", ")));
    if let Some(e) = &s.error {
        out.push(format!("  The match stopped on an error: {e}"));
    }
    if let Some(sig) = s.interrupted {
        out.push(format!(
            "  Interrupted (signal {sig}) after {n} of {} games; unfinished games were abandoned",
            frame.planned
        ));
    }
    out
}

/// The summary's Elo line: the first engine's difference with its 95% interval.
fn elo_line(s: &MatchSummary) -> String {
    let [a, b] = &s.names;
    match stats::elo_estimate(&s.first) {
        Some(e) => format!(
            "  Elo difference ({a} - {b}): {} +/- {}, 95% interval [{}, {}]",
            fmt_elo(e.elo),
            if e.margin.is_finite() {
                format!("{:.1}", e.margin)
            } else {
                "inf".into()
            },
            fmt_elo(e.lower),
            fmt_elo(e.upper)
        ),
        None => "  Elo difference: no games".into(),
    }
}

/// The summary's SPRT line, when the match runs one: its state, or in a shard that the merge evaluates it.
fn sprt_line(s: &MatchSummary, frame: &SummaryFrame) -> Option<String> {
    match frame.sprt {
        Some(cfg_sprt) if frame.shard != Shard::WHOLE => Some(format!(
            "  SPRT ({}, elo0 {} elo1 {}, alpha {} beta {}): not evaluated in a shard; \
             hayate match --merge evaluates it over all the shards' games",
            model_name(cfg_sprt.model),
            cfg_sprt.elo0,
            cfg_sprt.elo1,
            cfg_sprt.alpha,
            cfg_sprt.beta,
        )),
        Some(cfg_sprt) => {
            let (lo, hi) = cfg_sprt.bounds();
            let (llr, d) = s.sprt.unwrap_or((0.0, SprtDecision::Continue));
            Some(format!(
            "  SPRT ({}, elo0 {} elo1 {}, alpha {} beta {}): LLR {:.3} ({:.3}, {:.3}) after {} games, {}",
            model_name(cfg_sprt.model),
            cfg_sprt.elo0,
            cfg_sprt.elo1,
            cfg_sprt.alpha,
            cfg_sprt.beta,
            llr,
            lo,
            hi,
            s.sprt_games,
            decision_name(d)
        ))
        }
        None => None,
    }
}
