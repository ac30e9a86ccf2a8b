//! Repetition of a position: one judge for the search and for the match judge, which differ only in how many
//! occurrences end the game and how far back they look.
//!
//! Positions are the same when their Zobrist keys (board, hands and side to move) are. A side that gave check
//! with every one of its moves since the first of the occurrences that end the game loses (perpetual check);
//! otherwise the game's [`RepetitionRule`] decides.

use crate::rules::piece::Color;
use crate::rules::variant::{RepetitionRule, Variant};

use super::Position;

/// A repeated position's meaning for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Repetition {
    None,
    Draw,
    Win,
    Loss,
}

/// A repetition that ends the game: what it means for the side to move, and whether perpetual check decided it
/// (rather than the game's rule).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RepetitionVerdict {
    pub result: Repetition,
    pub perpetual: bool,
}

impl<V: Variant> Position<V> {
    /// Whether the current position occurred before (same board, hands and side to move), looking back at most
    /// `max_plies` moves and never across a null move, and what that repetition means by the game's rule, judged
    /// since the most recent earlier occurrence. The search scores the first repetition as the game's final
    /// outcome.
    pub fn repetition(&self, max_plies: usize) -> Repetition {
        match self.repetition_verdict(2, max_plies) {
            Some(v) => v.result,
            None => Repetition::None,
        }
    }

    /// Whether the current position is its `occurrences`-th occurrence (at least 2, this one included), looking
    /// back at most `max_plies` moves and never across a null move, and what that means, perpetual check judged
    /// since the first of those occurrences. A match ends at the fourth occurrence; the search at the second.
    #[inline(always)]
    pub fn repetition_verdict(
        &self,
        occurrences: usize,
        max_plies: usize,
    ) -> Option<RepetitionVerdict> {
        let len = self.history.len();
        let key = self.key();
        let mut earlier = occurrences.max(2) - 1;
        let mut back = 2;
        while back <= len.min(max_plies) {
            let j = len - back;
            // a null move in between breaks the chain of real moves
            if self.history[j].mv.is_none() || self.history[j + 1].mv.is_none() {
                return None;
            }
            let st = &self.history[j];
            if st.board_key ^ st.hand_key == key {
                earlier -= 1;
                if earlier == 0 {
                    return Some(self.repetition_since(j));
                }
            }
            back += 2;
        }
        None
    }

    /// The verdict on a repetition whose first occurrence is the position before move `first` of the history.
    #[inline(always)]
    fn repetition_since(&self, first: usize) -> RepetitionVerdict {
        let len = self.history.len();
        // move i gave check when the position after it (i + 1) was in check
        let gave_check = |i: usize| {
            if i + 1 == len {
                self.checkers.any()
            } else {
                self.history[i + 1].checkers.any()
            }
        };
        // the side to move now also moved first after the first occurrence
        let we_checked = (first..len).step_by(2).all(gave_check);
        let they_checked = (first + 1..len).step_by(2).all(gave_check);
        let (result, perpetual) = if they_checked {
            (Repetition::Win, true)
        } else if we_checked {
            (Repetition::Loss, true)
        } else {
            let by_rule = match (V::REPETITION, self.side) {
                (RepetitionRule::Draw, _) => Repetition::Draw,
                (RepetitionRule::BlackLoses, Color::Black) => Repetition::Loss,
                (RepetitionRule::BlackLoses, Color::White) => Repetition::Win,
            };
            (by_rule, false)
        };
        RepetitionVerdict { result, perpetual }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Shogi;

    fn play(pos: &mut Position<Shogi>, moves: &str) {
        for m in moves.split_whitespace() {
            let mv = pos.parse_move(m).unwrap();
            pos.do_move(mv);
        }
    }

    #[test]
    fn the_span_starts_at_the_first_of_the_occurrences_that_count() {
        // a quiet cycle back to the start, then two cycles in which sente checks with every move
        let mut pos = Position::<Shogi>::from_sfen("4k4/R8/9/9/9/9/9/9/4K4 b - 1").unwrap();
        play(&mut pos, "5i5h 5a4a 5h5i 4a5a 9b9a 5a5b 9a9b 5b5a");
        assert_eq!(pos.repetition_verdict(4, usize::MAX), None);
        play(&mut pos, "9b9a 5a5b 9a9b 5b5a");
        // the match: the quiet cycle counts, so the game's rule decides
        let draw = RepetitionVerdict {
            result: Repetition::Draw,
            perpetual: false,
        };
        assert_eq!(pos.repetition_verdict(4, usize::MAX), Some(draw));
        // the search: only the last cycle counts, all checks by the side to move
        let loss = RepetitionVerdict {
            result: Repetition::Loss,
            perpetual: true,
        };
        assert_eq!(pos.repetition_verdict(2, 32), Some(loss));
        assert_eq!(pos.repetition(32), Repetition::Loss);
        // the last cycle lies beyond a 3-ply window
        assert_eq!(pos.repetition(3), Repetition::None);
    }
}
