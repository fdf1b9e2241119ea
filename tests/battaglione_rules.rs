//! One scenario per ruling of Battaglione (games/battaglione.muster; rulebook
//! battaglione.txt, rulings in design/games.md), and the differences of its variant
//! `super_captain`. Positions are built by hand with `common::bat_position`.

mod common;

use common::*;
use muster::engine::{Engine, Outcome, Seen, State};
use muster::ir::Value;

/// Cards by label.
type Cards = &'static [&'static str];
/// Patrols, each as its cards by label.
type Patrols = &'static [&'static [&'static str]];

/// The refusal of an invalid new patrol: its one `require`.
const LAY_RULE: &str =
    "it fails `require (valid_patrol(cards) and opening(cards)) and cannons_ok(cards)`";
/// The refusals of invalid additions to a patrol.
const SAME_PATROL_RULE: &str = "it fails `require valid_patrol(spot + cards)`";
const CANNON_RULE: &str =
    "it fails `require cannons_ok(spot + cards) or (count_role(cards, cannon) == 0)`";

/// A position in a fresh `players`-seat game (seed 1): `seat` to play at `step` (0 draw, 1
/// lay/add/attack, 2 discard) with `table`.
fn at(e: &Engine, players: u8, seat: u8, step: u16, table: &Table) -> State {
    bat_position(e, &bat_start(e, players, 1), seat, step, table)
}

/// The texts of the legal actions that start with `prefix`.
fn listed(e: &Engine, s: &State, prefix: &str) -> Vec<String> {
    legal_texts(e, s)
        .into_iter()
        .filter(|t| t.starts_with(prefix))
        .collect()
}

/// Plays the texts in turn, checking after each that the 100 cards are all in one place.
fn play_all(e: &Engine, s: &mut State, texts: &[&str]) {
    for t in texts {
        play(e, s, t);
        assert_eq!(bat_conserved(s), None, "after `{t}`");
    }
}

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

// ---- the turn ---------------------------------------------------------------------

// Turn order: counter-clockwise (against seat order), starting with the dealer, P1.
#[test]
fn turns_go_counter_clockwise_from_the_dealer() {
    let e = bat_engine();
    for (players, order) in [
        (2u8, vec![P1, P2, P1, P2]),
        (3, vec![P1, P3, P2, P1, P3, P2]),
        (4, vec![P1, P4, P3, P2, P1, P4, P3, P2]),
    ] {
        let mut s = bat_start(&e, players, 3);
        let mut seen = Vec::new();
        for _ in 0..order.len() {
            assert_eq!(s.step, 0);
            seen.push(s.turn_seat);
            play(&e, &mut s, "draw_card");
            play(&e, &mut s, "done");
            let discard = listed(&e, &s, "discard ")[0].clone();
            play(&e, &mut s, &discard);
        }
        assert_eq!(seen, order, "{players} players");
    }
}

// A turn: draw, then lay and add (here nothing), then discard one card; the hand is back to
// 5, and the discarded card is the top of the discard pile.
#[test]
fn a_turn_is_draw_then_lay_or_attack_then_discard() {
    let e = bat_engine();
    let mut s = at(
        &e,
        2,
        P1,
        0,
        &Table {
            hands: &[(P1, &["Sr", "Sr", "Sy", "Kg", "N"])],
            stock_top: &["Sb"],
            ..Default::default()
        },
    );
    play(&e, &mut s, "draw_card");
    assert_eq!(hand(&e, &s, P1), vec!["Sr", "Sr", "Sy", "Kg", "N", "Sb"]);
    assert_eq!((s.turn_seat, s.step), (P1, 1));
    assert_eq!(legal_texts(&e, &s), vec!["done"]);
    play(&e, &mut s, "done");
    assert_eq!(
        legal_texts(&e, &s),
        vec![
            "discard Sr",
            "discard Sy",
            "discard Kg",
            "discard N",
            "discard Sb"
        ]
    );
    play(&e, &mut s, "discard Kg");
    assert_eq!(hand(&e, &s, P1), vec!["Sr", "Sr", "Sy", "N", "Sb"]);
    assert_eq!(discard_pile(&e, &s), vec!["Kg"]);
    assert_eq!((s.turn_seat, s.step), (P2, 0));
}

// Refill: at the end of its turn a player draws back up to 5 cards.
#[test]
fn the_hand_is_refilled_to_five_after_the_turn() {
    let e = bat_engine();
    let mut s = at(
        &e,
        2,
        P1,
        0,
        &Table {
            hands: &[(P1, &["Cr", "Sr", "Sr", "Sr", "Sy"])],
            stock_top: &["Sg", "Sb", "Kb", "Ky", "N"],
            ..Default::default()
        },
    );
    play_all(
        &e,
        &mut s,
        &["draw_card", "lay_patrol Cr+Sr+Sr+Sr", "done", "discard Sy"],
    );
    // Drew Sg, laid four, discarded one: one card left, four drawn back.
    assert_eq!(hand(&e, &s, P1), vec!["Sg", "Sb", "Kb", "Ky", "N"]);
    assert_eq!(patrols(&e, &s, P1), vec![vec!["Cr", "Sr", "Sr", "Sr"]]);
    assert_eq!(s.turn_seat, P2);
}

// take_discard: the top of the discard pile may be drawn only with a patrol on the table.
#[test]
fn the_discard_pile_may_be_drawn_only_with_a_patrol_on_the_table() {
    let e = bat_engine();
    let no_patrol = at(
        &e,
        2,
        P1,
        0,
        &Table {
            discard: &["Sg", "Kr"],
            ..Default::default()
        },
    );
    assert_eq!(legal_texts(&e, &no_patrol), vec!["draw_card"]);
    assert_eq!(
        bat_refused(&e, &no_patrol, "take_discard"),
        "it fails `require may_take_discard(me)`"
    );
    let mut s = at(
        &e,
        2,
        P1,
        0,
        &Table {
            hands: &[(P1, &["Sy", "Sy"])],
            patrols: &[(P1, &[&["Sr", "Sr", "Sr"]])],
            discard: &["Sg", "Kr"],
            ..Default::default()
        },
    );
    assert_eq!(legal_texts(&e, &s), vec!["draw_card", "take_discard"]);
    play(&e, &mut s, "take_discard");
    assert_eq!(hand(&e, &s, P1), vec!["Sy", "Sy", "Kr"]);
    assert_eq!(discard_pile(&e, &s), vec!["Sg"]);
    // With a patrol but an empty discard pile there is nothing to take.
    let empty = at(
        &e,
        2,
        P1,
        0,
        &Table {
            patrols: &[(P1, &[&["Sr", "Sr", "Sr"]])],
            ..Default::default()
        },
    );
    assert_eq!(legal_texts(&e, &empty), vec!["draw_card"]);
}

// Arsenal cards never stay in a hand: drawn ones go face down to the drawer's arsenal (the
// others see only how many) and are replaced at once, both at the draw and at the refill.
#[test]
fn an_arsenal_card_drawn_goes_face_down_to_the_arsenal_and_is_replaced() {
    let e = bat_engine();
    let mut s = at(
        &e,
        2,
        P1,
        0,
        &Table {
            hands: &[(P1, &["Sr", "Sr", "Sr", "Sy", "Kb"])],
            stock_top: &["Bomb", "Shot", "Sb", "Bul", "Sy", "Sy", "Sg"],
            ..Default::default()
        },
    );
    play(&e, &mut s, "draw_card");
    assert_eq!(hand(&e, &s, P1), vec!["Sr", "Sr", "Sr", "Sy", "Kb", "Sb"]);
    assert_eq!(arsenal(&e, &s, P1), vec!["Bomb", "Shot"]);
    let inst = zone_inst(&e, "arsenal", P1);
    for &c in &s.zones[inst] {
        assert!(!s.face_up[c as usize]);
        assert_eq!(s.owners[c as usize], P1);
    }
    // P2 sees two cards and not what they are; P1 sees its own arsenal.
    assert_eq!(
        e.view(&s, P2).zones[inst],
        vec![Seen::Hidden { owner: P1 }; 2]
    );
    assert!(e.view(&s, P1).zones[inst]
        .iter()
        .all(|x| matches!(x, Seen::Known { owner: P1, .. })));
    // The refill: Bul goes to the arsenal and is replaced too.
    play_all(&e, &mut s, &["lay_patrol Sr+Sr+Sr", "done", "discard Kb"]);
    assert_eq!(hand(&e, &s, P1), vec!["Sy", "Sb", "Sy", "Sy", "Sg"]);
    assert_eq!(arsenal(&e, &s, P1), vec!["Bomb", "Shot", "Bul"]);
    assert_eq!(s.turn_seat, P2);
}

// ---- patrols ------------------------------------------------------------------------

// A new patrol: 3 to 5 cards of one colour (nurses and mechanics have none), at least 3
// soldiers or a captain and 2 soldiers, at most one captain, one nurse and one mechanic.
#[test]
fn invalid_new_patrols_are_refused() {
    let e = bat_engine();
    let cases: &[(&str, Cards, &str)] = &[
        (
            "mixed colours",
            &["Sr", "Sr", "Sy", "Kg", "N", "M"],
            "lay_patrol Sr+Sr+Sy",
        ),
        (
            "two captains",
            &["Cr", "Cr", "Sr", "Sr", "N", "M"],
            "lay_patrol Cr+Cr+Sr+Sr",
        ),
        (
            "two nurses",
            &["Sr", "Sr", "Sr", "N", "N", "M"],
            "lay_patrol Sr+Sr+Sr+N+N",
        ),
        (
            "two mechanics",
            &["Sr", "Sr", "Sr", "M", "M", "N"],
            "lay_patrol Sr+Sr+Sr+M+M",
        ),
        (
            "2 soldiers and a cannon",
            &["Sr", "Sr", "Kr", "Kr", "N", "M"],
            "lay_patrol Sr+Sr+Kr",
        ),
        (
            "a captain, a soldier, a cannon",
            &["Cr", "Sr", "Kr", "Sy", "N", "M"],
            "lay_patrol Cr+Sr+Kr",
        ),
        (
            "2 soldiers and a nurse",
            &["Sr", "Sr", "N", "Sy", "Ky", "M"],
            "lay_patrol Sr+Sr+N",
        ),
        (
            "a captain, a soldier, a nurse, a mechanic",
            &["Cr", "Sr", "N", "M", "Sy", "Ky"],
            "lay_patrol Cr+Sr+N+M",
        ),
    ];
    for &(rule, held, text) in cases {
        let s = at(
            &e,
            2,
            P1,
            1,
            &Table {
                hands: &[(P1, held)],
                ..Default::default()
            },
        );
        assert!(!legal_texts(&e, &s).contains(&text.to_string()), "{rule}");
        assert_eq!(bat_refused(&e, &s, text), LAY_RULE, "{rule}");
    }
}

// Valid new patrols are listed: 3 soldiers, a captain and 2 soldiers, with cannons (never
// more than soldiers), a nurse and a mechanic.
#[test]
fn a_valid_patrol_is_laid_in_the_first_free_patrol() {
    let e = bat_engine();
    let mut s = at(
        &e,
        2,
        P1,
        1,
        &Table {
            hands: &[(P1, &["Cr", "Sr", "Kr", "Sr", "N", "Sy"])],
            patrols: &[(P1, &[&["Sb", "Sb", "Sb"]])],
            ..Default::default()
        },
    );
    assert_eq!(
        listed(&e, &s, "lay_patrol"),
        vec![
            "lay_patrol Cr+Sr+Sr",
            "lay_patrol Cr+Sr+Sr+N",
            "lay_patrol Cr+Sr+Sr+Kr",
            "lay_patrol Cr+Sr+Sr+Kr+N"
        ]
    );
    play(&e, &mut s, "lay_patrol Cr+Sr+Sr+N");
    assert_eq!(
        patrols(&e, &s, P1),
        vec![vec!["Sb", "Sb", "Sb"], vec!["Cr", "Sr", "Sr", "N"]]
    );
    assert_eq!(hand(&e, &s, P1), vec!["Kr", "Sy"]);
    let inst = patrol_inst(&e, P1, 2);
    for &c in &s.zones[inst] {
        assert_eq!(s.owners[c as usize], P1);
        assert!(s.face_up[c as usize]);
    }
    assert!(!complete(&e, &s, P1));
    assert_eq!((s.turn_seat, s.step), (P1, 1), "more may be laid");
}

// Adding to a patrol: any number of hand cards of its colour; a cannon only while cannons
// do not outnumber soldiers; still one captain, nurse and mechanic at most.
#[test]
fn a_valid_addition_joins_the_patrol() {
    let e = bat_engine();
    let mut s = at(
        &e,
        2,
        P1,
        1,
        &Table {
            hands: &[(P1, &["Kr", "N", "Sy", "Sr"])],
            patrols: &[(P1, &[&["Cr", "Sr", "Sr"], &["Sy", "Sy", "Sy"]])],
            ..Default::default()
        },
    );
    let adds = listed(&e, &s, "reinforce");
    for t in [
        "reinforce patrol1@P1 Kr+N+Sr",
        "reinforce patrol1@P1 Kr",
        "reinforce patrol2@P1 N+Sy",
    ] {
        assert!(adds.contains(&t.to_string()), "{t} not in {adds:?}");
    }
    assert!(!adds.contains(&"reinforce patrol1@P1 Sy".to_string()));
    play(&e, &mut s, "reinforce patrol1@P1 Kr+N");
    assert_eq!(
        patrols(&e, &s, P1),
        vec![vec!["Cr", "Sr", "Sr", "Kr", "N"], vec!["Sy", "Sy", "Sy"]]
    );
    assert_eq!(hand(&e, &s, P1), vec!["Sy", "Sr"]);
    play(&e, &mut s, "reinforce patrol2@P1 Sy");
    assert_eq!(patrols(&e, &s, P1)[1], vec!["Sy", "Sy", "Sy", "Sy"]);
    assert!(!complete(&e, &s, P1));
}

// Invalid additions are refused with the rule they break: another colour, a second captain
// or nurse, cannons outnumbering soldiers when a cannon is added. A patrol whose soldiers
// were killed may take soldiers and a captain only (no cannon, nurse or mechanic) until it
// holds a soldier again; its cannons may then outnumber its soldiers.
#[test]
fn invalid_additions_are_refused() {
    let e = bat_engine();
    let cases: &[(&str, Patrols, Cards, &str, &str)] = &[
        (
            "another colour",
            &[&["Sr", "Sr", "Sr"]],
            &["Sy", "Kr"],
            "reinforce patrol1@P1 Sy",
            SAME_PATROL_RULE,
        ),
        (
            "a second captain",
            &[&["Cr", "Sr", "Sr"]],
            &["Cr", "Sr"],
            "reinforce patrol1@P1 Cr",
            SAME_PATROL_RULE,
        ),
        (
            "a second nurse",
            &[&["Sr", "Sr", "Sr", "N"]],
            &["N", "Sr"],
            "reinforce patrol1@P1 N",
            SAME_PATROL_RULE,
        ),
        (
            "a second mechanic",
            &[&["Sr", "Sr", "Sr", "M"]],
            &["M", "Sr"],
            "reinforce patrol1@P1 M",
            SAME_PATROL_RULE,
        ),
        (
            "4 cannons to 3 soldiers",
            &[&["Sr", "Sr", "Sr"]],
            &["Kr", "Kr", "Kr", "Kr"],
            "reinforce patrol1@P1 Kr+Kr+Kr+Kr",
            CANNON_RULE,
        ),
        (
            "a cannon to 2 cannons and a captain",
            &[&["Cr", "Kr", "Kr"]],
            &["Kr", "Sr"],
            "reinforce patrol1@P1 Kr",
            CANNON_RULE,
        ),
        (
            "a soldier and a cannon to 2 cannons",
            &[&["Cr", "Kr", "Kr"]],
            &["Kr", "Sr"],
            "reinforce patrol1@P1 Kr+Sr",
            CANNON_RULE,
        ),
    ];
    for &(rule, own, held, text, why) in cases {
        let s = at(
            &e,
            2,
            P1,
            1,
            &Table {
                hands: &[(P1, held)],
                patrols: &[(P1, own)],
                ..Default::default()
            },
        );
        assert!(!legal_texts(&e, &s).contains(&text.to_string()), "{rule}");
        assert_eq!(bat_refused(&e, &s, text), why, "{rule}");
    }
    // The reduced patrol [Cr, Kr, Kr] takes a soldier, though its cannons still outnumber.
    let s = at(
        &e,
        2,
        P1,
        1,
        &Table {
            hands: &[(P1, &["Kr", "Sr", "Sr", "Sr"])],
            patrols: &[(P1, &[&["Cr", "Kr", "Kr"]])],
            ..Default::default()
        },
    );
    assert_eq!(
        listed(&e, &s, "reinforce"),
        vec![
            "reinforce patrol1@P1 Sr",
            "reinforce patrol1@P1 Sr+Sr",
            "reinforce patrol1@P1 Sr+Sr+Sr"
        ]
    );
}

/// The refusal of anything but soldiers and a captain for a patrol of cannons.
const RESCUE_RULE: &str = "it fails `require not stranded(spot) or rescue(cards)`";

// Ruling: a patrol left with cannons but no soldier may take only soldiers and/or a captain
// (no nurse, mechanic or cannon), until it holds a soldier again.
#[test]
fn a_patrol_of_cannons_takes_only_soldiers_and_a_captain() {
    let e = bat_engine();
    let hand_of: Cards = &["N", "M", "Kr", "Cr", "Sr", "Sb"];
    let mut s = at(
        &e,
        2,
        P1,
        1,
        &Table {
            hands: &[(P1, hand_of)],
            patrols: &[(P1, &[&["Kr", "Kr"]])],
            ..Default::default()
        },
    );
    assert_eq!(
        listed(&e, &s, "reinforce"),
        vec![
            "reinforce patrol1@P1 Sr",
            "reinforce patrol1@P1 Cr",
            "reinforce patrol1@P1 Cr+Sr"
        ]
    );
    for refused_add in [
        "reinforce patrol1@P1 N",
        "reinforce patrol1@P1 M",
        "reinforce patrol1@P1 N+Sr",
        "reinforce patrol1@P1 M+Cr",
    ] {
        assert_eq!(
            bat_refused(&e, &s, refused_add),
            RESCUE_RULE,
            "{refused_add}"
        );
    }
    // Not even a cannon with enough soldiers to match it, in the same addition.
    let one_gun = at(
        &e,
        2,
        P1,
        1,
        &Table {
            hands: &[(P1, &["Kr", "Sr", "Sr", "Sb"])],
            patrols: &[(P1, &[&["Kr"]])],
            ..Default::default()
        },
    );
    assert_eq!(
        bat_refused(&e, &one_gun, "reinforce patrol1@P1 Kr+Sr+Sr"),
        RESCUE_RULE
    );
    assert!(is_legal(&e, &one_gun, "reinforce patrol1@P1 Sr+Sr"));
    // A captain alone keeps the patrol without soldiers: still soldiers and captains only.
    play(&e, &mut s, "reinforce patrol1@P1 Cr");
    assert_eq!(bat_refused(&e, &s, "reinforce patrol1@P1 N"), RESCUE_RULE);
    // With a soldier again, the nurse and the mechanic may join.
    play(&e, &mut s, "reinforce patrol1@P1 Sr");
    assert_eq!(patrols(&e, &s, P1), vec![vec!["Kr", "Kr", "Cr", "Sr"]]);
    let adds = listed(&e, &s, "reinforce");
    for t in [
        "reinforce patrol1@P1 N",
        "reinforce patrol1@P1 M",
        "reinforce patrol1@P1 N+M",
    ] {
        assert!(adds.contains(&t.to_string()), "{t} not in {adds:?}");
    }
    play(&e, &mut s, "reinforce patrol1@P1 N+M");
    assert_eq!(
        patrols(&e, &s, P1),
        vec![vec!["Kr", "Kr", "Cr", "Sr", "N", "M"]]
    );
}

// ---- attacks ------------------------------------------------------------------------

// Attacks need a soldier on the attacker's table; a cannon shot needs a soldier and a
// cannon in one patrol.
#[test]
fn attacks_are_refused_without_a_soldier_on_the_table() {
    let e = bat_engine();
    const ALL: Cards = &["Bomb", "Dyn", "Shot", "Bul"];
    let foe: &[&[&str]] = &[&["Cb", "Sb", "Sb", "Kb"]];
    let cases: &[(&str, &[&[&str]], &str, &str)] = &[
        (
            "bomb, no soldier",
            &[&["Cy", "Ky", "N"]],
            "throw_bomb Bomb P2 Sb+Sb",
            "it fails `require (weapon.role == hand_bomb) and has_role(me, soldier)`",
        ),
        (
            "dynamite, no soldier",
            &[&["Cy", "Ky", "N"]],
            "blow_up Dyn P2 Kb",
            "it fails `require (weapon.role == dynamite) and has_role(me, soldier)`",
        ),
        (
            "bullets, no soldier",
            &[&["Cy", "Ky", "N"]],
            "shoot Bul P2 Sb",
            "it fails `require (weapon.role == bullets) and has_role(me, soldier)`",
        ),
        (
            "cannon shot, no soldier",
            &[&["Cy", "Ky", "N"]],
            "fire_cannon Shot P2 Sb Kb",
            "it fails `require (weapon.role == cannon_shot) and has_gun(me)`",
        ),
        (
            "cannon shot, soldier and cannon apart",
            &[&["Sr", "Sr", "Sr"], &["Cy", "Ky"]],
            "fire_cannon Shot P2 Sb Kb",
            "it fails `require (weapon.role == cannon_shot) and has_gun(me)`",
        ),
    ];
    for &(rule, own, text, why) in cases {
        let s = at(
            &e,
            2,
            P1,
            1,
            &Table {
                arsenals: &[(P1, ALL)],
                patrols: &[(P1, own), (P2, foe)],
                ..Default::default()
            },
        );
        let name = text.split(' ').next().unwrap();
        assert_eq!(listed(&e, &s, name), Vec::<String>::new(), "{rule}");
        assert_eq!(bat_refused(&e, &s, text), why, "{rule}");
    }
    // With soldiers apart from the cannon every attack but the cannon shot is offered; with
    // a soldier and a cannon together, the cannon shot too.
    let apart = at(
        &e,
        2,
        P1,
        1,
        &Table {
            arsenals: &[(P1, ALL)],
            patrols: &[(P1, &[&["Sr", "Sr", "Sr"], &["Cy", "Ky"]]), (P2, foe)],
            ..Default::default()
        },
    );
    assert_eq!(
        legal_texts(&e, &apart),
        vec![
            "throw_bomb Bomb P2 Sb+Sb",
            "blow_up Dyn P2 Kb",
            "shoot Bul P2 Sb",
            "done"
        ]
    );
    let together = at(
        &e,
        2,
        P1,
        1,
        &Table {
            arsenals: &[(P1, ALL)],
            patrols: &[(P1, &[&["Sr", "Sr", "Sr", "Kr"]]), (P2, foe)],
            ..Default::default()
        },
    );
    assert!(legal_texts(&e, &together).contains(&"fire_cannon Shot P2 Sb Kb".to_string()));
}

/// One attack in a three-seat game: P1 (with `own` on the table and `weapons` in its arsenal)
/// plays `attack`; P2 holds `foe` and `defence`. P2 then answers each of `answers` in turn,
/// checking that exactly `offered[i]` is offered before each. Returns the state after the
/// attack, with P1 to go on.
fn attack(
    e: &Engine,
    weapons: &[&str],
    foe: &[&[&str]],
    defence: &[&str],
    attack: &str,
    offered: &[&[&str]],
    answers: &[&str],
) -> State {
    let mut s = at(
        e,
        3,
        P1,
        1,
        &Table {
            arsenals: &[(P1, weapons), (P2, defence)],
            patrols: &[(P1, &[&["Sr", "Sr", "Sr", "Kr"]]), (P2, foe)],
            discard: &["Kg"],
            ..Default::default()
        },
    );
    play(e, &mut s, attack);
    for (want, answer) in offered.iter().zip(answers) {
        assert_eq!(e.decider(&s), Some(P2), "`{attack}`: P2 answers");
        assert_eq!(legal_texts(e, &s), *want, "`{attack}`");
        play(e, &mut s, answer);
    }
    assert_eq!(bat_conserved(&s), None);
    assert_eq!(
        (s.turn_seat, s.step, e.decider(&s)),
        (P1, 1, Some(P1)),
        "`{attack}`: the attack is over"
    );
    assert!(s.reactions.is_empty());
    assert_eq!(global(e, &s, "targets"), Value::List(vec![]));
    s
}

// Hand bomb: the attacker picks two soldiers of one opponent (or the only one there is);
// both are destroyed and go under the discard pile, the bomb first.
#[test]
fn a_hand_bomb_kills_two_soldiers() {
    let e = bat_engine();
    let mut s = at(
        &e,
        3,
        P1,
        1,
        &Table {
            arsenals: &[(P1, &["Bomb"])],
            patrols: &[
                (P1, &[&["Sr", "Sr", "Sr"]]),
                (P2, &[&["Cy", "Sy", "Sy", "Sy", "Ky"], &["Sb", "Sb", "Sb"]]),
                (P3, &[&["Cg", "Sg", "Kg"]]),
            ],
            discard: &["Kr"],
            ..Default::default()
        },
    );
    assert_eq!(
        listed(&e, &s, "throw_bomb"),
        vec![
            "throw_bomb Bomb P2 Sb+Sb",
            "throw_bomb Bomb P2 Sy+Sb",
            "throw_bomb Bomb P2 Sy+Sy",
            "throw_bomb Bomb P3 Sg"
        ]
    );
    play(&e, &mut s, "throw_bomb Bomb P2 Sy+Sy");
    // P2 has nothing to answer with: the attack is over at once.
    assert_eq!((s.turn_seat, s.step, e.decider(&s)), (P1, 1, Some(P1)));
    assert_eq!(
        patrols(&e, &s, P2),
        vec![vec!["Cy", "Sy", "Ky"], vec!["Sb", "Sb", "Sb"]]
    );
    assert_eq!(discard_pile(&e, &s), vec!["Sy", "Sy", "Bomb", "Kr"]);
    assert!(arsenal(&e, &s, P1).is_empty());
    assert_eq!(patrols(&e, &s, P3), vec![vec!["Cg", "Sg", "Kg"]]);
    assert_eq!(bat_conserved(&s), None);
}

// Dynamite destroys one cannon; bullets one soldier; a cannon shot one soldier and one
// cannon (just the soldier when there is no cannon).
#[test]
fn each_weapon_destroys_its_targets() {
    let e = bat_engine();
    let foe: &[&[&str]] = &[&["Cy", "Sy", "Sy", "Sy", "Ky", "Ky"]];
    let cases: &[(&str, &str, Vec<&str>, Vec<&str>)] = &[
        (
            "Dyn",
            "blow_up Dyn P2 Ky",
            vec!["Cy", "Sy", "Sy", "Sy", "Ky"],
            vec!["Ky", "Dyn", "Kg"],
        ),
        (
            "Bul",
            "shoot Bul P2 Sy",
            vec!["Cy", "Sy", "Sy", "Ky", "Ky"],
            vec!["Sy", "Bul", "Kg"],
        ),
        (
            "Shot",
            "fire_cannon Shot P2 Sy Ky",
            vec!["Cy", "Sy", "Sy", "Ky"],
            vec!["Ky", "Sy", "Shot", "Kg"],
        ),
    ];
    for (weapon, text, left, pile) in cases {
        let s = attack(&e, &[weapon], foe, &[], text, &[], &[]);
        assert_eq!(patrols(&e, &s, P2), vec![left.clone()], "{text}");
        assert_eq!(discard_pile(&e, &s), *pile, "{text}");
    }
    let s = attack(
        &e,
        &["Shot"],
        &[&["Sy", "Sy", "Sy"]],
        &[],
        "fire_cannon Shot P2 Sy -",
        &[],
        &[],
    );
    assert_eq!(patrols(&e, &s, P2), vec![vec!["Sy", "Sy"]]);
}

// Medical bag: the attacked player saves a targeted soldier with it, only with a nurse on
// its table (in any patrol); the bag goes under the discard pile.
#[test]
fn a_medical_bag_saves_a_soldier_only_with_a_nurse() {
    let e = bat_engine();
    // A nurse in another patrol: the bag is offered and saves the soldier.
    let s = attack(
        &e,
        &["Bul"],
        &[&["Sy", "Sy", "Sy"], &["Sb", "Sb", "Sb", "N"]],
        &["Bag"],
        "shoot Bul P2 Sy",
        &[&["heal Bag Sy", "done"], &["done"]],
        &["heal Bag Sy", "done"],
    );
    assert_eq!(patrols(&e, &s, P2)[0], vec!["Sy", "Sy", "Sy"]);
    assert_eq!(discard_pile(&e, &s), vec!["Bag", "Bul", "Kg"]);
    assert!(arsenal(&e, &s, P2).is_empty());
    // The same, declined: the soldier dies and the bag is kept.
    let s = attack(
        &e,
        &["Bul"],
        &[&["Sy", "Sy", "Sy"], &["Sb", "Sb", "Sb", "N"]],
        &["Bag"],
        "shoot Bul P2 Sy",
        &[&["heal Bag Sy", "done"]],
        &["done"],
    );
    assert_eq!(patrols(&e, &s, P2)[0], vec!["Sy", "Sy"]);
    assert_eq!(arsenal(&e, &s, P2), vec!["Bag"]);
    // No nurse (a mechanic does not do): P2 is asked, as everyone can see the mechanic,
    // but may only answer `done`; the soldier dies.
    let s = attack(
        &e,
        &["Bul"],
        &[&["Sy", "Sy", "Sy"], &["Sb", "Sb", "Sb", "M"]],
        &["Bag"],
        "shoot Bul P2 Sy",
        &[&["done"]],
        &["done"],
    );
    assert_eq!(patrols(&e, &s, P2)[0], vec!["Sy", "Sy"]);
    assert_eq!(arsenal(&e, &s, P2), vec!["Bag"]);
    assert_eq!(discard_pile(&e, &s), vec!["Sy", "Bul", "Kg"]);
    // Two bags save both soldiers of a hand bomb, one at a time.
    let s = attack(
        &e,
        &["Bomb"],
        &[&["Sy", "Sy", "Sy", "N"]],
        &["Bag", "Bag"],
        "throw_bomb Bomb P2 Sy+Sy",
        &[
            &["heal Bag Sy", "done"],
            &["heal Bag Sy", "done"],
            &["done"],
        ],
        &["heal Bag Sy", "heal Bag Sy", "done"],
    );
    assert_eq!(patrols(&e, &s, P2), vec![vec!["Sy", "Sy", "Sy", "N"]]);
    assert_eq!(discard_pile(&e, &s), vec!["Bag", "Bag", "Bomb", "Kg"]);
    // A bag saves no cannon: of a cannon shot's soldier and cannon, only the soldier.
    let s = attack(
        &e,
        &["Shot"],
        &[&["Sy", "Sy", "Sy", "Ky", "N"]],
        &["Bag"],
        "fire_cannon Shot P2 Sy Ky",
        &[&["heal Bag Sy", "done"], &["done"]],
        &["heal Bag Sy", "done"],
    );
    assert_eq!(patrols(&e, &s, P2), vec![vec!["Sy", "Sy", "Sy", "N"]]);
}

// Tools: the attacked player saves a targeted cannon with them, only with a mechanic on its
// table.
#[test]
fn tools_save_a_cannon_only_with_a_mechanic() {
    let e = bat_engine();
    let s = attack(
        &e,
        &["Dyn"],
        &[&["Cy", "Sy", "Sy", "Ky"], &["Sb", "Sb", "Sb", "M"]],
        &["Tools", "Bag"],
        "blow_up Dyn P2 Ky",
        &[&["repair Tools Ky", "done"], &["done"]],
        &["repair Tools Ky", "done"],
    );
    assert_eq!(patrols(&e, &s, P2)[0], vec!["Cy", "Sy", "Sy", "Ky"]);
    assert_eq!(arsenal(&e, &s, P2), vec!["Bag"]);
    assert_eq!(discard_pile(&e, &s), vec!["Tools", "Dyn", "Kg"]);
    // No mechanic (a nurse does not do): P2 may only answer `done`; the cannon is
    // destroyed.
    let s = attack(
        &e,
        &["Dyn"],
        &[&["Cy", "Sy", "Sy", "Ky", "N"]],
        &["Tools"],
        "blow_up Dyn P2 Ky",
        &[&["done"]],
        &["done"],
    );
    assert_eq!(patrols(&e, &s, P2), vec![vec!["Cy", "Sy", "Sy", "N"]]);
    assert_eq!(arsenal(&e, &s, P2), vec!["Tools"]);
    // A cannon shot against a nurse and a mechanic with a bag and tools: both saved.
    let s = attack(
        &e,
        &["Shot"],
        &[&["Sy", "Sy", "Sy", "Ky", "N", "M"]],
        &["Bag", "Tools"],
        "fire_cannon Shot P2 Sy Ky",
        &[
            &["heal Bag Sy", "repair Tools Ky", "done"],
            &["repair Tools Ky", "done"],
            &["done"],
        ],
        &["heal Bag Sy", "repair Tools Ky", "done"],
    );
    assert_eq!(
        patrols(&e, &s, P2),
        vec![vec!["Sy", "Sy", "Sy", "Ky", "N", "M"]]
    );
}

// Whether the attacked player is asked depends only on what everyone sees: a nurse or a
// mechanic on its table. With one, it is asked even with an empty arsenal; with neither,
// it is not asked even with a medical bag and tools face down.
#[test]
fn the_attacked_player_is_asked_on_what_everyone_sees() {
    let e = bat_engine();
    let s = attack(
        &e,
        &["Bul"],
        &[&["Sy", "Sy", "Sy", "N"]],
        &[],
        "shoot Bul P2 Sy",
        &[&["done"]],
        &["done"],
    );
    assert_eq!(patrols(&e, &s, P2), vec![vec!["Sy", "Sy", "N"]]);
    let s = attack(
        &e,
        &["Bul"],
        &[&["Sy", "Sy", "Sy"]],
        &["Bag", "Tools"],
        "shoot Bul P2 Sy",
        &[],
        &[],
    );
    assert_eq!(patrols(&e, &s, P2), vec![vec!["Sy", "Sy"]]);
    assert_eq!(arsenal(&e, &s, P2), vec!["Bag", "Tools"]);
}

// A patrol left without captain, soldier or cannon is destroyed: its nurse and mechanic go
// under the discard pile too. A patrol left with its captain alone stays, and may be added to.
#[test]
fn a_patrol_left_without_fighters_loses_its_nurse_and_mechanic() {
    let e = bat_engine();
    let s = attack(
        &e,
        &["Bul"],
        &[&["Sb", "N", "M"], &["Cy", "Sy"]],
        &[],
        "shoot Bul P2 Sb",
        &[&["done"]],
        &["done"],
    );
    assert_eq!(patrols(&e, &s, P2), vec![vec![], vec!["Cy", "Sy"]]);
    assert_eq!(discard_pile(&e, &s), vec!["M", "N", "Sb", "Bul", "Kg"]);
    let s = attack(
        &e,
        &["Bul"],
        &[&["Cy", "Sy", "N"]],
        &[],
        "shoot Bul P2 Sy",
        &[&["done"]],
        &["done"],
    );
    assert_eq!(patrols(&e, &s, P2), vec![vec!["Cy", "N"]]);
    // P2's turn later: the captain's patrol takes soldiers again.
    let mut later = bat_position(
        &e,
        &s,
        P2,
        1,
        &Table {
            hands: &[(P2, &["Sy", "Sy", "Kg"])],
            patrols: &[(P2, &[&["Cy", "N"]])],
            ..Default::default()
        },
    );
    play(&e, &mut later, "reinforce patrol1@P2 Sy+Sy");
    assert_eq!(patrols(&e, &later, P2), vec![vec!["Cy", "N", "Sy", "Sy"]]);
}

// ---- complete patrols and closing ------------------------------------------------------

// A complete patrol (a captain and 6 soldiers or cannons) lets its player close: it no
// longer refills, keeps that right when the patrol is attacked down, and closes by
// discarding its last card (+10).
#[test]
fn the_complete_flag_survives_losses_and_the_player_can_close() {
    let e = bat_engine();
    let mut s = at(
        &e,
        2,
        P1,
        1,
        &Table {
            hands: &[
                (P1, &["Sr", "Kr", "Sy", "Sg"]),
                (P2, &["Sy", "Sy", "Kg", "Kg", "M"]),
            ],
            arsenals: &[(P2, &["Bomb", "Bul"])],
            patrols: &[
                (P1, &[&["Cr", "Sr", "Sr", "Sr", "Kr"]]),
                (P2, &[&["Cb", "Sb", "Sb", "Sb"]]),
            ],
            stock_top: &["Sg", "Sr"],
            discard: &["Kg"],
        },
    );
    play(&e, &mut s, "reinforce patrol1@P1 Sr+Kr");
    assert!(complete(&e, &s, P1));
    play_all(&e, &mut s, &["done", "discard Sy"]);
    // No refill for P1.
    assert_eq!(hand(&e, &s, P1), vec!["Sg"]);
    assert_eq!(s.turn_seat, P2);
    // P2 draws Sg and attacks the complete patrol down to a captain, a soldier and 2 cannons.
    play_all(&e, &mut s, &["draw_card", "throw_bomb Bomb P1 Sr+Sr"]);
    // Two soldiers now lie on the discard pile: the notation says which Sr. A person may
    // write the place in part, as long as only one move fits.
    let whole = e.parse_action(&s, "shoot Bul P1 Sr@patrol1@P1").unwrap();
    assert_eq!(e.parse_action(&s, "shoot Bul P1 Sr@patrol1"), Ok(whole));
    play_all(
        &e,
        &mut s,
        &["shoot Bul P1 Sr@patrol1", "done", "discard M"],
    );
    assert_eq!(patrols(&e, &s, P1), vec![vec!["Cr", "Kr", "Sr", "Kr"]]);
    assert!(complete(&e, &s, P1), "the flag outlives the patrol");
    assert_eq!(hand(&e, &s, P2).len(), 5);
    assert_eq!(totals(&e, &s), vec![0, 0]);
    // P1 draws Sr, adds it, and closes with its last card.
    play_all(
        &e,
        &mut s,
        &["draw_card", "reinforce patrol1@P1 Sr", "done"],
    );
    assert_eq!(hand(&e, &s, P1), vec!["Sg"]);
    play(&e, &mut s, "discard Sg");
    // Cr 5 + Kr 3 + Sr 2 + Kr 3 + Sr 2 = 15, no complete patrol left, +10 for closing;
    // P2: Cb 5 + 3 Sb = 11.
    assert_eq!(totals(&e, &s), vec![25, 11]);
    assert_eq!(e.score(&s, P1), Some(25));
    // A new battle, dealt by P2.
    assert_eq!(dealer(&e, &s), Value::Seat(P2));
    assert_eq!((s.turn_seat, s.step), (P2, 0));
    assert!(!complete(&e, &s, P1));
}

/// A battle that ends on P1's discard of its last card `Sg` (P1 `complete`), with `own` and
/// `other` on the tables of P1 and P2 in a `players`-seat game, after totals `before`.
/// Returns the state after the battle.
fn close_battle(
    e: &Engine,
    players: u8,
    own: &[&[&str]],
    other: &[&[&str]],
    before: &[i64],
) -> State {
    let mut s = at(
        e,
        players,
        P1,
        2,
        &Table {
            hands: &[(P1, &["Sg"])],
            patrols: &[(P1, own), (P2, other)],
            ..Default::default()
        },
    );
    set_seat_var(e, &mut s, "complete", P1, Value::Bool(true));
    for (p, &t) in before.iter().enumerate() {
        set_seat_var(e, &mut s, "total", p as u8, Value::Int(t));
    }
    play(e, &mut s, "discard Sg");
    assert_eq!(bat_conserved(&s), None);
    s
}

/// The same tables, but the battle ends because P1 can take no card when its turn begins:
/// the stock and the discard pile are empty (P2 ends its turn with an empty hand, so it
/// has nothing to discard). No one closes.
fn run_out_battle(
    e: &Engine,
    players: u8,
    own: &[&[&str]],
    other: &[&[&str]],
    before: &[i64],
) -> State {
    // Turns go counter-clockwise: P2 plays just before P1.
    let mut s = at(
        e,
        players,
        P2,
        1,
        &Table {
            patrols: &[(P1, own), (P2, other)],
            ..Default::default()
        },
    );
    // Every card off the table waits in P1's hand (it scores nothing).
    let p1_hand = zone_inst(e, "hand", P1);
    for z in ["stock", "discard_pile"] {
        for c in s.zones[zone_inst(e, z, 0)].clone() {
            put_in(e, &mut s, c, p1_hand);
        }
    }
    // Both reshuffles are spent, so no new draw pile can be made.
    set_global(e, &mut s, "reshuffles", Value::Int(2));
    for (p, &t) in before.iter().enumerate() {
        set_seat_var(e, &mut s, "total", p as u8, Value::Int(t));
    }
    play(e, &mut s, "done");
    assert_eq!(bat_conserved(&s), None);
    s
}

const COMPLETE: Patrols = &[&["Cr", "Sr", "Sr", "Sr", "Sr", "Kr", "Kr"]];
const PATROL_OF_9: Patrols = &[&["Cb", "Sb", "Sb"]];

// Battle score: the points of the cards on the table, +10 per complete patrol held, and
// +10 to the closer; a battle that ends with the stock gives no closing bonus.
#[test]
fn closing_scores_ten_more() {
    let e = bat_engine();
    // P1: 5 + 4x2 + 2x3 = 19, +10 complete, +10 closing; P2: 5 + 2 + 2.
    let closed = close_battle(&e, 2, COMPLETE, PATROL_OF_9, &[0, 0]);
    assert_eq!(totals(&e, &closed), vec![39, 9]);
    assert_eq!(global(&e, &closed, "reshuffles"), Value::Int(0));
    let ran_out = run_out_battle(&e, 2, COMPLETE, PATROL_OF_9, &[0, 0]);
    assert_eq!(totals(&e, &ran_out), vec![29, 9]);
    // Three players: the third seat's empty table scores nothing.
    let ran_out = run_out_battle(&e, 3, COMPLETE, PATROL_OF_9, &[0, 0, 0]);
    assert_eq!(totals(&e, &ran_out), vec![29, 9, 0]);
}

/// The refusal of a lay or an addition of the whole hand.
const KEEP_ONE_RULE: &str = "it fails `require keeps_one(cards)`";

// Ruling: every turn ends with a discard, and closing is discarding the last card. A player
// may not lay or add its whole hand (and so end its turn without a discard): a complete
// player with one card left closes by discarding it, never by adding it.
#[test]
fn a_player_may_not_lay_or_add_its_whole_hand() {
    let e = bat_engine();
    let mut s = at(
        &e,
        2,
        P1,
        1,
        &Table {
            hands: &[(P1, &["Sr"])],
            patrols: &[(P1, COMPLETE), (P2, PATROL_OF_9)],
            ..Default::default()
        },
    );
    set_seat_var(&e, &mut s, "complete", P1, Value::Bool(true));
    assert!(listed(&e, &s, "reinforce").is_empty());
    assert_eq!(
        bat_refused(&e, &s, "reinforce patrol1@P1 Sr"),
        KEEP_ONE_RULE
    );
    play(&e, &mut s, "done");
    assert_eq!(legal_texts(&e, &s), vec!["discard Sr"]);
    play(&e, &mut s, "discard Sr");
    // 19 + 10 complete + 10 closing; P2 9.
    assert_eq!(totals(&e, &s), vec![39, 9]);
    assert_eq!((dealer(&e, &s), s.turn_seat), (Value::Seat(P2), P2));
    // A new patrol of the whole hand is refused; with one card more it is laid.
    let three = at(
        &e,
        2,
        P1,
        1,
        &Table {
            hands: &[(P1, &["Sr", "Sr", "Sr"])],
            ..Default::default()
        },
    );
    assert!(listed(&e, &three, "lay_patrol").is_empty());
    assert_eq!(
        bat_refused(&e, &three, "lay_patrol Sr+Sr+Sr"),
        KEEP_ONE_RULE
    );
    let mut four = at(
        &e,
        2,
        P1,
        1,
        &Table {
            hands: &[(P1, &["Sr", "Sr", "Sr", "Kb"])],
            ..Default::default()
        },
    );
    assert_eq!(listed(&e, &four, "lay_patrol"), vec!["lay_patrol Sr+Sr+Sr"]);
    play_all(&e, &mut four, &["lay_patrol Sr+Sr+Sr", "done"]);
    assert_eq!(legal_texts(&e, &four), vec!["discard Kb"]);
    // Adding all but one card is fine; the last one is then refused.
    let mut two = at(
        &e,
        2,
        P1,
        1,
        &Table {
            hands: &[(P1, &["Sr", "Sr"])],
            patrols: &[(P1, &[&["Cr", "Sr", "Sr"]])],
            ..Default::default()
        },
    );
    assert_eq!(
        listed(&e, &two, "reinforce"),
        vec!["reinforce patrol1@P1 Sr"]
    );
    play(&e, &mut two, "reinforce patrol1@P1 Sr");
    assert_eq!(
        bat_refused(&e, &two, "reinforce patrol1@P1 Sr"),
        KEEP_ONE_RULE
    );
}

// A player without a complete patrol who discards its last card does not close: it
// refills and the battle goes on.
#[test]
fn an_incomplete_player_cannot_close() {
    let e = bat_engine();
    let mut s = at(
        &e,
        2,
        P1,
        2,
        &Table {
            hands: &[(P1, &["Sg"])],
            patrols: &[(P1, &[&["Cr", "Sr", "Sr", "Sr", "Sr", "Kr"]])],
            ..Default::default()
        },
    );
    play(&e, &mut s, "discard Sg");
    assert_eq!(totals(&e, &s), vec![0, 0]);
    assert_eq!(hand(&e, &s, P1).len(), 5);
    assert_eq!(global(&e, &s, "battle_over"), Value::Bool(false));
    assert_eq!((s.turn_seat, dealer(&e, &s)), (P2, Value::Seat(P1)));
}

// ---- the stock ------------------------------------------------------------------------

// When the stock runs out, the discard pile but its top card is shuffled into a new stock,
// at most twice a battle; the third time the stock stays empty and the battle ends, with no
// closer, when the next turn begins.
#[test]
fn the_discard_pile_is_reshuffled_at_most_twice() {
    let e = bat_engine();
    let mut s = at(
        &e,
        2,
        P1,
        0,
        &Table {
            hands: &[
                (P1, &["Sr", "Sr", "Sy", "Sg", "Kb"]),
                (P2, &["Sb", "Sb", "Sy", "Sg", "Kr"]),
            ],
            patrols: &[(P1, &[&["Cr", "Sr", "Sr"]])],
            ..Default::default()
        },
    );
    // (seat, the one card left in the stock, what it discards)
    for (round, (seat, last, thrown)) in [(P1, "Sg", "Kb"), (P2, "Sb", "Kr"), (P1, "Sy", "Sy")]
        .into_iter()
        .enumerate()
    {
        assert_eq!((s.turn_seat, s.step), (seat, 0), "round {round}");
        bat_stock(&e, &mut s, &[last]);
        let pile = discard_pile(&e, &s);
        play(&e, &mut s, "draw_card");
        assert_eq!(hand(&e, &s, seat).last().map(String::as_str), Some(last));
        let stock = cards_in(&e, &s, "stock", 0);
        if round < 2 {
            // Reshuffled: all but the top card of the pile.
            assert_eq!(global(&e, &s, "reshuffles"), Value::Int(round as i64 + 1));
            assert_eq!(discard_pile(&e, &s), vec![pile.last().unwrap().clone()]);
            assert_eq!(stock.len(), pile.len() - 1, "round {round}");
            assert_eq!(
                sorted(stock),
                sorted(pile[..pile.len() - 1].to_vec()),
                "round {round}"
            );
        } else {
            assert_eq!(global(&e, &s, "reshuffles"), Value::Int(2));
            assert!(stock.is_empty(), "a third reshuffle");
            assert_eq!(discard_pile(&e, &s), pile);
        }
        play_all(&e, &mut s, &["done", &format!("discard {thrown}")]);
    }
    // P2's turn would begin with an empty stock: the battle is scored (P1's Cr Sr Sr, no
    // closer) and P2 deals the next.
    assert_eq!(totals(&e, &s), vec![9, 0]);
    assert_eq!(dealer(&e, &s), Value::Seat(P2));
    assert_eq!(global(&e, &s, "reshuffles"), Value::Int(0));
    assert_eq!((s.turn_seat, s.step), (P2, 0));
    assert_eq!(hand(&e, &s, P1).len(), 5);
    assert!(patrols(&e, &s, P1).is_empty());
}

// Ruling: once both reshuffles are spent, the battle ends only when the player to draw can
// take no card at all. A player with a patrol on the table still takes the top of the
// discard pile; one without a patrol can take nothing, and the battle ends.
#[test]
fn after_the_last_reshuffle_a_player_with_a_patrol_still_draws_from_the_discard_pile() {
    let e = bat_engine();
    let exhausted = |p2_patrols: Patrols| {
        let mut s = at(
            &e,
            2,
            P1,
            2,
            &Table {
                hands: &[(P1, &["Sy", "Kb"]), (P2, &["Sb", "Kg"])],
                patrols: &[(P2, p2_patrols)],
                ..Default::default()
            },
        );
        bat_stock(&e, &mut s, &[]);
        set_global(&e, &mut s, "reshuffles", Value::Int(2));
        play(&e, &mut s, "discard Sy");
        assert_eq!(bat_conserved(&s), None);
        s
    };
    // P2 has a patrol: its turn begins, and its only draw is the top of the discard pile.
    let mut s = exhausted(&[&["Cb", "Sb", "Sb"]]);
    assert_eq!(global(&e, &s, "battle_over"), Value::Bool(false));
    assert_eq!((s.turn_seat, s.step), (P2, 0));
    assert_eq!(dealer(&e, &s), Value::Seat(P1), "the same battle");
    assert_eq!(legal_texts(&e, &s), vec!["take_discard"]);
    assert_eq!(bat_refused(&e, &s, "draw_card"), "the draw pile is empty");
    play(&e, &mut s, "take_discard");
    assert_eq!(hand(&e, &s, P2), vec!["Sb", "Kg", "Sy"]);
    play_all(&e, &mut s, &["done", "discard Kg"]);
    // P1 has no patrol: it can take nothing, and the battle ends with no closer (P2's
    // patrol scores 9) when its turn would begin.
    assert_eq!(totals(&e, &s), vec![0, 9]);
    assert_eq!(dealer(&e, &s), Value::Seat(P2), "a new battle");
    // P2 without a patrol: the battle ends at once.
    let s = exhausted(&[]);
    assert_eq!(totals(&e, &s), vec![0, 0]);
    assert_eq!(dealer(&e, &s), Value::Seat(P2), "a new battle");
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

/// P2's table, the totals before a battle P1 closes, the totals after, and the outcome.
type MatchCase = (Patrols, [i64; 2], [i64; 2], Option<Outcome>);

// The match: battles go on until a total reaches 100; the highest total wins, ties share
// the win, and the win need not go to the closer.
#[test]
fn the_match_ends_at_a_hundred_with_the_highest_total() {
    let e = bat_engine();
    const BIG: Patrols = &[&["Cb", "Sb", "Sb", "Sb", "Sb", "Kb", "Kb"]];
    // (P2's table, totals before, totals after, outcome)
    let cases: &[MatchCase] = &[
        (PATROL_OF_9, [60, 50], [99, 59], None),
        (
            PATROL_OF_9,
            [61, 50],
            [100, 59],
            Some(Outcome::Win(vec![P1])),
        ),
        (
            PATROL_OF_9,
            [80, 95],
            [119, 104],
            Some(Outcome::Win(vec![P1])),
        ),
        (
            PATROL_OF_9,
            [50, 95],
            [89, 104],
            Some(Outcome::Win(vec![P2])),
        ),
        // P2's complete patrol: 19 + 10.
        (BIG, [70, 80], [109, 109], Some(Outcome::Win(vec![P1, P2]))),
    ];
    for (other, before, after, outcome) in cases {
        let s = close_battle(&e, 2, COMPLETE, other, before);
        assert_eq!(totals(&e, &s), after.to_vec(), "{before:?}");
        assert_eq!(&s.outcome, outcome, "{before:?}");
        assert_eq!(
            (e.score(&s, P1), e.score(&s, P2)),
            (Some(after[0]), Some(after[1]))
        );
        if outcome.is_some() {
            assert_eq!(e.decider(&s), None);
            assert!(e.legal_actions(&s).is_empty());
        } else {
            assert_eq!(dealer(&e, &s), Value::Seat(P2), "a new battle");
        }
    }
    // A battle ended by the stock can end the match too.
    let s = run_out_battle(&e, 3, COMPLETE, PATROL_OF_9, &[10, 95, 99]);
    assert_eq!(totals(&e, &s), vec![39, 104, 99]);
    assert_eq!(s.outcome, Some(Outcome::Win(vec![P2])));
}

// ---- super_captain ----------------------------------------------------------------------

/// P1 adds `add` to `own` in a `players`-seat game of engine `e`; returns whether that formed
/// a complete patrol, and P1's score for a battle then ended by the stock.
fn forms_complete(e: &Engine, players: u8, own: &[&str], add: &str) -> (bool, i64) {
    let mut s = at(
        e,
        players,
        P1,
        1,
        &Table {
            hands: &[(P1, &["Sr", "Kr", "Sy", "Sg"])],
            patrols: &[(P1, &[own])],
            ..Default::default()
        },
    );
    play(e, &mut s, &format!("reinforce patrol1@P1 {add}"));
    let formed = complete(e, &s, P1);
    // End the battle: P1 discards, the stock is empty when the next turn begins and both
    // reshuffles are spent.
    bat_stock(e, &mut s, &[]);
    set_global(e, &mut s, "reshuffles", Value::Int(2));
    play_all(e, &mut s, &["done", "discard Sy"]);
    (formed, totals(e, &s)[P1 as usize])
}

// super_captain: with 2 or 3 players a complete patrol is a captain and 7 soldiers or
// cannons (8 cards); with 4, the usual 7 cards. The battle score's +10 follows the same rule.
#[test]
fn super_captain_needs_eight_cards_with_two_or_three_players() {
    let (base, sup) = (bat_engine(), super_engine());
    const SIX: &[&str] = &["Cr", "Sr", "Sr", "Sr", "Kr", "Kr"];
    // Points: 7 cards = Cr 5 + 4 Sr 8 + 2 Kr 6 = 19 (or 20 with 3 Kr); 8 cards = 22.
    let cases: &[(&str, u8, &str, bool, i64)] = &[
        ("base", 2, "Sr", true, 29),
        ("base", 3, "Sr", true, 29),
        ("base", 4, "Sr", true, 29),
        ("super_captain", 2, "Sr", false, 19),
        ("super_captain", 3, "Sr", false, 19),
        ("super_captain", 4, "Sr", true, 29),
        ("super_captain", 2, "Sr+Kr", true, 32),
        ("super_captain", 3, "Sr+Kr", true, 32),
    ];
    for &(game, players, add, formed, score) in cases {
        let e = if game == "base" { &base } else { &sup };
        assert_eq!(
            forms_complete(e, players, SIX, add),
            (formed, score),
            "{game}, {players} players, adding {add}"
        );
    }
}

/// P1 completes its red patrol `own` by adding Kr in a `players`-seat game of engine `e`,
/// while P2 and P3 hold the patrols below (all ten red soldiers and four red cannons are on
/// the table or in P1's hand). Returns the state after.
fn complete_red(e: &Engine, players: u8, own: &[&str]) -> State {
    let mut s = at(
        e,
        players,
        P1,
        1,
        &Table {
            hands: &[(P1, &["Kr", "Sy"])],
            patrols: &[
                (P1, &[own]),
                (
                    P2,
                    &[&["Sy", "Sy", "Sy"], &["Sr", "Sr", "Sr", "N"], &["Cr", "Kr"]],
                ),
                (P3, &[&["Sr", "Sr", "Kr", "M"], &["Sg", "Sg", "Sg"]]),
            ],
            ..Default::default()
        },
    );
    assert!(!complete(e, &s, P1));
    play(e, &mut s, "reinforce patrol1@P1 Kr");
    assert!(complete(e, &s, P1), "{players} players: {own:?} + Kr");
    assert_eq!(bat_conserved(&s), None);
    s
}

/// A captain, 5 soldiers and a cannon: adding a cannon makes 8 cards; a captain, 4 soldiers
/// and a cannon: adding a cannon makes 7.
const SEVEN: &[&str] = &["Cr", "Sr", "Sr", "Sr", "Sr", "Sr", "Kr"];
const SIX: &[&str] = &["Cr", "Sr", "Sr", "Sr", "Sr", "Kr"];

// super_captain: forming a complete patrol takes every opponent patrol of its colour, each
// unchanged (same cards, same order) into the former's free patrols; other colours stay.
#[test]
fn super_captain_takes_the_same_coloured_patrols() {
    let sup = super_engine();
    for (players, own) in [(3u8, SEVEN), (4, SIX)] {
        let s = complete_red(&sup, players, own);
        let mut formed = own.to_vec();
        formed.push("Kr");
        assert_eq!(
            patrols(&sup, &s, P1),
            vec![
                formed,
                vec!["Sr", "Sr", "Sr", "N"],
                vec!["Cr", "Kr"],
                vec!["Sr", "Sr", "Kr", "M"],
            ],
            "{players} players"
        );
        assert_eq!(patrols(&sup, &s, P2), vec![vec!["Sy", "Sy", "Sy"]]);
        assert_eq!(patrols(&sup, &s, P3), vec![vec![], vec!["Sg", "Sg", "Sg"]]);
        for n in 1..=4 {
            for &c in &s.zones[patrol_inst(&sup, P1, n)] {
                assert_eq!(s.owners[c as usize], P1, "patrol {n}");
            }
        }
        assert!(!complete(&sup, &s, P2) && !complete(&sup, &s, P3));
        // The taken patrols are P1's to add to.
        assert!(legal_texts(&sup, &s).iter().all(|t| !t.contains("@P2")));
    }
    // In the base game nothing changes hands.
    let base = bat_engine();
    let s = complete_red(&base, 3, SIX);
    assert_eq!(patrols(&base, &s, P1).len(), 1);
    assert_eq!(patrols(&base, &s, P2).len(), 3);
    assert_eq!(patrols(&base, &s, P3).len(), 2);
}

// The draw pile ran out when the discard pile held one card: a new draw pile is made at
// the next turn's start once enough cards were discarded, before the battle can end.
#[test]
fn a_late_reshuffle_comes_before_the_end_of_the_battle() {
    let e = bat_engine();
    let mut s = at(
        &e,
        2,
        P1,
        0,
        &Table {
            hands: &[(P1, &["Kb", "Sy"])],
            stock_top: &["Sg"],
            discard: &["Kg"],
            ..Default::default()
        },
    );
    bat_stock(&e, &mut s, &["Sg"]);
    play_all(&e, &mut s, &["draw_card", "done", "discard Kb"]);
    // P1 drew the last card when the discard pile held one card: no reshuffle then; but
    // by P2's turn the discard pile holds two, so a new draw pile is made.
    assert_eq!(global(&e, &s, "reshuffles"), Value::Int(1));
    assert_eq!(global(&e, &s, "battle_over"), Value::Bool(false));
    assert_eq!(s.turn_seat, P2);
}
