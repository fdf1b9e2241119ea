//! Effects compiled: the statements of `setup`, a `do`, a phase's hooks, a trigger and a
//! reaction's `after`, with their expressions compiled as the plans compile a clause's
//! (`truth`, `get`, `each`), and the `let`s of each action, which its `do` reads.
//!
//! A body becomes a list of `Op`s, one for each of its statements, so that the runner
//! (`Runner::run_ops`) counts the same statements against an action's effects as it does
//! running the statements themselves. The statements that compute most (`if`, `for`,
//! `let`, `roll`, `move`, `deal`, assignments to variables) get an `Op` of their own; any other
//! is run as the rules write it (`Op::Stmt`). A compiled body changes the state exactly
//! as the statements do, and charges the decision's budget at the same points
//! (`tests/plans.rs` plays each shipped game both ways and compares the states).

use super::{each, get, truth, ByAddress, Cond, Cx, Each, Get};
use crate::engine::effects::VarTarget;
use crate::engine::memo;
use crate::ir::{AssignOp, BinOp, Clause, Expr, Game, Stmt, Target};

/// A list of statements, compiled.
pub(crate) type Body = Box<[Op]>;
/// An action's `let`s compiled, by clause (`None` for its other clauses).
pub(crate) type Lets = Box<[Option<Get>]>;

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
    /// Any other statement, run as written.
    Stmt(Box<Stmt>),
    /// A statement that a trial of the `do` for `require afterwards` skips, and anything
    /// else runs (see `trials.rs`).
    Skipped(Box<Op>),
}

/// The compiled bodies of a game (see `Plans::bodies`) and the compiled `let`s of its
/// actions (`Plans::lets`).
pub(super) fn build(cx: &mut Cx, game: &Game) -> (ByAddress<Body>, Vec<Lets>) {
    let mut bodies: ByAddress<Body> = game
        .bodies()
        .into_iter()
        .filter(|b| !b.is_empty())
        .map(|b| (b.as_ptr() as usize, ops(cx, b)))
        .collect();
    bodies.sort_unstable_by_key(|(at, _)| *at);
    bodies.dedup_by_key(|(at, _)| *at);
    let lets = game
        .actions
        .iter()
        .map(|a| {
            a.clauses
                .iter()
                .map(|c| match c {
                    Clause::Let { value, .. } => Some(get(cx, value)),
                    _ => None,
                })
                .collect()
        })
        .collect();
    (bodies, lets)
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
            Op::Assign(var, who, *op, value(cx, v))
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
