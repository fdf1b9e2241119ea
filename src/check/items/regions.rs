//! `region` declarations: named sets of cells, per seat or shared.

use super::*;

pub(super) fn lower_regions(cx: &mut Ctx, items: &[&Item]) {
    // The base's board, then the grids of variants, each replacing the regions it names
    // (all the declarations of a name at once) and adding new names after the others.
    let boards = items.iter().filter_map(|i| {
        if let ItemKind::Board(b) = &i.kind {
            Some(b)
        } else {
            None
        }
    });
    let mut order: Vec<&str> = Vec::new();
    let mut parts: HashMap<&str, Vec<&ast::RegionDecl>> = HashMap::new();
    for b in boards {
        let mut named_here: Vec<&str> = Vec::new();
        for r in &b.regions {
            let name = r.name.name.as_str();
            if !named_here.contains(&name) {
                named_here.push(name);
                match parts.get_mut(name) {
                    Some(earlier) => earlier.clear(),
                    None => order.push(name),
                }
            }
            parts.entry(name).or_default().push(r);
        }
    }
    for name in order {
        let decls = &parts[name];
        let per_seat = decls[0].seat.is_some();
        let mut lists = if per_seat {
            vec![Vec::new(); cx.seats.len()]
        } else {
            vec![Vec::new()]
        };
        let mut given = vec![false; lists.len()];
        for r in decls {
            if r.seat.is_some() != per_seat {
                cx.error(
                    Diagnostic::error(
                        "muster::region",
                        r.name.span,
                        format!("region `{name}` is given both per seat and for everyone"),
                    )
                    .label("mixed")
                    .help("give it for every seat, `region name(Seat) = ...`, or once for all"),
                );
                continue;
            }
            let idx = match &r.seat {
                None => 0,
                Some(s) => match cx.seats.iter().position(|n| n == &s.name) {
                    Some(i) => i,
                    None => {
                        let known = cx.seats.clone();
                        cx.unknown("seat", s, "not a seat", known);
                        continue;
                    }
                },
            };
            if given[idx] {
                cx.error(
                    Diagnostic::error(
                        "muster::duplicate",
                        r.name.span,
                        format!("region `{name}` is given twice for the same seat"),
                    )
                    .label("again"),
                );
            }
            given[idx] = true;
            let errors = cx.diags.len();
            let x = cx.expect(&r.cells, &Type::List(Box::new(Type::Cell)), "a region");
            // (A name that is no cell was reported already, and reads as `none`.)
            if cx.diags.len() == errors && off_board(&x, &cx.board) {
                let (w, h) = (cx.board.width, cx.board.height);
                cx.error(
                    Diagnostic::error(
                        "muster::off-board",
                        r.cells.span,
                        format!("a cell of region `{name}` is off the board"),
                    )
                    .label(format!(
                        "a corner or a cell here is not on the {w} x {h} board"
                    ))
                    .help(format!(
                        "`cell(f, r)` gives none off the board: keep files from 1 to `width` \
                         ({w}) and ranks from 1 to `height` ({h})"
                    )),
                );
                continue;
            }
            match consts::fixed(&x, &[], &cx.board) {
                Ok(Value::List(vs)) => {
                    lists[idx] = vs
                        .iter()
                        .filter_map(|v| {
                            if let Value::Cell(c) = v {
                                Some(*c)
                            } else {
                                None
                            }
                        })
                        .collect()
                }
                // Not cells: `expect` said so.
                Ok(_) => {}
                Err(why) => cx.not_fixed(
                    why,
                    Diagnostic::error(
                        "muster::not-constant",
                        r.cells.span,
                        "a region's cells must be fixed before play",
                    )
                    .label("not a fixed list of cells"),
                ),
            }
        }
        if per_seat {
            for (i, g) in given.iter().enumerate() {
                if !g {
                    let d = Diagnostic::error(
                        "muster::region",
                        decls[0].name.span,
                        format!("region `{name}` is not given for seat `{}`", cx.seats[i]),
                    )
                    .label("given for some seats only")
                    .help(format!("add `region {name}({}) = ...`", cx.seats[i]));
                    cx.error(d);
                }
            }
        }
        let id = cx.board.regions.len() as u16;
        cx.regions.insert(name.to_string(), (id, per_seat));
        cx.board.regions.push(ir::RegionDef {
            name: name.to_string(),
            per_seat,
            cells: lists,
        });
    }
}

/// Whether a region's cells, fixed before play, name a cell off the board: a rectangle's
/// corner or a listed cell that is `none` (`cell(f, r)` beyond the board's size).
fn off_board(x: &ir::Expr, board: &ir::Board) -> bool {
    let missing = |e: &ir::Expr| consts::eval(e, &[], board) == Some(Value::None);
    match x {
        ir::Expr::Binary(ir::BinOp::Range, a, b) => missing(a) || missing(b),
        ir::Expr::List(items) => items.iter().any(missing),
        ir::Expr::Call(ir::Builtin::Concat, parts) => parts.iter().any(|p| off_board(p, board)),
        ir::Expr::If(c, a, b) => match consts::eval(c, &[], board) {
            Some(v) if v.truthy() => off_board(a, board),
            Some(_) => off_board(b, board),
            None => false,
        },
        _ => false,
    }
}
