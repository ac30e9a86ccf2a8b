//! The search's margins and depth limits, named in one place. Each game has its own instance
//! (`GameEval::SEARCH`), read as an associated constant, so a game's values fold into its monomorphised search
//! and no node branches on the game. All three games use [`SearchParams::BASE`] today: the margins were tuned on
//! 9×9 and kept for the smaller boards, where no match has shown better ones yet; a game that needs its own
//! starts from a copy of it.
//!
//! Scores are centipawns, depths plies. The late-move reduction formula (`node::base_reduction`) and the
//! history's weight in it stay in `search::node`: its table is built once for every game.

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
    /// Late-move reductions (step 14): from this depth, after this many moves; `lmr_cut_node` plies more at cut
    /// nodes.
    pub lmr_min_depth: i32,
    pub lmr_min_searched: i32,
    pub lmr_cut_node: i32,
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
    /// The values of 9×9 shogi, where they were tuned (the matches are quoted where each step is done).
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
        noisy_see_depth: 6,
        noisy_see_per_depth: 120,
        lmp_depth: 8,
        lmp_base: 4,
        futility_depth: 6,
        futility_base: 150,
        futility_per_depth: 120,
        quiet_see_depth: 6,
        quiet_see_per_depth_sq: 40,
        lmr_min_depth: 3,
        lmr_min_searched: 3,
        lmr_cut_node: 2,
        delta_margin: 200,
        qsearch_max_plies: 16,
        aspiration_delta: 40,
        aspiration_growth: 10,
        aspiration_max: 1500,
    };
}
