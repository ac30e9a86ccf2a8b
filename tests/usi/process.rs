//! The engine process: the real `hayate` binary with piped stdin and stdout, driven as a GUI drives it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use crate::legality::check_bestmove;
use crate::{QUICK, SEARCH};

/// One line of engine output and when the reader thread received it.
pub struct Line {
    pub text: String,
    pub at: Instant,
}

pub struct Engine {
    child: Child,
    /// Bytes for the writer thread; dropping it closes the engine's stdin.
    stdin: Option<Sender<Vec<u8>>>,
    rx: Receiver<Line>,
    /// The conversation so far, for failure messages.
    transcript: Vec<String>,
    /// Send `stop` after each `bestmove` or `checkmate`; see [`Engine::settle`].
    pub settle: bool,
}

impl Engine {
    /// A bare engine, straight after start-up.
    pub fn raw() -> Engine {
        Self::raw_in(None)
    }

    pub fn raw_in(dir: Option<&std::path::Path>) -> Engine {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_hayate"));
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        if let Some(d) = dir {
            cmd.current_dir(d);
        }
        let mut child = cmd.spawn().expect("cannot start the hayate binary");
        let mut stdin = child.stdin.take().expect("no stdin pipe");
        let stdout = child.stdout.take().expect("no stdout pipe");

        let (wtx, wrx) = mpsc::channel::<Vec<u8>>();
        std::thread::spawn(move || {
            for bytes in wrx {
                if stdin.write_all(&bytes).is_err() || stdin.flush().is_err() {
                    return;
                }
            }
            // the sender is gone: stdin closes here
        });

        let (rtx, rrx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut buf = Vec::new();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {}
                }
                let at = Instant::now();
                if buf.last() == Some(&b'\n') {
                    buf.pop();
                }
                let text = match String::from_utf8(buf) {
                    Ok(s) => s,
                    Err(e) => format!("<<NOT UTF-8: {:?}>>", String::from_utf8_lossy(e.as_bytes())),
                };
                if rtx.send(Line { text, at }).is_err() {
                    return;
                }
            }
        });
        Engine {
            child,
            stdin: Some(wtx),
            rx: rrx,
            transcript: Vec::new(),
            settle: false,
        }
    }

    /// An engine with one search thread and a 16 MB table, ready.
    pub fn new() -> Engine {
        Self::with_threads(1)
    }

    pub fn with_threads(threads: usize) -> Engine {
        let mut e = Engine::raw();
        e.send(&format!("setoption name Threads value {threads}"));
        e.send("setoption name USI_Hash value 16");
        let extra = e.sync();
        assert!(
            extra.is_empty(),
            "unexpected replies to the set-up: {extra:?}"
        );
        e
    }

    pub fn fail(&self, msg: &str) -> ! {
        let tail: Vec<&String> = self.transcript.iter().rev().take(60).collect();
        let mut s = String::new();
        for l in tail.into_iter().rev() {
            s.push_str("    ");
            s.push_str(l);
            s.push('\n');
        }
        panic!("{msg}\n  last lines of the conversation (> sent, < received):\n{s}");
    }

    /// Writes bytes to the engine's stdin as they are; returns the time just before they were handed on.
    pub fn send_raw(&mut self, bytes: &[u8]) -> Instant {
        let shown: String = String::from_utf8_lossy(&bytes[..bytes.len().min(120)]).into_owned();
        self.transcript.push(format!(
            "> {shown:?}{}",
            if bytes.len() > 120 { "..." } else { "" }
        ));
        let t = Instant::now();
        if let Some(tx) = &self.stdin {
            let _ = tx.send(bytes.to_vec());
        }
        t
    }

    /// Writes one line (a newline is added).
    pub fn send(&mut self, line: &str) -> Instant {
        self.transcript.push(format!("> {line}"));
        let t = Instant::now();
        if let Some(tx) = &self.stdin {
            let _ = tx.send(format!("{line}\n").into_bytes());
        }
        t
    }

    /// Closes stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.transcript.push("> <EOF>".into());
        self.stdin = None;
    }

    /// The next line, or None after `timeout` or at end of output.
    pub fn try_recv(&mut self, timeout: Duration) -> Option<Line> {
        match self.rx.recv_timeout(timeout) {
            Ok(l) => {
                self.transcript.push(format!("< {}", l.text));
                if l.text.starts_with("<<NOT UTF-8") {
                    self.fail("the engine wrote a line that is not UTF-8");
                }
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// The next line; fails the test after `timeout`.
    pub fn recv(&mut self, timeout: Duration, waiting_for: &str) -> Line {
        match self.try_recv(timeout) {
            Some(l) => l,
            None => self.fail(&format!(
                "nothing within {timeout:?} while waiting for {waiting_for}"
            )),
        }
    }

    /// Reads until a line satisfies `pred` (within `timeout` in all); returns it and the lines before it.
    pub fn wait_for(
        &mut self,
        timeout: Duration,
        waiting_for: &str,
        pred: impl Fn(&str) -> bool,
    ) -> (Line, Vec<String>) {
        let deadline = Instant::now() + timeout;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let l = self.recv(left, waiting_for);
            if pred(&l.text) {
                return (l, before);
            }
            before.push(l.text);
        }
    }

    /// Sends `isready` and returns everything the engine wrote before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.sync_within(QUICK)
    }

    pub fn sync_within(&mut self, timeout: Duration) -> Vec<String> {
        self.send("isready");
        self.wait_for(timeout, "readyok", |l| l == "readyok").1
    }

    /// Fails if the engine writes anything within `d`.
    pub fn assert_silent(&mut self, d: Duration, context: &str) {
        if let Some(l) = self.try_recv(d) {
            self.fail(&format!("{context}: unexpected output '{}'", l.text));
        }
    }

    /// Fails if a `bestmove` arrives within `d`; other lines (search info) are fine.
    pub fn assert_no_bestmove(&mut self, d: Duration, context: &str) {
        let deadline = Instant::now() + d;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return;
            }
            match self.try_recv(left) {
                Some(l) if l.text.starts_with("bestmove") || l.text.starts_with("checkmate") => {
                    self.fail(&format!("{context}: '{}' came too early", l.text))
                }
                Some(_) => {}
                None => return,
            }
        }
    }

    /// After a bad input: `isready` must show exactly one `info string error:` line before `readyok`.
    pub fn expect_one_error(&mut self, input: &str) -> String {
        let lines = self.sync();
        if lines.len() != 1 || !lines[0].starts_with("info string error: ") {
            self.fail(&format!(
                "'{input}': expected exactly one 'info string error: ...' line, got {lines:?}"
            ));
        }
        lines[0].clone()
    }

    /// Sends a bad line; expects exactly one error line for it.
    pub fn reject(&mut self, line: &str) -> String {
        self.send(line);
        self.expect_one_error(line)
    }

    /// Sends a line that needs no reply; expects none.
    pub fn accept(&mut self, line: &str) {
        self.send(line);
        let lines = self.sync();
        if !lines.is_empty() {
            self.fail(&format!("'{line}': expected no reply, got {lines:?}"));
        }
    }

    /// The engine's current position, from the `info string sfen ...` line of `d`.
    pub fn sfen(&mut self) -> String {
        self.send("d");
        // during a search its own info lines (depth, progress) may come between those of `d`
        let lines: Vec<String> = self
            .sync()
            .into_iter()
            .filter(|l| !l.starts_with("info ") || l.starts_with("info string "))
            .collect();
        let sfens: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info string sfen "))
            .collect();
        if sfens.len() != 1 || lines.iter().any(|l| !l.starts_with("info string ")) {
            self.fail(&format!(
                "'d' should print 'info string' lines with one sfen line, got {lines:?}"
            ));
        }
        sfens[0]["info string sfen ".len()..].to_string()
    }

    /// Optionally sends `stop` after a final line (off by default): `stop` after a finished search writes
    /// nothing, and `a_go_sent_right_after_bestmove_is_accepted` checks that the engine needs no such help.
    pub fn settle(&mut self) {
        if self.settle {
            self.send("stop");
        }
    }

    /// Waits for `bestmove`; before it only `info` lines that are not errors may come.
    pub fn bestmove(&mut self, timeout: Duration) -> (Line, Vec<String>) {
        let (l, before) = self.wait_for(timeout, "bestmove", |l| l.starts_with("bestmove"));
        self.settle();
        if let Some(b) = before
            .iter()
            .find(|b| !b.starts_with("info ") || b.starts_with("info string error"))
        {
            self.fail(&format!("unexpected line '{b}' before bestmove"));
        }
        (l, before)
    }

    /// Runs `go` in the engine's current position (read with `d`) and checks that the best move is legal there.
    pub fn go_legal(&mut self, go: &str) -> String {
        let sfen = self.sfen();
        self.send(go);
        let (l, _) = self.bestmove(SEARCH);
        if let Err(e) = check_bestmove(&sfen, &l.text) {
            self.fail(&format!("'{go}' in {sfen}: {e}"));
        }
        l.text
    }

    /// Waits up to `timeout` for the process to end.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Ok(Some(s)) = self.child.try_wait() {
                return Some(s);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // end of input makes the engine stop and exit; one that does not within two seconds is killed
        self.stdin = None;
        if self.wait_exit(Duration::from_secs(2)).is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
