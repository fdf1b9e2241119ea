//! Shared helpers for the Army Ants tests: compiling the game, starting seeded games,
//! building positions by hand, and playing or refusing actions written in notation.
#![allow(dead_code)]

use muster::check::{compile_file, Compiled};
use muster::engine::{Engine, Loc, State, NONE, NO_SEAT};
use muster::ir::Value;
use std::path::PathBuf;

pub const RED: u8 = 0;
pub const BLACK: u8 = 1;
/// Phase ids, in the order the rules file declares them.
pub const RALLY: u16 = 0;
pub const BATTLE: u16 = 1;
/// The rank of the Queen in the standard deck.
pub const QUEEN: i64 = 12;
/// Index of the per-seat var `rally_turns`.
pub const RALLY_TURNS: usize = 0;

/// The path of a file in the repository.
pub fn repo_path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// Compiles `games/army_ants.muster`, panicking with the rendered diagnostics if it fails.
pub fn compile_army_ants() -> Compiled {
    match compile_file(&repo_path("games/army_ants.muster"), None) {
        Ok(c) => c,
        Err(f) => panic!(
            "army_ants does not compile:\n{}",
            muster::diagnostic::render(&f.sources, &f.diagnostics, false)
        ),
    }
}

pub fn engine() -> Engine {
    Engine::new(compile_army_ants().game)
}

/// A two-player game of Army Ants, set up with `seed`.
pub fn start(engine: &Engine, seed: u64) -> State {
    engine.start(2, seed).expect("army ants seats two players")
}

/// The id of a cell by its name, e.g. `b3`.
pub fn cell(engine: &Engine, name: &str) -> u16 {
    engine
        .game
        .board
        .cells
        .iter()
        .position(|c| c.name == name)
        .unwrap_or_else(|| panic!("no cell {name}")) as u16
}

pub fn cell_name(engine: &Engine, c: u16) -> String {
    engine.game.board.cells[c as usize].name.clone()
}

/// The id of a zone by its name.
pub fn zone_id(engine: &Engine, name: &str) -> u16 {
    engine
        .game
        .zones
        .iter()
        .position(|z| z.name == name)
        .unwrap_or_else(|| panic!("no zone {name}")) as u16
}

/// The instance index (into `State::zones`) of a zone for a seat.
pub fn zone_inst(engine: &Engine, name: &str, seat: u8) -> usize {
    engine.zone_instance(zone_id(engine, name), seat, 0) as usize
}

fn attr_index(engine: &Engine, name: &str) -> usize {
    engine
        .game
        .attrs
        .iter()
        .position(|a| a.name == name)
        .unwrap_or_else(|| panic!("no attribute {name}"))
}

/// A component's rank (1 = ace ... 12 = queen, 13 = king).
pub fn rank(engine: &Engine, comp: u16) -> i64 {
    match engine.game.components[comp as usize].attrs[attr_index(engine, "rank")] {
        Value::Int(r) => r,
        ref other => panic!("rank is not a number: {other:?}"),
    }
}

/// A component's colour as its enum value name (`red` or `black`).
pub fn colour(engine: &Engine, comp: u16) -> String {
    match engine.game.components[comp as usize].attrs[attr_index(engine, "colour")] {
        Value::Enum(e, v) => engine.game.enums[e as usize].values[v as usize].0.clone(),
        ref other => panic!("colour is not an enum: {other:?}"),
    }
}

/// The colour name a seat's army is drawn from.
pub fn seat_colour(seat: u8) -> &'static str {
    if seat == RED {
        "red"
    } else {
        "black"
    }
}

/// What stands on a cell: its owner and rank.
pub fn at(engine: &Engine, s: &State, name: &str) -> Option<(u8, i64)> {
    let c = s.cells[cell(engine, name) as usize];
    (c != NONE).then(|| (s.owners[c as usize], rank(engine, c)))
}

/// The ranks in a seat's `fallen` zone, bottom first.
pub fn fallen(engine: &Engine, s: &State, seat: u8) -> Vec<i64> {
    s.zones[zone_inst(engine, "fallen", seat)]
        .iter()
        .map(|&c| rank(engine, c))
        .collect()
}

/// How many rally turns a seat has left.
pub fn rally_turns(engine: &Engine, s: &State, seat: u8) -> i64 {
    s.seat_vars[seat as usize * engine.game.vars.len() + RALLY_TURNS].as_int()
}

pub fn set_rally_turns(engine: &Engine, s: &mut State, seat: u8, n: i64) {
    let i = seat as usize * engine.game.vars.len() + RALLY_TURNS;
    s.seat_vars[i] = Value::Int(n);
}

/// A hand-built position: every card of `base` is taken off the board (and out of any
/// zone) into `box`; then each `(cell, seat, rank)` gets a card of that seat's colour and
/// rank, owned by the seat. The phase, the seat to move and `step = 0` are set.
pub fn position(
    engine: &Engine,
    base: &State,
    phase: u16,
    to_move: u8,
    pieces: &[(&str, u8, i64)],
) -> State {
    let mut s = base.clone();
    let boxed = zone_inst(engine, "box", 0);
    for c in s.cells.iter_mut() {
        *c = NONE;
    }
    for z in s.zones.iter_mut() {
        z.clear();
    }
    for comp in 0..s.locs.len() {
        s.zones[boxed].push(comp as u16);
        s.locs[comp] = Loc::Zone(boxed as u16);
        s.owners[comp] = NO_SEAT;
        s.face_up[comp] = true;
    }
    for &(name, seat, r) in pieces {
        let at = cell(engine, name);
        assert_eq!(s.cells[at as usize], NONE, "two pieces placed on {name}");
        let pos = s.zones[boxed]
            .iter()
            .position(|&c| rank(engine, c) == r && colour(engine, c) == seat_colour(seat))
            .unwrap_or_else(|| {
                panic!(
                    "no {} card of rank {r} left in the box for {name}",
                    seat_colour(seat)
                )
            });
        let comp = s.zones[boxed].remove(pos);
        s.cells[at as usize] = comp;
        s.locs[comp as usize] = Loc::Cell(at);
        s.owners[comp as usize] = seat;
    }
    s.phase = phase;
    s.turn_seat = to_move;
    s.step = 0;
    s.outcome = None;
    s
}

/// A battle-phase position with `to_move` to play, built from a fresh game.
pub fn battle(engine: &Engine, to_move: u8, pieces: &[(&str, u8, i64)]) -> State {
    position(engine, &start(engine, 1), BATTLE, to_move, pieces)
}

/// A rally-phase position with `to_move` to play and both seats' rally turns as dealt.
pub fn rally(engine: &Engine, to_move: u8, pieces: &[(&str, u8, i64)]) -> State {
    position(engine, &start(engine, 1), RALLY, to_move, pieces)
}

/// Every legal action's text, in the engine's order.
pub fn legal_texts(engine: &Engine, s: &State) -> Vec<String> {
    engine
        .legal_actions(s)
        .iter()
        .map(|a| engine.action_text(s, a))
        .collect()
}

/// Whether `text` is among the legal actions.
pub fn is_legal(engine: &Engine, s: &State, text: &str) -> bool {
    legal_texts(engine, s).iter().any(|t| t == text)
}

/// Parses `text` and applies it with the checked `apply`, panicking if either fails.
pub fn play(engine: &Engine, s: &mut State, text: &str) {
    let a = engine
        .parse_action(s, text)
        .unwrap_or_else(|e| panic!("cannot parse `{text}`: {e}"));
    engine
        .apply(s, &a)
        .unwrap_or_else(|e| panic!("cannot play `{text}`: {e}"));
}

/// Why `text` is refused here; panics if it is legal or cannot be read.
pub fn refused(engine: &Engine, s: &State, text: &str) -> String {
    let a = engine
        .parse_action(s, text)
        .unwrap_or_else(|e| panic!("cannot parse `{text}`: {e}"));
    let why = engine
        .why_illegal(s, &a)
        .unwrap_or_else(|| panic!("`{text}` is legal here"));
    assert!(
        engine.apply(&mut s.clone(), &a).is_err(),
        "`{text}` is refused by why_illegal but apply accepts it"
    );
    why
}

/// Checks that the state's bookkeeping agrees with itself: every component is in exactly
/// one place and `locs` says where. Returns a description of the first problem.
pub fn consistency_problem(s: &State) -> Option<String> {
    let n = s.locs.len();
    let mut seen = vec![0u32; n];
    for (cell, &c) in s.cells.iter().enumerate() {
        if c == NONE {
            continue;
        }
        if c as usize >= n {
            return Some(format!("cell {cell} holds unknown component {c}"));
        }
        seen[c as usize] += 1;
        if s.locs[c as usize] != Loc::Cell(cell as u16) {
            return Some(format!(
                "component {c} is on cell {cell} but locs says {:?}",
                s.locs[c as usize]
            ));
        }
    }
    for (inst, z) in s.zones.iter().enumerate() {
        for &c in z {
            if c as usize >= n {
                return Some(format!("zone {inst} holds unknown component {c}"));
            }
            seen[c as usize] += 1;
            if s.locs[c as usize] != Loc::Zone(inst as u16) {
                return Some(format!(
                    "component {c} is in zone {inst} but locs says {:?}",
                    s.locs[c as usize]
                ));
            }
        }
    }
    seen.iter()
        .position(|&k| k != 1)
        .map(|c| format!("component {c} is in {} places", seen[c]))
}
