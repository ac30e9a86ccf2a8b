//! The incremental accumulator against a full refresh, the vector kernels against the portable ones, and the
//! net file's checks.

use super::file::{self, NetError};
use super::simd::{add_sub, add_sub_scalar, screlu_dot, screlu_dot_scalar};
use super::*;
use crate::rules::rng::SplitMix64;
use crate::{Minishogi, Position, Shogi, Yari};

fn random_net(game: GameKind, hidden: usize, seed: u64) -> Network {
    random_net_with_blocks(game, 0, hidden, seed)
}

/// A king-bucketed net of random weights.
fn random_bucketed_net(game: GameKind, hidden: usize, seed: u64) -> Network {
    random_net_with_blocks(game, features::KING_BUCKETS, hidden, seed)
}

/// A net with a deep head, random weights, plain or with king buckets.
fn random_deep_net(game: GameKind, buckets: usize, hidden: usize, seed: u64) -> Network {
    let mut r = SplitMix64::new(seed);
    let mut net = Network::deep_with_weights(game, inputs(game) * buckets.max(1), hidden, |_| {
        (r.below(401) as i16 - 200) / 2
    });
    net.block = if buckets == 0 { 0 } else { inputs(game) };
    net
}

/// Random weights for a plain net (`buckets` 0) or one with `buckets` king blocks.
fn random_net_with_blocks(game: GameKind, buckets: usize, hidden: usize, seed: u64) -> Network {
    let mut r = SplitMix64::new(seed);
    let mut net = Network::with_weights(game, inputs(game) * buckets.max(1), hidden, |_| {
        (r.below(401) as i16 - 200) / 2
    });
    net.block = if buckets == 0 { 0 } else { inputs(game) };
    net
}

/// Random games, moves played and taken back along the way: after every change the stack's top equals a
/// refresh, and the vector and portable updates agree.
fn incremental_matches_refresh<V: Features + crate::engine::eval::GameEval>(
    seed: u64,
    bucketed: bool,
) {
    let net = if bucketed {
        random_bucketed_net(V::KIND, 32, seed)
    } else {
        random_net(V::KIND, 32, seed)
    };
    incremental_matches_refresh_with::<V>(&net, seed);
}

/// As above, for a given net (debug builds also check each output's vector kernels against the portable ones).
fn incremental_matches_refresh_with<V: Features + crate::engine::eval::GameEval>(
    net: &Network,
    seed: u64,
) {
    let net = net.clone();
    assert!(net.fits::<V>());
    let mut r = SplitMix64::new(seed);
    let (mut captures, mut drops, mut promotions, mut king_moves) = (0, 0, 0, 0);
    for _game in 0..20 {
        let mut pos = Position::<V>::startpos();
        let mut spos = pos.clone();
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
            king_moves += usize::from(!m.is_drop() && m.from() == pos.king(pos.side_to_move()));
            acc.make(&net, &mut pos, m);
            scalar.make_scalar(&net, &mut spos, m);
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
                spos.undo_move();
                scalar.pop();
                assert_eq!(
                    acc.top(),
                    AccumulatorStack::refreshed(&net, &pos).as_slice()
                );
                acc.make(&net, &mut pos, m);
                scalar.make_scalar(&net, &mut spos, m);
            }
        }
    }
    assert!(
        captures > 0 && drops > 0 && promotions > 0 && king_moves > 0,
        "{}: the random games must capture ({captures}), drop ({drops}), promote ({promotions}) and move \
         the king ({king_moves})",
        V::NAME
    );
}

#[test]
fn incremental_accumulator_equals_refresh_in_all_games() {
    incremental_matches_refresh::<Minishogi>(1, false);
    incremental_matches_refresh::<Yari>(2, false);
    incremental_matches_refresh::<Shogi>(3, false);
}

#[test]
fn king_bucketed_accumulator_equals_refresh_in_all_games() {
    incremental_matches_refresh::<Minishogi>(4, true);
    incremental_matches_refresh::<Yari>(5, true);
    incremental_matches_refresh::<Shogi>(6, true);
}

#[test]
fn deep_head_accumulators_equal_refresh_and_outputs_vary() {
    for (i, buckets) in [0, features::KING_BUCKETS].into_iter().enumerate() {
        let seed = 20 + i as u64 * 3;
        incremental_matches_refresh_with::<Minishogi>(
            &random_deep_net(GameKind::Minishogi, buckets, 32, seed),
            seed,
        );
        incremental_matches_refresh_with::<Yari>(
            &random_deep_net(GameKind::Yari, buckets, 32, seed + 1),
            seed + 1,
        );
        incremental_matches_refresh_with::<Shogi>(
            &random_deep_net(GameKind::Shogi, buckets, 64, seed + 2),
            seed + 2,
        );
    }
    // the head is not a constant: positions get different evaluations
    let net = random_deep_net(GameKind::Shogi, 0, 64, 31);
    let mut r = SplitMix64::new(4);
    let mut pos = Position::<Shogi>::startpos();
    let mut seen = std::collections::HashSet::new();
    for _ in 0..40 {
        let moves = pos.legal_moves();
        pos.do_move(moves[r.below(moves.len())]);
        seen.insert(AccumulatorStack::new(&net, &pos).evaluate(&net, &pos));
    }
    assert!(seen.len() > 10, "{seen:?}");
}

#[test]
fn deep_head_kernels_equal_scalar() {
    let mut r = SplitMix64::new(12);
    for n in [32usize, 64, 512, 2048] {
        let acc: Vec<i16> = (0..n).map(|_| r.below(700) as i16 - 200).collect();
        let (mut a, mut b) = (vec![0u8; n], vec![0u8; n]);
        simd::screlu_bytes(&acc, &mut a, false);
        simd::screlu_bytes(&acc, &mut b, true);
        assert_eq!(a, b);
        assert!(a.iter().all(|&x| x <= 127));
        let w: Vec<i8> = (0..32 * n)
            .map(|_| (r.below(256) as i32 - 128) as i8)
            .collect();
        let bias: Vec<i32> = (0..32).map(|_| r.below(20_001) as i32 - 10_000).collect();
        let (mut o1, mut o2) = ([0u8; 32], [0u8; 32]);
        simd::affine_crelu(&a, &w, &bias, &mut o1, false);
        simd::affine_crelu(&a, &w, &bias, &mut o2, true);
        assert_eq!(o1, o2);
        assert_eq!(
            simd::dot_bytes(&a, &w[..n]),
            simd::dot_bytes_scalar(&a, &w[..n])
        );
        // the extremes: activations of 127 against weights of -128 and 127 do not saturate
        let (x, lo, hi) = (vec![127u8; n], vec![-128i8; n], vec![127i8; n]);
        assert_eq!(simd::dot_bytes(&x, &lo), -127 * 128 * n as i32);
        assert_eq!(simd::dot_bytes(&x, &hi), 127 * 127 * n as i32);
    }
    // the byte SCReLU: 255 (1.0) is 127, half of it about a quarter
    let mut out = [0u8; 32];
    let mut acc = [0i16; 32];
    acc[0] = 255;
    acc[1] = 128;
    acc[2] = -5;
    acc[3] = 1000;
    simd::screlu_bytes(&acc, &mut out, false);
    assert_eq!(&out[..4], &[127, 32, 0, 127]);
}

#[test]
fn king_buckets_put_each_perspective_in_its_own_kings_block() {
    // the same pieces, the black king on another square: black's inputs move to another block, white's stay
    let a = Position::<Minishogi>::from_sfen("rbsgk/4p/5/P4/KGSBR b - 1").unwrap();
    let b = Position::<Minishogi>::from_sfen("rbsgk/4p/5/PK3/1GSBR b - 1").unwrap();
    use crate::rules::piece::Color;
    let block = inputs(GameKind::Minishogi) as u32;
    let blocks = |p: &Position<Minishogi>, c: Color| {
        let mut v: Vec<u32> = features::active(p, c, block)
            .iter()
            .map(|f| f / block)
            .collect();
        v.dedup();
        v
    };
    assert_eq!(blocks(&a, Color::Black).len(), 1);
    assert_ne!(blocks(&a, Color::Black), blocks(&b, Color::Black));
    assert_eq!(blocks(&a, Color::White), blocks(&b, Color::White));
    // black's king on 5e (files 4-5 are the outer band, rank e its back rank): bucket 2 × 3 + 0; white's on
    // 1a, seen turned, is the same corner; black's king on 4d, one rank up: bucket 2 × 3 + 1
    assert_eq!(blocks(&a, Color::Black), vec![6]);
    assert_eq!(blocks(&a, Color::White), vec![6]);
    assert_eq!(blocks(&b, Color::Black), vec![7]);
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
            let mut a: Vec<u32> = features::active(&pos, c, 0).to_vec();
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
    let net = random_bucketed_net(GameKind::Minishogi, 32, 6);
    let bytes = file::to_bytes(&net);
    assert_eq!(
        file::from_bytes(&bytes, GameKind::Minishogi, 520).as_ref(),
        Ok(&net)
    );
    // the deep head, plain (architecture 3) and king-bucketed (4)
    for (buckets, arch) in [(0, 3u32), (features::KING_BUCKETS, 4)] {
        let net = random_deep_net(GameKind::Yari, buckets, 32, 8);
        let bytes = file::to_bytes(&net);
        assert_eq!(
            u32::from_le_bytes([bytes[16], bytes[17], bytes[18], bytes[19]]),
            arch
        );
        assert_eq!(
            file::from_bytes(&bytes, GameKind::Yari, 1186).as_ref(),
            Ok(&net)
        );
    }
}

#[test]
fn a_deep_head_bias_beyond_its_limit_is_refused() {
    let mut net = random_deep_net(GameKind::Minishogi, 0, 32, 9);
    if let network::Head::Deep(d) = &mut net.head {
        d.b3[5] = network::DEEP_BIAS_LIMIT + 1;
    }
    let bytes = file::to_bytes(&net);
    assert_eq!(
        file::from_bytes(&bytes, GameKind::Minishogi, 520).unwrap_err(),
        NetError::Bias(network::DEEP_BIAS_LIMIT + 1)
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
    // an output scale out of range is refused, not clamped (found by the net_file fuzz target: a net read with
    // a clamped scale wrote back to other bytes)
    for scale in [0u32, 100_001, u32::MAX] {
        let mut odd = bytes.clone();
        odd[28..32].copy_from_slice(&scale.to_le_bytes());
        assert_eq!(
            file::from_bytes(&odd, GameKind::Minishogi, 520).unwrap_err(),
            NetError::Scale(scale)
        );
    }
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

/// The cap on a net file's length leaves room for the largest net a header can describe.
#[test]
fn the_largest_net_file_fits_under_the_cap() {
    for game in GameKind::ALL {
        let (n, h) = (inputs(game) * features::KING_BUCKETS, file::MAX_HIDDEN);
        let len = file::HEADER_SIZE + 2 * (n * h + 3 * h) + 4;
        assert!(len as u64 <= file::MAX_FILE_BYTES, "{game}: {len}");
    }
}

/// `load` reads regular files of the length their header implies and nothing else, and says why.
#[cfg(unix)]
#[test]
fn load_refuses_what_is_not_a_net_file_of_the_right_length() {
    let dir = std::env::temp_dir().join(format!("hayate-nnue-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let net = random_net(GameKind::Minishogi, 16, 7);
    let bytes = file::to_bytes(&net);
    let good = dir.join("good.nnue");
    std::fs::write(&good, &bytes).unwrap();
    assert_eq!(
        file::load(&good, GameKind::Minishogi, 520).as_ref(),
        Ok(&net)
    );

    let long = dir.join("long.nnue");
    std::fs::write(&long, [&bytes[..], &[0]].concat()).unwrap();
    let fifo = dir.join("pipe.nnue");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let huge = dir.join("huge.nnue");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(file::MAX_FILE_BYTES + 1)
        .unwrap();
    let shown = |p: &std::path::Path| p.display().to_string();
    let cases = [
        (
            long.clone(),
            NetError::Length {
                path: shown(&long),
                len: bytes.len() as u64 + 1,
                header: bytes.len() as u64,
            },
        ),
        (
            fifo.clone(),
            NetError::NotAFile {
                path: shown(&fifo),
                kind: "a named pipe",
            },
        ),
        (
            dir.clone(),
            NetError::NotAFile {
                path: shown(&dir),
                kind: "a directory",
            },
        ),
        (
            "/dev/zero".into(),
            NetError::NotAFile {
                path: "/dev/zero".into(),
                kind: "a character device",
            },
        ),
        (
            huge.clone(),
            NetError::TooLarge {
                path: shown(&huge),
                len: file::MAX_FILE_BYTES + 1,
            },
        ),
    ];
    for (path, want) in cases {
        assert_eq!(
            file::load(&path, GameKind::Minishogi, 520).unwrap_err(),
            want
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
