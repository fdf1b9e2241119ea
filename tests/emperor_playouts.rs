//! Seeded random games of Battalion (the emperor game) at 2, 3 and 4 players: the engine
//! never errs, every game ends (or is stopped by the cap), each player's thirteen cards
//! stay in that player's places after every action, no view shows an opponent's card that
//! was not revealed, and the topology stays what the shapes and link rules say.

mod common;

use common::emperor::*;
use common::{consistency_problem, zone_inst};
use muster::agents::{Agent, RandomAgent};
use muster::engine::{Engine, Loc, Outcome, Seen, State, NONE};

/// Games per player count.
const GAMES: u64 = 100;
/// `max_turns 600`; a turn is at most a few rearrangements, a recall and one action, and a
/// reformation places at most 9 cards.
const ACTION_LIMIT: usize = 600 * 30;

fn random_game(e: &Engine, players: u8, seed: u64, mut check: impl FnMut(&State)) -> State {
    let mut s = e.start(players, seed).expect("2 to 4 players");
    let mut agent = RandomAgent::new(seed ^ (players as u64) << 32);
    check(&s);
    let mut n = 0;
    while s.outcome.is_none() {
        n += 1;
        assert!(
            n < ACTION_LIMIT,
            "{players}p seed {seed}: no end after {n} actions"
        );
        let seat = e.decider(&s).unwrap();
        let legal = e.legal_actions(&s);
        assert!(!legal.is_empty(), "{players}p seed {seed}: no legal action");
        let a = legal[agent.choose(&e.view(&s, seat), &legal)].clone();
        let text = e.action_text(&s, &a);
        e.apply_listed(&mut s, &a)
            .unwrap_or_else(|err| panic!("{players}p seed {seed}: `{text}` failed: {err}"));
        check(&s);
    }
    s
}

/// Where a seat's cards may be: its own cells and its own zones.
fn own_place(e: &Engine, s: &State, comp: u16, seat: u8) -> bool {
    match s.locs[comp as usize] {
        Loc::Cell(c) => e.game.board.cell_area[c as usize].seat == seat,
        Loc::Zone(i) => {
            let (z, zs, _) = e.zone_of_instance(i);
            e.game.zones[z as usize].per_seat && zs == seat
        }
    }
}

fn check(e: &Engine, s: &State, what: &str) {
    assert_eq!(consistency_problem(s), None, "{what}");
    let suit_of = |comp: u16| card(e, comp).chars().last().unwrap();
    let suits = ['S', 'H', 'D', 'C'];
    for p in 0..s.players {
        let mine: Vec<u16> = (0..e.game.components.len() as u16)
            .filter(|&c| suit_of(c) == suits[p as usize])
            .collect();
        assert_eq!(mine.len(), 13);
        let outside: Vec<String> = mine
            .iter()
            .filter(|&&c| !own_place(e, s, c, p))
            .map(|&c| format!("{} at {}", card(e, c), em_places(e, s, c)))
            .collect();
        assert!(
            outside.is_empty(),
            "{what}: seat {p}'s cards astray: {outside:?}"
        );
    }
    // No view shows an opponent's card on the table unless it was turned face up, nor any
    // card in an opponent's hand, dead pile or reformation ranks.
    for v in 0..s.players {
        let view = e.view(s, v);
        for (cell, seen) in view.cells.iter().enumerate() {
            let comp = s.cells[cell];
            if comp == NONE {
                assert_eq!(*seen, Seen::Empty, "{what}");
                continue;
            }
            let owner = s.owners[comp as usize];
            if owner != v && !s.face_up[comp as usize] {
                assert!(
                    matches!(seen, Seen::Hidden { .. }),
                    "{what}: seat {v} sees {}'s face-down {}",
                    owner,
                    card(e, comp)
                );
            }
        }
        for zone in ["hand", "dead", "ranks"] {
            for p in (0..s.players).filter(|&p| p != v) {
                let inst = zone_inst(e, zone, p);
                assert!(
                    view.zones[inst]
                        .iter()
                        .all(|x| matches!(x, Seen::Hidden { .. })),
                    "{what}: seat {v} sees into {zone} of {p}"
                );
            }
        }
    }
    // Cells of two different seats' formations are linked exactly when both are in
    // their formations' front rows.
    if s.phase == 1 {
        let w = e.game.board.cells.len().div_ceil(64);
        let linked =
            |a: u16, b: u16| s.links[a as usize * w + b as usize / 64] >> (b % 64) & 1 == 1;
        let posts: Vec<(u8, u16, bool)> = (0..s.players)
            .flat_map(|p| (1..=12).map(move |k| (p, k)))
            .filter_map(|(p, k)| {
                let c = cell_of(e, &format!("post{k}@{}", seat_name(e, p)));
                e.cell_shape(s, c)
                    .map(|(sh, i)| (p, c, sh.cell_row[i] == 1))
            })
            .collect();
        for &(p, a, fa) in &posts {
            for &(q, b, fb) in posts.iter().filter(|x| x.0 != p) {
                assert_eq!(
                    linked(a, b),
                    fa && fb,
                    "{what}: cells {a} of {p} and {b} of {q}"
                );
            }
        }
    }
}

fn card(e: &Engine, comp: u16) -> String {
    common::card(e, comp)
}

#[test]
fn random_games_keep_every_rule_at_two_three_and_four_players() {
    let e = em_engine();
    for players in 2..=4u8 {
        let mut capped = 0;
        for seed in 0..GAMES {
            let what = format!("{players}p seed {seed}");
            let end = random_game(&e, players, seed, |s| check(&e, s, &what));
            match end.outcome {
                Some(Outcome::Win(w)) => {
                    assert_eq!(w.len(), 1, "{what}: one emperor is left");
                    let alive: Vec<u8> = (0..players)
                        .filter(|&p| !end.eliminated[p as usize])
                        .collect();
                    assert_eq!(
                        alive[..],
                        w[..],
                        "{what}: the winner is the last emperor standing"
                    );
                }
                Some(Outcome::Capped) => capped += 1,
                other => panic!("{what}: unexpected end {other:?}"),
            }
        }
        assert!(
            capped * 10 < GAMES,
            "{players}p: {capped} of {GAMES} games capped"
        );
    }
}

#[test]
fn the_same_seed_plays_the_same_game() {
    let e = em_engine();
    for players in 2..=4u8 {
        let a = random_game(&e, players, 7, |_| {});
        let b = random_game(&e, players, 7, |_| {});
        assert_eq!(a, b, "{players} players");
    }
}
