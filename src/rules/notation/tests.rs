//! KIF and KI2 as a whole: what the writers write reads back to the same game, over random legal games from
//! every start; a hand-made record; bad records answered with their line.

use super::header::{decode, encode_shift_jis, HANDICAPS};
use super::ki2;
use super::kif::{self, Ending, KifError, KifGame};
use crate::rules::position::notation::move_to_usi;
use crate::rules::rng::SplitMix64;
use crate::rules::variant::Variant;
use crate::{with_variant, GameKind, Position};
use proptest::prelude::*;
use proptest::test_runner::Config;

/// Every start the tests draw from: 9×9's start and its handicaps, minishogi's start and handicaps (written as
/// diagrams), and positions with pieces in hand and a move number (diagrams too).
fn starts() -> Vec<(GameKind, String)> {
    let mut out = vec![(GameKind::Shogi, crate::Shogi::START_SFEN.to_string())];
    out.extend(HANDICAPS.iter().map(|h| (GameKind::Shogi, h.1.to_string())));
    for s in [
        crate::Minishogi::START_SFEN,
        "r1sgk/4p/5/P4/KGSBR w - 1",
        "2sgk/4p/5/P4/KGSBR w - 1",
        "4k/4p/5/P4/KGSBR w - 1",
    ] {
        out.push((GameKind::Minishogi, s.to_string()));
    }
    // positions of random games, with pieces in hand and a move number of their own
    for seed in 1..4 {
        let moves = random_game::<crate::Shogi>(crate::Shogi::START_SFEN, 60, seed);
        let mut pos = Position::<crate::Shogi>::startpos();
        pos.play_usi_moves(moves.iter().map(String::as_str))
            .unwrap();
        out.push((GameKind::Shogi, pos.to_sfen()));
    }
    // a tsume problem: the attacker has no king
    out.push((
        GameKind::Shogi,
        "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1".to_string(),
    ));
    out
}

/// A random legal game from `sfen`, up to `plies` long.
fn random_game<V: Variant>(sfen: &str, plies: usize, seed: u64) -> Vec<String> {
    let mut pos = Position::<V>::from_sfen(sfen)
        .or_else(|_| Position::<V>::from_tsume_sfen(sfen))
        .unwrap();
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        out.push(move_to_usi::<V>(m));
        pos.do_move(m);
    }
    out
}

fn game(start: usize, plies: usize, seed: u64, ending: Option<Ending>) -> KifGame {
    let all = starts();
    let (kind, sfen) = &all[start % all.len()];
    let moves = with_variant!(*kind, V => random_game::<V>(sfen, plies, seed));
    let mut g = KifGame::new(*kind, sfen, moves);
    let mut rng = SplitMix64::new(seed ^ 0x5a5a);
    g.times_ms = g
        .moves
        .iter()
        .map(|_| Some(rng.below(4000) as u64 * 1000))
        .collect();
    for i in 0..g.comments.len() {
        if rng.below(8) == 0 {
            g.comments[i].push(format!("comment {i} 良い手"));
        }
    }
    g.names = ["羽生善治".to_string(), "Hayate 0.1".to_string()];
    g.headers = vec![
        ("開始日時".to_string(), "2024/05/01 10:00:00".to_string()),
        ("棋戦".to_string(), "test".to_string()),
    ];
    g.ending = ending;
    g
}

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

fn ending() -> impl Strategy<Value = Option<Ending>> {
    prop_oneof![
        Just(None),
        prop::sample::select(Ending::ALL.to_vec()).prop_map(Some)
    ]
}

proptest! {
    #![proptest_config(config(300))]

    #[test]
    fn every_kif_and_ki2_written_reads_back_to_the_same_game(
        start in 0usize..64,
        plies in 0usize..160,
        seed in any::<u64>(),
        ending in ending(),
    ) {
        let g = game(start, plies, seed, ending);
        let text = kif::write(&g).unwrap();
        let back = kif::read(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(&back, &g, "{}", text);
        // through Shift_JIS, as a .kif file holds it
        let bytes = encode_shift_jis(&text).unwrap();
        prop_assert_eq!(decode(&bytes, Some("kif")).unwrap(), text.clone());

        let text = ki2::write(&g).unwrap();
        let back = kif::read(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        // KI2 holds no times
        let untimed = KifGame { times_ms: vec![None; g.moves.len()], ..g.clone() };
        prop_assert_eq!(&back, &untimed, "{}", text);
    }
}

/// Random games use every word of the convention, and each KI2 name reads back to its move.
#[test]
fn random_games_use_every_word_of_the_convention() {
    let mut seen = String::new();
    for seed in 0..300 {
        let g = game(seed as usize, 200, seed, None);
        let text = ki2::write(&g).unwrap();
        assert_eq!(kif::read(&text).unwrap().moves, g.moves);
        seen.push_str(&text);
    }
    for word in [
        "右", "左", "直", "上", "引", "寄", "打", "成", "不成", "同　", "▲", "△",
    ] {
        assert!(seen.contains(word), "no move used {word}");
    }
}

#[test]
fn every_start_is_written_and_read_back() {
    for (i, (kind, sfen)) in starts().iter().enumerate() {
        let g = KifGame::new(*kind, sfen, Vec::new());
        let text = kif::write(&g).unwrap();
        assert_eq!(kif::read(&text).unwrap(), g, "start {i}:\n{text}");
    }
    let yari = KifGame::new(GameKind::Yari, crate::Yari::START_SFEN, Vec::new());
    let e = kif::write(&yari).unwrap_err();
    assert!(e.to_string().starts_with("Yari shogi has no KIF"), "{e}");
    assert_eq!(ki2::write(&yari).unwrap_err(), e);
}

#[test]
fn handicap_games_name_their_players_and_start_with_gote() {
    let mut g = KifGame::new(
        GameKind::Shogi,
        HANDICAPS[2].1,
        vec!["5a4b".into(), "7g7f".into()],
    );
    g.names = ["下手の人".into(), "上手の人".into()];
    g.ending = Some(Ending::Resign);
    let text = kif::write(&g).unwrap();
    assert_eq!(
        text,
        "手合割：角落ち\n下手：下手の人\n上手：上手の人\n手数----指手---------消費時間--\n   \
         1 ４二玉(51)     ( 0:00/00:00:00)\n   2 ７六歩(77)     ( 0:00/00:00:00)\n   3 投了\n\
         まで2手で下手の勝ち\n"
    );
    assert_eq!(
        ki2::write(&g).unwrap(),
        "手合割：角落ち\n下手：下手の人\n上手：上手の人\n△４二玉      ▲７六歩\nまで2手で下手の勝ち\n"
    );
}

#[test]
fn a_long_move_without_a_space_before_its_time_is_read() {
    let g = kif::read("   1 ７六歩(77)( 0:05/00:00:05)\n   2 ３四歩(33)\n").unwrap();
    assert_eq!(g.moves, ["7g7f", "3c3d"]);
    assert_eq!(g.times_ms, [Some(5000), None]);
}

fn err(text: &str) -> KifError {
    kif::read(text).unwrap_err()
}

#[test]
fn bad_records_name_their_line() {
    let head =
        "開始日時：2024/05/01\n手合割：平手\n先手：a\n後手：b\n手数----指手---------消費時間--\n";
    assert_eq!(
        err(&format!(
            "{head}   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二飛(28)\n"
        ))
        .to_string(),
        "KIF line 8: '２二飛(28)': not a legal move"
    );
    assert_eq!(
        err(&format!("{head}   1 ７六歩(77)\n   3 ３四歩(33)\n")).to_string(),
        "KIF line 7: move number 3 where 2 was expected"
    );
    assert_eq!(
        err(&format!("{head}   1 ７六金(77)\n")).to_string(),
        "KIF line 6: '７六金(77)': no 金 of the side to move on 77"
    );
    assert_eq!(
        err(&format!("{head}   1 ７六歩(77)   ( 0:xx/00:00:01)\n")).to_string(),
        "KIF line 6: the move's time ' 0:xx' is not m:ss"
    );
    assert_eq!(
        err("手合割：九枚落ち\n").to_string(),
        "KIF line 1: unknown 手合割 '九枚落ち'"
    );
    assert_eq!(
        err("hello\n").to_string(),
        "KIF line 1: cannot read 'hello'"
    );
    assert_eq!(
        err(&format!("{head}   1 投了\n   2 ７六歩(77)\n")).to_string(),
        "KIF line 7: a move after the game's end"
    );
    assert_eq!(
        err("▲７六歩　△３四歩　▲７五歩　▲６六歩\n").to_string(),
        "KIF line 1: '▲６六歩': the other side is to move"
    );
    assert_eq!(
        err("▲７六歩　△３四歩\nまで3手で先手の勝ち\n").to_string(),
        "KIF line 2: the summary counts 3 moves, the record has 2"
    );
    let yari = "後手の持駒：なし\n  ７ ６ ５ ４ ３ ２ １\n+---------------------+\n|v飛v桂v桂v玉v角v角v飛|一\n";
    assert_eq!(
        err(yari).message,
        crate::rules::notation::japanese::YARI_HAS_NO_KIF
    );
    assert_eq!(
        decode(b"\xff\xfe\xfd", None).unwrap_err().to_string(),
        "KIF: the text is neither UTF-8 nor Shift_JIS"
    );
    assert_eq!(
        decode(&encode_shift_jis("手合割：平手\n").unwrap(), Some("kifu"))
            .unwrap_err()
            .to_string(),
        "KIF: a .kifu file must be UTF-8"
    );
}
