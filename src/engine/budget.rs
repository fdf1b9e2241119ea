//! The budget of one decision: how much evaluation work and memory listing the legal
//! actions, or applying one action with all that follows until the next decision, may
//! use. Rules that ask for more (two `choose` over huge ranges, nested quantifiers over
//! big collections, a list that doubles each turn, `subsets` of a big pile) stop with a
//! rules error naming what went over, instead of hanging or exhausting memory.
//!
//! The count lives in thread-local cells, so that every evaluation can charge it without
//! being handed a counter: the outermost engine call (`Decision::begin`) resets it, calls
//! nested inside share it.

use super::EngineError;
use std::cell::{Cell, RefCell};

/// Evaluation steps one decision may take: each expression evaluated, each item a
/// collection yields, each item of a list built.
pub const MAX_WORK: u64 = 20_000_000;
/// What `LEFT` is set to once the budget is spent: far enough below zero that no
/// charges after it come back above.
const SPENT: i64 = i64::MIN / 2;

/// Items in one list value (a list variable, a comprehension, a list a built-in returns).
pub const MAX_LIST: usize = 1_000_000;
/// Legal actions one decision may offer.
pub const MAX_LEGAL_ACTIONS: usize = 1_000_000;

thread_local! {
    /// The steps the open decision may still take: `MAX_WORK` less the steps charged. It
    /// counts down, so that a charge is one subtraction whose sign says whether the budget
    /// holds; once the budget is spent it is set far below zero (see `exceeded`).
    static LEFT: Cell<i64> = const { Cell::new(MAX_WORK as i64) };
    static DEPTH: Cell<u32> = const { Cell::new(0) };
    static OVER: Cell<bool> = const { Cell::new(false) };
    /// What went over, then where it was (innermost first).
    static REASON: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    /// While a listing is made ahead and its steps are counted exactly
    /// (`owed_at_first`): whether it found its first action, and
    /// the steps walks that charge once they end would have charged had the listing
    /// stopped there (see `owe`).
    static FOUND: Cell<Option<bool>> = const { Cell::new(None) };
    static OWED: Cell<u64> = const { Cell::new(0) };
}

/// One decision's budget, from the outermost engine call that opens it to its drop.
pub(crate) struct Decision {
    outer: bool,
}

impl Decision {
    pub fn begin() -> Decision {
        let outer = DEPTH.get() == 0;
        if outer {
            LEFT.set(MAX_WORK as i64);
            // What went over is written only once the budget is spent, and `exceeded`
            // starts its list afresh: nothing of an earlier decision's is read.
            OVER.set(false);
        }
        DEPTH.set(DEPTH.get() + 1);
        Decision { outer }
    }

    /// The rules error if the budget was exceeded (only the outermost call reports it).
    pub fn result(&self) -> Result<(), EngineError> {
        if self.outer && OVER.get() {
            return Err(EngineError::rules(super::code::LIMIT, error_text()));
        }
        Ok(())
    }
}

impl Drop for Decision {
    fn drop(&mut self) {
        DEPTH.set(DEPTH.get().saturating_sub(1));
    }
}

fn error_text() -> String {
    REASON.with_borrow(|r| {
        let mut parts = r.iter();
        let mut text = parts.next().cloned().unwrap_or_default();
        for p in parts {
            text.push_str(", in ");
            text.push_str(p);
        }
        text
    })
}

/// Charges `n` steps of work; false once the budget is spent (the caller stops).
///
/// The fast path is one thread-local subtraction and a test of its sign: `LEFT` is set
/// far below zero once the budget is spent (see `exceeded`), so every charge after that
/// takes the slow path.
#[inline]
pub(crate) fn charge(n: u64) -> bool {
    let left = LEFT.get().wrapping_sub(n as i64);
    LEFT.set(left);
    left >= 0 || over_work()
}

/// The slow path of `charge`: the work went past `MAX_WORK`, or the budget is already
/// spent. Outside a decision (a view, a score) nothing is counted against a budget.
#[cold]
fn over_work() -> bool {
    if !OVER.get() && DEPTH.get() > 0 {
        exceeded(format!(
            "one decision took more than {} evaluation steps (`MAX_WORK`)",
            thousands(MAX_WORK)
        ));
    }
    !OVER.get()
}

/// Gives back `n` steps charged twice: a compiled part that charges its own node and its
/// list, as `eval` does, computing a value for a caller that charges them too (see
/// `Eval::remembered_place`). Nothing once the budget is spent.
#[inline]
pub(crate) fn refund(n: u64) {
    let left = LEFT.get();
    if left >= 0 {
        LEFT.set(left.saturating_add(n as i64).min(MAX_WORK as i64));
    }
}

/// The steps the open decision may still take (below zero once the budget is spent): the
/// difference between two readings is the steps charged between them.
#[inline]
pub(crate) fn left() -> i64 {
    LEFT.get()
}

/// The steps the open decision has taken so far (`u64::MAX` once the budget is spent).
pub(crate) fn work() -> u64 {
    if OVER.get() {
        return u64::MAX;
    }
    (MAX_WORK as i64).abs_diff(LEFT.get())
}

/// Runs `body` on a budget of its own, whole as an outermost decision's is, then gives
/// the open decision its budget back as it was: a listing made inside `apply` for the
/// query after it (`Engine::list_ahead`). Also says whether `body` went over its budget
/// (what went over is forgotten). The open decision's budget must not be spent.
pub(crate) fn apart<R>(body: impl FnOnce() -> R) -> (R, bool) {
    let left = LEFT.replace(MAX_WORK as i64);
    let r = body();
    let over = OVER.replace(false);
    if over {
        REASON.with_borrow_mut(Vec::clear);
    }
    LEFT.set(left);
    (r, over)
}

/// Runs a listing made ahead (`Engine::list_ahead`), and returns with what it returned
/// what a listing stopped at its first action would have charged on its way out (see
/// `owe`), if `counted`; nothing is counted otherwise.
pub(crate) fn owed_at_first<R>(counted: bool, body: impl FnOnce() -> R) -> (R, u64) {
    if !counted {
        return (body(), 0);
    }
    FOUND.set(Some(false));
    OWED.set(0);
    let r = body();
    FOUND.set(None);
    (r, OWED.replace(0))
}

/// A listing made ahead found its first action (nothing otherwise).
#[inline]
pub(crate) fn found_first() {
    if FOUND.get() == Some(false) {
        FOUND.set(Some(true));
    }
}

/// Whether a listing made ahead is under way and has not found its first action.
#[inline]
pub(crate) fn seeking_first() -> bool {
    FOUND.get() == Some(false)
}

/// Whether a listing made ahead has found its first action.
#[inline]
pub(crate) fn first_found() -> bool {
    FOUND.get() == Some(true)
}

/// A walk that charges its steps once it ends (`plan/masks.rs`) and found the first action
/// of a listing made ahead in its cell's turn: what it would have charged had the listing
/// stopped there, which the listing does not (it goes on), for `owed_at_first`.
pub(crate) fn owe(n: u64) {
    OWED.set(OWED.get() + n);
}

/// Whether the budget is spent: evaluation stops as soon as it is.
#[inline]
pub(crate) fn spent() -> bool {
    OVER.get()
}

/// Records that a limit was exceeded, with what went over; evaluation stops.
pub(crate) fn exceeded(what: String) {
    if !OVER.get() {
        OVER.set(true);
        LEFT.set(SPENT);
        REASON.with_borrow_mut(|r| {
            r.clear();
            r.push(what);
        });
    }
}

/// Adds where the evaluation was when the budget went over (called on the way out,
/// innermost first). Nothing if it did not go over.
pub(crate) fn locate(place: impl FnOnce() -> String) {
    if OVER.get() {
        REASON.with_borrow_mut(|r| {
            let p = place();
            if !r.contains(&p) {
                r.push(p);
            }
        });
    }
}

/// Like `locate`, but only if no place was given yet: the innermost clause of an action
/// is where the work went, not the clauses around it.
pub(crate) fn locate_innermost(place: impl FnOnce() -> String) {
    if OVER.get() && REASON.with_borrow(|r| r.len() == 1) {
        locate(place);
    }
}

/// A list value about to be kept: charges its length, and refuses one over `MAX_LIST`.
#[inline]
pub(crate) fn list(len: usize) -> bool {
    if len > MAX_LIST {
        exceeded(format!(
            "a list grew past {} items (`MAX_LIST`)",
            thousands(MAX_LIST as u64)
        ));
        return false;
    }
    charge(len as u64)
}

/// `10000` as the docs write it: `10,000`.
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
