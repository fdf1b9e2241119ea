//! Robustness: no rules file makes the checker panic, and rules that loop at play time
//! end with a rules error. Every shipped game is mangled in many seeded ways (lines
//! deleted, duplicated and swapped, the file cut short, characters flipped, tokens
//! inserted, brackets dropped) and each result is checked as `muster validate` checks
//! it; a few go through the binary as well.

use muster::check::{check_all, compile_source, load_source};
use muster::engine::{Engine, EngineError};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};
use std::process::Command;

/// How many mangled versions of each shipped game are checked.
const MUTANTS_PER_GAME: u64 = 150;

fn games_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("games")
}

/// Every shipped game: (file name, text).
fn shipped_games() -> Vec<(String, String)> {
    let mut games: Vec<(String, String)> = std::fs::read_dir(games_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "muster"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    games.sort();
    assert!(games.len() >= 3, "the shipped games are missing");
    games
}

/// Pieces of the language to insert at random.
const TOKENS: [&str; 40] = [
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ",",
    ":",
    "=",
    "==",
    "+",
    "-",
    "..",
    ".",
    "not",
    "and",
    "if",
    "then",
    "else",
    "in",
    "for",
    "move",
    "to",
    "phase",
    "action",
    "zone",
    "var",
    "def",
    "when",
    "per seat",
    "x 99999",
    "0",
    "99999999999999999999",
    "\"",
    "\"text\"",
    "me",
    "card",
    "//",
    "/*",
    "variant v {",
];

/// One seeded mangling of `text`: one to four edits of the kinds listed above.
fn mutate(text: &str, rng: &mut ChaCha8Rng) -> String {
    let mut t = text.to_string();
    for _ in 0..rng.gen_range(1..=4) {
        let mut lines: Vec<&str> = t.lines().collect();
        let n = lines.len().max(1);
        let at = |rng: &mut ChaCha8Rng, s: &str| {
            let mut i = rng.gen_range(0..=s.len());
            while !s.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        t = match rng.gen_range(0..9) {
            0 if !lines.is_empty() => {
                lines.remove(rng.gen_range(0..lines.len()));
                lines.join("\n")
            }
            1 if !lines.is_empty() => {
                let i = rng.gen_range(0..lines.len());
                lines.insert(i, lines[i]);
                lines.join("\n")
            }
            2 => {
                let (a, b) = (rng.gen_range(0..n), rng.gen_range(0..n));
                if a < lines.len() && b < lines.len() {
                    lines.swap(a, b);
                }
                lines.join("\n")
            }
            3 => {
                let i = at(rng, &t);
                t[..i].to_string()
            }
            4 => {
                // Flip a character: to another printable one, a control character or a
                // letter outside ASCII.
                let i = at(rng, &t);
                let c = match rng.gen_range(0..4) {
                    0 => '\u{7}',
                    1 => 'é',
                    _ => rng.gen_range(b' '..=b'~') as char,
                };
                let mut s = t[..i].to_string();
                s.push(c);
                s.push_str(t[i..].chars().skip(1).collect::<String>().as_str());
                s
            }
            5 | 6 => {
                let i = at(rng, &t);
                let tok = TOKENS[rng.gen_range(0..TOKENS.len())];
                format!("{} {tok} {}", &t[..i], &t[i..])
            }
            7 => {
                // Drop a bracket.
                let brackets: Vec<usize> = t
                    .char_indices()
                    .filter(|(_, c)| "{}()[]".contains(*c))
                    .map(|(i, _)| i)
                    .collect();
                if brackets.is_empty() {
                    t.clone()
                } else {
                    let i = brackets[rng.gen_range(0..brackets.len())];
                    format!("{}{}", &t[..i], &t[i + 1..])
                }
            }
            _ => {
                // Delete or repeat a stretch of text.
                let (a, b) = (at(rng, &t), at(rng, &t));
                let (a, b) = (a.min(b), a.max(b));
                if rng.gen_bool(0.5) {
                    format!("{}{}", &t[..a], &t[b..])
                } else {
                    format!("{}{}{}", &t[..b], &t[a..b], &t[b..])
                }
            }
        };
    }
    t
}

/// The exit code `muster validate` gives a rules text, found through the library:
/// 0 valid, 1 invalid, 2 unreadable.
fn validate_code(name: &str, text: &str) -> i32 {
    let diags = match load_source(name, text, Some(&games_dir())) {
        Ok(loaded) => check_all(&loaded),
        Err(f) => f.diagnostics,
    };
    if diags.iter().any(|d| d.code == "muster::io") {
        2
    } else if diags.iter().any(|d| d.is_error()) {
        1
    } else {
        0
    }
}

// Mangled shipped games never make the checker panic; each is valid or invalid, never
// unreadable.
#[test]
fn mangled_games_never_panic_the_checker() {
    let mut invalid = 0;
    let mut total = 0;
    for (name, text) in shipped_games() {
        for seed in 0..MUTANTS_PER_GAME {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mutant = mutate(&text, &mut rng);
            let checked = std::panic::catch_unwind(|| validate_code(&name, &mutant));
            let code = match checked {
                Ok(code) => code,
                Err(_) => {
                    let keep = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
                        .join(format!("panic_{seed}_{name}"));
                    std::fs::write(&keep, &mutant).unwrap();
                    panic!(
                        "checking {name} mangled with seed {seed} panicked; the text is in {}",
                        keep.display()
                    );
                }
            };
            assert!(
                code == 0 || code == 1,
                "{name} seed {seed}: exit code {code}"
            );
            invalid += code;
            total += 1;
        }
    }
    // The manglings do break files: most are refused.
    assert!(
        invalid * 2 > total,
        "only {invalid} of {total} mangled files refused"
    );
}

// A handful of mangled games through the binary: exit code 0 or 1, no panic message.
#[test]
fn mangled_games_through_the_binary() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("mangled");
    std::fs::create_dir_all(dir.join("lib")).unwrap();
    for lib in std::fs::read_dir(games_dir().join("lib")).unwrap() {
        let lib = lib.unwrap().path();
        std::fs::copy(&lib, dir.join("lib").join(lib.file_name().unwrap())).unwrap();
    }
    for (name, text) in shipped_games() {
        for seed in 1000..1004u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mutant = mutate(&text, &mut rng);
            let file = format!("{seed}_{name}");
            std::fs::write(dir.join(&file), &mutant).unwrap();
            let out = Command::new(env!("CARGO_BIN_EXE_muster"))
                .current_dir(&dir)
                .args(["validate", &file])
                .output()
                .unwrap();
            let code = out.status.code();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                code == Some(0) || code == Some(1),
                "{file}: exit code {code:?}\n{stderr}"
            );
            assert!(!stderr.contains("panicked"), "{file}:\n{stderr}");
            assert_eq!(code, Some(validate_code(&file, &mutant)), "{file}");
        }
    }
}

/// Starts a two-player game of `rules` and takes the first legal action until the game
/// ends, fails, or `moves` actions were taken. The error, if the rules failed.
fn play_first_actions(rules: &str, moves: usize) -> Result<(), EngineError> {
    let compiled = match compile_source("loop.muster", rules, None) {
        Ok(c) => c,
        Err(f) => panic!(
            "{}",
            muster::diagnostic::render(&f.sources, &f.diagnostics, false)
        ),
    };
    let engine = Engine::new(compiled.game);
    let mut s = engine.start(2, 1)?;
    for _ in 0..moves {
        if engine.decider(&s).is_none() {
            break;
        }
        let a = engine.legal_actions(&s)[0].clone();
        engine.apply(&mut s, &a)?;
    }
    Ok(())
}

fn no_progress(e: EngineError) -> String {
    let text = e.to_string();
    assert!(text.contains("make no progress"), "{text}");
    text
}

// A phase whose every step is passed over gives no one a decision, turn after turn: the
// game stops with a rules error instead of running for ever.
#[test]
fn a_phase_whose_steps_are_all_skipped_is_a_rules_error() {
    let rules = r#"
        game "Idle" { players 2  max_turns 1000000 }
        var round = 0
        phase idle {
          turn { one of act if round < 0 }
          after turn { round += 1 }
        }
        action act { do { } }
    "#;
    let err = play_first_actions(rules, 10).unwrap_err();
    assert_eq!(
        no_progress(err),
        "rules error [muster::run::no-progress]: the rules make no progress: 10000 turns passed with nothing to decide, \
         in setting up the game"
    );
}

// An action whose effects run for ever (here, ten billion rounds of loops) stops with a
// rules error.
#[test]
fn an_effect_that_never_ends_is_a_rules_error() {
    let rules = r#"
        game "Busy" { players 2 }
        var tally = 0
        phase busy { turn { one of count_up } }
        action count_up {
          do { for i in 1..100000 { for j in 1..100000 { tally += 1 } } }
        }
    "#;
    let err = play_first_actions(rules, 1).unwrap_err();
    assert_eq!(
        no_progress(err),
        "rules error [muster::run::no-progress]: the rules make no progress: one action ran more than 1000000 effects, \
         in applying `count_up` (at loop.muster:5:16)"
    );
}

// Two triggers that move a card back and forth between their zones set each other off
// for ever: a rules error once they nest `MAX_TRIGGER_DEPTH` deep, not a stack overflow.
// Run on a thread with a small stack (512 KiB, a quarter of a test thread's), so that the
// bound is known to leave room.
#[test]
fn triggers_that_set_each_other_off_are_a_rules_error() {
    let rules = r#"
        game "Ping" { players 2 }
        kind Card { rank: 1..3 }
        deck d of Card { card { rank: 1 } }
        zone a shared public { holds d }
        zone b shared public
        when c enters a { move c to b }
        when c enters b { move c to a }
        phase p { turn { one of go } }
        action go { do { move first(a) to b } }
    "#;
    let err = std::thread::Builder::new()
        .stack_size(512 * 1024)
        .spawn(move || play_first_actions(rules, 1).unwrap_err().to_string())
        .unwrap()
        .join()
        .expect("no stack overflow");
    assert_eq!(
        err,
        format!(
            "rules error [muster::run::no-progress]: the rules make no progress: triggers set one another off more than {} deep, in applying `go` (at loop.muster:10:16)",
            muster::engine::MAX_TRIGGER_DEPTH
        )
    );
}

// A chain of triggers as deep as the bound allows still runs: each card that enters the
// hand draws the next, down a pile of `MAX_TRIGGER_DEPTH` cards.
#[test]
fn a_deep_but_finite_chain_of_triggers_runs() {
    let depth = muster::engine::MAX_TRIGGER_DEPTH;
    let rules = format!(
        r#"
        game "Chain" {{ players 2 }}
        kind Card {{ rank: 1..3 }}
        deck d of Card {{ {depth} x card {{ rank: 1 }} }}
        zone pile shared hidden {{ holds d }}
        zone hand per seat owner
        when c enters hand {{ deal 1 from pile to hand(c.owner) }}
        phase p {{ turn {{ one of go }} }}
        action go {{ require size(pile) > 0  do {{ deal 1 from pile to hand(me) }} }}
    "#
    );
    let compiled = compile_source("chain.muster", &rules, None).unwrap_or_else(|f| {
        panic!(
            "{}",
            muster::diagnostic::render(&f.sources, &f.diagnostics, false)
        )
    });
    let engine = Engine::new(compiled.game);
    let mut s = engine.start(2, 1).unwrap();
    let go = engine.legal_actions(&s)[0].clone();
    std::thread::scope(|t| {
        std::thread::Builder::new()
            .stack_size(512 * 1024)
            .spawn_scoped(t, || engine.apply(&mut s, &go))
            .unwrap()
            .join()
            .expect("no stack overflow")
            .expect("a chain within the bound runs");
    });
    let hand = engine
        .game
        .zones
        .iter()
        .position(|z| z.name == "hand")
        .unwrap();
    let mine = engine.zone_instance(hand as u16, 0, 0) as usize;
    assert_eq!(s.zones[mine].len(), depth as usize);
}

// A turn that never ends stops with a rules error after `MAX_ACTIONS_PER_TURN` actions:
// a `loop` step whose action never ends the turn, and a reaction that starts itself again
// (whose waiting answers would otherwise pile up without bound).
#[test]
fn a_turn_that_never_ends_is_a_rules_error() {
    let looping = r#"
        game "Loop" { players 2 }
        phase p { turn { loop of go } }
        action go { do { } }
    "#;
    let echo = r#"
        game "Echo" { players 2 }
        reaction answer { by opponent one of ping }
        phase p { turn { one of go } }
        action go { do { react answer } }
        action ping { do { react answer } }
    "#;
    let cap = muster::engine::MAX_ACTIONS_PER_TURN as usize;
    for (rules, last) in [
        (looping, "go` (at loop.muster:4:16)"),
        (echo, "ping` (at loop.muster:6:16)"),
    ] {
        let err = play_first_actions(rules, cap + 10).unwrap_err();
        assert_eq!(
            no_progress(err),
            format!("rules error [muster::run::no-progress]: the rules make no progress: one turn went on for {cap} actions without ending, in applying `{last}")
        );
    }
}

/// `10000` as the docs write it: `10,000`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

// The language reference lists every limit under its constant's name, with its value.
#[test]
fn every_limit_is_documented_with_its_value() {
    use muster::check::*;
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/language.md"))
            .unwrap();
    let limits = &doc[doc.find("## 23. Limits").unwrap()..doc.find("## 24.").unwrap()];
    let known: [(&str, u64); 27] = [
        ("MAX_FILE_BYTES", MAX_FILE_BYTES as u64),
        ("MAX_NESTING", muster::syntax::MAX_NESTING as u64),
        ("MAX_DEPTH", muster::syntax::MAX_DEPTH as u64),
        ("MAX_ERRORS", MAX_ERRORS as u64),
        ("MAX_EXPANDED_DEPTH", MAX_EXPANDED_DEPTH as u64),
        ("MAX_EXPANDED_SIZE", MAX_EXPANDED_SIZE),
        ("MAX_FIXED_ITEMS", MAX_FIXED_ITEMS as u64),
        ("MAX_LOCALS", MAX_LOCALS as u64),
        ("MAX_DECLARATIONS", MAX_DECLARATIONS as u64),
        ("MAX_SEATS", MAX_SEATS as u64),
        ("MAX_BOARD_SIDE", MAX_BOARD_SIDE as u64),
        ("MAX_COMPONENTS", MAX_COMPONENTS as u64),
        ("MAX_SLOTS", MAX_SLOTS as u64),
        ("MAX_SHAPE_CELLS", MAX_SHAPE_CELLS as u64),
        ("MAX_AREA_CELLS", MAX_AREA_CELLS as u64),
        ("MAX_ZONE_INSTANCES", MAX_ZONE_INSTANCES as u64),
        ("MAX_RANGE", muster::ir::ops::MAX_RANGE as u64),
        ("MAX_SUBSETS", muster::engine::MAX_SUBSETS as u64),
        ("MAX_WAYS", muster::engine::MAX_WAYS as u64),
        ("MAX_WORK", muster::engine::MAX_WORK),
        (
            "MAX_LEGAL_ACTIONS",
            muster::engine::MAX_LEGAL_ACTIONS as u64,
        ),
        ("MAX_LIST", muster::engine::MAX_LIST as u64),
        ("MAX_TURNS", MAX_TURNS as u64),
        (
            "MAX_TRIGGER_DEPTH",
            muster::engine::MAX_TRIGGER_DEPTH as u64,
        ),
        (
            "MAX_ACTIONS_PER_TURN",
            muster::engine::MAX_ACTIONS_PER_TURN as u64,
        ),
        // Not public; their values are in the rules errors tested above.
        ("MAX_STEPS_PER_ACTION", 1_000_000),
        ("MAX_EMPTY_TURNS", 10_000),
    ];
    for (name, value) in known {
        let rows: Vec<&str> = limits
            .lines()
            .filter(|l| l.contains(&format!("(`{name}`)")))
            .collect();
        assert!(!rows.is_empty(), "docs/language.md does not list {name}");
        for row in rows {
            assert!(
                row.contains(&thousands(value)),
                "{name} is {value}, but the docs say: {row}"
            );
        }
    }
    // And names no constant that is not listed here.
    for part in limits.split("(`MAX_").skip(1) {
        let name = format!("MAX_{}", part.split('`').next().unwrap());
        assert!(
            known.iter().any(|(n, _)| *n == name),
            "{name} is not checked"
        );
    }
    assert_eq!(MAX_BOARD_SIDE * 2, 52, "the docs give 52 ranks");
}

// A board of areas too large to link quickly is refused at the area that goes over,
// and the largest shape allowed is checked at once.
#[test]
fn boards_of_areas_are_bounded() {
    let row = ["o"; 16].join("-");
    let art = [row.as_str(); 4].join("\n|\n");
    let seats: String = (1..=8).map(|i| format!("seat P{i}\n")).collect();
    let areas: String = (1..=3)
        .map(|i| format!("  area a{i} per seat shaped big\n"))
        .collect();
    let rules = format!(
        "game {{ players 2 }}\n{seats}shapes big {{\n  shape wide {{\n{art}\n  }}\n}}\n\
         board {{\n{areas}}}\nphase p {{ turn {{ one of go }} }}\naction go {{ do {{ end turn }} }}\n"
    );
    let err = compile_source("areas.muster", &rules, None).expect_err("too many cells");
    let msgs: Vec<&str> = err.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert!(
        msgs.iter()
            .any(|m| m.contains(&format!("at most {} cells", muster::check::MAX_AREA_CELLS))),
        "{msgs:?}"
    );
}
