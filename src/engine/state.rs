//! The game state: plain data, cloneable, serialisable and hashable. Its RNG lives in it,
//! so (rules, variant, seed, actions) replays exactly.

use super::legal::Action;
use crate::ir::{CompId, Value};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::hash::{Hash, Hasher};

/// No component / no seat.
pub const NONE: u16 = u16::MAX;
pub const NO_SEAT: u8 = u8::MAX;

/// Where a component is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Loc {
    Cell(u16),
    /// A zone instance (see `Engine::zone_instance`) and the position in it, 0 at the bottom.
    Zone(u16),
}

/// Seats, such as the winners of a game: on the stack for up to eight, so that the apply
/// that ends a game allocates nothing.
pub type Seats = smallvec::SmallVec<[u8; 8]>;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// The winning seats (one, or several sharing a win).
    Win(Seats),
    Draw,
    /// Stopped by the length cap: neither a win nor a draw.
    Capped,
}

#[derive(Debug, PartialEq, Serialize)]
pub struct State {
    pub players: u8,
    /// The component on each cell, or `NONE`.
    pub cells: Vec<CompId>,
    /// Each zone instance's components, bottom first.
    pub zones: Vec<Vec<CompId>>,
    pub locs: Vec<Loc>,
    pub owners: Vec<u8>,
    pub face_up: Vec<bool>,
    pub globals: Vec<Value>,
    /// `seat_vars[seat * vars + var]`.
    pub seat_vars: Vec<Value>,
    /// `comp_vars[comp * vars + var]`, for per-piece variables (empty if there are none).
    pub comp_vars: Vec<Value>,
    /// Attributes changed in play, `(component, attribute, value)`, in order of component
    /// and attribute; a value equal to the rules' own is not kept. Consulted before the
    /// rules' attributes, and empty (costing nothing) in games that change none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attr_over: Vec<(u16, u16, Value)>,
    /// Set by `end turn`: the turn ends once the current action is over.
    pub ending_turn: bool,
    pub eliminated: Vec<bool>,
    pub phase: u16,
    pub turn_seat: u8,
    pub step: u16,
    /// Turns completed in the whole game.
    pub turns: u32,
    /// Turns completed in the current phase.
    pub phase_turns: u32,
    /// Actions applied in the whole game.
    pub actions: u32,
    /// Actions applied since the current turn began (reactions' included).
    pub turn_actions: u32,
    pub outcome: Option<Outcome>,
    /// Reactions waiting to be decided, innermost last: the reaction and the action
    /// that started it (whose step moves on once the reaction is over).
    pub reactions: Vec<(u16, u16)>,
    /// The shape laid out on each area instance, or `NONE`.
    pub shapes: Vec<u16>,
    /// The links between cells: one bit row per cell (empty on a board without areas).
    pub links: Vec<u64>,
    /// The secret choices made so far in an `all` step, in the order they were made (turn
    /// order from the turn's seat): each seat and the action it chose. Nothing of them is
    /// applied until the last seat has chosen; a view shows each seat only its own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub secret: Vec<(u8, Action)>,
    /// Every position that stood before an action, as a key (`Engine::position_key`), in
    /// order; kept only when the rules read `repetitions`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub history: Vec<u64>,
    pub rng: ChaCha8Rng,
    /// Which cells hold a component, one bit each, in rows of `cells.len()` bits rounded
    /// up to whole words: a row per seat for its components, one for components of no
    /// seat, and one for all. Kept in step by `set_cell` and `set_owner`; derived, so
    /// neither hashed nor written out. A state is never read back whole (a saved game is
    /// its actions), so `State` has no `Deserialize`: one built whole is `reindex`ed.
    #[serde(skip)]
    pub(crate) occupancy: Vec<u64>,
    /// The seat that chooses next in the `all` step under way, as `Engine::next_secret_chooser`
    /// found it where the step was entered and after each choice (see `Chooser`).
    #[serde(skip)]
    pub(crate) chooser: Chooser,
    /// Where `apply` lists the next decision's actions for a playout that asked for them
    /// (`Engine::apply_and_list`): not part of the position (see `Ahead`).
    #[serde(skip)]
    pub(crate) ahead: super::ahead::Ahead,
}

/// The next secret chooser of an `all` step, remembered in the state: worked out where the
/// step is entered (`settle_step`) and after each secret choice (`apply`), which are the
/// only places it can change, and read by every query and `apply` in between instead of
/// walking the seats' actions again. `Unknown` where it was not worked out (outside such a
/// step, a state made whole): then it is worked out when asked. An answer remembered, not
/// part of the position: states that differ only in it are equal, and it is neither hashed
/// nor written out.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) enum Chooser {
    #[default]
    Unknown,
    Known(Option<u8>),
}

impl PartialEq for Chooser {
    fn eq(&self, _: &Chooser) -> bool {
        true
    }
}

impl State {
    /// The words of one row of `occupancy`.
    #[inline(always)]
    fn words(&self) -> usize {
        self.cells.len().div_ceil(64)
    }

    /// The row of `occupancy` a component of `owner` is in, besides the row of all: a
    /// seat's own, or the row of no seat's; none for anything else.
    #[inline(always)]
    fn owner_row(&self, owner: u8) -> Option<usize> {
        if owner < self.players {
            Some(owner as usize)
        } else if owner == NO_SEAT {
            Some(self.players as usize)
        } else {
            None
        }
    }

    /// Sets or clears cell `c`'s bit in the row of all and in its owner's row.
    #[inline(always)]
    fn mark(&mut self, c: u16, comp: CompId, on: bool) {
        let w = self.words();
        let (at, bit) = (c as usize / 64, 1u64 << (c % 64));
        let owner = self.owners.get(comp as usize).copied().unwrap_or(NO_SEAT);
        let rows = [Some(self.players as usize + 1), self.owner_row(owner)];
        for row in rows.into_iter().flatten() {
            if let Some(word) = self.occupancy.get_mut(row * w + at) {
                if on {
                    *word |= bit;
                } else {
                    *word &= !bit;
                }
            }
        }
    }

    /// Puts `comp` on cell `c` (`NONE` empties it), keeping `occupancy` in step. Every
    /// write of `cells` goes through here.
    #[inline]
    pub fn set_cell(&mut self, c: u16, comp: CompId) {
        let Some(&old) = self.cells.get(c as usize) else {
            return;
        };
        if old != NONE {
            self.mark(c, old, false);
        }
        self.cells[c as usize] = comp;
        if comp != NONE {
            self.mark(c, comp, true);
        }
    }

    /// Gives `comp` to `owner`, keeping `occupancy` in step if it stands on a cell. Every
    /// write of `owners` goes through here.
    #[inline]
    pub fn set_owner(&mut self, comp: CompId, owner: u8) {
        let on = match self.locs.get(comp as usize) {
            Some(&Loc::Cell(c)) if self.cells.get(c as usize) == Some(&comp) => Some(c),
            _ => None,
        };
        if let Some(c) = on {
            self.mark(c, comp, false);
        }
        if let Some(o) = self.owners.get_mut(comp as usize) {
            *o = owner;
        }
        if let Some(c) = on {
            self.mark(c, comp, true);
        }
    }

    /// Builds what the state derives from its fields anew: `occupancy` from `cells` and
    /// `owners`, and the next secret chooser forgotten (`Chooser::Unknown`), to be worked
    /// out again when asked. For a state made whole (the start, a sample from a view) or
    /// edited by hand (a scenario's position) rather than by the engine.
    pub fn reindex(&mut self) {
        self.chooser = Chooser::Unknown;
        self.occupancy.clear();
        self.occupancy
            .resize((self.players as usize + 2) * self.words(), 0);
        for c in 0..self.cells.len() {
            let comp = self.cells[c];
            if comp != NONE {
                self.mark(c as u16, comp, true);
            }
        }
    }

    /// The cells held by components of `seat` (`Some(NO_SEAT)`: of no seat; `None`: of
    /// anyone), one bit each in cell order; empty for a seat that is none of these.
    #[inline]
    pub fn occupied_by(&self, seat: Option<u8>) -> &[u64] {
        let w = self.words();
        (self.occupied_row(seat))
            .and_then(|r| self.occupancy.get(r * w..(r + 1) * w))
            .unwrap_or(&[])
    }

    /// The row of `occupancy` that `occupied_by(seat)` reads.
    #[inline(always)]
    fn occupied_row(&self, seat: Option<u8>) -> Option<usize> {
        match seat {
            None => Some(self.players as usize + 1),
            Some(p) => self.owner_row(p),
        }
    }

    /// `occupied_by(seat)`'s first word: all of it on a board of at most 64 cells. Read
    /// where it stands: every row of `occupancy` is whole (see `reindex`).
    #[inline]
    pub(crate) fn occupied_word(&self, seat: Option<u8>) -> u64 {
        (self.occupied_row(seat))
            .and_then(|r| self.occupancy.get(r * self.words()))
            .copied()
            .unwrap_or(0)
    }

    /// How many cells `occupied_by(seat)` holds.
    #[inline]
    pub fn count_occupied_by(&self, seat: Option<u8>) -> usize {
        let row = self.occupied_by(seat);
        row.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Calls `f` on each cell holding a component, with the component, in cell order,
    /// while it says to go on; false if it stopped.
    #[inline]
    pub fn each_occupied(&self, f: impl FnMut(u16, u16) -> bool) -> bool {
        self.each_occupied_by(None, f)
    }

    /// `each_occupied` over the cells of `occupied_by(seat)`: the seat's own, found a
    /// word of 64 cells at a time.
    #[inline]
    pub fn each_occupied_by(&self, seat: Option<u8>, mut f: impl FnMut(u16, u16) -> bool) -> bool {
        for (i, &word) in self.occupied_by(seat).iter().enumerate() {
            let mut w = word;
            while w != 0 {
                let c = (i * 64) as u16 + w.trailing_zeros() as u16;
                w &= w - 1;
                if !f(c, self.cells[c as usize]) {
                    return false;
                }
            }
        }
        true
    }

    /// Whether `occupancy` agrees with `cells` and `owners` (for tests).
    pub fn index_agrees(&self) -> bool {
        let mut fresh = self.clone();
        fresh.reindex();
        fresh.occupancy == self.occupancy
    }
}

/// Written out so that `clone_from` reuses the storage of the state cloned into: a search
/// that copies positions into states it keeps (and `require afterwards`, which tries an
/// action on a copy) allocates nothing once those states have grown. Every field is named
/// in `clone`'s literal and `clone_from`'s pattern, so a new field cannot be forgotten.
impl Clone for State {
    fn clone(&self) -> State {
        State {
            players: self.players,
            cells: self.cells.clone(),
            zones: self.zones.clone(),
            locs: self.locs.clone(),
            owners: self.owners.clone(),
            face_up: self.face_up.clone(),
            globals: self.globals.clone(),
            seat_vars: self.seat_vars.clone(),
            comp_vars: self.comp_vars.clone(),
            attr_over: self.attr_over.clone(),
            ending_turn: self.ending_turn,
            eliminated: self.eliminated.clone(),
            phase: self.phase,
            turn_seat: self.turn_seat,
            step: self.step,
            turns: self.turns,
            phase_turns: self.phase_turns,
            actions: self.actions,
            turn_actions: self.turn_actions,
            outcome: self.outcome.clone(),
            reactions: self.reactions.clone(),
            shapes: self.shapes.clone(),
            links: self.links.clone(),
            secret: self.secret.clone(),
            history: self.history.clone(),
            rng: self.rng.clone(),
            occupancy: self.occupancy.clone(),
            chooser: self.chooser,
            ahead: Default::default(),
        }
    }

    fn clone_from(&mut self, source: &State) {
        self.copy_from(source, true);
    }
}

/// Which of a state's variable lists: the globals, the seats' or the pieces'.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Vars {
    Globals,
    Seats,
    Pieces,
}

impl State {
    /// One of the state's variable lists (see `Vars`).
    pub(crate) fn vars(&self, which: Vars) -> &Vec<Value> {
        match which {
            Vars::Globals => &self.globals,
            Vars::Seats => &self.seat_vars,
            Vars::Pieces => &self.comp_vars,
        }
    }

    pub(crate) fn vars_mut(&mut self, which: Vars) -> &mut Vec<Value> {
        match which {
            Vars::Globals => &mut self.globals,
            Vars::Seats => &mut self.seat_vars,
            Vars::Pieces => &mut self.comp_vars,
        }
    }

    /// `copy_from` of what a `move` changes only (`Touched::Moves`): where the components
    /// stand, their owners and faces, and the index of occupied cells.
    pub(crate) fn copy_moves_from(&mut self, source: &State) {
        self.cells.clone_from(&source.cells);
        self.zones.clone_from(&source.zones);
        self.locs.clone_from(&source.locs);
        self.owners.clone_from(&source.owners);
        self.face_up.clone_from(&source.face_up);
        self.occupancy.clone_from(&source.occupancy);
    }

    /// `copy_moves_from` for a state that differs from `source` at most where the
    /// components `moved` stand or stood (`Touched::Moved`): the cell or zone each stands
    /// at here and the one it stood at in `source`, its owner and face, and the index of
    /// occupied cells. A cell or zone whose contents changed had a component arrive or
    /// leave, which either stands there here or stood there in `source`: one in between
    /// left it again, and what it passed by is as it was.
    pub(crate) fn copy_moved_from(&mut self, source: &State, moved: &[u16]) {
        for &comp in moved {
            let c = comp as usize;
            for at in [self.locs[c], source.locs[c]] {
                match at {
                    Loc::Cell(x) => self.cells[x as usize] = source.cells[x as usize],
                    Loc::Zone(z) => self.zones[z as usize].clone_from(&source.zones[z as usize]),
                }
            }
            self.locs[c] = source.locs[c];
            self.owners[c] = source.owners[c];
            self.face_up[c] = source.face_up[c];
        }
        self.occupancy.clone_from(&source.occupancy);
    }

    /// `clone_from`, or (`all` false) without the variables and the positions seen: for
    /// a state that already holds `source`'s variables but for a few, which the caller
    /// copies itself, and its history, which effects never write (see
    /// `Engine::judged_afterwards`).
    pub(crate) fn copy_from(&mut self, source: &State, all: bool) {
        let State {
            players,
            cells,
            zones,
            locs,
            owners,
            face_up,
            globals,
            seat_vars,
            comp_vars,
            attr_over,
            ending_turn,
            eliminated,
            phase,
            turn_seat,
            step,
            turns,
            phase_turns,
            actions,
            turn_actions,
            outcome,
            reactions,
            shapes,
            links,
            secret,
            history,
            rng,
            occupancy,
            chooser,
            ahead: _,
        } = source;
        self.players = *players;
        self.cells.clone_from(cells);
        self.zones.clone_from(zones);
        self.locs.clone_from(locs);
        self.owners.clone_from(owners);
        self.face_up.clone_from(face_up);
        if all {
            // Lists and routes in and out of the pool (see `pool::copy_values`).
            super::pool::copy_values(&mut self.globals, globals);
            super::pool::copy_values(&mut self.seat_vars, seat_vars);
            super::pool::copy_values(&mut self.comp_vars, comp_vars);
        }
        self.attr_over.clone_from(attr_over);
        self.ending_turn = *ending_turn;
        self.eliminated.clone_from(eliminated);
        self.phase = *phase;
        self.turn_seat = *turn_seat;
        self.step = *step;
        self.turns = *turns;
        self.phase_turns = *phase_turns;
        self.actions = *actions;
        self.turn_actions = *turn_actions;
        self.outcome.clone_from(outcome);
        self.reactions.clone_from(reactions);
        self.shapes.clone_from(shapes);
        self.links.clone_from(links);
        self.secret.clone_from(secret);
        if all {
            self.history.clone_from(history);
        }
        self.rng.clone_from(rng);
        self.occupancy.clone_from(occupancy);
        self.chooser = *chooser;
    }
}

impl Hash for State {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.players.hash(h);
        self.cells.hash(h);
        self.zones.hash(h);
        self.locs.hash(h);
        self.owners.hash(h);
        self.face_up.hash(h);
        self.globals.hash(h);
        self.seat_vars.hash(h);
        self.comp_vars.hash(h);
        if !self.attr_over.is_empty() {
            self.attr_over.hash(h);
        }
        self.ending_turn.hash(h);
        self.eliminated.hash(h);
        self.phase.hash(h);
        self.turn_seat.hash(h);
        self.step.hash(h);
        self.turns.hash(h);
        self.phase_turns.hash(h);
        self.actions.hash(h);
        self.turn_actions.hash(h);
        self.outcome.hash(h);
        self.reactions.hash(h);
        self.shapes.hash(h);
        self.links.hash(h);
        // Hashed only when present, so that states of games without `all` steps hash as
        // they always have.
        if !self.history.is_empty() {
            self.history.hash(h);
        }
        if !self.secret.is_empty() {
            self.secret.hash(h);
        }
        self.rng.get_seed().hash(h);
        self.rng.get_word_pos().hash(h);
    }
}

impl Eq for State {}
