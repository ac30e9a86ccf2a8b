//! Playing and judging one game between two USI engines.
//!
//! The [`Judge`] applies Hayate's own rules core to every move: legality, checkmate (or no legal move), the
//! fourth occurrence of a position (with perpetual check and minishogi's sente-loses rule), the entering-king
//! declaration (CSA rule, 28 points as sente and 27 as gote, 9×9 only) and a maximum number of plies. The same
//! judge replays records (see `record.rs`). [`play_game`] adds what only a live game has: each side's
//! [`TimeControl`], losses on time or by a hang, and adjudication by the engines' scores.

use std::time::{Duration, Instant};

use crate::rules::piece::Color;
use crate::rules::variant::RepetitionRule;
use crate::{EnteringKingRule, Position, Variant};

use super::adjudication::{info_score, DrawRule, ResignRule};
use super::engine::{Engine, Failure, Polled};

/// A game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    BlackWins,
    WhiteWins,
    Draw,
}

impl Outcome {
    /// `1-0` (sente wins), `0-1` (gote wins) or `1/2-1/2`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::BlackWins => "1-0",
            Outcome::WhiteWins => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }
    pub fn parse(s: &str) -> Option<Outcome> {
        Some(match s {
            "1-0" => Outcome::BlackWins,
            "0-1" => Outcome::WhiteWins,
            "1/2-1/2" => Outcome::Draw,
            _ => return None,
        })
    }
    /// The win of colour `c`.
    pub fn win_for(c: Color) -> Outcome {
        match c {
            Color::Black => Outcome::BlackWins,
            Color::White => Outcome::WhiteWins,
        }
    }
    /// Points of colour `c`, doubled: 2 for a win, 1 for a draw, 0 for a loss.
    pub fn half_points(self, c: Color) -> u32 {
        match self {
            Outcome::Draw => 1,
            o if o == Outcome::win_for(c) => 2,
            _ => 0,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reason {
    /// The side to move is in check with no legal move.
    Checkmate,
    /// The side to move has no legal move without being in check (a loss in shogi).
    NoMoves,
    Resign,
    /// The engine played an illegal or malformed move.
    Illegal,
    /// The engine answered, but only after its time (plus the tolerance) ran out.
    Time,
    /// The engine did not answer within its time plus the tolerance, nor soon after `stop`.
    Hang,
    /// The engine process exited.
    Crash,
    /// Fourth occurrence of a position without perpetual check: a draw, or in minishogi a loss for sente.
    Repetition,
    /// Fourth occurrence of a position, one side having given check with every move since the first: it loses.
    Perpetual,
    /// A correct entering-king declaration (`bestmove win`).
    Declaration,
    /// `bestmove win` when the declaration conditions do not hold.
    FalseDeclaration,
    /// The game reached the maximum number of plies: a draw.
    MaxPlies,
    /// Both engines' scores agreed that the side to move is lost (`--resign`).
    Adjudication,
    /// Both engines' scores stayed close to zero (`--draw`).
    DrawAdjudication,
}

impl Reason {
    pub const ALL: [Reason; 14] = [
        Reason::Checkmate,
        Reason::NoMoves,
        Reason::Resign,
        Reason::Illegal,
        Reason::Time,
        Reason::Hang,
        Reason::Crash,
        Reason::Repetition,
        Reason::Perpetual,
        Reason::Declaration,
        Reason::FalseDeclaration,
        Reason::MaxPlies,
        Reason::Adjudication,
        Reason::DrawAdjudication,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::NoMoves => "nomoves",
            Reason::Resign => "resign",
            Reason::Illegal => "illegal",
            Reason::Time => "time",
            Reason::Hang => "hang",
            Reason::Crash => "crash",
            Reason::Repetition => "repetition",
            Reason::Perpetual => "perpetual",
            Reason::Declaration => "declaration",
            Reason::FalseDeclaration => "false-declaration",
            Reason::MaxPlies => "maxplies",
            Reason::Adjudication => "adjudication",
            Reason::DrawAdjudication => "draw-adjudication",
        }
    }
    pub fn parse(s: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.as_str() == s)
    }
}

/// A time control, all times in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A clock: main time, then a Fischer increment or a byoyomi per move (not both). `byoyomi=<b>`,
    /// `<base>+<inc>`, `<base>` (sudden death) or `<base>/byoyomi=<b>`.
    Clock {
        base_ms: u64,
        inc_ms: u64,
        byoyomi_ms: u64,
    },
    /// `movetime=<ms>`: `go movetime`, a fixed time for every move.
    MoveTime(u64),
    /// `nodes=<n>`: `go nodes`, no clock.
    Nodes(u64),
    /// `depth=<n>`: `go depth`, no clock.
    Depth(u32),
}

impl TimeControl {
    /// Parses one of `byoyomi=<ms>`, `<base>+<inc>`, `<base>`, `<base>/byoyomi=<ms>`, `movetime=<ms>`,
    /// `nodes=<n>`, `depth=<n>`.
    pub fn parse(spec: &str) -> Result<Self, String> {
        let s = spec.trim();
        let num = |x: &str, what: &str| -> Result<u64, String> {
            x.trim()
                .parse::<u64>()
                .ok()
                .filter(|&v| v <= 1_000_000_000_000)
                .ok_or_else(|| format!("'{spec}': '{x}' is not a whole number of {what}"))
        };
        let positive = |v: u64, what: &str| -> Result<u64, String> {
            if v == 0 {
                Err(format!("'{spec}': the {what} must be above 0"))
            } else {
                Ok(v)
            }
        };
        if let Some(v) = s.strip_prefix("movetime=") {
            return Ok(TimeControl::MoveTime(positive(
                num(v, "milliseconds")?,
                "move time",
            )?));
        }
        if let Some(v) = s.strip_prefix("nodes=") {
            return Ok(TimeControl::Nodes(positive(
                num(v, "nodes")?,
                "node count",
            )?));
        }
        if let Some(v) = s.strip_prefix("depth=") {
            let d = positive(num(v, "plies")?, "depth")?;
            return u32::try_from(d)
                .ok()
                .filter(|&d| d <= 1000)
                .map(TimeControl::Depth)
                .ok_or_else(|| format!("'{spec}': depth {d} is too deep"));
        }
        let (base_ms, inc_ms, byoyomi_ms) = if let Some(v) = s.strip_prefix("byoyomi=") {
            (0, 0, num(v, "milliseconds")?)
        } else {
            let (clock, byoyomi) = match s.split_once('/') {
                Some((c, b)) => {
                    let b = b.strip_prefix("byoyomi=").ok_or_else(|| {
                        format!("'{spec}': after '/' only byoyomi=<ms> may follow")
                    })?;
                    (c, num(b, "milliseconds")?)
                }
                None => (s, 0),
            };
            let (base, inc) = match clock.split_once('+') {
                Some((b, i)) => (num(b, "milliseconds")?, num(i, "milliseconds")?),
                None => (num(clock, "milliseconds")?, 0),
            };
            if inc > 0 && byoyomi > 0 {
                return Err(format!(
                    "'{spec}': an increment and a byoyomi together are not supported"
                ));
            }
            (base, inc, byoyomi)
        };
        if base_ms == 0 && inc_ms == 0 && byoyomi_ms == 0 {
            return Err(format!("'{spec}': the time control gives no time"));
        }
        Ok(TimeControl::Clock {
            base_ms,
            inc_ms,
            byoyomi_ms,
        })
    }

    /// Whether the engine keeps a clock (main time that carries over between moves).
    pub fn has_clock(&self) -> bool {
        matches!(self, TimeControl::Clock { .. })
    }

    /// The main time at the start of a game (0 without a clock).
    pub fn base_ms(&self) -> u64 {
        match *self {
            TimeControl::Clock { base_ms, .. } => base_ms,
            _ => 0,
        }
    }

    pub fn describe(&self) -> String {
        match *self {
            TimeControl::Clock {
                base_ms,
                inc_ms,
                byoyomi_ms,
            } => match (base_ms, inc_ms, byoyomi_ms) {
                (0, 0, b) => format!("byoyomi {b} ms"),
                (t, 0, 0) => format!("{t} ms sudden death"),
                (t, 0, b) => format!("{t} ms + byoyomi {b} ms"),
                (t, i, _) => format!("{t} ms + {i} ms per move"),
            },
            TimeControl::MoveTime(t) => format!("movetime {t} ms"),
            TimeControl::Nodes(n) => format!("nodes {n}"),
            TimeControl::Depth(d) => format!("depth {d}"),
        }
    }
}

/// The position after every move of a game, with what the rules need to judge it.
pub struct Judge<V: Variant> {
    pos: Position<V>,
    start_sfen: String,
    moves: Vec<String>,
    /// Board, side and hands (the SFEN without its move number) of every position of the game, the start first.
    seen: Vec<String>,
    /// Whether the side to move was in check, for every position of the game.
    checked: Vec<bool>,
}

fn identity<V: Variant>(p: &Position<V>) -> String {
    let s = p.to_sfen();
    match s.rsplit_once(' ') {
        Some((head, _)) => head.to_string(),
        None => s,
    }
}

impl<V: Variant> Judge<V> {
    /// Starts from an SFEN; the start SFEN is kept normalised (with its move number).
    pub fn new(sfen: &str) -> Result<Self, String> {
        let pos = Position::<V>::from_sfen(sfen).map_err(|e| format!("bad SFEN '{sfen}': {e}"))?;
        Ok(Judge {
            start_sfen: pos.to_sfen(),
            seen: vec![identity(&pos)],
            checked: vec![pos.in_check()],
            pos,
            moves: Vec::new(),
        })
    }

    pub fn position(&self) -> &Position<V> {
        &self.pos
    }
    pub fn start_sfen(&self) -> &str {
        &self.start_sfen
    }
    pub fn moves(&self) -> &[String] {
        &self.moves
    }
    pub fn plies(&self) -> usize {
        self.moves.len()
    }
    pub fn side_to_move(&self) -> Color {
        self.pos.side_to_move()
    }

    /// `position sfen <start> moves ...` for the engines.
    pub fn position_command(&self) -> String {
        let mut s = format!("position sfen {} moves", self.start_sfen);
        for m in &self.moves {
            s.push(' ');
            s.push_str(m);
        }
        s
    }

    /// Whether the side to move is out of moves: checkmate or no legal move, a loss either way.
    pub fn no_moves(&self) -> Option<(Outcome, Reason)> {
        if self.pos.has_legal_move() {
            return None;
        }
        let reason = if self.pos.in_check() {
            Reason::Checkmate
        } else {
            Reason::NoMoves
        };
        Some((Outcome::win_for(!self.pos.side_to_move()), reason))
    }

    /// Plays a USI move if it is legal here (Err otherwise, the position unchanged) and judges repetition: the
    /// fourth occurrence of the position ends the game.
    pub fn play(&mut self, usi: &str) -> Result<Option<(Outcome, Reason)>, String> {
        let m = self.pos.parse_move(usi).map_err(|e| e.to_string())?;
        self.pos.do_move(m);
        self.moves.push(usi.to_string());
        self.seen.push(identity(&self.pos));
        self.checked.push(self.pos.in_check());
        Ok(self.repetition())
    }

    /// The result of the current position's fourth occurrence, if it is one.
    pub fn repetition(&self) -> Option<(Outcome, Reason)> {
        let now = self.seen.len() - 1;
        let current = &self.seen[now];
        let occurrences: Vec<usize> = (0..=now).filter(|&i| &self.seen[i] == current).collect();
        if occurrences.len() < 4 {
            return None;
        }
        let first = occurrences[0];
        // move i leads from position i to i + 1 and gave check when position i + 1 is in check; the side to move
        // now also moved first after the first occurrence
        let mover = self.pos.side_to_move();
        let all_checks = |from: usize| (from..now).step_by(2).all(|i| self.checked[i + 1]);
        if all_checks(first + 1) {
            return Some((Outcome::win_for(mover), Reason::Perpetual));
        }
        if all_checks(first) {
            return Some((Outcome::win_for(!mover), Reason::Perpetual));
        }
        Some(match V::REPETITION {
            RepetitionRule::Draw => (Outcome::Draw, Reason::Repetition),
            RepetitionRule::BlackLoses => (Outcome::WhiteWins, Reason::Repetition),
        })
    }

    /// Judges `bestmove win` by the side to move: a win when the CSA 27-point declaration holds (9×9 only),
    /// otherwise a loss.
    pub fn declaration(&self) -> (Outcome, Reason) {
        let side = self.pos.side_to_move();
        if self.pos.can_declare(EnteringKingRule::Csa27) {
            (Outcome::win_for(side), Reason::Declaration)
        } else {
            (Outcome::win_for(!side), Reason::FalseDeclaration)
        }
    }
}

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
}

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
    engine.send(go);
    let start = Instant::now();
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

/// The `go` command for the side `us` (0 sente, 1 gote) under the time controls `tcs` (by colour) and the
/// remaining main times `clock` (by colour), and how long its answer may take (None: no clock, the hang timeout
/// applies).
///
/// An engine on a clock gets both sides' remaining times; when the opponent has no clock (move time, nodes,
/// depth), the engine's own time and increment stand in for the opponent's, the figures it would see in a game
/// against itself.
fn go_command(tcs: [TimeControl; 2], us: usize, clock: [u64; 2]) -> (String, Option<Duration>) {
    match tcs[us] {
        TimeControl::Clock {
            inc_ms, byoyomi_ms, ..
        } => {
            let them = 1 - us;
            let (their_time, their_inc) = match tcs[them] {
                TimeControl::Clock { inc_ms: i, .. } => (clock[them], i),
                _ => (clock[us], inc_ms),
            };
            let mut time = [0; 2];
            let mut inc = [0; 2];
            time[us] = clock[us];
            inc[us] = inc_ms;
            time[them] = their_time;
            inc[them] = their_inc;
            let go = if byoyomi_ms > 0 {
                format!(
                    "go btime {} wtime {} byoyomi {byoyomi_ms}",
                    time[0], time[1]
                )
            } else {
                format!(
                    "go btime {} wtime {} binc {} winc {}",
                    time[0], time[1], inc[0], inc[1]
                )
            };
            (go, Some(Duration::from_millis(clock[us] + byoyomi_ms)))
        }
        TimeControl::MoveTime(t) => (format!("go movetime {t}"), Some(Duration::from_millis(t))),
        TimeControl::Nodes(n) => (format!("go nodes {n}"), None),
        TimeControl::Depth(d) => (format!("go depth {d}"), None),
    }
}

/// Plays one game from `start_sfen` and `opening` moves; `engines[0]` plays sente under `tcs[0]`, `engines[1]`
/// gote under `tcs[1]`. Both engines must be ready (after `usinewgame`). At the end every engine that still runs
/// gets `gameover`. Ok(None) when the match is being stopped: the game is abandoned, and the caller kills the
/// engines.
pub fn play_game<V: Variant>(
    engines: [&mut Engine; 2],
    tcs: [TimeControl; 2],
    start_sfen: &str,
    opening: &[String],
    limits: &GameLimits,
) -> Result<Option<GameRecord>, String> {
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
    }))
}

fn last_scores(s: &[Option<i32>], n: usize) -> Vec<i32> {
    s[s.len().saturating_sub(n)..]
        .iter()
        .flatten()
        .copied()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Minishogi, Shogi};

    fn play_all<V: Variant>(j: &mut Judge<V>, moves: &str) -> Option<(Outcome, Reason)> {
        let mut last = None;
        for m in moves.split_whitespace() {
            assert!(last.is_none(), "game ended before {m}");
            last = j.play(m).unwrap();
        }
        last
    }

    #[test]
    fn fourth_occurrence_draws_in_shogi() {
        let mut j = Judge::<Shogi>::new(Shogi::START_SFEN).unwrap();
        let cycle = "2h3h 8b7b 3h2h 7b8b ";
        // after two cycles the start position occurred three times: no result yet
        assert_eq!(play_all(&mut j, &cycle.repeat(2)), None);
        assert_eq!(
            play_all(&mut j, cycle),
            Some((Outcome::Draw, Reason::Repetition))
        );
        assert_eq!(j.plies(), 12);
    }

    #[test]
    fn minishogi_repetition_loses_for_sente() {
        let mut j = Judge::<Minishogi>::new(Minishogi::START_SFEN).unwrap();
        let cycle = "1e1d 5a5b 1d1e 5b5a ";
        assert_eq!(
            play_all(&mut j, &cycle.repeat(3)),
            Some((Outcome::WhiteWins, Reason::Repetition))
        );
    }

    #[test]
    fn perpetual_check_loses() {
        let mut j = Judge::<Shogi>::new("4k4/R8/9/9/9/9/9/9/4K4 b - 1").unwrap();
        let cycle = "9b9a 5a5b 9a9b 5b5a ";
        assert_eq!(
            play_all(&mut j, &cycle.repeat(3)),
            Some((Outcome::WhiteWins, Reason::Perpetual))
        );
        // the checking side is gote: it loses
        let mut j = Judge::<Shogi>::new("4k4/9/9/9/9/9/9/8r/4K4 w - 1").unwrap();
        let cycle = "1h1i 5i5h 1i1h 5h5i ";
        assert_eq!(
            play_all(&mut j, &cycle.repeat(3)),
            Some((Outcome::BlackWins, Reason::Perpetual))
        );
    }

    #[test]
    fn declarations() {
        let j = Judge::<Shogi>::new("RBGGKSS2/LL7/NN7/9/9/9/9/9/4k4 b 10P 1").unwrap();
        assert_eq!(j.declaration(), (Outcome::BlackWins, Reason::Declaration));
        // one point short
        let j = Judge::<Shogi>::new("RBGGKSS2/LL7/NN7/9/9/9/9/9/4k4 b 9P 1").unwrap();
        assert_eq!(
            j.declaration(),
            (Outcome::WhiteWins, Reason::FalseDeclaration)
        );
        let j = Judge::<Shogi>::new(Shogi::START_SFEN).unwrap();
        assert_eq!(
            j.declaration(),
            (Outcome::WhiteWins, Reason::FalseDeclaration)
        );
        let j = Judge::<Minishogi>::new(Minishogi::START_SFEN).unwrap();
        assert_eq!(
            j.declaration(),
            (Outcome::WhiteWins, Reason::FalseDeclaration)
        );
    }

    #[test]
    fn mate_and_illegal() {
        let mut j = Judge::<Shogi>::new("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
        assert!(j.play("5i5i").is_err());
        assert!(j.play("G*9a").is_ok());
        // the pawn on 5c guards 5b
        assert!(j.play("5a5b").is_err());
        assert!(j.play("5a4a").is_ok());
        let mut j = Judge::<Shogi>::new("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
        assert_eq!(j.play("G*5b").unwrap(), None);
        assert_eq!(j.no_moves(), Some((Outcome::BlackWins, Reason::Checkmate)));
    }

    #[test]
    fn time_controls() {
        let clock = |b, i, y| TimeControl::Clock {
            base_ms: b,
            inc_ms: i,
            byoyomi_ms: y,
        };
        let p = |s: &str| TimeControl::parse(s);
        assert_eq!(p("byoyomi=100"), Ok(clock(0, 0, 100)));
        assert_eq!(p("10000+100"), Ok(clock(10_000, 100, 0)));
        assert_eq!(p("0+100"), Ok(clock(0, 100, 0)));
        assert_eq!(p("60000"), Ok(clock(60_000, 0, 0)));
        assert_eq!(p("60000/byoyomi=1000"), Ok(clock(60_000, 0, 1000)));
        assert_eq!(p("movetime=250"), Ok(TimeControl::MoveTime(250)));
        assert_eq!(p("nodes=20000"), Ok(TimeControl::Nodes(20_000)));
        assert_eq!(p("depth=6"), Ok(TimeControl::Depth(6)));
        for bad in [
            "0",
            "0+0",
            "byoyomi=0",
            "1000+10/byoyomi=100",
            "1000/100",
            "10.5+1",
            "x+1",
            "movetime=0",
            "nodes=",
            "depth=0",
            "depth=99999",
            "nodes=-3",
            "",
        ] {
            assert!(p(bad).is_err(), "{bad}");
        }
        assert_eq!(clock(0, 0, 100).describe(), "byoyomi 100 ms");
        assert_eq!(
            clock(10_000, 100, 0).describe(),
            "10000 ms + 100 ms per move"
        );
        assert_eq!(clock(60_000, 0, 0).describe(), "60000 ms sudden death");
        assert_eq!(
            clock(60_000, 0, 1000).describe(),
            "60000 ms + byoyomi 1000 ms"
        );
        assert_eq!(TimeControl::Nodes(5).describe(), "nodes 5");
    }

    #[test]
    fn go_commands() {
        let byo = TimeControl::Clock {
            base_ms: 1000,
            inc_ms: 0,
            byoyomi_ms: 200,
        };
        let fischer = TimeControl::Clock {
            base_ms: 5000,
            inc_ms: 50,
            byoyomi_ms: 0,
        };
        let ms = Duration::from_millis;
        assert_eq!(
            go_command([byo, byo], 1, [700, 300]),
            ("go btime 700 wtime 300 byoyomi 200".into(), Some(ms(500)))
        );
        // mixed clocks: each side's real remaining time and its own increment
        assert_eq!(
            go_command([fischer, byo], 0, [4000, 300]),
            (
                "go btime 4000 wtime 300 binc 50 winc 0".into(),
                Some(ms(4000))
            )
        );
        assert_eq!(
            go_command([fischer, byo], 1, [4000, 300]),
            ("go btime 4000 wtime 300 byoyomi 200".into(), Some(ms(500)))
        );
        // an opponent without a clock: our own figures stand in for it
        assert_eq!(
            go_command([TimeControl::Nodes(100), fischer], 1, [0, 4000]),
            (
                "go btime 4000 wtime 4000 binc 50 winc 50".into(),
                Some(ms(4000))
            )
        );
        assert_eq!(
            go_command([TimeControl::Nodes(100), fischer], 0, [0, 4000]),
            ("go nodes 100".into(), None)
        );
        assert_eq!(
            go_command(
                [TimeControl::Depth(3), TimeControl::MoveTime(80)],
                1,
                [0, 0]
            ),
            ("go movetime 80".into(), Some(ms(80)))
        );
        assert_eq!(
            go_command(
                [TimeControl::Depth(3), TimeControl::MoveTime(80)],
                0,
                [0, 0]
            ),
            ("go depth 3".into(), None)
        );
    }
}
