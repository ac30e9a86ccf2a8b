//! The KIF record of a finished game of `hayate match`, written beside its CSA record (issue 53).

use std::time::{SystemTime, UNIX_EPOCH};

use crate::host::records::RecordLine;
use crate::rules::notation::header::encode_shift_jis;
use crate::rules::notation::kif::{self, KifGame};
use crate::rules::piece::Color;
use crate::Variant;

/// The game as KIF (9×9 shogi and minishogi; None for Yari shogi, which has no KIF, or an unreadable record),
/// each move's time as in `times_ms`, the game's start (開始日時) as `started`.
pub fn kif_text<V: Variant>(
    rec: &RecordLine,
    names: [&str; 2],
    times_ms: &[Option<u64>],
    started: Option<SystemTime>,
) -> Option<String> {
    let mut game = KifGame::new(V::KIND, &rec.start_sfen, rec.moves.clone());
    game.names = names.map(str::to_string);
    game.headers = started
        .map(|t| ("開始日時".to_string(), date_text(t)))
        .into_iter()
        .chain([("棋戦".to_string(), "hayate match".to_string())])
        .collect();
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
    started: Option<SystemTime>,
) -> Option<(&'static str, Vec<u8>)> {
    let text = kif_text::<V>(rec, names, times_ms, started)?;
    Some(match encode_shift_jis(&text) {
        Some(bytes) => ("kif", bytes),
        None => ("kifu", text.into_bytes()),
    })
}

/// `2024/05/01 10:00:00`, as KIF writes 開始日時: local time where the C library tells it (Linux), else UTC.
fn date_text(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    #[cfg(target_os = "linux")]
    if let Ok(tt) = libc::time_t::try_from(secs) {
        // SAFETY: `tm` is a plain C struct for which all zeros is a valid value
        let mut tm: libc::tm = unsafe { std::mem::zeroed() };
        // SAFETY: localtime_r reads `tt` and writes only into `tm`, both live locals
        if !unsafe { libc::localtime_r(&tt, &mut tm) }.is_null() {
            return format!(
                "{:04}/{:02}/{:02} {:02}:{:02}:{:02}",
                tm.tm_year + 1900,
                tm.tm_mon + 1,
                tm.tm_mday,
                tm.tm_hour,
                tm.tm_min,
                tm.tm_sec
            );
        }
    }
    utc_text(secs)
}

/// The UTC date and time of seconds since 1970, by the civil date of a day count (Howard Hinnant's
/// civil_from_days).
fn utc_text(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let s = secs % 86_400;
    format!(
        "{year:04}/{month:02}/{day:02} {:02}:{:02}:{:02}",
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn dates_read_as_kif_writes_them() {
        let t = UNIX_EPOCH + Duration::from_secs(1_714_557_600); // 2024-05-01 10:00:00 UTC
        let text = date_text(t);
        assert_eq!(text.len(), 19, "{text}");
        assert_eq!(text.chars().filter(|&c| c == '/').count(), 2, "{text}");
        assert!(text.starts_with("2024/05/0"), "{text}");
        assert_eq!(utc_text(1_714_557_600), "2024/05/01 10:00:00");
        assert_eq!(utc_text(951_782_400), "2000/02/29 00:00:00");
        assert_eq!(utc_text(0), "1970/01/01 00:00:00");
    }
}
