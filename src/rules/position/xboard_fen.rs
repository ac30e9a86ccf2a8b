//! XBoard's FEN for shogi boards, with holdings: `rbsgk/4p/5/P4/KGSBR[Pb] w 0 1`.
//!
//! The board field is the SFEN board (ranks from gote's side down, files from sente's left, `+` before a
//! promoted piece, upper case for sente); the holdings follow in brackets, one letter per piece (`[-]` or `[]`
//! when both are empty); the side to move is `w` for sente (XBoard's "white" moves first) and `b` for gote; any
//! fields after it (castling and e.p. placeholders, move counters) are read but not needed. Conversion goes
//! through SFEN, so that every check of [`Position::from_sfen`] applies to a `setboard` as well.
//!
//! The XBoard front end reads and writes it; the USI front end reads it too (UCI2WB passes XBoard's FEN on in
//! `position sfen`), through the host's `Game::parse_xboard_fen`. It lives here, below both.

use crate::rules::piece::{Color, Kind, HAND_KIND_COUNT};
use crate::rules::position::sfen::SfenError;
use crate::rules::position::Position;
use crate::rules::truncate;
use crate::rules::variant::Variant;

/// The XBoard FEN of a position.
pub fn to_fen<V: Variant>(pos: &Position<V>) -> String {
    let sfen = pos.to_sfen();
    let fields: Vec<&str> = sfen.split(' ').collect();
    let mut holdings = String::new();
    for c in Color::ALL {
        for &k in V::HAND_KINDS {
            let l = if c == Color::Black {
                k.letter()
            } else {
                k.letter().to_ascii_lowercase()
            };
            for _ in 0..pos.hand(c).count(k) {
                holdings.push(l);
            }
        }
    }
    if holdings.is_empty() {
        holdings.push('-');
    }
    let side = if pos.side_to_move() == Color::Black {
        'w'
    } else {
        'b'
    };
    // XBoard counts full moves (a sente move and the gote reply); SFEN counts plies
    let full_moves = pos.move_number().div_ceil(2).max(1);
    format!("{}[{holdings}] {side} 0 {full_moves}", fields[0])
}

/// Why an XBoard FEN was refused: its fields or holdings do not read, or the position they give is no legal
/// SFEN position (the SFEN's own error); a side quoted is cut to 40 characters.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum XboardFenError {
    #[error("empty FEN")]
    Empty,
    #[error("side to move must be 'w' or 'b', not '{0}'")]
    Side(String),
    #[error("FEN has no side to move")]
    NoSide,
    #[error("holdings must end with ']'")]
    Holdings,
    #[error("'{0}' cannot be held in hand")]
    NotInHand(char),
    #[error(transparent)]
    Sfen(#[from] SfenError),
}

/// Reads an XBoard FEN as the position of `V`. The error says what is wrong in words.
pub fn parse_fen<V: Variant>(fen: &str) -> Result<Position<V>, XboardFenError> {
    let mut fields = fen.split_whitespace();
    let board_field = fields.next().ok_or(XboardFenError::Empty)?;
    let side = match fields.next() {
        Some("w") => "b",
        Some("b") => "w",
        Some(s) => return Err(XboardFenError::Side(truncate(s))),
        None => return Err(XboardFenError::NoSide),
    };
    let (board, holdings) = match board_field.split_once('[') {
        Some((b, rest)) => {
            let h = rest.strip_suffix(']').ok_or(XboardFenError::Holdings)?;
            (b, h)
        }
        None => (board_field, ""),
    };
    let hands = hands_field(holdings)?;
    // the full-move number is the last field after the side (`w 0 1`, `w - - 0 1`); SFEN counts plies
    let rest: Vec<&str> = fields.collect();
    let full_moves = match rest[..] {
        [_, .., last] => last
            .parse::<u32>()
            .ok()
            .filter(|n| (1..500_000).contains(n))
            .unwrap_or(1),
        _ => 1,
    };
    let ply = 2 * (full_moves - 1) + 1 + u32::from(side == "w");
    let sfen = format!("{board} {side} {hands} {ply}");
    Ok(Position::<V>::from_sfen(&sfen)?)
}

/// XBoard's holdings (one letter per piece, `-` for none) as an SFEN hand field (a count before each letter).
fn hands_field(holdings: &str) -> Result<String, XboardFenError> {
    let mut counts = [[0u32; HAND_KIND_COUNT]; 2];
    for ch in holdings.chars().filter(|&c| c != '-') {
        let kind = match Kind::from_letter(ch) {
            Some(k) if k.is_hand_kind() => k,
            _ => return Err(XboardFenError::NotInHand(ch)),
        };
        let c = if ch.is_ascii_uppercase() { 0 } else { 1 };
        counts[c][kind.index()] += 1;
    }
    let mut s = String::new();
    for (c, row) in counts.iter().enumerate() {
        for (k, &n) in row.iter().enumerate() {
            if n == 0 {
                continue;
            }
            if n > 1 {
                s.push_str(&n.to_string());
            }
            let l = Kind::from_index(k).letter();
            s.push(if c == 0 { l } else { l.to_ascii_lowercase() });
        }
    }
    if s.is_empty() {
        s.push('-');
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Minishogi, Shogi, Yari};

    #[test]
    fn start_positions_as_xboard_writes_them() {
        assert_eq!(
            to_fen(&Position::<Minishogi>::startpos()),
            "rbsgk/4p/5/P4/KGSBR[-] w 0 1"
        );
        assert_eq!(
            to_fen(&Position::<Yari>::startpos()),
            "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR[-] w 0 1"
        );
        assert_eq!(
            to_fen(&Position::<Shogi>::startpos()),
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1"
        );
    }

    #[test]
    fn holdings_promotions_and_side_round_trip() {
        let sfen = "4k4/4+R4/9/9/9/9/9/9/4K4 w 2PGb 10";
        let pos = Position::<Shogi>::from_sfen(sfen).unwrap();
        let fen = to_fen(&pos);
        assert_eq!(fen, "4k4/4+R4/9/9/9/9/9/9/4K4[PPGb] b 0 5");
        let back = parse_fen::<Shogi>(&fen).unwrap();
        assert_eq!(back.to_sfen(), "4k4/4+R4/9/9/9/9/9/9/4K4 w G2Pb 10");
        // holdings in any order, fields after the side ignored, no holdings at all
        let p = parse_fen::<Shogi>("4k4/9/9/9/9/9/9/9/4K4[bPGP] w - - 0 1").unwrap();
        assert_eq!(p.to_sfen(), "4k4/9/9/9/9/9/9/9/4K4 b G2Pb 1");
        let p = parse_fen::<Minishogi>("rbsgk/4p/5/P4/KGSBR b").unwrap();
        assert_eq!(p.to_sfen(), "rbsgk/4p/5/P4/KGSBR w - 2");
    }

    #[test]
    fn bad_fens_say_why() {
        for bad in [
            "",
            "rbsgk/4p/5/P4/KGSBR",
            "rbsgk/4p/5/P4/KGSBR[-] x",
            "rbsgk/4p/5/P4/KGSBR[- w",
            "rbsgk/4p/5/P4/KGSBR[K] w",
            "rbsgk/4p/5/P4/KGSBR[X] w",
            "rbsgk/4p/5/P4/KGSB[-] w",
            "rbsgk/4p/5/P4/KGSBR[L] w",
            "rbsgk/4p/5/P4/KGSBR[PPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPP] w",
        ] {
            assert!(parse_fen::<Minishogi>(bad).is_err(), "{bad}");
        }
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;
        use proptest::test_runner::Config;

        fn check<V: Variant>(fen: &str) -> Result<(), TestCaseError> {
            if let Ok(p) = parse_fen::<V>(fen) {
                let printed = to_fen(&p);
                let again =
                    parse_fen::<V>(&printed).map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert_eq!(to_fen(&again), printed);
                prop_assert_eq!(again.key(), p.key());
            }
            Ok(())
        }

        proptest! {
            #![proptest_config(Config { cases: 3000, failure_persistence: None, ..Config::default() })]

            /// Any text is an XBoard FEN of each game or an error, never a panic; an accepted one prints back to
            /// a FEN of the same position.
            #[test]
            fn fens_parse_or_refuse(fen in "[1-9rbsgkplnRBSGKPLN+/]{0,60}(\\[[A-Za-z+-é]{0,6}\\])? [wb] [0-9]{0,3} [0-9]{0,3}") {
                check::<Shogi>(&fen)?;
                check::<Minishogi>(&fen)?;
                check::<Yari>(&fen)?;
            }
        }
    }
}
