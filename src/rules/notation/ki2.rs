//! KI2 records: KIF's header, then the moves as players write them, without from-squares or times
//! (`▲７六歩    △３四歩    ▲５八金右`), disambiguated by the convention ([`super::japanese`]), and a summary
//! line (`まで76手で先手の勝ち`) that tells the ending. [`super::kif::read`] reads both formats.

use super::header::write_head;
use super::japanese::{ki2_move_name, side_mark};
use super::kif::{push_comments, start_position, Ending, KifGame, KifWriteError};
use crate::rules::piece::Color;
use crate::rules::variant::Variant;
use crate::with_variant;

/// Moves a line of the move part holds, each from its side's mark to the next mark.
pub(super) fn tokens(line: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in line.chars() {
        if matches!(c, '▲' | '△' | '☗' | '☖') {
            out.push(String::new());
        }
        if let Some(last) = out.last_mut() {
            last.push(c);
        }
    }
    out.iter().map(|t| t.trim().to_string()).collect()
}

/// The side a summary names.
fn side_named(s: &str) -> Option<(Color, &str)> {
    for (w, c) in [
        ("先手", Color::Black),
        ("下手", Color::Black),
        ("後手", Color::White),
        ("上手", Color::White),
    ] {
        if let Some(rest) = s.strip_prefix(w).and_then(|r| r.strip_prefix('の')) {
            return Some((c, rest));
        }
    }
    None
}

/// Why a summary line (`まで76手で先手の勝ち`) was refused: it does not read so, or counts other moves than the
/// record has.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(super) enum SummaryError {
    #[error("a summary reads まで<n>手で...")]
    Form,
    #[error("the summary counts {said} moves, the record has {moves}")]
    Count { said: usize, moves: usize },
}

/// The ending a summary line (`まで76手で先手の勝ち`) tells, `to_move` being the side to move after `moves`
/// moves; None for a summary that tells no ending this reader knows.
pub(super) fn summary(
    line: &str,
    moves: usize,
    to_move: Color,
) -> Result<Option<Ending>, SummaryError> {
    let rest = line
        .trim()
        .trim_start_matches("まで")
        .trim_start_matches('、');
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let body = rest
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .strip_prefix("手で")
        .ok_or(SummaryError::Form)?
        .trim();
    let n: usize = digits.parse().map_err(|_| SummaryError::Form)?;
    if n != moves {
        return Err(SummaryError::Count { said: n, moves });
    }
    let ending = match body {
        "千日手" => Some(Ending::Repetition),
        "持将棋" => Some(Ending::Impasse),
        "中断" => Some(Ending::Interrupted),
        "詰み" => Some(Ending::Mate),
        "入玉勝ち" => Some(Ending::Declaration),
        b => {
            let (timed, b) = match b.strip_prefix("時間切れにより") {
                Some(r) => (true, r),
                None => (false, b),
            };
            match side_named(b) {
                Some((c, "勝ち")) if timed && c != to_move => Some(Ending::TimeUp),
                Some((c, "勝ち")) if c != to_move => Some(Ending::Resign),
                Some((_, "勝ち")) => Some(Ending::IllegalWin),
                Some((c, "反則勝ち")) if c == to_move => Some(Ending::IllegalWin),
                Some((c, "反則負け")) if c == to_move => Some(Ending::IllegalLoss),
                Some((_, "反則勝ち")) => Some(Ending::IllegalLoss),
                Some((_, "反則負け")) => Some(Ending::IllegalWin),
                Some((_, "入玉勝ち")) => Some(Ending::Declaration),
                _ => None,
            }
        }
    };
    Ok(ending)
}

/// The summary line of an ending after `moves` moves, `to_move` to move, with its newline.
pub(super) fn summary_text(e: Ending, moves: usize, to_move: Color, handicap: bool) -> String {
    let sides = super::bod::side_names(handicap);
    let side = |c: Color| sides[c.index()];
    let body = match e {
        Ending::Resign => format!("{}の勝ち", side(!to_move)),
        Ending::Mate => "詰み".to_string(),
        Ending::Repetition => "千日手".to_string(),
        Ending::Impasse => "持将棋".to_string(),
        Ending::IllegalWin => format!("{}の反則勝ち", side(to_move)),
        Ending::IllegalLoss => format!("{}の反則負け", side(to_move)),
        Ending::Interrupted => "中断".to_string(),
        Ending::TimeUp => format!("時間切れにより{}の勝ち", side(!to_move)),
        Ending::Declaration => format!("{}の入玉勝ち", side(to_move)),
    };
    format!("まで{moves}手で{body}\n")
}

/// Moves a line of KI2 holds.
const PER_LINE: usize = 6;

/// The game as KI2; Yari shogi has none (the error says so), and a move that is not legal is refused.
pub fn write(game: &KifGame) -> Result<String, KifWriteError> {
    with_variant!(game.kind, V => write_game::<V>(game))
}

fn write_game<V: Variant>(game: &KifGame) -> Result<String, KifWriteError> {
    let mut pos = start_position::<V>(game)?;
    let (mut s, handicap) = write_head(game, &pos);
    if let Some(c) = game.comments.first() {
        push_comments(&mut s, c);
    }
    let mut line: Vec<String> = Vec::new();
    let mut last_to = None;
    for (i, usi) in game.moves.iter().enumerate() {
        let m = pos.parse_move(usi).map_err(|error| KifWriteError::Move {
            number: i + 1,
            error,
        })?;
        let name = ki2_move_name(&pos, m, last_to).ok_or_else(|| KifWriteError::Ki2Ambiguous {
            number: i + 1,
            usi: usi.clone(),
        })?;
        line.push(format!("{}{name}", side_mark(pos.side_to_move())));
        let comments = game.comments.get(i + 1).filter(|c| !c.is_empty());
        if line.len() == PER_LINE || comments.is_some() {
            s.push_str(&join(&line));
            line.clear();
        }
        if let Some(c) = comments {
            push_comments(&mut s, c);
        }
        last_to = Some(m.to());
        pos.do_move(m);
    }
    if !line.is_empty() {
        s.push_str(&join(&line));
    }
    if let Some(e) = game.ending {
        s.push_str(&summary_text(
            e,
            game.moves.len(),
            pos.side_to_move(),
            handicap,
        ));
    }
    Ok(s)
}

/// Moves in columns: each padded to six full-width characters.
fn join(moves: &[String]) -> String {
    let mut s = String::new();
    for (i, m) in moves.iter().enumerate() {
        s.push_str(m);
        if i + 1 < moves.len() {
            let w: usize = m.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum();
            s.push_str(&" ".repeat(14usize.saturating_sub(w)));
        }
    }
    s.push('\n');
    s
}
