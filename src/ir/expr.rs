//! Expressions and effects in lowered form: slots instead of names, ids instead of strings.

use super::{Value, ZoneId};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    NotIn,
    Range,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub enum Quant {
    Any,
    All,
    None,
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub enum Agg {
    Sum,
    Max,
    Min,
    Count,
}

/// Functions built into the language. Each is a general idea about boards, collections
/// or numbers; none belongs to one game.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub enum Builtin {
    /// `adjacent(cell, dirs)`: the neighbouring cells in those directions.
    Adjacent,
    /// `slide(cell, dirs)`: empty cells reached by moving straight through empty cells.
    Slide,
    /// `sight(cell, dirs)`: the first occupied cell along each straight line.
    Sight,
    /// `reach(cell, dirs)`: empty cells reached by any path of steps through empty cells.
    Reach,
    /// `runs(cells, dirs)`: every straight run of touching cells drawn from `cells`.
    Runs,
    /// `sweep(run, dir, n)`: the cells a run passes over and lands on when shifted n steps.
    Sweep,
    /// `shifts(run, dir)`: the distances a run can slide as a block in one direction, every
    /// cell it passes over or lands on being empty or its own.
    Shifts,
    /// `first(list)`: the first item, or none.
    First,
    /// `last(list)`: the last item, or none.
    Last,
    /// `size(list)`: how many items.
    Size,
    /// `max(a, b)` and `min(a, b)` of two numbers.
    Max2,
    Min2,
    /// `abs(n)`.
    Abs,
    /// `next(seat)`: the next seat in seat order; `prev(seat)` the one before.
    NextSeat,
    PrevSeat,
    /// `contents(zones)`: every component in a zone or a list of zones, in order.
    Contents,
    /// `a + b` on collections: the items of both, in order.
    Concat,
    /// `destinations(cell, pattern)`: where the piece on `cell` may move by the pattern:
    /// empty cells and cells of other owners (capture by landing), each once.
    Destinations,
    /// `attacks(cell, pattern)`: the cells the piece on `cell` attacks by the pattern:
    /// where a way ends by a leg that may capture (not `m`), whatever stands there (empty,
    /// another owner's piece, or its own: a defended piece), each once.
    Attacks,
    /// `route(cell, pattern)`: a move of the piece on `cell` by the pattern, not yet begun,
    /// that may be taken a part at a time.
    RouteOf,
    /// `waypoints(route)`: the empty cells where the rest of the move may pause and go on
    /// later (squares it passes through, and landings between legs).
    Waypoints,
    /// `finishes(route)`: where the rest of the move may end, as `destinations` says.
    Finishes,
    /// `may_halt(route)`: whether the move may end where it stands.
    MayHalt,
    /// `advance(route, cell)`: the rest of the move once the piece has gone on to `cell`.
    Advance,
    /// `passed(route, cell)`: the cells that every way of the rest of the move to `cell`
    /// passes through (landings between legs, squares a rider crosses), in order.
    Passed,
    /// `group(cell, dirs, through)`: the cells of `through` reached from `cell` by steps
    /// in `dirs` that stay inside `through`.
    Group,
    /// `distance(a, b)`: the Chebyshev distance between two grid cells; on a hex board,
    /// the steps between two hexagons.
    Distance,
    /// `file(cell)` and `rank(cell)`: the column and row of a grid cell, from 1 (file 1
    /// is `a`, rank 1 the bottom row: `c4` is file 3, rank 4).
    File,
    Rank,
    /// `cell(f, r)`: the grid cell at file `f` and rank `r`, from 1, or none off the board.
    CellAt,
    /// `linked(cell)`: the cells linked to a cell (by its area's shape or a link rule).
    Linked,
    /// `reachable(cell, within)`: empty cells of `within` reached from a cell by links
    /// through empty cells of `within`.
    Reachable,
    /// `targets(cell, n)`: occupied cells at the end of a path of links whose cells
    /// between are empty, but for at most `n` occupied ones passed over.
    Targets,
    /// `row(cell)`: the row of a cell in its area's shape, 1 for the front; 0 elsewhere.
    Row,
    /// `rows(cell)`: how many rows the shape of the cell's area has.
    Rows,
    /// `rows(shape)`, `size(shape)` and `row_size(shape, r)`.
    ShapeRows,
    ShapeSize,
    RowSize,
    /// `seat_of(cell)`: the seat whose area holds the cell, or none.
    SeatOf,
    /// `subsets(list, lo, hi)`: every choice of lo to hi items from a list, as lists; a
    /// choice among identical components is offered once.
    Subsets,
    /// `index_of(list, x)`: the place of `x` in the list, from 1; 0 if it is not there.
    IndexOf,
    /// `along(path, cell, k)`: the cell `k` steps further along a list of cells from
    /// `cell` (backwards for negative `k`); a `loop` path wraps round, an open one gives
    /// none past its ends; none if `cell` is not on it.
    Along,
    /// `between(path, a, b)`: the cells passed over going along a list of cells from `a`
    /// to `b`, neither included (round the end of a `loop` path); empty if `b` does not
    /// come after `a`.
    Between,
    /// `line(a, b)`: the cells of the straight line from `a` to `b`, both included, in
    /// that order; empty if the two are not on one file, rank or diagonal.
    Line,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub enum Expr {
    Const(Value),
    Local(u16),
    /// The seat deciding now.
    Me,
    /// The seat whose turn it is.
    TurnSeat,
    /// The next seat after the one deciding.
    Opponent,
    /// All seats still in the game, in seat order.
    Seats,
    /// All cells of the board.
    Cells,
    /// The cells holding a component, in cell order.
    Occupied,
    /// The cells holding a component of the given seat.
    CellsOf(Box<Expr>),
    /// Turns completed in the current phase.
    PhaseTurns,
    /// `repetitions`: how many times the current position has stood in the game, this
    /// time included (see `Game::history`).
    Repetitions,
    CurrentPhase,
    SeatAttr(Box<Expr>, u16),
    SeatVar(Box<Expr>, u16),
    GlobalVar(u16),
    CompAttr(Box<Expr>, u16),
    /// A per-piece variable of a component.
    CompVar(Box<Expr>, u16),
    CompOwner(Box<Expr>),
    /// The cell a component stands on, or none.
    CompCell(Box<Expr>),
    CellPiece(Box<Expr>),
    CellEmpty(Box<Expr>),
    /// A zone; per-seat zones take the seat, numbered zones their number (from 1).
    Zone(ZoneId, Option<Box<Expr>>, Option<Box<Expr>>),
    /// All the numbered zones of a name (of one seat, for per-seat ones), as a list.
    ZoneRow(ZoneId, Option<Box<Expr>>),
    /// A region's cells; per-seat regions take the seat.
    Region(u16, Option<Box<Expr>>),
    /// An area's cells in its current shape (the cell itself, for a one-cell area);
    /// per-seat areas take the seat.
    Area(u16, Option<Box<Expr>>),
    Not(Box<Expr>),
    Neg(Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Quant(Quant, u16, Box<Expr>, Box<Expr>),
    Agg(Agg, u16, Box<Expr>, Box<Expr>),
    Comprehension(u16, Box<Expr>, Option<Box<Expr>>),
    List(Vec<Expr>),
    Call(Builtin, Vec<Expr>),
    /// The i-th item of a collection (a list, a run's cells, a zone's components bottom
    /// first), counted from 1; a negative i counts from the end (-1 is the last); `none`
    /// out of range.
    Index(Box<Expr>, Box<Expr>),
    /// A definition's argument computed once where the definition is used: the value of
    /// the first expression put in the local, then the second (the definition's body,
    /// which reads the argument from the local each time it names it).
    Bind(u16, Box<Expr>, Box<Expr>),
    /// A part of a loop's body (a quantifier's, an aggregate's, a comprehension's) that
    /// reads no local the loop binds: computed the first time the walk asks for it, kept
    /// in the second local, and read from there after, while the first local (the flag,
    /// set false by a `Bind` around the loop) says it is computed. Made only when the
    /// engine is built (`engine/once.rs`), never by the checker.
    Once(u16, u16, Box<Expr>),
    /// `[x in coll where key(x) == max y in coll: key(y)]` (or `min`): the items of the
    /// collection whose key is the greatest (the least), in the collection's order, each
    /// key computed once. Made only when the engine is built (`engine/best.rs`), never by
    /// the checker.
    Best(Agg, u16, Box<Expr>, Box<Expr>),
}

/// The match of `Expr::each_child` and `Expr::each_child_mut`: `$f` called on each direct
/// part of `$e`, in order, lists walked by `$iter`.
macro_rules! each_child {
    ($e:expr, $f:ident, $iter:ident) => {
        match $e {
            Expr::Const(_)
            | Expr::Local(_)
            | Expr::Me
            | Expr::TurnSeat
            | Expr::Opponent
            | Expr::Seats
            | Expr::Cells
            | Expr::Occupied
            | Expr::PhaseTurns
            | Expr::Repetitions
            | Expr::CurrentPhase
            | Expr::GlobalVar(_) => {}
            Expr::CellsOf(a)
            | Expr::SeatAttr(a, _)
            | Expr::SeatVar(a, _)
            | Expr::CompAttr(a, _)
            | Expr::CompVar(a, _)
            | Expr::CompOwner(a)
            | Expr::CompCell(a)
            | Expr::CellPiece(a)
            | Expr::CellEmpty(a)
            | Expr::Not(a)
            | Expr::Neg(a) => $f(a),
            Expr::Zone(_, a, b) => {
                if let Some(a) = a {
                    $f(a);
                }
                if let Some(b) = b {
                    $f(b);
                }
            }
            Expr::ZoneRow(_, a) | Expr::Region(_, a) | Expr::Area(_, a) => {
                if let Some(a) = a {
                    $f(a);
                }
            }
            Expr::Once(_, _, a) => $f(a),
            Expr::Binary(_, a, b) | Expr::Index(a, b) | Expr::Bind(_, a, b) => {
                $f(a);
                $f(b);
            }
            Expr::If(c, a, b) => {
                $f(c);
                $f(a);
                $f(b);
            }
            Expr::Quant(_, _, a, b) | Expr::Agg(_, _, a, b) | Expr::Best(_, _, a, b) => {
                $f(a);
                $f(b);
            }
            Expr::Comprehension(_, a, b) => {
                $f(a);
                if let Some(b) = b {
                    $f(b);
                }
            }
            Expr::List(items) | Expr::Call(_, items) => items.$iter().for_each($f),
        }
    };
}

impl Expr {
    /// Calls `f` on each direct part of this expression, in order.
    pub fn each_child<'e>(&'e self, f: &mut dyn FnMut(&'e Expr)) {
        each_child!(self, f, iter)
    }

    /// Calls `f` on each direct part of this expression, in order, to change it.
    pub fn each_child_mut(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        each_child!(self, f, iter_mut)
    }

    /// Whether `f` holds for this expression or any part within it (looked at from the
    /// outside in, stopping at the first it holds for).
    pub fn any_node(&self, f: &mut dyn FnMut(&Expr) -> bool) -> bool {
        if f(self) {
            return true;
        }
        let mut found = false;
        self.each_child(&mut |c| found = found || c.any_node(f));
        found
    }

    /// Whether this expression reads local `slot` anywhere within it.
    pub fn reads_local(&self, slot: u16) -> bool {
        self.any_node(&mut |e| matches!(e, Expr::Local(s) if *s == slot))
    }
}

/// A variable to assign.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub enum Target {
    Global(u16),
    Seat(Expr, u16),
    Piece(Expr, u16),
    /// A component's attribute, changed in play (`dest.piece.rank = high`).
    Attr(Expr, u16),
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub enum AssignOp {
    Set,
    Add,
    Sub,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub enum Stmt {
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    For(u16, Expr, Vec<Stmt>),
    Let(u16, Expr),
    /// Move a component (or a list of them) onto a cell or into a zone, optionally
    /// turning it face up (`Some(true)`) or down.
    Move(Expr, Expr, Option<bool>),
    /// Turn components face up (true) or face down.
    Face(Expr, bool),
    Swap(Expr, Expr),
    Shift(Expr, Expr, Expr),
    Shuffle(Expr),
    Place(Expr, Expr),
    /// Put components at the bottom of a zone.
    Tuck(Expr, Expr),
    /// End the turn once the action is over.
    EndTurn,
    /// Start a reaction: its decisions come before play goes on.
    React(u16),
    /// Lay out an area (of the seat, for a per-seat area) by a shape, or clear it (`none`).
    Form(u16, Option<Expr>, Expr),
    /// Draw one item of a collection at random into a local slot (`let r = roll(1, 6)`).
    Roll(u16, Expr),
    /// A named effect, inlined with its arguments.
    Block(Vec<Stmt>),
    /// Move an amount of a per-seat counter from one seat to another, never more than the
    /// payer has: the total is conserved.
    Transfer(Expr, u16, Expr, Expr),
    /// Move the top N components of one zone onto another (fewer if it runs out).
    Deal(Expr, Expr, Expr),
    Win(Expr),
    Lose(Expr),
    Draw,
    Assign(Target, AssignOp, Expr),
}

/// The match of `Stmt::each_expr` and `Stmt::each_expr_mut`: `$f` called on each
/// expression of `$st` itself, in the order they are evaluated.
macro_rules! each_expr {
    ($st:expr, $f:ident) => {
        match $st {
            Stmt::If(c, _, _) => $f(c),
            Stmt::For(_, e, _)
            | Stmt::Let(_, e)
            | Stmt::Face(e, _)
            | Stmt::Shuffle(e)
            | Stmt::Roll(_, e)
            | Stmt::Win(e)
            | Stmt::Lose(e) => $f(e),
            Stmt::Move(a, b, _) | Stmt::Swap(a, b) | Stmt::Place(a, b) | Stmt::Tuck(a, b) => {
                $f(a);
                $f(b);
            }
            Stmt::Shift(a, b, c) | Stmt::Deal(a, b, c) => {
                $f(a);
                $f(b);
                $f(c);
            }
            Stmt::Transfer(a, _, b, c) => {
                $f(a);
                $f(b);
                $f(c);
            }
            Stmt::Form(_, seat, shape) => {
                if let Some(seat) = seat {
                    $f(seat);
                }
                $f(shape);
            }
            Stmt::Assign(target, _, value) => {
                $f(value);
                match target {
                    Target::Seat(e, _) | Target::Piece(e, _) | Target::Attr(e, _) => $f(e),
                    Target::Global(_) => {}
                }
            }
            Stmt::Block(_) | Stmt::EndTurn | Stmt::React(_) | Stmt::Draw => {}
        }
    };
}

/// The match of `Stmt::each_body` and `Stmt::each_body_mut`: `$f` called on each list of
/// statements `$st` holds, in order.
macro_rules! each_body {
    ($st:expr, $f:ident) => {
        match $st {
            Stmt::If(_, a, b) => {
                $f(a);
                $f(b);
            }
            Stmt::For(_, _, b) | Stmt::Block(b) => $f(b),
            _ => {}
        }
    };
}

impl Stmt {
    /// Calls `f` on each expression of `stmts` and of the statements they hold, at any
    /// depth, in order.
    pub fn each_expr_within<'s>(stmts: &'s [Stmt], f: &mut dyn FnMut(&'s Expr)) {
        for st in stmts {
            st.each_expr(f);
            st.each_body(&mut |b| Stmt::each_expr_within(b, f));
        }
    }

    /// Calls `f` on each list of statements this statement holds (an `if`'s two
    /// branches, a `for`'s body, a block), in order.
    pub fn each_body<'s>(&'s self, f: &mut dyn FnMut(&'s [Stmt])) {
        each_body!(self, f)
    }

    /// Calls `f` on each expression of this statement itself (not those of the
    /// statements it holds), in the order they are evaluated.
    pub fn each_expr<'e>(&'e self, f: &mut dyn FnMut(&'e Expr)) {
        each_expr!(self, f)
    }

    /// `each_expr`, each expression handed over to change it.
    pub fn each_expr_mut(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        each_expr!(self, f)
    }

    /// `each_body`, each list handed over to change it.
    pub fn each_body_mut(&mut self, f: &mut dyn FnMut(&mut Vec<Stmt>)) {
        each_body!(self, f)
    }
}
