//! Muster: a rules-language interpreter for board and card games.
//!
//! A designer writes a game as one rules file. The pipeline is
//! text → [`syntax`] (spanned AST) → [`check`] (names, types, lowering) → [`ir`] (serde data)
//! → [`engine`] (state, legal actions, effects, views).
//!
//! ```
//! use muster::{check, engine::Engine};
//! let compiled = check::compile_file("games/army_ants.muster".as_ref(), None).expect("valid rules");
//! let engine = Engine::new(compiled.game);
//! let mut state = engine.start(2, 7).expect("a 2-player game");
//! let moves = engine.legal_actions(&state);
//! assert!(!moves.is_empty());
//! engine.apply(&mut state, &moves[0]).expect("a listed action is legal");
//! ```

#![forbid(unsafe_code)]

pub mod agents;
pub mod check;
pub mod cli;
pub mod diagnostic;
pub mod engine;
pub mod ir;
pub mod syntax;
