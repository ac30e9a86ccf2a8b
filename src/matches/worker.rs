//! A worker: one thread of a match, owning one process of each engine, playing the games the runner hands it
//! one at a time and sending back each finished game.

use std::marker::PhantomData;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Mutex;
use std::time::Duration;

use crate::rules::piece::Color;
use crate::Variant;

use super::openings::{self, Opening};
use super::play::{play_game, GameRecord, Progress};
use super::tally::FinishedGame;
use super::MatchConfig;
use crate::host::engine_process::{EngineProcess, Failure, StartError};
use crate::host::interrupt;
use crate::host::judge::{Judge, Outcome, Reason};
use crate::host::records::LiveGame;

/// What a worker sends to the runner.
pub(super) enum Message {
    Done(FinishedGame),
    /// The match cannot go on.
    Error(String),
}

/// What every worker of a match shares.
#[derive(Clone, Copy)]
pub(super) struct Shared<'a> {
    pub cfg: &'a MatchConfig,
    pub openings: &'a [Opening],
    pub names: &'a [String; 2],
    /// Game numbers, handed out by the runner.
    pub jobs: &'a Mutex<Receiver<usize>>,
}

/// Why a worker stops: quietly (the match is being stopped), or with an error that stops the match.
type Stop = Option<String>;

pub(super) struct Worker<'a, V: Variant> {
    /// The worker's number, for the engines' labels in the log.
    pub id: usize,
    /// Each engine's process, None until started (or after it failed).
    pub slots: [Option<EngineProcess>; 2],
    pub shared: Shared<'a>,
    pub results: Sender<Message>,
    pub variant: PhantomData<V>,
}

impl<V: Variant> Worker<'_, V> {
    /// Plays games until there are no more, the match stops, or the runner is gone; then quits its engines.
    pub fn run(mut self) {
        while let Some(index) = self.next_job() {
            let sente = index % 2;
            let record = match self.game(index, sente) {
                Ok(r) => r,
                Err(stop) => {
                    if let Some(e) = stop {
                        let _ = self.results.send(Message::Error(e));
                    }
                    break;
                }
            };
            // an engine killed by the same Ctrl-C as the host looks crashed: such a game is abandoned, not counted
            if interrupt::requested() && matches!(record.reason, Reason::Crash | Reason::Hang) {
                break;
            }
            for (c, &f) in record.failed.iter().enumerate() {
                let e = if c == 0 { sente } else { 1 - sente };
                if f {
                    if let Some(mut eng) = self.slots[e].take() {
                        eng.kill();
                    }
                }
            }
            let done = FinishedGame {
                index,
                sente,
                record,
            };
            if self.results.send(Message::Done(done)).is_err() {
                break;
            }
        }
        for eng in self.slots.into_iter().flatten() {
            eng.quit(Duration::from_millis(1000));
        }
    }

    /// The next game number, None when there is none or the match is being stopped.
    fn next_job(&self) -> Option<usize> {
        let job = match self.shared.jobs.lock() {
            Ok(rx) => rx.recv(),
            Err(_) => return None,
        };
        let index = job.ok()?;
        (!interrupt::requested()).then_some(index)
    }

    /// Plays game `index` (0-based) with engine `sente` as sente, or scores it as lost by the engine that could
    /// not be made ready.
    fn game(&mut self, index: usize, sente: usize) -> Result<GameRecord, Stop> {
        let cfg = self.shared.cfg;
        let openings = self.shared.openings;
        let pair = index / 2;
        let opening = openings::with_random_plies::<V>(
            &openings[pair % openings.len()],
            cfg.random_plies,
            cfg.seed,
            pair,
        )
        .map_err(|e| Some(format!("game {}: {e}", index + 1)))?;
        let failure = self.ready_engines()?;
        match (&failure[0], &failure[1]) {
            (Some(_), Some(_)) => Err(Some(format!(
                "game {}: neither engine could be made ready",
                index + 1
            ))),
            (Some((f, why)), None) | (None, Some((f, why))) => {
                let loser = if failure[0].is_some() { 0 } else { 1 };
                let loser_colour = if loser == sente {
                    Color::Black
                } else {
                    Color::White
                };
                forfeit::<V>(&opening, loser_colour, *f, why)
            }
            (None, None) => {
                let mut live = self.live_game(index, sente);
                let (a, b) = self.slots.split_at_mut(1);
                let (Some(e0), Some(e1)) = (a[0].as_mut(), b[0].as_mut()) else {
                    return Err(None);
                };
                let (engines, tcs) = if sente == 0 {
                    ([e0, e1], cfg.tcs)
                } else {
                    ([e1, e0], [cfg.tcs[1], cfg.tcs[0]])
                };
                let mut on_move = |p: &Progress| {
                    if let Some(l) = live.as_mut() {
                        p.start_sfen.clone_into(&mut l.game.start_sfen);
                        l.game.moves = p.moves.to_vec();
                        l.game.clocks = p.clocks;
                        l.game.scores = p.scores.to_vec();
                        l.write();
                    }
                };
                let played = play_game::<V>(
                    engines,
                    tcs,
                    &opening.sfen,
                    &opening.moves,
                    &cfg.limits,
                    &mut on_move,
                );
                if let (Some(l), Ok(Some(r))) = (live.as_mut(), &played) {
                    l.game.moves = r.moves.clone();
                    l.game.ending = Some((r.outcome, r.reason));
                    l.write();
                }
                match played {
                    Ok(Some(r)) => Ok(r),
                    Ok(None) => Err(None),
                    Err(e) => Err(Some(format!("game {}: {e}", index + 1))),
                }
            }
        }
    }

    /// The live record of game `index` with engine `sente` as sente, when the match writes records.
    fn live_game(&self, index: usize, sente: usize) -> Option<Live> {
        let dir = self.shared.cfg.out_dir.clone()?;
        let names = self.shared.names;
        Some(Live {
            dir,
            warned: false,
            game: LiveGame {
                number: index + 1,
                names: [names[sente].clone(), names[1 - sente].clone()],
                clocks: None,
                scores: Vec::new(),
                start_sfen: String::new(),
                moves: Vec::new(),
                ending: None,
            },
        })
    }

    /// Readies both engines for a new game, restarting those that died or do not answer. Returns, per engine, why
    /// it could not be made ready; Err to stop the worker (the match is being stopped, or an engine cannot even be
    /// spawned).
    fn ready_engines(&mut self) -> Result<[Option<(Failure, String)>; 2], Stop> {
        let Shared { cfg, names, .. } = self.shared;
        let mut failure: [Option<(Failure, String)>; 2] = [None, None];
        for e in 0..2 {
            let label = format!("{}[{}]", names[e], self.id);
            let slot = &mut self.slots[e];
            if let Some(eng) = slot.as_mut() {
                match eng.new_game(cfg.ready_timeout) {
                    Ok(()) if eng.is_alive() => {}
                    Err(Failure::Interrupted) => return Err(None),
                    _ => {
                        eng.kill();
                        *slot = None;
                    }
                }
            }
            if slot.is_none() {
                match EngineProcess::start(&cfg.engines[e], V::KIND, &label, cfg.ready_timeout) {
                    Ok(mut eng) => match eng.new_game(cfg.ready_timeout) {
                        Ok(()) => *slot = Some(eng),
                        Err(Failure::Interrupted) => return Err(None),
                        Err(f) => {
                            eng.kill();
                            failure[e] = Some((f, "no readyok before the game".into()));
                        }
                    },
                    Err(StartError::Handshake(Failure::Interrupted)) => return Err(None),
                    Err(StartError::Handshake(f)) => {
                        failure[e] = Some((f, "failed to start".into()))
                    }
                    Err(err @ StartError::Spawn(_)) => {
                        return Err(Some(format!("{}: {err}", names[e])))
                    }
                }
            }
        }
        Ok(failure)
    }
}

/// A game's live record and where it goes.
struct Live {
    dir: PathBuf,
    game: LiveGame,
    /// A folder that cannot be written is reported once per game, not once per move.
    warned: bool,
}

impl Live {
    fn write(&mut self) {
        if let Err(e) = self.game.write(&self.dir) {
            if !self.warned {
                log::warn!("{e}");
                self.warned = true;
            }
        }
    }
}

/// The record of a game lost before its first move by the side `loser` whose engine could not be made ready.
fn forfeit<V: Variant>(
    opening: &Opening,
    loser: Color,
    failure: Failure,
    why: &str,
) -> Result<GameRecord, Stop> {
    let mut judge = Judge::<V>::new(&opening.sfen).map_err(|e| Some(e.to_string()))?;
    for m in &opening.moves {
        let _ = judge.play(m);
    }
    let mut failed = [false; 2];
    failed[loser.index()] = true;
    Ok(GameRecord {
        start_sfen: judge.start_sfen().to_string(),
        moves: opening.moves.clone(),
        times_ms: vec![None; opening.moves.len()],
        outcome: Outcome::win_for(!loser),
        reason: if failure == Failure::Crash {
            Reason::Crash
        } else {
            Reason::Hang
        },
        detail: why.to_string(),
        failed,
        started: std::time::SystemTime::now(),
    })
}
