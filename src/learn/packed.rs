//! Positions packed for training data: a fixed number of bytes per game (32 for 9×9 shogi), so that tens of
//! millions of positions fit in memory and on disk.
//!
//! A self-play position holds the game's full set of pieces (on the board or in a hand), and both kings. That
//! is what makes it small: a piece in hand needs no kind, only its owner, and the owners of the pieces in hand
//! of one kind are a single count. Bits, least significant first:
//!
//! ```text
//! side to move        1 bit (0 Black)
//! kings               Black's square, then White's, in ⌈log2(squares)⌉ bits each
//! each other square   0 empty | 1, the piece's unpromoted kind (a Huffman code over the game's hand kinds,
//!                     weighted by how many of each the game has, so a pawn is 1 bit in 9×9), a promotion bit
//!                     where the kind promotes in this game, its colour bit
//! each hand kind      how many of the pieces of that kind not on the board Black holds (White holds the rest),
//!                     in as many bits as that count needs
//! ```
//!
//! A piece moving from the board into a hand never makes the position longer, so the full set on the board is
//! the longest case: 256 bits for 9×9, 76 for minishogi, 172 for Yari.

use arrayvec::ArrayVec;

use crate::rules::piece::{Color, Kind, Piece, HAND_KIND_COUNT};
use crate::rules::variant::Variant;

use super::record::Record;

/// The code table and sizes of one game.
#[derive(Clone, Debug)]
pub struct Packing {
    squares: usize,
    king_bits: u32,
    kinds: ArrayVec<Kind, HAND_KIND_COUNT>,
    totals: ArrayVec<u8, HAND_KIND_COUNT>,
    /// Whether each hand kind's promoted form is on this game's board.
    promotes: ArrayVec<bool, HAND_KIND_COUNT>,
    /// Canonical Huffman code of each kind: its length and its bits (read most significant first).
    lengths: ArrayVec<u32, HAND_KIND_COUNT>,
    codes: ArrayVec<u32, HAND_KIND_COUNT>,
    /// Bytes of a packed position.
    pub bytes: usize,
}

/// Why a position cannot be packed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PackError {
    /// Both kings are needed.
    MissingKing,
    /// A piece the game's set does not have, or more of a kind than the set has.
    NotTheFullSet,
}

impl std::fmt::Display for PackError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            PackError::MissingKing => "a packed position needs both kings",
            PackError::NotTheFullSet => "a packed position holds exactly the game's set of pieces",
        })
    }
}

impl std::error::Error for PackError {}

/// Bits to write any number from 0 to `n`.
fn bits_for(n: u32) -> u32 {
    u32::BITS - n.leading_zeros()
}

/// Code lengths of a Huffman code for `weights` (at most seven symbols; ties broken by symbol order, so the
/// code is the same on every machine).
fn huffman_lengths(weights: &[u32]) -> ArrayVec<u32, HAND_KIND_COUNT> {
    let mut lengths: ArrayVec<u32, HAND_KIND_COUNT> = weights.iter().map(|_| 0).collect();
    if weights.len() < 2 {
        lengths.iter_mut().for_each(|l| *l = 1);
        return lengths;
    }
    // each tree: its weight and the symbols under it
    let mut trees: Vec<(u32, Vec<usize>)> = weights
        .iter()
        .enumerate()
        .map(|(i, &w)| (w.max(1), vec![i]))
        .collect();
    while trees.len() > 1 {
        trees.sort_by_key(|t| (t.0, t.1[0]));
        let (wa, a) = trees.remove(0);
        let (wb, b) = trees.remove(0);
        for &s in a.iter().chain(&b) {
            lengths[s] += 1;
        }
        let mut under = a;
        under.extend(b);
        under.sort_unstable();
        trees.push((wa + wb, under));
    }
    lengths
}

impl Packing {
    pub fn of<V: Variant>() -> Packing {
        let kinds: ArrayVec<Kind, HAND_KIND_COUNT> = V::HAND_KINDS.iter().copied().collect();
        let totals: ArrayVec<u8, HAND_KIND_COUNT> =
            kinds.iter().map(|k| V::PIECE_TOTALS[k.index()]).collect();
        let promotes = kinds
            .iter()
            .map(|k| k.promoted().is_some_and(|p| V::BOARD_KINDS.contains(&p)))
            .collect();
        let weights: Vec<u32> = totals.iter().map(|&t| u32::from(t)).collect();
        let lengths = huffman_lengths(&weights);
        // canonical codes: by length, then by symbol order
        let mut order: Vec<usize> = (0..kinds.len()).collect();
        order.sort_by_key(|&i| (lengths[i], i));
        let mut codes: ArrayVec<u32, HAND_KIND_COUNT> = kinds.iter().map(|_| 0).collect();
        let (mut code, mut len) = (0u32, 0u32);
        for (n, &i) in order.iter().enumerate() {
            if n > 0 {
                code += 1;
            }
            code <<= lengths[i] - len;
            len = lengths[i];
            codes[i] = code;
        }
        let mut p = Packing {
            squares: V::SQUARES,
            king_bits: bits_for(V::SQUARES as u32 - 1),
            kinds,
            totals,
            promotes,
            lengths,
            codes,
            bytes: 0,
        };
        p.bytes = p.longest_bits().div_ceil(8);
        p
    }

    /// Bits of the longest position: every piece on the board.
    fn longest_bits(&self) -> usize {
        let pieces: u32 = (0..self.kinds.len())
            .map(|i| {
                u32::from(self.totals[i]) * (self.lengths[i] + u32::from(self.promotes[i]) + 1)
            })
            .sum();
        1 + 2 * self.king_bits as usize + (self.squares - 2) + pieces as usize
    }

    fn kind_index(&self, k: Kind) -> Option<usize> {
        self.kinds.iter().position(|&x| x == k)
    }

    /// Packs the position of `r` into `out` (`self.bytes` long).
    pub fn pack(&self, r: &Record, out: &mut [u8]) -> Result<(), PackError> {
        out.iter_mut().for_each(|b| *b = 0);
        let mut w = BitWriter { out, at: 0 };
        w.put(u32::from(r.side == Color::White), 1);
        let mut kings = [None; 2];
        for (i, p) in r.board.iter().enumerate() {
            if p.is_some() && p.kind() == Kind::King {
                let k = &mut kings[p.color().index()];
                if k.is_some() {
                    return Err(PackError::NotTheFullSet);
                }
                *k = Some(i);
            }
        }
        let [Some(black), Some(white)] = kings else {
            return Err(PackError::MissingKing);
        };
        w.put(black as u32, self.king_bits);
        w.put(white as u32, self.king_bits);
        let mut on_board = [0u32; HAND_KIND_COUNT];
        for (i, &p) in r.board.iter().enumerate() {
            if i == black || i == white {
                continue;
            }
            if p.is_none() {
                w.put(0, 1);
                continue;
            }
            let base = p.kind().unpromoted();
            let k = self.kind_index(base).ok_or(PackError::NotTheFullSet)?;
            if p.kind().is_promoted() && !self.promotes[k] {
                return Err(PackError::NotTheFullSet);
            }
            on_board[k] += 1;
            w.put(1, 1);
            w.put(self.codes[k], self.lengths[k]);
            if self.promotes[k] {
                w.put(u32::from(p.kind().is_promoted()), 1);
            }
            w.put(u32::from(p.color() == Color::White), 1);
        }
        for (k, &board) in on_board.iter().enumerate().take(self.kinds.len()) {
            let (b, wh) = (u32::from(r.hands[0][k]), u32::from(r.hands[1][k]));
            let rest = u32::from(self.totals[k])
                .checked_sub(board)
                .ok_or(PackError::NotTheFullSet)?;
            if b + wh != rest {
                return Err(PackError::NotTheFullSet);
            }
            w.put(b, bits_for(rest));
        }
        Ok(())
    }

    /// The position packed in `bytes`, as a record (score, result, game and ply left at their defaults);
    /// `None` if the bytes are not a position of this game.
    pub fn unpack(&self, bytes: &[u8]) -> Option<Record> {
        if bytes.len() != self.bytes {
            return None;
        }
        let mut r = BitReader { bytes, at: 0 };
        let side = if r.get(1)? == 1 {
            Color::White
        } else {
            Color::Black
        };
        let black = r.get(self.king_bits)? as usize;
        let white = r.get(self.king_bits)? as usize;
        if black >= self.squares || white >= self.squares || black == white {
            return None;
        }
        let mut board = vec![Piece::NONE; self.squares];
        board[black] = Piece::new(Color::Black, Kind::King);
        board[white] = Piece::new(Color::White, Kind::King);
        let mut on_board = [0u32; HAND_KIND_COUNT];
        for (i, sq) in board.iter_mut().enumerate() {
            if i == black || i == white || r.get(1)? == 0 {
                continue;
            }
            let k = self.read_kind(&mut r)?;
            let promoted = self.promotes[k] && r.get(1)? == 1;
            let color = if r.get(1)? == 1 {
                Color::White
            } else {
                Color::Black
            };
            let base = self.kinds[k];
            let kind = match (promoted, base.promoted()) {
                (true, Some(p)) => p,
                _ => base,
            };
            on_board[k] += 1;
            *sq = Piece::new(color, kind);
        }
        let mut hands = [Vec::new(), Vec::new()];
        for (&total, &board) in self.totals.iter().zip(&on_board) {
            let rest = u32::from(total).checked_sub(board)?;
            let b = r.get(bits_for(rest))?;
            if b > rest {
                return None;
            }
            hands[0].push(b as u8);
            hands[1].push((rest - b) as u8);
        }
        Some(Record {
            board,
            hands,
            side,
            score: 0,
            result: 1,
            game: 0,
            ply: 0,
        })
    }

    fn read_kind(&self, r: &mut BitReader) -> Option<usize> {
        let (mut code, mut len) = (0u32, 0u32);
        while len < 16 {
            code = code << 1 | r.get(1)?;
            len += 1;
            if let Some(k) =
                (0..self.kinds.len()).find(|&k| self.lengths[k] == len && self.codes[k] == code)
            {
                return Some(k);
            }
        }
        None
    }
}

struct BitWriter<'a> {
    out: &'a mut [u8],
    at: usize,
}

impl BitWriter<'_> {
    /// Writes the low `n` bits of `v`, most significant first.
    fn put(&mut self, v: u32, n: u32) {
        for i in (0..n).rev() {
            if v >> i & 1 == 1 {
                self.out[self.at / 8] |= 1 << (self.at % 8);
            }
            self.at += 1;
        }
    }
}

struct BitReader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl BitReader<'_> {
    fn get(&mut self, n: u32) -> Option<u32> {
        let mut v = 0;
        for _ in 0..n {
            let byte = self.bytes.get(self.at / 8)?;
            v = v << 1 | u32::from(byte >> (self.at % 8) & 1);
            self.at += 1;
        }
        Some(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::Position;
    use crate::rules::rng::SplitMix64;
    use crate::{Minishogi, Shogi, Yari};

    fn round_trips<V: Variant>(seed: u64, longest: usize) {
        let p = Packing::of::<V>();
        assert_eq!(p.longest_bits(), longest, "{}", V::NAME);
        let mut r = SplitMix64::new(seed);
        let mut seen = 0;
        for _ in 0..30 {
            let mut pos = Position::<V>::startpos();
            for _ in 0..150 {
                let rec = Record::from_position(&pos);
                let mut buf = vec![0u8; p.bytes];
                p.pack(&rec, &mut buf).unwrap();
                let back = p.unpack(&buf).unwrap();
                assert_eq!(back.to_sfen::<V>(), rec.to_sfen::<V>());
                seen += 1;
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.do_move(moves[r.below(moves.len())]);
            }
        }
        assert!(seen > 1000);
    }

    #[test]
    fn random_games_round_trip_in_all_games() {
        round_trips::<Shogi>(1, 256);
        round_trips::<Minishogi>(2, 76);
        round_trips::<Yari>(3, 172);
        assert_eq!(Packing::of::<Shogi>().bytes, 32);
    }

    #[test]
    fn a_position_without_the_full_set_is_refused() {
        let p = Packing::of::<Shogi>();
        let mut buf = vec![0u8; p.bytes];
        let mut kingless = Record::from_position(&Position::<Shogi>::startpos());
        let black_king = Piece::new(Color::Black, Kind::King);
        kingless
            .board
            .iter_mut()
            .filter(|p| **p == black_king)
            .for_each(|p| *p = Piece::NONE);
        assert_eq!(p.pack(&kingless, &mut buf), Err(PackError::MissingKing));
        // a pawn missing, then a pawn too many
        let mut short = Record::from_position(&Position::<Shogi>::startpos());
        let pawn = Piece::new(Color::Black, Kind::Pawn);
        if let Some(p) = short.board.iter_mut().find(|p| **p == pawn) {
            *p = Piece::NONE;
        }
        assert_eq!(p.pack(&short, &mut buf), Err(PackError::NotTheFullSet));
        short.hands[1][0] = 2;
        assert_eq!(p.pack(&short, &mut buf), Err(PackError::NotTheFullSet));
        short.hands[1][0] = 1;
        assert_eq!(p.pack(&short, &mut buf), Ok(()));
    }

    #[test]
    fn damaged_bytes_are_refused_or_read_as_some_position() {
        // every bit pattern either fails or gives a board of the game's pieces; none panics
        let p = Packing::of::<Minishogi>();
        let mut r = SplitMix64::new(5);
        for _ in 0..20_000 {
            let bytes: Vec<u8> = (0..p.bytes).map(|_| r.next_u64() as u8).collect();
            if let Some(rec) = p.unpack(&bytes) {
                assert_eq!(rec.board.len(), 25);
            }
        }
    }
}
