//! XBoard's saved games, replayed and judged by Hayate's rules core.
//!
//! XBoard writes shogi moves in its SAN: the piece letter (none for a pawn, `+` before a promoted piece), a
//! disambiguating file or rank where needed, `x` for a capture, the destination in XBoard's coordinates, then `+`
//! for a promotion or `=` for a move that could promote and does not, then (not always) `+` for check or `#` for
//! mate; a drop is `<letter>@<square>`. Each token is matched against every legal move: the one move it describes
//! is played, and none or two fail the game. The check marks are not relied on (XBoard leaves out some).

use hayate::rules::piece::Kind;
use hayate::xboard::notation::{parse_square, square};
use hayate::{Move, Position, Variant};

/// A game as XBoard saved it.
pub struct Game {
    pub variant: String,
    pub fen: Option<String>,
    pub result: String,
    /// The comment before the result: why the game ended.
    pub reason: String,
    pub moves: Vec<String>,
}

/// Reads the first game of a PGN file.
pub fn parse(text: &str) -> Result<Game, String> {
    let tag = |name: &str| -> Option<String> {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("[{name} \"")))
            .and_then(|v| v.strip_suffix("\"]"))
            .map(str::to_string)
    };
    let result = tag("Result").ok_or("no Result tag")?;
    let movetext: String = text
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join("\n");
    // comments in braces (the board diagram, the engines' scores, the reason of the end)
    let mut plain = String::new();
    let mut comments = Vec::new();
    let mut depth = 0;
    let mut current = String::new();
    for c in movetext.chars() {
        match c {
            '{' => {
                depth += 1;
                current.clear();
            }
            '}' => {
                depth -= 1;
                comments.push(current.clone());
                plain.push(' ');
            }
            _ if depth > 0 => current.push(c),
            _ => plain.push(c),
        }
    }
    let mut moves = Vec::new();
    for w in plain.split_whitespace() {
        if ["1-0", "0-1", "1/2-1/2", "*"].contains(&w) {
            break;
        }
        let w = w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if !w.is_empty() {
            moves.push(w.to_string());
        }
    }
    Ok(Game {
        variant: tag("Variant").unwrap_or_default(),
        fen: tag("FEN"),
        result,
        reason: comments.last().cloned().unwrap_or_default(),
        moves,
    })
}

/// The SAN letter XBoard gives a piece kind (shared with SFEN, `+` before a promoted one).
fn letter(k: Kind) -> String {
    if k.is_promoted() {
        format!("+{}", k.letter())
    } else {
        k.letter().to_string()
    }
}

/// The one legal move that `token` describes in `pos`.
pub fn find_move<V: Variant>(pos: &Position<V>, token: &str) -> Result<Move, String> {
    let core = token.trim_end_matches(['+', '=', '#']);
    let suffix = &token[core.len()..];
    // a trailing `+` may belong to the destination's promotion: put it back when the core ends in a digit
    let (dest_text, prefix) = match core.len().checked_sub(2) {
        Some(i) if core.is_char_boundary(i) => (&core[i..], &core[..i]),
        _ => return Err(format!("'{token}' has no destination")),
    };
    let dest = parse_square::<V>(dest_text.as_bytes()).ok_or(format!("'{token}': bad square"))?;
    let mut found = Vec::new();
    for m in pos.legal_moves() {
        if m.to() != dest {
            continue;
        }
        let described = if m.is_drop() {
            let l = m.dropped().letter();
            prefix == format!("{l}@") || (l == 'P' && prefix == "@")
        } else {
            let kind = pos.piece_at(m.from()).kind();
            let mut p = prefix;
            // the piece (a pawn has no letter)
            let l = letter(kind);
            if let Some(rest) = p.strip_prefix(l.as_str()) {
                p = rest;
            } else if kind != Kind::Pawn {
                continue;
            }
            // the capture mark
            let capture = pos.piece_at(m.to()).is_some();
            match p.strip_suffix('x') {
                Some(rest) => {
                    if !capture {
                        continue;
                    }
                    p = rest;
                }
                None if capture => continue,
                None => {}
            }
            // a disambiguation: file, rank or both of the origin
            let from = square::<V>(m.from());
            p.is_empty() || from == p || from.starts_with(p) || from.ends_with(p)
        };
        if !described {
            continue;
        }
        // a promotion is always written `+`
        if m.is_promotion() && !suffix.starts_with('+') {
            continue;
        }
        found.push(m);
    }
    // the same move promoting and not: XBoard writes `=` for the one that does not (and `+` for the other)
    if let [a, b] = found[..] {
        if !a.is_drop() && (a.from(), a.to()) == (b.from(), b.to()) {
            let promote = suffix.starts_with('+');
            found.retain(|m| m.is_promotion() == promote);
        }
    }
    match found[..] {
        [m] => Ok(m),
        [] => Err(format!("'{token}' is no legal move in {}", pos.to_sfen())),
        _ => Err(format!("'{token}' is ambiguous in {}", pos.to_sfen())),
    }
}

/// Replays the game from the start position of `V` and checks that it ended by the rules with the result XBoard
/// recorded: the side to move has no legal move, the position occurred for the fourth time, or (9×9) the side to
/// move may declare a win by entering king under the engine's default rule (CSA rule 27), which Hayate then claims
/// instead of moving. Returns the number of moves.
pub fn judge<V: Variant>(game: &Game) -> Result<usize, String> {
    let mut pos = Position::<V>::startpos();
    for (i, token) in game.moves.iter().enumerate() {
        let m = find_move(&pos, token).map_err(|e| format!("ply {}: {e}", i + 1))?;
        pos.do_move(m);
    }
    let sente_to_move = pos.side_to_move() == hayate::rules::piece::Color::Black;
    let lost = if sente_to_move { "0-1" } else { "1-0" };
    let won = if sente_to_move { "1-0" } else { "0-1" };
    let by_rule = if !pos.has_legal_move() {
        lost
    } else if pos.can_declare(hayate::EnteringKingRule::default()) {
        won
    } else {
        use hayate::rules::position::Repetition;
        match pos.repetition_verdict(4, usize::MAX).map(|v| v.result) {
            Some(Repetition::Draw) => "1/2-1/2",
            Some(Repetition::Loss) => lost,
            Some(Repetition::Win) => won,
            _ => {
                return Err(format!(
                    "the game ended ({} {{{}}}) in {} where the rules do not end it",
                    game.result,
                    game.reason,
                    pos.to_sfen()
                ))
            }
        }
    };
    if by_rule != game.result {
        return Err(format!(
            "XBoard recorded {} {{{}}}; the rules say {by_rule} in {}",
            game.result,
            game.reason,
            pos.to_sfen()
        ));
    }
    Ok(game.moves.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use hayate::{Minishogi, Shogi};

    /// Tokens as XBoard writes them, from its saved games.
    #[test]
    fn xboard_san_reads_back() {
        let game = parse(
            "[Event \"x\"]\n[Result \"1-0\"]\n[Variant \"shogi\"]\n\n1. c4 {+0.61/9} g6 {-0.16/8 0.3} 2. Bxh8+ \
             {+0.36/7 0.2} Sxh8 3. B@d5 B@e6 4. Bxe6 exe6\n{Xboard adjudication: Checkmate} 1-0\n",
        )
        .unwrap();
        assert_eq!(
            game.moves,
            ["c4", "g6", "Bxh8+", "Sxh8", "B@d5", "B@e6", "Bxe6", "exe6"]
        );
        assert_eq!(game.reason, "Xboard adjudication: Checkmate");
        let mut pos = Position::<Shogi>::startpos();
        for t in &game.moves {
            let m = find_move(&pos, t).unwrap();
            pos.do_move(m);
        }
        assert_eq!(
            pos.to_sfen(),
            "lnsgkg1nl/1r5s1/pppp1p1pp/4p1p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 9"
        );
        // an error for a token no move fits, and a game that did not end by the rules
        assert!(find_move(&pos, "Kz9").is_err());
        assert!(judge::<Shogi>(&game).is_err());
        let mini = Position::<Minishogi>::startpos();
        assert!(find_move(&mini, "Sb2").is_ok());
        assert!(find_move(&mini, "Sb2=").is_ok());
        assert!(find_move(&mini, "Sxb2").is_err());
        assert!(find_move(&mini, "Sb3").is_err());
    }
}
