//! Text play's session: a fresh seed when none is given (printed, so the game can be played
//! again), `--resume` to go on with a saved game, and `hint` at the prompt.

mod common;

use common::binary::{muster, text};

fn temp(name: &str) -> String {
    common::binary::temp_path("session", name)
        .to_str()
        .unwrap()
        .to_string()
}

const GAME: &str = "games/army_ants.muster";

/// The seed a game printed, from its first line.
fn printed_seed(out: &str) -> u64 {
    let first = out.lines().next().unwrap();
    let rest = first.strip_prefix("seed ").expect(first);
    rest.split_whitespace().next().unwrap().parse().unwrap()
}

// Without --seed each game is a new deal, and the seed it prints plays it again.
#[test]
fn a_game_without_a_seed_is_new_and_says_how_to_repeat_it() {
    let args = ["play", GAME, "--agents", "human,random"];
    let a = text(&muster(&args, "quit\n").stdout);
    let b = text(&muster(&args, "quit\n").stdout);
    let (sa, sb) = (printed_seed(&a), printed_seed(&b));
    assert_ne!(sa, sb);
    let board = |s: &str| s.lines().skip(1).take(12).collect::<Vec<_>>().join("\n");
    let again = text(
        &muster(
            &[
                "play",
                GAME,
                "--agents",
                "human,random",
                "--seed",
                &sa.to_string(),
            ],
            "quit\n",
        )
        .stdout,
    );
    assert_eq!(
        board(&a),
        again.lines().take(12).collect::<Vec<_>>().join("\n")
    );
    assert!(!again.starts_with("seed "), "a given seed is not announced");
}

// --resume goes on from the end of a saved game, with its seed, and saves to it.
#[test]
fn a_saved_game_resumes_where_it_stopped() {
    let log = temp("resume.log");
    let first = muster(
        &[
            "play",
            GAME,
            "--agents",
            "human,random",
            "--seed",
            "8",
            "--save",
            &log,
        ],
        "1\n2\nquit\n",
    );
    assert_eq!(first.status.code(), Some(0));
    let saved = std::fs::read_to_string(&log).unwrap();
    let moves = |t: &str| {
        t.lines()
            .filter(|l| l.starts_with("Red:") || l.starts_with("Black:"))
            .count()
    };
    assert_eq!(moves(&saved), 4);
    let second = muster(
        &["play", GAME, "--agents", "human,random", "--resume", &log],
        "1\nquit\n",
    );
    assert_eq!(second.status.code(), Some(0), "{}", text(&second.stderr));
    let shown = text(&second.stdout);
    assert!(shown.starts_with("resuming after 4 action(s)\n"), "{shown}");
    assert!(shown.contains("turn 5 · Red to decide"), "{shown}");
    let resumed = std::fs::read_to_string(&log).unwrap();
    assert!(resumed.starts_with(&saved), "{resumed}");
    assert_eq!(moves(&resumed), 6);
    // The same game from its seed gives the same moves.
    let replay = muster(&["replay", GAME, &log], "");
    assert!(text(&replay.stdout).contains("6 action(s) replayed"));
    // A resumed game takes its seed, players and variant from the log.
    let clash = muster(&["play", GAME, "--resume", &log, "--seed", "3"], "");
    assert_eq!(clash.status.code(), Some(2));
}

// `hint` answers with a legal move, found from the person's view.
#[test]
fn hint_suggests_a_legal_move() {
    let out = muster(
        &[
            "play",
            GAME,
            "--agents",
            "human,random",
            "--seed",
            "5",
            "--think",
            "50",
        ],
        "hint\nmoves\nquit\n",
    );
    let shown = text(&out.stdout);
    let hint = shown
        .split("hint: ")
        .nth(1)
        .expect(&shown)
        .lines()
        .next()
        .unwrap();
    let listed: Vec<&str> = shown
        .lines()
        .filter_map(|l| l.trim().split_once(". ").map(|(_, m)| m))
        .collect();
    assert!(listed.contains(&hint), "{hint} not in {listed:?}");
}

// Several moves of one turn on one line, and action names shortened to a start no other
// action on offer shares: a Battle Line activation and its move in 12 keystrokes. The
// board is shown once for the line, not before each of its moves.
#[test]
fn moves_typed_ahead_on_one_line_with_short_names() {
    let args = [
        "play",
        "games/battle_line.muster",
        "--agents",
        "human,random",
        "--seed",
        "1",
    ];
    let line = "a a1 j1;g b3";
    assert_eq!(line.len(), 12);
    let out = text(&muster(&args, &format!("{line}\nquit\n")).stdout);
    assert!(out.contains("White> g b3\n"), "{out}");
    assert!(out.contains("activations this turn 1,"), "{out}");
    // The turn's budgets, from the per-piece variables the rules display.
    assert!(out.contains("activations made by: none\n"), "{out}");
    assert!(out.contains("activations made by: j1 1\n"), "{out}");
    assert!(out.contains("moved: b3\n"), "{out}");
    assert!(
        out.contains("in touch: i1, j1, k1, l1, d2, h2, m2, q2\n"),
        "{out}"
    );
    assert!(
        out.contains("game left unfinished after 2 action(s)"),
        "{out}"
    );
    // One board before the line, one after its last move.
    assert_eq!(out.matches("· White to decide").count(), 2, "{out}");

    // A move of the line that is refused drops the rest, and says so.
    let out = text(&muster(&args, "a a1 j1; g z9; g b3\nquit\n").stdout);
    assert!(out.contains("White> g z9\ncannot read that"), "{out}");
    assert!(
        out.contains("(the 1 move(s) typed after it were not played)"),
        "{out}"
    );
    assert!(
        out.contains("game left unfinished after 1 action(s)"),
        "{out}"
    );

    // `e` is the start of one action on offer only: `end_turn`, a pass.
    let out = text(&muster(&args, "e\nquit\n").stdout);
    assert!(out.contains("passes in a row 0 → 1"), "{out}");
}

// Every argument of every subcommand says what it is for in `--help`.
#[test]
fn every_argument_is_described_in_help() {
    use clap::CommandFactory;
    let cli = muster::cli::Cli::command();
    let mut missing = Vec::new();
    for sub in cli.get_subcommands() {
        assert!(
            sub.get_about().is_some(),
            "`{}` has no description",
            sub.get_name()
        );
        for arg in sub.get_arguments() {
            if arg.is_hide_set() || arg.get_id() == "help" {
                continue;
            }
            if arg.get_help().is_none() && arg.get_long_help().is_none() {
                missing.push(format!("{} {}", sub.get_name(), arg.get_id()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "arguments without a description: {missing:?}"
    );
}

// `help` at the prompt teaches the notation: what a move looks like, shortened names,
// several moves on a line, the commands, and the legend of the board's letters.
#[test]
fn help_at_the_prompt_teaches_the_notation() {
    let out = muster(
        &[
            "play",
            "games/battle_line.muster",
            "--agents",
            "human,random",
            "--seed",
            "1",
        ],
        "help\nquit\n",
    );
    let shown = text(&out.stdout);
    for want in [
        "Enter a move in notation",
        "(`mo a1 b2` for `move a1 b2`)",
        "separated\nby `;`",
        "Commands: moves",
        "hint",
        "undo",
        "Legend: ",
    ] {
        assert!(shown.contains(want), "missing {want:?} in\n{shown}");
    }
}
