//! Agents: players that choose among the legal actions from their own view only.

mod random;

pub use random::RandomAgent;

use crate::engine::{Action, View};

/// A player. It is shown its seat's view and the legal actions, never the full state.
pub trait Agent: Send {
    fn name(&self) -> &str;
    /// Picks the index of one of `legal` (which is never empty).
    fn choose(&mut self, view: &View, legal: &[Action]) -> usize;
}

/// Builds an agent by name (`random`), seeded.
pub fn by_name(name: &str, seed: u64) -> Option<Box<dyn Agent>> {
    match name {
        "random" => Some(Box::new(RandomAgent::new(seed))),
        _ => None,
    }
}

/// The names `by_name` knows.
pub const AGENT_NAMES: [&str; 1] = ["random"];
