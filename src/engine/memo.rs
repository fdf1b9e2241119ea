//! Closed expressions remembered for one legal-action query.
//!
//! Listing the legal actions evaluates an action's clauses again for every value its
//! `choose`s take, and a quantifier's body or a comprehension's condition again for every
//! item. A part of such an expression that reads no local bound outside it (`first([x in
//! cells_of(me) where ...])` in the body of `any y in occupied: ...`) gives the same value
//! each time: the state does not change while the actions are listed, and `me` is fixed.
//! `Engine::new` finds these parts (`nodes`); while a query lists actions (`begin`), the
//! evaluator computes each the first time it is asked for and gives the remembered value
//! after that.
//!
//! Effects are evaluated the same way, one expression at a time: a part of a statement's
//! expression evaluated again and again (the best in `[p in seats where f(p) == max q in
//! seats: f(q)]`) is remembered while that expression is evaluated
//! (`effect_nodes`); the state changes between statements, so nothing is kept longer.
//!
//! Invariant: a value is remembered only for the state, the seat and the engine of the
//! query (or the evaluation) that computed it, which holds the state borrowed, so it cannot
//! change, and it is forgotten when the query ends.

use super::state::State;
use super::subsets::Role;
use super::Engine;
use crate::ir::{Builtin, Clause, Expr, Game, Stmt, Value};
use std::cell::{Cell, RefCell};
use std::marker::PhantomData;

/// The query whose values are remembered now: its engine, its state (by address) and its
/// seat; zeros when there is none.
type Key = (usize, usize, u8);

/// A remembered node's place in a query: not asked for yet, being computed (asking for it
/// then computes it as usual), or its value.
#[derive(Clone)]
pub(crate) enum Slot {
    Empty,
    Computing,
    Done(Value),
}

/// A slot's status (see `Slot`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    Empty,
    Computing,
    Done,
}

/// The slots of one query under way, and which of them are in use: only those are
/// emptied when the query ends, so that a query costs what it remembers, not what the
/// rules could remember.
#[derive(Default)]
struct Frame {
    /// One per node the rules could remember (`Engine::memo_nodes`).
    slots: Vec<Slot>,
    /// The slots not empty, each once.
    used: Vec<u32>,
}

thread_local! {
    static ACTIVE: Cell<Key> = const { Cell::new((0, 0, 0)) };
    /// The remembered values of the queries under way, innermost last; each holds one
    /// slot per node of `nodes`.
    static FRAMES: RefCell<Vec<Frame>> = const { RefCell::new(Vec::new()) };
    /// How many of `FRAMES` are in use (the others are kept for the next queries, so
    /// that a query in a steady state does not allocate).
    static DEPTH: Cell<usize> = const { Cell::new(0) };
}

fn key(eng: &Engine, s: &State, me: u8) -> Key {
    (
        eng as *const Engine as usize,
        s as *const State as usize,
        me,
    )
}

/// Remembers values for one query on a state by a seat, until dropped.
pub(crate) struct Query<'a> {
    before: Key,
    _state: PhantomData<&'a State>,
}

/// Starts remembering for a query (nothing to do when the rules have no such parts).
pub(crate) fn begin<'a>(eng: &Engine, s: &'a State, me: u8) -> Option<Query<'a>> {
    if eng.memo_nodes.is_empty() {
        return None;
    }
    let before = ACTIVE.replace(key(eng, s, me));
    let depth = DEPTH.get();
    FRAMES.with_borrow_mut(|f| {
        if f.len() == depth {
            f.push(Frame::default());
        }
        // Empty already when a query used it last (see `drop`): then as long as it must
        // be, and left as it is when it is.
        let slots = &mut f[depth].slots;
        if slots.len() != eng.memo_nodes.len() {
            slots.resize(eng.memo_nodes.len(), Slot::Empty);
        }
    });
    DEPTH.set(depth + 1);
    Some(Query {
        before,
        _state: PhantomData,
    })
}

impl Drop for Query<'_> {
    fn drop(&mut self) {
        ACTIVE.set(self.before);
        let depth = DEPTH.get().saturating_sub(1);
        DEPTH.set(depth);
        // The slots emptied where they stand (the pool the values go back to is another
        // thread-local), ready for the next query at this depth as they are.
        FRAMES.with_borrow_mut(|f| {
            if let Some(frame) = f.get_mut(depth) {
                for i in frame.used.drain(..) {
                    if let Slot::Done(v) =
                        std::mem::replace(&mut frame.slots[i as usize], Slot::Empty)
                    {
                        super::pool::recycle(v);
                    }
                }
            }
        });
    }
}

/// The place of `e` among the remembered nodes, if it is one and a query on this very
/// state, seat and engine is under way.
#[inline]
pub(crate) fn place(eng: &Engine, s: &State, me: u8, e: &Expr) -> Option<usize> {
    let at = e as *const Expr as usize;
    if eng.memo_filter & filter_bit(at) == 0 || ACTIVE.get() != key(eng, s, me) {
        return None;
    }
    eng.memo_nodes.binary_search(&at).ok()
}

/// A node's bit in `Engine::memo_filter`, which has the bits of all remembered nodes: most
/// other nodes are told apart by it at once.
#[inline(always)]
pub(crate) fn filter_bit(at: usize) -> u64 {
    1 << ((at >> 3) % 64)
}

/// The slots of the innermost query under way.
#[inline]
fn top(frames: &[Frame]) -> Option<&[Slot]> {
    DEPTH
        .get()
        .checked_sub(1)
        .and_then(|d| frames.get(d))
        .map(|f| f.slots.as_slice())
}

/// Whether the slot at `i` is empty, being computed or done.
pub(crate) fn status(i: usize) -> Status {
    FRAMES.with_borrow(|f| match top(f).map(|v| &v[i]) {
        Some(Slot::Empty) => Status::Empty,
        Some(Slot::Done(_)) => Status::Done,
        _ => Status::Computing,
    })
}

/// What the slot at `i` holds: nothing yet, a value being computed, or a copy of its
/// value (its lists from the pool).
pub(crate) enum Look {
    Empty,
    Computing,
    Done(Value),
}

/// What the slot at `i` holds (see `Look`), in one look into the thread's slots.
pub(crate) fn look(i: usize) -> Look {
    FRAMES.with_borrow(|f| match top(f).map(|v| &v[i]) {
        Some(Slot::Empty) => Look::Empty,
        Some(Slot::Done(v)) => Look::Done(super::pool::dup(v)),
        _ => Look::Computing,
    })
}

/// Stores `v` at `i`, and gives back a copy of it (its lists from the pool).
pub(crate) fn dup_of(i: usize, v: Value) -> Value {
    let copy = super::pool::dup(&v);
    set(i, Slot::Done(v));
    copy
}

/// Hands `f` the items of the remembered list at `i` from item `from` on, at most `n`;
/// `None` past the list's end. A walk of the list takes them a batch at a time: one look
/// into the thread's slots per batch, not per item, and none held while the items are
/// handed on (the walk may ask for other remembered values).
fn batch<R>(i: usize, from: usize, n: usize, f: impl FnOnce(&[Value]) -> R) -> Option<R> {
    FRAMES.with_borrow(|frames| match top(frames).map(|v| &v[i]) {
        Some(Slot::Done(Value::List(items))) if from < items.len() => {
            Some(f(&items[from..items.len().min(from + n)]))
        }
        _ => None,
    })
}

/// Copies of the items of the remembered list at `i` from item `from` on, as many as
/// `out` holds on the stack (their lists from the pool), added to `out`; false past the
/// list's end (see `batch`).
pub(crate) fn items(i: usize, from: usize, out: &mut Batch) -> bool {
    batch(i, from, out.inline_size(), |items| {
        out.extend(items.iter().map(super::pool::dup))
    })
    .is_some()
}

/// The cells among the items of the remembered list at `i` from item `from` on, as many
/// as `out` holds, written into `out` (`NO_CELL` for an item that is not a cell); how
/// many were written, 0 past the list's end (see `batch`).
pub(crate) fn cells(i: usize, from: usize, out: &mut [u16]) -> usize {
    batch(i, from, out.len(), |items| {
        for (o, v) in out.iter_mut().zip(items) {
            *o = match *v {
                Value::Cell(c) => c,
                _ => crate::ir::NO_CELL,
            };
        }
        items.len()
    })
    .unwrap_or(0)
}

/// A batch of a remembered list's items (see `items`).
pub(crate) type Batch = smallvec::SmallVec<[Value; 16]>;

/// Sets the slot at `i`.
pub(crate) fn set(i: usize, slot: Slot) {
    FRAMES.with_borrow_mut(|f| {
        if let Some(frame) = DEPTH.get().checked_sub(1).and_then(|d| f.get_mut(d)) {
            let filled = !matches!(slot, Slot::Empty);
            match std::mem::replace(&mut frame.slots[i], slot) {
                Slot::Done(old) => super::pool::recycle(old),
                Slot::Empty if filled => frame.used.push(i as u32),
                _ => {}
            }
        }
    });
}

/// The nodes worth remembering, by address (sorted): in the clauses of each action (but
/// its `do`), the largest closed parts that walk something and are evaluated again and
/// again (after a `choose`, or in a quantifier's body or a comprehension's condition).
/// `roles`: each action's clauses' parts in walking choices of subsets
/// (`subsets::roles`).
pub(crate) fn nodes(game: &Game, roles: &[Box<[Role]>]) -> Vec<usize> {
    let mut out = Vec::new();
    for (a, roles) in game.actions.iter().zip(roles) {
        action_nodes(&a.clauses, roles, &mut out);
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The nodes worth remembering in the statements the rules run (`setup`, each `do`, the
/// phases' hooks, triggers, reactions' `after`), by address, and the expressions of those
/// statements that hold them (`roots`), by address, both sorted. A root is evaluated with
/// values remembered for that one evaluation (`begin` around it): the state does not
/// change while an expression is evaluated, though it does between a body's statements.
pub(crate) fn effect_nodes(game: &Game) -> (Vec<usize>, Vec<usize>) {
    fn body(stmts: &[Stmt], nodes: &mut Vec<usize>, roots: &mut Vec<usize>) {
        Stmt::each_expr_within(stmts, &mut |e| {
            let before = nodes.len();
            scan(e, false, nodes);
            if nodes.len() > before {
                roots.push(e as *const Expr as usize);
            }
        });
    }
    let (mut nodes, mut roots) = (Vec::new(), Vec::new());
    for b in game.bodies() {
        body(b, &mut nodes, &mut roots);
    }
    for v in [&mut nodes, &mut roots] {
        v.sort_unstable();
        v.dedup();
    }
    (nodes, roots)
}

/// The nodes of one action's clauses to remember (see `nodes`), added to `out`.
fn action_nodes(clauses: &[Clause], roles: &[Role], out: &mut Vec<usize>) {
    let mut chosen = false;
    for (c, role) in clauses.iter().zip(roles) {
        match c {
            // Subsets are made as they are walked, never kept whole.
            Clause::Choose { domain, .. } if *role == Role::Choose => {
                domain.each_child(&mut |c| scan(c, chosen, out));
                chosen = true;
            }
            Clause::Choose { domain, .. } => {
                scan(domain, chosen, out);
                chosen = true;
            }
            Clause::Let { value, .. } => scan(value, chosen, out),
            Clause::Require {
                cond,
                afterwards: false,
                ..
            } => scan(cond, chosen, out),
            Clause::Require { .. } | Clause::Do(_) => {}
        }
    }
}

/// Adds the nodes under `e` to remember; `repeated`: `e` is evaluated again and again.
fn scan(e: &Expr, repeated: bool, out: &mut Vec<usize>) {
    if repeated && closed(e) {
        if !costly(e) {
            return;
        }
        if matches!(
            e,
            Expr::Quant(..)
                | Expr::Agg(..)
                | Expr::Comprehension(..)
                | Expr::Best(..)
                | Expr::Call(..)
        ) {
            out.push(e as *const Expr as usize);
            return;
        }
    }
    match e {
        Expr::Quant(_, _, coll, body)
        | Expr::Agg(_, _, coll, body)
        | Expr::Best(_, _, coll, body) => {
            scan(coll, repeated, out);
            scan(body, true, out);
        }
        Expr::Comprehension(_, coll, cond) => {
            scan(coll, repeated, out);
            if let Some(c) = cond {
                scan(c, true, out);
            }
        }
        other => other.each_child(&mut |c| scan(c, repeated, out)),
    }
}

/// Whether `e` reads no local but those it binds itself.
pub(super) fn closed(e: &Expr) -> bool {
    let mut read = Vec::new();
    free_locals(e, &mut Vec::new(), &mut read);
    read.is_empty()
}

/// The locals `e` reads that it does not bind itself (`bound`: bound around the node
/// looked at), each added to `out` once. An `Expr::Once` reads its flag (bound by the
/// `Bind` around its loop) and its own local, which it writes before it reads.
pub(super) fn free_locals(e: &Expr, bound: &mut Vec<u16>, out: &mut Vec<u16>) {
    let read = |s: &u16, bound: &[u16], out: &mut Vec<u16>| {
        if !bound.contains(s) && !out.contains(s) {
            out.push(*s);
        }
    };
    let binds = match e {
        Expr::Local(s) => {
            read(s, bound, out);
            return;
        }
        Expr::Quant(_, slot, coll, body)
        | Expr::Agg(_, slot, coll, body)
        | Expr::Best(_, slot, coll, body) => {
            free_locals(coll, bound, out);
            Some((*slot, &**body))
        }
        Expr::Comprehension(slot, coll, cond) => {
            free_locals(coll, bound, out);
            cond.as_deref().map(|c| (*slot, c))
        }
        Expr::Bind(slot, v, body) => {
            free_locals(v, bound, out);
            Some((*slot, &**body))
        }
        Expr::Once(flag, _, part) => {
            read(flag, bound, out);
            free_locals(part, bound, out);
            return;
        }
        other => {
            other.each_child(&mut |c| free_locals(c, bound, out));
            return;
        }
    };
    if let Some((slot, scoped)) = binds {
        bound.push(slot);
        free_locals(scoped, bound, out);
        bound.pop();
    }
}

/// Whether evaluating `e` walks a collection or the board. The first, last or size of a
/// collection that is not walked to be made (a zone, a local) is a look, not a walk:
/// remembering it costs more than it saves (`top(pile(p)).colour` read for each choice).
pub(super) fn costly(e: &Expr) -> bool {
    if walks_itself(e) {
        return true;
    }
    let mut any = false;
    e.each_child(&mut |c| any = any || costly(c));
    any
}

/// Whether evaluating the node `e` walks a collection or the board, its parts aside (see
/// `costly`): a quantifier, an aggregate, a comprehension, a best, the board's cells, the
/// occupied ones, an index into a collection, or a built-in other than a look or a
/// computation on scalars.
pub(super) fn walks_itself(e: &Expr) -> bool {
    match e {
        Expr::Quant(..)
        | Expr::Agg(..)
        | Expr::Comprehension(..)
        | Expr::Best(..)
        | Expr::Cells
        | Expr::Occupied
        | Expr::CellsOf(_)
        | Expr::Index(..) => true,
        Expr::Call(b, _) => !matches!(
            b,
            Builtin::Max2
                | Builtin::Min2
                | Builtin::Abs
                | Builtin::NextSeat
                | Builtin::PrevSeat
                | Builtin::Distance
                | Builtin::File
                | Builtin::Rank
                | Builtin::CellAt
                | Builtin::SeatOf
                | Builtin::MayHalt
                | Builtin::RouteOf
                | Builtin::First
                | Builtin::Last
                | Builtin::Size
        ),
        _ => false,
    }
}
