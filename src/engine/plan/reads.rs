//! Short reads: what conditions are mostly made of (`x.piece.owner`, `from.piece.rank`,
//! `c.rank`, `me.points`, `p.home`), compiled into one closure each rather than a
//! closure per node. A short read is a start (a local or `me`) and one or two hops from
//! it (the piece on a cell, a component's owner, cell, attribute or variable, a seat's
//! attribute or variable, a cell's emptiness, file or rank); each shape is its own closure, made from generic parts
//! (`Walk`), so that the ids in between are never made into values and nothing is called
//! through a pointer on the way. Three things are made of a read: its value (`read`), its
//! truthiness (`truthy`: `not x.piece.flag`), and its comparison with a local, `me`, a
//! constant or a read of one hop (`compare`: `b.piece.owner == me`, `c.rank == 12`,
//! `rank(c) == me.far`), which looks at the read's end where it stands.
//!
//! A read charges the decision's budget what the nodes it stands for charge in `eval`
//! (one step each, and a list's length where a list is read on the way), all at once. A
//! read is compiled so only where none of the nodes under its root is remembered within a
//! query (`memo.rs`); the caller sees to the root. Longer reads, and starts other than a
//! local or `me`, are compiled a node at a time (`get_node`).

use super::{copied, listed, Arg, Cond, Cx, Get, Int};
use crate::engine::budget;
use crate::engine::eval::{Eval, FixedList};
use crate::engine::state::{Loc, NONE, NO_SEAT};
use crate::ir::{ops, BinOp, Builtin, Expr, Value};
use std::mem::ManuallyDrop;

/// `e` compiled whole, if it is a short read from a local or `me` (see the module's
/// documentation).
pub(super) fn read(cx: &Cx, e: &Expr) -> Option<Get> {
    shaped(cx, e, Read)
}

/// `e`, one hop from an operand that is no short read's start (`first(hand(me)).owner`,
/// `top(pile).rank`): the operand as `Arg` takes it, then the hop as a short read takes
/// it, charged as `eval` charges the node. With `read`, every hop the plans compile is
/// taken here.
pub(super) fn hop(cx: &mut Cx, e: &Expr) -> Option<Get> {
    let (kind, inner) = hop_of(e)?;
    Some(with_hop(kind, FromArg(Arg::new(cx, inner))))
}

/// A hop from an operand (see `hop`).
struct FromArg(Arg);

impl WithHop for FromArg {
    type Out = Get;
    fn go<H: Hop>(self, h: H) -> Get {
        let arg = self.0;
        Box::new(move |ev, l| {
            if !budget::charge(1) {
                return Value::None;
            }
            arg.with(ev, l, |v| value(h.take(ev, Id::of(v))))
        })
    }
}

/// `a op b` judged in one closure where `a` is a short read and `b` a local, `me`, a
/// constant or a read of one hop (or the other way round): the read's end compared where
/// it stands, not made a value. Charged as `truth` charges the comparison: its node, the read's, the operand's.
pub(super) fn compare(cx: &Cx, op: BinOp, a: &Expr, b: &Expr) -> Option<Cond> {
    if cx.remembered(a) || cx.remembered(b) {
        return None;
    }
    let (read, other, swapped) = match (operand(b), operand(a)) {
        (Some(other), _) => (a, other, false),
        (None, Some(other)) => (b, other, true),
        // Two short reads (`rank(c) == me.far`, `p.tricks == p.bid`): one of one hop
        // taken as the operand, the other walked as the read.
        _ => {
            let compared = |read, other, swapped| {
                let other = one_hop(other)?;
                shaped(cx, read, Compare { op, other, swapped })
            };
            return compared(a, b, false).or_else(|| compared(b, a, true));
        }
    };
    shaped(cx, read, Compare { op, other, swapped })
}

/// `a in [...]` (or `not in`) judged in one closure where `a` is a short read and the list
/// is written in the rules (`x.piece.kind in [a, b]`): the read's end looked for
/// where it stands, not made a value. Charged as `truth` charges it: the node, the read's
/// nodes, then each item looked at.
pub(super) fn in_list(cx: &Cx, want: bool, a: &Expr, b: &Expr) -> Option<Cond> {
    let Expr::Const(Value::List(items)) = b else {
        return None;
    };
    if cx.remembered(a) || cx.remembered(b) {
        return None;
    }
    let items = FixedList::new(items.clone());
    shaped(cx, a, InList { want, items })
}

/// `e` compiled whole as a number (see `Int`), if it is a short read from a local or `me`
/// that ends in a number: a file or rank, an attribute declared a range of numbers, a
/// seat attribute that is a number for every seat, or a variable that starts as a number.
pub(super) fn int(cx: &Cx, e: &Expr) -> Option<Int> {
    let numbers = match hop_of(e)?.0 {
        Kind::File | Kind::Rank => true,
        Kind::Attr(a) => cx.number_attrs.get(a as usize) == Some(&true),
        Kind::CompVar(i) | Kind::SeatVar(i) => cx.number_vars.get(i as usize) == Some(&true),
        Kind::SeatAttr(i) => cx.number_seat_attrs.get(i as usize) == Some(&true),
        _ => false,
    };
    if !numbers {
        return None;
    }
    shaped(cx, e, AsInt)
}

/// A short read's end judged as a condition, by its value's truthiness (`not x.piece.flag`).
pub(super) fn truthy(cx: &Cx, e: &Expr) -> Option<Cond> {
    shaped(cx, e, Truthy)
}

/// A local, `me` or a constant that owns no heap storage, as an operand of a comparison;
/// or the seat after or before one held in a local or `me` (`next(p)`, `prev(me)`).
enum Operand {
    Local(usize),
    Me,
    Const(Value),
    /// `next(...)` (`next` true) or `prev(...)` of a local (its slot) or of `me` (`None`).
    Turn {
        of: Option<usize>,
        next: bool,
    },
    /// A short read of one hop (`me.far`, `p.bid`), its end seen where it stands.
    Hop(Start, Kind),
}

impl Operand {
    /// The nodes the operand stands for, each a step as `eval` charges them.
    fn nodes(&self) -> u64 {
        match self {
            Operand::Turn { .. } | Operand::Hop(..) => 2,
            _ => 1,
        }
    }
}

fn operand(e: &Expr) -> Option<Operand> {
    match e {
        Expr::Local(slot) => Some(Operand::Local(*slot as usize)),
        Expr::Me => Some(Operand::Me),
        Expr::Const(v) if !v.owns_heap() => Some(Operand::Const(v.clone())),
        Expr::Call(b @ (Builtin::NextSeat | Builtin::PrevSeat), args) => {
            let of = match args[0] {
                Expr::Local(slot) => Some(slot as usize),
                Expr::Me => None,
                _ => return None,
            };
            let next = *b == Builtin::NextSeat;
            Some(Operand::Turn { of, next })
        }
        _ => None,
    }
}

/// `e` as an operand if it is a short read of one hop (see `Operand::Hop`).
fn one_hop(e: &Expr) -> Option<Operand> {
    let (kind, inner) = hop_of(e)?;
    Some(Operand::Hop(start_of(inner)?, kind))
}

/// What is made of a short read once its shape is known (`shaped`): its reader or a
/// comparison.
trait Make {
    type Out;
    fn make<W: Walk>(self, w: W) -> Self::Out;
}

/// `e` as a short read of its shape, handed to `m`; `None` if it is no short read or a node
/// under its root is remembered within a query.
fn shaped<M: Make>(cx: &Cx, e: &Expr, m: M) -> Option<M::Out> {
    let (outer, inner) = hop_of(e)?;
    if cx.remembered(inner) {
        return None;
    }
    if let Some(start) = start_of(inner) {
        return Some(with_hop(outer, OneHop { m, start }));
    }
    let (first, at) = hop_of(inner)?;
    if cx.remembered(at) {
        return None;
    }
    let start = start_of(at)?;
    Some(with_hop(
        first,
        FirstHop {
            m,
            start,
            then: outer,
        },
    ))
}

/// What is done with a hop once its type is known (`with_hop`).
trait WithHop {
    type Out;
    fn go<H: Hop>(self, h: H) -> Self::Out;
}

/// The one place a hop's kind becomes its type.
#[inline(always)]
fn with_hop<V: WithHop>(kind: Kind, v: V) -> V::Out {
    match kind {
        Kind::Piece => v.go(Piece),
        Kind::Owner => v.go(Owner),
        Kind::Cell => v.go(OnCell),
        Kind::Attr(a) => v.go(Attr(a)),
        Kind::CompVar(i) => v.go(CompVar(i)),
        Kind::SeatAttr(i) => v.go(SeatAttr(i)),
        Kind::SeatVar(i) => v.go(SeatVar(i)),
        Kind::Empty => v.go(Empty),
        Kind::File => v.go(FileRank(false)),
        Kind::Rank => v.go(FileRank(true)),
    }
}

/// A read of one hop, made by `m`.
struct OneHop<M> {
    m: M,
    start: Start,
}

impl<M: Make> WithHop for OneHop<M> {
    type Out = M::Out;
    fn go<H: Hop>(self, h: H) -> M::Out {
        self.m.make(One(self.start, h))
    }
}

/// The first of two hops: the second (`then`) is typed next.
struct FirstHop<M> {
    m: M,
    start: Start,
    then: Kind,
}

impl<M: Make> WithHop for FirstHop<M> {
    type Out = M::Out;
    fn go<A: Hop>(self, a: A) -> M::Out {
        let FirstHop { m, start, then } = self;
        with_hop(then, SecondHop { m, start, a })
    }
}

/// The second of two hops, the first typed.
struct SecondHop<M, A> {
    m: M,
    start: Start,
    a: A,
}

impl<M: Make, A: Hop> WithHop for SecondHop<M, A> {
    type Out = M::Out;
    fn go<B: Hop>(self, b: B) -> M::Out {
        self.m.make(Two(self.start, self.a, b))
    }
}

/// Where a short read starts.
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
    Empty,
    File,
    Rank,
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
        Expr::CellEmpty(c) => (Kind::Empty, c),
        Expr::Call(Builtin::File, args) => (Kind::File, &args[0]),
        Expr::Call(Builtin::Rank, args) => (Kind::Rank, &args[0]),
        _ => return None,
    })
}

/// What stands between two hops: an id, or nothing a hop can go on from; or what a hop
/// that ends a read gives (a cell's emptiness, its file or rank).
#[derive(Clone, Copy)]
enum Id {
    Cell(u16),
    Comp(u16),
    Seat(u8),
    Int(i64),
    Bool(bool),
    None,
}

impl Id {
    #[inline(always)]
    fn value(self) -> Value {
        match self {
            Id::Cell(c) => Value::Cell(c),
            Id::Comp(c) => Value::Comp(c),
            Id::Seat(p) => Value::Seat(p),
            Id::Int(i) => Value::Int(i),
            Id::Bool(b) => Value::Bool(b),
            Id::None => Value::None,
        }
    }

    /// `Value::truthy` of the id's value, without making it.
    #[inline(always)]
    fn truthy(self) -> bool {
        match self {
            Id::Bool(b) => b,
            Id::Int(i) => i != 0,
            Id::None => false,
            Id::Cell(_) | Id::Comp(_) | Id::Seat(_) => true,
        }
    }

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
    listed(v).then(|| Id::of(v))
}

/// Where the read starts, as an id (a local read as `passed` reads it).
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
/// `x.empty`.
#[derive(Clone, Copy)]
struct Empty;
/// `file(x)` (false) or `rank(x)` (true).
#[derive(Clone, Copy)]
struct FileRank(bool);

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

impl Hop for Empty {
    #[inline(always)]
    fn take<'e>(self, ev: &'e Eval, id: Id) -> To<'e> {
        To::Id(Id::Bool(match id {
            Id::Cell(c) => ev.eng.empty(ev.s, c),
            _ => false,
        }))
    }
}

impl Hop for FileRank {
    #[inline(always)]
    fn take<'e>(self, ev: &'e Eval, id: Id) -> To<'e> {
        To::Id(match id {
            Id::Cell(c) => {
                ops::file_or_rank_of(c, self.0, &ev.eng.game.board).map_or(Id::None, Id::Int)
            }
            _ => Id::None,
        })
    }
}

/// A hop taken now, from an id (its kind known only as it runs: see `Operand::Hop`).
struct Taken<'e, 'x>(&'e Eval<'x>, Id);

impl<'e, 'x> WithHop for Taken<'e, 'x> {
    type Out = To<'e>;
    #[inline(always)]
    fn go<H: Hop>(self, h: H) -> To<'e> {
        h.take(self.0, self.1)
    }
}

/// A short read of one shape: its nodes, and the walk to its end (the nodes not charged).
trait Walk: Copy + Send + Sync + 'static {
    /// The steps its nodes charge (a list read on the way aside).
    const NODES: u64;
    /// The read's end; `None` once the budget is spent (by a list read on the way).
    fn walk<'e>(self, ev: &'e Eval, l: &'e [Value]) -> Option<To<'e>>;
}

/// A start and one hop.
#[derive(Clone, Copy)]
struct One<A>(Start, A);
/// A start and two hops.
#[derive(Clone, Copy)]
struct Two<A, B>(Start, A, B);

impl<A: Hop> Walk for One<A> {
    const NODES: u64 = 2;
    #[inline(always)]
    fn walk<'e>(self, ev: &'e Eval, l: &'e [Value]) -> Option<To<'e>> {
        Some(self.1.take(ev, begin(ev, l, self.0)?))
    }
}

impl<A: Hop, B: Hop> Walk for Two<A, B> {
    const NODES: u64 = 3;
    #[inline(always)]
    fn walk<'e>(self, ev: &'e Eval, l: &'e [Value]) -> Option<To<'e>> {
        let id = match self.1.take(ev, begin(ev, l, self.0)?) {
            To::Id(id) => id,
            To::Value(v) => passed(v)?,
        };
        Some(self.2.take(ev, id))
    }
}

/// A short read's value, as `eval` gives it.
struct Read;

impl Make for Read {
    type Out = Get;
    fn make<W: Walk>(self, w: W) -> Get {
        Box::new(move |ev, l| {
            if !budget::charge(W::NODES) {
                return Value::None;
            }
            match w.walk(ev, l) {
                Some(to) => value(to),
                None => Value::None,
            }
        })
    }
}

/// A short read's number, or the value `Read` gives where it is none.
struct AsInt;

impl Make for AsInt {
    type Out = Int;
    fn make<W: Walk>(self, w: W) -> Int {
        Box::new(move |ev, l| {
            if !budget::charge(W::NODES) {
                return Err(Value::None);
            }
            match w.walk(ev, l) {
                Some(To::Id(Id::Int(i))) => Ok(i),
                Some(To::Value(&Value::Int(i))) => Ok(i),
                Some(to) => Err(value(to)),
                None => Err(Value::None),
            }
        })
    }
}

/// A short read's end judged by its truthiness (see `truthy`).
struct Truthy;

impl Make for Truthy {
    type Out = Cond;
    fn make<W: Walk>(self, w: W) -> Cond {
        Box::new(move |ev, l| {
            if !budget::charge(W::NODES) {
                return false;
            }
            match w.walk(ev, l) {
                Some(To::Value(v)) => listed(v) && v.truthy(),
                Some(To::Id(id)) => id.truthy(),
                None => false,
            }
        })
    }
}

/// A short read compared with a local, `me` or a constant (see `compare`).
struct Compare {
    op: BinOp,
    other: Operand,
    /// Whether the read stands right of the operator.
    swapped: bool,
}

impl Make for Compare {
    type Out = Cond;
    fn make<W: Walk>(self, w: W) -> Cond {
        let Compare { op, other, swapped } = self;
        // The comparison's node, the read's and the operand's.
        let steps = W::NODES + 1 + other.nodes();
        Box::new(move |ev, l| {
            if !budget::charge(steps) {
                return false;
            }
            // A seat holds nothing to drop: kept out of the drop glue.
            let seat;
            let b = match &other {
                Operand::Const(v) => v,
                Operand::Me => {
                    seat = ManuallyDrop::new(Value::Seat(ev.me));
                    &*seat
                }
                Operand::Local(slot) => {
                    let v = &l[*slot];
                    if !listed(v) {
                        return false;
                    }
                    v
                }
                // As `Eval` turns: from anything but a seat, no seat.
                Operand::Turn { of, next } => {
                    let from = match of {
                        Some(slot) => {
                            let v = &l[*slot];
                            if !listed(v) {
                                return false;
                            }
                            match *v {
                                Value::Seat(p) => p,
                                _ => NO_SEAT,
                            }
                        }
                        None => ev.me,
                    };
                    let p = if *next {
                        ev.next_seat(from)
                    } else {
                        ev.prev_seat(from)
                    };
                    seat = ManuallyDrop::new(if p == NO_SEAT {
                        Value::None
                    } else {
                        Value::Seat(p)
                    });
                    &*seat
                }
                Operand::Hop(start, kind) => {
                    let Some(id) = begin(ev, l, *start) else {
                        return false;
                    };
                    match with_hop(*kind, Taken(ev, id)) {
                        To::Value(v) if listed(v) => v,
                        To::Value(_) => return false,
                        // An id's value holds nothing to drop (see `Id::value`).
                        To::Id(id) => {
                            seat = ManuallyDrop::new(id.value());
                            &*seat
                        }
                    }
                }
            };
            let a = match w.walk(ev, l) {
                Some(To::Value(v)) if listed(v) => v,
                Some(To::Value(_)) => return false,
                Some(To::Id(id)) => return compare_id(op, id, b, swapped),
                None => return false,
            };
            // Two enum values (an attribute and a name it may have): equal or not without a call.
            if let (Value::Enum(e, x), Value::Enum(f, y), BinOp::Eq | BinOp::Ne) = (a, b, op) {
                return (e == f && x == y) == (op == BinOp::Eq);
            }
            if swapped {
                ops::compare(op, b, a)
            } else {
                ops::compare(op, a, b)
            }
        })
    }
}

/// A short read looked for in a list written in the rules (see `in_list`).
struct InList {
    want: bool,
    items: FixedList,
}

impl Make for InList {
    type Out = Cond;
    fn make<W: Walk>(self, w: W) -> Cond {
        let InList { want, items } = self;
        Box::new(move |ev, l| {
            // The node's step; then the read's, as its own closure charges them (what it
            // gives once the budget is spent is `none`).
            if !budget::charge(1) {
                return false;
            }
            let found = if !budget::charge(W::NODES) {
                items.has(&Value::None)
            } else {
                match w.walk(ev, l) {
                    Some(To::Value(v)) if listed(v) => items.has(v),
                    Some(To::Id(id)) => items.has(&ManuallyDrop::new(id.value())),
                    Some(To::Value(_)) | None => items.has(&Value::None),
                }
            };
            found == want
        })
    }
}

/// `ops::compare` of an id read at a short read's end (its value, right of the operator
/// if `swapped`) with `b`: two cells, two seats, or two components for (in)equality are
/// compared as numbers, without making the id a value.
#[inline(always)]
fn compare_id(op: BinOp, id: Id, b: &Value, swapped: bool) -> bool {
    let ord = match (id, b) {
        (Id::Cell(x), Value::Cell(y)) => x.cmp(y),
        (Id::Seat(x), Value::Seat(y)) => x.cmp(y),
        (Id::Int(x), Value::Int(y)) => x.cmp(y),
        (Id::Comp(x), Value::Comp(y)) if matches!(op, BinOp::Eq | BinOp::Ne) => x.cmp(y),
        _ => {
            // An id's value holds nothing to drop (see `Id::value`).
            let a = ManuallyDrop::new(id.value());
            let a = &*a;
            return if swapped {
                ops::compare(op, b, a)
            } else {
                ops::compare(op, a, b)
            };
        }
    };
    ops::ordered(op, if swapped { ord.reverse() } else { ord })
}

/// The last hop's result as `eval` hands it on: an id as its value, a value read where
/// it stands copied (see `copied`).
#[inline(always)]
fn value(to: To) -> Value {
    match to {
        To::Id(id) => id.value(),
        To::Value(v) => copied(v),
    }
}
