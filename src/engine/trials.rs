//! What a trial of an action's `do` may leave out: `require afterwards` judges an action
//! on the position its `do` produces, by running the `do` on a copy of the state
//! (`Engine::judged_afterwards`). A statement of the `do` that only writes a variable none
//! of the judgements reads (nor anything else the trial runs) cannot change what they
//! find: the trial skips it. Applying the action runs every statement, as ever.
//!
//! Left out: an assignment to a global or per-piece variable that nothing the trial reads
//! reads, and an `if`, `for` or block all of whose statements are left out. Such a
//! statement cannot raise a rules error (a per-piece variable of no piece is not written;
//! sums saturate), so a trial finds the same actions legal with it or without it. Read
//! are the variables of the judgements, of every statement the trial keeps (to a fixed
//! point: a write kept for a read may read more) and, where the game has triggers, of
//! their bodies (a move may fire one). A judgement that reads `repetitions` (which hashes
//! every variable) keeps the whole `do`.
//!
//! Both the tree walk and the compiled bodies skip the same statements (the runner's
//! `trial`; `Op::skipped`), so they charge the same steps (`tests/plans.rs`).

use crate::ir::{Clause, Expr, Game, Stmt, Target};
use std::collections::BTreeSet;

/// The variables a trial reads: globals and per-piece variables, by index.
#[derive(Default)]
struct Read {
    globals: BTreeSet<u16>,
    pieces: BTreeSet<u16>,
    /// Everything (`repetitions`).
    all: bool,
}

impl Read {
    fn expr(&mut self, e: &Expr) {
        match e {
            Expr::GlobalVar(i) => {
                self.globals.insert(*i);
            }
            Expr::CompVar(_, i) => {
                self.pieces.insert(*i);
            }
            Expr::Repetitions => self.all = true,
            _ => {}
        }
        e.each_child(&mut |c| self.expr(c));
    }

    /// Every expression of `stmts`, at any depth.
    fn stmts(&mut self, stmts: &[Stmt]) {
        Stmt::each_expr_within(stmts, &mut |e| self.expr(e));
    }

    fn len(&self) -> usize {
        self.globals.len() + self.pieces.len() + usize::from(self.all)
    }
}

/// Whether `st`, a statement of the rules, is among `skipped` (sorted addresses).
#[inline]
pub(crate) fn skips_statement(skipped: &[usize], st: &Stmt) -> bool {
    skipped.binary_search(&(st as *const Stmt as usize)).is_ok()
}

/// The addresses of the statements a trial skips, sorted (see the module).
pub(crate) fn skipped(game: &Game) -> Vec<usize> {
    let mut out = Vec::new();
    for a in &game.actions {
        for (i, c) in a.clauses.iter().enumerate() {
            let Clause::Do(body) = c else { continue };
            let judges: Vec<&Expr> = (a.clauses[i + 1..].iter())
                .filter_map(|c| match c {
                    Clause::Require {
                        cond,
                        afterwards: true,
                        ..
                    } => Some(cond),
                    _ => None,
                })
                .collect();
            if judges.is_empty() {
                continue;
            }
            let mut read = Read::default();
            judges.iter().for_each(|j| read.expr(j));
            for t in &game.triggers {
                read.stmts(&t.body);
            }
            // To a fixed point: what the kept statements read is read too.
            loop {
                if read.all {
                    break;
                }
                let before = read.len();
                kept_reads(body, &mut read);
                if read.len() == before {
                    break;
                }
            }
            if !read.all {
                skip_in(body, &read, &mut out);
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Whether the trial skips `st` under `read`.
fn skips(st: &Stmt, read: &Read) -> bool {
    match st {
        Stmt::Assign(Target::Global(i), _, _) => !read.globals.contains(i),
        Stmt::Assign(Target::Piece(_, i), _, _) => !read.pieces.contains(i),
        Stmt::If(_, a, b) => a.iter().chain(b).all(|s| skips(s, read)),
        Stmt::For(_, _, b) | Stmt::Block(b) => b.iter().all(|s| skips(s, read)),
        _ => false,
    }
}

/// Adds to `read` what the statements of `stmts` the trial keeps read.
fn kept_reads(stmts: &[Stmt], read: &mut Read) {
    for st in stmts {
        if skips(st, read) {
            continue;
        }
        st.each_expr(&mut |e| read.expr(e));
        st.each_body(&mut |b| kept_reads(b, read));
    }
}

/// Notes the statements of `stmts` the trial skips (the outermost of each), and looks
/// inside those it keeps.
fn skip_in(stmts: &[Stmt], read: &Read, out: &mut Vec<usize>) {
    for st in stmts {
        if skips(st, read) {
            out.push(st as *const Stmt as usize);
        } else {
            st.each_body(&mut |b| skip_in(b, read, out));
        }
    }
}
