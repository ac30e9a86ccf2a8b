//! Playing one game between two USI engine processes: what only a live game adds to the [`Judge`] — each side's
//! [`TimeControl`], losses on time or by a hang, crashes, resignations and adjudication by the engines' scores.

use std::time::{Duration, Instant};

use crate::rules::piece::Color;
use crate::Variant;

use super::adjudication::{info_score, DrawRule, ResignRule};
use super::engine::{Engine, Failure, Polled};
use super::judge::{Judge, Outcome, Reason};
use super::time_control::{go_command, TimeControl};

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
fn ask(engine: &mut Engine, position: &str, go: &str, limit: Duration, grace: Duration) -> Reply {
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

/// Plays one game from `start_sfen` and `opening` moves; `engines[0]` plays sente under `tcs[0]`, `engines[1]`
/// gote under `tcs[1]`. Both engines must be ready (after `usinewgame`). At the end every engine that still runs
/// gets `gameover`. Ok(None) when the match is being stopped: the game is abandoned, and the caller kills the
/// engines. `on_move` gets the game once before the first move and after each.
pub fn play_game<V: Variant>(
    engines: [&mut Engine; 2],
    tcs: [TimeControl; 2],
    start_sfen: &str,
    opening: &[String],
    limits: &GameLimits,
    on_move: &mut OnMove<'_>,
) -> Result<Option<GameRecord>, String> {
    let started = std::time::SystemTime::now();
    let mut judge = Judge::<V>::new(start_sfen)?;
    for m in opening {
        judge
            .play(m)
            .map_err(|e| format!("opening move {m}: {e}"))?;
    }
    let mut times_ms = vec![None; opening.len()];
    let [sente, gote] = engines;
    let mut engines = [sente, gote];
    let mut clock = [tcs[0].base_ms(), tcs[1].base_ms()];
    // each side's score for each of its moves
    let mut scores: [Vec<Option<i32>>; 2] = [Vec::new(), Vec::new()];
    let mut failed = [false; 2];
    let mut detail = String::new();
    let has_clock = tcs.iter().any(TimeControl::has_clock);
    let mut move_scores: Vec<Option<i32>> = vec![None; opening.len()];
    on_move(&Progress {
        start_sfen: judge.start_sfen(),
        moves: judge.moves(),
        clocks: has_clock.then_some(clock),
        scores: &move_scores,
    });
    let (outcome, reason) = loop {
        if let Some(end) = judge.no_moves() {
            break end;
        }
        if let Some(end) = judge.repetition() {
            break end;
        }
        if limits.max_plies > 0 && judge.plies() >= limits.max_plies {
            break (Outcome::Draw, Reason::MaxPlies);
        }
        let side = judge.side_to_move();
        let us = side.index();
        let lose = Outcome::win_for(!side);
        if let Some(r) = &limits.resign {
            if r.loses(&scores[us], &scores[1 - us]) {
                detail = format!(
                    "scores {:?} and {:?}",
                    last_scores(&scores[us], r.count),
                    last_scores(&scores[1 - us], r.count)
                );
                break (lose, Reason::Adjudication);
            }
        }
        if let Some(d) = &limits.draw {
            if d.holds(judge.plies(), &scores[0], &scores[1]) {
                break (Outcome::Draw, Reason::DrawAdjudication);
            }
        }
        let (go, budget) = go_command(tcs, us, clock);
        let wait = match budget {
            Some(b) => b + limits.tolerance,
            None => limits.hang_timeout,
        };
        let reply = ask(
            engines[us],
            &judge.position_command(),
            &go,
            wait,
            limits.stop_grace,
        );
        let (mv, elapsed, score) = match reply {
            Reply::Move(mv, elapsed, score) => (mv, elapsed, score),
            Reply::Late => match budget {
                Some(b) => {
                    detail = format!("no bestmove within {} ms", b.as_millis());
                    break (lose, Reason::Time);
                }
                None => {
                    detail = format!(
                        "no bestmove within the hang timeout of {} ms (answered stop)",
                        limits.hang_timeout.as_millis()
                    );
                    break (lose, Reason::Hang);
                }
            },
            Reply::Failed(Failure::Interrupted) => return Ok(None),
            Reply::Failed(f) => {
                failed[us] = true;
                let tail = engines[us].stderr_tail();
                detail = if tail.is_empty() {
                    String::new()
                } else {
                    format!("stderr: {tail}")
                };
                break (
                    lose,
                    if f == Failure::Crash {
                        Reason::Crash
                    } else {
                        Reason::Hang
                    },
                );
            }
        };
        let ms = elapsed.as_millis() as u64;
        if let Some(b) = budget {
            if elapsed > b + limits.tolerance {
                detail = format!("{ms} ms used of {} ms", b.as_millis());
                break (lose, Reason::Time);
            }
        }
        if let TimeControl::Clock { inc_ms, .. } = tcs[us] {
            clock[us] = clock[us].saturating_sub(ms) + inc_ms;
        }
        scores[us].push(score);
        match mv.as_str() {
            "resign" => break (lose, Reason::Resign),
            "win" => {
                let end = judge.declaration();
                if end.1 == Reason::FalseDeclaration {
                    detail = "bestmove win".into();
                }
                break end;
            }
            _ => {}
        }
        match judge.play(&mv) {
            Ok(end) => {
                times_ms.push(Some(ms));
                move_scores.push(score.map(|cp| if us == 0 { cp } else { -cp }));
                on_move(&Progress {
                    start_sfen: judge.start_sfen(),
                    moves: judge.moves(),
                    clocks: has_clock.then_some(clock),
                    scores: &move_scores,
                });
                if let Some(end) = end {
                    break end;
                }
            }
            Err(e) => {
                detail = if mv.is_empty() {
                    "bestmove without a move".into()
                } else {
                    e
                };
                break (lose, Reason::Illegal);
            }
        }
    };
    for c in Color::ALL {
        let e = &mut engines[c.index()];
        if failed[c.index()] {
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
        start_sfen: judge.start_sfen().to_string(),
        moves: judge.moves().to_vec(),
        times_ms,
        outcome,
        reason,
        detail,
        failed,
        started,
    }))
}

fn last_scores(s: &[Option<i32>], n: usize) -> Vec<i32> {
    s[s.len().saturating_sub(n)..]
        .iter()
        .flatten()
        .copied()
        .collect()
}
