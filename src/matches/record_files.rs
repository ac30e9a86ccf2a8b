//! A match's record files as its games finish: `games.txt` in game order, a CSA file per 9×9 game, and the
//! live records removed once their game's line is written.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::host::records::{csa_text, LiveGame, RecordLine, GAMES_FILE, LIVE_DIR};
use crate::matches::kif::kif_file;
use crate::matches::Report;
use crate::Variant;

/// Why a match's `--out` folder could not be made ready; the match does not start without its records.
#[derive(Debug, thiserror::Error)]
pub enum RecordFilesError {
    #[error("cannot create {}: {error}", .path.display())]
    Create {
        path: PathBuf,
        #[source]
        error: std::io::Error,
    },
}

impl RecordFilesError {
    fn create(path: &Path) -> impl FnOnce(std::io::Error) -> RecordFilesError + use<> {
        let path = path.to_path_buf();
        move |error| RecordFilesError::Create { path, error }
    }
}

/// The record files of a match being played: `games.txt` in game order, although games finish in any order, and
/// for 9×9 shogi a CSA file per game. A file that cannot be written gets a warning, and the match goes on.
pub(crate) struct RecordFiles {
    dir: Option<PathBuf>,
    games: Option<File>,
    /// Lines of games that finished before an earlier game.
    waiting: BTreeMap<usize, String>,
    /// The numbers of the games this run plays, in order (a shard's are not consecutive).
    order: Vec<usize>,
    /// The place in `order` of the game whose line `games.txt` needs next.
    next: usize,
    /// The games whose lines are in `games.txt`, in the file's order, for the shard's `match.json`.
    written: Vec<usize>,
}

impl RecordFiles {
    /// Creates `dir` and its `games.txt` for the games `order` (0-based numbers, in order); with no directory
    /// nothing is written.
    pub fn create(dir: Option<&Path>, order: Vec<usize>) -> Result<Self, RecordFilesError> {
        let mut games = None;
        if let Some(dir) = dir {
            std::fs::create_dir_all(dir).map_err(RecordFilesError::create(dir))?;
            let p = dir.join(GAMES_FILE);
            games = Some(File::create(&p).map_err(RecordFilesError::create(&p))?);
            // live files of an earlier match in the same folder would show games that are not running
            let live = dir.join(LIVE_DIR);
            let _ = std::fs::remove_dir_all(&live);
            std::fs::create_dir_all(&live).map_err(RecordFilesError::create(&live))?;
        }
        Ok(RecordFiles {
            dir: dir.map(Path::to_path_buf),
            games,
            waiting: BTreeMap::new(),
            order,
            next: 0,
            written: Vec::new(),
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
        while let Some(&game) = self.order.get(self.next) {
            let Some(l) = self.waiting.remove(&game) else {
                break;
            };
            if let Some(file) = self.games.as_mut() {
                if let Err(e) = writeln!(file, "{l}").and_then(|_| file.flush()) {
                    report.line(&format!("warning: cannot write the record: {e}"));
                }
            }
            self.next += 1;
            self.written.push(game);
            // only now, so that a watcher finds the game in one file or the other at every moment
            if let Some(dir) = &self.dir {
                let _ = std::fs::remove_file(LiveGame::path(dir, game + 1));
            }
        }
    }

    /// Writes the lines still waiting for an earlier game that was abandoned, and removes the live records.
    /// Returns the games of `games.txt`, in its order.
    pub fn finish(mut self) -> Vec<usize> {
        if let Some(dir) = &self.dir {
            let _ = std::fs::remove_dir_all(dir.join(LIVE_DIR));
        }
        for (game, l) in std::mem::take(&mut self.waiting) {
            if let Some(file) = self.games.as_mut() {
                let _ = writeln!(file, "{l}");
            }
            self.written.push(game);
        }
        self.written
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::judge::{Outcome, Reason};
    use crate::Minishogi;

    #[test]
    fn live_records_are_rewritten_and_removed_once_in_games_txt() {
        let dir = std::env::temp_dir().join(format!("hayate-live-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut files = RecordFiles::create(Some(&dir), vec![0, 1]).unwrap();
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
        assert_eq!(files.finish(), [0, 1]);
        assert!(!dir.join("live").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
