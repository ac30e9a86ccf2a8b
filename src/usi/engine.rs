//! The engine on the protocol thread: it owns the position, the options and the searcher, reads one command at
//! a time and starts each search on a thread of its own, so that `stop`, `ponderhit`, `isready` and `quit` are
//! answered while the search runs.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Instant;

use crate::engine::eval::eval_terms;
use crate::engine::search::{Control, Searcher};
use crate::rules::moves::Move;
use crate::rules::perft::divide;
use crate::rules::piece::Color;
use crate::rules::position::notation::{move_to_usi, parse_usi_move, MoveError};
use crate::rules::position::sfen::square_name;
use crate::rules::position::Position;

use super::game::{with_game, Game};
use super::go::{parse_go, GoRequest};
use super::options::{option_lines, Options, Setting};
use super::output::Output;
use super::reader::{spawn_reader, Input};
use super::search::run_search;
use super::truncate;

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
    control: Arc<Control>,
    running: Option<Running>,
    /// Whether the table has the size and the pool the thread count of the options; both are (re)built lazily,
    /// on the first `isready`, `usinewgame` or `go`, so that start-up and `setoption` are instant.
    hash_ready: bool,
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
            game: Game::Shogi(Position::startpos()),
            options,
            searcher: Arc::new(Mutex::new(searcher)),
            control,
            running: None,
            hash_ready: false,
        }
    }

    /// Runs the loop until `quit` or end of input.
    pub fn run(&mut self) {
        let rx = spawn_reader();
        loop {
            let line = match rx.recv().unwrap_or(Input::Eof) {
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
            "stop" | "gameover" => self.stop_and_wait(),
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
            self.control.pondering.store(false, Ordering::SeqCst);
            let _ = r.handle.join();
        }
    }

    /// The searcher, for a change between searches. A search that panicked leaves the lock poisoned; the table
    /// and the pool are still sound (the table is plain atomics), so the engine goes on with them.
    fn searcher(&self) -> MutexGuard<'_, Searcher> {
        self.searcher.lock().unwrap_or_else(|e| e.into_inner())
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
        if !self.searching() {
            self.make_ready();
        }
        self.out.send("readyok");
    }

    fn cmd_usinewgame(&mut self) {
        self.stop_and_wait();
        self.make_ready();
        self.searcher().clear();
    }

    fn cmd_setoption(&mut self, args: &[&str]) {
        if self.searching() {
            self.out.error("setoption is not accepted during a search");
            return;
        }
        let setting = match Setting::parse(args) {
            Ok(s) => s,
            Err(e) => return self.out.error(&e),
        };
        if let Setting::LogFile(path) = &setting {
            if let Err(e) = self.out.set_log(path) {
                return self.out.error(&e);
            }
        }
        self.options.apply(&setting);
        match setting {
            Setting::Hash(_) | Setting::Threads(_) => self.hash_ready = false,
            Setting::Variant(kind) => self.game = Game::start(kind),
            Setting::DrawValue(cp) => self.searcher().draw_value = cp,
            Setting::MaxMovesToDraw(n) => self.searcher().max_moves_to_draw = n,
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
            Some(&"sfen") => match self.game.parse_sfen(&setup[1..].join(" ")) {
                Ok(g) => g,
                Err(e) => return self.out.error(&format!("position: {e}")),
            },
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
        let depth = args.first().and_then(|d| d.parse().ok()).unwrap_or(8);
        let out = self.out.clone();
        crate::engine::bench::run_bench(&[self.game.kind()], depth, 1, 16, &|l| {
            out.send(&format!("info string {l}"))
        });
    }

    fn cmd_go(&mut self, args: &[&str]) {
        if self.searching() {
            return self.out.error("a search is already running");
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
        self.make_ready();
        let mut limits = req.limits;
        limits.multipv = self.options.multipv;
        limits.searchmoves = searchmoves;
        // the control flags belong to the coming search
        self.control.stop.store(false, Ordering::SeqCst);
        self.control.pondering.store(req.ponder, Ordering::SeqCst);
        if let Ok(mut s) = self.control.start.lock() {
            *s = Instant::now();
        }
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
                let searcher = searcher.lock().unwrap_or_else(|e| e.into_inner());
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
        let Some(depth) = args.first().and_then(|d| d.parse::<u32>().ok()) else {
            return self.out.error("go perft needs a depth");
        };
        let mut game = self.game.clone();
        let out = self.out.clone();
        let start = Instant::now();
        let total: u64 = with_game!(&mut game, p, V, {
            let mut total = u64::from(depth == 0);
            for (m, n) in divide(p, depth) {
                out.send(&format!("{}: {n}", move_to_usi::<V>(m)));
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
    }
}
