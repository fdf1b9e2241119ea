//! Evaluating lowered expressions against a state, from one seat's point of view.

use super::budget;
use super::geometry;
use super::memo;
use super::state::{Loc, State, NONE, NO_SEAT};
use super::Engine;
use crate::ir::Items;
use crate::ir::{ops, Agg, BinOp, Builtin, Expr, Quant, Value, NO_CELL};

pub(crate) struct Eval<'a> {
    pub eng: &'a Engine,
    pub s: &'a State,
    /// The seat deciding now (`me`).
    pub me: u8,
}

/// Whether a range `lo..hi` walked at play time has at most `MAX_RANGE` numbers; if not,
/// the decision ends with a rules error (the range is not cut short silently).
pub(crate) fn range_fits(lo: i64, hi: i64) -> bool {
    let n = (hi as i128 - lo as i128 + 1).max(0);
    if n > ops::MAX_RANGE as i128 {
        budget::exceeded(format!(
            "the range {lo}..{hi} has {} numbers, more than {} (`MAX_RANGE`)",
            budget::thousands(n.min(u64::MAX as i128) as u64),
            budget::thousands(ops::MAX_RANGE as u64)
        ));
        return false;
    }
    true
}

/// Passes one item of a walked collection to `f`, charging it to the decision's budget;
/// false (stop) once the budget is spent or `f` says so.
#[inline(always)]
pub(crate) fn emit(
    f: &mut dyn FnMut(Value, &mut [Value]) -> bool,
    v: Value,
    l: &mut [Value],
) -> bool {
    budget::charge(1) && f(v, l)
}

/// Item `i` of the collection `walk` walks (from 1; from the back where negative;
/// `None` out of range): from the front the walk stops at the item, from the back it goes
/// to the end. Shared by `Eval::index` and the plans.
pub(crate) fn indexed(
    i: i64,
    l: &mut [Value],
    walk: impl FnOnce(&mut [Value], &mut dyn FnMut(Value, &mut [Value]) -> bool),
) -> Value {
    let mut found = Value::None;
    if i > 0 {
        let mut left = i;
        walk(l, &mut |v, _| {
            left -= 1;
            if left == 0 {
                found = v;
            } else {
                super::pool::recycle(v);
            }
            left > 0
        });
    } else if i < 0 {
        let mut items = super::pool::take();
        walk(l, &mut |v, _| {
            items.push(v);
            true
        });
        if let Some(k) = ops::position(items.len(), i) {
            found = std::mem::take(&mut items[k]);
        }
        super::pool::recycle_list(items);
    }
    found
}

/// The directions a value names (one, or a list), kept on the stack when there are few.
pub(crate) enum Dirs {
    Few([u8; 16], usize),
    Many(Vec<u8>),
}

impl Dirs {
    pub(crate) fn of(v: &Value) -> Dirs {
        match v {
            Value::Dir(d) => Dirs::Few([*d; 16], 1),
            Value::List(l) if l.len() <= 16 => {
                let mut buf = [0u8; 16];
                let mut n = 0;
                for d in l {
                    if let Value::Dir(d) = d {
                        buf[n] = *d;
                        n += 1;
                    }
                }
                Dirs::Few(buf, n)
            }
            Value::List(l) => Dirs::Many(
                l.iter()
                    .filter_map(|d| {
                        if let Value::Dir(d) = d {
                            Some(*d)
                        } else {
                            None
                        }
                    })
                    .collect(),
            ),
            _ => Dirs::Few([0; 16], 0),
        }
    }

    pub(crate) fn as_slice(&self) -> &[u8] {
        match self {
            Dirs::Few(buf, n) => &buf[..*n],
            Dirs::Many(v) => v,
        }
    }
}

impl<'a> Eval<'a> {
    /// Whether an expression holds. `and`, `or`, `not` and comparisons are judged here
    /// directly, without making a `Bool` for each node (each is still a step of the
    /// budget, as in `eval`).
    pub fn truth(&self, e: &Expr, l: &mut [Value]) -> bool {
        match e {
            Expr::Binary(op, a, b) => match op {
                BinOp::And => budget::charge(1) && self.truth(a, l) && self.truth(b, l),
                BinOp::Or => budget::charge(1) && (self.truth(a, l) || self.truth(b, l)),
                BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                    if !budget::charge(1) {
                        return false;
                    }
                    // As `eval` judges it: the collection walked only until the answer
                    // is known.
                    if is_size_against_number(a, b) {
                        return self.size_against(*op, a, b, l).truthy();
                    }
                    let (x, y) = (self.eval(a, l), self.eval(b, l));
                    let t = ops::compare(*op, &x, &y);
                    super::pool::recycle(x);
                    super::pool::recycle(y);
                    t
                }
                _ => self.truth_of_value(e, l),
            },
            Expr::Not(x) => budget::charge(1) && !self.truth(x, l),
            Expr::Bind(slot, v, body) => {
                budget::charge(1) && {
                    self.bind(*slot, v, l);
                    self.truth(body, l)
                }
            }
            _ => self.truth_of_value(e, l),
        }
    }

    /// A definition's argument computed into its local (see `Expr::Bind`).
    #[inline(always)]
    fn bind(&self, slot: u16, v: &Expr, l: &mut [Value]) {
        let x = self.eval(v, l);
        super::pool::set(&mut l[slot as usize], x);
    }

    fn truth_of_value(&self, e: &Expr, l: &mut [Value]) -> bool {
        let v = self.eval(e, l);
        let t = v.truthy();
        super::pool::recycle(v);
        t
    }

    /// The directions an argument names; a constant is read in place, not copied.
    fn dirs(&self, e: &Expr, l: &mut [Value]) -> Dirs {
        match e {
            Expr::Const(v) => Dirs::of(v),
            other => Dirs::of(&self.eval(other, l)),
        }
    }

    /// Whether `for_each` walks `coll` by a way of its own, rather than computing it and
    /// walking the value: the kinds its arms name, kept in step with them (the plans compute
    /// and walk every other kind as its last arm does).
    pub(crate) fn walked_in_place(coll: &Expr) -> bool {
        matches!(
            coll,
            Expr::Cells
                | Expr::Occupied
                | Expr::CellsOf(_)
                | Expr::Seats
                | Expr::Region(..)
                | Expr::Binary(BinOp::Range, ..)
                | Expr::Comprehension(..)
                | Expr::Call(
                    Builtin::Adjacent
                        | Builtin::Slide
                        | Builtin::Sight
                        | Builtin::Shifts
                        | Builtin::Sweep
                        | Builtin::Runs
                        | Builtin::Destinations
                        | Builtin::Attacks,
                    _
                )
                | Expr::Const(Value::List(_))
                | Expr::Local(_)
                | Expr::Bind(..)
        )
    }

    /// Calls `f` on each item of a collection, without building it where it can; stops
    /// when `f` returns false.
    pub fn for_each(
        &self,
        coll: &Expr,
        l: &mut [Value],
        f: &mut dyn FnMut(Value, &mut [Value]) -> bool,
    ) {
        // Each item walked is a step of the decision's budget (see `emit`); the walk stops
        // when it is spent.
        let node = coll;
        match coll {
            Expr::Cells => {
                for c in 0..self.eng.game.board.cells.len() as u16 {
                    if self.eng.present(self.s, c) && !emit(f, Value::Cell(c), l) {
                        return;
                    }
                }
            }
            Expr::Occupied | Expr::CellsOf(_) => {
                let only = match coll {
                    Expr::CellsOf(p) => Some(self.seat_of(p, l)),
                    _ => None,
                };
                self.s
                    .each_occupied_by(only, |c, _| emit(f, Value::Cell(c), l));
            }
            Expr::Seats => {
                for p in 0..self.s.players {
                    if !self.s.eliminated[p as usize] && !emit(f, Value::Seat(p), l) {
                        return;
                    }
                }
            }
            Expr::Region(r, seat) => {
                let idx = match seat {
                    Some(se) => self.seat_of(se, l) as usize,
                    None => 0,
                };
                if let Some(cells) = self.eng.game.board.regions[*r as usize].cells.get(idx) {
                    for &c in cells {
                        if !emit(f, Value::Cell(c), l) {
                            return;
                        }
                    }
                }
            }
            Expr::Binary(BinOp::Range, a, b) => {
                let (a, b) = (self.eval(a, l), self.eval(b, l));
                self.each_in_range(a, b, l, f);
            }
            // The definition's body walked as it would be written out, the argument
            // computed first (a step for the node, as `eval` charges it).
            Expr::Bind(slot, v, body) => {
                if budget::charge(1) {
                    self.bind(*slot, v, l);
                    self.for_each(body, l, f);
                }
            }
            // A comprehension is filtered as it is walked, without building the list.
            Expr::Comprehension(slot, coll, cond) => {
                // A remembered comprehension gives the items it listed (see `memo`).
                if let Some(i) = self.remembered_place(node, l) {
                    let mut batch = memo::Batch::new();
                    let mut from = 0;
                    while memo::items(i, from, &mut batch) {
                        from += batch.len();
                        let mut items = batch.drain(..);
                        for v in items.by_ref() {
                            if !emit(f, v, l) {
                                items.for_each(super::pool::recycle);
                                return;
                            }
                        }
                    }
                    return;
                }
                let slot = *slot as usize;
                self.for_each(coll, l, &mut |v, l| {
                    super::pool::assign(&mut l[slot], &v);
                    if cond.as_ref().is_none_or(|c| self.truth(c, l)) {
                        emit(f, v, l)
                    } else {
                        true
                    }
                });
            }
            // Runs are made one at a time, so a walk that stops early makes few.
            // Cells along lines and neighbours are walked as they are found, without a
            // list; a walk that stops early looks no further.
            Expr::Call(
                b @ (Builtin::Adjacent | Builtin::Slide | Builtin::Sight | Builtin::Shifts),
                args,
            ) => {
                if !budget::charge(1) {
                    return;
                }
                let board = &self.eng.game.board;
                let occ = &self.s.cells;
                if *b == Builtin::Shifts {
                    let line = self.eval(&args[0], l);
                    if let Value::Dir(d) = self.eval(&args[1], l) {
                        geometry::shifts(board, occ, &line, d, &mut |v| emit(f, v, l));
                    }
                    line.discard();
                    return;
                }
                let Some(c) = self.cell(&args[0], l) else {
                    return;
                };
                let dirs = self.dirs(&args[1], l);
                let dirs = dirs.as_slice();
                geometry::from_cell(*b, board, occ, c, dirs, &mut |c| emit(f, Value::Cell(c), l));
            }
            Expr::Call(Builtin::Sweep, args) => {
                if !budget::charge(1) {
                    return;
                }
                let line = self.eval(&args[0], l);
                let d = self.eval(&args[1], l);
                let k = self.eval(&args[2], l).as_int();
                if let Value::Dir(d) = d {
                    geometry::sweep(&self.eng.game.board, &line, d, k, &mut |v| emit(f, v, l));
                }
                line.discard();
            }
            Expr::Call(Builtin::Runs, args) => {
                let mut cells = super::pool::take_cells();
                self.for_each(&args[0], l, &mut |v, _| {
                    if let Value::Cell(c) = v {
                        cells.push(c);
                    }
                    true
                });
                let dirs = self.dirs(&args[1], l);
                geometry::runs_each(&self.eng.game.board, &cells, dirs.as_slice(), &mut |v| {
                    emit(f, v, l)
                });
                super::pool::give_cells(cells);
            }
            // Destinations are found one at a time, so a walk that stops early (`x in`,
            // `any`, `size(...) > 0`) follows few ways.
            Expr::Call(b @ (Builtin::Destinations | Builtin::Attacks), args) => {
                // The call's own step, as `eval` charges it.
                if !budget::charge(1) {
                    return;
                }
                let (Value::Cell(c), Value::Pattern(p)) =
                    (self.eval(&args[0], l), self.eval(&args[1], l))
                else {
                    return;
                };
                self.each_move_cell(*b == Builtin::Attacks, c, self.eng.moves(p), &mut |x| {
                    emit(f, Value::Cell(x), l)
                });
            }
            Expr::Const(Value::List(items)) => {
                for it in items {
                    if !emit(f, super::pool::dup(it), l) {
                        return;
                    }
                }
            }
            Expr::Local(slot) => {
                // Walk the local in place: cloning a list per use would allocate.
                let slot = *slot as usize;
                match &l[slot] {
                    Value::List(items) => {
                        let n = items.len();
                        for i in 0..n {
                            let Value::List(items) = &l[slot] else { return };
                            let item = super::pool::dup(&items[i]);
                            if !emit(f, item, l) {
                                return;
                            }
                        }
                    }
                    other => {
                        let v = super::pool::dup(other);
                        self.each_of(v, l, &mut |x, l| emit(f, x, l));
                    }
                }
            }
            other => {
                let v = self.eval(other, l);
                self.each_of(v, l, &mut |x, l| emit(f, x, l));
            }
        }
    }

    /// The items a part of a join (`a + b`, `contents`) gives, one at a time while `give`
    /// says to go on (false if it stopped): a list's items, a zone among them giving its
    /// components; a run's cells; a zone's components; nothing for another value.
    /// Generic over `give`, so that a walk's step for each item is inlined into it.
    #[inline]
    pub(crate) fn each_joined(&self, v: &Value, mut give: impl FnMut(Value) -> bool) -> bool {
        let zone = |z, seat, slot| &self.s.zones[self.eng.zone_instance(z, seat, slot) as usize];
        match v {
            Value::List(items) => items.iter().all(|it| match *it {
                Value::Zone(z, seat, slot) => {
                    zone(z, seat, slot).iter().all(|&c| give(Value::Comp(c)))
                }
                _ => give(super::pool::dup(it)),
            }),
            Value::Line { .. } => {
                geometry::each_line_cell(v, &self.eng.game.board, |c| give(Value::Cell(c)))
            }
            Value::Zone(z, seat, slot) => {
                zone(*z, *seat, *slot).iter().all(|&c| give(Value::Comp(c)))
            }
            _ => true,
        }
    }

    /// How many items `each_joined` gives for `v`.
    pub(crate) fn joined_len(&self, v: &Value) -> usize {
        let zone =
            |z, seat, slot| self.s.zones[self.eng.zone_instance(z, seat, slot) as usize].len();
        match v {
            Value::List(items) => items
                .iter()
                .map(|it| match *it {
                    Value::Zone(z, seat, slot) => zone(z, seat, slot),
                    _ => 1,
                })
                .sum(),
            Value::Line { .. } => {
                let mut n = 0;
                geometry::each_line_cell(v, &self.eng.game.board, |_| {
                    n += 1;
                    true
                });
                n
            }
            Value::Zone(z, seat, slot) => zone(*z, *seat, *slot),
            _ => 0,
        }
    }

    /// The numbers of the range `a..b`, each handed on as `for_each` hands it on
    /// (anything but two numbers made into a list first, as `..` makes it).
    pub(crate) fn each_in_range(
        &self,
        a: Value,
        b: Value,
        l: &mut [Value],
        f: &mut dyn FnMut(Value, &mut [Value]) -> bool,
    ) {
        if let (Value::Int(lo), Value::Int(hi)) = (&a, &b) {
            if range_fits(*lo, *hi) {
                for i in *lo..=*hi {
                    if !emit(f, Value::Int(i), l) {
                        return;
                    }
                }
            }
            return;
        }
        let v = ops::binary(BinOp::Range, &a, &b, &self.eng.game.board);
        super::pool::recycle(a);
        super::pool::recycle(b);
        self.each_of(v, l, &mut |x, l| emit(f, x, l));
    }

    /// Walks the items of a value already made (a list, a run's cells, a zone's
    /// components), giving a list's storage back to the pool.
    pub(crate) fn each_of(
        &self,
        v: Value,
        l: &mut [Value],
        f: &mut dyn FnMut(Value, &mut [Value]) -> bool,
    ) {
        match v {
            Value::List(mut items) => {
                let mut it = items.drain(..);
                for x in it.by_ref() {
                    if !f(x, l) {
                        break;
                    }
                }
                // What was not walked goes back to the pool too.
                it.for_each(super::pool::recycle);
                super::pool::give(items);
            }
            Value::Line { .. } => {
                super::geometry::each_line_cell(&v, &self.eng.game.board, |c| f(Value::Cell(c), l));
            }
            Value::Zone(z, seat, slot) => {
                let inst = self.eng.zone_instance(z, seat, slot);
                for &c in &self.s.zones[inst as usize] {
                    if !f(Value::Comp(c), l) {
                        return;
                    }
                }
            }
            _ => {}
        }
    }

    fn seat_of(&self, e: &Expr, l: &mut [Value]) -> u8 {
        self.seat(e, l).unwrap_or(NO_SEAT)
    }

    /// The value of an expression when it is a seat. A local is read in place; the
    /// budget is charged as `eval` would.
    #[inline]
    fn seat(&self, e: &Expr, l: &mut [Value]) -> Option<u8> {
        self.scalar(e, l, |v| match v {
            Value::Seat(s) => Some(*s),
            _ => None,
        })
    }

    /// The value of an expression when it is a component (see `seat`). The piece on a
    /// cell (`x.piece`) is read in place, charged as `eval` would charge it.
    #[inline]
    fn comp(&self, e: &Expr, l: &mut [Value]) -> Option<u16> {
        if let Expr::CellPiece(c) = e {
            if !budget::charge(1) {
                return None;
            }
            return match self.cell(c, l) {
                Some(c) if self.s.cells[c as usize] != NONE => Some(self.s.cells[c as usize]),
                _ => None,
            };
        }
        self.scalar(e, l, |v| match v {
            Value::Comp(c) => Some(*c),
            _ => None,
        })
    }

    /// The value of an expression when it is a cell (see `seat`).
    #[inline]
    fn cell(&self, e: &Expr, l: &mut [Value]) -> Option<u16> {
        self.scalar(e, l, |v| match v {
            Value::Cell(c) => Some(*c),
            _ => None,
        })
    }

    /// `pick` of an expression's value, without copying or dropping it where it is a
    /// local or `me`.
    #[inline(always)]
    fn scalar<T>(
        &self,
        e: &Expr,
        l: &mut [Value],
        pick: impl Fn(&Value) -> Option<T>,
    ) -> Option<T> {
        match e {
            Expr::Local(s) if !l[*s as usize].owns_heap() => {
                if !budget::charge(1) {
                    return None;
                }
                pick(&l[*s as usize])
            }
            Expr::Me => {
                if !budget::charge(1) {
                    return None;
                }
                pick(&Value::Seat(self.me))
            }
            _ => {
                let v = self.eval(e, l);
                let r = pick(&v);
                super::pool::recycle(v);
                r
            }
        }
    }

    pub(crate) fn prev_seat(&self, from: u8) -> u8 {
        let n = self.s.players;
        if n == 0 || from == NO_SEAT {
            return NO_SEAT;
        }
        for i in 1..=n {
            let p = (from + n - i) % n;
            if !self.s.eliminated[p as usize] {
                return p;
            }
        }
        from
    }

    /// The seat after `from` (`next`) or before it, as `next_seat` and `prev_seat` find it.
    #[inline]
    pub(crate) fn turned(&self, from: u8, next: bool) -> u8 {
        if next {
            self.next_seat(from)
        } else {
            self.prev_seat(from)
        }
    }

    pub(crate) fn next_seat(&self, from: u8) -> u8 {
        let n = self.s.players;
        if n == 0 || from == NO_SEAT {
            return NO_SEAT;
        }
        for i in 1..=n {
            let p = (from + i) % n;
            if !self.s.eliminated[p as usize] {
                return p;
            }
        }
        from
    }

    /// The value of an expression. Each evaluation is a step of the decision's budget,
    /// and a list is charged its length; once the budget is spent, the value is `None`
    /// and the decision ends with a rules error.
    pub fn eval(&self, e: &Expr, l: &mut [Value]) -> Value {
        if !budget::charge(1) {
            return Value::None;
        }
        // The commonest leaves are answered here, without entering the whole match.
        match e {
            Expr::Local(s) if !l[*s as usize].owns_heap() => return l[*s as usize].clone(),
            Expr::Me => return Value::Seat(self.me),
            // The body's value is the node's: its list is charged by the body's own `eval`.
            Expr::Bind(slot, v, body) => {
                self.bind(*slot, v, l);
                return self.eval(body, l);
            }
            _ => {}
        }
        let v = self.eval_within_budget(e, l);
        match &v {
            Value::List(items) if !budget::list(items.len()) => Value::None,
            _ => v,
        }
    }

    #[inline(always)]
    fn eval_within_budget(&self, e: &Expr, l: &mut [Value]) -> Value {
        let g = &self.eng.game;
        match e {
            // `eval` takes a `Bind` itself (its body charges its own list); a remembered
            // node, computed here (`remember`), is never one.
            Expr::Bind(slot, v, body) => {
                self.bind(*slot, v, l);
                self.eval(body, l)
            }
            Expr::Const(v) => super::pool::dup(v),
            Expr::Local(s) => super::pool::dup(&l[*s as usize]),
            // A part of a loop's body that reads nothing the loop binds: computed once a
            // walk of the loop, then read from its local (see `engine/once.rs`).
            Expr::Once(flag, slot, part) => {
                let at = (*flag as usize, *slot as usize);
                super::once::fill(l, at, |l| self.eval(part, l));
                super::pool::dup(&l[at.1])
            }
            Expr::Me => Value::Seat(self.me),
            Expr::TurnSeat => Value::Seat(self.s.turn_seat),
            Expr::Opponent => Value::Seat(self.next_seat(self.me)),
            Expr::CurrentPhase => Value::Phase(self.s.phase),
            Expr::PhaseTurns => Value::Int(self.s.phase_turns as i64),
            Expr::Repetitions => Value::Int(self.eng.repetitions(self.s)),
            Expr::Area(a, seat) => {
                let seat = match seat {
                    Some(se) => self.seat_of(se, l),
                    None => 0,
                };
                self.eng.area_value(self.s, *a, seat)
            }
            Expr::Seats | Expr::Cells | Expr::Occupied | Expr::CellsOf(_) | Expr::Region(..) => {
                let mut out = super::pool::take();
                self.for_each(e, l, &mut |v, _| {
                    out.push(v);
                    true
                });
                Value::List(out)
            }
            Expr::SeatAttr(se, i) => match self.seat(se, l) {
                Some(s) if (s as usize) < g.seats.len() => {
                    super::pool::dup(&g.seats[s as usize].attrs[*i as usize])
                }
                _ => Value::None,
            },
            Expr::SeatVar(se, i) => match self.seat(se, l) {
                Some(s) if s < self.s.players => {
                    super::pool::dup(&self.s.seat_vars[s as usize * g.vars.len() + *i as usize])
                }
                _ => Value::None,
            },
            Expr::GlobalVar(i) => super::pool::dup(&self.s.globals[*i as usize]),
            Expr::CompAttr(c, a) => match self.comp(c, l) {
                Some(c) if c != NONE => super::pool::dup(self.eng.attr(self.s, c, *a)),
                _ => Value::None,
            },
            Expr::CompVar(c, i) => match self.comp(c, l) {
                Some(c) if c != NONE => {
                    super::pool::dup(&self.s.comp_vars[c as usize * g.vars.len() + *i as usize])
                }
                _ => Value::None,
            },
            Expr::CompOwner(c) => match self.comp(c, l) {
                Some(c) if self.s.owners[c as usize] != NO_SEAT => {
                    Value::Seat(self.s.owners[c as usize])
                }
                _ => Value::None,
            },
            Expr::CompCell(c) => match self.comp(c, l) {
                Some(c) => match self.s.locs[c as usize] {
                    Loc::Cell(cell) => Value::Cell(cell),
                    Loc::Zone(_) => Value::None,
                },
                _ => Value::None,
            },
            Expr::CellPiece(c) => match self.cell(c, l) {
                Some(c) if self.s.cells[c as usize] != NONE => {
                    Value::Comp(self.s.cells[c as usize])
                }
                _ => Value::None,
            },
            Expr::CellEmpty(c) => {
                Value::Bool(self.cell(c, l).is_some_and(|c| self.eng.empty(self.s, c)))
            }
            Expr::Zone(z, seat, slot) => {
                let p = match seat {
                    Some(se) => self.seat_of(se, l),
                    None => 0,
                };
                let n = match slot {
                    Some(x) => self.eval(x, l).as_int() - 1,
                    None => 0,
                };
                if p == NO_SEAT || n < 0 || n >= g.zones[*z as usize].slots as i64 {
                    Value::None
                } else {
                    Value::Zone(*z, p, n as u16)
                }
            }
            Expr::ZoneRow(z, seat) => {
                let p = match seat {
                    Some(se) => self.seat_of(se, l),
                    None => 0,
                };
                if p == NO_SEAT {
                    return Value::List(Items::new());
                }
                let mut out = super::pool::take();
                out.extend((0..g.zones[*z as usize].slots).map(|n| Value::Zone(*z, p, n)));
                Value::List(out)
            }
            Expr::Not(x) => Value::Bool(!self.truth(x, l)),
            Expr::Neg(x) => Value::Int(self.eval(x, l).as_int().saturating_neg()),
            Expr::Binary(op, a, b) => match op {
                BinOp::And => Value::Bool(self.truth(a, l) && self.truth(b, l)),
                BinOp::Or => Value::Bool(self.truth(a, l) || self.truth(b, l)),
                BinOp::In | BinOp::NotIn => {
                    let item = self.eval(a, l);
                    let found = self.member(&item, b, l);
                    super::pool::recycle(item);
                    Value::Bool(found == (*op == BinOp::In))
                }
                BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne
                    if is_size_against_number(a, b) =>
                {
                    self.size_against(*op, a, b, l)
                }
                _ => {
                    let (x, y) = (self.eval(a, l), self.eval(b, l));
                    if let (BinOp::Range, Value::Int(lo), Value::Int(hi)) = (op, &x, &y) {
                        if !range_fits(*lo, *hi) {
                            return Value::None;
                        }
                    }
                    // Numbers compared, the common case, without the general call.
                    if let (Value::Int(i), Value::Int(j)) = (&x, &y) {
                        let ord = i.cmp(j);
                        let answer = match op {
                            BinOp::Lt => Some(ord.is_lt()),
                            BinOp::Le => Some(ord.is_le()),
                            BinOp::Gt => Some(ord.is_gt()),
                            BinOp::Ge => Some(ord.is_ge()),
                            BinOp::Eq => Some(ord.is_eq()),
                            BinOp::Ne => Some(ord.is_ne()),
                            _ => None,
                        };
                        if let Some(b) = answer {
                            super::pool::recycle(x);
                            super::pool::recycle(y);
                            return Value::Bool(b);
                        }
                    }
                    if let (BinOp::Eq | BinOp::Ne, Some(same)) = (op, scalar_eq(&x, &y)) {
                        super::pool::recycle(x);
                        super::pool::recycle(y);
                        return Value::Bool(same == (*op == BinOp::Eq));
                    }
                    let v = ops::binary(*op, &x, &y, &g.board);
                    super::pool::recycle(x);
                    super::pool::recycle(y);
                    v
                }
            },
            Expr::If(c, a, b) => {
                if self.truth(c, l) {
                    self.eval(a, l)
                } else {
                    self.eval(b, l)
                }
            }
            Expr::Quant(q, slot, coll, body) => {
                if let Some(v) = self.remembered(e, l) {
                    return v;
                }
                let mut result = *q != Quant::Any;
                let slot = *slot as usize;
                self.for_each(coll, l, &mut |v, l| {
                    super::pool::set(&mut l[slot], v);
                    let t = self.truth(body, l);
                    ops::quantify(*q, t, &mut result)
                });
                Value::Bool(result)
            }
            Expr::Agg(a, slot, coll, body) => {
                if let Some(v) = self.remembered(e, l) {
                    return v;
                }
                let slot = *slot as usize;
                let mut acc: Option<i64> = None;
                self.for_each(coll, l, &mut |v, l| {
                    super::pool::set(&mut l[slot], v);
                    let x = self.eval(body, l);
                    let n = if *a == Agg::Count {
                        x.truthy() as i64
                    } else {
                        x.as_int()
                    };
                    acc = Some(ops::aggregate(*a, acc, n));
                    super::pool::recycle(x);
                    true
                });
                Value::Int(acc.unwrap_or(0))
            }
            Expr::Comprehension(slot, coll, cond) => {
                if let Some(v) = self.remembered(e, l) {
                    return v;
                }
                let slot = *slot as usize;
                let mut out = super::pool::take();
                self.for_each(coll, l, &mut |v, l| {
                    super::pool::assign(&mut l[slot], &v);
                    if cond.as_ref().is_none_or(|c| self.truth(c, l)) {
                        out.push(v);
                    }
                    true
                });
                Value::List(out)
            }
            Expr::Best(a, slot, coll, key) => match self.remembered(e, l) {
                Some(v) => v,
                None => super::best::keep(
                    *a,
                    *slot as usize,
                    l,
                    |l, f| self.for_each(coll, l, f),
                    |l| self.eval(key, l),
                ),
            },
            Expr::List(items) => {
                let mut out = super::pool::take();
                out.extend(items.iter().map(|i| self.eval(i, l)));
                Value::List(out)
            }
            Expr::Call(b, args) => match self.remembered(e, l) {
                Some(v) => v,
                None => self.call(*b, args, l),
            },
            Expr::Index(coll, at) => self.index(coll, at, l),
        }
    }

    /// The cells of a remembered comprehension (see `memo`), computed now if it was not
    /// yet, each handed on as `for_each` hands on its items (a step each, its other items
    /// passed over); false, with nothing charged, if `coll` is not remembered in this
    /// query or is being computed (then the caller walks it as usual).
    pub(crate) fn remembered_cells(
        &self,
        coll: &Expr,
        l: &mut [Value],
        f: &mut dyn FnMut(u16, &mut [Value]) -> bool,
    ) -> bool {
        let Some(i) = self.remembered_place(coll, l) else {
            return false;
        };
        let mut batch = [0u16; 32];
        let mut from = 0;
        loop {
            let n = memo::cells(i, from, &mut batch);
            if n == 0 {
                return true;
            }
            from += n;
            for &c in &batch[..n] {
                if !budget::charge(1) || (c != NO_CELL && !f(c, l)) {
                    return true;
                }
            }
        }
    }

    /// The remembered value of `e` (see `memo`), computed now if it was not yet; `None`
    /// if `e` is not remembered in this query, or is being computed (then the caller
    /// computes it as usual).
    #[inline]
    fn remembered(&self, e: &Expr, l: &mut [Value]) -> Option<Value> {
        let i = memo::place(self.eng, self.s, self.me, e)?;
        match memo::look(i) {
            memo::Look::Done(v) => Some(v),
            memo::Look::Computing => None,
            memo::Look::Empty => {
                let v = self.remember(i, e, l);
                Some(memo::dup_of(i, v))
            }
        }
    }

    /// `eval` of a node that may be remembered in this query (see `memo`), its place
    /// looked up once: its remembered value, computed now if it was not yet, charged as
    /// `eval` charges it (its step, then its list's length); evaluated as usual where it
    /// is not remembered, or is being computed.
    pub(crate) fn remembered_value(&self, e: &Expr, l: &mut [Value]) -> Value {
        let Some(i) = memo::place(self.eng, self.s, self.me, e) else {
            return self.eval(e, l);
        };
        let v = match memo::look(i) {
            memo::Look::Done(v) => {
                if !budget::charge(1) {
                    super::pool::recycle(v);
                    return Value::None;
                }
                v
            }
            memo::Look::Computing => return self.eval(e, l),
            memo::Look::Empty => {
                if !budget::charge(1) {
                    return Value::None;
                }
                let v = self.remember(i, e, l);
                memo::dup_of(i, v)
            }
        };
        match &v {
            Value::List(items) if !budget::list(items.len()) => {
                super::pool::recycle(v);
                Value::None
            }
            _ => v,
        }
    }

    /// The place of `e`'s remembered value, computed now if it was not yet (see
    /// `remembered`).
    #[inline]
    fn remembered_place(&self, e: &Expr, l: &mut [Value]) -> Option<usize> {
        let i = memo::place(self.eng, self.s, self.me, e)?;
        match memo::status(i) {
            memo::Status::Done => Some(i),
            memo::Status::Computing => None,
            memo::Status::Empty => {
                let v = self.remember(i, e, l);
                memo::set(i, memo::Slot::Done(v));
                Some(i)
            }
        }
    }

    /// `e` computed for the memo's slot `i` (marked as being computed meanwhile), its
    /// value not stored yet: the caller stores it.
    fn remember(&self, i: usize, e: &Expr, l: &mut [Value]) -> Value {
        memo::set(i, memo::Slot::Computing);
        match self.eng.plans.computer(e) {
            // Compiled, it charges the node's step and its list's length, as `eval`
            // does; the caller charges them again (see `eval`).
            Some(compute) => {
                let v = compute(self, l);
                let len = match &v {
                    Value::List(items) => items.len() as u64,
                    _ => 0,
                };
                budget::refund(1 + len);
                v
            }
            None => self.eval_within_budget(e, l),
        }
    }

    /// `item in coll` without walking `coll` item by item where a quicker way gives the
    /// same answer: a list held in a local or written out is searched in place (each item
    /// looked at is still charged), and a cell is looked for among a pattern's
    /// destinations (or attacks) as `reaches` says.
    /// `None` where `coll` is of another form: the caller walks it.
    fn find(&self, item: &Value, coll: &Expr, l: &mut [Value]) -> Option<bool> {
        let items = match coll {
            Expr::Once(flag, slot, part) => {
                let at = (*flag as usize, *slot as usize);
                return Some(self.in_once(item, at, |l| self.eval(part, l), l));
            }
            Expr::Const(Value::List(items)) => items,
            Expr::Local(s) => match &l[*s as usize] {
                Value::List(items) => items,
                _ => return None,
            },
            // A cell in a region: its place on the region's list looked up, charged as
            // the walk up to it (or through it) would be.
            Expr::Region(r, seat) => {
                let list = match seat {
                    Some(se) => self.seat_of(se, l) as usize,
                    None => 0,
                };
                let Some((found, looked)) = self.eng.region_place(*r as usize, list, item) else {
                    return Some(false);
                };
                return Some(budget::charge(looked) && found);
            }
            Expr::Call(b @ (Builtin::Destinations | Builtin::Attacks), args) => {
                let Value::Cell(target) = *item else {
                    return None;
                };
                // The call's own step, as `eval` charges it.
                if !budget::charge(1) {
                    return Some(false);
                }
                let (Value::Cell(c), Value::Pattern(p)) =
                    (self.eval(&args[0], l), self.eval(&args[1], l))
                else {
                    return Some(false);
                };
                return Some(self.reaches(*b == Builtin::Attacks, c, p, target));
            }
            _ => return None,
        };
        Some(among(items, item))
    }

    /// `item in` a part computed once a walk (`Expr::Once`, its flag and its local at
    /// `at`), for both evaluators: its node charged as `eval` charges it (a step, the
    /// part's own steps the first time, `compute` computing it, and its list's length),
    /// then its list searched where it stands, as a local's is, not copied out first.
    pub(crate) fn in_once(
        &self,
        item: &Value,
        at: super::once::At,
        compute: impl FnOnce(&mut [Value]) -> Value,
        l: &mut [Value],
    ) -> bool {
        if !budget::charge(1) {
            return false;
        }
        super::once::fill(l, at, compute);
        match &l[at.1] {
            Value::List(items) => budget::list(items.len()) && among(items, item),
            other => {
                let mut found = false;
                self.each_of(super::pool::dup(other), l, &mut |x, _| {
                    found = x == *item;
                    super::pool::recycle(x);
                    !found
                });
                found
            }
        }
    }

    /// `item in coll`: `find`'s quicker way where there is one, else `coll` walked until
    /// the item comes (each item charged as the walk charges it).
    pub(crate) fn member(&self, item: &Value, coll: &Expr, l: &mut [Value]) -> bool {
        if let Some(found) = self.find(item, coll, l) {
            return found;
        }
        let mut found = false;
        self.for_each(coll, l, &mut |v, _| {
            found = v == *item;
            super::pool::recycle(v);
            !found
        });
        found
    }

    /// Whether `target` is among the destinations (or the attacks, `attacks`) of the
    /// piece on `c` by pattern `p`: looked for only if the pattern can reach that far,
    /// along the rays that point at it for a pattern of legs (`Walk::reaches`, each cell on
    /// them a step), else by the walk, stopping at it (each cell given a step).
    pub(crate) fn reaches(&self, attacks: bool, c: u16, p: u16, target: u16) -> bool {
        let walk = self.walk(c);
        if !walk.within(c, target, self.eng.steps[p as usize].extent) {
            return false;
        }
        let moves = self.eng.moves(p);
        if let Some((found, looked)) = walk.reaches(attacks, c, target, moves.pat) {
            return budget::charge(looked as u64) && found;
        }
        let mut found = false;
        let mut look = |x: u16| {
            found = x == target;
            budget::charge(1) && !found
        };
        walk.each_cell(attacks, c, moves, &mut look);
        found
    }

    /// `size(coll) <op> k` (or `k <op> size(coll)`) for a number `k`: `coll` is walked only
    /// until the answer is known, at most `k + 1` items (each charged), since every count
    /// past `k` compares with `k` alike.
    fn size_against(&self, op: BinOp, a: &Expr, b: &Expr, l: &mut [Value]) -> Value {
        let Some((size, coll, k, op)) = size_against_number(op, a, b) else {
            unreachable!("checked by is_size_against_number")
        };
        // The two operands' own steps, as `eval` charges them.
        if !budget::charge(2) {
            return Value::None;
        }
        let enough = k.saturating_add(1);
        let mut n = 0i64;
        // A remembered size (see `memo`) is not counted again.
        if let Some(v) = self.remembered(size, l) {
            n = v.as_int();
        } else if enough > 0 {
            self.for_each(coll, l, &mut |v, _| {
                super::pool::recycle(v);
                n += 1;
                n < enough
            });
        }
        ops::binary(op, &Value::Int(n), &Value::Int(k), &self.eng.game.board)
    }

    /// `coll[at]`: from the start, the collection is walked only up to the item; from the
    /// end, it is gathered first. `none` where no item has that place.
    #[inline(never)]
    fn index(&self, coll: &Expr, at: &Expr, l: &mut [Value]) -> Value {
        let i = self.eval(at, l).as_int();
        indexed(i, l, |l, f| self.for_each(coll, l, f))
    }

    /// For a declared path: its region, which of its lists (the seat's, for a per-seat
    /// path) and each cell's place on that list, from 1 (0 off it).
    fn path_of(&self, e: &Expr, l: &mut [Value]) -> Option<(usize, usize, &'a [u16])> {
        let Expr::Region(r, seat) = e else {
            return None;
        };
        let r = *r as usize;
        if !self.eng.game.board.regions.get(r)?.path {
            return None;
        }
        let per_seat = &self.eng.region_places[r];
        let seat = match seat {
            Some(se) => self.seat_of(se, l) as usize,
            None => 0,
        };
        per_seat.get(seat).map(|p| (r, seat, p.as_slice()))
    }

    /// `destinations(c, p)` (`attacks` false) or `attacks(c, p)`, added to `out` in the
    /// order the pattern walk gives them.
    pub(crate) fn moves_into(&self, attacks: bool, c: u16, p: u16, out: &mut Items) {
        self.each_move_cell(attacks, c, self.eng.moves(p), &mut |x| {
            out.push(Value::Cell(x));
            true
        });
    }

    /// `along(coll, c, k)` where `coll` is no declared path: its items walked, then the
    /// one `k` places from the first place of `c`, open at both ends.
    pub(crate) fn along_list(&self, coll: &Expr, c: u16, k: i64, l: &mut [Value]) -> Value {
        let mut items = super::pool::take();
        self.for_each(coll, l, &mut |v, _| {
            items.push(v);
            true
        });
        let found = items
            .iter()
            .position(|v| *v == Value::Cell(c))
            .and_then(|at| ops::step_along(items.len(), at, k, false))
            .map_or(Value::None, |i| std::mem::take(&mut items[i]));
        super::pool::give(items);
        found
    }

    /// The set of cells a collection holds.
    fn cell_members(&self, coll: &Expr, l: &mut [Value]) -> geometry::CellSet {
        self.cells_among(|f| self.for_each(coll, l, f))
    }

    /// The cells that exist now (`cells`, see `Engine::present`), as a set: what
    /// `cells_among` makes of a walk of them, each cell charged as the walk charges it.
    pub(crate) fn present_cells(&self) -> geometry::CellSet {
        let (member, count) = self.eng.present_set(self.s);
        budget::charge(count);
        member
    }

    /// The set of the cells among the items `walk` hands to its callback.
    pub(crate) fn cells_among(
        &self,
        walk: impl FnOnce(&mut dyn FnMut(Value, &mut [Value]) -> bool),
    ) -> geometry::CellSet {
        let mut member = geometry::CellSet::new(self.eng.game.board.cells.len());
        walk(&mut |v, _| {
            if let Value::Cell(x) = v {
                member.insert(x);
            }
            true
        });
        member
    }

    /// The pattern walker for the piece on `c` (its owner's forward; `me`'s if `c` is empty).
    #[inline]
    pub(crate) fn walk(&self, c: u16) -> super::patterns::Walk<'a> {
        let (mover, forward) = self.mover_at(c);
        self.walk_by(mover, forward)
    }

    /// `walk`, its mover and forward found.
    #[inline(always)]
    fn walk_by(&self, mover: u8, forward: (i8, i8)) -> super::patterns::Walk<'a> {
        super::patterns::Walk {
            board: &self.eng.game.board,
            occ: &self.s.cells,
            owners: &self.s.owners,
            taken: self.s.occupied_word(None),
            held: self.s.occupied_word(Some(mover)),
            mover,
            forward,
        }
    }

    /// Who moves from `c` (the owner of the piece on it, or `me` on an empty cell), and
    /// that seat's forward.
    #[inline(always)]
    fn mover_at(&self, c: u16) -> (u8, (i8, i8)) {
        let piece = self.s.cells[c as usize];
        let mover = if piece == NONE {
            self.me
        } else {
            self.s.owners[piece as usize]
        };
        (mover, self.forward_of(mover))
    }

    /// Seat `mover`'s forward (north for a seat with none, or no seat).
    #[inline(always)]
    pub(crate) fn forward_of(&self, mover: u8) -> (i8, i8) {
        (self.eng.forwards.get(mover as usize).copied()).unwrap_or((0, 1))
    }

    /// The rays of `moves` for `mover`, whose forward is `forward`, where they are words
    /// (a board of at most 64 cells), with the occupied cells and the mover's: all a
    /// move of the mover's walks its rays by (`Rays::cells_word`).
    #[inline(always)]
    pub(crate) fn move_words<'m>(
        &self,
        mover: u8,
        forward: (i8, i8),
        moves: super::patterns::Moves<'m>,
    ) -> Option<(&'m super::patterns::Rays, u64, u64)> {
        let rays = moves.rays_for(forward).filter(|rays| rays.in_words())?;
        Some((
            rays,
            self.s.occupied_word(None),
            self.s.occupied_word(Some(mover)),
        ))
    }

    /// The rays of `moves` worked out for the mover from `c` (see `mover_at`), if they were.
    #[inline(always)]
    pub(crate) fn rays_at<'m>(
        &self,
        c: u16,
        moves: super::patterns::Moves<'m>,
    ) -> Option<&'m super::patterns::Rays> {
        moves.rays_for(self.mover_at(c).1)
    }

    /// `walk(c).each_cell(attacks, c, moves, f)`: where the pattern's rays for the mover's
    /// forward are words (a board of at most 64 cells), they are walked as `each_cell`
    /// walks them, with no `Walk` made for them.
    #[inline(always)]
    pub(crate) fn each_move_cell<F: FnMut(u16) -> bool + ?Sized>(
        &self,
        attacks: bool,
        c: u16,
        moves: super::patterns::Moves,
        f: &mut F,
    ) -> bool {
        let (mover, forward) = self.mover_at(c);
        match self.move_words(mover, forward, moves) {
            Some((rays, taken, held)) => rays.cells_word(attacks, c, taken, held, f),
            None => self.walk_by(mover, forward).each_cell(attacks, c, moves, f),
        }
    }

    fn call(&self, b: Builtin, args: &[Expr], l: &mut [Value]) -> Value {
        let board = &self.eng.game.board;
        let occ = &self.s.cells;
        let mut out = if makes_list(b) {
            super::pool::take()
        } else {
            Items::new()
        };
        match b {
            Builtin::Linked | Builtin::Row | Builtin::Rows | Builtin::SeatOf => {
                let Value::Cell(c) = self.eval(&args[0], l) else {
                    return if b == Builtin::Linked {
                        Value::List(Items::new())
                    } else if b == Builtin::SeatOf {
                        Value::None
                    } else {
                        Value::Int(0)
                    };
                };
                match b {
                    Builtin::Linked => self.eng.linked(self.s, c, &mut out),
                    Builtin::SeatOf => return self.eng.seat_of_cell(c),
                    _ => return Value::Int(self.eng.row_of(self.s, c, b == Builtin::Rows)),
                }
            }
            Builtin::ShapeRows | Builtin::ShapeSize | Builtin::RowSize => {
                let Value::Shape(sh) = self.eval(&args[0], l) else {
                    return Value::Int(0);
                };
                let sh = &self.eng.game.shapes[sh as usize];
                return Value::Int(match b {
                    Builtin::ShapeRows => sh.rows.len() as i64,
                    Builtin::ShapeSize => sh.cell_row.len() as i64,
                    _ => {
                        let r = self.eval(&args[1], l).as_int();
                        if r >= 1 && r as usize <= sh.rows.len() {
                            sh.rows[r as usize - 1] as i64
                        } else {
                            0
                        }
                    }
                });
            }
            Builtin::Reachable => {
                let Value::Cell(c) = self.eval(&args[0], l) else {
                    return Value::List(Items::new());
                };
                let within = self.cell_members(&args[1], l);
                self.eng.reachable(self.s, c, &within, &mut out);
            }
            Builtin::Targets => {
                let Value::Cell(c) = self.eval(&args[0], l) else {
                    return Value::List(Items::new());
                };
                let k = self.eval(&args[1], l).as_int();
                self.eng.targets(self.s, c, k, &mut out);
            }
            Builtin::Adjacent | Builtin::Slide | Builtin::Sight | Builtin::Reach => {
                let Value::Cell(c) = self.eval(&args[0], l) else {
                    return Value::List(Items::new());
                };
                let dirs = self.dirs(&args[1], l);
                geometry::list_from_cell(b, board, occ, c, dirs.as_slice(), &mut out);
            }
            Builtin::Runs => {
                let mut cells = super::pool::take_cells();
                self.for_each(&args[0], l, &mut |v, _| {
                    if let Value::Cell(c) = v {
                        cells.push(c);
                    }
                    true
                });
                let dirs = self.dirs(&args[1], l);
                geometry::runs(board, &cells, dirs.as_slice(), &mut out);
                super::pool::give_cells(cells);
            }
            Builtin::Sweep => {
                let line = self.eval(&args[0], l);
                let Value::Dir(d) = self.eval(&args[1], l) else {
                    return Value::List(Items::new());
                };
                let k = self.eval(&args[2], l).as_int();
                geometry::sweep(board, &line, d, k, &mut |v| {
                    out.push(v);
                    true
                });
            }
            Builtin::Subsets => {
                let mut items = super::pool::take();
                self.for_each(&args[0], l, &mut |v, _| {
                    items.push(v);
                    true
                });
                let lo = self.eval(&args[1], l).as_int().max(0) as usize;
                let hi = self.eval(&args[2], l).as_int().max(0) as usize;
                self.eng.subsets(self.s, &items, lo, hi, &mut out);
                super::pool::recycle_list(items);
            }
            Builtin::Destinations | Builtin::Attacks => {
                let (Value::Cell(c), Value::Pattern(p)) =
                    (self.eval(&args[0], l), self.eval(&args[1], l))
                else {
                    return Value::List(Items::new());
                };
                self.moves_into(b == Builtin::Attacks, c, p, &mut out);
            }
            Builtin::RouteOf => {
                let (Value::Cell(c), Value::Pattern(p)) =
                    (self.eval(&args[0], l), self.eval(&args[1], l))
                else {
                    return Value::None;
                };
                return super::pool::route(p, c, c, self.eng.steps[p as usize].start());
            }
            Builtin::Waypoints | Builtin::Finishes => {
                let Value::Route(r) = self.eval(&args[0], l) else {
                    return Value::List(Items::new());
                };
                let g = &self.eng.steps[r.pattern as usize];
                let walk = self.walk(r.at);
                let finishes = b == Builtin::Finishes;
                walk.stops(finishes, g, r.origin, r.at, &r.states, &mut |c| {
                    out.push(Value::Cell(c))
                });
                super::pool::give_route(r);
            }
            Builtin::MayHalt => {
                let Value::Route(r) = self.eval(&args[0], l) else {
                    return Value::Bool(false);
                };
                let g = &self.eng.steps[r.pattern as usize];
                let halts = r.at != r.origin && g.accepts(&r.states, true);
                super::pool::give_route(r);
                return Value::Bool(halts);
            }
            Builtin::Advance | Builtin::Passed => {
                let (Value::Route(r), Value::Cell(to)) =
                    (self.eval(&args[0], l), self.eval(&args[1], l))
                else {
                    return if b == Builtin::Advance {
                        Value::None
                    } else {
                        Value::List(Items::new())
                    };
                };
                let g = &self.eng.steps[r.pattern as usize];
                let walk = self.walk(r.at);
                if b == Builtin::Passed {
                    let cells = walk.passed(g, r.at, &r.states, to);
                    super::pool::give_route(r);
                    out.extend(cells.into_iter().map(Value::Cell));
                } else {
                    let next = walk.advance(g, r.at, &r.states, to, |states| {
                        super::pool::route(r.pattern, r.origin, to, states)
                    });
                    super::pool::give_route(r);
                    return next;
                }
            }
            Builtin::Group => {
                let Value::Cell(c) = self.eval(&args[0], l) else {
                    return Value::List(Items::new());
                };
                let dirs = self.dirs(&args[1], l);
                let member = self.cell_members(&args[2], l);
                geometry::group(board, c, dirs.as_slice(), &member, &mut out);
            }
            Builtin::Shifts => {
                let line = self.eval(&args[0], l);
                let Value::Dir(d) = self.eval(&args[1], l) else {
                    return Value::List(Items::new());
                };
                geometry::shifts(board, occ, &line, d, &mut |v| {
                    out.push(v);
                    true
                });
            }
            Builtin::First | Builtin::Last => {
                let first = b == Builtin::First;
                // A zone's first or last component (`top`) read where it stands, charged as
                // the walk to it is: the zone, then each component passed.
                if let Expr::Zone(..) = args[0] {
                    // A zone expression gives a zone, or none (no such seat or number).
                    let Value::Zone(z, seat, slot) = self.eval(&args[0], l) else {
                        return Value::None;
                    };
                    let items = &self.s.zones[self.eng.zone_instance(z, seat, slot) as usize];
                    let (end, passed) = if first {
                        (items.first(), items.len().min(1))
                    } else {
                        (items.last(), items.len())
                    };
                    return match end {
                        Some(&c) if budget::charge(passed as u64) => Value::Comp(c),
                        _ => Value::None,
                    };
                }
                let mut found = Value::None;
                self.for_each(&args[0], l, &mut |v, _| {
                    found = v;
                    !first
                });
                return found;
            }
            Builtin::Size => {
                let mut n = 0;
                self.for_each(&args[0], l, &mut |_, _| {
                    n += 1;
                    true
                });
                return Value::Int(n);
            }
            Builtin::Max2 => {
                return Value::Int(
                    self.eval(&args[0], l)
                        .as_int()
                        .max(self.eval(&args[1], l).as_int()),
                )
            }
            Builtin::Min2 => {
                return Value::Int(
                    self.eval(&args[0], l)
                        .as_int()
                        .min(self.eval(&args[1], l).as_int()),
                )
            }
            Builtin::Abs => return Value::Int(self.eval(&args[0], l).as_int().saturating_abs()),
            Builtin::PrevSeat => {
                let s = self.seat_of(&args[0], l);
                let n = self.prev_seat(s);
                return if n == NO_SEAT {
                    Value::None
                } else {
                    Value::Seat(n)
                };
            }
            Builtin::Contents | Builtin::Concat => {
                for a in args {
                    let v = self.eval(a, l);
                    self.each_joined(&v, &mut |x| {
                        out.push(x);
                        true
                    });
                    super::pool::recycle(v);
                }
            }
            Builtin::NextSeat => {
                let s = self.seat_of(&args[0], l);
                let n = self.next_seat(s);
                return if n == NO_SEAT {
                    Value::None
                } else {
                    Value::Seat(n)
                };
            }
            Builtin::Distance => {
                return match (self.eval(&args[0], l), self.eval(&args[1], l)) {
                    (Value::Cell(a), Value::Cell(b)) => Value::Int(geometry::distance(board, a, b)),
                    _ => Value::None,
                };
            }
            Builtin::File | Builtin::Rank => {
                let c = self.eval(&args[0], l);
                return ops::file_or_rank(&c, b == Builtin::Rank, board);
            }
            Builtin::Line => {
                let (a, z) = (self.eval(&args[0], l), self.eval(&args[1], l));
                ops::straight_into(&a, &z, board, &mut out);
            }
            Builtin::IndexOf => {
                let x = self.eval(&args[1], l);
                if let (Some((_, _, places)), Value::Cell(c)) = (self.path_of(&args[0], l), &x) {
                    return Value::Int(places.get(*c as usize).map_or(0, |&p| p as i64));
                }
                let (mut n, mut found) = (0, 0);
                self.for_each(&args[0], l, &mut |v, _| {
                    n += 1;
                    if v == x {
                        found = n;
                    }
                    found == 0
                });
                return Value::Int(found);
            }
            Builtin::Between => {
                let (Value::Cell(a), Value::Cell(z)) =
                    (self.eval(&args[1], l), self.eval(&args[2], l))
                else {
                    return Value::List(out);
                };
                if let Some((r, seat, places)) = self.path_of(&args[0], l) {
                    let def = &board.regions[r];
                    let cells = &def.cells[seat];
                    let at = |c: u16| places.get(c as usize).and_then(|&p| p.checked_sub(1));
                    if let (Some(i), Some(j)) = (at(a), at(z)) {
                        let passed =
                            ops::places_between(cells.len(), i as usize, j as usize, def.loops);
                        out.extend(passed.map(|k| Value::Cell(cells[k])));
                    }
                    return Value::List(out);
                }
                let mut items = super::pool::take();
                self.for_each(&args[0], l, &mut |v, _| {
                    items.push(v);
                    true
                });
                let at = |c: u16| items.iter().position(|v| *v == Value::Cell(c));
                if let (Some(i), Some(j)) = (at(a), at(z)) {
                    let passed = ops::places_between(items.len(), i, j, false);
                    out.extend(passed.map(|k| super::pool::dup(&items[k])));
                }
                super::pool::give(items);
            }
            Builtin::Along => {
                let Value::Cell(c) = self.eval(&args[1], l) else {
                    return Value::None;
                };
                let k = self.eval(&args[2], l).as_int();
                // A declared path: its places were listed once, in `Engine::new`.
                if let Some((r, seat, _)) = self.path_of(&args[0], l) {
                    if let Some(v) = self.eng.along_path(r, seat, c, k) {
                        return v;
                    }
                }
                return self.along_list(&args[0], c, k, l);
            }
            Builtin::CellAt => {
                let (f, r) = (self.eval(&args[0], l), self.eval(&args[1], l));
                return ops::cell_at(&f, &r, board);
            }
        }
        Value::List(out)
    }
}

/// Whether a comparison is of `size(...)` with a number written out (either way round).
fn is_size_against_number(a: &Expr, b: &Expr) -> bool {
    size_against_number(BinOp::Eq, a, b).is_some()
}

/// `size(coll) <op> k` or `k <op> size(coll)` for a number `k`, read as the `size` node,
/// `coll`, `k` and the comparison with the size on the left.
pub(crate) fn size_against_number<'e>(
    op: BinOp,
    a: &'e Expr,
    b: &'e Expr,
) -> Option<(&'e Expr, &'e Expr, i64, BinOp)> {
    match (a, b) {
        (Expr::Call(Builtin::Size, args), Expr::Const(Value::Int(k))) if args.len() == 1 => {
            Some((a, &args[0], *k, op))
        }
        (Expr::Const(Value::Int(k)), Expr::Call(Builtin::Size, args)) if args.len() == 1 => {
            let flipped = match op {
                BinOp::Lt => BinOp::Gt,
                BinOp::Le => BinOp::Ge,
                BinOp::Gt => BinOp::Lt,
                BinOp::Ge => BinOp::Le,
                other => other,
            };
            Some((b, &args[0], *k, flipped))
        }
        _ => None,
    }
}

/// Whether two cells, components, seats or enum values are equal (`None` for other
/// values: the general comparison decides).
#[inline(always)]
fn scalar_eq(x: &Value, y: &Value) -> Option<bool> {
    match (x, y) {
        (Value::Cell(a), Value::Cell(b)) => Some(a == b),
        (Value::Comp(a), Value::Comp(b)) => Some(a == b),
        (Value::Seat(a), Value::Seat(b)) => Some(a == b),
        (Value::Enum(e, a), Value::Enum(f, b)) => Some(e == f && a == b),
        _ => None,
    }
}

/// A list fixed when the rules are read, searched as `among` searches it (each item
/// looked at a step). A list of values of one enum also keeps each value's place in it
/// (from 1; 0 where it is not on it), so that such a value is found at once, charged the
/// items the search would look at.
pub(crate) struct FixedList {
    items: Items,
    places: Option<(u16, Vec<u32>)>,
}

impl FixedList {
    pub(crate) fn new(items: Items) -> FixedList {
        let places = match items.first() {
            Some(&Value::Enum(e, _))
                if items
                    .iter()
                    .all(|v| matches!(v, Value::Enum(f, _) if *f == e)) =>
            {
                let mut places = Vec::new();
                for (i, v) in items.iter().enumerate() {
                    if let Value::Enum(_, c) = *v {
                        let c = c as usize;
                        if places.len() <= c {
                            places.resize(c + 1, 0u32);
                        }
                        if places[c] == 0 {
                            places[c] = i as u32 + 1;
                        }
                    }
                }
                Some((e, places))
            }
            _ => None,
        };
        FixedList { items, places }
    }

    /// `among(items, item)`.
    #[inline(always)]
    pub(crate) fn has(&self, item: &Value) -> bool {
        let (found, looked) = self.find(item);
        budget::charge(looked) && found
    }

    /// Whether `item` is on the list, and the items a search looks at to find out (the
    /// steps `has` charges), nothing charged.
    #[inline(always)]
    pub(crate) fn find(&self, item: &Value) -> (bool, u64) {
        if let (Value::Enum(e, c), Some((f, places))) = (item, &self.places) {
            if e == f {
                let place = places.get(*c as usize).copied().unwrap_or(0);
                if place > 0 {
                    return (true, place as u64);
                }
                return (false, self.items.len() as u64);
            }
        }
        searched(&self.items, item)
    }
}

/// Whether `item` is among `items`, searched where they stand: each item looked at is a
/// step, as if the list were walked up to the item.
#[inline(always)]
pub(crate) fn among(items: &[Value], item: &Value) -> bool {
    let (found, looked) = searched(items, item);
    budget::charge(looked) && found
}

/// Whether `item` is among `items`, and the items looked at to find out (the steps `among`
/// charges), nothing charged.
#[inline(always)]
fn searched(items: &[Value], item: &Value) -> (bool, u64) {
    let at = position(items, item);
    (at.is_some(), at.map_or(items.len(), |i| i + 1) as u64)
}

/// Where `item` first stands in `items`; scalars are compared without a call per item.
pub(crate) fn position(items: &[Value], item: &Value) -> Option<usize> {
    match *item {
        Value::Cell(c) => items
            .iter()
            .position(|v| matches!(v, Value::Cell(x) if *x == c)),
        Value::Comp(c) => items
            .iter()
            .position(|v| matches!(v, Value::Comp(x) if *x == c)),
        Value::Enum(e, c) => items
            .iter()
            .position(|v| matches!(v, Value::Enum(f, x) if *f == e && *x == c)),
        Value::Int(i) => items
            .iter()
            .position(|v| matches!(v, Value::Int(x) if *x == i)),
        Value::Seat(p) => items
            .iter()
            .position(|v| matches!(v, Value::Seat(x) if *x == p)),
        _ => items.iter().position(|v| v == item),
    }
}

/// Whether a built-in's value is a list (its storage then comes from the pool).
fn makes_list(b: Builtin) -> bool {
    use Builtin::*;
    matches!(
        b,
        Linked
            | Reachable
            | Targets
            | Adjacent
            | Slide
            | Sight
            | Reach
            | Runs
            | Sweep
            | Subsets
            | Destinations
            | Attacks
            | Waypoints
            | Finishes
            | Passed
            | Group
            | Shifts
            | Contents
            | Concat
            | Line
            | Between
    )
}
