//! Language constructs tested on small rules files of their own (`tests/constructs/`): a
//! next phase computed as a phase ends (`next if COND then PHASE else PHASE`), a cell's
//! `file` and `rank`, a stuck seat's result chosen by the position (`on stuck if`),
//! indexing, paths (`along`, `index_of`, `line`, `between`), move-only and capture-only
//! pattern legs with `attacks`, `require afterwards` (over each kind of variable the `do`
//! writes), a board written once for every size (`width`, `height`, `cell(f, r)`, variants
//! that change only the board's size), secret choices revealed together (`all of ...`), a
//! hex board's geometry, `repetitions`, attributes changed in play, the end rules judged
//! again as a turn ends, a cell among a pattern's ends (`t in destinations(...)`), a part
//! of a rule computed once per listing of the legal actions, comparisons written either way
//! round, quantifiers over runs judged by the runs' length, link rules, and swaps. Their
//! scenarios run as `muster test` runs them; what a scenario cannot say (the IR's shape, a
//! nested `then if`) is asserted here.

mod common;

use muster::check::compile_source;
use muster::diagnostic::render;
use muster::engine::Engine;
use muster::ir::{Game, NextPhase, StuckRule};
use muster::scenario;
use std::path::{Path, PathBuf};

fn constructs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/constructs")
}

/// Runs one scenario file of `tests/constructs/` and fails with its rendered failures.
fn run_scenarios(name: &str) -> usize {
    let report = scenario::run_file(&constructs_dir().join(name));
    assert!(
        report.ok(),
        "{name}: scenarios fail\n{}",
        render(&report.sources, &report.failures, false)
    );
    report.results.len()
}

fn compile(name: &str, text: &str) -> Game {
    match compile_source(name, text, None) {
        Ok(c) => {
            assert!(
                c.warnings.is_empty(),
                "{}",
                render(&c.sources, &c.warnings, false)
            );
            c.game
        }
        Err(f) => panic!("{}", render(&f.sources, &f.diagnostics, false)),
    }
}

fn read(name: &str) -> String {
    std::fs::read_to_string(constructs_dir().join(name)).unwrap()
}

fn phase_id(game: &Game, name: &str) -> u16 {
    game.phases.iter().position(|p| p.name == name).unwrap() as u16
}

/// Each construct's scenario file, and how many scenarios it holds (every one must pass).
const SCENARIO_FILES: &[(&str, usize)] = &[
    // A distance between two cells in locals compared with a number a man holds: within
    // reach and out of it, a local with no cell, an empty square.
    ("reach_orders.scenarios", 2),
    // A computed `next` phase: each branch of an `else if` chain, read as the phase ends.
    ("phase_choice.scenarios", 8),
    // Triggers: a zone's leaving before another's entering, a per-seat zone's from any
    // seat, none for a move between zones with no triggers of their own.
    ("triggers.scenarios", 3),
    // A zone's whole contents moved: in their order onto what the other holds, belonging
    // to its seat; a zone with a trigger runs it for each, bottom first.
    ("zone_moves.scenarios", 3),
    // `file` and `rank`: legal and illegal marks, values after moves, a folded value.
    ("files_ranks.scenarios", 3),
    // A part of a rule that reads no chosen value, computed once per listing: it follows
    // each move, walked or read whole.
    ("remembered.scenarios", 2),
    // A part of a loop's body the same for every item, computed once a walk: searched
    // among for each item, and counted; the actions follow each move.
    ("loop_parts.scenarios", 2),
    // A conditional `on stuck`, judged from the stuck seat; the old form unchanged.
    ("stuck_choice.scenarios", 6),
    // `xs[i]`: from 1, from the end, out of range, on a path of cells, a run, a zone, a
    // comprehension and a list fixed before play.
    ("indexing.scenarios", 7),
    // Paths: `along` on a loop (round again both ways), on a per-seat open path (none past
    // its ends), on any list of cells; `index_of`; `line` in either direction; a piece
    // moving along its seat's path, and not past a piece in the way; `between` on a loop,
    // an open path and a list.
    ("paths.scenarios", 10),
    // A change of a per-seat variable through a component's owner: through a hand and the
    // board it reaches the owner's seat.
    ("shared_owner.scenarios", 3),
    // Betza's `m` and `c`: a pawn that steps only onto empty cells and takes only
    // diagonally; `attacks`, defended cells included; two ways of a pattern that end on
    // one cell give it once; a step and a leap along one line, which never meet, each give
    // their own.
    ("move_capture.scenarios", 8),
    // `require afterwards`: a king that may not end a move attacked; pins, mate and
    // stalemate follow.
    ("afterwards.scenarios", 5),
    // `require afterwards` over variables the `do` writes (a game's, a seat's set and
    // transferred, a piece's, a list): each try judged on its own copy, never on what the
    // try before it wrote.
    ("afterwards_vars.scenarios", 1),
    // A try for `require afterwards` leaves out the writes no judgement can see, and keeps
    // a write the judgements read through another; the move played writes them all.
    ("afterwards_trials.scenarios", 2),
    // Each try for `require afterwards` starts from the position listed, whatever the try
    // before it changed: an attribute, where a piece stands, a zone, a variable.
    ("afterwards_copies.scenarios", 1),
    // A board written once for every size: `width`, `height`, `cell(f, r)`; variants that
    // change only the size keep the base's regions, a restated region replaces its own.
    ("board_sizes.scenarios", 6),
    // `all of ...`: secret choices applied together, in turn order from the turn's seat; a
    // seat passed over or with nothing legal takes no part.
    ("secret_choice.scenarios", 8),
    // `repetitions`, read as turns end: the start counts, the third time draws, a `clock`
    // variable is no part of a position and another variable is.
    ("repetition.scenarios", 6),
    // The end rules judged again as a turn ends: a turn counter that moves only then, an
    // `after turn` effect that makes a `win` hold.
    ("turn_end.scenarios", 4),
    // A hex board: six neighbours, hex distance, runs on three axes, a slide, a rectangle.
    ("hex_geometry.scenarios", 7),
    // An attribute changed in play (`dest.piece.role = queen`): the promoted pawn moves by
    // its new pattern, is labelled anew, counts by its new value, and stops being the
    // twin of the pawn beside it.
    ("attribute_change.scenarios", 3),
    // Comparisons either way round: a number before or after a piece's value with each
    // operator, `me` and a chosen seat on either side of an owner, a read through a seat's
    // attribute, variables judged as conditions, and two reads compared (a file with a
    // seat's attribute, a seat's variable with a piece's value), a local, `me` and a
    // variable compared either side, holding nothing and then a seat, and a piece's value
    // with a variable.
    ("comparisons.scenarios", 6),
    // `next(...)` and `prev(...)` of `me` and of a chosen seat, on either side of a
    // comparison with an owner, among three seats; an empty cell's owner is neither.
    ("seat_turns.scenarios", 3),
    // `shifts`: a run along its line and across it, stopped by the edge and by stones,
    // chosen with its direction, computed, or shifted in a direction written in the rules;
    // on a board of more than 64 cells (walked a cell at a time) and on hexagons; a packed
    // block whose runs mostly cannot move.
    ("shifts.scenarios", 8),
    // Runs judged by their length: a line of three wins along a diagonal, two do not, and
    // `all` and `none` over runs whose bodies read other things too.
    ("in_a_row.scenarios", 7),
    // Conditions on a cell judged for a set of cells at once: `and`, `or`, `not`, files and
    // ranks compared either way round, `any`, `all` and `none` over neighbours, a `require`
    // straight after a `choose`, a stone's owner compared with `me`, a region's cells, on
    // boards of 72 cells and of 64.
    ("cell_sets.scenarios", 20),
    // Counts and quantifiers whose bodies compare an item's attributes with a constant
    // (on either side), a chosen value or a chosen card's attribute (and that of a local
    // holding none), with `!=`, `<` and `>=`, under `and` and `or`, and with a `not`: the
    // same answers whichever way the body is judged.
    ("item_tests.scenarios", 6),
    // Link rules: conditions on the first cell, the second (written first), both and
    // neither; `or` in a rule; read again whenever a shape is formed.
    ("link_rules.scenarios", 7),
    // A cell's neighbours judged as a set: in the order the directions are written, a cell
    // compared with another either way round, an owner, emptiness, a cell left out; in a
    // `require` after the `choose`, a quantifier and a filter.
    ("neighbour_sets.scenarios", 7),
    // What the piece on a square holds, tested for all the squares at once: names, numbers
    // against numbers or constants, truth, a list; its owner against a seat in a local
    // (`next(me)`, `none`); a test that goes on with a part of another kind (`and`, `or`),
    // in `any`, `all`, `none`, a filter and a `require` after its `choose`; 400 squares.
    ("piece_sets.scenarios", 11),
    // `swap` with an empty cell and between the sides: a seat's cells, their number and
    // the empty cells, read after each swap.
    ("swaps.scenarios", 4),
    // A quantifier over `attacks`, which walks empty squares too, whose condition opens
    // with the piece there: false on every empty square, or true there.
    ("lookouts.scenarios", 3),
    // Choices of several cards (`subsets`) with `require`s after them that only fail more
    // as the choice grows (`all`, `count <=`, `size <`, `none`, `not any`, nested, the
    // first parts of an `and`), twins in the hand, and beside them conditions judged for
    // every choice; one card from a collection holding each twice, offered once; the same choices
    // with `all_red` written so that it cannot be told how it moves (variant `walked`).
    ("subset_choices.scenarios", 8),
    // `size` of a shared zone, a seat's and one of a row of numbered zones, compared with a
    // number and counted in a sum; a number past the row names no zone, of size 0.
    ("zone_sizes.scenarios", 3),
    // A choice among the seats: the others, in order, and none that has lost.
    ("seat_choices.scenarios", 2),
    // A collection an `if` tests and the `let`s at the head of its branches take from,
    // computed once: the turn settled as written.
    ("shared_tests.scenarios", 3),
    // A definition's argument computed once where it is used: the cards legal and the
    // strongest top card as the definition written out finds them.
    ("bound_args.scenarios", 2),
    // The items whose key is the greatest or the least of a collection's, each key
    // computed once: ties kept in order, an empty pile never kept, the best in a `choose`.
    ("best_items.scenarios", 2),
];

#[test]
fn every_constructs_scenarios_hold() {
    for &(file, count) in SCENARIO_FILES {
        assert_eq!(run_scenarios(file), count, "{file}");
    }
}

// A definition's argument that its body names again and again, and that has to be
// computed, is computed once (`Bind`); an argument named once, or one that is a local
// already, stands where its parameter is named.
#[test]
fn an_argument_named_again_and_again_is_computed_once() {
    // Rules given as text import from the current folder, the repository's.
    let binds = |text: &str| {
        let text = text.replace("../../games/lib/", "games/lib/");
        let game = compile("bound_args.muster", &text);
        ron::ser::to_string(&game).unwrap().matches("Bind(").count()
    };
    // `power(top(pile(me)))` and `power(top(pile(next(me))))` in the `require`, and the
    // three of `settle`; not `power(c)`, `value(c)` (a local, in `power`) nor `suit_of`.
    let text = read("bound_args.muster");
    assert_eq!(binds(&text), 5);
    // Named once by `power`, the argument is written out there, and computed once by
    // `value`, which names it twice.
    let once = text.replace(
        "def power(c) = if c.suit == trump then 100 + value(c) else value(c)",
        "def power(c) = value(c)",
    );
    assert_eq!(binds(&once), 5);
    // Named once all the way down: written out.
    let written = once.replace(
        "def value(c) = if c.rank == 1 then 14 else c.rank",
        "def value(c) = c.rank",
    );
    assert_eq!(binds(&written), 0);
}

// `next if ... else if ...` is lowered as nested choices naming the phases by id; the
// fixed `next` stays `None` beside it.
#[test]
fn a_computed_next_is_lowered_as_nested_choices() {
    let game = compile("phase_choice.muster", &read("phase_choice.muster"));
    let count = &game.phases[phase_id(&game, "count") as usize];
    assert_eq!(count.next, None);
    let Some(NextPhase::If(_, high, rest)) = &count.next_if else {
        panic!("a choice: {:?}", count.next_if);
    };
    assert_eq!(**high, NextPhase::Phase(phase_id(&game, "high")));
    let NextPhase::If(_, middle, low) = &**rest else {
        panic!("an `else if`: {rest:?}");
    };
    assert_eq!(**middle, NextPhase::Phase(phase_id(&game, "middle")));
    assert_eq!(**low, NextPhase::Phase(phase_id(&game, "low")));
}

// The IR of a computed next survives RON; a phase without one writes no `next_if` at all,
// so the IR of a fixed `next` keeps its shape.
#[test]
fn a_computed_next_round_trips_and_a_fixed_one_keeps_its_shape() {
    let game = compile("phase_choice.muster", &read("phase_choice.muster"));
    let text = ron::ser::to_string_pretty(&game, ron::ser::PrettyConfig::default()).unwrap();
    assert_eq!(text.matches("next_if:").count(), 2);
    let back: Game = ron::from_str(&text).unwrap();
    assert_eq!(back, game);

    let fixed = read("phase_choice.muster").replace(
        "next if total >= 6 then high else if total >= 4 then middle else low",
        "next middle",
    );
    let game = compile("fixed_next.muster", &fixed);
    let text = ron::ser::to_string_pretty(&game, ron::ser::PrettyConfig::default()).unwrap();
    assert_eq!(text.matches("next_if:").count(), 1);
    let count = &game.phases[phase_id(&game, "count") as usize];
    assert_eq!(count.next, Some(phase_id(&game, "middle")));
    assert_eq!(count.next_if, None);
}

fn compile_variant(name: &str, variant: &str) -> Game {
    match compile_source(name, &read(name), Some(variant)) {
        Ok(c) => c.game,
        Err(f) => panic!("{}", render(&f.sources, &f.diagnostics, false)),
    }
}

/// A region's cells by name, for each seat (one list when it is shared).
fn region_cells(game: &Game, name: &str) -> Vec<Vec<String>> {
    let r = game.board.regions.iter().find(|r| r.name == name).unwrap();
    r.cells
        .iter()
        .map(|l| {
            l.iter()
                .map(|&c| game.board.cells[c as usize].name.clone())
                .collect()
        })
        .collect()
}

// A variant that only gives `board grid 3 x 3` keeps every base region, computed again at
// its size; one that restates a region replaces that region and keeps the others, in the
// base's order.
#[test]
fn a_variant_board_keeps_the_regions_it_does_not_restate() {
    let base = compile("board_sizes.muster", &read("board_sizes.muster"));
    assert_eq!(
        region_cells(&base, "goal"),
        [["a4", "b4", "c4", "d4"], ["a1", "b1", "c1", "d1"]]
    );
    assert_eq!(region_cells(&base, "middle"), [["b2", "c2", "b3", "c3"]]);
    let small = compile_variant("board_sizes.muster", "small");
    assert_eq!((small.board.width, small.board.height), (3, 3));
    assert_eq!(
        region_cells(&small, "goal"),
        [["a3", "b3", "c3"], ["a1", "b1", "c1"]]
    );
    assert_eq!(region_cells(&small, "middle"), [["b2"]]);
    let wide = compile_variant("board_sizes.muster", "wide");
    let names: Vec<&str> = wide.board.regions.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["goal", "middle"]);
    assert_eq!(region_cells(&wide, "middle"), [["c2", "d2", "c3", "d3"]]);
    assert_eq!(region_cells(&wide, "goal")[0].len(), 6);
    // The seats' start cells are computed at each size too.
    let start = |g: &Game| -> Vec<muster::ir::Value> {
        g.seats.iter().map(|s| s.attrs[0].clone()).collect()
    };
    let cell = |g: &Game, n: &str| {
        muster::ir::Value::Cell(g.board.cells.iter().position(|c| c.name == n).unwrap() as u16)
    };
    assert_eq!(start(&small), [cell(&small, "a1"), cell(&small, "c3")]);
    assert_eq!(start(&wide), [cell(&wide, "a1"), cell(&wide, "f4")]);
}

// A variant that restates every region (with the cells written out) is the same game as
// the base, as before regions were kept: the IR is the same but for the variant's name.
#[test]
fn a_variant_restating_every_region_is_the_base_game() {
    let base = compile("board_sizes.muster", &read("board_sizes.muster"));
    let mut restated = compile_variant("board_sizes.muster", "restated");
    assert_eq!(restated.variant.as_deref(), Some("restated"));
    restated.variant = None;
    assert_eq!(restated, base);
}

/// Plays `moves` (in notation) from the start and gives the name of the phase reached.
fn phase_after(game: &Game, moves: &[&str]) -> String {
    let engine = Engine::new(game.clone());
    let mut s = engine.start(2, 1).unwrap();
    for m in moves {
        let a = engine.parse_action(&s, m).unwrap();
        engine.apply(&mut s, &a).unwrap();
    }
    game.phases[s.phase as usize].name.clone()
}

// A branch may itself be an `if` after `then` as well as after `else`.
#[test]
fn a_then_branch_may_be_a_choice_of_its_own() {
    let text = read("phase_choice.muster").replace(
        "next if total >= 6 then high else if total >= 4 then middle else low",
        "next if total >= 4 then if total >= 6 then high else middle else low",
    );
    let game = compile("then_if.muster", &text);
    assert_eq!(phase_after(&game, &["add 1", "add 1"]), "low");
    assert_eq!(phase_after(&game, &["add 1", "add 3"]), "middle");
    assert_eq!(phase_after(&game, &["add 2", "add 3"]), "middle");
    assert_eq!(phase_after(&game, &["add 3", "add 3"]), "high");
    // Before the phase ends nothing is chosen.
    assert_eq!(phase_after(&game, &["add 3"]), "count");
}

// `file` and `rank` of a constant cell are fixed before play, and at play time they read
// the cell's column and row from 1, whatever the cell.
#[test]
fn file_and_rank_count_from_the_bottom_left_corner() {
    let text = read("files_ranks.muster").replace(
        "var corner = file(d5) * 10 + rank(d5)",
        "var corner = file(a1) * 10 + rank(a1)",
    );
    let game = compile("corner.muster", &text);
    let engine = Engine::new(game.clone());
    let s = engine.start(2, 1).unwrap();
    let corner = game.vars.iter().position(|v| v.name == "corner").unwrap();
    assert_eq!(s.globals[corner], muster::ir::Value::Int(11));
    // Every legal mark is on rank 2, files b to d.
    let marks: Vec<String> = engine
        .legal_actions(&s)
        .iter()
        .map(|a| engine.action_text(&s, a))
        .collect();
    assert_eq!(marks, ["mark b2", "mark c2", "mark d2"]);
}

// `on stuck if ... else if ... else RESULT` is lowered as its conditions in order, each with
// its result, and the last `else` as the fixed rule; it survives RON. A fixed `on stuck`
// writes no `stuck_if` at all, so the IR of older rules files keeps its shape.
#[test]
fn a_conditional_stuck_is_lowered_in_order_and_a_fixed_one_keeps_its_shape() {
    let game = compile("stuck_choice.muster", &read("stuck_choice.muster"));
    let results: Vec<StuckRule> = game.end.stuck_if.iter().map(|(_, r)| *r).collect();
    assert_eq!(results, [StuckRule::Lose, StuckRule::Pass]);
    assert_eq!(game.end.stuck, StuckRule::Draw);
    let text = ron::ser::to_string_pretty(&game, ron::ser::PrettyConfig::default()).unwrap();
    assert_eq!(text.matches("stuck_if:").count(), 1);
    let back: Game = ron::from_str(&text).unwrap();
    assert_eq!(back, game);

    let fixed = match compile_source(
        "stuck_choice.muster",
        &read("stuck_choice.muster"),
        Some("fixed"),
    ) {
        Ok(c) => c.game,
        Err(f) => panic!("{}", render(&f.sources, &f.diagnostics, false)),
    };
    assert!(fixed.end.stuck_if.is_empty());
    assert_eq!(fixed.end.stuck, StuckRule::Draw);
    let text = ron::ser::to_string_pretty(&fixed, ron::ser::PrettyConfig::default()).unwrap();
    assert!(!text.contains("stuck_if"), "{text}");
}

// Through a token in a shared zone, whose owner is `none`, the change has no seat: a rules
// error that says so, not an effect that silently does nothing.
#[test]
fn a_change_through_no_owner_is_a_rules_error() {
    let game = compile("shared_owner.muster", &read("shared_owner.muster"));
    let engine = Engine::new(game);
    let mut s = engine.start(2, 1).unwrap();
    let a = engine.parse_action(&s, "score T1").unwrap();
    match engine.apply(&mut s, &a) {
        Err(muster::engine::EngineError::Rules(r)) => {
            assert_eq!(r.code, "muster::run::value");
            assert!(
                r.message.starts_with(
                    "`points += 1` has no seat to change: the seat before `.points` is `none`"
                ),
                "{}",
                r.message
            );
            assert!(
                r.message.contains("in applying `score T1`"),
                "{}",
                r.message
            );
        }
        other => panic!("a rules error: {other:?}"),
    }
}

// A `transfer` from or to the owner of a token in a shared zone has no seat to pay or to
// be paid: a rules error that says which side is `none`, not a transfer of nothing.
#[test]
fn a_transfer_from_or_to_no_owner_is_a_rules_error() {
    let game = compile("shared_owner.muster", &read("shared_owner.muster"));
    let engine = Engine::new(game);
    for (action, side) in [("take T1", "from"), ("give T1", "to")] {
        let mut s = engine.start(2, 1).unwrap();
        let a = engine.parse_action(&s, action).unwrap();
        match engine.apply(&mut s, &a) {
            Err(muster::engine::EngineError::Rules(r)) => {
                assert_eq!(r.code, "muster::run::value");
                let expected = format!(
                    "`transfer 1 points` has no seat to change: the seat after `{side}` is `none`"
                );
                assert!(r.message.starts_with(&expected), "{}", r.message);
                assert!(
                    r.message.contains(&format!("in applying `{action}`")),
                    "{}",
                    r.message
                );
            }
            other => panic!("a rules error: {other:?}"),
        }
    }
}

// On a board with paths, `muster play` draws an empty cell on no path blank, so that the
// tracks stand out; a board without paths draws every empty cell as `.`.
#[test]
fn cells_on_no_path_are_drawn_blank() {
    let drawn = |file: &str| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let e = Engine::new(muster::check::compile_file(&path, None).unwrap().game);
        let s = e.start(2, 1).unwrap();
        muster::cli::render_view(&e, &e.view(&s, 0))
    };
    let homeward = drawn("games/homeward.muster");
    let rows: Vec<&str> = homeward.lines().skip(2).take(9).collect();
    assert_eq!(rows[0], "9   .  .  .  .  .  .  .  .  .  9");
    assert_eq!(rows[1], "8   .           .           .  8");
    assert_eq!(rows[4], "5   .  .  .  .  .  .  .  .  .  5");
    let pawns = drawn("tests/pawn_race.muster");
    assert!(
        pawns.lines().any(|l| l.starts_with("2   .  .  .")),
        "{pawns}"
    );
}

/// Plays `moves` (in notation) in a fresh game of `secret_choice.muster`.
fn secret_game(players: u8, moves: &[&str]) -> (Engine, muster::engine::State) {
    let engine = Engine::new(compile(
        "secret_choice.muster",
        &read("secret_choice.muster"),
    ));
    let mut s = engine.start(players, 1).unwrap();
    for m in moves {
        let a = engine.parse_action(&s, m).unwrap();
        engine.apply(&mut s, &a).unwrap();
    }
    (engine, s)
}

// Two revealed choices that cannot both be done (one cell for two tokens) are a rules
// error that names the choice that failed; nothing is resolved silently.
#[test]
fn interfering_secret_choices_are_a_rules_error() {
    let (engine, mut s) = secret_game(2, &["take T1", "take T2", "put a1 T1"]);
    let b = engine.parse_action(&s, "put a1 T2").unwrap();
    match engine.apply(&mut s, &b) {
        Err(muster::engine::EngineError::Rules(r)) => {
            assert_eq!(r.code, "muster::run::occupied");
            assert!(
                r.message
                    .contains("the secret choice `put a1 T2` of B, as the choices were revealed"),
                "{}",
                r.message
            );
        }
        other => panic!("a rules error: {other:?}"),
    }
}

// A seat's view shows every seat who has chosen, but only its own choice; the omniscient
// view shows all, a spectator none. Two states that differ only in another seat's choice
// give the same view.
#[test]
fn a_secret_choice_is_seen_only_by_its_seat() {
    let (engine, s) = secret_game(3, &["take T1"]);
    let (_, other) = secret_game(3, &["take T4"]);
    let took = engine.parse_action(&s, "take T1").unwrap();
    assert_eq!(s.secret, [(0, took.clone())]);
    assert_eq!(engine.view(&s, 0).secret, [(0, Some(took.clone()))]);
    assert_eq!(engine.view(&s, 1).secret, [(0, None)]);
    assert_eq!(engine.public_view(&s).secret, [(0, None)]);
    assert_eq!(engine.omniscient_view(&s).secret, [(0, Some(took))]);
    assert_ne!(s, other);
    assert_eq!(engine.view(&s, 1), engine.view(&other, 1));
    assert_eq!(engine.view(&s, 2), engine.view(&other, 2));
    assert_ne!(engine.view(&s, 0), engine.view(&other, 0));
    // The next seat's legal actions do not depend on the choice made before it.
    assert_eq!(engine.legal_actions(&s), engine.legal_actions(&other));
}

// Announced to the others, a secret choice says only that it was made; the last choice
// reveals every choice of the step to everyone, in the order applied.
#[test]
fn a_secret_choice_is_announced_without_its_text_until_the_reveal() {
    let (engine, s0) = secret_game(2, &[]);
    let a = engine.parse_action(&s0, "take T1").unwrap();
    let mut s1 = s0.clone();
    engine.apply(&mut s1, &a).unwrap();
    let told = engine.announce(&s0, &s1, &a, 0, Some(1));
    assert_eq!(told.text, None);
    assert!(told.secret && told.revealed.is_empty());
    assert_eq!(
        told.lines("A", &|q| format!("seat{q}")),
        ["A has chosen in secret"]
    );
    assert_eq!(
        engine.announce(&s0, &s1, &a, 0, Some(0)).text.as_deref(),
        Some("take T1")
    );
    assert_eq!(
        engine.announce(&s0, &s1, &a, 0, None).text.as_deref(),
        Some("take T1")
    );
    let b = engine.parse_action(&s1, "take T2").unwrap();
    let mut s2 = s1.clone();
    engine.apply(&mut s2, &b).unwrap();
    assert!(s2.secret.is_empty());
    let told = engine.announce(&s1, &s2, &b, 1, Some(0));
    assert_eq!(told.text, None);
    assert_eq!(
        told.revealed,
        [(0, "take T1".to_string()), (1, "take T2".to_string())]
    );
    assert_eq!(
        told.lines("B", &|q| ["A", "B"][q as usize].to_string()),
        [
            "B has chosen in secret",
            "the secret choices are revealed:",
            "  A plays take T1",
            "  B plays take T2"
        ]
    );
}

// A state sampled from a seat's view keeps that seat's own choice and draws the others'
// afresh among their legal actions: over many samples the real choice is not always
// kept, and the sample gives the same view.
#[test]
fn a_sampled_state_draws_the_other_seats_secret_choices_afresh() {
    use rand::SeedableRng;
    let (engine, s) = secret_game(3, &["take T1", "take T2"]);
    let view = engine.view(&s, 2);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut drawn = std::collections::BTreeSet::new();
    for _ in 0..50 {
        let sample = engine.sample_state(&view, &mut rng);
        assert_eq!(engine.view(&sample, 2), view);
        let seats: Vec<u8> = sample.secret.iter().map(|(q, _)| *q).collect();
        assert_eq!(seats, [0, 1]);
        drawn.insert(engine.action_text(&sample, &sample.secret[0].1));
    }
    assert_eq!(drawn.len(), 4, "{drawn:?}");
    // The seat's own choice is kept.
    let view = engine.view(&s, 1);
    for _ in 0..10 {
        let sample = engine.sample_state(&view, &mut rng);
        assert_eq!(sample.secret[1], s.secret[1]);
    }
}

// On a hex board `around` is its six directions in the documented order (e ne nw w sw
// se), each with its file and rank step; the IR says `hex`, and a grid's IR does not
// mention it at all.
#[test]
fn a_hex_board_has_six_directions_in_order() {
    let game = compile("hex_geometry.muster", &read("hex_geometry.muster"));
    assert!(game.board.hex);
    let dirs: Vec<(&str, i8, i8)> = game
        .board
        .dirs
        .iter()
        .map(|d| (d.name.as_str(), d.dx, d.dy))
        .collect();
    assert_eq!(
        dirs,
        [
            ("e", 1, 0),
            ("ne", 0, 1),
            ("nw", -1, 1),
            ("w", -1, 0),
            ("sw", 0, -1),
            ("se", 1, -1)
        ]
    );
    let text = ron::ser::to_string_pretty(&game, ron::ser::PrettyConfig::default()).unwrap();
    assert_eq!(text.matches("hex: true").count(), 1);
    let grid = compile("files_ranks.muster", &read("files_ranks.muster"));
    assert!(!grid.board.hex);
    let text = ron::ser::to_string_pretty(&grid, ron::ser::PrettyConfig::default()).unwrap();
    assert!(!text.contains("hex"), "a grid's IR says nothing of hexes");
}

// `t in destinations(x, P)` and `t in attacks(x, P)` follow only the rays that point at
// `t` for a pattern of legs (a rider, a limited rider, leapers, `m` and `c` legs), and walk
// a pattern with a continuation whole: in every position of seeded random games, asking
// of every cell lists exactly the cells the walk gives, for either side's pieces.
#[test]
fn a_cell_is_reached_when_the_walk_gives_it() {
    use rand::{Rng, SeedableRng};
    let engine = Engine::new(compile("reaching.muster", &read("reaching.muster")));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let (mut positions, mut reached) = (0, 0);
    for seed in 1..=12 {
        let mut s = engine.start(2, seed).unwrap();
        for _ in 0..40 {
            for (walked, asked) in [
                ("dests_walked", "dests_asked"),
                ("attacks_walked", "attacks_asked"),
            ] {
                let want = common::args_of(&engine, &s, walked);
                assert_eq!(
                    common::args_of(&engine, &s, asked),
                    want,
                    "seed {seed}: {asked}"
                );
                reached += want.len();
            }
            positions += 1;
            let moves: Vec<_> = engine
                .legal_actions(&s)
                .into_iter()
                .filter(|a| engine.action_text(&s, a).starts_with("go "))
                .collect();
            if moves.is_empty() {
                break;
            }
            let m = &moves[rng.gen_range(0..moves.len())];
            engine.apply(&mut s, m).unwrap();
        }
    }
    // Many positions, with pieces that reach far and near.
    assert!(positions > 300, "only {positions} positions");
    assert!(reached > 10_000, "only {reached} cells reached");
}

/// A try for `require afterwards` leaves out what no judgement can see: listing the moves
/// of `afterwards_trials.muster` takes the steps it takes with those statements struck
/// from its `do` (a counter, a note, an `if` of such writes, a per-piece variable), the
/// plans and the tree walk alike; struck, a statement a judgement reads costs steps.
#[test]
fn a_try_for_require_afterwards_leaves_out_what_no_judgement_sees() {
    let text = read("afterwards_trials.muster");
    let unseen = [
        "    tally += 1\n",
        "    if from == a1 or from == a2 {\n      note = note + 10\n      from.piece.age += 1\n    }\n",
        "    from.piece.age += 1\n    dest.piece.age += 1\n",
    ];
    let mut struck = text.clone();
    for s in unseen {
        assert!(struck.contains(s), "{s}");
        struck = struck.replace(s, "");
    }
    let work = |text: &str| {
        let engine = Engine::new(compile("afterwards_trials.muster", text));
        let s = engine.start(2, 1).unwrap();
        let (legal, plans) = engine.legal_actions_and_work(&s);
        let (walked, tree) = engine.tree_walking().legal_actions_and_work(&s);
        assert_eq!(legal, walked);
        assert_eq!(plans, tree);
        (legal.len(), plans)
    };
    let (listed, steps) = work(&text);
    assert_eq!(listed, 2);
    assert_eq!(work(&struck), (listed, steps));
    // The write of `spent`, which `bank` is set from, is no such statement.
    let seen = struck.replace("    spent = spent + file(from)\n", "");
    assert!(work(&seen).1 < steps);
}

// A cell's neighbours judged as a set are still handed on in the order the directions
// are written (`adjacent(a, [n, w, s, e])`): b2's partner north, b3, comes before its
// partner east, c2, though c2 comes first on the board. (A scenario's `actions` is a
// set; this is the order.) Plans and the tree walk list alike, at the same cost.
#[test]
fn a_cells_neighbours_come_in_the_order_of_their_directions() {
    let engine = Engine::new(compile(
        "neighbour_sets.muster",
        &read("neighbour_sets.muster"),
    ));
    let mut s = engine.start(2, 1).unwrap();
    for m in ["hem b2", "hem d4", "hem b3", "hem d3", "hem c2", "hem c5"] {
        let a = engine.parse_action(&s, m).unwrap();
        engine.apply(&mut s, &a).unwrap();
    }
    let (legal, plans) = engine.legal_actions_and_work(&s);
    let (walked, tree) = engine.tree_walking().legal_actions_and_work(&s);
    assert_eq!((&legal, plans), (&walked, tree));
    let pairs: Vec<String> = (legal.iter())
        .map(|a| engine.action_text(&s, a))
        .filter(|t| t.starts_with("pair"))
        .collect();
    assert_eq!(pairs, ["pair b2 b3", "pair b2 c2"]);
}

// A choice of subsets walked with pruning lists the same actions, in the same order, as
// the same rules written so that nothing can be passed over (variant `walked`), for less
// work: every choice holding a card that is not red is passed over unmade.
#[test]
fn pruned_subsets_list_the_same_actions_for_less_work() {
    let listed = |game: Game| {
        let engine = Engine::new(game);
        let s = engine.start(2, 1).unwrap();
        let (actions, work) = engine.legal_actions_and_work(&s);
        let texts: Vec<String> = actions.iter().map(|a| engine.action_text(&s, a)).collect();
        (texts, work)
    };
    let (pruned, less) = listed(compile(
        "subset_choices.muster",
        &read("subset_choices.muster"),
    ));
    let (walked, more) = listed(compile_variant("subset_choices.muster", "walked"));
    assert_eq!(pruned.len(), 54);
    assert_eq!(pruned, walked);
    assert!(less < more, "pruned {less} steps, walked {more}");
}
