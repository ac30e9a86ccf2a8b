//! `hayate match --merge DIR...`: the shards' `--out` folders joined into the whole match's: `games.txt` in game
//! order, the CSA and KIF files, a `match.json` of the whole match, and the summary a single run prints.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::{difference, Manifest, ManifestError};
use crate::host::records::{self, RecordLine, RecordLineError, ReplayError, GAMES_FILE};
use crate::host::Shard;
use crate::matches::play::GameRecord;
use crate::matches::tally::{summary_lines, FinishedGame, SummaryFrame, Tally};
use crate::{with_variant, GameKind};

/// One shard's folder as read.
struct Part {
    dir: PathBuf,
    manifest: Manifest,
    shard: Shard,
}

/// Why a shard's games could not be taken in, or the merged records not written; each names its file, and a
/// record its line (from 1) and game number, so that the shard at fault can be found and played again.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error("cannot {what} {}: {error}", .path.display())]
    Io {
        what: &'static str,
        path: PathBuf,
        #[source]
        error: std::io::Error,
    },
    #[error("{} holds {lines} games, its {} lists {listed}", .path.display(), super::MANIFEST_FILE)]
    Count {
        path: PathBuf,
        lines: usize,
        listed: usize,
    },
    #[error("{} line {line} (game {game}): {error}", .path.display())]
    Line {
        path: PathBuf,
        line: usize,
        game: usize,
        #[source]
        error: RecordLineError,
    },
    #[error("{} line {line} (game {game}): {error}", .path.display())]
    Replay {
        path: PathBuf,
        line: usize,
        game: usize,
        #[source]
        error: ReplayError,
    },
    #[error(transparent)]
    Manifest(#[from] ManifestError),
}

impl MergeError {
    fn io(what: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> MergeError + use<> {
        let path = path.to_path_buf();
        move |error| MergeError::Io { what, path, error }
    }
}

/// Merges the shards in `dirs` into `out`; returns the lines to print (a line saying what was merged, then the
/// summary), or one line per thing wrong with the shards, and then nothing is written.
pub fn merge(dirs: &[PathBuf], out: &Path) -> Result<Vec<String>, Vec<String>> {
    let parts = read_parts(dirs)?;
    let first = &parts[0];
    let id = &first.manifest.id;
    let variant: GameKind = id
        .variant
        .parse()
        .map_err(|e| vec![format!("{}: {e}", first.dir.display())])?;
    let sprt = id
        .sprt
        .as_ref()
        .map(|s| s.config())
        .transpose()
        .map_err(|e| vec![format!("{}: {e}", first.dir.display())])?;
    check_whole(&parts, out)?;
    let mut games: Vec<(usize, RecordLine, &Path)> = Vec::with_capacity(id.games);
    let mut errors = Vec::new();
    for p in &parts {
        match read_games(p, variant) {
            Ok(g) => games.extend(g.into_iter().map(|(n, l)| (n, l, p.dir.as_path()))),
            Err(e) => errors.push(e.to_string()),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    games.sort_by_key(|g| g.0);
    write_records(out, &games, &first.manifest).map_err(|e| vec![e.to_string()])?;

    let names = [id.engines[0].name.clone(), id.engines[1].name.clone()];
    // every game counts in the SPRT: the shards played them all, so the LLR is that of the whole set
    let mut tally = Tally::new(names, sprt.as_ref());
    for (n, line, _) in games {
        tally.count(&finished(n, line));
    }
    let frame = SummaryFrame {
        variant,
        planned: id.games,
        sprt: sprt.as_ref(),
        shard: Shard::WHOLE,
    };
    let mut lines = vec![format!(
        "Merged {} shards, {} games, into {}",
        parts.len(),
        id.games,
        out.join(GAMES_FILE).display()
    )];
    lines.extend(summary_lines(&tally.summary, &frame));
    Ok(lines)
}

/// Reads every folder's manifest and checks that they are shards of one match; one error line per folder that
/// is not.
fn read_parts(dirs: &[PathBuf]) -> Result<Vec<Part>, Vec<String>> {
    let mut parts = Vec::new();
    let mut errors = Vec::new();
    for dir in dirs {
        let read = Manifest::read(dir).map_err(|e| e.to_string());
        let part = read.and_then(|manifest| {
            let shard = manifest
                .shard
                .parse::<Shard>()
                .map_err(|e| format!("{}: {e}", dir.join(super::MANIFEST_FILE).display()))?;
            Ok(Part {
                dir: dir.clone(),
                manifest,
                shard,
            })
        });
        match part {
            Ok(p) => parts.push(p),
            Err(e) => errors.push(e),
        }
    }
    let Some(first) = parts.first() else {
        errors.push("--merge needs at least one folder".into());
        return Err(errors);
    };
    for p in &parts[1..] {
        if let Some(d) = difference(&first.manifest.id, &p.manifest.id) {
            errors.push(format!(
                "shard {} in {} is of another match than shard {} in {}: {d}",
                p.shard,
                p.dir.display(),
                first.shard,
                first.dir.display()
            ));
        } else if p.shard.count() != first.shard.count() {
            errors.push(format!(
                "shard {} in {} splits the match in {}, shard {} in {} in {}",
                p.shard,
                p.dir.display(),
                p.shard.count(),
                first.shard,
                first.dir.display(),
                first.shard.count()
            ));
        }
    }
    if errors.is_empty() {
        Ok(parts)
    } else {
        Err(errors)
    }
}

/// Checks that every shard is there once, each with all its games, and that `out` is none of them.
fn check_whole(parts: &[Part], out: &Path) -> Result<(), Vec<String>> {
    let n = parts[0].shard.count();
    let games = parts[0].manifest.id.games;
    let mut errors = Vec::new();
    for k in 0..n {
        let here: Vec<&Part> = parts.iter().filter(|p| p.shard.index() == k).collect();
        match here.as_slice() {
            [] => errors.push(format!("shard {k}/{n} is missing")),
            [p] => {
                let own: Vec<usize> = (0..games)
                    .filter(|&i| p.shard.owns((i / 2) as u64))
                    .map(|i| i + 1)
                    .collect();
                let mut played = p.manifest.games_played.clone();
                played.sort_unstable();
                if played != own {
                    errors.push(format!(
                        "shard {k}/{n} in {} is not complete: {} of its {} games ({})",
                        p.dir.display(),
                        played
                            .iter()
                            .filter(|g| own.binary_search(g).is_ok())
                            .count(),
                        own.len(),
                        crate::rules::truncate(&p.manifest.state)
                    ));
                }
            }
            [p, more @ ..] => errors.push(format!(
                "shard {k}/{n} is doubled: in {} and {}",
                p.dir.display(),
                more.iter()
                    .map(|q| q.dir.display().to_string())
                    .collect::<Vec<_>>()
                    .join(" and ")
            )),
        }
    }
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    };
    if let Some(p) = parts.iter().find(|p| same(&p.dir, out)) {
        errors.push(format!(
            "--out {} is shard {}'s folder: give the merge a folder of its own",
            out.display(),
            p.shard
        ));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// The shard's games with their 1-based numbers, each record replayed with the rules core; one error line for
/// the first thing wrong.
fn read_games(p: &Part, variant: GameKind) -> Result<Vec<(usize, RecordLine)>, MergeError> {
    let path = p.dir.join(GAMES_FILE);
    let text = std::fs::read_to_string(&path).map_err(MergeError::io("read", &path))?;
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
    let numbers = &p.manifest.games_played;
    if lines.len() != numbers.len() {
        return Err(MergeError::Count {
            path,
            lines: lines.len(),
            listed: numbers.len(),
        });
    }
    let max_plies = p.manifest.id.max_plies;
    numbers
        .iter()
        .zip(lines)
        .map(|(&n, (i, l))| {
            let (line, game) = (i + 1, n);
            let rec = RecordLine::parse(l.trim()).map_err(|error| MergeError::Line {
                path: path.clone(),
                line,
                game,
                error,
            })?;
            with_variant!(variant, V => records::verify::<V>(&rec, max_plies)).map_err(
                |error| MergeError::Replay {
                    path: path.clone(),
                    line,
                    game,
                    error,
                },
            )?;
            Ok((n, rec))
        })
        .collect()
}

/// Writes the merged `games.txt`, copies each game's CSA and KIF files, and writes the whole match's manifest.
fn write_records(
    out: &Path,
    games: &[(usize, RecordLine, &Path)],
    first: &Manifest,
) -> Result<(), MergeError> {
    std::fs::create_dir_all(out).map_err(MergeError::io("create", out))?;
    let mut text = String::new();
    for (n, line, dir) in games {
        text.push_str(&line.format());
        text.push('\n');
        for ext in ["csa", "kif"] {
            let name = format!("{n:04}.{ext}");
            let from = dir.join(&name);
            if from.exists() {
                std::fs::copy(&from, out.join(&name)).map_err(MergeError::io("copy", &from))?;
            }
        }
    }
    let path = out.join(GAMES_FILE);
    std::fs::write(&path, text).map_err(MergeError::io("write", &path))?;
    let whole = Manifest {
        shard: Shard::WHOLE.to_string(),
        state: "complete".into(),
        games_played: games.iter().map(|g| g.0).collect(),
        ..first.clone()
    };
    Ok(whole.write(out)?)
}

/// A merged game as the tally takes it: only its number, result and reason count there.
fn finished(number: usize, line: RecordLine) -> FinishedGame {
    let index = number - 1;
    FinishedGame {
        index,
        // as the runner gives colours: the first engine is sente in the first game of each pair
        sente: index % 2,
        record: GameRecord {
            start_sfen: line.start_sfen,
            times_ms: vec![None; line.moves.len()],
            moves: line.moves,
            outcome: line.outcome,
            reason: line.reason,
            detail: String::new(),
            failed: [false; 2],
            started: SystemTime::UNIX_EPOCH,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_errors_read_as_before() {
        let count = MergeError::Count {
            path: "s/games.txt".into(),
            lines: 3,
            listed: 4,
        };
        assert_eq!(
            count.to_string(),
            "s/games.txt holds 3 games, its match.json lists 4"
        );
        let line = MergeError::Line {
            path: "s/games.txt".into(),
            line: 2,
            game: 7,
            error: RecordLine::parse("nonsense").unwrap_err(),
        };
        assert!(
            line.to_string()
                .starts_with("s/games.txt line 2 (game 7): "),
            "{line}"
        );
        let io = MergeError::io("copy", Path::new("s/0001.csa"))(std::io::Error::other("full"));
        assert_eq!(io.to_string(), "cannot copy s/0001.csa: full");
    }
}
