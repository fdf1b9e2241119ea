//! Move patterns on a grid: where a piece may go by a pattern, each destination once.

use super::geometry::{self, CellSet};
use super::state::NONE;
use crate::ir::{Board, Lands, Leg, Pat, NO_CELL};
use smallvec::SmallVec;
use std::cell::RefCell;

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
#[inline]
fn direction((x, y): (i8, i8)) -> (i8, i8) {
    let (a, b) = (x.unsigned_abs(), y.unsigned_abs());
    // The common vectors without a division: a part of one (a step, a leap of (1, 2)) has
    // no common divisor, a part of nought or both parts equal leave the signs.
    if a == 1 || b == 1 {
        return (x, y);
    }
    if a == 0 || b == 0 || a == b {
        return (x.signum(), y.signum());
    }
    let g = gcd(a.into(), b.into()) as i8;
    (x / g, y / g)
}

/// The greatest common divisor of `a` and `b` (`a` for `b` nought).
fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The legs of a pattern made of legs and choices between them only, in the order a walk
/// takes them; `None` for one with a continuation.
fn legs(pat: &Pat) -> Option<Vec<&Leg>> {
    fn add<'p>(pat: &'p Pat, out: &mut Vec<&'p Leg>) -> bool {
        match pat {
            Pat::Leg(leg) => {
                out.push(leg);
                true
            }
            Pat::Alt(alts) => alts.iter().all(|a| add(a, out)),
            Pat::Seq { .. } => false,
        }
    }
    let mut out = Vec::new();
    add(pat, &mut out).then_some(out)
}

/// What the walker needs to know of the position.
pub struct Walk<'a> {
    pub board: &'a Board,
    /// The component on each cell, or `NONE`.
    pub occ: &'a [u16],
    pub owners: &'a [u8],
    /// The occupied cells and the mover's, as words, on a board of at most 64 cells
    /// (rows of the state's index of occupied cells; 0 elsewhere): a pattern whose rays
    /// are words walks them with these (`Rays::cells_word`).
    pub taken: u64,
    pub held: u64,
    pub mover: u8,
    /// The mover's forward, as a unit vector; pattern vectors have +y forward.
    pub forward: (i8, i8),
}

/// A move pattern as the walker takes it: the pattern, and whether no two of its ways can
/// end on one cell (`distinct_ends`), so that the cells given need not be remembered.
#[derive(Clone, Copy)]
pub struct Moves<'a> {
    pub pat: &'a Pat,
    pub distinct: bool,
    /// Its rays worked out beforehand, for each forward they were worked out for (`Rays`).
    pub rays: &'a [((i8, i8), Rays)],
}

impl<'a> Moves<'a> {
    /// The rays worked out for a mover whose forward is `forward`, if they were.
    #[inline]
    pub(crate) fn rays_for(&self, forward: (i8, i8)) -> Option<&'a Rays> {
        (self.rays.iter())
            .find(|(fw, _)| *fw == forward)
            .map(|(_, r)| r)
    }
}

/// The rays of a pattern of legs (or choices between legs) worked out once for one
/// forward, on a board of cells laid out on a grid: for each cell, the cells each leg's
/// vector leads to, in the walk's order, up to the board's edge or the leg's range, as if
/// the board were empty. A walk reads them and stops each ray at its first occupied cell,
/// as `Walk::ray` does, without working out a cell's place at each step.
#[derive(Debug, Default, Clone)]
pub struct Rays {
    /// Where each cell's rays begin in `rays` (one more than the cells: the end).
    starts: Vec<u32>,
    rays: Vec<Ray>,
    /// The rays' cells, one after the other.
    cells: Vec<u16>,
    /// On a board of at most 64 cells, each ray's cells as a word, one for each ray, and
    /// whether they go up the board's order (else down); empty where some ray goes
    /// neither way (see `attacks_word`).
    words: Vec<(u64, bool)>,
}

#[derive(Debug, Clone, Copy)]
struct Ray {
    start: u32,
    len: u16,
    lands: Lands,
}

/// The most cells the rays of all of a game's patterns may hold together (two bytes
/// each): those past it are walked cell by cell.
pub const MOST_RAY_CELLS: usize = 1 << 22;

impl Rays {
    /// The rays of `pat` for a mover facing `forward`, if it is made of legs and choices
    /// between them only, `board` lays its cells out on a grid, and they hold at most
    /// `room` cells (taken from `room`; rays that do not fit leave no room for any more,
    /// so that no more time goes into rays that will not be kept).
    pub fn of(board: &Board, pat: &Pat, forward: (i8, i8), room: &mut usize) -> Option<Rays> {
        if !board.cell_area.is_empty() || !distinct_ends(pat) {
            return None;
        }
        let legs = legs(pat)?;
        let empty = vec![NONE; board.cells.len()];
        let walk = Walk {
            board,
            occ: &empty,
            owners: &[],
            taken: 0,
            held: 0,
            mover: 0,
            forward,
        };
        let (mut starts, mut rays, mut cells) = (vec![0], Vec::new(), Vec::new());
        for from in 0..board.cells.len() as u16 {
            for leg in &legs {
                for &v in &leg.vectors {
                    let start = cells.len();
                    walk.ray(leg, from, walk.orient(v), &mut |c| {
                        cells.push(c);
                        true
                    });
                    if cells.len() > *room {
                        *room = 0;
                        return None;
                    }
                    if cells.len() > start {
                        rays.push(Ray {
                            start: start as u32,
                            len: (cells.len() - start) as u16,
                            lands: leg.lands,
                        });
                    }
                }
            }
            starts.push(rays.len() as u32);
        }
        *room -= cells.len();
        let words = Rays::words_of(board.cells.len(), &rays, &cells);
        Some(Rays {
            starts,
            rays,
            cells,
            words,
        })
    }

    /// Each ray's cells as a word and whether they go up the board's order (see
    /// `words`), if every ray's cells go one way.
    fn words_of(n: usize, rays: &[Ray], cells: &[u16]) -> Vec<(u64, bool)> {
        if n > 64 {
            return Vec::new();
        }
        let mut words = Vec::with_capacity(rays.len());
        for r in rays {
            let cs = &cells[r.start as usize..][..r.len as usize];
            let up = cs.windows(2).all(|w| w[0] < w[1]);
            if !up && !cs.windows(2).all(|w| w[0] > w[1]) {
                return Vec::new();
            }
            words.push((cs.iter().fold(0u64, |w, &c| w | 1 << c), up));
        }
        words
    }

    /// `Walk::each_cell` where the rays are words: each ray's cells up to and with its
    /// first of `taken`; as destinations, of those the empty ones where the leg may move
    /// and the last where it may capture and it is not the mover's (`held`). Without a
    /// branch on what stands on each cell.
    #[inline(always)]
    pub(crate) fn cells_word<F: FnMut(u16) -> bool + ?Sized>(
        &self,
        attacks: bool,
        from: u16,
        taken: u64,
        held: u64,
        f: &mut F,
    ) -> bool {
        let (a, b) = (
            self.starts[from as usize] as usize,
            self.starts[from as usize + 1] as usize,
        );
        for (r, &(cells, up)) in self.rays[a..b].iter().zip(&self.words[a..b]) {
            let mut reach = geometry::line_reach(cells, up, taken);
            if attacks {
                if r.lands == Lands::Move {
                    continue;
                }
            } else {
                let (empty, foe) = (!taken, taken & !held);
                reach &= match r.lands {
                    Lands::Any => empty | foe,
                    Lands::Move => empty,
                    Lands::Capture => foe,
                };
            }
            if !along(reach, up, f) {
                return false;
            }
        }
        true
    }

    /// Whether each ray's cells are a word (see `words`): `cells_word` walks them.
    #[inline]
    pub(crate) fn in_words(&self) -> bool {
        !self.words.is_empty()
    }

    /// Whether the rays' cells are words (see `words`), or there are no rays.
    pub(crate) fn has_words(&self) -> bool {
        self.in_words() || self.rays.is_empty()
    }

    /// The attacks from `from` as `each_cell` finds them, as a word, where the rays are
    /// words (`has_words`): each ray up to and with its first cell of `occupied`, a leg
    /// that never captures left out. Each ray is handed to `f` (its cells up to there, and
    /// whether they go up the board's order), in the walk's order, while it says to go on.
    #[inline(always)]
    pub(crate) fn attacks_word(
        &self,
        from: u16,
        occupied: u64,
        mut f: impl FnMut(u64, bool) -> bool,
    ) {
        let (a, b) = (
            self.starts[from as usize] as usize,
            self.starts[from as usize + 1] as usize,
        );
        for (r, &(cells, up)) in self.rays[a..b].iter().zip(&self.words[a..b]) {
            if r.lands == Lands::Move {
                continue;
            }
            let reach = geometry::line_reach(cells, up, occupied);
            if !f(reach, up) {
                return;
            }
        }
    }
}

/// The cells of `cells` (a word) one at a time along a line going up the board's order
/// (`up`) or down it, while `f` says to go on (false if it stopped).
#[inline(always)]
pub(crate) fn along<F: FnMut(u16) -> bool + ?Sized>(mut cells: u64, up: bool, f: &mut F) -> bool {
    while cells != 0 {
        let c = if up {
            cells.trailing_zeros()
        } else {
            63 - cells.leading_zeros()
        };
        cells &= !(1 << c);
        if !f(c as u16) {
            return false;
        }
    }
    true
}

/// Whether no two ways through `pat` can end on one cell: it is made of legs and choices
/// between them only, and no two of their vectors can land on one cell. A way by a leg
/// ends on a multiple of its vector, up to its range, so two vectors can meet only along
/// one direction: `a` and `b` steps of it long, at the first multiple of both, if both
/// ranges reach it (a leap of two squares and a step meet nowhere; a rider and a leap of
/// two squares do).
pub fn distinct_ends(pat: &Pat) -> bool {
    let Some(legs) = legs(pat) else {
        return false;
    };
    // A vector of no length lands where it starts: no ray (`Rays`) is worked out for it.
    if legs.iter().any(|leg| leg.vectors.contains(&(0, 0))) {
        return false;
    }
    // Each vector: its direction, how many steps of the direction long it is, its range
    // (0 for none).
    let all: Vec<((i8, i8), u32, u32)> = (legs.iter())
        .flat_map(|leg| {
            leg.vectors.iter().map(|&v| {
                let d = direction(v);
                let long = if d.0 != 0 { v.0 / d.0 } else { v.1 / d.1 };
                (d, u32::from(long.unsigned_abs()), u32::from(leg.range))
            })
        })
        .collect();
    // Whether `n` steps along the direction are within a vector's reach.
    let reaches = |n: u32, long: u32, range: u32| range == 0 || n / long <= range;
    all.iter().enumerate().all(|(i, &(d, a, ra))| {
        all[i + 1..].iter().all(|&(e, b, rb)| {
            let meet = a / gcd(a, b) * b;
            d != e || !(reaches(meet, a, ra) && reaches(meet, b, rb))
        })
    })
}

impl Walk<'_> {
    #[inline]
    fn orient(&self, (x, y): (i8, i8)) -> (i8, i8) {
        // Facing up the board or down it (the common cases), without multiplying.
        match self.forward {
            (0, 1) => (x, y),
            (0, -1) => (-x, -y),
            (fx, fy) => (x * fy + y * fx, -x * fx + y * fy),
        }
    }

    /// The rays of `moves` worked out for this walker's forward, if they are.
    #[inline(always)]
    pub(crate) fn rays<'m>(&self, moves: Moves<'m>) -> Option<&'m Rays> {
        moves.rays_for(self.forward)
    }

    /// What `destinations(...)` (`attacks` false) or `attacks(...)` gives from `from`, one
    /// cell at a time, while `f` says to go on (false if it stopped). Several ways to one
    /// cell give it once.
    ///
    /// A destination is a cell the mover may end on: empty, or held by another owner, as
    /// the last leg's `m` or `c` allows. An attacked cell is where a way ends by a leg that
    /// may capture (not `m`), whatever stands there: empty, another owner's piece, or the
    /// mover's own (a defended piece).
    pub fn each_cell<F: FnMut(u16) -> bool + ?Sized>(
        &self,
        attacks: bool,
        from: u16,
        moves: Moves,
        f: &mut F,
    ) -> bool {
        // Legs whose ways never meet (the only patterns with rays worked out): each ray's
        // cells given as they come (a ray never comes back to `from`), where there are rays
        // for the mover's forward.
        if let Some(rays) = self.rays(moves) {
            if rays.in_words() {
                return rays.cells_word(attacks, from, self.taken, self.held, f);
            }
            return self.table_cells(attacks, from, rays, f);
        }
        // The cells given so far, for a pattern whose ways may meet.
        let mut given = (!moves.distinct).then(|| CellSet::new(self.board.cells.len()));
        self.ends_of(moves.pat, from, None, &mut |c, _, lands| {
            if c == from || given.as_ref().is_some_and(|g| g.contains(c)) {
                return true;
            }
            if !self.ends(attacks, c, lands) {
                return true;
            }
            if let Some(g) = &mut given {
                g.insert(c);
            }
            f(c)
        })
    }

    /// `each_cell` of a pattern of legs whose ways never meet, read from its rays.
    #[inline(always)]
    fn table_cells<F: FnMut(u16) -> bool + ?Sized>(
        &self,
        attacks: bool,
        from: u16,
        t: &Rays,
        f: &mut F,
    ) -> bool {
        let (a, b) = (
            t.starts[from as usize] as usize,
            t.starts[from as usize + 1] as usize,
        );
        for r in &t.rays[a..b] {
            // A leg that never captures attacks nothing.
            if attacks && r.lands == Lands::Move {
                continue;
            }
            for &c in &t.cells[r.start as usize..][..r.len as usize] {
                if (attacks || self.ends(false, c, r.lands)) && !f(c) {
                    return false;
                }
                if self.occ[c as usize] != NONE {
                    break;
                }
            }
        }
        true
    }

    /// Whether `each_cell` would give `target`, for a pattern of legs and choices between
    /// them (`None` for one with a continuation: the caller walks it): only the rays that
    /// point at `target` are followed, each up to it at most. With the cells looked at.
    pub fn reaches(&self, attacks: bool, from: u16, target: u16, pat: &Pat) -> Option<(bool, u32)> {
        if from == target {
            return Some((false, 0));
        }
        let (a, b) = (
            &self.board.cells[from as usize],
            &self.board.cells[target as usize],
        );
        let (dx, dy) = (b.x as i32 - a.x as i32, b.y as i32 - a.y as i32);
        let mut looked = 0;
        let found = self.reaches_by(attacks, target, from, (dx, dy), pat, &mut looked)?;
        Some((found, looked))
    }

    fn reaches_by(
        &self,
        attacks: bool,
        target: u16,
        from: u16,
        (dx, dy): (i32, i32),
        pat: &Pat,
        looked: &mut u32,
    ) -> Option<bool> {
        let leg = match pat {
            Pat::Leg(leg) => leg,
            Pat::Alt(alts) => {
                for a in alts {
                    if self.reaches_by(attacks, target, from, (dx, dy), a, looked)? {
                        return Some(true);
                    }
                }
                return Some(false);
            }
            Pat::Seq { .. } => return None,
        };
        for &v in &leg.vectors {
            let v = self.orient(v);
            let (vx, vy) = (v.0 as i32, v.1 as i32);
            // Only a ray along the target's direction can reach it.
            if vx * dy != vy * dx || vx * dx + vy * dy <= 0 {
                continue;
            }
            let mut found = false;
            self.ray(leg, from, v, &mut |t| {
                *looked += 1;
                found = t == target && self.ends(attacks, t, leg.lands);
                t != target
            });
            if found {
                return Some(true);
            }
        }
        Some(false)
    }

    /// Whether a way that lands on `c` by a leg landing as `lands` gives it: as an attack,
    /// a leg that may capture; as a destination, an empty cell or another owner's piece,
    /// as the leg's `m` or `c` allows.
    #[inline(always)]
    fn ends(&self, attacks: bool, c: u16, lands: Lands) -> bool {
        if attacks {
            return lands != Lands::Move;
        }
        let there = self.occ[c as usize];
        let empty = there == NONE;
        (empty || self.owners[there as usize] != self.mover) && lands.allows(empty)
    }

    /// The cells a leg lands on along vector `v` (oriented) from `at`, in order, while `f`
    /// says to go on (false if it stopped): a leaper's one, a rider's up to the first
    /// occupied cell, the board's edge or its range.
    #[inline(always)]
    fn ray<F: FnMut(u16) -> bool + ?Sized>(
        &self,
        leg: &Leg,
        at: u16,
        v: (i8, i8),
        f: &mut F,
    ) -> bool {
        let mut t = at;
        let mut k = 0u32;
        loop {
            t = offset(self.board, t, v);
            if t == NO_CELL {
                return true;
            }
            k += 1;
            if !f(t) {
                return false;
            }
            if leg.range == 1
                || self.occ[t as usize] != NONE
                || (leg.range > 0 && k >= leg.range as u32)
            {
                return true;
            }
        }
    }

    /// Whether `target` may be within a pattern's reach from `from`: false when it is
    /// farther along either axis than the pattern's `extent` goes.
    pub fn within(&self, from: u16, target: u16, extent: u16) -> bool {
        let (a, b) = (
            &self.board.cells[from as usize],
            &self.board.cells[target as usize],
        );
        a.x.abs_diff(b.x) <= extent && a.y.abs_diff(b.y) <= extent
    }

    /// Calls `f` on where each way through `pat` from `at` lands, with the vector of its
    /// last leg (oriented: its direction is `direction` of it, found only by a caller that
    /// needs it) and what may stand there; stops when `f` returns false (and returns
    /// false then). `same` restricts the first leg to the direction given.
    ///
    /// Legs and choices between them call `f` directly (it is inlined into their loops);
    /// only a continuation goes through `ends_each`, with `f` behind a pointer.
    #[inline]
    fn ends_of<F: FnMut(u16, (i8, i8), Lands) -> bool>(
        &self,
        pat: &Pat,
        at: u16,
        same: Option<(i8, i8)>,
        f: &mut F,
    ) -> bool {
        match pat {
            Pat::Leg(leg) => self.leg_ends(leg, at, same, f),
            Pat::Alt(alts) => alts.iter().all(|a| match a {
                Pat::Leg(leg) => self.leg_ends(leg, at, same, f),
                other => self.ends_each(other, at, same, f),
            }),
            seq => self.ends_each(seq, at, same, f),
        }
    }

    /// Where one leg lands from `at` (see `ends_of`).
    #[inline(always)]
    fn leg_ends<F: FnMut(u16, (i8, i8), Lands) -> bool + ?Sized>(
        &self,
        leg: &Leg,
        at: u16,
        same: Option<(i8, i8)>,
        f: &mut F,
    ) -> bool {
        for &v in &leg.vectors {
            let v = self.orient(v);
            if same.is_some_and(|s| s != direction(v)) {
                continue;
            }
            if !self.ray(leg, at, v, &mut |t| f(t, v, leg.lands)) {
                return false;
            }
        }
        true
    }

    /// `ends_of`, with `f` behind a pointer (one copy of the walk for continuations).
    fn ends_each(
        &self,
        pat: &Pat,
        at: u16,
        same: Option<(i8, i8)>,
        f: &mut dyn FnMut(u16, (i8, i8), Lands) -> bool,
    ) -> bool {
        match pat {
            Pat::Leg(leg) => self.leg_ends(leg, at, same, f),
            Pat::Alt(alts) => alts.iter().all(|a| self.ends_each(a, at, same, f)),
            Pat::Seq {
                first,
                optional,
                same: keep,
                then,
            } => self.ends_each(first, at, same, &mut |c, v, lands| {
                if *optional && !f(c, v, lands) {
                    return false;
                }
                // A leg ends on an empty cell to go on from it.
                if self.occ[c as usize] == NONE {
                    return self.ends_each(then, c, keep.then_some(direction(v)), f);
                }
                true
            }),
        }
    }
}

/// The most cells `destinations` or `attacks` of a pattern of legs and choices between
/// them can give on `board` (`None` for one with a continuation): a leg's rays, each as
/// long as its range or the board.
pub fn most_cells(pat: &Pat, board: &Board) -> Option<usize> {
    match pat {
        Pat::Leg(leg) => {
            let longest = usize::from(board.width.max(board.height));
            let range = if leg.range == 0 {
                longest
            } else {
                usize::from(leg.range).min(longest)
            };
            Some(leg.vectors.len() * range)
        }
        Pat::Alt(alts) => alts.iter().map(|a| most_cells(a, board)).sum(),
        Pat::Seq { .. } => None,
    }
}

/// How far a pattern may take a piece along either axis of the board (the most its
/// ways add up to; `u16::MAX` for an unlimited rider), whichever way its owner faces.
pub fn extent(pat: &Pat) -> u16 {
    match pat {
        Pat::Leg(leg) => {
            if leg.range == 0 {
                return u16::MAX;
            }
            let longest = leg
                .vectors
                .iter()
                .map(|&(x, y)| x.unsigned_abs().max(y.unsigned_abs()) as u16)
                .max()
                .unwrap_or(0);
            longest.saturating_mul(leg.range as u16)
        }
        Pat::Alt(alts) => alts.iter().map(extent).max().unwrap_or(0),
        Pat::Seq { first, then, .. } => extent(first).saturating_add(extent(then)),
    }
}

/// A pattern read as a graph of steps, for moves taken a part at a time (`route`): every
/// leap is one step, and a rider's every square is one step that may go on in the same
/// direction. A way through the pattern is a walk from node 0 along edges (and the free
/// `eps` links between legs); it may end on a node that `accept`s.
#[derive(Debug, Default, Clone)]
pub struct Steps {
    nodes: Vec<StepNode>,
    /// The pattern's `extent`.
    pub extent: u16,
    /// The states a move is in before its first step (see `start`).
    start: States,
}

#[derive(Debug, Default, Clone)]
struct StepNode {
    accept: bool,
    /// What may stand where a move that ends on this node ends.
    lands: Lands,
    eps: Vec<u16>,
    edges: Vec<StepEdge>,
}

#[derive(Debug, Clone)]
struct StepEdge {
    vectors: Vec<(i8, i8)>,
    /// The step keeps the direction of the step before it.
    same: bool,
    to: u16,
}

/// A position of a move in progress: a node of its pattern's graph and the direction of
/// its last step ((0, 0) before the first).
pub type StepState = (u16, (i8, i8));

/// Positions of a move, and steps to take (cell landed on, state there), and cells: on
/// the stack when there are few, so that following a move does not allocate.
pub type States = SmallVec<[StepState; 16]>;
type NextSteps = SmallVec<[(u16, StepState); 32]>;
pub type Cells = SmallVec<[u16; 32]>;

/// How many ways `passed` follows at most (a pattern of many free-turning legs has many).
pub const MAX_WAYS: usize = 100_000;

impl Steps {
    pub fn of(pat: &Pat) -> Steps {
        let mut g = Steps {
            nodes: vec![StepNode::default()],
            extent: extent(pat),
            start: States::new(),
        };
        let exits = g.build(pat, 0, false);
        for e in exits {
            g.nodes[e as usize].accept = true;
        }
        g.start = g.close(&[(0, (0, 0))]);
        g
    }

    fn node(&mut self) -> u16 {
        self.nodes.push(StepNode::default());
        (self.nodes.len() - 1) as u16
    }

    /// Adds `pat` from `entry`; its first steps keep the direction before them if `same`.
    /// Returns the nodes where it may end.
    fn build(&mut self, pat: &Pat, entry: u16, same: bool) -> Vec<u16> {
        match pat {
            Pat::Leg(leg) => {
                let first = self.node();
                self.nodes[first as usize].lands = leg.lands;
                self.nodes[entry as usize].edges.push(StepEdge {
                    vectors: leg.vectors.clone(),
                    same,
                    to: first,
                });
                if leg.range == 1 {
                    return vec![first];
                }
                if leg.range == 0 {
                    // An unlimited rider: every square may go on, straight.
                    self.nodes[first as usize].edges.push(StepEdge {
                        vectors: leg.vectors.clone(),
                        same: true,
                        to: first,
                    });
                    return vec![first];
                }
                let mut exits = vec![first];
                let mut last = first;
                for _ in 1..leg.range {
                    let next = self.node();
                    self.nodes[next as usize].lands = leg.lands;
                    self.nodes[last as usize].edges.push(StepEdge {
                        vectors: leg.vectors.clone(),
                        same: true,
                        to: next,
                    });
                    exits.push(next);
                    last = next;
                }
                exits
            }
            Pat::Alt(alts) => alts
                .iter()
                .flat_map(|a| self.build(a, entry, same))
                .collect(),
            Pat::Seq {
                first,
                optional,
                same: keep,
                then,
            } => {
                let firsts = self.build(first, entry, same);
                let join = self.node();
                for &f in &firsts {
                    self.nodes[f as usize].eps.push(join);
                }
                let mut exits = self.build(then, join, *keep);
                if *optional {
                    exits.extend(firsts);
                }
                exits
            }
        }
    }

    /// The states a move is in before its first step.
    pub fn start(&self) -> &[StepState] {
        &self.start
    }

    /// `states` with every node reached from them by free links, sorted, each once.
    fn close(&self, states: &[StepState]) -> States {
        let mut out = States::new();
        self.close_into(states, &mut out, &mut SmallVec::new());
        out
    }

    /// `close` into `out`, with `todo` to work in.
    fn close_into(
        &self,
        states: &[StepState],
        out: &mut States,
        todo: &mut SmallVec<[StepState; 32]>,
    ) {
        out.clear();
        todo.clear();
        todo.extend_from_slice(states);
        while let Some(st) = todo.pop() {
            if out.contains(&st) {
                continue;
            }
            out.push(st);
            for &n in &self.nodes[st.0 as usize].eps {
                todo.push((n, st.1));
            }
        }
        out.sort();
    }

    /// Whether a move in `states` may end where it stands, on a cell that is empty
    /// (`empty`) or holds another owner's piece.
    pub fn accepts(&self, states: &[StepState], empty: bool) -> bool {
        states.iter().any(|&(n, _)| {
            let node = &self.nodes[n as usize];
            node.accept && node.lands.allows(empty)
        })
    }

    /// Whether a move in `states` has more steps to take.
    fn goes_on(&self, states: &[StepState]) -> bool {
        states
            .iter()
            .any(|&(n, _)| !self.nodes[n as usize].edges.is_empty())
    }
}

/// Every landing of a move in progress: the cell, the (closed) states it is in there,
/// sorted, and the states its steps arrived in (each followed once).
#[derive(Default)]
pub struct Landing {
    pub cell: u16,
    pub states: States,
    arrived: States,
}

/// What `landings` works in, kept per thread so that following a move allocates nothing
/// once warm: a buffer that once grew past its stack size keeps its heap storage.
#[derive(Default)]
struct Scratch {
    todo: NextSteps,
    next: NextSteps,
    closing: SmallVec<[StepState; 32]>,
    closed: States,
    /// The landings found so far, `landed` of them; those after keep their storage.
    cells: Vec<Landing>,
    landed: usize,
    /// Per cell of the board: 1 + its landing's index in `cells`, or 0.
    slot: Vec<u32>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Makes room in one of landing `i`'s lists (`list` picks which) for `more` states without
/// allocating, when another landing of the scratch holds a heap buffer big enough and no
/// more states than fit on the stack: the two exchange buffers, each keeping its states.
/// Which landing of the scratch a cell gets varies from call to call, so a buffer that
/// once grew would otherwise sit with a cell that needs few states while another grows.
fn room(cells: &mut [Landing], i: usize, more: usize, list: fn(&mut Landing) -> &mut States) {
    let (len, cap) = {
        let mine = list(&mut cells[i]);
        (mine.len(), mine.capacity())
    };
    let need = len + more;
    if need <= cap {
        return;
    }
    let Some(k) = (0..cells.len()).find(|&k| {
        let other = list(&mut cells[k]);
        k != i && other.capacity() >= need && other.len() <= other.inline_size()
    }) else {
        return;
    };
    let Ok([mine, other]) = cells.get_disjoint_mut([i, k]) else {
        return;
    };
    let (a, b) = (list(mine), list(other));
    // `theirs` stays on the stack and fits in the buffer `a` gives up; `a`'s states fit
    // in the one it takes.
    let theirs: States = b.iter().copied().collect();
    std::mem::swap(a, b);
    a.clear();
    a.extend_from_slice(b);
    b.clear();
    b.extend_from_slice(&theirs);
}

impl Walk<'_> {
    /// The steps one position of a move may take next: (cell landed on, state there).
    fn next_steps(&self, g: &Steps, at: u16, st: StepState, out: &mut NextSteps) {
        for e in &g.nodes[st.0 as usize].edges {
            for &v in &e.vectors {
                let v = self.orient(v);
                let d = direction(v);
                if e.same && st.1 != (0, 0) && st.1 != d {
                    continue;
                }
                let t = offset(self.board, at, v);
                if t != NO_CELL {
                    out.push((t, (e.to, d)));
                }
            }
        }
    }

    /// Calls `f` with every cell the rest of a move reaches from `at` in `states`, by one
    /// step or more, in the order of the cells: steps go on only from an empty cell (the
    /// mover stands on `at`, which counts as occupied). Landings on one cell are merged.
    pub fn landings<R>(
        &self,
        g: &Steps,
        at: u16,
        states: &[StepState],
        f: impl FnOnce(&[Landing]) -> R,
    ) -> R {
        SCRATCH.with_borrow_mut(|sc| {
            let Scratch {
                todo,
                next,
                closing,
                closed,
                cells,
                landed,
                slot,
            } = sc;
            if slot.len() < self.board.cells.len() {
                slot.resize(self.board.cells.len(), 0);
            }
            *landed = 0;
            todo.clear();
            for &st in states {
                self.next_steps(g, at, st, todo);
            }
            while let Some((c, st)) = todo.pop() {
                let i = match slot[c as usize] {
                    0 => {
                        if *landed == cells.len() {
                            cells.push(Landing::default());
                        }
                        let l = &mut cells[*landed];
                        (l.cell, *landed) = (c, *landed + 1);
                        l.states.clear();
                        l.arrived.clear();
                        slot[c as usize] = *landed as u32;
                        *landed - 1
                    }
                    n => n as usize - 1,
                };
                if cells[i].arrived.contains(&st) {
                    continue;
                }
                room(cells, i, 1, |l| &mut l.arrived);
                cells[i].arrived.push(st);
                g.close_into(&[st], closed, closing);
                room(cells, i, closed.len(), |l| &mut l.states);
                let here = &mut cells[i];
                for s in closed.iter() {
                    if !here.states.contains(s) {
                        here.states.push(*s);
                    }
                }
                here.states.sort_unstable();
                if c != at && self.occ[c as usize] == NONE {
                    for &s in closed.iter() {
                        self.next_steps(g, c, s, next);
                    }
                    todo.append(next);
                }
            }
            let found = &mut cells[..*landed];
            for l in found.iter() {
                slot[l.cell as usize] = 0;
            }
            // Cells are each landed on once: an unstable sort gives the one order.
            found.sort_unstable_by_key(|l| l.cell);
            f(found)
        })
    }

    /// Calls `f` on each cell the rest of a move may stop on, in the order of the cells,
    /// never `origin` nor `at`: where it may end (`finishes`: a way ends there, and the
    /// cell is empty or held by another owner), else where it may pause and go on later
    /// (an empty cell from which it has steps left).
    pub fn stops(
        &self,
        finishes: bool,
        g: &Steps,
        origin: u16,
        at: u16,
        states: &[StepState],
        f: &mut dyn FnMut(u16),
    ) {
        self.landings(g, at, states, |cells| {
            for l in cells {
                let there = self.occ[l.cell as usize];
                let stops = if finishes {
                    (there == NONE || self.owners[there as usize] != self.mover)
                        && g.accepts(&l.states, there == NONE)
                } else {
                    there == NONE && g.goes_on(&l.states)
                };
                if stops && l.cell != origin && l.cell != at {
                    f(l.cell);
                }
            }
        })
    }

    /// `f` of the states of the move once it has gone on from `at` to `to` (none if it
    /// cannot).
    pub fn advance<R>(
        &self,
        g: &Steps,
        at: u16,
        states: &[StepState],
        to: u16,
        f: impl FnOnce(&[StepState]) -> R,
    ) -> R {
        self.landings(g, at, states, |cells| {
            f(cells
                .iter()
                .find(|l| l.cell == to)
                .map_or(&[][..], |l| &l.states[..]))
        })
    }

    /// The cells every way of the rest of the move from `at` to `to` lands on before `to`,
    /// in the order of the first such way. Empty if no way reaches `to`.
    pub fn passed(&self, g: &Steps, at: u16, states: &[StepState], to: u16) -> Cells {
        let mut common: Option<Cells> = None;
        let mut path = Cells::new();
        let mut ways = 0usize;
        for &st in states {
            self.ways(g, at, at, st, to, &mut path, &mut common, &mut ways);
        }
        common.unwrap_or_default()
    }

    #[allow(clippy::too_many_arguments)]
    fn ways(
        &self,
        g: &Steps,
        start: u16,
        at: u16,
        st: StepState,
        to: u16,
        path: &mut Cells,
        common: &mut Option<Cells>,
        ways: &mut usize,
    ) {
        if *ways >= MAX_WAYS {
            return;
        }
        let mut next = NextSteps::new();
        for s in g.close(&[st]) {
            self.next_steps(g, at, s, &mut next);
        }
        for (c, s) in next {
            *ways += 1;
            if c == to {
                match common {
                    None => *common = Some(path.clone()),
                    Some(k) => k.retain(|x| path.contains(x)),
                }
                continue;
            }
            if c != start && self.occ[c as usize] == NONE && !path.contains(&c) {
                path.push(c);
                self.ways(g, start, c, s, to, path, common, ways);
                path.pop();
            }
        }
    }
}
