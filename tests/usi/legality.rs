//! Legality of the engine's replies, checked with the library.

use hayate::{EnteringKingRule, Minishogi, Position, Shogi, Variant, Yari};

#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    Move,
    Resign,
    Win,
}

/// Ranks and files of an SFEN's board field.
fn board_shape(sfen: &str) -> (usize, usize) {
    let board = sfen.split(' ').next().unwrap_or("");
    let ranks = board.split('/').count();
    let first = board.split('/').next().unwrap_or("");
    let files = first
        .chars()
        .map(|c| match c.to_digit(10) {
            Some(d) => d as usize,
            None if c == '+' => 0,
            None => 1,
        })
        .sum();
    (ranks, files)
}

/// Checks a `bestmove` line against the position of `sfen` (the game is chosen by the board's shape).
pub fn check_bestmove(sfen: &str, line: &str) -> Result<Verdict, String> {
    match board_shape(sfen) {
        (9, 9) => check_in(&parse_sfen::<Shogi>(sfen)?, line),
        (5, 5) => check_in(&parse_sfen::<Minishogi>(sfen)?, line),
        (9, 7) => check_in(&parse_sfen::<Yari>(sfen)?, line),
        shape => Err(format!(
            "the engine's SFEN '{sfen}' has an unknown shape {shape:?}"
        )),
    }
}

fn parse_sfen<V: Variant>(sfen: &str) -> Result<Position<V>, String> {
    Position::<V>::from_sfen(sfen)
        .map_err(|e| format!("the library rejects the engine's SFEN '{sfen}': {e}"))
}

/// `bestmove <legal move> [ponder <legal reply>]`, `bestmove resign` with no legal move (ResignValue is 0 in
/// these tests), or `bestmove win` where the entering-king declaration holds.
pub fn check_in<V: Variant>(pos: &Position<V>, line: &str) -> Result<Verdict, String> {
    let words: Vec<&str> = line.split(' ').collect();
    match words.as_slice() {
        ["bestmove", "resign"] => {
            let n = pos.legal_moves().len();
            if n == 0 {
                Ok(Verdict::Resign)
            } else {
                Err(format!("'{line}' with {n} legal moves"))
            }
        }
        ["bestmove", "win"] => {
            if pos.can_declare(EnteringKingRule::Csa27) || pos.can_declare(EnteringKingRule::Csa24)
            {
                Ok(Verdict::Win)
            } else {
                Err(format!("'{line}' where no declaration is possible"))
            }
        }
        ["bestmove", m] => pos
            .parse_move(m)
            .map(|_| Verdict::Move)
            .map_err(|e| format!("'{line}': {e}")),
        ["bestmove", m, "ponder", p] => {
            let mv = pos.parse_move(m).map_err(|e| format!("'{line}': {e}"))?;
            let mut after = pos.clone();
            after.do_move(mv);
            after
                .parse_move(p)
                .map(|_| Verdict::Move)
                .map_err(|e| format!("'{line}': ponder move: {e}"))
        }
        _ => Err(format!("malformed bestmove line '{line}'")),
    }
}
