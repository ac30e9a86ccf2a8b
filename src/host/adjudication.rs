//! The rules that end a game early when both sides' scores agree on its result: resigning (`--resign score=<cp>
//! count=<n>` of `hayate match`, and `hayate selfplay`'s adjudication) and the draw (`--draw ply=<p> count=<n>
//! score=<cp>`), with their words typed as clap reads them.
//!
//! A rule reads each side's scores of its own moves, oldest first, from the mover's point of view; a move without
//! a score (None) breaks every run of scores. Where the scores come from (an engine's `info` lines, the host's own
//! search) and when a rule is asked are the callers'.

use std::str::FromStr;

use crate::rules::truncate;

/// The last `n` scores, None when there are fewer or one of them is missing.
fn last(scores: &[Option<i32>], n: usize) -> Option<Vec<i32>> {
    if n == 0 || scores.len() < n {
        return None;
    }
    scores[scores.len() - n..].iter().copied().collect()
}

/// Why a `--resign` or `--draw` word or rule was refused (the flag's name is the caller's to add).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("'{0}' is not key=value")]
    NotKeyValue(String),
    #[error("unknown key '{key}' (keys: {keys})")]
    UnknownKey { key: String, keys: &'static str },
    #[error("{key}: '{value}' is not a number from 0 to 1000000")]
    NotANumber { key: String, value: String },
    #[error("count must be at least 1")]
    ZeroCount,
    #[error("needs {0}")]
    Missing(&'static str),
}

/// Words as clap would have read them into `W` (`ResignWord`, `DrawWord`, `stats::SprtWord`), for callers
/// that hold them as text.
pub(crate) fn typed_words<W: FromStr>(words: &[String]) -> Result<Vec<W>, W::Err> {
    words.iter().map(|w| w.parse()).collect()
}

/// A `key=value` word whose key is one of `keys` (listed as `list` in errors) and whose value is a number from 0 to
/// 1000000: the key's index and the number.
fn key_number(w: &str, keys: &[&str], list: &'static str) -> Result<(usize, i64), RuleError> {
    let (k, v) = w
        .split_once('=')
        .ok_or_else(|| RuleError::NotKeyValue(truncate(w)))?;
    let i = keys
        .iter()
        .position(|&x| x == k)
        .ok_or_else(|| RuleError::UnknownKey {
            key: truncate(k),
            keys: list,
        })?;
    let x: i64 = v
        .parse()
        .ok()
        .filter(|x| (0..=1_000_000).contains(x))
        .ok_or_else(|| RuleError::NotANumber {
            key: k.to_string(),
            value: truncate(v),
        })?;
    Ok((i, x))
}

/// One word of `--resign`, checked as the command line is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResignWord {
    Score(i32),
    Count(usize),
}

impl FromStr for ResignWord {
    type Err = RuleError;
    fn from_str(w: &str) -> Result<Self, RuleError> {
        // the numbers are at most 1000000: the casts are exact
        Ok(match key_number(w, &["score", "count"], "score, count")? {
            (0, x) => ResignWord::Score(x as i32),
            (_, x) => ResignWord::Count(x as usize),
        })
    }
}

/// `--resign score=<cp> count=<n>`: a side loses when its last `count` scores are all at most `-cp` and its
/// opponent's last `count` scores all at least `+cp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    pub score: i32,
    pub count: usize,
}

impl ResignRule {
    /// The rule of a `--resign` word list; a key given twice counts its last value.
    pub fn from_words(words: &[ResignWord]) -> Result<Self, RuleError> {
        let (mut score, mut count) = (None, None);
        for &w in words {
            match w {
                ResignWord::Score(x) => score = Some(x),
                ResignWord::Count(x) => count = Some(x),
            }
        }
        match (score, count) {
            (Some(_), Some(0)) => Err(RuleError::ZeroCount),
            (Some(score), Some(count)) => Ok(ResignRule { score, count }),
            _ => Err(RuleError::Missing("score=<cp> and count=<n>")),
        }
    }

    /// The rule of `--resign`'s words as text.
    pub fn parse(words: &[String]) -> Result<Self, RuleError> {
        Self::from_words(&typed_words(words)?)
    }

    /// Whether the side with scores `loser` loses against the side with scores `winner`.
    pub fn loses(&self, loser: &[Option<i32>], winner: &[Option<i32>]) -> bool {
        let (Some(l), Some(w)) = (last(loser, self.count), last(winner, self.count)) else {
            return false;
        };
        l.iter().all(|&s| s <= -self.score) && w.iter().all(|&s| s >= self.score)
    }

    pub fn describe(&self) -> String {
        format!("resign at {} cp for {} moves", self.score, self.count)
    }
}

/// One word of `--draw`, checked as the command line is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawWord {
    Ply(usize),
    Count(usize),
    Score(i32),
}

impl FromStr for DrawWord {
    type Err = RuleError;
    fn from_str(w: &str) -> Result<Self, RuleError> {
        Ok(
            match key_number(w, &["ply", "count", "score"], "ply, count, score")? {
                (0, x) => DrawWord::Ply(x as usize),
                (1, x) => DrawWord::Count(x as usize),
                (_, x) => DrawWord::Score(x as i32),
            },
        )
    }
}

/// `--draw ply=<p> count=<n> score=<cp>`: from ply `p` on, a draw when the last `count` scores of both sides are
/// all within `±cp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    pub ply: usize,
    pub count: usize,
    pub score: i32,
}

impl DrawRule {
    /// The rule of a `--draw` word list; `ply` defaults to 0.
    pub fn from_words(words: &[DrawWord]) -> Result<Self, RuleError> {
        let (mut ply, mut count, mut score) = (0, None, None);
        for &w in words {
            match w {
                DrawWord::Ply(x) => ply = x,
                DrawWord::Count(x) => count = Some(x),
                DrawWord::Score(x) => score = Some(x),
            }
        }
        match (count, score) {
            (Some(0), Some(_)) => Err(RuleError::ZeroCount),
            (Some(count), Some(score)) => Ok(DrawRule { ply, count, score }),
            _ => Err(RuleError::Missing("count=<n> and score=<cp> (and ply=<p>)")),
        }
    }

    /// The rule of `--draw`'s words as text.
    pub fn parse(words: &[String]) -> Result<Self, RuleError> {
        Self::from_words(&typed_words(words)?)
    }

    /// Whether the game is drawn at `plies` plies with these scores of the two sides.
    pub fn holds(&self, plies: usize, a: &[Option<i32>], b: &[Option<i32>]) -> bool {
        if plies < self.ply {
            return false;
        }
        let (Some(a), Some(b)) = (last(a, self.count), last(b, self.count)) else {
            return false;
        };
        a.iter().chain(&b).all(|&s| s.abs() <= self.score)
    }

    pub fn describe(&self) -> String {
        format!(
            "draw from ply {} within {} cp for {} moves",
            self.ply, self.score, self.count
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resign_rule() {
        let w = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        let r = ResignRule::parse(&w("score=500 count=2")).unwrap();
        assert_eq!(
            r,
            ResignRule {
                score: 500,
                count: 2
            }
        );
        assert!(ResignRule::parse(&w("score=500")).is_err());
        assert!(ResignRule::parse(&w("score=500 count=0")).is_err());
        assert!(ResignRule::parse(&w("score=-5 count=2")).is_err());
        assert!(ResignRule::parse(&w("score=5 count=2 ply=3")).is_err());
        let s = |v: &[i32]| v.iter().map(|&x| Some(x)).collect::<Vec<_>>();
        assert!(r.loses(&s(&[0, -500, -600]), &s(&[700, 500])));
        assert!(!r.loses(&s(&[-499, -600]), &s(&[700, 500])));
        assert!(!r.loses(&s(&[-500, -600]), &s(&[700, 499])));
        assert!(!r.loses(&s(&[-600]), &s(&[700, 500])));
        assert!(!r.loses(&[Some(-600), None], &s(&[700, 500])));
    }

    #[test]
    fn draw_rule() {
        let w = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        let d = DrawRule::parse(&w("ply=40 count=3 score=10")).unwrap();
        assert_eq!(
            d,
            DrawRule {
                ply: 40,
                count: 3,
                score: 10
            }
        );
        assert_eq!(DrawRule::parse(&w("count=3 score=10")).unwrap().ply, 0);
        assert!(DrawRule::parse(&w("ply=40 score=10")).is_err());
        let s = |v: &[i32]| v.iter().map(|&x| Some(x)).collect::<Vec<_>>();
        let a = s(&[300, 10, -10, 0]);
        let b = s(&[5, -5, 10]);
        assert!(d.holds(40, &a, &b));
        assert!(!d.holds(39, &a, &b));
        assert!(!d.holds(40, &a, &s(&[5, 11, 10])));
        assert!(!d.holds(40, &a, &s(&[5, 10])));
    }
}
