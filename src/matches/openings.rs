//! Openings of a match: lines of a file, random legal plies, or both (the random plies after each file opening).
//!
//! Random plies come from a SplitMix64 generator. Each game pair gets its own generator, derived from the match
//! seed and the pair's number, so the opening of a pair does not depend on which worker plays it or in what order:
//! the same seed gives the same openings whatever the concurrency.

use crate::rules::position::notation::move_to_usi;
use crate::rules::random_plies::random_plies;
use crate::rules::rng::{mix, SplitMix64};
use crate::{Position, Variant};

use crate::host::judge::{Judge, JudgeError, Reason};

/// An opening: a start SFEN and moves to play from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub sfen: String,
    pub moves: Vec<String>,
}

/// Why an openings file was refused: the first bad opening, numbered by its line from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpeningError {
    #[error("opening '{0}' has no position")]
    NoPosition(String),
    #[error("opening {line}: {why}")]
    Start { line: usize, why: String },
    #[error("opening {line}: move {mv}: {why}")]
    Move {
        line: usize,
        mv: String,
        why: String,
    },
    #[error("the openings file holds no opening")]
    NoOpening,
}

/// Reads one opening line: `[position] (startpos | [sfen] <board> <side> <hands> [<n>]) [moves <m> ...]`; None for
/// blank lines and `#` comments.
pub fn parse_opening(line: &str, start_sfen: &str) -> Result<Option<Opening>, OpeningError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let mut w: Vec<&str> = line.split_whitespace().collect();
    if w.first() == Some(&"position") {
        w.remove(0);
    }
    let moves_at = w.iter().position(|&x| x == "moves").unwrap_or(w.len());
    let moves = w[(moves_at + 1).min(w.len())..]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let head = &w[..moves_at];
    let sfen = match head {
        ["startpos"] => start_sfen.to_string(),
        ["sfen", rest @ ..] if !rest.is_empty() => rest.join(" "),
        [] => return Err(OpeningError::NoPosition(crate::rules::truncate(line))),
        rest => rest.join(" "),
    };
    Ok(Some(Opening { sfen, moves }))
}

/// One line of an openings file for `opening` (what [`parse_opening`] reads back): `startpos moves ...` or `sfen
/// <sfen> moves ...`.
pub fn opening_line<V: Variant>(opening: &Opening) -> String {
    let start = Position::<V>::startpos().to_sfen();
    let mut line = if opening.sfen == start {
        "startpos".to_string()
    } else {
        format!("sfen {}", opening.sfen)
    };
    if !opening.moves.is_empty() {
        line.push_str(" moves ");
        line.push_str(&opening.moves.join(" "));
    }
    line
}

/// The openings of a match from the lines of an openings file, each checked with the rules core and its start
/// SFEN normalised; the start position when there are no lines. Err names the first bad opening.
pub fn load<V: Variant>(lines: &[String]) -> Result<Vec<Opening>, OpeningError> {
    let mut openings = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if let Some(o) = parse_opening(line, V::START_SFEN)? {
            let mut j = Judge::<V>::new(&o.sfen).map_err(|e| OpeningError::Start {
                line: i + 1,
                why: e.to_string(),
            })?;
            for m in &o.moves {
                j.play(m).map_err(|e| OpeningError::Move {
                    line: i + 1,
                    mv: crate::rules::truncate(m),
                    why: e.to_string(),
                })?;
            }
            openings.push(Opening {
                sfen: j.start_sfen().to_string(),
                moves: o.moves,
            });
        }
    }
    if openings.is_empty() {
        if !lines.is_empty() {
            return Err(OpeningError::NoOpening);
        }
        openings.push(Opening {
            sfen: Position::<V>::startpos().to_sfen(),
            moves: Vec::new(),
        });
    }
    Ok(openings)
}

/// How many times a pair's random plies are drawn again before the match gives up.
const ATTEMPTS: usize = 1000;

/// Why a pair's opening could not be followed by its random plies: the base opening is not playable, or no draw
/// leaves the game going (the referee's own reasons are kept as it words them).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RandomPliesError {
    #[error("{0}")]
    Start(JudgeError),
    #[error("opening move {mv}: {why}")]
    OpeningMove { mv: String, why: JudgeError },
    #[error(
        "no sequence of {plies} random plies that leaves the game going was found from '{sfen}' in {ATTEMPTS} tries"
    )]
    NoneFound { plies: usize, sfen: String },
    #[error("a generated move ended the game ({})", .0.as_str())]
    Ended(Reason),
    #[error("a generated move was refused: {0}")]
    Refused(JudgeError),
}

/// The opening of game pair `pair`: `base` followed by `plies` random legal plies ([`random_plies`]: a draw that
/// ends the game is drawn again from the pair's generator).
pub fn with_random_plies<V: Variant>(
    base: &Opening,
    plies: usize,
    seed: u64,
    pair: usize,
) -> Result<Opening, RandomPliesError> {
    if plies == 0 {
        return Ok(base.clone());
    }
    let mut rng = SplitMix64::new(mix(seed ^ mix(pair as u64 + 1)));
    let mut judge = Judge::<V>::new(&base.sfen).map_err(RandomPliesError::Start)?;
    for m in &base.moves {
        judge
            .play(m)
            .map_err(|why| RandomPliesError::OpeningMove { mv: m.clone(), why })?;
    }
    let drawn = random_plies(judge.position(), plies, &mut rng, ATTEMPTS).ok_or_else(|| {
        RandomPliesError::NoneFound {
            plies,
            sfen: base.sfen.clone(),
        }
    })?;
    for m in drawn {
        // the referee agrees with the draw: the move is legal and ends nothing
        match judge.play(&move_to_usi::<V>(m)) {
            Ok(None) => {}
            Ok(Some((_, reason))) => return Err(RandomPliesError::Ended(reason)),
            Err(e) => return Err(RandomPliesError::Refused(e)),
        }
    }
    Ok(Opening {
        sfen: judge.start_sfen().to_string(),
        moves: judge.moves().to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Minishogi, Shogi, Yari};

    #[test]
    fn opening_lines() {
        let st = Shogi::START_SFEN;
        assert_eq!(parse_opening("  # x", st).unwrap(), None);
        assert_eq!(parse_opening("", st).unwrap(), None);
        let o = parse_opening("startpos moves 7g7f 3c3d", st)
            .unwrap()
            .unwrap();
        assert_eq!(o.sfen, st);
        assert_eq!(o.moves, vec!["7g7f", "3c3d"]);
        let o = parse_opening("position sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1", st)
            .unwrap()
            .unwrap();
        assert_eq!(o.sfen, "4k4/9/9/9/9/9/9/9/4K4 b G 1");
        assert!(o.moves.is_empty());
        let o = parse_opening("rbsgk/4p/5/P4/KGSBR b - 1 moves 1e1d", st)
            .unwrap()
            .unwrap();
        assert_eq!(o.sfen, "rbsgk/4p/5/P4/KGSBR b - 1");
        assert_eq!(o.moves, vec!["1e1d"]);
        assert!(parse_opening("moves 7g7f", st).is_err());
    }

    #[test]
    fn splitmix_reference_values() {
        // the first outputs for seed 1234567, from the reference C code (Vigna's splitmix64.c)
        let mut r = SplitMix64::new(1234567);
        assert_eq!(r.next_u64(), 6457827717110365317);
        assert_eq!(r.next_u64(), 3203168211198807973);
        assert_eq!(r.next_u64(), 9817491932198370423);
        let mut r = SplitMix64::new(7);
        let mut seen = [0u32; 5];
        for _ in 0..5000 {
            seen[r.below(5)] += 1;
        }
        assert!(seen.iter().all(|&c| (900..1100).contains(&c)), "{seen:?}");
    }

    fn start<V: Variant>() -> Opening {
        Opening {
            sfen: V::START_SFEN.to_string(),
            moves: Vec::new(),
        }
    }

    #[test]
    fn random_plies_are_legal_reproducible_and_differ_by_pair() {
        for pair in 0..20 {
            let a = with_random_plies::<Minishogi>(&start::<Minishogi>(), 8, 42, pair).unwrap();
            let b = with_random_plies::<Minishogi>(&start::<Minishogi>(), 8, 42, pair).unwrap();
            assert_eq!(a, b);
            assert_eq!(a.moves.len(), 8);
            let mut j = Judge::<Minishogi>::new(&a.sfen).unwrap();
            for m in &a.moves {
                assert_eq!(j.play(m), Ok(None));
            }
            assert!(j.no_moves().is_none());
        }
        let firsts: std::collections::HashSet<Vec<String>> = (0..20)
            .map(|p| {
                with_random_plies::<Shogi>(&start::<Shogi>(), 6, 1, p)
                    .unwrap()
                    .moves
            })
            .collect();
        assert!(firsts.len() > 15, "{}", firsts.len());
        assert_ne!(
            with_random_plies::<Yari>(&start::<Yari>(), 6, 1, 0).unwrap(),
            with_random_plies::<Yari>(&start::<Yari>(), 6, 2, 0).unwrap()
        );
        // after a file opening's moves
        let base = Opening {
            sfen: Shogi::START_SFEN.to_string(),
            moves: vec!["7g7f".into(), "3c3d".into()],
        };
        let o = with_random_plies::<Shogi>(&base, 3, 9, 4).unwrap();
        assert_eq!(o.moves.len(), 5);
        assert_eq!(o.moves[..2], base.moves[..]);
        assert_eq!(with_random_plies::<Shogi>(&base, 0, 9, 4).unwrap(), base);
    }

    #[test]
    fn sequences_that_end_the_game_are_rejected() {
        // sente to move with a gold in hand: G*5b mates at once
        let base = Opening {
            sfen: "4k4/9/4P4/9/9/9/9/9/4K4 b G 1".into(),
            moves: Vec::new(),
        };
        let pos = crate::Position::<Shogi>::from_sfen(&base.sfen).unwrap();
        let legal = pos.legal_moves();
        let seed = 5;
        // the pairs whose first draw is the mate, found with the same generator
        let mating_first: Vec<usize> = (0..300)
            .filter(|&p| {
                let mut rng = SplitMix64::new(mix(seed ^ mix(p as u64 + 1)));
                move_to_usi::<Shogi>(legal[rng.below(legal.len())]) == "G*5b"
            })
            .collect();
        assert!(!mating_first.is_empty());
        for pair in mating_first {
            let o = with_random_plies::<Shogi>(&base, 1, seed, pair).unwrap();
            assert_eq!(o.moves.len(), 1);
            assert_ne!(o.moves, ["G*5b"], "pair {pair}");
        }
        // gote is mated already: no ply can be drawn
        let mated = Opening {
            sfen: "8k/8G/8P/9/9/9/9/9/4K4 w - 1".into(),
            moves: Vec::new(),
        };
        assert_eq!(
            with_random_plies::<Shogi>(&mated, 1, 5, 0)
                .unwrap_err()
                .to_string(),
            "no sequence of 1 random plies that leaves the game going was found from \
             '8k/8G/8P/9/9/9/9/9/4K4 w - 1' in 1000 tries"
        );
        let bad = Opening {
            moves: vec!["5a5b".into()],
            ..mated
        };
        let e = with_random_plies::<Shogi>(&bad, 1, 5, 0).unwrap_err();
        assert!(e.to_string().starts_with("opening move 5a5b: "), "{e}");
    }
}
