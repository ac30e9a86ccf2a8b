//! A finished 9×9 game as a CSA (V2.2) file, written with the rules' CSA notation (`rules::position::csa`).

use super::RecordLine;
use crate::host::judge::Reason;
use crate::{GameKind, Position, Variant};

/// The game as a CSA (V2.2) record; only for 9×9 shogi (None for the other games or an unreadable record).
/// `times_ms` holds each move's time (None for the opening's moves, which get no `T` line); CSA counts whole
/// seconds, rounded down.
pub fn csa_text<V: Variant>(
    rec: &RecordLine,
    names: [&str; 2],
    times_ms: &[Option<u64>],
) -> Option<String> {
    if V::FILES != 9 || V::RANKS != 9 || V::KIND != GameKind::Shogi {
        return None;
    }
    let mut pos = Position::<V>::from_sfen(&rec.start_sfen).ok()?;
    let mut out = String::new();
    out.push_str("V2.2\n");
    out.push_str(&format!("N+{}\nN-{}\n", names[0], names[1]));
    out.push_str("$EVENT:hayate match\n");
    out.push_str(&pos.to_csa_lines());
    for (i, m) in rec.moves.iter().enumerate() {
        let mv = pos.parse_move(m).ok()?;
        out.push_str(&pos.to_csa_move(mv));
        out.push('\n');
        if let Some(Some(ms)) = times_ms.get(i) {
            out.push_str(&format!("T{}\n", ms / 1000));
        }
        pos.do_move(mv);
    }
    let end = match rec.reason {
        // an adjudicated loss is always the side to move's, as a resignation is
        Reason::Resign | Reason::Adjudication => "%TORYO",
        Reason::Checkmate | Reason::NoMoves => "%TSUMI",
        Reason::Illegal | Reason::FalseDeclaration => "%ILLEGAL_MOVE",
        Reason::Time => "%TIME_UP",
        Reason::Hang | Reason::Crash => "%CHUDAN",
        Reason::Repetition => "%SENNICHITE",
        Reason::Perpetual => "%OUTE_SENNICHITE",
        Reason::Declaration => "%KACHI",
        Reason::MaxPlies => "%JISHOGI",
        Reason::DrawAdjudication => "%HIKIWAKE",
    };
    out.push_str(end);
    out.push('\n');
    out.push_str(&format!(
        "'result {} {}\n",
        rec.outcome.as_str(),
        rec.reason.as_str()
    ));
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Minishogi, Shogi};

    #[test]
    fn csa() {
        let r = RecordLine::parse(&format!(
            "0-1 resign sfen {} moves 7g7f 3c3d 8h2b+ 3a2b B*4e",
            Shogi::START_SFEN
        ))
        .unwrap();
        // the first two moves come from the opening: no times
        let times = [None, None, Some(999), Some(1000), Some(62_500)];
        let text = csa_text::<Shogi>(&r, ["A", "B"], &times).unwrap();
        assert_eq!(
            text,
            "V2.2\nN+A\nN-B\n$EVENT:hayate match\nPI\n+\n+7776FU\n-3334FU\n+8822UM\nT0\n-3122GI\nT1\n+0045KA\n\
             T62\n%TORYO\n'result 0-1 resign\n"
        );
        let ending = |line: &str| {
            let r = RecordLine::parse(&format!("{line} sfen {} moves 7g7f", Shogi::START_SFEN))
                .unwrap();
            let text = csa_text::<Shogi>(&r, ["A", "B"], &[Some(10)]).unwrap();
            text.lines().rev().nth(1).unwrap().to_string()
        };
        assert_eq!(ending("1-0 adjudication"), "%TORYO");
        assert_eq!(ending("1/2-1/2 draw-adjudication"), "%HIKIWAKE");
        assert_eq!(ending("1/2-1/2 maxplies"), "%JISHOGI");
        assert_eq!(ending("1-0 time"), "%TIME_UP");
        assert_eq!(ending("1-0 hang"), "%CHUDAN");
        assert_eq!(ending("1-0 crash"), "%CHUDAN");
        assert_eq!(ending("1-0 illegal"), "%ILLEGAL_MOVE");
        let r = RecordLine::parse("1-0 checkmate sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1 moves G*5b")
            .unwrap();
        let text = csa_text::<Shogi>(&r, ["A", "B"], &[]).unwrap();
        assert!(text.contains("P1 *  *  *  * -OU *  *  *  * \n"), "{text}");
        assert!(text.contains("P+00KI\n+\n+0052KI\n%TSUMI\n"), "{text}");
        let m =
            RecordLine::parse(&format!("0-1 resign sfen {} moves", Minishogi::START_SFEN)).unwrap();
        assert!(csa_text::<Minishogi>(&m, ["A", "B"], &[]).is_none());
    }
}
