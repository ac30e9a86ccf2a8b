//! Random playouts and random set-ups.

use hayate::rules::piece::{Color, Kind};
use hayate::Position;

use super::*;

/// splitmix64.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub(crate) fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// Picks a legal move, preferring captures, drops, checks and promotions so that hands fill and rich positions
/// arise.
pub(crate) fn pick(rng: &mut Rng, rp: &RefPos, legal: &[RefMove]) -> RefMove {
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
pub(crate) fn playout<V: RefGame>(rng: &mut Rng, start: &str, plies: usize) {
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

pub(crate) const SHOGI_STARTS: [&str; 6] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    // a middle game with pieces in hand on both sides
    "ln1g3nl/1r1s1kgs1/p1pppp1pp/1p4p2/9/2P6/PPBP1PPPP/3SK2R1/LN1G1GSNL b Bp 13",
];
pub(crate) const MINI_STARTS: [&str; 6] = [
    "rbsgk/4p/5/P4/KGSBR b - 1",
    "r1sgk/4p/5/P4/KGSBR w - 1",
    "1bsgk/4p/5/P4/KGSBR w - 1",
    "2sgk/4p/5/P4/KGSBR w - 1",
    "3gk/4p/5/P4/KGSBR w - 1",
    "4k/4p/5/P4/KGSBR w - 1",
];
pub(crate) const YARI_STARTS: [&str; 1] = ["rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1"];

/// A random set-up: kings anywhere (often on their back ranks), the game's other pieces on the board, in a hand
/// or left out, some promoted. Most are valid; a few break a rule on purpose (dead piece, nifu, extra or
/// missing king, too many pieces), and many leave the side not to move in check.
pub(crate) fn random_setup(g: Game, rng: &mut Rng) -> RefPos {
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

pub(crate) fn setup_test<V: RefGame>(seed: u64) {
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
