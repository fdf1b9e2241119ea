//! What the Army Ants rulings need beyond the scenarios in games/scenarios/army_ants/
//! (games/army_ants.muster; rulebook army-ants.txt, rulings in design/games.md): checks
//! over many seeds, and the engine's own refusal of an action once the game is over.
//! (The turn counts: rally.scenarios, favor.scenarios, and the length cap in
//! end.scenarios.)

mod common;

use common::*;

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
// (rally.scenarios: the refusals of Attack and Move Out, no card entering enemy
// territory, and five turns each, alternating, from several deals.)
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

// ---- end of the game ------------------------------------------------------------

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
