//! Loads a rules file through the library and plays one seeded random game.
//!
//! cargo run --example random_game -- games/army_ants.muster 42

use muster::agents::{Agent, RandomAgent};
use muster::check;
use muster::engine::{Engine, Outcome};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| "games/army_ants.muster".into());
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let compiled = match check::compile_file(path.as_ref(), None) {
        Ok(c) => c,
        Err(failed) => {
            eprint!(
                "{}",
                muster::diagnostic::render(&failed.sources, &failed.diagnostics, false)
            );
            std::process::exit(1);
        }
    };
    let engine = Engine::new(compiled.game);
    let players = engine.game.min_players;
    let mut state = engine.start(players, seed).expect("the game starts");
    let mut agent = RandomAgent::new(seed);
    while let Some(seat) = engine.decider(&state) {
        let legal = engine.legal_actions(&state);
        let pick = agent.choose(&engine.view(&state, seat), &legal);
        engine
            .apply_listed(&mut state, &legal[pick])
            .expect("a listed action applies");
    }
    let result = match engine.outcome(&state) {
        Some(Outcome::Win(w)) => format!(
            "{} wins",
            w.iter()
                .map(|s| engine.game.seats[*s as usize].name.as_str())
                .collect::<Vec<_>>()
                .join(" and ")
        ),
        Some(Outcome::Draw) => "a draw".into(),
        Some(Outcome::Capped) => "stopped by the length cap".into(),
        None => unreachable!(),
    };
    println!(
        "{}: seed {seed}: {result} after {} turns ({} actions)",
        engine.game.title, state.turns, state.actions
    );
}
