//! A hex board drawn as text: each rank half a cell right of the rank below, the top rank
//! first, files lettered above and below, ranks numbered on both sides, so that a cell's
//! six neighbours can be seen. Snapshots of Hex's small board as Red sees it, empty and
//! with stones.

mod common;

use common::repo_path;
use muster::cli::render_view;
use muster::engine::Engine;

fn small_hex() -> Engine {
    Engine::new(
        muster::check::compile_file(&repo_path("games/hex.muster"), Some("small"))
            .unwrap()
            .game,
    )
}

#[test]
fn an_empty_hex_board_is_drawn_as_a_rhombus() {
    let e = small_hex();
    let s = e.start(2, 1).unwrap();
    let text = render_view(&e, &e.view(&s, 0));
    // Rank 7 is indented six half cells (of two columns each) more than rank 1.
    let indent = |rank: &str| {
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with(rank))
            .unwrap();
        line.len() - line.trim_start().len()
    };
    assert_eq!(indent("7 ") - indent("1 "), 12, "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn stones_are_drawn_where_they_stand_on_a_hex_board() {
    let e = small_hex();
    let mut s = e.start(2, 1).unwrap();
    for m in [
        "place d4", "swap", "place a1", "place b1", "place g7", "place c2",
    ] {
        let a = e.parse_action(&s, m).unwrap();
        e.apply(&mut s, &a).unwrap();
    }
    let text = render_view(&e, &e.view(&s, 0));
    insta::assert_snapshot!(text);
}
