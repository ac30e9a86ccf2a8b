//! Engine options: their values, the option list of the `usi` reply, and `setoption`, parsed into a checked
//! [`Setting`] before anything changes, so that a bad value leaves every option as it was.

use crate::engine::params::{ParamOverrideError, ParamOverrides};
use std::path::Path;
use std::sync::Arc;

use crate::engine::nnue::{self, NetError, Network};
use crate::engine::search::TimeOptions;
use crate::{EnteringKingRule, GameKind};

use super::output::{LogFileError, Output};
use super::truncate;

/// Engine options, as set with `setoption`.
#[derive(Clone, Debug)]
pub struct Options {
    pub hash_mb: usize,
    pub threads: usize,
    pub ponder: bool,
    pub multipv: usize,
    pub variant: GameKind,
    pub time: TimeOptions,
    pub resign_value: i32,
    pub draw_value: i32,
    pub entering_king: EnteringKingRule,
    pub max_moves_to_draw: u32,
    /// Evaluate with the game's net when there is one.
    pub use_nnue: bool,
    /// The net file last loaded with `EvalFile` (empty: the embedded nets).
    pub eval_file: String,
    /// Values replacing the search's parameters (`SearchParams`), for tuning.
    pub search_params: ParamOverrides,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 256,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            ponder: false,
            multipv: 1,
            variant: GameKind::Shogi,
            time: TimeOptions::default(),
            resign_value: 0,
            draw_value: 0,
            entering_king: EnteringKingRule::default(),
            max_moves_to_draw: 0,
            use_nnue: true,
            eval_file: String::new(),
            search_params: ParamOverrides::default(),
        }
    }
}

const MAX_HASH_MB: usize = 1 << 16;
const MAX_THREADS: usize = 1024;

/// One `setoption`, its value checked against the option's type and range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    Hash(usize),
    Threads(usize),
    Ponder(bool),
    MultiPv(usize),
    Variant(GameKind),
    NetworkDelay(u64),
    MinimumThinkingTime(u64),
    SlowMover(u64),
    ResignValue(i32),
    DrawValue(i32),
    EnteringKing(EnteringKingRule),
    MaxMovesToDraw(u32),
    ClearHash,
    LogFile(String),
    UseNnue(bool),
    EvalFile(String),
    SearchParams(ParamOverrides),
}

/// Why a `setoption` was refused; the option's name and value as given, cut to 40 characters.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingError {
    #[error("setoption needs 'name <option> [value <value>]'")]
    Syntax,
    #[error("setoption: option names have no spaces")]
    NameWithSpaces,
    #[error("unknown option '{0}'")]
    Unknown(String),
    #[error("option {0} needs a value")]
    NoValue(String),
    #[error("option {name}: '{value}' is not a number")]
    NotANumber { name: String, value: String },
    #[error("option {name}: {n} is outside {lo}..{hi}")]
    OutOfRange {
        name: String,
        n: i64,
        lo: i64,
        hi: i64,
    },
    #[error("option {0} takes true or false")]
    NotABool(String),
    #[error("{name}: {error}")]
    Game {
        name: String,
        error: crate::rules::game::UnknownGame,
    },
    #[error("EnteringKingRule: unknown rule '{0}'")]
    EnteringKingRule(String),
    #[error("SearchParams: {0}")]
    SearchParams(#[from] ParamOverrideError),
}

impl Setting {
    /// Parses the words after `setoption`: `name <N> [value <V>]`. Option names are case-insensitive and have no
    /// spaces; a value may have spaces (a LogFile path).
    pub fn parse(args: &[&str]) -> Result<Setting, SettingError> {
        let (name, value) = split_setoption(args)?;
        let value = value.as_deref();
        let spin = |lo: i64, hi: i64| spin(name, value, lo, hi);
        Ok(match name.to_ascii_lowercase().as_str() {
            "usi_hash" | "hash" => Setting::Hash(spin(1, MAX_HASH_MB as i64)? as usize),
            "threads" => Setting::Threads(spin(1, MAX_THREADS as i64)? as usize),
            "usi_ponder" => Setting::Ponder(check(name, value)?),
            "multipv" => Setting::MultiPv(spin(1, 600)? as usize),
            "usi_variant" | "uci_variant" => {
                Setting::Variant(value.unwrap_or("").parse().map_err(|error| {
                    SettingError::Game {
                        name: truncate(name),
                        error,
                    }
                })?)
            }
            "networkdelay" => Setting::NetworkDelay(spin(0, 10000)? as u64),
            "minimumthinkingtime" => Setting::MinimumThinkingTime(spin(0, 60000)? as u64),
            "slowmover" => Setting::SlowMover(spin(10, 1000)? as u64),
            "resignvalue" => Setting::ResignValue(spin(0, 32000)? as i32),
            "drawvalue" => Setting::DrawValue(spin(-30000, 30000)? as i32),
            "enteringkingrule" => {
                let v = value.unwrap_or("");
                Setting::EnteringKing(
                    v.parse()
                        .map_err(|_| SettingError::EnteringKingRule(truncate(v)))?,
                )
            }
            "maxmovestodraw" => Setting::MaxMovesToDraw(spin(0, 100000)? as u32),
            "clear_hash" => Setting::ClearHash,
            "logfile" => Setting::LogFile(value.unwrap_or("").to_string()),
            "usennue" => Setting::UseNnue(check(name, value)?),
            "evalfile" => Setting::EvalFile(match value.unwrap_or("") {
                "<empty>" => String::new(),
                v => v.to_string(),
            }),
            "searchparams" => Setting::SearchParams(value.unwrap_or("").parse()?),
            _ => return Err(SettingError::Unknown(truncate(name))),
        })
    }
}

/// Why a setting that names a file (`LogFile`, `EvalFile`) was refused; the engine stays as it was.
#[derive(Debug, thiserror::Error)]
pub enum SettingFileError {
    #[error(transparent)]
    LogFile(#[from] LogFileError),
    #[error("EvalFile: {0}")]
    EvalFile(#[source] NetError),
}

/// The net an `EvalFile` setting gives a game.
pub(crate) struct NetChange {
    pub game: GameKind,
    /// None only where the embedded net is unusable (the tests rule that out).
    pub net: Option<Arc<Network>>,
    /// What was loaded from a file, for the front end to tell (None for the embedded net).
    pub loaded: Option<String>,
}

impl Setting {
    /// Does what a setting needs besides its value that can fail: opens the log file, reads the net file (for
    /// `game`, the selected one). Both front ends call it before anything else changes, so that they refuse the
    /// same values with the same reasons, and a refused setting leaves the engine as it was.
    pub(crate) fn prepare(
        &self,
        out: &Output,
        game: GameKind,
    ) -> Result<Option<NetChange>, SettingFileError> {
        match self {
            Setting::LogFile(path) => {
                out.set_log(path)?;
                Ok(None)
            }
            Setting::EvalFile(path) if path.is_empty() => Ok(Some(NetChange {
                game,
                net: nnue::embedded(game),
                loaded: None,
            })),
            Setting::EvalFile(path) => {
                let net = nnue::load(Path::new(path), game).map_err(SettingFileError::EvalFile)?;
                let loaded = format!(
                    "{game} net {path} loaded ({} inputs, hidden {})",
                    net.inputs, net.hidden
                );
                Ok(Some(NetChange {
                    game,
                    net: Some(net),
                    loaded: Some(loaded),
                }))
            }
            _ => Ok(None),
        }
    }
}

impl Options {
    /// Records a setting's value; what it does to the rest of the engine (the table, the position, the log
    /// file) is the engine's part.
    pub fn apply(&mut self, setting: &Setting) {
        match *setting {
            Setting::Hash(mb) => self.hash_mb = mb,
            Setting::Threads(n) => self.threads = n,
            Setting::Ponder(on) => self.ponder = on,
            Setting::MultiPv(n) => self.multipv = n,
            Setting::Variant(kind) => self.variant = kind,
            Setting::NetworkDelay(ms) => self.time.network_delay = ms,
            Setting::MinimumThinkingTime(ms) => self.time.minimum_thinking = ms,
            Setting::SlowMover(pct) => self.time.slow_mover = pct,
            Setting::ResignValue(cp) => self.resign_value = cp,
            Setting::DrawValue(cp) => self.draw_value = cp,
            Setting::EnteringKing(rule) => self.entering_king = rule,
            Setting::MaxMovesToDraw(n) => self.max_moves_to_draw = n,
            Setting::UseNnue(on) => self.use_nnue = on,
            Setting::EvalFile(ref path) => self.eval_file = path.clone(),
            Setting::SearchParams(ref o) => self.search_params = o.clone(),
            Setting::ClearHash | Setting::LogFile(_) => {}
        }
    }
}

/// The `option ...` lines of the `usi` reply, with the defaults of [`Options::default`].
pub fn option_lines() -> Vec<String> {
    let d = Options::default();
    let games: String = GameKind::ALL.iter().map(|g| format!(" var {g}")).collect();
    // UCI_Variant is what UCI2WB (XBoard's adapter) reads and sets: it lists XBoard's names besides ours, and sets
    // the game only for engines that announce it
    let xboard_games: String = GameKind::ALL
        .iter()
        .map(|g| g.xboard_name())
        .filter(|x| !GameKind::ALL.iter().any(|g| g.name() == *x))
        .map(|x| format!(" var {x}"))
        .collect();
    vec![
        format!(
            "option name USI_Hash type spin default {} min 1 max {MAX_HASH_MB}",
            d.hash_mb
        ),
        format!(
            "option name Threads type spin default {} min 1 max {MAX_THREADS}",
            d.threads
        ),
        "option name USI_Ponder type check default false".into(),
        "option name MultiPV type spin default 1 min 1 max 600".into(),
        format!(
            "option name USI_Variant type combo default {}{games}",
            GameKind::Shogi
        ),
        format!(
            "option name UCI_Variant type combo default {}{games}{xboard_games}",
            GameKind::Shogi
        ),
        format!(
            "option name NetworkDelay type spin default {} min 0 max 10000",
            d.time.network_delay
        ),
        format!(
            "option name MinimumThinkingTime type spin default {} min 0 max 60000",
            d.time.minimum_thinking
        ),
        format!(
            "option name SlowMover type spin default {} min 10 max 1000",
            d.time.slow_mover
        ),
        "option name ResignValue type spin default 0 min 0 max 32000".into(),
        "option name DrawValue type spin default 0 min -30000 max 30000".into(),
        "option name EnteringKingRule type combo default CSARule27 var NoEnteringKing var CSARule24 var CSARule27"
            .into(),
        "option name MaxMovesToDraw type spin default 0 min 0 max 100000".into(),
        "option name Clear_Hash type button".into(),
        "option name LogFile type string default <empty>".into(),
        "option name UseNNUE type check default true".into(),
        "option name EvalFile type string default <empty>".into(),
        "option name SearchParams type string default <empty>".into(),
    ]
}

/// `name <N> [value <V>]` into the name and the value's words joined.
fn split_setoption<'a>(args: &[&'a str]) -> Result<(&'a str, Option<String>), SettingError> {
    if args.first() != Some(&"name") || args.len() < 2 {
        return Err(SettingError::Syntax);
    }
    let vi = args.iter().position(|&a| a == "value");
    if vi.unwrap_or(args.len()) != 2 {
        return Err(SettingError::NameWithSpaces);
    }
    let value = vi.map(|i| args[i + 1..].join(" "));
    Ok((args[1], value))
}

fn spin(name: &str, value: Option<&str>, lo: i64, hi: i64) -> Result<i64, SettingError> {
    let v = value.ok_or_else(|| SettingError::NoValue(truncate(name)))?;
    let n: i64 = v.parse().map_err(|_| SettingError::NotANumber {
        name: truncate(name),
        value: truncate(v),
    })?;
    if n < lo || n > hi {
        return Err(SettingError::OutOfRange {
            name: truncate(name),
            n,
            lo,
            hi,
        });
    }
    Ok(n)
}

fn check(name: &str, value: Option<&str>) -> Result<bool, SettingError> {
    match value {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        // UCI2WB (XBoard's adapter) switches USI_Ponder with 1 and 0
        Some("1") => Ok(true),
        Some("0") => Ok(false),
        _ => Err(SettingError::NotABool(truncate(name))),
    }
}
