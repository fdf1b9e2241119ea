//! A definition's arguments computed once where it is used.
//!
//! A definition is written out where it is used, its parameters standing for the
//! arguments' expressions. An argument its body names again and again (`power(c)` reads
//! `c.suit` and `c.rank` several times, through other definitions too) would be computed
//! each time: `power(top(played(p)))` finds the top of the pile for every name. Such an
//! argument is computed once instead, into a local of its own that the body reads
//! (`ir::Expr::Bind`). It is not when it is as cheap to read as a local (a local, a
//! constant, `me`, a variable of the game, a short read from one of them, which the
//! engine judges in place), nor when its value is not a single thing (a
//! list, a zone, a line, a string): a list in a local is copied where it is read, and
//! the engine finds zones written in the rules at once. Computing a value once gives the
//! same value: the state does not change while an expression is evaluated.

use super::symbols::Ctx;
use crate::ir::{self, Type};
use crate::syntax::ast::{Expr, ExprKind};

/// How many times a local may be set aside for arguments in one rule, over the locals it
/// names itself (`MAX_LOCALS`): past it, arguments are written out where they are named.
pub const MAX_BOUND_ARGS: u16 = super::budget::MAX_LOCALS;

/// How often `body` may compute the parameter `name`: each time it names it, twice for
/// a name in the body of a quantifier, an aggregate or a comprehension (computed for each
/// item). A name its own variable hides there is not the parameter.
pub fn uses(body: &Expr, name: &str) -> u32 {
    fn walk(e: &Expr, name: &str, weight: u32, n: &mut u32) {
        match &e.kind {
            ExprKind::Name(id) if id.name == name => *n += weight,
            ExprKind::Int(_)
            | ExprKind::Str(_)
            | ExprKind::Bool(_)
            | ExprKind::None
            | ExprKind::Name(_) => {}
            ExprKind::Call(_, args) | ExprKind::List(args) => {
                args.iter().for_each(|a| walk(a, name, weight, n))
            }
            ExprKind::Field(x, _) | ExprKind::Unary(_, x) => walk(x, name, weight, n),
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => {
                walk(a, name, weight, n);
                walk(b, name, weight, n);
            }
            ExprKind::If(c, a, b) => {
                walk(c, name, weight, n);
                walk(a, name, weight, n);
                walk(b, name, weight, n);
            }
            ExprKind::Quant(_, var, coll, body) | ExprKind::Agg(_, var, coll, body) => {
                walk(coll, name, weight, n);
                if var.name != name {
                    walk(body, name, 2, n);
                }
            }
            ExprKind::Comprehension(var, coll, cond) => {
                walk(coll, name, weight, n);
                if let (Some(c), true) = (cond, var.name != name) {
                    walk(c, name, 2, n);
                }
            }
        }
    }
    let mut n = 0;
    walk(body, name, 1, &mut n);
    n
}

/// Whether an argument, lowered to `x` of type `ty`, is worth computing once for a body
/// that computes it `uses` times (see the module).
pub fn worth_binding(x: &ir::Expr, ty: &Type, uses: u32) -> bool {
    let single = matches!(
        ty,
        Type::Int
            | Type::Bool
            | Type::Seat
            | Type::Cell
            | Type::Comp
            | Type::Dir
            | Type::Enum(_)
            | Type::Phase
    );
    uses >= 2 && single && !read(x)
}

/// Whether `x` is read as cheaply as it would be from a local: a local, a constant, `me`,
/// a variable of the game, or a short read from one of them (`y.piece.rank`,
/// `p.points`, `rank(x)`, `seat_of(x)`), which the engine judges in place where it is compared. The
/// hops are those the engine reads a step at a time (`engine/plan/reads.rs`, `hop_of`).
fn read(x: &ir::Expr) -> bool {
    use ir::Expr as E;
    match x {
        E::Local(_)
        | E::Const(_)
        | E::Me
        | E::TurnSeat
        | E::Opponent
        | E::GlobalVar(_)
        | E::CurrentPhase
        | E::PhaseTurns => true,
        E::SeatAttr(a, _)
        | E::SeatVar(a, _)
        | E::CompAttr(a, _)
        | E::CompVar(a, _)
        | E::CompOwner(a)
        | E::CompCell(a)
        | E::CellPiece(a)
        | E::CellEmpty(a) => read(a),
        E::Call(
            ir::Builtin::File
            | ir::Builtin::Rank
            | ir::Builtin::SeatOf
            | ir::Builtin::Row
            | ir::Builtin::Rows,
            args,
        ) => args.iter().all(read),
        _ => false,
    }
}

impl Ctx<'_> {
    /// A local set aside for an argument computed once, if the rule has room for one (see
    /// `MAX_BOUND_ARGS`); it does not count against the locals the rule names itself.
    pub fn bound_arg_slot(&mut self) -> Option<u16> {
        if self.scope.bound_args >= MAX_BOUND_ARGS {
            return None;
        }
        let slot = self.scope.next_slot;
        self.scope.next_slot += 1;
        self.scope.bound_args += 1;
        self.scope.max_slot = self.scope.max_slot.max(self.scope.next_slot);
        Some(slot)
    }
}
