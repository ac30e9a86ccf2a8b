//! Perft suite files: one position a line, `<SFEN> ; D1 <n> ; D2 <n> ...`; `#` starts a comment line.

use crate::rules::perft::perft;
use crate::rules::position::Position;
use crate::rules::variant::Variant;

/// One position of a suite with its expected counts by depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteEntry {
    pub line: usize,
    pub sfen: String,
    pub expected: Vec<(u32, u64)>,
}

/// Why a suite line was refused: a depth field that is not `D<depth> <count>`, or no counts at all; `line`
/// counts from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SuiteError {
    #[error("line {line}: bad depth field '{field}'")]
    DepthField { line: usize, field: String },
    #[error("line {line}: no depth counts")]
    NoCounts { line: usize },
}

/// Reads a suite; a line that is neither a comment nor a well-formed entry is an error naming its line.
pub fn parse_suite(text: &str) -> Result<Vec<SuiteEntry>, SuiteError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let sfen = parts.next().unwrap_or("").trim().to_string();
        let mut expected = Vec::new();
        for p in parts {
            let p = p.trim();
            let bad = || SuiteError::DepthField {
                line: i + 1,
                field: p.to_string(),
            };
            let (d, n) = p.split_once(' ').ok_or_else(bad)?;
            let d = d
                .strip_prefix('D')
                .and_then(|d| d.parse::<u32>().ok())
                .ok_or_else(bad)?;
            let n = n.trim().parse::<u64>().map_err(|_| bad())?;
            expected.push((d, n));
        }
        if expected.is_empty() {
            return Err(SuiteError::NoCounts { line: i + 1 });
        }
        out.push(SuiteEntry {
            line: i + 1,
            sfen,
            expected,
        });
    }
    Ok(out)
}

/// A count that differs from the suite's, or a position that does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub line: usize,
    pub sfen: String,
    pub depth: u32,
    pub expected: u64,
    /// `None` when the SFEN was rejected.
    pub found: Option<u64>,
    pub error: Option<String>,
}

/// Checks every entry up to `max_depth`, calling `report` after each count; returns the mismatches and the total
/// number of nodes counted.
pub fn run_suite<V: Variant>(
    entries: &[SuiteEntry],
    max_depth: u32,
    mut report: impl FnMut(&SuiteEntry, u32, u64, u64),
) -> (Vec<Mismatch>, u64) {
    let mut mismatches = Vec::new();
    let mut total = 0;
    for e in entries {
        let mut pos = match Position::<V>::from_sfen(&e.sfen) {
            Ok(p) => p,
            Err(err) => {
                mismatches.push(Mismatch {
                    line: e.line,
                    sfen: e.sfen.clone(),
                    depth: 0,
                    expected: 0,
                    found: None,
                    error: Some(err.to_string()),
                });
                continue;
            }
        };
        for &(d, n) in &e.expected {
            if d > max_depth {
                continue;
            }
            let found = perft(&mut pos, d);
            total += found;
            report(e, d, n, found);
            if found != n {
                mismatches.push(Mismatch {
                    line: e.line,
                    sfen: e.sfen.clone(),
                    depth: d,
                    expected: n,
                    found: Some(found),
                    error: None,
                });
            }
        }
    }
    (mismatches, total)
}
