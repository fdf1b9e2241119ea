//! One scenario per ruling of Battalion, the chip game (games/battalion_chips.muster;
//! rulebook battalion-chips.txt, rulings in design/games.md). Positions are built by hand
//! with `common::chips_position` / `common::combat`.

mod common;

use common::*;
use muster::engine::{Engine, Outcome, State};
use muster::ir::Value;

/// Cards by label, in hand order.
type Cards = &'static [&'static str];

/// The texts of the legal actions that start with `prefix`.
fn listed(e: &Engine, s: &State, prefix: &str) -> Vec<String> {
    legal_texts(e, s)
        .into_iter()
        .filter(|t| t.starts_with(prefix))
        .collect()
}

/// How many cards an `attack`/`defend` text plays.
fn cards_played(text: &str) -> usize {
    let list = if text.starts_with("attack") {
        text.split(' ').nth(2)
    } else {
        text.split(' ').nth(1)
    };
    list.map_or(0, |l| l.split('+').count())
}

/// One battle in a three-seat game: P2 holds `attacker` and plays `attack` (naming P3), P3
/// holds `defender` and answers `answer`. The chips start at `before`. Returns the state
/// after the turn, checking that the cards and the chip total are conserved.
fn battle(
    e: &Engine,
    before: [i64; 3],
    attacker: &[&str],
    defender: &[&str],
    attack: &str,
    answer: &str,
) -> State {
    let mut s = combat(e, 3, P2, &[(P2, attacker), (P3, defender)]);
    set_chips(e, &mut s, &before);
    play(e, &mut s, attack);
    assert_eq!(e.decider(&s), Some(P3), "after `{attack}`");
    play(e, &mut s, answer);
    assert_eq!(consistency_problem(&s), None);
    assert_eq!(
        all_chips(e, &s).iter().sum::<i64>(),
        before.iter().sum::<i64>(),
        "`{attack}` / `{answer}`: chips are not conserved"
    );
    assert!(all_chips(e, &s).iter().all(|&c| c >= 0));
    s
}

/// The three bid-phase hands used below: P2's longest suit is 4 (hearts), P3's is 6
/// (spades), P1's is 5 (diamonds).
const P1_BIDDER: &[&str] = &["AD", "4D", "5D", "6D", "7D", "AH", "6H", "AS", "AC", "6C"];
const P2_BIDDER: &[&str] = &["2H", "3H", "4H", "5H", "2S", "3S", "2D", "3D", "2C", "3C"];
const P3_BIDDER: &[&str] = &["8S", "9S", "TS", "JS", "QS", "KS", "8H", "9H", "8D", "8C"];

/// The start of bidding in a three-seat game with the hands above, P2 to bid first.
fn bidding() -> (Engine, State) {
    let e = chips_engine();
    let base = chips_start(&e, 3, 1);
    let s = chips_position(
        &e,
        &base,
        "bidding",
        P2,
        0,
        &[(P1, P1_BIDDER), (P2, P2_BIDDER), (P3, P3_BIDDER)],
    );
    assert_eq!(global(&e, &s, "high_bid"), Value::Int(0));
    assert_eq!(global(&e, &s, "high_bidder"), Value::None);
    (e, s)
}

// ---- set-up ---------------------------------------------------------------------

// Deal: 10 cards and 10 chips each, one card turned to start the discard pile, the rest
// of the 104 cards in the stock; P2 (the dealer's left) acts first.
#[test]
fn the_deal_gives_ten_cards_and_ten_chips_each() {
    let e = chips_engine();
    assert_eq!(e.game.components.len(), 104);
    for players in 3..=6u8 {
        for seed in [1u64, 2] {
            let s = chips_start(&e, players, seed);
            for p in 0..players {
                assert_eq!(hand(&e, &s, p).len(), 10, "{players} players, seat {p}");
                assert_eq!(chips(&e, &s, p), 10);
            }
            assert_eq!(cards_in(&e, &s, "discard_pile", 0).len(), 1);
            assert_eq!(
                cards_in(&e, &s, "stock", 0).len(),
                104 - 10 * players as usize - 1
            );
            assert_eq!(phase_name(&e, &s), "acquisition");
            assert_eq!((s.turn_seat, e.decider(&s)), (P2, Some(P2)));
            assert_eq!(consistency_problem(&s), None);
        }
    }
}

// Two decks: every card exists exactly twice (twins), 26 of each suit.
#[test]
fn two_decks_make_every_card_a_twin() {
    let e = chips_engine();
    let mut labels: Vec<String> = (0..104u16).map(|c| card(&e, c)).collect();
    labels.sort();
    for pair in labels.chunks(2) {
        assert_eq!(pair[0], pair[1]);
    }
    labels.dedup();
    assert_eq!(labels.len(), 52);
    for s in ['C', 'D', 'H', 'S'] {
        assert_eq!(
            (0..104u16).filter(|&c| card(&e, c).ends_with(s)).count(),
            26
        );
    }
}

// ---- acquisition ----------------------------------------------------------------

// Acquisition: three rounds, P2 first and round the table; each turn draws (from the stock
// or the top of the discard pile) and then discards; then bidding starts with P2.
#[test]
fn acquisition_is_three_rounds_of_draw_then_discard_from_p2() {
    let e = chips_engine();
    let mut s = chips_start(&e, 4, 7);
    let order = [P2, P3, P4, P1];
    for turn in 0..12usize {
        let seat = order[turn % 4];
        assert_eq!(phase_name(&e, &s), "acquisition", "turn {turn}");
        assert_eq!((s.turn_seat, s.step, e.decider(&s)), (seat, 0, Some(seat)));
        assert_eq!(legal_texts(&e, &s), vec!["draw_card", "take_discard"]);
        let stock_top = cards_in(&e, &s, "stock", 0).last().unwrap().clone();
        let discard_top = cards_in(&e, &s, "discard_pile", 0).last().unwrap().clone();
        let (stock_n, discard_n) = (
            cards_in(&e, &s, "stock", 0).len(),
            cards_in(&e, &s, "discard_pile", 0).len(),
        );
        // Alternate the two sources.
        let (draw, drawn) = if turn % 2 == 0 {
            ("draw_card", stock_top)
        } else {
            ("take_discard", discard_top)
        };
        play(&e, &mut s, draw);
        assert_eq!(hand(&e, &s, seat).len(), 11);
        assert_eq!(
            hand(&e, &s, seat).last(),
            Some(&drawn),
            "turn {turn}: {draw}"
        );
        if turn % 2 == 0 {
            assert_eq!(cards_in(&e, &s, "stock", 0).len(), stock_n - 1);
        } else {
            assert_eq!(cards_in(&e, &s, "discard_pile", 0).len(), discard_n - 1);
        }
        // Same turn, second step: a discard is the only choice, one per distinct card.
        assert_eq!((s.turn_seat, s.step), (seat, 1));
        let discards = legal_texts(&e, &s);
        assert!(discards.iter().all(|t| t.starts_with("discard ")));
        let mut distinct = hand(&e, &s, seat);
        distinct.sort();
        distinct.dedup();
        assert_eq!(discards.len(), distinct.len());
        let thrown = discards[0].trim_start_matches("discard ").to_string();
        play(&e, &mut s, &discards[0]);
        assert_eq!(hand(&e, &s, seat).len(), 10);
        assert_eq!(
            cards_in(&e, &s, "discard_pile", 0).last(),
            Some(&thrown),
            "turn {turn}"
        );
        assert_eq!(consistency_problem(&s), None);
    }
    assert_eq!(phase_name(&e, &s), "bidding");
    assert_eq!((s.turn_seat, e.decider(&s), s.turns), (P2, Some(P2), 12));
    // Six draws from the stock; the discard pile gained one card per turn and lost six.
    assert_eq!(cards_in(&e, &s, "stock", 0).len(), 104 - 40 - 1 - 6);
    assert_eq!(cards_in(&e, &s, "discard_pile", 0).len(), 1 + 12 - 6);
}

// ---- bidding --------------------------------------------------------------------

// Bids: at least 4, above the highest so far, at most the bidder's longest suit; refused
// bids say why, and the legal ones are listed with the pass.
#[test]
fn bids_must_be_four_or_more_above_the_highest_and_within_the_longest_suit() {
    let (e, mut s) = bidding();
    // P2 holds four hearts: only 4 is possible.
    assert_eq!(legal_texts(&e, &s), vec!["bid 4", "pass"]);
    assert_eq!(
        refused(&e, &s, "bid 3"),
        "`3` is not one of the choices for `n` here"
    );
    assert_eq!(
        refused(&e, &s, "bid 5"),
        "a bid must be above the highest bid so far and no more than the cards of your longest suit"
    );
    play(&e, &mut s, "bid 4");
    assert_eq!(global(&e, &s, "high_bid"), Value::Int(4));
    assert_eq!(global(&e, &s, "high_bidder"), Value::Seat(P2));
    assert_eq!(global(&e, &s, "min_attack"), Value::Int(4));
    // P3 holds six spades: 5 or 6, not 4 again, not 7, never 11.
    assert_eq!(s.turn_seat, P3);
    assert_eq!(legal_texts(&e, &s), vec!["bid 5", "bid 6", "pass"]);
    for (bid, why) in [
        (
            "bid 4",
            "a bid must be above the highest bid so far and no more than the cards of your longest suit",
        ),
        (
            "bid 7",
            "a bid must be above the highest bid so far and no more than the cards of your longest suit",
        ),
        ("bid 11", "`11` is not one of the choices for `n` here"),
    ] {
        assert_eq!(refused(&e, &s, bid), why, "{bid}");
    }
    play(&e, &mut s, "bid 6");
    // P1 holds five diamonds, below the bid of 6: it can only pass.
    assert_eq!(s.turn_seat, P1);
    assert_eq!(legal_texts(&e, &s), vec!["pass"]);
    assert_eq!(
        refused(&e, &s, "bid 5"),
        "a bid must be above the highest bid so far and no more than the cards of your longest suit"
    );
}

// Bidding: one chance each, once round the table from P2; then combat starts at once.
#[test]
fn bidding_is_one_chance_each() {
    for players in [3u8, 4, 6] {
        let e = chips_engine();
        let base = chips_start(&e, players, 2);
        let mut s = chips_position(&e, &base, "bidding", P2, 0, &[]);
        let mut deciders = Vec::new();
        while phase_name(&e, &s) == "bidding" {
            deciders.push(e.decider(&s).unwrap());
            play(&e, &mut s, "pass");
        }
        let want: Vec<u8> = (1..players).chain([P1]).collect();
        assert_eq!(deciders, want, "{players} players");
        assert_eq!(phase_name(&e, &s), "combat");
    }
}

// The highest bidder attacks first and must play at least its bid; if all pass, P2 attacks
// first with no minimum. (Bids in seat order P2, P3, P1.)
#[test]
fn the_highest_bidder_attacks_first_with_at_least_its_bid() {
    let cases: &[([&str; 3], u8, i64)] = &[
        (["bid 4", "bid 6", "pass"], P3, 6),
        (["bid 4", "pass", "bid 5"], P1, 5),
        (["pass", "pass", "bid 5"], P1, 5),
        (["bid 4", "pass", "pass"], P2, 4),
        (["pass", "pass", "pass"], P2, 0),
    ];
    for &(bids, first, min) in cases {
        let (e, mut s) = bidding();
        for b in bids {
            play(&e, &mut s, b);
        }
        assert_eq!(phase_name(&e, &s), "combat", "{bids:?}");
        assert_eq!(
            (s.turn_seat, e.decider(&s)),
            (first, Some(first)),
            "{bids:?}"
        );
        assert_eq!(global(&e, &s, "min_attack"), Value::Int(min), "{bids:?}");
        let attacks = listed(&e, &s, "attack ");
        let sizes: Vec<usize> = attacks.iter().map(|t| cards_played(t)).collect();
        let least = (min as usize).max(1);
        assert!(sizes.iter().all(|&n| n >= least), "{bids:?}: {attacks:?}");
        assert_eq!(sizes.iter().min(), Some(&least), "{bids:?}: {attacks:?}");
    }
}

// The first attack: P3 bid 6 with six spades, so only the six-spade attack is offered; five
// spades or another suit are refused. After it, the minimum is gone.
#[test]
fn the_first_attack_plays_the_whole_bid_then_the_minimum_is_gone() {
    let (e, mut s) = bidding();
    for b in ["bid 4", "bid 6", "pass"] {
        play(&e, &mut s, b);
    }
    assert_eq!(
        legal_texts(&e, &s),
        vec![
            "attack spades 8S+9S+TS+JS+QS+KS P1",
            "attack spades 8S+9S+TS+JS+QS+KS P2"
        ]
    );
    assert_eq!(
        refused(&e, &s, "attack spades 8S+9S+TS+JS+QS P1"),
        "`8S+9S+TS+JS+QS` is not one of the choices for `cards` here"
    );
    assert_eq!(
        refused(&e, &s, "attack hearts 8H P1"),
        "`8H` is not one of the choices for `cards` here"
    );
    play(&e, &mut s, "attack spades 8S+9S+TS+JS+QS+KS P1");
    assert_eq!(global(&e, &s, "min_attack"), Value::Int(0));
    play(&e, &mut s, "surrender");
    // P1 lost 6; now it attacks (the attacker's left) with single cards of any other suit.
    assert_eq!(all_chips(&e, &s), vec![4, 10, 16]);
    assert_eq!(s.turn_seat, P1);
    assert!(is_legal(&e, &s, "attack hearts AH P2"));
    assert!(is_legal(&e, &s, "attack diamonds 7D P3"));
    assert!(listed(&e, &s, "attack spades").is_empty());
}

// If all pass, P2 (the dealer's left) attacks first and a single card is enough.
#[test]
fn if_all_pass_p2_attacks_first_with_no_minimum() {
    let (e, mut s) = bidding();
    for b in ["pass", "pass", "pass"] {
        play(&e, &mut s, b);
    }
    assert_eq!(global(&e, &s, "high_bidder"), Value::None);
    assert_eq!((phase_name(&e, &s), s.turn_seat), ("combat".into(), P2));
    for one in [
        "attack hearts 2H P3",
        "attack spades 3S P1",
        "attack diamonds 2D P3",
        "attack clubs 3C P1",
    ] {
        assert!(is_legal(&e, &s, one), "{one}");
    }
}

// ---- attack and defence ---------------------------------------------------------

// Strength and payments: a card counts 1, a card with its twin in the same play 2 (a pair
// is 4). Attacker stronger: the defender pays the difference; defender stronger: the
// attacker pays twice the difference; equal: nothing; a surrender loses the whole attack.
#[test]
fn battles_pay_by_strength() {
    // (P2's hand, P3's hand, attack, answer, chips after [P1, P2, P3]).
    let cases: &[(Cards, Cards, &str, &str, [i64; 3])] = &[
        // 7H+7H = 4 against three different hearts = 3: P3 pays 1.
        (
            &["7H", "7H", "9S"],
            &["2H", "3H", "4H"],
            "attack hearts 7H+7H P3",
            "defend 2H+3H+4H",
            [10, 11, 9],
        ),
        // 3 against a pair (4): P2 pays twice 1.
        (
            &["2H", "3H", "4H"],
            &["7H", "7H"],
            "attack hearts 2H+3H+4H P3",
            "defend 7H+7H",
            [10, 8, 12],
        ),
        // 3 against 1: P3 pays 2.
        (
            &["2S", "3S", "4S"],
            &["9S"],
            "attack spades 2S+3S+4S P3",
            "defend 9S",
            [10, 12, 8],
        ),
        // 1 against 3: P2 pays twice 2.
        (
            &["2S"],
            &["7S", "8S", "9S"],
            "attack spades 2S P3",
            "defend 7S+8S+9S",
            [10, 6, 14],
        ),
        // 2 against 2: nothing.
        (
            &["2D", "3D"],
            &["8D", "9D"],
            "attack diamonds 2D+3D P3",
            "defend 8D+9D",
            [10, 10, 10],
        ),
        // A pair (4) against four different cards (4): equal, though 2 cards face 4.
        (
            &["QC", "QC"],
            &["2C", "3C", "4C", "5C"],
            "attack clubs QC+QC P3",
            "defend 2C+3C+4C+5C",
            [10, 10, 10],
        ),
        // A pair and a card (5) against a pair (4): P3 pays 1.
        (
            &["5H", "5H", "KH"],
            &["JH", "JH"],
            "attack hearts 5H+5H+KH P3",
            "defend JH+JH",
            [10, 11, 9],
        ),
        // Two pairs (8) against one card: P3 pays 7.
        (
            &["5H", "5H", "6H", "6H"],
            &["JH"],
            "attack hearts 5H+5H+6H+6H P3",
            "defend JH",
            [10, 17, 3],
        ),
        // Surrender: the attacker wins its whole strength, here 3.
        (
            &["2S", "3S", "4S"],
            &["9S", "9H"],
            "attack spades 2S+3S+4S P3",
            "surrender",
            [10, 13, 7],
        ),
    ];
    let e = chips_engine();
    for &(attacker, defender, attack, answer, after) in cases {
        let s = battle(&e, [10, 10, 10], attacker, defender, attack, answer);
        assert_eq!(all_chips(&e, &s), after.to_vec(), "`{attack}` / `{answer}`");
        assert_eq!(s.outcome, None, "`{attack}` / `{answer}`");
        // The battle is over: P3 (the attacker's left) attacks next.
        assert_eq!((s.turn_seat, s.step, e.decider(&s)), (P3, 0, Some(P3)));
    }
}

// Twins in one hand are one choice: a single 7H is offered once, and the pair once.
#[test]
fn a_choice_among_twins_is_offered_once() {
    let e = chips_engine();
    let s = combat(&e, 3, P2, &[(P2, &["7H", "9H", "7H"]), (P3, &["2S"])]);
    assert_eq!(
        listed(&e, &s, "attack hearts").len(),
        // {7H}, {9H}, {7H,7H}, {7H,9H}, {7H,7H,9H}, each against P1 or P3.
        10,
        "{:?}",
        listed(&e, &s, "attack hearts")
    );
    for t in [
        "attack hearts 7H P3",
        "attack hearts 7H+7H P3",
        "attack hearts 7H+7H+9H P3",
    ] {
        assert_eq!(
            legal_texts(&e, &s).iter().filter(|x| *x == t).count(),
            1,
            "{t}"
        );
    }
}

// Payments are capped at the payer's chips: chips never go below 0 and the total is kept.
#[test]
fn payments_are_capped_at_the_payers_chips() {
    let e = chips_engine();
    // P3 has 1 chip and loses by 3: it pays 1.
    let s = battle(
        &e,
        [17, 12, 1],
        &["2S", "3S", "4S"],
        &["9H"],
        "attack spades 2S+3S+4S P3",
        "surrender",
    );
    assert_eq!(all_chips(&e, &s), vec![17, 13, 0]);
    // P2 has 3 chips and owes twice 2: it pays 3.
    let s = battle(
        &e,
        [10, 3, 17],
        &["2S"],
        &["5S", "6S", "7S"],
        "attack spades 2S P3",
        "defend 5S+6S+7S",
    );
    assert_eq!(all_chips(&e, &s), vec![10, 0, 20]);
}

// A suit may not be used for two attacks in a row; two turns later it may.
#[test]
fn the_previous_attacks_suit_is_refused() {
    let e = chips_engine();
    let mut s = combat(
        &e,
        3,
        P2,
        &[(P2, &["7H", "8H", "5S", "6S"]), (P3, &["2S", "9H", "TH"])],
    );
    set_global(&e, &mut s, "last_suit", suit(&e, "hearts"));
    assert!(listed(&e, &s, "attack hearts").is_empty());
    assert_eq!(listed(&e, &s, "attack spades").len(), 6);
    assert_eq!(
        refused(&e, &s, "attack hearts 7H P3"),
        "the last attack was in this suit: choose another"
    );
    play(&e, &mut s, "attack spades 5S P3");
    assert_eq!(global(&e, &s, "last_suit"), suit(&e, "spades"));
    play(&e, &mut s, "surrender");
    assert_eq!(s.turn_seat, P3);
    assert!(listed(&e, &s, "attack spades").is_empty());
    assert_eq!(
        refused(&e, &s, "attack spades 2S P1"),
        "the last attack was in this suit: choose another"
    );
    assert!(is_legal(&e, &s, "attack hearts 9H+TH P1"));
}

// The defender answers with cards of the attack's suit only (or surrenders).
#[test]
fn the_defender_must_answer_in_the_attacks_suit() {
    let e = chips_engine();
    let mut s = combat(
        &e,
        3,
        P2,
        &[(P2, &["7H", "KS"]), (P3, &["2H", "5S", "3H", "5D"])],
    );
    play(&e, &mut s, "attack hearts 7H P3");
    assert_eq!(global(&e, &s, "defender"), Value::Seat(P3));
    assert_eq!(
        legal_texts(&e, &s),
        vec!["defend 3H", "defend 2H", "defend 2H+3H", "surrender"]
    );
    for (t, why) in [
        (
            "defend 5S",
            "`5S` is not one of the choices for `cards` here",
        ),
        (
            "defend 2H+5S",
            "`2H+5S` is not one of the choices for `cards` here",
        ),
        (
            "defend 5D",
            "`5D` is not one of the choices for `cards` here",
        ),
    ] {
        assert_eq!(refused(&e, &s, t), why, "{t}");
    }
}

// The defence step is decided by the defender, not by the seat whose turn it is; the next
// attacker is then the attacker's left, not the defender's.
#[test]
fn the_defender_decides_the_defence_step() {
    let e = chips_engine();
    let mut s = combat(
        &e,
        4,
        P2,
        &[
            (P2, &["7H", "8H", "KS"]),
            (P3, &["2C"]),
            (P4, &["4H", "9C"]),
        ],
    );
    play(&e, &mut s, "attack hearts 7H+8H P4");
    assert_eq!((s.turn_seat, s.step), (P2, 1));
    assert_eq!(e.decider(&s), Some(P4));
    for seat in [P1, P2, P3, P4] {
        assert_eq!(e.view(&s, seat).decider, Some(P4), "view of seat {seat}");
    }
    // P4's choices, from P4's hand (P2's own hearts are not offered).
    assert_eq!(legal_texts(&e, &s), vec!["defend 4H", "surrender"]);
    play(&e, &mut s, "defend 4H");
    assert_eq!(all_chips(&e, &s), vec![10, 11, 10, 9]);
    assert_eq!((s.turn_seat, e.decider(&s)), (P3, Some(P3)));
}

// The attack passes to the previous attacker's left, round the table (P4 → P1 → P2).
#[test]
fn the_attack_passes_to_the_left() {
    let e = chips_engine();
    let mut s = combat(
        &e,
        4,
        P4,
        &[(P4, &["9S"]), (P1, &["3D"]), (P2, &["2H"]), (P3, &["2C"])],
    );
    play(&e, &mut s, "attack spades 9S P2");
    play(&e, &mut s, "surrender");
    assert_eq!((s.turn_seat, e.decider(&s)), (P1, Some(P1)));
    play(&e, &mut s, "attack diamonds 3D P3");
    play(&e, &mut s, "surrender");
    assert_eq!((s.turn_seat, e.decider(&s)), (P2, Some(P2)));
    assert_eq!(all_chips(&e, &s), vec![11, 9, 9, 11]);
}

// ---- refilling ------------------------------------------------------------------

const ATTACKER_HAND: &[&str] = &["2H", "3H", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS"];
const DEFENDER_HAND: &[&str] = &["4H", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC"];

/// A three-seat battle with full hands: P2 attacks P3 with 2H+3H.
fn full_hands() -> (Engine, State) {
    let e = chips_engine();
    let s = combat(&e, 3, P2, &[(P2, ATTACKER_HAND), (P3, DEFENDER_HAND)]);
    (e, s)
}

// Refill: the defender draws up to 10 first, then the attacker, from the top of the stock.
#[test]
fn the_defender_refills_before_the_attacker() {
    // (answer, P3's new cards, P2's new cards, the stock's two top cards after, top last)
    let cases: &[(&str, Cards, Cards, [&str; 2])] = &[
        ("defend 4H", &["KD"], &["QD", "JD"], ["QC", "KC"]),
        ("surrender", &[], &["KD", "QD"], ["KC", "JD"]),
    ];
    for &(answer, p3_new, p2_new, top) in cases {
        let (e, mut s) = full_hands();
        stack_stock(&e, &mut s, &["KD", "QD", "JD", "KC", "QC"]);
        play(&e, &mut s, "attack hearts 2H+3H P3");
        play(&e, &mut s, answer);
        let kept_p3: Vec<&str> = if answer == "surrender" {
            DEFENDER_HAND.to_vec()
        } else {
            DEFENDER_HAND[1..].to_vec()
        };
        let want_p3: Vec<String> = kept_p3
            .iter()
            .chain(p3_new)
            .map(|c| c.to_string())
            .collect();
        let want_p2: Vec<String> = ATTACKER_HAND[2..]
            .iter()
            .chain(p2_new)
            .map(|c| c.to_string())
            .collect();
        assert_eq!(hand(&e, &s, P3), want_p3, "{answer}");
        assert_eq!(hand(&e, &s, P2), want_p2, "{answer}");
        let stock = cards_in(&e, &s, "stock", 0);
        assert_eq!(&stock[stock.len() - 2..], &top, "{answer}");
        assert_eq!(consistency_problem(&s), None);
    }
}

// The played cards go to the discard pile, attack first, then the defence.
#[test]
fn played_cards_go_to_the_discard_pile() {
    let (e, mut s) = full_hands();
    let before = cards_in(&e, &s, "discard_pile", 0);
    play(&e, &mut s, "attack hearts 2H+3H P3");
    assert_eq!(cards_in(&e, &s, "attack_row", 0), vec!["2H", "3H"]);
    play(&e, &mut s, "defend 4H");
    let after = cards_in(&e, &s, "discard_pile", 0);
    assert_eq!(&after[..before.len()], &before[..]);
    assert_eq!(&after[before.len()..], &["2H", "3H", "4H"]);
    assert!(cards_in(&e, &s, "attack_row", 0).is_empty());
    assert!(cards_in(&e, &s, "defence_row", 0).is_empty());
}

// Reshuffle: when the stock runs out during a refill, the discard pile (the cards just
// played included) is shuffled into a new stock and the refill goes on from it.
#[test]
fn an_empty_stock_is_refilled_from_the_shuffled_discard_pile() {
    // (cards left in the stock, answer, the cards the defender draws from the old stock)
    let cases: &[(usize, &str, usize)] = &[
        // The defender draws the last card; the attacker's two come from the new stock.
        (1, "defend 4H", 1),
        // The stock is empty before the defender's draw: it draws from the new stock too.
        (0, "defend 4H", 0),
        // The defender surrendered and draws nothing; the attacker draws from the new stock.
        (0, "surrender", 0),
    ];
    for &(left, answer, from_old) in cases {
        let (e, mut s) = full_hands();
        thin_stock(&e, &mut s, left);
        let old_stock = cards_in(&e, &s, "stock", 0);
        play(&e, &mut s, "attack hearts 2H+3H P3");
        let pile: Vec<u16> = s.zones[zone_inst(&e, "discard_pile", 0)].clone();
        let mut pool: Vec<u16> = pile.clone();
        pool.extend(&s.zones[zone_inst(&e, "attack_row", 0)]);
        let p3_before = s.zones[zone_inst(&e, "hand", P3)].clone();
        let p2_before = s.zones[zone_inst(&e, "hand", P2)].clone();
        play(&e, &mut s, answer);
        if answer != "surrender" {
            pool.extend(
                p3_before
                    .iter()
                    .filter(|c| !s.zones[zone_inst(&e, "hand", P3)].contains(c)),
            );
        }
        let what = format!("{left} left, {answer}");
        assert_eq!(consistency_problem(&s), None, "{what}");
        assert!(cards_in(&e, &s, "discard_pile", 0).is_empty(), "{what}");
        assert_eq!(hand(&e, &s, P2).len(), 10, "{what}");
        assert_eq!(hand(&e, &s, P3).len(), 10, "{what}");
        let new_p3: Vec<u16> = s.zones[zone_inst(&e, "hand", P3)]
            .iter()
            .copied()
            .filter(|c| !p3_before.contains(c))
            .collect();
        let new_p2: Vec<u16> = s.zones[zone_inst(&e, "hand", P2)]
            .iter()
            .copied()
            .filter(|c| !p2_before.contains(c))
            .collect();
        // The old stock went to the defender first.
        let old: Vec<String> = old_stock.iter().rev().cloned().collect();
        let got: Vec<String> = new_p3.iter().take(from_old).map(|&c| card(&e, c)).collect();
        assert_eq!(got, old[..from_old].to_vec(), "{what}");
        // Everything else drawn, and the whole new stock, came from the old discard pile
        // and the battle's cards.
        let mut drawn_new: Vec<u16> = new_p3[from_old..].to_vec();
        drawn_new.extend(&new_p2);
        let stock = s.zones[zone_inst(&e, "stock", 0)].clone();
        let mut got_all: Vec<u16> = stock.iter().copied().chain(drawn_new).collect();
        got_all.sort_unstable();
        let mut want_all = pool.clone();
        want_all.sort_unstable();
        assert_eq!(got_all, want_all, "{what}");
        // The new stock is shuffled, not the pile in its old order.
        let in_order: Vec<u16> = pool.iter().copied().filter(|c| stock.contains(c)).collect();
        assert_ne!(stock, in_order, "{what}");
    }
}

// ---- passing --------------------------------------------------------------------

// A player who cannot attack in any allowed suit passes: the turn moves on to the next seat.
#[test]
fn a_player_with_only_the_previous_suit_passes() {
    let e = chips_engine();
    let all_hearts: &[&str] = &["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH"];
    let mut s = combat(
        &e,
        3,
        P1,
        &[
            (P1, &["5H", "6S"]),
            (P2, all_hearts),
            (P3, &["KS", "QS", "JD"]),
        ],
    );
    play(&e, &mut s, "attack hearts 5H P3");
    let turns = s.turns;
    play(&e, &mut s, "surrender");
    // P2 holds only hearts, the suit just used: its turn passes without a decision.
    assert_eq!((s.turn_seat, s.step, e.decider(&s)), (P3, 0, Some(P3)));
    assert_eq!(s.turns, turns + 2);
    assert_eq!(hand(&e, &s, P2), all_hearts.to_vec());
    assert_eq!(all_chips(&e, &s), vec![11, 10, 9]);
    // The pass used no suit: hearts are still barred for P3.
    assert_eq!(global(&e, &s, "last_suit"), suit(&e, "hearts"));
    assert!(listed(&e, &s, "attack hearts").is_empty());
    assert!(!listed(&e, &s, "attack ").is_empty());
}

// ---- end of the game ------------------------------------------------------------

// The game ends as soon as a player has 0 chips; the most chips wins, ties share the win.
#[test]
fn the_game_ends_at_zero_chips_and_the_most_chips_win() {
    // (chips before [P1, P2, P3], chips after, outcome): P2 attacks P3 with four spades and
    // P3 surrenders.
    let cases: &[([i64; 3], [i64; 3], Option<Outcome>)] = &[
        // P3 pays all of its 4: P1 and P2 share the win with 16.
        ([16, 12, 4], [16, 16, 0], Some(Outcome::Win(vec![P1, P2]))),
        // P3 pays its last 2: P1, who did not fight, wins.
        ([16, 12, 2], [16, 14, 0], Some(Outcome::Win(vec![P1]))),
        // P2 wins alone.
        ([12, 14, 4], [12, 18, 0], Some(Outcome::Win(vec![P2]))),
        // P3 keeps 1 chip: the game goes on.
        ([16, 12, 5], [16, 16, 1], None),
    ];
    let e = chips_engine();
    for (before, after, outcome) in cases {
        let s = battle(
            &e,
            *before,
            &["2S", "3S", "4S", "5S"],
            &["9H"],
            "attack spades 2S+3S+4S+5S P3",
            "surrender",
        );
        assert_eq!(all_chips(&e, &s), after.to_vec(), "{before:?}");
        assert_eq!(&s.outcome, outcome, "{before:?}");
        for p in [P1, P2, P3] {
            assert_eq!(e.score(&s, p), Some(after[p as usize]));
        }
        if outcome.is_some() {
            assert_eq!(e.decider(&s), None);
            assert!(e.legal_actions(&s).is_empty());
        } else {
            assert_eq!(e.decider(&s), Some(P3));
        }
    }
}

// The game also ends when the attacker is the one left with no chips.
#[test]
fn an_attacker_left_with_no_chips_ends_the_game() {
    let e = chips_engine();
    let s = battle(
        &e,
        [10, 2, 18],
        &["2S"],
        &["5S", "6S"],
        "attack spades 2S P3",
        "defend 5S+6S",
    );
    assert_eq!(all_chips(&e, &s), vec![10, 0, 20]);
    assert_eq!(s.outcome, Some(Outcome::Win(vec![P3])));
}

// A set of cards may be typed in any order: it names the same choice.
#[test]
fn a_set_of_cards_is_read_in_any_order() {
    let e = chips_engine();
    let s = combat(
        &e,
        3,
        P2,
        &[(P2, &["7H", "9H", "7H", "KS"]), (P3, &["2H", "4H"])],
    );
    let listed = e.parse_action(&s, "attack hearts 7H+7H+9H P3").unwrap();
    for typed in ["attack hearts 9H+7H+7H P3", "attack hearts 7H+9H+7H P3"] {
        assert_eq!(e.parse_action(&s, typed).unwrap(), listed, "{typed}");
    }
    let mut s = s;
    play(&e, &mut s, "attack hearts 9H+7H+7H P3");
    let listed = e.parse_action(&s, "defend 2H+4H").unwrap();
    assert_eq!(e.parse_action(&s, "defend 4H+2H").unwrap(), listed);
}
