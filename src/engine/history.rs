//! Positions and their repetition (`repetitions`): a position is a key hashed from what
//! stands where and the game's memory, without the counters of time. The engine records
//! the position as each turn ends (after `after turn`, before the end rules), and the
//! position before the first turn.

use super::state::State;
use super::Engine;
use crate::ir::Value;
use smallvec::SmallVec;
use std::cell::Cell;
use std::hash::{BuildHasher, Hash, Hasher};

thread_local! {
    /// The position a turn's end just recorded, while the end rules judge it (see
    /// `Recorded`): the state's address, how many positions it had seen, and the key.
    static RECORDED: Cell<Option<(usize, usize, u64)>> = const { Cell::new(None) };
    /// The position `repetitions` last hashed since the end rules began to be judged (see
    /// `forget_judged`): the state's address, how many positions it had seen, and the key.
    static JUDGED: Cell<Option<(usize, usize, u64)>> = const { Cell::new(None) };
}

/// Forgets the key `repetitions` last hashed: called as the end rules begin to be judged,
/// so that a key kept after them was hashed on the position they judged.
pub(crate) fn forget_judged() {
    JUDGED.set(None);
}

/// While it lives, `repetitions` of the state whose position was just recorded reads the
/// key recorded instead of hashing the position again: made where a turn's end records
/// the position and judges the end rules on it, which change nothing the key holds.
pub(crate) struct Recorded;

impl Recorded {
    pub(crate) fn new(s: &State) -> Recorded {
        if let Some(&key) = s.history.last() {
            RECORDED.set(Some((s as *const State as usize, s.history.len(), key)));
        }
        Recorded
    }
}

impl Drop for Recorded {
    fn drop(&mut self) {
        RECORDED.set(None);
    }
}

/// A variable's value into a position's key: a scalar as one write of its kind and what
/// it holds (most variables hold one), anything else as its `Hash` writes it.
#[inline]
fn hash_value(h: &mut foldhash::quality::FoldHasher, v: &Value) {
    let word = match *v {
        Value::None => 0,
        Value::Bool(b) => 1 << 60 | u64::from(b),
        Value::Seat(p) => 3 << 60 | u64::from(p),
        Value::Cell(c) => 4 << 60 | u64::from(c),
        Value::Comp(c) => 5 << 60 | u64::from(c),
        Value::Dir(d) => 6 << 60 | u64::from(d),
        Value::Enum(e, x) => 7 << 60 | u64::from(e) << 16 | u64::from(x),
        Value::Phase(p) => 8 << 60 | u64::from(p),
        Value::Int(i) => return h.write_u128(2 << 64 | u128::from(i as u64)),
        _ => return v.hash(h),
    };
    h.write_u64(word);
}

impl Engine {
    /// The key of the position `s` stands in, as the turn of seat `ended` ends: what
    /// stands on each cell and in each zone (identical twins alike, with their owner, face,
    /// attributes changed in play and per-piece variables), every variable but the `clock`s, the seat, the phase,
    /// reactions and secret choices under way, and who is out. Turn and action counts are
    /// no part of it.
    pub(crate) fn position_key(&self, s: &State, ended: u8) -> u64 {
        // A fast hash with no key of its own: the same positions give the same keys on
        // every machine and in every run (keys are compared, never stored in a file).
        let mut h = foldhash::quality::FixedState::with_seed(0).build_hasher();
        let nvars = self.game.vars.len();
        // The per-piece variables a position holds, found once per key.
        let piece_vars: SmallVec<[usize; 8]> = if s.comp_vars.is_empty() {
            SmallVec::new()
        } else {
            (self.game.vars.iter().enumerate())
                .filter(|(_, def)| def.per_piece && !def.clock)
                .map(|(v, _)| v)
                .collect()
        };
        // A component as one word (its twin class, owner and face, and a bit that tells
        // it from an empty cell's nought), then what changed of it in play.
        #[inline(always)]
        fn comp(
            eng: &Engine,
            s: &State,
            piece_vars: &[usize],
            h: &mut foldhash::quality::FoldHasher,
            c: u16,
        ) {
            let c = c as usize;
            h.write_u32(
                u32::from(eng.twin_class[c])
                    | u32::from(s.owners[c]) << 16
                    | u32::from(s.face_up[c]) << 24
                    | 1 << 25,
            );
            // Attributes changed in play (a piece that changed what it is is another piece).
            if !s.attr_over.is_empty() {
                for (_, attr, v) in s.attr_over.iter().filter(|(x, _, _)| *x as usize == c) {
                    (attr, v).hash(h);
                }
            }
            let nvars = eng.game.vars.len();
            for &v in piece_vars {
                hash_value(h, &s.comp_vars[c * nvars + v]);
            }
        }
        // Which cells are taken (the state's index of occupied cells, a word of 64 cells
        // at a time), then what stands on each of them in cell order: an empty cell is
        // no write of its own.
        for &w in s.occupied_by(None) {
            h.write_u64(w);
        }
        s.each_occupied(|_, c| {
            comp(self, s, &piece_vars, &mut h, c);
            true
        });
        for z in &s.zones {
            z.len().hash(&mut h);
            for &c in z {
                comp(self, s, &piece_vars, &mut h, c);
            }
        }
        for (v, def) in self.game.vars.iter().enumerate() {
            if def.clock || def.per_piece {
                continue;
            }
            if def.per_seat {
                for p in 0..s.players as usize {
                    hash_value(&mut h, &s.seat_vars[p * nvars + v]);
                }
            } else {
                hash_value(&mut h, &s.globals[v]);
            }
        }
        (ended, s.phase).hash(&mut h);
        s.eliminated.hash(&mut h);
        s.reactions.hash(&mut h);
        s.secret.hash(&mut h);
        s.shapes.hash(&mut h);
        s.links.hash(&mut h);
        h.finish()
    }

    /// The key of the position `s` stands in as its turn ends (`position_key` for the seat
    /// whose turn it is): the one `repetitions` hashed as the end rules judged it, where
    /// `unchanged` says nothing changed since they were judged (a turn's end records the
    /// position it judged right after its last action), else hashed now.
    pub(crate) fn turn_end_key(&self, s: &State, unchanged: bool) -> u64 {
        match JUDGED.take() {
            Some((at, seen, key))
                if unchanged && at == s as *const State as usize && seen == s.history.len() =>
            {
                // Tests (debug builds) hash it again and compare.
                debug_assert_eq!(key, self.position_key(s, s.turn_seat));
                key
            }
            _ => self.position_key(s, s.turn_seat),
        }
    }

    /// How many times the position of `s` has stood as a turn ended (the position before
    /// the first turn included), counting it now as the turn of the seat whose turn it is
    /// ends: once the turn's position is recorded (end rules, `until`) it is among them;
    /// before (in `after turn`, or during the turn) it is added.
    pub(crate) fn repetitions(&self, s: &State) -> i64 {
        let key = match RECORDED.get() {
            Some((at, seen, key))
                if at == s as *const State as usize && seen == s.history.len() =>
            {
                key
            }
            _ => {
                let key = self.position_key(s, s.turn_seat);
                JUDGED.set(Some((s as *const State as usize, s.history.len(), key)));
                key
            }
        };
        let seen = s.history.iter().filter(|&&k| k == key).count() as i64;
        if s.history.last() == Some(&key) {
            seen
        } else {
            seen + 1
        }
    }
}
