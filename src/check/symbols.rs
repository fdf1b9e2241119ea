//! The checker's context: the game's declared names and the diagnostics found so far.

use crate::diagnostic::Diagnostic;
use crate::ir::{self, Type};
use crate::syntax::ast::{self, Ident};
use std::collections::HashMap;

/// What a local name stands for while lowering an expression.
#[derive(Clone, Debug)]
pub enum Binding {
    Slot(u16, Type),
    /// A definition's parameter: the argument's lowered expression, substituted in place,
    /// and what lowering it cost (spent again at each use).
    Subst(ir::Expr, Type, super::budget::Cost),
}

#[derive(Default)]
pub struct Scope {
    pub names: Vec<(String, Binding)>,
    pub next_slot: u16,
    pub max_slot: u16,
    /// The slots set aside for definitions' arguments computed once (`args.rs`), which the
    /// limit on a rule's names does not count.
    pub bound_args: u16,
}

#[derive(Clone, Debug)]
pub struct VarInfo {
    pub id: u16,
    pub per_seat: bool,
    pub per_piece: bool,
    pub ty: Type,
}

/// Everything declared at the top level, by name.
#[derive(Default)]
pub struct Ctx<'a> {
    pub diags: Vec<Diagnostic>,
    pub seats: Vec<String>,
    pub seat_attrs: Vec<(String, Type)>,
    pub enums: Vec<ir::EnumDef>,
    pub enum_values: HashMap<String, (u16, u16)>,
    pub enum_ids: HashMap<String, u16>,
    pub attrs: Vec<ir::AttrDef>,
    pub attr_ids: HashMap<String, u16>,
    pub kinds: Vec<ir::KindDef>,
    pub kind_ids: HashMap<String, u16>,
    pub decks: HashMap<String, Vec<ir::CompId>>,
    pub components: Vec<ir::Component>,
    pub board: ir::Board,
    /// When a variant gives the board: its name, and the base game's grid (width,
    /// height), to tell a cell the variant took away from a misspelt name.
    pub board_variant: Option<(String, u32, u32)>,
    pub cell_ids: HashMap<String, u16>,
    pub regions: HashMap<String, (u16, bool)>,
    /// Each zone's id, whether it is per seat, and how many numbered zones it has.
    pub zones: HashMap<String, (u16, bool, u16)>,
    pub vars: HashMap<String, VarInfo>,
    pub defs: HashMap<String, (&'a [Ident], &'a ast::Expr)>,
    pub effects: HashMap<String, (&'a [Ident], &'a [ast::Stmt])>,
    pub reactions: HashMap<String, u16>,
    pub patterns: HashMap<String, u16>,
    /// Catalogues of shapes and their shapes' ids; shapes by name.
    pub families: HashMap<String, u16>,
    pub family_shapes: Vec<Vec<u16>>,
    pub shape_ids: HashMap<String, u16>,
    /// Areas of a board of areas: (id, per seat, shaped).
    pub areas: super::shapes::Areas,
    pub phases: HashMap<String, u16>,
    pub actions: HashMap<String, u16>,
    pub scope: Scope,
    pub def_stack: Vec<String>,
    /// Names used anywhere, to warn about declarations never used.
    pub used: std::collections::HashSet<String>,
    /// Each diagnostic's place and message, to report each one once.
    pub reported: std::collections::HashSet<(ast::Span, String)>,
    /// How much lowering has built so far (see `budget.rs`).
    pub budget: super::budget::Budget,
}

impl<'a> Ctx<'a> {
    /// Records a diagnostic, once: a definition expanded in many places would otherwise
    /// report the same mistake at the same place again and again.
    pub fn error(&mut self, d: Diagnostic) {
        if self.reported.insert((d.span, d.message.clone())) {
            self.diags.push(d);
        }
    }

    /// Reports `unknown {what} `name``, with the closest known name as a suggestion.
    pub fn unknown(&mut self, what: &str, name: &Ident, label: &str, known: Vec<String>) {
        let mut d = Diagnostic::error(
            "muster::unknown-name",
            name.span,
            format!("unknown {what} `{}`", name.name),
        )
        .label(label.to_string());
        if !self.flooded() && !self.repeated(&d) {
            if let Some(h) = crate::similar::suggest(&name.name, known.iter().map(|s| s.as_str())) {
                d = d.help(h);
            }
        }
        self.error(d);
    }

    /// Whether this very diagnostic was already reported (a definition expanded again).
    pub fn repeated(&self, d: &Diagnostic) -> bool {
        self.reported.contains(&(d.span, d.message.clone()))
    }

    /// True once more problems were found than one run reports: suggestions, which cost
    /// a search through every name, are then left out.
    pub fn flooded(&self) -> bool {
        self.diags.len() >= super::MAX_ERRORS
    }

    pub fn push_local(&mut self, name: &str, ty: Type) -> u16 {
        let slot = self.scope.next_slot;
        if !self.room_for_local() {
            return slot.saturating_sub(1);
        }
        self.scope.next_slot += 1;
        self.scope.max_slot = self.scope.max_slot.max(self.scope.next_slot);
        self.bind_reserved(name, ty, slot)
    }

    /// Sets aside the next `n` slots, for names bound later by `bind_reserved` (an action's
    /// choices); the first of them, or `None` if they would pass the limit of locals (the
    /// names then take slots as they come, and the limit is reported where it is passed).
    pub fn reserve_slots(&mut self, n: u16) -> Option<u16> {
        let first = self.scope.next_slot;
        let named = first.saturating_sub(self.scope.bound_args);
        named.checked_add(n).filter(|&e| e <= super::MAX_LOCALS)?;
        let end = first + n;
        self.scope.next_slot = end;
        self.scope.max_slot = self.scope.max_slot.max(end);
        Some(first)
    }

    /// Binds `name` to `slot`, one set aside by `reserve_slots` (or just taken by
    /// `push_local`).
    pub fn bind_reserved(&mut self, name: &str, ty: Type, slot: u16) -> u16 {
        self.scope
            .names
            .push((name.to_string(), Binding::Slot(slot, ty)));
        slot
    }

    /// Starts a fresh local scope (one per action, hook or rule); returns the previous maximum.
    pub fn reset_scope(&mut self) -> u16 {
        let max = self.scope.max_slot;
        self.scope = Scope::default();
        max
    }

    /// Marks the scope depth so the names bound after it can be dropped again.
    pub fn mark(&self) -> usize {
        self.scope.names.len()
    }
    pub fn release(&mut self, mark: usize) {
        self.scope.names.truncate(mark);
    }

    pub fn lookup_local(&self, name: &str) -> Option<&Binding> {
        self.scope
            .names
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, b)| b)
    }

    /// Every name that could be meant at an expression position, for suggestions.
    pub fn known_names(&self) -> Vec<&str> {
        let mut v: Vec<&str> = Vec::new();
        v.extend(self.scope.names.iter().map(|(n, _)| n.as_str()));
        v.extend(BUILTIN_NAMES);
        v.extend(BUILTIN_FUNCTIONS.iter().map(|(n, _)| *n));
        v.extend(self.defs.keys().map(|s| s.as_str()));
        v.extend(self.vars.keys().map(|s| s.as_str()));
        v.extend(self.zones.keys().map(|s| s.as_str()));
        v.extend(self.regions.keys().map(|s| s.as_str()));
        v.extend(self.areas.keys().map(|s| s.as_str()));
        v.extend(self.families.keys().map(|s| s.as_str()));
        v.extend(self.shape_ids.keys().map(|s| s.as_str()));
        v.extend(self.enum_values.keys().map(|s| s.as_str()));
        v.extend(self.seats.iter().map(|s| s.as_str()));
        v.extend(self.phases.keys().map(|s| s.as_str()));
        v.extend(self.board.dirs.iter().map(|d| d.name.as_str()));
        v.extend(DIR_SETS.iter().map(|(n, _)| *n));
        v.sort();
        v.dedup();
        v
    }
}

/// Names with a fixed meaning in every game.
pub const BUILTIN_NAMES: [&str; 11] = [
    "me",
    "opponent",
    "seats",
    "cells",
    "occupied",
    "phase",
    "turn_seat",
    "phase_turns",
    "width",
    "height",
    "repetitions",
];

/// The built-in functions and how many arguments each takes.
pub const BUILTIN_FUNCTIONS: [(&str, usize); 45] = [
    ("between", 3),
    ("index_of", 2),
    ("along", 3),
    ("line", 2),
    ("linked", 1),
    ("reachable", 2),
    ("targets", 2),
    ("row", 1),
    ("rows", 1),
    ("row_size", 2),
    ("seat_of", 1),
    ("roll", 2),
    ("adjacent", 2),
    ("slide", 2),
    ("sight", 2),
    ("reach", 2),
    ("runs", 2),
    ("sweep", 3),
    ("shifts", 2),
    ("first", 1),
    ("last", 1),
    ("size", 1),
    ("count", 1),
    ("max", 2),
    ("min", 2),
    ("abs", 1),
    ("next", 1),
    ("distance", 2),
    ("file", 1),
    ("rank", 1),
    ("cell", 2),
    ("subsets", 3),
    ("top", 1),
    ("prev", 1),
    ("contents", 1),
    ("destinations", 2),
    ("attacks", 2),
    ("route", 2),
    ("waypoints", 1),
    ("finishes", 1),
    ("may_halt", 1),
    ("advance", 2),
    ("passed", 2),
    ("group", 3),
    ("cells_of", 1),
];

/// Named sets of grid directions.
pub const DIR_SETS: [(&str, &[&str]); 3] = [
    ("orthogonal", &["n", "e", "s", "w"]),
    ("diagonal", &["ne", "se", "sw", "nw"]),
    ("around", &["n", "ne", "e", "se", "s", "sw", "w", "nw"]),
];

/// A type in a designer's words.
pub fn describe(ctx: &Ctx, ty: &Type) -> String {
    match ty {
        Type::Int => "a number".into(),
        Type::Bool => "a condition (true or false)".into(),
        Type::Seat => "a seat".into(),
        Type::Cell => "a cell".into(),
        Type::Comp => "a card or piece".into(),
        Type::Dir => "a direction".into(),
        Type::Enum(e) => format!(
            "a {}",
            ctx.enums
                .get(*e as usize)
                .map(|e| e.name.as_str())
                .unwrap_or("value")
        ),
        Type::Phase => "a phase".into(),
        Type::Line => "a run of cells".into(),
        Type::Zone => "a zone".into(),
        Type::Str => "text".into(),
        Type::Pattern => "a move pattern".into(),
        Type::Shape => "a shape".into(),
        Type::Route => "a route (a move in progress)".into(),
        Type::List(t) => format!("a list of {}", plural(ctx, t)),
        Type::Nothing => "`none`".into(),
        Type::Unknown => "an unknown value".into(),
    }
}

fn plural(ctx: &Ctx, ty: &Type) -> String {
    match ty {
        Type::Int => "numbers".into(),
        Type::Bool => "conditions".into(),
        Type::Seat => "seats".into(),
        Type::Cell => "cells".into(),
        Type::Comp => "cards or pieces".into(),
        Type::Dir => "directions".into(),
        Type::Line => "runs of cells".into(),
        other => format!("({})", describe(ctx, other)),
    }
}

/// Whether a value of type `have` may stand where `want` is expected.
pub fn fits(want: &Type, have: &Type) -> bool {
    match (want, have) {
        (Type::Unknown, _) | (_, Type::Unknown) => true,
        (
            Type::Seat
            | Type::Cell
            | Type::Comp
            | Type::Enum(_)
            | Type::Phase
            | Type::Zone
            | Type::Shape
            | Type::Route
            | Type::Nothing,
            Type::Nothing,
        ) => true,
        (
            Type::Nothing,
            Type::Seat
            | Type::Cell
            | Type::Comp
            | Type::Enum(_)
            | Type::Phase
            | Type::Zone
            | Type::Shape
            | Type::Route,
        ) => true,
        (Type::List(a), Type::List(b)) => fits(a, b),
        (a, b) => a == b,
    }
}
