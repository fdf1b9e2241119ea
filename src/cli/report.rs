//! What an action did, in words, for one seat: the difference between that seat's views
//! before and after it. Built from views alone, a report tells a seat only what it may
//! know: a card it can identify is named with where it went; one it cannot is counted.

use super::board::{value_text, zone_name};
use crate::engine::{Engine, Seen, View};

/// A place of a view: a cell or a position in a zone instance.
#[derive(Clone, Copy, PartialEq)]
enum Place {
    Cell(usize),
    Zone(usize),
}

fn place_name(engine: &Engine, p: Place) -> String {
    match p {
        Place::Cell(c) => engine.game.board.cells[c].name.clone(),
        Place::Zone(z) => zone_name(engine, z as u16),
    }
}

/// Where each component the view identifies stands, and its owner.
fn known_places(view: &View, ncomp: usize) -> Vec<Option<(Place, u8)>> {
    let mut at = vec![None; ncomp];
    for (c, seen) in view.cells.iter().enumerate() {
        if let Seen::Known { comp, owner } = seen {
            at[*comp as usize] = Some((Place::Cell(c), *owner));
        }
    }
    for (z, items) in view.zones.iter().enumerate() {
        for seen in items {
            if let Seen::Known { comp, owner } = seen {
                at[*comp as usize] = Some((Place::Zone(z), *owner));
            }
        }
    }
    at
}

/// The lines that tell `after.seat`'s player what changed since `before`.
pub fn report(engine: &Engine, before: &View, after: &View) -> Vec<String> {
    let g = &engine.game;
    let mut lines = Vec::new();
    let ncomp = g.components.len();
    let (was, now) = (known_places(before, ncomp), known_places(after, ncomp));
    // The one place, if only one, where face-down components arrived: a component that
    // went out of sight went there.
    let hidden = |items: &[Seen]| {
        items
            .iter()
            .filter(|s| matches!(s, Seen::Hidden { .. }))
            .count()
    };
    let arrivals: Vec<Place> = before
        .zones
        .iter()
        .zip(&after.zones)
        .enumerate()
        .filter(|(_, (b, a))| hidden(a) > hidden(b))
        .map(|(z, _)| Place::Zone(z))
        .chain(
            before
                .cells
                .iter()
                .zip(&after.cells)
                .enumerate()
                .filter(|(_, (b, a))| {
                    matches!(a, Seen::Hidden { .. }) && !matches!(b, Seen::Hidden { .. })
                })
                .map(|(x, _)| Place::Cell(x)),
        )
        .collect();
    let gained = match arrivals.as_slice() {
        [one] => Some(*one),
        _ => None,
    };
    for c in 0..ncomp {
        let label = |owner: u8| engine.label_for(c as u16, owner);
        match (was[c], now[c]) {
            (Some((a, _)), Some((b, owner))) if a != b => lines.push(format!(
                "{} {} → {}",
                label(owner),
                place_name(engine, a),
                place_name(engine, b)
            )),
            (None, Some((b, owner))) => {
                let hidden_before = match b {
                    Place::Cell(x) => matches!(before.cells[x], Seen::Hidden { .. }),
                    Place::Zone(_) => false,
                };
                let how = if hidden_before {
                    "turned up on"
                } else {
                    "comes to"
                };
                lines.push(format!("{} {how} {}", label(owner), place_name(engine, b)));
            }
            (Some((a, owner)), None) => match gained {
                Some(to) => lines.push(format!(
                    "{} {} → {}",
                    label(owner),
                    place_name(engine, a),
                    place_name(engine, to)
                )),
                None => lines.push(format!(
                    "{} leaves {}, out of sight",
                    label(owner),
                    place_name(engine, a)
                )),
            },
            _ => {}
        }
    }
    // What the seat cannot identify: face-down cards arriving on or leaving cells, and
    // the count of hidden cards in each zone.
    for (x, (b, a)) in before.cells.iter().zip(&after.cells).enumerate() {
        let name = &g.board.cells[x].name;
        match (b, a) {
            (Seen::Hidden { .. }, Seen::Hidden { .. }) | (Seen::Known { .. }, _) => {}
            (_, Seen::Hidden { .. }) => lines.push(format!("a face-down card comes to {name}")),
            (Seen::Hidden { .. }, Seen::Empty) => {
                lines.push(format!("the face-down card on {name} leaves"))
            }
            _ => {}
        }
    }
    for (z, (b, a)) in before.zones.iter().zip(&after.zones).enumerate() {
        let (hb, ha) = (hidden(b), hidden(a));
        if hb != ha {
            lines.push(format!(
                "{}: {hb} → {ha} face down",
                zone_name(engine, z as u16)
            ));
        }
    }
    // Counters the seat may see and the players are shown.
    let nvars = g.vars.len();
    for v in 0..nvars {
        if !super::board::displayed(engine, v) {
            continue;
        }
        let var = &g.vars[v];
        let name = super::board::display_name(engine, v);
        if var.per_seat {
            for p in 0..after.players as usize {
                let (old, new) = (
                    &before.seat_vars[p * nvars + v],
                    &after.seat_vars[p * nvars + v],
                );
                if old != new {
                    lines.push(format!(
                        "{} {name} {} → {}",
                        g.seats[p].name,
                        value_text(engine, old),
                        value_text(engine, new)
                    ));
                }
            }
        } else if !var.per_piece && before.globals[v] != after.globals[v] {
            lines.push(format!(
                "{name} {} → {}",
                value_text(engine, &before.globals[v]),
                value_text(engine, &after.globals[v])
            ));
        }
    }
    if before.phase != after.phase {
        lines.push(format!(
            "phase {} begins",
            g.phases[after.phase as usize].name
        ));
    }
    for (p, (b, a)) in before.eliminated.iter().zip(&after.eliminated).enumerate() {
        if !b && *a {
            lines.push(format!("{} is out of the game", g.seats[p].name));
        }
    }
    lines
}
