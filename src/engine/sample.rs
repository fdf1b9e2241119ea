//! Determinization: complete states consistent with what one seat may know. Search agents
//! for games with hidden information play out such samples instead of the real state,
//! which they are never given.

use super::state::{Loc, State, NONE, NO_SEAT};
use super::view::{Seen, View};
use super::Engine;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

impl Engine {
    /// A complete state that `view` could have been taken from, with the hidden part drawn
    /// at random.
    ///
    /// Everything the view reveals is kept exactly: every component it shows (on its cell or
    /// at its position in its zone instance, with its owner), every empty cell, the size of
    /// every zone instance, the owner shown for each hidden component, the variables, the
    /// phase, the turn's seat, the step, the counters, who is out and the outcome. Each
    /// hidden place receives a component the view shows nowhere, drawn uniformly at random
    /// without replacement, so the sample respects the counts: the components are conserved
    /// (each in exactly one place), and the hidden places receive exactly the components
    /// the viewer has not seen. Components on cells are face up if the view shows them and
    /// face down if it hides them. The state's own RNG, which decides future shuffles and is
    /// never shown, is seeded afresh from `rng`.
    ///
    /// The engine's view of the sample is the view given (`view(&sample, seat) == *view`).
    /// With a view that hides nothing (no hidden component, or the omniscient view) the
    /// sample is the state itself, its RNG apart.
    ///
    /// The view must come from [`Engine::view`] on a state of this game. A view with more
    /// hidden places than unseen components (which no state produces) leaves the extra
    /// places empty.
    pub fn sample_state(&self, view: &View, rng: &mut impl Rng) -> State {
        let ncomp = self.game.components.len();
        let mut seen = vec![false; ncomp];
        let known = view
            .cells
            .iter()
            .chain(view.zones.iter().flatten())
            .filter_map(|x| match x {
                Seen::Known { comp, .. } => Some(*comp as usize),
                _ => None,
            });
        for c in known {
            if c < ncomp {
                seen[c] = true;
            }
        }
        let mut unseen: Vec<u16> = (0..ncomp as u16).filter(|&c| !seen[c as usize]).collect();
        unseen.shuffle(rng);
        let mut s = State {
            players: view.players,
            cells: vec![NONE; view.cells.len()],
            zones: vec![Vec::new(); view.zones.len()],
            locs: vec![Loc::Zone(0); ncomp],
            owners: vec![NO_SEAT; ncomp],
            face_up: vec![true; ncomp],
            globals: view.globals.clone(),
            seat_vars: view.seat_vars.clone(),
            comp_vars: view.comp_vars.clone(),
            ending_turn: view.ending_turn,
            reactions: view.reactions.clone(),
            eliminated: view.eliminated.clone(),
            phase: view.phase,
            turn_seat: view.turn_seat,
            step: view.step,
            turns: view.turns,
            phase_turns: view.phase_turns,
            actions: view.actions,
            turn_actions: view.turn_actions,
            outcome: view.outcome.clone(),
            rng: ChaCha8Rng::seed_from_u64(rng.gen()),
        };
        for (cell, x) in view.cells.iter().enumerate() {
            let (comp, owner, up) = match *x {
                Seen::Empty => continue,
                Seen::Known { comp, owner } => (comp, owner, true),
                Seen::Hidden { owner } => match unseen.pop() {
                    Some(comp) => (comp, owner, false),
                    None => continue,
                },
            };
            s.cells[cell] = comp;
            s.locs[comp as usize] = Loc::Cell(cell as u16);
            s.owners[comp as usize] = owner;
            s.face_up[comp as usize] = up;
        }
        for (inst, zone) in view.zones.iter().enumerate() {
            for x in zone {
                let (comp, owner) = match *x {
                    Seen::Empty => continue,
                    Seen::Known { comp, owner } => (comp, owner),
                    Seen::Hidden { owner } => match unseen.pop() {
                        Some(comp) => (comp, owner),
                        None => continue,
                    },
                };
                s.zones[inst].push(comp);
                s.locs[comp as usize] = Loc::Zone(inst as u16);
                s.owners[comp as usize] = owner;
            }
        }
        s
    }
}
