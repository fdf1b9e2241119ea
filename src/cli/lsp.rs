//! `muster lsp`: the language server, on stdin and stdout (see `crate::lsp`).

use super::{EXIT_OK, EXIT_USAGE};

pub fn run() -> i32 {
    match crate::lsp::run_stdio() {
        Ok(()) => EXIT_OK,
        Err(e) => {
            eprintln!("error: the language server stopped: {e}");
            EXIT_USAGE
        }
    }
}
