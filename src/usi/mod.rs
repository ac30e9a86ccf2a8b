//! The USI protocol loop.
//!
//! A reader thread turns stdin into commands on a channel; the engine thread owns the position, the options and
//! the searcher, and starts each search on a coordinator thread, so `stop`, `ponderhit`, `isready` and `quit`
//! are answered while a search runs. stdout carries protocol lines only, each written whole and flushed.

use std::fs::File;
use std::io::{BufRead, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

use crate::engine::eval::{eval_terms, GameEval};
use crate::engine::search::{
    Clock, Info, Limits, SearchResult, Searcher, TimeOptions, MATE, MATE_BOUND,
};
use crate::engine::tt::Bound;
use crate::rules::perft::divide;
use crate::rules::position::notation::{move_to_usi, parse_usi_move};
use crate::rules::position::sfen::SfenError;
use crate::rules::position::Position;
use crate::rules::variant::{Minishogi, Shogi, Variant, Yari};
use crate::{EnteringKingRule, GameKind};

/// The longest line read whole; the rest of a longer line is discarded and the line reported as an error.
const MAX_LINE: usize = 64 * 1024;

/// Where protocol output goes: stdout, plus a log file when `LogFile` is set.
#[derive(Clone, Default)]
pub struct Output {
    log: Arc<Mutex<Option<File>>>,
}

impl Output {
    pub fn send(&self, line: &str) {
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
        drop(out);
        self.log_line("<", line);
    }

    fn log_line(&self, dir: &str, line: &str) {
        if let Ok(mut log) = self.log.lock() {
            if let Some(f) = log.as_mut() {
                let _ = writeln!(f, "{dir} {line}");
            }
        }
    }

    pub fn error(&self, msg: &str) {
        self.send(&format!("info string error: {msg}"));
    }

    fn set_log(&self, path: &str) -> Result<(), String> {
        let mut log = self
            .log
            .lock()
            .map_err(|_| "log file lock poisoned".to_string())?;
        if path.is_empty() || path == "<empty>" {
            *log = None;
            return Ok(());
        }
        match File::create(path) {
            Ok(f) => {
                *log = Some(f);
                Ok(())
            }
            Err(e) => Err(format!("cannot open LogFile '{path}': {e}")),
        }
    }
}

/// One of the three games with its position.
#[derive(Clone)]
#[allow(clippy::large_enum_variant)] // one per engine, never moved in a hot path
pub enum Game {
    Shogi(Position<Shogi>),
    Minishogi(Position<Minishogi>),
    Yari(Position<Yari>),
}

/// Calls a generic body with the game's position bound to `$p` and its variant type to `$V`.
macro_rules! with_game {
    ($game:expr, $p:ident, $V:ident, $body:expr) => {
        match $game {
            Game::Shogi($p) => {
                type $V = Shogi;
                $body
            }
            Game::Minishogi($p) => {
                type $V = Minishogi;
                $body
            }
            Game::Yari($p) => {
                type $V = Yari;
                $body
            }
        }
    };
}

impl Game {
    pub fn start(kind: GameKind) -> Game {
        match kind {
            GameKind::Shogi => Game::Shogi(Position::startpos()),
            GameKind::Minishogi => Game::Minishogi(Position::startpos()),
            GameKind::Yari => Game::Yari(Position::startpos()),
        }
    }

    pub fn kind(&self) -> GameKind {
        with_game!(self, _p, V, V::KIND)
    }

    /// Parses an SFEN for the current game, or for the game whose board shape the SFEN has.
    fn parse_sfen(&self, sfen: &str) -> Result<Game, SfenError> {
        let target = board_shape(sfen)
            .and_then(|(ranks, files)| GameKind::from_shape(ranks, files))
            .unwrap_or(self.kind());
        Ok(match target {
            GameKind::Shogi => Game::Shogi(Position::from_sfen(sfen)?),
            GameKind::Minishogi => Game::Minishogi(Position::from_sfen(sfen)?),
            GameKind::Yari => Game::Yari(Position::from_sfen(sfen)?),
        })
    }
}

/// Ranks and files of an SFEN's board field, when every rank has the same width.
fn board_shape(sfen: &str) -> Option<(usize, usize)> {
    let board = sfen.split_whitespace().next()?;
    let mut width = None;
    let mut ranks = 0;
    for rank in board.split('/') {
        ranks += 1;
        let mut w = 0;
        for c in rank.chars() {
            if let Some(d) = c.to_digit(10) {
                w += d as usize;
            } else if c != '+' {
                w += 1;
            }
        }
        match width {
            None => width = Some(w),
            Some(x) if x != w => return None,
            _ => {}
        }
    }
    Some((ranks, width?))
}

/// Engine options, as set with `setoption`.
#[derive(Clone, Debug)]
pub struct Options {
    pub hash_mb: usize,
    pub threads: usize,
    pub ponder: bool,
    pub multipv: usize,
    pub variant: GameKind,
    pub time: TimeOptions,
    pub resign_value: i32,
    pub draw_value: i32,
    pub entering_king: EnteringKingRule,
    pub max_moves_to_draw: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 256,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            ponder: false,
            multipv: 1,
            variant: GameKind::Shogi,
            time: TimeOptions::default(),
            resign_value: 0,
            draw_value: 0,
            entering_king: EnteringKingRule::default(),
            max_moves_to_draw: 0,
        }
    }
}

const MAX_HASH_MB: usize = 1 << 16;
const MAX_THREADS: usize = 1024;

enum Input {
    Line(String),
    /// A line that was too long or not text.
    Bad(String),
    Eof,
}

fn spawn_reader() -> Receiver<Input> {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("usi-reader".into())
        .spawn(move || {
            let stdin = std::io::stdin();
            let mut input = stdin.lock();
            loop {
                let mut buf = Vec::new();
                let n = (&mut input)
                    .take(MAX_LINE as u64)
                    .read_until(b'\n', &mut buf)
                    .unwrap_or_default();
                if n == 0 {
                    let _ = tx.send(Input::Eof);
                    return;
                }
                let msg = if buf.last() != Some(&b'\n') && buf.len() >= MAX_LINE {
                    // discard the rest of an overlong line
                    let mut skipped = 0usize;
                    loop {
                        let mut rest = Vec::new();
                        match (&mut input)
                            .take(MAX_LINE as u64)
                            .read_until(b'\n', &mut rest)
                        {
                            Ok(0) | Err(_) => break,
                            Ok(k) => {
                                skipped += k;
                                if rest.last() == Some(&b'\n') {
                                    break;
                                }
                            }
                        }
                    }
                    Input::Bad(format!("line too long ({} bytes)", buf.len() + skipped))
                } else {
                    match String::from_utf8(buf) {
                        Ok(s) => Input::Line(s.trim_end_matches(['\n', '\r']).to_string()),
                        Err(_) => Input::Bad("line is not valid UTF-8 text".into()),
                    }
                };
                if tx.send(msg).is_err() {
                    return;
                }
            }
        })
        .unwrap_or_else(|e| panic!("cannot start the input thread: {e}"));
    rx
}

struct Running {
    handle: JoinHandle<()>,
    /// Set by the search thread just before it prints its final line, so that a command arriving right after
    /// `bestmove` waits for the thread's last instructions instead of being refused.
    done: Arc<AtomicBool>,
}

/// The engine: state owned by the protocol thread.
pub struct Engine {
    out: Output,
    game: Game,
    options: Options,
    searcher: Arc<Mutex<Searcher>>,
    control: Arc<crate::engine::search::Control>,
    running: Option<Running>,
}

impl Default for Engine {
    fn default() -> Self {
        Self::new()
    }
}

impl Engine {
    pub fn new() -> Self {
        let options = Options::default();
        // the table is allocated on the first isready or go, so that start-up is instant
        let searcher = Searcher::new(options.threads, 1);
        let control = searcher.control();
        Engine {
            out: Output::default(),
            game: Game::Shogi(Position::startpos()),
            options,
            searcher: Arc::new(Mutex::new(searcher)),
            control,
            running: None,
        }
    }

    fn searching(&mut self) -> bool {
        match &self.running {
            Some(r) if r.handle.is_finished() || r.done.load(Ordering::SeqCst) => {
                if let Some(r) = self.running.take() {
                    let _ = r.handle.join();
                }
                false
            }
            Some(_) => true,
            None => false,
        }
    }

    fn stop_and_wait(&mut self) {
        if let Some(r) = self.running.take() {
            self.control.stop();
            let _ = r.handle.join();
        }
    }

    /// Runs the loop until `quit` or end of input.
    pub fn run(&mut self) {
        let rx = spawn_reader();
        let mut hash_ready = false;
        loop {
            let input = match rx.recv() {
                Ok(i) => i,
                Err(_) => Input::Eof,
            };
            let line = match input {
                Input::Eof => break,
                Input::Bad(msg) => {
                    self.out.error(&msg);
                    continue;
                }
                Input::Line(l) => l,
            };
            self.out.log_line(">", &line);
            let mut words = line.split_whitespace();
            let Some(cmd) = words.next() else {
                continue;
            };
            let rest: Vec<&str> = words.collect();
            match cmd {
                "usi" => self.cmd_usi(),
                "isready" => {
                    if !self.searching() && !hash_ready {
                        self.allocate();
                        hash_ready = true;
                    }
                    self.out.send("readyok");
                }
                "setoption" => {
                    if self.searching() {
                        self.out.error("setoption is not accepted during a search");
                    } else {
                        let changed_hash = self.cmd_setoption(&rest);
                        if changed_hash {
                            hash_ready = false;
                        }
                    }
                }
                "usinewgame" | "ucinewgame" => {
                    self.stop_and_wait();
                    if !hash_ready {
                        self.allocate();
                        hash_ready = true;
                    }
                    if let Ok(mut s) = self.searcher.lock() {
                        s.clear();
                    }
                }
                "position" => self.cmd_position(&rest),
                "go" => {
                    if self.searching() {
                        self.out.error("a search is already running");
                    } else {
                        if !hash_ready {
                            self.allocate();
                            hash_ready = true;
                        }
                        self.cmd_go(&rest);
                    }
                }
                "stop" => self.stop_and_wait(),
                "ponderhit" => self.control.ponderhit(),
                "gameover" => self.stop_and_wait(),
                "quit" => break,
                "d" => self.cmd_display(),
                "eval" => self.cmd_eval(),
                "bench" => {
                    self.stop_and_wait();
                    let depth = rest.first().and_then(|d| d.parse().ok()).unwrap_or(8);
                    let out = self.out.clone();
                    crate::engine::bench::run_bench(&[self.game.kind()], depth, 1, 16, &|l| {
                        out.send(&format!("info string {l}"))
                    });
                }
                _ => self
                    .out
                    .error(&format!("unknown command '{}'", truncate(cmd))),
            }
        }
        self.stop_and_wait();
    }

    fn allocate(&mut self) {
        if let Ok(mut s) = self.searcher.lock() {
            s.set_hash(self.options.hash_mb);
            s.set_threads(self.options.threads);
        }
    }

    fn cmd_usi(&self) {
        let o = &self.out;
        o.send(&format!("id name Hayate {}", env!("CARGO_PKG_VERSION")));
        o.send("id author the Hayate developers");
        let d = Options::default();
        o.send(&format!(
            "option name USI_Hash type spin default {} min 1 max {MAX_HASH_MB}",
            d.hash_mb
        ));
        o.send(&format!(
            "option name Threads type spin default {} min 1 max {MAX_THREADS}",
            d.threads
        ));
        o.send("option name USI_Ponder type check default false");
        o.send("option name MultiPV type spin default 1 min 1 max 600");
        let games: String = GameKind::ALL.iter().map(|g| format!(" var {g}")).collect();
        o.send(&format!(
            "option name USI_Variant type combo default {}{games}",
            GameKind::Shogi
        ));
        o.send(&format!(
            "option name NetworkDelay type spin default {} min 0 max 10000",
            d.time.network_delay
        ));
        o.send(&format!(
            "option name MinimumThinkingTime type spin default {} min 0 max 60000",
            d.time.minimum_thinking
        ));
        o.send(&format!(
            "option name SlowMover type spin default {} min 10 max 1000",
            d.time.slow_mover
        ));
        o.send("option name ResignValue type spin default 0 min 0 max 32000");
        o.send("option name DrawValue type spin default 0 min -30000 max 30000");
        o.send(
            "option name EnteringKingRule type combo default CSARule27 var NoEnteringKing var CSARule24 var CSARule27",
        );
        o.send("option name MaxMovesToDraw type spin default 0 min 0 max 100000");
        o.send("option name Clear_Hash type button");
        o.send("option name LogFile type string default <empty>");
        o.send("usiok");
    }

    /// Applies one option; returns whether the table must be reallocated.
    fn cmd_setoption(&mut self, args: &[&str]) -> bool {
        let (name, value) = match parse_setoption(args) {
            Ok(nv) => nv,
            Err(e) => {
                self.out.error(&e);
                return false;
            }
        };
        let spin = |lo: i64, hi: i64| -> Result<i64, String> {
            let v = value
                .as_deref()
                .ok_or(format!("option {name} needs a value"))?;
            let n: i64 = v
                .parse()
                .map_err(|_| format!("option {name}: '{}' is not a number", truncate(v)))?;
            if n < lo || n > hi {
                return Err(format!("option {name}: {n} is outside {lo}..{hi}"));
            }
            Ok(n)
        };
        let mut realloc = false;
        let result: Result<(), String> = (|| {
            match name.to_ascii_lowercase().as_str() {
                "usi_hash" | "hash" => {
                    self.options.hash_mb = spin(1, MAX_HASH_MB as i64)? as usize;
                    realloc = true;
                }
                "threads" => {
                    self.options.threads = spin(1, MAX_THREADS as i64)? as usize;
                    realloc = true;
                }
                "usi_ponder" => self.options.ponder = parse_check(&name, value.as_deref())?,
                "multipv" => self.options.multipv = spin(1, 600)? as usize,
                "usi_variant" | "uci_variant" => {
                    let v = value.as_deref().unwrap_or("");
                    let kind: GameKind = v.parse().map_err(|e| format!("{name}: {e}"))?;
                    self.options.variant = kind;
                    self.game = Game::start(kind);
                }
                "networkdelay" => self.options.time.network_delay = spin(0, 10000)? as u64,
                "minimumthinkingtime" => {
                    self.options.time.minimum_thinking = spin(0, 60000)? as u64
                }
                "slowmover" => self.options.time.slow_mover = spin(10, 1000)? as u64,
                "resignvalue" => self.options.resign_value = spin(0, 32000)? as i32,
                "drawvalue" => {
                    self.options.draw_value = spin(-30000, 30000)? as i32;
                    if let Ok(mut s) = self.searcher.lock() {
                        s.draw_value = self.options.draw_value;
                    }
                }
                "enteringkingrule" => {
                    let v = value.as_deref().unwrap_or("");
                    self.options.entering_king = v
                        .parse()
                        .map_err(|_| format!("EnteringKingRule: unknown rule '{}'", truncate(v)))?;
                }
                "maxmovestodraw" => {
                    self.options.max_moves_to_draw = spin(0, 100000)? as u32;
                    if let Ok(mut s) = self.searcher.lock() {
                        s.max_moves_to_draw = self.options.max_moves_to_draw;
                    }
                }
                "clear_hash" => {
                    if let Ok(mut s) = self.searcher.lock() {
                        s.clear();
                    }
                }
                "logfile" => self.out.set_log(value.as_deref().unwrap_or(""))?,
                _ => return Err(format!("unknown option '{}'", truncate(&name))),
            }
            Ok(())
        })();
        if let Err(e) = result {
            self.out.error(&e);
            return false;
        }
        realloc
    }

    fn cmd_position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|&a| a == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &args[args.len()..]),
        };
        let base = match setup.first() {
            Some(&"startpos") if setup.len() == 1 => Game::start(self.options.variant),
            Some(&"sfen") => match self.game.parse_sfen(&setup[1..].join(" ")) {
                Ok(g) => g,
                Err(e) => {
                    self.out.error(&format!("position: {e}"));
                    return;
                }
            },
            _ => {
                self.out.error(
                    "position needs 'startpos' or 'sfen <SFEN>' (then optional 'moves ...')",
                );
                return;
            }
        };
        let mut game = base;
        let res = with_game!(&mut game, p, _V, p.play_usi_moves(moves.iter().copied()));
        match res {
            Ok(()) => self.game = game,
            Err(e) => self
                .out
                .error(&format!("position: {e}; position unchanged")),
        }
    }

    fn cmd_display(&self) {
        let text = with_game!(&self.game, p, _V, {
            let checkers: Vec<String> = p
                .checkers()
                .map(crate::rules::position::sfen::square_name::<_V>)
                .collect();
            format!("{p}key {:016x}\ncheckers {}", p.key(), checkers.join(" "))
        });
        for line in text.lines() {
            self.out.send(&format!("info string {line}"));
        }
    }

    fn cmd_eval(&self) {
        let t = with_game!(&self.game, p, _V, (eval_terms(p), p.side_to_move()));
        let (terms, side) = t;
        self.out.send(&format!(
            "info string eval (sente's view) material {} hand {} king_safety {} placement {} mobility {} total {} side_to_move {}",
            terms.board_material,
            terms.hand_material,
            terms.king_safety,
            terms.placement,
            terms.mobility,
            terms.total(),
            if side == crate::rules::piece::Color::Black { "b" } else { "w" }
        ));
    }

    fn cmd_go(&mut self, args: &[&str]) {
        if args.first() == Some(&"perft") {
            let Some(depth) = args.get(1).and_then(|d| d.parse::<u32>().ok()) else {
                self.out.error("go perft needs a depth");
                return;
            };
            let mut game = self.game.clone();
            let out = self.out.clone();
            let start = Instant::now();
            let total: u64 = with_game!(&mut game, p, _V, {
                let mut total = u64::from(depth == 0);
                for (m, n) in divide(p, depth) {
                    out.send(&format!("{}: {n}", move_to_usi::<_V>(m)));
                    total += n;
                }
                total
            });
            let ms = start.elapsed().as_millis().max(1) as u64;
            out.send(&format!(
                "info string time {ms} ms, {} nodes/s",
                total * 1000 / ms
            ));
            out.send(&format!("Nodes searched: {total}"));
            return;
        }
        let req = match parse_go(args) {
            Ok(r) => r,
            Err(e) => {
                self.out.error(&format!("go: {e}"));
                return;
            }
        };
        let mut limits = req.limits;
        limits.multipv = self.options.multipv;
        // searchmoves: parse for the current board
        let mut searchmoves = Vec::new();
        for s in &req.searchmoves {
            let m = with_game!(
                &self.game,
                p,
                _V,
                parse_usi_move::<_V>(s).and_then(|m| {
                    if p.is_legal(m) {
                        Ok(m)
                    } else {
                        Err(crate::rules::position::notation::MoveError::Illegal(
                            s.to_string(),
                        ))
                    }
                })
            );
            match m {
                Ok(m) => searchmoves.push(m),
                Err(e) => {
                    self.out.error(&format!("go searchmoves: {e}"));
                    return;
                }
            }
        }
        limits.searchmoves = searchmoves;
        // The search begins the control itself from these; an entering-king declaration answers without a
        // search but waits on the same flags, so they are begun here as well (beginning twice changes nothing).
        limits.start = Instant::now();
        limits.ponder = req.ponder;
        self.control.begin(limits.start, limits.ponder);
        let searcher = Arc::clone(&self.searcher);
        let game = self.game.clone();
        let out = self.out.clone();
        let options = self.options.clone();
        let mate_mode = req.mate;
        let done = Arc::new(AtomicBool::new(false));
        let done_flag = Arc::clone(&done);
        let handle = std::thread::Builder::new()
            .name("search-coordinator".into())
            .spawn(move || {
                let Ok(searcher) = searcher.lock() else {
                    out.error("search state poisoned");
                    return;
                };
                with_game!(
                    &game,
                    p,
                    _V,
                    run_search(&searcher, p, &limits, &options, &out, mate_mode, &done_flag)
                );
            });
        match handle {
            Ok(h) => self.running = Some(Running { handle: h, done }),
            Err(e) => self.out.error(&format!("cannot start the search: {e}")),
        }
    }
}

fn truncate(s: &str) -> String {
    s.chars().take(40).collect()
}

fn parse_check(name: &str, v: Option<&str>) -> Result<bool, String> {
    match v {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        _ => Err(format!("option {name} takes true or false")),
    }
}

/// `name <N> [value <V>]`; names may not contain spaces, values may.
fn parse_setoption(args: &[&str]) -> Result<(String, Option<String>), String> {
    if args.first() != Some(&"name") || args.len() < 2 {
        return Err("setoption needs 'name <option> [value <value>]'".into());
    }
    let vi = args.iter().position(|&a| a == "value");
    let name_end = vi.unwrap_or(args.len());
    if name_end != 2 {
        return Err("setoption: option names have no spaces".into());
    }
    let value = vi.map(|i| args[i + 1..].join(" "));
    Ok((args[1].to_string(), value))
}

/// A parsed `go` command.
#[derive(Debug, Default)]
pub struct GoRequest {
    pub limits: Limits,
    pub ponder: bool,
    pub searchmoves: Vec<String>,
    /// `go mate`: Some(None) for infinite, Some(Some(ms)) for a time limit.
    pub mate: Option<Option<u64>>,
}

/// Bare `go`: a finite search of a few seconds.
const BARE_GO_MS: u64 = 3000;

pub fn parse_go(args: &[&str]) -> Result<GoRequest, String> {
    let mut r = GoRequest::default();
    let mut clock = Clock::default();
    let mut has_clock = false;
    let mut i = 0;
    let num = |i: usize, name: &str| -> Result<u64, String> {
        let v = args.get(i + 1).ok_or(format!("{name} needs a value"))?;
        let n: i64 = v
            .parse()
            .map_err(|_| format!("{name}: '{}' is not a number", truncate(v)))?;
        Ok(n.max(0) as u64)
    };
    while i < args.len() {
        match args[i] {
            "btime" => {
                clock.time[0] = num(i, "btime")?;
                has_clock = true;
                i += 1;
            }
            "wtime" => {
                clock.time[1] = num(i, "wtime")?;
                has_clock = true;
                i += 1;
            }
            "binc" => {
                clock.inc[0] = num(i, "binc")?;
                has_clock = true;
                i += 1;
            }
            "winc" => {
                clock.inc[1] = num(i, "winc")?;
                has_clock = true;
                i += 1;
            }
            "byoyomi" => {
                clock.byoyomi = num(i, "byoyomi")?;
                has_clock = true;
                i += 1;
            }
            "movetime" => {
                r.limits.movetime = Some(num(i, "movetime")?);
                i += 1;
            }
            "depth" => {
                r.limits.depth = Some(num(i, "depth")?.clamp(1, 127) as i32);
                i += 1;
            }
            "nodes" => {
                r.limits.nodes = Some(num(i, "nodes")?.max(1));
                i += 1;
            }
            "infinite" => r.limits.infinite = true,
            "ponder" => r.ponder = true,
            "mate" => {
                match args.get(i + 1) {
                    Some(&"infinite") => r.mate = Some(None),
                    Some(_) => r.mate = Some(Some(num(i, "mate")?)),
                    None => return Err("mate needs a time or 'infinite'".into()),
                }
                i += 1;
            }
            "searchmoves" => {
                while let Some(m) = args.get(i + 1) {
                    if KEYWORDS.contains(m) {
                        break;
                    }
                    r.searchmoves.push(m.to_string());
                    i += 1;
                }
            }
            w => return Err(format!("unknown argument '{}'", truncate(w))),
        }
        i += 1;
    }
    if has_clock {
        r.limits.clock = Some(clock);
    }
    match r.mate {
        Some(Some(ms)) => r.limits.movetime = Some(ms),
        Some(None) => r.limits.infinite = true,
        None => {}
    }
    if !has_clock
        && r.limits.movetime.is_none()
        && r.limits.depth.is_none()
        && r.limits.nodes.is_none()
        && !r.limits.infinite
    {
        r.limits.movetime = Some(BARE_GO_MS);
    }
    Ok(r)
}

const KEYWORDS: [&str; 13] = [
    "btime",
    "wtime",
    "binc",
    "winc",
    "byoyomi",
    "movetime",
    "depth",
    "nodes",
    "infinite",
    "ponder",
    "mate",
    "searchmoves",
    "perft",
];

/// Formats a search score as USI: `cp N` or `mate N` (plies; negative when being mated).
pub fn usi_score(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", MATE - score)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", MATE + score)
    } else {
        format!("cp {score}")
    }
}

pub fn info_line<V: Variant>(i: &Info) -> String {
    let nps = i.nodes * 1000 / i.time_ms.max(1);
    if i.progress_only {
        return format!(
            "info nodes {} nps {nps} time {} hashfull {}",
            i.nodes, i.time_ms, i.hashfull
        );
    }
    let bound = match i.bound {
        Bound::Lower => " lowerbound",
        Bound::Upper => " upperbound",
        _ => "",
    };
    let pv: Vec<String> = i.pv.iter().map(|&m| move_to_usi::<V>(m)).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {}{} nodes {} nps {} time {} hashfull {}{}{}",
        i.depth,
        i.seldepth,
        i.multipv,
        usi_score(i.score),
        bound,
        i.nodes,
        nps,
        i.time_ms,
        i.hashfull,
        if pv.is_empty() { "" } else { " pv " },
        pv.join(" ")
    )
}

fn run_search<V: GameEval>(
    searcher: &Searcher,
    pos: &Position<V>,
    limits: &Limits,
    options: &Options,
    out: &Output,
    mate_mode: Option<Option<u64>>,
    done: &AtomicBool,
) {
    let finish = |line: &str| {
        done.store(true, Ordering::SeqCst);
        out.send(line);
    };
    let control = searcher.control();
    // entering-king declaration (9×9 only)
    if V::ENTERING_KING && mate_mode.is_none() {
        {
            if pos.can_declare(options.entering_king) {
                // a declaration answers without a search, but still honours infinite and ponder
                control.wait_until_released(limits.infinite);
                finish("bestmove win");
                return;
            }
        }
    }
    let info_out = out.clone();
    let on_info = move |i: &Info| info_out.send(&info_line::<V>(i));
    let r: SearchResult = searcher.search(pos, limits, &options.time, &on_info);
    if let Some(mate) = mate_mode {
        let stopped_by_time = control.stop.load(Ordering::Relaxed) && mate.is_some();
        if r.score >= MATE_BOUND {
            // the principal variation of the forced mate
            finish(&format!(
                "checkmate {}",
                r.pv.iter()
                    .map(|&m| move_to_usi::<V>(m))
                    .collect::<Vec<_>>()
                    .join(" ")
            ));
        } else if stopped_by_time {
            finish("checkmate timeout");
        } else {
            finish("checkmate nomate");
        }
        return;
    }
    let line = match r.best {
        None => "bestmove resign".to_string(),
        Some(_) if options.resign_value > 0 && r.score <= -options.resign_value => {
            "bestmove resign".to_string()
        }
        Some(m) => {
            let mut s = format!("bestmove {}", move_to_usi::<V>(m));
            if options.ponder {
                if let Some(p) = r.ponder {
                    s.push_str(&format!(" ponder {}", move_to_usi::<V>(p)));
                }
            }
            s
        }
    };
    finish(&line);
}

/// Runs the USI loop on stdin/stdout until `quit` or end of input.
pub fn run() {
    let mut engine = Engine::new();
    engine.run();
}
