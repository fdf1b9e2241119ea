//! Positions built by hand, and reading a position back: cells, zones, variables and seats
//! named the way the notation and the board name them.

use super::syntax::{Fact, OutcomeSpec, Spanned};
use crate::diagnostic::Diagnostic;
use crate::engine::{Engine, Loc, Outcome, State, NONE, NO_SEAT};
use crate::ir::{Items, Value};
use crate::syntax::ast::Span;

fn unknown(span: Span, message: String) -> Diagnostic {
    Diagnostic::error("muster::scenario-name", span, message).label("not in this game")
}

/// A seat by name.
pub fn seat(e: &Engine, s: &State, w: &Spanned) -> Result<u8, Diagnostic> {
    e.game.seats[..s.players as usize]
        .iter()
        .position(|x| x.name == w.text)
        .map(|p| p as u8)
        .ok_or_else(|| {
            unknown(w.span, format!("no seat `{}` plays this game", w.text)).help(format!(
                "the seats are: {}",
                e.game.seats[..s.players as usize]
                    .iter()
                    .map(|x| x.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })
}

/// A cell by name.
pub fn cell(e: &Engine, w: &Spanned) -> Result<u16, Diagnostic> {
    e.game
        .board
        .cells
        .iter()
        .position(|c| c.name == w.text)
        .map(|c| c as u16)
        .ok_or_else(|| unknown(w.span, format!("no cell `{}` on the board", w.text)))
}

/// A zone instance by its place in notation (`hand@P1`, `pile3@P2`, `stock`).
pub fn zone(e: &Engine, w: &Spanned) -> Result<u16, Diagnostic> {
    (0..e.zone_instances() as u16)
        .find(|&i| e.place_text(Loc::Zone(i)) == w.text)
        .ok_or_else(|| {
            unknown(w.span, format!("no zone `{}`", w.text))
                .help("a zone is written as the notation writes it: `stock`, `hand@P1`, `pile3@P2`")
        })
}

/// A variable of the state: a game variable (`name`), a seat's (`Seat.name`), or that of
/// the piece on a cell (`cell.name`).
pub enum VarSlot {
    Game(usize),
    Seat(usize),
    Piece(usize),
}

impl VarSlot {
    pub fn get(&self, s: &State) -> Value {
        match *self {
            VarSlot::Game(i) => s.globals[i].clone(),
            VarSlot::Seat(i) => s.seat_vars[i].clone(),
            VarSlot::Piece(i) => s.comp_vars[i].clone(),
        }
    }
    fn set(&self, s: &mut State, v: Value) {
        match *self {
            VarSlot::Game(i) => s.globals[i] = v,
            VarSlot::Seat(i) => s.seat_vars[i] = v,
            VarSlot::Piece(i) => s.comp_vars[i] = v,
        }
    }
}

pub fn var_slot(e: &Engine, s: &State, w: &Spanned) -> Result<VarSlot, Diagnostic> {
    let (owner, name) = match w.text.split_once('.') {
        Some((p, n)) => (Some(p), n),
        None => (None, w.text.as_str()),
    };
    let Some(i) = e.game.vars.iter().position(|v| v.name == name) else {
        return Err(unknown(w.span, format!("no variable `{name}`")));
    };
    let nvars = e.game.vars.len();
    let var = &e.game.vars[i];
    let named = |text: &str| Spanned {
        text: text.into(),
        span: w.span,
    };
    match (var.per_seat, var.per_piece, owner) {
        (true, _, Some(p)) => Ok(VarSlot::Seat(seat(e, s, &named(p))? as usize * nvars + i)),
        (_, true, Some(c)) => {
            let at = cell(e, &named(c))?;
            match s.cells[at as usize] {
                NONE => Err(Diagnostic::error(
                    "muster::scenario-position",
                    w.span,
                    format!("no card or piece on {c}, so no `{name}` of one"),
                )
                .label("an empty cell")),
                comp => Ok(VarSlot::Piece(comp as usize * nvars + i)),
            }
        }
        (false, false, None) => Ok(VarSlot::Game(i)),
        (true, _, None) => Err(unknown(
            w.span,
            format!("`{name}` is a variable per seat: write `SEAT.{name}`"),
        )),
        (_, true, None) => Err(unknown(
            w.span,
            format!(
                "`{name}` is a variable per piece: write `CELL.{name}` for the piece on a cell"
            ),
        )),
        (false, false, Some(_)) => Err(unknown(
            w.span,
            format!("`{name}` is a game variable: write `{name}`"),
        )),
    }
}

/// A value written in notation: a number, `true`/`false`, `none`, a seat, a cell, a value
/// of an enum, a phase.
fn value(e: &Engine, s: &State, w: &Spanned) -> Result<Value, Diagnostic> {
    let t = w.text.as_str();
    if let Ok(i) = t.parse::<i64>() {
        return Ok(Value::Int(i));
    }
    match t {
        "true" => return Ok(Value::Bool(true)),
        "false" => return Ok(Value::Bool(false)),
        "none" => return Ok(Value::None),
        // An empty list, as the notation writes it.
        "-" => return Ok(Value::List(Items::new())),
        _ => {}
    }
    let g = &e.game;
    if let Some(p) = g.seats[..s.players as usize]
        .iter()
        .position(|x| x.name == t)
    {
        return Ok(Value::Seat(p as u8));
    }
    if let Some(c) = g.board.cells.iter().position(|c| c.name == t) {
        return Ok(Value::Cell(c as u16));
    }
    for (ei, en) in g.enums.iter().enumerate() {
        if let Some(x) = en.values.iter().position(|v| v.0 == t) {
            return Ok(Value::Enum(ei as u16, x as u16));
        }
    }
    if let Some(p) = g.phases.iter().position(|p| p.name == t) {
        return Ok(Value::Phase(p as u16));
    }
    Err(
        unknown(w.span, format!("cannot read `{t}` as a value")).help(
            "a value is a number, true, false, none, a seat, a cell, a value of an enum or a phase",
        ),
    )
}

/// Reading a position back.
pub struct Facts;

impl Facts {
    /// Every listed action's text, in the engine's order.
    pub fn legal_texts(e: &Engine, s: &State) -> Vec<String> {
        e.legal_actions(s)
            .iter()
            .map(|a| e.action_text(s, a))
            .collect()
    }

    /// What a cell holds, as the board labels it (`.` for nothing).
    pub fn at(e: &Engine, s: &State, c: u16) -> String {
        match s.cells[c as usize] {
            NONE => ".".into(),
            comp => e.label(s, comp),
        }
    }

    /// Whether a cell holds what `want` says (`.`, a label, or a notation).
    pub fn matches(e: &Engine, s: &State, c: u16, want: &str) -> bool {
        match s.cells[c as usize] {
            NONE => want == ".",
            comp => Self::names(e, s, comp, want.trim_start_matches('~')),
        }
    }

    /// Whether `text` names a component: as the board labels it, or as the notation
    /// writes it.
    pub fn names(e: &Engine, s: &State, comp: u16, text: &str) -> bool {
        let owner = s.owners[comp as usize];
        e.label_in(s, comp, owner) == text || e.comp_text(s, comp) == text
    }
}

/// The cells of a board diagram and what each holds: a header line of file names (as
/// `muster play` prints it), then rows, each a rank name, one label or `.` per file, and
/// the rank name again (optional).
pub fn diagram(e: &Engine, d: &Spanned) -> Result<Vec<(u16, Spanned)>, Diagnostic> {
    let cells = &e.game.board.cells;
    let base = d.span.start as usize;
    let mut files: Vec<String> = Vec::new();
    let mut out = Vec::new();
    let mut offset = 0usize;
    for line in d.text.split_inclusive('\n') {
        let here = offset;
        offset += line.len();
        let words: Vec<(usize, &str)> = line
            .split_whitespace()
            .map(|w| (w.as_ptr() as usize - line.as_ptr() as usize, w))
            .collect();
        if words.is_empty() {
            continue;
        }
        let span_of = |at: usize, w: &str| {
            Span::new(d.span.file, base + here + at, base + here + at + w.len())
        };
        // A header: every word a file, that is a cell name begins with it and a rank follows.
        let is_rank = |r: &str| r.chars().all(|c| c.is_ascii_digit());
        if !is_rank(words[0].1) {
            files = words.iter().map(|w| w.1.to_string()).collect();
            continue;
        }
        let rank = words[0].1;
        let mut body = &words[1..];
        if body.len() > files.len() && body.last().is_some_and(|w| w.1 == rank) {
            body = &body[..body.len() - 1];
        }
        if files.is_empty() {
            return Err(Diagnostic::error(
                "muster::scenario-syntax",
                span_of(words[0].0, words[0].1),
                "a board row before a line naming the files",
            )
            .label("this row")
            .help("begin the diagram with the files, as `muster play` prints them: `a b c d e`"));
        }
        if body.len() != files.len() {
            return Err(Diagnostic::error(
                "muster::scenario-syntax",
                span_of(words[0].0, line.trim_end()),
                format!(
                    "row {rank} has {} cell(s), the files are {}",
                    body.len(),
                    files.len()
                ),
            )
            .label("this row"));
        }
        for (f, &(at, w)) in files.iter().zip(body) {
            let name = format!("{f}{rank}");
            let Some(c) = cells.iter().position(|c| c.name == name) else {
                return Err(unknown(
                    span_of(at, w),
                    format!("no cell `{name}` on the board"),
                ));
            };
            out.push((
                c as u16,
                Spanned {
                    text: w.to_string(),
                    span: span_of(at, w),
                },
            ));
        }
    }
    Ok(out)
}

/// Makes a position's facts so, in order.
pub fn build(e: &Engine, s: &mut State, facts: &[Fact]) -> Result<(), Diagnostic> {
    let mut b = Builder {
        e,
        rest: None,
        placed: vec![false; s.locs.len()],
    };
    for f in facts {
        b.fact(s, f)?;
    }
    // What the state derives from the position is worked out for the position as built.
    s.reindex();
    Ok(())
}

struct Builder<'e> {
    e: &'e Engine,
    /// Where components the position does not place go.
    rest: Option<u16>,
    /// The components this position has placed: never taken again for another place.
    placed: Vec<bool>,
}

impl Builder<'_> {
    fn fact(&mut self, s: &mut State, f: &Fact) -> Result<(), Diagnostic> {
        let e = self.e;
        match f {
            Fact::Rest(z) => {
                let inst = zone(e, z)?;
                self.rest = Some(inst);
                for comp in 0..s.locs.len() as u16 {
                    if !self.placed[comp as usize] {
                        put(e, s, comp, Loc::Zone(inst), None);
                    }
                }
            }
            Fact::Board(d) => {
                for (c, w) in diagram(e, d)? {
                    self.place_on_cell(s, c, &w)?;
                }
            }
            Fact::At(c, w) => {
                let c = cell(e, c)?;
                self.place_on_cell(s, c, w)?;
            }
            Fact::In(z, items) | Fact::On(z, items) => {
                let inst = zone(e, z)?;
                if matches!(f, Fact::In(..)) {
                    let here: Vec<u16> = s.zones[inst as usize].clone();
                    for comp in here {
                        if !self.placed[comp as usize] {
                            self.clear(s, comp, z.span)?;
                        }
                    }
                }
                let (zid, zs, _) = e.zone_of_instance(inst);
                let owner = if e.game.zones[zid as usize].per_seat {
                    zs
                } else {
                    NO_SEAT
                };
                for w in items {
                    let (comp, _) = self.take(s, w, owner)?;
                    put(e, s, comp, Loc::Zone(inst), None);
                    s.face_up[comp as usize] = !w.text.starts_with('~');
                    self.placed[comp as usize] = true;
                }
            }
            Fact::Var(name, v) => {
                let slot = var_slot(e, s, name)?;
                let v = value(e, s, v)?;
                slot.set(s, v);
            }
            Fact::Phase(p) => {
                s.phase = e
                    .game
                    .phases
                    .iter()
                    .position(|x| x.name == p.text)
                    .ok_or_else(|| unknown(p.span, format!("no phase `{}`", p.text)))?
                    as u16;
                s.phase_turns = 0;
                s.step = 0;
                // A new step: no secret choice of an `all` step is waiting.
                s.secret.clear();
            }
            Fact::Turn(p) => {
                s.turn_seat = seat(e, s, p)?;
                s.step = 0;
                s.turn_actions = 0;
                s.secret.clear();
            }
            Fact::Step(n, _) => {
                s.step = *n;
                s.secret.clear();
            }
            Fact::Turns(n, _) => s.turns = *n,
            Fact::Outcome(o, _) => {
                s.outcome = match o {
                    OutcomeSpec::None => None,
                    OutcomeSpec::Draw => Some(Outcome::Draw),
                    OutcomeSpec::Capped => Some(Outcome::Capped),
                    OutcomeSpec::Win(w) => {
                        let mut seats = Vec::new();
                        for name in w.split('+') {
                            let sp = Spanned {
                                text: name.into(),
                                span: Span::new(0, 0, 0),
                            };
                            seats.push(seat(e, s, &sp)?);
                        }
                        Some(Outcome::Win(seats.into()))
                    }
                }
            }
            Fact::Score(w, _) => {
                return Err(Diagnostic::error(
                    "muster::scenario-syntax",
                    w.span,
                    "a score follows from the rules' `score`: it is checked, not set",
                )
                .label("in a position"))
            }
            Fact::Size(_, _, span) => {
                return Err(Diagnostic::error(
                    "muster::scenario-syntax",
                    *span,
                    "a zone's size follows from what it holds: it is checked, not set",
                )
                .label("in a position")
                .help("say what the zone holds with `in ZONE [...]`"))
            }
            Fact::Secret(w, _) => {
                return Err(Diagnostic::error(
                    "muster::scenario-syntax",
                    w.span,
                    "a secret choice is made by playing it: it is checked, not set",
                )
                .label("in a position")
                .help("play the choice with `play \"ACTION\"`, then check `secret SEAT ...`"))
            }
            Fact::Decider(w) => return Err(Diagnostic::error(
                "muster::scenario-syntax",
                w.span,
                "the decider follows from the rules: it is checked, not set",
            )
            .label("in a position")
            .help(
                "set `phase`, `turn` and `step` instead, and check `decider` after the position",
            )),
        }
        Ok(())
    }

    fn place_on_cell(&mut self, s: &mut State, c: u16, w: &Spanned) -> Result<(), Diagnostic> {
        let e = self.e;
        let there = s.cells[c as usize];
        if w.text == "." {
            if there != NONE {
                self.clear(s, there, w.span)?;
            }
            return Ok(());
        }
        if there != NONE
            && !self.placed[there as usize]
            && Facts::names(e, s, there, w.text.trim_start_matches('~'))
        {
            // Already there: keep it.
            self.placed[there as usize] = true;
            s.face_up[there as usize] = !w.text.starts_with('~');
            return Ok(());
        }
        if there != NONE {
            self.clear(s, there, w.span)?;
        }
        let (comp, owner) = self.take(s, w, NO_SEAT)?;
        put(e, s, comp, Loc::Cell(c), Some(owner));
        s.face_up[comp as usize] = !w.text.starts_with('~');
        self.placed[comp as usize] = true;
        Ok(())
    }

    /// Moves a component out of the way, to the `rest` zone.
    fn clear(&mut self, s: &mut State, comp: u16, span: Span) -> Result<(), Diagnostic> {
        let Some(rest) = self.rest else {
            return Err(Diagnostic::error(
                "muster::scenario-position",
                span,
                format!(
                    "{} must make way, and the position does not say where to",
                    self.e.label(s, comp)
                ),
            )
            .label("here")
            .help("begin the position with `rest in ZONE`: every component it does not place goes there"));
        };
        put(self.e, s, comp, Loc::Zone(rest), None);
        Ok(())
    }

    /// A component `w` names, not yet placed by this position: from the `rest` zone
    /// first, then from anywhere. With the owner its label names (`owner` first).
    fn take(&self, s: &State, w: &Spanned, owner: u8) -> Result<(u16, u8), Diagnostic> {
        let e = self.e;
        let text = w.text.trim_start_matches('~');
        // The owner it has first (a card keeps the seat whose zone it came from, if its
        // label does not say), then the place's, then nobody, then each seat.
        let fits = |comp: u16| -> Option<u8> {
            if self.placed[comp as usize] {
                return None;
            }
            let mut owners = vec![s.owners[comp as usize], owner, NO_SEAT];
            owners.extend(0..s.players);
            owners
                .into_iter()
                .find(|&o| e.label_in(s, comp, o) == text || e.comp_label_text(s, comp, o) == text)
        };
        let in_rest = |comp: u16| {
            self.rest
                .is_some_and(|r| s.locs[comp as usize] == Loc::Zone(r))
        };
        let all = 0..s.locs.len() as u16;
        all.clone()
            .filter(|&c| in_rest(c))
            .chain(all.filter(|&c| !in_rest(c)))
            .find_map(|c| fits(c).map(|o| (c, o)))
            .ok_or_else(|| {
                Diagnostic::error(
                    "muster::scenario-position",
                    w.span,
                    format!("no card or piece `{text}` is left to place"),
                )
                .label("this one")
                .help("a component is written as the board labels it, or as the notation writes it; each is placed once")
            })
    }
}

/// Moves a component to a place, keeping the state's bookkeeping in step. On a cell it
/// belongs to `owner`; in a zone, to the zone's seat (or to nobody in a shared zone).
fn put(e: &Engine, s: &mut State, comp: u16, to: Loc, owner: Option<u8>) {
    match s.locs[comp as usize] {
        Loc::Zone(z) => s.zones[z as usize].retain(|&c| c != comp),
        Loc::Cell(c) => {
            if s.cells[c as usize] == comp {
                s.set_cell(c, NONE);
            }
        }
    }
    s.locs[comp as usize] = to;
    match to {
        Loc::Zone(z) => {
            s.zones[z as usize].push(comp);
            let (zid, zs, _) = e.zone_of_instance(z);
            let per_seat = e.game.zones[zid as usize].per_seat;
            s.set_owner(comp, if per_seat { zs } else { NO_SEAT });
        }
        Loc::Cell(c) => {
            s.set_cell(c, comp);
            if let Some(o) = owner {
                s.set_owner(comp, o);
            }
        }
    }
}
