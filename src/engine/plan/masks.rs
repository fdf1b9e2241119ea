//! Conditions on one cell judged for a whole set of cells at once.
//!
//! `[c in cells where c.empty and (rank(c) == 1 or any b in adjacent(c, [s]): not
//! b.empty)]` judged one cell at a time calls a closure for each node and each cell. Judged
//! as sets of cells (bits in words), each node is one pass over the cells still in
//! question: `c.empty` keeps the empty ones, `and` judges its right side on the cells its
//! left side kept, `or` on those it did not, `rank(c) == 1` is a set worked out when the
//! engine is built, and a quantifier over a cell's neighbours in written directions judges
//! its body on the neighbours of the cells still open, one direction after the other (on a
//! grid, the set shifted by the direction's step).
//!
//! A filter, a quantifier, or a `require` straight after a `choose` (`choose at in cells`,
//! `require at.empty`), is judged this way (`Filter`) when each node of its condition
//! (`Pred`) is one of these: `and`, `or`, `not`, `x.empty` of its cell, `rank(x)` or
//! `file(x)` compared with a constant or an attribute of `me`, `x.piece.owner` compared
//! (`==`, `!=`) with `me`, a seat written in the rules, a seat in a local the condition
//! does not bind or the seat after or before one (`next(p)`), a test of what the piece on
//! the cell holds (an attribute, or a variable that never holds a list: compared with a
//! constant or with another of them, looked for in a list written in the rules, or judged
//! true; `x.piece.kind == a`, `x.piece.used < x.piece.most`, `not x.piece.flag`), `x`
//! compared with a cell in a local the condition does not bind (`a < b`: cells compare by
//! their order on the board), `distance(x, y)` with such a cell compared with a number
//! written in the rules or a number attribute of `me` (`distance(y, c) <= 4`), `x in y`
//! or `x not in y` for `y` a local the condition does not bind (not in a quantifier's
//! condition: a quantifier stops at the first cell that settles it) or a region written in
//! the rules (`d in goal(me)`: of no seat, or of one as `x.piece.owner` compares), and `any`,
//! `all` or `none` over `adjacent(x, dirs)` with
//! written directions each of whose steps goes the same number of cells on (a grid's, a
//! hex board's); none of them remembered within a query. A condition `p and rest` or `p or
//! rest` whose left side alone is such a condition has `p` judged as a set and `rest`,
//! compiled as any condition is, judged cell by cell in the walk's order where `p` leaves
//! the answer open (`Rest`). Its domain (`Domain`) is the board's cells, the occupied ones
//! or a seat's (rows of the state's index of occupied cells), a region whose cells stand
//! in the board's order, a cell's neighbours, the cells in sight or a slide from it in
//! written directions (`adjacent(a, dirs)`, `sight(a, dirs)`, `slide(a, dirs)`, handed on
//! in the directions' order, not the board's: `Given`; a cell's neighbours read as a set,
//! that order walked only where more than one is handed on: `Around`), the cells reached
//! from it through
//! empty ones (`reach(a, dirs)`, in the order reached), the cells of a group of occupied
//! cells or of a seat's (`group(a, dirs, cells_of(p))`, found a ring of neighbours at a
//! time; their order, the walk's, found only where it is asked for: `Flood`), or a piece's
//! destinations or
//! attacks by a pattern (in the walk's order, where it gives at most
//! `MAX_ORDER` cells), on a board of at most `MAX_CELLS` cells, all of them always laid out
//! (no area's shape comes and goes).
//!
//! Invariant: a set judged charges the decision's budget what judging its cells one at a
//! time in order charges (each node its step, each neighbour walked its item): a node's
//! steps for a cell depend only on what the nodes below it found for that cell, so a set's
//! steps are the sum of its cells', counted as the sets are judged. A walk that stops at a
//! cell charges what the cells up to it cost (counted where every cell costs the same,
//! else the set judged again up to it). The steps are charged once the walk ends, in one
//! charge (a `rest` charges its own as it is judged): a budget that runs out there ends the
//! decision as it would have a few cells earlier. A listing made ahead inside `apply`
//! (`engine/ahead.rs`) goes on past its first action; counted exactly, the walk in whose
//! cell's turn it was found owes what stopping there would have charged (`budget::owe`).

mod pairs;

pub(super) use pairs::{adjacent_to, sight_to, Pairs, Table};

use super::{
    budget, compared, const_dirs, emit_cell, move_reads, occupied_row, ops, pool, seat_or_first,
    truth, whose, whose_read_whole, Arg, Cond, Cx, Eval, SeatArg, NO_SEAT,
};
use crate::engine::eval::FixedList;
use crate::engine::pool::Ids;
use crate::engine::{geometry, patterns};
use crate::ir::Items;
use crate::ir::{BinOp, Board, Builtin, Expr, Quant, Value, NO_CELL};

/// The most cells a board may have for its conditions to be judged as sets.
const MAX_CELLS: usize = 1024;

/// A set of cells, one bit each, in `W` words.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Mask<const W: usize>([u64; W]);

impl<const W: usize> Mask<W> {
    const NONE: Self = Mask([0; W]);

    /// The set whose words are the first `W` of `words` (none past its end).
    #[inline(always)]
    fn of(words: &[u64]) -> Self {
        Mask(std::array::from_fn(|i| words.get(i).copied().unwrap_or(0)))
    }

    #[inline(always)]
    fn and(self, o: Self) -> Self {
        Mask(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }

    #[inline(always)]
    fn or(self, o: Self) -> Self {
        Mask(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }

    #[inline(always)]
    fn minus(self, o: Self) -> Self {
        Mask(std::array::from_fn(|i| self.0[i] & !o.0[i]))
    }

    #[inline(always)]
    fn len(&self) -> u64 {
        self.0.iter().map(|w| u64::from(w.count_ones())).sum()
    }

    #[inline(always)]
    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Each cell `c` moved to `c + k`; those moved past either end dropped.
    #[inline(always)]
    fn shifted(self, k: i32) -> Self {
        let (q, r) = ((k.unsigned_abs() / 64) as usize, k.unsigned_abs() % 64);
        let w = &self.0;
        Mask(std::array::from_fn(|i| {
            // The word `q` words away toward the low cells (k > 0) or the high ones, and
            // the carry from the one past it.
            let (near, far) = if k >= 0 {
                (i.checked_sub(q), i.checked_sub(q + 1))
            } else {
                (
                    Some(i + q).filter(|&j| j < W),
                    Some(i + q + 1).filter(|&j| j < W),
                )
            };
            let near = near.map_or(0, |j| if k >= 0 { w[j] << r } else { w[j] >> r });
            let far = match far {
                Some(j) if r > 0 => {
                    if k >= 0 {
                        w[j] >> (64 - r)
                    } else {
                        w[j] << (64 - r)
                    }
                }
                _ => 0,
            };
            near | far
        }))
    }

    /// Cell `c` added.
    #[inline(always)]
    fn insert(&mut self, c: u16) {
        self.0[c as usize / 64] |= 1 << (c % 64);
    }

    /// Cell `c` taken out.
    #[inline(always)]
    fn remove(&mut self, c: u16) {
        self.0[c as usize / 64] &= !(1 << (c % 64));
    }

    /// The set's one cell, if it has exactly one.
    #[inline(always)]
    fn only(&self) -> Option<u16> {
        let mut found = None;
        for (i, &w) in self.0.iter().enumerate() {
            if w == 0 {
                continue;
            }
            if found.is_some() || w & (w - 1) != 0 {
                return None;
            }
            found = Some((i * 64) as u16 + w.trailing_zeros() as u16);
        }
        found
    }

    /// The set of cell `c` alone.
    #[inline(always)]
    fn one(c: u16) -> Self {
        let (at, bit) = (c as usize / 64, c % 64);
        Mask(std::array::from_fn(|i| if i == at { 1 << bit } else { 0 }))
    }

    #[inline(always)]
    fn contains(&self, c: u16) -> bool {
        self.0
            .get(c as usize / 64)
            .is_some_and(|w| w & (1 << (c % 64)) != 0)
    }

    /// The cells up to `c`, `c` included.
    fn upto(self, c: u16) -> Self {
        let (at, bit) = (c as usize / 64, c % 64);
        Mask(std::array::from_fn(|i| {
            if i < at || (i == at && bit == 63) {
                self.0[i]
            } else if i == at {
                self.0[i] & ((2 << bit) - 1)
            } else {
                0
            }
        }))
    }

    /// The cells `c` for which `c op y` holds (`mirrored`: `y op c`), cells compared by
    /// their order on the board.
    #[inline(always)]
    fn ordered_against(self, op: BinOp, mirrored: bool, y: u16) -> Self {
        let op = match (mirrored, op) {
            (true, BinOp::Lt) => BinOp::Gt,
            (true, BinOp::Le) => BinOp::Ge,
            (true, BinOp::Gt) => BinOp::Lt,
            (true, BinOp::Ge) => BinOp::Le,
            (_, op) => op,
        };
        let (upto, at) = (self.upto(y), self.and(Mask::one(y)));
        match op {
            BinOp::Eq => at,
            BinOp::Ne => self.minus(at),
            BinOp::Lt => upto.minus(at),
            BinOp::Le => upto,
            BinOp::Gt => self.minus(upto),
            BinOp::Ge => self.minus(upto).or(at),
            _ => Mask::NONE,
        }
    }

    /// The cells for which `f` holds.
    #[inline(always)]
    fn filter(self, mut f: impl FnMut(u16) -> bool) -> Self {
        let mut held = Mask::NONE;
        self.each(|c| {
            if f(c) {
                held.insert(c);
            }
            true
        });
        held
    }

    /// The cells in order, while `f` says to go on.
    #[inline(always)]
    fn each(&self, mut f: impl FnMut(u16) -> bool) {
        for (i, &w) in self.0.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                if !f((i * 64) as u16 + w.trailing_zeros() as u16) {
                    return;
                }
                w &= w - 1;
            }
        }
    }
}

/// Words of a set of `n` cells, with the cells for which `f` holds.
fn words(n: usize, f: impl Fn(u16) -> bool) -> Vec<u64> {
    let mut w = vec![0u64; n.div_ceil(64).max(1)];
    for c in 0..n {
        if f(c as u16) {
            w[c / 64] |= 1 << (c % 64);
        }
    }
    w
}

/// The other side of `rank(x) op v`: a value the whole judgement reads the same, and the
/// steps `eval` charges for it.
enum Fixed {
    Const(Value),
    /// An attribute of `me`, by index.
    MyAttr(usize),
}

impl Fixed {
    fn new(e: &Expr) -> Option<Fixed> {
        Some(match e {
            Expr::Const(v) if !v.owns_heap() => Fixed::Const(v.clone()),
            Expr::SeatAttr(p, i) if matches!(**p, Expr::Me) => Fixed::MyAttr(*i as usize),
            _ => return None,
        })
    }

    fn steps(&self) -> u64 {
        match self {
            Fixed::Const(_) => 1,
            Fixed::MyAttr(_) => 2,
        }
    }

    /// Its value when `me` is seat `me` (`NO_SEAT` for none) of `seats`, as `eval` reads
    /// it.
    fn value(&self, seats: &[crate::ir::SeatDef], me: u8) -> Value {
        match self {
            Fixed::Const(v) => v.clone(),
            Fixed::MyAttr(i) => match seats.get(me as usize) {
                Some(seat) => seat.attrs[*i].clone(),
                None => Value::None,
            },
        }
    }
}

/// Each list of region `r` (one for each seat, or one) as a set of the board's cells.
fn region_sets(board: &Board, r: u16) -> Option<Vec<Vec<u64>>> {
    let lists = &board.regions.get(r as usize)?.cells;
    let n = board.cells.len();
    Some(lists.iter().map(|l| words(n, |c| l.contains(&c))).collect())
}

/// A direction whose steps all go the same number of cells on (as on a grid): a set's
/// neighbours that way are the set shifted.
struct Step {
    /// The cells with a neighbour that way.
    from: Vec<u64>,
    /// How many cells on each step goes.
    by: i32,
}

impl Step {
    /// The direction's steps, if they all go the same number of cells on.
    fn new(board: &Board, dir: u8) -> Option<Step> {
        if dir as usize >= board.dirs.len() {
            return None;
        }
        let n = board.cells.len();
        let mut by = None;
        let uniform = (0..n as u16).all(|c| {
            let x = board.step(c, dir);
            x == NO_CELL || {
                let k = i32::from(x) - i32::from(c);
                *by.get_or_insert(k) == k
            }
        });
        let from = words(n, |c| board.step(c, dir) != NO_CELL);
        Some(Step {
            from,
            by: by.filter(|_| uniform)?,
        })
    }
}

/// A condition on the cell in one local, judged for a set of cells (see the module).
enum Pred {
    /// `x.empty`.
    Empty,
    /// `rank(x) op v` or `file(x) op v`: the cells where it holds, for each seat as `me`
    /// (the last for no seat) when `v` depends on it, else one set.
    Place {
        holds: Vec<Vec<u64>>,
        steps: u64,
    },
    /// `x.piece.owner == s` (`eq`) or `!=`, for `s` the seat `me` or a seat written in the
    /// rules: the cells of the seat's row of the state's index of occupied cells.
    Owner {
        eq: bool,
        seat: OwnerOf,
    },
    /// `x op y` for `y` a cell in another local (`a < b`, `b != a`), the cell on the left
    /// (`mirrored`: on the right); cells are compared by their order on the board.
    Cell {
        op: BinOp,
        other: usize,
        mirrored: bool,
    },
    /// `distance(x, y) op k` for `y` a cell in a local the condition does not bind and `k`
    /// a number written in the rules or a number attribute of `me` (`mirrored`: `k op
    /// distance(x, y)`): each cell's distance worked out in place.
    Near {
        op: BinOp,
        other: usize,
        k: Fixed,
        mirrored: bool,
    },
    /// A condition on what the piece on the cell holds (`x.piece.kind == a`,
    /// `not x.piece.flag`, `x.piece.used < x.piece.most`): judged piece by piece, an
    /// empty cell as `none` (worked out once: `empty`).
    Piece {
        test: PieceTest,
        /// Whether it holds for an empty cell, and what judging one charges.
        empty: (bool, u64),
        /// For a test that reads only attributes: what it finds for each component by the
        /// rules' own attributes (see `Holders`).
        holders: Option<Holders>,
    },
    /// `x in y` (`want`), or `x not in y`, for `y` a local the condition does not bind
    /// (a list of cells made earlier in the clause: `let straight = slide(...)`): the cells
    /// of the local found once for the whole set, each cell charged the items the search
    /// looks at, as `eval` charges them (those up to the cell, or all of them).
    Among {
        other: usize,
        want: bool,
        /// Where the local is a `let` whose list is never made, its lines
        /// (`line_lets.rs`): searched in place of the list.
        line: Option<std::sync::Arc<super::line_lets::LineLet>>,
    },
    /// `x in r` (`want`), or `x not in r`, for `r` a region written in the rules, of a seat
    /// as `Pred::Owner` takes one, or of none: the cells on the seat's list (`sets`, one for
    /// each list), each cell charged the cells a walk of the list looks at, as `eval`
    /// charges them (up to the cell, or all of them: `Engine::region_place`).
    Region {
        region: usize,
        sets: Vec<Vec<u64>>,
        seat: Option<OwnerOf>,
        want: bool,
    },
    Not(Box<Pred>),
    And(Box<Pred>, Box<Pred>),
    Or(Box<Pred>, Box<Pred>),
    /// A quantifier over the cell's neighbours in written directions, its body on the
    /// neighbour.
    Around {
        q: Quant,
        steps: Vec<Step>,
        body: Box<Pred>,
    },
}

/// The seat a piece's owner is compared with, in `Pred::Owner`.
#[derive(Clone, Copy)]
enum OwnerOf {
    Me,
    Seat(u8),
    /// A local the condition does not bind (`y.piece.owner != p`).
    Local(usize),
    /// The seat after (`next`) or before the seat in a local the condition does not bind,
    /// or `me` (`None`): `next(p)`, `prev(me)`.
    Turn {
        of: Option<usize>,
        next: bool,
    },
}

impl OwnerOf {
    fn new(e: &Expr, bound: &[u16]) -> Option<OwnerOf> {
        match e {
            Expr::Me => Some(OwnerOf::Me),
            Expr::Const(Value::Seat(p)) => Some(OwnerOf::Seat(*p)),
            Expr::Local(slot) if !bound.contains(slot) => Some(OwnerOf::Local(*slot as usize)),
            Expr::Call(b @ (Builtin::NextSeat | Builtin::PrevSeat), args) => {
                let of = match args[0] {
                    Expr::Local(slot) if !bound.contains(&slot) => Some(slot as usize),
                    Expr::Me => None,
                    _ => return None,
                };
                Some(OwnerOf::Turn {
                    of,
                    next: *b == Builtin::NextSeat,
                })
            }
            _ => None,
        }
    }

    /// The steps `eval` charges for it.
    fn steps(&self) -> u64 {
        match self {
            OwnerOf::Turn { .. } => 2,
            _ => 1,
        }
    }

    /// The seat, as `eval` reads it: `None` for `none` (a local holding it, or the seat
    /// after or before no seat), `NO_SEAT` for anything else that is no seat.
    #[inline(always)]
    fn seat(&self, ev: &Eval, l: &[Value]) -> Option<u8> {
        let held = |slot: usize| match l[slot] {
            Value::Seat(p) => Some(p),
            Value::None => None,
            // Anything else is no one's owner (the checker allows only seats).
            _ => Some(NO_SEAT),
        };
        match *self {
            OwnerOf::Me => Some(ev.me),
            OwnerOf::Seat(p) => Some(p),
            OwnerOf::Local(slot) => held(slot),
            // As `eval` turns: from anything but a seat, no seat, which reads as `none`.
            OwnerOf::Turn { of, next } => {
                let from = match of {
                    Some(slot) => held(slot).unwrap_or(NO_SEAT),
                    None => ev.me,
                };
                let p = ev.turned(from, next);
                (p != NO_SEAT).then_some(p)
            }
        }
    }
}

/// Whether `e` is `x.piece` of the cell in local `slot`, none of its nodes remembered.
fn piece_of_the_cell(cx: &Cx, e: &Expr, slot: u16) -> bool {
    match e {
        Expr::CellPiece(c) => {
            matches!(**c, Expr::Local(s) if s == slot) && !cx.remembered(e) && !cx.remembered(c)
        }
        _ => false,
    }
}

/// What a condition on the piece on a cell reads: one of its attributes, or one of its
/// variables that never holds a list (so that no read charges a list's length).
#[derive(Clone, Copy)]
enum PieceRead {
    Attr(u16),
    Var(u16),
}

impl PieceRead {
    /// `e` as a read of the piece on the cell in local `slot` (`x.piece.a`), none of its
    /// nodes remembered within a query.
    fn new(cx: &Cx, e: &Expr, slot: u16) -> Option<PieceRead> {
        let (read, on) = match e {
            Expr::CompAttr(on, a) => (PieceRead::Attr(*a), on),
            Expr::CompVar(on, i) if cx.scalar_vars.get(*i as usize) == Some(&true) => {
                (PieceRead::Var(*i), on)
            }
            _ => return None,
        };
        (!cx.remembered(e) && piece_of_the_cell(cx, on, slot)).then_some(read)
    }

    /// What component `comp` holds.
    #[inline(always)]
    fn of<'e>(self, ev: &'e Eval, comp: u16) -> &'e Value {
        match self {
            PieceRead::Attr(a) => ev.eng.attr(ev.s, comp, a),
            PieceRead::Var(i) => {
                let vars = ev.eng.game.vars.len();
                &ev.s.comp_vars[comp as usize * vars + i as usize]
            }
        }
    }
}

/// A condition on what the piece on a cell holds, in `Pred::Piece`.
enum PieceTest {
    /// `read op v`, or `v op read` (`mirrored`), for `v` a constant.
    Compare {
        read: PieceRead,
        op: BinOp,
        v: Value,
        mirrored: bool,
    },
    /// `a op b`, both read of the piece.
    Both {
        a: PieceRead,
        op: BinOp,
        b: PieceRead,
    },
    /// `read in [...]` (`want`) or `not in`, the list written in the rules.
    In {
        read: PieceRead,
        items: FixedList,
        want: bool,
    },
    /// `read`, judged by its truthiness.
    Truthy(PieceRead),
}

/// What a piece test that reads only attributes finds for each component, by the rules'
/// own attributes, worked out when the plan is built. While no attribute is changed in
/// play (`State::attr_over` empty) each piece's answer is looked up, not read and
/// compared; and where the components it holds for are fewer than the pieces in
/// question, the cells where they stand are looked up instead (`x.piece.kind == a`
/// with two pieces of kind `a` looks at those two components, not at every piece).
struct Holders {
    /// The components it holds for.
    comps: Box<[u16]>,
    /// The same as bits, a word for each 64 components.
    bits: Box<[u64]>,
    /// For a test whose steps differ from piece to piece (`x.piece.rank in [...]`), those
    /// of each component.
    steps: Option<Box<[u8]>>,
}

impl Holders {
    /// The answers of `test`, if it reads only attributes that every component has.
    fn of(cx: &Cx, test: &PieceTest) -> Option<Holders> {
        let comps = cx.components;
        let mut reads_only_attrs = true;
        test.each_read(&mut |r| {
            reads_only_attrs &= matches!(r, PieceRead::Attr(a)
                if comps.iter().all(|c| (a as usize) < c.attrs.len()));
        });
        if !reads_only_attrs {
            return None;
        }
        let judged: Vec<(bool, u64)> = (comps.iter())
            .map(|c| {
                test.judge(|r| match r {
                    PieceRead::Attr(a) => &c.attrs[a as usize],
                    PieceRead::Var(_) => &Value::None,
                })
            })
            .collect();
        let steps = match test.fixed_steps() {
            Some(_) => None,
            None => Some(
                (judged.iter())
                    .map(|&(_, n)| u8::try_from(n).ok())
                    .collect::<Option<_>>()?,
            ),
        };
        let mut bits = vec![0u64; comps.len().div_ceil(64)];
        for (c, _) in judged.iter().enumerate().filter(|(_, j)| j.0) {
            bits[c / 64] |= 1 << (c % 64);
        }
        Some(Holders {
            comps: (0..judged.len() as u16)
                .filter(|&c| judged[c as usize].0)
                .collect(),
            bits: bits.into(),
            steps,
        })
    }

    /// Whether it holds for component `comp`.
    #[inline(always)]
    fn holds(&self, comp: u16) -> bool {
        self.bits[comp as usize / 64] & (1 << (comp % 64)) != 0
    }

    /// The cells of `pieces` (`n` of them) where a component it holds for stands; the
    /// steps judging them charges added to `steps`.
    #[inline(always)]
    fn judge<const W: usize>(
        &self,
        st: &crate::engine::state::State,
        pieces: Mask<W>,
        n: u64,
        steps: &mut u64,
    ) -> Mask<W> {
        if let Some(each) = &self.steps {
            return pieces.filter(|c| {
                let comp = st.cells[c as usize];
                *steps += u64::from(each[comp as usize]);
                self.holds(comp)
            });
        }
        if (self.comps.len() as u64) < n {
            let mut held = Mask::NONE;
            for &comp in &*self.comps {
                if let Some(crate::engine::state::Loc::Cell(c)) = st.locs.get(comp as usize) {
                    if pieces.contains(*c) {
                        held.insert(*c);
                    }
                }
            }
            return held;
        }
        kept(&st.cells, pieces, |comp| self.holds(comp))
    }
}

/// The cells of `pieces` (each with a piece: `cells` says which) for whose piece `holds`
/// holds.
#[inline(always)]
fn kept<const W: usize>(cells: &[u16], pieces: Mask<W>, holds: impl Fn(u16) -> bool) -> Mask<W> {
    pieces.filter(|c| holds(cells[c as usize]))
}

/// The steps `eval` charges for a read of the piece on a cell: the read's node, the
/// piece's and the local's.
const READ: u64 = 3;

impl PieceTest {
    /// `e` as a condition on what the piece on the cell in local `slot` holds.
    fn new(cx: &Cx, e: &Expr, slot: u16) -> Option<PieceTest> {
        if cx.remembered(e) {
            return None;
        }
        let read = |x: &Expr| PieceRead::new(cx, x, slot);
        let constant = |x: &Expr| match x {
            Expr::Const(v) if !v.owns_heap() && !cx.remembered(x) => Some(v.clone()),
            _ => None,
        };
        Some(match e {
            Expr::Binary(
                op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge),
                a,
                b,
            ) => match (read(a), read(b)) {
                (Some(a), Some(b)) => PieceTest::Both { a, op: *op, b },
                (Some(read), None) => PieceTest::Compare {
                    read,
                    op: *op,
                    v: constant(b)?,
                    mirrored: false,
                },
                (None, Some(read)) => PieceTest::Compare {
                    read,
                    op: *op,
                    v: constant(a)?,
                    mirrored: true,
                },
                (None, None) => return None,
            },
            Expr::Binary(op @ (BinOp::In | BinOp::NotIn), a, b) => {
                let Expr::Const(Value::List(items)) = &**b else {
                    return None;
                };
                if cx.remembered(b) {
                    return None;
                }
                PieceTest::In {
                    read: read(a)?,
                    items: FixedList::new(items.clone()),
                    want: *op == BinOp::In,
                }
            }
            other => PieceTest::Truthy(read(other)?),
        })
    }

    /// Calls `f` on each read of the piece the test makes.
    fn each_read(&self, f: &mut dyn FnMut(PieceRead)) {
        match self {
            PieceTest::Compare { read, .. }
            | PieceTest::In { read, .. }
            | PieceTest::Truthy(read) => f(*read),
            PieceTest::Both { a, b, .. } => {
                f(*a);
                f(*b);
            }
        }
    }

    /// The steps `judge` charges, where they are the same for every piece.
    fn fixed_steps(&self) -> Option<u64> {
        match self {
            // The comparison, the read, the constant.
            PieceTest::Compare { .. } => Some(2 + READ),
            PieceTest::Both { .. } => Some(1 + 2 * READ),
            PieceTest::In { .. } => None,
            PieceTest::Truthy(_) => Some(READ),
        }
    }

    /// The cells of `s` whose piece it holds for (`empty`: its answer and steps for an
    /// empty cell), the steps judging each charges added to `j.steps`. Out of line: its
    /// loops would make every node's `Pred::judge` keep more on the stack.
    #[inline(never)]
    fn judge_set<const W: usize>(
        &self,
        j: &mut Judging,
        s: Mask<W>,
        empty: (bool, u64),
        holders: Option<&Holders>,
    ) -> Mask<W> {
        let (ev, st) = (j.ev, j.ev.s);
        let occupied = Mask::of(st.occupied_by(None));
        let gaps = s.minus(occupied);
        j.steps += empty.1 * gaps.len();
        let held = if empty.0 { gaps } else { Mask::NONE };
        let pieces = s.and(occupied);
        // Looked up, while no attribute has changed in play.
        if let Some(h) = holders.filter(|_| st.attr_over.is_empty()) {
            let n = pieces.len();
            if let Some(steps) = self.fixed_steps() {
                j.steps += steps * n;
            }
            return held.or(h.judge(st, pieces, n, &mut j.steps));
        }
        held.or(match self.fixed_steps() {
            // The steps counted at once, the test alone in the loop.
            Some(steps) => {
                j.steps += steps * pieces.len();
                self.held(ev, pieces)
            }
            None => pieces.filter(|c| {
                let (holds, steps) = self.judge(|r| r.of(ev, st.cells[c as usize]));
                j.steps += steps;
                holds
            }),
        })
    }

    /// The cells of `pieces` (each with a piece) whose piece it holds for, each kind of
    /// test in a loop of its own.
    #[inline(always)]
    fn held<const W: usize>(&self, ev: &Eval, pieces: Mask<W>) -> Mask<W> {
        match self {
            // A name compared with a name: its kind and its number.
            PieceTest::Compare {
                read,
                op: op @ (BinOp::Eq | BinOp::Ne),
                v: Value::Enum(e, x),
                ..
            } => {
                let eq = *op == BinOp::Eq;
                kept(&ev.s.cells, pieces, |comp| {
                    matches!(*read.of(ev, comp), Value::Enum(f, y) if f == *e && y == *x) == eq
                })
            }
            PieceTest::Compare {
                read,
                op,
                v,
                mirrored: false,
            } => kept(&ev.s.cells, pieces, |comp| {
                compared(*op, read.of(ev, comp), v)
            }),
            PieceTest::Compare { read, op, v, .. } => kept(&ev.s.cells, pieces, |comp| {
                compared(*op, v, read.of(ev, comp))
            }),
            PieceTest::Both { a, op, b } => kept(&ev.s.cells, pieces, |comp| {
                compared(*op, a.of(ev, comp), b.of(ev, comp))
            }),
            PieceTest::Truthy(read) => kept(&ev.s.cells, pieces, |comp| read.of(ev, comp).truthy()),
            PieceTest::In { .. } => {
                kept(&ev.s.cells, pieces, |comp| self.judge(|r| r.of(ev, comp)).0)
            }
        }
    }

    /// Whether it holds for the piece whose reads `at` gives, and the steps `eval`
    /// charges to find out.
    #[inline(always)]
    fn judge<'v>(&self, at: impl Fn(PieceRead) -> &'v Value) -> (bool, u64) {
        let holds = match self {
            PieceTest::Compare {
                read,
                op,
                v,
                mirrored,
            } => {
                let x = at(*read);
                if *mirrored {
                    compared(*op, v, x)
                } else {
                    compared(*op, x, v)
                }
            }
            PieceTest::Both { a, op, b } => compared(*op, at(*a), at(*b)),
            // The node, the read, then each item looked at.
            PieceTest::In { read, items, want } => {
                let (found, looked) = items.find(at(*read));
                return (found == *want, 1 + READ + looked);
            }
            PieceTest::Truthy(read) => at(*read).truthy(),
        };
        (holds, self.fixed_steps().unwrap_or_default())
    }
}

/// `e` as a condition on the cell in local `slot`, if each of its nodes may be judged as
/// sets.
fn pred(cx: &Cx, e: &Expr, slot: u16) -> Option<Pred> {
    pred_within(cx, e, slot, &[slot])
}

/// `pred` of a part of a condition judged as sets: `bound` holds the locals the whole
/// condition binds (the cell it is judged for, each neighbour a quantifier in it walks),
/// which hold no one value while it is judged.
fn pred_within(cx: &Cx, e: &Expr, slot: u16, bound: &[u16]) -> Option<Pred> {
    let part = |e: &Expr, slot: u16| pred_within(cx, e, slot, bound);
    if cx.remembered(e) {
        return None;
    }
    let the_cell = |x: &Expr| matches!(x, Expr::Local(s) if *s == slot);
    // `x.piece.owner`, none of its nodes remembered.
    let owner_of_the_cell = |x: &Expr| match x {
        Expr::CompOwner(p) => !cx.remembered(x) && piece_of_the_cell(cx, p, slot),
        _ => false,
    };
    if let Some(test) = PieceTest::new(cx, e, slot) {
        let empty = test.judge(|_| &Value::None);
        let holders = Holders::of(cx, &test);
        return Some(Pred::Piece {
            test,
            empty,
            holders,
        });
    }
    Some(match e {
        Expr::CellEmpty(x) if the_cell(x) => Pred::Empty,
        Expr::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b)
            if owner_of_the_cell(a) || owner_of_the_cell(b) =>
        {
            let other = if owner_of_the_cell(a) { b } else { a };
            if cx.remembered(other) {
                return None;
            }
            Pred::Owner {
                eq: *op == BinOp::Eq,
                seat: OwnerOf::new(other, bound)?,
            }
        }
        Expr::Binary(
            op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge),
            a,
            b,
        ) if other_cell(a, b, slot, bound).is_some() => {
            let (other, mirrored) = other_cell(a, b, slot, bound)?;
            Pred::Cell {
                op: *op,
                other,
                mirrored,
            }
        }
        Expr::Binary(
            op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge),
            a,
            b,
        ) if near(cx, a, b, slot, bound).is_some() => {
            let (other, mirrored, k) = near(cx, a, b, slot, bound)?;
            if cx.remembered(k) {
                return None;
            }
            let k = Fixed::new(k)?;
            // A number, so that reading it in play copies nothing.
            let number = match &k {
                Fixed::Const(v) => matches!(v, Value::Int(_)),
                Fixed::MyAttr(i) => cx.number_seat_attrs[*i],
            };
            if !number {
                return None;
            }
            Pred::Near {
                op: *op,
                other,
                k,
                mirrored,
            }
        }
        Expr::Binary(op @ (BinOp::In | BinOp::NotIn), a, b) if the_cell(a) => match **b {
            Expr::Local(other) if !bound.contains(&other) && !cx.remembered(b) => Pred::Among {
                other: other as usize,
                want: *op == BinOp::In,
                line: cx.line_let(other),
            },
            Expr::Region(r, ref seat) if !cx.remembered(b) => {
                let seat = match seat.as_deref() {
                    Some(p) if cx.remembered(p) => return None,
                    Some(p) => Some(OwnerOf::new(p, bound)?),
                    None => None,
                };
                Pred::Region {
                    region: r as usize,
                    sets: region_sets(cx.board, r)?,
                    seat,
                    want: *op == BinOp::In,
                }
            }
            _ => return None,
        },
        Expr::Not(x) => Pred::Not(Box::new(part(x, slot)?)),
        Expr::Binary(BinOp::And, a, b) => {
            Pred::And(Box::new(part(a, slot)?), Box::new(part(b, slot)?))
        }
        Expr::Binary(BinOp::Or, a, b) => {
            Pred::Or(Box::new(part(a, slot)?), Box::new(part(b, slot)?))
        }
        Expr::Binary(
            op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge),
            a,
            b,
        ) => {
            let place = |x: &Expr| match x {
                Expr::Call(b @ (Builtin::Rank | Builtin::File), args)
                    if !cx.remembered(x) && args.len() == 1 && the_cell(&args[0]) =>
                {
                    Some(*b == Builtin::Rank)
                }
                _ => None,
            };
            let (rank, other, mirrored) = match (place(a), place(b)) {
                (Some(rank), None) => (rank, Fixed::new(b)?, false),
                (None, Some(rank)) => (rank, Fixed::new(a)?, true),
                _ => return None,
            };
            if cx.remembered(if mirrored { a } else { b }) {
                return None;
            }
            // For each seat as `me`, then for none.
            let seats = match other {
                Fixed::Const(_) => vec![NO_SEAT],
                _ => (0..cx.seats.len() as u8).chain([NO_SEAT]).collect(),
            };
            let board = cx.board;
            let holds = (seats.into_iter())
                .map(|me| {
                    let v = other.value(cx.seats, me);
                    words(board.cells.len(), |c| {
                        let at =
                            ops::file_or_rank_of(c, rank, board).map_or(Value::None, Value::Int);
                        either_way(*op, mirrored, &at, &v)
                    })
                })
                .collect();
            // The comparison, the call and its local, then the other side.
            Pred::Place {
                holds,
                steps: 3 + other.steps(),
            }
        }
        Expr::Quant(q, inner, coll, body) => {
            let Expr::Call(Builtin::Adjacent, args) = &**coll else {
                return None;
            };
            if cx.remembered(coll) || !the_cell(&args[0]) || !matches!(args[1], Expr::Const(_)) {
                return None;
            }
            let steps = (const_dirs(&args[1]).into_iter())
                .map(|d| Step::new(cx.board, d))
                .collect::<Option<_>>()?;
            Pred::Around {
                q: *q,
                steps,
                body: Box::new(pred_within(cx, body, *inner, &[bound, &[*inner]].concat())?),
            }
        }
        _ => return None,
    })
}

/// Where `a op b` compares the cell in local `slot` with the value of another local that
/// the condition does not bind (`bound`): that local, and whether it is on the left.
fn other_cell(a: &Expr, b: &Expr, slot: u16, bound: &[u16]) -> Option<(usize, bool)> {
    let (Expr::Local(x), Expr::Local(y)) = (a, b) else {
        return None;
    };
    let (other, mirrored) = match (*x == slot, *y == slot) {
        (true, false) => (*y, false),
        (false, true) => (*x, true),
        _ => return None,
    };
    (!bound.contains(&other)).then_some((other as usize, mirrored))
}

/// `x op y`, or `y op x` when `mirrored`, compared as `eval` compares values.
#[inline(always)]
fn either_way(op: BinOp, mirrored: bool, x: &Value, y: &Value) -> bool {
    if mirrored {
        compared(op, y, x)
    } else {
        compared(op, x, y)
    }
}

/// `x op y` for `x` and `y` of one kind ordered as `ord` says, or `y op x` when
/// `mirrored`.
#[inline(always)]
fn ordered_either_way(op: BinOp, mirrored: bool, ord: std::cmp::Ordering) -> bool {
    ops::ordered(op, if mirrored { ord.reverse() } else { ord })
}

/// Where one of `a` and `b` is `distance(x, y)` (or `distance(y, x)`) of the cell in local
/// `slot` and a local `y` the condition does not bind (`bound`): that local, whether the
/// distance is `b` (`mirrored`), and the other operand.
fn near<'e>(
    cx: &Cx,
    a: &'e Expr,
    b: &'e Expr,
    slot: u16,
    bound: &[u16],
) -> Option<(usize, bool, &'e Expr)> {
    let other = |e: &Expr| match e {
        Expr::Call(Builtin::Distance, args) if !cx.remembered(e) => {
            other_cell(&args[0], &args[1], slot, bound).map(|(other, _)| other)
        }
        _ => None,
    };
    match other(a) {
        Some(y) => Some((y, false, b)),
        None => other(b).map(|y| (y, true, a)),
    }
}

/// One judgement: the locals it reads, and the steps its sets have cost so far.
struct Judging<'e, 'a> {
    ev: &'e Eval<'a>,
    l: &'e [Value],
    steps: u64,
}

impl Pred {
    /// Whether the condition searches a list in a local (`Among`).
    fn searches(&self) -> bool {
        match self {
            Pred::Among { .. } => true,
            Pred::Not(x) | Pred::Around { body: x, .. } => x.searches(),
            Pred::And(a, b) | Pred::Or(a, b) => a.searches() || b.searches(),
            _ => false,
        }
    }

    /// The steps judging any one cell charges, where they are the same for every cell
    /// (whatever the condition's answer, and its parts' answers, for it).
    fn fixed_steps(&self) -> Option<u64> {
        match self {
            Pred::Piece { test, .. } => test.fixed_steps(),
            Pred::Not(x) => Some(self.own_steps() + x.fixed_steps()?),
            // Their right sides judge only some cells; a search stops where it finds.
            Pred::And(..)
            | Pred::Or(..)
            | Pred::Around { .. }
            | Pred::Among { .. }
            | Pred::Region { .. } => None,
            _ => Some(self.own_steps()),
        }
    }

    /// The steps the node itself charges for each cell, as `eval` charges them, its parts'
    /// aside (a piece test counts its own as it judges: they may differ from piece to piece).
    fn own_steps(&self) -> u64 {
        match self {
            // The node and its local.
            Pred::Empty => 2,
            // The comparison, the owner, the piece and the local, then the seat's nodes.
            Pred::Owner { seat, .. } => 4 + seat.steps(),
            Pred::Place { steps, .. } => *steps,
            // The comparison and its two locals.
            Pred::Cell { .. } => 3,
            // The node and the cell's local (the items looked at are counted as judged).
            Pred::Among { .. } => 2,
            // The node and the cell's local, then the seat's nodes (the cells of the list
            // looked at are counted as judged).
            Pred::Region { seat, .. } => 2 + seat.as_ref().map_or(0, OwnerOf::steps),
            // The comparison, the call and its two locals, then the number's nodes.
            Pred::Near { k, .. } => 4 + k.steps(),
            Pred::Piece { .. } => 0,
            Pred::Not(_) | Pred::And(..) | Pred::Or(..) => 1,
            // The node, the walk's call and its local (each neighbour walked is charged as
            // it is).
            Pred::Around { .. } => 3,
        }
    }

    /// The cells of `s` for which the condition holds; the steps judging each of them
    /// costs are added to `j.steps`.
    fn judge<const W: usize>(&self, j: &mut Judging, s: Mask<W>) -> Mask<W> {
        if s.is_empty() {
            return s;
        }
        // A set's size is a count of its bits, word by word: not worked out for a node
        // that charges nothing of its own (a piece test counts as it judges).
        let own = self.own_steps();
        if own > 0 {
            j.steps += own * s.len();
        }
        match self {
            Pred::Empty => {
                // Every cell is laid out (see `Filter::new`): empty is no component.
                s.minus(Mask::of(j.ev.s.occupied_by(None)))
            }
            Pred::Owner { eq, seat } => {
                let st = &j.ev.s;
                let theirs = match seat.seat(j.ev, j.l) {
                    // Only a seat's pieces have it as their owner (a piece of no seat has
                    // none, and `me` may be no seat).
                    Some(p) if p < st.players => Mask::of(st.occupied_by(Some(p))),
                    Some(_) => Mask::NONE,
                    // `none`: the owner of an empty cell, and of a piece of no seat.
                    None => {
                        let occupied = Mask::of(st.occupied_by(None));
                        Mask::of(st.occupied_by(Some(NO_SEAT))).or(s.minus(occupied))
                    }
                };
                if *eq {
                    s.and(theirs)
                } else {
                    s.minus(theirs)
                }
            }
            Pred::Place { holds, .. } => {
                let at = (j.ev.me as usize).min(holds.len() - 1);
                s.and(Mask::of(&holds[at]))
            }
            // Each cell compared as `eval` compares the values.
            Pred::Cell {
                op,
                other,
                mirrored,
            } => {
                match &j.l[*other] {
                    // Two cells: their order on the board, the cells on one side of the
                    // other found as a set.
                    &Value::Cell(y) => s.ordered_against(*op, *mirrored, y),
                    y => s.filter(|c| either_way(*op, *mirrored, &Value::Cell(c), y)),
                }
            }
            Pred::Piece {
                test,
                empty,
                holders,
            } => test.judge_set(j, s, *empty, holders.as_ref()),
            Pred::Not(x) => s.minus(x.judge(j, s)),
            Pred::And(a, b) => {
                let left = a.judge(j, s);
                b.judge(j, left)
            }
            Pred::Or(a, b) => {
                let left = a.judge(j, s);
                left.or(b.judge(j, s.minus(left)))
            }
            // Each neighbour walked (its item and the body), until the quantifier's
            // answer is known.
            Pred::Around { q, steps, body } => {
                let mut open = s;
                let mut result = if *q == Quant::Any { Mask::NONE } else { s };
                for step in steps {
                    let from = open.and(Mask::of(&step.from));
                    if from.is_empty() {
                        continue;
                    }
                    j.steps += from.len();
                    // The neighbours, judged; then the cells whose neighbour holds.
                    let hit = body.judge(j, from.shifted(step.by)).shifted(-step.by);
                    // The cells whose answer this direction settles.
                    let settled = match q {
                        Quant::Any => {
                            result = result.or(hit);
                            hit
                        }
                        Quant::All => {
                            let miss = from.minus(hit);
                            result = result.minus(miss);
                            miss
                        }
                        Quant::None => {
                            result = result.minus(hit);
                            hit
                        }
                    };
                    open = open.minus(settled);
                }
                result
            }
            _ => self.judge_other(j, s),
        }
    }

    /// `judge` for the nodes whose judgement looks things up cell by cell (distances, lists,
    /// regions): out of line, so that the commoner nodes' `judge` keeps less on the stack.
    #[inline(never)]
    fn judge_other<const W: usize>(&self, j: &mut Judging, s: Mask<W>) -> Mask<W> {
        match self {
            Pred::Near {
                op,
                other,
                k,
                mirrored,
            } => {
                let game = &j.ev.eng.game;
                let k = k.value(&game.seats, j.ev.me);
                let held = match (&j.l[*other], &k) {
                    // A cell and a number: distances compared as numbers, no value made for
                    // each.
                    (&Value::Cell(y), &Value::Int(k)) => s.filter(|c| {
                        let d = geometry::distance(&game.board, c, y);
                        ordered_either_way(*op, *mirrored, d.cmp(&k))
                    }),
                    (y, k) => s.filter(|c| {
                        let d = match y {
                            &Value::Cell(y) => Value::Int(geometry::distance(&game.board, c, y)),
                            _ => Value::None,
                        };
                        either_way(*op, *mirrored, &d, k)
                    }),
                };
                k.discard();
                held
            }
            Pred::Among { other, want, line } => {
                let (found, looked) = match line {
                    Some(line) => searched_on_lines(j.ev, j.l, line, s),
                    None => searched_for(j.ev, &j.l[*other], s),
                };
                j.steps += looked;
                if *want {
                    found
                } else {
                    s.minus(found)
                }
            }
            Pred::Region {
                region,
                sets,
                seat,
                want,
            } => {
                // The seat's list, as `seat_or_first` takes it: `NO_SEAT` for `none` or
                // anything else that is no seat, which has no list (and no cell on it).
                let list = match seat {
                    Some(p) => p.seat(j.ev, j.l).unwrap_or(NO_SEAT) as usize,
                    None => 0,
                };
                let (Some(on), Some(places)) =
                    (sets.get(list), j.ev.eng.region_places[*region].get(list))
                else {
                    return if *want { Mask::NONE } else { s };
                };
                let found = s.and(Mask::of(on));
                // A cell on the list is looked for up to its place, any other through the
                // whole list.
                let whole = j.ev.eng.game.board.regions[*region].cells[list].len() as u64;
                let mut looked = (s.len() - found.len()) * whole;
                found.each(|c| {
                    looked += u64::from(places[c as usize]);
                    true
                });
                j.steps += looked;
                if *want {
                    found
                } else {
                    s.minus(found)
                }
            }
            // Judged by `judge` itself, which never sends them here.
            Pred::Empty
            | Pred::Owner { .. }
            | Pred::Place { .. }
            | Pred::Cell { .. }
            | Pred::Piece { .. }
            | Pred::Not(_)
            | Pred::And(..)
            | Pred::Or(..)
            | Pred::Around { .. } => self.judge(j, s),
        }
    }
}

/// The cells of `s` among the items of `v` (the value of a local), and the items a search
/// for each cell of `s` looks at, added up, as `Eval::member` looks: up to the item where
/// the cell first stands, else every item (a list's, a line's cells, a zone's components;
/// a value of no items has none).
fn searched_for<const W: usize>(ev: &Eval, v: &Value, s: Mask<W>) -> (Mask<W>, u64) {
    let (mut found, mut looked, mut items) = (Mask::NONE, 0, 0u64);
    let mut look = |c: Option<u16>| {
        items += 1;
        if let Some(c) = c {
            if s.contains(c) && !found.contains(c) {
                found.insert(c);
                looked += items;
            }
        }
    };
    match *v {
        Value::List(ref list) => {
            for x in list {
                look(match *x {
                    Value::Cell(c) => Some(c),
                    _ => None,
                });
            }
        }
        Value::Line { .. } => {
            geometry::each_line_cell(v, &ev.eng.game.board, |c| {
                look(Some(c));
                true
            });
        }
        Value::Zone(z, seat, slot) => {
            let inst = ev.eng.zone_instance(z, seat, slot);
            items = ev.s.zones[inst as usize].len() as u64;
        }
        _ => {}
    }
    (found, looked + (s.len() - found.len()) * items)
}

/// `searched_for` of a list a `let` never made (`line_lets.rs`): the cells on its
/// lines, in the list's order.
fn searched_on_lines<const W: usize>(
    ev: &Eval,
    l: &[Value],
    line: &super::line_lets::LineLet,
    s: Mask<W>,
) -> (Mask<W>, u64) {
    // No cell to look for (a piece that can go nowhere): nothing found, nothing looked at.
    if s.is_empty() {
        return (Mask::NONE, 0);
    }
    // Every cell of the list searched for (a slide within the cells reached, the common
    // case), the lines apart: found at the places 1 to `n` of the list, each other cell
    // searched through all `n`.
    let (mut all, mut n) = (0u64, 0u64);
    line.each(ev, l, |cells, _| {
        all |= cells;
        n += u64::from(cells.count_ones());
        true
    });
    let whole = Mask::<W>::of(std::slice::from_ref(&all));
    if u64::from(all.count_ones()) == n && s.and(whole) == whole {
        return (whole, n * (n + 1) / 2 + (s.len() - n) * n);
    }
    let (mut found, mut looked, mut items) = (Mask::NONE, 0, 0u64);
    line.each(ev, l, |cells, up| {
        let line = Mask::<W>::of(std::slice::from_ref(&cells));
        let n = line.len();
        // Every cell of the line found here (a slide within the cells reached, the common
        // case): the items up to each, added at once.
        if s.and(line).minus(found) == line {
            looked += n * items + n * (n + 1) / 2;
            found = found.or(line);
            items += n;
            return true;
        }
        patterns::along(cells, up, &mut |c| {
            items += 1;
            if s.contains(c) && !found.contains(c) {
                found.insert(c);
                looked += items;
            }
            true
        })
    });
    (found, looked + (s.len() - found.len()) * items)
}

/// The most directions a walk of a cell's neighbours may go in for its cells to be
/// judged as a set (`Domain::From`).
const MAX_AROUND: usize = 8;

/// The most cells a walk given in an order of its own may give (see `Order`).
const MAX_ORDER: usize = 64;

/// The cells a walk gives, as a set: the board's, the occupied ones, a seat's, a region's,
/// or a cell's neighbours.
enum Domain {
    /// The board's cells, all of them.
    Board(Vec<u64>),
    Occupied(Option<SeatArg>),
    /// A region whose cells stand in the board's order: its set for each seat (one for a
    /// region of no seat), and the seat's operand.
    Region(Vec<Vec<u64>>, Option<SeatArg>),
    /// `sight(x, dirs)` or `slide(x, dirs)`, the directions written in the rules: walked
    /// in their order, so given with it (`Given::order`); only where the lines from a cell
    /// in them never meet (a slide gives at most `MAX_ORDER` cells). On a board whose
    /// lines are words (`LineWords`), each direction's cells are found as one.
    From(Builtin, Arg, Vec<u8>, Option<geometry::LineWords>),
    /// `adjacent(x, dirs)`, the directions written in the rules, on a board where no two
    /// of them lead from one cell to one neighbour: the neighbours read as a set
    /// (`around`, as `Reach`'s), their order, the directions', walked only where it is
    /// asked for (`Around`).
    Around {
        cell: Arg,
        dirs: Vec<u8>,
        around: Vec<u64>,
    },
    /// `reach(x, dirs)`, the directions written in the rules: the cells reached by steps
    /// through empty cells, given in the order the walk reaches them; only on a board of
    /// at most `MAX_ORDER` cells besides the one it starts from.
    /// `around`: each cell's neighbours in `dirs`, as `Group`'s.
    Reach {
        cell: Arg,
        dirs: Vec<u8>,
        around: Vec<u64>,
    },
    /// `group(x, dirs, cells)` for `cells` the occupied cells or a seat's (`cells_of(p)`:
    /// the seat's operand), the directions written in the rules: the cells of `cells`
    /// reached from `x` by steps through them, `x` not among them, found as a set a ring at
    /// a time (`around`: each cell's neighbours in `dirs`, a set of the board's width);
    /// their order, the walk's (`geometry::group`), worked out only where it is asked
    /// (`Flood`).
    Group {
        cell: Arg,
        dirs: Vec<u8>,
        around: Vec<u64>,
        seat: Option<SeatArg>,
    },
    /// `destinations(x, p)` (false) or `attacks(x, p)` (true): walked ray by ray, so given
    /// with the walk's order; only where it can give at most `MAX_ORDER` cells.
    Moves(bool, Arg, Arg),
}

/// The cells a domain gives: as a set, and the order its walk gives them in where that
/// is not the board's (a cell's neighbours, direction by direction).
struct Given<'o, const W: usize> {
    set: Mask<W>,
    order: Option<&'o Order<'o>>,
}

/// Cells in the order a walk gives them: at most `MAX_ORDER` (a domain gives no more:
/// `Domain::new`), never on the heap; or the walk that gives them (`Later`), walked where
/// the order is asked for.
struct Order<'o> {
    cells: [u16; MAX_ORDER],
    len: usize,
    later: Option<Later<'o>>,
}

/// A walk whose order is found only where it is asked for: a group's (`Flood`), a
/// piece's attacks by rays that are words (`RaysLater`), a cell's neighbours (`Around`).
enum Later<'o> {
    Flood(Flood<'o>),
    Rays(RaysLater<'o>),
    Around(Around<'o>),
}

impl Order<'_> {
    fn new() -> Self {
        Order {
            cells: [0; MAX_ORDER],
            len: 0,
            later: None,
        }
    }

    fn cells(&self) -> &[u16] {
        &self.cells[..self.len]
    }

    /// Cell `c` added last, to the order alone.
    #[inline(always)]
    fn push_cell(&mut self, c: u16) {
        self.cells[self.len] = c;
        self.len += 1;
    }

    /// Cell `c` added last, to the order and to `set`.
    #[inline(always)]
    fn push<const W: usize>(&mut self, c: u16, set: &mut Mask<W>) {
        self.cells[self.len] = c;
        self.len += 1;
        set.insert(c);
    }

    /// The cells in order (a group's walked again), while `f` says to go on.
    #[inline(always)]
    fn each(&self, mut f: impl FnMut(u16) -> bool) {
        match &self.later {
            None => {
                for &c in self.cells() {
                    if !f(c) {
                        return;
                    }
                }
            }
            Some(Later::Rays(rays)) => rays.each(u64::MAX, f),
            Some(Later::Around(around)) => around.each(f),
            Some(Later::Flood(flood)) => flood.each(f),
        }
    }

    /// The cells of `held` in order, while `f` says to go on.
    #[inline(always)]
    fn each_of<const W: usize>(&self, held: Mask<W>, mut f: impl FnMut(u16) -> bool) {
        match &self.later {
            Some(Later::Rays(rays)) => rays.each(held.0.first().copied().unwrap_or(0), f),
            _ => self.each(|c| !held.contains(c) || f(c)),
        }
    }
}

/// A piece's attacks by a pattern whose rays are words (`patterns::Rays::attacks_word`),
/// in the walk's order, ray by ray, each ray's cells up to its first occupied one:
/// walked where that order is asked for, as `Flood` is.
struct RaysLater<'o> {
    rays: &'o patterns::Rays,
    from: u16,
    occupied: u64,
}

impl RaysLater<'_> {
    /// The cells of `keep` in order, while `f` says to go on.
    fn each(&self, keep: u64, mut f: impl FnMut(u16) -> bool) {
        self.rays
            .attacks_word(self.from, self.occupied, |cells, up| {
                patterns::along(cells & keep, up, &mut f)
            });
    }
}

/// A cell's neighbours in written directions (`Domain::Around`), in the directions'
/// order: walked where that order is asked for, as `Flood` is.
struct Around<'o> {
    board: &'o Board,
    from: u16,
    dirs: &'o [u8],
}

impl Around<'_> {
    /// Each neighbour, in order, while `f` says to go on.
    #[inline(always)]
    fn each(&self, mut f: impl FnMut(u16) -> bool) {
        geometry::adjacent(self.board, self.from, self.dirs, &mut f);
    }
}

/// The cells of `member` (a row of the state's index of occupied cells) reached from
/// `start` by steps in `dirs` through cells of `member`, in the order `geometry::group`
/// reaches them: breadth first, each cell's neighbours in the directions' order. Walked
/// where that order is asked for (the first cell that some condition holds for, or each),
/// which a quantifier that finds none never does: the set is found without it.
struct Flood<'o> {
    board: &'o Board,
    start: u16,
    dirs: &'o [u8],
    member: &'o [u64],
}

impl Flood<'_> {
    /// Each cell, in order, while `f` says to go on (walked as `geometry::group` walks).
    #[inline(never)]
    fn each(&self, mut f: impl FnMut(u16) -> bool) {
        let member =
            |c: u16| (self.member.get(c as usize / 64)).is_some_and(|w| w >> (c % 64) & 1 == 1);
        let mut found = Ids::new();
        geometry::group_cells(self.board, self.start, self.dirs, member, &mut found);
        for &c in found.iter() {
            if !f(c) {
                return;
            }
        }
    }
}

impl<const W: usize> Given<'_, W> {
    /// The cells up to `c` in the walk's order, `c` included.
    fn upto(&self, c: u16) -> Mask<W> {
        let Some(order) = &self.order else {
            return self.set.upto(c);
        };
        let mut upto = Mask::NONE;
        order.each(|x| {
            upto.insert(x);
            x != c
        });
        upto
    }

    /// The cells of `held` (some of the given ones) in the walk's order, while `f` says to
    /// go on.
    #[inline(always)]
    fn each(&self, held: Mask<W>, f: impl FnMut(u16) -> bool) {
        match &self.order {
            None => held.each(f),
            // Nothing to hand on: no walk (a group's would be walked again); one cell is
            // in order on its own.
            Some(_) if held.is_empty() => {}
            Some(_) if held.len() == 1 => held.each(f),
            Some(order) => order.each_of(held, f),
        }
    }

    /// The first cell of `held` in the walk's order.
    fn first(&self, held: Mask<W>) -> Option<u16> {
        let mut found = None;
        self.each(held, |c| {
            found = Some(c);
            false
        });
        found
    }
}

impl Domain {
    fn new(cx: &mut Cx, coll: &Expr) -> Option<Domain> {
        if cx.remembered(coll) {
            return None;
        }
        Some(match coll {
            Expr::Cells => Domain::Board(words(cx.board.cells.len(), |_| true)),
            Expr::Occupied => Domain::Occupied(None),
            Expr::CellsOf(p) => Domain::Occupied(Some(SeatArg::new(cx, p))),
            Expr::Region(r, seat) => {
                let lists = &cx.board.regions.get(*r as usize)?.cells;
                // Walked in its order, a region is walked in the set's only when that is
                // the board's.
                if !lists.iter().all(|l| l.windows(2).all(|w| w[0] < w[1])) {
                    return None;
                }
                let sets = region_sets(cx.board, *r)?;
                Domain::Region(sets, seat.as_deref().map(|p| SeatArg::new(cx, p)))
            }
            Expr::Call(b @ (Builtin::Adjacent | Builtin::Sight | Builtin::Slide), args) => {
                let dirs = written_dirs(cx.board, &args[1])?;
                let board = cx.board;
                if dirs.len() > MAX_AROUND {
                    return None;
                }
                // As the walk finds them (`geometry::adjacent`).
                let apart = |c: u16| {
                    let mut seen = Vec::new();
                    geometry::adjacent(board, c, &dirs, &mut |n| {
                        let new = !seen.contains(&n);
                        seen.push(n);
                        new
                    })
                };
                // Every cell a line from `c` in one of the directions passes, whatever
                // stands where: no two lines meet or come back on themselves, and a slide
                // gives at most `MAX_ORDER` cells.
                let lines_apart = |c: u16| {
                    let mut seen = Vec::new();
                    for &d in &dirs {
                        let mut x = board.step(c, d);
                        while x != NO_CELL {
                            if x == c || seen.contains(&x) {
                                return false;
                            }
                            seen.push(x);
                            x = board.step(x, d);
                        }
                    }
                    *b != Builtin::Slide || seen.len() <= MAX_ORDER
                };
                let mut cells = 0..board.cells.len() as u16;
                let fits = match b {
                    Builtin::Adjacent => cells.all(apart),
                    _ => cells.all(lines_apart),
                };
                if !fits {
                    return None;
                }
                if *b == Builtin::Adjacent {
                    return Some(Domain::Around {
                        cell: Arg::new(cx, &args[0]),
                        around: neighbour_rows(board, &dirs),
                        dirs,
                    });
                }
                let lines = geometry::LineWords::new(board, &dirs);
                Domain::From(*b, Arg::new(cx, &args[0]), dirs, lines)
            }
            Expr::Call(Builtin::Reach, args) => {
                let dirs = written_dirs(cx.board, &args[1])?;
                if cx.board.cells.len() > MAX_ORDER + 1 {
                    return None;
                }
                Domain::Reach {
                    cell: Arg::new(cx, &args[0]),
                    around: neighbour_rows(cx.board, &dirs),
                    dirs,
                }
            }
            Expr::Call(Builtin::Group, args) => {
                let dirs = written_dirs(cx.board, &args[1])?;
                let seat = occupied_row(cx, &args[2])?;
                let around = neighbour_rows(cx.board, &dirs);
                Domain::Group {
                    cell: Arg::new(cx, &args[0]),
                    dirs,
                    around,
                    seat,
                }
            }
            Expr::Call(b @ (Builtin::Destinations | Builtin::Attacks), args) => {
                // At most `MAX_ORDER` cells: a board of no more, or a pattern written in
                // the rules that reaches no more.
                let reached = match &args[1] {
                    Expr::Const(Value::Pattern(p)) => cx
                        .patterns
                        .get(*p as usize)
                        .and_then(|d| patterns::most_cells(&d.pat, cx.board)),
                    _ => None,
                };
                if cx.board.cells.len().min(reached.unwrap_or(usize::MAX)) > MAX_ORDER {
                    return None;
                }
                Domain::Moves(
                    *b == Builtin::Attacks,
                    Arg::new(cx, &args[0]),
                    Arg::new(cx, &args[1]),
                )
            }
            _ => return None,
        })
    }

    /// The cells, after the walk's own steps; each cell walked is a step more, charged by
    /// the caller.
    /// A walk in an order of its own writes it in `order`.
    #[inline(always)]
    fn cells<'o, const W: usize>(
        &'o self,
        ev: &'o Eval,
        l: &mut [Value],
        order: &'o mut Order<'o>,
    ) -> Given<'o, W> {
        let set = match self {
            Domain::Board(all) => Mask::of(all),
            Domain::Occupied(seat) => Mask::of(ev.s.occupied_by(whose(seat, ev, l))),
            Domain::Region(sets, seat) => {
                let at = seat_or_first(seat, ev, l) as usize;
                sets.get(at).map_or(Mask::NONE, |w| Mask::of(w))
            }
            // The call's step, then its cell's, as the walk charges them.
            Domain::From(b, cell, dirs, lines) => {
                let mut set = Mask::NONE;
                if budget::charge(1) {
                    if let Some(c) = cell.cell(ev, l) {
                        let mut push = |n| {
                            order.push(n, &mut set);
                            true
                        };
                        if let Some(lines) = lines {
                            let (occupied, sight) =
                                (ev.s.occupied_word(None), *b == Builtin::Sight);
                            lines.each(c, occupied, sight, |cells, up| {
                                patterns::along(cells, up, &mut push)
                            });
                        } else {
                            let (board, occ) = (&ev.eng.game.board, &ev.s.cells);
                            geometry::from_cell(*b, board, occ, c, dirs, &mut push);
                        }
                    }
                }
                return Given {
                    set,
                    order: Some(order),
                };
            }
            // The call's step, then its cell's, as the walk charges them; the neighbours
            // read as a set, their order left for where it is asked for.
            Domain::Around { cell, dirs, around } => {
                let mut set = Mask::NONE;
                if budget::charge(1) {
                    if let Some(c) = cell.cell(ev, l) {
                        let board = &ev.eng.game.board;
                        set = neighbours(around, board.cells.len().div_ceil(64), c);
                        order.later = Some(Later::Around(Around {
                            board,
                            from: c,
                            dirs,
                        }));
                    }
                }
                return Given {
                    set,
                    order: Some(order),
                };
            }
            // The call's step, then its cell's and the list's length, as the walk charges
            // them (`CellWalk::Reach`).
            Domain::Reach { cell, dirs, around } => {
                let mut set = Mask::NONE;
                if budget::charge(1) {
                    if let Some(c) = cell.cell(ev, l) {
                        reach_into(ev, c, dirs, around, order, &mut set);
                    }
                    if !budget::list(order.len) {
                        (set, order.len) = (Mask::NONE, 0);
                    }
                }
                return Given {
                    set,
                    order: Some(order),
                };
            }
            // The call's step, then its cell's, the seat's and each of its cells', and the
            // list's length, as the walk charges them (`values.rs`, the group's node).
            Domain::Group {
                cell,
                dirs,
                around,
                seat,
            } => return group_given(ev, l, cell, dirs, around, seat, order),
            // The call's step, then its cell's and its pattern's, as the walk charges them.
            Domain::Moves(attacks, from, pattern) => {
                let mut set = Mask::NONE;
                if let Some((c, p)) = move_reads(ev, l, from, pattern) {
                    let moves = ev.eng.moves(p);
                    // A piece's attacks by rays that are words: each ray's cells up to its
                    // first occupied one, found without a branch for each cell.
                    let rays =
                        (ev.rays_at(c, moves)).filter(|r| *attacks && W == 1 && r.has_words());
                    match rays {
                        Some(rays) => {
                            let occupied = ev.s.occupied_word(None);
                            let mut all = 0;
                            rays.attacks_word(c, occupied, |cells, _| {
                                all |= cells;
                                true
                            });
                            set = Mask::of(&[all]);
                            order.later = Some(Later::Rays(RaysLater {
                                rays,
                                from: c,
                                occupied,
                            }));
                        }
                        None => moves_into(ev, *attacks, c, moves, order, &mut set),
                    }
                }
                return Given {
                    set,
                    order: Some(order),
                };
            }
        };
        Given { set, order: None }
    }
}

/// The directions written in the rules as `e` (a walk's second argument), each one the
/// board has; `None` for directions computed in play.
fn written_dirs(board: &Board, e: &Expr) -> Option<Vec<u8>> {
    let dirs = matches!(e, Expr::Const(_)).then(|| const_dirs(e))?;
    dirs.iter()
        .all(|&d| (d as usize) < board.dirs.len())
        .then_some(dirs)
}

/// Each cell's neighbours in `dirs`, a set of the board's width (`Mask::of` reads a row):
/// the rows of `Domain::Reach` and `Domain::Group`.
fn neighbour_rows(board: &Board, dirs: &[u8]) -> Vec<u64> {
    let n = board.cells.len();
    let width = n.div_ceil(64);
    let mut around = vec![0u64; n * width];
    for c in 0..n {
        for &d in dirs {
            let x = board.step(c as u16, d) as usize;
            if x != NO_CELL as usize {
                around[c * width + x / 64] |= 1 << (x % 64);
            }
        }
    }
    around
}

/// The cells reached from `start` by steps in `dirs` through empty cells, in the order
/// `geometry::reach_cells` reaches them (breadth first, each cell's neighbours in the
/// directions' order), added to `order` and `set` (empty at first): `order` is the walk's
/// queue, and `set` the cells seen (`start` among them while the walk lasts).
#[inline(always)]
fn reach_into<const W: usize>(
    ev: &Eval,
    start: u16,
    dirs: &[u8],
    around: &[u64],
    order: &mut Order,
    set: &mut Mask<W>,
) {
    let board = &ev.eng.game.board;
    let (k, width) = (board.dirs.len(), board.cells.len().div_ceil(64));
    // The cells a step may not enter: the occupied ones, and those reached already.
    let occupied = Mask::<W>::of(ev.s.occupied_by(None));
    let mut closed = occupied.or(Mask::one(start));
    let (mut c, mut next) = (start, 0);
    loop {
        // The neighbours not reached yet: none, the commonest, ends the cell's turn; one
        // is reached at once; only two or more have the steps taken one at a time, for
        // their order, until each is reached.
        let mut open = neighbours::<W>(around, width, c).minus(closed);
        if let Some(n) = open.only() {
            closed.insert(n);
            order.push_cell(n);
        } else if !open.is_empty() {
            closed = closed.or(open);
            let links = &board.links[c as usize * k..][..k];
            for &d in dirs {
                let n = links[d as usize];
                if n != NO_CELL && open.contains(n) {
                    open.remove(n);
                    order.push_cell(n);
                    if open.is_empty() {
                        break;
                    }
                }
            }
        }
        let Some(&n) = order.cells().get(next) else {
            *set = closed.minus(occupied).minus(Mask::one(start));
            return;
        };
        (c, next) = (n, next + 1);
    }
}

/// The cells of a group (`Domain::Group`), charged as the walk charges them
/// (`values.rs`, the group's node): the call's step, then its cell's, the seat's and each
/// of its cells', and the list's length. A call of its own, as `moves_into` is.
#[inline(never)]
fn group_given<'o, const W: usize>(
    ev: &'o Eval,
    l: &mut [Value],
    cell: &Arg,
    dirs: &'o [u8],
    around: &[u64],
    seat: &Option<SeatArg>,
    order: &'o mut Order<'o>,
) -> Given<'o, W> {
    let none = Given {
        set: Mask::NONE,
        order: None,
    };
    if !budget::charge(1) {
        return none;
    }
    let Some(start) = cell.cell(ev, l) else {
        return none;
    };
    let member = ev.s.occupied_by(whose_read_whole(seat, ev, l));
    let board = &ev.eng.game.board;
    let set = group_set(
        around,
        board.cells.len().div_ceil(64),
        start,
        Mask::of(member),
    );
    if !budget::list(set.len() as usize) {
        return none;
    }
    order.later = Some(Later::Flood(Flood {
        board,
        start,
        dirs,
        member,
    }));
    Given {
        set,
        order: Some(order),
    }
}

/// Cell `c`'s neighbours, its row of a table of each cell's (`neighbour_rows`: `words`
/// words a cell).
#[inline(always)]
fn neighbours<const W: usize>(around: &[u64], words: usize, c: u16) -> Mask<W> {
    let at = c as usize * words;
    Mask::of(&around[at..at + words])
}

/// The cells of `member` reached from `start` by steps through cells of `member`, `start`
/// not among them (as the walk has it: it starts there): found a ring at a time, each ring
/// the cells of `member` next to the last (`around`: each cell's neighbours, `words` words
/// a cell) that were not reached before.
#[inline(always)]
fn group_set<const W: usize>(around: &[u64], words: usize, start: u16, member: Mask<W>) -> Mask<W> {
    let mut reached = Mask::one(start);
    let mut ring = reached;
    loop {
        let mut next = Mask::NONE;
        ring.each(|c| {
            next = next.or(neighbours(around, words, c));
            true
        });
        ring = next.and(member).minus(reached);
        if ring.is_empty() {
            return reached.minus(Mask::one(start));
        }
        reached = reached.or(ring);
    }
}

/// The cells a piece's pattern gives from `from` (`attacks`: its attacks, else its
/// destinations), added to `order` and `set`. A call of its own, so that the pattern walk
/// is not laid into `Domain::cells` with the other walks (it ran slower there).
#[inline(never)]
fn moves_into<const W: usize>(
    ev: &Eval,
    attacks: bool,
    from: u16,
    moves: patterns::Moves,
    order: &mut Order,
    set: &mut Mask<W>,
) {
    ev.each_move_cell(attacks, from, moves, &mut |x| {
        order.push(x, set);
        true
    });
}

/// `[x in coll where cond]` (or `q x in coll: cond`) judged as a set (see the module), for
/// a board of `W` words.
struct Sets<const W: usize> {
    pred: Pred,
    domain: Domain,
    /// The rest of a condition `p and rest` (or `p or rest`) of which only `p` is judged as
    /// a set (`pred`).
    rest: Option<Rest>,
}

/// The right side of a condition `p and rest` (`and`) or `p or rest` whose left side alone
/// is judged as a set: compiled as any condition is, judged cell by cell, in the walk's
/// order, for each cell whose answer `p` leaves open (those it holds for after `and`, the
/// others after `or`), the cell written into its local (`slot`) first.
struct Rest {
    and: bool,
    slot: usize,
    cond: Cond,
}

impl Rest {
    /// Whether the whole condition holds for cell `c`, where `p` holds for it or not
    /// (`kept`).
    #[inline(always)]
    fn holds(&self, ev: &Eval, l: &mut [Value], c: u16, kept: bool) -> bool {
        if kept != self.and {
            return kept;
        }
        pool::set(&mut l[self.slot], Value::Cell(c));
        (self.cond)(ev, l)
    }
}

impl<const W: usize> Sets<W> {
    /// The cells of the domain, those kept, and the steps walking and judging them cost.
    #[inline(always)]
    fn judge<'o>(
        &'o self,
        ev: &'o Eval,
        l: &mut [Value],
        order: &'o mut Order<'o>,
    ) -> (Given<'o, W>, Mask<W>, u64) {
        let s = self.domain.cells(ev, l, order);
        let (held, steps) = self.judged(ev, l, s.set);
        (s, held, steps)
    }

    /// The cells of `s` kept, and the steps walking and judging each of them costs (with
    /// `rest`: kept by its left side, the steps of its right side aside).
    #[inline(always)]
    fn judged(&self, ev: &Eval, l: &[Value], s: Mask<W>) -> (Mask<W>, u64) {
        let mut j = Judging { ev, l, steps: 0 };
        let held = self.pred.judge(&mut j, s);
        (held, self.per_item() * s.len() + j.steps)
    }

    /// What walking the cells of `s` up to `c` and judging each charges: counted where
    /// each cell costs the same, else the set judged again up to `c`.
    fn cost_upto(&self, ev: &Eval, l: &[Value], s: &Given<W>, c: u16) -> u64 {
        let upto = s.upto(c);
        match self.pred.fixed_steps() {
            Some(steps) => (self.per_item() + steps) * upto.len(),
            None => self.judged(ev, l, upto).1,
        }
    }

    /// The steps each cell of the domain costs besides its judgement: the item, and with
    /// `rest` the node of its `and` or `or`.
    fn per_item(&self) -> u64 {
        1 + u64::from(self.rest.is_some())
    }

    /// Hands each cell kept to `f`, in order, while it says to go on; each is a step when
    /// it is an item of the walk (`emitted`), none when it is a choice that passed a
    /// `require`.
    #[inline(always)]
    fn each<F: FnMut(u16, &mut [Value]) -> bool + ?Sized>(
        &self,
        ev: &Eval,
        l: &mut [Value],
        emitted: bool,
        f: &mut F,
    ) {
        let mut order = Order::new();
        let s = self.domain.cells(ev, l, &mut order);
        // No cell (a piece with nowhere to go): nothing to judge, hand on or charge.
        if s.set.is_empty() {
            return;
        }
        let (held, steps) = self.judged(ev, l, s.set);
        let mut stopped = None;
        // In a listing made ahead that has not found its first action yet, the cell in
        // whose turn it does is noted (see `budget::owe`).
        let mut first = None;
        let seek = budget::seeking_first();
        let mut hand_on = |c: u16, l: &mut [Value]| {
            let go_on = if emitted { emit_cell(f, c, l) } else { f(c, l) };
            if !go_on {
                stopped = Some(c);
            }
            if seek && first.is_none() && budget::first_found() {
                first = Some(c);
            }
            go_on
        };
        match &self.rest {
            None => s.each(held, |c| hand_on(c, l)),
            Some(rest) => s.each(self.open(&s, held), |c| {
                !rest.holds(ev, l, c, held.contains(c)) || hand_on(c, l)
            }),
        }
        if let Some(c) = first {
            budget::owe(self.cost_upto(ev, l, &s, c));
        }
        budget::charge(match stopped {
            Some(c) => self.cost_upto(ev, l, &s, c),
            None => steps,
        });
    }

    /// The cells whose answer `held`, what the set judged, leaves to be found out: those
    /// it holds for, or with `rest` after `or`, all of them (each judged by `rest` where
    /// its answer is open).
    #[inline(always)]
    fn open(&self, s: &Given<W>, held: Mask<W>) -> Mask<W> {
        match &self.rest {
            Some(rest) if !rest.and => s.set,
            _ => held,
        }
    }

    fn list(&self, ev: &Eval, l: &mut [Value], out: &mut Items) {
        let mut order = Order::new();
        let (s, held, steps) = self.judge(ev, l, &mut order);
        s.each(self.open(&s, held), |c| {
            if self
                .rest
                .as_ref()
                .is_none_or(|r| r.holds(ev, l, c, held.contains(c)))
            {
                out.push(Value::Cell(c));
            }
            true
        });
        budget::charge(steps);
    }

    fn quantify(&self, q: Quant, ev: &Eval, l: &mut [Value]) -> bool {
        let mut order = Order::new();
        let (s, held, steps) = self.judge(ev, l, &mut order);
        let result = q == Quant::Any;
        // The first cell that settles the answer, if any does.
        let settled = match &self.rest {
            None => s.first(match q {
                Quant::Any | Quant::None => held,
                Quant::All => s.set.minus(held),
            }),
            // Each cell judged whole, in order, until one settles it: for `any` or `none`
            // one the whole condition holds for, so one of those left open; for `all` any.
            Some(rest) => {
                let mut settled = None;
                let cells = match q {
                    Quant::All => s.set,
                    _ => self.open(&s, held),
                };
                s.each(cells, |c| {
                    if rest.holds(ev, l, c, held.contains(c)) == (q != Quant::All) {
                        settled = Some(c);
                    }
                    settled.is_none()
                });
                settled
            }
        };
        match settled {
            Some(c) => budget::charge(self.cost_upto(ev, l, &s, c)) && result,
            None => budget::charge(steps) && !result,
        }
    }
}

/// `[x in coll where cond]` judged as sets (see the module).
pub(super) struct Filter(Width);

/// The sets of a board of one word, two, four, ten or sixteen (up to 64, 128, 256, 640
/// or `MAX_CELLS` cells).
enum Width {
    One(Sets<1>),
    Two(Sets<2>),
    Four(Sets<4>),
    Ten(Sets<10>),
    Sixteen(Sets<16>),
}

/// `$call` on the sets of a filter (`$s`), whichever its width.
macro_rules! on_sets {
    ($filter:expr, $s:ident => $call:expr) => {
        match &$filter.0 {
            Width::One($s) => $call,
            Width::Two($s) => $call,
            Width::Four($s) => $call,
            Width::Ten($s) => $call,
            Width::Sixteen($s) => $call,
        }
    };
}

impl Filter {
    /// The filter, if `cond` and `coll` allow (see the module).
    pub(super) fn new(cx: &mut Cx, coll: &Expr, slot: u16, cond: &Expr) -> Option<Filter> {
        Filter::made(cx, coll, slot, cond, true)
    }

    /// `new`, with the `rest` of a condition only where `rest` is allowed (else the whole
    /// condition judged as a set, or no filter: nothing compiled for a part it would not
    /// use).
    fn made(cx: &mut Cx, coll: &Expr, slot: u16, cond: &Expr, rest: bool) -> Option<Filter> {
        // On a board of at most `MAX_CELLS` cells, every one always laid out (no area's
        // shape comes and goes: see `Engine::present`).
        let cells = cx.board.cells.len();
        if cells > MAX_CELLS || cx.board.areas.iter().any(|a| !a.families.is_empty()) {
            return None;
        }
        // The whole condition as a set; or, for `p and rest` or `p or rest`, its left side
        // alone (see `Rest`).
        let (pred, rest) = match pred(cx, cond, slot) {
            Some(p) => (p, None),
            None if !rest => return None,
            None => match cond {
                Expr::Binary(op @ (BinOp::And | BinOp::Or), p, rest) if !cx.remembered(cond) => {
                    (pred(cx, p, slot)?, Some((*op == BinOp::And, &**rest)))
                }
                _ => return None,
            },
        };
        let domain = Domain::new(cx, coll)?;
        let rest = rest.map(|(and, rest)| Rest {
            and,
            slot: slot as usize,
            cond: truth(cx, rest),
        });
        Some(Filter(match cells.div_ceil(64) {
            0 | 1 => Width::One(Sets { pred, domain, rest }),
            2 => Width::Two(Sets { pred, domain, rest }),
            3 | 4 => Width::Four(Sets { pred, domain, rest }),
            5..=10 => Width::Ten(Sets { pred, domain, rest }),
            _ => Width::Sixteen(Sets { pred, domain, rest }),
        }))
    }

    /// Hands each cell kept to `f`, in order, while it says to go on.
    pub(super) fn each(
        &self,
        ev: &Eval,
        l: &mut [Value],
        f: &mut dyn FnMut(u16, &mut [Value]) -> bool,
    ) {
        on_sets!(self, s => s.each(ev, l, true, f))
    }

    /// Hands each cell that passes to `f`, in order, while it says to go on, as a `choose`
    /// over the cells hands each choice to the `require` straight after it (the condition)
    /// and the require the choices that pass: no step for each beyond the condition's.
    pub(super) fn guard<F: FnMut(u16, &mut [Value]) -> bool>(
        &self,
        ev: &Eval,
        l: &mut [Value],
        f: &mut F,
    ) {
        on_sets!(self, s => s.each(ev, l, false, f))
    }

    /// The cells kept, added to `out` (as a comprehension's list: no step for each).
    pub(super) fn list(&self, ev: &Eval, l: &mut [Value], out: &mut Items) {
        on_sets!(self, s => s.list(ev, l, out))
    }
}

/// `q x in coll: body` judged as a set, if it can be (see the module).
pub(super) fn quantified(
    cx: &mut Cx,
    q: Quant,
    slot: u16,
    coll: &Expr,
    body: &Expr,
) -> Option<Cond> {
    let filter = Filter::new(cx, coll, slot, body)?;
    // A quantifier stops at the first cell that settles it, and a search in a list at the
    // item it finds; judged as a set, the list would be looked through for every cell.
    if on_sets!(filter, s => s.pred.searches()) {
        return None;
    }
    Some(Box::new(move |ev, l| {
        // The quantifier's step.
        budget::charge(1) && on_sets!(filter, s => s.quantify(q, ev, l))
    }))
}
