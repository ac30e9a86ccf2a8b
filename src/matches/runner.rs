//! Running a match: checks what it needs before the first game, hands out game numbers to the workers (one per
//! concurrency slot), and takes in their results: tally, progress lines, records.

use std::marker::PhantomData;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Mutex;

use crate::host::Shard;
use crate::Variant;

use super::cluster::Manifest;
use super::openings;
use super::progress::{self, progress_bar};
use super::record_files::RecordFiles;
use super::tally::{summary_lines, FinishedGame, MatchSummary, SummaryFrame, Tally};
use super::worker::{Message, Shared, Worker};
use super::{MatchConfig, MatchError, Report};
use crate::host::engine_process::EngineProcess;
use crate::host::interrupt;

/// Plays the match in the game `V`; see [`super::run_match`].
pub(super) fn run<V: Variant>(
    cfg: &MatchConfig,
    report: &dyn Report,
) -> Result<MatchSummary, MatchError> {
    if cfg.games == 0 {
        return Err(MatchError::NoGames);
    }
    let openings = openings::load::<V>(&cfg.openings)?;
    // the first pair's opening now, so that impossible random plies fail the match before it starts
    openings::with_random_plies::<V>(&openings[0], cfg.random_plies, cfg.seed, 0)?;
    let games = cfg.shard_games();
    let records = RecordFiles::create(cfg.out_dir.as_deref(), games.clone())?;
    let (first_slots, names) = start_engines::<V>(cfg)?;
    let mut manifest = Manifest::new(cfg, &names);
    write_manifest(cfg, &manifest, report);
    let concurrency = cfg.concurrency.clamp(1, games.len().max(1));
    report.line(&progress::header(
        cfg,
        &names,
        V::NAME,
        concurrency,
        openings.len(),
    ));
    let (job_tx, job_rx) = mpsc::channel::<usize>();
    let mut collector = Collector::<V> {
        cfg,
        report,
        names: &names,
        // a shard never stops for the SPRT, so that it plays the same games whatever the others' results
        tally: Tally::new(
            names.clone(),
            cfg.sprt.as_ref().filter(|_| cfg.shard == Shard::WHOLE),
        ),
        records,
        schedule: Schedule::start(job_tx, concurrency, games),
        variant: PhantomData,
    };
    collector.show_progress();
    let shared = Shared {
        cfg,
        openings: &openings,
        names: &names,
        jobs: &Mutex::new(job_rx),
    };
    play_games(shared, first_slots, concurrency, &mut collector);
    let Collector {
        tally,
        records,
        schedule,
        ..
    } = collector;
    let written = records.finish();
    let mut summary = tally.summary;
    if summary.interrupted.is_none() && interrupt::requested() {
        summary.interrupted = Some(interrupt::signal());
    }
    manifest.state = match (&summary.error, summary.interrupted) {
        (Some(e), _) => format!("error: {e}"),
        (None, Some(_)) => "interrupted".into(),
        _ if written.len() < schedule.games.len() => "stopped by the SPRT".into(),
        _ => "complete".into(),
    };
    manifest.games_played = written.iter().map(|g| g + 1).collect();
    write_manifest(cfg, &manifest, report);
    report.progress(None);
    summary.games.sort_by_key(|g| g.index);
    for l in summary_lines(&summary, &SummaryFrame::of(cfg)) {
        report.line(&l);
    }
    Ok(summary)
}

/// Writes the run's `match.json` into `--out`, if there is one; a failure is a warning, as for the records.
fn write_manifest(cfg: &MatchConfig, manifest: &Manifest, report: &dyn Report) {
    if let Some(dir) = &cfg.out_dir {
        if let Err(e) = manifest.write(dir) {
            report.line(&format!("warning: {e}"));
        }
    }
}

/// Starts one process of each engine, so that a bad command fails the match at once (they serve worker 0), and
/// names the engines: `name=`, else the engine's `id name`, else its command; `#1` and `#2` when the names agree.
fn start_engines<V: Variant>(
    cfg: &MatchConfig,
) -> Result<([Option<EngineProcess>; 2], [String; 2]), MatchError> {
    let mut slots: [Option<EngineProcess>; 2] = [None, None];
    let mut names: [String; 2] = Default::default();
    for e in 0..2 {
        let spec = &cfg.engines[e];
        let label = format!("engine {}", e + 1);
        let engine =
            EngineProcess::start(spec, V::KIND, &label, cfg.ready_timeout).map_err(|error| {
                MatchError::Engine {
                    number: e + 1,
                    cmd: spec.cmd.clone(),
                    error,
                }
            })?;
        names[e] = spec
            .name
            .clone()
            .or_else(|| engine.id_name.clone())
            .unwrap_or_else(|| spec.fallback_name());
        slots[e] = Some(engine);
    }
    if names[0] == names[1] {
        for (e, n) in names.iter_mut().enumerate() {
            n.push_str(&format!(" #{}", e + 1));
        }
    }
    Ok((slots, names))
}

/// Runs the workers, `first_slots` serving the first, and takes in their games until all are done or the match
/// stops.
fn play_games<V: Variant>(
    shared: Shared<'_>,
    first_slots: [Option<EngineProcess>; 2],
    concurrency: usize,
    collector: &mut Collector<'_, V>,
) {
    let (tx, rx) = mpsc::channel::<Message>();
    std::thread::scope(|s| {
        let mut first_slots = Some(first_slots);
        for id in 0..concurrency {
            let worker = Worker::<V> {
                id,
                slots: first_slots.take().unwrap_or_default(),
                shared,
                results: tx.clone(),
                variant: PhantomData,
            };
            s.spawn(move || worker.run());
        }
        drop(tx);
        collector.collect(&rx);
    });
}

/// Hands out game numbers one at a time, so that games start in order and none starts once the match stops
/// (beyond those already running).
struct Schedule {
    /// None once no game is to start.
    jobs: Option<Sender<usize>>,
    /// The numbers of the games this run plays (its shard's), in order.
    games: Vec<usize>,
    /// How many of `games` were handed out so far.
    dispatched: usize,
    stopped: bool,
}

impl Schedule {
    /// Hands out the first game of each of the `concurrency` workers.
    fn start(jobs: Sender<usize>, concurrency: usize, games: Vec<usize>) -> Self {
        let first = concurrency.min(games.len());
        for &g in &games[..first] {
            let _ = jobs.send(g);
        }
        Schedule {
            jobs: (first < games.len()).then_some(jobs),
            dispatched: first,
            games,
            stopped: false,
        }
    }

    /// No new game starts; the workers end once their game is done.
    fn stop(&mut self) {
        self.stopped = true;
        self.jobs = None;
    }

    /// A game finished: hands out the next one, if any.
    fn next(&mut self) {
        match self.games.get(self.dispatched) {
            Some(&g) if !self.stopped => {
                if let Some(j) = &self.jobs {
                    let _ = j.send(g);
                }
                self.dispatched += 1;
            }
            _ => self.jobs = None,
        }
    }
}

/// Takes in the workers' results on the runner's thread.
struct Collector<'a, V: Variant> {
    cfg: &'a MatchConfig,
    report: &'a dyn Report,
    names: &'a [String; 2],
    tally: Tally<'a>,
    records: RecordFiles,
    schedule: Schedule,
    variant: PhantomData<V>,
}

impl<V: Variant> Collector<'_, V> {
    /// Until every worker has ended, takes in their messages, and watches for a stop signal.
    fn collect(&mut self, rx: &Receiver<Message>) {
        loop {
            if interrupt::requested() && self.tally.summary.interrupted.is_none() {
                // the workers see the flag too and abandon their games
                self.tally.summary.interrupted = Some(interrupt::signal());
                self.schedule.stop();
                self.show_progress();
            }
            match rx.recv_timeout(interrupt::POLL) {
                Ok(Message::Done(g)) => self.finished(g),
                Ok(Message::Error(e)) => {
                    self.report.line(&format!("error: {e}"));
                    self.schedule.stop();
                    self.tally.summary.error.get_or_insert(e);
                }
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// A finished game: counted, printed, recorded; then the SPRT may stop the match, or the next game starts.
    fn finished(&mut self, g: FinishedGame) {
        let names = self.names;
        self.tally.count(&g);
        self.report.line(&progress::game_line(
            self.cfg,
            names,
            &g,
            &self.tally.summary,
        ));
        let players = [names[g.sente].as_str(), names[1 - g.sente].as_str()];
        self.records.add::<V>(
            g.index,
            &g.record.line(),
            players,
            &g.record.times_ms,
            Some(g.record.started),
            self.report,
        );
        if let Some((llr, decision)) = self.tally.new_decision() {
            let games = self.tally.summary.first.games();
            self.report.line(&progress::sprt_line(llr, decision, games));
            self.schedule.stop();
        }
        self.tally.summary.games.push(g);
        self.show_progress();
        self.schedule.next();
    }

    fn show_progress(&self) {
        let bar = progress_bar(
            &self.tally.summary,
            self.schedule.games.len(),
            self.cfg.sprt.as_ref(),
        );
        self.report.progress(Some(&bar));
    }
}
