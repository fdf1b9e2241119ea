//! Views: exactly what one seat may know of a state. Text play and agents see views,
//! never the state itself (except the explicit omniscient view, for debugging).

use super::state::{Outcome, State, NONE};
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
    pub globals: Vec<Value>,
    pub seat_vars: Vec<Value>,
    /// Per-piece variables: public, like the pieces' places on the board.
    pub comp_vars: Vec<Value>,
    /// Reactions waiting to be decided (public: everyone sees who must answer).
    pub reactions: Vec<(u16, u16)>,
    /// The shapes laid out on the areas, and the links between cells (public: the
    /// board's topology is for everyone to see).
    pub shapes: Vec<u16>,
    pub links: Vec<u64>,
    pub ending_turn: bool,
    pub eliminated: Vec<bool>,
}

impl Engine {
    /// What `seat` may know of the state.
    pub fn view(&self, s: &State, seat: u8) -> View {
        self.make_view(s, Some(seat))
    }

    /// Everything, for debugging and for watching agents (`--reveal`).
    pub fn omniscient_view(&self, s: &State) -> View {
        self.make_view(s, None)
    }

    fn make_view(&self, s: &State, seat: Option<u8>) -> View {
        let sees = |comp: u16, visible: bool| {
            let owner = s.owners[comp as usize];
            if visible || seat.is_none() {
                Seen::Known { comp, owner }
            } else {
                Seen::Hidden { owner }
            }
        };
        let cells = s
            .cells
            .iter()
            .map(|&c| {
                if c == NONE {
                    Seen::Empty
                } else {
                    sees(
                        c,
                        s.face_up[c as usize] || Some(s.owners[c as usize]) == seat,
                    )
                }
            })
            .collect();
        let zones = s
            .zones
            .iter()
            .enumerate()
            .map(|(inst, comps)| {
                let (z, zs, _) = self.zone_of_instance(inst as u16);
                let zd = &self.game.zones[z as usize];
                let top = comps.len().saturating_sub(1);
                comps
                    .iter()
                    .enumerate()
                    .map(|(i, &c)| {
                        let visible = match zd.visibility {
                            Visibility::Public => true,
                            Visibility::Owner => zd.per_seat && Some(zs) == seat,
                            Visibility::Hidden => false,
                            Visibility::Top => i == top,
                        };
                        sees(c, visible)
                    })
                    .collect()
            })
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
            globals: s.globals.clone(),
            seat_vars: s.seat_vars.clone(),
            comp_vars: s.comp_vars.clone(),
            reactions: s.reactions.clone(),
            shapes: s.shapes.clone(),
            links: s.links.clone(),
            ending_turn: s.ending_turn,
            eliminated: s.eliminated.clone(),
        }
    }
}
