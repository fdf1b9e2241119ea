//! `region` and `path` declarations: named ordered lists of cells, per seat or shared. A
//! path is a region whose cells are each on it once, and may be a loop.

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
        let path = decls[0].path;
        let loops = decls[0].loops;
        let word = if path { "path" } else { "region" };
        let mut lists = if per_seat {
            vec![Vec::new(); cx.seats.len()]
        } else {
            vec![Vec::new()]
        };
        let mut given = vec![false; lists.len()];
        for r in decls {
            if r.path != path {
                cx.error(
                    Diagnostic::error(
                        "muster::path",
                        r.name.span,
                        format!("`{name}` is declared both as a region and as a path"),
                    )
                    .label("declared again")
                    .help("give every part of it the same word: `path` for a track, `region` for a set of cells"),
                );
            }
            if r.loops != loops {
                cx.error(
                    Diagnostic::error(
                        "muster::path",
                        r.name.span,
                        format!("path `{name}` is a `loop` for some seats only"),
                    )
                    .label("not like the first")
                    .help("end every seat's path with `loop`, or none of them"),
                );
            }
            if r.seat.is_some() != per_seat {
                cx.error(
                    Diagnostic::error(
                        "muster::region",
                        r.name.span,
                        format!("{word} `{name}` is given both per seat and for everyone"),
                    )
                    .label("mixed")
                    .help(format!(
                        "give it for every seat, `{word} name(Seat) = ...`, or once for all"
                    )),
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
                        format!("{word} `{name}` is given twice for the same seat"),
                    )
                    .label("again"),
                );
            }
            given[idx] = true;
            let what = if path { "a path" } else { "a region" };
            // A path whose cells are already wrong (a misspelt cell, a line that is not
            // straight) is not judged again on what is left of it.
            let before = cx.diags.len();
            let x = cx.expect(&r.cells, &Type::List(Box::new(Type::Cell)), what);
            // (A name that is no cell was reported already, and reads as `none`.)
            if cx.diags.len() == before && off_board(&x, &cx.board) {
                let (w, h) = (cx.board.width, cx.board.height);
                let kind = if path { "path" } else { "region" };
                cx.error(
                    Diagnostic::error(
                        "muster::off-board",
                        r.cells.span,
                        format!("a cell of {kind} `{name}` is off the board"),
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
                        .collect();
                    if path && cx.diags.len() == before {
                        check_path(cx, name, r, &lists[idx]);
                    }
                }
                // Not cells: `expect` said so.
                Ok(_) => {}
                Err(why) => cx.not_fixed(
                    why,
                    Diagnostic::error(
                        "muster::not-constant",
                        r.cells.span,
                        format!("a {word}'s cells must be fixed before play"),
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
                        format!("{word} `{name}` is not given for seat `{}`", cx.seats[i]),
                    )
                    .label("given for some seats only")
                    .help(format!("add `{word} {name}({}) = ...`", cx.seats[i]));
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
            path,
            loops,
        });
    }
}

/// A path's own rules: at least two cells, each once.
fn check_path(cx: &mut Ctx, name: &str, r: &ast::RegionDecl, cells: &[u16]) {
    let whose = r
        .seat
        .as_ref()
        .map_or(String::new(), |s| format!(" of `{}`", s.name));
    if cells.len() < 2 {
        cx.error(
            Diagnostic::error(
                "muster::path",
                r.cells.span,
                format!("path `{name}`{whose} has {} cell(s); a path needs at least two", cells.len()),
            )
            .label("too short to move along")
            .help("list its cells in the order pieces follow them: `[a1, b1, c1]` or `line(a1, a6) + line(b6, f6)`"),
        );
        return;
    }
    let mut seen = vec![0usize; cx.board.cells.len()];
    for (i, &c) in cells.iter().enumerate() {
        let Some(first) = seen.get_mut(c as usize) else {
            continue;
        };
        if *first != 0 {
            let cell = &cx.board.cells[c as usize].name;
            let d = Diagnostic::error(
                "muster::path",
                r.cells.span,
                format!(
                    "path `{name}`{whose} passes `{cell}` twice, as its cell {} and its cell {}",
                    *first,
                    i + 1
                ),
            )
            .label(format!("`{cell}` again"))
            .help("a path holds each cell once, so that each cell has one next cell along it; a track that comes back to its start is a `loop`");
            cx.error(d);
            return;
        }
        *first = i + 1;
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
