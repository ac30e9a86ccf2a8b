//! The engine's thinking, run as a job off the protocol thread: a search for a move (answered with `move ...`)
//! or an analysis (no move), thinking output in XBoard's format, and the game's end by the rules (`1-0 {...}`).
//!
//! A [`Turn`] is shared between the job and the protocol thread, under one lock: the job records its move and
//! writes it unless the protocol thread has withdrawn the search meanwhile (`force`, `new`, a move from the
//! GUI), and the `pong` to a `ping` that arrived while the engine was on move goes out right after the move,
//! as the protocol asks.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::engine::eval::GameEval;
use crate::engine::search::{mate_in_moves, Info, Limits, Searcher};
use crate::engine::tt::Bound;
use crate::host::job::Reporter;
use crate::host::Options;
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::position::Position;
use crate::rules::position::Repetition;
use crate::EnteringKingRule;

use super::notation::{line_text, move_text};

/// What the protocol thread and a thinking job share.
#[derive(Default)]
pub struct TurnState {
    /// Set by the protocol thread: the search was withdrawn and its move must not be played.
    pub withdrawn: bool,
    /// Set by the job when it has written everything it will write.
    pub done: bool,
    /// The move the job played (and wrote).
    pub played: Option<Move>,
    /// `pong` lines that wait for the move.
    pub pongs: Vec<String>,
    /// The latest progress, for `.` in analysis: depth, nodes, centiseconds.
    pub depth: i32,
    pub nodes: u64,
    pub centis: u64,
}

pub type Turn = Arc<Mutex<TurnState>>;

/// Locks a turn; a job that panicked leaves plain data behind, still usable.
pub fn lock(turn: &Mutex<TurnState>) -> MutexGuard<'_, TurnState> {
    turn.lock().unwrap_or_else(|e| e.into_inner())
}

/// What a thinking job does with its search.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Purpose {
    /// Find a move and play it.
    Play,
    /// Report the best line until stopped; play nothing.
    Analyze,
}

/// The body of a thinking job.
#[allow(clippy::too_many_arguments)] // one call site; each argument is a different shared thing
pub fn think<V: GameEval>(
    searcher: &Searcher,
    pos: &Position<V>,
    limits: &Limits,
    options: &Options,
    purpose: Purpose,
    post: &AtomicBool,
    turn: &Mutex<TurnState>,
    report: &Reporter,
) {
    if purpose == Purpose::Play {
        if let Some(result) = declaration::<V>(pos, options.entering_king) {
            return finish(turn, report, None, Some(result));
        }
    }
    let on_info = |i: &Info| {
        let mut t = lock(turn);
        t.nodes = i.nodes;
        t.centis = i.time_ms / 10;
        if !i.progress_only {
            t.depth = i.depth;
        }
        drop(t);
        if !i.progress_only && post.load(Ordering::Relaxed) {
            report.send(&thinking_line::<V>(i));
        }
    };
    let r = searcher.search(pos, limits, &options.time, &on_info);
    if purpose == Purpose::Analyze {
        return finish(turn, report, None, None);
    }
    match r.best {
        Some(m) => {
            let mut after = pos.clone();
            after.do_move(m);
            finish(turn, report, Some((m, move_text::<V>(m))), ending(&after));
        }
        // the position had no legal move: the protocol thread checks that before it starts a search, so this
        // is a position set up lost
        None => finish(turn, report, None, ending(pos)),
    }
}

/// Writes the move (and the game's result, if the move ends it) unless the search was withdrawn, then the
/// waiting `pong`s, all under the turn's lock.
fn finish(
    turn: &Mutex<TurnState>,
    report: &Reporter,
    m: Option<(Move, String)>,
    result: Option<String>,
) {
    let mut t = lock(turn);
    if !t.withdrawn {
        if let Some((m, text)) = m {
            t.played = Some(m);
            report.send(&format!("move {text}"));
        }
        if let Some(r) = result {
            report.send(&r);
        }
    }
    for p in t.pongs.drain(..) {
        report.send(&p);
    }
    t.done = true;
}

/// One line of thinking output: `depth score centiseconds nodes pv`, `?` after a fail-low line and `!` after a
/// fail-high one; mate scores as 100000 + moves (or -100000 - moves when mated), as XBoard shows them.
pub fn thinking_line<V: GameEval>(i: &Info) -> String {
    let score = match mate_in_moves(i.score) {
        Some(n) if n > 0 => 100_000 + n,
        Some(n) => -100_000 + n,
        None => i.score,
    };
    let mark = match i.bound {
        Bound::Upper => "?",
        Bound::Lower => "!",
        _ => "",
    };
    format!(
        "{} {score} {} {} {}{mark}",
        i.depth,
        i.time_ms / 10,
        i.nodes,
        line_text::<V>(&i.pv)
    )
}

/// The game's result when it has ended by the rules in `pos`, as XBoard's `RESULT {comment}` line (XBoard's
/// "white", the `1-0` side, is sente): the side to move has no legal move (checkmate, or none at all, which
/// loses in shogi), or the position occurs for the fourth time (a draw, a loss for the side that checked
/// throughout, and in minishogi a loss for sente).
pub fn ending<V: GameEval>(pos: &Position<V>) -> Option<String> {
    let mover = pos.side_to_move();
    let win = |winner: Color, why: &str| {
        let score = if winner == Color::Black { "1-0" } else { "0-1" };
        Some(format!("{score} {{{why}}}"))
    };
    let name = |c: Color| if c == Color::Black { "Sente" } else { "Gote" };
    if !pos.has_legal_move() {
        let why = if pos.in_check() {
            format!("{} mates", name(!mover))
        } else {
            format!("{} has no legal move", name(mover))
        };
        return win(!mover, &why);
    }
    let v = pos.repetition_verdict(4, usize::MAX)?;
    let why = if v.perpetual {
        "Perpetual check"
    } else {
        "Fourfold repetition"
    };
    match v.result {
        Repetition::Win => win(mover, why),
        Repetition::Loss => win(!mover, why),
        Repetition::Draw => Some(format!("1/2-1/2 {{{why}}}")),
        Repetition::None => None,
    }
}

/// The entering-king declaration (9×9 only), claimed as a win instead of a move.
fn declaration<V: GameEval>(pos: &Position<V>, rule: EnteringKingRule) -> Option<String> {
    if !(V::ENTERING_KING && pos.can_declare(rule)) {
        return None;
    }
    Some(if pos.side_to_move() == Color::Black {
        "1-0 {Sente declares a win (entering king)}".into()
    } else {
        "0-1 {Gote declares a win (entering king)}".into()
    })
}
