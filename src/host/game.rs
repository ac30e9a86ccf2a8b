//! The game being played, as one value: the position of whichever of the three games was chosen at run time.

use crate::rules::piece::Color;
use crate::rules::position::sfen::SfenError;
use crate::rules::position::xboard_fen::{parse_fen, XboardFenError};
use crate::rules::position::Position;
use crate::rules::variant::{Minishogi, Shogi, Yari};
use crate::{with_variant, GameKind};

/// One of the three games with its position.
#[derive(Clone)]
#[allow(clippy::large_enum_variant)] // one per engine, never moved in a hot path
pub enum Game {
    Shogi(Position<Shogi>),
    Minishogi(Position<Minishogi>),
    Yari(Position<Yari>),
}

/// Calls a generic body with the game's position bound to `$p` and its variant type to `$V`.
macro_rules! with_game {
    ($game:expr, $p:ident, $V:ident, $body:expr) => {
        match $game {
            $crate::host::Game::Shogi($p) => {
                type $V = $crate::rules::variant::Shogi;
                $body
            }
            $crate::host::Game::Minishogi($p) => {
                type $V = $crate::rules::variant::Minishogi;
                $body
            }
            $crate::host::Game::Yari($p) => {
                type $V = $crate::rules::variant::Yari;
                $body
            }
        }
    };
}
pub(crate) use with_game;

impl Game {
    pub fn start(kind: GameKind) -> Game {
        match kind {
            GameKind::Shogi => Game::Shogi(Position::startpos()),
            GameKind::Minishogi => Game::Minishogi(Position::startpos()),
            GameKind::Yari => Game::Yari(Position::startpos()),
        }
    }

    pub fn kind(&self) -> GameKind {
        with_game!(self, _p, V, <V as crate::rules::variant::Variant>::KIND)
    }

    /// Parses an SFEN for the current game, or for the game whose board shape the SFEN has. A tsume problem
    /// without the attacker's king is accepted too (the error of the plain parse is kept for anything else):
    /// only `go mate` may search it (see [`Game::has_both_kings`]).
    pub fn parse_sfen(&self, sfen: &str) -> Result<Game, SfenError> {
        let target = board_shape(sfen)
            .and_then(|(ranks, files)| GameKind::from_shape(ranks, files))
            .unwrap_or(self.kind());
        with_variant!(target, V => {
            let pos = Position::<V>::from_sfen(sfen)
                .or_else(|e| Position::<V>::from_tsume_sfen(sfen).map_err(|_| e))?;
            Ok(Game::from(pos))
        })
    }

    /// Reads an XBoard FEN as a position of the game whose board shape it has, or else of the current game.
    /// UCI2WB passes XBoard's FEN unchanged in `position sfen` to a USI engine that announces `UCI_Variant`, so
    /// the USI front end reads it with this.
    pub fn parse_xboard_fen(&self, fen: &str) -> Result<Game, XboardFenError> {
        let board = fen.split(['[', ' ']).next().unwrap_or("");
        let ranks: Vec<&str> = board.split('/').collect();
        let width = |rank: &str| -> usize {
            rank.chars()
                .map(|c| match c.to_digit(10) {
                    Some(d) => d as usize,
                    None => usize::from(c != '+'),
                })
                .sum()
        };
        let kind = GameKind::from_shape(ranks.len(), width(ranks[0])).unwrap_or(self.kind());
        Ok(match kind {
            GameKind::Shogi => Game::Shogi(parse_fen(fen)?),
            GameKind::Minishogi => Game::Minishogi(parse_fen(fen)?),
            GameKind::Yari => Game::Yari(parse_fen(fen)?),
        })
    }

    /// Whether both sides have a king: the playing search and the evaluation need both; the tsume solver does
    /// not.
    pub fn has_both_kings(&self) -> bool {
        with_game!(self, p, _V, Color::ALL.iter().all(|&c| p.has_king(c)))
    }
}

impl From<Position<Shogi>> for Game {
    fn from(p: Position<Shogi>) -> Game {
        Game::Shogi(p)
    }
}

impl From<Position<Minishogi>> for Game {
    fn from(p: Position<Minishogi>) -> Game {
        Game::Minishogi(p)
    }
}

impl From<Position<Yari>> for Game {
    fn from(p: Position<Yari>) -> Game {
        Game::Yari(p)
    }
}

/// Ranks and files of an SFEN's board field, when every rank has the same width.
fn board_shape(sfen: &str) -> Option<(usize, usize)> {
    let board = sfen.split_whitespace().next()?;
    let mut width = None;
    let mut ranks = 0;
    for rank in board.split('/') {
        ranks += 1;
        let mut w = 0;
        for c in rank.chars() {
            if let Some(d) = c.to_digit(10) {
                w += d as usize;
            } else if c != '+' {
                w += 1;
            }
        }
        match width {
            None => width = Some(w),
            Some(x) if x != w => return None,
            _ => {}
        }
    }
    Some((ranks, width?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_shape_of_an_xboard_fen_chooses_the_game() {
        let shogi = Game::start(GameKind::Shogi);
        let g = shogi
            .parse_xboard_fen("rbsgk/4p/5/P4/KGSBR[-] w 0 1")
            .unwrap();
        assert_eq!(g.kind(), GameKind::Minishogi);
        let g = Game::start(GameKind::Minishogi)
            .parse_xboard_fen("4k2/7/7/7/7/7/7/7/3K3[] b")
            .unwrap();
        assert_eq!(g.kind(), GameKind::Yari);
        assert!(shogi.parse_xboard_fen("4k3/8/8/8/8/8/8/4K3[] w").is_err());
    }
}
