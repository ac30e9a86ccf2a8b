//! Self-play through `position startpos moves ...`, every move checked with the library.

use std::collections::HashMap;
use std::time::Instant;

use hayate::{Minishogi, Position, Shogi, Variant, Yari};

use crate::legality::{check_in, Verdict};
use crate::process::Engine;
use crate::{ms, shared, SEARCH};

fn self_play<V: Variant>(variant: &str) {
    let _cpu = shared();
    let mut e = Engine::new();
    e.accept(&format!("setoption name USI_Variant value {variant}"));
    e.accept("usinewgame");
    let started = Instant::now();
    let mut pos = Position::<V>::startpos();
    let mut moves: Vec<String> = Vec::new();
    let mut seen: HashMap<u64, u32> = HashMap::from([(pos.key(), 1)]);
    let position_cmd = |moves: &[String]| {
        if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        }
    };
    let outcome = loop {
        if moves.len() >= 80 {
            break "80 plies".to_string();
        }
        e.send(&position_cmd(&moves));
        // sente searches to a depth, gote to a node count
        let go = if moves.len().is_multiple_of(2) {
            "go depth 3"
        } else {
            "go nodes 3000"
        };
        e.send(go);
        let (l, _) = e.bestmove(SEARCH);
        match check_in(&pos, &l.text) {
            Err(msg) => e.fail(&format!(
                "{variant} ply {}: {msg} in {}",
                moves.len() + 1,
                pos.to_sfen()
            )),
            Ok(Verdict::Resign) => break "no legal move: bestmove resign".to_string(),
            Ok(Verdict::Win) => break "entering-king declaration".to_string(),
            Ok(Verdict::Move) => {}
        }
        let mv = l.text.split(' ').nth(1).unwrap_or_default().to_string();
        let m = pos.parse_move(&mv).expect("checked above");
        pos.do_move(m);
        moves.push(mv);
        let n = seen.entry(pos.key()).or_insert(0);
        *n += 1;
        if *n >= 4 {
            break "fourth repetition".to_string();
        }
    };
    // the engine and the library agree on the final position
    e.send(&position_cmd(&moves));
    let sfen = e.sfen();
    assert_eq!(sfen, pos.to_sfen(), "{variant}: final position");
    eprintln!(
        "{variant}: {} plies, {outcome}, {:.0} ms: {}",
        moves.len(),
        ms(started.elapsed()),
        moves.join(" ")
    );
}

#[test]
fn self_play_shogi() {
    self_play::<Shogi>("shogi");
}

#[test]
fn self_play_minishogi() {
    self_play::<Minishogi>("minishogi");
}

#[test]
fn self_play_yarishogi() {
    self_play::<Yari>("yarishogi");
}
