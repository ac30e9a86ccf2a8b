//! Malformed and rule-breaking input: SFENs and USI moves must be rejected with the right typed error and a
//! message that names the problem, a failed `play_usi_moves` must leave the position untouched, and no input at
//! all may make the parsers panic.

use hayate::rules::piece::Color;
use hayate::rules::position::notation::{move_to_usi, MoveError};
use hayate::rules::position::sfen::SfenError;
use hayate::{Minishogi, Position, Shogi, Variant, Yari};
use proptest::prelude::*;
use proptest::test_runner::Config;

const SHOGI_START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const MINI_START: &str = "rbsgk/4p/5/P4/KGSBR b - 1";
const YARI_START: &str = "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1";

/// The error `from_sfen` gives; fails the test if it accepts the SFEN.
fn sfen_err<V: Variant>(sfen: &str) -> SfenError {
    match Position::<V>::from_sfen(sfen) {
        Ok(p) => panic!("{} accepted '{sfen}' as {}", V::NAME, p.to_sfen()),
        Err(e) => e,
    }
}

/// Asserts the exact error and that its message contains each of `words` (case-insensitive).
fn rejects<V: Variant>(sfen: &str, expected: SfenError, words: &[&str]) {
    let e = sfen_err::<V>(sfen);
    assert_eq!(e, expected, "{} on '{sfen}'", V::NAME);
    let msg = e.to_string().to_lowercase();
    for w in words {
        assert!(
            msg.contains(&w.to_lowercase()),
            "{} on '{sfen}': message '{msg}' does not mention '{w}'",
            V::NAME
        );
    }
}

/// Asserts the error matches `pred` and that its message contains each of `words`.
fn rejects_with<V: Variant>(sfen: &str, pred: impl Fn(&SfenError) -> bool, words: &[&str]) {
    let e = sfen_err::<V>(sfen);
    assert!(pred(&e), "{} on '{sfen}': unexpected error {e:?}", V::NAME);
    let msg = e.to_string().to_lowercase();
    for w in words {
        assert!(
            msg.contains(&w.to_lowercase()),
            "{} on '{sfen}': message '{msg}' does not mention '{w}'",
            V::NAME
        );
    }
}

fn accepts<V: Variant>(sfen: &str) -> Position<V> {
    Position::<V>::from_sfen(sfen).unwrap_or_else(|e| panic!("{} rejected '{sfen}': {e}", V::NAME))
}

fn dead(piece: &str, square: &str) -> SfenError {
    SfenError::DeadPiece {
        piece: piece.into(),
        square: square.into(),
    }
}

// ----- board shape ----------------------------------------------------------------------------------------------

#[test]
fn board_of_another_game() {
    let ranks = |expected, found| SfenError::WrongRankCount { expected, found };
    let files = |rank, expected, found| SfenError::WrongFileCount {
        rank,
        expected,
        found,
    };
    rejects::<Minishogi>(SHOGI_START, ranks(5, 9), &["9 ranks", "5"]);
    rejects::<Minishogi>(YARI_START, ranks(5, 9), &["9 ranks"]);
    rejects::<Shogi>(MINI_START, ranks(9, 5), &["5 ranks", "9"]);
    rejects::<Yari>(MINI_START, ranks(9, 5), &["5 ranks"]);
    rejects::<Shogi>(YARI_START, files('a', 9, 7), &["rank a", "7 files", "9"]);
    // nine files of Yari pieces
    rejects::<Yari>(
        "rnnkbbr2/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1",
        files('a', 7, 9),
        &["rank a", "9 files", "7"],
    );
}

/// Engine bug: the letters of a rank are checked before its length, so a 9×9 SFEN given to Yari shogi is
/// reported as `PieceNotInGame("l")` (the lance on 9a) instead of as a board of the wrong shape.
#[test]
fn shogi_board_given_to_yari_is_a_shape_error() {
    rejects::<Yari>(
        SHOGI_START,
        SfenError::WrongFileCount {
            rank: 'a',
            expected: 7,
            found: 9,
        },
        &["rank a", "9 files", "7"],
    );
}

#[test]
fn wrong_rank_or_file_count() {
    // ten ranks, eight ranks
    rejects::<Shogi>(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        SfenError::WrongRankCount {
            expected: 9,
            found: 10,
        },
        &["ranks"],
    );
    rejects::<Shogi>(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        SfenError::WrongRankCount {
            expected: 9,
            found: 8,
        },
        &["ranks"],
    );
    // a rank one file too long, one too short
    rejects::<Shogi>(
        "lnsgkgsnl/1r5b2/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        SfenError::WrongFileCount {
            rank: 'b',
            expected: 9,
            found: 10,
        },
        &["rank b", "10"],
    );
    rejects::<Shogi>(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1",
        SfenError::WrongFileCount {
            rank: 'i',
            expected: 9,
            found: 8,
        },
        &["rank i"],
    );
    rejects::<Minishogi>(
        "rbsgk/4p/6/P4/KGSBR b - 1",
        SfenError::WrongFileCount {
            rank: 'c',
            expected: 5,
            found: 6,
        },
        &["rank c"],
    );
    rejects::<Yari>(
        "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/8/RBBKNNR b - 1",
        SfenError::WrongFileCount {
            rank: 'h',
            expected: 7,
            found: 8,
        },
        &["rank h"],
    );
    // a board of two empty ranks
    rejects::<Minishogi>(
        "/ b - 1",
        SfenError::WrongRankCount {
            expected: 5,
            found: 2,
        },
        &["ranks"],
    );
}

#[test]
fn missing_or_extra_fields() {
    rejects::<Shogi>("", SfenError::MissingFields, &["side to move"]);
    rejects::<Shogi>("   ", SfenError::MissingFields, &["hand"]);
    rejects::<Shogi>(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b",
        SfenError::MissingFields,
        &["hand"],
    );
    rejects::<Shogi>(
        &format!("{SHOGI_START} 7g7f"),
        SfenError::TooManyFields,
        &["fields"],
    );
    // the move number may be left out
    assert_eq!(
        accepts::<Shogi>("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -").to_sfen(),
        SHOGI_START
    );
}

// ----- letters --------------------------------------------------------------------------------------------------

#[test]
fn unknown_letters() {
    rejects::<Shogi>(
        "lnsgkgsnl/1r5b1/ppppppppp/9/4x4/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        SfenError::UnknownPiece("x".into()),
        &["unknown", "'x'"],
    );
    rejects::<Minishogi>(
        "rbsgk/4p/2Q2/P4/KGSBR b - 1",
        SfenError::UnknownPiece("Q".into()),
        &["unknown", "'Q'"],
    );
    rejects::<Yari>(
        "rnnkbbr/7/ppppppp/3é3/7/7/PPPPPPP/7/RBBKNNR b - 1",
        SfenError::UnknownPiece("é".into()),
        &["unknown"],
    );
    let unknown = |e: &SfenError| matches!(e, SfenError::UnknownPiece(_));
    // a zero, a dangling or doubled '+', a '+' before a digit
    rejects_with::<Shogi>(
        "lnsgkgsnl/1r5b1/ppppppppp/9/09/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        unknown,
        &["unknown"],
    );
    rejects_with::<Shogi>(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9+/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        unknown,
        &["unknown", "+"],
    );
    rejects_with::<Shogi>(
        "lnsgkgsnl/1r5b1/ppppppppp/9/++P8/9/PPPPPPPP1/1B5R1/LNSGKGSNL b - 1",
        unknown,
        &["unknown", "++"],
    );
    rejects_with::<Minishogi>("rbsgk/4p/+5/P4/KGSBR b - 1", unknown, &["unknown"]);
}

#[test]
fn pieces_the_game_lacks() {
    let not_in_game = |s: &str| SfenError::PieceNotInGame(s.into());
    // pieces that never promote
    rejects::<Shogi>(
        "lnsgkgsnl/1r5b1/ppppppppp/9/4+G4/9/PPPPPPPPP/1B5R1/LNS1KGSNL b - 1",
        not_in_game("+G"),
        &["+G", "does not exist"],
    );
    rejects::<Shogi>(
        "lnsg+kgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        not_in_game("+k"),
        &["+k"],
    );
    // minishogi has no lances or knights
    rejects::<Minishogi>(
        "rbsgk/4p/2L2/P4/KGSBR b - 1",
        not_in_game("L"),
        &["'L'", "game"],
    );
    rejects::<Minishogi>("rbsgk/4p/2n2/P4/KGSBR b - 1", not_in_game("n"), &["'n'"]);
    rejects::<Minishogi>("rbsgk/4p/2+l2/P4/KGSBR b - 1", not_in_game("+l"), &["'+l'"]);
    // Yari shogi has no golds, silvers or lances, and no promoted silver
    rejects::<Yari>(
        "rnnkbbr/7/ppppppp/3G3/7/7/PPPPPPP/7/RBBKNNR b - 1",
        not_in_game("G"),
        &["'G'"],
    );
    rejects::<Yari>(
        "rnnkbbr/7/ppppppp/3s3/7/7/PPPPPPP/7/RBBKNNR b - 1",
        not_in_game("s"),
        &["'s'"],
    );
    rejects::<Yari>(
        "rnnkbbr/7/ppppppp/3L3/7/7/PPPPPPP/7/RBBKNNR b - 1",
        not_in_game("L"),
        &["'L'"],
    );
    rejects::<Yari>(
        "rnnkbbr/7/ppppppp/3+S3/7/7/PPPPPPP/7/RBBKNNR b - 1",
        not_in_game("+S"),
        &["'+S'"],
    );
    // the promoted pieces Yari does have
    accepts::<Yari>("rnnkbbr/7/pppp1pp/3+P3/7/7/PPPPPPP/7/RBBKNNR b - 1");
    accepts::<Yari>("3k3/7/7/7/+R+B+N4/7/7/7/3K3 b - 1");
}

// ----- side, hands, move number ---------------------------------------------------------------------------------

#[test]
fn bad_side() {
    for side in ["x", "B", "W", "bw", "-", "1"] {
        let sfen = format!("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL {side} - 1");
        rejects::<Shogi>(&sfen, SfenError::BadSide(side.into()), &["side", side]);
    }
    rejects::<Minishogi>(
        "rbsgk/4p/5/P4/KGSBR s - 1",
        SfenError::BadSide("s".into()),
        &["side"],
    );
    rejects::<Yari>(
        "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR white - 1",
        SfenError::BadSide("white".into()),
        &["side"],
    );
}

#[test]
fn bad_hands() {
    let bad_hand = |e: &SfenError| matches!(e, SfenError::BadHand(_));
    let shogi = |hand: &str| format!("4k4/9/9/9/9/9/9/9/4K4 b {hand} 1");
    let mini = |hand: &str| format!("4k/5/5/5/K4 b {hand} 1");
    let yari = |hand: &str| format!("3k3/7/7/7/7/7/7/7/3K3 b {hand} 1");

    // unknown piece, king in hand, a promoted piece in hand
    rejects_with::<Shogi>(&shogi("X"), bad_hand, &["hand", "'X'"]);
    rejects_with::<Shogi>(&shogi("2Pq"), bad_hand, &["hand", "'q'"]);
    rejects_with::<Shogi>(&shogi("K"), bad_hand, &["hand", "'K'"]);
    rejects_with::<Minishogi>(&mini("k"), bad_hand, &["hand", "'k'"]);
    rejects_with::<Yari>(&yari("K"), bad_hand, &["hand", "'K'"]);
    rejects_with::<Shogi>(&shogi("+P"), bad_hand, &["hand"]);
    // pieces this game lacks
    rejects_with::<Minishogi>(&mini("L"), bad_hand, &["hand", "'L'", "cannot be held"]);
    rejects_with::<Minishogi>(&mini("n"), bad_hand, &["hand", "'n'", "cannot be held"]);
    rejects_with::<Yari>(&yari("G"), bad_hand, &["hand", "'G'", "cannot be held"]);
    rejects_with::<Yari>(&yari("s"), bad_hand, &["hand", "'s'", "cannot be held"]);
    rejects_with::<Yari>(&yari("L"), bad_hand, &["hand", "'L'", "cannot be held"]);
    // counts out of range
    rejects_with::<Shogi>(&shogi("19P"), bad_hand, &["hand", "count", "19P"]);
    rejects_with::<Shogi>(&shogi("0P"), bad_hand, &["hand", "count"]);
    rejects_with::<Shogi>(&shogi("100p"), bad_hand, &["hand", "count"]);
    rejects_with::<Minishogi>(&mini("99999999999P"), bad_hand, &["hand", "count"]);
    // a count without a piece
    rejects_with::<Shogi>(&shogi("2"), bad_hand, &["hand", "count without a piece"]);
    rejects_with::<Shogi>(&shogi("R2"), bad_hand, &["hand", "count without a piece"]);
    rejects_with::<Yari>(&yari("P3"), bad_hand, &["hand", "count without a piece"]);
    // a kind listed twice
    rejects_with::<Shogi>(&shogi("PP"), bad_hand, &["hand", "twice"]);
    // empty hands are '-', and counts need not be canonical
    accepts::<Shogi>(&shogi("1P"));
    accepts::<Shogi>(&shogi("pP"));
    assert_eq!(accepts::<Shogi>(&shogi("pR2PG")).to_sfen(), shogi("RG2Pp"));
}

#[test]
fn bad_move_number() {
    for n in [
        "0",
        "-1",
        "x",
        "1.5",
        "1e3",
        "99999999999",
        "1000000",
        "0x10",
    ] {
        let sfen = format!("rbsgk/4p/5/P4/KGSBR b - {n}");
        rejects::<Minishogi>(
            &sfen,
            SfenError::BadMoveNumber(n.into()),
            &["move number", n],
        );
    }
    rejects::<Shogi>(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - x",
        SfenError::BadMoveNumber("x".into()),
        &["move number"],
    );
    rejects::<Yari>(
        "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR w - 0",
        SfenError::BadMoveNumber("0".into()),
        &["move number"],
    );
    assert_eq!(
        accepts::<Minishogi>("rbsgk/4p/5/P4/KGSBR b - 999999").to_sfen(),
        "rbsgk/4p/5/P4/KGSBR b - 999999"
    );
}

// ----- kings ----------------------------------------------------------------------------------------------------

#[test]
fn missing_and_doubled_kings() {
    rejects::<Shogi>(
        "lnsg1gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        SfenError::MissingKing(Color::White),
        &["gote", "no king"],
    );
    rejects::<Shogi>(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSG1GSNL b - 1",
        SfenError::MissingKing(Color::Black),
        &["sente", "no king"],
    );
    rejects::<Shogi>(
        "lnsgkgsnl/1r5b1/ppppppppp/9/4k4/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        SfenError::ExtraKing(Color::White),
        &["gote", "more than one king"],
    );
    rejects::<Minishogi>(
        "4k/5/5/5/5 b - 1",
        SfenError::MissingKing(Color::Black),
        &["sente", "king"],
    );
    rejects::<Minishogi>(
        "K3k/5/5/5/K4 b - 1",
        SfenError::ExtraKing(Color::Black),
        &["sente", "king"],
    );
    rejects::<Yari>(
        "rnn1bbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1",
        SfenError::MissingKing(Color::White),
        &["gote", "king"],
    );
    rejects::<Yari>(
        "rnnkbbr/7/ppppppp/7/2K4/7/PPPPPPP/7/RBBKNNR b - 1",
        SfenError::ExtraKing(Color::Black),
        &["sente", "more than one king"],
    );
    // kings in hand are a hand error, not a king count
    rejects_with::<Shogi>(
        "lnsg1gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b k 1",
        |e| matches!(e, SfenError::BadHand(_)),
        &["hand"],
    );
}

// ----- material -------------------------------------------------------------------------------------------------

#[test]
fn dead_pieces() {
    let never = ["could never move"];
    // standard shogi: pawn and lance on the last rank, knight on the last two
    rejects::<Shogi>("4k3P/9/9/9/9/9/9/9/4K4 b - 1", dead("P", "1a"), &never);
    rejects::<Shogi>("L3k4/9/9/9/9/9/9/9/4K4 b - 1", dead("L", "9a"), &never);
    rejects::<Shogi>("N3k4/9/9/9/9/9/9/9/4K4 b - 1", dead("N", "9a"), &never);
    rejects::<Shogi>(
        "4k4/7N1/9/9/9/9/9/9/4K4 b - 1",
        dead("N", "2b"),
        &["N", "2b"],
    );
    rejects::<Shogi>(
        "4k4/9/9/9/9/9/9/9/p3K4 b - 1",
        dead("p", "9i"),
        &["p", "9i"],
    );
    rejects::<Shogi>("4k4/9/9/9/9/9/9/9/4K3l b - 1", dead("l", "1i"), &never);
    rejects::<Shogi>(
        "4k4/9/9/9/9/9/9/n8/4K4 b - 1",
        dead("n", "9h"),
        &["n", "9h"],
    );
    // promoted, or not yet on the last ranks: fine
    accepts::<Shogi>("+P3k2+N+L/9/N8/9/9/9/n8/6p1l/4K4 b - 1");
    // minishogi: the pawn on the last rank
    rejects::<Minishogi>("P3k/5/5/5/K4 b - 1", dead("P", "5a"), &never);
    rejects::<Minishogi>("4k/5/5/5/K3p b - 1", dead("p", "1e"), &never);
    accepts::<Minishogi>("+P3k/5/5/5/K3+p b - 1");
    // Yari: yari bishop, yari knight and pawn on the last rank; the yari rook is never dead
    rejects::<Yari>("B2k3/7/7/7/7/7/7/7/3K3 b - 1", dead("B", "7a"), &never);
    rejects::<Yari>("N2k3/7/7/7/7/7/7/7/3K3 b - 1", dead("N", "7a"), &never);
    rejects::<Yari>("P2k3/7/7/7/7/7/7/7/3K3 b - 1", dead("P", "7a"), &never);
    rejects::<Yari>("3k3/7/7/7/7/7/7/7/b2K3 b - 1", dead("b", "7i"), &never);
    rejects::<Yari>("3k3/7/7/7/7/7/7/7/3K2n b - 1", dead("n", "1i"), &never);
    rejects::<Yari>("3k3/7/7/7/7/7/7/7/3K1p1 b - 1", dead("p", "2i"), &never);
    accepts::<Yari>("R6/N6/3k3/7/7/7/7/7/3K2r b - 1");
    accepts::<Yari>("+B+N+P+R3/7/5k1/7/7/7/7/7/3K3 b - 1");
}

#[test]
fn nifu_on_board() {
    let nifu = |color, file| SfenError::DoublePawn { color, file };
    rejects::<Shogi>(
        "4k4/9/9/4P4/9/9/4P4/9/4K4 b - 1",
        nifu(Color::Black, 5),
        &["sente", "file 5", "nifu"],
    );
    rejects::<Shogi>(
        "4k4/8p/9/9/9/9/8p/9/4K4 b - 1",
        nifu(Color::White, 1),
        &["gote", "file 1", "nifu"],
    );
    rejects::<Minishogi>("4k/P4/5/P4/K4 b - 1", nifu(Color::Black, 5), &["nifu"]);
    rejects::<Yari>(
        "3k3/7/p6/7/7/p6/7/7/3K3 b - 1",
        nifu(Color::White, 7),
        &["gote", "file 7", "nifu"],
    );
    // a tokin, or the other side's pawn, is no second pawn
    accepts::<Shogi>("4k4/9/9/4+P4/9/9/4P4/9/4K4 b - 1");
    accepts::<Shogi>("4k4/9/9/4p4/9/9/4P4/9/4K4 b - 1");
    accepts::<Yari>("3k3/7/p6/7/7/+p6/7/7/3K3 b - 1");
}

#[test]
fn too_many_pieces() {
    let too_many = |c| SfenError::TooManyPieces(c);
    rejects::<Shogi>(
        "4k4/9/9/9/9/9/9/9/4K4 b 3R 1",
        too_many('R'),
        &["more pieces", "R"],
    );
    rejects::<Shogi>(
        "4k4/9/9/9/9/9/9/9/4K4 b 10P9p 1",
        too_many('P'),
        &["more pieces"],
    );
    rejects::<Shogi>(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1",
        too_many('P'),
        &["more pieces", "P"],
    );
    // promoted pieces count as their unpromoted kind
    rejects::<Shogi>(
        "4k4/9/9/9/4+B4/9/9/9/4K4 b Bb 1",
        too_many('B'),
        &["more pieces", "B"],
    );
    rejects::<Minishogi>(MINI_START.replace('-', "G").as_str(), too_many('G'), &["G"]);
    rejects::<Minishogi>("4k/5/5/5/K4 b 3S 1", too_many('S'), &["more pieces"]);
    rejects::<Minishogi>("4k/5/5/5/K4 b 2P1p 1", too_many('P'), &["more pieces"]);
    rejects::<Yari>(
        "3k3/7/7/7/7/7/7/7/3K3 b 5R 1",
        too_many('R'),
        &["more pieces", "R"],
    );
    rejects::<Yari>(&YARI_START.replace('-', "n"), too_many('N'), &["N"]);
    // all of a game's pieces is fine
    accepts::<Shogi>("4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1");
    accepts::<Minishogi>("4k/5/5/5/K4 b RBGSPrbgsp 1");
    accepts::<Yari>("3k3/7/7/7/7/7/7/7/3K3 w 4R4B4N14P 1");
}

#[test]
fn side_not_to_move_in_check() {
    rejects::<Shogi>(
        "4k4/9/9/9/4R4/9/9/9/4K4 b - 1",
        SfenError::OpponentInCheck,
        &["not to move", "check"],
    );
    accepts::<Shogi>("4k4/9/9/9/4R4/9/9/9/4K4 w - 1");
    rejects::<Shogi>(
        "4k4/9/9/9/9/9/3n5/9/4K4 w - 1",
        SfenError::OpponentInCheck,
        &["check"],
    );
    rejects::<Minishogi>("4k/5/5/5/K3R b - 1", SfenError::OpponentInCheck, &["check"]);
    rejects::<Yari>(
        "3k3/7/7/7/7/7/7/7/r2K3 w - 1",
        SfenError::OpponentInCheck,
        &["check"],
    );
    // the side to move may be in check
    accepts::<Yari>("3k3/3r3/7/7/7/7/7/7/3K3 b - 1");
    // a yari rook does not attack backward; promoted, it does
    accepts::<Yari>("3R3/7/7/7/3k3/7/7/7/3K3 b - 1");
    rejects::<Yari>(
        "3+R3/7/7/7/3k3/7/7/7/3K3 b - 1",
        SfenError::OpponentInCheck,
        &["check"],
    );
    rejects::<Yari>(
        "3k3/3R3/7/7/7/7/7/7/3K3 b - 1",
        SfenError::OpponentInCheck,
        &["check"],
    );
}

// ----- moves ----------------------------------------------------------------------------------------------------

fn malformed<V: Variant>(pos: &Position<V>, s: &str) {
    match pos.parse_move(s) {
        Err(MoveError::Malformed(_)) => {}
        other => panic!(
            "{}: parse_move({s:?}) gave {other:?}, not Malformed",
            V::NAME
        ),
    }
}

fn illegal<V: Variant>(pos: &Position<V>, s: &str) {
    match pos.parse_move(s) {
        Err(MoveError::Illegal(echo)) => {
            assert_eq!(echo, s);
            assert!(MoveError::Illegal(echo).to_string().contains("illegal"));
        }
        other => panic!("{}: parse_move({s:?}) gave {other:?}, not Illegal", V::NAME),
    }
}

fn legal<V: Variant>(pos: &Position<V>, s: &str) {
    match pos.parse_move(s) {
        Ok(m) => assert_eq!(move_to_usi::<V>(m), s),
        Err(e) => panic!("{}: parse_move({s:?}) gave {e}", V::NAME),
    }
}

#[test]
fn malformed_moves() {
    let shogi = Position::<Shogi>::startpos();
    for s in [
        "", "zz", "7g7", "0a1b", "P*", "K*5e", "7g7f++", "7g7f+x", "7g7f ", " 7g7f", "7g 7f",
        "7G7F", "7g7g", "7j7i", "a7g7f", "P*5j", "P*0e", "p*5e", "+P*5e", "P*5e+", "*P5e", "P5e",
        "7g-7f", "７g7f", "7g7f\0", "10a1b", "resign",
    ] {
        malformed(&shogi, s);
    }
    assert!(MoveError::Malformed("zz".into())
        .to_string()
        .contains("malformed"));

    let mini = Position::<Minishogi>::startpos();
    for s in [
        "", "zz", "9i1a", "7g7f", "6e5e", "5f5e", "5d5f", "P*6a", "P*1f", "K*3c", "5d5c++", "5d5",
    ] {
        malformed(&mini, s);
    }
    legal(&mini, "5d5c");

    let yari = Position::<Yari>::startpos();
    for s in [
        "", "zz", "8i8h", "9g9f", "1j1i", "1g1j", "N*8e", "P*1j", "7i7h++", "K*4e",
    ] {
        malformed(&yari, s);
    }
    legal(&yari, "7i7h");
    legal(&yari, "1g1f");
}

#[test]
fn illegal_moves() {
    let shogi = Position::<Shogi>::startpos();
    illegal(&shogi, "3c3d"); // gote's pawn, sente to move
    illegal(&shogi, "5i5a"); // no such king move
    illegal(&shogi, "7g7e"); // a pawn moves one step
    illegal(&shogi, "7g7f+"); // promotion outside the zone
    illegal(&shogi, "P*5e"); // nothing in hand
    illegal(&shogi, "5e5d"); // an empty square
    illegal(&shogi, "9i9g"); // onto an own piece
    legal(&shogi, "7g7f");

    // nifu: a second unpromoted pawn on file 5
    let pos = accepts::<Shogi>("4k4/9/9/9/9/9/4P4/9/4K4 b P 1");
    illegal(&pos, "P*5c");
    legal(&pos, "P*4c");
    // dead drops
    let pos = accepts::<Shogi>("4k4/9/9/9/9/9/9/9/4K4 b PLN 1");
    illegal(&pos, "P*1a");
    illegal(&pos, "L*1a");
    illegal(&pos, "N*1b");
    legal(&pos, "N*1c");
    // a pawn drop that mates at once
    let pos = accepts::<Shogi>("8k/9/6NG1/9/9/9/9/9/4K4 b P 1");
    illegal(&pos, "P*1b");
    legal(&pos, "P*1c");
    // leaving the king in check: the gold on 5g is pinned by the rook on 5e
    let pos = accepts::<Shogi>("4k4/9/9/9/4r4/9/4G4/9/4K4 b - 1");
    illegal(&pos, "5g4g");
    legal(&pos, "5g5f");
    // walking into check
    let pos = accepts::<Shogi>("4k4/9/9/9/3r5/9/9/9/4K4 b - 1");
    illegal(&pos, "5i6i");
    legal(&pos, "5i4i");
    // not answering a check
    let pos = accepts::<Shogi>("4k4/9/9/9/4r4/9/9/P8/4K4 b - 1");
    illegal(&pos, "9h9g");
    legal(&pos, "5i4i");
    // a pawn, lance or knight that must promote
    let pos = accepts::<Shogi>("4k4/P8/9/1N7/9/9/9/8L/4K4 b - 1");
    illegal(&pos, "9b9a");
    legal(&pos, "9b9a+");
    illegal(&pos, "8d7b");
    legal(&pos, "8d7b+");
    illegal(&pos, "1h1a");
    legal(&pos, "1h1a+");
    legal(&pos, "1h1c");

    let mini = Position::<Minishogi>::startpos();
    illegal(&mini, "1b1c"); // gote's pawn
    illegal(&mini, "5d5c+"); // rank c is outside minishogi's one-rank zone
    illegal(&mini, "L*3c"); // no lances in minishogi
    let pos = accepts::<Minishogi>("4k/P4/5/5/K4 b P 1");
    illegal(&pos, "5b5a");
    legal(&pos, "5b5a+");
    illegal(&pos, "P*5c"); // nifu
    illegal(&pos, "P*4a"); // dead drop
    let pos = accepts::<Minishogi>("4k/2S2/3G1/5/K4 b P 1");
    illegal(&pos, "P*1b"); // mates

    let yari = Position::<Yari>::startpos();
    illegal(&yari, "1c1d"); // gote's pawn
    illegal(&yari, "7i6i"); // the yari rook's way is blocked by its bishop
    illegal(&yari, "G*4e"); // no golds in Yari
    let pos = accepts::<Yari>("3k3/P6/7/7/7/7/7/2B4/3K3 b P 1");
    illegal(&pos, "7b7a");
    legal(&pos, "7b7a+");
    illegal(&pos, "5h5i"); // the yari bishop never moves backward
    illegal(&pos, "5h4i");
    illegal(&pos, "5h3f"); // nor slides diagonally
    legal(&pos, "5h6g");
    legal(&pos, "5h5c");
    illegal(&pos, "P*7e"); // nifu
    let pos = accepts::<Yari>("6k/3R3/4N2/7/7/7/7/7/3K3 b P 1");
    illegal(&pos, "P*1b"); // mates
}

fn check_play_usi_rolls_back<V: Variant>(start: &str, good: &[&str], bad_at: usize, bad: &str) {
    let mut pos = accepts::<V>(start);
    let (sfen, key, ply) = (pos.to_sfen(), pos.key(), pos.game_ply());
    let mut moves: Vec<&str> = good.to_vec();
    moves.insert(bad_at, bad);
    let err = pos.play_usi_moves(moves.iter().copied());
    assert!(err.is_err(), "{}: {moves:?} was accepted", V::NAME);
    assert_eq!(
        pos.to_sfen(),
        sfen,
        "{}: SFEN after the failed {moves:?}",
        V::NAME
    );
    assert_eq!(
        pos.key(),
        key,
        "{}: key after the failed {moves:?}",
        V::NAME
    );
    assert_eq!(
        pos.game_ply(),
        ply,
        "{}: history after the failed {moves:?}",
        V::NAME
    );
    assert_eq!(pos.key(), pos.compute_key());
    // the position still plays normally
    pos.play_usi_moves(good.iter().copied())
        .unwrap_or_else(|e| panic!("{}: {good:?}: {e}", V::NAME));
    assert_eq!(pos.game_ply(), ply + good.len());
    for _ in good {
        pos.undo_move();
    }
    assert_eq!(pos.to_sfen(), sfen);
    assert_eq!(pos.key(), key);
}

#[test]
fn play_usi_moves_leaves_position_on_error() {
    let good = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"];
    for at in 0..=good.len() {
        check_play_usi_rolls_back::<Shogi>(SHOGI_START, &good, at, "zz");
        check_play_usi_rolls_back::<Shogi>(SHOGI_START, &good, at, "5e5d");
    }
    // an illegal move in the middle: sente's king moved on gote's turn
    check_play_usi_rolls_back::<Shogi>(SHOGI_START, &good, 3, "5i5h");
    // from a position with pieces in hand
    check_play_usi_rolls_back::<Shogi>(
        "4k4/9/9/9/9/9/9/9/4K4 b 2P 1",
        &["P*5c", "5a4a", "5c5b+", "4a5b"],
        2,
        "P*5b",
    );

    let good = ["5e4d", "1a2b", "4d5e", "2b1a", "5e4d"];
    for at in 0..=good.len() {
        check_play_usi_rolls_back::<Minishogi>(MINI_START, &good, at, "5d5c+");
    }
    let good = ["1g1f", "7c7d", "1f1e", "7d7e", "1e1d", "1c1d", "1i1d"];
    for at in 0..=good.len() {
        check_play_usi_rolls_back::<Yari>(YARI_START, &good, at, "1j1i");
    }
    check_play_usi_rolls_back::<Yari>(YARI_START, &good, 7, "P*7f");
}

// ----- no input panics ------------------------------------------------------------------------------------------

/// Feeds `s` to every parser of `V`; whatever they accept must round-trip and play.
fn no_panic<V: Variant>(s: &str) {
    if let Ok(pos) = Position::<V>::from_sfen(s) {
        let sfen = pos.to_sfen();
        let again = Position::<V>::from_sfen(&sfen)
            .unwrap_or_else(|e| panic!("{}: '{s}' was accepted but '{sfen}' is not: {e}", V::NAME));
        assert_eq!(again.to_sfen(), sfen);
        assert_eq!(again.key(), pos.key());
        assert_eq!(pos.key(), pos.compute_key());
        let mut pos = pos;
        for m in pos.legal_moves() {
            pos.do_move(m);
            pos.undo_move();
        }
        assert_eq!(pos.to_sfen(), sfen);
    }
    let start = Position::<V>::startpos();
    if let Ok(m) = start.parse_move(s) {
        assert_eq!(
            move_to_usi::<V>(m),
            s,
            "{}: accepted move is not canonical",
            V::NAME
        );
        assert!(start.is_legal(m));
    }
    let mut pos = start.clone();
    let (sfen, key) = (pos.to_sfen(), pos.key());
    if pos.play_usi_moves(s.split(' ')).is_err() {
        assert_eq!(pos.to_sfen(), sfen);
        assert_eq!(pos.key(), key);
    }
    let _ = hayate::rules::position::notation::parse_usi_move::<V>(s);
}

fn no_panic_all(s: &str) {
    no_panic::<Shogi>(s);
    no_panic::<Minishogi>(s);
    no_panic::<Yari>(s);
}

const SHOGI_BASES: [&str; 5] = [
    SHOGI_START,
    "ln1g3nl/1r1s1kgs1/p1pppp1pp/1p4p2/9/2P6/PPBP1PPPP/3SK2R1/LN1G1GSNL b Bp 13",
    "8k/9/6NG1/9/9/9/9/9/4K4 b 2P 1",
    "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "+P3k2+N+L/9/N8/9/9/9/n8/6p1l/4K4 b 2R2B4G4S15P 1",
];
const MINI_BASES: [&str; 4] = [
    MINI_START,
    "4k/2S2/3G1/5/K4 b P 1",
    "r1sgk/4p/5/P4/KGSBR w - 1",
    "+P3k/5/5/5/K3+p b RBGSrbgs 1",
];
const YARI_BASES: [&str; 4] = [
    YARI_START,
    "6k/3R3/4N2/7/7/7/7/7/3K3 b P 1",
    "3k3/7/7/7/+R+B+N4/7/7/7/3K3 w 3R3B3N14P 1",
    "rnnkbbr/7/pppp1pp/3+P3/7/7/PPPPPPP/7/RBBKNNR b - 1",
];

/// Small edits of valid SFENs: near misses reach the deeper checks of the parser.
fn near_miss(bases: &'static [&'static str]) -> impl Strategy<Value = String> {
    let alphabet: Vec<char> = "0123456789+/ -*bwkKpPlLnNsSgGbBrR".chars().collect();
    (
        prop::sample::select(bases),
        prop::collection::vec(
            (
                any::<prop::sample::Index>(),
                0..3u8,
                prop::sample::select(alphabet),
            ),
            1..3,
        ),
    )
        .prop_map(|(base, edits)| {
            let mut chars: Vec<char> = base.chars().collect();
            for (at, op, c) in edits {
                let i = at.index(chars.len() + 1);
                match op {
                    0 => chars.insert(i, c),
                    1 if i < chars.len() => {
                        chars.remove(i);
                    }
                    _ if i < chars.len() => chars[i] = c,
                    _ => chars.push(c),
                }
            }
            chars.into_iter().collect()
        })
}

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn arbitrary_strings_never_panic(s in any::<String>()) {
        no_panic_all(&s);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..160)) {
        no_panic_all(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn sfen_alphabet_never_panics(s in "[0-9a-zA-Z+/ *-]{0,90}") {
        no_panic_all(&s);
    }

    #[test]
    fn move_alphabet_never_panics(s in "[0-9a-kA-Z*+]{0,6}") {
        no_panic_all(&s);
    }

}

proptest! {
    #![proptest_config(config(2048))]

    #[test]
    fn near_miss_shogi_sfens_never_panic(s in near_miss(&SHOGI_BASES)) {
        no_panic::<Shogi>(&s);
    }

    #[test]
    fn near_miss_minishogi_sfens_never_panic(s in near_miss(&MINI_BASES)) {
        no_panic::<Minishogi>(&s);
    }

    #[test]
    fn near_miss_yari_sfens_never_panic(s in near_miss(&YARI_BASES)) {
        no_panic::<Yari>(&s);
    }
}
