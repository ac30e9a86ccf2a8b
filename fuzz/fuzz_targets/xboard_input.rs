//! Arbitrary lines through the XBoard (CECP) front end, in-process, its protocol lines captured.
//!
//! Run with `cargo +nightly fuzz run xboard_input -- -dict=fuzz/xboard.dict` from the repository root. Every
//! search is held to depth 1 (`sd 1` before each line; the commands that set other limits, `analyze`, and the
//! ones that would read or write files are left out), and each line's search is waited for, so that the
//! position between two lines is the session's alone. Besides "never panics", it checks:
//! - a line answered with `Error (...)` or `Illegal move` leaves the position as it was;
//! - every line the session writes is one line (no embedded line break) of at most a few kilobytes;
//! - the position shown by `d` is a FEN the session's own `setboard` takes back to the same position.
#![no_main]

use std::ops::ControlFlow;

use hayate::host::Output;
use hayate::xboard::Session;
use libfuzzer_sys::fuzz_target;

/// Commands not fuzzed: time and depth limits (each search must stay short), analysis (it never ends by itself),
/// and options that name files (the net and log loaders have their own tests and target).
fn skipped(line: &str) -> bool {
    let first = line.split_whitespace().next().unwrap_or("");
    matches!(
        first,
        "sd" | "st" | "level" | "time" | "otim" | "analyze" | "cores" | "memory"
    ) || (first == "option"
        && (line.contains("File") || line.contains("Hash") || line.contains("Threads")))
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (out, lines) = Output::captured();
    let mut s = Session::with_output(out);
    let _ = s.feed("protover 2");
    for line in text.lines().take(24) {
        if skipped(line) || line.contains('\r') {
            continue;
        }
        let _ = s.feed("sd 1");
        let before = s.fen();
        let seen = lines.lock().map(|l| l.len()).unwrap_or(0);
        let flow = s.feed(line);
        s.settle();
        let replies: Vec<String> = lines.lock().map(|l| l[seen..].to_vec()).unwrap_or_default();
        for r in &replies {
            assert!(
                !r.contains('\n') && r.len() < 8192,
                "reply to {line:?}: {r:?}"
            );
        }
        let refused = replies
            .iter()
            .any(|r| r.starts_with("Error (") || r.starts_with("Illegal move"));
        if refused {
            assert_eq!(
                s.fen(),
                before,
                "a refused line changed the position: {line:?} -> {replies:?}"
            );
        }
        if flow.is_break() {
            return;
        }
        // what the session shows, it takes back
        let fen = s.fen();
        let _ = s.feed("force");
        let seen = lines.lock().map(|l| l.len()).unwrap_or(0);
        let _ = s.feed(&format!("setboard {fen}"));
        let replies: Vec<String> = lines.lock().map(|l| l[seen..].to_vec()).unwrap_or_default();
        assert!(replies.is_empty(), "setboard {fen}: {replies:?}");
        assert_eq!(s.fen(), fen, "setboard of the shown FEN");
    }
    let _: ControlFlow<()> = s.feed("quit");
});
