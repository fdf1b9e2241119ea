//! How deeply a parsed file nests, measured on pest's pairs before the AST is built, so
//! that building, checking and dropping the AST (all recursive) stay within the stack.

use super::ast::Span;
use super::parser::Rule;
use crate::diagnostic::Diagnostic;
use pest::iterators::Pair;

/// The deepest a rules file may nest declarations, effects and expressions, counting each
/// grammar construct and each operator of an expression as one level.
pub const MAX_DEPTH: usize = 200;

/// Operators: each one nests the expression around it one level deeper.
fn is_operator(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::or
            | Rule::and
            | Rule::eq
            | Rule::ne
            | Rule::le
            | Rule::ge
            | Rule::lt
            | Rule::gt
            | Rule::not_in
            | Rule::in_op
            | Rule::range
            | Rule::add
            | Rule::sub
            | Rule::mul
            | Rule::div
            | Rule::rem
            | Rule::not
            | Rule::neg
            | Rule::field_access
            | Rule::index_access
    )
}

/// The first place where the file nests deeper than [`MAX_DEPTH`], as a diagnostic.
/// Walks the pairs without recursion.
pub(super) fn too_deep(file: u16, root: &Pair<Rule>) -> Option<Diagnostic> {
    // The open pairs around the current one: (end, depth including its own weight).
    let mut open: Vec<(usize, usize)> = Vec::new();
    for p in root.clone().into_inner().flatten() {
        let span = p.as_span();
        let (start, end) = (span.start(), span.end());
        while open.last().is_some_and(|&(e, _)| e <= start) {
            open.pop();
        }
        let mut weight = 1;
        if p.as_rule() == Rule::expr {
            weight += p
                .clone()
                .into_inner()
                .filter(|c| is_operator(c.as_rule()))
                .count();
        }
        let depth = open.last().map(|&(_, d)| d).unwrap_or(0) + weight;
        if depth > MAX_DEPTH {
            let at = if p.as_rule() == Rule::expr {
                // Point at the operator where the expression passes the limit.
                let before = open.last().map(|&(_, d)| d).unwrap_or(0) + 1;
                p.clone()
                    .into_inner()
                    .filter(|c| is_operator(c.as_rule()))
                    .nth(MAX_DEPTH.saturating_sub(before))
                    .map(|c| c.as_span())
                    .unwrap_or(span)
            } else {
                span
            };
            // Label the operator, or the first word (or symbol) of the construct.
            let text = at.as_str();
            let first = text.chars().next().map_or(0, char::len_utf8);
            let len = if text.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
                text.find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(text.len())
            } else if text.len() <= 3 {
                text.len()
            } else {
                first
            };
            let token_end = at.start() + len;
            return Some(
                Diagnostic::error(
                    "muster::too-deep",
                    Span::new(file, at.start(), token_end.max(at.start())),
                    "the rules nest too deeply here",
                )
                .label("too deep")
                .help(format!(
                    "a rules file may nest effects and expressions at most {MAX_DEPTH} levels deep \
                     (each operator counts as one); name a part with `def` or `effect`"
                )),
            );
        }
        open.push((end, depth));
    }
    None
}
