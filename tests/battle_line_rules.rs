//! Battle Line's rulings (games/battle_line.muster; rulebook battle-line.txt, rulings in
//! design/games.md) are scenarios: games/scenarios/battle_line/*.scenarios, run by
//! `muster test` and tests/scenarios.rs. What stays here is what a scenario cannot say:
//! that the state stays whole when a promotion swaps a piece for a spare captain.

mod common;

use common::*;

// Promotion (a sergeant, wazir or ferz on the far rank, both sides, with and without a
// capture; the rulings themselves are in promotion.scenarios) keeps the state whole: one
// piece fewer on the board for a capture and none otherwise, and every component where the
// state's indexes say it is.
#[test]
fn promotion_keeps_the_state_whole() {
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
        play(&e, &mut s, &format!("activate {from} {king}"));
        play(&e, &mut s, &format!("go {to}"));
        let what = format!("{rank} of seat {seat} to {to}");
        assert_eq!(bl_at(&e, &s, to), Some((seat, "captain".into())), "{what}");
        assert_eq!(on_board(&s), before - capture as usize, "{what}");
        assert_eq!(consistency_problem(&s), None, "{what}");
    }
}
