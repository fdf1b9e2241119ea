//! Agents: names and budgets, determinism, that nothing hidden reaches a decision, that
//! greedy takes a win in one, and a small seeded strength match.

mod common;

use common::*;
use muster::agents::{self, Agent, Budget, SearchAgent, Settings};
use muster::engine::{Engine, Loc, Outcome, State};
use std::sync::Arc;

fn army_ants() -> Arc<Engine> {
    Arc::new(engine())
}

fn chip_game() -> Arc<Engine> {
    let compiled = muster::check::compile_file(&repo_path("games/battalion_chips.muster"), None)
        .unwrap_or_else(|f| {
            panic!(
                "the chip game does not compile:\n{}",
                muster::diagnostic::render(&f.sources, &f.diagnostics, false)
            )
        });
    Arc::new(Engine::new(compiled.game))
}

/// Plays `n` actions chosen by a seeded random agent (fewer if the game ends).
fn random_actions(e: &Engine, s: &mut State, n: usize, seed: u64) {
    let mut agent = agents::RandomAgent::new(seed);
    for _ in 0..n {
        let Some(seat) = e.decider(s) else { return };
        let legal = e.legal_actions(s);
        let i = agent.choose(&e.view(s, seat), &legal);
        e.apply_listed(s, &legal[i])
            .expect("a listed action applies");
    }
}

/// Exchanges two components in zones, each taking the other's place and owner, so that
/// a seat that sees neither cannot tell the states apart.
fn exchange(s: &mut State, a: u16, b: u16) {
    let (Loc::Zone(za), Loc::Zone(zb)) = (s.locs[a as usize], s.locs[b as usize]) else {
        panic!("both components must be in zones");
    };
    let ia = s.zones[za as usize].iter().position(|&c| c == a).unwrap();
    let ib = s.zones[zb as usize].iter().position(|&c| c == b).unwrap();
    s.zones[za as usize][ia] = b;
    s.zones[zb as usize][ib] = a;
    s.locs.swap(a as usize, b as usize);
    s.owners.swap(a as usize, b as usize);
}

const AGENTS: [&str; 5] = ["random", "greedy", "mcts:40", "ismcts:40", "ismcts:40"];

#[test]
fn names_and_budgets() {
    let e = army_ants();
    for (name, shown) in [
        ("random", "random"),
        ("greedy", "greedy"),
        ("mcts", "mcts:1000"),
        ("mcts:2000", "mcts:2000"),
        ("ismcts", "ismcts:1000"),
        ("ismcts:250ms", "ismcts:250ms"),
        ("mcts:300:10", "mcts:300:10"),
        ("mcts:300:1", "mcts:300"),
        ("ismcts:40ms:end", "ismcts:40ms:end"),
    ] {
        assert!(agents::is_agent_name(name), "{name}");
        let agent = agents::by_name(name, &e, 1).expect(name);
        assert_eq!(agent.name(), shown);
    }
    for bad in [
        "wizard",
        "mcts:",
        "mcts:0",
        "mcts:abc",
        "greedy:10",
        "random:5",
        "mcts:10s",
        "",
    ] {
        assert!(!agents::is_agent_name(bad), "{bad}");
        assert!(agents::by_name(bad, &e, 1).is_none(), "{bad}");
    }
}

// In the chip game, another seat's hand and the stock are hidden. Exchanging a card of
// one with a card of the other changes the state but not the decider's view, and no agent
// decides differently.
#[test]
fn a_hidden_card_exchanged_changes_no_decision() {
    let e = chip_game();
    let stock = zone_inst(&e, "stock", 0);
    let hand = |seat: u8| zone_inst(&e, "hand", seat);
    let mut tested = 0;
    for seed in 0..12u64 {
        let players = 3 + (seed % 4) as u8;
        let mut s = e.start(players, seed).unwrap();
        random_actions(&e, &mut s, (seed as usize * 7) % 40, seed);
        let Some(me) = e.decider(&s) else { continue };
        let other = (me + 1) % players;
        let (Some(&a), Some(&b)) = (s.zones[hand(other)].first(), s.zones[stock].first()) else {
            continue;
        };
        if e.label_for(a, 0) == e.label_for(b, 0) {
            continue; // twins: the exchange would change nothing at all
        }
        let mut t = s.clone();
        exchange(&mut t, a, b);
        assert_ne!(t, s);
        assert_ne!(e.omniscient_view(&t), e.omniscient_view(&s));
        let (vs, vt) = (e.view(&s, me), e.view(&t, me));
        assert_eq!(vs, vt, "seed {seed}: the decider's view must not change");
        let legal = e.legal_actions(&s);
        assert_eq!(legal, e.legal_actions(&t));
        for (k, name) in AGENTS.iter().enumerate() {
            let mut x = agents::by_name(name, &e, seed + k as u64).unwrap();
            let mut y = agents::by_name(name, &e, seed + k as u64).unwrap();
            assert_eq!(
                x.choose(&vs, &legal),
                y.choose(&vt, &legal),
                "seed {seed}: {name} decided differently"
            );
        }
        tested += 1;
    }
    assert!(tested >= 8, "only {tested} positions tested");
}

// Army Ants: the boxed cards are hidden from both seats. Exchanging two of them (so the box
// holds the same cards in another order) leaves every agent's decision unchanged.
#[test]
fn reordering_the_box_changes_no_decision() {
    let e = army_ants();
    for seed in 0..4u64 {
        let mut s = start(&e, seed);
        random_actions(&e, &mut s, 6, seed);
        let boxed = zone_inst(&e, "box", 0);
        let (a, b) = (s.zones[boxed][0], s.zones[boxed][13]);
        assert_ne!(rank(&e, a), rank(&e, b));
        let mut t = s.clone();
        exchange(&mut t, a, b);
        let me = e.decider(&s).unwrap();
        assert_eq!(e.view(&s, me), e.view(&t, me));
        let legal = e.legal_actions(&s);
        for name in AGENTS {
            let mut x = agents::by_name(name, &e, seed).unwrap();
            let mut y = agents::by_name(name, &e, seed).unwrap();
            assert_eq!(
                x.choose(&e.view(&s, me), &legal),
                y.choose(&e.view(&t, me), &legal),
                "{name}"
            );
        }
    }
}

// A search with an iteration budget decides the same for the same seed, view and actions.
#[test]
fn search_is_deterministic_for_a_seed_and_iterations() {
    let e = chip_game();
    let mut s = e.start(4, 9).unwrap();
    random_actions(&e, &mut s, 20, 9);
    let me = e.decider(&s).unwrap();
    let (view, legal) = (e.view(&s, me), e.legal_actions(&s));
    for settings in [
        Settings::mcts(Budget::Iterations(60)),
        Settings::ismcts(Budget::Iterations(60)),
    ] {
        let picks: Vec<usize> = (0..3)
            .map(|_| SearchAgent::new(e.clone(), settings, 77).choose(&view, &legal))
            .collect();
        assert_eq!(picks[0], picks[1]);
        assert_eq!(picks[1], picks[2]);
        assert!(picks[0] < legal.len());
    }
}

// Red can take the Black Queen at once: greedy and both searches do.
#[test]
fn every_agent_but_random_takes_a_win_in_one() {
    let e = army_ants();
    let s = battle(
        &e,
        RED,
        &[
            ("b2", RED, 3),
            ("a1", RED, QUEEN),
            ("b6", BLACK, QUEEN),
            ("e8", BLACK, 9),
            ("d1", RED, 5),
        ],
    );
    let legal = e.legal_actions(&s);
    assert!(legal.len() > 10);
    // However short the search: the last look one move deep takes the win.
    for name in ["greedy", "mcts:20", "ismcts:20", "mcts:1", "ismcts:1"] {
        for seed in 0..5 {
            let mut agent = agents::by_name(name, &e, seed).unwrap();
            let i = agent.choose(&e.view(&s, RED), &legal);
            assert_eq!(e.action_text(&s, &legal[i]), "attack b2 b6", "{name}");
        }
    }
}

// Red's Queen on a1 is in the sight of the Black 9 on a5. Most actions leave her to be
// taken; a few save her (she steps aside, or the 2 blocks the file). Both searches save her,
// however short: a one-move blunder is never chosen while a safe action is on offer.
#[test]
fn search_sees_a_win_in_one_for_the_opponent() {
    let e = army_ants();
    let s = battle(
        &e,
        RED,
        &[
            ("a1", RED, QUEEN),
            ("a5", BLACK, 9),
            ("b2", RED, 2),
            ("e8", BLACK, QUEEN),
            ("d2", RED, 4),
        ],
    );
    let legal = e.legal_actions(&s);
    let runs = ["mcts:300", "ismcts:300"]
        .iter()
        .map(|n| (*n, 5))
        .chain((0..8).flat_map(|seed| [("mcts:1", seed), ("ismcts:1", seed), ("mcts:5", seed)]));
    for (name, seed) in runs {
        let mut agent = agents::by_name(name, &e, seed).unwrap();
        let i = agent.choose(&e.view(&s, RED), &legal);
        let mut t = s.clone();
        e.apply(&mut t, &legal[i]).unwrap();
        let replies = e.legal_actions(&t);
        let lost = replies.iter().any(|r| {
            let mut u = t.clone();
            e.apply(&mut u, r).unwrap();
            u.outcome == Some(Outcome::Win([BLACK][..].into()))
        });
        assert!(
            !lost,
            "{name} played {} and lost its Queen",
            e.action_text(&s, &legal[i])
        );
    }
}

/// Plays one game of Army Ants between two named agents; the outcome.
fn match_game(e: &Arc<Engine>, red: &str, black: &str, seed: u64) -> Outcome {
    let mut s = start(e, seed);
    let mut seats = [
        agents::by_name(red, e, seed ^ 1).unwrap(),
        agents::by_name(black, e, seed ^ 2).unwrap(),
    ];
    while let Some(seat) = e.decider(&s) {
        let legal = e.legal_actions(&s);
        let i = seats[seat as usize].choose(&e.view(&s, seat), &legal);
        e.apply_listed(&mut s, &legal[i]).unwrap();
    }
    s.outcome.unwrap()
}

// A small seeded match (the full figures are in docs/agents.md): a modest search wins
// every one of four games against random play, on either side of the board.
#[test]
fn mcts_beats_random_at_army_ants() {
    let e = army_ants();
    let mut wins = 0;
    for seed in 0..4u64 {
        let (red, black, mcts_seat) = if seed % 2 == 0 {
            ("mcts:40", "random", RED)
        } else {
            ("random", "mcts:40", BLACK)
        };
        if match_game(&e, red, black, seed) == Outcome::Win([mcts_seat][..].into()) {
            wins += 1;
        }
    }
    assert!(wins >= 4, "mcts won {wins} of 4");
}

// Greedy captures and takes the Queen when it can: it beats random play too.
#[test]
fn greedy_beats_random_at_army_ants() {
    let e = army_ants();
    let wins = (0..4u64)
        .filter(|&seed| match_game(&e, "greedy", "random", seed) == Outcome::Win([RED][..].into()))
        .count();
    assert_eq!(wins, 4);
}

// Search agents look for wins in one only among actions that can declare a winner: in Army
// Ants only an attack can (`win me`); in the chip game any action can (a `win` end rule).
#[test]
fn which_actions_may_win_at_once() {
    let e = army_ants();
    let s = battle(
        &e,
        RED,
        &[("b2", RED, 3), ("a1", RED, QUEEN), ("b6", BLACK, QUEEN)],
    );
    let legal = e.legal_actions(&s);
    let name = |a: &muster::engine::Action| e.game.actions[a.action as usize].name.clone();
    assert!(legal.iter().any(|a| name(a) == "march"));
    for a in &legal {
        assert_eq!(e.may_win_at_once(a), name(a) == "attack", "{}", name(a));
    }
    let chips = chip_game();
    let s = chips.start(3, 1).unwrap();
    assert!(chips
        .legal_actions(&s)
        .iter()
        .all(|a| chips.may_win_at_once(a)));
}

// `choose_lazily` picks what `choose` picks, for every agent; the random agent makes no
// view for it (`muster simulate` then builds none per decision), the others make one.
#[test]
fn choosing_lazily_picks_the_same_and_the_random_agent_makes_no_view() {
    let e = army_ants();
    let mut s = e.start(2, 3).expect("the game starts");
    random_actions(&e, &mut s, 12, 3);
    let seat = e.decider(&s).expect("someone decides");
    let legal = e.legal_actions(&s);
    for name in ["random", "greedy", "mcts:30"] {
        let mut eager = agents::by_name(name, &e, 9).expect("agent");
        let mut lazy = agents::by_name(name, &e, 9).expect("agent");
        let made = std::cell::Cell::new(0);
        let view = || {
            made.set(made.get() + 1);
            e.view(&s, seat)
        };
        for _ in 0..3 {
            assert_eq!(
                lazy.choose_lazily(&view, &legal),
                eager.choose(&e.view(&s, seat), &legal),
                "{name}"
            );
        }
        let expected = if name == "random" { 0 } else { 3 };
        assert_eq!(made.get(), expected, "{name}: views made");
    }
}
