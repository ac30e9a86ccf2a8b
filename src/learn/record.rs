//! The training-data file: labelled positions of one game, fixed-size records after a small header, so that a
//! file can be appended to by a resumed `hayate selfplay`, split by game for validation and read without parsing.
//!
//! Layout, all integers little-endian:
//! ```text
//! header (16 bytes): magic "HYDATA01" | game u8 (0 shogi, 1 minishogi, 2 yarishogi) | version u8 (1)
//!                    | 2 bytes zero | record size u32
//! record:            board: one byte per square in square order (file-major, see `Square`), the piece code
//!                    (colour << 4 | kind, as `Piece::code`) or 0xff for an empty square
//!                    | hands: for Black then White, one count byte per kind of the game's `HAND_KINDS`
//!                    | side to move u8 (0 Black, 1 White)
//!                    | score i16: the search's score in centipawns, from the side to move
//!                    | result u8: the game's result for the side to move: 0 loss, 1 draw, 2 win
//!                    | game u32: the game's index (games are numbered from 0 across resumed runs)
//!                    | ply u16: moves played since the start position
//! ```
//! Minishogi records are 45 bytes, Yari 81, 9×9 shogi 105.

use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::path::Path;

pub use crate::engine::nnue::file::{game_code, game_from_code};
use crate::rules::piece::{Color, Piece};
use crate::rules::position::sfen::write_board;
use crate::rules::position::Position;
use crate::rules::square::Square;
use crate::rules::variant::Variant;

pub const MAGIC: &[u8; 8] = b"HYDATA01";
pub const VERSION: u8 = 1;
pub const HEADER_SIZE: usize = 16;

/// Bytes of one record of game `V`.
pub const fn record_size<V: Variant>() -> usize {
    V::SQUARES + 2 * V::HAND_KINDS.len() + 1 + 2 + 1 + 4 + 2
}

/// One labelled position, unpacked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Piece code per square, `Piece::NONE` for empty ones.
    pub board: Vec<Piece>,
    /// Hand counts per colour, in the order of the game's `HAND_KINDS`.
    pub hands: [Vec<u8>; 2],
    pub side: Color,
    pub score: i16,
    /// 0 loss, 1 draw, 2 win, for the side to move.
    pub result: u8,
    pub game: u32,
    pub ply: u16,
}

impl Record {
    /// The position's part of a record (score, result, game and ply still to be filled in).
    pub fn from_position<V: Variant>(pos: &Position<V>) -> Record {
        let board = (0..V::SQUARES)
            .map(|i| pos.piece_at(Square::new(i as u8)))
            .collect();
        let hand = |c: Color| {
            V::HAND_KINDS
                .iter()
                .map(|&k| pos.hand(c).count(k))
                .collect()
        };
        Record {
            board,
            hands: [hand(Color::Black), hand(Color::White)],
            side: pos.side_to_move(),
            score: 0,
            result: 1,
            game: 0,
            ply: 0,
        }
    }

    pub fn write<V: Variant>(&self, out: &mut Vec<u8>) {
        out.extend(self.board.iter().map(|p| p.code() as u8));
        for h in &self.hands {
            out.extend_from_slice(h);
        }
        out.push(self.side as u8);
        out.extend_from_slice(&self.score.to_le_bytes());
        out.push(self.result);
        out.extend_from_slice(&self.game.to_le_bytes());
        out.extend_from_slice(&self.ply.to_le_bytes());
    }

    /// Unpacks one record (`bytes` is exactly `record_size::<V>()` long); `None` when a byte is not a piece of
    /// the game or a field is out of range.
    pub fn read<V: Variant>(bytes: &[u8]) -> Option<Record> {
        if bytes.len() != record_size::<V>() {
            return None;
        }
        let (b, rest) = bytes.split_at(V::SQUARES);
        let mut board = Vec::with_capacity(V::SQUARES);
        for &code in b {
            board.push(piece_from_code::<V>(code)?);
        }
        let n = V::HAND_KINDS.len();
        let (black, rest) = rest.split_at(n);
        let (white, rest) = rest.split_at(n);
        let side = match rest[0] {
            0 => Color::Black,
            1 => Color::White,
            _ => return None,
        };
        let result = rest[3];
        if result > 2 {
            return None;
        }
        Some(Record {
            board,
            hands: [black.to_vec(), white.to_vec()],
            side,
            score: i16::from_le_bytes([rest[1], rest[2]]),
            result,
            game: u32::from_le_bytes([rest[4], rest[5], rest[6], rest[7]]),
            ply: u16::from_le_bytes([rest[8], rest[9]]),
        })
    }

    /// The position as SFEN (move number 1), for checks and for reading a record by eye.
    pub fn to_sfen<V: Variant>(&self) -> String {
        let mut s = String::new();
        write_board::<V>(&self.board, &mut s);
        s.push_str(if self.side == Color::Black {
            " b "
        } else {
            " w "
        });
        let mut hand = String::new();
        for (ci, h) in self.hands.iter().enumerate() {
            for (&k, &n) in V::HAND_KINDS.iter().zip(h).rev() {
                if n == 0 {
                    continue;
                }
                if n > 1 {
                    hand.push_str(&n.to_string());
                }
                let c = k.letter();
                hand.push(if ci == 0 { c } else { c.to_ascii_lowercase() });
            }
        }
        if hand.is_empty() {
            hand.push('-');
        }
        s.push_str(&hand);
        s.push_str(" 1");
        s
    }
}

fn piece_from_code<V: Variant>(code: u8) -> Option<Piece> {
    if code == 0xff {
        return Some(Piece::NONE);
    }
    let kind = *V::BOARD_KINDS.get(
        V::BOARD_KINDS
            .iter()
            .position(|k| k.index() == (code & 0x0f) as usize)?,
    )?;
    let color = match code >> 4 {
        0 => Color::Black,
        1 => Color::White,
        _ => return None,
    };
    Some(Piece::new(color, kind))
}

pub fn header<V: Variant>() -> [u8; HEADER_SIZE] {
    let mut h = [0u8; HEADER_SIZE];
    h[..8].copy_from_slice(MAGIC);
    h[8] = game_code(V::KIND);
    h[9] = VERSION;
    h[12..16].copy_from_slice(&(record_size::<V>() as u32).to_le_bytes());
    h
}

/// Checks a data file's header against game `V`.
pub fn check_header<V: Variant>(h: &[u8]) -> Result<(), String> {
    if h.len() < HEADER_SIZE || &h[..8] != MAGIC {
        return Err("not a Hayate data file (bad magic)".into());
    }
    if h[9] != VERSION {
        return Err(format!("data file version {} (expected {VERSION})", h[9]));
    }
    match game_from_code(h[8]) {
        Some(g) if g == V::KIND => {}
        Some(g) => return Err(format!("data file is for {g}, not {}", V::NAME)),
        None => return Err(format!("data file names an unknown game ({})", h[8])),
    }
    let size = u32::from_le_bytes([h[12], h[13], h[14], h[15]]) as usize;
    if size != record_size::<V>() {
        return Err(format!(
            "data file records are {size} bytes (expected {})",
            record_size::<V>()
        ));
    }
    Ok(())
}

/// Every record of a data file of game `V`; a torn last record (a run killed mid-write) is ignored.
pub fn read_file<V: Variant>(path: &Path) -> Result<Vec<Record>, String> {
    let f = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    BufReader::new(f)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    check_header::<V>(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let size = record_size::<V>();
    let mut out = Vec::with_capacity((bytes.len() - HEADER_SIZE) / size);
    for (i, chunk) in bytes[HEADER_SIZE..].chunks_exact(size).enumerate() {
        match Record::read::<V>(chunk) {
            Some(r) => out.push(r),
            None => return Err(format!("{}: record {i} is corrupt", path.display())),
        }
    }
    Ok(out)
}

/// Opens a data file for appending: a new file gets the header; an existing one must be of the same game.
/// Returns the file and the next free game index (one more than the highest recorded).
pub fn open_append<V: Variant>(path: &Path) -> Result<(File, u32), String> {
    let next_game = if path.exists() {
        read_file::<V>(path)?
            .iter()
            .map(|r| r.game + 1)
            .max()
            .unwrap_or(0)
    } else {
        0
    };
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    if len == 0 {
        f.write_all(&header::<V>())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    } else {
        // a torn record at the end would shift every record after it: cut it off
        let size = record_size::<V>() as u64;
        let whole = (len - HEADER_SIZE as u64) / size * size + HEADER_SIZE as u64;
        if whole != len {
            f.set_len(whole)
                .map_err(|e| format!("cannot truncate {}: {e}", path.display()))?;
        }
    }
    Ok((f, next_game))
}

/// Writes records to an open data file (whole records only, so a later run can append).
pub fn append<V: Variant>(f: &mut File, records: &[Record]) -> io::Result<()> {
    let mut buf = Vec::with_capacity(records.len() * record_size::<V>());
    for r in records {
        r.write::<V>(&mut buf);
    }
    f.write_all(&buf)?;
    f.flush()
}
