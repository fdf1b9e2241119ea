//! `muster bench`: random playouts per second and legal-action queries per second, on one
//! thread and on all of them.

use super::{GameOpts, EXIT_INVALID, EXIT_OK};
use crate::engine::Engine;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::path::Path;
use std::time::{Duration, Instant};

#[derive(Default, Clone, Copy)]
struct Counts {
    playouts: u64,
    actions: u64,
    queries: u64,
    query_time: Duration,
}

/// Random playouts on this thread for `secs` seconds.
fn playouts(engine: &Engine, players: u8, seed: u64, secs: f64) -> Result<Counts, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut c = Counts::default();
    let mut legal = Vec::new();
    let end = Instant::now() + Duration::from_secs_f64(secs);
    while Instant::now() < end {
        let mut s = engine
            .start(players, rng.gen())
            .map_err(|e| e.to_string())?;
        while engine.decider(&s).is_some() {
            let t = Instant::now();
            engine
                .try_legal_into(&s, &mut legal)
                .map_err(|e| e.to_string())?;
            c.query_time += t.elapsed();
            c.queries += 1;
            if legal.is_empty() {
                return Err("no legal action in a running game".into());
            }
            let a = &legal[rng.gen_range(0..legal.len())];
            engine.apply_listed(&mut s, a).map_err(|e| e.to_string())?;
            c.actions += 1;
        }
        c.playouts += 1;
    }
    Ok(c)
}

pub fn run(file: &Path, seconds: f64, opts: &GameOpts) -> i32 {
    let (engine, players) = match super::prepare(file, opts) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let secs = seconds.clamp(0.1, 600.0);
    let one = match playouts(&engine, players, opts.seed(), secs) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_INVALID;
        }
    };
    let threads = rayon::current_num_threads();
    let all: Result<Vec<Counts>, String> = (0..threads as u64)
        .into_par_iter()
        .map(|t| playouts(&engine, players, opts.seed().wrapping_add(t + 1), secs))
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
    let queries: f64 = all
        .iter()
        .map(|c| c.queries as f64 / c.query_time.as_secs_f64().max(1e-9))
        .sum();
    println!(
        "{} ({} players), {secs:.1}s per measurement",
        engine.game.title, players
    );
    println!(
        "  1 thread:  {:>10.1} playouts/s  {:>10.0} actions/s  {:>10.0} legal-action queries/s ({:.1} µs each)",
        one.playouts as f64 / secs,
        one.actions as f64 / secs,
        one.queries as f64 / one.query_time.as_secs_f64().max(1e-9),
        one.query_time.as_secs_f64() * 1e6 / one.queries.max(1) as f64
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
    EXIT_OK
}
