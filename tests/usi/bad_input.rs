//! Bad input: one error line each, and the engine plays on.

use super::scratch::Scratch;
use std::time::{Duration, Instant};

use crate::process::Engine;
use crate::{ms, shared, MATED, MATE_IN_ONE, MINI_START, QUICK, SEARCH, SHOGI_START, YARI_START};

/// Each of these gets exactly one `info string error:` line, leaves the position as it was, and the next
/// `go depth 2` plays a legal move.
#[test]
fn every_bad_input_gets_one_error_line_and_the_engine_plays_on() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.accept("position startpos moves 2g2f 8c8d");
    let base = e.sfen();
    assert_eq!(
        base,
        "lnsgkgsnl/1r5b1/p1ppppppp/1p7/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL b - 3"
    );
    let bad = [
        // commands
        "foo",
        "Usi",
        "\u{0}\u{0}\u{0}",
        "bestmove 7g7f",
        // setoption
        "setoption",
        "setoption name",
        "setoption value 3",
        "setoption foo Threads value 1",
        "setoption name Threads",
        "setoption name Threads value",
        "setoption name Threads value abc",
        "setoption name Threads value 1.5",
        "setoption name Threads value 0",
        "setoption name Threads value 1025",
        "setoption name Threads value 2 value 3",
        "setoption name USI_Hash value 0",
        "setoption name USI_Hash value 65537",
        "setoption name USI_Hash value 99999999999999999999999999",
        "setoption name USI_Hash value -1",
        "setoption name MultiPV value 601",
        "setoption name SlowMover value 9",
        "setoption name DrawValue value -30001",
        "setoption name ResignValue value x",
        "setoption name MaxMovesToDraw value -1",
        "setoption name NetworkDelay value 10001",
        "setoption name USI_Ponder value maybe",
        "setoption name USI_Ponder",
        "setoption name USI_Variant value chess",
        "setoption name USI_Variant",
        "setoption name EnteringKingRule value CSARule99",
        "setoption name NoSuchOption value 1",
        "setoption name NoSuchOption",
        "setoption name LogFile value /nonexistent-dir-hayate-test/log.txt",
        // position
        "position",
        "position foo",
        "position moves 7g7f",
        "position startpos foo",
        "position sfen",
        "position sfen moves 7g7f",
        "position sfen xyz",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 99P 1",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL/9 b - 1",
        "position sfen P3k4/9/9/9/9/9/9/9/4K4 b - 1",
        "position sfen 4k4/9/9/9/9/9/9/P3P4/P3K4 b - 1",
        "position sfen 9/9/9/9/9/9/9/9/4K4 b - 1",
        "position startpos moves 7g7f 7g7f",
        "position startpos moves 7g7z",
        "position startpos moves P*5e",
        "position startpos moves 7g7f 3c3d 8h2b+ 3a2b 2b8h",
        // go
        "go foo",
        "go depth x",
        "go depth",
        "go depth 99999999999999999999",
        "go movetime",
        "go btime - wtime 1000",
        "go nodes 1e6",
        "go mate",
        "go mate x",
        "go searchmoves 1a1a depth 2",
        "go searchmoves 7g7e depth 2",
        "go perft",
        "go perft x",
    ];
    for line in bad {
        e.reject(line);
        let now = e.sfen();
        if now != base {
            e.fail(&format!(
                "'{line}' changed the position from {base} to {now}"
            ));
        }
        e.go_legal("go depth 2");
    }
}

#[test]
fn errors_name_what_was_wrong() {
    let _cpu = shared();
    let mut e = Engine::new();
    let msg = e.reject("frobnicate now");
    assert!(msg.contains("frobnicate"), "{msg}");
    let msg = e.reject("setoption name Threads value abc");
    assert!(msg.contains("Threads") && msg.contains("abc"), "{msg}");
    let msg = e.reject("setoption name Threads value 0");
    assert!(msg.contains("Threads"), "{msg}");
    let msg = e.reject("setoption name Bogus value 1");
    assert!(msg.contains("Bogus"), "{msg}");
    let msg = e.reject("position startpos moves 7g7f 7g7f");
    assert!(msg.contains("7g7f"), "{msg}");
    let msg = e.reject("go depth x");
    assert!(msg.contains("depth"), "{msg}");
    let msg = e.reject("go wibble");
    assert!(msg.contains("wibble"), "{msg}");
}

#[test]
fn bad_sfen_and_illegal_moves_keep_the_last_valid_position() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.accept(&format!("position sfen {MATE_IN_ONE} moves G*5b"));
    assert_eq!(e.sfen(), MATED);
    e.reject("position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL");
    assert_eq!(e.sfen(), MATED);
    e.reject("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1 moves G*5b 5a4a");
    assert_eq!(e.sfen(), MATED);
    e.accept("position startpos moves 7g7f 3c3d");
    let after = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3";
    assert_eq!(e.sfen(), after);
    // the illegal second 7g7f: nothing of the line is kept
    e.reject("position startpos moves 7g7f 7g7f");
    assert_eq!(e.sfen(), after);
    e.go_legal("go depth 2");
}

/// After `USI_Variant minishogi`, an SFEN whose board fits none of the games (8 files) is refused and the
/// minishogi position stays; 9×9 and 9×7 boards select their own game.
#[test]
fn sfen_that_fits_no_game_after_selecting_minishogi_is_refused() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.accept("setoption name USI_Variant value minishogi");
    e.accept("position startpos");
    assert_eq!(e.sfen(), MINI_START);
    for sfen in [
        "lnsgkgsn/8/pppppppp/8/8/8/PPPPPPPP/8/LNSGKGSN b - 1",
        "rbsgk/4p/5/P4 b - 1",
        "rbsgk/4p/5/P4/KGSBR/5 b - 1",
        "rbsgk/4p/5/P4/KGSBRR b - 1",
    ] {
        e.reject(&format!("position sfen {sfen}"));
        assert_eq!(e.sfen(), MINI_START, "after {sfen}");
        e.go_legal("go depth 2");
    }
    // other shapes select their game; startpos is still the selected game's
    e.accept(&format!("position sfen {SHOGI_START}"));
    assert_eq!(e.sfen(), SHOGI_START);
    e.go_legal("go depth 2");
    e.accept(&format!("position sfen {YARI_START} moves 4g4f"));
    assert_eq!(
        e.sfen(),
        "rnnkbbr/7/ppppppp/7/7/3P3/PPP1PPP/7/RBBKNNR w - 2"
    );
    e.go_legal("go depth 2");
    e.accept("position startpos");
    assert_eq!(e.sfen(), MINI_START);
}

#[test]
fn empty_and_blank_lines_get_no_reply() {
    let _cpu = shared();
    let mut e = Engine::new();
    for line in ["", " ", "\t", "\r", "   \t  \r"] {
        e.send(line);
    }
    e.send_raw(b"\n\n\n\r\n");
    let lines = e.sync();
    assert!(lines.is_empty(), "{lines:?}");
    e.assert_silent(Duration::from_millis(100), "after blank lines");
    e.go_legal("go depth 2");
}

#[test]
fn a_one_megabyte_line_gets_one_error() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.accept("position startpos moves 5g5f");
    let base = e.sfen();
    // a command that would be legal, made 1 MB long
    let mut line = String::from("position startpos moves");
    while line.len() < 1 << 20 {
        line.push_str(" 7g7f 3c3d");
    }
    let t = Instant::now();
    e.send(&line);
    let msg = e.expect_one_error("1 MB position line");
    assert!(msg.contains("too long"), "{msg}");
    assert_eq!(e.sfen(), base);
    // one 1 MB word without spaces
    e.send(&"x".repeat(1 << 20));
    e.expect_one_error("1 MB word");
    e.go_legal("go depth 2");
    eprintln!("two 1 MB lines handled in {:.0} ms", ms(t.elapsed()));
}

#[test]
fn binary_garbage_gets_one_error() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.accept("position startpos moves 5g5f");
    let base = e.sfen();
    let garbage: [&[u8]; 5] = [
        b"\xff\xfe\x00\x80\xc3\x28garbage\x1b[2J\x07\n",
        b"isready\xff\n",
        b"go depth 2 \xc0\xaf\n",
        b"\x80\n",
        b"\xed\xa0\x80 surrogate\r\n",
    ];
    for g in garbage {
        e.send_raw(g);
        e.expect_one_error(&format!("{g:?}"));
        assert_eq!(e.sfen(), base);
    }
    // every byte but the newline, in one line
    let all: Vec<u8> = (0u8..=255).filter(|&b| b != b'\n').chain([b'\n']).collect();
    e.send_raw(&all);
    e.expect_one_error("all bytes");
    e.go_legal("go depth 2");
}

/// A minishogi net unlike the embedded one, so that a search shows which net is in use.
fn custom_minishogi_net(path: &str) -> Vec<u8> {
    use hayate::engine::nnue;
    let game = hayate::GameKind::Minishogi;
    let net = nnue::Network::with_weights(game, nnue::inputs(game), 16, |i| {
        ((i * 31 + 7) % 17) as i16 - 8
    });
    let bytes = nnue::file::to_bytes(&net);
    std::fs::write(path, &bytes).expect("cannot write the net");
    bytes
}

/// What a search from the start position in a fresh game shows of the evaluation: each depth's score, node
/// count and line (the clock's fields left out).
fn search_signature(e: &mut Engine) -> Vec<String> {
    search_signature_at(e, "startpos", 4)
}

/// The same from `position <at>` to `depth`.
fn search_signature_at(e: &mut Engine, at: &str, depth: u32) -> Vec<String> {
    e.accept("usinewgame");
    e.accept(&format!("position {at}"));
    e.send(&format!("go depth {depth}"));
    let (best, before) = e.bestmove(SEARCH);
    let mut sig: Vec<String> = before
        .iter()
        .filter(|l| l.starts_with("info depth ") && l.contains(" pv "))
        .map(|l| {
            let mut kept = Vec::new();
            let mut words = l.split_whitespace();
            while let Some(w) = words.next() {
                if matches!(w, "time" | "nps" | "hashfull") {
                    words.next();
                } else {
                    kept.push(w);
                }
            }
            kept.join(" ")
        })
        .collect();
    sig.push(best.text);
    sig
}

/// An `EvalFile` that is no regular file is refused at once with one error line naming it: a named pipe with no
/// writer (opening it must not wait for one), `/dev/stdin` (it must not eat the protocol's own lines), `/dev/zero`
/// (it must not be read until memory runs out), a directory, a missing file. The net loaded before stays in use,
/// the engine answers `isready`, plays, and ends on `quit`.
#[cfg(unix)]
#[test]
fn eval_file_that_is_not_a_regular_file_is_refused_at_once_and_the_net_stays() {
    let _cpu = shared();
    let dir = Scratch::new("usi", "evalfile-kinds");
    let net = dir.path("custom.nnue");
    custom_minishogi_net(&net);
    let fifo = dir.path("pipe.nnue");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("cannot run mkfifo");
    assert!(made.success(), "mkfifo {fifo}: {made}");
    let folder = dir.path("folder.nnue");
    std::fs::create_dir(&folder).expect("cannot make the folder");
    let missing = dir.path("missing.nnue");

    let mut e = Engine::new();
    e.accept("setoption name USI_Variant value minishogi");
    e.send(&format!("setoption name EvalFile value {net}"));
    let loaded = e.sync();
    let want = format!("info string EvalFile: minishogi net {net} loaded (520 inputs, hidden 16)");
    assert_eq!(loaded, [want]);
    let with_custom = search_signature(&mut e);

    let cases = [
        (
            fifo.as_str(),
            format!("{fifo} is a named pipe, not a regular file"),
        ),
        ("/dev/stdin", "/dev/stdin is a".to_string()),
        (
            "/dev/zero",
            "/dev/zero is a character device, not a regular file".to_string(),
        ),
        (
            folder.as_str(),
            format!("{folder} is a directory, not a regular file"),
        ),
        (missing.as_str(), format!("cannot read {missing}: ")),
    ];
    for (value, want) in &cases {
        let t = Instant::now();
        let msg = e.reject(&format!("setoption name EvalFile value {value}"));
        let took = t.elapsed();
        assert!(
            msg.starts_with(&format!("info string error: EvalFile: {want}")),
            "{value}: {msg}"
        );
        assert!(took < Duration::from_secs(2), "{value}: {:.0} ms", ms(took));
        e.go_legal("go depth 1");
    }
    // the custom net is still the one in use: the same search, score for score and node for node
    assert_eq!(search_signature(&mut e), with_custom);
    // and it shows: the embedded net searches differently
    e.accept("setoption name EvalFile value <empty>");
    assert_ne!(search_signature(&mut e), with_custom);
    e.send("quit");
    let status = e.wait_exit(QUICK);
    assert!(status.is_some_and(|s| s.success()), "quit: {status:?}");
}

/// `SearchParams` (what `hayate tune` sets): a bad word is refused with one error line naming it and the values
/// in use stay; good values change the search, and the game's own values written out search as none at all.
#[test]
fn search_params_option_is_checked_and_changes_the_search() {
    let _cpu = shared();
    let mut e = Engine::new();
    // one searcher: with two, the helper's share of the nodes varies from run to run
    e.accept("setoption name Threads value 1");
    let plain = search_signature(&mut e);
    e.accept("setoption name SearchParams value lmr_cut_node=0,futility_base=0");
    let changed = search_signature(&mut e);
    assert_ne!(changed, plain, "the overrides change nothing");
    let cases = [
        ("razor=3", "unknown search parameter 'razor'"),
        ("razor_base", "'razor_base' is not name=value"),
        (
            "razor_base=3.5",
            "razor_base: '3.5' is not a whole number from -100000 to 100000",
        ),
        (
            "lmp_base=999999",
            "lmp_base: '999999' is not a whole number from -100000 to 100000",
        ),
    ];
    for (value, want) in cases {
        let msg = e.reject(&format!("setoption name SearchParams value {value}"));
        assert_eq!(
            msg,
            format!("info string error: SearchParams: {want}"),
            "{value}"
        );
    }
    // the refused values left the last good ones in place
    assert_eq!(search_signature(&mut e), changed);
    e.accept("setoption name SearchParams value lmr_cut_node=2 futility_base=149");
    assert_eq!(search_signature(&mut e), plain);
    e.accept("setoption name SearchParams value <empty>");
    assert_eq!(search_signature(&mut e), plain);
    // internal iterative reduction is off by default (its SPRT has not passed) and on by its depth
    e.accept("setoption name SearchParams value iir_min_depth=2");
    assert_ne!(
        search_signature(&mut e),
        plain,
        "iir_min_depth=2 changes nothing"
    );
    e.accept("setoption name SearchParams value iir_min_depth=1000");
    assert_eq!(search_signature(&mut e), plain);
    // the late-move and extension knobs that wait for their SPRT: off by default, each changes the search when
    // set (in a middlegame with captures about, where table moves are captures and reduced moves fail high)
    let middlegame =
        "sfen lnsgk1snl/5g1s1/+Rp1ppp1pp/2p3p2/7b1/1P7/P2PPPPPP/2G1KSGR1/LN+b4NL w Pp 20";
    let plain_middlegame = search_signature_at(&mut e, middlegame, 10);
    for knob in [
        "lmr_tt_noisy=1",
        "lmr_deeper_margin=0",
        "lmr_noisy_min_searched=3",
        "singular_double_margin=0",
        "lmr_check=1",
        "tt_cut_history=1",
        "prior_bonus=1",
    ] {
        e.accept(&format!("setoption name SearchParams value {knob}"));
        assert_ne!(
            search_signature_at(&mut e, middlegame, 10),
            plain_middlegame,
            "{knob} changes nothing"
        );
        e.accept("setoption name SearchParams value <empty>");
    }
    assert_eq!(
        search_signature_at(&mut e, middlegame, 10),
        plain_middlegame
    );
    e.send("quit");
    let status = e.wait_exit(QUICK);
    assert!(status.is_some_and(|s| s.success()), "quit: {status:?}");
}

/// A LogFile that is a named pipe without a reader blocked the protocol thread in its open; it is refused at once,
/// and a regular file or `/dev/null` is still taken.
#[test]
fn log_file_that_is_a_pipe_is_refused_at_once() {
    let _cpu = shared();
    let dir = Scratch::new("usi", "logfile-kinds");
    let fifo = dir.path("log.pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("cannot run mkfifo");
    assert!(made.success(), "mkfifo {fifo}: {made}");
    let mut e = Engine::new();
    let t = Instant::now();
    let msg = e.reject(&format!("setoption name LogFile value {fifo}"));
    assert!(
        msg.starts_with(&format!(
            "info string error: cannot open LogFile '{fifo}': "
        )),
        "{msg}"
    );
    assert!(
        t.elapsed() < Duration::from_secs(2),
        "{:.0} ms",
        ms(t.elapsed())
    );
    e.accept("setoption name LogFile value /dev/null");
    let log = dir.path("log.txt");
    e.accept(&format!("setoption name LogFile value {log}"));
    e.go_legal("go depth 1");
    e.send("quit");
    let status = e.wait_exit(QUICK);
    assert!(status.is_some_and(|s| s.success()), "quit: {status:?}");
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(text.contains("> go depth 1"), "the log: {text}");
}

/// A net file whose length is not the one its header implies is refused before its payload is read, with the
/// path and both lengths; so is a file longer than any net can be, whatever its header. The previous net stays.
#[test]
fn eval_file_of_the_wrong_length_is_refused_with_both_lengths() {
    let _cpu = shared();
    let dir = Scratch::new("usi", "evalfile-length");
    let net = dir.path("custom.nnue");
    let bytes = custom_minishogi_net(&net);
    let n = bytes.len();
    let long = dir.path("long.nnue");
    let mut longer = bytes.clone();
    longer.push(0);
    std::fs::write(&long, &longer).expect("cannot write the long net");
    let short = dir.path("short.nnue");
    std::fs::write(&short, &bytes[..n - 2]).expect("cannot write the short net");
    // a valid header on a sparse file of 100 MiB: nothing of it is on disk, nothing of it may be read
    let huge = dir.path("huge.nnue");
    let f = std::fs::File::create(&huge).expect("cannot make the huge net");
    std::io::Write::write_all(&mut &f, &bytes).expect("cannot write the huge net");
    f.set_len(100 << 20).expect("cannot grow the huge net");
    drop(f);

    let mut e = Engine::new();
    e.accept("setoption name USI_Variant value minishogi");
    e.send(&format!("setoption name EvalFile value {net}"));
    assert_eq!(e.sync().len(), 1, "the custom net loads");
    let with_custom = search_signature(&mut e);
    let cases = [
        (
            &long,
            format!("{long} is {} bytes; its header implies {n}", n + 1),
        ),
        (
            &short,
            format!("{short} is {} bytes; its header implies {n}", n - 2),
        ),
        (
            &huge,
            format!("{huge} is {} bytes, more than any net file", 100 << 20),
        ),
    ];
    for (value, want) in &cases {
        let msg = e.reject(&format!("setoption name EvalFile value {value}"));
        assert!(
            msg.starts_with(&format!("info string error: EvalFile: {want}")),
            "{value}: {msg}"
        );
        e.go_legal("go depth 1");
    }
    assert_eq!(search_signature(&mut e), with_custom);
}
