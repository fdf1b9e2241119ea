//! `muster validate FILE...`: every diagnostic of every file, base game and variants (and,
//! with `--variant a,b`, those variants applied together).

use super::{EXIT_INVALID, EXIT_OK, EXIT_USAGE};
use crate::check;
use crate::diagnostic;
use std::path::PathBuf;

pub fn run(files: &[PathBuf], format: &str, variant: Option<&str>) -> i32 {
    if format != "text" && format != "json" {
        eprintln!("error: --format is `text` or `json`, not `{format}`");
        return EXIT_USAGE;
    }
    let mut code = EXIT_OK;
    let mut json = Vec::new();
    for f in files {
        // `-` is the standard input, as a rules file in the current folder.
        let loaded = if f.as_os_str() == "-" {
            let mut text = String::new();
            match std::io::Read::read_to_string(&mut std::io::stdin(), &mut text) {
                Ok(_) => check::load_source("<stdin>", &text, Some(std::path::Path::new("."))),
                Err(e) => {
                    eprintln!("error: cannot read the standard input: {e}");
                    code = code.max(EXIT_USAGE);
                    continue;
                }
            }
        } else {
            check::load_file(f)
        };
        let (sources, diags) = match loaded {
            Ok(loaded) => {
                let d = check::check_with(&loaded, variant);
                (loaded.sources, d)
            }
            Err(failed) => {
                if failed.diagnostics.iter().any(|d| d.code == "muster::io") {
                    code = code.max(EXIT_USAGE);
                }
                (failed.sources, failed.diagnostics)
            }
        };
        let errors = diags.iter().filter(|d| d.is_error()).count();
        let warnings = diags.len() - errors;
        if errors > 0 {
            code = code.max(EXIT_INVALID);
        }
        if format == "json" {
            if let serde_json::Value::Array(items) = diagnostic::to_json(&sources, &diags) {
                json.extend(items);
            }
        } else {
            eprint!("{}", super::render_for_stderr(&sources, &diags));
            let verdict = if errors == 0 { "ok" } else { "invalid" };
            println!(
                "{verdict}: {} ({errors} error(s), {warnings} warning(s))",
                f.display()
            );
        }
    }
    if format == "json" {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::Value::Array(json)).unwrap_or_default()
        );
    }
    code
}
