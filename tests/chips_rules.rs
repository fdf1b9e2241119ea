//! Battalion, the chip game (games/battalion_chips.muster; rulebook battalion-chips.txt,
//! rulings in design/games.md). The rulings are scenarios in
//! games/scenarios/battalion_chips/*.scenarios (run by tests/scenarios.rs); what stays here
//! is what a scenario cannot say: the card catalogue and invariants over seeds.

mod common;

use common::*;

// Two decks: every card exists exactly twice (twins), 26 of each suit.
#[test]
fn two_decks_make_every_card_a_twin() {
    let e = chips_engine();
    assert_eq!(e.game.components.len(), 104);
    let mut labels: Vec<String> = (0..104u16).map(|c| card(&e, c)).collect();
    labels.sort();
    for pair in labels.chunks(2) {
        assert_eq!(pair[0], pair[1]);
    }
    labels.dedup();
    assert_eq!(labels.len(), 52);
    for s in ['C', 'D', 'H', 'S'] {
        assert_eq!(
            (0..104u16).filter(|&c| card(&e, c).ends_with(s)).count(),
            26
        );
    }
}

// The deal leaves a consistent state for every number of players, over several seeds
// (the deal's counts themselves are scenarios in deal.scenarios).
#[test]
fn the_deal_is_consistent_for_every_number_of_players() {
    let e = chips_engine();
    for players in 3..=6u8 {
        for seed in 1..=8u64 {
            let s = chips_start(&e, players, seed);
            assert_eq!(
                consistency_problem(&s),
                None,
                "{players} players, seed {seed}"
            );
            let cards: usize = (0..players).map(|p| hand(&e, &s, p).len()).sum::<usize>()
                + cards_in(&e, &s, "stock", 0).len()
                + cards_in(&e, &s, "discard_pile", 0).len();
            assert_eq!(cards, 104, "{players} players, seed {seed}");
        }
    }
}

// A reshuffle during a refill keeps the state consistent and loses no card, whatever the
// seed (a scenario pins one seed's shuffle in refill.scenarios).
#[test]
fn a_reshuffle_keeps_every_card_over_seeds() {
    let e = chips_engine();
    for seed in 1..=8u64 {
        let base = chips_start(&e, 3, seed);
        let mut s = chips_position(
            &e,
            &base,
            "combat",
            P2,
            0,
            &[
                (
                    P2,
                    &["2H", "3H", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS"],
                ),
                (
                    P3,
                    &["4H", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC"],
                ),
            ],
        );
        thin_stock(&e, &mut s, 0);
        play(&e, &mut s, "attack hearts 2H+3H P3");
        play(&e, &mut s, "defend 4H");
        assert_eq!(consistency_problem(&s), None, "seed {seed}");
        assert!(
            cards_in(&e, &s, "discard_pile", 0).is_empty(),
            "seed {seed}"
        );
        assert_eq!(hand(&e, &s, P2).len(), 10, "seed {seed}");
        assert_eq!(hand(&e, &s, P3).len(), 10, "seed {seed}");
        assert_eq!(all_chips(&e, &s).iter().sum::<i64>(), 30, "seed {seed}");
    }
}
