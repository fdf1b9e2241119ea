//! Diagnostics: every broken rules file in `tests/diagnostics/` is refused, and what the
//! checker says about it (rendered plain, as a designer sees it) is a reviewed snapshot.
//! Each broken file is `tests/pawn_race.muster` with one mistake (or, for
//! `several_errors`, five independent ones).

use muster::check::compile_source;
use muster::diagnostic::render;
use std::path::Path;

/// The broken files, sorted by name: (file name, text).
fn broken_files() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diagnostics");
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("tests/diagnostics exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "muster"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

/// Compiles a rules text under its bare file name; the rendered diagnostics and how many
/// of them are errors. Panics if the text compiles.
fn diagnose(name: &str, text: &str) -> (String, usize) {
    match compile_source(name, text, None) {
        Ok(_) => panic!("{name} compiles, but it is meant to be broken"),
        Err(f) => (
            render(&f.sources, &f.diagnostics, false),
            f.diagnostics.iter().filter(|d| d.is_error()).count(),
        ),
    }
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

// Every broken file is refused, and its rendered diagnostics match the reviewed snapshot.
#[test]
fn broken_rules_files_are_diagnosed() {
    let files = broken_files();
    assert!(files.len() >= 11, "only {} broken files", files.len());
    for (name, text) in files {
        let (rendered, errors) = diagnose(&name, &text);
        assert!(errors >= 1, "{name}: no error reported");
        // Diagnostics name the file as given, never a machine path.
        assert!(
            !rendered.contains(env!("CARGO_MANIFEST_DIR")),
            "{name}: a machine path leaks:\n{rendered}"
        );
        let stem = name.trim_end_matches(".muster").to_string();
        insta::assert_snapshot!(stem, rendered);
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
