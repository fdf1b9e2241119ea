//! Starting a game: the same player count and seed give the same position however many
//! games the engine started before, and whatever game's state it starts in
//! (`Engine::start_reusing`). (What a start does before its first random draw is played
//! once per player count and gone on from; see `Engine::start`.)

mod common;

use common::{compile_file_or_panic, shipped_games_and_variants};
use muster::engine::Engine;

// A start goes on from what the first start for its player count learnt (the position
// before the setup's first random draw, with its locals; or the whole start, where
// nothing draws one): the same position and the same steps as a start from nothing, and
// as the tree walk's start, for every shipped game, variant and construct file and every
// player count.
#[test]
fn a_start_is_the_same_after_other_starts() {
    let mut games: Vec<(String, Option<String>)> = shipped_games_and_variants()
        .into_iter()
        .map(|(name, variant)| (format!("games/{name}.muster"), variant))
        .collect();
    games.extend(common::construct_files().into_iter().map(|f| (f, None)));
    let (mut starts, mut copied) = (0, 0);
    for (file, variant) in &games {
        let game = compile_file_or_panic(file, variant.as_deref()).game;
        let used = Engine::new(game.clone());
        for players in game.min_players..=game.max_players {
            let first = used.start(players, 0).unwrap();
            for seed in [1u64, 7] {
                // Each from nothing: an engine of its own, which has started no game.
                let alone = || Engine::new(game.clone());
                let (again, work) = used.start_and_work(players, seed);
                let (fresh, fresh_work) = alone().start_and_work(players, seed);
                let (walk, walk_work) = alone().tree_walking().start_and_work(players, seed);
                let (again, fresh, walk) = (again.unwrap(), fresh.unwrap(), walk.unwrap());
                let at = format!("{file} {variant:?} {players}p seed {seed}");
                assert_eq!(
                    again, fresh,
                    "{at}: the start differs from one from nothing"
                );
                assert_eq!(again, walk, "{at}: the start differs from the tree walk's");
                assert_eq!(
                    (work, work),
                    (fresh_work, walk_work),
                    "{at}: the steps a start took"
                );
                assert!(work > 0, "{at}: a start that took no steps");
                starts += 1;
                // A start that drew no random number differs from the first only by its
                // RNG's seed.
                if fresh.rng.get_word_pos() == 0 {
                    let mut same = again.clone();
                    same.rng = first.rng.clone();
                    assert_eq!(same, first, "{at}");
                    copied += 1;
                }
            }
        }
    }
    println!("{starts} starts compared, {copied} that drew no random number");
    assert!(starts > 100, "only {starts} starts compared");
    // Connect Four, Breakthrough, chess and Hex draw nothing to set up; the card games
    // shuffle.
    assert!(copied >= 8, "starts that drew no random number: {copied}");
}

// A game started in the storage of a finished one (`start_reusing`, as `muster bench` and
// `simulate` start each game after the first) is the game `start` makes: nothing of the
// last game is left in it, whatever that game grew or set (zones filled, variables set,
// reactions, secret choices, an outcome). Every shipped game and variant, at its fewest
// players, after a seeded random game of up to 300 actions.
#[test]
fn a_start_in_a_finished_games_storage_is_a_fresh_start() {
    use rand::{Rng, SeedableRng};
    let mut compared = 0;
    for (name, variant) in shipped_games_and_variants() {
        let file = format!("games/{name}.muster");
        let engine = Engine::new(compile_file_or_panic(&file, variant.as_deref()).game);
        let players = engine.game.min_players;
        let mut played = engine.start(players, 3).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut n = 0;
        while n < 300 && engine.decider(&played).is_some() {
            let legal = engine.legal_actions(&played);
            let a = &legal[rng.gen_range(0..legal.len())];
            engine.apply_listed(&mut played, a).unwrap();
            n += 1;
        }
        let at = format!("{name} {variant:?}");
        assert!(n > 0, "{at}: no action played");
        for seed in [1u64, 7] {
            let old = played.clone();
            let reused = engine.start_reusing(players, seed, Some(old)).unwrap();
            let fresh = engine.start(players, seed).unwrap();
            assert!(
                reused == fresh,
                "{at} seed {seed}: a start in a played game's storage differs from a fresh one"
            );
            assert!(
                reused.index_agrees(),
                "{at} seed {seed}: the index of occupied cells"
            );
            compared += 1;
        }
    }
    assert!(compared >= 24, "only {compared} starts compared");
}
