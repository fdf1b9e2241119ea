//! Reused list buffers: the lists a query builds and walks (the cells a built-in returns,
//! a `let` holding a list) take their storage from here and give it back when walked or
//! overwritten, so a legal-action query in a steady state allocates nothing for them.
//!
//! The pool is per thread, like the budget: parallel playouts never share it.

use crate::ir::Value;
use std::cell::RefCell;
use std::thread::LocalKey;

/// Buffers kept at most, and the largest buffer kept: a rare huge list is let go.
const KEEP: usize = 64;
const KEEP_CAPACITY: usize = 4096;

thread_local! {
    static LISTS: RefCell<Vec<Vec<Value>>> = const { RefCell::new(Vec::new()) };
    static CELLS: RefCell<Vec<Vec<u16>>> = const { RefCell::new(Vec::new()) };
}

type Pool<T> = LocalKey<RefCell<Vec<Vec<T>>>>;

/// An empty buffer from `pool`, reused if one is free.
#[inline]
fn take_from<T>(pool: &'static Pool<T>) -> Vec<T> {
    pool.with_borrow_mut(Vec::pop).unwrap_or_default()
}

/// Gives a buffer back to `pool` (emptied here).
#[inline]
fn give_to<T>(pool: &'static Pool<T>, mut v: Vec<T>) {
    if v.capacity() == 0 || v.capacity() > KEEP_CAPACITY {
        return;
    }
    v.clear();
    pool.with_borrow_mut(|p| {
        if p.len() < KEEP {
            p.push(v);
        }
    });
}

/// An empty list buffer, reused if one is free.
#[inline]
pub(crate) fn take() -> Vec<Value> {
    take_from(&LISTS)
}

/// Gives a list buffer back (emptied here).
#[inline]
pub(crate) fn give(v: Vec<Value>) {
    give_to(&LISTS, v)
}

/// Gives back the storage of a value about to be dropped, if it is a list.
#[inline]
pub(crate) fn recycle(v: Value) {
    if let Value::List(items) = v {
        give(items);
    }
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

/// The local slots of one query or one action (`None` each), from the pool and given
/// back when dropped.
pub(crate) struct Locals(Vec<Value>);

impl Locals {
    pub fn new(n: usize) -> Locals {
        let mut v = take();
        v.resize(n, Value::None);
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
        give(std::mem::take(&mut self.0));
    }
}
