//! `hayate tune`: tuning the search's parameters ([`SearchParams`]) by SPSA (simultaneous perturbation
//! stochastic approximation), the method fishtest uses for Stockfish. Each step perturbs every tuned value at
//! once by ±c (the signs drawn at random), plays a game pair from one opening between the engine with the values
//! pushed up and the same engine with them pushed down (the `SearchParams` option), and moves each value in the
//! direction that won, by a step that shrinks as the run goes on. Noise averages out over thousands of pairs;
//! one pair tells little.
//!
//! Gains as fishtest's: `c_k = c / k^0.101`, `a_k = a / (A + k)^0.602` with `A` a tenth of the pairs; `c` and `a`
//! are set so that at the last pair the perturbation is the parameter's `c_end` and the step per point of
//! result is `r_end · c_end` (`θ += a_k / c_k · R · Δ`, with `R` the pushed-up engine's wins less its losses in
//! the pair).
//! Pairs run `concurrency` at a time, each its own two-game match (`run_match`), on the values as they stand
//! when it starts.

use std::path::PathBuf;
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::engine::params::{ParamOverrides, SearchParams};
use crate::host::interrupt;
use crate::rules::rng::{mix, SplitMix64};

use super::{run_match, MatchConfig, Report};

const ALPHA: f64 = 0.602;
const GAMMA: f64 = 0.101;

/// One value to tune as the command line gives it: `name[=start][:min:max[:c_end]]`; what is left out comes
/// from the game's own value (see [`ParamSpec::resolve`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ParamSpec {
    pub name: &'static str,
    pub start: Option<i32>,
    pub range: Option<(i32, i32)>,
    pub c_end: Option<f64>,
}

/// Why a `--param` was refused; a word quoted is cut to 40 characters.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamSpecError {
    #[error("unknown search parameter '{0}' (one of: {names})", names = SearchParams::NAMES.join(", "))]
    UnknownName(String),
    #[error("{name}: '{word}' is not a whole number")]
    NotANumber { name: &'static str, word: String },
    #[error("{name}: c_end '{word}' is not a number above 0")]
    CEnd { name: &'static str, word: String },
    #[error("{name}: the form is name[=start][:min:max[:c_end]]")]
    Form { name: &'static str },
    #[error("{name}: the range {min}..{max} is empty or does not hold the start {start}")]
    Range {
        name: &'static str,
        min: i32,
        max: i32,
        start: i32,
    },
}

fn cut(word: &str) -> String {
    word.chars().take(40).collect()
}

impl FromStr for ParamSpec {
    type Err = ParamSpecError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut fields = text.split(':');
        let head = fields.next().unwrap_or("");
        let (name, start) = match head.split_once('=') {
            Some((n, s)) => (n, Some(s)),
            None => (head, None),
        };
        let name = SearchParams::NAMES
            .iter()
            .copied()
            .find(|&n| n == name)
            .ok_or_else(|| ParamSpecError::UnknownName(cut(name)))?;
        let int = |w: &str| {
            w.parse::<i32>()
                .map_err(|_| ParamSpecError::NotANumber { name, word: cut(w) })
        };
        let start = start.map(int).transpose()?;
        let rest: Vec<&str> = fields.collect();
        let (range, c_end) = match rest.as_slice() {
            [] => (None, None),
            [lo, hi] => (Some((int(lo)?, int(hi)?)), None),
            [lo, hi, c] => {
                let c_end = c
                    .parse::<f64>()
                    .ok()
                    .filter(|c| c.is_finite() && *c > 0.0)
                    .ok_or_else(|| ParamSpecError::CEnd { name, word: cut(c) })?;
                (Some((int(lo)?, int(hi)?)), Some(c_end))
            }
            _ => return Err(ParamSpecError::Form { name }),
        };
        Ok(ParamSpec {
            name,
            start,
            range,
            c_end,
        })
    }
}

/// A value being tuned, with its bounds and its perturbation at the end of the run.
#[derive(Clone, Debug, PartialEq)]
pub struct TunedParam {
    pub name: &'static str,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    pub c_end: f64,
}

impl ParamSpec {
    /// The start defaults to the game's value (`base`); the range to half and twice it (-10..10 around a zero,
    /// a depth never below 0); `c_end` to a twentieth of the range, at least 1 (the engine reads whole numbers).
    pub fn resolve(&self, base: &SearchParams) -> Result<TunedParam, ParamSpecError> {
        let start = self.start.or_else(|| base.get(self.name)).unwrap_or(0);
        let (min, max) = self.range.unwrap_or_else(|| {
            if start == 0 {
                (-10, 10)
            } else {
                let (a, b) = (start / 2, start.saturating_mul(2));
                (a.min(b), a.max(b))
            }
        });
        if min >= max || !(min..=max).contains(&start) {
            return Err(ParamSpecError::Range {
                name: self.name,
                min,
                max,
                start,
            });
        }
        let c_end = self
            .c_end
            .unwrap_or_else(|| (f64::from(max - min) / 20.0).max(1.0));
        Ok(TunedParam {
            name: self.name,
            start: f64::from(start),
            min: f64::from(min),
            max: f64::from(max),
            c_end,
        })
    }
}

/// A tuning run.
#[derive(Clone, Debug)]
pub struct SpsaConfig {
    /// The match each pair plays: both engines are `engines[0]` (the `SearchParams` option added), its time
    /// controls, limits, openings (pair k plays opening k, cycling), random plies and seed; `games`,
    /// `concurrency`, `out_dir`, `sprt` and `shard` are set per pair.
    pub template: MatchConfig,
    pub params: Vec<TunedParam>,
    /// Game pairs to play.
    pub pairs: usize,
    /// Pairs played at the same time.
    pub concurrency: usize,
    /// The step per point of result at the end, as a share of `c_end²` (fishtest's r_end).
    pub r_end: f64,
    /// Where `params.txt` (the values after each pair) and `spsa.txt` (one line per pair) go.
    pub out_dir: Option<PathBuf>,
}

/// Why a tuning run could not start.
#[derive(Debug, thiserror::Error)]
pub enum SpsaError {
    #[error("tune: no parameter to tune (--param)")]
    NoParams,
    #[error("tune: no game pairs to play")]
    NoPairs,
    #[error("tune: r_end {0} is not a number above 0")]
    REnd(f64),
    #[error("tune: cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// The run as it stands.
struct State {
    theta: Vec<f64>,
    /// Pairs finished, and the pushed-up engine's wins, draws and losses over them.
    done: usize,
    wdl: [u32; 3],
}

/// The values after a run (or as far as it got): each parameter's tuned value.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaResult {
    pub values: Vec<(&'static str, f64)>,
    pub pairs: usize,
    /// The pushed-up engine's wins, draws and losses over all pairs.
    pub wdl: [u32; 3],
}

impl SpsaResult {
    /// The values rounded as the engine reads them.
    pub fn overrides(&self) -> ParamOverrides {
        ParamOverrides::from_pairs(self.values.iter().map(|&(n, v)| (n, v.round() as i32)))
    }
}

struct Gains {
    /// Per parameter: c and a at the first pair (see the module's comment).
    c: Vec<f64>,
    a: Vec<f64>,
    big_a: f64,
}

impl Gains {
    fn new(cfg: &SpsaConfig) -> Gains {
        let n = cfg.pairs as f64;
        let big_a = 0.1 * n;
        let c = cfg.params.iter().map(|p| p.c_end * n.powf(GAMMA)).collect();
        let a = cfg
            .params
            .iter()
            .map(|p| cfg.r_end * p.c_end * p.c_end * (big_a + n).powf(ALPHA))
            .collect();
        Gains { c, a, big_a }
    }

    /// (c_k, a_k) of parameter `i` at pair `k` (1-based).
    fn at(&self, i: usize, k: usize) -> (f64, f64) {
        let k = k as f64;
        (
            self.c[i] / k.powf(GAMMA),
            self.a[i] / (self.big_a + k).powf(ALPHA),
        )
    }
}

/// Runs the tuning; `report` gets a line per pair and the final values. Stops early on SIGINT/SIGTERM (the
/// values so far are returned).
pub fn run_spsa(cfg: &SpsaConfig, report: &dyn Report) -> Result<SpsaResult, SpsaError> {
    if cfg.params.is_empty() {
        return Err(SpsaError::NoParams);
    }
    if cfg.pairs == 0 {
        return Err(SpsaError::NoPairs);
    }
    if !(cfg.r_end.is_finite() && cfg.r_end > 0.0) {
        return Err(SpsaError::REnd(cfg.r_end));
    }
    if let Some(dir) = &cfg.out_dir {
        std::fs::create_dir_all(dir).map_err(|source| SpsaError::Write {
            path: dir.clone(),
            source,
        })?;
    }
    let gains = Gains::new(cfg);
    let state = Mutex::new(State {
        theta: cfg.params.iter().map(|p| p.start).collect(),
        done: 0,
        wdl: [0; 3],
    });
    let next = AtomicUsize::new(1);
    let workers = cfg.concurrency.clamp(1, cfg.pairs);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                while !interrupt::requested() {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k > cfg.pairs {
                        break;
                    }
                    play_pair(cfg, &gains, &state, k, report);
                }
            });
        }
    });
    let st = state.into_inner().unwrap_or_else(|e| e.into_inner());
    let result = SpsaResult {
        values: cfg.params.iter().map(|p| p.name).zip(st.theta).collect(),
        pairs: st.done,
        wdl: st.wdl,
    };
    report.line(&format!(
        "Tuned after {} pairs (plus W {} D {} L {}): option.SearchParams={}",
        result.pairs,
        result.wdl[0],
        result.wdl[1],
        result.wdl[2],
        result.overrides()
    ));
    Ok(result)
}

/// Pair `k`: draws the signs, plays the pair on the values as they stand, and moves them by its result.
fn play_pair(cfg: &SpsaConfig, gains: &Gains, state: &Mutex<State>, k: usize, report: &dyn Report) {
    let theta = match state.lock() {
        Ok(s) => s.theta.clone(),
        Err(_) => return,
    };
    let mut rng = SplitMix64::new(mix(cfg.template.seed ^ mix(k as u64)));
    let signs: Vec<f64> = cfg
        .params
        .iter()
        .map(|_| if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 })
        .collect();
    let side = |dir: f64| {
        ParamOverrides::from_pairs(cfg.params.iter().enumerate().map(|(i, p)| {
            let (c, _) = gains.at(i, k);
            (
                p.name,
                (theta[i] + dir * c * signs[i]).clamp(p.min, p.max).round() as i32,
            )
        }))
    };
    let (plus, minus) = (side(1.0), side(-1.0));
    let match_cfg = pair_match(cfg, k, &plus, &minus);
    let summary = match run_match(&match_cfg, &|_: &str| {}) {
        Ok(s) => s,
        Err(e) => return report.line(&format!("Pair {k}: {e}")),
    };
    if let Some(e) = summary.error.as_ref().filter(|_| summary.games.len() < 2) {
        return report.line(&format!("Pair {k}: not counted: {e}"));
    }
    if summary.interrupted.is_some() || summary.games.len() < 2 {
        return;
    }
    let w = summary.first;
    let r = f64::from(w.wins) - f64::from(w.losses);
    let Ok(mut st) = state.lock() else { return };
    for (i, p) in cfg.params.iter().enumerate() {
        let (c, a) = gains.at(i, k);
        st.theta[i] = (st.theta[i] + a / c * r * signs[i]).clamp(p.min, p.max);
    }
    st.done += 1;
    st.wdl[0] += w.wins;
    st.wdl[1] += w.draws;
    st.wdl[2] += w.losses;
    let values: Vec<String> = cfg
        .params
        .iter()
        .zip(&st.theta)
        .map(|(p, v)| format!("{}={v:.2}", p.name))
        .collect();
    let line = format!(
        "Pair {k}/{}: plus W {} D {} L {} | {}",
        cfg.pairs,
        w.wins,
        w.draws,
        w.losses,
        values.join(" ")
    );
    if let Some(dir) = &cfg.out_dir {
        write_state(dir, &line, &st, cfg, report);
    }
    report.line(&line);
}

/// The two-game match of pair `k`: the template's first engine against itself, `plus` against `minus`, from
/// opening `k - 1` (cycling) and its random plies.
fn pair_match(
    cfg: &SpsaConfig,
    k: usize,
    plus: &ParamOverrides,
    minus: &ParamOverrides,
) -> MatchConfig {
    let t = &cfg.template;
    let engine = |name: &str, values: &ParamOverrides| {
        let mut e = t.engines[0].clone();
        e.name = Some(name.to_string());
        e.options.push(("SearchParams".into(), values.to_string()));
        e
    };
    let openings = if t.openings.is_empty() {
        Vec::new()
    } else {
        vec![t.openings[(k - 1) % t.openings.len()].clone()]
    };
    MatchConfig {
        engines: [engine("plus", plus), engine("minus", minus)],
        tcs: [t.tcs[0], t.tcs[0]],
        games: 2,
        concurrency: 1,
        openings,
        seed: mix(t.seed ^ k as u64),
        out_dir: None,
        sprt: None,
        shard: crate::host::Shard::WHOLE,
        ..t.clone()
    }
}

/// `params.txt`: the values now, rounded, as the option takes them, then one per line unrounded; `spsa.txt`:
/// the pair's line appended.
fn write_state(
    dir: &std::path::Path,
    line: &str,
    st: &State,
    cfg: &SpsaConfig,
    report: &dyn Report,
) {
    use std::io::Write;
    let now = SpsaResult {
        values: cfg
            .params
            .iter()
            .map(|p| p.name)
            .zip(st.theta.clone())
            .collect(),
        pairs: st.done,
        wdl: st.wdl,
    };
    let mut text = format!("SearchParams={}\n", now.overrides());
    for (n, v) in &now.values {
        text.push_str(&format!("{n} {v:.3}\n"));
    }
    let params = dir.join("params.txt");
    let log = dir.join("spsa.txt");
    let appended = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log)
        .and_then(|mut f| writeln!(f, "{line}"));
    for (path, r) in [
        (params.clone(), std::fs::write(&params, text)),
        (log, appended),
    ] {
        if let Err(e) = r {
            report.line(&format!("tune: cannot write {}: {e}", path.display()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::engine_process::EngineSpec;
    use crate::host::time_control::TimeControl;
    use crate::matches::play::GameLimits;
    use std::time::Duration;

    fn template() -> MatchConfig {
        let spec = EngineSpec {
            cmd: "hayate".into(),
            args: Vec::new(),
            dir: None,
            name: None,
            tc: None,
            options: Vec::new(),
        };
        let tc = TimeControl::parse("nodes=100").unwrap();
        MatchConfig {
            engines: [spec.clone(), spec],
            tcs: [tc, tc],
            variant: crate::GameKind::Shogi,
            games: 2,
            concurrency: 1,
            limits: GameLimits::standard(None, None),
            openings: Vec::new(),
            random_plies: 0,
            seed: 1,
            out_dir: None,
            sprt: None,
            ready_timeout: Duration::from_secs(10),
            shard: crate::host::Shard::WHOLE,
        }
    }

    #[test]
    fn param_specs_parse_and_resolve() {
        let base = SearchParams::BASE;
        let p: ParamSpec = "razor_base".parse().unwrap();
        let t = p.resolve(&base).unwrap();
        assert_eq!(
            (t.start, t.min, t.max, t.c_end),
            (300.0, 150.0, 600.0, 22.5)
        );
        let t = "lmr_cut_node=1:0:4:0.5"
            .parse::<ParamSpec>()
            .unwrap()
            .resolve(&base)
            .unwrap();
        assert_eq!((t.start, t.min, t.max, t.c_end), (1.0, 0.0, 4.0, 0.5));
        let err = |s: &str| s.parse::<ParamSpec>().unwrap_err().to_string();
        assert!(err("razor").starts_with("unknown search parameter 'razor' (one of: razor_depth, "));
        assert_eq!(err("razor_base=x"), "razor_base: 'x' is not a whole number");
        assert_eq!(
            err("razor_base:1"),
            "razor_base: the form is name[=start][:min:max[:c_end]]"
        );
        assert_eq!(
            err("razor_base:1:2:0"),
            "razor_base: c_end '0' is not a number above 0"
        );
        let range = "razor_base=700:100:600"
            .parse::<ParamSpec>()
            .unwrap()
            .resolve(&base);
        assert_eq!(
            range.unwrap_err().to_string(),
            "razor_base: the range 100..600 is empty or does not hold the start 700"
        );
    }

    /// At the last pair the perturbation is c_end and the step per point r_end · c_end, as fishtest sets them.
    #[test]
    fn gains_end_where_asked() {
        let cfg = SpsaConfig {
            template: template(),
            params: vec![TunedParam {
                name: "razor_base",
                start: 300.0,
                min: 100.0,
                max: 600.0,
                c_end: 20.0,
            }],
            pairs: 1000,
            concurrency: 1,
            r_end: 0.002,
            out_dir: None,
        };
        let g = Gains::new(&cfg);
        let (c, a) = g.at(0, 1000);
        assert!((c - 20.0).abs() < 1e-9, "{c}");
        assert!((a / c - 0.002 * 20.0).abs() < 1e-9, "{}", a / c);
        let (c1, _) = g.at(0, 1);
        assert!(c1 > c);
    }
}
