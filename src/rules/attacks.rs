//! Attack tables, built at compile time for each board geometry from the variant's movement description.
//!
//! Every table is stored as `u128` (wide enough for 81 squares) and narrowed to the variant's word on load.
//! Sliding attacks use precomputed rays with a blocker scan: the nearest blocker along a ray is the lowest or the
//! highest set bit of `ray & occupied`, depending on whether the ray runs toward higher or lower square indices.

use crate::rules::piece::{Color, Kind, KIND_COUNT};

/// The most squares any board has.
pub const MAX_SQUARES: usize = 81;
/// Entries of the per-square tables: every board square plus one slot past the largest board. A side without a
/// king (the attacker of a tsume problem) keeps its king "on" square `V::SQUARES`, whose entries are all empty:
/// nothing attacks it, it attacks nothing, and it lies on no line, so the generator needs no special case.
pub const TABLE_SQUARES: usize = MAX_SQUARES + 1;
/// The most files any board has.
pub const MAX_FILES: usize = 9;

/// Absolute directions, paired so that `d ^ 1` is the opposite of `d`, as (file delta, rank delta); rank delta -1 is toward rank a (Black's forward).
/// File delta +1 is toward higher file numbers (Black's left).
pub const DIRECTIONS: [(i8, i8); 8] = [
    (0, -1),  // 0: N, toward rank a (index -1)
    (0, 1),   // 1: S (index +1)
    (-1, 0),  // 2: toward file 1 (index -ranks)
    (1, 0),   // 3: toward the last file (index +ranks)
    (-1, -1), // 4 (index -ranks-1)
    (1, 1),   // 5 (index +ranks+1)
    (1, -1),  // 6 (index +ranks-1)
    (-1, 1),  // 7 (index -ranks+1)
];

/// Whether a direction runs toward higher square indices (nearest blocker = lowest bit).
pub const fn direction_is_positive(d: usize) -> bool {
    matches!(d, 1 | 3 | 5 | 6)
}

pub const fn opposite_direction(d: usize) -> usize {
    d ^ 1
}

/// How one kind moves, from Black's point of view: single steps (including jumps) and slides.
#[derive(Clone, Copy, Debug)]
pub struct Movement {
    pub steps: &'static [(i8, i8)],
    pub slides: &'static [(i8, i8)],
}

impl Movement {
    pub const NONE: Movement = Movement {
        steps: &[],
        slides: &[],
    };
}

pub const FORWARD: (i8, i8) = (0, -1);
pub const BACKWARD: (i8, i8) = (0, 1);
pub const KNIGHT_JUMPS: [(i8, i8); 2] = [(-1, -2), (1, -2)];
pub const GOLD_STEPS: [(i8, i8); 6] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
pub const SILVER_STEPS: [(i8, i8); 5] = [(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
pub const KING_STEPS: [(i8, i8); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];
pub const ORTHOGONAL: [(i8, i8); 4] = [(0, -1), (0, 1), (-1, 0), (1, 0)];
pub const DIAGONAL: [(i8, i8); 4] = [(-1, -1), (1, -1), (-1, 1), (1, 1)];

/// Precomputed tables of one board geometry and one set of movements.
pub struct Tables {
    /// Step (non-sliding) attacks per colour, kind and square.
    pub step: [[[u128; TABLE_SQUARES]; KIND_COUNT]; 2],
    /// Bitmask of absolute directions each (colour, kind) slides in.
    pub slides: [[u8; KIND_COUNT]; 2],
    /// Squares strictly beyond a square in each absolute direction, to the board's edge.
    pub ray: [[u128; TABLE_SQUARES]; 8],
    /// Direction from the first square to the second plus one; 0 when they are not on one line.
    pub direction: [[u8; TABLE_SQUARES]; TABLE_SQUARES],
    /// Squares where a piece of this colour and kind could never move again (drops there are illegal and a move
    /// there must promote).
    pub dead: [[u128; KIND_COUNT]; 2],
    /// Each colour's promotion zone.
    pub zone: [u128; 2],
    /// Every square of the board.
    pub board: u128,
    /// Squares within Chebyshev distance 1 and 2 of each square (king-safety zones).
    pub near1: [u128; TABLE_SQUARES],
    pub near2: [u128; TABLE_SQUARES],
    /// Whether each kind promotes in this game (its promoted form has a movement).
    pub promotes: [bool; KIND_COUNT],
    /// Each file's squares.
    pub file: [u128; MAX_FILES],
    /// Kinds grouped by identical step pattern (gold and the promoted minor pieces share one): each kind's
    /// class, `NO_CLASS` for kinds without steps. The position keeps one bitboard per class, so attack
    /// detection looks up each pattern once instead of once per kind.
    pub step_class: [u8; KIND_COUNT],
    /// Whether each kind is generated together with the rest of its step class, from the class's bitboard:
    /// true for the first kind of a class whose kinds all slide alike and never promote (gold and the promoted
    /// minor pieces), false for the others of such a class (they are covered by the first).
    pub generate_as_class: [bool; KIND_COUNT],
    /// Kinds skipped by the generator's per-kind loop because their class's first kind covers them.
    pub covered_by_class: [bool; KIND_COUNT],
    /// A kind of each step class, whose step table is the class's pattern.
    pub step_class_kind: [u8; MAX_CLASSES],
    pub step_classes: usize,
    /// Kinds grouped by identical slide directions, as for steps.
    pub slide_class: [u8; KIND_COUNT],
    pub slide_classes: usize,
    /// Squares from which some piece of either colour could step onto each square: a cheap first test before
    /// looking at each step class.
    pub step_reach: [u128; TABLE_SQUARES],
    /// Squares from which some piece could step onto a square next to each square: the only step pieces that
    /// can take a king's flight squares away.
    pub king_step_reach: [u128; TABLE_SQUARES],
    /// For each colour, kind and square of the enemy king: the squares from which a piece of that kind could check
    /// the king by one move — for a kind that never slides (before or after promotion) those where one step,
    /// promoting or not (the zone ignored), lands on a checking square; for a sliding kind every square. The check
    /// generator skips the pieces outside it (most step pieces) before looking at their moves.
    pub step_checkers: [[[u128; TABLE_SQUARES]; KIND_COUNT]; 2],
    /// For each colour, slide class and square: the squares from which a slider of that class would reach the
    /// square on an empty board. Ands with the class's pieces give the few candidates worth a blocker test.
    pub slide_reach: [[[u128; TABLE_SQUARES]; MAX_SLIDE_CLASSES]; 2],
    /// For each colour and absolute direction, the bitmask of slide classes that slide that way.
    pub slide_classes_by_direction: [[u8; 8]; 2],
}

/// The most step or slide classes a game may have.
pub const MAX_CLASSES: usize = 8;
/// The most slide classes a game may have.
pub const MAX_SLIDE_CLASSES: usize = 4;
pub const NO_CLASS: u8 = 0xff;

const fn square_of(f: i32, r: i32, files: i32, ranks: i32) -> i32 {
    if f < 0 || f >= files || r < 0 || r >= ranks {
        -1
    } else {
        f * ranks + r
    }
}

impl Tables {
    pub const fn build(
        files: usize,
        ranks: usize,
        zone_depth: usize,
        moves: &[Movement; KIND_COUNT],
    ) -> Tables {
        let mut t = Tables {
            step: [[[0; TABLE_SQUARES]; KIND_COUNT]; 2],
            slides: [[0; KIND_COUNT]; 2],
            ray: [[0; TABLE_SQUARES]; 8],
            direction: [[0; TABLE_SQUARES]; TABLE_SQUARES],
            dead: [[0; KIND_COUNT]; 2],
            zone: [0; 2],
            board: 0,
            near1: [0; TABLE_SQUARES],
            near2: [0; TABLE_SQUARES],
            promotes: [false; KIND_COUNT],
            file: [0; MAX_FILES],
            step_class: [NO_CLASS; KIND_COUNT],
            step_class_kind: [0; MAX_CLASSES],
            generate_as_class: [false; KIND_COUNT],
            covered_by_class: [false; KIND_COUNT],
            step_classes: 0,
            slide_class: [NO_CLASS; KIND_COUNT],
            slide_classes: 0,
            slide_classes_by_direction: [[0; 8]; 2],
            step_reach: [0; TABLE_SQUARES],
            king_step_reach: [0; TABLE_SQUARES],
            step_checkers: [[[0; TABLE_SQUARES]; KIND_COUNT]; 2],
            slide_reach: [[[0; TABLE_SQUARES]; MAX_SLIDE_CLASSES]; 2],
        };
        let squares = files * ranks;
        t.build_geometry(files, ranks, zone_depth);
        t.build_moves(files, ranks, moves);
        t.build_king_step_reach(squares);
        t.build_step_checkers(squares);
        t.build_classes(squares);
        t.build_generation_groups();
        t
    }

    /// The board, its files and promotion zones, the squares near each square, the rays and the direction from
    /// each square to each other.
    const fn build_geometry(&mut self, files: usize, ranks: usize, zone_depth: usize) {
        let (fi, ri) = (files as i32, ranks as i32);
        let squares = files * ranks;
        let mut sq = 0;
        while sq < squares {
            self.board |= 1u128 << sq;
            let (f, r) = ((sq / ranks) as i32, (sq % ranks) as i32);
            self.file[f as usize] |= 1u128 << sq;
            if (r as usize) < zone_depth {
                self.zone[Color::Black as usize] |= 1u128 << sq;
            }
            if r >= ri - zone_depth as i32 {
                self.zone[Color::White as usize] |= 1u128 << sq;
            }
            let mut df = -2;
            while df <= 2 {
                let mut dr = -2;
                while dr <= 2 {
                    let s = square_of(f + df, r + dr, fi, ri);
                    if s >= 0 {
                        self.near2[sq] |= 1u128 << s;
                        if df >= -1 && df <= 1 && dr >= -1 && dr <= 1 {
                            self.near1[sq] |= 1u128 << s;
                        }
                    }
                    dr += 1;
                }
                df += 1;
            }
            // rays and directions
            let mut d = 0;
            while d < 8 {
                let (df, dr) = (DIRECTIONS[d].0 as i32, DIRECTIONS[d].1 as i32);
                let mut n = 1;
                loop {
                    let s = square_of(f + df * n, r + dr * n, fi, ri);
                    if s < 0 {
                        break;
                    }
                    self.ray[d][sq] |= 1u128 << s;
                    self.direction[sq][s as usize] = d as u8 + 1;
                    n += 1;
                }
                d += 1;
            }
            sq += 1;
        }
    }

    /// Each colour's and kind's steps and slide directions, where it is dead, whether it promotes, and the step
    /// sources of each square.
    const fn build_moves(&mut self, files: usize, ranks: usize, moves: &[Movement; KIND_COUNT]) {
        let (fi, ri) = (files as i32, ranks as i32);
        let squares = files * ranks;
        let mut c = 0;
        while c < 2 {
            let sign: i32 = if c == 0 { 1 } else { -1 };
            let mut k = 0;
            while k < KIND_COUNT {
                let m = &moves[k];
                if let Some(pk) = crate::rules::piece::Kind::from_index(k).promoted() {
                    let pm = &moves[pk as usize];
                    self.promotes[k] = !pm.steps.is_empty() || !pm.slides.is_empty();
                }
                // slide directions
                let mut i = 0;
                while i < m.slides.len() {
                    let (df, dr) = (m.slides[i].0 as i32 * sign, m.slides[i].1 as i32 * sign);
                    let mut d = 0;
                    while d < 8 {
                        if DIRECTIONS[d].0 as i32 == df && DIRECTIONS[d].1 as i32 == dr {
                            self.slides[c][k] |= 1 << d;
                        }
                        d += 1;
                    }
                    i += 1;
                }
                let mut sq = 0;
                while sq < squares {
                    let (f, r) = ((sq / ranks) as i32, (sq % ranks) as i32);
                    let mut i = 0;
                    while i < m.steps.len() {
                        let (df, dr) = (m.steps[i].0 as i32 * sign, m.steps[i].1 as i32 * sign);
                        let s = square_of(f + df, r + dr, fi, ri);
                        if s >= 0 {
                            self.step[c][k][sq] |= 1u128 << s;
                        }
                        i += 1;
                    }
                    let mut reach = self.step[c][k][sq];
                    let mut d = 0;
                    while d < 8 {
                        if self.slides[c][k] & (1 << d) != 0 {
                            reach |= self.ray[d][sq];
                        }
                        d += 1;
                    }
                    if reach == 0 {
                        self.dead[c][k] |= 1u128 << sq;
                    }
                    // a piece on sq steps onto each square of step[c][k][sq]: record sq as a source for them
                    let mut targets = self.step[c][k][sq];
                    while targets != 0 {
                        let s = targets.trailing_zeros() as usize;
                        targets &= targets - 1;
                        self.step_reach[s] |= 1u128 << sq;
                    }
                    sq += 1;
                }
                k += 1;
            }
            c += 1;
        }
    }

    /// The squares from which a step piece can attack some flight of a king on each square.
    const fn build_king_step_reach(&mut self, squares: usize) {
        let mut sq = 0;
        while sq < squares {
            let mut flights = self.step[0][Kind::King.index()][sq];
            while flights != 0 {
                let s = flights.trailing_zeros() as usize;
                flights &= flights - 1;
                self.king_step_reach[sq] |= self.step_reach[s];
            }
            sq += 1;
        }
    }

    const fn build_step_checkers(&mut self, squares: usize) {
        let mut c = 0;
        while c < 2 {
            let mut k = 0;
            while k < KIND_COUNT {
                let promoted = match Kind::from_index(k).promoted() {
                    Some(p) if self.promotes[k] => Some(p.index()),
                    _ => None,
                };
                let slides = self.slides[c][k] != 0
                    || match promoted {
                        Some(p) => self.slides[c][p] != 0,
                        None => false,
                    };
                if slides {
                    self.step_checkers[c][k] = [u128::MAX; TABLE_SQUARES];
                    k += 1;
                    continue;
                }
                let mut from = 0;
                while from < squares {
                    let mut tos = self.step[c][k][from];
                    while tos != 0 {
                        let to = tos.trailing_zeros() as usize;
                        tos &= tos - 1;
                        let mut checked = self.step[c][k][to];
                        if let Some(p) = promoted {
                            checked |= self.step[c][p][to];
                        }
                        while checked != 0 {
                            let king = checked.trailing_zeros() as usize;
                            checked &= checked - 1;
                            self.step_checkers[c][k][king] |= 1u128 << from;
                        }
                    }
                    from += 1;
                }
                k += 1;
            }
            c += 1;
        }
    }

    const fn build_generation_groups(&mut self) {
        let black = Color::Black as usize;
        let mut cls = 0;
        while cls < self.step_classes {
            let first = self.step_class_kind[cls] as usize;
            let mut members = 0;
            let mut alike = true;
            let mut k = 0;
            while k < KIND_COUNT {
                if self.step_class[k] == cls as u8 {
                    members += 1;
                    if self.promotes[k] || self.slides[black][k] != self.slides[black][first] {
                        alike = false;
                    }
                }
                k += 1;
            }
            if alike && members > 1 {
                let mut k = 0;
                while k < KIND_COUNT {
                    if self.step_class[k] == cls as u8 {
                        if k == first {
                            self.generate_as_class[k] = true;
                        } else {
                            self.covered_by_class[k] = true;
                        }
                    }
                    k += 1;
                }
            }
            cls += 1;
        }
    }

    const fn build_classes(&mut self, squares: usize) {
        let black = Color::Black as usize;
        let mut k = 0;
        while k < KIND_COUNT {
            // step class: the first earlier kind with the same pattern on every square
            let mut has_steps = false;
            let mut sq = 0;
            while sq < squares {
                if self.step[black][k][sq] != 0 {
                    has_steps = true;
                }
                sq += 1;
            }
            if has_steps {
                let mut j = 0;
                while j < k {
                    if self.step_class[j] != NO_CLASS {
                        let mut same = true;
                        let mut sq = 0;
                        while sq < squares {
                            if self.step[black][j][sq] != self.step[black][k][sq] {
                                same = false;
                            }
                            sq += 1;
                        }
                        if same {
                            self.step_class[k] = self.step_class[j];
                            break;
                        }
                    }
                    j += 1;
                }
                if self.step_class[k] == NO_CLASS {
                    let n = self.step_classes;
                    assert!(n < MAX_CLASSES, "too many step classes");
                    self.step_class[k] = n as u8;
                    self.step_class_kind[n] = k as u8;
                    self.step_classes = n + 1;
                }
            }
            let dirs = self.slides[black][k];
            if dirs != 0 {
                let mut j = 0;
                while j < k {
                    if self.slide_class[j] != NO_CLASS && self.slides[black][j] == dirs {
                        self.slide_class[k] = self.slide_class[j];
                        break;
                    }
                    j += 1;
                }
                if self.slide_class[k] == NO_CLASS {
                    let n = self.slide_classes;
                    assert!(n < MAX_SLIDE_CLASSES, "too many slide classes");
                    self.slide_class[k] = n as u8;
                    self.slide_classes = n + 1;
                }
                let cls = self.slide_class[k] as usize;
                let mut c = 0;
                while c < 2 {
                    let mut d = 0;
                    while d < 8 {
                        if self.slides[c][k] & (1 << d) != 0 {
                            self.slide_classes_by_direction[c][d] |= 1 << cls;
                            let mut sq = 0;
                            while sq < squares {
                                self.slide_reach[c][cls][sq] |= self.ray[opposite_direction(d)][sq];
                                sq += 1;
                            }
                        }
                        d += 1;
                    }
                    c += 1;
                }
            }
            k += 1;
        }
    }
}
