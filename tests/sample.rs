//! Determinization (`Engine::sample_state`): over many seeded positions of the chip game
//! (hidden hands, a hidden shuffled stock, 3 to 6 players), every sample agrees with the
//! view it was drawn from, conserves the components, and plays on like the real state.

mod common;

use common::repo_path;
use muster::agents::{Agent, RandomAgent};
use muster::engine::{Engine, Loc, Seen, State, View, NONE};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn chip_game() -> Engine {
    let compiled = muster::check::compile_file(&repo_path("games/battalion_chips.muster"), None)
        .unwrap_or_else(|f| {
            panic!(
                "the chip game does not compile:\n{}",
                muster::diagnostic::render(&f.sources, &f.diagnostics, false)
            )
        });
    Engine::new(compiled.game)
}

/// Every component is in exactly one place, and `locs` says where.
fn assert_conserved(s: &State, what: &str) {
    let mut seen = vec![0u32; s.locs.len()];
    for (cell, &c) in s.cells.iter().enumerate() {
        if c != NONE {
            seen[c as usize] += 1;
            assert_eq!(s.locs[c as usize], Loc::Cell(cell as u16), "{what}");
        }
    }
    for (inst, zone) in s.zones.iter().enumerate() {
        for &c in zone {
            seen[c as usize] += 1;
            assert_eq!(s.locs[c as usize], Loc::Zone(inst as u16), "{what}");
        }
    }
    assert!(
        seen.iter().all(|&n| n == 1),
        "{what}: components not each in one place"
    );
}

/// The components a view identifies.
fn known(v: &View) -> Vec<u16> {
    let mut k: Vec<u16> = v
        .cells
        .iter()
        .chain(v.zones.iter().flatten())
        .filter_map(|x| match x {
            Seen::Known { comp, .. } => Some(*comp),
            _ => None,
        })
        .collect();
    k.sort_unstable();
    k
}

/// The components in the places a view hides, sorted.
fn in_hidden_places(v: &View, s: &State) -> Vec<u16> {
    let mut out = Vec::new();
    for (inst, zone) in v.zones.iter().enumerate() {
        for (i, x) in zone.iter().enumerate() {
            if let Seen::Hidden { .. } = x {
                out.push(s.zones[inst][i]);
            }
        }
    }
    out.sort_unstable();
    out
}

/// A position reached by `actions` seeded random actions from a seeded deal.
fn position(e: &Engine, players: u8, seed: u64, actions: usize) -> State {
    let mut s = e.start(players, seed).unwrap();
    let mut agent = RandomAgent::new(seed ^ 0xC0FFEE);
    for _ in 0..actions {
        let Some(seat) = e.decider(&s) else { break };
        let legal = e.legal_actions(&s);
        let i = agent.choose(&e.view(&s, seat), &legal);
        e.apply_listed(&mut s, &legal[i]).unwrap();
    }
    s
}

// The property, over 120 positions x every seat x 3 samples.
#[test]
fn samples_never_contradict_the_view() {
    let e = chip_game();
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let (mut samples, mut differing) = (0, 0);
    for seed in 0..120u64 {
        let players = 3 + (seed % 4) as u8;
        let s = position(&e, players, seed, (seed as usize * 13) % 90);
        assert_conserved(&s, "the real state");
        for seat in 0..players {
            let v = e.view(&s, seat);
            for k in 0..3 {
                let what = format!("seed {seed}, seat {seat}, sample {k}");
                let t = e.sample_state(&v, &mut rng);
                // The sample looks exactly the same from this seat.
                assert_eq!(e.view(&t, seat), v, "{what}");
                assert_conserved(&t, &what);
                // Every identified component is where the view shows it, and the hidden
                // places hold exactly the components the view does not identify.
                let kn = known(&v);
                let hidden = in_hidden_places(&v, &t);
                assert_eq!(kn.len() + hidden.len(), s.locs.len(), "{what}");
                assert!(
                    hidden.iter().all(|c| kn.binary_search(c).is_err()),
                    "{what}"
                );
                assert_eq!(hidden, in_hidden_places(&v, &s), "{what}");
                // Everything public is copied.
                assert_eq!(
                    (&t.globals, &t.seat_vars, &t.eliminated),
                    (&s.globals, &s.seat_vars, &s.eliminated),
                    "{what}"
                );
                assert_eq!(
                    (
                        t.phase,
                        t.turn_seat,
                        t.step,
                        t.turns,
                        t.phase_turns,
                        t.actions
                    ),
                    (
                        s.phase,
                        s.turn_seat,
                        s.step,
                        s.turns,
                        s.phase_turns,
                        s.actions
                    ),
                    "{what}"
                );
                assert_eq!(t.outcome, s.outcome, "{what}");
                // The decider has the same choices in the sample as in the real state.
                if e.decider(&s) == Some(seat) {
                    assert_eq!(e.legal_actions(&t), e.legal_actions(&s), "{what}");
                }
                samples += 1;
                if t.zones != s.zones {
                    differing += 1;
                }
            }
        }
    }
    assert_eq!(samples, 120 / 4 * 3 * (3 + 4 + 5 + 6));
    // The hidden part really is drawn: almost no sample guesses every hidden card.
    assert!(differing * 10 > samples * 9, "{differing} of {samples}");
}

// A sample is a state the game goes on from: random play from samples ends without errors.
#[test]
fn samples_play_on_to_the_end() {
    let e = chip_game();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for seed in 0..16u64 {
        let players = 3 + (seed % 4) as u8;
        let s = position(&e, players, seed, 10 + seed as usize * 3);
        let seat = e.decider(&s).unwrap_or(0);
        let mut t = e.sample_state(&e.view(&s, seat), &mut rng);
        let mut agent = RandomAgent::new(seed);
        let mut actions = 0;
        while let Some(p) = e.decider(&t) {
            let legal = e.legal_actions(&t);
            assert!(!legal.is_empty(), "seed {seed}");
            let i = agent.choose(&e.view(&t, p), &legal);
            e.apply_listed(&mut t, &legal[i]).unwrap();
            assert_conserved(&t, &format!("seed {seed}, after {actions} actions"));
            actions += 1;
            assert!(actions < 5000, "seed {seed}: no end");
        }
        assert!(t.outcome.is_some());
    }
}

// The view of a seat that sees everything (the omniscient view) samples the state itself,
// its RNG apart; so does any view in a game where nothing is hidden at that moment.
#[test]
fn a_view_hiding_nothing_samples_the_state_itself() {
    let e = chip_game();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for seed in 0..10u64 {
        let s = position(&e, 4, seed, seed as usize * 9);
        let t = e.sample_state(&e.omniscient_view(&s), &mut rng);
        assert_eq!(
            (&t.cells, &t.zones, &t.locs, &t.owners, &t.face_up),
            (&s.cells, &s.zones, &s.locs, &s.owners, &s.face_up)
        );
        assert_eq!(e.omniscient_view(&t), e.omniscient_view(&s));
    }
}

// Sampling depends only on the view and the RNG: the same seed gives the same sample.
#[test]
fn sampling_is_deterministic_for_a_seed() {
    let e = chip_game();
    let s = position(&e, 5, 3, 30);
    let v = e.view(&s, 2);
    let a = e.sample_state(&v, &mut ChaCha8Rng::seed_from_u64(9));
    let b = e.sample_state(&v, &mut ChaCha8Rng::seed_from_u64(9));
    let c = e.sample_state(&v, &mut ChaCha8Rng::seed_from_u64(10));
    assert_eq!(a, b);
    assert_ne!(a.zones, c.zones);
}

// In the emperor game the rules give each seat its own suit at set-up, so a seat's hidden
// cards are sampled from that seat's own unseen cards: no sample puts a clubs card (still
// boxed in a two-player game) or a spade into H's formation, hand or dead pile, and the
// sample's view is the view it was drawn from.
#[test]
fn samples_keep_each_seat_to_the_components_the_rules_give_it() {
    let e = Engine::new(
        muster::check::compile_file(&repo_path("games/battalion_emperor.muster"), None)
            .unwrap_or_else(|_| panic!("the emperor game compiles"))
            .game,
    );
    let suit = |c: u16| {
        e.label_for(c, muster::engine::NO_SEAT)
            .chars()
            .last()
            .unwrap()
    };
    let homes = e.home_seats(2);
    assert!((0..homes.len() as u16).all(|c| match suit(c) {
        'S' => homes[c as usize] == 0,
        'H' => homes[c as usize] == 1,
        _ => homes[c as usize] == muster::engine::NO_SEAT,
    }));
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for seed in 0..12u64 {
        // A position some way into a random game.
        let mut s = e.start(2, seed).unwrap();
        let mut agent = RandomAgent::new(seed);
        for _ in 0..(20 + seed as usize * 4) {
            let Some(p) = e.decider(&s) else { break };
            let legal = e.legal_actions(&s);
            let i = agent.choose(&e.view(&s, p), &legal);
            e.apply_listed(&mut s, &legal[i]).unwrap();
        }
        let v = e.view(&s, 0);
        for _ in 0..5 {
            let t = e.sample_state(&v, &mut rng);
            assert_conserved(&t, &format!("seed {seed}"));
            assert_eq!(e.view(&t, 0), v, "seed {seed}");
            for c in 0..t.owners.len() as u16 {
                if t.owners[c as usize] == 1 {
                    assert_eq!(suit(c), 'H', "seed {seed}: H holds {}", suit(c));
                }
            }
        }
    }
}
