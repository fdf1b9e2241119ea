//! Views: exactly what one seat may know of a state. Text play and agents see views,
//! never the state itself (except the explicit omniscient view, for debugging).

use super::state::{Loc, Outcome, State, NONE, NO_SEAT};
use super::Engine;
use crate::ir::{Value, Visibility};
use serde::Serialize;

/// What a viewer sees of one place.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Seen {
    Empty,
    /// A component the viewer may identify.
    Known {
        comp: u16,
        owner: u8,
    },
    /// A component the viewer knows is there but may not identify.
    Hidden {
        owner: u8,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    /// The seat this view is for; `None` for the omniscient view.
    pub seat: Option<u8>,
    pub players: u8,
    pub phase: u16,
    pub turn_seat: u8,
    pub decider: Option<u8>,
    pub turns: u32,
    pub phase_turns: u32,
    /// The step of the turn being decided, and how many actions the game and the current
    /// turn have seen.
    pub step: u16,
    pub actions: u32,
    pub turn_actions: u32,
    pub outcome: Option<Outcome>,
    pub cells: Vec<Seen>,
    /// Each zone instance, bottom first.
    pub zones: Vec<Vec<Seen>>,
    /// The variables, as this seat may know them: a value it may not see (a `hidden`
    /// variable, another seat's `owner` variable) is `Value::None`.
    pub globals: Vec<Value>,
    pub seat_vars: Vec<Value>,
    /// Per-piece variables of the components this seat can identify
    /// (`comp_vars[comp * vars + var]`); `Value::None` for the others, so that a value
    /// never tells which hidden component it belongs to.
    pub comp_vars: Vec<Value>,
    /// Attributes changed in play (`State::attr_over`) of the components this seat
    /// can identify.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub attr_over: Vec<(u16, u16, Value)>,
    /// The per-piece variables of each component this seat cannot identify, by place:
    /// one row of `vars` values for each `Seen::Hidden` place, cells first and then zone
    /// instances in order (empty when the rules declare no per-piece variable).
    pub hidden_vars: Vec<Value>,
    /// Reactions waiting to be decided (public: everyone sees who must answer).
    pub reactions: Vec<(u16, u16)>,
    /// The shapes laid out on the areas, and the links between cells (public: the
    /// board's topology is for everyone to see).
    pub shapes: Vec<u16>,
    pub links: Vec<u64>,
    pub ending_turn: bool,
    pub eliminated: Vec<bool>,
    /// The secret choices of the current `all` step made so far, in the order made: every
    /// seat sees who has chosen, but only what it chose itself (`None` for the others;
    /// the omniscient view sees every choice).
    pub secret: Vec<(u8, Option<super::Action>)>,
}

impl Engine {
    /// What `seat` may know of the state.
    pub fn view(&self, s: &State, seat: u8) -> View {
        self.make_view(s, Some(seat))
    }

    /// What every seat may see, and no more: the view of a spectator.
    pub fn public_view(&self, s: &State) -> View {
        self.make_view(s, Some(NO_SEAT))
    }

    /// Everything, for debugging and for watching agents (`--reveal`).
    pub fn omniscient_view(&self, s: &State) -> View {
        self.make_view(s, None)
    }

    /// Whether `seat` may identify `comp` where it is now (`None`: the omniscient viewer).
    pub fn visible_to(&self, s: &State, comp: u16, seat: Option<u8>) -> bool {
        let Some(seat) = seat else {
            return true;
        };
        match s.locs[comp as usize] {
            Loc::Cell(_) => {
                s.face_up[comp as usize] || (seat != NO_SEAT && s.owners[comp as usize] == seat)
            }
            Loc::Zone(inst) => {
                let (z, zs, _) = self.zone_of_instance(inst);
                let zd = &self.game.zones[z as usize];
                match zd.visibility {
                    Visibility::Public => true,
                    Visibility::Owner => zd.per_seat && zs == seat,
                    Visibility::Hidden => false,
                    Visibility::Top => s.zones[inst as usize].last() == Some(&comp),
                }
            }
        }
    }

    /// Whether `seat` may see variable `var` of the seat or component owned by `owner`.
    fn var_visible(&self, var: usize, owner: u8, seat: Option<u8>) -> bool {
        match (seat, self.game.vars[var].visibility) {
            (None, _) | (_, Visibility::Public | Visibility::Top) => true,
            (Some(me), Visibility::Owner) => owner == me && me != NO_SEAT,
            (Some(_), Visibility::Hidden) => false,
        }
    }

    fn make_view(&self, s: &State, seat: Option<u8>) -> View {
        let sees = |comp: u16| {
            let owner = s.owners[comp as usize];
            if self.visible_to(s, comp, seat) {
                Seen::Known { comp, owner }
            } else {
                Seen::Hidden { owner }
            }
        };
        let cells: Vec<Seen> = s
            .cells
            .iter()
            .map(|&c| if c == NONE { Seen::Empty } else { sees(c) })
            .collect();
        let zones: Vec<Vec<Seen>> = s
            .zones
            .iter()
            .map(|comps| comps.iter().map(|&c| sees(c)).collect())
            .collect();
        let nvars = self.game.vars.len();
        let mask = |values: &[Value], owner_of: &dyn Fn(usize) -> u8| -> Vec<Value> {
            values
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    if self.var_visible(i % nvars.max(1), owner_of(i), seat) {
                        v.clone()
                    } else {
                        Value::None
                    }
                })
                .collect()
        };
        let globals = mask(&s.globals, &|_| NO_SEAT);
        let seat_vars = mask(&s.seat_vars, &|i| (i / nvars.max(1)) as u8);
        // Per-piece variables go with what the viewer can tell apart: by component for
        // the components it identifies, by place for the others.
        let mut comp_vars = vec![Value::None; s.comp_vars.len()];
        let mut hidden_vars = Vec::new();
        if !s.comp_vars.is_empty() && nvars > 0 {
            // Whether each variable is visible of a component of the viewer's own, and of
            // anyone else's.
            let (own, others): (Vec<bool>, Vec<bool>) = (0..nvars)
                .map(|v| {
                    let other = if seat == Some(0) { 1 } else { 0 };
                    (
                        seat.is_none_or(|me| self.var_visible(v, me, seat)),
                        self.var_visible(v, other, seat),
                    )
                })
                .unzip();
            let placed = s
                .cells
                .iter()
                .filter(|&&c| c != NONE)
                .chain(s.zones.iter().flatten());
            for &c in placed {
                let owner = s.owners[c as usize];
                let sees = if seat.is_some_and(|me| me == owner) {
                    &own
                } else {
                    &others
                };
                let at = c as usize * nvars;
                let row = &s.comp_vars[at..at + nvars];
                if self.visible_to(s, c, seat) {
                    for (v, x) in row.iter().enumerate() {
                        if sees[v] {
                            Value::set(&mut comp_vars[at + v], x.clone());
                        }
                    }
                } else {
                    hidden_vars.extend(row.iter().enumerate().map(|(v, x)| {
                        if sees[v] {
                            x.clone()
                        } else {
                            Value::None
                        }
                    }));
                }
            }
        }
        let attr_over = s
            .attr_over
            .iter()
            .filter(|(c, _, _)| self.visible_to(s, *c, seat))
            .cloned()
            .collect();
        View {
            seat,
            players: s.players,
            phase: s.phase,
            turn_seat: s.turn_seat,
            decider: self.decider(s),
            turns: s.turns,
            phase_turns: s.phase_turns,
            step: s.step,
            actions: s.actions,
            turn_actions: s.turn_actions,
            outcome: s.outcome.clone(),
            cells,
            zones,
            globals,
            seat_vars,
            comp_vars,
            attr_over,
            hidden_vars,
            reactions: s.reactions.clone(),
            shapes: s.shapes.clone(),
            links: s.links.clone(),
            ending_turn: s.ending_turn,
            eliminated: s.eliminated.clone(),
            secret: s
                .secret
                .iter()
                .map(|(q, a)| {
                    let own = seat.is_none_or(|me| me == *q);
                    (*q, own.then(|| a.clone()))
                })
                .collect(),
        }
    }
}
