//! The board diagram of KIF and KI2 (BOD): pieces in hand, the board with `v` before gote's pieces, and the side
//! to move. Written for a start that no 手合割 names; read wherever a record holds one.
//!
//! ```text
//! 後手の持駒：なし
//!   ９ ８ ７ ６ ５ ４ ３ ２ １
//! +---------------------------+
//! |v香v桂v銀v金v玉v金v銀v桂v香|一
//! ...
//! +---------------------------+
//! 先手の持駒：角　歩二
//! 後手番
//! ```

use super::japanese::{board_char, kanji_count, kind_of_char, parse_kanji_count, FILE_DIGITS};
use super::japanese::{piece_name, RANK_KANJI};
use crate::rules::piece::{Color, Kind};
use crate::rules::square::Square;
use crate::rules::variant::Variant;
use crate::Position;

/// The words for the two sides: 先手/後手, or 下手/上手 in a handicap game.
pub fn side_names(handicap: bool) -> [&'static str; 2] {
    if handicap {
        ["下手", "上手"]
    } else {
        ["先手", "後手"]
    }
}

/// The diagram of `pos`, each line ending in a newline; `handicap` chooses the sides' words.
pub fn write<V: Variant>(pos: &Position<V>, handicap: bool) -> String {
    let sides = side_names(handicap);
    let hand = |c: Color| {
        let h = pos.hand(c);
        let items: Vec<String> = V::HAND_KINDS
            .iter()
            .rev()
            .filter(|&&k| h.count(k) > 0)
            .map(|&k| format!("{}{}", piece_name(k), kanji_count(h.count(k))))
            .collect();
        if items.is_empty() {
            "なし".to_string()
        } else {
            items.join("　")
        }
    };
    let mut s = format!("{}の持駒：{}\n", sides[1], hand(Color::White));
    s.push(' ');
    for f in (0..V::FILES).rev() {
        s.push(' ');
        s.push(FILE_DIGITS[f]);
    }
    let border = format!("+{}+\n", "-".repeat(V::FILES * 3));
    s.push('\n');
    s.push_str(&border);
    for (r, &rank) in RANK_KANJI.iter().enumerate().take(V::RANKS) {
        s.push('|');
        for f in (0..V::FILES).rev() {
            let p = pos.piece_at(Square::from_coords(f, r, V::RANKS));
            if p.is_none() {
                s.push_str(" ・");
            } else {
                s.push(if p.color() == Color::White { 'v' } else { ' ' });
                s.push(board_char(p.kind()));
            }
        }
        s.push('|');
        s.push(rank);
        s.push('\n');
    }
    s.push_str(&border);
    s.push_str(&format!("{}の持駒：{}\n", sides[0], hand(Color::Black)));
    if pos.move_number() > 1 {
        s.push_str(&format!("手数＝{}\n", pos.move_number() - 1));
    }
    if pos.side_to_move() == Color::White {
        s.push_str(&format!("{}番\n", sides[1]));
    }
    s
}

/// Why a line of a board diagram was refused: a row, a hand or a move count that does not read, or a board
/// whose rows do not add up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BodError {
    #[error("手数＝ needs a number")]
    MovesBefore,
    #[error("a board row must end with '|'")]
    RowEnd,
    #[error("a board row needs two characters a square")]
    RowSquares,
    #[error("the board's rows differ in length")]
    RowLengths,
    #[error("unknown piece '{0}'")]
    UnknownPiece(char),
    #[error("'{0}' before a piece: expected 'v' or a space")]
    Mark(char),
    #[error("the board has {rows} rows of {files} squares")]
    Rows { rows: usize, files: usize },
    #[error("'{0}' is not a piece in hand")]
    HandPiece(String),
    #[error("'{0}': the count must be in kanji, as 歩三")]
    HandCount(String),
}

/// A diagram being read, line by line.
#[derive(Default)]
pub struct Diagram {
    /// The board's rows as SFEN, from rank 一.
    rows: Vec<String>,
    /// The width of the rows read so far.
    pub files: Option<usize>,
    hands: [String; 2],
    pub white_to_move: Option<bool>,
    /// 手数＝N: the moves played before the diagram.
    pub moves_before: Option<u32>,
    /// The first line of the diagram, for errors.
    pub first_line: Option<usize>,
}

impl Diagram {
    /// Takes one line if it belongs to a diagram: Ok(true) when taken, Ok(false) when it is no diagram line, Err
    /// when it is one and is wrong.
    pub fn take(&mut self, line: &str, number: usize) -> Result<bool, BodError> {
        let t = line.trim();
        let note = |d: &mut Diagram| {
            d.first_line.get_or_insert(number);
        };
        if t.starts_with('+') && t.chars().skip(1).all(|c| c == '-' || c == '+') {
            note(self);
            return Ok(true);
        }
        if !t.is_empty()
            && t.chars()
                .all(|c| FILE_DIGITS.contains(&c) || c.is_ascii_digit() || c.is_whitespace())
        {
            note(self);
            return Ok(true);
        }
        if let Some(row) = t.strip_prefix('|') {
            note(self);
            self.row(row)?;
            return Ok(true);
        }
        for (side, words) in [(0, ["先手", "下手"]), (1, ["後手", "上手"])] {
            for w in words {
                if let Some(rest) = t
                    .strip_prefix(w)
                    .and_then(|r| r.strip_prefix("の持駒"))
                    .and_then(|r| r.strip_prefix(['：', ':']))
                {
                    note(self);
                    self.hands[side] = hand(rest, side == 1)?;
                    return Ok(true);
                }
                if t == format!("{w}番") {
                    self.white_to_move = Some(side == 1);
                    return Ok(true);
                }
            }
        }
        if let Some(rest) = t.strip_prefix("手数＝").or_else(|| t.strip_prefix("手数=")) {
            let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
            self.moves_before = Some(n.parse().map_err(|_| BodError::MovesBefore)?);
            return Ok(true);
        }
        Ok(false)
    }

    /// One row, `v香v桂 ・...|一`: two characters a square, then `|` and the rank.
    fn row(&mut self, row: &str) -> Result<(), BodError> {
        let c: Vec<char> = row.chars().collect();
        let end = c.iter().position(|&x| x == '|').ok_or(BodError::RowEnd)?;
        if end % 2 != 0 {
            return Err(BodError::RowSquares);
        }
        let files = end / 2;
        if *self.files.get_or_insert(files) != files {
            return Err(BodError::RowLengths);
        }
        let mut sfen = String::new();
        let mut empty = 0;
        for sq in c[..end].chunks(2) {
            if sq[1] == '・' {
                empty += 1;
                continue;
            }
            let kind = kind_of_char(sq[1]).ok_or(BodError::UnknownPiece(sq[1]))?;
            if empty > 0 {
                sfen.push_str(&empty.to_string());
                empty = 0;
            }
            let letter = sfen_letter(kind);
            match sq[0] {
                'v' | 'V' => sfen.push_str(&letter.to_lowercase()),
                ' ' | '^' | '　' => sfen.push_str(&letter),
                other => return Err(BodError::Mark(other)),
            }
        }
        if empty > 0 {
            sfen.push_str(&empty.to_string());
        }
        self.rows.push(sfen);
        Ok(())
    }

    /// Whether a board was drawn.
    pub fn has_board(&self) -> bool {
        !self.rows.is_empty()
    }

    /// The SFEN of the diagram; `white_default` is the side to move when no line says.
    pub fn sfen(&self, white_default: bool) -> Result<String, BodError> {
        let files = self.files.unwrap_or(0);
        if self.rows.len() != files {
            return Err(BodError::Rows {
                rows: self.rows.len(),
                files,
            });
        }
        let hands = format!("{}{}", self.hands[0], self.hands[1]);
        Ok(format!(
            "{} {} {} {}",
            self.rows.join("/"),
            if self.white_to_move.unwrap_or(white_default) {
                "w"
            } else {
                "b"
            },
            if hands.is_empty() { "-" } else { &hands },
            self.moves_before.unwrap_or(0) + 1
        ))
    }
}

fn sfen_letter(k: Kind) -> String {
    if k.is_promoted() {
        format!("+{}", k.letter())
    } else {
        k.letter().to_string()
    }
}

/// A hand, `角　金二　歩三` or `なし`, as SFEN letters (lower case for gote).
fn hand(text: &str, white: bool) -> Result<String, BodError> {
    let mut out = String::new();
    for item in text.split(|c: char| c.is_whitespace() || c == '、') {
        if item.is_empty() || item == "なし" {
            continue;
        }
        let mut c = item.chars();
        let kind = c
            .next()
            .and_then(kind_of_char)
            .filter(|k| k.is_hand_kind())
            .ok_or_else(|| BodError::HandPiece(item.to_string()))?;
        let n =
            parse_kanji_count(c.as_str()).ok_or_else(|| BodError::HandCount(item.to_string()))?;
        let letter = kind.letter().to_string();
        let letter = if white { letter.to_lowercase() } else { letter };
        if n > 1 {
            out.push_str(&n.to_string());
        }
        out.push_str(&letter);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::{Minishogi, Shogi};

    fn round_trip<V: Variant>(sfen: &str, handicap: bool) -> String {
        let pos = Position::<V>::from_sfen(sfen).unwrap();
        let text = write(&pos, handicap);
        let mut d = Diagram::default();
        for (i, l) in text.lines().enumerate() {
            assert!(d.take(l, i + 1).unwrap(), "{l}");
        }
        d.sfen(false).unwrap()
    }

    #[test]
    fn diagrams_round_trip() {
        let s = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 71";
        assert_eq!(round_trip::<Shogi>(s, false), s);
        let m = "rb1gk/4p/2s2/P4/KGSBR b - 1";
        assert_eq!(round_trip::<Minishogi>(m, true), m);
        let text = write(&Position::<Shogi>::from_sfen(s).unwrap(), false);
        assert!(text.starts_with("後手の持駒：金　銀　桂　歩五\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n"));
        assert!(
            text.contains("|v香 ・ ・ ・ ・ ・ ・v桂v香|一\n| ・ ・ ・ ・ ・ と ・v金v玉|二\n"),
            "{text}"
        );
        assert!(
            text.ends_with("先手の持駒：飛　金\n手数＝70\n後手番\n"),
            "{text}"
        );
    }
}
