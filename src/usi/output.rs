//! The USI output channel: stdout carries protocol lines only, each written whole under the stdout lock and
//! flushed at once (a GUI reads line by line and must never see half a line or wait for a buffer), and every line
//! in and out is copied to the `LogFile` when one is set.

use std::fs::File;
use std::io::Write;
use std::sync::{Arc, Mutex};

/// Where protocol output goes: stdout, plus a log file when `LogFile` is set. Clones share the log file, so the
/// protocol thread and the job threads write one transcript.
#[derive(Clone, Default)]
pub struct Output {
    log: Arc<Mutex<Option<File>>>,
}

impl Output {
    pub fn send(&self, line: &str) {
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
        drop(out);
        self.log_line("<", line);
    }

    /// `info string error: ...`: the one reply to input the engine cannot act on.
    pub fn error(&self, msg: &str) {
        self.send(&format!("info string error: {msg}"));
    }

    /// Copies a line to the log file, marked `>` for input and `<` for output.
    pub(crate) fn log_line(&self, dir: &str, line: &str) {
        if let Ok(mut log) = self.log.lock() {
            if let Some(f) = log.as_mut() {
                let _ = writeln!(f, "{dir} {line}");
            }
        }
    }

    /// Starts logging to `path` (truncating it), or stops for an empty path or `<empty>`.
    pub(crate) fn set_log(&self, path: &str) -> Result<(), String> {
        let mut log = self
            .log
            .lock()
            .map_err(|_| "log file lock poisoned".to_string())?;
        if path.is_empty() || path == "<empty>" {
            *log = None;
            return Ok(());
        }
        match File::create(path) {
            Ok(f) => {
                *log = Some(f);
                Ok(())
            }
            Err(e) => Err(format!("cannot open LogFile '{path}': {e}")),
        }
    }
}
