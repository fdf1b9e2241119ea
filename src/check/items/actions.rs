//! `action` declarations: their `choose`, `let`, `require` and `do` clauses.

use super::*;

pub(super) fn lower_actions(
    cx: &mut Ctx,
    items: &[&Item],
    max_locals: &mut u16,
) -> Vec<ir::ActionDef> {
    let mut actions = Vec::new();
    for item in items {
        let ItemKind::Action(a) = &item.kind else {
            continue;
        };
        if a.name.name == "done" || a.name.name == "skip" {
            cx.error(
                Diagnostic::error("muster::reserved", a.name.span, format!("`{}` is the name of a built-in action", a.name.name))
                    .label("reserved")
                    .help("`done` ends a repeated step and `skip` passes an optional one; give this action another name"),
            );
        }
        let mut clauses = Vec::new();
        let mut require_texts = Vec::new();
        let mut require_reasons = Vec::new();
        let mut choose_reasons: Vec<Option<String>> = Vec::new();
        let mut choose_count = 0usize;
        // The choices take the first slots, one after another in their order, whatever
        // the clauses between them bind: an action's arguments then stand side by side
        // where the engine lists it, and are handed on where they stand.
        let choices = (a.clauses.iter())
            .filter(|c| matches!(c, ast::Clause::Choose { .. }))
            .count();
        let first_choice = u16::try_from(choices)
            .ok()
            .and_then(|n| cx.reserve_slots(n));
        let mut seen_do = false;
        for c in &a.clauses {
            match c {
                ast::Clause::Choose {
                    var,
                    domain,
                    reason,
                } => {
                    let (d, el) = cx.collection(domain, "what `choose` picks from");
                    let slot = match first_choice {
                        Some(first) => {
                            cx.bind_reserved(&var.name, el.clone(), first + choose_count as u16)
                        }
                        None => cx.push_local(&var.name, el.clone()),
                    };
                    if reason.is_some() {
                        choose_reasons.resize(choose_count, None);
                        choose_reasons.push(reason.clone());
                    }
                    choose_count += 1;
                    clauses.push(ir::Clause::Choose {
                        slot,
                        name: var.name.clone(),
                        ty: el,
                        domain: d,
                    });
                }
                ast::Clause::Let { var, value } => {
                    let (x, t) = cx.expr(value);
                    let slot = cx.push_local(&var.name, t);
                    clauses.push(ir::Clause::Let { slot, value: x });
                }
                ast::Clause::Require {
                    cond: e,
                    reason,
                    afterwards,
                } => {
                    let x = cx.expect(e, &Type::Bool, "a `require`");
                    if *afterwards && !seen_do {
                        cx.error(
                            Diagnostic::error(
                                "muster::afterwards",
                                e.span,
                                "`require afterwards` stands before the `do` whose result it judges",
                            )
                            .label("before the action's effects")
                            .help(if a.clauses.iter().any(|c| matches!(c, ast::Clause::Do(_))) {
                                "move it after the `do { ... }` clause"
                            } else {
                                "this action has no `do`: write a plain `require`"
                            }),
                        );
                    }
                    clauses.push(ir::Clause::Require {
                        index: require_texts.len() as u16,
                        cond: x,
                        afterwards: *afterwards,
                    });
                    require_texts.push(if *afterwards {
                        format!("afterwards {}", source_text(e))
                    } else {
                        source_text(e)
                    });
                    require_reasons.push(reason.clone());
                }
                ast::Clause::Do(b) => {
                    seen_do = true;
                    clauses.push(ir::Clause::Do(cx.block(b)))
                }
            }
        }
        let locals = cx.reset_scope();
        *max_locals = (*max_locals).max(locals);
        actions.push(ir::ActionDef {
            name: a.name.name.clone(),
            locals,
            clauses,
            require_texts,
            require_reasons,
            choose_reasons,
            place: String::new(),
            require_places: Vec::new(),
        });
    }
    actions
}

/// A compact rendering of an expression for messages (`require` explanations).
pub(super) fn source_text(e: &ast::Expr) -> String {
    use ast::ExprKind as K;
    match &e.kind {
        K::Int(i) => i.to_string(),
        K::Str(s) => format!("{s:?}"),
        K::Bool(b) => b.to_string(),
        K::None => "none".into(),
        K::Name(n) => n.name.clone(),
        K::Call(f, a) => format!(
            "{}({})",
            f.name,
            a.iter().map(source_text).collect::<Vec<_>>().join(", ")
        ),
        K::Field(b, f) => format!("{}.{}", source_text(b), f.name),
        K::Index(c, i) if matches!(c.kind, K::Binary(..) | K::Unary(..)) => {
            format!("({})[{}]", source_text(c), source_text(i))
        }
        K::Index(c, i) => format!("{}[{}]", source_text(c), source_text(i)),
        K::Unary(ast::UnOp::Not, x) => format!("not {}", source_text(x)),
        K::Unary(ast::UnOp::Neg, x) => format!("-{}", source_text(x)),
        K::Binary(op, a, b) => {
            let wrap = |x: &ast::Expr| {
                if matches!(x.kind, K::Binary(..)) {
                    format!("({})", source_text(x))
                } else {
                    source_text(x)
                }
            };
            format!("{} {} {}", wrap(a), op.symbol(), wrap(b))
        }
        K::If(c, a, b) => format!(
            "if {} then {} else {}",
            source_text(c),
            source_text(a),
            source_text(b)
        ),
        K::Quant(q, v, c, b) => format!(
            "{} {} in {}: {}",
            match q {
                ast::Quant::Any => "any",
                ast::Quant::All => "all",
                ast::Quant::None => "none",
            },
            v.name,
            source_text(c),
            source_text(b)
        ),
        K::Agg(a, v, c, b) => format!(
            "{} {} in {}: {}",
            match a {
                ast::Agg::Sum => "sum",
                ast::Agg::Max => "max",
                ast::Agg::Min => "min",
                ast::Agg::Count => "count",
            },
            v.name,
            source_text(c),
            source_text(b)
        ),
        K::Comprehension(v, c, w) => match w {
            Some(w) => format!(
                "[{} in {} where {}]",
                v.name,
                source_text(c),
                source_text(w)
            ),
            None => format!("[{} in {}]", v.name, source_text(c)),
        },
        K::List(items) => format!(
            "[{}]",
            items.iter().map(source_text).collect::<Vec<_>>().join(", ")
        ),
    }
}
