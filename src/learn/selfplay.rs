//! `hayate selfplay`: Hayate plays itself at a fixed number of nodes per move and writes the quiet positions of
//! its games, labelled with the search's score and the game's result, to a data file (see `record`).
//!
//! Every game is independent and seeded by (seed, game index): it opens with random plies, then each move is the
//! search's, except that now and then one of the best few lines (MultiPV) is picked at random, so that games
//! spread out. Games end by the rules (no legal move, the fourth repetition judged by the game's rule, perpetual
//! check), by adjudication when both sides' scores agree that one side has won for several moves (the resignation
//! rule of `hayate match`), or as a draw at the ply limit. Workers play games on their own threads with their own
//! searcher; one writer appends whole games, so a run stopped at any moment leaves a file that a later run
//! extends. A position the file already holds is not written again.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Instant;

use super::record::{self, DataFileError, Record};
use crate::engine::eval::GameEval;
use crate::engine::nnue::Network;
use crate::engine::search::{
    mate_in_moves, Info, Limits, SearchResult, Searcher, TimeOptions, MATE_BOUND,
};
use crate::host::adjudication::ResignRule;
use crate::host::Shard;
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::position::{Position, Repetition};
use crate::rules::random_plies::random_plies;
use crate::rules::rng::{mix, SplitMix64};

#[derive(Clone, Debug)]
pub struct SelfplayConfig {
    pub output: PathBuf,
    pub nodes: u64,
    /// Stop after this many positions written by this run.
    pub positions: u64,
    pub threads: usize,
    pub seed: u64,
    pub random_plies: usize,
    /// Chance per move of choosing among the MultiPV lines instead of the best move.
    pub random_move_rate: f64,
    pub multipv: usize,
    /// How far below the best a MultiPV line may score and still be picked.
    pub random_move_margin: i32,
    pub max_plies: usize,
    /// Adjudicate a win when both sides' scores agree that one side has lost: the rule of `hayate match
    /// --resign`, asked after every move for either side.
    pub resign: ResignRule,
    pub hash_mb: usize,
    /// The net the games are played with (None: the classical evaluation), for a next generation of data.
    pub net: Option<Arc<Network>>,
    /// The games this run plays: those whose number belongs to the shard (`Shard::WHOLE`: all).
    pub shard: Shard,
}

/// One finished game's records.
struct PlayedGame {
    records: Vec<Record>,
    /// The winner, None for a draw.
    winner: Option<Color>,
}

/// Plays one game from its own seed; `None` when the stop flag ended it early (or its random plies could not be
/// drawn, which a start position never causes).
fn play_game<V: GameEval>(
    searcher: &mut Searcher,
    cfg: &SelfplayConfig,
    index: u32,
    stop: &(dyn Fn() -> bool + Sync),
) -> Option<PlayedGame> {
    let mut rng = SplitMix64::new(mix(cfg.seed ^ mix(u64::from(index) + 1)));
    // the game's random plies; attempts without end, as the start position always leaves a way on
    let mut pos = Position::<V>::startpos();
    for m in random_plies(&pos.clone(), cfg.random_plies, &mut rng, usize::MAX)? {
        pos.do_move(m);
    }
    searcher.clear();
    let mut records: Vec<Record> = Vec::new();
    // each side's scores of its own moves, for the resignation rule
    let mut scores: [Vec<Option<i32>>; 2] = [Vec::new(), Vec::new()];
    let winner = 'game: {
        for _ in 0..cfg.max_plies {
            if stop() {
                return None;
            }
            let us = pos.side_to_move();
            if let Some(v) = pos.repetition_verdict(4, usize::MAX) {
                break 'game match v.result {
                    Repetition::Win => Some(us),
                    Repetition::Loss => Some(!us),
                    _ => None,
                };
            }
            let wide = rng.below(1_000_000) < (cfg.random_move_rate * 1e6) as usize;
            let (r, lines) = search_move(searcher, &pos, cfg, wide);
            let Some(mut best) = r.best else {
                break 'game Some(!us);
            };
            if let Some(n) = mate_in_moves(r.score) {
                break 'game Some(if n > 0 { us } else { !us });
            }
            records.extend(quiet_record(&pos, best, r.score, index));
            // adjudication: unlike a match, either side may be the loser here, since no record must read like
            // a resignation by the side to move
            let side = us.index();
            scores[side].push(Some(r.score));
            if cfg.resign.loses(&scores[side], &scores[1 - side]) {
                break 'game Some(!us);
            }
            if cfg.resign.loses(&scores[1 - side], &scores[side]) {
                break 'game Some(us);
            }
            if wide {
                if let Some(m) = random_near(&lines, r.score, cfg, &mut rng) {
                    if pos.is_legal(m) {
                        best = m;
                    }
                }
            }
            pos.do_move(best);
        }
        None
    };
    for r in &mut records {
        r.result = match winner {
            None => 1,
            Some(w) if w == r.side => 2,
            Some(_) => 0,
        };
    }
    Some(PlayedGame { records, winner })
}

/// The search of one move at the run's nodes: its result, and with `wide` the first move and score of each
/// MultiPV line (by line number), as the last reports gave them.
fn search_move<V: GameEval>(
    searcher: &mut Searcher,
    pos: &Position<V>,
    cfg: &SelfplayConfig,
    wide: bool,
) -> (SearchResult, Vec<(usize, i32, Move)>) {
    let lines: Mutex<Vec<(usize, i32, Move)>> = Mutex::new(Vec::new());
    let limits = Limits {
        nodes: Some(cfg.nodes),
        multipv: if wide { cfg.multipv } else { 1 },
        ..Limits::default()
    };
    let on_info = |i: &Info| {
        if !i.progress_only && !i.pv.is_empty() {
            if let Ok(mut l) = lines.lock() {
                l.retain(|x| x.0 != i.multipv);
                l.push((i.multipv, i.score, i.pv[0]));
            }
        }
    };
    let r = searcher.search(pos, &limits, &TimeOptions::default(), &on_info);
    let lines = lines.into_inner().unwrap_or_default();
    (r, lines)
}

/// The record of `pos` with the search's score when it is quiet: not in check, and the chosen move neither
/// captures nor promotes, so that the score is close to what a static evaluation can know.
fn quiet_record<V: GameEval>(
    pos: &Position<V>,
    best: Move,
    score: i32,
    game: u32,
) -> Option<Record> {
    let quiet = !pos.in_check()
        && (best.is_drop() || pos.piece_at(best.to()).is_none())
        && !best.is_promotion();
    if !quiet || score.abs() >= MATE_BOUND.min(i16::MAX as i32) {
        return None;
    }
    let mut rec = Record::from_position(pos);
    rec.score = score as i16;
    rec.game = game;
    rec.ply = pos.game_ply().min(u16::MAX as usize) as u16;
    Some(rec)
}

/// One of the MultiPV lines' moves scoring within the margin of the best (mates left out), drawn from `rng`;
/// None when there is none (and then nothing is drawn).
fn random_near(
    lines: &[(usize, i32, Move)],
    score: i32,
    cfg: &SelfplayConfig,
    rng: &mut SplitMix64,
) -> Option<Move> {
    let top = lines.iter().map(|x| x.1).max().unwrap_or(score);
    let near: Vec<Move> = lines
        .iter()
        .filter(|x| x.1 >= top - cfg.random_move_margin && x.1.abs() < MATE_BOUND)
        .map(|x| x.2)
        .collect();
    (!near.is_empty()).then(|| near[rng.below(near.len())])
}

/// What a finished run did.
#[derive(Clone, Copy, Debug, Default)]
pub struct SelfplaySummary {
    pub games: u64,
    pub positions: u64,
    pub black_wins: u64,
    pub white_wins: u64,
    pub draws: u64,
    /// Positions left out because the file already held them.
    pub duplicates: u64,
    pub seconds: f64,
}

/// Why a self-play run stopped: the data file could not be opened or extended (the games written before a failure
/// stay in the file, whole).
#[derive(Debug, thiserror::Error)]
pub enum SelfplayError {
    #[error(transparent)]
    Data(#[from] DataFileError),
    #[error("cannot write {}: {error}", .path.display())]
    Write {
        path: PathBuf,
        #[source]
        error: std::io::Error,
    },
}

/// Plays games on `cfg.threads` threads until `cfg.positions` are written or `stop` says so; `progress` gets a
/// line after every game.
pub fn run<V: GameEval>(
    cfg: &SelfplayConfig,
    stop: &(dyn Fn() -> bool + Sync),
    progress: &(dyn Fn(&SelfplaySummary) + Sync),
) -> Result<SelfplaySummary, SelfplayError> {
    let mut file = record::open_append::<V>(&cfg.output)?;
    // the shard's games in order, going on after the highest game the file holds
    let next = AtomicU64::new(cfg.shard.first_at_least(u64::from(file.next_game)));
    let start = Instant::now();
    let (tx, rx) = mpsc::channel::<PlayedGame>();
    let mut sum = SelfplaySummary::default();
    let done = std::sync::atomic::AtomicBool::new(false);
    let mut result = Ok(());
    std::thread::scope(|s| {
        for _ in 0..cfg.threads.max(1) {
            let tx = tx.clone();
            let (next, done) = (&next, &done);
            std::thread::Builder::new()
                .stack_size(64 * 1024 * 1024)
                .spawn_scoped(s, move || {
                    let mut searcher = Searcher::new(1, cfg.hash_mb);
                    searcher.use_nnue = cfg.net.is_some();
                    searcher.set_net(V::KIND, cfg.net.clone());
                    let halted = || stop() || done.load(Ordering::Relaxed);
                    while !halted() {
                        let index = cfg.shard.item(next.fetch_add(1, Ordering::Relaxed)) as u32;
                        match play_game::<V>(&mut searcher, cfg, index, &halted) {
                            Some(g) => {
                                if tx.send(g).is_err() {
                                    break;
                                }
                            }
                            None => break,
                        }
                    }
                })
                .map_err(|e| format!("cannot start a self-play thread: {e}"))
                .map(|_| ())
                .unwrap_or_else(|e| log::error!("{e}"));
        }
        drop(tx);
        for g in rx {
            if done.load(Ordering::Relaxed) {
                continue;
            }
            let written = match file.append::<V>(&g.records) {
                Ok(n) => n,
                Err(error) => {
                    result = Err(SelfplayError::Write {
                        path: cfg.output.clone(),
                        error,
                    });
                    done.store(true, Ordering::Relaxed);
                    continue;
                }
            };
            sum.games += 1;
            sum.positions += written as u64;
            sum.duplicates = file.duplicates;
            match g.winner {
                Some(Color::Black) => sum.black_wins += 1,
                Some(Color::White) => sum.white_wins += 1,
                None => sum.draws += 1,
            }
            sum.seconds = start.elapsed().as_secs_f64();
            progress(&sum);
            if sum.positions >= cfg.positions {
                done.store(true, Ordering::Relaxed);
            }
        }
    });
    result.map(|_| sum)
}
