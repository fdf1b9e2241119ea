//! Effects compiled: the statements of `setup`, a `do`, a phase's hooks, a trigger and a
//! reaction's `after`, with their expressions compiled as the plans compile a clause's
//! (`truth`, `get`, `each`), and the `let`s of each action, which its `do` reads.
//!
//! A body becomes a list of `Op`s, one for each of its statements, so that the runner
//! (`Runner::run_ops`) counts the same statements against an action's effects as it does
//! running the statements themselves. An op is a closure made for its kind of statement
//! (`Op::run`), as the plans make one for each kind of expression. The statements that
//! compute most (`if`, `for`, `let`, `roll`, `move`, `deal`, assignments to variables)
//! get a closure of their own; any other is run as the rules write it (`Runner::stmt`).
//! A change of a variable by a number (`+=`, `-=`) computes the number as a number, and a
//! global's is added where it stands; a global set to a value goes straight to its place.
//! A compiled body changes the state exactly as the statements do, and charges the
//! decision's budget at the same points
//! (`tests/plans.rs` plays each shipped game both ways and compares the states).

use super::numbers::number;
use super::{each, get, truth, ByAddress, Cond, Cx, Each, Get};
use crate::engine::effects::{gathered, rolled, rolled_in_range, Runner, VarTarget};
use crate::engine::state::{State, Vars};
use crate::engine::{memo, pool, EngineError};
use crate::ir::{AssignOp, BinOp, Clause, Expr, Game, Stmt, Target, Value};

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

/// One statement, compiled: a closure that runs it on the runner, made for its kind of
/// statement and what it reads (as the plans make one for each kind of expression), so
/// that running it goes straight to its own work, not through a match on every kind.
pub(crate) struct Op {
    /// Whether a trial of the `do` for `require afterwards` skips it: neither runs nor
    /// counts it (see `trials.rs`); anything else runs it.
    pub skipped: bool,
    pub run: Run,
}

/// A statement's compiled work (see `Op`).
pub(crate) type Run = Box<
    dyn for<'r> Fn(&mut Runner<'r>, &mut State, &mut [Value]) -> Result<(), EngineError>
        + Send
        + Sync,
>;

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
    Op {
        skipped: cx.trial_skips(st),
        run: as_run(cx, st),
    }
}

/// A closure that runs a statement (see `Op`), boxed.
fn run(
    f: impl for<'r> Fn(&mut Runner<'r>, &mut State, &mut [Value]) -> Result<(), EngineError>
        + Send
        + Sync
        + 'static,
) -> Run {
    Box::new(f)
}

fn as_run(cx: &mut Cx, st: &Stmt) -> Run {
    match st {
        Stmt::If(c, a, b) => {
            let (c, a, b) = (cond(cx, c), ops(cx, a), ops(cx, b));
            run(move |r, s, l| {
                let branch = if c(&r.eval(s), l) { &a } else { &b };
                r.run_ops(s, branch, l)
            })
        }
        Stmt::For(slot, coll, body) => {
            let (slot, coll, body) = (*slot as usize, items(cx, coll), ops(cx, body));
            run(move |r, s, l| {
                let items = gathered(|f| coll(&r.eval(s), l, f));
                r.repeat(s, slot, items, l, |r, s, l| r.run_ops(s, &body, l))
            })
        }
        Stmt::Block(body) => {
            let body = ops(cx, body);
            run(move |r, s, l| r.run_ops(s, &body, l))
        }
        Stmt::Let(slot, e) => {
            let (slot, e) = (*slot as usize, value(cx, e));
            run(move |r, s, l| {
                let v = e(&r.eval(s), l);
                pool::set(&mut l[slot], v);
                Ok(())
            })
        }
        Stmt::Roll(slot, coll) => {
            let slot = *slot as usize;
            match coll {
                Expr::Binary(BinOp::Range, a, b) if !cx.scoped(coll) => {
                    let (a, b) = (get(cx, a), get(cx, b));
                    run(move |r, s, l| {
                        // The draw moves the state's random generator on.
                        r.touched_all();
                        let (a, b) = (a(&r.eval(s), l), b(&r.eval(s), l));
                        match (&a, &b) {
                            (Value::Int(lo), Value::Int(hi)) => {
                                rolled_in_range(s, *lo, *hi, &mut l[slot])
                            }
                            _ => {
                                let items = gathered(|f| r.eval(s).each_in_range(a, b, l, f));
                                rolled(s, items, &mut l[slot]);
                            }
                        }
                        Ok(())
                    })
                }
                _ => {
                    let coll = items(cx, coll);
                    run(move |r, s, l| {
                        r.touched_all();
                        let items = gathered(|f| coll(&r.eval(s), l, f));
                        rolled(s, items, &mut l[slot]);
                        Ok(())
                    })
                }
            }
        }
        Stmt::Move(what, to, face) => {
            let (what, to, face) = (value(cx, what), value(cx, to), *face);
            // A trial notes what it moves in `move_to`.
            run(move |r, s, l| {
                let what = what(&r.eval(s), l);
                let to = to(&r.eval(s), l);
                r.move_to(s, what, to, face)
            })
        }
        Stmt::Deal(n, from, to) => {
            let (n, from, to) = (value(cx, n), value(cx, from), value(cx, to));
            run(move |r, s, l| {
                r.touched_all();
                let n = n(&r.eval(s), l).as_int();
                let (from, to) = (from(&r.eval(s), l), to(&r.eval(s), l));
                r.deal(s, n, from, to)
            })
        }
        Stmt::Assign(target, op, v) => {
            let (var, who) = match target {
                Target::Global(i) => (VarTarget::Global(*i), None),
                Target::Seat(e, i) => (VarTarget::Seat(*i), Some(value(cx, e))),
                Target::Piece(e, i) => (VarTarget::Piece(*i), Some(value(cx, e))),
                Target::Attr(..) => return as_written(cx, st),
            };
            let op = *op;
            match (var, op, who) {
                // Where the value remembers parts of itself, it is made as `value` makes it.
                (VarTarget::Global(i), AssignOp::Add | AssignOp::Sub, _) if !cx.scoped(v) => {
                    let (at, n) = ((Vars::Globals, i as usize), number(cx, v));
                    run(move |r, s, l| {
                        let n = n(&r.eval(s), l);
                        r.add_to_var(s, at, op, n);
                        Ok(())
                    })
                }
                (_, AssignOp::Add | AssignOp::Sub, who) if !cx.scoped(v) => {
                    let n = number(cx, v);
                    run(move |r, s, l| {
                        let n = n(&r.eval(s), l);
                        let who = who.as_ref().map_or(Value::None, |w| w(&r.eval(s), l));
                        if let Some(place) = r.var_place(s, var, who, op, Some(n))? {
                            r.add_to_var(s, place, op, n);
                        }
                        Ok(())
                    })
                }
                (VarTarget::Global(i), AssignOp::Set, _) => {
                    let (at, v) = ((Vars::Globals, i as usize), value(cx, v));
                    run(move |r, s, l| {
                        let v = v(&r.eval(s), l);
                        r.set_var(s, at, v);
                        Ok(())
                    })
                }
                (_, _, who) => {
                    let v = value(cx, v);
                    run(move |r, s, l| {
                        let v = v(&r.eval(s), l);
                        let who = who.as_ref().map_or(Value::None, |w| w(&r.eval(s), l));
                        r.assign(s, var, who, op, v)
                    })
                }
            }
        }
        other => as_written(cx, other),
    }
}

/// A statement run as written: a copy, whose nodes to remember are noted (`Cx::note_body`).
fn as_written(cx: &mut Cx, st: &Stmt) -> Run {
    let copy = Box::new(st.clone());
    cx.note_body(std::slice::from_ref(st), std::slice::from_ref(&*copy));
    run(move |r, s, l| r.stmt(s, &copy, l))
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
