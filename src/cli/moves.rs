//! `muster moves FILE [--log LOG]`: the legal actions of whoever decides, one per line.

use super::replay::{read_log, replay_log, viewer, ViewOpts};
use super::{engine_for, load, player_count, GameLog, GameOpts, EXIT_INVALID, EXIT_OK};
use std::path::Path;

pub fn run(file: &Path, log_path: Option<&Path>, opts: &GameOpts, view: &ViewOpts) -> i32 {
    let rules_text = crate::check::read_text(file).unwrap_or_default();
    let log = match log_path {
        Some(p) => match read_log(p, &rules_text) {
            Ok(l) => l,
            Err(code) => return code,
        },
        None => GameLog {
            seed: opts.seed(),
            players: opts.players,
            variant: opts.variant.clone(),
            ..Default::default()
        },
    };
    let compiled = match load(file, log.variant.as_deref().or(opts.variant.as_deref())) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let engine = engine_for(
        compiled,
        opts.max_turns.or(log.max_turns).or(Some(u32::MAX)),
    );
    let players = match player_count(&engine, log.players.or(opts.players)) {
        Ok(p) => p,
        // A count read from a log is bad input, as in `replay`; from the command line, usage.
        Err(_) if log_path.is_some() && log.players.is_some() => return super::EXIT_INVALID,
        Err(code) => return code,
    };
    let log = GameLog {
        players: Some(players),
        ..log
    };
    match replay_log(&engine, &log, |_, _| {}) {
        Ok(state) => {
            // The legal actions are the decider's to know: listed for that seat (the
            // default), or for everyone with `--reveal`.
            let Some(decider) = engine.decider(&state) else {
                eprintln!("the game is over: nobody decides");
                return EXIT_OK;
            };
            let who = match viewer(&engine, view, Some(decider)) {
                Ok(v) => v,
                Err(code) => return code,
            };
            if who.is_some_and(|w| w != decider) {
                let name = &engine.game.seats[decider as usize].name;
                eprintln!(
                    "{name} decides now; its moves are for {name} to see (--as {name}, or --reveal)"
                );
                return EXIT_OK;
            }
            match engine.try_legal_actions(&state) {
                Ok(legal) => {
                    for a in legal {
                        println!("{}", engine.action_text(&state, &a));
                    }
                    EXIT_OK
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    EXIT_INVALID
                }
            }
        }
        // The game could not start: there is no action to name.
        Err(e) if e.number == 0 => {
            eprintln!("error: {}", e.reason);
            EXIT_INVALID
        }
        Err(e) => {
            eprintln!(
                "error: action {} (line {}) `{}` does not replay: {}",
                e.number, e.line, e.text, e.reason
            );
            EXIT_INVALID
        }
    }
}
