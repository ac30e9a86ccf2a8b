//! Legality of the search's answers, and the answer without a legal move.

use super::*;

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
