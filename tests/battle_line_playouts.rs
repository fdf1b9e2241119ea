//! Seeded random games of Battle Line, cut short (the engine is slow on a 600-square board
//! in debug builds): the engine never errs, every game ends or is capped, every piece is in
//! exactly one place after every action, and pieces leave the board only by capture (a
//! promotion swaps one piece for a spare captain, keeping the count).

mod common;

use common::*;
use muster::agents::{Agent, RandomAgent};
use muster::engine::{Engine, Outcome, State};

/// Turns a game from the set-up may last: three of each side.
const TURNS: u32 = 6;
/// The most actions a turn may take: 14 activations and 12 relays, each with its `go`, and
/// `end_turn`.
const ACTIONS_PER_TURN: usize = 2 * (14 + 12) + 1;

/// Where the pieces are: on the board, captured, promoted away, spare, still in the troops.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Census {
    board: usize,
    captured: usize,
    promoted: usize,
    spares: usize,
    troops: usize,
}

fn census(e: &Engine, s: &State) -> Census {
    let both =
        |z: &str| s.zones[zone_inst(e, z, WHITE)].len() + s.zones[zone_inst(e, z, BLACK)].len();
    Census {
        board: on_board(s),
        captured: both("captured"),
        promoted: both("promoted"),
        spares: both("spares"),
        troops: both("troops"),
    }
}

/// Plays one random game on from `s` with an agent seeded by `seed`, checking after every
/// action that the census moved only as a capture or a promotion moves it. Returns the
/// final state and the actions' texts.
fn random_game_from(e: &Engine, mut s: State, seed: u64) -> (State, Vec<String>) {
    let mut agent = RandomAgent::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xB1);
    let mut played: Vec<String> = Vec::new();
    let mut before = census(e, &s);
    assert_eq!(
        before.board + before.captured + before.promoted + before.spares + before.troops,
        144
    );
    while s.outcome.is_none() {
        assert!(
            played.len() < ACTIONS_PER_TURN * e.game.max_turns as usize,
            "seed {seed}: no end after {} actions",
            played.len()
        );
        let seat = e.decider(&s).expect("a game not over has a decider");
        let legal = e.legal_actions(&s);
        assert!(!legal.is_empty(), "seed {seed}: seat {seat} has no action");
        let a = legal[agent.choose(&e.view(&s, seat), &legal)].clone();
        let text = e.action_text(&s, &a);
        e.apply_listed(&mut s, &a)
            .unwrap_or_else(|err| panic!("seed {seed}: `{text}` failed: {err}"));
        played.push(text);
        let what = || format!("seed {seed}, after `{}`", played.join(", "));
        assert_eq!(consistency_problem(&s), None, "{}", what());
        let now = census(e, &s);
        let taken = now.captured - before.captured;
        let raised = now.promoted - before.promoted;
        assert!(
            taken <= 1 && raised <= 1,
            "{}: {before:?} -> {now:?}",
            what()
        );
        assert_eq!(now.board, before.board - taken, "{}: {now:?}", what());
        assert_eq!(now.spares, before.spares - raised, "{}: {now:?}", what());
        assert_eq!(now.troops, before.troops, "{}", what());
        // Captured and promoted pieces keep their side, and so do spares.
        for p in [WHITE, BLACK] {
            for z in ["captured", "promoted", "spares"] {
                assert!(
                    s.zones[zone_inst(e, z, p)]
                        .iter()
                        .all(|&c| s.owners[c as usize] == p),
                    "{}: {z} of seat {p}",
                    what()
                );
            }
        }
        before = now;
    }
    (s, played)
}

/// A random game from the set-up of `seed`.
fn random_game(e: &Engine, seed: u64) -> (State, Vec<String>) {
    let s = bl_start(e, seed);
    assert_eq!(
        census(e, &s),
        Census {
            board: 96,
            captured: 0,
            promoted: 0,
            spares: 48,
            troops: 0
        }
    );
    random_game_from(e, s, seed)
}

/// How a finished game ended, checked: a single winner, a draw, or the cap.
fn check_end(e: &Engine, end: &State, seed: u64) {
    match end.outcome {
        Some(Outcome::Capped) => assert_eq!(end.turns, e.game.max_turns, "seed {seed}"),
        Some(Outcome::Win(ref w)) => assert_eq!(w.len(), 1, "seed {seed}"),
        Some(Outcome::Draw) => {}
        None => unreachable!(),
    }
    assert!(end.turns <= e.game.max_turns, "seed {seed}");
}

// Random games from the set-up, seeds 1-3, capped at 6 turns: every piece accounted for
// after every action; each game is capped (the armies are 24 ranks apart).
#[test]
fn random_games_from_the_set_up_keep_every_piece() {
    let e = bl_engine_capped(TURNS);
    for seed in 1..=3 {
        let (end, played) = random_game(&e, seed);
        check_end(&e, &end, seed);
        assert_eq!(end.outcome, Some(Outcome::Capped), "seed {seed}");
        assert!(played.len() > 2 * TURNS as usize, "seed {seed}");
    }
}

/// A position in mid-game: each side's king, marshall, a colonel, two captains and
/// sergeants, wazirs and ferzes stand 2-3 ranks from the far rank (within the king's
/// reach), while the other colonel and six pieces face the enemy's six across the middle
/// (ranks 14-17). Black's pieces mirror White's (rank r to 31 - r). White to move.
fn melee(e: &Engine) -> State {
    let white: [(&str, &str); 21] = [
        ("j24", "king"),
        ("k24", "marshall"),
        ("i24", "colonel"),
        ("h25", "captain"),
        ("m27", "captain"),
        ("c28", "sergeant"),
        ("e28", "sergeant"),
        ("g28", "sergeant"),
        ("l28", "wazir"),
        ("n28", "wazir"),
        ("p28", "ferz"),
        ("r28", "ferz"),
        ("f24", "greater_elephant"),
        ("o24", "minister"),
        ("h15", "colonel"),
        ("j15", "light_elephant"),
        ("l15", "heavy_machine"),
        ("n15", "lesser_elephant"),
        ("f15", "priestess"),
        ("p15", "light_machine"),
        ("k14", "heavy_elephant"),
    ];
    let mirrored: Vec<String> = white
        .iter()
        .map(|(c, _)| format!("{}{}", &c[..1], 31 - c[1..].parse::<u32>().unwrap()))
        .collect();
    let mut pieces: Vec<(&str, u8, &str)> = white.iter().map(|&(c, r)| (c, WHITE, r)).collect();
    pieces.extend(
        mirrored
            .iter()
            .zip(white.iter())
            .map(|(c, &(_, r))| (c.as_str(), BLACK, r)),
    );
    bl_position(e, WHITE, &pieces)
}

// Random games from the mid-game position, seeds 1-6, capped at 24 turns: pieces leave the
// board only when captured, promotions swap a piece for a spare captain, and every game
// ends or is capped. Over the six games captures and promotions happen, and a game is won
// (seed 6: Black, in check from a colonel, runs out of moves).
#[test]
fn random_melees_lose_pieces_only_to_captures() {
    let e = bl_engine_capped(24);
    let start = melee(&e);
    let (mut captures, mut promotions, mut wins) = (0, 0, 0);
    for seed in 1..=6 {
        let (end, _) = random_game_from(&e, start.clone(), seed);
        check_end(&e, &end, seed);
        let c = census(&e, &end);
        captures += c.captured;
        promotions += c.promoted;
        wins += matches!(end.outcome, Some(Outcome::Win(_))) as usize;
    }
    assert!(
        captures > 0 && promotions > 0 && wins > 0,
        "{captures} captures, {promotions} promotions, {wins} wins"
    );
}

// The same seed plays the same game; different seeds play different ones.
#[test]
fn same_seed_gives_the_same_game() {
    let e = bl_engine_capped(2);
    let (a, pa) = random_game(&e, 7);
    let (b, pb) = random_game(&e, 7);
    assert_eq!(pa, pb);
    assert_eq!(a, b);
    let (_, pc) = random_game(&e, 8);
    assert_ne!(pa, pc);
}

// Notation and legality: along a random game from the set-up and one from the melee, every
// listed action's text parses back to the same action, no two share a text, and
// why_illegal agrees each is legal.
#[test]
fn every_listed_action_parses_back_and_is_legal() {
    let e = bl_engine_capped(3);
    let mut positions = 0;
    for start in [bl_start(&e, 4), melee(&e)] {
        let (_, played) = random_game_from(&e, start.clone(), 4);
        let mut s = start;
        for text in played.iter().take(25) {
            let legal = e.legal_actions(&s);
            let mut texts = Vec::new();
            for a in &legal {
                let t = e.action_text(&s, a);
                assert_eq!(e.parse_action(&s, &t).as_ref(), Ok(a), "`{t}`");
                assert_eq!(e.why_illegal(&s, a), None, "`{t}` is listed but refused");
                texts.push(t);
            }
            let n = texts.len();
            texts.sort();
            texts.dedup();
            assert_eq!(texts.len(), n, "two listed actions share a text");
            positions += 1;
            play(&e, &mut s, text);
        }
    }
    assert!(positions >= 40, "only {positions} positions checked");
}
