//! Parsing `go`: the search limits, pondering, `searchmoves` and `go mate`.

use crate::engine::search::{Clock, Limits};

use crate::host::truncate;

/// A parsed `go` command.
#[derive(Debug, Default)]
pub struct GoRequest {
    pub limits: Limits,
    pub ponder: bool,
    /// The moves as written; they are checked against the position when the search starts.
    pub searchmoves: Vec<String>,
    /// `go mate`: Some(None) for infinite, Some(Some(ms)) for a time limit.
    pub mate: Option<Option<u64>>,
}

/// The largest time a `go` figure stands for, in milliseconds (about 35 years); larger times are read as this,
/// so that the clock arithmetic of the search (sums, products with the SlowMover percentage) cannot overflow.
pub const MAX_TIME_MS: u64 = 1 << 40;

/// Bare `go`: a finite search of a few seconds.
const BARE_GO_MS: u64 = 3000;

/// The words that end a `searchmoves` list.
const KEYWORDS: [&str; 13] = [
    "btime",
    "wtime",
    "binc",
    "winc",
    "byoyomi",
    "movetime",
    "depth",
    "nodes",
    "infinite",
    "ponder",
    "mate",
    "searchmoves",
    "perft",
];

/// Why the words after `go` were refused; a word quoted is cut to 40 characters.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GoError {
    #[error("{0} needs a value")]
    NoValue(&'static str),
    #[error("{name}: '{value}' is not a number")]
    NotANumber { name: &'static str, value: String },
    #[error("mate needs a time or 'infinite'")]
    MateWithoutTime,
    #[error("unknown argument '{0}'")]
    Unknown(String),
}

/// Parses the words after `go` (all but `go perft`).
pub fn parse_go(args: &[&str]) -> Result<GoRequest, GoError> {
    let mut r = GoRequest::default();
    let mut clock = Clock::default();
    let mut has_clock = false;
    let mut i = 0;
    let num = |i: usize, name: &'static str| -> Result<u64, GoError> {
        let v = args.get(i + 1).ok_or(GoError::NoValue(name))?;
        let n: i64 = v.parse().map_err(|_| GoError::NotANumber {
            name,
            value: truncate(v),
        })?;
        Ok(n.max(0) as u64)
    };
    let time = |i: usize, name: &'static str| Ok::<u64, GoError>(num(i, name)?.min(MAX_TIME_MS));
    while i < args.len() {
        match args[i] {
            "btime" => {
                clock.time[0] = time(i, "btime")?;
                has_clock = true;
                i += 1;
            }
            "wtime" => {
                clock.time[1] = time(i, "wtime")?;
                has_clock = true;
                i += 1;
            }
            "binc" => {
                clock.inc[0] = time(i, "binc")?;
                has_clock = true;
                i += 1;
            }
            "winc" => {
                clock.inc[1] = time(i, "winc")?;
                has_clock = true;
                i += 1;
            }
            "byoyomi" => {
                clock.byoyomi = time(i, "byoyomi")?;
                has_clock = true;
                i += 1;
            }
            "movetime" => {
                r.limits.movetime = Some(time(i, "movetime")?);
                i += 1;
            }
            "depth" => {
                r.limits.depth = Some(num(i, "depth")?.clamp(1, 127) as i32);
                i += 1;
            }
            "nodes" => {
                r.limits.nodes = Some(num(i, "nodes")?.max(1));
                i += 1;
            }
            "infinite" => r.limits.infinite = true,
            "ponder" => r.ponder = true,
            "mate" => {
                match args.get(i + 1) {
                    Some(&"infinite") => r.mate = Some(None),
                    Some(_) => r.mate = Some(Some(time(i, "mate")?)),
                    None => return Err(GoError::MateWithoutTime),
                }
                i += 1;
            }
            "searchmoves" => {
                while let Some(m) = args.get(i + 1) {
                    if KEYWORDS.contains(m) {
                        break;
                    }
                    r.searchmoves.push(m.to_string());
                    i += 1;
                }
            }
            w => return Err(GoError::Unknown(truncate(w))),
        }
        i += 1;
    }
    if has_clock {
        r.limits.clock = Some(clock);
    }
    match r.mate {
        Some(Some(ms)) => r.limits.movetime = Some(ms),
        Some(None) => r.limits.infinite = true,
        None => {}
    }
    if !has_clock
        && r.limits.movetime.is_none()
        && r.limits.depth.is_none()
        && r.limits.nodes.is_none()
        && !r.limits.infinite
    {
        r.limits.movetime = Some(BARE_GO_MS);
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::search::{budget, TimeOptions};
    use crate::rules::piece::Color;

    const HUGE: &str = "9223372036854775807";

    #[test]
    fn huge_times_are_clamped() {
        let r = parse_go(&[
            "btime", HUGE, "wtime", HUGE, "binc", HUGE, "winc", HUGE, "byoyomi", HUGE,
        ])
        .unwrap();
        let clock = r.limits.clock.unwrap();
        assert_eq!(clock.time, [MAX_TIME_MS; 2]);
        assert_eq!(clock.inc, [MAX_TIME_MS; 2]);
        assert_eq!(clock.byoyomi, MAX_TIME_MS);
        let r = parse_go(&["movetime", HUGE]).unwrap();
        assert_eq!(r.limits.movetime, Some(MAX_TIME_MS));
        let r = parse_go(&["mate", HUGE]).unwrap();
        assert_eq!(r.limits.movetime, Some(MAX_TIME_MS));
        // times within the cap are kept, negative ones read as 0
        let r = parse_go(&["btime", "1099511627776", "wtime", "-5"]).unwrap();
        assert_eq!(r.limits.clock.unwrap().time, [MAX_TIME_MS, 0]);
    }

    /// The clamped figures go through the time budget without overflow (this build checks overflow), with the
    /// options at their extremes.
    #[test]
    fn the_budget_of_clamped_times_does_not_overflow() {
        let opts = TimeOptions {
            network_delay: 0,
            minimum_thinking: 60000,
            slow_mover: 1000,
        };
        for go in [
            vec!["btime", HUGE, "wtime", HUGE],
            vec!["btime", HUGE, "wtime", HUGE, "byoyomi", HUGE],
            vec!["btime", HUGE, "wtime", HUGE, "binc", HUGE, "winc", HUGE],
            vec!["btime", "0", "wtime", "0", "byoyomi", HUGE],
            vec!["movetime", HUGE],
        ] {
            let r = parse_go(&go).unwrap();
            for side in [Color::Black, Color::White] {
                let (optimum, maximum) = budget(side, &r.limits, &opts);
                assert!(optimum <= maximum, "{go:?}");
                assert!(maximum.unwrap().as_millis() >= 1, "{go:?}");
            }
        }
    }
}
