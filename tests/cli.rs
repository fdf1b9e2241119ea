//! Black-box tests of the `muster` binary: exit codes, bad input, and the save → replay
//! round trip.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const GAME: &str = "games/army_ants.muster";

fn muster(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_muster"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("muster runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn temp(name: &str, content: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("muster-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, content).unwrap();
    p
}

#[test]
fn validate_accepts_the_game() {
    let out = muster(&["validate", GAME], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "ok: games/army_ants.muster (0 error(s), 0 warning(s))\n"
    );
}

#[test]
fn validate_locates_an_error_and_exits_1() {
    let src = std::fs::read_to_string(GAME).unwrap().replace(
        "choose target in sight(from, orthogonal)",
        "choose target in sigth(from, orthogonal)",
    );
    let p = temp("typo.muster", src.as_bytes());
    // Imports resolve next to the file: copy the library beside it.
    std::fs::create_dir_all(p.parent().unwrap().join("lib")).unwrap();
    std::fs::copy(
        "games/lib/standard_deck.muster",
        p.parent().unwrap().join("lib/standard_deck.muster"),
    )
    .unwrap();
    let out = muster(&["validate", p.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("unknown function `sigth`"), "{err}");
    let line = src.lines().position(|l| l.contains("sigth")).unwrap() + 1;
    let col = src.lines().nth(line - 1).unwrap().find("sigth").unwrap() + 1;
    assert!(
        err.contains(&format!("typo.muster:{line}:{col}]")),
        "the diagnostic gives file:line:column: {err}"
    );
    assert!(err.contains("did you mean `sight`?"), "{err}");
}

#[test]
fn validate_json_gives_one_object_per_diagnostic() {
    let p = temp(
        "two.muster",
        b"game \"T\" { players 2 }\nphase p { turn { one of nope, nada } }\n",
    );
    let out = muster(&["validate", "--format", "json", p.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let items = v.as_array().unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(items[0]["line"], 2);
    assert_eq!(items[0]["code"], "muster::unknown-name");
    assert_eq!(items[1]["message"], "unknown action `nada`");
}

#[test]
fn missing_file_is_an_io_error() {
    let out = muster(&["validate", "no/such/file.muster"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no such file"));
}

#[test]
fn binary_junk_and_truncated_files_are_refused_without_panic() {
    let junk = temp("junk.muster", &[0u8, 159, 146, 150, 255, 0, 1, 2]);
    let out = muster(&["validate", junk.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("not a text file"));

    let full = std::fs::read_to_string(GAME).unwrap();
    let cut = temp("cut.muster", &full.as_bytes()[..full.len() / 2]);
    let out = muster(&["validate", cut.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(!text(&out.stderr).contains("panicked"));
}

#[test]
fn simulate_reports_results() {
    let out = muster(&["simulate", GAME, "--games", "40", "--seed", "1"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    for word in ["Red", "Black", "draws", "capped", "length", "branching"] {
        assert!(report.contains(word), "{report}");
    }
    let json = muster(
        &[
            "simulate", GAME, "--games", "40", "--seed", "1", "--json", "--jobs", "1",
        ],
        "",
    );
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let wins: u64 = v["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["wins"].as_u64().unwrap())
        .sum();
    assert_eq!(
        wins + v["draws"].as_u64().unwrap() + v["capped"].as_u64().unwrap(),
        40
    );
    // The same seed gives the same results whatever the number of threads.
    let again = muster(
        &[
            "simulate", GAME, "--games", "40", "--seed", "1", "--json", "--jobs", "2",
        ],
        "",
    );
    let w: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(v["seats"], w["seats"]);
    assert_eq!(v["length"], w["length"]);
}

#[test]
fn wrong_player_count_and_unknown_agent_are_usage_errors() {
    let out = muster(&["simulate", GAME, "--players", "3"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("for 2 players, not 3"));
    let out = muster(&["play", GAME, "--agents", "human,wizard"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown agent `wizard`"));
}

#[test]
fn play_reprompts_on_bad_input_and_quits_cleanly() {
    let out = muster(
        &["play", GAME, "--seed", "3"],
        "march z9 n 1\nfly a1\nmarch b1 n 1\n9999\nquit\n",
    );
    assert_eq!(out.status.code(), Some(0));
    let t = text(&out.stdout);
    assert!(
        t.contains("cannot read `z9` as the `run` of `march`"),
        "{t}"
    );
    assert!(t.contains("there is no action `fly`"), "{t}");
    assert!(
        t.contains("illegal: `1` is not one of the choices for `steps` here"),
        "{t}"
    );
    assert!(t.contains("there is no move 9999"), "{t}");
    assert!(t.contains("game left unfinished after 0 action(s)"), "{t}");
}

#[test]
fn a_saved_game_replays_to_the_same_final_position() {
    let log = temp("agents.log", b"");
    let out = muster(
        &[
            "play",
            GAME,
            "--agents",
            "random,random",
            "--seed",
            "11",
            "--save",
            log.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let played = text(&out.stdout);
    let final_board = played
        .rsplit_once("plays ")
        .unwrap()
        .1
        .split_once('\n')
        .unwrap()
        .1
        .split("game over")
        .next()
        .unwrap()
        .to_string();
    let replay = muster(&["replay", GAME, log.to_str().unwrap()], "");
    assert_eq!(replay.status.code(), Some(0), "{}", text(&replay.stderr));
    let replayed = text(&replay.stdout);
    assert!(
        replayed.starts_with(final_board.trim_end()),
        "play ended with\n{final_board}\nreplay printed\n{replayed}"
    );
    let n = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("Red:") || l.starts_with("Black:"))
        .count();
    assert!(replayed.contains(&format!("{n} action(s) replayed")));
}

#[test]
fn a_corrupt_log_names_the_first_bad_action() {
    let log = temp("bad.log", b"rules army_ants.muster\nplayers 2\nseed 3\nRed: march b1 e 1\nBlack: swap a5 a6\nRed: attack a1 a8\n");
    let out = muster(&["replay", GAME, log.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("action 3 (line 6) `attack a1 a8` does not replay"),
        "{err}"
    );
    let junk = temp("junk.log", b"seed banana\n");
    let out = muster(&["replay", GAME, junk.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("`seed` needs a whole number"));
}

#[test]
fn moves_lists_actions_that_parse_back() {
    let out = muster(&["moves", GAME, "--seed", "3"], "");
    assert_eq!(out.status.code(), Some(0));
    let lines: Vec<String> = text(&out.stdout).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 35);
    assert_eq!(lines[0], "march b1 e 1");
    assert!(lines
        .iter()
        .all(|l| l.starts_with("march ") || l.starts_with("swap ") || l.starts_with("favor ")));
}

#[test]
fn dump_prints_ron_that_reads_back() {
    let out = muster(&["dump", GAME], "");
    assert_eq!(out.status.code(), Some(0));
    let game: muster::ir::Game =
        ron::from_str(&text(&out.stdout)).expect("the dump is RON of the IR");
    assert_eq!(game.title, "Army Ants");
    assert_eq!(game.components.len(), 52);
}
