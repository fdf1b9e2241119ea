//! Seat colours on a terminal come from the rules: a seat named after a colour, or with a
//! colour among its attributes, is drawn in it; other seats take colours in seat order.

mod common;

use common::repo_path;
use muster::cli::{render_view_styled, seat_colour};
use muster::engine::Engine;

fn engine(file: &str) -> Engine {
    Engine::new(
        muster::check::compile_file(&repo_path(file), None)
            .unwrap()
            .game,
    )
}

const RED: &str = "\x1b[1;31m";
const WHITE: &str = "\x1b[1;37m";
const DARK_GREY: &str = "\x1b[1;90m";

#[test]
fn seats_are_drawn_in_the_colours_their_rules_name() {
    // Army Ants: Red and Black, by name.
    let e = engine("games/army_ants.muster");
    assert_eq!(seat_colour(&e, 0), Some(RED));
    assert_eq!(seat_colour(&e, 1), Some(DARK_GREY));
    let s = e.start(2, 1).unwrap();
    let board = render_view_styled(&e, &e.omniscient_view(&s), true);
    let red_queen = format!("{RED} QR\x1b[0m");
    assert!(
        board.contains(&red_queen) || board.contains(&format!("{RED}QR")),
        "{board}"
    );
    // Battle Line: White and Black.
    let e = engine("games/battle_line.muster");
    assert_eq!(seat_colour(&e, 0), Some(WHITE));
    assert_eq!(seat_colour(&e, 1), Some(DARK_GREY));
    // The emperor game's seats name suits, not colours: seat order.
    let e = engine("games/battalion_emperor.muster");
    assert_eq!(seat_colour(&e, 0), Some(WHITE));
    assert_eq!(seat_colour(&e, 1), Some(RED));
}

#[test]
fn a_seat_attribute_can_name_the_colour() {
    let rules = r#"
game "Colours" { players 2 }
enum Hue { green, blue }
seat North { hue: blue }
seat South { hue: green }
kind Stone { label "S" }
deck stones of Stone { card { } card { } }
board grid 2 x 2 { }
zone pile shared public { holds stones }
setup { place pile onto [a1, b2] }
phase play { turn { one of pass } }
action pass { do { } }
end { on stuck draw }
"#;
    let compiled = muster::check::compile_source("colours.muster", rules, None)
        .unwrap_or_else(|f| panic!("{:?}", f.diagnostics));
    let e = Engine::new(compiled.game);
    assert_eq!(seat_colour(&e, 0), Some("\x1b[1;34m"));
    assert_eq!(seat_colour(&e, 1), Some("\x1b[1;32m"));
}
