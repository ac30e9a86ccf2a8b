//! Balanced openings for `hayate match --openings`: random legal plies from the start position, kept only when a
//! search at a fixed number of nodes scores the position close to level.
//!
//! Why: in a game without draws a random opening is often already won for one side (in minishogi, after a few
//! random plies, sente wins most games whoever plays it). Each pair of a match plays its opening once with each
//! colour, so such a pair ends one win each whatever the engines' strength, and the measured Elo is pulled towards
//! zero. Openings that a search finds level make the pairs depend on the engines instead.
//!
//! Candidate `i` is the random opening of pair `i` of a match with the same seed and number of random plies
//! ([`super::openings::with_random_plies`]); each is searched from an emptied table, so the book depends only on
//! the configuration, not on the number of threads or their timing.

use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

use super::openings::{with_random_plies, Opening, RandomPliesError};
use crate::engine::eval::GameEval;
use crate::engine::nnue::Network;
use crate::engine::search::{Limits, Searcher, TimeOptions, MATE_BOUND};
use crate::host::judge::{Judge, JudgeError};
use crate::Position;

#[derive(Clone, Debug)]
pub struct BalancedConfig {
    /// Random plies from the start position.
    pub plies: usize,
    /// Openings wanted.
    pub count: usize,
    /// Nodes of the search that scores a candidate.
    pub nodes: u64,
    /// Largest |score| (centipawns, side to move) of a kept opening.
    pub max_score: i32,
    pub seed: u64,
    pub threads: usize,
    pub hash_mb: usize,
    pub eval: Scorer,
    /// Give up after this many candidates.
    pub max_candidates: usize,
}

/// The evaluation that scores the candidates.
#[derive(Clone, Debug)]
pub enum Scorer {
    /// The net embedded for the game.
    Embedded,
    /// This net (of the game).
    Net(Arc<Network>),
    Classical,
}

/// A kept opening with its score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BalancedOpening {
    pub opening: Opening,
    /// The search's score for the side to move, centipawns.
    pub score: i32,
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct BalancedBook {
    pub openings: Vec<BalancedOpening>,
    /// Candidates looked at (in order, up to the last kept one).
    pub candidates: usize,
}

/// Why no book was built: a search thread could not start, or a candidate (numbered from 1) could not be
/// replayed, which stops the run rather than leaving a gap that would make the book depend on the failure.
#[derive(Debug, thiserror::Error)]
pub enum BalancedError {
    #[error("cannot start a thread: {0}")]
    Thread(#[source] std::io::Error),
    #[error("candidate {number}: {error}")]
    Candidate {
        number: usize,
        #[source]
        error: CandidateError,
    },
}

/// Why a candidate opening could not be drawn or replayed for its search (the referee's reasons as it words them).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CandidateError {
    #[error(transparent)]
    RandomPlies(#[from] RandomPliesError),
    #[error("{0}")]
    Replay(JudgeError),
}

/// A candidate searched: the score for the side to move, and the position it reaches (board, side and hands,
/// without the move number), by which a position reached twice is kept once.
struct Scored {
    score: i32,
    position: String,
}

fn score_candidate<V: GameEval>(
    searcher: &mut Searcher,
    cfg: &BalancedConfig,
    opening: &Opening,
) -> Result<Scored, CandidateError> {
    let mut judge = Judge::<V>::new(&opening.sfen).map_err(CandidateError::Replay)?;
    for m in &opening.moves {
        judge.play(m).map_err(CandidateError::Replay)?;
    }
    let pos: &Position<V> = judge.position();
    searcher.clear();
    let limits = Limits {
        nodes: Some(cfg.nodes),
        ..Limits::default()
    };
    let r = searcher.search(pos, &limits, &TimeOptions::default(), &|_| {});
    let sfen = pos.to_sfen();
    let position = sfen
        .rsplit_once(' ')
        .map_or(&sfen[..], |(p, _)| p)
        .to_string();
    Ok(Scored {
        score: r.score,
        position,
    })
}

/// Draws candidates until `cfg.count` level openings are kept (or `max_candidates` are spent, or `stop` says so);
/// `progress` gets (candidates done, kept) now and then. Positions reached by two candidates are kept once.
pub fn build<V: GameEval>(
    cfg: &BalancedConfig,
    stop: &(dyn Fn() -> bool + Sync),
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<BalancedBook, BalancedError> {
    let start = Opening {
        sfen: Position::<V>::startpos().to_sfen(),
        moves: Vec::new(),
    };
    let next = AtomicUsize::new(0);
    let done = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, Result<(Opening, Scored), CandidateError>)>();
    let mut book = BalancedBook::default();
    let mut error = None;
    let mut taken = 0;
    std::thread::scope(|s| {
        for _ in 0..cfg.threads.max(1) {
            let tx = tx.clone();
            let (next, done, start) = (&next, &done, &start);
            let spawned = std::thread::Builder::new()
                .stack_size(64 * 1024 * 1024)
                .spawn_scoped(s, move || {
                    let mut searcher = Searcher::new(1, cfg.hash_mb);
                    match &cfg.eval {
                        Scorer::Embedded => {}
                        Scorer::Net(n) => searcher.set_net(V::KIND, Some(n.clone())),
                        Scorer::Classical => searcher.use_nnue = false,
                    }
                    while !done.load(Ordering::Relaxed) && !stop() {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= cfg.max_candidates {
                            break;
                        }
                        let r = with_random_plies::<V>(start, cfg.plies, cfg.seed, i)
                            .map_err(CandidateError::from)
                            .and_then(|o| {
                                score_candidate::<V>(&mut searcher, cfg, &o).map(|sc| (o, sc))
                            });
                        if tx.send((i, r)).is_err() {
                            break;
                        }
                    }
                });
            if let Err(e) = spawned {
                error = Some(BalancedError::Thread(e));
                done.store(true, Ordering::Relaxed);
            }
        }
        drop(tx);
        // results arrive out of order; they are taken in candidate order, so the book is the same however the
        // work was shared
        let mut waiting: BTreeMap<usize, Result<(Opening, Scored), CandidateError>> =
            BTreeMap::new();
        let mut seen: HashSet<String> = HashSet::new();
        for (i, r) in rx {
            waiting.insert(i, r);
            while let Some(r) = waiting.remove(&taken) {
                taken += 1;
                if done.load(Ordering::Relaxed) {
                    continue;
                }
                match r {
                    Err(e) => {
                        error = Some(BalancedError::Candidate {
                            number: taken,
                            error: e,
                        });
                        done.store(true, Ordering::Relaxed);
                    }
                    Ok((opening, Scored { score, position })) => {
                        let level = score.abs() <= cfg.max_score && score.abs() < MATE_BOUND;
                        if level && seen.insert(position) {
                            book.openings.push(BalancedOpening { opening, score });
                            book.candidates = taken;
                            if book.openings.len() >= cfg.count {
                                done.store(true, Ordering::Relaxed);
                            }
                        }
                    }
                }
            }
            progress(taken, book.openings.len());
        }
    });
    if book.openings.len() < cfg.count {
        book.candidates = taken;
    }
    match error {
        Some(e) => Err(e),
        None => Ok(book),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::openings::{load, opening_line};
    use crate::Minishogi;

    fn config(threads: usize) -> BalancedConfig {
        BalancedConfig {
            plies: 4,
            count: 6,
            nodes: 2000,
            max_score: 150,
            seed: 9,
            threads,
            hash_mb: 1,
            eval: Scorer::Embedded,
            max_candidates: 1000,
        }
    }

    #[test]
    fn kept_openings_are_level_distinct_legal_and_independent_of_threads() {
        let cfg = config(1);
        let one = build::<Minishogi>(&cfg, &|| false, &|_, _| {}).expect("book");
        assert_eq!(one.openings.len(), 6);
        assert!(one.candidates >= 6);
        let mut keys = HashSet::new();
        for o in &one.openings {
            assert!(o.score.abs() <= 150, "score {}", o.score);
            assert_eq!(o.opening.moves.len(), 4);
            // no position twice (two move orders can reach the same one)
            let mut j = Judge::<Minishogi>::new(&o.opening.sfen).expect("start");
            for m in &o.opening.moves {
                j.play(m).expect("legal");
            }
            let sfen = j.position().to_sfen();
            assert!(keys.insert(sfen.rsplit_once(' ').map(|(p, _)| p.to_string())));
            // the line reads back as the same opening
            let line = opening_line::<Minishogi>(&o.opening);
            assert!(line.starts_with("startpos moves "), "{line}");
            let back = load::<Minishogi>(&[line]).expect("line loads");
            assert_eq!(back[0], o.opening);
        }
        let two = build::<Minishogi>(&config(2), &|| false, &|_, _| {}).expect("book");
        assert_eq!(one.openings, two.openings);
        assert_eq!(one.candidates, two.candidates);
    }

    #[test]
    fn a_candidate_is_the_random_opening_of_the_same_pair_of_a_match() {
        let cfg = config(1);
        let book = build::<Minishogi>(&cfg, &|| false, &|_, _| {}).expect("book");
        let start = load::<Minishogi>(&[]).expect("start")[0].clone();
        let pairs: Vec<Opening> = (0..book.candidates)
            .map(|i| with_random_plies::<Minishogi>(&start, 4, 9, i).expect("opening"))
            .collect();
        for o in &book.openings {
            assert!(pairs.contains(&o.opening));
        }
        // the last kept one is the last candidate looked at
        assert_eq!(book.openings.last().map(|o| &o.opening), pairs.last());
    }

    #[test]
    fn nothing_level_within_the_candidates_gives_fewer_openings() {
        let cfg = BalancedConfig {
            max_score: -1,
            max_candidates: 20,
            ..config(2)
        };
        let book = build::<Minishogi>(&cfg, &|| false, &|_, _| {}).expect("book");
        assert!(book.openings.is_empty());
    }
}
