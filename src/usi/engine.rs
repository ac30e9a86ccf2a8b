//! The engine on the protocol thread: it owns the position, the options and the searcher, reads one command at
//! a time and runs each search, `go perft` and `bench` as a [`Job`] on a thread of its own, so that `stop`,
//! `ponderhit`, `isready` and `quit` are answered while it runs.

use std::ops::ControlFlow;
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use crate::engine::eval::eval_terms;
use crate::engine::search::{Control, Searcher};
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::position::notation::{parse_usi_move, MoveError};
use crate::rules::position::sfen::square_name;

use crate::host::job::{lock_searcher, Halt, Job, Reporter};
use crate::host::reader::{spawn_reader, Input};
use crate::host::{option_lines, truncate, with_game, Game, Options, Output, Setting};

use super::bench;
use super::go::{parse_go, GoRequest};
use super::mate::run_mate;
use super::perft::{self, run_perft};
use super::search::run_search;

/// The engine: state owned by the protocol thread.
pub struct Engine {
    out: Output,
    game: Game,
    options: Options,
    searcher: Arc<Mutex<Searcher>>,
    control: Arc<Control>,
    running: Option<Job>,
    /// Whether the table has the size and the pool the thread count of the options; both are (re)built lazily,
    /// on the first `isready`, `usinewgame` or `go`, so that start-up and `setoption` are instant.
    hash_ready: bool,
    /// A `gameover` came since the last `isready`: the next `isready` clears the finished game's table.
    game_over: bool,
}

impl Default for Engine {
    fn default() -> Self {
        Self::new()
    }
}

impl Engine {
    pub fn new() -> Self {
        let options = Options::default();
        let searcher = Searcher::new(options.threads, 1);
        let control = searcher.control();
        Engine {
            out: Output::default(),
            game: Game::start(options.variant),
            options,
            searcher: Arc::new(Mutex::new(searcher)),
            control,
            running: None,
            hash_ready: false,
            game_over: false,
        }
    }

    /// Runs the loop until `quit` or end of input.
    pub fn run(&mut self) {
        let rx = spawn_reader();
        let first = rx.recv().unwrap_or(Input::Eof);
        self.run_on(rx, first);
    }

    /// Runs the loop on input that is already being read, starting with `first`, read from it before.
    pub fn run_on(&mut self, rx: Receiver<Input>, first: Input) {
        let mut first = Some(first);
        loop {
            let input = first
                .take()
                .unwrap_or_else(|| rx.recv().unwrap_or(Input::Eof));
            let line = match input {
                Input::Eof => break,
                Input::Bad(msg) => {
                    self.out.error(&msg);
                    continue;
                }
                Input::Line(l) => l,
            };
            self.out.log_line(">", &line);
            if self.command(&line).is_break() {
                break;
            }
        }
        self.stop_and_wait();
    }

    /// Carries out one input line; `Break` for `quit`.
    fn command(&mut self, line: &str) -> ControlFlow<()> {
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else {
            return ControlFlow::Continue(());
        };
        let args: Vec<&str> = words.collect();
        match cmd {
            "usi" => self.cmd_usi(),
            "isready" => self.cmd_isready(),
            "setoption" => self.cmd_setoption(&args),
            "usinewgame" | "ucinewgame" => self.cmd_usinewgame(),
            "position" => self.cmd_position(&args),
            "go" => self.cmd_go(&args),
            "stop" => self.stop_and_wait(),
            "gameover" => {
                self.stop_and_wait();
                self.game_over = true;
            }
            "ponderhit" => self.control.ponderhit(),
            "quit" => return ControlFlow::Break(()),
            "d" => self.cmd_display(),
            "eval" => self.cmd_eval(),
            "bench" => self.cmd_bench(&args),
            _ => self
                .out
                .error(&format!("unknown command '{}'", truncate(cmd))),
        }
        ControlFlow::Continue(())
    }

    /// What is running, if anything; a job that has written its last line is reaped here.
    fn busy(&mut self) -> Option<&'static str> {
        match &self.running {
            Some(r) if r.is_done() => {
                if let Some(r) = self.running.take() {
                    let _ = r.handle.join();
                }
                None
            }
            Some(r) => Some(r.what),
            None => None,
        }
    }

    fn stop_and_wait(&mut self) {
        if let Some(r) = self.running.take() {
            self.control.stop();
            r.halt();
            let _ = r.handle.join();
        }
    }

    /// The searcher, for a change between searches.
    fn searcher(&self) -> MutexGuard<'_, Searcher> {
        lock_searcher(&self.searcher)
    }

    /// Builds the table and the pool the options ask for, unless they are built already.
    fn make_ready(&mut self) {
        if !self.hash_ready {
            let mut s = self.searcher();
            s.set_hash(self.options.hash_mb);
            s.set_threads(self.options.threads);
            drop(s);
            self.hash_ready = true;
        }
    }

    fn cmd_usi(&self) {
        self.out
            .send(&format!("id name Hayate {}", env!("CARGO_PKG_VERSION")));
        self.out.send("id author the Hayate developers");
        for line in option_lines() {
            self.out.send(&line);
        }
        self.out.send("usiok");
    }

    fn cmd_isready(&mut self) {
        // during a search the searcher is busy; the table is built before the next search
        if self.busy().is_none() {
            self.make_ready();
            let after_game = std::mem::take(&mut self.game_over);
            self.searcher().prepare(after_game);
        }
        self.out.send("readyok");
    }

    fn cmd_usinewgame(&mut self) {
        self.stop_and_wait();
        self.make_ready();
        self.searcher().clear();
    }

    fn cmd_setoption(&mut self, args: &[&str]) {
        if let Some(what) = self.busy() {
            return self
                .out
                .error(&format!("setoption is not accepted during a {what}"));
        }
        let setting = match Setting::parse(args) {
            Ok(s) => s,
            Err(e) => return self.out.error(&e.to_string()),
        };
        let net = match setting.prepare(&self.out, self.options.variant) {
            Ok(n) => n,
            Err(e) => return self.out.error(&e.to_string()),
        };
        if let Some(change) = net {
            if let Some(loaded) = &change.loaded {
                self.out.send(&format!("info string EvalFile: {loaded}"));
            }
            self.searcher().set_net(change.game, change.net);
        }
        self.options.apply(&setting);
        match setting {
            Setting::UseNnue(on) => self.searcher().use_nnue = on,
            Setting::Hash(_) | Setting::Threads(_) => self.hash_ready = false,
            Setting::Variant(kind) => self.game = Game::start(kind),
            Setting::DrawValue(cp) => self.searcher().draw_value = cp,
            Setting::MaxMovesToDraw(n) => self.searcher().max_moves_to_draw = n,
            Setting::SearchParams(o) => self.searcher().param_overrides = o,
            Setting::ClearHash => self.searcher().clear(),
            _ => {}
        }
    }

    /// `position startpos|sfen <SFEN> [moves ...]`; on any error the position stays as it was.
    fn cmd_position(&mut self, args: &[&str]) {
        let (setup, moves) = match args.iter().position(|&a| a == "moves") {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &args[args.len()..]),
        };
        let mut game = match setup.first() {
            Some(&"startpos") if setup.len() == 1 => Game::start(self.options.variant),
            Some(&"sfen") => {
                let text = setup[1..].join(" ");
                // UCI2WB passes XBoard's FEN (holdings in brackets) unchanged to engines that announce UCI_Variant
                let parsed = if text.contains('[') {
                    self.game.parse_xboard_fen(&text).map_err(|e| e.to_string())
                } else {
                    self.game.parse_sfen(&text).map_err(|e| e.to_string())
                };
                match parsed {
                    Ok(g) => g,
                    Err(e) => return self.out.error(&format!("position: {e}")),
                }
            }
            _ => {
                return self.out.error(
                    "position needs 'startpos' or 'sfen <SFEN>' (then optional 'moves ...')",
                )
            }
        };
        match with_game!(&mut game, p, _V, p.play_usi_moves(moves.iter().copied())) {
            Ok(()) => self.game = game,
            Err(e) => self
                .out
                .error(&format!("position: {e}; position unchanged")),
        }
    }

    fn cmd_display(&self) {
        let text = with_game!(&self.game, p, V, {
            let checkers: Vec<String> = p.checkers().map(square_name::<V>).collect();
            format!("{p}key {:016x}\ncheckers {}", p.key(), checkers.join(" "))
        });
        for line in text.lines() {
            self.out.send(&format!("info string {line}"));
        }
    }

    fn cmd_eval(&self) {
        if !self.game.has_both_kings() {
            return self.out.error("eval: the position lacks a king");
        }
        let (terms, side) = with_game!(&self.game, p, _V, (eval_terms(p), p.side_to_move()));
        self.out.send(&format!(
            "info string eval (sente's view) material {} hand {} king_safety {} placement {} mobility {} total {} side_to_move {}",
            terms.board_material,
            terms.hand_material,
            terms.king_safety,
            terms.placement,
            terms.mobility,
            terms.total(),
            if side == Color::Black { "b" } else { "w" }
        ));
    }

    fn cmd_bench(&mut self, args: &[&str]) {
        self.stop_and_wait();
        let depth = match bench::parse_depth(args) {
            Ok(d) => d,
            Err(e) => return self.out.error(&e.to_string()),
        };
        let mut searcher = Searcher::new(bench::THREADS, bench::HASH_MB);
        let halt = Halt::with_control(searcher.control());
        let game = self.game.kind();
        // the bench evaluates as the games do: the net loaded with EvalFile, or none with UseNNUE false
        let net = self.searcher().net(game).cloned();
        searcher.set_net(game, net);
        searcher.use_nnue = self.options.use_nnue;
        let job_halt = halt.clone();
        self.start("bench", halt, move |report| {
            bench::run(&mut searcher, game, depth, &job_halt, &report)
        });
    }

    /// Starts a job unless one runs (the caller checked).
    fn start(
        &mut self,
        what: &'static str,
        halt: Halt,
        body: impl FnOnce(Reporter) + Send + 'static,
    ) {
        match Job::spawn(what, &self.out, halt, body) {
            Ok(job) => self.running = Some(job),
            Err(e) => self.out.error(&format!("cannot start the {what}: {e}")),
        }
    }

    fn cmd_go(&mut self, args: &[&str]) {
        if let Some(what) = self.busy() {
            return self.out.error(&format!("a {what} is already running"));
        }
        if args.first() == Some(&"perft") {
            return self.cmd_perft(&args[1..]);
        }
        let req = match parse_go(args) {
            Ok(r) => r,
            Err(e) => return self.out.error(&format!("go: {e}")),
        };
        let searchmoves = match self.searchmoves(&req) {
            Ok(m) => m,
            Err(e) => return self.out.error(&format!("go searchmoves: {e}")),
        };
        if let Some(time) = req.mate {
            return self.cmd_mate(time);
        }
        if !self.game.has_both_kings() {
            return self
                .out
                .error("go: a position without both kings can only be solved with 'go mate'");
        }
        self.make_ready();
        let mut limits = req.limits;
        limits.multipv = self.options.multipv;
        limits.searchmoves = searchmoves;
        // the clock of this move starts now; the search job begins the control from these itself
        limits.start = Instant::now();
        limits.ponder = req.ponder;
        let searcher = Arc::clone(&self.searcher);
        let game = self.game.clone();
        let options = self.options.clone();
        self.start("search", Halt::default(), move |report| {
            let searcher = lock_searcher(&searcher);
            with_game!(
                &game,
                p,
                _V,
                run_search(&searcher, p, &limits, &options, &report)
            );
        });
    }

    /// `go mate`: the tsume solver, with a table of USI_Hash megabytes of its own (freed when it ends), and as
    /// many searchers for the first proof as the search has threads.
    fn cmd_mate(&mut self, time: Option<u64>) {
        let game = self.game.clone();
        let hash_mb = self.options.hash_mb;
        let threads = self.options.threads;
        let halt = Halt::default();
        let job_halt = halt.clone();
        self.start("mate search", halt, move |report| {
            with_game!(
                &game,
                p,
                _V,
                run_mate(p, time, hash_mb, threads, &job_halt, &report)
            )
        });
    }

    /// The `searchmoves` of a request, each legal in the current position.
    fn searchmoves(&self, req: &GoRequest) -> Result<Vec<Move>, MoveError> {
        req.searchmoves
            .iter()
            .map(|s| {
                with_game!(&self.game, p, V, {
                    let m = parse_usi_move::<V>(s)?;
                    if p.is_legal(m) {
                        Ok(m)
                    } else {
                        Err(MoveError::Illegal(s.to_string()))
                    }
                })
            })
            .collect()
    }

    fn cmd_perft(&mut self, args: &[&str]) {
        let depth = match perft::parse_depth(args) {
            Ok(d) => d,
            Err(e) => return self.out.error(&e.to_string()),
        };
        let game = self.game.clone();
        let halt = Halt::default();
        let job_halt = halt.clone();
        self.start("perft", halt, move |report| {
            with_game!(game, p, _V, run_perft(p, depth, &job_halt, &report));
        });
    }
}
