//! Lowering move patterns: Betza-style atoms with direction prefixes and ranges, choices
//! (`|`) and legs that continue one another (`then`, `then?`, `same`, `any`), and what may
//! stand where a leg ends (`m` moves only, `c` captures only).

use super::symbols::Ctx;
use crate::diagnostic::Diagnostic;
use crate::ir;
use crate::syntax::ast::{self, Item, ItemKind, Span};

/// The leaper atoms and their basic vector.
const LEAPERS: [(char, (i8, i8)); 9] = [
    ('W', (1, 0)),
    ('F', (1, 1)),
    ('D', (2, 0)),
    ('A', (2, 2)),
    ('N', (2, 1)),
    ('H', (3, 0)),
    ('C', (3, 1)),
    ('Z', (3, 2)),
    ('G', (3, 3)),
];

/// The longest a rider may ride, in steps (0 means without limit).
pub const MAX_RANGE: u32 = 64;

pub fn lower_patterns(cx: &mut Ctx, items: &[&Item]) -> Vec<ir::PatternDef> {
    let mut out = Vec::new();
    let hex = items
        .iter()
        .any(|i| matches!(&i.kind, ItemKind::Board(b) if b.hex));
    for item in items {
        let ItemKind::Pattern { name, pat } = &item.kind else {
            continue;
        };
        if hex {
            // Betza's atoms are vectors of a square grid: on hexagons they would name
            // other cells than a designer means.
            cx.error(
                Diagnostic::error(
                    "muster::hex-pattern",
                    name.span,
                    format!("move pattern `{}` on a hex board", name.name),
                )
                .label("patterns are drawn on a square grid")
                .help(
                    "Betza's atoms (W, F, N, ...) are steps of a square grid, which a hex board does not have; move pieces with `adjacent`, `slide`, `sight` or `reach` and the six directions `e ne nw w sw se`",
                ),
            );
        }
        let pat = lower(cx, pat);
        out.push(ir::PatternDef {
            name: name.name.clone(),
            pat,
        });
    }
    out
}

fn lower(cx: &mut Ctx, p: &ast::Pat) -> ir::Pat {
    match p {
        ast::Pat::Alt(alts) => ir::Pat::Alt(alts.iter().map(|a| lower(cx, a)).collect()),
        ast::Pat::Seq {
            first,
            optional,
            same,
            then,
        } => {
            let first_ir = lower(cx, first);
            if captures_only(&first_ir) {
                cx.error(
                    Diagnostic::error(
                        "muster::pattern",
                        last_atom(first),
                        "a capture-only leg ends on a piece, so the move cannot go on from it",
                    )
                    .label("this leg captures only (`c`)")
                    .help(
                        "legs go on only from an empty cell: move the `c` to the last leg, \
                         e.g. `W then cW`",
                    ),
                );
            }
            ir::Pat::Seq {
                first: Box::new(first_ir),
                optional: *optional,
                same: *same,
                then: Box::new(lower(cx, then)),
            }
        }
        ast::Pat::Atom {
            mods,
            letters,
            vector,
            range,
            span,
        } => ir::Pat::Leg(atom(cx, mods, letters, *vector, *range, *span)),
    }
}

/// Whether every way through `p` ends with a capture-only leg.
fn captures_only(p: &ir::Pat) -> bool {
    match p {
        ir::Pat::Leg(l) => l.lands == ir::Lands::Capture,
        ir::Pat::Alt(alts) => alts.iter().all(captures_only),
        ir::Pat::Seq {
            first,
            optional,
            then,
            ..
        } => captures_only(then) && (!optional || captures_only(first)),
    }
}

/// The span of the last atom written in `p`.
fn last_atom(p: &ast::Pat) -> Span {
    match p {
        ast::Pat::Atom { span, .. } => *span,
        ast::Pat::Alt(alts) => last_atom(alts.last().expect("a choice has patterns")),
        ast::Pat::Seq { then, .. } => last_atom(then),
    }
}

/// All eight symmetries of a vector, each once.
fn symmetries((x, y): (i8, i8)) -> Vec<(i8, i8)> {
    let mut v = Vec::new();
    for (a, b) in [(x, y), (y, x)] {
        for (sa, sb) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let w = (a * sa, b * sb);
            if !v.contains(&w) {
                v.push(w);
            }
        }
    }
    v
}

fn atom(
    cx: &mut Ctx,
    mods: &str,
    letters: &str,
    vector: Option<(i64, i64)>,
    range: Option<u32>,
    span: Span,
) -> ir::Leg {
    let bad = |cx: &mut Ctx, msg: String, help: &str| {
        cx.error(
            Diagnostic::error("muster::pattern", span, msg)
                .label("in this atom")
                .help(help.to_string()),
        );
        ir::Leg {
            vectors: vec![],
            range: 1,
            lands: ir::Lands::Any,
        }
    };
    // `m` and `c` say what may stand where the leg ends; both together allow either.
    let (moves, captures) = (mods.contains('m'), mods.contains('c'));
    let lands = match (moves, captures) {
        (true, false) => ir::Lands::Move,
        (false, true) => ir::Lands::Capture,
        _ => ir::Lands::Any,
    };
    let dir_mods: String = mods.chars().filter(|c| !matches!(c, 'm' | 'c')).collect();
    let mods = dir_mods.as_str();
    let mut vectors: Vec<(i8, i8)> = Vec::new();
    // A rider by default: R (W), B (F), Q (W and F), or any doubled leaper (WW).
    let mut rides = false;
    match vector {
        Some((x, y)) => {
            if x.abs() > 24 || y.abs() > 24 || (x == 0 && y == 0) {
                return bad(
                    cx,
                    format!("the leap ({x},{y}) is not a move Muster can make"),
                    "a leap goes 1 to 24 cells across and up",
                );
            }
            vectors = symmetries((x as i8, y as i8));
        }
        None => {
            let chars: Vec<char> = letters.chars().collect();
            let letter = chars[0];
            if chars.len() == 2 {
                if chars[1] != letter {
                    return bad(cx, format!("`{letters}` is not an atom"), "write one atom letter (W, F, D, A, N, H, C, Z, G, K, R, B, Q), doubled for a rider (WW)");
                }
                rides = true;
            }
            let base: &[char] = match letter {
                'K' => &['W', 'F'],
                'R' => {
                    rides = true;
                    &['W']
                }
                'B' => {
                    rides = true;
                    &['F']
                }
                'Q' => {
                    rides = true;
                    &['W', 'F']
                }
                _ => std::slice::from_ref(chars.first().expect("an atom letter")),
            };
            for b in base {
                let Some((_, v)) = LEAPERS.iter().find(|(c, _)| c == b) else {
                    return bad(cx, format!("`{letter}` is not an atom Muster knows"), "atoms: W F D A N H C Z G (leapers), K (W and F), R B Q (riders), or a leap written (x,y)");
                };
                vectors.extend(symmetries(*v));
            }
        }
    }
    // Direction prefixes keep only some vectors; +y is the mover's forward.
    if !mods.is_empty() {
        vectors.retain(|&(dx, dy)| {
            mods.chars().any(|m| match m {
                'f' => dy > 0,
                'b' => dy < 0,
                's' => dy == 0,
                'v' => dx == 0,
                _ => false,
            })
        });
        if vectors.is_empty() {
            return bad(
                cx,
                format!("`{mods}` leaves this atom no direction to move in"),
                "f forward, b backward, s sideways, v forward and backward",
            );
        }
    }
    let range = match range {
        Some(0) => {
            return bad(
                cx,
                "a rider of 0 steps goes nowhere".into(),
                "write a count from 1, e.g. `Q3`",
            )
        }
        Some(n) if n > MAX_RANGE => {
            return bad(
                cx,
                format!("a rider of {n} steps is too long"),
                "riders go at most 64 steps; a doubled atom (WW) rides without limit",
            )
        }
        Some(n) => n as u8,
        None if rides => 0,
        None => 1,
    };
    ir::Leg {
        vectors,
        range,
        lands,
    }
}
