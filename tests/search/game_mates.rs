//! Game mates on the clock (issue 50): every position of tests/data/mates/game_mates.txt (taken from Hayate's
//! self-play games, 1 to 9 plies before their checkmate, by examples/game_mates.rs) and every game-mate position
//! of mates.rs, searched at `go movetime 3000`, must be reported with the exact distance, and the best move must
//! start a shortest mate. Each length is proven here again by the brute force of brute_mate.rs (any attacker
//! move, quiet ones included; every shorter length refuted).

use std::sync::atomic::{AtomicUsize, Ordering};

use super::brute_mate::BruteMate;
use super::mates::{MINISHOGI_MATES, SHOGI_MATES, YARI_MATES};
use super::*;

const DATA: &str = include_str!("../data/mates/game_mates.txt");

/// The game-mate positions of mates.rs that are not in its problem lists (the quiet mates, the wins by leaving no
/// legal move, the quiet drop shorter than the tsume solver's mate).
const OTHERS: [(&str, &str, u32); 7] = [
    ("yarishogi", "k1+P4/1n5/7/7/7/7/7/7/4K2 b RP 1", 5),
    ("shogi", "4pkn2/2R6/9/9/9/9/9/9/2K6 b P 1", 5),
    ("shogi", "2k6/9/S8/3+B5/9/9/9/9/4K4 b B 1", 3),
    ("shogi", "1kB1R4/9/9/R8/9/9/9/9/4K4 b - 1", 1),
    ("minishogi", "5/k4/5/1S3/2R1K b - 1", 1),
    ("yarishogi", "k6/7/+P6/7/7/7/7/7/K6 b P 1", 1),
    ("minishogi", "r3k/2Rsp/2B2/PGB2/1K3 b G 1", 3),
];

struct Case {
    game: String,
    sfen: String,
    plies: u32,
    /// The data file's tag: `quiet` (every shortest mate starts with a quiet move), `quiet or check` (some does).
    tag: String,
    /// Where it comes from: the data file's line, or mates.rs.
    origin: String,
}

fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    for (i, l) in DATA.lines().enumerate() {
        let l = l.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = l.split(';').map(str::trim).collect();
        assert!(f.len() >= 3, "game_mates.txt:{}: {l}", i + 1);
        v.push(Case {
            game: f[0].to_string(),
            sfen: f[1].to_string(),
            plies: f[2]
                .parse()
                .unwrap_or_else(|e| panic!("game_mates.txt:{}: {e}", i + 1)),
            tag: f.get(3).unwrap_or(&"").to_string(),
            origin: format!("game_mates.txt:{}", i + 1),
        });
    }
    let lists: [(&str, &[mates::Problem]); 3] = [
        ("shogi", &SHOGI_MATES),
        ("minishogi", &MINISHOGI_MATES),
        ("yarishogi", &YARI_MATES),
    ];
    for (game, list) in lists {
        for pr in list {
            v.push(Case {
                game: game.to_string(),
                sfen: pr.sfen.to_string(),
                plies: pr.plies,
                tag: String::new(),
                origin: "mates.rs".to_string(),
            });
        }
    }
    for (game, sfen, plies) in OTHERS {
        v.push(Case {
            game: game.to_string(),
            sfen: sfen.to_string(),
            plies,
            tag: String::new(),
            origin: "mates.rs".to_string(),
        });
    }
    v
}

/// Proves the length, searches at movetime 3000 and checks the answer; `Err` describes what went wrong.
fn check<V: GameEval>(c: &Case) -> Result<String, String> {
    let p = pos::<V>(&c.sfen);
    let what = format!("{} {} {} ({} plies)", c.origin, c.game, c.sfen, c.plies);
    let t = Instant::now();
    let mut brute = BruteMate::new();
    let n = brute.shortest(&p, c.plies);
    if n != Some(c.plies) {
        return Err(format!(
            "{what}: the brute force finds {n:?}, not {} plies",
            c.plies
        ));
    }
    // and by the older solver of main.rs (no memoised bounds, the same rules API), independently written
    let mut q = p.clone();
    let m = Solver::default().mate_length(&mut q, c.plies);
    if m != Some(c.plies) {
        return Err(format!(
            "{what}: main.rs's solver finds {m:?}, not {} plies",
            c.plies
        ));
    }
    // the first moves of the shortest mates: checks, quiet moves; the tag says which there are
    let (mut checks, mut quiets) = (0, 0);
    for &m in p.legal_moves().iter() {
        if brute.starts_win(&p, m, c.plies) {
            if p.gives_check(m) {
                checks += 1;
            } else {
                quiets += 1;
            }
        }
    }
    let tag = match (checks, quiets) {
        (0, _) => "quiet",
        (_, 0) => "",
        _ => "quiet or check",
    };
    if c.origin != "mates.rs" && tag != c.tag {
        return Err(format!(
            "{what}: tagged '{}', but {checks} checks and {quiets} quiet moves start a shortest mate",
            c.tag
        ));
    }
    let proof = t.elapsed();
    let what = format!(
        "{what} [{} legal moves{}; {checks} checking, {quiets} quiet first moves of a shortest mate]",
        p.legal_moves().len(),
        if p.in_check() { ", in check" } else { "" }
    );
    let s = Searcher::new(1, HASH_MB);
    let limits = Limits {
        movetime: Some(3000),
        multipv: 1,
        ..Limits::default()
    };
    let t = Instant::now();
    let r = search(&s, &p, &limits, &|_| {});
    let took = t.elapsed();
    let best = r.best.map(usi::<V>).unwrap_or_else(|| "none".into());
    let found = format!(
        "score {} (mate {:?}) depth {} best {best} pv {} in {} ms",
        r.score,
        mate_in_moves(r.score),
        r.depth,
        line::<V>(&r.pv),
        took.as_millis()
    );
    if r.score != MATE - c.plies as i32 {
        return Err(format!(
            "{what}: expected score {} (mate in {} plies), got {found}",
            MATE - c.plies as i32,
            c.plies
        ));
    }
    match r.best {
        Some(m) if p.is_legal(m) && brute.starts_win(&p, m, c.plies) => {
            Ok(format!("{what}: proof {} ms, {found}", proof.as_millis()))
        }
        _ => Err(format!(
            "{what}: the best move does not start a mate in {} plies: {found}",
            c.plies
        )),
    }
}

/// Every position of the data file and of mates.rs at `go movetime 3000`: the exact distance, and a first move of
/// a shortest mate. The positions run one at a time (one search thread), so that each has the machine's core to
/// itself as a user's move would; every failure is listed.
#[test]
fn game_mates_at_movetime_3000_report_the_exact_distance() {
    let cases = cases();
    let data = cases.iter().filter(|c| c.origin != "mates.rs").count();
    assert!(data >= 60, "{data} positions in game_mates.txt");
    for game in ["shogi", "minishogi", "yarishogi"] {
        assert!(
            cases
                .iter()
                .any(|c| c.game == game && c.origin != "mates.rs"),
            "no {game} position"
        );
    }
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Result<String, String>)>> = Mutex::new(Vec::new());
    let start = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..1 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(c) = cases.get(i) else { break };
                let r = match c.game.as_str() {
                    "shogi" => check::<Shogi>(c),
                    "minishogi" => check::<Minishogi>(c),
                    "yarishogi" => check::<Yari>(c),
                    g => Err(format!("{}: unknown game {g}", c.origin)),
                };
                if let Ok(mut v) = results.lock() {
                    v.push((i, r));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_default();
    results.sort_by_key(|r| r.0);
    assert_eq!(results.len(), cases.len());
    let mut failures = Vec::new();
    for (_, r) in &results {
        match r {
            Ok(s) => eprintln!("ok   {s}"),
            Err(s) => {
                eprintln!("FAIL {s}");
                failures.push(s.clone());
            }
        }
    }
    eprintln!(
        "{} positions in {:.1} s, {} failed",
        cases.len(),
        start.elapsed().as_secs_f64(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} positions failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
