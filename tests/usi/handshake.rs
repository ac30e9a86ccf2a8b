//! Handshake: `usi` and `isready`.

use std::collections::HashMap;
use std::time::Duration;

use crate::process::Engine;
use crate::{shared, QUICK};

/// (name, type) of every option the engine must list.
const OPTIONS: [(&str, &str); 18] = [
    ("USI_Hash", "spin"),
    ("Threads", "spin"),
    ("USI_Ponder", "check"),
    ("MultiPV", "spin"),
    ("USI_Variant", "combo"),
    ("UCI_Variant", "combo"),
    ("NetworkDelay", "spin"),
    ("MinimumThinkingTime", "spin"),
    ("SlowMover", "spin"),
    ("ResignValue", "spin"),
    ("DrawValue", "spin"),
    ("EnteringKingRule", "combo"),
    ("MaxMovesToDraw", "spin"),
    ("Clear_Hash", "button"),
    ("LogFile", "string"),
    ("UseNNUE", "check"),
    ("EvalFile", "string"),
    ("SearchParams", "string"),
];

/// The value after `key` in an option line's words.
pub fn field<'a>(words: &[&'a str], key: &str) -> Option<&'a str> {
    words
        .iter()
        .position(|&w| w == key)
        .and_then(|i| words.get(i + 1).copied())
}

#[test]
fn usi_handshake_lists_every_option_then_usiok() {
    let _cpu = shared();
    let mut e = Engine::raw();
    for round in 0..2 {
        e.send("usi");
        let (_, lines) = e.wait_for(QUICK, "usiok", |l| l == "usiok");
        e.assert_silent(Duration::from_millis(100), "after usiok");
        assert!(lines.len() >= 2, "round {round}: {lines:?}");
        assert_eq!(
            lines[0],
            format!("id name Hayate {}", env!("CARGO_PKG_VERSION"))
        );
        assert_eq!(lines[1], "id author the Hayate developers");
        let mut seen: HashMap<String, String> = HashMap::new();
        for line in &lines[2..] {
            let words: Vec<&str> = line.split(' ').collect();
            assert!(
                words.len() >= 5
                    && words[0] == "option"
                    && words[1] == "name"
                    && words[3] == "type",
                "not an option line: '{line}'"
            );
            let (name, ty) = (words[2], words[4]);
            assert!(
                seen.insert(name.to_string(), ty.to_string()).is_none(),
                "option {name} listed twice"
            );
            match ty {
                "spin" => {
                    let num = |k: &str| -> i64 {
                        field(&words, k)
                            .and_then(|v| v.parse().ok())
                            .unwrap_or_else(|| {
                                panic!("spin option without a numeric {k}: '{line}'")
                            })
                    };
                    let (d, lo, hi) = (num("default"), num("min"), num("max"));
                    assert!(lo <= d && d <= hi, "default outside min..max: '{line}'");
                    assert_eq!(words.len(), 11, "extra words in '{line}'");
                }
                "check" => {
                    let d = field(&words, "default");
                    assert!(matches!(d, Some("true") | Some("false")), "'{line}'");
                }
                "combo" => {
                    let d = field(&words, "default").unwrap_or_else(|| panic!("'{line}'"));
                    let vars: Vec<&str> = words
                        .iter()
                        .enumerate()
                        .filter(|&(i, &w)| w == "var" && i + 1 < words.len())
                        .map(|(i, _)| words[i + 1])
                        .collect();
                    assert!(vars.contains(&d), "default not among the vars: '{line}'");
                    let want: &[&str] = match name {
                        "USI_Variant" => &["shogi", "minishogi", "yarishogi"],
                        // UCI2WB offers XBoard these names and sets the chosen one
                        "UCI_Variant" => &["shogi", "minishogi", "yarishogi", "5x5+5_shogi"],
                        "EnteringKingRule" => &["NoEnteringKing", "CSARule24", "CSARule27"],
                        _ => &[],
                    };
                    for w in want {
                        assert!(vars.contains(w), "{name} lacks var {w}: '{line}'");
                    }
                }
                "button" => assert_eq!(words.len(), 5, "a button has no default: '{line}'"),
                "string" => assert!(field(&words, "default").is_some(), "'{line}'"),
                _ => panic!("unknown option type in '{line}'"),
            }
        }
        for (name, ty) in OPTIONS {
            assert_eq!(
                seen.get(name).map(String::as_str),
                Some(ty),
                "option {name} of type {ty}"
            );
        }
        assert_eq!(seen.len(), OPTIONS.len(), "options: {seen:?}");
        // the spin bounds the tests below rely on
        let line = |n: &str| {
            lines
                .iter()
                .find(|l| l.starts_with(&format!("option name {n} ")))
                .unwrap()
                .clone()
        };
        assert!(line("USI_Hash").contains(" min 1 "));
        assert!(line("Threads").contains(" min 1 max 1024"));
        assert!(line("MultiPV").ends_with(" min 1 max 600"));
        assert!(line("USI_Variant").contains("type combo default shogi "));
        assert!(line("UCI_Variant").contains("type combo default shogi "));
    }
}

#[test]
fn isready_answers_readyok() {
    let _cpu = shared();
    // the first isready allocates the default table
    let mut e = Engine::raw();
    e.send("isready");
    assert_eq!(e.recv(QUICK, "readyok").text, "readyok");
    e.assert_silent(Duration::from_millis(100), "after readyok");
    // again, with CR LF, and with surrounding blanks
    for line in ["isready", "isready\r", "  isready \t "] {
        e.send(line);
        assert_eq!(e.recv(QUICK, "readyok").text, "readyok", "{line:?}");
    }
    e.assert_silent(Duration::from_millis(100), "after readyok");
    // usinewgame and a fresh table
    e.accept("usinewgame");
    e.accept("ucinewgame");
    e.accept("setoption name USI_Hash value 8");
    e.accept("setoption name Clear_Hash");
}
