//! Lowering effects (the statements in `setup`, `do` and turn hooks).

use super::symbols::{describe, fits, Ctx};
use crate::diagnostic::Diagnostic;
use crate::ir::{self, Type};
use crate::syntax::ast::{self, ExprKind, StmtKind};

impl<'a> Ctx<'a> {
    pub fn block(&mut self, b: &[ast::Stmt]) -> Vec<ir::Stmt> {
        let mark = self.mark();
        let out = b.iter().map(|s| self.stmt(s)).collect();
        self.release(mark);
        out
    }

    fn stmt(&mut self, s: &ast::Stmt) -> ir::Stmt {
        if !self.enter(s.span) {
            return ir::Stmt::Block(vec![]);
        }
        let out = self.stmt_inner(s);
        self.leave();
        out
    }

    /// `let r = roll(lo, hi)` (a number), or `let x = roll(list)` (an item at random).
    fn roll(&mut self, var: &ast::Ident, args: &[ast::Expr], span: ast::Span) -> ir::Stmt {
        let (coll, el) = match args {
            [lo, hi] => {
                let lo = self.expect(lo, &Type::Int, "the lowest number of `roll`");
                let hi = self.expect(hi, &Type::Int, "the highest number of `roll`");
                (
                    ir::Expr::Binary(ir::BinOp::Range, Box::new(lo), Box::new(hi)),
                    Type::Int,
                )
            }
            [list] => self.collection(list, "what `roll` draws from"),
            _ => {
                let d = Diagnostic::error(
                    "muster::arity",
                    span,
                    format!(
                        "`roll` takes 1 or 2 arguments, but {} given",
                        super::expr::were(args.len())
                    ),
                )
                .label("wrong number of arguments")
                .help("write `roll(1, 6)` for a die, or `roll(list)` for an item at random");
                self.error(d);
                (ir::Expr::Const(ir::Value::None), Type::Unknown)
            }
        };
        let slot = self.push_local(&var.name, el);
        ir::Stmt::Roll(slot, coll)
    }

    fn stmt_inner(&mut self, s: &ast::Stmt) -> ir::Stmt {
        match &s.kind {
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                let c = self.expect(cond, &Type::Bool, "the condition of `if`");
                ir::Stmt::If(c, self.block(then), self.block(otherwise))
            }
            StmtKind::For { var, domain, body } => {
                let (d, el) = self.collection(domain, "what `for` runs over");
                let mark = self.mark();
                let slot = self.push_local(&var.name, el);
                let b = self.block(body);
                self.release(mark);
                ir::Stmt::For(slot, d, b)
            }
            StmtKind::Let { var, value } => {
                if let ExprKind::Call(f, args) = &value.kind {
                    if f.name == "roll"
                        && self.lookup_local("roll").is_none()
                        && !self.defs.contains_key("roll")
                    {
                        return self.roll(var, args, value.span);
                    }
                }
                let (x, t) = self.expr(value);
                let slot = self.push_local(&var.name, t);
                ir::Stmt::Let(slot, x)
            }
            StmtKind::Move { what, to, face } => {
                let (w, tw) = self.expr(what);
                if !matches!(tw, Type::Comp | Type::Zone | Type::Unknown)
                    && !fits(&Type::List(Box::new(Type::Comp)), &tw)
                {
                    let d = Diagnostic::error("muster::type", what.span, format!("`move` moves a card or piece, a list of them, or a zone's contents, but this is {}", describe(self, &tw))).label("cannot be moved");
                    self.error(d);
                }
                let (t, tt) = self.expr(to);
                if !matches!(tt, Type::Cell | Type::Zone | Type::Unknown) {
                    let d = Diagnostic::error(
                        "muster::type",
                        to.span,
                        format!(
                            "`move ... to` needs a cell or a zone, but this is {}",
                            describe(self, &tt)
                        ),
                    )
                    .label("not a place");
                    self.error(d);
                }
                ir::Stmt::Move(w, t, *face)
            }
            StmtKind::Form { area, shape } => {
                let (x, _) = self.expr(area);
                let sh = self.expect(shape, &Type::Shape, "the shape `form` lays out");
                let shaped = |a: u16| {
                    self.areas
                        .values()
                        .any(|&(id, _, shaped)| id == a && shaped)
                };
                match x {
                    ir::Expr::Area(a, seat) if shaped(a) => ir::Stmt::Form(a, seat.map(|s| *s), sh),
                    ir::Expr::Const(ir::Value::None) => ir::Stmt::Block(vec![]),
                    _ => {
                        let d = Diagnostic::error(
                            "muster::type",
                            area.span,
                            "`form` lays out an area shaped by a catalogue, such as `post(me)`",
                        )
                        .label("not a shaped area")
                        .help("declare one on the board: `area camp per seat shaped layouts`, with `shapes layouts { ... }`");
                        self.error(d);
                        ir::Stmt::Block(vec![])
                    }
                }
            }
            StmtKind::Tuck { what, under } => {
                let (w, tw) = self.expr(what);
                if !matches!(tw, Type::Comp | Type::Zone | Type::Unknown | Type::Nothing)
                    && !fits(&Type::List(Box::new(Type::Comp)), &tw)
                {
                    let d = Diagnostic::error(
                        "muster::type",
                        what.span,
                        format!(
                            "`tuck` moves cards or pieces, but this is {}",
                            describe(self, &tw)
                        ),
                    )
                    .label("cannot be moved");
                    self.error(d);
                }
                ir::Stmt::Tuck(
                    w,
                    self.expect(under, &Type::Zone, "where `tuck` puts things (`under`)"),
                )
            }
            StmtKind::EndTurn => ir::Stmt::EndTurn,
            StmtKind::React(name) => match self.reactions.get(&name.name) {
                Some(&r) => {
                    self.used.insert(name.name.clone());
                    ir::Stmt::React(r)
                }
                None => {
                    let known: Vec<String> = self.reactions.keys().cloned().collect();
                    if known.is_empty() {
                        let d = Diagnostic::error(
                            "muster::unknown-name",
                            name.span,
                            format!("unknown reaction `{}`", name.name),
                        )
                        .label("no such reaction")
                        .help(format!(
                            "declare it: `reaction {} {{ by SEAT one of ACTION }}`",
                            name.name
                        ));
                        self.error(d);
                    } else {
                        self.unknown("reaction", name, "no such reaction", known);
                    }
                    ir::Stmt::Draw
                }
            },
            StmtKind::Call(f, args) => self.call_effect(f, args, s.span),
            StmtKind::Face { what, up } => {
                let (w, tw) = self.expr(what);
                if !matches!(tw, Type::Comp | Type::Zone | Type::Unknown | Type::Nothing)
                    && !fits(&Type::List(Box::new(Type::Comp)), &tw)
                {
                    let d = Diagnostic::error(
                        "muster::type",
                        what.span,
                        format!(
                            "`{}` turns cards or pieces, but this is {}",
                            if *up { "reveal" } else { "conceal" },
                            describe(self, &tw)
                        ),
                    )
                    .label("cannot be turned");
                    self.error(d);
                }
                ir::Stmt::Face(w, *up)
            }
            StmtKind::Swap(a, b) => ir::Stmt::Swap(
                self.expect(a, &Type::Cell, "each side of `swap`"),
                self.expect(b, &Type::Cell, "each side of `swap`"),
            ),
            StmtKind::Shift { what, dir, steps } => ir::Stmt::Shift(
                self.expect(what, &Type::Line, "what `shift` moves"),
                self.expect(dir, &Type::Dir, "the direction of `shift`"),
                self.expect(steps, &Type::Int, "the distance of `shift`"),
            ),
            StmtKind::Shuffle(z) => {
                ir::Stmt::Shuffle(self.expect(z, &Type::Zone, "what `shuffle` shuffles"))
            }
            StmtKind::Place { what, onto } => {
                let (w, tw) = self.expr(what);
                if !matches!(tw, Type::Zone | Type::Unknown)
                    && !fits(&Type::List(Box::new(Type::Comp)), &tw)
                {
                    let d = Diagnostic::error(
                        "muster::type",
                        what.span,
                        format!(
                            "`place` lays out a zone or a list of cards, but this is {}",
                            describe(self, &tw)
                        ),
                    )
                    .label("cannot be placed");
                    self.error(d);
                }
                ir::Stmt::Place(
                    w,
                    self.expect(
                        onto,
                        &Type::List(Box::new(Type::Cell)),
                        "where `place` lays cards (`onto`)",
                    ),
                )
            }
            StmtKind::Transfer {
                amount,
                counter,
                from,
                to,
            } => {
                let amount = self.expect(amount, &Type::Int, "the amount of `transfer`");
                let from = self.expect(from, &Type::Seat, "who pays (`from`)");
                let to = self.expect(to, &Type::Seat, "who receives (`to`)");
                self.used.insert(counter.name.clone());
                match self.vars.get(&counter.name).cloned() {
                    Some(v) if v.per_seat && fits(&Type::Int, &v.ty) => {
                        ir::Stmt::Transfer(amount, v.id, from, to)
                    }
                    Some(_) => {
                        let d = Diagnostic::error(
                            "muster::type",
                            counter.span,
                            format!(
                                "`transfer` moves a number kept per seat, and `{}` is not one",
                                counter.name
                            ),
                        )
                        .label("not a per-seat number")
                        .help(format!("declare it as `var {} per seat = 0`", counter.name));
                        self.error(d);
                        ir::Stmt::Draw
                    }
                    None => {
                        let known: Vec<String> = self
                            .vars
                            .iter()
                            .filter(|(_, v)| v.per_seat)
                            .map(|(n, _)| n.clone())
                            .collect();
                        self.unknown("counter", counter, "not a per-seat variable", known);
                        ir::Stmt::Draw
                    }
                }
            }
            StmtKind::Deal { count, from, to } => ir::Stmt::Deal(
                self.expect(count, &Type::Int, "how many `deal` moves"),
                self.expect(from, &Type::Zone, "where `deal` takes from"),
                self.expect(to, &Type::Zone, "where `deal` puts"),
            ),
            StmtKind::Win(e) => {
                let (x, t) = self.expr(e);
                if !fits(&Type::Seat, &t) && !fits(&Type::List(Box::new(Type::Seat)), &t) {
                    let d = Diagnostic::error("muster::type", e.span, format!("who wins must be a seat or a list of seats (who share the win), but this is {}", describe(self, &t)))
                        .label("not a seat");
                    self.error(d);
                }
                ir::Stmt::Win(x)
            }
            StmtKind::Lose(e) => ir::Stmt::Lose(self.expect(e, &Type::Seat, "who loses")),
            StmtKind::Draw => ir::Stmt::Draw,
            StmtKind::Assign { target, op, value } => self.assign(target, *op, value, s.span),
        }
    }

    /// Inlines a named effect with its arguments (like a `def`, for effects).
    fn call_effect(&mut self, f: &ast::Ident, args: &[ast::Expr], span: ast::Span) -> ir::Stmt {
        let Some((params, body)) = self.effects.get(&f.name).copied() else {
            let known: Vec<String> = self.effects.keys().cloned().collect();
            self.unknown("effect", f, "not a declared effect", known);
            return ir::Stmt::Block(vec![]);
        };
        self.used.insert(f.name.clone());
        if params.len() != args.len() {
            let d = Diagnostic::error(
                "muster::arity",
                span,
                format!(
                    "effect `{}` takes {}, but {} given",
                    f.name,
                    super::expr::count(params.len(), "argument"),
                    super::expr::were(args.len())
                ),
            )
            .label("wrong number of arguments")
            .help(format!(
                "it is declared as `effect {}({})`",
                f.name,
                params
                    .iter()
                    .map(|p| p.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            self.error(d);
            return ir::Stmt::Block(vec![]);
        }
        if self.def_stack.iter().any(|d| d == &f.name) {
            let d = Diagnostic::error(
                "muster::recursive",
                f.span,
                format!("effect `{}` runs itself", f.name),
            )
            .label("recursive use")
            .help("an effect may not run itself, directly or through others");
            self.error(d);
            return ir::Stmt::Block(vec![]);
        }
        let lowered: Vec<_> = args
            .iter()
            .map(|a| self.measured(|cx| cx.expr(a)))
            .collect();
        // The body sees its parameters and the game's names, not the caller's locals; its
        // own locals take slots after the caller's.
        let saved = std::mem::take(&mut self.scope.names);
        for (p, ((x, t), cost)) in params.iter().zip(lowered) {
            self.scope
                .names
                .push((p.name.clone(), super::symbols::Binding::Subst(x, t, cost)));
        }
        self.def_stack.push(f.name.clone());
        let out = self.block(body);
        self.def_stack.pop();
        self.scope.names = saved;
        ir::Stmt::Block(out)
    }

    /// `WHAT.attr = VALUE`: a card's or piece's attribute changed in play.
    fn assign_attr(
        &mut self,
        target: &[ast::Ident],
        op: ir::AssignOp,
        value: &ast::Expr,
        a: u16,
    ) -> ir::Stmt {
        let last = target.last().expect("grammar gives a name");
        let def = self.attrs[a as usize].clone();
        let ty = match def.ty {
            ir::AttrType::Int { .. } => Type::Int,
            ir::AttrType::Enum(e) => Type::Enum(e),
            ir::AttrType::Pattern => Type::Pattern,
        };
        if op != ir::AssignOp::Set && ty != Type::Int {
            let d = Diagnostic::error(
                "muster::type",
                last.span,
                format!(
                    "`+=` and `-=` work on numbers, but `{}` is {}",
                    last.name,
                    describe(self, &ty)
                ),
            )
            .label("not a number");
            self.error(d);
        }
        let x = self.expect(value, &ty, &format!("the value given to `{}`", last.name));
        if target.len() == 1 {
            let d = Diagnostic::error(
                "muster::attribute",
                last.span,
                format!(
                    "`{}` is an attribute of a card or piece: say whose",
                    last.name
                ),
            )
            .label("whose?")
            .help(format!(
                "write the card or piece before it: `dest.piece.{} = ...`",
                last.name
            ));
            self.error(d);
            return ir::Stmt::Draw;
        }
        let base = owner_of(target);
        let comp = self.expect(
            &base,
            &Type::Comp,
            &format!("what has its `{}` changed", last.name),
        );
        ir::Stmt::Assign(ir::Target::Attr(comp, a), op, x)
    }

    fn assign(
        &mut self,
        target: &[ast::Ident],
        op: ast::AssignOp,
        value: &ast::Expr,
        span: ast::Span,
    ) -> ir::Stmt {
        let op = match op {
            ast::AssignOp::Set => ir::AssignOp::Set,
            ast::AssignOp::Add => ir::AssignOp::Add,
            ast::AssignOp::Sub => ir::AssignOp::Sub,
        };
        let last = target.last().expect("grammar gives a name");
        let var = self.vars.get(&last.name).cloned();
        self.used.insert(last.name.clone());
        if var.is_none() {
            if let Some(&a) = self.attr_ids.get(&last.name) {
                return self.assign_attr(target, op, value, a);
            }
        }
        let Some(var) = var else {
            let known: Vec<String> = self.vars.keys().cloned().collect();
            let mut d = Diagnostic::error(
                "muster::unknown-name",
                last.span,
                format!("`{}` is not a variable", last.name),
            )
            .label("cannot assign here");
            let close = if self.flooded() || self.repeated(&d) {
                None
            } else {
                crate::similar::suggest(&last.name, known.iter().map(|s| s.as_str()))
            };
            d = d.help(close.unwrap_or_else(|| {
                "declare it first: `var name = 0` (or `var name per seat = 0`)".into()
            }));
            self.error(d);
            return ir::Stmt::Draw;
        };
        let want = if op == ir::AssignOp::Set {
            var.ty.clone()
        } else {
            Type::Int
        };
        if op != ir::AssignOp::Set && !fits(&Type::Int, &var.ty) {
            let d = Diagnostic::error(
                "muster::type",
                span,
                format!(
                    "`+=` and `-=` work on numbers, but `{}` is {}",
                    last.name,
                    describe(self, &var.ty)
                ),
            )
            .label("not a number");
            self.error(d);
        }
        let x = self.expect(value, &want, &format!("the value given to `{}`", last.name));
        if target.len() == 1 {
            if var.per_seat {
                let d = Diagnostic::error(
                    "muster::per-seat",
                    last.span,
                    format!("`{}` is kept per seat: say whose", last.name),
                )
                .label("whose?")
                .help(format!("write `me.{}` or `p.{}`", last.name, last.name));
                self.error(d);
            }
            return ir::Stmt::Assign(ir::Target::Global(var.id), op, x);
        }
        // `a.b.var`: everything before the last name must be a seat.
        let base = owner_of(target);
        if var.per_piece {
            let piece = self.expect(
                &base,
                &Type::Comp,
                "the card or piece that holds this variable",
            );
            return ir::Stmt::Assign(ir::Target::Piece(piece, var.id), op, x);
        }
        let seat = self.expect(&base, &Type::Seat, "the owner of a per-seat variable");
        if !var.per_seat {
            let d = Diagnostic::error(
                "muster::per-seat",
                last.span,
                format!(
                    "`{}` is one variable for the whole game, not per seat or per piece",
                    last.name
                ),
            )
            .label("not per seat")
            .help(format!("write `{} = ...`", last.name));
            self.error(d);
        }
        ir::Stmt::Assign(ir::Target::Seat(seat, var.id), op, x)
    }
}

/// What a dotted target `a.b.name` assigns through: `a.b`, as an expression.
fn owner_of(target: &[ast::Ident]) -> ast::Expr {
    let mut base = ast::Expr {
        kind: ExprKind::Name(target[0].clone()),
        span: target[0].span,
    };
    for f in &target[1..target.len() - 1] {
        let sp = base.span.to(f.span);
        base = ast::Expr {
            kind: ExprKind::Field(Box::new(base), f.clone()),
            span: sp,
        };
    }
    base
}
