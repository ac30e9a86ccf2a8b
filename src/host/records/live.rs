//! The live record of a game in progress, `<out>/live/<n>.txt` (the format is in the parent module's
//! documentation).

use std::path::{Path, PathBuf};

use super::games_txt::{split_line, RecordLineError};
use crate::host::judge::{Outcome, Reason};

/// Why a live record was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LiveRecordError {
    /// A file being rewritten is renamed whole, so one without its final newline was cut short.
    #[error("a live record must end with a newline")]
    CutShort,
    #[error("{0}: {1}")]
    Number(&'static str, String),
    #[error("clocks needs two numbers")]
    Clocks,
    #[error("a live record needs its game, sente, gote and record lines")]
    Incomplete,
    #[error(transparent)]
    Line(#[from] RecordLineError),
}

/// Why a live record was not written; the match goes on, and a watcher keeps the record it last saw.
#[derive(Debug, thiserror::Error)]
pub enum LiveWriteError {
    #[error("cannot write {}: {error}", .path.display())]
    Write {
        path: PathBuf,
        #[source]
        error: std::io::Error,
    },
}

/// The folder of the live records inside `--out`.
pub const LIVE_DIR: &str = "live";

/// The live record of one game: in progress (`ending` None) or over but not yet in `games.txt`. See the module
/// documentation for the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveGame {
    /// 1-based, as in the file's name.
    pub number: usize,
    /// Sente's engine, gote's engine.
    pub names: [String; 2],
    /// Milliseconds left, sente's first, as of the last move; None without a clock.
    pub clocks: Option<[u64; 2]>,
    /// Per move, its engine's score from sente's side.
    pub scores: Vec<Option<i32>>,
    pub start_sfen: String,
    pub moves: Vec<String>,
    pub ending: Option<(Outcome, Reason)>,
}

impl LiveGame {
    /// The file's text.
    pub fn format(&self) -> String {
        let mut s = format!(
            "game {}\nsente {}\ngote {}\n",
            self.number, self.names[0], self.names[1]
        );
        if let Some([b, w]) = self.clocks {
            s.push_str(&format!("clocks {b} {w}\n"));
        }
        if self.scores.iter().any(Option::is_some) {
            s.push_str("scores");
            for cp in &self.scores {
                match cp {
                    Some(cp) => s.push_str(&format!(" {cp}")),
                    None => s.push_str(" -"),
                }
            }
            s.push('\n');
        }
        let (result, reason) = match self.ending {
            Some((o, r)) => (o.as_str(), r.as_str()),
            None => ("*", "playing"),
        };
        s.push_str(&format!("{result} {reason} sfen {} moves", self.start_sfen));
        for m in &self.moves {
            s.push(' ');
            s.push_str(m);
        }
        s.push('\n');
        s
    }

    /// Reads a live file's text; a file cut short (no final newline) is refused rather than read as fewer moves.
    pub fn parse(text: &str) -> Result<Self, LiveRecordError> {
        if !text.ends_with('\n') {
            return Err(LiveRecordError::CutShort);
        }
        let mut number = None;
        let mut names = [None, None];
        let mut clocks = None;
        let mut scores = Vec::new();
        let mut game = None;
        for line in text.lines() {
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                "game" => {
                    number = Some(
                        rest.trim()
                            .parse::<usize>()
                            .map_err(|e| LiveRecordError::Number("game", e.to_string()))?,
                    )
                }
                "sente" => names[0] = Some(rest.to_string()),
                "gote" => names[1] = Some(rest.to_string()),
                "clocks" => {
                    let ms: Vec<u64> = rest
                        .split_whitespace()
                        .map(str::parse)
                        .collect::<Result<_, _>>()
                        .map_err(|e: std::num::ParseIntError| {
                            LiveRecordError::Number("clocks", e.to_string())
                        })?;
                    let [b, w] = ms[..] else {
                        return Err(LiveRecordError::Clocks);
                    };
                    clocks = Some([b, w]);
                }
                "scores" => {
                    scores = rest
                        .split_whitespace()
                        .map(|w| match w {
                            "-" => Ok(None),
                            _ => w.parse::<i32>().map(Some),
                        })
                        .collect::<Result<_, _>>()
                        .map_err(|e| LiveRecordError::Number("scores", e.to_string()))?;
                }
                "" => {}
                _ => {
                    let (result, reason, start_sfen, moves) = split_line(line)?;
                    let ending = if (result, reason) == ("*", "playing") {
                        None
                    } else {
                        Some(RecordLineError::ending(result, reason)?)
                    };
                    game = Some((ending, start_sfen, moves));
                }
            }
        }
        let (Some(number), [Some(sente), Some(gote)], Some((ending, start_sfen, moves))) =
            (number, names, game)
        else {
            return Err(LiveRecordError::Incomplete);
        };
        Ok(LiveGame {
            number,
            names: [sente, gote],
            clocks,
            scores,
            start_sfen,
            moves,
            ending,
        })
    }

    /// The file of game `number` in the `--out` folder `dir`.
    pub fn path(dir: &Path, number: usize) -> PathBuf {
        dir.join(LIVE_DIR).join(format!("{number}.txt"))
    }

    /// Writes the file whole under another name and renames it, so that a reader sees the old file or the new.
    pub fn write(&self, dir: &Path) -> Result<(), LiveWriteError> {
        let path = Self::path(dir, self.number);
        let tmp = dir.join(LIVE_DIR).join(format!(".{}.tmp", self.number));
        std::fs::write(&tmp, self.format())
            .and_then(|()| std::fs::rename(&tmp, &path))
            .map_err(|error| LiveWriteError::Write { path, error })
    }
}
