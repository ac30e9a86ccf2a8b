//! Repetition by each game's rule, and the search's use of it.

use super::*;

/// The cycles played from `base`: kings only (no check), one side checking with every move, and the same side
/// checking with only some of its moves. Each has five moves: the fourth ends the first repetition (the mover's
/// opponent to move), the fifth the next one.
struct Cycles {
    base: &'static str,
    quiet: [&'static str; 5],
    perpetual: [&'static str; 5],
    mixed: [&'static str; 5],
}

/// What a repetition without perpetual check means for the side to move.
fn plain<V: Variant>(side: Color) -> Repetition {
    if V::KIND == GameKind::Minishogi {
        match side {
            Color::Black => Repetition::Loss,
            Color::White => Repetition::Win,
        }
    } else {
        Repetition::Draw
    }
}

/// Plays `moves` from `base` and checks `repetition` after each: none before the fourth move, then the expected
/// value for the side to move.
fn check_cycle<V: Variant>(
    base: &str,
    moves: &[String],
    expect: impl Fn(usize, Color) -> Repetition,
) {
    let mut p = pos::<V>(base);
    for (i, m) in moves.iter().enumerate() {
        let mv = p
            .parse_move(m)
            .unwrap_or_else(|e| panic!("{} {base}: {m}: {e}", V::NAME));
        p.do_move(mv);
        let n = i + 1;
        let want = if n < 4 {
            Repetition::None
        } else {
            expect(n, p.side_to_move())
        };
        assert_eq!(
            p.repetition(32),
            want,
            "{} {base} after {:?} ({:?} to move)",
            V::NAME,
            &moves[..n],
            p.side_to_move()
        );
        if n >= 4 {
            // the earlier occurrence lies four plies back: a window of three plies misses it
            assert_eq!(p.repetition(3), Repetition::None);
        }
    }
}

fn check_repetitions<V: Variant>(c: &Cycles) {
    for flipped in [false, true] {
        let base = if flipped {
            flip_sfen(c.base)
        } else {
            c.base.to_string()
        };
        let moves = |ms: &[&str]| -> Vec<String> {
            ms.iter()
                .map(|m| {
                    if flipped {
                        flip_move::<V>(m)
                    } else {
                        m.to_string()
                    }
                })
                .collect()
        };
        check_cycle::<V>(&base, &moves(&c.quiet), |_, side| plain::<V>(side));
        check_cycle::<V>(&base, &moves(&c.mixed), |_, side| plain::<V>(side));
        // after the 4th move the checker is to move and loses; after the 5th the checked side wins
        check_cycle::<V>(&base, &moves(&c.perpetual), |n, side| {
            let checker = if flipped { Color::White } else { Color::Black };
            assert_eq!(side == checker, n == 4);
            if side == checker {
                Repetition::Loss
            } else {
                Repetition::Win
            }
        });
    }
}

#[test]
fn repetition_shogi() {
    check_repetitions::<Shogi>(&Cycles {
        base: "8k/R8/9/9/9/9/9/9/4K4 b - 1",
        quiet: ["5i5h", "1a2a", "5h5i", "2a1a", "5i5h"],
        perpetual: ["9b9a", "1a1b", "9a9b", "1b1a", "9b9a"],
        mixed: ["9b9c", "1a1b", "9c9b", "1b1a", "9b9c"],
    });
    // the start position comes back
    let p = play::<Shogi>(Shogi::START_SFEN, &["5i5h", "5a5b", "5h5i", "5b5a"]);
    assert_eq!(p.repetition(32), Repetition::Draw);
}

#[test]
fn repetition_minishogi() {
    check_repetitions::<Minishogi>(&Cycles {
        base: "4k/R4/5/5/2K2 b - 1",
        quiet: ["3e3d", "1a2a", "3d3e", "2a1a", "3e3d"],
        perpetual: ["5b5a", "1a1b", "5a5b", "1b1a", "5b5a"],
        mixed: ["5b5c", "1a1b", "5c5b", "1b1a", "5b5c"],
    });
    let p = play::<Minishogi>(Minishogi::START_SFEN, &["5e4d", "1a2b", "4d5e", "2b1a"]);
    assert_eq!(p.repetition(32), Repetition::Loss);
}

#[test]
fn repetition_yarishogi() {
    check_repetitions::<Yari>(&Cycles {
        // a promoted yari rook moves as a rook, backward included
        base: "6k/+R6/7/7/7/7/7/7/3K3 b - 1",
        quiet: ["4i4h", "1a2a", "4h4i", "2a1a", "4i4h"],
        perpetual: ["7b7a", "1a1b", "7a7b", "1b1a", "7b7a"],
        mixed: ["7b7c", "1a1b", "7c7b", "1b1a", "7b7c"],
    });
    let p = play::<Yari>(Yari::START_SFEN, &["4i4h", "4a4b", "4h4i", "4b4a"]);
    assert_eq!(p.repetition(32), Repetition::Draw);
}

/// Searches `moves` played from `sfen` to depth 4, the root moves limited to `only` when given.
fn search_after<V: GameEval>(sfen: &str, moves: &[&str], only: Option<&str>) -> SearchResult {
    let p = play::<V>(sfen, moves);
    let mut limits = depth(4);
    if let Some(m) = only {
        limits.searchmoves = vec![p.parse_move(m).unwrap()];
    }
    let s = Searcher::new(1, HASH_MB);
    search(&s, &p, &limits, &|_| {})
}

#[test]
fn search_scores_repetition_by_the_games_rule() {
    // Minishogi: White, to move in a balanced position, returns the king to 1a and repeats the start position with
    // sente to move: sente loses, so this is a win at once, not a draw.
    let r = search_after::<Minishogi>(Minishogi::START_SFEN, &["5e4d", "1a2b", "4d5e"], None);
    assert_eq!(r.best.map(usi::<Minishogi>).as_deref(), Some("2b1a"));
    assert_eq!(r.score, MATE - 1);

    // Sente must not repeat: from White's start (gote moves first), 4d5e would bring it back with gote to move.
    let white_first = "rbsgk/4p/5/P4/KGSBR w - 1";
    let moves = ["1a2b", "5e4d", "2b1a"];
    let r = search_after::<Minishogi>(white_first, &moves, Some("4d5e"));
    assert_eq!(r.score, -(MATE - 1));
    let r = search_after::<Minishogi>(white_first, &moves, None);
    assert_ne!(r.best.map(usi::<Minishogi>).as_deref(), Some("4d5e"));
    assert!(r.score > -MATE_BOUND, "score {}", r.score);

    // In shogi and Yari shogi the same repetition is a draw.
    let r = search_after::<Shogi>(Shogi::START_SFEN, &["5i4h", "5a6b", "4h5i"], Some("6b5a"));
    assert_eq!(r.score, 0);
    let r = search_after::<Yari>(Yari::START_SFEN, &["4i4h", "4a4b", "4h4i"], Some("4b4a"));
    assert_eq!(r.score, 0);
}
