//! `muster moves FILE [--log LOG]`: the legal actions of whoever decides, one per line.

use super::replay::{read_log, replay_log, viewer, ViewOpts};
use super::{engine_for, load, player_count, GameLog, GameOpts, EXIT_INVALID, EXIT_OK};
use std::path::Path;

/// The game a command works on and the log of the position it starts from: the log
/// given (its variant, players and seed), or the start of a game as the flags say.
pub(super) fn game_and_log(
    file: &Path,
    log_path: Option<&Path>,
    opts: &GameOpts,
) -> Result<(std::sync::Arc<crate::engine::Engine>, GameLog), i32> {
    let rules_text = crate::check::read_text(file).unwrap_or_default();
    let log = match log_path {
        Some(p) => read_log(p, &rules_text)?,
        None => GameLog {
            seed: opts.seed(),
            players: opts.players,
            variant: opts.variant.clone(),
            ..Default::default()
        },
    };
    let compiled = load(file, log.variant.as_deref().or(opts.variant.as_deref()))?;
    let engine = engine_for(
        compiled,
        opts.max_turns.or(log.max_turns).or(Some(u32::MAX)),
    );
    let players = match player_count(&engine, log.players.or(opts.players)) {
        Ok(p) => p,
        // A count read from a log is bad input, as in `replay`; from the command line, usage.
        Err(_) if log_path.is_some() && log.players.is_some() => return Err(EXIT_INVALID),
        Err(code) => return Err(code),
    };
    let log = GameLog {
        players: Some(players),
        ..log
    };
    Ok((engine, log))
}

pub fn run(file: &Path, log_path: Option<&Path>, opts: &GameOpts, view: &ViewOpts) -> i32 {
    let (engine, log) = match game_and_log(file, log_path, opts) {
        Ok(x) => x,
        Err(code) => return code,
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
