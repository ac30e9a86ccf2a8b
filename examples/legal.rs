//! Reads `<variant> <SFEN>` lines on stdin and prints each position's legal moves in USI notation, sorted, on
//! one line: a tool for comparing the generator with another engine's move lists
//! (`cargo run --release --features dev-tools --example legal`).

// developer tools built on request (`--features dev-tools`), not the engine
#![allow(clippy::unwrap_used)]

use std::io::{BufRead, Write};

use hayate::rules::position::notation::move_to_usi;
use hayate::{Minishogi, Position, Shogi, Variant, Yari};

fn moves<V: Variant>(sfen: &str) -> String {
    match Position::<V>::from_sfen(sfen) {
        Ok(p) => {
            let mut v: Vec<String> = p
                .legal_moves()
                .iter()
                .map(|&m| move_to_usi::<V>(m))
                .collect();
            v.sort();
            v.join(" ")
        }
        Err(e) => format!("error: {e}"),
    }
}

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines().map_while(Result::ok) {
        let (variant, sfen) = line.split_once(' ').unwrap_or((line.as_str(), ""));
        let res = match variant {
            "shogi" => moves::<Shogi>(sfen),
            "minishogi" => moves::<Minishogi>(sfen),
            "yarishogi" => moves::<Yari>(sfen),
            _ => format!("error: unknown variant {variant}"),
        };
        let _ = writeln!(out, "{res}");
        let _ = out.flush();
    }
}
