//! What listing each action costs, and applying it (`muster bench --by-action`): for a
//! designer who wants to know which rule a game's time goes to. Off unless a query asks
//! for it, and then only for that query; the count lives per thread, as the budget's does.
//!
//! Finer, what each clause of an action costs in listing (`muster bench --by-clause`): an
//! engine made by `Engine::counting_clauses` has plans whose clauses count their own
//! evaluation steps (those of the clauses after them left out), added up per thread until
//! `take_clause_costs`. Steps, not time: a count a clock would spoil, the same on every
//! machine. Other engines' plans have no such count in them, and pay nothing for it.

use super::budget;
use super::legal::OnAction;
use super::plan::{Cond, Step};
use super::state::State;
use super::{Engine, EngineError};
use std::cell::{Cell, RefCell};
use std::time::Instant;

/// What listing one action cost, summed over the queries that asked it for its actions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ActionCost {
    /// How many times the action was asked for its legal actions.
    pub listings: u64,
    /// The time those listings took, in nanoseconds.
    pub nanos: u64,
    /// The evaluation steps they took, of the decisions' budgets (`budget::MAX_WORK`).
    pub steps: u64,
    /// The legal actions they found.
    pub listed: u64,
    /// How many times the action was applied (with all that followed until the next
    /// decision: reactions' effects aside, its turn's end, the next turn's start).
    pub applied: u64,
    /// The time those applications took, in nanoseconds.
    pub apply_nanos: u64,
    /// The evaluation steps they took.
    pub apply_steps: u64,
}

/// What one clause of an action cost in listing legal actions, summed: how often its
/// step ran (for a `require` judged in its `choose`'s loop, how often it was judged) and
/// the evaluation steps it took itself, the clauses after it left out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClauseCost {
    pub action: u16,
    /// The clause's place among the action's clauses, from 0.
    pub clause: u16,
    pub runs: u64,
    pub steps: u64,
}

thread_local! {
    static ON: Cell<bool> = const { Cell::new(false) };
    static COSTS: RefCell<Vec<ActionCost>> = const { RefCell::new(Vec::new()) };
    /// The clauses counted so far on this thread, by (action, clause).
    static CLAUSES: RefCell<std::collections::BTreeMap<(u16, u16), ClauseCost>> =
        const { RefCell::new(std::collections::BTreeMap::new()) };
    /// For each counted clause under way, innermost last: the steps taken so far by the
    /// counted clauses inside it, to be left out of its own.
    static OPEN: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
}

/// `step`, counting its own steps as clause `at` (see the module).
pub(crate) fn counted_step(at: (u16, usize), step: Step) -> Step {
    Box::new(move |ev, l, f| counted(at, || step(ev, l, f)))
}

/// `cond`, a `require` judged apart from a step of its own (in its `choose`'s loop, or at
/// the `do` for `require afterwards`), counting its steps as clause `at`.
pub(crate) fn counted_cond(at: (u16, usize), cond: Cond) -> Cond {
    Box::new(move |ev, l| counted(at, || cond(ev, l)))
}

fn counted<R>(at: (u16, usize), body: impl FnOnce() -> R) -> R {
    let before = budget::work();
    OPEN.with_borrow_mut(|o| o.push(0));
    let r = body();
    let after = budget::work();
    let inner = OPEN.with_borrow_mut(|o| o.pop()).unwrap_or(0);
    // Nothing is counted once the budget is spent (`work` is then `u64::MAX`).
    let total = if after == u64::MAX || before == u64::MAX {
        0
    } else {
        after.saturating_sub(before)
    };
    OPEN.with_borrow_mut(|o| {
        if let Some(outer) = o.last_mut() {
            *outer += total;
        }
    });
    CLAUSES.with_borrow_mut(|m| {
        let c = m.entry((at.0, at.1 as u16)).or_insert(ClauseCost {
            action: at.0,
            clause: at.1 as u16,
            ..ClauseCost::default()
        });
        c.runs += 1;
        c.steps += total.saturating_sub(inner);
    });
    r
}

/// The clause costs counted on this thread since the last call, by action and clause
/// (see the module); the count starts again from nothing.
pub fn take_clause_costs() -> Vec<ClauseCost> {
    CLAUSES.with_borrow_mut(|m| std::mem::take(m).into_values().collect())
}

impl Engine {
    /// `try_legal_into`, adding what listing each action took to `costs` (indexed by
    /// action, grown to the game's actions).
    pub fn try_legal_into_profiled(
        &self,
        s: &State,
        out: &mut super::Listed,
        costs: &mut Vec<ActionCost>,
    ) -> Result<(), EngineError> {
        if costs.len() < self.game.actions.len() {
            costs.resize(self.game.actions.len(), ActionCost::default());
        }
        COSTS.with_borrow_mut(|c| std::mem::swap(c, costs));
        ON.set(true);
        let r = self.try_legal_into(s, out);
        ON.set(false);
        COSTS.with_borrow_mut(|c| std::mem::swap(c, costs));
        r
    }
}

impl Engine {
    /// `apply_listed`, adding what applying the action took to `costs` (see
    /// `try_legal_into_profiled`).
    pub fn apply_listed_profiled(
        &self,
        s: &mut State,
        act: &super::Action,
        costs: &mut Vec<ActionCost>,
    ) -> Result<(), EngineError> {
        if costs.len() < self.game.actions.len() {
            costs.resize(self.game.actions.len(), ActionCost::default());
        }
        let start = Instant::now();
        let (r, steps) = self.apply_listed_and_work(s, act);
        let nanos = start.elapsed().as_nanos() as u64;
        if let Some(c) = costs.get_mut(act.action as usize) {
            c.applied += 1;
            c.apply_nanos += nanos;
            c.apply_steps += steps;
        }
        r
    }
}

/// Whether a profiled query is under way on this thread (see `listing`).
#[inline]
pub(crate) fn on() -> bool {
    ON.get()
}

/// Lists action `a` by `list`, passing each legal action on to `f`, and counts what it
/// took when a profiled query is under way.
#[inline]
pub(crate) fn listing(
    a: u16,
    f: &mut OnAction<'_>,
    list: impl FnOnce(&mut OnAction<'_>) -> bool,
) -> bool {
    if !ON.get() {
        return list(f);
    }
    let (start, work) = (Instant::now(), budget::work());
    let mut listed = 0;
    let go_on = list(&mut OnAction::Call(&mut |b, args| {
        listed += 1;
        f.offer(b, args)
    }));
    let nanos = start.elapsed().as_nanos() as u64;
    let steps = budget::work().saturating_sub(work);
    COSTS.with_borrow_mut(|c| {
        if let Some(c) = c.get_mut(a as usize) {
            c.listings += 1;
            c.nanos += nanos;
            c.steps += steps;
            c.listed += listed;
        }
    });
    go_on
}
