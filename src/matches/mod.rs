//! `hayate match`: engine-versus-engine matches between two USI engines, in any of the three games.
//!
//! - Engines ([`engine`]) are separate processes driven over USI: `usi`/`usiok`, `USI_Variant` and `UCI_Variant`
//!   (for minishogi and Yari shogi; for shogi only when listed), the `option.<Name>=<value>` options,
//!   `isready`/`readyok`; per game `isready`/`readyok` and `usinewgame`; per move `position sfen <start> moves ...`
//!   and a `go` for the engine's time control ([`game::TimeControl`]: clocks with both sides' real remaining
//!   times, `movetime`, `nodes`, `depth`); `gameover win|lose|draw` at the end of a game; `quit` (then a kill) at
//!   the end of the match. Every read has a deadline; stderr is read and dropped.
//! - Concurrency: `--concurrency C` worker threads each own one process of each engine and reuse them for all
//!   their games; an engine that crashed or hung (or failed `isready` before a game) is killed and started afresh
//!   for the worker's next game.
//! - Games come in pairs from the same opening with colours swapped: game `2k + 1` (1-based, odd) has the first
//!   engine as sente, game `2k + 2` the second engine. Pair `k` uses file opening `k` (cycling), followed by
//!   `--random-plies` random legal plies ([`openings`]).
//! - Judging ([`game`]): every move is checked with Hayate's rules core; see [`game::Reason`] for the endings,
//!   and [`adjudication`] for `--resign` and `--draw`.
//! - Statistics ([`stats`]): W-D-L, score, logistic Elo with its 95% interval, LOS, draw ratio, pair
//!   (pentanomial) counts and the SPRT — trinomial by default, `model=pentanomial` optional (fastchess's GSPRT,
//!   logistic Elo). When the SPRT decides, no new game starts; games already running finish and count.
//! - Records ([`record`]): `--out DIR` gets `games.txt`, one line per game in game order, and for standard shogi
//!   one CSA file per game, `0001.csa` and on.
//! - Stopping ([`interrupt`]): on SIGINT or SIGTERM no new game starts, the running games are abandoned (their
//!   engines killed), and the summary of the finished games is printed.

pub mod adjudication;
pub mod engine;
pub mod game;
pub mod interrupt;
pub mod openings;
pub mod record;
pub mod stats;

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::Write;
use std::path::PathBuf;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Mutex;
use std::time::Duration;

use crate::rules::piece::Color;
use crate::{with_variant, GameKind, Position, Variant};

use engine::{Engine, EngineSpec, Failure, StartError};
use game::{GameLimits, GameRecord, Judge, Outcome, Reason, TimeControl};
pub use openings::{parse_opening, Opening};
use record::RecordLine;
use stats::{Penta, SprtConfig, SprtDecision, SprtModel, Wdl};

/// The record file inside `--out`.
pub const GAMES_FILE: &str = "games.txt";

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: [EngineSpec; 2],
    /// Each engine's time control: its own `tc=`, or the match's `--tc`.
    pub tcs: [TimeControl; 2],
    /// `shogi`, `minishogi` or `yarishogi`.
    pub variant: GameKind,
    pub games: usize,
    pub concurrency: usize,
    pub limits: GameLimits,
    /// Opening lines: `[position] (startpos | [sfen] <sfen>) [moves ...]`; empty: the start position.
    pub openings: Vec<String>,
    /// Random legal plies played after each opening.
    pub random_plies: usize,
    /// The seed of the random plies.
    pub seed: u64,
    /// The directory for `games.txt` and the CSA files.
    pub out_dir: Option<PathBuf>,
    pub sprt: Option<SprtConfig>,
    /// For starting an engine and for each `isready` before a game.
    pub ready_timeout: Duration,
}

/// Where a match writes: finished lines, and (on a terminal) a progress bar kept below them.
pub trait Report: Sync {
    /// A line of progress or of the summary.
    fn line(&self, text: &str);
    /// The progress bar's new text; None takes it away.
    fn progress(&self, _bar: Option<&str>) {}
}

impl<F: Fn(&str) + Sync> Report for F {
    fn line(&self, text: &str) {
        self(text)
    }
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
    /// The signal that stopped the match, if one did.
    pub interrupted: Option<i32>,
}

enum Message {
    Done(FinishedGame),
    Error(String),
}

/// Plays a match, printing progress and the summary through `report`; Err for a configuration that cannot start
/// (bad openings, an engine that does not start). An error during the match stops it and is reported in the
/// summary's `error`.
pub fn run_match(cfg: &MatchConfig, report: &dyn Report) -> Result<MatchSummary, String> {
    with_variant!(cfg.variant, V => run_generic::<V>(cfg, report))
}

/// Checks a record file for the game `variant`; returns the number of games.
pub fn verify_records(variant: GameKind, text: &str, max_plies: usize) -> Result<usize, String> {
    with_variant!(variant, V => record::verify_file::<V>(text, max_plies))
}

fn start_engine<V: Variant>(
    spec: &EngineSpec,
    label: &str,
    cfg: &MatchConfig,
) -> Result<Engine, StartError> {
    Engine::start(spec, V::KIND, label, cfg.ready_timeout)
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

fn run_generic<V: Variant>(cfg: &MatchConfig, report: &dyn Report) -> Result<MatchSummary, String> {
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
    // the first pair's opening now, so that impossible random plies fail the match before it starts
    openings::with_random_plies::<V>(&openings[0], cfg.random_plies, cfg.seed, 0)?;
    let mut out_file = None;
    if let Some(dir) = &cfg.out_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let p = dir.join(GAMES_FILE);
        out_file =
            Some(File::create(&p).map_err(|e| format!("cannot create {}: {e}", p.display()))?);
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
    let concurrency = cfg.concurrency.clamp(1, cfg.games);
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
    report.line(&format!(
        "Match {} vs {}: {}, {} games, {}, tolerance {} ms, concurrency {}, {}{}",
        names[0],
        names[1],
        V::NAME,
        cfg.games,
        describe_tcs(cfg, &names),
        cfg.limits.tolerance.as_millis(),
        concurrency,
        describe_openings(cfg, openings.len()),
        extras.iter().map(|e| format!(", {e}")).collect::<String>()
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
    let sprt_cfg = cfg.sprt.as_ref();
    report.progress(Some(&progress_bar(&summary, cfg.games, sprt_cfg)));
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
        loop {
            if interrupt::requested() && summary.interrupted.is_none() {
                // the workers see the flag too and abandon their games
                summary.interrupted = Some(interrupt::signal());
                stop = true;
                job_tx = None;
                report.progress(Some(&progress_bar(&summary, cfg.games, sprt_cfg)));
            }
            let msg = match rx.recv_timeout(interrupt::POLL) {
                Ok(m) => m,
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => continue,
            };
            let g = match msg {
                Message::Done(g) => g,
                Message::Error(e) => {
                    report.line(&format!("error: {e}"));
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
            if let (Some(sprt), false) = (sprt_cfg, sprt_done) {
                let llr = sprt.llr(&summary.first, &summary.penta);
                summary.sprt = Some((llr, sprt.decide(llr)));
                summary.sprt_games = summary.first.games();
            }
            let line = RecordLine {
                outcome: rec.outcome,
                reason: rec.reason,
                start_sfen: rec.start_sfen.clone(),
                moves: rec.moves.clone(),
            };
            report.line(&format!(
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
                standing(&summary, sprt_cfg)
            ));
            if let Some(dir) = &cfg.out_dir {
                let n = [names[g.sente].as_str(), names[1 - g.sente].as_str()];
                if let Some(text) = record::csa_text::<V>(&line, n, &rec.times_ms) {
                    let path = dir.join(format!("{:04}.csa", g.index + 1));
                    if let Err(e) = std::fs::write(&path, text) {
                        report.line(&format!("warning: cannot write {}: {e}", path.display()));
                    }
                }
            }
            pending_lines.insert(g.index, line.format());
            while let Some(l) = pending_lines.remove(&next_line) {
                if let Some(file) = out_file.as_mut() {
                    if let Err(e) = writeln!(file, "{l}").and_then(|_| file.flush()) {
                        report.line(&format!("warning: cannot write the record: {e}"));
                    }
                }
                next_line += 1;
            }
            if let (Some((llr, decision)), false) = (summary.sprt, sprt_done) {
                if decision != SprtDecision::Continue {
                    sprt_done = true;
                    report.line(&format!(
                        "SPRT: {} after {} games (LLR {:.2}); no new games start",
                        decision_name(decision),
                        summary.first.games(),
                        llr
                    ));
                    stop = true;
                }
            }
            summary.games.push(g);
            report.progress(Some(&progress_bar(&summary, cfg.games, sprt_cfg)));
            if stop || dispatched >= cfg.games {
                job_tx = None;
            } else if let Some(j) = &job_tx {
                let _ = j.send(dispatched);
                dispatched += 1;
            }
        }
        // records of games after a gap (an abandoned game) still go out
        for (_, l) in pending_lines {
            if let Some(file) = out_file.as_mut() {
                let _ = writeln!(file, "{l}");
            }
        }
    });
    if summary.interrupted.is_none() && interrupt::requested() {
        summary.interrupted = Some(interrupt::signal());
    }
    report.progress(None);
    summary.games.sort_by_key(|g| g.index);
    for l in summary_lines(&summary, cfg) {
        report.line(&l);
    }
    Ok(summary)
}

/// Readies both engines of a worker for a new game, restarting those that died or do not answer. Returns, per
/// engine, why it could not be made ready; Err to stop the worker (the match is being stopped, or an engine cannot
/// even be spawned).
fn ready_engines<V: Variant>(
    w: usize,
    slots: &mut [Option<Engine>; 2],
    cfg: &MatchConfig,
    names: &[String; 2],
) -> Result<[Option<(Failure, String)>; 2], Option<String>> {
    let mut failure: [Option<(Failure, String)>; 2] = [None, None];
    for e in 0..2 {
        let label = format!("{}[{w}]", names[e]);
        if let Some(eng) = slots[e].as_mut() {
            match eng.new_game(cfg.ready_timeout) {
                Ok(()) if eng.is_alive() => {}
                Err(Failure::Interrupted) => return Err(None),
                _ => {
                    eng.kill();
                    slots[e] = None;
                }
            }
        }
        if slots[e].is_none() {
            match start_engine::<V>(&cfg.engines[e], &label, cfg) {
                Ok(mut eng) => match eng.new_game(cfg.ready_timeout) {
                    Ok(()) => slots[e] = Some(eng),
                    Err(Failure::Interrupted) => return Err(None),
                    Err(f) => {
                        eng.kill();
                        failure[e] = Some((f, "no readyok before the game".into()));
                    }
                },
                Err(StartError::Handshake(Failure::Interrupted)) => return Err(None),
                Err(StartError::Handshake(f)) => failure[e] = Some((f, "failed to start".into())),
                Err(err @ StartError::Spawn(_)) => {
                    return Err(Some(format!("{}: {err}", names[e])))
                }
            }
        }
    }
    Ok(failure)
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
        if interrupt::requested() {
            break;
        }
        let pair = index / 2;
        let opening = match openings::with_random_plies::<V>(
            &openings[pair % openings.len()],
            cfg.random_plies,
            cfg.seed,
            pair,
        ) {
            Ok(o) => o,
            Err(e) => {
                let _ = tx.send(Message::Error(format!("game {}: {e}", index + 1)));
                break;
            }
        };
        let sente = index % 2;
        let failure = match ready_engines::<V>(w, &mut slots, cfg, names) {
            Ok(f) => f,
            Err(None) => break,
            Err(Some(e)) => {
                let _ = tx.send(Message::Error(e));
                break;
            }
        };
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
                    times_ms: vec![None; opening.moves.len()],
                    outcome: Outcome::win_for(!loser_colour),
                    reason: if *f == Failure::Crash {
                        Reason::Crash
                    } else {
                        Reason::Hang
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
                let (engines, tcs) = if sente == 0 {
                    ([e0, e1], cfg.tcs)
                } else {
                    ([e1, e0], [cfg.tcs[1], cfg.tcs[0]])
                };
                match game::play_game::<V>(engines, tcs, &opening.sfen, &opening.moves, &cfg.limits)
                {
                    Ok(Some(r)) => r,
                    Ok(None) => break,
                    Err(e) => {
                        let _ = tx.send(Message::Error(format!("game {}: {e}", index + 1)));
                        break;
                    }
                }
            }
        };
        // an engine killed by the same Ctrl-C as the host looks crashed: such a game is abandoned, not counted
        if interrupt::requested() && matches!(record.reason, Reason::Crash | Reason::Hang) {
            break;
        }
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
    if let Some(sig) = s.interrupted {
        out.push(format!(
            "  Interrupted (signal {sig}) after {n} of {} games; unfinished games were abandoned",
            cfg.games
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
