//! `muster test [PATHS]`: runs rules scenarios (`*.scenarios` files, in folders searched
//! recursively) and reports each failing scenario at its line.

use super::{EXIT_INVALID, EXIT_OK, EXIT_USAGE};
use crate::scenario;
use std::path::PathBuf;

pub fn run(paths: &[PathBuf], format: &str) -> i32 {
    if format != "text" && format != "json" {
        eprintln!("error: --format is `text` or `json`, not `{format}`");
        return EXIT_USAGE;
    }
    let paths = if paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        paths.to_vec()
    };
    let files = match scenario::files_under(&paths) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    if files.is_empty() {
        eprintln!(
            "error: no scenario files (`*.{}`) under {}",
            scenario::EXTENSION,
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
        return EXIT_USAGE;
    }
    let (mut passed, mut failed, mut broken) = (0, 0, 0);
    let mut json = Vec::new();
    for f in &files {
        let report = scenario::run_file(f);
        passed += report.passed();
        failed += report.results.len() - report.passed();
        if report.results.is_empty() && !report.ok() {
            broken += 1;
        }
        if format == "json" {
            json.push(serde_json::json!({
                "file": f.display().to_string(),
                "scenarios": report.results.iter().map(|(name, ok)| serde_json::json!({
                    "name": name, "passed": ok,
                })).collect::<Vec<_>>(),
                "failures": crate::diagnostic::to_json(&report.sources, &report.failures),
            }));
        } else {
            if !report.ok() {
                eprint!(
                    "{}",
                    super::render_for_stderr(&report.sources, &report.failures)
                );
            }
            let word = if report.ok() { "ok" } else { "FAILED" };
            eprintln!(
                "{word}: {} ({} of {} scenario(s) passed)",
                f.display(),
                report.passed(),
                report.results.len()
            );
        }
    }
    if format == "json" {
        println!(
            "{}",
            serde_json::json!({ "passed": passed, "failed": failed, "files": json })
        );
    } else {
        eprintln!(
            "{} scenario(s) in {} file(s): {passed} passed, {failed} failed{}",
            passed + failed,
            files.len(),
            if broken > 0 {
                format!(", {broken} file(s) could not run")
            } else {
                String::new()
            }
        );
    }
    if failed > 0 || broken > 0 {
        EXIT_INVALID
    } else {
        EXIT_OK
    }
}
