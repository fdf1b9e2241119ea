//! Shapes and areas: catalogues of drawn shapes (`shapes name { ... }`), checked against
//! the rules their catalogue declares; the areas of a board of areas; its link rules.
//!
//! A shape is drawn in the rules file, front row first: `o` is a cell, `-` links the
//! cells either side of it in a row, `|` the cells straight above and below it, `/` the
//! cell above and to its right with the one below and to its left, `\` the reverse.

use super::symbols::Ctx;
use crate::diagnostic::Diagnostic;
use crate::ir::{self, Type, Value};
use crate::syntax::ast::{self, ArtMark, Item, ItemKind, ShapeRule, Span};
use std::collections::{BTreeMap, HashMap};

/// The id given to a shape whose drawing has errors.
const BROKEN: u16 = u16::MAX;

/// The most cells one shape may have.
pub const MAX_SHAPE_CELLS: usize = 64;

/// The most cells a board of areas may have, all areas and seats together. Link rules
/// are read for every pair of cells whenever a shape is formed, so this bounds that work.
pub const MAX_AREA_CELLS: usize = 1024;

/// Lowers every catalogue, checking each shape against its catalogue's rules.
pub(super) fn lower_shapes(
    cx: &mut Ctx,
    items: &[&Item],
) -> (Vec<ir::ShapeFamily>, Vec<ir::ShapeDef>) {
    let mut families = Vec::new();
    let mut shapes: Vec<ir::ShapeDef> = Vec::new();
    for item in items {
        let ItemKind::Shapes(decl) = &item.kind else {
            continue;
        };
        let fid = families.len() as u16;
        cx.families.insert(decl.name.name.clone(), fid);
        let mut family = ir::ShapeFamily {
            name: decl.name.name.clone(),
            shapes: Vec::new(),
        };
        if decl.shapes.is_empty() {
            cx.error(
                Diagnostic::error(
                    "muster::shape",
                    decl.name.span,
                    format!("catalogue `{}` has no shape", decl.name.name),
                )
                .label("empty catalogue")
                .help(
                    "draw at least one: `shape name \"2-2\" { o-o  |  |  o-o }`, one row per line",
                ),
            );
        }
        for sh in &decl.shapes {
            if let Some(prev) = shapes.iter().find(|s| s.name == sh.name.name) {
                let d = Diagnostic::error(
                    "muster::duplicate",
                    sh.name.span,
                    format!("shape `{}` is drawn twice", prev.name),
                )
                .label("again")
                .help("give each shape its own name");
                cx.error(d);
                continue;
            }
            let Some(mut def) = draw(cx, sh) else {
                // Known by name all the same, so that its uses are not reported again.
                cx.shape_ids.insert(sh.name.name.clone(), BROKEN);
                continue;
            };
            def.family = fid;
            check_rules(cx, &decl.name.name, &decl.rules, sh, &def);
            let id = shapes.len() as u16;
            cx.shape_ids.insert(sh.name.name.clone(), id);
            family.shapes.push(id);
            shapes.push(def);
        }
        families.push(family);
    }
    (families, shapes)
}

/// A drawn cell: its row (from 0), its column, and the mark that drew it.
struct Cell {
    row: usize,
    col: u32,
}

/// Reads a drawing into a shape, reporting marks that link nothing.
fn draw(cx: &mut Ctx, sh: &ast::ShapeDecl) -> Option<ir::ShapeDef> {
    let mut lines: BTreeMap<u32, Vec<&ArtMark>> = BTreeMap::new();
    for m in &sh.marks {
        lines.entry(m.line).or_default().push(m);
    }
    let mut ok = true;
    // Each line holds cells (`o`, `-`) or links between rows (`|`, `/`, `\`).
    let mut rows: Vec<Vec<&ArtMark>> = Vec::new();
    let mut row_links: Vec<Vec<&ArtMark>> = Vec::new();
    // For each line in order: Some(row) for a row of cells, None for a line of links.
    let mut order: Vec<(Option<usize>, &Vec<&ArtMark>)> = Vec::new();
    for marks in lines.values() {
        let cells = marks.iter().any(|m| matches!(m.ch, 'o' | '-'));
        let links = marks.iter().find(|m| matches!(m.ch, '|' | '/' | '\\'));
        if let (true, Some(l)) = (cells, links) {
            cx.error(
                Diagnostic::error(
                    "muster::shape",
                    l.span,
                    format!(
                        "in shape `{}`, a line holds either cells (`o`, `-`) or links between rows (`|`, `/`, `\\`), not both",
                        sh.name.name
                    ),
                )
                .label("a link on a line of cells")
                .help("draw links between rows on a line of their own, between the two rows"),
            );
            ok = false;
            continue;
        }
        if cells {
            order.push((Some(rows.len()), marks));
            rows.push(marks.clone());
        } else {
            order.push((None, marks));
            row_links.push(marks.clone());
        }
    }
    if rows.is_empty() {
        cx.error(
            Diagnostic::error(
                "muster::shape",
                sh.name.span,
                format!("shape `{}` has no cell", sh.name.name),
            )
            .label("nothing drawn")
            .help("draw each cell as `o`, one row of the shape per line, front row first"),
        );
        return None;
    }
    let mut cells: Vec<Cell> = Vec::new();
    let mut row_sizes = Vec::new();
    for (r, marks) in rows.iter().enumerate() {
        let before = cells.len();
        for m in marks.iter().filter(|m| m.ch == 'o') {
            cells.push(Cell { row: r, col: m.col });
        }
        row_sizes.push((cells.len() - before) as u16);
        if cells.len() == before {
            let m = marks[0];
            cx.error(
                Diagnostic::error(
                    "muster::shape",
                    m.span,
                    format!(
                        "in shape `{}`, this row has links but no cell",
                        sh.name.name
                    ),
                )
                .label("no `o` on this line"),
            );
            ok = false;
        }
    }
    if cells.len() > MAX_SHAPE_CELLS {
        cx.error(
            Diagnostic::error(
                "muster::limit",
                sh.name.span,
                format!(
                    "shape `{}` has {} cells; a shape has at most {MAX_SHAPE_CELLS}",
                    sh.name.name,
                    cells.len()
                ),
            )
            .label("too many cells"),
        );
        return None;
    }
    let at = |row: usize, col: u32| cells.iter().position(|c| c.row == row && c.col == col);
    let mut links: Vec<(u16, u16)> = Vec::new();
    let mut marks_out = Vec::new();
    let min_col = sh.marks.iter().map(|m| m.col).min().unwrap_or(0);
    // `-`: the nearest cells either side, on the same line, with only `-` between.
    for (r, marks) in rows.iter().enumerate() {
        for (i, m) in marks.iter().enumerate() {
            if m.ch != '-' {
                continue;
            }
            let left = marks[..i].iter().rev().find(|x| x.ch != '-').copied();
            let right = marks[i + 1..].iter().find(|x| x.ch != '-').copied();
            match (left, right) {
                (Some(a), Some(b)) => {
                    let (a, b) = (at(r, a.col).unwrap_or(0), at(r, b.col).unwrap_or(0));
                    links.push((a as u16, b as u16));
                    marks_out.push(ir::ShapeMark {
                        row: r as u16,
                        between: false,
                        col: (m.col - min_col) as u16,
                        ch: '-',
                    });
                }
                _ => {
                    cx.error(
                        Diagnostic::error(
                            "muster::shape",
                            m.span,
                            format!(
                                "in shape `{}`, `-` must stand between two cells of its row",
                                sh.name.name
                            ),
                        )
                        .label(if left.is_none() {
                            "no cell just left of it"
                        } else {
                            "no cell just right of it"
                        })
                        .help("`-` links the cells either side of it: `o-o`"),
                    );
                    ok = false;
                }
            }
        }
    }
    // `|`, `/`, `\`: between the row above and the row below.
    for (k, (kind, marks)) in order.iter().enumerate() {
        if kind.is_some() {
            continue;
        }
        let above = k.checked_sub(1).and_then(|j| order[j].0);
        let below = order.get(k + 1).and_then(|x| x.0);
        let (Some(up), Some(down)) = (above, below) else {
            cx.error(
                Diagnostic::error(
                    "muster::shape",
                    marks[0].span,
                    format!(
                        "in shape `{}`, a line of links must stand between two rows of cells",
                        sh.name.name
                    ),
                )
                .label(if above.is_none() {
                    "no row of cells above it"
                } else {
                    "no row of cells below it"
                }),
            );
            ok = false;
            continue;
        };
        for m in marks.iter() {
            let (ca, cb) = match m.ch {
                '|' => (Some(m.col), Some(m.col)),
                '/' => (Some(m.col + 1), m.col.checked_sub(1)),
                _ => (m.col.checked_sub(1), Some(m.col + 1)),
            };
            let a = ca.and_then(|c| at(up, c));
            let b = cb.and_then(|c| at(down, c));
            let (Some(a), Some(b)) = (a, b) else {
                let (where_, fix) = match m.ch {
                    '|' => (
                        "straight above and below it",
                        "put the cells in the same column as the `|`",
                    ),
                    '/' => (
                        "above and to its right, and below and to its left",
                        "put the cells one column either side of the `/`",
                    ),
                    _ => (
                        "above and to its left, and below and to its right",
                        "put the cells one column either side of the `\\`",
                    ),
                };
                cx.error(
                    Diagnostic::error(
                        "muster::shape",
                        m.span,
                        format!(
                            "in shape `{}`, `{}` links the cells {where_}, but there is {}",
                            sh.name.name,
                            m.ch,
                            if a.is_none() {
                                "no cell above"
                            } else {
                                "no cell below"
                            }
                        ),
                    )
                    .label("links nothing")
                    .help(fix),
                );
                ok = false;
                continue;
            };
            links.push((a as u16, b as u16));
            marks_out.push(ir::ShapeMark {
                row: up as u16,
                between: true,
                col: (m.col - min_col) as u16,
                ch: m.ch,
            });
        }
    }
    if !ok {
        return None;
    }
    links.sort();
    links.dedup();
    let index = row_sizes
        .iter()
        .map(|n| n.to_string())
        .collect::<Vec<_>>()
        .join("-");
    if let Some((written, span)) = &sh.index {
        if *written != index {
            cx.error(
                Diagnostic::error(
                    "muster::shape",
                    *span,
                    format!(
                        "shape `{}` is indexed \"{written}\", but its rows have {index} cells",
                        sh.name.name
                    ),
                )
                .label("does not match the drawing")
                .help(format!("write \"{index}\", or redraw the shape")),
            );
        }
    }
    Some(ir::ShapeDef {
        name: sh.name.name.clone(),
        index,
        family: 0,
        rows: row_sizes,
        cell_row: cells.iter().map(|c| c.row as u16 + 1).collect(),
        cell_col: cells.iter().map(|c| (c.col - min_col) as u16).collect(),
        links,
        marks: marks_out,
    })
}

/// Checks a shape against the rules of its catalogue.
fn check_rules(
    cx: &mut Ctx,
    family: &str,
    rules: &[(ShapeRule, Span)],
    sh: &ast::ShapeDecl,
    def: &ir::ShapeDef,
) {
    let cell_marks: Vec<&ArtMark> = sh.marks.iter().filter(|m| m.ch == 'o').collect();
    let name = &sh.name.name;
    let n = def.cell_row.len();
    let linked = |a: usize, b: usize| {
        def.links
            .iter()
            .any(|&(x, y)| (x as usize, y as usize) == (a, b) || (x as usize, y as usize) == (b, a))
    };
    // The cells of each row, in order.
    let row_cells = |r: u16| -> Vec<usize> { (0..n).filter(|&c| def.cell_row[c] == r).collect() };
    for (rule, _) in rules {
        match *rule {
            ShapeRule::RowsAtMost(max) => {
                if def.rows.len() > max as usize {
                    let first = row_cells(max as u16 + 1)[0];
                    cx.error(
                        Diagnostic::error(
                            "muster::shape",
                            cell_marks[first].span,
                            format!(
                                "a `{family}` shape has at most {max} rows; `{name}` has {}",
                                def.rows.len()
                            ),
                        )
                        .label(format!("row {}", max + 1))
                        .help(format!("`{family}` says `rows at most {max}`")),
                    );
                }
            }
            ShapeRule::CellsPerRowAtMost(max) => {
                for (r, &size) in def.rows.iter().enumerate() {
                    if size as u32 > max {
                        let cells = row_cells(r as u16 + 1);
                        cx.error(
                            Diagnostic::error(
                                "muster::shape",
                                cell_marks[cells[max as usize]].span,
                                format!(
                                    "a `{family}` row has at most {max} cells; row {} of `{name}` has {size}",
                                    r + 1
                                ),
                            )
                            .label("one cell too many")
                            .help(format!("`{family}` says `cells per row at most {max}`")),
                        );
                    }
                }
            }
            ShapeRule::Connected => {
                let mut seen = vec![false; n];
                let mut stack = vec![0usize];
                seen[0] = true;
                while let Some(c) = stack.pop() {
                    for &(a, b) in &def.links {
                        let (a, b) = (a as usize, b as usize);
                        let other = if a == c {
                            b
                        } else if b == c {
                            a
                        } else {
                            continue;
                        };
                        if !seen[other] {
                            seen[other] = true;
                            stack.push(other);
                        }
                    }
                }
                if let Some(cut) = seen.iter().position(|s| !s) {
                    cx.error(
                        Diagnostic::error(
                            "muster::shape",
                            cell_marks[cut].span,
                            format!("shape `{name}` is not connected: no path of links joins this cell to the first one"),
                        )
                        .label("cut off")
                        .help(format!(
                            "every cell of a `{family}` shape must be linked to the others; add a `|`, `/`, `\\` or `-`"
                        )),
                    );
                }
            }
            ShapeRule::RowsLinked => {
                for r in 1..=def.rows.len() as u16 {
                    let cells = row_cells(r);
                    for w in cells.windows(2) {
                        if !linked(w[0], w[1]) {
                            cx.error(
                                Diagnostic::error(
                                    "muster::shape",
                                    cell_marks[w[1]].span,
                                    format!(
                                        "in shape `{name}`, this cell is not linked to its neighbour on the left"
                                    ),
                                )
                                .label("no `-` before it")
                                .help(format!("`{family}` says `rows linked`: neighbours in a row are linked, drawn `o-o`")),
                            );
                        }
                    }
                }
            }
            ShapeRule::DiagonalsInTriangles => {
                let diag = |a: usize, b: usize| {
                    def.cell_row[a] != def.cell_row[b]
                        && def.cell_col[a] != def.cell_col[b]
                        && linked(a, b)
                };
                for m in sh.marks.iter().filter(|m| matches!(m.ch, '/' | '\\')) {
                    let Some(&(a, b)) = def.links.iter().find(|&&(a, b)| {
                        let (a, b) = (a as usize, b as usize);
                        def.cell_row[a] + 1 == def.cell_row[b]
                            && diag(a, b)
                            && mark_between(def, a, b, m, sh)
                    }) else {
                        continue;
                    };
                    let (a, b) = (a as usize, b as usize);
                    // The cell next to `b` in its row on `a`'s side, and the cell next to
                    // `a` in its row on `b`'s side.
                    let toward = |from: usize, to: usize| {
                        let cells = row_cells(def.cell_row[from]);
                        let i = cells.iter().position(|&c| c == from)?;
                        if def.cell_col[to] > def.cell_col[from] {
                            cells.get(i + 1).copied()
                        } else {
                            i.checked_sub(1).map(|j| cells[j])
                        }
                    };
                    let apex_up = toward(b, a).is_some_and(|b2| diag(a, b2));
                    let apex_down = toward(a, b).is_some_and(|a2| diag(a2, b));
                    if !apex_up && !apex_down {
                        cx.error(
                            Diagnostic::error(
                                "muster::shape",
                                m.span,
                                format!("in shape `{name}`, this diagonal link is not part of a triangle"),
                            )
                            .label("half a triangle")
                            .help(format!(
                                "`{family}` says `diagonals in triangles`: a cell linked diagonally is linked to both cells diagonally below it (or above it), side by side in their row: draw `/ \\` together"
                            )),
                        );
                    }
                }
            }
        }
    }
}

/// Whether mark `m` is the one that drew the link between cells `a` (above) and `b`.
fn mark_between(def: &ir::ShapeDef, a: usize, b: usize, m: &ArtMark, sh: &ast::ShapeDecl) -> bool {
    let min_col = sh.marks.iter().map(|m| m.col).min().unwrap_or(0);
    let col = m.col - min_col;
    let (ca, cb) = (def.cell_col[a] as u32, def.cell_col[b] as u32);
    match m.ch {
        '/' => ca == col + 1 && cb + 1 == col,
        _ => ca + 1 == col && cb == col + 1,
    }
}

/// The areas of a board of areas; needs the seats. Adds their cells to the board.
pub(super) fn lower_areas(
    cx: &mut Ctx,
    items: &[&Item],
    shapes: &[ir::ShapeDef],
    families: &[ir::ShapeFamily],
) {
    let Some(b) = items.iter().find_map(|i| match &i.kind {
        ItemKind::Board(b) if !b.grid => Some(b),
        _ => None,
    }) else {
        return;
    };
    let seats = cx.seats.len().max(1);
    let mut instance = 0u16;
    for a in &b.areas {
        if cx.areas.contains_key(&a.name.name)
            || cx.board.cells.iter().any(|c| c.name == a.name.name)
        {
            cx.error(
                Diagnostic::error(
                    "muster::duplicate",
                    a.name.span,
                    format!("area `{}` is declared twice", a.name.name),
                )
                .label("again"),
            );
            continue;
        }
        let mut fams = Vec::new();
        for f in &a.shaped {
            match cx.families.get(&f.name) {
                Some(&id) => fams.push(id),
                None => {
                    let known: Vec<String> = cx.families.keys().cloned().collect();
                    cx.unknown("catalogue of shapes", f, "no `shapes` of this name", known);
                }
            }
        }
        let size = fams
            .iter()
            .flat_map(|&f| families[f as usize].shapes.iter())
            .map(|&s| shapes[s as usize].cell_row.len())
            .max()
            .unwrap_or(1)
            .max(1) as u16;
        let copies = if a.per_seat { seats } else { 1 };
        if cx.board.cells.len() + copies * size as usize > MAX_AREA_CELLS {
            cx.error(
                Diagnostic::error(
                    "muster::limit",
                    a.span,
                    format!("the areas of a board have at most {MAX_AREA_CELLS} cells in all"),
                )
                .label("one area too many")
                .help("an area has, for each seat, as many cells as its largest shape"),
            );
            return;
        }
        let id = cx.board.areas.len() as u16;
        let first_cell = cx.board.cells.len() as u16;
        for seat in 0..copies {
            for k in 0..size {
                let mut name = a.name.name.clone();
                if !a.shaped.is_empty() {
                    name.push_str(&(k + 1).to_string());
                }
                if a.per_seat {
                    name.push('@');
                    name.push_str(cx.seats.get(seat).map(|s| s.as_str()).unwrap_or("?"));
                }
                cx.cell_ids
                    .insert(name.clone(), cx.board.cells.len() as u16);
                cx.board.cells.push(ir::CellDef { name, x: k, y: id });
                cx.board.cell_area.push(ir::CellArea {
                    area: id,
                    instance: instance + seat as u16,
                    seat: if a.per_seat { seat as u8 } else { u8::MAX },
                    index: k,
                });
            }
        }
        cx.areas
            .insert(a.name.name.clone(), (id, a.per_seat, !a.shaped.is_empty()));
        cx.board.areas.push(ir::AreaDef {
            name: a.name.name.clone(),
            per_seat: a.per_seat,
            families: fams,
            size,
            first_cell,
            first_instance: instance,
        });
        instance += copies as u16;
    }
}

/// The board's link rules, as one condition on two cells (locals 0 and 1).
pub(super) fn lower_link_rules(cx: &mut Ctx, items: &[&Item], max_locals: &mut u16) {
    let Some(b) = items.iter().find_map(|i| match &i.kind {
        ItemKind::Board(b) if !b.grid => Some(b),
        _ => None,
    }) else {
        return;
    };
    let mut rule: Option<ir::Expr> = None;
    for l in &b.links {
        cx.reset_scope();
        cx.push_local(&l.a.name, Type::Cell);
        cx.push_local(&l.b.name, Type::Cell);
        let x = cx.expect(&l.when, &Type::Bool, "a link rule's condition");
        *max_locals = (*max_locals).max(cx.reset_scope());
        rule = Some(match rule {
            None => x,
            Some(r) => ir::Expr::Binary(ir::BinOp::Or, Box::new(r), Box::new(x)),
        });
    }
    cx.board.link_rule = rule;
}

/// A catalogue's name stands for the list of its shapes; a shape's name for the shape.
pub(super) fn shape_name(cx: &Ctx, n: &str) -> Option<(ir::Expr, Type)> {
    if let Some(&s) = cx.shape_ids.get(n) {
        if s == BROKEN {
            return Some((ir::Expr::Const(Value::None), Type::Unknown));
        }
        return Some((ir::Expr::Const(Value::Shape(s)), Type::Shape));
    }
    let &f = cx.families.get(n)?;
    let list = cx
        .family_shapes
        .get(f as usize)?
        .iter()
        .map(|&s| Value::Shape(s))
        .collect();
    Some((
        ir::Expr::Const(Value::List(list)),
        Type::List(Box::new(Type::Shape)),
    ))
}

/// Which areas the rules file declares, by name: (id, per seat, shaped).
pub(super) type Areas = HashMap<String, (u16, bool, bool)>;
