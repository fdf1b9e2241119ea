//! The `end` block: win, draw and stuck rules.

use super::*;

pub(super) fn lower_end(cx: &mut Ctx, items: &[&Item], max_locals: &mut u16) -> ir::EndRules {
    let mut end = ir::EndRules {
        wins: vec![],
        draws: vec![],
        stuck: ir::StuckRule::Pass,
        stuck_if: vec![],
        score: None,
    };
    // Where the `on stuck` rule is, once one is read.
    let mut stuck_at: Option<Span> = None;
    for item in items {
        let ItemKind::End(rules) = &item.kind else {
            continue;
        };
        for r in rules {
            match r {
                ast::EndRule::Win { who, when } => {
                    let (w, t) = cx.expr(who);
                    if !fits(&Type::Seat, &t) && !fits(&Type::List(Box::new(Type::Seat)), &t) {
                        let d = Diagnostic::error("muster::type", who.span, format!("the winner must be a seat or a list of seats (who share the win), but this is {}", describe(cx, &t)))
                            .label("not a seat");
                        cx.error(d);
                    }
                    let c = cx.expect(when, &Type::Bool, "a `win ... when` condition");
                    end.wins.push((w, c));
                }
                ast::EndRule::Score { seat, value } => {
                    cx.push_local(&seat.name, Type::Seat);
                    end.score = Some(cx.expect(value, &Type::Int, "a score"));
                }
                ast::EndRule::Draw { when } => {
                    end.draws
                        .push(cx.expect(when, &Type::Bool, "a `draw when` condition"))
                }
                ast::EndRule::Stuck(choice, span) => {
                    if let Some(first) = stuck_at {
                        cx.error(twice(first, *span));
                    }
                    stuck_at = Some(*span);
                    end.stuck_if.clear();
                    let mut c = choice;
                    while let ast::StuckChoice::If(cond, then, otherwise) = c {
                        let e = cx.expect(cond, &Type::Bool, "an `on stuck if` condition");
                        end.stuck_if.push((e, result(*then)));
                        c = otherwise;
                    }
                    if let ast::StuckChoice::Result(r) = c {
                        end.stuck = result(*r);
                    }
                }
            }
            *max_locals = (*max_locals).max(cx.reset_scope());
        }
    }
    end
}

fn result(r: ast::StuckRule) -> ir::StuckRule {
    match r {
        ast::StuckRule::Draw => ir::StuckRule::Draw,
        ast::StuckRule::Pass => ir::StuckRule::Pass,
        ast::StuckRule::Lose => ir::StuckRule::Lose,
    }
}

/// A second `on stuck` rule: a game has one, which may choose by conditions.
fn twice(first: Span, second: Span) -> Diagnostic {
    Diagnostic::error(
        "muster::duplicate-stuck",
        second,
        "`on stuck` is given twice",
    )
    .label("second `on stuck`")
    .related(first, "first `on stuck`")
    .help(
        "a game has one `on stuck` rule; to let the position decide, write \
         `on stuck if CONDITION then RESULT else RESULT`",
    )
}
