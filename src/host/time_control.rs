//! Time controls: parsing `--tc`/`tc=`, and the `go` command each engine gets under its own control with both
//! sides' clocks.

use std::time::Duration;

use crate::rules::truncate;

/// Why a time control was refused; each names the control as written (cut to 40 characters, as the word in it).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    #[error("'{spec}': '{word}' is not a whole number of {unit}")]
    NotANumber {
        spec: String,
        word: String,
        unit: &'static str,
    },
    #[error("'{spec}': the {what} must be above 0")]
    Zero { spec: String, what: &'static str },
    #[error("'{spec}': depth {depth} is too deep")]
    TooDeep { spec: String, depth: u64 },
    #[error("'{0}': after '/' only byoyomi=<ms> may follow")]
    AfterSlash(String),
    #[error("'{0}': an increment and a byoyomi together are not supported")]
    IncrementAndByoyomi(String),
    #[error("'{0}': the time control gives no time")]
    NoTime(String),
}

/// A time control, all times in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A clock: main time, then a Fischer increment or a byoyomi per move (not both). `byoyomi=<b>`,
    /// `<base>+<inc>`, `<base>` (sudden death) or `<base>/byoyomi=<b>`.
    Clock {
        base_ms: u64,
        inc_ms: u64,
        byoyomi_ms: u64,
    },
    /// `movetime=<ms>`: `go movetime`, a fixed time for every move.
    MoveTime(u64),
    /// `nodes=<n>`: `go nodes`, no clock.
    Nodes(u64),
    /// `depth=<n>`: `go depth`, no clock.
    Depth(u32),
}

impl TimeControl {
    /// Parses one of `byoyomi=<ms>`, `<base>+<inc>`, `<base>`, `<base>/byoyomi=<ms>`, `movetime=<ms>`,
    /// `nodes=<n>`, `depth=<n>`.
    pub fn parse(spec: &str) -> Result<Self, TimeControlError> {
        let s = spec.trim();
        let num = |x: &str, unit: &'static str| -> Result<u64, TimeControlError> {
            x.trim()
                .parse::<u64>()
                .ok()
                .filter(|&v| v <= 1_000_000_000_000)
                .ok_or_else(|| TimeControlError::NotANumber {
                    spec: truncate(spec),
                    word: truncate(x),
                    unit,
                })
        };
        let positive = |v: u64, what: &'static str| -> Result<u64, TimeControlError> {
            if v == 0 {
                Err(TimeControlError::Zero {
                    spec: truncate(spec),
                    what,
                })
            } else {
                Ok(v)
            }
        };
        if let Some(v) = s.strip_prefix("movetime=") {
            return Ok(TimeControl::MoveTime(positive(
                num(v, "milliseconds")?,
                "move time",
            )?));
        }
        if let Some(v) = s.strip_prefix("nodes=") {
            return Ok(TimeControl::Nodes(positive(
                num(v, "nodes")?,
                "node count",
            )?));
        }
        if let Some(v) = s.strip_prefix("depth=") {
            let d = positive(num(v, "plies")?, "depth")?;
            return u32::try_from(d)
                .ok()
                .filter(|&d| d <= 1000)
                .map(TimeControl::Depth)
                .ok_or_else(|| TimeControlError::TooDeep {
                    spec: truncate(spec),
                    depth: d,
                });
        }
        let (base_ms, inc_ms, byoyomi_ms) = if let Some(v) = s.strip_prefix("byoyomi=") {
            (0, 0, num(v, "milliseconds")?)
        } else {
            let (clock, byoyomi) = match s.split_once('/') {
                Some((c, b)) => {
                    let b = b
                        .strip_prefix("byoyomi=")
                        .ok_or_else(|| TimeControlError::AfterSlash(truncate(spec)))?;
                    (c, num(b, "milliseconds")?)
                }
                None => (s, 0),
            };
            let (base, inc) = match clock.split_once('+') {
                Some((b, i)) => (num(b, "milliseconds")?, num(i, "milliseconds")?),
                None => (num(clock, "milliseconds")?, 0),
            };
            if inc > 0 && byoyomi > 0 {
                return Err(TimeControlError::IncrementAndByoyomi(truncate(spec)));
            }
            (base, inc, byoyomi)
        };
        if base_ms == 0 && inc_ms == 0 && byoyomi_ms == 0 {
            return Err(TimeControlError::NoTime(truncate(spec)));
        }
        Ok(TimeControl::Clock {
            base_ms,
            inc_ms,
            byoyomi_ms,
        })
    }

    /// Whether the engine keeps a clock (main time that carries over between moves).
    pub fn has_clock(&self) -> bool {
        matches!(self, TimeControl::Clock { .. })
    }

    /// The main time at the start of a game (0 without a clock).
    pub fn base_ms(&self) -> u64 {
        match *self {
            TimeControl::Clock { base_ms, .. } => base_ms,
            _ => 0,
        }
    }

    pub fn describe(&self) -> String {
        match *self {
            TimeControl::Clock {
                base_ms,
                inc_ms,
                byoyomi_ms,
            } => match (base_ms, inc_ms, byoyomi_ms) {
                (0, 0, b) => format!("byoyomi {b} ms"),
                (t, 0, 0) => format!("{t} ms sudden death"),
                (t, 0, b) => format!("{t} ms + byoyomi {b} ms"),
                (t, i, _) => format!("{t} ms + {i} ms per move"),
            },
            TimeControl::MoveTime(t) => format!("movetime {t} ms"),
            TimeControl::Nodes(n) => format!("nodes {n}"),
            TimeControl::Depth(d) => format!("depth {d}"),
        }
    }
}

/// The `go` command for the side `us` (0 sente, 1 gote) under the time controls `tcs` (by colour) and the
/// remaining main times `clock` (by colour), and how long its answer may take (None: no clock, the hang timeout
/// applies).
///
/// An engine on a clock gets both sides' remaining times; when the opponent has no clock (move time, nodes,
/// depth), the engine's own time and increment stand in for the opponent's, the figures it would see in a game
/// against itself.
pub(crate) fn go_command(
    tcs: [TimeControl; 2],
    us: usize,
    clock: [u64; 2],
) -> (String, Option<Duration>) {
    match tcs[us] {
        TimeControl::Clock {
            inc_ms, byoyomi_ms, ..
        } => {
            let them = 1 - us;
            let (their_time, their_inc) = match tcs[them] {
                TimeControl::Clock { inc_ms: i, .. } => (clock[them], i),
                _ => (clock[us], inc_ms),
            };
            let mut time = [0; 2];
            let mut inc = [0; 2];
            time[us] = clock[us];
            inc[us] = inc_ms;
            time[them] = their_time;
            inc[them] = their_inc;
            let go = if byoyomi_ms > 0 {
                format!(
                    "go btime {} wtime {} byoyomi {byoyomi_ms}",
                    time[0], time[1]
                )
            } else {
                format!(
                    "go btime {} wtime {} binc {} winc {}",
                    time[0], time[1], inc[0], inc[1]
                )
            };
            (go, Some(Duration::from_millis(clock[us] + byoyomi_ms)))
        }
        TimeControl::MoveTime(t) => (format!("go movetime {t}"), Some(Duration::from_millis(t))),
        TimeControl::Nodes(n) => (format!("go nodes {n}"), None),
        TimeControl::Depth(d) => (format!("go depth {d}"), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        let clock = |b, i, y| TimeControl::Clock {
            base_ms: b,
            inc_ms: i,
            byoyomi_ms: y,
        };
        let p = |s: &str| TimeControl::parse(s);
        assert_eq!(p("byoyomi=100"), Ok(clock(0, 0, 100)));
        assert_eq!(p("10000+100"), Ok(clock(10_000, 100, 0)));
        assert_eq!(p("0+100"), Ok(clock(0, 100, 0)));
        assert_eq!(p("60000"), Ok(clock(60_000, 0, 0)));
        assert_eq!(p("60000/byoyomi=1000"), Ok(clock(60_000, 0, 1000)));
        assert_eq!(p("movetime=250"), Ok(TimeControl::MoveTime(250)));
        assert_eq!(p("nodes=20000"), Ok(TimeControl::Nodes(20_000)));
        assert_eq!(p("depth=6"), Ok(TimeControl::Depth(6)));
        for bad in [
            "0",
            "0+0",
            "byoyomi=0",
            "1000+10/byoyomi=100",
            "1000/100",
            "10.5+1",
            "x+1",
            "movetime=0",
            "nodes=",
            "depth=0",
            "depth=99999",
            "nodes=-3",
            "",
        ] {
            assert!(p(bad).is_err(), "{bad}");
        }
        assert_eq!(clock(0, 0, 100).describe(), "byoyomi 100 ms");
        assert_eq!(
            clock(10_000, 100, 0).describe(),
            "10000 ms + 100 ms per move"
        );
        assert_eq!(clock(60_000, 0, 0).describe(), "60000 ms sudden death");
        assert_eq!(
            clock(60_000, 0, 1000).describe(),
            "60000 ms + byoyomi 1000 ms"
        );
        assert_eq!(TimeControl::Nodes(5).describe(), "nodes 5");
    }

    #[test]
    fn go_commands() {
        let byo = TimeControl::Clock {
            base_ms: 1000,
            inc_ms: 0,
            byoyomi_ms: 200,
        };
        let fischer = TimeControl::Clock {
            base_ms: 5000,
            inc_ms: 50,
            byoyomi_ms: 0,
        };
        let ms = Duration::from_millis;
        assert_eq!(
            go_command([byo, byo], 1, [700, 300]),
            ("go btime 700 wtime 300 byoyomi 200".into(), Some(ms(500)))
        );
        // mixed clocks: each side's real remaining time and its own increment
        assert_eq!(
            go_command([fischer, byo], 0, [4000, 300]),
            (
                "go btime 4000 wtime 300 binc 50 winc 0".into(),
                Some(ms(4000))
            )
        );
        assert_eq!(
            go_command([fischer, byo], 1, [4000, 300]),
            ("go btime 4000 wtime 300 byoyomi 200".into(), Some(ms(500)))
        );
        // an opponent without a clock: our own figures stand in for it
        assert_eq!(
            go_command([TimeControl::Nodes(100), fischer], 1, [0, 4000]),
            (
                "go btime 4000 wtime 4000 binc 50 winc 50".into(),
                Some(ms(4000))
            )
        );
        assert_eq!(
            go_command([TimeControl::Nodes(100), fischer], 0, [0, 4000]),
            ("go nodes 100".into(), None)
        );
        assert_eq!(
            go_command(
                [TimeControl::Depth(3), TimeControl::MoveTime(80)],
                1,
                [0, 0]
            ),
            ("go movetime 80".into(), Some(ms(80)))
        );
        assert_eq!(
            go_command(
                [TimeControl::Depth(3), TimeControl::MoveTime(80)],
                0,
                [0, 0]
            ),
            ("go depth 3".into(), None)
        );
    }
}
