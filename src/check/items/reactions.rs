//! `trigger` and `reaction` declarations.

use super::*;

pub(super) fn lower_triggers(
    cx: &mut Ctx,
    items: &[&Item],
    max_locals: &mut u16,
) -> Vec<ir::Trigger> {
    let mut out = Vec::new();
    for item in items {
        let ItemKind::Trigger {
            var,
            enters,
            zone,
            body,
        } = &item.kind
        else {
            continue;
        };
        let Some(&(z, _, _)) = cx.zones.get(&zone.name) else {
            let known: Vec<String> = cx.zones.keys().cloned().collect();
            cx.unknown("zone", zone, "no such zone", known);
            continue;
        };
        cx.push_local(&var.name, Type::Comp);
        let body = cx.block(body);
        *max_locals = (*max_locals).max(cx.reset_scope());
        out.push(ir::Trigger {
            zone: z,
            enters: *enters,
            body,
        });
    }
    out
}

pub(super) fn lower_reactions(
    cx: &mut Ctx,
    items: &[&Item],
    max_locals: &mut u16,
) -> Vec<ir::Reaction> {
    let mut out = Vec::new();
    for item in items {
        let ItemKind::Reaction(r) = &item.kind else {
            continue;
        };
        let by = cx.expect(&r.by, &Type::Seat, "who reacts (`by`)");
        let offer = r
            .offer
            .as_ref()
            .map(|c| cx.expect(c, &Type::Bool, "a reaction's `when`"));
        let actions = r
            .actions
            .iter()
            .filter_map(|a| find_action(cx, a))
            .collect();
        let after = cx.block(&r.after);
        *max_locals = (*max_locals).max(cx.reset_scope());
        let mode = match r.mode {
            ast::StepMode::One => ir::StepMode::One,
            ast::StepMode::Optional => ir::StepMode::Optional,
            ast::StepMode::Repeat => ir::StepMode::Repeat,
            ast::StepMode::Loop => ir::StepMode::Loop,
            ast::StepMode::All => {
                cx.error(
                    Diagnostic::error(
                        "muster::all-reaction",
                        r.mode_span,
                        format!(
                            "reaction `{}` cannot be `all`: a reaction is one seat's answer, owed at once",
                            r.name.name
                        ),
                    )
                    .label("secret choices by every seat")
                    .help("use `one`, `optional`, `repeat` or `loop` here; to ask every seat in secret, put `all of ...` in a phase's `turn { }`"),
                );
                ir::StepMode::One
            }
        };
        out.push(ir::Reaction {
            name: r.name.name.clone(),
            by,
            offer,
            mode,
            actions,
            after,
        });
    }
    out
}
