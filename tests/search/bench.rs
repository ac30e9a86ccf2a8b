//! `hayate bench --scaling`, and the bench signature against the one the newest commit message states.

use std::path::Path;
use std::process::Command;

use super::*;

/// `hayate bench --scaling`: one line per bench position with the calibrated depth and both timings, the
/// minishogi mate-in-one position left out of the ratios, and a summary whose total ratio matches the lines.
#[test]
fn bench_scaling_reports_every_position() {
    let lines = Mutex::new(Vec::new());
    let mean = hayate::engine::bench::run_scaling(&[GameKind::Minishogi], 2, 8, 30, 1, &|l| {
        lines.lock().unwrap().push(l.to_string())
    });
    let lines = lines.into_inner().unwrap();
    let per_position: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("minishogi position"))
        .collect();
    assert_eq!(
        per_position.len(),
        hayate::engine::bench::MINISHOGI_POSITIONS.len()
    );
    let mut counted = 0;
    for l in &per_position {
        let depth: i32 = l.split_whitespace().nth(4).unwrap().parse().unwrap();
        assert!(depth >= 1, "{l}");
        assert!(l.contains(" 1 thread ") && l.contains(" 2 threads "), "{l}");
        if !l.ends_with("(not counted)") {
            counted += 1;
        }
    }
    assert!(counted >= 1);
    assert!(
        lines.contains(&format!("Positions: {counted}")),
        "{lines:?}"
    );
    assert!(mean > 0.0 && mean.is_finite());
    assert!(lines
        .iter()
        .any(|l| l == &format!("Mean time-to-depth ratio: {mean:.2}")));
    assert!(lines.iter().any(|l| l.starts_with("Total time ratio: ")));
}

/// A bench signature as a commit message states it: the node count of `hayate bench` and, where stated, that of
/// `hayate bench --no-nnue`.
#[derive(Debug, PartialEq, Eq)]
struct Signature {
    nnue: u64,
    no_nnue: Option<u64>,
}

/// The digits at the start of `s` (after blanks) as a number, and the rest; `None` when there are none or a
/// letter, digit or hyphen follows them (the "45" of "45-ply" is no signature).
fn leading_number(s: &str) -> Option<(u64, &str)> {
    let s = s.trim_start();
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let rest = &s[end..];
    if end == 0 || rest.starts_with(|c: char| c.is_alphanumeric() || c == '-') {
        return None;
    }
    Some((s[..end].parse().ok()?, rest))
}

/// The signature that `after` (the text after "Bench:" or "Bench signature:") states: a number, then maybe
/// "(--no-nnue N)", "(--no-nnue N, unchanged)" or "(N --no-nnue)".
fn signature_after(after: &str) -> Option<Signature> {
    let (nnue, rest) = leading_number(after)?;
    let no_nnue = rest
        .trim_start()
        .strip_prefix('(')
        .and_then(|r| r.split(')').next())
        .and_then(|inner| match inner.trim_start().strip_prefix("--no-nnue") {
            Some(r) => leading_number(r).map(|(n, _)| n),
            None => leading_number(inner)
                .filter(|(_, r)| r.trim_start().starts_with("--no-nnue"))
                .map(|(n, _)| n),
        });
    Some(Signature { nnue, no_nnue })
}

/// The last signature that a commit message states, in any of the forms the history uses: "Bench signature
/// unchanged: N (--no-nnue M)", "Bench signature: N (--no-nnue M, unchanged)", "Bench: N (--no-nnue M)", any case,
/// the part in brackets optional.
fn stated_signature(message: &str) -> Option<Signature> {
    // ASCII lowering keeps every byte offset
    let lower = message.to_ascii_lowercase();
    ["bench signature unchanged:", "bench signature:", "bench:"]
        .iter()
        .flat_map(|prefix| {
            lower
                .match_indices(prefix)
                .map(move |(at, _)| (at, at + prefix.len()))
        })
        .filter_map(|(at, end)| Some((at, signature_after(&lower[end..])?)))
        .max_by_key(|(at, _)| *at)
        .map(|(_, s)| s)
}

#[test]
fn signature_statements_are_read_in_every_form() {
    let s = |nnue, no_nnue| Some(Signature { nnue, no_nnue });
    let cases = [
        (
            "x. Bench signature unchanged: 604491 (--no-nnue 713571)",
            s(604491, Some(713571)),
        ),
        (
            "No search change; bench signature unchanged: 604491 (--no-nnue 713571)",
            s(604491, Some(713571)),
        ),
        (
            "Bench signature: 604491 (--no-nnue 713571, unchanged)",
            s(604491, Some(713571)),
        ),
        (
            "Bench signature: 844410 (932202 --no-nnue)",
            s(844410, Some(932202)),
        ),
        ("Bench signature unchanged: 1373502", s(1373502, None)),
        ("a\n\nBench: 604491", s(604491, None)),
        ("Bench: 604491 (--no-nnue 713571)", s(604491, Some(713571))),
        (
            "was Bench: 1 (--no-nnue 2); now Bench: 3 (--no-nnue 4).",
            s(3, Some(4)),
        ),
        ("Bench: the 45-ply tail with one and two searchers", None),
        (
            "Bench: hayate bench --variant all --depth 8 --threads 1 -> Nodes searched: 2537381",
            None,
        ),
        ("bench: 12ms faster", None),
        ("Merge the EvalFile and XBoard option hardening", None),
    ];
    for (message, want) in cases {
        assert_eq!(stated_signature(message), want, "{message}");
    }
}

/// The newest commit of the repository this test was built from whose message states a signature (merges left
/// out): its short hash and first words, and the signature; `Err` with the reason when git or the history cannot
/// be read (a tarball, a shallow clone without one).
fn newest_stated_signature() -> Result<(String, Signature), String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let git = |args: &[&str]| -> Result<String, String> {
        let out = Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .output()
            .map_err(|e| format!("git cannot be run: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "git {}: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    };
    // a source tree unpacked inside some other repository must not be checked against that one's history
    let top = git(&["rev-parse", "--show-toplevel"])?;
    let same = |a: &Path, b: &Path| a.canonicalize().ok() == b.canonicalize().ok();
    if !same(Path::new(top.trim()), dir) {
        return Err(format!(
            "{} is not the root of a git work tree",
            dir.display()
        ));
    }
    let log = git(&["log", "--no-merges", "-z", "--format=%h%n%B"])?;
    log.split('\0')
        .filter_map(|record| {
            let (hash, message) = record.trim_start_matches('\n').split_once('\n')?;
            let signature = stated_signature(message)?;
            let first = message.lines().next().unwrap_or("");
            let subject: String = first.chars().take(80).collect();
            let more = if subject.len() < first.len() {
                "..."
            } else {
                ""
            };
            Some((format!("{hash} ({subject}{more})"), signature))
        })
        .next()
        .ok_or_else(|| "no commit message in the history states a bench signature".to_string())
}

/// The node count that `hayate bench` with `args` prints on its last line, `Bench: <nodes>`, checked against its
/// `Nodes searched:` line.
fn bench_nodes(args: &[&str]) -> u64 {
    let out = Command::new(env!("CARGO_BIN_EXE_hayate"))
        .arg("bench")
        .args(args)
        .output()
        .expect("hayate runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "hayate bench {args:?} failed: {}\n{text}",
        String::from_utf8_lossy(&out.stderr)
    );
    let last = text.lines().last().unwrap_or("");
    let nodes: u64 = last
        .strip_prefix("Bench: ")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| {
            panic!("hayate bench {args:?}: last line {last:?} is not 'Bench: <nodes>'\n{text}")
        });
    assert!(
        text.lines()
            .any(|l| l == format!("Nodes searched: {nodes}")),
        "hayate bench {args:?}: no 'Nodes searched: {nodes}' line\n{text}"
    );
    nodes
}

/// As Stockfish's CI does: the signature of the built binary (`hayate bench`, and `hayate bench --no-nnue` where
/// stated) is the one the newest commit message that states one gives. A commit that changes the search states
/// the new one ("Bench: <nodes> (--no-nnue <nodes>)"). Skipped, with a message, without git or its history.
#[test]
fn bench_signature_matches_the_newest_commit_that_states_one() {
    let (commit, stated) = match newest_stated_signature() {
        Ok(found) => found,
        Err(why) => {
            println!("bench signature not checked: {why}");
            return;
        }
    };
    let mut runs = vec![("hayate bench", &[][..], stated.nnue)];
    if let Some(n) = stated.no_nnue {
        runs.push(("hayate bench --no-nnue", &["--no-nnue"][..], n));
    }
    let wrong: Vec<String> = runs
        .into_iter()
        .filter_map(|(name, args, want)| {
            let got = bench_nodes(args);
            (got != want)
                .then(|| format!("{name} prints Bench: {got}, commit {commit} states {want}"))
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "bench signature differs from the newest commit message that states one:\n{}\n(a commit that changes \
         the search states its new signature as 'Bench: <nodes> (--no-nnue <nodes>)')",
        wrong.join("\n")
    );
}

/// `--search-params` searches with other values: the game's own values written out give the same tree, a
/// changed value another, and a name the search does not have is refused with an error naming it.
#[test]
fn bench_takes_search_params() {
    let base = ["--variant", "minishogi", "--depth", "6"];
    let plain = bench_nodes(&base);
    let with = |sp: &str| {
        let mut args = base.to_vec();
        args.extend(["--search-params", sp]);
        bench_nodes(&args)
    };
    // minishogi's own values, read from the engine so that a new tuning run cannot leave this test behind
    let own = hayate::engine::params::SearchParams::MINISHOGI;
    assert_eq!(
        with(&format!(
            "futility_base={},lmp_base={}",
            own.futility_base, own.lmp_base
        )),
        plain
    );
    assert_ne!(with("futility_base=0,lmp_base=0"), plain);
    let out = Command::new(env!("CARGO_BIN_EXE_hayate"))
        .args(["bench", "--search-params", "razor=3"])
        .output()
        .expect("hayate runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unknown search parameter 'razor'"),
        "stderr: {err}"
    );
}
