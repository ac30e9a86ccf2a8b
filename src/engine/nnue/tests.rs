//! The incremental accumulator against a full refresh, the vector kernels against the portable ones, and the
//! net file's checks.

use super::file::{self, NetError};
use super::simd::{add_sub, add_sub_scalar, screlu_dot, screlu_dot_scalar};
use super::*;
use crate::rules::rng::SplitMix64;
use crate::{Minishogi, Position, Shogi, Yari};

fn random_net(game: GameKind, hidden: usize, seed: u64) -> Network {
    let mut r = SplitMix64::new(seed);
    Network::with_weights(game, inputs(game), hidden, |_| {
        (r.below(401) as i16 - 200) / 2
    })
}

/// Random games, moves played and taken back along the way: after every change the stack's top equals a
/// refresh, and the vector and portable updates agree.
fn incremental_matches_refresh<V: Features + crate::engine::eval::GameEval>(seed: u64) {
    let net = random_net(V::KIND, 32, seed);
    let mut r = SplitMix64::new(seed);
    let (mut captures, mut drops, mut promotions) = (0, 0, 0);
    for _game in 0..20 {
        let mut pos = Position::<V>::startpos();
        let mut acc = AccumulatorStack::new(&net, &pos);
        let mut scalar = acc.clone();
        for _ply in 0..120 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[r.below(moves.len())];
            captures += usize::from(!m.is_drop() && pos.piece_at(m.to()).is_some());
            drops += usize::from(m.is_drop());
            promotions += usize::from(m.is_promotion());
            acc.push_move(&net, &pos, m);
            scalar.push_move_scalar(&net, &pos, m);
            pos.do_move(m);
            assert_eq!(
                acc.top(),
                AccumulatorStack::refreshed(&net, &pos).as_slice()
            );
            assert_eq!(acc.top(), scalar.top());
            let e = acc.evaluate(&net, &pos);
            assert!(e.abs() <= network::EVAL_LIMIT);
            // now and then take the move back and check the entry below
            if r.below(4) == 0 {
                pos.undo_move();
                acc.pop();
                scalar.pop();
                assert_eq!(
                    acc.top(),
                    AccumulatorStack::refreshed(&net, &pos).as_slice()
                );
                acc.push_move(&net, &pos, m);
                scalar.push_move_scalar(&net, &pos, m);
                pos.do_move(m);
            }
        }
    }
    assert!(
        captures > 0 && drops > 0 && promotions > 0,
        "{}: the random games must capture ({captures}), drop ({drops}) and promote ({promotions})",
        V::NAME
    );
}

#[test]
fn incremental_accumulator_equals_refresh_in_all_games() {
    incremental_matches_refresh::<Minishogi>(1);
    incremental_matches_refresh::<Yari>(2);
    incremental_matches_refresh::<Shogi>(3);
}

#[test]
fn input_counts_match_the_issue() {
    assert_eq!(inputs(GameKind::Minishogi), 520);
    assert_eq!(inputs(GameKind::Yari), 1186);
    assert_eq!(inputs(GameKind::Shogi), 2344);
}

#[test]
fn every_feature_of_the_start_positions_is_distinct_and_in_range() {
    fn check<V: Features>() {
        let pos = Position::<V>::startpos();
        for c in crate::rules::piece::Color::ALL {
            let mut a: Vec<u32> = features::active(&pos, c).to_vec();
            assert!(a.iter().all(|&f| (f as usize) < V::INPUTS));
            a.sort_unstable();
            a.dedup();
            assert_eq!(a.len(), pos.occupied().count() as usize);
        }
    }
    check::<Shogi>();
    check::<Minishogi>();
    check::<Yari>();
}

#[test]
fn simd_kernels_equal_scalar() {
    let mut r = SplitMix64::new(9);
    for n in [16usize, 32, 256, 1024] {
        let mut v = |lo: i32, hi: i32| -> Vec<i16> {
            (0..n)
                .map(|_| (lo + r.below((hi - lo + 1) as usize) as i32) as i16)
                .collect()
        };
        let (src, a1, a2, s1, s2) = (
            v(-2000, 2000),
            v(-500, 500),
            v(-500, 500),
            v(-500, 500),
            v(-500, 500),
        );
        let (mut d1, mut d2) = (vec![0i16; n], vec![0i16; n]);
        add_sub(&mut d1, &src, &[&a1, &a2], &[&s1, &s2]);
        add_sub_scalar(&mut d2, &src, &[&a1, &a2], &[&s1, &s2]);
        assert_eq!(d1, d2);
        let (acc, w) = (v(-300, 600), v(-128, 128));
        assert_eq!(screlu_dot(&acc, &w), screlu_dot_scalar(&acc, &w));
        // the largest values the file allows
        let (acc, w) = (vec![255i16; n], vec![128i16; n]);
        assert_eq!(screlu_dot(&acc, &w), 255 * 255 * 128 * n as i64);
    }
    log::info!("AVX2: {}", simd::avx2_available());
}

#[test]
fn net_file_round_trips() {
    let net = random_net(GameKind::Minishogi, 32, 5);
    let bytes = file::to_bytes(&net);
    assert_eq!(
        file::from_bytes(&bytes, GameKind::Minishogi, 520).as_ref(),
        Ok(&net)
    );
}

#[test]
fn mismatched_or_damaged_net_files_are_refused() {
    let net = random_net(GameKind::Minishogi, 32, 5);
    let bytes = file::to_bytes(&net);
    let err = file::from_bytes(&bytes, GameKind::Shogi, 2344).unwrap_err();
    assert_eq!(err.to_string(), "net file is for minishogi, not shogi");
    let mut damaged = bytes.clone();
    let last = damaged.len() - 10;
    damaged[last] ^= 1;
    assert!(matches!(
        file::from_bytes(&damaged, GameKind::Minishogi, 520),
        Err(NetError::Hash { .. })
    ));
    assert_eq!(
        file::from_bytes(&bytes[..bytes.len() - 2], GameKind::Minishogi, 520)
            .unwrap_err()
            .to_string(),
        format!(
            "net file has {} payload bytes, expected {}",
            bytes.len() - 2 - file::HEADER_SIZE,
            bytes.len() - file::HEADER_SIZE
        )
    );
    assert_eq!(
        file::from_bytes(b"not a net", GameKind::Minishogi, 520).unwrap_err(),
        NetError::BadMagic
    );
}

#[test]
fn the_embedded_nets_load_and_the_search_uses_them_by_default() {
    let net = embedded(GameKind::Minishogi).expect("minishogi net embedded");
    assert_eq!((net.inputs, net.game), (520, GameKind::Minishogi));
    let net = embedded(GameKind::Shogi).expect("shogi net embedded");
    assert_eq!((net.inputs, net.game), (2344, GameKind::Shogi));
    let net = embedded(GameKind::Yari).expect("yari net embedded");
    assert_eq!((net.inputs, net.game), (1186, GameKind::Yari));
    let s = crate::engine::search::Searcher::new(1, 1);
    for game in GameKind::ALL {
        assert!(s.net(game).is_some(), "{game}");
    }
}
