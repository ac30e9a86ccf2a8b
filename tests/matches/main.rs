//! `hayate match`: the real binary hosting scripted fake engines (tests/fake_engines/fake_engine.py, python3) and
//! itself, and the match statistics against values computed by hand (with Python's `math`, see each test).
//! One test binary: this file holds what its modules share.
//!
//! Every match runs as a child process with a deadline, so an engine that hangs the host fails the test instead of
//! blocking it. Records written with `--out` are replayed with the library's rules core.

// a test fails by panicking: unwrap is how it states what must succeed (the library keeps to [lints])
#![allow(clippy::unwrap_used)]

mod adjudication;
mod endings;
mod interrupt;
mod openings;
mod runner;
mod stats;
mod time_controls;
mod tune;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use hayate::host::judge::{Outcome, Reason};
use hayate::host::records::{verify, RecordLine};
use hayate::matches::stats::Wdl;
use hayate::Variant;

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

/// A scratch directory of its own for each test, removed when the test passes (kept for a look when it fails).
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.0
    }
}

impl AsRef<std::path::Path> for Scratch {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn scratch(test: &str) -> Scratch {
    let d = std::env::temp_dir().join(format!("hayate-match-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    Scratch(d)
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
    let dir = scratch(test);
    let out = dir.join("out");
    let c = common(&out, games);
    let r = run_match(e1, e2, &args(&c, more), LIMIT);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    let recs = records(&out);
    (r, recs)
}
