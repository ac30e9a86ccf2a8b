//! XBoard's move notation for the three boards.
//!
//! XBoard draws every shogi board with sente (its "white", the side that moves first) at the bottom and names the
//! squares as in chess: files `a`, `b`, ... from the left as sente sees the board, ranks `1`, `2`, ... from the
//! bottom. USI's square `7g` on 9×9 (file 7 counted from sente's right, rank g the seventh from the top) is
//! therefore XBoard's `c3`; on the 5×5 board USI's `5e` is `a1`, on Yari's 7-file board USI's `7i` is `a1`. A
//! board move is `<from><to>`, with `+` appended when it promotes (XBoard also sends `=` for a move that could
//! promote and does not); a drop is `<PIECE>@<to>`, the upper-case letter of the unpromoted piece: `P@e5`.
//! These are the conversions UCI2WB applies between USI and XBoard, and what XBoard writes in its own games.

use crate::rules::moves::Move;
use crate::rules::piece::Kind;
use crate::rules::position::Position;
use crate::rules::square::Square;
use crate::rules::variant::Variant;

/// A square in XBoard's coordinates: file letter from sente's left, rank digit from sente's side.
pub fn square<V: Variant>(sq: Square) -> String {
    let file = (b'a' + (V::FILES - 1 - sq.file_index(V::RANKS)) as u8) as char;
    let rank = V::RANKS - sq.rank_index(V::RANKS);
    format!("{file}{rank}")
}

/// Reads a square in XBoard's coordinates for the board of `V` (every board has at most 9 ranks: one digit).
pub fn parse_square<V: Variant>(s: &[u8]) -> Option<Square> {
    let [f, r] = s else { return None };
    let left = f.checked_sub(b'a')? as usize;
    let up = r.checked_sub(b'1')? as usize;
    if left >= V::FILES || up >= V::RANKS {
        return None;
    }
    Some(Square::from_coords(
        V::FILES - 1 - left,
        V::RANKS - 1 - up,
        V::RANKS,
    ))
}

/// A move in XBoard's notation.
pub fn move_text<V: Variant>(m: Move) -> String {
    if m.is_drop() {
        format!("{}@{}", m.dropped().letter(), square::<V>(m.to()))
    } else {
        format!(
            "{}{}{}",
            square::<V>(m.from()),
            square::<V>(m.to()),
            if m.is_promotion() { "+" } else { "" }
        )
    }
}

/// Moves in XBoard's notation, separated by spaces (a principal variation).
pub fn line_text<V: Variant>(moves: &[Move]) -> String {
    let words: Vec<String> = moves.iter().map(|&m| move_text::<V>(m)).collect();
    words.join(" ")
}

/// Why a move from XBoard was refused: the text cannot be a move on this board, or it is not legal here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    Malformed,
    Illegal,
}

/// Reads a move in XBoard's notation and checks that it is legal in `pos`. Drops take the piece letter in
/// either case (XBoard writes it upper case for both sides); `=` after a board move means "does not promote".
pub fn parse_move<V: Variant>(pos: &Position<V>, s: &str) -> Result<Move, Refusal> {
    let b = s.as_bytes();
    let m = if b.len() == 4 && b[1] == b'@' {
        let kind = Kind::from_letter(b[0] as char).ok_or(Refusal::Malformed)?;
        if !kind.is_hand_kind() {
            return Err(Refusal::Malformed);
        }
        Move::drop(kind, parse_square::<V>(&b[2..]).ok_or(Refusal::Malformed)?)
    } else {
        let promote = match b.get(4) {
            None if b.len() == 4 => false,
            Some(b'=') if b.len() == 5 => false,
            Some(b'+') if b.len() == 5 => true,
            _ => return Err(Refusal::Malformed),
        };
        let from = parse_square::<V>(&b[0..2]).ok_or(Refusal::Malformed)?;
        let to = parse_square::<V>(&b[2..4]).ok_or(Refusal::Malformed)?;
        if from == to {
            return Err(Refusal::Malformed);
        }
        Move::normal(from, to, promote)
    };
    if pos.is_legal(m) {
        Ok(m)
    } else {
        Err(Refusal::Illegal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::notation::move_to_usi;
    use crate::{Minishogi, Shogi, Yari};

    /// XBoard's name of every legal move of the start position reads back as the same move, and the square
    /// names agree with UCI2WB's conversion (`'a' + '0' + size - c` on each character of a USI square).
    fn round_trip<V: Variant>() {
        let pos = Position::<V>::startpos();
        for m in pos.legal_moves() {
            let x = move_text::<V>(m);
            assert_eq!(parse_move(&pos, &x), Ok(m), "{x}");
            if !m.is_drop() {
                let usi = move_to_usi::<V>(m);
                let conv: String = usi
                    .bytes()
                    .take(4)
                    .map(|c| (b'a' + b'0' + V::FILES.max(V::RANKS) as u8 - c) as char)
                    .collect();
                if V::FILES == V::RANKS {
                    assert_eq!(&x[..4], conv, "{usi}");
                }
            }
        }
    }

    #[test]
    fn every_start_move_round_trips() {
        round_trip::<Shogi>();
        round_trip::<Minishogi>();
        round_trip::<Yari>();
    }

    #[test]
    fn squares_count_files_from_sentes_left_and_ranks_from_the_bottom() {
        let sq = |usi: &str| {
            crate::rules::position::sfen::parse_square::<Shogi>(usi.as_bytes()).unwrap()
        };
        assert_eq!(square::<Shogi>(sq("7g")), "c3");
        assert_eq!(square::<Shogi>(sq("9a")), "a9");
        assert_eq!(square::<Shogi>(sq("1i")), "i1");
        let y =
            |usi: &str| crate::rules::position::sfen::parse_square::<Yari>(usi.as_bytes()).unwrap();
        assert_eq!(square::<Yari>(y("7i")), "a1");
        assert_eq!(square::<Yari>(y("1a")), "g9");
        let m = |usi: &str| {
            crate::rules::position::sfen::parse_square::<Minishogi>(usi.as_bytes()).unwrap()
        };
        assert_eq!(square::<Minishogi>(m("5e")), "a1");
        assert_eq!(square::<Minishogi>(m("1a")), "e5");
    }

    #[test]
    fn promotions_drops_and_bad_text() {
        // sente's pawn on 7c (XBoard's c7) may promote on 7b (c8); a pawn in hand
        let pos = Position::<Shogi>::from_sfen("4k4/9/2P6/9/9/9/9/9/4K4 b P 1").unwrap();
        let usi = |x: &str| parse_move(&pos, x).map(move_to_usi::<Shogi>);
        assert_eq!(usi("c7c8+"), Ok("7c7b+".to_string()));
        assert_eq!(usi("c7c8="), Ok("7c7b".to_string()));
        assert_eq!(usi("c7c8"), Ok("7c7b".to_string()));
        assert_eq!(usi("P@e5"), Ok("P*5e".to_string()));
        assert_eq!(usi("p@e5"), Ok("P*5e".to_string()));
        assert_eq!(usi("P@c5"), Err(Refusal::Illegal)); // nifu
        assert_eq!(usi("G@e5"), Err(Refusal::Illegal)); // not in hand
        assert_eq!(usi("c7c9"), Err(Refusal::Illegal));
        for bad in [
            "", "c7", "c7c8q", "c7c7", "j1a1", "a0a1", "K@e5", "P@e0", "@@@@", "c7c8++", "+P@e5",
        ] {
            assert_eq!(usi(bad), Err(Refusal::Malformed), "{bad}");
        }
    }
}
