//! The engine process in a CECP session: the real `hayate` binary with piped stdin and stdout, driven as XBoard
//! drives it. `ping N` / `pong N` is the barrier: the engine answers it only after everything sent before.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use crate::QUICK;

pub struct Engine {
    child: Child,
    /// Lines for the writer thread; dropping it closes the engine's stdin.
    stdin: Option<Sender<String>>,
    rx: Receiver<String>,
    /// The conversation so far, for failure messages.
    transcript: Vec<String>,
    pings: u32,
}

impl Engine {
    /// `hayate` with these arguments, nothing sent yet.
    pub fn spawn(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hayate"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("cannot start the hayate binary");
        let mut stdin = child.stdin.take().expect("no stdin pipe");
        let stdout = child.stdout.take().expect("no stdout pipe");
        let (wtx, wrx) = mpsc::channel::<String>();
        std::thread::spawn(move || {
            for line in wrx {
                if stdin.write_all(line.as_bytes()).is_err() || stdin.flush().is_err() {
                    return;
                }
            }
        });
        let (rtx, rrx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if rtx.send(line).is_err() {
                    return;
                }
            }
        });
        Engine {
            child,
            stdin: Some(wtx),
            rx: rrx,
            transcript: Vec::new(),
            pings: 0,
        }
    }

    /// A session opened as XBoard opens it (`xboard`, `protover 2`), its features read, one thread and a
    /// small table (`cores 1`, `memory 16`), as after `new`.
    pub fn new() -> Engine {
        let mut e = Engine::spawn(&[]);
        e.send("xboard");
        e.send("protover 2");
        let f = e.recv(QUICK, "the features");
        assert!(f.starts_with("feature ") && f.ends_with(" done=1"), "{f}");
        e.send("memory 16");
        e.send("cores 1");
        e.send("new");
        e.sync();
        e
    }

    pub fn fail(&self, msg: &str) -> ! {
        panic!("{msg}\n--- transcript ---\n{}", self.transcript.join("\n"));
    }

    pub fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        if let Some(tx) = &self.stdin {
            let _ = tx.send(format!("{line}\n"));
        }
    }

    /// Closes the engine's stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.transcript.push("> <EOF>".into());
        self.stdin = None;
    }

    pub fn try_recv(&mut self, timeout: Duration) -> Option<String> {
        match self.rx.recv_timeout(timeout) {
            Ok(l) => {
                self.transcript.push(format!("< {l}"));
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    pub fn recv(&mut self, timeout: Duration, waiting_for: &str) -> String {
        self.try_recv(timeout)
            .unwrap_or_else(|| self.fail(&format!("no line within {timeout:?} ({waiting_for})")))
    }

    /// Reads until a line satisfies `pred`; returns it and the lines before it.
    pub fn wait_for(
        &mut self,
        timeout: Duration,
        what: &str,
        pred: impl Fn(&str) -> bool,
    ) -> (String, Vec<String>) {
        let deadline = Instant::now() + timeout;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let l = self.recv(left, what);
            if pred(&l) {
                return (l, before);
            }
            before.push(l);
        }
    }

    /// `ping N` and the lines that come before `pong N`.
    pub fn sync(&mut self) -> Vec<String> {
        self.sync_within(QUICK)
    }

    pub fn sync_within(&mut self, timeout: Duration) -> Vec<String> {
        self.pings += 1;
        let pong = format!("pong {}", self.pings);
        self.send(&format!("ping {}", self.pings));
        self.wait_for(timeout, &pong, |l| l == pong).1
    }

    /// Sends a line that must get no reply at all.
    pub fn accept(&mut self, line: &str) {
        self.send(line);
        let out = self.sync();
        if !out.is_empty() {
            self.fail(&format!("'{line}' was answered with {out:?}"));
        }
    }

    /// Sends a line that must get exactly one reply; returns it.
    pub fn one_reply(&mut self, line: &str) -> String {
        self.send(line);
        let out = self.sync();
        if out.len() != 1 {
            self.fail(&format!("'{line}' got {out:?}, not one line"));
        }
        out[0].clone()
    }

    /// The engine's position, from the `d` command: its XBoard FEN.
    pub fn fen(&mut self) -> String {
        let l = self.one_reply("d");
        match l.strip_prefix("# ") {
            Some(f) => f.to_string(),
            None => self.fail(&format!("'d' answered '{l}'")),
        }
    }

    /// Waits for the engine's `move ...` and returns the move; the lines before it come back too.
    pub fn engine_move(&mut self, timeout: Duration) -> (String, Vec<String>) {
        let (l, before) = self.wait_for(timeout, "move", |l| l.starts_with("move "));
        (l["move ".len()..].to_string(), before)
    }

    pub fn assert_silent(&mut self, d: Duration, context: &str) {
        if let Some(l) = self.try_recv(d) {
            self.fail(&format!("unexpected '{l}' {context}"));
        }
    }

    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(s)) = self.child.try_wait() {
                return Some(s);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        None
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
