//! The canonical text of actions: `name arg arg ...`, each argument written the way the
//! rules file would write it. Every listed action's text parses back to the same action.

use super::legal::{Action, DONE, SKIP};
use super::state::State;
use super::Engine;
use crate::ir::Items;
use crate::ir::{Clause, Type, Value};

/// Text with the parts of each `a+b+c` word sorted, so that order does not matter.
fn set_key(text: &str) -> String {
    text.split_whitespace()
        .map(|w| {
            let mut parts: Vec<&str> = w.split('+').collect();
            parts.sort_unstable();
            parts.join("+")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// What one seat is told of an action (see [`Engine::announce`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Announcement {
    /// The action's text as the seat may know it; `None` for another seat's secret choice
    /// before the reveal: the seat only learns that it was made.
    pub text: Option<String>,
    /// Whether the action was a secret choice of an `all` step.
    pub secret: bool,
    /// When the action was the last choice of an `all` step: every choice of the step, in
    /// the order applied, each with its seat, as the seat may know it.
    pub revealed: Vec<(u8, String)>,
}

impl Announcement {
    /// The announcement in lines, for the seat named `actor` acting: `Red plays x`, or
    /// `Red has chosen in secret`, then the choices revealed.
    pub fn lines(&self, actor: &str, seat_name: &dyn Fn(u8) -> String) -> Vec<String> {
        let mut out = vec![match (&self.text, self.secret) {
            (Some(t), false) => format!("{actor} plays {t}"),
            (Some(t), true) => format!("{actor} chooses {t} in secret"),
            (None, _) => format!("{actor} has chosen in secret"),
        }];
        if !self.revealed.is_empty() {
            out.push("the secret choices are revealed:".into());
            out.extend(
                self.revealed
                    .iter()
                    .map(|(q, t)| format!("  {} plays {t}", seat_name(*q))),
            );
        }
        out
    }
}

impl Engine {
    pub fn action_text(&self, s: &State, a: &Action) -> String {
        self.text_with(a, &|c| self.comp_text(s, c))
    }

    /// An action's text with no component's place (what logs saved before places were
    /// given hold).
    fn unplaced_text(&self, s: &State, a: &Action) -> String {
        self.text_with(a, &|c| self.comp_label_text(s, c, s.owners[c as usize]))
    }

    /// The text of an action as `viewer` may know it, for announcing it to that seat:
    /// each component it names that the viewer can identify neither where it was
    /// (`before`) nor where it went (`after`) is written `??`. The seat that acted, and
    /// the omniscient viewer (`None`), get the full text.
    pub fn action_text_for(
        &self,
        before: &State,
        after: &State,
        a: &Action,
        actor: u8,
        viewer: Option<u8>,
    ) -> String {
        if viewer.is_none() || viewer == Some(actor) {
            return self.action_text(before, a);
        }
        self.text_with(a, &|c| {
            if !self.visible_to(before, c, viewer) && !self.visible_to(after, c, viewer) {
                "??".into()
            } else {
                self.comp_text_known_to(before, c, viewer)
            }
        })
    }

    /// What `viewer` is told of the action `a` that `actor` took in `before`, which gave
    /// `after`: the action as the viewer may know it (`action_text_for`), except that a
    /// secret choice of an `all` step is known only to its seat (and the omniscient
    /// viewer) until the choices are revealed; and, when this action was the last choice
    /// of its step, every choice of the step, revealed.
    pub fn announce(
        &self,
        before: &State,
        after: &State,
        a: &Action,
        actor: u8,
        viewer: Option<u8>,
    ) -> Announcement {
        let secret = self.is_secret_choice(before);
        let text = (!secret || viewer.is_none() || viewer == Some(actor))
            .then(|| self.action_text_for(before, after, a, actor, viewer));
        let revealed = if secret && after.secret.is_empty() {
            before
                .secret
                .iter()
                .chain(std::iter::once(&(actor, a.clone())))
                .map(|(seat, act)| {
                    (
                        *seat,
                        self.action_text_for(before, after, act, *seat, viewer),
                    )
                })
                .collect()
        } else {
            Vec::new()
        };
        Announcement {
            text,
            secret,
            revealed,
        }
    }

    /// An action's text with each component written as the board of `view` labels it
    /// (for a secret choice the view shows: the viewer's own, or any in the omniscient
    /// view).
    pub fn action_text_seen(&self, view: &super::View, a: &Action) -> String {
        self.text_with(a, &|c| {
            let owner = view
                .cells
                .iter()
                .chain(view.zones.iter().flatten())
                .find_map(|x| match *x {
                    super::Seen::Known { comp, owner } if comp == c => Some(owner),
                    _ => None,
                })
                .unwrap_or(super::NO_SEAT);
            self.label_for(c, owner)
        })
    }

    /// An action's text with each component written as the board labels it.
    fn shown_text(&self, s: &State, a: &Action) -> String {
        self.text_with(a, &|c| self.label_in(s, c, s.owners[c as usize]))
    }

    /// An action's text, each component written as `comp` says.
    fn text_with(&self, a: &Action, comp: &dyn Fn(u16) -> String) -> String {
        match a.action {
            DONE => return "done".into(),
            SKIP => return "skip".into(),
            _ => {}
        }
        let mut out = self
            .game
            .actions
            .get(a.action as usize)
            .map(|d| d.name.clone())
            .unwrap_or_else(|| "?".into());
        for v in &a.args {
            out.push(' ');
            out.push_str(&self.value_text_with(v, comp));
        }
        out
    }

    /// A value as the notation writes it.
    pub fn value_text(&self, s: &State, v: &Value) -> String {
        self.value_text_with(v, &|c| self.comp_text(s, c))
    }

    fn value_text_with(&self, v: &Value, comp: &dyn Fn(u16) -> String) -> String {
        let g = &self.game;
        match v {
            Value::None => "none".into(),
            Value::Bool(b) => b.to_string(),
            Value::Int(i) => i.to_string(),
            Value::Seat(p) => g
                .seats
                .get(*p as usize)
                .map(|x| x.name.clone())
                .unwrap_or_default(),
            Value::Cell(c) => g.board.cells[*c as usize].name.clone(),
            Value::Comp(c) => comp(*c),
            Value::Dir(d) => g.board.dirs[*d as usize].name.clone(),
            Value::Enum(e, x) => g.enums[*e as usize].values[*x as usize].0.clone(),
            Value::Phase(p) => g.phases[*p as usize].name.clone(),
            Value::Line { start, dir, len } => {
                let first = &g.board.cells[*start as usize].name;
                if *len <= 1 {
                    first.clone()
                } else {
                    let mut end = *start;
                    for _ in 1..*len {
                        end = g.board.step(end, *dir);
                    }
                    format!("{first}-{}", g.board.cells[end as usize].name)
                }
            }
            // `meld3@P2`: the zone's name, its number if it has several, its seat if per seat.
            Value::Zone(z, p, n) => {
                let zd = &g.zones[*z as usize];
                let mut t = zd.name.clone();
                if zd.slots > 1 {
                    t.push_str(&(n + 1).to_string());
                }
                if zd.per_seat {
                    t.push('@');
                    t.push_str(&g.seats[*p as usize].name);
                }
                t
            }
            Value::Str(t) => format!("{t:?}"),
            Value::Pattern(p) => g.patterns[*p as usize].name.clone(),
            Value::Shape(x) => g.shapes[*x as usize].name.clone(),
            // A move in progress: its pattern and where it began and stands, `slide:e4>e6`.
            Value::Route(r) => format!(
                "{}:{}>{}",
                g.patterns[r.pattern as usize].name,
                g.board.cells[r.origin as usize].name,
                g.board.cells[r.at as usize].name
            ),
            // A set of components, as in `play 4S+9S+9S P3`; `-` for none.
            Value::List(items) if items.is_empty() => "-".into(),
            Value::List(items) => items
                .iter()
                .map(|i| self.value_text_with(i, comp))
                .collect::<Vec<_>>()
                .join("+"),
        }
    }

    /// Reads an action written in notation. A listed action is found by its text; any other
    /// well-formed text is read by the action's parameter types, so that the caller can say
    /// why it is not legal. `Err` says what could not be read.
    pub fn parse_action(&self, s: &State, text: &str) -> Result<Action, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let norm = words.join(" ").to_lowercase();
        if norm.is_empty() {
            return Err("nothing was entered".into());
        }
        // A set of components may be written in any order: compare with each part of a
        // `+` list sorted.
        // Listed texts are all different; one written exactly is that action even where
        // another differs from it only in case.
        let legal = self.legal_actions(s);
        let texts: Vec<String> = legal.iter().map(|a| self.action_text(s, a)).collect();
        let exact = words.join(" ");
        if let Some(i) = texts.iter().position(|t| *t == exact) {
            return Ok(legal[i].clone());
        }
        let key = set_key(&norm);
        if let Some(i) = texts.iter().position(|t| set_key(&t.to_lowercase()) == key) {
            return Ok(legal[i].clone());
        }
        // A component written without the place a listed text gives it (`7R` for
        // `7R@hand@P1`, as logs saved before places were given read): the one action it
        // can only be.
        let unplaced: Vec<usize> = (0..legal.len())
            .filter(|&i| set_key(&self.unplaced_text(s, &legal[i]).to_lowercase()) == key)
            .collect();
        if let [i] = unplaced[..] {
            return Ok(legal[i].clone());
        }
        // A place written in part (`Sy@pile1` for `Sy@pile1@P2`): the one action whose
        // words each begin with what was typed up to an `@`.
        let typed: Vec<String> = key.split(' ').map(str::to_string).collect();
        let partly = |t: &str| {
            let listed: Vec<&str> = t.split(' ').collect();
            listed.len() == typed.len()
                && listed.iter().zip(&typed).all(|(l, w)| {
                    *l == w.as_str() || (l.starts_with(w.as_str()) && l[w.len()..].starts_with('@'))
                })
        };
        let partial: Vec<usize> = (0..legal.len())
            .filter(|&i| partly(&set_key(&texts[i].to_lowercase())))
            .collect();
        if let [i] = partial[..] {
            return Ok(legal[i].clone());
        }
        // Cards and pieces written as the board shows them (`2R` for a red two whose
        // notation is `2H`): actions that read the same on screen are the same to the
        // person typing, so the first of them is taken.
        if let Some(i) = (0..legal.len())
            .find(|&i| set_key(&self.shown_text(s, &legal[i]).to_lowercase()) == key)
        {
            return Ok(legal[i].clone());
        }
        let name = words[0].to_lowercase();
        match name.as_str() {
            "done" => {
                return Ok(Action {
                    action: DONE,
                    args: Default::default(),
                })
            }
            "skip" => {
                return Ok(Action {
                    action: SKIP,
                    args: Default::default(),
                })
            }
            _ => {}
        }
        let Some(id) = self
            .game
            .actions
            .iter()
            .position(|a| a.name.to_lowercase() == name)
        else {
            let known: Vec<&str> = self.game.actions.iter().map(|a| a.name.as_str()).collect();
            let hint = crate::similar::closest(&name, known.iter().copied())
                .map(|k| format!(" (did you mean `{k}`?)"))
                .unwrap_or_default();
            return Err(format!(
                "there is no action `{}`{hint}; the actions are: {}",
                words[0],
                known.join(", ")
            ));
        };
        let def = &self.game.actions[id];
        let params: Vec<(&String, &Type)> = def
            .clauses
            .iter()
            .filter_map(|c| {
                if let Clause::Choose { name, ty, .. } = c {
                    Some((name, ty))
                } else {
                    None
                }
            })
            .collect();
        if words.len() - 1 != params.len() {
            let shape: Vec<String> = params.iter().map(|(n, _)| n.to_string()).collect();
            return Err(format!(
                "`{}` takes {} argument(s): {} {}",
                def.name,
                params.len(),
                def.name,
                shape.join(" ")
            ));
        }
        let mut args = super::legal::Args::new();
        for ((pname, ty), w) in params.iter().zip(&words[1..]) {
            match self.parse_value(s, ty, w) {
                Some(v) => args.push(v),
                None => {
                    return Err(format!(
                        "cannot read `{w}` as the `{pname}` of `{}`",
                        def.name
                    ))
                }
            }
        }
        Ok(Action {
            action: id as u16,
            args,
        })
    }

    /// The component a text names, not one of `taken`: the decider's own first (its hand,
    /// its pieces), then any other.
    fn comp_named(&self, s: &State, lower: &str, taken: &[u16]) -> Option<u16> {
        let me = self.decider(s).unwrap_or(0);
        let named = |c: &u16| !taken.contains(c) && self.comp_text(s, *c).to_lowercase() == lower;
        let mut all = 0..self.game.components.len() as u16;
        all.clone()
            .filter(named)
            .find(|&c| s.owners[c as usize] == me)
            .or_else(|| all.find(named))
    }

    fn parse_value(&self, s: &State, ty: &Type, w: &str) -> Option<Value> {
        let g = &self.game;
        let lw = w.to_lowercase();
        let cell = |t: &str| {
            g.board
                .cells
                .iter()
                .position(|c| c.name.eq_ignore_ascii_case(t))
                .map(|c| c as u16)
        };
        match ty {
            Type::Int => w.parse().ok().map(Value::Int),
            Type::Bool => w.parse().ok().map(Value::Bool),
            Type::Cell => cell(&lw).map(Value::Cell),
            Type::Seat => g
                .seats
                .iter()
                .position(|x| x.name.to_lowercase() == lw)
                .map(|p| Value::Seat(p as u8)),
            Type::Dir => g
                .board
                .dirs
                .iter()
                .position(|d| d.name == lw)
                .map(|d| Value::Dir(d as u8)),
            Type::Enum(e) => g.enums[*e as usize]
                .values
                .iter()
                .position(|v| v.0.to_lowercase() == lw)
                .map(|x| Value::Enum(*e, x as u16)),
            Type::Shape => g
                .shapes
                .iter()
                .position(|x| x.name.eq_ignore_ascii_case(&lw))
                .map(|x| Value::Shape(x as u16)),
            Type::Phase => g
                .phases
                .iter()
                .position(|p| p.name.to_lowercase() == lw)
                .map(|p| Value::Phase(p as u16)),
            Type::List(inner) if **inner == Type::Comp => {
                if w == "-" {
                    return Some(Value::List(Items::new()));
                }
                let mut chosen = Items::new();
                for part in w.split('+') {
                    // Each named component once: a repeated label takes the next twin.
                    let taken: Vec<u16> = chosen
                        .iter()
                        .filter_map(|v| {
                            if let Value::Comp(c) = v {
                                Some(*c)
                            } else {
                                None
                            }
                        })
                        .collect();
                    let c = self.comp_named(s, &part.to_lowercase(), &taken)?;
                    chosen.push(Value::Comp(c));
                }
                Some(Value::List(chosen))
            }
            Type::Comp => self.comp_named(s, &lw, &[]).map(Value::Comp),
            Type::Zone => (0..self.zone_instances() as u16)
                .find(|&i| self.place_text(super::state::Loc::Zone(i)).to_lowercase() == lw)
                .map(|i| {
                    let (z, seat, slot) = self.zone_of_instance(i);
                    Value::Zone(z, seat, slot)
                }),
            Type::Line => {
                let (a, b) = match lw.split_once('-') {
                    Some((a, b)) => (cell(a)?, cell(b)?),
                    None => {
                        let c = cell(&lw)?;
                        return Some(Value::Line {
                            start: c,
                            dir: 0,
                            len: 1,
                        });
                    }
                };
                if a == b {
                    return Some(Value::Line {
                        start: a,
                        dir: 0,
                        len: 1,
                    });
                }
                let (ca, cb) = (&g.board.cells[a as usize], &g.board.cells[b as usize]);
                let (dx, dy) = (cb.x as i32 - ca.x as i32, cb.y as i32 - ca.y as i32);
                let steps = dx.abs().max(dy.abs());
                if (dx != 0 && dy != 0 && dx.abs() != dy.abs()) || steps > 254 {
                    return None;
                }
                let (sx, sy) = (dx.signum() as i8, dy.signum() as i8);
                let (start, ux, uy) = if sx > 0 || (sx == 0 && sy > 0) {
                    (a, sx, sy)
                } else {
                    (b, -sx, -sy)
                };
                let dir = g.board.dirs.iter().position(|d| d.dx == ux && d.dy == uy)?;
                Some(Value::Line {
                    start,
                    dir: dir as u8,
                    len: (steps + 1) as u8,
                })
            }
            _ => None,
        }
    }
}
