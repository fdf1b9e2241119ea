//! Routes: a move by a pattern taken a part at a time. On many random positions of a small
//! board holding pieces with every kind of pattern (leapers, riders limited and unlimited,
//! legs with `then`, `then?`, `same` and `any`, moves only and captures only), a whole move by a route ends exactly where
//! `destinations` says; a move paused on a waypoint and then finished ends only where the
//! whole move could; and `passed` gives the squares a rider crosses.

mod common;

use common::args_of;
use muster::check::compile_source;
use muster::engine::{Engine, Loc, State, NONE};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

const RULES: &str = r#"
game "Routes" { players 2 }
seat A { forward: n }
seat B { forward: s }
kind Piece {
  moves: pattern
  label "P{owner}"
}
pattern step = K
pattern sergeant_move = fW | fF
pattern colonel_move = Q3
pattern marshall_move = K then? any K then? any K | (D | A) then? any K | K then any (D | A)
pattern greater_move = (W | F | D | A) then? same (W | F | D | A)
pattern light_machine_move = (W | D) then? any (W | D)
pattern heavy_elephant_move = (F | A) then? same (F | A)
pattern minister_move = N | D | W
pattern rook = R
pattern nightrider = NN
pattern rook_then_step = R then K
pattern pawn_like = mfW | cfF
pattern capture_rider = cR | mK
pattern move_then_take = mR then? cK
deck army of Piece {
  card { moves: step }
  card { moves: sergeant_move }
  card { moves: colonel_move }
  card { moves: marshall_move }
  card { moves: greater_move }
  card { moves: light_machine_move }
  card { moves: heavy_elephant_move }
  card { moves: minister_move }
  card { moves: rook }
  card { moves: nightrider }
  card { moves: rook_then_step }
  card { moves: pawn_like }
  card { moves: capture_rider }
  card { moves: move_then_take }
}
board grid 9 x 9 {
  region middle = e5..e5
}
zone box per seat public { holds army }
var way per piece: route = none
phase play {
  turn { one of whole, by_route, pause, finish }
}
action whole {
  choose from in cells_of(me)
  choose dest in destinations(from, from.piece.moves)
  do { move from.piece to dest }
}
action by_route {
  choose from in cells_of(me)
  choose dest in finishes(route(from, from.piece.moves))
  do { move from.piece to dest }
}
action pause {
  choose from in cells_of(me)
  require from.piece.way == none
  choose dest in waypoints(route(from, from.piece.moves))
  do {
    from.piece.way = advance(route(from, from.piece.moves), dest)
    move from.piece to dest
  }
}
action finish {
  choose from in [x in cells_of(me) where x.piece.way != none]
  choose dest in finishes(from.piece.way)
  do {
    from.piece.way = none
    move from.piece to dest
  }
}
end { on stuck pass }
"#;

fn engine() -> Engine {
    match compile_source("routes.muster", RULES, None) {
        Ok(c) => Engine::new(c.game),
        Err(f) => panic!(
            "{}",
            muster::diagnostic::render(&f.sources, &f.diagnostics, false)
        ),
    }
}

/// A random position: each seat's pieces on random cells, about as many as `fill` asks.
fn position(e: &Engine, seed: u64, fill: usize) -> State {
    let mut s = e.start(2, seed).expect("two players");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut cells: Vec<u16> = (0..s.cells.len() as u16).collect();
    cells.shuffle(&mut rng);
    let mut comps: Vec<u16> = (0..s.locs.len() as u16).collect();
    comps.shuffle(&mut rng);
    for (k, (&comp, &at)) in comps.iter().zip(&cells).take(fill).enumerate() {
        let Loc::Zone(z) = s.locs[comp as usize] else {
            unreachable!()
        };
        s.zones[z as usize].retain(|&c| c != comp);
        s.set_owner(comp, (k % 2) as u8);
        s.locs[comp as usize] = Loc::Cell(at);
        s.set_cell(at, comp);
    }
    s.turn_seat = rng.gen_range(0..2);
    s.step = 0;
    // With nothing on the board the game ended at once; the position is a fresh one.
    s.outcome = None;
    s
}

#[test]
fn a_whole_move_by_a_route_ends_where_destinations_says() {
    let e = engine();
    let mut compared = 0;
    for seed in 0..300u64 {
        let s = position(&e, seed, 6 + (seed as usize % 17));
        let whole = args_of(&e, &s, "whole");
        assert_eq!(args_of(&e, &s, "by_route"), whole, "seed {seed}");
        compared += whole.len();
    }
    assert!(compared > 5_000, "only {compared} moves compared");
}

// A move paused on a waypoint and finished later ends only where the whole move could have
// ended (on the same board), and every end of the whole move that lies beyond a waypoint
// is reached from some waypoint.
#[test]
fn a_paused_move_finishes_only_where_the_whole_move_could() {
    let e = engine();
    let mut paused = 0;
    for seed in 0..120u64 {
        let s = position(&e, seed, 8 + (seed as usize % 9));
        let whole = args_of(&e, &s, "whole");
        for p in args_of(&e, &s, "pause") {
            let (from, via) = p.split_once(' ').unwrap();
            let mut t = s.clone();
            let a = e.parse_action(&t, &format!("pause {from} {via}")).unwrap();
            e.apply(&mut t, &a).unwrap();
            // Hand the turn back to the same seat to finish the move.
            t.turn_seat = s.turn_seat;
            t.step = 0;
            for f in args_of(&e, &t, "finish") {
                let (at, dest) = f.split_once(' ').unwrap();
                assert_eq!(at, via, "seed {seed}");
                let occupied_by_mover = s.cells[cell(&e, dest) as usize] != NONE
                    && s.owners[s.cells[cell(&e, dest) as usize] as usize] == s.turn_seat;
                assert!(
                    whole.contains(&format!("{from} {dest}")) || occupied_by_mover || dest == from,
                    "seed {seed}: {from} paused on {via} finishes on {dest}, not a whole move's end"
                );
                assert_ne!(dest, from, "a move never ends where it began");
                paused += 1;
            }
        }
    }
    assert!(paused > 1_000, "only {paused} paused moves finished");
}

fn cell(e: &Engine, name: &str) -> u16 {
    e.game
        .board
        .cells
        .iter()
        .position(|c| c.name == name)
        .unwrap() as u16
}

// A colonel's slide of 3 is paused after 1 square: 2 more squares, the same way.
#[test]
fn a_paused_rider_goes_on_in_its_line_for_what_is_left() {
    let e = engine();
    let mut s = e.start(2, 1).unwrap();
    s.outcome = None;
    // The colonel's pattern is the third card of A's army.
    let colonel = s.zones.iter().flatten().copied().find(|&c| {
        e.game.components[c as usize]
            .attrs
            .contains(&muster::ir::Value::Pattern(2))
    });
    let colonel = colonel.expect("A's colonel");
    let Loc::Zone(z) = s.locs[colonel as usize] else {
        unreachable!()
    };
    s.zones[z as usize].retain(|&c| c != colonel);
    let e5 = cell(&e, "e5");
    s.set_owner(colonel, 0);
    s.locs[colonel as usize] = Loc::Cell(e5);
    s.set_cell(e5, colonel);
    s.turn_seat = 0;
    let mut pauses = args_of(&e, &s, "pause");
    pauses.retain(|p| p.starts_with("e5 "));
    // Each of 8 lines: the first 2 squares may be paused on (the 3rd ends the move).
    assert_eq!(pauses.len(), 16, "{pauses:?}");
    let a = e.parse_action(&s, "pause e5 f6").unwrap();
    e.apply(&mut s, &a).unwrap();
    s.turn_seat = 0;
    s.step = 0;
    assert_eq!(args_of(&e, &s, "finish"), vec!["f6 g7", "f6 h8"]);
}
