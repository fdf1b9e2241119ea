//! The turn machine: phases, turns and steps; who decides; end rules and the length cap.
//!
//! The functions a playout passes through from one decision to the next (here, in
//! `legal.rs` and in `ahead.rs`: applying the action, ending the turn, beginning the next
//! and listing its actions ahead) are inlined into one another (`#[inline(always)]`): each
//! runs once or twice a turn, and their ways in and out were a tenth of what a turn of a
//! game with one small action costs (9.6% of its instructions; 3.4%, 1.7% and 1.3% of
//! the three lightest shipped games').

use super::effects::Runner;
use super::eval::Eval;
use super::legal::{DONE, SKIP};
use super::state::NONE;
use super::state::{Chooser, Outcome, State};
use super::{code, plan, Engine, EngineError};
use crate::ir::{Expr, NextPhase, StepMode, StuckRule, Value};

/// How many turns in a row may pass with nothing to decide before the rules are reported
/// as making no progress.
const MAX_EMPTY_TURNS: u32 = 10_000;

impl Engine {
    /// A condition that moves play on (a phase's `skip`, `until` or computed `next`, a
    /// step's `when`, a reaction's offer, `on stuck if`), judged by its compiled form
    /// (`Plans::cond`) where the plans have one.
    pub(crate) fn judged(&self, ev: &Eval, e: &Expr, l: &mut [Value]) -> bool {
        plan::judged_by(self.plans.cond(e), ev, e, l)
    }

    /// A value that moves play on (a phase's `start`, a step's or a reaction's `by`, the
    /// `score`), computed by its compiled form (`Plans::value`) where the plans have one.
    pub(crate) fn valued(&self, ev: &Eval, e: &Expr, l: &mut [Value]) -> Value {
        plan::valued_by(self.plans.value(e), ev, e, l)
    }

    /// The seat that decides now: the innermost pending reaction's, or the step's (in an
    /// `all` step, the next seat to choose in secret).
    #[inline(always)]
    pub(crate) fn step_decider(&self, s: &State) -> u8 {
        // The step looked up once: whether its choice is secret (`is_secret_choice`), and
        // who makes it.
        let by = match s.reactions.last() {
            Some(&(r, _)) => Some(&self.game.reactions[r as usize].by),
            None => {
                let step = self.game.phases[s.phase as usize]
                    .steps
                    .get(s.step as usize);
                if s.outcome.is_none() && step.is_some_and(|st| st.mode == StepMode::All) {
                    return self.secret_chooser(s).unwrap_or(s.turn_seat);
                }
                step.and_then(|st| st.by.as_ref())
            }
        };
        match by {
            Some(by) => {
                let mut l = self.locals();
                let ev = Eval {
                    eng: self,
                    s,
                    me: s.turn_seat,
                };
                match self.valued(&ev, by, &mut l) {
                    Value::Seat(p) if p < s.players => p,
                    _ => s.turn_seat,
                }
            }
            None => s.turn_seat,
        }
    }

    /// Whether the decision now is a secret choice of an `all` step (no reaction pending).
    #[inline(always)]
    pub fn is_secret_choice(&self, s: &State) -> bool {
        s.outcome.is_none()
            && s.reactions.is_empty()
            && self.game.phases[s.phase as usize]
                .steps
                .get(s.step as usize)
                .is_some_and(|st| st.mode == StepMode::All)
    }

    /// The seat that chooses next in an `all` step: in turn order from the turn's seat, the
    /// first that is neither out nor passed over by the phase's `skip ... when`, has not
    /// chosen yet and has a legal action among the step's (seen from itself, on the
    /// position before any of the choices, which nothing has changed). `None` when every
    /// seat that takes part has chosen.
    pub(crate) fn next_secret_chooser(&self, s: &State) -> Option<u8> {
        let mut l = self.locals();
        (0..s.players).find_map(|i| {
            let q = self.secret_candidate(s, i, &mut l)?;
            self.has_legal_action_in(s, q, &mut l).then_some(q)
        })
    }

    /// `next_secret_chooser` worked out where play stops for it, and remembered in the
    /// state (`Chooser::Known`): each seat in turn made the chooser and asked whether it
    /// has a legal action, its actions all listed for a playout that asked for them
    /// (`list_ahead`: a seat found to have one ends `apply`, as any decider does), or
    /// looked for up to the first.
    pub(crate) fn settle_secret_chooser(&self, s: &mut State, l: &mut [Value]) -> Option<u8> {
        for i in 0..s.players {
            let Some(q) = self.secret_candidate(s, i, l) else {
                continue;
            };
            s.chooser = Chooser::Known(Some(q));
            let found = match self.list_ahead(s, l) {
                Some(found) => found,
                None => self.has_legal_action_in(s, q, l),
            };
            if found {
                return Some(q);
            }
        }
        s.chooser = Chooser::Known(None);
        None
    }

    /// The `i`th seat in turn order from the turn's seat, if it may choose next in an
    /// `all` step: it is not out, has not chosen already, and the phase's `skip ... when`
    /// does not pass it over.
    fn secret_candidate(&self, s: &State, i: u8, l: &mut [Value]) -> Option<u8> {
        let q = if self.game.phases[s.phase as usize].reversed {
            (s.turn_seat + s.players - i) % s.players
        } else {
            (s.turn_seat + i) % s.players
        };
        let open = !s.eliminated[q as usize]
            && !s.secret.iter().any(|&(c, _)| c == q)
            && !self.passed_over(s, q, l);
        open.then_some(q)
    }

    /// `next_secret_chooser`, as the state remembers it where it was worked out (see
    /// `state::Chooser`).
    pub(crate) fn secret_chooser(&self, s: &State) -> Option<u8> {
        match s.chooser {
            Chooser::Known(q) => q,
            Chooser::Unknown => self.next_secret_chooser(s),
        }
    }

    /// Whether the phase's `skip p when COND` passes over seat `q`.
    #[inline(always)]
    fn passed_over(&self, s: &State, q: u8, l: &mut [Value]) -> bool {
        let Some(skip) = &self.game.phases[s.phase as usize].skip else {
            return false;
        };
        l[0] = Value::Seat(q);
        let ev = Eval {
            eng: self,
            s,
            me: q,
        };
        self.judged(&ev, skip, l)
    }

    /// The actions on offer now and how the choice is made: the innermost pending
    /// reaction's, or the current step's.
    pub(crate) fn current_choice(&self, s: &State) -> Option<(&[u16], StepMode)> {
        match s.reactions.last() {
            Some(&(r, _)) => {
                let re = &self.game.reactions[r as usize];
                Some((&re.actions, re.mode))
            }
            None => self.game.phases[s.phase as usize]
                .steps
                .get(s.step as usize)
                .map(|st| (st.actions.as_slice(), st.mode)),
        }
    }

    pub(crate) fn begin_phase(
        &self,
        s: &mut State,
        phase: u16,
        l: &mut [Value],
    ) -> Result<(), EngineError> {
        match self.enter_phase(s, phase, l)? {
            Some(first) => self.begin_turn(s, first, l),
            None => Ok(()),
        }
    }

    /// Enters a phase: its `enter` effects, then the seat whose turn comes first (`None`
    /// if the game ended). The turn itself is begun by the caller, so that phases handing
    /// over to one another are a loop in `begin_turn`, never a recursion.
    fn enter_phase(
        &self,
        s: &mut State,
        phase: u16,
        l: &mut [Value],
    ) -> Result<Option<u8>, EngineError> {
        s.phase = phase;
        s.phase_turns = 0;
        let p = &self.game.phases[phase as usize];
        Runner::new(self, s.turn_seat).run(s, &p.enter, l)?;
        if s.outcome.is_some() {
            return Ok(None);
        }
        let first = match &p.start {
            Some(e) => match self.valued(
                &Eval {
                    eng: self,
                    s,
                    me: s.turn_seat,
                },
                e,
                l,
            ) {
                Value::Seat(x) if x < s.players => x,
                _ => 0,
            },
            // The first seat in turn order that is not passed over.
            None => {
                let before_first = if p.reversed {
                    1 % s.players.max(1)
                } else {
                    s.players.saturating_sub(1)
                };
                self.next_turn_seat(s, before_first, l).unwrap_or(0)
            }
        };
        Ok(Some(first))
    }

    /// The seat after `from` in seat order that is neither out nor skipped by the phase.
    #[inline(always)]
    fn next_turn_seat(&self, s: &State, from: u8, l: &mut [Value]) -> Option<u8> {
        let p = &self.game.phases[s.phase as usize];
        for i in 1..=s.players {
            let q = if p.reversed {
                (from + s.players - i) % s.players
            } else {
                (from + i) % s.players
            };
            if s.eliminated[q as usize] || self.passed_over(s, q, l) {
                continue;
            }
            return Some(q);
        }
        None
    }

    /// Starts `seat`'s turn, and goes on to the following turns while a turn has nothing to
    /// decide or its decider is stuck and must pass.
    #[inline(always)]
    fn begin_turn(&self, s: &mut State, seat: u8, l: &mut [Value]) -> Result<(), EngineError> {
        let mut seat = seat;
        let mut passes = 0u32;
        for _ in 0..MAX_EMPTY_TURNS {
            s.turn_seat = seat;
            s.step = 0;
            s.turn_actions = 0;
            let p = &self.game.phases[s.phase as usize];
            let hook = self.plans.phase(s.phase).before_turn;
            Runner::new(self, seat).run_body(s, &p.before_turn, hook, l)?;
            if s.outcome.is_some() {
                return Ok(());
            }
            let phase = s.phase;
            if self.settle_step(s, l) {
                if self.has_legal_action_with(s, l) {
                    return Ok(());
                }
                if self.stuck_ends_game(s, l) {
                    return Ok(());
                }
                passes += 1;
                if passes > s.players as u32 {
                    // Nobody can act: the game cannot go on.
                    s.outcome = Some(Outcome::Draw);
                    return Ok(());
                }
            }
            match self.end_turn(s, l, false)? {
                Some(next) => seat = next,
                None => return Ok(()),
            }
            if s.phase != phase {
                passes = 0;
            }
        }
        Err(EngineError::rules(
            code::NO_PROGRESS,
            format!(
                "the rules make no progress: {MAX_EMPTY_TURNS} turns passed with nothing to decide"
            ),
        ))
    }

    /// Applies the `on stuck` rule to a decider with no legal action: the result of the
    /// first `on stuck if` condition that holds, seen from the stuck seat (`me`), else the
    /// fixed one. True if the game is over; false if the turn is to end (a pass, or a loss
    /// that leaves others playing).
    fn stuck_ends_game(&self, s: &mut State, l: &mut [Value]) -> bool {
        let who = self.step_decider(s);
        let end = &self.game.end;
        let mut rule = end.stuck;
        if !end.stuck_if.is_empty() {
            let ev = Eval {
                eng: self,
                s,
                me: who,
            };
            if let Some((_, r)) = end.stuck_if.iter().find(|(c, _)| self.judged(&ev, c, l)) {
                rule = *r;
            }
        }
        match rule {
            StuckRule::Draw => s.outcome = Some(Outcome::Draw),
            StuckRule::Lose => self.eliminate(s, who),
            StuckRule::Pass => {}
        }
        s.outcome.is_some()
    }

    /// Moves past steps whose condition is false; true if a step is left to decide.
    #[inline(always)]
    fn settle_step(&self, s: &mut State, l: &mut [Value]) -> bool {
        let p = &self.game.phases[s.phase as usize];
        while let Some(st) = p.steps.get(s.step as usize) {
            let open = match &st.condition {
                Some(c) => self.judged(
                    &Eval {
                        eng: self,
                        s,
                        me: s.turn_seat,
                    },
                    c,
                    l,
                ),
                None => true,
            };
            // An `all` step in which no seat has a legal action is passed over; the seat
            // that chooses first is remembered for the queries that follow.
            s.chooser = Chooser::Unknown;
            let open =
                open && (st.mode != StepMode::All || self.settle_secret_chooser(s, l).is_some());
            if open {
                return true;
            }
            s.step += 1;
        }
        false
    }

    /// Finishes the turn: hooks, end rules, the cap, the phase's end. Returns the seat whose
    /// turn is next (in a new phase, if this one is over), or `None` when the game ended.
    ///
    /// `judged`: the end rules were judged on this position after the turn's last action,
    /// and nothing happened since. With no `after turn` effects, and end rules that do not
    /// read the turn counters or the history, they would judge it the same again.
    #[inline(always)]
    fn end_turn(
        &self,
        s: &mut State,
        l: &mut [Value],
        judged: bool,
    ) -> Result<Option<u8>, EngineError> {
        let p = &self.game.phases[s.phase as usize];
        // Nothing changed since the end rules judged the position, so far.
        let unchanged = judged && p.after_turn.is_empty();
        let judged = unchanged && !self.end_reads_turns;
        let compiled = self.plans.phase(s.phase);
        Runner::new(self, s.turn_seat).run_body(s, &p.after_turn, compiled.after_turn, l)?;
        s.turns += 1;
        s.phase_turns += 1;
        if self.game.history {
            let key = self.turn_end_key(s, unchanged);
            s.history.push(key);
        }
        if !judged {
            // The end rules read the key just recorded (`repetitions`), not one hashed again.
            let _recorded = super::history::Recorded::new(s);
            if self.check_end(s, l) {
                return Ok(None);
            }
        }
        if s.turns >= self.game.max_turns {
            s.outcome = Some(Outcome::Capped);
            return Ok(None);
        }
        if let Some(until) = &p.until {
            let ev = Eval {
                eng: self,
                s,
                me: s.turn_seat,
            };
            let compiled = compiled.until.map(|i| &self.plans.conds[i].1);
            if plan::judged_by(compiled, &ev, until, l) {
                let next = match &p.next_if {
                    Some(chosen) => self.next_phase(s, chosen, l),
                    None => p.next.unwrap_or(s.phase + 1),
                };
                if (next as usize) < self.game.phases.len() {
                    return self.enter_phase(s, next, l);
                }
                s.outcome = Some(Outcome::Draw);
                return Ok(None);
            }
        }
        match self.next_turn_seat(s, s.turn_seat, l) {
            Some(q) => Ok(Some(q)),
            None => Err(EngineError::rules(
                code::NO_SEAT,
                format!("no seat can take a turn in phase `{}`", p.name),
            )),
        }
    }

    /// The phase `next if ...` chooses as the phase ends, its conditions seen as `until`
    /// sees them: from the seat whose turn just ended.
    fn next_phase(&self, s: &State, chosen: &NextPhase, l: &mut [Value]) -> u16 {
        let ev = Eval {
            eng: self,
            s,
            me: s.turn_seat,
        };
        let mut at = chosen;
        loop {
            match at {
                NextPhase::Phase(p) => return *p,
                NextPhase::If(cond, then, otherwise) => {
                    at = if self.judged(&ev, cond, l) {
                        then
                    } else {
                        otherwise
                    };
                }
            }
        }
    }

    /// The rules' `score` for a seat, if they declare one.
    pub fn score(&self, s: &State, seat: u8) -> Option<i64> {
        let e = self.game.end.score.as_ref()?;
        let mut l = self.locals();
        l[0] = Value::Seat(seat);
        let ev = Eval {
            eng: self,
            s,
            me: seat,
        };
        Some(plan::valued_by(self.plans.score.as_ref(), &ev, e, &mut l).as_int())
    }

    /// The declared end rules; true if the game is now over.
    #[inline(always)]
    fn check_end(&self, s: &mut State, l: &mut [Value]) -> bool {
        if s.outcome.is_some() {
            return true;
        }
        if self.game.history {
            super::history::forget_judged();
        }
        let ev = Eval {
            eng: self,
            s,
            me: s.turn_seat,
        };
        // The compiled conditions where the engine has them (see `plan.rs`).
        let plans = &self.plans;
        for (i, (who, when)) in self.game.end.wins.iter().enumerate() {
            if plan::judged_by(plans.wins.get(i), &ev, when, l) {
                let w = super::effects::winners(ev.eval(who, l));
                if !w.is_empty() {
                    s.outcome = Some(Outcome::Win(w));
                    return true;
                }
            }
        }
        let draw = self
            .game
            .end
            .draws
            .iter()
            .enumerate()
            .any(|(i, d)| plan::judged_by(plans.draws.get(i), &ev, d, l));
        if draw {
            s.outcome = Some(Outcome::Draw);
            return true;
        }
        false
    }

    /// Moves play on after an action. `depth` is how many reactions were pending before
    /// it, so reactions the action started can be told from the one it answered.
    #[inline(always)]
    pub(crate) fn after_action(
        &self,
        s: &mut State,
        action: u16,
        depth: usize,
        l: &mut [Value],
    ) -> Result<(), EngineError> {
        if self.check_end(s, l) {
            s.turns += 1; // the turn that ended the game counts
            return Ok(());
        }
        // Reactions this action started wait on it: its step moves on when they are over.
        for frame in s.reactions.iter_mut().skip(depth) {
            if frame.1 == NONE {
                frame.1 = action;
            }
        }
        if s.reactions.len() > depth {
            return self.settle_reactions(s, l);
        }
        if depth > 0 {
            return self.answered(s, action, l);
        }
        self.advance(s, action, l)
    }

    /// After an action inside the innermost reaction: it ends unless it repeats.
    fn answered(&self, s: &mut State, action: u16, l: &mut [Value]) -> Result<(), EngineError> {
        let Some(&(r, _)) = s.reactions.last() else {
            return Ok(());
        };
        // A `repeat` reaction goes on until `done`; a `loop` one while it has actions.
        if action == DONE
            || action == SKIP
            || !matches!(
                self.game.reactions[r as usize].mode,
                StepMode::Repeat | StepMode::Loop
            )
        {
            return self.finish_reaction(s, l);
        }
        self.settle_reactions(s, l)
    }

    /// Ends the innermost reaction: its `after` effects, then the action that started it
    /// counts as done.
    fn finish_reaction(&self, s: &mut State, l: &mut [Value]) -> Result<(), EngineError> {
        let Some((r, cause)) = s.reactions.pop() else {
            return Ok(());
        };
        Runner::new(self, s.turn_seat).run(s, &self.game.reactions[r as usize].after, l)?;
        if self.check_end(s, l) {
            s.turns += 1;
            return Ok(());
        }
        if !s.reactions.is_empty() {
            return self.answered(s, cause, l);
        }
        self.advance(s, cause, l)
    }

    /// A reaction with nothing to decide but `done` or `skip` is over at once, unless it
    /// says when it is offered (`when COND`): then it is offered exactly while COND holds,
    /// so that whether its seat is asked depends only on what COND reads.
    fn settle_reactions(&self, s: &mut State, l: &mut [Value]) -> Result<(), EngineError> {
        let Some(&(r, _)) = s.reactions.last() else {
            return Ok(());
        };
        let offered = match &self.game.reactions[r as usize].offer {
            Some(c) => {
                let ev = Eval {
                    eng: self,
                    s,
                    me: s.turn_seat,
                };
                let open = self.judged(&ev, c, l);
                open && self.has_legal_action_with(s, l)
            }
            None => self.has_real_choice(s),
        };
        if offered {
            return Ok(());
        }
        self.finish_reaction(s, l)
    }

    /// After an action of the turn's current step: the next step, or the next turn.
    #[inline(always)]
    fn advance(&self, s: &mut State, action: u16, l: &mut [Value]) -> Result<(), EngineError> {
        let p = &self.game.phases[s.phase as usize];
        let mode = p
            .steps
            .get(s.step as usize)
            .map(|st| st.mode)
            .unwrap_or(StepMode::One);
        if s.ending_turn {
            // `end turn`: whatever steps are left are skipped.
            s.ending_turn = false;
            s.step = p.steps.len() as u16;
        } else if action == DONE || !matches!(mode, StepMode::Repeat | StepMode::Loop) {
            s.step += 1;
        }
        // The end rules were judged just before (`check_end`, false); a seat stuck and
        // out of the game changes what they see.
        let mut judged = true;
        if self.settle_step(s, l) {
            if self.has_legal_action_with(s, l) || self.stuck_ends_game(s, l) {
                return Ok(());
            }
            judged = false;
        }
        if let Some(next) = self.end_turn(s, l, judged)? {
            self.begin_turn(s, next, l)?;
        }
        Ok(())
    }
}
