//! `deck` declarations: the components they hold, with their loops expanded.

use super::*;

pub(super) fn lower_decks(cx: &mut Ctx, items: &[&Item]) {
    for item in items {
        let ItemKind::Deck { name, kind, body } = &item.kind else {
            continue;
        };
        let Some(&k) = cx.kind_ids.get(&kind.name) else {
            let known: Vec<String> = cx.kind_ids.keys().cloned().collect();
            cx.unknown("kind", kind, "no such kind", known);
            // Known, but empty: the zones holding it are not reported as well.
            cx.decks.insert(name.name.clone(), vec![]);
            continue;
        };
        let mut cards = Vec::new();
        let mut locals = Vec::new();
        deck_entries(cx, k, body, &mut locals, &mut cards);
        cx.reset_scope();
        cx.decks.insert(name.name.clone(), cards);
    }
}

/// Expands a deck's `for` loops and `card` entries into components (kept in `cx.components`
/// only when a zone holds the deck; here they are templates).
pub(super) fn deck_entries(
    cx: &mut Ctx,
    kind: u16,
    body: &[ast::DeckEntry],
    locals: &mut Vec<Value>,
    out: &mut Vec<ir::CompId>,
) {
    for e in body {
        match e {
            ast::DeckEntry::For { var, domain, body } => {
                let (x, el) = cx.collection(domain, "the collection of a deck's `for`");
                let vals = match consts::fixed(&x, locals, &cx.board) {
                    Ok(Value::List(vals)) => vals,
                    // Not a collection: `collection` said so.
                    Ok(_) => continue,
                    Err(why) => {
                        cx.not_fixed(
                            why,
                            Diagnostic::error(
                                "muster::not-constant",
                                domain.span,
                                "a deck's `for` must run over a fixed list",
                            )
                            .label("not fixed before play")
                            .help("use a range such as `1..13` or an enum's name"),
                        );
                        continue;
                    }
                };
                let mark = cx.mark();
                let slot = cx.push_local(&var.name, el);
                for v in vals {
                    if !cx.spend(1, domain.span) {
                        break;
                    }
                    if locals.len() <= slot as usize {
                        locals.resize(slot as usize + 1, Value::None);
                    }
                    locals[slot as usize] = v;
                    deck_entries(cx, kind, body, locals, out);
                    if cx.diags.len() > crate::check::MAX_ERRORS {
                        break;
                    }
                }
                cx.release(mark);
                cx.scope.next_slot = slot;
            }
            ast::DeckEntry::Card {
                copies,
                fields,
                span,
            } => {
                let kd = cx.kinds[kind as usize].attrs.clone();
                let mut attrs = vec![Value::None; cx.attrs.len()];
                let mut ok = true;
                for f in fields {
                    let Some(&a) = cx.attr_ids.get(&f.name.name).filter(|a| kd.contains(a)) else {
                        let known: Vec<String> = kd
                            .iter()
                            .map(|a| cx.attrs[*a as usize].name.clone())
                            .collect();
                        let mut d = Diagnostic::error(
                            "muster::unknown-field",
                            f.name.span,
                            format!(
                                "kind `{}` has no attribute `{}`",
                                cx.kinds[kind as usize].name, f.name.name
                            ),
                        )
                        .label("unknown attribute");
                        if let Some(h) = suggest(&f.name.name, known.iter().map(|s| s.as_str())) {
                            d = d.help(h);
                        }
                        cx.error(d);
                        ok = false;
                        continue;
                    };
                    let want = match cx.attrs[a as usize].ty {
                        ir::AttrType::Int { .. } => Type::Int,
                        ir::AttrType::Enum(e) => Type::Enum(e),
                        ir::AttrType::Pattern => Type::Pattern,
                    };
                    let x = cx.expect(&f.value, &want, &format!("attribute `{}`", f.name.name));
                    match consts::eval(&x, locals, &cx.board) {
                        Some(v) => {
                            if let (ir::AttrType::Int { lo, hi }, Value::Int(i)) =
                                (&cx.attrs[a as usize].ty, &v)
                            {
                                if i < lo || i > hi {
                                    cx.error(
                                        Diagnostic::error(
                                            "muster::range",
                                            f.value.span,
                                            format!(
                                                "`{}` is {i} here, outside its range {lo}..{hi}",
                                                f.name.name
                                            ),
                                        )
                                        .label("out of range"),
                                    );
                                }
                            }
                            attrs[a as usize] = v;
                        }
                        None => {
                            cx.error(
                                Diagnostic::error(
                                    "muster::not-constant",
                                    f.value.span,
                                    "a card's attributes must be fixed before play",
                                )
                                .label("not fixed"),
                            );
                            ok = false;
                        }
                    }
                }
                for a in &kd {
                    if ok
                        && attrs[*a as usize] == Value::None
                        && !fields
                            .iter()
                            .any(|f| f.name.name == cx.attrs[*a as usize].name)
                    {
                        let n = cx.attrs[*a as usize].name.clone();
                        cx.error(
                            Diagnostic::error(
                                "muster::missing-field",
                                *span,
                                format!("this card does not give its `{n}`"),
                            )
                            .label("incomplete card")
                            .help(format!("add `{n}: ...`")),
                        );
                        ok = false;
                    }
                }
                if cx.components.len() + *copies as usize > MAX_COMPONENTS {
                    cx.error(
                        Diagnostic::error(
                            "muster::limit",
                            *span,
                            format!("a game may have at most {MAX_COMPONENTS} cards and pieces"),
                        )
                        .label("too many"),
                    );
                    return;
                }
                for _ in 0..*copies {
                    out.push(cx.components.len() as u16);
                    cx.components.push(ir::Component {
                        kind,
                        attrs: attrs.clone(),
                    });
                }
            }
        }
    }
}
