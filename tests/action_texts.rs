//! Every legal action has a text of its own: the notation is what logs record and people
//! type, so two actions with one text would make a saved game replay a different game.

mod common;

use muster::engine::{Engine, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

/// The legal actions' texts are all different, and each reads back as its own action.
fn assert_distinct(engine: &Engine, s: &State, what: &str) {
    let legal = engine.legal_actions(s);
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (i, a) in legal.iter().enumerate() {
        let t = engine.action_text(s, a);
        if let Some(j) = seen.insert(t.clone(), i) {
            panic!("{what}: actions {j} and {i} are both written `{t}`");
        }
    }
}

fn engine_for(rules: &str) -> Engine {
    match muster::check::compile_source("twins.muster", rules, None) {
        Ok(c) => Engine::new(c.game),
        Err(f) => panic!(
            "{}",
            muster::diagnostic::render(&f.sources, &f.diagnostics, false)
        ),
    }
}

// The audit's case: twin cards, one in each of two zones only their owner sees. Both are
// on offer; the texts used to be the same (`play Card`), and replaying the text picked
// the other card.
#[test]
fn twins_in_two_hidden_zones_have_different_texts() {
    let e = engine_for(
        r#"
        game "Twins" { players 2 }
        kind Card { rank: 1..3 }
        deck d of Card { 2 x card { rank: 1 } }
        zone pile shared hidden { holds d }
        zone hand per seat owner
        zone keep per seat owner
        zone table shared public
        setup { deal 1 from pile to hand(me)  deal 1 from pile to keep(me) }
        phase p { turn { one of play } }
        action play { choose c in hand(me) + keep(me) do { move c to table } }
    "#,
    );
    let mut s = e.start(2, 1).unwrap();
    let legal = e.legal_actions(&s);
    let texts: Vec<String> = legal.iter().map(|a| e.action_text(&s, a)).collect();
    assert_eq!(texts, ["play Card@hand@P1", "play Card@keep@P1"]);
    assert_distinct(&e, &s, "twins");
    // The second text replays the second card: the one from `keep`.
    let a = e.parse_action(&s, &texts[1]).unwrap();
    assert_eq!(a, legal[1]);
    e.apply(&mut s, &a).unwrap();
    let keep = e.game.zones.iter().position(|z| z.name == "keep").unwrap() as u16;
    assert!(s.zones[e.zone_instance(keep, 0, 0) as usize].is_empty());
}

// The fuzz target's case: twins in the decider's own zones, one hidden even from the
// decider, the other in view of its owner only. The decider knows both places (its own
// zones), so both texts are placed; an opponent, who knows neither, is told neither
// place when the card comes into view.
#[test]
fn twins_in_a_zone_hidden_from_its_owner_have_different_texts() {
    let e = engine_for(
        r#"
        game "Twins" { players 2 }
        board grid 2 x 1
        kind Piece { n: 1..2 }
        deck d of Piece { 6 x card { n: 1 } }
        zone pool shared hidden { holds d }
        zone hand per seat hidden
        zone stash per seat owner
        setup { for s in seats { move first(pool) to hand(s)  move first(pool) to stash(s) } }
        phase p { turn { one of put } }
        action put { choose c in hand(me) + stash(me) choose x in cells require x.empty do { move c to x } }
    "#,
    );
    let mut s = e.start(2, 1).unwrap();
    let legal = e.legal_actions(&s);
    let texts: Vec<String> = legal.iter().map(|a| e.action_text(&s, a)).collect();
    assert_eq!(
        texts,
        [
            "put Piece@hand@P1 a1",
            "put Piece@hand@P1 b1",
            "put Piece@stash@P1 a1",
            "put Piece@stash@P1 b1"
        ]
    );
    assert_distinct(&e, &s, "twins");
    let a = e.parse_action(&s, &texts[2]).unwrap();
    assert_eq!(a, legal[2]);
    let before = s.clone();
    e.apply(&mut s, &a).unwrap();
    assert_eq!(
        e.action_text_for(&before, &s, &a, 0, Some(1)),
        "put Piece a1"
    );
    assert_eq!(e.action_text_for(&before, &s, &a, 0, None), texts[2]);
    // Twins in two places that no seat knows together stay unplaced: the pool's pieces
    // (hidden, shared) and a seat's stash.
    let stash = e.game.zones.iter().position(|z| z.name == "stash").unwrap() as u16;
    let in_stash = s.zones[e.zone_instance(stash, 1, 0) as usize][0];
    let in_pool = (0..6u16).find(|&c| matches!(s.locs[c as usize], muster::engine::Loc::Zone(z) if z == e.zone_instance(0, 0, 0))).unwrap();
    assert_eq!(e.comp_text(&s, in_pool), "Piece");
    assert_eq!(e.comp_text(&s, in_stash), "Piece@stash@P2");
}

// Texts that differ only in case are different actions: the one written exactly is taken.
#[test]
fn texts_that_differ_in_case_are_read_exactly() {
    let e = engine_for(
        r#"
        game "Case" { players 2 }
        enum Mark { big "X", small "x" }
        kind Tile { m: Mark  label "{m}" }
        deck d of Tile { card { m: big } card { m: small } }
        zone pool shared public { holds d }
        phase p { turn { one of pick } }
        action pick { choose t in pool do { end turn } }
    "#,
    );
    let s = e.start(2, 1).unwrap();
    let legal = e.legal_actions(&s);
    let texts: Vec<String> = legal.iter().map(|a| e.action_text(&s, a)).collect();
    assert_eq!(texts, ["pick X", "pick x"]);
    for a in &legal {
        let t = e.action_text(&s, a);
        assert_eq!(&e.parse_action(&s, &t).unwrap(), a, "{t}");
    }
}

// Over every shipped game and variant, every player count, in seeded random playouts: no
// two legal actions ever share a text, and the action played reads back from its text.
#[test]
fn every_shipped_game_lists_distinct_texts() {
    let games = std::fs::read_dir(common::repo_path("games")).unwrap();
    let mut files: Vec<_> = games
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "muster"))
        .collect();
    files.sort();
    let mut positions = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let variants = text.lines().filter_map(|l| {
            l.strip_prefix("variant ")
                .and_then(|r| r.split_whitespace().next())
                .map(str::to_string)
        });
        for v in std::iter::once(None).chain(variants.map(Some)) {
            let c = muster::check::compile_file(&path, v.as_deref()).expect("a shipped game");
            let e = Engine::new(c.game);
            for players in e.game.min_players..=e.game.max_players {
                for seed in 0..3u64 {
                    let what = format!("{} {v:?} {players}p seed {seed}", path.display());
                    let mut rng = ChaCha8Rng::seed_from_u64(seed);
                    let mut s = e.start(players, seed).unwrap();
                    for _ in 0..400 {
                        if e.decider(&s).is_none() {
                            break;
                        }
                        assert_distinct(&e, &s, &what);
                        positions += 1;
                        let legal = e.legal_actions(&s);
                        let a = &legal[rng.gen_range(0..legal.len())];
                        let t = e.action_text(&s, a);
                        assert_eq!(&e.parse_action(&s, &t).unwrap(), a, "{what}: {t}");
                        e.apply(&mut s, a).unwrap();
                    }
                }
            }
        }
    }
    assert!(positions > 5_000, "{positions} positions");
}
