//! Battle Line's move patterns, perft-style: how many distinct squares each of the piece
//! types (games/battle_line.muster, `pattern ...`) may move to from chosen squares, on an
//! empty board and among own and enemy pieces, each against a count worked out by hand.
//!
//! Squares are written file-rank: files a-t (x 0-19), ranks 1-30 (y 0-29). White's
//! forward is north (rank up), Black's south. Offsets in the comments are (file, rank)
//! steps from the mover, seen from White. Destinations are read from the engine's `go`
//! actions with the piece made active (`common::bl_destinations`), which also fails if a
//! square is offered twice: routes that reach one square several ways give it once.

mod common;

use common::*;
use muster::engine::Engine;

/// `(rank, seat, square, destinations)`: a lone piece on an otherwise empty board.
type Lone = (&'static str, u8, &'static str, usize);

/// The destinations of the piece on `at` in a position of just `pieces` (White to move).
fn dests(e: &Engine, pieces: &[(&str, u8, &str)], at: &str) -> Vec<String> {
    let s = bl_position(e, WHITE, pieces);
    bl_destinations(e, &s, at)
}

/// Checks every row of a table of lone pieces; reports all the rows that disagree.
fn check_lone(table: &[Lone]) {
    let e = bl_engine();
    let mut wrong = Vec::new();
    for &(rank, seat, at, want) in table {
        let got = dests(&e, &[(at, seat, rank)], at);
        if got.len() != want {
            wrong.push(format!(
                "{rank} of seat {seat} on {at}: {} destinations, not {want}: {got:?}",
                got.len()
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

// ---- one step: king, captain, wazir, ferz, sergeant ------------------------------

// King and captain (`K`, one step any way): 8 neighbours in the open, 3 in a corner, 5 on
// an edge; the same for both sides.
#[test]
fn king_and_captain_on_an_empty_board() {
    check_lone(&[
        ("king", WHITE, "j15", 8),
        ("king", WHITE, "a1", 3),
        ("king", WHITE, "a15", 5),
        ("king", BLACK, "j15", 8),
        ("king", BLACK, "t30", 3),
        ("captain", WHITE, "j15", 8),
        ("captain", WHITE, "a1", 3),
        ("captain", WHITE, "a15", 5),
        ("captain", BLACK, "j15", 8),
        ("captain", BLACK, "t30", 3),
    ]);
}

// Wazir (`W`): 4 orthogonal steps; 2 in a corner, 3 on an edge. Ferz (`F`): 4 diagonal
// steps; 1 in a corner, 2 on an edge.
#[test]
fn wazir_and_ferz_on_an_empty_board() {
    check_lone(&[
        ("wazir", WHITE, "j15", 4),
        ("wazir", WHITE, "a1", 2),
        ("wazir", WHITE, "a15", 3),
        ("wazir", BLACK, "j15", 4),
        ("wazir", BLACK, "t30", 2),
        ("ferz", WHITE, "j15", 4),
        ("ferz", WHITE, "a1", 1),
        ("ferz", WHITE, "a15", 2),
        ("ferz", BLACK, "j15", 4),
        ("ferz", BLACK, "t30", 1),
    ]);
}

// Sergeant (`fW | fF`): forward, forward-left, forward-right = 3; 2 from a corner or an edge
// of its own back rank (the off-board diagonal is lost); none on the far rank, where
// forward leaves the board. Forward is each side's own: White north, Black south.
#[test]
fn sergeant_on_an_empty_board() {
    check_lone(&[
        ("sergeant", WHITE, "j15", 3),
        ("sergeant", WHITE, "a1", 2),
        ("sergeant", WHITE, "a15", 2),
        ("sergeant", WHITE, "t30", 0),
        ("sergeant", BLACK, "j15", 3),
        ("sergeant", BLACK, "t30", 2),
        ("sergeant", BLACK, "a1", 0),
    ]);
}

// Forward is the mover's: a White sergeant goes north, a Black one south.
#[test]
fn sergeants_go_their_own_sides_forward() {
    let e = bl_engine();
    assert_eq!(
        dests(&e, &[("j15", WHITE, "sergeant")], "j15"),
        ["i16", "j16", "k16"]
    );
    assert_eq!(
        dests(&e, &[("j15", BLACK, "sergeant")], "j15"),
        ["i14", "j14", "k14"]
    );
}

// ---- riders and compound pieces --------------------------------------------------

// Colonel (`Q3`, up to 3 squares in one straight line): 8 lines x 3 = 24 in the open; 3
// lines x 3 = 9 in a corner; 5 lines x 3 = 15 on an edge.
#[test]
fn colonel_on_an_empty_board() {
    check_lone(&[
        ("colonel", WHITE, "j15", 24),
        ("colonel", WHITE, "a1", 9),
        ("colonel", WHITE, "a15", 15),
        ("colonel", BLACK, "j15", 24),
        ("colonel", BLACK, "t30", 9),
    ]);
}

// Marshall (up to 3 king steps, turning freely; or a D/A leap with a step before or after):
// every square within 3 king steps, i.e. Chebyshev distance <= 3: 7 x 7 - 1 = 48 in the
// open; 4 x 4 - 1 = 15 in a corner; 4 files x 7 ranks - 1 = 27 on an edge. The leaps add
// nothing on an empty board (they land within distance 2, a step after within 3), and every
// square reached by several routes counts once.
#[test]
fn marshall_on_an_empty_board() {
    check_lone(&[
        ("marshall", WHITE, "j15", 48),
        ("marshall", WHITE, "a1", 15),
        ("marshall", WHITE, "a15", 27),
        ("marshall", BLACK, "j15", 48),
        ("marshall", BLACK, "t30", 15),
    ]);
}

// Lesser war elephant (`W | F | D | A`): 4 + 4 + 4 + 4 = 16 in the open; in a corner
// W 2 + F 1 + D 2 + A 1 = 6; on an edge W 3 + F 2 + D 3 + A 2 = 10.
#[test]
fn lesser_war_elephant_on_an_empty_board() {
    check_lone(&[
        ("lesser_elephant", WHITE, "j15", 16),
        ("lesser_elephant", WHITE, "a1", 6),
        ("lesser_elephant", WHITE, "a15", 10),
        ("lesser_elephant", BLACK, "j15", 16),
        ("lesser_elephant", BLACK, "t30", 6),
    ]);
}

// Greater war elephant (`(W|F|D|A) then? same (W|F|D|A)`): in each of the 8 directions it
// reaches 1 (W/F), 2 (D/A, or W/F twice), 3 (W then D, D then W) and 4 (D twice) squares
// away: 8 x 4 = 32 in the open, each square once though 2 and 3 have two routes each; 3
// directions x 4 = 12 in a corner; 5 x 4 = 20 on an edge.
#[test]
fn greater_war_elephant_on_an_empty_board() {
    check_lone(&[
        ("greater_elephant", WHITE, "j15", 32),
        ("greater_elephant", WHITE, "a1", 12),
        ("greater_elephant", WHITE, "a15", 20),
        ("greater_elephant", BLACK, "j15", 32),
        ("greater_elephant", BLACK, "t30", 12),
    ]);
}

// Light warmachine (`(W|D) then? any (W|D)`): one or two orthogonal legs of 1 or 2, turning
// as it likes. On each axis 1-4 squares either way (1 = W or D+W back, 3 = W+D, 4 = D+D):
// 2 axes x 8 = 16; off the axes one leg along each: (+-1|+-2, +-1|+-2) = 16; total 32 (the
// diamond |x|+|y| <= 4 but for (+-1,+-3) and (+-3,+-1)). Corner: 4 + 4 on the two axes
// and (1|2, 1|2) = 4: 12. Edge a15: 4 along the rank, 8 along the file, and (1|2, +-1|+-2)
// = 8: 20.
#[test]
fn light_warmachine_on_an_empty_board() {
    check_lone(&[
        ("light_machine", WHITE, "j15", 32),
        ("light_machine", WHITE, "a1", 12),
        ("light_machine", WHITE, "a15", 20),
        ("light_machine", BLACK, "j15", 32),
        ("light_machine", BLACK, "t30", 12),
    ]);
}

// Light elephant (`(F|A) then? any (F|A)`): the light warmachine turned 45 degrees: 1-4
// steps along each diagonal (16), and one leg on each diagonal (a(1,1) + b(1,-1) for a, b
// in +-1, +-2: 16 distinct squares): 32. Corner a1: (1..4, 1..4) on the diagonal = 4, and
// (2,0) (0,2) (3,1) (1,3) (4,0) (0,4) = 6: 10. Edge a15: 8 on the two diagonals, and
// (2,0) (0,+-2) (0,+-4) (4,0) (3,+-1) (1,+-3) = 10: 18.
#[test]
fn light_elephant_on_an_empty_board() {
    check_lone(&[
        ("light_elephant", WHITE, "j15", 32),
        ("light_elephant", WHITE, "a1", 10),
        ("light_elephant", WHITE, "a15", 18),
        ("light_elephant", BLACK, "j15", 32),
        ("light_elephant", BLACK, "t30", 10),
    ]);
}

// Heavy warmachine (`(W|D) then? same (W|D)`): 1-4 squares along each of 4 orthogonal
// lines (1 W, 2 D or W+W, 3 W+D or D+W, 4 D+D) = 16; corner 2 x 4 = 8; edge 3 x 4 = 12.
// Heavy elephant (`(F|A) then? same (F|A)`): the same on the diagonals: 16; corner 1 x 4
// = 4; edge 2 x 4 = 8.
#[test]
fn heavy_warmachine_and_heavy_elephant_on_an_empty_board() {
    check_lone(&[
        ("heavy_machine", WHITE, "j15", 16),
        ("heavy_machine", WHITE, "a1", 8),
        ("heavy_machine", WHITE, "a15", 12),
        ("heavy_machine", BLACK, "j15", 16),
        ("heavy_machine", BLACK, "t30", 8),
        ("heavy_elephant", WHITE, "j15", 16),
        ("heavy_elephant", WHITE, "a1", 4),
        ("heavy_elephant", WHITE, "a15", 8),
        ("heavy_elephant", BLACK, "j15", 16),
        ("heavy_elephant", BLACK, "t30", 4),
    ]);
}

// Minister (`N | D | W`): 8 + 4 + 4 = 16; corner N 2 + D 2 + W 2 = 6; edge N 4 + D 3 +
// W 3 = 10. High priestess (`A | F | N`): 4 + 4 + 8 = 16; corner A 1 + F 1 + N 2 = 4; edge
// A 2 + F 2 + N 4 = 8.
#[test]
fn minister_and_high_priestess_on_an_empty_board() {
    check_lone(&[
        ("minister", WHITE, "j15", 16),
        ("minister", WHITE, "a1", 6),
        ("minister", WHITE, "a15", 10),
        ("minister", BLACK, "j15", 16),
        ("minister", BLACK, "t30", 6),
        ("priestess", WHITE, "j15", 16),
        ("priestess", WHITE, "a1", 4),
        ("priestess", WHITE, "a15", 8),
        ("priestess", BLACK, "j15", 16),
        ("priestess", BLACK, "t30", 4),
    ]);
}

// ---- on a crowded board --------------------------------------------------------------
// Own pieces are never destinations; enemy pieces are (capture by landing) but stop the
// move there; squares passed through by a slide or between legs must be empty; squares
// leapt over need not be.

/// Pieces to crowd the board with, taken in turn (8 of each per side). Only where they
/// stand and whose they are matters to the mover.
const FILLERS: [&str; 3] = ["wazir", "ferz", "sergeant"];

/// The destinations of the piece on j15, with `own` pieces of its side and `enemy` pieces
/// of the other side around it.
fn crowded(e: &Engine, rank: &str, seat: u8, own: &[&str], enemy: &[&str]) -> Vec<String> {
    let mut pieces = vec![("j15", seat, rank)];
    pieces.extend(
        own.iter()
            .enumerate()
            .map(|(i, &c)| (c, seat, FILLERS[i % 3])),
    );
    pieces.extend(
        enemy
            .iter()
            .enumerate()
            .map(|(i, &c)| (c, 1 - seat, FILLERS[i % 3])),
    );
    dests(e, &pieces, "j15")
}

/// The eight neighbours of j15.
const RING: [&str; 8] = ["i14", "j14", "k14", "i15", "k15", "i16", "j16", "k16"];

// One-steppers: own pieces block their squares, enemy pieces on them are taken.
// King j15, own on i16 and j16, enemy on k16 and k14: 8 - 2 = 6, both enemies included.
// Black captain j15, own on j14, enemy on j16: 8 - 1 = 7.
// Wazir j15, own on j16, enemy on i15: 4 - 1 = 3. Black ferz, own i14, enemy k16: 3.
#[test]
fn one_step_pieces_among_own_and_enemy_pieces() {
    let e = bl_engine();
    assert_eq!(
        crowded(&e, "king", WHITE, &["i16", "j16"], &["k16", "k14"]),
        ["i14", "i15", "j14", "k14", "k15", "k16"]
    );
    assert_eq!(
        crowded(&e, "captain", BLACK, &["j14"], &["j16"]),
        ["i14", "i15", "i16", "j16", "k14", "k15", "k16"]
    );
    assert_eq!(
        crowded(&e, "wazir", WHITE, &["j16"], &["i15"]),
        ["i15", "j14", "k15"]
    );
    assert_eq!(
        crowded(&e, "ferz", BLACK, &["i14"], &["k16"]),
        ["i16", "k14", "k16"]
    );
}

// Sergeant: an own piece ahead blocks the forward step but not the diagonals; an enemy
// ahead may be taken (this game's sergeant captures straight forward too); an enemy behind
// is out of reach. White j15, own j16, enemies i16 and j14: {i16, k16} = 2. Black j15, own
// j14, enemies k14 and j16: {i14, k14} = 2. White j15, enemy j16: 3.
#[test]
fn sergeant_among_own_and_enemy_pieces() {
    let e = bl_engine();
    assert_eq!(
        crowded(&e, "sergeant", WHITE, &["j16"], &["i16", "j14"]),
        ["i16", "k16"]
    );
    assert_eq!(
        crowded(&e, "sergeant", BLACK, &["j14"], &["k14", "j16"]),
        ["i14", "k14"]
    );
    assert_eq!(
        crowded(&e, "sergeant", WHITE, &[], &["j16"]),
        ["i16", "j16", "k16"]
    );
}

// Colonel j15 (Q3): north stops before own j17 (j16: 1); north-east takes enemy l17 and
// stops (k16, l17: 2); south takes the adjacent enemy j14 (1); west is shut by own i15 (0);
// east reaches k15-m15, the enemy on n15 is 4 away (3); the other three lines are open
// (3 x 3 = 9). 1 + 2 + 1 + 0 + 3 + 9 = 16.
#[test]
fn colonel_slides_stop_at_pieces() {
    let e = bl_engine();
    let d = crowded(
        &e,
        "colonel",
        WHITE,
        &["j17", "i15"],
        &["l17", "j14", "n15"],
    );
    assert_eq!(
        d,
        [
            "g12", "g18", "h13", "h17", "i14", "i16", "j14", "j16", "k14", "k15", "k16", "l13",
            "l15", "l17", "m12", "m15"
        ]
    );
}

// Marshall j15 boxed in by own pieces on all 8 neighbours: no slide or step-then-leap gets
// out, but the D/A leaps clear the ring to its 8 squares at distance 2, and a step after a
// leap reaches the rest of that ring and all of the ring at distance 3: 16 + 24 = 40. An
// enemy on the leap square j17 is taken there but ends the move, so j18 (whose only
// neighbour among the leap squares is j17) is lost: 39. i18 and k18 are still reached
// from h17 and l17.
#[test]
fn marshall_leaps_out_of_a_ring_of_own_pieces() {
    let e = bl_engine();
    let boxed = crowded(&e, "marshall", WHITE, &RING, &[]);
    assert_eq!(boxed.len(), 40, "{boxed:?}");
    let d = crowded(&e, "marshall", WHITE, &RING, &["j17"]);
    assert_eq!(d.len(), 39, "{d:?}");
    assert!(d.contains(&"j17".to_string()));
    assert!(!d.contains(&"j18".to_string()));
    assert!(d.contains(&"i18".to_string()) && d.contains(&"k18".to_string()));
    assert!(RING.iter().all(|r| !d.contains(&r.to_string())));
}

// Lesser war elephant j15, own on j16 and k16, enemy on j17: W north and F north-east are
// blocked, the D leap north goes over own j16 and takes j17: 16 - 2 = 14.
#[test]
fn lesser_war_elephant_leaps_over_its_own_pieces() {
    let e = bl_engine();
    let d = crowded(&e, "lesser_elephant", WHITE, &["j16", "k16"], &["j17"]);
    assert_eq!(
        d,
        [
            "h13", "h15", "h17", "i14", "i15", "i16", "j13", "j14", "j17", "k14", "k15", "l13",
            "l15", "l17"
        ]
    );
}

// Greater war elephant j15: north, own j16 shuts W and W+W, but the D leap lands on j17 and
// goes on (j18 D+W, j19 D+D): 3. North-east, enemy l17 at 2 is taken (F+F or A) and stops
// the line there, so n19 (A+A) is lost but m18 (F+A) is not: k16 l17 m18 = 3. East, own l15
// at 2: k15, then m15 by W+D over it; n15 (D+D) needs l15 empty: 2. Five open lines x 4 =
// 20. 3 + 3 + 2 + 20 = 28.
#[test]
fn greater_war_elephant_among_pieces() {
    let e = bl_engine();
    let d = crowded(&e, "greater_elephant", WHITE, &["j16", "l15"], &["l17"]);
    assert_eq!(d.len(), 28, "{d:?}");
    for sq in ["j17", "j18", "j19", "k16", "l17", "m18", "k15", "m15"] {
        assert!(d.contains(&sq.to_string()), "{sq} missing: {d:?}");
    }
    for sq in ["j16", "n19", "l15", "n15"] {
        assert!(!d.contains(&sq.to_string()), "{sq} offered: {d:?}");
    }
}

// Light warmachine j15 with own pieces on its 4 orthogonal neighbours: every route starting
// with a W step is shut; the D leaps and what follows them remain: the axes at 2, 3, 4 (12),
// (+-1,+-2) and (+-2,+-1) after a D and a sideways W (8), (+-2,+-2) after two Ds (4) = 24.
// Lost: the 4 own squares and the 4 diagonal neighbours (only W+W reaches them).
// Light elephant j15 with own pieces on its 4 diagonal neighbours: the same turned 45
// degrees: 24.
#[test]
fn light_warmachine_and_light_elephant_leap_out_of_a_box() {
    let e = bl_engine();
    let m = crowded(
        &e,
        "light_machine",
        WHITE,
        &["i15", "k15", "j14", "j16"],
        &[],
    );
    assert_eq!(m.len(), 24, "{m:?}");
    for sq in ["i14", "k14", "i16", "k16"] {
        assert!(!m.contains(&sq.to_string()), "{sq} offered: {m:?}");
    }
    for sq in ["j17", "j18", "j19", "i17", "h16", "h17"] {
        assert!(m.contains(&sq.to_string()), "{sq} missing: {m:?}");
    }
    let l = crowded(
        &e,
        "light_elephant",
        WHITE,
        &["i14", "k14", "i16", "k16"],
        &[],
    );
    assert_eq!(l.len(), 24, "{l:?}");
    for sq in ["j14", "j16", "i15", "k15"] {
        assert!(!l.contains(&sq.to_string()), "{sq} offered: {l:?}");
    }
}

// Heavy warmachine j15: north, own j16 shuts the W routes; D lands on j17 and goes on to
// j18 and j19: 3. East, enemy l15 at 2 is taken and ends the line: k15, l15, and m15 by W+D
// over it; n15 (D+D) is lost: 3. West and south open: 8. 3 + 3 + 8 = 14.
// Heavy elephant j15: north-east, own k16 shuts F: l17 (A), m18 (A+F), n19 (A+A): 3.
// South-west, enemy h13 at 2 is taken: i14, h13, g12 (F+A); f11 lost: 3. Two open lines:
// 8. 3 + 3 + 8 = 14.
#[test]
fn heavy_pieces_keep_their_line() {
    let e = bl_engine();
    assert_eq!(
        crowded(&e, "heavy_machine", WHITE, &["j16"], &["l15"]),
        [
            "f15", "g15", "h15", "i15", "j11", "j12", "j13", "j14", "j17", "j18", "j19", "k15",
            "l15", "m15"
        ]
    );
    assert_eq!(
        crowded(&e, "heavy_elephant", WHITE, &["k16"], &["h13"]),
        [
            "f19", "g12", "g18", "h13", "h17", "i14", "i16", "k14", "l13", "l17", "m12", "m18",
            "n11", "n19"
        ]
    );
}

// Minister j15 ringed by own pieces: W is shut; the 8 N and 4 D leaps clear the ring: 12;
// own on the D square j17 takes one: 11; the enemy on the N square k17 is taken: still 11.
// High priestess likewise: F shut, A 4 + N 8 = 12; own on l17 (A): 11; enemy on h16 (N)
// taken: 11.
#[test]
fn minister_and_high_priestess_leap_over_a_ring() {
    let e = bl_engine();
    let mut own: Vec<&str> = RING.to_vec();
    own.push("j17");
    assert_eq!(
        crowded(&e, "minister", WHITE, &own, &["k17"]),
        ["h14", "h15", "h16", "i13", "i17", "j13", "k13", "k17", "l14", "l15", "l16"]
    );
    let mut own: Vec<&str> = RING.to_vec();
    own.push("l17");
    assert_eq!(
        crowded(&e, "priestess", WHITE, &own, &["h16"]),
        ["h13", "h14", "h16", "h17", "i13", "i17", "k13", "k17", "l13", "l14", "l16"]
    );
}

// The destinations listed while moving are those offered through a real activation too:
// the White king on j10 activates the greater war elephant on j15 (distance 5).
#[test]
fn activation_offers_the_same_destinations() {
    let e = bl_engine();
    let s = bl_position(
        &e,
        WHITE,
        &[
            ("j10", WHITE, "king"),
            ("j15", WHITE, "greater_elephant"),
            ("j16", WHITE, "wazir"),
            ("l17", BLACK, "wazir"),
            ("t30", BLACK, "king"),
        ],
    );
    let direct = bl_destinations(&e, &s, "j15");
    let mut t = s.clone();
    play(&e, &mut t, "activate j15 j10");
    let mut via: Vec<String> = legal_texts(&e, &t)
        .iter()
        .map(|a| a.strip_prefix("go ").expect("only go actions").to_string())
        .collect();
    via.sort();
    assert_eq!(via, direct);
    // j16 is own, so W and W+W north are shut; D north and D+W, D+D remain (j17-j19); the
    // north-east line stops at the enemy on l17 (k16, l17, m18); 6 open lines x 4.
    assert_eq!(direct.len(), 30, "{direct:?}");
}

// A capture is by landing only: a leap over an enemy piece leaves it on the board.
#[test]
fn leaping_over_an_enemy_does_not_take_it() {
    let e = bl_engine();
    let mut s = bl_position(
        &e,
        WHITE,
        &[
            ("j10", WHITE, "king"),
            ("j15", WHITE, "lesser_elephant"),
            ("j16", BLACK, "wazir"),
            ("l17", BLACK, "wazir"),
            ("t30", BLACK, "king"),
        ],
    );
    play(&e, &mut s, "activate j15 j10");
    play(&e, &mut s, "go j17");
    assert_eq!(
        bl_at(&e, &s, "j17"),
        Some((WHITE, "lesser_elephant".into()))
    );
    assert_eq!(bl_at(&e, &s, "j16"), Some((BLACK, "wazir".into())));
    assert!(cards_in(&e, &s, "captured", BLACK).is_empty());
}

// ---- how far a piece reaches ----------------------------------------------------------

/// Squares apart, counted as a king steps: the larger of the file and rank differences.
fn squares_apart(e: &Engine, a: &str, b: &str) -> u32 {
    let cells = &e.game.board.cells;
    let (p, q) = (&cells[cell(e, a) as usize], &cells[cell(e, b) as usize]);
    u32::from(p.x.abs_diff(q.x).max(p.y.abs_diff(q.y)))
}

// The rules file asks whether a king is attacked only of the enemy pieces within 4 squares
// (`attacked`), since no piece moves farther: each piece type alone in the middle of the
// board, of either side, reaches at most 4 squares away, and some reach exactly 4 (a piece
// given a longer move must raise the number there, and this test says so).
#[test]
fn no_piece_reaches_farther_than_the_bound_attacked_relies_on() {
    let e = bl_engine();
    let ranks = [
        "king",
        "captain",
        "wazir",
        "ferz",
        "sergeant",
        "colonel",
        "marshall",
        "lesser_elephant",
        "greater_elephant",
        "light_machine",
        "light_elephant",
        "heavy_machine",
        "heavy_elephant",
        "minister",
        "priestess",
    ];
    let mut farthest = 0;
    for rank in ranks {
        for seat in [WHITE, BLACK] {
            let got = dests(&e, &[("j15", seat, rank)], "j15");
            assert!(!got.is_empty(), "{rank} of seat {seat} has no move");
            let far = got
                .iter()
                .map(|d| squares_apart(&e, "j15", d))
                .max()
                .unwrap_or(0);
            assert!(
                far <= 4,
                "{rank} of seat {seat} reaches {far} squares: raise the 4 in `attacked`"
            );
            farthest = farthest.max(far);
        }
    }
    assert_eq!(farthest, 4);
}
