//! Seeded random games of Battalion (the chip game) at 3 to 6 players: the engine never
//! errs, every game ends, the 104 cards and the chips are conserved after every action, the
//! hands have the sizes the rules give them, play is deterministic, and notation
//! round-trips.

mod common;

use common::*;
use muster::agents::{Agent, RandomAgent};
use muster::engine::{Action, Engine, Outcome, State, NONE};

/// The most actions a game may take: `max_turns 600`, at most two actions a turn.
const ACTION_LIMIT: usize = 2 * 600 + 10;

/// Plays one random game of `players` seats from `seed`, calling `check` after the start
/// and after every action. Returns the final state and the texts of the actions played.
fn random_game(
    e: &Engine,
    players: u8,
    seed: u64,
    mut check: impl FnMut(&State, Option<&Action>),
) -> (State, Vec<String>) {
    let mut s = chips_start(e, players, seed);
    let mut agent = RandomAgent::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ players as u64);
    let mut played = Vec::new();
    check(&s, None);
    while s.outcome.is_none() {
        assert!(
            played.len() < ACTION_LIMIT,
            "{players} players, seed {seed}: no end after {ACTION_LIMIT} actions"
        );
        let seat = e.decider(&s).expect("a game not over has a decider");
        let legal = e.legal_actions(&s);
        assert!(
            !legal.is_empty(),
            "{players} players, seed {seed}: seat {seat} must act but has no legal action"
        );
        let a = legal[agent.choose(&e.view(&s, seat), &legal)].clone();
        played.push(e.action_text(&s, &a));
        e.apply_listed(&mut s, &a).unwrap_or_else(|err| {
            panic!(
                "{players} players, seed {seed}: `{}` failed: {err}",
                played.last().unwrap()
            )
        });
        check(&s, Some(&a));
    }
    (s, played)
}

/// The invariants that hold after every action; panics naming the first broken one.
fn check_invariants(e: &Engine, s: &State, what: &str) {
    let players = s.players;
    assert!(
        s.cells.iter().all(|&c| c == NONE),
        "{what}: a card is on a cell"
    );
    assert_eq!(consistency_problem(s), None, "{what}");
    let in_zones: usize = s.zones.iter().map(Vec::len).sum();
    assert_eq!(in_zones, 104, "{what}: cards lost or gained");
    let chips = all_chips(e, s);
    assert_eq!(
        chips.iter().sum::<i64>(),
        10 * players as i64,
        "{what}: chips {chips:?}"
    );
    assert!(chips.iter().all(|&c| c >= 0), "{what}: chips {chips:?}");
    // Hand cards belong to their seat; per-seat hands of absent seats stay empty.
    for p in 0..6u8 {
        let inst = zone_inst(e, "hand", p);
        if p >= players {
            assert!(s.zones[inst].is_empty(), "{what}: seat {p} is not playing");
            continue;
        }
        for &c in &s.zones[inst] {
            assert_eq!(s.owners[c as usize], p, "{what}: a card in hand {p}");
        }
    }
    if s.outcome.is_some() {
        return;
    }
    // Hand sizes: 10 at the start of every turn; 11 while an acquirer holds its draw; the
    // attacker short of the cards in the attack row while the defender answers.
    let phase = phase_name(e, s);
    let attack = cards_in(e, s, "attack_row", 0).len();
    assert!(
        cards_in(e, s, "defence_row", 0).is_empty(),
        "{what}: a defence left on the table"
    );
    for p in 0..players {
        let n = hand(e, s, p).len();
        let want = match (phase.as_str(), s.step) {
            ("acquisition", 1) if p == s.turn_seat => 11,
            ("combat", 1) if p == s.turn_seat => 10 - attack,
            _ => 10,
        };
        assert_eq!(n, want, "{what}: seat {p} in {phase}, step {}", s.step);
    }
    assert_eq!(attack > 0, phase == "combat" && s.step == 1, "{what}");
}

/// Plays the random games of `seeds` at `players` seats, checking the invariants after
/// every action and the result at the end. Returns (wins, shared wins, capped).
fn conservation(players: u8, seeds: std::ops::Range<u64>) -> (usize, usize, usize) {
    let e = chips_engine();
    let (mut wins, mut shared, mut capped) = (0, 0, 0);
    for seed in seeds {
        let mut n = 0usize;
        let (end, _) = random_game(&e, players, seed, |s, _| {
            n += 1;
            check_invariants(
                &e,
                s,
                &format!("{players} players, seed {seed}, action {n}"),
            );
        });
        let chips = all_chips(&e, &end);
        match end.outcome {
            Some(Outcome::Win(ref w)) => {
                // Someone ran out of chips, and the winners are exactly the richest.
                assert!(
                    chips.contains(&0),
                    "seed {seed}: a win with chips {chips:?}"
                );
                let most = *chips.iter().max().unwrap();
                let richest: Vec<u8> = (0..players)
                    .filter(|&p| chips[p as usize] == most)
                    .collect();
                assert_eq!(w[..], richest[..], "seed {seed}: chips {chips:?}");
                wins += 1;
                if w.len() > 1 {
                    shared += 1;
                }
            }
            Some(Outcome::Capped) => {
                assert!(end.turns >= e.game.max_turns, "seed {seed}: capped early");
                assert!(
                    !chips.contains(&0),
                    "seed {seed}: capped with chips {chips:?}"
                );
                capped += 1;
            }
            ref other => panic!("{players} players, seed {seed}: ended {other:?}"),
        }
    }
    (wins, shared, capped)
}

// Conservation and termination at 3 players, seeds 0-99.
#[test]
fn random_games_conserve_cards_and_chips_3_players() {
    let (wins, shared, capped) = conservation(3, 0..100);
    assert_eq!((wins, capped), (100, 0), "random games end fast");
    assert!(shared > 0, "no shared win in 100 games");
}

// Conservation and termination at 4 players, seeds 0-99.
#[test]
fn random_games_conserve_cards_and_chips_4_players() {
    let (wins, shared, capped) = conservation(4, 0..100);
    assert_eq!((wins, capped), (100, 0), "random games end fast");
    assert!(shared > 0, "no shared win in 100 games");
}

// Conservation and termination at 5 players, seeds 0-79.
#[test]
fn random_games_conserve_cards_and_chips_5_players() {
    let (wins, shared, capped) = conservation(5, 0..80);
    assert_eq!((wins, capped), (80, 0), "random games end fast");
    assert!(shared > 0, "no shared win in 80 games");
}

// Conservation and termination at 6 players, seeds 0-79.
#[test]
fn random_games_conserve_cards_and_chips_6_players() {
    let (wins, shared, capped) = conservation(6, 0..80);
    assert_eq!((wins, capped), (80, 0), "random games end fast");
    assert!(shared > 0, "no shared win in 80 games");
}

// Determinism: the same seed (deal and agent) gives the identical game and final state.
#[test]
fn same_seed_gives_identical_games() {
    let e = chips_engine();
    for players in 3..=6u8 {
        for seed in [0u64, 42] {
            let (a, pa) = random_game(&e, players, seed, |_, _| {});
            let (b, pb) = random_game(&e, players, seed, |_, _| {});
            assert_eq!(pa, pb, "{players} players, seed {seed}");
            assert_eq!(a, b, "{players} players, seed {seed}");
        }
    }
    // Different seeds deal differently.
    assert_ne!(chips_start(&e, 4, 1).zones, chips_start(&e, 4, 2).zones);
}

// Notation: replaying a game's action texts (parse_action + checked apply) reaches the
// same state.
#[test]
fn replaying_action_texts_reaches_the_same_state() {
    let e = chips_engine();
    for (players, seed) in [(3u8, 3u64), (4, 17), (5, 5), (6, 8)] {
        let (end, played) = random_game(&e, players, seed, |_, _| {});
        let mut s = chips_start(&e, players, seed);
        for t in &played {
            play(&e, &mut s, t);
        }
        assert_eq!(s, end, "{players} players, seed {seed}");
    }
}

// Notation and legality: at every position of a few games, every listed action's text
// parses back to the same action, texts are unique, and why_illegal agrees it is legal.
#[test]
fn every_listed_action_parses_back_and_is_legal() {
    let e = chips_engine();
    let mut positions = 0;
    let mut actions = 0;
    for (players, seed) in [(3u8, 1u64), (4, 2), (5, 3), (6, 4)] {
        random_game(&e, players, seed, |s, _| {
            if s.outcome.is_some() {
                return;
            }
            positions += 1;
            let legal = e.legal_actions(s);
            let mut texts: Vec<String> = Vec::new();
            for a in &legal {
                let t = e.action_text(s, a);
                assert_eq!(
                    e.parse_action(s, &t).as_ref(),
                    Ok(a),
                    "{players} players, seed {seed}: `{t}`"
                );
                assert_eq!(
                    e.why_illegal(s, a),
                    None,
                    "{players} players, seed {seed}: `{t}` is listed but refused"
                );
                texts.push(t);
            }
            actions += texts.len();
            let n = texts.len();
            texts.sort();
            texts.dedup();
            assert_eq!(
                texts.len(),
                n,
                "{players} players, seed {seed}: shared texts"
            );
        });
    }
    assert!(positions > 250, "only {positions} positions checked");
    assert!(actions > 5_000, "only {actions} actions checked");
}

// Seats: the chip game is for 3 to 6 players.
#[test]
fn battalion_seats_three_to_six() {
    let e = chips_engine();
    for n in [0u8, 1, 2, 7] {
        assert!(e.start(n, 0).is_err(), "{n} players");
    }
    for n in 3..=6u8 {
        assert!(e.start(n, 0).is_ok(), "{n} players");
    }
}
