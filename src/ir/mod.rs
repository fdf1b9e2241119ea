//! The IR: plain serde data with integer ids. The one contract between the front end
//! (`crate::check`, which produces it) and the engine (`crate::engine`, which runs it).
//! Names survive only for display and notation; nothing on a hot path compares strings.

mod expr;
pub mod ops;
mod value;

pub use expr::*;
use serde::{Deserialize, Serialize};
pub use value::*;

/// Bumped whenever the shape of the IR changes.
pub const FORMAT_VERSION: u32 = 2;

pub type SeatId = u8;
pub type CellId = u16;
pub type CompId = u16;
pub type ZoneId = u16;
pub type ActionId = u16;
pub type PhaseId = u16;

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Game {
    pub format_version: u32,
    pub title: String,
    pub variant: Option<String>,
    pub min_players: u8,
    pub max_players: u8,
    pub max_turns: u32,
    /// The phase play begins in.
    pub first_phase: PhaseId,
    pub seats: Vec<SeatDef>,
    /// Names of the attributes every seat declares, in the order of `SeatDef::attrs`.
    pub seat_attrs: Vec<String>,
    pub enums: Vec<EnumDef>,
    /// Component attributes, shared by name across kinds; `Component::attrs` is indexed by these.
    pub attrs: Vec<AttrDef>,
    pub kinds: Vec<KindDef>,
    pub components: Vec<Component>,
    pub board: Board,
    pub zones: Vec<ZoneDef>,
    pub vars: Vec<VarDef>,
    pub setup: Vec<Stmt>,
    pub phases: Vec<Phase>,
    pub actions: Vec<ActionDef>,
    pub triggers: Vec<Trigger>,
    pub patterns: Vec<PatternDef>,
    /// Catalogues of shapes for areas, and every shape in them.
    pub families: Vec<ShapeFamily>,
    pub shapes: Vec<ShapeDef>,
    pub reactions: Vec<Reaction>,
    pub end: EndRules,
    /// The variables players are shown, in order, with their labels (`display { ... }`);
    /// `None` shows every variable under its own name.
    #[serde(default)]
    pub display: Option<Vec<Shown>>,
    /// The most local slots any rule uses at once; the engine sizes one buffer by it.
    pub max_locals: u16,
    /// The rules read `repetitions`: the engine records each position as it stands
    /// before every action.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub history: bool,
}

impl Game {
    /// Every list of statements the rules run, in a fixed order: `setup`, each phase's
    /// `enter`, `before turn` and `after turn`, each reaction's `after`, each trigger's
    /// body and each action's `do` (the statements nested in them not listed apart).
    pub fn bodies(&self) -> Vec<&[Stmt]> {
        let mut lists: Vec<&[Stmt]> = vec![&self.setup];
        for p in &self.phases {
            lists.extend([&p.enter[..], &p.before_turn[..], &p.after_turn[..]]);
        }
        lists.extend(self.reactions.iter().map(|r| &r.after[..]));
        lists.extend(self.triggers.iter().map(|t| &t.body[..]));
        for a in &self.actions {
            lists.extend(a.clauses.iter().filter_map(|c| match c {
                Clause::Do(body) => Some(&body[..]),
                _ => None,
            }));
        }
        lists
    }

    /// `bodies`, each to be changed in place (the engine rewrites some statements when
    /// it is built: `engine/reuse.rs`).
    pub fn bodies_mut(&mut self) -> Vec<&mut Vec<Stmt>> {
        let mut lists: Vec<&mut Vec<Stmt>> = vec![&mut self.setup];
        for p in &mut self.phases {
            lists.extend([&mut p.enter, &mut p.before_turn, &mut p.after_turn]);
        }
        lists.extend(self.reactions.iter_mut().map(|r| &mut r.after));
        lists.extend(self.triggers.iter_mut().map(|t| &mut t.body));
        for a in &mut self.actions {
            lists.extend(a.clauses.iter_mut().filter_map(|c| match c {
                Clause::Do(body) => Some(body),
                _ => None,
            }));
        }
        lists
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SeatDef {
    pub name: String,
    pub attrs: Vec<Value>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct EnumDef {
    pub name: String,
    /// Each value's name and its short display text.
    pub values: Vec<(String, String)>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct KindDef {
    pub name: String,
    /// Which of the game's attributes this kind has.
    pub attrs: Vec<u16>,
    pub label: Vec<LabelPart>,
    /// How actions write these components, if not by their label.
    pub notation: Option<Vec<LabelPart>>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AttrDef {
    pub name: String,
    pub ty: AttrType,
    /// Display names for integer values, from the range's low end.
    pub names: Vec<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub enum AttrType {
    Int {
        lo: i64,
        hi: i64,
    },
    Enum(u16),
    /// A move pattern.
    Pattern,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub enum LabelPart {
    Text(String),
    Attr(u16),
    Owner,
}

/// One physical component (card or piece). Its attributes never change.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, Hash)]
pub struct Component {
    pub kind: u16,
    pub attrs: Vec<Value>,
}

/// The board: cells, the directions between them, and named regions.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct Board {
    pub width: u16,
    pub height: u16,
    /// A board of hexagonal cells (`board hex`): six directions, and `distance` counts
    /// steps between hexagons.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hex: bool,
    pub cells: Vec<CellDef>,
    pub dirs: Vec<DirDef>,
    /// `links[cell * dirs.len() + dir]` is the neighbouring cell, or `NO_CELL`.
    pub links: Vec<CellId>,
    pub regions: Vec<RegionDef>,
    /// Areas: cells laid out in play by shapes (a board of areas has no grid).
    pub areas: Vec<AreaDef>,
    /// For each cell, the area it belongs to (empty on a grid).
    pub cell_area: Vec<CellArea>,
    /// `link a, b when ...`: cells the rules link besides their shapes' links (locals 0
    /// and 1 are the two cells). Read again whenever an area's shape changes.
    pub link_rule: Option<Expr>,
}

/// An area: `size` cells for each seat (or one set), from `first_cell` on, laid out by a
/// shape of one of `families` (a single cell, for an area with none).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AreaDef {
    pub name: String,
    pub per_seat: bool,
    pub families: Vec<u16>,
    pub size: u16,
    pub first_cell: CellId,
    /// Index of this area's first instance in `State::shapes`.
    pub first_instance: u16,
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct CellArea {
    pub area: u16,
    /// The area instance (in `State::shapes`) and the cell's place in it.
    pub instance: u16,
    pub seat: SeatId,
    pub index: u16,
}

/// A catalogue of shapes: `shapes layouts { ... }`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ShapeFamily {
    pub name: String,
    pub shapes: Vec<u16>,
}

/// A shape: rows of cells, front row first, and the links between them. Cells are
/// numbered in reading order (the front row left to right, then the next row).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ShapeDef {
    pub name: String,
    /// Cells per row, front first, as `4-4-4`.
    pub index: String,
    pub family: u16,
    pub rows: Vec<u16>,
    /// Each cell's row (1 for the front row) and its column in the drawing.
    pub cell_row: Vec<u16>,
    pub cell_col: Vec<u16>,
    pub links: Vec<(u16, u16)>,
    /// The drawing's link marks, to draw the shape again.
    pub marks: Vec<ShapeMark>,
}

/// A link as drawn: `-` on row `row`, or `|`, `/`, `\` between row `row` and the next.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ShapeMark {
    pub row: u16,
    pub between: bool,
    pub col: u16,
    pub ch: char,
}

pub const NO_AREA: u16 = u16::MAX;

pub const NO_CELL: CellId = CellId::MAX;

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CellDef {
    pub name: String,
    pub x: u16,
    pub y: u16,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct DirDef {
    pub name: String,
    pub dx: i8,
    pub dy: i8,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RegionDef {
    pub name: String,
    pub per_seat: bool,
    /// One ordered list of cells, or one per seat.
    pub cells: Vec<Vec<CellId>>,
    /// Declared as a `path`: a track whose cells are each on it once.
    #[serde(default, skip_serializing_if = "is_false")]
    pub path: bool,
    /// A path whose last cell is followed by its first again (`loop`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub loops: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn public() -> Visibility {
    Visibility::Public
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub enum Visibility {
    Public,
    Owner,
    Hidden,
    Top,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ZoneDef {
    pub name: String,
    pub per_seat: bool,
    pub visibility: Visibility,
    /// How many numbered zones share this name (1 for a plain zone).
    pub slots: u16,
    /// Components that start here: one list, or one per seat for a per-seat zone.
    pub initial: Vec<Vec<CompId>>,
}

/// A named move pattern.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PatternDef {
    pub name: String,
    pub pat: Pat,
}

/// A move pattern: legs, choices between patterns, and legs that continue one another.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub enum Pat {
    Leg(Leg),
    Alt(Vec<Pat>),
    /// The first pattern, then (optionally) the second from where it lands, in the same
    /// direction or any.
    Seq {
        first: Box<Pat>,
        optional: bool,
        same: bool,
        then: Box<Pat>,
    },
}

/// One leg: its step vectors (with +y forward for the mover) and how far it rides
/// (1 for a leaper, n for a rider of at most n steps, 0 for an unlimited rider).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Leg {
    pub vectors: Vec<(i8, i8)>,
    pub range: u8,
    /// What may stand where the move ends after this leg (Betza's `m` and `c`).
    #[serde(default, skip_serializing_if = "Lands::is_any")]
    pub lands: Lands,
}

/// What may stand on the cell where a move ends after a leg.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub enum Lands {
    /// An empty cell or another owner's piece (a capture).
    #[default]
    Any,
    /// Only an empty cell: the leg moves, never captures (`m`).
    Move,
    /// Only another owner's piece: the leg captures, never moves to an empty cell (`c`).
    Capture,
}

impl Lands {
    pub fn is_any(&self) -> bool {
        *self == Lands::Any
    }

    /// Whether a move may end on a cell that is empty (`empty`) or holds another owner's
    /// piece.
    pub fn allows(self, empty: bool) -> bool {
        match self {
            Lands::Any => true,
            Lands::Move => empty,
            Lands::Capture => !empty,
        }
    }
}

/// Effects run whenever a component enters or leaves a zone; the component is local 0.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Trigger {
    pub zone: ZoneId,
    pub enters: bool,
    pub body: Vec<Stmt>,
}

/// A decision owed by another seat at once, started by an effect (`react`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Reaction {
    pub name: String,
    pub by: Expr,
    /// `when COND`: the reaction is offered exactly when COND holds (with `me` the seat
    /// whose turn it is), even if its seat has nothing to answer but `done` or `skip`.
    /// Without it, a reaction that would offer only those is over at once.
    #[serde(default)]
    pub offer: Option<Expr>,
    pub mode: StepMode,
    pub actions: Vec<ActionId>,
    /// Run when the reaction is over, before play goes on.
    pub after: Vec<Stmt>,
}

/// A variable players are shown, and its label.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Shown {
    pub var: u16,
    pub label: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct VarDef {
    pub name: String,
    pub per_seat: bool,
    /// One value per component (`var x per piece`).
    pub per_piece: bool,
    /// Who sees the value: everyone (`Public`), the seat it belongs to or the component's
    /// owner (`Owner`), or no one (`Hidden`).
    #[serde(default = "public")]
    pub visibility: Visibility,
    pub init: Expr,
    /// `clock`: a counter of time, left out of the positions `repetitions` compares.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub clock: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Phase {
    pub name: String,
    /// Turns go round against seat order.
    pub reversed: bool,
    /// Effects run each time the phase begins.
    pub enter: Vec<Stmt>,
    /// Seats for whom this is true are passed over when the turn moves on (`Local(0)` is the seat).
    pub skip: Option<Expr>,
    pub start: Option<Expr>,
    pub steps: Vec<Step>,
    pub before_turn: Vec<Stmt>,
    pub after_turn: Vec<Stmt>,
    pub until: Option<Expr>,
    /// The phase that follows when this one ends (`next PHASE`); `None` for the next
    /// declared, or when `next_if` chooses it.
    pub next: Option<PhaseId>,
    /// `next if COND then PHASE else PHASE`: the phase chosen when this one ends. Not
    /// written out when absent, so a fixed `next` keeps its shape.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_if: Option<NextPhase>,
}

/// A phase chosen when a phase ends: a fixed one, or by a condition evaluated then from
/// the point of view of the seat whose turn just ended (as `until` is).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub enum NextPhase {
    Phase(PhaseId),
    If(Expr, Box<NextPhase>, Box<NextPhase>),
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub enum StepMode {
    One,
    Optional,
    Repeat,
    /// Repeats until an action ends the turn; no `done`.
    Loop,
    /// Every seat in play chooses one action in secret, in turn order from the turn's
    /// seat; nothing is applied until the last has chosen, then all are applied in that
    /// order.
    All,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Step {
    pub by: Option<Expr>,
    pub mode: StepMode,
    pub actions: Vec<ActionId>,
    pub condition: Option<Expr>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ActionDef {
    pub name: String,
    /// Local slots the action uses (parameters, lets and loop variables).
    pub locals: u16,
    pub clauses: Vec<Clause>,
    /// The source text of each `require`, for telling a player why a move is refused.
    pub require_texts: Vec<String>,
    /// Where the action is declared and where each `require` is, as `file:line:column`
    /// (plain text for rules errors at play time, not a reference into the source).
    #[serde(default)]
    pub place: String,
    #[serde(default)]
    pub require_places: Vec<String>,
    /// Each `require`'s reason (`require COND else "reason"`), told to a refused move
    /// instead of the condition's text.
    #[serde(default)]
    pub require_reasons: Vec<Option<String>>,
    /// Each `choose`'s reason (`choose x in SET else "reason"`), by the order of the
    /// action's `choose` clauses, told to a move that names something not in the set.
    /// Empty when no `choose` has one (and then not written out).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choose_reasons: Vec<Option<String>>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub enum Clause {
    /// A parameter: its slot, its type and the set it is chosen from.
    Choose {
        slot: u16,
        name: String,
        ty: Type,
        domain: Expr,
    },
    Let {
        slot: u16,
        value: Expr,
    },
    Require {
        index: u16,
        cond: Expr,
        /// `require afterwards`: judged on the position the action's `do` produces
        /// (it stands after the `do`).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        afterwards: bool,
    },
    Do(Vec<Stmt>),
}

impl Clause {
    /// The expression of a `choose` (its domain), a `let` (its value) or a `require` (its
    /// condition); none for a `do`, whose statements are among `Game::bodies`.
    pub fn expr(&self) -> Option<&Expr> {
        match self {
            Clause::Choose { domain: e, .. }
            | Clause::Let { value: e, .. }
            | Clause::Require { cond: e, .. } => Some(e),
            Clause::Do(_) => None,
        }
    }

    /// `expr`, to be changed in place (the engine rewrites some when it is built).
    pub fn expr_mut(&mut self) -> Option<&mut Expr> {
        match self {
            Clause::Choose { domain: e, .. }
            | Clause::Let { value: e, .. }
            | Clause::Require { cond: e, .. } => Some(e),
            Clause::Do(_) => None,
        }
    }

    /// Whether this is a `require afterwards`.
    pub fn is_afterwards(&self) -> bool {
        matches!(
            self,
            Clause::Require {
                afterwards: true,
                ..
            }
        )
    }
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub enum StuckRule {
    Draw,
    Pass,
    Lose,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct EndRules {
    pub wins: Vec<(Expr, Expr)>,
    pub draws: Vec<Expr>,
    /// What a seat with no legal action does (`on stuck RESULT`); with `stuck_if`, what it
    /// does when none of their conditions holds.
    pub stuck: StuckRule,
    /// `on stuck if COND then RESULT else ...`: the conditions, in order, each with the
    /// result it picks, evaluated when a seat is stuck with `me` as that seat; the first
    /// that holds decides. Empty for a fixed `on stuck` (and then not written out).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stuck_if: Vec<(Expr, StuckRule)>,
    /// How well a seat is doing (the seat is local slot 0), if the rules say.
    pub score: Option<Expr>,
}
