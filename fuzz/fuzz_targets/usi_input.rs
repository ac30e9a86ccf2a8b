//! Arbitrary bytes, read as lines, fed to the parsers of USI input that never block: `Position::from_sfen`,
//! `Position::parse_move` / `play_usi_moves` and `hayate::usi::parse_go`, for each of the three games.
//!
//! Run with `cargo +nightly fuzz run usi_input -- -dict=fuzz/usi.dict` from the repository root. Besides "never panics", it checks:
//! - an accepted SFEN prints back (`to_sfen`) to an SFEN that parses to the same position and key;
//! - a move `parse_move` accepts is one of `legal_moves()` and prints back (`move_to_usi`) to the same text
//!   when it was written canonically, and `do_move` / `undo_move` restore the position;
//! - a `play_usi_moves` that fails leaves the position as it was;
//! - `parse_go` keeps `depth` within 1..=127 and `nodes` at least 1.
#![no_main]

use hayate::rules::position::notation::move_to_usi;
use hayate::{Minishogi, Position, Shogi, Variant, Yari};
use libfuzzer_sys::fuzz_target;

/// At most this many words of a line are tried as moves, so that one input stays fast.
const MAX_WORDS: usize = 64;

fn check_sfen<V: Variant>(line: &str) -> Option<Position<V>> {
    let pos = Position::<V>::from_sfen(line).ok()?;
    let sfen = pos.to_sfen();
    let again = Position::<V>::from_sfen(&sfen).unwrap_or_else(|e| {
        panic!(
            "{}: to_sfen gave '{sfen}' that from_sfen rejects: {e}",
            V::NAME
        )
    });
    assert_eq!(again.to_sfen(), sfen, "{}: SFEN round trip", V::NAME);
    assert_eq!(
        again.key(),
        pos.key(),
        "{}: key after SFEN round trip",
        V::NAME
    );
    Some(pos)
}

fn check_moves<V: Variant>(pos: &mut Position<V>, words: &[&str]) {
    let legal = pos.legal_moves();
    let before = pos.to_sfen();
    let key = pos.key();
    for w in words {
        let Ok(m) = pos.parse_move(w) else {
            continue;
        };
        assert!(
            legal.contains(&m),
            "{}: '{w}' accepted but not generated in {before}",
            V::NAME
        );
        let text = move_to_usi::<V>(m);
        assert_eq!(
            pos.parse_move(&text),
            Ok(m),
            "{}: '{text}' does not parse back",
            V::NAME
        );
        pos.do_move(m);
        pos.undo_move();
        assert_eq!(pos.to_sfen(), before, "{}: do/undo of {text}", V::NAME);
        assert_eq!(pos.key(), key, "{}: key after do/undo of {text}", V::NAME);
    }
    // the whole line as a move sequence: all of it or nothing
    match pos.play_usi_moves(words.iter().copied()) {
        Ok(()) => {
            // keep going from there, but not past the move limit of one game
            if pos.game_ply() > 512 {
                *pos = Position::<V>::from_sfen(&before).expect("it parsed before");
            }
        }
        Err(_) => {
            assert_eq!(
                pos.to_sfen(),
                before,
                "{}: a failed play_usi_moves moved",
                V::NAME
            );
            assert_eq!(
                pos.key(),
                key,
                "{}: key after a failed play_usi_moves",
                V::NAME
            );
        }
    }
}

/// One game: every line is tried as an SFEN (an accepted one becomes the current position) and its words as
/// moves in the current position.
fn run<V: Variant>(lines: &[&str]) {
    let mut pos = Position::<V>::startpos();
    for line in lines {
        if let Some(p) = check_sfen::<V>(line) {
            pos = p;
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().take(MAX_WORDS).collect();
        check_moves(&mut pos, &words);
    }
}

fn check_go(line: &str) {
    let words: Vec<&str> = line.split_whitespace().collect();
    if let Ok(req) = hayate::usi::parse_go(&words) {
        if let Some(d) = req.limits.depth {
            assert!((1..=127).contains(&d), "depth {d} from '{line}'");
        }
        if let Some(n) = req.limits.nodes {
            assert!(n >= 1, "nodes {n} from '{line}'");
        }
    }
    // as the front end calls it: the words after `go`
    if words.first() == Some(&"go") {
        let _ = hayate::usi::parse_go(&words[1..]);
    }
}

fuzz_target!(|data: &[u8]| {
    // the front end refuses lines that are not UTF-8; read the rest as it does
    let text = String::from_utf8_lossy(data);
    let lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.trim_end_matches('\r'))
        .take(32)
        .collect();
    for line in &lines {
        check_go(line);
    }
    run::<Shogi>(&lines);
    run::<Minishogi>(&lines);
    run::<Yari>(&lines);
});
