//! The seats, their attributes and the player counts.

use super::*;

pub(super) fn lower_seats(
    cx: &mut Ctx,
    items: &[&Item],
    max_p: u8,
) -> (Vec<ir::SeatDef>, Vec<String>) {
    let decls: Vec<(&ast::Ident, &Vec<ast::Field>)> = items
        .iter()
        .filter_map(|i| {
            if let ItemKind::Seat { name, fields } = &i.kind {
                Some((name, fields))
            } else {
                None
            }
        })
        .collect();
    if decls.is_empty() {
        cx.seats = (1..=max_p).map(|i| format!("P{i}")).collect();
        return (
            cx.seats
                .iter()
                .map(|n| ir::SeatDef {
                    name: n.clone(),
                    attrs: vec![],
                })
                .collect(),
            vec![],
        );
    }
    cx.seats = decls.iter().map(|(n, _)| n.name.clone()).collect();
    if decls.len() < max_p as usize {
        cx.error(
            Diagnostic::error(
                "muster::seats",
                decls[decls.len() - 1].0.span,
                format!(
                    "the game seats up to {max_p} players but declares {} seat(s)",
                    decls.len()
                ),
            )
            .label("last seat declared")
            .help("declare one `seat` for each player the game can have"),
        );
    }
    // Attribute names: the union over seats, in first-seen order.
    let mut names: Vec<String> = Vec::new();
    for (_, fields) in &decls {
        for f in fields.iter() {
            if !names.contains(&f.name.name) {
                names.push(f.name.name.clone());
            }
        }
    }
    let mut types: Vec<Type> = vec![Type::Unknown; names.len()];
    let mut seats = Vec::new();
    for (name, fields) in &decls {
        let mut attrs = vec![Value::None; names.len()];
        for (i, n) in names.iter().enumerate() {
            match fields.iter().find(|f| &f.name.name == n) {
                Some(f) => {
                    let (x, t) = cx.expr(&f.value);
                    if types[i] == Type::Unknown {
                        types[i] = t;
                    } else if !fits(&types[i], &t) {
                        let d = Diagnostic::error(
                            "muster::type",
                            f.value.span,
                            format!(
                                "seat attribute `{n}` is {} here but {} for another seat",
                                describe(cx, &t),
                                describe(cx, &types[i])
                            ),
                        )
                        .label("type differs");
                        cx.error(d);
                    }
                    match consts::fixed(&x, &[], &cx.board) {
                        Ok(v) => attrs[i] = v,
                        Err(why) => cx.not_fixed(
                            why,
                            Diagnostic::error(
                                "muster::not-constant",
                                f.value.span,
                                "a seat attribute must be fixed before play",
                            )
                            .label("depends on the game's state")
                            .help("use a number, a cell, an enum value or a list of them"),
                        ),
                    }
                }
                None => cx.error(
                    Diagnostic::error(
                        "muster::seats",
                        name.span,
                        format!(
                            "seat `{}` does not give `{n}`, which other seats give",
                            name.name
                        ),
                    )
                    .label("missing attribute")
                    .help(format!("add `{n}: ...` to this seat")),
                ),
            }
        }
        seats.push(ir::SeatDef {
            name: name.name.clone(),
            attrs,
        });
    }
    cx.seat_attrs = names.iter().cloned().zip(types).collect();
    (seats, names)
}
