//! The engines' scores that `--resign` and `--draw` read (the rules themselves are the host's, shared with
//! `hayate selfplay`: [`crate::host::adjudication`]).
//!
//! Each engine's score for a move is the last `info ... score` it printed before its `bestmove` (MultiPV lines
//! other than the first ignored), from the mover's point of view; a mate score counts as ±[`MATE_SCORE`]. A move
//! without a score breaks every run of scores.
//!
//! A resign adjudication is applied only when the losing side is to move, as if it resigned: so the record reads
//! like a resignation (the loser to move, `%TORYO` in CSA) and `--verify` can check that. If the condition is first
//! met after the loser's own move, the winner plays one more move and the condition must still hold.

/// The score a mate counts as.
pub const MATE_SCORE: i32 = 100_000;

/// The score of an `info` line, None when it has none or belongs to a secondary MultiPV line. Understands
/// `score cp <x>` and `score mate <n>` (`+`/`-` alone for an unknown distance; `mate 0` is being mated), followed
/// or not by `lowerbound`/`upperbound`.
pub fn info_score(line: &str) -> Option<i32> {
    let mut w: Vec<&str> = line.split_whitespace().collect();
    if w.first() != Some(&"info") {
        return None;
    }
    // the rest of the line after `string` is free text
    if let Some(i) = w.iter().position(|&x| x == "string") {
        w.truncate(i);
    }
    if let Some(i) = w.iter().position(|&x| x == "multipv") {
        if w.get(i + 1).and_then(|v| v.parse::<u32>().ok()) != Some(1) {
            return None;
        }
    }
    let i = w.iter().position(|&x| x == "score")?;
    let value = *w.get(i + 2)?;
    match *w.get(i + 1)? {
        "cp" => value
            .parse::<i64>()
            .ok()
            .map(|x| x.clamp(-(MATE_SCORE as i64), MATE_SCORE as i64) as i32),
        "mate" => {
            let winning = match value {
                "+" => true,
                "-" => false,
                v => {
                    let n: i64 = v.parse().ok()?;
                    n > 0 && !v.starts_with('-')
                }
            };
            Some(if winning { MATE_SCORE } else { -MATE_SCORE })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_of_info_lines() {
        assert_eq!(
            info_score("info depth 3 score cp 35 nodes 100 pv 7g7f"),
            Some(35)
        );
        assert_eq!(
            info_score("info depth 3 score cp -120 lowerbound nodes 9"),
            Some(-120)
        );
        assert_eq!(info_score("info score mate 5 pv 2b3c"), Some(MATE_SCORE));
        assert_eq!(info_score("info score mate -4"), Some(-MATE_SCORE));
        assert_eq!(info_score("info score mate +"), Some(MATE_SCORE));
        assert_eq!(
            info_score("info score mate - upperbound"),
            Some(-MATE_SCORE)
        );
        assert_eq!(info_score("info score mate 0"), Some(-MATE_SCORE));
        assert_eq!(info_score("info score mate -0"), Some(-MATE_SCORE));
        assert_eq!(info_score("info multipv 1 score cp 10"), Some(10));
        assert_eq!(info_score("info multipv 2 score cp 10"), None);
        assert_eq!(info_score("info depth 3 nodes 100"), None);
        assert_eq!(info_score("info string score cp 5"), None);
        assert_eq!(info_score("info score cp x"), None);
        assert_eq!(info_score("info score cp"), None);
        assert_eq!(info_score("bestmove 7g7f"), None);
        assert_eq!(info_score("info score cp 99999999999"), Some(MATE_SCORE));
    }
}
