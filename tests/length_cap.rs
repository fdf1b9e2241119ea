//! The length cap is for automated play: a game with a person at a seat is never capped
//! unless `--max-turns` says so, and `replay` replays a log however long it is (a log
//! records the cap its game was played under, if any).

mod common;

use common::binary::{muster, text};

fn temp(name: &str) -> String {
    common::binary::temp_path("cap", name)
        .to_str()
        .unwrap()
        .to_string()
}

const GAME: &str = "games/army_ants.muster";

// Two people who always play their first listed move in Army Ants march to and fro for
// ever: past the rules file's cap of 400 turns, the game goes on.
#[test]
fn a_game_between_people_is_never_capped() {
    let log = temp("people.log");
    let turns = 450;
    let input = "1\n\n".repeat(turns);
    let out = muster(
        &[
            "play",
            GAME,
            "--agents",
            "human,human",
            "--seed",
            "1",
            "--save",
            &log,
        ],
        &input,
    );
    assert_eq!(out.status.code(), Some(0));
    let shown = text(&out.stdout);
    assert!(
        shown.contains(&format!("game left unfinished after {turns} action(s)")),
        "{}",
        &shown[shown.len().saturating_sub(400)..]
    );
    assert!(!shown.contains("capped"));
    let saved = std::fs::read_to_string(&log).unwrap();
    assert!(!saved.contains("max_turns"), "{saved}");
    // It replays to the end of the log, past action 401.
    let replay = muster(&["replay", GAME, &log], "");
    assert_eq!(replay.status.code(), Some(0), "{}", text(&replay.stderr));
    assert!(text(&replay.stdout).contains(&format!("{turns} action(s) replayed: still in play")));
    // With --max-turns, a person's game is capped as asked.
    let out = muster(
        &[
            "play",
            GAME,
            "--agents",
            "human,human",
            "--seed",
            "1",
            "--max-turns",
            "10",
        ],
        &input,
    );
    assert!(
        text(&out.stdout).contains("game over: stopped by the length cap"),
        "{}",
        text(&out.stdout)
    );
}

// A game among agents is capped, its log says so, and its replay ends capped too.
#[test]
fn a_game_among_agents_is_capped_and_replays_capped() {
    let log = temp("agents.log");
    let out = muster(
        &[
            "play",
            GAME,
            "--agents",
            "random,random",
            "--seed",
            "1",
            "--max-turns",
            "6",
            "--save",
            &log,
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(std::fs::read_to_string(&log)
        .unwrap()
        .contains("max_turns 6\n"));
    let replay = muster(&["replay", GAME, &log], "");
    let shown = text(&replay.stdout);
    assert!(
        shown.contains("action(s) replayed: stopped by the length cap"),
        "{shown}"
    );
}
