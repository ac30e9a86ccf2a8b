//! Zobrist keys, generated at compile time by the project's SplitMix64 from a fixed seed so that keys are the same on every run
//! (the bench signature and any stored hash depend on it).

use crate::rules::attacks::MAX_SQUARES;
use crate::rules::piece::HAND_KIND_COUNT;
use crate::rules::rng::SplitMix64;

/// The most pieces of one kind a hand can hold (18 pawns in 9×9 shogi).
pub const MAX_HAND_COUNT: usize = 18;

pub struct Keys {
    /// Per piece code (`colour << 4 | kind`, below 32) and square.
    pub piece: [[u64; MAX_SQUARES]; 32],
    /// Per colour, hand kind and count; count 0 has key 0 so that an empty hand hashes to 0.
    pub hand: [[[u64; MAX_HAND_COUNT + 1]; HAND_KIND_COUNT]; 2],
    /// Xored in when White is to move.
    pub side: u64,
}

const fn build() -> Keys {
    let mut s = SplitMix64::new(0x4861_7961_7465_2021); // "Hayate !"
    let mut k = Keys {
        piece: [[0; MAX_SQUARES]; 32],
        hand: [[[0; MAX_HAND_COUNT + 1]; HAND_KIND_COUNT]; 2],
        side: 0,
    };
    let mut p = 0;
    while p < 32 {
        let mut sq = 0;
        while sq < MAX_SQUARES {
            k.piece[p][sq] = s.next_u64();
            sq += 1;
        }
        p += 1;
    }
    let mut c = 0;
    while c < 2 {
        let mut h = 0;
        while h < HAND_KIND_COUNT {
            let mut n = 1;
            while n <= MAX_HAND_COUNT {
                k.hand[c][h][n] = s.next_u64();
                n += 1;
            }
            h += 1;
        }
        c += 1;
    }
    k.side = s.next_u64();
    k
}

pub static KEYS: Keys = build();
