//! Choices of several items at once: `subsets(items, lo, hi)`, listed whole where an
//! expression makes the list, or walked one choice at a time by a `choose` over them
//! (never made whole) and pruned by the `require`s after it.
//!
//! Subsets come in the order `Engine::subsets` lists them: by the first item left out,
//! then the next, as a binary count with the first item as the highest digit. A subset
//! therefore always comes after every subset of it.
//!
//! **Pruning.** A `require` whose condition can only turn false as the chosen subset
//! grows (it *shrinks* with the choice: `all c in cards: ...`, `count c in cards: ... <=
//! k`, `size(cards) < k`, joined by `and`, `or` and `not` as `shape` works out) fails for
//! every subset holding one it failed for; so does one whose first parts joined by `and`
//! shrink, when one of those fails. Such a `require` after `choose cards in subsets(...)`
//! (before the next `choose` or the `do`) is a *pruning* one (`roles`): when it fails
//! there, it says so (`fail`), and the walk (`Engine::each_subset`) notes the failed
//! subset and never makes a subset holding it. The legal actions are the same, in the
//! same order: the subsets passed over could not pass that `require`. The work is less,
//! and the tree walk and the plans both walk this way, so they charge the same steps.
//! (A `require` before the failing one that would have raised a rules error on a
//! subset passed over does not raise it: that subset is illegal either way.)

use super::budget;
use super::eval::Eval;
use super::pool;
use super::state::State;
use super::{Engine, MAX_SUBSETS};
use crate::ir::Items;
use crate::ir::{Agg, BinOp, Builtin, Clause, Expr, Quant, Value};
use smallvec::SmallVec;
use std::cell::Cell;

/// What a clause does in pruning (see the module).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Role {
    Plain,
    /// A `choose` over `subsets(...)`, walked a subset at a time (`Engine::each_subset`),
    /// pruned where a `require` after it prunes.
    Choose,
    /// A `require` that prunes the walk of the `choose` before it when one of its first
    /// so many parts joined by `and` fails (`conjuncts`): those that only fail more as
    /// the subset grows.
    Require(usize),
}

/// The role of each of an action's clauses.
pub(crate) fn roles(clauses: &[Clause]) -> Box<[Role]> {
    let mut roles = vec![Role::Plain; clauses.len()];
    for (i, c) in clauses.iter().enumerate() {
        let Clause::Choose {
            slot,
            domain: Expr::Call(Builtin::Subsets, _),
            ..
        } = c
        else {
            continue;
        };
        // Walked one subset at a time, whether a `require` prunes it or none does.
        roles[i] = Role::Choose;
        // Locals bound after the choice may hold anything made of it.
        let mut unknown = Vec::new();
        for (j, c) in clauses.iter().enumerate().skip(i + 1) {
            match c {
                Clause::Let { slot, .. } => unknown.push(*slot),
                Clause::Require {
                    cond,
                    afterwards: false,
                    ..
                } => {
                    let (_, parts) = conjuncts(cond);
                    let first = parts
                        .iter()
                        .take_while(|p| matches!(shape(p, *slot, &unknown), Fixed | Shrinks))
                        .count();
                    if first > 0 {
                        roles[j] = Role::Require(first);
                    }
                }
                _ => break,
            }
        }
    }
    roles.into_boxed_slice()
}

/// How a value moves as the chosen subset grows: not at all; up (a list gains items, a
/// number grows, a truth can only turn true); down (a number falls, a truth can only
/// turn false); or it cannot be told.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Shape {
    Fixed,
    Grows,
    Shrinks,
    Unknown,
}

use Shape::{Fixed, Grows, Shrinks, Unknown};

impl Shape {
    fn flip(self) -> Shape {
        match self {
            Grows => Shrinks,
            Shrinks => Grows,
            s => s,
        }
    }

    /// Two parts that move the same way (or not at all) together: `and`, `or`, `+`.
    fn with(self, o: Shape) -> Shape {
        match (self, o) {
            (Fixed, s) | (s, Fixed) => s,
            (a, b) if a == b => a,
            _ => Unknown,
        }
    }

    /// Grows or stays.
    fn up(self) -> bool {
        matches!(self, Fixed | Grows)
    }
}

/// How `e` moves as the subset in the local `x` grows (see `Shape`); `unknown`: locals
/// that may hold anything. Quantified locals hold one item each, which stays as it is.
fn shape(e: &Expr, x: u16, unknown: &[u16]) -> Shape {
    let sh = |e: &Expr| shape(e, x, unknown);
    match e {
        Expr::Local(s) if *s == x => Grows,
        Expr::Local(s) if unknown.contains(s) => Unknown,
        Expr::Not(a) => sh(a).flip(),
        Expr::Binary(op, a, b) => {
            let (a, b) = (sh(a), sh(b));
            match op {
                BinOp::And | BinOp::Or | BinOp::Add => a.with(b),
                BinOp::Sub => a.with(b.flip()),
                // a <= b: harder as a grows, easier as b grows.
                BinOp::Le | BinOp::Lt => a.with(b.flip()).flip(),
                BinOp::Ge | BinOp::Gt => a.with(b.flip()),
                // An item found in a growing collection stays found.
                BinOp::In if a == Fixed && b.up() => b,
                BinOp::NotIn if a == Fixed && b.up() => b.flip(),
                _ if a == Fixed && b == Fixed => Fixed,
                _ => Unknown,
            }
        }
        Expr::Quant(q, _, coll, body) => {
            let (c, b) = (sh(coll), sh(body));
            if !c.up() {
                return Unknown;
            }
            let body_holds = match q {
                Quant::All => b,
                Quant::Any | Quant::None => b.flip(),
            };
            // Each item of a growing collection must pass (all) or fail (any, none): that
            // is harder as items come, and as each item's test gets harder.
            let harder = match body_holds {
                Fixed if c == Fixed => return Fixed,
                Fixed | Shrinks => Shrinks,
                _ => return Unknown,
            };
            match q {
                Quant::All | Quant::None => harder,
                Quant::Any => harder.flip(),
            }
        }
        // Items of a growing collection that pass a test that gets easier: more of them.
        Expr::Agg(Agg::Count, _, coll, body) | Expr::Comprehension(_, coll, Some(body)) => {
            let (c, b) = (sh(coll), sh(body));
            match (c, b) {
                (Fixed, Fixed) => Fixed,
                (c, b) if c.up() && b.up() => Grows,
                (Fixed, Shrinks) if matches!(e, Expr::Agg(..)) => Shrinks,
                _ => Unknown,
            }
        }
        Expr::Comprehension(_, coll, None) => match sh(coll) {
            c if c.up() => c,
            _ => Unknown,
        },
        Expr::Call(Builtin::Size, args) => match sh(&args[0]) {
            c if c.up() => c,
            _ => Unknown,
        },
        Expr::Call(Builtin::Concat, parts) => parts.iter().fold(Fixed, |s, p| match sh(p) {
            p if p.up() => s.with(p),
            _ => Unknown,
        }),
        other => {
            let mut all = Fixed;
            other.each_child(&mut |c| {
                if sh(c) != Fixed {
                    all = Unknown;
                }
            });
            all
        }
    }
}

/// The parts of a condition joined by `and` down its left side (`a and b and c` is
/// `(a and b) and c`), and how many `and`s join them: judged in order, each `and`
/// charged before its parts, as `Eval::truth` judges the whole.
pub(crate) fn conjuncts(cond: &Expr) -> (u64, Vec<&Expr>) {
    let (mut ands, mut parts, mut e) = (0, Vec::new(), cond);
    while let Expr::Binary(BinOp::And, a, b) = e {
        ands += 1;
        parts.push(&**b);
        e = a;
    }
    parts.push(e);
    parts.reverse();
    (ands, parts)
}

/// Judges a pruning `require` (`Role::Require(first)`) as `Eval::truth` judges it,
/// saying so (`fail`) when one of its `first` parts fails.
pub(crate) fn judge(ev: &Eval, cond: &Expr, first: usize, l: &mut [Value]) -> bool {
    // The node `d` steps down the left side, and the `k`th part: the node at the bottom,
    // then the right side of each `and` on the way back up (as `conjuncts` lists them).
    let down = |d: u64| {
        (0..d).fold(cond, |e, _| match e {
            Expr::Binary(BinOp::And, a, _) => a,
            e => e,
        })
    };
    let mut ands = 0;
    while let Expr::Binary(BinOp::And, ..) = down(ands) {
        ands += 1;
    }
    let part = |k: u64| match down(ands - k) {
        Expr::Binary(BinOp::And, _, b) if k > 0 => &**b,
        e => e,
    };
    judged(ands, first, (0..=ands).map(|k| ev.truth(part(k), l)))
}

/// A pruning `require` judged in parts (`conjuncts`): the `and`s charged first, as
/// `Eval::truth` charges them, then the parts' answers taken in order while they hold; a
/// failed one among the `first` says so (`fail`). The plans judge their compiled parts
/// through it.
pub(crate) fn judged(ands: u64, first: usize, parts: impl Iterator<Item = bool>) -> bool {
    if ands > 0 && !budget::charge(ands) {
        return false;
    }
    for (k, holds) in parts.enumerate() {
        if !holds {
            if k < first {
                fail();
            }
            return false;
        }
    }
    true
}

thread_local! {
    /// Set by a pruning `require` that fails; taken by the walk after each subset.
    static FAILED: Cell<bool> = const { Cell::new(false) };
}

/// A pruning `require` failed (see the module).
#[inline]
pub(crate) fn fail() {
    FAILED.set(true);
}

/// What a walk's visitor says after a subset.
enum Seen {
    /// Go on to the next subset.
    Next,
    /// Go on, passing over every subset that holds this one.
    Failed,
    Stop,
}

/// One walk of the subsets (see `Engine::subsets`): the items, their places in groups of
/// twins (`flat`, group after group; `ends`, where each group ends), the subset being
/// made, and the subsets that failed a pruning `require`, as bits of `flat`.
struct Walk<'a> {
    items: &'a [Value],
    flat: &'a [u32],
    ends: &'a [u32],
    lo: usize,
    hi: usize,
    given: usize,
    cur: Items,
    bits: u64,
    failed: SmallVec<[u64; 32]>,
}

impl Walk<'_> {
    /// The subsets made from group `i` on, each handed to `visit`; false once it stops.
    fn go(&mut self, i: usize, visit: &mut Visit) -> bool {
        if self.given >= MAX_SUBSETS {
            budget::exceeded(format!(
                "`subsets` gave more than {} choices (`MAX_SUBSETS`)",
                budget::thousands(MAX_SUBSETS as u64)
            ));
            return true;
        }
        if !budget::charge(1 + self.cur.len() as u64) {
            return true;
        }
        if i == self.ends.len() {
            if (self.lo..=self.hi).contains(&self.cur.len()) {
                self.given += 1;
                match visit(&mut self.cur) {
                    Seen::Next => {}
                    // Only subsets of the first 64 items are noted (a walk with more
                    // passes over none).
                    Seen::Failed if self.flat.len() <= 64 => self.failed.push(self.bits),
                    Seen::Failed => {}
                    Seen::Stop => return false,
                }
            }
            return true;
        }
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        let end = self.ends[i] as usize;
        let (before, bits) = (self.cur.len(), self.bits);
        let mut go_on = true;
        for k in start..=end {
            if k > start {
                if self.cur.len() >= self.hi {
                    break;
                }
                self.cur.push(self.items[self.flat[k - 1] as usize].clone());
                // More of this group only adds to a subset that failed.
                if k <= 64 {
                    self.bits |= 1 << (k - 1);
                }
                if self.failed.iter().any(|&f| f & !self.bits == 0) {
                    break;
                }
            }
            if !self.go(i + 1, visit) {
                go_on = false;
                break;
            }
        }
        self.cur.truncate(before);
        self.bits = bits;
        go_on
    }
}

/// What a walk of subsets hands each subset to: the list being made, lent (to be left as
/// it was given: see `pool::lend`), and what the visitor says after it.
type Visit<'a> = dyn FnMut(&mut Items) -> Seen + 'a;

/// A walk of the items `subsets` chooses among (a plan's compiled walk, or `for_each`).
pub(crate) type ItemWalk<'a> =
    dyn FnMut(&Eval, &mut [Value], &mut dyn FnMut(Value, &mut [Value]) -> bool) + 'a;

/// The least and the most sizes of a subset, found (compiled, or by `eval`).
pub(crate) type Sizes<'a> = dyn FnMut(&Eval, &mut [Value]) -> (i64, i64) + 'a;

impl Engine {
    /// Every choice of `lo..=hi` items from `items` (in their order), each as a list.
    /// Twins in one place are interchangeable, so a choice among them is made once: the
    /// earlier twins are always the ones taken. Stops after `MAX_SUBSETS` choices.
    pub(crate) fn subsets(
        &self,
        s: &State,
        items: &[Value],
        lo: usize,
        hi: usize,
        out: &mut Items,
    ) {
        self.walk_subsets(s, items, lo, hi, &mut |cur| {
            out.push(pool::dup_list(cur));
            Seen::Next
        });
    }

    /// `choose x in subsets(args)`, pruned by the `require`s after it where they prune
    /// (see the module): each subset handed to `visit` (its items, lent to the local as
    /// `pool::lend` lends them or copied there, and the rest of the action) while it says
    /// to go on, charged as `eval` and `for_each` charge the list of them they would make
    /// and walk, for the subsets made.
    pub(crate) fn each_subset(
        &self,
        ev: &Eval,
        args: &[Expr],
        l: &mut [Value],
        visit: &mut dyn FnMut(&mut Items, &mut [Value]) -> bool,
    ) {
        let mut sizes = |ev: &Eval, l: &mut [Value]| {
            (ev.eval(&args[1], l).as_int(), ev.eval(&args[2], l).as_int())
        };
        self.each_subset_of(
            ev,
            l,
            &mut |ev, l, f| ev.for_each(&args[0], l, f),
            &mut sizes,
            visit,
        )
    }

    /// `each_subset` with its arguments as they are found: the items walked (`items`),
    /// then the least and the most sizes (`sizes`), in that order (a plan's compiled
    /// arguments, or the tree walk's).
    pub(crate) fn each_subset_of(
        &self,
        ev: &Eval,
        l: &mut [Value],
        items: &mut ItemWalk,
        sizes: &mut Sizes,
        visit: &mut dyn FnMut(&mut Items, &mut [Value]) -> bool,
    ) {
        // The call's own step, as `eval` charges it.
        if !budget::charge(1) {
            return;
        }
        let mut found = pool::take();
        items(ev, l, &mut |v, _| {
            found.push(v);
            true
        });
        let (lo, hi) = sizes(ev, l);
        let (lo, hi) = (lo.max(0) as usize, hi.max(0) as usize);
        self.walk_subsets(ev.s, &found, lo, hi, &mut |cur| {
            // The subset's place in the list `eval` makes, and its step in the walk.
            if !budget::charge(2) {
                return Seen::Stop;
            }
            FAILED.set(false);
            if !visit(cur, l) {
                return Seen::Stop;
            }
            if FAILED.replace(false) {
                Seen::Failed
            } else {
                Seen::Next
            }
        });
        pool::recycle_list(found);
    }

    fn walk_subsets(&self, s: &State, items: &[Value], lo: usize, hi: usize, visit: &mut Visit) {
        // Group interchangeable items, keeping first-seen order: `flat` holds the items'
        // places in `items` group after group, `ends` where each group ends in `flat`
        // (on the stack: a query makes one such walk for each choice it offers).
        let mut firsts: Places = SmallVec::new();
        let mut group: Places = SmallVec::new();
        for (k, it) in items.iter().enumerate() {
            let g = match firsts
                .iter()
                .position(|&f| self.same_choice(s, &items[f as usize], it))
            {
                Some(g) => g,
                None => {
                    firsts.push(k as u32);
                    firsts.len() - 1
                }
            };
            group.push(g as u32);
        }
        let (mut flat, mut ends): (Places, Places) = (SmallVec::new(), SmallVec::new());
        for g in 0..firsts.len() as u32 {
            flat.extend((0..items.len() as u32).filter(|&k| group[k as usize] == g));
            ends.push(flat.len() as u32);
        }
        let mut walk = Walk {
            items,
            flat: &flat,
            ends: &ends,
            lo,
            hi,
            given: 0,
            cur: pool::take(),
            bits: 0,
            failed: SmallVec::new(),
        };
        walk.go(0, visit);
        pool::recycle_list(walk.cur);
    }
}

/// Places in a list of items (see `walk_subsets`): on the stack for as many items as a
/// walk notes failed subsets of (see `Walk::go`); a longer list, whose walk is long
/// anyway, allocates them.
type Places = SmallVec<[u32; 64]>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::compile_source;
    use Role::{Choose, Plain, Require};

    fn roles_of(variant: Option<&str>) -> Vec<(String, Vec<Role>)> {
        let text = include_str!("../../tests/constructs/subset_choices.muster");
        let game = compile_source("subset_choices.muster", text, variant)
            .unwrap_or_else(|_| panic!("subset_choices.muster does not compile"))
            .game;
        let mut game = game;
        super::super::hoist::requires(&mut game);
        game.actions
            .iter()
            .map(|a| (a.name.clone(), roles(&a.clauses).to_vec()))
            .collect()
    }

    // Which `require`s prune their choice of subsets: those that only fail more as the
    // choice grows, read where they stand or through a `def`; not one that grows with the
    // choice, reads a `let` made after it, compares two counts, or is written so that it
    // cannot be told (`walked`). Every choice of subsets is walked, pruned or not (`lead`);
    // a choice of anything else is not (`pick`).
    #[test]
    fn requires_that_only_fail_more_as_the_choice_grows_prune_it() {
        let want = |band: Vec<Role>| {
            vec![
                ("band".to_string(), band),
                ("join".to_string(), vec![Choose, Require(1), Plain]),
                (
                    "trim".to_string(),
                    vec![Choose, Require(2), Require(1), Plain],
                ),
                (
                    "lead".to_string(),
                    vec![Choose, Plain, Plain, Plain, Plain, Plain],
                ),
                ("pair".to_string(), vec![Choose, Require(1), Plain]),
                ("pick".to_string(), vec![Plain, Plain]),
            ]
        };
        assert_eq!(
            roles_of(None),
            want(vec![Choose, Require(1), Require(1), Plain])
        );
        assert_eq!(
            roles_of(Some("walked")),
            want(vec![Choose, Plain, Require(1), Plain])
        );
    }

    // How parts move as the chosen subset (local 0) grows.
    #[test]
    fn shapes_follow_the_parts() {
        let x = || Box::new(Expr::Local(0));
        let n = |k| Box::new(Expr::Const(Value::Int(k)));
        let size = || Box::new(Expr::Call(Builtin::Size, vec![Expr::Local(0)]));
        let cmp = |op, a, b| Expr::Binary(op, a, b);
        assert_eq!(shape(&cmp(BinOp::Le, size(), n(2)), 0, &[]), Shrinks);
        assert_eq!(shape(&cmp(BinOp::Lt, n(2), size()), 0, &[]), Grows);
        assert_eq!(shape(&cmp(BinOp::Ge, n(2), size()), 0, &[]), Shrinks);
        assert_eq!(shape(&cmp(BinOp::Eq, size(), n(2)), 0, &[]), Unknown);
        assert_eq!(shape(&cmp(BinOp::Le, size(), size()), 0, &[]), Unknown);
        assert_eq!(
            shape(&Expr::Not(Box::new(cmp(BinOp::Le, size(), n(2)))), 0, &[]),
            Grows
        );
        assert_eq!(shape(&cmp(BinOp::NotIn, n(1), x()), 0, &[]), Shrinks);
        assert_eq!(shape(&cmp(BinOp::In, n(1), x()), 0, &[]), Grows);
        assert_eq!(shape(&cmp(BinOp::Le, n(1), n(2)), 0, &[]), Fixed);
        // A local bound after the choice may hold anything made of it.
        let after = Box::new(Expr::Local(3));
        assert_eq!(shape(&cmp(BinOp::Le, after, n(2)), 0, &[3]), Unknown);
        // A sum may fall as items come (negative numbers): it cannot be told.
        let sum = Box::new(Expr::Agg(Agg::Sum, 1, x(), Box::new(Expr::Local(1))));
        assert_eq!(shape(&cmp(BinOp::Le, sum, n(2)), 0, &[]), Unknown);
    }
}
