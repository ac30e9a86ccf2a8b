//! Time management: how long this move may take (`budget`, from the clock and the options), and whether to
//! start another iteration (`Worker::time_to_stop`).

use std::time::Duration;

use super::driver::Worker;
use super::{Limits, INFINITE, MATE, MATE_BOUND};
use crate::engine::eval::GameEval;
use crate::rules::piece::Color;

/// The clock as the front end received it (milliseconds).
#[derive(Clone, Copy, Debug, Default)]
pub struct Clock {
    /// Remaining main time, indexed by colour (Black = btime, White = wtime).
    pub time: [u64; 2],
    pub inc: [u64; 2],
    pub byoyomi: u64,
}

/// Time-management settings (milliseconds, and percent for the slow mover).
#[derive(Clone, Copy, Debug)]
pub struct TimeOptions {
    pub network_delay: u64,
    pub minimum_thinking: u64,
    pub slow_mover: u64,
}

impl Default for TimeOptions {
    fn default() -> Self {
        TimeOptions {
            network_delay: 40,
            minimum_thinking: 20,
            slow_mover: 100,
        }
    }
}

/// Any time given in milliseconds (clock, increment, byoyomi, movetime, options) counts as at most this, about
/// 35 years: far beyond any game, and small enough that the budget's sums and products, and the time manager's
/// scaling of the budget, cannot overflow whatever a front end passes on.
pub const MAX_TIME_MS: u64 = 1 << 40;

/// The optimum and maximum time for this move, from the clock and the options (None: no time limit).
pub fn budget(
    side: Color,
    limits: &Limits,
    opts: &TimeOptions,
) -> (Option<Duration>, Option<Duration>) {
    if limits.infinite {
        return (None, None);
    }
    let cap = |ms: u64| ms.min(MAX_TIME_MS);
    let delay = cap(opts.network_delay);
    let minimum_thinking = cap(opts.minimum_thinking);
    if let Some(mt) = limits.movetime {
        let t = Duration::from_millis(cap(mt).saturating_sub(delay).max(1));
        return (Some(t), Some(t));
    }
    let Some(clock) = limits.clock else {
        return (None, None);
    };
    let left = cap(clock.time[side.index()]);
    let inc = cap(clock.inc[side.index()]);
    let byo = cap(clock.byoyomi);
    // the most we may use without losing on time (and no budget beyond the cap)
    let hard = left
        .saturating_add(byo)
        .saturating_sub(delay)
        .clamp(1, MAX_TIME_MS);
    // With an increment and no byoyomi, a reserve stays on the clock: once the main time is spent the engine lives
    // on the increment, and spending all but `NetworkDelay` of what is left each move loses on time as soon as
    // the machine is loaded and the reply comes late (seen in 2 s + 100 ms games on a busy 2-core machine). The
    // increment refills what a move spends, so the clock settles near the reserve plus the increment.
    let usable = if byo == 0 {
        let reserve = delay.saturating_mul(4).max(inc).min(left / 2);
        left.saturating_sub(reserve).max(minimum_thinking)
    } else {
        hard
    };
    // spread the main time over the moves expected to remain, then add the increment and most of the byoyomi
    let moves_to_go = 40u64;
    let mut optimum = (left / moves_to_go).saturating_add(inc.saturating_mul(9) / 10);
    optimum = optimum.saturating_mul(opts.slow_mover) / 100;
    if byo > 0 {
        // once the main time is short, the byoyomi is the budget: spend it nearly fully
        optimum = optimum.saturating_add(byo.saturating_sub(delay));
    }
    let optimum = optimum.max(minimum_thinking).min(hard).min(usable);
    let maximum = optimum
        .saturating_mul(4)
        .min(hard)
        .min(usable)
        .min(if byo > 0 {
            (left / 4).saturating_add(byo.saturating_sub(delay))
        } else {
            (left / 5).saturating_add(inc)
        })
        .max(optimum.min(hard));
    (
        Some(Duration::from_millis(optimum)),
        Some(Duration::from_millis(maximum.max(1))),
    )
}

/// Whether the move's time is lost when unused: `go movetime`, or byoyomi once the main time is spent.
pub(super) fn per_move_only(limits: &Limits, side: Color) -> bool {
    limits.movetime.is_some()
        || limits
            .clock
            .is_some_and(|c| c.byoyomi > 0 && c.time[side.index()] == 0)
}

impl<V: GameEval> Worker<'_, V> {
    /// Whether the main worker should not start another iteration: a mate is proven, or the time spent makes
    /// finishing the next one within the budget unlikely (each iteration costs a few times the one before).
    pub(super) fn time_to_stop(&self, depth: i32, best_move_changes: i32) -> bool {
        if self.sh.control.pondering() {
            return false;
        }
        let best = &self.root_moves[0];
        // a found mate needs no deeper search unless asked
        if best.score.abs() >= MATE_BOUND
            && depth as i64 >= 2 * (MATE - best.score.abs()) as i64
            && self.sh.limits.depth.is_none()
            && !self.sh.limits.infinite
        {
            return true;
        }
        // With a mate by checks proven before the search, a shorter mate is what the search looks for: at twice
        // the proven length, as for a mate it found itself, none shorter is left to find.
        if self
            .sh
            .proven_mate
            .is_some_and(|plies| depth as i64 >= 2 * plies as i64)
        {
            return true;
        }
        let Some(optimum) = self.sh.optimum else {
            return false;
        };
        // A time per move that is lost when unused — `go movetime`, or byoyomi once the main time is spent — is
        // searched to its end: the hard limit stops the iteration, and what the unfinished iteration found still
        // counts (a move that beat the best one there was searched with an open window, and is played). Stopping
        // when the next iteration looked unlikely to finish left up to two fifths of a movetime unused (9x9 bench
        // positions at `go movetime 10000`: about 6 s of the 10); YaneuraOu and Stockfish spend it all.
        if per_move_only(self.sh.limits, self.sh.root_side) {
            return false;
        }
        // One legal move: no need to think when the time saved is kept. Where it would be lost, the search
        // goes on as for any move, so that a mate behind the forced move is found and reported at its length.
        if self.root_moves.len() == 1 && self.sh.limits.searchmoves.is_empty() {
            return true;
        }
        // spend more when the best move keeps changing or the score falls
        let falling = best.prev_score != -INFINITE && best.score + 30 < best.prev_score;
        let mut factor = 100 + 40 * best_move_changes.min(3) as u32;
        if falling {
            factor += 50;
        }
        let target = optimum * factor / 100;
        let target = self.sh.maximum.map_or(target, |m| target.min(m));
        self.sh.control.elapsed() >= target * 6 / 10
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::search::{Clock, Searcher};
    use crate::rules::position::Position;
    use crate::Minishogi;

    fn ms(d: Option<Duration>) -> u64 {
        d.map_or(0, |d| d.as_millis() as u64)
    }

    fn fischer(left: u64, inc: u64) -> (u64, u64) {
        let limits = Limits {
            clock: Some(Clock {
                time: [left, left],
                inc: [inc, inc],
                byoyomi: 0,
            }),
            ..Limits::default()
        };
        let (o, m) = budget(Color::Black, &limits, &TimeOptions::default());
        (ms(o), ms(m))
    }

    #[test]
    fn increment_play_keeps_a_reserve() {
        // plenty of time: a fortieth of it plus most of the increment
        assert_eq!(fischer(2000, 100), (140, 500));
        // main time nearly spent: a reserve of 4 x NetworkDelay (160 ms), or half of what is left, stays
        assert_eq!(fischer(400, 100), (100, 180));
        assert_eq!(fischer(260, 100), (96, 130));
        assert_eq!(fischer(137, 100), (69, 69));
        // living on the increment, the clock climbs back to about 400 ms and each move spends about 100 ms
        let mut left = 137;
        for _ in 0..200 {
            let (o, m) = fischer(left, 100);
            assert!(left - m >= 160.min(left / 2), "{left} {m}");
            left = left - o + 100;
        }
        assert!((390..=400).contains(&left), "{left}");
    }

    #[test]
    fn byoyomi_is_spent_nearly_fully() {
        let limits = Limits {
            clock: Some(Clock {
                time: [0, 0],
                inc: [0, 0],
                byoyomi: 1000,
            }),
            ..Limits::default()
        };
        let (o, m) = budget(Color::White, &limits, &TimeOptions::default());
        assert_eq!((ms(o), ms(m)), (960, 960));
    }

    /// `go movetime` is spent in full: the search does not stop before the movetime less `NetworkDelay` (a
    /// loaded machine can only make it later, so this cannot fail by chance).
    #[test]
    fn movetime_is_spent_fully() {
        let searcher = Searcher::new(1, 1);
        let limits = Limits {
            movetime: Some(400),
            ..Limits::default()
        };
        let opts = TimeOptions::default();
        let start = std::time::Instant::now();
        let r = searcher.search(&Position::<Minishogi>::startpos(), &limits, &opts, &|_| {});
        let spent = start.elapsed().as_millis() as u64;
        assert!(r.best.is_some());
        assert!(spent >= 400 - opts.network_delay, "{spent} ms");
    }

    /// Absurd times (a `go btime 9223372036854775807 ...` taken as it comes) neither overflow (this runs with
    /// overflow checks) nor give a budget beyond the cap.
    #[test]
    fn absurd_times_saturate() {
        let huge = [u64::MAX, i64::MAX as u64, MAX_TIME_MS + 1];
        let options = [
            TimeOptions::default(),
            TimeOptions {
                network_delay: u64::MAX,
                minimum_thinking: u64::MAX,
                slow_mover: u64::MAX,
            },
        ];
        let cap = Duration::from_millis(MAX_TIME_MS);
        for &t in &huge {
            for opts in &options {
                for byoyomi in [0, t] {
                    for clock in [
                        Clock {
                            time: [t, t],
                            inc: [t, t],
                            byoyomi,
                        },
                        Clock {
                            time: [t, 0],
                            inc: [0, t],
                            byoyomi,
                        },
                    ] {
                        let limits = Limits {
                            clock: Some(clock),
                            ..Limits::default()
                        };
                        for side in [Color::Black, Color::White] {
                            let (o, m) = budget(side, &limits, opts);
                            let (o, m) = (o.unwrap(), m.unwrap());
                            assert!(o <= m && m <= cap, "{clock:?} {opts:?}: {o:?} {m:?}");
                        }
                    }
                }
                let limits = Limits {
                    movetime: Some(t),
                    ..Limits::default()
                };
                let (o, m) = budget(Color::Black, &limits, opts);
                assert!(o == m && m.unwrap() <= cap);
            }
        }
        // the search scales the budget as it runs: an absurd clock must not overflow there either
        let searcher = Searcher::new(1, 1);
        let limits = Limits {
            depth: Some(3),
            multipv: 1,
            clock: Some(Clock {
                time: [u64::MAX; 2],
                inc: [u64::MAX; 2],
                byoyomi: u64::MAX,
            }),
            ..Limits::default()
        };
        let r = searcher.search(
            &Position::<Minishogi>::startpos(),
            &limits,
            &TimeOptions::default(),
            &|_| {},
        );
        assert_eq!(r.depth, 3);
    }
}
