//! Random legal plies at the start of a game, the one way they are drawn: for `hayate match`'s openings (seeded
//! per pair, after a file opening's moves) and for `hayate selfplay`'s games (seeded per game, from the start).
//!
//! A draw that ends the game is rejected and drawn again from the same generator, so that the game still has a
//! game to play: a ply with no legal move on the way or at the end, or a fourth occurrence of a position (as the
//! match referee judges it). The generator's state after the draw is the caller's to use on.

use super::moves::Move;
use super::position::Position;
use super::rng::SplitMix64;
use super::variant::Variant;

/// How often a position occurs before the game ends by repetition: the fourth occurrence (千日手).
const REPETITIONS: usize = 4;

/// `plies` random legal plies from `start` (whose history counts for repetitions), each drawn uniformly from the
/// legal moves in generation order by `rng`; at most `attempts` draws. None when every draw ended the game.
pub fn random_plies<V: Variant>(
    start: &Position<V>,
    plies: usize,
    rng: &mut SplitMix64,
    attempts: usize,
) -> Option<Vec<Move>> {
    'attempt: for _ in 0..attempts {
        let mut pos = start.clone();
        let mut drawn = Vec::with_capacity(plies);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                continue 'attempt;
            }
            let m = moves[rng.below(moves.len())];
            pos.do_move(m);
            drawn.push(m);
            if pos.repetition_verdict(REPETITIONS, usize::MAX).is_some() {
                continue 'attempt;
            }
        }
        if pos.has_legal_move() {
            return Some(drawn);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::rng::mix;
    use crate::{Minishogi, Shogi};

    #[test]
    fn plies_are_legal_reproducible_and_leave_the_game_going() {
        for seed in 0..30 {
            let start = Position::<Minishogi>::startpos();
            let a = random_plies(&start, 10, &mut SplitMix64::new(mix(seed)), 100).unwrap();
            let b = random_plies(&start, 10, &mut SplitMix64::new(mix(seed)), 100).unwrap();
            assert_eq!(a, b);
            assert_eq!(a.len(), 10);
            let mut pos = start.clone();
            for &m in &a {
                assert!(pos.is_legal(m), "seed {seed}: {m:?}");
                pos.do_move(m);
            }
            assert!(pos.has_legal_move());
        }
        let start = Position::<Minishogi>::startpos();
        assert_eq!(
            random_plies(&start, 0, &mut SplitMix64::new(1), 1),
            Some(Vec::new())
        );
    }

    #[test]
    fn draws_that_end_the_game_are_drawn_again_or_given_up() {
        // sente has a gold in hand and G*5b mates: whenever the first draw is the mate, another is drawn
        let start = Position::<Shogi>::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
        let mate = start
            .legal_moves()
            .iter()
            .copied()
            .find(|&m| {
                let mut p = start.clone();
                p.do_move(m);
                !p.has_legal_move()
            })
            .unwrap();
        let mut rejected = 0;
        for seed in 0..300 {
            let mut first = SplitMix64::new(mix(seed));
            let legal = start.legal_moves();
            if legal[first.below(legal.len())] == mate {
                rejected += 1;
            }
            let drawn = random_plies(&start, 1, &mut SplitMix64::new(mix(seed)), 100).unwrap();
            assert_ne!(drawn, [mate], "seed {seed}");
        }
        assert!(rejected > 0);
        // gote is mated already: no ply can be drawn
        let mated = Position::<Shogi>::from_sfen("8k/8G/8P/9/9/9/9/9/4K4 w - 1").unwrap();
        assert_eq!(random_plies(&mated, 1, &mut SplitMix64::new(5), 50), None);
    }

    #[test]
    fn a_fourth_occurrence_is_drawn_again() {
        // two kings alone on 5×5 shuffle: twelve plies can repeat the start a fourth time, and no draw returned
        // may end on a fourth occurrence
        let start = Position::<Minishogi>::from_sfen("4k/5/5/5/K4 b - 1").unwrap();
        for seed in 0..200 {
            let drawn = random_plies(&start, 12, &mut SplitMix64::new(mix(seed)), 1000).unwrap();
            let mut pos = start.clone();
            for &m in &drawn {
                pos.do_move(m);
                assert!(
                    pos.repetition_verdict(REPETITIONS, usize::MAX).is_none(),
                    "seed {seed}"
                );
            }
        }
    }
}
