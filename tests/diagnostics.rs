//! Diagnostics: every broken rules file in `tests/diagnostics/` is refused by
//! `muster validate`, and what it prints (plain, as a designer sees it in a log or a pipe)
//! is a reviewed snapshot, together with its exit code. Each file is
//! `tests/pawn_race.muster` with one mistake (or, for `several_errors`, five independent
//! ones), except the topology files (`shape_*`, `area_*`, `form_*`, `link_*`, `roll_*`),
//! which are a small game of formations with one mistake, and the hex files (`hex_*`), a
//! small game on a hex board with one mistake. A file whose first line is
//! `// validate --variant a,b: ...` is validated with that variant list too. Files named `warn_*` are valid rules with a likely mistake: they pass with
//! warnings and exit code 0.

use muster::check::{check_with, compile_source, load_source, read_text};
use muster::diagnostic::render;
use std::path::{Path, PathBuf};
use std::process::Command;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diagnostics")
}

/// The corpus's file names, sorted.
fn corpus() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(corpus_dir())
        .expect("tests/diagnostics exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "muster"))
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The variant list a corpus file asks to be checked with, on a first line
/// `// validate --variant a,b: ...` (for conflicts between variants).
fn variant_list(name: &str) -> Option<String> {
    let text = std::fs::read_to_string(corpus_dir().join(name)).ok()?;
    let rest = text
        .lines()
        .next()?
        .strip_prefix("// validate --variant ")?;
    Some(rest.split(':').next()?.trim().to_string())
}

/// What `muster validate NAME` does, run in the corpus folder so that diagnostics name
/// the file as given: its exit code, and the snapshot text (exit code, the verdict on
/// stdout, then the diagnostics on stderr). The library is asked too, and must agree
/// with the binary on every diagnostic.
fn validate(name: &str) -> (i32, String) {
    let list = variant_list(name);
    let out = Command::new(env!("CARGO_BIN_EXE_muster"))
        .current_dir(corpus_dir())
        .args(["validate", name])
        .args(list.iter().flat_map(|l| ["--variant", l.as_str()]))
        .env("NO_COLOR", "1")
        .output()
        .expect("muster runs");
    let code = out.status.code().expect("muster exits, it is not killed");
    let (stdout, stderr) = (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    );
    // Files the binary cannot read as text (binary junk) are compared in the snapshot only.
    if let Ok(text) = read_text(&corpus_dir().join(name)) {
        let text = text.as_str();
        let diags = match load_source(name, text, Some(&corpus_dir())) {
            Ok(loaded) => {
                let d = check_with(&loaded, list.as_deref());
                render(&loaded.sources, &d, false)
            }
            Err(f) => render(&f.sources, &f.diagnostics, false),
        };
        // The library resolves imports against the folder; the binary ran inside it.
        let diags = diags.replace(&format!("{}/", corpus_dir().display()), "");
        assert_eq!(stderr, diags, "{name}: the binary and the library disagree");
    }
    (code, format!("exit code: {code}\n{stdout}\n{stderr}"))
}

// The base game the broken files are made from compiles cleanly and plays.
#[test]
fn the_unbroken_base_game_compiles_without_warnings() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pawn_race.muster"),
    )
    .unwrap();
    let compiled = match compile_source("pawn_race.muster", &text, None) {
        Ok(c) => c,
        Err(f) => panic!("{}", render(&f.sources, &f.diagnostics, false)),
    };
    assert!(
        compiled.warnings.is_empty(),
        "{}",
        render(&compiled.sources, &compiled.warnings, false)
    );
    let engine = muster::engine::Engine::new(compiled.game);
    let mut s = engine.start(2, 0).unwrap();
    let legal: Vec<String> = engine
        .legal_actions(&s)
        .iter()
        .map(|a| engine.action_text(&s, a))
        .collect();
    assert_eq!(legal, vec!["step a1 a2"]);
    let a = engine.legal_actions(&s)[0].clone();
    engine.apply(&mut s, &a).unwrap();
    assert_eq!(s.turn_seat, 1);
}

// Every file of the corpus is diagnosed as reviewed: refused with exit code 1 (or, for a
// `warn_*` file, passed with warnings and exit code 0), and its output matches the snapshot.
#[test]
fn broken_rules_files_are_diagnosed() {
    let names = corpus();
    let broken = names.iter().filter(|n| !n.starts_with("warn_")).count();
    assert!(broken >= 40, "only {broken} broken files");
    for name in names {
        let (code, snapshot) = validate(&name);
        let warn_only = name.starts_with("warn_");
        assert_eq!(code, if warn_only { 0 } else { 1 }, "{name}:\n{snapshot}");
        let marker = if warn_only { "  ⚠ " } else { "  × " };
        assert!(
            snapshot.contains(marker),
            "{name}: nothing reported:\n{snapshot}"
        );
        // Diagnostics name the file as given, never a machine path.
        assert!(
            !snapshot.contains(env!("CARGO_MANIFEST_DIR")),
            "{name}: a machine path leaks:\n{snapshot}"
        );
        let stem = name.trim_end_matches(".muster").to_string();
        insta::assert_snapshot!(stem, snapshot);
    }
}

// A file with several independent mistakes gets every one reported in one run.
#[test]
fn several_independent_errors_are_all_reported() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diagnostics/several_errors.muster"),
    )
    .unwrap();
    let f = compile_source("several_errors.muster", &text, None).unwrap_err();
    let mut codes: Vec<&str> = f
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.code)
        .collect();
    codes.sort_unstable();
    assert_eq!(
        codes,
        vec![
            "muster::arity",
            "muster::label",
            "muster::type",
            "muster::unknown-name",
            "muster::unknown-name"
        ]
    );
    // Reported in file order.
    let starts: Vec<u32> = f.diagnostics.iter().map(|d| d.span.start).collect();
    let mut sorted = starts.clone();
    sorted.sort_unstable();
    assert_eq!(starts, sorted);
}

// A `game` block without `players` is refused with a plain message and a fix.
// (Also snapshotted, as `missing_players.muster`.)
#[test]
fn missing_players_is_reported() {
    let base = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pawn_race.muster"),
    )
    .unwrap();
    let text = base.replace(
        "game \"Pawn Race\" {\n  players 2\n}",
        "game \"Pawn Race\" {\n  max_turns 50\n}",
    );
    assert_ne!(text, base);
    let f = compile_source("missing_players.muster", &text, None).unwrap_err();
    assert_eq!(
        f.diagnostics.len(),
        1,
        "{}",
        render(&f.sources, &f.diagnostics, false)
    );
    let d = &f.diagnostics[0];
    assert!(d.is_error());
    assert_eq!(d.code, "muster::players");
    assert_eq!(d.message, "the game does not say how many players it has");
    assert_eq!(
        d.help.as_deref(),
        Some("add `players 2` (or a range such as `players 3..6`) to the `game` block")
    );
}

// `--format json` gives one object per diagnostic, with the same diagnostics as the text
// output, each located in the file: its name, byte span, and the line and column (in
// characters, 1-based) where the span starts; severity, code, message, label and help.
#[test]
fn json_diagnostics_match_the_text_ones() {
    let mut objects = 0;
    for name in corpus() {
        let Ok(text) = read_text(&corpus_dir().join(&name)) else {
            continue;
        };
        let out = Command::new(env!("CARGO_BIN_EXE_muster"))
            .current_dir(corpus_dir())
            .args(["validate", "--format", "json", &name])
            .args(
                variant_list(&name)
                    .iter()
                    .flat_map(|l| ["--variant", l.as_str()]),
            )
            .output()
            .unwrap();
        let (code, snapshot) = validate(&name);
        assert_eq!(out.status.code(), Some(code), "{name}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let items = v.as_array().unwrap();
        let shown = snapshot.matches("\n  × ").count() + snapshot.matches("\n  ⚠ ").count();
        assert_eq!(items.len(), shown, "{name}: {v:#}");
        for d in items {
            let keys: Vec<&str> = d.as_object().unwrap().keys().map(|k| k.as_str()).collect();
            let mut sorted = keys.clone();
            sorted.sort_unstable();
            assert_eq!(
                sorted,
                [
                    "code",
                    "column",
                    "end_column",
                    "end_line",
                    "file",
                    "help",
                    "label",
                    "line",
                    "message",
                    "severity",
                    "span"
                ],
                "{name}"
            );
            assert_eq!(d["file"], name.as_str());
            let start = d["span"]["start"].as_u64().unwrap() as usize;
            let end = d["span"]["end"].as_u64().unwrap() as usize;
            assert!(start <= end && end <= text.len(), "{name}: {d}");
            let before = &text[..start];
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().unwrap().chars().count() + 1;
            assert_eq!(d["line"], line, "{name}: {d}");
            assert_eq!(d["column"], column, "{name}: {d}");
            // The end: the line and column just after the span's last character.
            let upto = &text[..end];
            let end_line = upto.matches('\n').count() + 1;
            let end_column = upto.rsplit('\n').next().unwrap().chars().count() + 1;
            assert_eq!(d["end_line"], end_line, "{name}: {d}");
            assert_eq!(d["end_column"], end_column, "{name}: {d}");
            // The text output locates it at the same place.
            assert!(
                snapshot.contains(&format!("[{name}:{line}:{column}]")),
                "{name}: {d}\n{snapshot}"
            );
            let severity = d["severity"].as_str().unwrap();
            assert!(severity == "error" || severity == "warning", "{name}: {d}");
            assert!(d["code"].as_str().unwrap().starts_with("muster::"), "{d}");
            // miette wraps long lines: compare with the spacing made uniform.
            let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
            let message = d["message"].as_str().unwrap();
            assert!(
                flat(&snapshot).contains(&flat(message)),
                "{name}: {message}"
            );
            assert!(d["help"].is_null() || d["help"].is_string(), "{d}");
            objects += 1;
        }
    }
    assert!(objects >= 50, "only {objects} diagnostics");
}
