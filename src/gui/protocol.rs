//! The socket's messages, JSON objects tagged by `type`. The page sends [`Request`]s; the server answers each
//! with the new [`Reply::State`] or one [`Reply::Error`] (and then nothing has changed), and pushes the engines'
//! output (moves, analysis lines, mate answers, failures) as it comes.

use serde::{Deserialize, Serialize};

/// A message from the page.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    /// A new game: `game` by name (any of its aliases), from `start` (`startpos`, a handicap name of that game,
    /// or an SFEN of its board), then `moves` (USI). An engine playing keeps its side.
    New {
        game: String,
        #[serde(default)]
        start: Option<String>,
        #[serde(default)]
        moves: Vec<String>,
    },
    /// The current state, unchanged.
    State {},
    /// Plays one USI move for the side to move (not while an engine is to move).
    Move {
        #[serde(rename = "move")]
        usi: String,
    },
    /// Takes back the last move, or, against an engine, back to the player's last turn.
    Takeback {},
    /// An engine takes a side (`black`, `white` or `none`: no engine) under a time control (the `--tc`
    /// syntax of `hayate match`: `600000/byoyomi=10000`, `300000+5000`, `nodes=3000`, ...) for both sides.
    Play {
        engine: usize,
        side: String,
        tc: String,
    },
    /// Infinite analysis of the current position with `multipv` lines.
    Analyse { engine: usize, multipv: u32 },
    /// Stops the analysis or the mate search.
    Stop {},
    /// `go mate <ms>` on the current position.
    Mate { engine: usize, ms: u64 },
    /// Replaces the game by one read from text: an SFEN, `position ...`, a USI move list, a record line of
    /// `games.txt`, a CSA record (9×9), or a KIF or KI2 record (9×9, minishogi); the format is detected.
    Import { text: String },
    /// The game as text: `sfen`, `usi` (a `position` command), `record` (a games.txt line), `csa`, `kif`, `ki2`.
    Export { format: String },
    /// Starts again an engine that crashed (or any configured engine).
    Restart { engine: usize },
    /// The games of the watched record file (`hayate gui --watch`), read again now. From then on the server also
    /// pushes [`Reply::Games`] whenever the list changes (a running match's games grow and end).
    WatchList {},
    /// Shows game `index` of the watched file at `ply` (0: its start; none: its last ply, whatever the game has
    /// grown to since the page last heard of it). While that game is being played the server pushes a
    /// [`Reply::State`] after each new move: at the new last ply when the page was showing the last one, else at
    /// the same ply with the new count in `watched`.
    Watch {
        index: usize,
        #[serde(default)]
        ply: Option<usize>,
    },
}

/// A message to the page.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Reply {
    /// First message on a socket: what this server offers.
    Hello {
        games: Vec<GameInfo>,
        engines: Vec<String>,
        /// A record file is being watched.
        watching: bool,
    },
    State(Box<State>),
    /// A request was refused; nothing changed.
    Error {
        message: String,
    },
    /// Analysis output: the latest line of each MultiPV rank.
    Analysis {
        engine: usize,
        depth: u32,
        nodes: u64,
        lines: Vec<Line>,
    },
    /// The answer of `go mate`: `moves` when solved, else `result` is `nomate` or `timeout`.
    Mate {
        result: String,
        moves: Vec<String>,
        /// The moves' Japanese names (none for Yari shogi).
        #[serde(default)]
        moves_ja: Vec<String>,
    },
    /// An engine failed (could not start, crashed, hung); `restart` brings it back.
    EngineError {
        engine: usize,
        message: String,
    },
    /// An export's text.
    Export {
        format: String,
        text: String,
    },
    /// The watched file's games, in file order, then a running match's games in progress (and those over but not
    /// yet in its games.txt) by game number.
    Games {
        games: Vec<WatchedGame>,
    },
}

/// One game of the watched file.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct WatchedGame {
    pub game: String,
    pub plies: usize,
    pub result: Option<String>,
    pub reason: Option<String>,
    /// Why the game could not be replayed (then the other fields are empty).
    pub error: Option<String>,
    /// The game is being played: `plies` grows and `result` is still none.
    pub live: bool,
    /// The engines, sente's first, for a game of a running match (from its live record).
    pub players: Option<[String; 2]>,
}

/// A game the page can set up.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GameInfo {
    pub name: String,
    pub ranks: usize,
    pub files: usize,
    /// Handicap names, `startpos` first.
    pub starts: Vec<String>,
}

/// Everything the page draws.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct State {
    pub game: String,
    pub start_sfen: String,
    pub moves: Vec<String>,
    /// The moves' Japanese names (`▲７六歩`, `△同　銀`); none for Yari shogi, which has no such notation.
    #[serde(default)]
    pub moves_ja: Vec<String>,
    /// The players of an imported record (KIF, KI2), sente's (下手's) first.
    #[serde(default)]
    pub names: Option<[String; 2]>,
    /// Its other header fields (開始日時, 棋戦, ...), in its order.
    #[serde(default)]
    pub headers: Vec<(String, String)>,
    /// Each move's recorded time in milliseconds, one per move: none for a move the record does not hold.
    #[serde(default)]
    pub times_ms: Vec<Option<u64>>,
    /// The record's comments on each position (index = plies played), lines joined by newlines.
    #[serde(default)]
    pub comments: Vec<String>,
    /// The record's ending as KIF writes it (投了, 切れ負け, ...), while the game is the one recorded.
    #[serde(default)]
    pub recorded_ending: Option<String>,
    pub sfen: String,
    /// The legal moves in USI notation: the only moves the page may send.
    pub legal: Vec<String>,
    /// The square of the king in check.
    pub check: Option<String>,
    /// `1-0`, `0-1` or `1/2-1/2` and the reason, once the game is over.
    pub result: Option<String>,
    pub reason: Option<String>,
    /// The engine's side (`black`, `white`) when one plays.
    pub engine_side: Option<String>,
    /// The engine is thinking on its move.
    pub thinking: bool,
    /// The clocks in milliseconds, sente's first, as of this message; absent without a clock.
    pub clocks: Option<[u64; 2]>,
    /// Byoyomi per move in milliseconds (0: Fischer or none).
    pub byoyomi: u64,
    /// The running clock: `black`, `white`, or none.
    pub running: Option<String>,
    /// The engines' scores in centipawns from sente's side, one per ply (index = plies played) where known.
    pub evals: Vec<Option<i32>>,
    pub analysing: bool,
    /// The watched game shown: its index in the list, its plies (growing while it is being played).
    pub watched: Option<[usize; 2]>,
}

/// One analysis line.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Line {
    pub multipv: u32,
    /// The engine's score from the side to move: `cp 35`, `mate 5`, `mate -3`.
    pub score: String,
    pub pv: Vec<String>,
    /// The line's Japanese names (none for Yari shogi).
    #[serde(default)]
    pub pv_ja: Vec<String>,
}
