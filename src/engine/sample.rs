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
    /// Each component's home seat for a player count: the seat that owns it after `start`
    /// whatever the seed (tried with several seeds), or `NO_SEAT`. This is what the rules
    /// alone say of where a component belongs (in a game where each seat gets a fixed
    /// part of the components, its part); it says nothing that a view hides.
    pub fn home_seats(&self, players: u8) -> &[u8] {
        let Some(cell) = self.homes.get(players as usize) else {
            return &[];
        };
        cell.get_or_init(|| {
            const SEEDS: [u64; 8] = [1, 2, 3, 5, 8, 13, 21, 34];
            let mut homes: Option<Vec<u8>> = None;
            for seed in SEEDS {
                let Ok(s) = self.start(players, seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)) else {
                    return Vec::new();
                };
                match &mut homes {
                    None => homes = Some(s.owners.clone()),
                    Some(h) => {
                        for (h, &o) in h.iter_mut().zip(&s.owners) {
                            if *h != o {
                                *h = NO_SEAT;
                            }
                        }
                    }
                }
            }
            homes.unwrap_or_default()
        })
    }

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
    /// never shown, is seeded afresh from `rng`. A hidden place owned by a seat takes, while
    /// there are any, unseen components whose home is that seat (`home_seats`), then
    /// components with no home; a place owned by no one takes components with no home
    /// first.
    ///
    /// The secret choices of an `all` step are kept for the viewer's own seat; every other
    /// seat that has chosen is given a choice drawn at random from its legal actions in the
    /// sample, so that the sample never holds another seat's real secret choice.
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
        // The unseen components by home seat; the last bucket holds those with no home.
        let homes = self.home_seats(view.players);
        let none = view.players as usize;
        let mut buckets: Vec<Vec<u16>> = vec![Vec::new(); none + 1];
        for c in (0..ncomp as u16).filter(|&c| !seen[c as usize]) {
            let h = homes
                .get(c as usize)
                .map_or(none, |&h| (h as usize).min(none));
            buckets[h].push(c);
        }
        for b in &mut buckets {
            b.shuffle(rng);
        }
        let mut draw = |owner: u8| -> Option<u16> {
            let first = (owner as usize).min(none);
            if let Some(c) = buckets[first].pop() {
                return Some(c);
            }
            if let Some(c) = buckets[none].pop() {
                return Some(c);
            }
            buckets.iter_mut().find_map(|b| b.pop())
        };
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
            attr_over: view.attr_over.clone(),
            ending_turn: view.ending_turn,
            reactions: view.reactions.clone(),
            shapes: view.shapes.clone(),
            links: view.links.clone(),
            secret: Vec::new(),
            // The positions of the game so far are not part of a view: a sampled game
            // counts repetitions from the sample on.
            history: Vec::new(),
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
            occupancy: Vec::new(),
            chooser: Default::default(),
            ahead: Default::default(),
        };
        s.reindex();
        // Each hidden place's per-piece variables go to the component drawn for it.
        let nvars = self.game.vars.len();
        let mut rows = view.hidden_vars.chunks(nvars.max(1));
        let mut give_vars = |s: &mut State, comp: u16| {
            if let Some(row) = rows.next() {
                let at = comp as usize * nvars;
                if let Some(dst) = s.comp_vars.get_mut(at..at + nvars) {
                    dst.clone_from_slice(row);
                }
            }
        };
        for (cell, x) in view.cells.iter().enumerate() {
            let (comp, owner, up) = match *x {
                Seen::Empty => continue,
                Seen::Known { comp, owner } => (comp, owner, true),
                Seen::Hidden { owner } => match draw(owner) {
                    Some(comp) => {
                        give_vars(&mut s, comp);
                        (comp, owner, false)
                    }
                    None => continue,
                },
            };
            s.set_owner(comp, owner);
            s.locs[comp as usize] = Loc::Cell(cell as u16);
            s.set_cell(cell as u16, comp);
            s.face_up[comp as usize] = up;
        }
        for (inst, zone) in view.zones.iter().enumerate() {
            for x in zone {
                let (comp, owner) = match *x {
                    Seen::Empty => continue,
                    Seen::Known { comp, owner } => (comp, owner),
                    Seen::Hidden { owner } => match draw(owner) {
                        Some(comp) => {
                            give_vars(&mut s, comp);
                            (comp, owner)
                        }
                        None => continue,
                    },
                };
                s.zones[inst].push(comp);
                s.locs[comp as usize] = Loc::Zone(inst as u16);
                s.set_owner(comp, owner);
            }
        }
        // The secret choices of an `all` step: the viewer's own are kept; each other
        // seat that has chosen chooses again, at random among its legal actions in the
        // sample (nothing has been applied since the step began, so these are the
        // actions it had). A seat left with no legal action in the sample drops out.
        for (seat, chosen) in &view.secret {
            let act = match chosen {
                Some(a) => Some(a.clone()),
                None => {
                    let legal = self.legal_actions_for(&s, *seat);
                    (!legal.is_empty()).then(|| legal[rng.gen_range(0..legal.len())].clone())
                }
            };
            if let Some(a) = act {
                s.secret.push((*seat, a));
            }
        }
        s
    }
}
