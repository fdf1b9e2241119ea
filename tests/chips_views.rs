//! Views of Battalion (the chip game): what each seat may know. Its own hand, the discard
//! pile and the battle rows are seen in full; other hands and the stock are face down (other
//! hands show how many cards they hold); the omniscient view shows everything.

mod common;

use common::*;
use muster::agents::{Agent, RandomAgent};
use muster::engine::{Engine, Seen, State, View};

/// The zone instances of the chip game by name, for one game.
struct Zones {
    stock: usize,
    discard: usize,
    attack: usize,
    defence: usize,
}

fn zones(e: &Engine) -> Zones {
    Zones {
        stock: zone_inst(e, "stock", 0),
        discard: zone_inst(e, "discard_pile", 0),
        attack: zone_inst(e, "attack_row", 0),
        defence: zone_inst(e, "defence_row", 0),
    }
}

/// The view shows each card of a zone instance as itself.
fn assert_known(s: &State, v: &View, inst: usize, what: &str) {
    let want: Vec<Seen> = s.zones[inst]
        .iter()
        .map(|&c| Seen::Known {
            comp: c,
            owner: s.owners[c as usize],
        })
        .collect();
    assert_eq!(v.zones[inst], want, "{what}");
}

/// Checks every seat's view and the omniscient view of one state.
fn check_views(e: &Engine, s: &State, what: &str) {
    let z = zones(e);
    for seat in 0..s.players {
        let v = e.view(s, seat);
        let what = format!("{what}, seat {seat}");
        assert_eq!(v.seat, Some(seat));
        assert_eq!(v.zones.len(), s.zones.len(), "{what}");
        // Public: the discard pile and both battle rows, in full.
        for (inst, name) in [
            (z.discard, "discard_pile"),
            (z.attack, "attack_row"),
            (z.defence, "defence_row"),
        ] {
            assert_known(s, &v, inst, &format!("{what}: {name}"));
        }
        // The stock: every card there, none identified, and none marked with the seat
        // that last held it (that would tell where a known card lies in the pile).
        assert_eq!(v.zones[z.stock].len(), s.zones[z.stock].len(), "{what}");
        assert!(
            v.zones[z.stock].iter().all(|x| *x
                == Seen::Hidden {
                    owner: muster::engine::NO_SEAT
                }),
            "{what}: the view tells something about a card in the stock"
        );
        // Hands: its own in full; the others face down, with their count and seat.
        for p in 0..s.players {
            let inst = zone_inst(e, "hand", p);
            if p == seat {
                assert_known(s, &v, inst, &format!("{what}: own hand"));
            } else {
                assert_eq!(
                    v.zones[inst],
                    vec![Seen::Hidden { owner: p }; s.zones[inst].len()],
                    "{what}: hand of seat {p}"
                );
            }
        }
        // Counters are public.
        assert_eq!(v.seat_vars, s.seat_vars, "{what}");
        assert_eq!(v.globals, s.globals, "{what}");
        assert_eq!(v.decider, e.decider(s), "{what}");
    }
    // The omniscient view identifies every card, wherever it is.
    let all = e.omniscient_view(s);
    assert_eq!(all.seat, None);
    for inst in 0..s.zones.len() {
        assert_known(s, &all, inst, &format!("{what}: omniscient, zone {inst}"));
    }
}

/// Plays a random game of `players` seats from `seed`, calling `step(before, action text,
/// after)` for every action and `check_views` at every position.
fn random_game(e: &Engine, players: u8, seed: u64, mut step: impl FnMut(&State, &str, &State)) {
    let mut s = chips_start(e, players, seed);
    let mut agent = RandomAgent::new(seed ^ 0xC41F5);
    let mut n = 0;
    check_views(e, &s, &format!("{players} players, seed {seed}, start"));
    while s.outcome.is_none() {
        let seat = e.decider(&s).unwrap();
        let legal = e.legal_actions(&s);
        let a = legal[agent.choose(&e.view(&s, seat), &legal)].clone();
        let text = e.action_text(&s, &a);
        let before = s.clone();
        e.apply_listed(&mut s, &a).unwrap();
        n += 1;
        check_views(
            e,
            &s,
            &format!("{players} players, seed {seed}, action {n}"),
        );
        step(&before, &text, &s);
    }
    // Acquisition (two actions a turn) and bidding, then at least one battle.
    let before_combat = 7 * players as usize;
    assert!(
        n >= before_combat + 2,
        "{players} players, seed {seed}: only {n} actions"
    );
}

// At every position of random games at 3 to 6 players, each seat sees its own hand, the
// discard pile and the battle rows, and nothing of the stock or the other hands but counts.
#[test]
fn views_hide_the_stock_and_other_hands_through_random_games() {
    let e = chips_engine();
    for players in 3..=6u8 {
        for seed in 0..6u64 {
            random_game(&e, players, seed, |_, _, _| {});
        }
    }
}

// The cards of a battle are seen by every seat: the attack while the defender decides, and
// both attack and defence once the battle is resolved (they are then on the discard pile,
// unless the refill reshuffled them into the stock).
#[test]
fn played_cards_are_seen_by_every_seat_in_random_games() {
    let e = chips_engine();
    let z = zones(&e);
    let (mut battles, mut reshuffles) = (0, 0);
    for players in [3u8, 5] {
        for seed in 0..6u64 {
            random_game(&e, players, seed, |before, text, after| {
                if text.starts_with("attack ") {
                    assert!(!after.zones[z.attack].is_empty());
                    for seat in 0..after.players {
                        assert_known(after, &e.view(after, seat), z.attack, text);
                    }
                }
                if !(text.starts_with("defend ") || text == "surrender") {
                    return;
                }
                battles += 1;
                let defender = e.decider(before).unwrap();
                let (held, holds) = (
                    &before.zones[zone_inst(&e, "hand", defender)],
                    &after.zones[zone_inst(&e, "hand", defender)],
                );
                let mut played = before.zones[z.attack].clone();
                played.extend(held.iter().filter(|c| !holds.contains(c)));
                let pile = &after.zones[z.discard];
                if pile.is_empty() {
                    // The refill reshuffled the pile, these cards with it, into the stock.
                    reshuffles += 1;
                    return;
                }
                // Attack and defence lie on top of the pile, seen by everyone.
                let top = pile.len() - played.len();
                let mut on_top = pile[top..].to_vec();
                on_top.sort_unstable();
                played.sort_unstable();
                assert_eq!(on_top, played, "{text}");
                for seat in 0..after.players {
                    let v = e.view(after, seat);
                    for (x, &c) in v.zones[z.discard][top..].iter().zip(&pile[top..]) {
                        assert!(
                            matches!(x, Seen::Known { comp, .. } if *comp == c),
                            "seat {seat} does not see {} after `{text}`",
                            card(&e, c)
                        );
                    }
                }
            });
        }
    }
    assert!(battles > 100, "only {battles} battles");
    assert!(
        reshuffles < battles / 10,
        "{reshuffles} reshuffles in {battles} battles"
    );
}

// A battle by hand: while P3 decides, every seat sees the attack; after `defend`, every seat
// sees the attack and the defence on top of the discard pile, while P3's remaining hand
// stays hidden from P1 and P2.
#[test]
fn attack_and_defence_are_seen_by_every_seat() {
    let e = chips_engine();
    let z = zones(&e);
    let mut s = combat(
        &e,
        3,
        P2,
        &[(P2, &["7H", "7H", "9S"]), (P3, &["2H", "3H", "KC"])],
    );
    play(&e, &mut s, "attack hearts 7H+7H P3");
    for seat in [P1, P2, P3] {
        let v = e.view(&s, seat);
        let shown: Vec<String> = v.zones[z.attack]
            .iter()
            .map(|x| match x {
                Seen::Known { comp, .. } => card(&e, *comp),
                other => panic!("seat {seat} sees {other:?} in the attack row"),
            })
            .collect();
        assert_eq!(shown, vec!["7H", "7H"], "seat {seat}");
    }
    play(&e, &mut s, "defend 2H+3H");
    for seat in [P1, P2, P3] {
        let v = e.view(&s, seat);
        let top: Vec<String> = v.zones[z.discard]
            .iter()
            .rev()
            .take(4)
            .map(|x| match x {
                Seen::Known { comp, .. } => card(&e, *comp),
                other => panic!("seat {seat} sees {other:?} in the discard pile"),
            })
            .collect();
        assert_eq!(top, vec!["3H", "2H", "7H", "7H"], "seat {seat}");
        let p3 = &v.zones[zone_inst(&e, "hand", P3)];
        assert_eq!(p3.len(), 10);
        if seat != P3 {
            assert!(p3.iter().all(|x| *x == Seen::Hidden { owner: P3 }));
        }
    }
    check_views(&e, &s, "after the battle");
}

// The omniscient view (used by `--reveal`) identifies the stock and every hand.
#[test]
fn the_omniscient_view_shows_every_card() {
    let e = chips_engine();
    let s = chips_start(&e, 4, 9);
    let all = e.omniscient_view(&s);
    let known = all
        .zones
        .iter()
        .flatten()
        .filter(|x| matches!(x, Seen::Known { .. }))
        .count();
    assert_eq!(known, 104);
    let p1 = e.view(&s, P1);
    let hidden = p1
        .zones
        .iter()
        .flatten()
        .filter(|x| matches!(x, Seen::Hidden { .. }))
        .count();
    // P1 sees its 10 cards and the discard pile's one; the stock and 30 cards in hands hide.
    assert_eq!(hidden, 104 - 10 - 1);
}
