//! The IR of each game (Army Ants, Battalion the chip game, Battaglione, Battle Line) as RON: a reviewed
//! snapshot, and a lossless round trip; and what each variant changes, as a reviewed diff.

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

// The lowered IR of battaglione is exactly the reviewed snapshot.
#[test]
fn battaglione_ir_snapshot() {
    let compiled = common::compile_battaglione(None);
    assert!(
        compiled.warnings.is_empty(),
        "battaglione compiles with warnings: {:?}",
        compiled.warnings
    );
    insta::assert_snapshot!("battaglione_ir", ron_text(&compiled.game));
}

// Battaglione's IR (base and super_captain) survives RON, and the deserialised game plays
// identically.
#[test]
fn battaglione_ir_round_trips_through_ron() {
    for variant in [None, Some("super_captain")] {
        let game = common::compile_battaglione(variant).game;
        let text = ron_text(&game);
        let back: Game = ron::from_str(&text).expect("the RON text deserialises");
        assert_eq!(back, game, "{variant:?}");
        assert_eq!(ron_text(&back), text);
        let (a, b) = (
            muster::engine::Engine::new(game),
            muster::engine::Engine::new(back),
        );
        for players in [2u8, 4] {
            let (mut sa, mut sb) = (a.start(players, 9).unwrap(), b.start(players, 9).unwrap());
            assert_eq!(sa, sb);
            for _ in 0..30 {
                let (la, lb) = (a.legal_actions(&sa), b.legal_actions(&sb));
                assert_eq!(la, lb);
                let pick = la.len() / 2;
                a.apply_listed(&mut sa, &la[pick]).unwrap();
                b.apply_listed(&mut sb, &lb[pick]).unwrap();
                assert_eq!(sa, sb);
            }
        }
    }
}

/// The line diff between a game's base IR and one variant's, as RON: what the variant changes.
fn variant_diff(file: &str, variant: &str) -> String {
    let path = common::repo_path(file);
    let compile = |v: Option<&str>| match muster::check::compile_file(&path, v) {
        Ok(c) => {
            assert!(c.warnings.is_empty(), "{file} {v:?}: {:?}", c.warnings);
            c.game
        }
        Err(f) => panic!(
            "{file} {v:?} does not compile:\n{}",
            muster::diagnostic::render(&f.sources, &f.diagnostics, false)
        ),
    };
    let (base, changed) = (ron_text(&compile(None)), ron_text(&compile(Some(variant))));
    assert_ne!(base, changed, "{variant} changes nothing");
    similar::TextDiff::from_lines(&base, &changed)
        .unified_diff()
        .context_radius(3)
        .header(file, &format!("{file} --variant {variant}"))
        .to_string()
}

// What each variant changes in the IR, as a reviewed diff against its base game: Army Ants'
// two deployments and Battaglione's super_captain.
#[test]
fn variant_ir_diffs() {
    for (file, variant, name) in [
        (
            "games/army_ants.muster",
            "minor_deployment",
            "army_ants_minor_deployment_diff",
        ),
        (
            "games/army_ants.muster",
            "total_deployment",
            "army_ants_total_deployment_diff",
        ),
        (
            "games/battaglione.muster",
            "super_captain",
            "battaglione_super_captain_diff",
        ),
    ] {
        insta::assert_snapshot!(name, variant_diff(file, variant));
    }
}

// `muster dump --variant` prints the variant's IR: the same RON as compiling with it.
#[test]
fn dump_prints_the_variant_ir() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_muster"))
        .args([
            "dump",
            "games/battaglione.muster",
            "--variant",
            "super_captain",
        ])
        .output()
        .expect("muster runs");
    assert_eq!(out.status.code(), Some(0));
    let want = ron_text(&common::compile_battaglione(Some("super_captain")).game);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), format!("{want}\n"));
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

// The lowered IR of the emperor game (the shape catalogues with their cells, rows and
// links, the areas and the link rule) is exactly the reviewed snapshot, and survives RON.
#[test]
fn battalion_emperor_ir_snapshot() {
    let compiled = common::compile_file_or_panic("games/battalion_emperor.muster", None);
    assert!(
        compiled.warnings.is_empty(),
        "battalion_emperor compiles with warnings: {:?}",
        compiled.warnings
    );
    let text = ron_text(&compiled.game);
    insta::assert_snapshot!("battalion_emperor_ir", text);
    let back: Game = ron::from_str(&text).expect("the RON text deserialises");
    assert_eq!(back, compiled.game);
}

// Homeward's paths keep what they are through RON: per-seat tracks, in order, each cell
// once; and the deserialised game plays identically.
#[test]
fn homeward_paths_round_trip_through_ron() {
    let game = common::compile_file_or_panic("games/homeward.muster", None).game;
    let track = game
        .board
        .regions
        .iter()
        .find(|r| r.name == "track")
        .expect("the tracks");
    assert!(track.path && !track.loops && track.per_seat);
    assert_eq!(track.cells.len(), 4);
    assert!(track.cells.iter().all(|c| c.len() == 36));
    let text = ron_text(&game);
    assert!(text.contains("path: true"));
    let back: Game = ron::from_str(&text).expect("the RON text deserialises");
    assert_eq!(back, game);
    let (a, b) = (
        muster::engine::Engine::new(game),
        muster::engine::Engine::new(back),
    );
    let (sa, sb) = (a.start(4, 3).unwrap(), b.start(4, 3).unwrap());
    assert_eq!(sa, sb);
    assert_eq!(a.legal_actions(&sa), b.legal_actions(&sb));
}
