//! The parts of a loop's body that are the same for every item, computed once a walk,
//! when the engine is built.
//!
//! A named definition is written out wherever it is used, so a condition that compares
//! each item with a collection made from something fixed outside the loop (`[t in
//! occupied where foe(t) and t not in in_reach(x)]`, `x` chosen before) makes that
//! collection again for every item it judges. The state does not change while an
//! expression is evaluated, and `me` is fixed, so such a part gives the same value for
//! every item of one walk. Where a quantifier's body, an aggregate's or a comprehension's
//! condition holds a part that walks something (`memo::costly`) and reads a local, none
//! of them bound by the loop or inside it, the part becomes an `Expr::Once`: computed the
//! first time a walk asks for it (behind an `and`, it may never be), kept in a local of
//! its own, and read from there for the rest of the walk. A flag in a second local says
//! whether it is computed; a `Bind` put around the loop sets it false, so each walk
//! computes the part afresh. A part that reads no local at all is left to `memo.rs`,
//! which remembers it for a whole query. Each part gets two locals no rule uses
//! (`Game::max_locals` grows by two). Both evaluators run the rules as rewritten, so they
//! compute and charge the same.

use super::memo;
use crate::ir::{BinOp, Builtin, Clause, Expr, Game, Value};

/// Where a part computed once a walk (`Expr::Once`) stands: its flag's local and its own.
pub(crate) type At = (usize, usize);

/// Sees that the part at `at` is in its local, for both evaluators: computed by `compute`
/// (which charges the part's steps) the first time a walk asks for it, and kept there.
#[inline]
pub(crate) fn fill(l: &mut [Value], (flag, slot): At, compute: impl FnOnce(&mut [Value]) -> Value) {
    if l[flag] != Value::Bool(true) {
        let v = compute(l);
        super::pool::set(&mut l[slot], v);
        l[flag] = Value::Bool(true);
    }
}

/// Every action's clauses rewritten (see the module).
pub(super) fn loop_parts(game: &mut Game) {
    let mut next = game.max_locals;
    let clauses = game.actions.iter_mut().flat_map(|a| &mut a.clauses);
    for e in clauses.filter_map(Clause::expr_mut) {
        rewrite(e, &mut next);
    }
    game.max_locals = next;
}

/// How many parts the actions' clauses compute once a walk (the rules as rewritten).
pub(super) fn count(game: &Game) -> usize {
    fn within(e: &Expr) -> usize {
        let mut n = usize::from(matches!(e, Expr::Once(..)));
        e.each_child(&mut |c| n += within(c));
        n
    }
    let clauses = game.actions.iter().flat_map(|a| &a.clauses);
    clauses.filter_map(Clause::expr).map(within).sum()
}

/// `e` and the loops within it rewritten, the outermost first: a part the same for every
/// item of an outer loop is taken from that loop, not from one inside it.
fn rewrite(e: &mut Expr, next: &mut u16) {
    let mut flags = Vec::new();
    if repeated(e).is_some() {
        let mut inside = Vec::new();
        bound_within(e, &mut inside);
        if let Some(body) = repeated(e) {
            take_parts(body, &inside, next, &mut flags);
        }
    }
    e.each_child_mut(&mut |c| rewrite(c, next));
    // Each flag set false before the loop is walked.
    for flag in flags {
        let walked = std::mem::replace(e, Expr::Const(Value::None));
        *e = Expr::Bind(
            flag,
            Box::new(Expr::Const(Value::Bool(false))),
            Box::new(walked),
        );
    }
}

/// The part of loop `e` evaluated for each item: a quantifier's, an aggregate's or a best's
/// body, a comprehension's condition.
fn repeated(e: &mut Expr) -> Option<&mut Expr> {
    match e {
        Expr::Quant(_, _, _, body) | Expr::Agg(_, _, _, body) | Expr::Best(_, _, _, body) => {
            Some(body)
        }
        Expr::Comprehension(_, _, Some(cond)) => Some(cond),
        _ => None,
    }
}

/// Every local bound by `e` or by anything within it, added to `out`.
fn bound_within(e: &Expr, out: &mut Vec<u16>) {
    match e {
        Expr::Quant(_, slot, ..)
        | Expr::Agg(_, slot, ..)
        | Expr::Best(_, slot, ..)
        | Expr::Comprehension(slot, ..)
        | Expr::Bind(slot, ..) => out.push(*slot),
        Expr::Once(flag, slot, _) => out.extend([*flag, *slot]),
        _ => {}
    }
    e.each_child(&mut |c| bound_within(c, out));
}

/// The parts of `e` (a loop's body) the same for every item of the loop (see the module),
/// each made an `Expr::Once` with locals of its own; `inside`: the locals the loop binds,
/// or anything in it. The flags made are added to `flags`.
fn take_parts(e: &mut Expr, inside: &[u16], next: &mut u16, flags: &mut Vec<u16>) {
    if matches!(e, Expr::Once(..)) {
        return;
    }
    if walks(e) {
        let mut read = Vec::new();
        memo::free_locals(e, &mut Vec::new(), &mut read);
        if !read.is_empty() && read.iter().all(|s| !inside.contains(s)) {
            let (flag, slot) = (*next, *next + 1);
            *next += 2;
            let part = std::mem::replace(e, Expr::Const(Value::None));
            *e = Expr::Once(flag, slot, Box::new(part));
            flags.push(flag);
            return;
        }
    }
    // A search among a piece's moves or a region's cells has a quicker way than the list
    // (`Eval::find`): the list is not made, so not kept either.
    if let Expr::Binary(BinOp::In | BinOp::NotIn, item, coll) = e {
        take_parts(item, inside, next, flags);
        if matches!(
            **coll,
            Expr::Call(Builtin::Destinations | Builtin::Attacks, _) | Expr::Region(..)
        ) {
            coll.each_child_mut(&mut |c| take_parts(c, inside, next, flags));
        } else {
            take_parts(coll, inside, next, flags);
        }
        return;
    }
    e.each_child_mut(&mut |c| take_parts(c, inside, next, flags));
}

/// Whether evaluating `e` walks a collection or the board (`memo::costly`), but for a
/// join of what it holds (`a + b`) and an index into it, which count by their parts:
/// joining two lists costs less than keeping one, and a join is walked where its parts
/// stand (`Eval::for_each`).
fn walks(e: &Expr) -> bool {
    let itself = match e {
        Expr::Call(Builtin::Concat, _) | Expr::Index(..) => false,
        _ => memo::walks_itself(e),
    };
    if itself {
        return true;
    }
    let mut any = false;
    e.each_child(&mut |c| any = any || walks(c));
    any
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{BinOp, Builtin, Quant};

    fn local(s: u16) -> Box<Expr> {
        Box::new(Expr::Local(s))
    }

    /// `[t in occupied where t not in adjacent(x)]`, `x` in local 0 and `t` in local 1.
    fn not_next_to_x() -> Expr {
        let near = Expr::Call(Builtin::Adjacent, vec![Expr::Local(0)]);
        Expr::Comprehension(
            1,
            Box::new(Expr::Occupied),
            Some(Box::new(Expr::Binary(
                BinOp::NotIn,
                local(1),
                Box::new(near),
            ))),
        )
    }

    #[test]
    fn a_part_that_reads_only_locals_bound_outside_the_loop_is_computed_once() {
        let mut e = not_next_to_x();
        let mut next = 5;
        rewrite(&mut e, &mut next);
        let near = Expr::Call(Builtin::Adjacent, vec![Expr::Local(0)]);
        let once = Expr::Once(5, 6, Box::new(near));
        let walked = Expr::Comprehension(
            1,
            Box::new(Expr::Occupied),
            Some(Box::new(Expr::Binary(
                BinOp::NotIn,
                local(1),
                Box::new(once),
            ))),
        );
        assert_eq!(
            e,
            Expr::Bind(
                5,
                Box::new(Expr::Const(Value::Bool(false))),
                Box::new(walked)
            )
        );
        assert_eq!(next, 7);
        // Rewritten again, nothing changes (an engine built from rewritten rules).
        let before = e.clone();
        rewrite(&mut e, &mut next);
        assert_eq!((e, next), (before, 7));
    }

    #[test]
    fn parts_that_read_the_item_or_no_local_or_walk_nothing_stay() {
        // Reads the item: `adjacent(t)`.
        let item = Expr::Comprehension(
            1,
            Box::new(Expr::Occupied),
            Some(Box::new(Expr::Binary(
                BinOp::NotIn,
                local(0),
                Box::new(Expr::Call(Builtin::Adjacent, vec![Expr::Local(1)])),
            ))),
        );
        // Reads no local: `memo.rs` remembers it for the whole query.
        let closed = Expr::Quant(
            Quant::Any,
            1,
            Box::new(Expr::Occupied),
            Box::new(Expr::Binary(BinOp::In, local(1), Box::new(Expr::Cells))),
        );
        // Walks nothing: `x.piece`.
        let cheap = Expr::Quant(
            Quant::All,
            1,
            Box::new(Expr::Occupied),
            Box::new(Expr::Binary(
                BinOp::Ne,
                local(1),
                Box::new(Expr::CellPiece(local(0))),
            )),
        );
        for e in [item, closed, cheap] {
            let (mut rewritten, mut next) = (e.clone(), 5);
            rewrite(&mut rewritten, &mut next);
            assert_eq!((rewritten, next), (e, 5));
        }
    }
}
