//! Every CECP command, with the exact replies XBoard expects.

use std::time::{Duration, Instant};

use hayate::rules::position::xboard_fen::{parse_fen, to_fen};
use hayate::xboard::notation::parse_move;
use hayate::{Minishogi, Position, Shogi, Variant, Yari};

use crate::process::Engine;
use crate::{shared, QUICK, SEARCH};

fn features() -> String {
    format!(
        "feature myname=\"Hayate {}\" variants=\"shogi,5x5+5_shogi,minishogi,yarishogi\" setboard=1 usermove=1 \
         ping=1 memory=1 smp=1 sigint=0 sigterm=0 san=0 colors=0 analyze=1 time=1 draw=0 nps=0 reuse=1 done=1",
        env!("CARGO_PKG_VERSION")
    )
}

const MINI_START: &str = "rbsgk/4p/5/P4/KGSBR[-] w 0 1";
const SHOGI_START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1";
const YARI_START: &str = "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR[-] w 0 1";

/// Checks that `mv` is legal in the engine's position `fen` and returns the position after it.
fn play<V: Variant>(e: &Engine, fen: &str, mv: &str) -> Position<V> {
    let mut pos: Position<V> =
        parse_fen(fen).unwrap_or_else(|err| e.fail(&format!("{fen}: {err}")));
    match parse_move(&pos, mv) {
        Ok(m) => pos.do_move(m),
        Err(r) => e.fail(&format!("engine move '{mv}' in {fen}: {r:?}")),
    }
    pos
}

#[test]
fn the_first_line_xboard_opens_a_cecp_session_and_usi_stays_usi() {
    let _cpu = shared();
    // what XBoard sends first
    let mut e = Engine::spawn(&[]);
    e.send("xboard");
    e.send("protover 2");
    assert_eq!(e.recv(QUICK, "features"), features());
    e.accept("accepted setboard");
    // the subcommand, with and without the `xboard` line
    for first in [None, Some("xboard")] {
        let mut e = Engine::spawn(&["xboard"]);
        if let Some(l) = first {
            e.send(l);
        }
        e.send("protover 2");
        assert_eq!(e.recv(QUICK, "features"), features());
        e.sync();
    }
    // blank lines before `xboard` decide nothing
    let mut e = Engine::spawn(&[]);
    e.send("");
    e.send("xboard");
    e.send("protover 2");
    assert_eq!(e.recv(QUICK, "features"), features());
    // a USI session is not affected, and `xboard` later in it is just an unknown USI command
    let mut e = Engine::spawn(&[]);
    e.send("usi");
    let (_, lines) = e.wait_for(QUICK, "usiok", |l| l == "usiok");
    assert!(lines[0].starts_with("id name Hayate"), "{lines:?}");
    assert!(
        lines.iter().any(|l| l
            == "option name UCI_Variant type combo default shogi var shogi var minishogi var yarishogi var 5x5+5_shogi"),
        "{lines:?}"
    );
    e.send("xboard");
    assert_eq!(
        e.recv(QUICK, "error"),
        "info string error: unknown command 'xboard'"
    );
}

#[test]
fn each_variant_is_announced_as_xboard_needs_it() {
    let _cpu = shared();
    let mut e = Engine::new();
    assert_eq!(e.fen(), SHOGI_START);
    e.accept("variant shogi");
    assert_eq!(e.fen(), SHOGI_START);
    for name in ["minishogi", "5x5+5_shogi"] {
        e.send(&format!("variant {name}"));
        assert_eq!(
            e.sync(),
            [format!(
                "setup (P.BR.S...G.+.++.+Kp.br.s...g.+.++.+k) 5x5+5_shogi {MINI_START}"
            )]
        );
        assert_eq!(e.fen(), MINI_START);
    }
    e.send("variant yarishogi");
    let lines = e.sync();
    let want = [
        format!("setup (P.BRN......+.+++Kp.brn......+.+++k) 7x9+4_shogi {YARI_START}"),
        "piece K& K".into(),
        "piece P& fW".into(),
        "piece N& fRffN".into(),
        "piece B& fFfR".into(),
        "piece R& frlR".into(),
        "piece +P& fWfFbR".into(),
        "piece +N& WfFbR".into(),
        "piece +B& WfFbR".into(),
        "piece +R& R".into(),
    ];
    assert_eq!(lines, want);
    assert_eq!(e.fen(), YARI_START);
    // `new` keeps the game and goes back to its start
    e.send("force");
    e.accept("usermove a3a4");
    e.accept("new");
    assert_eq!(e.fen(), YARI_START);
}

#[test]
fn moves_in_force_mode_undo_and_remove() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.accept("force");
    // 7g7f is XBoard's c3c4 on the 9x9 board; 3c3d is g7g6
    e.accept("usermove c3c4");
    e.accept("g7g6"); // a move without the usermove word
    assert_eq!(
        e.fen(),
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL[-] w 0 2"
    );
    // the bishop exchange, promoting: 8h2b+ is b2h8+; the silver takes back
    e.accept("usermove b2h8+");
    e.accept("usermove g9h8");
    assert_eq!(
        e.fen(),
        "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL[Bb] w 0 3"
    );
    // a drop, written with the piece letter in either case
    e.accept("usermove B@e5");
    assert_eq!(e.one_reply("usermove b@e5"), "Illegal move: b@e5");
    e.accept("usermove b@d5");
    assert_eq!(e.one_reply("usermove e5e4"), "Illegal move: e5e4");
    e.accept("undo");
    e.accept("undo");
    assert_eq!(
        e.fen(),
        "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL[Bb] w 0 3"
    );
    e.accept("remove");
    e.accept("remove");
    assert_eq!(e.fen(), SHOGI_START);
    assert_eq!(e.one_reply("undo"), "Error (command not legal now): undo");
}

#[test]
fn go_plays_a_legal_move_and_the_engine_answers_each_reply() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.send("variant minishogi");
    e.sync();
    e.accept("sd 3");
    // the engine plays sente
    e.send("go");
    let (m, _) = e.engine_move(SEARCH);
    let pos = play::<Minishogi>(&e, MINI_START, &m);
    assert_eq!(e.fen(), to_fen(&pos));
    // our reply as gote; the engine answers at once
    let reply = pos
        .legal_moves()
        .into_iter()
        .map(hayate::xboard::notation::move_text::<Minishogi>)
        .next()
        .unwrap();
    let before = e.fen();
    e.send(&format!("usermove {reply}"));
    let (m2, _) = e.engine_move(SEARCH);
    let after_reply = play::<Minishogi>(&e, &before, &reply);
    let pos2 = play::<Minishogi>(&e, &to_fen(&after_reply), &m2);
    assert_eq!(e.fen(), to_fen(&pos2));
    // `new`: the engine plays gote; after sente's move it answers
    e.accept("new");
    e.send("usermove a2a3");
    let (m3, _) = e.engine_move(SEARCH);
    let after = play::<Minishogi>(&e, "rbsgk/4p/P4/5/KGSBR[-] b 0 1", &m3);
    assert_eq!(e.fen(), to_fen(&after));
}

#[test]
fn each_board_size_plays_in_xboard_notation() {
    let _cpu = shared();
    fn one<V: Variant>(variant: &str, start: &str) {
        let mut e = Engine::new();
        e.send(&format!("variant {variant}"));
        e.sync();
        e.accept("sd 2");
        e.send("go");
        let (m, _) = e.engine_move(SEARCH);
        let pos = play::<V>(&e, start, &m);
        assert_eq!(e.fen(), to_fen(&pos));
    }
    one::<Shogi>("shogi", SHOGI_START);
    one::<Minishogi>("minishogi", MINI_START);
    one::<Yari>("yarishogi", YARI_START);
}

#[test]
fn ping_while_on_move_is_answered_after_the_move() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.accept("st 1");
    e.send("go");
    e.send("ping 77");
    let (m, before) = e.engine_move(SEARCH);
    assert!(!before.iter().any(|l| l.starts_with("pong")), "{before:?}");
    assert_eq!(e.recv(QUICK, "pong after the move"), "pong 77");
    play::<Shogi>(&e, SHOGI_START, &m);
}

#[test]
fn question_mark_moves_now_and_force_or_result_withdraw_the_search() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.accept("level 0 60 0");
    e.accept("time 360000");
    e.accept("otim 360000");
    e.send("go");
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    e.send("?");
    let (m, _) = e.engine_move(QUICK);
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    play::<Shogi>(&e, SHOGI_START, &m);
    // `?` with nothing to do is ignored
    e.accept("?");
    for stop in ["force", "result 1-0 {White resigns}"] {
        e.accept("new");
        e.send("go");
        std::thread::sleep(Duration::from_millis(200));
        // no move comes after these, and the position stays as it was
        e.accept(stop);
        e.assert_silent(Duration::from_millis(300), &format!("after {stop}"));
        assert_eq!(e.fen(), SHOGI_START);
    }
}

#[test]
fn thinking_output_follows_post_and_nopost() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.accept("sd 4");
    e.accept("post");
    e.send("go");
    let (m, before) = e.engine_move(SEARCH);
    assert!(!before.is_empty());
    for l in &before {
        // depth score centiseconds nodes pv
        let w: Vec<&str> = l.split(' ').collect();
        assert!(w.len() >= 5, "{l}");
        for n in &w[..4] {
            assert!(n.parse::<i64>().is_ok(), "{l}");
        }
    }
    let last = before.last().unwrap();
    let pv_first = last.split(' ').nth(4).unwrap().trim_end_matches(['!', '?']);
    assert_eq!(pv_first, m, "{last}");
    e.accept("new");
    e.accept("nopost");
    e.send("go");
    let (_, before) = e.engine_move(SEARCH);
    assert!(before.is_empty(), "{before:?}");
}

#[test]
fn analyze_searches_until_exit_and_follows_the_position() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.send("variant minishogi");
    e.sync();
    e.accept("post");
    e.send("analyze");
    let (_, _) = e.wait_for(SEARCH, "thinking", |l| l.starts_with("1 "));
    std::thread::sleep(Duration::from_millis(200));
    let out = e.sync();
    assert!(!out.iter().any(|l| l.starts_with("move ")), "{out:?}");
    e.send(".");
    let (stat, _) = e.wait_for(QUICK, "stat01", |l| l.starts_with("stat01: "));
    let w: Vec<&str> = stat.split(' ').collect();
    assert_eq!(w.len(), 6, "{stat}");
    // a move restarts the analysis in the new position; undo goes back
    e.send("usermove a2a3");
    e.wait_for(SEARCH, "thinking after the move", |l| l.starts_with("1 "));
    e.send("undo");
    e.wait_for(SEARCH, "thinking after undo", |l| l.starts_with("1 "));
    e.send("exit");
    let out = e.sync();
    assert!(!out.iter().any(|l| l.starts_with("move ")), "{out:?}");
    e.assert_silent(Duration::from_millis(300), "after exit");
    assert_eq!(e.fen(), MINI_START);
    // `.` outside analysis says nothing
    e.accept(".");
}

#[test]
fn setboard_with_holdings_and_the_games_end() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.accept("force");
    // sente mates at once with a gold drop (G@e8, USI G*5b)
    let mate_in_one = "4k4/9/4P4/9/9/9/9/9/4K4[G] w 0 1";
    e.accept(&format!("setboard {mate_in_one}"));
    assert_eq!(e.fen(), mate_in_one);
    e.accept("sd 3");
    e.send("go");
    let (m, _) = e.engine_move(SEARCH);
    assert_eq!(m, "G@e8");
    assert_eq!(e.recv(QUICK, "the result"), "1-0 {Sente mates}");
    // asked to move when mated, the engine claims the loss instead of a move
    e.accept("force");
    e.send("go");
    assert_eq!(e.sync(), ["1-0 {Sente mates}"]);
    // gote to move, holdings on both sides, promoted pieces (in force mode: the engine would play gote now)
    e.accept("force");
    let fen = "4k4/9/4+P4/9/9/9/9/9/4K4[PPsb] b 0 1";
    e.accept(&format!("setboard {fen}"));
    assert_eq!(e.fen(), fen);
    e.accept("usermove S@e8");
    e.accept("usermove P@a5");
}

#[test]
fn clocks_levels_and_settings_are_accepted_silently() {
    let _cpu = shared();
    let mut e = Engine::new();
    for line in [
        "level 40 5 0",
        "level 0 2 12",
        "level 0 0:30 0.5",
        "st 10",
        "sd 20",
        "time 6000",
        "otim -300",
        "memory 8",
        "cores 1",
        "option Threads=1",
        "option USI_Hash=8",
        "option Clear_Hash",
        "easy",
        "hard",
        "random",
        "computer",
        "name Someone",
        "rating 2000 1500",
        "ics -",
        "accepted usermove",
        "rejected nps",
        "draw",
        "hint",
        "bk",
        "xboard",
        "post",
        "nopost",
        "",
    ] {
        e.accept(line);
    }
    // the settings hold in a search
    e.accept("level 0 0:02 0");
    e.accept("time 200");
    e.send("go");
    let (m, _) = e.engine_move(SEARCH);
    play::<Shogi>(&e, SHOGI_START, &m);
}

#[test]
fn quit_and_end_of_input_end_the_session() {
    let _cpu = shared();
    for end in ["quit", "eof"] {
        let mut e = Engine::new();
        e.accept("level 0 60 0");
        e.send("go");
        std::thread::sleep(Duration::from_millis(200));
        if end == "quit" {
            e.send("quit");
        } else {
            e.close_stdin();
        }
        let status = e
            .wait_exit(QUICK)
            .unwrap_or_else(|| e.fail("still running"));
        assert!(status.success(), "{end}: {status:?}");
    }
}
