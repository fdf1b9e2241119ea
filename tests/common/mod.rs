//! Shared helpers for the game tests: compiling a game, starting seeded games, building
//! positions by hand, and playing or refusing actions written in notation. The first part
//! serves Army Ants (and its variants); the second (`chips_*`) Battalion, the chip game; the
//! third (`bat_*`, `Table`) Battaglione; the fourth (`bl_*`) Battle Line; `emperor.rs`
//! Battalion, the emperor game (`em_*`).
#![allow(dead_code)]

pub mod binary;
pub mod emperor;

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

/// Every shipped game (`games/NAME.muster`), by name, in order.
pub fn shipped_games() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(repo_path("games"))
        .expect("games/")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            Some(name.strip_suffix(".muster")?.to_string())
        })
        .collect();
    names.sort();
    names
}

/// Every shipped game, each first as it is and then with each variant its file declares.
pub fn shipped_games_and_variants() -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    for name in shipped_games() {
        let text = std::fs::read_to_string(repo_path(&format!("games/{name}.muster"))).unwrap();
        let variants = text.lines().filter_map(|l| {
            l.strip_prefix("variant ")
                .and_then(|r| r.split_whitespace().next())
        });
        out.push((name.clone(), None));
        out.extend(variants.map(|v| (name.clone(), Some(v.to_string()))));
    }
    out
}

/// The rules files of the constructs (`tests/constructs/`) and of the other tests.
pub fn construct_files() -> Vec<String> {
    let dir = repo_path("tests/constructs");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/constructs/")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.ends_with(".muster")
                .then(|| format!("tests/constructs/{name}"))
        })
        .collect();
    files.sort();
    files.extend([
        "tests/pawn_race.muster".into(),
        "tests/variant_lists.muster".into(),
    ]);
    files
}

/// Compiles a rules file of the repository (with a variant, if given), panicking with the
/// rendered diagnostics if it fails.
pub fn compile_file_or_panic(rel: &str, variant: Option<&str>) -> Compiled {
    match compile_file(&repo_path(rel), variant) {
        Ok(c) => c,
        Err(f) => panic!(
            "{rel} does not compile:\n{}",
            muster::diagnostic::render(&f.sources, &f.diagnostics, false)
        ),
    }
}

/// Compiles rules written in a test (`name` for the messages), panicking with the rendered
/// diagnostics if they fail.
pub fn compile_source_or_panic(name: &str, rules: &str) -> Compiled {
    muster::check::compile_source(name, rules, None).unwrap_or_else(|f| {
        panic!(
            "{name} does not compile:\n{}",
            muster::diagnostic::render(&f.sources, &f.diagnostics, false)
        )
    })
}

/// Compiles `games/army_ants.muster`, panicking with the rendered diagnostics if it fails.
pub fn compile_army_ants() -> Compiled {
    compile_file_or_panic("games/army_ants.muster", None)
}

pub fn engine() -> Engine {
    Engine::new(compile_army_ants().game)
}

/// Army Ants played by one of its variants (`minor_deployment`, `total_deployment`).
pub fn variant_engine(variant: &str) -> Engine {
    Engine::new(compile_file_or_panic("games/army_ants.muster", Some(variant)).game)
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
    for c in 0..s.cells.len() as u16 {
        s.set_cell(c, NONE);
    }
    for z in s.zones.iter_mut() {
        z.clear();
    }
    for comp in 0..s.locs.len() {
        s.zones[boxed].push(comp as u16);
        s.locs[comp] = Loc::Zone(boxed as u16);
        s.set_owner(comp as u16, NO_SEAT);
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
        s.set_owner(comp, seat);
        s.locs[comp as usize] = Loc::Cell(at);
        s.set_cell(at, comp);
    }
    s.phase = phase;
    s.turn_seat = to_move;
    s.step = 0;
    s.outcome = None;
    s.reindex();
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

/// The argument texts of the legal actions named `name` (`name a1 a2` gives `a1 a2`),
/// sorted.
pub fn args_of(engine: &Engine, s: &State, name: &str) -> Vec<String> {
    let prefix = format!("{name} ");
    let mut args: Vec<String> = legal_texts(engine, s)
        .into_iter()
        .filter_map(|t| t.strip_prefix(&prefix).map(str::to_string))
        .collect();
    args.sort();
    args
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
    if let Some(c) = seen.iter().position(|&k| k != 1) {
        return Some(format!("component {c} is in {} places", seen[c]));
    }
    (!s.index_agrees()).then(|| "the index of occupied cells disagrees with the cells".into())
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
    compile_file_or_panic("games/battalion_chips.muster", None)
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
        Loc::Cell(c) => s.set_cell(c, NONE),
    }
    s.zones[inst].push(comp);
    s.locs[comp as usize] = Loc::Zone(inst as u16);
    let per_seat = engine.game.zones[zone_id(engine, zone) as usize].per_seat;
    s.set_owner(comp, if per_seat { seat } else { NO_SEAT });
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
    s.reindex();
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

// ---- Battaglione -------------------------------------------------------------------

/// Compiles `games/battaglione.muster`, with `variant` applied if given, panicking with the
/// rendered diagnostics if it fails.
pub fn compile_battaglione(variant: Option<&str>) -> Compiled {
    compile_file_or_panic("games/battaglione.muster", variant)
}

/// The base game of Battaglione.
pub fn bat_engine() -> Engine {
    Engine::new(compile_battaglione(None).game)
}

/// Battaglione played by the `super_captain` variant.
pub fn super_engine() -> Engine {
    Engine::new(compile_battaglione(Some("super_captain")).game)
}

/// A game of Battaglione for `players` seats, dealt with `seed`.
pub fn bat_start(engine: &Engine, players: u8, seed: u64) -> State {
    engine
        .start(players, seed)
        .unwrap_or_else(|e| panic!("cannot start {players} players: {e}"))
}

/// The zone instance of a seat's patrol number `n` (1 to 12, as the notation counts).
pub fn patrol_inst(engine: &Engine, seat: u8, n: u16) -> usize {
    assert!(
        (1..=12).contains(&n),
        "patrols are numbered 1 to 12, not {n}"
    );
    engine.zone_instance(zone_id(engine, "patrol"), seat, n - 1) as usize
}

/// The labels of a seat's patrol number `n`, bottom (first laid) first.
pub fn patrol(engine: &Engine, s: &State, seat: u8, n: u16) -> Vec<String> {
    s.zones[patrol_inst(engine, seat, n)]
        .iter()
        .map(|&c| card(engine, c))
        .collect()
}

/// A seat's twelve patrols as labels, the empty ones at the end left out (empty ones
/// between others are kept, as `[]`).
pub fn patrols(engine: &Engine, s: &State, seat: u8) -> Vec<Vec<String>> {
    let mut all: Vec<Vec<String>> = (1..=12).map(|n| patrol(engine, s, seat, n)).collect();
    while all.last().is_some_and(|p| p.is_empty()) {
        all.pop();
    }
    all
}

/// A seat's arsenal as labels, in the order the cards arrived.
pub fn arsenal(engine: &Engine, s: &State, seat: u8) -> Vec<String> {
    cards_in(engine, s, "arsenal", seat)
}

/// A per-seat var's value for one seat.
pub fn seat_var(engine: &Engine, s: &State, name: &str, seat: u8) -> Value {
    let i = var_id(engine, name);
    assert!(engine.game.vars[i].per_seat, "{name} is a global var");
    s.seat_vars[seat as usize * engine.game.vars.len() + i].clone()
}

pub fn set_seat_var(engine: &Engine, s: &mut State, name: &str, seat: u8, v: Value) {
    let i = var_id(engine, name);
    assert!(engine.game.vars[i].per_seat, "{name} is a global var");
    s.seat_vars[seat as usize * engine.game.vars.len() + i] = v;
}

/// Every seat's `total`, in seat order.
pub fn totals(engine: &Engine, s: &State) -> Vec<i64> {
    (0..s.players)
        .map(|p| seat_var(engine, s, "total", p).as_int())
        .collect()
}

/// Moves `comp` from wherever it is to the top of zone instance `inst`, keeping `locs` and
/// `owners` in step (per-seat zones belong to their seat; shared zones to nobody).
pub fn put_in(engine: &Engine, s: &mut State, comp: u16, inst: usize) {
    if let Loc::Zone(z) = s.locs[comp as usize] {
        let from = &mut s.zones[z as usize];
        let i = from
            .iter()
            .position(|&c| c == comp)
            .unwrap_or_else(|| panic!("component {comp} is not where locs says"));
        from.remove(i);
    }
    s.zones[inst].push(comp);
    s.locs[comp as usize] = Loc::Zone(inst as u16);
    let (z, seat, _) = engine.zone_of_instance(inst as u16);
    let per_seat = engine.game.zones[z as usize].per_seat;
    s.set_owner(comp, if per_seat { seat } else { NO_SEAT });
}

/// What a hand-built Battaglione position holds; anything left out is empty, and every
/// card not named goes to the stock.
#[derive(Default, Clone, Copy)]
pub struct Table<'a> {
    /// Each named seat's hand, in hand order.
    pub hands: &'a [(u8, &'a [&'a str])],
    /// Each named seat's arsenal (face down).
    pub arsenals: &'a [(u8, &'a [&'a str])],
    /// Each named seat's patrols from patrol 1 on, each bottom (first laid) first; an empty
    /// list leaves that patrol empty.
    pub patrols: &'a [(u8, &'a [&'a [&'a str]])],
    /// The discard pile, bottom first (the last is the top card).
    pub discard: &'a [&'a str],
    /// The next cards of the stock, the first on the very top (the next one drawn).
    pub stock_top: &'a [&'a str],
}

/// A Battaglione position built by hand from `base`: every card goes back to the stock (in
/// the order `base` had them, the stock's own cards on top), then each card `table` names is
/// taken from the stock to its place; `stock_top` is stacked last. Twins are distinct
/// cards: `["Sr", "Sr"]` is two red soldiers. Arsenal cards are face down, the rest face up.
/// `turn_seat` is to play at `step` (0 draw, 1 lay/attack, 2 discard), with no attack
/// pending, no outcome and the battle going on; other vars keep `base`'s values (see
/// `set_global`, `set_seat_var`).
pub fn bat_position(
    engine: &Engine,
    base: &State,
    turn_seat: u8,
    step: u16,
    table: &Table,
) -> State {
    let mut s = base.clone();
    let stock = zone_inst(engine, "stock", 0);
    // The stock's cards keep their order on top; every other card goes beneath them.
    let mut order: Vec<u16> = Vec::new();
    for (inst, z) in base.zones.iter().enumerate() {
        if inst != stock {
            order.extend(z.iter().copied());
        }
    }
    order.extend(base.zones[stock].iter().copied());
    for z in s.zones.iter_mut() {
        z.clear();
    }
    for &c in &order {
        s.zones[stock].push(c);
        s.locs[c as usize] = Loc::Zone(stock as u16);
        s.set_owner(c, NO_SEAT);
        s.face_up[c as usize] = true;
    }
    assert_eq!(
        order.len(),
        s.locs.len(),
        "a card of the base is on no zone"
    );
    let take = |s: &mut State, label: &str, inst: usize| {
        let c = *s.zones[stock]
            .iter()
            .rev()
            .find(|&&c| card(engine, c) == label)
            .unwrap_or_else(|| panic!("no card {label} left in the stock"));
        put_in(engine, s, c, inst);
        c
    };
    for &(p, cards) in table.hands {
        assert!(
            p < s.players,
            "seat {p} is not in a {}-seat game",
            s.players
        );
        for &label in cards {
            take(&mut s, label, zone_inst(engine, "hand", p));
        }
    }
    for &(p, cards) in table.arsenals {
        assert!(
            p < s.players,
            "seat {p} is not in a {}-seat game",
            s.players
        );
        for &label in cards {
            let c = take(&mut s, label, zone_inst(engine, "arsenal", p));
            s.face_up[c as usize] = false;
        }
    }
    for &(p, ps) in table.patrols {
        assert!(
            p < s.players,
            "seat {p} is not in a {}-seat game",
            s.players
        );
        for (i, cards) in ps.iter().enumerate() {
            for &label in cards.iter() {
                take(&mut s, label, patrol_inst(engine, p, i as u16 + 1));
            }
        }
    }
    let discard = zone_inst(engine, "discard_pile", 0);
    for &label in table.discard {
        take(&mut s, label, discard);
    }
    let mut stacked = Vec::new();
    for &label in table.stock_top {
        let c = *s.zones[stock]
            .iter()
            .rev()
            .find(|&&c| card(engine, c) == label && !stacked.contains(&c))
            .unwrap_or_else(|| panic!("no card {label} left in the stock"));
        stacked.push(c);
    }
    for &c in stacked.iter().rev() {
        put_in(engine, &mut s, c, stock);
    }
    s.turn_seat = turn_seat;
    s.step = step;
    s.phase_turns = 0;
    s.outcome = None;
    s.reactions.clear();
    set_global(engine, &mut s, "battle_over", Value::Bool(false));
    set_global(engine, &mut s, "closer", Value::None);
    set_global(engine, &mut s, "attacked", Value::None);
    set_global(
        engine,
        &mut s,
        "targets",
        Value::List(muster::ir::Items::new()),
    );
    assert_eq!(consistency_problem(&s), None);
    s
}

/// A Battaglione action written in notation, read for the seat that decides now. A listed
/// action is found by its exact text; any other is built here, so that a refusal can name
/// the rule it breaks (`parse_action` reads a card label as the lowest-numbered card so
/// labelled, wherever it is, and cannot read a patrol): a card is the first one so
/// labelled in the decider's hand, then its arsenal, then on the table, then anywhere
/// else; a set of cards (`Sr+Sr+Sy`) is taken from the decider's hand the way `subsets`
/// lists it (twins earliest first, grouped in hand order); a patrol is written
/// `patrol2@P1`; a seat by its name.
pub fn bat_action(engine: &Engine, s: &State, text: &str) -> muster::engine::Action {
    use muster::ir::{Clause, Type};
    if let Some(a) = engine
        .legal_actions(s)
        .into_iter()
        .find(|a| engine.action_text(s, a) == text)
    {
        return a;
    }
    let me = engine.decider(s).expect("a game not over has a decider");
    let words: Vec<&str> = text.split_whitespace().collect();
    let id = engine
        .game
        .actions
        .iter()
        .position(|a| a.name == words[0])
        .unwrap_or_else(|| panic!("no action {}", words[0]));
    let types: Vec<&Type> = engine.game.actions[id]
        .clauses
        .iter()
        .filter_map(|c| match c {
            Clause::Choose { ty, .. } => Some(ty),
            _ => None,
        })
        .collect();
    assert_eq!(
        types.len(),
        words.len() - 1,
        "`{text}`: wrong argument count"
    );
    let hand_i = zone_inst(engine, "hand", me);
    let arsenal_i = zone_inst(engine, "arsenal", me);
    // Where a card named alone is looked for: the decider's hand and arsenal, then the
    // patrols on the table (seat order), then anywhere.
    let patrol_z = zone_id(engine, "patrol");
    let mut places = vec![hand_i, arsenal_i];
    places.extend((0..s.zones.len()).filter(|&i| engine.zone_of_instance(i as u16).0 == patrol_z));
    let rest: Vec<usize> = (0..s.zones.len()).filter(|i| !places.contains(i)).collect();
    places.extend(rest);
    let one = |label: &str, taken: &[u16]| -> u16 {
        places
            .iter()
            .find_map(|&i| {
                s.zones[i]
                    .iter()
                    .find(|&&c| card(engine, c) == label && !taken.contains(&c))
                    .copied()
            })
            .unwrap_or_else(|| panic!("`{text}`: no card {label}"))
    };
    let args = types
        .iter()
        .zip(&words[1..])
        .map(|(ty, w)| match ty {
            Type::Seat => Value::Seat(
                engine
                    .game
                    .seats
                    .iter()
                    .position(|x| x.name == *w)
                    .unwrap_or_else(|| panic!("no seat {w}")) as u8,
            ),
            Type::Zone => {
                let (name, seat) = w.split_once('@').expect("a patrol as patrolN@Pk");
                let n: u16 = name.trim_start_matches("patrol").parse().expect("patrolN");
                let seat = engine
                    .game
                    .seats
                    .iter()
                    .position(|x| x.name == seat)
                    .unwrap() as u8;
                Value::Zone(zone_id(engine, "patrol"), seat, n - 1)
            }
            Type::Comp => Value::Comp(one(w, &[])),
            Type::List(_) => {
                let labels: Vec<&str> = w.split('+').collect();
                let hand = &s.zones[hand_i];
                let all_in_hand = labels.iter().all(|l| {
                    hand.iter().filter(|&&c| card(engine, c) == *l).count()
                        >= labels.iter().filter(|x| *x == l).count()
                });
                let mut chosen = Vec::new();
                if all_in_hand {
                    // Hand order of each label's first appearance, twins together.
                    let mut groups: Vec<String> = Vec::new();
                    for &c in hand {
                        let l = card(engine, c);
                        if !groups.contains(&l) {
                            groups.push(l);
                        }
                    }
                    for g in groups {
                        let want = labels.iter().filter(|l| **l == g).count();
                        chosen.extend(
                            hand.iter()
                                .filter(|&&c| card(engine, c) == g)
                                .take(want)
                                .copied(),
                        );
                    }
                } else {
                    for l in labels {
                        let c = one(l, &chosen);
                        chosen.push(c);
                    }
                }
                Value::List(chosen.into_iter().map(Value::Comp).collect())
            }
            other => panic!("`{text}`: cannot read a {other:?}"),
        })
        .collect();
    muster::engine::Action {
        action: id as u16,
        args,
    }
}

/// Why a Battaglione action (see `bat_action`) is refused here; panics if it is legal, or
/// if `apply` accepts it anyway.
pub fn bat_refused(engine: &Engine, s: &State, text: &str) -> String {
    let a = bat_action(engine, s, text);
    let why = engine
        .why_illegal(s, &a)
        .unwrap_or_else(|| panic!("`{text}` is legal here"));
    assert!(
        engine.apply(&mut s.clone(), &a).is_err(),
        "`{text}` is refused by why_illegal but apply accepts it"
    );
    why
}

/// Every component's place for a conservation check: each of the 100 cards is in exactly
/// one zone, and the zones hold 100 cards.
pub fn bat_conserved(s: &State) -> Option<String> {
    if let Some(p) = consistency_problem(s) {
        return Some(p);
    }
    let n: usize = s.zones.iter().map(Vec::len).sum();
    (n != 100).then(|| format!("the zones hold {n} cards, not 100"))
}

/// Makes the stock hold exactly `top_first` (the first on the very top), taken from the stock
/// or the discard pile; every other stock card goes onto the discard pile, in stock order.
pub fn bat_stock(engine: &Engine, s: &mut State, top_first: &[&str]) {
    let stock = zone_inst(engine, "stock", 0);
    let discard = zone_inst(engine, "discard_pile", 0);
    let mut kept: Vec<u16> = Vec::new();
    for &label in top_first {
        let c = [stock, discard]
            .iter()
            .find_map(|&z| {
                s.zones[z]
                    .iter()
                    .rev()
                    .find(|&&c| card(engine, c) == label && !kept.contains(&c))
                    .copied()
            })
            .unwrap_or_else(|| panic!("no card {label} in the stock or the discard pile"));
        kept.push(c);
    }
    for c in s.zones[stock].clone() {
        if !kept.contains(&c) {
            put_in(engine, s, c, discard);
        }
    }
    for &c in kept.iter().rev() {
        put_in(engine, s, c, stock);
    }
}

/// A card's printed points.
pub fn points(engine: &Engine, comp: u16) -> i64 {
    match engine.game.components[comp as usize].attrs[attr_index(engine, "points")] {
        Value::Int(p) => p,
        ref other => panic!("points is not a number: {other:?}"),
    }
}

// ---- Battle Line -------------------------------------------------------------------

/// Battle Line's seats: White (forward n, ranks 1-3) moves first; Black is `BLACK` (1).
pub const WHITE: u8 = 0;

/// Compiles `games/battle_line.muster`, panicking with the rendered diagnostics if it fails.
pub fn compile_battle_line() -> Compiled {
    compile_file_or_panic("games/battle_line.muster", None)
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
pub fn bl_seat_var(engine: &Engine, s: &State, seat: u8, name: &str) -> Value {
    let i = var_id(engine, name);
    assert!(engine.game.vars[i].per_seat, "{name} is not a per-seat var");
    s.seat_vars[seat as usize * engine.game.vars.len() + i].clone()
}

pub fn bl_set_seat_var(engine: &Engine, s: &mut State, seat: u8, name: &str, v: Value) {
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
        s.set_owner(comp, seat);
        s.locs[comp as usize] = Loc::Cell(at);
        s.set_cell(at, comp);
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
        bl_set_seat_var(engine, &mut s, p, "first_turn", Value::Bool(false));
    }
    s.turn_seat = 1 - to_move;
    s.step = 0;
    s.reactions.clear();
    s.ending_turn = false;
    s.outcome = None;
    let end = muster::engine::Action {
        action: action_id(engine, "end_turn"),
        args: Default::default(),
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
