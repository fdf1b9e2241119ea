//! `muster replay FILE LOG`: replays a saved game exactly and prints the final position.

use super::log::{content_hash, GameLog};
use super::{engine_for, load, outcome_text, render_view, EXIT_INVALID, EXIT_OK, EXIT_USAGE};
use crate::engine::{Action, Engine, State, NO_SEAT};
use std::path::Path;

/// Why a log does not replay: the action's number (1-based), its line and the reason.
#[derive(Debug)]
pub struct ReplayError {
    pub number: usize,
    pub line: usize,
    pub text: String,
    pub reason: String,
}

/// One logged action as it was replayed: the position before it, the action, its seat.
pub struct Step<'a> {
    pub before: &'a State,
    pub action: &'a Action,
    pub seat: u8,
}

/// Plays a log's actions from its seed; `each` sees every position reached, with the step
/// that reached it.
///
/// A log written before a decision was offered on public conditions (a reaction with
/// `when`) lacks that decision's answer: where the log names another seat and the seat
/// asked can only answer `done` or `skip`, that answer is taken and the log goes on.
pub fn replay_log(
    engine: &Engine,
    log: &GameLog,
    mut each: impl FnMut(&State, Option<Step>),
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
        let Some(mut seat) = engine.decider(&state) else {
            return Err(fail("the game was already over".into()));
        };
        while let Some(who) = &entry.seat {
            if who.eq_ignore_ascii_case(&engine.game.seats[seat as usize].name) {
                break;
            }
            let legal = engine.legal_actions(&state);
            let [only] = legal.as_slice() else { break };
            if only.action != crate::engine::DONE_ACTION
                && only.action != crate::engine::SKIP_ACTION
            {
                break;
            }
            let before = state.clone();
            engine
                .apply(&mut state, only)
                .map_err(|e| fail(e.to_string()))?;
            each(
                &state,
                Some(Step {
                    before: &before,
                    action: only,
                    seat,
                }),
            );
            match engine.decider(&state) {
                Some(next) => seat = next,
                None => return Err(fail("the game was already over".into())),
            }
        }
        if let Some(who) = &entry.seat {
            let expected = &engine.game.seats[seat as usize].name;
            if !who.eq_ignore_ascii_case(expected) {
                return Err(fail(format!(
                    "the log says {who} acts, but it is {expected}'s decision"
                )));
            }
        }
        let action = engine.parse_action(&state, &entry.action).map_err(fail)?;
        let before = state.clone();
        engine
            .apply(&mut state, &action)
            .map_err(|e| fail(e.to_string()))?;
        each(
            &state,
            Some(Step {
                before: &before,
                action: &action,
                seat,
            }),
        );
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

/// Whose view `replay` and `moves` show: `--as SEAT`, or everything with `--reveal`.
#[derive(clap::Args, Debug, Default, Clone)]
pub struct ViewOpts {
    /// Show the game as this seat sees it.
    #[arg(long = "as", value_name = "SEAT")]
    pub as_seat: Option<String>,
    /// Show everything, hidden cards included.
    #[arg(long, conflicts_with = "as_seat")]
    pub reveal: bool,
}

/// The viewer the options ask for: `Ok(Some(seat))`, `Ok(None)` for everything (with
/// `--reveal`), or `Err` with the exit code after saying that the seat is unknown. With
/// neither option, `default` decides.
pub fn viewer(engine: &Engine, opts: &ViewOpts, default: Option<u8>) -> Result<Option<u8>, i32> {
    if opts.reveal {
        return Ok(None);
    }
    let Some(name) = &opts.as_seat else {
        return Ok(default);
    };
    let seats = &engine.game.seats;
    match seats.iter().position(|s| s.name.eq_ignore_ascii_case(name)) {
        Some(i) => Ok(Some(i as u8)),
        None => {
            let names: Vec<&str> = seats.iter().map(|s| s.name.as_str()).collect();
            eprintln!(
                "error: there is no seat `{name}`; the seats are: {}",
                names.join(", ")
            );
            Err(EXIT_USAGE)
        }
    }
}

/// The view of `state` for `viewer`: one seat's, everything (`None`), or, for `Some(NO_SEAT)`,
/// what every seat may see.
pub fn view_for(engine: &Engine, state: &State, viewer: Option<u8>) -> crate::engine::View {
    match viewer {
        Some(NO_SEAT) => engine.public_view(state),
        Some(seat) => engine.view(state, seat),
        None => engine.omniscient_view(state),
    }
}

/// Whether the public view of `state` hides anything.
fn hides_something(engine: &Engine, state: &State) -> bool {
    let v = engine.public_view(state);
    v.cells
        .iter()
        .chain(v.zones.iter().flatten())
        .any(|x| matches!(x, crate::engine::Seen::Hidden { .. }))
}

pub fn run(file: &Path, log_path: &Path, verbose: bool, view: &ViewOpts) -> i32 {
    let rules_text = crate::check::read_text(file).unwrap_or_default();
    let log = match read_log(log_path, &rules_text) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let compiled = match load(file, log.variant.as_deref()) {
        Ok(c) => c,
        Err(code) => return code,
    };
    // The cap the game was played under, if the log says; none otherwise (a game with a
    // person at a seat is never capped).
    let engine = engine_for(compiled, Some(log.max_turns.unwrap_or(u32::MAX)));
    if let Some(p) = log.players {
        if super::player_count(&engine, Some(p)).is_err() {
            return EXIT_INVALID;
        }
    }
    // A finished game replays in full. An unfinished one shows one seat's view (`--as`),
    // everything only with `--reveal`, and by default what every seat may see: whoever
    // reads a replay must not learn what the players could not.
    let finished = match replay_log(&engine, &log, |_, _| {}) {
        Ok(state) => engine.outcome(&state).is_some(),
        Err(_) => false,
    };
    let asked = match viewer(&engine, view, Some(NO_SEAT)) {
        Ok(v) => v,
        Err(code) => return code,
    };
    let who = if finished && view.as_seat.is_none() {
        None
    } else {
        asked
    };
    let result = replay_log(&engine, &log, |state, step| {
        if verbose {
            if let Some(step) = step {
                let told = engine.announce(step.before, state, step.action, step.seat, who);
                let name = |q: u8| engine.game.seats[q as usize].name.clone();
                match &told.text {
                    Some(text) => println!("> {}: {text}", name(step.seat)),
                    None => println!("> {}: (a secret choice)", name(step.seat)),
                }
                for (q, text) in &told.revealed {
                    println!("> {} (revealed): {text}", name(*q));
                }
            }
            println!("{}", render_view(&engine, &view_for(&engine, state, who)));
        }
    });
    match result {
        Ok(state) => {
            if !verbose {
                println!("{}", render_view(&engine, &view_for(&engine, &state, who)));
            }
            let shown = match who {
                None => String::new(),
                Some(NO_SEAT) if hides_something(&engine, &state) => " (unfinished: shown as every seat may see it; --as SEAT for one seat's view, --reveal for everything)".into(),
                Some(NO_SEAT) => String::new(),
                Some(s) => format!(" (shown as {} sees it)", engine.game.seats[s as usize].name),
            };
            println!(
                "{} action(s) replayed: {}{shown}",
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
