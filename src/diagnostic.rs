//! Diagnostics: what the front end says about a rules file, located in its source.

use crate::syntax::ast::Span;
use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError, MietteSpanContents,
    NamedSource, SourceCode, SourceSpan, SpanContents,
};
use std::fmt;
use std::sync::Arc;

/// One loaded source file.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: Arc<str>,
}

/// Every file read for one game: the main rules file first, then its imports.
#[derive(Clone, Debug, Default)]
pub struct Sources {
    pub files: Vec<SourceFile>,
}

impl Sources {
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<Arc<str>>) -> u16 {
        self.files.push(SourceFile {
            name: name.into(),
            text: text.into(),
        });
        (self.files.len() - 1) as u16
    }
    pub fn text(&self, span: Span) -> &str {
        let f = &self.files[span.file as usize];
        f.text
            .get(span.start as usize..span.end as usize)
            .unwrap_or("")
    }
    /// 1-based line and column of a span's start.
    pub fn line_col(&self, span: Span) -> (usize, usize) {
        self.line_col_at(span.file, span.start as usize)
    }
    /// 1-based line and column of a span's end (the column just after its last character).
    pub fn end_line_col(&self, span: Span) -> (usize, usize) {
        self.line_col_at(span.file, span.end.max(span.start) as usize)
    }
    fn line_col_at(&self, file: u16, at: usize) -> (usize, usize) {
        let text = &self.files[file as usize].text;
        let upto = &text[..floor_char(text, at)];
        let line = upto.matches('\n').count() + 1;
        let col = upto
            .rsplit('\n')
            .next()
            .map(|s| s.chars().count())
            .unwrap_or(0)
            + 1;
        (line, col)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// A located message about a rules file, with a help line where we can give one.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub severity: Severity,
    /// A stable short code, e.g. `muster::unknown-name`.
    pub code: &'static str,
    pub message: String,
    pub span: Span,
    pub label: String,
    pub help: Option<String>,
    /// Another place the diagnostic is about, with its label, drawn with the first when
    /// both are in the same file (the help line should name it too, for other outputs).
    pub related: Option<Box<(Span, String)>>,
}

impl Diagnostic {
    pub fn error(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            span,
            label: String::new(),
            help: None,
            related: None,
        }
    }
    pub fn warning(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, span, message)
        }
    }
    pub fn label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = label.into();
        self
    }
    pub fn help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }
    pub fn related(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.related = Some(Box::new((span, label.into())));
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// A diagnostic paired with its source, in the shape miette renders.
struct Report<'a> {
    diag: &'a Diagnostic,
    source: NamedSource<Excerpt>,
    span: SourceSpan,
    /// The related place, when it is in the same file.
    related: Option<(SourceSpan, String)>,
}

/// Source lines longer than this (in bytes) are shown as an excerpt around the label.
const LONG_LINE: usize = 300;
/// How much of a label on a long line is underlined, at most (in bytes).
const LONG_LABEL: usize = 120;

/// A file's text as miette reads it, except that a label on a long line (a minified or
/// generated file, a fuzzer's output) is shown with only the part of the line around it,
/// and without the neighbouring lines. The second field is where the diagnostic's own
/// label starts: an excerpt drawn with a related label before it is headed with it.
struct Excerpt(Arc<str>, usize);

impl SourceCode for Excerpt {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let text: &str = &self.0;
        let at = floor_char(text, span.offset());
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let line = text[..line_start].matches('\n').count();
        if before == 0 && after == 0 {
            // The read for the header: the label's line and its column, counted in
            // characters (as in `--format json`); the diagnostic's own label when the
            // excerpt holds it.
            let end = floor_char(text, at + span.len()).max(at);
            let own = self.1;
            if at < own && own < end {
                let own_line_start = text[..own].rfind('\n').map_or(0, |i| i + 1);
                return Ok(Box::new(MietteSpanContents::new(
                    &text.as_bytes()[own..end],
                    (own, end - own).into(),
                    text[..own_line_start].matches('\n').count(),
                    text[own_line_start..own].chars().count(),
                    1,
                )));
            }
            return Ok(Box::new(MietteSpanContents::new(
                &text.as_bytes()[at..end],
                (at, end - at).into(),
                line,
                text[line_start..at].chars().count(),
                1,
            )));
        }
        let inner = text.read_span(span, before, after)?;
        if inner
            .data()
            .split(|&b| b == b'\n')
            .all(|l| l.len() <= LONG_LINE)
        {
            // The lines read, counted afresh: miette counts from the start of the file,
            // which would draw two labels far apart as one long excerpt.
            let lines = inner.data().split(|&b| b == b'\n').count();
            return Ok(Box::new(MietteSpanContents::new(
                inner.data(),
                *inner.span(),
                inner.line(),
                inner.column(),
                lines,
            )));
        }
        let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        // A window of the long line around the label, without the lines around it.
        let from = floor_char(text, at.saturating_sub(LONG_LABEL / 2).max(line_start));
        let to = floor_char(
            text,
            (at + span.len() + LONG_LABEL / 2)
                .min(from + LONG_LINE)
                .min(line_end)
                .max(at),
        );
        Ok(Box::new(MietteSpanContents::new(
            &text.as_bytes()[from..to],
            (from, to - from).into(),
            line,
            from - line_start,
            1,
        )))
    }
}

/// The nearest char boundary at or before `i`.
fn floor_char(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Shortens a label that would be drawn across a long line, to at most `LONG_LABEL` bytes
/// of its first line.
fn shorten(text: &str, start: usize, end: usize) -> (usize, usize) {
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let last_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
    let long = text[line_start..last_end]
        .split('\n')
        .any(|l| l.len() > LONG_LINE);
    if !long {
        return (start, end);
    }
    let first_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    (
        start,
        floor_char(text, end.min(first_end).min(start + LONG_LABEL)).max(start),
    )
}

impl fmt::Debug for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diag.message)
    }
}
impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diag.message)
    }
}
impl std::error::Error for Report<'_> {}

impl miette::Diagnostic for Report<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(self.diag.code))
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diag.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }
    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.diag
            .help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.source)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let label = if self.diag.label.is_empty() {
            None
        } else {
            Some(self.diag.label.clone())
        };
        // The main label is primary: the header names its place even when the related
        // one comes first in the file.
        let related = self
            .related
            .as_ref()
            .map(|(span, label)| LabeledSpan::new_with_span(Some(label.clone()), *span));
        Some(Box::new(
            std::iter::once(LabeledSpan::new_primary_with_span(label, self.span)).chain(related),
        ))
    }
}

/// Renders diagnostics as text: with colour when `colour` is set, else miette's plain
/// theme, at a fixed width of 100 columns (stable for snapshots and scripts).
pub fn render(sources: &Sources, diags: &[Diagnostic], colour: bool) -> String {
    render_width(sources, diags, colour, 100)
}

/// Renders diagnostics as text, wrapped at `width` columns (the terminal's, on one).
pub fn render_width(sources: &Sources, diags: &[Diagnostic], colour: bool, width: usize) -> String {
    let theme = if colour {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(width.clamp(40, 400))
        .with_links(false);
    let mut out = String::new();
    for diag in diags {
        let file = &sources.files[diag.span.file as usize];
        let len = file.text.len();
        // Clamp so a label at the very end of a file still shows.
        let mut start = floor_char(&file.text, diag.span.start as usize);
        let mut end = floor_char(&file.text, diag.span.end as usize).max(start);
        if start == len && len > 0 {
            start = file.text[..len]
                .char_indices()
                .last()
                .map(|(i, _)| i)
                .unwrap_or(0);
            end = len;
        }
        let (start, end) = shorten(&file.text, start, end);
        let related = diag
            .related
            .as_deref()
            .filter(|(span, _)| span.file == diag.span.file)
            .map(|(span, label)| {
                let s = floor_char(&file.text, span.start as usize);
                let e = floor_char(&file.text, span.end as usize).max(s);
                let (s, e) = shorten(&file.text, s, e);
                (SourceSpan::new(s.into(), e - s), label.clone())
            });
        // miette adds the line and column to the name itself.
        let report = Report {
            diag,
            source: NamedSource::new(file.name.clone(), Excerpt(file.text.clone(), start)),
            span: SourceSpan::new(start.into(), end - start),
            related,
        };
        let _ = handler.render_report(&mut out, &report);
        out.push('\n');
    }
    out
}

/// The diagnostics as one JSON object each, for editors and scripts.
pub fn to_json(sources: &Sources, diags: &[Diagnostic]) -> serde_json::Value {
    let items: Vec<serde_json::Value> = diags
        .iter()
        .map(|d| {
            let (line, column) = sources.line_col(d.span);
            let (end_line, end_column) = sources.end_line_col(d.span);
            serde_json::json!({
                "file": sources.files[d.span.file as usize].name,
                "span": { "start": d.span.start, "end": d.span.end },
                "line": line,
                "column": column,
                "end_line": end_line,
                "end_column": end_column,
                "severity": d.severity,
                "code": d.code,
                "message": d.message,
                "label": d.label,
                "help": d.help,
            })
        })
        .collect();
    serde_json::Value::Array(items)
}
