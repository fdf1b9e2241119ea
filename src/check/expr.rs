//! Lowering expressions: name resolution, type checking and arity, in one walk.

use super::symbols::{describe, fits, Binding, Ctx, BUILTIN_FUNCTIONS, DIR_SETS};
use crate::diagnostic::Diagnostic;
use crate::ir::{self, Builtin, Type, Value};
use crate::similar::suggest;
use crate::syntax::ast::{self, ExprKind, Ident, Span};

type Lowered = (ir::Expr, Type);

/// Whether an expression is built from constants only (so folding it is safe and cheap).
fn folds(x: &ir::Expr) -> bool {
    match x {
        ir::Expr::Const(_) => true,
        ir::Expr::List(items) => items.iter().all(folds),
        ir::Expr::Binary(op, a, b) => *op != ir::BinOp::Range && folds(a) && folds(b),
        ir::Expr::If(c, a, b) => folds(c) && folds(a) && folds(b),
        ir::Expr::Not(a) | ir::Expr::Neg(a) => folds(a),
        ir::Expr::Index(a, i) => folds(a) && folds(i),
        _ => false,
    }
}

/// "1 argument", "2 arguments".
pub(super) fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// "1 was", "2 were".
pub(super) fn were(n: usize) -> String {
    if n == 1 {
        "1 was".into()
    } else {
        format!("{n} were")
    }
}

/// How each built-in function is called, for help lines.
const BUILTIN_SIGNATURES: [(&str, &str); 45] = [
    ("between", "path, from, to"),
    ("index_of", "list, item"),
    ("along", "path, cell, steps"),
    ("line", "cell, cell"),
    ("linked", "cell"),
    ("reachable", "cell, within"),
    ("targets", "cell, most occupied cells passed over"),
    ("row", "cell"),
    ("rows", "cell or shape"),
    ("row_size", "shape, row"),
    ("seat_of", "cell"),
    ("roll", "lowest, highest"),
    ("adjacent", "cell, directions"),
    ("slide", "cell, directions"),
    ("sight", "cell, directions"),
    ("reach", "cell, directions"),
    ("runs", "cells, directions"),
    ("sweep", "run, direction, distance"),
    ("shifts", "run, direction"),
    ("first", "list"),
    ("last", "list"),
    ("size", "list"),
    ("count", "list"),
    ("max", "a, b"),
    ("min", "a, b"),
    ("abs", "number"),
    ("next", "seat"),
    ("distance", "cell, cell"),
    ("file", "cell"),
    ("rank", "cell"),
    ("cell", "file, rank"),
    ("subsets", "list, smallest, largest"),
    ("top", "zone"),
    ("prev", "seat"),
    ("contents", "zones"),
    ("destinations", "cell, pattern"),
    ("attacks", "cell, pattern"),
    ("route", "cell, pattern"),
    ("waypoints", "route"),
    ("finishes", "route"),
    ("may_halt", "route"),
    ("advance", "route, cell"),
    ("passed", "route, cell"),
    ("group", "cell, directions, cells"),
    ("cells_of", "seat"),
];

/// An area's cells: a list for a shaped area, the cell itself for a one-cell area.
fn area_type(shaped: bool) -> Type {
    if shaped {
        Type::List(Box::new(Type::Cell))
    } else {
        Type::Cell
    }
}

fn unknown() -> Lowered {
    (ir::Expr::Const(Value::None), Type::Unknown)
}

impl<'a> Ctx<'a> {
    /// Lowers an expression that must have type `want`.
    pub fn expect(&mut self, e: &ast::Expr, want: &Type, what: &str) -> ir::Expr {
        let (x, ty) = self.expr(e);
        if !fits(want, &ty) {
            let d = Diagnostic::error(
                "muster::type",
                e.span,
                format!(
                    "{what} must be {}, but this is {}",
                    describe(self, want),
                    describe(self, &ty)
                ),
            )
            .label(format!("this is {}", describe(self, &ty)));
            self.error(d);
        }
        x
    }

    /// Lowers an expression that must be a collection; returns it with its element type.
    pub fn collection(&mut self, e: &ast::Expr, what: &str) -> (ir::Expr, Type) {
        let (x, ty) = self.expr(e);
        let el = self.element_of(&ty, e.span, what);
        (x, el)
    }

    /// The item type of a collection of type `ty` (lowered from the expression at `span`).
    fn element_of(&mut self, ty: &Type, span: Span, what: &str) -> Type {
        match ty.element() {
            Some(el) => el,
            None => {
                let d = Diagnostic::error("muster::type", span, format!("{what} must be a list, a run or a zone, but this is {}", describe(self, ty)))
                    .label("not a collection")
                    .help("a collection is a list `[...]`, a range `1..6`, a zone, a region or a run of cells");
                self.error(d);
                Type::Unknown
            }
        }
    }

    /// Lowers an expression, folding it to a constant where it needs no game state.
    pub fn expr(&mut self, e: &ast::Expr) -> Lowered {
        if !self.enter(e.span) {
            return unknown();
        }
        let out = self.expr_folded(e);
        self.leave();
        out
    }

    fn expr_folded(&mut self, e: &ast::Expr) -> Lowered {
        let (x, t) = self.expr_inner(e);
        if matches!(x, ir::Expr::Const(_) | ir::Expr::Local(_)) || !folds(&x) {
            return (x, t);
        }
        match super::consts::eval(&x, &[], &self.board) {
            Some(v) => (ir::Expr::Const(v), t),
            None => (x, t),
        }
    }

    fn expr_inner(&mut self, e: &ast::Expr) -> Lowered {
        match &e.kind {
            ExprKind::Int(i) => (ir::Expr::Const(Value::Int(*i)), Type::Int),
            ExprKind::Str(s) => (ir::Expr::Const(Value::Str(Box::new(s.clone()))), Type::Str),
            ExprKind::Bool(b) => (ir::Expr::Const(Value::Bool(*b)), Type::Bool),
            ExprKind::None => (ir::Expr::Const(Value::None), Type::Nothing),
            ExprKind::Name(id) => self.name(id),
            ExprKind::Call(f, args) => self.call(f, args, e.span),
            ExprKind::Field(base, field) => self.field(base, field),
            ExprKind::Index(coll, at) => self.index(coll, at),
            ExprKind::Unary(op, inner) => match op {
                ast::UnOp::Not => (
                    ir::Expr::Not(Box::new(self.expect(
                        inner,
                        &Type::Bool,
                        "the operand of `not`",
                    ))),
                    Type::Bool,
                ),
                ast::UnOp::Neg => (
                    ir::Expr::Neg(Box::new(self.expect(
                        inner,
                        &Type::Int,
                        "the operand of `-`",
                    ))),
                    Type::Int,
                ),
            },
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, e.span),
            ExprKind::If(c, a, b) => {
                let c = self.expect(c, &Type::Bool, "the condition of `if`");
                let (a, ta) = self.expr(a);
                let (bx, tb) = self.expr(b);
                if !fits(&ta, &tb) {
                    let d = Diagnostic::error(
                        "muster::type",
                        e.span,
                        format!(
                            "the two branches of this `if` differ: {} and {}",
                            describe(self, &ta),
                            describe(self, &tb)
                        ),
                    )
                    .label("branches of different types");
                    self.error(d);
                }
                let ty = if ta == Type::Nothing { tb } else { ta };
                (ir::Expr::If(Box::new(c), Box::new(a), Box::new(bx)), ty)
            }
            ExprKind::Quant(q, var, coll, body) => {
                let (c, el) = self.collection(coll, "the collection after `in`");
                let mark = self.mark();
                let slot = self.push_local(&var.name, el);
                let b = self.expect(body, &Type::Bool, "the condition after `:`");
                self.release(mark);
                let q = match q {
                    ast::Quant::Any => ir::Quant::Any,
                    ast::Quant::All => ir::Quant::All,
                    ast::Quant::None => ir::Quant::None,
                };
                (
                    ir::Expr::Quant(q, slot, Box::new(c), Box::new(b)),
                    Type::Bool,
                )
            }
            ExprKind::Agg(a, var, coll, body) => {
                let (c, el) = self.collection(coll, "the collection after `in`");
                let mark = self.mark();
                let slot = self.push_local(&var.name, el);
                let (want, what) = if *a == ast::Agg::Count {
                    (Type::Bool, "the condition of `count`")
                } else {
                    (Type::Int, "the value after `:`")
                };
                let b = self.expect(body, &want, what);
                self.release(mark);
                let a = match a {
                    ast::Agg::Sum => ir::Agg::Sum,
                    ast::Agg::Max => ir::Agg::Max,
                    ast::Agg::Min => ir::Agg::Min,
                    ast::Agg::Count => ir::Agg::Count,
                };
                (ir::Expr::Agg(a, slot, Box::new(c), Box::new(b)), Type::Int)
            }
            ExprKind::Comprehension(var, coll, cond) => {
                let (c, el) = self.collection(coll, "the collection after `in`");
                let mark = self.mark();
                let slot = self.push_local(&var.name, el.clone());
                let w = cond
                    .as_ref()
                    .map(|w| Box::new(self.expect(w, &Type::Bool, "the condition after `where`")));
                self.release(mark);
                (
                    ir::Expr::Comprehension(slot, Box::new(c), w),
                    Type::List(Box::new(el)),
                )
            }
            ExprKind::List(items) => {
                let mut ty = Type::Nothing;
                let mut out = Vec::new();
                for it in items {
                    let (x, t) = self.expr(it);
                    if ty == Type::Nothing {
                        ty = t;
                    } else if !fits(&ty, &t) {
                        let d = Diagnostic::error("muster::type", it.span, format!("a list holds one type of thing: this is {}, the items before it are {}", describe(self, &t), describe(self, &ty)))
                            .label("a different type");
                        self.error(d);
                    }
                    out.push(x);
                }
                if ty == Type::Nothing {
                    ty = Type::Unknown;
                }
                (ir::Expr::List(out), Type::List(Box::new(ty)))
            }
        }
    }

    /// `coll[at]`: an item of a collection, by its place from 1 (from the end if negative).
    fn index(&mut self, coll: &ast::Expr, at: &ast::Expr) -> Lowered {
        let (c, el) = self.collection(coll, "the value before `[...]`");
        let (i, ty) = self.expr(at);
        if !fits(&Type::Int, &ty) {
            let d = Diagnostic::error(
                "muster::type",
                at.span,
                format!(
                    "the index in `[...]` must be a number, but this is {}",
                    describe(self, &ty)
                ),
            )
            .label(format!("this is {}", describe(self, &ty)))
            .help("an index is an item's place, from 1: `xs[1]` is the first item, `xs[-1]` the last; to ask whether an item is in a collection, write `x in xs`");
            self.error(d);
        }
        if i == ir::Expr::Const(Value::Int(0)) {
            let d = Diagnostic::error(
                "muster::index",
                at.span,
                "items are counted from 1: `[0]` names no item",
            )
            .label("no item 0")
            .help("the first item is `[1]`, the last `[-1]`");
            self.error(d);
        }
        // The item may be missing (out of range): a number or condition read from it is
        // 0 or false, as `none` reads.
        (ir::Expr::Index(Box::new(c), Box::new(i)), el)
    }

    fn name(&mut self, id: &Ident) -> Lowered {
        let n = id.name.as_str();
        self.used.insert(n.to_string());
        if let Some(b) = self.lookup_local(n) {
            return match b.clone() {
                Binding::Slot(s, t) => (ir::Expr::Local(s), t),
                Binding::Subst(x, t, cost) => {
                    if !self.reuse(cost, id.span) {
                        return unknown();
                    }
                    (x, t)
                }
            };
        }
        match n {
            "me" => return (ir::Expr::Me, Type::Seat),
            "opponent" => return (ir::Expr::Opponent, Type::Seat),
            "turn_seat" => return (ir::Expr::TurnSeat, Type::Seat),
            "seats" => return (ir::Expr::Seats, Type::List(Box::new(Type::Seat))),
            "cells" => return (ir::Expr::Cells, Type::List(Box::new(Type::Cell))),
            "occupied" => return (ir::Expr::Occupied, Type::List(Box::new(Type::Cell))),
            "phase" => return (ir::Expr::CurrentPhase, Type::Phase),
            "phase_turns" => return (ir::Expr::PhaseTurns, Type::Int),
            _ => {}
        }
        if let Some((params, _)) = self.defs.get(n) {
            if params.is_empty() {
                return self.call(id, &[], id.span);
            }
            let d = Diagnostic::error(
                "muster::arity",
                id.span,
                format!("`{n}` takes {} argument(s)", params.len()),
            )
            .label("used without arguments")
            .help(format!(
                "call it as `{n}({})`",
                params
                    .iter()
                    .map(|p| p.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            self.error(d);
            return unknown();
        }
        if let Some(v) = self.vars.get(n).cloned() {
            if v.per_seat {
                let d = Diagnostic::error(
                    "muster::per-seat",
                    id.span,
                    format!("`{n}` is kept per seat: say whose"),
                )
                .label("whose?")
                .help(format!("write `me.{n}` or `p.{n}` for a seat `p`"));
                self.error(d);
                return unknown();
            }
            return (ir::Expr::GlobalVar(v.id), v.ty);
        }
        if let Some(&(z, per_seat, slots)) = self.zones.get(n) {
            if per_seat {
                let d = Diagnostic::error(
                    "muster::per-seat",
                    id.span,
                    format!("zone `{n}` exists once per seat: say whose"),
                )
                .label("whose?")
                .help(format!("write `{n}(me)` or `{n}(p)` for a seat `p`"));
                self.error(d);
                return unknown();
            }
            if slots > 1 {
                return (ir::Expr::ZoneRow(z, None), Type::List(Box::new(Type::Zone)));
            }
            return (ir::Expr::Zone(z, None, None), Type::Zone);
        }
        if let Some(&(r, per_seat)) = self.regions.get(n) {
            if per_seat {
                let d = Diagnostic::error(
                    "muster::per-seat",
                    id.span,
                    format!("region `{n}` is given per seat: say whose"),
                )
                .label("whose?")
                .help(format!("write `{n}(me)` or `{n}(p)` for a seat `p`"));
                self.error(d);
                return unknown();
            }
            return (ir::Expr::Region(r, None), Type::List(Box::new(Type::Cell)));
        }
        if let Some(&(a, per_seat, shaped)) = self.areas.get(n) {
            if per_seat {
                let d = Diagnostic::error(
                    "muster::per-seat",
                    id.span,
                    format!("area `{n}` exists once per seat: say whose"),
                )
                .label("whose?")
                .help(format!("write `{n}(me)` or `{n}(p)` for a seat `p`"));
                self.error(d);
                return unknown();
            }
            return (ir::Expr::Area(a, None), area_type(shaped));
        }
        if let Some(found) = super::shapes::shape_name(self, n) {
            return found;
        }
        if let Some(&(e, v)) = self.enum_values.get(n) {
            return (ir::Expr::Const(Value::Enum(e, v)), Type::Enum(e));
        }
        if let Some(s) = self.seats.iter().position(|s| s == n) {
            return (ir::Expr::Const(Value::Seat(s as u8)), Type::Seat);
        }
        if let Some(&p) = self.phases.get(n) {
            return (ir::Expr::Const(Value::Phase(p)), Type::Phase);
        }
        if let Some(d) = self.board.dirs.iter().position(|d| d.name == n) {
            return (ir::Expr::Const(Value::Dir(d as u8)), Type::Dir);
        }
        if self.board.hex {
            if n == "around" {
                let dirs = (0..self.board.dirs.len() as u8).map(Value::Dir).collect();
                return (
                    ir::Expr::Const(Value::List(dirs)),
                    Type::List(Box::new(Type::Dir)),
                );
            }
            if let Some(d) = self.hex_direction(n, id.span) {
                self.error(d);
                return unknown();
            }
        }
        if let Some((_, names)) = DIR_SETS.iter().find(|(s, _)| *s == n) {
            if !self.board.dirs.is_empty() {
                let dirs = names
                    .iter()
                    .filter_map(|dn| self.board.dirs.iter().position(|d| d.name == *dn))
                    .map(|d| Value::Dir(d as u8))
                    .collect();
                return (
                    ir::Expr::Const(Value::List(dirs)),
                    Type::List(Box::new(Type::Dir)),
                );
            }
        }
        if let Some(&p) = self.patterns.get(n) {
            return (ir::Expr::Const(Value::Pattern(p)), Type::Pattern);
        }
        if let Some(&c) = self.cell_ids.get(n) {
            return (ir::Expr::Const(Value::Cell(c)), Type::Cell);
        }
        if let Some(&e) = self.enum_ids.get(n) {
            // An enum's name stands for all its values, in order.
            let vals = (0..self.enums[e as usize].values.len() as u16)
                .map(|v| Value::Enum(e, v))
                .collect();
            return (
                ir::Expr::Const(Value::List(vals)),
                Type::List(Box::new(Type::Enum(e))),
            );
        }
        // The board's size, last of all, so that a game's own `width` keeps its meaning.
        if n == "width" || n == "height" {
            return self.board_side(n, id.span);
        }
        // How often the position has stood; the game then keeps its history.
        if n == "repetitions" {
            self.used.insert(n.to_string());
            return (ir::Expr::Repetitions, Type::Int);
        }
        if let Some(d) = self.off_variant_board(id) {
            self.error(d);
            return unknown();
        }
        let mut d = Diagnostic::error(
            "muster::unknown-name",
            id.span,
            format!("unknown name `{n}`"),
        )
        .label("not declared anywhere");
        if !self.flooded() && !self.repeated(&d) {
            let known = self.known_names();
            if let Some(h) = suggest(n, known.iter().copied()) {
                d = d.help(h);
            } else if let Some(h) = self.off_board(n) {
                d = d.help(h);
            }
        }
        self.error(d);
        unknown()
    }

    /// `width` or `height`: the grid's files or ranks, a number fixed before play.
    fn board_side(&mut self, n: &str, span: Span) -> Lowered {
        if !self.areas.is_empty() || self.board.cells.is_empty() {
            let d = Diagnostic::error(
                "muster::not-a-grid",
                span,
                format!("`{n}` is the size of a grid, and this game has no grid"),
            )
            .label(if self.areas.is_empty() {
                "the game has no board"
            } else {
                "a board of areas has no files or ranks"
            })
            .help("`width` and `height` read the size given by `board grid W x H`");
            self.error(d);
        }
        let side = if n == "width" {
            self.board.width
        } else {
            self.board.height
        };
        (ir::Expr::Const(Value::Int(i64::from(side))), Type::Int)
    }

    /// A name written like a cell (`d4`) that is on the base game's grid but not on the
    /// smaller grid a variant gives: says so, naming the variant and the cell.
    fn off_variant_board(&self, id: &Ident) -> Option<Diagnostic> {
        let (variant, base_w, base_h) = self.board_variant.as_ref()?;
        let (f, r) = cell_place(&id.name)?;
        let (w, h) = (u32::from(self.board.width), u32::from(self.board.height));
        if f > *base_w || r > *base_h || (f <= w && r <= h) {
            return None;
        }
        let last = &self.board.cells.last()?.name;
        Some(
            Diagnostic::error(
                "muster::off-board",
                id.span,
                format!(
                    "cell `{}` is not on the board of variant `{variant}`",
                    id.name
                ),
            )
            .label(format!("off the {w} x {h} board"))
            .help(format!(
                "variant `{variant}` makes the board {w} x {h}, with cells a1 to {last}: restate \
                 this declaration in the variant with cells on its board, or compute the cell \
                 from the board's size (`width`, `height`, `cell(f, r)`)"
            )),
        )
    }

    /// For a name written like a cell (`c4`) that is not on the board: the board's cells.
    fn off_board(&self, n: &str) -> Option<String> {
        let mut chars = n.chars();
        chars.next().filter(char::is_ascii_lowercase)?;
        let rank = chars.as_str();
        if rank.is_empty() || !rank.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let last = self.board.cells.last()?;
        Some(format!(
            "the board is {} x {}: its cells run from a1 to {}",
            self.board.width, self.board.height, last.name
        ))
    }

    fn field(&mut self, base: &ast::Expr, field: &Ident) -> Lowered {
        let (b, ty) = self.expr(base);
        let f = field.name.as_str();
        let bx = Box::new(b);
        match ty {
            Type::Unknown => unknown(),
            Type::Seat => {
                if let Some(i) = self.seat_attrs.iter().position(|(n, _)| n == f) {
                    return (
                        ir::Expr::SeatAttr(bx, i as u16),
                        self.seat_attrs[i].1.clone(),
                    );
                }
                if let Some(v) = self.vars.get(f).cloned() {
                    if v.per_seat {
                        self.used.insert(f.to_string());
                        return (ir::Expr::SeatVar(bx, v.id), v.ty);
                    }
                }
                let mut known: Vec<String> =
                    self.seat_attrs.iter().map(|(n, _)| n.clone()).collect();
                known.extend(
                    self.vars
                        .iter()
                        .filter(|(_, v)| v.per_seat)
                        .map(|(n, _)| n.clone()),
                );
                self.no_field(field, "a seat", &known)
            }
            Type::Comp | Type::Nothing => match f {
                _ if self.vars.get(f).is_some_and(|v| v.per_piece) => {
                    let v = self.vars[f].clone();
                    self.used.insert(f.to_string());
                    (ir::Expr::CompVar(bx, v.id), v.ty)
                }
                "owner" => (ir::Expr::CompOwner(bx), Type::Seat),
                "cell" => (ir::Expr::CompCell(bx), Type::Cell),
                _ => {
                    if let Some(&a) = self.attr_ids.get(f) {
                        let t = match self.attrs[a as usize].ty {
                            ir::AttrType::Int { .. } => Type::Int,
                            ir::AttrType::Enum(e) => Type::Enum(e),
                            ir::AttrType::Pattern => Type::Pattern,
                        };
                        return (ir::Expr::CompAttr(bx, a), t);
                    }
                    let mut known: Vec<String> = vec!["owner".into(), "cell".into()];
                    known.extend(self.attrs.iter().map(|a| a.name.clone()));
                    self.no_field(field, "a card or piece", &known)
                }
            },
            Type::Cell => match f {
                "piece" => (ir::Expr::CellPiece(bx), Type::Comp),
                "empty" => (ir::Expr::CellEmpty(bx), Type::Bool),
                _ => self.no_field(field, "a cell", &["piece".into(), "empty".into()]),
            },
            other => {
                let d = Diagnostic::error(
                    "muster::type",
                    field.span,
                    format!(
                        "{} has no fields, so `.{f}` means nothing here",
                        describe(self, &other)
                    ),
                )
                .label("no such field");
                self.error(d);
                unknown()
            }
        }
    }

    fn no_field(&mut self, field: &Ident, what: &str, known: &[String]) -> Lowered {
        let mut d = Diagnostic::error(
            "muster::unknown-field",
            field.span,
            format!("{what} has no field `{}`", field.name),
        )
        .label("unknown field");
        if !self.flooded() && !self.repeated(&d) {
            if let Some(h) = suggest(&field.name, known.iter().map(|s| s.as_str())) {
                d = d.help(h);
            }
        }
        self.error(d);
        unknown()
    }

    fn binary(&mut self, op: ast::BinOp, a: &ast::Expr, b: &ast::Expr, span: Span) -> Lowered {
        use ast::BinOp as B;
        let irop = match op {
            B::Or => ir::BinOp::Or,
            B::And => ir::BinOp::And,
            B::Eq => ir::BinOp::Eq,
            B::Ne => ir::BinOp::Ne,
            B::Lt => ir::BinOp::Lt,
            B::Le => ir::BinOp::Le,
            B::Gt => ir::BinOp::Gt,
            B::Ge => ir::BinOp::Ge,
            B::In => ir::BinOp::In,
            B::NotIn => ir::BinOp::NotIn,
            B::Range => ir::BinOp::Range,
            B::Add => ir::BinOp::Add,
            B::Sub => ir::BinOp::Sub,
            B::Mul => ir::BinOp::Mul,
            B::Div => ir::BinOp::Div,
            B::Rem => ir::BinOp::Rem,
        };
        let sym = op.symbol();
        let (x, ty) = match op {
            B::Or | B::And => {
                let x = self.expect(a, &Type::Bool, &format!("each side of `{sym}`"));
                let y = self.expect(b, &Type::Bool, &format!("each side of `{sym}`"));
                (ir::Expr::Binary(irop, Box::new(x), Box::new(y)), Type::Bool)
            }
            B::Add => {
                // `+` on numbers adds; on collections it joins them: `meld + cards`.
                let (x, tx) = self.expr(a);
                if matches!(tx, Type::Int | Type::Unknown) {
                    let y = self.expect(b, &Type::Int, &format!("each side of `{sym}`"));
                    return (ir::Expr::Binary(irop, Box::new(x), Box::new(y)), Type::Int);
                }
                let ex = self.element_of(&tx, a.span, "each side of `+`");
                let (y, ey) = self.collection(b, "each side of `+`");
                if !fits(&ex, &ey) {
                    let d = Diagnostic::error(
                        "muster::type",
                        span,
                        format!(
                            "cannot join a collection of {} with one of {}",
                            describe(self, &ex),
                            describe(self, &ey)
                        ),
                    )
                    .label("different items");
                    self.error(d);
                }
                (
                    ir::Expr::Call(Builtin::Concat, vec![x, y]),
                    Type::List(Box::new(ex)),
                )
            }
            B::Sub | B::Mul | B::Div | B::Rem => {
                let x = self.expect(a, &Type::Int, &format!("each side of `{sym}`"));
                let y = self.expect(b, &Type::Int, &format!("each side of `{sym}`"));
                (ir::Expr::Binary(irop, Box::new(x), Box::new(y)), Type::Int)
            }
            B::Eq | B::Ne | B::Lt | B::Le | B::Gt | B::Ge => {
                let (x, tx) = self.expr(a);
                let (y, ty) = self.expr(b);
                if !fits(&tx, &ty) {
                    let d = Diagnostic::error(
                        "muster::type",
                        span,
                        format!(
                            "cannot compare {} with {}",
                            describe(self, &tx),
                            describe(self, &ty)
                        ),
                    )
                    .label(format!(
                        "{} `{sym}` {}",
                        describe(self, &tx),
                        describe(self, &ty)
                    ))
                    .help("both sides of a comparison must be the same kind of thing");
                    self.error(d);
                } else if matches!(op, B::Lt | B::Le | B::Gt | B::Ge)
                    && !matches!(tx, Type::Int | Type::Cell | Type::Seat | Type::Unknown)
                {
                    let d = Diagnostic::error(
                        "muster::type",
                        span,
                        format!("{} cannot be ordered with `{sym}`", describe(self, &tx)),
                    )
                    .label("not orderable")
                    .help("`<`, `<=`, `>` and `>=` compare numbers, cells or seats");
                    self.error(d);
                }
                (ir::Expr::Binary(irop, Box::new(x), Box::new(y)), Type::Bool)
            }
            B::In | B::NotIn => {
                let (x, tx) = self.expr(a);
                let (y, el) = self.collection(b, &format!("the right side of `{sym}`"));
                if !fits(&el, &tx) {
                    let d = Diagnostic::error(
                        "muster::type",
                        span,
                        format!(
                            "{} can never be in a collection of {}",
                            describe(self, &tx),
                            describe(self, &el)
                        ),
                    )
                    .label("types do not match");
                    self.error(d);
                }
                (ir::Expr::Binary(irop, Box::new(x), Box::new(y)), Type::Bool)
            }
            B::Range => {
                let (x, tx) = self.expr(a);
                let (y, ty) = self.expr(b);
                let el = match (&tx, &ty) {
                    (Type::Int, Type::Int) => Type::Int,
                    (Type::Cell, Type::Cell) => Type::Cell,
                    (Type::Unknown, t) | (t, Type::Unknown) => t.clone(),
                    _ => {
                        let d = Diagnostic::error("muster::type", span, format!("a range runs from a number to a number, or from a cell to a cell; this runs from {} to {}", describe(self, &tx), describe(self, &ty)))
                            .label("bad range");
                        self.error(d);
                        Type::Unknown
                    }
                };
                (
                    ir::Expr::Binary(irop, Box::new(x), Box::new(y)),
                    Type::List(Box::new(el)),
                )
            }
        };
        (x, ty)
    }

    fn call(&mut self, f: &Ident, args: &[ast::Expr], span: Span) -> Lowered {
        let n = f.name.as_str();
        self.used.insert(n.to_string());
        if let Some((params, body)) = self.defs.get(n).copied() {
            if params.len() != args.len() {
                let d = Diagnostic::error(
                    "muster::arity",
                    span,
                    format!(
                        "`{n}` takes {}, but {} given",
                        count(params.len(), "argument"),
                        were(args.len())
                    ),
                )
                .label("wrong number of arguments")
                .help(format!(
                    "it is declared as `{n}({})`",
                    params
                        .iter()
                        .map(|p| p.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
                self.error(d);
                return unknown();
            }
            if self.def_stack.iter().any(|d| d == n) {
                let d =
                    Diagnostic::error("muster::recursive", f.span, format!("`{n}` uses itself"))
                        .label("recursive use")
                        .help("a definition may not refer to itself, directly or through others");
                self.error(d);
                return unknown();
            }
            let lowered: Vec<(Lowered, _)> = args
                .iter()
                .map(|a| self.measured(|cx| cx.expr(a)))
                .collect();
            // The body sees only its parameters and the game's names, not the caller's locals.
            // An argument it would compute again and again is computed once, into a local
            // (`args.rs`); any other stands where the body names it.
            let saved = std::mem::take(&mut self.scope.names);
            let mut bound = Vec::new();
            for (p, ((x, t), cost)) in params.iter().zip(lowered) {
                let slot = super::args::worth_binding(&x, &t, super::args::uses(body, &p.name))
                    .then(|| self.bound_arg_slot())
                    .flatten();
                let binding = match slot {
                    Some(slot) => {
                        bound.push((slot, x));
                        Binding::Slot(slot, t)
                    }
                    None => Binding::Subst(x, t, cost),
                };
                self.scope.names.push((p.name.clone(), binding));
            }
            self.def_stack.push(n.to_string());
            let (mut out, ty) = self.expr(body);
            self.def_stack.pop();
            self.scope.names = saved;
            // The first argument computed first.
            for (slot, x) in bound.into_iter().rev() {
                out = ir::Expr::Bind(slot, Box::new(x), Box::new(out));
            }
            return (out, ty);
        }
        if let Some(&(z, per_seat, slots)) = self.zones.get(n) {
            // `hand(p)`; numbered zones: `meld(p, 3)` for one, `meld(p)` for all of a seat's.
            let want = per_seat as usize + (slots > 1) as usize;
            let all = if per_seat && slots > 1 {
                args.len() == 1
            } else {
                false
            };
            if args.len() != want && !all {
                return self.bad_arity(n, want, args.len(), span, "zone");
            }
            let seat = per_seat.then(|| {
                Box::new(self.expect(&args[0], &Type::Seat, &format!("the seat of zone `{n}`")))
            });
            if all {
                return (ir::Expr::ZoneRow(z, seat), Type::List(Box::new(Type::Zone)));
            }
            let slot = (slots > 1).then(|| {
                Box::new(self.expect(
                    &args[want - 1],
                    &Type::Int,
                    &format!("the number of zone `{n}`"),
                ))
            });
            return (ir::Expr::Zone(z, seat, slot), Type::Zone);
        }
        if let Some(&(r, per_seat)) = self.regions.get(n) {
            return if per_seat && args.len() == 1 {
                let s = self.expect(&args[0], &Type::Seat, &format!("the seat of region `{n}`"));
                (
                    ir::Expr::Region(r, Some(Box::new(s))),
                    Type::List(Box::new(Type::Cell)),
                )
            } else {
                self.bad_arity(n, if per_seat { 1 } else { 0 }, args.len(), span, "region")
            };
        }
        if let Some(&(a, per_seat, shaped)) = self.areas.get(n) {
            return if per_seat && args.len() == 1 {
                let s = self.expect(&args[0], &Type::Seat, &format!("the seat of area `{n}`"));
                (ir::Expr::Area(a, Some(Box::new(s))), area_type(shaped))
            } else {
                self.bad_arity(n, if per_seat { 1 } else { 0 }, args.len(), span, "area")
            };
        }
        if n == "roll" {
            let d = Diagnostic::error(
                "muster::roll",
                span,
                "a die is rolled in effects only, into a name of its own",
            )
            .label("rolled here")
            .help("write `let r = roll(1, 6)` in a `do` block or an effect, then use `r`");
            self.error(d);
            return (ir::Expr::Const(Value::None), Type::Int);
        }
        let Some(&(_, arity)) = BUILTIN_FUNCTIONS.iter().find(|(b, _)| *b == n) else {
            let mut d = Diagnostic::error(
                "muster::unknown-name",
                f.span,
                format!("unknown function `{n}`"),
            )
            .label("not a function, zone or region");
            let mut known: Vec<&str> = BUILTIN_FUNCTIONS.iter().map(|(b, _)| *b).collect();
            known.extend(self.defs.keys().map(|s| s.as_str()));
            known.extend(self.zones.keys().map(|s| s.as_str()));
            known.extend(self.regions.keys().map(|s| s.as_str()));
            if !self.flooded() && !self.repeated(&d) {
                if let Some(h) = suggest(n, known.iter().copied()) {
                    d = d.help(h);
                }
            }
            self.error(d);
            return unknown();
        };
        if args.len() != arity {
            return self.bad_arity(n, arity, args.len(), span, "function");
        }
        if self.board.hex && matches!(n, "linked" | "reachable" | "targets" | "row" | "seat_of") {
            let d = Diagnostic::error(
                "muster::hex-board",
                f.span,
                format!("`{n}` reads the areas and links of a board of areas, and this is a hex board"),
            )
            .label("a hex board has no areas")
            .help("a hex board's cells touch in its six directions: use `adjacent(c, around)`, `reach(c, around)` or `group(c, around, cells)`");
            self.error(d);
            return unknown();
        }
        let cells = Type::List(Box::new(Type::Cell));
        let (b, out, xs) = match n {
            "adjacent" | "slide" | "sight" | "reach" => {
                let c = self.expect(
                    &args[0],
                    &Type::Cell,
                    &format!("the first argument of `{n}`"),
                );
                let d = self.dirs_arg(&args[1], n);
                let b = match n {
                    "adjacent" => Builtin::Adjacent,
                    "slide" => Builtin::Slide,
                    "sight" => Builtin::Sight,
                    _ => Builtin::Reach,
                };
                (b, cells, vec![c, d])
            }
            "runs" => {
                let c = self.expect(&args[0], &cells, "the first argument of `runs`");
                let d = self.dirs_arg(&args[1], n);
                (Builtin::Runs, Type::List(Box::new(Type::Line)), vec![c, d])
            }
            "sweep" => {
                let r = self.expect(&args[0], &Type::Line, "the first argument of `sweep`");
                let d = self.expect(&args[1], &Type::Dir, "the second argument of `sweep`");
                let k = self.expect(&args[2], &Type::Int, "the third argument of `sweep`");
                (Builtin::Sweep, cells, vec![r, d, k])
            }
            "shifts" => {
                let r = self.expect(&args[0], &Type::Line, "the first argument of `shifts`");
                let d = self.expect(&args[1], &Type::Dir, "the second argument of `shifts`");
                (Builtin::Shifts, Type::List(Box::new(Type::Int)), vec![r, d])
            }
            "subsets" => {
                let (c, el) = self.collection(&args[0], "the first argument of `subsets`");
                let lo = self.expect(&args[1], &Type::Int, "the smallest size given to `subsets`");
                let hi = self.expect(&args[2], &Type::Int, "the largest size given to `subsets`");
                (
                    Builtin::Subsets,
                    Type::List(Box::new(Type::List(Box::new(el)))),
                    vec![c, lo, hi],
                )
            }
            "first" | "last" | "top" => {
                let (c, el) = self.collection(&args[0], &format!("the argument of `{n}`"));
                (
                    if n == "first" {
                        Builtin::First
                    } else {
                        Builtin::Last
                    },
                    el,
                    vec![c],
                )
            }
            "size" | "count" => {
                let (x, t) = self.expr(&args[0]);
                if t == Type::Shape {
                    return (ir::Expr::Call(Builtin::ShapeSize, vec![x]), Type::Int);
                }
                self.element_of(&t, args[0].span, &format!("the argument of `{n}`"));
                (Builtin::Size, Type::Int, vec![x])
            }
            "linked" | "row" | "seat_of" => {
                let c = self.expect(&args[0], &Type::Cell, &format!("the argument of `{n}`"));
                match n {
                    "linked" => (Builtin::Linked, cells, vec![c]),
                    "row" => (Builtin::Row, Type::Int, vec![c]),
                    _ => (Builtin::SeatOf, Type::Seat, vec![c]),
                }
            }
            "cell" => {
                let f = self.expect(&args[0], &Type::Int, "the file given to `cell`");
                let r = self.expect(&args[1], &Type::Int, "the rank given to `cell`");
                self.needs_grid(
                    span,
                    "`cell(f, r)` names a cell by its place on a grid",
                    Some("on a board of areas, name cells through their areas"),
                );
                (Builtin::CellAt, Type::Cell, vec![f, r])
            }
            "file" | "rank" => {
                let c = self.expect(&args[0], &Type::Cell, &format!("the argument of `{n}`"));
                self.needs_grid(
                    span,
                    &format!("`{n}` is a cell's place on a grid"),
                    Some("on a board of areas, `row(cell)` gives a cell's row in its area's shape"),
                );
                let b = if n == "file" {
                    Builtin::File
                } else {
                    Builtin::Rank
                };
                (b, Type::Int, vec![c])
            }
            "rows" => {
                let (x, t) = self.expr(&args[0]);
                match t {
                    Type::Shape => (Builtin::ShapeRows, Type::Int, vec![x]),
                    Type::Cell | Type::Unknown | Type::Nothing => {
                        (Builtin::Rows, Type::Int, vec![x])
                    }
                    t => {
                        let d = Diagnostic::error(
                            "muster::type",
                            args[0].span,
                            format!(
                                "`rows` takes a cell or a shape, but this is {}",
                                describe(self, &t)
                            ),
                        )
                        .label("not a cell or a shape");
                        self.error(d);
                        (Builtin::Rows, Type::Int, vec![x])
                    }
                }
            }
            "row_size" => {
                let sh = self.expect(&args[0], &Type::Shape, "the first argument of `row_size`");
                let r = self.expect(&args[1], &Type::Int, "the second argument of `row_size`");
                (Builtin::RowSize, Type::Int, vec![sh, r])
            }
            "reachable" => {
                let c = self.expect(&args[0], &Type::Cell, "the first argument of `reachable`");
                let w = self.expect(&args[1], &cells, "the second argument of `reachable`");
                (Builtin::Reachable, cells, vec![c, w])
            }
            "targets" => {
                let c = self.expect(&args[0], &Type::Cell, "the first argument of `targets`");
                let k = self.expect(&args[1], &Type::Int, "the second argument of `targets`");
                (Builtin::Targets, cells, vec![c, k])
            }
            "max" | "min" => {
                let a = self.expect(&args[0], &Type::Int, &format!("the arguments of `{n}`"));
                let b2 = self.expect(&args[1], &Type::Int, &format!("the arguments of `{n}`"));
                (
                    if n == "max" {
                        Builtin::Max2
                    } else {
                        Builtin::Min2
                    },
                    Type::Int,
                    vec![a, b2],
                )
            }
            "abs" => (
                Builtin::Abs,
                Type::Int,
                vec![self.expect(&args[0], &Type::Int, "the argument of `abs`")],
            ),
            "prev" => (
                Builtin::PrevSeat,
                Type::Seat,
                vec![self.expect(&args[0], &Type::Seat, "the argument of `prev`")],
            ),
            "contents" => {
                let (x, t) = self.expr(&args[0]);
                if !matches!(t, Type::Zone | Type::Unknown)
                    && !fits(&Type::List(Box::new(Type::Zone)), &t)
                {
                    let d = Diagnostic::error(
                        "muster::type",
                        args[0].span,
                        format!(
                            "`contents` takes a zone or a list of zones, but this is {}",
                            describe(self, &t)
                        ),
                    )
                    .label("not zones");
                    self.error(d);
                }
                (Builtin::Contents, Type::List(Box::new(Type::Comp)), vec![x])
            }
            "cells_of" => {
                let p = self.expect(&args[0], &Type::Seat, "the argument of `cells_of`");
                return (
                    ir::Expr::CellsOf(Box::new(p)),
                    Type::List(Box::new(Type::Cell)),
                );
            }
            "destinations" | "attacks" => {
                let c = self.expect(
                    &args[0],
                    &Type::Cell,
                    &format!("the first argument of `{n}`"),
                );
                let p = self.expect(
                    &args[1],
                    &Type::Pattern,
                    &format!("the second argument of `{n}`"),
                );
                let b = if n == "attacks" {
                    Builtin::Attacks
                } else {
                    Builtin::Destinations
                };
                (b, Type::List(Box::new(Type::Cell)), vec![c, p])
            }
            "route" => {
                let c = self.expect(&args[0], &Type::Cell, "the first argument of `route`");
                let p = self.expect(&args[1], &Type::Pattern, "the second argument of `route`");
                (Builtin::RouteOf, Type::Route, vec![c, p])
            }
            "waypoints" | "finishes" => {
                let what = format!("the argument of `{n}`");
                let r = self.expect(&args[0], &Type::Route, &what);
                let b = if n == "waypoints" {
                    Builtin::Waypoints
                } else {
                    Builtin::Finishes
                };
                (b, Type::List(Box::new(Type::Cell)), vec![r])
            }
            "may_halt" => {
                let r = self.expect(&args[0], &Type::Route, "the argument of `may_halt`");
                (Builtin::MayHalt, Type::Bool, vec![r])
            }
            "advance" | "passed" => {
                let first = format!("the first argument of `{n}`");
                let second = format!("the second argument of `{n}`");
                let r = self.expect(&args[0], &Type::Route, &first);
                let c = self.expect(&args[1], &Type::Cell, &second);
                if n == "advance" {
                    (Builtin::Advance, Type::Route, vec![r, c])
                } else {
                    (
                        Builtin::Passed,
                        Type::List(Box::new(Type::Cell)),
                        vec![r, c],
                    )
                }
            }
            "group" => {
                let c = self.expect(&args[0], &Type::Cell, "the first argument of `group`");
                let d = self.dirs_arg(&args[1], n);
                let through = self.expect(
                    &args[2],
                    &Type::List(Box::new(Type::Cell)),
                    "the third argument of `group`",
                );
                (
                    Builtin::Group,
                    Type::List(Box::new(Type::Cell)),
                    vec![c, d, through],
                )
            }
            "index_of" => {
                let (c, el) = self.collection(&args[0], "the first argument of `index_of`");
                let x = self.expect(&args[1], &el, "the item `index_of` looks for");
                (Builtin::IndexOf, Type::Int, vec![c, x])
            }
            "along" => {
                let p = self.track_arg(&args[0], n);
                let c = self.expect(&args[1], &Type::Cell, "the second argument of `along`");
                let k = self.expect(&args[2], &Type::Int, "the steps `along` takes");
                (Builtin::Along, Type::Cell, vec![p, c, k])
            }
            "between" => {
                let p = self.track_arg(&args[0], n);
                let a = self.expect(&args[1], &Type::Cell, "the second argument of `between`");
                let z = self.expect(&args[2], &Type::Cell, "the third argument of `between`");
                (Builtin::Between, cells, vec![p, a, z])
            }
            "line" => {
                let a = self.expect(&args[0], &Type::Cell, "the first argument of `line`");
                let b2 = self.expect(&args[1], &Type::Cell, "the second argument of `line`");
                let on_grid = self.needs_grid(
                    span,
                    "`line` follows a file, a rank or a diagonal of a grid",
                    None,
                );
                if let (ir::Expr::Const(x @ Value::Cell(_)), ir::Expr::Const(y @ Value::Cell(_))) =
                    (&a, &b2)
                {
                    if on_grid && ir::ops::straight(x, y, &self.board).is_empty() {
                        let name = |v: &Value| match v {
                            Value::Cell(c) => self.board.cells[*c as usize].name.clone(),
                            _ => String::new(),
                        };
                        let along = if self.board.hex {
                            "one hex axis (e-w, ne-sw or nw-se)"
                        } else {
                            "one file, rank or diagonal"
                        };
                        let d = Diagnostic::error(
                            "muster::line",
                            span,
                            format!(
                                "`{}` and `{}` are not on {along}, so no straight line joins them",
                                name(x),
                                name(y)
                            ),
                        )
                        .label("not a straight line")
                        .help("join two lines with `+`: `line(a1, a4) + line(b4, d4)`");
                        self.error(d);
                    }
                }
                (Builtin::Line, cells, vec![a, b2])
            }
            "next" => (
                Builtin::NextSeat,
                Type::Seat,
                vec![self.expect(&args[0], &Type::Seat, "the argument of `next`")],
            ),
            _ => {
                let a = self.expect(&args[0], &Type::Cell, "the arguments of `distance`");
                let b2 = self.expect(&args[1], &Type::Cell, "the arguments of `distance`");
                (Builtin::Distance, Type::Int, vec![a, b2])
            }
        };
        (ir::Expr::Call(b, xs), out)
    }

    /// On a hex board, the diagnostic for a grid's direction or set of directions (`n`,
    /// `s`, `orthogonal`, `diagonal`), which such a board does not have.
    fn hex_direction(&self, n: &str, span: Span) -> Option<Diagnostic> {
        let what = match n {
            "n" | "s" => format!("direction `{n}`"),
            "orthogonal" | "diagonal" => format!("set of directions `{n}`"),
            _ => return None,
        };
        Some(
            Diagnostic::error(
                "muster::hex-direction",
                span,
                format!("a hex board has no {what}"),
            )
            .label("a direction of a square grid")
            .help(
                "a hex board has six directions: `e`, `ne`, `nw`, `w`, `sw`, `se`, and the set `around` (all six)",
            ),
        )
    }

    /// Whether the board is a grid; on a board of areas, reports that `what` needs one
    /// (`muster::not-a-grid`, with `help` if given).
    fn needs_grid(&mut self, span: Span, what: &str, help: Option<&str>) -> bool {
        if self.areas.is_empty() {
            return true;
        }
        let mut d = Diagnostic::error(
            "muster::not-a-grid",
            span,
            format!("{what}, and this board has no grid"),
        )
        .label("the cells of a board of areas have no files or ranks");
        if let Some(h) = help {
            d = d.help(h.to_string());
        }
        self.error(d);
        false
    }

    /// The path (or any list of cells) that `along` and `between` go along.
    fn track_arg(&mut self, e: &ast::Expr, f: &str) -> ir::Expr {
        let (x, t) = self.expr(e);
        if !fits(&Type::List(Box::new(Type::Cell)), &t) {
            let d = Diagnostic::error(
                "muster::type",
                e.span,
                format!(
                    "`{f}` goes along a list of cells, but this is {}",
                    describe(self, &t)
                ),
            )
            .label("not a list of cells")
            .help("give a path (`path ring = ...`), a region or a list of cells, in the order pieces follow it");
            self.error(d);
        }
        x
    }

    /// A direction or a set of directions; a single direction is taken as a set of one.
    fn dirs_arg(&mut self, e: &ast::Expr, f: &str) -> ir::Expr {
        let (x, t) = self.expr(e);
        match t {
            Type::Dir => ir::Expr::List(vec![x]),
            Type::Unknown => x,
            t if fits(&Type::List(Box::new(Type::Dir)), &t) => x,
            t => {
                let set = if self.board.hex {
                    "around"
                } else {
                    "orthogonal"
                };
                let d = Diagnostic::error("muster::type", e.span, format!("the directions given to `{f}` must be a direction or a set such as `{set}`, but this is {}", describe(self, &t)))
                    .label("not directions");
                self.error(d);
                x
            }
        }
    }

    fn bad_arity(&mut self, n: &str, want: usize, got: usize, span: Span, what: &str) -> Lowered {
        let d = Diagnostic::error(
            "muster::arity",
            span,
            format!(
                "{what} `{n}` takes {}, but {} given",
                count(want, "argument"),
                were(got)
            ),
        )
        .label("wrong number of arguments")
        .help(if what == "function" {
            format!(
                "write `{n}({})`",
                BUILTIN_SIGNATURES
                    .iter()
                    .find(|(b, _)| *b == n)
                    .map(|(_, s)| *s)
                    .unwrap_or("")
            )
        } else if want == 1 {
            format!("write `{n}(seat)`")
        } else {
            format!("write `{n}` without arguments")
        });
        self.error(d);
        unknown()
    }
}

/// The file and rank (from 1) of a name written as a grid cell: a letter `a` to `z`, then
/// a rank with no leading zero (`d4` is file 4, rank 4).
fn cell_place(n: &str) -> Option<(u32, u32)> {
    let mut chars = n.chars();
    let file = chars.next().filter(char::is_ascii_lowercase)?;
    let rank = chars.as_str();
    if rank.is_empty() || rank.starts_with('0') || !rank.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some((u32::from(file as u8 - b'a') + 1, rank.parse().ok()?))
}
