//! What one page is doing: the game, the engine playing one side with the clocks, the analysis or mate search
//! running. [`Session::handle`] answers the page's requests (checking everything before changing anything);
//! [`Session::poll`] turns the engines' output and the clocks into messages for the page.

mod jobs;
mod watching;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

use super::clock::Clocks;
use super::formats::{self, ExportError, ImportError, UnknownStart};
use super::info::parse_info;
use super::protocol::{GameInfo, Line, Reply, Request, State};
use super::record::{Ending, Record, RecordError};
use super::watch::{self, FileGameError, WatchError};
use super::worker::{Event, Job, Worker};
use crate::host::engine_process::EngineSpec;
use crate::host::judge::{Outcome, Reason};
use crate::host::time_control::{TimeControl, TimeControlError};
use crate::rules::game::UnknownGame;
use crate::rules::piece::Color;
use crate::rules::truncate;
use crate::GameKind;

/// The most MultiPV lines the page may ask for.
const MAX_MULTIPV: u32 = 10;
/// How often the watched files are read again: the delay of a running match's moves on the page.
const WATCH_POLL: Duration = Duration::from_millis(400);

/// Why the session refused a request of the page (and changed nothing); its text is the page's error message.
/// A word quoted is cut to 40 characters.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error(transparent)]
    Game(#[from] UnknownGame),
    #[error(transparent)]
    Start(#[from] UnknownStart),
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error(transparent)]
    Import(#[from] ImportError),
    #[error(transparent)]
    Export(#[from] ExportError),
    #[error("no analysis or mate search is running")]
    NothingRunning,
    #[error("bad time control: {0}")]
    TimeControl(TimeControlError),
    /// An engine may not play or analyse a tsume problem.
    #[error("a position without both kings is for the tsume solver only")]
    Kingless,
    #[error("unknown side '{0}' (black, white, none)")]
    Side(String),
    #[error("multipv must be 1 to {MAX_MULTIPV}")]
    MultiPv,
    #[error("ms must be 1 to 3600000")]
    MateTime,
    #[error("an engine is playing: set its side to none first")]
    EnginePlaying,
    #[error("no engine {engine} (there are {count})")]
    NoEngine { engine: usize, count: usize },
    #[error("the engine is to move")]
    EngineToMove,
    #[error("no move to take back")]
    NoTakeBack,
    #[error("no record file is watched (hayate gui --watch FILE)")]
    NotWatching,
    #[error(transparent)]
    Watch(#[from] WatchError),
    #[error("no game {0} in the watched file")]
    NoWatchedGame(usize),
    #[error(transparent)]
    WatchedGame(#[from] FileGameError),
}

/// The engine playing one side.
struct Player {
    engine: usize,
    /// 0 sente, 1 gote.
    side: usize,
    clocks: Clocks,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Purpose {
    Move,
    Analyse,
    Mate,
}

/// The one engine job running.
struct Running {
    id: u64,
    engine: usize,
    purpose: Purpose,
    /// Plies played when it started: the ply its scores belong to.
    ply: usize,
    /// Sente to move at its root (to turn the engine's scores to sente's side).
    black: bool,
}

pub struct Session {
    specs: Vec<EngineSpec>,
    names: Vec<String>,
    workers: Vec<Option<Worker>>,
    events_tx: Sender<(usize, Event)>,
    events_rx: Receiver<(usize, Event)>,
    record: Record,
    /// What the imported record said beside its moves (`formats::Notes`); none for any other game.
    notes: formats::Notes,
    evals: Vec<Option<i32>>,
    player: Option<Player>,
    /// Analysis mode: engine and MultiPV; it follows the position until `stop`.
    analysis: Option<(usize, u32)>,
    job: Option<Running>,
    next_id: u64,
    lines: BTreeMap<u32, Line>,
    depth: u32,
    nodes: u64,
    watch_path: Option<PathBuf>,
    /// The watched games, once the page asked for their list; from then on they are read again every
    /// [`WATCH_POLL`] and pushed when they change.
    watcher: Option<watch::Watcher>,
    last_watch_poll: Instant,
    /// The watched game shown: its index in the file and the game itself.
    watched: Option<(usize, watch::FileGame)>,
}

impl Session {
    pub fn new(specs: Vec<EngineSpec>, watch_path: Option<PathBuf>) -> Session {
        let (events_tx, events_rx) = mpsc::channel();
        let names = specs
            .iter()
            .map(|s| s.name.clone().unwrap_or_else(|| s.fallback_name()))
            .collect();
        let record = match Record::new(GameKind::Shogi, None) {
            Ok(r) => r,
            Err(e) => unreachable!("the start position is valid: {e}"),
        };
        Session {
            workers: specs.iter().map(|_| None).collect(),
            specs,
            names,
            events_tx,
            events_rx,
            record,
            notes: formats::Notes::default(),
            evals: vec![None],
            player: None,
            analysis: None,
            job: None,
            next_id: 1,
            lines: BTreeMap::new(),
            depth: 0,
            nodes: 0,
            watch_path,
            watcher: None,
            last_watch_poll: Instant::now(),
            watched: None,
        }
    }

    pub fn hello(&self) -> Reply {
        let games = GameKind::ALL
            .iter()
            .map(|&g| GameInfo {
                name: g.name().to_string(),
                ranks: g.shape().0,
                files: g.shape().1,
                starts: formats::start_names(g),
            })
            .collect();
        Reply::Hello {
            games,
            engines: self.names.clone(),
            watching: self.watch_path.is_some(),
        }
    }

    /// Answers one request: the new state, an export, or an error (and then nothing changed).
    pub fn handle(&mut self, req: Request) -> Vec<Reply> {
        match self.apply(req) {
            Ok(Some(r)) => vec![r],
            Ok(None) => vec![Reply::State(Box::new(self.state()))],
            Err(e) => vec![Reply::Error {
                message: e.to_string(),
            }],
        }
    }

    fn apply(&mut self, req: Request) -> Result<Option<Reply>, SessionError> {
        match req {
            Request::State {} => {}
            Request::New { game, start, moves } => {
                let kind: GameKind = game.parse()?;
                let sfen = formats::start_sfen(kind, start.as_deref())?;
                let rec = Record::new(kind, sfen.as_deref())?
                    .with_moves(moves.iter().map(String::as_str))?;
                self.replace_game(rec);
            }
            Request::Import { text } => {
                let (rec, notes) = formats::import(&text, self.record.kind)?;
                self.replace_game(rec);
                self.notes = notes;
            }
            Request::Export { format } => {
                let text =
                    formats::export(&self.record, &format, &self.names_of_players(), &self.notes)?;
                return Ok(Some(Reply::Export { format, text }));
            }
            Request::Move { usi } => self.player_move(&usi)?,
            Request::Takeback {} => self.take_back()?,
            Request::Play { engine, side, tc } => self.play(engine, &side, &tc)?,
            Request::Analyse { engine, multipv } => self.analyse(engine, multipv)?,
            Request::Stop {} => {
                let running = matches!(&self.job, Some(j) if j.purpose != Purpose::Move);
                if !running && self.analysis.is_none() {
                    return Err(SessionError::NothingRunning);
                }
                self.analysis = None;
                self.cancel_job();
            }
            Request::Mate { engine, ms } => self.mate(engine, ms)?,
            Request::WatchList {} => {
                let watcher = self.watcher()?;
                watcher.refresh()?;
                return Ok(Some(Reply::Games {
                    games: watch::summaries(&watcher.games()),
                }));
            }
            Request::Watch { index, ply } => self.watch(index, ply)?,
            Request::Restart { engine } => {
                self.check_engine(engine)?;
                if self.job.as_ref().is_some_and(|j| j.engine == engine) {
                    self.job = None;
                }
                self.workers[engine] = None;
                self.worker(engine);
            }
        }
        self.kick();
        Ok(None)
    }

    /// `play`: an engine takes `side` (`black`, `white`, or `none`: no engine plays) under time control `tc`.
    fn play(&mut self, engine: usize, side: &str, tc: &str) -> Result<(), SessionError> {
        self.check_engine(engine)?;
        let tc = TimeControl::parse(tc).map_err(SessionError::TimeControl)?;
        if side != "none" && !self.record.has_both_kings() {
            return Err(SessionError::Kingless);
        }
        let side = match side {
            "black" => Some(0),
            "white" => Some(1),
            "none" => None,
            _ => return Err(SessionError::Side(truncate(side))),
        };
        self.cancel_job();
        self.analysis = None;
        self.player = side.map(|side| Player {
            engine,
            side,
            clocks: Clocks::new(tc),
        });
        Ok(())
    }

    /// `analyse`: an engine analyses the position with `multipv` lines until stopped.
    fn analyse(&mut self, engine: usize, multipv: u32) -> Result<(), SessionError> {
        self.check_engine(engine)?;
        if !(1..=MAX_MULTIPV).contains(&multipv) {
            return Err(SessionError::MultiPv);
        }
        if self.player.is_some() {
            return Err(SessionError::EnginePlaying);
        }
        if !self.record.has_both_kings() {
            return Err(SessionError::Kingless);
        }
        self.cancel_job();
        self.analysis = Some((engine, multipv));
        Ok(())
    }

    /// `mate`: an engine's tsume solver on the position, for at most `ms` milliseconds.
    fn mate(&mut self, engine: usize, ms: u64) -> Result<(), SessionError> {
        self.check_engine(engine)?;
        if !(1..=3_600_000).contains(&ms) {
            return Err(SessionError::MateTime);
        }
        if self.player.is_some() {
            return Err(SessionError::EnginePlaying);
        }
        self.cancel_job();
        self.analysis = None;
        let commands = vec![self.record.position_command(), format!("go mate {ms}")];
        self.start_job(engine, Purpose::Mate, commands, "checkmate");
        Ok(())
    }

    /// `watch`: game `index` of the watched records, shown at `ply` (its last ply without one).
    fn watch(&mut self, index: usize, ply: Option<usize>) -> Result<(), SessionError> {
        let watcher = self.watcher()?;
        watcher.refresh()?;
        let game = watcher
            .games()
            .into_iter()
            .nth(index)
            .ok_or(SessionError::NoWatchedGame(index))?
            .map_err(FileGameError::clone)?
            .clone();
        let rec = watch::at_ply(&game, ply.unwrap_or(game.moves.len()))?;
        self.player = None;
        self.analysis = None;
        self.show_watched(index, game, rec);
        Ok(())
    }

    fn check_engine(&self, engine: usize) -> Result<(), SessionError> {
        if engine < self.specs.len() {
            Ok(())
        } else {
            Err(SessionError::NoEngine {
                engine,
                count: self.specs.len(),
            })
        }
    }

    /// The players as a record names them: an engine playing here, else those of the imported record.
    fn names_of_players(&self) -> [String; 2] {
        let mut names = self
            .notes
            .names
            .clone()
            .unwrap_or_else(|| ["Sente".to_string(), "Gote".to_string()]);
        if let Some(p) = &self.player {
            names[p.side] = self.names[p.engine].clone();
        }
        names
    }

    fn replace_game(&mut self, rec: Record) {
        self.cancel_job();
        self.watched = None;
        if !rec.has_both_kings() {
            self.player = None;
            self.analysis = None;
        }
        self.evals = vec![None; rec.moves.len() + 1];
        self.record = rec;
        self.notes = formats::Notes::default();
        if let Some(p) = &mut self.player {
            p.clocks = Clocks::new(p.clocks.tc);
        }
    }

    fn side_to_move(&self) -> usize {
        usize::from(!self.record.black_to_move())
    }

    fn engine_to_move(&self) -> bool {
        self.player
            .as_ref()
            .is_some_and(|p| p.side == self.side_to_move())
    }

    fn player_move(&mut self, usi: &str) -> Result<(), SessionError> {
        if self.engine_to_move() {
            return Err(SessionError::EngineToMove);
        }
        let mut rec = self.record.clone();
        rec.play(usi)?;
        if let Some(p) = &mut self.player {
            if !p.clocks.stop() {
                let side = p.side;
                self.end(Ending {
                    outcome: Outcome::win_for(Color::ALL[side]),
                    reason: Reason::Time,
                });
                return Ok(());
            }
        }
        if self
            .job
            .as_ref()
            .is_some_and(|j| j.purpose != Purpose::Move)
        {
            self.cancel_job();
        }
        self.record = rec;
        self.evals.resize(self.record.moves.len() + 1, None);
        Ok(())
    }

    fn take_back(&mut self) -> Result<(), SessionError> {
        let played = self.record.moves.len();
        if played == 0 {
            return Err(SessionError::NoTakeBack);
        }
        let n = match &self.player {
            // the engine's move is not in yet: only the player's own move goes
            Some(_) if self.engine_to_move() => 1,
            // back to the player's turn: the engine's reply and the player's move
            Some(_) if played >= 2 => 2,
            _ => 1,
        };
        self.cancel_job();
        if let Some(p) = &mut self.player {
            // the clocks pause; the time already used stays used
            p.clocks.stop();
        }
        self.record.take_back(n);
        self.evals.truncate(self.record.moves.len() + 1);
        Ok(())
    }

    /// Ends the game from outside the rules (time, resignation, an engine's illegal move).
    fn end(&mut self, ending: Ending) {
        self.cancel_job();
        if let Some(p) = &mut self.player {
            p.clocks.stop();
        }
        self.record.ending = Some(ending);
    }

    pub fn state(&self) -> State {
        let view = self.record.view();
        let engine_moves = self.engine_to_move();
        let clocks = self
            .player
            .as_ref()
            .filter(|p| p.clocks.tc.has_clock())
            .map(|p| &p.clocks);
        State {
            game: self.record.kind.name().to_string(),
            start_sfen: self.record.start_sfen.clone(),
            moves: self.record.moves.clone(),
            moves_ja: self.record.japanese_moves(),
            names: self.notes.names.clone(),
            headers: self.notes.headers.clone(),
            times_ms: self.notes.times_ms(&self.record.moves),
            comments: self
                .notes
                .comments(&self.record.moves)
                .into_iter()
                .map(|c| c.join("\n"))
                .collect(),
            recorded_ending: self
                .notes
                .ending(&self.record.moves)
                .map(|e| e.word().to_string()),
            sfen: view.sfen,
            legal: if engine_moves { Vec::new() } else { view.legal },
            check: view.check,
            result: self.record.ending.map(|e| e.outcome.as_str().to_string()),
            reason: self.record.ending.map(|e| e.reason.as_str().to_string()),
            engine_side: self
                .player
                .as_ref()
                .map(|p| ["black", "white"][p.side].to_string()),
            thinking: matches!(&self.job, Some(j) if j.purpose == Purpose::Move),
            clocks: clocks.map(Clocks::now_ms).or_else(|| self.watched_clocks()),
            byoyomi: clocks.map_or(0, Clocks::byoyomi),
            running: clocks
                .and_then(Clocks::running_side)
                .map(|s| ["black", "white"][s].to_string()),
            evals: self.evals.clone(),
            analysing: self.analysis.is_some()
                || matches!(&self.job, Some(j) if j.purpose == Purpose::Analyse),
            watched: self.watched.as_ref().map(|(i, g)| [*i, g.moves.len()]),
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.cancel_job();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page shows these as they were written when they were strings.
    #[test]
    fn refusals_keep_their_text() {
        let mut s = Session::new(Vec::new(), None);
        let refused = |s: &mut Session, req| s.apply(req).unwrap_err().to_string();
        assert_eq!(
            refused(
                &mut s,
                Request::Analyse {
                    engine: 0,
                    multipv: 1
                }
            ),
            "no engine 0 (there are 0)"
        );
        assert_eq!(SessionError::MultiPv.to_string(), "multipv must be 1 to 10");
        assert_eq!(
            SessionError::EnginePlaying.to_string(),
            "an engine is playing: set its side to none first"
        );
        assert_eq!(
            refused(
                &mut s,
                Request::Watch {
                    index: 0,
                    ply: None
                }
            ),
            "no record file is watched (hayate gui --watch FILE)"
        );
    }
}
