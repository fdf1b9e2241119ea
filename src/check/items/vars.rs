//! `var` declarations: game, per-seat and per-piece variables, their types and visibility.

use super::*;

/// The types a variable may be declared with, besides enum names.
pub(super) const TYPE_NAMES: [(&str, Type); 8] = [
    ("number", Type::Int),
    ("bool", Type::Bool),
    ("seat", Type::Seat),
    ("cell", Type::Cell),
    ("card", Type::Comp),
    ("direction", Type::Dir),
    ("phase", Type::Phase),
    ("route", Type::Route),
];

pub(super) fn type_named(cx: &Ctx, name: &str) -> Option<Type> {
    if name == "cards" {
        return Some(Type::List(Box::new(Type::Comp)));
    }
    if let Some((_, t)) = TYPE_NAMES.iter().find(|(n, _)| *n == name) {
        return Some(t.clone());
    }
    cx.enum_ids.get(name).map(|&e| Type::Enum(e))
}

pub(super) fn lower_vars(cx: &mut Ctx, items: &[&Item]) -> Vec<ir::VarDef> {
    let mut vars = Vec::new();
    for item in items {
        let ItemKind::Var {
            name,
            per_seat,
            per_piece,
            visibility,
            clock,
            ty: declared,
            init,
        } = &item.kind
        else {
            continue;
        };
        let visibility = match visibility {
            ast::Visibility::Owner if !per_seat && !per_piece => {
                let d = Diagnostic::error(
                    "muster::var-owner",
                    name.span,
                    format!("`{}` is one variable for the whole game: no seat owns it", name.name),
                )
                .label("`owner` needs an owner")
                .help("say `var NAME per seat owner` (each seat sees its own) or `var NAME hidden` (no seat sees it)");
                cx.error(d);
                ir::Visibility::Hidden
            }
            ast::Visibility::Owner => ir::Visibility::Owner,
            ast::Visibility::Hidden => ir::Visibility::Hidden,
            _ => ir::Visibility::Public,
        };
        let (x, mut ty) = cx.expr(init);
        if let Some(t) = declared {
            match type_named(cx, &t.name) {
                Some(want) => {
                    if !fits(&want, &ty) {
                        let d = Diagnostic::error(
                            "muster::type",
                            init.span,
                            format!(
                                "`{}` is declared as {}, but starts as {}",
                                name.name,
                                describe(cx, &want),
                                describe(cx, &ty)
                            ),
                        )
                        .label("does not fit the declared type");
                        cx.error(d);
                    }
                    ty = want;
                }
                None => {
                    let mut known: Vec<String> =
                        TYPE_NAMES.iter().map(|(n, _)| n.to_string()).collect();
                    known.extend(cx.enum_ids.keys().cloned());
                    cx.unknown("type", t, "not a type", known);
                }
            }
        }
        cx.reset_scope();
        let id = vars.len() as u16;
        cx.vars.insert(
            name.name.clone(),
            VarInfo {
                id,
                per_seat: *per_seat,
                per_piece: *per_piece,
                ty,
            },
        );
        vars.push(ir::VarDef {
            name: name.name.clone(),
            per_seat: *per_seat,
            per_piece: *per_piece,
            visibility,
            init: x,
            clock: *clock,
        });
    }
    vars
}
