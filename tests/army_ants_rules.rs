//! One scenario per rule of Army Ants (games/army_ants.muster; rulebook army-ants.txt,
//! rulings in design/games.md). Positions are built by hand with `common::position`.

mod common;

use common::*;
use muster::engine::Outcome;

// ---- set-up ---------------------------------------------------------------------

// Set-up: each army is Ace-9 of its two suits plus one Queen (19 cards), dealt face up
// onto its own four ranks with the back centre (c1 / c8) left empty.
#[test]
fn the_deal_fills_each_territory_but_its_back_centre() {
    let e = engine();
    for seed in 0..10 {
        let s = start(&e, seed);
        for (seat, ranks, centre) in [
            (RED, ['1', '2', '3', '4'], "c1"),
            (BLACK, ['5', '6', '7', '8'], "c8"),
        ] {
            let mut army = Vec::new();
            for f in ['a', 'b', 'c', 'd', 'e'] {
                for r in ranks {
                    let name = format!("{f}{r}");
                    if name == centre {
                        assert_eq!(at(&e, &s, &name), None, "seed {seed}: {centre} is dealt");
                        continue;
                    }
                    let (owner, rank) =
                        at(&e, &s, &name).unwrap_or_else(|| panic!("seed {seed}: {name} is empty"));
                    assert_eq!(owner, seat, "seed {seed}: {name}");
                    let comp = s.cells[cell(&e, &name) as usize];
                    assert_eq!(colour(&e, comp), seat_colour(seat));
                    assert!(s.face_up[comp as usize]);
                    army.push(rank);
                }
            }
            army.sort_unstable();
            assert_eq!(
                army,
                vec![1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, QUEEN],
                "seed {seed}"
            );
        }
    }
}

// ---- attack ---------------------------------------------------------------------

// Attack: a card may not attack an enemy card of higher value (5 onto 6).
#[test]
fn a_five_may_not_attack_a_six() {
    let e = engine();
    let s = battle(
        &e,
        RED,
        &[
            ("b3", RED, 5),
            ("b4", BLACK, 6),
            ("a1", RED, QUEEN),
            ("e8", BLACK, QUEEN),
        ],
    );
    assert!(
        !legal_texts(&e, &s).iter().any(|t| t.starts_with("attack")),
        "{:?}",
        legal_texts(&e, &s)
    );
    assert_eq!(
        refused(&e, &s, "attack b3 b4"),
        "a card may attack only an enemy card of equal or lower value, or the Queen"
    );
}

// Attack: equal values remove both cards, each to its owner's `fallen` zone.
#[test]
fn a_six_attacking_a_six_removes_both() {
    let e = engine();
    let mut s = battle(
        &e,
        RED,
        &[
            ("b3", RED, 6),
            ("b6", BLACK, 6),
            ("a1", RED, QUEEN),
            ("e8", BLACK, QUEEN),
            ("a2", RED, 2),
            ("e7", BLACK, 3),
        ],
    );
    assert!(is_legal(&e, &s, "attack b3 b6"));
    play(&e, &mut s, "attack b3 b6");
    assert_eq!(at(&e, &s, "b3"), None);
    assert_eq!(at(&e, &s, "b6"), None);
    assert_eq!(fallen(&e, &s, RED), vec![6]);
    assert_eq!(fallen(&e, &s, BLACK), vec![6]);
    assert_eq!(s.outcome, None);
    assert_eq!(s.turn_seat, BLACK);
    assert_eq!(consistency_problem(&s), None);
}

// Attack: a higher attacker removes the defender and takes its square.
#[test]
fn higher_attacker_removes_defender_and_takes_its_square() {
    let e = engine();
    let mut s = battle(
        &e,
        RED,
        &[
            ("b3", RED, 7),
            ("b4", BLACK, 4),
            ("a1", RED, QUEEN),
            ("e8", BLACK, QUEEN),
            ("e7", BLACK, 3),
        ],
    );
    play(&e, &mut s, "attack b3 b4");
    assert_eq!(at(&e, &s, "b3"), None);
    assert_eq!(at(&e, &s, "b4"), Some((RED, 7)));
    assert_eq!(fallen(&e, &s, RED), Vec::<i64>::new());
    assert_eq!(fallen(&e, &s, BLACK), vec![4]);
    assert_eq!(s.outcome, None);
    assert_eq!(consistency_problem(&s), None);
}

// Attack: a lower card (ace onto 9) is listed for the 9 but never for the ace.
#[test]
fn attack_value_comparison_goes_one_way() {
    let e = engine();
    let s = battle(
        &e,
        BLACK,
        &[
            ("c4", RED, 1),
            ("c5", BLACK, 9),
            ("a1", RED, QUEEN),
            ("e8", BLACK, QUEEN),
        ],
    );
    assert!(is_legal(&e, &s, "attack c5 c4"));
    let r = battle(
        &e,
        RED,
        &[
            ("c4", RED, 1),
            ("c5", BLACK, 9),
            ("a1", RED, QUEEN),
            ("e8", BLACK, QUEEN),
        ],
    );
    assert!(!is_legal(&e, &r, "attack c4 c5"));
}

// Attack from a distance: a straight orthogonal line through empty squares.
#[test]
fn attack_from_a_distance_through_empty_squares() {
    let e = engine();
    let mut s = battle(
        &e,
        RED,
        &[
            ("a1", RED, 7),
            ("a6", BLACK, 3),
            ("e1", RED, QUEEN),
            ("e8", BLACK, QUEEN),
        ],
    );
    let attacks: Vec<String> = legal_texts(&e, &s)
        .into_iter()
        .filter(|t| t.starts_with("attack"))
        .collect();
    assert_eq!(attacks, vec!["attack a1 a6"]);
    play(&e, &mut s, "attack a1 a6");
    assert_eq!(at(&e, &s, "a1"), None);
    assert_eq!(at(&e, &s, "a6"), Some((RED, 7)));
    assert_eq!(fallen(&e, &s, BLACK), vec![3]);
}

// Attack may not jump: a card in the line (own or enemy) blocks a more distant target.
#[test]
fn attack_may_not_pass_a_blocking_card() {
    let e = engine();
    // Own card in the way.
    let s = battle(
        &e,
        RED,
        &[
            ("a1", RED, 7),
            ("a3", RED, 2),
            ("a6", BLACK, 3),
            ("e1", RED, QUEEN),
            ("e8", BLACK, QUEEN),
        ],
    );
    assert!(!is_legal(&e, &s, "attack a1 a6"));
    assert_eq!(
        refused(&e, &s, "attack a1 a6"),
        "`a6` is not one of the choices for `target` here"
    );
    // Enemy card in the way: only the nearer one may be attacked.
    let s = battle(
        &e,
        RED,
        &[
            ("a1", RED, 7),
            ("a4", BLACK, 2),
            ("a6", BLACK, 3),
            ("e1", RED, QUEEN),
            ("e8", BLACK, QUEEN),
        ],
    );
    let attacks: Vec<String> = legal_texts(&e, &s)
        .into_iter()
        .filter(|t| t.starts_with("attack"))
        .collect();
    assert_eq!(attacks, vec!["attack a1 a4"]);
}

// Attack is orthogonal only: a diagonal neighbour or a diagonal line cannot be attacked.
#[test]
fn attack_may_not_go_diagonally() {
    let e = engine();
    let s = battle(
        &e,
        RED,
        &[
            ("b3", RED, 9),
            ("c4", BLACK, 1),
            ("d5", BLACK, 2),
            ("a1", RED, QUEEN),
            ("e8", BLACK, QUEEN),
        ],
    );
    assert!(
        !legal_texts(&e, &s).iter().any(|t| t.starts_with("attack")),
        "{:?}",
        legal_texts(&e, &s)
    );
    assert_eq!(
        refused(&e, &s, "attack b3 c4"),
        "`c4` is not one of the choices for `target` here"
    );
    assert_eq!(
        refused(&e, &s, "attack b3 d5"),
        "`d5` is not one of the choices for `target` here"
    );
}

// The Queen may never attack, not even the lowest card next to her.
#[test]
fn the_queen_may_not_attack() {
    let e = engine();
    let s = battle(
        &e,
        RED,
        &[
            ("b3", RED, QUEEN),
            ("b4", BLACK, 1),
            ("e1", RED, 2),
            ("e8", BLACK, QUEEN),
        ],
    );
    assert!(!legal_texts(&e, &s)
        .iter()
        .any(|t| t.starts_with("attack b3")));
    assert_eq!(refused(&e, &s, "attack b3 b4"), "the Queen never attacks");
}

// Any card, even an ace, may attack the Queen, and capturing her wins.
#[test]
fn an_ace_captures_the_queen_and_wins() {
    let e = engine();
    let mut s = battle(
        &e,
        RED,
        &[
            ("b3", RED, 1),
            ("b5", BLACK, QUEEN),
            ("a1", RED, QUEEN),
            ("e8", BLACK, 9),
        ],
    );
    assert!(is_legal(&e, &s, "attack b3 b5"));
    play(&e, &mut s, "attack b3 b5");
    assert_eq!(s.outcome, Some(Outcome::Win(vec![RED])));
    assert_eq!(at(&e, &s, "b5"), Some((RED, 1)));
    assert_eq!(at(&e, &s, "b3"), None);
    assert_eq!(fallen(&e, &s, BLACK), vec![QUEEN]);
    assert_eq!(e.decider(&s), None);
    assert!(e.legal_actions(&s).is_empty());
    assert_eq!(consistency_problem(&s), None);
}

// Capturing the Queen wins for Black too (the win goes to the attacker's seat).
#[test]
fn black_captures_the_red_queen_and_wins() {
    let e = engine();
    let mut s = battle(
        &e,
        BLACK,
        &[
            ("c8", BLACK, 4),
            ("c1", RED, QUEEN),
            ("a1", RED, 9),
            ("e8", BLACK, QUEEN),
        ],
    );
    play(&e, &mut s, "attack c8 c1");
    assert_eq!(s.outcome, Some(Outcome::Win(vec![BLACK])));
    assert_eq!(fallen(&e, &s, RED), vec![QUEEN]);
}

// ---- march ----------------------------------------------------------------------

// March: a run moves along its own axis, the front card leading into empty squares.
#[test]
fn a_run_marches_along_its_axis() {
    let e = engine();
    let pieces = [
        ("a3", RED, 2),
        ("b3", RED, 3),
        ("c3", RED, 4),
        ("a1", RED, QUEEN),
        ("e8", BLACK, QUEEN),
    ];
    let s = battle(&e, RED, &pieces);
    let along: Vec<String> = legal_texts(&e, &s)
        .into_iter()
        .filter(|t| t.starts_with("march a3-c3 e") || t.starts_with("march a3-c3 w"))
        .collect();
    assert_eq!(along, vec!["march a3-c3 e 1", "march a3-c3 e 2"]);
    let mut s2 = s.clone();
    play(&e, &mut s2, "march a3-c3 e 2");
    assert_eq!(
        [
            at(&e, &s2, "a3"),
            at(&e, &s2, "b3"),
            at(&e, &s2, "c3"),
            at(&e, &s2, "d3"),
            at(&e, &s2, "e3")
        ],
        [None, None, Some((RED, 2)), Some((RED, 3)), Some((RED, 4))]
    );
    // Off the board is refused.
    assert_eq!(
        refused(&e, &s, "march a3-c3 e 3"),
        "`3` is not one of the choices for `steps` here"
    );
    assert_eq!(
        refused(&e, &s, "march a3-c3 w 1"),
        "`1` is not one of the choices for `steps` here"
    );
}

// March: a run moves across its axis, every card the same distance.
#[test]
fn a_run_marches_across_its_axis() {
    let e = engine();
    let mut s = battle(
        &e,
        RED,
        &[
            ("a3", RED, 2),
            ("b3", RED, 3),
            ("c3", RED, 4),
            ("a1", RED, QUEEN),
            ("e8", BLACK, QUEEN),
        ],
    );
    // North as far as the top of the board (ranks 4..8), south as far as rank 2 (a1 is taken).
    let across: Vec<String> = legal_texts(&e, &s)
        .into_iter()
        .filter(|t| t.starts_with("march a3-c3 n") || t.starts_with("march a3-c3 s"))
        .collect();
    assert_eq!(
        across,
        vec![
            "march a3-c3 n 1",
            "march a3-c3 n 2",
            "march a3-c3 n 3",
            "march a3-c3 n 4",
            "march a3-c3 n 5",
            "march a3-c3 s 1"
        ]
    );
    play(&e, &mut s, "march a3-c3 n 3");
    assert_eq!(
        [at(&e, &s, "a6"), at(&e, &s, "b6"), at(&e, &s, "c6")],
        [Some((RED, 2)), Some((RED, 3)), Some((RED, 4))]
    );
    assert_eq!(
        [at(&e, &s, "a3"), at(&e, &s, "b3"), at(&e, &s, "c3")],
        [None, None, None]
    );
    assert_eq!(consistency_problem(&s), None);
}

// March: one occupied square in the path of one card blocks the whole run.
#[test]
fn a_run_is_blocked_by_one_occupied_square_across_its_axis() {
    let e = engine();
    for blocker in [RED, BLACK] {
        let s = battle(
            &e,
            RED,
            &[
                ("a3", RED, 2),
                ("b3", RED, 3),
                ("c3", RED, 4),
                ("b5", blocker, 5),
                ("a1", RED, QUEEN),
                ("e8", BLACK, QUEEN),
            ],
        );
        let north: Vec<String> = legal_texts(&e, &s)
            .into_iter()
            .filter(|t| t.starts_with("march a3-c3 n"))
            .collect();
        assert_eq!(
            north,
            vec!["march a3-c3 n 1"],
            "blocker owned by seat {blocker}"
        );
        assert_eq!(
            refused(&e, &s, "march a3-c3 n 2"),
            "`2` is not one of the choices for `steps` here"
        );
        assert_eq!(
            refused(&e, &s, "march a3-c3 n 3"),
            "`3` is not one of the choices for `steps` here"
        );
    }
}

// March: any contiguous part of a longer run may march on its own; a gapped line may not.
#[test]
fn any_contiguous_part_of_a_run_may_march() {
    let e = engine();
    let s = battle(
        &e,
        RED,
        &[
            ("a2", RED, 1),
            ("b2", RED, 2),
            ("c2", RED, 3),
            ("d2", RED, 4),
            ("e1", RED, QUEEN),
            ("e8", BLACK, QUEEN),
        ],
    );
    for part in [
        "a2-b2", "b2-c2", "c2-d2", "a2-c2", "b2-d2", "a2-d2", "b2", "c2",
    ] {
        assert!(
            is_legal(&e, &s, &format!("march {part} n 1")),
            "march {part} n 1 should be legal"
        );
    }
    let mut s2 = s.clone();
    play(&e, &mut s2, "march b2-c2 n 2");
    assert_eq!(at(&e, &s2, "a2"), Some((RED, 1)));
    assert_eq!(at(&e, &s2, "b4"), Some((RED, 2)));
    assert_eq!(at(&e, &s2, "c4"), Some((RED, 3)));
    assert_eq!(at(&e, &s2, "d2"), Some((RED, 4)));
    assert_eq!([at(&e, &s2, "b2"), at(&e, &s2, "c2")], [None, None]);
    // A line with a gap is not a run.
    let gap = battle(
        &e,
        RED,
        &[
            ("a2", RED, 1),
            ("c2", RED, 3),
            ("e1", RED, QUEEN),
            ("e8", BLACK, QUEEN),
        ],
    );
    assert_eq!(
        refused(&e, &gap, "march a2-c2 n 1"),
        "`a2-c2` is not one of the choices for `run` here"
    );
}

// March: each sub-run is listed once, whichever end it is written from.
#[test]
fn runs_are_listed_once() {
    let e = engine();
    let s = battle(
        &e,
        RED,
        &[
            ("a2", RED, 1),
            ("b2", RED, 2),
            ("c2", RED, 3),
            ("e1", RED, QUEEN),
            ("e8", BLACK, QUEEN),
        ],
    );
    let texts = legal_texts(&e, &s);
    let mut sorted = texts.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), texts.len(), "duplicate actions listed");
    // Written backwards, a run parses to the same action.
    assert_eq!(
        e.parse_action(&s, "march c2-a2 n 1"),
        e.parse_action(&s, "march a2-c2 n 1")
    );
}

// March: the Queen may march, alone or as part of a run.
#[test]
fn the_queen_may_march() {
    let e = engine();
    let mut s = battle(
        &e,
        RED,
        &[("a1", RED, QUEEN), ("b1", RED, 4), ("e8", BLACK, QUEEN)],
    );
    assert!(is_legal(&e, &s, "march a1 n 3"));
    assert!(is_legal(&e, &s, "march a1-b1 n 1"));
    play(&e, &mut s, "march a1-b1 n 2");
    assert_eq!(at(&e, &s, "a3"), Some((RED, QUEEN)));
    assert_eq!(at(&e, &s, "b3"), Some((RED, 4)));
}

// March: only own cards march; an enemy card cannot be commanded.
#[test]
fn only_own_cards_march() {
    let e = engine();
    let s = battle(
        &e,
        RED,
        &[("a1", RED, QUEEN), ("b6", BLACK, 4), ("e8", BLACK, QUEEN)],
    );
    assert!(!legal_texts(&e, &s)
        .iter()
        .any(|t| t.contains("b6") || t.contains("e8")));
    assert_eq!(
        refused(&e, &s, "march b6 s 1"),
        "`b6` is not one of the choices for `run` here"
    );
}

// ---- move out -------------------------------------------------------------------

// Move Out: one card walks round corners through empty squares, but never through a card.
#[test]
fn move_out_turns_corners_through_empty_squares() {
    let e = engine();
    // a1 is walled in to the north by its own a2 and to the east (beyond b1) by its own c1.
    let mut s = battle(
        &e,
        RED,
        &[
            ("a1", RED, 5),
            ("a2", RED, 3),
            ("c1", RED, 2),
            ("c2", BLACK, 9),
            ("e1", RED, QUEEN),
            ("e8", BLACK, QUEEN),
        ],
    );
    // From a1 the only free first step is b1; from b1, b2; from b2, b3 and on.
    assert!(is_legal(&e, &s, "move_out a1 b2"));
    assert!(is_legal(&e, &s, "move_out a1 a3"));
    assert!(is_legal(&e, &s, "move_out a1 d3"));
    // c2 holds an enemy card and c1 an own card: neither can be entered.
    assert_eq!(
        refused(&e, &s, "move_out a1 c2"),
        "`c2` is not one of the choices for `dest` here"
    );
    assert_eq!(
        refused(&e, &s, "move_out a1 c1"),
        "`c1` is not one of the choices for `dest` here"
    );
    // Move Out may go into enemy territory in the battle.
    assert!(is_legal(&e, &s, "move_out a1 b7"));
    play(&e, &mut s, "move_out a1 a3");
    assert_eq!(at(&e, &s, "a1"), None);
    assert_eq!(at(&e, &s, "a3"), Some((RED, 5)));
    assert_eq!(consistency_problem(&s), None);
}

// Move Out: a card boxed in by other cards has no move-out at all.
#[test]
fn move_out_cannot_pass_through_cards() {
    let e = engine();
    let s = battle(
        &e,
        RED,
        &[
            ("a1", RED, 5),
            ("a2", RED, 3),
            ("b1", BLACK, 2),
            ("e1", RED, QUEEN),
            ("e8", BLACK, QUEEN),
        ],
    );
    assert!(!legal_texts(&e, &s)
        .iter()
        .any(|t| t.starts_with("move_out a1 ")));
}

// A straight single-card move is listed once, as a march, not also as a move_out.
#[test]
fn straight_single_card_move_is_listed_once_as_a_march() {
    let e = engine();
    let s = battle(
        &e,
        RED,
        &[("a1", RED, 5), ("e1", RED, QUEEN), ("e8", BLACK, QUEEN)],
    );
    let texts = legal_texts(&e, &s);
    assert!(texts.contains(&"march a1 e 2".to_string()));
    assert!(texts.contains(&"march a1 n 4".to_string()));
    assert!(!texts.contains(&"move_out a1 c1".to_string()));
    assert!(!texts.contains(&"move_out a1 a5".to_string()));
    assert!(texts.contains(&"move_out a1 b2".to_string()));
    assert_eq!(
        refused(&e, &s, "move_out a1 c1"),
        "a card going straight along one line marches: write it as a march"
    );
    // Every square a1 reaches is reached exactly once: by march (straight) or move_out (turning).
    let mut dests: Vec<String> = Vec::new();
    for t in &texts {
        let w: Vec<&str> = t.split(' ').collect();
        if w[0] == "move_out" && w[1] == "a1" {
            dests.push(w[2].to_string());
        }
    }
    for d in ["b1", "c1", "d1", "a2", "a3", "a8"] {
        assert!(
            !dests.contains(&d.to_string()),
            "{d} is straight from a1 but listed as a move_out"
        );
    }
    // Every empty square is reachable: 37 in all, 10 straight (3 east, 7 north), 27 turning.
    let straight = texts.iter().filter(|t| t.starts_with("march a1 ")).count();
    assert_eq!(straight, 3 + 7);
    assert_eq!(dests.len(), 40 - 3 - straight);
}

// ---- swap -----------------------------------------------------------------------

// Swap: a card trades places with an orthogonally adjacent own card (Queen included).
#[test]
fn swap_with_an_orthogonal_own_card() {
    let e = engine();
    let mut s = battle(
        &e,
        RED,
        &[
            ("b2", RED, QUEEN),
            ("b3", RED, 1),
            ("c3", RED, 7),
            ("e8", BLACK, QUEEN),
        ],
    );
    let swaps: Vec<String> = legal_texts(&e, &s)
        .into_iter()
        .filter(|t| t.starts_with("swap"))
        .collect();
    assert_eq!(swaps, vec!["swap b2 b3", "swap b3 c3"]);
    play(&e, &mut s, "swap b2 b3");
    assert_eq!(at(&e, &s, "b2"), Some((RED, 1)));
    assert_eq!(at(&e, &s, "b3"), Some((RED, QUEEN)));
    assert_eq!(consistency_problem(&s), None);
}

// Swap: never diagonally, never with an enemy card, never with an empty square.
#[test]
fn swap_not_diagonal_not_enemy_not_empty() {
    let e = engine();
    let s = battle(
        &e,
        RED,
        &[
            ("b2", RED, 4),
            ("c3", RED, 7),
            ("b1", BLACK, 2),
            ("a1", RED, QUEEN),
            ("e8", BLACK, QUEEN),
        ],
    );
    let swaps: Vec<String> = legal_texts(&e, &s)
        .into_iter()
        .filter(|t| t.starts_with("swap"))
        .collect();
    assert_eq!(swaps, Vec::<String>::new());
    assert_eq!(
        refused(&e, &s, "swap b2 c3"),
        "`c3` is not one of the choices for `b` here"
    );
    assert_eq!(
        refused(&e, &s, "swap b1 b2"),
        "`b1` is not one of the choices for `a` here"
    );
    assert_eq!(
        refused(&e, &s, "swap a1 b1"),
        "it fails `require (b.piece.owner == me) and (a < b)`"
    );
    assert_eq!(
        refused(&e, &s, "swap b2 b3"),
        "it fails `require (b.piece.owner == me) and (a < b)`"
    );
}

// ---- rally ----------------------------------------------------------------------

// Rally: only March, Swap and the Queen's Favor are offered; Attack and Move Out are not.
#[test]
fn rally_offers_only_march_swap_and_favor() {
    let e = engine();
    for seed in 0..20 {
        let s = start(&e, seed);
        assert_eq!(s.phase, RALLY);
        let texts = legal_texts(&e, &s);
        assert!(!texts.is_empty());
        for t in &texts {
            let name = t.split(' ').next().unwrap();
            assert!(
                ["march", "swap", "favor"].contains(&name),
                "seed {seed}: {t} offered in the rally"
            );
        }
    }
    // Even with an enemy card in reach, no attack.
    let s = rally(
        &e,
        RED,
        &[
            ("b4", RED, 9),
            ("b5", BLACK, 1),
            ("a1", RED, QUEEN),
            ("e8", BLACK, QUEEN),
        ],
    );
    assert_eq!(
        refused(&e, &s, "attack b4 b5"),
        "`attack` is not offered now; the choices are: march, swap, favor"
    );
    assert_eq!(
        refused(&e, &s, "move_out a1 b2"),
        "`move_out` is not offered now; the choices are: march, swap, favor"
    );
}

// Rally: no card may enter (or cross into) enemy territory; the same march is legal in battle.
#[test]
fn rally_forbids_entering_enemy_territory() {
    let e = engine();
    let pieces = [
        ("b4", RED, 9),
        ("c3", RED, 2),
        ("c4", RED, 3),
        ("a1", RED, QUEEN),
        ("e8", BLACK, QUEEN),
    ];
    let s = rally(&e, RED, &pieces);
    let texts = legal_texts(&e, &s);
    // Whatever march is listed, every Red card stays in ranks 1-4.
    for a in e.legal_actions(&s) {
        let mut after = s.clone();
        e.apply(&mut after, &a).unwrap();
        for (c, &comp) in after.cells.iter().enumerate() {
            if comp != muster::engine::NONE && after.owners[comp as usize] == RED {
                let name = cell_name(&e, c as u16);
                assert!(
                    name.ends_with(['1', '2', '3', '4']),
                    "`{}` puts a Red card on {name}",
                    e.action_text(&s, &a)
                );
            }
        }
    }
    assert!(!texts.contains(&"march b4 n 1".to_string()));
    assert!(texts.contains(&"march c3-c4 s 1".to_string()));
    assert!(texts.contains(&"march c3 w 1".to_string()));
    assert_eq!(
        refused(&e, &s, "march b4 n 1"),
        "during the rally no card may enter or pass through enemy territory"
    );
    assert_eq!(
        refused(&e, &s, "march a1 n 7"),
        "during the rally no card may enter or pass through enemy territory"
    );
    assert_eq!(
        refused(&e, &s, "march c3-c4 n 1"),
        "during the rally no card may enter or pass through enemy territory"
    );
    // Black may not come south either.
    let s = rally(
        &e,
        BLACK,
        &[("b5", BLACK, 9), ("a1", RED, QUEEN), ("e8", BLACK, QUEEN)],
    );
    assert!(!is_legal(&e, &s, "march b5 s 1"));
    assert!(is_legal(&e, &s, "march b5 n 1"));
    // In the battle the same marches are allowed.
    let b = battle(&e, RED, &pieces);
    assert!(is_legal(&e, &b, "march b4 n 1"));
    assert!(is_legal(&e, &b, "march a1 n 7"));
}

// Rally: exactly five turns each, alternating, Red first; then the battle starts with Red.
#[test]
fn rally_is_five_turns_each_alternating_then_battle_with_red() {
    let e = engine();
    for seed in [1u64, 2, 3, 7, 11] {
        let mut s = start(&e, seed);
        let mut seats = Vec::new();
        while s.phase == RALLY {
            assert!(
                seats.len() < 10,
                "seed {seed}: the rally runs past ten turns"
            );
            seats.push(s.turn_seat);
            // Any listed command other than the Queen's Favor.
            let a = e
                .legal_actions(&s)
                .into_iter()
                .find(|a| !e.action_text(&s, a).starts_with("favor"))
                .expect("a rally command");
            e.apply(&mut s, &a).unwrap();
        }
        assert_eq!(
            seats,
            vec![RED, BLACK, RED, BLACK, RED, BLACK, RED, BLACK, RED, BLACK],
            "seed {seed}"
        );
        assert_eq!(s.phase, BATTLE);
        assert_eq!(s.turn_seat, RED);
        assert_eq!(s.turns, 10);
        assert_eq!(
            (rally_turns(&e, &s, RED), rally_turns(&e, &s, BLACK)),
            (0, 0)
        );
        let favor = e.parse_action(&s, "favor a1").unwrap();
        assert_eq!(
            e.why_illegal(&s, &favor).unwrap(),
            "`favor` is not offered now; the choices are: march, move_out, swap, attack"
        );
    }
}

// Queen's Favor: Red, queen in the front row on the first turn, sends her to c1; Black then
// takes all five of its rally turns in a row, and the battle begins with Red.
#[test]
fn queens_favor_moves_the_queen_and_the_opponent_takes_its_turns_in_a_row() {
    let e = engine();
    // Seed 7 deals Red's queen to b4, in its front row.
    let mut s = start(&e, 7);
    assert_eq!(at(&e, &s, "b4"), Some((RED, QUEEN)));
    assert_eq!(at(&e, &s, "c1"), None);
    let favors: Vec<String> = legal_texts(&e, &s)
        .into_iter()
        .filter(|t| t.starts_with("favor"))
        .collect();
    assert_eq!(favors, vec!["favor b4"]);
    play(&e, &mut s, "favor b4");
    assert_eq!(at(&e, &s, "b4"), None);
    assert_eq!(at(&e, &s, "c1"), Some((RED, QUEEN)));
    assert_eq!(rally_turns(&e, &s, RED), 0);
    let mut seats = Vec::new();
    while s.phase == RALLY {
        assert!(seats.len() < 6);
        seats.push(s.turn_seat);
        assert!(
            !legal_texts(&e, &s).iter().any(|t| t.starts_with("favor")),
            "Black's queen is not in its front row"
        );
        let a = e.legal_actions(&s)[0].clone();
        e.apply(&mut s, &a).unwrap();
    }
    assert_eq!(seats, vec![BLACK; 5]);
    assert_eq!(s.phase, BATTLE);
    assert_eq!(s.turn_seat, RED);
    assert_eq!(s.turns, 6);
}

// Queen's Favor: Black may take it on its own first turn (after Red's first); Red then
// takes its four remaining turns in a row.
#[test]
fn queens_favor_for_black_after_reds_first_turn() {
    let e = engine();
    let mut s = rally(
        &e,
        RED,
        &[
            ("a1", RED, QUEEN),
            ("b2", RED, 5),
            ("c5", BLACK, QUEEN),
            ("a8", BLACK, 4),
        ],
    );
    play(&e, &mut s, "march b2 e 1");
    assert_eq!(s.turn_seat, BLACK);
    assert!(is_legal(&e, &s, "favor c5"));
    play(&e, &mut s, "favor c5");
    assert_eq!(at(&e, &s, "c8"), Some((BLACK, QUEEN)));
    assert_eq!(at(&e, &s, "c5"), None);
    assert_eq!(
        (rally_turns(&e, &s, RED), rally_turns(&e, &s, BLACK)),
        (4, 0)
    );
    let mut seats = Vec::new();
    while s.phase == RALLY {
        assert!(seats.len() < 5);
        seats.push(s.turn_seat);
        let a = e.legal_actions(&s)[0].clone();
        e.apply(&mut s, &a).unwrap();
    }
    assert_eq!(seats, vec![RED; 4]);
    assert_eq!((s.phase, s.turn_seat), (BATTLE, RED));
}

// Queen's Favor: if both take it, the rally is over after two turns and Red starts the battle.
#[test]
fn queens_favor_taken_by_both_players() {
    let e = engine();
    let mut s = rally(
        &e,
        RED,
        &[
            ("b4", RED, QUEEN),
            ("d5", BLACK, QUEEN),
            ("a1", RED, 3),
            ("a8", BLACK, 3),
        ],
    );
    play(&e, &mut s, "favor b4");
    assert_eq!(s.turn_seat, BLACK);
    assert!(is_legal(&e, &s, "favor d5"));
    play(&e, &mut s, "favor d5");
    assert_eq!((s.phase, s.turn_seat, s.turns), (BATTLE, RED, 2));
    assert_eq!(at(&e, &s, "c1"), Some((RED, QUEEN)));
    assert_eq!(at(&e, &s, "c8"), Some((BLACK, QUEEN)));
}

// Queen's Favor: only on the player's first rally turn.
#[test]
fn queens_favor_only_on_the_first_rally_turn() {
    let e = engine();
    let mut s = start(&e, 7);
    assert!(is_legal(&e, &s, "favor b4"));
    // Red swaps two back-row cards instead; Black moves; the queen is still in the front row.
    play(&e, &mut s, "swap a1 a2");
    let a = e
        .legal_actions(&s)
        .into_iter()
        .find(|a| !e.action_text(&s, a).starts_with("favor"))
        .unwrap();
    e.apply(&mut s, &a).unwrap();
    assert_eq!(s.turn_seat, RED);
    assert_eq!(at(&e, &s, "b4"), Some((RED, QUEEN)));
    assert_eq!(rally_turns(&e, &s, RED), 4);
    assert!(!legal_texts(&e, &s).iter().any(|t| t.starts_with("favor")));
    assert_eq!(
        refused(&e, &s, "favor b4"),
        "Queen's Favor is only for a player's first rally turn"
    );
}

// Queen's Favor: not when the queen is outside the front row, nor when the back centre is taken.
#[test]
fn queens_favor_needs_front_row_queen_and_empty_back_centre() {
    let e = engine();
    let s = rally(
        &e,
        RED,
        &[("c3", RED, QUEEN), ("a1", RED, 3), ("e8", BLACK, QUEEN)],
    );
    assert!(!legal_texts(&e, &s).iter().any(|t| t.starts_with("favor")));
    assert_eq!(
        refused(&e, &s, "favor c3"),
        "Queen's Favor moves the Queen from the front row to the free centre of the back row"
    );
    let s = rally(
        &e,
        RED,
        &[("d4", RED, QUEEN), ("c1", RED, 3), ("e8", BLACK, QUEEN)],
    );
    assert!(!legal_texts(&e, &s).iter().any(|t| t.starts_with("favor")));
    // A numbered card in the front row is no queen.
    let s = rally(
        &e,
        RED,
        &[("d4", RED, 8), ("a1", RED, QUEEN), ("e8", BLACK, QUEEN)],
    );
    assert!(!legal_texts(&e, &s).iter().any(|t| t.starts_with("favor")));
    // Not in the battle.
    let s = battle(
        &e,
        RED,
        &[("d4", RED, QUEEN), ("a1", RED, 3), ("e8", BLACK, QUEEN)],
    );
    assert_eq!(
        refused(&e, &s, "favor d4"),
        "`favor` is not offered now; the choices are: march, move_out, swap, attack"
    );
}

// ---- end of the game ------------------------------------------------------------

// Draw: when no numbered card is left in either army (the last two cancel out).
#[test]
fn draw_when_no_numbered_card_is_left() {
    let e = engine();
    let mut s = battle(
        &e,
        RED,
        &[
            ("b3", RED, 5),
            ("b6", BLACK, 5),
            ("a1", RED, QUEEN),
            ("e8", BLACK, QUEEN),
        ],
    );
    play(&e, &mut s, "attack b3 b6");
    assert_eq!(s.outcome, Some(Outcome::Draw));
    assert_eq!(fallen(&e, &s, RED), vec![5]);
    assert_eq!(fallen(&e, &s, BLACK), vec![5]);
    assert_eq!(e.decider(&s), None);
}

// No draw while one army still has a numbered card, even if the other has only its Queen.
#[test]
fn no_draw_while_one_army_has_a_numbered_card() {
    let e = engine();
    let mut s = battle(
        &e,
        RED,
        &[
            ("b3", RED, 7),
            ("b6", BLACK, 5),
            ("a1", RED, QUEEN),
            ("e8", BLACK, QUEEN),
        ],
    );
    play(&e, &mut s, "attack b3 b6");
    assert_eq!(s.outcome, None);
    assert_eq!(s.turn_seat, BLACK);
    assert!(!e.legal_actions(&s).is_empty());
}

// `on stuck draw`: a player with no legal command at all ends the game in a draw.
#[test]
fn a_player_with_no_legal_command_draws() {
    let e = engine();
    // Black's queen at a8 is walled in by Red cards at a7 and b8: no march, move out, swap
    // or attack (a queen never attacks). Red makes a quiet move; Black is stuck.
    let mut s = battle(
        &e,
        RED,
        &[
            ("a8", BLACK, QUEEN),
            ("a7", RED, 9),
            ("b8", RED, 8),
            ("e1", RED, QUEEN),
        ],
    );
    assert!(is_legal(&e, &s, "attack a7 a8"));
    play(&e, &mut s, "march e1 w 1");
    assert_eq!(s.outcome, Some(Outcome::Draw));
    assert_eq!(at(&e, &s, "d1"), Some((RED, QUEEN)));
    assert_eq!(at(&e, &s, "a8"), Some((BLACK, QUEEN)));
}

// The length cap: `max_turns 400` stops the game as Capped (neither win nor draw).
#[test]
fn the_game_is_capped_after_400_turns() {
    let e = engine();
    assert_eq!(e.game.max_turns, 400);
    let pieces = [
        ("b3", RED, 5),
        ("b6", BLACK, 7),
        ("a1", RED, QUEEN),
        ("e8", BLACK, QUEEN),
    ];
    let mut s = battle(&e, RED, &pieces);
    s.turns = 398;
    play(&e, &mut s, "march a1 e 1");
    assert_eq!((s.outcome.clone(), s.turns), (None, 399));
    play(&e, &mut s, "march e8 w 1");
    assert_eq!((s.outcome.clone(), s.turns), (Some(Outcome::Capped), 400));
    assert!(e.legal_actions(&s).is_empty());
}

// ---- notation -------------------------------------------------------------------

// Notation: commands are read case-insensitively, runs from either end; malformed
// commands are refused with a reason.
#[test]
fn notation_reads_commands_and_explains_mistakes() {
    let e = engine();
    let s = battle(
        &e,
        RED,
        &[
            ("b3", RED, 5),
            ("c3", RED, 6),
            ("b6", BLACK, 6),
            ("a1", RED, QUEEN),
            ("e8", BLACK, QUEEN),
        ],
    );
    assert_eq!(
        e.parse_action(&s, "MARCH B3-C3 N 1"),
        e.parse_action(&s, "march c3-b3 n 1")
    );
    assert!(is_legal(&e, &s, "march b3-c3 n 1"));
    assert_eq!(
        e.parse_action(&s, "attak b3 b6"),
        Err("there is no action `attak` (did you mean `attack`?); the actions are: march, move_out, swap, attack, favor".to_string())
    );
    assert_eq!(
        e.parse_action(&s, "march b3"),
        Err("`march` takes 3 argument(s): march run dir steps".to_string())
    );
    assert_eq!(
        e.parse_action(&s, "march z9 n 1"),
        Err("cannot read `z9` as the `run` of `march`".to_string())
    );
    assert_eq!(
        e.parse_action(&s, "march a1-b3 n 1"),
        Err("cannot read `a1-b3` as the `run` of `march`".to_string())
    );
    assert_eq!(
        e.parse_action(&s, ""),
        Err("nothing was entered".to_string())
    );
    assert_eq!(
        refused(&e, &s, "march b3 ne 1"),
        "`ne` is not one of the choices for `dir` here"
    );
    assert_eq!(
        refused(&e, &s, "march b3 n 9"),
        "`9` is not one of the choices for `steps` here"
    );
    assert_eq!(
        refused(&e, &s, "done"),
        "there is nothing to finish: `done` ends a step of repeated actions"
    );
}

// A finished game refuses every further action.
#[test]
fn a_finished_game_refuses_actions() {
    let e = engine();
    let mut s = battle(
        &e,
        RED,
        &[
            ("b3", RED, 1),
            ("b4", BLACK, QUEEN),
            ("a1", RED, QUEEN),
            ("e8", BLACK, 2),
        ],
    );
    let quiet = e.parse_action(&s, "march a1 e 1").unwrap();
    play(&e, &mut s, "attack b3 b4");
    assert_eq!(s.outcome, Some(Outcome::Win(vec![RED])));
    assert_eq!(
        e.why_illegal(&s, &quiet),
        Some("the game is over".to_string())
    );
    assert_eq!(
        e.apply(&mut s, &quiet),
        Err(muster::engine::EngineError::Over)
    );
}
