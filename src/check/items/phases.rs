//! `phase` declarations: turns, steps and hooks; and the warning for actions no phase offers.

use super::*;

pub(super) fn find_action(cx: &mut Ctx, n: &ast::Ident) -> Option<u16> {
    find_in(cx, |cx| &cx.actions, "action", n)
}

pub(super) fn find_phase(cx: &mut Ctx, n: &ast::Ident) -> Option<u16> {
    find_in(cx, |cx| &cx.phases, "phase", n)
}

/// The id of a name in one of the checker's tables of declared names, or a located
/// error with the closest names.
fn find_in<'a>(
    cx: &mut Ctx<'a>,
    table: for<'c> fn(&'c Ctx<'a>) -> &'c HashMap<String, u16>,
    what: &str,
    n: &ast::Ident,
) -> Option<u16> {
    if let Some(&id) = table(cx).get(&n.name) {
        return Some(id);
    }
    let known: Vec<String> = table(cx).keys().cloned().collect();
    cx.unknown(what, n, &format!("no such {what}"), known);
    None
}

pub(super) fn lower_phases(cx: &mut Ctx, items: &[&Item], max_locals: &mut u16) -> Vec<ir::Phase> {
    let mut phases = Vec::new();
    for item in items {
        let ItemKind::Phase(p) = &item.kind else {
            continue;
        };
        let skip = p.skip.as_ref().map(|(v, e)| {
            cx.push_local(&v.name, Type::Seat);
            let x = cx.expect(e, &Type::Bool, "the `skip ... when` condition");
            *max_locals = (*max_locals).max(cx.reset_scope());
            x
        });
        let start = p
            .start
            .as_ref()
            .map(|e| cx.expect(e, &Type::Seat, "a phase's `start`"));
        let mut steps = Vec::new();
        for s in &p.steps {
            let by = s.by.as_ref().map(|e| cx.expect(e, &Type::Seat, "`by`"));
            let actions = s
                .actions
                .iter()
                .filter_map(|a| find_action(cx, a))
                .collect();
            let condition = s
                .condition
                .as_ref()
                .map(|e| cx.expect(e, &Type::Bool, "a step's `if`"));
            let mode = match s.mode {
                ast::StepMode::One => ir::StepMode::One,
                ast::StepMode::Optional => ir::StepMode::Optional,
                ast::StepMode::Repeat => ir::StepMode::Repeat,
                ast::StepMode::Loop => ir::StepMode::Loop,
                ast::StepMode::All => ir::StepMode::All,
            };
            if let (ast::StepMode::All, Some(b)) = (s.mode, &s.by) {
                cx.error(
                    Diagnostic::error(
                        "muster::all-by",
                        b.span,
                        "an `all` step is decided by every seat, so it cannot name one with `by`",
                    )
                    .label("one seat named here")
                    .related(s.mode_span, "every seat chooses in this step")
                    .help("remove `by ...` to ask every seat in secret, or write `by SEAT one of ...` to ask one seat"),
                );
            }
            steps.push(ir::Step {
                by,
                mode,
                actions,
                condition,
            });
        }
        if steps.is_empty() {
            cx.error(
                Diagnostic::error(
                    "muster::no-turn",
                    p.name.span,
                    format!("phase `{}` has no turn, so no one acts in it", p.name.name),
                )
                .label("empty phase")
                .help("add `turn { one of some_action }`"),
            );
        }
        let enter = p.enter.as_ref().map(|b| cx.block(b)).unwrap_or_default();
        *max_locals = (*max_locals).max(cx.reset_scope());
        let before_turn = p
            .before_turn
            .as_ref()
            .map(|b| cx.block(b))
            .unwrap_or_default();
        *max_locals = (*max_locals).max(cx.reset_scope());
        let after_turn = p
            .after_turn
            .as_ref()
            .map(|b| cx.block(b))
            .unwrap_or_default();
        *max_locals = (*max_locals).max(cx.reset_scope());
        let until = p
            .until
            .as_ref()
            .map(|e| cx.expect(e, &Type::Bool, "a phase's `until`"));
        *max_locals = (*max_locals).max(cx.reset_scope());
        let (next, next_if) = match &p.next {
            None => (None, None),
            Some(ast::NextPhase::Phase(n)) => (find_phase(cx, n), None),
            Some(chosen) => {
                let lowered = lower_next(cx, chosen);
                *max_locals = (*max_locals).max(cx.reset_scope());
                (None, lowered)
            }
        };
        phases.push(ir::Phase {
            name: p.name.name.clone(),
            skip,
            start,
            steps,
            before_turn,
            after_turn,
            until,
            next,
            next_if,
            reversed: p.reversed,
            enter,
        });
    }
    phases
}

/// `next if COND then PHASE else PHASE`, every branch checked (so that every unknown
/// phase is reported); `None` if a phase is unknown.
fn lower_next(cx: &mut Ctx, n: &ast::NextPhase) -> Option<ir::NextPhase> {
    match n {
        ast::NextPhase::Phase(name) => find_phase(cx, name).map(ir::NextPhase::Phase),
        ast::NextPhase::If(cond, then, otherwise) => {
            let c = cx.expect(cond, &Type::Bool, "the condition of `next if`");
            let (a, b) = (lower_next(cx, then), lower_next(cx, otherwise));
            Some(ir::NextPhase::If(c, Box::new(a?), Box::new(b?)))
        }
    }
}

/// Warns about actions that no phase ever offers.
pub(super) fn warn_unoffered(
    cx: &mut Ctx,
    items: &[&Item],
    phases: &[ir::Phase],
    reactions: &[ir::Reaction],
) {
    // A misspelt action in a turn already has its error; a warning beside it misleads.
    if cx
        .diags
        .iter()
        .any(|d| d.message.starts_with("unknown action"))
    {
        return;
    }
    for item in items {
        let ItemKind::Action(a) = &item.kind else {
            continue;
        };
        let Some(&id) = cx.actions.get(&a.name.name) else {
            continue;
        };
        let in_turn = phases
            .iter()
            .any(|p| p.steps.iter().any(|s| s.actions.contains(&id)));
        let in_reaction = reactions.iter().any(|r| r.actions.contains(&id));
        if !in_turn && !in_reaction {
            cx.error(
                Diagnostic::warning(
                    "muster::unused-action",
                    a.name.span,
                    format!("action `{}` is never offered", a.name.name),
                )
                .label("no turn step or reaction lists it")
                .help(format!(
                    "add it to a turn step, e.g. `turn {{ one of {} }}`, or remove it",
                    a.name.name
                )),
            );
        }
    }
}
