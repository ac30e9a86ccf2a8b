//! Positions and games as text, in and out: SFEN, USI (`position ...` or a bare move list), our record lines
//! (`games.txt`) for all three games, CSA for 9×9, KIF and KI2 for 9×9 and minishogi. Pasted text is recognised
//! by its shape; every position and move goes through the rules core ([`Record`]) before it replaces the game.

use super::record::{Record, RecordError};
use crate::host::records::{csa_text, RecordLine, RecordLineError};
use crate::host::Game;
use crate::rules::notation::ki2;
use crate::rules::notation::kif::{self, Ending, KifError, KifGame, KifWriteError};
use crate::rules::piece::Color;
use crate::rules::position::csa::{self, CsaError};
use crate::rules::position::sfen::SfenError;
use crate::rules::truncate;
use crate::{with_variant, GameKind};

/// Handicap start positions (RULES.md), the handicap giver (gote) to move.
fn handicaps(kind: GameKind) -> &'static [(&'static str, &'static str)] {
    match kind {
        GameKind::Shogi => &[
            (
                "lance",
                "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            ),
            (
                "bishop",
                "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            ),
            (
                "rook",
                "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            ),
            (
                "two-pieces",
                "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            ),
        ],
        GameKind::Minishogi => &[
            ("bishop", "r1sgk/4p/5/P4/KGSBR w - 1"),
            ("rook", "1bsgk/4p/5/P4/KGSBR w - 1"),
            ("two-pieces", "2sgk/4p/5/P4/KGSBR w - 1"),
            ("silver", "3gk/4p/5/P4/KGSBR w - 1"),
            ("gold", "4k/4p/5/P4/KGSBR w - 1"),
        ],
        GameKind::Yari => &[],
    }
}

/// `startpos` and the game's handicap names.
pub fn start_names(kind: GameKind) -> Vec<String> {
    std::iter::once("startpos")
        .chain(handicaps(kind).iter().map(|h| h.0))
        .map(str::to_string)
        .collect()
}

/// A start the page named that is neither an SFEN nor one of the game's handicaps; the name is cut to 40
/// characters, and the known ones are listed so that the page's user sees what to pick.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown start '{name}' for {kind} (known: {})", start_names(*.kind).join(", "))]
pub struct UnknownStart {
    name: String,
    kind: GameKind,
}

/// The SFEN of a start named by the page (None: the game's start position); an SFEN passes through.
pub fn start_sfen(kind: GameKind, start: Option<&str>) -> Result<Option<String>, UnknownStart> {
    match start.map(str::trim) {
        None | Some("") | Some("startpos") => Ok(None),
        Some(s) if s.contains('/') => Ok(Some(s.strip_prefix("sfen ").unwrap_or(s).to_string())),
        Some(s) => handicaps(kind)
            .iter()
            .find(|h| h.0 == s)
            .map(|h| Some(h.1.to_string()))
            .ok_or_else(|| UnknownStart {
                name: truncate(s),
                kind,
            }),
    }
}

/// What an imported KIF or KI2 says beside its start and moves: the players, the other header fields, each
/// move's time, the comments and the ending. They were written for those moves, and hold for as long as the game
/// follows them: a move taken back and another played keeps the notes of the moves before it, and the ending only
/// stands while the game is exactly the one recorded. The other formats bring none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Notes {
    /// Sente's (下手's) and gote's (上手's).
    pub names: Option<[String; 2]>,
    /// In the record's order, without 手合割 and the names.
    pub headers: Vec<(String, String)>,
    moves: Vec<String>,
    times_ms: Vec<Option<u64>>,
    /// `comments[0]` before the first move, `comments[i]` after move `i`.
    comments: Vec<Vec<String>>,
    ending: Option<Ending>,
}

impl Notes {
    /// What the record holds beside its start, taken from it whole (the game was replayed from `moves` first).
    fn from_kif(game: KifGame) -> Notes {
        Notes {
            names: game
                .names
                .iter()
                .any(|n| !n.is_empty())
                .then_some(game.names),
            headers: game.headers,
            moves: game.moves,
            times_ms: game.times_ms,
            comments: game.comments,
            ending: game.ending,
        }
    }

    /// How many plies of `moves` the notes were written for.
    fn shared(&self, moves: &[String]) -> usize {
        moves
            .iter()
            .zip(&self.moves)
            .take_while(|(a, b)| a == b)
            .count()
    }

    /// Each move's time, one per move of `moves`.
    pub fn times_ms(&self, moves: &[String]) -> Vec<Option<u64>> {
        let n = self.shared(moves);
        (0..moves.len())
            .map(|i| self.times_ms.get(i).copied().flatten().filter(|_| i < n))
            .collect()
    }

    /// The comments of each position of `moves`: before the first move, then after each move.
    pub fn comments(&self, moves: &[String]) -> Vec<Vec<String>> {
        let n = self.shared(moves);
        (0..=moves.len())
            .map(|i| match self.comments.get(i) {
                Some(c) if i <= n => c.clone(),
                _ => Vec::new(),
            })
            .collect()
    }

    /// The recorded ending (投了, 切れ負け, ...), while the game is the one recorded.
    pub fn ending(&self, moves: &[String]) -> Option<Ending> {
        self.ending.filter(|_| moves == self.moves.as_slice())
    }
}

/// Why pasted text did not become the game: there is none or too much, its format's reader refused it, or the
/// rules refused its start or a move; a word quoted is cut to 40 characters.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    #[error("nothing to import")]
    Empty,
    #[error("the text is too long")]
    TooLong,
    #[error(transparent)]
    Kif(#[from] KifError),
    #[error(transparent)]
    Csa(#[from] CsaError),
    #[error(transparent)]
    Line(#[from] RecordLineError),
    #[error("expected 'moves', found '{0}'")]
    NotMoves(String),
    #[error("bad SFEN: {0}")]
    Sfen(SfenError),
    #[error(transparent)]
    Record(#[from] RecordError),
}

/// Why the game could not be written as the page asked: the format is unknown, does not hold this game (a
/// record line or CSA needs a finished game, CSA 9×9 shogi), or its writer refused it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Kif(#[from] KifWriteError),
    #[error("a record line holds a finished game; export usi instead")]
    UnfinishedLine,
    #[error("a CSA record holds a finished game; export usi instead")]
    UnfinishedCsa,
    #[error("CSA records are for 9x9 shogi only")]
    CsaKind,
    #[error("unknown format '{0}' (sfen, usi, record, csa, kif, ki2)")]
    Format(String),
}

/// Reads a game from pasted text, detecting its format, with what the record says beside its moves. `current`
/// is the game a bare USI move list or `position startpos` belongs to.
pub fn import(text: &str, current: GameKind) -> Result<(Record, Notes), ImportError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ImportError::Empty);
    }
    if text.len() > 1_000_000 {
        return Err(ImportError::TooLong);
    }
    if kif::looks_like_kif(text) {
        let game = kif::read(text)?;
        let rec = Record::new(game.kind, Some(&game.start_sfen))?
            .with_moves(game.moves.iter().map(String::as_str))?;
        return Ok((rec, Notes::from_kif(game)));
    }
    Ok((import_record(text, current)?, Notes::default()))
}

/// A game from text of a format that holds nothing beside the moves.
fn import_record(text: &str, current: GameKind) -> Result<Record, ImportError> {
    let first = text.split_whitespace().next().unwrap_or("");
    if text.lines().any(|l| csa::is_csa_line(l.trim())) {
        return import_csa(text);
    }
    if matches!(first, "1-0" | "0-1" | "1/2-1/2") {
        // the first line of a games.txt, the game as it was (its ending is judged again by the rules)
        let line = RecordLine::parse(text.lines().next().unwrap_or(""))?;
        return from_sfen_and_moves(&line.start_sfen, &line.moves, current);
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    let words = match words.first() {
        Some(&"position") => &words[1..],
        _ => &words[..],
    };
    match words.first() {
        Some(&"startpos") => {
            let moves = moves_after(&words[1..])?;
            Ok(Record::new(current, None)?.with_moves(moves)?)
        }
        Some(&"sfen") => sfen_then_moves(&words[1..], current),
        Some(w) if w.contains('/') => sfen_then_moves(words, current),
        // a bare move list from the current game's start position
        _ => Ok(Record::new(current, None)?.with_moves(words.iter().copied())?),
    }
}

/// `<sfen fields> [moves ...]`.
fn sfen_then_moves(words: &[&str], current: GameKind) -> Result<Record, ImportError> {
    let end = words
        .iter()
        .position(|&w| w == "moves")
        .unwrap_or(words.len());
    let sfen = words[..end].join(" ");
    let moves: Vec<String> = words[end..].iter().skip(1).map(|s| s.to_string()).collect();
    from_sfen_and_moves(&sfen, &moves, current)
}

fn moves_after<'a>(words: &[&'a str]) -> Result<Vec<&'a str>, ImportError> {
    match words.first() {
        None => Ok(Vec::new()),
        Some(&"moves") => Ok(words[1..].to_vec()),
        Some(w) => Err(ImportError::NotMoves(truncate(w))),
    }
}

/// The game is the one whose board the SFEN draws.
fn from_sfen_and_moves(
    sfen: &str,
    moves: &[String],
    current: GameKind,
) -> Result<Record, ImportError> {
    let kind = Game::start(current)
        .parse_sfen(sfen)
        .map_err(ImportError::Sfen)?
        .kind();
    Ok(Record::new(kind, Some(sfen))?.with_moves(moves.iter().map(String::as_str))?)
}

/// The game as text in `format`: `sfen`, `usi`, `record` (finished games only), `csa` (9×9 only), `kif` or `ki2`
/// (9×9 and minishogi, with the notes that still hold: header fields, times, comments, a recorded ending).
pub fn export(
    rec: &Record,
    format: &str,
    names: &[String; 2],
    notes: &Notes,
) -> Result<String, ExportError> {
    match format {
        "kif" => Ok(kif::write(&kif_game(rec, names, notes))?),
        "ki2" => Ok(ki2::write(&kif_game(rec, names, notes))?),
        "sfen" => Ok(rec.sfen()),
        "usi" => Ok(rec.position_command()),
        "record" | "csa" => {
            let Some(ending) = rec.ending else {
                return Err(if format == "csa" {
                    ExportError::UnfinishedCsa
                } else {
                    ExportError::UnfinishedLine
                });
            };
            let line = RecordLine {
                outcome: ending.outcome,
                reason: ending.reason,
                start_sfen: rec.start_sfen.clone(),
                moves: rec.moves.clone(),
            };
            if format == "record" {
                return Ok(line.format());
            }
            with_variant!(rec.kind, V => {
                csa_text::<V>(&line, [&names[0], &names[1]], &vec![None; line.moves.len()])
                    .ok_or(ExportError::CsaKind)
            })
        }
        _ => Err(ExportError::Format(truncate(format))),
    }
}

/// The game as KIF and KI2 hold it: a game in progress has no ending but the one its record had.
fn kif_game(rec: &Record, names: &[String; 2], notes: &Notes) -> KifGame {
    let mut game = KifGame::new(rec.kind, &rec.start_sfen, rec.moves.clone());
    game.names = names.clone();
    game.headers = notes.headers.clone();
    game.times_ms = notes.times_ms(&rec.moves);
    game.comments = notes.comments(&rec.moves);
    let to_move = if rec.black_to_move() {
        Color::Black
    } else {
        Color::White
    };
    game.ending = rec
        .ending
        .map(|e| e.reason.kif_ending(e.outcome, to_move))
        .or_else(|| notes.ending(&rec.moves));
    game
}

/// A 9×9 CSA record (`rules::position::csa`), its moves judged as they are replayed.
fn import_csa(text: &str) -> Result<Record, ImportError> {
    let game = csa::read(text)?;
    Record::new(GameKind::Shogi, game.start_sfen.as_deref())?
        .with_moves_read(game.moves, |m, is_legal| Ok(csa::usi_move(m, is_legal)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The game of an import, without its notes.
    fn import_game(text: &str, current: GameKind) -> Result<Record, ImportError> {
        import(text, current).map(|(rec, _)| rec)
    }

    #[test]
    fn formats_are_detected() {
        let r = import_game("position startpos moves 7g7f 3c3d", GameKind::Shogi).unwrap();
        assert_eq!(r.moves, vec!["7g7f", "3c3d"]);
        let r = import_game("3e3d 3a3b", GameKind::Minishogi).unwrap();
        assert_eq!(r.kind, GameKind::Minishogi);
        let r = import_game(
            "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1 moves 1g1f",
            GameKind::Shogi,
        )
        .unwrap();
        assert_eq!(r.kind, GameKind::Yari);
        let r = import_game(
            "1-0 resign sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 3e3d",
            GameKind::Shogi,
        )
        .unwrap();
        assert_eq!((r.kind, r.moves.len()), (GameKind::Minishogi, 1));
        let r = import_game(
            "V2.2\nN+a\nN-b\nPI\n+\n+7776FU\nT1\n-3334FU\n+8822UM\n%TORYO\n",
            GameKind::Minishogi,
        )
        .unwrap();
        assert_eq!(r.moves, vec!["7g7f", "3c3d", "8h2b+"]);
        assert!(import_game("7g7f 7g7f", GameKind::Shogi).is_err());
        // two pieces of a kind in hand
        let two_pawns = "P1 *  *  *  * -OU *  *  *  * \nP2 *  *  *  *  *  *  *  *  * \nP3 *  *  *  *  *  *  *  *  * \n\
                         P4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \n\
                         P7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \nP9 *  *  *  * +OU *  *  *  * \n\
                         P+00FU00KI00FU\n+\n";
        let r = import_game(two_pawns, GameKind::Shogi).unwrap();
        assert_eq!(r.start_sfen, "4k4/9/9/9/9/9/9/9/4K4 b G2P 1");
        assert!(import_game("", GameKind::Shogi).is_err());
    }

    #[test]
    fn csa_round_trip() {
        let mut r = Record::new(GameKind::Shogi, Some("4k4/9/4P4/9/9/9/9/9/4K4 b G 1")).unwrap();
        r.play("G*5b").unwrap();
        let names = ["a".to_string(), "b".to_string()];
        let csa = export(&r, "csa", &names, &Notes::default()).unwrap();
        let back = import_game(&csa, GameKind::Minishogi).unwrap();
        assert_eq!(back.start_sfen, r.start_sfen);
        assert_eq!(back.moves, r.moves);
        assert_eq!(
            export(&r, "record", &names, &Notes::default()).unwrap(),
            "1-0 checkmate sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1 moves G*5b"
        );
    }

    /// The refusals the page shows read as they did when they were strings.
    #[test]
    fn refusals_keep_their_text() {
        use crate::host::judge::{Outcome, Reason};
        let mut r = Record::new(GameKind::Minishogi, None).unwrap();
        let names = ["a".to_string(), "b".to_string()];
        let err = |r: &Record| export(r, "csa", &names, &Notes::default()).unwrap_err();
        let unfinished = "a CSA record holds a finished game; export usi instead";
        assert_eq!(err(&r).to_string(), unfinished);
        let (outcome, reason) = (Outcome::Draw, Reason::MaxPlies);
        r.ending = Some(crate::gui::record::Ending { outcome, reason });
        assert_eq!(err(&r).to_string(), "CSA records are for 9x9 shogi only");
        let e = import(&"7g7f ".repeat(200_001), GameKind::Shogi).unwrap_err();
        assert_eq!(e.to_string(), "the text is too long");
    }

    /// A KIF's players, header fields, times, comments and ending are kept beside the game and written back
    /// for the moves they were recorded with.
    #[test]
    fn a_kifs_notes_follow_its_moves() {
        let text = "開始日時：2024/01/02 10:00:00\n手合割：平手\n先手：羽生\n後手：藤井\n\
                    手数----指手---------消費時間--\n*序盤\n   1 ７六歩(77)   ( 0:05/00:00:05)\n\
                    *角道を開ける\n   2 ３四歩(33)   ( 1:10/00:01:10)\n   3 投了   ( 0:02/00:00:07)\n";
        let (rec, notes) = import(text, GameKind::Minishogi).unwrap();
        assert_eq!(rec.moves, ["7g7f", "3c3d"]);
        assert_eq!(notes.names, Some(["羽生".to_string(), "藤井".to_string()]));
        assert_eq!(
            notes.headers,
            [("開始日時".to_string(), "2024/01/02 10:00:00".to_string())]
        );
        assert_eq!(notes.times_ms(&rec.moves), [Some(5_000), Some(70_000)]);
        assert_eq!(
            notes.comments(&rec.moves),
            [
                vec!["序盤".to_string()],
                vec!["角道を開ける".to_string()],
                vec![]
            ]
        );
        assert_eq!(notes.ending(&rec.moves), Some(Ending::Resign));
        let names = notes.names.clone().unwrap();
        let again = export(&rec, "kif", &names, &notes).unwrap();
        let (back, back_notes) = import(&again, GameKind::Shogi).unwrap();
        assert_eq!(back.moves, rec.moves);
        assert_eq!(back_notes, notes, "{again}");
        // another second move: the first move's time and comment stay, the rest and the ending go
        let mut other = rec.clone();
        other.take_back(1);
        other.play("8c8d").unwrap();
        assert_eq!(notes.times_ms(&other.moves), [Some(5_000), None]);
        assert_eq!(
            notes.comments(&other.moves),
            [
                vec!["序盤".to_string()],
                vec!["角道を開ける".to_string()],
                vec![]
            ]
        );
        assert_eq!(notes.ending(&other.moves), None);
        let text = export(&other, "kif", &names, &notes).unwrap();
        assert!(text.contains("開始日時：2024/01/02 10:00:00"), "{text}");
        assert!(!text.contains("投了"), "{text}");
        // the other formats bring no notes
        assert_eq!(
            import("position startpos moves 7g7f", GameKind::Shogi)
                .unwrap()
                .1,
            Notes::default()
        );
    }

    mod properties {
        use super::*;
        use crate::host::judge::{Outcome, Reason};
        use proptest::prelude::*;
        use proptest::test_runner::Config;

        fn config(cases: u32) -> Config {
            Config {
                cases,
                failure_persistence: None,
                ..Config::default()
            }
        }

        /// Lines shaped like the formats the importer detects, with characters of several bytes where one is
        /// expected.
        fn line() -> impl Strategy<Value = String> {
            prop_oneof![
                Just("V2.2".to_string()),
                Just("PI".to_string()),
                Just("+".to_string()),
                Just("%TORYO".to_string()),
                "P[1-9][ +*A-Zéあ-]{0,30}",
                "P[+-][0-9A-Zéあ]{0,14}",
                "[+-][0-9é]{4}[A-Zéあ]{1,2}",
                "N[+-].{0,6}",
                "(1-0|0-1) [a-z]{0,6} sfen [0-9a-zA-Z+/]{0,20} [bw] [-0-9A-Za-z]{0,3} 1 moves [0-9a-i*+ ]{0,20}",
                "(position )?(startpos|sfen [0-9a-zA-Z+/]{0,40} [bwé] - 1)( moves [0-9a-iéあ*+ ]{0,30})?",
                // KIF and KI2 shapes: header fields, diagram rows, move lines, KI2 moves, summaries
                "(手合割|先手|後手|上手|下手|開始日時)[：:].{0,8}",
                "(先手|後手)の持駒：[歩香桂銀金角飛なし二十　 ]{0,8}",
                "\\|[ v・歩玉金飛角é]{0,20}\\|[一-九]?",
                " {0,3}[0-9]{1,3} [１-９同é][一九　 ]?[歩銀金と成玉é]{0,2}[右左直上引寄打不成]{0,2}(\\([0-9é]{0,3}\\)?)?( \\(.{0,12}\\))?",
                "[▲△][１-９同][一-九　]?[歩銀金成角]{1,2}[右左上打成]{0,2}",
                "まで[0-9]{0,3}手で.{0,8}",
                ".{0,40}",
            ]
        }

        /// A random legal game of `kind` from `start` (a handicap name or the start position), `plies` long at
        /// most, its moves drawn by `seed`.
        fn random_game(kind: GameKind, start: usize, plies: usize, mut seed: u64) -> Record {
            let names = start_names(kind);
            let sfen = start_sfen(kind, Some(&names[start % names.len()])).unwrap();
            let mut rec = Record::new(kind, sfen.as_deref()).unwrap();
            for _ in 0..plies {
                let legal = rec.view().legal;
                if legal.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let pick = usize::try_from((seed >> 33) % legal.len() as u64).unwrap_or(0);
                rec.play(&legal[pick]).unwrap();
            }
            rec
        }

        fn kind_of(i: u8) -> GameKind {
            [GameKind::Shogi, GameKind::Minishogi, GameKind::Yari][usize::from(i % 3)]
        }

        proptest! {
            #![proptest_config(config(3000))]

            #[test]
            fn any_text_is_imported_or_refused_without_panic(
                lines in prop::collection::vec(line(), 0..12),
                current in 0u8..3,
            ) {
                let text = lines.join("\n");
                if let Ok(rec) = import_game(&text, kind_of(current)) {
                    // what was accepted is a game the rules core replays to the same place
                    let again = Record::new(rec.kind, Some(&rec.start_sfen))
                        .and_then(|r| r.with_moves(rec.moves.iter().map(String::as_str)));
                    prop_assert_eq!(again.map(|r| r.sfen()), Ok(rec.sfen()));
                }
            }
        }

        proptest! {
            #![proptest_config(config(400))]

            #[test]
            fn every_export_imports_back_to_the_same_game(
                kind in 0u8..3,
                start in 0usize..6,
                plies in 0usize..90,
                seed in any::<u64>(),
            ) {
                let kind = kind_of(kind);
                let rec = random_game(kind, start, plies, seed);
                let names = ["Sente".to_string(), "Gote".to_string()];
                let usi = export(&rec, "usi", &names, &Notes::default()).unwrap();
                let back = import_game(&usi, GameKind::Shogi).unwrap();
                prop_assert_eq!((&back.start_sfen, &back.moves, back.kind), (&rec.start_sfen, &rec.moves, kind));
                let sfen = export(&rec, "sfen", &names, &Notes::default()).unwrap();
                prop_assert_eq!(import_game(&sfen, GameKind::Shogi).unwrap().sfen(), rec.sfen());
                // a finished game: the record line and (9x9) the CSA record
                let mut done = rec.clone();
                if done.ending.is_none() {
                    done.ending = Some(crate::gui::record::Ending { outcome: Outcome::Draw, reason: Reason::MaxPlies });
                }
                let line = export(&done, "record", &names, &Notes::default()).unwrap();
                let back = import_game(&line, GameKind::Shogi).unwrap();
                prop_assert_eq!((&back.start_sfen, &back.moves), (&rec.start_sfen, &rec.moves));
                // KIF and KI2 of the game in progress and of the finished one (9x9, minishogi)
                for (format, game) in [("kif", &rec), ("ki2", &rec), ("kif", &done), ("ki2", &done)] {
                    match export(game, format, &names, &Notes::default()) {
                        Ok(text) => {
                            prop_assert_ne!(kind, GameKind::Yari);
                            let back = import_game(&text, GameKind::Yari).unwrap();
                            prop_assert_eq!((&back.start_sfen, &back.moves), (&rec.start_sfen, &rec.moves));
                        }
                        Err(e) => {
                            prop_assert_eq!(kind, GameKind::Yari);
                            prop_assert!(e.to_string().starts_with("Yari shogi has no KIF"), "{}", e);
                        }
                    }
                }
                match export(&done, "csa", &names, &Notes::default()) {
                    Ok(csa) => {
                        prop_assert_eq!(kind, GameKind::Shogi);
                        let back = import_game(&csa, GameKind::Minishogi).unwrap();
                        prop_assert_eq!((&back.start_sfen, &back.moves), (&rec.start_sfen, &rec.moves));
                    }
                    Err(_) => prop_assert_ne!(kind, GameKind::Shogi),
                }
            }
        }
    }
}
