//! Match statistics: score, Elo difference with its 95% interval, likelihood of superiority, and the SPRT.
//!
//! Elo uses the logistic model: a score fraction `s` means a difference of `-400 log10(1/s - 1)`. Its interval
//! comes from the per-game variance of the score in the trinomial (win/draw/loss) model, as cutechess reports
//! it: `s ± 1.96 σ/√N`, mapped through the same formula (so the interval is not symmetric in Elo; the `±`
//! figure is half its width).
//!
//! The SPRT is the generalised SPRT of fastchess (and fishtest), logistic Elo model, in the form of M. Van den
//! Bergh's "MLE for the multinomial" approximation: with outcome frequencies `p_k` of scores `x_k`, and the
//! scores `s0`, `s1` that `elo0` and `elo1` mean, `σi² = Σ p_k (x_k - si)²` and
//! `LLR = N/2 · ln(σ0² / σ1²)`. The default is the **trinomial** model: one sample per game, scores 0, ½, 1.
//! `model=pentanomial` uses one sample per pair of games from the same opening (pair scores 0, ¼, ½, ¾, 1,
//! the pair's points divided by two), which accounts for the correlation inside a pair. The test stops at
//! `LLR >= ln((1-β)/α)` (H1 accepted: the first engine is at least `elo1` stronger) or `LLR <= ln(β/(1-α))`
//! (H0 accepted).

use std::str::FromStr;

use crate::rules::truncate;

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses, from one engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    pub fn new(wins: u32, draws: u32, losses: u32) -> Self {
        Wdl {
            wins,
            draws,
            losses,
        }
    }
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
    /// Points: a win 1, a draw ½.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }
    /// The score fraction, or None without games.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / n as f64)
    }
    /// The same games from the opponent's side.
    pub fn flipped(&self) -> Wdl {
        Wdl::new(self.losses, self.draws, self.wins)
    }
    /// The draw ratio, or None without games.
    pub fn draw_ratio(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.draws as f64 / n as f64)
    }
}

/// The logistic Elo difference of a score fraction (±infinity at 1 and 0).
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The expected score fraction of a logistic Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo estimate: the difference, the 95% interval, and half the interval's width.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
    pub margin: f64,
}

/// The Elo difference of `wdl` and its 95% interval from the per-game (trinomial) variance; None without games.
pub fn elo_estimate(wdl: &Wdl) -> Option<EloEstimate> {
    let n = wdl.games() as f64;
    let s = wdl.score()?;
    let var = (wdl.wins as f64 * (1.0 - s).powi(2)
        + wdl.draws as f64 * (0.5 - s).powi(2)
        + wdl.losses as f64 * s.powi(2))
        / n;
    let se = (var / n).sqrt();
    let lower = elo_from_score(s - Z95 * se);
    let upper = elo_from_score(s + Z95 * se);
    Some(EloEstimate {
        elo: elo_from_score(s),
        lower,
        upper,
        margin: (upper - lower) / 2.0,
    })
}

/// Likelihood of superiority: `0.5 (1 + erf((W - L) / sqrt(2 (W + L))))`; None when there are no decisive games.
pub fn los(wdl: &Wdl) -> Option<f64> {
    let decisive = (wdl.wins + wdl.losses) as f64;
    if decisive == 0.0 {
        return None;
    }
    let d = wdl.wins as f64 - wdl.losses as f64;
    Some(0.5 * (1.0 + erf(d / (2.0 * decisive).sqrt())))
}

/// The error function, to about 1e-15 (Taylor series near 0, a continued fraction for erfc beyond).
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x < 0.0 {
        return -erf(-x);
    }
    if x < 2.5 {
        // erf x = 2/sqrt(pi) * sum_n (-1)^n x^(2n+1) / (n! (2n+1))
        let mut term = x;
        let mut sum = x;
        let x2 = x * x;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs() {
            n += 1.0;
            term *= -x2 / n;
            sum += term / (2.0 * n + 1.0);
            if n > 200.0 {
                break;
            }
        }
        sum * std::f64::consts::FRAC_2_SQRT_PI
    } else if x > 6.0 {
        1.0
    } else {
        // erfc x = exp(-x²)/sqrt(pi) · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + ...))))), evaluated backwards
        let mut f = x;
        for k in (1..=60).rev() {
            f = x + (k as f64 / 2.0) / f;
        }
        1.0 - (-x * x).exp() / std::f64::consts::PI.sqrt() / f
    }
}

/// The statistical model of the SPRT.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SprtModel {
    /// One sample per game: loss, draw, win.
    #[default]
    Trinomial,
    /// One sample per game pair from the same opening: 0, ½, 1, 1½ or 2 points.
    Pentanomial,
}

/// The SPRT's hypotheses and error rates: H0 is "elo <= elo0", H1 is "elo >= elo1" (logistic Elo, first engine
/// minus second).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtConfig {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: SprtModel,
}

/// One word of `--sprt`, checked as the command line is read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SprtWord {
    Elo0(f64),
    Elo1(f64),
    Alpha(f64),
    Beta(f64),
    Model(SprtModel),
}

/// Why a `--sprt` word or test was refused (the flag's name is the caller's to add).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SprtError {
    #[error("'{0}' is not key=value")]
    NotKeyValue(String),
    #[error("unknown key '{0}' (keys: elo0, elo1, alpha, beta, model)")]
    UnknownKey(String),
    #[error("{key}: '{value}' is not a number")]
    NotANumber { key: &'static str, value: String },
    #[error("unknown model '{0}' (trinomial, pentanomial)")]
    UnknownModel(String),
    #[error("needs elo0=.. and elo1=..")]
    MissingElo,
    #[error("elo0 must be below elo1")]
    EloOrder,
    #[error("{0} must lie strictly between 0 and 1")]
    RateOutside(&'static str),
    #[error("alpha + beta must be below 1")]
    RatesTooLarge,
}

impl FromStr for SprtWord {
    type Err = SprtError;
    fn from_str(w: &str) -> Result<Self, SprtError> {
        let (k, v) = w
            .split_once('=')
            .ok_or_else(|| SprtError::NotKeyValue(truncate(w)))?;
        let num = |key: &'static str| {
            v.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| SprtError::NotANumber {
                    key,
                    value: truncate(v),
                })
        };
        Ok(match k {
            "elo0" => SprtWord::Elo0(num("elo0")?),
            "elo1" => SprtWord::Elo1(num("elo1")?),
            "alpha" => SprtWord::Alpha(num("alpha")?),
            "beta" => SprtWord::Beta(num("beta")?),
            "model" => SprtWord::Model(match v {
                "trinomial" => SprtModel::Trinomial,
                "pentanomial" => SprtModel::Pentanomial,
                _ => return Err(SprtError::UnknownModel(truncate(v))),
            }),
            _ => return Err(SprtError::UnknownKey(truncate(k))),
        })
    }
}

/// Where the SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    Continue,
    AcceptH0,
    AcceptH1,
}

impl SprtConfig {
    /// The test of a `--sprt` word list (`elo0=.. elo1=.. [alpha=0.05] [beta=0.05] [model=trinomial]`); a key
    /// given twice counts its last value.
    pub fn from_words(words: &[SprtWord]) -> Result<Self, SprtError> {
        let mut cfg = SprtConfig {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Trinomial,
        };
        for &w in words {
            match w {
                SprtWord::Elo0(x) => cfg.elo0 = x,
                SprtWord::Elo1(x) => cfg.elo1 = x,
                SprtWord::Alpha(x) => cfg.alpha = x,
                SprtWord::Beta(x) => cfg.beta = x,
                SprtWord::Model(m) => cfg.model = m,
            }
        }
        if cfg.elo0.is_nan() || cfg.elo1.is_nan() {
            return Err(SprtError::MissingElo);
        }
        if cfg.elo0 >= cfg.elo1 {
            return Err(SprtError::EloOrder);
        }
        for (name, x) in [("alpha", cfg.alpha), ("beta", cfg.beta)] {
            if !(x > 0.0 && x < 1.0) {
                return Err(SprtError::RateOutside(name));
            }
        }
        if cfg.alpha + cfg.beta >= 1.0 {
            return Err(SprtError::RatesTooLarge);
        }
        Ok(cfg)
    }

    /// The test of `--sprt`'s words as text.
    pub fn parse(words: &[String]) -> Result<Self, SprtError> {
        Self::from_words(&crate::host::adjudication::typed_words(words)?)
    }

    /// The lower (accept H0) and upper (accept H1) LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The decision for a log-likelihood ratio.
    pub fn decide(&self, llr: f64) -> SprtDecision {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtDecision::AcceptH1
        } else if llr <= lo {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }

    /// The LLR of the observed outcomes under the configured model.
    pub fn llr(&self, games: &Wdl, pairs: &Penta) -> f64 {
        match self.model {
            SprtModel::Trinomial => llr_trinomial(games, self.elo0, self.elo1),
            SprtModel::Pentanomial => llr_pentanomial(pairs, self.elo0, self.elo1),
        }
    }
}

/// The generalised-SPRT log-likelihood ratio for samples with scores `xs[k]` observed `counts[k]` times.
fn llr_samples(xs: &[f64], counts: &[u32], elo0: f64, elo1: f64) -> f64 {
    let n: f64 = counts.iter().map(|&c| c as f64).sum();
    if n == 0.0 {
        return 0.0;
    }
    let s0 = score_from_elo(elo0);
    let s1 = score_from_elo(elo1);
    let var = |s: f64| -> f64 {
        xs.iter()
            .zip(counts)
            .map(|(&x, &c)| c as f64 / n * (x - s).powi(2))
            .sum()
    };
    let (v0, v1) = (var(s0), var(s1));
    if v0 == 0.0 || v1 == 0.0 {
        return 0.0;
    }
    0.5 * n * (v0 / v1).ln()
}

/// The trinomial LLR of `wdl` for H1 (elo1) against H0 (elo0).
pub fn llr_trinomial(wdl: &Wdl, elo0: f64, elo1: f64) -> f64 {
    llr_samples(
        &[0.0, 0.5, 1.0],
        &[wdl.losses, wdl.draws, wdl.wins],
        elo0,
        elo1,
    )
}

/// Game-pair outcomes of the first engine: counts of pairs with 0, ½, 1, 1½ and 2 points (a pair of one win and
/// one loss and a pair of two draws both count as 1 point).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta {
    pub counts: [u32; 5],
}

impl Penta {
    /// Adds a pair by its total points doubled (0 to 4).
    pub fn add(&mut self, half_points: usize) {
        self.counts[half_points.min(4)] += 1;
    }
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }
}

/// The pentanomial LLR of the pair outcomes for H1 (elo1) against H0 (elo0).
pub fn llr_pentanomial(p: &Penta, elo0: f64, elo1: f64) -> f64 {
    llr_samples(&[0.0, 0.25, 0.5, 0.75, 1.0], &p.counts, elo0, elo1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_matches_reference_values() {
        // values from Python's math.erf
        for (x, want) in [
            (0.0, 0.0),
            (0.1, 0.1124629160182849),
            (0.5, 0.5204998778130465),
            (1.0, 0.8427007929497149),
            (2.0, 0.9953222650189527),
            (2.5, 0.999593047982555),
            (3.0, 0.9999779095030014),
            (-1.5, -0.9661051464753108),
        ] {
            assert!((erf(x) - want).abs() < 1e-13, "erf({x}) = {}", erf(x));
        }
    }
}
