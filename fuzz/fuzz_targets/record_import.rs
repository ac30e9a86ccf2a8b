//! Arbitrary text through every record importer: the web GUI's paste box (SFEN, `position ...`, a bare USI move
//! list, a games.txt line, CSA, KIF, KI2), the games.txt line reader, the live record reader of `hayate match`,
//! and the bytes as a KIF file (Shift_JIS or UTF-8).
//!
//! Run with `cargo +nightly fuzz run record_import -- -dict=fuzz/records.dict` from the repository root.
//! Besides "never panics", it checks:
//! - an accepted import is a game the rules core replays from its start to the same position;
//! - what is exported (sfen, usi, KIF and KI2 for 9×9 and minishogi, and for a finished game the record line
//!   and, 9×9, CSA) imports back equal;
//! - a games.txt line or live record that parses prints back to text that parses to the same record.
#![no_main]

use hayate::gui::formats::{export, import, Notes};
use hayate::gui::record::Record;
use hayate::host::records::{LiveGame, RecordLine};
use hayate::rules::notation::header::decode;
use hayate::rules::notation::kif;
use hayate::GameKind;
use libfuzzer_sys::fuzz_target;

/// Imports longer than this are not tried: an import is linear, but the fuzzer should spend its time on shapes.
const MAX_TEXT: usize = 4096;

fn same_game(a: &Record, b: &Record, what: &str) {
    assert_eq!(
        (&a.start_sfen, &a.moves, a.kind),
        (&b.start_sfen, &b.moves, b.kind),
        "{what}"
    );
}

fn check_import(text: &str, current: GameKind) {
    let Ok((rec, notes)) = import(text, current) else {
        return;
    };
    let again = Record::new(rec.kind, Some(&rec.start_sfen))
        .and_then(|r| r.with_moves(rec.moves.iter().map(String::as_str)))
        .expect("an accepted import replays");
    assert_eq!(again.sfen(), rec.sfen(), "replay of {text:?}");
    let names = ["Sente".to_string(), "Gote".to_string()];
    let usi = export(&rec, "usi", &names, &Notes::default()).expect("usi export");
    same_game(
        &import(&usi, GameKind::Shogi).expect("usi re-import").0,
        &rec,
        &usi,
    );
    let sfen = export(&rec, "sfen", &names, &Notes::default()).expect("sfen export");
    assert_eq!(
        import(&sfen, GameKind::Shogi)
            .expect("sfen re-import")
            .0
            .sfen(),
        rec.sfen(),
        "{sfen}"
    );
    for format in ["kif", "ki2"] {
        // with the record's own notes (times, comments, header fields, its ending) as the page exports it
        if let Ok(text) = export(&rec, format, &names, &notes) {
            same_game(
                &import(&text, GameKind::Yari).expect("KIF re-import").0,
                &rec,
                &text,
            );
        }
    }
    if rec.ending.is_some() {
        let line = export(&rec, "record", &names, &Notes::default()).expect("record export");
        let back = import(&line, GameKind::Shogi).expect("record re-import").0;
        assert_eq!(
            (&back.start_sfen, &back.moves),
            (&rec.start_sfen, &rec.moves),
            "{line}"
        );
        if let Ok(csa) = export(&rec, "csa", &names, &Notes::default()) {
            let back = import(&csa, GameKind::Minishogi).expect("csa re-import").0;
            assert_eq!(
                (&back.start_sfen, &back.moves),
                (&rec.start_sfen, &rec.moves),
                "{csa}"
            );
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if text.len() > MAX_TEXT {
        return;
    }
    for kind in GameKind::ALL {
        check_import(&text, kind);
    }
    for line in text.lines().take(8) {
        if let Ok(r) = RecordLine::parse(line) {
            let printed = r.format();
            let again = RecordLine::parse(&printed).expect("a printed record line parses");
            assert_eq!(again.format(), printed);
        }
    }
    if let Ok(text) = decode(data, Some("kif")) {
        let _ = kif::read(&text);
    }
    if let Ok(live) = LiveGame::parse(&text) {
        let printed = live.format();
        let again = LiveGame::parse(&printed).expect("a printed live record parses");
        assert_eq!(again.format(), printed);
    }
});
