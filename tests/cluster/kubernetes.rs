//! The Kubernetes manifest of docs/matches.md, run as its pods would run it: no cluster here, but the commands
//! are what can go wrong, not the scheduler. The test reads the two Jobs from the page (the Indexed Job of the
//! shards, the Job of the merge), checks that the shard count of `--shard` is the Job's completions and
//! parallelism and that the merge's folder pattern covers every shard's `--out`, then runs each shard's
//! command line with the shell as the pod does (`sh -c`, `JOB_COMPLETION_INDEX` set to its index), and the
//! merge's after them. Only the storage (`/data`, `/opt`), the match's length (`--games`) and its node count are
//! changed, so that it fits a test.

use std::path::Path;
use std::process::Command;

use super::{scratch, summary, text, HAYATE};

/// The YAML block of docs/matches.md's Kubernetes section.
fn manifest() -> String {
    let page =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/matches.md"))
            .expect("docs/matches.md");
    let start = page
        .find("```yaml\n")
        .expect("a yaml block in docs/matches.md")
        + "```yaml\n".len();
    let len = page[start..].find("```").expect("the yaml block's end");
    page[start..start + len].to_string()
}

/// The number after `key:` on the first line that has it.
fn number(yaml: &str, key: &str) -> u32 {
    yaml.lines()
        .find_map(|l| l.trim().strip_prefix(key))
        .and_then(|v| v.split('#').next())
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {key} in the manifest"))
}

/// The shards' command: the `args:` item, a plain scalar over several lines, which YAML folds into one line (its
/// lines joined by single spaces).
fn shard_command(yaml: &str) -> String {
    let lines: Vec<&str> = yaml.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim() == "args:")
        .expect("the shards' args");
    let first = lines[at + 1]
        .trim()
        .strip_prefix("- ")
        .expect("one args item");
    let indent = lines[at + 1].len() - lines[at + 1].trim_start().len();
    let mut folded = vec![first.to_string()];
    for l in &lines[at + 2..] {
        if l.len() - l.trim_start().len() <= indent {
            break;
        }
        folded.push(l.trim().to_string());
    }
    folded.join(" ")
}

/// The merge's command: the third word of its `command: ["sh", "-c", "..."]`.
fn merge_command(yaml: &str) -> String {
    let line = yaml
        .lines()
        .find(|l| l.contains("--merge"))
        .expect("the merge's command");
    let words: Vec<&str> = line.split('"').collect();
    assert_eq!(
        &words[1..5],
        ["sh", ", ", "-c", ", "],
        "the merge runs under sh -c: {line}"
    );
    words[5].to_string()
}

/// Runs `cmd` as a pod's container does (`sh -c`, with `PATH` and, for a shard, `JOB_COMPLETION_INDEX`); its
/// stdout, once it has succeeded.
fn pod(cmd: &str, path: &str, index: Option<u32>, what: &str) -> String {
    let mut sh = Command::new("sh");
    sh.args(["-c", cmd]).env("PATH", path);
    if let Some(k) = index {
        sh.env("JOB_COMPLETION_INDEX", k.to_string());
    }
    let out = sh.output().unwrap();
    let stdout = text(&out.stdout);
    assert!(
        out.status.success(),
        "{what}: {}\n{stdout}\n{}",
        out.status,
        text(&out.stderr)
    );
    stdout
}

#[test]
fn the_kubernetes_indexed_job_plays_every_shard_and_the_merge_joins_them() {
    let yaml = manifest();
    assert!(yaml.contains("completionMode: Indexed"), "{yaml}");
    let n = number(&yaml, "completions:");
    assert_eq!(
        number(&yaml, "parallelism:"),
        n,
        "one pod per shard at once"
    );
    let shard = shard_command(&yaml);
    assert!(
        shard.contains(&format!("--shard \"$JOB_COMPLETION_INDEX/{n}\"")),
        "the shard count is the Job's completions: {shard}"
    );
    let merge = merge_command(&yaml);
    assert!(
        shard.contains("--out \"/data/runs/shard-$JOB_COMPLETION_INDEX\"")
            && merge.contains("--merge /data/runs/shard-* "),
        "the merge's pattern covers every shard's folder:\n{shard}\n{merge}"
    );

    // the storage here, `hayate` on the PATH, a match short enough for a test
    let scratch = scratch::Scratch::new("cluster", "kubernetes");
    let root = Path::new(&scratch.path("k8s")).to_path_buf();
    let (data, opt, bin) = (root.join("data"), root.join("opt"), root.join("bin"));
    for d in [&data, &opt, &bin] {
        std::fs::create_dir_all(d).unwrap();
    }
    for (dir, name) in [(&bin, "hayate"), (&opt, "hayate-new"), (&opt, "hayate-old")] {
        std::os::unix::fs::symlink(HAYATE, dir.join(name)).unwrap();
    }
    std::fs::write(
        data.join("open9.txt"),
        "startpos moves 7g7f 3c3d\nstartpos moves 2g2f 8c8d\n",
    )
    .unwrap();
    let local = |cmd: &str| {
        let games = format!("--games {}", 2 * n);
        cmd.replace("/data/", &format!("{}/", data.display()))
            .replace("/opt/", &format!("{}/", opt.display()))
            .replace("--games 20000", &games)
            .replace("--tc nodes=20000", "--tc nodes=1000")
    };
    let shard = local(&shard);
    assert!(shard.contains(&format!("--games {}", 2 * n)), "{shard}");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for k in 0..n {
        let stdout = pod(&shard, &path, Some(k), &format!("shard {k}"));
        assert!(
            stdout.contains(&format!("shard {k}/{n}")),
            "shard {k}:\n{stdout}"
        );
    }
    let stdout = pod(&local(&merge), &path, None, "the merge");
    let lines = summary(&stdout);
    assert_eq!(
        lines[0],
        format!("Results of new vs old (shogi, {} games):", 2 * n),
        "{stdout}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("  SPRT (pentanomial, elo0 0 elo1 5")
                && l.contains(&format!("after {} games", 2 * n))),
        "the SPRT over every shard's games:\n{stdout}"
    );
    let merged = std::fs::read_to_string(data.join("runs/merged/games.txt")).unwrap();
    assert_eq!(merged.lines().count(), 2 * n as usize, "{merged}");
}
