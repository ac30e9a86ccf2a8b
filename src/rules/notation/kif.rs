//! KIF records (Kakinoki's format, what ShogiGUI, Shogidokoro, ShogiHome and Kifu for Windows write), read and
//! written; KI2 shares the header and the reader ([`super::ki2`]).
//!
//! ```text
//! 開始日時：2024/05/01 10:00:00
//! 手合割：平手
//! 先手：Hayate
//! 後手：Other
//! 手数----指手---------消費時間--
//!    1 ７六歩(77)   ( 0:01/00:00:01)
//! *a comment on the move above
//!    2 同　歩(23)   ( 0:02/00:00:02)
//!    3 投了
//! まで2手で後手の勝ち
//! ```
//!
//! A handicap game names its 手合割 (香落ち, 角落ち, ...) and its players 下手 (sente) and 上手 (gote, who moves
//! first); a start that no 手合割 names is drawn as a board diagram ([`super::bod`]). Minishogi is
//! `手合割：5五将棋`. Yari shogi has no KIF convention and is refused. `.kif` files are Shift_JIS and `.kifu`
//! files UTF-8 ([`decode`]); text is read by characters throughout.

use std::fmt;

use super::header::{write_head, Head};
use super::japanese::{self, kif_move_name, YARI_HAS_NO_KIF};
use super::ki2;
use super::written::{parse_written, resolve};
use crate::rules::piece::Color;
use crate::rules::position::notation::{move_to_usi, MoveError};
use crate::rules::position::sfen::SfenError;
use crate::rules::square::Square;
use crate::rules::variant::Variant;
use crate::{with_variant, GameKind, Position};

/// How a record ends, in the words of KIF, seen from the side to move after the last move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// 投了: the side to move resigned.
    Resign,
    /// 詰み: the side to move is mated.
    Mate,
    /// 千日手: a draw by repetition.
    Repetition,
    /// 持将棋: a draw by impasse (also a drawn game stopped by a ply limit or adjudication).
    Impasse,
    /// 反則勝ち: the side to move wins by the other side's foul (its last move).
    IllegalWin,
    /// 反則負け: the side to move loses by its own foul.
    IllegalLoss,
    /// 中断: stopped without a result.
    Interrupted,
    /// 切れ負け: the side to move lost on time.
    TimeUp,
    /// 入玉勝ち: the side to move declared a win.
    Declaration,
}

impl Ending {
    pub const ALL: [Ending; 9] = [
        Ending::Resign,
        Ending::Mate,
        Ending::Repetition,
        Ending::Impasse,
        Ending::IllegalWin,
        Ending::IllegalLoss,
        Ending::Interrupted,
        Ending::TimeUp,
        Ending::Declaration,
    ];

    /// The word of KIF's move table.
    pub fn word(self) -> &'static str {
        match self {
            Ending::Resign => "投了",
            Ending::Mate => "詰み",
            Ending::Repetition => "千日手",
            Ending::Impasse => "持将棋",
            Ending::IllegalWin => "反則勝ち",
            Ending::IllegalLoss => "反則負け",
            Ending::Interrupted => "中断",
            Ending::TimeUp => "切れ負け",
            Ending::Declaration => "入玉勝ち",
        }
    }

    fn from_word(w: &str) -> Option<Ending> {
        if w == "時間切れ" {
            return Some(Ending::TimeUp);
        }
        Ending::ALL.into_iter().find(|e| e.word() == w)
    }

    /// The winner, with `to_move` the side to move after the last move: Some(None) for a draw, None for no
    /// result.
    pub fn winner(self, to_move: Color) -> Option<Option<Color>> {
        match self {
            Ending::Resign | Ending::Mate | Ending::IllegalLoss | Ending::TimeUp => {
                Some(Some(!to_move))
            }
            Ending::IllegalWin | Ending::Declaration => Some(Some(to_move)),
            Ending::Repetition | Ending::Impasse => Some(None),
            Ending::Interrupted => None,
        }
    }
}

/// A game as KIF and KI2 hold it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KifGame {
    /// 9×9 shogi or minishogi.
    pub kind: GameKind,
    pub start_sfen: String,
    /// In USI notation, each checked by the rules core.
    pub moves: Vec<String>,
    /// Each move's time (KIF's `( 0:01/00:00:01)`), one per move; None where none was given.
    pub times_ms: Vec<Option<u64>>,
    /// `*` lines: `comments[0]` before the first move, `comments[i]` after move `i`.
    pub comments: Vec<Vec<String>>,
    /// Sente's (下手's) and gote's (上手's) names.
    pub names: [String; 2],
    /// The other header fields in file order (開始日時, 棋戦, ...), without 手合割 and the names.
    pub headers: Vec<(String, String)>,
    pub ending: Option<Ending>,
}

impl KifGame {
    /// A game of `kind` from `start_sfen` with `moves`, nothing else known.
    pub fn new(kind: GameKind, start_sfen: &str, moves: Vec<String>) -> KifGame {
        let n = moves.len();
        KifGame {
            kind,
            start_sfen: start_sfen.to_string(),
            moves,
            times_ms: vec![None; n],
            comments: vec![Vec::new(); n + 1],
            names: [String::new(), String::new()],
            headers: Vec::new(),
            ending: None,
        }
    }

    /// A header field's value.
    pub fn header(&self, key: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|h| h.0 == key)
            .map(|h| h.1.as_str())
    }
}

/// Why a record could not be read: the line (1-based) and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KifError {
    /// None: the record as a whole (its game, its encoding).
    pub line: Option<usize>,
    pub message: String,
}

impl fmt::Display for KifError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "KIF line {l}: {}", self.message),
            None => write!(f, "KIF: {}", self.message),
        }
    }
}

impl std::error::Error for KifError {}

pub(super) fn at(line: usize, message: impl fmt::Display) -> KifError {
    KifError {
        line: Some(line),
        message: message.to_string(),
    }
}

/// Reads a KIF or KI2 record (told apart by its move lines). The main line only: a variation (変化) ends it.
pub fn read(text: &str) -> Result<KifGame, KifError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    let mut head = Head::default();
    let mut body_at = lines.len();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim_start();
        if is_move_line(t) || t.starts_with(['▲', '△', '☗', '☖']) || t.starts_with("まで")
        {
            body_at = i;
            break;
        }
        head.take(line, i + 1)?;
    }
    let (kind, start) = head.start()?;
    let mut game = KifGame::new(kind, &start, Vec::new());
    game.names = head.names.clone();
    game.headers = head.headers.clone();
    game.comments[0] = head.comments.clone();
    with_variant!(kind, V => read_moves::<V>(&mut game, &lines, body_at))?;
    Ok(game)
}

/// Whether pasted text is a KIF or KI2 record: a header field or diagram line of theirs, a KI2 move, or a move
/// line of KIF's table with a Japanese move.
pub fn looks_like_kif(text: &str) -> bool {
    text.lines().map(str::trim).any(|t| {
        t.starts_with(['▲', '△', '☗', '☖'])
            || [
                "手合割",
                "手数--",
                "の持駒",
                "開始日時",
                "先手：",
                "後手：",
                "下手：",
                "上手：",
            ]
            .iter()
            .any(|w| t.contains(w))
            || (is_move_line(t)
                && t.trim_start_matches(|c: char| c.is_ascii_digit())
                    .trim_start()
                    .starts_with(|c: char| c == '同' || japanese::FILE_DIGITS.contains(&c)))
    })
}

/// A line of KIF's move table: a move number, then the move.
fn is_move_line(line: &str) -> bool {
    let t = line.trim_start();
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    digits > 0 && t.chars().nth(digits).is_some_and(char::is_whitespace)
}

/// Plays the move lines from `from` on, KIF's table or KI2's marked moves, into `game`.
fn read_moves<V: Variant>(game: &mut KifGame, lines: &[&str], from: usize) -> Result<(), KifError> {
    let pos = Position::<V>::from_sfen(&game.start_sfen)
        .or_else(|_| Position::<V>::from_tsume_sfen(&game.start_sfen))
        .map_err(|e| KifError {
            line: None,
            message: format!("bad start: {e}"),
        })?;
    let mut reader = MoveReader {
        first_number: pos.move_number() as usize,
        pos,
        last_to: None,
    };
    for (i, line) in lines.iter().enumerate().skip(from) {
        let n = i + 1;
        let t = line.trim();
        if t.is_empty() || t.starts_with(['#', '&']) {
            continue;
        }
        if let Some(c) = t.strip_prefix('*') {
            if let Some(last) = game.comments.last_mut() {
                last.push(c.to_string());
            }
            continue;
        }
        if t.starts_with("変化") {
            break;
        }
        if t.starts_with("まで") {
            if game.ending.is_none() {
                game.ending = ki2::summary(t, game.moves.len(), reader.pos.side_to_move())
                    .map_err(|e| at(n, e))?;
            }
            continue;
        }
        if t.starts_with(['▲', '△', '☗', '☖']) {
            for token in ki2::tokens(t) {
                reader.play(game, &token, n)?;
            }
            continue;
        }
        reader.table_line(game, t, n)?;
    }
    Ok(())
}

/// The position the moves read so far reach, for the next move line.
struct MoveReader<V: Variant> {
    pos: Position<V>,
    /// The start's move number: a table numbered from it (as some tools write after a diagram) is accepted too.
    first_number: usize,
    /// Where the last move went, for 同.
    last_to: Option<Square>,
}

impl<V: Variant> MoveReader<V> {
    /// Plays one written move (`▲７六歩`, `同　銀`, ...) of line `n`, checked by the rules core.
    fn play(&mut self, game: &mut KifGame, text: &str, n: usize) -> Result<(), KifError> {
        if game.ending.is_some() {
            return Err(at(n, "a move after the game's end"));
        }
        let mark = match text.chars().next() {
            Some('▲' | '☗') => Some(Color::Black),
            Some('△' | '☖') => Some(Color::White),
            _ => None,
        };
        if mark.is_some_and(|c| c != self.pos.side_to_move()) {
            return Err(at(
                n,
                format!("'{}': the other side is to move", short(text)),
            ));
        }
        let w = parse_written(text).map_err(|e| at(n, format!("'{}': {e}", short(text))))?;
        let m = resolve(&self.pos, &w, self.last_to)
            .map_err(|e| at(n, format!("'{}': {e}", short(text))))?;
        game.moves.push(move_to_usi::<V>(m));
        game.times_ms.push(None);
        game.comments.push(Vec::new());
        self.last_to = Some(m.to());
        self.pos.do_move(m);
        Ok(())
    }

    /// A line of KIF's move table, `  12 同　銀(31)   ( 0:05/00:01:10)`: its number checked, then the move
    /// played with its time, or the ending word (投了, ...) taken.
    fn table_line(&mut self, game: &mut KifGame, t: &str, n: usize) -> Result<(), KifError> {
        if !is_move_line(t) {
            return Err(at(n, format!("cannot read '{}'", short(t))));
        }
        if game.ending.is_some() {
            return Err(at(n, "a move after the game's end"));
        }
        let digits: String = t.chars().take_while(char::is_ascii_digit).collect();
        let number: usize = digits
            .parse()
            .map_err(|_| at(n, "a move number too large"))?;
        let expected = game.moves.len() + 1;
        let expected_alt = game.moves.len() + self.first_number;
        if number != expected && number != expected_alt {
            return Err(at(
                n,
                format!("move number {number} where {expected} was expected"),
            ));
        }
        let rest = t
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim_start();
        let (token, tail) = split_move(rest);
        let time = parse_time(tail).map_err(|e| at(n, e))?;
        if let Some(e) = Ending::from_word(&token) {
            game.ending = Some(e);
            return Ok(());
        }
        let is_move = token
            .chars()
            .next()
            .is_some_and(|c| c == '同' || japanese::digit_value(c).is_some());
        if !is_move {
            return Err(at(
                n,
                format!("'{}' is no move or ending this reader knows", short(&token)),
            ));
        }
        self.play(game, &token, n)?;
        if let Some(t) = game.times_ms.last_mut() {
            *t = time;
        }
        Ok(())
    }
}

/// The move's text and what follows it (the time, a `+` for a variation).
fn split_move(rest: &str) -> (String, &str) {
    let mut token = String::new();
    let mut chars = rest.char_indices().peekable();
    if let Some(&(_, '同')) = chars.peek() {
        token.push('同');
        chars.next();
        while chars.peek().is_some_and(|&(_, c)| c.is_whitespace()) {
            chars.next();
        }
    }
    for (i, c) in chars {
        if c.is_whitespace() {
            return (token, &rest[i..]);
        }
        token.push(c);
        // the from-square ends the move even where a long move leaves no space before the time
        if c == ')' {
            return (token, &rest[i + 1..]);
        }
    }
    (token, "")
}

/// Why a move's time was refused: no brackets around it, or not minutes and seconds; the text quoted is cut to
/// 40 characters.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum TimeError {
    #[error("cannot read the time '{0}'")]
    Unreadable(String),
    #[error("the move's time '{0}' is not m:ss")]
    NotMinutesSeconds(String),
}

/// `( 0:01/00:00:01)`: the move's time in milliseconds; none written gives None.
fn parse_time(tail: &str) -> Result<Option<u64>, TimeError> {
    let t = tail.trim().trim_end_matches('+').trim();
    if t.is_empty() {
        return Ok(None);
    }
    let inner = t
        .strip_prefix('(')
        .and_then(|x| x.strip_suffix(')'))
        .ok_or_else(|| TimeError::Unreadable(short(t)))?;
    let this = inner.split('/').next().unwrap_or("");
    let parts: Vec<&str> = this.split(':').map(str::trim).collect();
    let [m, s] = parts[..] else {
        return Err(TimeError::NotMinutesSeconds(short(this)));
    };
    match (m.parse::<u64>(), s.parse::<u64>()) {
        (Ok(m), Ok(s)) if s < 60 => Ok(Some((m * 60 + s) * 1000)),
        _ => Err(TimeError::NotMinutesSeconds(short(this))),
    }
}

pub(super) fn short(s: &str) -> String {
    s.chars().take(40).collect()
}

/// Why a game could not be written as KIF or KI2: Yari shogi has no Japanese notation, the start does not
/// read, a move is not legal where it is played, or (KI2, without from-squares) its name fits another move too.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KifWriteError {
    #[error("{}", YARI_HAS_NO_KIF)]
    Yari,
    #[error("bad start: {0}")]
    Start(SfenError),
    #[error("move {number}: {error}")]
    Move { number: usize, error: MoveError },
    #[error("move {number}: KI2 cannot tell {usi} from another")]
    Ki2Ambiguous { number: usize, usi: String },
}

/// The game as KIF; Yari shogi has no KIF (the error says so), and a move that is not legal is refused.
pub fn write(game: &KifGame) -> Result<String, KifWriteError> {
    with_variant!(game.kind, V => write_game::<V>(game))
}

fn write_game<V: Variant>(game: &KifGame) -> Result<String, KifWriteError> {
    let mut pos = start_position::<V>(game)?;
    let (mut s, handicap) = write_head(game, &pos);
    s.push_str("手数----指手---------消費時間--\n");
    if let Some(c) = game.comments.first() {
        push_comments(&mut s, c);
    }
    let first = pos.move_number() as usize;
    let mut total = [0u64; 2];
    let mut last_to = None;
    for (i, usi) in game.moves.iter().enumerate() {
        let m = pos.parse_move(usi).map_err(|error| KifWriteError::Move {
            number: i + 1,
            error,
        })?;
        let side = pos.side_to_move().index();
        let ms = game.times_ms.get(i).copied().flatten().unwrap_or(0);
        total[side] += ms / 1000;
        let name = kif_move_name(&pos, m, last_to);
        s.push_str(&format!(
            "{:>4} {}{} ({})\n",
            first + i,
            name,
            pad(&name, 14),
            time_text(ms / 1000, total[side])
        ));
        if let Some(c) = game.comments.get(i + 1) {
            push_comments(&mut s, c);
        }
        last_to = Some(m.to());
        pos.do_move(m);
    }
    if let Some(e) = game.ending {
        s.push_str(&format!("{:>4} {}\n", first + game.moves.len(), e.word()));
        s.push_str(&ki2::summary_text(
            e,
            game.moves.len(),
            pos.side_to_move(),
            handicap,
        ));
    }
    Ok(s)
}

/// The start position of a game to write, refused for Yari shogi.
pub(super) fn start_position<V: Variant>(game: &KifGame) -> Result<Position<V>, KifWriteError> {
    if !japanese::has_japanese_names(game.kind) {
        return Err(KifWriteError::Yari);
    }
    Position::<V>::from_sfen(&game.start_sfen)
        .or_else(|e| Position::<V>::from_tsume_sfen(&game.start_sfen).map_err(|_| e))
        .map_err(KifWriteError::Start)
}

pub(super) fn push_comments(s: &mut String, comments: &[String]) {
    for c in comments {
        // a comment of several lines stays a comment on each
        for l in c.lines() {
            s.push_str(&format!("*{l}\n"));
        }
    }
}

/// Spaces that line the times up: full-width characters count two columns.
fn pad(text: &str, width: usize) -> String {
    let w: usize = text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum();
    " ".repeat(width.saturating_sub(w))
}

/// `( 0:01/00:00:01)`'s inside: the move's minutes and seconds, the side's total as hours, minutes, seconds.
fn time_text(secs: u64, total: u64) -> String {
    format!(
        "{:>2}:{:02}/{:02}:{:02}:{:02}",
        secs / 60,
        secs % 60,
        total / 3600,
        total / 60 % 60,
        total % 60
    )
}
