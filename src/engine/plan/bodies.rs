//! Effects compiled: the statements of `setup`, a `do`, a phase's hooks, a trigger and a
//! reaction's `after`, with their expressions compiled as the plans compile a clause's
//! (`truth`, `get`, `each`), and the `let`s of each action, which its `do` reads.
//!
//! A body becomes a list of `Op`s, one for each of its statements, so that the runner
//! (`Runner::run_ops`) counts the same statements against an action's effects as it does
//! running the statements themselves. The statements that compute most (`if`, `for`,
//! `let`, `roll`, `move`, `deal`, assignments to variables) get an `Op` of their own; any other
//! is run as the rules write it (`Op::Stmt`). A change of a variable by a number (`+=`,
//! `-=`) computes the number as a number (`AddTo`), and a global set to a value goes
//! straight to its place (`SetGlobal`). A compiled body changes the state exactly
//! as the statements do, and charges the decision's budget at the same points
//! (`tests/plans.rs` plays each shipped game both ways and compares the states).

use super::numbers::{number, Num};
use super::{each, get, truth, ByAddress, Cond, Cx, Each, Get};
use crate::engine::effects::VarTarget;
use crate::engine::memo;
use crate::ir::{AssignOp, BinOp, Clause, Expr, Game, Stmt, Target};

/// A list of statements, compiled.
pub(crate) type Body = Box<[Op]>;

/// What applying an action runs (see `Applied`).
pub(crate) type Applies = Box<[Applied]>;

/// What applying an action runs of its clauses, in their order, each found when the
/// engine is built (`Engine::run_action` runs it): its chosen values into their locals,
/// the `let`s its `do` reads (`lets_applied`), and its `do`. Its `require`s, and the
/// `let`s that only served them, are not there at all.
pub(crate) enum Applied {
    /// The action's next argument, into this local.
    Arg(usize),
    /// A `let` the `do` reads, compiled, into its local.
    Let(usize, Get),
    /// The `do` (not empty), by its place in `Plans::bodies`.
    Do(usize),
}

/// One statement, compiled.
pub(crate) enum Op {
    If(Cond, Body, Body),
    /// The loop's local, the items walked (all taken before the body first runs, as the
    /// statement does), the body.
    For(usize, Each, Body),
    Block(Body),
    Let(usize, Get),
    /// `let x = roll(...)`: the local, and the items one is picked from (all taken first,
    /// as the statement takes them).
    Roll(usize, Each),
    /// `let x = roll(a..b)`: the local, and the range's ends. A number of the range is
    /// picked as `Roll` picks one of the items it takes (see `effects::rolled_in_range`),
    /// without taking them.
    RollRange(usize, Get, Get),
    /// What moves, where to, and the face it is turned to.
    Move(Get, Get, Option<bool>),
    /// `deal n from a to b`: the count, the zone dealt from, the zone dealt to.
    Deal(Get, Get, Get),
    /// The variable, the seat or piece whose it is (none for a global), the change, the
    /// value.
    Assign(VarTarget, Option<Get>, AssignOp, Get),
    /// `x = v` of a global variable: `Assign` with nothing to choose among.
    SetGlobal(u16, Get),
    /// `x += n` or `x -= n`: `Assign` of a change by a number, the number compiled as a
    /// number (`numbers.rs`); the variable, whose it is, the change, the number.
    AddTo(VarTarget, Option<Get>, AssignOp, Num),
    /// Any other statement, run as written.
    Stmt(Box<Stmt>),
    /// A statement that a trial of the `do` for `require afterwards` skips, and anything
    /// else runs (see `trials.rs`).
    Skipped(Box<Op>),
}

/// The compiled bodies of a game (see `Plans::bodies`) and what applying each of its
/// actions runs (`Plans::applied`).
pub(super) fn build(cx: &mut Cx, game: &Game) -> (ByAddress<Body>, Vec<Option<Applies>>) {
    let mut bodies: ByAddress<Body> = game
        .bodies()
        .into_iter()
        .filter(|b| !b.is_empty())
        .map(|b| (b.as_ptr() as usize, ops(cx, b)))
        .collect();
    bodies.sort_unstable_by_key(|(at, _)| *at);
    bodies.dedup_by_key(|(at, _)| *at);
    // Each `do` is among the bodies; were one not, the action's clauses would be walked
    // as written (`None`).
    let applied = game
        .actions
        .iter()
        .map(|a| {
            let needed = lets_applied(&a.clauses);
            let steps = a.clauses.iter().zip(needed.iter());
            steps
                .filter_map(|(c, &needed)| match c {
                    Clause::Choose { slot, .. } => Some(Some(Applied::Arg(*slot as usize))),
                    Clause::Let { slot, value } if needed => {
                        Some(Some(Applied::Let(*slot as usize, get(cx, value))))
                    }
                    Clause::Do(stmts) if !stmts.is_empty() => {
                        let at = stmts.as_ptr() as usize;
                        let i = bodies.binary_search_by_key(&at, |(a, _)| *a);
                        Some(i.ok().map(Applied::Do))
                    }
                    _ => None,
                })
                .collect()
        })
        .collect();
    (bodies, applied)
}

/// Per clause of an action: whether applying it must compute that `let`, because its `do`
/// or a later `let` that must be computed reads the local (each slot of an action is
/// bound once, so a read of the slot is a read of that `let`, or of a local its `do`
/// binds in the same slot, which only errs towards computing). The others only served
/// its `require`s; skipping them changes nothing but the work.
pub(crate) fn lets_applied(clauses: &[Clause]) -> Box<[bool]> {
    fn expr(e: &Expr, read: &mut Vec<bool>) {
        if let Expr::Local(s) = e {
            if let Some(r) = read.get_mut(*s as usize) {
                *r = true;
            }
        }
        e.each_child(&mut |c| expr(c, read));
    }
    let slots = clauses
        .iter()
        .filter_map(|c| match c {
            Clause::Let { slot, .. } => Some(*slot as usize + 1),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    let mut read = vec![false; slots];
    let mut applied = vec![false; clauses.len()];
    for (i, c) in clauses.iter().enumerate().rev() {
        match c {
            Clause::Do(stmts) => Stmt::each_expr_within(stmts, &mut |e| expr(e, &mut read)),
            Clause::Let { slot, value } if read.get(*slot as usize) == Some(&true) => {
                applied[i] = true;
                expr(value, &mut read);
            }
            _ => {}
        }
    }
    applied.into_boxed_slice()
}

fn ops(cx: &mut Cx, stmts: &[Stmt]) -> Body {
    stmts.iter().map(|st| op(cx, st)).collect()
}

fn op(cx: &mut Cx, st: &Stmt) -> Op {
    if cx.trial_skips(st) {
        return Op::Skipped(Box::new(as_run(cx, st)));
    }
    as_run(cx, st)
}

fn as_run(cx: &mut Cx, st: &Stmt) -> Op {
    match st {
        Stmt::If(c, a, b) => Op::If(cond(cx, c), ops(cx, a), ops(cx, b)),
        Stmt::For(slot, coll, body) => Op::For(*slot as usize, items(cx, coll), ops(cx, body)),
        Stmt::Block(body) => Op::Block(ops(cx, body)),
        Stmt::Let(slot, e) => Op::Let(*slot as usize, value(cx, e)),
        Stmt::Roll(slot, coll) => match coll {
            Expr::Binary(BinOp::Range, a, b) if !cx.scoped(coll) => {
                Op::RollRange(*slot as usize, get(cx, a), get(cx, b))
            }
            _ => Op::Roll(*slot as usize, items(cx, coll)),
        },
        Stmt::Move(what, to, face) => Op::Move(value(cx, what), value(cx, to), *face),
        Stmt::Deal(n, from, to) => Op::Deal(value(cx, n), value(cx, from), value(cx, to)),
        Stmt::Assign(target, op, v) => {
            let (var, who) = match target {
                Target::Global(i) => (VarTarget::Global(*i), None),
                Target::Seat(e, i) => (VarTarget::Seat(*i), Some(value(cx, e))),
                Target::Piece(e, i) => (VarTarget::Piece(*i), Some(value(cx, e))),
                Target::Attr(..) => return as_written(cx, st),
            };
            match (var, op) {
                // Where the value remembers parts of itself, it is made as `value` makes it.
                (_, AssignOp::Add | AssignOp::Sub) if !cx.scoped(v) => {
                    Op::AddTo(var, who, *op, number(cx, v))
                }
                (VarTarget::Global(i), AssignOp::Set) => Op::SetGlobal(i, value(cx, v)),
                _ => Op::Assign(var, who, *op, value(cx, v)),
            }
        }
        other => as_written(cx, other),
    }
}

/// A statement run as written: a copy, whose nodes to remember are noted (`Cx::note_body`).
fn as_written(cx: &mut Cx, st: &Stmt) -> Op {
    let copy = Box::new(st.clone());
    cx.note_body(std::slice::from_ref(st), std::slice::from_ref(&*copy));
    Op::Stmt(copy)
}

// A statement's expression that holds parts to remember (`Cx::scoped`) is evaluated with
// values remembered for that one evaluation, as the runner evaluates it.

fn value(cx: &mut Cx, e: &Expr) -> Get {
    let g = get(cx, e);
    if !cx.scoped(e) {
        return g;
    }
    Box::new(move |ev, l| {
        let _memo = memo::begin(ev.eng, ev.s, ev.me);
        g(ev, l)
    })
}

fn cond(cx: &mut Cx, e: &Expr) -> Cond {
    let c = truth(cx, e);
    if !cx.scoped(e) {
        return c;
    }
    Box::new(move |ev, l| {
        let _memo = memo::begin(ev.eng, ev.s, ev.me);
        c(ev, l)
    })
}

fn items(cx: &mut Cx, e: &Expr) -> Each {
    let w = each(cx, e);
    if !cx.scoped(e) {
        return w;
    }
    Box::new(move |ev, l, f| {
        let _memo = memo::begin(ev.eng, ev.s, ev.me);
        w(ev, l, f)
    })
}
