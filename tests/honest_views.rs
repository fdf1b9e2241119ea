//! Indistinguishability: for every shipped game and variant, over seeded random positions,
//! two states that give a seat the same view must show that seat the same things. The
//! second state is drawn from the seat's view (`sample_state`), so it differs from the
//! real one in everything the seat cannot see: other hands, face-down cards, the order of
//! hidden piles. The channels compared:
//!
//! - the board: the view and its rendering;
//! - whether the seat is asked: who decides, before and after the seat's own action;
//! - the prompt: the legal actions, in order, as text;
//! - refusals: the reason given for typed moves that are not legal;
//! - agents: the choice of the random, greedy and ismcts agents;
//! - the echo: two actions of another seat that leave the seat the same view are
//!   announced to it with the same text (another seat's secret choice in an `all` step
//!   leaves the same view whatever it was, so it is announced only as made).

mod common;

use common::repo_path;
use muster::agents;
use muster::engine::{Action, Engine, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// Every shipped game and variant, with the player counts checked.
const GAMES: &[(&str, Option<&str>, &[u8])] = &[
    ("games/army_ants.muster", None, &[2]),
    ("games/army_ants.muster", Some("minor_deployment"), &[2]),
    ("games/army_ants.muster", Some("total_deployment"), &[2]),
    ("games/battalion_chips.muster", None, &[3, 5]),
    ("games/battaglione.muster", None, &[2, 3]),
    ("games/battaglione.muster", Some("super_captain"), &[2]),
    ("games/battalion_emperor.muster", None, &[2, 3]),
    ("games/battle_line.muster", None, &[2]),
    ("games/breakthrough.muster", None, &[2]),
    ("games/chess.muster", None, &[2]),
    ("games/connect_four.muster", None, &[2]),
    ("games/homeward.muster", None, &[2, 4]),
    ("games/homeward.muster", Some("one_throw"), &[3]),
    ("games/oh_hell.muster", None, &[3, 5]),
    // Secret bids (`all of bid`): every other position has a bid chosen and not revealed.
    ("games/goofspiel.muster", None, &[2, 3]),
    ("games/hex.muster", None, &[2]),
    ("games/hex.muster", Some("small"), &[2]),
];

fn engine(file: &str, variant: Option<&str>) -> Engine {
    let compiled = muster::check::compile_file(&repo_path(file), variant)
        .unwrap_or_else(|_| panic!("{file} {variant:?} compiles"));
    Engine::new(compiled.game)
}

fn texts(e: &Engine, s: &State) -> Vec<String> {
    e.legal_actions(s)
        .iter()
        .map(|a| e.action_text(s, a))
        .collect()
}

/// Whether `a`, applied to `s`, lets `seat` identify a component it could not before.
fn reveals(e: &Engine, before: &State, after: &State, seat: u8) -> bool {
    (0..e.game.components.len() as u16)
        .any(|c| e.visible_to(after, c, Some(seat)) && !e.visible_to(before, c, Some(seat)))
}

fn applied(e: &Engine, s: &State, a: &Action) -> State {
    let mut t = s.clone();
    e.apply(&mut t, a).expect("a listed action applies");
    t
}

/// An action with the components it names left out: its name and its other arguments.
fn shape(a: &Action) -> String {
    use muster::ir::Value;
    let arg = |v: &Value| match v {
        Value::Comp(_) => "comp".to_string(),
        Value::List(items) if items.iter().all(|i| matches!(i, Value::Comp(_))) => {
            format!("{} comps", items.len())
        }
        other => format!("{other:?}"),
    };
    let args: Vec<String> = a.args.iter().map(arg).collect();
    format!("{} {}", a.action, args.join(" "))
}

/// The refusal a person typing `text` would see.
fn refusal(e: &Engine, s: &State, text: &str) -> String {
    match e.parse_action(s, text) {
        Ok(a) if e.legal_actions(s).contains(&a) => "legal".into(),
        Ok(a) => e.why_illegal(s, &a).unwrap_or_else(|| "not legal".into()),
        Err(m) => m,
    }
}

/// Checks one seat's channels on a position and a state drawn from its view.
fn check_seat(e: &Arc<Engine>, s: &State, seat: u8, rng: &mut ChaCha8Rng, what: &str) {
    let view = e.view(s, seat);
    let t = e.sample_state(&view, rng);
    let what = format!("{what}, seen by {}", e.game.seats[seat as usize].name);
    assert_eq!(e.view(&t, seat), view, "{what}: the view");
    assert_eq!(
        muster::cli::render_view(e, &e.view(&t, seat)),
        muster::cli::render_view(e, &view),
        "{what}: the board"
    );
    assert_eq!(e.decider(&t), e.decider(s), "{what}: who is asked");
    let Some(decider) = e.decider(s) else {
        return;
    };
    let legal_s = e.legal_actions(s);
    let legal_t = e.legal_actions(&t);
    if decider == seat {
        let ts = texts(e, s);
        assert_eq!(texts(e, &t), ts, "{what}: the legal actions");
        // Refusals: each legal text with its last word replaced by another word a person
        // might type (a component's label, a cell), and each action's bare name.
        let mut words: Vec<String> = (0..e.game.components.len() as u16)
            .map(|c| e.notation_for(c, s.owners[c as usize]))
            .collect();
        words.extend(e.game.board.cells.iter().take(8).map(|c| c.name.clone()));
        words.sort();
        words.dedup();
        for (i, text) in ts.iter().enumerate().step_by(7).take(6) {
            let stem = text.rsplit_once(' ').map_or(text.as_str(), |(a, _)| a);
            for w in words.iter().skip(i % 5).step_by(5).take(6) {
                let typed = format!("{stem} {w}");
                assert_eq!(
                    refusal(e, &t, &typed),
                    refusal(e, s, &typed),
                    "{what}: the answer to `{typed}`"
                );
            }
        }
        for a in &e.game.actions {
            assert_eq!(refusal(e, &t, &a.name), refusal(e, s, &a.name), "{what}");
        }
        // Agents decide from the view and the legal actions alone.
        for name in ["random", "greedy", "ismcts:12"] {
            let mut a1 = agents::by_name(name, e, 5).expect("agent");
            let mut a2 = agents::by_name(name, e, 5).expect("agent");
            let c1 = a1.choose(&view, &legal_s);
            let c2 = a2.choose(&e.view(&t, seat), &legal_t);
            assert_eq!(
                e.action_text(&t, &legal_t[c2]),
                e.action_text(s, &legal_s[c1]),
                "{what}: the {name} agent's choice"
            );
        }
        // Whether anyone is asked next does not depend on what the seat cannot see,
        // unless its own action shows it something.
        for (a, b) in legal_s.iter().zip(&legal_t).take(100) {
            let (sa, tb) = (applied(e, s, a), applied(e, &t, b));
            // A state drawn from a view need not be one that play can reach (Total
            // Deployment: a Queen drawn beside a hidden 9 leaves its seat stuck), so only
            // a game that goes on in both is compared.
            let both_go_on = e.decider(&sa).is_some() && e.decider(&tb).is_some();
            // A seat with no legal action at all passes by the `on stuck` rule, which tells
            // the others it could do nothing, as a forced pass does at the table; what is
            // compared is whether a reaction is offered.
            let reaction = !sa.reactions.is_empty() || !tb.reactions.is_empty();
            if both_go_on && reaction && !reveals(e, s, &sa, seat) && !reveals(e, &t, &tb, seat) {
                assert_eq!(
                    e.decider(&tb),
                    e.decider(&sa),
                    "{what}: who is asked after `{}`",
                    e.action_text(s, a)
                );
            }
        }
    } else {
        // The echo: another seat's action is announced to this one from what this one
        // can see. Two actions that leave this seat the same view must be announced
        // with the same text (a card laid face down is `??`, whichever it was).
        // Only actions that differ in which components they name are compared: the cells,
        // numbers and seats an action names are for everyone to see.
        let outcomes: Vec<(String, muster::engine::View, String)> = legal_s
            .iter()
            .take(80)
            .map(|a| {
                let after = applied(e, s, a);
                (
                    shape(a),
                    e.view(&after, seat),
                    e.announce(s, &after, a, decider, Some(seat))
                        .lines("", &|q| q.to_string())
                        .join("\n"),
                )
            })
            .collect();
        for (i, (k1, v1, t1)) in outcomes.iter().enumerate() {
            for (k2, v2, t2) in &outcomes[i + 1..] {
                if k1 == k2 && v1 == v2 {
                    assert_eq!(
                        t1, t2,
                        "{what}: two moves it cannot tell apart, announced differently"
                    );
                }
            }
        }
    }
}

#[test]
fn every_seat_is_shown_the_same_in_states_it_cannot_tell_apart() {
    let mut checked = 0;
    for &(file, variant, counts) in GAMES {
        let e = Arc::new(engine(file, variant));
        for &players in counts {
            for seed in 0..2u64 {
                let mut rng = ChaCha8Rng::seed_from_u64(seed * 31 + players as u64);
                let mut s = e.start(players, seed).expect("start");
                let mut n = 0u32;
                while let Some(decider) = e.decider(&s) {
                    // Look closely at a spread of positions: every early one, then one in
                    // nine (the deployments and first turns hold the most hidden cards).
                    if n < 24 || n.is_multiple_of(9) {
                        let what = format!("{file} {variant:?} {players}p seed {seed} action {n}");
                        for seat in 0..players {
                            check_seat(&e, &s, seat, &mut rng, &what);
                        }
                        checked += 1;
                    }
                    if n >= 140 {
                        break;
                    }
                    let legal = e.legal_actions(&s);
                    let _ = decider;
                    let a = &legal[rng.gen_range(0..legal.len())];
                    e.apply(&mut s, a).expect("a listed action applies");
                    n += 1;
                }
            }
        }
    }
    assert!(checked > 300, "only {checked} positions checked");
}
