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
//!   direction is one step for both (`dirs_then_shifts`), and one loop with a choice of
//!   the run over `runs` straight before them (`runs_dirs_shifts`); a choice of a cell's
//!   neighbour, or of the first occupied cell in sight of it, after the choice of the cell
//!   (and that choice's own `require`, if any), with the `require` after it, is one step,
//!   its condition judged a direction at a time for the whole board once a listing
//!   (`pairs`, `masks/pairs.rs`); a choice of a seat's pieces straight followed by the
//!   choice of their destinations or attacks by a pattern written in the rules is one
//!   step, the mover and its rays found once a listing (`own_moves.rs`); a `require` straight
//!   after a `choose` is judged in the choice's loop (`Guarded`); a `choose` or `require` that is
//!   the action's last clause before a plain `do` records the action itself (`Record`),
//!   where it called the step that records it; a `choose` or a quantifier over a list
//!   held in a local walks it in place (`local_items`);
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
//!   (the checker never binds a chosen local again, and gives the choices consecutive
//!   slots), handed on where they stand: a step takes no buffer of arguments.
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
//!
//! This file holds what the compilers share (the kinds of closure, `Arg`, `Cx`, `Plans`);
//! each kind of thing compiled has its own: an action's clauses (`clauses.rs`), walks of
//! collections and cells (`walks.rs`), conditions (`conditions.rs`), values
//! (`values.rs`), short reads (`reads.rs`), conditions judged for sets of cells
//! (`masks.rs`), lists of cells a `let` keeps that are only searched, never made
//! (`line_lets.rs`), bodies judged on a walk's item in place (`item_tests.rs`), a seat's
//! pieces and their moves walked as one step (`own_moves.rs`) and effects (`bodies.rs`).
use super::best;
use super::budget;
use super::eval::{emit, Dirs, Eval};
use super::geometry;
use super::legal::OnAction;
use super::pool;
use super::profile;
use super::state::NO_SEAT;
use super::subsets::{self, Role};
use crate::ir::{ops, Agg, BinOp, Builtin, Clause, Expr, Game, Quant, Stmt, Type, Value};
use smallvec::SmallVec;

mod bodies;
mod clauses;
mod conditions;
mod item_tests;
mod line_lets;
mod masks;
mod numbers;
mod own_moves;
mod reads;
mod values;
mod walks;
pub(crate) use bodies::{lets_applied, Applied, Applies, Body, Op};
use clauses::*;
use conditions::*;
use own_moves::own_moves;
use values::*;
use walks::*;

/// The rest of an action from one clause on: fills the remaining clauses and passes each
/// complete action to the sink; false stops the whole listing.
pub(crate) type Step = Box<dyn Fn(&Eval, &mut [Value], &mut OnAction<'_>) -> bool + Send + Sync>;
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

/// A value read where it stands, its node's step charged and a list's length, as `get`
/// charges its copy: `none` once the budget is spent.
#[inline(always)]
fn charged(v: &Value) -> &Value {
    if !budget::charge(1) || !listed(v) {
        return &NO_VALUE;
    }
    v
}

/// A definition's argument computed once, into its local (`Expr::Bind`): each compiled
/// form of the node does this first, then its body.
#[inline(always)]
fn bind(v: &Get, slot: usize, ev: &Eval, l: &mut [Value]) {
    let x = v(ev, l);
    pool::set(&mut l[slot], x);
}

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
        charged(self.seen_uncharged(l))
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

/// The seat a zone, region or path, or `cells_of`, is written with: `me` (the commonest)
/// and a variable of the game (`played(leader)`) read in place, charged as their nodes
/// are; any other as an operand.
enum SeatArg {
    Me,
    Global(usize),
    Other(Arg),
}

impl SeatArg {
    fn new(cx: &mut Cx, e: &Expr) -> SeatArg {
        match e {
            Expr::Me if !cx.remembered(e) => SeatArg::Me,
            Expr::GlobalVar(i) if !cx.remembered(e) => SeatArg::Global(*i as usize),
            other => SeatArg::Other(Arg::new(cx, other)),
        }
    }

    /// `Arg::seat`: the seat, `None` for anything else or once the budget is spent.
    #[inline(always)]
    fn seat(&self, ev: &Eval, l: &mut [Value]) -> Option<u8> {
        match self {
            SeatArg::Me => budget::charge(1).then_some(ev.me),
            // Charged as `get` charges the variable's copy: its node, and a list's length.
            SeatArg::Global(i) => match *charged(&ev.s.globals[*i]) {
                Value::Seat(p) => Some(p),
                _ => None,
            },
            SeatArg::Other(a) => a.seat(ev, l),
        }
    }
}

/// The seat a region, zone, area or path written with a seat is taken for, as `eval`
/// reads it: the seat (`NO_SEAT`, which has none, for anything else); 0, the only one,
/// where no seat is written.
#[inline(always)]
fn seat_or_first(seat: &Option<SeatArg>, ev: &Eval, l: &mut [Value]) -> u8 {
    // A `match`, not `map_or`: the call of `map_or` was left out of line.
    match seat {
        Some(p) => p.seat(ev, l).unwrap_or(NO_SEAT),
        None => 0,
    }
}

/// Whose cells a walk of occupied cells takes: `None` for `occupied` (anyone's), the seat
/// of `cells_of(seat)` read as `Eval::seat_of` reads it (`NO_SEAT` for anything else).
#[inline(always)]
fn whose(seat: &Option<SeatArg>, ev: &Eval, l: &mut [Value]) -> Option<u8> {
    seat.as_ref().map(|p| p.seat(ev, l).unwrap_or(NO_SEAT))
}

/// `whose`, for a row of the occupancy index read whole: each of its cells charged the
/// step walking it is.
#[inline(always)]
fn whose_read_whole(seat: &Option<SeatArg>, ev: &Eval, l: &mut [Value]) -> Option<u8> {
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
    /// The end's `score`, compiled: found by its place (it stands in the game itself, not
    /// in a list of the rules, so its address changes when the game moves).
    pub score: Option<Get>,
    /// The conditions of the board's link rules, compiled: for each of its terms (see
    /// `graph::LinkTerm`), those on the first cell, on the second and on both, as the
    /// term has them.
    pub links: Vec<[Option<Cond>; 3]>,
    /// Every list of statements the rules run (`setup`, a `do`, a phase's hooks, a
    /// trigger's or a reaction's), compiled (see `bodies.rs`), by the address of its first
    /// statement in the rules, sorted.
    pub bodies: ByAddress<Body>,
    /// What applying each action runs of its clauses (see `bodies::Applied`); empty
    /// where the tree walk is asked for (the clauses are then walked as written).
    pub applied: Vec<Option<Applies>>,
    /// The conditions and the values that move play on, compiled, by address in the rules,
    /// sorted (see `turn_exprs`): judged by `Engine::judged` and `Engine::valued`.
    pub conds: ByAddress<Cond>,
    /// Where each phase's turn hooks and `until` stand among `bodies` and `conds`, by the
    /// phase's index: found once here, where each turn looked them up by address.
    pub phases: Vec<PhasePlans>,
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
    /// How many of the actions' `let`s hold lists that are never made (`line_lets.rs`).
    pub lists_never_made: usize,
    /// How many of the actions' pairs of cells (a neighbour, or the first occupied cell in
    /// sight) are judged a direction at a time (`masks/pairs.rs`).
    pub pairs_by_direction: usize,
    /// How many of the actions' choices of a seat's pieces, straight followed by the
    /// choice of their moves by a pattern written in the rules, are one step whose mover
    /// and rays are found once a listing (`own_moves.rs`).
    pub own_moves: usize,
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
    /// Which variables never hold a list (those that start as a value written in the rules
    /// that is none: a variable keeps the type it is checked to have), by index.
    scalar_vars: Vec<bool>,
    /// Which seat attributes are numbers for every seat, by index.
    number_seat_attrs: Vec<bool>,
    /// The board, for what is worked out once from directions written in the rules.
    board: &'a crate::ir::Board,
    /// The move patterns, for what is worked out once from those written in the rules.
    patterns: &'a [crate::ir::PatternDef],
    /// The seats, for what is worked out once from their attributes.
    seats: &'a [crate::ir::SeatDef],
    /// The components, for what is worked out once from their attributes.
    components: &'a [crate::ir::Component],
    /// Whether each clause's step counts its own evaluation steps (`profile.rs`): for
    /// `muster bench --by-clause`, in an engine of its own, so that no other pays for it.
    count_clauses: bool,
    /// The statements a trial for `require afterwards` skips, by address in the rules
    /// (sorted; see `trials.rs`).
    trial_skips: &'a [usize],
    /// The `let`s of the action being compiled whose lists are never made, by their
    /// slots (`line_lets.rs`).
    line_lets: Vec<(u16, std::sync::Arc<line_lets::LineLet>)>,
    /// How many such `let`s the actions compiled so far hold.
    lists_never_made: usize,
    /// How many pairs of cells the actions compiled so far judge a direction at a time.
    pairs_by_direction: usize,
    /// How many choices of a seat's pieces and their moves the actions compiled so far
    /// fuse (`own_moves.rs`).
    own_moves: usize,
}

impl Cx<'_> {
    /// Whether a trial for `require afterwards` skips `st`, a statement of the rules.
    fn trial_skips(&self, st: &crate::ir::Stmt) -> bool {
        super::trials::skips_statement(self.trial_skips, st)
    }

    /// Whether `e` is an expression of a statement that holds nodes to remember.
    fn scoped(&self, e: &Expr) -> bool {
        self.roots
            .binary_search(&(e as *const Expr as usize))
            .is_ok()
    }

    /// Whether `e` is a node remembered within a query.
    /// The `let` in local `slot` of the action being compiled, if its list is never made
    /// (`line_lets.rs`).
    fn line_let(&self, slot: u16) -> Option<std::sync::Arc<line_lets::LineLet>> {
        (self.line_lets.iter())
            .find(|(s, _)| *s == slot)
            .map(|(_, l)| l.clone())
    }

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
    /// query, by address in `game` (sorted; see `memo::nodes`); `prune_roles`: each
    /// action's clauses' parts in walking choices of subsets (`subsets::roles`).
    pub(crate) fn build(
        game: &Game,
        memo: &[usize],
        roots: &[usize],
        trial_skips: &[usize],
        prune_roles: &[Box<[Role]>],
        link_terms: &[crate::engine::graph::LinkTerm],
        count_clauses: bool,
    ) -> Plans {
        let mut cx = Cx {
            count_clauses,
            trial_skips,
            line_lets: Vec::new(),
            lists_never_made: 0,
            pairs_by_direction: 0,
            own_moves: 0,
            board: &game.board,
            patterns: &game.patterns,
            seats: &game.seats,
            components: &game.components,
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
            scalar_vars: (game.vars.iter())
                .map(|v| matches!(&v.init, Expr::Const(v) if !matches!(v, Value::List(_))))
                .collect(),
            number_seat_attrs: (0..game.seat_attrs.len())
                .map(|i| (game.seats.iter()).all(|p| matches!(p.attrs.get(i), Some(Value::Int(_)))))
                .collect(),
        };
        let actions = (0..game.actions.len())
            .map(|a| action(&mut cx, a as u16, &game.actions[a].clauses, &prune_roles[a]))
            .collect();
        let wins = game
            .end
            .wins
            .iter()
            .map(|(_, w)| truth(&mut cx, w))
            .collect();
        let draws = game.end.draws.iter().map(|d| truth(&mut cx, d)).collect();
        let score = game.end.score.as_ref().map(|e| get(&mut cx, e));
        let links = (link_terms.iter())
            .map(|t| [&t.first, &t.second, &t.both].map(|c| c.as_ref().map(|c| truth(&mut cx, c))))
            .collect();
        let (bodies, applied) = bodies::build(&mut cx, game);
        let (conds, values) = turn_exprs(&mut cx, game);
        let phases = (game.phases.iter())
            .map(|p| {
                let body = |b: &[Stmt]| {
                    let at = b.as_ptr() as usize;
                    (!b.is_empty()).then(|| place(&bodies, at)).flatten()
                };
                PhasePlans {
                    before_turn: body(&p.before_turn),
                    after_turn: body(&p.after_turn),
                    until: (p.until.as_ref())
                        .and_then(|e| place(&conds, e as *const Expr as usize)),
                }
            })
            .collect();
        let mut computers = std::mem::take(&mut cx.computers);
        computers.sort_unstable_by_key(|(at, _)| *at);
        Plans {
            actions,
            wins,
            draws,
            score,
            links,
            bodies,
            applied,
            conds,
            phases,
            values,
            computers,
            memo_nodes: cx.copies,
            memo_roots: cx.root_copies,
            lists_never_made: cx.lists_never_made,
            pairs_by_direction: cx.pairs_by_direction,
            own_moves: cx.own_moves,
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

    /// Where phase `phase`'s hooks and `until` stand compiled (see `PhasePlans`).
    #[inline]
    pub(crate) fn phase(&self, phase: u16) -> PhasePlans {
        self.phases.get(phase as usize).copied().unwrap_or_default()
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
}

/// What was compiled from the part of the rules at `at`, in a list sorted by address.
#[inline]
fn found<T>(list: &ByAddress<T>, at: usize) -> Option<&T> {
    if list.is_empty() {
        return None;
    }
    Some(&list[place(list, at)?].1)
}

/// Where in a list sorted by address what was compiled from the part of the rules at
/// `at` stands.
#[inline]
fn place<T>(list: &ByAddress<T>, at: usize) -> Option<usize> {
    list.binary_search_by_key(&at, |(a, _)| *a).ok()
}

/// Where a phase's turn hooks stand among the compiled bodies (`Plans::bodies`), and its
/// `until` among the compiled conditions (`Plans::conds`); `None` for a hook with no
/// statements, no `until`, or an engine without plans.
#[derive(Clone, Copy, Default)]
pub(crate) struct PhasePlans {
    pub before_turn: Option<usize>,
    pub after_turn: Option<usize>,
    pub until: Option<usize>,
}

/// Whether `e` holds, judged by its compiled form where the plans have one (`compiled`),
/// else by the tree walk: the two judge it alike (`tests/plans.rs`).
#[inline]
pub(crate) fn judged_by(compiled: Option<&Cond>, ev: &Eval, e: &Expr, l: &mut [Value]) -> bool {
    match compiled {
        Some(c) => c(ev, l),
        None => ev.truth(e, l),
    }
}

/// `e`'s value, computed by its compiled form where the plans have one (`compiled`), else
/// by the tree walk.
#[inline]
pub(crate) fn valued_by(compiled: Option<&Get>, ev: &Eval, e: &Expr, l: &mut [Value]) -> Value {
    match compiled {
        Some(g) => g(ev, l),
        None => ev.eval(e, l),
    }
}

/// The conditions and values that move play on, compiled (see `turn_parts`). By address
/// in the rules, sorted.
fn turn_exprs(cx: &mut Cx, game: &Game) -> (ByAddress<Cond>, ByAddress<Get>) {
    let (conds, values) = turn_parts(game);
    let key = |e: &Expr| e as *const Expr as usize;
    let mut conds: ByAddress<Cond> = conds.into_iter().map(|e| (key(e), truth(cx, e))).collect();
    let mut values: ByAddress<Get> = values.into_iter().map(|e| (key(e), get(cx, e))).collect();
    conds.sort_unstable_by_key(|(at, _)| *at);
    values.sort_unstable_by_key(|(at, _)| *at);
    (conds, values)
}

/// The conditions and the values that move play on, found by their address in the rules:
/// each phase's `skip ... when`, `start`, `until` and computed `next`, each step's `by`
/// and `when`, each reaction's `by` and offer, the end's `on stuck if` conditions. Each
/// stands in a list of the rules, where it stays put when the game moves (into the
/// engine's `Arc`).
pub(crate) fn turn_parts(game: &Game) -> (Vec<&Expr>, Vec<&Expr>) {
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
    (conds, values)
}
