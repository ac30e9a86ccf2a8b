//! Both players' clocks under a time control of `hayate match`'s syntax. Time is measured here, on the
//! server, for the page's player and the engine alike: the page only draws what the server counts.

use std::time::Instant;

use crate::host::time_control::TimeControl;

/// Grace beyond a side's time before it loses: the socket and the engine's pipes add a few milliseconds to
/// every move, and a loss on time should not come from them (the same margin as `hayate match --tolerance`).
const TOLERANCE_MS: u64 = 200;

/// The clocks of one game.
#[derive(Clone, Debug)]
pub struct Clocks {
    pub tc: TimeControl,
    /// Main time left, sente's first.
    left_ms: [u64; 2],
    /// The side whose clock runs, since when.
    running: Option<(usize, Instant)>,
}

impl Clocks {
    pub fn new(tc: TimeControl) -> Clocks {
        let base = tc.base_ms();
        Clocks {
            tc,
            left_ms: [base, base],
            running: None,
        }
    }

    fn byoyomi_ms(&self) -> u64 {
        match self.tc {
            TimeControl::Clock { byoyomi_ms, .. } => byoyomi_ms,
            _ => 0,
        }
    }

    /// Starts `side`'s clock (0 sente, 1 gote), stopping nothing: call [`Clocks::stop`] first.
    pub fn start(&mut self, side: usize) {
        if self.tc.has_clock() {
            self.running = Some((side, Instant::now()));
        }
    }

    /// Stops the running clock after a move; false when that side ran out of time (main time plus byoyomi).
    pub fn stop(&mut self) -> bool {
        let Some((side, since)) = self.running.take() else {
            return true;
        };
        let used = since.elapsed().as_millis() as u64;
        let left = self.left_ms[side];
        if used > left + self.byoyomi_ms() + TOLERANCE_MS {
            self.left_ms[side] = 0;
            return false;
        }
        let inc = match self.tc {
            TimeControl::Clock { inc_ms, .. } => inc_ms,
            _ => 0,
        };
        self.left_ms[side] = left.saturating_sub(used) + inc;
        true
    }

    /// The side whose time ran out while its clock runs.
    pub fn flagged(&self) -> Option<usize> {
        let (side, since) = self.running?;
        let used = since.elapsed().as_millis() as u64;
        (used > self.left_ms[side] + self.byoyomi_ms() + TOLERANCE_MS).then_some(side)
    }

    /// Main time left now, the running clock's elapsed time taken off.
    pub fn now_ms(&self) -> [u64; 2] {
        let mut left = self.left_ms;
        if let Some((side, since)) = self.running {
            left[side] = left[side].saturating_sub(since.elapsed().as_millis() as u64);
        }
        left
    }

    pub fn running_side(&self) -> Option<usize> {
        self.running.map(|(s, _)| s)
    }

    pub fn byoyomi(&self) -> u64 {
        self.byoyomi_ms()
    }

    /// The `go` command for the side to move (`black_to_move`), with both sides' main time.
    pub fn go_command(&self) -> String {
        match self.tc {
            TimeControl::Clock {
                inc_ms, byoyomi_ms, ..
            } => {
                let [b, w] = self.left_ms;
                if byoyomi_ms > 0 {
                    format!("go btime {b} wtime {w} byoyomi {byoyomi_ms}")
                } else {
                    format!("go btime {b} wtime {w} binc {inc_ms} winc {inc_ms}")
                }
            }
            TimeControl::MoveTime(ms) => format!("go movetime {ms}"),
            TimeControl::Nodes(n) => format!("go nodes {n}"),
            TimeControl::Depth(d) => format!("go depth {d}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_commands_and_increments() {
        let mut c = Clocks::new(TimeControl::parse("60000+2000").unwrap());
        assert_eq!(
            c.go_command(),
            "go btime 60000 wtime 60000 binc 2000 winc 2000"
        );
        c.start(0);
        assert!(c.stop());
        // the move took under a second: the increment more than makes up for it
        assert!(c.now_ms()[0] > 61_000);
        let c = Clocks::new(TimeControl::parse("byoyomi=1000").unwrap());
        assert_eq!(c.go_command(), "go btime 0 wtime 0 byoyomi 1000");
        assert_eq!(
            Clocks::new(TimeControl::parse("nodes=500").unwrap()).go_command(),
            "go nodes 500"
        );
    }
}
