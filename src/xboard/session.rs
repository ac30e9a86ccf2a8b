//! A CECP session: the state the protocol thread owns and one method per command.
//!
//! The engine is in one of three modes: force (it plays neither side and only follows the moves it is sent),
//! playing one side (it thinks whenever that side is to move), or analyzing (it searches the current position
//! until the position changes or `exit`). Each search runs as a job ([`think`](super::think)); the protocol
//! thread reads on, and takes the job's move into its position at the next command. Input it cannot act on gets
//! one `Error (...): ...` line (`Illegal move: ...` for a move) and changes nothing.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use crate::engine::search::{Control, Limits, Searcher};
use crate::host::job::{lock_searcher, Halt, Job};
use crate::host::reader::Input;
use crate::host::{truncate, with_game, Game, NetChange, Options, Output, Setting};
use crate::rules::piece::Color;
use crate::rules::position::xboard_fen::{parse_fen, to_fen};
use crate::GameKind;

use super::clock::TimeControl;
use super::notation::{parse_move, Refusal};
use super::think::{ending, lock, think, Purpose, Turn};
use super::variants::{announcement, feature_list};

/// Whom the engine plays for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    /// Neither side: moves are only followed.
    Force,
    /// This side: the engine thinks whenever it is to move.
    Play(Color),
    /// The engine searches the current position without end and plays nothing.
    Analyze,
}

/// A thinking job and what it shares with the protocol thread.
struct Thinking {
    job: Job,
    turn: Turn,
    purpose: Purpose,
}

/// The engine in a CECP session: state owned by the protocol thread.
pub struct Session {
    out: Output,
    game: Game,
    /// Moves played since the position was set (`new`, `variant`, `setboard`): how far `undo` can go back.
    played: usize,
    options: Options,
    searcher: Arc<Mutex<Searcher>>,
    control: Arc<Control>,
    mode: Mode,
    clock: TimeControl,
    /// Thinking output on (`post`) or off (`nopost`); a running search reads it as it goes.
    post: Arc<AtomicBool>,
    thinking: Option<Thinking>,
    /// Whether the table and the pool match the options; rebuilt before the next search when not.
    ready: bool,
    /// A `Clear_Hash` waiting for the searcher to be free.
    clear_pending: bool,
    /// Nets read for `EvalFile`, in order, waiting for the searcher to be free.
    nets_pending: Vec<NetChange>,
}

impl Default for Session {
    fn default() -> Self {
        Self::new()
    }
}

impl Session {
    pub fn new() -> Self {
        Session::with_output(Output::default())
    }

    /// A session whose protocol lines go to `out`: [`Output::captured`] drives one in-process.
    pub fn with_output(out: Output) -> Self {
        let options = Options::default();
        let searcher = Searcher::new(options.threads, 1);
        let control = searcher.control();
        Session {
            out,
            game: Game::start(options.variant),
            played: 0,
            options,
            searcher: Arc::new(Mutex::new(searcher)),
            control,
            // as after `new`: the engine plays gote (XBoard's black)
            mode: Mode::Play(Color::White),
            clock: TimeControl::default(),
            post: Arc::new(AtomicBool::new(false)),
            thinking: None,
            ready: false,
            clear_pending: false,
            nets_pending: Vec::new(),
        }
    }

    /// Runs the session until `quit` or end of input.
    pub(crate) fn run(&mut self, rx: Receiver<Input>) {
        loop {
            let line = match rx.recv().unwrap_or(Input::Eof) {
                Input::Eof => break,
                Input::Bad(msg) => {
                    self.error("bad input", &msg);
                    continue;
                }
                Input::Line(l) => l,
            };
            self.out.log_line(">", &line);
            if self.command(&line).is_break() {
                break;
            }
        }
        self.withdraw();
    }

    /// One input line as if read from the GUI; `Break` for `quit`. The protocol loop is [`Session::run`]; this
    /// drives a session in-process (the fuzz target).
    pub fn feed(&mut self, line: &str) -> ControlFlow<()> {
        self.out.log_line(">", line);
        self.command(line)
    }

    /// Waits for a search for a move to end and plays its move; stops an analysis. What the session shows
    /// after it no longer changes until the next line.
    pub fn settle(&mut self) {
        match self.thinking.as_ref().map(|t| t.purpose) {
            Some(Purpose::Play) => {
                if let Some(t) = self.thinking.take() {
                    self.join(t);
                }
            }
            Some(_) => self.withdraw(),
            None => {}
        }
    }

    /// The position as an XBoard FEN (what `d` shows).
    pub fn fen(&self) -> String {
        with_game!(&self.game, p, _V, to_fen(p))
    }

    /// Carries out one input line; `Break` for `quit`.
    fn command(&mut self, line: &str) -> ControlFlow<()> {
        self.reap();
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else {
            return ControlFlow::Continue(());
        };
        let args: Vec<&str> = words.collect();
        match cmd {
            "quit" => return ControlFlow::Break(()),
            "protover" => self.cmd_protover(),
            "new" => self.cmd_new(),
            "variant" => self.cmd_variant(&args),
            "force" | "result" => {
                self.withdraw();
                self.mode = Mode::Force;
            }
            "go" => self.cmd_go(),
            "usermove" => match args[..] {
                [m] => self.user_move(m),
                _ => self.error("usermove needs one move", line),
            },
            "?" => self.cmd_move_now(),
            "time" | "otim" => {
                if let Err(e) = self.clock.set_clock(cmd == "time", &args) {
                    self.error(&e.to_string(), line);
                }
            }
            "level" => {
                if let Err(e) = self.clock.set_level(&args) {
                    self.error(&e.to_string(), line);
                }
            }
            "st" => {
                if let Err(e) = self.clock.set_fixed(&args) {
                    self.error(&e.to_string(), line);
                }
            }
            "sd" => {
                if let Err(e) = self.clock.set_depth(&args) {
                    self.error(&e.to_string(), line);
                }
            }
            "post" | "nopost" => self.post.store(cmd == "post", Ordering::Relaxed),
            "analyze" => self.cmd_analyze(),
            "exit" => self.cmd_exit(line),
            "." => self.cmd_status(),
            "undo" => self.cmd_undo(1, line),
            "remove" => self.cmd_undo(2, line),
            "setboard" => self.cmd_setboard(&args.join(" "), line),
            "ping" => self.cmd_ping(&args, line),
            "memory" | "cores" => {
                let name = if cmd == "memory" {
                    "USI_Hash"
                } else {
                    "Threads"
                };
                match args[..] {
                    [n] => self.set(&["name", name, "value", n], line),
                    _ => self.error("needs one number", line),
                }
            }
            "option" => self.cmd_option(&args.join(" "), line),
            // not CECP: the position as a comment line (`# <FEN>`), for people and tests at a terminal
            "d" => {
                let fen = with_game!(&self.game, p, _V, to_fen(p));
                self.out.send(&format!("# {fen}"));
            }
            // accepted and ignored: feature replies, opponent information, draw offers (declined by silence),
            // pondering switches (the engine does not ponder), and requests it has nothing for
            "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "easy" | "hard" | "draw" | "hint" | "bk" => {}
            // a move without `usermove` (what XBoard sends when the feature is off)
            _ => match self.read_move(cmd) {
                Err(Refusal::Malformed) => self.error("unknown command", cmd),
                _ => self.user_move(cmd),
            },
        }
        ControlFlow::Continue(())
    }

    /// `Error (<what>): <the command>`, the protocol's reply to input the engine cannot act on.
    fn error(&self, what: &str, line: &str) {
        let line: String = line.chars().take(60).collect();
        self.out.send(&format!("Error ({what}): {line}"));
    }

    // ------------------------------------------------------------------------------------------------------------
    // Thinking jobs
    // ------------------------------------------------------------------------------------------------------------

    /// Takes the move of a job that has finished into the position.
    fn reap(&mut self) {
        let done = self.thinking.as_ref().is_some_and(|t| lock(&t.turn).done);
        if done {
            if let Some(t) = self.thinking.take() {
                self.join(t);
            }
        }
    }

    /// Stops any thinking; a move the job has not written yet is not played (one it has written is).
    fn withdraw(&mut self) {
        if let Some(t) = self.thinking.take() {
            lock(&t.turn).withdrawn = true;
            self.control.stop();
            t.job.halt();
            self.join(t);
        }
    }

    fn join(&mut self, t: Thinking) {
        let _ = t.job.handle.join();
        let played = lock(&t.turn).played;
        if let Some(m) = played {
            with_game!(&mut self.game, p, _V, p.do_move(m));
            self.played += 1;
        }
    }

    /// Thinks about the current position: for a move to play, or to analyze it. A game that is over by the rules
    /// gets its result instead of a search for a move.
    fn start_thinking(&mut self, purpose: Purpose) {
        if purpose == Purpose::Play {
            if let Some(result) = with_game!(&self.game, p, _V, ending(p)) {
                return self.out.send(&result);
            }
        }
        self.make_ready();
        let start = Instant::now();
        let mut limits = match purpose {
            Purpose::Play => self.clock.limits(self.side_to_move(), start),
            Purpose::Analyze => Limits {
                infinite: true,
                start,
                ..Limits::default()
            },
        };
        limits.multipv = self.options.multipv;
        let turn = Turn::default();
        let (searcher, game, options) = (
            Arc::clone(&self.searcher),
            self.game.clone(),
            self.options.clone(),
        );
        let (post, job_turn) = (Arc::clone(&self.post), Arc::clone(&turn));
        let body = move |report| {
            let searcher = lock_searcher(&searcher);
            with_game!(
                &game,
                p,
                _V,
                think(&searcher, p, &limits, &options, purpose, &post, &job_turn, &report)
            );
        };
        match Job::spawn("search", &self.out, Halt::default(), body) {
            Ok(job) => self.thinking = Some(Thinking { job, turn, purpose }),
            Err(e) => self.error(&format!("cannot start the search: {e}"), "go"),
        }
    }

    /// Thinks again after the position changed: for a move when the engine's side is to move, or to analyze.
    fn resume(&mut self) {
        match self.mode {
            Mode::Play(c) if c == self.side_to_move() => self.start_thinking(Purpose::Play),
            Mode::Analyze => self.start_thinking(Purpose::Analyze),
            _ => {}
        }
    }

    /// The searcher, for changes between searches (never while a job holds it).
    fn searcher(&self) -> MutexGuard<'_, Searcher> {
        lock_searcher(&self.searcher)
    }

    /// Builds the table and the pool the options ask for, unless built already, and passes on the options the
    /// searcher reads. Only called with no job running.
    fn make_ready(&mut self) {
        let (hash, threads) = (self.options.hash_mb, self.options.threads);
        let (draw, max_moves) = (self.options.draw_value, self.options.max_moves_to_draw);
        let (rebuild, clear) = (!self.ready, self.clear_pending);
        let nets = std::mem::take(&mut self.nets_pending);
        let use_nnue = self.options.use_nnue;
        let params = self.options.search_params.clone();
        let mut s = self.searcher();
        for change in nets {
            s.set_net(change.game, change.net);
        }
        s.use_nnue = use_nnue;
        if rebuild {
            s.set_hash(hash);
            s.set_threads(threads);
        }
        if clear {
            s.clear();
        }
        s.draw_value = draw;
        s.max_moves_to_draw = max_moves;
        s.param_overrides = params;
        drop(s);
        self.ready = true;
        self.clear_pending = false;
    }

    fn side_to_move(&self) -> Color {
        with_game!(&self.game, p, _V, p.side_to_move())
    }

    // ------------------------------------------------------------------------------------------------------------
    // Commands
    // ------------------------------------------------------------------------------------------------------------

    fn cmd_protover(&self) {
        self.out.send(&format!(
            "feature myname=\"Hayate {}\" variants=\"{}\" setboard=1 usermove=1 ping=1 memory=1 smp=1 \
             sigint=0 sigterm=0 san=0 colors=0 analyze=1 time=1 draw=0 nps=0 reuse=1 done=1",
            env!("CARGO_PKG_VERSION"),
            feature_list()
        ));
    }

    /// `new`: the start position of the current game, the engine to play gote, no depth limit, a fresh table.
    fn cmd_new(&mut self) {
        self.withdraw();
        self.game = Game::start(self.options.variant);
        self.played = 0;
        self.clock.clear_depth();
        self.clear_pending = true;
        self.make_ready();
        if self.mode == Mode::Analyze {
            self.start_thinking(Purpose::Analyze);
        } else {
            self.mode = Mode::Play(Color::White);
        }
    }

    /// `variant <name>`: any name [`GameKind`] accepts; XBoard is then told what it does not know of the game.
    fn cmd_variant(&mut self, args: &[&str]) {
        let kind = match args {
            [name] => match name.parse::<GameKind>() {
                Ok(k) => k,
                Err(_) => return self.error("unsupported variant", &format!("variant {name}")),
            },
            _ => return self.error("variant needs one name", "variant"),
        };
        self.switch_game(kind);
    }

    fn switch_game(&mut self, kind: GameKind) {
        self.withdraw();
        self.options.variant = kind;
        self.game = Game::start(kind);
        self.played = 0;
        for line in announcement(kind) {
            self.out.send(&line);
        }
        if self.mode == Mode::Analyze {
            self.start_thinking(Purpose::Analyze);
        }
    }

    fn cmd_go(&mut self) {
        self.withdraw();
        self.mode = Mode::Play(self.side_to_move());
        self.start_thinking(Purpose::Play);
    }

    fn read_move(&self, text: &str) -> Result<crate::rules::moves::Move, Refusal> {
        with_game!(&self.game, p, V, parse_move::<V>(p, text))
    }

    /// A move of the opponent (or of either side in force mode): checked against the position before anything
    /// changes; then it is played and the engine thinks if it is its turn.
    fn user_move(&mut self, text: &str) {
        let m = match self.read_move(text) {
            Ok(m) => m,
            Err(_) => return self.out.send(&format!("Illegal move: {}", truncate(text))),
        };
        self.withdraw();
        // a move of our own that came in meanwhile changed the position: check again
        if self.read_move(text) != Ok(m) {
            return self.out.send(&format!("Illegal move: {}", truncate(text)));
        }
        with_game!(&mut self.game, p, _V, p.do_move(m));
        self.played += 1;
        self.resume();
    }

    /// `?`: play the best move found so far.
    fn cmd_move_now(&self) {
        if self
            .thinking
            .as_ref()
            .is_some_and(|t| t.purpose == Purpose::Play)
        {
            self.control.stop();
        }
    }

    fn cmd_analyze(&mut self) {
        self.withdraw();
        self.mode = Mode::Analyze;
        self.start_thinking(Purpose::Analyze);
    }

    fn cmd_exit(&mut self, line: &str) {
        if self.mode != Mode::Analyze {
            return self.error("command not legal now", line);
        }
        self.withdraw();
        self.mode = Mode::Force;
    }

    /// `.`: the analysis so far, as `stat01: <centiseconds> <nodes> <depth> <moves left> <moves>`.
    fn cmd_status(&self) {
        if let Some(t) = self
            .thinking
            .as_ref()
            .filter(|t| t.purpose == Purpose::Analyze)
        {
            let s = lock(&t.turn);
            let line = format!("stat01: {} {} {} 0 0", s.centis, s.nodes, s.depth);
            drop(s);
            self.out.send(&line);
        }
    }

    /// `undo` (one move) and `remove` (two).
    fn cmd_undo(&mut self, n: usize, line: &str) {
        if self.played < n {
            return self.error("command not legal now", line);
        }
        self.withdraw();
        for _ in 0..n {
            with_game!(&mut self.game, p, _V, p.undo_move());
        }
        self.played -= n;
        if self.mode == Mode::Analyze {
            self.start_thinking(Purpose::Analyze);
        }
    }

    /// `setboard <FEN>` for the current game.
    fn cmd_setboard(&mut self, fen: &str, line: &str) {
        let game = match self.game.kind() {
            GameKind::Shogi => parse_fen(fen).map(Game::Shogi),
            GameKind::Minishogi => parse_fen(fen).map(Game::Minishogi),
            GameKind::Yari => parse_fen(fen).map(Game::Yari),
        };
        match game {
            Ok(g) => {
                self.withdraw();
                self.game = g;
                self.played = 0;
                self.resume();
            }
            Err(e) => self.error(&format!("illegal position: {e}"), line),
        }
    }

    /// `ping N`: `pong N` once everything before it is done, which for a search for a move means after the move.
    fn cmd_ping(&mut self, args: &[&str], line: &str) {
        let pong = match args {
            [n] if n.parse::<i64>().is_ok() => format!("pong {n}"),
            _ => return self.error("ping needs a number", line),
        };
        if let Some(t) = self
            .thinking
            .as_ref()
            .filter(|t| t.purpose == Purpose::Play)
        {
            let mut s = lock(&t.turn);
            if !s.done {
                s.pongs.push(pong);
                return;
            }
        }
        self.out.send(&pong);
    }

    /// `option NAME=VALUE` (or `option NAME` for a button), with the names and values of the USI options.
    fn cmd_option(&mut self, rest: &str, line: &str) {
        match rest.split_once('=') {
            Some((name, value)) => {
                let value: Vec<&str> = value.split_whitespace().collect();
                let mut args = vec!["name", name.trim(), "value"];
                args.extend(value);
                self.set(&args, line);
            }
            None => self.set(&["name", rest.trim()], line),
        }
    }

    /// A setting in the words of USI's `setoption`; `memory` and `cores` come here as well.
    fn set(&mut self, args: &[&str], line: &str) {
        let setting = match Setting::parse(args) {
            Ok(s) => s,
            Err(e) => return self.error(&e.to_string(), line),
        };
        // the same checks and the same reasons as USI's `setoption`
        match setting.prepare(&self.out, self.options.variant) {
            Ok(Some(change)) => self.nets_pending.push(change),
            Ok(None) => {}
            Err(e) => return self.error(&e.to_string(), line),
        }
        if let Setting::Variant(kind) = setting {
            return self.switch_game(kind);
        }
        self.options.apply(&setting);
        match setting {
            // applied before the next search, when no job holds the searcher
            Setting::Hash(_) | Setting::Threads(_) => self.ready = false,
            Setting::ClearHash => self.clear_pending = true,
            _ => {}
        }
    }
}
