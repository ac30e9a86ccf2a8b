//! What an attack on the page's socket found (issue 48): imports of text that is not ASCII, restarts that piled
//! up engine processes, imports whose time grew with the cube of the game's length. Each test here failed before
//! its fix.

use std::time::{Duration, Instant};

use hayate::host::judge::Judge;
use hayate::rules::position::notation::move_to_usi;
use hayate::{Shogi, Variant};

use serde_json::{json, Value};

use super::server::Server;

const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// Texts whose CSA-shaped lines hold characters of several bytes where fields of one are expected: each was a
/// panic on a byte index inside a character, which killed the page's connection.
const NOT_ASCII: [(&str, &str); 7] = [
    ("+777éX", "malformed move '+777éX'"),
    ("+7776éX", "CSA: cannot read '+7776éX'"),
    ("P1あ", "CSA: cannot read 'P1あ'"),
    ("P1éX", "CSA: cannot read 'P1éX'"),
    ("PI\n+\n+7776é", "CSA: cannot read '+7776é'"),
    ("PI\nP+00éU", "CSA: cannot read 'P+00éU'"),
    (
        "P1-KY-KE-GI-KI-OU-KI-GI-KE-Kあ",
        "CSA: cannot read 'P1-KY-KE-GI-KI-OU-KI-GI-KE-Kあ'",
    ),
];

#[test]
fn imports_of_text_that_is_not_ascii_are_errors_and_the_socket_lives_on() {
    let server = Server::start(&[]);
    let mut c = server.socket();
    let before = c.request(json!({"type": "move", "move": "7g7f"}));
    for (text, want) in NOT_ASCII {
        let e = c.request(json!({"type": "import", "text": text}));
        assert_eq!(e["type"], "error", "{text:?}: {e}");
        assert_eq!(e["message"], want, "{text:?}");
        // the game is the one before the import, and the socket still answers
        let s = c.request(json!({"type": "state"}));
        assert_eq!(s["sfen"], before["sfen"], "{text:?}");
        assert_eq!(s["moves"], json!(["7g7f"]));
    }
}

#[test]
fn a_watched_csa_file_with_a_bad_row_is_listed_with_its_error() {
    let dir = std::env::temp_dir().join(format!("hayate-gui-badcsa-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.csa");
    std::fs::write(&file, "V2.2\nN+a\nN-b\nP1あ\n+\n+7776FU\n").unwrap();
    let server = Server::start(&["--watch", file.to_str().unwrap()]);
    // two sockets, as two pages: neither dies listing or watching the file
    for _ in 0..2 {
        let mut c = server.socket();
        let list = c.request(json!({"type": "watch_list"}));
        assert_eq!(list["type"], "games", "{list}");
        let e = c.request(json!({"type": "watch", "index": 0, "ply": 0}));
        assert_eq!(e["type"], "error", "{e}");
        assert!(
            e["message"]
                .as_str()
                .is_some_and(|m| m.contains("CSA: cannot read 'P1あ'")),
            "{e}"
        );
        let s = c.request(json!({"type": "state"}));
        assert_eq!(s["sfen"], START);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Shift_JIS KIF files are watched as CSA files are: the game replayed, and a malformed one listed with its line.
#[test]
fn watched_kif_files_are_replayed_and_a_malformed_one_names_its_line() {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kif");
    let server = Server::start(&[
        "--watch",
        data.join("kifu-for-windows.kif").to_str().unwrap(),
    ]);
    let mut c = server.socket();
    let list = c.request(json!({"type": "watch_list"}));
    assert_eq!(list["games"][0]["plies"], 40, "{list}");
    let s = c.request(json!({"type": "watch", "index": 0}));
    assert_eq!(s["moves_ja"][39], "△７三桂", "{s}");
    let server = Server::start(&["--watch", data.join("malformed.kif").to_str().unwrap()]);
    let mut c = server.socket();
    let list = c.request(json!({"type": "watch_list"}));
    assert_eq!(
        list["games"][0]["error"], "KIF line 10: '２四飛(28)': not a legal move",
        "{list}"
    );
}

/// The pids of the processes whose parent is `parent` (Linux: read from /proc).
fn children(parent: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
                // the fourth field, after the command in parentheses (which may hold spaces)
                stat.rsplit_once(')')
                    .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok())
                    == Some(parent)
            })
        })
        .collect()
}

#[test]
fn restarts_never_leave_more_than_one_engine_process() {
    if !std::path::Path::new("/proc/self/stat").exists() {
        eprintln!("skipped: no /proc to count processes");
        return;
    }
    let server = Server::start(&[]);
    let mut c = server.socket();
    // an analysis starts the engine
    c.request(json!({"type": "analyse", "engine": 0, "multipv": 1}));
    for i in 0..15 {
        let s = c.request(json!({"type": "restart", "engine": 0}));
        assert_eq!(s["type"], "state", "restart {i}: {s}");
        let n = children(server.pid()).len();
        assert!(n <= 1, "after restart {i}: {n} engine processes");
    }
    drop(c);
    // the socket's end ends its engine
    let deadline = Instant::now() + Duration::from_secs(3);
    while !children(server.pid()).is_empty() {
        assert!(
            Instant::now() < deadline,
            "engines still running 3 s after the socket closed: {:?}",
            children(server.pid())
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A legal 9×9 game of `plies` moves that never ends: random moves, none that mates or repeats a position a
/// fourth time (a fixed seed, so that every run imports the same game).
fn long_game(plies: usize) -> Vec<String> {
    let mut judge = Judge::<Shogi>::new(Shogi::START_SFEN).unwrap();
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    while judge.plies() < plies {
        let legal = judge.position().legal_moves();
        let start = usize::try_from(next() % legal.len() as u64).unwrap();
        let ok = (0..legal.len())
            .map(|i| legal[(start + i) % legal.len()])
            .find(|&m| {
                let mut after = judge.position().clone();
                after.do_move(m);
                after.has_legal_move() && after.repetition_verdict(4, usize::MAX).is_none()
            });
        let m = ok.expect("a move that neither mates nor ends the game");
        let usi = move_to_usi::<Shogi>(m);
        assert_eq!(judge.play(&usi).unwrap(), None);
    }
    judge.moves().to_vec()
}

#[test]
fn a_long_game_imports_at_once() {
    // 2,400 plies took 1.6 s before, growing with the cube of the length: 8,000 would have taken a minute
    let moves = long_game(8000);
    let server = Server::start(&[]);
    let mut c = server.socket();
    let text = format!("position startpos moves {}", moves.join(" "));
    let s = c.request(json!({"type": "import", "text": text}));
    assert_eq!(s["type"], "state", "{s}");
    assert_eq!(s["moves"].as_array().map(Vec::len), Some(8000));
    assert_eq!(s["moves"][7999], Value::String(moves[7999].clone()));
    assert_eq!(s["result"], Value::Null);
}
