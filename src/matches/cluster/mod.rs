//! Matches spread over a cluster: each `--out` folder holds `match.json`, the manifest that says which match it
//! is part of (engines, options, time controls, openings, seed, game, limits, SPRT), which shard of it, and which
//! games its `games.txt` holds, in the file's order (a shard's game numbers are not consecutive, and a record line
//! carries no number). `hayate match --merge` ([`merge`]) reads the manifests to refuse shards of different
//! matches and to find the missing and doubled ones, then joins the records into the whole match's.
//!
//! The manifest is written when the engines have started (state `running`) and again at the end, so a shard that
//! was killed, interrupted or stopped on an error is never taken for a finished one.

mod merge;

pub use merge::merge;

use std::path::{Path, PathBuf};

use crate::engine::nnue::file::fnv1a;
use serde::{Deserialize, Serialize};

use super::stats::{SprtConfig, SprtModel};
use super::tally::model_name;
use super::MatchConfig;

/// The manifest inside `--out`.
pub const MANIFEST_FILE: &str = "match.json";
/// The manifest's `format`, changed whenever its meaning changes, so that an old merge never misreads a new one.
const FORMAT: &str = "hayate match 1";

/// Why a run's `match.json` could not be written, or was refused as the manifest of a match this build reads
/// (a word quoted from the file is cut to 40 characters).
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    #[error("cannot write {}: {error}", .path.display())]
    Write {
        path: PathBuf,
        #[source]
        error: std::io::Error,
    },
    #[error("cannot read {}: {error} (not the --out folder of a hayate match)", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        error: std::io::Error,
    },
    #[error("{}: not a match manifest: {error}", .path.display())]
    NotManifest {
        path: PathBuf,
        #[source]
        error: serde_json::Error,
    },
    #[error("{}: format '{found}', this hayate reads '{}'", .path.display(), FORMAT)]
    Format { path: PathBuf, found: String },
    #[error("unknown SPRT model '{0}'")]
    SprtModel(String),
}

/// What makes two runs parts of the same match: all that decides a game's moves and result. Concurrency, the
/// ready timeout and the stop grace are left out, because a shard may run them differently on its own node.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchId {
    pub variant: String,
    pub engines: [EngineId; 2],
    /// The games of the whole match.
    pub games: usize,
    /// The opening lines' count and FNV-1a hash, or `none`.
    pub openings: String,
    pub random_plies: usize,
    pub seed: u64,
    pub max_plies: usize,
    pub tolerance_ms: u64,
    pub hang_timeout_ms: u64,
    pub resign: Option<String>,
    pub draw: Option<String>,
    pub sprt: Option<SprtId>,
}

/// One engine of the match, with the name the summary gives it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineId {
    pub name: String,
    pub cmd: String,
    pub args: Vec<String>,
    pub dir: Option<String>,
    pub options: Vec<(String, String)>,
    pub tc: String,
}

/// The SPRT that `--merge` evaluates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtId {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: String,
}

impl SprtId {
    fn of(s: &SprtConfig) -> SprtId {
        SprtId {
            elo0: s.elo0,
            elo1: s.elo1,
            alpha: s.alpha,
            beta: s.beta,
            model: model_name(s.model).to_string(),
        }
    }

    fn config(&self) -> Result<SprtConfig, ManifestError> {
        let model = match self.model.as_str() {
            "trinomial" => SprtModel::Trinomial,
            "pentanomial" => SprtModel::Pentanomial,
            m => return Err(ManifestError::SprtModel(crate::rules::truncate(m))),
        };
        Ok(SprtConfig {
            elo0: self.elo0,
            elo1: self.elo1,
            alpha: self.alpha,
            beta: self.beta,
            model,
        })
    }
}

/// A run's `match.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub format: String,
    #[serde(rename = "match")]
    pub id: MatchId,
    /// `K/N`; `0/1` for a whole match.
    pub shard: String,
    /// `running`, `complete`, `interrupted`, `stopped by the SPRT` or `error: ...`.
    pub state: String,
    /// The 1-based numbers of the games in `games.txt`, in the file's order.
    pub games_played: Vec<usize>,
}

impl Manifest {
    /// The manifest of the run `cfg` whose engines are called `names`, before its first game.
    pub fn new(cfg: &MatchConfig, names: &[String; 2]) -> Manifest {
        let engine = |i: usize| {
            let spec = &cfg.engines[i];
            EngineId {
                name: names[i].clone(),
                cmd: spec.cmd.clone(),
                args: spec.args.clone(),
                dir: spec.dir.as_ref().map(|d| d.display().to_string()),
                options: spec.options.clone(),
                tc: cfg.tcs[i].describe(),
            }
        };
        let openings = if cfg.openings.is_empty() {
            "none".to_string()
        } else {
            format!(
                "{} lines, fnv1a64 {:016x}",
                cfg.openings.len(),
                lines_hash(&cfg.openings)
            )
        };
        Manifest {
            format: FORMAT.into(),
            id: MatchId {
                variant: cfg.variant.name().to_string(),
                engines: [engine(0), engine(1)],
                games: cfg.games,
                openings,
                random_plies: cfg.random_plies,
                seed: cfg.seed,
                max_plies: cfg.limits.max_plies,
                tolerance_ms: millis(cfg.limits.tolerance),
                hang_timeout_ms: millis(cfg.limits.hang_timeout),
                resign: cfg.limits.resign.as_ref().map(|r| r.describe()),
                draw: cfg.limits.draw.as_ref().map(|d| d.describe()),
                sprt: cfg.sprt.as_ref().map(SprtId::of),
            },
            shard: cfg.shard.to_string(),
            state: "running".into(),
            games_played: Vec::new(),
        }
    }

    /// Writes `dir/match.json` through a temporary file, so that a reader never sees half of one.
    pub fn write(&self, dir: &Path) -> Result<(), ManifestError> {
        let path = dir.join(MANIFEST_FILE);
        let tmp = dir.join(format!("{MANIFEST_FILE}.tmp"));
        let text = serde_json::to_string_pretty(self)? + "\n";
        std::fs::write(&tmp, text)
            .and_then(|_| std::fs::rename(&tmp, &path))
            .map_err(|error| ManifestError::Write { path, error })
    }

    /// Reads `dir/match.json`.
    pub fn read(dir: &Path) -> Result<Manifest, ManifestError> {
        let path = dir.join(MANIFEST_FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(error) => return Err(ManifestError::Read { path, error }),
        };
        let m: Manifest = match serde_json::from_str(&text) {
            Ok(m) => m,
            Err(error) => return Err(ManifestError::NotManifest { path, error }),
        };
        if m.format != FORMAT {
            let found = crate::rules::truncate(&m.format);
            return Err(ManifestError::Format { path, found });
        }
        Ok(m)
    }
}

fn millis(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// FNV-1a (64 bits, the nets' checksum) of the lines, each ended by a newline: stable across builds and
/// machines, unlike std's hasher, and enough to tell two openings files apart.
fn lines_hash(lines: &[String]) -> u64 {
    let text: String = lines.iter().flat_map(|l| [l.as_str(), "\n"]).collect();
    fnv1a(text.as_bytes())
}

/// The first field in which two matches differ, as `<field> <there>, not <here>`; None when they are the same.
pub fn difference(here: &MatchId, there: &MatchId) -> Option<String> {
    let (Ok(a), Ok(b)) = (serde_json::to_value(here), serde_json::to_value(there)) else {
        return Some("unreadable".into());
    };
    diff_value("", &a, &b)
}

fn diff_value(label: &str, here: &serde_json::Value, there: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    match (here, there) {
        (Value::Object(a), Value::Object(b)) => a.iter().find_map(|(k, v)| {
            let sub = if label.is_empty() {
                k.clone()
            } else {
                format!("{label} {k}")
            };
            diff_value(&sub, v, b.get(k).unwrap_or(&Value::Null))
        }),
        // the engines by number; other lists (arguments, options) are told whole
        (Value::Array(a), Value::Array(b)) if label == "engines" && a.len() == b.len() => a
            .iter()
            .zip(b)
            .enumerate()
            .find_map(|(i, (x, y))| diff_value(&format!("engine {}", i + 1), x, y)),
        _ if here == there => None,
        _ => Some(format!("{label} {there}, not {here}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_errors_read_as_before() {
        let dir = std::env::temp_dir().join(format!("hayate-manifest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(MANIFEST_FILE);
        let e = Manifest::read(&dir).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!("cannot read {}: ", path.display())),
            "{e}"
        );
        assert!(
            e.ends_with(" (not the --out folder of a hayate match)"),
            "{e}"
        );
        std::fs::write(&path, "{}").unwrap();
        let e = Manifest::read(&dir).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!("{}: not a match manifest: ", path.display())),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&dir);
        let e = ManifestError::Format {
            path: "d/match.json".into(),
            found: "hayate match 0".into(),
        };
        assert_eq!(
            e.to_string(),
            "d/match.json: format 'hayate match 0', this hayate reads 'hayate match 1'"
        );
        let sprt = SprtId {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            model: "x".repeat(50),
        };
        let e = sprt.config().unwrap_err().to_string();
        assert_eq!(
            e,
            format!(
                "unknown SPRT model '{}'",
                crate::rules::truncate(&sprt.model)
            )
        );
    }

    #[test]
    fn differences_name_the_field() {
        let e = EngineId {
            name: "A".into(),
            cmd: "hayate".into(),
            args: vec![],
            dir: None,
            options: vec![("Threads".into(), "1".into())],
            tc: "nodes 300".into(),
        };
        let a = MatchId {
            variant: "shogi".into(),
            engines: [e.clone(), e],
            games: 8,
            openings: "none".into(),
            random_plies: 4,
            seed: 5,
            max_plies: 512,
            tolerance_ms: 200,
            hang_timeout_ms: 60_000,
            resign: None,
            draw: None,
            sprt: None,
        };
        assert_eq!(difference(&a, &a.clone()), None);
        let mut b = a.clone();
        b.seed = 7;
        assert_eq!(difference(&a, &b).unwrap(), "seed 7, not 5");
        let mut b = a.clone();
        b.engines[1].options[0].1 = "2".into();
        assert_eq!(
            difference(&a, &b).unwrap(),
            r#"engine 2 options [["Threads","2"]], not [["Threads","1"]]"#
        );
        let mut b = a.clone();
        b.engines[0].tc = "nodes 400".into();
        assert_eq!(
            difference(&a, &b).unwrap(),
            r#"engine 1 tc "nodes 400", not "nodes 300""#
        );
        assert_ne!(
            lines_hash(&["startpos".into()]),
            lines_hash(&["startpos ".into()])
        );
        assert_ne!(
            lines_hash(&["a".into(), "b".into()]),
            lines_hash(&["ab".into()])
        );
    }
}
