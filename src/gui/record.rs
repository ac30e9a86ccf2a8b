//! The game on the page: where it started and the moves since, judged by the match referee
//! ([`Judge`]) so that the page, `hayate match` and the record files agree on every rule and every ending.

use crate::host::judge::{Judge, JudgeError, Outcome, Reason};
use crate::rules::moves::Move;
use crate::rules::notation::japanese::{has_japanese_names, ki2_names};
use crate::rules::piece::Color;
use crate::rules::position::notation::move_to_usi;
use crate::rules::position::sfen::square_name;
use crate::rules::position::sfen::SfenError;
use crate::{with_variant, GameKind, Position, Variant};

/// A finished game: who won and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    pub outcome: Outcome,
    pub reason: Reason,
}

/// Why the rules refused a game or a move: the start is no position of the game, the game is already over, or
/// the move is not legal where it is played (the referee's own error).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("bad SFEN for {kind}: {error}")]
    Start { kind: GameKind, error: SfenError },
    #[error("the game is over")]
    Over,
    #[error(transparent)]
    Move(#[from] JudgeError),
}

/// One game: its start, its moves and, once over, its ending.
#[derive(Clone, Debug)]
pub struct Record {
    pub kind: GameKind,
    pub start_sfen: String,
    pub moves: Vec<String>,
    /// Set by the rules (mate, repetition) or from outside (time, resignation, a crashed engine).
    pub ending: Option<Ending>,
}

/// What the page needs to draw the position and offer its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    pub sfen: String,
    pub legal: Vec<String>,
    /// The square of the king in check, USI notation.
    pub check: Option<String>,
}

impl Record {
    /// A game from an SFEN of `kind`'s board (`None`: the start position), checked by the rules core.
    pub fn new(kind: GameKind, sfen: Option<&str>) -> Result<Record, RecordError> {
        let start_sfen = with_variant!(kind, V => {
            match sfen {
                None => Position::<V>::startpos().to_sfen(),
                Some(s) => parse::<V>(s)
                    .map_err(|error| RecordError::Start { kind, error })?
                    .to_sfen(),
            }
        });
        let mut rec = Record {
            kind,
            start_sfen,
            moves: Vec::new(),
            ending: None,
        };
        rec.ending = rec.judge_end();
        Ok(rec)
    }

    /// The same game with `moves` played, or the first illegal one's error (`self` is not changed).
    pub fn with_moves<'a>(
        &self,
        moves: impl IntoIterator<Item = &'a str>,
    ) -> Result<Record, RecordError> {
        self.with_moves_read(moves, |m, _| Ok(m.to_string()))
    }

    /// The same game with `moves` played, each first read into USI by `to_usi` (which may ask whether a USI
    /// move is legal where it is played), or the first bad one's error (`self` is not changed): `to_usi`'s own,
    /// or the rules' in the caller's error type. The moves are played on one referee, so an import is linear in
    /// the game's length: playing them one by one with [`Record::play`] replays the game before each.
    pub fn with_moves_read<'a, E: From<RecordError>>(
        &self,
        moves: impl IntoIterator<Item = &'a str>,
        to_usi: impl Fn(&str, &dyn Fn(&str) -> bool) -> Result<String, E>,
    ) -> Result<Record, E> {
        let mut rec = self.clone();
        with_variant!(self.kind, V => {
            let mut judge = self.replay::<V>();
            for m in moves {
                if rec.ending.is_some() {
                    return Err(RecordError::Over.into());
                }
                let usi = {
                    let legal = |u: &str| judge.position().parse_move(u).is_ok();
                    to_usi(m, &legal)?
                };
                let ending = judge.play(&usi).map_err(RecordError::Move)?.or_else(|| judge.no_moves());
                rec.moves.push(usi);
                rec.ending = ending.map(|(outcome, reason)| Ending { outcome, reason });
            }
        });
        Ok(rec)
    }

    /// Plays one USI move if the game is on and the move is legal; otherwise an error and nothing changes.
    pub fn play(&mut self, usi: &str) -> Result<(), RecordError> {
        if self.ending.is_some() {
            return Err(RecordError::Over);
        }
        let ending = with_variant!(self.kind, V => {
            let mut judge = self.replay::<V>();
            let rep = judge.play(usi)?;
            rep.or_else(|| judge.no_moves())
        });
        self.moves.push(usi.to_string());
        self.ending = ending.map(|(outcome, reason)| Ending { outcome, reason });
        Ok(())
    }

    /// Takes back the last `n` moves (all there are when fewer); the game is on again unless the rules end it.
    pub fn take_back(&mut self, n: usize) {
        let keep = self.moves.len().saturating_sub(n);
        self.moves.truncate(keep);
        self.ending = self.judge_end();
    }

    /// Sente to move?
    pub fn black_to_move(&self) -> bool {
        // the start SFEN's side and the parity of the moves since
        let start_black = self.start_sfen.split_whitespace().nth(1) == Some("b");
        start_black == self.moves.len().is_multiple_of(2)
    }

    /// `position sfen <start> moves ...` for an engine.
    pub fn position_command(&self) -> String {
        let mut s = format!("position sfen {} moves", self.start_sfen);
        for m in &self.moves {
            s.push(' ');
            s.push_str(m);
        }
        s
    }

    pub fn view(&self) -> View {
        with_variant!(self.kind, V => {
            let judge = self.replay::<V>();
            let pos = judge.position();
            let legal = if self.ending.is_some() {
                Vec::new()
            } else {
                pos.legal_moves().iter().map(|&m| move_to_usi::<V>(m)).collect()
            };
            let check = pos
                .in_check()
                .then(|| square_name::<V>(pos.king(pos.side_to_move())));
            View { sfen: pos.to_sfen(), legal, check }
        })
    }

    /// Whether both sides have a king: engines play and analyse only such positions; a tsume problem may lack
    /// the attacker's king, and then only `go mate` searches it.
    pub fn has_both_kings(&self) -> bool {
        with_variant!(self.kind, V => {
            let judge = self.replay::<V>();
            Color::ALL.iter().all(|&c| judge.position().has_king(c))
        })
    }

    /// Judges `bestmove win` by the side to move (the CSA declaration rule of the match referee).
    pub fn declaration(&self) -> (Outcome, Reason) {
        with_variant!(self.kind, V => self.replay::<V>().declaration())
    }

    /// The SFEN after the moves.
    pub fn sfen(&self) -> String {
        with_variant!(self.kind, V => self.replay::<V>().position().to_sfen())
    }

    /// The moves' Japanese names (`▲７六歩`, `△同　銀`); none for Yari shogi, which has no such notation.
    pub fn japanese_moves(&self) -> Vec<String> {
        self.japanese(&[]).0
    }

    /// The Japanese names of `line` (USI moves from the position after the game's moves, such as a PV), as far
    /// as they are legal; none for Yari shogi.
    pub fn japanese_line(&self, line: &[String]) -> Vec<String> {
        self.japanese(line).1
    }

    /// The names of the game's moves and of `line` after them.
    fn japanese(&self, line: &[String]) -> (Vec<String>, Vec<String>) {
        if !has_japanese_names(self.kind) {
            return (Vec::new(), Vec::new());
        }
        with_variant!(self.kind, V => {
            let Ok(mut pos) = parse::<V>(&self.start_sfen) else {
                return (Vec::new(), Vec::new());
            };
            let start = pos.clone();
            let mut played: Vec<Move> = Vec::new();
            for m in self.moves.iter().chain(line) {
                let Ok(mv) = pos.parse_move(m) else { break };
                played.push(mv);
                pos.do_move(mv);
            }
            let n = self.moves.len().min(played.len());
            let mut pos = start;
            let game = ki2_names(&mut pos, &played[..n], None);
            for &m in &played[..n] {
                pos.do_move(m);
            }
            let last_to = played[..n].last().map(|m| m.to());
            let line = ki2_names(&mut pos, &played[n..], last_to);
            (game, line)
        })
    }

    fn judge_end(&self) -> Option<Ending> {
        with_variant!(self.kind, V => {
            let judge = self.replay::<V>();
            judge
                .repetition()
                .or_else(|| judge.no_moves())
                .map(|(outcome, reason)| Ending { outcome, reason })
        })
    }

    /// The referee after every move; the moves were checked when they were played.
    fn replay<V: Variant>(&self) -> Judge<V> {
        // Both the start SFEN and every move were accepted by the rules core before they got here, so a
        // failure is a bug in this module; it is logged and the position stops at the last good move.
        let pos = parse::<V>(&self.start_sfen).unwrap_or_else(|e| {
            log::error!("gui: stored start position rejected: {e}");
            Position::<V>::startpos()
        });
        let mut judge = Judge::from_position(pos);
        for m in &self.moves {
            if let Err(e) = judge.play(m) {
                log::error!("gui: stored move rejected: {e}");
                break;
            }
        }
        judge
    }
}

/// A position of the rules, or a tsume problem without the attacker's king (the plain parse's error is kept).
fn parse<V: Variant>(sfen: &str) -> Result<Position<V>, SfenError> {
    Position::<V>::from_sfen(sfen).or_else(|e| Position::<V>::from_tsume_sfen(sfen).map_err(|_| e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_takes_back_and_ends_by_mate() {
        let mut r = Record::new(GameKind::Shogi, Some("4k4/9/4P4/9/9/9/9/9/4K4 b G 1")).unwrap();
        assert!(r.play("5i5i").is_err());
        assert!(r.moves.is_empty());
        r.play("G*5b").unwrap();
        assert_eq!(r.ending.map(|e| e.reason), Some(Reason::Checkmate));
        assert_eq!(r.view().check.as_deref(), Some("5a"));
        assert!(r.view().legal.is_empty());
        assert!(r.play("5a4a").is_err());
        r.take_back(1);
        assert_eq!(r.ending, None);
        assert_eq!(r.view().sfen, "4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    }
}
