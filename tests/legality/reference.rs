//! The reference rules: written only from `RULES.md`, with plain coordinate arithmetic on a square array.

use hayate::rules::piece::{Color, Kind};
use std::fmt::Write as _;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Game {
    Shogi,
    Mini,
    Yari,
}

/// A (file delta, rank delta) pair from sente's point of view: rank delta -1 is forward (toward rank a).
pub(crate) type Dir = (i32, i32);

pub(crate) const FWD: Dir = (0, -1);
pub(crate) const BACK: Dir = (0, 1);
pub(crate) const KING_STEPS: [Dir; 8] = [
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
pub(crate) const GOLD_STEPS: [Dir; 6] = [(0, -1), (-1, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
/// Forward and the four diagonals.
pub(crate) const SILVER_STEPS: [Dir; 5] = [(0, -1), (-1, -1), (1, -1), (-1, 1), (1, 1)];
pub(crate) const ORTHOGONAL: [Dir; 4] = [(0, -1), (0, 1), (-1, 0), (1, 0)];
pub(crate) const DIAGONAL: [Dir; 4] = [(-1, -1), (1, -1), (-1, 1), (1, 1)];
/// Two forward, one sideways.
pub(crate) const KNIGHT_JUMPS: [Dir; 2] = [(-1, -2), (1, -2)];
pub(crate) const DIAGONAL_FORWARD: [Dir; 2] = [(-1, -1), (1, -1)];
/// Forward and diagonally forward (the yari silver's steps).
pub(crate) const FORWARD_THREE: [Dir; 3] = [(-1, -1), (0, -1), (1, -1)];
/// Forward, left and right (the yari rook's slides).
pub(crate) const FORWARD_AND_SIDEWAYS: [Dir; 3] = [(0, -1), (-1, 0), (1, 0)];

pub(crate) const SHOGI_HAND: [Kind; 7] = [
    Kind::Pawn,
    Kind::Lance,
    Kind::Knight,
    Kind::Silver,
    Kind::Gold,
    Kind::Bishop,
    Kind::Rook,
];
pub(crate) const MINI_HAND: [Kind; 5] = [
    Kind::Pawn,
    Kind::Silver,
    Kind::Gold,
    Kind::Bishop,
    Kind::Rook,
];
pub(crate) const YARI_HAND: [Kind; 4] = [Kind::Pawn, Kind::Knight, Kind::Bishop, Kind::Rook];

impl Game {
    pub(crate) fn files(self) -> usize {
        match self {
            Game::Shogi => 9,
            Game::Mini => 5,
            Game::Yari => 7,
        }
    }

    pub(crate) fn ranks(self) -> usize {
        match self {
            Game::Shogi => 9,
            Game::Mini => 5,
            Game::Yari => 9,
        }
    }

    /// Ranks in the promotion zone: the three farthest, or the last one in minishogi.
    pub(crate) fn zone_depth(self) -> usize {
        match self {
            Game::Mini => 1,
            _ => 3,
        }
    }

    /// The kinds that can be held in hand (and so dropped).
    pub(crate) fn hand_kinds(self) -> &'static [Kind] {
        match self {
            Game::Shogi => &SHOGI_HAND,
            Game::Mini => &MINI_HAND,
            Game::Yari => &YARI_HAND,
        }
    }

    /// How many pieces of each unpromoted kind the game has, both sides together.
    pub(crate) fn totals(self) -> &'static [(Kind, u8)] {
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
    pub(crate) fn promotion(self, k: Kind) -> Option<Kind> {
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
    pub(crate) fn movement(self, k: Kind) -> (&'static [Dir], &'static [Dir]) {
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
    pub(crate) fn dead(self, c: Color, k: Kind, r: usize) -> bool {
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

    pub(crate) fn in_zone(self, c: Color, r: usize) -> bool {
        match c {
            Color::Black => r < self.zone_depth(),
            Color::White => r >= self.ranks() - self.zone_depth(),
        }
    }
}

pub(crate) fn unpromoted(k: Kind) -> Kind {
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

pub(crate) fn is_promoted(k: Kind) -> bool {
    unpromoted(k) != k
}

pub(crate) fn letter(k: Kind) -> char {
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

pub(crate) fn kind_of_letter(c: char) -> Kind {
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

pub(crate) fn promote_any(k: Kind) -> Kind {
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
pub(crate) fn hand_slot(k: Kind) -> usize {
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

pub(crate) fn opp(c: Color) -> Color {
    match c {
        Color::Black => Color::White,
        Color::White => Color::Black,
    }
}

/// A square as (file index, rank index): file index 0 is USI file 1, rank index 0 is rank a.
pub(crate) type Sq = (usize, usize);

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub(crate) struct RefMove {
    /// The dropped kind, for a drop.
    pub(crate) drop: Option<Kind>,
    /// The origin square; (0, 0) for a drop.
    pub(crate) from: Sq,
    pub(crate) to: Sq,
    pub(crate) promote: bool,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct RefPos {
    pub(crate) game: Game,
    /// Indexed by `file * ranks + rank`.
    pub(crate) cells: [Option<(Color, Kind)>; 81],
    /// Per colour, per `hand_slot`.
    pub(crate) hands: [[u8; 7]; 2],
    pub(crate) side: Color,
}

impl RefPos {
    pub(crate) fn at(&self, (f, r): Sq) -> Option<(Color, Kind)> {
        self.cells[f * self.game.ranks() + r]
    }

    pub(crate) fn set(&mut self, (f, r): Sq, p: Option<(Color, Kind)>) {
        let ranks = self.game.ranks();
        self.cells[f * ranks + r] = p;
    }

    pub(crate) fn squares(&self) -> impl Iterator<Item = Sq> {
        let (files, ranks) = (self.game.files(), self.game.ranks());
        (0..files).flat_map(move |f| (0..ranks).map(move |r| (f, r)))
    }

    pub(crate) fn offset(&self, (f, r): Sq, (df, dr): Dir, n: i32) -> Option<Sq> {
        let nf = f as i32 + df * n;
        let nr = r as i32 + dr * n;
        if nf < 0 || nr < 0 || nf >= self.game.files() as i32 || nr >= self.game.ranks() as i32 {
            None
        } else {
            Some((nf as usize, nr as usize))
        }
    }

    /// Reads an SFEN known to be well formed.
    pub(crate) fn from_sfen(game: Game, sfen: &str) -> RefPos {
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
    pub(crate) fn sfen(&self, move_number: u32) -> String {
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
    pub(crate) fn targets(&self, from: Sq, c: Color, k: Kind) -> Vec<Sq> {
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
    pub(crate) fn attacked(&self, sq: Sq, by: Color) -> bool {
        self.squares().any(|s| match self.at(s) {
            Some((c, k)) if c == by => self.targets(s, c, k).contains(&sq),
            _ => false,
        })
    }

    pub(crate) fn king(&self, c: Color) -> Sq {
        self.squares()
            .find(|&s| self.at(s) == Some((c, Kind::King)))
            .expect("a king")
    }

    pub(crate) fn in_check(&self, c: Color) -> bool {
        self.attacked(self.king(c), opp(c))
    }

    pub(crate) fn is_capture(&self, m: &RefMove) -> bool {
        m.drop.is_none() && self.at(m.to).is_some()
    }

    /// The position after `m` (which need not be legal), with the other side to move.
    pub(crate) fn apply(&self, m: &RefMove) -> RefPos {
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
    pub(crate) fn pseudo_moves(&self) -> Vec<RefMove> {
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
    pub(crate) fn legal_moves(&self) -> Vec<RefMove> {
        self.legal_moves_impl(true)
    }

    /// With `uchifuzume` false, mating pawn drops are kept. That is how the mate test of a pawn drop looks for
    /// the opponent's replies, and it cannot change whether one exists: no drop answers the check of a pawn
    /// standing next to the king.
    pub(crate) fn legal_moves_impl(&self, uchifuzume: bool) -> Vec<RefMove> {
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
    pub(crate) fn valid(&self) -> bool {
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
