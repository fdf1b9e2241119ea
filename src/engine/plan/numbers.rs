//! Numbers compiled as numbers (`number`): the operands of arithmetic and the bodies of
//! aggregates (`sum`, `max`, `min`) made of closures that give an `i64` where `get` would
//! make a value of each node and the node above read its number out of it. A node's
//! number is the one `Value::as_int` reads from the value `get` makes (anything but a
//! number or a truth counts 0, as arithmetic counts it), and each node is charged as
//! `get` charges it: a step, and none once the budget is spent (then its value would be
//! `none`, whose number is 0).

use super::*;

/// A number, as `get(e).as_int()` gives it (see the module).
pub(crate) type Num = Box<dyn Fn(&Eval, &mut [Value]) -> i64 + Send + Sync>;

/// `e`'s number (see the module): arithmetic, aggregates, `size`, `if` between numbers,
/// constants, locals and short reads of numbers compiled as numbers, anything else (or
/// a node remembered within a query) as `get` makes it.
pub(super) fn number(cx: &mut Cx, e: &Expr) -> Num {
    if cx.remembered(e) {
        return of_value(get(cx, e));
    }
    if let Some(n) = computed(cx, e) {
        return charged(n);
    }
    match e {
        // A definition's argument computed once; the body's number is the node's, as
        // `get` makes it.
        Expr::Bind(slot, v, body) => {
            let (slot, v, body) = (*slot as usize, get(cx, v), number(cx, body));
            Box::new(move |ev, l| {
                if !budget::charge(1) {
                    return 0;
                }
                bind(&v, slot, ev, l);
                body(ev, l)
            })
        }
        Expr::Const(v) if !v.owns_heap() => {
            let n = v.as_int();
            Box::new(move |_, _| if budget::charge(1) { n } else { 0 })
        }
        Expr::Local(slot) => {
            let slot = *slot as usize;
            Box::new(move |_, l| {
                if !budget::charge(1) {
                    return 0;
                }
                match &l[slot] {
                    // A list's copy is charged its length, as `get` charges it.
                    Value::List(items) => {
                        budget::list(items.len());
                        0
                    }
                    v => v.as_int(),
                }
            })
        }
        Expr::If(c, a, b) => {
            let (c, a, b) = (truth(cx, c), number(cx, a), number(cx, b));
            Box::new(move |ev, l| {
                if !budget::charge(1) {
                    return 0;
                }
                if c(ev, l) {
                    a(ev, l)
                } else {
                    b(ev, l)
                }
            })
        }
        _ => match reads::int(cx, e) {
            Some(read) => Box::new(move |ev, l| match read(ev, l) {
                Ok(n) => n,
                Err(v) => {
                    let n = v.as_int();
                    pool::recycle(v);
                    n
                }
            }),
            None => of_value(get(cx, e)),
        },
    }
}

/// `e` compiled as a number if it always gives one (arithmetic, an aggregate, `size`),
/// not remembered within a query: what `get` makes `Value::Int` of. Its node's own step
/// is left to the caller (`charged`, or `get`'s `node`).
pub(super) fn computed(cx: &mut Cx, e: &Expr) -> Option<Num> {
    if cx.remembered(e) {
        return None;
    }
    computed_node(cx, e)
}

/// `computed` of a node, remembered or not (see `get_node`).
pub(super) fn computed_node(cx: &mut Cx, e: &Expr) -> Option<Num> {
    Some(match e {
        Expr::Binary(
            op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem),
            a,
            b,
        ) => {
            let (op, a, b) = (*op, number(cx, a), number(cx, b));
            Box::new(move |ev, l| {
                let x = a(ev, l);
                let y = b(ev, l);
                ops::arithmetic(op, x, y)
            })
        }
        Expr::Agg(agg, slot, coll, body) => aggregate(cx, *agg, *slot, coll, body),
        // `size`: the items walked and counted, without a list.
        Expr::Call(Builtin::Size, args) => {
            let count = counter(cx, &args[0]);
            Box::new(move |ev, l| count(ev, l, i64::MAX))
        }
        _ => return None,
    })
}

/// A node's number with its step charged first (see `computed`).
fn charged(n: Num) -> Num {
    Box::new(move |ev, l| if budget::charge(1) { n(ev, l) } else { 0 })
}

/// A number made of a value `get` makes.
fn of_value(g: Get) -> Num {
    Box::new(move |ev, l| {
        let v = g(ev, l);
        let n = v.as_int();
        pool::recycle(v);
        n
    })
}

/// What an aggregate counts or adds up for each item.
enum Body {
    Count(Cond),
    Number(Num),
}

/// An aggregate's items, as `eval` walks them (its node's step is the caller's); 0 for
/// none.
fn aggregate(cx: &mut Cx, agg: Agg, slot: u16, coll: &Expr, body: &Expr) -> Num {
    let test = (agg == Agg::Count)
        .then(|| item_tests::ItemTest::new(slot as usize, body))
        .flatten();
    let seats = matches!(coll, Expr::Seats) && !cx.remembered(coll) && test.is_none();
    let (slot, coll) = (slot as usize, each(cx, coll));
    let body = match agg {
        Agg::Count => Body::Count(truth(cx, body)),
        _ => Body::Number(number(cx, body)),
    };
    // Over the seats still in the game (`max q in seats: q.points`): one loop.
    if seats {
        return Box::new(move |ev, l| {
            let mut acc: Option<i64> = None;
            each_seat(ev, l, slot, |_, l| {
                let n = match &body {
                    Body::Count(counts) => counts(ev, l) as i64,
                    Body::Number(value) => value(ev, l),
                };
                acc = Some(ops::aggregate(agg, acc, n));
                true
            });
            acc.unwrap_or(0)
        });
    }
    Box::new(move |ev, l| {
        let mut acc: Option<i64> = None;
        // A body that compares the item's attributes (`item_tests.rs`): judged in place.
        let test = test.as_ref().filter(|t| t.ready(l));
        coll(ev, l, &mut |v, l| {
            let n = match test.and_then(|t| t.judge(ev, l, &v)) {
                Some(t) => {
                    pool::recycle(v);
                    t as i64
                }
                None => {
                    pool::set(&mut l[slot], v);
                    match &body {
                        Body::Count(counts) => counts(ev, l) as i64,
                        Body::Number(value) => value(ev, l),
                    }
                }
            };
            acc = Some(ops::aggregate(agg, acc, n));
            true
        });
        acc.unwrap_or(0)
    })
}
