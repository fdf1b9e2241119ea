//! Seeded random games of Army Ants: the engine never errs, every game ends, the cards are
//! conserved after every action, play is deterministic, and notation round-trips.

mod common;

use common::*;
use muster::agents::{Agent, RandomAgent};
use muster::engine::{Action, Engine, Listed, Outcome, State};

/// The most actions a game may take: 400 turns of one action each, with room to spare.
const ACTION_LIMIT: usize = 2_000;

/// Plays one random game from `seed`, calling `check` after the start and after every
/// action. Returns the final state and the texts of the actions played.
fn random_game(
    e: &Engine,
    seed: u64,
    mut check: impl FnMut(&State, Option<&Action>),
) -> (State, Vec<String>) {
    let mut s = start(e, seed);
    let mut agent = RandomAgent::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xA5);
    let mut played = Vec::new();
    check(&s, None);
    while s.outcome.is_none() {
        assert!(
            played.len() < ACTION_LIMIT,
            "seed {seed}: no end after {ACTION_LIMIT} actions"
        );
        let seat = e.decider(&s).expect("a game not over has a decider");
        let legal = e.legal_actions(&s);
        assert!(
            !legal.is_empty(),
            "seed {seed}: seat {seat} must act but has no legal action"
        );
        let a = legal[agent.choose(&e.view(&s, seat), &legal)].clone();
        played.push(e.action_text(&s, &a));
        e.apply_listed(&mut s, &a).unwrap_or_else(|err| {
            panic!("seed {seed}: `{}` failed: {err}", played.last().unwrap())
        });
        check(&s, Some(&a));
    }
    (s, played)
}

/// The cards that stay in the box for the whole game: 52 minus the two armies of 19.
fn boxed(e: &Engine, s: &State) -> Vec<u16> {
    let mut b = s.zones[zone_inst(e, "box", 0)].clone();
    b.sort_unstable();
    b
}

/// Plays the random games of `seeds`, checking after every action that 38 cards are on the
/// board or fallen, the same 14 stay boxed, and every card is in exactly one place; and that
/// every game ends. Returns (wins, draws, capped).
fn conservation(seeds: std::ops::Range<u64>) -> (usize, usize, usize) {
    let e = engine();
    let board = |s: &State| {
        s.cells
            .iter()
            .filter(|&&c| c != muster::engine::NONE)
            .count()
    };
    let (mut wins, mut draws, mut capped) = (0, 0, 0);
    for seed in seeds {
        let first = start(&e, seed);
        let box_at_start = boxed(&e, &first);
        assert_eq!(box_at_start.len(), 14);
        let (end, _) = random_game(&e, seed, |s, _| {
            let fallen = s.zones[zone_inst(&e, "fallen", RED)].len()
                + s.zones[zone_inst(&e, "fallen", BLACK)].len();
            assert_eq!(board(s) + fallen, 38, "seed {seed}: cards lost or gained");
            assert_eq!(boxed(&e, s), box_at_start, "seed {seed}: the box changed");
            assert!(
                s.zones[zone_inst(&e, "army", RED)].is_empty()
                    && s.zones[zone_inst(&e, "army", BLACK)].is_empty()
            );
            assert_eq!(consistency_problem(s), None, "seed {seed}");
            // Fallen cards belong to the fallen zone's seat; board cards keep their side.
            for p in [RED, BLACK] {
                for &c in &s.zones[zone_inst(&e, "fallen", p)] {
                    assert_eq!(s.owners[c as usize], p);
                    assert_eq!(colour(&e, c), seat_colour(p));
                }
            }
            for &c in s.cells.iter().filter(|&&c| c != muster::engine::NONE) {
                assert_eq!(
                    colour(&e, c),
                    seat_colour(s.owners[c as usize]),
                    "seed {seed}: a card changed sides"
                );
            }
        });
        match end.outcome {
            Some(Outcome::Win(ref w)) => {
                assert!(w[..] == [RED] || w[..] == [BLACK], "seed {seed}: {w:?}");
                // The loser's queen has fallen.
                let loser = 1 - w[0];
                assert!(
                    fallen(&e, &end, loser).contains(&QUEEN),
                    "seed {seed}: a win without a captured queen"
                );
                wins += 1;
            }
            Some(Outcome::Draw) => draws += 1,
            Some(Outcome::Capped) => {
                assert!(
                    end.turns >= e.game.max_turns,
                    "seed {seed}: capped after {} turns",
                    end.turns
                );
                capped += 1
            }
            None => unreachable!("random_game returns only finished games"),
        }
    }
    (wins, draws, capped)
}

// Conservation and termination, seeds 0-74 (300 games in four tests, run in parallel).
#[test]
fn random_games_conserve_cards_and_end_seeds_0_to_74() {
    let (wins, draws, capped) = conservation(0..75);
    // Random armies blunder into the queen often: most games are won.
    assert!(
        wins > 40,
        "only {wins} wins ({draws} draws, {capped} capped)"
    );
}

// Conservation and termination, seeds 75-149.
#[test]
fn random_games_conserve_cards_and_end_seeds_75_to_149() {
    let (wins, draws, capped) = conservation(75..150);
    assert!(
        wins > 40,
        "only {wins} wins ({draws} draws, {capped} capped)"
    );
}

// Conservation and termination, seeds 150-224.
#[test]
fn random_games_conserve_cards_and_end_seeds_150_to_224() {
    let (wins, draws, capped) = conservation(150..225);
    assert!(
        wins > 40,
        "only {wins} wins ({draws} draws, {capped} capped)"
    );
}

// Conservation and termination, seeds 225-299.
#[test]
fn random_games_conserve_cards_and_end_seeds_225_to_299() {
    let (wins, draws, capped) = conservation(225..300);
    assert!(
        wins > 40,
        "only {wins} wins ({draws} draws, {capped} capped)"
    );
}

// Determinism: the same seed (deal and agent) gives the identical final state.
#[test]
fn same_seed_gives_identical_games() {
    let e = engine();
    for seed in [0u64, 5, 42] {
        let (a, pa) = random_game(&e, seed, |_, _| {});
        let (b, pb) = random_game(&e, seed, |_, _| {});
        assert_eq!(pa, pb, "seed {seed}");
        assert_eq!(a, b, "seed {seed}");
    }
    // Different seeds deal differently.
    assert_ne!(start(&e, 1).cells, start(&e, 2).cells);
}

// Notation: replaying a game's action texts (parse_action + checked apply) reaches the same state.
#[test]
fn replaying_action_texts_reaches_the_same_state() {
    let e = engine();
    for seed in [3u64, 17] {
        let (end, played) = random_game(&e, seed, |_, _| {});
        let mut s = start(&e, seed);
        for t in &played {
            play(&e, &mut s, t);
        }
        assert_eq!(s, end, "seed {seed}");
    }
}

// Notation and legality: at every position of a few games, every listed action's text
// parses back to the same action, texts are unique, and why_illegal agrees it is legal.
#[test]
fn every_listed_action_parses_back_and_is_legal() {
    let e = engine();
    let mut positions = 0;
    // Two short games (11 and 20 actions): parse_action lists the actions again for every text.
    for seed in [39u64, 40] {
        random_game(&e, seed, |s, _| {
            if s.outcome.is_some() {
                return;
            }
            positions += 1;
            let legal = e.legal_actions(s);
            let mut texts: Vec<String> = Vec::new();
            for a in &legal {
                let t = e.action_text(s, a);
                assert_eq!(e.parse_action(s, &t).as_ref(), Ok(a), "seed {seed}: `{t}`");
                assert_eq!(
                    e.why_illegal(s, a),
                    None,
                    "seed {seed}: `{t}` is listed but refused"
                );
                texts.push(t);
            }
            let n = texts.len();
            texts.sort();
            texts.dedup();
            assert_eq!(
                texts.len(),
                n,
                "seed {seed}: two listed actions share a text"
            );
        });
    }
    assert!(positions > 25, "only {positions} positions checked");
}

// Seats: Army Ants is for exactly two players.
#[test]
fn army_ants_seats_exactly_two() {
    let e = engine();
    assert!(e.start(1, 0).is_err());
    assert!(e.start(3, 0).is_err());
    assert!(e.start(2, 0).is_ok());
}

// A buffer reused from query to query (as `bench`, `simulate` and the search agents reuse
// theirs) lists what a fresh list holds: its actions are overwritten in place, with more or
// fewer arguments than the last query's there (a march has three, a swap two, Queen's
// Favor one), and the buffer grows and shrinks with the number of legal actions.
#[test]
fn a_reused_buffer_lists_what_a_fresh_one_lists() {
    let e = engine();
    let mut buf = Listed::new();
    let (mut positions, mut arities) = (0, std::collections::BTreeSet::new());
    for seed in [1u64, 2] {
        random_game(&e, seed, |s, _| {
            if s.outcome.is_some() {
                return;
            }
            positions += 1;
            e.legal_into(s, &mut buf);
            assert_eq!(
                &buf[..],
                &e.legal_actions(s)[..],
                "seed {seed}, position {positions}"
            );
            arities.extend(buf.iter().map(|a| a.args.len()));
        });
    }
    assert!(positions > 100, "only {positions} positions checked");
    assert_eq!(arities.into_iter().collect::<Vec<_>>(), vec![1, 2, 3]);
}
