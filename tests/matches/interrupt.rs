//! Stopping: SIGINT ends the match with a summary and no engine left; a killed host takes its engines along.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use hayate::matches::stats::Wdl;

use crate::{common_tc, fake, records, scratch, wdl_of, HAYATE, SHOGI_CYCLE};

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
