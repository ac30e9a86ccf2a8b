//! Game records, written by `hayate match` and read by the web GUI (import, `--watch`): one line per game
//! (`games_txt`), `<result> <reason> sfen <start> moves <m1> <m2> ...`, replayable with the library; CSA files for
//! standard shogi (KIF files for standard shogi and minishogi are `matches::kif`, from `rules::notation`).
//!
//! `<result>` is `1-0` (sente won), `0-1` (gote won) or `1/2-1/2`; `<reason>` is one of the words of
//! [`Reason::as_str`]; `<start>` is the four-field SFEN the game started from (an opening's moves, if any, are at
//! the head of the move list). The word `moves` is always there, even with no move after it.
//!
//! While a match with `--out DIR` runs, each game in progress also has a live record, `DIR/live/<n>.txt` (`n` the
//! game's 1-based number, as in `0001.csa`), rewritten after every move through a temporary file and a rename, so
//! that a reader never sees half a file ([`LiveGame`]):
//!
//! ```text
//! game 3
//! sente <name of the engine playing sente>
//! gote <name of the engine playing gote>
//! clocks <sente's ms left> <gote's ms left>
//! scores <s1> <s2> ...
//! * playing sfen <start> moves <m1> <m2> ...
//! ```
//!
//! The `clocks` line is there only when an engine plays on a clock; `scores` has one word per move, the score in
//! centipawns (a mate as ±100000) that the mover's engine gave last before playing it, turned to sente's side, or
//! `-` where there is none (an opening move), and is left out when no move has one. The last line is a record line whose result
//! and reason are `*` and `playing` while the game runs; once it is over they are the game's, until the game's
//! line is in `games.txt` (which keeps game order, so a game may wait there for an earlier one) and the live file
//! is removed. At the end of the match the `live` folder is removed.
//!
//! The files: `games_txt` (the record line), `live` (live records), `replay` (replaying a record with the rules
//! core to check it) and `csa` (the CSA file of a 9×9 game); a match's record files as its games finish are
//! `matches::record_files`.

mod csa;
mod games_txt;
mod live;
mod replay;

pub use csa::csa_text;
pub use games_txt::{RecordLine, RecordLineError};
pub use live::{LiveGame, LiveRecordError, LiveWriteError, LIVE_DIR};
pub use replay::{verify, verify_file, RecordFileError, ReplayError};

/// The record file of a match, inside its `--out` folder.
pub const GAMES_FILE: &str = "games.txt";
