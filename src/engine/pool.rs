//! Reused list buffers: the lists a query builds and walks (the cells a built-in returns,
//! a `let` holding a list) take their storage from here and give it back when walked or
//! overwritten, so a legal-action query in a steady state allocates nothing for them.
//!
//! Routes (a move by a pattern taken a part at a time: a box and a list of pattern states)
//! are kept the same way (`route`, `give_route`), and a route stored over a route in the
//! state is written into the storage already there.
//!
//! A state copied over a state kept for reuse trades its lists and routes with the pool
//! (`copy_values`), and short lists of numbers that outgrow the stack move into a buffer
//! of cells from here (`Ids`).
//!
//! The pool is per thread, like the budget: parallel playouts never share it.
//!
//! A buffer given back is grown to the largest capacity the pool has seen (its high
//! water, at most `KEEP_CAPACITY`), so that after a few queries of warming up every
//! buffer in circulation is large enough for any list the rules build and none grows on
//! the hot path. Lists a query keeps (the arguments of the actions it lists) are made
//! with `dup` and given back with `recycle` when the caller's buffer is reused, so a
//! steady stream of queries and applies allocates nothing (`tests/hot_path_allocs.rs`).

use crate::ir::Items;
use crate::ir::{Route, Value};
use smallvec::SmallVec;
use std::cell::RefCell;
use std::thread::LocalKey;

/// Buffers kept at most, the largest buffer kept (a rare huge list is let go), and the
/// most items all kept buffers may hold together. A query may hold many lists at once
/// (every choice `subsets` makes, the arguments of every action listed), hence the many
/// buffers.
const KEEP: usize = 1 << 15;
const KEEP_CAPACITY: usize = 4096;
const KEEP_ITEMS: usize = 1 << 22;

/// The free buffers of one kind, the largest capacity seen (see the module's notes) and
/// the items the free buffers can hold together.
struct Pool<B> {
    free: Vec<B>,
    high: usize,
    items: usize,
}

/// A buffer a pool keeps: a list's items, or cell numbers.
trait Buffer: Default {
    fn capacity(&self) -> usize;
    fn clear(&mut self);
    fn reserve_exact(&mut self, n: usize);
}

/// `Buffer` for each type named, by its own methods of those names.
macro_rules! buffer {
    ($($t:ty),*) => {$(
        impl Buffer for $t {
            fn capacity(&self) -> usize {
                <$t>::capacity(self)
            }
            fn clear(&mut self) {
                <$t>::clear(self)
            }
            fn reserve_exact(&mut self, n: usize) {
                <$t>::reserve_exact(self, n)
            }
        }
    )*};
}

buffer!(Items, Vec<u16>);

impl<B> Pool<B> {
    const fn new() -> Pool<B> {
        Pool {
            free: Vec::new(),
            high: 0,
            items: 0,
        }
    }
}

thread_local! {
    static LISTS: RefCell<Pool<Items>> = const { RefCell::new(Pool::new()) };
    static CELLS: RefCell<Pool<Vec<u16>>> = const { RefCell::new(Pool::new()) };
    /// Routes given back, each with its list of pattern states (see `route`); boxed as
    /// `Value::Route` holds them, so that taking one makes no box.
    #[allow(clippy::vec_box)]
    static ROUTES: RefCell<Vec<Box<Route>>> = const { RefCell::new(Vec::new()) };
}

/// A route (a move by a pattern taken a part at a time), made in storage given back
/// before if there is some: its box and its list of pattern states.
pub(crate) fn route(pattern: u16, origin: u16, at: u16, states: &[(u16, (i8, i8))]) -> Value {
    Value::Route(match ROUTES.with_borrow_mut(Vec::pop) {
        Some(mut r) => {
            (r.pattern, r.origin, r.at) = (pattern, origin, at);
            r.states.clear();
            r.states.extend_from_slice(states);
            r
        }
        None => Box::new(Route {
            pattern,
            origin,
            at,
            states: states.to_vec(),
        }),
    })
}

/// Gives a route's storage back (see `route`).
pub(crate) fn give_route(r: Box<Route>) {
    if r.states.capacity() <= KEEP_CAPACITY {
        ROUTES.with_borrow_mut(|p| {
            if p.len() < KEEP {
                p.push(r);
            }
        });
    }
}

/// An empty buffer from `pool`, reused if one is free.
#[inline]
fn take_from<B: Buffer>(pool: &'static LocalKey<RefCell<Pool<B>>>) -> B {
    pool.with_borrow_mut(|p| {
        let v = p.free.pop()?;
        p.items -= v.capacity();
        Some(v)
    })
    .unwrap_or_default()
}

/// Gives a buffer back to `pool` (emptied here), grown to the pool's high water.
#[inline]
fn give_to<B: Buffer>(pool: &'static LocalKey<RefCell<Pool<B>>>, mut v: B) {
    if v.capacity() == 0 || v.capacity() > KEEP_CAPACITY {
        return;
    }
    v.clear();
    pool.with_borrow_mut(|p| {
        if v.capacity() > p.high {
            // The smaller buffers kept so far are let go: every buffer kept is at the
            // high water, so none grows when taken. The high water rises a few times in
            // all, while the pool warms up.
            p.high = v.capacity();
            p.free.clear();
            p.items = 0;
        }
        if p.free.len() < KEEP && p.items + p.high <= KEEP_ITEMS {
            if v.capacity() < p.high {
                v.reserve_exact(p.high);
            }
            p.items += v.capacity();
            p.free.push(v);
        }
    });
}

/// An empty list buffer, reused if one is free.
#[inline]
pub(crate) fn take() -> Items {
    take_from(&LISTS)
}

/// Gives a list buffer back (emptied here).
#[inline]
pub(crate) fn give(v: Items) {
    give_to(&LISTS, v)
}

/// Gives back the storage of a value about to be dropped, if it is a list (and of the
/// lists inside it).
#[inline]
pub(crate) fn recycle(v: Value) {
    match v {
        Value::List(items) => recycle_list(items),
        Value::Route(r) => give_route(r),
        other => other.discard(),
    }
}

#[inline(never)]
pub(crate) fn recycle_list(mut items: Items) {
    for it in items.drain(..) {
        recycle(it);
    }
    give(items);
}

/// Stores `v` in `slot`, giving back the storage of what was there (see `recycle`); a
/// scalar over a scalar of its kind writes only its payload (`Value::set_payload`).
#[inline(always)]
pub(crate) fn set(slot: &mut Value, v: Value) {
    if slot.set_payload(&v) {
        // A scalar: nothing to drop.
        std::mem::forget(v);
    } else {
        recycle(std::mem::replace(slot, v))
    }
}

/// Lends the list `cur` to the local `slot` while `f` runs, then takes it back: the local
/// holds the list without a copy of it (a walk of subsets lends each subset it makes to
/// the choice's local). The local's own list (or a new one from the pool) waits in `cur`
/// meanwhile. `f` must leave the local as it was lent: a chosen local is never bound
/// again (the checker gives every binding a slot of its own).
#[inline(always)]
pub(crate) fn lend<R>(
    slot: usize,
    l: &mut [Value],
    cur: &mut Items,
    f: impl FnOnce(&mut [Value]) -> R,
) -> R {
    if !matches!(l[slot], Value::List(_)) {
        set(&mut l[slot], Value::List(take()));
    }
    if let Value::List(mine) = &mut l[slot] {
        std::mem::swap(mine, cur);
    }
    let r = f(l);
    let back = match &mut l[slot] {
        Value::List(mine) => {
            std::mem::swap(mine, cur);
            true
        }
        _ => false,
    };
    debug_assert!(back, "a local lent a list was bound again");
    r
}

/// Stores `v` in a slot of the state: a list goes into the storage of the list already
/// there if there is one, or into storage of its own, and `v`'s own storage goes back to
/// the pool. A buffer of the pool kept in a state would be lost to it when the state is
/// dropped (a state made for one game, say), and the next query would allocate to
/// replace it. A scalar over a scalar of its kind (the common case: a number, a seat, a
/// truth) writes only its payload, inlined where it is stored.
#[inline(always)]
pub(crate) fn store(slot: &mut Value, v: Value) {
    if slot.set_payload(&v) {
        // A scalar: nothing to drop.
        std::mem::forget(v);
    } else {
        store_unlike(slot, v)
    }
}

/// `store` of anything but a scalar over a scalar of its kind.
#[inline(never)]
fn store_unlike(slot: &mut Value, v: Value) {
    match (slot, v) {
        (Value::List(old), Value::List(mut new)) => {
            for it in old.drain(..) {
                recycle(it);
            }
            old.append(&mut new);
            give(new);
        }
        // A route over a route: into the storage already there.
        (Value::Route(old), Value::Route(new)) => {
            old.clone_from(&new);
            give_route(new);
        }
        (slot, v) => set(slot, own(v)),
    }
}

/// Copies `from` over `to` (a state's values over those of a state kept for reuse): a
/// list or a route over one of its kind keeps the storage there; storage no longer
/// needed goes back to the pool, and storage newly needed comes from it. So a state that
/// takes turns holding lists and none, as searches and playouts copy positions into
/// states they keep, neither drops the pool's buffers nor makes new ones.
pub(crate) fn copy_values(to: &mut impl Values, from: &[Value]) {
    if to.len() > from.len() {
        for v in &mut to[from.len()..] {
            recycle(std::mem::take(v));
        }
        to.truncate(from.len());
    }
    let (common, rest) = from.split_at(to.len());
    for (t, f) in to.iter_mut().zip(common) {
        assign(t, f);
    }
    // Rare (a list longer than before). A loop of its own: sharing `dup_list`'s `extend`
    // made the compiler stop inlining that one (+1.4% instructions where lists are copied
    // often).
    for f in rest {
        to.push(dup(f));
    }
}

/// A list of values `copy_values` writes into: a list's items, or a state's variables.
pub(crate) trait Values: std::ops::DerefMut<Target = [Value]> {
    fn truncate(&mut self, n: usize);
    fn push(&mut self, v: Value);
}

/// `Values` for each type named, by its own methods of those names.
macro_rules! values {
    ($($t:ty),*) => {$(
        impl Values for $t {
            fn truncate(&mut self, n: usize) {
                <$t>::truncate(self, n)
            }
            fn push(&mut self, v: Value) {
                <$t>::push(self, v)
            }
        }
    )*};
}

values!(Items, Vec<Value>);

/// Stores a copy of `from` in `to` (a local, an action's argument, a value of a state
/// copied over one kept for reuse: see `copy_values`): a scalar over a scalar of its kind
/// writes only its payload, in place; anything else goes out of line (`copy_unlike`),
/// where a list over a list is copied into the storage already there, without making
/// the copy first.
#[inline(always)]
pub(crate) fn assign(to: &mut Value, from: &Value) {
    if !to.set_payload(from) {
        copy_unlike(to, from);
    }
}

#[inline(never)]
fn copy_unlike(to: &mut Value, from: &Value) {
    match (&mut *to, from) {
        (Value::List(t), Value::List(f)) => copy_values(t, f),
        (Value::Route(t), Value::Route(f)) => t.clone_from(f),
        // The scalars `set_payload` leaves out (it keeps to the commonest, being inlined
        // everywhere): only the payload written here too, not a copy made and the old
        // value dropped.
        (Value::Phase(t), Value::Phase(f)) => *t = *f,
        (Value::Zone(z, p, n), Value::Zone(y, q, m)) => (*z, *p, *n) = (*y, *q, *m),
        (Value::Pattern(t), Value::Pattern(f)) | (Value::Shape(t), Value::Shape(f)) => *t = *f,
        (t, f) => set(t, dup(f)),
    }
}

/// `v` with its list storage (if any) its own rather than the pool's, which gets its
/// buffer back: for a value about to be kept in the state.
pub(crate) fn own(v: Value) -> Value {
    match v {
        Value::List(new) => {
            let own = new.clone();
            give(new);
            Value::List(own)
        }
        other => other,
    }
}

/// A copy of `v` whose list storage (and that of the lists inside it) comes from the
/// pool: `clone`, without allocating once the pool is warm.
#[inline]
pub(crate) fn dup(v: &Value) -> Value {
    match v {
        Value::List(items) => dup_list(items),
        Value::Route(r) => route(r.pattern, r.origin, r.at, &r.states),
        other => other.clone(),
    }
}

/// A list of copies of `items` (see `dup`).
#[inline(never)]
pub(crate) fn dup_list(items: &[Value]) -> Value {
    let mut out = take();
    out.extend(items.iter().map(dup));
    Value::List(out)
}

/// An empty buffer of cells, reused if one is free.
#[inline]
pub(crate) fn take_cells() -> Vec<u16> {
    take_from(&CELLS)
}

/// Gives a buffer of cells back (emptied here).
#[inline]
pub(crate) fn give_cells(v: Vec<u16>) {
    give_to(&CELLS, v)
}

/// A short list of numbers (cells, components) on the stack, `N` of them at most; past
/// that in a buffer of the pool (see `take_cells`), given back when dropped. A list that
/// grows past the stack on a long move or a big zone allocates nothing once warm.
pub(crate) struct Ids<const N: usize>(SmallVec<[u16; N]>);

impl<const N: usize> Ids<N> {
    #[inline]
    pub fn new() -> Ids<N> {
        Ids(SmallVec::new())
    }

    #[inline]
    pub fn push(&mut self, x: u16) {
        if self.0.len() == N && !self.0.spilled() {
            self.spill(N);
        }
        self.0.push(x);
    }

    pub fn extend_from_slice(&mut self, xs: &[u16]) {
        if self.0.len() + xs.len() > N && !self.0.spilled() {
            self.spill(self.0.len() + xs.len());
        }
        self.0.extend_from_slice(xs);
    }

    /// Moves the list into a buffer of the pool with room for `need` (a buffer has more
    /// than `N`, so that it stays on the heap: see `SmallVec::from_vec`).
    #[cold]
    fn spill(&mut self, need: usize) {
        let mut v = take_cells();
        v.reserve(need.max(2 * N));
        v.extend_from_slice(&self.0);
        self.0 = SmallVec::from_vec(v);
    }
}

impl<const N: usize> std::ops::Deref for Ids<N> {
    type Target = [u16];
    #[inline]
    fn deref(&self) -> &[u16] {
        &self.0
    }
}

impl<const N: usize> std::ops::DerefMut for Ids<N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [u16] {
        &mut self.0
    }
}

impl<const N: usize> Drop for Ids<N> {
    #[inline]
    fn drop(&mut self) {
        if self.0.spilled() {
            give_cells(std::mem::take(&mut self.0).into_vec());
        }
    }
}

/// The local slots of one query or one action, from the pool and given back when
/// dropped. A set given back keeps what its slots last held: every local is bound before
/// it is read (the checker binds each in a scope it is read in), so the next query
/// overwrites what it reads, and a list left in a slot goes back to the pool when the slot
/// is next written (`set`, `assign`). A set made anew is `None` throughout.
pub(crate) struct Locals(Vec<Value>);

/// How many sets of local slots a thread keeps for the next queries (they nest: a query
/// inside an action's `require afterwards`, and so on).
const KEEP_LOCALS: usize = 16;

thread_local! {
    /// Sets of local slots given back, each as long as it was and as its last user left
    /// it.
    static LOCALS: RefCell<Vec<Vec<Value>>> = const { RefCell::new(Vec::new()) };
}

impl Locals {
    pub fn new(n: usize) -> Locals {
        let mut v = LOCALS.with_borrow_mut(Vec::pop).unwrap_or_default();
        // Each slot made as `None` where it stands (`resize` would clone one into each);
        // a set kept from a query of as many slots (the common case) is left as it is.
        if v.len() > n {
            v.drain(n..).for_each(recycle);
        }
        v.resize_with(n, || Value::None);
        Locals(v)
    }
}

impl std::ops::Deref for Locals {
    type Target = [Value];
    fn deref(&self) -> &[Value] {
        &self.0
    }
}

impl std::ops::DerefMut for Locals {
    fn deref_mut(&mut self) -> &mut [Value] {
        &mut self.0
    }
}

impl Drop for Locals {
    fn drop(&mut self) {
        // The set kept as long as it is, its slots as they are (see `Locals`).
        let v = std::mem::take(&mut self.0);
        LOCALS.with_borrow_mut(|kept| {
            if kept.len() < KEEP_LOCALS {
                kept.push(v);
            } else {
                v.into_iter().for_each(recycle);
            }
        });
    }
}
