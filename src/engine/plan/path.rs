//! Paths: the short reads conditions are mostly made of (`x.piece.owner`,
//! `from.piece.rank`, `c.rank`, `me.rally_turns`, `p.colour`), compiled into one closure
//! each rather than a closure per node. A path is a start (a local or `me`) and one or
//! two hops from it (the piece on a cell, a component's owner, cell, attribute or
//! variable, a seat's attribute or variable); each shape is its own closure, made from
//! generic parts, so that the ids in between are never made into values and nothing is
//! called through a pointer on the way.
//!
//! A path charges the decision's budget what the nodes it stands for charge in `eval`
//! (one step each, and a list's length where a list is read on the way), all at once. A
//! path is made only where none of the nodes under its root is remembered within a query
//! (`memo.rs`); the caller sees to the root. Longer reads, and starts other than a local
//! or `me`, are compiled a node at a time (`get_node`).

use super::{copied, Cx, Get};
use crate::engine::budget;
use crate::engine::eval::Eval;
use crate::engine::state::{Loc, NONE, NO_SEAT};
use crate::ir::{Expr, Value};

/// `e` compiled as a path, if it is a short read from a local or `me` (see the module's
/// documentation).
pub(super) fn read(cx: &Cx, e: &Expr) -> Option<Get> {
    let (outer, inner) = hop_of(e)?;
    if cx.remembered(inner) {
        return None;
    }
    if let Some(start) = start_of(inner) {
        return Some(one_of(start, outer));
    }
    let (first, at) = hop_of(inner)?;
    if cx.remembered(at) {
        return None;
    }
    let start = start_of(at)?;
    Some(match first {
        Kind::Piece => two_of(start, Piece, outer),
        Kind::Owner => two_of(start, Owner, outer),
        Kind::Cell => two_of(start, OnCell, outer),
        Kind::Attr(a) => two_of(start, Attr(a), outer),
        Kind::CompVar(i) => two_of(start, CompVar(i), outer),
        Kind::SeatAttr(i) => two_of(start, SeatAttr(i), outer),
        Kind::SeatVar(i) => two_of(start, SeatVar(i), outer),
    })
}

/// Where a path starts.
#[derive(Clone, Copy)]
enum Start {
    Local(usize),
    Me,
}

fn start_of(e: &Expr) -> Option<Start> {
    match e {
        Expr::Local(slot) => Some(Start::Local(*slot as usize)),
        Expr::Me => Some(Start::Me),
        _ => None,
    }
}

/// The hop a node takes, and the node it takes it from.
#[derive(Clone, Copy)]
enum Kind {
    Piece,
    Owner,
    Cell,
    Attr(u16),
    CompVar(u16),
    SeatAttr(u16),
    SeatVar(u16),
}

fn hop_of(e: &Expr) -> Option<(Kind, &Expr)> {
    Some(match e {
        Expr::CellPiece(c) => (Kind::Piece, c),
        Expr::CompOwner(c) => (Kind::Owner, c),
        Expr::CompCell(c) => (Kind::Cell, c),
        Expr::CompAttr(c, a) => (Kind::Attr(*a), c),
        Expr::CompVar(c, i) => (Kind::CompVar(*i), c),
        Expr::SeatAttr(p, i) => (Kind::SeatAttr(*i), p),
        Expr::SeatVar(p, i) => (Kind::SeatVar(*i), p),
        _ => return None,
    })
}

/// What stands between two hops: an id, or nothing a hop can go on from.
#[derive(Clone, Copy)]
enum Id {
    Cell(u16),
    Comp(u16),
    Seat(u8),
    None,
}

impl Id {
    #[inline(always)]
    fn of(v: &Value) -> Id {
        match *v {
            Value::Cell(c) => Id::Cell(c),
            Value::Comp(c) => Id::Comp(c),
            Value::Seat(p) => Id::Seat(p),
            _ => Id::None,
        }
    }
}

/// A value read on the way as an id, charged as `eval` charges the copy it makes of it
/// (a list its length); `None` once the budget is spent.
#[inline(always)]
fn passed(v: &Value) -> Option<Id> {
    if let Value::List(items) = v {
        if !budget::list(items.len()) {
            return None;
        }
    }
    Some(Id::of(v))
}

/// Where the path starts, as an id (a local read as `passed` reads it).
#[inline(always)]
fn begin(ev: &Eval, l: &[Value], start: Start) -> Option<Id> {
    match start {
        Start::Local(slot) => passed(&l[slot]),
        Start::Me => Some(Id::Seat(ev.me)),
    }
}

/// What a hop leads to: an id, or a value read where it stands.
enum To<'e> {
    Id(Id),
    Value(&'e Value),
}

/// One hop, as `eval` takes it.
trait Hop: Copy + Send + Sync + 'static {
    fn take<'e>(self, ev: &'e Eval, id: Id) -> To<'e>;
}

#[derive(Clone, Copy)]
struct Piece;
#[derive(Clone, Copy)]
struct Owner;
#[derive(Clone, Copy)]
struct OnCell;
#[derive(Clone, Copy)]
struct Attr(u16);
#[derive(Clone, Copy)]
struct CompVar(u16);
#[derive(Clone, Copy)]
struct SeatAttr(u16);
#[derive(Clone, Copy)]
struct SeatVar(u16);

impl Hop for Piece {
    #[inline(always)]
    fn take<'e>(self, ev: &'e Eval, id: Id) -> To<'e> {
        To::Id(match id {
            Id::Cell(c) if ev.s.cells[c as usize] != NONE => Id::Comp(ev.s.cells[c as usize]),
            _ => Id::None,
        })
    }
}

impl Hop for Owner {
    #[inline(always)]
    fn take<'e>(self, ev: &'e Eval, id: Id) -> To<'e> {
        To::Id(match id {
            Id::Comp(c) if ev.s.owners[c as usize] != NO_SEAT => Id::Seat(ev.s.owners[c as usize]),
            _ => Id::None,
        })
    }
}

impl Hop for OnCell {
    #[inline(always)]
    fn take<'e>(self, ev: &'e Eval, id: Id) -> To<'e> {
        To::Id(match id {
            Id::Comp(c) => match ev.s.locs[c as usize] {
                Loc::Cell(cell) => Id::Cell(cell),
                Loc::Zone(_) => Id::None,
            },
            _ => Id::None,
        })
    }
}

impl Hop for Attr {
    #[inline(always)]
    fn take<'e>(self, ev: &'e Eval, id: Id) -> To<'e> {
        match id {
            Id::Comp(c) if c != NONE => To::Value(ev.eng.attr(ev.s, c, self.0)),
            _ => To::Id(Id::None),
        }
    }
}

impl Hop for CompVar {
    #[inline(always)]
    fn take<'e>(self, ev: &'e Eval, id: Id) -> To<'e> {
        match id {
            Id::Comp(c) if c != NONE => {
                let vars = ev.eng.game.vars.len();
                To::Value(&ev.s.comp_vars[c as usize * vars + self.0 as usize])
            }
            _ => To::Id(Id::None),
        }
    }
}

impl Hop for SeatAttr {
    #[inline(always)]
    fn take<'e>(self, ev: &'e Eval, id: Id) -> To<'e> {
        let seats = &ev.eng.game.seats;
        match id {
            Id::Seat(p) if (p as usize) < seats.len() => {
                To::Value(&seats[p as usize].attrs[self.0 as usize])
            }
            _ => To::Id(Id::None),
        }
    }
}

impl Hop for SeatVar {
    #[inline(always)]
    fn take<'e>(self, ev: &'e Eval, id: Id) -> To<'e> {
        match id {
            Id::Seat(p) if p < ev.s.players => {
                let vars = ev.eng.game.vars.len();
                To::Value(&ev.s.seat_vars[p as usize * vars + self.0 as usize])
            }
            _ => To::Id(Id::None),
        }
    }
}

/// The last hop's result as `eval` hands it on: an id as its value, a value read where
/// it stands copied (see `copied`).
#[inline(always)]
fn value(to: To) -> Value {
    match to {
        To::Id(Id::Cell(c)) => Value::Cell(c),
        To::Id(Id::Comp(c)) => Value::Comp(c),
        To::Id(Id::Seat(p)) => Value::Seat(p),
        To::Id(Id::None) => Value::None,
        To::Value(v) => copied(v),
    }
}

/// A start and one hop.
fn one<H: Hop>(start: Start, h: H) -> Get {
    Box::new(move |ev, l| {
        if !budget::charge(2) {
            return Value::None;
        }
        match begin(ev, l, start) {
            Some(id) => value(h.take(ev, id)),
            None => Value::None,
        }
    })
}

/// A start and two hops.
fn two<A: Hop, B: Hop>(start: Start, a: A, b: B) -> Get {
    Box::new(move |ev, l| {
        if !budget::charge(3) {
            return Value::None;
        }
        let Some(id) = begin(ev, l, start) else {
            return Value::None;
        };
        let id = match a.take(ev, id) {
            To::Id(id) => id,
            To::Value(v) => match passed(v) {
                Some(id) => id,
                None => return Value::None,
            },
        };
        value(b.take(ev, id))
    })
}

fn one_of(start: Start, h: Kind) -> Get {
    match h {
        Kind::Piece => one(start, Piece),
        Kind::Owner => one(start, Owner),
        Kind::Cell => one(start, OnCell),
        Kind::Attr(a) => one(start, Attr(a)),
        Kind::CompVar(i) => one(start, CompVar(i)),
        Kind::SeatAttr(i) => one(start, SeatAttr(i)),
        Kind::SeatVar(i) => one(start, SeatVar(i)),
    }
}

fn two_of<A: Hop>(start: Start, a: A, b: Kind) -> Get {
    match b {
        Kind::Piece => two(start, a, Piece),
        Kind::Owner => two(start, a, Owner),
        Kind::Cell => two(start, a, OnCell),
        Kind::Attr(x) => two(start, a, Attr(x)),
        Kind::CompVar(i) => two(start, a, CompVar(i)),
        Kind::SeatAttr(i) => two(start, a, SeatAttr(i)),
        Kind::SeatVar(i) => two(start, a, SeatVar(i)),
    }
}
