//! One engine process on a thread of its own, so that the socket loop never waits on an engine: the session
//! sends it jobs (a search, a mate search), and its lines come back on the session's event channel, tagged
//! with the job's id so that the answer to a search the page has since abandoned is recognised and dropped.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crate::host::engine_process::{EngineProcess, EngineSpec, Polled, StartError};
use crate::GameKind;

/// Time for the USI handshake.
const START_TIMEOUT: Duration = Duration::from_secs(20);
/// How long an engine may take to answer `stop` before it counts as hung.
const STOP_TIMEOUT: Duration = Duration::from_secs(10);
/// How often a searching worker looks for a `stop`.
const POLL: Duration = Duration::from_millis(20);

/// Work for the engine: send `commands`, then forward lines until one starting with `until`.
#[derive(Debug)]
pub enum Job {
    Run {
        id: u64,
        commands: Vec<String>,
        until: &'static str,
    },
    Stop,
}

/// Why an engine's worker is gone; the page is told, and may restart the engine.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("{label}: {error}")]
    Start { label: String, error: StartError },
    /// With the last lines it wrote on stderr.
    #[error("the engine exited ({0})")]
    Exited(String),
    #[error("the engine did not answer stop")]
    NoStop,
}

/// What an engine did, for the session.
#[derive(Debug)]
pub enum Event {
    /// An `info` line with a score or a PV.
    Info { id: u64, line: String },
    /// The line that ended the job (`bestmove ...`, `checkmate ...`).
    Done { id: u64, line: String },
    /// The engine could not start, exited or hung; the worker is gone.
    Failed(EngineError),
}

/// A handle on the thread; dropping it ends the engine and waits until its process is gone, so that a page
/// restarting an engine never has two of its processes at once.
pub struct Worker {
    pub kind: GameKind,
    /// `None` only while dropping: the closed channel is what tells an idle thread to quit.
    jobs: Option<Sender<Job>>,
    /// Ends the engine's waits at once: the handshake, a search that has not answered yet.
    cancel: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    /// Starts the engine for `kind` on a new thread; its events go to `events` tagged with `index`.
    pub fn start(
        spec: EngineSpec,
        kind: GameKind,
        index: usize,
        events: Sender<(usize, Event)>,
    ) -> Worker {
        let (tx, rx) = mpsc::channel();
        let label = spec.name.clone().unwrap_or_else(|| spec.fallback_name());
        let cancel = Arc::new(AtomicBool::new(false));
        let cancelled = Arc::clone(&cancel);
        let thread = thread::spawn(move || {
            let send = |e: Event| {
                // a worker being dropped was ended on purpose: its failure is no news for the page, and
                // the engine that replaces it shares its index
                if !cancelled.load(Ordering::Relaxed) {
                    let _ = events.send((index, e));
                }
            };
            let started = EngineProcess::start_cancellable(
                &spec,
                kind,
                &label,
                START_TIMEOUT,
                Some(Arc::clone(&cancelled)),
            );
            match started {
                Ok(engine) => {
                    if let Err(e) = serve(engine, &rx, &send) {
                        send(Event::Failed(e));
                    }
                }
                Err(error) => send(Event::Failed(EngineError::Start { label, error })),
            }
        });
        Worker {
            kind,
            jobs: Some(tx),
            cancel,
            thread: Some(thread),
        }
    }

    pub fn send(&self, job: Job) {
        if let Some(jobs) = &self.jobs {
            let _ = jobs.send(job);
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
        self.jobs = None;
        if let Some(t) = self.thread.take() {
            // the thread quits the engine (a short grace, then a kill) and waits for the process
            if t.join().is_err() {
                log::error!("gui: an engine's worker thread panicked");
            }
        }
    }
}

/// Runs jobs until the handle is dropped; Err when the engine failed.
fn serve(
    mut engine: EngineProcess,
    jobs: &Receiver<Job>,
    send: &dyn Fn(Event),
) -> Result<(), EngineError> {
    let mut queue = VecDeque::new();
    loop {
        let job = match queue.pop_front() {
            Some(j) => j,
            None => match jobs.recv() {
                Ok(j) => j,
                Err(_) => {
                    engine.quit(Duration::from_millis(500));
                    return Ok(());
                }
            },
        };
        let Job::Run {
            id,
            commands,
            until,
        } = job
        else {
            continue;
        };
        for c in &commands {
            engine.send(c);
        }
        let mut stopped_at: Option<Instant> = None;
        loop {
            match engine.next_event(Instant::now() + POLL) {
                Polled::Line(line, _) => {
                    let first = line.split_whitespace().next().unwrap_or("");
                    if first == until {
                        send(Event::Done { id, line });
                        break;
                    }
                    if first == "info" && (line.contains(" pv ") || line.contains(" score ")) {
                        send(Event::Info { id, line });
                    }
                }
                Polled::Eof => {
                    return Err(EngineError::Exited(engine.stderr_tail()));
                }
                Polled::Timeout | Polled::Interrupted => {}
            }
            loop {
                match jobs.try_recv() {
                    Ok(Job::Stop) => {
                        if stopped_at.is_none() {
                            engine.send("stop");
                            stopped_at = Some(Instant::now());
                        }
                    }
                    Ok(j) => queue.push_back(j),
                    Err(TryRecvError::Empty) => break,
                    Err(TryRecvError::Disconnected) => {
                        engine.kill();
                        return Ok(());
                    }
                }
            }
            if stopped_at.is_some_and(|t| t.elapsed() > STOP_TIMEOUT) {
                engine.kill();
                return Err(EngineError::NoStop);
            }
        }
    }
}
