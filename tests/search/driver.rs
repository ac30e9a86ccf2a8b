//! Determinism, searchmoves, MultiPV, stop.

use super::*;

fn deterministic<V: GameEval>(sfen: &str, d: i32) {
    let p = pos::<V>(sfen);
    let a = search_depth(&p, d);
    let b = search_depth(&p, d);
    assert!(a.nodes > 0);
    assert_eq!(a.nodes, b.nodes, "{} {sfen}", V::NAME);
    assert_eq!(a.best, b.best, "{} {sfen}", V::NAME);
    assert_eq!(a.score, b.score, "{} {sfen}", V::NAME);
    assert_eq!(a.pv, b.pv, "{} {sfen}", V::NAME);
    assert_eq!(a.depth, d);
}

#[test]
fn single_thread_search_is_deterministic() {
    deterministic::<Shogi>(
        "lnsgk1snl/5g1s1/+Rp1ppp1pp/2p3p2/7b1/1P7/P2PPPPPP/2G1KSGR1/LN+b4NL w Pp 20",
        6,
    );
    deterministic::<Minishogi>("rbsgk/4p/5/P4/KGSBR b - 1", 7);
    deterministic::<Yari>(
        "4br1/r1nk1b1/pnp2p1/3pp1p/1p5/PPP2P1/R2PP1P/1BB1NNR/4K2 b - 23",
        6,
    );
}

/// A searcher keeps what it learnt about move ordering from one search to the next, and `clear` forgets it with
/// the table: after `clear` a used searcher searches exactly like a new one (the bench's node counts rely on it).
#[test]
fn clear_makes_a_used_searcher_search_like_a_new_one() {
    let sfen = "lnsgk1snl/5g1s1/+Rp1ppp1pp/2p3p2/7b1/1P7/P2PPPPPP/2G1KSGR1/LN+b4NL w Pp 20";
    let p = pos::<Shogi>(sfen);
    let fresh = search_depth(&p, 6);
    let mut s = Searcher::new(1, HASH_MB);
    let other = pos::<Shogi>("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    search(&s, &other, &depth(7), &|_| {});
    s.clear();
    let again = search(&s, &p, &depth(6), &|_| {});
    assert_eq!(
        (again.nodes, again.best, again.score),
        (fresh.nodes, fresh.best, fresh.score)
    );
}

fn searchmoves<V: GameEval>(sfen: &str) {
    let p = pos::<V>(sfen);
    let all = search_depth(&p, 5).best.unwrap();
    // two moves other than the unrestricted choice
    let wanted: Vec<Move> = p
        .legal_moves()
        .iter()
        .copied()
        .filter(|&m| m != all)
        .rev()
        .take(2)
        .collect();
    let infos = Mutex::new(Vec::<Info>::new());
    let s = Searcher::new(1, HASH_MB);
    let limits = Limits {
        depth: Some(5),
        searchmoves: wanted.clone(),
        multipv: 1,
        ..Limits::default()
    };
    let r = search(&s, &p, &limits, &|i| infos.lock().unwrap().push(i.clone()));
    let best = r.best.unwrap();
    assert!(
        wanted.contains(&best),
        "{} {sfen}: {} not among the searchmoves",
        V::NAME,
        usi::<V>(best)
    );
    let infos = infos.into_inner().unwrap();
    assert!(!infos.is_empty());
    for i in &infos {
        assert!(
            wanted.contains(&i.pv[0]),
            "{}: info pv {}",
            V::NAME,
            line::<V>(&i.pv)
        );
    }
}

#[test]
fn searchmoves_limit_the_root_moves() {
    searchmoves::<Shogi>(Shogi::START_SFEN);
    searchmoves::<Minishogi>(Minishogi::START_SFEN);
    searchmoves::<Yari>(Yari::START_SFEN);
}

/// Searches to depth 5 with MultiPV 3 and returns the last report of each line at depth 5.
fn multipv<V: GameEval>(sfen: &str) -> Vec<Info> {
    let p = pos::<V>(sfen);
    let infos = Mutex::new(Vec::<Info>::new());
    let s = Searcher::new(1, HASH_MB);
    let limits = Limits {
        depth: Some(5),
        multipv: 3,
        ..Limits::default()
    };
    let r = search(&s, &p, &limits, &|i| infos.lock().unwrap().push(i.clone()));
    let infos = infos.into_inner().unwrap();
    let last_depth = infos.iter().map(|i| i.depth).max().unwrap();
    assert_eq!(last_depth, 5);
    // the last report of each line at the last depth
    let mut lines: Vec<Option<&Info>> = vec![None; 3];
    for i in infos.iter().filter(|i| i.depth == last_depth) {
        assert!((1..=3).contains(&i.multipv), "multipv {}", i.multipv);
        lines[i.multipv - 1] = Some(i);
    }
    let lines: Vec<&Info> = lines
        .into_iter()
        .map(|l| l.expect("a report for each of the 3 lines"))
        .collect();
    let firsts: Vec<Move> = lines.iter().map(|i| i.pv[0]).collect();
    assert!(
        firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
        "{} {sfen}: lines {:?}",
        V::NAME,
        firsts.iter().map(|&m| usi::<V>(m)).collect::<Vec<_>>()
    );
    for l in &lines {
        let mut q = p.clone();
        for &m in &l.pv {
            assert!(q.is_legal(m), "{}: line {}", V::NAME, line::<V>(&l.pv));
            q.do_move(m);
        }
    }
    assert_eq!(r.best, Some(firsts[0]));
    lines.into_iter().cloned().collect()
}

#[test]
fn multipv_reports_three_distinct_root_moves() {
    multipv::<Shogi>(Shogi::START_SFEN);
    multipv::<Minishogi>(Minishogi::START_SFEN);
    multipv::<Yari>(Yari::START_SFEN);
}

#[test]
fn multipv_lines_are_ordered_by_score() {
    fn ordered<V: GameEval>(sfens: &[&str]) -> Vec<String> {
        let mut bad = Vec::new();
        for sfen in sfens {
            let lines = multipv::<V>(sfen);
            let scores: Vec<i32> = lines.iter().map(|l| l.score).collect();
            if !scores.windows(2).all(|w| w[0] >= w[1]) {
                bad.push(format!("{} {sfen}: scores by line {scores:?}", V::NAME));
            }
        }
        bad
    }
    let mut bad = ordered::<Shogi>(&hayate::engine::bench::SHOGI_POSITIONS);
    bad.extend(ordered::<Minishogi>(
        &hayate::engine::bench::MINISHOGI_POSITIONS,
    ));
    bad.extend(ordered::<Yari>(&hayate::engine::bench::YARI_POSITIONS));
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

fn stop_infinite<V: GameEval>(sfen: &str) {
    let p = pos::<V>(sfen);
    let s = Searcher::new(1, HASH_MB);
    let c = s.control();
    let limits = Limits {
        infinite: true,
        multipv: 1,
        ..Limits::default()
    };
    std::thread::scope(|scope| {
        let h = scope.spawn(|| search(&s, &p, &limits, &|_| {}));
        std::thread::sleep(Duration::from_millis(300));
        assert!(
            !h.is_finished(),
            "{}: an infinite search ended by itself",
            V::NAME
        );
        let t = Instant::now();
        c.stop();
        let r = h.join().unwrap();
        let took = t.elapsed();
        assert!(
            took < Duration::from_millis(100),
            "{}: {took:?} to stop",
            V::NAME
        );
        let best = r.best.expect("a best move");
        assert!(p.is_legal(best));
        assert!(r.depth >= 1);
    });
}

#[test]
fn infinite_search_stops_promptly() {
    stop_infinite::<Shogi>(Shogi::START_SFEN);
    stop_infinite::<Minishogi>(Minishogi::START_SFEN);
    stop_infinite::<Yari>(Yari::START_SFEN);
}

/// A stop read by the front end after `go` but before the search thread has begun ends that search (an infinite
/// one would otherwise wait for a stop that has come and gone); it does not carry over into the next search.
#[test]
fn a_stop_before_the_search_begins_is_kept_for_it_only() {
    let p = pos::<Shogi>(Shogi::START_SFEN);
    let s = Searcher::new(1, HASH_MB);
    let limits = Limits {
        infinite: true,
        multipv: 1,
        ..Limits::default()
    };
    s.control().stop();
    std::thread::scope(|scope| {
        let h = scope.spawn(|| search(&s, &p, &limits, &|_| {}));
        let t = Instant::now();
        while !h.is_finished() && t.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert!(
            h.is_finished(),
            "the stop sent before the search began was lost"
        );
        let r = h.join().unwrap();
        assert!(p.is_legal(r.best.expect("a move")));
    });
    let r = search(&s, &p, &depth(3), &|_| {});
    assert_eq!(r.depth, 3, "the stop of the previous search ended this one");
}
