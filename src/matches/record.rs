//! Game records: one line per game, `<result> <reason> sfen <start> moves <m1> <m2> ...`, replayable with the
//! library; CSA files for standard shogi, and KIF files for standard shogi and minishogi.
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

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::rules::piece::{Color, Kind};
use crate::rules::square::Square;
use crate::{GameKind, Position, Variant};

use super::judge::{Judge, Outcome, Reason};
use super::kif::kif_file;
use super::play::GameRecord;
use super::{Report, GAMES_FILE};

/// One game of a record file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordLine {
    pub outcome: Outcome,
    pub reason: Reason,
    pub start_sfen: String,
    pub moves: Vec<String>,
}

impl RecordLine {
    /// The record of a finished game.
    pub fn of(rec: &GameRecord) -> Self {
        RecordLine {
            outcome: rec.outcome,
            reason: rec.reason,
            start_sfen: rec.start_sfen.clone(),
            moves: rec.moves.clone(),
        }
    }

    pub fn format(&self) -> String {
        let mut s = format!(
            "{} {} sfen {} moves",
            self.outcome.as_str(),
            self.reason.as_str(),
            self.start_sfen
        );
        for m in &self.moves {
            s.push(' ');
            s.push_str(m);
        }
        s
    }

    pub fn parse(line: &str) -> Result<Self, String> {
        let (result, reason, start_sfen, moves) = split_line(line)?;
        let outcome = Outcome::parse(result).ok_or_else(|| format!("unknown result '{result}'"))?;
        let reason = Reason::parse(reason).ok_or_else(|| format!("unknown reason '{reason}'"))?;
        Ok(RecordLine {
            outcome,
            reason,
            start_sfen,
            moves,
        })
    }
}

/// A record line's result and reason words, start SFEN and moves, the two words unchecked.
fn split_line(line: &str) -> Result<(&str, &str, String, Vec<String>), String> {
    let w: Vec<&str> = line.split_whitespace().collect();
    if w.len() < 7 || w[2] != "sfen" {
        return Err(format!("not a record line: '{line}'"));
    }
    let moves_at = w
        .iter()
        .position(|&x| x == "moves")
        .ok_or("a record line needs the word 'moves'")?;
    if moves_at < 4 {
        return Err(format!("no SFEN in '{line}'"));
    }
    Ok((
        w[0],
        w[1],
        w[3..moves_at].join(" "),
        w[moves_at + 1..].iter().map(|s| s.to_string()).collect(),
    ))
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
    pub fn parse(text: &str) -> Result<Self, String> {
        if !text.ends_with('\n') {
            return Err("a live record must end with a newline".into());
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
                            .map_err(|e| format!("game: {e}"))?,
                    )
                }
                "sente" => names[0] = Some(rest.to_string()),
                "gote" => names[1] = Some(rest.to_string()),
                "clocks" => {
                    let ms: Vec<u64> = rest
                        .split_whitespace()
                        .map(str::parse)
                        .collect::<Result<_, _>>()
                        .map_err(|e| format!("clocks: {e}"))?;
                    let [b, w] = ms[..] else {
                        return Err("clocks needs two numbers".into());
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
                        .map_err(|e| format!("scores: {e}"))?;
                }
                "" => {}
                _ => {
                    let (result, reason, start_sfen, moves) = split_line(line)?;
                    let ending = if (result, reason) == ("*", "playing") {
                        None
                    } else {
                        Some((
                            Outcome::parse(result)
                                .ok_or_else(|| format!("unknown result '{result}'"))?,
                            Reason::parse(reason)
                                .ok_or_else(|| format!("unknown reason '{reason}'"))?,
                        ))
                    };
                    game = Some((ending, start_sfen, moves));
                }
            }
        }
        let (Some(number), [Some(sente), Some(gote)], Some((ending, start_sfen, moves))) =
            (number, names, game)
        else {
            return Err("a live record needs its game, sente, gote and record lines".into());
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
    pub fn write(&self, dir: &Path) -> Result<(), String> {
        let path = Self::path(dir, self.number);
        let tmp = dir.join(LIVE_DIR).join(format!(".{}.tmp", self.number));
        std::fs::write(&tmp, self.format())
            .and_then(|()| std::fs::rename(&tmp, &path))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

/// Replays a record with the rules core and checks that every move is legal, that the game did not end before
/// its last move, and that the result and reason agree with the final position wherever the position decides
/// them (mate, repetition, declaration, the maximum plies); for a loss by resignation, adjudication, illegal move,
/// time, hang or crash, that the loser is the side to move; that a draw adjudication is a draw. `max_plies` 0 skips the check of the ply count of `maxplies` games.
pub fn verify<V: Variant>(rec: &RecordLine, max_plies: usize) -> Result<(), String> {
    let mut judge = Judge::<V>::new(&rec.start_sfen)?;
    let n = rec.moves.len();
    for (i, m) in rec.moves.iter().enumerate() {
        if let Some(end) = judge.no_moves() {
            return Err(format!(
                "the game was over ({end:?}) before move {} ({m})",
                i + 1
            ));
        }
        let end = judge
            .play(m)
            .map_err(|e| format!("move {} ({m}): {e}", i + 1))?;
        if end.is_some() && i + 1 < n {
            return Err(format!(
                "the game ended ({end:?}) at move {}, before the last",
                i + 1
            ));
        }
    }
    let expected = (rec.outcome, rec.reason);
    let side = judge.side_to_move();
    let mate = judge.no_moves();
    let rep = judge.repetition();
    let check = |found: Option<(Outcome, Reason)>, what: &str| {
        if found == Some(expected) {
            Ok(())
        } else {
            Err(format!(
                "the record says {} {} but {what} gives {found:?}",
                rec.outcome.as_str(),
                rec.reason.as_str()
            ))
        }
    };
    match rec.reason {
        Reason::Checkmate | Reason::NoMoves => check(mate, "the final position"),
        Reason::Repetition | Reason::Perpetual => check(rep, "the repetition rule"),
        Reason::Declaration | Reason::FalseDeclaration => {
            check(Some(judge.declaration()), "the declaration rule")?;
            no_end(mate, rep)
        }
        Reason::MaxPlies => {
            if rec.outcome != Outcome::Draw || (max_plies > 0 && n < max_plies) {
                return Err(format!(
                    "a maxplies game must be a draw of at least {max_plies} plies"
                ));
            }
            no_end(mate, rep)
        }
        Reason::DrawAdjudication => {
            if rec.outcome != Outcome::Draw {
                return Err("a draw adjudication must be a draw".into());
            }
            no_end(mate, rep)
        }
        // the host adjudicates a loss only for the side to move, as a resignation
        Reason::Resign
        | Reason::Adjudication
        | Reason::Illegal
        | Reason::Time
        | Reason::Hang
        | Reason::Crash => {
            check(
                Some((Outcome::win_for(!side), rec.reason)),
                "the side to move losing",
            )?;
            no_end(mate, rep)
        }
    }
}

fn no_end(mate: Option<(Outcome, Reason)>, rep: Option<(Outcome, Reason)>) -> Result<(), String> {
    match mate.or(rep) {
        Some(end) => Err(format!(
            "the final position had already ended the game: {end:?}"
        )),
        None => Ok(()),
    }
}

/// Checks every line of a record file (blank lines and `#` comments skipped); returns the number of games.
pub fn verify_file<V: Variant>(text: &str, max_plies: usize) -> Result<usize, String> {
    let mut games = 0;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let rec = RecordLine::parse(line).map_err(|e| format!("line {}: {e}", i + 1))?;
        verify::<V>(&rec, max_plies).map_err(|e| format!("line {}: {e}", i + 1))?;
        games += 1;
    }
    Ok(games)
}

fn csa_kind(k: Kind) -> &'static str {
    match k {
        Kind::Pawn => "FU",
        Kind::Lance => "KY",
        Kind::Knight => "KE",
        Kind::Silver => "GI",
        Kind::Gold => "KI",
        Kind::Bishop => "KA",
        Kind::Rook => "HI",
        Kind::King => "OU",
        Kind::ProPawn => "TO",
        Kind::ProLance => "NY",
        Kind::ProKnight => "NK",
        Kind::ProSilver => "NG",
        Kind::ProBishop => "UM",
        Kind::ProRook => "RY",
    }
}

fn csa_sign(c: Color) -> char {
    match c {
        Color::Black => '+',
        Color::White => '-',
    }
}

fn csa_square<V: Variant>(sq: Square) -> String {
    format!(
        "{}{}",
        sq.file_index(V::RANKS) + 1,
        sq.rank_index(V::RANKS) + 1
    )
}

/// The game as a CSA (V2.2) record; only for 9×9 shogi (None for the other games or an unreadable record).
/// `times_ms` holds each move's time (None for the opening's moves, which get no `T` line); CSA counts whole
/// seconds, rounded down.
pub fn csa_text<V: Variant>(
    rec: &RecordLine,
    names: [&str; 2],
    times_ms: &[Option<u64>],
) -> Option<String> {
    if V::FILES != 9 || V::RANKS != 9 || V::KIND != GameKind::Shogi {
        return None;
    }
    let mut pos = Position::<V>::from_sfen(&rec.start_sfen).ok()?;
    let mut out = String::new();
    out.push_str("V2.2\n");
    out.push_str(&format!("N+{}\nN-{}\n", names[0], names[1]));
    out.push_str("$EVENT:hayate match\n");
    if pos.to_sfen() == Position::<V>::startpos().to_sfen() {
        out.push_str("PI\n");
    } else {
        for r in 0..V::RANKS {
            out.push_str(&format!("P{}", r + 1));
            for f in (0..V::FILES).rev() {
                let p = pos.piece_at(Square::from_coords(f, r, V::RANKS));
                if p.is_some() {
                    out.push(csa_sign(p.color()));
                    out.push_str(csa_kind(p.kind()));
                } else {
                    out.push_str(" * ");
                }
            }
            out.push('\n');
        }
        for c in Color::ALL {
            let hand = pos.hand(c);
            if hand.is_empty() {
                continue;
            }
            out.push('P');
            out.push(csa_sign(c));
            for &k in V::HAND_KINDS.iter().rev() {
                for _ in 0..hand.count(k) {
                    out.push_str("00");
                    out.push_str(csa_kind(k));
                }
            }
            out.push('\n');
        }
    }
    out.push(csa_sign(pos.side_to_move()));
    out.push('\n');
    for (i, m) in rec.moves.iter().enumerate() {
        let mv = pos.parse_move(m).ok()?;
        let side = csa_sign(pos.side_to_move());
        let (from, kind) = if mv.is_drop() {
            ("00".to_string(), mv.dropped())
        } else {
            let k = pos.piece_at(mv.from()).kind();
            let k = if mv.is_promotion() {
                k.promoted().unwrap_or(k)
            } else {
                k
            };
            (csa_square::<V>(mv.from()), k)
        };
        out.push_str(&format!(
            "{side}{from}{}{}\n",
            csa_square::<V>(mv.to()),
            csa_kind(kind)
        ));
        if let Some(Some(ms)) = times_ms.get(i) {
            out.push_str(&format!("T{}\n", ms / 1000));
        }
        pos.do_move(mv);
    }
    let end = match rec.reason {
        // an adjudicated loss is always the side to move's, as a resignation is
        Reason::Resign | Reason::Adjudication => "%TORYO",
        Reason::Checkmate | Reason::NoMoves => "%TSUMI",
        Reason::Illegal | Reason::FalseDeclaration => "%ILLEGAL_MOVE",
        Reason::Time => "%TIME_UP",
        Reason::Hang | Reason::Crash => "%CHUDAN",
        Reason::Repetition => "%SENNICHITE",
        Reason::Perpetual => "%OUTE_SENNICHITE",
        Reason::Declaration => "%KACHI",
        Reason::MaxPlies => "%JISHOGI",
        Reason::DrawAdjudication => "%HIKIWAKE",
    };
    out.push_str(end);
    out.push('\n');
    out.push_str(&format!(
        "'result {} {}\n",
        rec.outcome.as_str(),
        rec.reason.as_str()
    ));
    Some(out)
}

/// The record files of a match being played: `games.txt` in game order, although games finish in any order, and
/// for 9×9 shogi a CSA file per game, and for 9×9 shogi and minishogi a KIF file (`0001.kif`). A file that cannot be written gets a warning, and the match goes on.
pub(super) struct RecordFiles {
    dir: Option<PathBuf>,
    games: Option<File>,
    /// Lines of games that finished before an earlier game.
    waiting: BTreeMap<usize, String>,
    /// The game whose line `games.txt` needs next.
    next: usize,
}

impl RecordFiles {
    /// Creates `dir` and its `games.txt`; with no directory nothing is written.
    pub fn create(dir: Option<&Path>) -> Result<Self, String> {
        let mut games = None;
        if let Some(dir) = dir {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            let p = dir.join(GAMES_FILE);
            games =
                Some(File::create(&p).map_err(|e| format!("cannot create {}: {e}", p.display()))?);
            // live files of an earlier match in the same folder would show games that are not running
            let live = dir.join(LIVE_DIR);
            let _ = std::fs::remove_dir_all(&live);
            std::fs::create_dir_all(&live)
                .map_err(|e| format!("cannot create {}: {e}", live.display()))?;
        }
        Ok(RecordFiles {
            dir: dir.map(Path::to_path_buf),
            games,
            waiting: BTreeMap::new(),
            next: 0,
        })
    }

    /// Records game `index` (0-based) played by `names` (sente, gote).
    pub fn add<V: Variant>(
        &mut self,
        index: usize,
        line: &RecordLine,
        names: [&str; 2],
        times_ms: &[Option<u64>],
        started: Option<SystemTime>,
        report: &dyn Report,
    ) {
        if let Some(dir) = &self.dir {
            let csa = csa_text::<V>(line, names, times_ms).map(|t| ("csa", t.into_bytes()));
            for (ext, bytes) in csa
                .into_iter()
                .chain(kif_file::<V>(line, names, times_ms, started))
            {
                let path = dir.join(format!("{:04}.{ext}", index + 1));
                if let Err(e) = std::fs::write(&path, bytes) {
                    report.line(&format!("warning: cannot write {}: {e}", path.display()));
                }
            }
        }
        self.waiting.insert(index, line.format());
        while let Some(l) = self.waiting.remove(&self.next) {
            if let Some(file) = self.games.as_mut() {
                if let Err(e) = writeln!(file, "{l}").and_then(|_| file.flush()) {
                    report.line(&format!("warning: cannot write the record: {e}"));
                }
            }
            self.next += 1;
            // only now, so that a watcher finds the game in one file or the other at every moment
            if let Some(dir) = &self.dir {
                let _ = std::fs::remove_file(LiveGame::path(dir, self.next));
            }
        }
    }

    /// Writes the lines still waiting for an earlier game that was abandoned, and removes the live records.
    pub fn finish(self) {
        if let Some(dir) = &self.dir {
            let _ = std::fs::remove_dir_all(dir.join(LIVE_DIR));
        }
        let Some(mut file) = self.games else {
            return;
        };
        for l in self.waiting.into_values() {
            let _ = writeln!(file, "{l}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Minishogi, Shogi};

    #[test]
    fn line_round_trip() {
        let line = "0-1 checkmate sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves \
                    2g2f 3c3d";
        let r = RecordLine::parse(line).unwrap();
        assert_eq!(r.outcome, Outcome::WhiteWins);
        assert_eq!(r.reason, Reason::Checkmate);
        assert_eq!(r.moves, vec!["2g2f", "3c3d"]);
        assert_eq!(
            r.format(),
            line.split_whitespace().collect::<Vec<_>>().join(" ")
        );
        let empty = "1-0 resign sfen rbsgk/4p/5/P4/KGSBR w - 1 moves";
        let r = RecordLine::parse(empty).unwrap();
        assert!(r.moves.is_empty());
        assert_eq!(r.format(), empty);
        assert!(RecordLine::parse("1-0 bogus sfen x b - 1 moves").is_err());
        assert!(RecordLine::parse("2-0 resign sfen x b - 1 moves").is_err());
    }

    #[test]
    fn verification() {
        let start = Shogi::START_SFEN;
        let ok = |s: &str| verify::<Shogi>(&RecordLine::parse(s).unwrap(), 0);
        // fool's-mate-like sequences are long in shogi; use a resign and an illegal-move record instead
        ok(&format!("0-1 resign sfen {start} moves")).unwrap();
        ok(&format!("1-0 resign sfen {start} moves 7g7f")).unwrap();
        assert!(ok(&format!("1-0 resign sfen {start} moves")).is_err());
        assert!(ok(&format!("1-0 resign sfen {start} moves 7g7e")).is_err());
        ok(&format!(
            "1/2-1/2 repetition sfen {start} moves {}",
            "2h3h 8b7b 3h2h 7b8b ".repeat(3)
        ))
        .unwrap();
        // the repetition came earlier than the last move
        assert!(ok(&format!(
            "1/2-1/2 repetition sfen {start} moves {} 2h3h",
            "2h3h 8b7b 3h2h 7b8b ".repeat(3)
        ))
        .is_err());
        ok("1-0 checkmate sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1 moves G*5b").unwrap();
        assert!(ok("0-1 checkmate sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1 moves G*5b").is_err());
        ok("1-0 declaration sfen RBGGKSS2/LL7/NN7/9/9/9/9/9/4k4 b 10P 1 moves").unwrap();
        ok(&format!("0-1 false-declaration sfen {start} moves")).unwrap();
        ok(&format!("1/2-1/2 maxplies sfen {start} moves 7g7f 3c3d")).unwrap();
        // adjudications: the loser is the side to move; a draw adjudication is a draw
        ok(&format!("0-1 adjudication sfen {start} moves 7g7f 3c3d")).unwrap();
        ok(&format!("1-0 adjudication sfen {start} moves 7g7f")).unwrap();
        assert!(ok(&format!("1-0 adjudication sfen {start} moves 7g7f 3c3d")).is_err());
        assert!(ok(&format!("1/2-1/2 adjudication sfen {start} moves 7g7f")).is_err());
        ok(&format!(
            "1/2-1/2 draw-adjudication sfen {start} moves 7g7f"
        ))
        .unwrap();
        assert!(ok(&format!("1-0 draw-adjudication sfen {start} moves 7g7f")).is_err());
        // no adjudication of a game that was already over
        assert!(ok("1-0 adjudication sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1 moves G*5b").is_err());
        assert!(
            ok("1/2-1/2 draw-adjudication sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1 moves G*5b").is_err()
        );
        assert!(verify::<Shogi>(
            &RecordLine::parse(&format!("1/2-1/2 maxplies sfen {start} moves 7g7f")).unwrap(),
            2
        )
        .is_err());
        let mini = Minishogi::START_SFEN;
        verify::<Minishogi>(
            &RecordLine::parse(&format!(
                "0-1 repetition sfen {mini} moves {}",
                "1e1d 5a5b 1d1e 5b5a ".repeat(3)
            ))
            .unwrap(),
            0,
        )
        .unwrap();
    }

    #[test]
    fn live_records_are_rewritten_and_removed_once_in_games_txt() {
        let dir = std::env::temp_dir().join(format!("hayate-live-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut files = RecordFiles::create(Some(&dir)).unwrap();
        let start = "rbsgk/4p/5/P4/KGSBR b - 1";
        let mut live = LiveGame {
            number: 2,
            names: ["A".into(), "B b".into()],
            clocks: Some([1000, 900]),
            scores: vec![],
            start_sfen: start.into(),
            moves: vec![],
            ending: None,
        };
        live.write(&dir).unwrap();
        live.moves = vec!["2e2d".into(), "4a4b".into()];
        live.clocks = Some([950, 880]);
        live.scores = vec![None, Some(-35)];
        live.write(&dir).unwrap();
        let path = dir.join("live").join("2.txt");
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text,
            "game 2\nsente A\ngote B b\nclocks 950 880\nscores - -35\n\
             * playing sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 2e2d 4a4b\n"
        );
        assert_eq!(LiveGame::parse(&text).unwrap(), live);
        // the temporary file was renamed, not left behind
        let names: Vec<_> = std::fs::read_dir(dir.join("live"))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names, vec!["2.txt"]);
        // a file cut short, or without its record line, is refused
        assert!(LiveGame::parse(&text[..text.len() - 3]).is_err());
        assert!(LiveGame::parse("game 2\nsente A\ngote B\n").is_err());
        assert!(LiveGame::parse(&text.replace("-35", "x")).is_err());
        assert!(
            LiveGame::parse("game x\nsente A\ngote B\n* playing sfen a b - 1 moves\n").is_err()
        );

        // game 2 is over, but its line waits in its live file for game 1
        live.ending = Some((Outcome::WhiteWins, Reason::Resign));
        live.clocks = None;
        live.scores = vec![None, None];
        live.write(&dir).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "game 2\nsente A\ngote B b\n0-1 resign sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 2e2d 4a4b\n"
        );
        let line2 = RecordLine {
            outcome: Outcome::WhiteWins,
            reason: Reason::Resign,
            start_sfen: start.into(),
            moves: live.moves.clone(),
        };
        let report = |_: &str| {};
        files.add::<Minishogi>(1, &line2, ["B b", "A"], &[None, None], None, &report);
        assert!(path.exists());
        let line1 = RecordLine {
            moves: vec![],
            ..line2.clone()
        };
        files.add::<Minishogi>(0, &line1, ["A", "B b"], &[], None, &report);
        assert!(!path.exists());
        assert_eq!(
            std::fs::read_to_string(dir.join(GAMES_FILE)).unwrap(),
            format!("{}\n{}\n", line1.format(), line2.format())
        );
        files.finish();
        assert!(!dir.join("live").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn csa() {
        let r = RecordLine::parse(&format!(
            "0-1 resign sfen {} moves 7g7f 3c3d 8h2b+ 3a2b B*4e",
            Shogi::START_SFEN
        ))
        .unwrap();
        // the first two moves come from the opening: no times
        let times = [None, None, Some(999), Some(1000), Some(62_500)];
        let text = csa_text::<Shogi>(&r, ["A", "B"], &times).unwrap();
        assert_eq!(
            text,
            "V2.2\nN+A\nN-B\n$EVENT:hayate match\nPI\n+\n+7776FU\n-3334FU\n+8822UM\nT0\n-3122GI\nT1\n+0045KA\n\
             T62\n%TORYO\n'result 0-1 resign\n"
        );
        let ending = |line: &str| {
            let r = RecordLine::parse(&format!("{line} sfen {} moves 7g7f", Shogi::START_SFEN))
                .unwrap();
            let text = csa_text::<Shogi>(&r, ["A", "B"], &[Some(10)]).unwrap();
            text.lines().rev().nth(1).unwrap().to_string()
        };
        assert_eq!(ending("1-0 adjudication"), "%TORYO");
        assert_eq!(ending("1/2-1/2 draw-adjudication"), "%HIKIWAKE");
        assert_eq!(ending("1/2-1/2 maxplies"), "%JISHOGI");
        assert_eq!(ending("1-0 time"), "%TIME_UP");
        assert_eq!(ending("1-0 hang"), "%CHUDAN");
        assert_eq!(ending("1-0 crash"), "%CHUDAN");
        assert_eq!(ending("1-0 illegal"), "%ILLEGAL_MOVE");
        let r = RecordLine::parse("1-0 checkmate sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1 moves G*5b")
            .unwrap();
        let text = csa_text::<Shogi>(&r, ["A", "B"], &[]).unwrap();
        assert!(text.contains("P1 *  *  *  * -OU *  *  *  * \n"), "{text}");
        assert!(text.contains("P+00KI\n+\n+0052KI\n%TSUMI\n"), "{text}");
        let m =
            RecordLine::parse(&format!("0-1 resign sfen {} moves", Minishogi::START_SFEN)).unwrap();
        assert!(csa_text::<Minishogi>(&m, ["A", "B"], &[]).is_none());
    }
}
