//! `muster replay FILE LOG`: replays a saved game exactly and prints the final position.

use super::log::{content_hash, GameLog};
use super::{engine_for, load, outcome_text, render_view, EXIT_INVALID, EXIT_OK, EXIT_USAGE};
use crate::engine::{Engine, State};
use std::path::Path;

/// Why a log does not replay: the action's number (1-based), its line and the reason.
#[derive(Debug)]
pub struct ReplayError {
    pub number: usize,
    pub line: usize,
    pub text: String,
    pub reason: String,
}

/// Plays a log's actions from its seed; `each` sees every position reached.
pub fn replay_log(
    engine: &Engine,
    log: &GameLog,
    mut each: impl FnMut(&State, Option<&str>),
) -> Result<State, ReplayError> {
    let players = log.players.unwrap_or(engine.game.min_players);
    let mut state = engine.start(players, log.seed).map_err(|e| ReplayError {
        number: 0,
        line: 0,
        text: String::new(),
        reason: e.to_string(),
    })?;
    each(&state, None);
    for (i, entry) in log.actions.iter().enumerate() {
        let fail = |reason: String| ReplayError {
            number: i + 1,
            line: entry.line,
            text: entry.action.clone(),
            reason,
        };
        let Some(seat) = engine.decider(&state) else {
            return Err(fail("the game was already over".into()));
        };
        if let Some(who) = &entry.seat {
            let expected = &engine.game.seats[seat as usize].name;
            if !who.eq_ignore_ascii_case(expected) {
                return Err(fail(format!(
                    "the log says {who} acts, but it is {expected}'s decision"
                )));
            }
        }
        let action = engine.parse_action(&state, &entry.action).map_err(fail)?;
        engine
            .apply(&mut state, &action)
            .map_err(|e| fail(e.to_string()))?;
        each(&state, Some(&entry.action));
    }
    Ok(state)
}

/// Reads a log file and checks it belongs to this rules file.
pub fn read_log(path: &Path, rules_text: &str) -> Result<GameLog, i32> {
    let text = match crate::check::read_text(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return Err(EXIT_USAGE);
        }
    };
    let log = match GameLog::parse(&text) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: {}: {e}", path.display());
            return Err(EXIT_INVALID);
        }
    };
    if let Some(h) = &log.hash {
        if *h != content_hash(rules_text) {
            eprintln!("warning: {} was saved with a different version of the rules file (hash {h}); replaying anyway", path.display());
        }
    }
    Ok(log)
}

pub fn run(file: &Path, log_path: &Path, verbose: bool) -> i32 {
    let rules_text = crate::check::read_text(file).unwrap_or_default();
    let log = match read_log(log_path, &rules_text) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let compiled = match load(file, log.variant.as_deref()) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let engine = engine_for(compiled, None);
    if let Some(p) = log.players {
        if super::player_count(&engine, Some(p)).is_err() {
            return EXIT_INVALID;
        }
    }
    let result = replay_log(&engine, &log, |state, action| {
        if verbose {
            if let Some(a) = action {
                println!("> {a}");
            }
            println!("{}", render_view(&engine, &engine.omniscient_view(state)));
        }
    });
    match result {
        Ok(state) => {
            if !verbose {
                println!("{}", render_view(&engine, &engine.omniscient_view(&state)));
            }
            println!(
                "{} action(s) replayed: {}",
                log.actions.len(),
                outcome_text(&engine, engine.outcome(&state))
            );
            EXIT_OK
        }
        Err(e) => {
            eprintln!(
                "error: {}: action {} (line {}) `{}` does not replay: {}",
                log_path.display(),
                e.number,
                e.line,
                e.text,
                e.reason
            );
            EXIT_INVALID
        }
    }
}
