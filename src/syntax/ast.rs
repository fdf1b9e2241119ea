//! The spanned abstract syntax tree: what a rules file says, before any checking.

use std::fmt;

/// A byte range in one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub file: u16,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: u16, start: usize, end: usize) -> Span {
        Span {
            file,
            start: start as u32,
            end: end as u32,
        }
    }
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// A name as written, with where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

impl fmt::Display for Ident {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

#[derive(Clone, Debug)]
pub struct Item {
    pub kind: ItemKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ItemKind {
    Import(String),
    Game(GameDecl),
    Seat {
        name: Ident,
        fields: Vec<Field>,
    },
    Enum {
        name: Ident,
        values: Vec<(Ident, Option<String>)>,
    },
    Kind(KindDecl),
    Label {
        kind: Ident,
        template: String,
    },
    Notation {
        kind: Ident,
        template: String,
    },
    Deck {
        name: Ident,
        kind: Ident,
        body: Vec<DeckEntry>,
    },
    Board(BoardDecl),
    Zone(ZoneDecl),
    Var {
        name: Ident,
        per_seat: bool,
        per_piece: bool,
        /// `public`, `owner` or `hidden` (public when not said).
        visibility: Visibility,
        /// `clock`: a counter of time, left out of the positions `repetitions` compares.
        clock: bool,
        ty: Option<Ident>,
        init: Expr,
    },
    Def {
        name: Ident,
        params: Vec<Ident>,
        body: Expr,
    },
    Setup(Block),
    Phase(Box<PhaseDecl>),
    Action(ActionDecl),
    End(Vec<EndRule>),
    /// `when card enters hand { ... }` (or `leaves`).
    Trigger {
        var: Ident,
        enters: bool,
        zone: Ident,
        body: Block,
    },
    Reaction(ReactionDecl),
    /// `display { var "label" ... }`: the variables players are shown, with their labels.
    Display(Vec<(Ident, Option<String>)>),
    /// `effect name(params) { ... }`: a named block of effects.
    Effect {
        name: Ident,
        params: Vec<Ident>,
        body: Block,
    },
    /// `pattern name = ...`: a move pattern.
    Pattern {
        name: Ident,
        pat: Pat,
    },
    /// `shapes name { ... }`: a catalogue of shapes.
    Shapes(ShapesDecl),
    Variant {
        name: Ident,
        items: Vec<Item>,
    },
}

/// A move pattern as written.
#[derive(Clone, Debug)]
pub enum Pat {
    /// `fW`, `Q3`, `WW`, `(1,3)`.
    Atom {
        mods: String,
        letters: String,
        vector: Option<(i64, i64)>,
        range: Option<u32>,
        span: Span,
    },
    Alt(Vec<Pat>),
    /// `A then[?] [same|any] B`.
    Seq {
        first: Box<Pat>,
        optional: bool,
        same: bool,
        then: Box<Pat>,
    },
}

#[derive(Clone, Debug)]
pub struct ReactionDecl {
    pub name: Ident,
    pub by: Expr,
    /// `when COND`: offered exactly when COND holds, even with only `done` to answer.
    pub offer: Option<Expr>,
    pub mode: StepMode,
    /// Where the mode is written.
    pub mode_span: Span,
    pub actions: Vec<Ident>,
    pub after: Block,
}

#[derive(Clone, Debug, Default)]
pub struct GameDecl {
    /// Empty inside a variant, which only changes the properties it gives.
    pub title: String,
    pub first_phase: Option<Ident>,
    pub players: Option<(u32, u32, Span)>,
    pub max_turns: Option<(u32, Span)>,
}

#[derive(Clone, Debug)]
pub struct Field {
    pub name: Ident,
    pub value: Expr,
}

#[derive(Clone, Debug)]
pub struct KindDecl {
    pub name: Ident,
    pub attrs: Vec<AttrDecl>,
    /// The label template and where it is written.
    pub label: Option<(String, Span)>,
}

#[derive(Clone, Debug)]
pub struct AttrDecl {
    pub name: Ident,
    pub ty: AttrType,
    pub names: Vec<String>,
}

#[derive(Clone, Debug)]
pub enum AttrType {
    Range(i64, i64, Span),
    Named(Ident),
}

#[derive(Clone, Debug)]
pub enum DeckEntry {
    For {
        var: Ident,
        domain: Expr,
        body: Vec<DeckEntry>,
    },
    Card {
        copies: u32,
        fields: Vec<Field>,
        span: Span,
    },
}

#[derive(Clone, Debug)]
pub struct BoardDecl {
    /// False for a board of areas (`board { area ... }`), which has no grid.
    pub grid: bool,
    /// `board hex W x H`: a grid of hexagonal cells (each rank half a cell right of the
    /// rank below), with six directions.
    pub hex: bool,
    pub width: u32,
    pub height: u32,
    pub size_span: Span,
    pub regions: Vec<RegionDecl>,
    pub areas: Vec<AreaDecl>,
    pub links: Vec<LinkRuleDecl>,
}

/// `area camp per seat shaped layouts`, or `area gate per seat` (one cell).
#[derive(Clone, Debug)]
pub struct AreaDecl {
    pub name: Ident,
    pub per_seat: bool,
    /// The catalogues whose shapes may lay the area out (none: a one-cell area).
    pub shaped: Vec<Ident>,
    pub span: Span,
}

/// `link a, b when condition`.
#[derive(Clone, Debug)]
pub struct LinkRuleDecl {
    pub a: Ident,
    pub b: Ident,
    pub when: Expr,
    pub span: Span,
}

/// `shapes name { rules... shape ... }`: a catalogue of shapes for areas.
#[derive(Clone, Debug)]
pub struct ShapesDecl {
    pub name: Ident,
    pub rules: Vec<(ShapeRule, Span)>,
    pub shapes: Vec<ShapeDecl>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeRule {
    RowsAtMost(u32),
    CellsPerRowAtMost(u32),
    Connected,
    RowsLinked,
    DiagonalsInTriangles,
}

/// One drawn shape: its name, its index as written (`"4-4-4"`), and its marks.
#[derive(Clone, Debug)]
pub struct ShapeDecl {
    pub name: Ident,
    pub index: Option<(String, Span)>,
    pub marks: Vec<ArtMark>,
    pub span: Span,
}

/// One mark of a shape's drawing, with its line and column in the file (from 0).
#[derive(Clone, Debug)]
pub struct ArtMark {
    pub ch: char,
    pub line: u32,
    pub col: u32,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct RegionDecl {
    pub name: Ident,
    pub seat: Option<Ident>,
    pub cells: Expr,
    /// Declared with `path` (a track: each cell once), and whether it is a `loop`.
    pub path: bool,
    pub loops: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visibility {
    Public,
    Owner,
    Hidden,
    Top,
}

#[derive(Clone, Debug)]
pub struct ZoneDecl {
    pub name: Ident,
    pub per_seat: bool,
    /// How many numbered zones of this name (1 unless `x N`).
    pub slots: u32,
    pub visibility: Visibility,
    pub holds: Vec<(u32, Ident)>,
}

#[derive(Clone, Debug)]
pub struct PhaseDecl {
    pub name: Ident,
    pub reversed: bool,
    pub enter: Option<Block>,
    pub skip: Option<(Ident, Expr)>,
    pub start: Option<Expr>,
    pub steps: Vec<StepDecl>,
    pub before_turn: Option<Block>,
    pub after_turn: Option<Block>,
    pub until: Option<Expr>,
    pub next: Option<NextPhase>,
}

/// The phase that follows when a phase ends: `next PHASE`, or chosen then by a condition,
/// `next if COND then PHASE else PHASE` (each branch may be another `if`).
#[derive(Clone, Debug)]
pub enum NextPhase {
    Phase(Ident),
    If(Expr, Box<NextPhase>, Box<NextPhase>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepMode {
    One,
    Optional,
    Repeat,
    Loop,
    /// Every seat makes one secret choice; the choices are revealed together.
    All,
}

#[derive(Clone, Debug)]
pub struct StepDecl {
    pub by: Option<Expr>,
    pub mode: StepMode,
    /// Where the mode is written.
    pub mode_span: Span,
    pub actions: Vec<Ident>,
    pub condition: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct ActionDecl {
    pub name: Ident,
    pub clauses: Vec<Clause>,
}

#[derive(Clone, Debug)]
pub enum Clause {
    /// `choose VAR in DOMAIN [else "reason"]`: the reason is what a move naming something
    /// not in the domain is told.
    Choose {
        var: Ident,
        domain: Expr,
        reason: Option<String>,
    },
    Let {
        var: Ident,
        value: Expr,
    },
    /// `require [afterwards] COND [else "reason"]`: the reason is what a refused move is
    /// told; `afterwards`, the condition is judged on the position the `do` produces.
    Require {
        cond: Expr,
        reason: Option<String>,
        afterwards: bool,
    },
    Do(Block),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StuckRule {
    Draw,
    Pass,
    Lose,
}

/// What `on stuck` does: a fixed result, or one chosen when a seat is stuck,
/// `if COND then RESULT else ...` (the `else` may be another `if`).
#[derive(Clone, Debug)]
pub enum StuckChoice {
    Result(StuckRule),
    If(Expr, StuckRule, Box<StuckChoice>),
}

#[derive(Clone, Debug)]
pub enum EndRule {
    Win {
        who: Expr,
        when: Expr,
    },
    Draw {
        when: Expr,
    },
    /// `on stuck ...`; the span is the whole rule, for a second one to be told where.
    Stuck(StuckChoice, Span),
    /// `score p: expr`: how well seat `p` is doing.
    Score {
        seat: Ident,
        value: Expr,
    },
}

pub type Block = Vec<Stmt>;

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignOp {
    Set,
    Add,
    Sub,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    If {
        cond: Expr,
        then: Block,
        otherwise: Block,
    },
    For {
        var: Ident,
        domain: Expr,
        body: Block,
    },
    Let {
        var: Ident,
        value: Expr,
    },
    Move {
        what: Expr,
        to: Expr,
        /// `Some(true)` for `face up`, `Some(false)` for `face down`.
        face: Option<bool>,
    },
    /// Turn components face up (`reveal`) or face down (`conceal`).
    Face {
        what: Expr,
        up: bool,
    },
    Swap(Expr, Expr),
    Shift {
        what: Expr,
        dir: Expr,
        steps: Expr,
    },
    Shuffle(Expr),
    Place {
        what: Expr,
        onto: Expr,
    },
    /// `tuck X under Z`: to the bottom of a zone.
    Tuck {
        what: Expr,
        under: Expr,
    },
    /// `end turn`: the turn ends once the action is over.
    EndTurn,
    /// `react name`: the named reaction's decision comes next.
    React(Ident),
    /// `form area as shape`: lay an area out by a shape (or `none`).
    Form {
        area: Expr,
        shape: Expr,
    },
    /// `name(args)`: run a named effect.
    Call(Ident, Vec<Expr>),
    Transfer {
        amount: Expr,
        counter: Ident,
        from: Expr,
        to: Expr,
    },
    Deal {
        count: Expr,
        from: Expr,
        to: Expr,
    },
    Win(Expr),
    Lose(Expr),
    Draw,
    Assign {
        target: Vec<Ident>,
        op: AssignOp,
        value: Expr,
    },
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    NotIn,
    Range,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "or",
            BinOp::And => "and",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::In => "in",
            BinOp::NotIn => "not in",
            BinOp::Range => "..",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Not,
    Neg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quant {
    Any,
    All,
    None,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agg {
    Sum,
    Max,
    Min,
    Count,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Int(i64),
    Str(String),
    Bool(bool),
    None,
    Name(Ident),
    Call(Ident, Vec<Expr>),
    Field(Box<Expr>, Ident),
    /// `xs[i]`: the i-th item of a collection, from 1; from the end if negative.
    Index(Box<Expr>, Box<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Quant(Quant, Ident, Box<Expr>, Box<Expr>),
    Agg(Agg, Ident, Box<Expr>, Box<Expr>),
    Comprehension(Ident, Box<Expr>, Option<Box<Expr>>),
    List(Vec<Expr>),
}
