//! `region` declarations: named sets of cells, per seat or shared.

use super::*;

pub(super) fn lower_regions(cx: &mut Ctx, items: &[&Item]) {
    let Some(b) = items.iter().find_map(|i| {
        if let ItemKind::Board(b) = &i.kind {
            Some(b)
        } else {
            None
        }
    }) else {
        return;
    };
    let mut order: Vec<&str> = Vec::new();
    let mut parts: HashMap<&str, Vec<&ast::RegionDecl>> = HashMap::new();
    for r in &b.regions {
        if !parts.contains_key(r.name.name.as_str()) {
            order.push(&r.name.name);
        }
        parts.entry(&r.name.name).or_default().push(r);
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
            let x = cx.expect(&r.cells, &Type::List(Box::new(Type::Cell)), "a region");
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
