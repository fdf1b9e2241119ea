//! The engine's speed on each shipped game: listing the legal actions at the start and
//! applying one, and random playouts. Run with `cargo bench`; the figures go in the docs.
//! (Targets live here, never in timed tests.)

use muster::check::compile_file;
use muster::engine::{Engine, Listed};
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

fn measure(name: &str, players: u8) {
    let Ok(game) = compile_file(format!("games/{name}.muster").as_ref(), None) else {
        println!("{name:<18} (games/{name}.muster is missing or does not compile)");
        return;
    };
    let engine = Engine::new(game.game);
    let start = engine.start(players, 1).expect("the game starts");
    // Listing the legal actions at the start position and applying the first.
    let mut n = 0u32;
    let t = Instant::now();
    let mut legal = Listed::new();
    engine.legal_into(&start, &mut legal);
    let at_start = legal.len();
    while t.elapsed() < Duration::from_secs(1) {
        let mut s = start.clone();
        engine.legal_into(&s, &mut legal);
        engine
            .apply_listed(&mut s, &legal[0])
            .expect("a listed action applies");
        n += 1;
    }
    let per = t.elapsed().as_secs_f64() * 1e6 / n as f64;
    // Random playouts.
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let (mut games, mut actions) = (0u32, 0u64);
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs(2) {
        let mut s = engine.start(players, rng.gen()).expect("the game starts");
        while engine.decider(&s).is_some() {
            engine.legal_into(&s, &mut legal);
            let a = &legal[rng.gen_range(0..legal.len())];
            engine
                .apply_listed(&mut s, a)
                .expect("a listed action applies");
            actions += 1;
        }
        games += 1;
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{name:<18} start: {} legal actions, list+apply {per:8.1} µs | playouts {:7.1}/s, {:9.0} actions/s",
        at_start,
        games as f64 / secs,
        actions as f64 / secs
    );
}

fn main() {
    measure("army_ants", 2);
    measure("battalion_chips", 4);
    measure("battaglione", 3);
    measure("battle_line", 2);
    measure("battalion_emperor", 3);
    measure("homeward", 4);
    measure("breakthrough", 2);
    measure("connect_four", 2);
    measure("goofspiel", 2);
    measure("hex", 2);
    measure("oh_hell", 4);
    measure("chess", 2);
}
