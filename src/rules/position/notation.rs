//! USI move notation: `7g7f`, `8h2b+`, `P*5e`.

use std::fmt;

use crate::rules::moves::Move;
use crate::rules::piece::Kind;
use crate::rules::position::sfen::{parse_square, square_name};
use crate::rules::position::Position;
use crate::rules::variant::Variant;

/// Why a USI move was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not a move in USI notation for this board.
    Malformed(String),
    /// Well-formed but not legal in the position.
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Malformed(s) => write!(f, "malformed move '{s}'"),
            MoveError::Illegal(s) => write!(f, "illegal move '{s}'"),
        }
    }
}

impl std::error::Error for MoveError {}

/// A move in USI notation for the board of `V`.
pub fn move_to_usi<V: Variant>(m: Move) -> String {
    if m.is_drop() {
        format!("{}*{}", m.dropped().letter(), square_name::<V>(m.to()))
    } else {
        format!(
            "{}{}{}",
            square_name::<V>(m.from()),
            square_name::<V>(m.to()),
            if m.is_promotion() { "+" } else { "" }
        )
    }
}

/// Reads a USI move's shape for the board of `V`, without checking legality.
pub fn parse_usi_move<V: Variant>(s: &str) -> Result<Move, MoveError> {
    let malformed = || MoveError::Malformed(s.chars().take(32).collect());
    let b = s.as_bytes();
    if b.len() == 4 && b[1] == b'*' {
        let kind = match Kind::from_letter(b[0] as char) {
            Some(k) if k.is_hand_kind() && b[0].is_ascii_uppercase() => k,
            _ => return Err(malformed()),
        };
        let to = parse_square::<V>(&b[2..4]).ok_or_else(malformed)?;
        return Ok(Move::drop(kind, to));
    }
    let promote = match b.len() {
        4 => false,
        5 if b[4] == b'+' => true,
        _ => return Err(malformed()),
    };
    let from = parse_square::<V>(&b[0..2]).ok_or_else(malformed)?;
    let to = parse_square::<V>(&b[2..4]).ok_or_else(malformed)?;
    if from == to {
        return Err(malformed());
    }
    Ok(Move::normal(from, to, promote))
}

impl<V: Variant> Position<V> {
    /// Parses a USI move and checks that it is legal here.
    pub fn parse_move(&self, s: &str) -> Result<Move, MoveError> {
        let m = parse_usi_move::<V>(s)?;
        if self.is_legal(m) {
            Ok(m)
        } else {
            Err(MoveError::Illegal(s.chars().take(32).collect()))
        }
    }

    /// Plays a sequence of USI moves; on the first bad one, the position is left as it was before the call.
    pub fn play_usi_moves<'a>(
        &mut self,
        moves: impl IntoIterator<Item = &'a str>,
    ) -> Result<(), MoveError> {
        let mut played = 0;
        for s in moves {
            match self.parse_move(s) {
                Ok(m) => {
                    self.do_move(m);
                    played += 1;
                }
                Err(e) => {
                    for _ in 0..played {
                        self.undo_move();
                    }
                    return Err(e);
                }
            }
        }
        Ok(())
    }
}
