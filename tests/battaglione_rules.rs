//! What the rulings scenarios of Battaglione (games/scenarios/battaglione/*.scenarios)
//! cannot say: the deck's catalogue, the deal over many seeds and player counts, and the
//! sizes of hands dealt at random when the deal passes round. Positions are built by hand
//! with `common::bat_position`.

mod common;

use common::*;
use muster::engine::{Engine, State};
use muster::ir::Value;

fn complete(e: &Engine, s: &State, seat: u8) -> bool {
    seat_var(e, s, "complete", seat) == Value::Bool(true)
}

fn dealer(e: &Engine, s: &State) -> Value {
    global(e, s, "dealer")
}

fn discard_pile(e: &Engine, s: &State) -> Vec<String> {
    cards_in(e, s, "discard_pile", 0)
}

fn is_arsenal(label: &str) -> bool {
    ["Bomb", "Dyn", "Shot", "Bul", "Tools", "Bag"].contains(&label)
}

// ---- the deck and the deal ----------------------------------------------------------

// The deck: four battalions of 2 captains, 10 soldiers and 4 cannons; 4 mechanics and 6
// nurses; an arsenal of 4 hand bombs, 2 dynamites, 4 cannon shots, 6 bullets, 4 tools and 6
// medical bags: 100 cards, with the assumed points captain 5, soldier 2, cannon 3, nurse 1,
// mechanic 1, arsenal 0.
#[test]
fn the_deck_has_a_hundred_cards_with_their_points() {
    let e = bat_engine();
    assert_eq!(e.game.components.len(), 100);
    let count = |label: &str| (0..100u16).filter(|&c| card(&e, c) == label).count();
    let mut want: Vec<(String, usize, i64)> = Vec::new();
    for colour in ["r", "y", "g", "b"] {
        want.push((format!("C{colour}"), 2, 5));
        want.push((format!("S{colour}"), 10, 2));
        want.push((format!("K{colour}"), 4, 3));
    }
    for (label, n, pts) in [
        ("M", 4, 1),
        ("N", 6, 1),
        ("Bomb", 4, 0),
        ("Dyn", 2, 0),
        ("Shot", 4, 0),
        ("Bul", 6, 0),
        ("Tools", 4, 0),
        ("Bag", 6, 0),
    ] {
        want.push((label.to_string(), n, pts));
    }
    assert_eq!(want.iter().map(|w| w.1).sum::<usize>(), 100);
    for (label, n, pts) in &want {
        assert_eq!(count(label), *n, "{label}");
        for c in (0..100u16).filter(|&c| card(&e, c) == *label) {
            assert_eq!(points(&e, c), *pts, "{label}");
        }
    }
}

// The deal: five cards to each hand, arsenal cards set aside face down and replaced as they
// come, the discard pile and the table empty; P1 deals and plays first, and may only draw.
#[test]
fn the_deal_gives_five_cards_each_and_sets_arsenal_cards_aside() {
    let e = bat_engine();
    for players in 2..=4u8 {
        for seed in 0..6u64 {
            let s = bat_start(&e, players, seed);
            let what = format!("{players} players, seed {seed}");
            let mut arsenal_cards = 0;
            for p in 0..players {
                let h = hand(&e, &s, p);
                assert_eq!(h.len(), 5, "{what}: hand of seat {p}");
                assert!(!h.iter().any(|c| is_arsenal(c)), "{what}: {h:?}");
                let a = arsenal(&e, &s, p);
                assert!(a.iter().all(|c| is_arsenal(c)), "{what}: {a:?}");
                for &c in &s.zones[zone_inst(&e, "arsenal", p)] {
                    assert!(!s.face_up[c as usize], "{what}: an arsenal card face up");
                }
                arsenal_cards += a.len();
                assert!(patrols(&e, &s, p).is_empty(), "{what}");
            }
            assert!(discard_pile(&e, &s).is_empty(), "{what}");
            assert_eq!(
                cards_in(&e, &s, "stock", 0).len(),
                100 - 5 * players as usize - arsenal_cards,
                "{what}"
            );
            assert_eq!(dealer(&e, &s), Value::Seat(P1), "{what}");
            assert_eq!((s.turn_seat, s.step, e.decider(&s)), (P1, 0, Some(P1)));
            assert_eq!(legal_texts(&e, &s), vec!["draw_card"], "{what}");
            assert_eq!(totals(&e, &s), vec![0; players as usize], "{what}");
            assert_eq!(bat_conserved(&s), None, "{what}");
        }
    }
}

// ---- battles and the match --------------------------------------------------------------

// A new battle: every card back in the stock, reshuffled and dealt again, complete flags
// cleared; the deal passes counter-clockwise (to the seat before the dealer), and the new
// dealer plays first.
#[test]
fn the_deal_passes_round_between_battles() {
    let e = bat_engine();
    for (players, dealers) in [
        (2u8, vec![P1, P2, P1]),
        (3, vec![P1, P3, P2, P1]),
        (4, vec![P1, P4, P3, P2, P1]),
    ] {
        let mut s = bat_start(&e, players, 2);
        for (i, pair) in dealers.windows(2).enumerate() {
            let (d, next) = (pair[0], pair[1]);
            assert_eq!(dealer(&e, &s), Value::Seat(d));
            assert_eq!((s.turn_seat, s.step), (d, 0), "{players} players");
            // The dealer closes at once: 10 points for an empty table.
            let mut c = bat_position(
                &e,
                &s,
                d,
                2,
                &Table {
                    hands: &[(d, &["Sg"])],
                    patrols: &[(d, &[&["Sr", "Sr", "Sr"]])],
                    ..Default::default()
                },
            );
            set_seat_var(&e, &mut c, "complete", d, Value::Bool(true));
            play(&e, &mut c, "discard Sg");
            s = c;
            let what = format!("{players} players, battle {}", i + 2);
            assert_eq!(dealer(&e, &s), Value::Seat(next), "{what}");
            assert_eq!((s.turn_seat, s.step, e.decider(&s)), (next, 0, Some(next)));
            // Sr Sr Sr 6, +10 for closing.
            assert_eq!(totals(&e, &s)[d as usize], 16, "{what}");
            for p in 0..players {
                assert_eq!(hand(&e, &s, p).len(), 5, "{what}");
                assert!(patrols(&e, &s, p).is_empty(), "{what}");
                assert!(!complete(&e, &s, p), "{what}");
            }
            assert!(discard_pile(&e, &s).is_empty(), "{what}");
            assert_eq!(global(&e, &s, "battle_over"), Value::Bool(false));
            assert_eq!(bat_conserved(&s), None, "{what}");
        }
    }
}
