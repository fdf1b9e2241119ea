//! An action's clauses compiled: each a closure holding the closure of the clauses after
//! it (`action`), with the common shapes of `choose` and `require` given closures of their
//! own (see the module above).

use super::*;

/// Clauses fused into one step (see `dirs_then_shifts`): the step, made once what follows
/// them is.
pub(super) type Fusion = Box<dyn FnOnce(After) -> Step>;

/// What follows fused clauses: the next step; a `require` after which the action is
/// complete, judged in the fusion's loop (as `Guarded` judges a `require` in a choice's);
/// or nothing, the action complete and recorded there. The last two without a call to a
/// step of their own.
pub(super) enum After {
    Step(Step),
    Require(Guarded<Record>),
    Record(Record),
}

/// A fusion's step made for what follows it (`After`), for each kind apart: `$next` is
/// bound to the rest as a `Then` of that kind's own type, so that the walk calls what
/// follows in place, with no choice among the kinds for each choice it hands on.
macro_rules! for_after {
    ($after:expr, |$next:ident| $step:expr) => {
        match $after {
            After::Step(step) => {
                let $next = Plain(step);
                $step
            }
            After::Require(guarded) => {
                let $next = guarded;
                $step
            }
            After::Record(record) => {
                let $next = record;
                $step
            }
        }
    };
}
pub(super) use for_after;

pub(super) fn action(cx: &mut Cx, a: u16, clauses: &[Clause], roles: &[Role]) -> Option<Step> {
    // After the `do` stand only `require afterwards` clauses, judged at the `do` on a copy
    // of the state (see `Engine::fails_afterwards`); the checker writes nothing else there.
    let do_at = clauses.iter().position(|c| matches!(c, Clause::Do(_)));
    let after_do = do_at.map_or(&[][..], |d| &clauses[d + 1..]);
    if !after_do.iter().all(Clause::is_afterwards) {
        return None;
    }
    // The action's arguments are its choices, read from their slots once the action is
    // complete (a chosen local is never bound again), and handed on where they stand: the
    // checker gives an action's choices slots side by side (`Ctx::reserve_slots`). Rules
    // with choices apart (none the checker makes) are listed by the tree walk.
    let chosen: Vec<usize> = clauses
        .iter()
        .filter_map(|c| match c {
            Clause::Choose { slot, .. } => Some(*slot as usize),
            _ => None,
        })
        .collect();
    let run = chosen.first().map_or(0, |&s| s)..chosen.last().map_or(0, |&s| s + 1);
    if !chosen.iter().copied().eq(run.clone()) {
        return None;
    }
    // The `let`s whose lists are never made, for this action's clauses alone.
    let found = line_lets::find(cx, clauses, roles);
    cx.lists_never_made += found.len();
    let outer = std::mem::replace(&mut cx.line_lets, found);
    let record = Record { a, run };
    let mut next: Step = {
        let record = record.clone();
        Box::new(move |ev, l, f| record.go(ev, l, f))
    };
    // Whether `next` is still the step that records the action and nothing more: a
    // `require`, `choose` or fusion before it then records it itself, without a call to
    // that step (not where clauses count their own steps: the `do` is counted as a step of
    // its own).
    let mut bare = !cx.count_clauses;
    let mut fused: Option<(usize, Fusion)> = None;
    // A `require` after a fusion, the action complete after it: judged in the fusion's
    // loop (`After::Require`).
    let mut last_require: Option<Guarded<Record>> = None;
    // A `require` straight after a `choose`, compiled, waiting for the choice: judged in
    // its loop (see `Guarded`) rather than behind a step of its own.
    let mut guard: Option<((u16, usize), &Expr)> = None;
    for (i, c) in clauses.iter().enumerate().rev() {
        // A clause fused with the ones after it (`dirs_then_shifts`, `runs_dirs_shifts`)
        // takes their place: built here, from the step after them all, the clauses after
        // it passed over.
        if let Some((first, make)) = fused.take() {
            if i > first {
                fused = Some((first, make));
                continue;
            }
            let after = match last_require.take() {
                Some(guarded) => After::Require(guarded),
                None if bare => After::Record(record.clone()),
                None => After::Step(next),
            };
            next = counted(cx, (a, i), make(after));
            bare = false;
            continue;
        }
        // The last clause of a fusion, the three of `runs_dirs_shifts` and `pairs` looked
        // for first.
        let fusion = (i.checked_sub(2))
            .and_then(|p| Some((p, runs_dirs_shifts(cx, a, p, clauses)?)))
            .or_else(|| pairs(cx, a, i, clauses))
            .or_else(|| own_moves(cx, a, i, clauses))
            .or_else(|| {
                let p = i.checked_sub(1)?;
                Some((p, dirs_then_shifts(cx, a, p, clauses)?))
            });
        if let Some(fusion) = fusion {
            if let Some((at, cond)) = guard.take() {
                // (Never where clauses count their own steps: `bare` is false there.)
                if bare {
                    let cond = truth(cx, cond);
                    let next = record.clone();
                    last_require = Some(Guarded { at, cond, next });
                } else {
                    let step = require_then(cx, at, cond, next, None);
                    next = counted(cx, at, step);
                }
                bare = false;
            }
            fused = Some(fusion);
            continue;
        }
        if let Clause::Choose {
            slot, ty, domain, ..
        } = c
        {
            // Subsets walked a subset at a time (`subsets::roles`).
            let walked = roles[i] == Role::Choose;
            // What follows each choice: the `require` after it, if any, then the rest, or
            // the action recorded where nothing else follows (`bare`).
            let (at, c, g) = ((a, i), (*slot, ty, domain), guard.take());
            next = match bare {
                true => choose_guarded(cx, at, c, walked, g, roles, record.clone()),
                false => choose_guarded(cx, at, c, walked, g, roles, Plain(next)),
            };
            next = counted(cx, at, next);
            bare = false;
            continue;
        }
        if let Some((at, cond)) = guard.take() {
            let step = require_then(cx, at, cond, next, bare.then(|| record.clone()));
            next = counted(cx, at, step);
            bare = false;
        }
        if let Clause::Require {
            cond,
            afterwards: false,
            ..
        } = c
        {
            if i > 0 && matches!(clauses[i - 1], Clause::Choose { .. }) {
                guard = Some(((a, i), cond));
                continue;
            }
        }
        next = match c {
            Clause::Do(_) if after_do.is_empty() => next,
            Clause::Do(body) => {
                // The `require afterwards` conditions, compiled, judged in order on the
                // position the `do` produces.
                let rest: Vec<Cond> = (after_do.iter().enumerate())
                    .filter_map(|(k, c)| match c {
                        Clause::Require { cond, .. } => {
                            let cond = truth(cx, cond);
                            Some(counted_cond(cx, (a, i + 1 + k), cond))
                        }
                        _ => None,
                    })
                    .collect();
                // The body runs compiled (found by its place in the rules, `Plans::body`);
                // the copy is for an engine without compiled bodies.
                let (at, copy) = (body.as_ptr() as usize, body.clone());
                cx.note_body(body, &copy);
                let body = copy;
                Box::new(move |ev, l, f| {
                    if budget::spent() {
                        return false;
                    }
                    let failed = ev.eng.judged_afterwards(ev, at, &body, l, &mut |then, l2| {
                        rest.iter().position(|c| !c(then, l2)).map(|i| i as u16)
                    });
                    if failed.is_some() {
                        return true;
                    }
                    next(ev, l, f)
                })
            }
            Clause::Choose { .. } => unreachable!("a choice is built above"),
            Clause::Let { slot, value } => let_(cx, (a, i), *slot, value, next),
            // Judged at the `do`; here only a step, as in the tree walk.
            Clause::Require {
                afterwards: true, ..
            } => Box::new(move |ev, l, f| located(ev, (a, i), || next(ev, l, f))),
            Clause::Require { cond, .. } => match roles[i] {
                Role::Require(_) => require_step((a, i), condition(cx, cond, roles[i]), next),
                _ => require_then(cx, (a, i), cond, next, bare.then(|| record.clone())),
            },
        };
        // Only a `do` with nothing judged after it leaves the step that records the action
        // as it was.
        bare &= matches!(c, Clause::Do(_)) && after_do.is_empty();
        // A `require afterwards` is counted where it is judged, at the `do`.
        if !c.is_afterwards() {
            next = counted(cx, (a, i), next);
        }
    }
    cx.line_lets = outer;
    Some(next)
}

/// A clause's step, counting its own steps where the plans count them (`Cx::count_clauses`,
/// `muster bench --by-clause`); as it is otherwise.
fn counted(cx: &Cx, at: (u16, usize), step: Step) -> Step {
    if cx.count_clauses {
        profile::counted_step(at, step)
    } else {
        step
    }
}

/// A `require`'s condition judged apart from its step (in its `choose`'s loop, or at the
/// `do` for `require afterwards`), counted as `counted` counts a step.
fn counted_cond(cx: &Cx, at: (u16, usize), cond: Cond) -> Cond {
    if cx.count_clauses {
        profile::counted_cond(at, cond)
    } else {
        cond
    }
}

/// A `choose` (its slot, type and domain) and the `require` straight after it, if any
/// (`guard`: where it stands and its condition), handing each choice that passes on to
/// `next`. The cells that pass the `require` are found all at once where it can be judged
/// for a set of cells (`masks.rs`); subsets walked a subset at a time (`walked`) are
/// not.
fn choose_guarded<N: Then>(
    cx: &mut Cx,
    at: (u16, usize),
    (slot, ty, domain): (u16, &Type, &Expr),
    walked: bool,
    guard: Option<((u16, usize), &Expr)>,
    roles: &[Role],
    next: N,
) -> Step {
    let Some((at_require, cond)) = guard else {
        return choice(cx, at, slot, ty, domain, walked, next);
    };
    let filter = (!walked)
        .then(|| masks::Filter::new(cx, domain, slot, cond))
        .flatten();
    if let Some(filter) = filter {
        let then = Passed {
            at: at_require,
            next,
        };
        let slot = slot as usize;
        return Choose {
            at,
            slot,
            next: then,
        }
        .to(cx, Passing(filter));
    }
    let role = roles[at_require.1];
    // `require target != me`, not counted apart (`Cx::count_clauses`): judged in place.
    if !cx.count_clauses && !matches!(role, Role::Require(_)) && not_me(cond, slot) {
        let then = Guarded {
            at: at_require,
            cond: NotMe {
                slot: slot as usize,
                cond: condition(cx, cond, role),
            },
            next,
        };
        return choice(cx, at, slot, ty, domain, walked, then);
    }
    let cond = condition(cx, cond, role);
    let then = Guarded {
        at: at_require,
        cond: counted_cond(cx, at_require, cond),
        next,
    };
    choice(cx, at, slot, ty, domain, walked, then)
}

/// Runs a clause's step (`at`: the action and the clause), stopping once the budget is
/// spent and naming the clause in the rules error if the work went over inside it (as
/// the tree walk does).
#[inline(always)]
pub(super) fn located(ev: &Eval, at: (u16, usize), body: impl FnOnce() -> bool) -> bool {
    if budget::spent() {
        return false;
    }
    let go_on = body();
    if budget::spent() {
        budget::locate_innermost(|| ev.eng.clause_text(at.0, at.1));
    }
    go_on
}

pub(super) fn let_(cx: &mut Cx, at: (u16, usize), slot: u16, value: &Expr, next: Step) -> Step {
    let slot = slot as usize;
    // The cells around or along lines from a cell (`let straight = slide(from, orthogonal)`):
    // listed into the list the local holds, where a list taken from the pool was stored
    // over it and that one given back; charged as `get`'s node for the call charges.
    let cells = (!cx.remembered(value))
        .then(|| values::CellsFrom::new(cx, value))
        .flatten();
    // A list only ever searched: never made, charged as making it would be (the call's
    // node, its cell's read, its length), the local left as it was (`line_lets.rs`).
    let line = cells.as_ref().and(cx.line_let(slot as u16));
    if let Some(cells) = cells {
        if let Some(line) = line {
            return Box::new(move |ev, l, f| {
                located(ev, at, || {
                    if budget::charge(1) {
                        cells.from(ev, l);
                        budget::list(line.count(ev, l));
                    }
                    next(ev, l, f)
                })
            });
        }
        return Box::new(move |ev, l, f| {
            located(ev, at, || {
                if !budget::charge(1) {
                    pool::set(&mut l[slot], Value::None);
                    return next(ev, l, f);
                }
                let c = cells.from(ev, l);
                if !matches!(l[slot], Value::List(_)) {
                    pool::set(&mut l[slot], Value::List(pool::take()));
                }
                if let Value::List(out) = &mut l[slot] {
                    out.drain(..).for_each(pool::recycle);
                    if let Some(c) = c {
                        cells.list(ev, c, out);
                    }
                    if !budget::list(out.len()) {
                        pool::set(&mut l[slot], Value::None);
                    }
                }
                next(ev, l, f)
            })
        });
    }
    let value = get(cx, value);
    Box::new(move |ev, l, f| {
        located(ev, at, || {
            let v = value(ev, l);
            pool::set(&mut l[slot], v);
            next(ev, l, f)
        })
    })
}

pub(super) fn require(cx: &mut Cx, at: (u16, usize), cond: &Expr, next: Step) -> Step {
    require_step(at, truth(cx, cond), next)
}

/// `require`, its condition compiled: a step of its own, judged as `Guarded` judges it.
pub(super) fn require_step(at: (u16, usize), cond: Cond, next: Step) -> Step {
    guarded_step(at, cond, Plain(next))
}

/// `require`, then `next`; or, where `record` is given (`next` is the step that records the
/// action and nothing more), the action recorded where the condition holds.
fn require_then(
    cx: &mut Cx,
    at: (u16, usize),
    cond: &Expr,
    next: Step,
    record: Option<Record>,
) -> Step {
    match record {
        Some(record) => guarded_step(at, truth(cx, cond), record),
        None => require(cx, at, cond, next),
    }
}

/// A `require`'s step: its condition, then what follows.
fn guarded_step<N: Then>(at: (u16, usize), cond: Cond, next: N) -> Step {
    let guarded = Guarded { at, cond, next };
    Box::new(move |ev, l, f| guarded.go(ev, l, f))
}

/// What a `choose` hands each choice to: the rest of the action's step, or a `require`
/// straight after it judged first, in the choice's loop (`Guarded`): the same condition,
/// charged and named as its own step would be, without a call to a step of its own.
pub(super) trait Then: Send + Sync + 'static {
    fn go(&self, ev: &Eval, l: &mut [Value], f: &mut OnAction<'_>) -> bool;
}

/// The rest of the action's step.
pub(super) struct Plain(pub(super) Step);

impl Then for Plain {
    #[inline(always)]
    fn go(&self, ev: &Eval, l: &mut [Value], f: &mut OnAction<'_>) -> bool {
        (self.0)(ev, l, f)
    }
}

/// The action complete: its choices, read from their slots (`run`, side by side: see
/// `action`), handed to the listing. The last step of every action's plan, and what a
/// `choose` or `require` straight before it hands on to in place of a call to that step.
#[derive(Clone)]
pub(super) struct Record {
    a: u16,
    run: std::ops::Range<usize>,
}

impl Then for Record {
    #[inline(always)]
    fn go(&self, _: &Eval, l: &mut [Value], f: &mut OnAction<'_>) -> bool {
        !budget::spent() && f.offer(self.a, &l[self.run.clone()])
    }
}

/// A `require` (where it stands in the rules, and its condition), then the rest. The
/// condition is the compiled one (`Cond`), or one judged in place (`Judge`: `NotMe`).
pub(super) struct Guarded<N, C = Cond> {
    at: (u16, usize),
    cond: C,
    next: N,
}

impl<N: Then, C: Judge> Then for Guarded<N, C> {
    #[inline(always)]
    fn go(&self, ev: &Eval, l: &mut [Value], f: &mut OnAction<'_>) -> bool {
        located(ev, self.at, || {
            !self.cond.holds(ev, l) || self.next.go(ev, l, f)
        })
    }
}

/// A `require`'s condition as `Guarded` judges it: compiled (`Cond`, a call), or a form
/// judged where it stands, charged as its compiled condition charges.
pub(super) trait Judge: Send + Sync + 'static {
    fn holds(&self, ev: &Eval, l: &mut [Value]) -> bool;
}

impl Judge for Cond {
    #[inline(always)]
    fn holds(&self, ev: &Eval, l: &mut [Value]) -> bool {
        self(ev, l)
    }
}

/// That the seat just chosen is not the one deciding (`require target != me` straight
/// after `choose target in seats`): two seats compared where they stand, as `pair`
/// compares them (the node and both operands charged at once), without a call; anything
/// but a seat in the choice's local is judged by the condition compiled (`cond`).
pub(super) struct NotMe {
    slot: usize,
    cond: Cond,
}

impl Judge for NotMe {
    #[inline(always)]
    fn holds(&self, ev: &Eval, l: &mut [Value]) -> bool {
        match l[self.slot] {
            Value::Seat(p) => budget::charge(3) && p != ev.me,
            _ => (self.cond)(ev, l),
        }
    }
}

/// Whether `cond` is `x != me` (or `me != x`) of the local `slot`.
fn not_me(cond: &Expr, slot: u16) -> bool {
    match cond {
        Expr::Binary(BinOp::Ne, a, b) => matches!(
            (&**a, &**b),
            (Expr::Local(s), Expr::Me) | (Expr::Me, Expr::Local(s)) if *s == slot
        ),
        _ => false,
    }
}

/// A `require`'s condition compiled for its role: a pruning one's (`subsets::judge`,
/// compiled) judges its parts joined by `and` in order (`subsets::judged`), saying when
/// one of the `first` fails; any other's is `truth`'s.
fn condition(cx: &mut Cx, cond: &Expr, role: Role) -> Cond {
    let Role::Require(first) = role else {
        return truth(cx, cond);
    };
    let (ands, parts) = subsets::conjuncts(cond);
    let parts: Vec<Cond> = parts.into_iter().map(|p| truth(cx, p)).collect();
    Box::new(move |ev, l| subsets::judged(ands, first, parts.iter().map(|p| p(ev, l))))
}

/// An action's `choose`: subsets (`walked`) as `each_subset` makes them, pruned by the
/// `require`s after them where those prune, any other domain as `choose` walks it.
fn choice<T: Then>(
    cx: &mut Cx,
    at: (u16, usize),
    slot: u16,
    ty: &Type,
    domain: &Expr,
    walked: bool,
    next: T,
) -> Step {
    match domain {
        Expr::Call(Builtin::Subsets, args) if walked => walked_choose(cx, at, slot, args, next),
        _ => choose(cx, at, slot, ty, domain, next),
    }
}

/// `choose x in subsets(args)` walked and pruned (`Engine::each_subset`): each subset
/// lent to the local (`pool::lend`: no copy of it), then handed on, as the tree walk
/// hands it on.
fn walked_choose<T: Then>(
    cx: &mut Cx,
    at: (u16, usize),
    slot: u16,
    args: &[Expr],
    next: T,
) -> Step {
    let slot = slot as usize;
    // The arguments compiled: the items walked, then the two sizes, as `eval` finds them.
    let (items, lo, hi) = (
        each(cx, &args[0]),
        numbers::number(cx, &args[1]),
        numbers::number(cx, &args[2]),
    );
    Box::new(move |ev, l, f| {
        located(ev, at, || {
            let mut go_on = true;
            let mut sizes = |ev: &Eval, l: &mut [Value]| (lo(ev, l), hi(ev, l));
            ev.eng.each_subset_of(
                ev,
                l,
                &mut |ev, l, put| items(ev, l, put),
                &mut sizes,
                &mut |cur, l| {
                    go_on = pool::lend(slot, l, cur, |l| next.go(ev, l, f));
                    go_on
                },
            );
            go_on
        })
    })
}

/// The choices that pass the `require` straight after a `choose`, that condition judged
/// for all the cells at once (`masks::Filter::guard`): a walk of cells as `Choose` takes
/// one.
pub(super) struct Passing(masks::Filter);

impl Cells for Passing {
    #[inline(always)]
    fn walk<F: FnMut(u16, &mut [Value]) -> bool>(&self, ev: &Eval, l: &mut [Value], f: &mut F) {
        self.0.guard(ev, l, f)
    }
}

/// A choice that passed its `require` (`Passing`), then the rest, the rest named as the
/// `require`'s step as `Guarded` names it.
pub(super) struct Passed<N> {
    at: (u16, usize),
    next: N,
}

impl<N: Then> Then for Passed<N> {
    /// `located`, written out: handed a closure, the compiler left the closure's body
    /// apart, a call for each choice (1.3% more instructions where pairs are walked most).
    #[inline(always)]
    fn go(&self, ev: &Eval, l: &mut [Value], f: &mut OnAction<'_>) -> bool {
        if budget::spent() {
            return false;
        }
        let go_on = self.next.go(ev, l, f);
        if budget::spent() {
            budget::locate_innermost(|| ev.eng.clause_text(self.at.0, self.at.1));
        }
        go_on
    }
}

/// A `choose` over a walk of cells (`with_cells`): each cell written into the choice's
/// local in place (no twins among cells), then handed on.
pub(super) struct Choose<T> {
    at: (u16, usize),
    slot: usize,
    next: T,
}

impl<T: Then> CellsTo<Step> for Choose<T> {
    fn to<C: Cells>(self, _: &mut Cx, cells: C) -> Step {
        let Choose { at, slot, next } = self;
        Box::new(move |ev, l, f| {
            located(ev, at, || {
                let mut go_on = true;
                cells.walk(ev, l, &mut |c, l: &mut [Value]| {
                    pool::set(&mut l[slot], Value::Cell(c));
                    go_on = next.go(ev, l, f);
                    go_on
                });
                go_on
            })
        })
    }
}

/// `choose`: each item of the domain in turn, as the tree walk offers it. Twin
/// components in one place are one choice: only the first is offered. `ty` is the type
/// of the chosen local.
pub(super) fn choose<T: Then>(
    cx: &mut Cx,
    at: (u16, usize),
    slot: u16,
    ty: &Type,
    domain: &Expr,
    next: T,
) -> Step {
    let slot = slot as usize;
    // A list written in the rules, with no components: a plain loop.
    if let Expr::Const(Value::List(items)) = domain {
        if !items.iter().any(|v| matches!(v, Value::Comp(_))) {
            let items = items.clone();
            return Box::new(move |ev, l, f| {
                located(ev, at, || {
                    let mut go_on = true;
                    for v in &items {
                        if !budget::charge(1) {
                            break;
                        }
                        // A direction or number over the last one, in place.
                        pool::assign(&mut l[slot], v);
                        go_on = next.go(ev, l, f);
                        if !go_on {
                            break;
                        }
                    }
                    go_on
                })
            });
        }
    }
    // The seats still in the game, in order, in one loop (`each_seat`): `choose target in
    // seats`.
    if matches!(domain, Expr::Seats) && !cx.remembered(domain) {
        return Box::new(move |ev, l, f| {
            located(ev, at, || {
                let mut go_on = true;
                each_seat(ev, l, slot, |_, l| {
                    go_on = next.go(ev, l, f);
                    go_on
                });
                go_on
            })
        });
    }
    // Cells: each written into the local in place (no twins among cells).
    let next = match with_cells(cx, domain, Choose { at, slot, next }) {
        Ok(step) => return step,
        Err(Choose { next, .. }) => next,
    };
    // How far a run can shift: walked here, each distance written into the local in
    // place, as `each` walks it (the node, the run and the direction, then each item).
    if let Expr::Call(Builtin::Shifts, a) = domain {
        if !cx.remembered(domain) {
            let shifts = Shifts::new(cx, a);
            let words = geometry::WordSteps::new(cx.board);
            return Box::new(move |ev, l, f| {
                located(ev, at, || {
                    let Some((run, d)) = shifts.read(ev, l) else {
                        return true;
                    };
                    shifted(ev, l, f, run, d, false, slot, &next, words.as_ref())
                })
            });
        }
    }
    // Twins are components: a choice of any other type (numbers, runs, seats, lists) has
    // none to pass over.
    let twins = matches!(ty, Type::Comp | Type::Nothing | Type::Unknown);
    // A list in a local: its items written into the choice's local one at a time, each
    // charged as `for_each` charges it (a cell in place); anything but a list is walked
    // as `for_each` walks it.
    if let (Expr::Local(from), false) = (domain, twins) {
        let (from, domain) = (*from as usize, domain.clone());
        return Box::new(move |ev, l, f| {
            located(ev, at, || {
                let mut go_on = true;
                local_items(ev, l, (from, &domain), slot, |l| {
                    go_on = next.go(ev, l, f);
                    go_on
                });
                go_on
            })
        });
    }
    // A zone (`choose card in hand(me)`): found as its node finds it and charged as that
    // node is, then its components read where they stand, each charged as `each` walks
    // it; a zone holds each component once (see `Engine::offered_again`).
    if let (Expr::Zone(z, seat, number), true) = (domain, twins) {
        if !cx.remembered(domain) {
            let zone = ZoneArg::new(cx, *z, seat.as_deref(), number.as_deref());
            return Box::new(move |ev, l, f| {
                located(ev, at, || {
                    let Some(items) = zone.items(ev, l) else {
                        return true;
                    };
                    let mut offered: SmallVec<[u16; 16]> = SmallVec::new();
                    offer_each(
                        ev,
                        l,
                        f,
                        slot,
                        &next,
                        items.iter().copied(),
                        Value::Comp,
                        |c| !ev.eng.offered_again(ev.s, &mut offered, c, true),
                    )
                })
            });
        }
    }
    // A range of numbers (`choose n in 0..hand_size`): its ends compiled, then counted
    // out in one loop, as `each` counts them (anything but two numbers as `..` makes it).
    if let (Expr::Binary(BinOp::Range, a, b), false) = (domain, twins) {
        if !cx.remembered(domain) {
            let (a, b) = (get(cx, a), get(cx, b));
            return Box::new(move |ev, l, f| {
                located(ev, at, || {
                    let (x, y) = (a(ev, l), b(ev, l));
                    if let (&Value::Int(lo), &Value::Int(hi)) = (&x, &y) {
                        return !crate::engine::eval::range_fits(lo, hi)
                            || offer_each(ev, l, f, slot, &next, lo..=hi, Value::Int, |_| true);
                    }
                    let mut go_on = true;
                    ev.each_in_range(x, y, l, &mut |v, l| {
                        pool::set(&mut l[slot], v);
                        go_on = next.go(ev, l, f);
                        go_on
                    });
                    go_on
                })
            });
        }
    }
    let each = each(cx, domain);
    if !twins {
        return Box::new(move |ev, l, f| {
            located(ev, at, || {
                let mut go_on = true;
                each(ev, l, &mut |v, l| {
                    pool::set(&mut l[slot], v);
                    go_on = next.go(ev, l, f);
                    go_on
                });
                go_on
            })
        });
    }
    // A zone holds each component once (see `Engine::offered_again`).
    let distinct = matches!(domain, Expr::Zone(..));
    Box::new(move |ev, l, f| {
        located(ev, at, || {
            let mut go_on = true;
            let mut offered: SmallVec<[u16; 16]> = SmallVec::new();
            each(ev, l, &mut |v, l| {
                if let Value::Comp(c) = v {
                    if ev.eng.offered_again(ev.s, &mut offered, c, distinct) {
                        return true;
                    }
                }
                pool::set(&mut l[slot], v);
                go_on = next.go(ev, l, f);
                go_on
            });
            go_on
        })
    })
}

/// Each item in turn written into the choice's local (`slot`) and the rest of the action
/// listed for it, each charged as `each` walks it, while the listing goes on; an item
/// `fresh` turns down is passed over after its step (a twin offered already): a zone's
/// components, a range's numbers. Whether the listing goes on.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn offer_each<I: Copy, T: Then>(
    ev: &Eval,
    l: &mut [Value],
    f: &mut OnAction<'_>,
    slot: usize,
    next: &T,
    items: impl Iterator<Item = I>,
    value: impl Fn(I) -> Value,
    mut fresh: impl FnMut(I) -> bool,
) -> bool {
    let mut go_on = true;
    for x in items {
        if !budget::charge(1) {
            break;
        }
        if !fresh(x) {
            continue;
        }
        pool::set(&mut l[slot], value(x));
        go_on = next.go(ev, l, f);
        if !go_on {
            break;
        }
    }
    go_on
}

/// The items of a collection held in the local `from` (`domain`, the local's expression),
/// each written into the local `slot` in turn, then `go` called, while it says to go on.
/// A list is walked in place, each item charged as `for_each` charges it (a cell written
/// as a number); anything else is walked by `for_each`.
#[inline(always)]
pub(super) fn local_items(
    ev: &Eval,
    l: &mut [Value],
    (from, domain): (usize, &Expr),
    slot: usize,
    mut go: impl FnMut(&mut [Value]) -> bool,
) {
    let Value::List(items) = &l[from] else {
        ev.for_each(domain, l, &mut |v, l| {
            pool::set(&mut l[slot], v);
            go(l)
        });
        return;
    };
    for i in 0..items.len() {
        if !budget::charge(1) {
            return;
        }
        let Value::List(items) = &l[from] else {
            return;
        };
        match items[i] {
            Value::Cell(c) => pool::set(&mut l[slot], Value::Cell(c)),
            ref v => {
                let v = pool::dup(v);
                pool::set(&mut l[slot], v);
            }
        }
        if !go(l) {
            return;
        }
    }
}

/// Each distance the run can shift by in direction `d`, written into the local `slot` in
/// place, the rest of the action listed for each (each distance charged, as `each` walks
/// it). `first_free`: the run's first step in `d` is known to be free. On a board whose
/// steps are shifts of a word (`words`), how far it goes is found for the whole run at
/// once.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn shifted(
    ev: &Eval,
    l: &mut [Value],
    f: &mut OnAction<'_>,
    run: (u16, u8, u8),
    d: u8,
    first_free: bool,
    slot: usize,
    next: &impl Then,
    words: Option<&geometry::WordSteps>,
) -> bool {
    if let Some((w, cells)) = words.and_then(|w| Some((w, w.run(run)?))) {
        let occupied = ev.s.occupied_word(None);
        return distances(ev, l, f, w.farthest(cells, occupied, d), slot, next);
    }
    let (board, occ) = (&ev.eng.game.board, &ev.s.cells);
    let mut go_on = true;
    geometry::shifts_of(board, occ, run, d, first_free, &mut |v| {
        if !budget::charge(1) {
            return false;
        }
        pool::set(&mut l[slot], v);
        go_on = next.go(ev, l, f);
        go_on
    });
    go_on
}

/// The distances 1 to `far`, each written into the local `slot` in place and the rest of
/// the action listed for it, each charged as `each` walks it: `shifted`, once how far the
/// run goes is known. False if the listing is to stop (a budget spent stops it, but
/// answers true, as `shifted` does).
#[inline(always)]
fn distances(
    ev: &Eval,
    l: &mut [Value],
    f: &mut OnAction<'_>,
    far: usize,
    slot: usize,
    next: &impl Then,
) -> bool {
    for k in 1..=far {
        if !budget::charge(1) {
            return true;
        }
        pool::set(&mut l[slot], Value::Int(k as i64));
        if !next.go(ev, l, f) {
            return false;
        }
    }
    true
}

/// `choose a in CELLS`, `choose b in adjacent(a, DIRS)` (or `sight(a, DIRS)`) and the
/// `require` after it, ending at clause `last`, where its condition is judged a direction
/// at a time for the whole board (`masks::Pairs`): one step for the three, the condition
/// judged once a listing rather than once for each `a`. A `require` straight after the
/// outer `choose` is judged with it, as a set (`masks::Filter`). Each clause is charged
/// and located as its own step is. The fusion's first clause, or `None` if the clauses
/// are not of that shape.
pub(super) fn pairs(
    cx: &mut Cx,
    a: u16,
    last: usize,
    clauses: &[Clause],
) -> Option<(usize, Fusion)> {
    let (
        Clause::Choose {
            slot: bslot,
            domain: inner @ Expr::Call(Builtin::Adjacent | Builtin::Sight, args),
            ..
        },
        Clause::Require {
            cond,
            afterwards: false,
            ..
        },
    ) = (clauses.get(last.checked_sub(1)?)?, clauses.get(last)?)
    else {
        return None;
    };
    // The outer `choose`, with its own `require` between the two if there is one.
    let (p, outer_require) = match clauses.get(last.checked_sub(2)?)? {
        Clause::Require {
            cond,
            afterwards: false,
            ..
        } => (last.checked_sub(3)?, Some(cond)),
        _ => (last - 2, None),
    };
    let Clause::Choose {
        slot: aslot,
        domain: outer,
        ..
    } = &clauses[p]
    else {
        return None;
    };
    // Neither choice is a walk of subsets (`Role::Choose`): the outer one is a walk of
    // cells, the inner one `adjacent` or `sight`.
    if cx.count_clauses || !matches!(args[0], Expr::Local(s) if s == *aslot) {
        return None;
    }
    let pairs = masks::Pairs::new(cx, inner, (*aslot as usize, *bslot), cond)?;
    let at = (a, p, last);
    let fusion = match outer_require {
        None => pair_steps::<_, false>(at, CellWalk::new(cx, outer)?, pairs, *bslot),
        Some(q) => {
            let filter = masks::Filter::new(cx, outer, *aslot, q)?;
            pair_steps::<_, true>(at, Passing(filter), pairs, *bslot)
        }
    };
    cx.pairs_by_direction += 1;
    Some((p, fusion))
}

/// The step of `pairs`' clauses (those of action `a` from `p` to `last`), the outer cells
/// walked by `outer` (after the outer `require` where there is one: `GUARDED`, `Passing`).
fn pair_steps<C: Cells, const GUARDED: bool>(
    (a, p, last): (u16, usize, usize),
    outer: C,
    pairs: masks::Pairs,
    bslot: u16,
) -> Fusion {
    Box::new(move |after: After| -> Step {
        for_after!(after, |next| {
            let next = Passed {
                at: (a, last),
                next,
            };
            let walk = PairWalk {
                at: (a, p, last),
                outer,
                pairs,
                bslot: bslot as usize,
                next,
            };
            Box::new(move |ev, l, f| {
                located(ev, (a, p), || {
                    let table = walk.pairs.table(ev, l);
                    // The cells paired, a neighbour or the first occupied cell each way,
                    // told apart once a listing.
                    match walk.pairs.lines() {
                        None => walk.each::<GUARDED>(ev, l, f, &table, |a, _, step| {
                            masks::adjacent_to(a, step)
                        }),
                        Some(lines) => walk.each::<GUARDED>(ev, l, f, &table, |a, d, _| {
                            masks::sight_to(lines, &table, a, d)
                        }),
                    }
                })
            })
        })
    })
}

/// What `pair_steps` walks: the clauses' places (see `pairs`), the outer cells, the pairs,
/// the inner choice's local, and what follows the inner `require`.
struct PairWalk<C, N> {
    at: (u16, usize, usize),
    outer: C,
    pairs: masks::Pairs,
    bslot: usize,
    next: N,
}

impl<C: Cells, N: Then> PairWalk<C, N> {
    /// Each outer cell, then each cell paired with it that passes (`to`: see
    /// `masks::Pairs::walk`), the rest listed for each, while the listing goes on.
    #[inline(always)]
    fn each<const GUARDED: bool>(
        &self,
        ev: &Eval,
        l: &mut [Value],
        f: &mut OnAction<'_>,
        table: &masks::Table,
        to: impl Fn(u16, usize, (u64, i32)) -> (u64, u32) + Copy,
    ) -> bool {
        let (a, p, last) = self.at;
        let aslot = self.pairs.slot();
        let mut go_on = true;
        self.outer.walk(ev, l, &mut |c, l: &mut [Value]| {
            pool::set(&mut l[aslot], Value::Cell(c));
            let mut inner = |l: &mut [Value]| {
                located(ev, (a, last - 1), || {
                    let mut go_on = true;
                    let hand_on = &mut |b, l: &mut [Value]| {
                        pool::set(&mut l[self.bslot], Value::Cell(b));
                        go_on = self.next.go(ev, l, f);
                        go_on
                    };
                    self.pairs.walk(l, table, c, hand_on, to);
                    go_on
                })
            };
            // The outer `require`'s step names it, as `Passed` does.
            go_on = match GUARDED {
                true => located(ev, (a, p + 1), || inner(l)),
                false => inner(l),
            };
            go_on
        });
        go_on
    }
}

/// `choose d in DIRS` (directions written in the rules) straight followed by `choose k in
/// shifts(run, d)`: one step for both, each direction's shifts walked where the direction
/// is chosen rather than through the next clause's step. The two clauses are charged and
/// located as their own steps are. `None` if the clauses are not of that shape.
pub(super) fn dirs_then_shifts(
    cx: &mut Cx,
    a: u16,
    i: usize,
    clauses: &[Clause],
) -> Option<Fusion> {
    let (dirs, sargs) = Dirs::new(cx, a, i, clauses)?;
    let (dslot, kslot) = (dirs.dslot, dirs.kslot);
    let shifts = Shifts {
        line: Arg::new(cx, &sargs[0]),
        dir: Arg::Local(dslot),
    };
    Some(Box::new(move |after: After| -> Step {
        for_after!(after, |next| Box::new(move |ev, l, f| {
            located(ev, (a, i), || {
                // A run where it stands (a local: the common case): read once for every
                // direction (`Dirs::each`). A computed run, which may read the direction,
                // is read for each direction after it is written (below).
                if let Some(run) = shifts.run_in_place(l) {
                    let occupied = ev.s.occupied_word(None);
                    return dirs.each(ev, l, f, (run, None), occupied, &next);
                }
                let mut go_on = true;
                for &d in &dirs.dirs {
                    if !budget::charge(1) {
                        break;
                    }
                    pool::set(&mut l[dslot], Value::Dir(d));
                    go_on = located(ev, (a, i + 1), || {
                        match shifts.read(ev, l).map(|(run, _)| run) {
                            Some(run) => {
                                shifted(ev, l, f, run, d, false, kslot, &next, dirs.words.as_ref())
                            }
                            None => true,
                        }
                    });
                    if !go_on {
                        break;
                    }
                }
                go_on
            })
        }))
    }))
}

/// `choose run in runs(CELLS, DIRS)` straight followed by `dirs_then_shifts`' two clauses,
/// shifting that run: the three in one loop, each run written into its local and its
/// directions and distances walked where it is made (`Dirs::each`), with the occupied
/// cells read once for the walk. Each clause is charged and located as its own steps
/// are. `None` if the clauses are not of that shape, or where clauses count their own
/// steps.
pub(super) fn runs_dirs_shifts(
    cx: &mut Cx,
    a: u16,
    i: usize,
    clauses: &[Clause],
) -> Option<Fusion> {
    let Clause::Choose {
        slot: rslot,
        domain: runs @ Expr::Call(Builtin::Runs, rargs),
        ..
    } = clauses.get(i)?
    else {
        return None;
    };
    if cx.count_clauses || cx.remembered(runs) || !matches!(rargs[1], Expr::Const(_)) {
        return None;
    }
    // The two clauses after it as `dirs_then_shifts` takes them, shifting the run.
    let (dirs, sargs) = Dirs::new(cx, a, i + 1, clauses)?;
    if !matches!(sargs[0], Expr::Local(s) if s == *rslot) {
        return None;
    }
    let (rslot, runs) = (*rslot as usize, Runs::new(cx, rargs));
    Some(Box::new(move |after: After| -> Step {
        for_after!(after, |next| Box::new(move |ev, l, f| {
            located(ev, (a, i), || {
                let occupied = ev.s.occupied_word(None);
                let mut go_on = true;
                let mut one =
                    |run: (u16, u8, u8), cells: Option<u64>, stuck: bool, l: &mut [Value]| {
                        // A run that cannot take a step in any of the directions (most of
                        // a packed block's) lists nothing: its own step and its directions'
                        // are charged at once, where the budget has room for them all.
                        if stuck && dirs.charge_stuck(1) {
                            return true;
                        }
                        // The run's step, as `each` charges it.
                        if !budget::charge(1) {
                            return false;
                        }
                        let (start, dir, len) = run;
                        pool::set(&mut l[rslot], Value::Line { start, dir, len });
                        go_on = located(ev, (a, i + 1), || {
                            dirs.each(ev, l, f, (run, cells), occupied, &next)
                        });
                        go_on
                    };
                // On a board whose steps are shifts of a word, each run is found with
                // its cells and whether it is stuck, and stuck runs one after another
                // are charged at once where the budget has room for them all.
                let by_words = (dirs.words.as_ref()).is_some_and(|w| {
                    runs.each_word(
                        ev,
                        l,
                        (w, &dirs.dirs),
                        &mut |v, c, stuck, l| one(v, Some(c), stuck, l),
                        &mut |n| dirs.charge_stuck(n),
                    )
                });
                if !by_words {
                    // Not judged stuck here: each direction is walked and charged.
                    runs.each(ev, l, &mut |v, l| one(v, None, false, l));
                }
                go_on
            })
        }))
    }))
}

/// What a direction of `Dirs` costs before its distances: the direction's step, then the
/// `shifts` node's three (the node and its two operands), as the tree walk charges them.
const DIR_STEPS: i64 = 4;

/// The directions of `choose d in DIRS` and the distances of the `choose k in shifts(run,
/// d)` after it (`dirs_then_shifts`), for a run known before the directions are chosen.
struct Dirs {
    /// The action, and where its `choose d` stands (the `shifts` stands after it).
    a: u16,
    i: usize,
    dirs: Vec<u8>,
    dslot: usize,
    kslot: usize,
    /// The board's steps as shifts of a word, if they are.
    words: Option<geometry::WordSteps>,
}

impl Dirs {
    /// `choose d in DIRS` at clause `i` of action `a` (directions written in the rules),
    /// straight followed by `choose k in shifts(run, d)` with the run not the direction:
    /// the two, with the arguments of `shifts`. `None` if the clauses are not of that
    /// shape.
    fn new<'c>(cx: &mut Cx, a: u16, i: usize, clauses: &'c [Clause]) -> Option<(Dirs, &'c [Expr])> {
        let (
            Clause::Choose {
                slot: dslot,
                domain: Expr::Const(Value::List(items)),
                ..
            },
            Clause::Choose {
                slot: kslot,
                domain: shifts @ Expr::Call(Builtin::Shifts, sargs),
                ..
            },
        ) = (clauses.get(i)?, clauses.get(i + 1)?)
        else {
            return None;
        };
        let dirs: Vec<u8> = items
            .iter()
            .map(|v| match v {
                Value::Dir(d) => Some(*d),
                _ => None,
            })
            .collect::<Option<_>>()?;
        let (dslot, kslot) = (*dslot as usize, *kslot as usize);
        if !matches!(sargs[1], Expr::Local(s) if s as usize == dslot)
            || matches!(sargs[0], Expr::Local(s) if s as usize == dslot)
            || cx.remembered(shifts)
        {
            return None;
        }
        let words = geometry::WordSteps::new(cx.board);
        let dirs = Dirs {
            a,
            i,
            dirs,
            dslot,
            kslot,
            words,
        };
        Some((dirs, sargs))
    }

    /// Charges `n` runs stuck (that can take a step in none of the directions: see
    /// `WordSteps::runs`): each one's step and its directions', as the caller and `each`
    /// would charge them, at once, where the budget has room for them all; false (nothing
    /// charged) where it has not: `each` then charges them a direction at a time, and
    /// names the clause where they run out.
    #[inline(always)]
    fn charge_stuck(&self, n: u64) -> bool {
        let steps = n as i64 * (1 + DIR_STEPS * self.dirs.len() as i64);
        budget::left() >= steps && budget::charge(steps as u64)
    }

    /// Each direction, then each distance `run` can shift by in it, the rest of the action
    /// listed for each; `occupied`: the occupied cells, on a board whose steps are shifts
    /// of a word (and `cells` the run's, where the caller found them). A direction the
    /// run cannot take a step in is passed over before anything is written; the
    /// direction's node and the `shifts` node with its two operands are charged at once,
    /// as `read` charges them.
    #[inline(always)]
    fn each(
        &self,
        ev: &Eval,
        l: &mut [Value],
        f: &mut OnAction<'_>,
        (run, cells): ((u16, u8, u8), Option<u64>),
        occupied: u64,
        next: &impl Then,
    ) -> bool {
        let mut go_on = true;
        let (board, occ) = (&ev.eng.game.board, &ev.s.cells);
        // On a board whose steps are shifts of a word, the run's cells are taken once for
        // every direction (or handed in as they were found: `cells`).
        let word = (self.words.as_ref()).and_then(|w| Some((w, cells.or_else(|| w.run(run))?)));
        for &d in &self.dirs {
            // The direction's step, then the `shifts` node's three, charged at once: where
            // that goes over, the second part is where the tree walk's would have, unless
            // not even the first fitted (then the caller names the directions' clause).
            let before = budget::left();
            if !budget::charge(DIR_STEPS as u64) {
                if before >= 1 {
                    budget::locate_innermost(|| ev.eng.clause_text(self.a, self.i + 1));
                }
                break;
            }
            if let Some((w, cells)) = word {
                let far = w.farthest(cells, occupied, d);
                if far == 0 {
                    continue;
                }
                pool::set(&mut l[self.dslot], Value::Dir(d));
                go_on = distances(ev, l, f, far, self.kslot, next);
            } else {
                if geometry::first_step_blocked(board, occ, run, d) {
                    continue;
                }
                pool::set(&mut l[self.dslot], Value::Dir(d));
                go_on = shifted(ev, l, f, run, d, true, self.kslot, next, None);
            }
            if budget::spent() {
                budget::locate_innermost(|| ev.eng.clause_text(self.a, self.i + 1));
            }
            if !go_on {
                break;
            }
        }
        go_on
    }
}
