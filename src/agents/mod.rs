//! Agents: players that choose among the legal actions from their own view only.
//!
//! Architecture invariant: an agent is given its seat's [`View`] and the legal actions,
//! never the [`State`](crate::engine::State). Search agents hold the [`Engine`] (the rules)
//! and play out states they sample from the view ([`Engine::sample_state`]), so nothing
//! hidden from their seat can reach their decisions.

mod greedy;
mod mcts;
mod random;
mod reward;

pub use greedy::GreedyAgent;
pub use mcts::{Budget, SearchAgent, Settings, DEFAULT_CUTOFF, DEFAULT_ITERATIONS};
pub use random::RandomAgent;
pub use reward::{rewards, standing};

use crate::engine::{Action, Engine, View};
use std::sync::Arc;

/// A player. It is shown its seat's view and the legal actions, never the full state.
pub trait Agent: Send {
    fn name(&self) -> &str;
    /// Picks the index of one of `legal` (which is never empty).
    fn choose(&mut self, view: &View, legal: &[Action]) -> usize;
}

/// The agent kinds, as `--agents` names them. `mcts` and `ismcts` take a budget after a
/// colon: `mcts:2000` (iterations per decision) or `mcts:500ms` (thinking time).
pub const AGENT_NAMES: [&str; 4] = ["random", "greedy", "mcts", "ismcts"];

/// What an agent name asks for, if it is one.
fn parse(name: &str) -> Option<(&str, Option<Budget>)> {
    let (kind, budget) = match name.split_once(':') {
        Some((k, b)) => (k, Some(b)),
        None => (name, None),
    };
    if !AGENT_NAMES.contains(&kind) {
        return None;
    }
    let budget = match budget {
        None => None,
        Some(_) if !matches!(kind, "mcts" | "ismcts") => return None,
        Some(b) => Some(match b.strip_suffix("ms") {
            Some(ms) => Budget::Millis(ms.parse().ok().filter(|&m| m > 0)?),
            None => Budget::Iterations(b.parse().ok().filter(|&n| n > 0)?),
        }),
    };
    Some((kind, budget))
}

/// Whether `by_name` knows this name.
pub fn is_agent_name(name: &str) -> bool {
    parse(name).is_some()
}

/// Builds an agent by name (see [`AGENT_NAMES`]), seeded, for the game `engine` plays.
pub fn by_name(name: &str, engine: &Arc<Engine>, seed: u64) -> Option<Box<dyn Agent>> {
    let (kind, budget) = parse(name)?;
    let budget = budget.unwrap_or(Budget::Iterations(DEFAULT_ITERATIONS));
    Some(match kind {
        "random" => Box::new(RandomAgent::new(seed)),
        "greedy" => Box::new(GreedyAgent::new(engine.clone(), seed)),
        "mcts" => Box::new(SearchAgent::new(
            engine.clone(),
            Settings::mcts(budget),
            seed,
        )),
        _ => Box::new(SearchAgent::new(
            engine.clone(),
            Settings::ismcts(budget),
            seed,
        )),
    })
}
