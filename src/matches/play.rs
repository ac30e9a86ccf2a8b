//! Playing one game between two USI engine processes: what only a live game adds to the [`Judge`] — each side's
//! [`TimeControl`], losses on time or by a hang, crashes, resignations and adjudication by the engines' scores.

use std::time::{Duration, Instant};

use crate::rules::piece::Color;
use crate::Variant;

use super::adjudication::info_score;
use crate::host::adjudication::{DrawRule, ResignRule};
use crate::host::engine_process::{EngineProcess, Failure, Polled};
use crate::host::judge::{Judge, JudgeError, Outcome, Reason};
use crate::host::records::RecordLine;
use crate::host::time_control::{go_command, TimeControl};

/// Limits of one game besides the time controls.
#[derive(Clone, Copy, Debug)]
pub struct GameLimits {
    /// Allowed lateness of a `bestmove` beyond the clock or the move time.
    pub tolerance: Duration,
    /// How long to wait for `bestmove` after `stop` before declaring the engine hung.
    pub stop_grace: Duration,
    /// How long a `go nodes` or `go depth` may take before the engine counts as hung.
    pub hang_timeout: Duration,
    /// A draw at this many plies (0: no limit).
    pub max_plies: usize,
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
}

impl GameLimits {
    /// `hayate match`'s defaults, which `hayate tune` plays under too.
    pub const TOLERANCE_MS: u64 = 200;
    pub const STOP_GRACE_MS: u64 = 1000;
    pub const HANG_TIMEOUT_MS: u64 = 60_000;
    pub const MAX_PLIES: usize = 512;

    /// The default limits with these adjudication rules.
    pub fn standard(resign: Option<ResignRule>, draw: Option<DrawRule>) -> GameLimits {
        GameLimits {
            tolerance: Duration::from_millis(Self::TOLERANCE_MS),
            stop_grace: Duration::from_millis(Self::STOP_GRACE_MS),
            hang_timeout: Duration::from_millis(Self::HANG_TIMEOUT_MS),
            max_plies: Self::MAX_PLIES,
            resign,
            draw,
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub start_sfen: String,
    pub moves: Vec<String>,
    /// Milliseconds each move took, None for the opening's moves.
    pub times_ms: Vec<Option<u64>>,
    pub outcome: Outcome,
    pub reason: Reason,
    /// Details for the progress line: the illegal move, the engine's last stderr lines after a crash, ...
    pub detail: String,
    /// Engines (by colour: sente, gote) that crashed or hung and must be restarted.
    pub failed: [bool; 2],
    /// When the game started (KIF's 開始日時).
    pub started: std::time::SystemTime,
}

impl GameRecord {
    /// The game's line in `games.txt`.
    pub fn line(&self) -> RecordLine {
        RecordLine {
            outcome: self.outcome,
            reason: self.reason,
            start_sfen: self.start_sfen.clone(),
            moves: self.moves.clone(),
        }
    }
}

/// A game in progress as it stands after a move, for whoever watches it.
pub struct Progress<'a> {
    pub start_sfen: &'a str,
    pub moves: &'a [String],
    /// Both clocks (ms left, sente's first) when an engine plays on one.
    pub clocks: Option<[u64; 2]>,
    /// One per move: the score its engine gave last before playing it, turned to sente's side (None for an
    /// opening move or a move without a score).
    pub scores: &'a [Option<i32>],
}

/// Told of a game's start and of each of its moves.
pub type OnMove<'a> = dyn FnMut(&Progress) + 'a;

/// What an engine answered to `go`.
enum Reply {
    /// The move, the time it took, the last score the engine gave.
    Move(String, Duration, Option<i32>),
    /// `bestmove` came only after `stop`.
    Late,
    Failed(Failure),
}

/// Sends the position and `go`, and reads until `bestmove` or `limit`; after `limit` sends `stop` and waits `grace`
/// more.
fn ask(
    engine: &mut EngineProcess,
    position: &str,
    go: &str,
    limit: Duration,
    grace: Duration,
) -> Reply {
    engine.send(position);
    // the clock starts before `go` is written: started after, a runner descheduled between the two would miss
    // part of the engine's thinking (a fake engine's 30 ms was once measured as 29)
    let start = Instant::now();
    engine.send(go);
    let deadline = start + limit;
    let mut score = None;
    loop {
        match engine.next_event(deadline) {
            Polled::Line(l, at) => {
                let mut words = l.split_whitespace();
                match words.next() {
                    Some("bestmove") => {
                        let mv = words.next().unwrap_or("").to_string();
                        return Reply::Move(mv, at.saturating_duration_since(start), score);
                    }
                    Some("info") => {
                        if let Some(x) = info_score(&l) {
                            score = Some(x);
                        }
                    }
                    _ => {}
                }
            }
            Polled::Eof => return Reply::Failed(Failure::Crash),
            Polled::Interrupted => return Reply::Failed(Failure::Interrupted),
            Polled::Timeout => break,
        }
    }
    engine.send("stop");
    match engine.wait_for("bestmove", Instant::now() + grace) {
        Ok(_) => Reply::Late,
        Err(f) => Reply::Failed(f),
    }
}

/// Why a game could not be played: the referee refused its start position or an opening move (in its words).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error("{0}")]
    Start(JudgeError),
    #[error("opening move {mv}: {why}")]
    OpeningMove { mv: String, why: JudgeError },
}

/// Plays one game from `start_sfen` and `opening` moves; `engines[0]` plays sente under `tcs[0]`, `engines[1]`
/// gote under `tcs[1]`. Both engines must be ready (after `usinewgame`). At the end every engine that still runs
/// gets `gameover`. Ok(None) when the match is being stopped: the game is abandoned, and the caller kills the
/// engines. `on_move` gets the game once before the first move and after each.
pub fn play_game<V: Variant>(
    engines: [&mut EngineProcess; 2],
    tcs: [TimeControl; 2],
    start_sfen: &str,
    opening: &[String],
    limits: &GameLimits,
    on_move: &mut OnMove<'_>,
) -> Result<Option<GameRecord>, PlayError> {
    let started = std::time::SystemTime::now();
    let mut judge = Judge::<V>::new(start_sfen).map_err(PlayError::Start)?;
    for m in opening {
        judge
            .play(m)
            .map_err(|why| PlayError::OpeningMove { mv: m.clone(), why })?;
    }
    let mut game = Playing {
        judge,
        tcs,
        clock: [tcs[0].base_ms(), tcs[1].base_ms()],
        has_clock: tcs.iter().any(TimeControl::has_clock),
        scores: [Vec::new(), Vec::new()],
        failed: [false; 2],
        detail: String::new(),
        times_ms: vec![None; opening.len()],
        move_scores: vec![None; opening.len()],
    };
    let [sente, gote] = engines;
    let mut engines = [sente, gote];
    on_move(&game.progress());
    let (outcome, reason) = loop {
        if let Some(end) = game.ending_before_move(limits) {
            break end;
        }
        let us = game.judge.side_to_move().index();
        match game.engine_move(engines[us], limits, on_move) {
            Step::Played => {}
            Step::End(outcome, reason) => break (outcome, reason),
            Step::Interrupted => return Ok(None),
        }
    };
    for c in Color::ALL {
        let e = &mut engines[c.index()];
        if game.failed[c.index()] {
            e.kill();
        } else if e.is_alive() {
            let word = match outcome.half_points(c) {
                2 => "win",
                1 => "draw",
                _ => "lose",
            };
            e.send(&format!("gameover {word}"));
        }
    }
    Ok(Some(GameRecord {
        start_sfen: game.judge.start_sfen().to_string(),
        moves: game.judge.moves().to_vec(),
        times_ms: game.times_ms,
        outcome,
        reason,
        detail: game.detail,
        failed: game.failed,
        started,
    }))
}

/// What one turn of the side to move came to.
enum Step {
    Played,
    End(Outcome, Reason),
    /// The match is being stopped.
    Interrupted,
}

/// A game being played: the referee and what only a live game adds to it.
struct Playing<V: Variant> {
    judge: Judge<V>,
    tcs: [TimeControl; 2],
    /// Milliseconds left, sente's first (`base_ms` for a control without a clock).
    clock: [u64; 2],
    has_clock: bool,
    /// Each side's score for each of its moves.
    scores: [Vec<Option<i32>>; 2],
    failed: [bool; 2],
    detail: String,
    times_ms: Vec<Option<u64>>,
    /// Each move's score from sente's side (None for the opening's).
    move_scores: Vec<Option<i32>>,
}

impl<V: Variant> Playing<V> {
    fn progress(&self) -> Progress<'_> {
        Progress {
            start_sfen: self.judge.start_sfen(),
            moves: self.judge.moves(),
            clocks: self.has_clock.then_some(self.clock),
            scores: &self.move_scores,
        }
    }

    /// The end of the game before the side to move is asked for a move: by the rules, the move limit or
    /// adjudication by the engines' scores.
    fn ending_before_move(&mut self, limits: &GameLimits) -> Option<(Outcome, Reason)> {
        let judge = &self.judge;
        if let Some(end) = judge.no_moves().or_else(|| judge.repetition()) {
            return Some(end);
        }
        if limits.max_plies > 0 && judge.plies() >= limits.max_plies {
            return Some((Outcome::Draw, Reason::MaxPlies));
        }
        let side = judge.side_to_move();
        let us = side.index();
        if let Some(r) = &limits.resign {
            if r.loses(&self.scores[us], &self.scores[1 - us]) {
                self.detail = format!(
                    "scores {:?} and {:?}",
                    last_scores(&self.scores[us], r.count),
                    last_scores(&self.scores[1 - us], r.count)
                );
                return Some((Outcome::win_for(!side), Reason::Adjudication));
            }
        }
        if let Some(d) = &limits.draw {
            if d.holds(judge.plies(), &self.scores[0], &self.scores[1]) {
                return Some((Outcome::Draw, Reason::DrawAdjudication));
            }
        }
        None
    }

    /// Asks the side to move's engine for its move and plays it: the time it took against its clock, a
    /// resignation, a declaration, or an illegal move end the game.
    fn engine_move(
        &mut self,
        engine: &mut EngineProcess,
        limits: &GameLimits,
        on_move: &mut OnMove<'_>,
    ) -> Step {
        let side = self.judge.side_to_move();
        let us = side.index();
        let lose = Outcome::win_for(!side);
        let (go, budget) = go_command(self.tcs, us, self.clock);
        let wait = match budget {
            Some(b) => b + limits.tolerance,
            None => limits.hang_timeout,
        };
        let reply = ask(
            engine,
            &self.judge.position_command(),
            &go,
            wait,
            limits.stop_grace,
        );
        let (mv, elapsed, score) = match reply {
            Reply::Move(mv, elapsed, score) => (mv, elapsed, score),
            Reply::Late => {
                return match budget {
                    Some(b) => {
                        self.detail = format!("no bestmove within {} ms", b.as_millis());
                        Step::End(lose, Reason::Time)
                    }
                    None => {
                        self.detail = format!(
                            "no bestmove within the hang timeout of {} ms (answered stop)",
                            limits.hang_timeout.as_millis()
                        );
                        Step::End(lose, Reason::Hang)
                    }
                }
            }
            Reply::Failed(Failure::Interrupted) => return Step::Interrupted,
            Reply::Failed(f) => {
                self.failed[us] = true;
                let tail = engine.stderr_tail();
                self.detail = if tail.is_empty() {
                    String::new()
                } else {
                    format!("stderr: {tail}")
                };
                let reason = if f == Failure::Crash {
                    Reason::Crash
                } else {
                    Reason::Hang
                };
                return Step::End(lose, reason);
            }
        };
        let ms = elapsed.as_millis() as u64;
        if let Some(b) = budget {
            if elapsed > b + limits.tolerance {
                self.detail = format!("{ms} ms used of {} ms", b.as_millis());
                return Step::End(lose, Reason::Time);
            }
        }
        if let TimeControl::Clock { inc_ms, .. } = self.tcs[us] {
            self.clock[us] = self.clock[us].saturating_sub(ms) + inc_ms;
        }
        self.scores[us].push(score);
        match mv.as_str() {
            "resign" => return Step::End(lose, Reason::Resign),
            "win" => {
                let (outcome, reason) = self.judge.declaration();
                if reason == Reason::FalseDeclaration {
                    self.detail = "bestmove win".into();
                }
                return Step::End(outcome, reason);
            }
            _ => {}
        }
        match self.judge.play(&mv) {
            Ok(end) => {
                self.times_ms.push(Some(ms));
                self.move_scores
                    .push(score.map(|cp| if us == 0 { cp } else { -cp }));
                on_move(&self.progress());
                match end {
                    Some((outcome, reason)) => Step::End(outcome, reason),
                    None => Step::Played,
                }
            }
            Err(e) => {
                self.detail = if mv.is_empty() {
                    "bestmove without a move".into()
                } else {
                    e.to_string()
                };
                Step::End(lose, Reason::Illegal)
            }
        }
    }
}

fn last_scores(s: &[Option<i32>], n: usize) -> Vec<i32> {
    s[s.len().saturating_sub(n)..]
        .iter()
        .flatten()
        .copied()
        .collect()
}
