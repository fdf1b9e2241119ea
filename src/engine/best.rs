//! The items of a collection whose key is the greatest (or the least), each key computed
//! once, when the engine is built.
//!
//! The rules pick the best of a collection by comparing each item's key with the greatest
//! key: `[p in seats where f(p) == max q in seats: f(q)]`. Written so, every key is
//! computed twice, once for the greatest (remembered for the query or the expression, see
//! `memo.rs`) and once again for the item compared with it. Where a comprehension's
//! condition is its item's key compared for equality with the `max` (or `min`) of the same
//! key over the same collection (the same expressions, the locals they bind aside), and the
//! aggregate reads nothing of the item, the comprehension becomes an `Expr::Best`: the
//! collection walked once, each key computed once, and the items whose key equals the best
//! kept, in order (`keep`). It gives the list the comprehension gives. Both evaluators run
//! the rules as rewritten and make the list by `keep` (the plans with the walk and the key
//! compiled), so they compute and charge the same.

use super::hoist::put;
use super::pool;
use super::reuse::canonical;
use crate::ir::{ops, Agg, BinOp, Clause, Expr, Game, Stmt, Value};

/// Every comprehension of that form in the rules rewritten (see the module).
pub(super) fn rewrite(game: &mut Game) {
    each_expr(game, &mut in_expr);
}

/// How many comprehensions the rules as rewritten take as `Expr::Best`.
pub(super) fn count(game: &Game) -> usize {
    fn within(e: &Expr) -> usize {
        let mut n = usize::from(matches!(e, Expr::Best(..)));
        e.each_child(&mut |c| n += within(c));
        n
    }
    let mut n = 0;
    each_expr(&mut game.clone(), &mut |e| n += within(e));
    n
}

/// `f` on each expression of the rules a best may stand in: in the statements, the
/// actions' clauses and the end rules.
fn each_expr(game: &mut Game, f: &mut dyn FnMut(&mut Expr)) {
    for list in game.bodies_mut() {
        in_stmts(list, f);
    }
    // A `do`'s statements are among `bodies_mut`'s.
    let clauses = game.actions.iter_mut().flat_map(|a| &mut a.clauses);
    clauses.filter_map(Clause::expr_mut).for_each(&mut *f);
    let end = &mut game.end;
    for (who, when) in &mut end.wins {
        f(who);
        f(when);
    }
    end.draws.iter_mut().for_each(&mut *f);
    end.stuck_if.iter_mut().for_each(|(c, _)| f(c));
    end.score.iter_mut().for_each(f);
}

fn in_stmts(list: &mut [Stmt], f: &mut dyn FnMut(&mut Expr)) {
    for st in list {
        st.each_expr_mut(f);
        st.each_body_mut(&mut |b| in_stmts(b, f));
    }
}

/// `e` with the comprehensions in it rewritten, the innermost first.
fn in_expr(e: &mut Expr) {
    e.each_child_mut(&mut in_expr);
    if let Some(best) = best_of(e) {
        *e = best;
    }
}

/// `e` as an `Expr::Best`, if it is a comprehension of that form (see the module).
fn best_of(e: &Expr) -> Option<Expr> {
    let Expr::Comprehension(x, coll, Some(cond)) = e else {
        return None;
    };
    let Expr::Binary(BinOp::Eq, a, b) = &**cond else {
        return None;
    };
    let (key, aggregate) = match (&**a, &**b) {
        (key, agg @ Expr::Agg(..)) | (agg @ Expr::Agg(..), key) => (key, agg),
        _ => return None,
    };
    let Expr::Agg(agg @ (Agg::Max | Agg::Min), y, over, of) = aggregate else {
        return None;
    };
    // The best must be the same for every item, and of the same collection and key.
    if over.reads_local(*x) || of.reads_local(*x) || canonical(coll) != canonical(over) {
        return None;
    }
    let mut theirs = (**of).clone();
    put(&mut theirs, *y, &Expr::Local(*x));
    if canonical(key) != canonical(&theirs) {
        return None;
    }
    Some(Expr::Best(*agg, *x, coll.clone(), Box::new(key.clone())))
}

/// The list an `Expr::Best` gives (see the module), for both evaluators: the items `walk`
/// hands on, each put in local `slot` for `key` to compute its key, each charged as the
/// walk and the key charge them. The best is the aggregate's number (0 for none), and an
/// item is kept where its key is that number, as `key == max y in coll: key(y)` judges
/// it.
#[inline]
pub(super) fn keep(
    a: Agg,
    slot: usize,
    l: &mut [Value],
    walk: impl FnOnce(&mut [Value], &mut dyn FnMut(Value, &mut [Value]) -> bool),
    key: impl Fn(&mut [Value]) -> Value,
) -> Value {
    let (mut items, mut keys) = (pool::take(), pool::take());
    let mut acc: Option<i64> = None;
    walk(l, &mut |v, l| {
        pool::assign(&mut l[slot], &v);
        let k = key(l);
        acc = Some(ops::aggregate(a, acc, k.as_int()));
        // Only a number can equal the best, a number.
        keys.push(match k {
            Value::Int(n) => Value::Int(n),
            other => {
                pool::recycle(other);
                Value::None
            }
        });
        items.push(v);
        true
    });
    let best = Value::Int(acc.unwrap_or(0));
    let mut out = pool::take();
    for (v, k) in items.drain(..).zip(keys.drain(..)) {
        if k == best {
            out.push(v);
        } else {
            pool::recycle(v);
        }
    }
    pool::give(items);
    pool::give(keys);
    Value::List(out)
}
