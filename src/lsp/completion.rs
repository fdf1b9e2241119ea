//! Completion: the names valid at the cursor (local names in scope, every declared name,
//! the built-ins) and the language's keywords; and the outline of a document.

use super::diagnostics::Analysis;
use super::index::{DeclKind, Index};
use crate::check::{BUILTIN_FUNCTIONS, BUILTIN_NAMES, DIR_SETS};
use lsp_types as lsp;
use std::collections::HashSet;

/// The words of the grammar (`grammar/muster.pest`) that begin declarations, clauses,
/// effects and expressions.
pub const KEYWORDS: &[&str] = &[
    "action",
    "after",
    "afterwards",
    "all",
    "and",
    "any",
    "area",
    "as",
    "at",
    "before",
    "board",
    "by",
    "card",
    "choose",
    "clock",
    "conceal",
    "connected",
    "count",
    "deal",
    "deck",
    "def",
    "diagonals",
    "display",
    "do",
    "down",
    "draw",
    "effect",
    "else",
    "end",
    "enter",
    "enters",
    "enum",
    "face",
    "false",
    "first_phase",
    "for",
    "form",
    "from",
    "game",
    "grid",
    "hex",
    "hidden",
    "holds",
    "if",
    "import",
    "in",
    "kind",
    "label",
    "leaves",
    "let",
    "link",
    "loop",
    "lose",
    "max",
    "max_turns",
    "min",
    "most",
    "move",
    "named",
    "next",
    "none",
    "not",
    "notation",
    "of",
    "on",
    "one",
    "onto",
    "optional",
    "or",
    "order",
    "owner",
    "pass",
    "path",
    "pattern",
    "per",
    "phase",
    "piece",
    "place",
    "players",
    "public",
    "react",
    "reaction",
    "region",
    "repeat",
    "require",
    "reveal",
    "reversed",
    "same",
    "score",
    "seat",
    "setup",
    "shape",
    "shaped",
    "shapes",
    "shared",
    "shift",
    "shuffle",
    "skip",
    "start",
    "stuck",
    "sum",
    "swap",
    "then",
    "to",
    "top",
    "toward",
    "transfer",
    "triangles",
    "true",
    "tuck",
    "turn",
    "under",
    "until",
    "up",
    "var",
    "variant",
    "when",
    "where",
    "win",
    "zone",
];

fn item_kind(k: DeclKind) -> lsp::CompletionItemKind {
    use lsp::CompletionItemKind as C;
    match k {
        DeclKind::Def => C::FUNCTION,
        DeclKind::Effect | DeclKind::Action | DeclKind::Reaction => C::METHOD,
        DeclKind::Var => C::VARIABLE,
        DeclKind::Local | DeclKind::Param => C::VARIABLE,
        DeclKind::Enum => C::ENUM,
        DeclKind::EnumValue => C::ENUM_MEMBER,
        DeclKind::Kind | DeclKind::Shapes => C::CLASS,
        DeclKind::Attr | DeclKind::SeatAttr => C::FIELD,
        DeclKind::Seat => C::CONSTANT,
        DeclKind::Phase | DeclKind::Variant => C::MODULE,
        DeclKind::Zone | DeclKind::Deck | DeclKind::Region | DeclKind::Area => C::STRUCT,
        DeclKind::Pattern | DeclKind::Shape => C::VALUE,
    }
}

/// Every completion at a byte offset of a file: locals in scope first, then the declared
/// names, the built-ins and the keywords, each once.
pub fn complete(index: &Index, file: u16, offset: u32) -> Vec<lsp::CompletionItem> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut push = |label: &str, kind, detail: String, out: &mut Vec<lsp::CompletionItem>| {
        if seen.insert(label.to_string()) {
            out.push(lsp::CompletionItem {
                label: label.to_string(),
                kind: Some(kind),
                detail: Some(detail),
                ..lsp::CompletionItem::default()
            });
        }
    };
    let mut locals = index.locals_at(file, offset);
    // The innermost binding of a name wins.
    locals.sort_by_key(|d| std::cmp::Reverse(d.span.start));
    for d in locals {
        push(&d.name, item_kind(d.kind), d.detail.clone(), &mut out);
    }
    for d in index.decls.iter().filter(|d| !d.kind.is_local()) {
        push(&d.name, item_kind(d.kind), d.detail.clone(), &mut out);
    }
    // Built-ins with their signature from the reference.
    let signature = |n: &str, otherwise: String| {
        super::hover::builtin(n)
            .map(|(sig, _)| sig.replace('`', ""))
            .unwrap_or(otherwise)
    };
    for n in BUILTIN_NAMES {
        push(
            n,
            lsp::CompletionItemKind::CONSTANT,
            signature(n, "built-in name".into()),
            &mut out,
        );
    }
    for (n, arity) in BUILTIN_FUNCTIONS {
        push(
            n,
            lsp::CompletionItemKind::FUNCTION,
            signature(n, format!("built-in function of {arity} argument(s)")),
            &mut out,
        );
    }
    for (n, _) in DIR_SETS {
        push(
            n,
            lsp::CompletionItemKind::CONSTANT,
            "built-in set of directions".into(),
            &mut out,
        );
    }
    for k in KEYWORDS {
        push(
            k,
            lsp::CompletionItemKind::KEYWORD,
            "keyword".into(),
            &mut out,
        );
    }
    out
}

fn symbol_kind(k: DeclKind) -> lsp::SymbolKind {
    use lsp::SymbolKind as S;
    match k {
        DeclKind::Def => S::FUNCTION,
        DeclKind::Effect | DeclKind::Action | DeclKind::Reaction => S::METHOD,
        DeclKind::Var | DeclKind::Local | DeclKind::Param => S::VARIABLE,
        DeclKind::Enum => S::ENUM,
        DeclKind::EnumValue => S::ENUM_MEMBER,
        DeclKind::Kind | DeclKind::Shapes => S::CLASS,
        DeclKind::Attr | DeclKind::SeatAttr => S::FIELD,
        DeclKind::Seat => S::CONSTANT,
        DeclKind::Phase | DeclKind::Variant => S::NAMESPACE,
        DeclKind::Zone | DeclKind::Deck | DeclKind::Region | DeclKind::Area => S::STRUCT,
        DeclKind::Pattern | DeclKind::Shape => S::OBJECT,
    }
}

/// The outline of a file: its declarations in order, enum values, attributes, shapes and
/// a variant's declarations nested under theirs.
#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be given.
pub fn outline(a: &Analysis, file: u16) -> Vec<lsp::DocumentSymbol> {
    let Some(index) = a.index.as_ref() else {
        return Vec::new();
    };
    let mut top: Vec<(lsp::DocumentSymbol, crate::syntax::ast::Span)> = Vec::new();
    for d in index
        .decls
        .iter()
        .filter(|d| !d.kind.is_local() && d.span.file == file)
    {
        let sym = lsp::DocumentSymbol {
            name: d.name.clone(),
            detail: Some(d.detail.clone()),
            kind: symbol_kind(d.kind),
            tags: None,
            deprecated: None,
            range: a.range(d.item.to(d.span)),
            selection_range: a.range(d.span),
            children: None,
        };
        // Nested under the last top-level symbol when its declaration holds it.
        let span = d.item.to(d.span);
        if !insert(&mut top, sym.clone(), span) {
            top.push((sym, span));
        }
    }
    top.into_iter().map(|(s, _)| s).collect()
}

/// Puts `sym` under the last symbol of `list` when that symbol's declaration contains
/// `span`.
fn insert(
    list: &mut [(lsp::DocumentSymbol, crate::syntax::ast::Span)],
    sym: lsp::DocumentSymbol,
    span: crate::syntax::ast::Span,
) -> bool {
    let Some((parent, pspan)) = list.last_mut() else {
        return false;
    };
    let inside = pspan.start <= span.start && span.end <= pspan.end && *pspan != span;
    if !inside {
        return false;
    }
    // One level of nesting: a variant's declarations, an enum's values, a kind's
    // attributes, a seat's attributes, a catalogue's shapes.
    parent.children.get_or_insert_with(Vec::new).push(sym);
    true
}
