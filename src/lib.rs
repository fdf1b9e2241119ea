//! Muster: a rules-language interpreter for board and card games.
//!
//! A designer writes a game as one rules file. The pipeline is
//! text → [`syntax`] (spanned AST) → [`check`] (names, types, lowering) → [`ir`] (serde data)
//! → [`engine`] (state, legal actions, effects, views).
//!
//! ```
//! use muster::{check, engine::Engine};
//! // A tiny game: two seats take turns placing a token on an empty cell of a 3 x 1 strip.
//! let rules = r#"
//!     game "Strip" { players 2 }
//!     board grid 3 x 1
//!     kind Token { label "o" }
//!     deck tokens of Token { 3 x card { } }
//!     zone pile shared public { holds tokens }
//!     action place {
//!       choose c in cells
//!       require c.empty
//!       do { move first(pile) to c }
//!     }
//!     phase play { turn { one of place } }
//!     end { draw when none c in cells: c.empty }
//! "#;
//! let compiled = check::compile_source("strip.muster", rules, None).expect("valid rules");
//! let engine = Engine::new(compiled.game);
//! let mut state = engine.start(2, 7).expect("a 2-player game");
//! let moves = engine.legal_actions(&state);
//! assert_eq!(moves.len(), 3);
//! assert_eq!(engine.action_text(&state, &moves[0]), "place a1");
//! while let Some(_) = engine.decider(&state) {
//!     let first = engine.legal_actions(&state)[0].clone();
//!     engine.apply(&mut state, &first).expect("a listed action is legal");
//! }
//! assert_eq!(state.turns, 3);
//! ```

#![forbid(unsafe_code)]

pub mod agents;
pub mod check;
pub mod cli;
pub mod diagnostic;
pub mod engine;
pub mod ir;
pub mod lsp;
pub mod scenario;
pub mod similar;
pub mod syntax;
