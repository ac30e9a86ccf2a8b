//! `hayate match`: engine-versus-engine matches between two USI engines, in any of the three games.
//!
//! - Engines ([`engine`]) are separate processes driven over USI: `usi`/`usiok`, `USI_Variant` and `UCI_Variant`
//!   (for minishogi and Yari shogi; for shogi only when listed), the `option.<Name>=<value>` options,
//!   `isready`/`readyok`; per game `isready`/`readyok` and `usinewgame`; per move `position sfen <start> moves ...`
//!   and `go btime .. wtime .. binc .. winc ..` (or `byoyomi ..`); `gameover win|lose|draw` at the end of a game;
//!   `quit` (then a kill) at the end of the match. Every read has a deadline; stderr is read and dropped.
//! - Concurrency: `--concurrency C` worker threads each own one process of each engine and reuse them for all
//!   their games; an engine that crashed or hung (or failed `isready` before a game) is killed and started afresh
//!   for the worker's next game.
//! - Games come in pairs from the same opening with colours swapped: game `2k + 1` (1-based, odd) has the first
//!   engine as sente, game `2k + 2` the second engine. Openings are used in file order, one per pair, cycling.
//! - Judging ([`game`]): every move is checked with Hayate's rules core; see [`game::Reason`] for the endings.
//! - Statistics ([`stats`]): W-D-L, score, logistic Elo with its 95% interval, LOS, draw ratio, pair
//!   (pentanomial) counts and the SPRT — trinomial by default, `model=pentanomial` optional (fastchess's GSPRT,
//!   logistic Elo). When the SPRT decides, no new game starts; games already running finish and count.
//! - Records ([`record`]): `--out` gets one line per game in game order; `--csa DIR` one CSA file per game
//!   (standard shogi only).

pub mod engine;
pub mod game;
pub mod record;
pub mod stats;

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::Write;
use std::path::PathBuf;
use std::sync::{mpsc, Mutex};
use std::time::Duration;

use crate::piece::Color;
use crate::{Minishogi, Position, Shogi, Variant, Yari};

use engine::{Engine, EngineSpec, Failure, StartError};
use game::{GameLimits, GameRecord, Judge, Outcome, Reason};
use record::RecordLine;
use stats::{Penta, SprtConfig, SprtDecision, SprtModel, Wdl};

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: [EngineSpec; 2],
    /// `shogi`, `minishogi` or `yarishogi`.
    pub variant: String,
    pub games: usize,
    pub concurrency: usize,
    pub limits: GameLimits,
    /// Opening lines: `[position] (startpos | [sfen] <sfen>) [moves ...]`; empty: the start position.
    pub openings: Vec<String>,
    pub out: Option<PathBuf>,
    pub csa_dir: Option<PathBuf>,
    pub sprt: Option<SprtConfig>,
    /// For starting an engine and for each `isready` before a game.
    pub ready_timeout: Duration,
}

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
}

/// An opening: a start SFEN and moves to play from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub sfen: String,
    pub moves: Vec<String>,
}

/// Reads one opening line: `[position] (startpos | [sfen] <board> <side> <hands> [<n>]) [moves <m> ...]`; None for
/// blank lines and `#` comments.
pub fn parse_opening(line: &str, start_sfen: &str) -> Result<Option<Opening>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let mut w: Vec<&str> = line.split_whitespace().collect();
    if w.first() == Some(&"position") {
        w.remove(0);
    }
    let moves_at = w.iter().position(|&x| x == "moves").unwrap_or(w.len());
    let moves = w[(moves_at + 1).min(w.len())..]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let head = &w[..moves_at];
    let sfen = match head {
        ["startpos"] => start_sfen.to_string(),
        ["sfen", rest @ ..] if !rest.is_empty() => rest.join(" "),
        [] => return Err(format!("opening '{line}' has no position")),
        rest => rest.join(" "),
    };
    Ok(Some(Opening { sfen, moves }))
}

enum Message {
    Done(FinishedGame),
    Error(String),
}

/// Plays a match, printing progress and the summary through `print`; Err for a configuration that cannot start
/// (bad openings, an engine that does not start). An error during the match stops it and is reported in the
/// summary's `error`.
pub fn run_match(cfg: &MatchConfig, print: &(dyn Fn(&str) + Sync)) -> Result<MatchSummary, String> {
    match cfg.variant.as_str() {
        "shogi" => run_generic::<Shogi>(cfg, print),
        "minishogi" => run_generic::<Minishogi>(cfg, print),
        "yarishogi" | "yari" => run_generic::<Yari>(cfg, print),
        v => Err(format!("unknown variant '{v}'")),
    }
}

/// Checks a record file for the game `variant`; returns the number of games.
pub fn verify_records(variant: &str, text: &str, max_plies: usize) -> Result<usize, String> {
    match variant {
        "shogi" => record::verify_file::<Shogi>(text, max_plies),
        "minishogi" => record::verify_file::<Minishogi>(text, max_plies),
        "yarishogi" | "yari" => record::verify_file::<Yari>(text, max_plies),
        v => Err(format!("unknown variant '{v}'")),
    }
}

fn start_engine<V: Variant>(
    spec: &EngineSpec,
    label: &str,
    cfg: &MatchConfig,
) -> Result<Engine, StartError> {
    Engine::start(spec, V::NAME, label, cfg.ready_timeout)
}

fn run_generic<V: Variant>(
    cfg: &MatchConfig,
    print: &(dyn Fn(&str) + Sync),
) -> Result<MatchSummary, String> {
    if cfg.games == 0 {
        return Err("--games must be at least 1".into());
    }
    // openings, checked with the rules core
    let mut openings = Vec::new();
    for (i, line) in cfg.openings.iter().enumerate() {
        if let Some(o) = parse_opening(line, V::START_SFEN)? {
            let mut j = Judge::<V>::new(&o.sfen).map_err(|e| format!("opening {}: {e}", i + 1))?;
            for m in &o.moves {
                j.play(m)
                    .map_err(|e| format!("opening {}: move {m}: {e}", i + 1))?;
            }
            openings.push(Opening {
                sfen: j.start_sfen().to_string(),
                moves: o.moves,
            });
        }
    }
    if openings.is_empty() {
        if !cfg.openings.is_empty() {
            return Err("the openings file holds no opening".into());
        }
        openings.push(Opening {
            sfen: Position::<V>::startpos().to_sfen(),
            moves: Vec::new(),
        });
    }
    // start one process of each engine now: a bad command fails the match at once; they serve worker 0
    let mut first_slots: [Option<Engine>; 2] = [None, None];
    let mut names: [String; 2] = Default::default();
    for e in 0..2 {
        let spec = &cfg.engines[e];
        let engine = start_engine::<V>(spec, &format!("engine {}", e + 1), cfg)
            .map_err(|err| format!("engine {} ({}): {err}", e + 1, spec.cmd))?;
        names[e] = spec
            .name
            .clone()
            .or_else(|| engine.id_name.clone())
            .unwrap_or_else(|| spec.fallback_name());
        first_slots[e] = Some(engine);
    }
    if names[0] == names[1] {
        for (e, n) in names.iter_mut().enumerate() {
            n.push_str(&format!(" #{}", e + 1));
        }
    }
    let mut out_file = match &cfg.out {
        Some(p) => {
            Some(File::create(p).map_err(|e| format!("cannot create {}: {e}", p.display()))?)
        }
        None => None,
    };
    if let Some(d) = &cfg.csa_dir {
        std::fs::create_dir_all(d).map_err(|e| format!("cannot create {}: {e}", d.display()))?;
    }
    let concurrency = cfg.concurrency.clamp(1, cfg.games);
    print(&format!(
        "Match {} vs {}: {}, {} games, {}, tolerance {} ms, concurrency {}, {} opening(s){}",
        names[0],
        names[1],
        V::NAME,
        cfg.games,
        cfg.limits.tc.describe(),
        cfg.limits.tolerance.as_millis(),
        concurrency,
        openings.len(),
        match &cfg.sprt {
            Some(s) => format!(
                ", SPRT elo0 {} elo1 {} alpha {} beta {} ({})",
                s.elo0,
                s.elo1,
                s.alpha,
                s.beta,
                model_name(s.model)
            ),
            None => String::new(),
        }
    ));

    // the main thread hands out game numbers one at a time, so that no game starts after the SPRT decided
    // (beyond those already running) and games start in order
    let (job_tx, job_rx) = mpsc::channel::<usize>();
    let job_rx = Mutex::new(job_rx);
    let (tx, rx) = mpsc::channel::<Message>();
    let mut summary = MatchSummary {
        names: names.clone(),
        ..Default::default()
    };
    std::thread::scope(|s| {
        let mut first_slots = Some(first_slots);
        for w in 0..concurrency {
            let slots = if w == 0 {
                first_slots.take().unwrap_or_default()
            } else {
                [None, None]
            };
            let tx = tx.clone();
            let (job_rx, openings, names) = (&job_rx, &openings, &names);
            s.spawn(move || worker::<V>(w, slots, cfg, openings, names, job_rx, tx));
        }
        drop(tx);
        for i in 0..concurrency {
            let _ = job_tx.send(i);
        }
        let mut dispatched = concurrency;
        let mut job_tx = (dispatched < cfg.games).then_some(job_tx);
        let mut stop = false;
        let mut pending_lines: BTreeMap<usize, String> = BTreeMap::new();
        let mut next_line = 0;
        let mut pair_points: HashMap<usize, u32> = HashMap::new();
        let mut sprt_done = false;
        for msg in rx {
            let g = match msg {
                Message::Done(g) => g,
                Message::Error(e) => {
                    print(&format!("error: {e}"));
                    stop = true;
                    job_tx = None;
                    summary.error.get_or_insert(e);
                    continue;
                }
            };
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
            if let Some(other) = pair_points.remove(&pair) {
                summary.penta.add((other + hp) as usize);
            } else {
                pair_points.insert(pair, hp);
            }
            let line = RecordLine {
                outcome: rec.outcome,
                reason: rec.reason,
                start_sfen: rec.start_sfen.clone(),
                moves: rec.moves.clone(),
            };
            let f = &summary.first;
            print(&format!(
                "Game {}/{}: {} (sente) vs {} (gote): {} {}{}, {} plies | {} vs {}: W {} D {} L {}",
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
                f.wins,
                f.draws,
                f.losses
            ));
            if let Some(dir) = &cfg.csa_dir {
                let n = [names[g.sente].as_str(), names[1 - g.sente].as_str()];
                if let Some(text) = record::csa_text::<V>(&line, n) {
                    let path = dir.join(format!("game{:04}.csa", g.index + 1));
                    if let Err(e) = std::fs::write(&path, text) {
                        print(&format!("warning: cannot write {}: {e}", path.display()));
                    }
                }
            }
            pending_lines.insert(g.index, line.format());
            while let Some(l) = pending_lines.remove(&next_line) {
                if let Some(file) = out_file.as_mut() {
                    if let Err(e) = writeln!(file, "{l}").and_then(|_| file.flush()) {
                        print(&format!("warning: cannot write the record: {e}"));
                    }
                }
                next_line += 1;
            }
            if let (Some(sprt), false) = (&cfg.sprt, sprt_done) {
                let llr = sprt.llr(&summary.first, &summary.penta);
                let decision = sprt.decide(llr);
                summary.sprt = Some((llr, decision));
                summary.sprt_games = summary.first.games();
                if decision != SprtDecision::Continue {
                    sprt_done = true;
                    print(&format!(
                        "SPRT: {} after {} games (LLR {:.2}); no new games start",
                        decision_name(decision),
                        summary.first.games(),
                        llr
                    ));
                    stop = true;
                }
            }
            summary.games.push(g);
            if stop || dispatched >= cfg.games {
                job_tx = None;
            } else if let Some(j) = &job_tx {
                let _ = j.send(dispatched);
                dispatched += 1;
            }
        }
        // records of games after a gap (an aborted game) still go out
        for (_, l) in pending_lines {
            if let Some(file) = out_file.as_mut() {
                let _ = writeln!(file, "{l}");
            }
        }
    });
    summary.games.sort_by_key(|g| g.index);
    for l in summary_lines(&summary, cfg) {
        print(&l);
    }
    Ok(summary)
}

#[allow(clippy::too_many_arguments)]
fn worker<V: Variant>(
    w: usize,
    mut slots: [Option<Engine>; 2],
    cfg: &MatchConfig,
    openings: &[Opening],
    names: &[String; 2],
    jobs: &Mutex<mpsc::Receiver<usize>>,
    tx: mpsc::Sender<Message>,
) {
    loop {
        let job = match jobs.lock() {
            Ok(rx) => rx.recv(),
            Err(_) => break,
        };
        let Ok(index) = job else {
            break;
        };
        let opening = &openings[(index / 2) % openings.len()];
        let sente = index % 2;
        // every engine ready for a new game, restarted when it died or does not answer
        let mut failure: [Option<(Failure, String)>; 2] = [None, None];
        for e in 0..2 {
            let label = format!("{}[{w}]", names[e]);
            if let Some(eng) = slots[e].as_mut() {
                if !eng.is_alive() || eng.new_game(cfg.ready_timeout).is_err() {
                    eng.kill();
                    slots[e] = None;
                }
            }
            if slots[e].is_none() {
                match start_engine::<V>(&cfg.engines[e], &label, cfg) {
                    Ok(mut eng) => match eng.new_game(cfg.ready_timeout) {
                        Ok(()) => slots[e] = Some(eng),
                        Err(f) => {
                            eng.kill();
                            failure[e] = Some((f, "no readyok before the game".into()));
                        }
                    },
                    Err(StartError::Handshake(f)) => {
                        failure[e] = Some((f, "failed to start".into()))
                    }
                    Err(err @ StartError::Spawn(_)) => {
                        let _ = tx.send(Message::Error(format!("{}: {err}", names[e])));
                        return;
                    }
                }
            }
        }
        let record = match (&failure[0], &failure[1]) {
            (Some(_), Some(_)) => {
                let _ = tx.send(Message::Error(format!(
                    "game {}: neither engine could be made ready",
                    index + 1
                )));
                break;
            }
            (Some((f, why)), None) | (None, Some((f, why))) => {
                let loser = if failure[0].is_some() { 0 } else { 1 };
                let loser_colour = if loser == sente {
                    Color::Black
                } else {
                    Color::White
                };
                let mut judge = match Judge::<V>::new(&opening.sfen) {
                    Ok(j) => j,
                    Err(e) => {
                        let _ = tx.send(Message::Error(e));
                        break;
                    }
                };
                for m in &opening.moves {
                    let _ = judge.play(m);
                }
                let mut failed = [false; 2];
                failed[loser_colour.index()] = true;
                GameRecord {
                    start_sfen: judge.start_sfen().to_string(),
                    moves: opening.moves.clone(),
                    outcome: Outcome::win_for(!loser_colour),
                    reason: match f {
                        Failure::Crash => Reason::Crash,
                        Failure::Hang => Reason::Hang,
                    },
                    detail: why.clone(),
                    failed,
                }
            }
            (None, None) => {
                let (a, b) = slots.split_at_mut(1);
                let (Some(e0), Some(e1)) = (a[0].as_mut(), b[0].as_mut()) else {
                    break;
                };
                let engines = if sente == 0 { [e0, e1] } else { [e1, e0] };
                match game::play_game::<V>(engines, &opening.sfen, &opening.moves, &cfg.limits) {
                    Ok(r) => r,
                    Err(e) => {
                        let _ = tx.send(Message::Error(format!("game {}: {e}", index + 1)));
                        break;
                    }
                }
            }
        };
        for (c, &f) in record.failed.iter().enumerate() {
            let e = if c == 0 { sente } else { 1 - sente };
            if f {
                if let Some(mut eng) = slots[e].take() {
                    eng.kill();
                }
            }
        }
        if tx
            .send(Message::Done(FinishedGame {
                index,
                sente,
                record,
            }))
            .is_err()
        {
            break;
        }
    }
    for eng in slots.into_iter().flatten() {
        eng.quit(Duration::from_millis(1000));
    }
}

fn model_name(m: SprtModel) -> &'static str {
    match m {
        SprtModel::Trinomial => "trinomial",
        SprtModel::Pentanomial => "pentanomial",
    }
}

fn decision_name(d: SprtDecision) -> &'static str {
    match d {
        SprtDecision::Continue => "continue",
        SprtDecision::AcceptH0 => "H0 accepted",
        SprtDecision::AcceptH1 => "H1 accepted",
    }
}

fn fmt_elo(x: f64) -> String {
    // no "-0.0"
    let x = x + 0.0;
    if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{x:+.1}")
    }
}

fn fmt_wdl(w: &Wdl) -> String {
    format!("W {} D {} L {}", w.wins, w.draws, w.losses)
}

fn pct(x: Option<f64>) -> String {
    x.map_or("-".to_string(), |x| format!("{:.1}%", 100.0 * x))
}

/// The final summary, one line per figure.
pub fn summary_lines(s: &MatchSummary, cfg: &MatchConfig) -> Vec<String> {
    let [a, b] = &s.names;
    let n = s.first.games();
    let second = s.first.flipped();
    let mut out = vec![format!(
        "Results of {a} vs {b} ({}, {n} games):",
        cfg.variant
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
    match stats::elo_estimate(&s.first) {
        Some(e) => out.push(format!(
            "  Elo difference ({a} - {b}): {} +/- {}, 95% interval [{}, {}]",
            fmt_elo(e.elo),
            if e.margin.is_finite() {
                format!("{:.1}", e.margin)
            } else {
                "inf".into()
            },
            fmt_elo(e.lower),
            fmt_elo(e.upper)
        )),
        None => out.push("  Elo difference: no games".into()),
    }
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
    if let Some(cfg_sprt) = &cfg.sprt {
        let (lo, hi) = cfg_sprt.bounds();
        let (llr, d) = s.sprt.unwrap_or((0.0, SprtDecision::Continue));
        out.push(format!(
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
        ));
    }
    let reasons: Vec<String> = s
        .reasons
        .iter()
        .map(|(r, c)| format!("{} {c}", r.as_str()))
        .collect();
    out.push(format!("  Endings: {}", reasons.join(", ")));
    if let Some(e) = &s.error {
        out.push(format!("  The match stopped on an error: {e}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opening_lines() {
        let st = Shogi::START_SFEN;
        assert_eq!(parse_opening("  # x", st).unwrap(), None);
        assert_eq!(parse_opening("", st).unwrap(), None);
        let o = parse_opening("startpos moves 7g7f 3c3d", st)
            .unwrap()
            .unwrap();
        assert_eq!(o.sfen, st);
        assert_eq!(o.moves, vec!["7g7f", "3c3d"]);
        let o = parse_opening("position sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1", st)
            .unwrap()
            .unwrap();
        assert_eq!(o.sfen, "4k4/9/9/9/9/9/9/9/4K4 b G 1");
        assert!(o.moves.is_empty());
        let o = parse_opening("rbsgk/4p/5/P4/KGSBR b - 1 moves 1e1d", st)
            .unwrap()
            .unwrap();
        assert_eq!(o.sfen, "rbsgk/4p/5/P4/KGSBR b - 1");
        assert_eq!(o.moves, vec!["1e1d"]);
        assert!(parse_opening("moves 7g7f", st).is_err());
    }
}
