//! A session's engine jobs: starting one (a move, an analysis, a mate search), its output turned into messages
//! for the page, its end.

use super::*;

impl Session {
    pub(super) fn cancel_job(&mut self) {
        if let Some(job) = self.job.take() {
            if let Some(Some(w)) = self.workers.get(job.engine) {
                w.send(Job::Stop);
            }
            if job.purpose == Purpose::Move {
                if let Some(p) = &mut self.player {
                    p.clocks.stop();
                }
            }
        }
    }

    /// The engine's worker for the current game, started when missing or for another game.
    pub(super) fn worker(&mut self, engine: usize) -> &Worker {
        let kind = self.record.kind;
        let slot = &mut self.workers[engine];
        if slot.as_ref().is_none_or(|w| w.kind != kind) {
            *slot = Some(Worker::start(
                self.specs[engine].clone(),
                kind,
                engine,
                self.events_tx.clone(),
            ));
        }
        match slot {
            Some(w) => w,
            None => unreachable!("just started"),
        }
    }

    pub(super) fn start_job(
        &mut self,
        engine: usize,
        purpose: Purpose,
        commands: Vec<String>,
        until: &'static str,
    ) {
        let id = self.next_id;
        self.next_id += 1;
        self.worker(engine).send(Job::Run {
            id,
            commands,
            until,
        });
        self.lines.clear();
        self.depth = 0;
        self.nodes = 0;
        self.job = Some(Running {
            id,
            engine,
            purpose,
            ply: self.record.moves.len(),
            black: self.record.black_to_move(),
        });
    }

    /// Starts whatever should run now: the engine's move, the analysis of the new position, the player's clock.
    pub(super) fn kick(&mut self) {
        if self.job.is_some() {
            return;
        }
        if self.record.ending.is_some() {
            if let Some(p) = &mut self.player {
                p.clocks.stop();
            }
            return;
        }
        let to_move = self.side_to_move();
        if let Some(p) = &mut self.player {
            if p.clocks.running_side() != Some(to_move) {
                p.clocks.stop();
                p.clocks.start(to_move);
            }
            if p.side == to_move {
                let (engine, go) = (p.engine, p.clocks.go_command());
                let commands = vec![
                    "setoption name MultiPV value 1".to_string(),
                    self.record.position_command(),
                    go,
                ];
                self.start_job(engine, Purpose::Move, commands, "bestmove");
            }
        } else if let Some((engine, multipv)) = self.analysis {
            let commands = vec![
                format!("setoption name MultiPV value {multipv}"),
                self.record.position_command(),
                "go infinite".to_string(),
            ];
            self.start_job(engine, Purpose::Analyse, commands, "bestmove");
        }
    }

    /// The engines' output and the clocks since the last call, as messages for the page.
    pub fn poll(&mut self) -> Vec<Reply> {
        let mut out = Vec::new();
        let mut changed = false;
        while let Ok((engine, event)) = self.events_rx.try_recv() {
            match event {
                Event::Failed(error) => {
                    log::warn!("gui: engine {engine}: {error}");
                    self.workers[engine] = None;
                    if self.job.as_ref().is_some_and(|j| j.engine == engine) {
                        self.job = None;
                        if let Some(p) = &mut self.player {
                            p.clocks.stop();
                        }
                    }
                    self.analysis = self.analysis.filter(|a| a.0 != engine);
                    out.push(Reply::EngineError {
                        engine,
                        message: error.to_string(),
                    });
                    changed = true;
                }
                Event::Info { id, line } => {
                    if let Some(r) = self.info(id, &line) {
                        out.push(r);
                    }
                }
                Event::Done { id, line } => {
                    if self.job.as_ref().is_some_and(|j| j.id == id) {
                        if let Some(r) = self.done(&line) {
                            out.push(r);
                        }
                        changed = true;
                    }
                }
            }
        }
        if let Some(p) = &self.player {
            if let (Some(side), None) = (p.clocks.flagged(), self.record.ending) {
                self.end(Ending {
                    outcome: Outcome::win_for(!Color::ALL[side]),
                    reason: Reason::Time,
                });
                changed = true;
            }
        }
        if changed {
            out.push(Reply::State(Box::new(self.state())));
        }
        out.extend(self.poll_watch());
        out
    }

    pub(super) fn info(&mut self, id: u64, line: &str) -> Option<Reply> {
        let job = self.job.as_ref().filter(|j| j.id == id)?;
        let info = parse_info(line)?;
        if info.multipv == 1 {
            if let Some(cp) = info.cp {
                let cp = if job.black { cp } else { -cp };
                if let Some(e) = self.evals.get_mut(job.ply) {
                    *e = Some(cp);
                }
            }
        }
        if job.purpose != Purpose::Analyse {
            return None;
        }
        let engine = job.engine;
        self.depth = info.depth.unwrap_or(self.depth);
        self.nodes = info.nodes.unwrap_or(self.nodes);
        if !info.pv.is_empty() {
            // a move heads one line only: a line of the previous depth that the new one overtook goes
            let first = info.pv[0].clone();
            self.lines
                .retain(|&k, l| k == info.multipv || l.pv.first() != Some(&first));
            self.lines.insert(
                info.multipv,
                Line {
                    multipv: info.multipv,
                    score: info.score,
                    pv_ja: self.record.japanese_line(&info.pv),
                    pv: info.pv,
                },
            );
        }
        Some(Reply::Analysis {
            engine,
            depth: self.depth,
            nodes: self.nodes,
            lines: self.lines.values().cloned().collect(),
        })
    }

    /// The line that ended the running job.
    pub(super) fn done(&mut self, line: &str) -> Option<Reply> {
        let job = self.job.take()?;
        let mut words = line.split_whitespace().skip(1);
        let answer = words.next().unwrap_or("");
        match job.purpose {
            Purpose::Move => {
                let Some(p) = &mut self.player else {
                    return None;
                };
                let engine_color = Color::ALL[p.side];
                let in_time = p.clocks.stop();
                if !in_time {
                    self.end(Ending {
                        outcome: Outcome::win_for(!engine_color),
                        reason: Reason::Time,
                    });
                } else if answer == "resign" {
                    self.end(Ending {
                        outcome: Outcome::win_for(!engine_color),
                        reason: Reason::Resign,
                    });
                } else if answer == "win" {
                    let (outcome, reason) = self.record.declaration();
                    self.end(Ending { outcome, reason });
                } else if let Err(e) = self.record.play(answer) {
                    log::warn!("gui: engine move '{}' refused: {e}", truncate(answer));
                    self.end(Ending {
                        outcome: Outcome::win_for(!engine_color),
                        reason: Reason::Illegal,
                    });
                } else {
                    self.evals.resize(self.record.moves.len() + 1, None);
                }
                self.kick();
                None
            }
            Purpose::Analyse => {
                // the search ended by itself (a position without moves): it is not started again
                self.analysis = None;
                None
            }
            Purpose::Mate => {
                let rest: Vec<String> = std::iter::once(answer)
                    .chain(words)
                    .filter(|w| !w.is_empty())
                    .map(str::to_string)
                    .collect();
                let result = match rest.first().map(String::as_str) {
                    Some(r @ ("nomate" | "timeout" | "notimplemented")) => r.to_string(),
                    Some(_) => "mate".to_string(),
                    None => "nomate".to_string(),
                };
                let moves = if result == "mate" { rest } else { Vec::new() };
                let moves_ja = self.record.japanese_line(&moves);
                Some(Reply::Mate {
                    result,
                    moves,
                    moves_ja,
                })
            }
        }
    }
}
