//! Adjudication by the engines' agreed scores (`--resign`, `--draw`).

use std::process::Command;

use hayate::host::judge::{Outcome, Reason};
use hayate::matches::stats::Wdl;
use hayate::Shogi;

use crate::{
    args, common, endings, fake, records, run_match, scratch, verify_all, wdl_of, HAYATE, LIMIT,
    SHOGI_CYCLE,
};

#[test]
fn adjudication_by_agreed_scores() {
    let dir = scratch("adjudication");
    let cycle = |words: &[&str]| fake(&[&SHOGI_CYCLE[..], words].concat());
    let play = |name: &str, a: &[String], b: &[String], more: &[&str]| {
        let out = dir.join(name);
        let c = common(&out, "2");
        let r = run_match(a, b, &args(&c, more), LIMIT);
        assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
        let recs = records(&out);
        verify_all::<Shogi>(&recs, 0);
        // the CLI's own check accepts the new reasons
        let v = Command::new(HAYATE)
            .args(["match", "--verify", out.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stdout));
        (r, recs)
    };
    let resign = ["--resign", "score=500", "count=3"];
    // engine 1 sees itself lost, engine 2 sees itself winning, 600 cp either way
    let (r, recs) = play(
        "cp",
        &cycle(&["score=-600"]),
        &cycle(&["score=600"]),
        &resign,
    );
    let lines: Vec<(Outcome, Reason, usize)> = recs
        .iter()
        .map(|r| (r.outcome, r.reason, r.moves.len()))
        .collect();
    // game 1: engine 1 (sente) is to move after three scored moves of each side, at ply 6; game 2: engine 1 is
    // gote, its third scored move is ply 6, so the adjudication waits for its turn at ply 7
    assert_eq!(
        lines,
        [
            (Outcome::WhiteWins, Reason::Adjudication, 6),
            (Outcome::BlackWins, Reason::Adjudication, 7)
        ]
    );
    assert!(
        r.stdout.contains("resign at 500 cp for 3 moves"),
        "{}",
        r.stdout
    );
    assert_eq!(wdl_of(&r.stdout, "  Fake script #1: "), Wdl::new(0, 0, 2));
    let csa = std::fs::read_to_string(dir.join("cp").join("0001.csa")).unwrap();
    assert!(
        csa.contains("\n%TORYO\n'result 0-1 adjudication\n"),
        "{csa}"
    );
    // mate scores count as 100000
    let (_, recs) = play(
        "mate",
        &cycle(&["mate=-3"]),
        &cycle(&["mate=5"]),
        &["--resign", "score=5000", "count=2"],
    );
    assert_eq!(
        recs.iter()
            .map(|r| (r.outcome, r.reason, r.moves.len()))
            .collect::<Vec<_>>(),
        [
            (Outcome::WhiteWins, Reason::Adjudication, 4),
            (Outcome::BlackWins, Reason::Adjudication, 5)
        ]
    );
    // a side not clearly lost by its own account is not adjudicated: the rooks shuffle to the fourth repetition
    let (_, recs) = play(
        "unsure",
        &cycle(&["score=-400"]),
        &cycle(&["score=600"]),
        &resign,
    );
    assert_eq!(endings(&recs), [(Outcome::Draw, Reason::Repetition); 2]);
    // a draw from ply 5 on, when both sides' last two scores lie within 10 cp
    let draw = ["--draw", "ply=5", "count=2", "score=10"];
    let (r, recs) = play("draw", &cycle(&["score=-10"]), &cycle(&["score=7"]), &draw);
    assert_eq!(
        recs.iter()
            .map(|r| (r.outcome, r.reason, r.moves.len()))
            .collect::<Vec<_>>(),
        [(Outcome::Draw, Reason::DrawAdjudication, 5); 2]
    );
    assert!(
        r.stdout
            .contains("draw from ply 5 within 10 cp for 2 moves"),
        "{}",
        r.stdout
    );
    let (_, recs) = play(
        "nodraw",
        &cycle(&["score=-11"]),
        &cycle(&["score=7"]),
        &draw,
    );
    assert_eq!(endings(&recs), [(Outcome::Draw, Reason::Repetition); 2]);
}
