//! Diagnostics for the editor: one document checked as `validate` checks it (the base game
//! and every variant, its imports read from disk), the checker's diagnostics turned into
//! the protocol's, and the quick fixes the checker's help lines spell out.

use super::index::{Import, Index};
use crate::check;
use crate::diagnostic::{Diagnostic, Severity, Sources};
use crate::syntax::ast::Span;
use lsp_types as lsp;
use std::path::{Path, PathBuf};

/// One document checked: its sources (the document first, then its imports), every
/// diagnostic, and the navigation index (none when a file does not parse).
pub struct Analysis {
    pub sources: Sources,
    /// Each source's absolute path, by file index.
    pub paths: Vec<PathBuf>,
    pub diags: Vec<Diagnostic>,
    pub index: Option<Index>,
}

impl Analysis {
    /// Checks `text`, the contents of the document at `path`.
    pub fn new(path: &Path, text: &str) -> Analysis {
        let name = path.display().to_string();
        let (sources, diags, items) = match check::load_source(&name, text, path.parent()) {
            Ok(loaded) => {
                let diags = check::check_all(&loaded);
                (loaded.sources, diags, Some(loaded.items))
            }
            Err(failed) => (failed.sources, failed.diagnostics, None),
        };
        // A file without a game is a library that games import (a deck, shared
        // definitions): in the editor its own mistakes are shown, not that it is no game.
        let mut diags = diags;
        diags.retain(|d| {
            d.code != "muster::no-game" || d.message != "this rules file declares no game"
        });
        let paths: Vec<PathBuf> = sources
            .files
            .iter()
            .map(|f| absolute(Path::new(&f.name)))
            .collect();
        let index = items.map(|items| Index::build(&items, imports(&sources, &paths)));
        Analysis {
            sources,
            paths,
            diags,
            index,
        }
    }

    /// The file index of a path among the sources.
    pub fn file_of(&self, path: &Path) -> Option<u16> {
        self.paths.iter().position(|p| p == path).map(|i| i as u16)
    }

    pub fn text(&self, file: u16) -> &str {
        self.sources
            .files
            .get(file as usize)
            .map(|f| &*f.text)
            .unwrap_or("")
    }

    pub fn range(&self, span: Span) -> lsp::Range {
        let text = self.text(span.file);
        lsp::Range::new(
            position(text, span.start as usize),
            position(text, span.end.max(span.start) as usize),
        )
    }

    pub fn location(&self, span: Span) -> Option<lsp::Location> {
        let uri = lsp::Url::from_file_path(self.paths.get(span.file as usize)?).ok()?;
        Some(lsp::Location::new(uri, self.range(span)))
    }

    /// The diagnostics of each source, by file index, in the protocol's terms; every
    /// source is listed, with an empty list when it has none.
    pub fn published(&self) -> Vec<(u16, Vec<lsp::Diagnostic>)> {
        (0..self.paths.len() as u16)
            .map(|f| {
                let diags = self
                    .diags
                    .iter()
                    .filter(|d| d.span.file == f)
                    .map(|d| self.to_lsp(d))
                    .collect();
                (f, diags)
            })
            .collect()
    }

    /// One diagnostic in the protocol's terms: the same message, code and help as
    /// `validate`; the label and any place the checker names as related information.
    pub fn to_lsp(&self, d: &Diagnostic) -> lsp::Diagnostic {
        let mut message = d.message.clone();
        if let Some(h) = &d.help {
            message.push_str("\nhelp: ");
            message.push_str(h);
        }
        let mut related = Vec::new();
        if let Some(loc) = self.location(d.span) {
            if !d.label.is_empty() {
                related.push(lsp::DiagnosticRelatedInformation {
                    location: loc,
                    message: d.label.clone(),
                });
            }
        }
        if let Some((file, line, col)) = d.help.as_deref().and_then(place_named) {
            if let Some(f) = self.sources.files.iter().position(|f| f.name == file) {
                let text = self.text(f as u16);
                if let Some(at) = offset_of_line_col(text, line, col) {
                    let span = Span::new(f as u16, at, word_end(text, at));
                    if let Some(loc) = self.location(span) {
                        related.push(lsp::DiagnosticRelatedInformation {
                            location: loc,
                            message: "declared here first".into(),
                        });
                    }
                }
            }
        }
        if let (Some(name), Some(index)) = (suggestion(d), &self.index) {
            if let Some((_, decl)) = index.globals(&name).next() {
                if let Some(loc) = self.location(decl.span) {
                    related.push(lsp::DiagnosticRelatedInformation {
                        location: loc,
                        message: format!("`{name}` is declared here"),
                    });
                }
            }
        }
        lsp::Diagnostic {
            range: self.range(d.span),
            severity: Some(match d.severity {
                Severity::Error => lsp::DiagnosticSeverity::ERROR,
                Severity::Warning => lsp::DiagnosticSeverity::WARNING,
            }),
            code: Some(lsp::NumberOrString::String(d.code.to_string())),
            source: Some("muster".into()),
            message,
            related_information: (!related.is_empty()).then_some(related),
            ..lsp::Diagnostic::default()
        }
    }

    /// The quick fixes for the diagnostics of `file` that touch `range`.
    pub fn quick_fixes(&self, file: u16, range: lsp::Range) -> Vec<lsp::CodeAction> {
        let mut out = Vec::new();
        for d in self.diags.iter().filter(|d| d.span.file == file) {
            let r = self.range(d.span);
            if r.end < range.start || range.end < r.start {
                continue;
            }
            let Some(uri) = self
                .paths
                .get(file as usize)
                .and_then(|p| lsp::Url::from_file_path(p).ok())
            else {
                continue;
            };
            let edit = if let Some(name) = suggestion(d) {
                Some((format!("replace with `{name}`"), r, name))
            } else {
                self.missing_field(d)
                    .map(|(title, span, text)| (title, self.range(span), text))
            };
            if let Some((title, range, new_text)) = edit {
                let mut changes = std::collections::HashMap::new();
                changes.insert(uri, vec![lsp::TextEdit { range, new_text }]);
                out.push(lsp::CodeAction {
                    title,
                    kind: Some(lsp::CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![self.to_lsp(d)]),
                    edit: Some(lsp::WorkspaceEdit {
                        changes: Some(changes),
                        ..lsp::WorkspaceEdit::default()
                    }),
                    is_preferred: Some(true),
                    ..lsp::CodeAction::default()
                });
            }
        }
        out
    }

    /// A missing attribute (`add `n: ...``): the field added before the closing brace of
    /// the declaration, with the value another declaration of the same shape gives it.
    fn missing_field(&self, d: &Diagnostic) -> Option<(String, Span, String)> {
        let help = d.help.as_deref()?;
        let rest = help.strip_prefix("add `")?;
        let field = rest.split(':').next()?.trim();
        if !rest.contains(": ...`") || field.is_empty() {
            return None;
        }
        let text = self.text(d.span.file);
        // The value another declaration of the same kind (a seat, a card) gives the
        // field, else `0`.
        let opener = if d.code == "muster::seats" {
            "seat"
        } else {
            "card"
        };
        let value = field_value(text, field, opener).unwrap_or_else(|| "0".into());
        // The declaration's closing brace: the `}` that closes the first `{` after the
        // span's start (the seat's name, or the card itself).
        let line_start = d.span.start as usize;
        let mut depth = 0i32;
        let mut close = None;
        for (i, ch) in text[line_start..].char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(line_start + i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let close = close?;
        let before = text[..close].trim_end();
        let at = before.len();
        let sep = if before.ends_with('{') || before.ends_with(',') {
            " "
        } else {
            ", "
        };
        let insert = format!("{sep}{field}: {value}");
        Some((
            format!("add `{field}: {value}`"),
            Span::new(d.span.file, at, at),
            insert,
        ))
    }
}

/// The name a diagnostic's help suggests (`did you mean `x`?`).
pub fn suggestion(d: &Diagnostic) -> Option<String> {
    let h = d.help.as_deref()?;
    let rest = h.strip_prefix("did you mean `")?;
    let name = rest.strip_suffix("`?")?;
    (!name.is_empty()).then(|| name.to_string())
}

/// `the first is at FILE:LINE:COL; ...` in a help line.
fn place_named(help: &str) -> Option<(String, usize, usize)> {
    let rest = help.split("the first is at ").nth(1)?;
    let place = rest.split(';').next()?;
    let mut parts = place.rsplitn(3, ':');
    let col = parts.next()?.parse().ok()?;
    let line = parts.next()?.parse().ok()?;
    let file = parts.next()?.to_string();
    Some((file, line, col))
}

/// The words before the `{` that encloses byte `at` (on the same line).
fn enclosing_opener(text: &str, at: usize) -> &str {
    let mut depth = 0;
    for (i, c) in text[..at].char_indices().rev() {
        match c {
            '}' => depth += 1,
            '{' if depth == 0 => {
                let from = text[..i].rfind(['\n', '{', '}']).map_or(0, |j| j + 1);
                return &text[from..i];
            }
            '{' => depth -= 1,
            _ => {}
        }
    }
    ""
}

/// The value text of the first `field: value` written in `text` inside braces opened
/// after the word `opener` (`seat`, `card`).
fn field_value(text: &str, field: &str, opener: &str) -> Option<String> {
    let needle = format!("{field}:");
    let mut from = 0;
    while let Some(i) = text[from..].find(&needle) {
        let at = from + i;
        let boundary = at == 0 || {
            let c = text[..at].chars().next_back().unwrap_or(' ');
            !(c.is_alphanumeric() || c == '_')
        };
        let inside = enclosing_opener(text, at)
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|w| w == opener);
        if boundary && inside {
            let v: String = text[at + needle.len()..]
                .trim_start()
                .chars()
                .take_while(|c| !matches!(c, ',' | '}' | '\n'))
                .collect();
            let v = v.trim();
            if !v.is_empty() {
                return Some(v.to_string());
            }
        }
        from = at + needle.len();
    }
    None
}

fn word_end(text: &str, at: usize) -> usize {
    text[at..]
        .char_indices()
        .find(|(_, c)| !(c.is_alphanumeric() || *c == '_'))
        .map_or(text.len(), |(i, _)| at + i)
}

/// The `import "path"` lines of every source, with their targets.
fn imports(sources: &Sources, paths: &[PathBuf]) -> Vec<Import> {
    let mut out = Vec::new();
    for (f, file) in sources.files.iter().enumerate() {
        let dir = paths[f].parent().map(Path::to_path_buf).unwrap_or_default();
        let mut at = 0;
        for line in file.text.split_inclusive('\n') {
            let trimmed = line.trim_start();
            if let Some(rest) = trimmed.strip_prefix("import") {
                let rest_t = rest.trim_start();
                if let Some(q) = rest_t.strip_prefix('"') {
                    if let Some(end) = q.find('"') {
                        let start = at + (line.len() - trimmed.len());
                        let stop = at + (line.len() - rest_t.len()) + 1 + end + 1;
                        out.push(Import {
                            span: Span::new(f as u16, start, stop),
                            path: dir.join(&q[..end]).display().to_string(),
                        });
                    }
                }
            }
            at += line.len();
        }
    }
    out
}

/// A path made absolute against the current folder, with `.` and `..` resolved when the
/// file exists.
pub fn absolute(p: &Path) -> PathBuf {
    if let Ok(c) = p.canonicalize() {
        return c;
    }
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

/// The protocol's position (line, UTF-16 column) of a byte offset.
pub fn position(text: &str, offset: usize) -> lsp::Position {
    let mut at = offset.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = text[..line_start].matches('\n').count();
    let character: usize = text[line_start..at].chars().map(char::len_utf16).sum();
    lsp::Position::new(line as u32, character as u32)
}

/// The byte offset of a protocol position (clamped to the line and the text).
pub fn offset(text: &str, pos: lsp::Position) -> usize {
    let mut line_start = 0;
    for _ in 0..pos.line {
        match text[line_start..].find('\n') {
            Some(i) => line_start += i + 1,
            None => return text.len(),
        }
    }
    let mut units = 0usize;
    for (i, c) in text[line_start..].char_indices() {
        if units >= pos.character as usize || c == '\n' {
            return line_start + i;
        }
        units += c.len_utf16();
    }
    text.len()
}

/// The byte offset of a 1-based line and column (columns counted in characters).
fn offset_of_line_col(text: &str, line: usize, col: usize) -> Option<usize> {
    let line_start = if line <= 1 {
        0
    } else {
        text.match_indices('\n').nth(line - 2)?.0 + 1
    };
    let rest = &text[line_start..];
    Some(
        rest.char_indices()
            .nth(col.saturating_sub(1))
            .map_or(text.len(), |(i, _)| line_start + i),
    )
}
