//! The judge of one game: the position after every move, judged with Hayate's own rules core — legality,
//! checkmate (or no legal move), the fourth occurrence of a position (with perpetual check and minishogi's
//! sente-loses rule), the entering-king declaration (CSA rule, 28 points as sente and 27 as gote, 9×9 only). The
//! same judge checks a match's openings and live games (`matches::play`), replayed records ([`super::records`])
//! and the game on the web GUI's page (`gui::record`).

use std::collections::HashMap;

use crate::rules::notation::kif::Ending;
use crate::rules::piece::Color;
use crate::rules::position::notation::MoveError;
use crate::rules::position::sfen::SfenError;
use crate::rules::position::Repetition;
use crate::{EnteringKingRule, Position, Variant};

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

    /// The ending as KIF and KI2 write it, `to_move` being the side to move when the game ended. KIF has no
    /// words for a hang or a crash: they are 中断, as CSA's `%CHUDAN`; a drawn ply limit or adjudication is 持将棋,
    /// as CSA's `%JISHOGI`; an adjudicated loss is a resignation.
    pub fn kif_ending(self, outcome: Outcome, to_move: Color) -> Ending {
        match self {
            Reason::Checkmate | Reason::NoMoves => Ending::Mate,
            Reason::Resign | Reason::Adjudication => Ending::Resign,
            Reason::Illegal | Reason::FalseDeclaration => Ending::IllegalLoss,
            Reason::Perpetual if outcome == Outcome::win_for(to_move) => Ending::IllegalWin,
            Reason::Perpetual => Ending::IllegalLoss,
            Reason::Time => Ending::TimeUp,
            Reason::Hang | Reason::Crash => Ending::Interrupted,
            Reason::Repetition => Ending::Repetition,
            Reason::Declaration => Ending::Declaration,
            Reason::MaxPlies | Reason::DrawAdjudication => Ending::Impasse,
        }
    }
}

/// How many occurrences of a position end a game.
const REPETITIONS: usize = 4;

/// Why a game could not be judged: its start is no legal SFEN, or a move is not legal where it is played (the
/// move's own error).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JudgeError {
    #[error("bad SFEN '{sfen}': {error}")]
    Start { sfen: String, error: SfenError },
    #[error(transparent)]
    Move(#[from] MoveError),
}

/// The position after every move of a game (its history holds what the repetition rule needs).
pub struct Judge<V: Variant> {
    pos: Position<V>,
    start_sfen: String,
    moves: Vec<String>,
    /// How often each position (its key) has occurred: the history is scanned for a repetition only when
    /// the current one has occurred often enough, so that judging a game stays linear in its length.
    occurrences: HashMap<u64, u32>,
}

impl<V: Variant> Judge<V> {
    /// Starts from an SFEN; the start SFEN is kept normalised (with its move number).
    pub fn new(sfen: &str) -> Result<Self, JudgeError> {
        let pos = Position::<V>::from_sfen(sfen).map_err(|error| JudgeError::Start {
            sfen: sfen.to_string(),
            error,
        })?;
        Ok(Judge::from_position(pos))
    }

    /// Starts from a position already read and checked (a tsume problem, whose attacker may have no king).
    pub fn from_position(pos: Position<V>) -> Self {
        Judge {
            start_sfen: pos.to_sfen(),
            occurrences: HashMap::from([(pos.key(), 1)]),
            pos,
            moves: Vec::new(),
        }
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
    pub fn play(&mut self, usi: &str) -> Result<Option<(Outcome, Reason)>, JudgeError> {
        let m = self.pos.parse_move(usi)?;
        self.pos.do_move(m);
        self.moves.push(usi.to_string());
        *self.occurrences.entry(self.pos.key()).or_insert(0) += 1;
        Ok(self.repetition())
    }

    /// The result of the current position's fourth occurrence, if it is one.
    pub fn repetition(&self) -> Option<(Outcome, Reason)> {
        if self.occurrences.get(&self.pos.key()).copied().unwrap_or(0) < REPETITIONS as u32 {
            return None;
        }
        // the whole game counts: a match has no null moves
        let verdict = self.pos.repetition_verdict(REPETITIONS, usize::MAX)?;
        let mover = self.pos.side_to_move();
        let outcome = match verdict.result {
            Repetition::Win => Outcome::win_for(mover),
            Repetition::Loss => Outcome::win_for(!mover),
            Repetition::Draw | Repetition::None => Outcome::Draw,
        };
        let reason = if verdict.perpetual {
            Reason::Perpetual
        } else {
            Reason::Repetition
        };
        Some((outcome, reason))
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
}
