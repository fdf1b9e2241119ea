//! Monte Carlo tree search (UCT) with random playouts, for any game, from a view.
//!
//! The agent is never given the state. Each search starts from states sampled from its view
//! ([`Engine::sample_state`]): `mcts` samples one state per decision and searches it as if
//! it were the truth (for a view that hides nothing the sample is the state itself, so this
//! is plain UCT); `ismcts` (information-set MCTS, single observer) samples a fresh state on
//! every iteration, so the statistics gather over everything the hidden part could be.
//!
//! The tree's edges are actions; an edge is *available* in an iteration when its action is
//! legal in that iteration's sample, and UCB weighs an edge's visits against how often it
//! was available. Each iteration descends the tree by UCB, adds one edge, plays at random,
//! and credits each edge with the reward of the seat that chose it (max^n: every seat
//! maximises its own reward; see [`super::reward::rewards`]). Two refinements, both generic:
//! a seat that can win at once (each node is checked once, by trying its actions) takes
//! that win in the tree, so a move that hands the opponent an immediate win is seen as
//! lost; and when the rules declare a `score`, playouts stop after a few random actions
//! ([`DEFAULT_CUTOFF`]) and the score judges the position, which measured much stronger
//! than long random playouts (docs/agents.md). Without a score, playouts run to the end.
//! The action finally chosen is the root's most visited, after a last look one move deep: a
//! win on offer is taken, and an action after which the next seat wins at once is not
//! chosen while another is on offer.
//!
//! For a given seed and an iteration budget the choice is deterministic; a time budget is for
//! interactive play only.

use super::reward::rewards;
use super::Agent;
use crate::engine::{Action, Engine, Listed, Outcome, Playout, State, View};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a search may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// This many iterations (playouts) per decision: deterministic for a seed.
    Iterations(u32),
    /// As many iterations as fit in this many milliseconds (at least one).
    Millis(u64),
}

/// The search's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    pub budget: Budget,
    /// Sample a fresh state from the view on every iteration (ISMCTS) rather than once per
    /// decision.
    pub resample: bool,
    /// The UCB exploration constant (rewards are in `[0, 1]`).
    pub exploration: f64,
    /// Stop each random playout after this many actions and judge the position by the
    /// rules' `score` (see [`super::reward::rewards`]); `None` plays to the end (or the
    /// length cap). Ignored, and every playout played to the end, when the rules declare no
    /// score. Short playouts judged by the score play much better than long random ones in
    /// the games measured (docs/agents.md).
    pub playout_cutoff: Option<u32>,
}

impl Settings {
    pub fn mcts(budget: Budget) -> Settings {
        Settings {
            budget,
            resample: false,
            exploration: 0.7,
            playout_cutoff: Some(DEFAULT_CUTOFF),
        }
    }
    pub fn ismcts(budget: Budget) -> Settings {
        Settings {
            resample: true,
            ..Settings::mcts(budget)
        }
    }
}

/// Iterations per decision when a name gives none.
pub const DEFAULT_ITERATIONS: u32 = 1000;
/// Random actions per playout before the declared score decides (see `Settings`).
pub const DEFAULT_CUTOFF: u32 = 1;

const NO_NODE: u32 = 0;

/// Adds an edge for a new action; its index.
fn push_edge(edges: &mut Vec<Edge>, a: &Action) -> usize {
    edges.push(Edge {
        action: a.clone(),
        child: NO_NODE,
        visits: 0,
        avail: 0,
        reward: 0.0,
    });
    edges.len() - 1
}

struct Edge {
    action: Action,
    /// The node reached through this edge, or `NO_NODE` (the root is never a child).
    child: u32,
    visits: u32,
    /// Iterations in which this action was legal at its node.
    avail: u32,
    /// The summed rewards of the seat that chose this action.
    reward: f64,
}

#[derive(Default)]
struct Node {
    edges: Vec<Edge>,
    /// Whether the node has been looked at for an action that wins at once.
    checked: bool,
    /// The edge whose action wins at once for the seat deciding here, if there is one.
    decisive: Option<usize>,
    /// Whether `edges` lists every legal action here, in order (one sample per decision).
    listed: bool,
    /// The edge of each action, for nodes whose actions vary from sample to sample (ISMCTS):
    /// a lookup instead of a search through every action ever seen here.
    index: HashMap<Action, usize>,
}

pub struct SearchAgent {
    engine: Arc<Engine>,
    rng: ChaCha8Rng,
    settings: Settings,
    name: String,
    // Buffers reused across iterations.
    tree: Vec<Node>,
    legal: Listed,
    /// The buffers of the random playouts (see `iterate`).
    playout: Playout,
    /// The edges whose actions are legal in this iteration.
    on_offer: Vec<usize>,
    path: Vec<(u32, usize, u8)>,
    reward: Vec<f64>,
}

impl SearchAgent {
    pub fn new(engine: Arc<Engine>, settings: Settings, seed: u64) -> SearchAgent {
        let kind = if settings.resample { "ismcts" } else { "mcts" };
        let mut name = match settings.budget {
            Budget::Iterations(n) => format!("{kind}:{n}"),
            Budget::Millis(ms) => format!("{kind}:{ms}ms"),
        };
        match settings.playout_cutoff {
            Some(DEFAULT_CUTOFF) => {}
            Some(c) => name.push_str(&format!(":{c}")),
            None => name.push_str(":end"),
        }
        SearchAgent {
            engine,
            rng: ChaCha8Rng::seed_from_u64(seed),
            settings,
            name,
            tree: Vec::new(),
            legal: Listed::new(),
            playout: Playout::new(),
            on_offer: Vec::new(),
            path: Vec::new(),
            reward: Vec::new(),
        }
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The index in `self.legal` (the legal actions at `s`) of an action with which `mover`
    /// wins at once, if any.
    fn decisive(&self, s: &State, mover: u8) -> Option<usize> {
        first_win(&self.engine, s, &self.legal, mover)
    }

    /// Whether, after `a` in `s`, the next seat to decide (another seat) can win at once.
    fn loses_at_once(&mut self, s: &State, a: &Action) -> bool {
        let engine = self.engine.clone();
        let Some(me) = engine.decider(s) else {
            return false;
        };
        let mut t = s.clone();
        if engine.apply_listed(&mut t, a).is_err() || t.outcome.is_some() {
            return false;
        }
        match engine.decider(&t) {
            Some(next) if next != me => {
                engine.legal_into(&t, &mut self.legal);
                self.decisive(&t, next).is_some()
            }
            _ => false,
        }
    }

    /// One iteration from `s`: selection, expansion, playout, back-propagation.
    fn iterate(&mut self, mut s: State) {
        let engine = &*self.engine;
        let mut node = 0u32;
        let mut failed = false;
        self.path.clear();
        while let Some(mover) = engine.decider(&s) {
            // A node's edges, once listed from a state that is the same on every iteration
            // (one sample per decision), are its legal actions in order: no need to ask the
            // engine again. With a fresh sample per iteration they are asked for each time.
            let listed = !self.settings.resample && self.tree[node as usize].listed;
            self.on_offer.clear();
            if listed {
                let edges = &mut self.tree[node as usize].edges;
                for (e, ed) in edges.iter_mut().enumerate() {
                    ed.avail += 1;
                    self.on_offer.push(e);
                }
            } else {
                engine.legal_into(&s, &mut self.legal);
                if self.legal.is_empty() {
                    break;
                }
                // Match each legal action with its edge, adding edges for new actions.
                for (i, a) in self.legal.iter().enumerate() {
                    let Node { edges, index, .. } = &mut self.tree[node as usize];
                    let e = match edges.get(i) {
                        Some(e) if e.action == *a => i,
                        _ if !self.settings.resample => {
                            match edges.iter().position(|e| e.action == *a) {
                                Some(e) => e,
                                None => push_edge(edges, a),
                            }
                        }
                        _ => match index.get(a) {
                            Some(&e) => e,
                            None => {
                                let e = push_edge(edges, a);
                                index.insert(a.clone(), e);
                                e
                            }
                        },
                    };
                    edges[e].avail += 1;
                    self.on_offer.push(e);
                }
                if !self.tree[node as usize].checked {
                    // Once per node: is there an action that wins at once?
                    let decisive = self.decisive(&s, mover).map(|i| self.on_offer[i]);
                    let n = &mut self.tree[node as usize];
                    n.checked = true;
                    n.decisive = decisive;
                }
                self.tree[node as usize].listed = true;
            }
            let n = &self.tree[node as usize];
            let edges = &n.edges;
            // A seat that can win at once does; else an action never tried is tried first;
            // else the best by UCB.
            let untried = self
                .on_offer
                .iter()
                .filter(|&&e| edges[e].visits == 0)
                .count();
            let e = match n.decisive.filter(|d| self.on_offer.contains(d)) {
                Some(d) => d,
                None if untried > 0 => {
                    let k = self.rng.gen_range(0..untried);
                    *self
                        .on_offer
                        .iter()
                        .filter(|&&e| edges[e].visits == 0)
                        .nth(k)
                        .expect("k < untried")
                }
                None => {
                    let c = self.settings.exploration;
                    let mut best = (f64::NEG_INFINITY, 0);
                    for &e in &self.on_offer {
                        let ed = &edges[e];
                        let n = ed.visits as f64;
                        let ucb = ed.reward / n + c * ((ed.avail as f64).ln() / n).sqrt();
                        if ucb > best.0 {
                            best = (ucb, e);
                        }
                    }
                    best.1
                }
            };
            let fresh = edges[e].visits == 0;
            self.path.push((node, e, mover));
            if engine.apply_listed(&mut s, &edges[e].action).is_err() {
                failed = true;
                break;
            }
            if fresh {
                break;
            }
            node = match self.tree[node as usize].edges[e].child {
                NO_NODE => {
                    self.tree.push(Node::default());
                    let child = (self.tree.len() - 1) as u32;
                    self.tree[node as usize].edges[e].child = child;
                    child
                }
                child => child,
            };
        }
        // Playout: uniformly random actions to the end or, if the rules declare a score to
        // judge by, the cut-off.
        let cutoff = self
            .settings
            .playout_cutoff
            .filter(|_| engine.game.end.score.is_some());
        let mut steps = 0u32;
        // Each action's successor listed as it is applied, where the engine can
        // (`Playout`); a listing that meets a rules error ends the playout as no action.
        self.playout.restart();
        while !failed && s.outcome.is_none() && cutoff.is_none_or(|c| steps < c) {
            let n = self.playout.legal(engine, &s).map_or(0, |l| l.len());
            if n == 0 {
                break;
            }
            let i = self.rng.gen_range(0..n);
            failed = self.playout.apply(engine, &mut s, i, None).is_err();
            steps += 1;
        }
        if failed {
            // The rules stopped the game with an error: worth nothing either way.
            self.reward.clear();
            self.reward.resize(s.players as usize, 0.5);
        } else {
            rewards(engine, &s, &mut self.reward);
        }
        for &(n, e, mover) in &self.path {
            let ed = &mut self.tree[n as usize].edges[e];
            ed.visits += 1;
            ed.reward += self.reward.get(mover as usize).copied().unwrap_or(0.0);
        }
    }
}

impl Agent for SearchAgent {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, view: &View, legal: &[Action]) -> usize {
        if legal.len() <= 1 {
            return 0;
        }
        self.tree.clear();
        self.tree.push(Node::default());
        let started = Instant::now();
        let once = (!self.settings.resample).then(|| self.engine.sample_state(view, &mut self.rng));
        let mut done = 0u32;
        loop {
            let go_on = match self.settings.budget {
                Budget::Iterations(n) => done < n.max(1),
                Budget::Millis(ms) => done == 0 || started.elapsed() < Duration::from_millis(ms),
            };
            if !go_on {
                break;
            }
            let s = match &once {
                Some(s) => s.clone(),
                None => self.engine.sample_state(view, &mut self.rng),
            };
            self.iterate(s);
            done += 1;
        }
        // A last look one move deep, on a state sampled from the view: a win on offer is
        // taken, and an action after which the next seat wins at once is not chosen while
        // another is on offer (the search sees both, but a short one may not visit them
        // enough).
        let sample = match once {
            Some(s) => s,
            None => self.engine.sample_state(view, &mut self.rng),
        };
        let win = self
            .engine
            .decider(&sample)
            .and_then(|me| first_win(&self.engine, &sample, legal, me));
        if let Some(i) = win {
            return i;
        }
        // The most visited of the actions actually on offer, ties to the better mean, then
        // to the first listed; the first of them that does not lose at once (each is looked
        // at only when all before it lose), or the best if all lose.
        let root = &self.tree[0].edges;
        let mut ranked: Vec<(u32, f64, usize)> = legal
            .iter()
            .enumerate()
            .map(|(i, a)| {
                root.iter()
                    .find(|e| e.action == *a)
                    .map_or((0, f64::NEG_INFINITY, i), |e| {
                        (e.visits, e.reward / e.visits.max(1) as f64, i)
                    })
            })
            .collect();
        ranked.sort_by(|x, y| {
            y.0.cmp(&x.0)
                .then(y.1.partial_cmp(&x.1).unwrap_or(std::cmp::Ordering::Equal))
                .then(x.2.cmp(&y.2))
        });
        for &(_, _, i) in &ranked {
            if !self.loses_at_once(&sample, &legal[i]) {
                return i;
            }
        }
        ranked.first().map_or(0, |r| r.2)
    }
}

/// The index in `legal` (the legal actions at `s`) of the first action with which `mover`
/// wins at once, if any. Only the actions whose effects may win are tried.
fn first_win(engine: &Engine, s: &State, legal: &[Action], mover: u8) -> Option<usize> {
    legal.iter().position(|a| {
        if !engine.may_win_at_once(a) {
            return false;
        }
        let mut t = s.clone();
        engine.apply_listed(&mut t, a).is_ok()
            && matches!(&t.outcome, Some(Outcome::Win(w)) if w[..] == [mover])
    })
}
