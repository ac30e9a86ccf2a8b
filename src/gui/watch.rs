//! Watching recorded games: a `games.txt` of `hayate match` (its `--out` folder, or the file), read again on
//! every request so that the games of a running match appear as they finish, or one CSA record. Each game is
//! replayed by the rules core and stepped through move by move on the page.

use std::path::{Path, PathBuf};

use super::formats;
use super::protocol::WatchedGame;
use super::record::{Ending, Record};
use crate::matches::record::RecordLine;
use crate::matches::GAMES_FILE;
use crate::GameKind;

/// The largest record file read (a long match's games.txt is a few MB).
const MAX_FILE: u64 = 64 << 20;

/// One game of the file: the game at its start, all its moves, and the ending the record gives.
pub struct Game {
    pub start: Record,
    pub moves: Vec<String>,
    pub ending: Option<Ending>,
}

/// The file a path names: a folder stands for its games.txt.
fn file(path: &Path) -> PathBuf {
    if path.is_dir() {
        path.join(GAMES_FILE)
    } else {
        path.to_path_buf()
    }
}

fn read(path: &Path) -> Result<String, String> {
    let f = file(path);
    let size = std::fs::metadata(&f)
        .map_err(|e| format!("cannot read {}: {e}", f.display()))?
        .len();
    if size > MAX_FILE {
        return Err(format!("{} is larger than {MAX_FILE} bytes", f.display()));
    }
    std::fs::read_to_string(&f).map_err(|e| format!("cannot read {}: {e}", f.display()))
}

/// Every game of the file, each replayed and checked; a game the rules reject is listed with its error.
pub fn games(path: &Path) -> Result<Vec<Result<Game, String>>, String> {
    let text = read(path)?;
    if text
        .lines()
        .any(|l| l.trim() == "PI" || l.starts_with("V2") || l.starts_with("P1"))
    {
        return Ok(vec![csa_game(&text)]);
    }
    Ok(text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(line_game)
        .collect())
}

fn csa_game(text: &str) -> Result<Game, String> {
    let full = formats::import(text, GameKind::Shogi)?;
    let mut start = full.clone();
    start.take_back(full.moves.len());
    Ok(Game {
        start,
        ending: full.ending,
        moves: full.moves,
    })
}

fn line_game(line: &str) -> Result<Game, String> {
    let rec = RecordLine::parse(line)?;
    let kind = crate::usi::Game::start(GameKind::Shogi)
        .parse_sfen(&rec.start_sfen)
        .map_err(|e| format!("bad SFEN: {e}"))?
        .kind();
    let start = Record::new(kind, Some(&rec.start_sfen))?;
    // every move must be legal; the whole game is checked once here
    start.with_moves(rec.moves.iter().map(String::as_str))?;
    Ok(Game {
        start,
        moves: rec.moves,
        ending: Some(Ending {
            outcome: rec.outcome,
            reason: rec.reason,
        }),
    })
}

/// The list the page shows.
pub fn summaries(games: &[Result<Game, String>]) -> Vec<WatchedGame> {
    games
        .iter()
        .map(|g| match g {
            Ok(g) => WatchedGame {
                game: g.start.kind.name().to_string(),
                plies: g.moves.len(),
                result: g.ending.map(|e| e.outcome.as_str().to_string()),
                reason: g.ending.map(|e| e.reason.as_str().to_string()),
                error: None,
            },
            Err(e) => WatchedGame {
                game: String::new(),
                plies: 0,
                result: None,
                reason: None,
                error: Some(e.clone()),
            },
        })
        .collect()
}

/// The game at `ply`; at its last ply with the record's ending (resignation, time, ...) when the rules did
/// not end it themselves.
pub fn at_ply(game: &Game, ply: usize) -> Result<Record, String> {
    if ply > game.moves.len() {
        return Err(format!(
            "the game has {} plies, not {ply}",
            game.moves.len()
        ));
    }
    let mut rec = game
        .start
        .with_moves(game.moves[..ply].iter().map(String::as_str))?;
    if ply == game.moves.len() && rec.ending.is_none() {
        rec.ending = game.ending;
    }
    Ok(rec)
}
