//! What KIF and KI2 hold before the moves: header fields (`開始日時：...`), the 手合割 and its start
//! position, the players, comments, a board diagram; and the files' encodings.

use super::bod::{self, Diagram};
use super::japanese::YARI_HAS_NO_KIF;
use super::kif::{at, short, KifError, KifGame};
use crate::rules::variant::Variant;
use crate::{with_variant, GameKind, Position};

/// The 手合割 of 9×9 shogi and their start positions (the handicap giver, 上手, is gote and moves first).
pub const HANDICAPS: [(&str, &str); 15] = [
    (
        "香落ち",
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "右香落ち",
        "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "角落ち",
        "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "飛車落ち",
        "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "飛香落ち",
        "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "二枚落ち",
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "三枚落ち",
        "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "四枚落ち",
        "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "五枚落ち",
        "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "左五枚落ち",
        "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "六枚落ち",
        "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "左七枚落ち",
        "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "右七枚落ち",
        "3gkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "八枚落ち",
        "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "十枚落ち",
        "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
];

/// Minishogi's 手合割, as the common KIF tools write it.
pub const MINISHOGI: &str = "5五将棋";

/// The 手合割 a start position has, and whether it is a handicap; None: a diagram is needed.
pub fn handicap_name(kind: GameKind, sfen: &str) -> Option<(&'static str, bool)> {
    match kind {
        GameKind::Shogi if sfen == crate::Shogi::START_SFEN => Some(("平手", false)),
        GameKind::Shogi => HANDICAPS.iter().find(|h| h.1 == sfen).map(|h| (h.0, true)),
        GameKind::Minishogi if sfen == crate::Minishogi::START_SFEN => Some((MINISHOGI, false)),
        _ => None,
    }
}

/// The game and start of a 手合割 (平手 when none is given); None for an unknown one, and for その他 (whose
/// start is in the diagram).
fn handicap_start(name: &str) -> Option<(GameKind, &'static str)> {
    let name: String = name.chars().filter(|c| !c.is_whitespace()).collect();
    match name.as_str() {
        "平手" => Some((GameKind::Shogi, crate::Shogi::START_SFEN)),
        "5五将棋" | "５五将棋" | "五々将棋" => {
            Some((GameKind::Minishogi, crate::Minishogi::START_SFEN))
        }
        n => HANDICAPS
            .iter()
            .find(|h| h.0 == n)
            .map(|h| (GameKind::Shogi, h.1)),
    }
}

/// Decodes a record's bytes: UTF-8 after a byte-order mark, or where the bytes are valid UTF-8 and the first line
/// does not declare Shift_JIS (`#KIF version=2.0 encoding=Shift_JIS`); Shift_JIS otherwise, except for a `.kifu`
/// file, which must be UTF-8. Japanese text in Shift_JIS is almost never valid UTF-8, so a `.kif` written in either
/// is read right. `ext` is the file's extension, if known.
pub fn decode(bytes: &[u8], ext: Option<&str>) -> Result<String, KifError> {
    let whole = |message: &str| KifError {
        line: None,
        message: message.to_string(),
    };
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        return String::from_utf8(rest.to_vec()).map_err(|_| whole("the UTF-8 text is not valid"));
    }
    let first: Vec<u8> = bytes.iter().take_while(|&&b| b != b'\n').copied().collect();
    let first = String::from_utf8_lossy(&first).to_ascii_lowercase();
    let declared_sjis = first.contains("encoding=shift_jis") || first.contains("encoding=sjis");
    let utf8 = std::str::from_utf8(bytes).ok();
    match (utf8, declared_sjis, ext) {
        (Some(s), false, _) => Ok(s.to_string()),
        (None, false, Some("kifu")) => Err(whole("a .kifu file must be UTF-8")),
        _ => encoding_rs::SHIFT_JIS
            .decode_without_bom_handling_and_without_replacement(bytes)
            .map(|s| s.into_owned())
            .ok_or_else(|| whole("the text is neither UTF-8 nor Shift_JIS")),
    }
}

/// The text in Shift_JIS, as `.kif` files hold it; None when a character has no Shift_JIS form (write `.kifu`,
/// UTF-8, instead).
pub fn encode_shift_jis(text: &str) -> Option<Vec<u8>> {
    let (bytes, _, unmappable) = encoding_rs::SHIFT_JIS.encode(text);
    (!unmappable).then(|| bytes.into_owned())
}

/// What the lines before the moves say.
#[derive(Default)]
pub(super) struct Head {
    handicap: Option<(String, usize)>,
    pub names: [String; 2],
    pub headers: Vec<(String, String)>,
    pub comments: Vec<String>,
    diagram: Diagram,
}

impl Head {
    pub(super) fn take(&mut self, line: &str, n: usize) -> Result<(), KifError> {
        let t = line.trim();
        if t.is_empty() || t.starts_with(['#', '&']) || t.starts_with("手数--") {
            return Ok(());
        }
        if let Some(c) = t.strip_prefix('*') {
            self.comments.push(c.to_string());
            return Ok(());
        }
        if self.diagram.take(line, n).map_err(|e| at(n, e))? {
            return Ok(());
        }
        let Some((key, value)) = t.split_once(['：', ':']) else {
            return Err(at(n, format!("cannot read '{}'", short(t))));
        };
        let value = value.trim().to_string();
        match key.trim() {
            "手合割" => self.handicap = Some((value, n)),
            "先手" | "下手" => self.names[0] = value,
            "後手" | "上手" => self.names[1] = value,
            "変化" => return Err(at(n, "a variation (変化) before the moves")),
            k => self.headers.push((k.to_string(), value)),
        }
        Ok(())
    }

    /// The game and its start position: the diagram's when there is one, else the 手合割's.
    pub(super) fn start(&self) -> Result<(GameKind, String), KifError> {
        let named = match &self.handicap {
            None => None,
            Some((name, n)) => match handicap_start(name) {
                Some(s) => Some(s),
                None if name
                    .chars()
                    .filter(|c| !c.is_whitespace())
                    .eq("その他".chars()) =>
                {
                    None
                }
                None => return Err(at(*n, format!("unknown 手合割 '{}'", short(name)))),
            },
        };
        if !self.diagram.has_board() {
            let (kind, sfen) = named.unwrap_or((GameKind::Shogi, crate::Shogi::START_SFEN));
            return Ok((kind, sfen.to_string()));
        }
        let line = self.diagram.first_line.unwrap_or(1);
        let kind = match self.diagram.files {
            Some(9) => GameKind::Shogi,
            Some(5) => GameKind::Minishogi,
            Some(7) => return Err(at(line, YARI_HAS_NO_KIF)),
            Some(f) => return Err(at(line, format!("a board of {f} files is no game here"))),
            None => return Err(at(line, "a diagram without its board")),
        };
        // a handicap's diagram is gote's (上手's) move unless it says otherwise
        let white = named.is_some_and(|(_, s)| s.split_whitespace().nth(1) == Some("w"));
        let sfen = self.diagram.sfen(white).map_err(|e| at(line, e))?;
        with_variant!(kind, V => {
            Position::<V>::from_sfen(&sfen)
                .or_else(|e| Position::<V>::from_tsume_sfen(&sfen).map_err(|_| e))
                .map(|p| (kind, p.to_sfen()))
                .map_err(|e| at(line, format!("the diagram is no legal position: {e}")))
        })
    }
}

/// The header lines both KIF and KI2 write, up to the moves, and whether the game is a handicap game.
pub(super) fn write_head<V: Variant>(game: &KifGame, pos: &Position<V>) -> (String, bool) {
    let mut s = String::new();
    for (k, v) in &game.headers {
        s.push_str(&format!("{k}：{v}\n"));
    }
    let named = handicap_name(game.kind, &game.start_sfen);
    let handicap = named.is_some_and(|n| n.1);
    let sides = bod::side_names(handicap);
    match named {
        Some((name, _)) => s.push_str(&format!("手合割：{name}\n")),
        // the diagram draws any other start; minishogi's still names its game
        None if game.kind == GameKind::Minishogi => s.push_str(&format!("手合割：{MINISHOGI}\n")),
        None => {}
    }
    for (side, name) in sides.iter().zip(&game.names) {
        s.push_str(&format!("{side}：{name}\n"));
    }
    if named.is_none() {
        s.push_str(&bod::write(pos, handicap));
    }
    (s, handicap)
}
