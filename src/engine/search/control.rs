//! The flags a front end shares with a running search: stop, pondering, and the clock of the move.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Flags shared between the front end and a running search.
#[derive(Debug)]
pub struct Control {
    pub stop: AtomicBool,
    /// While set, the search ignores the clock (pondering); cleared by `ponderhit`.
    pub pondering: AtomicBool,
    /// When the clock started counting for this move (reset on `ponderhit`).
    pub start: Mutex<Instant>,
}

impl Default for Control {
    fn default() -> Self {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            start: Mutex::new(Instant::now()),
        }
    }
}

impl Control {
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }
    pub fn ponderhit(&self) {
        if let Ok(mut s) = self.start.lock() {
            *s = Instant::now();
        }
        self.pondering.store(false, Ordering::SeqCst);
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

    pub(super) fn elapsed(&self) -> Duration {
        self.start.lock().map(|s| s.elapsed()).unwrap_or_default()
    }
}
