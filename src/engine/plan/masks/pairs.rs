//! Pairs of cells, a cell and its neighbour or the first occupied cell in sight, judged a
//! direction at a time.
//!
//! `choose a in cells_of(me)`, `choose b in adjacent(a, orthogonal)`, `require
//! b.piece.owner == me and a < b`: judged as the filter of the inner `choose` judges it
//! (`Sets`), the condition is judged once for each `a`, on its few neighbours. On a board
//! of one word whose directions are each one shift of the word (`Step`), the neighbours
//! one way of every cell are one set: the condition is judged once a direction for the
//! whole board when the listing starts, and each `a` reads its neighbours' answers from
//! those sets. The same holds for `choose b in sight(a, orthogonal)`: the first occupied
//! cell each way is further on, but still a cell with a cell behind it that way, and each
//! `a` finds it from its lines (`LineWords`). A comparison of `b` with `a` (`a < b`: cells
//! compare by their order on the board) is the same for every pair one way (the step's
//! sign), and no other part of the condition may read `a`.
//!
//! Invariant: each `a` is charged what the filter charges it, at the same points: the
//! call's step and its cell's, then, once its choices are handed on, each neighbour's item
//! and the steps judging it took. A part of the condition charges its own steps for each
//! cell it judges (`Pred::own_steps`), so a neighbour's steps are those of the parts whose
//! sets it was judged in: the parts' sets are kept for each direction (`Table`), and only
//! parts whose steps are their own alone are allowed (not a piece test, a search, a
//! region, a distance or a quantifier, whose steps depend on more than the cell's sets).

use super::{
    Arg, Cx, Domain, Eval, Filter, Judging, Mask, OwnerOf, Pred, Sets, Step, Value, Width,
};
use crate::engine::{budget, geometry};
use crate::ir::{Builtin, Expr};

/// The most parts a condition of `Pairs` may have.
const MAX_PARTS: usize = 8;

/// The most directions (as `Domain::Around` allows).
const MAX_DIRS: usize = super::MAX_AROUND;

/// The inner `choose`'s filter of a pair, judged a direction at a time (see the module).
pub(in crate::engine::plan) struct Pairs {
    /// The local of the cell whose neighbours are walked (the outer choice's).
    slot: usize,
    /// Each direction, in the written order: the cells with a neighbour that way, and how
    /// many cells on it is.
    steps: Vec<(u64, i32)>,
    /// For `sight`, the lines from each cell the first occupied cell is found on; none for
    /// `adjacent`.
    lines: Option<geometry::LineWords>,
    pred: Pred,
    /// Each part's own steps for a cell, in the order `trace` judges them.
    own: Vec<u64>,
}

/// What a listing's conditions found, a direction at a time: the neighbours that way that
/// pass, the steps every neighbour that way costs (its item, and each part that judged all
/// of them), and the parts that judged only some, with their steps and the cells they
/// judged.
pub(in crate::engine::plan) struct Table {
    held: [u64; MAX_DIRS],
    base: [u64; MAX_DIRS],
    some: [[(u64, u64); MAX_PARTS]; MAX_DIRS],
    len: [usize; MAX_DIRS],
    /// The occupied cells (the state does not change while actions are listed).
    occupied: u64,
}

impl Pairs {
    /// The filter of the inner `choose` of a pair (`choose b in adjacent(a, dirs)` or
    /// `sight(a, dirs)` over `coll`, `b` in local `bslot`, and its `require`'s `cond`), `a`
    /// in local `slot`, judged a direction at a time, where it can be (see the module).
    pub(in crate::engine::plan) fn new(
        cx: &mut Cx,
        coll: &Expr,
        (slot, bslot): (usize, u16),
        cond: &Expr,
    ) -> Option<Pairs> {
        let Width::One(Sets {
            pred,
            domain,
            rest: None,
        }) = Filter::made(cx, coll, bslot, cond, false)?.0
        else {
            return None;
        };
        let (cell, dirs, lines) = match domain {
            Domain::Around { cell, dirs, .. } => (cell, dirs, None),
            Domain::From(Builtin::Sight, cell, dirs, Some(lines)) => (cell, dirs, Some(lines)),
            _ => return None,
        };
        let board = cx.board;
        if !matches!(cell, Arg::Local(s) if s == slot) || dirs.len() > MAX_DIRS {
            return None;
        }
        let steps = (dirs.iter())
            .map(|&d| {
                let step = Step::new(board, d)?;
                Some((step.from.first().copied().unwrap_or(0), step.by))
            })
            .collect::<Option<Vec<_>>>()?;
        let mut own = Vec::new();
        if !pred.traced_parts(slot, &mut own) || own.len() > MAX_PARTS {
            return None;
        }
        Some(Pairs {
            slot,
            steps,
            lines,
            pred,
            own,
        })
    }

    /// The local of the cell whose neighbours are walked.
    pub(in crate::engine::plan) fn slot(&self) -> usize {
        self.slot
    }

    /// The condition judged for every cell's neighbour one way, each direction in turn,
    /// nothing charged (each pair's steps are charged as it is walked: `walk`).
    pub(in crate::engine::plan) fn table(&self, ev: &Eval, l: &[Value]) -> Table {
        let mut t = Table {
            held: [0; MAX_DIRS],
            base: [0; MAX_DIRS],
            some: [[(0, 0); MAX_PARTS]; MAX_DIRS],
            len: [0; MAX_DIRS],
            occupied: ev.s.occupied_word(None),
        };
        let mut j = Judging { ev, l, steps: 0 };
        let mut judged = [0; MAX_PARTS];
        for (d, &(from, by)) in self.steps.iter().enumerate() {
            let to = Mask([from]).shifted(by).0[0];
            let mut at = 0;
            let held = (self.pred).trace(&mut j, Mask([to]), (self.slot, by), &mut judged, &mut at);
            t.held[d] = held.0[0];
            // The item, then each part's steps: for every neighbour where the part judged
            // them all, else kept with the cells it judged.
            t.base[d] = 1;
            for (&own, &cells) in self.own.iter().zip(&judged) {
                if cells == to {
                    t.base[d] += own;
                } else if own > 0 && cells != 0 {
                    t.some[d][t.len[d]] = (own, cells);
                    t.len[d] += 1;
                }
            }
        }
        t
    }

    /// The lines `sight` finds its cells on; none for `adjacent`.
    pub(in crate::engine::plan) fn lines(&self) -> Option<&geometry::LineWords> {
        self.lines.as_ref()
    }

    /// Hands each cell paired with cell `a` (the one the outer choice just wrote into its
    /// local) that passes to `f`, in the directions' order, while it says to go on;
    /// charged as `Sets::each` charges a filter's choices (the call's step and its cell's
    /// first; each cell's item and judgement once the walk ends, up to the cell it
    /// stopped at; in a listing made ahead, what stopping at the first action would have
    /// charged owed). `to`: the cell paired with `a` in the `d`th direction (`adjacent_to`
    /// or `sight_to`).
    #[inline(always)]
    pub(in crate::engine::plan) fn walk<F: FnMut(u16, &mut [Value]) -> bool>(
        &self,
        l: &mut [Value],
        t: &Table,
        a: u16,
        f: &mut F,
        to: impl Fn(u16, usize, (u64, i32)) -> (u64, u32),
    ) {
        // The call's step, then its cell's (a local holding a cell, as `Arg::cell` reads
        // it); where the budget runs out there, nothing more is charged.
        if !(budget::charge(1) && budget::charge(1)) {
            return;
        }
        // Each direction's cell's steps (none where there is none that way), and the
        // directions whose cell passes, found without a branch on either.
        let mut cost = [0u64; MAX_DIRS];
        let mut cells = [0u16; MAX_DIRS];
        let mut pass = 0u32;
        // Each direction's arrays walked side by side: no bounds to check.
        let each = (self.steps.iter().zip(cells.iter_mut()).zip(cost.iter_mut()))
            .zip(t.base.iter().zip(&t.held).zip(t.some.iter().zip(&t.len)));
        for (d, (((&step, cell), cost), ((&base, &held), (some, &len)))) in each.enumerate() {
            let (there, b) = to(a, d, step);
            *cell = b as u16;
            // The cell's item and the parts that judged every cell this way, then each
            // other part it was judged in.
            let mut c = base;
            for &(own, judged) in some.iter().take(len) {
                c += own * (judged >> b & 1);
            }
            *cost = c * there;
            pass |= ((held >> b & there) as u32) << d;
        }
        // What walking the cells up to the one direction `d` gives costs.
        let upto = |d: usize| cost[..=d].iter().sum::<u64>();
        let seek = budget::seeking_first();
        let mut first = None;
        while pass != 0 {
            let d = pass.trailing_zeros() as usize;
            pass &= pass - 1;
            let go_on = f(cells[d], l);
            if seek && first.is_none() && budget::first_found() {
                first = Some(upto(d));
            }
            if !go_on {
                if let Some(owed) = first {
                    budget::owe(owed);
                }
                budget::charge(upto(d));
                return;
            }
        }
        if let Some(owed) = first {
            budget::owe(owed);
        }
        budget::charge(cost.iter().sum());
    }
}

/// The neighbour of `a` one way (`step`: the cells with a neighbour that way, and how
/// many cells on it is), where there is one: whether there is (1 or 0), and the cell.
#[inline(always)]
pub(in crate::engine::plan) fn adjacent_to(a: u16, (from, by): (u64, i32)) -> (u64, u32) {
    (from >> a & 1, (i32::from(a) + by) as u32 & 63)
}

/// The first occupied cell from `a` in the `d`th direction of `lines`, where there is one:
/// whether there is (1 or 0), and the cell (0 where there is none).
#[inline(always)]
pub(in crate::engine::plan) fn sight_to(
    lines: &geometry::LineWords,
    t: &Table,
    a: u16,
    d: usize,
) -> (u64, u32) {
    let cell = lines.first_taken(a, d, t.occupied);
    (u64::from(cell != 0), cell.trailing_zeros() & 63)
}

impl Pred {
    /// Whether `trace` can judge the condition (each part's steps its own alone, `a` in
    /// local `slot` read only by a comparison of cells), its parts' own steps added to
    /// `own` in the order `trace` judges them.
    fn traced_parts(&self, slot: usize, own: &mut Vec<u64>) -> bool {
        own.push(self.own_steps());
        match self {
            Pred::Empty | Pred::Place { .. } | Pred::Cell { .. } => true,
            Pred::Owner { seat, .. } => match seat {
                OwnerOf::Me | OwnerOf::Seat(_) | OwnerOf::Turn { of: None, .. } => true,
                OwnerOf::Local(x) | OwnerOf::Turn { of: Some(x), .. } => *x != slot,
            },
            Pred::Not(x) => x.traced_parts(slot, own),
            Pred::And(x, y) | Pred::Or(x, y) => {
                x.traced_parts(slot, own) && y.traced_parts(slot, own)
            }
            _ => false,
        }
    }

    /// `judge` of the cells `s`, each the neighbour `by` cells on of a cell in local `slot`
    /// (`pair`), each part's set written in `judged` (from `at` on, in the order
    /// `traced_parts` gives their steps); nothing charged.
    fn trace(
        &self,
        j: &mut Judging,
        s: Mask<1>,
        pair: (usize, i32),
        judged: &mut [u64; MAX_PARTS],
        at: &mut usize,
    ) -> Mask<1> {
        judged[*at] = s.0[0];
        *at += 1;
        match self {
            // `b` against `a`: one answer for every pair this way.
            Pred::Cell {
                op,
                other,
                mirrored,
            } if *other == pair.0 => {
                if super::ordered_either_way(*op, *mirrored, pair.1.cmp(&0)) {
                    s
                } else {
                    Mask::NONE
                }
            }
            Pred::Not(x) => s.minus(x.trace(j, s, pair, judged, at)),
            Pred::And(x, y) => {
                let left = x.trace(j, s, pair, judged, at);
                y.trace(j, left, pair, judged, at)
            }
            Pred::Or(x, y) => {
                let left = x.trace(j, s, pair, judged, at);
                left.or(y.trace(j, s.minus(left), pair, judged, at))
            }
            // A part with no parts: its set judged as `judge` judges it.
            _ => self.judge(j, s),
        }
    }
}
