//! What one page is doing: the game, the engine playing one side with the clocks, the analysis or mate search
//! running. [`Session::handle`] answers the page's requests (checking everything before changing anything);
//! [`Session::poll`] turns the engines' output and the clocks into messages for the page.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

use super::clock::Clocks;
use super::formats;
use super::info::parse_info;
use super::protocol::{GameInfo, Line, Reply, Request, State};
use super::record::{Ending, Record};
use super::watch;
use super::worker::{Event, Job, Worker};
use crate::matches::engine::EngineSpec;
use crate::matches::judge::{Outcome, Reason};
use crate::matches::time_control::TimeControl;
use crate::rules::piece::Color;
use crate::GameKind;

/// Why an engine may not play or analyse a tsume problem.
const KINGLESS: &str = "a position without both kings is for the tsume solver only";
/// The most MultiPV lines the page may ask for.
const MAX_MULTIPV: u32 = 10;
/// How often the watched files are read again: the delay of a running match's moves on the page.
const WATCH_POLL: Duration = Duration::from_millis(400);

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
    watched: Option<(usize, watch::Game)>,
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
            Err(message) => vec![Reply::Error { message }],
        }
    }

    fn apply(&mut self, req: Request) -> Result<Option<Reply>, String> {
        match req {
            Request::State {} => {}
            Request::New { game, start, moves } => {
                let kind: GameKind = game.parse().map_err(|e| format!("{e}"))?;
                let sfen = formats::start_sfen(kind, start.as_deref())?;
                let rec = Record::new(kind, sfen.as_deref())?
                    .with_moves(moves.iter().map(String::as_str))?;
                self.replace_game(rec);
            }
            Request::Import { text } => {
                let rec = formats::import(&text, self.record.kind)?;
                self.replace_game(rec);
            }
            Request::Export { format } => {
                let text = formats::export(&self.record, &format, &self.names_of_players())?;
                return Ok(Some(Reply::Export { format, text }));
            }
            Request::Move { usi } => self.player_move(&usi)?,
            Request::Takeback {} => self.take_back()?,
            Request::Play { engine, side, tc } => {
                self.check_engine(engine)?;
                let tc = TimeControl::parse(&tc).map_err(|e| format!("bad time control: {e}"))?;
                if side != "none" && !self.record.has_both_kings() {
                    return Err(KINGLESS.into());
                }
                let side = match side.as_str() {
                    "black" => Some(0),
                    "white" => Some(1),
                    "none" => None,
                    _ => {
                        return Err(format!(
                            "unknown side '{}' (black, white, none)",
                            short(&side)
                        ))
                    }
                };
                self.cancel_job();
                self.analysis = None;
                self.player = side.map(|side| Player {
                    engine,
                    side,
                    clocks: Clocks::new(tc),
                });
            }
            Request::Analyse { engine, multipv } => {
                self.check_engine(engine)?;
                if !(1..=MAX_MULTIPV).contains(&multipv) {
                    return Err(format!("multipv must be 1 to {MAX_MULTIPV}"));
                }
                if self.player.is_some() {
                    return Err("an engine is playing: set its side to none first".into());
                }
                if !self.record.has_both_kings() {
                    return Err(KINGLESS.into());
                }
                self.cancel_job();
                self.analysis = Some((engine, multipv));
            }
            Request::Stop {} => {
                let running = matches!(&self.job, Some(j) if j.purpose != Purpose::Move);
                if !running && self.analysis.is_none() {
                    return Err("no analysis or mate search is running".into());
                }
                self.analysis = None;
                self.cancel_job();
            }
            Request::Mate { engine, ms } => {
                self.check_engine(engine)?;
                if !(1..=3_600_000).contains(&ms) {
                    return Err("ms must be 1 to 3600000".into());
                }
                if self.player.is_some() {
                    return Err("an engine is playing: set its side to none first".into());
                }
                self.cancel_job();
                self.analysis = None;
                let commands = vec![self.record.position_command(), format!("go mate {ms}")];
                self.start_job(engine, Purpose::Mate, commands, "checkmate");
            }
            Request::WatchList {} => {
                let watcher = self.watcher()?;
                watcher.refresh()?;
                return Ok(Some(Reply::Games {
                    games: watch::summaries(&watcher.games()),
                }));
            }
            Request::Watch { index, ply } => {
                let watcher = self.watcher()?;
                watcher.refresh()?;
                let game = watcher
                    .games()
                    .into_iter()
                    .nth(index)
                    .ok_or_else(|| format!("no game {index} in the watched file"))?
                    .map_err(String::clone)?
                    .clone();
                let rec = watch::at_ply(&game, ply.unwrap_or(game.moves.len()))?;
                self.player = None;
                self.analysis = None;
                self.show_watched(index, game, rec);
            }
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

    fn watcher(&mut self) -> Result<&mut watch::Watcher, String> {
        let path = self
            .watch_path
            .as_ref()
            .ok_or_else(|| "no record file is watched (hayate gui --watch FILE)".to_string())?;
        Ok(self
            .watcher
            .get_or_insert_with(|| watch::Watcher::new(path.clone())))
    }

    /// Reads the watched files again when it is time: the new list when it changed, and the watched game at its
    /// new last ply when it grew while the page showed its last ply.
    fn poll_watch(&mut self) -> Vec<Reply> {
        if self.last_watch_poll.elapsed() < WATCH_POLL {
            return Vec::new();
        }
        self.last_watch_poll = Instant::now();
        let Some(watcher) = self.watcher.as_mut() else {
            return Vec::new();
        };
        match watcher.refresh() {
            Ok(true) => {}
            Ok(false) => return Vec::new(),
            Err(e) => {
                // the file may be between a match's creation and its first line; the page keeps what it has
                log::debug!("gui: watch: {e}");
                return Vec::new();
            }
        }
        let games = watcher.games();
        let mut out = vec![Reply::Games {
            games: watch::summaries(&games),
        }];
        let Some((index, old)) = &self.watched else {
            return out;
        };
        let Some(Ok(new)) = games.get(*index) else {
            return out;
        };
        let grew = new.moves.len() != old.moves.len()
            || new.ending != old.ending
            || new.clocks != old.clocks;
        // the same game: the moves seen are the head of the new ones
        if !grew || !new.moves.starts_with(&old.moves) {
            return out;
        }
        let (index, new) = (*index, (*new).clone());
        let ply = if self.record.moves.len() == old.moves.len() {
            new.moves.len()
        } else {
            self.record.moves.len()
        };
        if let Ok(rec) = watch::at_ply(&new, ply) {
            // an analysis of the position shown goes on; the page then gets only the new count
            if self.job.is_none() {
                self.show_watched(index, new, rec);
            } else {
                self.watched = Some((index, new));
            }
            out.push(Reply::State(Box::new(self.state())));
        }
        out
    }

    /// Shows `rec`, game `index` of the watched list at some ply, with its engines' scores.
    fn show_watched(&mut self, index: usize, game: watch::Game, rec: Record) {
        let ply = rec.moves.len();
        self.replace_game(rec);
        self.evals = watch::evals(&game, ply);
        self.watched = Some((index, game));
    }

    fn check_engine(&self, engine: usize) -> Result<(), String> {
        if engine < self.specs.len() {
            Ok(())
        } else {
            Err(format!(
                "no engine {engine} (there are {})",
                self.specs.len()
            ))
        }
    }

    fn names_of_players(&self) -> [String; 2] {
        let mut names = ["Sente".to_string(), "Gote".to_string()];
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

    fn player_move(&mut self, usi: &str) -> Result<(), String> {
        if self.engine_to_move() {
            return Err("the engine is to move".into());
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

    fn take_back(&mut self) -> Result<(), String> {
        let played = self.record.moves.len();
        if played == 0 {
            return Err("no move to take back".into());
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

    fn cancel_job(&mut self) {
        if let Some(job) = self.job.take() {
            if let Some(Some(w)) = self.workers.get(job.engine) {
                w.send(Job::Stop);
            }
            if job.purpose == Purpose::Move {
                if let Some(p) = &mut self.player {
                    p.clocks.stop();
                }
            }
        }
    }

    /// The engine's worker for the current game, started when missing or for another game.
    fn worker(&mut self, engine: usize) -> &Worker {
        let kind = self.record.kind;
        let slot = &mut self.workers[engine];
        if slot.as_ref().is_none_or(|w| w.kind != kind) {
            *slot = Some(Worker::start(
                self.specs[engine].clone(),
                kind,
                engine,
                self.events_tx.clone(),
            ));
        }
        match slot {
            Some(w) => w,
            None => unreachable!("just started"),
        }
    }

    fn start_job(
        &mut self,
        engine: usize,
        purpose: Purpose,
        commands: Vec<String>,
        until: &'static str,
    ) {
        let id = self.next_id;
        self.next_id += 1;
        self.worker(engine).send(Job::Run {
            id,
            commands,
            until,
        });
        self.lines.clear();
        self.depth = 0;
        self.nodes = 0;
        self.job = Some(Running {
            id,
            engine,
            purpose,
            ply: self.record.moves.len(),
            black: self.record.black_to_move(),
        });
    }

    /// Starts whatever should run now: the engine's move, the analysis of the new position, the player's clock.
    fn kick(&mut self) {
        if self.job.is_some() {
            return;
        }
        if self.record.ending.is_some() {
            if let Some(p) = &mut self.player {
                p.clocks.stop();
            }
            return;
        }
        let to_move = self.side_to_move();
        if let Some(p) = &mut self.player {
            if p.clocks.running_side() != Some(to_move) {
                p.clocks.stop();
                p.clocks.start(to_move);
            }
            if p.side == to_move {
                let (engine, go) = (p.engine, p.clocks.go_command());
                let commands = vec![
                    "setoption name MultiPV value 1".to_string(),
                    self.record.position_command(),
                    go,
                ];
                self.start_job(engine, Purpose::Move, commands, "bestmove");
            }
        } else if let Some((engine, multipv)) = self.analysis {
            let commands = vec![
                format!("setoption name MultiPV value {multipv}"),
                self.record.position_command(),
                "go infinite".to_string(),
            ];
            self.start_job(engine, Purpose::Analyse, commands, "bestmove");
        }
    }

    /// The engines' output and the clocks since the last call, as messages for the page.
    pub fn poll(&mut self) -> Vec<Reply> {
        let mut out = Vec::new();
        let mut changed = false;
        while let Ok((engine, event)) = self.events_rx.try_recv() {
            match event {
                Event::Failed { message } => {
                    log::warn!("gui: engine {engine}: {message}");
                    self.workers[engine] = None;
                    if self.job.as_ref().is_some_and(|j| j.engine == engine) {
                        self.job = None;
                        if let Some(p) = &mut self.player {
                            p.clocks.stop();
                        }
                    }
                    self.analysis = self.analysis.filter(|a| a.0 != engine);
                    out.push(Reply::EngineError { engine, message });
                    changed = true;
                }
                Event::Info { id, line } => {
                    if let Some(r) = self.info(id, &line) {
                        out.push(r);
                    }
                }
                Event::Done { id, line } => {
                    if self.job.as_ref().is_some_and(|j| j.id == id) {
                        if let Some(r) = self.done(&line) {
                            out.push(r);
                        }
                        changed = true;
                    }
                }
            }
        }
        if let Some(p) = &self.player {
            if let (Some(side), None) = (p.clocks.flagged(), self.record.ending) {
                self.end(Ending {
                    outcome: Outcome::win_for(!Color::ALL[side]),
                    reason: Reason::Time,
                });
                changed = true;
            }
        }
        if changed {
            out.push(Reply::State(Box::new(self.state())));
        }
        out.extend(self.poll_watch());
        out
    }

    fn info(&mut self, id: u64, line: &str) -> Option<Reply> {
        let job = self.job.as_ref().filter(|j| j.id == id)?;
        let info = parse_info(line)?;
        if info.multipv == 1 {
            if let Some(cp) = info.cp {
                let cp = if job.black { cp } else { -cp };
                if let Some(e) = self.evals.get_mut(job.ply) {
                    *e = Some(cp);
                }
            }
        }
        if job.purpose != Purpose::Analyse {
            return None;
        }
        let engine = job.engine;
        self.depth = info.depth.unwrap_or(self.depth);
        self.nodes = info.nodes.unwrap_or(self.nodes);
        if !info.pv.is_empty() {
            // a move heads one line only: a line of the previous depth that the new one overtook goes
            let first = info.pv[0].clone();
            self.lines
                .retain(|&k, l| k == info.multipv || l.pv.first() != Some(&first));
            self.lines.insert(
                info.multipv,
                Line {
                    multipv: info.multipv,
                    score: info.score,
                    pv_ja: self.record.japanese_line(&info.pv),
                    pv: info.pv,
                },
            );
        }
        Some(Reply::Analysis {
            engine,
            depth: self.depth,
            nodes: self.nodes,
            lines: self.lines.values().cloned().collect(),
        })
    }

    /// The line that ended the running job.
    fn done(&mut self, line: &str) -> Option<Reply> {
        let job = self.job.take()?;
        let mut words = line.split_whitespace().skip(1);
        let answer = words.next().unwrap_or("");
        match job.purpose {
            Purpose::Move => {
                let Some(p) = &mut self.player else {
                    return None;
                };
                let engine_color = Color::ALL[p.side];
                let in_time = p.clocks.stop();
                if !in_time {
                    self.end(Ending {
                        outcome: Outcome::win_for(!engine_color),
                        reason: Reason::Time,
                    });
                } else if answer == "resign" {
                    self.end(Ending {
                        outcome: Outcome::win_for(!engine_color),
                        reason: Reason::Resign,
                    });
                } else if answer == "win" {
                    let (outcome, reason) = self.record.declaration();
                    self.end(Ending { outcome, reason });
                } else if let Err(e) = self.record.play(answer) {
                    log::warn!("gui: engine move '{}' refused: {e}", short(answer));
                    self.end(Ending {
                        outcome: Outcome::win_for(!engine_color),
                        reason: Reason::Illegal,
                    });
                } else {
                    self.evals.resize(self.record.moves.len() + 1, None);
                }
                self.kick();
                None
            }
            Purpose::Analyse => {
                // the search ended by itself (a position without moves): it is not started again
                self.analysis = None;
                None
            }
            Purpose::Mate => {
                let rest: Vec<String> = std::iter::once(answer)
                    .chain(words)
                    .filter(|w| !w.is_empty())
                    .map(str::to_string)
                    .collect();
                let result = match rest.first().map(String::as_str) {
                    Some(r @ ("nomate" | "timeout" | "notimplemented")) => r.to_string(),
                    Some(_) => "mate".to_string(),
                    None => "nomate".to_string(),
                };
                let moves = if result == "mate" { rest } else { Vec::new() };
                let moves_ja = self.record.japanese_line(&moves);
                Some(Reply::Mate {
                    result,
                    moves,
                    moves_ja,
                })
            }
        }
    }

    /// A running match's clocks for the watched game shown at its last ply.
    fn watched_clocks(&self) -> Option<[u64; 2]> {
        let (_, game) = self.watched.as_ref()?;
        (self.player.is_none() && self.record.moves.len() == game.moves.len())
            .then_some(game.clocks)
            .flatten()
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

/// At most 40 characters of a word from the page, for error messages.
fn short(s: &str) -> String {
    s.chars().take(40).collect()
}
