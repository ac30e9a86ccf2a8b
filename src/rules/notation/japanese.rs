//! Japanese move names, as players read and write them: `▲７六歩`, `△同　銀`, `▲２二角成`, `▲５八金右`,
//! `▲５五角打`; with the from-square of KIF (`７六歩(77)`) or without it, disambiguated as the Japan Shogi
//! Association's convention says (KI2).
//!
//! The convention for a move without its from-square, when more than one piece of the named kind can reach the
//! square: first the piece's motion (上 forward, 引 backward, 寄 sideways) if that tells it; else its place among
//! the others (右, 左 as the mover sees them, or 直 for a piece stepping straight forward; never 直 for a dragon or
//! horse); else both, place first (`右上`). A drop is marked 打 only where a piece on the board could also move to
//! the square. 成 marks a promotion, 不成 a move that could have promoted and did not.
//!
//! Names exist for 9×9 shogi and minishogi (the same pieces); Yari shogi has none.

use crate::rules::moves::Move;
use crate::rules::piece::{Color, Kind};
use crate::rules::square::Square;
use crate::rules::variant::Variant;
use crate::rules::{game::GameKind, position::Position};

/// File numbers as KIF and KI2 write them, file 1 first.
pub const FILE_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
/// Rank numbers, rank a (一) first.
pub const RANK_KANJI: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// Why there is no Japanese name: Yari shogi's pieces have no agreed names in records.
pub const YARI_HAS_NO_KIF: &str =
    "Yari shogi has no KIF or Japanese move notation; use SFEN, USI or a record line (CSA-style records) for it";

/// Whether the game has Japanese move names.
pub fn has_japanese_names(kind: GameKind) -> bool {
    kind != GameKind::Yari
}

/// The name of a kind in moves (two characters for the promoted lance, knight and silver).
pub fn piece_name(k: Kind) -> &'static str {
    match k {
        Kind::Pawn => "歩",
        Kind::Lance => "香",
        Kind::Knight => "桂",
        Kind::Silver => "銀",
        Kind::Gold => "金",
        Kind::Bishop => "角",
        Kind::Rook => "飛",
        Kind::King => "玉",
        Kind::ProPawn => "と",
        Kind::ProLance => "成香",
        Kind::ProKnight => "成桂",
        Kind::ProSilver => "成銀",
        Kind::ProBishop => "馬",
        Kind::ProRook => "龍",
    }
}

/// The one character of a kind in a board diagram (BOD).
pub fn board_char(k: Kind) -> char {
    match k {
        Kind::ProLance => '杏',
        Kind::ProKnight => '圭',
        Kind::ProSilver => '全',
        k => piece_name(k).chars().next().unwrap_or('?'),
    }
}

/// The kind one character names, as any common tool writes it (王 and 竜 too, and the diagram's 杏 圭 全).
pub fn kind_of_char(c: char) -> Option<Kind> {
    Some(match c {
        '歩' => Kind::Pawn,
        '香' => Kind::Lance,
        '桂' => Kind::Knight,
        '銀' => Kind::Silver,
        '金' => Kind::Gold,
        '角' => Kind::Bishop,
        '飛' => Kind::Rook,
        '玉' | '王' => Kind::King,
        'と' => Kind::ProPawn,
        '杏' => Kind::ProLance,
        '圭' => Kind::ProKnight,
        '全' => Kind::ProSilver,
        '馬' => Kind::ProBishop,
        '龍' | '竜' => Kind::ProRook,
        _ => return None,
    })
}

/// A number from a digit of any width or a kanji numeral 一..九.
pub fn digit_value(c: char) -> Option<usize> {
    if let Some(d) = c.to_digit(10) {
        return Some(d as usize);
    }
    if let Some(i) = FILE_DIGITS.iter().position(|&x| x == c) {
        return Some(i + 1);
    }
    RANK_KANJI.iter().position(|&x| x == c).map(|i| i + 1)
}

/// A count in kanji, as hands are written: 二 .. 十八 (one is not written).
pub fn kanji_count(n: u8) -> String {
    let digit = |d: u8| RANK_KANJI[usize::from(d - 1)];
    match n {
        0 | 1 => String::new(),
        2..=9 => digit(n).to_string(),
        10 => "十".to_string(),
        _ => format!("十{}", digit(n - 10)),
    }
}

/// Reads a kanji count (一..十八); None for anything else.
pub fn parse_kanji_count(s: &str) -> Option<u8> {
    let c: Vec<char> = s.chars().collect();
    let one = |c: char| RANK_KANJI.iter().position(|&x| x == c).map(|i| i as u8 + 1);
    match c[..] {
        [] => Some(1),
        ['十'] => Some(10),
        ['十', d] => one(d).map(|d| 10 + d),
        [d] => one(d),
        _ => None,
    }
}

/// The square as `７六`.
pub fn square_text<V: Variant>(sq: Square) -> String {
    let f = sq.file_index(V::RANKS);
    let r = sq.rank_index(V::RANKS);
    format!("{}{}", FILE_DIGITS[f], RANK_KANJI[r])
}

/// The square as KIF writes a from-square: `77`.
fn square_digits<V: Variant>(sq: Square) -> String {
    format!(
        "{}{}",
        sq.file_index(V::RANKS) + 1,
        sq.rank_index(V::RANKS) + 1
    )
}

/// The square of a file and a rank numbered from 1, if it is on the board.
pub fn square_at<V: Variant>(file: usize, rank: usize) -> Option<Square> {
    ((1..=V::FILES).contains(&file) && (1..=V::RANKS).contains(&rank))
        .then(|| Square::from_coords(file - 1, rank - 1, V::RANKS))
}

/// The mark of the side that moves: ▲ sente, △ gote.
pub fn side_mark(c: Color) -> char {
    match c {
        Color::Black => '▲',
        Color::White => '△',
    }
}

/// A piece's place among the others that could go to the same square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Right,
    Left,
    Straight,
}

/// How the piece moves, as the mover sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Motion {
    Up,
    Back,
    Sideways,
}

impl Place {
    fn text(self) -> char {
        match self {
            Place::Right => '右',
            Place::Left => '左',
            Place::Straight => '直',
        }
    }
}

impl Motion {
    fn text(self) -> char {
        match self {
            Motion::Up => '上',
            Motion::Back => '引',
            Motion::Sideways => '寄',
        }
    }
}

/// How far forward the move from `from` to `to` goes for `c` (negative: backward).
fn forward<V: Variant>(c: Color, from: Square, to: Square) -> isize {
    let (f, t) = (
        from.rank_index(V::RANKS) as isize,
        to.rank_index(V::RANKS) as isize,
    );
    match c {
        Color::Black => f - t,
        Color::White => t - f,
    }
}

/// How far to the mover's right a square is (the larger, the further right).
fn rightness<V: Variant>(c: Color, sq: Square) -> isize {
    let f = sq.file_index(V::RANKS) as isize;
    match c {
        Color::Black => -f,
        Color::White => f,
    }
}

fn motion_of<V: Variant>(c: Color, from: Square, to: Square) -> Motion {
    match forward::<V>(c, from, to) {
        d if d > 0 => Motion::Up,
        d if d < 0 => Motion::Back,
        _ => Motion::Sideways,
    }
}

/// Of the from-squares `cands` (of pieces of one kind that can reach `to`), those a KI2 name's place and motion
/// describe: the motion first, then the place among what is left.
pub fn filter_from<V: Variant>(
    c: Color,
    to: Square,
    cands: &[Square],
    place: Option<Place>,
    motion: Option<Motion>,
) -> Vec<Square> {
    let mut left: Vec<Square> = cands
        .iter()
        .copied()
        .filter(|&f| motion.is_none_or(|m| motion_of::<V>(c, f, to) == m))
        .collect();
    match place {
        None => {}
        Some(Place::Straight) => left.retain(|&f| {
            f.file_index(V::RANKS) == to.file_index(V::RANKS) && forward::<V>(c, f, to) > 0
        }),
        Some(p) => {
            let key = |&f: &Square| rightness::<V>(c, f);
            let best = match p {
                Place::Right => left.iter().map(key).max(),
                _ => left.iter().map(key).min(),
            };
            left.retain(|f| Some(key(f)) == best);
        }
    }
    left
}

/// The from-squares of the legal moves of pieces of `kind` to `to`, each once.
pub(super) fn froms_to<V: Variant>(pos: &Position<V>, kind: Kind, to: Square) -> Vec<Square> {
    let mut out: Vec<Square> = Vec::new();
    for m in pos.legal_moves() {
        if !m.is_drop()
            && m.to() == to
            && pos.piece_at(m.from()).kind() == kind
            && !out.contains(&m.from())
        {
            out.push(m.from());
        }
    }
    out
}

/// 成, 不成 or nothing: whether the move promotes, where it could have.
fn promotion_text<V: Variant>(pos: &Position<V>, m: Move) -> &'static str {
    if m.is_drop() {
        return "";
    }
    if m.is_promotion() {
        return "成";
    }
    let other = Move::normal(m.from(), m.to(), true);
    if pos.legal_moves().contains(&other) {
        "不成"
    } else {
        ""
    }
}

/// The destination: `７六`, or `同　` (`同` before a name of two characters) when it is where the last move went.
fn destination<V: Variant>(to: Square, last_to: Option<Square>, name: &str) -> String {
    if last_to == Some(to) {
        if name.chars().count() > 1 {
            "同".to_string()
        } else {
            "同　".to_string()
        }
    } else {
        square_text::<V>(to)
    }
}

/// The kind a legal move moves (the dropped kind for a drop), before any promotion.
fn moving_kind<V: Variant>(pos: &Position<V>, m: Move) -> Kind {
    if m.is_drop() {
        m.dropped()
    } else {
        pos.piece_at(m.from()).kind()
    }
}

/// A legal move as KIF writes it: `７六歩(77)`, `同　銀(22)`, `２二角成(88)`, `５五角打`. `last_to` is where the
/// previous move went (for 同).
pub fn kif_move_name<V: Variant>(pos: &Position<V>, m: Move, last_to: Option<Square>) -> String {
    let name = piece_name(moving_kind(pos, m));
    let mut s = destination::<V>(m.to(), last_to, name);
    s.push_str(name);
    if m.is_drop() {
        s.push('打');
    } else {
        s.push_str(promotion_text(pos, m));
        s.push_str(&format!("({})", square_digits::<V>(m.from())));
    }
    s
}

/// A legal move as KI2 writes it, without the side's mark: `７六歩`, `同　銀`, `５八金右`, `５五角打`; None only
/// where the convention cannot tell the move from another (no position of the three games is known to need it).
pub fn ki2_move_name<V: Variant>(
    pos: &Position<V>,
    m: Move,
    last_to: Option<Square>,
) -> Option<String> {
    let kind = moving_kind(pos, m);
    let name = piece_name(kind);
    let mut s = destination::<V>(m.to(), last_to, name);
    s.push_str(name);
    let froms = froms_to(pos, kind, m.to());
    if m.is_drop() {
        if !froms.is_empty() {
            s.push('打');
        }
        return Some(s);
    }
    if froms.len() > 1 {
        s.push_str(&disambiguation::<V>(pos.side_to_move(), kind, m, &froms)?);
    }
    s.push_str(promotion_text(pos, m));
    Some(s)
}

/// The shortest words the convention allows that single out `m.from()` among `froms`.
fn disambiguation<V: Variant>(c: Color, kind: Kind, m: Move, froms: &[Square]) -> Option<String> {
    let (from, to) = (m.from(), m.to());
    let motion = motion_of::<V>(c, from, to);
    let straight = matches!(kind, Kind::ProBishop | Kind::ProRook)
        || from.file_index(V::RANKS) != to.file_index(V::RANKS)
        || motion != Motion::Up;
    let places: &[Place] = if straight {
        &[Place::Right, Place::Left]
    } else {
        &[Place::Straight, Place::Right, Place::Left]
    };
    let tells =
        |p: Option<Place>, mo: Option<Motion>| filter_from::<V>(c, to, froms, p, mo) == [from];
    if tells(None, Some(motion)) {
        return Some(motion.text().to_string());
    }
    for &p in places {
        if tells(Some(p), None) {
            return Some(p.text().to_string());
        }
    }
    for &p in places {
        if tells(Some(p), Some(motion)) {
            return Some(format!("{}{}", p.text(), motion.text()));
        }
    }
    None
}

/// The KI2 names of `moves` played from `pos` (left as it was found), with the side's mark (`▲７六歩`);
/// `last_to` is where the move before them went. A move that is not legal ends the list.
pub fn ki2_names<V: Variant>(
    pos: &mut Position<V>,
    moves: &[Move],
    mut last_to: Option<Square>,
) -> Vec<String> {
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        if !pos.legal_moves().contains(&m) {
            break;
        }
        let name = ki2_move_name(pos, m, last_to).unwrap_or_else(|| kif_move_name(pos, m, last_to));
        out.push(format!("{}{name}", side_mark(pos.side_to_move())));
        last_to = Some(m.to());
        pos.do_move(m);
    }
    for _ in 0..out.len() {
        pos.undo_move();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::Shogi;

    fn names(sfen: &str, usi: &[&str]) -> Vec<String> {
        let mut pos = Position::<Shogi>::from_sfen(sfen)
            .or_else(|_| Position::<Shogi>::from_tsume_sfen(sfen))
            .unwrap();
        let moves: Vec<Move> = usi
            .iter()
            .map(|u| {
                let m = pos.parse_move(u).unwrap();
                pos.do_move(m);
                m
            })
            .collect();
        for _ in &moves {
            pos.undo_move();
        }
        ki2_names(&mut pos, &moves, None)
    }

    #[test]
    fn plain_moves_same_square_promotion_and_drops() {
        let start = Shogi::START_SFEN;
        assert_eq!(
            names(
                start,
                &["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "8b3b", "4e3d"]
            ),
            [
                "▲７六歩",
                "△３四歩",
                "▲２二角成",
                "△同　銀",
                "▲４五角",
                "△３二飛",
                "▲３四角"
            ]
        );
        // a bishop that could promote and does not
        assert_eq!(
            names(start, &["7g7f", "3c3d", "8h2b"]),
            ["▲７六歩", "△３四歩", "▲２二角不成"]
        );
        // a drop where a piece on the board could also go is marked 打
        assert_eq!(
            names("4k4/9/9/9/9/9/9/4G4/4K4 b G 1", &["G*5g", "5a5b", "5h4h"])[0],
            "▲５七金打"
        );
    }

    #[test]
    fn the_conventions_words_single_out_the_piece() {
        // golds on 6i, 5i, 4i to 5h: 左, 直, 右
        let three = "4k4/9/9/9/9/9/9/9/3GGG3 b - 1";
        assert_eq!(names(three, &["6i5h"]), ["▲５八金左"]);
        assert_eq!(names(three, &["5i5h"]), ["▲５八金直"]);
        assert_eq!(names(three, &["4i5h"]), ["▲５八金右"]);
        // gold on 6h beside, gold on 4i below: 寄 and 上
        let two = "4k4/9/9/9/9/9/9/3G5/5G3 b - 1";
        assert_eq!(names(two, &["6h5h"]), ["▲５八金寄"]);
        assert_eq!(names(two, &["4i5h"]), ["▲５八金上"]);
        // silvers on 4i, 6i and 6g to 5h: 右, 左上, 引
        let silvers = "4k4/9/9/9/9/9/3S5/9/3S1S3 b - 1";
        assert_eq!(names(silvers, &["4i5h"]), ["▲５八銀右"]);
        assert_eq!(names(silvers, &["6i5h"]), ["▲５八銀左上"]);
        assert_eq!(names(silvers, &["6g5h"]), ["▲５八銀引"]);
        // gote's right is sente's left: gote's golds on 6a and 4a to 5b
        let gote = "3g1g3/9/9/9/4k4/9/9/9/4K4 w - 1";
        assert_eq!(names(gote, &["6a5b"]), ["△５二金右"]);
        // two dragons moving the same way: 左 and 右, never 直
        let dragons = "4k4/9/9/9/9/9/9/+R7+R/4K4 b - 1";
        assert_eq!(names(dragons, &["9h5h"]), ["▲５八龍左"]);
        assert_eq!(names(dragons, &["1h5h"]), ["▲５八龍右"]);
    }
}
