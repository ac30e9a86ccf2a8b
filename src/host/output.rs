//! The output channel of the protocol front ends: stdout carries protocol lines only, each written whole under
//! the stdout lock and flushed at once (a GUI reads line by line and must never see half a line or wait for a
//! buffer), and every line in and out is copied to the `LogFile` when one is set.

use std::fs::File;
use std::io::Write;
use std::sync::{Arc, Mutex};

/// Why a `LogFile` was not set: the path given cannot be opened as a log that never blocks the engine, or another
/// thread died holding the log (the path is told as given).
#[derive(Debug, thiserror::Error)]
pub enum LogFileError {
    #[error("log file lock poisoned")]
    Poisoned,
    #[error("cannot open LogFile '{path}': {error}")]
    Open {
        path: String,
        #[source]
        error: std::io::Error,
    },
}

/// Where protocol output goes: stdout, plus a log file when `LogFile` is set. Clones share the log file, so the
/// protocol thread and the job threads write one transcript.
#[derive(Clone, Default)]
pub struct Output {
    log: Arc<Mutex<Option<File>>>,
    /// Lines kept here instead of written to stdout: a session driven in-process (the fuzz targets).
    captured: Option<Arc<Mutex<Vec<String>>>>,
}

impl Output {
    /// An output whose lines are kept in the returned list instead of written to stdout.
    pub fn captured() -> (Output, Arc<Mutex<Vec<String>>>) {
        let lines = Arc::new(Mutex::new(Vec::new()));
        let out = Output {
            captured: Some(Arc::clone(&lines)),
            ..Output::default()
        };
        (out, lines)
    }

    pub fn send(&self, line: &str) {
        if let Some(lines) = &self.captured {
            if let Ok(mut l) = lines.lock() {
                l.push(line.to_string());
            }
            return self.log_line("<", line);
        }
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
    pub(crate) fn set_log(&self, path: &str) -> Result<(), LogFileError> {
        let mut log = self.log.lock().map_err(|_| LogFileError::Poisoned)?;
        if path.is_empty() || path == "<empty>" {
            *log = None;
            return Ok(());
        }
        let f = open_log(path).map_err(|error| LogFileError::Open {
            path: path.to_string(),
            error,
        })?;
        *log = Some(f);
        Ok(())
    }
}

/// Opens a log for writing without ever waiting: a named pipe would block the open until a reader came, and
/// every later line while its reader stalls, so only regular files and devices such as `/dev/null` are taken.
fn open_log(path: &str) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let f = options.open(path)?;
    let t = f.metadata()?.file_type();
    #[cfg(unix)]
    let device = {
        use std::os::unix::fs::FileTypeExt;
        t.is_char_device()
    };
    #[cfg(not(unix))]
    let device = false;
    if t.is_file() || device {
        Ok(f)
    } else {
        Err(std::io::Error::other(
            "not a regular file (a pipe or socket could block the engine)",
        ))
    }
}
