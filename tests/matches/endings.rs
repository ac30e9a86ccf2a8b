//! Game endings judged by the host, with scripted fake engines: illegal moves, crashes, hangs, time,
//! declarations, repetition, and an engine that never starts.

use hayate::host::judge::{Outcome, Reason};
use hayate::matches::stats::Wdl;
use hayate::{Minishogi, Shogi, Variant, Yari};

use crate::{
    args, common, endings, fake, play, records, run_match, scratch, verify_all, wdl_of, DECLARABLE,
    LIMIT, SHOGI_CYCLE,
};

#[test]
fn illegal_move_loses() {
    let (r, recs) = play(
        "illegal",
        "2",
        &fake(&["illegal"]),
        &fake(&SHOGI_CYCLE),
        &[],
    );
    assert_eq!(
        endings(&recs),
        [
            (Outcome::WhiteWins, Reason::Illegal),
            (Outcome::BlackWins, Reason::Illegal)
        ]
    );
    assert_eq!(recs[0].moves.len(), 0);
    assert_eq!(recs[1].moves, ["2h3h"]);
    verify_all::<Shogi>(&recs, 0);
    assert!(
        r.stdout.contains("(illegal move: 9i9a)") || r.stdout.contains("9i9a"),
        "{}",
        r.stdout
    );
    assert_eq!(wdl_of(&r.stdout, "  Fake illegal: "), Wdl::new(0, 0, 2));
    assert_eq!(wdl_of(&r.stdout, "  Fake script: "), Wdl::new(2, 0, 0));
}

#[test]
fn crash_loses_and_the_engine_is_restarted() {
    let (r, recs) = play("crash", "4", &fake(&["crash"]), &fake(&SHOGI_CYCLE), &[]);
    assert_eq!(
        endings(&recs),
        [
            (Outcome::WhiteWins, Reason::Crash),
            (Outcome::BlackWins, Reason::Crash),
            (Outcome::WhiteWins, Reason::Crash),
            (Outcome::BlackWins, Reason::Crash)
        ]
    );
    verify_all::<Shogi>(&recs, 0);
    // the last stderr lines are kept for the report
    assert!(r.stdout.contains("crashing on purpose"), "{}", r.stdout);
    assert_eq!(wdl_of(&r.stdout, "  Fake crash: "), Wdl::new(0, 0, 4));
}

#[test]
fn hang_loses() {
    let (r, recs) = play("hang", "2", &fake(&SHOGI_CYCLE), &fake(&["hang"]), &[]);
    assert_eq!(
        endings(&recs),
        [
            (Outcome::BlackWins, Reason::Hang),
            (Outcome::WhiteWins, Reason::Hang)
        ]
    );
    verify_all::<Shogi>(&recs, 0);
    assert_eq!(wdl_of(&r.stdout, "  Fake script: "), Wdl::new(2, 0, 0));
    // each hang costs the byoyomi, the tolerance and the grace after stop, not more
    assert!(r.secs < 10.0, "{} s", r.secs);
}

#[test]
fn late_answer_loses_on_time() {
    let (_, recs) = play("slow", "2", &fake(&["slow"]), &fake(&SHOGI_CYCLE), &[]);
    assert_eq!(
        endings(&recs),
        [
            (Outcome::WhiteWins, Reason::Time),
            (Outcome::BlackWins, Reason::Time)
        ]
    );
    verify_all::<Shogi>(&recs, 0);
}

#[test]
fn stderr_flood_does_not_block() {
    let dir = scratch("flood");
    let out = dir.join("out");
    let c = common(&out, "2");
    let flood = fake(&["flood", SHOGI_CYCLE[1], SHOGI_CYCLE[2]]);
    let r = run_match(&flood, &fake(&SHOGI_CYCLE), &args(&c, &[]), LIMIT);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    let recs = records(&out);
    // both scripts shuffle a rook: the start position's fourth occurrence after 12 plies draws
    assert_eq!(
        endings(&recs),
        [
            (Outcome::Draw, Reason::Repetition),
            (Outcome::Draw, Reason::Repetition)
        ]
    );
    assert!(recs.iter().all(|r| r.moves.len() == 12));
    verify_all::<Shogi>(&recs, 0);
    assert_eq!(wdl_of(&r.stdout, "  Fake flood: "), Wdl::new(0, 2, 0));
}

#[test]
fn declarations_true_and_false() {
    let dir = scratch("declare");
    let out = dir.join("out");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, format!("sfen {DECLARABLE}\nstartpos\n")).unwrap();
    let c = common(&out, "4");
    let r = run_match(
        &fake(&["declare"]),
        &fake(&["script", "black=2h3h"]),
        &args(&c, &["--openings", openings.to_str().unwrap()]),
        LIMIT,
    );
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    let recs = records(&out);
    assert_eq!(
        endings(&recs),
        [
            // sente declares with 28 points: a win
            (Outcome::BlackWins, Reason::Declaration),
            // gote (a bare king) declares: a loss
            (Outcome::BlackWins, Reason::FalseDeclaration),
            (Outcome::WhiteWins, Reason::FalseDeclaration),
            (Outcome::BlackWins, Reason::FalseDeclaration)
        ]
    );
    assert_eq!(recs[0].start_sfen, DECLARABLE);
    assert_eq!(recs[2].start_sfen, Shogi::START_SFEN);
    verify_all::<Shogi>(&recs, 0);
    assert_eq!(wdl_of(&r.stdout, "  Fake declare: "), Wdl::new(1, 0, 3));
}

#[test]
fn repetition_rules_of_each_game() {
    // minishogi: the fourth occurrence loses for sente
    let dir = scratch("repetition");
    let out = dir.join("mini");
    let c = common(&out, "2");
    let mini = fake(&["script", "black=1e1d,1d1e", "white=5a5b,5b5a"]);
    let r = run_match(&mini, &mini, &args(&c, &["--variant", "minishogi"]), LIMIT);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    let recs = records(&out);
    assert_eq!(
        endings(&recs),
        [
            (Outcome::WhiteWins, Reason::Repetition),
            (Outcome::WhiteWins, Reason::Repetition)
        ]
    );
    verify_all::<Minishogi>(&recs, 0);
    assert_eq!(wdl_of(&r.stdout, "  Fake script #1: "), Wdl::new(1, 0, 1));
    assert_eq!(
        wdl_of(&r.stdout, "  Fake script #1 as sente: "),
        Wdl::new(0, 0, 1)
    );

    // shogi: perpetual check loses for the checking side (sente here, in both games)
    let out = dir.join("perpetual");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "4k4/R8/9/9/9/9/9/9/4K4 b - 1\n").unwrap();
    let c = common(&out, "2");
    let checker = fake(&["script", "black=9b9a,9a9b", "white=5a5b,5b5a"]);
    let r = run_match(
        &checker,
        &checker,
        &args(&c, &["--openings", openings.to_str().unwrap()]),
        LIMIT,
    );
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    let recs = records(&out);
    assert_eq!(
        endings(&recs),
        [
            (Outcome::WhiteWins, Reason::Perpetual),
            (Outcome::WhiteWins, Reason::Perpetual)
        ]
    );
    verify_all::<Shogi>(&recs, 0);

    // Yari shogi: the fourth occurrence draws. Yari rooks never move backward: after an opening that lifts both,
    // they step sideways and back (the cycles are offset by the opening's two plies)
    let out = dir.join("yari");
    let openings = dir.join("yari-openings.txt");
    std::fs::write(&openings, "startpos moves 7i7h 1a1b\n").unwrap();
    let c = common(&out, "2");
    let yari = fake(&["script", "black=6h7h,7h6h", "white=2b1b,1b2b"]);
    let r = run_match(
        &yari,
        &yari,
        &args(
            &c,
            &[
                "--variant",
                "yarishogi",
                "--openings",
                openings.to_str().unwrap(),
            ],
        ),
        LIMIT,
    );
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    let recs = records(&out);
    assert_eq!(
        endings(&recs),
        [
            (Outcome::Draw, Reason::Repetition),
            (Outcome::Draw, Reason::Repetition)
        ]
    );
    assert!(recs
        .iter()
        .all(|r| r.moves.len() == 14 && r.moves[..2] == ["7i7h", "1a1b"]));
    verify_all::<Yari>(&recs, 0);
}

#[test]
fn an_engine_that_never_starts_fails_the_match_quickly() {
    let dir = scratch("nousiok");
    let out = dir.join("out");
    let mut c = common(&out, "2");
    let at = c.iter().position(|a| a == "--ready-timeout").unwrap();
    c[at + 1] = "500".into();
    let r = run_match(
        &fake(&["nousiok"]),
        &fake(&SHOGI_CYCLE),
        &args(&c, &[]),
        LIMIT,
    );
    assert_eq!(r.code, Some(2), "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("USI handshake"), "{}", r.stderr);
    assert!(r.secs < 5.0);
}
