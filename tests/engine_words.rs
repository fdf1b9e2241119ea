//! The one hard rule: games are data. Nothing under `src/` names a game or a concept only
//! a game has; the engine speaks of boards, cells, pieces, cards, zones, seats, phases and
//! patterns. This test reads every source file and fails on a word from the games'
//! vocabulary, in code, names (`king_of` is two words) or comments alike.

use std::path::{Path, PathBuf};

/// The games' own words: their names, and the ranks, roles and ideas that belong to one
/// game and not to the language. A word the engine needs in a general sense does not
/// belong here.
#[rustfmt::skip]
const GAME_WORDS: &[&str] = &[
    // The games and the ones written for the language's own tests.
    "army", "ant", "ants", "battalion", "battaglione", "emperor", "battle", "chess",
    "goofspiel", "homeward", "breakthrough",
    // Ranks and roles.
    "king", "kings", "queen", "queens", "jack", "jacks", "ace", "aces", "colonel",
    "colonels", "captain", "captains", "marshall", "sergeant", "sergeants", "wazir", "ferz",
    "elephant", "elephants", "minister", "priestess", "cannon", "cannons", "nurse",
    "nurses", "mechanic", "mechanics", "soldier", "soldiers", "rook", "rooks", "bishop",
    "bishops", "knight", "knights", "pawn", "pawns",
    // Ideas of one game.
    "patrol", "patrols", "arsenal", "wounded", "castling", "passant", "checkmate", "favor",
    "favour", "rally", "troops",
];

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs" || x == "pest") {
            out.push(path);
        }
    }
}

/// Each game word in `text`, with its line: words are runs of letters, so that names
/// made of words (`king_of`, `KingOf` is not split) are read word by word.
fn game_words_in(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        for word in line.split(|c: char| !c.is_ascii_alphabetic()) {
            let word = word.to_ascii_lowercase();
            if GAME_WORDS.contains(&word.as_str()) {
                found.push((n + 1, word));
            }
        }
    }
    found
}

#[test]
fn the_engine_names_no_game() {
    let mut files = Vec::new();
    sources(Path::new("src"), &mut files);
    assert!(files.len() > 50, "only {} source files found", files.len());
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a source file reads as text");
        for (line, word) in game_words_in(&text) {
            found.push(format!("{}:{line}: `{word}`", file.display()));
        }
    }
    assert!(
        found.is_empty(),
        "game words in the engine (say it in the engine's words, or put it in a rules file):\n{}",
        found.join("\n")
    );
}

#[test]
fn a_game_word_is_found_in_a_name_and_in_a_comment() {
    let text = "let x = 1;\nfn king_of(c: u16) {}\n// a Pawn moves\nlet kingdom = 2;";
    assert_eq!(
        game_words_in(text),
        vec![(2, "king".to_string()), (3, "pawn".to_string())]
    );
}
