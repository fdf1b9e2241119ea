//! The optional set-ups of Army Ants (games/army_ants.muster; rulebook army-ants.txt,
//! "Optional rules"): `minor_deployment` and `total_deployment`. Each scenario names the
//! rule it checks; the deployments are played through with the engine's own legal actions.

mod common;

use common::*;
use muster::agents::{Agent, RandomAgent};
use muster::engine::{Engine, Seen, State};

const MINOR: &str = "minor_deployment";
const TOTAL: &str = "total_deployment";

/// The other seat.
fn other(seat: u8) -> u8 {
    1 - seat
}

/// The cells of a region for a seat, by name.
fn region(e: &Engine, name: &str, seat: u8) -> Vec<String> {
    let r = e
        .game
        .board
        .regions
        .iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("no region {name}"));
    r.cells[seat as usize]
        .iter()
        .map(|&c| cell_name(e, c))
        .collect()
}

/// The cell a `deploy CARD CELL` text names.
fn dest(text: &str) -> String {
    text.split(' ')
        .nth(2)
        .expect("deploy CARD CELL")
        .to_string()
}

/// What `seat` sees on cell `name`.
fn seen(e: &Engine, s: &State, seat: u8, name: &str) -> Seen {
    e.view(s, seat).cells[cell(e, name) as usize].clone()
}

/// Checks the views during a deployment: each placed card is face down, known to its owner
/// and hidden from the opponent (who sees whose it is); the omniscient view knows it.
fn check_hidden(e: &Engine, s: &State, what: &str) {
    for (x, &c) in s.cells.iter().enumerate() {
        if c == muster::engine::NONE {
            continue;
        }
        let owner = s.owners[c as usize];
        let name = cell_name(e, x as u16);
        assert!(!s.face_up[c as usize], "{what}: {name} is face up");
        assert_eq!(
            e.view(s, other(owner)).cells[x],
            Seen::Hidden { owner },
            "{what}: the opponent sees {name}"
        );
        assert_eq!(
            e.view(s, owner).cells[x],
            Seen::Known { comp: c, owner },
            "{what}: the owner sees {name}"
        );
        assert_eq!(
            e.omniscient_view(s).cells[x],
            Seen::Known { comp: c, owner }
        );
    }
    // Hands: the owner sees its own, the opponent how many.
    for p in [RED, BLACK] {
        let inst = zone_inst(e, "hand", p);
        assert_eq!(
            e.view(s, other(p)).zones[inst],
            vec![Seen::Hidden { owner: p }; s.zones[inst].len()],
            "{what}"
        );
        assert!(e.view(s, p).zones[inst]
            .iter()
            .all(|x| matches!(x, Seen::Known { .. })));
    }
}

/// Checks a finished deployment: the rally begins with Red and five rally turns each, and
/// every card on the board is face up and known to both seats; each army has its 19 cards
/// on its own territory, its back centre empty.
fn check_revealed(e: &Engine, s: &State, what: &str) {
    assert_eq!(phase_name(e, s), "rally", "{what}");
    assert_eq!((s.turn_seat, e.decider(s)), (RED, Some(RED)), "{what}");
    assert_eq!(
        (rally_turns(e, s, RED), rally_turns(e, s, BLACK)),
        (5, 5),
        "{what}"
    );
    for seat in [RED, BLACK] {
        let territory = region(e, "territory", seat);
        let mut n = 0;
        for (x, &c) in s.cells.iter().enumerate() {
            if c == muster::engine::NONE {
                continue;
            }
            assert!(s.face_up[c as usize], "{what}: a card face down");
            for viewer in [RED, BLACK] {
                assert!(
                    matches!(e.view(s, viewer).cells[x], Seen::Known { .. }),
                    "{what}"
                );
            }
            if s.owners[c as usize] == seat {
                assert!(territory.contains(&cell_name(e, x as u16)), "{what}");
                n += 1;
            }
        }
        assert_eq!(n, 19, "{what}: seat {seat}");
        let centre = if seat == RED { "c1" } else { "c8" };
        assert_eq!(at(e, s, centre), None, "{what}");
        assert!(s.zones[zone_inst(e, "hand", seat)].is_empty());
        assert!(s.zones[zone_inst(e, "army", seat)].is_empty());
    }
    assert_eq!(consistency_problem(s), None, "{what}");
}

/// Plays a whole deployment with `pick` choosing among the legal texts, checking after each
/// placement that it is still hidden from the opponent and calling `each(before, text)`.
/// Returns the state once the rally has begun.
fn deploy_all(
    e: &Engine,
    seed: u64,
    mut pick: impl FnMut(&State, &[String]) -> usize,
    mut each: impl FnMut(&State, &str),
) -> State {
    let mut s = start(e, seed);
    assert_eq!(phase_name(e, &s), "deployment");
    for n in 0..38 {
        let texts = legal_texts(e, &s);
        let t = texts[pick(&s, &texts)].clone();
        each(&s, &t);
        play(e, &mut s, &t);
        if n < 37 {
            assert_eq!(
                phase_name(e, &s),
                "deployment",
                "seed {seed}, placement {n}"
            );
            check_hidden(e, &s, &format!("seed {seed}, after `{t}`"));
        }
    }
    check_revealed(e, &s, &format!("seed {seed}"));
    s
}

// ---- minor_deployment -----------------------------------------------------------------

// Minor Deployment: each player draws five cards and places them face down in its front
// row, then five in the second row, five in the third and four in the back row (its centre
// left empty), the players alternating one card at a time, Red first.
#[test]
fn minor_deployment_places_rows_front_first_five_five_five_four() {
    let e = variant_engine(MINOR);
    let rows = ["front", "second", "third", "back"];
    for seed in 0..8u64 {
        let s = start(&e, seed);
        for p in [RED, BLACK] {
            assert_eq!(s.zones[zone_inst(&e, "hand", p)].len(), 5, "seed {seed}");
            assert_eq!(s.zones[zone_inst(&e, "army", p)].len(), 14, "seed {seed}");
        }
        let mut placed = [0usize; 2];
        let mut order = Vec::new();
        deploy_all(
            &e,
            seed,
            |_, texts| (seed as usize * 7) % texts.len(),
            |s, t| {
                let seat = s.turn_seat;
                assert_eq!(e.decider(s), Some(seat));
                order.push(seat);
                let k = placed[seat as usize];
                let row = rows[[0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3][k]];
                // Exactly the cells of the row still empty, for each card in hand.
                let cells = region(&e, row, seat);
                let empty: Vec<&String> = cells.iter().filter(|c| at(&e, s, c).is_none()).collect();
                assert_eq!(empty.len(), cells.len() - k % 5, "seed {seed}: {row} row");
                let hand = s.zones[zone_inst(&e, "hand", seat)].len();
                assert_eq!(
                    hand,
                    cells.len() - k % 5,
                    "seed {seed}: hand for the {row} row"
                );
                let texts = legal_texts(&e, s);
                assert_eq!(texts.len(), hand * empty.len(), "seed {seed}");
                assert!(texts.iter().all(|t| empty.contains(&&dest(t))), "{texts:?}");
                assert!(cells.contains(&dest(t)));
                placed[seat as usize] += 1;
            },
        );
        assert_eq!(placed, [19, 19]);
        let alternating: Vec<u8> = (0..38).map(|i| (i % 2) as u8).collect();
        assert_eq!(order, alternating, "seed {seed}: Red and Black alternate");
    }
}

// Minor Deployment: a card may go only to an empty cell of the row being placed.
#[test]
fn minor_deployment_refuses_other_rows_and_taken_cells() {
    let e = variant_engine(MINOR);
    let mut s = start(&e, 1);
    let hand: Vec<String> = s.zones[zone_inst(&e, "hand", RED)]
        .iter()
        .map(|&c| e.comp_text(&s, c))
        .collect();
    assert_eq!(
        refused(&e, &s, &format!("deploy {} a3", hand[0])),
        "`a3` is not one of the choices for `dest` here"
    );
    assert_eq!(
        refused(&e, &s, &format!("deploy {} c1", hand[0])),
        "`c1` is not one of the choices for `dest` here"
    );
    play(&e, &mut s, &format!("deploy {} a4", hand[0]));
    let black = e.comp_text(&s, s.zones[zone_inst(&e, "hand", BLACK)][0]);
    play(&e, &mut s, &format!("deploy {black} a5"));
    assert_eq!(
        refused(&e, &s, &format!("deploy {} a4", hand[1])),
        "that cell is taken"
    );
    // A card of the opponent's hand is not Red's to place.
    assert_eq!(
        refused(&e, &s, &format!("deploy {black} b4")),
        format!("`{black}` is not one of the choices for `card` here")
    );
}

// Minor Deployment: the opponent sees only backs until every card of both armies is placed;
// then all are turned up and the rally begins with Red.
#[test]
fn minor_deployment_hides_the_cards_until_all_are_placed() {
    let e = variant_engine(MINOR);
    let mut agent = RandomAgent::new(11);
    let mut last = None;
    let s = deploy_all(
        &e,
        4,
        |s, texts| {
            let legal = e.legal_actions(s);
            assert_eq!(legal.len(), texts.len());
            agent.choose(&e.view(s, s.turn_seat), &legal)
        },
        |s, t| last = Some((s.clone(), t.to_string())),
    );
    // Just before the last placement Black's card on the board is still hidden from Red.
    let (before, t) = last.unwrap();
    assert_eq!(before.turn_seat, BLACK);
    let some_black = region(&e, "front", BLACK)[0].clone();
    assert_eq!(
        seen(&e, &before, RED, &some_black),
        Seen::Hidden { owner: BLACK }
    );
    let placed = dest(&t);
    assert!(matches!(seen(&e, &s, RED, &placed), Seen::Known { owner, .. } if owner == BLACK));
    assert!(matches!(seen(&e, &s, RED, &some_black), Seen::Known { .. }));
}

// Minor Deployment: Queen's Favor is still offered in the rally that follows.
#[test]
fn minor_deployment_still_offers_queens_favor() {
    let e = variant_engine(MINOR);
    let s = position(
        &e,
        &start(&e, 1),
        phase_id(&e, "rally"),
        RED,
        &[("c4", RED, QUEEN), ("b4", RED, 9), ("c8", BLACK, QUEEN)],
    );
    assert!(is_legal(&e, &s, "favor c4"), "{:?}", legal_texts(&e, &s));
}

// ---- total_deployment -----------------------------------------------------------------

const DEAD_END: &str = "after this placement the Queen could no longer stand clear of both 9s";

// Total Deployment: all 19 cards are in hand at once, and any of them may go first, on any
// cell of the territory but the centre of its back row.
#[test]
fn total_deployment_places_cards_in_any_order() {
    let e = variant_engine(TOTAL);
    let s = start(&e, 1);
    for p in [RED, BLACK] {
        assert_eq!(s.zones[zone_inst(&e, "hand", p)].len(), 19);
    }
    // 19 different cards on 19 cells.
    assert_eq!(legal_texts(&e, &s).len(), 19 * 19);
    for t in ["deploy QD a1", "deploy 9H a1", "deploy 5D e4"] {
        assert!(is_legal(&e, &s, t), "{t}");
    }
    assert_eq!(
        refused(&e, &s, "deploy QD c1"),
        "`c1` is not one of the choices for `dest` here"
    );
    assert_eq!(
        refused(&e, &s, "deploy QD a5"),
        "`a5` is not one of the choices for `dest` here"
    );
}

/// Red places `red`, then Black the first card it is offered.
fn red_then_black(e: &Engine, s: &mut State, red: &str) {
    play(e, s, red);
    let first = legal_texts(e, s)[0].clone();
    play(e, s, &first);
}

// Total Deployment: a placement is refused only when, after it, the Queen could no longer
// end clear of both 9s: a 9 beside a placed Queen, or a card that takes the last cells
// the 9s still in hand could use.
#[test]
fn total_deployment_refuses_only_dead_ends() {
    let e = variant_engine(TOTAL);
    let mut s = start(&e, 1);
    red_then_black(&e, &mut s, "deploy QD a1");
    for beside in ["a2", "b1"] {
        assert_eq!(
            refused(&e, &s, &format!("deploy 9D {beside}")),
            DEAD_END,
            "{beside}"
        );
    }
    // Fourteen other cards fill every cell away from the Queen but d4 and e4.
    let fillers = [
        "AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "AD", "2D", "3D", "4D", "5D", "6D",
    ];
    let cells = [
        "d1", "e1", "b2", "c2", "d2", "e2", "a3", "b3", "c3", "d3", "e3", "a4", "b4", "c4",
    ];
    for (card, cell) in fillers.iter().zip(cells) {
        red_then_black(&e, &mut s, &format!("deploy {card} {cell}"));
    }
    assert_eq!(s.turn_seat, RED);
    // The two 9s need d4 and e4: another card may not take either, but may go beside her.
    for cell in ["d4", "e4"] {
        assert_eq!(
            refused(&e, &s, &format!("deploy 7D {cell}")),
            DEAD_END,
            "{cell}"
        );
        assert!(is_legal(&e, &s, &format!("deploy 9H {cell}")), "{cell}");
    }
    assert!(is_legal(&e, &s, "deploy 7D a2"));
    assert_eq!(refused(&e, &s, "deploy 9H a2"), DEAD_END);
    // Exactly: the two 9s on d4 or e4, the two other cards on a2 or b1.
    assert_eq!(legal_texts(&e, &s).len(), 2 * 2 + 2 * 2);
}

// Total Deployment: with the Queen still in hand, the 9s may go first, even side by side.
#[test]
fn total_deployment_lets_the_nines_go_before_the_queen() {
    let e = variant_engine(TOTAL);
    let mut s = start(&e, 2);
    red_then_black(&e, &mut s, "deploy 9H a1");
    play(&e, &mut s, "deploy 9D b1");
    assert_eq!(at(&e, &s, "b1"), Some((RED, 9)));
}

// Total Deployment: the placements are hidden from the opponent until all 38 are placed;
// then all are turned up, the rally begins with Red, and no 9 stands beside its Queen.
#[test]
fn total_deployment_hides_the_cards_until_all_are_placed() {
    let e = variant_engine(TOTAL);
    for seed in 0..6u64 {
        let mut agent = RandomAgent::new(seed);
        let mut order = Vec::new();
        let s = deploy_all(
            &e,
            seed,
            |s, texts| {
                let legal = e.legal_actions(s);
                assert_eq!(legal.len(), texts.len());
                agent.choose(&e.view(s, s.turn_seat), &legal)
            },
            |s, _| order.push(s.turn_seat),
        );
        let alternating: Vec<u8> = (0..38).map(|i| (i % 2) as u8).collect();
        assert_eq!(order, alternating, "seed {seed}");
        for (x, &c) in s.cells.iter().enumerate() {
            if c == muster::engine::NONE || rank(&e, c) != QUEEN {
                continue;
            }
            let owner = s.owners[c as usize];
            for &(dx, dy) in &[(0i32, 1i32), (0, -1), (1, 0), (-1, 0)] {
                let here = &e.game.board.cells[x];
                let (nx, ny) = (here.x as i32 + dx, here.y as i32 + dy);
                if let Some(n) = e
                    .game
                    .board
                    .cells
                    .iter()
                    .position(|k| k.x as i32 == nx && k.y as i32 == ny)
                {
                    let beside = s.cells[n];
                    if beside != muster::engine::NONE && s.owners[beside as usize] == owner {
                        assert_ne!(rank(&e, beside), 9, "seed {seed}: a 9 beside its Queen");
                    }
                }
            }
        }
    }
}

// Total Deployment: no Queen's Favor, even with the Queen in the front row on the first
// rally turn (the base game offers it there).
#[test]
fn total_deployment_never_offers_queens_favor() {
    let pieces = [("c4", RED, QUEEN), ("b4", RED, 9), ("c8", BLACK, QUEEN)];
    let e = variant_engine(TOTAL);
    let s = position(&e, &start(&e, 1), phase_id(&e, "rally"), RED, &pieces);
    assert!(!legal_texts(&e, &s).iter().any(|t| t.starts_with("favor")));
    assert_eq!(
        refused(&e, &s, "favor c4"),
        "Queen's Favor is not allowed in this game"
    );
    let base = engine();
    let s = rally(&base, RED, &pieces);
    assert!(is_legal(&base, &s, "favor c4"));
    // And in no rally of a deployed game either.
    for seed in 0..4u64 {
        let mut s = deploy_all(&e, seed, |_, _| 0, |_, _| {});
        while phase_name(&e, &s) == "rally" {
            let texts = legal_texts(&e, &s);
            assert!(!texts.iter().any(|t| t.starts_with("favor")), "seed {seed}");
            play(&e, &mut s, &texts[texts.len() / 2]);
        }
    }
}

// Both variants play whole games to an end (a win, a draw or the cap) without an error, all
// 38 cards on the board, in `fallen` or boxed.
#[test]
fn variant_games_play_to_an_end() {
    for variant in [MINOR, TOTAL] {
        let e = variant_engine(variant);
        for seed in 0..20u64 {
            let mut s = start(&e, seed);
            let mut agent = RandomAgent::new(seed ^ 0xA4);
            while s.outcome.is_none() {
                let legal = e.legal_actions(&s);
                assert!(!legal.is_empty(), "{variant}, seed {seed}");
                let a = legal[agent.choose(&e.view(&s, e.decider(&s).unwrap()), &legal)].clone();
                e.apply_listed(&mut s, &a)
                    .unwrap_or_else(|err| panic!("{variant}, seed {seed}: {err}"));
                assert_eq!(consistency_problem(&s), None, "{variant}, seed {seed}");
            }
            assert!(s.turns <= e.game.max_turns, "{variant}, seed {seed}");
        }
    }
}

// A person may type a card as the board shows it: `2R` for a red two (its notation is
// `2H` or `2D`; the two look the same on screen, so either will do).
#[test]
fn a_card_may_be_typed_as_the_board_labels_it() {
    let e = variant_engine(TOTAL);
    let mut s = start(&e, 1);
    let typed = e.parse_action(&s, "deploy 2R a1").expect("read as shown");
    assert!(e.legal_actions(&s).contains(&typed));
    e.apply(&mut s, &typed).unwrap();
    assert_eq!(at(&e, &s, "a1"), Some((RED, 2)));
    // A label that names no card in hand is not read as one.
    assert!(e
        .parse_action(&s, "deploy 2B a2")
        .map_or(true, |a| !e.legal_actions(&s).contains(&a)));
}
