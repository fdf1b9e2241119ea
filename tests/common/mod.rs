//! Shared helpers for the game tests: compiling a game, starting seeded games, building
//! positions by hand, and playing or refusing actions written in notation. The first part
//! serves Army Ants; the second (`chips_*`) Battalion, the chip game; the third (`bl_*`)
//! Battle Line.
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

// ---- Battalion, the chip game ------------------------------------------------------

/// Seats of the chip game, in turn order. P1 deals; play starts at P2.
pub const P1: u8 = 0;
pub const P2: u8 = 1;
pub const P3: u8 = 2;
pub const P4: u8 = 3;
pub const P5: u8 = 4;
pub const P6: u8 = 5;

/// Compiles `games/battalion_chips.muster`, panicking with the rendered diagnostics if it fails.
pub fn compile_chips() -> Compiled {
    match compile_file(&repo_path("games/battalion_chips.muster"), None) {
        Ok(c) => c,
        Err(f) => panic!(
            "battalion_chips does not compile:\n{}",
            muster::diagnostic::render(&f.sources, &f.diagnostics, false)
        ),
    }
}

pub fn chips_engine() -> Engine {
    Engine::new(compile_chips().game)
}

/// A game of Battalion for `players` seats, set up with `seed`.
pub fn chips_start(engine: &Engine, players: u8, seed: u64) -> State {
    engine
        .start(players, seed)
        .unwrap_or_else(|e| panic!("cannot start {players} players: {e}"))
}

/// The id of a phase by its name.
pub fn phase_id(engine: &Engine, name: &str) -> u16 {
    engine
        .game
        .phases
        .iter()
        .position(|p| p.name == name)
        .unwrap_or_else(|| panic!("no phase {name}")) as u16
}

/// The name of the state's phase.
pub fn phase_name(engine: &Engine, s: &State) -> String {
    engine.game.phases[s.phase as usize].name.clone()
}

/// The index of a var (global or per seat) by its name.
pub fn var_id(engine: &Engine, name: &str) -> usize {
    engine
        .game
        .vars
        .iter()
        .position(|v| v.name == name)
        .unwrap_or_else(|| panic!("no var {name}"))
}

/// A global var's value.
pub fn global(engine: &Engine, s: &State, name: &str) -> Value {
    s.globals[var_id(engine, name)].clone()
}

pub fn set_global(engine: &Engine, s: &mut State, name: &str, v: Value) {
    let i = var_id(engine, name);
    assert!(!engine.game.vars[i].per_seat, "{name} is a per-seat var");
    s.globals[i] = v;
}

/// A seat's chips.
pub fn chips(engine: &Engine, s: &State, seat: u8) -> i64 {
    s.seat_vars[seat as usize * engine.game.vars.len() + var_id(engine, "chips")].as_int()
}

/// Every seat's chips, in seat order.
pub fn all_chips(engine: &Engine, s: &State) -> Vec<i64> {
    (0..s.players).map(|p| chips(engine, s, p)).collect()
}

/// Sets the chips of every seat, in seat order (`values` has one entry per seat).
pub fn set_chips(engine: &Engine, s: &mut State, values: &[i64]) {
    assert_eq!(values.len(), s.players as usize, "one chip count per seat");
    let (n, v) = (engine.game.vars.len(), var_id(engine, "chips"));
    for (p, &c) in values.iter().enumerate() {
        s.seat_vars[p * n + v] = Value::Int(c);
    }
}

/// A suit as a value (`hearts`, `spades`, ...).
pub fn suit(engine: &Engine, name: &str) -> Value {
    let e = engine
        .game
        .enums
        .iter()
        .position(|e| e.name == "Suit")
        .expect("an enum Suit");
    let x = engine.game.enums[e]
        .values
        .iter()
        .position(|v| v.0 == name)
        .unwrap_or_else(|| panic!("no suit {name}"));
    Value::Enum(e as u16, x as u16)
}

/// A card's label, e.g. `7H` (twins share it).
pub fn card(engine: &Engine, comp: u16) -> String {
    engine.label_for(comp, NO_SEAT)
}

/// The labels of a zone instance's cards, bottom first (the top card is last).
pub fn cards_in(engine: &Engine, s: &State, zone: &str, seat: u8) -> Vec<String> {
    s.zones[zone_inst(engine, zone, seat)]
        .iter()
        .map(|&c| card(engine, c))
        .collect()
}

/// A seat's hand, as labels in hand order.
pub fn hand(engine: &Engine, s: &State, seat: u8) -> Vec<String> {
    cards_in(engine, s, "hand", seat)
}

/// The same labels, sorted: for comparing hands as sets.
pub fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// Moves `comp` from wherever it is to the top of a zone instance, keeping `locs` and
/// `owners` in step (hands belong to their seat; shared zones to nobody).
pub fn put_on(engine: &Engine, s: &mut State, comp: u16, zone: &str, seat: u8) {
    let inst = zone_inst(engine, zone, seat);
    match s.locs[comp as usize] {
        Loc::Zone(z) => {
            let from = &mut s.zones[z as usize];
            let i = from
                .iter()
                .position(|&c| c == comp)
                .unwrap_or_else(|| panic!("component {comp} is not where locs says"));
            from.remove(i);
        }
        Loc::Cell(c) => s.cells[c as usize] = NONE,
    }
    s.zones[inst].push(comp);
    s.locs[comp as usize] = Loc::Zone(inst as u16);
    let per_seat = engine.game.zones[zone_id(engine, zone) as usize].per_seat;
    s.owners[comp as usize] = if per_seat { seat } else { NO_SEAT };
}

/// A card labelled `label` from the first of `zones` (shared zones, by name) that holds
/// one, skipping the components in `taken`.
fn find_card(engine: &Engine, s: &State, label: &str, zones: &[&str], taken: &[u16]) -> u16 {
    for z in zones {
        let inst = zone_inst(engine, z, 0);
        if let Some(&c) = s.zones[inst]
            .iter()
            .find(|&&c| card(engine, c) == label && !taken.contains(&c))
        {
            return c;
        }
    }
    panic!("no card {label} left in {zones:?}")
}

/// A position built by hand from `base`: each seat named in `hands` holds exactly the
/// cards listed for it, in that order (its other cards go back on top of the stock). The
/// cards are taken from the stock, else the discard pile, else the hand of a seat not
/// named, which gets the stock's top card in exchange (so every unnamed hand keeps its
/// size). Twins are distinct components: `["7H", "7H"]` is a pair. The phase (by name),
/// the seat whose turn it is and the step are set, with `phase_turns` 0 and no outcome;
/// vars keep their values (see `set_chips`, `set_global`).
pub fn chips_position(
    engine: &Engine,
    base: &State,
    phase: &str,
    turn_seat: u8,
    step: u16,
    hands: &[(u8, &[&str])],
) -> State {
    let mut s = base.clone();
    let named: Vec<u8> = hands.iter().map(|&(p, _)| p).collect();
    for &p in &named {
        assert!(
            p < s.players,
            "seat {p} is not in a {}-seat game",
            s.players
        );
        for c in s.zones[zone_inst(engine, "hand", p)].clone() {
            put_on(engine, &mut s, c, "stock", 0);
        }
    }
    let wanted: Vec<&str> = hands
        .iter()
        .flat_map(|&(_, cs)| cs.iter().copied())
        .collect();
    for &(p, cards) in hands {
        for &label in cards {
            let in_shared = (0..s.locs.len() as u16).any(|c| {
                card(engine, c) == label
                    && matches!(s.locs[c as usize], Loc::Zone(z)
                        if z as usize == zone_inst(engine, "stock", 0)
                            || z as usize == zone_inst(engine, "discard_pile", 0))
            });
            let c = if in_shared {
                find_card(engine, &s, label, &["stock", "discard_pile"], &[])
            } else {
                // In an unnamed seat's hand: swap it for a stock card nobody asked for.
                let (holder, c) = (0..s.players)
                    .filter(|q| !named.contains(q))
                    .find_map(|q| {
                        s.zones[zone_inst(engine, "hand", q)]
                            .iter()
                            .find(|&&c| card(engine, c) == label)
                            .map(|&c| (q, c))
                    })
                    .unwrap_or_else(|| panic!("no card {label} left to give seat {p}"));
                let swap = *s.zones[zone_inst(engine, "stock", 0)]
                    .iter()
                    .rev()
                    .find(|&&x| !wanted.contains(&card(engine, x).as_str()))
                    .expect("a stock card to swap in");
                put_on(engine, &mut s, swap, "hand", holder);
                c
            };
            put_on(engine, &mut s, c, "hand", p);
        }
    }
    s.phase = phase_id(engine, phase);
    s.turn_seat = turn_seat;
    s.step = step;
    s.phase_turns = 0;
    s.outcome = None;
    s
}

/// A combat position in a fresh `players`-seat game (seed 1): `attacker` to attack, with
/// `hands` as in `chips_position`, no suit used yet and no minimum.
pub fn combat(engine: &Engine, players: u8, attacker: u8, hands: &[(u8, &[&str])]) -> State {
    let base = chips_start(engine, players, 1);
    let mut s = chips_position(engine, &base, "combat", attacker, 0, hands);
    set_global(engine, &mut s, "min_attack", Value::Int(0));
    set_global(engine, &mut s, "last_suit", Value::None);
    s
}

/// Puts the cards `top_first` on top of the stock, the first of them on the very top (the
/// next card dealt). They are taken from the stock or the discard pile.
pub fn stack_stock(engine: &Engine, s: &mut State, top_first: &[&str]) {
    let mut taken = Vec::new();
    for &label in top_first {
        let c = find_card(engine, s, label, &["stock", "discard_pile"], &taken);
        taken.push(c);
    }
    for &c in taken.iter().rev() {
        put_on(engine, s, c, "stock", 0);
    }
}

/// Moves the bottom cards of the stock onto the discard pile until `left` remain.
pub fn thin_stock(engine: &Engine, s: &mut State, left: usize) {
    let stock = zone_inst(engine, "stock", 0);
    while s.zones[stock].len() > left {
        let c = s.zones[stock][0];
        put_on(engine, s, c, "discard_pile", 0);
    }
}

// ---- Battle Line -------------------------------------------------------------------

/// Battle Line's seats: White (forward n, ranks 1-3) moves first; Black is `BLACK` (1).
pub const WHITE: u8 = 0;

/// Compiles `games/battle_line.muster`, panicking with the rendered diagnostics if it fails.
pub fn compile_battle_line() -> Compiled {
    match compile_file(&repo_path("games/battle_line.muster"), None) {
        Ok(c) => c,
        Err(f) => panic!(
            "battle_line does not compile:\n{}",
            muster::diagnostic::render(&f.sources, &f.diagnostics, false)
        ),
    }
}

pub fn bl_engine() -> Engine {
    Engine::new(compile_battle_line().game)
}

/// A Battle Line engine whose games stop after `max_turns` turns (the engine holds the game
/// behind an `Arc`, so the cap is set on the compiled game before the engine is built).
pub fn bl_engine_capped(max_turns: u32) -> Engine {
    let mut compiled = compile_battle_line();
    compiled.game.max_turns = max_turns;
    Engine::new(compiled.game)
}

/// A two-player game of Battle Line from the set-up, seeded with `seed`.
pub fn bl_start(engine: &Engine, seed: u64) -> State {
    engine
        .start(2, seed)
        .expect("battle line seats two players")
}

/// A piece's rank, as the rules file names it (`king`, `light_machine`, ...).
pub fn bl_rank(engine: &Engine, comp: u16) -> String {
    match &engine.game.components[comp as usize].attrs[attr_index(engine, "rank")] {
        Value::Enum(e, v) => engine.game.enums[*e as usize].values[*v as usize].0.clone(),
        other => panic!("rank is not an enum: {other:?}"),
    }
}

/// What stands on a cell: its owner and rank.
pub fn bl_at(engine: &Engine, s: &State, name: &str) -> Option<(u8, String)> {
    let c = s.cells[cell(engine, name) as usize];
    (c != NONE).then(|| (s.owners[c as usize], bl_rank(engine, c)))
}

/// The component on a cell; panics if the cell is empty.
pub fn comp_on(engine: &Engine, s: &State, name: &str) -> u16 {
    let c = s.cells[cell(engine, name) as usize];
    assert_ne!(c, NONE, "{name} is empty");
    c
}

/// A per-piece var of a component (`used`, `relayed`, `moved`, `in_touch`).
pub fn piece_var(engine: &Engine, s: &State, comp: u16, name: &str) -> Value {
    let i = var_id(engine, name);
    assert!(
        engine.game.vars[i].per_piece,
        "{name} is not a per-piece var"
    );
    s.comp_vars[comp as usize * engine.game.vars.len() + i].clone()
}

/// The same for the piece on a cell.
pub fn var_on(engine: &Engine, s: &State, cell_name: &str, name: &str) -> Value {
    piece_var(engine, s, comp_on(engine, s, cell_name), name)
}

pub fn set_piece_var(engine: &Engine, s: &mut State, comp: u16, name: &str, v: Value) {
    let i = var_id(engine, name);
    assert!(
        engine.game.vars[i].per_piece,
        "{name} is not a per-piece var"
    );
    s.comp_vars[comp as usize * engine.game.vars.len() + i] = v;
}

/// A per-seat var (`first_turn`).
pub fn seat_var(engine: &Engine, s: &State, seat: u8, name: &str) -> Value {
    let i = var_id(engine, name);
    assert!(engine.game.vars[i].per_seat, "{name} is not a per-seat var");
    s.seat_vars[seat as usize * engine.game.vars.len() + i].clone()
}

pub fn set_seat_var(engine: &Engine, s: &mut State, seat: u8, name: &str, v: Value) {
    let i = var_id(engine, name);
    assert!(engine.game.vars[i].per_seat, "{name} is not a per-seat var");
    s.seat_vars[seat as usize * engine.game.vars.len() + i] = v;
}

/// The id of an action by its name.
pub fn action_id(engine: &Engine, name: &str) -> u16 {
    engine
        .game
        .actions
        .iter()
        .position(|a| a.name == name)
        .unwrap_or_else(|| panic!("no action {name}")) as u16
}

/// How many components stand on the board.
pub fn on_board(s: &State) -> usize {
    s.cells.iter().filter(|&&c| c != NONE).count()
}

/// A Battle Line position built by hand, `to_move` to play at the start of its turn.
///
/// From a fresh game (seed 1) every piece on the board goes back to its seat's `troops`
/// zone; then each `(cell, seat, rank)` gets a piece of that rank from the seat's troops.
/// Every per-piece var is reset to its initial value, `active` to none, `moves_made` and
/// `passes` to 0, and both seats' `first_turn` to false. The position is then handed to
/// `to_move` the way the game does it: the other seat plays `end_turn` (applied without the
/// check test, so that seat's king may stand attacked), which runs `to_move`'s `before
/// turn` (the per-turn vars and who is in touch) and the engine's stuck rule: a seat with
/// nothing it may do loses at once. `passes` is put back to 0 afterwards. Spare captains
/// stay in `spares`; `captured` and `promoted` start empty.
pub fn bl_position(engine: &Engine, to_move: u8, pieces: &[(&str, u8, &str)]) -> State {
    let mut s = bl_start(engine, 1);
    for at in 0..s.cells.len() {
        let c = s.cells[at];
        if c != NONE {
            let owner = s.owners[c as usize];
            put_on(engine, &mut s, c, "troops", owner);
        }
    }
    for &(name, seat, rank) in pieces {
        let at = cell(engine, name);
        assert_eq!(s.cells[at as usize], NONE, "two pieces placed on {name}");
        let troops = zone_inst(engine, "troops", seat);
        let pos = s.zones[troops]
            .iter()
            .position(|&c| bl_rank(engine, c) == rank)
            .unwrap_or_else(|| panic!("no {rank} of seat {seat} left for {name}"));
        let comp = s.zones[troops].remove(pos);
        s.cells[at as usize] = comp;
        s.locs[comp as usize] = Loc::Cell(at);
        s.owners[comp as usize] = seat;
    }
    for z in ["captured", "promoted"] {
        for p in [WHITE, BLACK] {
            assert!(s.zones[zone_inst(engine, z, p)].is_empty());
        }
    }
    // Every per-piece var back to its initial value (a constant in this rules file).
    let n = engine.game.vars.len();
    for (i, v) in engine.game.vars.iter().enumerate() {
        if v.per_piece {
            let muster::ir::Expr::Const(init) = &v.init else {
                panic!("per-piece var {} starts at a non-constant", v.name)
            };
            for comp in 0..s.locs.len() {
                s.comp_vars[comp * n + i] = init.clone();
            }
        }
    }
    set_global(engine, &mut s, "active", Value::None);
    set_global(engine, &mut s, "moves_made", Value::Int(0));
    set_global(engine, &mut s, "passes", Value::Int(0));
    for p in [WHITE, BLACK] {
        set_seat_var(engine, &mut s, p, "first_turn", Value::Bool(false));
    }
    s.turn_seat = 1 - to_move;
    s.step = 0;
    s.reactions.clear();
    s.ending_turn = false;
    s.outcome = None;
    let end = muster::engine::Action {
        action: action_id(engine, "end_turn"),
        args: vec![],
    };
    engine
        .apply_listed(&mut s, &end)
        .unwrap_or_else(|e| panic!("cannot hand the turn over: {e}"));
    assert_eq!(consistency_problem(&s), None);
    if s.outcome.is_none() {
        assert_eq!(s.turn_seat, to_move);
        set_global(engine, &mut s, "passes", Value::Int(0));
    }
    s
}

/// Where the piece on `at` may move, as sorted cell names: the `go` actions offered when
/// that piece is the active one, read from the engine's legal actions. The piece is made
/// active directly (the `movement` reaction opened for its owner, as `activate` does), so
/// no leader has to stand on the board. Panics if a square is offered twice.
pub fn bl_destinations(engine: &Engine, s: &State, at: &str) -> Vec<String> {
    assert_eq!(s.outcome, None, "the game is over");
    let comp = comp_on(engine, s, at);
    let mut t = s.clone();
    t.turn_seat = s.owners[comp as usize];
    set_global(engine, &mut t, "active", Value::Comp(comp));
    let movement = engine
        .game
        .reactions
        .iter()
        .position(|r| r.name == "movement")
        .expect("a reaction `movement`") as u16;
    t.reactions = vec![(movement, action_id(engine, "activate"))];
    let mut dests: Vec<String> = legal_texts(engine, &t)
        .iter()
        .map(|a| {
            a.strip_prefix("go ")
                .unwrap_or_else(|| panic!("`{a}` offered while a piece moves"))
                .to_string()
        })
        .collect();
    let n = dests.len();
    dests.sort();
    dests.dedup();
    assert_eq!(dests.len(), n, "{at}: a square is offered twice");
    dests
}

/// The texts of the legal actions that start with `prefix`.
pub fn legal_starting(engine: &Engine, s: &State, prefix: &str) -> Vec<String> {
    legal_texts(engine, s)
        .into_iter()
        .filter(|t| t.starts_with(prefix))
        .collect()
}
