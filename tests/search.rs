//! Search tests for all three games.
//!
//! - Mate problems (mate in 1, 3 and 5 plies, drops and promotions among the mating moves), each proved to be a
//!   forced mate of exactly that length by the small AND-OR solver below, which reads the engine only through
//!   `legal_moves`, `do_move`/`undo_move` and `key`. The engine must report `MATE - plies` exactly, and its best
//!   move (and every attacker move of its PV) must keep a forced mate of the remaining length. Every problem is
//!   also played from the other side (board turned round, colours swapped) with White to move.
//! - Legality: over a few hundred random playout positions per game, the best move, the whole PV and the ponder
//!   move are legal; with no legal move the result is `best: None` and `-MATE` (checkmate and stalemate).
//! - Repetition by each game's rule through `Position::repetition`, perpetual check included, in both colours;
//!   and the search's use of it (a repetition ends a minishogi game with a loss for sente, a draw elsewhere).
//! - Determinism, `searchmoves`, MultiPV and stopping an infinite search.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use hayate::engine::eval::GameEval;
use hayate::engine::search::{
    mate_in_moves, Info, Limits, SearchResult, Searcher, TimeOptions, MATE, MATE_BOUND,
};
use hayate::rules::piece::Color;
use hayate::rules::position::notation::move_to_usi;
use hayate::rules::position::Repetition;
use hayate::{GameKind, Minishogi, Move, Position, Shogi, Variant, Yari};

// ================================================================================================================
// Helpers
// ================================================================================================================

const HASH_MB: usize = 16;

fn pos<V: Variant>(sfen: &str) -> Position<V> {
    Position::<V>::from_sfen(sfen).unwrap_or_else(|e| panic!("{}: bad SFEN {sfen}: {e}", V::NAME))
}

/// A position reached from `sfen` by playing `moves` (USI), with its history kept.
fn play<V: Variant>(sfen: &str, moves: &[&str]) -> Position<V> {
    let mut p = pos::<V>(sfen);
    p.play_usi_moves(moves.iter().copied())
        .unwrap_or_else(|e| panic!("{}: cannot play {moves:?} from {sfen}: {e}", V::NAME));
    p
}

fn usi<V: Variant>(m: Move) -> String {
    move_to_usi::<V>(m)
}

fn line<V: Variant>(pv: &[Move]) -> String {
    pv.iter()
        .map(|&m| usi::<V>(m))
        .collect::<Vec<_>>()
        .join(" ")
}

fn depth(d: i32) -> Limits {
    Limits {
        depth: Some(d),
        multipv: 1,
        ..Limits::default()
    }
}

/// Resets the searcher's control as a front end does before each search, then searches.
fn search<V: GameEval>(
    s: &Searcher,
    p: &Position<V>,
    limits: &Limits,
    on_info: &(dyn Fn(&Info) + Sync),
) -> SearchResult {
    let c = s.control();
    c.stop.store(false, Ordering::SeqCst);
    c.pondering.store(false, Ordering::SeqCst);
    *c.start.lock().unwrap() = Instant::now();
    s.search(p, limits, &TimeOptions::default(), on_info)
}

fn search_depth<V: GameEval>(p: &Position<V>, d: i32) -> SearchResult {
    let s = Searcher::new(1, HASH_MB);
    search(&s, p, &depth(d), &|_| {})
}

/// The same position seen from the other side: the board turned round, colours swapped, the other side to move.
fn flip_sfen(sfen: &str) -> String {
    let f: Vec<&str> = sfen.split_whitespace().collect();
    let swap = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    let ranks: Vec<String> = f[0]
        .split('/')
        .rev()
        .map(|rank| {
            // tokens: a digit run, or an optional '+' and a letter
            let mut tokens: Vec<String> = Vec::new();
            let mut plus = false;
            for c in rank.chars() {
                if c == '+' {
                    plus = true;
                } else if c.is_ascii_digit() {
                    tokens.push(c.to_string());
                } else {
                    tokens.push(format!("{}{}", if plus { "+" } else { "" }, swap(c)));
                    plus = false;
                }
            }
            tokens.reverse();
            tokens.concat()
        })
        .collect();
    let side = if f[1] == "b" { "w" } else { "b" };
    let hand = if f[2] == "-" {
        "-".to_string()
    } else {
        // counts and letters; sente's (upper case) first after the swap
        let mut items: Vec<String> = Vec::new();
        let mut count = String::new();
        for c in f[2].chars() {
            if c.is_ascii_digit() {
                count.push(c);
            } else {
                items.push(format!("{count}{}", swap(c)));
                count.clear();
            }
        }
        let (mut up, low): (Vec<String>, Vec<String>) = items
            .into_iter()
            .partition(|s| s.chars().last().is_some_and(|c| c.is_ascii_uppercase()));
        up.extend(low);
        up.concat()
    };
    let num = f.get(3).copied().unwrap_or("1");
    format!("{} {side} {hand} {num}", ranks.join("/"))
}

/// A USI move seen from the other side (see `flip_sfen`).
fn flip_move<V: Variant>(m: &str) -> String {
    let b = m.as_bytes();
    let sq = |s: &[u8]| {
        let file = (s[0] - b'0') as usize;
        let rank = (s[1] - b'a') as usize;
        format!(
            "{}{}",
            V::FILES + 1 - file,
            (b'a' + (V::RANKS - 1 - rank) as u8) as char
        )
    };
    if b[1] == b'*' {
        format!("{}*{}", b[0] as char, sq(&b[2..4]))
    } else {
        format!("{}{}{}", sq(&b[0..2]), sq(&b[2..4]), &m[4..])
    }
}

/// xorshift64*: a small seeded generator, so that every run sees the same positions.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

// ================================================================================================================
// Brute-force mate solver
// ================================================================================================================

/// AND-OR search over the engine's legal moves: the attacker tries every move, the defender every reply, and a
/// side to move with no legal move has lost (checkmate or not, in all three games; a mating pawn drop is never
/// generated). Results are cached by key and remaining plies; repetition plays no part within a few plies.
#[derive(Default)]
struct Solver {
    cache: HashMap<(u64, u32), bool>,
    /// Let the attacker try only checking moves (a tsume-style proof; the default tries every move).
    checks_only: bool,
}

impl Solver {
    /// The side to move (the attacker) can force a win within `plies` plies (odd: its own last move included).
    fn wins<V: Variant>(&mut self, p: &mut Position<V>, plies: u32) -> bool {
        if plies == 0 {
            return false;
        }
        if let Some(&r) = self.cache.get(&(p.key(), plies)) {
            return r;
        }
        let mut moves: Vec<Move> = p.legal_moves().to_vec();
        // checks first: only the speed depends on the order
        moves.sort_by_key(|&m| !p.gives_check(m));
        if self.checks_only {
            moves.retain(|&m| p.gives_check(m));
        }
        let mut won = false;
        for m in moves {
            p.do_move(m);
            let lost = self.loses(p, plies - 1);
            p.undo_move();
            if lost {
                won = true;
                break;
            }
        }
        self.cache.insert((p.key(), plies), won);
        won
    }

    /// The side to move (the defender) cannot avoid losing within `plies` plies (even).
    fn loses<V: Variant>(&mut self, p: &mut Position<V>, plies: u32) -> bool {
        let moves = p.legal_moves();
        if moves.is_empty() {
            return true;
        }
        if plies == 0 {
            return false;
        }
        for &m in moves.iter() {
            p.do_move(m);
            let won = self.wins(p, plies - 1);
            p.undo_move();
            if !won {
                return false;
            }
        }
        true
    }

    /// The exact length in plies of the shortest forced win of the side to move, if within `max` plies.
    fn mate_length<V: Variant>(&mut self, p: &mut Position<V>, max: u32) -> Option<u32> {
        (1..=max).step_by(2).find(|&n| self.wins(p, n))
    }
}

// ================================================================================================================
// Mate problems
// ================================================================================================================

/// A mate problem: SFEN (the attacker to move), the exact length in plies, and one winning first move.
struct Problem {
    sfen: &'static str,
    plies: u32,
    key: &'static str,
}

const fn problem(sfen: &'static str, plies: u32, key: &'static str) -> Problem {
    Problem { sfen, plies, key }
}

const SHOGI_MATES: [Problem; 6] = [
    // gold drop in front of the king, backed by the pawn
    problem("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", 1, "G*5b"),
    // the bishop promotes on 8b, backed by the knight
    problem("9/k8/B8/N8/9/9/9/9/7K1 b B 1", 1, "9c8b+"),
    // S*8c 8b8a S*8b
    problem("9/1k7/9/2+R6/9/9/9/9/4K4 b 2S 1", 3, "S*8c"),
    // 6a8c+ 6b6a 5a6a+
    problem("2kBR4/3g5/9/9/9/9/9/9/7K1 b BS 1", 3, "6a8c+"),
    // S*3b 2a1a 2c1d 2b1b B*4d
    problem("7k1/7+b1/7+R1/9/9/9/9/9/4K4 b BS 1", 5, "S*3b"),
    // 7e7b+ 9b9c L*9f 9c8d L*8f
    problem("+r8/k8/9/9/2R6/9/9/9/6K2 b 2L 1", 5, "7e7b+"),
];

const MINISHOGI_MATES: [Problem; 6] = [
    problem("2k2/5/1S3/5/4K b G 1", 1, "G*3b"),
    // the rook takes the rook and promotes, backed by the silver
    problem("3Rr/4k/5/4S/1K3 b - 1", 1, "2a2c+"),
    // G*3c 3b3a 5a4b+
    problem("B4/2k1B/5/5/1K3 b GP 1", 3, "G*3c"),
    // 2b3a+ 4a5a 3a4b
    problem("1k3/3B1/B4/5/1K3 b - 1", 3, "2b3a+"),
    // R*1d 1b2b 1d2d 2b1b R*1d
    problem("4s/1G2k/5/5/K3+P b 2R 1", 5, "R*1d"),
    // 4a4c+ 5b5a 4c5c 5a4a B*1d
    problem("1R3/k4/b1R2/5/1K3 b - 1", 5, "4a4c+"),
];

const YARI_MATES: [Problem; 6] = [
    // the dropped yari knight gives check by its jump
    problem("+p1R4/k6/n6/7/7/7/7/7/3K3 b N 1", 1, "N*6d"),
    // the knight jumps and promotes to a yari gold
    problem("4k2/7/4+P2/3N3/7/7/7/7/3K3 b - 1", 1, "4d3b+"),
    // N*2d 1b1a B*1b
    problem("7/6k/6p/7/7/7/7/7/5K1 b BN 1", 3, "N*2d"),
    // 4a3a+ (the yari rook becomes a rook) 2a2b B*2d
    problem("2RRrk+P/7/7/7/7/7/7/7/1K5 b BP 1", 3, "4a3a+"),
    // N*3c 2a2b B*2d 2b1b 2d1c+
    problem("5k+b/7/7/6+N/7/7/7/7/5K1 b BN 1", 5, "N*3c"),
    // 4a3a+ 3b3a B*3c 3a2a N*1c
    problem("3Rn2/4kn1/7/7/1R5/7/7/7/3K3 b BP 1", 5, "4a3a+"),
];

/// Proves the problem's exact length with the solver, then checks the engine's score, best move and PV.
fn check_mate<V: GameEval>(sfen: &str, plies: u32, key: &str, depth_limit: i32, tsume: bool) {
    let mut p = pos::<V>(sfen);
    let name = V::NAME;
    let mut solver = Solver::default();
    assert_eq!(
        solver.mate_length(&mut p, plies),
        Some(plies),
        "{name} {sfen}: not a forced mate of exactly {plies} plies"
    );
    let k = p
        .parse_move(key)
        .unwrap_or_else(|e| panic!("{name} {sfen}: key {key}: {e}"));
    p.do_move(k);
    assert!(
        solver.loses(&mut p, plies - 1),
        "{name} {sfen}: {key} does not mate in {plies} plies"
    );
    p.undo_move();
    if tsume {
        // the mate also goes by checks alone: no defender node is quiet, so no pruning of quiet moves has a say
        let mut checks = Solver {
            checks_only: true,
            ..Solver::default()
        };
        assert!(
            checks.wins(&mut p, plies),
            "{name} {sfen}: no mate by checks alone"
        );
    }

    let r = search_depth(&p, depth_limit);
    assert_eq!(
        r.score,
        MATE - plies as i32,
        "{name} {sfen}: depth {depth_limit}: score {} (pv {}), expected a mate in {plies} plies",
        r.score,
        line::<V>(&r.pv)
    );
    assert_eq!(mate_in_moves(r.score), Some(plies.div_ceil(2) as i32));
    let best = r.best.expect("a best move");
    assert!(p.is_legal(best), "{name} {sfen}: illegal best move");
    assert_eq!(r.pv.first(), Some(&best));
    // every attacker move of the PV keeps a forced mate of the remaining length
    let mut q = p.clone();
    for (i, &m) in r.pv.iter().enumerate() {
        assert!(
            q.is_legal(m),
            "{name} {sfen}: illegal PV move {} in {}",
            usi::<V>(m),
            line::<V>(&r.pv)
        );
        q.do_move(m);
        if i % 2 == 0 {
            let left = plies - 1 - i as u32;
            assert!(
                solver.loses(&mut q, left),
                "{name} {sfen}: PV {}: after {} no forced mate in {left} plies",
                line::<V>(&r.pv),
                usi::<V>(m)
            );
        }
    }
    if r.pv.len() == plies as usize {
        assert!(
            !q.has_legal_move(),
            "{name} {sfen}: the PV does not end the game"
        );
    }
}

/// Runs a game's problem set as given and turned round (White to move), and checks that the set's winning
/// first moves include a drop and a promotion at each length.
fn check_mates<V: GameEval>(problems: &[Problem]) {
    for len in [1, 3, 5] {
        let keys: Vec<&str> = problems
            .iter()
            .filter(|pr| pr.plies == len)
            .map(|pr| pr.key)
            .collect();
        assert!(keys.iter().any(|k| k.contains('*')), "{len}: no drop");
        assert!(keys.iter().any(|k| k.ends_with('+')), "{len}: no promotion");
    }
    for pr in problems {
        let d = pr.plies as i32 + 3;
        check_mate::<V>(pr.sfen, pr.plies, pr.key, d, true);
        check_mate::<V>(
            &flip_sfen(pr.sfen),
            pr.plies,
            &flip_move::<V>(pr.key),
            d,
            true,
        );
    }
}

#[test]
fn mate_problems_shogi() {
    check_mates::<Shogi>(&SHOGI_MATES);
}

#[test]
fn mate_problems_minishogi() {
    check_mates::<Minishogi>(&MINISHOGI_MATES);
}

#[test]
fn mate_problems_yarishogi() {
    check_mates::<Yari>(&YARI_MATES);
}

/// Wins in one ply by stalemate: the move gives no check, yet the opponent has no legal move and loses.
#[test]
fn stalemate_wins_in_one() {
    fn one<V: GameEval>(sfen: &str, key: &str) {
        for (s, k) in [
            (sfen.to_string(), key.to_string()),
            (flip_sfen(sfen), flip_move::<V>(key)),
        ] {
            let mut p = pos::<V>(&s);
            let m = p.parse_move(&k).unwrap();
            assert!(!p.gives_check(m), "{s}: {k}");
            check_mate::<V>(&s, 1, &k, 4, false);
            p.do_move(m);
            assert!(!p.in_check() && !p.has_legal_move(), "{s}: {k}");
        }
    }
    // the dragon on 6a guards the bishop on 7a and the square 7b; the rook on 9d holds file 9
    one::<Shogi>("1kB1R4/9/9/R8/9/9/9/9/4K4 b - 1", "5a6a+");
    one::<Minishogi>("5/k4/5/1S3/2R1K b - 1", "3e3a+");
    // the pawn drop gives no check (so it is legal) and leaves the king no move
    one::<Yari>("k6/7/+P6/7/7/7/7/7/K6 b P 1", "P*6b");
}

#[test]
fn flip_helpers_round_trip() {
    let s = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";
    let f = flip_sfen(s);
    assert_eq!(flip_sfen(&f), s);
    let p = pos::<Shogi>(s);
    let q = pos::<Shogi>(&f);
    assert_eq!(p.legal_moves().len(), q.legal_moves().len());
    for &m in p.legal_moves().iter() {
        let u = usi::<Shogi>(m);
        assert!(q.parse_move(&flip_move::<Shogi>(&u)).is_ok(), "{u}");
    }
}

// ---- quiet mates: the first attacking moves give no check, so pruning hides them until a greater depth ------

/// The solver's proof of the problems below (they are exact 5-ply mates), kept green.
#[test]
fn missed_mates_are_forced_mates() {
    let mut s = Solver::default();
    let sfen = "k1+P4/1n5/7/7/7/7/7/7/4K2 b RP 1";
    assert_eq!(s.mate_length(&mut pos::<Yari>(sfen), 5), Some(5));
    let mut s = Solver::default();
    let sfen = "4pkn2/2R6/9/9/9/9/9/9/2K6 b P 1";
    assert_eq!(s.mate_length(&mut pos::<Shogi>(sfen), 5), Some(5));
    // a 3-ply win that ends in stalemate (no legal move loses): 6d6c 7a6a B*6b, the bishop gives no check
    let mut s = Solver::default();
    let sfen = "2k6/9/S8/3+B5/9/9/9/9/4K4 b B 1";
    assert_eq!(s.mate_length(&mut pos::<Shogi>(sfen), 3), Some(3));
}

#[test]
fn missed_quiet_mate_yari_null_move() {
    check_mate::<Yari>("k1+P4/1n5/7/7/7/7/7/7/4K2 b RP 1", 5, "P*7c", 12, false);
}

/// A quiet mate: the first two attacking moves give no check (P*3d, then 3d3c+ threatening 7b4b+). Null-move and
/// reverse-futility cut-offs at the attacker's nodes return bounds that hide it until the depth covers it in
/// full; the search finds it, with its shortest length, from depth 19 (about 20 million nodes; depth 18 still
/// plays 2b2a+ with about +3200). A known weakness of the search: the depth here pins it so that a change for the
/// worse shows.
#[test]
fn quiet_mate_shogi() {
    check_mate::<Shogi>("4pkn2/2R6/9/9/9/9/9/9/2K6 b P 1", 5, "P*3d", 19, false);
}

/// A win by leaving the opponent no legal move (6d6c 7a6a B*6b: the last move gives no check). Late-move pruning
/// (up to 6 plies from the leaves) drops that quiet last move at shallow depths, and through depth 8 the search
/// reports a longer mate (5 plies); from depth 9 it finds the 3-ply win. (With late-move pruning up to 4 plies it
/// was found from depth 7.)
#[test]
fn stalemate_win_found_at_its_length() {
    check_mate::<Shogi>("2k6/9/S8/3+B5/9/9/9/9/4K4 b B 1", 3, "6d6c", 9, false);
}

// ================================================================================================================
// Legality of the search's answers
// ================================================================================================================

/// Searches random playout positions (10-80 plies from the start, seeded) with one searcher whose table carries
/// over from position to position, alternately by node limit and to depth 3.
fn random_positions<V: GameEval>(seed: u64, count: usize) {
    let s = Searcher::new(1, HASH_MB);
    let mut rng = Rng(seed);
    let mut solver = Solver::default();
    let mut tested = 0;
    while tested < count {
        let mut p = Position::<V>::startpos();
        let plies = 10 + rng.below(71);
        for _ in 0..plies {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p.do_move(moves[rng.below(moves.len())]);
        }
        if !p.has_legal_move() {
            continue;
        }
        // every other position loses its history (no repetition can come from before the root)
        let fresh = tested % 3 == 0;
        if fresh {
            p = pos::<V>(&p.to_sfen());
        }
        let limits = if tested % 2 == 0 {
            Limits {
                nodes: Some(2000 + 300 * rng.below(10) as u64),
                multipv: 1,
                ..Limits::default()
            }
        } else {
            depth(3)
        };
        let r = search(&s, &p, &limits, &|_| {});
        let sfen = p.to_sfen();
        let name = V::NAME;
        let best = r
            .best
            .unwrap_or_else(|| panic!("{name} {sfen}: no best move"));
        assert!(
            p.is_legal(best),
            "{name} {sfen}: illegal best move {}",
            usi::<V>(best)
        );
        assert!(
            (-MATE..=MATE).contains(&r.score),
            "{name} {sfen}: score {}",
            r.score
        );
        assert_eq!(r.pv.first(), Some(&best), "{name} {sfen}");
        assert_eq!(r.ponder, r.pv.get(1).copied(), "{name} {sfen}");
        let mut q = p.clone();
        for &m in &r.pv {
            assert!(
                q.is_legal(m),
                "{name} {sfen}: illegal move {} in PV {}",
                usi::<V>(m),
                line::<V>(&r.pv)
            );
            q.do_move(m);
        }
        if let Some(pm) = r.ponder {
            let mut q = p.clone();
            q.do_move(best);
            assert!(q.is_legal(pm), "{name} {sfen}: illegal ponder move");
        }
        // a short mate claimed from a position without history is a real one
        if fresh && r.score >= MATE - 3 {
            let n = (MATE - r.score) as u32;
            let mut q = p.clone();
            q.do_move(best);
            assert!(
                solver.loses(&mut q, n - 1),
                "{name} {sfen}: claimed mate in {n} plies with {} is not forced",
                usi::<V>(best)
            );
        }
        tested += 1;
    }
}

#[test]
fn random_positions_shogi() {
    random_positions::<Shogi>(0x5107_0001, 300);
}

#[test]
fn random_positions_minishogi() {
    random_positions::<Minishogi>(0x5107_0002, 300);
}

#[test]
fn random_positions_yarishogi() {
    random_positions::<Yari>(0x5107_0003, 300);
}

/// With no legal move: no best move, no PV, `-MATE`; and the same from an infinite search once stopped.
fn no_legal_move<V: GameEval>(sfen: &str, in_check: bool) {
    let p = pos::<V>(sfen);
    assert_eq!(p.in_check(), in_check, "{sfen}");
    assert!(!p.has_legal_move(), "{sfen}");
    for f in [sfen.to_string(), flip_sfen(sfen)] {
        let p = pos::<V>(&f);
        let r = search_depth(&p, 4);
        assert_eq!(r.best, None, "{f}");
        assert_eq!(r.ponder, None, "{f}");
        assert!(r.pv.is_empty(), "{f}");
        assert_eq!(r.score, -MATE, "{f}");
    }
}

#[test]
fn no_legal_move_gives_no_move_and_minus_mate() {
    // checkmates
    no_legal_move::<Shogi>("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1", true);
    no_legal_move::<Minishogi>("2k2/2G2/2P2/5/2K2 w - 1", true);
    no_legal_move::<Yari>("3k3/3+N3/3P3/7/7/7/7/7/3K3 w - 1", true);
    // stalemates: no legal move without check loses as well
    no_legal_move::<Shogi>("k8/2G6/1G7/9/9/9/9/9/4K4 w - 1", false);
    no_legal_move::<Minishogi>("k4/2G2/1G3/5/2K2 w - 1", false);
    no_legal_move::<Yari>("k6/2+N4/1+N5/7/7/7/7/7/3K3 w - 1", false);
}

#[test]
fn infinite_search_without_legal_move_waits_for_stop() {
    let p = pos::<Shogi>("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1");
    let s = Searcher::new(1, HASH_MB);
    let c = s.control();
    let limits = Limits {
        infinite: true,
        multipv: 1,
        ..Limits::default()
    };
    std::thread::scope(|scope| {
        let h = scope.spawn(|| search(&s, &p, &limits, &|_| {}));
        std::thread::sleep(Duration::from_millis(100));
        assert!(!h.is_finished(), "an infinite search must wait for stop");
        c.stop();
        let r = h.join().unwrap();
        assert_eq!(r.best, None);
        assert_eq!(r.score, -MATE);
    });
}

// ================================================================================================================
// Repetition
// ================================================================================================================

/// The cycles played from `base`: kings only (no check), one side checking with every move, and the same side
/// checking with only some of its moves. Each has five moves: the fourth ends the first repetition (the mover's
/// opponent to move), the fifth the next one.
struct Cycles {
    base: &'static str,
    quiet: [&'static str; 5],
    perpetual: [&'static str; 5],
    mixed: [&'static str; 5],
}

/// What a repetition without perpetual check means for the side to move.
fn plain<V: Variant>(side: Color) -> Repetition {
    if V::KIND == GameKind::Minishogi {
        match side {
            Color::Black => Repetition::Loss,
            Color::White => Repetition::Win,
        }
    } else {
        Repetition::Draw
    }
}

/// Plays `moves` from `base` and checks `repetition` after each: none before the fourth move, then the expected
/// value for the side to move.
fn check_cycle<V: Variant>(
    base: &str,
    moves: &[String],
    expect: impl Fn(usize, Color) -> Repetition,
) {
    let mut p = pos::<V>(base);
    for (i, m) in moves.iter().enumerate() {
        let mv = p
            .parse_move(m)
            .unwrap_or_else(|e| panic!("{} {base}: {m}: {e}", V::NAME));
        p.do_move(mv);
        let n = i + 1;
        let want = if n < 4 {
            Repetition::None
        } else {
            expect(n, p.side_to_move())
        };
        assert_eq!(
            p.repetition(32),
            want,
            "{} {base} after {:?} ({:?} to move)",
            V::NAME,
            &moves[..n],
            p.side_to_move()
        );
        if n >= 4 {
            // the earlier occurrence lies four plies back: a window of three plies misses it
            assert_eq!(p.repetition(3), Repetition::None);
        }
    }
}

fn check_repetitions<V: Variant>(c: &Cycles) {
    for flipped in [false, true] {
        let base = if flipped {
            flip_sfen(c.base)
        } else {
            c.base.to_string()
        };
        let moves = |ms: &[&str]| -> Vec<String> {
            ms.iter()
                .map(|m| {
                    if flipped {
                        flip_move::<V>(m)
                    } else {
                        m.to_string()
                    }
                })
                .collect()
        };
        check_cycle::<V>(&base, &moves(&c.quiet), |_, side| plain::<V>(side));
        check_cycle::<V>(&base, &moves(&c.mixed), |_, side| plain::<V>(side));
        // after the 4th move the checker is to move and loses; after the 5th the checked side wins
        check_cycle::<V>(&base, &moves(&c.perpetual), |n, side| {
            let checker = if flipped { Color::White } else { Color::Black };
            assert_eq!(side == checker, n == 4);
            if side == checker {
                Repetition::Loss
            } else {
                Repetition::Win
            }
        });
    }
}

#[test]
fn repetition_shogi() {
    check_repetitions::<Shogi>(&Cycles {
        base: "8k/R8/9/9/9/9/9/9/4K4 b - 1",
        quiet: ["5i5h", "1a2a", "5h5i", "2a1a", "5i5h"],
        perpetual: ["9b9a", "1a1b", "9a9b", "1b1a", "9b9a"],
        mixed: ["9b9c", "1a1b", "9c9b", "1b1a", "9b9c"],
    });
    // the start position comes back
    let p = play::<Shogi>(Shogi::START_SFEN, &["5i5h", "5a5b", "5h5i", "5b5a"]);
    assert_eq!(p.repetition(32), Repetition::Draw);
}

#[test]
fn repetition_minishogi() {
    check_repetitions::<Minishogi>(&Cycles {
        base: "4k/R4/5/5/2K2 b - 1",
        quiet: ["3e3d", "1a2a", "3d3e", "2a1a", "3e3d"],
        perpetual: ["5b5a", "1a1b", "5a5b", "1b1a", "5b5a"],
        mixed: ["5b5c", "1a1b", "5c5b", "1b1a", "5b5c"],
    });
    let p = play::<Minishogi>(Minishogi::START_SFEN, &["5e4d", "1a2b", "4d5e", "2b1a"]);
    assert_eq!(p.repetition(32), Repetition::Loss);
}

#[test]
fn repetition_yarishogi() {
    check_repetitions::<Yari>(&Cycles {
        // a promoted yari rook moves as a rook, backward included
        base: "6k/+R6/7/7/7/7/7/7/3K3 b - 1",
        quiet: ["4i4h", "1a2a", "4h4i", "2a1a", "4i4h"],
        perpetual: ["7b7a", "1a1b", "7a7b", "1b1a", "7b7a"],
        mixed: ["7b7c", "1a1b", "7c7b", "1b1a", "7b7c"],
    });
    let p = play::<Yari>(Yari::START_SFEN, &["4i4h", "4a4b", "4h4i", "4b4a"]);
    assert_eq!(p.repetition(32), Repetition::Draw);
}

/// Searches `moves` played from `sfen` to depth 4, the root moves limited to `only` when given.
fn search_after<V: GameEval>(sfen: &str, moves: &[&str], only: Option<&str>) -> SearchResult {
    let p = play::<V>(sfen, moves);
    let mut limits = depth(4);
    if let Some(m) = only {
        limits.searchmoves = vec![p.parse_move(m).unwrap()];
    }
    let s = Searcher::new(1, HASH_MB);
    search(&s, &p, &limits, &|_| {})
}

#[test]
fn search_scores_repetition_by_the_games_rule() {
    // Minishogi: White, to move in a balanced position, returns the king to 1a and repeats the start position with
    // sente to move: sente loses, so this is a win at once, not a draw.
    let r = search_after::<Minishogi>(Minishogi::START_SFEN, &["5e4d", "1a2b", "4d5e"], None);
    assert_eq!(r.best.map(usi::<Minishogi>).as_deref(), Some("2b1a"));
    assert_eq!(r.score, MATE - 1);

    // Sente must not repeat: from White's start (gote moves first), 4d5e would bring it back with gote to move.
    let white_first = "rbsgk/4p/5/P4/KGSBR w - 1";
    let moves = ["1a2b", "5e4d", "2b1a"];
    let r = search_after::<Minishogi>(white_first, &moves, Some("4d5e"));
    assert_eq!(r.score, -(MATE - 1));
    let r = search_after::<Minishogi>(white_first, &moves, None);
    assert_ne!(r.best.map(usi::<Minishogi>).as_deref(), Some("4d5e"));
    assert!(r.score > -MATE_BOUND, "score {}", r.score);

    // In shogi and Yari shogi the same repetition is a draw.
    let r = search_after::<Shogi>(Shogi::START_SFEN, &["5i4h", "5a6b", "4h5i"], Some("6b5a"));
    assert_eq!(r.score, 0);
    let r = search_after::<Yari>(Yari::START_SFEN, &["4i4h", "4a4b", "4h4i"], Some("4b4a"));
    assert_eq!(r.score, 0);
}

// ================================================================================================================
// Determinism, searchmoves, MultiPV, stop
// ================================================================================================================

fn deterministic<V: GameEval>(sfen: &str, d: i32) {
    let p = pos::<V>(sfen);
    let a = search_depth(&p, d);
    let b = search_depth(&p, d);
    assert!(a.nodes > 0);
    assert_eq!(a.nodes, b.nodes, "{} {sfen}", V::NAME);
    assert_eq!(a.best, b.best, "{} {sfen}", V::NAME);
    assert_eq!(a.score, b.score, "{} {sfen}", V::NAME);
    assert_eq!(a.pv, b.pv, "{} {sfen}", V::NAME);
    assert_eq!(a.depth, d);
}

#[test]
fn single_thread_search_is_deterministic() {
    deterministic::<Shogi>(
        "lnsgk1snl/5g1s1/+Rp1ppp1pp/2p3p2/7b1/1P7/P2PPPPPP/2G1KSGR1/LN+b4NL w Pp 20",
        6,
    );
    deterministic::<Minishogi>("rbsgk/4p/5/P4/KGSBR b - 1", 7);
    deterministic::<Yari>(
        "4br1/r1nk1b1/pnp2p1/3pp1p/1p5/PPP2P1/R2PP1P/1BB1NNR/4K2 b - 23",
        6,
    );
}

fn searchmoves<V: GameEval>(sfen: &str) {
    let p = pos::<V>(sfen);
    let all = search_depth(&p, 5).best.unwrap();
    // two moves other than the unrestricted choice
    let wanted: Vec<Move> = p
        .legal_moves()
        .iter()
        .copied()
        .filter(|&m| m != all)
        .rev()
        .take(2)
        .collect();
    let infos = Mutex::new(Vec::<Info>::new());
    let s = Searcher::new(1, HASH_MB);
    let limits = Limits {
        depth: Some(5),
        searchmoves: wanted.clone(),
        multipv: 1,
        ..Limits::default()
    };
    let r = search(&s, &p, &limits, &|i| infos.lock().unwrap().push(i.clone()));
    let best = r.best.unwrap();
    assert!(
        wanted.contains(&best),
        "{} {sfen}: {} not among the searchmoves",
        V::NAME,
        usi::<V>(best)
    );
    let infos = infos.into_inner().unwrap();
    assert!(!infos.is_empty());
    for i in &infos {
        assert!(
            wanted.contains(&i.pv[0]),
            "{}: info pv {}",
            V::NAME,
            line::<V>(&i.pv)
        );
    }
}

#[test]
fn searchmoves_limit_the_root_moves() {
    searchmoves::<Shogi>(Shogi::START_SFEN);
    searchmoves::<Minishogi>(Minishogi::START_SFEN);
    searchmoves::<Yari>(Yari::START_SFEN);
}

/// Searches to depth 5 with MultiPV 3 and returns the last report of each line at depth 5.
fn multipv<V: GameEval>(sfen: &str) -> Vec<Info> {
    let p = pos::<V>(sfen);
    let infos = Mutex::new(Vec::<Info>::new());
    let s = Searcher::new(1, HASH_MB);
    let limits = Limits {
        depth: Some(5),
        multipv: 3,
        ..Limits::default()
    };
    let r = search(&s, &p, &limits, &|i| infos.lock().unwrap().push(i.clone()));
    let infos = infos.into_inner().unwrap();
    let last_depth = infos.iter().map(|i| i.depth).max().unwrap();
    assert_eq!(last_depth, 5);
    // the last report of each line at the last depth
    let mut lines: Vec<Option<&Info>> = vec![None; 3];
    for i in infos.iter().filter(|i| i.depth == last_depth) {
        assert!((1..=3).contains(&i.multipv), "multipv {}", i.multipv);
        lines[i.multipv - 1] = Some(i);
    }
    let lines: Vec<&Info> = lines
        .into_iter()
        .map(|l| l.expect("a report for each of the 3 lines"))
        .collect();
    let firsts: Vec<Move> = lines.iter().map(|i| i.pv[0]).collect();
    assert!(
        firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
        "{} {sfen}: lines {:?}",
        V::NAME,
        firsts.iter().map(|&m| usi::<V>(m)).collect::<Vec<_>>()
    );
    for l in &lines {
        let mut q = p.clone();
        for &m in &l.pv {
            assert!(q.is_legal(m), "{}: line {}", V::NAME, line::<V>(&l.pv));
            q.do_move(m);
        }
    }
    assert_eq!(r.best, Some(firsts[0]));
    lines.into_iter().cloned().collect()
}

#[test]
fn multipv_reports_three_distinct_root_moves() {
    multipv::<Shogi>(Shogi::START_SFEN);
    multipv::<Minishogi>(Minishogi::START_SFEN);
    multipv::<Yari>(Yari::START_SFEN);
}

#[test]
fn multipv_lines_are_ordered_by_score() {
    fn ordered<V: GameEval>(sfens: &[&str]) -> Vec<String> {
        let mut bad = Vec::new();
        for sfen in sfens {
            let lines = multipv::<V>(sfen);
            let scores: Vec<i32> = lines.iter().map(|l| l.score).collect();
            if !scores.windows(2).all(|w| w[0] >= w[1]) {
                bad.push(format!("{} {sfen}: scores by line {scores:?}", V::NAME));
            }
        }
        bad
    }
    let mut bad = ordered::<Shogi>(&hayate::engine::bench::SHOGI_POSITIONS);
    bad.extend(ordered::<Minishogi>(
        &hayate::engine::bench::MINISHOGI_POSITIONS,
    ));
    bad.extend(ordered::<Yari>(&hayate::engine::bench::YARI_POSITIONS));
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

fn stop_infinite<V: GameEval>(sfen: &str) {
    let p = pos::<V>(sfen);
    let s = Searcher::new(1, HASH_MB);
    let c = s.control();
    let limits = Limits {
        infinite: true,
        multipv: 1,
        ..Limits::default()
    };
    std::thread::scope(|scope| {
        let h = scope.spawn(|| search(&s, &p, &limits, &|_| {}));
        std::thread::sleep(Duration::from_millis(300));
        assert!(
            !h.is_finished(),
            "{}: an infinite search ended by itself",
            V::NAME
        );
        let t = Instant::now();
        c.stop();
        let r = h.join().unwrap();
        let took = t.elapsed();
        assert!(
            took < Duration::from_millis(100),
            "{}: {took:?} to stop",
            V::NAME
        );
        let best = r.best.expect("a best move");
        assert!(p.is_legal(best));
        assert!(r.depth >= 1);
    });
}

#[test]
fn infinite_search_stops_promptly() {
    stop_infinite::<Shogi>(Shogi::START_SFEN);
    stop_infinite::<Minishogi>(Minishogi::START_SFEN);
    stop_infinite::<Yari>(Yari::START_SFEN);
}

/// `hayate bench --scaling`: one line per bench position with the calibrated depth and both timings, the
/// minishogi mate-in-one position left out of the ratios, and a summary whose total ratio matches the lines.
#[test]
fn bench_scaling_reports_every_position() {
    let lines = Mutex::new(Vec::new());
    let mean = hayate::engine::bench::run_scaling(&[GameKind::Minishogi], 2, 8, 30, 1, &|l| {
        lines.lock().unwrap().push(l.to_string())
    });
    let lines = lines.into_inner().unwrap();
    let per_position: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("minishogi position"))
        .collect();
    assert_eq!(
        per_position.len(),
        hayate::engine::bench::MINISHOGI_POSITIONS.len()
    );
    let mut counted = 0;
    for l in &per_position {
        let depth: i32 = l.split_whitespace().nth(4).unwrap().parse().unwrap();
        assert!(depth >= 1, "{l}");
        assert!(l.contains(" 1 thread ") && l.contains(" 2 threads "), "{l}");
        if !l.ends_with("(not counted)") {
            counted += 1;
        }
    }
    assert!(counted >= 1);
    assert!(
        lines.contains(&format!("Positions: {counted}")),
        "{lines:?}"
    );
    assert!(mean > 0.0 && mean.is_finite());
    assert!(lines
        .iter()
        .any(|l| l == &format!("Mean time-to-depth ratio: {mean:.2}")));
    assert!(lines.iter().any(|l| l.starts_with("Total time ratio: ")));
}
