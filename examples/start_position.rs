//! Lists the legal actions at the start of a game many times (for profiling).
//!
//! cargo run --release --example start_position -- games/battle_line.muster 200

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| "games/army_ants.muster".into());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(100);
    let game = muster::check::compile_file(path.as_ref(), None).expect("the rules compile");
    let engine = muster::engine::Engine::new(game.game);
    let start = engine
        .start(engine.game.min_players, 1)
        .expect("the game starts");
    let mut legal = muster::engine::Listed::new();
    for _ in 0..n {
        let mut s = start.clone();
        engine.legal_into(&s, &mut legal);
        engine
            .apply_listed(&mut s, &legal[0])
            .expect("a listed action applies");
    }
    println!("{} legal actions at the start", legal.len());
}
