//! Every socket message and the answers to bad input, over a plain WebSocket client; the HTTP access checks.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tungstenite::Message;

use hayate::rules::notation::header::decode;

use super::server::Server;

const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const AFTER_7G7F: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
const MATE_IN_ONE: &str = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";

fn legal_count(state: &Value) -> usize {
    state["legal"].as_array().expect("legal").len()
}

/// A raw HTTP GET with the given Host and extra header lines; returns the status code and body.
fn get(port: u16, target: &str, host: &str, extra: &str) -> (u16, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    write!(s, "GET {target} HTTP/1.1\r\nHost: {host}\r\n{extra}\r\n").expect("write");
    let mut out = String::new();
    s.read_to_string(&mut out).expect("read");
    let status = out
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .expect("status");
    let body = out
        .split_once("\r\n\r\n")
        .map(|x| x.1.to_string())
        .unwrap_or_default();
    (status, body)
}

#[test]
fn requests_without_the_token_are_refused() {
    let server = Server::start(&[]);
    let host = format!("127.0.0.1:{}", server.port);
    let good = format!("/?token={}", server.token);
    assert_eq!(get(server.port, &good, &host, "").0, 200);
    assert_eq!(get(server.port, "/", &host, ""), (403, "no token".into()));
    assert_eq!(
        get(server.port, "/app.js", &host, ""),
        (403, "no token".into())
    );
    assert_eq!(
        get(
            server.port,
            "/?token=0123456789abcdef0123456789abcdef",
            &host,
            ""
        ),
        (403, "wrong token".into())
    );
    assert_eq!(
        get(
            server.port,
            &good,
            &format!("evil.example:{}", server.port),
            ""
        ),
        (403, "wrong Host header".into())
    );
    assert_eq!(
        get(server.port, &good, &host, "Origin: http://evil.example\r\n"),
        (403, "wrong Origin header".into())
    );
    assert_eq!(
        get(
            server.port,
            &format!("/nothing?token={}", server.token),
            &host,
            ""
        )
        .0,
        404
    );
    let (status, body) = get(
        server.port,
        &format!("/app.js?token={}", server.token),
        &host,
        "",
    );
    assert_eq!(status, 200);
    assert!(body.contains("WebSocket"), "the page's script");
    // the socket too: the handshake is refused before any message
    for url in [
        format!("ws://127.0.0.1:{}/socket", server.port),
        format!("ws://127.0.0.1:{}/socket?token=00", server.port),
    ] {
        match tungstenite::connect(&url) {
            Err(tungstenite::Error::Http(resp)) => assert_eq!(resp.status().as_u16(), 403),
            other => panic!("socket without the token: {:?}", other.map(|_| ())),
        }
    }
}

#[test]
fn hello_lists_games_and_engines_and_new_games_start_on_each_board() {
    let server = Server::start(&[]);
    let mut c = server.socket();
    assert_eq!(c.hello["engines"], json!(["Hayate"]));
    let games = c.hello["games"].as_array().unwrap();
    let shapes: Vec<(String, u64, u64)> = games
        .iter()
        .map(|g| {
            (
                g["name"].as_str().unwrap().to_string(),
                g["ranks"].as_u64().unwrap(),
                g["files"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        shapes,
        vec![
            ("shogi".into(), 9, 9),
            ("minishogi".into(), 5, 5),
            ("yarishogi".into(), 9, 7)
        ]
    );
    let s = c.request(json!({"type": "state"}));
    assert_eq!((s["sfen"].as_str(), legal_count(&s)), (Some(START), 30));
    for (game, sfen, n) in [
        ("minishogi", "rbsgk/4p/5/P4/KGSBR b - 1", 14),
        (
            "yari",
            "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1",
            20,
        ),
        ("shogi", START, 30),
    ] {
        let s = c.request(json!({"type": "new", "game": game}));
        assert_eq!(s["sfen"], sfen);
        assert_eq!(legal_count(&s), n);
    }
    let s = c.request(json!({"type": "new", "game": "shogi", "start": "bishop"}));
    assert_eq!(
        s["sfen"],
        "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    let s = c.request(json!({"type": "new", "game": "minishogi", "moves": ["3e3d", "3a3b"]}));
    assert_eq!(s["sfen"], "rb1gk/2s1p/5/P1S2/KG1BR b - 3");
    assert_eq!(s["moves"], json!(["3e3d", "3a3b"]));
}

#[test]
fn moves_take_backs_check_and_mate() {
    let server = Server::start(&[]);
    let mut c = server.socket();
    let s = c.request(json!({"type": "move", "move": "7g7f"}));
    assert_eq!(s["sfen"], AFTER_7G7F);
    assert_eq!(s["moves"], json!(["7g7f"]));
    let s = c.request(json!({"type": "takeback"}));
    assert_eq!(s["sfen"], START);
    let s = c.request(json!({"type": "new", "game": "shogi", "start": MATE_IN_ONE}));
    assert_eq!(s["check"], Value::Null);
    let s = c.request(json!({"type": "move", "move": "G*5b"}));
    assert_eq!(
        (s["result"].as_str(), s["reason"].as_str()),
        (Some("1-0"), Some("checkmate"))
    );
    assert_eq!(s["check"], "5a");
    assert_eq!(legal_count(&s), 0);
    let e = c.request(json!({"type": "move", "move": "5a4a"}));
    assert_eq!(e["message"], "the game is over");
    let s = c.request(json!({"type": "takeback"}));
    assert_eq!(
        (s["sfen"].as_str(), &s["result"]),
        (Some(MATE_IN_ONE), &Value::Null)
    );
}

#[test]
fn bad_messages_get_an_error_and_change_nothing() {
    let server = Server::start(&[]);
    let mut c = server.socket();
    let before = c.request(json!({"type": "move", "move": "7g7f"}));
    let cases: Vec<(Value, &str)> = vec![
        (
            json!({"type": "move", "move": "7g7e"}),
            "illegal move '7g7e'",
        ),
        (json!({"type": "move", "move": "zz"}), "malformed move 'zz'"),
        (json!({"type": "move"}), "bad message: missing field `move`"),
        (
            json!({"type": "new", "game": "chess"}),
            "unknown game 'chess' (known: shogi, minishogi, 5x5+5_shogi, yarishogi, yari)",
        ),
        (
            json!({"type": "new", "game": "shogi", "start": "9/9 b - 1"}),
            "bad SFEN for shogi: ",
        ),
        (
            json!({"type": "new", "game": "shogi", "start": "queen"}),
            "unknown start 'queen' for shogi (known: startpos, lance, bishop, rook, two-pieces)",
        ),
        (
            json!({"type": "new", "game": "shogi", "moves": ["7g7f", "7g7f"]}),
            "illegal move '7g7f'",
        ),
        (
            json!({"type": "play", "engine": 3, "side": "white", "tc": "nodes=100"}),
            "no engine 3 (there are 1)",
        ),
        (
            json!({"type": "play", "engine": 0, "side": "green", "tc": "nodes=100"}),
            "unknown side 'green' (black, white, none)",
        ),
        (
            json!({"type": "play", "engine": 0, "side": "white", "tc": "fast"}),
            "bad time control: ",
        ),
        (
            json!({"type": "analyse", "engine": 0, "multipv": 0}),
            "multipv must be 1 to 10",
        ),
        (
            json!({"type": "mate", "engine": 0, "ms": 0}),
            "ms must be 1 to 3600000",
        ),
        (
            json!({"type": "stop"}),
            "no analysis or mate search is running",
        ),
        (
            json!({"type": "export", "format": "pgn"}),
            "unknown format 'pgn' (sfen, usi, record, csa, kif, ki2)",
        ),
        (
            json!({"type": "export", "format": "record"}),
            "a record line holds a finished game; export usi instead",
        ),
        (
            json!({"type": "import", "text": "hello world"}),
            "malformed move 'hello'",
        ),
        (json!({"type": "import", "text": ""}), "nothing to import"),
        (
            json!({"type": "import", "text": "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ７六歩(77)\n"}),
            "KIF line 4: '７六歩(77)': no 歩 of the side to move on 77",
        ),
        (
            json!({"type": "restart", "engine": 1}),
            "no engine 1 (there are 1)",
        ),
        (
            json!({"type": "launch"}),
            "bad message: unknown variant `launch`",
        ),
        (
            json!({"type": "state", "extra": 1}),
            "bad message: unknown field `extra`",
        ),
        (json!([1, 2]), "bad message: "),
        (
            json!({"type": "move", "move": 7}),
            "bad message: invalid type",
        ),
    ];
    for (msg, want) in cases {
        let e = c.request(msg.clone());
        assert_eq!(e["type"], "error", "{msg}: {e}");
        let got = e["message"].as_str().unwrap();
        assert!(got.starts_with(want), "{msg}: got {got:?}, want {want:?}");
        assert_eq!(
            c.request(json!({"type": "state"})),
            before,
            "{msg} changed the state"
        );
    }
    // raw frames: the error comes first, then the state asked for after them, unchanged
    c.send_raw(Message::text("not json"));
    let e = c.request(json!({"type": "state"}));
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .starts_with("bad message: expected"),
        "{e}"
    );
    assert_eq!(c.expect("state", Duration::from_secs(5)), before);
    c.send_raw(Message::binary(vec![1u8, 2, 3]));
    let e = c.request(json!({"type": "state"}));
    assert_eq!(
        e["message"],
        "bad message: binary frames are not understood"
    );
    assert_eq!(c.expect("state", Duration::from_secs(5)), before);
    // the engine may not be moved for, nor the takeback undo more than there is
    let s = c.request(json!({"type": "new", "game": "minishogi"}));
    let e = c.request(json!({"type": "takeback"}));
    assert_eq!(e["message"], "no move to take back");
    assert_eq!(c.request(json!({"type": "state"})), s);
}

#[test]
fn import_detects_each_format_and_export_writes_them() {
    let server = Server::start(&[]);
    let mut c = server.socket();
    let s = c.request(json!({"type": "import", "text": "position startpos moves 7g7f 3c3d"}));
    assert_eq!(s["moves"], json!(["7g7f", "3c3d"]));
    let e = c.request(json!({"type": "export", "format": "sfen"}));
    assert_eq!(
        e["text"],
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
    );
    let e = c.request(json!({"type": "export", "format": "usi"}));
    assert_eq!(e["text"], format!("position sfen {START} moves 7g7f 3c3d"));
    // an SFEN of a 5x5 board switches the game
    let s = c.request(json!({"type": "import", "text": "rbsgk/4p/5/P4/KGSBR b - 1 moves 3e3d"}));
    assert_eq!(
        (s["game"].as_str(), s["sfen"].as_str()),
        (Some("minishogi"), Some("rbsgk/4p/5/P1S2/KG1BR w - 2"))
    );
    // a bare move list belongs to the current game
    let s = c.request(json!({"type": "import", "text": "3e3d 3a3b"}));
    assert_eq!(s["sfen"], "rb1gk/2s1p/5/P1S2/KG1BR b - 3");
    // a games.txt line of Yari shogi
    let line = "0-1 resign sfen rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1 moves 1g1f";
    let s = c.request(json!({"type": "import", "text": line}));
    assert_eq!(
        (s["game"].as_str(), s["moves"].clone()),
        (Some("yarishogi"), json!(["1g1f"]))
    );
    // CSA
    let csa = "V2.2\nN+a\nN-b\nP1 *  *  *  * -OU *  *  *  * \nP2 *  *  *  *  *  *  *  *  * \nP3 *  *  *  * +FU *  *  *  * \nP4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \nP7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \nP9 *  *  *  * +OU *  *  *  * \nP+00KI\n+\n+0052KI\n%TSUMI\n";
    let s = c.request(json!({"type": "import", "text": csa}));
    assert_eq!(s["start_sfen"], MATE_IN_ONE);
    assert_eq!(
        (s["result"].as_str(), s["reason"].as_str()),
        (Some("1-0"), Some("checkmate"))
    );
    let e = c.request(json!({"type": "export", "format": "record"}));
    assert_eq!(
        e["text"],
        format!("1-0 checkmate sfen {MATE_IN_ONE} moves G*5b")
    );
    let e = c.request(json!({"type": "export", "format": "csa"}));
    let text = e["text"].as_str().unwrap();
    assert!(text.contains("+0052KI\n"), "{text}");
    assert!(text.contains("%TSUMI"), "{text}");
    // KIF and KI2, as the common tools write them (Shift_JIS files, pasted as text)
    let kif_text = |name: &str| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/kif")
            .join(name);
        decode(&std::fs::read(path).unwrap(), None).unwrap()
    };
    let s = c.request(json!({"type": "import", "text": kif_text("kifu-for-windows.kif")}));
    assert_eq!(
        (s["game"].as_str(), s["moves"].as_array().map(Vec::len)),
        (Some("shogi"), Some(40))
    );
    assert_eq!(
        s["moves"].as_array().unwrap()[..4],
        json!(["7g7f", "8c8d", "7i6h", "3c3d"]).as_array().unwrap()[..]
    );
    assert_eq!(
        s["moves_ja"].as_array().unwrap()[..2],
        json!(["▲７六歩", "△８四歩"]).as_array().unwrap()[..]
    );
    // the game goes on (a KIF holds a game to study further), with what the record says beside the moves: the
    // players, header fields, each move's time, the comments and the recorded ending
    assert!(s["result"].is_null());
    assert_eq!(s["names"], json!(["羽生善治", "渡辺明"]));
    assert_eq!(s["headers"][2], json!(["棋戦", "竜王戦"]));
    assert_eq!(s["times_ms"][0], 17_000);
    assert_eq!(s["times_ms"][1], 72_000);
    assert_eq!(s["times_ms"].as_array().map(Vec::len), Some(40));
    assert_eq!(s["comments"][0], "");
    assert_eq!(s["comments"][1], "角道を開ける。");
    assert_eq!(s["comments"].as_array().map(Vec::len), Some(41));
    assert_eq!(s["recorded_ending"], "投了");
    let e = c.request(json!({"type": "export", "format": "kif"}));
    let text = e["text"].as_str().unwrap();
    assert!(text.contains("棋戦：竜王戦\n"), "{text}");
    assert!(
        text.contains(
            "手合割：平手\n先手：羽生善治\n後手：渡辺明\n手数----指手---------消費時間--\n   1 ７六歩(77)     ( 0:17/00:00:17)\n*角道を開ける。\n"
        ),
        "{text}"
    );
    assert!(text.contains("\n  41 投了"), "{text}");
    // a move taken back: the moves before keep their notes, the ending is no longer the record's
    let s = c.request(json!({"type": "takeback"}));
    assert_eq!(s["moves"].as_array().map(Vec::len), Some(39));
    assert!(s["recorded_ending"].is_null());
    assert_eq!(s["times_ms"][38], 56_000);
    assert_eq!(s["names"], json!(["羽生善治", "渡辺明"]));
    let other = s["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| *m != "8a7c")
        .unwrap()
        .clone();
    let s = c.request(json!({"type": "move", "move": other}));
    assert_eq!(s["moves"].as_array().map(Vec::len), Some(40));
    assert!(s["times_ms"][39].is_null(), "{s}");
    let e = c.request(json!({"type": "export", "format": "kif"}));
    let text = e["text"].as_str().unwrap();
    assert!(text.contains("先手：羽生善治\n"), "{text}");
    assert!(!text.contains("投了"), "{text}");
    // a game set up anew has no record's notes
    let s = c.request(json!({"type": "import", "text": kif_text("kifu-for-windows.kif")}));
    assert_eq!(s["moves"].as_array().map(Vec::len), Some(40));
    let e = c.request(json!({"type": "export", "format": "kif"}));
    let text = e["text"].as_str().unwrap();
    assert!(
        text.contains("\n  23 同　歩(56)     ( 1:15/00:09:52)\n"),
        "{text}"
    );
    let s = c.request(json!({"type": "new", "game": "shogi"}));
    assert!(s["names"].is_null());
    assert_eq!(s["comments"], json!([""]));
    let s = c.request(json!({"type": "import", "text": kif_text("kifu-for-windows.kif")}));
    assert_eq!(s["moves"].as_array().map(Vec::len), Some(40));
    let e = c.request(json!({"type": "export", "format": "ki2"}));
    let text = e["text"].as_str().unwrap();
    assert!(text.contains("▲５八金右"), "{text}");
    let s = c.request(json!({"type": "import", "text": kif_text("ryuo-21-7.ki2")}));
    assert_eq!(s["moves"].as_array().map(Vec::len), Some(140));
    assert_eq!(s["moves_ja"][17], "△５三銀右");
    assert_eq!(s["moves_ja"][22], "▲同　歩");
    let s = c.request(json!({"type": "import", "text": kif_text("minishogi.kif")}));
    assert_eq!(s["game"], "minishogi");
    assert_eq!(s["moves_ja"][1], "△同　飛");
    // Yari shogi has no KIF: its moves have no Japanese names, and KIF export says why
    let s = c.request(json!({"type": "new", "game": "yarishogi", "moves": ["1g1f"]}));
    assert_eq!(s["moves_ja"], json!([]));
    let e = c.request(json!({"type": "export", "format": "kif"}));
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .starts_with("Yari shogi has no KIF"),
        "{e}"
    );
}

#[test]
fn an_engine_plays_and_takeback_returns_to_the_players_turn() {
    let server = Server::start(&[]);
    let mut c = server.socket();
    c.request(json!({"type": "new", "game": "minishogi"}));
    let s = c.request(json!({"type": "play", "engine": 0, "side": "white", "tc": "nodes=2000"}));
    assert_eq!(s["engine_side"], "white");
    let s = c.request(json!({"type": "move", "move": "3e3d"}));
    assert_eq!(s["thinking"], true);
    assert_eq!(
        legal_count(&s),
        0,
        "no moves offered while the engine is to move"
    );
    let e = c.request(json!({"type": "move", "move": "3a3b"}));
    assert_eq!(e["message"], "the engine is to move");
    let s = c.wait_state(Duration::from_secs(30), |s| {
        s["moves"].as_array().unwrap().len() == 2
    });
    assert_eq!(s["thinking"], false);
    assert!(legal_count(&s) > 0);
    assert!(
        s["evals"][1].is_i64(),
        "the engine's score is on the graph: {}",
        s["evals"]
    );
    let s = c.request(json!({"type": "takeback"}));
    assert_eq!(s["sfen"], "rbsgk/4p/5/P4/KGSBR b - 1");
    // the engine opens as sente: it moves at once
    c.request(json!({"type": "play", "engine": 0, "side": "black", "tc": "byoyomi=1000"}));
    let s = c.wait_state(Duration::from_secs(30), |s| {
        s["moves"].as_array().unwrap().len() == 1
    });
    assert_eq!(s["byoyomi"], 1000);
    assert_eq!(s["running"], "white");
}

#[test]
fn analysis_sends_multipv_lines_and_stops() {
    let server = Server::start(&[]);
    let mut c = server.socket();
    c.request(json!({"type": "new", "game": "minishogi"}));
    let s = c.request(json!({"type": "analyse", "engine": 0, "multipv": 2}));
    assert_eq!(s["analysing"], true);
    let a = loop {
        let a = c.expect("analysis", Duration::from_secs(30));
        if a["lines"].as_array().unwrap().len() == 2 && a["depth"].as_u64() >= Some(4) {
            break a;
        }
    };
    let lines = a["lines"].as_array().unwrap();
    assert_eq!(
        (lines[0]["multipv"].as_u64(), lines[1]["multipv"].as_u64()),
        (Some(1), Some(2))
    );
    assert_ne!(
        lines[0]["pv"][0], lines[1]["pv"][0],
        "two different first moves"
    );
    // each line's Japanese names, one a move, sente's first (minishogi has them, as 9x9 does)
    for l in lines {
        let (pv, ja) = (l["pv"].as_array().unwrap(), l["pv_ja"].as_array().unwrap());
        assert_eq!(pv.len(), ja.len(), "{l}");
        assert!(ja[0].as_str().unwrap().starts_with('▲'), "{l}");
    }
    let legal = c.request(json!({"type": "state"}))["legal"].clone();
    assert!(legal.as_array().unwrap().contains(&lines[0]["pv"][0]));
    // a move restarts the analysis on the new position
    let s = c.request(json!({"type": "move", "move": lines[0]["pv"][0].as_str().unwrap()}));
    assert_eq!(s["analysing"], true);
    let s = c.request(json!({"type": "stop"}));
    assert_eq!(s["analysing"], false);
    let e = c.request(json!({"type": "stop"}));
    assert_eq!(e["message"], "no analysis or mate search is running");
}

#[test]
fn mate_search_answers_the_solution() {
    let server = Server::start(&[]);
    let mut c = server.socket();
    c.request(json!({"type": "new", "game": "shogi", "start": MATE_IN_ONE}));
    c.send(json!({"type": "mate", "engine": 0, "ms": 5000}));
    let m = c.expect("mate", Duration::from_secs(20));
    assert_eq!(
        m,
        json!({"type": "mate", "result": "mate", "moves": ["G*5b"], "moves_ja": ["▲５二金"]})
    );
    c.request(json!({"type": "new", "game": "shogi"}));
    c.send(json!({"type": "mate", "engine": 0, "ms": 2000}));
    let m = c.expect("mate", Duration::from_secs(20));
    assert_ne!(m["result"], "mate");
}

#[test]
fn a_crashed_engine_is_reported_and_restarts() {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fake_engines/fake_engine.py"
    );
    let server = Server::start(&[
        "--engine",
        "cmd=python3",
        &format!("arg={script}"),
        "arg=crash",
        "name=Crasher",
    ]);
    let mut c = server.socket();
    assert_eq!(c.hello["engines"], json!(["Crasher"]));
    c.request(json!({"type": "play", "engine": 0, "side": "black", "tc": "nodes=100"}));
    let e = c.expect("engine_error", Duration::from_secs(20));
    assert_eq!(e["engine"], 0);
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .starts_with("the engine exited"),
        "{e}"
    );
    let s = c.expect("state", Duration::from_secs(5));
    assert_eq!(
        (
            s["thinking"].as_bool(),
            s["moves"].as_array().unwrap().len()
        ),
        (Some(false), 0)
    );
    // restarting starts it again, and its move is asked for again (it crashes again: this one always does)
    let s = c.request(json!({"type": "restart", "engine": 0}));
    assert_eq!(s["thinking"], true);
    c.expect("engine_error", Duration::from_secs(20));
}

#[test]
fn a_tsume_problem_without_the_attackers_king_is_for_the_solver_only() {
    let server = Server::start(&[]);
    let mut c = server.socket();
    let problem = "RBk+b+R/2+s2/5/5/5 b Ggs2p 1";
    let s = c.request(json!({"type": "import", "text": problem}));
    assert_eq!(
        (s["game"].as_str(), s["sfen"].as_str()),
        (Some("minishogi"), Some(problem))
    );
    for msg in [
        json!({"type": "play", "engine": 0, "side": "white", "tc": "nodes=100"}),
        json!({"type": "analyse", "engine": 0, "multipv": 1}),
    ] {
        let e = c.request(msg);
        assert_eq!(
            e["message"],
            "a position without both kings is for the tsume solver only"
        );
    }
    c.send(json!({"type": "mate", "engine": 0, "ms": 10000}));
    let m = c.expect("mate", Duration::from_secs(20));
    assert_eq!(m["result"], "mate");
    let moves: Vec<&str> = m["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(moves.len(), 3);
    for mv in &moves {
        c.request(json!({"type": "move", "move": mv}));
    }
    let s = c.request(json!({"type": "state"}));
    assert_eq!(
        (s["result"].as_str(), s["reason"].as_str()),
        (Some("1-0"), Some("checkmate"))
    );
}

#[test]
fn a_record_file_is_replayed_and_followed_as_it_grows() {
    let dir = std::env::temp_dir().join(format!("hayate-gui-watch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let games = dir.join("games.txt");
    let first = format!("1-0 checkmate sfen {MATE_IN_ONE} moves G*5b\n");
    let second = "0-1 resign sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 3e3d 3a3b\n";
    std::fs::write(&games, format!("{first}{second}")).unwrap();
    let server = Server::start(&["--watch", dir.to_str().unwrap()]);
    let mut c = server.socket();
    assert_eq!(c.hello["watching"], true);
    c.send(json!({"type": "watch_list"}));
    let list = c.expect("games", Duration::from_secs(5));
    assert_eq!(
        list["games"],
        json!([
            {"game": "shogi", "plies": 1, "result": "1-0", "reason": "checkmate", "error": null,
             "live": false, "players": null},
            {"game": "minishogi", "plies": 2, "result": "0-1", "reason": "resign", "error": null,
             "live": false, "players": null},
        ])
    );
    let s = c.request(json!({"type": "watch", "index": 1, "ply": 1}));
    assert_eq!(
        (s["sfen"].as_str(), s["watched"].clone()),
        (Some("rbsgk/4p/5/P1S2/KG1BR w - 2"), json!([1, 2]))
    );
    assert_eq!(s["result"], Value::Null);
    let s = c.request(json!({"type": "watch", "index": 1, "ply": 2}));
    assert_eq!(
        (s["result"].as_str(), s["reason"].as_str()),
        (Some("0-1"), Some("resign"))
    );
    let e = c.request(json!({"type": "watch", "index": 1, "ply": 3}));
    assert_eq!(e["message"], "the game has 2 plies, not 3");
    // no ply: the last
    let s = c.request(json!({"type": "watch", "index": 1}));
    assert_eq!(
        (s["moves"].clone(), s["watched"].clone()),
        (json!(["3e3d", "3a3b"]), json!([1, 2]))
    );
    let e = c.request(json!({"type": "watch", "index": 5, "ply": 0}));
    assert_eq!(e["message"], "no game 5 in the watched file");
    // a running match appends its games: the list grows; a line the rules reject is listed with its error
    let third = "1-0 resign sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 3e3c\n";
    std::fs::write(&games, format!("{first}{second}{third}")).unwrap();
    c.send(json!({"type": "watch_list"}));
    let list = c.expect("games", Duration::from_secs(5));
    assert_eq!(list["games"][2]["error"], "illegal move '3e3c'");
    let e = c.request(json!({"type": "watch", "index": 2, "ply": 0}));
    assert_eq!(e["message"], "illegal move '3e3c'");
    // live records: one cut short, one not a record, one with an illegal move are left out; a good one is listed
    // after the finished games and, once watched, pushed again as it grows
    let live = dir.join("live");
    std::fs::create_dir_all(&live).unwrap();
    let head = "game 4\nsente A\ngote B\n* playing sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 3e3d";
    std::fs::write(live.join("4.txt"), head).unwrap();
    std::fs::write(live.join("5.txt"), "garbage\n").unwrap();
    std::fs::write(
        live.join("6.txt"),
        "game 6\nsente A\ngote B\n* playing sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 3e3c\n",
    )
    .unwrap();
    let list = c.request(json!({"type": "watch_list"}));
    assert_eq!(list["games"].as_array().map(Vec::len), Some(3));
    std::fs::write(live.join("4.txt"), format!("{head}\n")).unwrap();
    let list = c.request(json!({"type": "watch_list"}));
    assert_eq!(
        list["games"][3],
        json!({"game": "minishogi", "plies": 1, "result": null, "reason": null, "error": null,
               "live": true, "players": ["A", "B"]})
    );
    let s = c.request(json!({"type": "watch", "index": 3, "ply": 1}));
    assert_eq!(s["watched"], json!([3, 1]));
    std::fs::write(
        live.join("4.txt"),
        "game 4\nsente A\ngote B\nclocks 900 800\nscores 12 -30\n\
         * playing sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 3e3d 3a3b\n",
    )
    .unwrap();
    let s = c.wait_state(Duration::from_secs(5), |s| s["watched"] == json!([3, 2]));
    assert_eq!(
        (s["moves"].clone(), s["clocks"].clone(), s["result"].clone()),
        (json!(["3e3d", "3a3b"]), json!([900, 800]), Value::Null)
    );
    assert_eq!(s["evals"], json!([12, -30, null]));
    // without --watch
    let server = Server::start(&[]);
    let mut c = server.socket();
    assert_eq!(c.hello["watching"], false);
    let e = c.request(json!({"type": "watch_list"}));
    assert_eq!(
        e["message"],
        "no record file is watched (hayate gui --watch FILE)"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A real `hayate match` watched through the socket: a game in progress is pushed move by move, each move list a
/// head of the game's line in games.txt once it is over.
#[test]
fn a_running_match_is_watched_move_by_move() {
    let dir = std::env::temp_dir().join(format!("hayate-gui-live-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // a clock, not a node count, paces the moves: at 10,000 nodes a move the games ran faster than the server's
    // pushes on a loaded machine, and each was seen at one length only
    let mut matched = super::server::start_minishogi_match(&dir, "byoyomi=100", 2);
    let server = Server::start(&["--watch", dir.to_str().unwrap()]);
    let mut c = server.socket();
    c.send(json!({"type": "watch_list"}));
    // (game index, its moves) for every state of a game in progress
    let mut seen: Vec<(u64, Vec<String>)> = Vec::new();
    let mut watching: Option<u64> = None;
    let mut finished_seen = false;
    // the engines' scores, from the live records, drawn in the graph
    let mut scored = false;
    let lengths_of = |seen: &[(u64, Vec<String>)], i: u64| {
        let mut l: Vec<usize> = seen
            .iter()
            .filter(|s| s.0 == i)
            .map(|s| s.1.len())
            .collect();
        l.dedup();
        l
    };
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut ended: Option<Instant> = None;
    // the server's last pushes come within a poll or two of the match's end
    while Instant::now() < deadline && ended.is_none_or(|t| t.elapsed() < Duration::from_secs(2)) {
        if ended.is_none() && matched.try_wait().expect("match status").is_some() {
            ended = Some(Instant::now());
        }
        let Some(m) = c.next(Duration::from_millis(200)) else {
            continue;
        };
        match m["type"].as_str() {
            Some("games") if watching.is_none() => {
                let games = m["games"].as_array().expect("games");
                if let Some((i, g)) = games.iter().enumerate().find(|(_, g)| g["live"] == true) {
                    watching = Some(i as u64);
                    assert!(g["plies"].is_u64());
                    c.send(json!({"type": "watch", "index": i}));
                }
            }
            Some("state") => {
                let Some(i) = watching.filter(|&i| m["watched"][0] == i) else {
                    continue;
                };
                let moves: Vec<String> = serde_json::from_value(m["moves"].clone()).expect("moves");
                scored |= m["evals"]
                    .as_array()
                    .is_some_and(|e| e.iter().any(Value::is_i64));
                if m["result"].is_null() {
                    seen.push((i, moves));
                } else {
                    finished_seen = true;
                    // a game too short to be seen growing: the next one
                    if lengths_of(&seen, i).len() < 2 {
                        watching = None;
                    }
                }
            }
            _ => {}
        }
    }
    assert_eq!(matched.wait().expect("match").code(), Some(0));
    let text = std::fs::read_to_string(dir.join("games.txt")).expect("games.txt");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(
        !dir.join("live").exists(),
        "the live records are removed at the end"
    );
    assert!(finished_seen, "no watched game was seen finished");
    assert!(scored, "no score of the engines came with the watched game");
    let grown: Vec<Vec<usize>> = (0..2)
        .map(|i| lengths_of(&seen, i))
        .filter(|l| l.len() >= 2)
        .collect();
    eprintln!("watched games seen at plies {grown:?}");
    assert!(!grown.is_empty(), "no game seen at two lengths: {seen:?}");
    for l in &grown {
        assert!(l.windows(2).all(|w| w[0] < w[1]), "{l:?}");
    }
    for (i, moves) in &seen {
        let words: Vec<&str> = lines[*i as usize].split_whitespace().collect();
        let at = words.iter().position(|&w| w == "moves").expect("moves");
        let finished = &words[at + 1..];
        assert!(
            finished.len() >= moves.len() && finished[..moves.len()] == moves[..],
            "{moves:?} is not the head of {finished:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
