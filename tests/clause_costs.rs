//! What each clause costs in listing (`Engine::counting_clauses`, `muster bench
//! --by-clause`): over seeded playouts of every shipped game, the counting engine lists
//! the same actions with the same steps as the plain one, and its clauses' own steps add
//! up to the steps of the listing, each step counted once: exactly, but for what belongs
//! to no clause (a step's `if` condition or `by`, the step a `skip` or `done` is charged).

mod common;

use muster::engine::{take_clause_costs, Action, ClauseCost, Engine, SKIP_ACTION};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plays one seeded playout of at most `cap` decisions with both engines; returns how
/// many decisions were compared and the clause costs counted.
fn compare(name: &str, seed: u64, cap: usize) -> usize {
    let plain =
        Engine::new(common::compile_file_or_panic(&format!("games/{name}.muster"), None).game);
    let counting = plain.counting_clauses();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut s = plain
        .start(plain.game.min_players, seed)
        .expect("the game starts");
    // Whether the turn's steps take steps of their own in a listing (an `if`, a `by`, a
    // reaction's `by`).
    let plain_turns = (plain.game.phases.iter())
        .flat_map(|p| &p.steps)
        .all(|st| st.condition.is_none() && st.by.is_none())
        && plain.game.reactions.is_empty();

    let mut decisions = 0;
    take_clause_costs();
    for _ in 0..cap {
        if plain.decider(&s).is_none() {
            break;
        }
        let (legal, work) = plain.legal_actions_and_work(&s);
        let (counted_legal, counted_work) = counting.legal_actions_and_work(&s);
        assert_eq!(
            legal, counted_legal,
            "{name}: the counting engine lists other actions"
        );
        assert_eq!(
            work, counted_work,
            "{name}: the counting engine charges other steps"
        );
        let costs = take_clause_costs();
        let own: u64 = costs.iter().map(|c| c.steps).sum();
        let passes = legal.iter().filter(|a| a.action >= SKIP_ACTION).count() as u64;
        let place = format!("{name} seed {seed} decision {decisions}");
        assert!(own + passes <= work, "{place}: a step counted twice");
        if plain_turns {
            assert_eq!(
                own + passes,
                work,
                "{place}: a step of a clause not counted"
            );
        }
        for c in &costs {
            let clauses = plain.game.actions[c.action as usize].clauses.len();
            assert!((c.clause as usize) < clauses && c.runs > 0, "{name}: {c:?}");
        }
        decisions += 1;
        if legal.is_empty() {
            break;
        }
        let act = &legal[rng.gen_range(0..legal.len())];
        plain
            .apply_listed(&mut s, act)
            .expect("a listed action applies");
    }
    decisions
}

#[test]
fn the_clauses_own_steps_add_up_to_the_listings() {
    let mut decisions = 0;
    for name in common::shipped_games() {
        decisions += compare(&name, 1, 150);
    }
    assert!(decisions > 1000, "only {decisions} decisions compared");
}

/// In a listing, each clause's own steps are what it judges itself: the `require` of
/// Battle Line's `end_turn` that asks whether the king is attacked costs far more per run
/// than the `do` after it, which only lists the action.
/// The first listing of a shipped game, two players, seed 1, counted by clause: the
/// engine, the actions listed, the listing's steps and the clauses' costs.
struct FirstListing {
    engine: Engine,
    legal: Vec<Action>,
    work: u64,
    costs: Vec<ClauseCost>,
}

impl FirstListing {
    fn of(name: &str) -> FirstListing {
        let engine =
            Engine::new(common::compile_file_or_panic(&format!("games/{name}.muster"), None).game);
        let s = engine.start(2, 1).expect("the game starts");
        take_clause_costs();
        let (legal, work) = engine.counting_clauses().legal_actions_and_work(&s);
        let costs = take_clause_costs();
        FirstListing {
            engine,
            legal,
            work,
            costs,
        }
    }

    /// What clause `clause` of `action` cost.
    fn cost(&self, action: &str, clause: u16) -> ClauseCost {
        let a = (self.engine.game.actions.iter())
            .position(|a| a.name == action)
            .unwrap_or_else(|| panic!("no action {action}")) as u16;
        (self.costs.iter())
            .find(|c| c.action == a && c.clause == clause)
            .copied()
            .unwrap_or_else(|| panic!("clause {clause} of {action} did not run: {:?}", self.costs))
    }
}

#[test]
fn a_costly_condition_is_told_from_a_cheap_step() {
    let first = FirstListing::of("battle_line");
    let (plain, legal) = (&first.engine, &first.legal);
    let of = |action: &str, clause: u16| first.cost(action, clause);
    // Clause 0 finds the king; clause 1 asks whether it is attacked; clause 3 is the `do`.
    let (attacked, done) = (of("end_turn", 1), of("end_turn", 3));
    assert_eq!((attacked.runs, done.runs), (1, 1));
    // Listing the one action, which has no arguments: one step.
    assert_eq!(done.steps, 1);
    assert!(attacked.steps > 100, "{attacked:?}");
    // A `require` straight after its `choose`, judged in the choice's loop, is counted as
    // itself: once per leader tried, 7 steps each (the comparison, `distance` and its two
    // locals, the read of the leader's reach), and each activation listed passed it.
    let reach = of("activate", 5);
    let listed = legal
        .iter()
        .filter(|a| plain.game.actions[a.action as usize].name == "activate");
    assert!(reach.runs >= listed.count() as u64, "{reach:?}");
    assert_eq!(reach.steps, 7 * reach.runs, "{reach:?}");
}

/// A `require afterwards` is judged at the `do`, on a copy of the state the `do`'s effects
/// ran on: the judging counts as the `require`, the effects as the `do`. At the start of
/// chess, each of the 20 moves is tried once, and no king is in check after any.
#[test]
fn a_require_afterwards_counts_its_own_judging() {
    let first = FirstListing::of("chess");
    let (legal, work, costs) = (&first.legal, first.work, &first.costs);
    assert_eq!(legal.len(), 20);
    let (done, judged) = (first.cost("go", 5), first.cost("go", 6));
    assert_eq!((done.runs, judged.runs), (20, 20));
    // Judging whether the king is attacked costs more than making the move on the copy.
    assert!(
        judged.steps > done.steps && done.steps > 20,
        "{done:?} {judged:?}"
    );
    assert_eq!(costs.iter().map(|c| c.steps).sum::<u64>(), work);
}
