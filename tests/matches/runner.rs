//! Running a match: records in game order whatever the concurrency, the SPRT stopping it, Hayate against
//! itself in all three games, and the progress bar on a terminal.

use std::process::{Command, Stdio};
use std::time::Duration;

use hayate::host::judge::{Outcome, Reason};
use hayate::matches::stats::Wdl;
use hayate::rules::notation::{header::decode, kif};
use hayate::rules::piece::Color;
use hayate::{Minishogi, Shogi, Yari};

use crate::{
    args, common, fake, play, real, records, run_match, scratch, verify_all, wdl_of, HAYATE, LIMIT,
    SHOGI_CYCLE,
};

#[test]
fn concurrent_games_are_recorded_in_game_order() {
    let (r, recs) = play(
        "concurrency",
        "7",
        &fake(&["illegal"]),
        &fake(&SHOGI_CYCLE),
        &["--concurrency", "3"],
    );
    // odd games: the illegal mover is sente and has no move; even games: the script played 2h3h first
    for (i, rec) in recs.iter().enumerate() {
        let want = if i % 2 == 0 {
            (Outcome::WhiteWins, Reason::Illegal, 0)
        } else {
            (Outcome::BlackWins, Reason::Illegal, 1)
        };
        assert_eq!(
            (rec.outcome, rec.reason, rec.moves.len()),
            want,
            "game {}",
            i + 1
        );
    }
    assert_eq!(recs.len(), 7);
    assert_eq!(wdl_of(&r.stdout, "  Fake illegal: "), Wdl::new(0, 0, 7));
    // three complete pairs, each with 0 points for the first engine; game 7 has no partner
    assert!(
        r.stdout
            .contains("(0, 1/2, 1, 3/2, 2): 3 0 0 0 0 (3 pairs)"),
        "{}",
        r.stdout
    );
}

#[test]
fn sprt_stops_the_match_early() {
    let dir = scratch("sprt");
    let out = dir.join("out");
    let c = common(&out, "100");
    // the first engine resigns every game: LLR = N/2 ln(0.25 / 0.64^2) = -0.2469 N, below ln(0.05/0.95) = -2.944
    // first at N = 12 (Python: -2.9635)
    let r = run_match(
        &fake(&["resign"]),
        &fake(&SHOGI_CYCLE),
        &args(
            &c,
            &["--sprt", "elo0=0", "elo1=100", "alpha=0.05", "beta=0.05"],
        ),
        LIMIT,
    );
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("SPRT: H0 accepted after 12 games"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("LLR -2.964 (-2.944, 2.944) after 12 games, H0 accepted"),
        "{}",
        r.stdout
    );
    let recs = records(&out);
    assert_eq!(recs.len(), 12);
    assert!(recs.iter().all(|r| r.reason == Reason::Resign));
    // the live standing after each game, with the LLR; stdout is not a terminal: plain lines only
    assert!(
        r.stdout.contains(
            "Game 12/100: Fake script (sente) vs Fake resign (gote): 1-0 resign, 1 plies | Fake resign vs Fake \
             script: W 0 D 0 L 12, 0.0%, Elo -inf, LLR -2.96 (-2.94, 2.94)"
        ),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains(['\r', '\x1b']), "{:?}", r.stdout);
    verify_all::<Shogi>(&recs, 0);
}

/// Hayate against itself: two short games in each of the three games, with random openings; the records replay
/// legally, the summary's figures add up, and for shogi the CSA files hold every move with its time.
#[test]
fn hayate_against_itself_in_all_three_games() {
    let dir = scratch("selfplay");
    let games = 2;
    let max_plies = 24;
    let handles: Vec<_> = ["shogi", "minishogi", "yarishogi"]
        .into_iter()
        .map(|variant| {
            let dir = dir.clone();
            std::thread::spawn(move || {
                let out = dir.join(variant);
                let plies = max_plies.to_string();
                let n = games.to_string();
                let a = [
                    "--variant",
                    variant,
                    "--games",
                    &n,
                    "--tc",
                    "nodes=3000",
                    "--random-plies",
                    "4",
                    "--seed",
                    "11",
                    "--max-plies",
                    &plies,
                    "--out",
                    out.to_str().unwrap(),
                ];
                let r = run_match(&real("A"), &real("B"), &a, Duration::from_secs(50));
                (variant, r, out)
            })
        })
        .collect();
    for h in handles {
        let (variant, r, out) = h.join().unwrap();
        assert_eq!(r.code, Some(0), "{variant}: {}{}", r.stdout, r.stderr);
        let recs = records(&out);
        assert_eq!(recs.len(), games, "{variant}");
        match variant {
            "shogi" => verify_all::<Shogi>(&recs, max_plies),
            "minishogi" => verify_all::<Minishogi>(&recs, max_plies),
            _ => verify_all::<Yari>(&recs, max_plies),
        }
        // both games of the pair start with the same 4 random plies
        assert_eq!(recs[0].moves[..4], recs[1].moves[..4], "{variant}");
        for rec in &recs {
            assert!(
                !matches!(
                    rec.reason,
                    Reason::Illegal | Reason::Time | Reason::Hang | Reason::Crash
                ),
                "{variant}: {}",
                rec.format()
            );
        }
        let a = wdl_of(&r.stdout, "  A: ");
        let b = wdl_of(&r.stdout, "  B: ");
        let a_sente = wdl_of(&r.stdout, "  A as sente: ");
        let a_gote = {
            let line = r
                .stdout
                .lines()
                .find(|l| l.starts_with("  A as sente: "))
                .unwrap();
            wdl_of(&line.replace("; as gote: ", "\n  G: "), "  G: ")
        };
        assert_eq!(a.games() as usize, games);
        assert_eq!(b, a.flipped());
        assert_eq!(a_sente.wins + a_gote.wins, a.wins);
        assert_eq!(a_sente.draws + a_gote.draws, a.draws);
        assert_eq!(a_sente.losses + a_gote.losses, a.losses);
        assert_eq!(a_sente.games() as usize, games / 2);
        // results in the records agree with the summary: game 1 has A as sente
        let mut from_records = Wdl::default();
        for (i, rec) in recs.iter().enumerate() {
            let a_colour = if i % 2 == 0 {
                hayate::rules::piece::Color::Black
            } else {
                hayate::rules::piece::Color::White
            };
            match rec.outcome.half_points(a_colour) {
                2 => from_records.wins += 1,
                1 => from_records.draws += 1,
                _ => from_records.losses += 1,
            }
        }
        assert_eq!(from_records, a, "{variant}");
        let csa_files = files_ending(&out, ".csa");
        if variant == "shogi" {
            assert_eq!(csa_files, games);
            let text = std::fs::read_to_string(out.join("0001.csa")).unwrap();
            assert!(text.starts_with("V2.2\nN+A\nN-B\n"), "{text}");
            let lines: Vec<&str> = text.lines().collect();
            let move_lines: Vec<usize> = (0..lines.len())
                .filter(|&i| {
                    lines[i].len() == 7 && (lines[i].starts_with('+') || lines[i].starts_with('-'))
                })
                .collect();
            assert_eq!(move_lines.len(), recs[0].moves.len());
            // a time after every engine move, none after the 4 opening plies
            for (k, &i) in move_lines.iter().enumerate() {
                let timed =
                    lines[i + 1].starts_with('T') && lines[i + 1][1..].parse::<u64>().is_ok();
                assert_eq!(timed, k >= 4, "{text}");
            }
        } else {
            assert_eq!(csa_files, 0);
        }
        // KIF (Shift_JIS) for 9x9 and minishogi: the same moves, names and ending as games.txt
        let kif_files = files_ending(&out, ".kif");
        if variant == "yarishogi" {
            assert_eq!(kif_files, 0);
            continue;
        }
        assert_eq!(kif_files, games);
        for (i, rec) in recs.iter().enumerate() {
            let bytes = std::fs::read(out.join(format!("{:04}.kif", i + 1))).unwrap();
            assert!(std::str::from_utf8(&bytes).is_err(), "not Shift_JIS");
            let text = decode(&bytes, Some("kif")).unwrap();
            let game = kif::read(&text).unwrap();
            assert_eq!(
                (&game.start_sfen, &game.moves),
                (&rec.start_sfen, &rec.moves)
            );
            let names = if i % 2 == 0 { ["A", "B"] } else { ["B", "A"] };
            assert_eq!(game.names, names.map(String::from));
            let started = game.header("開始日時").unwrap_or("");
            assert_eq!(
                (started.len(), started.chars().nth(4)),
                (19, Some('/')),
                "{started}"
            );
            let to_move = [Color::Black, Color::White][rec.moves.len() % 2];
            assert_eq!(
                game.ending,
                Some(rec.reason.kif_ending(rec.outcome, to_move))
            );
        }
    }
}

/// How many files of the folder have names ending so.
fn files_ending(dir: &std::path::Path, end: &str) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.file_name().to_string_lossy().ends_with(end))
        })
        .count()
}

/// On a terminal the standing is also a progress bar on the last line, redrawn in place (`script` gives the host
/// a pseudo-terminal).
#[test]
fn progress_bar_on_a_terminal() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("no `script` (util-linux) here: the terminal test cannot run");
        return;
    }
    let dir = scratch("tty");
    let resign = fake(&["resign"]);
    let mut words = vec![HAYATE.to_string(), "match".into(), "--engine".into()];
    words.extend(resign.iter().cloned());
    words.push("--engine".into());
    words.extend(resign.iter().cloned());
    words.extend(common(&dir.join("out"), "4"));
    let out = Command::new("script")
        .args(["-qfec", &words.join(" "), "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    // the bar before any game, after the fourth, and erased before the summary
    assert!(
        text.contains("\r\x1b[2K[--------------------] 0/4  W 0 D 0 L 0  -"),
        "{text:?}"
    );
    assert!(
        text.contains("\r\x1b[2K[####################] 4/4  W 2 D 0 L 2  50.0%  Elo +0.0 +/- "),
        "{text:?}"
    );
    assert!(
        text.contains("\r\x1b[2KResults of Fake resign #1 vs Fake resign #2"),
        "{text:?}"
    );
    assert!(text.contains("\r\x1b[2KGame 1/4: "), "{text:?}");
}
