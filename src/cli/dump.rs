//! `muster dump FILE`: the lowered IR as RON.

use super::{load, EXIT_OK};
use std::path::Path;

pub fn run(file: &Path, variant: Option<&str>) -> i32 {
    let compiled = match load(file, variant) {
        Ok(c) => c,
        Err(code) => return code,
    };
    // The IR's depth is bounded by the checker (`MAX_EXPANDED_DEPTH`), so RON's own
    // recursion limit (128 levels, less than valid rules reach) is lifted.
    let writer = ron::Options::default().without_recursion_limit();
    match writer.to_string_pretty(&compiled.game, ron::ser::PrettyConfig::default()) {
        Ok(text) => {
            println!("{text}");
            EXIT_OK
        }
        Err(e) => {
            eprintln!("error: cannot write the IR: {e}");
            super::EXIT_INVALID
        }
    }
}
