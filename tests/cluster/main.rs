//! `hayate match --shard K/N` and `--merge`: a match of Hayate against itself at fixed depth (deterministic with
//! one thread) played whole and as four shards, the merge compared game by game and summary line by summary line
//! with the whole match; the merge refusing shards of another match, a missing and a doubled shard. The same
//! match through a real one-node Slurm cluster is in [`slurm`]; the Kubernetes manifest's commands in
//! [`kubernetes`].

// a test fails by panicking: unwrap is how it states what must succeed (the library keeps to [lints])
#![allow(clippy::unwrap_used)]

mod kubernetes;
mod slurm;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

#[path = "../common/scratch.rs"]
mod scratch;

const HAYATE: &str = env!("CARGO_BIN_EXE_hayate");
/// Shards of the test match.
const SHARDS: u32 = 4;

/// The test match: minishogi (short games), seven games so that the last pair has one game and the fourth shard
/// only that game, random plies so that every pair starts elsewhere, engines of different depths so that the
/// results differ.
fn match_args() -> Vec<String> {
    let engine = |name: &str, depth: u32| {
        vec![
            "--engine".to_string(),
            format!("cmd={HAYATE}"),
            format!("name={name}"),
            format!("tc=depth={depth}"),
            "option.Threads=1".into(),
            "option.USI_Hash=16".into(),
        ]
    };
    let mut a = vec!["match".to_string()];
    a.extend(engine("Deep", 3));
    a.extend(engine("Shallow", 2));
    a.extend(
        [
            "--variant",
            "minishogi",
            "--games",
            "7",
            "--random-plies",
            "4",
            "--seed",
            "11",
            "--max-plies",
            "80",
        ]
        .map(String::from),
    );
    a
}

fn hayate(args: &[String]) -> Output {
    Command::new(HAYATE)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("start hayate")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The summary of a run's output: from its `Results of` line on.
fn summary(stdout: &str) -> Vec<String> {
    let lines: Vec<String> = stdout.lines().map(String::from).collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("Results of "))
        .unwrap_or_else(|| panic!("no summary in:\n{stdout}"));
    lines[at..].to_vec()
}

fn games_txt(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("games.txt"))
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

/// The test match played whole and as four shards (all at once, as a cluster would), once for all the tests.
struct Played {
    whole: PathBuf,
    whole_summary: Vec<String>,
    shards: Vec<PathBuf>,
}

fn played() -> &'static Played {
    static PLAYED: OnceLock<Played> = OnceLock::new();
    PLAYED.get_or_init(|| {
        // under target/, not in a scratch folder: a static is never dropped, so the next run clears it instead
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cluster-played");
        let _ = std::fs::remove_dir_all(&dir);
        let whole = dir.join("whole");
        let shards: Vec<PathBuf> = (0..SHARDS)
            .map(|k| dir.join(format!("shard-{k}")))
            .collect();
        let runs: Vec<_> = shards
            .iter()
            .enumerate()
            .map(|(k, out)| {
                let mut a = match_args();
                a.extend([
                    "--shard".into(),
                    format!("{k}/{SHARDS}"),
                    "--out".into(),
                    out.display().to_string(),
                ]);
                std::thread::spawn(move || hayate(&a))
            })
            .collect();
        let mut a = match_args();
        a.extend(["--out".into(), whole.display().to_string()]);
        let w = hayate(&a);
        assert!(w.status.success(), "{}{}", text(&w.stdout), text(&w.stderr));
        for (k, r) in runs.into_iter().enumerate() {
            let r = r.join().unwrap();
            let out = text(&r.stdout);
            assert!(r.status.success(), "shard {k}: {out}{}", text(&r.stderr));
            assert!(
                out.contains(&format!(
                    "Results of Deep vs Shallow (minishogi, {} games, shard {k}/4):",
                    [2, 2, 2, 1][k]
                )),
                "{out}"
            );
        }
        Played {
            whole,
            whole_summary: summary(&text(&w.stdout)),
            shards,
        }
    })
}

fn merge(dirs: &[&Path], out: &Path) -> Output {
    let mut a = vec!["match".to_string(), "--merge".into()];
    a.extend(dirs.iter().map(|d| d.display().to_string()));
    a.extend(["--out".into(), out.display().to_string()]);
    hayate(&a)
}

/// Checks a merged folder against the whole match: the same games in the same order, the same summary.
fn same_as_whole(merged: &Path, stdout: &str) {
    let p = played();
    let whole = games_txt(&p.whole);
    let got = games_txt(merged);
    assert_eq!(whole.len(), 7);
    for (i, (w, g)) in whole.iter().zip(&got).enumerate() {
        assert_eq!(g, w, "game {}", i + 1);
    }
    assert_eq!(got.len(), whole.len());
    assert_eq!(summary(stdout), p.whole_summary);
    for n in 1..=7 {
        assert!(merged.join(format!("{n:04}.kif")).exists(), "{n:04}.kif");
    }
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(merged.join("match.json")).unwrap()).unwrap();
    assert_eq!(manifest["shard"], "0/1");
    assert_eq!(
        manifest["games_played"],
        serde_json::json!([1, 2, 3, 4, 5, 6, 7])
    );
}

#[test]
fn four_shards_merge_into_the_whole_match() {
    let p = played();
    // each shard holds its own pairs' games, numbered as in the whole match
    let whole = games_txt(&p.whole);
    for (k, dir) in p.shards.iter().enumerate() {
        let own: Vec<String> = (0..7)
            .filter(|i| (i / 2) % 4 == k)
            .map(|i| whole[i].clone())
            .collect();
        assert_eq!(games_txt(dir), own, "shard {k}");
    }
    let scratch = scratch::Scratch::new("cluster", "merge");
    let out = PathBuf::from(scratch.path("merged"));
    // any order of the folders
    let dirs: Vec<&Path> = p.shards.iter().rev().map(PathBuf::as_path).collect();
    let m = merge(&dirs, &out);
    let stdout = text(&m.stdout);
    assert!(m.status.success(), "{stdout}{}", text(&m.stderr));
    assert_eq!(
        stdout.lines().next().unwrap(),
        format!("Merged 4 shards, 7 games, into {}/games.txt", out.display())
    );
    same_as_whole(&out, &stdout);
    // the merged folder is a whole match's: it merges alone into the same again
    let again = PathBuf::from(scratch.path("again"));
    let m = merge(&[&out], &again);
    assert!(m.status.success(), "{}", text(&m.stderr));
    same_as_whole(&again, &text(&m.stdout));
}

/// Runs a merge that must fail; returns its error lines.
fn refused(dirs: &[&Path], out: &Path) -> Vec<String> {
    let m = merge(dirs, out);
    assert_eq!(m.status.code(), Some(2), "{}", text(&m.stdout));
    assert_eq!(text(&m.stdout), "", "nothing printed on stdout");
    assert!(!out.join("games.txt").exists(), "nothing written");
    text(&m.stderr).lines().map(String::from).collect()
}

#[test]
fn merge_refuses_missing_doubled_and_foreign_shards() {
    let p = played();
    let scratch = scratch::Scratch::new("cluster", "refuse");
    let out = PathBuf::from(scratch.path("merged"));
    let s: Vec<&Path> = p.shards.iter().map(PathBuf::as_path).collect();
    let d = |k: usize| s[k].display().to_string();

    assert_eq!(
        refused(&[s[0], s[2]], &out),
        ["error: shard 1/4 is missing", "error: shard 3/4 is missing"]
    );
    assert_eq!(
        refused(&[s[0], s[1], s[2], s[3], s[1]], &out),
        [format!(
            "error: shard 1/4 is doubled: in {} and {}",
            d(1),
            d(1)
        )]
    );

    // a copy of shard 3 made as if by a run with another seed, and one with another engine option
    let foreign = |name: &str, from: &str, to: &str| {
        let dir = PathBuf::from(scratch.path(name));
        std::fs::create_dir_all(&dir).unwrap();
        for f in ["games.txt", "match.json"] {
            std::fs::copy(s[3].join(f), dir.join(f)).unwrap();
        }
        let m = std::fs::read_to_string(dir.join("match.json")).unwrap();
        assert!(m.contains(from), "{m}");
        std::fs::write(dir.join("match.json"), m.replacen(from, to, 1)).unwrap();
        dir
    };
    let seed = foreign("seed", "\"seed\": 11", "\"seed\": 12");
    assert_eq!(
        refused(&[s[0], s[1], s[2], &seed], &out),
        [format!(
            "error: shard 3/4 in {} is of another match than shard 0/4 in {}: seed 12, not 11",
            seed.display(),
            d(0)
        )]
    );
    let tc = foreign("tc", "\"tc\": \"depth 2\"", "\"tc\": \"depth 4\"");
    assert_eq!(
        refused(&[s[0], s[1], s[2], &tc], &out),
        [format!(
            "error: shard 3/4 in {} is of another match than shard 0/4 in {}: engine 2 tc \"depth 4\", not \"depth 2\"",
            tc.display(),
            d(0)
        )]
    );
    // a folder that is no match's
    let empty = PathBuf::from(scratch.path("empty"));
    std::fs::create_dir_all(&empty).unwrap();
    let lines = refused(&[s[0], &empty], &out);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with(&format!(
            "error: cannot read {}/match.json: ",
            empty.display()
        )) && lines[0].ends_with("(not the --out folder of a hayate match)"),
        "{lines:?}"
    );
}

#[test]
fn a_shard_needs_its_folder_and_a_seed() {
    let mut a = match_args();
    a.extend(["--shard".into(), "1/4".into()]);
    let r = hayate(&a);
    assert_eq!(r.status.code(), Some(2));
    assert_eq!(
        text(&r.stderr),
        "error: --shard needs --out: the merge reads the shard's records there\n"
    );
    let seedless: Vec<String> = {
        let at = a.iter().position(|w| w == "--seed").unwrap();
        let mut v = a.clone();
        v.drain(at..at + 2);
        v.extend(["--out".into(), "/nonexistent/never-written".into()]);
        v
    };
    let r = hayate(&seedless);
    assert_eq!(
        text(&r.stderr),
        "error: --shard with --random-plies needs --seed: every shard must draw the same random openings\n"
    );
    for bad in ["4/4", "x/2", "1/0"] {
        let mut v = match_args();
        v.extend(["--shard".into(), bad.into()]);
        let r = hayate(&v);
        assert_eq!(r.status.code(), Some(2));
        assert!(
            text(&r.stderr).contains(&format!("'{bad}' is not a shard: K/N with 0 <= K < N")),
            "{}",
            text(&r.stderr)
        );
    }
    let r = hayate(&["match".into(), "--merge".into(), "/tmp".into()]);
    assert_eq!(
        text(&r.stderr),
        "error: --merge needs --out DIR, the folder for the merged records\n"
    );
}
