//! The `end` block: win, draw and stuck rules.

use super::*;

pub(super) fn lower_end(cx: &mut Ctx, items: &[&Item], max_locals: &mut u16) -> ir::EndRules {
    let mut end = ir::EndRules {
        wins: vec![],
        draws: vec![],
        stuck: ir::StuckRule::Pass,
        score: None,
    };
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
                ast::EndRule::Stuck(s, _) => {
                    end.stuck = match s {
                        ast::StuckRule::Draw => ir::StuckRule::Draw,
                        ast::StuckRule::Pass => ir::StuckRule::Pass,
                        ast::StuckRule::Lose => ir::StuckRule::Lose,
                    }
                }
            }
            *max_locals = (*max_locals).max(cx.reset_scope());
        }
    }
    end
}
