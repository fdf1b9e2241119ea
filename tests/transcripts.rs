//! A seeded agent game's transcript, snapshotted: any change to the rules, the engine's
//! order of legal actions, the RNG or the text rendering shows up here.

use std::process::Command;

#[test]
fn army_ants_random_game_transcript() {
    let out = Command::new(env!("CARGO_BIN_EXE_muster"))
        .args([
            "play",
            "games/army_ants.muster",
            "--agents",
            "random,random",
            "--seed",
            "5",
            "--max-turns",
            "40",
        ])
        .env("NO_COLOR", "1")
        .output()
        .expect("muster runs");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("game over: stopped by the length cap (no result) after 40 turn(s)")
            || text.contains("wins"),
        "{text}"
    );
    insta::assert_snapshot!(text);
}

// Battalion (the chip game), four random agents: twelve turns are the whole acquisition
// phase (three rounds of draw-then-discard from P2), then the length cap stops the game.
#[test]
fn battalion_chips_random_game_transcript() {
    let out = Command::new(env!("CARGO_BIN_EXE_muster"))
        .args([
            "play",
            "games/battalion_chips.muster",
            "--players",
            "4",
            "--agents",
            "random,random,random,random",
            "--seed",
            "3",
            "--max-turns",
            "12",
        ])
        .env("NO_COLOR", "1")
        .output()
        .expect("muster runs");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("game over: stopped by the length cap (no result) after 12 turn(s)"),
        "{text}"
    );
    assert_eq!(text.matches(" plays ").count(), 24, "{text}");
    insta::assert_snapshot!(text);
}

// Battaglione, three random agents: the deal, then fifteen turns counter-clockwise from the
// dealer P1 (P1, P3, P2, ...), each a draw, any lays and attacks, and a discard; then the
// length cap stops the game.
#[test]
fn battaglione_random_game_transcript() {
    let out = Command::new(env!("CARGO_BIN_EXE_muster"))
        .args([
            "play",
            "games/battaglione.muster",
            "--players",
            "3",
            "--agents",
            "random,random,random",
            "--seed",
            "5",
            "--max-turns",
            "15",
        ])
        .env("NO_COLOR", "1")
        .output()
        .expect("muster runs");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("game over: stopped by the length cap (no result) after 15 turn(s)"),
        "{text}"
    );
    let seats: Vec<&str> = text
        .lines()
        .filter(|l| l.ends_with(" plays draw_card") || l.ends_with(" plays take_discard"))
        .map(|l| &l[..2])
        .collect();
    assert_eq!(seats.len(), 15, "{text}");
    for (i, s) in seats.iter().enumerate() {
        assert_eq!(*s, ["P1", "P3", "P2"][i % 3], "turn {i}: {text}");
    }
    insta::assert_snapshot!(text);
}

// Battle Line, two random agents, seed 2: White's first turn stops at the 23-move cap and
// ends; Black's likewise; then the length cap (2 turns) stops the game.
#[test]
fn battle_line_random_game_transcript() {
    let out = Command::new(env!("CARGO_BIN_EXE_muster"))
        .args([
            "play",
            "games/battle_line.muster",
            "--agents",
            "random,random",
            "--seed",
            "2",
            "--max-turns",
            "2",
        ])
        .env("NO_COLOR", "1")
        .output()
        .expect("muster runs");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("game over: stopped by the length cap (no result) after 2 turn(s)"),
        "{text}"
    );
    assert_eq!(text.matches(" plays end_turn").count(), 2, "{text}");
    assert_eq!(text.matches(" plays go ").count(), 46, "{text}");
    insta::assert_snapshot!(text);
}

// The emperor game, three random agents, seed 4: the muster (each formation drawn as it
// fills), then battle to the end. Every formation is drawn from its seat's view.
#[test]
fn battalion_emperor_random_game_transcript() {
    let out = Command::new(env!("CARGO_BIN_EXE_muster"))
        .args([
            "play",
            "games/battalion_emperor.muster",
            "--players",
            "3",
            "--agents",
            "random,random,random",
            "--seed",
            "4",
        ])
        .env("NO_COLOR", "1")
        .output()
        .expect("muster runs");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("game over: "), "{text}");
    assert!(text.contains(" plays deploy "), "{text}");
    insta::assert_snapshot!(text);
}
