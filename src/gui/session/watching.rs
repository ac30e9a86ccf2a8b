//! A session's watched records: the games of a watched file or running match, and the one shown on the page.

use super::*;

impl Session {
    pub(super) fn watcher(&mut self) -> Result<&mut watch::Watcher, SessionError> {
        let path = self.watch_path.as_ref().ok_or(SessionError::NotWatching)?;
        Ok(self
            .watcher
            .get_or_insert_with(|| watch::Watcher::new(path.clone())))
    }

    /// Reads the watched files again when it is time: the new list when it changed, and the watched game at its
    /// new last ply when it grew while the page showed its last ply.
    pub(super) fn poll_watch(&mut self) -> Vec<Reply> {
        if self.last_watch_poll.elapsed() < WATCH_POLL {
            return Vec::new();
        }
        self.last_watch_poll = Instant::now();
        let Some(watcher) = self.watcher.as_mut() else {
            return Vec::new();
        };
        match watcher.refresh() {
            Ok(true) => {}
            Ok(false) => return Vec::new(),
            Err(e) => {
                // the file may be between a match's creation and its first line; the page keeps what it has
                log::debug!("gui: watch: {e}");
                return Vec::new();
            }
        }
        let games = watcher.games();
        let mut out = vec![Reply::Games {
            games: watch::summaries(&games),
        }];
        let Some((index, old)) = &self.watched else {
            return out;
        };
        let Some(Ok(new)) = games.get(*index) else {
            return out;
        };
        let grew = new.moves.len() != old.moves.len()
            || new.ending != old.ending
            || new.clocks != old.clocks;
        // the same game: the moves seen are the head of the new ones
        if !grew || !new.moves.starts_with(&old.moves) {
            return out;
        }
        let (index, new) = (*index, (*new).clone());
        let ply = if self.record.moves.len() == old.moves.len() {
            new.moves.len()
        } else {
            self.record.moves.len()
        };
        if let Ok(rec) = watch::at_ply(&new, ply) {
            // an analysis of the position shown goes on; the page then gets only the new count
            if self.job.is_none() {
                self.show_watched(index, new, rec);
            } else {
                self.watched = Some((index, new));
            }
            out.push(Reply::State(Box::new(self.state())));
        }
        out
    }

    /// Shows `rec`, game `index` of the watched list at some ply, with its engines' scores.
    pub(super) fn show_watched(&mut self, index: usize, game: watch::FileGame, rec: Record) {
        let ply = rec.moves.len();
        self.replace_game(rec);
        self.evals = watch::evals(&game, ply);
        self.watched = Some((index, game));
    }

    /// A running match's clocks for the watched game shown at its last ply.
    pub(super) fn watched_clocks(&self) -> Option<[u64; 2]> {
        let (_, game) = self.watched.as_ref()?;
        (self.player.is_none() && self.record.moves.len() == game.moves.len())
            .then_some(game.clocks)
            .flatten()
    }
}
