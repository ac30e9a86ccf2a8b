//! A USI engine process seen from the match host.
//!
//! Nothing here blocks without a deadline: a writer thread feeds the engine's stdin from a channel (so a full pipe
//! of an engine that stopped reading never blocks the host), a reader thread turns stdout into timestamped lines on
//! a channel that the host reads with timeouts, and a third thread reads and discards stderr (keeping its last few
//! lines for error messages) so that an engine that floods stderr never blocks on a full pipe.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use super::interrupt;
use super::time_control::{TimeControl, TimeControlError};
use crate::GameKind;

/// Longest stdout or stderr line kept; the rest of a longer line is read and dropped.
const MAX_LINE: usize = 64 * 1024;
/// How many stderr lines an engine keeps for error messages.
const STDERR_TAIL: usize = 8;

/// How to start one engine: `cmd=<path> [arg=<a> ...] [dir=<d>] [name=<n>] [tc=<spec>] [option.<Name>=<value> ...]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineSpec {
    pub cmd: String,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    pub name: Option<String>,
    /// This engine's own time control, overriding the match's `--tc`.
    pub tc: Option<TimeControl>,
    /// `setoption name <Name> value <value>`, in the order given.
    pub options: Vec<(String, String)>,
}

/// Why the words of one `--engine` make no engine.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineSpecError {
    #[error("--engine: '{0}' is not key=value")]
    NotKeyValue(String),
    /// `tc=` with a time control `TimeControl::parse` refused.
    #[error("--engine tc: {0}")]
    TimeControl(#[from] TimeControlError),
    #[error("--engine: unknown key '{0}'")]
    UnknownKey(String),
    #[error("--engine needs cmd=<path>")]
    NoCommand,
}

impl EngineSpec {
    /// Parses the `key=value` words of one `--engine`.
    pub fn parse(words: &[String]) -> Result<Self, EngineSpecError> {
        let mut spec = EngineSpec::default();
        for w in words {
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| EngineSpecError::NotKeyValue(w.clone()))?;
            match k {
                "cmd" => spec.cmd = v.to_string(),
                "arg" => spec.args.push(v.to_string()),
                "dir" => spec.dir = Some(PathBuf::from(v)),
                "name" => spec.name = Some(v.to_string()),
                "tc" => spec.tc = Some(TimeControl::parse(v)?),
                _ => match k.strip_prefix("option.") {
                    Some(name) if !name.is_empty() && !name.contains(char::is_whitespace) => {
                        spec.options.push((name.to_string(), v.to_string()))
                    }
                    _ => return Err(EngineSpecError::UnknownKey(k.to_string())),
                },
            }
        }
        if spec.cmd.is_empty() {
            return Err(EngineSpecError::NoCommand);
        }
        Ok(spec)
    }

    /// A short name when neither `name=` nor the engine's `id name` gives one: the command's file name.
    pub fn fallback_name(&self) -> String {
        std::path::Path::new(&self.cmd)
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.cmd.clone())
    }
}

/// How an engine failed to answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The process ended (its stdout closed).
    Crash,
    /// No answer within the time allowed.
    Hang,
    /// The match is being stopped (SIGINT or SIGTERM): the engine was not given its chance.
    Interrupted,
}

/// Why an engine could not be started.
#[derive(Debug)]
pub enum StartError {
    /// The process could not be created at all.
    Spawn(io::Error),
    /// It started but did not complete the handshake.
    Handshake(Failure),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::Spawn(e) => write!(f, "cannot start: {e}"),
            StartError::Handshake(Failure::Crash) => write!(f, "exited during the USI handshake"),
            StartError::Handshake(Failure::Hang) => {
                write!(f, "did not complete the USI handshake in time")
            }
            StartError::Handshake(Failure::Interrupted) => {
                write!(f, "the match was interrupted during the USI handshake")
            }
        }
    }
}

/// What the reader thread delivers.
#[derive(Debug)]
enum Event {
    /// A line of stdout (without its line end) and when it arrived.
    Line(String, Instant),
    /// Stdout closed: the engine exited.
    Eof,
}

/// What a wait for the engine's next line found.
#[derive(Debug)]
pub enum Polled {
    /// A line of stdout (without its line end) and when it arrived.
    Line(String, Instant),
    /// Stdout closed: the engine exited.
    Eof,
    /// The deadline passed first.
    Timeout,
    /// The match is being stopped.
    Interrupted,
}

/// A running engine process.
pub struct EngineProcess {
    child: Child,
    input: Sender<String>,
    events: Receiver<Event>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    /// The `id name` the engine gave, if any.
    pub id_name: Option<String>,
    /// The option names the engine listed after `usi`.
    pub advertised: Vec<String>,
    /// A label for log lines.
    label: String,
    /// False once stdout closed or the process was killed.
    alive: bool,
    /// Set by the owner to abandon waits on this engine (a GUI page restarting it), as a match's interrupt
    /// does for all engines.
    cancel: Option<Arc<AtomicBool>>,
}

/// Reads one line of at most `cap` bytes (the rest of a longer line is consumed and dropped). Returns false at end
/// of input with nothing read.
fn read_line_capped<R: BufRead>(r: &mut R, cap: usize, out: &mut Vec<u8>) -> io::Result<bool> {
    out.clear();
    let mut any = false;
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(any);
        }
        any = true;
        let room = cap.saturating_sub(out.len());
        match buf.iter().position(|&b| b == b'\n') {
            Some(i) => {
                out.extend_from_slice(&buf[..i.min(room)]);
                r.consume(i + 1);
                return Ok(true);
            }
            None => {
                let n = buf.len();
                out.extend_from_slice(&buf[..n.min(room)]);
                r.consume(n);
            }
        }
    }
}

fn line_text(bytes: &[u8]) -> String {
    let s = String::from_utf8_lossy(bytes);
    s.trim_end_matches(['\r', '\n']).to_string()
}

fn spawn_writer(mut stdin: ChildStdin, label: String) -> Sender<String> {
    let (tx, rx) = mpsc::channel::<String>();
    let _ = thread::Builder::new()
        .name(format!("{label} stdin"))
        .spawn(move || {
            for line in rx {
                if stdin
                    .write_all(line.as_bytes())
                    .and_then(|_| stdin.write_all(b"\n"))
                    .and_then(|_| stdin.flush())
                    .is_err()
                {
                    break;
                }
            }
        });
    tx
}

fn spawn_reader(stdout: impl Read + Send + 'static, label: String) -> Receiver<Event> {
    let (tx, rx) = mpsc::channel();
    let _ = thread::Builder::new()
        .name(format!("{label} stdout"))
        .spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            while let Ok(true) = read_line_capped(&mut r, MAX_LINE, &mut buf) {
                let line = line_text(&buf);
                log::debug!("{label} < {line}");
                if tx.send(Event::Line(line, Instant::now())).is_err() {
                    return;
                }
            }
            let _ = tx.send(Event::Eof);
        });
    rx
}

fn spawn_stderr_drain(
    stderr: impl Read + Send + 'static,
    label: String,
) -> Arc<Mutex<VecDeque<String>>> {
    let tail = Arc::new(Mutex::new(VecDeque::new()));
    let keep = Arc::clone(&tail);
    let _ = thread::Builder::new()
        .name(format!("{label} stderr"))
        .spawn(move || {
            let mut r = BufReader::new(stderr);
            let mut buf = Vec::new();
            while let Ok(true) = read_line_capped(&mut r, 200, &mut buf) {
                if let Ok(mut t) = keep.lock() {
                    if t.len() == STDERR_TAIL {
                        t.pop_front();
                    }
                    t.push_back(line_text(&buf));
                }
            }
        });
    tail
}

impl EngineProcess {
    /// Starts the process and completes the handshake: `usi`/`usiok`, the variant options, the options of the
    /// spec, `isready`/`readyok`, all within `timeout`.
    ///
    /// For a game other than standard shogi both `USI_Variant` and `UCI_Variant` are set (the second is the name
    /// Fairy-Stockfish uses); for standard shogi only those the engine lists.
    pub fn start(
        spec: &EngineSpec,
        variant: GameKind,
        label: &str,
        timeout: Duration,
    ) -> Result<EngineProcess, StartError> {
        EngineProcess::start_cancellable(spec, variant, label, timeout, None)
    }

    /// [`EngineProcess::start`], whose waits (the handshake's and every later one) end as interrupted once `cancel`
    /// is set.
    pub fn start_cancellable(
        spec: &EngineSpec,
        variant: GameKind,
        label: &str,
        timeout: Duration,
        cancel: Option<Arc<AtomicBool>>,
    ) -> Result<EngineProcess, StartError> {
        let mut cmd = Command::new(&spec.cmd);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(d) = &spec.dir {
            cmd.current_dir(d);
        }
        interrupt::guard_child(&mut cmd);
        let mut child = cmd.spawn().map_err(StartError::Spawn)?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(StartError::Spawn(io::Error::other("no pipes")));
        };
        let mut engine = EngineProcess {
            input: spawn_writer(stdin, label.to_string()),
            events: spawn_reader(stdout, label.to_string()),
            stderr_tail: spawn_stderr_drain(stderr, label.to_string()),
            child,
            id_name: None,
            advertised: Vec::new(),
            label: label.to_string(),
            alive: true,
            cancel,
        };
        let deadline = Instant::now() + timeout;
        engine.send("usi");
        let lines = engine
            .wait_for("usiok", deadline)
            .map_err(StartError::Handshake)?;
        for l in &lines {
            if let Some(rest) = l.strip_prefix("id name ") {
                engine.id_name = Some(rest.trim().to_string());
            } else if let Some(rest) = l.strip_prefix("option name ") {
                if let Some(name) = rest.split_whitespace().next() {
                    engine.advertised.push(name.to_string());
                }
            }
        }
        for name in ["USI_Variant", "UCI_Variant"] {
            if variant != GameKind::Shogi || engine.advertises(name) {
                engine.send(&format!("setoption name {name} value {variant}"));
            }
        }
        for (name, value) in &spec.options {
            engine.send(&format!("setoption name {name} value {value}"));
        }
        engine.sync(deadline).map_err(StartError::Handshake)?;
        Ok(engine)
    }

    /// Whether the engine listed an option of this name (case-insensitive).
    pub fn advertises(&self, name: &str) -> bool {
        self.advertised.iter().any(|a| a.eq_ignore_ascii_case(name))
    }

    pub fn is_alive(&self) -> bool {
        self.alive
    }

    /// Sends one line; never blocks (a dead engine's input is dropped).
    pub fn send(&self, line: &str) {
        log::debug!("{} > {line}", self.label);
        let _ = self.input.send(line.to_string());
    }

    /// The next line before `deadline`. Waits in slices of at most [`interrupt::POLL`] so that a stop request
    /// is seen within that time.
    pub fn next_event(&mut self, deadline: Instant) -> Polled {
        loop {
            if interrupt::requested() || self.cancelled() {
                return Polled::Interrupted;
            }
            if !self.alive {
                return Polled::Eof;
            }
            let wait = deadline
                .saturating_duration_since(Instant::now())
                .min(interrupt::POLL);
            match self.events.recv_timeout(wait) {
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    self.alive = false;
                    return Polled::Eof;
                }
                Ok(Event::Line(l, at)) => return Polled::Line(l, at),
                Err(RecvTimeoutError::Timeout) => {
                    if Instant::now() >= deadline {
                        return Polled::Timeout;
                    }
                }
            }
        }
    }

    fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// Reads lines until one whose first word is `word`; returns the lines before it.
    pub fn wait_for(&mut self, word: &str, deadline: Instant) -> Result<Vec<String>, Failure> {
        let mut lines = Vec::new();
        loop {
            match self.next_event(deadline) {
                Polled::Line(l, _) => {
                    if l.split_whitespace().next() == Some(word) {
                        return Ok(lines);
                    }
                    if lines.len() < 10_000 {
                        lines.push(l);
                    }
                }
                Polled::Eof => return Err(Failure::Crash),
                Polled::Timeout => return Err(Failure::Hang),
                Polled::Interrupted => return Err(Failure::Interrupted),
            }
        }
    }

    /// `isready` and wait for `readyok`, dropping whatever came before it.
    pub fn sync(&mut self, deadline: Instant) -> Result<(), Failure> {
        self.send("isready");
        self.wait_for("readyok", deadline).map(|_| ())
    }

    /// Readies the engine for a new game: `isready`/`readyok`, then `usinewgame`.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), Failure> {
        self.sync(Instant::now() + timeout)?;
        self.send("usinewgame");
        Ok(())
    }

    /// The last lines the engine wrote to stderr, joined.
    pub fn stderr_tail(&self) -> String {
        self.stderr_tail
            .lock()
            .map(|t| t.iter().cloned().collect::<Vec<_>>().join(" | "))
            .unwrap_or_default()
    }

    /// Kills the process at once.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.alive = false;
    }

    /// Sends `quit`, waits up to `grace` for the process to exit (not at all when the match is being stopped),
    /// then kills it.
    pub fn quit(mut self, grace: Duration) {
        self.send("quit");
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline && !interrupt::requested() {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => break,
                Ok(None) => thread::sleep(Duration::from_millis(5)),
            }
        }
        self.kill();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_parsing() {
        let w = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let s = EngineSpec::parse(&w(&[
            "cmd=/bin/eng",
            "name=A",
            "option.USI_Hash=16",
            "option.Threads=1",
            "arg=-x",
        ]))
        .unwrap();
        assert_eq!(s.cmd, "/bin/eng");
        assert_eq!(s.name.as_deref(), Some("A"));
        assert_eq!(s.args, vec!["-x"]);
        assert_eq!(
            s.options,
            vec![
                ("USI_Hash".to_string(), "16".to_string()),
                ("Threads".to_string(), "1".to_string())
            ]
        );
        assert_eq!(s.fallback_name(), "eng");
        let err = |words: &[&str]| EngineSpec::parse(&w(words)).unwrap_err().to_string();
        assert_eq!(err(&["name=A"]), "--engine needs cmd=<path>");
        assert_eq!(
            err(&["cmd=x", "bogus"]),
            "--engine: 'bogus' is not key=value"
        );
        assert_eq!(
            err(&["cmd=x", "option.=3"]),
            "--engine: unknown key 'option.'"
        );
        // a value may hold '=' and spaces
        let s = EngineSpec::parse(&w(&["cmd=x", "option.EvalDir=a=b c"])).unwrap();
        assert_eq!(s.options[0].1, "a=b c");
        assert_eq!(s.tc, None);
        let s = EngineSpec::parse(&w(&["cmd=x", "tc=byoyomi=300"])).unwrap();
        assert_eq!(
            s.tc,
            Some(TimeControl::Clock {
                base_ms: 0,
                inc_ms: 0,
                byoyomi_ms: 300
            })
        );
        assert!(matches!(
            EngineSpec::parse(&w(&["cmd=x", "tc=3s"])),
            Err(EngineSpecError::TimeControl(_))
        ));
    }

    #[test]
    fn capped_lines() {
        let data = b"short\nxxxxxxxxxxxxxxxxxxxx\r\nend".to_vec();
        let mut r = BufReader::with_capacity(4, &data[..]);
        let mut buf = Vec::new();
        assert!(read_line_capped(&mut r, 8, &mut buf).unwrap());
        assert_eq!(line_text(&buf), "short");
        assert!(read_line_capped(&mut r, 8, &mut buf).unwrap());
        assert_eq!(line_text(&buf), "xxxxxxxx");
        assert!(read_line_capped(&mut r, 8, &mut buf).unwrap());
        assert_eq!(line_text(&buf), "end");
        assert!(!read_line_capped(&mut r, 8, &mut buf).unwrap());
    }
}
