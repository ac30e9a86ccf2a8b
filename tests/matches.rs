//! `hayate match`: the real binary hosting scripted fake engines (tests/fake_engines/fake_engine.py, python3) and
//! itself, and the match statistics against values computed by hand (with Python's `math`, see each test).
//!
//! Every match runs as a child process with a deadline, so an engine that hangs the host fails the test instead of
//! blocking it. Records written with `--out` are replayed with the library's rules core.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use hayate::matches::judge::{Outcome, Reason};
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

/// The games of `<dir>/games.txt`.
fn records(dir: &Path) -> Vec<RecordLine> {
    std::fs::read_to_string(dir.join("games.txt"))
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

fn common(out: &Path, games: &str) -> Vec<String> {
    common_tc(out, games, "byoyomi=100")
}

fn common_tc(out: &Path, games: &str, tc: &str) -> Vec<String> {
    [
        "--games",
        games,
        "--tc",
        tc,
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

/// Plays `games` games in a fresh scratch directory with the common settings plus `more`; the match must end with
/// status 0. Returns the run and its records.
fn play(
    test: &str,
    games: &str,
    e1: &[String],
    e2: &[String],
    more: &[&str],
) -> (Run, Vec<RecordLine>) {
    let out = scratch(test).join("out");
    let c = common(&out, games);
    let r = run_match(e1, e2, &args(&c, more), LIMIT);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    let recs = records(&out);
    (r, recs)
}

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
        let csa_files = std::fs::read_dir(&out)
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .is_ok_and(|e| e.file_name().to_string_lossy().ends_with(".csa"))
            })
            .count();
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
    }
}

fn with(mut engine: Vec<String>, words: &[&str]) -> Vec<String> {
    engine.extend(words.iter().map(|w| w.to_string()));
    engine
}

/// The `go` commands in an engine's log, as word lists.
fn go_lines(log: &Path) -> Vec<Vec<String>> {
    std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("go"))
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}

/// The number after `key` in a go command.
fn field(go: &[String], key: &str) -> u64 {
    let i = go
        .iter()
        .position(|w| w == key)
        .unwrap_or_else(|| panic!("no {key} in {go:?}"));
    go[i + 1].parse().unwrap()
}

#[test]
fn each_engine_gets_its_own_time_control_and_the_real_clocks() {
    let dir = scratch("tc");
    let out = dir.join("out");
    let (log1, log2) = (dir.join("e1.log"), dir.join("e2.log"));
    let l1 = format!("log={}", log1.display());
    let l2 = format!("log={}", log2.display());
    // engine 1: main time and byoyomi; engine 2: Fischer; the match's --tc applies to neither
    let e1 = with(
        fake(&[
            SHOGI_CYCLE[0],
            SHOGI_CYCLE[1],
            SHOGI_CYCLE[2],
            &l1,
            "sleep=30",
        ]),
        &["tc=1000/byoyomi=100"],
    );
    let e2 = with(
        fake(&[SHOGI_CYCLE[0], SHOGI_CYCLE[1], SHOGI_CYCLE[2], &l2]),
        &["tc=5000+50"],
    );
    let c = common_tc(&out, "1", "movetime=10");
    let r = run_match(&e1, &e2, &args(&c, &[]), LIMIT);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains(
            "Fake script #1: 1000 ms + byoyomi 100 ms, Fake script #2: 5000 ms + 50 ms per move, tolerance"
        ),
        "{}",
        r.stdout
    );
    assert_eq!(
        endings(&records(&out)),
        [(Outcome::Draw, Reason::Repetition)]
    );
    let (g1, g2) = (go_lines(&log1), go_lines(&log2));
    assert_eq!((g1.len(), g2.len()), (6, 6));
    assert_eq!(g1[0].join(" "), "go btime 1000 wtime 5000 byoyomi 100");
    for i in 0..6 {
        assert_eq!(g1[i][..2], ["go", "btime"]);
        assert_eq!(
            (g1[i].len(), field(&g1[i], "byoyomi")),
            (7, 100),
            "{:?}",
            g1[i]
        );
        assert_eq!(g2[i][..2], ["go", "btime"]);
        assert_eq!(
            (g2[i].len(), field(&g2[i], "binc"), field(&g2[i], "winc")),
            (9, 0, 50)
        );
        // engine 1 is sente: both engines see both real clocks, and a clock moves only on its owner's move
        assert_eq!(field(&g2[i], "wtime"), field(&g1[i], "wtime"));
        if i + 1 < 6 {
            assert_eq!(field(&g2[i], "btime"), field(&g1[i + 1], "btime"));
            assert!(field(&g1[i + 1], "wtime") <= field(&g2[i], "wtime") + 50);
        }
        assert!(field(&g1[i], "btime") <= 1000);
    }
    // five moves of 30 ms or more came off engine 1's main time
    assert!(field(&g1[5], "btime") <= 1000 - 5 * 30, "{:?}", g1[5]);
}

#[test]
fn nodes_and_depth_go_without_a_clock() {
    let dir = scratch("nodes");
    let out = dir.join("out");
    let (log1, log2) = (dir.join("e1.log"), dir.join("e2.log"));
    let l1 = format!("log={}", log1.display());
    let l2 = format!("log={}", log2.display());
    let e1 = with(
        fake(&[SHOGI_CYCLE[0], SHOGI_CYCLE[1], SHOGI_CYCLE[2], &l1]),
        &["tc=depth=3"],
    );
    let e2 = fake(&[SHOGI_CYCLE[0], SHOGI_CYCLE[1], SHOGI_CYCLE[2], &l2]);
    let c = common_tc(&out, "2", "nodes=500");
    let r = run_match(&e1, &e2, &args(&c, &[]), LIMIT);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains("Fake script #1: depth 3, Fake script #2: nodes 500, hang timeout 60000 ms"),
        "{}",
        r.stdout
    );
    assert_eq!(
        endings(&records(&out)),
        [(Outcome::Draw, Reason::Repetition); 2]
    );
    let (g1, g2) = (go_lines(&log1), go_lines(&log2));
    assert_eq!(g1.len(), 12);
    assert!(g1.iter().all(|g| g.join(" ") == "go depth 3"), "{g1:?}");
    assert_eq!(g2.len(), 12);
    assert!(g2.iter().all(|g| g.join(" ") == "go nodes 500"), "{g2:?}");
}

#[test]
fn late_movetime_answers_lose_and_hangs_under_nodes_are_caught() {
    let dir = scratch("movetime");
    let out = dir.join("out");
    // go movetime 50: an answer after 300 ms is past the 100 ms tolerance (the host sends stop at 150 ms and the
    // answer comes within the 300 ms grace after it)
    let late = fake(&[SHOGI_CYCLE[0], SHOGI_CYCLE[1], SHOGI_CYCLE[2], "sleep=300"]);
    let c = common_tc(&out, "2", "movetime=50");
    let r = run_match(&late, &fake(&SHOGI_CYCLE), &args(&c, &[]), LIMIT);
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
    // an answer within the move time plays on: the game ends by repetition
    let on_time = fake(&[SHOGI_CYCLE[0], SHOGI_CYCLE[1], SHOGI_CYCLE[2], "sleep=20"]);
    let c = common_tc(&out, "1", "movetime=150");
    let r = run_match(&on_time, &fake(&SHOGI_CYCLE), &args(&c, &[]), LIMIT);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert_eq!(
        endings(&records(&out)),
        [(Outcome::Draw, Reason::Repetition)]
    );

    // go nodes and an engine that never answers, not even stop: the hang timeout ends the game
    let c = common_tc(&out, "2", "nodes=1000");
    let r = run_match(
        &fake(&SHOGI_CYCLE),
        &fake(&["hang"]),
        &args(&c, &["--hang-timeout", "300"]),
        LIMIT,
    );
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
    assert!(r.secs < 10.0, "{} s", r.secs);
}

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

/// The pids written to a pid file.
fn pids(file: &Path) -> Vec<u32> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

/// Whether a process exists and is not a zombie.
fn running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit(") ")
            .next()
            .is_some_and(|rest| !rest.starts_with('Z')),
        Err(_) => false,
    }
}

/// Starts a match whose engines record their pids: engine 1 resigns its first two games and hangs in the third
/// (under `nodes`, with the default 60 s hang timeout), so the match is stuck in game 3. Returns, once game 3 runs,
/// the host, the engines' pids and the host's further stdout lines.
fn stuck_match(
    dir: &Path,
) -> (
    std::process::Child,
    Vec<u32>,
    std::sync::mpsc::Receiver<String>,
) {
    let pidfile = dir.join("pids");
    let p = format!("pidfile={}", pidfile.display());
    let e1 = fake(&["resign", "hang_from=3", &p]);
    let e2 = fake(&[SHOGI_CYCLE[0], SHOGI_CYCLE[1], SHOGI_CYCLE[2], &p]);
    let out = dir.join("out");
    let c = common_tc(&out, "10", "nodes=1000");
    let mut cmd = Command::new(HAYATE);
    cmd.arg("match")
        .arg("--engine")
        .args(&e1)
        .arg("--engine")
        .args(&e2)
        .args(&c);
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut child = cmd.spawn().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let start = Instant::now();
    let mut seen = Vec::new();
    while !seen.iter().any(|l: &String| l.starts_with("Game 2/10")) {
        match rx.recv_timeout(Duration::from_secs(20)) {
            Ok(l) => seen.push(l),
            Err(_) => {
                let _ = child.kill();
                panic!("no second game after {:?}: {seen:?}", start.elapsed());
            }
        }
    }
    // game 3 has started: both engines of the worker are running (the first engine hangs in it)
    std::thread::sleep(Duration::from_millis(300));
    let engines = pids(&pidfile);
    assert_eq!(engines.len(), 2, "{engines:?}");
    assert!(engines.iter().all(|&p| running(p)));
    (child, engines, rx)
}

#[cfg(target_os = "linux")]
#[test]
fn sigint_stops_the_match_with_a_summary_and_no_engine_left() {
    let dir = scratch("sigint");
    let (mut child, engines, rx) = stuck_match(&dir);
    let sent = Instant::now();
    let st = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if sent.elapsed() > Duration::from_secs(5) {
            let _ = child.kill();
            panic!("the host did not stop within 5 s of SIGINT");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let took = sent.elapsed();
    assert!(took < Duration::from_secs(2), "{took:?}");
    assert_eq!(status.code(), Some(130));
    let rest: Vec<String> = rx.iter().collect();
    let text = rest.join("\n");
    assert!(
        text.contains("Interrupted (signal 2) after 2 of 10 games"),
        "{text}"
    );
    assert_eq!(wdl_of(&text, "  Fake resign: "), Wdl::new(0, 0, 2));
    assert!(!text.contains("Game 3/10"), "{text}");
    for p in engines {
        assert!(!running(p), "engine {p} is still running");
    }
    assert_eq!(records(&dir.join("out")).len(), 2);
}

#[cfg(target_os = "linux")]
#[test]
fn engines_die_with_a_killed_host() {
    let dir = scratch("sigkill");
    let (mut child, engines, _rx) = stuck_match(&dir);
    child.kill().unwrap();
    child.wait().unwrap();
    let killed = Instant::now();
    while engines.iter().any(|&p| running(p)) {
        assert!(
            killed.elapsed() < Duration::from_secs(2),
            "engines left: {engines:?}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
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
