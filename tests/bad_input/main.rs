//! Malformed and rule-breaking input: SFENs and USI moves must be rejected with the right typed error and a
//! message that names the problem, a failed `play_usi_moves` must leave the position untouched, and no input at
//! all may make the parsers panic.

// a test fails by panicking: unwrap is how it states what must succeed (the library keeps to [lints])
#![allow(clippy::unwrap_used)]

use hayate::rules::piece::Color;
use hayate::rules::position::notation::{move_to_usi, MoveError};
use hayate::rules::position::sfen::SfenError;
use hayate::{Minishogi, Position, Shogi, Variant, Yari};
use proptest::prelude::*;
use proptest::test_runner::Config;

const SHOGI_START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const MINI_START: &str = "rbsgk/4p/5/P4/KGSBR b - 1";
const YARI_START: &str = "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1";

/// The error `from_sfen` gives; fails the test if it accepts the SFEN.
fn sfen_err<V: Variant>(sfen: &str) -> SfenError {
    match Position::<V>::from_sfen(sfen) {
        Ok(p) => panic!("{} accepted '{sfen}' as {}", V::NAME, p.to_sfen()),
        Err(e) => e,
    }
}

/// Asserts the exact error and that its message contains each of `words` (case-insensitive).
fn rejects<V: Variant>(sfen: &str, expected: SfenError, words: &[&str]) {
    let e = sfen_err::<V>(sfen);
    assert_eq!(e, expected, "{} on '{sfen}'", V::NAME);
    let msg = e.to_string().to_lowercase();
    for w in words {
        assert!(
            msg.contains(&w.to_lowercase()),
            "{} on '{sfen}': message '{msg}' does not mention '{w}'",
            V::NAME
        );
    }
}

/// Asserts the error matches `pred` and that its message contains each of `words`.
fn rejects_with<V: Variant>(sfen: &str, pred: impl Fn(&SfenError) -> bool, words: &[&str]) {
    let e = sfen_err::<V>(sfen);
    assert!(pred(&e), "{} on '{sfen}': unexpected error {e:?}", V::NAME);
    let msg = e.to_string().to_lowercase();
    for w in words {
        assert!(
            msg.contains(&w.to_lowercase()),
            "{} on '{sfen}': message '{msg}' does not mention '{w}'",
            V::NAME
        );
    }
}

fn accepts<V: Variant>(sfen: &str) -> Position<V> {
    Position::<V>::from_sfen(sfen).unwrap_or_else(|e| panic!("{} rejected '{sfen}': {e}", V::NAME))
}

fn dead(piece: &str, square: &str) -> SfenError {
    SfenError::DeadPiece {
        piece: piece.into(),
        square: square.into(),
    }
}

mod moves;
mod no_panic;
mod records;
mod sfen;
