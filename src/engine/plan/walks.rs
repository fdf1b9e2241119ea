//! Walks of collections compiled: the items of a domain handed on one at a time
//! (`each`), the board's walks of cells handed on as cells (`each_cell`, `CellWalk`),
//! and collections counted without being made (`counter`).

use super::*;

/// Walks a collection as `Eval::for_each` does: each item charged to the budget.
pub(super) fn each(cx: &mut Cx, coll: &Expr) -> Each {
    if cx.remembered(coll) {
        let coll = cx.copy(coll);
        return Box::new(move |ev, l, f| ev.for_each(&coll, l, f));
    }
    // A walk of cells hands each on as a value.
    if let Some(cells) = each_cell(cx, coll) {
        return Box::new(move |ev, l, f| cells(ev, l, &mut |c, l| f(Value::Cell(c), l)));
    }
    match coll {
        // A definition's argument computed once, the body walked as `for_each` walks it.
        Expr::Bind(slot, v, body) => {
            let (slot, v, body) = (*slot as usize, get(cx, v), each(cx, body));
            Box::new(move |ev, l, f| {
                if budget::charge(1) {
                    bind(&v, slot, ev, l);
                    body(ev, l, f);
                }
            })
        }
        Expr::Call(Builtin::Shifts, args) => {
            let shifts = Shifts::new(cx, args);
            Box::new(move |ev, l, f| {
                if let Some((run, d)) = shifts.read(ev, l) {
                    let (board, occ) = (&ev.eng.game.board, &ev.s.cells);
                    geometry::shifts_of(board, occ, run, d, false, &mut |v| emit(f, v, l));
                }
            })
        }
        // Lists, runs and zones joined (`a + b`): the parts' items walked where they
        // stand, charged as `eval` charges the joined list it would make.
        Expr::Call(Builtin::Concat, parts) => {
            let parts: Vec<Arg> = parts.iter().map(|p| Arg::new(cx, p)).collect();
            Box::new(move |ev, l, f| {
                if !budget::charge(1) {
                    return;
                }
                let mut computed: SmallVec<[Value; 4]> = SmallVec::new();
                let mut total = 0;
                for p in &parts {
                    total += match p {
                        Arg::Get(g) => {
                            computed.push(g(ev, l));
                            ev.joined_len(&computed[computed.len() - 1])
                        }
                        p => ev.joined_len(p.seen(l)),
                    };
                }
                if budget::list(total) {
                    let mut k = 0;
                    for p in &parts {
                        let go_on = match p {
                            Arg::Get(_) => {
                                k += 1;
                                ev.each_joined(&computed[k - 1], &mut |v| emit(f, v, l))
                            }
                            Arg::Local(slot) => each_joined_local(ev, l, *slot, f),
                            Arg::Const(v) => ev.each_joined(v, &mut |x| emit(f, x, l)),
                        };
                        if !go_on {
                            break;
                        }
                    }
                }
                computed.into_iter().for_each(pool::recycle);
            })
        }
        // Runs of cells, made one at a time, as `for_each` makes them.
        Expr::Call(Builtin::Runs, args) if matches!(args[1], Expr::Const(_)) => {
            let runs = Runs::new(cx, args);
            Box::new(move |ev, l, f| {
                runs.each(ev, l, &mut |(start, dir, len), l| {
                    emit(f, Value::Line { start, dir, len }, l)
                })
            })
        }
        // A group of cells: listed, as `eval` lists it (see `get`), then walked. (`reach` is a
        // walk of cells: `each_cell`.)
        Expr::Call(Builtin::Group, args) if matches!(args[1], Expr::Const(_)) => {
            let list = get(cx, coll);
            Box::new(move |ev, l, f| {
                let cells = list(ev, l);
                ev.each_of(cells, l, &mut |v, l| emit(f, v, l));
            })
        }
        Expr::Seats => Box::new(|ev, l, f| {
            for p in 0..ev.s.players {
                if !ev.s.eliminated[p as usize] && !emit(f, Value::Seat(p), l) {
                    return;
                }
            }
        }),
        // A range of numbers, its ends compiled, counted out as `for_each` counts it.
        Expr::Binary(BinOp::Range, a, b) => {
            let (a, b) = (get(cx, a), get(cx, b));
            Box::new(move |ev, l, f| {
                let (a, b) = (a(ev, l), b(ev, l));
                ev.each_in_range(a, b, l, f);
            })
        }
        // Over the seats still in the game (`first([p in seats where ...])`): one loop.
        Expr::Comprehension(slot, coll, cond)
            if matches!(**coll, Expr::Seats) && !cx.remembered(coll) =>
        {
            let slot = *slot as usize;
            let cond = cond.as_deref().map(|c| truth(cx, c));
            Box::new(move |ev, l, f| {
                each_seat(ev, l, slot, |p, l| {
                    !cond.as_ref().is_none_or(|t| t(ev, l)) || emit(f, Value::Seat(p), l)
                })
            })
        }
        // Filtered as it is walked, as `for_each` does, the condition compiled.
        Expr::Comprehension(slot, coll, cond) => {
            let (slot, coll) = (*slot as usize, each(cx, coll));
            let cond = cond.as_deref().map(|c| truth(cx, c));
            Box::new(move |ev, l, f| {
                coll(ev, l, &mut |v, l| {
                    filter_item(ev, l, slot, cond.as_ref(), v, |v, l| emit(f, v, l))
                })
            })
        }
        // What `for_each` does not walk in place (a zone, a list a variable holds, an
        // `if`): computed, then its items walked, as `for_each` does.
        other if !Eval::walked_in_place(other) => {
            let value = get(cx, other);
            Box::new(move |ev, l, f| {
                let v = value(ev, l);
                ev.each_of(v, l, &mut |x, l| emit(f, x, l));
            })
        }
        other => {
            let other = cx.copy(other);
            Box::new(move |ev, l, f| ev.for_each(&other, l, f))
        }
    }
}

/// The items of a local that is part of a join (`a + b`), as `Eval::each_joined` gives
/// them, each handed on as it is read: the locals are lent to the walk between items, so
/// nothing is copied out first but the scalar at hand (a run, a zone, a list's item).
/// Whether the walk went on to the end.
pub(super) fn each_joined_local(
    ev: &Eval,
    l: &mut [Value],
    slot: usize,
    f: &mut dyn FnMut(Value, &mut [Value]) -> bool,
) -> bool {
    let Value::List(items) = &l[slot] else {
        // A run or a zone (a string or a route gives nothing).
        if l[slot].owns_heap() {
            return true;
        }
        let v = l[slot].clone();
        return ev.each_joined(&v, &mut |x| emit(f, x, l));
    };
    for i in 0..items.len() {
        let item = match &l[slot] {
            Value::List(items) => items.get(i).map(pool::dup),
            _ => None,
        };
        let go_on = match item {
            // A zone among the items gives its components.
            Some(zone @ Value::Zone(..)) => ev.each_joined(&zone, &mut |x| emit(f, x, l)),
            Some(v) => emit(f, v, l),
            None => return true,
        };
        if !go_on {
            return false;
        }
    }
    true
}

/// One item of a comprehension as it is filtered (walked or made as a list): set in the
/// comprehension's local, then handed to `keep` if the condition holds, given back if not;
/// whether the walk goes on.
#[inline(always)]
pub(super) fn filter_item(
    ev: &Eval,
    l: &mut [Value],
    slot: usize,
    cond: Option<&Cond>,
    v: Value,
    keep: impl FnOnce(Value, &mut [Value]) -> bool,
) -> bool {
    pool::assign(&mut l[slot], &v);
    if cond.is_none_or(|c| c(ev, l)) {
        keep(v, l)
    } else {
        pool::recycle(v);
        true
    }
}

/// Counts a collection's items as they are walked, up to `enough` (a walk of cells makes
/// no value for them).
pub(super) type Counter = Box<dyn Fn(&Eval, &mut [Value], i64) -> i64 + Send + Sync>;

/// `occupied` (`Some(None)`) or `cells_of(seat)` (`Some(Some(seat))`), not remembered: a
/// row of the state's index of occupied cells (see `whose`), which `size`, `group` and
/// `runs` read whole.
pub(super) fn occupied_row(cx: &mut Cx, coll: &Expr) -> Option<Option<SeatArg>> {
    match coll {
        _ if cx.remembered(coll) => None,
        Expr::Occupied => Some(None),
        Expr::CellsOf(p) => Some(Some(SeatArg::new(cx, p))),
        _ => None,
    }
}

pub(super) fn counter(cx: &mut Cx, coll: &Expr) -> Counter {
    // The occupied cells, or a seat's: counted in the state's index, each cell counted
    // (up to `enough`) a step, as walking them charges it.
    if let Some(seat) = occupied_row(cx, coll) {
        return Box::new(move |ev, l, enough| {
            let n = (ev.s.count_occupied_by(whose(&seat, ev, l)) as i64).min(enough);
            budget::charge(n as u64);
            n
        });
    }
    // A walk of cells (`occupied`, `cells_of(p)`, `destinations(...)`, a comprehension
    // over one): counted in the walk's own loop, each cell charged as the walk charges it.
    struct Count;
    impl CellsTo<Counter> for Count {
        fn to<C: Cells>(self, _: &mut Cx, cells: C) -> Counter {
            Box::new(move |ev, l, enough| {
                let mut n = 0;
                cells.walk(ev, l, &mut |_, _| {
                    n += 1;
                    n < enough
                });
                n
            })
        }
    }
    if let Ok(count) = with_cells(cx, coll, Count) {
        return count;
    }
    // A local (a run, a list, a zone) is counted where it stands, an item charged as
    // `Eval::for_each` charges each one it hands on, without handing them on.
    if let Expr::Local(slot) = *coll {
        let slot = slot as usize;
        return Box::new(move |ev, l, enough| {
            let n = match l[slot] {
                Value::List(ref items) => items.len() as i64,
                Value::Zone(z, seat, k) => {
                    ev.s.zones[ev.eng.zone_instance(z, seat, k) as usize].len() as i64
                }
                ref line @ Value::Line { .. } => {
                    // As many of its cells as stand on the board, up to `enough`.
                    let mut n = 0;
                    geometry::each_line_cell(line, &ev.eng.game.board, |_| {
                        n += 1;
                        n < enough
                    });
                    n
                }
                _ => 0,
            };
            counted(n, enough)
        });
    }
    // A zone (`size(hand(me))`): found as its node finds it and charged as that node is,
    // then its components counted where they stand, each (up to `enough`) a step, as
    // walking them charges it; no value is made for any.
    if let Expr::Zone(z, seat, number) = coll {
        if !cx.remembered(coll) {
            let zone = ZoneArg::new(cx, *z, seat.as_deref(), number.as_deref());
            return Box::new(move |ev, l, enough| {
                counted(
                    zone.items(ev, l).map_or(0, |items| items.len() as i64),
                    enough,
                )
            });
        }
    }
    let items = each(cx, coll);
    Box::new(move |ev, l, enough| {
        let mut n = 0;
        items(ev, l, &mut |v, _| {
            pool::recycle(v);
            n += 1;
            n < enough
        });
        n
    })
}

/// The seats still in the game, in order, each written into the local `slot` and handed
/// to `f` (a step each, as `each` walks them), while it says to go on: the loop of a
/// choice, a quantifier, an aggregate or a comprehension over `seats`, with no call for
/// each.
#[inline(always)]
pub(super) fn each_seat(
    ev: &Eval,
    l: &mut [Value],
    slot: usize,
    mut f: impl FnMut(u8, &mut [Value]) -> bool,
) {
    for p in 0..ev.s.players {
        if ev.s.eliminated[p as usize] {
            continue;
        }
        if !budget::charge(1) {
            return;
        }
        pool::set(&mut l[slot], Value::Seat(p));
        if !f(p, l) {
            return;
        }
    }
}

/// `n` items counted where they stand, up to `enough`, each charged as a walk that hands
/// it on charges it: 0 once the budget is spent.
#[inline(always)]
fn counted(n: i64, enough: i64) -> i64 {
    let n = n.min(enough);
    if budget::charge(n as u64) {
        n
    } else {
        0
    }
}

/// A walk of cells: each cell is handed on as its number, charged to the budget as `emit`
/// charges an item; no value is made for it, so a `choose` or a quantifier over it writes
/// the cell into its local in place.
pub(super) type EachCell =
    Box<dyn Fn(&Eval, &mut [Value], &mut dyn FnMut(u16, &mut [Value]) -> bool) + Send + Sync>;

/// Passes one cell of a walk on, charged as `emit` charges an item.
#[inline(always)]
pub(super) fn emit_cell<F: FnMut(u16, &mut [Value]) -> bool + ?Sized>(
    f: &mut F,
    c: u16,
    l: &mut [Value],
) -> bool {
    budget::charge(1) && f(c, l)
}

/// The cells a collection gives, as numbers, for the built-ins that read only cells
/// (`runs`, `group`): a walk of cells as it is, any other walk with its other items
/// passed over (as `Eval::for_each` hands them and the evaluator skips them).
pub(super) fn cells_in(cx: &mut Cx, coll: &Expr) -> EachCell {
    if let Some(cells) = each_cell(cx, coll) {
        return cells;
    }
    let items = each(cx, coll);
    // A remembered comprehension: its cells read out of the remembered list as numbers.
    let remembered = match coll {
        Expr::Comprehension(..) if cx.remembered(coll) => Some(cx.copy(coll)),
        _ => None,
    };
    Box::new(move |ev, l, f| {
        if remembered
            .as_ref()
            .is_some_and(|coll| ev.remembered_cells(coll, l, f))
        {
            return;
        }
        items(ev, l, &mut |v, l| match v {
            Value::Cell(c) => f(c, l),
            other => {
                pool::recycle(other);
                true
            }
        })
    })
}

/// The commonest walks of cells, which a `choose` takes into its own loop (the cells
/// handed to it without a call through a pointer each): the cells around or along lines
/// from a cell (`adjacent`, `slide`, `sight` in directions written in the rules), those
/// reached through empty cells (`reach`), the cells with a piece, or with a seat's piece
/// (`occupied`, `cells_of`), a piece's destinations or attacks, the board's cells, a
/// region's and a shaped area's. Each charged as `Eval::for_each` charges it.
pub(super) enum CellWalk {
    From(Builtin, Arg, Vec<u8>),
    Reach(Arg, Vec<u8>),
    Occupied(Option<SeatArg>),
    /// A piece's destinations (false) or attacks (true): the cell, the pattern.
    Moves(bool, Arg, Arg),
    /// The board's cells (those its areas' shapes lay out now).
    Board,
    /// A region's cells in its order (the seat's, for a region per seat).
    Region(usize, Option<SeatArg>),
    /// A shaped area's cells in its current shape (the seat's, for an area per seat),
    /// without the list `get` makes of them.
    Area(u16, Option<SeatArg>),
}

impl CellWalk {
    pub(super) fn new(cx: &mut Cx, coll: &Expr) -> Option<CellWalk> {
        if cx.remembered(coll) {
            return None;
        }
        Some(match coll {
            Expr::Call(b @ (Builtin::Adjacent | Builtin::Slide | Builtin::Sight), args)
                if matches!(args[1], Expr::Const(_)) =>
            {
                CellWalk::From(*b, Arg::new(cx, &args[0]), const_dirs(&args[1]))
            }
            Expr::Call(Builtin::Reach, args) if matches!(args[1], Expr::Const(_)) => {
                CellWalk::Reach(Arg::new(cx, &args[0]), const_dirs(&args[1]))
            }
            Expr::Cells => CellWalk::Board,
            Expr::Region(r, seat) => {
                CellWalk::Region(*r as usize, seat.as_deref().map(|p| SeatArg::new(cx, p)))
            }
            // An area of one cell gives that cell, not a list: a walk of it gives nothing,
            // as `Eval::for_each` walks it, and it is left to `each`.
            Expr::Area(a, seat) if !cx.board.areas[*a as usize].families.is_empty() => {
                CellWalk::Area(*a, seat.as_deref().map(|p| SeatArg::new(cx, p)))
            }
            Expr::Occupied => CellWalk::Occupied(None),
            Expr::CellsOf(p) => CellWalk::Occupied(Some(SeatArg::new(cx, p))),
            Expr::Call(b @ (Builtin::Destinations | Builtin::Attacks), args) => CellWalk::Moves(
                *b == Builtin::Attacks,
                Arg::new(cx, &args[0]),
                Arg::new(cx, &args[1]),
            ),
            _ => return None,
        })
    }

    /// Hands each cell to `f` (after its step), while `f` says to go on.
    #[inline(always)]
    pub(super) fn each<F: FnMut(u16, &mut [Value]) -> bool + ?Sized>(
        &self,
        ev: &Eval,
        l: &mut [Value],
        f: &mut F,
    ) {
        match self {
            CellWalk::From(b, cell, dirs) => {
                if !budget::charge(1) {
                    return;
                }
                let Some(c) = cell.cell(ev, l) else {
                    return;
                };
                let (board, occ) = (&ev.eng.game.board, &ev.s.cells);
                geometry::from_cell(*b, board, occ, c, dirs, &mut |x| {
                    budget::charge(1) && f(x, l)
                });
            }
            // The cells reached by steps through empty cells, found as numbers and handed
            // on one at a time, charged as `get` lists them and `Eval::each_of` walks the
            // list: the node, the cell, the list's length, then each item.
            CellWalk::Reach(cell, dirs) => {
                if !budget::charge(1) {
                    return;
                }
                let mut found = pool::Ids::new();
                if let Some(c) = cell.cell(ev, l) {
                    let (board, occ) = (&ev.eng.game.board, &ev.s.cells);
                    geometry::reach_cells(board, occ, c, dirs, &mut found);
                }
                if !budget::list(found.len()) {
                    return;
                }
                for &c in found.iter() {
                    if !(budget::charge(1) && f(c, l)) {
                        return;
                    }
                }
            }
            CellWalk::Board => {
                for c in 0..ev.eng.game.board.cells.len() as u16 {
                    if ev.eng.present(ev.s, c) && !(budget::charge(1) && f(c, l)) {
                        return;
                    }
                }
            }
            CellWalk::Region(r, seat) => {
                let at = seat_or_first(seat, ev, l) as usize;
                if let Some(cells) = ev.eng.game.board.regions[*r].cells.get(at) {
                    for &c in cells {
                        if !(budget::charge(1) && f(c, l)) {
                            return;
                        }
                    }
                }
            }
            CellWalk::Area(a, seat) => area_cells(ev, l, *a, seat, f),
            // Found one at a time, as `for_each` finds them.
            CellWalk::Moves(attacks, from, pattern) => {
                each_move(ev, l, *attacks, from, pattern, &mut |x, l| {
                    budget::charge(1) && f(x, l)
                });
            }
            CellWalk::Occupied(seat) => {
                let only = whose(seat, ev, l);
                ev.s.each_occupied_by(only, |c, _| budget::charge(1) && f(c, l));
            }
        }
    }
}

/// `CellWalk::Area`'s walk: the area's node, its seat and its length, then each cell, as
/// `eval` makes its list and `for_each` walks it. Out of line, so that the walks inlined
/// into every loop over cells do not grow by it.
#[inline(never)]
fn area_cells<F: FnMut(u16, &mut [Value]) -> bool + ?Sized>(
    ev: &Eval,
    l: &mut [Value],
    a: u16,
    seat: &Option<SeatArg>,
    f: &mut F,
) {
    if !budget::charge(1) {
        return;
    }
    let seat = seat_or_first(seat, ev, l);
    let cells = ev.eng.area_span(ev.s, a, seat);
    if !budget::list(cells.len()) {
        return;
    }
    for c in cells {
        if !(budget::charge(1) && f(c, l)) {
            return;
        }
    }
}

/// A piece's destinations (`attacks` false) or attacks from the cell `from` gives by the
/// pattern `pattern` gives, each handed to `f` while it says to go on, after the call's
/// step and its operands' as `Eval::for_each` charges them (each cell's step is `f`'s).
#[inline(always)]
pub(super) fn each_move<F: FnMut(u16, &mut [Value]) -> bool + ?Sized>(
    ev: &Eval,
    l: &mut [Value],
    attacks: bool,
    from: &Arg,
    pattern: &Arg,
    f: &mut F,
) {
    if let Some((c, p)) = move_reads(ev, l, from, pattern) {
        ev.each_move_cell(attacks, c, ev.eng.moves(p), &mut |x| f(x, l));
    }
}

/// The cell and the pattern of `destinations(from, pattern)` or `attacks(...)`, read as
/// the walk reads them: the call's step, then its cell's and its pattern's. `None` if
/// either is not one, or the budget is spent.
#[inline(always)]
pub(super) fn move_reads(
    ev: &Eval,
    l: &mut [Value],
    from: &Arg,
    pattern: &Arg,
) -> Option<(u16, u16)> {
    if !budget::charge(1) {
        return None;
    }
    let c = from.cell(ev, l);
    let p = pattern.with(ev, l, |v| match *v {
        Value::Pattern(p) => Some(p),
        _ => None,
    });
    c.zip(p)
}

/// A walk of cells as a loop takes it: a `CellWalk` into the loop itself, any other
/// (`each_cell`) behind a pointer. The loops over cells (`choose`, quantifiers,
/// comprehensions) are written once for both.
pub(super) trait Cells: Send + Sync + 'static {
    fn walk<F: FnMut(u16, &mut [Value]) -> bool>(&self, ev: &Eval, l: &mut [Value], f: &mut F);

    /// Whether the walk may give an empty cell (false only where it never can).
    fn gives_empty(&self) -> bool {
        true
    }
}

impl Cells for CellWalk {
    #[inline(always)]
    fn walk<F: FnMut(u16, &mut [Value]) -> bool>(&self, ev: &Eval, l: &mut [Value], f: &mut F) {
        self.each(ev, l, f)
    }

    fn gives_empty(&self) -> bool {
        !matches!(self, CellWalk::Occupied(_))
    }
}

impl Cells for EachCell {
    #[inline(always)]
    fn walk<F: FnMut(u16, &mut [Value]) -> bool>(&self, ev: &Eval, l: &mut [Value], f: &mut F) {
        self(ev, l, f)
    }
}

/// `coll` as a walk of cells, if it is one, handed to `go` as the type it has; `go` given
/// back if `coll` is none.
pub(super) fn with_cells<R, G: CellsTo<R>>(cx: &mut Cx, coll: &Expr, go: G) -> Result<R, G> {
    if let Some(walk) = CellWalk::new(cx, coll) {
        return Ok(go.to(cx, walk));
    }
    match each_cell(cx, coll) {
        Some(cells) => Ok(go.to(cx, cells)),
        None => Err(go),
    }
}

/// What is made of a walk of cells, whichever type it has (see `with_cells`), compiling
/// what it needs after the walk.
pub(super) trait CellsTo<R> {
    fn to<C: Cells>(self, cx: &mut Cx, cells: C) -> R;
}

/// The walks that give only cells, as `Eval::for_each` walks them: the cells around or
/// along lines from a cell, the board's cells, those with a piece or a seat's pieces, a
/// piece's destinations or attacks, and a comprehension over any of these.
pub(super) fn each_cell(cx: &mut Cx, coll: &Expr) -> Option<EachCell> {
    if cx.remembered(coll) {
        return None;
    }
    if let Some(walk) = CellWalk::new(cx, coll) {
        return Some(Box::new(move |ev, l, f| walk.each(ev, l, f)));
    }
    match coll {
        // The cells judged as a set, where the condition allows (`masks.rs`); else
        // filtered as they are walked, as `for_each` does, the condition compiled.
        Expr::Comprehension(slot, inner, cond) => {
            if let Some(filter) = cond
                .as_deref()
                .and_then(|c| masks::Filter::new(cx, inner, *slot, c))
            {
                return Some(Box::new(move |ev, l, f| filter.each(ev, l, f)));
            }
            struct Filtered<'e>(usize, Option<&'e Expr>);
            impl CellsTo<EachCell> for Filtered<'_> {
                fn to<C: Cells>(self, cx: &mut Cx, cells: C) -> EachCell {
                    let (slot, cond) = (self.0, self.1.map(|c| truth(cx, c)));
                    Box::new(move |ev, l, f| {
                        cells.walk(ev, l, &mut |c, l: &mut [Value]| {
                            pool::set(&mut l[slot], Value::Cell(c));
                            !cond.as_ref().is_none_or(|t| t(ev, l)) || emit_cell(f, c, l)
                        })
                    })
                }
            }
            with_cells(cx, inner, Filtered(*slot as usize, cond.as_deref())).ok()
        }
        _ => None,
    }
}

/// `shifts(run, dir)`: its operands.
pub(super) struct Shifts {
    pub(super) line: Arg,
    pub(super) dir: Arg,
}

impl Shifts {
    pub(super) fn new(cx: &mut Cx, args: &[Expr]) -> Shifts {
        Shifts {
            line: Arg::new(cx, &args[0]),
            dir: Arg::new(cx, &args[1]),
        }
    }

    /// The run where it stands (a local or a constant holding one): its start, direction
    /// and length, nothing charged. It is the same for every direction.
    #[inline(always)]
    pub(super) fn run_in_place(&self, l: &[Value]) -> Option<(u16, u8, u8)> {
        match *self.line.seen_uncharged(l) {
            Value::Line { start, dir, len } => Some((start, dir, len)),
            _ => None,
        }
    }

    /// The run (its start, direction and length) and the direction, read as `eval` reads
    /// them (the node and its operands charged); `None` if either is not one, or the
    /// budget is spent.
    #[inline(always)]
    pub(super) fn read(&self, ev: &Eval, l: &mut [Value]) -> Option<((u16, u8, u8), u8)> {
        if !budget::charge(1) {
            return None;
        }
        // The run is only looked at: its start, direction and length.
        let run = self.line.with(ev, l, |v| match *v {
            Value::Line { start, dir, len } => Some((start, dir, len)),
            _ => None,
        });
        let d = self.dir.with(ev, l, |v| match *v {
            Value::Dir(d) => Some(d),
            _ => None,
        });
        match (run, d) {
            (Some(run), Some(d)) => Some((run, d)),
            _ => None,
        }
    }
}

/// `runs(CELLS, DIRS)` with the directions written in the rules: the cells compiled, the
/// axes worked out once (`geometry::run_axes`).
pub(super) struct Runs {
    /// The cells: a row of the occupancy index for `occupied` or `cells_of(seat)` (see
    /// `occupied_row`), read whole, each cell charged as walking it is; or walked.
    cells: Result<Option<SeatArg>, EachCell>,
    axes: geometry::Axes,
}

impl Runs {
    pub(super) fn new(cx: &mut Cx, args: &[Expr]) -> Runs {
        Runs {
            axes: geometry::run_axes(cx.board, &const_dirs(&args[1])),
            cells: occupied_row(cx, &args[0]).ok_or_else(|| cells_in(cx, &args[0])),
        }
    }

    /// Each run, one at a time, as `for_each` makes them, while `f` says to go on: its
    /// first cell, direction and length (see `geometry::runs_along`).
    #[inline(always)]
    pub(super) fn each(
        &self,
        ev: &Eval,
        l: &mut [Value],
        f: &mut impl FnMut((u16, u8, u8), &mut [Value]) -> bool,
    ) {
        let mut found = pool::take_cells();
        match &self.cells {
            Ok(seat) => {
                let seat = whose_read_whole(seat, ev, l);
                ev.s.each_occupied_by(seat, |c, _| {
                    found.push(c);
                    true
                });
            }
            Err(cells) => cells(ev, l, &mut |c, _| {
                found.push(c);
                true
            }),
        }
        geometry::runs_along(&ev.eng.game.board, &found, &self.axes, &mut |v| f(v, l));
        pool::give_cells(found);
    }

    /// `each` on a board whose steps are shifts of a word (`words`), each run handed on
    /// with its cells as a word and whether it is stuck for a step in `dirs`, stuck runs
    /// one after another offered to `skip` (see `WordSteps::runs`); false (nothing walked)
    /// where the cells are not a row of the state's index of occupied cells, read as a
    /// word.
    #[inline(always)]
    pub(super) fn each_word(
        &self,
        ev: &Eval,
        l: &mut [Value],
        (words, dirs): (&geometry::WordSteps, &[u8]),
        f: &mut impl FnMut((u16, u8, u8), u64, bool, &mut [Value]) -> bool,
        skip: &mut impl FnMut(u64) -> bool,
    ) -> bool {
        let Ok(seat) = &self.cells else {
            return false;
        };
        let seat = whose_read_whole(seat, ev, l);
        let cells = ev.s.occupied_word(seat);
        let occupied = ev.s.occupied_word(None);
        words.runs(
            cells,
            &self.axes,
            (occupied, dirs),
            &mut |v, run, stuck| f(v, run, stuck, l),
            skip,
        );
        true
    }
}
