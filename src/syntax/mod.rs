//! Syntax: rules-file text to a spanned AST. No I/O and no meaning here; the checker
//! (`crate::check`) decides what the names and expressions mean.

pub mod ast;
mod depth;
mod errors;
mod parser;

pub use depth::MAX_DEPTH;
pub use parser::{parse, MAX_NESTING};
