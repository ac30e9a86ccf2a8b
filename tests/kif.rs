//! KIF and KI2 files as the common tools write them (tests/data/kif/, made by hand from the format's
//! documentation in the style of Kifu for Windows, ShogiGUI, Shogidokoro and ShogiHome, in Shift_JIS and UTF-8),
//! each read and compared with its CSA and SFEN forms; a real game's KI2; a malformed KIF.

// a test fails by panicking: unwrap is how it states what must succeed (the library keeps to [lints])
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use hayate::gui::formats;
use hayate::gui::record::Record;
use hayate::rules::notation::header::decode;
use hayate::rules::notation::ki2;
use hayate::rules::notation::kif::{self, Ending, KifGame};
use hayate::GameKind;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/kif")
        .join(name)
}

/// The file's text, and whether its bytes are UTF-8.
fn text(name: &str) -> (String, bool) {
    let path = data(name);
    let bytes = std::fs::read(&path).unwrap();
    let ext = path.extension().and_then(|e| e.to_str());
    let text = decode(&bytes, ext).unwrap_or_else(|e| panic!("{name}: {e}"));
    (text, std::str::from_utf8(&bytes).is_ok())
}

fn read(name: &str) -> KifGame {
    kif::read(&text(name).0).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The game's SFEN form (`<stem>.sfen`: the `position` command, then the final position) and, for 9×9, its CSA
/// form (`<stem>.csa`, read by the GUI's CSA importer) both name the game the KIF holds.
fn same_as_sfen_and_csa(g: &KifGame, stem: &str) {
    let sfen = std::fs::read_to_string(data(&format!("{stem}.sfen"))).unwrap();
    let mut lines = sfen.lines();
    let usi = lines.next().unwrap();
    let (start, moves) = usi
        .strip_prefix("position sfen ")
        .and_then(|r| r.split_once(" moves "))
        .unwrap();
    assert_eq!(g.start_sfen, start, "{stem}");
    assert_eq!(g.moves.join(" "), moves, "{stem}");
    let played = Record::new(g.kind, Some(&g.start_sfen))
        .unwrap()
        .with_moves(g.moves.iter().map(String::as_str))
        .unwrap();
    assert_eq!(played.sfen(), lines.next().unwrap(), "{stem}");
    if g.kind == GameKind::Shogi {
        let csa = std::fs::read_to_string(data(&format!("{stem}.csa"))).unwrap();
        let from_csa = formats::import(&csa, GameKind::Shogi).unwrap().0;
        // CSA has no move number
        let fields = |s: &str| s.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
        assert_eq!(
            (fields(&from_csa.start_sfen), &from_csa.moves),
            (fields(&g.start_sfen), &g.moves),
            "{stem}"
        );
    }
}

#[test]
fn kifu_for_windows_shift_jis() {
    let (_, utf8) = text("kifu-for-windows.kif");
    assert!(!utf8, "Shift_JIS");
    let g = read("kifu-for-windows.kif");
    same_as_sfen_and_csa(&g, "kifu-for-windows");
    assert_eq!(g.moves.len(), 40);
    assert_eq!(g.names, ["羽生善治".to_string(), "渡辺明".to_string()]);
    assert_eq!(g.header("開始日時"), Some("2008/12/17(水) 09:00:00"));
    assert_eq!(g.header("棋戦"), Some("竜王戦"));
    assert_eq!(g.header("持ち時間"), Some("各８時間"));
    assert_eq!(g.ending, Some(Ending::Resign));
    assert_eq!(g.times_ms[..3], [Some(17_000), Some(72_000), Some(8_000)]);
    assert_eq!(g.comments[1], ["角道を開ける。"]);
    assert_eq!(g.comments[22], ["仕掛け。", "５筋の歩交換を目指す。"]);
}

#[test]
fn shogigui_utf8_kifu_with_a_variation() {
    let (_, utf8) = text("shogigui.kifu");
    assert!(utf8);
    let g = read("shogigui.kifu");
    // the main line only: the variation (変化：63手) after it is left out
    same_as_sfen_and_csa(&g, "shogigui");
    assert_eq!(g.moves.len(), 64);
    assert_eq!(g.names, ["Hayate".to_string(), "YaneuraOu".to_string()]);
    assert_eq!(g.ending, Some(Ending::Interrupted));
    assert_eq!(g.comments[33], ["#評価値=+210"]);
}

#[test]
fn shogidokoro_two_piece_handicap() {
    assert!(!text("shogidokoro-nimai.kif").1, "Shift_JIS");
    let g = read("shogidokoro-nimai.kif");
    same_as_sfen_and_csa(&g, "shogidokoro-nimai");
    assert_eq!(
        g.start_sfen,
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    // 下手 is sente, 上手 gote (who moves first)
    assert_eq!(g.names, ["生徒".to_string(), "先生".to_string()]);
    assert_eq!(g.moves[..2], ["7a6b".to_string(), "7g7f".to_string()]);
    assert_eq!(g.ending, Some(Ending::Resign));
}

#[test]
fn shogihome_position_with_a_board_diagram() {
    let g = read("shogihome-position.kif");
    same_as_sfen_and_csa(&g, "shogihome-position");
    assert_eq!(g.moves.len(), 3);
    assert_eq!(g.ending, Some(Ending::TimeUp));
    assert_eq!(g.comments[2], ["ここで時間切れ間近"]);
}

#[test]
fn minishogi_as_5五将棋() {
    assert!(!text("minishogi.kif").1, "Shift_JIS");
    let g = read("minishogi.kif");
    assert_eq!(g.kind, GameKind::Minishogi);
    same_as_sfen_and_csa(&g, "minishogi");
    assert_eq!(g.moves.len(), 30);
    // minishogi has no CSA form here: the CSA writer is 9x9 only
    let rec = Record::new(g.kind, Some(&g.start_sfen)).unwrap();
    assert!(formats::export(
        &rec,
        "csa",
        &[String::new(), String::new()],
        &formats::Notes::default()
    )
    .is_err());
}

/// 第21期竜王戦第7局 (2008), as newspapers print it, in KI2: every move resolves, and Hayate writes the same
/// names (右, 同, 成, 不成, 打 where the record has them).
#[test]
fn a_real_games_ki2() {
    let (text, utf8) = text("ryuo-21-7.ki2");
    assert!(!utf8, "Shift_JIS");
    let g = kif::read(&text).unwrap();
    assert_eq!(g.moves.len(), 140);
    assert_eq!(g.ending, Some(Ending::Resign));
    assert_eq!(g.names, ["羽生善治".to_string(), "渡辺明".to_string()]);
    let names = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| l.starts_with(['▲', '△']))
            .flat_map(|l| {
                l.split(['▲', '△'])
                    .skip(1)
                    .map(|m| m.trim().replace('竜', "龍"))
            })
            .collect()
    };
    let written = ki2::write(&g).unwrap();
    assert_eq!(names(&written), names(&text));
    assert!(written.ends_with("まで140手で後手の勝ち\n"), "{written}");
}

#[test]
fn a_malformed_kif_names_its_line() {
    let e = kif::read(&text("malformed.kif").0).unwrap_err();
    assert_eq!(e.to_string(), "KIF line 10: '２四飛(28)': not a legal move");
    let e = formats::import(&text("malformed.kif").0, GameKind::Shogi).unwrap_err();
    assert_eq!(e.to_string(), "KIF line 10: '２四飛(28)': not a legal move");
}
