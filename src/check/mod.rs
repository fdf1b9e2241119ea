//! The checker: loads a rules file and its imports, resolves names, checks types and
//! arity, and lowers everything into the IR. It reports every problem it finds in one
//! run, as located diagnostics.

mod args;
mod budget;
mod consts;
mod expr;
mod items;
mod load;
mod patterns;
mod shapes;
mod stmt;
mod symbols;
mod warnings;

use crate::diagnostic::{Diagnostic, Sources};
use crate::ir;

pub use budget::{
    MAX_DECLARATIONS, MAX_EXPANDED_DEPTH, MAX_EXPANDED_SIZE, MAX_LOCALS, MAX_ZONE_INSTANCES,
};
pub use consts::MAX_FIXED_ITEMS;
pub use items::{MAX_BOARD_SIDE, MAX_COMPONENTS, MAX_SEATS, MAX_SLOTS, MAX_TURNS};
pub use load::{load_file, load_source, read_text, Loaded, MAX_FILE_BYTES};
pub use shapes::{MAX_AREA_CELLS, MAX_SHAPE_CELLS};
pub use symbols::{BUILTIN_FUNCTIONS, BUILTIN_NAMES, DIR_SETS};

/// A game that checked cleanly, with the warnings found on the way.
#[derive(Debug)]
pub struct Compiled {
    pub game: ir::Game,
    pub sources: Sources,
    pub warnings: Vec<Diagnostic>,
}

/// A rules file that did not check: every diagnostic found, errors and warnings.
#[derive(Debug)]
pub struct Failed {
    pub sources: Sources,
    pub diagnostics: Vec<Diagnostic>,
}

/// The most diagnostics one run reports (errors first, then warnings).
pub const MAX_ERRORS: usize = 50;

/// Reads, checks and lowers the rules file at `path`, with `variant` applied if given:
/// one variant's name, or several separated by commas (`a,b`), applied in order.
pub fn compile_file(path: &std::path::Path, variant: Option<&str>) -> Result<Compiled, Failed> {
    compile(load_file(path)?, variant)
}

/// Checks and lowers rules given as text; its imports resolve against the current folder.
pub fn compile_source(name: &str, text: &str, variant: Option<&str>) -> Result<Compiled, Failed> {
    compile(load_source(name, text, None)?, variant)
}

/// Checks the base game and every variant; the result lists each one's diagnostics.
pub fn check_all(loaded: &Loaded) -> Vec<Diagnostic> {
    check_with(loaded, None)
}

/// Checks the base game, every variant, and the variants of `list` (`a,b`) applied
/// together in order, if given; the result lists each one's diagnostics.
pub fn check_with(loaded: &Loaded, list: Option<&str>) -> Vec<Diagnostic> {
    let mut all = match items::lower(loaded, None) {
        Ok((_, w)) => w,
        Err(d) => d,
    };
    let names = items::variant_names(&loaded.items);
    let list = list.filter(|l| !names.iter().any(|n| n == l));
    for name in names.iter().map(String::as_str).chain(list) {
        match items::lower(loaded, Some(name)) {
            Ok((_, w)) => all.extend(w.into_iter().filter(|d| !d.is_error())),
            Err(d) => all.extend(d),
        }
    }
    // One report per problem, even when the base and a variant share it.
    let mut seen = std::collections::HashSet::new();
    all.retain(|d| seen.insert((d.span, d.message.clone())));
    // Errors before warnings, so that a flood of warnings never hides an error.
    all.sort_by_key(|d| !d.is_error());
    all.truncate(MAX_ERRORS);
    all
}

pub fn compile(loaded: Loaded, variant: Option<&str>) -> Result<Compiled, Failed> {
    match items::lower(&loaded, variant) {
        Ok((game, warnings)) => Ok(Compiled {
            game,
            sources: loaded.sources,
            warnings,
        }),
        Err(diagnostics) => Err(Failed {
            sources: loaded.sources,
            diagnostics,
        }),
    }
}
