//! A `let` of the cells along straight lines from a chosen cell (`let straight =
//! slide(from, orthogonal)`) that the action only ever searches (`dest not in straight`
//! in the `require`s after it), on a board whose lines are words (`LineWords`): the list
//! is never made. The `let` charges what making it would (its node, its cell's read, one
//! step an item), and each search finds the cells on the lines, charged the items the
//! search of the list would look at.
//!
//! Only where every read of the local is such a search: the right side of an `in` or
//! `not in` reached from a `require`'s condition through `and`, `or` and `not` alone,
//! none of them remembered (`memo.rs`), in a `require` judged when it is reached (not
//! `afterwards`, not a part of a walk of subsets). Those searches are compiled as
//! conditions (`conditions.rs`) or as sets (`masks.rs`, `Pred::Among`), both of which ask
//! here. The cell the lines start from is a chosen local, never bound again, and the
//! state does not change while an action is listed: a search finds the cells the list
//! would have held.

use super::*;
use std::sync::Arc;

/// A `let` kept as the lines its cells lie on (see the module).
pub(super) struct LineLet {
    /// The slot of the cell the lines start from.
    from: usize,
    /// `sight` (true) or `slide`.
    sight: bool,
    lines: geometry::LineWords,
}

impl LineLet {
    /// Each direction's cells, in the list's order, as a word and whether it goes up the
    /// board's order, while `f` says to go on; none where the local holds no cell.
    #[inline(always)]
    pub(super) fn each(&self, ev: &Eval, l: &[Value], f: impl FnMut(u64, bool) -> bool) {
        if let Value::Cell(c) = l[self.from] {
            self.lines.each(c, ev.s.occupied_word(None), self.sight, f);
        }
    }

    /// How many cells the list would hold.
    pub(super) fn count(&self, ev: &Eval, l: &[Value]) -> usize {
        let Value::Cell(c) = l[self.from] else {
            return 0;
        };
        let occupied = ev.s.occupied_word(None);
        // A slide blocked in every direction at its first step (as often as not, among
        // packed pieces): none, found from the first cells of the lines alone.
        if !self.sight && self.lines.slides_nowhere(c, occupied) {
            return 0;
        }
        let mut n = 0;
        self.lines.each(c, occupied, self.sight, |cells, _| {
            n += cells.count_ones() as usize;
            true
        });
        n
    }

    /// Whether `x` is among the cells, and the items a search of the list looks at to
    /// find out (those up to it, or all of them), nothing charged.
    pub(super) fn searched(&self, ev: &Eval, l: &[Value], x: &Value) -> (bool, u64) {
        let Value::Cell(c) = *x else {
            return (false, self.count(ev, l) as u64);
        };
        let (mut found, mut looked) = (false, 0u64);
        self.each(ev, l, |cells, up| {
            if cells >> c & 1 == 0 {
                looked += u64::from(cells.count_ones());
                return true;
            }
            // The cells before it along the line, then the cell.
            let before = if up {
                cells & ((1u64 << c) - 1)
            } else {
                cells >> c >> 1
            };
            looked += u64::from(before.count_ones()) + 1;
            found = true;
            false
        });
        (found, looked)
    }
}

/// The `let`s of `clauses` kept as lines (see the module), by their slots.
pub(super) fn find(cx: &Cx, clauses: &[Clause], roles: &[Role]) -> Vec<(u16, Arc<LineLet>)> {
    let mut found = Vec::new();
    for (i, c) in clauses.iter().enumerate() {
        let Clause::Let { slot, value } = c else {
            continue;
        };
        let Expr::Call(b @ (Builtin::Slide | Builtin::Sight), args) = value else {
            continue;
        };
        let (Expr::Local(from), Expr::Const(_)) = (&args[0], &args[1]) else {
            continue;
        };
        if cx.remembered(value) || cx.remembered(&args[0]) {
            continue;
        }
        let Some(lines) = geometry::LineWords::new(cx.board, &values::const_dirs(&args[1])) else {
            continue;
        };
        let slot = *slot;
        let only_searched = (clauses.iter().zip(roles).skip(i + 1)).all(|(c, role)| match c {
            Clause::Require {
                cond,
                afterwards: false,
                ..
            } if !matches!(role, Role::Require(_)) => searches_only(cx, cond, slot),
            Clause::Require { cond, .. } => !cond.reads_local(slot),
            Clause::Choose { domain: e, .. } | Clause::Let { value: e, .. } => !e.reads_local(slot),
            Clause::Do(body) => !body_reads(body, slot),
        });
        if only_searched {
            let sight = *b == Builtin::Sight;
            let from = *from as usize;
            found.push((slot, Arc::new(LineLet { from, sight, lines })));
        }
    }
    found
}

/// Whether `e` reads local `slot` only as the list an `in` or `not in` searches, reached
/// through `and`, `or` and `not` alone, none of them remembered.
fn searches_only(cx: &Cx, e: &Expr, slot: u16) -> bool {
    if !e.reads_local(slot) {
        return true;
    }
    if cx.remembered(e) {
        return false;
    }
    match e {
        Expr::Binary(BinOp::And | BinOp::Or, a, b) => {
            searches_only(cx, a, slot) && searches_only(cx, b, slot)
        }
        Expr::Not(x) => searches_only(cx, x, slot),
        Expr::Binary(BinOp::In | BinOp::NotIn, a, b) => {
            matches!(**b, Expr::Local(s) if s == slot) && !a.reads_local(slot) && !cx.remembered(b)
        }
        _ => false,
    }
}

/// Whether any statement of `body` (or of those it holds) reads local `slot`.
fn body_reads(body: &[Stmt], slot: u16) -> bool {
    let mut reads = false;
    Stmt::each_expr_within(body, &mut |e| reads = reads || e.reads_local(slot));
    reads
}
