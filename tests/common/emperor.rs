//! Helpers for Battalion, the emperor game (`em_*`): a game mustered through its own
//! actions from a description of each army, and small edits of a position by hand.

use super::{card, compile_file_or_panic, play, var_id, zone_inst};
use muster::engine::{Engine, Loc, State, NONE};
use muster::ir::Value;

pub const S: u8 = 0;
pub const H: u8 = 1;
pub const D: u8 = 2;

pub fn em_engine() -> Engine {
    Engine::new(compile_file_or_panic("games/battalion_emperor.muster", None).game)
}

/// One seat's army: its formation, its bodyguard, and the card on each cell in reading
/// order (`post1` first); `-` leaves a cell empty (a filler card is stationed there and
/// then buried, so the cell is empty when battle begins).
pub struct Army<'a> {
    pub formation: &'a str,
    pub guard: &'a str,
    pub posts: &'a [&'a str],
}

/// A game of `armies.len()` players mustered through the game's own actions, with
/// `opener` taking the first battle turn.
pub fn em_game(engine: &Engine, armies: &[Army], opener: u8) -> State {
    let mut s = engine.start(armies.len() as u8, 1).expect("2 to 4 players");
    let i = var_id(engine, "opener");
    s.globals[i] = Value::Seat(opener);
    let mut fillers: Vec<u16> = Vec::new();
    for (seat, army) in armies.iter().enumerate() {
        play(engine, &mut s, &format!("deploy {}", army.formation));
        play(engine, &mut s, &format!("appoint {}", army.guard));
        let named: Vec<&str> = army.posts.iter().copied().filter(|p| *p != "-").collect();
        for (k, label) in army.posts.iter().enumerate() {
            let label = if *label == "-" {
                let spare = s.zones[zone_inst(engine, "hand", seat as u8)]
                    .iter()
                    .map(|&c| card(engine, c))
                    .find(|c| !named.contains(&c.as_str()))
                    .expect("a spare card to fill an empty cell");
                fillers.push(cell_of(
                    engine,
                    &format!("post{}@{}", k + 1, seat_name(engine, seat as u8)),
                ));
                spare
            } else {
                label.to_string()
            };
            play(engine, &mut s, &format!("station {label}"));
        }
    }
    assert_eq!(
        engine.game.phases[s.phase as usize].name, "battle",
        "every army was mustered"
    );
    for c in fillers {
        em_bury(engine, &mut s, c);
    }
    s
}

pub fn seat_name(engine: &Engine, seat: u8) -> String {
    engine.game.seats[seat as usize].name.clone()
}

pub fn cell_of(engine: &Engine, name: &str) -> u16 {
    engine
        .game
        .board
        .cells
        .iter()
        .position(|c| c.name == name)
        .unwrap_or_else(|| panic!("no cell {name}")) as u16
}

/// The card on a cell, by label, or `None`.
pub fn em_at(engine: &Engine, s: &State, cell: &str) -> Option<String> {
    let c = s.cells[cell_of(engine, cell) as usize];
    (c != NONE).then(|| card(engine, c))
}

/// Moves the card on `cell` to its owner's dead pile, face down (a position edit).
pub fn em_bury(engine: &Engine, s: &mut State, cell: u16) {
    let comp = s.cells[cell as usize];
    assert_ne!(comp, NONE, "nothing to bury on that cell");
    let owner = s.owners[comp as usize];
    s.set_cell(cell, NONE);
    let inst = zone_inst(engine, "dead", owner);
    s.zones[inst].push(comp);
    s.locs[comp as usize] = Loc::Zone(inst as u16);
    s.face_up[comp as usize] = false;
}

/// Empties the named cells (their cards to their owners' dead piles).
pub fn em_clear(engine: &Engine, s: &mut State, cells: &[&str]) {
    for name in cells {
        em_bury(engine, s, cell_of(engine, name));
    }
}

/// A seat's per-seat var.
pub fn em_var(engine: &Engine, s: &State, name: &str, seat: u8) -> Value {
    s.seat_vars[seat as usize * engine.game.vars.len() + var_id(engine, name)].clone()
}

pub fn em_set_var(engine: &Engine, s: &mut State, name: &str, seat: u8, v: Value) {
    let n = engine.game.vars.len();
    s.seat_vars[seat as usize * n + var_id(engine, name)] = v;
}

/// The labels in a seat's zone, bottom first.
pub fn em_zone(engine: &Engine, s: &State, zone: &str, seat: u8) -> Vec<String> {
    s.zones[zone_inst(engine, zone, seat)]
        .iter()
        .map(|&c| card(engine, c))
        .collect()
}

/// Where a component is, as text: a cell's name or `zone@seat`.
pub fn em_places(engine: &Engine, s: &State, comp: u16) -> String {
    match s.locs[comp as usize] {
        Loc::Cell(c) => engine.game.board.cells[c as usize].name.clone(),
        Loc::Zone(i) => {
            let (z, seat, _) = engine.zone_of_instance(i);
            format!("{}@{}", engine.game.zones[z as usize].name, seat)
        }
    }
}
