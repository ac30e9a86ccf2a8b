//! The flags a front end shares with a running search: stop, pondering, and the clock of the move.
//!
//! Every field is an atomic, so that the search polls them without a lock. Times are kept as ticks, nanoseconds
//! since a process-wide epoch, plus one so that 0 can stand for "never".
//!
//! The search begins the control itself (`Control::begin`, called by `Searcher::search`), and the front end only
//! sends `stop` and `ponderhit`. Both can arrive before the search thread reaches `begin` (a `go` and a `stop`
//! read one after the other while the search thread is still starting): so each is stamped with its time, and
//! `begin` keeps those stamped after the command that started the search, and clears those from before it.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

static EPOCH: OnceLock<Instant> = OnceLock::new();

/// No stop or ponderhit so far.
const NEVER: u64 = 0;

/// `t` in ticks. An instant before the epoch counts as its first tick: the epoch is fixed at the first use, so
/// nothing stamped by this module can be older than it.
fn ticks(t: Instant) -> u64 {
    let epoch = *EPOCH.get_or_init(Instant::now);
    let nanos = t.saturating_duration_since(epoch).as_nanos();
    u64::try_from(nanos).unwrap_or(u64::MAX).saturating_add(1)
}

/// Flags shared between the front end and a running search.
#[derive(Debug)]
pub struct Control {
    /// Set when the search must end (read it with `stopped`).
    stop: AtomicBool,
    /// While set, the search ignores the clock (pondering); cleared by `ponderhit` (read it with `pondering`).
    pondering: AtomicBool,
    /// When the clock started counting for this move, in ticks: the command's arrival, or the ponderhit.
    start: AtomicU64,
    /// When the front end last asked to stop, in ticks.
    stop_requested: AtomicU64,
    /// When the last ponderhit came, in ticks.
    ponderhit_at: AtomicU64,
}

impl Default for Control {
    fn default() -> Self {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            start: AtomicU64::new(ticks(Instant::now())),
            stop_requested: AtomicU64::new(NEVER),
            ponderhit_at: AtomicU64::new(NEVER),
        }
    }
}

impl Control {
    /// Starts the clock of a search whose command arrived at `start`, pondering or not. A stop or ponderhit
    /// stamped at or after `start` was meant for this search and holds; older ones belong to an earlier search
    /// and are dropped. Calling it again with the same arguments changes nothing.
    pub fn begin(&self, start: Instant, pondering: bool) {
        let t = ticks(start);
        self.start.store(t, Ordering::SeqCst);
        self.pondering.store(pondering, Ordering::SeqCst);
        self.stop.store(false, Ordering::SeqCst);
        // Each check below reads its stamp after the flags were set: a stop or ponderhit racing with `begin`
        // either stored its stamp in time to be seen here, or sets its flags after these stores.
        if pondering {
            let hit = self.ponderhit_at.load(Ordering::SeqCst);
            if hit >= t {
                self.start.store(hit, Ordering::SeqCst);
                self.pondering.store(false, Ordering::SeqCst);
            }
        }
        if self.stop_requested.load(Ordering::SeqCst) >= t {
            self.pondering.store(false, Ordering::SeqCst);
            self.stop.store(true, Ordering::SeqCst);
        }
    }

    /// The front end's stop: ends the search, pondering included, even one that has not begun yet.
    pub fn stop(&self) {
        self.stop_requested
            .store(ticks(Instant::now()), Ordering::SeqCst);
        self.pondering.store(false, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
    }

    /// The search's own stop (time, node limit, depth reached, main worker done): unstamped, so that it never
    /// carries over into the next search.
    pub(super) fn halt(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// The opponent played the move pondered on: the clock counts from now.
    pub fn ponderhit(&self) {
        let t = ticks(Instant::now());
        self.ponderhit_at.store(t, Ordering::SeqCst);
        // the new start before the flag: a poll that sees the clock running must see it start now
        self.start.store(t, Ordering::SeqCst);
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// The stop flag itself, for a solver that polls a plain flag (the tsume solver run before a search).
    pub fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }

    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }

    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Acquire)
    }

    /// Blocks while the search may not answer yet: in infinite mode or while pondering, until `stop` (or
    /// `ponderhit`, which clears pondering). Polled each millisecond, so the answer follows at once.
    pub fn wait_until_released(&self, infinite: bool) {
        while (infinite || self.pondering.load(Ordering::Relaxed))
            && !self.stop.load(Ordering::Relaxed)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Time on this move's clock.
    pub fn elapsed(&self) -> Duration {
        let now = ticks(Instant::now());
        Duration::from_nanos(now.saturating_sub(self.start.load(Ordering::Acquire)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Long enough for the clock to move on between two stamps.
    fn tick() {
        std::thread::sleep(Duration::from_millis(2));
    }

    #[test]
    fn a_stop_after_the_command_holds_when_it_comes_before_begin() {
        let c = Control::default();
        let start = Instant::now();
        c.stop();
        c.begin(start, false);
        assert!(c.stopped());
        // and again when the front end began the control itself before the search did
        c.begin(start, false);
        assert!(c.stopped());
    }

    #[test]
    fn a_stop_from_before_the_command_is_cleared() {
        let c = Control::default();
        c.stop();
        tick();
        c.begin(Instant::now(), true);
        assert!(!c.stopped());
        assert!(c.pondering());
        // the search's own stop is never stamped: it does not outlive its search
        c.halt();
        c.begin(Instant::now(), false);
        assert!(!c.stopped());
    }

    #[test]
    fn a_ponderhit_before_begin_starts_the_clock() {
        let c = Control::default();
        let start = Instant::now();
        tick();
        c.ponderhit();
        c.begin(start, true);
        assert!(!c.pondering());
        assert!(!c.stopped());
        // the clock counts from the ponderhit, not from the command
        assert!(c.elapsed() < Instant::now() - start);
        // an old ponderhit does not end the next ponder search
        tick();
        c.begin(Instant::now(), true);
        assert!(c.pondering());
    }

    #[test]
    fn a_stop_racing_with_begin_is_never_lost() {
        for _ in 0..200 {
            let c = Control::default();
            c.stop();
            tick_nanos();
            let start = Instant::now();
            std::thread::scope(|s| {
                s.spawn(|| c.begin(start, true));
                c.stop();
            });
            assert!(c.stopped());
            assert!(!c.pondering());
        }
    }

    /// Lets the monotonic clock advance past the last stamp without the cost of a sleep.
    fn tick_nanos() {
        let t = Instant::now();
        while Instant::now() == t {}
    }

    #[test]
    fn the_clock_runs_from_start() {
        let c = Control::default();
        let start = Instant::now();
        c.begin(start, false);
        tick();
        let e = c.elapsed();
        assert!(
            e >= Duration::from_millis(2) && e <= start.elapsed(),
            "{e:?}"
        );
    }
}
