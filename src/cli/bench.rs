//! `muster bench`: random playouts per second and legal-action queries per second, on one
//! thread and on all of them.

use super::{GameOpts, EXIT_INVALID, EXIT_OK};
use crate::engine::{take_clause_costs, ActionCost, ClauseCost, Engine, Listed, Playout};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::path::Path;
use std::time::{Duration, Instant};

#[derive(Default, Clone, Copy)]
struct Counts {
    playouts: u64,
    actions: u64,
    /// The legal-action queries timed (one in `SAMPLED`), and the time they took.
    timed: u64,
    query_time: Duration,
}

impl Counts {
    /// Legal-action queries per second of the time spent in them, from those timed.
    fn queries_per_second(&self) -> f64 {
        self.timed as f64 / self.query_time.as_secs_f64().max(1e-9)
    }
}

/// One legal-action query in this many is timed, each chosen at random by a generator of
/// its own (the games' draws are not touched). Reading the clock costs about what a fast
/// game's action does: timing every query made the playouts it measures 8-11% slower in
/// the fastest of the shipped games (docs/agents.md, "Speed").
const SAMPLED: u32 = 16;

/// Random playouts on this thread for `secs` seconds; with `costs`, each query's cost by
/// action is added to them.
fn playouts(
    engine: &Engine,
    players: u8,
    seed: u64,
    secs: f64,
    mut costs: Option<&mut Vec<ActionCost>>,
) -> Result<Counts, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut c = Counts::default();
    // As `muster simulate` plays: the next decision's actions listed as the action before
    // is applied, where the engine can (`Playout`), and that listing timed as a query; a
    // profiled run lists and applies apart, to count each on its own.
    let mut playout = Playout::new();
    let mut legal = Listed::new();
    // Whether the next query is timed: drawn before the action that lists it ahead.
    let mut picks = ChaCha8Rng::seed_from_u64(seed ^ 0x7175_6572_7973);
    let mut timed = picks.gen_ratio(1, SAMPLED);
    let end = Instant::now() + Duration::from_secs_f64(secs);
    // Each game starts in the storage of the last (`Engine::start_reusing`).
    let mut last = None;
    while Instant::now() < end {
        let mut s = engine
            .start_reusing(players, rng.gen(), last.take())
            .map_err(|e| e.to_string())?;
        playout.restart();
        while engine.decider(&s).is_some() {
            let t = timed.then(Instant::now);
            let n = match costs.as_deref_mut() {
                Some(costs) => engine
                    .try_legal_into_profiled(&s, &mut legal, costs)
                    .map(|()| legal.len()),
                None => playout.legal(engine, &s).map(|l| l.len()),
            }
            .map_err(|e| e.to_string())?;
            if let Some(t) = t {
                c.query_time += t.elapsed();
                c.timed += 1;
            }
            if n == 0 {
                return Err("no legal action in a running game".into());
            }
            let i = rng.gen_range(0..n);
            timed = picks.gen_ratio(1, SAMPLED);
            match costs.as_deref_mut() {
                Some(costs) => engine.apply_listed_profiled(&mut s, &legal[i], costs),
                None => playout.apply(engine, &mut s, i, timed.then_some(&mut c.query_time)),
            }
            .map_err(|e| e.to_string())?;
            c.actions += 1;
        }
        c.playouts += 1;
        last = Some(s);
    }
    Ok(c)
}

pub fn run(file: &Path, seconds: f64, by: By, opts: &GameOpts) -> i32 {
    let (engine, players) = match super::prepare(file, opts) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let secs = seconds.clamp(0.1, 600.0);
    let one = match playouts(&engine, players, opts.seed(), secs, None) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_INVALID;
        }
    };
    let threads = rayon::current_num_threads();
    let all: Result<Vec<Counts>, String> = (0..threads as u64)
        .into_par_iter()
        .map(|t| {
            playouts(
                &engine,
                players,
                opts.seed().wrapping_add(t + 1),
                secs,
                None,
            )
        })
        .collect();
    let all = match all {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_INVALID;
        }
    };
    let total: u64 = all.iter().map(|c| c.playouts).sum();
    let actions: u64 = all.iter().map(|c| c.actions).sum();
    // Queries per second of wall-clock time: each thread's rate, summed.
    let queries: f64 = all.iter().map(Counts::queries_per_second).sum();
    println!(
        "{} ({} players), {secs:.1}s per measurement",
        engine.game.title, players
    );
    println!(
        "  1 thread:  {:>10.1} playouts/s  {:>10.0} actions/s  {:>10.0} legal-action queries/s ({:.1} µs each)",
        one.playouts as f64 / secs,
        one.actions as f64 / secs,
        one.queries_per_second(),
        one.query_time.as_secs_f64() * 1e6 / one.timed.max(1) as f64
    );
    println!(
        "  {threads} threads: {:>10.1} playouts/s  {:>10.0} actions/s  {:>10.0} legal-action queries/s",
        total as f64 / secs,
        actions as f64 / secs,
        queries
    );
    println!(
        "  mean playout length {:.1} actions",
        one.actions as f64 / one.playouts.max(1) as f64
    );
    if by.action {
        let mut costs = Vec::new();
        if let Err(e) = playouts(&engine, players, opts.seed(), secs, Some(&mut costs)) {
            eprintln!("error: {e}");
            return EXIT_INVALID;
        }
        print!("{}", by_action_table(&engine, &costs));
    }
    if by.clause {
        let counting = engine.counting_clauses();
        take_clause_costs();
        if let Err(e) = playouts(&counting, players, opts.seed(), secs, None) {
            eprintln!("error: {e}");
            return EXIT_INVALID;
        }
        print!("{}", by_clause_table(&engine, &take_clause_costs()));
    }
    EXIT_OK
}

/// The finer tables `bench` prints after its measurements.
#[derive(Clone, Copy, Debug, Default)]
pub struct By {
    /// What each action costs (`--by-action`).
    pub action: bool,
    /// What each clause costs in listing, in steps (`--by-clause`).
    pub clause: bool,
}

/// What each clause took in listing the legal actions, in evaluation steps, its own (the
/// clauses after it left out): one row per clause that took any, the costliest first.
fn by_clause_table(engine: &Engine, costs: &[ClauseCost]) -> String {
    let total: u64 = costs.iter().map(|c| c.steps).sum();
    let mut rows: Vec<&ClauseCost> = costs.iter().filter(|c| c.steps > 0).collect();
    rows.sort_by_key(|c| (std::cmp::Reverse(c.steps), c.action, c.clause));
    let mut out = format!(
        "  by clause, one thread (each clause's own evaluation steps in listing the legal \
         actions, the clauses after it left out; a `do` counts listing the action, and \
         running its effects where a `require afterwards` judges them; a `require` judged \
         with its `choose` for a set of cells counts with the `choose`):\n  \
         {:>6}  {:>10}  {:>12}  clause\n",
        "share", "steps/run", "runs"
    );
    for c in rows {
        out.push_str(&format!(
            "  {:>5.1}%  {:>10.1}  {:>12}  {}. {}\n",
            100.0 * c.steps as f64 / total.max(1) as f64,
            c.steps as f64 / c.runs.max(1) as f64,
            c.runs,
            c.clause + 1,
            engine.clause_text(c.action, c.clause as usize)
        ));
    }
    out
}

/// What listing and applying each action cost, one row per action that was asked (in the
/// rules' order), with its share of the time all the listings and applications took.
fn by_action_table(engine: &Engine, costs: &[ActionCost]) -> String {
    let total: u64 = costs.iter().map(|c| c.nanos + c.apply_nanos).sum();
    let width = engine
        .game
        .actions
        .iter()
        .map(|a| a.name.len())
        .max()
        .unwrap_or(6)
        .max(6);
    let mut out = format!(
        "  by action, one thread (each action's listings, and its applications: per listing \
         or application, then its share of all the time):\n  \
         {:<width$}  {:>10}  {:>9}  {:>9}  {:>9}  {:>9}  {:>9}  {:>9}  {:>6}\n",
        "action", "listings", "µs", "steps", "listed", "applied", "µs", "steps", "share"
    );
    for (a, c) in costs.iter().enumerate() {
        if c.listings == 0 {
            continue;
        }
        let per = |x: u64, n: u64| x as f64 / n.max(1) as f64;
        out.push_str(&format!(
            "  {:<width$}  {:>10}  {:>9.2}  {:>9.0}  {:>9.1}  {:>9}  {:>9.2}  {:>9.0}  {:>5.1}%\n",
            engine.game.actions[a].name,
            c.listings,
            per(c.nanos, c.listings) / 1000.0,
            per(c.steps, c.listings),
            per(c.listed, c.listings),
            c.applied,
            per(c.apply_nanos, c.applied) / 1000.0,
            per(c.apply_steps, c.applied),
            100.0 * (c.nanos + c.apply_nanos) as f64 / total.max(1) as f64
        ));
    }
    out
}
