//! Plans: each action's clauses compiled, when the engine is built, into a chain of
//! closures that lists its legal actions; and the effects the rules run, compiled with
//! the same closures (`bodies.rs`).
//!
//! The tree-walking listing (`legal.rs`, `walk`) looks at every clause and every node of
//! every expression each time it meets it: which clause comes next, what kind of node
//! this is, how to walk that domain. A plan decides all of that once. Each clause becomes
//! a closure that holds the closure of the clauses after it, and the common shapes get
//! closures of their own:
//!
//! - a `choose` over a list written in the rules (`orthogonal`, `[1, 2, 3]`) is a plain
//!   loop; the board's walks (`cells`, `occupied`, `cells_of`, `seats`, `adjacent`,
//!   `slide`, `sight`, `reach`, `shifts`, `runs`, `group`, `destinations`, `attacks`, a
//!   region) hand their items on one at a time, with constant directions read once; a
//!   choice of a written direction straight followed by a choice over `shifts` in that
//!   direction is one step for both (`dirs_then_shifts`); a `require` straight after a
//!   `choose` is judged in the choice's loop (`Guarded`); a `choose` or a quantifier over
//!   a list held in a local walks it in place (`local_items`);
//! - `and`, `or`, `not`, comparisons, `in` and quantifiers are judged without going back
//!   through the evaluator's match, and reads such as `distance(a, b)` or `phase` are
//!   one closure each; a short read (`x.piece.owner`, `p.points`), its comparison with
//!   a local, `me` or a constant, and its search in a written list, is one closure whole
//!   (`reads.rs`); numbers are compared as numbers (`Int`, `numbers`);
//! - an operand that is a local or a constant is looked at where it stands (`Arg`), not
//!   copied and given back; `x in` a local or written list is searched in place, and
//!   `x in` a region looked up (its place on the region's list: `Engine::region_place`);
//!   a filter, a quantifier or a `require` straight after a `choose` over the board's cells
//!   whose condition reads only emptiness, files and ranks and neighbours is judged for all
//!   the cells at once, as bit sets (`masks.rs`);
//!   `size(x)` of a local compared with a number is counted in place; `x in
//!   destinations(a, p)` (or `attacks`) reads its operands compiled and asks
//!   `Eval::reaches`, which follows only the rays that point at the cell;
//! - an action's arguments are read from its choices' slots when the action is complete
//!   (the checker never binds a chosen local again), handed on where they stand when the
//!   slots are consecutive.
//!
//! Everything else is handed to the evaluator (`Eval::for_each`, `Eval::truth`,
//! `Eval::eval`), so a plan covers every action. A plan lists the same actions in the
//! same order as the tree walk and charges the decision's budget at the same points
//! (`tests/plans.rs` runs both side by side over seeded playouts of every shipped game).
//! A `require afterwards` is judged at the `do`, on a copy of the state made by the same
//! `Engine::judged_afterwards` as in the tree walk, with its conditions compiled. A part
//! remembered within a query (`memo.rs`, which knows it by its address) is handed to the
//! evaluator whole, as a copy whose remembered nodes are added to the engine's
//! (`Plans::memo_nodes`); so are `size(...)` compared with a number, and `x in
//! destinations(...)`, when the size or the destinations are remembered.
use super::budget;
use super::eval::{emit, Dirs, Eval};
use super::geometry;
use super::legal::{Args, OnAction};
use super::pool;
use super::state::NO_SEAT;
use crate::ir::{ops, Agg, BinOp, Builtin, Clause, Expr, Game, Quant, Stmt, Type, Value};
use smallvec::SmallVec;

mod bodies;
mod masks;
mod reads;
pub(crate) use bodies::{Body, Lets, Op};

/// The rest of an action from one clause on: fills the remaining clauses and passes each
/// complete action to the sink; false stops the whole listing.
pub(crate) type Step =
    Box<dyn Fn(&Eval, &mut [Value], &mut Args, &mut OnAction<'_>) -> bool + Send + Sync>;
pub(crate) type Cond = Box<dyn Fn(&Eval, &mut [Value]) -> bool + Send + Sync>;
/// Compiled parts of the rules by the address of what they were compiled from, sorted.
pub(crate) type ByAddress<T> = Vec<(usize, T)>;
pub(crate) type Get = Box<dyn Fn(&Eval, &mut [Value]) -> Value + Send + Sync>;
/// A number computed without being made a value, where the rules compare numbers (see
/// `int`): `Err` holds the value `get` gives where it is no number.
pub(crate) type Int = Box<dyn Fn(&Eval, &mut [Value]) -> Result<i64, Value> + Send + Sync>;
/// Walks a domain: each item is handed to the callback, which says whether to go on.
pub(crate) type Each =
    Box<dyn Fn(&Eval, &mut [Value], &mut dyn FnMut(Value, &mut [Value]) -> bool) + Send + Sync>;

/// An aggregate's body: `count` judges it, the others take its number.
enum AggBody {
    Count(Cond),
    Number(Get),
}

/// An operand: a local or a constant is looked at where it stands, without a copy; any
/// other expression is computed. Each is charged as `get` charges it.
enum Arg {
    Local(usize),
    Const(Value),
    Get(Get),
}

/// A value read where it stands, charged as `eval` charges the copy it makes of it: a
/// list its length (false once the budget is spent), anything else nothing more.
#[inline(always)]
fn listed(v: &Value) -> bool {
    match v {
        Value::List(items) => budget::list(items.len()),
        _ => true,
    }
}

/// What a spent budget makes of a read.
static NO_VALUE: Value = Value::None;

impl Arg {
    fn new(cx: &mut Cx, e: &Expr) -> Arg {
        match e {
            Expr::Local(slot) => Arg::Local(*slot as usize),
            Expr::Const(v) if !v.owns_heap() => Arg::Const(v.clone()),
            other => Arg::Get(get(cx, other)),
        }
    }

    /// A local or a constant seen in place (`none` for a computed operand, which is never
    /// asked): the node's step charged, and a list's length, as `get` charges them.
    #[inline(always)]
    fn seen<'v>(&'v self, l: &'v [Value]) -> &'v Value {
        if let Arg::Get(_) = self {
            return &NO_VALUE;
        }
        let v = self.seen_uncharged(l);
        if !budget::charge(1) {
            return &NO_VALUE;
        }
        if !listed(v) {
            return &NO_VALUE;
        }
        v
    }

    /// A local or a constant where it stands, nothing charged (`none` for a computed
    /// operand).
    #[inline(always)]
    fn seen_uncharged<'v>(&'v self, l: &'v [Value]) -> &'v Value {
        match self {
            Arg::Local(slot) => &l[*slot],
            Arg::Const(v) => v,
            Arg::Get(_) => &NO_VALUE,
        }
    }

    /// Calls `f` on the operand's value: seen in place, or computed and then given back.
    #[inline(always)]
    fn with<R>(&self, ev: &Eval, l: &mut [Value], f: impl FnOnce(&Value) -> R) -> R {
        match self {
            Arg::Get(g) => {
                let v = g(ev, l);
                let r = f(&v);
                pool::recycle(v);
                r
            }
            _ => f(self.seen(l)),
        }
    }

    #[inline(always)]
    fn cell(&self, ev: &Eval, l: &mut [Value]) -> Option<u16> {
        self.with(ev, l, |v| match *v {
            Value::Cell(c) => Some(c),
            _ => None,
        })
    }

    #[inline(always)]
    fn seat(&self, ev: &Eval, l: &mut [Value]) -> Option<u8> {
        self.with(ev, l, |v| match *v {
            Value::Seat(p) => Some(p),
            _ => None,
        })
    }
}

/// The seat a region, zone, area or path written with a seat is taken for, as `eval`
/// reads it: the seat (`NO_SEAT`, which has none, for anything else); 0, the only one,
/// where no seat is written.
#[inline(always)]
fn seat_or_first(seat: &Option<Arg>, ev: &Eval, l: &mut [Value]) -> u8 {
    // A `match`, not `map_or`: the call of `map_or` was left out of line.
    match seat {
        Some(p) => p.seat(ev, l).unwrap_or(NO_SEAT),
        None => 0,
    }
}

/// Whose cells a walk of occupied cells takes: `None` for `occupied` (anyone's), the seat
/// of `cells_of(seat)` read as `Eval::seat_of` reads it (`NO_SEAT` for anything else).
#[inline(always)]
fn whose(seat: &Option<Arg>, ev: &Eval, l: &mut [Value]) -> Option<u8> {
    seat.as_ref().map(|p| p.seat(ev, l).unwrap_or(NO_SEAT))
}

/// `whose`, for a row of the occupancy index read whole: each of its cells charged the
/// step walking it is.
#[inline(always)]
fn whose_read_whole(seat: &Option<Arg>, ev: &Eval, l: &mut [Value]) -> Option<u8> {
    let seat = whose(seat, ev, l);
    budget::charge(ev.s.count_occupied_by(seat) as u64);
    seat
}

/// The plan of every action (`None` where the tree walk lists it), and the end rules'
/// conditions compiled the same way (`win ... when`, `draw when`, in order).
pub(crate) struct Plans {
    pub actions: Vec<Option<Step>>,
    pub wins: Vec<Cond>,
    pub draws: Vec<Cond>,
    /// Every list of statements the rules run (`setup`, a `do`, a phase's hooks, a
    /// trigger's or a reaction's), compiled (see `bodies.rs`), by the address of its first
    /// statement in the rules, sorted.
    pub bodies: ByAddress<Body>,
    /// Each action's `let`s, compiled, by clause (`None` for the other clauses): what its
    /// `do` reads, computed again when the action is applied.
    pub lets: Vec<Lets>,
    /// The conditions and the values that move play on, compiled, by address in the rules,
    /// sorted (see `turn_exprs`): judged by `Engine::judged` and `Engine::valued`.
    pub conds: ByAddress<Cond>,
    pub values: ByAddress<Get>,
    /// What computes each remembered node of the plans' copies (see `memo_nodes`) the
    /// first time a query asks for it, compiled, by the node's address, sorted: the
    /// evaluator calls it (`Eval::remembered_place`) instead of walking the node.
    pub computers: ByAddress<Get>,
    /// Where the parts the plans hand to the evaluator hold nodes to remember (see
    /// `memo`): the addresses of those nodes in the plans' own copies.
    pub memo_nodes: Vec<usize>,
    /// The same for the statements' expressions remembered within (`Engine::memo_roots`).
    pub memo_roots: Vec<usize>,
}

/// The parts `walk` finds in `rules`, each with the part it finds at the same place in
/// `copy` (a clone of `rules`).
fn paired<'a, T: ?Sized, P: ?Sized + 'a>(
    rules: &'a T,
    copy: &'a T,
    walk: impl Fn(&'a T, &mut dyn FnMut(&'a P)),
) -> Vec<(&'a P, &'a P)> {
    let (mut theirs, mut ours) = (Vec::new(), Vec::new());
    walk(rules, &mut |p| theirs.push(p));
    walk(copy, &mut |p| ours.push(p));
    theirs.into_iter().zip(ours).collect()
}

/// What building the plans needs to know: the nodes to remember, by address in the rules
/// (sorted), and where their copies in the plans are (see `Plans::memo_nodes`).
struct Cx<'a> {
    memo: &'a [usize],
    /// The expressions of statements evaluated with values remembered for the one
    /// evaluation (see `memo::effect_nodes`), by address in the rules (sorted).
    roots: &'a [usize],
    copies: Vec<usize>,
    /// Where the copies of `roots` in the plans are (see `Plans::memo_roots`).
    root_copies: Vec<usize>,
    /// Each remembered node in the copies, by address, and its value compiled.
    computers: ByAddress<Get>,
    /// The remembered nodes (by address in the rules) whose computers are being compiled.
    compiling: Vec<usize>,
    /// Which component attributes hold numbers, by index.
    number_attrs: Vec<bool>,
    /// Which variables hold numbers (those that start as one), by index.
    number_vars: Vec<bool>,
    /// Which seat attributes are numbers for every seat, by index.
    number_seat_attrs: Vec<bool>,
    /// The board, for what is worked out once from directions written in the rules.
    board: &'a crate::ir::Board,
    /// The seats, for what is worked out once from their attributes.
    seats: &'a [crate::ir::SeatDef],
}

impl Cx<'_> {
    /// Whether `e` is an expression of a statement that holds nodes to remember.
    fn scoped(&self, e: &Expr) -> bool {
        self.roots
            .binary_search(&(e as *const Expr as usize))
            .is_ok()
    }

    /// Whether `e` is a node remembered within a query.
    fn remembered(&self, e: &Expr) -> bool {
        self.memo
            .binary_search(&(e as *const Expr as usize))
            .is_ok()
    }

    /// A copy of `e` for the evaluator, at an address that stays put, with its remembered
    /// nodes noted (`copies`) so that the evaluator remembers them as it does in the rules.
    fn copy(&mut self, e: &Expr) -> Box<Expr> {
        let copy = Box::new(e.clone());
        self.note(e, &copy);
        copy
    }

    /// Notes the remembered nodes and the roots of a copy of statements (see `note`), so
    /// that the evaluator remembers values in it as it does in the rules.
    fn note_body(&mut self, rules: &[Stmt], copy: &[Stmt]) {
        for (r, c) in rules.iter().zip(copy) {
            for (theirs, e) in paired(r, c, Stmt::each_expr) {
                if self.scoped(theirs) {
                    self.root_copies.push(e as *const Expr as usize);
                }
                self.note(theirs, e);
            }
            for (theirs, b) in paired(r, c, Stmt::each_body) {
                self.note_body(theirs, b);
            }
        }
    }

    fn note(&mut self, rules: &Expr, copy: &Expr) {
        if self.remembered(rules) {
            self.copies.push(copy as *const Expr as usize);
            // A node the compiler hands to the evaluator is copied again while it is
            // compiled: that copy is computed by the evaluator.
            let at = rules as *const Expr as usize;
            if !self.compiling.contains(&at) {
                self.compiling.push(at);
                let computer = get_node(self, rules);
                self.compiling.pop();
                self.computers
                    .push((copy as *const Expr as usize, computer));
            }
        }
        for (theirs, c) in paired(rules, copy, Expr::each_child) {
            self.note(theirs, c);
        }
    }
}

impl std::fmt::Debug for Plans {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let planned = self.actions.iter().filter(|p| p.is_some()).count();
        write!(f, "Plans({planned} of {} actions)", self.actions.len())
    }
}

impl Plans {
    /// The plans of `game`'s actions and end rules; `memo`: the nodes remembered within a
    /// query, by address in `game` (sorted; see `memo::nodes`).
    pub(crate) fn build(game: &Game, memo: &[usize], roots: &[usize]) -> Plans {
        let mut cx = Cx {
            board: &game.board,
            seats: &game.seats,
            memo,
            roots,
            root_copies: Vec::new(),
            copies: Vec::new(),
            computers: Vec::new(),
            compiling: Vec::new(),
            number_attrs: (game.attrs.iter())
                .map(|a| matches!(a.ty, crate::ir::AttrType::Int { .. }))
                .collect(),
            number_vars: (game.vars.iter())
                .map(|v| matches!(v.init, Expr::Const(Value::Int(_))))
                .collect(),
            number_seat_attrs: (0..game.seat_attrs.len())
                .map(|i| (game.seats.iter()).all(|p| matches!(p.attrs.get(i), Some(Value::Int(_)))))
                .collect(),
        };
        let actions = (0..game.actions.len())
            .map(|a| action(&mut cx, a as u16, &game.actions[a].clauses))
            .collect();
        let wins = game
            .end
            .wins
            .iter()
            .map(|(_, w)| truth(&mut cx, w))
            .collect();
        let draws = game.end.draws.iter().map(|d| truth(&mut cx, d)).collect();
        let (bodies, lets) = bodies::build(&mut cx, game);
        let (conds, values) = turn_exprs(&mut cx, game);
        let mut computers = std::mem::take(&mut cx.computers);
        computers.sort_unstable_by_key(|(at, _)| *at);
        Plans {
            actions,
            wins,
            draws,
            bodies,
            lets,
            conds,
            values,
            computers,
            memo_nodes: cx.copies,
            memo_roots: cx.root_copies,
        }
    }
}

impl Plans {
    /// The compiled form of `stmts`, a list of statements in the rules (none for a copy,
    /// or where the tree walk is asked for).
    #[inline]
    pub(crate) fn body(&self, stmts: &[crate::ir::Stmt]) -> Option<&[Op]> {
        if stmts.is_empty() {
            return None;
        }
        self.body_at(stmts.as_ptr() as usize)
    }

    /// The compiled form of the list of statements whose first statement is at `at` in
    /// the rules.
    #[inline]
    pub(crate) fn body_at(&self, at: usize) -> Option<&[Op]> {
        found(&self.bodies, at).map(|b| &b[..])
    }

    /// The compiled form of a condition that moves play on (see `turn_exprs`).
    #[inline]
    pub(crate) fn cond(&self, e: &Expr) -> Option<&Cond> {
        found(&self.conds, e as *const Expr as usize)
    }

    /// The compiled form of a value that moves play on (see `turn_exprs`).
    #[inline]
    pub(crate) fn value(&self, e: &Expr) -> Option<&Get> {
        found(&self.values, e as *const Expr as usize)
    }

    /// What computes the remembered node `e` (a node of the plans' copies), compiled.
    #[inline]
    pub(crate) fn computer(&self, e: &Expr) -> Option<&Get> {
        found(&self.computers, e as *const Expr as usize)
    }

    /// The compiled value of the `let` that is clause `clause` of action `action`.
    #[inline]
    pub(crate) fn let_value(&self, action: u16, clause: usize) -> Option<&Get> {
        self.lets.get(action as usize)?.get(clause)?.as_ref()
    }
}

/// What was compiled from the part of the rules at `at`, in a list sorted by address.
#[inline]
fn found<T>(list: &ByAddress<T>, at: usize) -> Option<&T> {
    if list.is_empty() {
        return None;
    }
    let i = list.binary_search_by_key(&at, |(a, _)| *a).ok()?;
    Some(&list[i].1)
}

/// The conditions and values that move play on, compiled: each phase's `skip ... when`,
/// `start`, `until` and computed `next`, each step's `by` and `when`, each reaction's
/// `by` and offer, the end's `on stuck if` conditions and its `score`. By address in the
/// rules, sorted.
fn turn_exprs(cx: &mut Cx, game: &Game) -> (ByAddress<Cond>, ByAddress<Get>) {
    fn next_conds<'g>(n: &'g crate::ir::NextPhase, out: &mut Vec<&'g Expr>) {
        if let crate::ir::NextPhase::If(c, a, b) = n {
            out.push(c);
            next_conds(a, out);
            next_conds(b, out);
        }
    }
    let (mut conds, mut values): (Vec<&Expr>, Vec<&Expr>) = (Vec::new(), Vec::new());
    for p in &game.phases {
        conds.extend(p.skip.iter().chain(&p.until));
        values.extend(&p.start);
        if let Some(n) = &p.next_if {
            next_conds(n, &mut conds);
        }
        for st in &p.steps {
            values.extend(&st.by);
            conds.extend(&st.condition);
        }
    }
    for r in &game.reactions {
        values.push(&r.by);
        conds.extend(&r.offer);
    }
    conds.extend(game.end.stuck_if.iter().map(|(c, _)| c));
    values.extend(&game.end.score);
    let key = |e: &Expr| e as *const Expr as usize;
    let mut conds: ByAddress<Cond> = conds.into_iter().map(|e| (key(e), truth(cx, e))).collect();
    let mut values: ByAddress<Get> = values.into_iter().map(|e| (key(e), get(cx, e))).collect();
    conds.sort_unstable_by_key(|(at, _)| *at);
    values.sort_unstable_by_key(|(at, _)| *at);
    (conds, values)
}

fn action(cx: &mut Cx, a: u16, clauses: &[Clause]) -> Option<Step> {
    // After the `do` stand only `require afterwards` clauses, judged at the `do` on a copy
    // of the state (see `Engine::fails_afterwards`); the checker writes nothing else there.
    let do_at = clauses.iter().position(|c| matches!(c, Clause::Do(_)));
    let after_do = do_at.map_or(&[][..], |d| &clauses[d + 1..]);
    if !after_do.iter().all(Clause::is_afterwards) {
        return None;
    }
    // The action's arguments are its choices, read from their slots once the action is
    // complete (a chosen local is never bound again), not kept on the side per item.
    let chosen: Vec<usize> = clauses
        .iter()
        .filter_map(|c| match c {
            Clause::Choose { slot, .. } => Some(*slot as usize),
            _ => None,
        })
        .collect();
    // Choices in consecutive slots (the common case) are handed on where they stand.
    let run = chosen.first().map_or(0, |&s| s)..chosen.last().map_or(0, |&s| s + 1);
    let mut next: Step = if chosen.iter().copied().eq(run.clone()) {
        Box::new(move |_, l, _, f| !budget::spent() && f(a, &l[run.clone()]))
    } else {
        Box::new(move |_, l, args, f| {
            if budget::spent() {
                return false;
            }
            for &s in &chosen {
                args.push(pool::dup(&l[s]));
            }
            let go_on = f(a, args);
            while let Some(v) = args.pop() {
                pool::recycle(v);
            }
            go_on
        })
    };
    let mut fused: Option<Box<dyn FnOnce(Step) -> Step>> = None;
    // A `require` straight after a `choose`, compiled, waiting for the choice: judged in
    // its loop (see `Guarded`) rather than behind a step of its own.
    let mut guard: Option<((u16, usize), &Expr)> = None;
    for (i, c) in clauses.iter().enumerate().rev() {
        // A clause fused with the one after it (see `dirs_then_shifts`) takes that one's
        // place: built here, from the step after both.
        if let Some(make) = fused.take() {
            next = make(next);
            continue;
        }
        if let Some(make) = i
            .checked_sub(1)
            .and_then(|p| dirs_then_shifts(cx, a, p, clauses))
        {
            if let Some((at, cond)) = guard.take() {
                next = require(cx, at, cond, next);
            }
            fused = Some(make);
            continue;
        }
        if let Clause::Choose {
            slot, ty, domain, ..
        } = c
        {
            next = match guard.take() {
                // The cells that pass the `require` found all at once, where it can be
                // judged for a set of cells (`masks.rs`).
                Some((at, cond)) => match masks::Filter::new(cx, domain, *slot, cond) {
                    Some(filter) => {
                        let slot = *slot as usize;
                        let then = Passed { at, next };
                        Choose {
                            at: (a, i),
                            slot,
                            next: then,
                        }
                        .to(cx, Passing(filter))
                    }
                    None => {
                        let then = Guarded {
                            at,
                            cond: truth(cx, cond),
                            next,
                        };
                        choose(cx, (a, i), *slot, ty, domain, then)
                    }
                },
                None => choose(cx, (a, i), *slot, ty, domain, Plain(next)),
            };
            continue;
        }
        if let Some((at, cond)) = guard.take() {
            next = require(cx, at, cond, next);
        }
        if let Clause::Require {
            cond,
            afterwards: false,
            ..
        } = c
        {
            if i > 0 && matches!(clauses[i - 1], Clause::Choose { .. }) {
                guard = Some(((a, i), cond));
                continue;
            }
        }
        next = match c {
            Clause::Do(_) if after_do.is_empty() => next,
            Clause::Do(body) => {
                // The `require afterwards` conditions, compiled, judged in order on the
                // position the `do` produces.
                let rest: Vec<Cond> = after_do
                    .iter()
                    .filter_map(|c| match c {
                        Clause::Require { cond, .. } => Some(truth(cx, cond)),
                        _ => None,
                    })
                    .collect();
                // The body runs compiled (found by its place in the rules, `Plans::body`);
                // the copy is for an engine without compiled bodies.
                let (at, copy) = (body.as_ptr() as usize, body.clone());
                cx.note_body(body, &copy);
                let body = copy;
                Box::new(move |ev, l, args, f| {
                    if budget::spent() {
                        return false;
                    }
                    let failed = ev.eng.judged_afterwards(ev, at, &body, l, &mut |then, l2| {
                        rest.iter().position(|c| !c(then, l2)).map(|i| i as u16)
                    });
                    if failed.is_some() {
                        return true;
                    }
                    next(ev, l, args, f)
                })
            }
            Clause::Choose { .. } => unreachable!("a choice is built above"),
            Clause::Let { slot, value } => let_(cx, (a, i), *slot, value, next),
            // Judged at the `do`; here only a step, as in the tree walk.
            Clause::Require {
                afterwards: true, ..
            } => Box::new(move |ev, l, args, f| located(ev, (a, i), || next(ev, l, args, f))),
            Clause::Require { cond, .. } => require(cx, (a, i), cond, next),
        };
    }
    Some(next)
}

/// Runs a clause's step (`at`: the action and the clause), stopping once the budget is
/// spent and naming the clause in the rules error if the work went over inside it (as
/// the tree walk does).
#[inline(always)]
fn located(ev: &Eval, at: (u16, usize), body: impl FnOnce() -> bool) -> bool {
    if budget::spent() {
        return false;
    }
    let go_on = body();
    if budget::spent() {
        budget::locate_innermost(|| ev.eng.clause_text(at.0, at.1));
    }
    go_on
}

fn let_(cx: &mut Cx, at: (u16, usize), slot: u16, value: &Expr, next: Step) -> Step {
    let value = get(cx, value);
    let slot = slot as usize;
    Box::new(move |ev, l, args, f| {
        located(ev, at, || {
            let v = value(ev, l);
            pool::set(&mut l[slot], v);
            next(ev, l, args, f)
        })
    })
}

fn require(cx: &mut Cx, at: (u16, usize), cond: &Expr, next: Step) -> Step {
    require_step(at, truth(cx, cond), next)
}

/// `require`, its condition compiled: a step of its own, judged as `Guarded` judges it.
fn require_step(at: (u16, usize), cond: Cond, next: Step) -> Step {
    let guarded = Guarded { at, cond, next };
    Box::new(move |ev, l, args, f| guarded.go(ev, l, args, f))
}

/// What a `choose` hands each choice to: the rest of the action's step, or a `require`
/// straight after it judged first, in the choice's loop (`Guarded`): the same condition,
/// charged and named as its own step would be, without a call to a step of its own.
trait Then: Send + Sync + 'static {
    fn go(&self, ev: &Eval, l: &mut [Value], args: &mut Args, f: &mut OnAction<'_>) -> bool;
}

/// The rest of the action's step.
struct Plain(Step);

impl Then for Plain {
    #[inline(always)]
    fn go(&self, ev: &Eval, l: &mut [Value], args: &mut Args, f: &mut OnAction<'_>) -> bool {
        (self.0)(ev, l, args, f)
    }
}

/// A `require` (where it stands in the rules, and its condition), then the rest.
struct Guarded {
    at: (u16, usize),
    cond: Cond,
    next: Step,
}

impl Then for Guarded {
    #[inline(always)]
    fn go(&self, ev: &Eval, l: &mut [Value], args: &mut Args, f: &mut OnAction<'_>) -> bool {
        located(ev, self.at, || {
            !(self.cond)(ev, l) || (self.next)(ev, l, args, f)
        })
    }
}

/// The choices that pass the `require` straight after a `choose`, that condition judged
/// for all the cells at once (`masks::Filter::guard`): a walk of cells as `Choose` takes
/// one.
struct Passing(masks::Filter);

impl Cells for Passing {
    #[inline(always)]
    fn walk<F: FnMut(u16, &mut [Value]) -> bool>(&self, ev: &Eval, l: &mut [Value], f: &mut F) {
        self.0.guard(ev, l, f)
    }
}

/// A choice that passed its `require` (`Passing`), then the rest, the rest named as the
/// `require`'s step as `Guarded` names it.
struct Passed {
    at: (u16, usize),
    next: Step,
}

impl Then for Passed {
    #[inline(always)]
    fn go(&self, ev: &Eval, l: &mut [Value], args: &mut Args, f: &mut OnAction<'_>) -> bool {
        located(ev, self.at, || (self.next)(ev, l, args, f))
    }
}

/// A `choose` over a walk of cells (`with_cells`): each cell written into the choice's
/// local in place (no twins among cells), then handed on.
struct Choose<T> {
    at: (u16, usize),
    slot: usize,
    next: T,
}

impl<T: Then> CellsTo<Step> for Choose<T> {
    fn to<C: Cells>(self, _: &mut Cx, cells: C) -> Step {
        let Choose { at, slot, next } = self;
        Box::new(move |ev, l, args, f| {
            located(ev, at, || {
                let mut go_on = true;
                cells.walk(ev, l, &mut |c, l: &mut [Value]| {
                    pool::set(&mut l[slot], Value::Cell(c));
                    go_on = next.go(ev, l, args, f);
                    go_on
                });
                go_on
            })
        })
    }
}

/// `choose`: each item of the domain in turn, as the tree walk offers it. Twin
/// components in one place are one choice: only the first is offered. `ty` is the type
/// of the chosen local.
fn choose<T: Then>(
    cx: &mut Cx,
    at: (u16, usize),
    slot: u16,
    ty: &Type,
    domain: &Expr,
    next: T,
) -> Step {
    let slot = slot as usize;
    // A list written in the rules, with no components: a plain loop.
    if let Expr::Const(Value::List(items)) = domain {
        if !items.iter().any(|v| matches!(v, Value::Comp(_))) {
            let items = items.clone();
            return Box::new(move |ev, l, args, f| {
                located(ev, at, || {
                    let mut go_on = true;
                    for v in &items {
                        if !budget::charge(1) {
                            break;
                        }
                        // A direction or number over the last one, in place.
                        pool::assign(&mut l[slot], v);
                        go_on = next.go(ev, l, args, f);
                        if !go_on {
                            break;
                        }
                    }
                    go_on
                })
            });
        }
    }
    // Cells: each written into the local in place (no twins among cells).
    let next = match with_cells(cx, domain, Choose { at, slot, next }) {
        Ok(step) => return step,
        Err(Choose { next, .. }) => next,
    };
    // How far a run can shift: walked here, each distance written into the local in
    // place, as `each` walks it (the node, the run and the direction, then each item).
    if let Expr::Call(Builtin::Shifts, a) = domain {
        if !cx.remembered(domain) {
            let shifts = Shifts::new(cx, a);
            return Box::new(move |ev, l, args, f| {
                located(ev, at, || {
                    let Some((run, d)) = shifts.read(ev, l) else {
                        return true;
                    };
                    shifted(ev, l, args, f, run, d, slot, &next)
                })
            });
        }
    }
    // Twins are components: a choice of any other type (numbers, runs, seats, lists) has
    // none to pass over.
    let twins = matches!(ty, Type::Comp | Type::Nothing | Type::Unknown);
    // A list in a local: its items written into the choice's local one at a time, each
    // charged as `for_each` charges it (a cell in place); anything but a list is walked
    // as `for_each` walks it.
    if let (Expr::Local(from), false) = (domain, twins) {
        let (from, domain) = (*from as usize, domain.clone());
        return Box::new(move |ev, l, args, f| {
            located(ev, at, || {
                let mut go_on = true;
                local_items(ev, l, (from, &domain), slot, |l| {
                    go_on = next.go(ev, l, args, f);
                    go_on
                });
                go_on
            })
        });
    }
    let each = each(cx, domain);
    if !twins {
        return Box::new(move |ev, l, args, f| {
            located(ev, at, || {
                let mut go_on = true;
                each(ev, l, &mut |v, l| {
                    pool::set(&mut l[slot], v);
                    go_on = next.go(ev, l, args, f);
                    go_on
                });
                go_on
            })
        });
    }
    Box::new(move |ev, l, args, f| {
        located(ev, at, || {
            let mut go_on = true;
            let mut offered: SmallVec<[u16; 16]> = SmallVec::new();
            each(ev, l, &mut |v, l| {
                if let Value::Comp(c) = v {
                    if offered
                        .iter()
                        .any(|&o| ev.eng.same_choice(ev.s, &Value::Comp(o), &v))
                    {
                        return true;
                    }
                    offered.push(c);
                }
                pool::set(&mut l[slot], v);
                go_on = next.go(ev, l, args, f);
                go_on
            });
            go_on
        })
    })
}

/// The items of a collection held in the local `from` (`domain`, the local's expression),
/// each written into the local `slot` in turn, then `go` called, while it says to go on.
/// A list is walked in place, each item charged as `for_each` charges it (a cell written
/// as a number); anything else is walked by `for_each`.
#[inline(always)]
fn local_items(
    ev: &Eval,
    l: &mut [Value],
    (from, domain): (usize, &Expr),
    slot: usize,
    mut go: impl FnMut(&mut [Value]) -> bool,
) {
    let Value::List(items) = &l[from] else {
        ev.for_each(domain, l, &mut |v, l| {
            pool::set(&mut l[slot], v);
            go(l)
        });
        return;
    };
    for i in 0..items.len() {
        if !budget::charge(1) {
            return;
        }
        let Value::List(items) = &l[from] else {
            return;
        };
        match items[i] {
            Value::Cell(c) => pool::set(&mut l[slot], Value::Cell(c)),
            ref v => {
                let v = pool::dup(v);
                pool::set(&mut l[slot], v);
            }
        }
        if !go(l) {
            return;
        }
    }
}

/// Each distance the run can shift by in direction `d`, written into the local `slot` in
/// place, the rest of the action listed for each (each distance charged, as `each` walks
/// it).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn shifted(
    ev: &Eval,
    l: &mut [Value],
    args: &mut Args,
    f: &mut OnAction<'_>,
    run: (u16, u8, u8),
    d: u8,
    slot: usize,
    next: &impl Then,
) -> bool {
    let (board, occ) = (&ev.eng.game.board, &ev.s.cells);
    let mut go_on = true;
    geometry::shifts_of(board, occ, run, d, &mut |v| {
        if !budget::charge(1) {
            return false;
        }
        pool::set(&mut l[slot], v);
        go_on = next.go(ev, l, args, f);
        go_on
    });
    go_on
}

/// `choose d in DIRS` (directions written in the rules) straight followed by `choose k in
/// shifts(run, d)`: one step for both, each direction's shifts walked where the direction
/// is chosen rather than through the next clause's step. The two clauses are charged and
/// located as their own steps are. `None` if the clauses are not of that shape.
fn dirs_then_shifts(
    cx: &mut Cx,
    a: u16,
    i: usize,
    clauses: &[Clause],
) -> Option<Box<dyn FnOnce(Step) -> Step>> {
    let (
        Clause::Choose {
            slot: dslot,
            domain: Expr::Const(Value::List(items)),
            ..
        },
        Clause::Choose {
            slot: kslot,
            domain: shifts @ Expr::Call(Builtin::Shifts, sargs),
            ..
        },
    ) = (clauses.get(i)?, clauses.get(i + 1)?)
    else {
        return None;
    };
    let dirs: Vec<u8> = items
        .iter()
        .map(|v| match v {
            Value::Dir(d) => Some(*d),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let (dslot, kslot) = (*dslot as usize, *kslot as usize);
    if !matches!(sargs[1], Expr::Local(s) if s as usize == dslot)
        || matches!(sargs[0], Expr::Local(s) if s as usize == dslot)
        || cx.remembered(shifts)
    {
        return None;
    }
    let shifts = Shifts {
        line: Arg::new(cx, &sargs[0]),
        dir: Arg::Local(dslot),
    };
    Some(Box::new(move |next: Step| -> Step {
        let next = Plain(next);
        Box::new(move |ev, l, args, f| {
            located(ev, (a, i), || {
                let mut go_on = true;
                // A run where it stands (a local: the common case): read once for every
                // direction, and a direction it cannot take a step in passed over before
                // anything is written; the node and its two operands charged at once, as
                // `read` charges them. A computed run, which may read the direction, is read
                // for each direction after it is written (below).
                if let Some(run) = shifts.run_in_place(l) {
                    let (board, occ) = (&ev.eng.game.board, &ev.s.cells);
                    for &d in &dirs {
                        if !budget::charge(1) {
                            break;
                        }
                        if !budget::charge(3) {
                            budget::locate_innermost(|| ev.eng.clause_text(a, i + 1));
                            continue;
                        }
                        if geometry::first_step_blocked(board, occ, run, d) {
                            continue;
                        }
                        pool::set(&mut l[dslot], Value::Dir(d));
                        go_on = shifted(ev, l, args, f, run, d, kslot, &next);
                        if budget::spent() {
                            budget::locate_innermost(|| ev.eng.clause_text(a, i + 1));
                        }
                        if !go_on {
                            break;
                        }
                    }
                    return go_on;
                }
                for &d in &dirs {
                    if !budget::charge(1) {
                        break;
                    }
                    pool::set(&mut l[dslot], Value::Dir(d));
                    go_on = located(ev, (a, i + 1), || {
                        match shifts.read(ev, l).map(|(run, _)| run) {
                            Some(run) => shifted(ev, l, args, f, run, d, kslot, &next),
                            None => true,
                        }
                    });
                    if !go_on {
                        break;
                    }
                }
                go_on
            })
        })
    }))
}

/// `shifts(run, dir)`: its operands.
struct Shifts {
    line: Arg,
    dir: Arg,
}

impl Shifts {
    fn new(cx: &mut Cx, args: &[Expr]) -> Shifts {
        Shifts {
            line: Arg::new(cx, &args[0]),
            dir: Arg::new(cx, &args[1]),
        }
    }

    /// The run where it stands (a local or a constant holding one): its start, direction
    /// and length, nothing charged. It is the same for every direction.
    #[inline(always)]
    fn run_in_place(&self, l: &[Value]) -> Option<(u16, u8, u8)> {
        match *self.line.seen_uncharged(l) {
            Value::Line { start, dir, len } => Some((start, dir, len)),
            _ => None,
        }
    }

    /// The run (its start, direction and length) and the direction, read as `eval` reads
    /// them (the node and its operands charged); `None` if either is not one, or the
    /// budget is spent.
    #[inline(always)]
    fn read(&self, ev: &Eval, l: &mut [Value]) -> Option<((u16, u8, u8), u8)> {
        if !budget::charge(1) {
            return None;
        }
        // The run is only looked at: its start, direction and length.
        let run = self.line.with(ev, l, |v| match *v {
            Value::Line { start, dir, len } => Some((start, dir, len)),
            _ => None,
        });
        let d = self.dir.with(ev, l, |v| match *v {
            Value::Dir(d) => Some(d),
            _ => None,
        });
        match (run, d) {
            (Some(run), Some(d)) => Some((run, d)),
            _ => None,
        }
    }
}

/// Walks a collection as `Eval::for_each` does: each item charged to the budget.
fn each(cx: &mut Cx, coll: &Expr) -> Each {
    if cx.remembered(coll) {
        let coll = cx.copy(coll);
        return Box::new(move |ev, l, f| ev.for_each(&coll, l, f));
    }
    // A walk of cells hands each on as a value.
    if let Some(cells) = each_cell(cx, coll) {
        return Box::new(move |ev, l, f| cells(ev, l, &mut |c, l| f(Value::Cell(c), l)));
    }
    match coll {
        Expr::Call(Builtin::Shifts, args) => {
            let shifts = Shifts::new(cx, args);
            Box::new(move |ev, l, f| {
                if let Some((run, d)) = shifts.read(ev, l) {
                    let (board, occ) = (&ev.eng.game.board, &ev.s.cells);
                    geometry::shifts_of(board, occ, run, d, &mut |v| emit(f, v, l));
                }
            })
        }
        // Lists, runs and zones joined (`a + b`): the parts' items walked where they
        // stand, charged as `eval` charges the joined list it would make.
        Expr::Call(Builtin::Concat, parts) => {
            let parts: Vec<Arg> = parts.iter().map(|p| Arg::new(cx, p)).collect();
            Box::new(move |ev, l, f| {
                if !budget::charge(1) {
                    return;
                }
                let mut computed: SmallVec<[Value; 4]> = SmallVec::new();
                let mut total = 0;
                for p in &parts {
                    total += match p {
                        Arg::Get(g) => {
                            computed.push(g(ev, l));
                            ev.joined_len(&computed[computed.len() - 1])
                        }
                        p => ev.joined_len(p.seen(l)),
                    };
                }
                if budget::list(total) {
                    let mut k = 0;
                    for p in &parts {
                        let go_on = match p {
                            Arg::Get(_) => {
                                k += 1;
                                ev.each_joined(&computed[k - 1], &mut |v| emit(f, v, l))
                            }
                            Arg::Local(slot) => each_joined_local(ev, l, *slot, f),
                            Arg::Const(v) => ev.each_joined(v, &mut |x| emit(f, x, l)),
                        };
                        if !go_on {
                            break;
                        }
                    }
                }
                computed.into_iter().for_each(pool::recycle);
            })
        }
        // Runs of cells, made one at a time, as `for_each` makes them.
        Expr::Call(Builtin::Runs, args) if matches!(args[1], Expr::Const(_)) => {
            let runs = Runs::new(cx, args);
            Box::new(move |ev, l, f| runs.each(ev, l, &mut |v, l| emit(f, v, l)))
        }
        // A group of cells: listed, as `eval` lists it (see `get`), then walked. (`reach` is a
        // walk of cells: `each_cell`.)
        Expr::Call(Builtin::Group, args) if matches!(args[1], Expr::Const(_)) => {
            let list = get(cx, coll);
            Box::new(move |ev, l, f| {
                let cells = list(ev, l);
                ev.each_of(cells, l, &mut |v, l| emit(f, v, l));
            })
        }
        Expr::Seats => Box::new(|ev, l, f| {
            for p in 0..ev.s.players {
                if !ev.s.eliminated[p as usize] && !emit(f, Value::Seat(p), l) {
                    return;
                }
            }
        }),
        // Filtered as it is walked, as `for_each` does, the condition compiled.
        Expr::Comprehension(slot, coll, cond) => {
            let (slot, coll) = (*slot as usize, each(cx, coll));
            let cond = cond.as_deref().map(|c| truth(cx, c));
            Box::new(move |ev, l, f| {
                coll(ev, l, &mut |v, l| {
                    filter_item(ev, l, slot, cond.as_ref(), v, |v, l| emit(f, v, l))
                })
            })
        }
        // What `for_each` does not walk in place (a zone, a list a variable holds, an
        // `if`): computed, then its items walked, as `for_each` does.
        other if !Eval::walked_in_place(other) => {
            let value = get(cx, other);
            Box::new(move |ev, l, f| {
                let v = value(ev, l);
                ev.each_of(v, l, &mut |x, l| emit(f, x, l));
            })
        }
        other => {
            let other = cx.copy(other);
            Box::new(move |ev, l, f| ev.for_each(&other, l, f))
        }
    }
}

/// The items of a local that is part of a join (`a + b`), as `Eval::each_joined` gives
/// them, each handed on as it is read: the locals are lent to the walk between items, so
/// nothing is copied out first but the scalar at hand (a run, a zone, a list's item).
/// Whether the walk went on to the end.
fn each_joined_local(
    ev: &Eval,
    l: &mut [Value],
    slot: usize,
    f: &mut dyn FnMut(Value, &mut [Value]) -> bool,
) -> bool {
    let Value::List(items) = &l[slot] else {
        // A run or a zone (a string or a route gives nothing).
        if l[slot].owns_heap() {
            return true;
        }
        let v = l[slot].clone();
        return ev.each_joined(&v, &mut |x| emit(f, x, l));
    };
    for i in 0..items.len() {
        let item = match &l[slot] {
            Value::List(items) => items.get(i).map(pool::dup),
            _ => None,
        };
        let go_on = match item {
            // A zone among the items gives its components.
            Some(zone @ Value::Zone(..)) => ev.each_joined(&zone, &mut |x| emit(f, x, l)),
            Some(v) => emit(f, v, l),
            None => return true,
        };
        if !go_on {
            return false;
        }
    }
    true
}

/// One item of a comprehension as it is filtered (walked or made as a list): set in the
/// comprehension's local, then handed to `keep` if the condition holds, given back if not;
/// whether the walk goes on.
#[inline(always)]
fn filter_item(
    ev: &Eval,
    l: &mut [Value],
    slot: usize,
    cond: Option<&Cond>,
    v: Value,
    keep: impl FnOnce(Value, &mut [Value]) -> bool,
) -> bool {
    pool::assign(&mut l[slot], &v);
    if cond.is_none_or(|c| c(ev, l)) {
        keep(v, l)
    } else {
        pool::recycle(v);
        true
    }
}

/// Counts a collection's items as they are walked, up to `enough` (a walk of cells makes
/// no value for them).
type Counter = Box<dyn Fn(&Eval, &mut [Value], i64) -> i64 + Send + Sync>;

/// `occupied` (`Some(None)`) or `cells_of(seat)` (`Some(Some(seat))`), not remembered: a
/// row of the state's index of occupied cells (see `whose`), which `size`, `group` and
/// `runs` read whole.
fn occupied_row(cx: &mut Cx, coll: &Expr) -> Option<Option<Arg>> {
    match coll {
        _ if cx.remembered(coll) => None,
        Expr::Occupied => Some(None),
        Expr::CellsOf(p) => Some(Some(Arg::new(cx, p))),
        _ => None,
    }
}

fn counter(cx: &mut Cx, coll: &Expr) -> Counter {
    // The occupied cells, or a seat's: counted in the state's index, each cell counted
    // (up to `enough`) a step, as walking them charges it.
    if let Some(seat) = occupied_row(cx, coll) {
        return Box::new(move |ev, l, enough| {
            let n = (ev.s.count_occupied_by(whose(&seat, ev, l)) as i64).min(enough);
            budget::charge(n as u64);
            n
        });
    }
    // A walk of cells (`occupied`, `cells_of(p)`, `destinations(...)`, a comprehension
    // over one): counted in the walk's own loop, each cell charged as the walk charges it.
    struct Count;
    impl CellsTo<Counter> for Count {
        fn to<C: Cells>(self, _: &mut Cx, cells: C) -> Counter {
            Box::new(move |ev, l, enough| {
                let mut n = 0;
                cells.walk(ev, l, &mut |_, _| {
                    n += 1;
                    n < enough
                });
                n
            })
        }
    }
    if let Ok(count) = with_cells(cx, coll, Count) {
        return count;
    }
    // A local (a run, a list, a zone) is counted where it stands, an item charged as
    // `Eval::for_each` charges each one it hands on, without handing them on.
    if let Expr::Local(slot) = *coll {
        let slot = slot as usize;
        return Box::new(move |ev, l, enough| {
            let n = match l[slot] {
                Value::List(ref items) => items.len() as i64,
                Value::Zone(z, seat, k) => {
                    ev.s.zones[ev.eng.zone_instance(z, seat, k) as usize].len() as i64
                }
                ref line @ Value::Line { .. } => {
                    // As many of its cells as stand on the board, up to `enough`.
                    let mut n = 0;
                    geometry::each_line_cell(line, &ev.eng.game.board, |_| {
                        n += 1;
                        n < enough
                    });
                    n
                }
                _ => 0,
            }
            .min(enough);
            if budget::charge(n as u64) {
                n
            } else {
                0
            }
        });
    }
    let items = each(cx, coll);
    Box::new(move |ev, l, enough| {
        let mut n = 0;
        items(ev, l, &mut |v, _| {
            pool::recycle(v);
            n += 1;
            n < enough
        });
        n
    })
}

/// A walk of cells: each cell is handed on as its number, charged to the budget as `emit`
/// charges an item; no value is made for it, so a `choose` or a quantifier over it writes
/// the cell into its local in place.
type EachCell =
    Box<dyn Fn(&Eval, &mut [Value], &mut dyn FnMut(u16, &mut [Value]) -> bool) + Send + Sync>;

/// Passes one cell of a walk on, charged as `emit` charges an item.
#[inline(always)]
fn emit_cell(f: &mut dyn FnMut(u16, &mut [Value]) -> bool, c: u16, l: &mut [Value]) -> bool {
    budget::charge(1) && f(c, l)
}

/// The cells a collection gives, as numbers, for the built-ins that read only cells
/// (`runs`, `group`): a walk of cells as it is, any other walk with its other items
/// passed over (as `Eval::for_each` hands them and the evaluator skips them).
fn cells_in(cx: &mut Cx, coll: &Expr) -> EachCell {
    if let Some(cells) = each_cell(cx, coll) {
        return cells;
    }
    let items = each(cx, coll);
    // A remembered comprehension: its cells read out of the remembered list as numbers.
    let remembered = match coll {
        Expr::Comprehension(..) if cx.remembered(coll) => Some(cx.copy(coll)),
        _ => None,
    };
    Box::new(move |ev, l, f| {
        if remembered
            .as_ref()
            .is_some_and(|coll| ev.remembered_cells(coll, l, f))
        {
            return;
        }
        items(ev, l, &mut |v, l| match v {
            Value::Cell(c) => f(c, l),
            other => {
                pool::recycle(other);
                true
            }
        })
    })
}

/// The commonest walks of cells, which a `choose` takes into its own loop (the cells
/// handed to it without a call through a pointer each): the cells around or along lines
/// from a cell (`adjacent`, `slide`, `sight` in directions written in the rules), those
/// reached through empty cells (`reach`), the cells with a piece, or with a seat's piece
/// (`occupied`, `cells_of`), a piece's destinations or attacks, the board's cells and a
/// region's. Each charged as
/// `Eval::for_each` charges it.
enum CellWalk {
    From(Builtin, Arg, Vec<u8>),
    Reach(Arg, Vec<u8>),
    Occupied(Option<Arg>),
    /// A piece's destinations (false) or attacks (true): the cell, the pattern.
    Moves(bool, Arg, Arg),
    /// The board's cells (those its areas' shapes lay out now).
    Board,
    /// A region's cells in its order (the seat's, for a region per seat).
    Region(usize, Option<Arg>),
}

impl CellWalk {
    fn new(cx: &mut Cx, coll: &Expr) -> Option<CellWalk> {
        if cx.remembered(coll) {
            return None;
        }
        Some(match coll {
            Expr::Call(b @ (Builtin::Adjacent | Builtin::Slide | Builtin::Sight), args)
                if matches!(args[1], Expr::Const(_)) =>
            {
                CellWalk::From(*b, Arg::new(cx, &args[0]), const_dirs(&args[1]))
            }
            Expr::Call(Builtin::Reach, args) if matches!(args[1], Expr::Const(_)) => {
                CellWalk::Reach(Arg::new(cx, &args[0]), const_dirs(&args[1]))
            }
            Expr::Cells => CellWalk::Board,
            Expr::Region(r, seat) => {
                CellWalk::Region(*r as usize, seat.as_deref().map(|p| Arg::new(cx, p)))
            }
            Expr::Occupied => CellWalk::Occupied(None),
            Expr::CellsOf(p) => CellWalk::Occupied(Some(Arg::new(cx, p))),
            Expr::Call(b @ (Builtin::Destinations | Builtin::Attacks), args) => CellWalk::Moves(
                *b == Builtin::Attacks,
                Arg::new(cx, &args[0]),
                Arg::new(cx, &args[1]),
            ),
            _ => return None,
        })
    }

    /// Hands each cell to `f` (after its step), while `f` says to go on.
    #[inline(always)]
    fn each<F: FnMut(u16, &mut [Value]) -> bool + ?Sized>(
        &self,
        ev: &Eval,
        l: &mut [Value],
        f: &mut F,
    ) {
        match self {
            CellWalk::From(b, cell, dirs) => {
                if !budget::charge(1) {
                    return;
                }
                let Some(c) = cell.cell(ev, l) else {
                    return;
                };
                let (board, occ) = (&ev.eng.game.board, &ev.s.cells);
                geometry::from_cell(*b, board, occ, c, dirs, &mut |x| {
                    budget::charge(1) && f(x, l)
                });
            }
            // The cells reached by steps through empty cells, found as numbers and handed
            // on one at a time, charged as `get` lists them and `Eval::each_of` walks the
            // list: the node, the cell, the list's length, then each item.
            CellWalk::Reach(cell, dirs) => {
                if !budget::charge(1) {
                    return;
                }
                let mut found = pool::Ids::new();
                if let Some(c) = cell.cell(ev, l) {
                    let (board, occ) = (&ev.eng.game.board, &ev.s.cells);
                    geometry::reach_cells(board, occ, c, dirs, &mut found);
                }
                if !budget::list(found.len()) {
                    return;
                }
                for &c in found.iter() {
                    if !(budget::charge(1) && f(c, l)) {
                        return;
                    }
                }
            }
            CellWalk::Board => {
                for c in 0..ev.eng.game.board.cells.len() as u16 {
                    if ev.eng.present(ev.s, c) && !(budget::charge(1) && f(c, l)) {
                        return;
                    }
                }
            }
            CellWalk::Region(r, seat) => {
                let at = seat_or_first(seat, ev, l) as usize;
                if let Some(cells) = ev.eng.game.board.regions[*r].cells.get(at) {
                    for &c in cells {
                        if !(budget::charge(1) && f(c, l)) {
                            return;
                        }
                    }
                }
            }
            // Found one at a time, as `for_each` finds them.
            CellWalk::Moves(attacks, from, pattern) => {
                if !budget::charge(1) {
                    return;
                }
                let c = from.cell(ev, l);
                let p = pattern.with(ev, l, |v| match *v {
                    Value::Pattern(p) => Some(p),
                    _ => None,
                });
                let (Some(c), Some(p)) = (c, p) else {
                    return;
                };
                ev.walk(c)
                    .each_cell(*attacks, c, ev.eng.moves(p), &mut |x| {
                        budget::charge(1) && f(x, l)
                    });
            }
            CellWalk::Occupied(seat) => {
                let only = whose(seat, ev, l);
                ev.s.each_occupied_by(only, |c, _| budget::charge(1) && f(c, l));
            }
        }
    }
}

/// A walk of cells as a loop takes it: a `CellWalk` into the loop itself, any other
/// (`each_cell`) behind a pointer. The loops over cells (`choose`, quantifiers,
/// comprehensions) are written once for both.
trait Cells: Send + Sync + 'static {
    fn walk<F: FnMut(u16, &mut [Value]) -> bool>(&self, ev: &Eval, l: &mut [Value], f: &mut F);
}

impl Cells for CellWalk {
    #[inline(always)]
    fn walk<F: FnMut(u16, &mut [Value]) -> bool>(&self, ev: &Eval, l: &mut [Value], f: &mut F) {
        self.each(ev, l, f)
    }
}

impl Cells for EachCell {
    #[inline(always)]
    fn walk<F: FnMut(u16, &mut [Value]) -> bool>(&self, ev: &Eval, l: &mut [Value], f: &mut F) {
        self(ev, l, f)
    }
}

/// `coll` as a walk of cells, if it is one, handed to `go` as the type it has; `go` given
/// back if `coll` is none.
fn with_cells<R, G: CellsTo<R>>(cx: &mut Cx, coll: &Expr, go: G) -> Result<R, G> {
    if let Some(walk) = CellWalk::new(cx, coll) {
        return Ok(go.to(cx, walk));
    }
    match each_cell(cx, coll) {
        Some(cells) => Ok(go.to(cx, cells)),
        None => Err(go),
    }
}

/// What is made of a walk of cells, whichever type it has (see `with_cells`), compiling
/// what it needs after the walk.
trait CellsTo<R> {
    fn to<C: Cells>(self, cx: &mut Cx, cells: C) -> R;
}

/// The walks that give only cells, as `Eval::for_each` walks them: the cells around or
/// along lines from a cell, the board's cells, those with a piece or a seat's pieces, a
/// piece's destinations or attacks, and a comprehension over any of these.
fn each_cell(cx: &mut Cx, coll: &Expr) -> Option<EachCell> {
    if cx.remembered(coll) {
        return None;
    }
    if let Some(walk) = CellWalk::new(cx, coll) {
        return Some(Box::new(move |ev, l, f| walk.each(ev, l, f)));
    }
    match coll {
        // The cells judged as a set, where the condition allows (`masks.rs`); else
        // filtered as they are walked, as `for_each` does, the condition compiled.
        Expr::Comprehension(slot, inner, cond) => {
            if let Some(filter) = cond
                .as_deref()
                .and_then(|c| masks::Filter::new(cx, inner, *slot, c))
            {
                return Some(Box::new(move |ev, l, f| filter.each(ev, l, f)));
            }
            struct Filtered<'e>(usize, Option<&'e Expr>);
            impl CellsTo<EachCell> for Filtered<'_> {
                fn to<C: Cells>(self, cx: &mut Cx, cells: C) -> EachCell {
                    let (slot, cond) = (self.0, self.1.map(|c| truth(cx, c)));
                    Box::new(move |ev, l, f| {
                        cells.walk(ev, l, &mut |c, l: &mut [Value]| {
                            pool::set(&mut l[slot], Value::Cell(c));
                            !cond.as_ref().is_none_or(|t| t(ev, l)) || emit_cell(f, c, l)
                        })
                    })
                }
            }
            with_cells(cx, inner, Filtered(*slot as usize, cond.as_deref())).ok()
        }
        _ => None,
    }
}

/// `e` compiled to give a number where it can (see `Int`): a short read or `distance`,
/// charged as `get` charges them. `None` for anything else, or a remembered node.
fn int(cx: &mut Cx, e: &Expr) -> Option<Int> {
    if cx.remembered(e) {
        return None;
    }
    if let Some(read) = reads::int(cx, e) {
        return Some(read);
    }
    let Expr::Call(Builtin::Distance, args) = e else {
        return None;
    };
    let (x, y) = (Arg::new(cx, &args[0]), Arg::new(cx, &args[1]));
    // Two cells held in locals (the common case): the node and both locals charged at
    // once, the cells read where they stand.
    if let (Arg::Local(a), Arg::Local(b)) = (&x, &y) {
        let (a, b) = (*a, *b);
        return Some(Box::new(move |ev, l| {
            if let (Value::Cell(p), Value::Cell(q)) = (&l[a], &l[b]) {
                return if budget::charge(3) {
                    Ok(geometry::distance(&ev.eng.game.board, *p, *q))
                } else {
                    Err(Value::None)
                };
            }
            distance(ev, l, &x, &y)
        }));
    }
    Some(Box::new(move |ev, l| distance(ev, l, &x, &y)))
}

/// `distance(x, y)` as `get` computes it: the node's step, then each operand's.
fn distance(ev: &Eval, l: &mut [Value], x: &Arg, y: &Arg) -> Result<i64, Value> {
    if !budget::charge(1) {
        return Err(Value::None);
    }
    match (x.cell(ev, l), y.cell(ev, l)) {
        (Some(a), Some(c)) => Ok(geometry::distance(&ev.eng.game.board, a, c)),
        _ => Err(Value::None),
    }
}

/// `a op b` where one side is a number `int` computes and the other another, a local or
/// a constant: compared as numbers when both are, else as `ops::compare` compares the
/// values. The operands are computed and charged in the order of the closure `truth`
/// makes otherwise (a computed operand before one seen in place).
fn numbers(cx: &mut Cx, op: BinOp, a: &Expr, b: &Expr) -> Option<Cond> {
    let in_place =
        |e: &Expr| matches!(e, Expr::Local(_)) || matches!(e, Expr::Const(v) if !v.owns_heap());
    let number = |r: Result<i64, Value>| r.map_or_else(|v| v, Value::Int);
    let judged = move |x: Result<i64, Value>, y: &Value| match (x, y) {
        (Ok(p), Value::Int(q)) => ops::ordered(op, p.cmp(q)),
        (x, y) => {
            let x = number(x);
            let t = compared(op, &x, y);
            pool::recycle(x);
            t
        }
    };
    if in_place(b) && !in_place(a) {
        let (a, b) = (int(cx, a)?, Arg::new(cx, b));
        return Some(Box::new(move |ev, l| {
            if !budget::charge(1) {
                return false;
            }
            let x = a(ev, l);
            judged(x, b.seen(l))
        }));
    }
    // `3 < x` as `x > 3`: the computed side first either way.
    if in_place(a) && !in_place(b) {
        return numbers(cx, mirrored(op), b, a);
    }
    if in_place(a) || in_place(b) {
        return None;
    }
    let (a, b) = (int(cx, a)?, int(cx, b)?);
    Some(Box::new(move |ev, l| {
        if !budget::charge(1) {
            return false;
        }
        let x = a(ev, l);
        let y = b(ev, l);
        match (x, y) {
            (Ok(p), Ok(q)) => ops::ordered(op, p.cmp(&q)),
            (x, y) => {
                let (x, y) = (number(x), number(y));
                let t = compared(op, &x, &y);
                pool::recycle(x);
                pool::recycle(y);
                t
            }
        }
    }))
}

/// The comparison that holds of `b` and `a` where `op` holds of `a` and `b`.
fn mirrored(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        other => other,
    }
}

/// `ops::compare`, with the comparisons the rules make most (two cells, numbers, seats
/// or phases, and nothing against anything) judged here rather than in a call.
#[inline(always)]
fn compared(op: BinOp, x: &Value, y: &Value) -> bool {
    match (x, y) {
        (Value::Cell(p), Value::Cell(q)) => ops::ordered(op, p.cmp(q)),
        (Value::Int(p), Value::Int(q)) => ops::ordered(op, p.cmp(q)),
        // Phases are equal or not (`phase != p`).
        (Value::Phase(p), Value::Phase(q)) if matches!(op, BinOp::Eq | BinOp::Ne) => {
            (p == q) == (op == BinOp::Eq)
        }
        (Value::Seat(p), Value::Seat(q)) => ops::ordered(op, p.cmp(q)),
        // Nothing (an empty cell's owner, a variable not set) against anything: equal
        // only to nothing, and unordered, as `ops::compare` has them.
        (Value::None, y) | (y, Value::None) => match op {
            BinOp::Eq => matches!(y, Value::None),
            BinOp::Ne => !matches!(y, Value::None),
            _ => false,
        },
        _ => ops::compare(op, x, y),
    }
}

/// Whether a condition holds, as `Eval::truth` judges it.
fn truth(cx: &mut Cx, e: &Expr) -> Cond {
    if cx.remembered(e) {
        let e = cx.copy(e);
        return Box::new(move |ev, l| ev.truth(&e, l));
    }
    truth_node(cx, e)
}

/// `truth` of a node, remembered or not (see `get_node`).
fn truth_node(cx: &mut Cx, e: &Expr) -> Cond {
    match e {
        Expr::Binary(op @ (BinOp::And | BinOp::Or), ..) => chain(cx, *op == BinOp::And, e),
        Expr::Binary(
            op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge),
            a,
            b,
        ) => {
            // `size(coll) > 0` and the like: the evaluator walks `coll` only until the
            // answer is known (see `Eval::size_against`).
            if let Some((size, coll, k, op)) = super::eval::size_against_number(*op, a, b) {
                if cx.remembered(size) {
                    let e = cx.copy(e);
                    return Box::new(move |ev, l| ev.truth(&e, l));
                }
                let (count, enough) = (counter(cx, coll), k.saturating_add(1));
                return Box::new(move |ev, l| {
                    // The comparison's step and its two operands', as `eval` charges them.
                    if !budget::charge(3) {
                        return false;
                    }
                    let n = if enough > 0 { count(ev, l, enough) } else { 0 };
                    ops::ordered(op, n.cmp(&k))
                });
            }
            // A short read compared with a local, `me`, a constant or a read of one hop: one
            // closure.
            if let Some(j) = reads::judged(cx, e) {
                return j.alone();
            }
            // Numbers compared as numbers (`distance(a, b) <= 10`).
            if let Some(c) = numbers(cx, *op, a, b) {
                return c;
            }
            let (op, a, b) = (*op, Arg::new(cx, a), Arg::new(cx, b));
            // Two locals (`a < b`, `x != dest`): the node and both locals charged at once,
            // each seen where it stands (a list charged its length, as `get` charges it).
            if let (Arg::Local(x), Arg::Local(y)) = (&a, &b) {
                let (x, y) = (*x, *y);
                return Box::new(move |_, l| {
                    if !budget::charge(3) {
                        return false;
                    }
                    let (p, q) = (&l[x], &l[y]);
                    listed(p) && listed(q) && compared(op, p, q)
                });
            }
            Box::new(move |ev, l| {
                if !budget::charge(1) {
                    return false;
                }
                // A computed operand first, so that the other can be seen in place.
                match (&a, &b) {
                    (Arg::Get(a), Arg::Get(b)) => {
                        // Each made where it stays: a pair would copy them again.
                        let x = a(ev, l);
                        let y = b(ev, l);
                        let t = compared(op, &x, &y);
                        pool::recycle(x);
                        pool::recycle(y);
                        t
                    }
                    (Arg::Get(a), b) => {
                        let x = a(ev, l);
                        let t = compared(op, &x, b.seen(l));
                        pool::recycle(x);
                        t
                    }
                    (a, Arg::Get(b)) => {
                        let y = b(ev, l);
                        let t = compared(op, a.seen(l), &y);
                        pool::recycle(y);
                        t
                    }
                    (a, b) => compared(op, a.seen(l), b.seen(l)),
                }
            })
        }
        // As `eval` judges `in`: a step for the node, then the items until one is equal.
        Expr::Binary(op @ (BinOp::In | BinOp::NotIn), a, b) => {
            // A cell among a piece's destinations or attacks: its operands read compiled,
            // the pattern asked as `Eval::find` asks it (`Eval::reaches`).
            if let Expr::Call(call @ (Builtin::Destinations | Builtin::Attacks), args) = &**b {
                if cx.remembered(b) {
                    let e = cx.copy(e);
                    return Box::new(move |ev, l| ev.truth(&e, l));
                }
                let (attacks, want) = (*call == Builtin::Attacks, *op == BinOp::In);
                // Operands held in locals (the common case) are seen where they stand.
                let (item, from, pat) = (
                    Arg::new(cx, a),
                    Arg::new(cx, &args[0]),
                    Arg::new(cx, &args[1]),
                );
                // Anything but a cell is looked for as `eval` looks (`Eval::member`).
                let coll = cx.copy(b);
                return Box::new(move |ev, l| {
                    // The node's step; then as `Eval::find` charges: the call's, its two
                    // arguments', the cells looked at.
                    if !budget::charge(1) {
                        return false;
                    }
                    let x = item.with(ev, l, |x| match *x {
                        Value::Cell(target) => Ok(target),
                        ref other => Err(pool::dup(other)),
                    });
                    let found = match x {
                        Ok(target) => {
                            budget::charge(1) && {
                                let c = from.cell(ev, l);
                                let p = pat.with(ev, l, |v| match *v {
                                    Value::Pattern(p) => Some(p),
                                    _ => None,
                                });
                                match (c, p) {
                                    (Some(c), Some(p)) => ev.reaches(attacks, c, p, target),
                                    _ => false,
                                }
                            }
                        }
                        Err(x) => {
                            let found = ev.member(&x, &coll, l);
                            pool::recycle(x);
                            found
                        }
                    };
                    found == want
                });
            }
            let want = *op == BinOp::In;
            // A short read in a list written in the rules: one closure.
            if let Some(j) = reads::judged(cx, e) {
                return j.alone();
            }
            // A cell in a region: its place on the region's list looked up, charged as the
            // walk up to it would be (see `Engine::region_place`).
            if let Expr::Region(r, seat) = &**b {
                let (r, item) = (*r as usize, Arg::new(cx, a));
                let seat = seat.as_deref().map(|p| Arg::new(cx, p));
                return Box::new(move |ev, l| {
                    if !budget::charge(1) {
                        return false;
                    }
                    // Only a cell can be on a region's list.
                    let x = item.cell(ev, l).map_or(Value::None, Value::Cell);
                    let list = seat_or_first(&seat, ev, l) as usize;
                    let found = match ev.eng.region_place(r, list, &x) {
                        Some((found, looked)) => budget::charge(looked) && found,
                        None => false,
                    };
                    found == want
                });
            }
            let walked = {
                let (item, coll) = (get(cx, a), each(cx, b));
                move |ev: &Eval, l: &mut [Value]| {
                    if !budget::charge(1) {
                        return false;
                    }
                    let item = item(ev, l);
                    let mut found = false;
                    coll(ev, l, &mut |v, _| {
                        found = v == item;
                        pool::recycle(v);
                        !found
                    });
                    pool::recycle(item);
                    found == want
                }
            };
            // A list in a local or written in the rules is searched where it stands, as
            // `Eval::find` does (a local that is no list is walked).
            let list = match &**b {
                Expr::Local(slot) => Arg::Local(*slot as usize),
                Expr::Const(v @ Value::List(_)) => Arg::Const(v.clone()),
                _ => return Box::new(walked),
            };
            let item = Arg::new(cx, a);
            Box::new(move |ev, l| {
                let in_place = |items: &Value, x: &Value| match items {
                    Value::List(items) => super::eval::among(items, x),
                    _ => false,
                };
                if !matches!(list.seen_uncharged(l), Value::List(_)) {
                    return walked(ev, l);
                }
                if !budget::charge(1) {
                    return false;
                }
                let found = match &item {
                    Arg::Get(g) => {
                        let x = g(ev, l);
                        let found = in_place(list.seen_uncharged(l), &x);
                        pool::recycle(x);
                        found
                    }
                    a => in_place(list.seen_uncharged(l), a.seen(l)),
                };
                found == want
            })
        }
        Expr::Not(x) => {
            // `not` of a short read: one closure.
            if let Some(j) = reads::judged(cx, e) {
                return j.alone();
            }
            let x = truth(cx, x);
            Box::new(move |ev, l| budget::charge(1) && !x(ev, l))
        }
        // As `eval` judges a quantifier: a step for the node, then the items.
        Expr::Quant(q, slot, coll, body) => {
            // Over a walk of cells: each written into the local in place.
            struct Quantified<'e>(Quant, usize, &'e Expr);
            impl CellsTo<Cond> for Quantified<'_> {
                fn to<C: Cells>(self, cx: &mut Cx, cells: C) -> Cond {
                    let (q, slot, body) = (self.0, self.1, truth(cx, self.2));
                    Box::new(move |ev, l| {
                        if !budget::charge(1) {
                            return false;
                        }
                        let mut result = q != Quant::Any;
                        cells.walk(ev, l, &mut |c, l: &mut [Value]| {
                            pool::set(&mut l[slot], Value::Cell(c));
                            let t = body(ev, l);
                            ops::quantify(q, t, &mut result)
                        });
                        result
                    })
                }
            }
            if let Some(cond) = masks::quantified(cx, *q, *slot, coll, body) {
                return cond;
            }
            if let Ok(cond) = with_cells(cx, coll, Quantified(*q, *slot as usize, body)) {
                return cond;
            }
            if let Some(cond) = runs_by_size(cx, *q, *slot, coll, body) {
                return cond;
            }
            // Over a list in a local: walked in place (see `local_items`).
            if let Expr::Local(from) = **coll {
                let (q, slot, body) = (*q, *slot as usize, truth(cx, body));
                let (from, domain) = (from as usize, (**coll).clone());
                return Box::new(move |ev, l| {
                    if !budget::charge(1) {
                        return false;
                    }
                    let mut result = q != Quant::Any;
                    local_items(ev, l, (from, &domain), slot, |l| {
                        let t = body(ev, l);
                        ops::quantify(q, t, &mut result)
                    });
                    result
                });
            }
            let (q, slot, coll, body) = (*q, *slot as usize, each(cx, coll), truth(cx, body));
            Box::new(move |ev, l| {
                if !budget::charge(1) {
                    return false;
                }
                let mut result = q != Quant::Any;
                coll(ev, l, &mut |v, l| {
                    pool::set(&mut l[slot], v);
                    let t = body(ev, l);
                    ops::quantify(q, t, &mut result)
                });
                result
            })
        }
        // Any other value, judged as `truth` judges it: by its value's truthiness.
        other => {
            if let Some(j) = reads::judged(cx, other) {
                return j.alone();
            }
            let value = get(cx, other);
            Box::new(move |ev, l| {
                let v = value(ev, l);
                let t = v.truthy();
                pool::recycle(v);
                t
            })
        }
    }
}

/// A quantifier over runs of cells whose body reads its run only as `size(r)` (`any r in
/// runs(cells_of(me), around): size(r) >= 4`): the runs walked as `for_each` walks them,
/// each charged to the budget, but the body judged once for each size, and every other
/// run of that size charged the steps that judgement took. `None` for another quantifier.
fn runs_by_size(cx: &mut Cx, q: Quant, slot: u16, coll: &Expr, body: &Expr) -> Option<Cond> {
    let Expr::Call(Builtin::Runs, args) = coll else {
        return None;
    };
    if !matches!(args[1], Expr::Const(_)) || !reads_size_only(cx, body, slot) {
        return None;
    }
    let (runs, body, slot) = (Runs::new(cx, args), truth(cx, body), slot as usize);
    Some(Box::new(move |ev, l| {
        if !budget::charge(1) {
            return false;
        }
        let mut result = q != Quant::Any;
        // The sizes judged (a bit each), those the body holds for, and the steps each took.
        let (mut judged, mut holds, mut steps) = (0u64, 0u64, [0u64; 64]);
        runs.each(ev, l, &mut |v, l| {
            if !budget::charge(1) {
                return false;
            }
            let size = match v {
                Value::Line { len, .. } => len as usize,
                _ => 0,
            };
            let t = if size < 64 && judged & (1 << size) != 0 {
                if !budget::charge(steps[size]) {
                    return false;
                }
                holds & (1 << size) != 0
            } else {
                let before = budget::left();
                pool::set(&mut l[slot], v);
                let t = body(ev, l);
                if budget::spent() {
                    return false;
                }
                if size < 64 {
                    judged |= 1 << size;
                    holds |= u64::from(t) << size;
                    steps[size] = before.abs_diff(budget::left());
                }
                t
            };
            ops::quantify(q, t, &mut result)
        });
        result
    }))
}

/// `runs(CELLS, DIRS)` with the directions written in the rules: the cells compiled, the
/// axes worked out once (`geometry::run_axes`).
struct Runs {
    /// The cells: a row of the occupancy index for `occupied` or `cells_of(seat)` (see
    /// `occupied_row`), read whole, each cell charged as walking it is; or walked.
    cells: Result<Option<Arg>, EachCell>,
    axes: geometry::Axes,
}

impl Runs {
    fn new(cx: &mut Cx, args: &[Expr]) -> Runs {
        Runs {
            axes: geometry::run_axes(cx.board, &const_dirs(&args[1])),
            cells: occupied_row(cx, &args[0]).ok_or_else(|| cells_in(cx, &args[0])),
        }
    }

    /// Each run, one at a time, as `for_each` makes them, while `f` says to go on.
    #[inline(always)]
    fn each(&self, ev: &Eval, l: &mut [Value], f: &mut impl FnMut(Value, &mut [Value]) -> bool) {
        let mut found = pool::take_cells();
        match &self.cells {
            Ok(seat) => {
                let seat = whose_read_whole(seat, ev, l);
                ev.s.each_occupied_by(seat, |c, _| {
                    found.push(c);
                    true
                });
            }
            Err(cells) => cells(ev, l, &mut |c, _| {
                found.push(c);
                true
            }),
        }
        geometry::runs_along(&ev.eng.game.board, &found, &self.axes, &mut |v| f(v, l));
        pool::give_cells(found);
    }
}

/// Whether `e` reads the local `slot` only as `size(slot)`, and holds no node remembered
/// within a query (whose first evaluation charges steps that later ones do not).
fn reads_size_only(cx: &Cx, e: &Expr, slot: u16) -> bool {
    if cx.remembered(e) {
        return false;
    }
    match e {
        Expr::Call(Builtin::Size, args) if matches!(args[..], [Expr::Local(s)] if s == slot) => {
            true
        }
        Expr::Local(s) => *s != slot,
        other => {
            let mut only = true;
            other.each_child(&mut |c| only = only && reads_size_only(cx, c, slot));
            only
        }
    }
}

/// A chain of `and`s (`and` true) or of `or`s, `a and b and c`: the conditions along its
/// left spine (`(a and b) and c`), each judged with the rest of the chain in one closure
/// (`Judgement::then`: a condition on a short read is judged inside it). `eval` charges
/// every node of the spine before it judges the first condition: the first closure
/// charges them all.
fn chain(cx: &mut Cx, and: bool, e: &Expr) -> Cond {
    let op = if and { BinOp::And } else { BinOp::Or };
    // The conditions in order; a node of the chain remembered within a query is one of
    // them, judged by the memo.
    let mut parts = Vec::new();
    let mut at = e;
    while let Expr::Binary(o, a, b) = at {
        if *o != op || (!std::ptr::eq(at, e) && cx.remembered(at)) {
            break;
        }
        parts.push(&**b);
        at = a;
    }
    parts.push(at);
    let nodes = parts.len() as u64 - 1;
    let mut rest = truth(cx, parts[0]);
    for (i, part) in parts.iter().enumerate().skip(1) {
        let charge = if i == parts.len() - 1 { nodes } else { 0 };
        rest = match reads::judged(cx, part) {
            Some(j) => j.then(and, charge, rest),
            None if and => joined::<true>(charge, truth(cx, part), rest),
            None => joined::<false>(charge, truth(cx, part), rest),
        };
    }
    rest
}

/// `first` judged before `rest` in a chain of `and`s (`AND`) or `or`s, `charge` steps
/// charged first (see `chain`).
fn joined<const AND: bool>(charge: u64, first: Cond, rest: Cond) -> Cond {
    Box::new(move |ev, l| chained::<AND>(charge, l, |l| first(ev, l), |l| rest(ev, l)))
}

/// One link of a chain of `and`s (`AND`) or `or`s: `charge` steps (none but for the
/// chain's first condition), then `first`, then `rest` if the answer is not known yet.
#[inline(always)]
fn chained<const AND: bool>(
    charge: u64,
    l: &mut [Value],
    first: impl FnOnce(&mut [Value]) -> bool,
    rest: impl FnOnce(&mut [Value]) -> bool,
) -> bool {
    (charge == 0 || budget::charge(charge))
        && if AND {
            first(l) && rest(l)
        } else {
            first(l) || rest(l)
        }
}

/// The value of an expression, as `Eval::eval` gives it, for the reads conditions are
/// mostly made of; the rest goes to the evaluator.
fn get(cx: &mut Cx, e: &Expr) -> Get {
    if cx.remembered(e) {
        // Computed already in this query (the common case): the value looked up at once.
        let e = cx.copy(e);
        return Box::new(move |ev, l| ev.remembered_done(&e).unwrap_or_else(|| ev.eval(&e, l)));
    }
    get_node(cx, e)
}

/// `get` of a node, remembered or not: what computes a remembered node's value the first
/// time a query asks for it (`Plans::computer`).
fn get_node(cx: &mut Cx, e: &Expr) -> Get {
    // A piece, an owner, an attribute, a variable: a hop, taken by `reads.rs`.
    if let Some(read) = reads::read(cx, e) {
        return read;
    }
    if let Some(hop) = reads::hop(cx, e) {
        return hop;
    }
    if let Expr::Call(Builtin::Along, args) = e {
        if let Expr::Region(r, seat) = &args[0] {
            if cx.board.regions.get(*r as usize).is_some_and(|x| x.path) {
                return along_path(cx, *r, seat.as_deref(), args);
            }
        }
    }
    match e {
        Expr::Const(v) if !v.owns_heap() => {
            let v = v.clone();
            node(move |_, _| v.clone())
        }
        // A list written in the rules: a copy from the pool.
        Expr::Const(v) => {
            let v = v.clone();
            node(move |_, _| kept(pool::dup(&v)))
        }
        Expr::Local(slot) => {
            let slot = *slot as usize;
            node(move |_, l| copied(&l[slot]))
        }
        // A join (`a + b`) made as `Eval::call` makes it, its parts read where they stand.
        Expr::Call(Builtin::Concat, parts) => {
            let parts: Vec<Arg> = parts.iter().map(|p| Arg::new(cx, p)).collect();
            node(move |ev, l| {
                let mut out = pool::take();
                for p in &parts {
                    let mut push = |v| {
                        out.push(v);
                        true
                    };
                    p.with(ev, l, |v| ev.each_joined(v, &mut push));
                }
                kept(Value::List(out))
            })
        }
        Expr::Me => node(|ev, _| Value::Seat(ev.me)),
        // As `eval` makes an aggregate: a step for the node, then the items.
        Expr::Agg(agg, slot, coll, body) => {
            let (agg, slot, coll) = (*agg, *slot as usize, each(cx, coll));
            let body = match agg {
                Agg::Count => AggBody::Count(truth(cx, body)),
                _ => AggBody::Number(get(cx, body)),
            };
            node(move |ev, l| {
                let mut acc: Option<i64> = None;
                coll(ev, l, &mut |v, l| {
                    pool::set(&mut l[slot], v);
                    let n = match &body {
                        AggBody::Count(counts) => counts(ev, l) as i64,
                        AggBody::Number(value) => {
                            let x = value(ev, l);
                            let n = x.as_int();
                            pool::recycle(x);
                            n
                        }
                    };
                    acc = Some(ops::aggregate(agg, acc, n));
                    true
                });
                Value::Int(acc.unwrap_or(0))
            })
        }
        // A comprehension made as a list, as `eval` makes it: filtered as it is walked.
        // (The items are charged as the collection walks them, not again as they are kept.)
        Expr::Comprehension(slot, coll, cond) => {
            // Cells judged as a set, where the condition allows (`masks.rs`).
            if let Some(filter) = cond
                .as_deref()
                .and_then(|c| masks::Filter::new(cx, coll, *slot, c))
            {
                return node(move |ev, l| {
                    let mut out = pool::take();
                    filter.list(ev, l, &mut out);
                    kept(Value::List(out))
                });
            }
            // Over one of the commonest walks of cells: taken into the loop that filters.
            if let Some(walk) = CellWalk::new(cx, coll) {
                let slot = *slot as usize;
                let cond = cond.as_deref().map(|c| truth(cx, c));
                return node(move |ev, l| {
                    let mut out = pool::take();
                    walk.each(ev, l, &mut |c, l: &mut [Value]| {
                        pool::set(&mut l[slot], Value::Cell(c));
                        if cond.as_ref().is_none_or(|t| t(ev, l)) {
                            out.push(Value::Cell(c));
                        }
                        true
                    });
                    kept(Value::List(out))
                });
            }
            let (slot, coll) = (*slot as usize, each(cx, coll));
            let cond = cond.as_deref().map(|c| truth(cx, c));
            node(move |ev, l| {
                let mut out = pool::take();
                coll(ev, l, &mut |v, l| {
                    filter_item(ev, l, slot, cond.as_ref(), v, |v, _| {
                        out.push(v);
                        true
                    })
                });
                kept(Value::List(out))
            })
        }
        // The cells of a set reached from a cell, as `Eval::call` finds them: the set's
        // members walked (compiled) into a set of cells, or, for occupied cells, a row of
        // the state's index taken whole (each cell the step walking it is).
        Expr::Call(Builtin::Group, args) if matches!(args[1], Expr::Const(_)) => {
            let (cell, dirs) = (get(cx, &args[0]), const_dirs(&args[1]));
            let members = occupied_row(cx, &args[2]).ok_or_else(|| cells_in(cx, &args[2]));
            node(move |ev, l| {
                let Value::Cell(c) = cell(ev, l) else {
                    return Value::List(vec![]);
                };
                let board = &ev.eng.game.board;
                let member = match &members {
                    Ok(seat) => {
                        let seat = whose_read_whole(seat, ev, l);
                        geometry::CellSet::of_words(board.cells.len(), ev.s.occupied_by(seat))
                    }
                    Err(members) => {
                        let mut member = geometry::CellSet::new(board.cells.len());
                        members(ev, l, &mut |x, _| {
                            member.insert(x);
                            true
                        });
                        member
                    }
                };
                let mut out = pool::take();
                geometry::group(board, c, &dirs, &member, &mut out);
                kept(Value::List(out))
            })
        }
        Expr::If(c, a, b) => {
            let (c, a, b) = (truth(cx, c), get(cx, a), get(cx, b));
            node(move |ev, l| kept(if c(ev, l) { a(ev, l) } else { b(ev, l) }))
        }
        // Arithmetic, as `ops::binary` does it.
        Expr::Binary(
            op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem),
            a,
            b,
        ) => {
            let (op, a, b) = (*op, get(cx, a), get(cx, b));
            node(move |ev, l| {
                let x = a(ev, l);
                let y = b(ev, l);
                let v = ops::binary(op, &x, &y, &ev.eng.game.board);
                pool::recycle(x);
                pool::recycle(y);
                v
            })
        }
        // `size`: the items walked and counted, without a list.
        Expr::Call(Builtin::Size, args) => {
            let count = counter(cx, &args[0]);
            node(move |ev, l| Value::Int(count(ev, l, i64::MAX)))
        }
        Expr::GlobalVar(i) => {
            let i = *i as usize;
            node(move |ev, _| copied(&ev.s.globals[i]))
        }
        Expr::TurnSeat => node(|ev, _| Value::Seat(ev.s.turn_seat)),
        Expr::PhaseTurns => node(|ev, _| Value::Int(ev.s.phase_turns as i64)),
        Expr::CurrentPhase => node(|ev, _| Value::Phase(ev.s.phase)),
        // The small built-ins on numbers and cells, as `Eval::call` computes them.
        Expr::Call(b @ (Builtin::Max2 | Builtin::Min2 | Builtin::Distance), args) => {
            let (b, x, y) = (*b, Arg::new(cx, &args[0]), Arg::new(cx, &args[1]));
            node(move |ev, l| match b {
                Builtin::Distance => match (x.cell(ev, l), y.cell(ev, l)) {
                    (Some(a), Some(c)) => Value::Int(geometry::distance(&ev.eng.game.board, a, c)),
                    _ => Value::None,
                },
                _ => {
                    let (m, n) = (x.with(ev, l, Value::as_int), y.with(ev, l, Value::as_int));
                    Value::Int(if b == Builtin::Max2 {
                        m.max(n)
                    } else {
                        m.min(n)
                    })
                }
            })
        }
        // The cells around or along lines from a cell, listed as `Eval::call` lists them.
        Expr::Call(
            b @ (Builtin::Adjacent | Builtin::Slide | Builtin::Sight | Builtin::Reach),
            args,
        ) if matches!(args[1], Expr::Const(_)) => {
            let (b, cell, dirs) = (*b, Arg::new(cx, &args[0]), const_dirs(&args[1]));
            node(move |ev, l| {
                let mut out = pool::take();
                if let Some(c) = cell.cell(ev, l) {
                    let (board, occ) = (&ev.eng.game.board, &ev.s.cells);
                    geometry::list_from_cell(b, board, occ, c, &dirs, &mut out);
                }
                kept(Value::List(out))
            })
        }
        Expr::Call(b @ (Builtin::NextSeat | Builtin::PrevSeat), args) => {
            let (next, p) = (*b == Builtin::NextSeat, Arg::new(cx, &args[0]));
            node(move |ev, l| {
                let p = p.seat(ev, l).unwrap_or(NO_SEAT);
                let n = if next {
                    ev.next_seat(p)
                } else {
                    ev.prev_seat(p)
                };
                if n == NO_SEAT {
                    Value::None
                } else {
                    Value::Seat(n)
                }
            })
        }
        Expr::Opponent => node(|ev, _| Value::Seat(ev.next_seat(ev.me))),
        Expr::Call(Builtin::Abs, args) => {
            let x = Arg::new(cx, &args[0]);
            node(move |ev, l| Value::Int(x.with(ev, l, Value::as_int).saturating_abs()))
        }
        // A condition's value, judged as a condition: `truth` charges each node as
        // `eval` does.
        Expr::Binary(
            BinOp::And
            | BinOp::Or
            | BinOp::Eq
            | BinOp::Ne
            | BinOp::Lt
            | BinOp::Le
            | BinOp::Gt
            | BinOp::Ge
            | BinOp::In
            | BinOp::NotIn,
            ..,
        )
        | Expr::Not(_)
        | Expr::Quant(..) => {
            let c = truth_node(cx, e);
            Box::new(move |ev, l| Value::Bool(c(ev, l)))
        }
        // A zone: by its seat and its number, as `eval` finds it.
        Expr::Zone(z, seat, slot) => {
            let (z, seat) = (*z, seat.as_deref().map(|p| Arg::new(cx, p)));
            let slot = slot.as_deref().map(|n| get(cx, n));
            node(move |ev, l| zone(ev, l, z, &seat, &slot))
        }
        // A zone's first or last component, read where it stands and charged as the walk
        // to it is (see `Eval::call`).
        Expr::Call(b @ (Builtin::First | Builtin::Last), args)
            if matches!(args[0], Expr::Zone(..)) =>
        {
            let (first, zone) = (*b == Builtin::First, get(cx, &args[0]));
            node(move |ev, l| {
                let Value::Zone(z, seat, slot) = zone(ev, l) else {
                    return Value::None;
                };
                let items = &ev.s.zones[ev.eng.zone_instance(z, seat, slot) as usize];
                let (end, passed) = if first {
                    (items.first(), items.len().min(1))
                } else {
                    (items.last(), items.len())
                };
                match end {
                    Some(&c) if budget::charge(passed as u64) => Value::Comp(c),
                    _ => Value::None,
                }
            })
        }
        // Any other collection's first item (its walk stopped there) or last.
        Expr::Call(b @ (Builtin::First | Builtin::Last), args) => {
            let (first, coll) = (*b == Builtin::First, each(cx, &args[0]));
            node(move |ev, l| {
                let mut found = Value::None;
                coll(ev, l, &mut |v, _| {
                    pool::recycle(std::mem::replace(&mut found, v));
                    !first
                });
                kept(found)
            })
        }
        // A list written of expressions (`[passed]`): each item's value, in order.
        Expr::List(items) => {
            let items: Vec<Get> = items.iter().map(|i| get(cx, i)).collect();
            node(move |ev, l| {
                let mut out = pool::take();
                out.extend(items.iter().map(|g| g(ev, l)));
                kept(Value::List(out))
            })
        }
        // A piece's destinations or attacks as a list, as `Eval::call` lists them (a walk
        // of them is `each_cell`'s).
        Expr::Call(b @ (Builtin::Destinations | Builtin::Attacks), args) => {
            let attacks = *b == Builtin::Attacks;
            let (from, pattern) = (Arg::new(cx, &args[0]), Arg::new(cx, &args[1]));
            node(move |ev, l| {
                let c = from.cell(ev, l);
                let p = pattern.with(ev, l, |v| match *v {
                    Value::Pattern(p) => Some(p),
                    _ => None,
                });
                let (Some(c), Some(p)) = (c, p) else {
                    return Value::List(vec![]);
                };
                let mut out = pool::take();
                ev.moves_into(attacks, c, p, &mut out);
                kept(Value::List(out))
            })
        }
        // The paths over links from a cell (boards of areas), as `Eval::call` finds them:
        // the empty cells of `within` reached through empty cells of it, or the occupied
        // cells at the end of a path passing over at most `k` others.
        Expr::Call(Builtin::Reachable, args) => {
            let (cell, within) = (Arg::new(cx, &args[0]), each(cx, &args[1]));
            node(move |ev, l| {
                let Some(c) = cell.cell(ev, l) else {
                    return Value::List(vec![]);
                };
                let member = ev.cells_among(|f| within(ev, l, f));
                let mut out = pool::take();
                ev.eng.reachable(ev.s, c, &member, &mut out);
                kept(Value::List(out))
            })
        }
        Expr::Call(Builtin::Targets, args) => {
            let (cell, k) = (Arg::new(cx, &args[0]), Arg::new(cx, &args[1]));
            node(move |ev, l| {
                let Some(c) = cell.cell(ev, l) else {
                    return Value::List(vec![]);
                };
                let k = k.with(ev, l, Value::as_int);
                let mut out = pool::take();
                ev.eng.targets(ev.s, c, k, &mut out);
                kept(Value::List(out))
            })
        }
        // A cell's place on a board of areas, as `Eval::call` finds it.
        Expr::Call(b @ (Builtin::SeatOf | Builtin::Row | Builtin::Rows), args) => {
            let (b, cell) = (*b, Arg::new(cx, &args[0]));
            node(move |ev, l| {
                let Some(c) = cell.cell(ev, l) else {
                    return if b == Builtin::SeatOf {
                        Value::None
                    } else {
                        Value::Int(0)
                    };
                };
                match b {
                    Builtin::SeatOf => ev.eng.seat_of_cell(c),
                    _ => Value::Int(ev.eng.row_of(ev.s, c, b == Builtin::Rows)),
                }
            })
        }
        // A shape's rows or cells, as `Eval::call` counts them.
        Expr::Call(b @ (Builtin::ShapeRows | Builtin::ShapeSize), args) => {
            let (rows, shape) = (*b == Builtin::ShapeRows, Arg::new(cx, &args[0]));
            node(move |ev, l| {
                let Some(sh) = shape.with(ev, l, |v| match *v {
                    Value::Shape(sh) => ev.eng.game.shapes.get(sh as usize),
                    _ => None,
                }) else {
                    return Value::Int(0);
                };
                Value::Int(if rows {
                    sh.rows.len()
                } else {
                    sh.cell_row.len()
                } as i64)
            })
        }
        // An area's cells in its current shape (its one cell, for an area of one), as
        // `eval` lists them.
        Expr::Area(a, seat) => {
            let (a, seat) = (*a, seat.as_deref().map(|p| Arg::new(cx, p)));
            node(move |ev, l| {
                let seat = seat_or_first(&seat, ev, l);
                kept(ev.eng.area_value(ev.s, a, seat))
            })
        }
        other => {
            let other = cx.copy(other);
            Box::new(move |ev, l| ev.eval(&other, l))
        }
    }
}

/// The zone `z` of a seat (`seat`, for a per-seat zone) and a number (`slot`, for `x N`
/// zones), as `eval` finds it: none for no such seat or number.
fn zone(ev: &Eval, l: &mut [Value], z: u16, seat: &Option<Arg>, slot: &Option<Get>) -> Value {
    let p = seat_or_first(seat, ev, l);
    let n = match slot {
        Some(n) => {
            let v = n(ev, l);
            let n = v.as_int() - 1;
            pool::recycle(v);
            n
        }
        None => 0,
    };
    if p == NO_SEAT || n < 0 || n >= ev.eng.game.zones[z as usize].slots as i64 {
        Value::None
    } else {
        Value::Zone(z, p, n as u16)
    }
}

/// A compiled node: a step of the budget, as `eval` charges each node, then `f`; `none`
/// once the budget is spent.
fn node(f: impl Fn(&Eval, &mut [Value]) -> Value + Send + Sync + 'static) -> Get {
    Box::new(move |ev, l| {
        if budget::charge(1) {
            f(ev, l)
        } else {
            Value::None
        }
    })
}

/// `along(path, cell, k)` on a declared path (region `r`, of `seat`): the cell `k` places
/// along, as `Eval::call` finds it, its place on the path looked up.
fn along_path(cx: &mut Cx, r: u16, seat: Option<&Expr>, args: &[Expr]) -> Get {
    let (r, seat) = (r as usize, seat.map(|p| Arg::new(cx, p)));
    let (path, cell, k) = (
        cx.copy(&args[0]),
        Arg::new(cx, &args[1]),
        Arg::new(cx, &args[2]),
    );
    node(move |ev, l| {
        let Some(c) = cell.cell(ev, l) else {
            return Value::None;
        };
        let k = k.with(ev, l, Value::as_int);
        let seat = seat_or_first(&seat, ev, l) as usize;
        // No such seat's path: walked as `Eval::call` walks a list of cells that is no
        // declared path.
        ev.eng
            .along_path(r, seat, c, k)
            .unwrap_or_else(|| ev.along_list(&path, c, k, l))
    })
}

/// A value as `eval` hands it on: a list is charged its length (and refused past
/// `MAX_LIST`). Inlined, so that the value is not copied in and out again.
#[inline(always)]
fn kept(v: Value) -> Value {
    if !listed(&v) {
        pool::recycle(v);
        return Value::None;
    }
    v
}

/// A copy of a value read where it stands, as `eval` hands it on (see `kept`): a scalar
/// copied straight into the caller's place (made in a temporary first, it would be copied
/// again a field at a time, and those narrow loads stall on the wide stores just made), a
/// list from the pool.
#[inline(always)]
fn copied(v: &Value) -> Value {
    if v.owns_heap() {
        kept(pool::dup(v))
    } else {
        v.clone()
    }
}

/// The directions a constant names (`orthogonal`, `[n, e]`), read once when a plan is
/// built.
fn const_dirs(e: &Expr) -> Vec<u8> {
    match e {
        Expr::Const(d) => Dirs::of(d).as_slice().to_vec(),
        _ => Vec::new(),
    }
}
