//! Pure operations on values, shared by the checker (constant folding) and the engine.

use super::{Agg, BinOp, Board, Quant, Value};
use crate::ir::Items;

/// The most numbers a range `a..b` yields, however it is used.
pub const MAX_RANGE: usize = 100_000;

/// Whether `item` is in the collection `coll` (a list, or a run of cells on `board`).
pub fn contains(coll: &Value, item: &Value, board: &Board) -> bool {
    match coll {
        Value::List(items) => items.contains(item),
        Value::Line { start, dir, len } => match item {
            Value::Cell(c) => {
                let mut cur = *start;
                for i in 0..*len {
                    if i > 0 {
                        cur = board.step(cur, *dir);
                        if cur == super::NO_CELL {
                            return false;
                        }
                    }
                    if cur == *c {
                        return true;
                    }
                }
                false
            }
            _ => false,
        },
        _ => false,
    }
}

/// Where the item `xs[i]` stands among `n` items, from 0: `i` counts from 1, and a
/// negative `i` from the end (-1 is the last); `None` if it names no item (0 included).
pub fn position(n: usize, i: i64) -> Option<usize> {
    let k = if i > 0 {
        i.checked_sub(1)?
    } else if i < 0 {
        (n as i64).checked_add(i)?
    } else {
        return None;
    };
    (0..n as i64).contains(&k).then_some(k as usize)
}

/// `along`: the place (from 0) `k` steps on from place `at` among `n` places, backwards
/// for a negative `k`; round again from the start when `loops`, else `None` past an end.
pub fn step_along(n: usize, at: usize, k: i64, loops: bool) -> Option<usize> {
    if n == 0 || at >= n {
        return None;
    }
    let n = n as i64;
    let t = if loops {
        (at as i64 + k.rem_euclid(n)).rem_euclid(n)
    } else {
        (at as i64).checked_add(k)?
    };
    (0..n).contains(&t).then_some(t as usize)
}

/// `between`: the places (from 0) strictly between place `a` and place `b` among `n`,
/// going on from `a`: round the end when `loops`, else none unless `b` comes after `a`.
pub fn places_between(n: usize, a: usize, b: usize, loops: bool) -> impl Iterator<Item = usize> {
    let count = if a >= n || b >= n || a == b {
        0
    } else if b > a {
        b - a - 1
    } else if loops {
        n - a - 1 + b
    } else {
        0
    };
    (1..=count).map(move |i| (a + i) % n)
}

/// `line(a, b)`: the cells of the straight line from `a` to `b` on a grid, both included,
/// in that order; empty unless both are cells of a grid on one file, rank or diagonal.
pub fn straight(a: &Value, b: &Value, board: &Board) -> Items {
    let mut out = Items::new();
    straight_into(a, b, board, &mut out);
    out
}

/// `straight`, pushed onto `out` (so that a caller can reuse a buffer).
pub fn straight_into(a: &Value, b: &Value, board: &Board, out: &mut Items) {
    let (Value::Cell(a), Value::Cell(b)) = (a, b) else {
        return;
    };
    if !board.cell_area.is_empty() {
        return;
    }
    let (Some(p), Some(q)) = (board.cells.get(*a as usize), board.cells.get(*b as usize)) else {
        return;
    };
    let (dx, dy) = (q.x as i32 - p.x as i32, q.y as i32 - p.y as i32);
    // A grid's lines run along files, ranks and both diagonals; a hex board's along its
    // three axes (e-w, ne-sw, nw-se): there, `a1` and `b2` do not touch.
    let straight = if board.hex {
        dx == 0 || dy == 0 || dx == -dy
    } else {
        dx == 0 || dy == 0 || dx.abs() == dy.abs()
    };
    if !straight {
        return;
    }
    let n = dx.abs().max(dy.abs());
    out.extend((0..=n).map(|i| {
        let x = p.x as i32 + dx.signum() * i;
        let y = p.y as i32 + dy.signum() * i;
        Value::Cell(board.cell_at(x as u16, y as u16))
    }));
}

/// `file(cell)` (or, with `rank`, `rank(cell)`): the cell's column (row) on a grid, from
/// 1; `none` for what is not a cell of a grid.
pub fn file_or_rank(cell: &Value, rank: bool, board: &Board) -> Value {
    match *cell {
        Value::Cell(c) => file_or_rank_of(c, rank, board).map_or(Value::None, Value::Int),
        _ => Value::None,
    }
}

/// `file_or_rank` of a cell given by its number; `None` off a grid.
#[inline]
pub fn file_or_rank_of(c: u16, rank: bool, board: &Board) -> Option<i64> {
    if !board.cell_area.is_empty() {
        return None;
    }
    let at = board.cells.get(c as usize)?;
    Some(if rank { at.y } else { at.x } as i64 + 1)
}

/// The grid cell at file `f` and rank `r` (from 1), or `None` off the board or on a board
/// of areas.
pub fn cell_at(f: &Value, r: &Value, board: &Board) -> Value {
    let (Value::Int(f), Value::Int(r)) = (f, r) else {
        return Value::None;
    };
    let on = |n: i64, side: u16| n >= 1 && n <= i64::from(side);
    if board.cell_area.is_empty() && on(*f, board.width) && on(*r, board.height) {
        Value::Cell(board.cell_at(*f as u16 - 1, *r as u16 - 1))
    } else {
        Value::None
    }
}

/// Applies a binary operator. Collections for `in` are handled by `contains`.
pub fn binary(op: BinOp, a: &Value, b: &Value, board: &Board) -> Value {
    use Value::*;
    match op {
        BinOp::Or => Bool(a.truthy() || b.truthy()),
        BinOp::And => Bool(a.truthy() && b.truthy()),
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
            Bool(compare(op, a, b))
        }
        BinOp::In => Bool(contains(b, a, board)),
        BinOp::NotIn => Bool(!contains(b, a, board)),
        BinOp::Range => match (a, b) {
            (Int(x), Int(y)) => List((*x..=*y).take(MAX_RANGE).map(Int).collect()),
            (Cell(x), Cell(y)) => {
                let (cx, cy) = (&board.cells[*x as usize], &board.cells[*y as usize]);
                let (x0, x1) = (cx.x.min(cy.x), cx.x.max(cy.x));
                let (y0, y1) = (cx.y.min(cy.y), cx.y.max(cy.y));
                let mut cells = Items::new();
                for yy in y0..=y1 {
                    for xx in x0..=x1 {
                        cells.push(Cell(board.cell_at(xx, yy)));
                    }
                }
                List(cells)
            }
            _ => List(Items::new()),
        },
        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => {
            Int(arithmetic(op, a.as_int(), b.as_int()))
        }
    }
}

/// `x op y` for `+`, `-`, `*`, `/` and `%` (0 for any other `op`): sums, differences and
/// products held at the ends of the numbers' range, 0 for a division by 0 (or one whose
/// quotient has no place in the range).
#[inline]
pub fn arithmetic(op: BinOp, x: i64, y: i64) -> i64 {
    match op {
        BinOp::Add => x.saturating_add(y),
        BinOp::Sub => x.saturating_sub(y),
        BinOp::Mul => x.saturating_mul(y),
        BinOp::Div => x.checked_div(y).unwrap_or(0),
        BinOp::Rem => x.checked_rem(y).unwrap_or(0),
        _ => 0,
    }
}

/// A comparison (`==`, `!=`, `<`, `<=`, `>`, `>=`): equality of any two values; order
/// between two numbers, two cells or two seats (false otherwise). Scalars are compared
/// in place.
#[inline]
pub fn compare(op: BinOp, a: &Value, b: &Value) -> bool {
    let ord = match (a, b) {
        (Value::Int(x), Value::Int(y)) => Some(x.cmp(y)),
        (Value::Cell(x), Value::Cell(y)) => Some(x.cmp(y)),
        (Value::Seat(x), Value::Seat(y)) => Some(x.cmp(y)),
        (Value::Comp(x), Value::Comp(y)) if matches!(op, BinOp::Eq | BinOp::Ne) => Some(x.cmp(y)),
        // Values of enumerations are equal or not (`==` would say the same, in a call).
        (Value::Enum(e, x), Value::Enum(f, y)) if matches!(op, BinOp::Eq | BinOp::Ne) => {
            Some((e, x).cmp(&(f, y)))
        }
        _ => None,
    };
    match ord {
        Some(ord) => ordered(op, ord),
        None => match op {
            BinOp::Eq => a == b,
            BinOp::Ne => a != b,
            _ => false,
        },
    }
}

/// Whether a comparison holds of two values ordered `ord` (false for an operator that
/// compares nothing).
#[inline]
pub fn ordered(op: BinOp, ord: std::cmp::Ordering) -> bool {
    match op {
        BinOp::Eq => ord.is_eq(),
        BinOp::Ne => ord.is_ne(),
        BinOp::Lt => ord.is_lt(),
        BinOp::Le => ord.is_le(),
        BinOp::Gt => ord.is_gt(),
        BinOp::Ge => ord.is_ge(),
        _ => false,
    }
}

impl Board {
    /// The neighbour of `cell` in direction `dir`, or `NO_CELL`.
    #[inline]
    pub fn step(&self, cell: u16, dir: u8) -> u16 {
        self.links[cell as usize * self.dirs.len() + dir as usize]
    }
    pub fn cell_at(&self, x: u16, y: u16) -> u16 {
        y * self.width + x
    }
}

/// One item's part in a quantifier whose body `holds` for it: whether the walk goes on;
/// once the answer is known, `result` has it (it starts as `q != Quant::Any`).
#[inline]
pub fn quantify(q: Quant, holds: bool, result: &mut bool) -> bool {
    match q {
        Quant::Any if holds => *result = true,
        Quant::All if !holds => *result = false,
        Quant::None if holds => *result = false,
        _ => return true,
    }
    false
}

/// An aggregate's running value after one more item worth `x` (for `count`, 1 if the
/// item counts, else 0); `acc` is `None` before the first item.
#[inline]
pub fn aggregate(a: Agg, acc: Option<i64>, x: i64) -> i64 {
    match a {
        Agg::Sum => acc.unwrap_or(0).saturating_add(x),
        Agg::Count => acc.unwrap_or(0) + x,
        Agg::Max => acc.map_or(x, |m| m.max(x)),
        Agg::Min => acc.map_or(x, |m| m.min(x)),
    }
}
