//! SFEN parsing, validation and printing.

use std::fmt;

use crate::rules::hand::Hand;
use crate::rules::piece::{Color, Kind, Piece};
use crate::rules::position::{Bb, Position};
use crate::rules::square::Square;
use crate::rules::variant::Variant;
use crate::rules::zobrist::MAX_HAND_COUNT;

/// Why an SFEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SfenError {
    /// Fewer than three space-separated fields (board, side, hand).
    MissingFields,
    TooManyFields,
    WrongRankCount {
        expected: usize,
        found: usize,
    },
    WrongFileCount {
        rank: char,
        expected: usize,
        found: usize,
    },
    UnknownPiece(String),
    /// A promoted letter for a kind that does not promote, or a kind this game lacks.
    PieceNotInGame(String),
    BadSide(String),
    BadHand(String),
    BadMoveNumber(String),
    MissingKing(Color),
    ExtraKing(Color),
    /// A piece on a square from which it could never move (a pawn on the last rank, ...).
    DeadPiece {
        piece: String,
        square: String,
    },
    /// Two unpromoted pawns of one side on one file.
    DoublePawn {
        color: Color,
        file: usize,
    },
    TooManyPieces(char),
    /// The side not to move is in check.
    OpponentInCheck,
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |c: &Color| match c {
            Color::Black => "sente",
            Color::White => "gote",
        };
        match self {
            SfenError::MissingFields => write!(f, "SFEN needs board, side to move and hand fields"),
            SfenError::TooManyFields => write!(f, "SFEN has more than four fields"),
            SfenError::WrongRankCount { expected, found } => {
                write!(f, "SFEN board has {found} ranks, this game has {expected}")
            }
            SfenError::WrongFileCount {
                rank,
                expected,
                found,
            } => write!(
                f,
                "SFEN rank {rank} has {found} files, this game has {expected}"
            ),
            SfenError::UnknownPiece(s) => write!(f, "unknown piece letter '{s}' in SFEN"),
            SfenError::PieceNotInGame(s) => write!(f, "piece '{s}' does not exist in this game"),
            SfenError::BadSide(s) => write!(f, "side to move must be 'b' or 'w', not '{s}'"),
            SfenError::BadHand(s) => write!(f, "bad hand in SFEN: {s}"),
            SfenError::BadMoveNumber(s) => write!(f, "bad move number '{s}' in SFEN"),
            SfenError::MissingKing(c) => write!(f, "{} has no king", side(c)),
            SfenError::ExtraKing(c) => write!(f, "{} has more than one king", side(c)),
            SfenError::DeadPiece { piece, square } => {
                write!(f, "piece {piece} on {square} could never move")
            }
            SfenError::DoublePawn { color, file } => {
                write!(f, "{} has two pawns on file {file} (nifu)", side(color))
            }
            SfenError::TooManyPieces(c) => write!(f, "more pieces of kind {c} than the game has"),
            SfenError::OpponentInCheck => write!(f, "the side not to move is in check"),
        }
    }
}

impl std::error::Error for SfenError {}

/// A square in USI notation: file digit then rank letter.
pub fn square_name<V: Variant>(sq: Square) -> String {
    let f = sq.file_index(V::RANKS) + 1;
    let r = (b'a' + sq.rank_index(V::RANKS) as u8) as char;
    format!("{f}{r}")
}

/// Parses a USI square for this game's board.
pub fn parse_square<V: Variant>(s: &[u8]) -> Option<Square> {
    if s.len() != 2 {
        return None;
    }
    let f = s[0].checked_sub(b'1')? as usize;
    let r = s[1].checked_sub(b'a')? as usize;
    if f >= V::FILES || r >= V::RANKS {
        return None;
    }
    Some(Square::from_coords(f, r, V::RANKS))
}

impl<V: Variant> Position<V> {
    /// Parses an SFEN (`<board> <side> <hand> [<move number>]`; a missing move number counts as 1) and checks
    /// that the position is one the rules allow: board shape, piece letters, kings, dead pieces, nifu, piece
    /// counts, and the side not to move not in check.
    pub fn from_sfen(sfen: &str) -> Result<Self, SfenError> {
        Self::parse_sfen(sfen, false)
    }

    /// As [`Position::from_sfen`], except that the side to move may have no king: tsume problems leave out the
    /// attacker's king. That side's king then stands on no square ([`Position::has_king`] is false): it can
    /// neither be checked nor pin anything. Only the tsume solver should be given such positions (evaluation
    /// and the playing search assume two kings).
    pub fn from_tsume_sfen(sfen: &str) -> Result<Self, SfenError> {
        Self::parse_sfen(sfen, true)
    }

    /// Parsing first, each field in turn, then the checks of the whole position (`validate`).
    fn parse_sfen(sfen: &str, kingless_mover: bool) -> Result<Self, SfenError> {
        let fields: Vec<&str> = sfen.split_whitespace().collect();
        if fields.len() < 3 {
            return Err(SfenError::MissingFields);
        }
        if fields.len() > 4 {
            return Err(SfenError::TooManyFields);
        }
        let mut pos = Position::<V>::empty();
        let kings = pos.parse_board(fields[0])?;
        let side = match fields[1] {
            "b" => Color::Black,
            "w" => Color::White,
            s => return Err(SfenError::BadSide(s.to_string())),
        };
        if fields[2] != "-" {
            pos.parse_hands(fields[2])?;
        }
        let move_number = match fields.get(3) {
            None => 1,
            Some(s) => match s.parse::<u32>() {
                Ok(n) if (1..1_000_000).contains(&n) => n,
                _ => return Err(SfenError::BadMoveNumber(s.to_string())),
            },
        };
        pos.validate(kings, side, kingless_mover)?;
        pos.finish_setup(side, move_number);
        // the side that just moved cannot have left its king in check
        let them = !side;
        if pos.is_attacked(side, pos.king(them), pos.occupied()) {
            return Err(SfenError::OpponentInCheck);
        }
        Ok(pos)
    }

    /// The board field, placed on this empty position; returns the number of kings of each colour.
    fn parse_board(&mut self, field: &str) -> Result<[u32; 2], SfenError> {
        let ranks: Vec<&str> = field.split('/').collect();
        if ranks.len() != V::RANKS {
            return Err(SfenError::WrongRankCount {
                expected: V::RANKS,
                found: ranks.len(),
            });
        }
        // the board's shape first, so that another game's SFEN is reported as such rather than by its letters
        for (r, rank) in ranks.iter().enumerate() {
            let width: usize = rank
                .chars()
                .map(|c| match c.to_digit(10) {
                    Some(d) => d as usize,
                    None if c == '+' => 0,
                    None => 1,
                })
                .sum();
            if width != V::FILES {
                return Err(SfenError::WrongFileCount {
                    rank: (b'a' + r as u8) as char,
                    expected: V::FILES,
                    found: width,
                });
            }
        }
        let mut kings = [0u32; 2];
        for (r, rank) in ranks.iter().enumerate() {
            for (p, sq) in Self::parse_rank(rank, r)? {
                if p.kind() == Kind::King {
                    kings[p.color().index()] += 1;
                }
                self.place(p, sq);
            }
        }
        Ok(kings)
    }

    /// One rank (`r` from 0, the top) of the board field: its pieces and their squares.
    fn parse_rank(rank: &str, r: usize) -> Result<Vec<(Piece, Square)>, SfenError> {
        let rank_letter = (b'a' + r as u8) as char;
        let mut file = V::FILES as isize; // files are listed from the highest down
        let mut promoted = false;
        let mut placed: Vec<(Piece, isize)> = Vec::new();
        for ch in rank.chars() {
            if let Some(d) = ch.to_digit(10) {
                if promoted || d == 0 {
                    return Err(SfenError::UnknownPiece(ch.to_string()));
                }
                file -= d as isize;
                continue;
            }
            if ch == '+' {
                if promoted {
                    return Err(SfenError::UnknownPiece("++".into()));
                }
                promoted = true;
                continue;
            }
            let Some(kind) = Kind::from_letter(ch) else {
                return Err(SfenError::UnknownPiece(ch.to_string()));
            };
            let name = if promoted {
                format!("+{ch}")
            } else {
                ch.to_string()
            };
            let kind = if promoted {
                match kind.promoted() {
                    Some(pk) => pk,
                    None => return Err(SfenError::PieceNotInGame(name)),
                }
            } else {
                kind
            };
            if !V::BOARD_KINDS.contains(&kind) {
                return Err(SfenError::PieceNotInGame(name));
            }
            promoted = false;
            let color = if ch.is_ascii_uppercase() {
                Color::Black
            } else {
                Color::White
            };
            file -= 1;
            placed.push((Piece::new(color, kind), file));
        }
        if promoted {
            return Err(SfenError::UnknownPiece("+".into()));
        }
        if file != 0 {
            return Err(SfenError::WrongFileCount {
                rank: rank_letter,
                expected: V::FILES,
                found: (V::FILES as isize - file) as usize,
            });
        }
        Ok(placed
            .into_iter()
            .map(|(p, f)| (p, Square::from_coords(f as usize, r, V::RANKS)))
            .collect())
    }

    /// The hands field (not `-`), set on this position.
    fn parse_hands(&mut self, field: &str) -> Result<(), SfenError> {
        let mut count: Option<u32> = None;
        let mut seen = [[false; 7]; 2];
        for ch in field.chars() {
            if let Some(d) = ch.to_digit(10) {
                let n = count.unwrap_or(0) * 10 + d;
                if n > MAX_HAND_COUNT as u32 || (n == 0 && count.is_none()) {
                    return Err(SfenError::BadHand(format!(
                        "count out of range in '{}'",
                        field
                    )));
                }
                count = Some(n);
                continue;
            }
            let kind = match Kind::from_letter(ch) {
                Some(Kind::King) => {
                    return Err(SfenError::BadHand(format!(
                        "a king ('{ch}') cannot be held in hand"
                    )))
                }
                Some(k) => k,
                None => return Err(SfenError::BadHand(format!("unknown piece '{ch}'"))),
            };
            if !V::HAND_KINDS.contains(&kind) {
                return Err(SfenError::BadHand(format!(
                    "piece '{ch}' cannot be held in this game"
                )));
            }
            let color = if ch.is_ascii_uppercase() {
                Color::Black
            } else {
                Color::White
            };
            if seen[color.index()][kind.index()] {
                return Err(SfenError::BadHand(format!("piece '{ch}' listed twice")));
            }
            seen[color.index()][kind.index()] = true;
            let n = count.take().unwrap_or(1);
            self.set_hand(color, kind, n as u8);
        }
        if count.is_some() {
            return Err(SfenError::BadHand(format!(
                "count without a piece in '{}'",
                field
            )));
        }
        Ok(())
    }

    /// The checks of a parsed position: one king a side (none for a tsume problem's attacker when
    /// `kingless_mover`, `side` being the side to move), then the material (`validate_material`).
    fn validate(
        &mut self,
        kings: [u32; 2],
        side: Color,
        kingless_mover: bool,
    ) -> Result<(), SfenError> {
        for c in Color::ALL {
            match kings[c.index()] {
                0 if kingless_mover && c == side => self.set_no_king(c),
                0 => return Err(SfenError::MissingKing(c)),
                1 => {}
                _ => return Err(SfenError::ExtraKing(c)),
            }
        }
        self.validate_material()
    }

    /// Dead pieces, doubled pawns and piece counts.
    fn validate_material(&self) -> Result<(), SfenError> {
        let t = V::tables();
        let mut totals = [0u32; 8];
        for sq in 0..V::SQUARES {
            let p = self.board[sq];
            if p.is_none() {
                continue;
            }
            let sq = Square::new(sq as u8);
            let dead = Bb::<V>::from_u128(t.dead[p.color().index()][p.kind().index()]);
            if dead.has(sq) {
                return Err(SfenError::DeadPiece {
                    piece: p.to_string(),
                    square: square_name::<V>(sq),
                });
            }
            totals[p.kind().unpromoted().index()] += 1;
        }
        for c in Color::ALL {
            for f in 0..V::FILES {
                let file = Bb::<V>::from_u128(t.file[f]);
                if (self.pieces(c, Kind::Pawn) & file).several() {
                    return Err(SfenError::DoublePawn {
                        color: c,
                        file: f + 1,
                    });
                }
            }
            for &k in V::HAND_KINDS {
                totals[k.index()] += self.hands[c.index()].count(k) as u32;
            }
        }
        for (k, &total) in totals.iter().enumerate() {
            if total > V::PIECE_TOTALS[k] as u32 {
                return Err(SfenError::TooManyPieces(Kind::from_index(k).letter()));
            }
        }
        Ok(())
    }

    /// The SFEN of this position, hands in the canonical order R B G S N L P, sente's first.
    pub fn to_sfen(&self) -> String {
        let mut s = String::with_capacity(96);
        write_board::<V>(&self.board, &mut s);
        s.push(' ');
        s.push(if self.side == Color::Black { 'b' } else { 'w' });
        s.push(' ');
        let mut any = false;
        for c in Color::ALL {
            let hand: &Hand = &self.hands[c.index()];
            for k in Hand::SFEN_ORDER {
                let n = hand.count(k);
                if n == 0 {
                    continue;
                }
                any = true;
                if n > 1 {
                    s.push_str(&n.to_string());
                }
                let l = k.letter();
                s.push(if c == Color::Black {
                    l
                } else {
                    l.to_ascii_lowercase()
                });
            }
        }
        if !any {
            s.push('-');
        }
        s.push(' ');
        s.push_str(&self.move_number.to_string());
        s
    }
}

/// The board part of an SFEN (ranks from a, files from the highest) for a board indexed by `Square::index`; also
/// used by the self-play records, which store a board the same way.
pub fn write_board<V: Variant>(board: &[Piece], s: &mut String) {
    for r in 0..V::RANKS {
        if r > 0 {
            s.push('/');
        }
        let mut empty = 0;
        for f in (0..V::FILES).rev() {
            let p = board[Square::from_coords(f, r, V::RANKS).index()];
            if p.is_none() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
                empty = 0;
            }
            s.push_str(&p.to_string());
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
    }
}
