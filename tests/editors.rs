//! The editor files stay in step with the grammar: every word of `grammar/muster.pest` is
//! highlighted by `editors/muster.tmLanguage.json` and offered by the language server's
//! completion (as a keyword or a built-in).

use muster::check::{BUILTIN_FUNCTIONS, BUILTIN_NAMES};
use muster::lsp::completion::KEYWORDS;
use std::collections::BTreeSet;

/// The quoted words of the grammar, two letters or more (single letters are the marks
/// of drawn shapes and the modifiers of move patterns).
fn grammar_words() -> BTreeSet<String> {
    let pest = include_str!("../grammar/muster.pest");
    let mut words = BTreeSet::new();
    for (i, part) in pest.split('"').enumerate() {
        if i % 2 == 1 && part.len() >= 2 && part.chars().all(|c| c.is_ascii_lowercase() || c == '_')
        {
            words.insert(part.to_string());
        }
    }
    words
}

#[test]
fn the_textmate_grammar_highlights_every_word_of_the_language() {
    let text = include_str!("../editors/muster.tmLanguage.json");
    let json: serde_json::Value = serde_json::from_str(text).expect("valid JSON");
    assert_eq!(json["scopeName"], "source.muster");
    // Every `match` pattern's words.
    let mut matched = BTreeSet::new();
    fn walk(v: &serde_json::Value, out: &mut BTreeSet<String>) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, x) in m {
                    if k == "match" {
                        let s = x.as_str().unwrap();
                        out.extend(
                            s.split(|c: char| !(c.is_ascii_lowercase() || c == '_'))
                                .filter(|w| !w.is_empty())
                                .map(String::from),
                        );
                    } else {
                        walk(x, out);
                    }
                }
            }
            serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    walk(&json, &mut matched);
    let words = grammar_words();
    assert!(words.len() > 100, "{words:?}");
    let missing: Vec<&String> = words.iter().filter(|w| !matched.contains(*w)).collect();
    assert!(missing.is_empty(), "not highlighted: {missing:?}");
    for (f, _) in BUILTIN_FUNCTIONS {
        assert!(matched.contains(f), "built-in `{f}` not highlighted");
    }
}

#[test]
fn completion_offers_every_word_of_the_language() {
    let offered: BTreeSet<&str> = KEYWORDS
        .iter()
        .copied()
        .chain(BUILTIN_NAMES)
        .chain(BUILTIN_FUNCTIONS.iter().map(|(n, _)| *n))
        .collect();
    let missing: Vec<String> = grammar_words()
        .into_iter()
        .filter(|w| !offered.contains(w.as_str()))
        .collect();
    assert!(missing.is_empty(), "not offered: {missing:?}");
}
