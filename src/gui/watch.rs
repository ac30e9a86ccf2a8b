//! Watching recorded games: a `games.txt` of `hayate match` (its `--out` folder, or the file) with the live
//! records of the games in progress beside it (`live/<n>.txt`, see [`crate::host::records`]), or one CSA, KIF
//! or KI2 record.
//! A [`Watcher`] reads them again when asked (the session asks every few hundred milliseconds), so that the games
//! of a running match grow move by move and move to the finished ones as they end. Each game is replayed by the
//! rules core and stepped through move by move on the page.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::formats::{self, ImportError};
use super::protocol::WatchedGame;
use super::record::{Ending, Record, RecordError};
use crate::host::records::{LiveGame, RecordLine, RecordLineError, GAMES_FILE, LIVE_DIR};
use crate::rules::notation::header::decode;
use crate::rules::notation::kif::{looks_like_kif, KifError};
use crate::rules::position::sfen::SfenError;
use crate::GameKind;

/// The largest record file read (a long match's games.txt is a few MB).
const MAX_FILE: u64 = 64 << 20;

/// The most live files read in one round (one per running game: `--concurrency` of them).
const MAX_LIVE: usize = 256;
/// The largest live file read.
const MAX_LIVE_FILE: u64 = 1 << 20;

/// Why the watched record file could not be read, or a watched game not be shown at the ply asked.
#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    #[error("cannot read {}: {error}", .file.display())]
    Io {
        file: PathBuf,
        error: std::io::Error,
    },
    #[error("{} is larger than {MAX_FILE} bytes", .0.display())]
    TooLarge(PathBuf),
    #[error(transparent)]
    Decode(#[from] KifError),
    #[error("cannot read {}: {error}", .file.display())]
    Utf8 {
        file: PathBuf,
        error: std::string::FromUtf8Error,
    },
    #[error("the game has {plies} plies, not {ply}")]
    Ply { plies: usize, ply: usize },
    #[error(transparent)]
    Record(#[from] RecordError),
}

/// Why one game of the watched file is listed without its moves: its line, start or moves were refused. The
/// others are still shown.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FileGameError {
    #[error(transparent)]
    Line(#[from] RecordLineError),
    #[error("bad SFEN: {0}")]
    Sfen(SfenError),
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error(transparent)]
    Import(#[from] ImportError),
}

/// One game of the file: the game at its start, all its moves, and the ending the record gives.
#[derive(Clone)]
pub struct FileGame {
    pub start: Record,
    pub moves: Vec<String>,
    pub ending: Option<Ending>,
    /// What a live record adds: the engines (sente's, gote's) and the clocks as of its last move.
    pub players: Option<[String; 2]>,
    pub clocks: Option<[u64; 2]>,
    /// Per move, its engine's score from sente's side (a live record's; empty elsewhere).
    pub scores: Vec<Option<i32>>,
}

/// The watched games, read again by [`Watcher::refresh`]: the record file's (parsed again only when the file
/// changed), then the live records of the games not yet in it.
pub struct Watcher {
    path: PathBuf,
    /// The record file's length and modification time when it was last parsed.
    stamp: Option<(u64, Option<SystemTime>)>,
    finished: Vec<Result<FileGame, FileGameError>>,
    /// The live files' texts when they were last read, and their games.
    live_texts: Vec<String>,
    live: Vec<FileGame>,
}

impl Watcher {
    pub fn new(path: PathBuf) -> Watcher {
        Watcher {
            path,
            stamp: None,
            finished: Vec::new(),
            live_texts: Vec::new(),
            live: Vec::new(),
        }
    }

    /// Reads the files again; true when the games changed. A live file that cannot be read or replayed is left
    /// out this round (it may be caught between two moves, or broken); an unreadable record file is an error.
    pub fn refresh(&mut self) -> Result<bool, WatchError> {
        // the live files first: a game that ends meanwhile is then found in games.txt, which gets its line
        // before its live file goes
        let texts = live_texts(&self.path);
        let f = file(&self.path);
        let meta = std::fs::metadata(&f).map_err(|error| WatchError::Io { file: f, error })?;
        let stamp = Some((meta.len(), meta.modified().ok()));
        let mut changed = false;
        if stamp != self.stamp {
            self.finished = games(&self.path)?;
            self.stamp = stamp;
            changed = true;
        }
        if changed || texts != self.live_texts {
            let mut live: Vec<(usize, FileGame)> = texts
                .iter()
                .filter_map(|t| {
                    let g = LiveGame::parse(t).ok()?;
                    Some((g.number, live_game(&g).ok()?))
                })
                .filter(|(n, _)| *n > self.finished.len())
                .collect();
            live.sort_by_key(|(n, _)| *n);
            self.live = live.into_iter().map(|(_, g)| g).collect();
            self.live_texts = texts;
            changed = true;
        }
        Ok(changed)
    }

    /// Every game, the record file's first.
    pub fn games(&self) -> Vec<Result<&FileGame, &FileGameError>> {
        self.finished
            .iter()
            .map(Result::as_ref)
            .chain(self.live.iter().map(Ok))
            .collect()
    }
}

/// The folder of the live records that belong with `path`: a match's `--out` folder, or the one of its
/// games.txt.
fn live_dir(path: &Path) -> Option<PathBuf> {
    if path.is_dir() {
        Some(path.join(LIVE_DIR))
    } else if path.file_name().is_some_and(|n| n == GAMES_FILE) {
        path.parent().map(|p| p.join(LIVE_DIR))
    } else {
        None
    }
}

/// The texts of the live files, in no particular order; those that cannot be read are skipped.
fn live_texts(path: &Path) -> Vec<String> {
    let Some(dir) = live_dir(path) else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut texts: Vec<String> = entries
        .flatten()
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            // the writer's temporary files start with a dot
            !name.starts_with('.') && name.ends_with(".txt")
        })
        .filter(|e| {
            e.metadata()
                .is_ok_and(|m| m.is_file() && m.len() <= MAX_LIVE_FILE)
        })
        .take(MAX_LIVE)
        .filter_map(|e| std::fs::read_to_string(e.path()).ok())
        .collect();
    texts.sort();
    texts
}

fn live_game(g: &LiveGame) -> Result<FileGame, FileGameError> {
    let mut game = line_game(&RecordLine {
        outcome: crate::host::judge::Outcome::Draw,
        reason: crate::host::judge::Reason::MaxPlies,
        start_sfen: g.start_sfen.clone(),
        moves: g.moves.clone(),
    })?;
    game.ending = g.ending.map(|(outcome, reason)| Ending { outcome, reason });
    game.players = Some(g.names.clone());
    game.clocks = g.clocks;
    game.scores = g.scores.clone();
    Ok(game)
}

/// The file a path names: a folder stands for its games.txt.
fn file(path: &Path) -> PathBuf {
    if path.is_dir() {
        path.join(GAMES_FILE)
    } else {
        path.to_path_buf()
    }
}

fn read(path: &Path) -> Result<String, WatchError> {
    let f = file(path);
    let io = |error| WatchError::Io {
        file: f.clone(),
        error,
    };
    let size = std::fs::metadata(&f).map_err(io)?.len();
    if size > MAX_FILE {
        return Err(WatchError::TooLarge(f));
    }
    let bytes = std::fs::read(&f).map_err(io)?;
    match f.extension().and_then(|e| e.to_str()) {
        // KIF tools write Shift_JIS
        Some(ext @ ("kif" | "kifu" | "ki2")) => Ok(decode(&bytes, Some(ext))?),
        _ => String::from_utf8(bytes).map_err(|error| WatchError::Utf8 { file: f, error }),
    }
}

/// Every game of the file, each replayed and checked; a game the rules reject is listed with its error.
fn games(path: &Path) -> Result<Vec<Result<FileGame, FileGameError>>, WatchError> {
    let text = read(path)?;
    if looks_like_kif(&text)
        || text
            .lines()
            .any(|l| l.trim() == "PI" || l.starts_with("V2") || l.starts_with("P1"))
    {
        return Ok(vec![csa_game(&text)]);
    }
    // while a match runs, a line still being written (no newline yet) waits for the next reading
    let running = live_dir(path).is_some_and(|d| d.is_dir());
    let complete = match text.rfind('\n') {
        _ if !running => &text[..],
        Some(i) => &text[..=i],
        None => "",
    };
    Ok(complete
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            RecordLine::parse(l)
                .map_err(FileGameError::Line)
                .and_then(|r| line_game(&r))
        })
        .collect())
}

fn csa_game(text: &str) -> Result<FileGame, FileGameError> {
    let (full, notes) = formats::import(text, GameKind::Shogi)?;
    let mut start = full.clone();
    start.take_back(full.moves.len());
    Ok(FileGame {
        start,
        ending: full.ending,
        moves: full.moves,
        players: notes.names,
        clocks: None,
        scores: Vec::new(),
    })
}

fn line_game(rec: &RecordLine) -> Result<FileGame, FileGameError> {
    let kind = crate::host::Game::start(GameKind::Shogi)
        .parse_sfen(&rec.start_sfen)
        .map_err(FileGameError::Sfen)?
        .kind();
    let start = Record::new(kind, Some(&rec.start_sfen))?;
    // every move must be legal; the whole game is checked once here
    start.with_moves(rec.moves.iter().map(String::as_str))?;
    Ok(FileGame {
        start,
        moves: rec.moves.clone(),
        ending: Some(Ending {
            outcome: rec.outcome,
            reason: rec.reason,
        }),
        players: None,
        clocks: None,
        scores: Vec::new(),
    })
}

/// The list the page shows.
pub fn summaries(games: &[Result<&FileGame, &FileGameError>]) -> Vec<WatchedGame> {
    games
        .iter()
        .map(|g| match g {
            Ok(g) => WatchedGame {
                game: g.start.kind.name().to_string(),
                plies: g.moves.len(),
                result: g.ending.map(|e| e.outcome.as_str().to_string()),
                reason: g.ending.map(|e| e.reason.as_str().to_string()),
                error: None,
                live: g.players.is_some() && g.ending.is_none(),
                players: g.players.clone(),
            },
            Err(e) => WatchedGame {
                game: String::new(),
                plies: 0,
                result: None,
                reason: None,
                error: Some(e.to_string()),
                live: false,
                players: None,
            },
        })
        .collect()
}

/// The game at `ply`; at its last ply with the record's ending (resignation, time, ...) when the rules did
/// not end it themselves.
pub fn at_ply(game: &FileGame, ply: usize) -> Result<Record, WatchError> {
    if ply > game.moves.len() {
        return Err(WatchError::Ply {
            plies: game.moves.len(),
            ply,
        });
    }
    let mut rec = game
        .start
        .with_moves(game.moves[..ply].iter().map(String::as_str))?;
    if ply == game.moves.len() && rec.ending.is_none() {
        rec.ending = game.ending;
    }
    Ok(rec)
}

/// The evaluation graph's points up to `ply`: the score of the move played from each ply.
pub fn evals(game: &FileGame, ply: usize) -> Vec<Option<i32>> {
    (0..=ply)
        .map(|i| game.scores.get(i).copied().flatten())
        .collect()
}
