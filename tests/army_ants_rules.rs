//! What the Army Ants rulings need beyond the scenarios in games/scenarios/army_ants/
//! (games/army_ants.muster; rulebook army-ants.txt, rulings in design/games.md): checks
//! over many seeds, the turn count (which a scenario cannot read or set), and the
//! engine's own refusal of an action once the game is over.

mod common;

use common::*;
use muster::engine::Outcome;

// ---- set-up ---------------------------------------------------------------------

// Set-up: each army is Ace-9 of its two suits plus one Queen (19 cards), dealt face up
// onto its own four ranks with the back centre (c1 / c8) left empty.
#[test]
fn the_deal_fills_each_territory_but_its_back_centre() {
    let e = engine();
    for seed in 0..10 {
        let s = start(&e, seed);
        for (seat, ranks, centre) in [
            (RED, ['1', '2', '3', '4'], "c1"),
            (BLACK, ['5', '6', '7', '8'], "c8"),
        ] {
            let mut army = Vec::new();
            for f in ['a', 'b', 'c', 'd', 'e'] {
                for r in ranks {
                    let name = format!("{f}{r}");
                    if name == centre {
                        assert_eq!(at(&e, &s, &name), None, "seed {seed}: {centre} is dealt");
                        continue;
                    }
                    let (owner, rank) =
                        at(&e, &s, &name).unwrap_or_else(|| panic!("seed {seed}: {name} is empty"));
                    assert_eq!(owner, seat, "seed {seed}: {name}");
                    let comp = s.cells[cell(&e, &name) as usize];
                    assert_eq!(colour(&e, comp), seat_colour(seat));
                    assert!(s.face_up[comp as usize]);
                    army.push(rank);
                }
            }
            army.sort_unstable();
            assert_eq!(
                army,
                vec![1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, QUEEN],
                "seed {seed}"
            );
        }
    }
}

// ---- rally ----------------------------------------------------------------------

// Rally: only March, Swap and the Queen's Favor are offered, whatever the deal.
// (rally.scenarios: the refusals of Attack and Move Out, and no card entering enemy
// territory.)
#[test]
fn rally_offers_only_march_swap_and_favor() {
    let e = engine();
    for seed in 0..20 {
        let s = start(&e, seed);
        assert_eq!(s.phase, RALLY);
        let texts = legal_texts(&e, &s);
        assert!(!texts.is_empty());
        for t in &texts {
            let name = t.split(' ').next().unwrap();
            assert!(
                ["march", "swap", "favor"].contains(&name),
                "seed {seed}: {t} offered in the rally"
            );
        }
    }
}

// Rally: exactly five turns each, alternating, Red first; then the battle starts with
// Red, ten turns into the game. (rally.scenarios plays one such rally through.)
#[test]
fn rally_is_five_turns_each_alternating_then_battle_with_red() {
    let e = engine();
    for seed in [1u64, 2, 3, 7, 11] {
        let mut s = start(&e, seed);
        let mut seats = Vec::new();
        while s.phase == RALLY {
            assert!(
                seats.len() < 10,
                "seed {seed}: the rally runs past ten turns"
            );
            seats.push(s.turn_seat);
            // Any listed command other than the Queen's Favor.
            let a = e
                .legal_actions(&s)
                .into_iter()
                .find(|a| !e.action_text(&s, a).starts_with("favor"))
                .expect("a rally command");
            e.apply(&mut s, &a).unwrap();
        }
        assert_eq!(
            seats,
            vec![RED, BLACK, RED, BLACK, RED, BLACK, RED, BLACK, RED, BLACK],
            "seed {seed}"
        );
        assert_eq!((s.phase, s.turn_seat, s.turns), (BATTLE, RED, 10));
        assert_eq!(
            (rally_turns(&e, &s, RED), rally_turns(&e, &s, BLACK)),
            (0, 0)
        );
    }
}

// Queen's Favor shortens the rally: the turn count when the battle starts.
// (favor.scenarios has the seats, the Queen's squares and the rally turns left.)
#[test]
fn queens_favor_turn_counts() {
    let e = engine();
    // Seed 7: Red takes the Favor, Black its five turns: the battle starts at turn 6.
    let mut s = start(&e, 7);
    play(&e, &mut s, "favor b4");
    while s.phase == RALLY {
        let a = e.legal_actions(&s)[0].clone();
        e.apply(&mut s, &a).unwrap();
    }
    assert_eq!((s.turn_seat, s.turns), (RED, 6));
    // Both take it: the battle starts at turn 2.
    let mut s = rally(
        &e,
        RED,
        &[
            ("b4", RED, QUEEN),
            ("d5", BLACK, QUEEN),
            ("a1", RED, 3),
            ("a8", BLACK, 3),
        ],
    );
    play(&e, &mut s, "favor b4");
    play(&e, &mut s, "favor d5");
    assert_eq!((s.phase, s.turn_seat, s.turns), (BATTLE, RED, 2));
}

// ---- end of the game ------------------------------------------------------------

// The length cap: `max_turns 400` stops the game as Capped (neither win nor draw).
#[test]
fn the_game_is_capped_after_400_turns() {
    let e = engine();
    assert_eq!(e.game.max_turns, 400);
    let pieces = [
        ("b3", RED, 5),
        ("b6", BLACK, 7),
        ("a1", RED, QUEEN),
        ("e8", BLACK, QUEEN),
    ];
    let mut s = battle(&e, RED, &pieces);
    s.turns = 398;
    play(&e, &mut s, "march a1 e 1");
    assert_eq!((s.outcome.clone(), s.turns), (None, 399));
    play(&e, &mut s, "march e8 w 1");
    assert_eq!((s.outcome.clone(), s.turns), (Some(Outcome::Capped), 400));
    assert!(e.legal_actions(&s).is_empty());
}

// A finished game: `apply` itself refuses a further action (end.scenarios: the refusal
// the players are shown).
#[test]
fn a_finished_game_refuses_actions() {
    let e = engine();
    let mut s = battle(
        &e,
        RED,
        &[
            ("b3", RED, 1),
            ("b4", BLACK, QUEEN),
            ("a1", RED, QUEEN),
            ("e8", BLACK, 2),
        ],
    );
    let quiet = e.parse_action(&s, "march a1 e 1").unwrap();
    play(&e, &mut s, "attack b3 b4");
    assert_eq!(
        e.apply(&mut s, &quiet),
        Err(muster::engine::EngineError::Over)
    );
}
