//! muster in a terminal, as a person sees it: run in a tmux pane of a given size, keys typed
//! into it, the pane's text captured. (tmux must be installed: `.ci/run` installs it.)

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// A tmux server of this test's own, killed when dropped.
struct Pane {
    socket: String,
}

impl Pane {
    /// Starts `command` (a shell command line) in a detached pane `width` x `height`, which
    /// keeps all it printed.
    fn start(tag: &str, width: u16, height: u16, command: &str) -> Pane {
        let socket = format!("muster-{tag}-{}", std::process::id());
        let status = Command::new("tmux")
            .args(["-L", &socket, "-f", "/dev/null", "start-server", ";"])
            .args(["set-option", "-g", "history-limit", "500000", ";"])
            .args(["new-session", "-d"])
            .args(["-x", &width.to_string(), "-y", &height.to_string()])
            .arg(command)
            .env("NO_COLOR", "1")
            .status()
            .expect("tmux is installed (see .ci/run)");
        assert!(status.success());
        Pane { socket }
    }

    /// Types a line, as a person at the keyboard.
    fn type_line(&self, line: &str) {
        let status = Command::new("tmux")
            .args(["-L", &self.socket, "send-keys", "-l", line])
            .status()
            .unwrap();
        assert!(status.success());
        let status = Command::new("tmux")
            .args(["-L", &self.socket, "send-keys", "Enter"])
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// Types a line at a prompt and waits for the program to take it: for more lines than
    /// before, the last of them a prompt again (or the end). The whole history then.
    fn answer(&self, line: &str) -> String {
        let before = self.history().lines().count();
        self.type_line(line);
        let started = Instant::now();
        loop {
            let text = self.history();
            let last = text.lines().last().unwrap_or("");
            let waiting = last.ends_with('>') || last.ends_with("press Enter —");
            if text.lines().count() > before && (waiting || text.contains("DONE")) {
                return text;
            }
            assert!(
                started.elapsed() < Duration::from_secs(120),
                "`{line}` was not answered; the pane shows:\n{text}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Everything the pane has shown, wrapped lines joined, trailing blank lines dropped.
    fn history(&self) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.socket, "capture-pane", "-p", "-J", "-S", "-"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).trim_end().to_string()
    }

    /// Waits until the last line on screen is a prompt (`NAME> `) or the game is over;
    /// the whole history then.
    fn wait_for_prompt(&self) -> String {
        let started = Instant::now();
        loop {
            let text = self.history();
            let last = text.lines().last().unwrap_or("");
            if last.ends_with('>') || last.ends_with("press Enter —") || text.contains("DONE") {
                return text;
            }
            assert!(
                started.elapsed() < Duration::from_secs(120),
                "no prompt came; the pane shows:\n{text}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The pane's text once it contains `marker` (waits up to 60 s), with the lines tmux
    /// wrapped joined again: each line as the program wrote it.
    fn wait_for(&self, marker: &str) -> String {
        let started = Instant::now();
        loop {
            let out = Command::new("tmux")
                .args(["-L", &self.socket, "capture-pane", "-p", "-J"])
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            if text.contains(marker) {
                return text;
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "`{marker}` never appeared; the pane shows:\n{text}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .status();
    }
}

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_muster")
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("muster-terminal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

// On a terminal, diagnostics are wrapped at the terminal's width (as rustc's are), not at
// a fixed 100 columns; piped, they keep 100 columns.
#[test]
fn diagnostics_fit_the_terminal() {
    let name = "an_undeclared_name_for_the_cells_of_this_board";
    let file = temp_file(
        "narrow.muster",
        &format!(
            "game \"Narrow\" {{ players 2 }}\nboard grid 3 x 3\nphase p {{ turn {{ one of go }} }}\n\
             action go {{ choose x in {name} do {{ }} }}\n"
        ),
    );
    let cmd = format!("{} validate {}; echo DONE; sleep 30", bin(), file.display());
    let message = format!("unknown name `{name}`");
    // 60 columns: the program wraps the message itself (the lines tmux joins back are
    // each at most 60 columns), so the message is not on one line.
    let narrow = Pane::start("narrow", 60, 40, &cmd).wait_for("DONE");
    assert!(narrow.contains("× unknown name"), "{narrow}");
    assert!(!narrow.contains(&message), "{narrow}");
    // (Source lines are shown whole, as rustc shows them; the message and help wrap.)
    let widest = narrow
        .lines()
        .filter(|l| l.starts_with("  ×") || l.starts_with("  │") || l.contains("help:"))
        .map(|l| l.chars().count())
        .max()
        .unwrap();
    assert!(widest <= 60, "{widest} columns:\n{narrow}");
    // 120 columns: the whole message on one line.
    let wide = Pane::start("wide", 120, 40, &cmd).wait_for("DONE");
    assert!(wide.contains(&message), "{wide}");
    // Piped: 100 columns, whatever the terminal.
    let out = Command::new(bin())
        .args(["validate", file.to_str().unwrap()])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let piped = String::from_utf8_lossy(&out.stderr);
    assert!(piped.contains(&message), "{piped}");
}

/// The legal moves as `moves` lists them at the end of `screen`: the numbered lines after
/// the last `moves` typed.
fn listed_moves(screen: &str) -> Vec<String> {
    let from = screen.rfind("> moves").expect("moves was typed");
    screen[from..]
        .lines()
        .skip(1)
        .filter_map(|l| {
            let (n, m) = l.trim().split_once(". ")?;
            n.parse::<usize>().ok().map(|_| m.to_string())
        })
        .collect()
}

/// A move as a person types it: each action's name cut to the shortest start no other
/// listed action shares.
fn typed(listed: &[String], mv: &str) -> String {
    let (name, rest) = mv.split_once(' ').unwrap_or((mv, ""));
    let names: Vec<&str> = listed
        .iter()
        .map(|m| m.split(' ').next().unwrap())
        .collect();
    let short = (1..=name.len())
        .map(|k| &name[..k])
        .find(|p| names.iter().all(|n| *n == name || !n.starts_with(p)))
        .unwrap_or(name);
    if rest.is_empty() {
        short.to_string()
    } else {
        format!("{short} {rest}")
    }
}

/// Plays a game in a tmux pane as a person at seat 1 would: at each prompt it lists the
/// moves, picks one (an attack if there is one, else one further down the list each time),
/// and types it in notation with the action's name shortened; the agents play the other seats. Returns the transcript
/// (the board drawings left out: the moves, the reports, the result) and the keystrokes
/// typed per move.
fn play_through(tag: &str, args: &str, quiet_from: u32) -> (String, Vec<usize>) {
    let cmd = format!("{} play {args}; echo DONE; sleep 60", bin());
    let pane = Pane::start(tag, 110, 60, &cmd);
    let mut keystrokes = Vec::new();
    let mut turn = 0usize;
    // The game's turn, and how many moves were typed in it.
    let (mut game_turn, mut this_turn) = (0u32, 0usize);
    loop {
        let screen = pane.wait_for_prompt();
        if screen.contains("DONE") {
            break;
        }
        // Hot-seat: the next person takes the seat.
        if screen.trim_end().ends_with("press Enter —") {
            pane.answer("");
            continue;
        }
        let now = screen
            .rsplit(" · turn ")
            .next()
            .and_then(|t| t.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        if now != game_turn {
            (game_turn, this_turn) = (now, 0);
        }
        let screen = pane.answer("moves");
        let listed = listed_moves(&screen);
        assert!(!listed.is_empty(), "{screen}");
        // A person who takes whatever is there to take, else varies its moves; where a
        // turn may hold many moves, it ends the turn after a few, and from `quiet_from`
        // on passes at once (two passes in a row end some games in a draw).
        let ender = listed.iter().find(|m| *m == "end_turn");
        let pick = match ender {
            Some(end) if game_turn >= quiet_from || this_turn >= 4 => end,
            _ => listed
                .iter()
                .find(|m| m.starts_with("attack"))
                .unwrap_or(&listed[(turn * 7) % listed.len()]),
        };
        this_turn += 1;
        let mv = typed(&listed, pick);
        keystrokes.push(mv.len() + 1);
        pane.answer(&mv);
        turn += 1;
    }
    let all = pane.history();
    let kept: Vec<&str> = all
        .lines()
        .filter(|l| {
            let t = l.trim_start();
            let indent = l.len() - t.len();
            (l.contains("> ") && !l.trim_end().ends_with("> moves"))
                || l.contains(" plays ")
                || l.starts_with("game ")
                || l.starts_with("Since your last turn")
                || ((indent == 2 || indent == 4)
                    && !t.is_empty()
                    && !t.starts_with(|c: char| c.is_ascii_digit())
                    // not a board's line of files (`a  b  c`)
                    && !t.split_whitespace().all(|w| w.chars().count() == 1))
        })
        .collect();
    (kept.join("\n"), keystrokes)
}

// Each shipped game played to its end in a terminal, as a person plays it: the moves
// listed, one typed in notation, the reports of every action read. The transcripts (the
// moves and what each did, as the person was told) are snapshots.
#[test]
fn every_game_played_through_in_a_terminal() {
    let games = [
        (
            "army_ants",
            "games/army_ants.muster --agents human,random --seed 3",
        ),
        (
            "battalion_chips",
            "games/battalion_chips.muster --players 3 --agents human,random,random --seed 2",
        ),
        (
            "battaglione",
            "games/battaglione.muster --players 2 --agents human,random --seed 4",
        ),
        (
            "battle_line",
            "games/battle_line.muster --agents human,human --seed 1",
        ),
        (
            "battalion_emperor",
            "games/battalion_emperor.muster --players 2 --agents human,random --seed 4",
        ),
    ];
    for (name, args) in games {
        // Two people at Battle Line play two turns each, then agree to a draw by passing.
        let (transcript, keys) = play_through(name, args, 5);
        assert!(transcript.contains("game over:"), "{name}:\n{transcript}");
        assert!(!keys.is_empty(), "{name}");
        // A typical move is short to type: the median, Enter included.
        let mut sorted = keys.clone();
        sorted.sort();
        assert!(sorted[sorted.len() / 2] <= 10, "{name}: {keys:?}");
        if name == "battle_line" {
            // An activation and its move: at most 15 keystrokes (typed on one line with
            // `;`, the same count as on two).
            let typed: Vec<&str> = transcript
                .lines()
                .filter_map(|l| l.strip_prefix("White> "))
                .collect();
            for pair in typed.windows(2) {
                if pair[0].starts_with("a ") {
                    let keys = pair[0].len() + pair[1].len() + 2;
                    assert!(keys <= 15, "{pair:?}: {keys} keystrokes");
                }
            }
        }
        insta::assert_snapshot!(format!("play_through_{name}"), transcript);
    }
}

// While an agent thinks, the terminal says so; the line is gone once it has moved.
#[test]
fn a_thinking_agent_says_so() {
    let cmd = format!(
        "{} play games/army_ants.muster --agents ismcts:2000ms,human --seed 1; echo DONE; sleep 30",
        bin()
    );
    let pane = Pane::start("thinking", 100, 40, &cmd);
    let screen = pane.wait_for("Red is thinking…");
    assert!(!screen.contains("Black>"), "{screen}");
    let screen = pane.wait_for_prompt();
    assert!(screen.trim_end().ends_with("Black>"), "{screen}");
    assert!(!screen.contains("is thinking"), "{screen}");
    assert!(screen.contains("Red plays "), "{screen}");
}
