//! Playing and judging one game between two USI engines.
//!
//! The [`Judge`] applies Hayate's own rules core to every move: legality, checkmate (or no legal move), the
//! fourth occurrence of a position (with perpetual check and minishogi's sente-loses rule), the entering-king
//! declaration (CSA rule, 28 points as sente and 27 as gote, 9×9 only) and a maximum number of plies. The same
//! judge replays records (see `record.rs`).

use std::time::{Duration, Instant};

use crate::piece::Color;
use crate::variant::RepetitionRule;
use crate::{Position, Variant};

use super::engine::{Engine, Event, Failure};

/// Points needed for the CSA 27-point entering-king declaration: as sente, as gote.
pub const CSA27_POINTS: (u32, u32) = (28, 27);

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
}

impl Reason {
    pub const ALL: [Reason; 12] = [
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
        }
    }
    pub fn parse(s: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.as_str() == s)
    }
}

/// The time control: main time, increment (Fischer) or byoyomi, all in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TimeControl {
    pub base_ms: u64,
    pub inc_ms: u64,
    pub byoyomi_ms: u64,
}

impl TimeControl {
    /// From `--tc <base>+<inc>` (seconds, decimals allowed; `+<inc>` optional) and `--byoyomi <ms>`.
    pub fn from_args(tc: Option<&str>, byoyomi_ms: Option<u64>) -> Result<Self, String> {
        let mut t = TimeControl {
            byoyomi_ms: byoyomi_ms.unwrap_or(0),
            ..Default::default()
        };
        if let Some(s) = tc {
            let secs = |x: &str| -> Result<u64, String> {
                let v: f64 = x
                    .trim()
                    .parse()
                    .map_err(|_| format!("--tc: '{x}' is not a number of seconds"))?;
                if !(0.0..=1e7).contains(&v) {
                    return Err(format!("--tc: {x} seconds is out of range"));
                }
                Ok((v * 1000.0).round() as u64)
            };
            let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
            t.base_ms = secs(base)?;
            t.inc_ms = secs(inc)?;
        }
        if t.inc_ms > 0 && t.byoyomi_ms > 0 {
            return Err("an increment and a byoyomi together are not supported".into());
        }
        if t.base_ms == 0 && t.inc_ms == 0 && t.byoyomi_ms == 0 {
            return Err(
                "the time control gives no time: use --tc <base>+<inc> or --byoyomi <ms>".into(),
            );
        }
        Ok(t)
    }

    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.base_ms > 0 || self.byoyomi_ms == 0 {
            parts.push(format!("{} s", self.base_ms as f64 / 1000.0));
        }
        if self.inc_ms > 0 {
            parts.push(format!("{} s increment", self.inc_ms as f64 / 1000.0));
        }
        if self.byoyomi_ms > 0 {
            parts.push(format!("byoyomi {} ms", self.byoyomi_ms));
        }
        parts.join(" + ")
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
        let (b, w) = CSA27_POINTS;
        if V::ENTERING_KING && self.pos.can_declare(b, w) {
            (Outcome::win_for(side), Reason::Declaration)
        } else {
            (Outcome::win_for(!side), Reason::FalseDeclaration)
        }
    }
}

/// Limits of one game besides the clock.
#[derive(Clone, Copy, Debug)]
pub struct GameLimits {
    pub tc: TimeControl,
    /// Allowed lateness of a `bestmove` beyond the clock.
    pub tolerance: Duration,
    /// How long to wait for `bestmove` after `stop` before declaring the engine hung.
    pub stop_grace: Duration,
    /// A draw at this many plies (0: no limit).
    pub max_plies: usize,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub start_sfen: String,
    pub moves: Vec<String>,
    pub outcome: Outcome,
    pub reason: Reason,
    /// Details for the progress line: the illegal move, the engine's last stderr lines after a crash, ...
    pub detail: String,
    /// Engines (by colour: sente, gote) that crashed or hung and must be restarted.
    pub failed: [bool; 2],
}

/// What an engine answered to `go`.
enum Reply {
    Move(String, Duration),
    /// `bestmove` came only after `stop` (late).
    Late,
    Failed(Failure),
}

fn ask(engine: &mut Engine, position: &str, go: &str, limit: Duration, grace: Duration) -> Reply {
    engine.send(position);
    engine.send(go);
    let start = Instant::now();
    let deadline = start + limit;
    loop {
        match engine.next_event(deadline) {
            Some(Event::Line(l, at)) => {
                let mut words = l.split_whitespace();
                if words.next() == Some("bestmove") {
                    let mv = words.next().unwrap_or("").to_string();
                    return Reply::Move(mv, at.saturating_duration_since(start));
                }
            }
            Some(Event::Eof) => return Reply::Failed(Failure::Crash),
            None => break,
        }
    }
    engine.send("stop");
    match engine.wait_for("bestmove", Instant::now() + grace) {
        Ok(_) => Reply::Late,
        Err(f) => Reply::Failed(f),
    }
}

/// Plays one game from `start_sfen` and `opening` moves; `engines[0]` plays sente, `engines[1]` gote. Both engines
/// must be ready (after `usinewgame`). At the end every engine that still runs gets `gameover`.
pub fn play_game<V: Variant>(
    engines: [&mut Engine; 2],
    start_sfen: &str,
    opening: &[String],
    limits: &GameLimits,
) -> Result<GameRecord, String> {
    let mut judge = Judge::<V>::new(start_sfen)?;
    for m in opening {
        judge
            .play(m)
            .map_err(|e| format!("opening move {m}: {e}"))?;
    }
    let [sente, gote] = engines;
    let mut engines = [sente, gote];
    let tc = limits.tc;
    let mut clock = [tc.base_ms; 2];
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
        let mut go = format!("go btime {} wtime {}", clock[0], clock[1]);
        if tc.byoyomi_ms > 0 {
            go.push_str(&format!(" byoyomi {}", tc.byoyomi_ms));
        } else {
            go.push_str(&format!(" binc {} winc {}", tc.inc_ms, tc.inc_ms));
        }
        let budget = Duration::from_millis(clock[us] + tc.byoyomi_ms);
        let reply = ask(
            engines[us],
            &judge.position_command(),
            &go,
            budget + limits.tolerance,
            limits.stop_grace,
        );
        let lose = Outcome::win_for(!side);
        let (mv, elapsed) = match reply {
            Reply::Move(mv, elapsed) => (mv, elapsed),
            Reply::Late => {
                detail = format!("no bestmove within {} ms", budget.as_millis());
                break (lose, Reason::Time);
            }
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
                    match f {
                        Failure::Crash => Reason::Crash,
                        Failure::Hang => Reason::Hang,
                    },
                );
            }
        };
        let ms = elapsed.as_millis() as u64;
        if elapsed > budget + limits.tolerance {
            detail = format!("{ms} ms used of {} ms", budget.as_millis());
            break (lose, Reason::Time);
        }
        clock[us] = clock[us].saturating_sub(ms) + tc.inc_ms;
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
            Ok(Some(end)) => break end,
            Ok(None) => {}
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
    Ok(GameRecord {
        start_sfen: judge.start_sfen().to_string(),
        moves: judge.moves().to_vec(),
        outcome,
        reason,
        detail,
        failed,
    })
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
        let t = TimeControl::from_args(Some("10+0.1"), None).unwrap();
        assert_eq!((t.base_ms, t.inc_ms, t.byoyomi_ms), (10_000, 100, 0));
        let t = TimeControl::from_args(None, Some(100)).unwrap();
        assert_eq!((t.base_ms, t.inc_ms, t.byoyomi_ms), (0, 0, 100));
        let t = TimeControl::from_args(Some("60"), Some(1000)).unwrap();
        assert_eq!((t.base_ms, t.inc_ms, t.byoyomi_ms), (60_000, 0, 1000));
        assert!(TimeControl::from_args(Some("1+1"), Some(100)).is_err());
        assert!(TimeControl::from_args(Some("0+0"), None).is_err());
        assert!(TimeControl::from_args(Some("x+1"), None).is_err());
        assert!(TimeControl::from_args(None, None).is_err());
    }
}
