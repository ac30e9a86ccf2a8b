//! Tsume (mating problem) solver for all three games: df-pn+ with proof and disproof pieces, a shortening pass
//! and a verified principal line.
//!
//! Conventions:
//! - The side to move is the attacker; every attacker move is a check; the defender plays the longest defence.
//! - A repetition is no mate (the attacker's perpetual check would lose).
//! - Mating pawn drops are illegal (the rules core refuses them in all three games).
//! - Futile interpositions (無駄合い, see [`moves::is_futile_interposition`]) are not counted in the length, and a
//!   position whose only evasions are futile interpositions counts as mated; [`MateLimits::futile_interpositions`]
//!   turns that off (every interposition then counts and the final position is a plain checkmate). `go mate` and
//!   `hayate mate` leave them uncounted in 9×9 only (see [`futile_rule`]).
//! - Between lines of equal length, one that leaves the attacker no pieces in hand (no 駒余り) is reported
//!   where one exists (see [`line::prefer_no_surplus`]); [`MateReport::surplus`] says what is left otherwise.
//! - The defender's hand: in a tsume the defender holds every piece not on the board or in the attacker's hand.
//!   An SFEN may say so explicitly or leave the defender's hand out; [`tsume_position`] with
//!   [`DefenderHand::FillIfEmpty`] gives the defender all remaining pieces (kings excluded) when the SFEN lists
//!   none for it, and takes the hand as written otherwise. Game positions (USI `go mate`) are solved as they are.
//! - The attacker may have no king (as in most problems): parse with [`tsume_position`] or
//!   [`Position::from_tsume_sfen`].

mod children;
mod dfpn;
mod estimates;
pub mod hands;
mod line;
pub mod moves;
mod parallel;
mod repcache;
pub mod suite;
pub mod table;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::rules::game::GameKind;
use crate::rules::hand::Hand;
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::position::sfen::SfenError;
use crate::rules::position::Position;
use crate::rules::square::Square;
use crate::rules::variant::Variant;

use dfpn::{Abort, DfpnSolver};
use table::{Table, TableRef, DEPTH_INF};

/// Whether futile interpositions (無駄合い) go uncounted in this game's mates: the default of `go mate` and
/// `hayate mate`. In 9×9 shogi they do, as in tsume and in the solvers it is measured against (shtsume,
/// KomoringHeights). Minishogi and Yari shogi have no such convention of their own, and there the solver serves
/// games (analysis, `go mate` from a GUI): every interposition counts, so that the length is the game's
/// forced-mate distance, the one the playing search reports as `score mate` (its mate probe counts every
/// interposition too) and the one a plain brute-force search finds.
pub fn futile_rule<V: Variant>() -> bool {
    V::KIND == GameKind::Shogi
}

/// What to search with.
#[derive(Clone, Debug)]
pub struct MateLimits {
    /// Wall-clock limit for the whole solve (proof, shortening and line).
    pub time: Option<Duration>,
    /// Node limit for the whole solve.
    pub nodes: Option<u64>,
    /// Transposition table size in megabytes.
    pub hash_mb: usize,
    /// Run the shortening pass after the first proof (the reported mate is then the shortest one when the
    /// limits allow it to finish).
    pub shortest: bool,
    /// Futile interpositions do not count (the tsume convention); false counts every interposition.
    pub futile_interpositions: bool,
    /// Under a time limit, the share of the time left after the proof that optional work may take: the
    /// shortening and the checks that the line's defence is the longest. The line is then read from the table.
    pub shortening_share: f64,
    /// Searchers for the root searches (the first proof and the shortening pass's), on one shared table; the
    /// line is read by one.
    pub threads: usize,
}

impl Default for MateLimits {
    fn default() -> Self {
        MateLimits {
            time: None,
            nodes: None,
            hash_mb: 64,
            shortest: true,
            futile_interpositions: true,
            shortening_share: 0.75,
            threads: 1,
        }
    }
}

/// The answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateResult {
    /// A verified mating line (attacker's move first).
    Mate(Vec<Move>),
    /// Proven: no mate by continuous checks.
    NoMate,
    /// The time or node limit ran out first.
    Timeout,
    /// The stop flag was raised first.
    Stopped,
}

/// The answer with the search's figures.
#[derive(Clone, Debug)]
pub struct MateReport {
    pub result: MateResult,
    /// The mate's length in plies, futile interpositions not counted.
    pub length: Option<usize>,
    /// Whether the shortening pass finished, so that `length` is the shortest mate.
    pub shortest_proven: bool,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: u32,
    /// Pieces left in the attacker's hand at the end of the line (駒余り when not zero).
    pub surplus: u32,
}

/// Progress, for USI `info` lines (reported about once a second).
#[derive(Clone, Copy, Debug)]
pub struct MateProgress {
    pub nodes: u64,
    pub nps: u64,
    /// Table occupancy in permille.
    pub hashfull: u32,
    pub time_ms: u64,
}

/// A progress callback.
pub type ProgressFn<'a> = &'a (dyn Fn(&MateProgress) + Sync);

/// How [`tsume_position`] reads the defender's hand.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DefenderHand {
    /// As written in the SFEN.
    AsGiven,
    /// All remaining pieces when the SFEN gives the defender none (the tsume convention); as written otherwise.
    FillIfEmpty,
}

/// Parses a tsume SFEN: the attacker (side to move) may lack a king, and the defender's hand follows `rule`.
pub fn tsume_position<V: Variant>(
    sfen: &str,
    rule: DefenderHand,
) -> Result<Position<V>, SfenError> {
    let pos = Position::<V>::from_tsume_sfen(sfen)?;
    let defender = !pos.side_to_move();
    if rule == DefenderHand::AsGiven || !pos.hand(defender).is_empty() {
        return Ok(pos);
    }
    // count what is in play, then hand the rest to the defender
    let mut left = V::PIECE_TOTALS;
    for i in 0..V::SQUARES {
        let p = pos.piece_at(Square::new(i as u8));
        if p.is_some() {
            let k = p.kind().unpromoted().index();
            left[k] = left[k].saturating_sub(1);
        }
    }
    let mut hands = String::new();
    for c in Color::ALL {
        for k in Hand::SFEN_ORDER {
            if !V::HAND_KINDS.contains(&k) {
                continue;
            }
            let n = if c == defender {
                left[k.index()].saturating_sub(pos.hand(!defender).count(k))
            } else {
                pos.hand(c).count(k)
            };
            if n == 0 {
                continue;
            }
            if n > 1 {
                hands.push_str(&n.to_string());
            }
            let l = k.letter();
            hands.push(if c == Color::Black {
                l
            } else {
                l.to_ascii_lowercase()
            });
        }
    }
    if hands.is_empty() {
        return Ok(pos);
    }
    let sfen = pos.to_sfen();
    let f: Vec<&str> = sfen.split(' ').collect();
    let filled = format!("{} {} {} {}", f[0], f[1], hands, f.get(3).unwrap_or(&"1"));
    Position::<V>::from_tsume_sfen(&filled)
}

/// Stack for the solver's thread: the search recurses once per ply and mates may be over a thousand plies long.
pub(super) const STACK_BYTES: usize = 256 << 20;

/// Solves the position for the side to move, with a new table of `limits.hash_mb` megabytes.
pub fn solve<V: Variant>(
    pos: &Position<V>,
    limits: &MateLimits,
    stop: &AtomicBool,
    progress: Option<ProgressFn>,
) -> MateReport {
    // a new table is empty already: clearing it again would double the start-up time of a large one
    solve_in(pos, limits, stop, progress, &mut Table::new(limits.hash_mb))
}

/// Solves with a table the caller keeps (it is cleared first), e.g. to solve a suite without reallocating.
pub fn solve_with_table<V: Variant>(
    pos: &Position<V>,
    limits: &MateLimits,
    stop: &AtomicBool,
    progress: Option<ProgressFn>,
    table: &mut Table,
) -> MateReport {
    table.clear();
    solve_in(pos, limits, stop, progress, table)
}

/// Solves with a table the caller keeps, without clearing it: what earlier solves for the same attacker and
/// game proved or disproved holds for any root (proofs never rest on a repetition, and a disproof through one is
/// stored only at the repeated position itself), so a game's next move finds most of its proof there already.
/// The caller clears the table when the attacker, the game or the futile-interposition rule changes.
pub fn solve_reusing_table<V: Variant>(
    pos: &Position<V>,
    limits: &MateLimits,
    stop: &AtomicBool,
    table: &mut Table,
) -> MateReport {
    solve_in(pos, limits, stop, None, table)
}

/// Solves with an empty `table`.
fn solve_in<V: Variant>(
    pos: &Position<V>,
    limits: &MateLimits,
    stop: &AtomicBool,
    progress: Option<ProgressFn>,
    table: &mut Table,
) -> MateReport {
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("tsume".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, || run(pos, limits, stop, progress, table));
        match worker.map(|h| h.join()) {
            Ok(Ok(report)) => report,
            Ok(Err(_)) => {
                log::error!("tsume: the solver thread panicked");
                failed(MateResult::Timeout)
            }
            Err(e) => {
                log::error!("tsume: cannot start the solver thread: {e}");
                failed(MateResult::Timeout)
            }
        }
    })
}

fn failed(result: MateResult) -> MateReport {
    MateReport {
        result,
        length: None,
        shortest_proven: false,
        nodes: 0,
        time: Duration::ZERO,
        hashfull: 0,
        surplus: 0,
    }
}

fn run<V: Variant>(
    pos: &Position<V>,
    limits: &MateLimits,
    stop: &AtomicBool,
    progress: Option<ProgressFn>,
    table: &mut Table,
) -> MateReport {
    let attacker = pos.side_to_move();
    if !pos.has_king(!attacker) || pos.is_attacked(attacker, pos.king(!attacker), pos.occupied()) {
        return failed(MateResult::NoMate);
    }
    let mut s = DfpnSolver::new(
        pos.clone(),
        TableRef::Own(table),
        stop,
        limits.time,
        limits.nodes,
        limits.futile_interpositions,
        progress,
    );
    s.threads = limits.threads;
    let r = s.search_root(DEPTH_INF);
    let finish = |s: &DfpnSolver<V>, result, length, shortest_proven| MateReport {
        result,
        length,
        shortest_proven,
        nodes: s.nodes,
        time: s.elapsed(),
        hashfull: s.tt.hashfull(),
        surplus: 0,
    };
    if let Some(a) = s.aborted {
        let result = match a {
            Abort::Stopped => MateResult::Stopped,
            Abort::Limit | Abort::Soft | Abort::Halted => MateResult::Timeout,
        };
        return finish(&s, result, None, false);
    }
    if r.pn != 0 {
        let result = if s.hit_ply_cap {
            MateResult::Timeout
        } else {
            MateResult::NoMate
        };
        return finish(&s, result, None, false);
    }
    log::debug!(
        "tsume: proven, first length {}, {} nodes, {:?}",
        r.len,
        s.nodes,
        s.elapsed()
    );
    // shortening a long mate (proving no shorter one) can cost far more than the proof: it gets a share of the
    // time left, and the line is then read from the table (Microcosmos: proven after about half a minute, while
    // the search for a mate two plies shorter had not ended after two more minutes)
    let futile = limits.futile_interpositions;
    let checked = |pv: Option<Vec<Move>>| {
        let pv = pv.ok_or_else(|| "proven, but the table lost part of the line".to_string())?;
        let length = line::verify(pos, &pv, futile)
            .map_err(|e| format!("the line found does not verify: {e}"))?;
        Ok::<_, String>((pv, length))
    };
    // Under a limit the first proof's line is read at once, while its proofs are all in the table: the
    // shortening's searches replace some of them, and a line read afterwards that must prove them again can run
    // out of time (Microcosmos with two searchers: proven within 16 s, then once in four runs no line by the
    // 60 s limit). That line is reported, not proven shortest, if the later one cannot be.
    let limited = limits.time.is_some() || limits.nodes.is_some();
    let first_line = if limits.shortest && limited && r.len >= 3 {
        checked(line::principal_line(&mut s, r.len, false)).ok()
    } else {
        None
    };
    s.set_soft_deadline(limits.shortening_share);
    let (len, shortest) = if limits.shortest {
        line::shorten(&mut s, r.len)
    } else {
        (r.len, false)
    };
    // the line is read even when the limits ran out during the shortening: the mate itself is proven
    let exact = s.aborted.is_none();
    let pv = line::principal_line(&mut s, len, exact);
    log::debug!("tsume: line read, {} nodes, {:?}", s.nodes, s.elapsed());
    let (pv, length, shortest) = match (checked(pv), first_line) {
        (Ok((pv, length)), _) => (pv, length, shortest),
        (Err(e), Some((pv, length))) => {
            log::warn!("tsume: {e}; the first proof's line reported");
            (pv, length, false)
        }
        (Err(e), None) => {
            log::error!("tsume: {e}");
            return finish(&s, MateResult::Timeout, None, false);
        }
    };
    let pv = line::prefer_no_surplus(&mut s, pv, length, futile);
    let surplus = line::surplus_after(pos, &pv);
    MateReport {
        surplus,
        ..finish(&s, MateResult::Mate(pv), Some(length), shortest)
    }
}
