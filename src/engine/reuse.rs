//! A value an `if` tests and the `let`s at the head of its branches compute again,
//! computed once, when the engine is built.
//!
//! A named definition is written out wherever it is used, so an effect that tests a
//! collection and then takes from it (`if size(high) == 1 { let w = first(high) ... }`)
//! walks the collection twice, though nothing changes between the test and the `let`s
//! that open either branch: a `let` computes a value and changes nothing. Where the `if`'s
//! condition always computes such a part (not behind an `and` or an `or`, nor searched
//! with `in`), the part reads no local, walks something (`memo::costly`), and a `let`
//! at the head of a branch holds it too, the part is computed once into a local of its
//! own by a `let` put before the `if`, and both read that local. Each such part gets a
//! local no rule uses (`Game::max_locals` grows by one for it). Both evaluators run the
//! rules as rewritten, so they compute and charge the same.

use super::memo;
use crate::ir::{BinOp, Builtin, Expr, Game, Stmt};

/// Every statement list of the rules rewritten (see the module).
pub(super) fn shared_tests(game: &mut Game) {
    let mut next = game.max_locals;
    for list in game.bodies_mut() {
        rewrite(list, &mut next);
    }
    game.max_locals = next;
}

fn rewrite(list: &mut Vec<Stmt>, next: &mut u16) {
    let mut i = 0;
    while i < list.len() {
        list[i].each_body_mut(&mut |body| rewrite(body, next));
        // Each part in turn, so that the rules rewritten have none left (an engine built
        // again from them, `Engine::counting_clauses`, rewrites nothing more).
        while let Some((part, written)) = shared_part(&list[i]) {
            let slot = *next;
            *next += 1;
            if let Stmt::If(cond, a, b) = &mut list[i] {
                put(cond, &part, slot);
                for branch in [a, b] {
                    for st in branch.iter_mut() {
                        match st {
                            Stmt::Let(_, e) => put(e, &part, slot),
                            _ => break,
                        }
                    }
                }
            }
            list.insert(i, Stmt::Let(slot, written));
            i += 1;
        }
        i += 1;
    }
}

/// The part of an `if`'s condition to compute once (see the module), if it has one; in the
/// form `canonical` gives, and as the condition writes it.
fn shared_part(st: &Stmt) -> Option<(Expr, Expr)> {
    let Stmt::If(cond, a, b) = st else {
        return None;
    };
    let mut parts = Vec::new();
    always_computed(cond, &mut parts);
    let heads: Vec<&Expr> = [a, b]
        .into_iter()
        .flat_map(|branch| {
            branch.iter().map_while(|st| match st {
                Stmt::Let(_, e) => Some(e),
                _ => None,
            })
        })
        .collect();
    // The part the most `let`s hold (the outermost of those held as often): `size(top)`
    // tested and `first(top)` taken share `top`. The `let` computes the condition's own
    // copy, as written there.
    let (held, part, written) = parts
        .into_iter()
        .map(|p| (canonical(p), p))
        .enumerate()
        .map(|(i, (c, p))| (heads.iter().filter(|e| holds(e, &c)).count(), i, c, p))
        .max_by_key(|&(n, i, ..)| (n, std::cmp::Reverse(i)))
        .map(|(n, _, c, p)| (n, c, p))?;
    (held > 0).then(|| (part, written.clone()))
}

/// Whether `e` is `part` (in the form `canonical` gives): of the same kind first, so that
/// most nodes are told apart without a copy.
fn same(e: &Expr, part: &Expr) -> bool {
    std::mem::discriminant(e) == std::mem::discriminant(part) && canonical(e) == *part
}

/// `e` with the locals it binds (a quantifier's, an aggregate's, a comprehension's, a best's)
/// numbered 0, 1, 2... in the order they are bound: the same part written out twice binds
/// other locals in each copy, and is the same in this form.
pub(super) fn canonical(e: &Expr) -> Expr {
    fn rename(e: &mut Expr, bound: &mut Vec<(u16, u16)>, next: &mut u16) {
        match e {
            Expr::Local(s) => {
                if let Some(&(_, n)) = bound.iter().rev().find(|(o, _)| o == s) {
                    *s = n;
                }
            }
            Expr::Quant(_, slot, coll, body)
            | Expr::Agg(_, slot, coll, body)
            | Expr::Best(_, slot, coll, body) => {
                rename(coll, bound, next);
                bound.push((*slot, *next));
                *slot = *next;
                *next += 1;
                rename(body, bound, next);
                bound.pop();
            }
            Expr::Comprehension(slot, coll, cond) => {
                rename(coll, bound, next);
                bound.push((*slot, *next));
                *slot = *next;
                *next += 1;
                if let Some(c) = cond {
                    rename(c, bound, next);
                }
                bound.pop();
            }
            Expr::Bind(slot, v, body) => {
                rename(v, bound, next);
                bound.push((*slot, *next));
                *slot = *next;
                *next += 1;
                rename(body, bound, next);
                bound.pop();
            }
            other => other.each_child_mut(&mut |c| rename(c, bound, next)),
        }
    }
    let mut e = e.clone();
    rename(&mut e, &mut Vec::new(), &mut 0);
    e
}

/// The parts of `e` that read no local and walk something, and that evaluating `e`
/// always computes, each before the parts it holds.
fn always_computed<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    if memo::closed(e) && memo::costly(e) {
        out.push(e);
    }
    match e {
        Expr::Binary(op, a, b)
            if !matches!(op, BinOp::Or | BinOp::And | BinOp::In | BinOp::NotIn) =>
        {
            always_computed(a, out);
            always_computed(b, out);
        }
        Expr::Not(a) | Expr::Neg(a) => always_computed(a, out),
        // A collection's size, or its first or last item: computed once, the collection is
        // walked whole, where the test alone might have stopped early (a size compared
        // with 1 stops at the second item); the `let`s then walk it no more.
        Expr::Call(Builtin::Size | Builtin::First | Builtin::Last, args) => {
            args.iter().for_each(|a| always_computed(a, out))
        }
        _ => {}
    }
}

/// Whether `e` holds `part` (in the form `canonical` gives).
fn holds(e: &Expr, part: &Expr) -> bool {
    e.any_node(&mut |x| same(x, part))
}

/// `e` with each `part` in it (in the form `canonical` gives) read from local `slot`.
fn put(e: &mut Expr, part: &Expr, slot: u16) {
    if same(e, part) {
        *e = Expr::Local(slot);
        return;
    }
    e.each_child_mut(&mut |c| put(c, part, slot));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::compile_source;

    /// The statements of the first phase's `after turn`, inside the effect it calls.
    fn settled(game: &Game) -> &[Stmt] {
        match &game.phases[0].after_turn[..] {
            [Stmt::Block(body)] => body,
            other => panic!("an effect's body: {other:?}"),
        }
    }

    #[test]
    fn a_collection_an_if_tests_and_its_lets_take_from_is_computed_once() {
        let text = include_str!("../../tests/constructs/shared_tests.muster");
        let mut game = compile_source("shared_tests.muster", text, None)
            .unwrap_or_else(|_| panic!("shared_tests.muster does not compile"))
            .game;
        let written = settled(&game).to_vec();
        let before = game.max_locals;
        shared_tests(&mut game);
        assert_eq!(
            game.max_locals,
            before + 3,
            "a local for each part computed once"
        );
        let body = settled(&game);
        assert_eq!(body.len(), written.len() + 3);
        // The collection computed first, as the first `if` wrote it.
        let Stmt::Let(slot, part) = &body[0] else {
            panic!("a `let` before the `if`: {:?}", body[0]);
        };
        assert_eq!(*slot, before);
        assert!(matches!(part, Expr::Comprehension(..)), "{part:?}");
        // The test and the `let` at the head of each branch read it, the rest as written.
        let Stmt::If(cond, yes, no) = &body[1] else {
            panic!("the `if`: {:?}", body[1]);
        };
        assert!(cond.reads_local(before), "{cond:?}");
        for branch in [yes, no] {
            let Stmt::Let(_, head) = &branch[0] else {
                panic!("a `let` at the head: {:?}", branch[0]);
            };
            assert!(head.reads_local(before), "{head:?}");
            assert!(!matches!(head, Expr::Comprehension(..)));
        }
        let Stmt::If(_, written_yes, _) = &written[0] else {
            panic!("the `if` as written");
        };
        assert_eq!(yes[1..], written_yes[1..]);
        // Behind an `or`, and after a statement that changes the state: as written.
        assert_eq!(body[2..4], written[1..3]);
        // Two parts, the highest bidders and the lowest, each computed once before the
        // last `if`, in locals of their own; its `let`s read one each.
        let [Stmt::Let(high, _), Stmt::Let(low, _), Stmt::If(cond, yes, _)] = &body[4..] else {
            panic!("two `let`s before the last `if`: {:?}", &body[4..]);
        };
        assert_eq!((*high, *low), (before + 1, before + 2));
        assert!(
            cond.reads_local(*high) && cond.reads_local(*low),
            "{cond:?}"
        );
        let [Stmt::Let(_, a), Stmt::Let(_, b), ..] = &yes[..] else {
            panic!("two `let`s at the head: {yes:?}");
        };
        assert!(a.reads_local(*high) && b.reads_local(*low), "{a:?} {b:?}");
        // Built again from what it made, the engine rewrites nothing more.
        let again = body.to_vec();
        shared_tests(&mut game);
        assert_eq!(game.max_locals, before + 3);
        assert_eq!(settled(&game), &again[..]);
    }
}
