//! One scenario per rule of Battle Line (games/battle_line.muster; rulebook
//! battle-line.txt, rulings in design/games.md): command (budgets, ranges, the captain's
//! chain, the 10-square condition, one move per piece, the first turn's cap), promotion,
//! check and mate, king capture, and passes. Positions are built by hand with
//! `common::bl_position`; actions are written as the engine prints them: `activate PIECE
//! LEADER`, `relay CAPTAIN PIECE`, `go DEST`, `end_turn`.

mod common;

use common::*;
use muster::engine::{Engine, Outcome, State};
use muster::ir::Value;

/// The leader on `leader` activates the piece on `piece`, which goes to `dest`.
fn activate(e: &Engine, s: &mut State, piece: &str, leader: &str, dest: &str) {
    play(e, s, &format!("activate {piece} {leader}"));
    play(e, s, &format!("go {dest}"));
}

/// The captain on `captain` activates the one-step piece on `piece` through its chain;
/// the piece goes to `dest`.
fn relay(e: &Engine, s: &mut State, captain: &str, piece: &str, dest: &str) {
    play(e, s, &format!("relay {captain} {piece}"));
    play(e, s, &format!("go {dest}"));
}

fn int(v: Value) -> i64 {
    match v {
        Value::Int(i) => i,
        other => panic!("not a number: {other:?}"),
    }
}

fn flag(v: Value) -> bool {
    match v {
        Value::Bool(b) => b,
        other => panic!("not a flag: {other:?}"),
    }
}

const NOT_A_LEADER_NOW: &str = "is not one of the choices for `leader` here";
const OUT_OF_RANGE: &str = "it fails `require distance(leader, piece) <= leader.piece.reach`";
const OUT_OF_TOUCH: &str = "it fails `require (leader == piece) or leader.piece.in_touch`";
const NOT_IN_CHAIN: &str = "it fails `require (piece in chain) or any y in adjacent(piece, around): (y == captain) or (y in chain)`";
const IN_CHECK: &str = "it fails `require not attacked(king_of(me), me)`";

// ---- activation budgets and ranges ---------------------------------------------------

/// A leader of `rank` on j10 activates `orders` wazirs (h12, i12, j12, k12 in turn), each
/// stepping north; the next activation is refused and the leader's `used` is `orders`. A
/// colonel or captain has its king on j5 (in touch); the king, untouched, may still
/// activate the wazir the leader may not.
fn budget_case(rank: &str, orders: usize) {
    let e = bl_engine();
    let wazirs = ["h12", "i12", "j12", "k12"];
    let mut pieces = vec![("j10", WHITE, rank), ("t30", BLACK, "king")];
    if rank != "king" {
        pieces.push(("j5", WHITE, "king"));
    }
    for w in wazirs {
        pieces.push((w, WHITE, "wazir"));
    }
    let mut s = bl_position(&e, WHITE, &pieces);
    for w in &wazirs[..orders] {
        let north = format!("{}{}", &w[..1], 13);
        activate(&e, &mut s, w, "j10", &north);
    }
    assert_eq!(int(var_on(&e, &s, "j10", "used")), orders as i64, "{rank}");
    let next = wazirs[orders];
    let why = refused(&e, &s, &format!("activate {next} j10"));
    assert_eq!(why, format!("`j10` {NOT_A_LEADER_NOW}"), "{rank}");
    assert!(
        !legal_texts(&e, &s).iter().any(|t| t.ends_with(" j10")),
        "{rank}: still offered as a leader: {:?}",
        legal_texts(&e, &s)
    );
    if rank != "king" {
        assert!(is_legal(&e, &s, &format!("activate {next} j5")), "{rank}");
    }
}

// Budgets: the king activates 3 pieces a turn, and no more.
#[test]
fn the_king_activates_three_pieces_a_turn() {
    budget_case("king", 3);
}

// Budgets: the marshall activates 3 pieces a turn.
#[test]
fn the_marshall_activates_three_pieces_a_turn() {
    budget_case("marshall", 3);
}

// Budgets: a colonel activates 2 pieces a turn.
#[test]
fn a_colonel_activates_two_pieces_a_turn() {
    budget_case("colonel", 2);
}

// Budgets: a captain activates 1 piece a turn (besides its chain, below).
#[test]
fn a_captain_activates_one_piece_a_turn() {
    budget_case("captain", 1);
}

// Budgets: a leader that moves itself spends one of its activations on it.
#[test]
fn a_leaders_own_move_counts_against_its_budget() {
    let e = bl_engine();
    let mut s = bl_position(
        &e,
        WHITE,
        &[
            ("j10", WHITE, "colonel"),
            ("j5", WHITE, "king"),
            ("l12", WHITE, "wazir"),
            ("m12", WHITE, "wazir"),
            ("t30", BLACK, "king"),
        ],
    );
    activate(&e, &mut s, "j10", "j10", "j11");
    activate(&e, &mut s, "l12", "j11", "l13");
    assert_eq!(int(var_on(&e, &s, "j11", "used")), 2);
    assert_eq!(
        refused(&e, &s, "activate m12 j11"),
        format!("`j11` {NOT_A_LEADER_NOW}")
    );
}

/// A leader of `rank` (reach `reach`) on j10 may activate the wazir on `near` (Chebyshev
/// distance exactly `reach`) but not the one on `far` (`reach` + 1). A colonel or captain
/// has its king on j1, within 10.
fn range_case(rank: &str, reach: i64, near: &str, far: &str) {
    let e = bl_engine();
    let mut pieces = vec![
        ("j10", WHITE, rank),
        ("a30", BLACK, "king"),
        (near, WHITE, "wazir"),
        (far, WHITE, "wazir"),
    ];
    if rank != "king" {
        pieces.push(("j1", WHITE, "king"));
    }
    let s = bl_position(&e, WHITE, &pieces);
    let (n, f) = (cell(&e, near), cell(&e, far));
    let j10 = cell(&e, "j10");
    let cheb = |c: u16| {
        let (a, b) = (
            &e.game.board.cells[c as usize],
            &e.game.board.cells[j10 as usize],
        );
        (a.x as i64 - b.x as i64)
            .abs()
            .max((a.y as i64 - b.y as i64).abs())
    };
    assert_eq!(
        (cheb(n), cheb(f)),
        (reach, reach + 1),
        "{rank}: the test's squares"
    );
    assert!(
        is_legal(&e, &s, &format!("activate {near} j10")),
        "{rank}: {near} at {reach} is refused"
    );
    assert_eq!(
        refused(&e, &s, &format!("activate {far} j10")),
        OUT_OF_RANGE,
        "{rank}"
    );
}

// Ranges (Chebyshev): the king reaches 10 (t20 is 10 files and 10 ranks away), not 11.
#[test]
fn the_king_activates_at_ten_squares() {
    range_case("king", 10, "t20", "j21");
}

// Ranges: the marshall reaches 8, not 9.
#[test]
fn the_marshall_activates_at_eight_squares() {
    range_case("marshall", 8, "r18", "j19");
}

// Ranges: a colonel reaches 5, not 6.
#[test]
fn a_colonel_activates_at_five_squares() {
    range_case("colonel", 5, "o15", "j16");
}

// Ranges: a captain reaches 3, not 4.
#[test]
fn a_captain_activates_at_three_squares() {
    range_case("captain", 3, "m13", "j14");
}

// Range is measured when the activation is made: the king moves itself one step nearer
// and may then activate a piece that was 11 away; a piece moves out of range after it is
// activated without undoing anything.
#[test]
fn range_is_measured_at_the_moment_of_activation() {
    let e = bl_engine();
    let mut s = bl_position(
        &e,
        WHITE,
        &[
            ("j10", WHITE, "king"),
            ("j21", WHITE, "wazir"),
            ("a10", WHITE, "wazir"),
            ("t30", BLACK, "king"),
        ],
    );
    assert_eq!(refused(&e, &s, "activate j21 j10"), OUT_OF_RANGE);
    activate(&e, &mut s, "j10", "j10", "j11");
    activate(&e, &mut s, "j21", "j11", "j22");
    assert_eq!(bl_at(&e, &s, "j22"), Some((WHITE, "wazir".into())));
    // a10 was 9 away at the start; now the king on j11 is 9 files off: still in range.
    assert!(is_legal(&e, &s, "activate a10 j11"));
}

// The other way round: a king that steps away loses a piece it could have activated.
#[test]
fn a_leader_moving_away_loses_its_range() {
    let e = bl_engine();
    let mut s = bl_position(
        &e,
        WHITE,
        &[
            ("j10", WHITE, "king"),
            ("j20", WHITE, "wazir"),
            ("t30", BLACK, "king"),
        ],
    );
    assert!(is_legal(&e, &s, "activate j20 j10"));
    activate(&e, &mut s, "j10", "j10", "j9");
    assert_eq!(refused(&e, &s, "activate j20 j9"), OUT_OF_RANGE);
}

// ---- the captain's chain --------------------------------------------------------------

/// Captain j8 (its king on j1, 7 away, so in touch); a chain of touching own pieces: wazir
/// j9, lesser war elephant j10, ferz k11, sergeant l12, wazir i10; a wazir on e8 touches
/// nothing.
fn chain_position(e: &Engine) -> State {
    bl_position(
        e,
        WHITE,
        &[
            ("j1", WHITE, "king"),
            ("j8", WHITE, "captain"),
            ("j9", WHITE, "wazir"),
            ("j10", WHITE, "lesser_elephant"),
            ("k11", WHITE, "ferz"),
            ("l12", WHITE, "sergeant"),
            ("i10", WHITE, "wazir"),
            ("e8", WHITE, "wazir"),
            ("t30", BLACK, "king"),
        ],
    )
}

// Chain: a captain activates the one-step pieces reached through touching own pieces (a
// non-one-step piece carries the chain but is not itself relayed); a piece off the chain
// is not.
#[test]
fn the_captain_relays_one_step_pieces_along_its_chain() {
    let e = bl_engine();
    let s = chain_position(&e);
    let mut relays = legal_starting(&e, &s, "relay");
    relays.sort();
    assert_eq!(
        relays,
        [
            "relay j8 i10",
            "relay j8 j9",
            "relay j8 k11",
            "relay j8 l12"
        ]
    );
    assert_eq!(
        refused(&e, &s, "relay j8 j10"),
        "`j10` is not one of the choices for `piece` here"
    );
    assert_eq!(refused(&e, &s, "relay j8 e8"), NOT_IN_CHAIN);
}

// Chain: at most 3 relays a turn; they do not spend the captain's own activation.
#[test]
fn the_captain_relays_at_most_three_a_turn() {
    let e = bl_engine();
    let mut s = chain_position(&e);
    relay(&e, &mut s, "j8", "j9", "k9");
    relay(&e, &mut s, "j8", "l12", "l13");
    // The ferz on k11 was the sergeant's link: had it moved first, l12 would be cut off.
    relay(&e, &mut s, "j8", "k11", "j12");
    assert_eq!(int(var_on(&e, &s, "j8", "relayed")), 3);
    assert_eq!(int(var_on(&e, &s, "j8", "used")), 0);
    assert_eq!(moves(&e, &s), 3);
    // i10 still touches the chain (through j10 and k9), but the captain's relays are spent.
    assert_eq!(
        refused(&e, &s, "relay j8 i10"),
        "`j8` is not one of the choices for `captain` here"
    );
    assert!(legal_starting(&e, &s, "relay").is_empty());
    // Its one ordinary activation is left (i10 is 2 away).
    activate(&e, &mut s, "i10", "j8", "h10");
    assert_eq!(int(var_on(&e, &s, "j8", "used")), 1);
}

// Chain: it is read when the relay is made: once the ferz on k11 has moved, the sergeant
// on l12, which touched only it, is cut off.
#[test]
fn moving_a_link_cuts_the_chain() {
    let e = bl_engine();
    let mut s = chain_position(&e);
    relay(&e, &mut s, "j8", "k11", "j12");
    assert_eq!(refused(&e, &s, "relay j8 l12"), NOT_IN_CHAIN);
}

/// How many moves the side to move has made this turn.
fn moves(e: &Engine, s: &State) -> i64 {
    int(global(e, s, "moves_made"))
}

// Chain: a colonel or the marshall in the chain stops it: the wazir beyond is out of reach.
#[test]
fn a_colonel_or_marshall_breaks_the_chain() {
    let e = bl_engine();
    for higher in ["colonel", "marshall"] {
        let s = bl_position(
            &e,
            WHITE,
            &[
                ("j1", WHITE, "king"),
                ("j8", WHITE, "captain"),
                ("j9", WHITE, higher),
                ("j10", WHITE, "wazir"),
                ("t30", BLACK, "king"),
            ],
        );
        assert_eq!(refused(&e, &s, "relay j8 j10"), NOT_IN_CHAIN, "{higher}");
        assert!(legal_starting(&e, &s, "relay").is_empty(), "{higher}");
    }
}

// Chain: it may end at the king, which the captain then moves without spending the king's
// activations; but the king carries the chain no further.
#[test]
fn the_chain_may_end_at_the_king() {
    let e = bl_engine();
    let mut s = bl_position(
        &e,
        WHITE,
        &[
            ("j8", WHITE, "captain"),
            ("j9", WHITE, "wazir"),
            ("j10", WHITE, "king"),
            ("t30", BLACK, "king"),
        ],
    );
    relay(&e, &mut s, "j8", "j10", "k11");
    assert_eq!(bl_at(&e, &s, "k11"), Some((WHITE, "king".into())));
    assert_eq!(int(var_on(&e, &s, "k11", "used")), 0);
    assert_eq!(int(var_on(&e, &s, "j8", "relayed")), 1);
    // The king between the captain and a wazir: the king may be relayed, the wazir not.
    let s = bl_position(
        &e,
        WHITE,
        &[
            ("j8", WHITE, "captain"),
            ("j9", WHITE, "king"),
            ("j10", WHITE, "wazir"),
            ("t30", BLACK, "king"),
        ],
    );
    assert_eq!(legal_starting(&e, &s, "relay"), ["relay j8 j9"]);
    assert_eq!(refused(&e, &s, "relay j8 j10"), NOT_IN_CHAIN);
}

// Chain: only one-step pieces (king, captain, wazir, ferz, sergeant) may be relayed; a
// piece with a longer move touching the captain may not.
#[test]
fn the_chain_moves_only_one_step_pieces() {
    let e = bl_engine();
    let s = bl_position(
        &e,
        WHITE,
        &[
            ("j1", WHITE, "king"),
            ("j8", WHITE, "captain"),
            ("i9", WHITE, "lesser_elephant"),
            ("j9", WHITE, "minister"),
            ("k9", WHITE, "captain"),
            ("k7", WHITE, "sergeant"),
            ("i7", WHITE, "ferz"),
            ("t30", BLACK, "king"),
        ],
    );
    let mut relays = legal_starting(&e, &s, "relay j8");
    relays.sort();
    assert_eq!(relays, ["relay j8 i7", "relay j8 k7", "relay j8 k9"]);
    for long in ["i9", "j9"] {
        assert_eq!(
            refused(&e, &s, &format!("relay j8 {long}")),
            format!("`{long}` is not one of the choices for `piece` here")
        );
    }
}

// ---- the 10-square condition ------------------------------------------------------------

// A colonel or captain 11 or more from its king (and no marshall) may move itself but
// activate nothing else, nor relay.
#[test]
fn far_from_king_and_marshall_a_colonel_or_captain_moves_only_itself() {
    let e = bl_engine();
    for rank in ["colonel", "captain"] {
        let s = bl_position(
            &e,
            WHITE,
            &[
                ("j1", WHITE, "king"),
                ("j15", WHITE, rank),
                ("k16", WHITE, "wazir"),
                ("t30", BLACK, "king"),
            ],
        );
        assert!(!flag(var_on(&e, &s, "j15", "in_touch")), "{rank}");
        assert_eq!(refused(&e, &s, "activate k16 j15"), OUT_OF_TOUCH, "{rank}");
        assert!(is_legal(&e, &s, "activate j15 j15"), "{rank}");
        assert!(legal_starting(&e, &s, "relay").is_empty(), "{rank}");
    }
}

// Within 10 of the marshall is enough, though the king is far.
#[test]
fn the_marshall_puts_a_colonel_in_touch() {
    let e = bl_engine();
    let s = bl_position(
        &e,
        WHITE,
        &[
            ("j1", WHITE, "king"),
            ("j8", WHITE, "marshall"),
            ("j15", WHITE, "colonel"),
            ("k16", WHITE, "wazir"),
            ("t30", BLACK, "king"),
        ],
    );
    assert!(flag(var_on(&e, &s, "j15", "in_touch")));
    assert!(is_legal(&e, &s, "activate k16 j15"));
}

// The condition held at some moment earlier in the turn is enough: a colonel exactly 10
// from its king moves itself 3 away (13 from the king), then activates a wazir.
#[test]
fn a_colonel_in_touch_earlier_in_the_turn_stays_in_touch() {
    let e = bl_engine();
    let mut s = bl_position(
        &e,
        WHITE,
        &[
            ("j1", WHITE, "king"),
            ("j11", WHITE, "colonel"),
            ("k15", WHITE, "wazir"),
            ("t30", BLACK, "king"),
        ],
    );
    activate(&e, &mut s, "j11", "j11", "j14");
    activate(&e, &mut s, "k15", "j14", "k16");
    assert_eq!(bl_at(&e, &s, "k16"), Some((WHITE, "wazir".into())));
}

// The condition may come to hold during the turn: once the king steps within 10 (or the
// captain steps within 10 itself), the captain may activate.
#[test]
fn coming_within_ten_during_the_turn_puts_a_captain_in_touch() {
    let e = bl_engine();
    let pieces = [
        ("j1", WHITE, "king"),
        ("j12", WHITE, "captain"),
        ("k12", WHITE, "wazir"),
        ("t30", BLACK, "king"),
    ];
    // The king comes to j2: 10 from the captain.
    let mut s = bl_position(&e, WHITE, &pieces);
    assert_eq!(refused(&e, &s, "activate k12 j12"), OUT_OF_TOUCH);
    activate(&e, &mut s, "j1", "j1", "j2");
    assert!(flag(var_on(&e, &s, "j12", "in_touch")));
    activate(&e, &mut s, "k12", "j12", "l12");
    // The captain comes to j11 itself; it has spent its one activation on that, but its
    // chain is open now (the wazir on k12 touches j11).
    let mut s = bl_position(&e, WHITE, &pieces);
    assert!(legal_starting(&e, &s, "relay").is_empty());
    activate(&e, &mut s, "j12", "j12", "j11");
    assert!(flag(var_on(&e, &s, "j11", "in_touch")));
    assert!(
        is_legal(&e, &s, "relay j11 k12"),
        "{:?}",
        legal_texts(&e, &s)
    );
}

// ---- one move per piece ----------------------------------------------------------------

// No piece moves twice in a turn: neither by a second leader, nor through a chain, nor a
// leader that moved itself.
#[test]
fn no_piece_moves_twice_in_a_turn() {
    let e = bl_engine();
    let mut s = bl_position(
        &e,
        WHITE,
        &[
            ("j5", WHITE, "king"),
            ("l5", WHITE, "marshall"),
            ("j7", WHITE, "wazir"),
            ("j9", WHITE, "captain"),
            ("t30", BLACK, "king"),
        ],
    );
    activate(&e, &mut s, "j7", "j5", "j8");
    assert!(flag(var_on(&e, &s, "j8", "moved")));
    let not_offered = "`j8` is not one of the choices for `piece` here";
    assert_eq!(refused(&e, &s, "activate j8 j5"), not_offered);
    assert_eq!(refused(&e, &s, "activate j8 l5"), not_offered);
    assert_eq!(refused(&e, &s, "relay j9 j8"), not_offered);
    activate(&e, &mut s, "l5", "l5", "l6");
    assert_eq!(
        refused(&e, &s, "activate l6 j5"),
        "`l6` is not one of the choices for `piece` here"
    );
    assert_eq!(
        refused(&e, &s, "activate l6 l6"),
        "`l6` is not one of the choices for `piece` here"
    );
    // Next turn everything may move again.
    play(&e, &mut s, "end_turn");
    play(&e, &mut s, "end_turn");
    assert_eq!(s.turn_seat, WHITE);
    assert!(!flag(var_on(&e, &s, "j8", "moved")));
    assert!(is_legal(&e, &s, "activate j8 j5"));
}

// ---- the first turn's cap -----------------------------------------------------------------

// From the set-up, White makes at most 23 moves on its first turn, then may only end it;
// Black's first turn has the same cap; later turns have none.
#[test]
fn a_sides_first_turn_allows_23_activations() {
    let e = bl_engine();
    let mut s = bl_start(&e, 1);
    for seat in [WHITE, BLACK] {
        assert_eq!(s.turn_seat, seat);
        assert!(flag(bl_seat_var(&e, &s, seat, "first_turn")));
        let mut made = 0;
        loop {
            let legal = legal_texts(&e, &s);
            let Some(first) = legal.iter().find(|t| !t.starts_with("end_turn")) else {
                assert_eq!(legal, ["end_turn"]);
                break;
            };
            play(&e, &mut s, first);
            let go = legal_texts(&e, &s)[0].clone();
            assert!(go.starts_with("go "), "{go}");
            play(&e, &mut s, &go);
            made += 1;
            assert!(made <= 23, "seat {seat}: a 24th move");
        }
        assert_eq!(made, 23, "seat {seat}");
        assert_eq!(moves(&e, &s), 23);
        assert_eq!(
            refused(&e, &s, "activate j2 j1"),
            "it fails `require cap_ok`"
        );
        play(&e, &mut s, "end_turn");
        assert!(!flag(bl_seat_var(&e, &s, seat, "first_turn")));
    }
    assert_eq!(s.outcome, None);
}

// The cap holds for relays too, and a later turn is not capped at 23.
#[test]
fn the_cap_counts_relays_and_only_the_first_turn() {
    let e = bl_engine();
    let pieces = [
        ("j1", WHITE, "king"),
        ("j8", WHITE, "captain"),
        ("j9", WHITE, "wazir"),
        ("k9", WHITE, "wazir"),
        ("t30", BLACK, "king"),
    ];
    let mut s = bl_position(&e, WHITE, &pieces);
    bl_set_seat_var(&e, &mut s, WHITE, "first_turn", Value::Bool(true));
    set_global(&e, &mut s, "moves_made", Value::Int(22));
    relay(&e, &mut s, "j8", "j9", "j10");
    assert_eq!(moves(&e, &s), 23);
    assert_eq!(refused(&e, &s, "relay j8 k9"), "it fails `require cap_ok`");
    assert_eq!(
        refused(&e, &s, "activate k9 j1"),
        "it fails `require cap_ok`"
    );
    assert_eq!(legal_texts(&e, &s), ["end_turn"]);
    // Not the first turn: the 24th move is allowed.
    let mut s = bl_position(&e, WHITE, &pieces);
    set_global(&e, &mut s, "moves_made", Value::Int(23));
    relay(&e, &mut s, "j8", "j9", "j10");
    assert_eq!(moves(&e, &s), 24);
}

// ---- promotion -----------------------------------------------------------------------------

// A sergeant, wazir or ferz reaching the far rank becomes a captain from the spares (the
// piece goes to `promoted`); the new captain counts as moved. Both sides, with and without
// a capture.
#[test]
fn one_step_pieces_promote_on_the_far_rank() {
    let e = bl_engine();
    // (seat, rank, from, to, an enemy on `to`?)
    let cases = [
        (WHITE, "sergeant", "j29", "j30", false),
        (WHITE, "wazir", "j29", "j30", false),
        (WHITE, "ferz", "j29", "k30", false),
        (WHITE, "sergeant", "j29", "k30", true),
        (BLACK, "sergeant", "j2", "j1", false),
        (BLACK, "wazir", "j2", "j1", true),
        (BLACK, "ferz", "j2", "i1", false),
    ];
    for (seat, rank, from, to, capture) in cases {
        let (king, other_king) = if seat == WHITE {
            ("j20", "a10")
        } else {
            ("j11", "a20")
        };
        let mut pieces = vec![
            (king, seat, "king"),
            (other_king, 1 - seat, "king"),
            (from, seat, rank),
        ];
        if capture {
            pieces.push((to, 1 - seat, "minister"));
        }
        let mut s = bl_position(&e, seat, &pieces);
        let before = on_board(&s);
        activate(&e, &mut s, from, king, to);
        let what = format!("{rank} of seat {seat} to {to}");
        assert_eq!(bl_at(&e, &s, to), Some((seat, "captain".into())), "{what}");
        assert_eq!(
            cards_in(&e, &s, "promoted", seat),
            [rank_tag(rank)],
            "{what}"
        );
        assert_eq!(cards_in(&e, &s, "spares", seat).len(), 23, "{what}");
        assert!(flag(var_on(&e, &s, to, "moved")), "{what}");
        assert_eq!(bl_at(&e, &s, from), None, "{what}");
        let taken = if capture { vec!["N"] } else { vec![] };
        assert_eq!(cards_in(&e, &s, "captured", 1 - seat), taken, "{what}");
        assert_eq!(on_board(&s), before - capture as usize, "{what}");
        assert_eq!(consistency_problem(&s), None, "{what}");
    }
}

/// The tag a rank is labelled with (`S` for a sergeant).
fn rank_tag(rank: &str) -> &'static str {
    match rank {
        "sergeant" => "S",
        "wazir" => "W",
        "ferz" => "F",
        other => panic!("no tag for {other}"),
    }
}

// Other pieces reaching the far rank stay what they are: a lesser war elephant, a captain
// and the king.
#[test]
fn other_pieces_do_not_promote() {
    let e = bl_engine();
    let mut s = bl_position(
        &e,
        WHITE,
        &[
            ("j29", WHITE, "king"),
            ("l28", WHITE, "lesser_elephant"),
            ("h29", WHITE, "captain"),
            ("a10", BLACK, "king"),
        ],
    );
    activate(&e, &mut s, "l28", "j29", "l30");
    activate(&e, &mut s, "h29", "j29", "h30");
    activate(&e, &mut s, "j29", "j29", "j30");
    assert_eq!(
        bl_at(&e, &s, "l30"),
        Some((WHITE, "lesser_elephant".into()))
    );
    assert_eq!(bl_at(&e, &s, "h30"), Some((WHITE, "captain".into())));
    assert_eq!(bl_at(&e, &s, "j30"), Some((WHITE, "king".into())));
    assert!(cards_in(&e, &s, "promoted", WHITE).is_empty());
    assert_eq!(cards_in(&e, &s, "spares", WHITE).len(), 24);
}

// ---- check, mate, king capture, passes -----------------------------------------------

// A player may not end its turn with its king attacked (here by a colonel 3 squares up the
// file); stepping out of the line (i10 is on none of the colonel's lines) allows it.
#[test]
fn a_turn_may_not_end_in_check() {
    let e = bl_engine();
    let mut s = bl_position(
        &e,
        WHITE,
        &[
            ("j10", WHITE, "king"),
            ("j13", BLACK, "colonel"),
            ("t30", BLACK, "king"),
        ],
    );
    assert_eq!(refused(&e, &s, "end_turn"), IN_CHECK);
    activate(&e, &mut s, "j10", "j10", "i10");
    play(&e, &mut s, "end_turn");
    assert_eq!((s.turn_seat, s.outcome.clone()), (BLACK, None));
}

// Blocking a slide ends the check; a leap's check cannot be blocked.
#[test]
fn a_slide_can_be_blocked_but_a_leap_cannot() {
    let e = bl_engine();
    let mut s = bl_position(
        &e,
        WHITE,
        &[
            ("j10", WHITE, "king"),
            ("i11", WHITE, "wazir"),
            ("j13", BLACK, "colonel"),
            ("t30", BLACK, "king"),
        ],
    );
    activate(&e, &mut s, "i11", "j10", "j11");
    assert!(is_legal(&e, &s, "end_turn"));
    // A lesser war elephant on j12 leaps (D) over the wazir on j11 onto j10.
    let mut s = bl_position(
        &e,
        WHITE,
        &[
            ("j10", WHITE, "king"),
            ("j11", WHITE, "wazir"),
            ("j12", BLACK, "lesser_elephant"),
            ("t30", BLACK, "king"),
        ],
    );
    assert_eq!(refused(&e, &s, "end_turn"), IN_CHECK);
    // Taking the checker ends it: the wazir steps onto j12.
    activate(&e, &mut s, "j11", "j10", "j12");
    assert_eq!(cards_in(&e, &s, "captured", BLACK), ["E"]);
    assert!(is_legal(&e, &s, "end_turn"));
}

/// White's king on a1 in check from two Black colonels, a4 (down the a-file: a3, a2, a1)
/// and c3 (down the diagonal: b2, a1), with a heavy warmachine on b5 covering b1 (D then D
/// down the b-file): every square the king can reach is attacked.
fn mated(e: &Engine, extra: &[(&'static str, u8, &'static str)]) -> State {
    let mut pieces = vec![
        ("a1", WHITE, "king"),
        ("a4", BLACK, "colonel"),
        ("b5", BLACK, "heavy_machine"),
        ("c3", BLACK, "colonel"),
        ("t30", BLACK, "king"),
    ];
    pieces.extend_from_slice(extra);
    bl_position(e, WHITE, &pieces)
}

// Mate: in check with every way out attacked, the side moves what it may and, with nothing
// left that can end its turn, loses (`on stuck lose`).
#[test]
fn mate_by_running_out_of_ways_out() {
    let e = bl_engine();
    for escape in ["a2", "b1", "b2"] {
        let mut s = mated(&e, &[]);
        assert_eq!(s.outcome, None);
        assert_eq!(refused(&e, &s, "end_turn"), IN_CHECK);
        assert_eq!(legal_starting(&e, &s, "activate"), ["activate a1 a1"]);
        activate(&e, &mut s, "a1", "a1", escape);
        assert_eq!(
            s.outcome,
            Some(Outcome::Win(vec![BLACK])),
            "king to {escape}"
        );
    }
}

// While in check the side may go on moving other pieces; it loses only when nothing is
// left to do.
#[test]
fn a_king_may_stay_in_check_until_the_last_move() {
    let e = bl_engine();
    let mut s = mated(&e, &[("j5", WHITE, "wazir")]);
    activate(&e, &mut s, "j5", "a1", "j6");
    assert_eq!(s.outcome, None);
    assert_eq!(refused(&e, &s, "end_turn"), IN_CHECK);
    activate(&e, &mut s, "a1", "a1", "b1");
    assert_eq!(s.outcome, Some(Outcome::Win(vec![BLACK])));
}

// Capturing the king wins at once.
#[test]
fn capturing_the_king_wins() {
    let e = bl_engine();
    let mut s = bl_position(
        &e,
        WHITE,
        &[
            ("j1", WHITE, "king"),
            ("j10", WHITE, "wazir"),
            ("j11", BLACK, "king"),
            ("k20", BLACK, "marshall"),
        ],
    );
    activate(&e, &mut s, "j10", "j1", "j11");
    assert_eq!(s.outcome, Some(Outcome::Win(vec![WHITE])));
    assert_eq!(cards_in(&e, &s, "captured", BLACK), ["K"]);
    assert_eq!(bl_at(&e, &s, "j11"), Some((WHITE, "wazir".into())));
}

// Captured pieces go to their owner's `captured` zone; the capturer takes the square.
#[test]
fn a_capture_replaces_the_enemy_piece() {
    let e = bl_engine();
    let mut s = bl_position(
        &e,
        BLACK,
        &[
            ("j20", BLACK, "king"),
            ("j15", BLACK, "colonel"),
            ("m12", WHITE, "heavy_machine"),
            ("j1", WHITE, "king"),
        ],
    );
    activate(&e, &mut s, "j15", "j20", "m12");
    assert_eq!(bl_at(&e, &s, "m12"), Some((BLACK, "colonel".into())));
    assert_eq!(bl_at(&e, &s, "j15"), None);
    assert_eq!(cards_in(&e, &s, "captured", WHITE), ["H"]);
    assert!(cards_in(&e, &s, "captured", BLACK).is_empty());
}

// Two passes in a row (turns with no move) draw.
#[test]
fn two_passes_in_a_row_draw() {
    let e = bl_engine();
    let mut s = bl_start(&e, 1);
    play(&e, &mut s, "end_turn");
    assert_eq!(int(global(&e, &s, "passes")), 1);
    assert_eq!(s.outcome, None);
    play(&e, &mut s, "end_turn");
    assert_eq!(s.outcome, Some(Outcome::Draw));
}

// A move between two passes starts the count again.
#[test]
fn a_move_between_passes_is_no_draw() {
    let e = bl_engine();
    let mut s = bl_start(&e, 1);
    play(&e, &mut s, "end_turn");
    // Black's king (j30) activates the sergeant on i28, which steps forward.
    activate(&e, &mut s, "i28", "j30", "i27");
    play(&e, &mut s, "end_turn");
    assert_eq!(int(global(&e, &s, "passes")), 0);
    play(&e, &mut s, "end_turn");
    assert_eq!(int(global(&e, &s, "passes")), 1);
    assert_eq!(s.outcome, None);
}

// ---- leaders' moves taken in parts -------------------------------------------------------

/// The cells named in actions `prefix CELL`, sorted.
fn offered(e: &Engine, s: &State, prefix: &str) -> Vec<String> {
    let mut v: Vec<String> = legal_starting(e, s, prefix)
        .iter()
        .map(|t| t[prefix.len()..].trim().to_string())
        .collect();
    v.sort();
    v
}

// Ruling: a colonel may stop part-way along its own move, activate a piece (which moves at
// once, activated from where the colonel stands), and then take the rest of its move: the
// same line, no farther than 3 squares in all.
#[test]
fn a_colonel_pauses_activates_a_piece_and_finishes_its_move() {
    let e = bl_engine();
    let mut s = bl_position(
        &e,
        WHITE,
        &[
            ("j1", WHITE, "king"),
            ("j5", WHITE, "colonel"),
            ("j7", WHITE, "wazir"),
            ("j11", WHITE, "ferz"),
            ("t30", BLACK, "king"),
        ],
    );
    play(&e, &mut s, "activate j5 j5");
    // Where it may pause: squares on its way from which it can go on (j6; the wazir on j7
    // blocks the file), never a square the move could only end on.
    let pauses = offered(&e, &s, "pause");
    assert!(pauses.contains(&"j6".to_string()), "{pauses:?}");
    assert!(!pauses.contains(&"j7".to_string()));
    assert!(
        !pauses.contains(&"m8".to_string()),
        "m8 is 3 away: the move ends there"
    );
    play(&e, &mut s, "pause j6");
    assert_eq!(bl_at(&e, &s, "j6"), Some((WHITE, "colonel".into())));
    // The ferz on j11 is 5 from j6 (6 from j5): the colonel activates it from where it
    // stands, and the wazir out of its way.
    assert_eq!(
        refused(
            &e,
            &bl_position(
                &e,
                WHITE,
                &[
                    ("j1", WHITE, "king"),
                    ("j5", WHITE, "colonel"),
                    ("j11", WHITE, "ferz"),
                    ("t30", BLACK, "king")
                ]
            ),
            "activate j11 j5"
        ),
        OUT_OF_RANGE
    );
    activate(&e, &mut s, "j11", "j6", "k12");
    // Its budget of 2 is spent (itself and the ferz): the king moves the wazir.
    assert!(refused(&e, &s, "activate j7 j6").contains(NOT_A_LEADER_NOW));
    activate(&e, &mut s, "j7", "j1", "k7");
    // The rest of its move: up to 2 more squares north, nothing else.
    play(&e, &mut s, "resume j6");
    assert_eq!(offered(&e, &s, "go"), vec!["j7", "j8"]);
    assert!(refused(&e, &s, "go k7").contains("not one of the choices"));
    assert!(refused(&e, &s, "go j9").contains("not one of the choices"));
    play(&e, &mut s, "go j8");
    assert_eq!(bl_at(&e, &s, "j8"), Some((WHITE, "colonel".into())));
    assert_eq!(var_on(&e, &s, "j8", "route"), Value::None);
    // The move is over: nothing to resume, and it counted as one move this turn.
    assert!(legal_starting(&e, &s, "resume").is_empty());
    assert_eq!(int(global(&e, &s, "moves_made")), 3);
    play(&e, &mut s, "end_turn");
    assert_eq!(s.turn_seat, BLACK);
}

// A paused move may be left where it stands when that square could end it; the whole move
// in one `go` keeps working as before. The king, a captain, or a piece a leader activates
// may not pause.
#[test]
fn only_a_marshall_or_colonel_moving_itself_may_pause() {
    let e = bl_engine();
    let pieces = [
        ("j1", WHITE, "king"),
        ("j5", WHITE, "colonel"),
        ("k5", WHITE, "captain"),
        ("l5", WHITE, "greater_elephant"),
        ("j10", WHITE, "marshall"),
        ("t30", BLACK, "king"),
    ];
    let mut s = bl_position(&e, WHITE, &pieces);
    play(&e, &mut s, "activate j5 j5");
    play(&e, &mut s, "pause j7");
    play(&e, &mut s, "end_turn");
    assert_eq!(s.turn_seat, BLACK);
    let mut s = bl_position(&e, WHITE, &pieces);
    activate(&e, &mut s, "j5", "j5", "j8");
    assert_eq!(bl_at(&e, &s, "j8"), Some((WHITE, "colonel".into())));
    for (piece, leader) in [("j1", "j1"), ("k5", "k5"), ("l5", "j10"), ("j5", "j10")] {
        let mut s = bl_position(&e, WHITE, &pieces);
        play(&e, &mut s, &format!("activate {piece} {leader}"));
        assert!(
            legal_starting(&e, &s, "pause").is_empty(),
            "{piece} activated by {leader}"
        );
        assert_eq!(refused(&e, &s, "pause j7"), "it fails `require leading`");
    }
}

// The marshall's move paused after one king step goes on by what its pattern has left:
// up to two more steps, or a leap of 2 (the 5 x 5 square around it, but its start); it
// may pause again on the squares a step away. Paused on a leap, one step is left.
#[test]
fn a_paused_marshall_has_the_rest_of_its_pattern() {
    let e = bl_engine();
    let pieces = [
        ("j1", WHITE, "king"),
        ("j10", WHITE, "marshall"),
        ("t30", BLACK, "king"),
    ];
    let mut s = bl_position(&e, WHITE, &pieces);
    play(&e, &mut s, "activate j10 j10");
    // It may pause anywhere within 2 squares: after a step or two, or a leap, it has more.
    assert_eq!(offered(&e, &s, "pause").len(), 24);
    play(&e, &mut s, "pause j11");
    play(&e, &mut s, "resume j11");
    let mut ends = offered(&e, &s, "go");
    assert_eq!(ends.len(), 23, "{ends:?}");
    assert!(!ends.contains(&"j10".to_string()), "not back to its start");
    ends.retain(|c| c == "l13" || c == "h9");
    assert_eq!(ends, vec!["h9", "l13"]);
    let again = offered(&e, &s, "pause");
    assert_eq!(again.len(), 7, "{again:?}");
    // Paused on a leap: one step is left.
    let mut s = bl_position(&e, WHITE, &pieces);
    play(&e, &mut s, "activate j10 j10");
    play(&e, &mut s, "pause j12");
    play(&e, &mut s, "resume j12");
    assert_eq!(offered(&e, &s, "go").len(), 8);
    assert!(legal_starting(&e, &s, "pause").is_empty());
}

// Ruling: "within 10 of its king or marshall at some moment this turn" counts every square
// a colonel passes through. The king is on l1; a colonel on a9 (11 from it) slides to d12
// (11 again) through b10 and c11 (10 from it): it was in touch on its way, and may activate
// the wazir. Sliding north to a12 instead, it never comes within 10.
#[test]
fn a_colonel_passing_within_ten_of_its_king_is_in_touch() {
    let e = bl_engine();
    let pieces = [
        ("l1", WHITE, "king"),
        ("a9", WHITE, "colonel"),
        ("e13", WHITE, "wazir"),
        ("b13", WHITE, "ferz"),
        ("t30", BLACK, "king"),
    ];
    let mut s = bl_position(&e, WHITE, &pieces);
    assert!(!flag(var_on(&e, &s, "a9", "in_touch")));
    activate(&e, &mut s, "a9", "a9", "d12");
    assert!(flag(var_on(&e, &s, "d12", "in_touch")));
    activate(&e, &mut s, "e13", "d12", "e14");
    let mut s = bl_position(&e, WHITE, &pieces);
    activate(&e, &mut s, "a9", "a9", "a12");
    assert!(!flag(var_on(&e, &s, "a12", "in_touch")));
    assert_eq!(refused(&e, &s, "activate b13 a12"), OUT_OF_TOUCH);
    // Paused on b10, it is in touch already; it may activate from there.
    let mut s = bl_position(&e, WHITE, &pieces);
    play(&e, &mut s, "activate a9 a9");
    play(&e, &mut s, "pause b10");
    assert!(flag(var_on(&e, &s, "b10", "in_touch")));
}
