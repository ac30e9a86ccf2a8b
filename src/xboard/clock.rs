//! XBoard's time controls (`level`, `st`, `sd`, `time`, `otim`) turned into the search's [`Limits`].
//!
//! `level MPS BASE INC` gives BASE minutes (or `MIN:SEC`) and INC seconds per move, with MPS moves per session
//! (0: the whole game); `st SECONDS` a fixed time per move; `sd DEPTH` a depth limit on top of either; `time` and
//! `otim` the engine's and the opponent's clocks in centiseconds before each move. The search's time manager
//! spreads the clock over the moves to come as in sudden death; under a session time control that is safe (it
//! never plans past the clock) and at worst thrifty, since the clock is refilled after MPS moves.

use std::time::Instant;

use crate::engine::search::{Clock, Limits, MAX_TIME_MS};
use crate::host::truncate;
use crate::rules::piece::Color;

/// The time control of the game and the latest clock readings.
#[derive(Clone, Debug)]
pub struct TimeControl {
    per_move: PerMove,
    depth: Option<i32>,
    /// The engine's and the opponent's clocks (ms), from `time` and `otim`.
    own: Option<u64>,
    other: Option<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PerMove {
    /// A clock of `base` ms plus `inc` ms per move (`level`).
    Clock { base: u64, inc: u64 },
    /// Exactly this many ms per move (`st`).
    Fixed(u64),
}

impl Default for TimeControl {
    /// XBoard's own default, 40 moves in 5 minutes, until the GUI says otherwise.
    fn default() -> Self {
        TimeControl {
            per_move: PerMove::Clock {
                base: 5 * 60 * 1000,
                inc: 0,
            },
            depth: None,
            own: None,
            other: None,
        }
    }
}

/// Why a clock command (`level`, `st`, `sd`, `time`, `otim`) was refused; a word quoted is cut to 40 characters.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    #[error("level needs MPS BASE INC")]
    LevelWords,
    #[error("moves per session '{0}' is not a number")]
    MovesPerSession(String),
    #[error("st needs the seconds per move")]
    StWords,
    #[error("depth '{0}' is not in 1..100")]
    Depth(String),
    #[error("sd needs a depth")]
    SdWords,
    #[error("needs the clock in centiseconds")]
    ClockWords,
    #[error("'{0}' is not a number")]
    Centiseconds(String),
    #[error("time '{0}' is not MIN or MIN:SEC")]
    Minutes(String),
    #[error("'{0}' is not a number of seconds")]
    Seconds(String),
}

impl TimeControl {
    /// `level MPS BASE INC`.
    pub fn set_level(&mut self, args: &[&str]) -> Result<(), ClockError> {
        let [mps, base, inc] = args else {
            return Err(ClockError::LevelWords);
        };
        mps.parse::<u32>()
            .map_err(|_| ClockError::MovesPerSession(truncate(mps)))?;
        let base = minutes_seconds(base)?;
        let inc = seconds(inc)?;
        self.per_move = PerMove::Clock { base, inc };
        self.own = None;
        self.other = None;
        Ok(())
    }

    /// `st SECONDS`.
    pub fn set_fixed(&mut self, args: &[&str]) -> Result<(), ClockError> {
        let [s] = args else {
            return Err(ClockError::StWords);
        };
        self.per_move = PerMove::Fixed(seconds(s)?.max(1));
        Ok(())
    }

    /// `sd DEPTH`.
    pub fn set_depth(&mut self, args: &[&str]) -> Result<(), ClockError> {
        match args {
            [d] => match d.parse::<i32>() {
                Ok(n) if (1..=100).contains(&n) => {
                    self.depth = Some(n);
                    Ok(())
                }
                _ => Err(ClockError::Depth(truncate(d))),
            },
            _ => Err(ClockError::SdWords),
        }
    }

    /// `new` removes the depth limit.
    pub fn clear_depth(&mut self) {
        self.depth = None;
    }

    /// `time N` (own) or `otim N` (opponent): centiseconds, negative once a flag has fallen.
    pub fn set_clock(&mut self, own: bool, args: &[&str]) -> Result<(), ClockError> {
        let [n] = args else {
            return Err(ClockError::ClockWords);
        };
        let cs: i64 = n
            .parse()
            .map_err(|_| ClockError::Centiseconds(truncate(n)))?;
        let ms = (cs.max(0) as u64).saturating_mul(10).min(MAX_TIME_MS);
        if own {
            self.own = Some(ms);
        } else {
            self.other = Some(ms);
        }
        Ok(())
    }

    /// The limits of a search for `us`, the clock of this move starting at `start`.
    pub fn limits(&self, us: Color, start: Instant) -> Limits {
        let mut limits = Limits {
            depth: self.depth,
            start,
            ..Limits::default()
        };
        match self.per_move {
            PerMove::Fixed(ms) => limits.movetime = Some(ms),
            PerMove::Clock { base, inc } => {
                let mut clock = Clock::default();
                clock.time[us.index()] = self.own.unwrap_or(base);
                clock.time[(!us).index()] = self.other.unwrap_or(base);
                clock.inc = [inc, inc];
                limits.clock = Some(clock);
            }
        }
        limits
    }
}

/// `MIN`, `MIN:SEC` or a fraction of minutes, in ms.
fn minutes_seconds(s: &str) -> Result<u64, ClockError> {
    let bad = || ClockError::Minutes(truncate(s));
    let ms = match s.split_once(':') {
        Some((m, sec)) => {
            let m: u64 = m.parse().map_err(|_| bad())?;
            let sec: f64 = sec.parse().map_err(|_| bad())?;
            if !(0.0..60.0).contains(&sec) {
                return Err(bad());
            }
            m.saturating_mul(60_000)
                .saturating_add((sec * 1000.0) as u64)
        }
        None => {
            let m: f64 = s.parse().map_err(|_| bad())?;
            if !m.is_finite() || m < 0.0 {
                return Err(bad());
            }
            (m * 60_000.0).min(MAX_TIME_MS as f64) as u64
        }
    };
    Ok(ms.min(MAX_TIME_MS))
}

/// Seconds, possibly fractional, in ms.
fn seconds(s: &str) -> Result<u64, ClockError> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok((x * 1000.0).min(MAX_TIME_MS as f64) as u64),
        _ => Err(ClockError::Seconds(truncate(s))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_and_clocks_make_the_search_clock() {
        let mut tc = TimeControl::default();
        tc.set_level(&["0", "2", "12"]).unwrap();
        let l = tc.limits(Color::White, Instant::now());
        let c = l.clock.unwrap();
        assert_eq!(
            (c.time, c.inc, l.movetime, l.depth),
            ([120_000, 120_000], [12_000, 12_000], None, None)
        );
        tc.set_clock(true, &["1234"]).unwrap();
        tc.set_clock(false, &["-50"]).unwrap();
        tc.set_depth(&["7"]).unwrap();
        let l = tc.limits(Color::White, Instant::now());
        // gote (XBoard's black) is the engine here: its clock is the White entry
        assert_eq!(l.clock.unwrap().time, [0, 12_340]);
        assert_eq!(l.depth, Some(7));
        tc.set_level(&["40", "0:30", "0.5"]).unwrap();
        let c = tc.limits(Color::Black, Instant::now()).clock.unwrap();
        assert_eq!((c.time, c.inc), ([30_000, 30_000], [500, 500]));
        tc.set_fixed(&["3"]).unwrap();
        assert_eq!(tc.limits(Color::Black, Instant::now()).movetime, Some(3000));
    }

    #[test]
    fn bad_arguments_change_nothing() {
        let mut tc = TimeControl::default();
        let before = format!("{tc:?}");
        for args in [
            &["40", "5"][..],
            &["x", "5", "0"],
            &["40", "5:x", "0"],
            &["40", "5:60", "0"],
            &["40", "5", "-1"],
        ] {
            assert!(tc.set_level(args).is_err(), "{args:?}");
        }
        assert!(tc.set_fixed(&[]).is_err());
        assert!(tc.set_fixed(&["nan"]).is_err());
        assert!(tc.set_depth(&["0"]).is_err());
        assert!(tc.set_depth(&["x"]).is_err());
        assert!(tc.set_clock(true, &["1.5"]).is_err());
        assert!(tc.set_clock(true, &[]).is_err());
        assert_eq!(format!("{tc:?}"), before);
    }
}
