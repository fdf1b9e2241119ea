//! The fuzz targets' bodies, shared by the libFuzzer targets (`fuzz_targets/`) and the
//! deterministic loop (`examples/replay.rs`).

use muster::check::{self, compile_file};
use muster::engine::{Engine, EngineError};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The parser and the checker on arbitrary bytes, as `muster validate` runs them: every
/// variant is checked and the diagnostics are rendered as text and as JSON.
pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (sources, diags) = match check::load_source("fuzz.muster", text, None) {
        Ok(loaded) => {
            let d = check::check_all(&loaded);
            (loaded.sources, d)
        }
        Err(f) => (f.sources, f.diagnostics),
    };
    assert!(
        diags.len() <= check::MAX_ERRORS,
        "{} diagnostics",
        diags.len()
    );
    let _ = muster::diagnostic::render(&sources, &diags, false);
    let _ = muster::diagnostic::to_json(&sources, &diags);
}

/// The shipped games (`games/*.muster`), each in its base form and with each variant.
pub fn shipped() -> &'static [(String, Engine)] {
    static GAMES: OnceLock<Vec<(String, Engine)>> = OnceLock::new();
    GAMES.get_or_init(|| {
        let mut out = Vec::new();
        for path in game_files() {
            let text = std::fs::read_to_string(&path).unwrap();
            // Variant names, as declared: `variant NAME {` at the start of a line.
            let variants = text.lines().filter_map(|l| {
                l.strip_prefix("variant ")
                    .and_then(|r| r.split_whitespace().next())
                    .map(str::to_string)
            });
            for v in std::iter::once(None).chain(variants.map(Some)) {
                let compiled = compile_file(&path, v.as_deref())
                    .unwrap_or_else(|_| panic!("{} does not compile", path.display()));
                let name = format!("{} {}", path.display(), v.as_deref().unwrap_or("-"));
                out.push((name, Engine::new(compiled.game)));
            }
        }
        assert!(out.len() >= 3, "no shipped games found");
        out
    })
}

/// The shipped rules files, sorted.
pub fn game_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../games");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "muster"))
        .collect();
    files.sort();
    files
}

/// The interpreter playing a shipped game. The input picks the game, the player count
/// and the seed, then each byte picks an action from the legal list; every few actions
/// a stretch of the input is also typed as if at the prompt. Checks on the way that each
/// listed action reads back from its notation and is accepted, and that every seat's
/// view renders.
pub fn play(data: &[u8]) {
    let games = shipped();
    if data.len() < 10 {
        return;
    }
    let (name, engine) = &games[data[0] as usize % games.len()];
    let g = &engine.game;
    let players = g.min_players + data[1] % (g.max_players - g.min_players + 1);
    let seed = u64::from_le_bytes(data[2..10].try_into().unwrap());
    let mut s = engine.start(players, seed).expect("a shipped game starts");
    for (i, &b) in data[10..].iter().enumerate() {
        if engine.decider(&s).is_none() {
            break;
        }
        let legal = engine.legal_actions(&s);
        if legal.is_empty() {
            break;
        }
        if i % 7 == 6 {
            // Whatever a player might type: refused or read, never a panic.
            let typed = String::from_utf8_lossy(&data[10 + i..data.len().min(10 + i + 24)]);
            let _ = engine.parse_action(&s, &typed);
        }
        let a = &legal[b as usize % legal.len()];
        let text = engine.action_text(&s, a);
        match engine.parse_action(&s, &text) {
            Ok(back) => assert_eq!(&back, a, "{name}: `{text}` reads back as another action"),
            Err(e) => panic!("{name}: `{text}` does not read back: {e}"),
        }
        for seat in 0..players {
            let _ = muster::cli::render_view(engine, &engine.view(&s, seat));
        }
        match engine.apply(&mut s, a) {
            Ok(()) => {}
            Err(EngineError::Rules(_)) => break,
            Err(e) => panic!("{name}: listed action `{text}` refused: {e}"),
        }
    }
}
