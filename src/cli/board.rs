//! Text rendering of a view: the board with coordinates on its edges, then the zones and
//! the seats' counters. Only what the view holds is drawn, so hidden cards stay hidden.

use crate::engine::{Engine, Seen, View};
use crate::ir::Value;

/// The label a viewer sees for one place.
fn seen_text(engine: &Engine, view: &View, seen: &Seen) -> String {
    match seen {
        Seen::Empty => ".".into(),
        Seen::Known { comp, owner } => engine.label_with(*comp, *owner, &view.attr_over),
        Seen::Hidden { .. } => "??".into(),
    }
}

pub fn render_view(engine: &Engine, view: &View) -> String {
    render_view_styled(engine, view, false)
}

/// ANSI colours for the seats' pieces on a terminal, in seat order, for seats whose rules
/// name no colour.
const SEAT_COLOURS: [&str; 8] = [
    "\x1b[1;37m",
    "\x1b[1;31m",
    "\x1b[1;34m",
    "\x1b[1;32m",
    "\x1b[1;33m",
    "\x1b[1;35m",
    "\x1b[1;36m",
    "\x1b[1;90m",
];

/// Colour words a seat's name or attributes may use, and how a terminal draws them (black
/// as dark grey, to stay readable on a dark screen).
const NAMED_COLOURS: [(&str, &str); 10] = [
    ("white", "\x1b[1;37m"),
    ("red", "\x1b[1;31m"),
    ("blue", "\x1b[1;34m"),
    ("green", "\x1b[1;32m"),
    ("yellow", "\x1b[1;33m"),
    ("purple", "\x1b[1;35m"),
    ("magenta", "\x1b[1;35m"),
    ("cyan", "\x1b[1;36m"),
    ("black", "\x1b[1;90m"),
    ("grey", "\x1b[1;90m"),
];

/// The colour a seat's pieces are drawn in: the colour its rules give it (its name, as in
/// `seat Red`, or an attribute's value, as in `seat North { colour: red }`), else the
/// seat's place in `SEAT_COLOURS`.
pub fn seat_colour(engine: &Engine, seat: u8) -> Option<&'static str> {
    let g = &engine.game;
    let def = g.seats.get(seat as usize)?;
    let named = |word: &str| {
        NAMED_COLOURS
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(word))
            .map(|(_, c)| *c)
    };
    let from_attrs = def.attrs.iter().find_map(|v| match v {
        Value::Enum(e, x) => named(&g.enums[*e as usize].values[*x as usize].0),
        Value::Str(t) => named(t),
        _ => None,
    });
    named(&def.name)
        .or(from_attrs)
        .or_else(|| SEAT_COLOURS.get(seat as usize).copied())
}

/// What the board's tags mean: for each enum attribute a label shows, its values' short
/// forms and names (`H high, L low, ...`).
pub fn legend(engine: &Engine) -> Option<String> {
    let g = &engine.game;
    let mut parts: Vec<String> = Vec::new();
    for kind in &g.kinds {
        for part in &kind.label {
            if let crate::ir::LabelPart::Attr(a) = part {
                if let crate::ir::AttrType::Enum(e) = g.attrs[*a as usize].ty {
                    for (name, short) in &g.enums[e as usize].values {
                        let entry = format!("{short} {}", name.replace('_', " "));
                        if short != name && !short.is_empty() && !parts.contains(&entry) {
                            parts.push(entry);
                        }
                    }
                }
            }
        }
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// Whether players are shown variable `v`: every variable when the rules have no
/// `display` block, else those it lists.
pub fn displayed(engine: &Engine, v: usize) -> bool {
    match &engine.game.display {
        None => true,
        Some(list) => list.iter().any(|s| s.var as usize == v),
    }
}

/// The name players see for variable `v`: its `display` label, or its own name.
pub fn display_name(engine: &Engine, v: usize) -> String {
    engine
        .game
        .display
        .as_ref()
        .and_then(|list| list.iter().find(|s| s.var as usize == v))
        .map_or_else(|| engine.game.vars[v].name.clone(), |s| s.label.clone())
}

/// A zone instance as the board names it: `hand (P1)`, `pile3 (P2)`, `stock`.
pub fn zone_name(engine: &Engine, inst: u16) -> String {
    let g = &engine.game;
    let (z, seat, slot) = engine.zone_of_instance(inst);
    let zd = &g.zones[z as usize];
    let number = if zd.slots > 1 {
        (slot + 1).to_string()
    } else {
        String::new()
    };
    if zd.per_seat {
        let who = g.seats.get(seat as usize).map_or("?", |s| s.name.as_str());
        format!("{}{number} ({who})", zd.name)
    } else {
        format!("{}{number}", zd.name)
    }
}

/// The view as text; with `colour`, each seat's pieces in its own colour.
pub fn render_view_styled(engine: &Engine, view: &View, colour: bool) -> String {
    render_view_marked(engine, view, colour, &[])
}

/// The view as text, with a `*` before each cell `marked` says (the last move's cells).
pub fn render_view_marked(engine: &Engine, view: &View, colour: bool, marked: &[bool]) -> String {
    let g = &engine.game;
    let mut out = String::new();
    let seat_name = |s: u8| {
        g.seats
            .get(s as usize)
            .map(|x| x.name.as_str())
            .unwrap_or("?")
    };
    let phase = &g.phases[view.phase as usize].name;
    let status = match view.decider {
        Some(d) => format!("turn {} · {} to decide", view.turns + 1, seat_name(d)),
        None => format!("game over after {} turn(s)", view.turns),
    };
    out.push_str(&format!("{} · phase {phase} · {status}\n", g.title));

    let b = &g.board;
    if b.width > 0 && b.height > 0 {
        // On a board with paths, an empty cell on none of them is left blank, so that the
        // tracks stand out.
        let mut off_paths = vec![b.regions.iter().any(|r| r.path); b.cells.len()];
        for r in b.regions.iter().filter(|r| r.path) {
            for &c in r.cells.iter().flatten() {
                if let Some(off) = off_paths.get_mut(c as usize) {
                    *off = false;
                }
            }
        }
        let labels: Vec<String> = view
            .cells
            .iter()
            .enumerate()
            .map(|(c, s)| match s {
                Seen::Empty if off_paths[c] => String::new(),
                s => seen_text(engine, view, s),
            })
            .collect();
        let width = labels
            .iter()
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(1)
            .clamp(2, super::MAX_COLUMN)
            + 1;
        // A hex board draws each rank half a cell right of the rank below: cells an even
        // number of columns wide, so that half a cell is whole columns.
        let width = if b.hex { width + width % 2 } else { width };
        let indent = |y: u16| {
            if b.hex {
                " ".repeat(y as usize * width / 2)
            } else {
                String::new()
            }
        };
        let rank_w = b.height.to_string().len();
        let files: String = (0..b.width)
            .map(|x| format!("{:>width$}", ((b'a' + x as u8) as char).to_string()))
            .collect();
        out.push_str(&format!("{}{:rank_w$} {files}\n", indent(b.height - 1), ""));
        for y in (0..b.height).rev() {
            let row: String = (0..b.width)
                .map(|x| {
                    let c = b.cell_at(x, y) as usize;
                    let text = if marked.get(c).copied().unwrap_or(false) {
                        format!("{:>width$}", format!("*{}", labels[c]))
                    } else {
                        format!("{:>width$}", labels[c])
                    };
                    match (&view.cells[c], colour) {
                        (Seen::Known { owner, .. } | Seen::Hidden { owner }, true) => {
                            match seat_colour(engine, *owner) {
                                Some(code) => format!("{code}{text}\x1b[0m"),
                                None => text,
                            }
                        }
                        _ => text,
                    }
                })
                .collect();
            out.push_str(&format!(
                "{}{:>rank_w$} {row}  {}\n",
                indent(y),
                y + 1,
                y + 1
            ));
        }
        out.push_str(&format!("{:rank_w$} {files}\n", ""));
    }

    if !b.areas.is_empty() {
        out.push_str(&render_areas(engine, view, colour));
    }

    for (inst, items) in view.zones.iter().enumerate() {
        let (z, seat, _) = engine.zone_of_instance(inst as u16);
        let zd = &g.zones[z as usize];
        if zd.per_seat && seat >= view.players {
            continue;
        }
        let name = zone_name(engine, inst as u16);
        let hidden = items
            .iter()
            .filter(|s| matches!(s, Seen::Hidden { .. }))
            .count();
        let shown: Vec<String> = items
            .iter()
            .filter(|s| matches!(s, Seen::Known { .. }))
            .map(|s| seen_text(engine, view, s))
            .collect();
        if items.is_empty() {
            continue; // empty zones say nothing
        }
        let body = match (items.len(), hidden) {
            (_, 0) => shown.join(" "),
            (n, h) if h == n => format!("{n} face down"),
            (n, h) => format!("{} (and {h} face down of {n})", shown.join(" ")),
        };
        out.push_str(&format!("{name}: {body}\n"));
    }

    // Who has chosen in secret in an `all` step; what, only where the view shows it.
    if !view.secret.is_empty() {
        let chosen: Vec<String> = view
            .secret
            .iter()
            .map(|(q, a)| match a {
                Some(a) => format!("{} ({})", seat_name(*q), engine.action_text_seen(view, a)),
                None => seat_name(*q).to_string(),
            })
            .collect();
        out.push_str(&format!("chosen in secret: {}\n", chosen.join(", ")));
    }

    // The variables the rules display (all of them in the omniscient view).
    let nvars = g.vars.len();
    let everything = view.seat.is_none();
    let shown = |v: usize| everything || displayed(engine, v);
    let seat_vars: Vec<usize> = (0..nvars)
        .filter(|&v| g.vars[v].per_seat && shown(v))
        .collect();
    if !seat_vars.is_empty() {
        for p in 0..view.players {
            let vals: Vec<String> = seat_vars
                .iter()
                .map(|&v| {
                    format!(
                        "{} {}",
                        display_name(engine, v),
                        value_text(engine, &view.seat_vars[p as usize * nvars + v])
                    )
                })
                .collect();
            let out_mark = if view.eliminated[p as usize] {
                " (out)"
            } else {
                ""
            };
            out.push_str(&format!(
                "{}{out_mark}: {}\n",
                seat_name(p),
                vals.join(", ")
            ));
        }
    }
    let globals: Vec<String> = (0..nvars)
        .filter(|&v| !g.vars[v].per_seat && !g.vars[v].per_piece && shown(v))
        .map(|v| {
            format!(
                "{} {}",
                display_name(engine, v),
                value_text(engine, &view.globals[v])
            )
        })
        .collect();
    if !globals.is_empty() {
        out.push_str(&format!("{}\n", globals.join(", ")));
    }
    // Per-piece variables the rules display: the cells of the pieces the viewer may
    // identify whose value is set (true, not zero, not none), with the value if not true.
    let per_piece = (0..nvars).filter(|&v| g.display.is_some() && g.vars[v].per_piece);
    for v in per_piece.filter(|&v| displayed(engine, v)) {
        let set: Vec<String> = view
            .cells
            .iter()
            .enumerate()
            .filter_map(|(c, seen)| {
                let Seen::Known { comp, .. } = seen else {
                    return None;
                };
                let value = &view.comp_vars[*comp as usize * nvars + v];
                let cell = &g.board.cells[c].name;
                match value {
                    Value::None | Value::Bool(false) | Value::Int(0) => None,
                    Value::Bool(true) => Some(cell.clone()),
                    other => Some(format!("{cell} {}", value_text(engine, other))),
                }
            })
            .collect();
        let body = if set.is_empty() {
            "none".to_string()
        } else {
            set.join(", ")
        };
        out.push_str(&format!("{}: {body}\n", display_name(engine, v)));
    }
    out
}

/// A board of areas: each area of each seat in play, drawn as its shape is drawn in the
/// rules file (front row first), each cell as `number:label` (`.` for empty).
fn render_areas(engine: &Engine, view: &View, colour: bool) -> String {
    let g = &engine.game;
    let b = &g.board;
    let mut out = String::new();
    let paint = |text: String, seen: &Seen| match (seen, colour) {
        (Seen::Known { owner, .. } | Seen::Hidden { owner }, true) => {
            match seat_colour(engine, *owner) {
                Some(code) => format!("{code}{text}\x1b[0m"),
                None => text,
            }
        }
        _ => text,
    };
    for a in &b.areas {
        let copies = if a.per_seat { view.players } else { 1 };
        for seat in 0..copies {
            let first = a.first_cell + seat as u16 * a.size;
            let owner = if a.per_seat {
                format!(" of {}", g.seats[seat as usize].name)
            } else {
                String::new()
            };
            if a.families.is_empty() {
                let seen = &view.cells[first as usize];
                out.push_str(&format!(
                    "{}{owner}: {}\n",
                    a.name,
                    paint(seen_text(engine, view, seen), seen)
                ));
                continue;
            }
            let inst = (a.first_instance + seat as u16) as usize;
            let Some(&shape) = view.shapes.get(inst).filter(|&&x| x != crate::engine::NONE) else {
                out.push_str(&format!("{}{owner}: not laid out\n", a.name));
                continue;
            };
            let sh = &g.shapes[shape as usize];
            out.push_str(&format!("{}{owner} ({} {}):\n", a.name, sh.name, sh.index));
            // Columns of the drawing, doubled, leave room for `12:QS`.
            const MARGIN: usize = 6;
            let x = |col: u16| MARGIN + 2 * col as usize;
            let width = sh.cell_col.iter().map(|&c| x(c)).max().unwrap_or(0) + MARGIN + 1;
            for r in 1..=sh.rows.len() as u16 {
                let mut line: Vec<String> = vec![" ".to_string(); width];
                for m in sh.marks.iter().filter(|m| !m.between && m.row + 1 == r) {
                    for dx in [0usize, 1, 2] {
                        line[x(m.col) + dx - 1] = "-".into();
                    }
                }
                for (k, _) in sh.cell_row.iter().enumerate().filter(|(_, &row)| row == r) {
                    let cell = first as usize + k;
                    let seen = &view.cells[cell];
                    let text = format!("{}:{}", k + 1, seen_text(engine, view, seen));
                    let n = text.chars().count();
                    let start = x(sh.cell_col[k]).saturating_sub(n / 2);
                    for slot in line.iter_mut().skip(start).take(n) {
                        *slot = String::new();
                    }
                    line[start] = paint(text, seen);
                }
                out.push_str(line.concat().trim_end());
                out.push('\n');
                let links: Vec<_> = sh
                    .marks
                    .iter()
                    .filter(|m| m.between && m.row + 1 == r)
                    .collect();
                if !links.is_empty() {
                    let mut line = vec![' '; width];
                    for m in links {
                        line[x(m.col)] = m.ch;
                    }
                    out.push_str(line.iter().collect::<String>().trim_end());
                    out.push('\n');
                }
            }
        }
    }
    out
}

pub fn value_text(engine: &Engine, v: &Value) -> String {
    let g = &engine.game;
    match v {
        Value::Int(i) => i.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::None => "-".into(),
        Value::Seat(p) => g
            .seats
            .get(*p as usize)
            .map(|x| x.name.clone())
            .unwrap_or_default(),
        Value::Enum(e, x) => g.enums[*e as usize].values[*x as usize].0.clone(),
        Value::Phase(p) => g.phases[*p as usize].name.clone(),
        Value::Cell(c) => g.board.cells[*c as usize].name.clone(),
        Value::Dir(d) => g.board.dirs[*d as usize].name.clone(),
        Value::Comp(c) => engine.label_for(*c, crate::engine::NO_SEAT),
        Value::List(items) if items.is_empty() => "-".into(),
        Value::List(items) => items
            .iter()
            .map(|i| value_text(engine, i))
            .collect::<Vec<_>>()
            .join(" "),
        other => format!("{other:?}"),
    }
}
