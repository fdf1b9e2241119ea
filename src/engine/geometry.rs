//! Board geometry over the cell/link tables: neighbours, straight lines, free paths and
//! straight runs. The same code serves every board the IR can describe.

use super::pool::Ids;
use super::state::NONE;
use crate::ir::Items;
use crate::ir::{Board, Builtin, Value, NO_CELL};
use smallvec::SmallVec;

/// A set of cells, on the stack for boards of up to 2048 cells (every board the checker
/// accepts), so that geometry queries on a hot path do not allocate.
pub(crate) struct CellSet {
    few: [u64; 32],
    many: Vec<u64>,
}

impl CellSet {
    pub(crate) fn new(cells: usize) -> CellSet {
        CellSet {
            few: [0; 32],
            many: if cells > 32 * 64 {
                vec![0; cells.div_ceil(64)]
            } else {
                Vec::new()
            },
        }
    }
    /// The set of a board of `cells` cells whose words are `words` (one bit a cell).
    pub(crate) fn of_words(cells: usize, words: &[u64]) -> CellSet {
        let mut set = CellSet::new(cells);
        let mine = set.words();
        let n = mine.len().min(words.len());
        mine[..n].copy_from_slice(&words[..n]);
        set
    }
    fn words(&mut self) -> &mut [u64] {
        if self.many.is_empty() {
            &mut self.few
        } else {
            &mut self.many
        }
    }
    /// Adds a cell; false if it was there already.
    pub(crate) fn insert(&mut self, c: u16) -> bool {
        let (w, b) = (c as usize / 64, 1u64 << (c % 64));
        let word = &mut self.words()[w];
        let new = *word & b == 0;
        *word |= b;
        new
    }
    /// The set's first word: all of it on a board of at most 64 cells.
    pub(crate) fn first_word(&self) -> u64 {
        self.many.first().copied().unwrap_or(self.few[0])
    }
    pub(crate) fn contains(&self, c: u16) -> bool {
        let words: &[u64] = if self.many.is_empty() {
            &self.few
        } else {
            &self.many
        };
        words[c as usize / 64] & (1u64 << (c % 64)) != 0
    }
}

/// Directions that stand for an axis: one of each opposite pair.
fn canonical(board: &Board, d: u8) -> u8 {
    let dd = &board.dirs[d as usize];
    if dd.dx > 0 || (dd.dx == 0 && dd.dy > 0) {
        d
    } else {
        board
            .dirs
            .iter()
            .position(|o| o.dx == -dd.dx && o.dy == -dd.dy)
            .map(|i| i as u8)
            .unwrap_or(d)
    }
}

/// The neighbours of `cell` in `dirs`, an item at a time, as every walk here gives its
/// items: `f` says whether to go on; false if it stopped the walk.
pub fn adjacent<F: FnMut(u16) -> bool + ?Sized>(
    board: &Board,
    cell: u16,
    dirs: &[u8],
    f: &mut F,
) -> bool {
    for &d in dirs {
        let n = board.step(cell, d);
        if n != NO_CELL && !f(n) {
            return false;
        }
    }
    true
}

/// Empty cells reached by moving straight from `cell` through empty cells.
pub fn slide<F: FnMut(u16) -> bool + ?Sized>(
    board: &Board,
    occ: &[u16],
    cell: u16,
    dirs: &[u8],
    f: &mut F,
) -> bool {
    for &d in dirs {
        let mut c = board.step(cell, d);
        while c != NO_CELL && occ[c as usize] == NONE {
            if !f(c) {
                return false;
            }
            c = board.step(c, d);
        }
    }
    true
}

/// The first occupied cell along each straight line from `cell`.
pub fn sight<F: FnMut(u16) -> bool + ?Sized>(
    board: &Board,
    occ: &[u16],
    cell: u16,
    dirs: &[u8],
    f: &mut F,
) -> bool {
    for &d in dirs {
        let mut c = board.step(cell, d);
        while c != NO_CELL && occ[c as usize] == NONE {
            c = board.step(c, d);
        }
        if c != NO_CELL && !f(c) {
            return false;
        }
    }
    true
}

/// The cells `adjacent`, `slide` or `sight` (`b`) give from `cell`, a cell at a time.
pub(crate) fn from_cell<F: FnMut(u16) -> bool + ?Sized>(
    b: Builtin,
    board: &Board,
    occ: &[u16],
    cell: u16,
    dirs: &[u8],
    f: &mut F,
) -> bool {
    match b {
        Builtin::Adjacent => adjacent(board, cell, dirs, f),
        Builtin::Slide => slide(board, occ, cell, dirs, f),
        _ => sight(board, occ, cell, dirs, f),
    }
}

/// The cells `adjacent`, `slide`, `sight` or `reach` (`b`) give from `cell`, listed.
pub(crate) fn list_from_cell(
    b: Builtin,
    board: &Board,
    occ: &[u16],
    cell: u16,
    dirs: &[u8],
    out: &mut Items,
) {
    if b == Builtin::Reach {
        reach(board, occ, cell, dirs, out);
    } else {
        from_cell(b, board, occ, cell, dirs, &mut |c| {
            out.push(Value::Cell(c));
            true
        });
    }
}

/// Empty cells reached from `cell` by any path of steps through empty cells.
pub fn reach(board: &Board, occ: &[u16], cell: u16, dirs: &[u8], out: &mut Items) {
    let mut found = Ids::new();
    reach_cells(board, occ, cell, dirs, &mut found);
    out.extend(found.iter().map(|&c| Value::Cell(c)));
}

/// `reach`, as cell numbers (added to `found`).
pub(crate) fn reach_cells(
    board: &Board,
    occ: &[u16],
    cell: u16,
    dirs: &[u8],
    found: &mut Ids<128>,
) {
    flood_cells(
        board.cells.len(),
        cell,
        |c, visit| steps(board, c, dirs, visit),
        |n| occ[n as usize] == NONE,
        found,
    );
}

/// `group`, as cell numbers (added to `found`), the members those `member` admits.
pub(crate) fn group_cells(
    board: &Board,
    cell: u16,
    dirs: &[u8],
    member: impl Fn(u16) -> bool,
    found: &mut Ids<128>,
) {
    flood_cells(
        board.cells.len(),
        cell,
        |c, visit| steps(board, c, dirs, visit),
        member,
        found,
    );
}

/// Calls `visit` on each neighbour of `c` in `dirs`.
fn steps(board: &Board, c: u16, dirs: &[u8], visit: &mut dyn FnMut(u16)) {
    for &d in dirs {
        let n = board.step(c, d);
        if n != NO_CELL {
            visit(n);
        }
    }
}

/// Breadth-first from `cell` over `neighbours` (which calls its `visit` on each neighbour
/// of a cell): every cell reached through cells that `admit`, once each, in the order
/// reached, pushed to `out`.
pub(crate) fn flood(
    cells: usize,
    cell: u16,
    neighbours: impl FnMut(u16, &mut dyn FnMut(u16)),
    admit: impl Fn(u16) -> bool,
    out: &mut Items,
) {
    // Found as numbers, then made values all at once: a value pushed as it is made is
    // copied whole from where it was just built, which stalls (see docs/ARCHITECTURE.md,
    // "values just built").
    let mut found = Ids::new();
    flood_cells(cells, cell, neighbours, admit, &mut found);
    out.extend(found.iter().map(|&c| Value::Cell(c)));
}

/// `flood`, as cell numbers: `found` (empty at first) from its length on is the queue, so
/// nothing else is allocated.
pub(crate) fn flood_cells(
    cells: usize,
    cell: u16,
    mut neighbours: impl FnMut(u16, &mut dyn FnMut(u16)),
    admit: impl Fn(u16) -> bool,
    found: &mut Ids<128>,
) {
    let mut seen = CellSet::new(cells);
    seen.insert(cell);
    let mut i = found.len();
    let mut c = cell;
    loop {
        neighbours(c, &mut |n| {
            if admit(n) && seen.insert(n) {
                found.push(n);
            }
        });
        match found.get(i) {
            Some(&next) => c = next,
            None => break,
        }
        i += 1;
    }
}

/// Every straight run of touching cells all drawn from `cells`, along the axes of `dirs`.
/// A single cell is one run (listed once, with direction 0).
pub fn runs(board: &Board, cells: &[u16], dirs: &[u8], out: &mut Items) {
    runs_each(board, cells, dirs, &mut |v| {
        out.push(v);
        true
    });
}

/// `runs`, one at a time, in the same order, until `f` returns false.
pub fn runs_each<F: FnMut(Value) -> bool + ?Sized>(
    board: &Board,
    cells: &[u16],
    dirs: &[u8],
    f: &mut F,
) {
    runs_along(board, cells, &run_axes(board, dirs), &mut |(
        start,
        dir,
        len,
    )| {
        f(Value::Line { start, dir, len })
    });
}

/// The axes `runs` walks for the directions `dirs`, in order: one of each opposite pair,
/// with the direction back along it (none if the board has no such direction).
pub(crate) type Axes = SmallVec<[(u8, Option<u8>); 8]>;

/// The axes of `dirs` (see `Axes`): worked out once where the directions are written in
/// the rules.
pub(crate) fn run_axes(board: &Board, dirs: &[u8]) -> Axes {
    let mut axes = Axes::new();
    for &d in dirs {
        let a = canonical(board, d);
        if !axes.iter().any(|&(x, _)| x == a) {
            let (dx, dy) = (board.dirs[a as usize].dx, board.dirs[a as usize].dy);
            let back = (board.dirs.iter())
                .position(|o| o.dx == -dx && o.dy == -dy)
                .map(|i| i as u8);
            axes.push((a, back));
        }
    }
    axes.sort_unstable_by_key(|&(a, _)| a);
    axes
}

/// `runs_each` along axes worked out before (`run_axes`), each run handed on as its first
/// cell, direction and length (a `Value::Line`'s), which the caller writes where it
/// wants the run: a value made here and read there whole would be read in wider pieces
/// than it was written in, which stalls the processor (docs/ARCHITECTURE.md, "values
/// just built").
pub(crate) fn runs_along<F: FnMut((u16, u8, u8)) -> bool + ?Sized>(
    board: &Board,
    cells: &[u16],
    axes: &[(u8, Option<u8>)],
    f: &mut F,
) {
    let mut member = CellSet::new(board.cells.len());
    for &c in cells {
        member.insert(c);
    }
    for &c in cells {
        if !f((c, 0, 1)) {
            return;
        }
    }
    for &(a, back) in axes {
        for &c in cells {
            // Start only where the run cannot extend backwards.
            if let Some(b) = back {
                let p = board.step(c, b);
                if p != NO_CELL && member.contains(p) {
                    continue;
                }
            }
            // The run's cells, walked again from each start rather than stored.
            let mut len = 1usize;
            let mut n = board.step(c, a);
            while n != NO_CELL && member.contains(n) {
                len += 1;
                n = board.step(n, a);
            }
            // Each part of two cells or more, by its first cell and then its last.
            let mut start = c;
            for i in 0..len.saturating_sub(1) {
                for j in i + 1..len {
                    if !f((start, a, (j - i + 1).min(255) as u8)) {
                        return;
                    }
                }
                start = board.step(start, a);
            }
        }
    }
}

/// Calls `f` on the cells of a run, in order, while it says to go on; false if it stopped.
pub(crate) fn each_line_cell(line: &Value, board: &Board, mut f: impl FnMut(u16) -> bool) -> bool {
    if let Value::Line { start, dir, len } = *line {
        let mut c = start;
        for i in 0..len {
            if i > 0 {
                c = board.step(c, dir);
                if c == NO_CELL {
                    break;
                }
            }
            if !f(c) {
                return false;
            }
        }
    }
    true
}

/// The cells a run passes over and lands on when shifted `k` steps in `dir`; a step off
/// the board shows as `None`, which is never empty.
pub fn sweep(
    board: &Board,
    line: &Value,
    dir: u8,
    k: i64,
    f: &mut dyn FnMut(Value) -> bool,
) -> bool {
    each_line_cell(line, board, |c| {
        let mut cur = c;
        for _ in 0..k.clamp(0, 255) {
            cur = board.step(cur, dir);
            if cur == NO_CELL {
                return f(Value::None);
            }
            if !f(Value::Cell(cur)) {
                return false;
            }
        }
        true
    })
}

/// The distances `k >= 1` a run can slide in `dir` as a block: every cell it passes over
/// or lands on is empty or one of its own. Stops at the first blocked distance.
pub fn shifts<F: FnMut(Value) -> bool + ?Sized>(
    board: &Board,
    occ: &[u16],
    line: &Value,
    dir: u8,
    f: &mut F,
) -> bool {
    let Value::Line {
        start,
        dir: ld,
        len,
    } = *line
    else {
        return true;
    };
    shifts_of(board, occ, (start, ld, len), dir, false, f)
}

/// A board of at most 64 cells, all laid out, whose steps in each direction go the same
/// number of cells on from every cell that has one (a grid's, a hex board's): a set of its
/// cells is one word, and a step of all of them at once is a shift of that word. `shifts`
/// of a run is then a few operations a distance, whatever the run's length.
pub(crate) struct WordSteps {
    /// For each direction, its step as a shift of the word.
    ways: Vec<WordStep>,
}

/// A direction's step as a shift (see `WordSteps`).
#[derive(Clone, Copy, Default)]
struct WordStep {
    /// How far up (toward higher cells) and how far down the step goes: one of the two
    /// is 0.
    up: u32,
    down: u32,
    /// The cells that have a neighbour that way.
    has: u64,
}

impl WordStep {
    /// Each cell of `at` moved a step this way (each must have a neighbour that way).
    #[inline(always)]
    fn of(self, at: u64) -> u64 {
        at << self.up >> self.down
    }

    /// The cells of `at` moved a step this way as a block, if every one of them has a
    /// neighbour that way and none lands on `blocked`.
    #[inline(always)]
    fn free(self, at: u64, blocked: u64) -> Option<u64> {
        if at & !self.has != 0 {
            return None;
        }
        let to = self.of(at);
        (to & blocked == 0).then_some(to)
    }
}

impl WordSteps {
    /// The board's steps as shifts, or `None` for a board that is not of that kind.
    pub(crate) fn new(board: &Board) -> Option<WordSteps> {
        let (n, k) = (board.cells.len(), board.dirs.len());
        if n > 64 || !board.areas.is_empty() || board.links.len() != n * k {
            return None;
        }
        let mut ways = vec![WordStep::default(); k];
        for (d, way) in ways.iter_mut().enumerate() {
            let mut step = None;
            for c in 0..n {
                let to = board.links[c * k + d];
                if to == NO_CELL {
                    continue;
                }
                let o = i32::from(to) - c as i32;
                if o == 0 || *step.get_or_insert(o) != o {
                    return None;
                }
                way.has |= 1 << c;
            }
            let o = step.unwrap_or(0);
            (way.up, way.down) = (o.max(0) as u32, (-o).max(0) as u32);
        }
        Some(WordSteps { ways })
    }

    /// The cells of the run `(start, direction, length)`, or `None` if it has none or
    /// leaves the board.
    #[inline(always)]
    pub(crate) fn run(&self, (start, ld, len): (u16, u8, u8)) -> Option<u64> {
        if len == 0 || start >= 64 {
            return None;
        }
        let way = *self.ways.get(ld as usize)?;
        let mut at = 1u64 << start;
        let mut set = at;
        for _ in 1..len {
            if at & way.has == 0 {
                return None;
            }
            at = way.of(at);
            set |= at;
        }
        Some(set)
    }

    /// Whether the run of cells `run` can take one step in `dir` as a block (`farthest`
    /// is not 0): every cell has a neighbour that way, none of them occupied off the run.
    #[inline(always)]
    pub(crate) fn can_step(&self, run: u64, occupied: u64, dir: u8) -> bool {
        (self.ways.get(dir as usize)).is_some_and(|way| way.free(run, occupied & !run).is_some())
    }

    /// The cells a step in `dir` is open to: those with a neighbour that way, not one of
    /// `occupied` (a run of one cell can take a step that way).
    #[inline(always)]
    fn open(&self, dir: u8, occupied: u64) -> u64 {
        // Cell `c`'s neighbour is occupied where `occupied` shifted back has `c`.
        (self.ways.get(dir as usize)).map_or(0, |w| w.has & !(occupied << w.down >> w.up))
    }

    /// `runs_along` of the cells of the word `cells`: the same runs in the same order,
    /// each handed on with its cells as a word, found by shifts rather than cell by cell,
    /// and with whether it is stuck: can take a step in none of `dirs` as a block
    /// (`can_step`, `occupied` the occupied cells, the runs' among them). That is found
    /// from what each cell of a run can do (`Parts`), not a run at a time; stuck runs one
    /// after another (single cells, or every part of a longer run) are offered to `skip`
    /// as how many they are, and handed on one at a time where it says no. With more than
    /// `MAX_JUDGED_DIRS` directions, each run is judged whole (`can_step`).
    #[inline(always)]
    pub(crate) fn runs<F, S>(
        &self,
        cells: u64,
        axes: &[(u8, Option<u8>)],
        (occupied, dirs): (u64, &[u8]),
        f: &mut F,
        skip: &mut S,
    ) where
        F: FnMut((u16, u8, u8), u64, bool) -> bool + ?Sized,
        S: FnMut(u64) -> bool + ?Sized,
    {
        let judged = dirs.len() <= MAX_JUDGED_DIRS;
        // A run judged whole: stuck where it can take a step in none of the directions.
        let walled = |cells| !dirs.iter().any(|&d| self.can_step(cells, occupied, d));
        let mut open = [0u64; MAX_JUDGED_DIRS];
        if judged {
            for (o, &d) in open.iter_mut().zip(dirs) {
                *o = self.open(d, occupied);
            }
        }
        let open = &open[..dirs.len().min(MAX_JUDGED_DIRS)];
        // Single cells, stuck where no step is open to them: those waiting to be handed on
        // go before the next that is not.
        let moves = open.iter().fold(0, |m, o| m | o);
        let mut waiting = 0u64;
        let mut left = cells;
        while left != 0 {
            let at = left & left.wrapping_neg();
            left &= left - 1;
            let stuck = if judged { at & moves == 0 } else { walled(at) };
            if stuck {
                waiting |= at;
                continue;
            }
            if !hand_on_stuck(std::mem::take(&mut waiting), f, skip) {
                return;
            }
            if !f((at.trailing_zeros() as u16, 0, 1), at, false) {
                return;
            }
        }
        if !hand_on_stuck(waiting, f, skip) {
            return;
        }
        for &(a, back_dir) in axes {
            let way = self.ways.get(a as usize).copied().unwrap_or_default();
            let back = back_dir.and_then(|b| self.ways.get(b as usize).copied());
            let mut starts = cells;
            while starts != 0 {
                let at = starts & starts.wrapping_neg();
                starts &= starts - 1;
                // Start only where the run cannot extend backwards.
                if back.is_some_and(|b| at & b.has != 0 && b.of(at) & cells != 0) {
                    continue;
                }
                let (mut end, mut len, mut whole) = (at, 1usize, at);
                while end & way.has != 0 && way.of(end) & cells != 0 {
                    end = way.of(end);
                    len += 1;
                    whole |= end;
                }
                if len < 2 {
                    continue;
                }
                let run = Run {
                    whole,
                    first: at,
                    last: end,
                    axis: (a, back_dir),
                };
                let parts = Parts::new(self, run, dirs, judged.then_some(open));
                // Every part of two cells or more stuck: offered at once.
                if parts.none_move(way) && skip((len * (len - 1) / 2) as u64) {
                    continue;
                }
                // Each part of two cells or more, by its first cell and then its last.
                let mut first = at;
                for i in 0..len - 1 {
                    let (mut last, mut cells) = (first, first);
                    for j in i + 1..len {
                        last = way.of(last);
                        cells |= last;
                        let n = (j - i + 1).min(255) as u8;
                        let stuck = match parts.whole {
                            true => walled(cells),
                            false => parts.stuck(cells, (i == 0, j == len - 1)),
                        };
                        if !f((first.trailing_zeros() as u16, a, n), cells, stuck) {
                            return;
                        }
                    }
                    first = way.of(first);
                }
            }
        }
    }

    /// How far the run of cells `run` can slide in `dir` as a block (`shifts`' last
    /// distance, 0 if none, or if the board has no such direction): every cell it passes
    /// over or lands on is one of its own or not in `occupied`.
    #[inline(always)]
    pub(crate) fn farthest(&self, run: u64, occupied: u64, dir: u8) -> usize {
        let Some(&way) = self.ways.get(dir as usize) else {
            return 0;
        };
        let blocked = occupied & !run;
        let (mut at, mut k) = (run, 0);
        // A cell with no neighbour that way stops it, as does a step onto a blocked cell.
        while let Some(to) = way.free(at, blocked) {
            at = to;
            k += 1;
        }
        k
    }
}

/// The most directions `WordSteps::runs` judges runs stuck for itself.
const MAX_JUDGED_DIRS: usize = 8;

/// The stuck runs `waiting` (single cells), offered to `skip` as how many they are, else
/// handed on to `f` one at a time; false if `f` says to stop.
fn hand_on_stuck<F, S>(waiting: u64, f: &mut F, skip: &mut S) -> bool
where
    F: FnMut((u16, u8, u8), u64, bool) -> bool + ?Sized,
    S: FnMut(u64) -> bool + ?Sized,
{
    if waiting == 0 || skip(u64::from(waiting.count_ones())) {
        return true;
    }
    let mut left = waiting;
    while left != 0 {
        let at = left & left.wrapping_neg();
        left &= left - 1;
        if !f((at.trailing_zeros() as u16, 0, 1), at, true) {
            return false;
        }
    }
    true
}

/// A run as long as it goes along an axis (`WordSteps::runs`): its cells, its first and
/// last cell, and the axis (its direction and the one back along it, if any).
#[derive(Clone, Copy)]
struct Run {
    whole: u64,
    first: u64,
    last: u64,
    axis: (u8, Option<u8>),
}

/// What the directions can do for the parts of a `Run` (two cells or more, one after
/// another): a step along the axis is open only to a part that ends at the run's last
/// cell (`ahead`), one back only to a part that starts at its first (`behind`), each at
/// that cell; a step in a direction that leads off the run's line (`across`) to a part
/// whose every cell it is open to. A direction that leads from one cell of the run to
/// another, other than those two, or more directions than `MAX_JUDGED_DIRS`, has each part
/// judged whole (`whole`: by the caller, with `can_step`).
struct Parts {
    ahead: bool,
    behind: bool,
    across: [u64; MAX_JUDGED_DIRS],
    crossing: usize,
    whole: bool,
}

impl Parts {
    /// What the directions `dirs` can do for the parts of `run`, `open` the cells each
    /// one's step is open to (`None` where there are too many directions to judge).
    #[inline(always)]
    fn new(words: &WordSteps, run: Run, dirs: &[u8], open: Option<&[u64]>) -> Parts {
        let (a, back) = run.axis;
        let way = words.ways.get(a as usize).copied().unwrap_or_default();
        let mut p = Parts {
            ahead: false,
            behind: false,
            across: [0; MAX_JUDGED_DIRS],
            crossing: 0,
            whole: open.is_none(),
        };
        for (&d, &o) in dirs.iter().zip(open.unwrap_or_default()) {
            let Some(w) = words.ways.get(d as usize).copied() else {
                continue;
            };
            if d == a {
                p.ahead |= o & run.last != 0;
            } else if Some(d) == back
                && (w.up, w.down) == (way.down, way.up)
                && run.whole & !run.first & !w.has == 0
            {
                // Back along the axis, from every cell but the first to the one before it.
                p.behind |= o & run.first != 0;
            } else if w.of(run.whole & w.has) & run.whole == 0 {
                p.across[p.crossing] = run.whole & o;
                p.crossing += 1;
            } else {
                p.whole = true;
            }
        }
        p
    }

    /// Whether the part `cells` (starting at the run's first cell, ending at its last) is
    /// stuck, where the parts are not judged whole.
    #[inline(always)]
    fn stuck(&self, cells: u64, (starts, ends): (bool, bool)) -> bool {
        !((ends && self.ahead)
            || (starts && self.behind)
            || self.across[..self.crossing]
                .iter()
                .any(|&o| cells & !o == 0))
    }

    /// Whether every part is stuck: no step along the axis, and no two cells one after
    /// another that a step across is open to both of.
    #[inline(always)]
    fn none_move(&self, way: WordStep) -> bool {
        !self.whole
            && !self.ahead
            && !self.behind
            && (self.across[..self.crossing].iter()).all(|&o| o & way.of(o & way.has) == 0)
    }
}

/// The straight lines from each cell of a board of at most 64 cells, all laid out, in
/// directions written in the rules: each line's cells as a word, to the board's edge, and
/// whether they go up the board's order (else down), where every line goes one way.
/// `slide` and `sight` from a cell are then a few operations a direction, with no branch
/// on each cell the walk would step onto.
pub(crate) struct LineWords {
    dirs: usize,
    /// For cell `c` and the `i`th direction, at `c * dirs + i`.
    lines: Vec<(u64, bool)>,
    /// For cell `c`, the first cell of each of its lines: where all of them are occupied,
    /// a slide from `c` gives no cell (`slides_nowhere`).
    firsts: Vec<u64>,
}

impl LineWords {
    /// The lines of `board` in `dirs`, or `None` for a board that is not of that kind.
    pub(crate) fn new(board: &Board, dirs: &[u8]) -> Option<LineWords> {
        let n = board.cells.len();
        if n > 64 || !board.areas.is_empty() {
            return None;
        }
        let mut lines = Vec::with_capacity(n * dirs.len());
        let mut firsts = vec![0u64; n];
        for c in 0..n as u16 {
            for &d in dirs {
                let (mut word, mut last, mut up) = (0u64, c, None);
                let mut x = board.step(c, d);
                while x != NO_CELL {
                    // A line that turns back on itself, or goes both ways, is walked.
                    if word >> x & 1 == 1 || x == c || *up.get_or_insert(x > last) != (x > last) {
                        return None;
                    }
                    if word == 0 {
                        firsts[c as usize] |= 1 << x;
                    }
                    word |= 1 << x;
                    last = x;
                    x = board.step(x, d);
                }
                lines.push((word, up.unwrap_or(true)));
            }
        }
        Some(LineWords {
            dirs: dirs.len(),
            lines,
            firsts,
        })
    }

    /// Whether a slide from `c` gives no cell, `occupied` the occupied cells: the first
    /// cell of each of its lines is occupied (or it has none).
    #[inline(always)]
    pub(crate) fn slides_nowhere(&self, c: u16, occupied: u64) -> bool {
        self.firsts[c as usize] & !occupied == 0
    }

    /// The cell `sight` gives from `c` in the `i`th direction, `occupied` the occupied
    /// cells: the first occupied cell that way, as a word of it alone (none where there
    /// is none).
    #[inline(always)]
    pub(crate) fn first_taken(&self, c: u16, i: usize, occupied: u64) -> u64 {
        let (line, up) = self.lines[c as usize * self.dirs + i];
        line_reach(line, up, occupied) & occupied
    }

    /// For each direction in order, the cells `slide` (`sight`: false) or `sight` (true)
    /// gives from `c` that way, `occupied` the occupied cells, as a word and whether it
    /// goes up the board's order, while `f` says to go on.
    #[inline(always)]
    pub(crate) fn each(
        &self,
        c: u16,
        occupied: u64,
        sight: bool,
        mut f: impl FnMut(u64, bool) -> bool,
    ) -> bool {
        let at = c as usize * self.dirs;
        for &(line, up) in &self.lines[at..at + self.dirs] {
            let reach = line_reach(line, up, occupied);
            let cells = if sight {
                reach & occupied
            } else {
                reach & !occupied
            };
            if !f(cells, up) {
                return false;
            }
        }
        true
    }
}

/// The cells of `cells` (a line, going up the board's order or down it) up to and with
/// its first of `taken`: all of them where none is (a count of 64 zeros shifts by
/// nothing). No branch on whether there is one.
#[inline(always)]
pub(crate) fn line_reach(cells: u64, up: bool, taken: u64) -> u64 {
    let blockers = cells & taken;
    if up {
        cells & (u64::MAX >> (63 - blockers.trailing_zeros() as i32).max(0))
    } else {
        cells & (u64::MAX << (63 - blockers.leading_zeros() as i32).max(0))
    }
}

/// `shifts` of the run `(start, direction, length)`; `first_free`: its first step in
/// `dir` is known to be free (`first_step_blocked` said so), and is not looked at again.
#[inline]
pub(crate) fn shifts_of<F: FnMut(Value) -> bool + ?Sized>(
    board: &Board,
    occ: &[u16],
    run: (u16, u8, u8),
    dir: u8,
    first_free: bool,
    f: &mut F,
) -> bool {
    // Most shifts stop at the first step: that is looked at first, a cell of the run at a
    // time, before the run is laid out.
    if !first_free && first_step_blocked(board, occ, run, dir) {
        return true;
    }
    // Most runs are short: their cells fit in a small array, set up quickly. (A board
    // side is at most 52 cells, so no run is longer than 64.)
    if run.2 <= 16 {
        shifts_within::<16, F>(board, occ, run, dir, f)
    } else {
        shifts_within::<64, F>(board, occ, run, dir, f)
    }
}

/// Whether some cell of the run `(start, direction, length)` cannot take one step in
/// `dir`: off the board, or onto a cell occupied by a component off the run.
#[inline(always)]
pub(crate) fn first_step_blocked(
    board: &Board,
    occ: &[u16],
    (start, ld, len): (u16, u8, u8),
    dir: u8,
) -> bool {
    let mut c = start;
    // Along the run, each cell but the last steps onto the next one: only the last can
    // be blocked.
    if dir == ld && len > 0 {
        for _ in 1..len {
            c = board.step(c, ld);
        }
        let h = board.step(c, dir);
        return h == NO_CELL || (occ[h as usize] != NONE && !on_run(board, (start, ld, len), h));
    }
    for i in 0..len {
        if i > 0 {
            c = board.step(c, ld);
        }
        let h = board.step(c, dir);
        if h == NO_CELL || (occ[h as usize] != NONE && !on_run(board, (start, ld, len), h)) {
            return true;
        }
    }
    false
}

/// Whether `x` is one of the cells of the run `(start, direction, length)`.
#[inline(always)]
fn on_run(board: &Board, (start, ld, len): (u16, u8, u8), x: u16) -> bool {
    let mut c = start;
    for i in 0..len {
        if i > 0 {
            c = board.step(c, ld);
        }
        if c == x {
            return true;
        }
    }
    false
}

/// `shifts_of` for a run of at most `N` cells.
#[inline(always)]
fn shifts_within<const N: usize, F: FnMut(Value) -> bool + ?Sized>(
    board: &Board,
    occ: &[u16],
    (start, ld, len): (u16, u8, u8),
    dir: u8,
    f: &mut F,
) -> bool {
    // The run's cells and where each stands after `k` steps, filled a cell at a time
    // (a bulk copy of one array into the other stalls on the stores just made).
    let n = (len as usize).min(N);
    let mut own = [NO_CELL; N];
    let mut heads = [NO_CELL; N];
    let mut c = start;
    for i in 0..n {
        if i > 0 {
            c = board.step(c, ld);
        }
        own[i] = c;
        heads[i] = c;
    }
    let own = &own[..n];
    // Along the run, each cell steps where the one ahead of it stood, which the head
    // (the last cell) passed before: only the head can be blocked.
    let moving = if dir == ld && n > 0 { n - 1..n } else { 0..n };
    for k in 1..=board.cells.len() as i64 {
        for h in heads[moving.clone()].iter_mut() {
            if *h != NO_CELL {
                *h = board.step(*h, dir);
            }
            // Looked for one cell at a time: the wide loads of `contains` would read the
            // run's cells back while the stores that just made them are still in flight.
            if *h == NO_CELL || (occ[*h as usize] != NONE && !own.iter().any(|o| o == h)) {
                return true;
            }
        }
        if !f(Value::Int(k)) {
            return false;
        }
    }
    true
}

/// The distance between two cells in steps: on a grid the Chebyshev distance (steps in
/// any of eight directions), on a hex board the number of steps between hexagons.
pub fn distance(board: &Board, a: u16, b: u16) -> i64 {
    let (ca, cb) = (&board.cells[a as usize], &board.cells[b as usize]);
    let (dx, dy) = (ca.x as i64 - cb.x as i64, ca.y as i64 - cb.y as i64);
    if board.hex {
        // Steps (+1, 0), (0, +1) and (-1, +1), and their opposites.
        (dx.abs() + dy.abs() + (dx + dy).abs()) / 2
    } else {
        dx.abs().max(dy.abs())
    }
}

/// The cells of `member` reached from `cell` by steps in `dirs` that stay inside `member`.
pub fn group(board: &Board, cell: u16, dirs: &[u8], member: &CellSet, out: &mut Items) {
    flood(
        board.cells.len(),
        cell,
        |c, visit| steps(board, c, dirs, visit),
        |n| member.contains(n),
        out,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::compile_source;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn board_of(variant: Option<&str>) -> Board {
        let text = include_str!("../../tests/constructs/shifts.muster");
        compile_source("shifts.muster", text, variant)
            .unwrap_or_else(|_| panic!("shifts.muster does not compile"))
            .game
            .board
    }

    /// A board of `n` cells with a stone on about two in five, at random: what stands on
    /// each cell, and the occupied cells as a word.
    fn stones(rng: &mut ChaCha8Rng, n: usize) -> (Vec<u16>, u64) {
        let occ: Vec<u16> = (0..n)
            .map(|_| if rng.gen_bool(0.4) { 0 } else { NONE })
            .collect();
        let occupied = (0..n)
            .filter(|&c| occ[c] != NONE)
            .fold(0u64, |w, c| w | 1 << c);
        (occ, occupied)
    }

    /// `WordSteps::farthest` goes as far as the walk a cell at a time (`shifts_of`), for
    /// every run of up to four cells and every direction, over seeded random boards of
    /// stones, on a grid and on hexagons; a board of more than 64 cells has no word steps.
    #[test]
    fn word_shifts_go_as_far_as_the_walk() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut compared = 0;
        for variant in [None, Some("hexes")] {
            let board = board_of(variant);
            let words = WordSteps::new(&board).expect("a small grid or hex board is of words");
            let (n, k) = (board.cells.len(), board.dirs.len() as u8);
            for _ in 0..40 {
                let (occ, occupied) = stones(&mut rng, n);
                for start in 0..n as u16 {
                    for ld in 0..k {
                        for len in 1..=4u8 {
                            let Some(cells) = words.run((start, ld, len)) else {
                                continue;
                            };
                            for d in 0..k {
                                let mut walked = 0;
                                shifts_of(&board, &occ, (start, ld, len), d, false, &mut |_| {
                                    walked += 1;
                                    true
                                });
                                let far = words.farthest(cells, occupied, d);
                                assert_eq!(far, walked, "run {start}/{ld}/{len}, direction {d}");
                                compared += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(compared > 10_000, "only {compared} shifts compared");
        assert!(WordSteps::new(&board_of(Some("wide"))).is_none());
    }

    /// `WordSteps::runs` gives the runs `runs_along` gives, in its order, each judged stuck
    /// exactly where no direction's `can_step` is open to it; offered as stuck in groups
    /// (`skip`), the stuck and the other runs come in the same order. Over seeded random
    /// boards of stones, a random part of them the runs' cells, on a grid and on hexagons,
    /// for runs along one direction or two and steps in every set of one or two directions,
    /// in all of them, and in more than `MAX_JUDGED_DIRS`.
    #[test]
    fn runs_are_stuck_where_no_step_is_open() {
        let mut rng = ChaCha8Rng::seed_from_u64(13);
        let mut judged = 0;
        for variant in [None, Some("hexes")] {
            let board = board_of(variant);
            let words = WordSteps::new(&board).expect("a small grid or hex board is of words");
            let (n, k) = (board.cells.len(), board.dirs.len() as u8);
            let sets: Vec<Vec<u8>> = (0..k)
                .map(|d| vec![d])
                .chain((0..k).flat_map(|a| (a + 1..k).map(move |b| vec![a, b])))
                .chain([(0..k).collect()])
                // More directions than are judged a cell at a time: each run judged whole.
                .chain([(0..k).cycle().take(MAX_JUDGED_DIRS + 1).collect()])
                .collect();
            for _ in 0..6 {
                let (_, occupied) = stones(&mut rng, n);
                let mine = occupied & rng.gen::<u64>();
                let cells: Vec<u16> = (0..n as u16).filter(|&c| mine >> c & 1 == 1).collect();
                for along in sets.iter().filter(|s| s.len() <= 2) {
                    let axes = run_axes(&board, along);
                    let mut walked = Vec::new();
                    runs_along(&board, &cells, &axes, &mut |r| {
                        walked.push(r);
                        true
                    });
                    for dirs in &sets {
                        // Each run handed on: the runs' order, and whether each is stuck.
                        let mut each = Vec::new();
                        let mut never = |_| false;
                        words.runs(
                            mine,
                            &axes,
                            (occupied, dirs),
                            &mut |r, w, stuck| {
                                let open = dirs.iter().any(|&d| words.can_step(w, occupied, d));
                                assert_eq!(stuck, !open, "run {r:?} in {dirs:?}");
                                each.push(r);
                                true
                            },
                            &mut never,
                        );
                        assert_eq!(each, walked, "runs along {along:?}");
                        // Stuck runs offered in groups: the same stuck and other runs, in
                        // the same order.
                        let flags: Vec<bool> = walked
                            .iter()
                            .map(|&r| {
                                let w = words.run(r).expect("a run's cells are on the board");
                                !dirs.iter().any(|&d| words.can_step(w, occupied, d))
                            })
                            .collect();
                        let grouped = std::cell::RefCell::new(Vec::new());
                        words.runs(
                            mine,
                            &axes,
                            (occupied, dirs),
                            &mut |_, _, stuck| {
                                grouped.borrow_mut().push(stuck);
                                true
                            },
                            &mut |n| {
                                grouped.borrow_mut().extend((0..n).map(|_| true));
                                true
                            },
                        );
                        assert_eq!(
                            grouped.into_inner(),
                            flags,
                            "runs along {along:?}, steps in {dirs:?}"
                        );
                        judged += walked.len();
                    }
                }
            }
        }
        assert!(judged > 10_000, "only {judged} runs judged");
    }

    /// `LineWords` gives what `slide` and `sight` give, in their order, from every cell
    /// in every set of directions of one or two, over seeded random boards of stones, on a
    /// grid and on hexagons; a board of more than 64 cells has no line words.
    #[test]
    fn line_words_give_what_the_walk_gives() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut compared = 0;
        for variant in [None, Some("hexes")] {
            let board = board_of(variant);
            let (n, k) = (board.cells.len(), board.dirs.len() as u8);
            let sets: Vec<Vec<u8>> = (0..k)
                .map(|d| vec![d])
                .chain(
                    (0..k).flat_map(|a| (0..k).filter(move |&b| b != a).map(move |b| vec![a, b])),
                )
                .collect();
            for dirs in &sets {
                let lines = LineWords::new(&board, dirs).expect("a small board's lines are words");
                for _ in 0..10 {
                    let (occ, occupied) = stones(&mut rng, n);
                    for c in 0..n as u16 {
                        for b in [Builtin::Slide, Builtin::Sight] {
                            let mut walked = Vec::new();
                            from_cell(b, &board, &occ, c, dirs, &mut |x| {
                                walked.push(x);
                                true
                            });
                            let mut worded = Vec::new();
                            lines.each(c, occupied, b == Builtin::Sight, |cells, up| {
                                super::super::patterns::along(cells, up, &mut |x| {
                                    worded.push(x);
                                    true
                                })
                            });
                            assert_eq!(worded, walked, "{b:?} from {c} in {dirs:?}");
                            if b == Builtin::Slide {
                                assert_eq!(lines.slides_nowhere(c, occupied), walked.is_empty());
                            }
                            compared += 1;
                        }
                    }
                }
            }
        }
        assert!(compared > 10_000, "only {compared} walks compared");
        assert!(LineWords::new(&board_of(Some("wide")), &[0]).is_none());
    }
}
