//! Move patterns on a grid: where a piece may go by a pattern, each destination once.

use super::state::NONE;
use crate::ir::{Board, Pat, NO_CELL};

/// The cell `v` away from `at` (in board coordinates), or `NO_CELL`.
fn offset(board: &Board, at: u16, (dx, dy): (i8, i8)) -> u16 {
    let c = &board.cells[at as usize];
    let (x, y) = (c.x as i32 + dx as i32, c.y as i32 + dy as i32);
    if x < 0 || y < 0 || x >= board.width as i32 || y >= board.height as i32 {
        NO_CELL
    } else {
        board.cell_at(x as u16, y as u16)
    }
}

/// A vector's direction: the vector divided by the greatest common divisor of its parts.
fn direction((x, y): (i8, i8)) -> (i8, i8) {
    let (mut a, mut b) = (x.unsigned_abs(), y.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    let g = a.max(1) as i8;
    (x / g, y / g)
}

/// What the walker needs to know of the position.
pub struct Walk<'a> {
    pub board: &'a Board,
    /// The component on each cell, or `NONE`.
    pub occ: &'a [u16],
    pub owners: &'a [u8],
    pub mover: u8,
    /// The mover's forward, as a unit vector; pattern vectors have +y forward.
    pub forward: (i8, i8),
}

impl Walk<'_> {
    fn orient(&self, (x, y): (i8, i8)) -> (i8, i8) {
        let (fx, fy) = self.forward;
        (x * fy + y * fx, -x * fx + y * fy)
    }

    /// Every cell the pattern reaches from `from` that the mover may end on: empty, or held
    /// by another owner. Several routes to one cell give it once.
    pub fn destinations(&self, from: u16, pat: &Pat, out: &mut Vec<u16>) {
        let mut ends = Vec::new();
        self.ends(pat, from, None, &mut ends);
        for (c, _) in ends {
            if c == from || out.contains(&c) {
                continue;
            }
            let there = self.occ[c as usize];
            if there == NONE || self.owners[there as usize] != self.mover {
                out.push(c);
            }
        }
    }

    /// Where each way through `pat` from `at` lands, with the direction of its last leg.
    /// `same` restricts the first leg to the direction given.
    fn ends(&self, pat: &Pat, at: u16, same: Option<(i8, i8)>, out: &mut Vec<(u16, (i8, i8))>) {
        match pat {
            Pat::Leg(leg) => {
                for &v in &leg.vectors {
                    let v = self.orient(v);
                    let d = direction(v);
                    if same.is_some_and(|s| s != d) {
                        continue;
                    }
                    let mut t = at;
                    let mut k = 0u32;
                    loop {
                        t = offset(self.board, t, v);
                        if t == NO_CELL {
                            break;
                        }
                        k += 1;
                        out.push((t, d));
                        // A leaper lands once; a rider stops at the first occupied cell.
                        if leg.range == 1
                            || self.occ[t as usize] != NONE
                            || (leg.range > 0 && k >= leg.range as u32)
                        {
                            break;
                        }
                    }
                }
            }
            Pat::Alt(alts) => {
                for a in alts {
                    self.ends(a, at, same, out);
                }
            }
            Pat::Seq {
                first,
                optional,
                same: keep,
                then,
            } => {
                let mut firsts = Vec::new();
                self.ends(first, at, same, &mut firsts);
                for (c, d) in firsts {
                    if *optional {
                        out.push((c, d));
                    }
                    // A leg ends on an empty cell to go on from it.
                    if self.occ[c as usize] == NONE {
                        self.ends(then, c, keep.then_some(d), out);
                    }
                }
            }
        }
    }
}
