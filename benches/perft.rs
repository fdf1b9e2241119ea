//! Perft: the leaves of the legal-action tree, counted from the start of a game, checked
//! against the published counts and timed. Chess to depth 5 (4,865,609 leaves) is the
//! field's usual check of a move generator's correctness and speed; Breakthrough and
//! Connect Four beside it. Run with `cargo bench --bench perft`. (Targets live here, never
//! in timed tests.)

use muster::check::compile_file;
use muster::engine::Engine;
use std::time::Instant;

/// Counts the leaves of `game` at each depth up to the last of `expected`, and checks them.
fn perft(name: &str, expected: &[u64]) {
    let path = format!("games/{name}.muster");
    let Ok(compiled) = compile_file(path.as_ref(), None) else {
        println!("{name:<14} ({path} is missing or does not compile)");
        return;
    };
    let engine = Engine::new(compiled.game);
    let start = engine.start(2, 1).expect("the game starts");
    for (depth, &want) in expected.iter().enumerate() {
        let depth = depth as u32 + 1;
        let t = Instant::now();
        let leaves = engine.perft(&start, depth).expect("perft runs");
        let secs = t.elapsed().as_secs_f64();
        assert_eq!(leaves, want, "{name} perft({depth})");
        println!(
            "{name:<14} perft({depth}) = {leaves:>10}  {secs:8.3} s  {:>10.0} leaves/s",
            leaves as f64 / secs
        );
    }
}

fn main() {
    perft("chess", &[20, 400, 8_902, 197_281, 4_865_609]);
    perft("breakthrough", &[22, 484, 11_132, 256_036]);
    perft("connect_four", &[7, 49, 343, 2_401, 16_807, 117_649]);
}
