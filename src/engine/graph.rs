//! Topology that lives in the state: areas laid out by shapes in play, and the links
//! between cells (each shape's own links plus the board's link rules). Paths over links:
//! `linked`, `reachable` (through empty cells) and `targets` (occupied cells at the end
//! of a path, passing over at most N occupied ones).

use super::eval::Eval;
use super::geometry::CellSet;
use super::plan::Cond;
use super::state::{State, NONE, NO_SEAT};
use super::{code, Engine, EngineError};
use crate::ir::Items;
use crate::ir::{BinOp, Expr, ShapeDef, Value, NO_AREA};
use std::cell::RefCell;
use std::collections::VecDeque;

thread_local! {
    /// The storage `targets` works in, kept for the next call.
    static TARGETS: RefCell<(Vec<u32>, VecDeque<u16>)> = const { RefCell::new((Vec::new(), VecDeque::new())) };
    /// The storage `relink` builds a link table in, kept for the next one.
    static SPARE_LINKS: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
}

impl Engine {
    /// How many area instances the game has (one per seat for a per-seat area).
    pub(crate) fn area_instances(&self) -> usize {
        let seats = self.game.seats.len().max(1);
        self.game
            .board
            .areas
            .iter()
            .map(|a| if a.per_seat { seats } else { 1 })
            .sum()
    }

    /// How many `u64` words each cell's row of the link table takes (0 without areas).
    pub(crate) fn link_words(&self) -> usize {
        if self.game.board.areas.is_empty() {
            0
        } else {
            self.game.board.cells.len().div_ceil(64)
        }
    }

    /// The shape laid out on a cell's area now, and the cell's place in it.
    pub fn cell_shape(&self, s: &State, cell: u16) -> Option<(&ShapeDef, usize)> {
        let ca = self.game.board.cell_area.get(cell as usize)?;
        let shape = *s.shapes.get(ca.instance as usize)?;
        if shape == NONE {
            return None;
        }
        let def = &self.game.shapes[shape as usize];
        ((ca.index as usize) < def.cell_row.len()).then_some((def, ca.index as usize))
    }

    /// `seat_of(cell)`: the seat whose area holds the cell, or none.
    #[inline]
    pub(crate) fn seat_of_cell(&self, cell: u16) -> Value {
        match self.game.board.cell_area.get(cell as usize) {
            Some(ca) if ca.seat != NO_SEAT => Value::Seat(ca.seat),
            _ => Value::None,
        }
    }

    /// `row(cell)`, or `rows(cell)` (`rows` true): the cell's row in its area's shape now,
    /// or how many rows that shape has; 0 for a cell no shape lays out.
    #[inline]
    pub(crate) fn row_of(&self, s: &State, cell: u16, rows: bool) -> i64 {
        match self.cell_shape(s, cell) {
            Some((sh, _)) if rows => sh.rows.len() as i64,
            Some((sh, i)) => sh.cell_row[i] as i64,
            None => 0,
        }
    }

    /// `NAME(seat)` of an area: its cells in its current shape, as a list; its one cell,
    /// for an area without shapes.
    #[inline]
    pub(crate) fn area_value(&self, s: &State, area: u16, seat: u8) -> Value {
        let def = &self.game.board.areas[area as usize];
        if def.families.is_empty() {
            let seat = if def.per_seat { seat as u16 } else { 0 };
            return Value::Cell(def.first_cell + seat * def.size);
        }
        let mut out = super::pool::take();
        self.area_cells(s, area, seat, &mut out);
        Value::List(out)
    }

    /// `cell.empty`: no component on it, and the cell exists now (`present`).
    #[inline]
    pub fn empty(&self, s: &State, cell: u16) -> bool {
        s.cells[cell as usize] == NONE && self.present(s, cell)
    }

    /// The cells that exist now (see `present`), as a set, and how many they are: those
    /// that always exist as they were found when the engine was built, then each shaped
    /// area instance's first cells, as many as its shape has.
    pub(crate) fn present_set(&self, s: &State) -> (CellSet, u64) {
        let p = &self.present_cells;
        let mut set = CellSet::of_words(self.game.board.cells.len(), &p.fixed);
        let mut count = p.fixed_count;
        for &(first, size) in &p.shaped {
            let n = self.laid_out(s, first, size);
            for c in first..first + n {
                set.insert(c);
            }
            count += n as u64;
        }
        (set, count)
    }

    /// Whether a cell exists now: grid cells and one-cell areas always do; a shaped
    /// area's cells, while its shape has them.
    #[inline]
    pub fn present(&self, s: &State, cell: u16) -> bool {
        shaped_area(&self.game.board, cell as usize).is_none() || self.cell_shape(s, cell).is_some()
    }

    /// The cells of one area instance, in order, that exist now: all of an area without
    /// shapes; of a shaped one, as many from its first as the shape laid out on it has
    /// (a cell's place in its area is its distance from the first, and it exists while
    /// the shape has a cell at that place: see `present`).
    pub(crate) fn area_cells(&self, s: &State, area: u16, seat: u8, out: &mut Items) {
        out.extend(self.area_span(s, area, seat).map(Value::Cell));
    }

    /// The cells of `NAME(seat)` of an area as numbers, in order (see `area_cells`).
    #[inline]
    pub(crate) fn area_span(&self, s: &State, area: u16, seat: u8) -> std::ops::Range<u16> {
        let a = &self.game.board.areas[area as usize];
        let seat = if a.per_seat { seat as u16 } else { 0 };
        let first = a.first_cell + seat * a.size;
        let n = if a.families.is_empty() {
            a.size
        } else {
            self.laid_out(s, first, a.size)
        };
        first..first + n
    }

    /// How many of a shaped area instance's cells (`size` from `first`) exist now: as
    /// many as the shape laid out on it has.
    #[inline]
    fn laid_out(&self, s: &State, first: u16, size: u16) -> u16 {
        if size == 0 {
            return 0;
        }
        self.cell_shape(s, first)
            .map_or(0, |(def, _)| def.cell_row.len().min(size as usize) as u16)
    }

    /// Lays out an area instance by a shape (`NONE` clears it), then links again.
    pub(crate) fn form(
        &self,
        s: &mut State,
        area: u16,
        seat: u8,
        shape: u16,
        l: &mut [Value],
    ) -> Result<(), EngineError> {
        let a = &self.game.board.areas[area as usize];
        let seat = if a.per_seat { seat as u16 } else { 0 };
        let inst = (a.first_instance + seat) as usize;
        if inst >= s.shapes.len() {
            return Err(EngineError::rules(
                code::SHAPE,
                format!(
                    "`form` names area `{}` of a seat that is not playing",
                    a.name
                ),
            ));
        }
        let keep = if shape == NONE {
            0
        } else {
            let sh = &self.game.shapes[shape as usize];
            if !a.families.contains(&sh.family) {
                return Err(EngineError::rules(
                    code::SHAPE,
                    format!(
                        "shape `{}` is not from a catalogue that shapes area `{}`",
                        sh.name, a.name
                    ),
                ));
            }
            sh.cell_row.len() as u16
        };
        let first = a.first_cell + seat * a.size;
        for c in first + keep..first + a.size {
            if s.cells[c as usize] != NONE {
                return Err(EngineError::rules(
                    code::SHAPE,
                    format!(
                        "`form` would remove cell {} of area `{}`, which holds a card or piece",
                        self.game.board.cells[c as usize].name, a.name
                    ),
                ));
            }
        }
        s.shapes[inst] = shape;
        self.relink(s, l);
        Ok(())
    }

    /// Builds the link table again from the shapes laid out and the link rules.
    pub(crate) fn relink(&self, s: &mut State, l: &mut [Value]) {
        let words = self.link_words();
        if words == 0 {
            return;
        }
        let board = &self.game.board;
        let n = board.cells.len();
        // The table is built in storage kept per thread (the rules may read the old table
        // while the new one is built).
        let mut links = SPARE_LINKS.with_borrow_mut(std::mem::take);
        links.clear();
        links.resize(n * words, 0);
        let mut set = |a: usize, b: usize| {
            links[a * words + b / 64] |= 1 << (b % 64);
            links[b * words + a / 64] |= 1 << (a % 64);
        };
        for a in &board.areas {
            if a.families.is_empty() {
                continue;
            }
            let copies = if a.per_seat {
                self.game.seats.len().max(1)
            } else {
                1
            };
            for seat in 0..copies {
                let shape = s.shapes[a.first_instance as usize + seat];
                if shape == NONE {
                    continue;
                }
                let first = (a.first_cell + seat as u16 * a.size) as usize;
                for &(x, y) in &self.game.shapes[shape as usize].links {
                    set(first + x as usize, first + y as usize);
                }
            }
        }
        if !self.link_terms.is_empty() {
            let mut present = super::pool::take_cells();
            present.extend((0..n as u16).filter(|&c| self.present(s, c)));
            let ev = Eval {
                eng: self,
                s,
                me: s.turn_seat,
            };
            // Each condition compiled where the plans have it (see `Plans::links`).
            let holds = |x: &Option<Expr>, c: Option<&Cond>, l: &mut [Value]| {
                x.as_ref()
                    .is_none_or(|x| super::plan::judged_by(c, &ev, x, l))
            };
            // For each term: the cells its conditions on one cell allow in either place,
            // then the pairs of those that its conditions on both allow.
            let (mut firsts, mut seconds) = (super::pool::take_cells(), super::pool::take_cells());
            for (i, t) in self.link_terms.iter().enumerate() {
                let [first, second, both] = match self.plans.links.get(i) {
                    Some([a, b, c]) => [a.as_ref(), b.as_ref(), c.as_ref()],
                    None => [None; 3],
                };
                firsts.clear();
                seconds.clear();
                for &c in present.iter() {
                    l[0] = Value::Cell(c);
                    if holds(&t.first, first, l) {
                        firsts.push(c);
                    }
                    l[1] = Value::Cell(c);
                    if holds(&t.second, second, l) {
                        seconds.push(c);
                    }
                }
                for &a in firsts.iter() {
                    for &b in seconds.iter() {
                        l[0] = Value::Cell(a);
                        l[1] = Value::Cell(b);
                        if a != b && holds(&t.both, both, l) {
                            set(a as usize, b as usize);
                        }
                    }
                }
            }
            super::pool::give_cells(seconds);
            super::pool::give_cells(firsts);
            super::pool::give_cells(present);
        }
        // Copied into the state's own storage, which a state copied into keeps.
        s.links.clear();
        s.links.extend_from_slice(&links);
        SPARE_LINKS.with_borrow_mut(|spare| *spare = links);
    }

    /// Calls `f` on each cell linked to `cell`.
    #[inline]
    fn each_link(&self, s: &State, cell: u16, mut f: impl FnMut(u16)) {
        let words = self.link_words();
        if words == 0 {
            return;
        }
        let row = &s.links[cell as usize * words..(cell as usize + 1) * words];
        for (w, &bits) in row.iter().enumerate() {
            let mut b = bits;
            while b != 0 {
                let i = b.trailing_zeros() as usize;
                f((w * 64 + i) as u16);
                b &= b - 1;
            }
        }
    }

    /// `linked(cell)`.
    pub(crate) fn linked(&self, s: &State, cell: u16, out: &mut Items) {
        self.each_link(s, cell, |c| out.push(Value::Cell(c)));
    }

    /// `reachable(cell, within)`: empty cells of `within` reached by links through empty
    /// cells of `within`.
    ///
    /// On a board of at most 64 cells, each cell's new neighbours are found as a word.
    pub(crate) fn reachable(&self, s: &State, cell: u16, within: &CellSet, out: &mut Items) {
        if self.link_words() == 1 {
            return self.reachable_word(s, cell, within.first_word(), out);
        }
        self.reachable_walk(s, cell, within, out);
    }

    /// `reachable` on a board of at most 64 cells: breadth first as `geometry::flood`
    /// walks, each cell's neighbours in cell order, those it may enter (empty cells of
    /// `within`, not reached yet) found at once.
    fn reachable_word(&self, s: &State, cell: u16, within: u64, out: &mut Items) {
        let open = within & !s.occupied_word(None);
        let start = out.len();
        let mut seen = 1u64 << cell;
        let mut c = cell;
        let mut i = start;
        loop {
            let mut new = s.links[c as usize] & open & !seen;
            seen |= new;
            while new != 0 {
                out.push(Value::Cell(new.trailing_zeros() as u16));
                new &= new - 1;
            }
            match out.get(i) {
                Some(&Value::Cell(next)) => c = next,
                _ => break,
            }
            i += 1;
        }
    }

    /// `reachable`, a neighbour at a time.
    fn reachable_walk(&self, s: &State, cell: u16, within: &CellSet, out: &mut Items) {
        super::geometry::flood(
            s.cells.len(),
            cell,
            |c, visit| self.each_link(s, c, visit),
            |n| within.contains(n) && s.cells[n as usize] == NONE,
            out,
        );
    }

    /// `targets(cell, k)`: occupied cells at the end of a path of links whose cells
    /// between are empty, but for at most `k` occupied cells passed over.
    ///
    /// On a board of at most 64 cells, found as words (`targets_word`).
    pub(crate) fn targets(&self, s: &State, cell: u16, k: i64, out: &mut Items) {
        if self.link_words() != 1 {
            return self.targets_walk(s, cell, k, out);
        }
        let k = k.clamp(0, s.cells.len() as i64) as u32;
        let mut hit = self.targets_word(s, cell, k);
        while hit != 0 {
            out.push(Value::Cell(hit.trailing_zeros() as u16));
            hit &= hit - 1;
        }
    }

    /// `targets`, walked a cell at a time: the cheapest way to each cell first, as a
    /// queue with two ends (a step onto an empty cell costs nothing, onto an occupied
    /// one costs one).
    fn targets_walk(&self, s: &State, cell: u16, k: i64, out: &mut Items) {
        let n = s.cells.len();
        // The fewest occupied cells passed over to stand on each cell, and the queue:
        // storage kept per thread from the last call (nothing here calls back into the
        // evaluator, so one call never meets another).
        let (mut cost, mut queue) = TARGETS.with_borrow_mut(std::mem::take);
        cost.clear();
        cost.resize(n, u32::MAX);
        queue.clear();
        let mut hit = CellSet::new(n);
        cost[cell as usize] = 0;
        queue.push_back(cell);
        let k = k.clamp(0, n as i64) as u32;
        while let Some(c) = queue.pop_front() {
            let here = cost[c as usize];
            self.each_link(s, c, |m| {
                let i = m as usize;
                if m == cell {
                    return;
                }
                if s.cells[i] != NONE {
                    hit.insert(m);
                    // Passing over it costs one.
                    if here < k && here + 1 < cost[i] {
                        cost[i] = here + 1;
                        queue.push_back(m);
                    }
                } else if here < cost[i] {
                    cost[i] = here;
                    queue.push_front(m);
                }
            });
        }
        out.extend((0..n as u16).filter(|&c| hit.contains(c)).map(Value::Cell));
        TARGETS.with_borrow_mut(|kept| *kept = (cost, queue));
    }

    /// `targets` on a board of at most 64 cells, as one word: the cells a path reaches
    /// passing over `j` occupied cells (the start's own flood through empty cells for
    /// `j` = 0, then from the occupied cells it met, for each `j` up to `k`), and the
    /// occupied cells next to any of them. The set `targets` finds, whatever order its
    /// walk takes: it lists them in cell order.
    fn targets_word(&self, s: &State, cell: u16, k: u32) -> u64 {
        let links = &s.links;
        let occupied = s.occupied_word(None);
        let start = 1u64 << cell;
        // The cells next to any cell of `set`.
        let around = |mut set: u64| {
            let mut next = 0;
            while set != 0 {
                next |= links[set.trailing_zeros() as usize];
                set &= set - 1;
            }
            next
        };
        let (mut seen, mut hit, mut from) = (start, 0u64, start);
        for j in 0..=k {
            // This level's flood through empty cells from `from`.
            let mut frontier = from;
            while frontier != 0 {
                let next = around(frontier);
                hit |= next & occupied;
                frontier = next & !occupied & !seen;
                seen |= frontier;
            }
            hit &= !start;
            if j == k {
                break;
            }
            // The next level starts on the occupied cells met, not walked from yet.
            from = hit & !seen;
            if from == 0 {
                break;
            }
            seen |= from;
        }
        hit
    }
}

/// A part of the board's link rules (one `link a, b when ...`, or a side of an `or` in
/// one), its conditions (the sides of its `and`s) sorted by the cells they read: the
/// first (or neither), only the second, or both. Each is the conditions of its kind
/// joined by `and` in their order, or `None` for none. The conditions read nothing but
/// the two cells and the state, and have no effects, so asking them in this order finds
/// the same links: `relink` asks the conditions on one cell of each cell once, and those
/// on both only of the pairs that passed them, where it asked the whole rule of every
/// pair of cells.
#[derive(Clone, Debug)]
pub(crate) struct LinkTerm {
    pub first: Option<Expr>,
    pub second: Option<Expr>,
    pub both: Option<Expr>,
}

/// The board's link rule (locals 0 and 1 are the two cells) taken apart (see `LinkTerm`).
pub(crate) fn link_terms(rule: Option<&Expr>) -> Vec<LinkTerm> {
    fn sides<'e>(op: BinOp, e: &'e Expr, out: &mut Vec<&'e Expr>) {
        match e {
            Expr::Binary(o, a, b) if *o == op => {
                sides(op, a, out);
                sides(op, b, out);
            }
            other => out.push(other),
        }
    }
    fn joined(parts: Vec<&Expr>) -> Option<Expr> {
        parts
            .into_iter()
            .cloned()
            .reduce(|a, b| Expr::Binary(BinOp::And, Box::new(a), Box::new(b)))
    }
    let mut terms = vec![];
    if let Some(rule) = rule {
        sides(BinOp::Or, rule, &mut terms);
    }
    terms
        .into_iter()
        .map(|t| {
            let mut conds = vec![];
            sides(BinOp::And, t, &mut conds);
            let (mut first, mut second, mut both) = (vec![], vec![], vec![]);
            for c in conds {
                match (c.reads_local(0), c.reads_local(1)) {
                    (_, false) => first.push(c),
                    (false, true) => second.push(c),
                    (true, true) => both.push(c),
                }
            }
            LinkTerm {
                first: joined(first),
                second: joined(second),
                both: joined(both),
            }
        })
        .collect()
}

/// The shaped area that holds cell `c`, and the cell's place in it; `None` for a cell that
/// always exists (one in no area, or in an area without shapes: see `Engine::present`).
#[inline]
fn shaped_area(
    board: &crate::ir::Board,
    c: usize,
) -> Option<(&crate::ir::CellArea, &crate::ir::AreaDef)> {
    let ca = board.cell_area.get(c)?;
    if ca.area == NO_AREA {
        return None;
    }
    let area = &board.areas[ca.area as usize];
    (!area.families.is_empty()).then_some((ca, area))
}

/// The board's cells sorted for `Engine::present_set`, found when the engine is built:
/// those that always exist (no area, or an area without shapes), one bit each, and how
/// many; and each shaped area instance (its first cell and its size), whose cells exist
/// while its shape has them (`Engine::laid_out`).
#[derive(Clone, Debug, Default)]
pub(crate) struct PresentCells {
    fixed: Vec<u64>,
    fixed_count: u64,
    shaped: Vec<(u16, u16)>,
}

impl PresentCells {
    pub(crate) fn of(board: &crate::ir::Board) -> PresentCells {
        let n = board.cells.len();
        let mut p = PresentCells {
            fixed: vec![0; n.div_ceil(64)],
            ..PresentCells::default()
        };
        for c in 0..n {
            match shaped_area(board, c) {
                // An instance's cells stand in order from its first, each at its place.
                Some((ca, area)) if ca.index == 0 => {
                    p.shaped.push((c as u16, area.size));
                }
                Some(_) => {}
                None => {
                    p.fixed[c / 64] |= 1 << (c % 64);
                    p.fixed_count += 1;
                }
            }
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use crate::check::compile_source;
    use crate::engine::geometry::CellSet;
    use crate::engine::state::{State, NONE};
    use crate::engine::Engine;
    use crate::ir::{Items, Value};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A game of links on a board of at most 64 cells, started.
    fn started() -> (Engine, State) {
        let text = include_str!("../../tests/constructs/link_rules.muster");
        let game = compile_source("link_rules.muster", text, None)
            .unwrap_or_else(|_| panic!("link_rules.muster does not compile"))
            .game;
        let eng = Engine::new(game);
        assert_eq!(eng.link_words(), 1, "a board of at most 64 cells");
        let s = eng.start(2, 1).expect("the game starts");
        (eng, s)
    }

    /// A seeded random table of links (either way round) and random occupied cells.
    fn randomize(s: &mut State, rng: &mut ChaCha8Rng) {
        let n = s.cells.len();
        let density = rng.gen_range(0.05..0.4);
        s.links = vec![0; n];
        for a in 0..n {
            for b in a + 1..n {
                if rng.gen_bool(density) {
                    s.links[a] |= 1 << b;
                    s.links[b] |= 1 << a;
                }
            }
        }
        let full = rng.gen_range(0.1..0.7);
        for c in 0..n {
            s.cells[c] = if rng.gen_bool(full) { 0 } else { NONE };
        }
        s.reindex();
    }

    /// An area's cells now are those of its instance that exist (`present`), whatever
    /// shape is laid out on it, or none.
    #[test]
    fn area_cells_are_those_present() {
        let (eng, mut s) = started();
        let board = &eng.game.board;
        let mut compared = 0;
        for shape in (0..eng.game.shapes.len() as u16).chain([NONE]) {
            s.shapes.iter_mut().for_each(|x| *x = shape);
            for (area, a) in board.areas.iter().enumerate() {
                for seat in 0..if a.per_seat { 2 } else { 1 } {
                    let mut cells = Items::new();
                    eng.area_cells(&s, area as u16, seat, &mut cells);
                    let first = a.first_cell + seat as u16 * a.size;
                    let present: Items = (first..first + a.size)
                        .filter(|&c| eng.present(&s, c))
                        .map(Value::Cell)
                        .collect();
                    assert_eq!(cells, present, "area {area}, seat {seat}, shape {shape}");
                    compared += cells.len();
                }
            }
        }
        assert!(compared > 10, "cells compared: {compared}");
    }

    /// `targets` found as words finds what the walk a cell at a time finds, for every cell
    /// and every number of cells passed over up to 3, over seeded random tables of links
    /// (either way round) and random occupied cells.
    #[test]
    fn word_targets_are_the_walks() {
        let (eng, mut s) = started();
        let n = s.cells.len();
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let (mut compared, mut found) = (0, 0);
        for _ in 0..60 {
            randomize(&mut s, &mut rng);
            for cell in 0..n as u16 {
                for k in 0..=3 {
                    let (mut words, mut walk) = (Items::new(), Items::new());
                    eng.targets(&s, cell, k, &mut words);
                    eng.targets_walk(&s, cell, k, &mut walk);
                    assert_eq!(words, walk, "targets({cell}, {k})");
                    compared += 1;
                    found += words.len();
                }
            }
        }
        assert_eq!(compared, 60 * n * 4);
        assert!(found > compared, "the tables leave cells to find: {found}");
    }

    /// `reachable` found as words finds what the walk a cell at a time finds, in the same
    /// order, from every cell, within every cell or a random half of them, over seeded
    /// random tables of links and random occupied cells.
    #[test]
    fn word_reachable_is_the_walks() {
        let (eng, mut s) = started();
        let n = s.cells.len();
        let mut rng = ChaCha8Rng::seed_from_u64(12);
        let (mut compared, mut found) = (0, 0);
        for _ in 0..60 {
            randomize(&mut s, &mut rng);
            for half in [false, true] {
                let mut within = CellSet::new(n);
                for c in 0..n as u16 {
                    if !half || rng.gen_bool(0.5) {
                        within.insert(c);
                    }
                }
                for cell in 0..n as u16 {
                    let (mut words, mut walk) = (Items::new(), Items::new());
                    eng.reachable(&s, cell, &within, &mut words);
                    eng.reachable_walk(&s, cell, &within, &mut walk);
                    assert_eq!(words, walk, "reachable({cell})");
                    compared += 1;
                    found += words.len();
                }
            }
        }
        assert_eq!(compared, 60 * 2 * n);
        assert!(
            found > compared / 2,
            "the tables leave cells to reach: {found}"
        );
    }
}
