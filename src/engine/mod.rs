//! The engine: a generic interpreter for any IR game.
//!
//! The API has the shape `start / decider / legal_actions / apply / outcome / view`.
//! Architecture invariant: nothing here knows any particular game; every rule comes from
//! the IR.

mod ahead;
mod best;
mod budget;
mod effects;
mod eval;
mod geometry;
mod graph;
mod history;
mod hoist;
mod legal;
mod memo;
mod notation;
mod once;
mod patterns;
mod plan;
mod pool;
mod profile;
mod reuse;
mod sample;
mod state;
mod subsets;
mod trials;
mod turns;
mod view;

pub use ahead::Playout;
pub use budget::{MAX_LEGAL_ACTIONS, MAX_LIST, MAX_WORK};
pub use effects::MAX_TRIGGER_DEPTH;
pub use legal::{
    Action, Args, Listed, DONE as DONE_ACTION, MAX_ACTIONS_PER_TURN, SKIP as SKIP_ACTION,
};
pub use notation::Announcement;
pub use profile::{take_clause_costs, ActionCost, ClauseCost};
pub use state::{Loc, Outcome, Seats, State, NONE, NO_SEAT};
pub use view::{Seen, View};

use crate::ir::{Clause, Expr, Game, Stmt, StuckRule, Value, ZoneId};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum EngineError {
    #[error("{game} is for {min} to {max} players, not {asked}")]
    Players {
        game: String,
        min: u8,
        max: u8,
        asked: u8,
    },
    #[error("`{text}` is not a legal action here: {reason}")]
    Illegal { text: String, reason: String },
    #[error("the game is over")]
    Over,
    #[error("rules error [{}]: {}", .0.code, .0.message)]
    Rules(RulesError),
}

/// A rules error at play time: rules that passed the checker asked for something the
/// position cannot give (a move onto an occupied cell, a game that makes no progress, a
/// decision past its budget). It has a stable code, like a check error, and its message
/// says where: the clause or action at work and its place in the rules file.
#[derive(Debug, Clone, PartialEq)]
pub struct RulesError {
    pub code: &'static str,
    pub message: String,
}

/// The codes of rules errors at play time (docs/language.md, section 23, lists them).
pub mod code {
    /// A limit of one decision went over: work, list length, legal actions, a range, subsets.
    pub const LIMIT: &str = "muster::run::limit";
    /// The rules go round without anyone deciding: empty turns, endless turns, effects or
    /// triggers.
    pub const NO_PROGRESS: &str = "muster::run::no-progress";
    /// A card or piece moved onto a cell that holds another.
    pub const OCCUPIED: &str = "muster::run::occupied";
    /// A move or shift to a cell the board (or an area's shape) does not have.
    pub const OFF_BOARD: &str = "muster::run::off-board";
    /// An effect given a value it cannot use (nothing where a seat or a place was needed).
    pub const VALUE: &str = "muster::run::value";
    /// An area cannot take the shape asked for.
    pub const SHAPE: &str = "muster::run::shape";
    /// A phase in which no seat can take a turn.
    pub const NO_SEAT: &str = "muster::run::no-seat";
}

impl EngineError {
    /// A rules error with its code.
    pub fn rules(code: &'static str, message: impl Into<String>) -> EngineError {
        EngineError::Rules(RulesError {
            code,
            message: message.into(),
        })
    }

    /// A rules error's message with where it happened added (`..., in PLACE`); other
    /// errors unchanged.
    pub(crate) fn within(self, place: impl FnOnce() -> String) -> EngineError {
        match self {
            EngineError::Rules(mut r) => {
                r.message = format!("{}, in {}", r.message, place());
                EngineError::Rules(r)
            }
            e => e,
        }
    }
}

/// The most lists one `subsets(...)` yields.
pub const MAX_SUBSETS: usize = 100_000;
pub use patterns::MAX_WAYS;

/// A loaded game, ready to play any number of states.
#[derive(Debug, Clone)]
pub struct Engine {
    pub game: Arc<Game>,
    zone_base: Vec<u16>,
    zone_instances: usize,
    /// Per zone instance (as `State::zones` holds them): whether a trigger runs when a
    /// component enters it (`ENTERED`), when one leaves it (`LEFT`), both or neither; a
    /// move that sets off none looks for none.
    pub(crate) triggered: Vec<u8>,
    /// For components whose label (owner aside) is shared with others: their 1-based
    /// number among those, so that notation names each component once. 0 if unique.
    /// Identical components (twins) share their number: choosing either is one choice.
    label_number: Vec<u16>,
    /// Components with the same kind and attributes share a class: they are twins.
    pub(crate) twin_class: Vec<u16>,
    /// The members of each twin class.
    twins: Vec<Vec<u16>>,
    /// Whether each component has no twin (its class has it alone): one look where a
    /// choice among a zone's components asks it for each.
    lone: Vec<bool>,
    /// Each seat's forward for move patterns, as a unit vector: its attribute named
    /// `forward` (a direction), or up the board (`(0, 1)`) for a seat without one.
    pub(crate) forwards: Vec<(i8, i8)>,
    /// The board's link rule, taken apart for `relink`.
    link_terms: Vec<graph::LinkTerm>,
    /// Each move pattern read as a graph of steps, for moves taken a part at a time.
    pub(crate) steps: Vec<patterns::Steps>,
    /// Per move pattern: whether no two of its ways can end on one cell.
    distinct_ends: Vec<bool>,
    /// The rules' attributes of every component side by side (`comp * attributes + a`),
    /// where every component has a value for each: read without going through the
    /// component (`attr`). Empty otherwise.
    attr_vals: Vec<Value>,
    /// Per move pattern: its rays worked out for each seat's forward, where they can be
    /// (`patterns::Rays`).
    rays: Vec<Vec<((i8, i8), patterns::Rays)>>,
    /// Per action: whether its own effects can declare a winner (`win` or `lose`).
    action_may_win: Vec<bool>,
    /// Per action, per clause: whether applying the action computes that `let` (its
    /// `do`, or a `let` it needs, may read it); false for the other clauses.
    pub(crate) lets_applied: Vec<Box<[bool]>>,
    /// Per action, per clause: its part in walking a choice of subsets and pruning it
    /// (`subsets::roles`).
    pub(crate) prune_roles: Vec<Box<[subsets::Role]>>,
    /// Whether anything besides an action's own effects can declare a winner after any
    /// action: `win` rules in `end`, a turn hook with `win` or `lose`, `on stuck lose`.
    any_may_win: bool,
    /// Whether the end rules read what finishing a turn changes (`phase_turns`,
    /// `repetitions`): if not, a turn that ends with no `after turn` effects does not
    /// judge them again on the position they were just judged on after its last action.
    end_reads_turns: bool,
    /// The statements of `do`s that a trial for `require afterwards` skips, by address in
    /// the rules, sorted (see `trials.rs`).
    trial_skips: Vec<usize>,
    /// For each player count, each component's home seat (see `sample::home_seats`),
    /// worked out when first needed.
    homes: Vec<std::sync::OnceLock<Vec<u8>>>,
    /// For each player count, what of a start is the same for every seed (see `Start`),
    /// learnt by the first `start` for that count that succeeds.
    starts: Vec<std::sync::OnceLock<Option<Start>>>,
    /// For each region, for each of its lists (one per seat, or one): each cell's first
    /// place on it from 1, 0 for a cell not on it (`x in` a region, and a path's order).
    pub(crate) region_places: Vec<Vec<Vec<u16>>>,
    /// Each action's clauses compiled for listing its legal actions (see `plan.rs`);
    /// empty where the tree walk is asked for (`tree_walking`).
    pub(crate) plans: Arc<plan::Plans>,
    /// The parts of actions' clauses remembered within one legal-action query (see
    /// `memo`), by address in `game`.
    pub(crate) memo_nodes: Vec<usize>,
    /// The expressions of statements that hold nodes of `memo_nodes`, by address in
    /// `game` or in the plans' copies, sorted: each is evaluated with values remembered
    /// for that one evaluation (see `memo::effect_nodes`).
    pub(crate) memo_roots: Vec<usize>,
    /// Whether the actions' clauses hold nodes to remember: a legal-action query
    /// remembers values only then.
    pub(crate) query_memo: bool,
    /// The bits of `memo_nodes` (see `memo::filter_bit`).
    pub(crate) memo_filter: u64,
    /// Whether an action has a `require afterwards`: listings are then numbered, so that
    /// each try is made on a copy kept in step (see `judged_afterwards`).
    pub(crate) judges_afterwards: bool,
    /// The board's cells sorted for `present_set`.
    pub(crate) present_cells: graph::PresentCells,
}

/// `Engine::triggered`: a trigger runs when a component enters the zone instance.
pub(crate) const ENTERED: u8 = 1;
/// `Engine::triggered`: a trigger runs when a component leaves the zone instance.
pub(crate) const LEFT: u8 = 2;

/// Something worked out once for each player count up to 8 (`homes`, `starts`), when
/// first needed; a larger count has none kept.
fn per_player_count<T>() -> Vec<std::sync::OnceLock<T>> {
    (0..=8).map(|_| std::sync::OnceLock::new()).collect()
}

/// What of a start is the same for every seed, for one player count (`Engine::start`): a
/// start draws its random numbers from the state's RNG alone, so what comes before its
/// first draw depends only on the rules and the player count.
#[derive(Clone, Debug)]
enum Start {
    /// Nothing up to the first decision draws a random number: the position, copied with
    /// the RNG seeded afresh, and the steps it took.
    Whole(State, u64),
    /// The setup's first `done` statements draw none: the position after them, the locals
    /// they leave, and the effects they ran and the steps they took (counted again, so
    /// that a start gone on from here counts what one from nothing does).
    Part {
        state: State,
        locals: Vec<Value>,
        done: usize,
        ran: u32,
        work: u64,
    },
}

/// A copy of `from`, made in the storage of `into` where there is one (see
/// `Engine::start_reusing`).
fn copied(into: Option<State>, from: &State) -> State {
    match into {
        Some(mut s) => {
            s.clone_from(from);
            s
        }
        None => from.clone(),
    }
}

impl Engine {
    /// Whether a trial of a `do` for `require afterwards` skips `st`, a statement of the
    /// rules (see `trials.rs`).
    #[inline]
    pub(crate) fn trial_skips(&self, st: &crate::ir::Stmt) -> bool {
        trials::skips_statement(&self.trial_skips, st)
    }

    /// The same engine listing legal actions by the tree walk alone, without the
    /// compiled plans, and walking move patterns cell by cell, without their rays worked
    /// out beforehand (`patterns::Rays`): the reference the plans and the rays are tested
    /// against (`tests/plans.rs`).
    pub fn tree_walking(&self) -> Engine {
        Engine {
            rays: vec![Vec::new(); self.rays.len()],
            // Its starts its own, played through by the tree walk.
            starts: per_player_count(),
            plans: Arc::new(plan::Plans {
                actions: Vec::new(),
                wins: Vec::new(),
                draws: Vec::new(),
                score: None,
                links: Vec::new(),
                bodies: Vec::new(),
                applied: Vec::new(),
                conds: Vec::new(),
                phases: Vec::new(),
                values: Vec::new(),
                computers: Vec::new(),
                memo_nodes: Vec::new(),
                memo_roots: Vec::new(),
                lists_never_made: 0,
                pairs_by_direction: 0,
                own_moves: 0,
            }),
            ..self.clone()
        }
    }

    /// How many of the game's move patterns have their rays worked out beforehand, for
    /// one forward or more (`patterns::Rays`).
    pub fn patterns_with_rays(&self) -> usize {
        self.rays.iter().filter(|r| !r.is_empty()).count()
    }

    /// How many of the actions' `let`s hold lists of cells that the plans never make,
    /// since the action only searches them (see `plan/line_lets.rs`).
    pub fn lists_never_made(&self) -> usize {
        self.plans.lists_never_made
    }

    /// How many of the actions' `choose`s of a cell's neighbour or of the first occupied
    /// cell in sight of it, with the `require` after it, the plans judge a direction at a
    /// time for the whole board (see `plan/masks/pairs.rs`).
    pub fn pairs_by_direction(&self) -> usize {
        self.plans.pairs_by_direction
    }

    /// How many of the actions' choices of a seat's pieces, straight followed by the
    /// choice of their destinations or attacks by a pattern written in the rules, the
    /// plans walk as one step, the mover and its rays found once a listing (see
    /// `plan/own_moves.rs`).
    pub fn own_moves(&self) -> usize {
        self.plans.own_moves
    }

    /// How many parts of loops' bodies in the actions' clauses the engine computes once a
    /// walk of their loop rather than once an item (see `once.rs`).
    pub fn loop_parts(&self) -> usize {
        once::count(&self.game)
    }

    /// How many comprehensions keep the items whose key is the greatest (or the least) of
    /// a collection's, computed with each key once (see `best.rs`).
    pub fn bests(&self) -> usize {
        best::count(&self.game)
    }

    /// How many of the game's actions are listed by a compiled plan (the rest by the
    /// tree walk).
    pub fn planned_actions(&self) -> usize {
        self.plans.actions.iter().filter(|p| p.is_some()).count()
    }

    /// How many of the conditions and values that move play on (see `plan::turn_parts`)
    /// the engine finds compiled, and how many there are: the `score` counted, found or
    /// not, with them.
    pub fn planned_turn_parts(&self) -> (usize, usize) {
        let (conds, values) = plan::turn_parts(&self.game);
        let found = conds
            .iter()
            .filter(|e| self.plans.cond(e).is_some())
            .count()
            + values
                .iter()
                .filter(|e| self.plans.value(e).is_some())
                .count()
            + usize::from(self.plans.score.is_some());
        let all = conds.len() + values.len() + usize::from(self.game.end.score.is_some());
        (found, all)
    }

    /// How many of the rules' lists of statements (`setup`, each `do`, each hook, trigger
    /// and reaction that has statements) run compiled (see `plan/bodies.rs`).
    pub fn planned_bodies(&self) -> usize {
        self.plans.bodies.len()
    }

    pub fn new(game: Game) -> Engine {
        Engine::built(game, false)
    }

    /// The same game, its plans counting what each clause of an action takes in listing
    /// the legal actions (`profile::take_clause_costs`, `muster bench --by-clause`). It
    /// plays the same games, more slowly.
    pub fn counting_clauses(&self) -> Engine {
        Engine::built((*self.game).clone(), true)
    }

    fn built(mut game: Game, count_clauses: bool) -> Engine {
        best::rewrite(&mut game);
        hoist::requires(&mut game);
        reuse::shared_tests(&mut game);
        once::loop_parts(&mut game);
        let seats = game.seats.len();
        let mut zone_base = Vec::new();
        let mut n = 0usize;
        for z in &game.zones {
            zone_base.push(n as u16);
            n += if z.per_seat { seats } else { 1 } * z.slots.max(1) as usize;
        }
        fn declares_winner(stmts: &[Stmt]) -> bool {
            stmts.iter().any(|st| {
                let mut any = matches!(st, Stmt::Win(_) | Stmt::Lose(_));
                st.each_body(&mut |b| any = any || declares_winner(b));
                any
            })
        }
        fn reads_turns(e: &Expr) -> bool {
            e.any_node(&mut |x| matches!(x, Expr::PhaseTurns | Expr::Repetitions))
        }
        let lets_applied = game
            .actions
            .iter()
            .map(|a| plan::lets_applied(&a.clauses))
            .collect();
        let prune_roles: Vec<Box<[subsets::Role]>> = game
            .actions
            .iter()
            .map(|a| subsets::roles(&a.clauses))
            .collect();
        let action_may_win = game
            .actions
            .iter()
            .map(|a| {
                a.clauses
                    .iter()
                    .any(|c| matches!(c, Clause::Do(stmts) if declares_winner(stmts)))
            })
            .collect();
        let any_may_win = !game.end.wins.is_empty()
            || game.end.stuck == StuckRule::Lose
            || game.end.stuck_if.iter().any(|(_, r)| *r == StuckRule::Lose)
            || game.phases.iter().any(|p| {
                declares_winner(&p.enter)
                    || declares_winner(&p.before_turn)
                    || declares_winner(&p.after_turn)
            })
            || game.triggers.iter().any(|t| declares_winner(&t.body))
            || game.reactions.iter().any(|r| declares_winner(&r.after));
        let end_reads_turns = (game.end.wins.iter().flat_map(|(w, c)| [w, c]))
            .chain(&game.end.draws)
            .any(reads_turns);
        // The nodes to remember within a query, by address in the rules (which stay put
        // when `game` moves into its `Arc`), and in the plans' copies of them.
        let mut memo_nodes = memo::nodes(&game, &prune_roles);
        let query_memo = !memo_nodes.is_empty();
        let judges_afterwards =
            (game.actions.iter()).any(|a| a.clauses.iter().any(Clause::is_afterwards));
        let (effect_nodes, memo_roots) = memo::effect_nodes(&game);
        memo_nodes.extend(effect_nodes);
        memo_nodes.sort_unstable();
        memo_nodes.dedup();
        // The statements a trial for `require afterwards` skips, by address in the rules.
        let trial_skips = trials::skipped(&game);
        let link_terms = graph::link_terms(game.board.link_rule.as_ref());
        let plans = Arc::new(plan::Plans::build(
            &game,
            &memo_nodes,
            &memo_roots,
            &trial_skips,
            &prune_roles,
            &link_terms,
            count_clauses,
        ));
        memo_nodes.extend_from_slice(&plans.memo_nodes);
        memo_nodes.sort_unstable();
        let mut memo_roots = memo_roots;
        memo_roots.extend_from_slice(&plans.memo_roots);
        memo_roots.sort_unstable();
        // A trigger on a zone runs for each of its instances (every seat's, every number).
        let mut triggered = vec![0u8; n];
        for t in &game.triggers {
            let (from, to) = (
                zone_base[t.zone as usize] as usize,
                zone_base.get(t.zone as usize + 1),
            );
            for f in &mut triggered[from..to.map_or(n, |&b| b as usize)] {
                *f |= if t.enters { ENTERED } else { LEFT };
            }
        }
        let present_cells = graph::PresentCells::of(&game.board);
        let mut engine = Engine {
            game: Arc::new(game),
            zone_base,
            zone_instances: n,
            triggered,
            label_number: vec![],
            twin_class: vec![],
            twins: vec![],
            lone: vec![],
            forwards: vec![],
            link_terms,
            steps: vec![],
            distinct_ends: vec![],
            rays: vec![],
            attr_vals: vec![],
            action_may_win,
            lets_applied,
            prune_roles,
            any_may_win,
            end_reads_turns,
            homes: per_player_count(),
            starts: per_player_count(),
            region_places: vec![],
            plans,
            memo_nodes,
            memo_roots,
            query_memo,
            memo_filter: 0,
            judges_afterwards,
            trial_skips,
            present_cells,
        };
        engine.memo_filter = engine
            .memo_nodes
            .iter()
            .fold(0, |f, &at| f | memo::filter_bit(at));
        let cells = engine.game.board.cells.len();
        engine.region_places = engine
            .game
            .board
            .regions
            .iter()
            .map(|r| {
                r.cells
                    .iter()
                    .map(|list| {
                        let mut places = vec![0u16; cells];
                        for (i, &c) in list.iter().enumerate().rev() {
                            if let Some(p) = places.get_mut(c as usize) {
                                *p = i as u16 + 1;
                            }
                        }
                        places
                    })
                    .collect()
            })
            .collect();
        let forward = engine.game.seat_attrs.iter().position(|a| a == "forward");
        let board = &engine.game.board;
        engine.forwards = engine
            .game
            .seats
            .iter()
            .map(|seat| match forward.map(|a| &seat.attrs[a]) {
                Some(&Value::Dir(d)) => (board.dirs[d as usize].dx, board.dirs[d as usize].dy),
                _ => (0, 1),
            })
            .collect();
        engine.steps = engine
            .game
            .patterns
            .iter()
            .map(|p| patterns::Steps::of(&p.pat))
            .collect();
        engine.distinct_ends = engine
            .game
            .patterns
            .iter()
            .map(|p| patterns::distinct_ends(&p.pat))
            .collect();
        let mut forwards = engine.forwards.clone();
        forwards.sort_unstable();
        forwards.dedup();
        let n = engine.game.attrs.len();
        if (engine.game.components.iter()).all(|c| c.attrs.len() == n) {
            engine.attr_vals = (engine.game.components.iter())
                .flat_map(|c| c.attrs.iter().cloned())
                .collect();
        }
        // Worked out in the patterns' order while there is room (`MOST_RAY_CELLS`).
        let mut room = patterns::MOST_RAY_CELLS;
        engine.rays = (engine.game.patterns.iter())
            .map(|p| {
                (forwards.iter())
                    .filter_map(|&f| Some((f, patterns::Rays::of(board, &p.pat, f, &mut room)?)))
                    .collect()
            })
            .collect();
        let mut classes: std::collections::HashMap<&crate::ir::Component, u16> =
            std::collections::HashMap::new();
        engine.twin_class = engine
            .game
            .components
            .iter()
            .map(|c| {
                let next = classes.len() as u16;
                *classes.entry(c).or_insert(next)
            })
            .collect();
        let classes_n = engine
            .twin_class
            .iter()
            .map(|&k| k as usize + 1)
            .max()
            .unwrap_or(0);
        let mut twins = vec![Vec::new(); classes_n];
        for (c, &k) in engine.twin_class.iter().enumerate() {
            twins[k as usize].push(c as u16);
        }
        engine.lone = (engine.twin_class.iter())
            .map(|&k| twins[k as usize].len() < 2)
            .collect();
        engine.twins = twins;
        // Number the classes that share a label; twins share their number.
        let plain: Vec<String> = (0..engine.game.components.len() as u16)
            .map(|c| engine.notation_for(c, NO_SEAT))
            .collect();
        let mut classes_of: std::collections::HashMap<&str, Vec<u16>> =
            std::collections::HashMap::new();
        for (c, l) in plain.iter().enumerate() {
            let v = classes_of.entry(l.as_str()).or_default();
            if !v.contains(&engine.twin_class[c]) {
                v.push(engine.twin_class[c]);
            }
        }
        engine.label_number = plain
            .iter()
            .enumerate()
            .map(|(c, l)| {
                let v = &classes_of[l.as_str()];
                match v.iter().position(|&k| k == engine.twin_class[c]) {
                    Some(i) if v.len() > 1 => i as u16 + 1,
                    _ => 0,
                }
            })
            .collect();
        engine
    }

    /// The index of a zone's instance for a seat and a number (the seat is ignored for
    /// shared zones, the number for plain ones).
    #[inline]
    pub fn zone_instance(&self, z: ZoneId, seat: u8, slot: u16) -> u16 {
        let zd = &self.game.zones[z as usize];
        let slots = zd.slots.max(1);
        let seat = if zd.per_seat { seat as u16 } else { 0 };
        self.zone_base[z as usize] + seat * slots + slot.min(slots - 1)
    }

    /// Which zone, seat and number an instance index stands for.
    pub fn zone_of_instance(&self, inst: u16) -> (ZoneId, u8, u16) {
        let z = self.zone_base.iter().rposition(|&b| b <= inst).unwrap_or(0);
        let slots = self.game.zones[z].slots.max(1);
        let off = inst - self.zone_base[z];
        (z as ZoneId, (off / slots) as u8, off % slots)
    }

    pub fn zone_instances(&self) -> usize {
        self.zone_instances
    }

    /// A new game for `players` seats, set up with the RNG seeded by `seed`. What of a
    /// start draws no random number is the same for every seed: it is played once for its
    /// player count and copied (`starts`, see `Start`).
    pub fn start(&self, players: u8, seed: u64) -> Result<State, EngineError> {
        self.start_reusing(players, seed, None)
    }

    /// `start`, in the storage of `old` (the last game's state, say): a loop of games that
    /// hands each one's state to the next makes no new storage for it once it has grown
    /// (a zone's list as it fills, the actions of a secret choice). The new game is the
    /// one `start` makes; nothing of `old` is kept but its storage.
    pub fn start_reusing(
        &self,
        players: u8,
        seed: u64,
        old: Option<State>,
    ) -> Result<State, EngineError> {
        let decision = budget::Decision::begin();
        let base = budget::work();
        let known = self.starts.get(players as usize);
        let from = match known.and_then(|k| k.get()) {
            Some(Some(Start::Whole(s, work))) => {
                // The steps it took, counted as if taken again.
                budget::charge(*work);
                let mut s = copied(old, s);
                s.rng = ChaCha8Rng::seed_from_u64(seed);
                return Ok(s);
            }
            Some(Some(part)) => Some(part),
            // Not known yet (this start learns it), or known to be nothing.
            _ => None,
        };
        let learning = known.is_some_and(|k| k.get().is_none());
        let mut learnt = None;
        let r = self
            .start_within_budget(players, seed, from, old, learning.then_some(&mut learnt))
            .map_err(|e| {
                if budget::spent() {
                    e
                } else {
                    e.within(|| "setting up the game".into())
                }
            });
        budget::locate(|| "setting up the game".into());
        let work = budget::work().saturating_sub(base);
        let r = decision.result().and(r);
        if let (Some(known), Ok(s), true) = (known, &r, learning) {
            known.get_or_init(|| {
                if s.rng.get_word_pos() == 0 {
                    Some(Start::Whole(s.clone(), work))
                } else {
                    learnt
                }
            });
        }
        r
    }

    /// `start`, and the evaluation steps it took of the decision's budget: a start gone on
    /// from what an earlier one learnt charges what one from nothing does
    /// (`tests/starts.rs` checks it).
    pub fn start_and_work(&self, players: u8, seed: u64) -> (Result<State, EngineError>, u64) {
        let _outer = budget::Decision::begin();
        let r = self.start(players, seed);
        (r, budget::work())
    }

    /// `start`, counted against the decision's budget: from the part of a start already
    /// known (`from`), or from nothing; `learn`, when this start is the first for its
    /// player count, is given what later starts may go on from (see `Start::Part`).
    fn start_within_budget(
        &self,
        players: u8,
        seed: u64,
        from: Option<&Start>,
        old: Option<State>,
        learn: Option<&mut Option<Start>>,
    ) -> Result<State, EngineError> {
        let g = &self.game;
        let base = budget::work();
        let mut runner = effects::Runner::new(self, 0);
        let (mut s, mut locals, mut done) = match from {
            Some(Start::Part {
                state,
                locals: kept,
                done,
                ran,
                work,
            }) => {
                // The steps and effects the part took, counted as if taken again.
                budget::charge(*work);
                runner.count_ran(*ran);
                let mut s = copied(old, state);
                s.rng = ChaCha8Rng::seed_from_u64(seed);
                let mut locals = pool::Locals::new(g.max_locals.max(2) as usize + 1);
                for (slot, v) in locals.iter_mut().zip(kept) {
                    pool::assign(slot, v);
                }
                (s, locals, *done)
            }
            _ => {
                let (s, locals) = self.fresh(players, seed)?;
                (s, locals, 0)
            }
        };
        let all = g.setup.len();
        if let Some(learn) = learn {
            // The first start for this player count: the setup run a statement at a time,
            // the position before each kept while none has drawn a random number, so that
            // later starts go on from the last such.
            let here = |s: &State, locals: &[Value], done, runner: &effects::Runner| Start::Part {
                state: s.clone(),
                locals: locals.to_vec(),
                done,
                ran: runner.ran(),
                work: budget::work().saturating_sub(base),
            };
            while done < all && s.rng.get_word_pos() == 0 {
                let before = here(&s, &locals, done, &runner);
                runner.run_part(&mut s, &g.setup, done..done + 1, &mut locals)?;
                done += 1;
                *learn = Some(before);
            }
            if s.rng.get_word_pos() == 0 {
                *learn = Some(here(&s, &locals, done, &runner));
            }
        }
        runner.run_part(&mut s, &g.setup, done..all, &mut locals)?;
        self.begin_phase(&mut s, g.first_phase, &mut locals)?;
        if g.history {
            // The position before the first turn, as if the seat before the first had just
            // ended its turn.
            let last = (s.turn_seat + players - 1) % players;
            let key = self.position_key(&s, last);
            s.history.push(key);
        }
        Ok(s)
    }

    /// A new game's position before its setup runs: the board and zones as declared, the
    /// variables at their first values; and the locals, from the pool (a list the setup
    /// leaves in one goes back with them).
    fn fresh(&self, players: u8, seed: u64) -> Result<(State, pool::Locals), EngineError> {
        let g = &self.game;
        if players < g.min_players || players > g.max_players {
            return Err(EngineError::Players {
                game: g.title.clone(),
                min: g.min_players,
                max: g.max_players,
                asked: players,
            });
        }
        let ncomp = g.components.len();
        let mut s = State {
            players,
            cells: vec![NONE; g.board.cells.len()],
            zones: vec![Vec::new(); self.zone_instances],
            locs: vec![Loc::Zone(0); ncomp],
            owners: vec![NO_SEAT; ncomp],
            face_up: vec![true; ncomp],
            globals: vec![Value::None; g.vars.len()],
            seat_vars: vec![Value::None; g.vars.len() * players as usize],
            comp_vars: vec![
                Value::None;
                if g.vars.iter().any(|v| v.per_piece) {
                    g.vars.len() * ncomp
                } else {
                    0
                }
            ],
            attr_over: Vec::new(),
            ending_turn: false,
            eliminated: vec![false; players as usize],
            phase: 0,
            turn_seat: 0,
            step: 0,
            turns: 0,
            phase_turns: 0,
            turn_actions: 0,
            actions: 0,
            outcome: None,
            reactions: Vec::new(),
            shapes: vec![NONE; self.area_instances()],
            links: Vec::new(),
            secret: Vec::new(),
            history: Vec::new(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            occupancy: Vec::new(),
            chooser: Default::default(),
            ahead: Default::default(),
        };
        s.reindex();
        for (zi, z) in g.zones.iter().enumerate() {
            for (seat, comps) in z.initial.iter().enumerate() {
                for &c in comps {
                    self.put_zone(&mut s, c, zi as ZoneId, seat as u8, 0);
                    if !z.per_seat {
                        s.set_owner(c, NO_SEAT);
                    }
                }
            }
        }
        let mut locals = pool::Locals::new(g.max_locals.max(2) as usize + 1);
        self.relink(&mut s, &mut locals);
        for (i, v) in g.vars.iter().enumerate() {
            if v.per_piece {
                let val = eval::Eval {
                    eng: self,
                    s: &s,
                    me: 0,
                }
                .eval(&v.init, &mut locals);
                for c in 0..ncomp {
                    pool::store(&mut s.comp_vars[c * g.vars.len() + i], val.clone());
                }
                pool::recycle(val);
            } else if v.per_seat {
                for p in 0..players {
                    let val = eval::Eval {
                        eng: self,
                        s: &s,
                        me: p,
                    }
                    .eval(&v.init, &mut locals);
                    pool::store(&mut s.seat_vars[p as usize * g.vars.len() + i], val);
                }
            } else {
                let val = eval::Eval {
                    eng: self,
                    s: &s,
                    me: 0,
                }
                .eval(&v.init, &mut locals);
                // The state keeps lists of its own, not the pool's (see `pool::store`).
                pool::store(&mut s.globals[i], val);
            }
        }
        Ok((s, locals))
    }

    /// Whether applying `act` could end the game with a win (for anyone). False only when
    /// no effect that applying it runs can declare a winner: the action's own effects have
    /// no `win` or `lose`, no turn hook has either, the `end` rules declare no `win`, and a
    /// stuck seat does not lose. Search agents skip such actions when looking for a win.
    pub fn may_win_at_once(&self, act: &Action) -> bool {
        self.any_may_win
            || self
                .action_may_win
                .get(act.action as usize)
                .copied()
                .unwrap_or(false)
    }

    /// Who must decide now, or `None` when the game is over.
    pub fn decider(&self, s: &State) -> Option<u8> {
        if s.outcome.is_some() {
            return None;
        }
        let _decision = budget::Decision::begin();
        Some(self.step_decider(s))
    }

    pub fn outcome<'s>(&self, s: &'s State) -> Option<&'s Outcome> {
        s.outcome.as_ref()
    }

    // ---- component bookkeeping -------------------------------------------------

    pub(crate) fn take(&self, s: &mut State, comp: u16) {
        match s.locs[comp as usize] {
            Loc::Cell(c) => {
                if s.cells[c as usize] == comp {
                    s.set_cell(c, NONE);
                }
            }
            Loc::Zone(inst) => {
                // A component is in a zone once: taken from the top (the last) at once,
                // else looked for from the bottom (a deal takes the first).
                let z = &mut s.zones[inst as usize];
                if z.last() == Some(&comp) {
                    z.pop();
                } else if let Some(i) = z.iter().position(|&x| x == comp) {
                    z.remove(i);
                }
            }
        }
    }

    pub(crate) fn put_cell(&self, s: &mut State, comp: u16, cell: u16) {
        s.locs[comp as usize] = Loc::Cell(cell);
        s.set_cell(cell, comp);
    }

    /// Puts `comp` on top of zone `z` (of `seat`, number `slot`); the zone instance it
    /// went into.
    pub(crate) fn put_zone(&self, s: &mut State, comp: u16, z: ZoneId, seat: u8, slot: u16) -> u16 {
        let (inst, owner) = self.zone_into(z, seat, slot);
        self.put_into(s, comp, inst, owner);
        inst
    }

    /// The instance of zone `z` of `seat`, number `slot`, and the seat a component put
    /// there belongs to: that seat in a per-seat zone; in a shared zone, no one (so
    /// nothing about where it came from shows in anyone's view).
    #[inline]
    pub(crate) fn zone_into(&self, z: ZoneId, seat: u8, slot: u16) -> (u16, u8) {
        let per_seat = self.game.zones[z as usize].per_seat;
        (
            self.zone_instance(z, seat, slot),
            if per_seat { seat } else { NO_SEAT },
        )
    }

    /// Puts `comp` on top of zone instance `inst`, belonging to `owner` there (see
    /// `zone_into`).
    #[inline]
    pub(crate) fn put_into(&self, s: &mut State, comp: u16, inst: u16, owner: u8) {
        s.zones[inst as usize].push(comp);
        s.locs[comp as usize] = Loc::Zone(inst);
        s.set_owner(comp, owner);
    }

    pub(crate) fn eliminate(&self, s: &mut State, p: u8) {
        if (p as usize) < s.eliminated.len() {
            s.eliminated[p as usize] = true;
        }
        // Counted in place: the list of winners is made only when the game ends.
        let mut alive = (0..s.players).filter(|&q| !s.eliminated[q as usize]);
        match (alive.next(), alive.next()) {
            (Some(last), None) => s.outcome = Some(Outcome::Win(Seats::from_slice(&[last]))),
            (None, _) => s.outcome = Some(Outcome::Draw),
            _ => {}
        }
    }

    /// `along(path, c, k)` on declared path `r` (`list`: the seat's, for a path per seat):
    /// the cell `k` places from `c`'s, its place looked up (none past an open path's
    /// ends, or if `c` is not on it); `None` if the path has no such list.
    #[inline]
    pub(crate) fn along_path(&self, r: usize, list: usize, c: u16, k: i64) -> Option<Value> {
        let def = &self.game.board.regions[r];
        let (places, cells) = (self.region_places[r].get(list)?, def.cells.get(list)?);
        let at = places.get(c as usize).copied().unwrap_or(0);
        Some(
            match at
                .checked_sub(1)
                .and_then(|at| crate::ir::ops::step_along(cells.len(), at as usize, k, def.loops))
            {
                Some(i) => Value::Cell(cells[i]),
                None => Value::None,
            },
        )
    }

    /// `x in` a region's list (`list`: the seat's, for a region per seat): whether `x` is
    /// on it, and how many of its cells a walk looks at to know (up to `x`, or all);
    /// `None` if the region has no such list.
    pub(crate) fn region_place(&self, r: usize, list: usize, x: &Value) -> Option<(bool, u64)> {
        let places = self.region_places[r].get(list)?;
        let place = match *x {
            Value::Cell(c) => places.get(c as usize).copied().unwrap_or(0),
            _ => 0,
        };
        Some(match place {
            0 => (false, self.game.board.regions[r].cells[list].len() as u64),
            p => (true, p as u64),
        })
    }

    /// A component's label, as the rules file's `label` spells it.
    pub fn label(&self, s: &State, comp: u16) -> String {
        self.label_in(s, comp, s.owners[comp as usize])
    }

    /// Whether `c`, walked in a choice's domain, is the same choice as a component
    /// `offered` before in the walk (see `same_choice`); if not, it is noted as offered.
    /// `distinct`: the domain holds each component once (a zone), so a component with no
    /// twin was not offered before and is the same choice as none after it: it is neither
    /// looked for nor noted.
    #[inline(always)]
    pub(crate) fn offered_again(
        &self,
        s: &State,
        offered: &mut smallvec::SmallVec<[u16; 16]>,
        c: u16,
        distinct: bool,
    ) -> bool {
        // The common case (a card of a deck without twins, from a hand) decided inline.
        if distinct && self.twinless(c) {
            return false;
        }
        self.offered_or_noted(s, offered, c)
    }

    /// Whether component `c` has no twin: it is the same choice only as itself.
    #[inline(always)]
    fn twinless(&self, c: u16) -> bool {
        self.lone[c as usize]
    }

    /// `offered_again`, where `c` is looked for among those offered.
    fn offered_or_noted(
        &self,
        s: &State,
        offered: &mut smallvec::SmallVec<[u16; 16]>,
        c: u16,
    ) -> bool {
        let again = if self.twinless(c) {
            offered.contains(&c)
        } else {
            offered.iter().any(|&o| self.same_comp(s, o, c))
        };
        if !again {
            offered.push(c);
        }
        again
    }

    /// Whether two values are the same choice: equal, or twin components in one place.
    #[inline]
    pub(crate) fn same_choice(&self, s: &State, a: &Value, b: &Value) -> bool {
        match (a, b) {
            (&Value::Comp(x), &Value::Comp(y)) => self.same_comp(s, x, y),
            _ => a == b,
        }
    }

    /// `same_choice` of two components: the same one, or twins in one place.
    #[inline(always)]
    fn same_comp(&self, s: &State, x: u16, y: u16) -> bool {
        x == y
            || (self.twin_class[x as usize] == self.twin_class[y as usize]
                && s.locs[x as usize] == s.locs[y as usize]
                && self.same_attrs_now(s, x, y))
    }

    /// A component as notation writes it: its label, and `#k` if the label is shared.
    pub fn comp_text(&self, s: &State, comp: u16) -> String {
        self.comp_text_known_to(s, comp, None)
    }

    /// A component as notation writes it for `knower` (`None`: any seat).
    ///
    /// A twin in another place is a different choice with the same label: say where
    /// this one is, so that the two do not share a text. (Twins in one place are one
    /// choice.) A component in public view is placed when a twin is in public view
    /// elsewhere; one out of public view when a twin is out of public view in another
    /// place and a seat knows both places: it sees the component there, or the place is
    /// one of its own zones (its hand hidden even from itself is still its hand). Places
    /// no seat knows together are not named, so the text reveals nothing hidden; and a
    /// text announced to one seat names the place only if that seat knows both.
    pub(crate) fn comp_text_known_to(&self, s: &State, comp: u16, knower: Option<u8>) -> String {
        let mut text = self.comp_label_text(s, comp, s.owners[comp as usize]);
        let class = self.twin_class[comp as usize];
        let here = s.locs[comp as usize];
        let public = self.is_public(s, comp);
        let knows_both = |t: u16, p: u8| self.knows(s, comp, p) && self.knows(s, t, p);
        let elsewhere = self.twins[class as usize].iter().any(|&t| {
            t != comp
                && s.locs[t as usize] != here
                && if public {
                    self.is_public(s, t)
                } else {
                    !self.is_public(s, t)
                        && match knower {
                            Some(p) => knows_both(t, p),
                            None => (0..s.players).any(|p| knows_both(t, p)),
                        }
                }
        });
        if elsewhere {
            text.push('@');
            text.push_str(&self.place_text(here));
        }
        text
    }

    /// Whether a seat knows a component's place: it sees the component there, or the
    /// place is one of the seat's own zones.
    fn knows(&self, s: &State, comp: u16, seat: u8) -> bool {
        self.sees(s, comp, seat)
            || match s.locs[comp as usize] {
                Loc::Zone(inst) => {
                    let (z, zs, _) = self.zone_of_instance(inst);
                    self.game.zones[z as usize].per_seat && zs == seat
                }
                Loc::Cell(_) => false,
            }
    }

    /// A component's notation without its place: its label, and `#k` if it is shared.
    pub(crate) fn comp_label_text(&self, s: &State, comp: u16, owner: u8) -> String {
        let text = self.notation_with(comp, owner, &s.attr_over);
        match self.label_number[comp as usize] {
            0 => text,
            k => format!("{text}#{k}"),
        }
    }

    /// Whether a seat can see a component where it is (as its view shows it).
    fn sees(&self, s: &State, comp: u16, seat: u8) -> bool {
        match s.locs[comp as usize] {
            Loc::Cell(_) => s.face_up[comp as usize] || s.owners[comp as usize] == seat,
            Loc::Zone(inst) => {
                let (z, zs, _) = self.zone_of_instance(inst);
                let zd = &self.game.zones[z as usize];
                match zd.visibility {
                    crate::ir::Visibility::Public => true,
                    crate::ir::Visibility::Owner => zd.per_seat && zs == seat,
                    crate::ir::Visibility::Hidden => false,
                    crate::ir::Visibility::Top => s.zones[inst as usize].last() == Some(&comp),
                }
            }
        }
    }

    /// Whether everyone can see a component where it is: what a spectator's view shows.
    fn is_public(&self, s: &State, comp: u16) -> bool {
        self.visible_to(s, comp, Some(NO_SEAT))
    }

    /// A place as notation writes it: a cell's name, or a zone's (`meld2@P1`).
    pub fn place_text(&self, loc: Loc) -> String {
        match loc {
            Loc::Cell(c) => self.game.board.cells[c as usize].name.clone(),
            Loc::Zone(inst) => {
                let (z, seat, slot) = self.zone_of_instance(inst);
                let mut t = self.game.zones[z as usize].name.clone();
                if self.game.zones[z as usize].slots > 1 {
                    t.push_str(&(slot + 1).to_string());
                }
                if self.game.zones[z as usize].per_seat {
                    t.push('@');
                    t.push_str(&self.game.seats[seat as usize].name);
                }
                t
            }
        }
    }

    /// A component's label when owned by `owner` (as a view records it).
    /// With the rules' own attributes; see `label_with` for attributes changed in play.
    pub fn label_for(&self, comp: u16, owner: u8) -> String {
        self.label_with(comp, owner, &[])
    }

    /// A component's label with the attributes changed in play that `over` lists
    /// (`State::attr_over`, or a view's).
    pub fn label_with(&self, comp: u16, owner: u8, over: &[(u16, u16, Value)]) -> String {
        let g = &self.game;
        self.render_parts(
            comp,
            owner,
            &g.kinds[g.components[comp as usize].kind as usize].label,
            over,
        )
    }

    /// A component's label in a state, as it is now.
    pub fn label_in(&self, s: &State, comp: u16, owner: u8) -> String {
        self.label_with(comp, owner, &s.attr_over)
    }

    /// A component as actions name it: its kind's `notation`, or else its label.
    pub fn notation_for(&self, comp: u16, owner: u8) -> String {
        self.notation_with(comp, owner, &[])
    }

    /// `notation_for` with the attributes changed in play that `over` lists.
    pub fn notation_with(&self, comp: u16, owner: u8, over: &[(u16, u16, Value)]) -> String {
        let g = &self.game;
        let kind = &g.kinds[g.components[comp as usize].kind as usize];
        self.render_parts(
            comp,
            owner,
            kind.notation.as_ref().unwrap_or(&kind.label),
            over,
        )
    }

    /// Move pattern `p` as the walker takes it.
    #[inline]
    pub(crate) fn moves(&self, p: u16) -> patterns::Moves<'_> {
        patterns::Moves {
            pat: &self.game.patterns[p as usize].pat,
            distinct: self.distinct_ends[p as usize],
            rays: &self.rays[p as usize],
        }
    }

    /// A component's attribute as it stands: changed in play, or the rules' own.
    #[inline]
    pub fn attr<'a>(&'a self, s: &'a State, comp: u16, a: u16) -> &'a Value {
        if !s.attr_over.is_empty() {
            if let Some((_, _, v)) = s.attr_over.iter().find(|(c, x, _)| *c == comp && *x == a) {
                return v;
            }
        }
        let n = self.game.attrs.len();
        match self.attr_vals.get(comp as usize * n + a as usize) {
            Some(v) => v,
            None => &self.game.components[comp as usize].attrs[a as usize],
        }
    }

    /// Changes a component's attribute in play, keeping `attr_over` in order and free of
    /// values equal to the rules' own (so that equal positions are equal states).
    pub(crate) fn set_attr(&self, s: &mut State, comp: u16, a: u16, v: Value) {
        let at = s
            .attr_over
            .binary_search_by(|(c, x, _)| (*c, *x).cmp(&(comp, a)));
        let own = self.game.components[comp as usize].attrs[a as usize] == v;
        match (at, own) {
            (Ok(i), true) => {
                s.attr_over.remove(i);
            }
            (Ok(i), false) => s.attr_over[i].2 = v,
            (Err(_), true) => {}
            (Err(i), false) => s.attr_over.insert(i, (comp, a, v)),
        }
    }

    /// Whether two components' attributes are the same now (both changed alike, or
    /// neither changed).
    fn same_attrs_now(&self, s: &State, x: u16, y: u16) -> bool {
        s.attr_over.is_empty()
            || (0..self.game.attrs.len() as u16).all(|a| self.attr(s, x, a) == self.attr(s, y, a))
    }

    fn render_parts(
        &self,
        comp: u16,
        owner: u8,
        parts: &[crate::ir::LabelPart],
        over: &[(u16, u16, Value)],
    ) -> String {
        let g = &self.game;
        let c = &g.components[comp as usize];
        let mut out = String::new();
        for part in parts {
            match part {
                crate::ir::LabelPart::Text(t) => out.push_str(t),
                crate::ir::LabelPart::Owner => {
                    if let Some(seat) = g.seats.get(owner as usize) {
                        out.extend(seat.name.chars().next());
                    }
                }
                crate::ir::LabelPart::Attr(a) => {
                    let v = over
                        .iter()
                        .find(|(x, y, _)| *x == comp && y == a)
                        .map_or(&c.attrs[*a as usize], |(_, _, v)| v);
                    out.push_str(&self.attr_text(*a, v))
                }
            }
        }
        out
    }

    /// An attribute value as text: a declared name for numbers, the short form for enums.
    pub fn attr_text(&self, a: u16, v: &Value) -> String {
        let def = &self.game.attrs[a as usize];
        match (&def.ty, v) {
            (crate::ir::AttrType::Int { lo, .. }, Value::Int(i)) => def
                .names
                .get((i - lo) as usize)
                .cloned()
                .unwrap_or_else(|| i.to_string()),
            (_, Value::Enum(e, x)) => self.game.enums[*e as usize].values[*x as usize].1.clone(),
            (_, other) => format!("{other:?}"),
        }
    }
}
