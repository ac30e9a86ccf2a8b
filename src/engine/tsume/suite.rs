//! Problem suites for `hayate mate --suite`: one problem a line, solved in turn, with a summary.
//!
//! Format (UTF-8 text; blank lines and lines starting with `#` are skipped), one of:
//! - `<sfen> ; <length>`: the problem and its known shortest length in plies;
//! - `<sfen> moves <m1> ... <mn>`: the problem and a known solution (its length is n), as ShogiBoardQ's
//!   `data/tsumeshogi` files write them;
//! - `<sfen> ; nomate`: a position without a tsume mate;
//! - `<sfen>`: a problem without a known answer (only solved, never "wrong").
//!
//! The defender's hand follows [`DefenderHand::FillIfEmpty`](super::DefenderHand).

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::table::Table;
use super::{solve_with_table, tsume_position, DefenderHand, MateLimits, MateResult};
use crate::rules::position::notation::move_to_usi;
use crate::rules::variant::Variant;

/// What a suite line says of its problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    Unknown,
    Mate(usize),
    NoMate,
}

#[derive(Clone, Debug)]
pub struct Problem {
    /// 1-based line number in the file.
    pub line: usize,
    pub sfen: String,
    pub expected: Expected,
}

/// Why a suite line was refused: an answer after `;` that is neither a length nor `nomate`; `line` counts from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TsumeSuiteError {
    #[error("line {line}: unreadable answer '{answer}'")]
    Answer { line: usize, answer: String },
}

/// Reads a suite; an unreadable line is an error naming it.
pub fn parse_suite(text: &str) -> Result<Vec<Problem>, TsumeSuiteError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let (sfen, expected) = if let Some((sfen, moves)) = l.split_once(" moves ") {
            (sfen, Expected::Mate(moves.split_whitespace().count()))
        } else if let Some((sfen, answer)) = l.split_once(';') {
            let a = answer.trim();
            let e = if a.eq_ignore_ascii_case("nomate") {
                Expected::NoMate
            } else {
                match a.parse::<usize>() {
                    Ok(n) => Expected::Mate(n),
                    Err(_) => {
                        return Err(TsumeSuiteError::Answer {
                            line: i + 1,
                            answer: a.to_string(),
                        })
                    }
                }
            };
            (sfen, e)
        } else {
            (l, Expected::Unknown)
        };
        out.push(Problem {
            line: i + 1,
            sfen: sfen.trim().to_string(),
            expected,
        });
    }
    Ok(out)
}

/// The outcome of a suite.
#[derive(Clone, Debug, Default)]
pub struct SuiteSummary {
    pub problems: usize,
    /// Answered as expected (mate of the expected length, or no mate).
    pub correct: usize,
    /// A mate of another length than expected.
    pub wrong_length: usize,
    /// A wrong verdict: mate where none was expected or the reverse, or an unreadable SFEN.
    pub wrong: usize,
    /// No answer within the limits.
    pub unsolved: usize,
    pub times: Vec<Duration>,
    pub nodes: u64,
}

impl SuiteSummary {
    pub fn median_time(&self) -> Duration {
        let mut t = self.times.clone();
        t.sort_unstable();
        t.get(t.len() / 2).copied().unwrap_or_default()
    }
    pub fn all_correct(&self) -> bool {
        self.correct == self.problems
    }
}

/// Solves every problem with the same limits (a table of `limits.hash_mb`, cleared per problem), printing a
/// line per problem through `out`.
pub fn run_suite<V: Variant>(
    problems: &[Problem],
    limits: &MateLimits,
    out: &mut dyn FnMut(&str),
) -> SuiteSummary {
    let stop = AtomicBool::new(false);
    let mut table = Table::new(limits.hash_mb);
    let mut sum = SuiteSummary {
        problems: problems.len(),
        ..Default::default()
    };
    for (n, p) in problems.iter().enumerate() {
        let pos = match tsume_position::<V>(&p.sfen, DefenderHand::FillIfEmpty) {
            Ok(pos) => pos,
            Err(e) => {
                out(&format!("{:>4} line {}: bad sfen: {e}", n + 1, p.line));
                sum.wrong += 1;
                continue;
            }
        };
        let r = solve_with_table(&pos, limits, &stop, None, &mut table);
        sum.times.push(r.time);
        sum.nodes += r.nodes;
        let (verdict, detail) = match (&r.result, p.expected) {
            (MateResult::Mate(pv), e) => {
                let len = r.length.unwrap_or(pv.len());
                let line: Vec<String> = pv.iter().map(|&m| move_to_usi::<V>(m)).collect();
                let verdict = match e {
                    Expected::Mate(k) if k == len => {
                        sum.correct += 1;
                        "ok"
                    }
                    Expected::Mate(_) => {
                        sum.wrong_length += 1;
                        "WRONG-LENGTH"
                    }
                    Expected::NoMate => {
                        sum.wrong += 1;
                        "WRONG"
                    }
                    Expected::Unknown => {
                        sum.correct += 1;
                        "ok"
                    }
                };
                let shortest = if r.shortest_proven {
                    ""
                } else {
                    " (not proven shortest)"
                };
                let surplus = match r.surplus {
                    0 => String::new(),
                    n => format!(" (駒余り: {n} in hand at the end)"),
                };
                (
                    verdict,
                    format!("mate {len}{shortest}{surplus} {}", line.join(" ")),
                )
            }
            (MateResult::NoMate, Expected::NoMate | Expected::Unknown) => {
                sum.correct += 1;
                ("ok", "nomate".to_string())
            }
            (MateResult::NoMate, Expected::Mate(_)) => {
                sum.wrong += 1;
                ("WRONG", "nomate".to_string())
            }
            (MateResult::Timeout | MateResult::Stopped, _) => {
                sum.unsolved += 1;
                ("UNSOLVED", "timeout".to_string())
            }
        };
        let expected = match p.expected {
            Expected::Mate(k) => format!("expected {k}"),
            Expected::NoMate => "expected nomate".into(),
            Expected::Unknown => "expected ?".into(),
        };
        out(&format!(
            "{:>4} line {:>4}: {verdict:<12} {expected:<13} time {:>8.1} ms nodes {:>10} {detail}",
            n + 1,
            p.line,
            r.time.as_secs_f64() * 1000.0,
            r.nodes
        ));
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suite_lines_of_every_form_parse() {
        let text =
            "# comment\n\n4k4/9/4P4/9/9/9/9/9/9 b G 1 ; 1\n4k4/9/9/9/9/9/9/9/9 b - 1 ; nomate\n\
                    4k4/9/4P4/9/9/9/9/9/9 b G 1 moves G*5b\n4k4/9/4P4/9/9/9/9/9/9 b G 1\n";
        let p = parse_suite(text).unwrap();
        assert_eq!(p.len(), 4);
        assert_eq!(p[0].expected, Expected::Mate(1));
        assert_eq!(p[0].line, 3);
        assert_eq!(p[1].expected, Expected::NoMate);
        assert_eq!(p[2].expected, Expected::Mate(1));
        assert_eq!(p[2].sfen, "4k4/9/4P4/9/9/9/9/9/9 b G 1");
        assert_eq!(p[3].expected, Expected::Unknown);
        assert!(parse_suite("4k4/9/9/9/9/9/9/9/9 b - 1 ; soon").is_err());
    }
}
