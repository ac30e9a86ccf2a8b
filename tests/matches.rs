//! `hayate match`: the real binary hosting scripted fake engines (tests/fake_engines/fake_engine.py, python3) and
//! itself, and the match statistics against values computed by hand (with Python's `math`, see each test).
//!
//! Every match runs as a child process with a deadline, so an engine that hangs the host fails the test instead of
//! blocking it. Records written with `--out` are replayed with the library's rules core.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use hayate::matches::game::{Outcome, Reason};
use hayate::matches::record::{verify, RecordLine};
use hayate::matches::stats::{
    elo_estimate, llr_pentanomial, llr_trinomial, los, Penta, SprtConfig, SprtDecision, Wdl,
};
use hayate::{Minishogi, Shogi, Variant, Yari};

const HAYATE: &str = env!("CARGO_BIN_EXE_hayate");
const DECLARABLE: &str = "RBGGKSS2/LL7/NN7/9/9/9/9/7G1/4k4 b 10P 1";

fn fake(words: &[&str]) -> Vec<String> {
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fake_engines/fake_engine.py");
    let mut v = vec![
        "cmd=python3".to_string(),
        format!("arg={}", script.display()),
    ];
    v.extend(words.iter().map(|w| format!("arg={w}")));
    v
}

fn real(name: &str) -> Vec<String> {
    [
        format!("cmd={HAYATE}"),
        format!("name={name}"),
        "option.Threads=1".into(),
        "option.USI_Hash=16".into(),
        "option.NetworkDelay=10".into(),
    ]
    .to_vec()
}

/// A scratch directory of its own for each test.
fn scratch(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hayate-match-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

struct Run {
    stdout: String,
    stderr: String,
    code: Option<i32>,
    secs: f64,
}

/// Runs `hayate match` with two engines and more arguments; panics if it takes longer than `limit`.
fn run_match(e1: &[String], e2: &[String], args: &[&str], limit: Duration) -> Run {
    let mut cmd = Command::new(HAYATE);
    cmd.arg("match")
        .arg("--engine")
        .args(e1)
        .arg("--engine")
        .args(e2)
        .args(args);
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let start = Instant::now();
    let mut child = cmd.spawn().expect("start hayate match");
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let t_out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let t_err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "hayate match ran past {limit:?}; output so far:\n{}",
                t_out.join().unwrap()
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Run {
        stdout: t_out.join().unwrap(),
        stderr: t_err.join().unwrap(),
        code: status.code(),
        secs: start.elapsed().as_secs_f64(),
    }
}

fn records(path: &PathBuf) -> Vec<RecordLine> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| RecordLine::parse(l).unwrap())
        .collect()
}

fn verify_all<V: Variant>(recs: &[RecordLine], max_plies: usize) {
    for (i, r) in recs.iter().enumerate() {
        verify::<V>(r, max_plies).unwrap_or_else(|e| panic!("game {}: {e}: {}", i + 1, r.format()));
    }
}

/// The results and reasons of the games, in order.
fn endings(recs: &[RecordLine]) -> Vec<(Outcome, Reason)> {
    recs.iter().map(|r| (r.outcome, r.reason)).collect()
}

/// The `W a D b L c` figures of the summary line that starts with `  <name>: `.
fn wdl_of(stdout: &str, prefix: &str) -> Wdl {
    let line = stdout
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line '{prefix}' in:\n{stdout}"));
    let w: Vec<&str> = line[prefix.len()..].split_whitespace().collect();
    let num = |tag: &str| -> u32 {
        let i = w.iter().position(|&x| x == tag).unwrap();
        w[i + 1].trim_end_matches([',', ';']).parse().unwrap()
    };
    Wdl::new(num("W"), num("D"), num("L"))
}

fn common(out: &std::path::Path, games: &str) -> Vec<String> {
    [
        "--games",
        games,
        "--byoyomi",
        "100",
        "--tolerance",
        "100",
        "--stop-grace",
        "300",
        "--ready-timeout",
        "3000",
        "--out",
        out.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn args<'a>(v: &'a [String], more: &[&'a str]) -> Vec<&'a str> {
    let mut a: Vec<&str> = v.iter().map(String::as_str).collect();
    a.extend_from_slice(more);
    a
}

const SHOGI_CYCLE: [&str; 3] = ["script", "black=2h3h,3h2h", "white=8b7b,7b8b"];
const LIMIT: Duration = Duration::from_secs(30);

#[test]
fn illegal_move_loses() {
    let dir = scratch("illegal");
    let out = dir.join("games.txt");
    let c = common(&out, "2");
    let r = run_match(
        &fake(&["illegal"]),
        &fake(&SHOGI_CYCLE),
        &args(&c, &[]),
        LIMIT,
    );
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    let recs = records(&out);
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
fn concurrent_games_are_recorded_in_game_order() {
    let dir = scratch("concurrency");
    let out = dir.join("games.txt");
    let c = common(&out, "7");
    let r = run_match(
        &fake(&["illegal"]),
        &fake(&SHOGI_CYCLE),
        &args(&c, &["--concurrency", "3"]),
        LIMIT,
    );
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    let recs = records(&out);
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
fn crash_loses_and_the_engine_is_restarted() {
    let dir = scratch("crash");
    let out = dir.join("games.txt");
    let c = common(&out, "4");
    let r = run_match(
        &fake(&["crash"]),
        &fake(&SHOGI_CYCLE),
        &args(&c, &[]),
        LIMIT,
    );
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    let recs = records(&out);
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
    let dir = scratch("hang");
    let out = dir.join("games.txt");
    let c = common(&out, "2");
    let r = run_match(&fake(&SHOGI_CYCLE), &fake(&["hang"]), &args(&c, &[]), LIMIT);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    let recs = records(&out);
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
    let dir = scratch("slow");
    let out = dir.join("games.txt");
    let c = common(&out, "2");
    let r = run_match(&fake(&["slow"]), &fake(&SHOGI_CYCLE), &args(&c, &[]), LIMIT);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    let recs = records(&out);
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
    let out = dir.join("games.txt");
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
    let out = dir.join("games.txt");
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
    let out = dir.join("mini.txt");
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
    let out = dir.join("perpetual.txt");
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
    let out = dir.join("yari.txt");
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
    let out = dir.join("games.txt");
    let mut c = common(&out, "2");
    c[7] = "500".into(); // --ready-timeout
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

#[test]
fn sprt_stops_the_match_early() {
    let dir = scratch("sprt");
    let out = dir.join("games.txt");
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
    verify_all::<Shogi>(&recs, 0);
}

/// Hayate against itself: two short games in each of the three games; the records replay legally and the summary's
/// figures add up.
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
                let out = dir.join(format!("{variant}.txt"));
                let csa = dir.join(format!("{variant}-csa"));
                let plies = max_plies.to_string();
                let n = games.to_string();
                let a = [
                    "--variant",
                    variant,
                    "--games",
                    &n,
                    "--byoyomi",
                    "60",
                    "--tolerance",
                    "1000",
                    "--max-plies",
                    &plies,
                    "--out",
                    out.to_str().unwrap(),
                    "--csa",
                    csa.to_str().unwrap(),
                ];
                let r = run_match(&real("A"), &real("B"), &a, Duration::from_secs(50));
                (variant, r, records(&out), csa)
            })
        })
        .collect();
    for h in handles {
        let (variant, r, recs, csa) = h.join().unwrap();
        assert_eq!(r.code, Some(0), "{variant}: {}{}", r.stdout, r.stderr);
        assert_eq!(recs.len(), games, "{variant}");
        match variant {
            "shogi" => verify_all::<Shogi>(&recs, max_plies),
            "minishogi" => verify_all::<Minishogi>(&recs, max_plies),
            _ => verify_all::<Yari>(&recs, max_plies),
        }
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
                hayate::piece::Color::Black
            } else {
                hayate::piece::Color::White
            };
            match rec.outcome.half_points(a_colour) {
                2 => from_records.wins += 1,
                1 => from_records.draws += 1,
                _ => from_records.losses += 1,
            }
        }
        assert_eq!(from_records, a, "{variant}");
        let csa_files = std::fs::read_dir(&csa).map(|d| d.count()).unwrap_or(0);
        if variant == "shogi" {
            assert_eq!(csa_files, games);
            let text = std::fs::read_to_string(csa.join("game0001.csa")).unwrap();
            assert!(text.starts_with("V2.2\nN+A\nN-B\n"), "{text}");
            assert_eq!(
                text.lines()
                    .filter(|l| l.len() == 7 && (l.starts_with('+') || l.starts_with('-')))
                    .count(),
                recs[0].moves.len()
            );
        } else {
            assert_eq!(csa_files, 0);
        }
    }
}

// ================================================================================================================
// Statistics against hand-computed values (Python 3 `math`, same formulas written out independently)
// ================================================================================================================

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn elo_interval_and_los_for_known_results() {
    // (W, D, L) -> Elo, 95% lower, upper, half-width, LOS
    let cases = [
        (
            (60, 20, 20),
            147.19071411783776,
            86.22501520030423,
            218.2517776410748,
            66.01338122038528,
            0.9999961278917845,
        ),
        (
            (10, 5, 7),
            47.67456308768351,
            -80.08811212369022,
            190.49731619934227,
            135.29271416151624,
            0.7665728645886373,
        ),
        (
            (35, 30, 35),
            0.0,
            -57.49238012876439,
            57.492380128764374,
            57.49238012876438,
            0.5,
        ),
        (
            (120, 210, 90),
            24.85916269953778,
            1.441622884934478,
            48.50472757378017,
            23.53155234442285,
            0.9807830348816091,
        ),
    ];
    for ((w, d, l), elo, lo, hi, margin, want_los) in cases {
        let wdl = Wdl::new(w, d, l);
        let e = elo_estimate(&wdl).unwrap();
        assert!(close(e.elo, elo, 1e-9), "{wdl:?}: {e:?}");
        assert!(close(e.lower, lo, 1e-9), "{wdl:?}: {e:?}");
        assert!(close(e.upper, hi, 1e-9), "{wdl:?}: {e:?}");
        assert!(close(e.margin, margin, 1e-9), "{wdl:?}: {e:?}");
        assert!(close(los(&wdl).unwrap(), want_los, 1e-12), "{wdl:?}");
    }
    // W 60 D 20 L 20 by hand: s = 0.7, Elo = 400 log10(7/3) = 147.19; per-game variance
    // (60 * 0.09 + 20 * 0.04 + 20 * 0.49) / 100 = 0.16, standard error 0.04, s ± 0.0784 -> [86.2, 218.3]
    assert!(close(
        elo_estimate(&Wdl::new(60, 20, 20)).unwrap().elo,
        400.0 * (7.0f64 / 3.0).log10(),
        1e-9
    ));
    assert_eq!(elo_estimate(&Wdl::default()), None);
    assert_eq!(los(&Wdl::new(0, 4, 0)), None);
    let all_wins = elo_estimate(&Wdl::new(5, 0, 0)).unwrap();
    assert!(all_wins.elo.is_infinite() && all_wins.elo > 0.0);
}

#[test]
fn sprt_llr_for_known_results() {
    // trinomial, logistic: W 120 D 210 L 90, elo0 0, elo1 5
    assert!(close(
        llr_trinomial(&Wdl::new(120, 210, 90), 0.0, 5.0),
        0.7778764652777673,
        1e-12
    ));
    // W 50 D 30 L 20, elo0 -5, elo1 5
    assert!(close(
        llr_trinomial(&Wdl::new(50, 30, 20), -5.0, 5.0),
        1.2331403060896227,
        1e-12
    ));
    // pentanomial pair counts (0, 1/2, 1, 3/2, 2 points) = 5 40 100 45 10, elo0 0, elo1 5
    let p = Penta {
        counts: [5, 40, 100, 45, 10],
    };
    assert!(close(
        llr_pentanomial(&p, 0.0, 5.0),
        0.4823672899192354,
        1e-12
    ));
    // all losses: N/2 ln(0.25 / s1^2), s1 = 1 / (1 + 10^(-100/400))
    let s1 = 1.0 / (1.0 + 10f64.powf(-0.25));
    assert!(close(
        llr_trinomial(&Wdl::new(0, 0, 12), 0.0, 100.0),
        6.0 * (0.25 / (s1 * s1)).ln(),
        1e-12
    ));

    let words = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    let cfg = SprtConfig::parse(&words("elo0=0 elo1=5 alpha=0.05 beta=0.05")).unwrap();
    let (lo, hi) = cfg.bounds();
    assert!(close(lo, -2.9444389791664403, 1e-12) && close(hi, 2.9444389791664403, 1e-12));
    assert_eq!(cfg.decide(0.0), SprtDecision::Continue);
    assert_eq!(cfg.decide(3.0), SprtDecision::AcceptH1);
    assert_eq!(cfg.decide(-3.0), SprtDecision::AcceptH0);
    assert!(SprtConfig::parse(&words("elo0=5 elo1=0")).is_err());
    assert!(SprtConfig::parse(&words("elo0=0 elo1=5 alpha=1.5")).is_err());
    assert!(SprtConfig::parse(&words("elo0=0")).is_err());
    let p = SprtConfig::parse(&words("elo0=0 elo1=5 model=pentanomial")).unwrap();
    assert_eq!(p.model, hayate::matches::stats::SprtModel::Pentanomial);
}
