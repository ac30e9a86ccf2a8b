//! The net file: a fixed header that names what the weights are for, checked field by field on load, then the
//! weights.
//!
//! Layout, all integers little-endian:
//! ```text
//!  0  magic "HAYATENN"
//!  8  version u32 (1)
//! 12  game u32 (0 shogi, 1 minishogi, 2 yarishogi)
//! 16  architecture u32 (1: (inputs -> hidden) x 2 -> 1, SCReLU, QA 255, QB 64; 2: the same with king buckets,
//!     one block of the game's inputs per region of the perspective's own king, see `features`; 3: (inputs ->
//!     hidden) x 2 -> 32 -> 32 -> 1, the deep head of `network`; 4: the deep head with king buckets)
//! 20  inputs u32 (the game's input count, see `features`; times `KING_BUCKETS` for architecture 2)
//! 24  hidden u32 (a multiple of 16, at most 1024)
//! 28  scale u32 (centipawns per unit of output)
//! 32  payload bytes u64
//! 40  hash u64: FNV-1a 64 of the payload
//! 48  payload: w1 i16 [inputs × hidden] (input-major), b1 i16 [hidden], then the head:
//!     linear (1, 2): w2 i16 [2 × hidden] (side to move first), b2 i32; every w2 within ±128
//!     deep (3, 4):   w2 i8 [32 × 2 × hidden] (unit-major), b2 i32 [32], w3 i8 [32 × 32], b3 i32 [32],
//!                    w4 i16 [32], b4 i32; every bias within ±2^24
//! ```

use std::fmt;
use std::fs::{File, Metadata};
use std::io::Read;
use std::path::{Path, PathBuf};

use super::features::KING_BUCKETS;
use super::network::{Deep, Head, Network, DEEP_BIAS_LIMIT, DEEP_L1, DEEP_L2};
use crate::GameKind;

pub const MAGIC: &[u8; 8] = b"HAYATENN";
pub const VERSION: u32 = 1;
pub const ARCHITECTURE: u32 = 1;
pub const ARCHITECTURE_KING_BUCKETS: u32 = 2;
pub const ARCHITECTURE_DEEP: u32 = 3;
pub const ARCHITECTURE_DEEP_KING_BUCKETS: u32 = 4;
pub const HEADER_SIZE: usize = 48;
/// The largest output scale a net may give (centipawns per unit of its quantised output).
const MAX_SCALE: u32 = 100_000;
pub const MAX_HIDDEN: usize = 1024;
/// No net file is longer (the largest a header can describe, a king-bucketed shogi net of the widest hidden
/// layer, is about 43 MB): a longer file is refused before anything is allocated for it.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// The game's number in file headers (nets and training data).
pub const fn game_code(g: GameKind) -> u8 {
    match g {
        GameKind::Shogi => 0,
        GameKind::Minishogi => 1,
        GameKind::Yari => 2,
    }
}

pub fn game_from_code(c: u8) -> Option<GameKind> {
    GameKind::ALL.into_iter().find(|&g| game_code(g) == c)
}

/// Why a net file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    Io(String),
    // not a regular file (a named pipe, a device, a directory): reading it could block or never end
    NotAFile { path: String, kind: &'static str },
    TooLarge { path: String, len: u64 },
    // `header`: the length the header implies
    Length { path: String, len: u64, header: u64 },
    BadMagic,
    Version(u32),
    UnknownGame(u32),
    WrongGame { file: GameKind, expected: GameKind },
    Architecture(u32),
    Inputs { file: usize, expected: usize },
    Hidden(usize),
    Scale(u32),
    Size { file: usize, expected: usize },
    Hash { file: u64, computed: u64 },
    OutputWeight(i16),
    Bias(i32),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Io(e) => write!(f, "{e}"),
            NetError::NotAFile { path, kind } => write!(f, "{path} is {kind}, not a regular file"),
            NetError::TooLarge { path, len } => write!(
                f,
                "{path} is {len} bytes, more than any net file ({MAX_FILE_BYTES} bytes)"
            ),
            NetError::Length { path, len, header } => {
                write!(f, "{path} is {len} bytes; its header implies {header}")
            }
            NetError::BadMagic => write!(f, "not a Hayate net file (bad magic)"),
            NetError::Version(v) => write!(f, "net file version {v} (this build reads {VERSION})"),
            NetError::UnknownGame(g) => write!(f, "net file names an unknown game ({g})"),
            NetError::WrongGame { file, expected } => {
                write!(f, "net file is for {file}, not {expected}")
            }
            NetError::Architecture(a) => {
                write!(
                    f,
                    "net architecture {a} (this build reads {ARCHITECTURE} to {ARCHITECTURE_DEEP_KING_BUCKETS})"
                )
            }
            NetError::Inputs { file, expected } => {
                write!(f, "net has {file} inputs, the game has {expected}")
            }
            NetError::Scale(v) => write!(f, "net output scale {v} (must be 1 to {MAX_SCALE})"),
            NetError::Hidden(h) => write!(
                f,
                "net hidden size {h} (must be a multiple of 16, at most {MAX_HIDDEN})"
            ),
            NetError::Size { file, expected } => {
                write!(f, "net file has {file} payload bytes, expected {expected}")
            }
            NetError::Hash { file, computed } => write!(
                f,
                "net file hash {file:016x} does not match its contents ({computed:016x})"
            ),
            NetError::OutputWeight(w) => write!(f, "net output weight {w} is outside ±128"),
            NetError::Bias(b) => write!(f, "net bias {b} is outside ±{DEEP_BIAS_LIMIT}"),
        }
    }
}

impl std::error::Error for NetError {}

/// FNV-1a, 64 bits: enough to catch a truncated or damaged file, no dependency.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn payload_size(inputs: usize, hidden: usize, deep: bool) -> usize {
    let first = 2 * (inputs * hidden + hidden);
    if deep {
        first
            + DEEP_L1 * 2 * hidden
            + 4 * DEEP_L1
            + DEEP_L2 * DEEP_L1
            + 4 * DEEP_L2
            + 2 * DEEP_L2
            + 4
    } else {
        first + 2 * 2 * hidden + 4
    }
}

pub fn to_bytes(net: &Network) -> Vec<u8> {
    let deep = matches!(net.head, Head::Deep(_));
    let mut payload = Vec::with_capacity(payload_size(net.inputs, net.hidden, deep));
    for w in net.w1.iter().chain(&net.b1) {
        payload.extend_from_slice(&w.to_le_bytes());
    }
    match &net.head {
        Head::Linear { w, b } => {
            w.iter()
                .for_each(|w| payload.extend_from_slice(&w.to_le_bytes()));
            payload.extend_from_slice(&b.to_le_bytes());
        }
        Head::Deep(d) => {
            payload.extend(d.w2.iter().map(|&w| w as u8));
            d.b2.iter()
                .for_each(|b| payload.extend_from_slice(&b.to_le_bytes()));
            payload.extend(d.w3.iter().map(|&w| w as u8));
            d.b3.iter()
                .for_each(|b| payload.extend_from_slice(&b.to_le_bytes()));
            d.w4.iter()
                .for_each(|w| payload.extend_from_slice(&w.to_le_bytes()));
            payload.extend_from_slice(&d.b4.to_le_bytes());
        }
    }
    let mut out = Vec::with_capacity(HEADER_SIZE + payload.len());
    out.extend_from_slice(MAGIC);
    for v in [
        VERSION,
        u32::from(game_code(net.game)),
        match (deep, net.block != 0) {
            (false, false) => ARCHITECTURE,
            (false, true) => ARCHITECTURE_KING_BUCKETS,
            (true, false) => ARCHITECTURE_DEEP,
            (true, true) => ARCHITECTURE_DEEP_KING_BUCKETS,
        },
        net.inputs as u32,
        net.hidden as u32,
        net.scale as u32,
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&fnv1a(&payload).to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from(u32_at(b, at)) | (u64::from(u32_at(b, at + 4)) << 32)
}

/// What a net file's header says, checked against the game.
struct Header {
    inputs: usize,
    block: usize,
    hidden: usize,
    scale: i32,
    deep: bool,
    /// The payload bytes the architecture and sizes imply.
    payload: usize,
}

/// Reads and checks the header at the start of `b` (the header alone is enough).
fn header(b: &[u8], game: GameKind, game_inputs: usize) -> Result<Header, NetError> {
    if b.len() < HEADER_SIZE || &b[..8] != MAGIC {
        return Err(NetError::BadMagic);
    }
    let version = u32_at(b, 8);
    if version != VERSION {
        return Err(NetError::Version(version));
    }
    let g = u32_at(b, 12);
    let file_game = u8::try_from(g)
        .ok()
        .and_then(game_from_code)
        .ok_or(NetError::UnknownGame(g))?;
    if file_game != game {
        return Err(NetError::WrongGame {
            file: file_game,
            expected: game,
        });
    }
    let arch = u32_at(b, 16);
    let (inputs, block, deep) = match arch {
        ARCHITECTURE => (game_inputs, 0, false),
        ARCHITECTURE_KING_BUCKETS => (game_inputs * KING_BUCKETS, game_inputs, false),
        ARCHITECTURE_DEEP => (game_inputs, 0, true),
        ARCHITECTURE_DEEP_KING_BUCKETS => (game_inputs * KING_BUCKETS, game_inputs, true),
        _ => return Err(NetError::Architecture(arch)),
    };
    let file_inputs = u32_at(b, 20) as usize;
    if file_inputs != inputs {
        return Err(NetError::Inputs {
            file: file_inputs,
            expected: inputs,
        });
    }
    let hidden = u32_at(b, 24) as usize;
    if hidden == 0 || !hidden.is_multiple_of(16) || hidden > MAX_HIDDEN {
        return Err(NetError::Hidden(hidden));
    }
    // refused rather than clamped: a net must write back to the bytes it was read from
    let scale = u32_at(b, 28);
    if !(1..=MAX_SCALE).contains(&scale) {
        return Err(NetError::Scale(scale));
    }
    Ok(Header {
        inputs,
        block,
        hidden,
        scale: scale as i32,
        deep,
        payload: payload_size(inputs, hidden, deep),
    })
}

/// Reads a net for `game`, whose input count is `game_inputs`, checking every header field.
pub fn from_bytes(b: &[u8], game: GameKind, game_inputs: usize) -> Result<Network, NetError> {
    let Header {
        inputs,
        block,
        hidden,
        scale,
        deep,
        payload: expected,
    } = header(b, game, game_inputs)?;
    let declared = u64_at(b, 32);
    let payload = &b[HEADER_SIZE..];
    if declared != expected as u64 || payload.len() != expected {
        return Err(NetError::Size {
            file: payload.len(),
            expected,
        });
    }
    let (hash, computed) = (u64_at(b, 40), fnv1a(payload));
    if hash != computed {
        return Err(NetError::Hash {
            file: hash,
            computed,
        });
    }
    let mut r = Reader(payload);
    let w1 = r.i16s(inputs * hidden);
    let b1 = r.i16s(hidden);
    let head = if deep {
        let d = Deep::new(
            r.i8s(DEEP_L1 * 2 * hidden),
            r.i32s(DEEP_L1),
            r.i8s(DEEP_L2 * DEEP_L1),
            r.i32s(DEEP_L2),
            r.i16s(DEEP_L2),
            r.i32s(1)[0],
        );
        let biases = d.b2.iter().chain(&d.b3).chain([&d.b4]);
        if let Some(&b) = biases
            .into_iter()
            .find(|b| b.unsigned_abs() > DEEP_BIAS_LIMIT as u32)
        {
            return Err(NetError::Bias(b));
        }
        Head::Deep(d)
    } else {
        let w = r.i16s(2 * hidden);
        if let Some(&w) = w.iter().find(|w| w.unsigned_abs() > 128) {
            return Err(NetError::OutputWeight(w));
        }
        Head::Linear { w, b: r.i32s(1)[0] }
    };
    Ok(Network {
        game,
        inputs,
        block,
        hidden,
        scale,
        w1,
        b1,
        head,
    })
}

/// Little-endian values read one after the other from a payload whose length was checked against the header.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> &'a [u8] {
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        a
    }

    fn i8s(&mut self, n: usize) -> Vec<i8> {
        self.take(n).iter().map(|&b| b as i8).collect()
    }

    fn i16s(&mut self, n: usize) -> Vec<i16> {
        self.take(2 * n)
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect()
    }

    fn i32s(&mut self, n: usize) -> Vec<i32> {
        self.take(4 * n)
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }
}

/// Reads a net file for `game`. Only a regular file is read, and only as many bytes as its header implies: a
/// named pipe, `/dev/stdin` or a device could block the protocol thread on input that never comes, or never end.
pub fn load(path: &Path, game: GameKind, game_inputs: usize) -> Result<Network, NetError> {
    let shown = || path.display().to_string();
    let io = |e: std::io::Error| NetError::Io(format!("cannot read {}: {e}", path.display()));
    // what the path names, before opening: where opening cannot be made non-blocking, this keeps a named pipe
    // from being opened at all
    regular(&std::fs::metadata(path).map_err(io)?, path)?;
    let mut file = open_without_waiting(path).map_err(io)?;
    // and what was opened: the path may have been replaced in between
    let meta = file.metadata().map_err(io)?;
    regular(&meta, path)?;
    let len = meta.len();
    if len > MAX_FILE_BYTES {
        return Err(NetError::TooLarge { path: shown(), len });
    }
    let mut head = Vec::with_capacity(HEADER_SIZE);
    (&mut file)
        .take(HEADER_SIZE as u64)
        .read_to_end(&mut head)
        .map_err(io)?;
    let expected = (HEADER_SIZE + header(&head, game, game_inputs)?.payload) as u64;
    if len != expected {
        return Err(NetError::Length {
            path: shown(),
            len,
            header: expected,
        });
    }
    let mut bytes = head;
    bytes.reserve_exact(expected as usize - HEADER_SIZE);
    // one byte more than the header implies shows a file that grew since its length was read
    (&mut file)
        .take(expected - HEADER_SIZE as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    from_bytes(&bytes, game, game_inputs)
}

/// Opens for reading without waiting: on Linux a named pipe with no writer would block `open` itself.
fn open_without_waiting(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// Refuses anything but a regular file, saying what it is.
fn regular(meta: &Metadata, path: &Path) -> Result<(), NetError> {
    let t = meta.file_type();
    if t.is_file() {
        return Ok(());
    }
    let kind = if t.is_dir() {
        "a directory"
    } else {
        special_kind(&t)
    };
    Err(NetError::NotAFile {
        path: path.display().to_string(),
        kind,
    })
}

#[cfg(unix)]
fn special_kind(t: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if t.is_fifo() {
        "a named pipe"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "something else"
    }
}

#[cfg(not(unix))]
fn special_kind(_: &std::fs::FileType) -> &'static str {
    "something else"
}

/// Why a net could not be saved: the file could not be written, named with the system's reason.
#[derive(Debug, thiserror::Error)]
pub enum NetSaveError {
    #[error("cannot write {}: {source}", .path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

pub fn save(net: &Network, path: &Path) -> Result<(), NetSaveError> {
    std::fs::write(path, to_bytes(net)).map_err(|source| NetSaveError::Write {
        path: path.to_path_buf(),
        source,
    })
}
