//! The compiled plans against the tree walk they replace (see `src/engine/plan.rs`): over
//! seeded random playouts of every shipped game and variant, at every decision, the two
//! list the same legal actions in the same order, and agree on whether there is any; and
//! the same action played by both (its effects and the end rules' conditions are compiled
//! too) leaves the same state, charging the same steps.

mod common;

use muster::engine::{Action, Engine, Listed};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::cell::Cell;

thread_local! {
    /// Decisions whose actions were listed ahead (`Engine::apply_and_list`) and compared.
    static AHEAD: Cell<usize> = const { Cell::new(0) };
    /// Move patterns walked along their rays worked out beforehand, by the plans' engines.
    static RAYS: Cell<usize> = const { Cell::new(0) };
}

/// Random playouts per game and variant; the player counts take turns.
const PLAYOUTS: u64 = 2;

/// Plays the seeded playouts of one game and variant (at most `cap` actions each) with the
/// plans, comparing each decision's list with the tree walk's; returns how many actions
/// of the game have a plan and how many decisions were compared.
fn compare(name: &str, variant: Option<&str>, cap: usize) -> (usize, usize) {
    let planned =
        Engine::new(common::compile_file_or_panic(&format!("games/{name}.muster"), variant).game);
    // Every game sets up and has an action that does something: they run compiled.
    assert!(
        planned.planned_bodies() >= 2,
        "{name} {variant:?}: its effects are not compiled"
    );
    // What moves play on (a step's `by`, a phase's `until`, the `score`...) is found
    // compiled where the engine looks for it, in the game it holds.
    let (found, all) = planned.planned_turn_parts();
    assert_eq!(
        found, all,
        "{name} {variant:?}: a part that moves play on is not found compiled"
    );
    compare_engines(name, variant, planned, cap)
}

/// `compare` for an engine already built.
fn compare_engines(
    name: &str,
    variant: Option<&str>,
    planned: Engine,
    cap: usize,
) -> (usize, usize) {
    let walked = planned.tree_walking();
    assert_eq!(walked.planned_actions(), 0);
    assert_eq!(walked.planned_bodies(), 0);
    // The tree walk walks move patterns cell by cell.
    assert_eq!(walked.patterns_with_rays(), 0);
    RAYS.set(RAYS.get() + planned.patterns_with_rays());
    // Every action has a plan, those with parts remembered within a query included.
    assert_eq!(
        planned.planned_actions(),
        planned.game.actions.len(),
        "{name} {variant:?}: an action has no plan"
    );
    let counts = planned.game.max_players - planned.game.min_players + 1;
    let mut decisions = 0;
    for seed in 0..PLAYOUTS {
        let players = planned.game.min_players + (seed % u64::from(counts)) as u8;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut s = planned.start(players, seed).expect("the game starts");
        // Where the playout stops, each seat's score is the same either way.
        let scores = |s: &muster::engine::State| {
            let of = |e: &Engine| (0..players).map(|p| e.score(s, p)).collect::<Vec<_>>();
            assert_eq!(
                of(&planned),
                of(&walked),
                "{name} {variant:?} {players}p seed {seed}: the scores differ"
            );
        };
        // The actions listed ahead as the last action was applied, if they were.
        let mut ahead: Option<Vec<Action>> = None;
        for _ in 0..cap {
            if planned.decider(&s).is_none() {
                break;
            }
            let (legal, work) = planned.legal_actions_and_work(&s);
            if let Some(ahead) = ahead.take() {
                assert_eq!(
                    ahead, legal,
                    "{name} {variant:?} {players}p seed {seed}: the actions listed ahead differ"
                );
                AHEAD.set(AHEAD.get() + 1);
            }
            let (walked_legal, walked_work) = walked.legal_actions_and_work(&s);
            assert_eq!(
                legal, walked_legal,
                "{name} {variant:?} {players}p seed {seed}: the plans and the tree walk differ"
            );
            // The same steps charged to the decision's budget: a rules file near a limit
            // stops at the same point either way.
            assert_eq!(
                work, walked_work,
                "{name} {variant:?} {players}p seed {seed}: the plans charge {work} steps, \
                 the tree walk {walked_work}"
            );
            // Stopped at the first action, at the same cost.
            assert_eq!(
                planned.has_legal_action_and_work(&s),
                walked.has_legal_action_and_work(&s),
                "{name} {variant:?} {players}p seed {seed}: whether there is an action"
            );
            decisions += 1;
            if legal.is_empty() {
                break;
            }
            let pick = rng.gen_range(0..legal.len());
            let (mut t, mut u) = (s.clone(), s.clone());
            let (done, work) = planned.apply_listed_and_work(&mut s, &legal[pick]);
            // Applied with the next listing asked for: the same result, state and steps.
            let mut next = Listed::new();
            let (listed, listing_work) =
                planned.apply_and_list_and_work(&mut u, &legal[pick], &mut next);
            assert_eq!(
                (done.clone().map_err(|e| e.to_string()), work),
                (
                    listed.clone().map(|_| ()).map_err(|e| e.to_string()),
                    listing_work
                ),
                "{name} {variant:?} {players}p seed {seed}: applying and listing ahead differs"
            );
            assert!(
                s == u,
                "{name} {variant:?} {players}p seed {seed}: listing ahead changed the state"
            );
            if listed == Ok(true) {
                ahead = Some(next.to_vec());
            }
            // As playouts ask for it (the steps not counted exactly): the same again.
            let (mut v, mut quick) = (t.clone(), Listed::new());
            let fast = planned.apply_and_list(&mut v, &legal[pick], &mut quick);
            assert!(
                fast == listed && v == u && (fast != Ok(true) || *quick == *next),
                "{name} {variant:?} {players}p seed {seed}: listing ahead in a playout differs"
            );
            let (walked_done, walked_work) = walked.apply_listed_and_work(&mut t, &legal[pick]);
            // A rules error (some construct files make one on purpose) is the same error.
            assert_eq!(
                done.as_ref().map_err(ToString::to_string),
                walked_done.as_ref().map_err(ToString::to_string),
                "{name} {variant:?} {players}p seed {seed}: applying ends differently"
            );
            if done.is_err() {
                break;
            }
            assert!(
                s == t,
                "{name} {variant:?} {players}p seed {seed}: states differ"
            );
            // The index of occupied cells follows every move, swap and shift.
            assert!(
                s.index_agrees(),
                "{name} {variant:?} {players}p seed {seed}: the occupancy index is stale"
            );
            // The compiled effects charge the budget as the statements do.
            assert_eq!(
                work, walked_work,
                "{name} {variant:?} {players}p seed {seed}: applying took {work} steps \
                 compiled, {walked_work} by the statements"
            );
        }
        scores(&s);
    }
    (planned.planned_actions(), decisions)
}

#[test]
fn plans_list_what_the_tree_walk_lists() {
    let (mut planned, mut decisions) = (0, 0);
    for (name, variant) in common::shipped_games_and_variants() {
        let cap = if name == "battle_line" { 60 } else { 300 };
        let (p, d) = compare(&name, variant.as_deref(), cap);
        planned += p;
        decisions += d;
    }
    let (ahead, rays) = (AHEAD.get(), RAYS.get());
    println!(
        "{planned} planned actions, {decisions} decisions compared, {ahead} listed ahead, \
         {rays} patterns walked along their rays"
    );
    // Chess's pieces and its lookout, Breakthrough's and most of Battle Line's pieces walk
    // the rays worked out beforehand; the tree walk walks them cell by cell.
    assert!(rays > 10, "only {rays} patterns walked along their rays");
    // Most decisions come after an action whose applying listed them.
    assert!(
        ahead > decisions / 2,
        "only {ahead} of {decisions} listed ahead"
    );
    // The comparison means something only if plans were used, on many decisions.
    assert!(planned > 40, "only {planned} actions have a plan");
    assert!(decisions > 2_000, "only {decisions} decisions compared");
}

// The small rules files of the language's constructs (`tests/constructs/`), and those of
// the other tests: each of them, with each variant it declares, listed and played both ways
// alike, their effects too (attributes changed in play, secret choices, triggers, `require
// afterwards`, remembered parts).
#[test]
fn plans_play_the_constructs_as_the_tree_walk_does() {
    let files = common::construct_files();
    let mut decisions = 0;
    for file in &files {
        let text = std::fs::read_to_string(common::repo_path(file)).unwrap();
        let variants = text.lines().filter_map(|l| {
            l.strip_prefix("variant ")
                .and_then(|r| r.split_whitespace().next())
        });
        for variant in std::iter::once(None).chain(variants.map(Some)) {
            let game = common::compile_file_or_panic(file, variant).game;
            let (_, d) = compare_engines(file, variant, Engine::new(game), 200);
            decisions += d;
        }
    }
    println!("{} files, {decisions} decisions compared", files.len());
    assert!(files.len() >= 17, "only {} rules files", files.len());
    assert!(decisions > 1_000, "only {decisions} decisions compared");
}

// Parts of a loop's body the same for every item, computed once a walk of the loop
// (`engine/once.rs`): made where the rules have them (a cell's neighbours searched, and
// counted, in a condition judged for each item), and nowhere else; the constructs file
// and the games that have them are played both ways alike (above).
#[test]
fn parts_the_same_for_every_item_are_made_once_a_walk() {
    let parts = |file: &str| {
        let game = common::compile_file_or_panic(file, None).game;
        Engine::new(game).loop_parts()
    };
    assert_eq!(parts("tests/constructs/loop_parts.muster"), 3);
    assert_eq!(parts("games/battalion_emperor.muster"), 1);
    assert_eq!(parts("tests/constructs/remembered.muster"), 0);
    assert_eq!(parts("games/army_ants.muster"), 0);
}

// The items of a collection whose key is the greatest or the least, written as a
// comprehension comparing each item's key with the `max` or `min` of the same key over
// the same collection (`engine/best.rs`): each key computed once where the rules have
// that form, either way round; left as written where the aggregate is over another
// collection, of another key, or reads the item. The constructs file and the games that
// have them are played both ways alike (above).
#[test]
fn best_items_are_found_with_each_key_computed_once() {
    let bests = |file: &str, text: Option<&str>| {
        let game = match text {
            // Rules given as text import from the current folder, the repository's.
            Some(text) => {
                let text = text.replace("../../games/lib/", "games/lib/");
                common::compile_source_or_panic(file, &text).game
            }
            None => common::compile_file_or_panic(file, None).game,
        };
        Engine::new(game).bests()
    };
    let file = "tests/constructs/best_items.muster";
    // `top_seats` where `settle` names it three times and `hail` once, `low_seats` twice
    // (`min`, the aggregate first), and the strongest seat.
    assert_eq!(bests(file, None), 7);
    // Oh Hell's trick winner, and the winners with the most points.
    assert_eq!(bests("games/oh_hell.muster", None), 2);
    assert_eq!(bests("games/battalion_chips.muster", None), 1);
    assert_eq!(bests("games/army_ants.muster", None), 0);
    let text = std::fs::read_to_string(file).unwrap();
    let strongest = "def strongest_seat = first([p in seats where power(top(pile(p))) == max q in seats: power(top(pile(q)))])";
    assert!(text.contains(strongest));
    // Not the same key, not the same collection, or a best that reads the item: as written.
    for other in [
        "max q in seats: power(top(hand(q)))",
        "max q in [s in seats where s != P1]: power(top(pile(q)))",
        "max q in seats: power(top(pile(q))) + size(pile(p))",
    ] {
        let changed = text.replace("max q in seats: power(top(pile(q)))", other);
        assert_eq!(bests(file, Some(&changed)), 6, "{other}");
    }
}

// A best computed with each key once gives what the comprehension as written gives: the
// constructs file played at random beside a copy whose aggregates add 0 to the key (a
// key of another form, so left as written), the same actions listed and the same state
// after each action.
#[test]
fn best_items_play_as_the_comprehensions_written() {
    let file = "tests/constructs/best_items.muster";
    let text = std::fs::read_to_string(file)
        .unwrap()
        .replace("../../games/lib/", "games/lib/");
    let mut written = text.clone();
    for key in ["top(pile(q)).rank", "power(top(pile(q)))"] {
        written = written.replace(
            &format!("q in seats: {key}"),
            &format!("q in seats: {key} + 0"),
        );
    }
    let engine = |text: &str| Engine::new(common::compile_source_or_panic(file, text).game);
    let (best, as_written) = (engine(&text), engine(&written));
    assert_eq!((best.bests(), as_written.bests()), (7, 0));
    for seed in 0..40 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (mut a, mut b) = (
            best.start(3, seed).unwrap(),
            as_written.start(3, seed).unwrap(),
        );
        for _ in 0..20 {
            let legal = best.legal_actions(&a);
            assert_eq!(legal, as_written.legal_actions(&b), "seed {seed}");
            if legal.is_empty() || best.decider(&a).is_none() {
                break;
            }
            let act = &legal[rng.gen_range(0..legal.len())];
            best.apply(&mut a, act).unwrap();
            as_written.apply(&mut b, act).unwrap();
            assert_eq!(a, b, "seed {seed}");
        }
    }
}

// Joins (`a + b`) of computed lists, runs and zones, walked by a `choose`, stopped early
// by `any`, counted by `size`: plans and the tree walk list the same actions.
#[test]
fn plans_walk_joins_as_the_tree_walk_does() {
    let rules = r#"game "Joins" { players 2 }
       board grid 5 x 5
       kind Man { label "M{owner}" }
       deck men of Man { for i in 1..12 { card { } } }
       zone box shared public { holds men }
       zone hand per seat public
       setup { for p in seats { for i in 1..6 { move first(box) to hand(p) } } }
       phase p { turn { one of drop, walk } }
       action drop {
         choose c in hand(me)
         choose dest in [x in cells where x.empty and rank(x) <= 2] + adjacent(cell(3, 3), around)
         require dest.empty
         let near = adjacent(dest, around)
         let held = hand(me)
         require any y in near + [dest]: y.empty
         require any y in [dest] + near: y != dest and y.empty or rank(dest) > 3
         require size(held + [c]) > 1 or dest == cell(1, 1)
         let both = near + [dest] + near
         require size(both) == 2 * size(near) + 1 and dest in both
         do { move c to dest }
       }
       action walk {
         choose from in cells_of(me)
         choose dest in slide(from, orthogonal) + [x in adjacent(from, diagonal) where x.empty]
         do { move from.piece to dest }
       }"#;
    let game = common::compile_source_or_panic("joins.muster", rules).game;
    let (planned, decisions) = compare_engines("joins", None, Engine::new(game), 40);
    println!("joins: {decisions} decisions compared");
    assert_eq!(planned, 2);
    assert!(decisions > 30, "only {decisions} decisions compared");
}

/// Rules whose listing goes over a limit of the decision's budget, each in a clause a
/// plan compiles: a quantifier in a `require`, a walk in a `choose`, a `let`, and a part
/// remembered within the query (`memo`) that a plan hands to the evaluator, the
/// directions and shifts of a run taken as one step (`dirs_then_shifts`), the run chosen
/// with them in one loop (`runs_dirs_shifts`), and a short
/// read looked for in a list written in the rules (`reads::in_list`).
/// Each with the clause its error names.
/// A game on a board full of stones (every run blocked but at the board's edge), its one
/// action `go` still to write: the runaway rules of runs and their shifts.
macro_rules! stones {
    () => {
        r#"game "Marches" { players 2 }
       board grid 26 x 51 { region everywhere = a1..z51  region most = a1..z40 }
       kind Stone { label "S" }
       deck stones of Stone { 1326 x card { } }
       zone box shared public { holds stones }
       setup { place box onto everywhere }
       phase p { turn { one of go } }"#
    };
}

const RUNAWAY: [(&str, &str); 6] = [
    (
        r#"game "Quant" { players 2 }
       board grid 26 x 52
       phase p { turn { one of go } }
       action go {
         require all a in cells: all b in cells: all c in cells: a == b or a != b or c == c
         do { end turn }
       }"#,
        "`require all a in cells: all b in cells: all c in cells: ((a == b) or (a != b)) or (c == c)`",
    ),
    (
        r#"game "Pairs" { players 2 }
       board grid 26 x 52
       phase p { turn { one of go } }
       action go {
         choose a in cells
         choose b in [c in cells where c != a]
         choose k in [1, 2, 3, 4, 5, 6, 7, 8]
         do { end turn }
       }"#,
        "`choose k`",
    ),
    (
        r#"game "Counts" { players 2 }
       board grid 26 x 52
       phase p { turn { one of go } }
       action go {
         choose a in cells
         let n = sum b in cells: count c in cells: b != a
         require n > 0
         do { end turn }
       }"#,
        "a `let`",
    ),
    (
        r#"game "Remembered" { players 2 }
       board grid 26 x 52
       phase p { turn { one of go } }
       action go {
         choose a in cells
         require (sum b in cells: sum c in cells: count d in cells: b != c) > 0
         do { end turn }
       }"#,
        "`require sum b in cells: sum c in cells: count d in cells: b != c > 0`",
    ),
    // A board full of stones: every run is blocked but at the board's edge, and the
    // budget runs out while the shifts of one are looked at (the runs remembered: a
    // number is chosen first). The runs chosen first, in one loop with the directions and
    // shifts, are `the_loop_of_runs_runs_out_where_the_tree_walk_does`'.
    (
        concat!(
            stones!(),
            r#"
       action go {
         choose k in 1..30
         choose run in runs(cells, orthogonal)
         choose dir in orthogonal
         choose steps in shifts(run, dir)
         do { end turn }
       }"#
        ),
        "`choose steps`",
    ),
    (
        r#"game "Ranks" { players 2 }
       board grid 26 x 52
       phase p { turn { one of go } }
       action go {
         choose a in cells
         require all b in cells: all c in cells: rank(c) not in [100, 200] or a == b
         do { end turn }
       }"#,
        "`require all b in cells: all c in cells: (rank(c) not in [100, 200]) or (a == b)`",
    ),
];

/// The rules error a runaway rule stops with, the same whichever lists its actions (the
/// plans or the tree walk): in setting up (which looks for a legal action already), else
/// in the first listing.
fn runaway_error(rules: &str) -> String {
    let game = muster::check::compile_source("runaway.muster", rules, None)
        .expect("the rules check")
        .game;
    let planned = Engine::new(game);
    assert!(planned.planned_actions() > 0);
    let walked = planned.tree_walking();
    let first_error = |e: &Engine| match e.start(2, 1) {
        Err(err) => err.to_string(),
        Ok(s) => match e.try_legal_actions(&s) {
            Err(err) => err.to_string(),
            Ok(_) => panic!("no rules error:\n{rules}"),
        },
    };
    let (p, w) = (first_error(&planned), first_error(&walked));
    assert_eq!(p, w, "{rules}");
    p
}

// A runaway rule stops with the same rules error, naming the same clause, whichever
// lists the actions.
#[test]
fn plans_stop_runaway_rules_as_the_tree_walk_does() {
    for (rules, clause) in RUNAWAY {
        let p = runaway_error(rules);
        assert!(p.contains(&format!("in {clause} of action `go`")), "{p}");
    }
}

// The loop of runs, directions and shifts (`runs_dirs_shifts`: the run chosen first, so
// that its walk is not remembered) charges a run's step, then for each direction its own
// step and the `shifts` node's three at once. A `require` leaves the loop too few steps
// to finish, and a `let` of a constant before the loop is one step more: the budget run
// out at each point of that cycle names the clause the tree walk names, whichever lists
// the actions.
#[test]
fn the_loop_of_runs_runs_out_where_the_tree_walk_does() {
    let mut named = std::collections::BTreeSet::new();
    for k in 0..6 {
        let lets: String = (0..k).map(|i| format!("let z{i} = 0\n")).collect();
        let rules = format!(
            "{}{}{lets}{}",
            stones!(),
            r#"
       action go {
         require (sum b in cells: count c in cells: b != c)
           + (sum b in cells: count c in cells: b != c)
           + (sum b in cells: count c in most: b != c) > 0
"#,
            r#"
         choose run in runs(cells, orthogonal)
         choose dir in orthogonal
         choose steps in shifts(run, dir)
         do { end turn }
       }"#
        );
        let p = runaway_error(&rules);
        // With no `let`, the directions' clause (as the runaway rules before this test
        // had it).
        if k == 0 {
            assert!(p.contains("in `choose dir` of action `go`"), "{p}");
        }
        for clause in ["`choose run`", "`choose dir`", "`choose steps`"] {
            if p.contains(&format!("in {clause} of action `go`")) {
                named.insert(clause);
            }
        }
    }
    // Over six steps, the budget runs out in a run's step, a direction's and the shifts'.
    assert_eq!(named.len(), 3, "{named:?}");
}

// A `let` of the cells along lines from a chosen cell that the action only searches
// (`dest not in straight`) is never made (`plan/line_lets.rs`): searched as a set of cells
// judged at once (`go`) and as a condition through `and`, `or` and `not` (`look`), each
// listed as the tree walk lists it. One read another way (`keep`, which chooses from it)
// is made as before; so is one on a board of more than 64 cells.
#[test]
fn plans_search_a_list_they_never_make_as_the_tree_walk_does() {
    let rules = |size: &str| {
        format!(
            r#"game "Lines" {{ players 2 }}
       board grid {size}
       kind Man {{ label "M{{owner}}" }}
       deck men of Man {{ for i in 1..16 {{ card {{ }} }} }}
       zone box shared public {{ holds men }}
       zone hand per seat public
       setup {{ for p in seats {{ for i in 1..5 {{ move first(box) to hand(p) }} }} }}
       phase p {{ turn {{ one of drop, go, look, keep }} }}
       action drop {{
         choose c in hand(me)
         choose dest in cells
         require dest.empty
         do {{ move c to dest }}
       }}
       action go {{
         choose from in cells_of(me)
         let straight = slide(from, orthogonal)
         choose dest in reach(from, orthogonal)
         require dest not in straight
         do {{ move from.piece to dest }}
       }}
       action look {{
         choose from in cells_of(me)
         let seen = sight(from, around)
         choose t in cells
         let k = 1
         require t in seen and not (t in seen and k == 2) or t == from and k == 3
         do {{ end turn }}
       }}
       action keep {{
         choose from in cells_of(me)
         let s = slide(from, diagonal)
         choose dest in s
         require size(s) > 1
         do {{ move from.piece to dest }}
       }}"#
        )
    };
    // Army Ants' move out: the straight line it may not take is never made.
    let sizes = [("6 x 6", 2), ("9 x 9", 0)];
    compare_sizes(
        "lines",
        rules,
        sizes,
        Engine::lists_never_made,
        (60, 4, 50),
        1,
    );
}

// A `choose` of a cell's neighbour, or of the first occupied cell in sight of it, after
// the `choose` of the cell (and that choice's own `require`, if any), with the `require`
// after it, is judged a direction at a time for the whole board where the board is one
// word and each direction a shift of it (`plan/masks/pairs.rs`): the cell paired compared
// with the cell either way (`a < b`, `b > a`, `b != a`), the parts joined by `and`, `or`
// and `not`, a seat's pieces, emptiness and ranks, each listed and played as the tree
// walk lists and plays them, with the same steps charged (for the whole listing, and up
// to the first action). A condition that reads the cell otherwise (`distance`), or a
// board of more than 64 cells, is judged for each cell as before.
#[test]
fn plans_judge_pairs_of_neighbours_a_direction_at_a_time_as_the_tree_walk_does() {
    let rules = |size: &str| {
        format!(
            r#"game "Neighbours" {{ players 2 }}
       board grid {size}
       kind Man {{ label "M{{owner}}" }}
       deck men of Man {{ for i in 1..24 {{ card {{ }} }} }}
       zone box shared public {{ holds men }}
       zone hand per seat public
       zone taken shared public
       setup {{ for p in seats {{ for i in 1..8 {{ move first(box) to hand(p) }} }} }}
       phase p {{ turn {{ one of drop, swap, step, hit, near, shoot, look }} }}
       action drop {{
         choose c in hand(me)
         choose dest in cells
         require dest.empty and rank(dest) <= 3
         do {{ move c to dest }}
       }}
       action swap {{
         choose a in cells_of(me)
         choose b in adjacent(a, orthogonal)
         require b.piece.owner == me and a < b
         do {{ swap a b }}
       }}
       action step {{
         choose a in cells_of(me)
         choose b in adjacent(a, around)
         require b.empty and (rank(b) > 2 or not (b < a))
         do {{ move a.piece to b }}
       }}
       action hit {{
         choose a in cells_of(me)
         choose b in adjacent(a, diagonal)
         require b.piece.owner == next(me) or b != a and b.empty and a > b
         do {{
           if not b.empty {{ move b.piece to taken }}
           move a.piece to b
         }}
       }}
       action near {{
         choose a in cells_of(me)
         choose b in adjacent(a, orthogonal)
         require b.empty and distance(b, a) == 1
         do {{ move a.piece to b }}
       }}
       action shoot {{
         choose a in cells_of(me)
         require rank(a) > 1
         choose b in sight(a, orthogonal)
         require b.piece.owner != me and b > a or b.piece.owner == next(me) and rank(b) < 6
         do {{
           move b.piece to taken
           move a.piece to b
         }}
       }}
       action look {{
         choose a in cells_of(me)
         choose b in sight(a, diagonal)
         require b.piece.owner == me
         do {{ swap a b }}
       }}"#
        )
    };
    // Army Ants' swap and attack are two.
    let sizes = [("8 x 8", 5), ("9 x 9", 0)];
    compare_sizes(
        "neighbours",
        rules,
        sizes,
        Engine::pairs_by_direction,
        (120, 7, 100),
        2,
    );
}

// A choice of a seat's pieces straight followed by the choice of their destinations or
// attacks by a pattern written in the rules is one step, the mover and its rays found once
// a listing (`plan/own_moves.rs`): forward-bound, sliding and leaping patterns, the seat
// `me` or another, with a `require` after the moves or none, each listed and played as the
// tree walk lists and plays them, with the same steps charged. A pattern read from the
// piece, or the cells of every seat, are walked clause by clause as before; a board of more
// than 64 cells walks each cell's moves without words, in the same one step.
#[test]
fn plans_walk_a_seats_pieces_and_their_moves_as_one_step_as_the_tree_walk_does() {
    let rules = |size: &str| {
        format!(
            r#"game "Moves" {{ players 2 }}
       seat White {{ forward: n }}
       seat Black {{ forward: s }}
       pattern pawn = mfW | cfF
       pattern rook = R
       pattern knight = N
       kind Man {{
         moves: pattern
         label "M{{owner}}"
       }}
       deck men of Man {{
         for i in 1..6 {{ card {{ moves: pawn }} }}
         for i in 1..3 {{ card {{ moves: rook }} }}
         for i in 1..3 {{ card {{ moves: knight }} }}
       }}
       board grid {size} {{
         region home(White) = a1..f2
         region home(Black) = a7..f8
       }}
       zone box shared public {{ holds men }}
       zone hand per seat public
       zone taken shared public
       setup {{
         for p in seats {{
           for i in 1..6 {{ move first(box) to hand(p) }}
           place hand(p) onto home(p)
         }}
       }}
       phase p {{ turn {{ one of step, slide, jump, hunt, own, any }} }}
       action step {{
         choose from in cells_of(me)
         choose dest in destinations(from, pawn)
         do {{
           if not dest.empty {{ move dest.piece to taken }}
           move from.piece to dest
         }}
       }}
       action slide {{
         choose a in cells_of(me)
         choose b in destinations(a, rook)
         require b.empty and rank(b) != rank(a)
         do {{ move a.piece to b }}
       }}
       action jump {{
         choose a in cells_of(me)
         choose b in attacks(a, knight)
         require b.piece.owner == next(me)
         do {{
           move b.piece to taken
           move a.piece to b
         }}
       }}
       action hunt {{
         choose a in cells_of(next(me))
         choose b in attacks(a, knight)
         require b.piece.owner == me and file(a) < 3
         do {{ move b.piece to taken }}
       }}
       action own {{
         choose a in cells_of(me)
         choose b in destinations(a, a.piece.moves)
         require b.empty and file(b) > 4
         do {{ move a.piece to b }}
       }}
       action any {{
         choose a in occupied
         choose b in destinations(a, knight)
         require b.empty and a.piece.owner == me and rank(b) == 4
         do {{ move a.piece to b }}
       }}"#
        )
    };
    let sizes = [("8 x 8", 4), ("9 x 9", 4)];
    compare_sizes("moves", rules, sizes, Engine::own_moves, (120, 6, 100), 0);
}

/// Rules written for a board's size (`rules`), each size with what `count` gives its
/// engine: each compiled, counted, and listed and played both ways (`compare_engines`, at
/// most `cap` actions a playout), its `planned` actions each with a plan and more than
/// `least` decisions compared; then Army Ants, whose engine `count` gives `ants`.
fn compare_sizes(
    name: &str,
    rules: impl Fn(&str) -> String,
    sizes: [(&str, usize); 2],
    count: fn(&Engine) -> usize,
    (cap, planned, least): (usize, usize, usize),
    ants: usize,
) {
    for (size, counted) in sizes {
        let game = common::compile_source_or_panic(&format!("{name}.muster"), &rules(size));
        let engine = Engine::new(game.game);
        assert_eq!(count(&engine), counted, "{size}");
        let (with_plans, decisions) = compare_engines(name, None, engine, cap);
        println!("{name} {size}: {decisions} decisions compared");
        assert_eq!(with_plans, planned);
        assert!(decisions > least, "only {decisions} decisions compared");
    }
    let army_ants = common::compile_file_or_panic("games/army_ants.muster", None).game;
    assert_eq!(count(&Engine::new(army_ants)), ants);
}

// A list never made is charged as making it would be, and its searches as searching it:
// a budget run out in the `let`, or in the `require` that searches it as a condition,
// names the clause the tree walk names. (A search judged with its `choose` as a set is
// charged once the set is judged, after the choices that pass it have been handed on, as
// every condition judged as sets is: see docs/ARCHITECTURE.md.)
#[test]
fn a_list_never_made_runs_out_where_the_tree_walk_does() {
    let mut named = std::collections::BTreeSet::new();
    for k in 0..8 {
        let lets: String = (0..k).map(|i| format!("let z{i} = 0\n")).collect();
        let rules = format!(
            r#"game "Lines" {{ players 2 }}
       board grid 8 x 8
       phase p {{ turn {{ one of go }} }}
       action go {{
         choose a in cells
         choose b in cells
         choose c in cells
         choose d in cells
         {lets}
         let s = slide(d, orthogonal)
         require a in s and b not in s or c in s
         do {{ end turn }}
       }}"#
        );
        let game = muster::check::compile_source("lines.muster", &rules, None)
            .expect("the rules check")
            .game;
        assert_eq!(Engine::new(game).lists_never_made(), 1);
        let p = runaway_error(&rules);
        // The action's only `let` is the list's where there are no others.
        if k == 0 && p.contains("in a `let`") {
            named.insert("a `let`");
        }
        if p.contains("in `require") {
            named.insert("`require");
        }
    }
    assert_eq!(named.len(), 2, "{named:?}");
}

/// The slots bound in `e` (by quantifiers, aggregates and comprehensions).
fn slots_bound(e: &muster::ir::Expr, out: &mut Vec<u16>) {
    use muster::ir::Expr;
    if let Expr::Quant(_, s, ..) | Expr::Agg(_, s, ..) | Expr::Comprehension(s, ..) = e {
        out.push(*s);
    }
    e.each_child(&mut |c| slots_bound(c, out));
}

// Plans read an action's arguments from its choices' slots once the action is complete:
// no clause of any shipped action binds a chosen slot again (the slots of quantifiers in
// definitions expanded twice may repeat among themselves, never a choice's); and the
// choices stand side by side, in their order, whatever the clauses between them bind
// (`move_out`'s `let straight` in Army Ants, the definitions chess's `go` expands), so
// that the arguments are handed on where they stand.
#[test]
fn choices_stand_side_by_side_and_no_clause_binds_one_again() {
    use muster::ir::Clause;
    let mut actions = 0;
    for (name, variant) in common::shipped_games_and_variants() {
        let game =
            common::compile_file_or_panic(&format!("games/{name}.muster"), variant.as_deref()).game;
        for a in &game.actions {
            let (mut chosen, mut others) = (Vec::new(), Vec::new());
            for c in &a.clauses {
                match c {
                    Clause::Choose { slot, domain, .. } => {
                        chosen.push(*slot);
                        slots_bound(domain, &mut others);
                    }
                    Clause::Let { slot, value } => {
                        others.push(*slot);
                        slots_bound(value, &mut others);
                    }
                    Clause::Require { cond, .. } => slots_bound(cond, &mut others),
                    Clause::Do(_) => {}
                }
            }
            let twice: Vec<u16> = chosen
                .iter()
                .enumerate()
                .filter(|&(i, s)| others.contains(s) || chosen[..i].contains(s))
                .map(|(_, s)| *s)
                .collect();
            assert!(
                twice.is_empty(),
                "{name} {variant:?} action `{}` binds chosen slots {twice:?} again",
                a.name
            );
            let first = chosen.first().copied().unwrap_or(0);
            assert!(
                chosen
                    .iter()
                    .copied()
                    .eq(first..first + chosen.len() as u16),
                "{name} {variant:?} action `{}` has its choices in slots {chosen:?}",
                a.name
            );
            actions += 1;
        }
    }
    assert!(actions > 80, "only {actions} actions looked at");
}

/// A profiled query (`muster bench --by-action`) lists what an ordinary one lists, and
/// its costs by action add up: the actions each found, and no more steps than the query.
#[test]
fn profiled_queries_count_what_each_action_lists() {
    let engine = Engine::new(common::compile_file_or_panic("games/battle_line.muster", None).game);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut s = engine.start(2, 7).expect("the game starts");
    let mut costs = Vec::new();
    let mut listed = muster::engine::Listed::new();
    for _ in 0..60 {
        let before = costs.clone();
        let (legal, work) = engine.legal_actions_and_work(&s);
        engine
            .try_legal_into_profiled(&s, &mut listed, &mut costs)
            .expect("a query");
        assert_eq!(&listed[..], &legal[..]);
        let added = |f: fn(&muster::engine::ActionCost) -> u64| -> u64 {
            costs.iter().map(f).sum::<u64>() - before.iter().map(f).sum::<u64>()
        };
        let real = legal
            .iter()
            .filter(|a| a.action < muster::engine::SKIP_ACTION)
            .count() as u64;
        assert_eq!(added(|c| c.listed), real);
        assert!(added(|c| c.steps) <= work);
        assert!(added(|c| c.listings) >= 1);
        if legal.is_empty() {
            break;
        }
        let pick = rng.gen_range(0..legal.len());
        engine.apply_listed(&mut s, &legal[pick]).unwrap();
    }
    // Battle Line's main step asks `activate` and `relay` alike.
    let named = |n: &str| {
        engine
            .game
            .actions
            .iter()
            .position(|a| a.name == n)
            .unwrap()
    };
    assert!(costs[named("activate")].listings > 0);
    assert_eq!(
        costs[named("activate")].listings,
        costs[named("relay")].listings
    );
}

// A listing that goes over its budget is not listed ahead: the action applies as ever,
// and the query after it meets the rules error it always met (here the legal actions grow
// past `MAX_LEGAL_ACTIONS` on the fourth turn).
#[test]
fn a_listing_over_its_budget_is_not_listed_ahead() {
    let rules = r#"game "Grow" { players 2 }
       board grid 26 x 52
       var n = 1
       phase p { turn { one of go } }
       action go {
         choose a in cells
         choose b in [c in cells where c != a and rank(c) <= n]
         do {
           n = n + 10
           end turn
         }
       }"#;
    let game = muster::check::compile_source("grow.muster", rules, None)
        .expect("the rules check")
        .game;
    let engine = Engine::new(game);
    let mut s = engine.start(2, 1).expect("the game starts");
    let (mut legal, mut next) = (Listed::new(), Listed::new());
    engine
        .try_legal_into(&s, &mut legal)
        .expect("the first listing");
    let mut turns = 0;
    loop {
        let (mut plain, a) = (s.clone(), legal[legal.len() / 2].clone());
        engine
            .apply_listed(&mut plain, &a)
            .expect("the action applies");
        let ahead = engine.apply_and_list(&mut s, &a, &mut next);
        assert!(s == plain, "turn {turns}: listing ahead changed the state");
        turns += 1;
        match ahead {
            Ok(true) => std::mem::swap(&mut legal, &mut next),
            Ok(false) => break,
            Err(e) => panic!("turn {turns}: {e}"),
        }
    }
    assert_eq!(turns, 3, "listed ahead until the listing went over");
    let err = engine
        .try_legal_into(&s, &mut legal)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("MAX_LEGAL_ACTIONS") && err.contains("`choose b`"),
        "{err}"
    );
}
