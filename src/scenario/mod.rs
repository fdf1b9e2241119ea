//! Rules scenarios: tests of a game's rulings written as data (`*.scenarios` files, see
//! docs/scenarios.md), run by `muster test`. A scenario names a game, builds a position
//! (or plays from the start), takes actions in notation and states what must hold: which
//! actions are legal or refused and why, what stands where, the variables, the phase, the
//! outcome, what a seat sees, perft counts.
//!
//! The stages mirror the rules file's: `syntax` parses (grammar/scenario.pest), `position`
//! names cells, zones, seats and variables and builds positions, `run` plays and checks.

pub mod position;
pub mod run;
pub mod syntax;

pub use run::{run_file, FileReport};

/// The extension of scenario files.
pub const EXTENSION: &str = "scenarios";

/// The scenario files under each path (a file, or a folder searched recursively), sorted.
pub fn files_under(paths: &[std::path::PathBuf]) -> Result<Vec<std::path::PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            collect(p, &mut out).map_err(|e| format!("cannot read `{}`: {e}", p.display()))?;
        } else if p.exists() {
            out.push(p.clone());
        } else {
            return Err(format!(
                "cannot read `{}`: no such file or folder",
                p.display()
            ));
        }
    }
    Ok(out)
}

fn collect(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out)?;
        } else if p.extension().is_some_and(|x| x == EXTENSION) {
            out.push(p);
        }
    }
    Ok(())
}
