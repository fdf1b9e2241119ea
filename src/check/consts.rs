//! Constant folding, for the parts of a rules file fixed before play: decks, regions
//! and seat attributes. The board's size is known by then: `width`, `height` and
//! `cell(f, r)` fold too.

use super::symbols::Ctx;
use crate::diagnostic::Diagnostic;
use crate::ir::{ops, Board, Builtin, Expr, Value};

/// The most items a value fixed before play may hold, counting every list in it.
pub const MAX_FIXED_ITEMS: usize = 1_000_000;

/// Why an expression has no value before play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unfixed {
    /// It needs the game's state.
    State,
    /// Its value would hold more than [`MAX_FIXED_ITEMS`] items.
    TooLarge,
}

/// The value of an expression that needs no game state.
pub fn fixed(e: &Expr, locals: &[Value], board: &Board) -> Result<Value, Unfixed> {
    let mut room = MAX_FIXED_ITEMS;
    eval_in(e, locals, board, &mut room)
}

/// The value of an expression that needs no game state, or `None` if it needs some.
pub fn eval(e: &Expr, locals: &[Value], board: &Board) -> Option<Value> {
    fixed(e, locals, board).ok()
}

fn eval_in(e: &Expr, locals: &[Value], board: &Board, room: &mut usize) -> Result<Value, Unfixed> {
    let v = match e {
        Expr::Const(v) => v.clone(),
        Expr::Local(s) => locals.get(*s as usize).ok_or(Unfixed::State)?.clone(),
        // A definition's argument computed once: the body sees it in its local.
        Expr::Bind(slot, v, body) => {
            let v = eval_in(v, locals, board, room)?;
            let mut within = locals.to_vec();
            if within.len() <= *slot as usize {
                within.resize(*slot as usize + 1, Value::None);
            }
            within[*slot as usize] = v;
            // The body's own list is counted by its own evaluation.
            return eval_in(body, &within, board, room);
        }
        Expr::List(items) => Value::List(
            items
                .iter()
                .map(|i| eval_in(i, locals, board, room))
                .collect::<Result<_, _>>()?,
        ),
        Expr::Binary(op, a, b) => {
            let (a, b) = (
                eval_in(a, locals, board, room)?,
                eval_in(b, locals, board, room)?,
            );
            ops::binary(*op, &a, &b, board)
        }
        Expr::If(c, a, b) => {
            if eval_in(c, locals, board, room)?.truthy() {
                eval_in(a, locals, board, room)?
            } else {
                eval_in(b, locals, board, room)?
            }
        }
        Expr::Not(a) => Value::Bool(!eval_in(a, locals, board, room)?.truthy()),
        Expr::Neg(a) => Value::Int(eval_in(a, locals, board, room)?.as_int().saturating_neg()),
        // `a + b` on lists: both, in order.
        Expr::Call(crate::ir::Builtin::Concat, parts) => {
            let mut out = crate::ir::Items::new();
            for p in parts {
                match eval_in(p, locals, board, room)? {
                    Value::List(items) => out.extend(items),
                    other => out.push(other),
                }
            }
            Value::List(out)
        }
        // `xs[i]` of a list fixed before play (runs and zones need the state or the walk).
        Expr::Index(coll, at) => {
            let i = eval_in(at, locals, board, room)?.as_int();
            match eval_in(coll, locals, board, room)? {
                Value::List(mut items) => ops::position(items.len(), i)
                    .map_or(Value::None, |k| std::mem::take(&mut items[k])),
                _ => return Err(Unfixed::State),
            }
        }
        Expr::Call(b @ (Builtin::File | Builtin::Rank), args) if args.len() == 1 => {
            let c = eval_in(&args[0], locals, board, room)?;
            ops::file_or_rank(&c, *b == Builtin::Rank, board)
        }
        Expr::Call(Builtin::Line, args) if args.len() == 2 => {
            let a = eval_in(&args[0], locals, board, room)?;
            let b = eval_in(&args[1], locals, board, room)?;
            Value::List(ops::straight(&a, &b, board))
        }
        Expr::Call(Builtin::CellAt, args) if args.len() == 2 => {
            let f = eval_in(&args[0], locals, board, room)?;
            let r = eval_in(&args[1], locals, board, room)?;
            ops::cell_at(&f, &r, board)
        }
        _ => return Err(Unfixed::State),
    };
    if let Value::List(items) = &v {
        *room = room.checked_sub(items.len()).ok_or(Unfixed::TooLarge)?;
    }
    Ok(v)
}

impl Ctx<'_> {
    /// Reports a value that should be fixed before play: `d` says why it must be; a value
    /// that is too large is reported as such instead.
    pub fn not_fixed(&mut self, why: Unfixed, d: Diagnostic) {
        let d = match why {
            Unfixed::State => d,
            Unfixed::TooLarge => Diagnostic::error(
                "muster::limit",
                d.span,
                format!("this value holds more than {MAX_FIXED_ITEMS} items"),
            )
            .label("too large")
            .help("a value fixed before play (a seat attribute, a region, a deck loop) must be smaller"),
        };
        self.error(d);
    }
}
