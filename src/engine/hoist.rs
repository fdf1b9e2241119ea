//! Each `require` judged as early as the `let`s before it allow, when the engine is
//! built.
//!
//! A `require` that stands after `let`s is moved up past each `let` it does not read, and
//! past each `let` whose value is a plain read (`let foe = target.piece`), written into
//! the condition where it reads the local (`foe.owner` becomes `target.piece.owner`). It
//! never moves past a `choose`, another `require` or a `do`, so the choices, the order of
//! the requires (the first that fails is the one a refusal names) and what the `do` reads
//! stay as written. A `let` computes a value and changes nothing, so an action lists the
//! same actions in the same order; a choice the `require` turns down no longer computes
//! the `let`s it passed, and a `require` straight after a `choose` can be judged with it
//! (see `plan/masks.rs`). The texts, places and reasons of the requires are the rules'
//! own: they are found by the require's index, which moves with it.

use crate::ir::{Clause, Expr, Game};

/// The requires of every action moved up (see the module).
pub(super) fn requires(game: &mut Game) {
    for a in &mut game.actions {
        hoist(&mut a.clauses);
    }
}

fn hoist(clauses: &mut [Clause]) {
    for i in 1..clauses.len() {
        let mut at = i;
        while at > 0 && up_one(clauses, at) {
            at -= 1;
        }
    }
}

/// Moves the `require` at `at` above the `let` just before it, if it may go; whether it
/// went.
fn up_one(clauses: &mut [Clause], at: usize) -> bool {
    let (before, after) = clauses.split_at_mut(at);
    let (
        Some(Clause::Let { slot, value }),
        Some(Clause::Require {
            cond,
            afterwards: false,
            ..
        }),
    ) = (before.last(), after.first_mut())
    else {
        return false;
    };
    if cond.reads_local(*slot) {
        if !plain_read(value, 3) {
            return false;
        }
        put(cond, *slot, value);
    }
    clauses.swap(at - 1, at);
    true
}

/// Whether `e` is a read of what stands where (a local, a constant, the seat deciding, a
/// variable, or what a piece, a cell or a seat holds, up to `depth` reads deep): as cheap
/// to compute again as to read from its local, and never an error.
fn plain_read(e: &Expr, depth: u8) -> bool {
    match e {
        Expr::Local(_) | Expr::Const(_) | Expr::Me | Expr::GlobalVar(_) => true,
        Expr::CellPiece(a)
        | Expr::CompAttr(a, _)
        | Expr::CompVar(a, _)
        | Expr::CompOwner(a)
        | Expr::CompCell(a)
        | Expr::SeatAttr(a, _)
        | Expr::SeatVar(a, _) => depth > 0 && plain_read(a, depth - 1),
        _ => false,
    }
}

/// `e` with each read of local `slot` replaced by `value`.
pub(super) fn put(e: &mut Expr, slot: u16, value: &Expr) {
    if matches!(e, Expr::Local(s) if *s == slot) {
        *e = value.clone();
        return;
    }
    e.each_child_mut(&mut |c| put(c, slot, value));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{BinOp, Value};

    fn local(s: u16) -> Expr {
        Expr::Local(s)
    }

    fn require(index: u16, cond: Expr) -> Clause {
        Clause::Require {
            index,
            cond,
            afterwards: false,
        }
    }

    fn let_(slot: u16, value: Expr) -> Clause {
        Clause::Let { slot, value }
    }

    fn choose(slot: u16) -> Clause {
        Clause::Choose {
            slot,
            name: format!("x{slot}"),
            ty: crate::ir::Type::Cell,
            domain: Expr::Cells,
        }
    }

    fn owner_is_not_me(e: Expr) -> Expr {
        Expr::Binary(
            BinOp::Ne,
            Box::new(Expr::CompOwner(Box::new(e))),
            Box::new(Expr::Me),
        )
    }

    #[test]
    fn a_require_moves_past_the_lets_it_may_and_reads_plain_ones_where_they_stand() {
        let piece = |s| Expr::CellPiece(Box::new(local(s)));
        let mut clauses = vec![
            choose(0),
            choose(1),
            let_(2, piece(0)),
            let_(3, piece(1)),
            require(0, owner_is_not_me(local(3))),
            require(
                1,
                Expr::Binary(BinOp::Le, Box::new(local(3)), Box::new(local(2))),
            ),
        ];
        hoist(&mut clauses);
        assert_eq!(
            clauses,
            vec![
                choose(0),
                choose(1),
                require(0, owner_is_not_me(piece(1))),
                require(
                    1,
                    Expr::Binary(BinOp::Le, Box::new(piece(1)), Box::new(piece(0)))
                ),
                let_(2, piece(0)),
                let_(3, piece(1)),
            ]
        );
    }

    #[test]
    fn a_require_stays_after_a_computed_let_it_reads_a_choose_and_an_afterwards() {
        let sum = Expr::Binary(BinOp::Add, Box::new(local(0)), Box::new(local(0)));
        let three = Expr::Const(Value::Int(3));
        let over = |s| Expr::Binary(BinOp::Gt, Box::new(local(s)), Box::new(three.clone()));
        let mut clauses = vec![
            choose(0),
            let_(1, sum.clone()),
            require(0, over(1)),
            choose(2),
            require(1, over(2)),
            Clause::Do(vec![]),
            Clause::Require {
                index: 2,
                cond: over(0),
                afterwards: true,
            },
        ];
        let written = clauses.clone();
        hoist(&mut clauses);
        assert_eq!(clauses, written);
    }
}
