//! Constant folding, for the parts of a rules file fixed before play: decks, regions
//! and seat attributes.

use crate::ir::{ops, Board, Expr, Value};

/// The value of an expression that needs no game state, or `None` if it needs some.
pub fn eval(e: &Expr, locals: &[Value], board: &Board) -> Option<Value> {
    Some(match e {
        Expr::Const(v) => v.clone(),
        Expr::Local(s) => locals.get(*s as usize)?.clone(),
        Expr::List(items) => Value::List(
            items
                .iter()
                .map(|i| eval(i, locals, board))
                .collect::<Option<_>>()?,
        ),
        Expr::Binary(op, a, b) => ops::binary(
            *op,
            &eval(a, locals, board)?,
            &eval(b, locals, board)?,
            board,
        ),
        Expr::If(c, a, b) => {
            if eval(c, locals, board)?.truthy() {
                eval(a, locals, board)?
            } else {
                eval(b, locals, board)?
            }
        }
        Expr::Not(a) => Value::Bool(!eval(a, locals, board)?.truthy()),
        Expr::Neg(a) => Value::Int(-eval(a, locals, board)?.as_int()),
        // `a + b` on lists: both, in order.
        Expr::Call(crate::ir::Builtin::Concat, parts) => {
            let mut out = Vec::new();
            for p in parts {
                match eval(p, locals, board)? {
                    Value::List(items) => out.extend(items),
                    other => out.push(other),
                }
            }
            Value::List(out)
        }
        _ => return None,
    })
}
