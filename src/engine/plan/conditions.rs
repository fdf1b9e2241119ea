//! Conditions compiled (`truth`): `and`, `or`, `not`, comparisons, `in` and quantifiers
//! judged without going back through the evaluator's match, and numbers compared as
//! numbers (`int`, `numbers`).

use super::*;
use crate::engine::state::NONE;

/// `e` compiled to give a number where it can (see `Int`): a short read or `distance`,
/// charged as `get` charges them. `None` for anything else, or a remembered node.
pub(super) fn int(cx: &mut Cx, e: &Expr) -> Option<Int> {
    if cx.remembered(e) {
        return None;
    }
    if let Some(read) = reads::int(cx, e) {
        return Some(read);
    }
    // Arithmetic, an aggregate, `size`: always a number (`numbers.rs`).
    if let Some(n) = numbers::computed(cx, e) {
        return Some(Box::new(move |ev, l| {
            if budget::charge(1) {
                Ok(n(ev, l))
            } else {
                Err(Value::None)
            }
        }));
    }
    // Two locals (the common case): read where they stand (`locals_distance`).
    if let Some((a, b)) = local_distance(cx, e) {
        return Some(Box::new(move |ev, l| locals_distance(ev, l, a, b)));
    }
    let Expr::Call(Builtin::Distance, args) = e else {
        return None;
    };
    let (x, y) = (Arg::new(cx, &args[0]), Arg::new(cx, &args[1]));
    Some(Box::new(move |ev, l| distance(ev, l, &x, &y)))
}

/// `distance(x, y)` of locals `a` and `b` as `int` computes it: two cells read where they
/// stand, the node and both locals charged at once; anything else as `distance`
/// computes it.
#[inline(always)]
fn locals_distance(ev: &Eval, l: &mut [Value], a: usize, b: usize) -> Result<i64, Value> {
    if let (Value::Cell(p), Value::Cell(q)) = (&l[a], &l[b]) {
        return if budget::charge(3) {
            Ok(geometry::distance(&ev.eng.game.board, *p, *q))
        } else {
            Err(Value::None)
        };
    }
    not_cells(ev, l, a, b)
}

/// `locals_distance` where the locals are not two cells: out of the way of the common case.
#[cold]
#[inline(never)]
fn not_cells(ev: &Eval, l: &mut [Value], a: usize, b: usize) -> Result<i64, Value> {
    distance(ev, l, &Arg::Local(a), &Arg::Local(b))
}

/// The locals of `distance(x, y)` where `e` is that call of two locals (none of its nodes
/// remembered).
fn local_distance(cx: &Cx, e: &Expr) -> Option<(usize, usize)> {
    match e {
        Expr::Call(Builtin::Distance, args) if !cx.remembered(e) => match (&args[0], &args[1]) {
            (x @ Expr::Local(p), y @ Expr::Local(q)) if !cx.remembered(x) && !cx.remembered(y) => {
                Some((*p as usize, *q as usize))
            }
            _ => None,
        },
        _ => None,
    }
}

/// `distance(x, y)` as `get` computes it: the node's step, then each operand's.
pub(super) fn distance(ev: &Eval, l: &mut [Value], x: &Arg, y: &Arg) -> Result<i64, Value> {
    if !budget::charge(1) {
        return Err(Value::None);
    }
    match (x.cell(ev, l), y.cell(ev, l)) {
        (Some(a), Some(c)) => Ok(geometry::distance(&ev.eng.game.board, a, c)),
        _ => Err(Value::None),
    }
}

/// `a op b` where one side is a number `int` computes and the other another, a local or
/// a constant: compared as numbers when both are, else as `ops::compare` compares the
/// values. The operands are computed and charged in the order of the closure `truth`
/// makes otherwise (a computed operand before one seen in place).
pub(super) fn numbers(cx: &mut Cx, op: BinOp, a: &Expr, b: &Expr) -> Option<Cond> {
    let in_place =
        |e: &Expr| matches!(e, Expr::Local(_)) || matches!(e, Expr::Const(v) if !v.owns_heap());
    let judged = move |x: Result<i64, Value>, y: &Value| match (x, y) {
        (Ok(p), Value::Int(q)) => ops::ordered(op, p.cmp(q)),
        (x, y) => {
            let x = number(x);
            let t = compared(op, &x, y);
            pool::recycle(x);
            t
        }
    };
    if in_place(b) && !in_place(a) {
        let (a, b) = (int(cx, a)?, Arg::new(cx, b));
        return Some(Box::new(move |ev, l| {
            if !budget::charge(1) {
                return false;
            }
            let x = a(ev, l);
            judged(x, b.seen(l))
        }));
    }
    // `3 < x` as `x > 3`: the computed side first either way.
    if in_place(a) && !in_place(b) {
        return numbers(cx, mirrored(op), b, a);
    }
    if in_place(a) || in_place(b) {
        return None;
    }
    // The distance between two cells in locals, worked out here (`distance(a, b) <=
    // a.piece.reach`): as `int` works it out, without a call.
    if let Some((p, q)) = local_distance(cx, a) {
        let b = int(cx, b)?;
        return Some(Box::new(move |ev, l| {
            if !budget::charge(1) {
                return false;
            }
            let d = locals_distance(ev, l, p, q);
            let k = b(ev, l);
            both(op, d, k)
        }));
    }
    let (a, b) = (int(cx, a)?, int(cx, b)?);
    Some(Box::new(move |ev, l| {
        if !budget::charge(1) {
            return false;
        }
        let x = a(ev, l);
        let y = b(ev, l);
        both(op, x, y)
    }))
}

/// `x op y` for two numbers computed (`int`): compared as numbers, else as values.
#[inline(always)]
fn both(op: BinOp, x: Result<i64, Value>, y: Result<i64, Value>) -> bool {
    match (x, y) {
        (Ok(p), Ok(q)) => ops::ordered(op, p.cmp(&q)),
        (x, y) => {
            let (x, y) = (number(x), number(y));
            let t = compared(op, &x, &y);
            pool::recycle(x);
            pool::recycle(y);
            t
        }
    }
}

/// A number computed (`int`) as a value: the number, or what was found in its place.
#[inline(always)]
fn number(r: Result<i64, Value>) -> Value {
    r.map_or_else(|v| v, Value::Int)
}

/// The comparison that holds of `b` and `a` where `op` holds of `a` and `b`.
pub(super) fn mirrored(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        other => other,
    }
}

/// `a == b` or `a != b` (`op`) of two values of enumerations (an attribute and a name it
/// may have, or two attributes), for the callers that judge it before anything else,
/// where it is the commonest comparison: `None` for other values or operators.
#[inline(always)]
pub(super) fn enums_compared(op: BinOp, a: &Value, b: &Value) -> Option<bool> {
    match (a, b, op) {
        (Value::Enum(e, x), Value::Enum(f, y), BinOp::Eq | BinOp::Ne) => {
            Some((e == f && x == y) == (op == BinOp::Eq))
        }
        _ => None,
    }
}

/// `ops::compare`, with the comparisons the rules make most (two cells, numbers, seats
/// or phases, and nothing against anything) judged here rather than in a call.
#[inline(always)]
pub(super) fn compared(op: BinOp, x: &Value, y: &Value) -> bool {
    match (x, y) {
        (Value::Cell(p), Value::Cell(q)) => ops::ordered(op, p.cmp(q)),
        (Value::Int(p), Value::Int(q)) => ops::ordered(op, p.cmp(q)),
        // Phases are equal or not (`phase != p`).
        (Value::Phase(p), Value::Phase(q)) if matches!(op, BinOp::Eq | BinOp::Ne) => {
            (p == q) == (op == BinOp::Eq)
        }
        (Value::Seat(p), Value::Seat(q)) => ops::ordered(op, p.cmp(q)),
        // Names of one kind or two (`x.piece.kind == a`) are equal or not.
        (Value::Enum(e, p), Value::Enum(f, q)) if matches!(op, BinOp::Eq | BinOp::Ne) => {
            (e == f && p == q) == (op == BinOp::Eq)
        }
        // Nothing (an empty cell's owner, a variable not set) against anything: equal
        // only to nothing, and unordered, as `ops::compare` has them.
        (Value::None, y) | (y, Value::None) => match op {
            BinOp::Eq => matches!(y, Value::None),
            BinOp::Ne => !matches!(y, Value::None),
            _ => false,
        },
        _ => ops::compare(op, x, y),
    }
}

/// `phase == p` or `phase != p` (`op`), either way round, for `p` a phase written in the
/// rules: the phase's number, and whether the two are to be equal.
fn phase_against(cx: &Cx, op: BinOp, a: &Expr, b: &Expr) -> Option<(u16, bool)> {
    if !matches!(op, BinOp::Eq | BinOp::Ne) || cx.remembered(a) || cx.remembered(b) {
        return None;
    }
    match (a, b) {
        (Expr::CurrentPhase, Expr::Const(Value::Phase(p)))
        | (Expr::Const(Value::Phase(p)), Expr::CurrentPhase) => Some((*p, op == BinOp::Eq)),
        _ => None,
    }
}

/// A kind of operand seen where it stands (a local, `me`, a variable of the game, a
/// constant: `reads::Operand`), known when the condition is compiled: its comparisons are
/// compiled for the pair of kinds (`spots`), not told apart each time they are judged.
trait Seen: Send + Sync + 'static {
    /// Whether the operand is `me`: a pair with `me` in it compares two seats as seats
    /// before anything else, where `me` would otherwise be made a value.
    const ME: bool = false;

    /// The value the operand holds (`me`: the seat, made by the caller).
    fn value<'v>(&'v self, ev: &'v Eval, l: &'v [Value], me: &'v Value) -> &'v Value;

    /// The seat the operand holds, if it holds one.
    #[inline(always)]
    fn seat(&self, ev: &Eval, l: &[Value]) -> Option<u8> {
        match *self.value(ev, l, &NO_VALUE) {
            Value::Seat(p) => Some(p),
            _ => None,
        }
    }
}

struct InLocal(usize);
struct IsMe;
struct InGlobal(usize);
struct IsConst(Value);

impl Seen for InLocal {
    #[inline(always)]
    fn value<'v>(&'v self, _: &'v Eval, l: &'v [Value], _: &'v Value) -> &'v Value {
        &l[self.0]
    }
}

impl Seen for IsMe {
    const ME: bool = true;

    #[inline(always)]
    fn value<'v>(&'v self, _: &'v Eval, _: &'v [Value], me: &'v Value) -> &'v Value {
        me
    }

    #[inline(always)]
    fn seat(&self, ev: &Eval, _: &[Value]) -> Option<u8> {
        Some(ev.me)
    }
}

impl Seen for InGlobal {
    #[inline(always)]
    fn value<'v>(&'v self, ev: &'v Eval, _: &'v [Value], _: &'v Value) -> &'v Value {
        &ev.s.globals[self.0]
    }
}

impl Seen for IsConst {
    #[inline(always)]
    fn value<'v>(&'v self, _: &'v Eval, _: &'v [Value], _: &'v Value) -> &'v Value {
        &self.0
    }
}

/// `x op y` for two operands seen where they stand (see `truth_node`), compiled for their
/// kinds; `None` for two constants, or an operand of another kind (`next(p)`, `me.far`).
fn spots(op: BinOp, x: reads::Operand, y: reads::Operand) -> Option<Cond> {
    use reads::Operand as O;
    /// The pair's closure for `x`'s kind and `y`'s.
    fn with<X: Seen>(op: BinOp, x: X, y: O) -> Option<Cond> {
        Some(match y {
            O::Local(b) => pair(op, x, InLocal(b)),
            O::Me => pair(op, x, IsMe),
            O::Global(b) => pair(op, x, InGlobal(b)),
            O::Const(c) => pair(op, x, IsConst(c)),
            O::Turn { .. } | O::Hop(..) => return None,
        })
    }
    match x {
        O::Local(a) => with(op, InLocal(a), y),
        O::Me => with(op, IsMe, y),
        O::Global(a) => with(op, InGlobal(a), y),
        O::Const(_) if matches!(y, O::Const(_)) => None,
        O::Const(c) => with(op, IsConst(c), y),
        O::Turn { .. } | O::Hop(..) => None,
    }
}

/// `spots` for one pair of kinds: the node and both operands charged at once, each seen
/// where it stands (a list charged its length, as `get` charges it), compared as
/// `compared` compares them; with `me` in the pair, two seats compared as seats first.
fn pair<X: Seen, Y: Seen>(op: BinOp, x: X, y: Y) -> Cond {
    Box::new(move |ev, l| {
        if !budget::charge(3) {
            return false;
        }
        if !(X::ME || Y::ME) {
            let (p, q) = (x.value(ev, l, &NO_VALUE), y.value(ev, l, &NO_VALUE));
            return listed(p) && listed(q) && compared(op, p, q);
        }
        match (x.seat(ev, l), y.seat(ev, l)) {
            (Some(p), Some(q)) => ops::ordered(op, p.cmp(&q)),
            _ => not_seats(op, &x, &y, ev, l),
        }
    })
}

/// `pair` with `me` in it, where the two are not both seats.
#[inline(never)]
fn not_seats<X: Seen, Y: Seen>(op: BinOp, x: &X, y: &Y, ev: &Eval, l: &[Value]) -> bool {
    let me = Value::Seat(ev.me);
    let (p, q) = (x.value(ev, l, &me), y.value(ev, l, &me));
    listed(p) && listed(q) && compared(op, p, q)
}

/// Whether a condition holds, as `Eval::truth` judges it.
pub(super) fn truth(cx: &mut Cx, e: &Expr) -> Cond {
    if cx.remembered(e) {
        let e = cx.copy(e);
        return Box::new(move |ev, l| ev.truth(&e, l));
    }
    truth_node(cx, e)
}

/// `truth` of a node, remembered or not (see `get_node`).
pub(super) fn truth_node(cx: &mut Cx, e: &Expr) -> Cond {
    match e {
        // A definition's argument computed once, as `Eval::truth` judges it.
        Expr::Bind(slot, v, body) => {
            let (slot, v, body) = (*slot as usize, get(cx, v), truth(cx, body));
            Box::new(move |ev, l| {
                if !budget::charge(1) {
                    return false;
                }
                bind(&v, slot, ev, l);
                body(ev, l)
            })
        }
        Expr::Binary(op @ (BinOp::And | BinOp::Or), ..) => chain(cx, *op == BinOp::And, e),
        Expr::Binary(
            op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge),
            a,
            b,
        ) => {
            // `size(coll) > 0` and the like: the evaluator walks `coll` only until the
            // answer is known (see `Eval::size_against`).
            if let Some((size, coll, k, op)) = crate::engine::eval::size_against_number(*op, a, b) {
                if cx.remembered(size) {
                    let e = cx.copy(e);
                    return Box::new(move |ev, l| ev.truth(&e, l));
                }
                let (count, enough) = (counter(cx, coll), k.saturating_add(1));
                return Box::new(move |ev, l| {
                    // The comparison's step and its two operands', as `eval` charges them.
                    if !budget::charge(3) {
                        return false;
                    }
                    let n = if enough > 0 { count(ev, l, enough) } else { 0 };
                    ops::ordered(op, n.cmp(&k))
                });
            }
            // The phase against a phase written in the rules (`phase != main`): the node
            // and both operands charged at once, as `eval` charges them.
            if let Some((phase, eq)) = phase_against(cx, *op, a, b) {
                return Box::new(move |ev, _| budget::charge(3) && (ev.s.phase == phase) == eq);
            }
            // A short read compared with a local, `me`, a variable, a constant or a read of
            // one hop: one closure.
            if let Some(j) = reads::judged(cx, e) {
                return j.alone();
            }
            // Numbers compared as numbers (`distance(a, b) <= 10`).
            if let Some(c) = numbers(cx, *op, a, b) {
                return c;
            }
            // Two of a local, `me`, a variable of the game and a constant, either way round
            // (`x != dest`, `target != me`, `me == leader`, `suit != last_suit`, `dest !=
            // none`): one closure for the pair of kinds (`spots`).
            if let (Some(x), Some(y)) = (reads::operand(a), reads::operand(b)) {
                if let Some(c) = spots(*op, x, y) {
                    return c;
                }
            }
            let (op, a, b) = (*op, Arg::new(cx, a), Arg::new(cx, b));
            Box::new(move |ev, l| {
                if !budget::charge(1) {
                    return false;
                }
                // A computed operand first, so that the other can be seen in place.
                match (&a, &b) {
                    (Arg::Get(a), Arg::Get(b)) => {
                        // Each made where it stays: a pair would copy them again.
                        let x = a(ev, l);
                        let y = b(ev, l);
                        let t = compared(op, &x, &y);
                        pool::recycle(x);
                        pool::recycle(y);
                        t
                    }
                    (Arg::Get(a), b) => {
                        let x = a(ev, l);
                        let t = compared(op, &x, b.seen(l));
                        pool::recycle(x);
                        t
                    }
                    (a, Arg::Get(b)) => {
                        let y = b(ev, l);
                        let t = compared(op, a.seen(l), &y);
                        pool::recycle(y);
                        t
                    }
                    (a, b) => compared(op, a.seen(l), b.seen(l)),
                }
            })
        }
        // As `eval` judges `in`: a step for the node, then the items until one is equal.
        Expr::Binary(op @ (BinOp::In | BinOp::NotIn), a, b) => {
            // A search of a list a `let` never made: the cells on its lines, charged as the
            // search of the list in place below (`line_lets.rs`).
            let line = match **b {
                Expr::Local(s) => cx.line_let(s),
                _ => None,
            };
            if let Some(line) = line {
                let (item, want) = (Arg::new(cx, a), *op == BinOp::In);
                return Box::new(move |ev, l| {
                    if !budget::charge(1) {
                        return false;
                    }
                    let (found, looked) = match &item {
                        Arg::Get(g) => {
                            let x = g(ev, l);
                            let found = line.searched(ev, l, &x);
                            pool::recycle(x);
                            found
                        }
                        a => line.searched(ev, l, a.seen(l)),
                    };
                    let found = budget::charge(looked) && found;
                    found == want
                });
            }
            // A cell among a piece's destinations or attacks: its operands read compiled,
            // the pattern asked as `Eval::find` asks it (`Eval::reaches`).
            if let Expr::Call(call @ (Builtin::Destinations | Builtin::Attacks), args) = &**b {
                if cx.remembered(b) {
                    let e = cx.copy(e);
                    return Box::new(move |ev, l| ev.truth(&e, l));
                }
                let (attacks, want) = (*call == Builtin::Attacks, *op == BinOp::In);
                // Operands held in locals (the common case) are seen where they stand.
                let (item, from, pat) = (
                    Arg::new(cx, a),
                    Arg::new(cx, &args[0]),
                    Arg::new(cx, &args[1]),
                );
                // Anything but a cell is looked for as `eval` looks (`Eval::member`).
                let coll = cx.copy(b);
                return Box::new(move |ev, l| {
                    // The node's step; then as `Eval::find` charges: the call's, its two
                    // arguments', the cells looked at.
                    if !budget::charge(1) {
                        return false;
                    }
                    let x = item.with(ev, l, |x| match *x {
                        Value::Cell(target) => Ok(target),
                        ref other => Err(pool::dup(other)),
                    });
                    let found = match x {
                        Ok(target) => {
                            budget::charge(1) && {
                                let c = from.cell(ev, l);
                                let p = pat.with(ev, l, |v| match *v {
                                    Value::Pattern(p) => Some(p),
                                    _ => None,
                                });
                                match (c, p) {
                                    (Some(c), Some(p)) => ev.reaches(attacks, c, p, target),
                                    _ => false,
                                }
                            }
                        }
                        Err(x) => {
                            let found = ev.member(&x, &coll, l);
                            pool::recycle(x);
                            found
                        }
                    };
                    found == want
                });
            }
            // A part computed once a walk of a loop (`engine/once.rs`): searched where
            // its local holds it, as `Eval::find` searches it.
            if let Expr::Once(flag, slot, part) = &**b {
                let at = (*flag as usize, *slot as usize);
                let (item, part, want) = (get(cx, a), get(cx, part), *op == BinOp::In);
                return Box::new(move |ev, l| {
                    if !budget::charge(1) {
                        return false;
                    }
                    let x = item(ev, l);
                    let found = ev.in_once(&x, at, |l| part(ev, l), l);
                    pool::recycle(x);
                    found == want
                });
            }
            let want = *op == BinOp::In;
            // A short read in a list written in the rules: one closure.
            if let Some(j) = reads::judged(cx, e) {
                return j.alone();
            }
            // A cell in a region: its place on the region's list looked up, charged as the
            // walk up to it would be (see `Engine::region_place`).
            if let Expr::Region(r, seat) = &**b {
                let (r, item) = (*r as usize, Arg::new(cx, a));
                let seat = seat.as_deref().map(|p| SeatArg::new(cx, p));
                return Box::new(move |ev, l| {
                    if !budget::charge(1) {
                        return false;
                    }
                    // Only a cell can be on a region's list.
                    let x = item.cell(ev, l).map_or(Value::None, Value::Cell);
                    let list = seat_or_first(&seat, ev, l) as usize;
                    let found = match ev.eng.region_place(r, list, &x) {
                        Some((found, looked)) => budget::charge(looked) && found,
                        None => false,
                    };
                    found == want
                });
            }
            let walked = {
                let (item, coll) = (get(cx, a), each(cx, b));
                move |ev: &Eval, l: &mut [Value]| {
                    if !budget::charge(1) {
                        return false;
                    }
                    let item = item(ev, l);
                    let mut found = false;
                    coll(ev, l, &mut |v, _| {
                        found = v == item;
                        pool::recycle(v);
                        !found
                    });
                    pool::recycle(item);
                    found == want
                }
            };
            // A list in a local or written in the rules is searched where it stands, as
            // `Eval::find` does (a local that is no list is walked).
            let list = match &**b {
                Expr::Local(slot) => Arg::Local(*slot as usize),
                Expr::Const(v @ Value::List(_)) => Arg::Const(v.clone()),
                _ => return Box::new(walked),
            };
            let item = Arg::new(cx, a);
            Box::new(move |ev, l| {
                let in_place = |items: &Value, x: &Value| match items {
                    Value::List(items) => crate::engine::eval::among(items, x),
                    _ => false,
                };
                if !matches!(list.seen_uncharged(l), Value::List(_)) {
                    return walked(ev, l);
                }
                if !budget::charge(1) {
                    return false;
                }
                let found = match &item {
                    Arg::Get(g) => {
                        let x = g(ev, l);
                        let found = in_place(list.seen_uncharged(l), &x);
                        pool::recycle(x);
                        found
                    }
                    a => in_place(list.seen_uncharged(l), a.seen(l)),
                };
                found == want
            })
        }
        Expr::Not(x) => {
            // `not` of a short read: one closure.
            if let Some(j) = reads::judged(cx, e) {
                return j.alone();
            }
            let x = truth(cx, x);
            Box::new(move |ev, l| budget::charge(1) && !x(ev, l))
        }
        // As `eval` judges a quantifier: a step for the node, then the items.
        Expr::Quant(q, slot, coll, body) => {
            // Over a walk of cells: each written into the local in place.
            struct Quantified<'e>(Quant, usize, &'e Expr);
            impl CellsTo<Cond> for Quantified<'_> {
                fn to<C: Cells>(self, cx: &mut Cx, cells: C) -> Cond {
                    // A walk of occupied cells meets no empty one to pass over.
                    let probe = (cells.gives_empty())
                        .then(|| EmptyProbe::new(cx, self.1 as u16, self.2))
                        .flatten();
                    let (q, slot, body) = (self.0, self.1, truth(cx, self.2));
                    // Two closures, not one generic over the probe: made one, the walks
                    // with no probe paid for it (2.5% and 1.4% more instructions on two
                    // shipped games).
                    let Some(probe) = probe else {
                        return Box::new(move |ev, l| {
                            if !budget::charge(1) {
                                return false;
                            }
                            let mut result = q != Quant::Any;
                            cells.walk(ev, l, &mut |c, l: &mut [Value]| {
                                pool::set(&mut l[slot], Value::Cell(c));
                                let t = body(ev, l);
                                ops::quantify(q, t, &mut result)
                            });
                            result
                        });
                    };
                    Box::new(move |ev, l| {
                        if !budget::charge(1) {
                            return false;
                        }
                        let mut result = q != Quant::Any;
                        let mut empty = Empty::Untried;
                        cells.walk(ev, l, &mut |c, l: &mut [Value]| {
                            if ev.s.cells[c as usize] == NONE {
                                match probe.judge(ev, l, slot, c, &mut empty) {
                                    Some(false) => return false,
                                    Some(true) => return ops::quantify(q, false, &mut result),
                                    None => {}
                                }
                            }
                            pool::set(&mut l[slot], Value::Cell(c));
                            let t = body(ev, l);
                            ops::quantify(q, t, &mut result)
                        });
                        result
                    })
                }
            }
            if let Some(cond) = masks::quantified(cx, *q, *slot, coll, body) {
                return cond;
            }
            if let Ok(cond) = with_cells(cx, coll, Quantified(*q, *slot as usize, body)) {
                return cond;
            }
            if let Some(cond) = runs_by_size(cx, *q, *slot, coll, body) {
                return cond;
            }
            // Over a list in a local: walked in place (see `local_items`).
            if let Expr::Local(from) = **coll {
                let (q, slot, body) = (*q, *slot as usize, truth(cx, body));
                let (from, domain) = (from as usize, (**coll).clone());
                return Box::new(move |ev, l| {
                    if !budget::charge(1) {
                        return false;
                    }
                    let mut result = q != Quant::Any;
                    local_items(ev, l, (from, &domain), slot, |l| {
                        let t = body(ev, l);
                        ops::quantify(q, t, &mut result)
                    });
                    result
                });
            }
            let test = item_tests::ItemTest::new(*slot as usize, body);
            // Over the seats still in the game (`all p in seats: size(played(p)) == 1`):
            // one loop.
            if let (Expr::Seats, None) = (&**coll, &test) {
                if !cx.remembered(coll) {
                    let (q, slot, body) = (*q, *slot as usize, truth(cx, body));
                    return Box::new(move |ev, l| {
                        if !budget::charge(1) {
                            return false;
                        }
                        let mut result = q != Quant::Any;
                        each_seat(ev, l, slot, |_, l| {
                            let t = body(ev, l);
                            ops::quantify(q, t, &mut result)
                        });
                        result
                    });
                }
            }
            let (q, slot, coll, body) = (*q, *slot as usize, each(cx, coll), truth(cx, body));
            if let Some(test) = test {
                return Box::new(move |ev, l| {
                    if !budget::charge(1) {
                        return false;
                    }
                    let mut result = q != Quant::Any;
                    let test = test.ready(l).then_some(&test);
                    coll(ev, l, &mut |v, l| {
                        let t = match test.and_then(|t| t.judge(ev, l, &v)) {
                            Some(t) => {
                                pool::recycle(v);
                                t
                            }
                            None => {
                                pool::set(&mut l[slot], v);
                                body(ev, l)
                            }
                        };
                        ops::quantify(q, t, &mut result)
                    });
                    result
                });
            }
            Box::new(move |ev, l| {
                if !budget::charge(1) {
                    return false;
                }
                let mut result = q != Quant::Any;
                coll(ev, l, &mut |v, l| {
                    pool::set(&mut l[slot], v);
                    let t = body(ev, l);
                    ops::quantify(q, t, &mut result)
                });
                result
            })
        }
        // Any other value, judged as `truth` judges it: by its value's truthiness.
        other => {
            if let Some(j) = reads::judged(cx, other) {
                return j.alone();
            }
            let value = get(cx, other);
            Box::new(move |ev, l| {
                let v = value(ev, l);
                let t = v.truthy();
                pool::recycle(v);
                t
            })
        }
    }
}

/// The first condition of a quantifier's body over cells (the body itself, or the first
/// of its chain of `and`s), where it reads the quantifier's cell only for the piece on it
/// (`y.piece.owner == next(p) and ...`) and holds no node remembered within a query: on
/// every empty cell it reads none, so it is judged alike and charges alike. Where it is
/// false on the first empty cell a walk meets, the body is false on every empty cell, and
/// each is charged what judging it took (the chain's `and`s and that condition) without
/// being judged again: a walk along rays over empty squares (`attacks(c, lookout)`) looks
/// only at the pieces. Where it is true there, every cell is judged as usual.
struct EmptyProbe {
    first: Cond,
    /// The `and`s of the chain, charged before its first condition is judged.
    ands: u64,
}

/// What the empty cells of one walk come to (see `EmptyProbe`).
enum Empty {
    Untried,
    /// The body is false on each, for these steps.
    False(u64),
    /// Judged as every cell is.
    Judged,
}

impl EmptyProbe {
    fn new(cx: &mut Cx, slot: u16, body: &Expr) -> Option<EmptyProbe> {
        if cx.remembered(body) {
            return None;
        }
        let (mut first, mut ands) = (body, 0);
        while let Expr::Binary(BinOp::And, a, _) = first {
            if ands > 0 && cx.remembered(first) {
                return None;
            }
            ands += 1;
            first = a;
        }
        if !piece_only(cx, first, slot) {
            return None;
        }
        Some(EmptyProbe {
            first: truth(cx, first),
            ands,
        })
    }

    /// Empty cell `c` of a walk: `Some(true)` if its body is false, charged; `Some(false)`
    /// if the budget is spent; `None` if it is to be judged as usual.
    #[inline]
    fn judge(
        &self,
        ev: &Eval,
        l: &mut [Value],
        slot: usize,
        c: u16,
        empty: &mut Empty,
    ) -> Option<bool> {
        match *empty {
            Empty::False(k) => Some(budget::charge(k)),
            Empty::Judged => None,
            Empty::Untried => {
                pool::set(&mut l[slot], Value::Cell(c));
                let before = budget::left();
                let holds = (self.first)(ev, l);
                if budget::spent() {
                    return Some(false);
                }
                let took = (before - budget::left()) as u64;
                if holds {
                    // The body judges it again, charging it again.
                    budget::refund(took);
                    *empty = Empty::Judged;
                    return None;
                }
                *empty = Empty::False(self.ands + took);
                Some(budget::charge(self.ands))
            }
        }
    }
}

/// Whether `e` reads local `slot` only as the piece on its cell (`slot.piece`), and holds
/// no node remembered within a query; at least once.
fn piece_only(cx: &Cx, e: &Expr, slot: u16) -> bool {
    fn walk(cx: &Cx, e: &Expr, slot: u16, reads: &mut bool) -> bool {
        if cx.remembered(e) {
            return false;
        }
        match e {
            Expr::CellPiece(x) if matches!(**x, Expr::Local(s) if s == slot) => {
                *reads = true;
                true
            }
            Expr::Local(s) => *s != slot,
            other => {
                let mut only = true;
                other.each_child(&mut |c| only = only && walk(cx, c, slot, reads));
                only
            }
        }
    }
    let mut reads = false;
    walk(cx, e, slot, &mut reads) && reads
}

/// A quantifier over runs of cells whose body reads its run only as `size(r)` (`any r in
/// runs(cells_of(me), around): size(r) >= 4`): the runs walked as `for_each` walks them,
/// each charged to the budget, but the body judged once for each size, and every other
/// run of that size charged the steps that judgement took. `None` for another quantifier.
pub(super) fn runs_by_size(
    cx: &mut Cx,
    q: Quant,
    slot: u16,
    coll: &Expr,
    body: &Expr,
) -> Option<Cond> {
    let Expr::Call(Builtin::Runs, args) = coll else {
        return None;
    };
    if !matches!(args[1], Expr::Const(_)) || !reads_size_only(cx, body, slot) {
        return None;
    }
    let (runs, body, slot) = (Runs::new(cx, args), truth(cx, body), slot as usize);
    Some(Box::new(move |ev, l| {
        if !budget::charge(1) {
            return false;
        }
        let mut result = q != Quant::Any;
        // The sizes judged (a bit each), those the body holds for, and the steps each took.
        let (mut judged, mut holds, mut steps) = (0u64, 0u64, [0u64; 64]);
        runs.each(ev, l, &mut |(start, dir, len), l| {
            if !budget::charge(1) {
                return false;
            }
            let size = len as usize;
            let t = if size < 64 && judged & (1 << size) != 0 {
                if !budget::charge(steps[size]) {
                    return false;
                }
                holds & (1 << size) != 0
            } else {
                let before = budget::left();
                pool::set(&mut l[slot], Value::Line { start, dir, len });
                let t = body(ev, l);
                if budget::spent() {
                    return false;
                }
                if size < 64 {
                    judged |= 1 << size;
                    holds |= u64::from(t) << size;
                    steps[size] = before.abs_diff(budget::left());
                }
                t
            };
            ops::quantify(q, t, &mut result)
        });
        result
    }))
}

/// Whether `e` reads the local `slot` only as `size(slot)`, and holds no node remembered
/// within a query (whose first evaluation charges steps that later ones do not).
pub(super) fn reads_size_only(cx: &Cx, e: &Expr, slot: u16) -> bool {
    if cx.remembered(e) {
        return false;
    }
    match e {
        Expr::Call(Builtin::Size, args) if matches!(args[..], [Expr::Local(s)] if s == slot) => {
            true
        }
        Expr::Local(s) => *s != slot,
        other => {
            let mut only = true;
            other.each_child(&mut |c| only = only && reads_size_only(cx, c, slot));
            only
        }
    }
}

/// A chain of `and`s (`and` true) or of `or`s, `a and b and c`: the conditions along its
/// left spine (`(a and b) and c`), each judged with the rest of the chain in one closure
/// (`Judgement::then`: a condition on a short read is judged inside it). `eval` charges
/// every node of the spine before it judges the first condition: the first closure
/// charges them all.
pub(super) fn chain(cx: &mut Cx, and: bool, e: &Expr) -> Cond {
    let op = if and { BinOp::And } else { BinOp::Or };
    // The conditions in order; a node of the chain remembered within a query is one of
    // them, judged by the memo.
    let mut parts = Vec::new();
    let mut at = e;
    while let Expr::Binary(o, a, b) = at {
        if *o != op || (!std::ptr::eq(at, e) && cx.remembered(at)) {
            break;
        }
        parts.push(&**b);
        at = a;
    }
    parts.push(at);
    let nodes = parts.len() as u64 - 1;
    let mut rest = truth(cx, parts[0]);
    for (i, part) in parts.iter().enumerate().skip(1) {
        let charge = if i == parts.len() - 1 { nodes } else { 0 };
        let phase = match part {
            Expr::Binary(op, a, b) => phase_against(cx, *op, a, b),
            _ => None,
        };
        rest = match (reads::judged(cx, part), phase) {
            (Some(j), _) => j.then(and, charge, rest),
            // The phase against a phase written in the rules (`phase != main or ...`),
            // judged in the closure of the rest of the chain, charged as `truth_node`
            // charges it.
            (None, Some((phase, eq))) if and => phase_then::<true>(charge, (phase, eq), rest),
            (None, Some((phase, eq))) => phase_then::<false>(charge, (phase, eq), rest),
            (None, None) if and => joined::<true>(charge, truth(cx, part), rest),
            (None, None) => joined::<false>(charge, truth(cx, part), rest),
        };
    }
    rest
}

/// `first` judged before `rest` in a chain of `and`s (`AND`) or `or`s, `charge` steps
/// charged first (see `chain`).
pub(super) fn joined<const AND: bool>(charge: u64, first: Cond, rest: Cond) -> Cond {
    Box::new(move |ev, l| chained::<AND>(charge, l, |l| first(ev, l), |l| rest(ev, l)))
}

/// `phase == p` (`eq`) or `phase != p` judged before `rest` in a chain of `and`s (`AND`)
/// or `or`s, `charge` steps charged first (see `chain`).
fn phase_then<const AND: bool>(charge: u64, (phase, eq): (u16, bool), rest: Cond) -> Cond {
    Box::new(move |ev, l| {
        chained::<AND>(
            charge,
            l,
            |_| budget::charge(3) && (ev.s.phase == phase) == eq,
            |l| rest(ev, l),
        )
    })
}

/// One link of a chain of `and`s (`AND`) or `or`s: `charge` steps (none but for the
/// chain's first condition), then `first`, then `rest` if the answer is not known yet.
#[inline(always)]
pub(super) fn chained<const AND: bool>(
    charge: u64,
    l: &mut [Value],
    first: impl FnOnce(&mut [Value]) -> bool,
    rest: impl FnOnce(&mut [Value]) -> bool,
) -> bool {
    (charge == 0 || budget::charge(charge))
        && if AND {
            first(l) && rest(l)
        } else {
            first(l) || rest(l)
        }
}
