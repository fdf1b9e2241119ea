//! Variables in views: each is shown according to its visibility (`public`, `owner`,
//! `hidden`), and a per-piece variable of a component a seat cannot identify is shown with
//! its place, never with the component.

use muster::engine::{Engine, Seen, NONE};
use muster::ir::Value;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const RULES: &str = r#"
game "Secrets" { players 2 }
seat North { }
seat South { }
kind Token { rank: 1..4  label "T{rank}" }
deck tokens of Token { for r in 1..4 { card { rank: r } } }
board grid 4 x 2 { }
zone pool shared hidden { holds tokens }
zone hand per seat owner
var bid per seat owner = 0
var pot hidden = 7
var round = 1
var marked per piece = 0
var secret_mark per piece owner = 0
setup {
  for p in seats { deal 2 from pool to hand(p) }
}
phase play {
  turn { one of lay }
}
action lay {
  choose t in hand(me)
  choose x in [c in cells where c.empty]
  do {
    move t to x face down
    t.marked = round
    t.secret_mark = t.rank
    me.bid += t.rank
    pot += 1
    round += 1
  }
}
end { on stuck draw }
"#;

fn engine() -> Engine {
    let compiled = muster::check::compile_source("secrets.muster", RULES, None)
        .unwrap_or_else(|f| panic!("{:?}", f.diagnostics));
    Engine::new(compiled.game)
}

fn var(e: &Engine, name: &str) -> usize {
    e.game.vars.iter().position(|v| v.name == name).unwrap()
}

#[test]
fn each_seat_sees_the_variables_it_may() {
    let e = engine();
    let mut s = e.start(2, 3).unwrap();
    let a = e.legal_actions(&s)[0].clone();
    e.apply(&mut s, &a).unwrap();
    let n = e.game.vars.len();
    let (bid, pot, round) = (var(&e, "bid"), var(&e, "pot"), var(&e, "round"));
    let laid = s.cells.iter().copied().find(|&c| c != NONE).unwrap();
    let rank = |c: u16| e.game.components[c as usize].attrs[0].clone();
    let north_bid = s.seat_vars[bid].clone();
    assert_ne!(north_bid, Value::Int(0));
    // North sees its own bid, South does not; nobody sees the pot; everyone sees the round.
    let north = e.view(&s, 0);
    let south = e.view(&s, 1);
    assert_eq!(north.seat_vars[bid], north_bid);
    assert_eq!(south.seat_vars[bid], Value::None);
    assert_eq!(south.seat_vars[n + bid], Value::Int(0), "its own");
    assert_eq!(north.globals[pot], Value::None);
    assert_eq!(south.globals[pot], Value::None);
    assert_eq!(e.omniscient_view(&s).globals[pot], Value::Int(8));
    assert_eq!(south.globals[round], Value::Int(2));
    // The laid token is face down: South cannot identify it, so its per-piece variables
    // are not filed under the token but under its place, and only the public one.
    let (marked, secret) = (var(&e, "marked"), var(&e, "secret_mark"));
    assert!(matches!(
        south.cells.iter().find(|x| **x != Seen::Empty),
        Some(Seen::Hidden { .. })
    ));
    assert!(south.comp_vars[laid as usize * n..][..n]
        .iter()
        .all(|v| *v == Value::None));
    let first_hidden_cell_row = &south.hidden_vars[..n];
    assert_eq!(first_hidden_cell_row[marked], Value::Int(1));
    assert_eq!(first_hidden_cell_row[secret], Value::None);
    // North, its owner, identifies it and sees both.
    assert_eq!(north.comp_vars[laid as usize * n + marked], Value::Int(1));
    assert_eq!(north.comp_vars[laid as usize * n + secret], rank(laid));
    // A state drawn from South's view gives South the same view, the public mark at the
    // same place.
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for _ in 0..20 {
        let t = e.sample_state(&south, &mut rng);
        assert_eq!(e.view(&t, 1), south);
    }
}

#[test]
fn a_game_variable_cannot_be_seen_by_its_owner() {
    let text = RULES.replace("var pot hidden = 7", "var pot owner = 7");
    let failed = muster::check::compile_source("secrets.muster", &text, None)
        .err()
        .unwrap();
    let codes: Vec<&str> = failed.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["muster::var-owner"]);
}
