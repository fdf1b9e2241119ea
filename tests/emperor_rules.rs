//! Battalion, the emperor game: a scenario for each ruling of `games/battalion_emperor.muster`,
//! legal and illegal, on armies mustered through the game's own actions.

mod common;

use common::emperor::*;
use common::{is_legal, play, put_in, refused, zone_inst};
use muster::engine::{Outcome, Seen};
use muster::ir::Value;
use rand::SeedableRng;

/// A phalanx holding every card of the suit but the guard (`7`), in a fixed order:
/// front row A 2 3 4, middle 5 6 8 9, back T J Q K.
fn full(suit: char) -> Vec<String> {
    ["A", "2", "3", "4", "5", "6", "8", "9", "T", "J", "Q", "K"]
        .iter()
        .map(|r| format!("{r}{suit}"))
        .collect()
}

fn army<'a>(formation: &'a str, guard: &'a str, posts: &'a [&'a str]) -> Army<'a> {
    Army {
        formation,
        guard,
        posts,
    }
}

fn refs(v: &[String]) -> Vec<&str> {
    v.iter().map(|s| s.as_str()).collect()
}

/// S's army against a full phalanx of H, S to move.
fn against_full_h(e: &muster::engine::Engine, mine: Army) -> muster::engine::State {
    let h = full('H');
    em_game(e, &[mine, army("phalanx", "7H", &refs(&h))], S)
}

/// Two full phalanxes, S to move.
fn two_phalanxes() -> (muster::engine::Engine, muster::engine::State) {
    let e = em_engine();
    let s = full('S');
    let st = against_full_h(&e, army("phalanx", "7S", &refs(&s)));
    (e, st)
}

fn attack_targets(
    e: &muster::engine::Engine,
    s: &muster::engine::State,
    from: &str,
) -> Vec<String> {
    let prefix = format!("attack {from} ");
    let mut v: Vec<String> = common::legal_texts(e, s)
        .into_iter()
        .filter_map(|t| t.strip_prefix(&prefix).map(str::to_string))
        .collect();
    v.sort();
    v
}

#[test]
fn every_shipped_formation_is_in_the_catalogues() {
    let e = em_engine();
    let fam = |name: &str| {
        let f = e.game.families.iter().find(|f| f.name == name).unwrap();
        f.shapes
            .iter()
            .map(|&s| e.game.shapes[s as usize].index.clone())
            .collect::<Vec<_>>()
    };
    let formations = fam("formations");
    assert!(formations.len() >= 6, "{formations:?}");
    assert!(formations.contains(&"4-4-4".to_string()));
    // Every reformation shape has at most two rows, and every size from 1 to 8 exists.
    let regroup = fam("regroupings");
    for size in 1..=8 {
        assert!(
            regroup
                .iter()
                .any(|i| i.split('-').map(|n| n.parse::<u32>().unwrap()).sum::<u32>() == size),
            "no reformation shape of {size} cells"
        );
    }
    assert!(regroup.iter().all(|i| i.split('-').count() <= 2));
}

#[test]
fn muster_offers_every_formation_then_a_guard_from_two_to_ten() {
    let e = em_engine();
    let mut s = e.start(2, 5).unwrap();
    let texts = common::legal_texts(&e, &s);
    assert_eq!(texts.len(), e.game.families[0].shapes.len());
    play(&e, &mut s, "deploy wedge");
    let guards = common::legal_texts(&e, &s);
    assert_eq!(guards.len(), 9, "2 to 10 of spades: {guards:?}");
    assert!(guards.contains(&"appoint 2S".to_string()));
    assert!(!guards
        .iter()
        .any(|g| g == "appoint AS" || g == "appoint KS"));
    play(&e, &mut s, "appoint TS");
    // The wedge has 9 cells, filled in reading order; 3 cards stay in hand.
    for c in ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"] {
        play(&e, &mut s, &format!("station {c}"));
    }
    assert_eq!(em_at(&e, &s, "post1@S").as_deref(), Some("AS"));
    assert_eq!(em_at(&e, &s, "post9@S").as_deref(), Some("9S"));
    assert_eq!(em_zone(&e, &s, "hand", S), vec!["JS", "QS", "KS"]);
    assert_eq!(s.turn_seat, H, "H musters next");
    // H sees the shape and the backs of the cards only.
    let v = e.view(&s, H);
    assert!(matches!(
        v.cells[cell_of(&e, "post1@S") as usize],
        Seen::Hidden { owner: 0 }
    ));
    assert!(matches!(
        v.cells[cell_of(&e, "guard@S") as usize],
        Seen::Hidden { owner: 0 }
    ));
}

#[test]
fn front_rows_link_across_players_and_nothing_else_is_reached() {
    let (e, s) = two_phalanxes();
    assert_eq!(
        attack_targets(&e, &s, "post1@S"),
        vec!["post1@H", "post2@H", "post3@H", "post4@H"]
    );
    // The middle row has no empty path forward.
    assert!(attack_targets(&e, &s, "post5@S").is_empty());
    assert!(!is_legal(&e, &s, "attack post1@S post5@H"));
}

#[test]
fn a_path_needs_empty_cells() {
    let (e, mut s) = two_phalanxes();
    em_clear(&e, &mut s, &["post1@S"]);
    // 5S reaches the enemy front row through the emptied cell in front of it.
    assert_eq!(
        attack_targets(&e, &s, "post5@S"),
        vec!["post1@H", "post2@H", "post3@H", "post4@H"]
    );
    // 6S is walled in by cards on every side.
    assert!(attack_targets(&e, &s, "post6@S").is_empty());
    assert!(refused(&e, &s, "attack post6@S post1@H").contains("not one of the choices"));
}

#[test]
fn higher_card_is_wounded_lower_dies_and_a_tie_kills_both() {
    let (e, mut s) = two_phalanxes();
    // 4S against 2H: 2H dies (face down, owner only), 4S is wounded (face up).
    play(&e, &mut s, "attack post4@S post2@H");
    assert_eq!(em_zone(&e, &s, "dead", H), vec!["2H"]);
    assert_eq!(em_zone(&e, &s, "wounded", S), vec!["4S"]);
    assert_eq!(em_at(&e, &s, "post2@H"), None);
    assert_eq!(em_at(&e, &s, "post4@S"), None);
    assert!(matches!(
        e.view(&s, S).zones[zone_inst(&e, "dead", H)][0],
        Seen::Hidden { .. }
    ));
    assert!(matches!(
        e.view(&s, S).zones[zone_inst(&e, "wounded", S)][0],
        Seen::Known { .. }
    ));
    // H's 3H against S's 3S: a tie, both die.
    play(&e, &mut s, "attack post3@H post3@S");
    assert_eq!(em_zone(&e, &s, "dead", S), vec!["3S"]);
    assert_eq!(em_zone(&e, &s, "dead", H), vec!["2H", "3H"]);
}

#[test]
fn the_queen_is_worth_ten_on_a_path_and_eight_passing_over_a_card() {
    let e = em_engine();
    let s_posts = [
        "AS", "2S", "3S", "4S", "QS", "5S", "6S", "8S", "9S", "TS", "JS", "KS",
    ];
    let h9 = [
        "9H", "2H", "3H", "4H", "5H", "6H", "AH", "8H", "TH", "JH", "QH", "KH",
    ];
    let h7 = [
        "7H", "2H", "3H", "4H", "5H", "6H", "8H", "TH", "JH", "QH", "KH", "AH",
    ];
    let game = |h: &[&str], guard: &str| {
        em_game(
            &e,
            &[army("phalanx", "7S", &s_posts), army("phalanx", guard, h)],
            S,
        )
    };
    // Passing over AS: worth 8, so it dies against 9H and wounds it.
    let mut s = game(&h9, "7H");
    assert!(attack_targets(&e, &s, "post5@S").contains(&"post1@H".to_string()));
    play(&e, &mut s, "attack post5@S post1@H");
    assert_eq!(em_zone(&e, &s, "dead", S), vec!["QS"]);
    assert_eq!(em_zone(&e, &s, "wounded", H), vec!["9H"]);
    // Passing over AS against 7H: 8 beats 7.
    let mut s = game(&h7, "9H");
    play(&e, &mut s, "attack post5@S post1@H");
    assert_eq!(em_zone(&e, &s, "dead", H), vec!["7H"]);
    assert_eq!(em_zone(&e, &s, "wounded", S), vec!["QS"]);
    // On a direct path she is worth 10 and beats 9H.
    let mut s = game(&h9, "7H");
    em_clear(&e, &mut s, &["post1@S"]);
    play(&e, &mut s, "attack post5@S post1@H");
    assert_eq!(em_zone(&e, &s, "dead", H), vec!["9H"]);
    // A plain card may not pass over anything.
    let mut s = game(&h9, "7H");
    play(&e, &mut s, "pass");
    assert!(attack_targets(&e, &s, "post5@H").is_empty());
}

#[test]
fn the_jack_reveals_its_target_and_goes_to_the_wounded_pile() {
    let e = em_engine();
    let s_posts = [
        "JS", "2S", "3S", "4S", "AS", "5S", "6S", "8S", "9S", "TS", "QS", "KS",
    ];
    let mut s = against_full_h(&e, army("phalanx", "7S", &s_posts));
    let target = cell_of(&e, "post2@H") as usize;
    assert!(matches!(e.view(&s, S).cells[target], Seen::Hidden { .. }));
    play(&e, &mut s, "attack post1@S post2@H");
    assert_eq!(
        em_at(&e, &s, "post2@H").as_deref(),
        Some("2H"),
        "the target stays"
    );
    assert!(matches!(e.view(&s, S).cells[target], Seen::Known { .. }));
    assert_eq!(em_zone(&e, &s, "wounded", S), vec!["JS"]);
    // The reveal lasts while the card moves in its formation ...
    em_clear(&e, &mut s, &["post1@H"]);
    play(&e, &mut s, "shift post2@H post1@H");
    let moved = cell_of(&e, "post1@H") as usize;
    assert!(matches!(e.view(&s, S).cells[moved], Seen::Known { .. }));
    // ... and ends when it leaves the formation: killed, it lies face down.
    play(&e, &mut s, "pass");
    play(&e, &mut s, "attack post2@S post1@H");
    assert_eq!(
        em_zone(&e, &s, "dead", H).last().map(String::as_str),
        Some("2H")
    );
    let dead = zone_inst(&e, "dead", H);
    assert!(e.view(&s, S).zones[dead]
        .iter()
        .all(|x| matches!(x, Seen::Hidden { .. })));
}

#[test]
fn a_jack_may_pass_over_one_card_and_dies_when_attacked() {
    let e = em_engine();
    let s_posts = [
        "AS", "2S", "3S", "4S", "JS", "5S", "6S", "8S", "9S", "TS", "QS", "KS",
    ];
    let mut s = against_full_h(&e, army("phalanx", "7S", &s_posts));
    assert_eq!(
        attack_targets(&e, &s, "post5@S").len(),
        4,
        "over AS to the front row"
    );
    // Attacked, a Jack dies whatever attacks it; the attacker is wounded.
    play(&e, &mut s, "pass");
    em_clear(&e, &mut s, &["post1@S"]);
    play(&e, &mut s, "attack post2@H post5@S");
    assert_eq!(
        em_zone(&e, &s, "dead", S).last().map(String::as_str),
        Some("JS")
    );
    assert_eq!(em_zone(&e, &s, "wounded", H), vec!["2H"]);
}

#[test]
fn the_king_strikes_anywhere_but_a_bodyguard_and_always_dies_with_its_foe() {
    let e = em_engine();
    let s_posts = [
        "KS", "2S", "3S", "4S", "5S", "6S", "8S", "9S", "TS", "JS", "QS", "AS",
    ];
    let mut s = against_full_h(&e, army("phalanx", "7S", &s_posts));
    let targets = attack_targets(&e, &s, "post1@S");
    assert_eq!(
        targets.len(),
        12,
        "every card of H's formation: {targets:?}"
    );
    assert!(!targets.contains(&"guard@H".to_string()));
    play(&e, &mut s, "attack post1@S post9@H");
    assert_eq!(em_zone(&e, &s, "dead", S), vec!["KS"]);
    assert_eq!(em_zone(&e, &s, "dead", H), vec!["TH"]);
    // Attacked, the King also takes its attacker with it.
    let h_king = [
        "KH", "2H", "3H", "4H", "5H", "6H", "8H", "9H", "TH", "JH", "QH", "AH",
    ];
    let s_full = full('S');
    let mut s = em_game(
        &e,
        &[
            army("phalanx", "7S", &refs(&s_full)),
            army("phalanx", "7H", &h_king),
        ],
        S,
    );
    play(&e, &mut s, "attack post2@S post1@H");
    assert_eq!(em_zone(&e, &s, "dead", S), vec!["2S"]);
    assert_eq!(em_zone(&e, &s, "dead", H), vec!["KH"]);
}

#[test]
fn the_modifier_counts_in_every_fight() {
    let (e, mut s) = two_phalanxes();
    em_set_var(&e, &mut s, "modifier", S, Value::Int(2));
    // 2S + 2 = 4 beats 3H; without the modifier it would lose.
    play(&e, &mut s, "attack post2@S post3@H");
    assert_eq!(em_zone(&e, &s, "dead", H), vec!["3H"]);
    // H defends with a modifier too: 4H - 1 = 3 ties 3S.
    let (e, mut s) = two_phalanxes();
    em_set_var(&e, &mut s, "modifier", H, Value::Int(-1));
    play(&e, &mut s, "attack post3@S post4@H");
    assert_eq!(em_zone(&e, &s, "dead", H), vec!["4H"]);
    assert_eq!(em_zone(&e, &s, "dead", S), vec!["3S"]);
}

#[test]
fn a_roll_of_five_gives_plus_two_then_one_then_zero_then_frees_the_die() {
    let (e, base) = two_phalanxes();
    // Find a die that rolls 5 (the roll is the state's own RNG).
    let mut s = (0..200u64)
        .map(|k| {
            let mut t = base.clone();
            t.rng = rand_chacha::ChaCha8Rng::seed_from_u64(k);
            play(&e, &mut t, "modify");
            t
        })
        .find(|t| em_var(&e, t, "modifier", S) == Value::Int(2))
        .expect("some seed rolls a 5");
    let state = |s: &muster::engine::State| {
        (
            em_var(&e, s, "modifier", S).as_int(),
            em_var(&e, s, "die_turns", S).as_int(),
        )
    };
    assert_eq!(state(&s), (2, 3));
    let mut seen = Vec::new();
    for _ in 0..3 {
        play(&e, &mut s, "pass"); // H
        assert!(!is_legal(&e, &s, "modify"), "the die is still in use");
        play(&e, &mut s, "pass"); // S
        seen.push(state(&s));
    }
    assert_eq!(seen, vec![(1, 2), (0, 1), (0, 0)]);
    play(&e, &mut s, "pass"); // H
    assert!(is_legal(&e, &s, "modify"), "the die is free again");
}

#[test]
fn a_player_may_not_attack_the_player_the_previous_turn_attacked() {
    let e = em_engine();
    let (a, b, c) = (full('S'), full('H'), full('D'));
    let mut s = em_game(
        &e,
        &[
            army("phalanx", "7S", &refs(&a)),
            army("phalanx", "7H", &refs(&b)),
            army("phalanx", "7D", &refs(&c)),
        ],
        S,
    );
    play(&e, &mut s, "attack post1@S post2@D");
    assert_eq!(s.turn_seat, H);
    assert!(refused(&e, &s, "attack post1@H post1@D").contains("not one of the choices"));
    assert!(is_legal(&e, &s, "attack post1@H post2@S"));
    play(&e, &mut s, "attack post1@H post2@S");
    // D may not attack S now, but H, and D itself was attacked two turns ago: fine.
    assert_eq!(s.turn_seat, D);
    assert!(!is_legal(&e, &s, "attack post1@D post3@S"));
    assert!(is_legal(&e, &s, "attack post1@D post3@H"));
    // A turn without an attack lifts the restriction.
    play(&e, &mut s, "pass");
    play(&e, &mut s, "pass");
    assert_eq!(s.turn_seat, H);
    assert!(is_legal(&e, &s, "attack post3@H post3@S"));
}

#[test]
fn killing_the_bodyguard_kills_the_emperor_but_a_tie_does_not() {
    let e = em_engine();
    let (a, b) = (full('S'), full('H'));
    let empty = ["-"; 12];
    let three = |guard: &'static str| {
        em_game(
            &e,
            &[
                army("phalanx", "7S", &refs(&a)),
                army("phalanx", "7H", &refs(&b)),
                army("phalanx", guard, &empty),
            ],
            S,
        )
    };
    // D's formation is empty: a path runs through it to its bodyguard.
    let mut s = three("2D");
    assert!(attack_targets(&e, &s, "post4@S").contains(&"guard@D".to_string()));
    play(&e, &mut s, "attack post4@S guard@D");
    assert!(s.eliminated[D as usize], "D's emperor is dead");
    assert!(s.outcome.is_none(), "S and H play on");
    assert!(
        (1..=12).all(|k| em_at(&e, &s, &format!("post{k}@D")).is_none()),
        "D's cards left the table"
    );
    // A tie kills both; the emperor lives, and its empty cell can then be attacked.
    let mut s = three("4D");
    play(&e, &mut s, "attack post4@S guard@D");
    assert!(!s.eliminated[D as usize]);
    assert_eq!(em_at(&e, &s, "guard@D"), None);
    play(&e, &mut s, "pass"); // H
    play(&e, &mut s, "pass"); // D
    assert!(attack_targets(&e, &s, "post3@S").contains(&"guard@D".to_string()));
    play(&e, &mut s, "attack post3@S guard@D");
    assert!(s.eliminated[D as usize]);
}

#[test]
fn the_last_emperor_standing_wins() {
    let e = em_engine();
    let a = full('S');
    let empty = ["-"; 12];
    let mut s = em_game(
        &e,
        &[
            army("phalanx", "7S", &refs(&a)),
            army("phalanx", "2H", &empty),
        ],
        S,
    );
    play(&e, &mut s, "attack post1@S guard@H");
    assert_eq!(s.outcome, Some(Outcome::Win(vec![S])));
}

#[test]
fn a_card_may_enter_the_bodyguard_cell_only_once_it_is_empty() {
    let (e, mut s) = two_phalanxes();
    assert!(!is_legal(&e, &s, "shift post9@S guard@S"));
    em_clear(&e, &mut s, &["guard@S"]);
    assert!(is_legal(&e, &s, "shift post9@S guard@S"));
    play(&e, &mut s, "shift post9@S guard@S");
    assert_eq!(em_at(&e, &s, "guard@S").as_deref(), Some("TS"));
    // It is the bodyguard now: it stays.
    assert!(!common::legal_texts(&e, &s)
        .iter()
        .any(|t| t.starts_with("shift guard@S")));
}

#[test]
fn rearranging_moves_each_card_once_along_empty_cells_of_its_own_formation() {
    let (e, mut s) = two_phalanxes();
    em_clear(&e, &mut s, &["post1@S", "post2@S"]);
    // 5S may go to either emptied cell; 7S-less middle cells are walled in.
    play(&e, &mut s, "shift post5@S post2@S");
    assert!(
        !is_legal(&e, &s, "shift post2@S post1@S"),
        "5S moved already"
    );
    assert!(is_legal(&e, &s, "shift post6@S post5@S"));
    // Never into another player's formation, though front rows are linked.
    em_clear(&e, &mut s, &["post1@H"]);
    assert!(!is_legal(&e, &s, "shift post6@S post1@H"));
    // Rearranging then attacking is one turn.
    play(&e, &mut s, "shift post6@S post5@S");
    play(&e, &mut s, "attack post2@S post2@H");
    assert_eq!(s.turn_seat, H);
}

#[test]
fn reinforcement_enters_the_back_row_and_may_move_on() {
    let e = em_engine();
    let posts = ["AS", "2S", "3S", "-", "-", "-", "-", "-", "-"];
    let mut s = against_full_h(&e, army("square", "7S", &posts));
    assert!(em_zone(&e, &s, "hand", S).contains(&"QS".to_string()));
    assert!(is_legal(&e, &s, "reinforce QS post9@S"), "a back-row cell");
    assert!(
        is_legal(&e, &s, "reinforce QS post4@S"),
        "on from the back row"
    );
    assert!(!is_legal(&e, &s, "reinforce QS post1@S"), "occupied");
    play(&e, &mut s, "reinforce QS post4@S");
    assert_eq!(em_at(&e, &s, "post4@S").as_deref(), Some("QS"));
    assert_eq!(s.turn_seat, H, "a reinforcement ends the turn");
    assert!(matches!(
        e.view(&s, H).cells[cell_of(&e, "post4@S") as usize],
        Seen::Hidden { .. }
    ));
}

#[test]
fn an_empty_hand_may_take_back_the_wounded_pile() {
    let (e, mut s) = two_phalanxes();
    assert!(em_zone(&e, &s, "hand", S).is_empty());
    assert!(!is_legal(&e, &s, "recall"), "nothing wounded yet");
    play(&e, &mut s, "attack post1@S post2@H"); // AS wounded
    play(&e, &mut s, "pass");
    assert!(is_legal(&e, &s, "recall"));
    play(&e, &mut s, "recall");
    assert_eq!(em_zone(&e, &s, "hand", S), vec!["AS"]);
    assert!(em_zone(&e, &s, "wounded", S).is_empty());
    // With a card in hand, the wounded pile stays.
    let w = zone_inst(&e, "wounded", S);
    let c = s.cells[cell_of(&e, "post2@S") as usize];
    em_bury(&e, &mut s, cell_of(&e, "post2@S"));
    put_in(&e, &mut s, c, w);
    assert!(refused(&e, &s, "recall").contains("require"));
}

/// S's phalanx reduced to five cards: A 2 3 in front, 9 T at the back.
fn reforming() -> (muster::engine::Engine, muster::engine::State) {
    let e = em_engine();
    let posts = [
        "AS", "2S", "3S", "-", "-", "-", "-", "-", "9S", "TS", "-", "-",
    ];
    let s = against_full_h(&e, army("phalanx", "7S", &posts));
    (e, s)
}

#[test]
fn reformation_keeps_back_row_cards_at_the_back_and_happens_once() {
    let (e, mut s) = reforming();
    // Five cards: shapes of five cells, or four (one back-row card then goes to hand).
    assert!(is_legal(&e, &s, "reform fan_23"));
    assert!(is_legal(&e, &s, "reform line_22"));
    assert!(!is_legal(&e, &s, "reform line_44"), "eight cells");
    assert!(!is_legal(&e, &s, "reform bank_21"), "three cells");
    play(&e, &mut s, "reform fan_23");
    assert_eq!(s.turn_seat, S, "the player places its cards");
    assert_eq!(em_zone(&e, &s, "hand", S).len(), 0);
    // fan_23: post1-2 in front, post3-5 at the back.
    assert!(
        refused(&e, &s, "settle 9S post1@S").contains("require"),
        "back row stays back"
    );
    play(&e, &mut s, "settle AS post3@S");
    assert!(
        refused(&e, &s, "settle 2S post4@S").contains("require"),
        "the last two back cells are for 9S and TS"
    );
    for t in [
        "settle 9S post4@S",
        "settle TS post5@S",
        "settle 2S post1@S",
        "settle 3S post2@S",
    ] {
        play(&e, &mut s, t);
    }
    assert_eq!(s.turn_seat, H, "the reformation took the whole turn");
    assert_eq!(em_at(&e, &s, "post3@S").as_deref(), Some("AS"));
    // The new front row faces the enemy; the new back row guards the emperor.
    play(&e, &mut s, "pass");
    assert!(attack_targets(&e, &s, "post1@S").contains(&"post1@H".to_string()));
    assert!(!is_legal(&e, &s, "reform line_22"), "once per game");
    assert!(!common::legal_texts(&e, &s)
        .iter()
        .any(|t| t.starts_with("reform")));
}

#[test]
fn a_reformation_one_cell_short_sends_a_back_row_card_to_hand() {
    let (e, mut s) = reforming();
    play(&e, &mut s, "reform line_22");
    assert!(!is_legal(&e, &s, "release AS"), "only an old back-row card");
    play(&e, &mut s, "release 9S");
    assert_eq!(em_zone(&e, &s, "hand", S), vec!["9S"]);
    for t in [
        "settle TS post3@S",
        "settle AS post4@S",
        "settle 2S post1@S",
        "settle 3S post2@S",
    ] {
        play(&e, &mut s, t);
    }
    assert_eq!(s.turn_seat, H);
}

#[test]
fn no_reformation_after_rearranging() {
    let (e, mut s) = reforming();
    play(&e, &mut s, "shift post1@S post5@S");
    assert!(!common::legal_texts(&e, &s)
        .iter()
        .any(|t| t.starts_with("reform")));
}

/// S's posts: every cell empty but the named ones (`(cell number, card)`).
fn sparse(cards: &[(usize, &'static str)]) -> Vec<&'static str> {
    let mut v = vec!["-"; 12];
    for &(k, c) in cards {
        v[k - 1] = c;
    }
    v
}

#[test]
fn a_jack_may_strike_an_emperor_through_the_empty_bodyguard_cell() {
    let e = em_engine();
    let s_posts = sparse(&[(1, "JS"), (2, "2S"), (3, "3S"), (4, "4S")]);
    // H keeps only its front row; its bodyguard's cell is empty.
    let h_posts = sparse(&[(1, "AH"), (2, "2H"), (3, "3H"), (4, "4H")]);
    let mut s = em_game(
        &e,
        &[
            army("phalanx", "7S", &s_posts),
            army("phalanx", "7H", &h_posts),
        ],
        S,
    );
    em_clear(&e, &mut s, &["guard@H"]);
    // H's front row blocks every path of empty cells: the Jack may only spy (over one card).
    assert!(!attack_targets(&e, &s, "post1@S").contains(&"guard@H".to_string()));
    assert!(!is_legal(&e, &s, "attack post1@S guard@H"));
    // One gap in the front row opens a direct path: the Jack strikes the emperor, who dies.
    em_clear(&e, &mut s, &["post3@H"]);
    assert!(attack_targets(&e, &s, "post1@S").contains(&"guard@H".to_string()));
    play(&e, &mut s, "attack post1@S guard@H");
    assert_eq!(s.outcome, Some(Outcome::Win(vec![S])));
    // The Jack's strike on an emperor is an attack like any other: the Jack stays.
    assert_eq!(em_at(&e, &s, "post1@S").as_deref(), Some("JS"));
}

#[test]
fn a_jack_in_the_bodyguard_cell_attacked_dies_and_so_does_its_emperor() {
    let e = em_engine();
    let h = full('H');
    // S: a Jack in its back row, the rest of its formation empty.
    let s_posts = sparse(&[(9, "JS")]);
    let base = em_game(
        &e,
        &[
            army("phalanx", "7S", &s_posts),
            army("phalanx", "7H", &refs(&h)),
        ],
        S,
    );
    // A Jack outside the bodyguard cell attacked: it dies, its emperor lives.
    let mut s = base.clone();
    play(&e, &mut s, "pass");
    play(&e, &mut s, "attack post2@H post9@S");
    assert_eq!(
        em_zone(&e, &s, "dead", S).last().map(String::as_str),
        Some("JS")
    );
    assert!(!s.eliminated[S as usize]);
    assert_eq!(s.outcome, None);
    // Moved into the empty bodyguard cell, the Jack is the bodyguard: attacked, it counts
    // as the lower card and its emperor dies.
    let mut s = base.clone();
    em_clear(&e, &mut s, &["guard@S"]);
    play(&e, &mut s, "shift post9@S guard@S");
    play(&e, &mut s, "pass");
    assert!(attack_targets(&e, &s, "post2@H").contains(&"guard@S".to_string()));
    play(&e, &mut s, "attack post2@H guard@S");
    assert!(s.eliminated[S as usize]);
    assert_eq!(s.outcome, Some(Outcome::Win(vec![H])));
    assert_eq!(em_zone(&e, &s, "wounded", H), vec!["2H"]);
    // Reinforced into the empty bodyguard cell, the same.
    let mut s = base.clone();
    em_clear(&e, &mut s, &["guard@S", "post9@S"]);
    let dead = zone_inst(&e, "dead", S);
    let js = s.zones[dead]
        .iter()
        .copied()
        .find(|&c| common::card(&e, c) == "JS")
        .expect("the Jack was buried");
    put_in(&e, &mut s, js, zone_inst(&e, "hand", S));
    play(&e, &mut s, "reinforce JS guard@S");
    assert_eq!(em_at(&e, &s, "guard@S").as_deref(), Some("JS"));
    play(&e, &mut s, "attack post4@H guard@S");
    assert_eq!(s.outcome, Some(Outcome::Win(vec![H])));
    // A King that attacks the Jack bodyguard dies with it, and the emperor dies too.
    let h_king = [
        "KH", "2H", "3H", "4H", "5H", "6H", "8H", "9H", "TH", "JH", "QH", "AH",
    ];
    let mut s = em_game(
        &e,
        &[
            army("phalanx", "7S", &s_posts),
            army("phalanx", "7H", &h_king),
        ],
        S,
    );
    em_clear(&e, &mut s, &["guard@S"]);
    play(&e, &mut s, "shift post9@S guard@S");
    play(&e, &mut s, "pass");
    play(&e, &mut s, "attack post1@H guard@S");
    assert_eq!(em_zone(&e, &s, "dead", H), vec!["KH"]);
    assert_eq!(s.outcome, Some(Outcome::Win(vec![H])));
}

/// S has nothing left but its bodyguard `guard` (formation empty, hand empty), against a
/// full phalanx of H; S to move.
fn lone_guard(e: &muster::engine::Engine, guard: &str) -> muster::engine::State {
    let s = em_game(
        e,
        &[
            army("phalanx", guard, &["-"; 12]),
            army("phalanx", "7H", &refs(&full('H'))),
        ],
        S,
    );
    assert!(em_zone(e, &s, "hand", S).is_empty());
    s
}

#[test]
fn a_lone_bodyguard_moves_and_attacks_and_is_still_the_bodyguard_wherever_it_stands() {
    let e = em_engine();
    // With another card in hand, the bodyguard stays put and does not attack.
    let mut s = lone_guard(&e, "7S");
    let hand = zone_inst(&e, "hand", S);
    let spare = s.zones[zone_inst(&e, "dead", S)][0];
    put_in(&e, &mut s, spare, hand);
    assert!(!common::legal_texts(&e, &s)
        .iter()
        .any(|t| t.starts_with("shift guard@S") || t.starts_with("attack guard@S")));
    // Alone, it may move along its own formation and attack from there.
    let mut s = lone_guard(&e, "7S");
    assert!(is_legal(&e, &s, "attack guard@S post2@H"));
    play(&e, &mut s, "shift guard@S post1@S");
    assert_eq!(em_at(&e, &s, "post1@S").as_deref(), Some("7S"));
    assert_eq!(
        attack_targets(&e, &s, "post1@S"),
        vec!["post1@H", "post2@H", "post3@H", "post4@H"]
    );
    // Attacked where it now stands and killed (lower, not a tie): its emperor dies.
    play(&e, &mut s, "pass");
    play(&e, &mut s, "attack post1@H post1@S");
    assert_eq!(s.outcome, Some(Outcome::Win(vec![H])));
    // Attacked and tied: both die, the emperor lives.
    let mut s = lone_guard(&e, "4S");
    play(&e, &mut s, "shift guard@S post4@S");
    play(&e, &mut s, "pass");
    play(&e, &mut s, "attack post4@H post4@S");
    assert_eq!(s.outcome, None);
    assert!(!s.eliminated[S as usize]);
    // Attacked and higher: it is wounded, the emperor lives.
    let mut s = lone_guard(&e, "7S");
    play(&e, &mut s, "shift guard@S post2@S");
    play(&e, &mut s, "pass");
    play(&e, &mut s, "attack post3@H post2@S");
    assert_eq!(em_zone(&e, &s, "wounded", S), vec!["7S"]);
    assert_eq!(s.outcome, None);
    // A King from afar spares it, as it spares any bodyguard.
    let h_king = [
        "2H", "3H", "4H", "5H", "6H", "8H", "9H", "TH", "JH", "QH", "AH", "KH",
    ];
    let mut s = em_game(
        &e,
        &[
            army("phalanx", "7S", &["-"; 12]),
            army("phalanx", "7H", &h_king),
        ],
        S,
    );
    play(&e, &mut s, "shift guard@S post9@S");
    play(&e, &mut s, "pass");
    assert!(!is_legal(&e, &s, "attack post12@H post9@S"));
}

#[test]
fn a_lone_bodyguard_that_attacks_and_loses_takes_its_emperor_with_it() {
    let e = em_engine();
    // From its own cell: 7S against the Ace (11) loses, and its emperor dies.
    let mut s = lone_guard(&e, "7S");
    play(&e, &mut s, "attack guard@S post1@H");
    assert_eq!(s.outcome, Some(Outcome::Win(vec![H])));
    // Moved out first, the same.
    let mut s = lone_guard(&e, "7S");
    play(&e, &mut s, "shift guard@S post1@S");
    play(&e, &mut s, "attack post1@S post1@H");
    assert_eq!(s.outcome, Some(Outcome::Win(vec![H])));
    // Winning, it is wounded and the emperor lives; a tie kills both, the emperor lives.
    let mut s = lone_guard(&e, "7S");
    play(&e, &mut s, "attack guard@S post2@H");
    assert_eq!(em_zone(&e, &s, "dead", H), vec!["2H"]);
    assert_eq!(em_zone(&e, &s, "wounded", S), vec!["7S"]);
    assert_eq!(s.outcome, None);
    let mut s = lone_guard(&e, "4S");
    play(&e, &mut s, "attack guard@S post4@H");
    assert_eq!(s.outcome, None);
    assert!(!s.eliminated[S as usize]);
}
