//! Syntax: rules-file text to a spanned AST. No I/O and no meaning here; the checker
//! (`crate::check`) decides what the names and expressions mean.

pub mod ast;
mod errors;
mod parser;

pub use parser::parse;
