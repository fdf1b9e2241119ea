//! Variant lists (`--variant a,b`): variants applied together, in order, on the small
//! rules file `tests/variant_lists.muster` (its scenarios check what each combination
//! plays like), a conflict between two variants as a located error, unknown or repeated
//! names, and saved games made with a list that replay.

mod common;

use common::binary::{muster, text};
use muster::check::compile_source;
use muster::diagnostic::render;
use std::path::{Path, PathBuf};

fn rules_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/variant_lists.muster")
}

fn compile(list: &str) -> Result<muster::check::Compiled, muster::check::Failed> {
    let text = std::fs::read_to_string(rules_path()).unwrap();
    compile_source("variant_lists.muster", &text, Some(list))
}

// Each variant of a list changes what it changes, in either order, checked by scenarios.
#[test]
fn the_scenarios_of_variant_lists_pass() {
    let report = muster::scenario::run_file(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/variant_lists.scenarios"),
    );
    assert!(
        report.ok(),
        "{}",
        render(&report.sources, &report.failures, false)
    );
    assert_eq!(report.passed(), 8);
}

// The game records the list as given, names trimmed; the seat order follows it.
#[test]
fn the_list_is_applied_in_order_and_recorded() {
    let c = compile(" east , west ").unwrap();
    assert_eq!(c.game.variant.as_deref(), Some("east,west"));
    let seats: Vec<&str> = c.game.seats.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(seats, ["North", "South", "East", "West"]);
    assert_eq!((c.game.min_players, c.game.max_players), (3, 3));
    let c = compile("west,east").unwrap();
    let seats: Vec<&str> = c.game.seats.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(seats, ["North", "South", "West", "East"]);
    // A single variant is what it always was.
    assert_eq!(
        compile("double").unwrap().game.variant.as_deref(),
        Some("double")
    );
}

// Two variants that change the same declaration differently are refused, at both.
#[test]
fn a_conflict_is_a_located_error_at_both_declarations() {
    let f = compile("double,triple").unwrap_err();
    let errors: Vec<_> = f.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert_eq!(
        errors.len(),
        1,
        "{}",
        render(&f.sources, &f.diagnostics, false)
    );
    let d = errors[0];
    assert_eq!(d.code, "muster::variant-conflict");
    assert_eq!(
        d.message,
        "variants `double` and `triple` both change def `step`"
    );
    assert_eq!(f.sources.text(d.span), "def step = 3");
    let (span, label) = d.related.as_deref().expect("points at the first too");
    assert_eq!(f.sources.text(*span), "def step = 2");
    assert!(label.contains("`double`"), "{label}");
    let help = d.help.as_deref().unwrap();
    assert!(
        help.contains("write one variant that combines `double` and `triple`"),
        "{help}"
    );
    assert!(help.contains("variant_lists.muster:"), "{help}");
    let shown = render(&f.sources, &f.diagnostics, false);
    assert!(
        shown.contains("`double` changes def `step` here"),
        "{shown}"
    );
    assert!(
        shown.contains("`triple` changes def `step` here"),
        "{shown}"
    );
    // In the other order, the other one is the second.
    let f = compile("triple,double").unwrap_err();
    assert_eq!(f.sources.text(f.diagnostics[0].span), "def step = 2");
}

// A game property given two values is a conflict; given the same value, it is not.
#[test]
fn header_properties_conflict_only_with_another_value() {
    assert!(compile("east,west").is_ok());
    let f = compile("east,four").unwrap_err();
    let codes: Vec<&str> = f.diagnostics.iter().map(|d| d.code).collect();
    assert!(codes.contains(&"muster::variant-conflict"), "{codes:?}");
    let d = f
        .diagnostics
        .iter()
        .find(|d| d.message.contains("game property `players`"))
        .expect("the players conflict");
    assert!(d.message.contains("`east` and `four`"), "{}", d.message);
    // `seat East` is declared by both, the same way: no conflict of its own.
    assert!(!f
        .diagnostics
        .iter()
        .any(|d| d.message.contains("seat `East`")));
}

// An unknown name gets the unknown-variant error with the closest name; a repeated one
// and an empty one are refused too.
#[test]
fn unknown_repeated_and_empty_names_are_refused() {
    let f = compile("double,tripel").unwrap_err();
    let d = &f.diagnostics[0];
    assert_eq!(d.code, "muster::unknown-variant");
    assert_eq!(d.message, "unknown variant `tripel`");
    assert!(d
        .help
        .as_deref()
        .unwrap()
        .starts_with("did you mean `triple`?"));
    let f = compile("double,double").unwrap_err();
    assert_eq!(f.diagnostics[0].code, "muster::unknown-variant");
    assert!(f.diagnostics[0].message.contains("named twice"));
    let f = compile("double,").unwrap_err();
    assert!(f.diagnostics[0].message.contains("empty name"));
}

// The shipped Army Ants variants conflict: both replace the setup, the `deployment`
// phase and the `deploy` action. The command line refuses them with exit code 2.
#[test]
fn the_army_ants_deployments_conflict_on_the_command_line() {
    for cmd in ["dump", "perft", "bench", "simulate"] {
        let mut args = vec![
            cmd,
            "games/army_ants.muster",
            "--variant",
            "minor_deployment,total_deployment",
        ];
        if cmd == "perft" {
            args.extend(["--depth", "1"]);
        }
        let out = muster(&args, "");
        assert_eq!(out.status.code(), Some(2), "{cmd}: {}", text(&out.stderr));
        let err = text(&out.stderr);
        assert!(err.contains("muster::variant-conflict"), "{cmd}: {err}");
        assert!(err.contains("both change the setup"), "{err}");
        assert!(err.contains("both change phase `deployment`"), "{err}");
        assert!(err.contains("both change action `deploy`"), "{err}");
    }
    // `validate --variant` checks the combination too, and says it is invalid.
    let out = muster(
        &[
            "validate",
            "games/army_ants.muster",
            "--variant",
            "minor_deployment,total_deployment",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("(3 error(s)"),
        "{}",
        text(&out.stdout)
    );
    // Each alone still validates and dumps.
    let out = muster(&["validate", "games/army_ants.muster"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = muster(
        &[
            "dump",
            "games/army_ants.muster",
            "--variant",
            "minor_deployment",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // A misspelt name in a list: exit code 2 and the closest name.
    let out = muster(
        &[
            "dump",
            "games/army_ants.muster",
            "--variant",
            "minor_deploy,total_deployment",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("did you mean `minor_deployment`?"));
}

// A game played with a list saves the list, and its log replays under it (moves and
// replay read it); `--variant a, b` is saved as `a,b`.
#[test]
fn a_game_saved_with_a_list_replays() {
    let rules = rules_path();
    let rules = rules.to_str().unwrap();
    let (saved, replay) = saved_and_replayed(rules, "double, head_start", "list.log");
    assert!(saved.contains("\nvariant double,head_start\n"), "{saved}");
    assert!(replay.contains("wins"), "{replay}");
    // A game with a single variant saves and replays as before.
    let (saved, _) = saved_and_replayed(rules, "double", "single.log");
    assert!(saved.contains("\nvariant double\n"), "{saved}");
}

/// Plays a seeded game between random agents with `variant`, saved to a log named
/// `name`; its log's text and what `replay` printed of it (both commands must succeed).
fn saved_and_replayed(rules: &str, variant: &str, name: &str) -> (String, String) {
    let log = common::binary::temp_path("variant_lists", name);
    let _ = std::fs::remove_file(&log);
    let log = log.to_str().unwrap();
    let out = muster(
        &[
            "play",
            rules,
            "--variant",
            variant,
            "--agents",
            "random,random",
            "--seed",
            "3",
            "--save",
            log,
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let saved = std::fs::read_to_string(log).unwrap();
    let replay = muster(&["replay", rules, log], "");
    assert_eq!(replay.status.code(), Some(0), "{}", text(&replay.stderr));
    (saved, text(&replay.stdout))
}

// `simulate --compare` with a list: the list against one of its variants, and against
// the base game (naming the same file).
#[test]
fn simulate_compares_a_list() {
    let rules = rules_path();
    let rules = rules.to_str().unwrap();
    for other in ["double", rules] {
        let out = muster(
            &[
                "simulate",
                rules,
                "--games",
                "4",
                "--variant",
                "double,head_start",
                "--compare",
                other,
            ],
            "",
        );
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let report = text(&out.stdout);
        assert!(report.contains("[variant double,head_start]"), "{report}");
    }
}
