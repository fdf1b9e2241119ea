//! Running effects: the statements of `setup`, an action's `do`, turn hooks, triggers and
//! reactions' `after` blocks.

use super::eval::Eval;
use super::memo;
use super::plan::Op;
use super::pool;
use super::state::{Loc, Outcome, Seats, State, Vars, NONE};
use super::{code, Engine, EngineError, ENTERED, LEFT};
use crate::ir::Items;
use crate::ir::{AssignOp, Stmt, Target, Value, ZoneId, NO_CELL};
use rand::seq::SliceRandom;

/// The components an effect moves or turns: on the stack when there are few, in a buffer
/// of the pool past 32 (a whole zone moved).
type Comps = pool::Ids<32>;

/// The most statements one action (with everything it triggers) may run.
pub const MAX_STEPS_PER_ACTION: u32 = 1_000_000;

/// How deep triggers may set one another off: a move that runs a trigger that moves a
/// component that runs a trigger, and so on. Each level is a level of recursion, so this
/// bound keeps triggers that move a component back and forth from exhausting the stack.
pub const MAX_TRIGGER_DEPTH: u32 = 200;

pub(crate) struct Runner<'a> {
    pub eng: &'a Engine,
    pub me: u8,
    pub budget: u32,
    /// Triggers running, one inside the other.
    depth: u32,
    /// Set where this runs a trial of a `do` for `require afterwards`: it skips the
    /// statements no judgement can see (see `trials.rs`) and notes what it changes.
    pub trial: Option<&'a mut Trial>,
}

/// What a trial of a `do` notes as it runs, for `Engine::judged_afterwards` to put back
/// only that before the next: each variable slot it writes, before it writes it, and what
/// else of the state its statements may have changed.
#[derive(Default)]
pub(crate) struct Trial {
    pub written: Vec<(Vars, u32)>,
    pub touched: Touched,
    /// The components its `move`s moved (or turned), while `touched` is `Moved`.
    pub moved: Vec<u16>,
}

/// The most components a trial notes as moved (`Touched::Moved`): past them, where
/// components stand is put back whole (`Touched::Moves`).
const MOVED_NOTED: usize = 16;

impl Trial {
    /// Notes the components a `move` is about to move (or turn).
    fn moving(&mut self, comps: &[u16]) {
        if self.touched <= Touched::Moved && self.moved.len() + comps.len() <= MOVED_NOTED {
            self.moved.extend_from_slice(comps);
            self.touched = Touched::Moved;
        } else {
            self.touched = self.touched.max(Touched::Moves);
        }
    }
}

/// What of a state a runner's statements may have changed, besides its variables (which
/// `Trial::written` lists): nothing, only where components stand (a `move`), or anything.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Default)]
pub(crate) enum Touched {
    #[default]
    Nothing,
    /// What `Moves` names, but only for the components `Trial::moved` lists: where each
    /// stands and stood (its cell or its zone), its owner and face, and the index of
    /// occupied cells.
    Moved,
    /// `cells`, `zones`, `locs`, `owners`, `face_up` and the index of occupied cells.
    Moves,
    All,
}

/// The variable an assignment changes: a global, a seat's or a piece's (by its index).
#[derive(Clone, Copy)]
pub(crate) enum VarTarget {
    Global(u16),
    Seat(u16),
    Piece(u16),
}

/// Where a component goes.
#[derive(Clone, Copy)]
enum Dest {
    Cell(u16),
    Zone(Entry),
}

/// A zone a move puts components into, found once for all of them: the zone, its
/// instance, and the seat its components belong to there (`Engine::zone_into`).
#[derive(Clone, Copy)]
struct Entry {
    z: ZoneId,
    inst: u16,
    owner: u8,
}

impl Entry {
    fn new(eng: &Engine, z: ZoneId, seat: u8, slot: u16) -> Entry {
        let (inst, owner) = eng.zone_into(z, seat, slot);
        Entry { z, inst, owner }
    }
}

/// The rules error of an assignment to a per-seat variable whose seat is `none`.
fn no_seat_to_assign(eng: &Engine, var: u16, op: AssignOp, n: Option<i64>) -> EngineError {
    let name = &eng.game.vars[var as usize].name;
    let change = match (op, n) {
        (AssignOp::Add, Some(n)) => format!("`{name} += {n}`"),
        (AssignOp::Sub, Some(n)) => format!("`{name} -= {n}`"),
        _ => format!("`{name} = ...`"),
    };
    rules(
        code::VALUE,
        format!(
            "{change} has no seat to change: the seat before `.{name}` is `none` \
             (a card or piece in a shared zone has no owner)"
        ),
    )
}

/// The rules error of a `transfer` whose payer or payee is `none`.
fn no_seat_to_transfer(eng: &Engine, var: u16, n: i64, side: &str) -> EngineError {
    let name = &eng.game.vars[var as usize].name;
    rules(
        code::VALUE,
        format!(
            "`transfer {n} {name}` has no seat to change: the seat after `{side}` is `none` \
             (a card or piece in a shared zone has no owner)"
        ),
    )
}

fn rules(code: &'static str, msg: impl Into<String>) -> EngineError {
    EngineError::rules(code, msg)
}

/// The seats a `win` names: one seat, or a list of them who share the win.
pub(crate) fn winners(v: Value) -> Seats {
    match v {
        Value::Seat(p) => Seats::from_slice(&[p]),
        Value::List(items) => {
            let seats = items
                .iter()
                .filter_map(|i| {
                    if let Value::Seat(p) = i {
                        Some(*p)
                    } else {
                        None
                    }
                })
                .collect();
            pool::recycle_list(items);
            seats
        }
        _ => Seats::new(),
    }
}

/// Every item a walk hands on (`walk` given the callback that takes them), in a list from
/// the pool: what a `for` loops over and a `roll` draws from, all taken first.
pub(crate) fn gathered(walk: impl FnOnce(&mut dyn FnMut(Value, &mut [Value]) -> bool)) -> Items {
    let mut items = pool::take();
    walk(&mut |v, _| {
        items.push(v);
        true
    });
    items
}

/// `roll`'s draw: one of `items` (all the collection gave) picked by the state's random
/// generator into `slot`, `none` if there are none; the list goes back to the pool.
pub(crate) fn rolled(s: &mut State, mut items: Items, slot: &mut Value) {
    let v = if items.is_empty() {
        Value::None
    } else {
        use rand::Rng;
        let i = s.rng.gen_range(0..items.len());
        items.swap_remove(i)
    };
    pool::recycle_list(items);
    pool::set(slot, v);
}

/// `rolled` over the numbers `lo..hi`, without taking them: the same draw of the state's
/// random generator picks the same number, and each number is charged as a walk of the
/// range charges it (`Eval::each_in_range`). A budget spent on the way (the walk would
/// have stopped part way) fails the action whatever is drawn.
pub(crate) fn rolled_in_range(s: &mut State, lo: i64, hi: i64, slot: &mut Value) {
    // Counted only once the range is known to be short: `hi - lo` of two far ends would
    // overflow.
    let n = if hi >= lo && super::eval::range_fits(lo, hi) {
        (hi - lo) as u64 + 1
    } else {
        0
    };
    let v = if n == 0 || !super::budget::charge(n) {
        Value::None
    } else {
        use rand::Rng;
        Value::Int(lo + s.rng.gen_range(0..n as usize) as i64)
    };
    pool::set(slot, v);
}

impl<'a> Runner<'a> {
    pub fn new(eng: &'a Engine, me: u8) -> Runner<'a> {
        Runner {
            eng,
            me,
            budget: MAX_STEPS_PER_ACTION,
            depth: 0,
            trial: None,
        }
    }

    fn ev(&self, s: &State, e: &crate::ir::Expr, l: &mut [Value]) -> Value {
        self.scoped(s, e, |ev| ev.eval(e, l))
    }

    /// Every item of the collection `coll` walks to, taken before anything is done with
    /// them (as `for` and `roll` take them), in a list from the pool.
    fn items(&self, s: &State, coll: &crate::ir::Expr, l: &mut [Value]) -> Items {
        gathered(|f| self.scoped(s, coll, |ev| ev.for_each(coll, l, f)))
    }

    /// Calls `f` to evaluate `e`, an expression of a statement: with values remembered for
    /// this one evaluation if it holds parts to remember (see `memo::effect_nodes`).
    fn scoped<R>(&self, s: &State, e: &crate::ir::Expr, f: impl FnOnce(&Eval) -> R) -> R {
        let ev = self.eval(s);
        let roots = &self.eng.memo_roots;
        if roots.is_empty() || roots.binary_search(&(e as *const _ as usize)).is_err() {
            return f(&ev);
        }
        let _memo = memo::begin(self.eng, s, self.me);
        f(&ev)
    }

    fn tick(&mut self) -> Result<(), EngineError> {
        if super::budget::spent() {
            // The decision's budget is spent: the caller reports what went over.
            return Err(rules(code::LIMIT, "the budget of one decision is spent"));
        }
        if self.budget == 0 {
            return Err(rules(code::NO_PROGRESS, format!("the rules make no progress: one action ran more than {MAX_STEPS_PER_ACTION} effects")));
        }
        self.budget -= 1;
        Ok(())
    }

    pub fn run(
        &mut self,
        s: &mut State,
        stmts: &[Stmt],
        l: &mut [Value],
    ) -> Result<(), EngineError> {
        // No statements (a phase's hook, the commonest): nothing to look up or run.
        if stmts.is_empty() {
            return Ok(());
        }
        if let Some(ops) = self.eng.plans.body(stmts) {
            return self.run_ops(s, ops, l);
        }
        self.run_written(s, stmts, l)
    }

    /// `run` for a list of statements whose compiled form stands at `body` among the
    /// compiled bodies (`Plans::bodies`), found before (a phase's hook: `Plans::phase`);
    /// run as written where it has none.
    #[inline(always)]
    pub fn run_body(
        &mut self,
        s: &mut State,
        stmts: &[Stmt],
        body: Option<usize>,
        l: &mut [Value],
    ) -> Result<(), EngineError> {
        match body {
            Some(i) => self.run_ops(s, &self.eng.plans.bodies[i].1, l),
            None if stmts.is_empty() => Ok(()),
            None => self.run_written(s, stmts, l),
        }
    }

    /// `run` for the statements of `stmts` in `part` (their compiled ops where `stmts` has
    /// them): run part by part with one runner, a list of statements runs as it does whole.
    /// (`run` does not go through it: every `do` runs whole, and the range and its bounds
    /// checks cost games whose effects are most of their work 0.3% of their instructions.)
    pub fn run_part(
        &mut self,
        s: &mut State,
        stmts: &[Stmt],
        part: std::ops::Range<usize>,
        l: &mut [Value],
    ) -> Result<(), EngineError> {
        if part.is_empty() {
            return Ok(());
        }
        match self.eng.plans.body(stmts) {
            Some(ops) => self.run_ops(s, &ops[part], l),
            None => self.run_written(s, &stmts[part], l),
        }
    }

    /// The effects this runner has run, counted against `MAX_STEPS_PER_ACTION`.
    pub fn ran(&self) -> u32 {
        MAX_STEPS_PER_ACTION - self.budget
    }

    /// Counts `n` effects as run already (a start gone on from a part of it known before:
    /// see `Engine::start`).
    pub fn count_ran(&mut self, n: u32) {
        self.budget = self.budget.saturating_sub(n);
    }

    /// `run` for a list of statements that stands at `at` in the rules: `stmts` may be a
    /// copy of it, which has no compiled form of its own.
    pub fn run_at(
        &mut self,
        s: &mut State,
        at: usize,
        stmts: &[Stmt],
        l: &mut [Value],
    ) -> Result<(), EngineError> {
        match self.eng.plans.body_at(at) {
            Some(ops) if !stmts.is_empty() => self.run_ops(s, ops, l),
            _ => self.run_written(s, stmts, l),
        }
    }

    /// Runs statements as they are written, each expression walked by the evaluator.
    fn run_written(
        &mut self,
        s: &mut State,
        stmts: &[Stmt],
        l: &mut [Value],
    ) -> Result<(), EngineError> {
        let (eng, trial) = (self.eng, self.trial.is_some());
        self.each_step(s, stmts, l, |st| trial && eng.trial_skips(st), Self::stmt)
    }

    /// Runs a compiled body (see `plan/bodies.rs`) as `run` runs the statements it was
    /// compiled from.
    pub(crate) fn run_ops(
        &mut self,
        s: &mut State,
        ops: &[Op],
        l: &mut [Value],
    ) -> Result<(), EngineError> {
        let trial = self.trial.is_some();
        self.each_step(
            s,
            ops,
            l,
            |op| trial && op.skipped,
            |r, s, op, l| (op.run)(r, s, l),
        )
    }

    /// Runs `steps` (statements, or their compiled ops) one by one by `one`, each counted
    /// against the action's effects, until the game is over; those a trial skips
    /// (`skipped`) are neither run nor counted.
    #[inline(always)]
    fn each_step<T>(
        &mut self,
        s: &mut State,
        steps: &[T],
        l: &mut [Value],
        skipped: impl Fn(&T) -> bool,
        one: impl Fn(&mut Self, &mut State, &T, &mut [Value]) -> Result<(), EngineError>,
    ) -> Result<(), EngineError> {
        for step in steps {
            if s.outcome.is_some() {
                return Ok(());
            }
            if skipped(step) {
                continue;
            }
            self.tick()?;
            one(self, s, step, l)?;
        }
        Ok(())
    }

    /// A `for` loop's body run once for each of `items` (taken before it first runs), the
    /// item in the loop's local `slot`.
    #[inline(always)]
    pub(crate) fn repeat(
        &mut self,
        s: &mut State,
        slot: usize,
        mut items: Items,
        l: &mut [Value],
        body: impl Fn(&mut Self, &mut State, &mut [Value]) -> Result<(), EngineError>,
    ) -> Result<(), EngineError> {
        for v in items.iter_mut() {
            pool::set(&mut l[slot], std::mem::take(v));
            body(self, s, l)?;
        }
        pool::recycle_list(items);
        Ok(())
    }

    /// An evaluator of the runner's seat on `s`, for a compiled statement's expressions.
    #[inline(always)]
    pub(crate) fn eval<'e>(&self, s: &'e State) -> Eval<'e>
    where
        'a: 'e,
    {
        Eval {
            eng: self.eng,
            s,
            me: self.me,
        }
    }

    /// Notes, in a trial, that the statement may have changed anything: a draw of the
    /// state's random generator, or a deal.
    #[inline(always)]
    pub(crate) fn touched_all(&mut self) {
        if let Some(t) = &mut self.trial {
            t.touched = Touched::All;
        }
    }

    pub(crate) fn stmt(
        &mut self,
        s: &mut State,
        st: &Stmt,
        l: &mut [Value],
    ) -> Result<(), EngineError> {
        if let Some(t) = &mut self.trial {
            let touches = match st {
                Stmt::If(..) | Stmt::For(..) | Stmt::Block(_) | Stmt::Let(..) => Touched::Nothing,
                Stmt::Assign(Target::Global(_) | Target::Seat(..) | Target::Piece(..), ..) => {
                    Touched::Nothing
                }
                // Noted in `move_to`.
                Stmt::Move(..) => Touched::Nothing,
                _ => Touched::All,
            };
            t.touched = t.touched.max(touches);
        }
        match st {
            Stmt::If(c, a, b) => {
                let v = self.ev(s, c, l);
                let branch = if v.truthy() { a } else { b };
                pool::recycle(v);
                self.run(s, branch, l)?;
            }
            Stmt::For(slot, coll, body) => {
                let items = self.items(s, coll, l);
                self.repeat(s, *slot as usize, items, l, |r, s, l| r.run(s, body, l))?;
            }
            Stmt::Block(body) => self.run(s, body, l)?,
            Stmt::Let(slot, e) => {
                let v = self.ev(s, e, l);
                pool::set(&mut l[*slot as usize], v);
            }
            Stmt::Roll(slot, coll) => {
                let items = self.items(s, coll, l);
                rolled(s, items, &mut l[*slot as usize]);
            }
            Stmt::Form(area, seat, shape) => {
                let seat = match seat {
                    Some(e) => match self.ev(s, e, l) {
                        Value::Seat(p) => p,
                        _ => return Err(rules(code::VALUE, "`form` needs a seat")),
                    },
                    None => 0,
                };
                let shape = match self.ev(s, shape, l) {
                    Value::Shape(x) => x,
                    _ => NONE,
                };
                self.eng.form(s, *area, seat, shape, l)?;
            }
            Stmt::Move(what, to, face) => {
                let what = self.ev(s, what, l);
                let to = self.ev(s, to, l);
                self.move_to(s, what, to, *face)?;
            }
            Stmt::Face(what, up) => {
                let what = self.ev(s, what, l);
                let comps = self.comps_of(s, &what);
                pool::recycle(what);
                for &c in comps.iter() {
                    s.face_up[c as usize] = *up;
                }
            }
            Stmt::Swap(a, b) => {
                if let (Value::Cell(a), Value::Cell(b)) = (self.ev(s, a, l), self.ev(s, b, l)) {
                    let (ca, cb) = (s.cells[a as usize], s.cells[b as usize]);
                    s.set_cell(a, NONE);
                    s.set_cell(b, ca);
                    s.set_cell(a, cb);
                    if ca != NONE {
                        s.locs[ca as usize] = Loc::Cell(b);
                    }
                    if cb != NONE {
                        s.locs[cb as usize] = Loc::Cell(a);
                    }
                }
            }
            Stmt::Shift(line, dir, k) => self.shift(s, line, dir, k, l)?,
            Stmt::Shuffle(z) => {
                if let Value::Zone(z, seat, slot) = self.ev(s, z, l) {
                    let inst = self.eng.zone_instance(z, seat, slot) as usize;
                    let mut zone = std::mem::take(&mut s.zones[inst]);
                    zone.shuffle(&mut s.rng);
                    s.zones[inst] = zone;
                }
            }
            Stmt::Place(what, onto) => {
                let what = self.ev(s, what, l);
                let mut comps = self.comps_of(s, &what);
                if matches!(what, Value::Zone(..)) {
                    comps.reverse(); // deal from the top
                }
                pool::recycle(what);
                let cells = match self.ev(s, onto, l) {
                    Value::List(v) => v,
                    other => {
                        pool::recycle(other);
                        Items::new()
                    }
                };
                for (&comp, cell) in comps.iter().zip(cells.iter()) {
                    if let Value::Cell(c) = *cell {
                        self.relocate(s, comp, Dest::Cell(c))?;
                    }
                }
                pool::recycle_list(cells);
            }
            Stmt::Transfer(amount, var, from, to) => {
                let n = self.ev(s, amount, l).as_int();
                let (from, to) = (self.ev(s, from, l), self.ev(s, to, l));
                // A payer or payee that is `none` (the owner of a card in a shared zone):
                // said, not skipped in silence.
                if from == Value::None {
                    return Err(no_seat_to_transfer(self.eng, *var, n, "from"));
                }
                if to == Value::None {
                    return Err(no_seat_to_transfer(self.eng, *var, n, "to"));
                }
                let (Value::Seat(a), Value::Seat(b)) = (from, to) else {
                    return Ok(());
                };
                let vars = self.eng.game.vars.len();
                if a >= s.players || b >= s.players || n <= 0 || a == b {
                    return Ok(());
                }
                let (ia, ib) = (
                    a as usize * vars + *var as usize,
                    b as usize * vars + *var as usize,
                );
                self.note(Vars::Seats, ia);
                self.note(Vars::Seats, ib);
                // Never more than the payer has: the total is conserved.
                let paid = n.min(s.seat_vars[ia].as_int().max(0));
                s.seat_vars[ia] = Value::Int(s.seat_vars[ia].as_int() - paid);
                s.seat_vars[ib] = Value::Int(s.seat_vars[ib].as_int() + paid);
            }
            Stmt::Deal(count, from, to) => {
                let n = self.ev(s, count, l).as_int();
                let (from, to) = (self.ev(s, from, l), self.ev(s, to, l));
                self.deal(s, n, from, to)?;
            }
            Stmt::Tuck(what, under) => {
                let what = self.ev(s, what, l);
                let comps = self.comps_of(s, &what);
                pool::recycle(what);
                if let Value::Zone(z, seat, slot) = self.ev(s, under, l) {
                    // Each goes to the very bottom, in turn.
                    let entry = Entry::new(self.eng, z, seat, slot);
                    for &comp in comps.iter() {
                        self.relocate(s, comp, Dest::Zone(entry))?;
                        let inst = entry.inst as usize;
                        if let Some(i) = s.zones[inst].iter().rposition(|&c| c == comp) {
                            let c = s.zones[inst].remove(i);
                            s.zones[inst].insert(0, c);
                        }
                    }
                }
            }
            Stmt::EndTurn => s.ending_turn = true,
            Stmt::React(r) => s.reactions.push((*r, super::state::NONE)),
            Stmt::Win(p) => {
                let winners = winners(self.ev(s, p, l));
                if !winners.is_empty() {
                    s.outcome = Some(Outcome::Win(winners));
                }
            }
            Stmt::Lose(p) => {
                if let Value::Seat(p) = self.ev(s, p, l) {
                    self.eng.eliminate(s, p);
                }
            }
            Stmt::Draw => s.outcome = Some(Outcome::Draw),
            Stmt::Assign(Target::Attr(c, a), op, value) => {
                let v = self.ev(s, value, l);
                let Value::Comp(c) = self.ev(s, c, l) else {
                    return Ok(());
                };
                if c == NONE {
                    return Ok(());
                }
                let now = self.eng.attr(s, c, *a);
                let v = match op {
                    AssignOp::Set => v,
                    AssignOp::Add => Value::Int(now.as_int().saturating_add(v.as_int())),
                    AssignOp::Sub => Value::Int(now.as_int().saturating_sub(v.as_int())),
                };
                let def = &self.eng.game.attrs[*a as usize];
                if let (crate::ir::AttrType::Int { lo, hi }, Value::Int(n)) = (&def.ty, &v) {
                    if n < lo || n > hi {
                        return Err(rules(
                            code::VALUE,
                            format!(
                                "`{}` of {} cannot be {n}: the attribute runs from {lo} to {hi}",
                                def.name,
                                self.eng.label(s, c)
                            ),
                        ));
                    }
                }
                self.eng.set_attr(s, c, *a, pool::own(v));
            }
            Stmt::Assign(target, op, value) => {
                let v = self.ev(s, value, l);
                let (var, who) = match target {
                    Target::Global(i) => (VarTarget::Global(*i), Value::None),
                    Target::Seat(e, i) => (VarTarget::Seat(*i), self.ev(s, e, l)),
                    Target::Piece(e, i) => (VarTarget::Piece(*i), self.ev(s, e, l)),
                    // Changed by the arm above.
                    Target::Attr(..) => return Ok(()),
                };
                self.assign(s, var, who, *op, v)?;
            }
        }
        Ok(())
    }

    /// `deal n from from to to`, the values computed: the top component of the zone `from`
    /// moved into the zone `to`, `n` times or until `from` is empty.
    pub(crate) fn deal(
        &mut self,
        s: &mut State,
        n: i64,
        from: Value,
        to: Value,
    ) -> Result<(), EngineError> {
        let (Value::Zone(fz, fs, fn_), Value::Zone(tz, ts, tn)) = (from, to) else {
            return Ok(());
        };
        let inst = self.eng.zone_instance(fz, fs, fn_) as usize;
        let entry = Entry::new(self.eng, tz, ts, tn);
        for _ in 0..n.max(0) {
            // A trigger may refill or empty the source between cards: look each time.
            let Some(&top) = s.zones[inst].last() else {
                break;
            };
            self.relocate(s, top, Dest::Zone(entry))?;
        }
        Ok(())
    }

    /// `move what to to`, the values computed: components (one, a list, or a zone's
    /// contents) onto a cell or into a zone, turned face up or down first if `face` says.
    pub(crate) fn move_to(
        &mut self,
        s: &mut State,
        what: Value,
        to: Value,
        face: Option<bool>,
    ) -> Result<(), EngineError> {
        // A zone's contents into another zone, where no trigger runs: all at once.
        if let (Value::Zone(fz, fs, fslot), Value::Zone(tz, ts, tslot)) = (&what, &to) {
            let from = self.eng.zone_instance(*fz, *fs, *fslot);
            let entry = Entry::new(self.eng, *tz, *ts, *tslot);
            if self.move_whole(s, from, entry, face) {
                return Ok(());
            }
        }
        // One component, the commonest, moved without a list made for it.
        let (one, many);
        let comps: &[u16] = match what {
            Value::Comp(c) if c != NONE => {
                one = [c];
                &one
            }
            _ => {
                many = self.comps_of(s, &what);
                pool::recycle(what);
                &many
            }
        };
        if let Some(t) = &mut self.trial {
            t.moving(comps);
        }
        if let Some(up) = face {
            for &c in comps.iter() {
                s.face_up[c as usize] = up;
            }
        }
        match to {
            Value::Cell(c) => {
                if comps.len() > 1 {
                    return Err(rules(
                        code::OCCUPIED,
                        "cannot move several cards or pieces onto one cell",
                    ));
                }
                for &comp in comps.iter() {
                    self.relocate(s, comp, Dest::Cell(c))?;
                }
            }
            Value::Zone(z, seat, slot) => {
                let entry = Entry::new(self.eng, z, seat, slot);
                for &comp in comps.iter() {
                    self.relocate(s, comp, Dest::Zone(entry))?;
                }
            }
            Value::None => {}
            other => {
                pool::recycle(other);
                return Err(rules(code::VALUE, "`move ... to` needs a cell or a zone"));
            }
        }
        Ok(())
    }

    /// `move` of zone instance `from`'s contents into `entry`, where no trigger runs on
    /// leaving the one or entering the other, and they are two: all the components at once,
    /// put in their order, bottom first, as moving them one at a time puts them (each
    /// taken from the bottom, so each would shift those above it down). False, with
    /// nothing done, where a trigger could run (then one at a time, `relocate`).
    fn move_whole(&mut self, s: &mut State, from: u16, entry: Entry, face: Option<bool>) -> bool {
        let triggered = &self.eng.triggered;
        if from == entry.inst
            || triggered[from as usize] & LEFT != 0
            || triggered[entry.inst as usize] & ENTERED != 0
        {
            return false;
        }
        let moved = std::mem::take(&mut s.zones[from as usize]);
        if let Some(t) = &mut self.trial {
            t.moving(&moved);
        }
        for &c in &moved {
            if let Some(up) = face {
                s.face_up[c as usize] = up;
            }
            s.locs[c as usize] = Loc::Zone(entry.inst);
            s.set_owner(c, entry.owner);
        }
        s.zones[entry.inst as usize].extend_from_slice(&moved);
        // The emptied zone keeps its storage.
        let emptied = &mut s.zones[from as usize];
        *emptied = moved;
        emptied.clear();
        true
    }

    /// An assignment to a variable, its value `v` computed: a global (`who` unused), a
    /// seat's (`who` the seat) or a piece's (`who` the component). Nothing changes where
    /// `who` is no seat or piece, but a seat's variable with no seat is a rules error.
    pub(crate) fn assign(
        &mut self,
        s: &mut State,
        var: VarTarget,
        who: Value,
        op: AssignOp,
        v: Value,
    ) -> Result<(), EngineError> {
        let n = match v {
            Value::Int(n) => Some(n),
            _ => None,
        };
        let Some((which, at)) = self.var_place(s, var, who, op, n)? else {
            pool::recycle(v);
            return Ok(());
        };
        match op {
            AssignOp::Set => self.set_var(s, (which, at), v),
            AssignOp::Add | AssignOp::Sub => self.add_to_var(s, (which, at), op, v.as_int()),
        }
        Ok(())
    }

    /// Stores `v` in the variable slot at `place` (see `var_place`), noted first.
    #[inline(always)]
    pub(crate) fn set_var(&mut self, s: &mut State, (which, at): (Vars, usize), v: Value) {
        self.note(which, at);
        pool::store(&mut s.vars_mut(which)[at], v);
    }

    /// Adds `n` to the number in the variable slot at `place` (`op` `Add`), or takes it
    /// away (`Sub`), noted first; a sum or difference past the ends of a number stops
    /// there.
    #[inline(always)]
    pub(crate) fn add_to_var(
        &mut self,
        s: &mut State,
        (which, at): (Vars, usize),
        op: AssignOp,
        n: i64,
    ) {
        self.note(which, at);
        let slot = &mut s.vars_mut(which)[at];
        let change = |now: i64| match op {
            AssignOp::Sub => now.saturating_sub(n),
            _ => now.saturating_add(n),
        };
        // A number changed where it stands; anything else (a truth counts as 0 or 1,
        // the rest as 0) replaced by the number.
        match slot {
            Value::Int(now) => *now = change(*now),
            other => {
                let v = change(other.as_int());
                pool::store(other, Value::Int(v));
            }
        }
    }

    /// Where the variable an assignment changes stands in the state: a global (`who`
    /// unused), a seat's (`who` the seat) or a piece's (`who` the component); `None`
    /// where `who` is no seat or piece, but a seat's variable with no seat is a rules
    /// error (`n`: the number a change by a number adds, if a number, for its message).
    #[inline(always)]
    pub(crate) fn var_place(
        &self,
        s: &State,
        var: VarTarget,
        who: Value,
        op: AssignOp,
        n: Option<i64>,
    ) -> Result<Option<(Vars, usize)>, EngineError> {
        let vars = self.eng.game.vars.len();
        Ok(Some(match (var, who) {
            (VarTarget::Global(i), _) => (Vars::Globals, i as usize),
            (VarTarget::Seat(i), Value::Seat(p)) if p < s.players => {
                (Vars::Seats, p as usize * vars + i as usize)
            }
            // No seat to change (`c.owner.points += 1` where `c` lies in a shared zone):
            // said, not skipped in silence.
            (VarTarget::Seat(i), Value::None) => return Err(no_seat_to_assign(self.eng, i, op, n)),
            (VarTarget::Piece(i), Value::Comp(c)) if c != NONE => {
                (Vars::Pieces, c as usize * vars + i as usize)
            }
            (_, who) => {
                pool::recycle(who);
                return Ok(None);
            }
        }))
    }

    /// Notes a variable slot about to be written, where the runner keeps them (`written`).
    #[inline(always)]
    fn note(&mut self, which: Vars, at: usize) {
        if let Some(t) = &mut self.trial {
            t.written.push((which, at as u32));
        }
    }

    /// Moves one component, then runs the triggers of the zone it left and the zone it
    /// entered. Every move in an effect goes through here.
    fn relocate(&mut self, s: &mut State, comp: u16, dest: Dest) -> Result<(), EngineError> {
        // The zone left, where a trigger runs on leaving it.
        let left = match s.locs[comp as usize] {
            Loc::Zone(inst) if self.eng.triggered[inst as usize] & LEFT != 0 => {
                Some(self.eng.zone_of_instance(inst).0)
            }
            _ => None,
        };
        let mut entered = None;
        match dest {
            Dest::Cell(c) => {
                if !self.eng.present(s, c) {
                    return Err(rules(
                        code::OFF_BOARD,
                        format!(
                            "cannot move onto {}: its area's shape has no such cell now",
                            self.eng.game.board.cells[c as usize].name
                        ),
                    ));
                }
                let there = s.cells[c as usize];
                if there != NONE && there != comp {
                    return Err(rules(
                        code::OCCUPIED,
                        format!(
                            "cannot move onto {}: it is occupied",
                            self.eng.game.board.cells[c as usize].name
                        ),
                    ));
                }
                self.eng.take(s, comp);
                self.eng.put_cell(s, comp, c);
            }
            Dest::Zone(entry) => {
                self.eng.take(s, comp);
                self.eng.put_into(s, comp, entry.inst, entry.owner);
                if self.eng.triggered[entry.inst as usize] & ENTERED != 0 {
                    entered = Some(entry.z);
                }
            }
        }
        if let Some(z) = left {
            self.fire(s, z, false, comp)?;
        }
        if let Some(z) = entered {
            self.fire(s, z, true, comp)?;
        }
        Ok(())
    }

    /// Runs the triggers declared for a component entering (or leaving) a zone.
    fn fire(
        &mut self,
        s: &mut State,
        zone: ZoneId,
        enters: bool,
        comp: u16,
    ) -> Result<(), EngineError> {
        let eng = self.eng;
        for t in eng
            .game
            .triggers
            .iter()
            .filter(|t| t.zone == zone && t.enters == enters)
        {
            if self.depth >= MAX_TRIGGER_DEPTH {
                return Err(rules(code::NO_PROGRESS, format!(
                    "the rules make no progress: triggers set one another off more than {MAX_TRIGGER_DEPTH} deep"
                )));
            }
            let mut l = eng.locals();
            l[0] = Value::Comp(comp);
            self.depth += 1;
            let done = self.run(s, &t.body, &mut l);
            self.depth -= 1;
            done?;
        }
        Ok(())
    }

    fn shift(
        &mut self,
        s: &mut State,
        line: &crate::ir::Expr,
        dir: &crate::ir::Expr,
        k: &crate::ir::Expr,
        l: &mut [Value],
    ) -> Result<(), EngineError> {
        let line = self.ev(s, line, l);
        let Value::Dir(d) = self.ev(s, dir, l) else {
            return Ok(());
        };
        let k = self.ev(s, k, l).as_int().clamp(0, 255);
        let board = &self.eng.game.board;
        let mut moving: smallvec::SmallVec<[(u16, u16); 32]> = smallvec::SmallVec::new();
        super::geometry::each_line_cell(&line, board, |c| {
            let comp = s.cells[c as usize];
            if comp != NONE {
                s.set_cell(c, NONE);
                moving.push((comp, c));
            }
            true
        });
        for (comp, from) in moving {
            let mut to = from;
            for _ in 0..k {
                to = board.step(to, d);
                if to == NO_CELL {
                    return Err(rules(
                        code::OFF_BOARD,
                        "a shift would move a piece off the board",
                    ));
                }
            }
            if s.cells[to as usize] != NONE {
                return Err(rules(
                    code::OCCUPIED,
                    format!(
                        "a shift lands on occupied cell {}",
                        board.cells[to as usize].name
                    ),
                ));
            }
            s.set_cell(to, comp);
            s.locs[comp as usize] = Loc::Cell(to);
        }
        Ok(())
    }

    /// The components a value stands for: one, a list, or a zone's contents (bottom first).
    fn comps_of(&self, s: &State, v: &Value) -> Comps {
        let mut comps = Comps::new();
        match v {
            Value::Comp(c) if *c != NONE => comps.push(*c),
            Value::List(items) => {
                for i in items {
                    if let Value::Comp(c) = i {
                        comps.push(*c);
                    }
                }
            }
            Value::Zone(z, seat, slot) => {
                comps.extend_from_slice(&s.zones[self.eng.zone_instance(*z, *seat, *slot) as usize])
            }
            _ => {}
        }
        comps
    }
}

#[cfg(test)]
mod tests {
    use super::{rolled, rolled_in_range};
    use crate::check::compile_source;
    use crate::engine::Engine;
    use crate::ir::Value;

    /// A draw from a range of numbers is the draw from the list of its numbers, with the
    /// same random generator; a range with no numbers, its ends as far apart as can be,
    /// draws none.
    #[test]
    fn a_roll_over_a_range_draws_as_over_its_numbers() {
        let text = include_str!("../../tests/constructs/link_rules.muster");
        let game = compile_source("link_rules.muster", text, None)
            .unwrap_or_else(|_| panic!("link_rules.muster does not compile"))
            .game;
        let eng = Engine::new(game);
        let mut s = eng.start(2, 7).expect("the game starts");
        let mut seen = [false; 6];
        for _ in 0..200 {
            let mut listed = s.clone();
            let (mut a, mut b) = (Value::None, Value::None);
            rolled_in_range(&mut s, 1, 6, &mut a);
            rolled(&mut listed, (1..=6).map(Value::Int).collect(), &mut b);
            assert_eq!(a, b);
            let Value::Int(k) = a else {
                panic!("a number is drawn: {a:?}")
            };
            seen[k as usize - 1] = true;
        }
        assert_eq!(seen, [true; 6]);
        let mut none = Value::Int(3);
        rolled_in_range(&mut s, i64::MAX, i64::MIN, &mut none);
        assert_eq!(none, Value::None);
    }
}
