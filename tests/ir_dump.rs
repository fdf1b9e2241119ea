//! The IR of each game (Army Ants, Battalion the chip game, Battle Line) as RON: a reviewed snapshot,
//! and a lossless round trip.

mod common;

use muster::ir::Game;

fn ron_text(game: &Game) -> String {
    ron::ser::to_string_pretty(game, ron::ser::PrettyConfig::default())
        .expect("the IR serialises to RON")
}

// The lowered IR of army_ants is exactly the reviewed snapshot.
#[test]
fn army_ants_ir_snapshot() {
    let compiled = common::compile_army_ants();
    assert!(
        compiled.warnings.is_empty(),
        "army_ants compiles with warnings: {:?}",
        compiled.warnings
    );
    insta::assert_snapshot!("army_ants_ir", ron_text(&compiled.game));
}

// The IR survives RON: serialise, deserialise, and get an equal game (and the same text).
#[test]
fn army_ants_ir_round_trips_through_ron() {
    let game = common::compile_army_ants().game;
    let text = ron_text(&game);
    let back: Game = ron::from_str(&text).expect("the RON text deserialises");
    assert_eq!(back, game);
    assert_eq!(ron_text(&back), text);
    // And the deserialised game plays identically.
    let (a, b) = (
        muster::engine::Engine::new(game),
        muster::engine::Engine::new(back),
    );
    let (sa, sb) = (a.start(2, 9).unwrap(), b.start(2, 9).unwrap());
    assert_eq!(sa, sb);
    assert_eq!(a.legal_actions(&sa), b.legal_actions(&sb));
}

// The lowered IR of battalion_chips (with the standard deck it imports) is exactly the
// reviewed snapshot.
#[test]
fn battalion_chips_ir_snapshot() {
    let compiled = common::compile_chips();
    assert!(
        compiled.warnings.is_empty(),
        "battalion_chips compiles with warnings: {:?}",
        compiled.warnings
    );
    insta::assert_snapshot!("battalion_chips_ir", ron_text(&compiled.game));
}

// The chip game's IR survives RON too, and the deserialised game plays identically.
#[test]
fn battalion_chips_ir_round_trips_through_ron() {
    let game = common::compile_chips().game;
    let text = ron_text(&game);
    let back: Game = ron::from_str(&text).expect("the RON text deserialises");
    assert_eq!(back, game);
    assert_eq!(ron_text(&back), text);
    let (a, b) = (
        muster::engine::Engine::new(game),
        muster::engine::Engine::new(back),
    );
    for players in [3u8, 6] {
        let (mut sa, mut sb) = (a.start(players, 9).unwrap(), b.start(players, 9).unwrap());
        assert_eq!(sa, sb);
        // The first ten decisions (always the first listed) agree.
        for _ in 0..10 {
            let (la, lb) = (a.legal_actions(&sa), b.legal_actions(&sb));
            assert_eq!(la, lb);
            a.apply_listed(&mut sa, &la[0]).unwrap();
            b.apply_listed(&mut sb, &lb[0]).unwrap();
            assert_eq!(sa, sb);
        }
    }
}

// The lowered IR of battle_line (the 15 ranks, the 96 pieces and 48 spare captains, the
// 600 cells, the move patterns and the command actions) is exactly the reviewed snapshot.
#[test]
fn battle_line_ir_snapshot() {
    let compiled = common::compile_battle_line();
    assert!(
        compiled.warnings.is_empty(),
        "battle_line compiles with warnings: {:?}",
        compiled.warnings
    );
    insta::assert_snapshot!("battle_line_ir", ron_text(&compiled.game));
}

// Battle Line's IR survives RON too, and the deserialised game plays identically.
#[test]
fn battle_line_ir_round_trips_through_ron() {
    let game = common::compile_battle_line().game;
    let text = ron_text(&game);
    let back: Game = ron::from_str(&text).expect("the RON text deserialises");
    assert_eq!(back, game);
    assert_eq!(ron_text(&back), text);
    let (a, b) = (
        muster::engine::Engine::new(game),
        muster::engine::Engine::new(back),
    );
    let (mut sa, mut sb) = (a.start(2, 9).unwrap(), b.start(2, 9).unwrap());
    assert_eq!(sa, sb);
    // The first ten decisions (always the first listed) agree.
    for _ in 0..10 {
        let (la, lb) = (a.legal_actions(&sa), b.legal_actions(&sb));
        assert_eq!(la, lb);
        a.apply_listed(&mut sa, &la[0]).unwrap();
        b.apply_listed(&mut sb, &lb[0]).unwrap();
        assert_eq!(sa, sb);
    }
}
