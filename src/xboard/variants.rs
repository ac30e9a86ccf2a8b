//! What XBoard must be told about each game: the names for the `variants` feature, and for the games it does not
//! know itself the `setup` line (piece letters, board size, holdings, parent variant, start position) and the
//! `piece` lines (each piece's moves in Betza's notation, so that XBoard can test moves and detect mates).
//!
//! XBoard knows 9×9 shogi. Minishogi is XBoard's shogi on a 5×5 board with 5 holdings (`5x5+5_shogi`), but a
//! changed board size leaves XBoard's board empty, so the engine sends the start position for it as well.
//!
//! Yari shogi is new to XBoard: it is played as XBoard's shogi on a 7×9 board whose pieces take the slots of
//! shogi pieces with our SFEN letters, their promoted forms the `+` slots, and `piece` lines give their moves
//! (Fairy-Stockfish answers `variant yarishogi` the same way). XBoard's shogi keeps its own rules for the slot a
//! piece takes: a piece in the knight's slot must promote on the last two ranks and cannot be dropped there,
//! one in the lance's slot only on the last rank. The yari knight (any distance forward, or the knight's leap)
//! has the lance's rule, so it takes the lance's slot (drawn as a lance); in the knight's slot, as
//! Fairy-Stockfish has it, XBoard promotes a yari knight that stops on the eighth rank and forfeits one dropped
//! there. The pawn takes the pawn's slot (the same rules), the yari bishop and rook those of the bishop and
//! rook, which XBoard never forces to promote (Hayate promotes the yari bishop on the last rank itself). The
//! pawn-drop-mate and repetition rules stay the engine's own.

use crate::rules::position::xboard_fen::to_fen;
use crate::rules::position::Position;
use crate::rules::variant::{Minishogi, Yari};
use crate::GameKind;

/// The `variants` feature: each game's XBoard name, then ours where it differs.
pub fn feature_list() -> String {
    let mut names: Vec<&str> = Vec::new();
    for g in GameKind::ALL {
        for n in [g.xboard_name(), g.name()] {
            if !names.contains(&n) {
                names.push(n);
            }
        }
    }
    names.join(",")
}

/// The lines that answer `variant <game>`: none for 9×9 shogi, which XBoard knows.
pub fn announcement(kind: GameKind) -> Vec<String> {
    match kind {
        GameKind::Shogi => Vec::new(),
        // XBoard's shogi piece table with the knight and lance slots left out
        GameKind::Minishogi => vec![format!(
            "setup (P.BR.S...G.+.++.+Kp.br.s...g.+.++.+k) 5x5+5_shogi {}",
            to_fen(&Position::<Minishogi>::startpos())
        )],
        GameKind::Yari => {
            // slots: pawn P, bishop B, rook R, lance N; promoted pawn, bishop, rook and lance
            let mut lines = vec![format!(
                "setup (P.BRN......+.+++Kp.brn......+.+++k) 7x9+4_shogi {}",
                to_fen(&Position::<Yari>::startpos())
            )];
            lines.extend(
                YARI_PIECES
                    .iter()
                    .map(|(id, betza)| format!("piece {id}& {betza}")),
            );
            lines
        }
    }
}

/// Yari shogi's pieces in Betza's notation (`f` forward, `b` backward, `l`/`r` sideways; `W` one orthogonal
/// step, `F` one diagonal step, `K` both, `R` an orthogonal slide, `N` the knight's leap, `ff` its two forward
/// leaps). Gote's pieces move the same way from gote's side (the `&`). XBoard reads a lone direction on `K`
/// narrowly: its `fK` is the single step straight forward, not the three forward steps, so the yari silver is
/// written `fWfF` (with `fK` XBoard forfeited Hayate for a silver's diagonal step).
const YARI_PIECES: [(&str, &str); 9] = [
    ("K", "K"),
    // pawn: one step forward
    ("P", "fW"),
    // yari knight: any distance forward, or the shogi knight's leap
    ("N", "fRffN"),
    // yari bishop: any distance forward, or one step diagonally forward
    ("B", "fFfR"),
    // yari rook: any distance forward or sideways, never back
    ("R", "frlR"),
    // yari silver (promoted pawn): one step forward or diagonally forward, any distance back
    ("+P", "fWfFbR"),
    // yari gold (promoted knight or bishop): the gold's steps and any distance back
    ("+N", "WfFbR"),
    ("+B", "WfFbR"),
    // promoted yari rook: the rook
    ("+R", "R"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_name_is_a_game() {
        let list = feature_list();
        assert_eq!(list, "shogi,5x5+5_shogi,minishogi,yarishogi");
        for name in list.split(',') {
            assert!(name.parse::<GameKind>().is_ok(), "{name}");
        }
    }

    #[test]
    fn setups_name_the_board_and_start_position() {
        assert!(announcement(GameKind::Shogi).is_empty());
        assert_eq!(
            announcement(GameKind::Minishogi),
            ["setup (P.BR.S...G.+.++.+Kp.br.s...g.+.++.+k) 5x5+5_shogi rbsgk/4p/5/P4/KGSBR[-] w 0 1"]
        );
        let yari = announcement(GameKind::Yari);
        assert_eq!(
            yari[0],
            "setup (P.BRN......+.+++Kp.brn......+.+++k) 7x9+4_shogi rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR[-] w 0 1"
        );
        assert_eq!(yari.len(), 10);
        assert!(yari[1..].iter().all(|l| l.starts_with("piece ")));
    }

    /// The steps of a Betza string as XBoard 4.9 reads it, for sente: `(right, forward, slides)` per direction.
    /// Only what `YARI_PIECES` uses is read; anything else fails the test.
    fn xboard_betza(text: &str) -> Vec<(i32, i32, bool)> {
        const ORTHOGONAL: [(char, i32, i32); 4] =
            [('f', 0, 1), ('b', 0, -1), ('l', -1, 0), ('r', 1, 0)];
        let mut out = Vec::new();
        let mut mods = String::new();
        for c in text.chars() {
            if c.is_ascii_lowercase() {
                mods.push(c);
                continue;
            }
            let slides = matches!(c, 'R' | 'B' | 'Q');
            let diagonal = |m: &str| -> Vec<(i32, i32)> {
                let all = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
                all.into_iter()
                    .filter(|&(x, y)| {
                        m.chars().all(|d| match d {
                            'f' => y > 0,
                            'b' => y < 0,
                            'l' => x < 0,
                            'r' => x > 0,
                            _ => panic!("modifier {d} on a diagonal atom"),
                        })
                    })
                    .collect()
            };
            let orthogonal = |m: &str| -> Vec<(i32, i32)> {
                ORTHOGONAL
                    .iter()
                    .filter(|(d, _, _)| {
                        m.is_empty() || m.contains(*d) || (m.contains('s') && "lr".contains(*d))
                    })
                    .map(|&(_, x, y)| (x, y))
                    .collect()
            };
            let steps: Vec<(i32, i32)> = match c {
                'W' | 'R' => orthogonal(&mods),
                'F' | 'B' => diagonal(&mods),
                'K' | 'Q' => {
                    // a pair (`fl`) names one diagonal; a lone direction only the orthogonal step
                    if mods.len() == 2 {
                        diagonal(&mods)
                    } else if mods.is_empty() {
                        [orthogonal(""), diagonal("")].concat()
                    } else {
                        orthogonal(&mods)
                    }
                }
                'N' => {
                    assert!(mods.is_empty() || mods == "f" || mods == "ff", "{text}");
                    let mut leaps = vec![(1, 2), (-1, 2)];
                    if mods.is_empty() {
                        leaps.extend([(2, 1), (-2, 1), (1, -2), (-1, -2), (2, -1), (-2, -1)]);
                    }
                    leaps
                }
                _ => panic!("atom {c} in {text}"),
            };
            out.extend(steps.into_iter().map(|(x, y)| (x, y, slides)));
            mods.clear();
        }
        out
    }

    /// XBoard tests the moves it is told against the rules core: each `piece` line, read as XBoard reads it,
    /// must reach exactly the squares Hayate's own attack tables give, from the middle of an empty board.
    #[test]
    fn xboard_reads_each_yari_piece_as_the_rules_move_it() {
        use crate::rules::bitboard::Bitboard;
        use crate::rules::piece::{Color, Kind};
        use crate::rules::square::Square;
        use crate::rules::variant::Variant;
        type Bb = crate::rules::position::Bb<Yari>;
        let (files, ranks) = (Yari::FILES as i32, Yari::RANKS as i32);
        let (file, rank) = (3, 4); // 4e: room in every direction
        let from = Square::from_coords(file as usize, rank as usize, ranks as usize);
        for (id, betza) in YARI_PIECES {
            let letter = id.chars().last().expect("a letter");
            let base = Kind::from_letter(letter).expect("a piece letter");
            let kind = if id.starts_with('+') {
                base.promoted().expect("a promotable piece")
            } else {
                base
            };
            let mut xboard = Bb::EMPTY;
            for (right, forward, slides) in xboard_betza(betza) {
                // right from sente's side is toward file 1; forward is toward rank a
                let (mut f, mut r) = (file - right, rank - forward);
                while (0..files).contains(&f) && (0..ranks).contains(&r) {
                    xboard |= Bitboard::square(Square::from_coords(
                        f as usize,
                        r as usize,
                        ranks as usize,
                    ));
                    if !slides {
                        break;
                    }
                    f -= right;
                    r -= forward;
                }
            }
            let ours = Position::<Yari>::attacks_from(Color::Black, kind, from, Bb::EMPTY);
            assert_eq!(xboard, ours, "piece {id} {betza}");
        }
    }
}
