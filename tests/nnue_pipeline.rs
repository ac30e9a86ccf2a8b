//! The learned evaluation end to end, small enough for CI: self-play a few minishogi games, train a tiny net for
//! two epochs, load it, and let the search play legal moves with it; plus the USI options that load nets.

// a test fails by panicking: unwrap is how it states what must succeed (the library keeps to [lints])
#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use hayate::engine::nnue::{self, features};
use hayate::engine::search::{Limits, Searcher, TimeOptions};
use hayate::learn::dataset::{self, record_inputs};
use hayate::learn::record::{self, read_file};
use hayate::learn::selfplay::{self, SelfplayConfig};
use hayate::learn::train::{self, TrainConfig};
use hayate::rules::piece::Color;
use hayate::{GameKind, Minishogi, Position};

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hayate-nnue-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn selfplay_config(output: PathBuf, positions: u64) -> SelfplayConfig {
    SelfplayConfig {
        output,
        nodes: 300,
        positions,
        threads: 2,
        seed: 11,
        random_plies: 6,
        random_move_rate: 0.2,
        multipv: 3,
        random_move_margin: 100,
        max_plies: 200,
        resign: hayate::host::adjudication::ResignRule {
            score: 2500,
            count: 3,
        },
        hash_mb: 1,
        net: None,
        shard: hayate::host::Shard::WHOLE,
    }
}

/// Two shards play exactly the games the whole run plays, game by game.
#[test]
fn selfplay_shards_play_the_whole_runs_games() {
    use std::collections::{BTreeMap, HashSet};
    let dir = temp_dir("shards");
    let games = |path: &PathBuf| {
        let mut g: BTreeMap<u32, Vec<String>> = BTreeMap::new();
        for r in read_file::<Minishogi>(path).unwrap() {
            g.entry(r.game).or_default().push(r.to_sfen::<Minishogi>());
        }
        g
    };
    let whole = dir.join("whole.bin");
    let cfg = |output: PathBuf, shard| SelfplayConfig {
        threads: 1,
        shard,
        ..selfplay_config(output, 250)
    };
    selfplay::run::<Minishogi>(
        &cfg(whole.clone(), hayate::host::Shard::WHOLE),
        &|| false,
        &|_| {},
    )
    .unwrap();
    let whole = games(&whole);
    let everything: HashSet<&String> = whole.values().flatten().collect();
    let mut compared = 0;
    for k in 0..2 {
        let path = dir.join(format!("shard-{k}.bin"));
        let shard = hayate::host::Shard::new(k, 2).unwrap();
        selfplay::run::<Minishogi>(&cfg(path.clone(), shard), &|| false, &|_| {}).unwrap();
        // and resumed: the shard goes on with its own next games
        selfplay::run::<Minishogi>(&cfg(path.clone(), shard), &|| false, &|_| {}).unwrap();
        let part = games(&path);
        assert!(part.keys().all(|g| g % 2 == k), "{:?}", part.keys());
        assert!(part.len() >= 4);
        for (g, positions) in &part {
            let Some(w) = whole.get(g) else { continue };
            // the whole file leaves out positions an earlier game of it already holds
            let mine: HashSet<&String> = positions.iter().collect();
            assert!(w.iter().all(|p| mine.contains(p)), "game {g}");
            assert!(
                positions
                    .iter()
                    .all(|p| w.contains(p) || everything.contains(p)),
                "game {g}"
            );
            compared += 1;
        }
    }
    assert!(compared >= 4, "{compared}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `hayate selfplay` plays with the game's embedded net unless told otherwise: its file is the one the library
/// writes with that net, and `--no-nnue` gives the classical evaluation's games instead (two sessions' data was
/// once played classically by a default nobody meant).
#[test]
fn selfplay_command_plays_with_the_embedded_net_by_default() {
    let dir = temp_dir("default-net");
    let cfg = |output: PathBuf, net| SelfplayConfig {
        threads: 1,
        net,
        ..selfplay_config(output, 60)
    };
    let run_command = |output: &PathBuf, extra: &[&str]| {
        let args = "selfplay --variant minishogi --nodes 300 --positions 60 --threads 1 --seed 11 \
                    --random-plies 6 --random-move-rate 0.2 --multipv 3 --max-plies 200 --adjudicate-count 3 \
                    --hash 1";
        let mut args: Vec<std::ffi::OsString> = args.split_whitespace().map(Into::into).collect();
        args.extend(["--output".into(), output.into()]);
        args.extend(extra.iter().map(Into::into));
        let out = hayate_ok(&args);
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let bytes = |p: &PathBuf| std::fs::read(p).unwrap();

    let embedded = dir.join("embedded.bin");
    let said = run_command(&embedded, &[]);
    assert!(said.contains("evaluated by the embedded net"), "{said}");
    let library = dir.join("library-embedded.bin");
    let net = hayate::engine::nnue::embedded(hayate::GameKind::Minishogi);
    assert!(net.is_some());
    selfplay::run::<Minishogi>(&cfg(library.clone(), net), &|| false, &|_| {}).unwrap();
    assert_eq!(bytes(&embedded), bytes(&library));

    let classical = dir.join("classical.bin");
    let said = run_command(&classical, &["--no-nnue"]);
    assert!(
        said.contains("evaluated by the classical evaluation"),
        "{said}"
    );
    let library = dir.join("library-classical.bin");
    selfplay::run::<Minishogi>(&cfg(library.clone(), None), &|| false, &|_| {}).unwrap();
    assert_eq!(bytes(&classical), bytes(&library));
    assert_ne!(bytes(&classical), bytes(&embedded));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file of the first layout (a byte per square) is read and appended to in that layout; appending positions a
/// file already holds writes nothing; a record cut short by a killed run is dropped on the next append.
#[test]
fn data_files_of_both_layouts_append_without_duplicates() {
    use record::Format;
    let dir = temp_dir("layouts");
    let v2 = dir.join("v2.bin");
    selfplay::run::<Minishogi>(&selfplay_config(v2.clone(), 200), &|| false, &|_| {}).unwrap();
    let records = read_file::<Minishogi>(&v2).unwrap();
    let packing = hayate::learn::packed::Packing::of::<Minishogi>();

    let v1 = dir.join("v1.bin");
    let mut bytes = record::header::<Minishogi>(Format::Plain).to_vec();
    for r in &records[..100] {
        r.write::<Minishogi>(Format::Plain, &packing, &mut bytes)
            .unwrap();
    }
    bytes.extend_from_slice(&[1, 2, 3]); // a torn record
    std::fs::write(&v1, &bytes).unwrap();
    let mut out = record::open_append::<Minishogi>(&v1).unwrap();
    assert_eq!(out.format(), Format::Plain);
    assert_eq!(
        out.append::<Minishogi>(&records[50..]).unwrap(),
        records.len() - 100
    );
    assert_eq!(out.duplicates, 50);
    drop(out);
    assert_eq!(read_file::<Minishogi>(&v1).unwrap(), records);
    assert_eq!(
        std::fs::metadata(&v1).unwrap().len() as usize,
        record::HEADER_SIZE + 45 * records.len()
    );

    let mut out = record::open_append::<Minishogi>(&v2).unwrap();
    assert_eq!(out.format(), Format::Packed);
    assert_eq!(out.append::<Minishogi>(&records).unwrap(), 0);
    drop(out);
    assert_eq!(read_file::<Minishogi>(&v2).unwrap(), records);

    // `hayate data pack` joins the two files into a new packed one, each position once; `data info` counts
    let joined = dir.join("joined.bin");
    let hayate = |args: &[&std::ffi::OsStr]| String::from_utf8(hayate_ok(args).stdout).unwrap();
    let said = hayate(&[
        "data".as_ref(),
        "pack".as_ref(),
        "--variant".as_ref(),
        "minishogi".as_ref(),
        "--output".as_ref(),
        joined.as_os_str(),
        v1.as_os_str(),
        v2.as_os_str(),
    ]);
    let n = records.len();
    assert_eq!(
        said.trim(),
        format!(
            "data: {} records read, {n} appended to {} (version 2), {n} positions it already held left out",
            2 * n,
            joined.display()
        )
    );
    assert_eq!(read_file::<Minishogi>(&joined).unwrap(), records);
    let info = hayate(&["data".as_ref(), "info".as_ref(), joined.as_os_str()]);
    assert!(
        info.contains(&format!("minishogi version 2, {n} records of 18 bytes")),
        "{info}"
    );
    assert!(info.contains(&format!("{n} distinct positions")), "{info}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn selfplay_train_load_and_play() {
    let dir = temp_dir("pipeline");
    let data = dir.join("mini.bin");

    // data: a first run, then a second one appending (game indices go on)
    let first = selfplay::run::<Minishogi>(&selfplay_config(data.clone(), 300), &|| false, &|_| {})
        .unwrap();
    assert!(first.positions >= 300 && first.games > 0);
    let games_after_first = read_file::<Minishogi>(&data)
        .unwrap()
        .iter()
        .map(|r| r.game)
        .max()
        .unwrap();
    selfplay::run::<Minishogi>(&selfplay_config(data.clone(), 100), &|| false, &|_| {}).unwrap();
    let records = read_file::<Minishogi>(&data).unwrap();
    assert!(records.len() as u64 >= first.positions + 100);
    assert!(records.iter().map(|r| r.game).max().unwrap() > games_after_first);
    // written packed (version 2, 18 bytes a minishogi record), no position twice
    let bytes = std::fs::read(&data).unwrap();
    assert_eq!((bytes[9], &bytes[12..16]), (2, &18u32.to_le_bytes()[..]));
    assert_eq!(bytes.len(), record::HEADER_SIZE + 18 * records.len());
    let distinct: std::collections::HashSet<String> =
        records.iter().map(|r| r.to_sfen::<Minishogi>()).collect();
    assert_eq!(distinct.len(), records.len());

    // every record is a legal position whose inputs are those of the position it packs
    for r in &records {
        assert!(r.result <= 2);
        let pos = Position::<Minishogi>::from_sfen(&r.to_sfen::<Minishogi>())
            .unwrap_or_else(|e| panic!("{}: {e}", r.to_sfen::<Minishogi>()));
        assert!(
            !pos.in_check(),
            "quiet positions only: {}",
            r.to_sfen::<Minishogi>()
        );
        for c in Color::ALL {
            let mut a: Vec<u32> = features::active(&pos, c, 0).to_vec();
            let mut b = record_inputs::<Minishogi>(r, c);
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b);
        }
    }

    // training: two epochs of a tiny net, validation loss reported, checkpoints and the final net written
    let (tr, val) = dataset::load::<Minishogi>(&[data.as_path()], 5, false).unwrap();
    assert!(!tr.is_empty() && !val.is_empty());
    let net_path = dir.join("mini.nnue");
    let cfg = TrainConfig {
        game: GameKind::Minishogi,
        inputs: nnue::inputs(GameKind::Minishogi),
        king_buckets: 0,
        hidden: 32,
        deep: false,
        epochs: 2,
        batch: 256,
        lr: 0.002,
        lr_drop_at: 0.5,
        lr_drop: 0.3,
        lambda: 0.7,
        scale: 400.0,
        seed: 3,
        output: net_path.clone(),
        checkpoints: Some(dir.join("checkpoints")),
        init: None,
    };
    let losses = std::sync::Mutex::new(Vec::new());
    let params = train::train(&cfg, &tr, &val, &|r| {
        losses.lock().unwrap().push(r.val_loss)
    })
    .unwrap();
    let losses = losses.into_inner().unwrap();
    assert_eq!(losses.len(), 2);
    assert!(
        losses
            .iter()
            .all(|l| l.is_finite() && *l > 0.0 && *l < 0.25),
        "{losses:?}"
    );
    assert!(dir.join("checkpoints/epoch-2.nnue").exists());

    // a net trained on from the one just made: epoch 0 reports where it starts (the loss the last epoch ended
    // on), and at a learning rate of 0 it writes back the same bytes
    let again = dir.join("again.nnue");
    let start = nnue::load(&net_path, GameKind::Minishogi).unwrap();
    let icfg = TrainConfig {
        init: Some(start),
        lr: 0.0,
        epochs: 1,
        output: again.clone(),
        checkpoints: None,
        ..cfg.clone()
    };
    let reports = std::sync::Mutex::new(Vec::new());
    train::train(&icfg, &tr, &val, &|r| {
        reports.lock().unwrap().push((r.epoch, r.val_loss))
    })
    .unwrap();
    let reports = reports.into_inner().unwrap();
    assert_eq!(reports.iter().map(|r| r.0).collect::<Vec<_>>(), [0, 1]);
    assert!(
        (reports[0].1 - losses[1]).abs() < 1e-3,
        "{reports:?} {losses:?}"
    );
    assert_eq!(
        std::fs::read(&again).unwrap(),
        std::fs::read(&net_path).unwrap()
    );

    // the quantised net evaluates as the float one does, within rounding
    let net = nnue::load(&net_path, GameKind::Minishogi).unwrap();
    for r in records.iter().take(200) {
        let pos = Position::<Minishogi>::from_sfen(&r.to_sfen::<Minishogi>()).unwrap();
        let acc = nnue::AccumulatorStack::new(&net, &pos);
        let q = acc.evaluate(&net, &pos);
        let us = record_inputs::<Minishogi>(r, r.side);
        let them = record_inputs::<Minishogi>(r, !r.side);
        let f = params.eval(&us, &them, 400.0);
        assert!(
            (q as f32 - f).abs() < 10.0 + f.abs() * 0.05,
            "quantised {q} float {f}"
        );
    }

    // a king-bucketed net from the same data: trained with its shared block, folded on quantising, it loads as
    // architecture 2 and evaluates as the float net does
    let (ktr, kval) = dataset::load::<Minishogi>(&[data.as_path()], 5, true).unwrap();
    let kb_path = dir.join("mini-kb.nnue");
    let kcfg = TrainConfig {
        king_buckets: features::KING_BUCKETS,
        epochs: 1,
        output: kb_path.clone(),
        checkpoints: None,
        ..cfg.clone()
    };
    let kparams = train::train(&kcfg, &ktr, &kval, &|_| {}).unwrap();
    let kb = nnue::load(&kb_path, GameKind::Minishogi).unwrap();
    assert_eq!((kb.block, kb.inputs), (520, 520 * features::KING_BUCKETS));
    let mut buckets_seen = std::collections::HashSet::new();
    for r in records.iter().take(300) {
        let pos = Position::<Minishogi>::from_sfen(&r.to_sfen::<Minishogi>()).unwrap();
        for c in Color::ALL {
            buckets_seen.insert(features::king_offset::<Minishogi>(c, pos.king(c), 1));
        }
        let q = nnue::AccumulatorStack::new(&kb, &pos).evaluate(&kb, &pos);
        let us = dataset::training_inputs::<Minishogi>(r, r.side, true);
        let them = dataset::training_inputs::<Minishogi>(r, !r.side, true);
        let f = kparams.eval(&us, &them, 400.0);
        assert!(
            (q as f32 - f).abs() < 10.0 + f.abs() * 0.05,
            "king-bucketed: quantised {q} float {f}"
        );
    }
    assert!(buckets_seen.len() >= 3, "{buckets_seen:?}");

    // a deep head ((inputs -> 32) x 2 -> 32 -> 32 -> 1): its training gives finite losses, it loads as
    // architecture 3 and evaluates as the float net does, within the rounding of its byte activations
    let deep_path = dir.join("mini-deep.nnue");
    let dcfg = TrainConfig {
        deep: true,
        epochs: 3,
        output: deep_path.clone(),
        checkpoints: None,
        ..cfg.clone()
    };
    let dlosses = std::sync::Mutex::new(Vec::new());
    let dparams = train::train(&dcfg, &tr, &val, &|r| {
        dlosses.lock().unwrap().push(r.val_loss)
    })
    .unwrap();
    let dlosses = dlosses.into_inner().unwrap();
    assert!(
        dlosses.iter().all(|l| l.is_finite() && *l < 0.25),
        "{dlosses:?}"
    );
    let deep = nnue::load(&deep_path, GameKind::Minishogi).unwrap();
    assert!(matches!(deep.head, nnue::network::Head::Deep(_)));
    let mut worst = 0.0f32;
    for r in records.iter().take(200) {
        let pos = Position::<Minishogi>::from_sfen(&r.to_sfen::<Minishogi>()).unwrap();
        let q = nnue::AccumulatorStack::new(&deep, &pos).evaluate(&deep, &pos);
        let us = record_inputs::<Minishogi>(r, r.side);
        let them = record_inputs::<Minishogi>(r, !r.side);
        let f = dparams.eval(&us, &them, 400.0);
        worst = worst.max((q as f32 - f).abs() - f.abs() * 0.05);
        assert!(
            (q as f32 - f).abs() < 25.0 + f.abs() * 0.05,
            "deep: quantised {q} float {f}"
        );
    }
    eprintln!("deep head: largest quantisation error beyond 5%: {worst:.1} cp");

    // the search plays legal moves with it, and its scores differ from the classical evaluation's
    let mut with_net = Searcher::new(1, 1);
    with_net.set_net(GameKind::Minishogi, Some(net));
    let mut classical = Searcher::new(1, 1);
    classical.use_nnue = false;
    let mut pos = Position::<Minishogi>::startpos();
    let mut differ = false;
    for _ in 0..30 {
        let limits = Limits {
            nodes: Some(2000),
            multipv: 1,
            ..Limits::default()
        };
        let r = with_net.search(&pos, &limits, &TimeOptions::default(), &|_| {});
        let Some(m) = r.best else { break };
        assert!(
            pos.legal_moves().contains(&m),
            "illegal {m:?} in {}",
            pos.to_sfen()
        );
        let limits = Limits {
            depth: Some(1),
            multipv: 1,
            ..Limits::default()
        };
        let c = classical.search(&pos, &limits, &TimeOptions::default(), &|_| {});
        let limits = Limits {
            depth: Some(1),
            multipv: 1,
            ..Limits::default()
        };
        let n = with_net.search(&pos, &limits, &TimeOptions::default(), &|_| {});
        differ |= c.score != n.score;
        pos.do_move(m);
        if !pos.has_legal_move() {
            break;
        }
    }
    assert!(differ, "the net's scores are the classical evaluation's");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs the engine on `input` and returns its stdout.
fn usi(input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hayate"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn eval_file_loads_for_the_selected_game_and_refuses_others() {
    let dir = temp_dir("usi");
    let path = dir.join("mini.nnue");
    let net = nnue::Network::with_weights(GameKind::Minishogi, 520, 16, |i| (i % 7) as i16 - 3);
    nnue::file::save(&net, &path).unwrap();
    let p = path.display();
    let out = usi(&format!(
        "setoption name USI_Variant value shogi\nsetoption name EvalFile value {p}\n\
         setoption name EvalFile value {p}.missing\n\
         setoption name USI_Variant value minishogi\nsetoption name EvalFile value {p}\n\
         position startpos\ngo depth 3\nisready\nquit\n"
    ));
    assert!(
        out.contains("info string error: EvalFile: net file is for minishogi, not shogi"),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "info string error: EvalFile: cannot read {p}.missing"
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "info string EvalFile: minishogi net {p} loaded (520 inputs, hidden 16)"
        )),
        "{out}"
    );
    assert!(out.contains("bestmove "), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs the `hayate` binary with these arguments and asserts that it succeeded (its stderr in the message).
fn hayate_ok(args: &[impl AsRef<std::ffi::OsStr>]) -> std::process::Output {
    let out = Command::new(env!("CARGO_BIN_EXE_hayate"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}
