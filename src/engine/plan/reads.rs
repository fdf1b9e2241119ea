//! Short reads: what conditions are mostly made of (`x.piece.owner`, `from.piece.rank`,
//! `c.rank`, `me.points`, `p.home`), compiled into one closure each rather than a
//! closure per node. A short read is a start (a local or `me`) and one or two hops from
//! it (the piece on a cell, a component's owner, cell, attribute or variable, a seat's
//! attribute or variable, a cell's emptiness, file, rank, seat or row); each shape is its own closure, made from generic parts
//! (`Walk`), so that the ids in between are never made into values and nothing is called
//! through a pointer on the way. Three things are made of a read: its value (`read`), its
//! number (`int`), and a condition on it (`judged`): its truthiness (`not x.piece.flag`),
//! its place in a list written in the rules, or its comparison with a local, `me`, a
//! constant or a read of one hop (`b.piece.owner == me`, `c.rank == 12`,
//! `rank(c) == me.far`), which looks at the read's end where it stands. A condition is
//! made alone, or with the rest of a chain of `and`s or `or`s in one closure.
//!
//! A read charges the decision's budget what the nodes it stands for charge in `eval`
//! (one step each, and a list's length where a list is read on the way), all at once. A
//! read is compiled so only where none of the nodes under its root is remembered within a
//! query (`memo.rs`); the caller sees to the root. Longer reads, and starts other than a
//! local or `me`, are compiled a node at a time (`get_node`).

use super::{chained, compared, copied, enums_compared, listed, Arg, Cond, Cx, Get, Int};
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

/// A condition on a short read, found out (`judged`) before it is made: made alone, or
/// as the first of a chain of `and`s or `or`s with the rest of the chain (`then`).
pub(super) struct Judgement {
    shape: Shape,
    judge: AnyJudge,
}

enum AnyJudge {
    Compare(Compare),
    InList(InList),
    Truthy { not: bool },
}

/// `e` as a condition on a short read, judged in one closure where the read's end stands
/// (it is not made a value), if it is one of these (`None` otherwise):
/// - `a op b` where `a` is a short read and `b` a local, `me`, a variable of the game, a
///   constant or a read of one hop, or the other way round (`b.piece.owner == me`,
///   `c.rank == 12`, `card.suit == led`, `rank(c) == me.far`). Charged as `truth` charges
///   the comparison: its node, the read's, the operand's.
/// - `a in [...]` (or `not in`) where the list is written in the rules
///   (`x.piece.kind in [a, b]`). Charged as `truth` charges it: the node, the read's
///   nodes, then each item looked at.
/// - a short read, or `not` of one, judged by its value's truthiness (`x.piece.flag`,
///   `not x.piece.flag`).
pub(super) fn judged(cx: &Cx, e: &Expr) -> Option<Judgement> {
    if cx.remembered(e) {
        return None;
    }
    let (read, judge) = match e {
        Expr::Binary(
            op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge),
            a,
            b,
        ) => compare(cx, *op, a, b)?,
        Expr::Binary(op @ (BinOp::In | BinOp::NotIn), a, b) => {
            let Expr::Const(Value::List(items)) = &**b else {
                return None;
            };
            if cx.remembered(a) || cx.remembered(b) {
                return None;
            }
            let want = *op == BinOp::In;
            let items = FixedList::new(items.clone());
            (&**a, AnyJudge::InList(InList { want, items }))
        }
        Expr::Not(x) if !cx.remembered(x) => (&**x, AnyJudge::Truthy { not: true }),
        other => (other, AnyJudge::Truthy { not: false }),
    };
    Some(Judgement {
        shape: shape_of(cx, read)?,
        judge,
    })
}

/// `a op b` as a comparison of a short read (see `judged`): the read and its judge.
fn compare<'e>(cx: &Cx, op: BinOp, a: &'e Expr, b: &'e Expr) -> Option<(&'e Expr, AnyJudge)> {
    if cx.remembered(a) || cx.remembered(b) {
        return None;
    }
    let (read, other, swapped) = match (operand(b), operand(a)) {
        (Some(other), _) => (a, other, false),
        (None, Some(other)) => (b, other, true),
        // Two short reads (`rank(c) == me.far`, `p.tricks == p.bid`): one of one hop
        // taken as the operand, the other walked as the read.
        _ => match one_hop(b) {
            Some(other) if shape_of(cx, a).is_some() => (a, other, false),
            _ => (b, one_hop(a)?, true),
        },
    };
    let steps = 1 + other.nodes();
    Some((
        read,
        AnyJudge::Compare(Compare {
            op,
            other,
            swapped,
            steps,
        }),
    ))
}

impl Judgement {
    /// The condition alone.
    pub(super) fn alone(self) -> Cond {
        self.finish(Alone)
    }

    /// The first condition of a chain of `and`s (`and` true) or `or`s, judged before
    /// `rest` (the rest of the chain) in one closure. `charge`: the chain's nodes that
    /// `eval` charges before it judges this condition (none but for the first).
    pub(super) fn then(self, and: bool, charge: u64, rest: Cond) -> Cond {
        if and {
            self.finish(Then::<true> { charge, rest })
        } else {
            self.finish(Then::<false> { charge, rest })
        }
    }

    fn finish<F: Finish>(self, fin: F) -> Cond {
        let Judgement { shape, judge } = self;
        match judge {
            AnyJudge::Compare(j) => shape.make(Judged(j, fin)),
            AnyJudge::InList(j) => shape.make(Judged(j, fin)),
            AnyJudge::Truthy { not: false } => shape.make(Judged(Truthy::<false>, fin)),
            AnyJudge::Truthy { not: true } => shape.make(Judged(Truthy::<true>, fin)),
        }
    }
}

/// A condition judged on a short read's end where it stands (see `judged`).
trait Judge: Send + Sync + 'static {
    fn judge<W: Walk>(&self, w: W, ev: &Eval, l: &[Value]) -> bool;
}

/// What a judged read is made into: a condition alone, or with the rest of a chain.
trait Finish {
    fn finish<J: Judge, W: Walk>(self, j: J, w: W) -> Cond;
}

struct Alone;

impl Finish for Alone {
    fn finish<J: Judge, W: Walk>(self, j: J, w: W) -> Cond {
        Box::new(move |ev, l| j.judge(w, ev, l))
    }
}

/// The first condition of a chain of `and`s (`AND`) or `or`s (see `Judgement::then`).
struct Then<const AND: bool> {
    charge: u64,
    rest: Cond,
}

impl<const AND: bool> Finish for Then<AND> {
    fn finish<J: Judge, W: Walk>(self, j: J, w: W) -> Cond {
        let Then { charge, rest } = self;
        Box::new(move |ev, l| chained::<AND>(charge, l, |l| j.judge(w, ev, l), |l| rest(ev, l)))
    }
}

/// A judge and what it is made into, made once the read's shape is typed.
struct Judged<J, F>(J, F);

impl<J: Judge, F: Finish> Make for Judged<J, F> {
    type Out = Cond;
    fn make<W: Walk>(self, w: W) -> Cond {
        self.1.finish(self.0, w)
    }
}

/// `e` compiled whole as a number (see `Int`), if it is a short read from a local or `me`
/// that ends in a number: a file or rank, an attribute declared a range of numbers, a
/// seat attribute that is a number for every seat, or a variable that starts as a number.
pub(super) fn int(cx: &Cx, e: &Expr) -> Option<Int> {
    let numbers = match hop_of(e)?.0 {
        Kind::File | Kind::Rank | Kind::Row(_) => true,
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

/// A local, `me`, a variable of the game or a constant that owns no heap storage, as an
/// operand of a comparison; or the seat after or before one held in a local or `me`
/// (`next(p)`, `prev(me)`). Comparisons of two of the first four are compiled for the pair
/// of kinds (`conditions::spots`).
pub(super) enum Operand {
    Local(usize),
    Me,
    Global(usize),
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

pub(super) fn operand(e: &Expr) -> Option<Operand> {
    match e {
        Expr::Local(slot) => Some(Operand::Local(*slot as usize)),
        Expr::Me => Some(Operand::Me),
        Expr::GlobalVar(i) => Some(Operand::Global(*i as usize)),
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
    Some(shape_of(cx, e)?.make(m))
}

/// The shape of a short read: where it starts and its one or two hops.
#[derive(Clone, Copy)]
struct Shape {
    start: Start,
    /// The first of two hops.
    first: Option<Kind>,
    /// The hop that ends the read.
    last: Kind,
}

/// `e`'s shape (see `shaped`).
fn shape_of(cx: &Cx, e: &Expr) -> Option<Shape> {
    let (last, inner) = hop_of(e)?;
    if cx.remembered(inner) {
        return None;
    }
    if let Some(start) = start_of(inner) {
        return Some(Shape {
            start,
            first: None,
            last,
        });
    }
    let (first, at) = hop_of(inner)?;
    if cx.remembered(at) {
        return None;
    }
    Some(Shape {
        start: start_of(at)?,
        first: Some(first),
        last,
    })
}

impl Shape {
    /// The read of this shape, its hops typed, handed to `m`.
    fn make<M: Make>(self, m: M) -> M::Out {
        let Shape { start, first, last } = self;
        match first {
            None => with_hop(last, OneHop { m, start }),
            Some(first) => with_hop(
                first,
                FirstHop {
                    m,
                    start,
                    then: last,
                },
            ),
        }
    }
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
        Kind::SeatOf => v.go(SeatOfCell),
        Kind::Row(rows) => v.go(RowOf(rows)),
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
pub(super) enum Start {
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
pub(super) enum Kind {
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
    SeatOf,
    /// `row(x)` (false) or `rows(x)` (true).
    Row(bool),
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
        Expr::Call(Builtin::SeatOf, args) => (Kind::SeatOf, &args[0]),
        Expr::Call(Builtin::Row, args) => (Kind::Row(false), &args[0]),
        Expr::Call(Builtin::Rows, args) => (Kind::Row(true), &args[0]),
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
/// `seat_of(x)`: the seat whose area holds the cell (boards of areas).
#[derive(Clone, Copy)]
struct SeatOfCell;
/// `row(x)` (false) or `rows(x)` (true): the cell's row in its area's shape now, or how
/// many rows the shape has.
#[derive(Clone, Copy)]
struct RowOf(bool);

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

impl Hop for SeatOfCell {
    #[inline(always)]
    fn take<'e>(self, ev: &'e Eval, id: Id) -> To<'e> {
        To::Id(match id {
            Id::Cell(c) => Id::of(&ev.eng.seat_of_cell(c)),
            _ => Id::None,
        })
    }
}

impl Hop for RowOf {
    #[inline(always)]
    fn take<'e>(self, ev: &'e Eval, id: Id) -> To<'e> {
        // 0 for anything but a cell, as `eval` counts it.
        To::Id(Id::Int(match id {
            Id::Cell(c) => ev.eng.row_of(ev.s, c, self.0),
            _ => 0,
        }))
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

/// A short read's end judged by its truthiness (see `judged`), or for `not` (`NOT`), by
/// its falsity: the `not` node charged first, as `truth` charges it.
struct Truthy<const NOT: bool>;

impl<const NOT: bool> Judge for Truthy<NOT> {
    #[inline(always)]
    fn judge<W: Walk>(&self, w: W, ev: &Eval, l: &[Value]) -> bool {
        if NOT {
            budget::charge(1) && !truthy(w, ev, l)
        } else {
            truthy(w, ev, l)
        }
    }
}

#[inline(always)]
fn truthy<W: Walk>(w: W, ev: &Eval, l: &[Value]) -> bool {
    if !budget::charge(W::NODES) {
        return false;
    }
    match w.walk(ev, l) {
        Some(To::Value(v)) => listed(v) && v.truthy(),
        Some(To::Id(id)) => id.truthy(),
        None => false,
    }
}

/// A short read compared with an operand (see `compare`).
struct Compare {
    op: BinOp,
    other: Operand,
    /// Whether the read stands right of the operator.
    swapped: bool,
    /// The comparison's node and the operand's, charged with the read's.
    steps: u64,
}

impl Judge for Compare {
    #[inline(always)]
    fn judge<W: Walk>(&self, w: W, ev: &Eval, l: &[Value]) -> bool {
        let Compare {
            op,
            ref other,
            swapped,
            steps,
        } = *self;
        if !budget::charge(W::NODES + steps) {
            return false;
        }
        // A seat holds nothing to drop: kept out of the drop glue.
        let seat;
        let b = match other {
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
            Operand::Global(i) => {
                let v = &ev.s.globals[*i];
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
                let p = ev.turned(from, *next);
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
        if let Some(t) = enums_compared(op, a, b) {
            return t;
        }
        if swapped {
            compared(op, b, a)
        } else {
            compared(op, a, b)
        }
    }
}

/// A short read looked for in a list written in the rules (see `judged`).
struct InList {
    want: bool,
    items: FixedList,
}

impl Judge for InList {
    #[inline(always)]
    fn judge<W: Walk>(&self, w: W, ev: &Eval, l: &[Value]) -> bool {
        let InList { want, ref items } = *self;
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
        // Anything else (nothing against a value among them) as `compared` judges it. An
        // id's value holds nothing to drop (see `Id::value`).
        _ => {
            let a = ManuallyDrop::new(id.value());
            let a = &*a;
            return if swapped {
                compared(op, b, a)
            } else {
                compared(op, a, b)
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
