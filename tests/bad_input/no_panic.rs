//! Arbitrary and near-miss input never panics.

use super::*;

// ----- no input panics ------------------------------------------------------------------------------------------

/// Feeds `s` to every parser of `V`; whatever they accept must round-trip and play.
fn no_panic<V: Variant>(s: &str) {
    if let Ok(pos) = Position::<V>::from_sfen(s) {
        let sfen = pos.to_sfen();
        let again = Position::<V>::from_sfen(&sfen)
            .unwrap_or_else(|e| panic!("{}: '{s}' was accepted but '{sfen}' is not: {e}", V::NAME));
        assert_eq!(again.to_sfen(), sfen);
        assert_eq!(again.key(), pos.key());
        assert_eq!(pos.key(), pos.compute_key());
        let mut pos = pos;
        for m in pos.legal_moves() {
            pos.do_move(m);
            pos.undo_move();
        }
        assert_eq!(pos.to_sfen(), sfen);
    }
    let start = Position::<V>::startpos();
    if let Ok(m) = start.parse_move(s) {
        assert_eq!(
            move_to_usi::<V>(m),
            s,
            "{}: accepted move is not canonical",
            V::NAME
        );
        assert!(start.is_legal(m));
    }
    let mut pos = start.clone();
    let (sfen, key) = (pos.to_sfen(), pos.key());
    if pos.play_usi_moves(s.split(' ')).is_err() {
        assert_eq!(pos.to_sfen(), sfen);
        assert_eq!(pos.key(), key);
    }
    let _ = hayate::rules::position::notation::parse_usi_move::<V>(s);
}

fn no_panic_all(s: &str) {
    no_panic::<Shogi>(s);
    no_panic::<Minishogi>(s);
    no_panic::<Yari>(s);
}

const SHOGI_BASES: [&str; 5] = [
    SHOGI_START,
    "ln1g3nl/1r1s1kgs1/p1pppp1pp/1p4p2/9/2P6/PPBP1PPPP/3SK2R1/LN1G1GSNL b Bp 13",
    "8k/9/6NG1/9/9/9/9/9/4K4 b 2P 1",
    "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "+P3k2+N+L/9/N8/9/9/9/n8/6p1l/4K4 b 2R2B4G4S15P 1",
];
const MINI_BASES: [&str; 4] = [
    MINI_START,
    "4k/2S2/3G1/5/K4 b P 1",
    "r1sgk/4p/5/P4/KGSBR w - 1",
    "+P3k/5/5/5/K3+p b RBGSrbgs 1",
];
const YARI_BASES: [&str; 4] = [
    YARI_START,
    "6k/3R3/4N2/7/7/7/7/7/3K3 b P 1",
    "3k3/7/7/7/+R+B+N4/7/7/7/3K3 w 3R3B3N14P 1",
    "rnnkbbr/7/pppp1pp/3+P3/7/7/PPPPPPP/7/RBBKNNR b - 1",
];

/// Small edits of valid SFENs: near misses reach the deeper checks of the parser.
fn near_miss(bases: &'static [&'static str]) -> impl Strategy<Value = String> {
    let alphabet: Vec<char> = "0123456789+/ -*bwkKpPlLnNsSgGbBrR".chars().collect();
    (
        prop::sample::select(bases),
        prop::collection::vec(
            (
                any::<prop::sample::Index>(),
                0..3u8,
                prop::sample::select(alphabet),
            ),
            1..3,
        ),
    )
        .prop_map(|(base, edits)| {
            let mut chars: Vec<char> = base.chars().collect();
            for (at, op, c) in edits {
                let i = at.index(chars.len() + 1);
                match op {
                    0 => chars.insert(i, c),
                    1 if i < chars.len() => {
                        chars.remove(i);
                    }
                    _ if i < chars.len() => chars[i] = c,
                    _ => chars.push(c),
                }
            }
            chars.into_iter().collect()
        })
}

pub(crate) fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn arbitrary_strings_never_panic(s in any::<String>()) {
        no_panic_all(&s);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..160)) {
        no_panic_all(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn sfen_alphabet_never_panics(s in "[0-9a-zA-Z+/ *-]{0,90}") {
        no_panic_all(&s);
    }

    #[test]
    fn move_alphabet_never_panics(s in "[0-9a-kA-Z*+]{0,6}") {
        no_panic_all(&s);
    }

}

proptest! {
    #![proptest_config(config(2048))]

    #[test]
    fn near_miss_shogi_sfens_never_panic(s in near_miss(&SHOGI_BASES)) {
        no_panic::<Shogi>(&s);
    }

    #[test]
    fn near_miss_minishogi_sfens_never_panic(s in near_miss(&MINI_BASES)) {
        no_panic::<Minishogi>(&s);
    }

    #[test]
    fn near_miss_yari_sfens_never_panic(s in near_miss(&YARI_BASES)) {
        no_panic::<Yari>(&s);
    }
}
