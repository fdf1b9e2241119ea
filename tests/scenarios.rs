//! The shipped games' rulings, written as scenarios (`games/scenarios/GAME/*.scenarios`),
//! run through the same runner as `muster test`; and the runner's own behaviour: a failing
//! scenario is reported at its line with what was expected and what was found.

mod common;

use common::binary::{muster, temp_path, text};
use muster::scenario;

/// Runs every scenario file under `games/scenarios/GAME` and fails with the rendered
/// diagnostics of every failing scenario.
fn run_game(game: &str) {
    let dir = common::repo_path(&format!("games/scenarios/{game}"));
    let files = scenario::files_under(&[dir]).unwrap();
    assert!(!files.is_empty(), "no scenario files for {game}");
    let mut failures = String::new();
    let mut count = 0;
    for f in &files {
        let report = scenario::run_file(f);
        count += report.results.len();
        assert!(
            !report.results.is_empty() || !report.ok(),
            "{}: no scenarios",
            f.display()
        );
        if !report.ok() {
            failures.push_str(&muster::diagnostic::render(
                &report.sources,
                &report.failures,
                false,
            ));
        }
    }
    assert!(failures.is_empty(), "{game}: scenarios fail\n{failures}");
    assert!(count > 0);
}

#[test]
fn army_ants_rulings() {
    run_game("army_ants");
}

#[test]
fn battalion_chips_rulings() {
    run_game("battalion_chips");
}

#[test]
fn battaglione_rulings() {
    run_game("battaglione");
}

#[test]
fn battle_line_rulings() {
    run_game("battle_line");
}

#[test]
fn battalion_emperor_rulings() {
    run_game("battalion_emperor");
}

#[test]
fn breakthrough_rulings() {
    run_game("breakthrough");
}

#[test]
fn chess_rulings() {
    run_game("chess");
}

#[test]
fn connect_four_rulings() {
    run_game("connect_four");
}

#[test]
fn homeward_rulings() {
    run_game("homeward");
}

#[test]
fn oh_hell_rulings() {
    run_game("oh_hell");
}

#[test]
fn goofspiel_rulings() {
    run_game("goofspiel");
}

/// A scenario file in a temporary folder, its game the shipped Army Ants.
fn scenario_file(name: &str, body: &str) -> String {
    scenario_file_of("army_ants", "players 2 seed 1", name, body)
}

/// A scenario file in a temporary folder for a shipped game (`games/GAME.muster`), with the
/// file's settings (`players 2 seed 1`).
fn scenario_file_of(game: &str, settings: &str, name: &str, body: &str) -> String {
    let path = temp_path("scenarios", name);
    let rules = common::repo_path(&format!("games/{game}.muster"));
    std::fs::write(
        &path,
        format!("game \"{}\" {settings}\n{body}", rules.display()),
    )
    .unwrap();
    path.display().to_string()
}

// Each kind of step that does not hold is reported at its line, with the expected and the
// found; the other scenarios still run, and the exit code is 1.
#[test]
fn failing_steps_say_what_was_expected_and_found() {
    let position =
        "position { rest in box phase battle turn Red at b3 6R at b6 6B at a1 QR at e8 QB }";
    let f = scenario_file(
        "failing.scenarios",
        &format!(
            r#"
scenario "wrong cell" {{ {position} play "attack b3 b6" at b3 6R }}
scenario "wrong reason" {{ {position} illegal "attack b3 b4" because "never" }}
scenario "legal is refused" {{ {position} illegal "attack b3 b6" }}
scenario "not listed" {{ {position} legal "attack b3 b7" }}
scenario "wrong count" {{ {position} actions "attack" count 5 }}
scenario "wrong list" {{ {position} actions "attack" ["attack b3 b6" "attack b3 b5"] }}
scenario "wrong zone" {{ {position} play "attack b3 b6" in fallen@Red [5R] }}
scenario "wrong turn" {{ {position} turn Black }}
scenario "wrong outcome" {{ {position} outcome win Red }}
scenario "holds" {{ {position} legal "attack b3 b6" outcome none }}
"#
        ),
    );
    let out = muster(&["test", &f], "");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    for want in [
        "× expected at b3 `6R`, found `.`",
        "× `attack b3 b4` is refused, but not for this reason: expected a reason containing \"never\"",
        "× `attack b3 b6` is legal here",
        "× `attack b3 b7` is not legal here",
        "× expected 5 listed action(s), found 1",
        "help: not listed: \"attack b3 b5\"",
        "× expected fallen@Red to hold [5R], found [6R]",
        "× expected the turn of `Black`, found `Red`",
        "× expected outcome `win Red`, found `none`",
        "(1 of 10 scenario(s) passed)",
        "10 scenario(s) in 1 file(s): 1 passed, 9 failed",
    ] {
        assert!(err.contains(want), "missing {want:?} in\n{err}");
    }
    // Located: the file, line and column of the step that does not hold.
    assert!(err.contains("failing.scenarios:3:"), "{err}");
}

// A file that cannot run (a syntax error, a rules file that does not compile, an unknown
// name) is reported, located, and fails the run; a path with no scenario files is a usage
// error.
#[test]
fn files_that_cannot_run_are_reported() {
    let f = scenario_file("syntax.scenarios", "scenario \"x\" { jump \"a\" }\n");
    let out = muster(&["test", &f], "");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("muster::scenario-syntax"), "{err}");
    assert!(err.contains("unexpected `jump`"), "{err}");

    let f = scenario_file(
        "names.scenarios",
        "scenario \"x\" { position { rest in nowhere } }\nscenario \"y\" { at z9 . }\n",
    );
    let err = text(&muster(&["test", &f], "").stderr);
    assert!(err.contains("no zone `nowhere`"), "{err}");
    assert!(err.contains("no cell `z9` on the board"), "{err}");

    let path = temp_path("scenarios", "broken.scenarios");
    std::fs::write(&path, "game \"missing.muster\"\nscenario \"x\" { }\n").unwrap();
    let out = muster(&["test", path.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("the rules file `"),
        "{}",
        text(&out.stderr)
    );

    let empty = temp_path("scenarios-empty", "x.txt");
    std::fs::write(&empty, "").unwrap();
    let out = muster(&["test", empty.parent().unwrap().to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
}

// `--format json`: one object with each file's scenarios and located failures.
#[test]
fn json_lists_scenarios_and_failures() {
    let f = scenario_file(
        "json.scenarios",
        "scenario \"start\" { phase rally decider Red }\nscenario \"bad\" { decider Black }\n",
    );
    let out = muster(&["test", &f, "--format", "json"], "");
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["passed"], 1);
    assert_eq!(v["failed"], 1);
    let file = &v["files"][0];
    assert_eq!(file["scenarios"][0]["name"], "start");
    assert_eq!(file["scenarios"][0]["passed"], true);
    assert_eq!(file["failures"][0]["line"], 3);
    assert_eq!(
        file["failures"][0]["message"],
        "expected decider `Black`, found `Red`"
    );
}

// `perft` in a scenario and on the command line count the same tree.
#[test]
fn perft_counts_the_legal_action_tree() {
    let e = muster::engine::Engine::new(
        common::compile_file_or_panic("games/army_ants.muster", None).game,
    );
    let s = e.start(2, 1).unwrap();
    let one = e.legal_actions(&s).len() as u64;
    let two = e.perft(&s, 2).unwrap();
    assert!(two > one, "{one} {two}");
    let out = muster(
        &[
            "perft",
            common::repo_path("games/army_ants.muster")
                .to_str()
                .unwrap(),
            "--depth",
            "2",
            "--seed",
            "1",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), format!("perft(2) = {two}\n"));
    let f = scenario_file(
        "perft.scenarios",
        &format!("scenario \"p\" {{ perft 1 = {one} perft 2 = {two} }}\nscenario \"q\" {{ perft 2 = {} }}\n", two + 1),
    );
    let err = text(&muster(&["test", &f], "").stderr);
    assert!(
        err.contains(&format!(
            "expected {} leaves 2 action(s) deep, found {two}",
            two + 1
        )),
        "{err}"
    );
    assert!(err.contains("1 passed, 1 failed"), "{err}");
}

/// Copies the files of a folder (not its subfolders: the games' `lib/` has none).
fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let p = entry.unwrap().path();
        if p.is_file() {
            std::fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
        }
    }
}

/// The text of docs/tutorial.md from `start` up to the next `end` after it.
fn tutorial_text(start: &str, end: &str) -> String {
    let tutorial = std::fs::read_to_string(common::repo_path("docs/tutorial.md")).unwrap();
    let from = tutorial
        .find(start)
        .unwrap_or_else(|| panic!("the tutorial has no `{start}`"));
    let len = tutorial[from..]
        .find(end)
        .unwrap_or_else(|| panic!("nothing ends the tutorial's `{start}`"));
    tutorial[from..from + len].to_string()
}

// The tutorial's ruling and its scenario, as docs/tutorial.md gives them: the scenario
// passes on the changed game and fails, at its `illegal` step, on the original.
#[test]
fn the_tutorials_scenario_pins_its_ruling() {
    let block = &tutorial_text("// Strict attacks", "```");
    let dir = temp_path("tutorial", "games");
    copy_dir(&common::repo_path("games/lib"), &dir.join("lib"));
    let original = std::fs::read_to_string(common::repo_path("games/army_ants.muster")).unwrap();
    let strict = original
        .replace("value(foe) <= value(att)\n", "value(foe) < value(att)\n")
        .replace(
            "\"a card may attack only an enemy card of equal or lower value, or the Queen\"",
            "\"a card may attack only a lower enemy card, or the Queen\"",
        );
    assert_ne!(strict, original, "the tutorial's change no longer applies");
    std::fs::write(dir.join("my_ants.muster"), &strict).unwrap();
    std::fs::write(dir.join("army_ants.muster"), &original).unwrap();
    let file = dir.join("my_ants.scenarios");
    std::fs::write(&file, block).unwrap();
    let out = muster(&["test", file.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("(2 of 2 scenario(s) passed)"));
    std::fs::write(
        &file,
        block.replace("game \"my_ants.muster\"", "game \"army_ants.muster\""),
    )
    .unwrap();
    let out = muster(&["test", file.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("× `attack b3 b4` is legal here"), "{err}");
    assert!(err.contains("my_ants.scenarios:14:11]"), "{err}");
}

// `from`: a scenario starts where an earlier one ended; one that names no earlier
// scenario, or one that failed, is reported at the name.
#[test]
fn a_scenario_starts_where_another_ended() {
    let position =
        "position { rest in box phase battle turn Red at b3 6R at b5 5B at a1 QR at e8 QB }";
    let f = scenario_file(
        "from.scenarios",
        &format!(
            r#"
scenario "opening" {{ {position} play "attack b3 b5" }}
scenario "after it" from "opening" {{ at b5 6R turn Black }}
scenario "after that" from "after it" {{ in fallen@Black [5B] }}
scenario "broken" {{ {position} at b3 . }}
scenario "after a failure" from "broken" {{ turn Red }}
scenario "from nowhere" from "no such" {{ turn Red }}
"#
        ),
    );
    let out = muster(&["test", &f], "");
    let err = text(&out.stderr);
    assert!(err.contains("(3 of 6 scenario(s) passed)"), "{err}");
    assert!(
        err.contains("scenario \"broken\" did not hold, so this one cannot start where it ended"),
        "{err}"
    );
    assert!(
        err.contains("no scenario \"no such\" comes before this one"),
        "{err}"
    );
}

// Variables of a seat and of the piece on a cell are read, and set in a position; a
// piece's variable on an empty cell is reported.
#[test]
fn seat_and_piece_variables() {
    let f = scenario_file_of(
        "battle_line",
        "seed 1",
        "vars.scenarios",
        r#"scenario "moved" {
  var a1.moved = false
  play "activate a1 j1" "go b3"
  var b3.moved = true
  var j1.used = 1
  var White.first_turn = true
}
scenario "set" {
  position { var a1.moved = true  var White.first_turn = false }
  var a1.moved = true
  var White.first_turn = false
}
scenario "empty" { var c5.moved = false }
scenario "wrong" { var a1.moved = true }
"#,
    );
    let err = text(&muster(&["test", &f], "").stderr);
    assert!(err.contains("(2 of 4 scenario(s) passed)"), "{err}");
    assert!(
        err.contains("no card or piece on c5, so no `moved` of one"),
        "{err}"
    );
    assert!(
        err.contains("expected a1.moved `true`, found `false`"),
        "{err}"
    );
}

// The turn count is read, and set in a position: the length cap counts from it.
#[test]
fn the_turn_count() {
    let f = scenario_file(
        "turns.scenarios",
        r#"
scenario "counted" { turns 0 play "march b1 e 1" turns 1 turn Black }
scenario "capped" { position { turns 399 } play "march b1 e 1" outcome capped }
scenario "wrong" { turns 3 }
"#,
    );
    let err = text(&muster(&["test", &f], "").stderr);
    assert!(err.contains("(2 of 3 scenario(s) passed)"), "{err}");
    assert!(err.contains("expected turns `3`, found `0`"), "{err}");
}

/// Runs a game's scenario folder against a copy of the games in which `from` is replaced
/// by `to` in `rules`: the failures' rendered text (empty if every scenario holds).
fn scenarios_against_mutant(game: &str, rules: &str, from: &str, to: &str) -> String {
    let dir = temp_path("mutants", game).with_extension("d");
    copy_dir(&common::repo_path("games"), &dir);
    copy_dir(&common::repo_path("games/lib"), &dir.join("lib"));
    let scenarios = dir.join("scenarios").join(game);
    copy_dir(
        &common::repo_path(&format!("games/scenarios/{game}")),
        &scenarios,
    );
    let text = std::fs::read_to_string(dir.join(rules)).unwrap();
    assert_eq!(text.matches(from).count(), 1, "{rules}: `{from}` once");
    std::fs::write(dir.join(rules), text.replace(from, to)).unwrap();
    let mut failures = String::new();
    for f in scenario::files_under(&[scenarios]).unwrap() {
        let r = scenario::run_file(&f);
        failures.push_str(&muster::diagnostic::render(&r.sources, &r.failures, false));
    }
    failures
}

// A ruling changed in a rules file makes a scenario fail: three rulings, three games.
#[test]
fn a_changed_ruling_makes_a_scenario_fail() {
    // Army Ants: equal cards trade (an attack on an equal card is legal).
    let f = scenarios_against_mutant(
        "army_ants",
        "army_ants.muster",
        "value(foe) <= value(att)",
        "value(foe) < value(att)",
    );
    assert!(f.contains("`attack b3 b6` is not legal here"), "{f}");
    // The emperor game: a Queen passing over an occupied cell counts 8.
    let f = scenarios_against_mutant(
        "battalion_emperor",
        "battalion_emperor.muster",
        "let base = if queen(a) and dest not in targets(from, 0) then 8 else worth(a)",
        "let base = worth(a)",
    );
    assert!(f.contains("× expected dead@S to hold [QS]"), "{f}");
    // Battle Line: at most 23 moves in a player's first turn.
    let f = scenarios_against_mutant(
        "battle_line",
        "battle_line.muster",
        "moves_made < 23",
        "moves_made < 24",
    );
    assert!(f.contains("is legal here"), "{f}");
}

// A zone's size is checked (whichever cards it holds), and an empty list is `-`.
#[test]
fn zone_sizes_and_empty_lists() {
    let f = scenario_file_of(
        "battaglione",
        "players 2 seed 1",
        "sizes.scenarios",
        "scenario \"dealt\" { size hand@P1 = 5 size hand@P2 = 5 var targets = - }\n\
         scenario \"wrong\" { size hand@P1 = 4 }\n\
         scenario \"set\" { position { size hand@P1 = 4 } }\n",
    );
    let err = text(&muster(&["test", &f], "").stderr);
    assert!(err.contains("(1 of 3 scenario(s) passed)"), "{err}");
    assert!(
        err.contains("expected size of hand@P1 `4`, found `5`"),
        "{err}"
    );
    assert!(
        err.contains("a zone's size follows from what it holds"),
        "{err}"
    );
}

// A seat's score, and who decides as each seat's view says.
#[test]
fn scores_and_the_decider_as_seen() {
    let f = scenario_file(
        "score.scenarios",
        r#"
scenario "start" { sees Red decider Red sees Black decider Red score Red = 90 }
scenario "wrong" { sees Black decider Black }
scenario "wrong score" { score Red = 1 }
"#,
    );
    let err = text(&muster(&["test", &f], "").stderr);
    assert!(err.contains("(1 of 3 scenario(s) passed)"), "{err}");
    assert!(
        err.contains("Black sees `Red` deciding, not `Black`"),
        "{err}"
    );
    assert!(
        err.contains("expected score of Red `1`, found `90`"),
        "{err}"
    );
}

// The tutorial's own game (docs/tutorial.md, section 8): every rules or scenario text the
// section shows is in its files, the rules file validates (alone and with both variants),
// its scenarios pass, and a seeded simulation between two agents finishes uncapped.
#[test]
fn the_tutorials_own_game_validates_passes_and_simulates() {
    let section = &tutorial_text(
        "## 8. Write a game that is not in the box",
        "## Where to go",
    );
    let rules_path = common::repo_path("docs/tutorial/snake_race.muster");
    let scenarios_path = common::repo_path("docs/tutorial/snake_race.scenarios");
    let rules = std::fs::read_to_string(&rules_path).unwrap();
    let scenarios = std::fs::read_to_string(&scenarios_path).unwrap();
    let mut shown = 0;
    for block in section.split("```muster\n").skip(1) {
        // Each paragraph of a block (a declaration, a scenario) is in one of the files.
        for part in block[..block.find("```").unwrap()].split("\n\n") {
            assert!(
                rules.contains(part) || scenarios.contains(part),
                "the tutorial shows text its files do not hold:\n{part}"
            );
        }
        shown += 1;
    }
    assert!(shown >= 6, "section 8 shows {shown} blocks of rules");
    let rules_arg = rules_path.to_str().unwrap();
    for variant in [None, Some("exact_home,long_die")] {
        let mut args = vec!["validate", rules_arg];
        if let Some(v) = variant {
            args.extend(["--variant", v]);
        }
        let out = muster(&args, "");
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
        assert!(said.contains("(0 error(s), 0 warning(s))"), "{said}");
    }
    let out = muster(&["test", scenarios_path.to_str().unwrap()], "");
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(said.contains("(7 of 7 scenario(s) passed)"), "{said}");
    let out = muster(
        &[
            "simulate",
            rules_arg,
            "--games",
            "40",
            "--seed",
            "1",
            "--agents",
            "greedy,random",
        ],
        "",
    );
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        report.contains("40 games, 2 players (greedy vs random)"),
        "{report}"
    );
    assert!(report.contains("capped         0"), "{report}");
}
