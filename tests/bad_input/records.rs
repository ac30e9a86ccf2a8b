//! The games.txt line and live record readers of `hayate match` (also the web GUI's watcher's): any text parses
//! or is refused, never a panic, and what parses prints back to text that parses equal.

use hayate::host::judge::{Outcome, Reason};
use hayate::host::records::{LiveGame, RecordLine};
use hayate::{Minishogi, Variant};
use proptest::prelude::*;

use super::no_panic::config;

fn reason() -> impl Strategy<Value = Reason> {
    prop::sample::select(Reason::ALL.to_vec())
}

fn outcome() -> impl Strategy<Value = Outcome> {
    prop::sample::select(vec![Outcome::BlackWins, Outcome::WhiteWins, Outcome::Draw])
}

proptest! {
    #![proptest_config(config(3000))]

    /// Any text is a record line or an error, never a panic; a line that parses prints back to one
    /// that parses equal.
    #[test]
    fn record_lines_parse_or_refuse(text in "((1-0|0-1|1/2-1/2|\\*) )?[a-z-]{0,12}( sfen)?[ -~éあ]{0,80}") {
        if let Ok(r) = RecordLine::parse(&text) {
            let printed = r.format();
            prop_assert_eq!(RecordLine::parse(&printed).map(|x| x.format()), Ok(printed));
        }
    }

    /// Any text is a live record or an error; one that parses prints back to one that parses equal.
    #[test]
    fn live_records_parse_or_refuse(
        lines in prop::collection::vec(
            "(game [0-9]{1,3}|sente [ -~é]{0,8}|gote [ -~]{0,8}|clocks [0-9 -]{0,12}|scores [0-9 -]{0,16}|\\* playing sfen [ -~]{0,60}|[ -~あ]{0,20})",
            0..8,
        ),
    ) {
        let text = lines.join("\n");
        if let Ok(g) = LiveGame::parse(&text) {
            let printed = g.format();
            prop_assert_eq!(LiveGame::parse(&printed).map(|x| x.format()), Ok(printed));
        }
    }

    /// Every finished game's line imports back to the same game, whatever the outcome and reason.
    #[test]
    fn formatted_lines_read_back(
        outcome in outcome(),
        reason in reason(),
        moves in prop::sample::subsequence(vec!["3e3d", "1a1b", "3d3c", "1b1a"], 0..=4),
    ) {
        let line = RecordLine {
            outcome,
            reason,
            start_sfen: Minishogi::START_SFEN.to_string(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
        };
        let back = RecordLine::parse(&line.format()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(
            (back.outcome, back.reason, &back.start_sfen, &back.moves),
            (outcome, reason, &line.start_sfen, &line.moves)
        );
    }
}
