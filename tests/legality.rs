//! Differential tests of the engine's rules core against a slow reference move generator.
//!
//! The reference below is written only from `RULES.md`, with plain coordinate arithmetic on a square array: no
//! bitboards, no attack tables and no call into the engine's generator, attack or check code. It reads the engine
//! only through `piece_at`, `hand`, `side_to_move` and the accessors of `Move`. Random playouts (seeded by
//! proptest, moves picked by a small PRNG with a bias toward captures, drops and checks) and random set-up
//! positions then compare, at every position reached:
//!
//! - the board, hands and side to move kept by the engine with the reference's own replay of the moves;
//! - the engine's legal move set with the reference set, both ways, and with no duplicate;
//! - `GenMode::Captures`, `Quiets`, `QuietPromotions` and `Checks` with the matching subsets of the reference set;
//! - `gives_check` and `in_check` with brute-force attack detection;
//! - `to_sfen` with the reference's SFEN, and `from_sfen(to_sfen())` (same SFEN, same key);
//! - do then undo of every legal move (same SFEN, same key), `key() == compute_key()` after every move;
//! - `move_to_usi` with the reference's notation, and `parse_move(move_to_usi(m)) == m`;
//! - `from_sfen` accepting exactly the random set-ups that the reference calls valid.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use hayate::rules::movegen::GenMode;
use hayate::rules::piece::{Color, Kind};
use hayate::rules::position::notation::move_to_usi;
use hayate::rules::square::Square;
use hayate::{Minishogi, Move, MoveList, Position, Shogi, Variant, Yari};
use proptest::prelude::*;
use proptest::test_runner::Config;

// ================================================================================================================
// The reference rules
// ================================================================================================================

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Game {
    Shogi,
    Mini,
    Yari,
}

/// A (file delta, rank delta) pair from sente's point of view: rank delta -1 is forward (toward rank a).
type Dir = (i32, i32);

const FWD: Dir = (0, -1);
const BACK: Dir = (0, 1);
const KING_STEPS: [Dir; 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];
/// Forward, diagonally forward, sideways, straight back.
const GOLD_STEPS: [Dir; 6] = [(0, -1), (-1, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
/// Forward and the four diagonals.
const SILVER_STEPS: [Dir; 5] = [(0, -1), (-1, -1), (1, -1), (-1, 1), (1, 1)];
const ORTHOGONAL: [Dir; 4] = [(0, -1), (0, 1), (-1, 0), (1, 0)];
const DIAGONAL: [Dir; 4] = [(-1, -1), (1, -1), (-1, 1), (1, 1)];
/// Two forward, one sideways.
const KNIGHT_JUMPS: [Dir; 2] = [(-1, -2), (1, -2)];
const DIAGONAL_FORWARD: [Dir; 2] = [(-1, -1), (1, -1)];
/// Forward and diagonally forward (the yari silver's steps).
const FORWARD_THREE: [Dir; 3] = [(-1, -1), (0, -1), (1, -1)];
/// Forward, left and right (the yari rook's slides).
const FORWARD_AND_SIDEWAYS: [Dir; 3] = [(0, -1), (-1, 0), (1, 0)];

const SHOGI_HAND: [Kind; 7] = [
    Kind::Pawn,
    Kind::Lance,
    Kind::Knight,
    Kind::Silver,
    Kind::Gold,
    Kind::Bishop,
    Kind::Rook,
];
const MINI_HAND: [Kind; 5] = [
    Kind::Pawn,
    Kind::Silver,
    Kind::Gold,
    Kind::Bishop,
    Kind::Rook,
];
const YARI_HAND: [Kind; 4] = [Kind::Pawn, Kind::Knight, Kind::Bishop, Kind::Rook];

impl Game {
    fn files(self) -> usize {
        match self {
            Game::Shogi => 9,
            Game::Mini => 5,
            Game::Yari => 7,
        }
    }

    fn ranks(self) -> usize {
        match self {
            Game::Shogi => 9,
            Game::Mini => 5,
            Game::Yari => 9,
        }
    }

    /// Ranks in the promotion zone: the three farthest, or the last one in minishogi.
    fn zone_depth(self) -> usize {
        match self {
            Game::Mini => 1,
            _ => 3,
        }
    }

    /// The kinds that can be held in hand (and so dropped).
    fn hand_kinds(self) -> &'static [Kind] {
        match self {
            Game::Shogi => &SHOGI_HAND,
            Game::Mini => &MINI_HAND,
            Game::Yari => &YARI_HAND,
        }
    }

    /// How many pieces of each unpromoted kind the game has, both sides together.
    fn totals(self) -> &'static [(Kind, u8)] {
        match self {
            Game::Shogi => &[
                (Kind::Pawn, 18),
                (Kind::Lance, 4),
                (Kind::Knight, 4),
                (Kind::Silver, 4),
                (Kind::Gold, 4),
                (Kind::Bishop, 2),
                (Kind::Rook, 2),
                (Kind::King, 2),
            ],
            Game::Mini => &[
                (Kind::Pawn, 2),
                (Kind::Silver, 2),
                (Kind::Gold, 2),
                (Kind::Bishop, 2),
                (Kind::Rook, 2),
                (Kind::King, 2),
            ],
            Game::Yari => &[
                (Kind::Pawn, 14),
                (Kind::Knight, 4),
                (Kind::Bishop, 4),
                (Kind::Rook, 4),
                (Kind::King, 2),
            ],
        }
    }

    /// The promoted form of `k` in this game, if it promotes here.
    fn promotion(self, k: Kind) -> Option<Kind> {
        let p = match k {
            Kind::Pawn => Kind::ProPawn,
            Kind::Lance => Kind::ProLance,
            Kind::Knight => Kind::ProKnight,
            Kind::Silver => Kind::ProSilver,
            Kind::Bishop => Kind::ProBishop,
            Kind::Rook => Kind::ProRook,
            _ => return None,
        };
        let exists = match self {
            Game::Shogi => true,
            Game::Mini => matches!(k, Kind::Pawn | Kind::Silver | Kind::Bishop | Kind::Rook),
            Game::Yari => matches!(k, Kind::Pawn | Kind::Knight | Kind::Bishop | Kind::Rook),
        };
        exists.then_some(p)
    }

    /// Steps and slides of a kind, from sente's point of view.
    fn movement(self, k: Kind) -> (&'static [Dir], &'static [Dir]) {
        const NONE: &[Dir] = &[];
        match (self, k) {
            (_, Kind::King) => (&KING_STEPS, NONE),
            (_, Kind::Pawn) => (&[FWD], NONE),
            (Game::Yari, Kind::Rook) => (NONE, &FORWARD_AND_SIDEWAYS),
            (Game::Yari, Kind::ProRook) => (NONE, &ORTHOGONAL),
            (Game::Yari, Kind::Bishop) => (&DIAGONAL_FORWARD, &[FWD]),
            (Game::Yari, Kind::Knight) => (&KNIGHT_JUMPS, &[FWD]),
            (Game::Yari, Kind::ProBishop | Kind::ProKnight) => (&GOLD_STEPS, &[BACK]),
            (Game::Yari, Kind::ProPawn) => (&FORWARD_THREE, &[BACK]),
            (Game::Yari, _) => panic!("{k:?} is not a Yari shogi piece"),
            (_, Kind::Lance) => (NONE, &[FWD]),
            (_, Kind::Knight) => (&KNIGHT_JUMPS, NONE),
            (_, Kind::Silver) => (&SILVER_STEPS, NONE),
            (
                _,
                Kind::Gold | Kind::ProPawn | Kind::ProLance | Kind::ProKnight | Kind::ProSilver,
            ) => (&GOLD_STEPS, NONE),
            (_, Kind::Bishop) => (NONE, &DIAGONAL),
            (_, Kind::Rook) => (NONE, &ORTHOGONAL),
            (_, Kind::ProBishop) => (&ORTHOGONAL, &DIAGONAL),
            (_, Kind::ProRook) => (&DIAGONAL, &ORTHOGONAL),
        }
    }

    /// Whether an unpromoted piece of kind `k` and colour `c` on rank index `r` could never move again: pawn or
    /// lance on the last rank, knight on the last two (one in Yari, where it also slides), yari bishop on the last.
    fn dead(self, c: Color, k: Kind, r: usize) -> bool {
        // distance from the mover's last rank: 0 = the last rank
        let from_last = match c {
            Color::Black => r,
            Color::White => self.ranks() - 1 - r,
        };
        match (self, k) {
            (_, Kind::Pawn | Kind::Lance) => from_last == 0,
            (Game::Shogi, Kind::Knight) => from_last <= 1,
            (Game::Yari, Kind::Knight | Kind::Bishop) => from_last == 0,
            _ => false,
        }
    }

    fn in_zone(self, c: Color, r: usize) -> bool {
        match c {
            Color::Black => r < self.zone_depth(),
            Color::White => r >= self.ranks() - self.zone_depth(),
        }
    }
}

fn unpromoted(k: Kind) -> Kind {
    match k {
        Kind::ProPawn => Kind::Pawn,
        Kind::ProLance => Kind::Lance,
        Kind::ProKnight => Kind::Knight,
        Kind::ProSilver => Kind::Silver,
        Kind::ProBishop => Kind::Bishop,
        Kind::ProRook => Kind::Rook,
        k => k,
    }
}

fn is_promoted(k: Kind) -> bool {
    unpromoted(k) != k
}

fn letter(k: Kind) -> char {
    match unpromoted(k) {
        Kind::Pawn => 'P',
        Kind::Lance => 'L',
        Kind::Knight => 'N',
        Kind::Silver => 'S',
        Kind::Gold => 'G',
        Kind::Bishop => 'B',
        Kind::Rook => 'R',
        _ => 'K',
    }
}

fn kind_of_letter(c: char) -> Kind {
    match c.to_ascii_uppercase() {
        'P' => Kind::Pawn,
        'L' => Kind::Lance,
        'N' => Kind::Knight,
        'S' => Kind::Silver,
        'G' => Kind::Gold,
        'B' => Kind::Bishop,
        'R' => Kind::Rook,
        'K' => Kind::King,
        _ => panic!("bad letter {c}"),
    }
}

fn promote_any(k: Kind) -> Kind {
    match k {
        Kind::Pawn => Kind::ProPawn,
        Kind::Lance => Kind::ProLance,
        Kind::Knight => Kind::ProKnight,
        Kind::Silver => Kind::ProSilver,
        Kind::Bishop => Kind::ProBishop,
        Kind::Rook => Kind::ProRook,
        _ => panic!("{k:?} does not promote"),
    }
}

/// Slot of a hand kind in `RefPos::hands`.
fn hand_slot(k: Kind) -> usize {
    match k {
        Kind::Pawn => 0,
        Kind::Lance => 1,
        Kind::Knight => 2,
        Kind::Silver => 3,
        Kind::Gold => 4,
        Kind::Bishop => 5,
        Kind::Rook => 6,
        _ => panic!("{k:?} cannot be held"),
    }
}

fn opp(c: Color) -> Color {
    match c {
        Color::Black => Color::White,
        Color::White => Color::Black,
    }
}

/// A square as (file index, rank index): file index 0 is USI file 1, rank index 0 is rank a.
type Sq = (usize, usize);

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
struct RefMove {
    /// The dropped kind, for a drop.
    drop: Option<Kind>,
    /// The origin square; (0, 0) for a drop.
    from: Sq,
    to: Sq,
    promote: bool,
}

#[derive(Clone, PartialEq, Eq, Debug)]
struct RefPos {
    game: Game,
    /// Indexed by `file * ranks + rank`.
    cells: [Option<(Color, Kind)>; 81],
    /// Per colour, per `hand_slot`.
    hands: [[u8; 7]; 2],
    side: Color,
}

impl RefPos {
    fn at(&self, (f, r): Sq) -> Option<(Color, Kind)> {
        self.cells[f * self.game.ranks() + r]
    }

    fn set(&mut self, (f, r): Sq, p: Option<(Color, Kind)>) {
        let ranks = self.game.ranks();
        self.cells[f * ranks + r] = p;
    }

    fn squares(&self) -> impl Iterator<Item = Sq> {
        let (files, ranks) = (self.game.files(), self.game.ranks());
        (0..files).flat_map(move |f| (0..ranks).map(move |r| (f, r)))
    }

    fn offset(&self, (f, r): Sq, (df, dr): Dir, n: i32) -> Option<Sq> {
        let nf = f as i32 + df * n;
        let nr = r as i32 + dr * n;
        if nf < 0 || nr < 0 || nf >= self.game.files() as i32 || nr >= self.game.ranks() as i32 {
            None
        } else {
            Some((nf as usize, nr as usize))
        }
    }

    /// Reads an SFEN known to be well formed.
    fn from_sfen(game: Game, sfen: &str) -> RefPos {
        let mut p = RefPos {
            game,
            cells: [None; 81],
            hands: [[0; 7]; 2],
            side: Color::Black,
        };
        let fields: Vec<&str> = sfen.split_whitespace().collect();
        for (r, rank) in fields[0].split('/').enumerate() {
            let mut f = game.files() as i32;
            let mut promoted = false;
            for ch in rank.chars() {
                if let Some(d) = ch.to_digit(10) {
                    f -= d as i32;
                } else if ch == '+' {
                    promoted = true;
                } else {
                    f -= 1;
                    let c = if ch.is_ascii_uppercase() {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let mut k = kind_of_letter(ch);
                    if promoted {
                        k = promote_any(k);
                    }
                    promoted = false;
                    p.set((f as usize, r), Some((c, k)));
                }
            }
            assert_eq!(f, 0, "reference SFEN reader: bad rank in {sfen}");
        }
        p.side = if fields[1] == "b" {
            Color::Black
        } else {
            Color::White
        };
        if fields[2] != "-" {
            let mut n = 0u8;
            for ch in fields[2].chars() {
                if let Some(d) = ch.to_digit(10) {
                    n = n * 10 + d as u8;
                } else {
                    let c = if ch.is_ascii_uppercase() {
                        Color::Black
                    } else {
                        Color::White
                    };
                    p.hands[c as usize][hand_slot(kind_of_letter(ch))] += n.max(1);
                    n = 0;
                }
            }
        }
        p
    }

    /// The SFEN, written from RULES.md: ranks a.., files F..1, hands R B G S N L P with sente's first.
    fn sfen(&self, move_number: u32) -> String {
        let mut s = String::new();
        for r in 0..self.game.ranks() {
            if r > 0 {
                s.push('/');
            }
            let mut empty = 0;
            for f in (0..self.game.files()).rev() {
                match self.at((f, r)) {
                    None => empty += 1,
                    Some((c, k)) => {
                        if empty > 0 {
                            write!(s, "{empty}").unwrap();
                            empty = 0;
                        }
                        if is_promoted(k) {
                            s.push('+');
                        }
                        let l = letter(k);
                        s.push(if c == Color::Black {
                            l
                        } else {
                            l.to_ascii_lowercase()
                        });
                    }
                }
            }
            if empty > 0 {
                write!(s, "{empty}").unwrap();
            }
        }
        s.push_str(if self.side == Color::Black {
            " b "
        } else {
            " w "
        });
        let mut any = false;
        for c in [Color::Black, Color::White] {
            for k in [
                Kind::Rook,
                Kind::Bishop,
                Kind::Gold,
                Kind::Silver,
                Kind::Knight,
                Kind::Lance,
                Kind::Pawn,
            ] {
                let n = self.hands[c as usize][hand_slot(k)];
                if n == 0 {
                    continue;
                }
                any = true;
                if n > 1 {
                    write!(s, "{n}").unwrap();
                }
                let l = letter(k);
                s.push(if c == Color::Black {
                    l
                } else {
                    l.to_ascii_lowercase()
                });
            }
        }
        if !any {
            s.push('-');
        }
        write!(s, " {move_number}").unwrap();
        s
    }

    /// The squares a piece of colour `c` and kind `k` on `from` moves to (or attacks): its steps and jumps, and
    /// its slides up to and including the first occupied square; squares holding a piece of `c` left out.
    fn targets(&self, from: Sq, c: Color, k: Kind) -> Vec<Sq> {
        let sign = if c == Color::Black { 1 } else { -1 };
        let (steps, slides) = self.game.movement(k);
        let mut out = Vec::new();
        for &(df, dr) in steps {
            if let Some(to) = self.offset(from, (df * sign, dr * sign), 1) {
                if self.at(to).map(|(pc, _)| pc) != Some(c) && !out.contains(&to) {
                    out.push(to);
                }
            }
        }
        for &(df, dr) in slides {
            let mut n = 1;
            while let Some(to) = self.offset(from, (df * sign, dr * sign), n) {
                let occupant = self.at(to);
                if occupant.map(|(pc, _)| pc) != Some(c) && !out.contains(&to) {
                    out.push(to);
                }
                if occupant.is_some() {
                    break;
                }
                n += 1;
            }
        }
        out
    }

    /// Whether any piece of colour `by` attacks `sq`.
    fn attacked(&self, sq: Sq, by: Color) -> bool {
        self.squares().any(|s| match self.at(s) {
            Some((c, k)) if c == by => self.targets(s, c, k).contains(&sq),
            _ => false,
        })
    }

    fn king(&self, c: Color) -> Sq {
        self.squares()
            .find(|&s| self.at(s) == Some((c, Kind::King)))
            .expect("a king")
    }

    fn in_check(&self, c: Color) -> bool {
        self.attacked(self.king(c), opp(c))
    }

    fn is_capture(&self, m: &RefMove) -> bool {
        m.drop.is_none() && self.at(m.to).is_some()
    }

    /// The position after `m` (which need not be legal), with the other side to move.
    fn apply(&self, m: &RefMove) -> RefPos {
        let mut p = self.clone();
        let us = self.side;
        match m.drop {
            Some(k) => {
                let slot = &mut p.hands[us as usize][hand_slot(k)];
                assert!(*slot > 0, "reference: drop of a piece not in hand");
                *slot -= 1;
                p.set(m.to, Some((us, k)));
            }
            None => {
                let (c, k) = self.at(m.from).expect("a piece to move");
                assert_eq!(c, us);
                if let Some((_, captured)) = self.at(m.to) {
                    p.hands[us as usize][hand_slot(unpromoted(captured))] += 1;
                }
                let k = if m.promote {
                    self.game.promotion(k).expect("a promotable piece")
                } else {
                    k
                };
                p.set(m.from, None);
                p.set(m.to, Some((us, k)));
            }
        }
        p.side = opp(us);
        p
    }

    /// Moves that follow piece movement, promotion and the dead-drop and nifu rules, ignoring king safety.
    fn pseudo_moves(&self) -> Vec<RefMove> {
        let g = self.game;
        let us = self.side;
        let mut out = Vec::new();
        for from in self.squares() {
            let Some((c, k)) = self.at(from) else {
                continue;
            };
            if c != us {
                continue;
            }
            for to in self.targets(from, c, k) {
                let may_promote =
                    g.promotion(k).is_some() && (g.in_zone(us, from.1) || g.in_zone(us, to.1));
                if may_promote {
                    out.push(RefMove {
                        drop: None,
                        from,
                        to,
                        promote: true,
                    });
                }
                // without promotion, unless the piece could never move again
                if !g.dead(us, k, to.1) {
                    out.push(RefMove {
                        drop: None,
                        from,
                        to,
                        promote: false,
                    });
                }
            }
        }
        for &k in g.hand_kinds() {
            if self.hands[us as usize][hand_slot(k)] == 0 {
                continue;
            }
            for to in self.squares() {
                if self.at(to).is_some() || g.dead(us, k, to.1) {
                    continue;
                }
                if k == Kind::Pawn
                    && (0..g.ranks()).any(|r| self.at((to.0, r)) == Some((us, Kind::Pawn)))
                {
                    continue; // nifu
                }
                out.push(RefMove {
                    drop: Some(k),
                    from: (0, 0),
                    to,
                    promote: false,
                });
            }
        }
        out
    }

    /// The legal moves: pseudo-legal moves that leave the mover's king unattacked, without pawn drops that mate.
    fn legal_moves(&self) -> Vec<RefMove> {
        self.legal_moves_impl(true)
    }

    /// With `uchifuzume` false, mating pawn drops are kept. That is how the mate test of a pawn drop looks for
    /// the opponent's replies, and it cannot change whether one exists: no drop answers the check of a pawn
    /// standing next to the king.
    fn legal_moves_impl(&self, uchifuzume: bool) -> Vec<RefMove> {
        let us = self.side;
        let mut out = Vec::new();
        for m in self.pseudo_moves() {
            let after = self.apply(&m);
            if after.in_check(us) {
                continue;
            }
            if uchifuzume
                && m.drop == Some(Kind::Pawn)
                && after.in_check(opp(us))
                && after.legal_moves_impl(false).is_empty()
            {
                continue;
            }
            out.push(m);
        }
        out
    }

    /// Whether this set-up breaks a rule of RULES.md: a king missing or doubled, a dead piece, two unpromoted
    /// pawns of a side on a file, more pieces of a kind than the game has, or the side not to move in check.
    fn valid(&self) -> bool {
        let g = self.game;
        let mut counts = std::collections::HashMap::<Kind, u32>::new();
        let mut kings = [0; 2];
        for s in self.squares() {
            if let Some((c, k)) = self.at(s) {
                if g.dead(c, k, s.1) {
                    return false;
                }
                if k == Kind::King {
                    kings[c as usize] += 1;
                }
                if k == Kind::Pawn
                    && (0..g.ranks()).any(|r| r != s.1 && self.at((s.0, r)) == Some((c, k)))
                {
                    return false;
                }
                *counts.entry(unpromoted(k)).or_default() += 1;
            }
        }
        if kings != [1, 1] {
            return false;
        }
        for c in [Color::Black, Color::White] {
            for &k in g.hand_kinds() {
                *counts.entry(k).or_default() += self.hands[c as usize][hand_slot(k)] as u32;
            }
        }
        for &(k, total) in g.totals() {
            if counts.get(&k).copied().unwrap_or(0) > total as u32 {
                return false;
            }
        }
        !self.in_check(opp(self.side))
    }
}

fn square_usi((f, r): Sq) -> String {
    format!("{}{}", f + 1, (b'a' + r as u8) as char)
}

fn ref_usi(m: &RefMove) -> String {
    match m.drop {
        Some(k) => format!("{}*{}", letter(k), square_usi(m.to)),
        None => format!(
            "{}{}{}",
            square_usi(m.from),
            square_usi(m.to),
            if m.promote { "+" } else { "" }
        ),
    }
}

// ================================================================================================================
// Bridging the engine and the reference
// ================================================================================================================

trait RefGame: Variant {
    const GAME: Game;
}
impl RefGame for Shogi {
    const GAME: Game = Game::Shogi;
}
impl RefGame for Minishogi {
    const GAME: Game = Game::Mini;
}
impl RefGame for Yari {
    const GAME: Game = Game::Yari;
}

fn sq_of<V: RefGame>(s: Square) -> Sq {
    (s.file_index(V::RANKS), s.rank_index(V::RANKS))
}

fn to_ref<V: RefGame>(m: Move) -> RefMove {
    if m.is_drop() {
        RefMove {
            drop: Some(m.dropped()),
            from: (0, 0),
            to: sq_of::<V>(m.to()),
            promote: false,
        }
    } else {
        RefMove {
            drop: None,
            from: sq_of::<V>(m.from()),
            to: sq_of::<V>(m.to()),
            promote: m.is_promotion(),
        }
    }
}

fn usi_set(set: &BTreeSet<RefMove>) -> Vec<String> {
    set.iter().map(ref_usi).collect()
}

/// Asserts that two move sets are equal, listing the difference in USI.
fn assert_same_moves(
    what: &str,
    engine: &BTreeSet<RefMove>,
    reference: &BTreeSet<RefMove>,
    ctx: &str,
) {
    if engine != reference {
        let extra: BTreeSet<RefMove> = engine.difference(reference).copied().collect();
        let missing: BTreeSet<RefMove> = reference.difference(engine).copied().collect();
        panic!(
            "{what}: engine and reference differ at {ctx}\n  engine only: {:?}\n  reference only: {:?}",
            usi_set(&extra),
            usi_set(&missing)
        );
    }
}

fn engine_set<V: RefGame>(list: &MoveList, what: &str, ctx: &str) -> BTreeSet<RefMove> {
    let set: BTreeSet<RefMove> = list.iter().map(|&m| to_ref::<V>(m)).collect();
    assert_eq!(set.len(), list.len(), "{what}: duplicate moves at {ctx}");
    set
}

/// Every check of one position. `rp` is the reference's own copy of the position and `move_number` its SFEN move
/// number; returns the reference's legal moves.
fn check_position<V: RefGame>(pos: &Position<V>, rp: &RefPos, move_number: u32) -> Vec<RefMove> {
    let g = V::GAME;
    assert_eq!((V::FILES, V::RANKS), (g.files(), g.ranks()));
    let sfen = pos.to_sfen();
    let ctx = format!("{} position {sfen}", V::NAME);
    let ctx = ctx.as_str();

    // the engine's state against the reference's replay
    for s in rp.squares() {
        let p = pos.piece_at(Square::from_coords(s.0, s.1, g.ranks()));
        let p = p.is_some().then(|| (p.color(), p.kind()));
        assert_eq!(p, rp.at(s), "piece on {} at {ctx}", square_usi(s));
    }
    for c in [Color::Black, Color::White] {
        for k in SHOGI_HAND {
            let expected = if g.hand_kinds().contains(&k) {
                rp.hands[c as usize][hand_slot(k)]
            } else {
                0
            };
            assert_eq!(
                pos.hand(c).count(k),
                expected,
                "{c:?} hand of {k:?} at {ctx}"
            );
        }
    }
    assert_eq!(pos.side_to_move(), rp.side, "side to move at {ctx}");

    // SFEN and keys
    assert_eq!(sfen, rp.sfen(move_number), "to_sfen");
    assert_eq!(pos.key(), pos.compute_key(), "incremental key at {ctx}");
    let again = Position::<V>::from_sfen(&sfen)
        .unwrap_or_else(|e| panic!("from_sfen(to_sfen()) failed with '{e}' at {ctx}"));
    assert_eq!(again.to_sfen(), sfen, "SFEN round trip at {ctx}");
    assert_eq!(again.key(), pos.key(), "key after SFEN round trip at {ctx}");

    // check
    let us = rp.side;
    assert_eq!(pos.in_check(), rp.in_check(us), "in_check at {ctx}");

    // the move sets
    let reference_moves = rp.legal_moves();
    let reference: BTreeSet<RefMove> = reference_moves.iter().copied().collect();
    let all = engine_set::<V>(&pos.legal_moves(), "legal_moves", ctx);
    assert_same_moves("legal moves", &all, &reference, ctx);
    let mut list = MoveList::new();
    pos.generate(GenMode::All, &mut list);
    assert_same_moves(
        "GenMode::All",
        &engine_set::<V>(&list, "All", ctx),
        &reference,
        ctx,
    );

    let captures: BTreeSet<RefMove> = reference
        .iter()
        .filter(|m| rp.is_capture(m))
        .copied()
        .collect();
    let quiets: BTreeSet<RefMove> = reference.difference(&captures).copied().collect();
    let mut gives_check = BTreeSet::new();
    for m in &reference {
        if rp.apply(m).in_check(opp(us)) {
            gives_check.insert(*m);
        }
    }
    let quiet_promotions: BTreeSet<RefMove> =
        quiets.iter().filter(|m| m.promote).copied().collect();
    for (mode, expected) in [
        (GenMode::Captures, &captures),
        (GenMode::QuietPromotions, &quiet_promotions),
        (GenMode::Quiets, &quiets),
        (GenMode::Checks, &gives_check),
    ] {
        let mut list = MoveList::new();
        pos.generate(mode, &mut list);
        let what = format!("{mode:?}");
        assert_same_moves(&what, &engine_set::<V>(&list, &what, ctx), expected, ctx);
    }

    // every legal move: notation, gives_check, do and undo
    let mut scratch = pos.clone();
    let key = pos.key();
    for &m in pos.legal_moves().iter() {
        let r = to_ref::<V>(m);
        let usi = move_to_usi::<V>(m);
        assert_eq!(usi, ref_usi(&r), "move_to_usi at {ctx}");
        assert_eq!(pos.parse_move(&usi), Ok(m), "parse_move({usi}) at {ctx}");
        assert!(pos.is_legal(m), "is_legal({usi}) at {ctx}");
        let checks = gives_check.contains(&r);
        assert_eq!(pos.gives_check(m), checks, "gives_check({usi}) at {ctx}");
        scratch.do_move(m);
        assert_eq!(
            scratch.key(),
            scratch.compute_key(),
            "key after {usi} at {ctx}"
        );
        assert_eq!(scratch.in_check(), checks, "in_check after {usi} at {ctx}");
        assert_eq!(scratch.side_to_move(), opp(us), "side after {usi} at {ctx}");
        scratch.undo_move();
        assert_eq!(scratch.key(), key, "key after {usi} and undo at {ctx}");
        assert_eq!(
            scratch.to_sfen(),
            sfen,
            "SFEN after {usi} and undo at {ctx}"
        );
    }
    // moves the reference calls illegal are not legal for the engine either
    for m in rp.pseudo_moves() {
        if !reference.contains(&m) {
            let usi = ref_usi(&m);
            assert!(
                pos.parse_move(&usi).is_err(),
                "parse_move({usi}) accepted at {ctx}"
            );
        }
    }
    reference_moves
}

// ================================================================================================================
// Random playouts and set-ups
// ================================================================================================================

/// splitmix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// Picks a legal move, preferring captures, drops, checks and promotions so that hands fill and rich positions
/// arise.
fn pick(rng: &mut Rng, rp: &RefPos, legal: &[RefMove]) -> RefMove {
    let roll = rng.below(100);
    let us = rp.side;
    let pool: Vec<RefMove> = match roll {
        0..=34 => legal.iter().filter(|m| rp.is_capture(m)).copied().collect(),
        35..=54 => legal.iter().filter(|m| m.drop.is_some()).copied().collect(),
        55..=69 => legal
            .iter()
            .filter(|m| rp.apply(m).in_check(opp(us)))
            .copied()
            .collect(),
        70..=74 => legal.iter().filter(|m| m.promote).copied().collect(),
        _ => Vec::new(),
    };
    let pool = if pool.is_empty() { legal } else { &pool };
    pool[rng.below(pool.len())]
}

/// Plays `plies` random moves from `start`, checking every position on the way, then takes them all back.
fn playout<V: RefGame>(rng: &mut Rng, start: &str, plies: usize) {
    let mut pos = Position::<V>::from_sfen(start).unwrap_or_else(|e| panic!("{start}: {e}"));
    let mut rp = RefPos::from_sfen(V::GAME, start);
    let mut move_number: u32 = start
        .split_whitespace()
        .nth(3)
        .map_or(1, |n| n.parse().expect("a move number"));
    let mut trail = Vec::new();
    for _ in 0..plies {
        let legal = check_position(&pos, &rp, move_number);
        if legal.is_empty() {
            break;
        }
        let m = pick(rng, &rp, &legal);
        let usi = ref_usi(&m);
        let em = pos
            .parse_move(&usi)
            .unwrap_or_else(|e| panic!("{e} at {}", pos.to_sfen()));
        trail.push((pos.to_sfen(), pos.key()));
        pos.do_move(em);
        rp = rp.apply(&m);
        move_number += 1;
    }
    check_position(&pos, &rp, move_number);
    while let Some((sfen, key)) = trail.pop() {
        pos.undo_move();
        assert_eq!(pos.to_sfen(), sfen, "undoing the playout from {start}");
        assert_eq!(pos.key(), key, "key undoing the playout from {start}");
    }
}

const SHOGI_STARTS: [&str; 6] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    // a middle game with pieces in hand on both sides
    "ln1g3nl/1r1s1kgs1/p1pppp1pp/1p4p2/9/2P6/PPBP1PPPP/3SK2R1/LN1G1GSNL b Bp 13",
];
const MINI_STARTS: [&str; 6] = [
    "rbsgk/4p/5/P4/KGSBR b - 1",
    "r1sgk/4p/5/P4/KGSBR w - 1",
    "1bsgk/4p/5/P4/KGSBR w - 1",
    "2sgk/4p/5/P4/KGSBR w - 1",
    "3gk/4p/5/P4/KGSBR w - 1",
    "4k/4p/5/P4/KGSBR w - 1",
];
const YARI_STARTS: [&str; 1] = ["rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1"];

/// A random set-up: kings anywhere (often on their back ranks), the game's other pieces on the board, in a hand
/// or left out, some promoted. Most are valid; a few break a rule on purpose (dead piece, nifu, extra or
/// missing king, too many pieces), and many leave the side not to move in check.
fn random_setup(g: Game, rng: &mut Rng) -> RefPos {
    let mut p = RefPos {
        game: g,
        cells: [None; 81],
        hands: [[0; 7]; 2],
        side: if rng.chance(50) {
            Color::Black
        } else {
            Color::White
        },
    };
    let (files, ranks) = (g.files(), g.ranks());
    let empty_square = |p: &RefPos, rng: &mut Rng| loop {
        let s = (rng.below(files), rng.below(ranks));
        if p.at(s).is_none() {
            return s;
        }
    };
    for c in [Color::Black, Color::White] {
        let s = if rng.chance(50) {
            let back = if c == Color::Black { ranks - 1 } else { 0 };
            let r = if rng.chance(70) {
                back
            } else if c == Color::Black {
                back - 1
            } else {
                1
            };
            let s = (rng.below(files), r);
            if p.at(s).is_some() {
                empty_square(&p, rng)
            } else {
                s
            }
        } else {
            empty_square(&p, rng)
        };
        p.set(s, Some((c, Kind::King)));
    }
    let on_board = 15 + rng.below(60);
    let in_hand = 10 + rng.below(50);
    let strict = !rng.chance(8);
    for &(k, total) in g.totals() {
        if k == Kind::King {
            continue;
        }
        for _ in 0..total {
            let c = if rng.chance(50) {
                Color::Black
            } else {
                Color::White
            };
            let roll = rng.below(100);
            if roll < on_board {
                let mut tries = 0;
                loop {
                    let s = empty_square(&p, rng);
                    let kind = match g.promotion(k) {
                        Some(pk) if rng.chance(25) => pk,
                        _ => k,
                    };
                    let nifu = kind == Kind::Pawn
                        && (0..ranks).any(|r| p.at((s.0, r)) == Some((c, Kind::Pawn)));
                    tries += 1;
                    if strict && tries < 50 && (nifu || g.dead(c, kind, s.1)) {
                        continue;
                    }
                    p.set(s, Some((c, kind)));
                    break;
                }
            } else if roll < on_board + in_hand {
                p.hands[c as usize][hand_slot(k)] += 1;
            }
        }
    }
    match rng.below(50) {
        0 => {
            // a second king
            let s = empty_square(&p, rng);
            p.set(s, Some((Color::Black, Kind::King)));
        }
        1 => {
            let s = p.king(Color::White);
            p.set(s, None);
        }
        2 => {
            // one piece too many
            let &(k, _) = &g.totals()[rng.below(g.totals().len() - 1)];
            let total: u32 = p
                .squares()
                .filter(|&s| p.at(s).is_some_and(|(_, pk)| unpromoted(pk) == k))
                .count() as u32
                + p.hands[0][hand_slot(k)] as u32
                + p.hands[1][hand_slot(k)] as u32;
            let want = g.totals().iter().find(|t| t.0 == k).unwrap().1 as u32 + 1;
            p.hands[0][hand_slot(k)] += (want - total.min(want)) as u8;
        }
        _ => {}
    }
    p
}

fn setup_test<V: RefGame>(seed: u64) {
    let mut rng = Rng(seed);
    let rp = random_setup(V::GAME, &mut rng);
    let move_number = 1 + rng.below(300) as u32;
    let sfen = rp.sfen(move_number);
    let valid = rp.valid();
    match Position::<V>::from_sfen(&sfen) {
        Ok(pos) => {
            assert!(valid, "{} accepted the invalid set-up {sfen}", V::NAME);
            check_position(&pos, &rp, move_number);
            let plies = rng.below(12);
            playout::<V>(&mut rng, &sfen, plies);
        }
        Err(e) => assert!(!valid, "{} rejected the valid set-up {sfen}: {e}", V::NAME),
    }
}

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn shogi_playouts_match_reference(seed in any::<u64>()) {
        let mut rng = Rng(seed);
        let start = SHOGI_STARTS[rng.below(SHOGI_STARTS.len())];
        let plies = 40 + rng.below(61);
        playout::<Shogi>(&mut rng, start, plies);
    }
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn minishogi_playouts_match_reference(seed in any::<u64>()) {
        let mut rng = Rng(seed);
        let start = MINI_STARTS[rng.below(MINI_STARTS.len())];
        let plies = 40 + rng.below(61);
        playout::<Minishogi>(&mut rng, start, plies);
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn yari_playouts_match_reference(seed in any::<u64>()) {
        let mut rng = Rng(seed);
        let start = YARI_STARTS[rng.below(YARI_STARTS.len())];
        let plies = 40 + rng.below(61);
        playout::<Yari>(&mut rng, start, plies);
    }
}

proptest! {
    #![proptest_config(config(1500))]

    #[test]
    fn shogi_setups_match_reference(seed in any::<u64>()) {
        setup_test::<Shogi>(seed);
    }

    #[test]
    fn minishogi_setups_match_reference(seed in any::<u64>()) {
        setup_test::<Minishogi>(seed);
    }

    #[test]
    fn yari_setups_match_reference(seed in any::<u64>()) {
        setup_test::<Yari>(seed);
    }
}

// ================================================================================================================
// Fixed positions for the rare rules
// ================================================================================================================

/// Checks the position against the reference and returns the legal moves in USI.
fn fixed<V: RefGame>(sfen: &str) -> BTreeSet<String> {
    let pos = Position::<V>::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    let rp = RefPos::from_sfen(V::GAME, sfen);
    let n = sfen.split_whitespace().nth(3).unwrap().parse().unwrap();
    check_position(&pos, &rp, n).iter().map(ref_usi).collect()
}

#[test]
fn start_positions_match_reference() {
    for s in SHOGI_STARTS {
        fixed::<Shogi>(s);
    }
    for s in MINI_STARTS {
        fixed::<Minishogi>(s);
    }
    for s in YARI_STARTS {
        fixed::<Yari>(s);
    }
    assert_eq!(fixed::<Shogi>(SHOGI_STARTS[0]).len(), 30);
    assert_eq!(fixed::<Minishogi>(MINI_STARTS[0]).len(), 14);
}

#[test]
fn mating_pawn_drop_is_illegal() {
    // gold on 2c guards 1b and 2b, knight on 3c guards 2a: P*1b would mate
    let moves = fixed::<Shogi>("8k/9/6NG1/9/9/9/9/9/4K4 b P 1");
    assert!(!moves.contains("P*1b"));
    assert!(moves.contains("P*1c"));
    // a gote silver on 2a can take the pawn: the drop only checks
    let moves = fixed::<Shogi>("7sk/9/6NG1/9/9/9/9/9/4K4 b P 1");
    assert!(moves.contains("P*1b"));
    // the defending gold on 2b is pinned by the bishop on 4d, so it cannot take: mate
    let moves = fixed::<Shogi>("8k/6Sg1/8G/5B3/9/9/9/9/4K4 b P 1");
    assert!(!moves.contains("P*1b"));
    // without the bishop the gold takes the pawn
    let moves = fixed::<Shogi>("8k/6Sg1/8G/9/9/9/9/9/4K4 b P 1");
    assert!(moves.contains("P*1b"));
    // gote mates the same way from the other side of the board
    let moves = fixed::<Shogi>("4k4/9/9/9/9/9/1gn6/9/K8 w p 1");
    assert!(!moves.contains("P*9h"));

    let moves = fixed::<Minishogi>("4k/2S2/3G1/5/K4 b P 1");
    assert!(!moves.contains("P*1b"));
    let moves = fixed::<Minishogi>("3sk/5/3G1/5/K4 b P 1");
    assert!(moves.contains("P*1b"));

    // Yari: the yari rook on 4b guards 2b and 1b, the yari knight on 3c jumps to 2a
    let moves = fixed::<Yari>("6k/3R3/4N2/7/7/7/7/7/3K3 b P 1");
    assert!(!moves.contains("P*1b"));
    // moved to 4c, the yari rook no longer guards rank b: the king takes the pawn
    let moves = fixed::<Yari>("6k/7/3RN2/7/7/7/7/7/3K3 b P 1");
    assert!(moves.contains("P*1b"));
}

#[test]
fn drop_and_promotion_rules() {
    // nifu (an unpromoted pawn on the file) but not with a tokin; no pawn, lance or knight drop where it is dead
    let moves = fixed::<Shogi>("4k4/9/9/9/9/9/P7+P/9/4K4 b PLN 1");
    assert!(!moves.iter().any(|m| m.starts_with("P*9")));
    assert!(moves.contains("P*1e"));
    assert!(!moves.contains("P*5a") && !moves.contains("L*5a"));
    assert!(!moves.contains("N*5a") && !moves.contains("N*5b") && moves.contains("N*5c"));
    // forced and optional promotion
    let moves = fixed::<Shogi>("4k4/P8/9/9/9/5L3/9/N8/4K4 b - 1");
    assert!(moves.contains("9b9a+") && !moves.contains("9b9a"));
    assert!(moves.contains("4f4a+") && !moves.contains("4f4a"));
    assert!(moves.contains("4f4c+") && moves.contains("4f4c"));
    assert!(!moves.contains("4f4d+"));
    // yari bishop and knight must promote on the last rank; the yari rook need not
    let moves = fixed::<Yari>("k6/7/7/7/7/6B/6N/6R/3K3 b - 1");
    assert!(moves.contains("1f1a+") && !moves.contains("1f1a"));
    assert!(moves.contains("1f1c+") && moves.contains("1f1c"));
    // minishogi: only the last rank promotes; a move out of it may promote too
    let moves = fixed::<Minishogi>("1S2k/5/P4/5/K4 b - 1");
    assert!(moves.contains("4a3b+") && moves.contains("4a3b"));
    assert!(moves.contains("5c5b") && !moves.contains("5c5b+"));
}
