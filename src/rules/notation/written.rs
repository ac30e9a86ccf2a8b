//! Moves read from Japanese text (`▲７六歩`, `同　銀(22)`, `５八金右`, `５五角打`) and resolved to the legal
//! move they name, by the rules core's move generator and the convention of [`super::japanese`].

use super::japanese::{digit_value, filter_from, froms_to, kind_of_char, piece_name, square_at};
use super::japanese::{Motion, Place};
use crate::rules::moves::Move;
use crate::rules::piece::Kind;
use crate::rules::position::Position;
use crate::rules::square::Square;
use crate::rules::variant::Variant;

/// A move read from Japanese text, before the position resolves it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// None: 同 (where the last move went).
    pub to: Option<(usize, usize)>,
    pub kind: Kind,
    pub place: Option<Place>,
    pub motion: Option<Motion>,
    /// Some(true) 成, Some(false) 不成 (or 生), None neither.
    pub promote: Option<bool>,
    pub drop: bool,
    /// KIF's `(77)`: file and rank.
    pub from: Option<(usize, usize)>,
}

/// Why a written move was refused: text that does not read as a move (what was expected where), or a move that
/// names no legal move, or more than one, in the position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WrittenMoveError {
    #[error("expected a square (７六) or 同")]
    Square,
    #[error("expected a piece (歩 香 桂 銀 金 角 飛 玉 と 成香 成桂 成銀 馬 龍)")]
    Piece,
    #[error("a from-square without its ')'")]
    FromUnclosed,
    #[error("expected a from-square of two digits, as (77)")]
    FromDigits,
    #[error("unexpected '{0}' after the move")]
    Trailing(String),
    #[error("同 with no move before it")]
    SameWithoutMove,
    #[error("a square off the board")]
    OffBoard,
    #[error("a from-square off the board")]
    FromOffBoard,
    #[error("no {name} of the side to move on {file}{rank}")]
    NoPieceOn {
        name: &'static str,
        file: usize,
        rank: usize,
    },
    #[error("{0} cannot be dropped there")]
    NoDrop(&'static str),
    #[error("no {0} can move there")]
    NoneCanMove(&'static str),
    #[error("{count} {name}s can move there: the move does not say which")]
    Ambiguous { count: usize, name: &'static str },
    #[error("the piece cannot promote there")]
    NoPromotion,
    #[error("not a legal move")]
    Illegal,
}

/// Reads one move: an optional side mark, the square or 同, the piece, place and motion, 打/成/不成, and KIF's
/// from-square. The error says what was expected where.
pub fn parse_written(text: &str) -> Result<Written, WrittenMoveError> {
    let c: Vec<char> = text.trim().chars().collect();
    let mut i = 0;
    if matches!(c.first(), Some('▲' | '△' | '☗' | '☖')) {
        i += 1;
    }
    let to = if c.get(i) == Some(&'同') {
        i += 1;
        while matches!(c.get(i), Some(' ' | '　')) {
            i += 1;
        }
        None
    } else {
        let file = c.get(i).copied().and_then(digit_value);
        let rank = c.get(i + 1).copied().and_then(digit_value);
        match (file, rank) {
            (Some(f), Some(r)) => {
                i += 2;
                Some((f, r))
            }
            _ => return Err(WrittenMoveError::Square),
        }
    };
    let kind = match (c.get(i), c.get(i + 1)) {
        (Some('成'), Some(&p)) if matches!(p, '香' | '桂' | '銀') => {
            i += 2;
            kind_of_char(p).and_then(Kind::promoted)
        }
        (Some(&p), _) => {
            i += 1;
            kind_of_char(p)
        }
        _ => None,
    }
    .ok_or(WrittenMoveError::Piece)?;
    let mut w = Written {
        to,
        kind,
        place: None,
        motion: None,
        promote: None,
        drop: false,
        from: None,
    };
    while let Some(&ch) = c.get(i) {
        match ch {
            '右' if w.place.is_none() => w.place = Some(Place::Right),
            '左' if w.place.is_none() => w.place = Some(Place::Left),
            '直' if w.place.is_none() => w.place = Some(Place::Straight),
            '上' | '行' | '入' if w.motion.is_none() => w.motion = Some(Motion::Up),
            '引' if w.motion.is_none() => w.motion = Some(Motion::Back),
            '寄' if w.motion.is_none() => w.motion = Some(Motion::Sideways),
            _ => break,
        }
        i += 1;
    }
    match (c.get(i), c.get(i + 1)) {
        (Some('打'), _) => {
            w.drop = true;
            i += 1;
        }
        (Some('不'), Some('成')) => {
            w.promote = Some(false);
            i += 2;
        }
        (Some('生'), _) => {
            w.promote = Some(false);
            i += 1;
        }
        (Some('成'), _) => {
            w.promote = Some(true);
            i += 1;
        }
        _ => {}
    }
    if c.get(i) == Some(&'(') {
        let close = c[i..]
            .iter()
            .position(|&x| x == ')')
            .ok_or(WrittenMoveError::FromUnclosed)?;
        let inside: Vec<usize> = c[i + 1..i + close]
            .iter()
            .filter(|x| !x.is_whitespace())
            .map(|&x| digit_value(x))
            .collect::<Option<_>>()
            .ok_or(WrittenMoveError::FromDigits)?;
        let [f, r] = inside[..] else {
            return Err(WrittenMoveError::FromDigits);
        };
        w.from = Some((f, r));
        i += close + 1;
    }
    if i < c.len() {
        let rest: String = c[i..].iter().take(12).collect();
        return Err(WrittenMoveError::Trailing(rest));
    }
    Ok(w)
}

/// The legal move a written move names in `pos`, `last_to` being where the previous move went (for 同).
pub fn resolve<V: Variant>(
    pos: &Position<V>,
    w: &Written,
    last_to: Option<Square>,
) -> Result<Move, WrittenMoveError> {
    let to = match w.to {
        None => last_to.ok_or(WrittenMoveError::SameWithoutMove)?,
        Some((f, r)) => square_at::<V>(f, r).ok_or(WrittenMoveError::OffBoard)?,
    };
    let legal = pos.legal_moves();
    let is_legal = |m: Move| legal.contains(&m);
    let name = piece_name(w.kind);
    if let Some((f, r)) = w.from {
        let from = square_at::<V>(f, r).ok_or(WrittenMoveError::FromOffBoard)?;
        let here = pos.piece_at(from);
        if here.is_none() || here.color() != pos.side_to_move() || here.kind() != w.kind {
            return Err(WrittenMoveError::NoPieceOn {
                name,
                file: f,
                rank: r,
            });
        }
        return pick(w, Move::normal(from, to, false), &is_legal);
    }
    let drop = Move::drop(w.kind, to);
    if w.drop {
        return if is_legal(drop) {
            Ok(drop)
        } else {
            Err(WrittenMoveError::NoDrop(name))
        };
    }
    let froms = froms_to(pos, w.kind, to);
    let chosen = filter_from::<V>(pos.side_to_move(), to, &froms, w.place, w.motion);
    match chosen[..] {
        [from] => pick(w, Move::normal(from, to, false), &is_legal),
        [] if w.place.is_none() && w.motion.is_none() && w.promote.is_none() && is_legal(drop) => {
            Ok(drop)
        }
        [] => Err(WrittenMoveError::NoneCanMove(name)),
        _ => Err(WrittenMoveError::Ambiguous {
            count: chosen.len(),
            name,
        }),
    }
}

/// The board move from `plain`'s squares with the promotion the text gives; where it gives none, the one that is
/// legal (a forced promotion written without 成 is still read).
fn pick(
    w: &Written,
    plain: Move,
    is_legal: &dyn Fn(Move) -> bool,
) -> Result<Move, WrittenMoveError> {
    let promoted = Move::normal(plain.from(), plain.to(), true);
    let m = match w.promote {
        Some(true) => promoted,
        Some(false) => plain,
        None if !is_legal(plain) && is_legal(promoted) => promoted,
        None => plain,
    };
    if is_legal(m) {
        Ok(m)
    } else if w.promote == Some(true) {
        Err(WrittenMoveError::NoPromotion)
    } else {
        Err(WrittenMoveError::Illegal)
    }
}

#[cfg(test)]
mod tests {
    use super::super::japanese::{kanji_count, parse_kanji_count};
    use super::*;
    use crate::rules::variant::{Minishogi, Shogi};

    #[test]
    fn written_moves_are_read_back() {
        let w = parse_written("▲５八銀左上成").unwrap();
        assert_eq!(
            (w.kind, w.place, w.motion, w.promote),
            (
                Kind::Silver,
                Some(Place::Left),
                Some(Motion::Up),
                Some(true)
            )
        );
        let w = parse_written("同　成銀(43)").unwrap();
        assert_eq!(
            (w.to, w.kind, w.from),
            (None, Kind::ProSilver, Some((4, 3)))
        );
        let w = parse_written("7六歩(77)").unwrap();
        assert_eq!((w.to, w.from), (Some((7, 6)), Some((7, 7))));
        assert_eq!(parse_written("５五角打").map(|w| w.drop), Ok(true));
        assert!(parse_written("５五").is_err());
        assert!(parse_written("５五角打x").is_err());
        assert!(parse_written("７六歩(7)").is_err());
        let pos = Position::<Shogi>::startpos();
        let m = resolve(&pos, &parse_written("７六歩").unwrap(), None).unwrap();
        assert_eq!(m, pos.parse_move("7g7f").unwrap());
        assert!(resolve(&pos, &parse_written("同　歩").unwrap(), None).is_err());
        // two golds can go to 5h from the start: the bare name does not say which
        let e = resolve(&pos, &parse_written("５八金").unwrap(), None).unwrap_err();
        assert_eq!(
            e.to_string(),
            "2 金s can move there: the move does not say which"
        );
        let m = resolve(&pos, &parse_written("５八金右").unwrap(), None).unwrap();
        assert_eq!(m, pos.parse_move("4i5h").unwrap());
        let mini = Position::<Minishogi>::startpos();
        let m = resolve(&mini, &parse_written("２四歩").unwrap(), None);
        assert!(m.is_err(), "{m:?}");
        assert_eq!(kanji_count(18), "十八");
        assert_eq!(parse_kanji_count("十八"), Some(18));
        assert_eq!(parse_kanji_count(""), Some(1));
    }
}
