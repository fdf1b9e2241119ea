//! Honest channels of the `muster` binary: the echo of other seats' actions, hot-seat
//! reports, `undo`, `replay` and `moves` show a seat only what it may know.

mod common;

use common::binary::{muster, text};

fn temp(name: &str) -> std::path::PathBuf {
    common::binary::temp_path("honest", name)
}

// A face-down placement by the agent is announced to the person as `??`; its own cards
// it sees.
#[test]
fn the_echo_hides_what_the_person_cannot_see() {
    let args = [
        "play",
        "games/army_ants.muster",
        "--variant",
        "total_deployment",
        "--agents",
        "human,random",
        "--seed",
        "3",
    ];
    let out = muster(&args, "1\n2\n3\nquit\n");
    assert_eq!(out.status.code(), Some(0));
    let shown = text(&out.stdout);
    let echoes: Vec<&str> = shown
        .lines()
        .filter(|l| l.contains("Black plays"))
        .collect();
    assert_eq!(echoes.len(), 3, "{shown}");
    for e in echoes {
        assert!(e.contains("Black plays deploy ?? "), "{e}");
    }
    // With --reveal, the watcher sees everything.
    let mut revealed = args.to_vec();
    revealed.push("--reveal");
    let out = muster(&revealed, "1\nquit\n");
    let shown = text(&out.stdout);
    assert!(!shown.contains("deploy ??"), "{shown}");
    assert!(shown.contains("Black plays deploy "), "{shown}");
}

// Hot seat: each person is told, when the seat comes back to it, what the others did, in
// its own view's words.
#[test]
fn hot_seat_reports_the_others_moves_on_hand_over() {
    let out = muster(
        &[
            "play",
            "games/army_ants.muster",
            "--variant",
            "total_deployment",
            "--agents",
            "human,human",
            "--seed",
            "3",
        ],
        "1\n\n1\n\nquit\n",
    );
    let shown = text(&out.stdout);
    let report = shown.split("Since your last turn:").nth(1).expect(&shown);
    let first = report.lines().nth(1).unwrap().trim();
    assert!(first.starts_with("Red plays deploy ?? "), "{first}");
}

// Once the person has seen a hidden card (its own draw, an opponent's discard), undo may
// not take back the moves before it.
#[test]
fn undo_never_takes_back_what_the_person_has_seen() {
    let out = muster(
        &[
            "play",
            "games/battalion_chips.muster",
            "--players",
            "3",
            "--agents",
            "human,random,random",
            "--seed",
            "2",
        ],
        "1\n1\nundo\nquit\n",
    );
    let shown = text(&out.stdout);
    assert!(
        shown.contains("cannot undo: P3's move has shown you hidden cards or pieces since"),
        "{shown}"
    );
    // Against a game where nothing hidden is shown, undo works.
    let out = muster(
        &[
            "play",
            "games/army_ants.muster",
            "--agents",
            "human,random",
            "--seed",
            "1",
        ],
        "1\nundo\nquit\n",
    );
    assert!(text(&out.stdout).contains("took back your last move"));
}

// A replay of an unfinished game shows what every seat may see by default, one seat's
// view with --as, everything with --reveal; `moves` lists the moves for the seat that
// decides only.
#[test]
fn replay_and_moves_of_an_unfinished_game_keep_its_secrets() {
    let log = temp("unfinished.log");
    let game = "games/battaglione.muster";
    let out = muster(
        &[
            "play",
            game,
            "--agents",
            "human,random",
            "--seed",
            "5",
            "--save",
            log.to_str().unwrap(),
        ],
        "1\nquit\n",
    );
    assert_eq!(out.status.code(), Some(0));
    let log = log.to_str().unwrap();
    let public = text(&muster(&["replay", game, log], "").stdout);
    assert!(public.contains("hand (P1): 6 face down"), "{public}");
    assert!(public.contains("hand (P2): 5 face down"), "{public}");
    assert!(public.contains("unfinished: shown as every seat may see it"));
    let p2 = text(&muster(&["replay", game, log, "--as", "P2"], "").stdout);
    assert!(p2.contains("hand (P1): 6 face down"), "{p2}");
    assert!(!p2.contains("hand (P2): 5 face down"), "{p2}");
    let all = text(&muster(&["replay", game, log, "--reveal"], "").stdout);
    assert!(!all.contains("face down\nhand"), "{all}");
    let unknown = muster(&["replay", game, log, "--as", "P9"], "");
    assert_eq!(unknown.status.code(), Some(2));
    assert!(text(&unknown.stderr).contains("there is no seat `P9`"));
    // P1 decides: its moves are listed for it, not for P2.
    let mine = muster(&["moves", game, "--log", log], "");
    assert!(!text(&mine.stdout).is_empty());
    let theirs = muster(&["moves", game, "--log", log, "--as", "P2"], "");
    assert_eq!(theirs.status.code(), Some(0));
    assert_eq!(text(&theirs.stdout), "");
    assert!(text(&theirs.stderr).contains("P1 decides now"));
}

// A log saved before the defence was offered on public conditions lacks the answers
// `done` of a player who could only answer that: it still replays, to the same position.
#[test]
fn an_older_log_without_forced_answers_still_replays() {
    use muster::engine::{Engine, DONE_ACTION};
    use rand::{Rng, SeedableRng};
    let game = "games/battaglione.muster";
    let compiled = muster::check::compile_file(game.as_ref(), None).unwrap();
    let e = Engine::new(compiled.game);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
    let mut dropped = 0;
    let mut tries = 0;
    while dropped == 0 {
        tries += 1;
        assert!(tries < 20, "no game with a forced answer");
        let seed = rng.gen::<u32>() as u64;
        let mut s = e.start(2, seed).unwrap();
        // (seat, text, whether it was a forced `done`)
        let mut entries: Vec<(u8, String, bool)> = Vec::new();
        while let Some(seat) = e.decider(&s) {
            if entries.len() >= 600 {
                break;
            }
            let legal = e.legal_actions(&s);
            let a = legal[rng.gen_range(0..legal.len())].clone();
            let forced = legal.len() == 1 && a.action == DONE_ACTION && !s.reactions.is_empty();
            entries.push((seat, e.action_text(&s, &a), forced));
            e.apply(&mut s, &a).unwrap();
        }
        let name = |p: u8| e.game.seats[p as usize].name.clone();
        let header = format!(
            "# muster saved game\nrules battaglione.muster\nvariant -\nplayers 2\nseed {seed}\n"
        );
        let full: String = entries
            .iter()
            .map(|(p, t, _)| format!("{}: {t}\n", name(*p)))
            .collect();
        let mut old = String::new();
        for (i, (p, t, forced)) in entries.iter().enumerate() {
            let next_other = entries.get(i + 1).is_some_and(|(q, _, _)| q != p);
            if *forced && next_other {
                dropped += 1;
                continue;
            }
            old.push_str(&format!("{}: {t}\n", name(*p)));
        }
        if dropped == 0 {
            continue;
        }
        let (new_log, old_log) = (
            temp(&format!("new{seed}.log")),
            temp(&format!("old{seed}.log")),
        );
        std::fs::write(&new_log, format!("{header}{full}")).unwrap();
        std::fs::write(&old_log, format!("{header}{old}")).unwrap();
        let board = |log: &std::path::Path| {
            let out = muster(&["replay", game, log.to_str().unwrap(), "--reveal"], "");
            assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
            let shown = text(&out.stdout);
            shown
                .rsplit_once("action(s) replayed")
                .unwrap()
                .0
                .rsplit_once('\n')
                .unwrap()
                .0
                .to_string()
        };
        assert_eq!(
            board(&old_log),
            board(&new_log),
            "seed {seed}, {dropped} answers left out"
        );
    }
}

// The report of what an action did is told from the person's view: Black's face-down
// placement is a count and a cell, never the card; the cell is marked on the next board.
#[test]
fn reports_tell_what_happened_and_no_more() {
    let out = muster(
        &[
            "play",
            "games/army_ants.muster",
            "--variant",
            "total_deployment",
            "--agents",
            "human,random",
            "--seed",
            "3",
        ],
        "deploy QD a1\nquit\n",
    );
    let shown = text(&out.stdout);
    // Red's own move: its card, by the label the board shows.
    assert!(shown.contains("  QR hand (Red) → a1\n"), "{shown}");
    // Black's: a face-down card and a count.
    let black = shown.split("Black plays deploy ?? ").nth(1).expect(&shown);
    let cell = black.split_whitespace().next().unwrap();
    assert!(
        black.contains(&format!("  a face-down card comes to {cell}\n")),
        "{black}"
    );
    assert!(
        black.contains("  hand (Black): 19 → 18 face down\n"),
        "{black}"
    );
    // No card of Black's is named: its labels end in `B` (`QB`, `9B`).
    let report = black.split("Army Ants").next().unwrap();
    assert!(
        !report
            .split_whitespace()
            .any(|w| w.len() == 2 && w.ends_with('B')),
        "{report}"
    );
    // The next board marks the cell that changed.
    let board = black.split("Army Ants").nth(1).unwrap();
    assert!(board.contains("*??"), "{board}");
}

// Goofspiel's bids are secret choices: the person hears only that the agent has bid, and
// its board does not show the bid, until the reveal shows both bids; `undo` does not go
// back past a reveal; a replay of a game saved with a bid not yet revealed keeps the bid
// for its seat (`--as`) and `--reveal`.
#[test]
fn secret_choices_are_told_only_at_the_reveal() {
    let args = [
        "play",
        "games/goofspiel.muster",
        "--agents",
        "human,random",
        "--seed",
        "3",
    ];
    let out = muster(&args, "bid 7S\nbid KS\nundo\nquit\n");
    assert_eq!(out.status.code(), Some(0));
    let shown = text(&out.stdout);
    // Round 2: Hearts, whose turn it is, bids first; the person is told only that.
    let round2 = shown.split("rounds played 0 → 1").nth(1).expect(&shown);
    let (before, after) = round2.split_once("Spades> ").expect(&shown);
    assert!(before.contains("Hearts has chosen in secret"), "{before}");
    assert!(before.contains("chosen in secret: Hearts\n"), "{before}");
    assert!(!before.contains("Hearts plays"), "{before}");
    assert!(!before.contains("played (Hearts): 3H T"), "{before}");
    let reveal = after
        .split("the secret choices are revealed:")
        .nth(1)
        .expect(after);
    let lines: Vec<&str> = reveal.lines().skip(1).take(2).collect();
    assert!(lines[0].starts_with("  Hearts plays bid "), "{reveal}");
    assert_eq!(lines[1], "  Spades plays bid KS");
    assert!(
        shown.contains("cannot undo: your move `bid KS` has shown you hidden"),
        "{shown}"
    );

    // A game saved while Hearts (the person) is asked, after Spades has bid.
    let log = temp("secret.log");
    let log_arg = log.to_str().unwrap();
    let out = muster(
        &[
            "play",
            "games/goofspiel.muster",
            "--agents",
            "random,human",
            "--seed",
            "3",
            "--save",
            log_arg,
        ],
        "quit\n",
    );
    assert_eq!(out.status.code(), Some(0));
    let game = "games/goofspiel.muster";
    let public = text(&muster(&["replay", game, log_arg, "--verbose"], "").stdout);
    assert!(public.contains("> Spades: (a secret choice)"), "{public}");
    assert!(public.contains("chosen in secret: Spades\n"), "{public}");
    assert!(!public.contains("bid "), "{public}");
    let hearts = text(
        &muster(
            &["replay", game, log_arg, "--verbose", "--as", "Hearts"],
            "",
        )
        .stdout,
    );
    assert!(!hearts.contains("bid "), "{hearts}");
    let spades = text(
        &muster(
            &["replay", game, log_arg, "--verbose", "--as", "Spades"],
            "",
        )
        .stdout,
    );
    assert!(spades.contains("> Spades: bid "), "{spades}");
    assert!(
        spades.contains("chosen in secret: Spades (bid "),
        "{spades}"
    );
}
