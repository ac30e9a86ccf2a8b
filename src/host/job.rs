//! Work done off the protocol thread: a search, `go perft` or `bench`, each one job on a thread of its own that
//! the engine tracks, so that the protocol thread stays free to answer `isready` at once and to end the job on
//! `stop`, `gameover`, `quit` or end of input.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;

use crate::engine::search::{Control, Searcher};

use super::output::Output;

/// Asks a job to stop, for work that the engine's search [`Control`] does not reach: the flag that `go perft`
/// polls, and the searcher of a `bench`, which has its own table and control.
#[derive(Clone, Default)]
pub(crate) struct Halt {
    flag: Arc<AtomicBool>,
    control: Option<Arc<Control>>,
}

impl Halt {
    /// A halt that also stops searches run with `control`.
    pub(crate) fn with_control(control: Arc<Control>) -> Halt {
        Halt {
            flag: Arc::default(),
            control: Some(control),
        }
    }

    /// The flag first, then the searcher's stop: a job that makes each search's limits (their start) before it
    /// reads the flag cannot miss a stop that comes in between, since that stop is stamped after the start.
    pub(crate) fn halt(&self) {
        self.flag.store(true, Ordering::SeqCst);
        if let Some(c) = &self.control {
            c.stop();
        }
    }

    pub(crate) fn requested(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }

    /// The flag itself, for code that polls an `AtomicBool` (perft).
    pub(crate) fn flag(&self) -> &AtomicBool {
        &self.flag
    }
}

/// How a job writes: its lines go out as they come, and its last line through [`Reporter::finish`].
#[derive(Clone)]
pub(crate) struct Reporter {
    out: Output,
    done: Arc<AtomicBool>,
}

impl Reporter {
    pub(crate) fn send(&self, line: &str) {
        self.out.send(line);
    }

    /// Writes the job's last line. The job counts as done just before it, so that a command the GUI sends as
    /// soon as it reads the line (the next `go`, a `setoption`) finds the engine idle instead of being refused.
    pub(crate) fn finish(&self, line: &str) {
        self.done.store(true, Ordering::SeqCst);
        self.out.send(line);
    }
}

/// A running job.
pub(crate) struct Job {
    pub(crate) handle: JoinHandle<()>,
    done: Arc<AtomicBool>,
    /// What runs, for the refusals of commands that must wait for it: "search", "perft", "bench".
    pub(crate) what: &'static str,
    halt: Halt,
}

impl Job {
    /// Starts `body` on a thread named `usi-<what>`.
    pub(crate) fn spawn(
        what: &'static str,
        out: &Output,
        halt: Halt,
        body: impl FnOnce(Reporter) + Send + 'static,
    ) -> std::io::Result<Job> {
        let done = Arc::new(AtomicBool::new(false));
        let reporter = Reporter {
            out: out.clone(),
            done: Arc::clone(&done),
        };
        let handle = std::thread::Builder::new()
            .name(format!("usi-{what}"))
            .spawn(move || body(reporter))?;
        Ok(Job {
            handle,
            done,
            what,
            halt,
        })
    }

    /// Whether the job has written its last line (or ended without one).
    pub(crate) fn is_done(&self) -> bool {
        self.handle.is_finished() || self.done.load(Ordering::SeqCst)
    }

    pub(crate) fn halt(&self) {
        self.halt.halt();
    }
}

/// Locks the searcher. A search that panicked leaves the lock poisoned; the table (plain atomics) and the pool
/// are still sound, and refusing every later `go` would lose the game, so the engine goes on with them.
pub(crate) fn lock_searcher(searcher: &Mutex<Searcher>) -> MutexGuard<'_, Searcher> {
    searcher.lock().unwrap_or_else(|e| {
        log::warn!("a search panicked earlier; going on with its table");
        searcher.clear_poison();
        e.into_inner()
    })
}
