//! Openings: random plies that follow the seed.

use hayate::host::judge::{Outcome, Reason};
use hayate::{Minishogi, Shogi};

use crate::{args, common, fake, records, run_match, scratch, verify_all, LIMIT};

#[test]
fn random_openings_follow_the_seed() {
    let dir = scratch("random");
    let resign = fake(&["resign"]);
    let play = |name: &str, more: &[&str]| {
        let out = dir.join(name);
        let c = common(&out, "6");
        let r = run_match(&resign, &resign, &args(&c, more), LIMIT);
        assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
        (
            r,
            records(&out),
            std::fs::read_to_string(out.join("games.txt")).unwrap(),
        )
    };
    let mini = ["--variant", "minishogi", "--random-plies", "6"];
    let (r, recs, text) = play("a", &[&mini[..], &["--seed", "7"]].concat());
    assert!(
        r.stdout
            .contains("the start position + 6 random plies (seed 7)"),
        "{}",
        r.stdout
    );
    verify_all::<Minishogi>(&recs, 0);
    for (i, rec) in recs.iter().enumerate() {
        // 6 plies leave sente to move, and sente resigns at once
        assert_eq!(
            (rec.outcome, rec.reason, rec.moves.len()),
            (Outcome::WhiteWins, Reason::Resign, 6)
        );
        assert_eq!(rec.moves, recs[i ^ 1].moves, "a pair shares its opening");
    }
    assert!(
        recs[0].moves != recs[2].moves
            && recs[2].moves != recs[4].moves
            && recs[0].moves != recs[4].moves
    );
    // the same seed gives the same games, whatever the concurrency; another seed other games
    let (_, _, again) = play(
        "b",
        &[&mini[..], &["--seed", "7", "--concurrency", "3"]].concat(),
    );
    assert_eq!(again, text);
    let (_, other, _) = play("c", &[&mini[..], &["--seed", "8"]].concat());
    assert_ne!(other[0].moves, recs[0].moves);
    // without --seed, the header tells the seed that reproduces the match
    let (r, first, _) = play("d", &mini);
    let seed = r
        .stdout
        .split("random plies (seed ")
        .nth(1)
        .and_then(|t| t.split(')').next())
        .unwrap()
        .to_string();
    let (_, second, _) = play("e", &[&mini[..], &["--seed", &seed]].concat());
    assert_eq!(first, second);
    // after the openings of a file
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "startpos moves 7g7f 3c3d\nstartpos moves 2g2f\n").unwrap();
    let (_, recs, _) = play(
        "f",
        &[
            "--random-plies",
            "2",
            "--seed",
            "3",
            "--openings",
            openings.to_str().unwrap(),
        ],
    );
    verify_all::<Shogi>(&recs, 0);
    let heads: Vec<(&[String], usize)> = recs
        .iter()
        .map(|r| (&r.moves[..r.moves.len().min(2)], r.moves.len()))
        .collect();
    assert_eq!(heads[0].0, ["7g7f", "3c3d"]);
    assert_eq!(heads[0].1, 4);
    assert_eq!(heads[2].0[0], "2g2f");
    assert_eq!(heads[2].1, 3);
    assert_eq!(heads[4].0, ["7g7f", "3c3d"]);
    assert_ne!(recs[0].moves, recs[4].moves);
}

/// `hayate openings` writes level openings that `--openings` plays pair by pair: its candidates are the random
/// openings of a match with the same seed and plies, the header says what was kept, and the same command writes
/// the same file whatever the number of threads.
#[test]
fn a_balanced_book_feeds_a_match() {
    let dir = scratch("balanced");
    let book = |name: &str, threads: &str| {
        let path = dir.join(name);
        let out = std::process::Command::new(crate::HAYATE)
            .args([
                "openings",
                "--variant",
                "minishogi",
                "--count",
                "3",
                "--plies",
                "4",
                "--nodes",
                "3000",
                "--max-score",
                "150",
                "--seed",
                "5",
                "--threads",
                threads,
                "--output",
                path.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(
            out.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(stdout.starts_with("openings: 3 of "), "{stdout}");
        (path, std::fs::read_to_string(dir.join(name)).unwrap())
    };
    let (path, text) = book("book1.txt", "1");
    let (_, again) = book("book2.txt", "2");
    assert_eq!(text, again);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with(
        "# hayate openings --variant minishogi --count 3 --plies 4 --nodes 3000 --max-score 150 --seed 5 --hash 16: 3 of "
    ));
    assert_eq!(lines.len(), 4);
    // resigning fakes: each game's record is its opening
    let resign = fake(&["resign"]);
    let openings_of = |name: &str, games: usize, more: &[&str]| {
        let out = dir.join(name);
        let c = common(&out, &games.to_string());
        let more = [&["--variant", "minishogi"][..], more].concat();
        let r = run_match(&resign, &resign, &args(&c, &more), LIMIT);
        assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
        records(&out)
    };
    let recs = openings_of("match", 6, &["--openings", path.to_str().unwrap()]);
    verify_all::<Minishogi>(&recs, 0);
    for (i, rec) in recs.iter().enumerate() {
        let line = lines[1 + i / 2];
        assert_eq!(format!("startpos moves {}", rec.moves.join(" ")), line);
    }
    // each kept opening is the random opening of some pair of the same match without the file, among the pairs
    // up to the number of candidates the header gives
    let looked_at: usize = lines[0]
        .rsplit(" of ")
        .next()
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(looked_at >= 3);
    let random: Vec<String> = openings_of(
        "plain",
        2 * looked_at,
        &["--random-plies", "4", "--seed", "5"],
    )
    .iter()
    .map(|r| format!("startpos moves {}", r.moves.join(" ")))
    .collect();
    let kept_from = |l: &str| random.iter().position(|x| x == l);
    let at: Vec<Option<usize>> = lines[1..].iter().map(|l| kept_from(l)).collect();
    assert!(at.iter().all(Option::is_some), "{at:?}");
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{at:?}");
    // the last kept one is the last candidate looked at
    assert_eq!(at[2], Some(2 * (looked_at - 1)));
}
