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

    /// `choose`, with the view made only if the agent looks at it (`view` makes it): a
    /// caller playing many games (`muster simulate`) does not build a view per decision
    /// for an agent that decides without one.
    fn choose_lazily(&mut self, view: &dyn Fn() -> View, legal: &[Action]) -> usize {
        self.choose(&view(), legal)
    }
}

/// The agent kinds, as `--agents` names them. `mcts` and `ismcts` take a budget after a
/// colon: `mcts:2000` (iterations per decision) or `mcts:500ms` (thinking time); and, after
/// a second colon, how many random actions a playout takes before the declared score
/// judges it (`mcts:2000:10`), or `end` to play every playout to the end (`mcts:2000:end`).
pub const AGENT_NAMES: [&str; 4] = ["random", "greedy", "mcts", "ismcts"];

/// An agent name's parts: the kind, and for a search its budget and playout length.
struct Parsed<'a> {
    kind: &'a str,
    budget: Option<Budget>,
    cutoff: Option<Option<u32>>,
}

fn parse(name: &str) -> Option<Parsed<'_>> {
    let mut parts = name.split(':');
    let kind = parts.next()?;
    if !AGENT_NAMES.contains(&kind) {
        return None;
    }
    let (budget, cutoff) = (parts.next(), parts.next());
    if parts.next().is_some() || (budget.is_some() && !matches!(kind, "mcts" | "ismcts")) {
        return None;
    }
    let budget = match budget {
        None => None,
        Some(b) => Some(match b.strip_suffix("ms") {
            Some(ms) => Budget::Millis(ms.parse().ok().filter(|&m| m > 0)?),
            None => Budget::Iterations(b.parse().ok().filter(|&n| n > 0)?),
        }),
    };
    let cutoff = match cutoff {
        None => None,
        Some("end") => Some(None),
        Some(c) => Some(Some(c.parse().ok()?)),
    };
    Some(Parsed {
        kind,
        budget,
        cutoff,
    })
}

/// Whether `by_name` knows this name.
pub fn is_agent_name(name: &str) -> bool {
    parse(name).is_some()
}

/// Builds an agent by name (see [`AGENT_NAMES`]), seeded, for the game `engine` plays.
/// The seed of the agent at `seat` in a game dealt with `game_seed`: the same in `play`
/// and `simulate`, so that a simulated game is played again by `muster play --seed`.
pub fn agent_seed(game_seed: u64, seat: usize) -> u64 {
    game_seed.wrapping_add(1 + seat as u64)
}

pub fn by_name(name: &str, engine: &Arc<Engine>, seed: u64) -> Option<Box<dyn Agent>> {
    let p = parse(name)?;
    let budget = p.budget.unwrap_or(Budget::Iterations(DEFAULT_ITERATIONS));
    let search = |mut settings: Settings| {
        if let Some(c) = p.cutoff {
            settings.playout_cutoff = c;
        }
        Box::new(SearchAgent::new(engine.clone(), settings, seed))
    };
    Some(match p.kind {
        "random" => Box::new(RandomAgent::new(seed)),
        "greedy" => Box::new(GreedyAgent::new(engine.clone(), seed)),
        "mcts" => search(Settings::mcts(budget)),
        _ => search(Settings::ismcts(budget)),
    })
}
