//! `hayate tune`: SPSA game pairs of Hayate against itself, the values written after each pair.

use super::*;

/// Runs `hayate tune` with `args`; panics past `limit`.
fn run_tune(args: &[&str], limit: Duration) -> Run {
    let mut cmd = Command::new(HAYATE);
    cmd.arg("tune").args(args);
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let start = Instant::now();
    let out = cmd.output().expect("run hayate tune");
    assert!(
        start.elapsed() < limit,
        "hayate tune took {:?}",
        start.elapsed()
    );
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code(),
        secs: start.elapsed().as_secs_f64(),
    }
}

/// The values of a `name=value` list (`Pair` lines and `params.txt`).
fn values(words: &str) -> Vec<(String, f64)> {
    words
        .split([' ', ','])
        .filter(|w| !w.is_empty())
        .map(|w| {
            let (n, v) = w.split_once('=').unwrap();
            (n.to_string(), v.parse().unwrap())
        })
        .collect()
}

/// Six minishogi pairs, two at a time: a line per pair with its two games' result, the values inside their
/// ranges, the final line adding up the pairs and giving the option's value, which params.txt holds too.
#[test]
fn tune_plays_pairs_and_writes_the_values() {
    let dir = scratch("tune");
    let engine = real("tuned");
    let mut a: Vec<&str> = vec!["--engine"];
    a.extend(
        engine
            .iter()
            .filter(|w| !w.starts_with("name="))
            .map(String::as_str),
    );
    let out = dir.join("run");
    a.extend([
        "--variant",
        "minishogi",
        "--param",
        "razor_base",
        "--param",
        "lmr_cut_node=2:0:4",
        "--pairs",
        "6",
        "--concurrency",
        "2",
        "--tc",
        "nodes=1000",
        "--random-plies",
        "2",
        "--seed",
        "5",
        "--out",
        out.to_str().unwrap(),
    ]);
    let r = run_tune(&a, Duration::from_secs(120));
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 7, "{}", r.stdout);
    let mut pairs = Vec::new();
    let mut total = [0u32; 3];
    for l in &lines[..6] {
        let (head, vals) = l.split_once(" | ").unwrap();
        let w: Vec<&str> = head.split_whitespace().collect();
        // Pair k/6: plus W a D b L c
        assert_eq!(
            (w[0], w[2], w[3], w[5], w[7]),
            ("Pair", "plus", "W", "D", "L"),
            "{l}"
        );
        let (k, n) = w[1].trim_end_matches(':').split_once('/').unwrap();
        assert_eq!(n, "6");
        pairs.push(k.parse::<usize>().unwrap());
        let wdl: Vec<u32> = [w[4], w[6], w[8]]
            .iter()
            .map(|x| x.parse().unwrap())
            .collect();
        assert_eq!(wdl.iter().sum::<u32>(), 2, "{l}");
        for i in 0..3 {
            total[i] += wdl[i];
        }
        let v = values(vals);
        assert_eq!(v[0].0, "razor_base");
        assert!((150.0..=600.0).contains(&v[0].1), "{l}");
        assert_eq!(v[1].0, "lmr_cut_node");
        assert!((0.0..=4.0).contains(&v[1].1), "{l}");
    }
    pairs.sort_unstable();
    assert_eq!(pairs, [1, 2, 3, 4, 5, 6]);
    let want_head = format!(
        "Tuned after 6 pairs (plus W {} D {} L {}): option.SearchParams=",
        total[0], total[1], total[2]
    );
    let last = lines[6];
    assert!(last.starts_with(&want_head), "{last}");
    let option = &last[want_head.len()..];
    let v = values(option);
    let names: Vec<&str> = v.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["razor_base", "lmr_cut_node"], "{last}");
    let params = std::fs::read_to_string(out.join("params.txt")).unwrap();
    assert_eq!(
        params.lines().next(),
        Some(format!("SearchParams={option}").as_str())
    );
    let log = std::fs::read_to_string(out.join("spsa.txt")).unwrap();
    assert_eq!(log.lines().count(), 6);
}

/// A parameter the engine does not have, or a range that leaves out the start, stops the run before any game,
/// with one error line.
#[test]
fn tune_refuses_bad_parameters() {
    let engine = format!("cmd={HAYATE}");
    for (param, want) in [
        (
            "razor",
            "unknown search parameter 'razor' (one of: razor_depth, ",
        ),
        (
            "razor_base:400:600",
            "error: razor_base: the range 400..600 is empty or does not hold the start 225",
        ),
    ] {
        let r = run_tune(
            &[
                "--engine",
                &engine,
                "--param",
                param,
                "--tc",
                "nodes=100",
                "--pairs",
                "1",
            ],
            Duration::from_secs(10),
        );
        assert_ne!(r.code, Some(0), "{param}");
        assert!(r.stderr.contains(want), "{param}: {}", r.stderr);
        assert_eq!(r.stdout, "", "{param}");
    }
}
