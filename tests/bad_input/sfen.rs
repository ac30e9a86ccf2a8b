//! SFENs the rules core must refuse, each with the error that names what is wrong.

use super::*;

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
