//! Malformed and illegal USI moves, and move lists that fail part-way.

use super::*;

// ----- moves ----------------------------------------------------------------------------------------------------

fn malformed<V: Variant>(pos: &Position<V>, s: &str) {
    match pos.parse_move(s) {
        Err(MoveError::Malformed(_)) => {}
        other => panic!(
            "{}: parse_move({s:?}) gave {other:?}, not Malformed",
            V::NAME
        ),
    }
}

fn illegal<V: Variant>(pos: &Position<V>, s: &str) {
    match pos.parse_move(s) {
        Err(MoveError::Illegal(echo)) => {
            assert_eq!(echo, s);
            assert!(MoveError::Illegal(echo).to_string().contains("illegal"));
        }
        other => panic!("{}: parse_move({s:?}) gave {other:?}, not Illegal", V::NAME),
    }
}

fn legal<V: Variant>(pos: &Position<V>, s: &str) {
    match pos.parse_move(s) {
        Ok(m) => assert_eq!(move_to_usi::<V>(m), s),
        Err(e) => panic!("{}: parse_move({s:?}) gave {e}", V::NAME),
    }
}

#[test]
fn malformed_moves() {
    let shogi = Position::<Shogi>::startpos();
    for s in [
        "", "zz", "7g7", "0a1b", "P*", "K*5e", "7g7f++", "7g7f+x", "7g7f ", " 7g7f", "7g 7f",
        "7G7F", "7g7g", "7j7i", "a7g7f", "P*5j", "P*0e", "p*5e", "+P*5e", "P*5e+", "*P5e", "P5e",
        "7g-7f", "７g7f", "7g7f\0", "10a1b", "resign",
    ] {
        malformed(&shogi, s);
    }
    assert!(MoveError::Malformed("zz".into())
        .to_string()
        .contains("malformed"));

    let mini = Position::<Minishogi>::startpos();
    for s in [
        "", "zz", "9i1a", "7g7f", "6e5e", "5f5e", "5d5f", "P*6a", "P*1f", "K*3c", "5d5c++", "5d5",
    ] {
        malformed(&mini, s);
    }
    legal(&mini, "5d5c");

    let yari = Position::<Yari>::startpos();
    for s in [
        "", "zz", "8i8h", "9g9f", "1j1i", "1g1j", "N*8e", "P*1j", "7i7h++", "K*4e",
    ] {
        malformed(&yari, s);
    }
    legal(&yari, "7i7h");
    legal(&yari, "1g1f");
}

#[test]
fn illegal_moves() {
    let shogi = Position::<Shogi>::startpos();
    illegal(&shogi, "3c3d"); // gote's pawn, sente to move
    illegal(&shogi, "5i5a"); // no such king move
    illegal(&shogi, "7g7e"); // a pawn moves one step
    illegal(&shogi, "7g7f+"); // promotion outside the zone
    illegal(&shogi, "P*5e"); // nothing in hand
    illegal(&shogi, "5e5d"); // an empty square
    illegal(&shogi, "9i9g"); // onto an own piece
    legal(&shogi, "7g7f");

    // nifu: a second unpromoted pawn on file 5
    let pos = accepts::<Shogi>("4k4/9/9/9/9/9/4P4/9/4K4 b P 1");
    illegal(&pos, "P*5c");
    legal(&pos, "P*4c");
    // dead drops
    let pos = accepts::<Shogi>("4k4/9/9/9/9/9/9/9/4K4 b PLN 1");
    illegal(&pos, "P*1a");
    illegal(&pos, "L*1a");
    illegal(&pos, "N*1b");
    legal(&pos, "N*1c");
    // a pawn drop that mates at once
    let pos = accepts::<Shogi>("8k/9/6NG1/9/9/9/9/9/4K4 b P 1");
    illegal(&pos, "P*1b");
    legal(&pos, "P*1c");
    // leaving the king in check: the gold on 5g is pinned by the rook on 5e
    let pos = accepts::<Shogi>("4k4/9/9/9/4r4/9/4G4/9/4K4 b - 1");
    illegal(&pos, "5g4g");
    legal(&pos, "5g5f");
    // walking into check
    let pos = accepts::<Shogi>("4k4/9/9/9/3r5/9/9/9/4K4 b - 1");
    illegal(&pos, "5i6i");
    legal(&pos, "5i4i");
    // not answering a check
    let pos = accepts::<Shogi>("4k4/9/9/9/4r4/9/9/P8/4K4 b - 1");
    illegal(&pos, "9h9g");
    legal(&pos, "5i4i");
    // a pawn, lance or knight that must promote
    let pos = accepts::<Shogi>("4k4/P8/9/1N7/9/9/9/8L/4K4 b - 1");
    illegal(&pos, "9b9a");
    legal(&pos, "9b9a+");
    illegal(&pos, "8d7b");
    legal(&pos, "8d7b+");
    illegal(&pos, "1h1a");
    legal(&pos, "1h1a+");
    legal(&pos, "1h1c");

    let mini = Position::<Minishogi>::startpos();
    illegal(&mini, "1b1c"); // gote's pawn
    illegal(&mini, "5d5c+"); // rank c is outside minishogi's one-rank zone
    illegal(&mini, "L*3c"); // no lances in minishogi
    let pos = accepts::<Minishogi>("4k/P4/5/5/K4 b P 1");
    illegal(&pos, "5b5a");
    legal(&pos, "5b5a+");
    illegal(&pos, "P*5c"); // nifu
    illegal(&pos, "P*4a"); // dead drop
    let pos = accepts::<Minishogi>("4k/2S2/3G1/5/K4 b P 1");
    illegal(&pos, "P*1b"); // mates

    let yari = Position::<Yari>::startpos();
    illegal(&yari, "1c1d"); // gote's pawn
    illegal(&yari, "7i6i"); // the yari rook's way is blocked by its bishop
    illegal(&yari, "G*4e"); // no golds in Yari
    let pos = accepts::<Yari>("3k3/P6/7/7/7/7/7/2B4/3K3 b P 1");
    illegal(&pos, "7b7a");
    legal(&pos, "7b7a+");
    illegal(&pos, "5h5i"); // the yari bishop never moves backward
    illegal(&pos, "5h4i");
    illegal(&pos, "5h3f"); // nor slides diagonally
    legal(&pos, "5h6g");
    legal(&pos, "5h5c");
    illegal(&pos, "P*7e"); // nifu
    let pos = accepts::<Yari>("6k/3R3/4N2/7/7/7/7/7/3K3 b P 1");
    illegal(&pos, "P*1b"); // mates
}

fn check_play_usi_rolls_back<V: Variant>(start: &str, good: &[&str], bad_at: usize, bad: &str) {
    let mut pos = accepts::<V>(start);
    let (sfen, key, ply) = (pos.to_sfen(), pos.key(), pos.game_ply());
    let mut moves: Vec<&str> = good.to_vec();
    moves.insert(bad_at, bad);
    let err = pos.play_usi_moves(moves.iter().copied());
    assert!(err.is_err(), "{}: {moves:?} was accepted", V::NAME);
    assert_eq!(
        pos.to_sfen(),
        sfen,
        "{}: SFEN after the failed {moves:?}",
        V::NAME
    );
    assert_eq!(
        pos.key(),
        key,
        "{}: key after the failed {moves:?}",
        V::NAME
    );
    assert_eq!(
        pos.game_ply(),
        ply,
        "{}: history after the failed {moves:?}",
        V::NAME
    );
    assert_eq!(pos.key(), pos.compute_key());
    // the position still plays normally
    pos.play_usi_moves(good.iter().copied())
        .unwrap_or_else(|e| panic!("{}: {good:?}: {e}", V::NAME));
    assert_eq!(pos.game_ply(), ply + good.len());
    for _ in good {
        pos.undo_move();
    }
    assert_eq!(pos.to_sfen(), sfen);
    assert_eq!(pos.key(), key);
}

#[test]
fn play_usi_moves_leaves_position_on_error() {
    let good = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"];
    for at in 0..=good.len() {
        check_play_usi_rolls_back::<Shogi>(SHOGI_START, &good, at, "zz");
        check_play_usi_rolls_back::<Shogi>(SHOGI_START, &good, at, "5e5d");
    }
    // an illegal move in the middle: sente's king moved on gote's turn
    check_play_usi_rolls_back::<Shogi>(SHOGI_START, &good, 3, "5i5h");
    // from a position with pieces in hand
    check_play_usi_rolls_back::<Shogi>(
        "4k4/9/9/9/9/9/9/9/4K4 b 2P 1",
        &["P*5c", "5a4a", "5c5b+", "4a5b"],
        2,
        "P*5b",
    );

    let good = ["5e4d", "1a2b", "4d5e", "2b1a", "5e4d"];
    for at in 0..=good.len() {
        check_play_usi_rolls_back::<Minishogi>(MINI_START, &good, at, "5d5c+");
    }
    let good = ["1g1f", "7c7d", "1f1e", "7d7e", "1e1d", "1c1d", "1i1d"];
    for at in 0..=good.len() {
        check_play_usi_rolls_back::<Yari>(YARI_START, &good, at, "1j1i");
    }
    check_play_usi_rolls_back::<Yari>(YARI_START, &good, 7, "P*7f");
}
