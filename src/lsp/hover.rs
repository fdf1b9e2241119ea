//! Hover: what a name is. A declared name shows its declaration (a zone with its
//! visibility, an action with its parameters, a `def` with its body); a built-in name or
//! function shows its signature and its line of the reference, `docs/language.md`.

use super::diagnostics::Analysis;
use super::index::{Decl, DeclKind, Target};
use crate::syntax::ast::Span;

/// The reference manual, whose section on built-ins documents each one in a table row.
const REFERENCE: &str = include_str!("../../docs/language.md");

/// The rows of the reference's tables of built-in names and functions: the first cell
/// (the names or signatures), the signature to show, and the documentation line. Read
/// once.
fn builtin_rows() -> &'static [(String, String, String)] {
    static ROWS: std::sync::OnceLock<Vec<(String, String, String)>> = std::sync::OnceLock::new();
    ROWS.get_or_init(|| {
        let section = REFERENCE
            .split("\n## 20.")
            .nth(1)
            .and_then(|s| s.split("\n## 21.").next())
            .unwrap_or("");
        section
            .lines()
            .filter(|l| l.starts_with("| `"))
            .filter_map(|row| {
                let cells: Vec<&str> = row.trim_matches('|').split(" | ").collect();
                let first = cells.first()?.trim().to_string();
                let doc = cells.last()?.trim().to_string();
                let sig = if cells.len() == 3 {
                    // A name: `me` | seat | value.
                    format!("{first}: {}", cells[1].trim())
                } else {
                    first.clone()
                };
                Some((first, sig, doc))
            })
            .collect()
    })
}

/// A built-in name or function: its signature(s) and its documentation line.
pub fn builtin(name: &str) -> Option<(String, String)> {
    let call = format!("`{name}(");
    let word = format!("`{name}`");
    builtin_rows()
        .iter()
        .find(|(first, _, _)| first.contains(&call) || first.contains(&word))
        .map(|(_, sig, doc)| (sig.clone(), doc.clone()))
}

/// A built-in field (`.owner`, `.piece`, ...): what it is read on and what it gives, from
/// the table of fields in the reference.
pub fn builtin_field(name: &str) -> Option<(String, String)> {
    let table = REFERENCE
        .split("**Fields.**")
        .nth(1)?
        .split("\n\n")
        .nth(1)?;
    let lines: Vec<String> = table
        .lines()
        .filter_map(|row| {
            let cells: Vec<&str> = row.trim_matches('|').split(" | ").map(str::trim).collect();
            (cells.len() == 3 && cells[1] == format!("`{name}`"))
                .then(|| format!("on {}: {}", cells[0], cells[2]))
        })
        .collect();
    (!lines.is_empty()).then(|| (format!("`.{name}`"), lines.join("\n\n")))
}

/// The hover text (Markdown) at a byte offset of a file, and the span it is about.
pub fn hover(a: &Analysis, file: u16, offset: u32) -> Option<(String, Span)> {
    let index = a.index.as_ref()?;
    if let Some(imp) = index
        .imports
        .iter()
        .find(|i| i.span.file == file && i.span.start <= offset && offset <= i.span.end)
    {
        return Some((format!("imports `{}`", imp.path), imp.span));
    }
    let (target, span) = index.at(file, offset)?;
    let decls = index.resolve(&target);
    if decls.is_empty() {
        if let Target::Global(name) = &target {
            if let Some((sig, doc)) = builtin(name) {
                return Some((format!("built-in {sig}\n\n{doc}"), span));
            }
            let (sig, doc) = builtin_field(name)?;
            return Some((format!("built-in field {sig}\n\n{doc}"), span));
        }
        return None;
    }
    let parts: Vec<String> = decls.iter().map(|d| describe(a, d)).collect();
    Some((parts.join("\n\n---\n\n"), span))
}

/// One declaration in words, with its source where that says more than a summary.
fn describe(a: &Analysis, d: &Decl) -> String {
    let mut out = format!("```muster\n{}\n```", d.detail);
    let source = a
        .text(d.item.file)
        .get(d.item.start as usize..d.item.end as usize);
    match d.kind {
        // A definition with its body; a local or a parameter with what binds it.
        DeclKind::Def | DeclKind::Local | DeclKind::Param => {
            if let Some(src) = source {
                let src = if d.binder.is_empty() || src.starts_with(&d.binder) {
                    clip(src)
                } else {
                    format!("{} {}", d.binder, clip(src))
                };
                out = format!("{}\n\n```muster\n{src}\n```", d.kind.word());
            }
        }
        DeclKind::Action => {
            if let Some(src) = source {
                // The parameters with their domains: the `choose` lines.
                let chooses: Vec<&str> = src
                    .lines()
                    .map(str::trim)
                    .filter(|l| l.starts_with("choose "))
                    .collect();
                if !chooses.is_empty() {
                    out.push_str(&format!("\n\n```muster\n{}\n```", chooses.join("\n")));
                }
            }
        }
        _ => {}
    }
    if let Some(v) = &d.variant {
        out.push_str(&format!("\n\nin variant `{v}`"));
    }
    out.push_str(&format!(
        "\n\n{} declared in {}",
        d.kind.word(),
        a.sources.files[d.span.file as usize].name
    ));
    out
}

/// At most a screenful of source.
fn clip(src: &str) -> String {
    const LINES: usize = 20;
    let lines: Vec<&str> = src.lines().collect();
    if lines.len() <= LINES {
        src.to_string()
    } else {
        format!("{}\n...", lines[..LINES].join("\n"))
    }
}
