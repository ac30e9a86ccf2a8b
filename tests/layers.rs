//! The layering of `src/` (docs/architecture.md), checked on the source text: every `crate::` path (with
//! `$crate::` in macros) outside comments and string literals is an arrow from the file's layer to the layer of the
//! path's first segment, and
//!
//! - no arrow may go from a lower layer to a higher one, in the order
//!   rules < engine < host < (usi, xboard, gui, matches, learn) < the binary (cli/, main.rs);
//! - the front ends and tools on one level (usi, xboard, gui, matches, learn) do not import each other, apart
//!   from the exceptions listed in [`EXCEPTIONS`], each with the reason it remains.
//!
//! The crate-root re-exports (`GameKind`, `Position`, `with_variant!`, ...) count as `rules`. A failure lists
//! every violating file and line.

// a test fails by panicking: unwrap is how it states what must succeed (the library keeps to [lints])
#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::{Path, PathBuf};

/// The layers from the bottom; the index is the level. Modules on one level may not import each other.
const LAYERS: &[&[&str]] = &[
    &["rules"],
    &["engine"],
    &["host"],
    &["usi", "xboard", "gui", "matches", "learn"],
    &["cli", "main"],
];

/// The protocol and web front ends, which no other module may import, and which import no other front end (no
/// exception for these).
const FRONT_ENDS: &[&str] = &["usi", "xboard", "gui"];

/// The binary's files: one level, whose files may use each other (`cli/mod.rs` lists the subcommands of the
/// others, which take its clap `GameArg` type).
const BINARY: &[&str] = &["cli", "main"];

/// What `lib.rs` re-exports at the crate root, all from `rules`.
const ROOT_REEXPORTS: &[&str] = &[
    "EnteringKingRule",
    "GameKind",
    "Move",
    "MoveList",
    "Position",
    "Variant",
    "Shogi",
    "Minishogi",
    "Yari",
    "with_variant",
];

/// Imports between modules on one level that remain, as (importing module, path prefix after `crate::`, why).
/// Each must still be used: one that is no longer needed fails the test until it is taken off this list.
const EXCEPTIONS: &[(&str, &str, &str)] = &[];

/// One arrow that breaks the layering.
struct Violation {
    file: String,
    line: usize,
    path: String,
    why: String,
}

#[test]
fn no_layer_imports_a_higher_one_and_no_front_end_imports_another() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    assert!(
        files.len() > 50,
        "only {} files found under {}",
        files.len(),
        src.display()
    );

    let mut violations = Vec::new();
    let mut used = vec![false; EXCEPTIONS.len()];
    let mut arrows = 0;
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        let from = module_of(rel);
        if from == "lib" {
            continue; // declares the modules and re-exports the rules' types
        }
        let from_level = level(&from).unwrap_or_else(|| {
            panic!(
                "{}: module '{from}' is in no layer; add it to LAYERS",
                rel.display()
            )
        });
        let text = fs::read_to_string(file).unwrap();
        for (line, path) in crate_paths(&strip_comments_and_strings(&text)) {
            arrows += 1;
            let first = path.split("::").next().unwrap();
            let to = if ROOT_REEXPORTS.contains(&first) {
                "rules"
            } else {
                first
            };
            let Some(to_level) = level(to) else {
                violations.push(Violation {
                    file: rel.display().to_string(),
                    line,
                    path: path.clone(),
                    why: format!("'{first}' is in no layer (add it to LAYERS or ROOT_REEXPORTS)"),
                });
                continue;
            };
            if to == from || (BINARY.contains(&from.as_str()) && BINARY.contains(&to)) {
                continue;
            }
            if to_level > from_level {
                violations.push(Violation {
                    file: rel.display().to_string(),
                    line,
                    path: path.clone(),
                    why: format!("{from} (level {from_level}) imports the higher layer {to} (level {to_level})"),
                });
            } else if to_level == from_level {
                match EXCEPTIONS
                    .iter()
                    .position(|&(m, prefix, _)| m == from && starts_with_segments(&path, prefix))
                    .filter(|_| !(FRONT_ENDS.contains(&from.as_str()) && FRONT_ENDS.contains(&to)))
                {
                    Some(i) => used[i] = true,
                    None => violations.push(Violation {
                        file: rel.display().to_string(),
                        line,
                        path: path.clone(),
                        why: if FRONT_ENDS.contains(&from.as_str()) && FRONT_ENDS.contains(&to) {
                            format!("the front end {from} imports the front end {to}")
                        } else {
                            format!("{from} imports {to}, a front end or tool on its own level")
                        },
                    }),
                }
            }
        }
    }
    assert!(
        arrows > 500,
        "only {arrows} crate:: paths found: is the scanner broken?"
    );

    let mut report = String::new();
    for v in &violations {
        report.push_str(&format!(
            "  src/{}:{}: crate::{}: {}\n",
            v.file, v.line, v.path, v.why
        ));
    }
    for (i, &(m, prefix, why)) in EXCEPTIONS.iter().enumerate() {
        if !used[i] {
            report.push_str(&format!(
                "  exception ({m} -> crate::{prefix}: {why}) is no longer used: take it off EXCEPTIONS\n"
            ));
        }
    }
    assert!(
        report.is_empty(),
        "the layering rules (docs/architecture.md) are broken in {} place(s):\n{report}",
        violations.len()
    );
}

/// The scanner itself, on the forms the code uses.
#[test]
fn the_scanner_finds_paths_and_skips_comments_and_strings() {
    let text = r#"use crate::host::{Game, Options};
use crate::{with_variant, GameKind};
use crate::{
    rules::piece::Color,
    usi::Engine,
};
// use crate::gui::Ignored;
/// [`x`](crate::xboard::Ignored)
let s = "crate::matches::Ignored"; let c = '"'; let l: &'static str = r"crate::learn::Ignored";
/* crate::learn::Ignored */ $crate::host::Game::Shogi(p) => crate::engine::search::Searcher::new(1, 1),
pub(crate) fn f() {}
"#;
    let found = crate_paths(&strip_comments_and_strings(text));
    let want: Vec<(usize, String)> = [
        (1, "host::Game"),
        (1, "host::Options"),
        (2, "with_variant"),
        (2, "GameKind"),
        (4, "rules::piece::Color"),
        (5, "usi::Engine"),
        (10, "host::Game::Shogi"),
        (10, "engine::search::Searcher::new"),
    ]
    .iter()
    .map(|&(l, p)| (l, p.to_string()))
    .collect();
    assert_eq!(found, want);
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file under `src/` belongs to: its folder, or its name for a file at the root.
fn module_of(rel: &Path) -> String {
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    first.trim_end_matches(".rs").to_string()
}

fn level(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// Whether `path` is `prefix` or lies below it (`a::b` has `a::b::c` below it, not `a::bc`).
fn starts_with_segments(path: &str, prefix: &str) -> bool {
    path == prefix || path.starts_with(&format!("{prefix}::"))
}

/// The text with comments, string literals and character literals blanked out (newlines kept, so that line
/// numbers stay).
fn strip_comments_and_strings(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |ch: char| if ch == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c[i] == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(c[i]));
                    i += 1;
                }
            }
        } else if c[i] == 'r'
            && (next == Some('"') || next == Some('#'))
            && (i == 0 || !is_ident(c[i - 1]))
        {
            // a raw string: r"..." or r#"..."#
            let mut j = i + 1;
            let mut hashes = 0;
            while c.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= c.len() {
                    break;
                }
                if c[j] == '"' && (0..hashes).all(|k| c.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            for &ch in &c[i..j.min(c.len())] {
                out.push(blank(ch));
            }
            i = j;
        } else if c[i] == '"' {
            out.push(' ');
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < c.len() {
                    out.push(blank(c[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c[i] == '\'' {
            // a character literal ('x', '\n', '\u{1F600}'), or else a lifetime
            let end = if next == Some('\\') {
                (i + 2..c.len()).find(|&j| c[j] == '\'')
            } else if c.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(e) => {
                    for &ch in &c[i..=e] {
                        out.push(blank(ch));
                    }
                    i = e + 1;
                }
                None => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

fn is_ident(ch: char) -> bool {
    ch.is_alphanumeric() || ch == '_'
}

/// Every `crate::` path in code, with its line: `crate::a::b::C` as `a::b::C`; a group `crate::a::{b::C, d}` (on
/// one line or several, nested or not) as each of its items, `a::b::C` and `a::d`, each with the line it is on.
fn crate_paths(code: &str) -> Vec<(usize, String)> {
    let mut line = 1;
    let c: Vec<(char, usize)> = code
        .chars()
        .map(|ch| {
            let at = (ch, line);
            line += usize::from(ch == '\n');
            at
        })
        .collect();
    let pat: Vec<char> = "crate::".chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i + pat.len() <= c.len() {
        let here = c[i..i + pat.len()].iter().map(|&(ch, _)| ch);
        if !here.eq(pat.iter().copied()) || (i > 0 && is_ident(c[i - 1].0)) {
            i += 1;
            continue;
        }
        i += pat.len();
        // the use tree: a path, then perhaps a `{...}` group
        let start = i;
        let mut depth = 0;
        while i < c.len() {
            let ch = c[i].0;
            let path_char = is_ident(ch) || (ch == ':' && c.get(i + 1).is_some_and(|n| n.0 == ':'));
            match ch {
                '{' => depth += 1,
                '}' if depth > 0 => {
                    depth -= 1;
                    if depth == 0 {
                        i += 1;
                        break;
                    }
                }
                _ if depth == 0 && !path_char => break,
                _ => {}
            }
            i += if ch == ':' && depth == 0 { 2 } else { 1 };
        }
        expand(&c[start..i], "", &mut found);
    }
    found
}

/// The paths of a use tree (`a::b`, `a::{b, c::{d, e}}`, `a::b as c`), each after `prefix`.
fn expand(t: &[(char, usize)], prefix: &str, found: &mut Vec<(usize, String)>) {
    let first = t.iter().position(|&(ch, _)| !ch.is_whitespace());
    let Some(first) = first else { return };
    let t = &t[first..];
    let mut head = String::new();
    for (k, &(ch, _)) in t.iter().enumerate() {
        if ch == '{' {
            // the group's items, split at its own commas
            let mut depth = 0;
            let mut from = k + 1;
            for (m, &(ch, _)) in t.iter().enumerate().skip(k) {
                match ch {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            expand(&t[from..m], &format!("{prefix}{head}"), found);
                            return;
                        }
                    }
                    ',' if depth == 1 => {
                        expand(&t[from..m], &format!("{prefix}{head}"), found);
                        from = m + 1;
                    }
                    _ => {}
                }
            }
            return;
        }
        if ch.is_whitespace() {
            break; // `as` and a new name, or the end
        }
        head.push(ch);
    }
    let path = format!("{prefix}{head}");
    let path = path.trim_end_matches("::self").trim_end_matches("::");
    if !path.is_empty() && path != "self" {
        found.push((t[0].1, path.to_string()));
    }
}
