//! Bad input: one `Error (...): ...` line (or `Illegal move: ...` for a move), and nothing changes.

use super::scratch::Scratch;
use crate::process::Engine;
use crate::{shared, QUICK};

/// A position with sente to move and pieces in hand, in force mode, so that a change would show in the FEN.
const FEN: &str = "4k4/9/4P4/9/9/9/9/9/4K4[PGp] w 0 1";

#[test]
fn every_bad_command_gets_one_error_and_changes_nothing() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.accept("force");
    e.accept(&format!("setboard {FEN}"));
    let cases: &[(&str, &str)] = &[
        ("foo", "Error (unknown command): foo"),
        ("white", "Error (unknown command): white"),
        ("edit", "Error (unknown command): edit"),
        ("playother", "Error (unknown command): playother"),
        ("nps 1000", "Error (unknown command): nps"),
        ("usermove", "Error (usermove needs one move): usermove"),
        ("usermove e2e3 e3e4", "Error (usermove needs one move): usermove e2e3 e3e4"),
        ("usermove e2e1", "Illegal move: e2e1"),
        ("usermove z9z8", "Illegal move: z9z8"),
        ("usermove @@@@", "Illegal move: @@@@"),
        ("usermove K@e5", "Illegal move: K@e5"),
        ("usermove P@e5", "Illegal move: P@e5"),
        ("usermove e7e8q", "Illegal move: e7e8q"),
        ("e7e6", "Illegal move: e7e6"),
        ("variant chess", "Error (unsupported variant): variant chess"),
        ("variant", "Error (variant needs one name): variant"),
        ("variant shogi minishogi", "Error (variant needs one name): variant"),
        ("level 40 5", "Error (level needs MPS BASE INC): level 40 5"),
        ("level x 5 0", "Error (moves per session 'x' is not a number): level x 5 0"),
        ("level 40 5:77 0", "Error (time '5:77' is not MIN or MIN:SEC): level 40 5:77 0"),
        ("level 40 5 -2", "Error ('-2' is not a number of seconds): level 40 5 -2"),
        ("st", "Error (st needs the seconds per move): st"),
        ("st soon", "Error ('soon' is not a number of seconds): st soon"),
        ("sd 0", "Error (depth '0' is not in 1..100): sd 0"),
        ("sd", "Error (sd needs a depth): sd"),
        ("time", "Error (needs the clock in centiseconds): time"),
        ("otim 1.5", "Error ('1.5' is not a number): otim 1.5"),
        ("setboard", "Error (illegal position: empty FEN): setboard"),
        (
            "setboard 4k4/9/9/9/9/9/9/9/9[-] w",
            "Error (illegal position: sente has no king): setboard 4k4/9/9/9/9/9/9/9/9[-] w",
        ),
        (
            "setboard 4k4/9/9/9/9/9/9/9/4K4[-] x",
            "Error (illegal position: side to move must be 'w' or 'b', not 'x'): setboard 4k4/9/9/9/9/9/9/9/4K4[-] x",
        ),
        (
            "setboard 4k4/9/9/9/9/9/9/9/4K4[Q] w",
            "Error (illegal position: 'Q' cannot be held in hand): setboard 4k4/9/9/9/9/9/9/9/4K4[Q] w",
        ),
        (
            "setboard rbsgk/4p/5/P4/KGSBR[-] w 0 1",
            "Error (illegal position: SFEN board has 5 ranks, this game has 9): setboard rbsgk/4p/5/P4/KGSBR[-] w 0 1",
        ),
        ("ping", "Error (ping needs a number): ping"),
        ("ping x", "Error (ping needs a number): ping x"),
        ("memory 0", "Error (option USI_Hash: 0 is outside 1..65536): memory 0"),
        ("memory lots", "Error (option USI_Hash: 'lots' is not a number): memory lots"),
        ("cores", "Error (needs one number): cores"),
        ("cores 0", "Error (option Threads: 0 is outside 1..1024): cores 0"),
        ("option Nope=1", "Error (unknown option 'Nope'): option Nope=1"),
        ("option Threads=many", "Error (option Threads: 'many' is not a number): option Threads=many"),
        ("option USI_Variant=chess", "Error (USI_Variant: unknown game 'chess' (known: shogi, minishogi, 5x5+5_shogi, yarishogi, yari)): option USI_Variant=chess"),
        ("undo", "Error (command not legal now): undo"),
        ("remove", "Error (command not legal now): remove"),
        ("exit", "Error (command not legal now): exit"),
    ];
    for (line, want) in cases {
        let got = e.one_reply(line);
        let want: String = want.chars().take(want.len()).collect();
        // the quoted command is cut at 60 characters
        let want = match want.split_once("): ") {
            Some((head, cmd)) if want.starts_with("Error (") => {
                format!("{head}): {}", cmd.chars().take(60).collect::<String>())
            }
            _ => want,
        };
        assert_eq!(got, want, "{line}");
        assert_eq!(e.fen(), FEN, "after '{line}'");
    }
    // the engine is still fine: a legal move is taken
    e.accept("usermove G@e8");
}

#[test]
fn lines_that_are_not_text_or_too_long_get_one_error() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.accept("force");
    e.accept(&format!("setboard {FEN}"));
    let long = "x".repeat(100_000);
    let got = e.one_reply(&long);
    assert!(got.starts_with("Error (bad input): line too long"), "{got}");
    assert_eq!(e.fen(), FEN);
    e.send("ping 1");
    assert_eq!(e.recv(QUICK, "pong"), "pong 1");
}

/// The reason USI gives for a setting it refuses (the text of its one `info string error: ...` line).
fn usi_reason(name: &str, value: Option<&str>) -> String {
    let mut u = Engine::spawn(&[]);
    match value {
        Some(v) => u.send(&format!("setoption name {name} value {v}")),
        None => u.send(&format!("setoption name {name}")),
    }
    u.send("isready");
    let (_, before) = u.wait_for(QUICK, "readyok", |l| l == "readyok");
    match &before[..] {
        [one] => match one.strip_prefix("info string error: ") {
            Some(reason) => reason.to_string(),
            None => u.fail(&format!("USI answered '{one}', not an error")),
        },
        _ => u.fail(&format!("USI answered {before:?}, not one error line")),
    }
}

/// Every option value USI refuses, XBoard refuses too, with the same reason in its own idiom
/// (`Error (<reason>): option NAME=VALUE`) and nothing changed: bad numbers and names, and net files that are
/// missing, no regular file (a named pipe with no writer, `/dev/stdin`, `/dev/zero`, a directory) or of the wrong
/// length. Afterwards the engine answers `ping`, plays a legal move, and ends on `quit`.
#[cfg(unix)]
#[test]
fn every_option_error_is_reported_as_usi_reports_it() {
    let _cpu = shared();
    let dir = Scratch::new("xboard", "options");
    let fifo = dir.path("pipe.nnue");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("cannot run mkfifo");
    assert!(made.success(), "mkfifo {fifo}: {made}");
    let folder = dir.path("folder.nnue");
    std::fs::create_dir(&folder).expect("cannot make the folder");
    let missing = dir.path("missing.nnue");
    let long = dir.path("long.nnue");
    let mut shogi_net = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/nets/shogi.nnue"))
        .expect("cannot read nets/shogi.nnue");
    std::fs::write(dir.path("shogi.nnue"), &shogi_net).expect("cannot copy the net");
    shogi_net.push(0);
    std::fs::write(&long, &shogi_net).expect("cannot write the long net");

    let bad: Vec<(&str, Option<&str>)> = vec![
        ("USI_Hash", Some("0")),
        ("Threads", Some("many")),
        ("USI_Ponder", Some("maybe")),
        ("USI_Ponder", None),
        ("MultiPV", Some("601")),
        ("USI_Variant", Some("chess")),
        ("NetworkDelay", Some("-1")),
        ("MinimumThinkingTime", Some("60001")),
        ("SlowMover", Some("9")),
        ("ResignValue", Some("x")),
        ("DrawValue", Some("-30001")),
        ("EnteringKingRule", Some("CSARule99")),
        ("MaxMovesToDraw", Some("100001")),
        ("UseNNUE", Some("yes")),
        ("LogFile", Some("/nonexistent-dir-hayate-test/log.txt")),
        ("NoSuchOption", Some("1")),
        ("EvalFile", Some(&missing)),
        ("EvalFile", Some(&fifo)),
        ("EvalFile", Some("/dev/stdin")),
        ("EvalFile", Some("/dev/zero")),
        ("EvalFile", Some(&folder)),
        ("EvalFile", Some(&long)),
    ];
    let mut e = Engine::new();
    e.accept("force");
    e.accept(&format!("setboard {FEN}"));
    for (name, value) in bad {
        let reason = usi_reason(name, value);
        let line = match value {
            Some(v) => format!("option {name}={v}"),
            None => format!("option {name}"),
        };
        // the quoted command is cut at 60 characters
        let want = format!(
            "Error ({reason}): {}",
            line.chars().take(60).collect::<String>()
        );
        assert_eq!(e.one_reply(&line), want);
        assert_eq!(e.fen(), FEN, "after '{line}'");
    }
    // good values are taken silently, a net file too
    e.accept(&format!("option EvalFile={}", dir.path("shogi.nnue")));
    e.accept("option EvalFile=");
    e.accept("option UseNNUE=true");
    e.accept("sd 1");
    e.send("go");
    let (m, _) = e.engine_move(crate::SEARCH);
    let pos: hayate::Position<hayate::Shogi> = hayate::rules::position::xboard_fen::parse_fen(FEN)
        .unwrap_or_else(|err| e.fail(&format!("{FEN}: {err}")));
    if let Err(r) = hayate::xboard::notation::parse_move(&pos, &m) {
        e.fail(&format!("engine move '{m}' in {FEN}: {r:?}"));
    }
    e.send("quit");
    assert!(e.wait_exit(QUICK).is_some_and(|s| s.success()), "quit");
}
