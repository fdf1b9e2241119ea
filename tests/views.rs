//! Views: what each seat may know. The boxed cards are hidden from both seats; the board
//! (all cards face up) and the public `fallen` piles are seen by everyone; the omniscient
//! view shows everything.

mod common;

use common::*;
use muster::agents::{Agent, RandomAgent};
use muster::engine::{Engine, Seen, State, View, NONE, NO_SEAT};

/// The view must show every board cell exactly as the state has it.
fn assert_board_visible(s: &State, v: &View) {
    assert_eq!(v.cells.len(), s.cells.len());
    for (i, (&c, seen)) in s.cells.iter().zip(&v.cells).enumerate() {
        let want = if c == NONE {
            Seen::Empty
        } else {
            Seen::Known {
                comp: c,
                owner: s.owners[c as usize],
            }
        };
        assert_eq!(seen, &want, "cell {i}");
    }
}

/// Checks both seats' views and the omniscient view of one state.
fn check_views(e: &Engine, s: &State) {
    let boxed = zone_inst(e, "box", 0);
    for seat in [RED, BLACK] {
        let v = e.view(s, seat);
        assert_eq!(v.seat, Some(seat));
        assert_eq!(v.zones.len(), s.zones.len());
        // Every boxed card is hidden, and nothing about it (not even an owner) shows.
        assert_eq!(v.zones[boxed].len(), s.zones[boxed].len());
        assert!(
            v.zones[boxed]
                .iter()
                .all(|x| *x == Seen::Hidden { owner: NO_SEAT }),
            "seat {seat}: {:?}",
            v.zones[boxed]
        );
        assert_board_visible(s, &v);
        // The fallen piles are public.
        for p in [RED, BLACK] {
            let inst = zone_inst(e, "fallen", p);
            let want: Vec<Seen> = s.zones[inst]
                .iter()
                .map(|&c| Seen::Known { comp: c, owner: p })
                .collect();
            assert_eq!(v.zones[inst], want, "seat {seat} sees fallen({p})");
        }
    }
    let all = e.omniscient_view(s);
    assert_eq!(all.seat, None);
    let want: Vec<Seen> = s.zones[boxed]
        .iter()
        .map(|&c| Seen::Known {
            comp: c,
            owner: NO_SEAT,
        })
        .collect();
    assert_eq!(all.zones[boxed], want);
    assert_board_visible(s, &all);
}

// The box is hidden to both seats at the start of several deals; the board is fully visible.
#[test]
fn boxed_cards_are_hidden_and_the_board_is_visible_at_the_start() {
    let e = engine();
    for seed in 0..10 {
        let s = start(&e, seed);
        check_views(&e, &s);
        assert_eq!(e.view(&s, RED).zones[zone_inst(&e, "box", 0)].len(), 14);
        // The boxed cards are exactly the tens, jacks, kings and one queen of each colour.
        let mut ranks: Vec<i64> = s.zones[zone_inst(&e, "box", 0)]
            .iter()
            .map(|&c| rank(&e, c))
            .collect();
        ranks.sort_unstable();
        assert_eq!(
            ranks,
            vec![10, 10, 10, 10, 11, 11, 11, 11, 12, 12, 13, 13, 13, 13]
        );
    }
}

// Throughout a game (with cards falling), the views keep hiding the box only.
#[test]
fn views_stay_correct_through_a_game() {
    let e = engine();
    let mut s = start(&e, 4);
    let mut agent = RandomAgent::new(4);
    let mut checked = 0;
    while s.outcome.is_none() && checked < 200 {
        check_views(&e, &s);
        let seat = e.decider(&s).unwrap();
        let legal = e.legal_actions(&s);
        let a = legal[agent.choose(&e.view(&s, seat), &legal)].clone();
        e.apply_listed(&mut s, &a).unwrap();
        checked += 1;
    }
    check_views(&e, &s);
    assert!(checked > 10);
}

// After an attack, both seats see the fallen cards in the public piles.
#[test]
fn fallen_cards_are_seen_by_both_seats() {
    let e = engine();
    let mut s = battle(
        &e,
        RED,
        &[
            ("b3", RED, 6),
            ("b6", BLACK, 6),
            ("a1", RED, QUEEN),
            ("e8", BLACK, QUEEN),
            ("a2", RED, 2),
            ("e7", BLACK, 3),
        ],
    );
    play(&e, &mut s, "attack b3 b6");
    for seat in [RED, BLACK] {
        let v = e.view(&s, seat);
        for p in [RED, BLACK] {
            let z = &v.zones[zone_inst(&e, "fallen", p)];
            assert_eq!(z.len(), 1);
            let Seen::Known { comp, owner } = z[0] else {
                panic!("seat {seat} cannot see fallen({p}): {z:?}")
            };
            assert_eq!((owner, rank(&e, comp)), (p, 6));
        }
    }
    check_views(&e, &s);
}

// The view reports the game's progress as the state does.
#[test]
fn view_reports_phase_turn_and_decider() {
    let e = engine();
    let s = start(&e, 2);
    let v = e.view(&s, BLACK);
    assert_eq!(
        (v.phase, v.turn_seat, v.decider, v.players, v.turns),
        (RALLY, RED, Some(RED), 2, 0)
    );
    assert_eq!(v.seat_vars, s.seat_vars);
    let mut won = battle(
        &e,
        RED,
        &[("b3", RED, 1), ("b4", BLACK, QUEEN), ("a1", RED, QUEEN)],
    );
    play(&e, &mut won, "attack b3 b4");
    let v = e.view(&won, BLACK);
    assert_eq!(v.decider, None);
    assert_eq!(
        v.outcome,
        Some(muster::engine::Outcome::Win([RED][..].into()))
    );
}
