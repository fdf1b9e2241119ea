//! The greedy agent: one step of look-ahead. It tries each legal action on a state sampled
//! from its view and keeps the one that leaves it best placed: a win first, never a loss,
//! then the most of the rules' declared score ahead of the best other seat. Ties are
//! broken at random, so a game without a score is played at random but for wins in one.

use super::reward::standing;
use super::Agent;
use crate::engine::{Action, Engine, View};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

pub struct GreedyAgent {
    engine: Arc<Engine>,
    rng: ChaCha8Rng,
}

impl GreedyAgent {
    pub fn new(engine: Arc<Engine>, seed: u64) -> GreedyAgent {
        GreedyAgent {
            engine,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Agent for GreedyAgent {
    fn name(&self) -> &str {
        "greedy"
    }

    fn choose(&mut self, view: &View, legal: &[Action]) -> usize {
        let engine = &*self.engine;
        let Some(me) = view.decider.or(view.seat) else {
            return 0;
        };
        let sample = engine.sample_state(view, &mut self.rng);
        let mut best = f64::NEG_INFINITY;
        let mut ties = 0u32;
        let mut pick = 0;
        for (i, a) in legal.iter().enumerate() {
            let mut s = sample.clone();
            // Checked: an action legal in the real state may not be in the sample.
            let value = match engine.apply(&mut s, a) {
                Ok(()) => standing(engine, &s, me),
                Err(_) => f64::NEG_INFINITY,
            };
            if value > best {
                (best, ties, pick) = (value, 1, i);
            } else if value == best {
                // Reservoir sampling: each of the tied actions is kept with equal chance.
                ties += 1;
                if self.rng.gen_range(0..ties) == 0 {
                    pick = i;
                }
            }
        }
        pick
    }
}
