//! The search's margins and depth limits, named in one place. Each game has its own instance
//! (`GameEval::SEARCH`); a search reads it with the overrides of the `SearchParams` option applied
//! ([`ParamOverrides`], what `hayate tune` sets to tune them by SPSA), copied once per search so that no node
//! branches on the game. [`SearchParams::BASE`] holds the values set by hand on 9×9 over single matches,
//! which Yari shogi keeps until a run of its own shows better ones; 9×9 searches with [`SearchParams::SHOGI`] and
//! minishogi with [`SearchParams::MINISHOGI`], each BASE with the margins of the game's own SPSA run.
//!
//! Scores are centipawns, depths plies, the late-move reduction's factors thousandths.

/// The numbers of the node search (`search::node`), the quiescence search and the root's aspiration window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Razoring (step 7): up to this depth, a node whose static score is below alpha by
    /// `razor_base + razor_per_depth_sq · depth²` is tried with a quiescence search alone.
    pub razor_depth: i32,
    pub razor_base: i32,
    pub razor_per_depth_sq: i32,
    /// Reverse futility (step 8): up to this depth, a static score above beta by `rfp_per_depth` per ply (one
    /// ply less when improving) cuts off.
    pub rfp_depth: i32,
    pub rfp_per_depth: i32,
    /// Null move (step 9): from `null_min_depth`, reduced by `null_base_r + depth / null_r_divisor`; a fail high
    /// from `null_verify_depth` on is verified by a reduced search of the node itself.
    pub null_min_depth: i32,
    pub null_base_r: i32,
    pub null_r_divisor: i32,
    pub null_verify_depth: i32,
    /// ProbCut (step 9b): from `probcut_min_depth`, captures are tried against `beta + probcut_margin` with a
    /// search `probcut_reduction` plies shallower; skipped when the table holds a search at least
    /// `depth - probcut_tt_slack` deep below that beta.
    pub probcut_min_depth: i32,
    pub probcut_margin: i32,
    pub probcut_reduction: i32,
    pub probcut_tt_slack: i32,
    /// Singular extension (step 13): from `singular_min_depth`, with a table entry at least
    /// `depth - singular_tt_slack` deep; the other moves must stay below the table's score less
    /// `singular_margin_per_depth · depth`.
    pub singular_min_depth: i32,
    pub singular_tt_slack: i32,
    pub singular_margin_per_depth: i32,
    /// Double extension: a table move that stays singular by `singular_double_margin` more (the others below
    /// its score less this as well) is searched two plies deeper at a non-PV node, at most
    /// `DOUBLE_EXTENSIONS_MAX` times along one line (Stockfish's doubleExtensions: a line that hangs on one
    /// forced move after another). `SINGULAR_DOUBLE_OFF`: never.
    pub singular_double_margin: i32,
    /// Pruning of captures, promotions and checks (step 12): up to this depth, those losing more than
    /// `noisy_see_per_depth · depth` by static exchange.
    pub noisy_see_depth: i32,
    pub noisy_see_per_depth: i32,
    /// Late-move pruning (step 12): up to this depth, quiet moves after `(lmp_base + depth²) / 2` searched (twice
    /// as many when improving).
    pub lmp_depth: i32,
    pub lmp_base: i32,
    /// Futility pruning (step 12): up to this reduced depth, a quiet move when the static score plus
    /// `futility_base + futility_per_depth · depth` does not reach alpha.
    pub futility_depth: i32,
    pub futility_base: i32,
    pub futility_per_depth: i32,
    /// Exchange pruning of quiet moves (step 12): up to this reduced depth, those losing more than
    /// `quiet_see_per_depth_sq · depth²` by static exchange.
    pub quiet_see_depth: i32,
    pub quiet_see_per_depth_sq: i32,
    /// Internal iterative reduction (step 9c): from this depth, a PV or cut node without a table move is
    /// searched a ply shallower. Off (`IIR_OFF`): with 4, the 9×9 bench to depth 13 takes 6.5 M nodes instead
    /// of 21.2 M, but 2,380 games at byoyomi 40 scored +10.5 +/- 13.9 and 2,385 at byoyomi 20 -8.0 +/- 13.8
    /// (docs/strength.md); `SearchParams iir_min_depth=4` turns it on for a test or a tuning run.
    pub iir_min_depth: i32,
    /// Late-move reductions (step 14): from this depth, after this many moves; `lmr_cut_node` plies more at cut
    /// nodes.
    pub lmr_min_depth: i32,
    pub lmr_min_searched: i32,
    pub lmr_cut_node: i32,
    /// Late-move reductions: plies more for a quiet move where the table's move is a capture or promotion
    /// (Stockfish's ttCapture: the node's best is likely a material gain, which a quiet move seldom beats).
    /// 0: off until an SPRT says otherwise.
    pub lmr_tt_noisy: i32,
    /// A reduced move that beats alpha is searched again at full depth, a ply deeper when its reduced score
    /// beat the best so far by more than `lmr_deeper_margin` (Stockfish's doDeeperSearch); `LMR_DEEPER_OFF`:
    /// never.
    pub lmr_deeper_margin: i32,
    /// Late-move reductions of captures and promotions: from this many moves searched, reduced as a quiet
    /// move is (the PV and cut-node terms), a ply less and without the killer and history terms (Stockfish
    /// reduces late captures too; in shogi every move into the zone is a promotion, so many late moves are
    /// noisy). `LMR_NOISY_OFF`: never.
    pub lmr_noisy_min_searched: i32,
    /// Late-move reductions: plies less for a quiet move that gives check (with pieces in hand most checks are
    /// drops, and pruning them by move count lost 58 Elo: a check's line is where the game is decided). 0: off
    /// until an SPRT says otherwise (1: +1.0 +/- 12.7 after 2841 games at byoyomi 20, no verdict;
    /// docs/strength.md).
    pub lmr_check: i32,
    /// History from the table's fail highs: 1 credits the table's quiet move as a killer and with history when
    /// its entry settles a node by a fail high (step 5; Stockfish's update on a table cut-off), so that what the
    /// table knows reaches the ordering of sibling positions too; 0 off until an SPRT says otherwise.
    pub tt_cut_history: i32,
    /// History from a fail low: 1 credits the opponent's quiet move that led to a node where every move failed
    /// low (it was a good move: Stockfish's prior-countermove bonus); 0 off until an SPRT says otherwise.
    pub prior_bonus: i32,
    /// Late-move reductions: the base reduction `lmr_log_mul`·ln(depth)·ln(moves searched) + `lmr_log_base`,
    /// both in thousandths (`node::reduce::base_reduction`), and the quiet move's history score worth a ply less
    /// (a negative history a ply more; 8192 is half the history's range).
    pub lmr_log_mul: i32,
    pub lmr_log_base: i32,
    pub lmr_history_div: i32,
    /// Quiescence search: delta pruning's margin, and its ply limit.
    pub delta_margin: i32,
    pub qsearch_max_plies: i32,
    /// The root's aspiration window: its first half-width, its growth (`delta += delta / 2 + aspiration_growth`)
    /// and the width past which the window opens fully.
    pub aspiration_delta: i32,
    pub aspiration_growth: i32,
    pub aspiration_max: i32,
}

impl SearchParams {
    /// The values set by hand on 9×9 shogi over single matches (quoted where each step is done): what Yari shogi
    /// searches with, and what 9×9 and minishogi started their tuning from.
    pub const BASE: SearchParams = SearchParams {
        razor_depth: 3,
        razor_base: 300,
        razor_per_depth_sq: 250,
        rfp_depth: 6,
        rfp_per_depth: 120,
        null_min_depth: 3,
        null_base_r: 3,
        null_r_divisor: 4,
        null_verify_depth: 10,
        probcut_min_depth: 5,
        probcut_margin: 200,
        probcut_reduction: 4,
        probcut_tt_slack: 3,
        singular_min_depth: 8,
        singular_tt_slack: 3,
        singular_margin_per_depth: 2,
        singular_double_margin: SINGULAR_DOUBLE_OFF,
        noisy_see_depth: 6,
        noisy_see_per_depth: 120,
        lmp_depth: 8,
        lmp_base: 4,
        futility_depth: 6,
        futility_base: 150,
        futility_per_depth: 120,
        quiet_see_depth: 6,
        quiet_see_per_depth_sq: 40,
        iir_min_depth: IIR_OFF,
        lmr_min_depth: 3,
        lmr_min_searched: 3,
        lmr_cut_node: 2,
        lmr_tt_noisy: 0,
        lmr_deeper_margin: LMR_DEEPER_OFF,
        lmr_noisy_min_searched: LMR_NOISY_OFF,
        lmr_check: 0,
        tt_cut_history: 0,
        prior_bonus: 0,
        lmr_log_mul: 600,
        lmr_log_base: 500,
        lmr_history_div: 8192,
        delta_margin: 200,
        qsearch_max_plies: 16,
        aspiration_delta: 40,
        aspiration_growth: 10,
        aspiration_max: 1500,
    };

    /// 9×9 shogi: `BASE` with the eight static-pruning margins of the first SPSA run (2,400 game pairs at
    /// byoyomi 20), whose SPRT against `BASE` passed (docs/strength.md, "Tuning by SPSA"). Reverse futility
    /// three fifths as wide and razoring a quarter lower prune far more: the 9×9 bench to depth 12 searches
    /// about a fifth of the nodes.
    pub const SHOGI: SearchParams = SearchParams {
        razor_base: 225,
        rfp_per_depth: 67,
        noisy_see_per_depth: 111,
        lmp_base: 5,
        futility_base: 149,
        futility_per_depth: 138,
        quiet_see_per_depth_sq: 64,
        probcut_margin: 209,
        ..SearchParams::BASE
    };

    /// Minishogi: `BASE` with the same eight margins tuned on its own games (4,000 pairs at byoyomi 20), whose
    /// SPRT against `BASE` passed (+32 Elo; docs/strength.md, "Tuning by SPSA"). Reverse futility as narrow as
    /// the run allowed (its lower bound); razoring and the exchange pruning of captures about a third more
    /// cautious than 9×9's hand-set values (razoring's base margin 300 -> 404, the captures' 120 -> 163 per ply).
    pub const MINISHOGI: SearchParams = SearchParams {
        futility_base: 177,
        futility_per_depth: 113,
        rfp_per_depth: 50,
        razor_base: 404,
        noisy_see_per_depth: 163,
        lmp_base: 3,
        probcut_margin: 252,
        quiet_see_per_depth_sq: 41,
        ..SearchParams::BASE
    };
}

/// An `lmr_deeper_margin` no score reaches (scores stay within the mate bounds): the re-search never deepened.
pub const LMR_DEEPER_OFF: i32 = 100_000;

/// An `lmr_noisy_min_searched` no node reaches (it has fewer moves): captures and promotions never reduced.
pub const LMR_NOISY_OFF: i32 = crate::rules::moves::MAX_MOVES as i32;

/// A `singular_double_margin` no score reaches (scores stay within the mate bounds): never two plies.
pub const SINGULAR_DOUBLE_OFF: i32 = 100_000;

/// The double extensions one line may take, so that a chain of them cannot run the search to the ply limit.
pub const DOUBLE_EXTENSIONS_MAX: u8 = 6;

/// An `iir_min_depth` no search reaches (no depth exceeds the ply limit): internal iterative reduction off.
pub const IIR_OFF: i32 = crate::engine::search::MAX_PLY as i32 + 1;

impl SearchParams {
    /// The values a game searches with when no override is set (its `GameEval::SEARCH`).
    pub fn of_game(game: crate::GameKind) -> SearchParams {
        crate::with_variant!(game, V => <V as crate::engine::eval::GameEval>::SEARCH)
    }
}

/// Lists every field once, so that the names the option and the tuner use cannot drift from the struct.
macro_rules! named_fields {
    ($($field:ident),* $(,)?) => {
        impl SearchParams {
            /// Every field's name, in declaration order.
            pub const NAMES: &'static [&'static str] = &[$(stringify!($field)),*];

            /// The value of the field called `name`.
            pub fn get(&self, name: &str) -> Option<i32> {
                match name {
                    $(stringify!($field) => Some(self.$field),)*
                    _ => None,
                }
            }

            fn field_mut(&mut self, name: &str) -> Option<&mut i32> {
                match name {
                    $(stringify!($field) => Some(&mut self.$field),)*
                    _ => None,
                }
            }
        }
    };
}

named_fields!(
    razor_depth,
    razor_base,
    razor_per_depth_sq,
    rfp_depth,
    rfp_per_depth,
    null_min_depth,
    null_base_r,
    null_r_divisor,
    null_verify_depth,
    probcut_min_depth,
    probcut_margin,
    probcut_reduction,
    probcut_tt_slack,
    singular_min_depth,
    singular_tt_slack,
    singular_margin_per_depth,
    singular_double_margin,
    noisy_see_depth,
    noisy_see_per_depth,
    lmp_depth,
    lmp_base,
    futility_depth,
    futility_base,
    futility_per_depth,
    quiet_see_depth,
    quiet_see_per_depth_sq,
    iir_min_depth,
    lmr_min_depth,
    lmr_min_searched,
    lmr_cut_node,
    lmr_tt_noisy,
    lmr_deeper_margin,
    lmr_noisy_min_searched,
    lmr_check,
    tt_cut_history,
    prior_bonus,
    lmr_log_mul,
    lmr_log_base,
    lmr_history_div,
    delta_margin,
    qsearch_max_plies,
    aspiration_delta,
    aspiration_growth,
    aspiration_max,
);

/// The range an override may take: wide enough for any tuning run, narrow enough that no product in the search
/// overflows (a margin times a squared depth stays far inside an i32).
pub const OVERRIDE_RANGE: std::ops::RangeInclusive<i32> = -100_000..=100_000;

/// Values that replace some of a game's [`SearchParams`] (the `SearchParams` option: `name=value` words), each
/// name checked against [`SearchParams::NAMES`] when parsed, so that applying them cannot fail.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParamOverrides(Vec<(&'static str, i32)>);

/// Why a `SearchParams` value was refused; a word quoted is cut to 40 characters.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamOverrideError {
    #[error("'{0}' is not name=value")]
    NotNameValue(String),
    #[error("unknown search parameter '{0}'")]
    UnknownName(String),
    #[error("{name}: '{value}' is not a whole number from -100000 to 100000")]
    Value { name: &'static str, value: String },
}

fn cut(word: &str) -> String {
    word.chars().take(40).collect()
}

impl std::str::FromStr for ParamOverrides {
    type Err = ParamOverrideError;

    /// `name=value` words separated by spaces or commas; empty (or `<empty>`) for none.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut out: Vec<(&'static str, i32)> = Vec::new();
        let words = text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty() && *w != "<empty>");
        for word in words {
            let (name, value) = word
                .split_once('=')
                .ok_or_else(|| ParamOverrideError::NotNameValue(cut(word)))?;
            let name = SearchParams::NAMES
                .iter()
                .copied()
                .find(|&n| n == name)
                .ok_or_else(|| ParamOverrideError::UnknownName(cut(name)))?;
            let v = value
                .parse::<i32>()
                .ok()
                .filter(|v| OVERRIDE_RANGE.contains(v))
                .ok_or_else(|| ParamOverrideError::Value {
                    name,
                    value: cut(value),
                })?;
            // a name given twice keeps its last value
            out.retain(|&(n, _)| n != name);
            out.push((name, v));
        }
        Ok(ParamOverrides(out))
    }
}

impl std::fmt::Display for ParamOverrides {
    /// The form `from_str` reads: `name=value` words separated by commas (one word, so that it fits an
    /// `option.SearchParams=...` of `hayate match --engine` as well as `setoption`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let words: Vec<String> = self.0.iter().map(|(n, v)| format!("{n}={v}")).collect();
        f.write_str(&words.join(","))
    }
}

impl ParamOverrides {
    /// From values already in range under known names (the tuner's), e.g. `SearchParams::NAMES` entries.
    pub fn from_pairs(pairs: impl IntoIterator<Item = (&'static str, i32)>) -> Self {
        ParamOverrides(
            pairs
                .into_iter()
                .filter(|(n, _)| SearchParams::NAMES.contains(n))
                .map(|(n, v)| (n, v.clamp(*OVERRIDE_RANGE.start(), *OVERRIDE_RANGE.end())))
                .collect(),
        )
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `base` with these values in place of its own.
    pub fn apply(&self, mut base: SearchParams) -> SearchParams {
        for &(name, v) in &self.0 {
            if let Some(f) = base.field_mut(name) {
                *f = v;
            }
        }
        base
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every field is named once: the list is as long as the struct has i32 fields, with no name twice, and
    /// each name reads and writes its own field.
    #[test]
    fn every_field_is_named_once() {
        let n = std::mem::size_of::<SearchParams>() / std::mem::size_of::<i32>();
        assert_eq!(SearchParams::NAMES.len(), n);
        let mut p = SearchParams::BASE;
        for (i, name) in SearchParams::NAMES.iter().enumerate() {
            assert_eq!(SearchParams::NAMES.iter().filter(|m| *m == name).count(), 1);
            *p.field_mut(name).expect("named") = 1_000 + i as i32;
        }
        for (i, name) in SearchParams::NAMES.iter().enumerate() {
            assert_eq!(p.get(name), Some(1_000 + i as i32), "{name}");
        }
    }

    #[test]
    fn overrides_parse_apply_and_print() {
        let o: ParamOverrides = "razor_base=280, lmr_cut_node=1 razor_base=290"
            .parse()
            .unwrap();
        assert_eq!(o.to_string(), "lmr_cut_node=1,razor_base=290");
        let p = o.apply(SearchParams::BASE);
        assert_eq!((p.razor_base, p.lmr_cut_node), (290, 1));
        assert_eq!(p.rfp_per_depth, SearchParams::BASE.rfp_per_depth);
        assert_eq!(
            "".parse::<ParamOverrides>().unwrap(),
            ParamOverrides::default()
        );
        assert_eq!(
            "<empty>".parse::<ParamOverrides>().unwrap(),
            ParamOverrides::default()
        );
        let err = |t: &str| t.parse::<ParamOverrides>().unwrap_err().to_string();
        assert_eq!(err("razor_base"), "'razor_base' is not name=value");
        assert_eq!(err("razor=3"), "unknown search parameter 'razor'");
        assert_eq!(
            err("razor_base=x"),
            "razor_base: 'x' is not a whole number from -100000 to 100000"
        );
        assert_eq!(
            err("razor_base=100001"),
            "razor_base: '100001' is not a whole number from -100000 to 100000"
        );
    }
}
