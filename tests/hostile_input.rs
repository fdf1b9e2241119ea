//! Regressions from the hostile-input audit: rules files, logs and command lines built to
//! break the engine and the command line. Each must be refused cleanly, never crash.

use muster::check::compile_source;
use muster::engine::{Engine, EngineError};

fn engine(rules: &str) -> Engine {
    match compile_source("hostile.muster", rules, None) {
        Ok(c) => Engine::new(c.game),
        Err(f) => panic!(
            "{}",
            muster::diagnostic::render(&f.sources, &f.diagnostics, false)
        ),
    }
}

/// Plays the first legal action until the game ends, fails or `moves` were taken.
fn play_first(engine: &Engine, moves: usize) -> Result<(), EngineError> {
    let mut s = engine.start(2, 1)?;
    for _ in 0..moves {
        if engine.decider(&s).is_none() {
            break;
        }
        let a = engine.legal_actions(&s)[0].clone();
        engine.apply(&mut s, &a)?;
    }
    Ok(())
}

/// Runs `f` on a thread with a small stack (256 KiB), so that a recursion that grows with
/// the number of turns shows as a stack overflow here and not only in long games.
fn small_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|t| {
        std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn_scoped(t, f)
            .unwrap()
            .join()
            .expect("no stack overflow")
    })
}

// Two phases that hand over to each other with nothing to decide: each phase change used
// to add a stack frame and restart the count of empty turns, until the stack overflowed.
// Now the empty turns are counted across phases, and the game stops with a rules error.
#[test]
fn phases_handing_over_with_no_decision_are_a_rules_error() {
    let e = engine(
        r#"
        game "Relay" { players 2  max_turns 1000000 }
        var n = 0
        phase a {
          turn { one of act if n < 0 }
          until true
          next b
        }
        phase b {
          turn { one of act if n < 0 }
          until true
          next a
        }
        action act { do { } }
    "#,
    );
    let err = small_stack(|| play_first(&e, 10)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "rules error: the rules make no progress: 10000 turns passed with nothing to decide"
    );
}
