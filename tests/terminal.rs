//! muster in a terminal, as a person sees it: run in a tmux pane of a given size, the pane's
//! text captured. (tmux must be installed: `.ci/run` installs it.)

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// A tmux server of this test's own, killed when dropped.
struct Pane {
    socket: String,
}

impl Pane {
    /// Starts `command` (a shell command line) in a detached pane `width` x `height`.
    fn start(tag: &str, width: u16, height: u16, command: &str) -> Pane {
        let socket = format!("muster-{tag}-{}", std::process::id());
        let status = Command::new("tmux")
            .args(["-L", &socket, "-f", "/dev/null", "new-session", "-d"])
            .args(["-x", &width.to_string(), "-y", &height.to_string()])
            .arg(command)
            .env("NO_COLOR", "1")
            .status()
            .expect("tmux is installed (see .ci/run)");
        assert!(status.success());
        Pane { socket }
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
