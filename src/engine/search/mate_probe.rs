//! The tsume solver as a helper of the playing search: before the alpha-beta search of a move played on the
//! clock, the df-pn solver gets a slice of the move's time on the root position. Alpha-beta finds mates only
//! within its horizon, while the solver proves the long forced mates that end a won game (a 33-ply one in well
//! under a second). The solver mates by checks only, and a shorter mate may begin with a quiet move: the search
//! then still runs, and stops once it has searched twice as deep as the solver's mate is long; its own mate is
//! played when it is as short, the solver's line otherwise (reported with `score mate N` and the whole line as
//! PV). Nothing else claims a mate: an unproven line is never reported as one.
//!
//! The solver's table is kept between moves of the same game and side, so that the proof of the next move is
//! mostly found in it: after the opponent's reply to a proven mate, the rest of the proof is already there.
//! Its lines count every interposition (a game's plies, not a composed problem's length).

use std::sync::Mutex;
use std::time::Duration;

use crate::engine::tsume::{self, table::Table, MateLimits, MateResult};
use crate::rules::game::GameKind;
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::position::Position;
use crate::rules::variant::Variant;

use super::control::Control;
use super::{MATE, MATE_BOUND};

/// The share of a move's optimum time the solver gets (a thirty-second): small, since a position without a mate
/// by checks gains nothing from it (a tenth measured -89 +/- 93 Elo in 60 games at byoyomi 200 ms, 9×9), and a
/// long mate is proven over a few moves anyway, its table kept.
const SHARE_DIVISOR: u32 = 32;
/// The share when the previous search of this side already saw a won game (half): there the solver is the
/// likeliest way to finish it.
const WINNING_SHARE_DIVISOR: u32 = 2;
/// A previous score at least this large counts as a won game.
const WINNING_SCORE: i32 = 1500;
/// Below this slice the solver is not started: thread start and line verification would eat it.
const MIN_SLICE: Duration = Duration::from_millis(4);

/// The kept table and what its contents hold for.
struct Kept {
    game: GameKind,
    attacker: Color,
    table: Table,
}

pub struct MateProbe {
    kept: Mutex<Option<Kept>>,
    table_mb: usize,
    /// The side that searched last and its score (from its point of view).
    last_score: Mutex<Option<(Color, i32)>>,
}

/// A proven mate for the side to move.
#[derive(Clone)]
pub struct ProvenMate {
    pub line: Vec<Move>,
    pub nodes: u64,
    pub hashfull: u32,
}

impl MateProbe {
    /// A probe whose table takes about `table_mb` megabytes once used (pages are touched as the solver needs them).
    pub fn new(table_mb: usize) -> Self {
        MateProbe {
            kept: Mutex::new(None),
            table_mb: table_mb.max(1),
            last_score: Mutex::new(None),
        }
    }

    /// Forgets the table and the last score (a new game).
    pub fn clear(&self) {
        if let Ok(mut k) = self.kept.lock() {
            *k = None;
        }
        if let Ok(mut s) = self.last_score.lock() {
            *s = None;
        }
    }

    /// Remembers a finished search's score for the next move's slice.
    pub fn record_score(&self, side: Color, score: i32) {
        if let Ok(mut s) = self.last_score.lock() {
            *s = Some((side, score));
        }
    }

    /// The solver's slice of a move whose optimum time is `optimum`.
    pub fn slice(&self, side: Color, optimum: Duration) -> Duration {
        let winning = self
            .last_score
            .lock()
            .ok()
            .and_then(|s| *s)
            .is_some_and(|(c, score)| c == side && score >= WINNING_SCORE);
        optimum
            / if winning {
                WINNING_SHARE_DIVISOR
            } else {
                SHARE_DIVISOR
            }
    }

    /// Runs the solver on `pos` for at most `slice`; a verified mate short enough to be scored comes back.
    pub fn solve<V: Variant>(
        &self,
        pos: &Position<V>,
        slice: Duration,
        control: &Control,
    ) -> Option<ProvenMate> {
        if slice < MIN_SLICE {
            return None;
        }
        let attacker = pos.side_to_move();
        let mut guard = self.kept.lock().ok()?;
        let fresh = !guard
            .as_ref()
            .is_some_and(|k| k.game == V::KIND && k.attacker == attacker);
        if fresh {
            // another game or side: the old results answer other questions
            *guard = None;
            *guard = Some(Kept {
                game: V::KIND,
                attacker,
                table: Table::new(self.table_mb),
            });
        }
        let kept = guard.as_mut()?;
        let limits = MateLimits {
            time: Some(slice),
            nodes: None,
            hash_mb: self.table_mb,
            shortest: true,
            futile_interpositions: false,
            ..MateLimits::default()
        };
        let start = std::time::Instant::now();
        let r = tsume::solve_reusing_table(pos, &limits, control.stop_flag(), &mut kept.table);
        log::debug!(
            "mate probe: {} after {:?} of a {:?} slice, {} nodes{}",
            match &r.result {
                MateResult::Mate(line) => format!("mate in {}", line.len()),
                MateResult::NoMate => "no mate".to_string(),
                MateResult::Timeout | MateResult::Stopped => "no result".to_string(),
            },
            start.elapsed(),
            slice,
            r.nodes,
            if fresh { ", fresh table" } else { "" }
        );
        match r.result {
            // a mate score has room for lines shorter than MATE - MATE_BOUND plies
            MateResult::Mate(line)
                if !line.is_empty() && (line.len() as i32) < MATE - MATE_BOUND =>
            {
                Some(ProvenMate {
                    line,
                    nodes: r.nodes,
                    hashfull: r.hashfull,
                })
            }
            _ => None,
        }
    }
}
