//! CSA notation (V2.2), for 9×9 shogi: piece codes (`FU`, `RY`), squares (`77`), moves (`+7776FU`, `-0055KA`),
//! board lines (`PI`, `P1`..`P9`, `P+00FU` hands), written from a position and read back into SFEN and USI. The
//! records built on it (a match's `.csa` files, the web GUI's import and export) use this module and spell no
//! code themselves.

use std::fmt;

use crate::rules::moves::Move;
use crate::rules::piece::{Color, Kind, Piece};
use crate::rules::position::Position;
use crate::rules::square::Square;
use crate::rules::truncate;
use crate::rules::variant::Variant;

/// Each kind's CSA code.
const CODES: [(Kind, &str); 14] = [
    (Kind::Pawn, "FU"),
    (Kind::Lance, "KY"),
    (Kind::Knight, "KE"),
    (Kind::Silver, "GI"),
    (Kind::Gold, "KI"),
    (Kind::Bishop, "KA"),
    (Kind::Rook, "HI"),
    (Kind::King, "OU"),
    (Kind::ProPawn, "TO"),
    (Kind::ProLance, "NY"),
    (Kind::ProKnight, "NK"),
    (Kind::ProSilver, "NG"),
    (Kind::ProBishop, "UM"),
    (Kind::ProRook, "RY"),
];

/// The CSA code of a kind (`FU`, `TO`, ...).
pub fn code(k: Kind) -> &'static str {
    CODES.iter().find(|c| c.0 == k).map_or("??", |c| c.1)
}

/// The kind a CSA code names.
pub fn kind_of(code: &str) -> Option<Kind> {
    CODES.iter().find(|c| c.1 == code).map(|c| c.0)
}

/// The side's sign: `+` sente, `-` gote.
pub fn sign(c: Color) -> char {
    match c {
        Color::Black => '+',
        Color::White => '-',
    }
}

/// A square as CSA writes it: file then rank, both digits from 1.
pub fn square<V: Variant>(sq: Square) -> String {
    format!(
        "{}{}",
        sq.file_index(V::RANKS) + 1,
        sq.rank_index(V::RANKS) + 1
    )
}

impl<V: Variant> Position<V> {
    /// The position's lines of a CSA record: `PI` for the start position, else the nine board lines and each
    /// side's hand; then the side to move (`+` or `-`). Each line ends with a newline.
    pub fn to_csa_lines(&self) -> String {
        let mut out = String::new();
        if self.to_sfen() == Self::startpos().to_sfen() {
            out.push_str("PI\n");
        } else {
            for r in 0..V::RANKS {
                out.push_str(&format!("P{}", r + 1));
                for f in (0..V::FILES).rev() {
                    let p = self.piece_at(Square::from_coords(f, r, V::RANKS));
                    if p.is_some() {
                        out.push(sign(p.color()));
                        out.push_str(code(p.kind()));
                    } else {
                        out.push_str(" * ");
                    }
                }
                out.push('\n');
            }
            for c in Color::ALL {
                let hand = self.hand(c);
                if hand.is_empty() {
                    continue;
                }
                out.push('P');
                out.push(sign(c));
                for &k in V::HAND_KINDS.iter().rev() {
                    for _ in 0..hand.count(k) {
                        out.push_str("00");
                        out.push_str(code(k));
                    }
                }
                out.push('\n');
            }
        }
        out.push(sign(self.side_to_move()));
        out.push('\n');
        out
    }

    /// A legal move of this position in CSA (`+7776FU`; a promotion names the promoted kind, `+2822RY`).
    pub fn to_csa_move(&self, mv: Move) -> String {
        let (from, kind) = if mv.is_drop() {
            ("00".to_string(), mv.dropped())
        } else {
            let k = self.piece_at(mv.from()).kind();
            let k = if mv.is_promotion() {
                k.promoted().unwrap_or(k)
            } else {
                k
            };
            (square::<V>(mv.from()), k)
        };
        format!(
            "{}{from}{}{}",
            sign(self.side_to_move()),
            square::<V>(mv.to()),
            code(kind)
        )
    }
}

/// Why a CSA text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CsaError {
    /// A line (or move) that is not CSA, cut to 40 characters.
    Unreadable(String),
    /// Some board lines, but not the nine of a 9×9 board.
    IncompleteBoard,
}

impl fmt::Display for CsaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CsaError::Unreadable(l) => write!(f, "CSA: cannot read '{l}'"),
            CsaError::IncompleteBoard => write!(f, "CSA: a board needs the nine lines P1 to P9"),
        }
    }
}

impl std::error::Error for CsaError {}

impl CsaError {
    fn unreadable(l: &str) -> Self {
        CsaError::Unreadable(truncate(l))
    }
}

/// What a CSA record holds for replaying it: the start (None for `PI` or no board lines) and the moves as
/// written, in order. Names, times, comments and the ending line are skipped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CsaGame<'a> {
    pub start_sfen: Option<String>,
    pub moves: Vec<&'a str>,
}

/// Whether a trimmed line has a CSA record's shape. Pasted text may hold any characters, so it is read by
/// characters: a byte index into it may fall inside one.
pub fn is_csa_line(l: &str) -> bool {
    l.starts_with("V2")
        || l == "PI"
        || l.starts_with("P1")
        || (l.chars().count() == 7
            && l.starts_with(['+', '-'])
            && l.chars().skip(1).take(4).all(|c| c.is_ascii_digit()))
}

/// Reads a 9×9 CSA record: `PI` or `P1`..`P9` (with `P+`/`P-` hands), the side to move, then moves such as
/// `+7776FU` (several on one line separated by commas).
pub fn read(text: &str) -> Result<CsaGame<'_>, CsaError> {
    let mut rows: Vec<String> = Vec::new();
    let mut hands = [String::new(), String::new()];
    let mut black = true;
    let mut moves: Vec<&str> = Vec::new();
    for l in text.lines().map(str::trim) {
        if l.is_empty() || l.starts_with(['\'', 'N', '$', 'T', '%', 'V']) || l.starts_with("PI") {
            continue;
        }
        if l == "+" || l == "-" {
            black = l == "+";
        } else if let Some(rest) = l.strip_prefix("P+").or_else(|| l.strip_prefix("P-")) {
            let color = if l.starts_with("P-") {
                Color::White
            } else {
                Color::Black
            };
            hands[color.index()]
                .push_str(&read_hand(rest, color).ok_or_else(|| CsaError::unreadable(l))?);
        } else if let Some(row) = l
            .strip_prefix('P')
            .and_then(|r| r.strip_prefix(|c: char| c.is_ascii_digit()))
        {
            rows.push(read_row(row).ok_or_else(|| CsaError::unreadable(l))?);
        } else if l.starts_with('+') || l.starts_with('-') {
            moves.extend(
                l.split(',')
                    .map(str::trim)
                    .filter(|m| m.starts_with(['+', '-'])),
            );
        } else {
            return Err(CsaError::unreadable(l));
        }
    }
    let start_sfen = match rows.len() {
        0 => None,
        9 => {
            // `P+00FU00FU` holds two pawns: SFEN counts them (`2P`), and refuses a letter listed twice
            let hand = format!("{}{}", counted(&hands[0]), counted(&hands[1]));
            let hand = if hand.is_empty() { "-".into() } else { hand };
            let side = if black { "b" } else { "w" };
            Some(format!("{} {side} {hand} 1", rows.join("/")))
        }
        _ => return Err(CsaError::IncompleteBoard),
    };
    Ok(CsaGame { start_sfen, moves })
}

/// Hand letters, one a piece, as SFEN writes them: each letter once with its count (`PPG` as `2PG`).
fn counted(letters: &str) -> String {
    let mut out = String::new();
    let mut seen: Vec<char> = Vec::new();
    for c in letters.chars() {
        if seen.contains(&c) {
            continue;
        }
        seen.push(c);
        match letters.chars().filter(|&x| x == c).count() {
            1 => out.push(c),
            n => out.push_str(&format!("{n}{c}")),
        }
    }
    out
}

/// The SFEN hand letters of a `P+`/`P-` line's rest: pieces as `00FU`, four characters each.
fn read_hand(rest: &str, color: Color) -> Option<String> {
    let chars: Vec<char> = rest.chars().collect();
    let mut out = String::new();
    for chunk in chars.chunks(4) {
        if chunk.len() != 4 || chunk[..2] != ['0', '0'] {
            return None;
        }
        let name: String = chunk[2..].iter().collect();
        let kind = kind_of(&name).filter(|k| k.is_hand_kind())?;
        out.push_str(&Piece::new(color, kind).to_string());
    }
    Some(out)
}

/// One board row of a CSA `P<n>` line in SFEN: nine fields of three characters, files 9 to 1.
fn read_row(s: &str) -> Option<String> {
    let mut chars: Vec<char> = s.chars().collect();
    // a trailing ` * ` may have lost its last spaces to an editor or to trimming
    if chars.len() > 27 {
        return None;
    }
    chars.resize(27, ' ');
    let mut row = String::new();
    let mut empty = 0;
    for f in chars.chunks(3) {
        let name: String = f[1..].iter().collect();
        if f[0] == ' ' && name == "* " {
            empty += 1;
            continue;
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
            empty = 0;
        }
        let color = match f[0] {
            '+' => Color::Black,
            '-' => Color::White,
            _ => return None,
        };
        row.push_str(&Piece::new(color, kind_of(&name)?).to_string());
    }
    if empty > 0 {
        row.push_str(&empty.to_string());
    }
    Some(row)
}

/// A CSA move (`+7776FU`, `-0055KA`, `+2822RY`) of a 9×9 game in USI, the promotion read from the legal moves
/// (`is_legal` of a USI move): when both the promotion and the plain move are legal, a promoted piece name means
/// the promotion. Err names the move (cut to 40 characters).
pub fn usi_move(m: &str, is_legal: &dyn Fn(&str) -> bool) -> Result<String, CsaError> {
    read_move(m, is_legal).ok_or_else(|| CsaError::unreadable(m))
}

fn read_move(m: &str, is_legal: &dyn Fn(&str) -> bool) -> Option<String> {
    let c: Vec<char> = m.chars().collect();
    if c.len() != 7 || !c[1..5].iter().all(char::is_ascii_digit) {
        return None;
    }
    let square = |file: char, rank: char| -> Option<String> {
        let r = rank.to_digit(10).filter(|r| (1..=9).contains(r))?;
        let rank_letter = char::from(b'a' + u8::try_from(r - 1).ok()?);
        (file != '0').then(|| format!("{file}{rank_letter}"))
    };
    let to = square(c[3], c[4])?;
    let name: String = c[5..].iter().collect();
    let kind = kind_of(&name)?;
    if c[1] == '0' && c[2] == '0' {
        return kind
            .is_hand_kind()
            .then(|| format!("{}*{to}", kind.letter()));
    }
    let plain = format!("{}{to}", square(c[1], c[2])?);
    let promoted = format!("{plain}+");
    match (is_legal(&plain), is_legal(&promoted)) {
        (true, true) if kind.is_promoted() => Some(promoted),
        (false, true) => Some(promoted),
        _ => Some(plain),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::notation::move_to_usi;
    use crate::rules::variant::Shogi;

    #[test]
    fn codes_read_back() {
        for k in Kind::ALL {
            assert_eq!(kind_of(code(k)), Some(k));
        }
        assert_eq!(kind_of("XX"), None);
    }

    #[test]
    fn a_position_reads_back_as_its_sfen() {
        let sfen = "lnsgk2nl/1r4gs1/p1pppp1pp/1p4p2/7P1/2P6/PP1PPPP1P/7R1/LNSGKGSNL w Bb 8";
        let pos = Position::<Shogi>::from_sfen(sfen).unwrap();
        let text = pos.to_csa_lines();
        assert!(text.contains("P+00KA\nP-00KA\n-\n"), "{text}");
        let game = read(&text).unwrap();
        let back = Position::<Shogi>::from_sfen(&game.start_sfen.unwrap()).unwrap();
        assert_eq!(back.key(), pos.key());
        assert_eq!(read("PI\n+\n").unwrap().start_sfen, None);
    }

    #[test]
    fn moves_read_back_as_usi() {
        // a position where a rook may promote or not, a bishop must, and pieces can be dropped
        let sfen = "lnsgkgsnl/6R2/pppppp1pp/6p2/9/2P6/PP1PPPP1P/1B7/LNSGKGSNL b Bp 1";
        let pos = Position::<Shogi>::from_sfen(sfen).unwrap();
        let legal = |u: &str| pos.parse_move(u).is_ok();
        for &m in pos.legal_moves().iter() {
            let csa = pos.to_csa_move(m);
            assert_eq!(usi_move(&csa, &legal), Ok(move_to_usi::<Shogi>(m)), "{csa}");
        }
        assert_eq!(
            usi_move("+77x6FU", &legal).unwrap_err().to_string(),
            "CSA: cannot read '+77x6FU'"
        );
    }
}
