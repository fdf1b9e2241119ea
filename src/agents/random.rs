//! The random agent: uniform over the legal actions.

use super::Agent;
use crate::engine::{Action, View};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub struct RandomAgent {
    rng: ChaCha8Rng,
}

impl RandomAgent {
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Agent for RandomAgent {
    fn name(&self) -> &str {
        "random"
    }
    fn choose(&mut self, _view: &View, legal: &[Action]) -> usize {
        self.rng.gen_range(0..legal.len())
    }
    /// Uniform over `legal`: the view is never made.
    fn choose_lazily(&mut self, _view: &dyn Fn() -> View, legal: &[Action]) -> usize {
        self.rng.gen_range(0..legal.len())
    }
}
