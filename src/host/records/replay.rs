//! Replaying a record with the rules core, to check that it is a game that was played by the rules and ended
//! as it says (`hayate match --verify`, and every record a match writes, in the tests).

use super::games_txt::RecordLineError;
use super::RecordLine;
use crate::host::judge::{Judge, Outcome, Reason};
use crate::Variant;

/// Why a record is not a game played by the rules to the end it states.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    #[error("{0}")]
    Start(String),
    #[error("the game was over ({end:?}) before move {ply} ({mv})")]
    OverBefore {
        end: (Outcome, Reason),
        ply: usize,
        mv: String,
    },
    #[error("move {ply} ({mv}): {why}")]
    Illegal { ply: usize, mv: String, why: String },
    #[error("the game ended ({end:?}) at move {ply}, before the last")]
    EndedEarly { end: (Outcome, Reason), ply: usize },
    #[error("the record says {} {} but {what} gives {found:?}", .stated.0.as_str(), .stated.1.as_str())]
    Disagrees {
        stated: (Outcome, Reason),
        what: &'static str,
        found: Option<(Outcome, Reason)>,
    },
    #[error("a maxplies game must be a draw of at least {0} plies")]
    ShortMaxPlies(usize),
    #[error("a draw adjudication must be a draw")]
    AdjudicatedNotDrawn,
    #[error("the final position had already ended the game: {0:?}")]
    AlreadyEnded((Outcome, Reason)),
}

/// A line of a record file that is not a record line, or not a game by the rules; `line` counts from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordFileError {
    #[error("line {line}: {error}")]
    Line { line: usize, error: RecordLineError },
    #[error("line {line}: {error}")]
    Replay { line: usize, error: ReplayError },
}

/// Replays a record with the rules core and checks that every move is legal, that the game did not end before
/// its last move, and that the result and reason agree with the final position wherever the position decides
/// them (mate, repetition, declaration, the maximum plies); for a loss by resignation, adjudication, illegal move,
/// time, hang or crash, that the loser is the side to move; that a draw adjudication is a draw. `max_plies` 0 skips the check of the ply count of `maxplies` games.
pub fn verify<V: Variant>(rec: &RecordLine, max_plies: usize) -> Result<(), ReplayError> {
    let mut judge =
        Judge::<V>::new(&rec.start_sfen).map_err(|e| ReplayError::Start(e.to_string()))?;
    let n = rec.moves.len();
    for (i, m) in rec.moves.iter().enumerate() {
        if let Some(end) = judge.no_moves() {
            return Err(ReplayError::OverBefore {
                end,
                ply: i + 1,
                mv: m.clone(),
            });
        }
        let end = judge.play(m).map_err(|e| ReplayError::Illegal {
            ply: i + 1,
            mv: m.clone(),
            why: e.to_string(),
        })?;
        if let Some(end) = end.filter(|_| i + 1 < n) {
            return Err(ReplayError::EndedEarly { end, ply: i + 1 });
        }
    }
    let expected = (rec.outcome, rec.reason);
    let side = judge.side_to_move();
    let mate = judge.no_moves();
    let rep = judge.repetition();
    let check = |found: Option<(Outcome, Reason)>, what: &'static str| {
        if found == Some(expected) {
            Ok(())
        } else {
            Err(ReplayError::Disagrees {
                stated: expected,
                what,
                found,
            })
        }
    };
    match rec.reason {
        Reason::Checkmate | Reason::NoMoves => check(mate, "the final position"),
        Reason::Repetition | Reason::Perpetual => check(rep, "the repetition rule"),
        Reason::Declaration | Reason::FalseDeclaration => {
            check(Some(judge.declaration()), "the declaration rule")?;
            no_end(mate, rep)
        }
        Reason::MaxPlies => {
            if rec.outcome != Outcome::Draw || (max_plies > 0 && n < max_plies) {
                return Err(ReplayError::ShortMaxPlies(max_plies));
            }
            no_end(mate, rep)
        }
        Reason::DrawAdjudication => {
            if rec.outcome != Outcome::Draw {
                return Err(ReplayError::AdjudicatedNotDrawn);
            }
            no_end(mate, rep)
        }
        // the host adjudicates a loss only for the side to move, as a resignation
        Reason::Resign
        | Reason::Adjudication
        | Reason::Illegal
        | Reason::Time
        | Reason::Hang
        | Reason::Crash => {
            check(
                Some((Outcome::win_for(!side), rec.reason)),
                "the side to move losing",
            )?;
            no_end(mate, rep)
        }
    }
}

fn no_end(
    mate: Option<(Outcome, Reason)>,
    rep: Option<(Outcome, Reason)>,
) -> Result<(), ReplayError> {
    match mate.or(rep) {
        Some(end) => Err(ReplayError::AlreadyEnded(end)),
        None => Ok(()),
    }
}

/// Checks every line of a record file (blank lines and `#` comments skipped); returns the number of games.
pub fn verify_file<V: Variant>(text: &str, max_plies: usize) -> Result<usize, RecordFileError> {
    let mut games = 0;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let rec = RecordLine::parse(line)
            .map_err(|error| RecordFileError::Line { line: i + 1, error })?;
        verify::<V>(&rec, max_plies)
            .map_err(|error| RecordFileError::Replay { line: i + 1, error })?;
        games += 1;
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Minishogi, Shogi};

    #[test]
    fn verification() {
        let start = Shogi::START_SFEN;
        let ok = |s: &str| verify::<Shogi>(&RecordLine::parse(s).unwrap(), 0);
        // fool's-mate-like sequences are long in shogi; use a resign and an illegal-move record instead
        ok(&format!("0-1 resign sfen {start} moves")).unwrap();
        ok(&format!("1-0 resign sfen {start} moves 7g7f")).unwrap();
        assert!(ok(&format!("1-0 resign sfen {start} moves")).is_err());
        assert!(ok(&format!("1-0 resign sfen {start} moves 7g7e")).is_err());
        ok(&format!(
            "1/2-1/2 repetition sfen {start} moves {}",
            "2h3h 8b7b 3h2h 7b8b ".repeat(3)
        ))
        .unwrap();
        // the repetition came earlier than the last move
        assert!(ok(&format!(
            "1/2-1/2 repetition sfen {start} moves {} 2h3h",
            "2h3h 8b7b 3h2h 7b8b ".repeat(3)
        ))
        .is_err());
        ok("1-0 checkmate sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1 moves G*5b").unwrap();
        assert!(ok("0-1 checkmate sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1 moves G*5b").is_err());
        ok("1-0 declaration sfen RBGGKSS2/LL7/NN7/9/9/9/9/9/4k4 b 10P 1 moves").unwrap();
        ok(&format!("0-1 false-declaration sfen {start} moves")).unwrap();
        ok(&format!("1/2-1/2 maxplies sfen {start} moves 7g7f 3c3d")).unwrap();
        // adjudications: the loser is the side to move; a draw adjudication is a draw
        ok(&format!("0-1 adjudication sfen {start} moves 7g7f 3c3d")).unwrap();
        ok(&format!("1-0 adjudication sfen {start} moves 7g7f")).unwrap();
        assert!(ok(&format!("1-0 adjudication sfen {start} moves 7g7f 3c3d")).is_err());
        assert!(ok(&format!("1/2-1/2 adjudication sfen {start} moves 7g7f")).is_err());
        ok(&format!(
            "1/2-1/2 draw-adjudication sfen {start} moves 7g7f"
        ))
        .unwrap();
        assert!(ok(&format!("1-0 draw-adjudication sfen {start} moves 7g7f")).is_err());
        // no adjudication of a game that was already over
        assert!(ok("1-0 adjudication sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1 moves G*5b").is_err());
        assert!(
            ok("1/2-1/2 draw-adjudication sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1 moves G*5b").is_err()
        );
        assert!(verify::<Shogi>(
            &RecordLine::parse(&format!("1/2-1/2 maxplies sfen {start} moves 7g7f")).unwrap(),
            2
        )
        .is_err());
        let mini = Minishogi::START_SFEN;
        verify::<Minishogi>(
            &RecordLine::parse(&format!(
                "0-1 repetition sfen {mini} moves {}",
                "1e1d 5a5b 1d1e 5b5a ".repeat(3)
            ))
            .unwrap(),
            0,
        )
        .unwrap();
    }
}
