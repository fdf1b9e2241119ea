//! Legal actions: enumerating every way to fill an action's `choose` clauses that passes
//! its `require`s, and applying one.

use super::budget::{self, Decision};
use super::effects::{Runner, Touched, Trial};
use super::eval::Eval;
use super::plan::Applied;
use super::state::State;
use super::subsets::Role;
use super::{code, Engine, EngineError};
use crate::ir::{Clause, Expr, StepMode, Value};
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

/// Built-in action ids: end a repeated step, or skip an optional one.
pub const DONE: u16 = u16::MAX;
pub const SKIP: u16 = u16::MAX - 1;

/// The most actions one turn may take, reactions included. Far above what any turn
/// needs; it stops rules under which a turn never ends (a `loop` step whose actions never
/// end the turn, reactions that keep starting one another) with a rules error.
pub const MAX_ACTIONS_PER_TURN: u32 = 100_000;

/// ` (at file:line:column)`, or nothing where the place is not known.
fn at(place: &str) -> String {
    if place.is_empty() {
        String::new()
    } else {
        format!(" (at {place})")
    }
}

/// The values chosen for an action's parameters, kept inline (no allocation) for up to
/// four.
pub type Args = SmallVec<[Value; 4]>;

/// What a listing hands each action it finds to (the action and its arguments), which
/// says whether to go on: a buffer of legal actions, written in place where the step that
/// completes an action hands it on (`list_step`, the common case: no call through a
/// pointer for each action), or a function of the caller's.
pub(crate) enum OnAction<'a> {
    Record(Recording<'a>),
    Call(&'a mut dyn FnMut(u16, &[Value]) -> bool),
}

impl OnAction<'_> {
    /// Hands on action `a` with `args`; whether to go on.
    #[inline(always)]
    pub(crate) fn offer(&mut self, a: u16, args: &[Value]) -> bool {
        match self {
            OnAction::Record(r) => r.record(a, args),
            OnAction::Call(f) => f(a, args),
        }
    }
}

/// The actions of a listing written into a buffer (see `Listed`): how many so far, and
/// what was left of the budget when the first was found.
pub(crate) struct Recording<'a> {
    actions: &'a mut Vec<Action>,
    n: usize,
    first: Option<i64>,
}

impl Recording<'_> {
    /// The buffer's actions are overwritten in place, those beyond kept as spares (see
    /// `Listed`): a query into a buffer reused from the last ones makes no new `Action`.
    #[inline(always)]
    fn record(&mut self, a: u16, args: &[Value]) -> bool {
        if self.n == 0 {
            self.first = Some(budget::left());
            budget::found_first();
        }
        if self.n >= budget::MAX_LEGAL_ACTIONS {
            return too_many_actions();
        }
        let go_on = budget::charge(1 + args.len() as u64);
        match self.actions.get_mut(self.n) {
            Some(slot) => slot.set(a, args),
            None => push_action(self.actions, a, args),
        }
        self.n += 1;
        go_on
    }
}

/// The state `require afterwards` tries actions on, kept for its storage (see
/// `Engine::judged_afterwards`).
struct After {
    state: State,
    /// The state `state` is a copy of, by its address, and the action listing that copied
    /// it (see `Listing`), but for the variable slots in `written`: those the last try
    /// wrote. `None` when the copy is of nothing known.
    synced: Option<(usize, u64)>,
    /// What the last try wrote and changed (see `Trial`).
    last: Trial,
}

thread_local! {
    /// Boxed, so that taking it out and putting it back moves a pointer, not a state.
    static AFTER: std::cell::RefCell<Option<Box<After>>> = const { std::cell::RefCell::new(None) };
    /// The action listing under way (0 for none), by a number no other listing had.
    static LISTING: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    static LISTINGS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// One action's listing, from its first clause to its last action: the state it lists
/// from is borrowed throughout, so it cannot change. A listing inside another (a `do`
/// that lists actions) has a number of its own; the outer one's comes back with it.
struct Listing {
    outer: u64,
}

impl Listing {
    fn begin() -> Listing {
        let n = LISTINGS.get() + 1;
        LISTINGS.set(n);
        Listing {
            outer: LISTING.replace(n),
        }
    }
}

impl Drop for Listing {
    fn drop(&mut self) {
        LISTING.set(self.outer);
    }
}

/// A legal action past those of the buffer's last query: a new `Action`, kept out of the
/// listing's loop (a buffer reused query after query rarely grows).
#[inline(never)]
fn push_action(out: &mut Vec<Action>, action: u16, args: &[Value]) {
    let mut kept = Args::new();
    for v in args {
        kept.push(super::pool::dup(v));
    }
    out.push(Action { action, args: kept });
}

/// The budget's error for a listing of more than `MAX_LEGAL_ACTIONS`: false, to stop it.
#[cold]
#[inline(never)]
fn too_many_actions() -> bool {
    budget::exceeded(format!(
        "more than {} legal actions (`MAX_LEGAL_ACTIONS`)",
        budget::thousands(budget::MAX_LEGAL_ACTIONS as u64)
    ));
    false
}

/// A buffer of legal actions reused from query to query (`Engine::legal_into`): it reads
/// as the slice of the last query's actions. Beyond them it keeps the spare actions of
/// longer queries before, whose storage the next query overwrites in place: a query into
/// it, once it has grown, makes and drops no `Action`, however the number of legal
/// actions goes up and down from one decision to the next.
#[derive(Clone, Debug, Default)]
pub struct Listed {
    actions: Vec<Action>,
    len: usize,
}

impl Listed {
    pub const fn new() -> Listed {
        Listed {
            actions: Vec::new(),
            len: 0,
        }
    }

    /// Lists nothing (the actions' storage stays for the next query).
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The listed actions, as a list of their own.
    pub fn into_vec(mut self) -> Vec<Action> {
        self.actions.truncate(self.len);
        self.actions
    }
}

impl std::ops::Deref for Listed {
    type Target = [Action];
    fn deref(&self) -> &[Action] {
        &self.actions[..self.len]
    }
}

/// One decision: an action and the values chosen for its parameters.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Action {
    pub action: u16,
    pub args: Args,
}

impl Action {
    /// Makes this action `action` with `args`, reusing its storage: values it held are
    /// overwritten in place, their lists given back to the pool (see `pool::set`).
    #[inline(always)]
    pub(crate) fn set(&mut self, action: u16, args: &[Value]) {
        self.action = action;
        // As many arguments as it held (the common case: the same action's, or another's
        // of as many): each overwritten where it stands.
        let mine = self.args.as_mut_slice();
        if mine.len() == args.len() {
            for (slot, v) in mine.iter_mut().zip(args) {
                super::pool::assign(slot, v);
            }
            return;
        }
        self.resize_set(args);
    }

    /// `set`'s arguments, where there are more or fewer than it held.
    #[inline(never)]
    fn resize_set(&mut self, args: &[Value]) {
        let keep = self.args.len().min(args.len());
        for (slot, v) in self.args.iter_mut().zip(&args[..keep]) {
            super::pool::assign(slot, v);
        }
        while self.args.len() > keep {
            if let Some(v) = self.args.pop() {
                super::pool::recycle(v);
            }
        }
        for v in &args[keep..] {
            self.args.push(super::pool::dup(v));
        }
    }
}

impl Engine {
    /// Every legal action of the seat that must decide now, in a fixed order.
    pub fn legal_actions(&self, s: &State) -> Vec<Action> {
        let mut out = Listed::new();
        self.legal_into(s, &mut out);
        out.into_vec()
    }

    /// Perft: the leaves of the legal-action tree `depth` actions deep from `s` (a position
    /// where nobody can act has none below it; depth 0 is the position itself). The
    /// field's standard check of a move generator: counts agree with an independent
    /// model's, or a rule is listed wrongly. A rules error on the way stops the count.
    pub fn perft(&self, s: &State, depth: u32) -> Result<u64, EngineError> {
        if depth == 0 {
            return Ok(1);
        }
        let mut legal = Listed::new();
        self.try_legal_into(s, &mut legal)?;
        self.perft_below(s, &legal, depth)
    }

    /// `perft` of `s`, whose legal actions are `legal`: each applied with the legal
    /// actions after it listed ahead (`apply_and_list`), or listed after it where they
    /// could not be.
    fn perft_below(&self, s: &State, legal: &[Action], depth: u32) -> Result<u64, EngineError> {
        if depth == 1 {
            return Ok(legal.len() as u64);
        }
        let mut leaves = 0u64;
        let (mut t, mut next) = (s.clone(), Listed::new());
        for a in legal {
            t.clone_from(s);
            leaves += if self.apply_and_list(&mut t, a, &mut next)? {
                self.perft_below(&t, &next, depth - 1)?
            } else {
                self.perft(&t, depth - 1)?
            };
        }
        Ok(leaves)
    }

    /// `legal_actions` into a caller's buffer, reused from query to query to avoid
    /// allocating (see `Listed`). If listing them goes over the budget of a decision (see
    /// `try_legal_into`), the list is left empty.
    pub fn legal_into(&self, s: &State, out: &mut Listed) {
        if self.try_legal_into(s, out).is_err() {
            out.clear();
        }
    }

    /// Every legal action, or the rules error that listing them ran into: more work than
    /// `MAX_WORK`, more than `MAX_LEGAL_ACTIONS` actions, a list over `MAX_LIST` items, a
    /// range over `MAX_RANGE` numbers.
    pub fn try_legal_actions(&self, s: &State) -> Result<Vec<Action>, EngineError> {
        let mut out = Listed::new();
        self.try_legal_into(s, &mut out)?;
        Ok(out.into_vec())
    }

    /// `try_legal_actions` into a caller's buffer, reused from query to query (see
    /// `Listed`).
    pub fn try_legal_into(&self, s: &State, out: &mut Listed) -> Result<(), EngineError> {
        if s.outcome.is_some() {
            out.clear();
            return Ok(());
        }
        let decision = Decision::begin();
        let mut locals = self.locals();
        self.list_step(s, out, &mut locals);
        budget::locate(|| self.deciding_text(s));
        decision.result()
    }

    /// Lists the legal actions of the step into `out`, charging the open decision's
    /// budget, with the local slots `l` (the caller's: every local is bound before it is
    /// read); returns what was left of the budget (`budget::left`) when the first action
    /// was found, `None` if none was.
    pub(crate) fn list_step(&self, s: &State, out: &mut Listed, l: &mut [Value]) -> Option<i64> {
        let mut into = OnAction::Record(Recording {
            actions: &mut out.actions,
            n: 0,
            first: None,
        });
        self.enumerate_step(s, l, &mut into);
        let OnAction::Record(r) = into else {
            unreachable!("a recording stays one")
        };
        out.len = r.n;
        r.first
    }

    /// The legal actions and the evaluation steps listing them took, of the decision's
    /// budget (`budget::MAX_WORK`): the plans charge the budget where the tree walk does,
    /// and `tests/plans.rs` checks that the two agree on it.
    pub fn legal_actions_and_work(&self, s: &State) -> (Vec<Action>, u64) {
        let mut out = Listed::new();
        let _outer = Decision::begin();
        self.legal_into(s, &mut out);
        if budget::spent() {
            out.clear();
        }
        (out.into_vec(), budget::work())
    }

    /// `apply_listed`, and the evaluation steps it took of the decision's budget: compiled
    /// effects charge the budget where the statements do (`tests/plans.rs` checks it).
    pub fn apply_listed_and_work(
        &self,
        s: &mut State,
        act: &Action,
    ) -> (Result<(), EngineError>, u64) {
        let _outer = Decision::begin();
        let r = self.apply_listed(s, act);
        (r, budget::work())
    }

    /// Where the game is, for a rules error: the phase and the seat deciding.
    pub(crate) fn deciding_text(&self, s: &State) -> String {
        format!(
            "listing the legal actions of {} in phase `{}` (turn {})",
            self.game
                .seats
                .get(s.turn_seat as usize)
                .map_or("?", |x| x.name.as_str()),
            self.game.phases[s.phase as usize].name,
            s.turns + 1
        )
    }

    /// `has_legal_action`, and the evaluation steps it took of the decision's budget: a
    /// listing that stops at its first action charges what the tree walk charges up to
    /// it (`tests/plans.rs` checks it).
    pub fn has_legal_action_and_work(&self, s: &State) -> (bool, u64) {
        let _outer = Decision::begin();
        let any = self.has_legal_action(s);
        (any, budget::work())
    }

    /// Whether the decider has any legal action (stops at the first, but where the
    /// `apply_and_list` under way asked for them all: see `ahead.rs`).
    pub fn has_legal_action(&self, s: &State) -> bool {
        let mut locals = self.locals();
        let _decision = Decision::begin();
        let secret = self.is_secret_choice(s);
        self.decider_has_action(s, secret, &mut locals)
    }

    /// `has_legal_action`, with the caller's local slots (an `apply` moving play on: every
    /// local is bound before it is read, so the slots of one query or effect serve the
    /// next).
    #[inline(always)]
    pub(crate) fn has_legal_action_with(&self, s: &mut State, l: &mut [Value]) -> bool {
        let _decision = Decision::begin();
        let secret = self.is_secret_choice(s);
        // Where a playout asked for the next listing, they are all listed now.
        if !secret {
            if let Some(any) = self.list_ahead(s, l) {
                return any;
            }
        }
        self.decider_has_action(s, secret, l)
    }

    /// Whether the decider has a legal action, looked for up to the first (`secret`: the
    /// decision is a secret choice, `is_secret_choice`).
    #[inline(always)]
    fn decider_has_action(&self, s: &State, secret: bool, l: &mut [Value]) -> bool {
        // In a secret choice the next chooser is the first seat found with a legal action
        // (`next_secret_chooser`): it is not asked again.
        if secret {
            return self.secret_chooser(s).is_some() || self.has_legal_action_in(s, s.turn_seat, l);
        }
        self.has_legal_action_in(s, self.step_decider(s), l)
    }

    /// Whether `seat` would have a legal action if it decided the current step now, with
    /// the caller's local slots.
    pub(crate) fn has_legal_action_in(&self, s: &State, seat: u8, l: &mut [Value]) -> bool {
        if self.offers_pass(s) {
            return true;
        }
        let mut any = false;
        self.enumerate_for(
            s,
            seat,
            l,
            &mut OnAction::Call(&mut |_, _| {
                any = true;
                false
            }),
        );
        any
    }

    /// The actions `seat` could take if it decided the current step now, in the order
    /// `legal_actions` gives them.
    pub(crate) fn legal_actions_for(&self, s: &State, seat: u8) -> Vec<Action> {
        let _decision = Decision::begin();
        let mut out = Vec::new();
        let mut locals = self.locals();
        self.enumerate_for(
            s,
            seat,
            &mut locals,
            &mut OnAction::Call(&mut |a, args| {
                out.push(Action {
                    action: a,
                    args: args.iter().cloned().collect(),
                });
                true
            }),
        );
        out
    }

    #[inline(always)]
    fn enumerate_step(&self, s: &State, locals: &mut [Value], f: &mut OnAction<'_>) {
        let me = self.step_decider(s);
        self.enumerate_for(s, me, locals, f)
    }

    #[inline(always)]
    fn enumerate_for(&self, s: &State, me: u8, locals: &mut [Value], f: &mut OnAction<'_>) {
        let Some((actions, mode)) = self.current_choice(s) else {
            return;
        };
        let ev = Eval { eng: self, s, me };
        // Only rules whose clauses hold parts to remember remember within a query (the
        // others' remembered parts are in their effects).
        let _memo = self
            .query_memo
            .then(|| super::memo::begin(self, s, me))
            .flatten();
        // Whether the listing is profiled, asked once for all the step's actions.
        let profiled = super::profile::on();
        for &a in actions {
            let _listing = self.judges_afterwards.then(Listing::begin);
            let mut list = |f: &mut OnAction<'_>| match self.plans.actions.get(a as usize) {
                Some(Some(plan)) => plan(&ev, locals, f),
                _ => {
                    let clauses = &self.game.actions[a as usize].clauses;
                    self.walk(&ev, a, clauses, 0, locals, &mut Args::new(), f)
                }
            };
            let go_on = if profiled {
                super::profile::listing(a, f, list)
            } else {
                list(f)
            };
            if !go_on {
                return;
            }
        }
        match mode {
            StepMode::Optional => {
                f.offer(SKIP, &[]);
            }
            StepMode::Repeat => {
                f.offer(DONE, &[]);
            }
            StepMode::One | StepMode::Loop | StepMode::All => {}
        }
    }

    /// Whether the current step offers `skip` or `done` (an `optional` or `repeat` one):
    /// then it has a legal action whatever else it offers, and nothing need be walked to
    /// know it.
    pub(crate) fn offers_pass(&self, s: &State) -> bool {
        matches!(
            self.current_choice(s),
            Some((_, StepMode::Optional | StepMode::Repeat))
        )
    }

    /// Whether the decider has an action other than `done` or `skip`.
    pub(crate) fn has_real_choice(&self, s: &State) -> bool {
        let mut any = false;
        let mut locals = self.locals();
        self.enumerate_step(
            s,
            &mut locals,
            &mut OnAction::Call(&mut |a, _| {
                any = a < SKIP;
                !any
            }),
        );
        any
    }

    /// Fills clauses from `i` on; returns false to stop the whole enumeration.
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        ev: &Eval,
        a: u16,
        clauses: &[Clause],
        i: usize,
        l: &mut [Value],
        args: &mut Args,
        f: &mut OnAction<'_>,
    ) -> bool {
        if budget::spent() {
            return false;
        }
        let go_on = self.walk_clause(ev, a, clauses, i, l, args, f);
        if budget::spent() && !matches!(clauses.get(i), None | Some(Clause::Do(_))) {
            budget::locate_innermost(|| self.clause_text(a, i));
        }
        go_on
    }

    /// A clause of an action, in words, for a rules error: `the \`require ...\` of
    /// action \`x\``.
    pub(crate) fn clause_text(&self, a: u16, i: usize) -> String {
        let def = &self.game.actions[a as usize];
        let mut place = def.place.as_str();
        let what = match def.clauses.get(i) {
            Some(Clause::Choose { name, .. }) => format!("`choose {name}`"),
            Some(Clause::Let { .. }) => "a `let`".to_string(),
            Some(Clause::Require { index, .. }) => {
                if let Some(p) = def.require_places.get(*index as usize) {
                    place = p;
                }
                format!(
                    "`require {}`",
                    def.require_texts
                        .get(*index as usize)
                        .map_or("", String::as_str)
                )
            }
            Some(Clause::Do(_)) => "`do`".to_string(),
            None => "the end".to_string(),
        };
        format!("{what} of action `{}`{}", def.name, at(place))
    }

    /// What is being applied, for a rules error: the action in notation and where the
    /// rules file declares it.
    fn applying_text(&self, s: &State, act: &Action) -> String {
        let place = self
            .game
            .actions
            .get(act.action as usize)
            .map_or("", |d| d.place.as_str());
        format!("applying `{}`{}", self.action_text(s, act), at(place))
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn walk_clause(
        &self,
        ev: &Eval,
        a: u16,
        clauses: &[Clause],
        i: usize,
        l: &mut [Value],
        args: &mut Args,
        f: &mut OnAction<'_>,
    ) -> bool {
        let Some(c) = clauses.get(i) else {
            return f.offer(a, args);
        };
        match c {
            Clause::Choose { slot, domain, .. } => {
                let mut go_on = true;
                // Each choice written into the local and handed on with the others.
                let mut chosen = |v: Value, l: &mut [Value]| {
                    super::pool::assign(&mut l[*slot as usize], &v);
                    args.push(v);
                    go_on = self.walk(ev, a, clauses, i + 1, l, args, f);
                    if let Some(v) = args.pop() {
                        super::pool::recycle(v);
                    }
                    go_on
                };
                match domain {
                    // Subsets, walked and pruned by the `require`s after the choice (`subsets.rs`).
                    Expr::Call(_, sargs) if self.prune_roles[a as usize][i] == Role::Choose => {
                        self.each_subset(ev, sargs, l, &mut |v, l| {
                            chosen(super::pool::dup_list(v), l)
                        });
                    }
                    // Domains are walked in place, without collecting them first. Twin
                    // components in one place are one choice: only the first is offered.
                    _ => {
                        let mut offered: SmallVec<[u16; 16]> = SmallVec::new();
                        let distinct = matches!(domain, Expr::Zone(..));
                        ev.for_each(domain, l, &mut |v, l| {
                            if let Value::Comp(c) = v {
                                if self.offered_again(ev.s, &mut offered, c, distinct) {
                                    return true;
                                }
                            }
                            chosen(v, l)
                        });
                    }
                }
                go_on
            }
            Clause::Let { slot, value } => {
                let v = ev.eval(value, l);
                super::pool::recycle(std::mem::replace(&mut l[*slot as usize], v));
                self.walk(ev, a, clauses, i + 1, l, args, f)
            }
            Clause::Require {
                cond, afterwards, ..
            } => {
                // `require afterwards` was judged at the `do`, on the position it produces.
                let holds = *afterwards
                    || match self.prune_roles[a as usize][i] {
                        Role::Require(first) => super::subsets::judge(ev, cond, first, l),
                        _ => ev.truth(cond, l),
                    };
                if holds {
                    self.walk(ev, a, clauses, i + 1, l, args, f)
                } else {
                    true
                }
            }
            Clause::Do(body) => {
                if self
                    .fails_afterwards(ev, &clauses[i + 1..], body, l)
                    .is_some()
                {
                    return true;
                }
                self.walk(ev, a, clauses, i + 1, l, args, f)
            }
        }
    }

    /// The first `require afterwards` among `rest` (the clauses after a `do`) that fails on
    /// the position `body` produces, as its index among the action's requires; `None` if
    /// all hold or there is none. The `do` runs on a copy of the state (see
    /// `judged_afterwards`); a rules error while it runs leaves the action legal, so that
    /// applying it reports the error.
    pub(crate) fn fails_afterwards(
        &self,
        ev: &Eval,
        rest: &[Clause],
        body: &[crate::ir::Stmt],
        l: &mut [Value],
    ) -> Option<u16> {
        if !rest.iter().any(Clause::is_afterwards) {
            return None;
        }
        self.judged_afterwards(ev, body.as_ptr() as usize, body, l, &mut |then, l2| {
            rest.iter().find_map(|c| match c {
                Clause::Require {
                    index,
                    cond,
                    afterwards: true,
                } if !then.truth(cond, l2) => Some(*index),
                _ => None,
            })
        })
    }

    /// Runs `body` on a copy of the state, and hands the position it produces to `judge`
    /// (which gives the index of a failing `require afterwards`, if any). A rules error
    /// while `body` runs leaves the action legal, so that applying it reports the error.
    /// Plans judge with their compiled conditions. `at`: where the body stands in the
    /// rules, by which its compiled form is found (`body` may be a copy).
    ///
    /// The body and the judgements run on the listing's own locals: they bind only slots
    /// of their own (the checker never binds a slot twice within an action), which
    /// nothing in the listing reads after them, and never write the choices and `let`s
    /// bound before the `do`.
    pub(crate) fn judged_afterwards(
        &self,
        ev: &Eval,
        at: usize,
        body: &[crate::ir::Stmt],
        l: &mut [Value],
        judge: &mut dyn FnMut(&Eval, &mut [Value]) -> Option<u16>,
    ) -> Option<u16> {
        // The copy goes into a state kept from the last time (per thread), so that its
        // storage is reused; one inside another (a `do` that lists actions) makes its own.
        let mut after = AFTER.with_borrow_mut(Option::take).unwrap_or_else(|| {
            Box::new(After {
                state: ev.s.clone(),
                synced: None,
                last: Trial::default(),
            })
        });
        // Within one action's listing, the copy made for the last try is of this same
        // state but for the variables that try wrote and what else its statements may
        // have changed (`Trial::touched`): the variables are put back, and the rest
        // copied whole (plain numbers), only where components stand if the try only moved
        // them, nothing if it did not even that. Any other time, everything.
        let listing = LISTING.get();
        let here = (ev.s as *const State as usize, listing);
        if listing != 0 && after.synced == Some(here) {
            match after.last.touched {
                Touched::Nothing => {}
                Touched::Moved => after.state.copy_moved_from(ev.s, &after.last.moved),
                Touched::Moves => after.state.copy_moves_from(ev.s),
                Touched::All => after.state.copy_from(ev.s, false),
            }
            for &(which, i) in &after.last.written {
                let i = i as usize;
                super::pool::assign(&mut after.state.vars_mut(which)[i], &ev.s.vars(which)[i]);
            }
        } else {
            after.state.clone_from(ev.s);
        }
        after.last.written.clear();
        after.last.moved.clear();
        after.last.touched = Touched::Nothing;
        after.synced = (listing != 0).then_some(here);
        let mut runner = Runner::new(self, ev.me);
        runner.trial = Some(&mut after.last);
        let ran = runner.run_at(&mut after.state, at, body, l);
        let failed = match ran {
            Err(_) => None,
            Ok(()) => {
                let then = Eval {
                    eng: self,
                    s: &after.state,
                    me: ev.me,
                };
                judge(&then, l)
            }
        };
        AFTER.with_borrow_mut(|kept| *kept = Some(after));
        failed
    }

    /// Why an action is not legal now: the parameter whose value is not on offer, or the
    /// `require` it fails. `None` if it is legal.
    pub fn why_illegal(&self, s: &State, act: &Action) -> Option<String> {
        let _decision = Decision::begin();
        if s.outcome.is_some() {
            return Some("the game is over".into());
        }
        let (step_actions, step_mode) = self.current_choice(s)?;
        match act.action {
            DONE => {
                return (step_mode != StepMode::Repeat).then(|| {
                    "there is nothing to finish: `done` ends a step of repeated actions".into()
                })
            }
            SKIP => {
                return (step_mode != StepMode::Optional)
                    .then(|| "this step cannot be skipped".into())
            }
            _ => {}
        }
        if !step_actions.contains(&act.action) {
            let offered: Vec<String> = step_actions
                .iter()
                .map(|a| self.game.actions[*a as usize].name.clone())
                .collect();
            return Some(format!(
                "`{}` is not offered now; the choices are: {}",
                self.game.actions[act.action as usize].name,
                offered.join(", ")
            ));
        }
        let me = self.step_decider(s);
        let ev = Eval { eng: self, s, me };
        let def = &self.game.actions[act.action as usize];
        let refusal = |index: u16| match def.require_reasons.get(index as usize) {
            Some(Some(reason)) => reason.clone(),
            _ => format!("it fails `require {}`", def.require_texts[index as usize]),
        };
        let mut l = self.locals();
        let mut k = 0;
        for (i, c) in def.clauses.iter().enumerate() {
            match c {
                Clause::Choose {
                    slot, domain, name, ..
                } => {
                    let Some(v) = act.args.get(k) else {
                        return Some(format!("`{name}` is missing"));
                    };
                    k += 1;
                    let mut found = false;
                    ev.for_each(domain, &mut l, &mut |x, _| {
                        found = x == *v;
                        !found
                    });
                    if !found {
                        let not_one = format!(
                            "`{}` is not one of the choices for `{name}` here",
                            self.value_text(s, v)
                        );
                        return Some(match def.choose_reasons.get(k - 1) {
                            Some(Some(reason)) => format!("{not_one}: {reason}"),
                            _ => not_one,
                        });
                    }
                    l[*slot as usize] = v.clone();
                }
                Clause::Let { slot, value } => l[*slot as usize] = ev.eval(value, &mut l),
                Clause::Require {
                    index,
                    cond,
                    afterwards,
                } => {
                    if !*afterwards && !ev.truth(cond, &mut l) {
                        return Some(refusal(*index));
                    }
                }
                Clause::Do(body) => {
                    let rest = &def.clauses[i + 1..];
                    if let Some(index) = self.fails_afterwards(&ev, rest, body, &mut l) {
                        return Some(refusal(index));
                    }
                }
            }
        }
        None
    }

    /// Applies an action after checking that it is legal.
    pub fn apply(&self, s: &mut State, act: &Action) -> Result<(), EngineError> {
        if s.outcome.is_some() {
            return Err(EngineError::Over);
        }
        let decision = Decision::begin();
        let why = self.why_illegal(s, act);
        if budget::spent() {
            budget::locate(|| format!("checking `{}`", self.action_text(s, act)));
            decision.result()?;
        }
        if let Some(reason) = why {
            return Err(EngineError::Illegal {
                text: self.action_text(s, act),
                reason,
            });
        }
        let r = self.apply_listed(s, act);
        decision.result().and(r)
    }

    /// Applies an action taken from `legal_actions` of this very state, without checking it
    /// again (the fast path for playouts).
    pub fn apply_listed(&self, s: &mut State, act: &Action) -> Result<(), EngineError> {
        let mut l = self.locals();
        self.apply_listed_with(s, act, &mut l)
    }

    /// How many local slots a query or an action takes (`Locals`).
    pub(crate) fn locals_len(&self) -> usize {
        self.game.max_locals as usize + 1
    }

    /// A set of local slots for a query or an action, from the pool.
    pub(crate) fn locals(&self) -> super::pool::Locals {
        super::pool::Locals::new(self.locals_len())
    }

    /// `apply_listed` with the caller's local slots, `locals_len` of them (a playout
    /// keeps its own from one action to the next: every local is bound before it is
    /// read, so the slots of one action serve the next).
    #[inline(always)]
    pub(crate) fn apply_listed_with(
        &self,
        s: &mut State,
        act: &Action,
        l: &mut [Value],
    ) -> Result<(), EngineError> {
        if s.outcome.is_some() {
            return Err(EngineError::Over);
        }
        let decision = Decision::begin();
        let r = self.apply_within_budget(s, act, l);
        // Every rules error says which action it struck in.
        let doing = || self.applying_text(s, act);
        let r = r.map_err(|e| if budget::spent() { e } else { e.within(doing) });
        if budget::spent() {
            budget::locate(doing);
        }
        decision.result().and(r)
    }

    #[inline(always)]
    fn apply_within_budget(
        &self,
        s: &mut State,
        act: &Action,
        l: &mut [Value],
    ) -> Result<(), EngineError> {
        let me = self.step_decider(s);
        let depth = s.reactions.len();
        if s.turn_actions >= MAX_ACTIONS_PER_TURN {
            return Err(EngineError::rules(code::NO_PROGRESS, format!(
                "the rules make no progress: one turn went on for {MAX_ACTIONS_PER_TURN} actions without ending"
            )));
        }
        let secret = self.is_secret_choice(s);
        s.actions += 1;
        s.turn_actions += 1;
        if secret {
            // A secret choice is only recorded; when the last seat has chosen, all are
            // revealed and applied together.
            s.secret.push((me, act.clone()));
            if self.settle_secret_chooser(s, l).is_some() {
                return Ok(());
            }
            return self.reveal(s, l);
        }
        self.run_action(s, me, act, l)?;
        self.after_action(s, act.action, depth, l)
    }

    /// Applies the secret choices of an `all` step, one after another in the order they
    /// were made, each with `me` standing for its seat and on the position the choices
    /// before it left (their `require`s are not checked again), then moves play on as
    /// after any action.
    fn reveal(&self, s: &mut State, l: &mut [Value]) -> Result<(), EngineError> {
        let mut choices = std::mem::take(&mut s.secret);
        let mut last = SKIP;
        for (seat, act) in &choices {
            if s.outcome.is_some() {
                break;
            }
            self.run_action(s, *seat, act, l).map_err(|e| {
                e.within(|| {
                    format!(
                        "the secret choice `{}` of {}, as the choices were revealed",
                        self.action_text(s, act),
                        self.game.seats[*seat as usize].name
                    )
                })
            })?;
            last = act.action;
        }
        // The list goes back to the state, emptied, for the next step's choices.
        choices.clear();
        if s.secret.capacity() == 0 {
            s.secret = choices;
        }
        self.after_action(s, last, 0, l)
    }

    /// Runs an action's clauses with `me` standing for `me`: its choices into their
    /// slots, its `let`s, its effects.
    #[inline(always)]
    fn run_action(
        &self,
        s: &mut State,
        me: u8,
        act: &Action,
        l: &mut [Value],
    ) -> Result<(), EngineError> {
        if act.action >= SKIP {
            return Ok(());
        }
        let mut runner = Runner::new(self, me);
        // The clauses applying runs, found when the engine was built (see
        // `plan::Applied`); the tree walk walks them as written, below.
        if let Some(Some(applied)) = self.plans.applied.get(act.action as usize) {
            let mut args = act.args.iter();
            for step in applied.iter() {
                match step {
                    Applied::Arg(slot) => {
                        let v = args.next().map_or(Value::None, super::pool::dup);
                        super::pool::set(&mut l[*slot], v);
                    }
                    Applied::Let(slot, value) => {
                        let v = value(&Eval { eng: self, s, me }, l);
                        super::pool::set(&mut l[*slot], v);
                    }
                    Applied::Do(body) => runner.run_ops(s, &self.plans.bodies[*body].1, l)?,
                }
            }
            return Ok(());
        }
        let def = &self.game.actions[act.action as usize];
        let mut k = 0;
        for (i, c) in def.clauses.iter().enumerate() {
            match c {
                Clause::Choose { slot, .. } => {
                    let v = act.args.get(k).map_or(Value::None, super::pool::dup);
                    super::pool::set(&mut l[*slot as usize], v);
                    k += 1;
                }
                // A `let` its `do` does not read only served its `require`s.
                Clause::Let { .. } if !self.lets_applied[act.action as usize][i] => {}
                Clause::Let { slot, value } => {
                    let v = Eval { eng: self, s, me }.eval(value, l);
                    super::pool::set(&mut l[*slot as usize], v);
                }
                Clause::Require { .. } => {}
                Clause::Do(stmts) => runner.run(s, stmts, l)?,
            }
        }
        Ok(())
    }
}
