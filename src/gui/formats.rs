//! Positions and games as text, in and out: SFEN, USI (`position ...` or a bare move list), our record lines
//! (`games.txt`) for all three games, CSA for 9×9. Pasted text is recognised by its shape; every position and
//! move goes through the rules core ([`Record`]) before it replaces the game.

use super::record::Record;
use crate::matches::record::{csa_text, RecordLine};
use crate::usi::Game;
use crate::{with_variant, GameKind};

/// Handicap start positions (RULES.md), the handicap giver (gote) to move.
fn handicaps(kind: GameKind) -> &'static [(&'static str, &'static str)] {
    match kind {
        GameKind::Shogi => &[
            (
                "lance",
                "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            ),
            (
                "bishop",
                "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            ),
            (
                "rook",
                "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            ),
            (
                "two-pieces",
                "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            ),
        ],
        GameKind::Minishogi => &[
            ("bishop", "r1sgk/4p/5/P4/KGSBR w - 1"),
            ("rook", "1bsgk/4p/5/P4/KGSBR w - 1"),
            ("two-pieces", "2sgk/4p/5/P4/KGSBR w - 1"),
            ("silver", "3gk/4p/5/P4/KGSBR w - 1"),
            ("gold", "4k/4p/5/P4/KGSBR w - 1"),
        ],
        GameKind::Yari => &[],
    }
}

/// `startpos` and the game's handicap names.
pub fn start_names(kind: GameKind) -> Vec<String> {
    std::iter::once("startpos")
        .chain(handicaps(kind).iter().map(|h| h.0))
        .map(str::to_string)
        .collect()
}

/// The SFEN of a start named by the page (None: the game's start position); an SFEN passes through.
pub fn start_sfen(kind: GameKind, start: Option<&str>) -> Result<Option<String>, String> {
    match start.map(str::trim) {
        None | Some("") | Some("startpos") => Ok(None),
        Some(s) if s.contains('/') => Ok(Some(s.strip_prefix("sfen ").unwrap_or(s).to_string())),
        Some(s) => handicaps(kind)
            .iter()
            .find(|h| h.0 == s)
            .map(|h| Some(h.1.to_string()))
            .ok_or_else(|| {
                format!(
                    "unknown start '{}' for {kind} (known: {})",
                    s.chars().take(40).collect::<String>(),
                    start_names(kind).join(", ")
                )
            }),
    }
}

/// Reads a game from pasted text, detecting its format. `current` is the game a bare USI move list or
/// `position startpos` belongs to.
pub fn import(text: &str, current: GameKind) -> Result<Record, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("nothing to import".into());
    }
    if text.len() > 1_000_000 {
        return Err("the text is too long".into());
    }
    let first = text.split_whitespace().next().unwrap_or("");
    if text.lines().any(|l| is_csa_line(l.trim())) {
        return import_csa(text);
    }
    if matches!(first, "1-0" | "0-1" | "1/2-1/2") {
        // the first line of a games.txt, the game as it was (its ending is judged again by the rules)
        let line = RecordLine::parse(text.lines().next().unwrap_or(""))?;
        return from_sfen_and_moves(&line.start_sfen, &line.moves, current);
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    let words = match words.first() {
        Some(&"position") => &words[1..],
        _ => &words[..],
    };
    match words.first() {
        Some(&"startpos") => {
            let moves = moves_after(&words[1..])?;
            Record::new(current, None)?.with_moves(moves)
        }
        Some(&"sfen") => sfen_then_moves(&words[1..], current),
        Some(w) if w.contains('/') => sfen_then_moves(words, current),
        // a bare move list from the current game's start position
        _ => Record::new(current, None)?.with_moves(words.iter().copied()),
    }
}

/// `<sfen fields> [moves ...]`.
fn sfen_then_moves(words: &[&str], current: GameKind) -> Result<Record, String> {
    let end = words
        .iter()
        .position(|&w| w == "moves")
        .unwrap_or(words.len());
    let sfen = words[..end].join(" ");
    let moves: Vec<String> = words[end..].iter().skip(1).map(|s| s.to_string()).collect();
    from_sfen_and_moves(&sfen, &moves, current)
}

fn moves_after<'a>(words: &[&'a str]) -> Result<Vec<&'a str>, String> {
    match words.first() {
        None => Ok(Vec::new()),
        Some(&"moves") => Ok(words[1..].to_vec()),
        Some(w) => Err(format!(
            "expected 'moves', found '{}'",
            w.chars().take(40).collect::<String>()
        )),
    }
}

/// The game is the one whose board the SFEN draws.
fn from_sfen_and_moves(sfen: &str, moves: &[String], current: GameKind) -> Result<Record, String> {
    let kind = Game::start(current)
        .parse_sfen(sfen)
        .map_err(|e| format!("bad SFEN: {e}"))?
        .kind();
    Record::new(kind, Some(sfen))?.with_moves(moves.iter().map(String::as_str))
}

/// The game as text in `format`: `sfen`, `usi`, `record` (finished games only) or `csa` (9×9 only).
pub fn export(rec: &Record, format: &str, names: &[String; 2]) -> Result<String, String> {
    match format {
        "sfen" => Ok(rec.sfen()),
        "usi" => Ok(rec.position_command()),
        "record" | "csa" => {
            let Some(ending) = rec.ending else {
                return Err(format!(
                    "a {format} record holds a finished game; export usi instead"
                ));
            };
            let line = RecordLine {
                outcome: ending.outcome,
                reason: ending.reason,
                start_sfen: rec.start_sfen.clone(),
                moves: rec.moves.clone(),
            };
            if format == "record" {
                return Ok(line.format());
            }
            with_variant!(rec.kind, V => {
                csa_text::<V>(&line, [&names[0], &names[1]], &vec![None; line.moves.len()])
                    .ok_or_else(|| "CSA records are for 9x9 shogi only".to_string())
            })
        }
        _ => Err(format!(
            "unknown format '{}' (sfen, usi, record, csa)",
            format.chars().take(40).collect::<String>()
        )),
    }
}

fn is_csa_line(l: &str) -> bool {
    l.starts_with("V2")
        || l == "PI"
        || l.starts_with("P1")
        || (l.len() == 7
            && (l.starts_with('+') || l.starts_with('-'))
            && l[1..5].bytes().all(|b| b.is_ascii_digit()))
}

/// CSA piece names and their SFEN letters (promoted names with `+`).
const CSA_PIECES: [(&str, &str); 14] = [
    ("FU", "P"),
    ("KY", "L"),
    ("KE", "N"),
    ("GI", "S"),
    ("KI", "G"),
    ("KA", "B"),
    ("HI", "R"),
    ("OU", "K"),
    ("TO", "+P"),
    ("NY", "+L"),
    ("NK", "+N"),
    ("NG", "+S"),
    ("UM", "+B"),
    ("RY", "+R"),
];

fn csa_letter(name: &str) -> Option<&'static str> {
    CSA_PIECES.iter().find(|p| p.0 == name).map(|p| p.1)
}

/// A 9×9 CSA record: `PI` or `P1`..`P9` (with `P+`/`P-` hands), the side to move, then moves such as
/// `+7776FU`; names, times, comments and the ending line are skipped.
fn import_csa(text: &str) -> Result<Record, String> {
    let bad = |l: &str| {
        format!(
            "CSA: cannot read '{}'",
            l.chars().take(40).collect::<String>()
        )
    };
    let mut rows: Vec<String> = Vec::new();
    let mut hands = [String::new(), String::new()];
    let mut black = true;
    let mut moves: Vec<&str> = Vec::new();
    for l in text.lines().map(str::trim) {
        if l.is_empty() || l.starts_with(['\'', 'N', '$', 'T', '%', 'V']) || l.starts_with("PI") {
            continue;
        }
        if l == "+" || l == "-" {
            black = l == "+";
        } else if let Some(rest) = l.strip_prefix("P+").or_else(|| l.strip_prefix("P-")) {
            let side = usize::from(l.as_bytes()[1] == b'-');
            for chunk in rest.as_bytes().chunks(4) {
                let name = std::str::from_utf8(chunk.get(2..4).ok_or_else(|| bad(l))?)
                    .map_err(|_| bad(l))?;
                let letter = csa_letter(name)
                    .filter(|x| !x.starts_with('+') && *x != "K")
                    .ok_or_else(|| bad(l))?;
                hands[side].push_str(&if side == 0 {
                    letter.to_string()
                } else {
                    letter.to_lowercase()
                });
            }
        } else if l.starts_with('P') && l.len() >= 2 && l.as_bytes()[1].is_ascii_digit() {
            rows.push(csa_row(&l[2..]).ok_or_else(|| bad(l))?);
        } else if l.starts_with('+') || l.starts_with('-') {
            // several moves may share a line, separated by commas
            moves.extend(
                l.split(',')
                    .map(str::trim)
                    .filter(|m| m.starts_with(['+', '-'])),
            );
        } else {
            return Err(bad(l));
        }
    }
    let start = if rows.is_empty() {
        None
    } else if rows.len() == 9 {
        let hand = format!("{}{}", hands[0], hands[1]);
        let hand = if hand.is_empty() {
            "-".to_string()
        } else {
            hand
        };
        Some(format!(
            "{} {} {hand} 1",
            rows.join("/"),
            if black { "b" } else { "w" }
        ))
    } else {
        return Err("CSA: a board needs the nine lines P1 to P9".into());
    };
    let mut rec = Record::new(GameKind::Shogi, start.as_deref())?;
    for m in moves {
        let usi = csa_move(&rec, m).ok_or_else(|| bad(m))?;
        rec.play(&usi)?;
    }
    Ok(rec)
}

/// One board row of a CSA `P<n>` line: nine fields of three characters, files 9 to 1.
fn csa_row(s: &str) -> Option<String> {
    // a trailing ` * ` may have lost its last space to an editor or to trimming
    let s = format!("{s:<27}");
    let b = s.as_bytes();
    let mut row = String::new();
    let mut empty = 0;
    for i in 0..9 {
        let f = std::str::from_utf8(&b[i * 3..i * 3 + 3]).ok()?;
        if f == " * " {
            empty += 1;
            continue;
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
            empty = 0;
        }
        let letter = csa_letter(&f[1..])?;
        match &f[..1] {
            "+" => row.push_str(letter),
            "-" => row.push_str(&letter.to_lowercase()),
            _ => return None,
        }
    }
    if empty > 0 {
        row.push_str(&empty.to_string());
    }
    Some(row)
}

/// A CSA move (`+7776FU`, `-0055KA`, `+2822RY`) in USI, promotion read from the legal moves: when both the
/// promotion and the plain move are legal, a promoted piece name means the promotion.
fn csa_move(rec: &Record, m: &str) -> Option<String> {
    let b = m.as_bytes();
    if b.len() != 7 || !b[1..5].iter().all(u8::is_ascii_digit) {
        return None;
    }
    let sq = |f: u8, r: u8| format!("{}{}", f as char, (b'a' + (r - b'1')) as char);
    if !(b'1'..=b'9').contains(&b[3]) || !(b'1'..=b'9').contains(&b[4]) {
        return None;
    }
    let to = sq(b[3], b[4]);
    let letter = csa_letter(&m[5..7])?;
    if &m[1..3] == "00" {
        return Some(format!("{letter}*{to}"));
    }
    if !(b'1'..=b'9').contains(&b[2]) {
        return None;
    }
    let plain = format!("{}{to}", sq(b[1], b[2]));
    let promoted = format!("{plain}+");
    let legal = rec.view().legal;
    let has = |x: &String| legal.contains(x);
    match (has(&plain), has(&promoted)) {
        (true, true) if letter.starts_with('+') => Some(promoted),
        (_, true) if !has(&plain) => Some(promoted),
        _ => Some(plain),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_detected() {
        let r = import("position startpos moves 7g7f 3c3d", GameKind::Shogi).unwrap();
        assert_eq!(r.moves, vec!["7g7f", "3c3d"]);
        let r = import("3e3d 3a3b", GameKind::Minishogi).unwrap();
        assert_eq!(r.kind, GameKind::Minishogi);
        let r = import(
            "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1 moves 1g1f",
            GameKind::Shogi,
        )
        .unwrap();
        assert_eq!(r.kind, GameKind::Yari);
        let r = import(
            "1-0 resign sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 3e3d",
            GameKind::Shogi,
        )
        .unwrap();
        assert_eq!((r.kind, r.moves.len()), (GameKind::Minishogi, 1));
        let r = import(
            "V2.2\nN+a\nN-b\nPI\n+\n+7776FU\nT1\n-3334FU\n+8822UM\n%TORYO\n",
            GameKind::Minishogi,
        )
        .unwrap();
        assert_eq!(r.moves, vec!["7g7f", "3c3d", "8h2b+"]);
        assert!(import("7g7f 7g7f", GameKind::Shogi).is_err());
        assert!(import("", GameKind::Shogi).is_err());
    }

    #[test]
    fn csa_round_trip() {
        let mut r = Record::new(GameKind::Shogi, Some("4k4/9/4P4/9/9/9/9/9/4K4 b G 1")).unwrap();
        r.play("G*5b").unwrap();
        let names = ["a".to_string(), "b".to_string()];
        let csa = export(&r, "csa", &names).unwrap();
        let back = import(&csa, GameKind::Minishogi).unwrap();
        assert_eq!(back.start_sfen, r.start_sfen);
        assert_eq!(back.moves, r.moves);
        assert_eq!(
            export(&r, "record", &names).unwrap(),
            "1-0 checkmate sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1 moves G*5b"
        );
    }
}
