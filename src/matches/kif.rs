//! The KIF record of a finished game of `hayate match`, written beside its CSA record (issue 53).

use super::record::RecordLine;
use crate::rules::notation::header::encode_shift_jis;
use crate::rules::notation::kif::{self, KifGame};
use crate::rules::piece::Color;
use crate::Variant;

/// The game as KIF (9×9 shogi and minishogi; None for Yari shogi, which has no KIF, or an unreadable record),
/// each move's time as in `times_ms`.
pub fn kif_text<V: Variant>(
    rec: &RecordLine,
    names: [&str; 2],
    times_ms: &[Option<u64>],
) -> Option<String> {
    let mut game = KifGame::new(V::KIND, &rec.start_sfen, rec.moves.clone());
    game.names = names.map(str::to_string);
    game.headers = vec![("棋戦".to_string(), "hayate match".to_string())];
    game.times_ms = (0..rec.moves.len())
        .map(|i| times_ms.get(i).copied().flatten())
        .collect();
    let black_first = rec.start_sfen.split_whitespace().nth(1) == Some("b");
    let to_move = if black_first == rec.moves.len().is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    };
    game.ending = Some(rec.reason.kif_ending(rec.outcome, to_move));
    kif::write(&game).ok()
}

/// The KIF file of a game: `.kif` in Shift_JIS, as the tools expect, or `.kifu` in UTF-8 where a name has a
/// character Shift_JIS lacks.
pub(super) fn kif_file<V: Variant>(
    rec: &RecordLine,
    names: [&str; 2],
    times_ms: &[Option<u64>],
) -> Option<(&'static str, Vec<u8>)> {
    let text = kif_text::<V>(rec, names, times_ms)?;
    Some(match encode_shift_jis(&text) {
        Some(bytes) => ("kif", bytes),
        None => ("kifu", text.into_bytes()),
    })
}
