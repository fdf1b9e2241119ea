//! Listing ahead: the legal actions of the next decision, listed inside `apply` where it
//! looks for them anyway.
//!
//! Applying an action ends where the next decider is known to have a legal action:
//! `has_legal_action` lists until the first one, and the playout's next query lists them
//! all again from the start. A caller that asks for the next listing with the action
//! (`Engine::apply_and_list`) gets it from that one walk: `has_legal_action` lists every
//! action instead of stopping at the first. In an `all` step the seat that chooses next
//! is found the same way (`settle_secret_chooser`): each seat in turn is asked, its
//! actions listed ahead, and the first that has one ends `apply`. The listing charges a
//! budget of its own, as the query after `apply` would. Where a listing ahead could end
//! otherwise than the two calls (a pass offered without a listing, a listing that goes
//! over its budget or would not fit in what is left of `apply`'s), nothing is listed ahead
//! and `apply` looks for the first action as ever; the caller lists as before.
//!
//! What `apply` is charged: only what the walk up to the first action took. Stopping
//! there also charges, on the way out, what walks that charge once they end
//! (`plan/masks.rs`) owe for the cells up to it; that is counted only when the steps are
//! asked for (`apply_and_list_and_work`, which then charges exactly what `apply_listed`
//! does: `tests/plans.rs` plays every shipped game both ways). Either way the whole
//! listing fitted in what was left, so `apply` cannot go over its budget where the two
//! calls would not, or the other way round.
//!
//! **Invariant:** a `has_legal_action` that finds an action ends `apply`: the state it
//! listed is the state `apply` leaves, and nothing is charged after it. `Mark` checks what
//! `apply` changes on its way (counters, phase, step, seat, reactions), so that a listing
//! of any other position is never handed out.

use super::budget;
use super::legal::Listed;
use super::state::State;
use super::{Action, Engine, EngineError};
use crate::ir::Value;
use std::time::{Duration, Instant};

/// What a caller of `apply_and_list` handed in, kept in the state it applies to while
/// `apply` runs (`State::ahead`): its buffer, and the position listed into it, if any.
/// Not part of the position: a state's copy has none, states that differ only in it are
/// equal, and it is neither hashed nor written out.
#[derive(Debug, Default)]
pub(crate) struct Ahead {
    /// Whether an `apply_and_list` is under way on this state.
    asked: bool,
    listed: Listed,
    of: Option<Mark>,
    /// Whether to charge `apply` exactly what `apply_listed` charges (see the module).
    exact: bool,
    /// Whether to time the listing (`muster bench`), and the time it took.
    timed: bool,
    took: Duration,
}

impl PartialEq for Ahead {
    fn eq(&self, _: &Ahead) -> bool {
        true
    }
}

/// What `apply` changes on its way from one decision to the next, besides the position
/// itself.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Mark {
    actions: u32,
    turn_actions: u32,
    turns: u32,
    phase: u16,
    step: u16,
    turn_seat: u8,
    reactions: usize,
    secret: usize,
    ending_turn: bool,
}

impl Mark {
    fn of(s: &State) -> Mark {
        Mark {
            actions: s.actions,
            turn_actions: s.turn_actions,
            turns: s.turns,
            phase: s.phase,
            step: s.step,
            turn_seat: s.turn_seat,
            reactions: s.reactions.len(),
            secret: s.secret.len(),
            ending_turn: s.ending_turn,
        }
    }
}

/// A playout's legal actions, listed ahead as each action is applied where the engine can
/// (`Engine::apply_and_list`), else when they are asked for: the two buffers a playout
/// loop reuses, and which of them holds the position's actions.
#[derive(Debug, Default)]
pub struct Playout {
    legal: Listed,
    next: Listed,
    /// Whether `legal` holds the actions of the position the last `apply` left.
    listed: bool,
    /// The local slots its actions are applied with, kept from one to the next (see
    /// `Engine::apply_listed_with`).
    locals: Vec<Value>,
}

impl Playout {
    pub fn new() -> Playout {
        Playout::default()
    }

    /// The legal actions of `s`: those listed ahead by the last `apply`, or listed now
    /// (`try_legal_into`). `s` is the state the last `apply` left, or a new game's.
    pub fn legal(&mut self, engine: &Engine, s: &State) -> Result<&Listed, EngineError> {
        if !std::mem::take(&mut self.listed) {
            engine.try_legal_into(s, &mut self.legal)?;
        }
        Ok(&self.legal)
    }

    /// Applies the `i`th of the actions `legal` gave (`apply_listed`), listing the next
    /// ones ahead where the engine can; with `took`, the time listing them took is added
    /// to it.
    #[inline(always)]
    pub fn apply(
        &mut self,
        engine: &Engine,
        s: &mut State,
        i: usize,
        took: Option<&mut Duration>,
    ) -> Result<(), EngineError> {
        let asked = Asked { exact: false, took };
        let n = engine.locals_len();
        if self.locals.len() != n {
            self.locals.resize_with(n, || Value::None);
        }
        let l = &mut self.locals;
        self.listed = engine.apply_ahead(s, &self.legal[i], &mut self.next, asked, l)?;
        if self.listed {
            std::mem::swap(&mut self.legal, &mut self.next);
        }
        Ok(())
    }

    /// Forgets the actions listed ahead: the next `legal` lists them (a new game, or a
    /// state the last `apply` did not leave).
    pub fn restart(&mut self) {
        self.listed = false;
    }
}

/// How an `apply_and_list` is asked: whether its steps are counted exactly, and where to
/// add the time listing took.
struct Asked<'a> {
    exact: bool,
    took: Option<&'a mut Duration>,
}

impl Engine {
    /// `apply_listed`, and the legal actions of the position it leaves listed into
    /// `next`, as `try_legal_into` would list them, where applying the action looked for
    /// them anyway (see the module). `Ok(true)` if `next` holds them; `Ok(false)` if the
    /// caller must list them itself (the game is over, or they could not be listed
    /// ahead). Applying `act` gives the same state and the same result either way.
    pub fn apply_and_list(
        &self,
        s: &mut State,
        act: &Action,
        next: &mut Listed,
    ) -> Result<bool, EngineError> {
        let asked = Asked {
            exact: false,
            took: None,
        };
        let mut l = self.locals();
        self.apply_ahead(s, act, next, asked, &mut l)
    }

    /// `apply_and_list`, and the evaluation steps applying took of the decision's budget,
    /// counted exactly: those `apply_listed` takes (`tests/plans.rs` checks it).
    pub fn apply_and_list_and_work(
        &self,
        s: &mut State,
        act: &Action,
        next: &mut Listed,
    ) -> (Result<bool, EngineError>, u64) {
        let _outer = budget::Decision::begin();
        let asked = Asked {
            exact: true,
            took: None,
        };
        let mut l = self.locals();
        let r = self.apply_ahead(s, act, next, asked, &mut l);
        (r, budget::work())
    }

    #[inline(always)]
    fn apply_ahead(
        &self,
        s: &mut State,
        act: &Action,
        next: &mut Listed,
        asked: Asked,
        l: &mut [Value],
    ) -> Result<bool, EngineError> {
        let Asked { exact, took } = asked;
        let a = &mut s.ahead;
        std::mem::swap(&mut a.listed, next);
        (a.asked, a.of, a.exact) = (true, None, exact);
        (a.timed, a.took) = (took.is_some(), Duration::ZERO);
        let r = self.apply_listed_with(s, act, l);
        let a = &mut s.ahead;
        a.asked = false;
        std::mem::swap(&mut a.listed, next);
        if let Some(t) = took {
            *t += a.took;
        }
        let of = a.of;
        r?;
        Ok(s.outcome.is_none() && of == Some(Mark::of(s)))
    }

    /// `has_legal_action` for a caller of `apply_and_list`: every legal action listed into
    /// its buffer (see the module). `None` where there is no such caller or nothing may
    /// be listed ahead: the caller looks for the first action as ever.
    #[inline(always)]
    pub(crate) fn list_ahead(&self, s: &mut State, l: &mut [Value]) -> Option<bool> {
        if !s.ahead.asked {
            return None;
        }
        // The buffer is taken out of the state while the state is listed into it.
        let mut listed = std::mem::take(&mut s.ahead.listed);
        let start = s.ahead.timed.then(Instant::now);
        let found = self.list_into_ahead(s, &mut listed, s.ahead.exact, l);
        // A decider with no action is passed over or stuck: `apply` goes on from there.
        let of = (found == Some(true)).then(|| Mark::of(s));
        let a = &mut s.ahead;
        a.of = of;
        // The empty buffer left in its place has nothing to drop.
        std::mem::forget(std::mem::replace(&mut a.listed, listed));
        if let Some(start) = start {
            a.took += start.elapsed();
        }
        found
    }

    #[inline(always)]
    fn list_into_ahead(
        &self,
        s: &State,
        listed: &mut Listed,
        exact: bool,
        l: &mut [Value],
    ) -> Option<bool> {
        if budget::spent() || s.outcome.is_some() || self.offers_pass(s) {
            return None;
        }
        let (((first, end), owed), over) = budget::apart(|| {
            budget::owed_at_first(exact, || {
                let first = self.list_step(s, listed, l);
                (first, budget::left())
            })
        });
        // The whole listing fits in what is left; `apply` is charged the walk up to the
        // first action (and, counted exactly, what stopping there owes).
        let whole = budget::MAX_WORK as i64 - end;
        if over || whole > budget::left() {
            return None;
        }
        budget::charge((budget::MAX_WORK as i64 - first.unwrap_or(end)) as u64 + owed);
        Some(first.is_some())
    }
}
