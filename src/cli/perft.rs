//! `muster perft FILE [--depth N] [--log LOG] [--divide]`: the leaves of the legal-action
//! tree from the start of a game or from a saved position, counted in one process.

use super::moves::game_and_log;
use super::replay::replay_log;
use super::{GameOpts, EXIT_INVALID, EXIT_OK};
use std::path::Path;

pub fn run(file: &Path, depth: u32, log_path: Option<&Path>, divide: bool, opts: &GameOpts) -> i32 {
    let (engine, log) = match game_and_log(file, log_path, opts) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let state = match replay_log(&engine, &log, |_, _| {}) {
        Ok(s) => s,
        Err(e) if e.number == 0 => {
            eprintln!("error: {}", e.reason);
            return EXIT_INVALID;
        }
        Err(e) => {
            eprintln!(
                "error: action {} (line {}) `{}` does not replay: {}",
                e.number, e.line, e.text, e.reason
            );
            return EXIT_INVALID;
        }
    };
    let started = std::time::Instant::now();
    let total = if divide && depth > 0 {
        // Each first action with the leaves below it, as move generators are compared.
        let legal = match engine.try_legal_actions(&state) {
            Ok(l) => l,
            Err(e) => {
                eprintln!("error: {e}");
                return EXIT_INVALID;
            }
        };
        let mut total = 0u64;
        for a in &legal {
            let mut next = state.clone();
            let n = engine
                .apply_listed(&mut next, a)
                .and_then(|()| engine.perft(&next, depth - 1));
            match n {
                Ok(n) => {
                    println!("{}: {n}", engine.action_text(&state, a));
                    total += n;
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    return EXIT_INVALID;
                }
            }
        }
        total
    } else {
        match engine.perft(&state, depth) {
            Ok(n) => n,
            Err(e) => {
                eprintln!("error: {e}");
                return EXIT_INVALID;
            }
        }
    };
    let secs = started.elapsed().as_secs_f64();
    println!("perft({depth}) = {total}");
    eprintln!(
        "{total} leaves in {secs:.3}s ({:.0} leaves/s)",
        total as f64 / secs.max(1e-9)
    );
    EXIT_OK
}
