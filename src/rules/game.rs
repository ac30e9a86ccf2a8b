//! The game named at run time, and the entering-king rule chosen at run time.
//!
//! Everything that differs between the games is a [`Variant`](crate::Variant) type, fixed at compile time. Front
//! ends learn the game from text (`--variant`, `USI_Variant`, `UCI_Variant`, a record's header) or from an SFEN's
//! board shape; [`GameKind`] is that choice, parsed here and only here, and [`with_variant!`](crate::with_variant)
//! is the one dispatch from it into the generic code.

use std::fmt;
use std::str::FromStr;

/// One of the three games.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GameKind {
    /// Standard shogi, 9×9.
    Shogi,
    /// Minishogi, 5×5.
    Minishogi,
    /// Yari shogi, 9 ranks × 7 files.
    Yari,
}

impl GameKind {
    pub const ALL: [GameKind; 3] = [GameKind::Shogi, GameKind::Minishogi, GameKind::Yari];

    /// The canonical name: what `--variant`, `USI_Variant` and the records print.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Shogi => "shogi",
            GameKind::Minishogi => "minishogi",
            GameKind::Yari => "yarishogi",
        }
    }

    /// Every name accepted for the game, canonical first: our own, and those of XBoard and Fairy-Stockfish
    /// (`5x5+5_shogi` is XBoard's minishogi, `yari` a common short form).
    pub const fn aliases(self) -> &'static [&'static str] {
        match self {
            GameKind::Shogi => &["shogi"],
            GameKind::Minishogi => &["minishogi", "5x5+5_shogi"],
            GameKind::Yari => &["yarishogi", "yari"],
        }
    }

    /// The name XBoard (CECP) and UCI2WB use: XBoard's own for the games it knows (`shogi`, and minishogi as shogi
    /// on a 5×5 board with 5 holdings, `5x5+5_shogi`), ours for Yari shogi, which XBoard learns from the engine.
    /// It is one of [`GameKind::aliases`], so it parses back to the game.
    pub const fn xboard_name(self) -> &'static str {
        match self {
            GameKind::Shogi => "shogi",
            GameKind::Minishogi => "5x5+5_shogi",
            GameKind::Yari => "yarishogi",
        }
    }

    /// Ranks and files of the board.
    pub const fn shape(self) -> (usize, usize) {
        match self {
            GameKind::Shogi => (9, 9),
            GameKind::Minishogi => (5, 5),
            GameKind::Yari => (9, 7),
        }
    }

    /// The game played on a board of `ranks` × `files`, if any.
    pub fn from_shape(ranks: usize, files: usize) -> Option<GameKind> {
        GameKind::ALL
            .into_iter()
            .find(|g| g.shape() == (ranks, files))
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not one of the games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownGame(pub String);

impl fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = GameKind::ALL
            .iter()
            .flat_map(|g| g.aliases().iter().copied())
            .collect();
        write!(
            f,
            "unknown game '{}' (known: {})",
            crate::rules::truncate(&self.0),
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownGame {}

impl FromStr for GameKind {
    type Err = UnknownGame;

    /// Any of [`GameKind::aliases`], in any letter case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GameKind::ALL
            .into_iter()
            .find(|g| g.aliases().iter().any(|a| a.eq_ignore_ascii_case(s)))
            .ok_or_else(|| UnknownGame(s.to_string()))
    }
}

/// Runs `$body` with the type alias `$V` bound to the game's [`Variant`](crate::Variant) type: the one place
/// where a run-time [`GameKind`] becomes a compile-time type.
///
/// ```
/// use hayate::{with_variant, GameKind, Position, Variant};
/// let start = with_variant!(GameKind::Minishogi, V => Position::<V>::startpos().to_sfen());
/// assert_eq!(start, "rbsgk/4p/5/P4/KGSBR b - 1");
/// ```
#[macro_export]
macro_rules! with_variant {
    ($kind:expr, $V:ident => $body:expr) => {
        match $kind {
            $crate::GameKind::Shogi => {
                type $V = $crate::Shogi;
                $body
            }
            $crate::GameKind::Minishogi => {
                type $V = $crate::Minishogi;
                $body
            }
            $crate::GameKind::Yari => {
                type $V = $crate::Yari;
                $body
            }
        }
    };
}

/// The entering-king declaration (入玉宣言) rule, a USI option of 9×9 shogi.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum EnteringKingRule {
    /// No declaration.
    None,
    /// CSA rule 24: 31 points for either side.
    Csa24,
    /// CSA rule 27 (the floodgate rule): 28 points for sente, 27 for gote.
    #[default]
    Csa27,
}

impl EnteringKingRule {
    pub const ALL: [EnteringKingRule; 3] = [
        EnteringKingRule::None,
        EnteringKingRule::Csa24,
        EnteringKingRule::Csa27,
    ];

    /// The option value's USI name, as YaneuraOu spells it.
    pub const fn usi_name(self) -> &'static str {
        match self {
            EnteringKingRule::None => "NoEnteringKing",
            EnteringKingRule::Csa24 => "CSARule24",
            EnteringKingRule::Csa27 => "CSARule27",
        }
    }

    /// Points needed by sente and by gote, or `None` when declaring is not allowed.
    pub const fn points(self) -> Option<(u32, u32)> {
        match self {
            EnteringKingRule::None => None,
            EnteringKingRule::Csa24 => Some((31, 31)),
            EnteringKingRule::Csa27 => Some((28, 27)),
        }
    }
}

impl FromStr for EnteringKingRule {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        EnteringKingRule::ALL
            .into_iter()
            .find(|r| r.usi_name() == s)
            .ok_or_else(|| format!("unknown entering-king rule '{s}'"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Minishogi, Shogi, Variant, Yari};

    #[test]
    fn every_alias_parses_to_its_game_in_any_case() {
        for g in GameKind::ALL {
            for a in g.aliases() {
                assert_eq!(a.parse::<GameKind>(), Ok(g));
                assert_eq!(a.to_ascii_uppercase().parse::<GameKind>(), Ok(g));
            }
            assert_eq!(g.name().parse::<GameKind>(), Ok(g));
            assert_eq!(g.xboard_name().parse::<GameKind>(), Ok(g));
        }
        assert!("chess".parse::<GameKind>().is_err());
        assert!("".parse::<GameKind>().is_err());
    }

    #[test]
    fn kinds_agree_with_the_variant_types() {
        fn check<V: Variant>() {
            assert_eq!(V::KIND.shape(), (V::RANKS, V::FILES));
            assert_eq!(GameKind::from_shape(V::RANKS, V::FILES), Some(V::KIND));
            assert_eq!(with_variant!(V::KIND, W => W::KIND), V::KIND);
        }
        check::<Shogi>();
        check::<Minishogi>();
        check::<Yari>();
    }

    #[test]
    fn entering_king_rules_round_trip() {
        for r in EnteringKingRule::ALL {
            assert_eq!(r.usi_name().parse::<EnteringKingRule>(), Ok(r));
        }
        assert!("CSARule99".parse::<EnteringKingRule>().is_err());
    }
}
