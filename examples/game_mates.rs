//! Collects game-mate positions from self-play records for tests/search/game_mates.rs: replays every game that
//! ended in checkmate with the rules core, takes the positions 1, 3, 5, 7 and 9 plies before the mate (the
//! winner to move), proves each one's exact shortest mate with the brute force of the tests
//! (tests/search/brute_mate.rs: any attacker move, quiet ones included), drops those it cannot prove within the
//! time given, and keeps up to `per` positions per game and length, the quickest to prove, taken in turn from those
//! whose every shortest mate starts with a quiet (non-checking) move and the others. Prints `<game> ; <sfen> ; <plies>` lines (with
//! ` ; quiet` where every shortest mate starts with a quiet move, ` ; quiet or check` where some does), and a summary on stderr.
//!
//! cargo run --release --features dev-tools --example game_mates -- \
//!     minishogi /work/soak/mini/games.txt 5 1000 > part.txt
//! (game, record: one game a line, `<result> <reason> sfen <sfen> moves <m1> ...`; positions per length;
//! the proof's time limit in ms; optionally the longest length, 9 by default, and the number of games to read)

// developer tools built on request (`--features dev-tools`), not the engine
#![allow(clippy::unwrap_used)]

#[path = "../tests/search/brute_mate.rs"]
mod brute_mate;

use std::time::{Duration, Instant};

use brute_mate::BruteMate;
use hayate::rules::position::notation::move_to_usi;
use hayate::{Minishogi, Position, Shogi, Variant, Yari};

struct Found {
    sfen: String,
    plies: u32,
    /// Every shortest mate starts with a quiet move.
    quiet_only: bool,
    /// Some shortest mate starts with a quiet move.
    quiet_some: bool,
    ms: u128,
    first: String,
}

fn collect<V: Variant>(
    game: &str,
    path: &str,
    per: usize,
    limit_ms: u64,
    longest: u32,
    games: usize,
) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let lengths: Vec<u32> = (1..=longest).step_by(2).collect();
    let mut found: Vec<Vec<Found>> = lengths.iter().map(|_| Vec::new()).collect();
    let mut seen = std::collections::HashSet::new();
    let (mut tried, mut slow, mut longer) = (0, 0, 0);
    for line in text.lines().take(games) {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.get(1) != Some(&"checkmate") || f.get(2) != Some(&"sfen") {
            continue;
        }
        let start = f[3..7].join(" ");
        let moves = &f[8..];
        let mut end = Position::<V>::from_sfen(&start).unwrap_or_else(|e| panic!("{start}: {e}"));
        end.play_usi_moves(moves.iter().copied())
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        assert!(!end.has_legal_move(), "{game}: not a mate: {line}");
        for k in lengths.iter().copied() {
            if k as usize > moves.len() {
                break;
            }
            // worth proving only if a bucket the position may fall into (its length is at most k when the
            // game's line was forced) still wants positions
            if found
                .iter()
                .zip(&lengths)
                .all(|(v, &l)| l > k || v.len() >= 4 * per)
            {
                continue;
            }
            let mut p = Position::<V>::from_sfen(&start).unwrap();
            p.play_usi_moves(moves[..moves.len() - k as usize].iter().copied())
                .unwrap();
            let sfen = p.to_sfen();
            if !seen.insert(sfen.clone()) {
                continue;
            }
            let p = Position::<V>::from_sfen(&sfen).unwrap();
            tried += 1;
            let t = Instant::now();
            let mut b = BruteMate::with_deadline(t + Duration::from_millis(limit_ms));
            let Some(n) = b.shortest(&p, longest) else {
                if b.aborted {
                    slow += 1;
                } else {
                    longer += 1;
                }
                continue;
            };
            // the first moves of a shortest mate
            let mut checks = Vec::new();
            let mut quiets = Vec::new();
            for &m in p.legal_moves().iter() {
                if b.starts_win(&p, m, n) {
                    if p.gives_check(m) {
                        checks.push(m);
                    } else {
                        quiets.push(m);
                    }
                }
            }
            if b.aborted {
                slow += 1;
                continue;
            }
            let ms = t.elapsed().as_millis();
            let first = checks
                .iter()
                .chain(&quiets)
                .map(|&m| move_to_usi::<V>(m))
                .collect::<Vec<_>>()
                .join(",");
            let i = lengths.iter().position(|&l| l == n).unwrap();
            found[i].push(Found {
                sfen,
                plies: n,
                quiet_only: checks.is_empty(),
                quiet_some: !quiets.is_empty(),
                ms,
                first,
            });
        }
    }
    eprintln!("{game}: {tried} proved or tried, {slow} over {limit_ms} ms, {longer} longer than {longest}");
    for (v, l) in found.iter_mut().zip(&lengths) {
        let total = v.len();
        let q = v.iter().filter(|x| x.quiet_only).count();
        let qs = v.iter().filter(|x| x.quiet_some).count();
        // the quickest to prove, taken in turn from those whose every shortest mate starts quietly and the others
        v.sort_by_key(|x| x.ms);
        let (mut quiet, mut rest): (Vec<Found>, Vec<Found>) =
            std::mem::take(v).into_iter().partition(|x| x.quiet_only);
        quiet.reverse();
        rest.reverse();
        while v.len() < per && !(quiet.is_empty() && rest.is_empty()) {
            let take_quiet = rest.is_empty() || (!quiet.is_empty() && v.len() % 2 == 1);
            v.extend(if take_quiet { quiet.pop() } else { rest.pop() });
        }
        eprintln!(
            "{game} {l} plies: {total} found ({q} quiet-only, {qs} quiet-some), kept {}",
            v.len()
        );
        for x in v.iter() {
            println!(
                "{game} ; {} ; {}{}",
                x.sfen,
                x.plies,
                if x.quiet_only {
                    " ; quiet"
                } else if x.quiet_some {
                    " ; quiet or check"
                } else {
                    ""
                }
            );
            eprintln!(
                "  {} ms, first {} {}",
                x.ms,
                x.first,
                if x.quiet_some && !x.quiet_only {
                    "(some quiet)"
                } else {
                    ""
                }
            );
        }
    }
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    if a.len() < 4 {
        eprintln!("usage: game_mates <game> <games.txt> <per length> <ms> [longest] [games]");
        std::process::exit(2);
    }
    let per: usize = a[2].parse().expect("per length");
    let ms: u64 = a[3].parse().expect("ms");
    let longest: u32 = a.get(4).map_or(9, |s| s.parse().expect("longest"));
    let games: usize = a.get(5).map_or(usize::MAX, |s| s.parse().expect("games"));
    match a[0].as_str() {
        "shogi" => collect::<Shogi>(&a[0], &a[1], per, ms, longest, games),
        "minishogi" => collect::<Minishogi>(&a[0], &a[1], per, ms, longest, games),
        "yarishogi" => collect::<Yari>(&a[0], &a[1], per, ms, longest, games),
        g => panic!("unknown game {g}"),
    }
}
