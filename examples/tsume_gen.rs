//! Generates tsume problems for a game by random placement: the defender's king in the far third of the board,
//! a few attacker pieces near it, a few defender pieces, a piece or two in the attacker's hand (the defender
//! holds the rest), kept when the solver finds a mate of a wanted length. Prints `<sfen> ; <length>` lines (the
//! format of `hayate mate --suite`); the tests prove each length again with a brute-force search.
//!
//! cargo run --release --features dev-tools --example tsume_gen -- minishogi 3 7 1,3,5,7,9,11
//! (game, problems per length, seed, lengths)

// developer tools built on request (`--features dev-tools`), not the engine
#![allow(clippy::unwrap_used)]

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use hayate::engine::tsume::{solve, tsume_position, DefenderHand, MateLimits, MateResult};
use hayate::rules::piece::{Color, Kind, Piece};
use hayate::rules::position::sfen::write_board;
use hayate::rules::rng::SplitMix64;
use hayate::rules::square::Square;
use hayate::{with_variant, GameKind, Variant};

fn board_sfen<V: Variant>(board: &[Option<Piece>], hand: &[Kind]) -> String {
    let squares: Vec<Piece> = board.iter().map(|p| p.unwrap_or(Piece::NONE)).collect();
    let mut s = String::new();
    write_board::<V>(&squares, &mut s);
    let hand: String = if hand.is_empty() {
        "-".into()
    } else {
        hand.iter().map(|k| k.letter()).collect()
    };
    format!("{s} b {hand} 1")
}

fn generate<V: Variant>(per_length: usize, seed: u64, lengths: &[usize]) {
    let mut rng = SplitMix64::new(seed);
    let mut found: HashMap<usize, usize> = HashMap::new();
    let stop = AtomicBool::new(false);
    let limits = MateLimits {
        time: Some(Duration::from_millis(300)),
        hash_mb: 16,
        ..MateLimits::default()
    };
    let near = |rng: &mut SplitMix64, k: Square, d: usize| -> Square {
        let (kf, kr) = (
            k.file_index(V::RANKS) as isize,
            k.rank_index(V::RANKS) as isize,
        );
        let f = (kf + rng.below(2 * d + 1) as isize - d as isize).clamp(0, V::FILES as isize - 1);
        let r = (kr + rng.below(2 * d + 1) as isize - d as isize).clamp(0, V::RANKS as isize - 1);
        Square::from_coords(f as usize, r as usize, V::RANKS)
    };
    for _ in 0..2_000_000 {
        if lengths
            .iter()
            .all(|l| found.get(l).copied().unwrap_or(0) >= per_length)
        {
            break;
        }
        let mut board = vec![None; V::SQUARES];
        let king = Square::from_coords(
            rng.below(V::FILES),
            rng.below(V::RANKS.div_ceil(3)),
            V::RANKS,
        );
        board[king.index()] = Some(Piece::new(Color::White, Kind::King));
        let kinds = V::NON_KING_KINDS;
        for i in 0..2 + rng.below(3) {
            let sq = near(&mut rng, king, 2 + i % 2);
            if board[sq.index()].is_none() {
                let k = kinds[rng.below(kinds.len())];
                board[sq.index()] = Some(Piece::new(Color::Black, k));
            }
        }
        for _ in 0..rng.below(3) {
            let sq = near(&mut rng, king, 1);
            if board[sq.index()].is_none() {
                let k = kinds[rng.below(kinds.len())];
                board[sq.index()] = Some(Piece::new(Color::White, k));
            }
        }
        let hand: Vec<Kind> = (0..rng.below(3))
            .map(|_| V::HAND_KINDS[rng.below(V::HAND_KINDS.len())])
            .collect();
        let mut hand = hand;
        hand.sort_by_key(|k| std::cmp::Reverse(k.index()));
        hand.dedup();
        let sfen = board_sfen::<V>(&board, &hand);
        let Ok(pos) = tsume_position::<V>(&sfen, DefenderHand::FillIfEmpty) else {
            continue;
        };
        if pos.in_check() {
            continue;
        }
        let r = solve(&pos, &limits, &stop, None);
        if let (MateResult::Mate(_), Some(len)) = (&r.result, r.length) {
            if r.shortest_proven && lengths.contains(&len) {
                let n = found.entry(len).or_insert(0);
                if *n < per_length {
                    *n += 1;
                    println!("{} ; {len}", pos.to_sfen());
                }
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let game: GameKind = args
        .get(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(GameKind::Minishogi);
    let per_length = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(3);
    let seed = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let lengths: Vec<usize> = args
        .get(4)
        .map(|s| s.split(',').filter_map(|x| x.parse().ok()).collect())
        .unwrap_or_else(|| vec![1, 3, 5, 7, 9, 11]);
    with_variant!(game, V => generate::<V>(per_length, seed, &lengths));
}
