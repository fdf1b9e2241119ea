//! Values compiled (`get`): the reads, calls and collections expressions give, made as
//! `Eval::eval` makes them; anything else handed to the evaluator.

use super::*;
use crate::ir::Items;

/// The value of an expression, as `Eval::eval` gives it, for the reads conditions are
/// mostly made of; the rest goes to the evaluator.
pub(super) fn get(cx: &mut Cx, e: &Expr) -> Get {
    if cx.remembered(e) {
        // Computed already in this query (the common case): the value looked up at once,
        // its place found once.
        let e = cx.copy(e);
        return Box::new(move |ev, l| ev.remembered_value(&e, l));
    }
    get_node(cx, e)
}

/// `get` of a node, remembered or not: what computes a remembered node's value the first
/// time a query asks for it (`Plans::computer`).
pub(super) fn get_node(cx: &mut Cx, e: &Expr) -> Get {
    // A definition's argument computed once: into its local, then the body (whose own
    // node charges its list, as `eval` has it).
    if let Expr::Bind(slot, v, body) = e {
        let (slot, v, body) = (*slot as usize, get(cx, v), get(cx, body));
        return node(move |ev, l| {
            bind(&v, slot, ev, l);
            body(ev, l)
        });
    }
    // A part of a loop's body computed once a walk of the loop (`engine/once.rs`), as
    // `eval` computes it.
    if let Expr::Once(flag, slot, part) = e {
        let (at, part) = ((*flag as usize, *slot as usize), get(cx, part));
        return node(move |ev, l| {
            crate::engine::once::fill(l, at, |l| part(ev, l));
            kept(pool::dup(&l[at.1]))
        });
    }
    // A piece, an owner, an attribute, a variable: a hop, taken by `reads.rs`.
    if let Some(read) = reads::read(cx, e) {
        return read;
    }
    if let Some(hop) = reads::hop(cx, e) {
        return hop;
    }
    // The cells around or along lines from a cell, listed as `Eval::call` lists them.
    if let Some(cells) = CellsFrom::new(cx, e) {
        return node(move |ev, l| {
            let mut out = pool::take();
            if let Some(c) = cells.from(ev, l) {
                cells.list(ev, c, &mut out);
            }
            kept(Value::List(out))
        });
    }
    if let Expr::Call(Builtin::Along, args) = e {
        if let Expr::Region(r, seat) = &args[0] {
            if cx.board.regions.get(*r as usize).is_some_and(|x| x.path) {
                return along_path(cx, *r, seat.as_deref(), args);
            }
        }
    }
    // Arithmetic, an aggregate, `size`: numbers all the way down (`numbers.rs`), a value
    // made only of the number they give.
    if let Some(n) = numbers::computed_node(cx, e) {
        return node(move |ev, l| Value::Int(n(ev, l)));
    }
    match e {
        Expr::Const(v) if !v.owns_heap() => {
            let v = v.clone();
            node(move |_, _| v.clone())
        }
        // A list written in the rules: a copy from the pool.
        Expr::Const(v) => {
            let v = v.clone();
            node(move |_, _| kept(pool::dup(&v)))
        }
        Expr::Local(slot) => {
            let slot = *slot as usize;
            node(move |_, l| copied(&l[slot]))
        }
        // A join (`a + b`) made as `Eval::call` makes it, its parts read where they stand.
        Expr::Call(Builtin::Concat, parts) => {
            let parts: Vec<Arg> = parts.iter().map(|p| Arg::new(cx, p)).collect();
            node(move |ev, l| {
                let mut out = pool::take();
                for p in &parts {
                    let mut push = |v| {
                        out.push(v);
                        true
                    };
                    p.with(ev, l, |v| ev.each_joined(v, &mut push));
                }
                kept(Value::List(out))
            })
        }
        Expr::Me => node(|ev, _| Value::Seat(ev.me)),
        // The best items of a collection, made as `eval` makes them (`best::keep`), the
        // walk and the key compiled.
        Expr::Best(a, slot, coll, key) => {
            let (a, slot, coll, key) = (*a, *slot as usize, each(cx, coll), get(cx, key));
            node(move |ev, l| {
                let walk = |l: &mut [Value], f: &mut dyn FnMut(Value, &mut [Value]) -> bool| {
                    coll(ev, l, f)
                };
                kept(best::keep(a, slot, l, walk, |l| key(ev, l)))
            })
        }
        // A comprehension made as a list, as `eval` makes it: filtered as it is walked.
        // (The items are charged as the collection walks them, not again as they are kept.)
        Expr::Comprehension(slot, coll, cond) => {
            // Cells judged as a set, where the condition allows (`masks.rs`).
            if let Some(filter) = cond
                .as_deref()
                .and_then(|c| masks::Filter::new(cx, coll, *slot, c))
            {
                return node(move |ev, l| {
                    let mut out = pool::take();
                    filter.list(ev, l, &mut out);
                    kept(Value::List(out))
                });
            }
            // Over one of the commonest walks of cells: taken into the loop that filters.
            if let Some(walk) = CellWalk::new(cx, coll) {
                let slot = *slot as usize;
                let cond = cond.as_deref().map(|c| truth(cx, c));
                return node(move |ev, l| {
                    let mut out = pool::take();
                    walk.each(ev, l, &mut |c, l: &mut [Value]| {
                        pool::set(&mut l[slot], Value::Cell(c));
                        if cond.as_ref().is_none_or(|t| t(ev, l)) {
                            out.push(Value::Cell(c));
                        }
                        true
                    });
                    kept(Value::List(out))
                });
            }
            // Over the seats still in the game (`[p in seats where p.points == best]`):
            // one loop.
            if matches!(**coll, Expr::Seats) && !cx.remembered(coll) {
                let slot = *slot as usize;
                let cond = cond.as_deref().map(|c| truth(cx, c));
                return node(move |ev, l| {
                    let mut out = pool::take();
                    each_seat(ev, l, slot, |p, l| {
                        if cond.as_ref().is_none_or(|t| t(ev, l)) {
                            out.push(Value::Seat(p));
                        }
                        true
                    });
                    kept(Value::List(out))
                });
            }
            let (slot, coll) = (*slot as usize, each(cx, coll));
            let cond = cond.as_deref().map(|c| truth(cx, c));
            node(move |ev, l| {
                let mut out = pool::take();
                coll(ev, l, &mut |v, l| {
                    filter_item(ev, l, slot, cond.as_ref(), v, |v, _| {
                        out.push(v);
                        true
                    })
                });
                kept(Value::List(out))
            })
        }
        // The cells of a set reached from a cell, as `Eval::call` finds them: the set's
        // members walked (compiled) into a set of cells, or, for occupied cells, a row of
        // the state's index taken whole (each cell the step walking it is).
        Expr::Call(Builtin::Group, args) if matches!(args[1], Expr::Const(_)) => {
            let (cell, dirs) = (get(cx, &args[0]), const_dirs(&args[1]));
            let members = occupied_row(cx, &args[2]).ok_or_else(|| cells_in(cx, &args[2]));
            node(move |ev, l| {
                let Value::Cell(c) = cell(ev, l) else {
                    return Value::List(Items::new());
                };
                let board = &ev.eng.game.board;
                let member = match &members {
                    Ok(seat) => {
                        let seat = whose_read_whole(seat, ev, l);
                        geometry::CellSet::of_words(board.cells.len(), ev.s.occupied_by(seat))
                    }
                    Err(members) => {
                        let mut member = geometry::CellSet::new(board.cells.len());
                        members(ev, l, &mut |x, _| {
                            member.insert(x);
                            true
                        });
                        member
                    }
                };
                let mut out = pool::take();
                geometry::group(board, c, &dirs, &member, &mut out);
                kept(Value::List(out))
            })
        }
        Expr::If(c, a, b) => {
            let (c, a, b) = (truth(cx, c), get(cx, a), get(cx, b));
            node(move |ev, l| kept(if c(ev, l) { a(ev, l) } else { b(ev, l) }))
        }
        // `subsets(items, lo, hi)` made as `Eval::call` makes it, its operands compiled:
        // the items walked (and filtered) by a plan's walk, the bounds by plans.
        Expr::Call(Builtin::Subsets, args) => {
            let (items, lo, hi) = (each(cx, &args[0]), get(cx, &args[1]), get(cx, &args[2]));
            node(move |ev, l| {
                let mut list = pool::take();
                items(ev, l, &mut |v, _| {
                    list.push(v);
                    true
                });
                let bound = |v: Value| {
                    let n = v.as_int().max(0) as usize;
                    pool::recycle(v);
                    n
                };
                let (lo, hi) = (bound(lo(ev, l)), bound(hi(ev, l)));
                let mut out = pool::take();
                ev.eng.subsets(ev.s, &list, lo, hi, &mut out);
                pool::recycle_list(list);
                kept(Value::List(out))
            })
        }
        // `coll[i]` as `Eval::index` finds it, `coll` walked by the plan's walk.
        Expr::Index(coll, at) => {
            let (walk, at) = (each(cx, coll), get(cx, at));
            node(move |ev, l| {
                let i = at(ev, l).as_int();
                kept(crate::engine::eval::indexed(i, l, |l, f| walk(ev, l, f)))
            })
        }
        Expr::GlobalVar(i) => {
            let i = *i as usize;
            node(move |ev, _| copied(&ev.s.globals[i]))
        }
        Expr::TurnSeat => node(|ev, _| Value::Seat(ev.s.turn_seat)),
        Expr::PhaseTurns => node(|ev, _| Value::Int(ev.s.phase_turns as i64)),
        Expr::CurrentPhase => node(|ev, _| Value::Phase(ev.s.phase)),
        // The small built-ins on numbers and cells, as `Eval::call` computes them.
        Expr::Call(b @ (Builtin::Max2 | Builtin::Min2 | Builtin::Distance), args) => {
            let (b, x, y) = (*b, Arg::new(cx, &args[0]), Arg::new(cx, &args[1]));
            node(move |ev, l| match b {
                Builtin::Distance => match (x.cell(ev, l), y.cell(ev, l)) {
                    (Some(a), Some(c)) => Value::Int(geometry::distance(&ev.eng.game.board, a, c)),
                    _ => Value::None,
                },
                _ => {
                    let (m, n) = (x.with(ev, l, Value::as_int), y.with(ev, l, Value::as_int));
                    Value::Int(if b == Builtin::Max2 {
                        m.max(n)
                    } else {
                        m.min(n)
                    })
                }
            })
        }
        Expr::Call(b @ (Builtin::NextSeat | Builtin::PrevSeat), args) => {
            let (next, p) = (*b == Builtin::NextSeat, Arg::new(cx, &args[0]));
            node(move |ev, l| {
                let p = p.seat(ev, l).unwrap_or(NO_SEAT);
                let n = ev.turned(p, next);
                if n == NO_SEAT {
                    Value::None
                } else {
                    Value::Seat(n)
                }
            })
        }
        Expr::Opponent => node(|ev, _| Value::Seat(ev.next_seat(ev.me))),
        Expr::Call(Builtin::Abs, args) => {
            let x = Arg::new(cx, &args[0]);
            node(move |ev, l| Value::Int(x.with(ev, l, Value::as_int).saturating_abs()))
        }
        // A condition's value, judged as a condition: `truth` charges each node as
        // `eval` does.
        Expr::Binary(
            BinOp::And
            | BinOp::Or
            | BinOp::Eq
            | BinOp::Ne
            | BinOp::Lt
            | BinOp::Le
            | BinOp::Gt
            | BinOp::Ge
            | BinOp::In
            | BinOp::NotIn,
            ..,
        )
        | Expr::Not(_)
        | Expr::Quant(..) => {
            let c = truth_node(cx, e);
            Box::new(move |ev, l| Value::Bool(c(ev, l)))
        }
        // A zone: by its seat and its number, as `eval` finds it.
        Expr::Zone(z, seat, number) => {
            let zone = ZoneArg::new(cx, *z, seat.as_deref(), number.as_deref());
            node(move |ev, l| zone.value(ev, l))
        }
        // A zone's first or last component, read where it stands and charged as the walk
        // to it is (see `Eval::call`).
        Expr::Call(b @ (Builtin::First | Builtin::Last), args)
            if matches!(args[0], Expr::Zone(..)) =>
        {
            let first = *b == Builtin::First;
            // A zone not remembered (`last(z(p))`, `top(row(p, 2))`): found in this node,
            // as the zone's own node finds it and charged as it is, without a call and a
            // value for the zone.
            if let Expr::Zone(z, seat, number) = &args[0] {
                if !cx.remembered(&args[0]) {
                    let zone = ZoneArg::new(cx, *z, seat.as_deref(), number.as_deref());
                    return node(move |ev, l| match zone.items(ev, l) {
                        Some(items) => zone_end(first, items),
                        None => Value::None,
                    });
                }
            }
            let zone = get(cx, &args[0]);
            node(move |ev, l| match zone(ev, l) {
                Value::Zone(z, seat, slot) => zone_end(
                    first,
                    &ev.s.zones[ev.eng.zone_instance(z, seat, slot) as usize],
                ),
                _ => Value::None,
            })
        }
        // Any other collection's first item (its walk stopped there) or last.
        Expr::Call(b @ (Builtin::First | Builtin::Last), args) => {
            let (first, coll) = (*b == Builtin::First, each(cx, &args[0]));
            node(move |ev, l| {
                let mut found = Value::None;
                coll(ev, l, &mut |v, _| {
                    pool::recycle(std::mem::replace(&mut found, v));
                    !first
                });
                kept(found)
            })
        }
        // A list written of expressions (`[passed]`): each item's value, in order.
        Expr::List(items) => {
            let items: Vec<Get> = items.iter().map(|i| get(cx, i)).collect();
            node(move |ev, l| {
                let mut out = pool::take();
                out.extend(items.iter().map(|g| g(ev, l)));
                kept(Value::List(out))
            })
        }
        // A piece's destinations or attacks as a list, as `Eval::call` lists them (a walk
        // of them is `each_cell`'s).
        Expr::Call(b @ (Builtin::Destinations | Builtin::Attacks), args) => {
            let attacks = *b == Builtin::Attacks;
            let (from, pattern) = (Arg::new(cx, &args[0]), Arg::new(cx, &args[1]));
            node(move |ev, l| {
                let c = from.cell(ev, l);
                let p = pattern.with(ev, l, |v| match *v {
                    Value::Pattern(p) => Some(p),
                    _ => None,
                });
                let (Some(c), Some(p)) = (c, p) else {
                    return Value::List(Items::new());
                };
                let mut out = pool::take();
                ev.moves_into(attacks, c, p, &mut out);
                kept(Value::List(out))
            })
        }
        // The paths over links from a cell (boards of areas), as `Eval::call` finds them:
        // the empty cells of `within` reached through empty cells of it, or the occupied
        // cells at the end of a path passing over at most `k` others.
        Expr::Call(Builtin::Reachable, args) => {
            // Within the board's cells (`reachable(x, cells)`): the cells that exist now,
            // found in one loop rather than walked (`Eval::present_cells`).
            let board = matches!(args[1], Expr::Cells) && !cx.remembered(&args[1]);
            let (cell, within) = (Arg::new(cx, &args[0]), each(cx, &args[1]));
            node(move |ev, l| {
                let Some(c) = cell.cell(ev, l) else {
                    return Value::List(Items::new());
                };
                let member = if board {
                    ev.present_cells()
                } else {
                    ev.cells_among(|f| within(ev, l, f))
                };
                let mut out = pool::take();
                ev.eng.reachable(ev.s, c, &member, &mut out);
                kept(Value::List(out))
            })
        }
        Expr::Call(Builtin::Targets, args) => {
            let (cell, k) = (Arg::new(cx, &args[0]), Arg::new(cx, &args[1]));
            node(move |ev, l| {
                let Some(c) = cell.cell(ev, l) else {
                    return Value::List(Items::new());
                };
                let k = k.with(ev, l, Value::as_int);
                let mut out = pool::take();
                ev.eng.targets(ev.s, c, k, &mut out);
                kept(Value::List(out))
            })
        }
        // A cell's place on a board of areas, as `Eval::call` finds it.
        Expr::Call(b @ (Builtin::SeatOf | Builtin::Row | Builtin::Rows), args) => {
            let (b, cell) = (*b, Arg::new(cx, &args[0]));
            node(move |ev, l| {
                let Some(c) = cell.cell(ev, l) else {
                    return if b == Builtin::SeatOf {
                        Value::None
                    } else {
                        Value::Int(0)
                    };
                };
                match b {
                    Builtin::SeatOf => ev.eng.seat_of_cell(c),
                    _ => Value::Int(ev.eng.row_of(ev.s, c, b == Builtin::Rows)),
                }
            })
        }
        // A shape's rows or cells, as `Eval::call` counts them.
        Expr::Call(b @ (Builtin::ShapeRows | Builtin::ShapeSize), args) => {
            let (rows, shape) = (*b == Builtin::ShapeRows, Arg::new(cx, &args[0]));
            node(move |ev, l| {
                let Some(sh) = shape.with(ev, l, |v| match *v {
                    Value::Shape(sh) => ev.eng.game.shapes.get(sh as usize),
                    _ => None,
                }) else {
                    return Value::Int(0);
                };
                Value::Int(if rows {
                    sh.rows.len()
                } else {
                    sh.cell_row.len()
                } as i64)
            })
        }
        // An area's cells in its current shape (its one cell, for an area of one), as
        // `eval` lists them.
        Expr::Area(a, seat) => {
            let (a, seat) = (*a, seat.as_deref().map(|p| SeatArg::new(cx, p)));
            node(move |ev, l| {
                let seat = seat_or_first(&seat, ev, l);
                kept(ev.eng.area_value(ev.s, a, seat))
            })
        }
        other => {
            let other = cx.copy(other);
            Box::new(move |ev, l| ev.eval(&other, l))
        }
    }
}

/// A zone written in the rules (`hand(me)`, `pile(p, 3)`): its seat (for a per-seat
/// zone) and its number (for `x N` zones) compiled, found as `eval` finds it.
pub(super) struct ZoneArg {
    z: u16,
    seat: Option<SeatArg>,
    number: Option<Get>,
}

impl ZoneArg {
    pub(super) fn new(cx: &mut Cx, z: u16, seat: Option<&Expr>, number: Option<&Expr>) -> ZoneArg {
        ZoneArg {
            z,
            seat: seat.map(|p| SeatArg::new(cx, p)),
            number: number.map(|n| get(cx, n)),
        }
    }

    /// The zone's seat and number, its operands charged as `eval` charges them: none
    /// for no such seat or number.
    #[inline(always)]
    fn find(&self, ev: &Eval, l: &mut [Value]) -> Option<(u8, u16)> {
        let p = seat_or_first(&self.seat, ev, l);
        let n = match &self.number {
            Some(n) => {
                let v = n(ev, l);
                let n = v.as_int() - 1;
                pool::recycle(v);
                n
            }
            None => 0,
        };
        let fits = p != NO_SEAT && n >= 0 && n < ev.eng.game.zones[self.z as usize].slots as i64;
        fits.then_some((p, n as u16))
    }

    /// The zone as a value (its node's step is the caller's).
    #[inline(always)]
    fn value(&self, ev: &Eval, l: &mut [Value]) -> Value {
        match self.find(ev, l) {
            Some((p, n)) => Value::Zone(self.z, p, n),
            None => Value::None,
        }
    }

    /// The zone's components where they stand, bottom first, the zone's node charged as
    /// `get` charges it and its operands as `eval` does: none for no such zone, or once
    /// the budget is spent. No value is made for the zone.
    #[inline(always)]
    pub(super) fn items<'e>(&self, ev: &Eval<'e>, l: &mut [Value]) -> Option<&'e [u16]> {
        if !budget::charge(1) {
            return None;
        }
        let (p, n) = self.find(ev, l)?;
        Some(&ev.s.zones[ev.eng.zone_instance(self.z, p, n) as usize])
    }
}

/// A zone's first or last component, read where it stands and charged as the walk to it
/// is (see `Eval::call`); `none` for an empty zone.
#[inline(always)]
fn zone_end(first: bool, items: &[u16]) -> Value {
    let (end, passed) = if first {
        (items.first(), items.len().min(1))
    } else {
        (items.last(), items.len())
    };
    match end {
        Some(&c) if budget::charge(passed as u64) => Value::Comp(c),
        _ => Value::None,
    }
}

/// A compiled node: a step of the budget, as `eval` charges each node, then `f`; `none`
/// once the budget is spent.
pub(super) fn node(f: impl Fn(&Eval, &mut [Value]) -> Value + Send + Sync + 'static) -> Get {
    Box::new(move |ev, l| {
        if budget::charge(1) {
            f(ev, l)
        } else {
            Value::None
        }
    })
}

/// `adjacent`, `slide`, `sight` or `reach` from a cell in directions written in the rules
/// (`slide(from, orthogonal)`): the cells listed as `Eval::call` lists them, into a list
/// from the pool (`get_node`) or the one a `let`'s local holds (`clauses::let_`).
pub(super) struct CellsFrom {
    b: Builtin,
    cell: Arg,
    dirs: Vec<u8>,
}

impl CellsFrom {
    pub(super) fn new(cx: &mut Cx, e: &Expr) -> Option<CellsFrom> {
        let Expr::Call(
            b @ (Builtin::Adjacent | Builtin::Slide | Builtin::Sight | Builtin::Reach),
            args,
        ) = e
        else {
            return None;
        };
        matches!(args[1], Expr::Const(_)).then(|| CellsFrom {
            b: *b,
            cell: Arg::new(cx, &args[0]),
            dirs: const_dirs(&args[1]),
        })
    }

    /// The cell the cells are found from (its read charged as `eval` charges it).
    #[inline(always)]
    pub(super) fn from(&self, ev: &Eval, l: &mut [Value]) -> Option<u16> {
        self.cell.cell(ev, l)
    }

    /// The cells from `c`, added to `out`.
    #[inline(always)]
    pub(super) fn list(&self, ev: &Eval, c: u16, out: &mut Items) {
        let (board, occ) = (&ev.eng.game.board, &ev.s.cells);
        geometry::list_from_cell(self.b, board, occ, c, &self.dirs, out);
    }
}

/// `along(path, cell, k)` on a declared path (region `r`, of `seat`): the cell `k` places
/// along, as `Eval::call` finds it, its place on the path looked up.
pub(super) fn along_path(cx: &mut Cx, r: u16, seat: Option<&Expr>, args: &[Expr]) -> Get {
    let (r, seat) = (r as usize, seat.map(|p| SeatArg::new(cx, p)));
    let (path, cell, k) = (
        cx.copy(&args[0]),
        Arg::new(cx, &args[1]),
        Arg::new(cx, &args[2]),
    );
    node(move |ev, l| {
        let Some(c) = cell.cell(ev, l) else {
            return Value::None;
        };
        let k = k.with(ev, l, Value::as_int);
        let seat = seat_or_first(&seat, ev, l) as usize;
        // No such seat's path: walked as `Eval::call` walks a list of cells that is no
        // declared path.
        ev.eng
            .along_path(r, seat, c, k)
            .unwrap_or_else(|| ev.along_list(&path, c, k, l))
    })
}

/// A value as `eval` hands it on: a list is charged its length (and refused past
/// `MAX_LIST`). Inlined, so that the value is not copied in and out again.
#[inline(always)]
pub(super) fn kept(v: Value) -> Value {
    if !listed(&v) {
        pool::recycle(v);
        return Value::None;
    }
    v
}

/// A copy of a value read where it stands, as `eval` hands it on (see `kept`): a scalar
/// copied straight into the caller's place (made in a temporary first, it would be copied
/// again a field at a time, and those narrow loads stall on the wide stores just made), a
/// list from the pool.
#[inline(always)]
pub(super) fn copied(v: &Value) -> Value {
    if v.owns_heap() {
        kept(pool::dup(v))
    } else {
        v.clone()
    }
}

/// The directions a constant names (`orthogonal`, `[n, e]`), read once when a plan is
/// built.
pub(super) fn const_dirs(e: &Expr) -> Vec<u8> {
    match e {
        Expr::Const(d) => Dirs::of(d).as_slice().to_vec(),
        _ => Vec::new(),
    }
}
