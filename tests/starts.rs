//! Starting a game: the same player count and seed give the same position however many
//! games the engine started before. (A setup that draws no random number is played once
//! per player count and copied; see `Engine::start`.)

mod common;

use common::{compile_file_or_panic, shipped_games_and_variants};
use muster::engine::Engine;

#[test]
fn a_start_is_the_same_after_other_starts() {
    let mut copied = 0;
    for (name, variant) in shipped_games_and_variants() {
        let game = compile_file_or_panic(&format!("games/{name}.muster"), variant.as_deref()).game;
        let (lo, hi) = (game.min_players, game.max_players);
        let used = Engine::new(game.clone());
        for players in [lo, hi] {
            let first = used.start(players, 0).unwrap();
            for seed in [1u64, 7] {
                let again = used.start(players, seed).unwrap();
                let fresh = Engine::new(game.clone()).start(players, seed).unwrap();
                assert_eq!(
                    again, fresh,
                    "{name} {variant:?}: {players} players, seed {seed}"
                );
                // A start that drew no random number differs from the first only by its
                // RNG's seed.
                if fresh.rng.get_word_pos() == 0 {
                    let mut same = again.clone();
                    same.rng = first.rng.clone();
                    assert_eq!(same, first, "{name} {variant:?}: {players} players");
                    copied += 1;
                }
            }
        }
    }
    // Connect Four, Breakthrough, chess and Hex draw nothing to set up; the card games
    // shuffle.
    assert!(copied >= 8, "starts that drew no random number: {copied}");
}
