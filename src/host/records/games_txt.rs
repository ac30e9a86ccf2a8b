//! The record line of `games.txt`: `<result> <reason> sfen <start> moves <m1> <m2> ...`.

use crate::host::judge::{Outcome, Reason};
use crate::rules::truncate;

/// Why a record line was refused; the line or word quoted is cut to 40 characters.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordLineError {
    #[error("not a record line: '{0}'")]
    NotARecordLine(String),
    #[error("a record line needs the word 'moves'")]
    NoMovesWord,
    #[error("no SFEN in '{0}'")]
    NoSfen(String),
    #[error("unknown result '{0}'")]
    UnknownResult(String),
    #[error("unknown reason '{0}'")]
    UnknownReason(String),
}

impl RecordLineError {
    /// The result and reason words of a record line read.
    pub(super) fn ending(result: &str, reason: &str) -> Result<(Outcome, Reason), RecordLineError> {
        let outcome = Outcome::parse(result)
            .ok_or_else(|| RecordLineError::UnknownResult(truncate(result)))?;
        let reason = Reason::parse(reason)
            .ok_or_else(|| RecordLineError::UnknownReason(truncate(reason)))?;
        Ok((outcome, reason))
    }
}

/// One game of a record file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordLine {
    pub outcome: Outcome,
    pub reason: Reason,
    pub start_sfen: String,
    pub moves: Vec<String>,
}

impl RecordLine {
    pub fn format(&self) -> String {
        let mut s = format!(
            "{} {} sfen {} moves",
            self.outcome.as_str(),
            self.reason.as_str(),
            self.start_sfen
        );
        for m in &self.moves {
            s.push(' ');
            s.push_str(m);
        }
        s
    }

    pub fn parse(line: &str) -> Result<Self, RecordLineError> {
        let (result, reason, start_sfen, moves) = split_line(line)?;
        let (outcome, reason) = RecordLineError::ending(result, reason)?;
        Ok(RecordLine {
            outcome,
            reason,
            start_sfen,
            moves,
        })
    }
}

/// A record line's result and reason words, start SFEN and moves, the two words unchecked.
#[allow(clippy::type_complexity)]
pub(super) fn split_line(line: &str) -> Result<(&str, &str, String, Vec<String>), RecordLineError> {
    let w: Vec<&str> = line.split_whitespace().collect();
    if w.len() < 7 || w[2] != "sfen" {
        return Err(RecordLineError::NotARecordLine(truncate(line)));
    }
    let moves_at = w
        .iter()
        .position(|&x| x == "moves")
        .ok_or(RecordLineError::NoMovesWord)?;
    if moves_at < 4 {
        return Err(RecordLineError::NoSfen(truncate(line)));
    }
    Ok((
        w[0],
        w[1],
        w[3..moves_at].join(" "),
        w[moves_at + 1..].iter().map(|s| s.to_string()).collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_round_trip() {
        let line = "0-1 checkmate sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves \
                    2g2f 3c3d";
        let r = RecordLine::parse(line).unwrap();
        assert_eq!(r.outcome, Outcome::WhiteWins);
        assert_eq!(r.reason, Reason::Checkmate);
        assert_eq!(r.moves, vec!["2g2f", "3c3d"]);
        assert_eq!(
            r.format(),
            line.split_whitespace().collect::<Vec<_>>().join(" ")
        );
        let empty = "1-0 resign sfen rbsgk/4p/5/P4/KGSBR w - 1 moves";
        let r = RecordLine::parse(empty).unwrap();
        assert!(r.moves.is_empty());
        assert_eq!(r.format(), empty);
        assert!(RecordLine::parse("1-0 bogus sfen x b - 1 moves").is_err());
        assert!(RecordLine::parse("2-0 resign sfen x b - 1 moves").is_err());
    }
}
