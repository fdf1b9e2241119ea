//! A seat's pieces and their moves: `choose a in cells_of(SEAT)` straight followed by
//! `choose b in destinations(a, PATTERN)` (or `attacks`), the pattern written in the
//! rules, compiled as one step. Every cell of the seat holds a piece of the seat, so what
//! each cell's walk would work out again is found once a listing: the mover (the seat),
//! its forward, the pattern's rays for that forward, and the occupied cells (all, and the
//! seat's). Each cell then walks its rays alone. The two clauses are charged and located
//! as their own steps are, so that a listing charges and stops where the clause by clause
//! walk does.

use super::*;

/// The fused step of clauses `last - 1` (the seat's cells) and `last` (their moves) of
/// action `a`, and its first clause; `None` if the clauses are not of that shape.
pub(super) fn own_moves(
    cx: &mut Cx,
    a: u16,
    last: usize,
    clauses: &[Clause],
) -> Option<(usize, Fusion)> {
    let p = last.checked_sub(1)?;
    let (
        Clause::Choose {
            slot: aslot,
            domain: outer,
            ..
        },
        Clause::Choose {
            slot: bslot,
            domain: inner @ Expr::Call(b @ (Builtin::Destinations | Builtin::Attacks), args),
            ..
        },
    ) = (clauses.get(p)?, clauses.get(last)?)
    else {
        return None;
    };
    let (Expr::Local(from), Expr::Const(Value::Pattern(pattern))) = (&args[0], &args[1]) else {
        return None;
    };
    if cx.count_clauses || *from != *aslot || cx.remembered(inner) {
        return None;
    }
    let CellWalk::Occupied(Some(seat)) = CellWalk::new(cx, outer)? else {
        return None;
    };
    let (attacks, pattern) = (*b == Builtin::Attacks, *pattern);
    let (aslot, bslot) = (*aslot as usize, *bslot as usize);
    cx.own_moves += 1;
    Some((
        p,
        Box::new(move |after: After| -> Step {
            for_after!(after, |next| Box::new(move |ev, l, f| {
                located(ev, (a, p), || {
                    let only = seat.seat(ev, l).unwrap_or(NO_SEAT);
                    let moves = ev.eng.moves(pattern);
                    // Where the rays are words (a board of at most 64 cells), the seat's
                    // rays and the occupied cells; any other walk is found cell by cell.
                    let words = ev.move_words(only, ev.forward_of(only), moves);
                    let mut go_on = true;
                    ev.s.each_occupied_by(Some(only), |c, _| {
                        if !budget::charge(1) {
                            return false;
                        }
                        pool::set(&mut l[aslot], Value::Cell(c));
                        located(ev, (a, last), || {
                            // The call's step, then its cell's and its pattern's, as
                            // `move_reads` charges them.
                            if !budget::charge(1) {
                                return true;
                            }
                            let (cell_read, pattern_read) = (budget::charge(1), budget::charge(1));
                            if !(cell_read && pattern_read) {
                                return true;
                            }
                            let hand_on = &mut |x: u16| {
                                if !budget::charge(1) {
                                    return false;
                                }
                                pool::set(&mut l[bslot], Value::Cell(x));
                                go_on = next.go(ev, l, f);
                                go_on
                            };
                            match words {
                                Some((rays, taken, held)) => {
                                    rays.cells_word(attacks, c, taken, held, hand_on)
                                }
                                None => ev.each_move_cell(attacks, c, moves, hand_on),
                            };
                            go_on
                        })
                    });
                    go_on
                })
            }))
        }),
    ))
}
