//! End to end with a real editor: Neovim's built-in LSP client (headless) opens a shipped
//! game, a name is misspelt, the diagnostic arrives, its quick fix is applied and the
//! diagnostic goes. The script is `tests/editor/nvim_e2e.lua`.
//!
//! Neovim must be installed (`apt-get install neovim`; `.ci/run` installs it when it is
//! missing): without it this test fails, it does not skip.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

#[test]
fn neovim_sees_a_misspelt_name_and_applies_its_fix() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let version = Command::new("nvim").arg("--version").output();
    let version = match version {
        Ok(v) if v.status.success() => v,
        _ => panic!(
            "this test needs Neovim (`nvim` on PATH): install it with \
             `apt-get update && apt-get install -y neovim` (.ci/run does)"
        ),
    };
    let first = String::from_utf8_lossy(&version.stdout);
    let out = std::env::temp_dir().join(format!("muster-nvim-{}.log", std::process::id()));
    let _ = std::fs::remove_file(&out);
    let started = Instant::now();
    let mut child = Command::new("nvim")
        .args(["--headless", "--clean", "-n", "-i", "NONE", "-c"])
        .arg(format!(
            "luafile {}",
            root.join("tests/editor/nvim_e2e.lua").display()
        ))
        .env("MUSTER_BIN", env!("CARGO_BIN_EXE_muster"))
        .env("MUSTER_GAME", root.join("games/army_ants.muster"))
        .env("MUSTER_OUT", &out)
        .spawn()
        .expect("nvim starts");
    // A hung editor must not hang the test suite.
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("nvim did not finish within 60 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let log = std::fs::read_to_string(&out).unwrap_or_default();
    assert!(
        status.success() && log.ends_with("PASS\n"),
        "{}: {status}\n{log}",
        first.lines().next().unwrap_or("nvim")
    );
    for step in [
        "ok: the shipped game has no diagnostics",
        "ok: it suggests the right name",
        "ok: the quick fix replaces the name",
        "ok: the diagnostic goes once the fix is applied",
    ] {
        assert!(log.contains(step), "{step}\n{log}");
    }
}
