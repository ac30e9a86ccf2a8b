//! The training-data file: labelled positions of one game, fixed-size records after a small header, so that a
//! file can be appended to by a resumed `hayate selfplay`, split by game for validation and read without parsing.
//!
//! Layout, all integers little-endian:
//! ```text
//! header (16 bytes): magic "HYDATA01" | game u8 (0 shogi, 1 minishogi, 2 yarishogi) | version u8 (1 or 2)
//!                    | 2 bytes zero | record size u32
//! version 2 record:  the position packed as `packed` describes (32 bytes for 9×9 shogi)
//!                    | score i16: the search's score in centipawns, from the side to move
//!                    | ply u16: moves played since the start position
//!                    | u32: the game's index (games are numbered from 0 across resumed runs) in the low 30 bits,
//!                      the game's result for the side to move in the top two (0 loss, 1 draw, 2 win)
//! version 1 record:  board: one byte per square in square order (file-major, see `Square`), the piece code
//!                    (colour << 4 | kind, as `Piece::code`) or 0xff for an empty square
//!                    | hands: for Black then White, one count byte per kind of the game's `HAND_KINDS`
//!                    | side to move u8 (0 Black, 1 White) | score i16 | result u8 | game u32 | ply u16
//! ```
//! Version 2 records are 40 bytes for 9×9 shogi, 18 for minishogi, 30 for Yari (version 1: 105, 45 and 81).
//! New files are written as version 2; a version 1 file is read, and appended to, as version 1.

use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use super::packed::Packing;
pub use crate::engine::nnue::file::{game_code, game_from_code};
use crate::rules::piece::{Color, Piece};
use crate::rules::position::sfen::write_board;
use crate::rules::position::Position;
use crate::rules::square::Square;
use crate::rules::variant::Variant;

pub const MAGIC: &[u8; 8] = b"HYDATA01";
pub const HEADER_SIZE: usize = 16;
/// Game indices of version 2 records wrap at this (they are only told apart for the validation split).
pub const GAME_INDEX_LIMIT: u32 = 1 << 30;

/// A data file's record layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Version 1: a byte per square.
    Plain,
    /// Version 2: packed positions.
    Packed,
}

impl Format {
    pub const fn version(self) -> u8 {
        match self {
            Format::Plain => 1,
            Format::Packed => 2,
        }
    }

    fn from_version(v: u8) -> Option<Format> {
        match v {
            1 => Some(Format::Plain),
            2 => Some(Format::Packed),
            _ => None,
        }
    }

    /// Bytes of one record of game `V`.
    pub fn record_size<V: Variant>(self) -> usize {
        match self {
            Format::Plain => V::SQUARES + 2 * V::HAND_KINDS.len() + 1 + 2 + 1 + 4 + 2,
            Format::Packed => Packing::of::<V>().bytes + 2 + 2 + 4,
        }
    }
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

    /// Appends the record in `format` to `out`; a packed record needs the full set of pieces.
    pub fn write<V: Variant>(
        &self,
        format: Format,
        packing: &Packing,
        out: &mut Vec<u8>,
    ) -> Result<(), super::packed::PackError> {
        if format == Format::Packed {
            let at = out.len();
            out.resize(at + packing.bytes, 0);
            packing.pack(self, &mut out[at..])?;
            out.extend_from_slice(&self.score.to_le_bytes());
            out.extend_from_slice(&self.ply.to_le_bytes());
            let tail = (self.game % GAME_INDEX_LIMIT) | (u32::from(self.result.min(2)) << 30);
            out.extend_from_slice(&tail.to_le_bytes());
            return Ok(());
        }
        self.write_plain(out);
        Ok(())
    }

    fn write_plain(&self, out: &mut Vec<u8>) {
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

    /// Reads one record of `format` (`bytes` is exactly one record long); `None` when the bytes are not a
    /// position of the game or a field is out of range.
    pub fn read<V: Variant>(format: Format, packing: &Packing, bytes: &[u8]) -> Option<Record> {
        if bytes.len() != format.record_size::<V>() {
            return None;
        }
        if format == Format::Packed {
            let (pos, t) = bytes.split_at(packing.bytes);
            let mut r = packing.unpack(pos)?;
            r.score = i16::from_le_bytes([t[0], t[1]]);
            r.ply = u16::from_le_bytes([t[2], t[3]]);
            let tail = u32::from_le_bytes([t[4], t[5], t[6], t[7]]);
            r.game = tail % GAME_INDEX_LIMIT;
            r.result = (tail >> 30) as u8;
            return (r.result <= 2).then_some(r);
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

pub fn header<V: Variant>(format: Format) -> [u8; HEADER_SIZE] {
    let mut h = [0u8; HEADER_SIZE];
    h[..8].copy_from_slice(MAGIC);
    h[8] = game_code(V::KIND);
    h[9] = format.version();
    h[12..16].copy_from_slice(&(format.record_size::<V>() as u32).to_le_bytes());
    h
}

/// What is wrong with a data file's header.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HeaderError {
    #[error("not a Hayate data file (bad magic)")]
    BadMagic,
    #[error("data file version {0} (this build reads 1 and 2)")]
    Version(u8),
    #[error("data file is for {found}, not {wanted}")]
    OtherGame {
        found: crate::GameKind,
        wanted: &'static str,
    },
    #[error("data file names an unknown game ({0})")]
    UnknownGame(u8),
    #[error("data file records are {found} bytes (expected {expected})")]
    RecordSize { found: usize, expected: usize },
}

/// Why a data file could not be read or appended to; each names the file.
#[derive(Debug, thiserror::Error)]
pub enum DataFileError {
    #[error("cannot {what} {}: {error}", .path.display())]
    Io {
        what: &'static str,
        path: PathBuf,
        error: io::Error,
    },
    #[error("{}: {error}", .path.display())]
    Header { path: PathBuf, error: HeaderError },
    #[error("{}: record {record} is corrupt", .path.display())]
    Corrupt { path: PathBuf, record: usize },
}

impl DataFileError {
    fn io(what: &'static str, path: &Path) -> impl FnOnce(io::Error) -> DataFileError + use<> {
        let path = path.to_path_buf();
        move |error| DataFileError::Io { what, path, error }
    }
}

/// Checks a data file's header against game `V`; returns its format.
pub fn check_header<V: Variant>(h: &[u8]) -> Result<Format, HeaderError> {
    if h.len() < HEADER_SIZE || &h[..8] != MAGIC {
        return Err(HeaderError::BadMagic);
    }
    let format = Format::from_version(h[9]).ok_or(HeaderError::Version(h[9]))?;
    match game_from_code(h[8]) {
        Some(g) if g == V::KIND => {}
        Some(g) => {
            return Err(HeaderError::OtherGame {
                found: g,
                wanted: V::NAME,
            })
        }
        None => return Err(HeaderError::UnknownGame(h[8])),
    }
    let size = u32::from_le_bytes([h[12], h[13], h[14], h[15]]) as usize;
    if size != format.record_size::<V>() {
        return Err(HeaderError::RecordSize {
            found: size,
            expected: format.record_size::<V>(),
        });
    }
    Ok(format)
}

/// A data file's bytes and format, the header checked.
fn read_bytes<V: Variant>(path: &Path) -> Result<(Vec<u8>, Format), DataFileError> {
    let f = File::open(path).map_err(DataFileError::io("open", path))?;
    let mut bytes = Vec::new();
    BufReader::new(f)
        .read_to_end(&mut bytes)
        .map_err(DataFileError::io("read", path))?;
    let format = check_header::<V>(&bytes).map_err(|error| DataFileError::Header {
        path: path.to_path_buf(),
        error,
    })?;
    Ok((bytes, format))
}

/// Calls `each` with every record of a data file of game `V`, in order, without keeping them; a torn last
/// record (a run killed mid-write) is ignored.
pub fn for_each_record<V: Variant>(
    path: &Path,
    mut each: impl FnMut(Record),
) -> Result<Format, DataFileError> {
    let (bytes, format) = read_bytes::<V>(path)?;
    let (size, packing) = (format.record_size::<V>(), Packing::of::<V>());
    for (i, chunk) in bytes[HEADER_SIZE..].chunks_exact(size).enumerate() {
        match Record::read::<V>(format, &packing, chunk) {
            Some(r) => each(r),
            None => {
                return Err(DataFileError::Corrupt {
                    path: path.to_path_buf(),
                    record: i,
                })
            }
        }
    }
    Ok(format)
}

/// Every record of a data file of game `V`; a torn last record is ignored.
pub fn read_file<V: Variant>(path: &Path) -> Result<Vec<Record>, DataFileError> {
    let mut out = Vec::new();
    for_each_record::<V>(path, |r| out.push(r))?;
    Ok(out)
}

/// A data file open for appending.
pub struct Appender {
    file: File,
    format: Format,
    packing: Packing,
    /// The next free game index (one more than the highest recorded).
    pub next_game: u32,
    /// A key per position already in the file, so that no position is written twice.
    seen: std::collections::HashSet<u64>,
    /// Positions left out as already present.
    pub duplicates: u64,
}

/// The key of a position (the side to move, the board and the hands) for finding duplicates.
fn position_key<V: Variant>(packing: &Packing, r: &Record) -> u64 {
    let mut buf = Vec::with_capacity(V::SQUARES + 16);
    match Record::write::<V>(r, Format::Packed, packing, &mut buf) {
        Ok(()) => crate::engine::nnue::file::fnv1a(&buf[..packing.bytes]),
        Err(_) => {
            buf.clear();
            r.write_plain(&mut buf);
            // the plain record without its score, result, game and ply
            crate::engine::nnue::file::fnv1a(&buf[..buf.len() - 9])
        }
    }
}

/// Opens a data file for appending: a new file gets the header (version 2); an existing one must be of the same
/// game and keeps its format. The file's positions are read so that none is written again.
pub fn open_append<V: Variant>(path: &Path) -> Result<Appender, DataFileError> {
    let packing = Packing::of::<V>();
    let mut seen = std::collections::HashSet::new();
    let mut next_game = 0;
    let existing = if path.exists() {
        Some(for_each_record::<V>(path, |r| {
            next_game = next_game.max(r.game + 1);
            seen.insert(position_key::<V>(&packing, &r));
        })?)
    } else {
        None
    };
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(DataFileError::io("open", path))?;
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    let format = existing.unwrap_or(Format::Packed);
    if len == 0 {
        file.write_all(&header::<V>(format))
            .map_err(DataFileError::io("write", path))?;
    } else {
        // a torn record at the end would shift every record after it: cut it off
        let size = format.record_size::<V>() as u64;
        let whole = (len - HEADER_SIZE as u64) / size * size + HEADER_SIZE as u64;
        if whole != len {
            file.set_len(whole)
                .map_err(DataFileError::io("truncate", path))?;
        }
    }
    Ok(Appender {
        file,
        format,
        packing,
        next_game,
        seen,
        duplicates: 0,
    })
}

impl Appender {
    pub fn format(&self) -> Format {
        self.format
    }

    /// Writes the records whose positions the file does not hold yet (whole records only, so that a later run
    /// can append); returns how many were written.
    pub fn append<V: Variant>(&mut self, records: &[Record]) -> io::Result<usize> {
        let mut buf = Vec::with_capacity(records.len() * self.format.record_size::<V>());
        let mut written = 0;
        for r in records {
            if !self.seen.insert(position_key::<V>(&self.packing, r)) {
                self.duplicates += 1;
                continue;
            }
            r.write::<V>(self.format, &self.packing, &mut buf)
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
            written += 1;
        }
        self.file.write_all(&buf)?;
        self.file.flush()?;
        Ok(written)
    }
}
