//! Runtime values and their static types.

use super::{CellId, CompId, PhaseId, SeatId, ZoneId};
use serde::{Deserialize, Serialize};

/// A list's items: one word in a `Value` (its length and capacity stand before the items).
pub type Items = thin_vec::ThinVec<Value>;

/// A value the rules compute with. Scalars are small and cheap to copy; lists own their items.
#[derive(Debug, Serialize, Deserialize, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Value {
    #[default]
    None,
    Bool(bool),
    Int(i64),
    Seat(SeatId),
    Cell(CellId),
    Comp(CompId),
    Dir(u8),
    Enum(u16, u16),
    Phase(PhaseId),
    /// A straight run of cells: its first cell, its direction and its length.
    Line {
        start: CellId,
        dir: u8,
        len: u8,
    },
    /// A zone: its id, its seat (for a per-seat zone) and its number (for `x N` zones).
    Zone(ZoneId, SeatId, u16),
    Str(Box<String>),
    /// A move pattern.
    Pattern(u16),
    /// A shape from a catalogue.
    Shape(u16),
    /// A move by a pattern, taken a part at a time (see `Route`).
    Route(Box<Route>),
    List(Items),
}

// A value is two words: passed and returned in registers, and twice as many fit in a cache
// line as when a list or a string stood in it whole (docs/ARCHITECTURE.md, "values").
const _: () = assert!(std::mem::size_of::<Value>() == 16);

/// A move by a pattern that may pause between its steps: the pattern, the cell the move
/// started from, the cell the piece has reached, and where in the pattern it stands. The
/// engine reads a pattern as a graph of steps (a rider's every square is a step);
/// `states` are the nodes of that graph the move may be at, each with the direction of
/// the last step ((0, 0) before the first), which `same` legs keep.
#[derive(Debug, Serialize, Deserialize, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Route {
    pub pattern: u16,
    pub origin: CellId,
    pub at: CellId,
    pub states: Vec<(u16, (i8, i8))>,
}

/// Written out so that a route copied over a route keeps its list of states.
impl Clone for Route {
    fn clone(&self) -> Route {
        Route {
            pattern: self.pattern,
            origin: self.origin,
            at: self.at,
            states: self.states.clone(),
        }
    }

    fn clone_from(&mut self, source: &Route) {
        (self.pattern, self.origin, self.at) = (source.pattern, source.origin, source.at);
        self.states.clone_from(&source.states);
    }
}

/// Written out rather than derived so that copying a scalar (the common case: cells,
/// components, seats, numbers) is inlined into the evaluator instead of a call.
impl Clone for Value {
    #[inline]
    fn clone(&self) -> Value {
        match self {
            Value::None => Value::None,
            Value::Bool(b) => Value::Bool(*b),
            Value::Int(i) => Value::Int(*i),
            Value::Seat(s) => Value::Seat(*s),
            Value::Cell(c) => Value::Cell(*c),
            Value::Comp(c) => Value::Comp(*c),
            Value::Dir(d) => Value::Dir(*d),
            Value::Enum(e, v) => Value::Enum(*e, *v),
            Value::Phase(p) => Value::Phase(*p),
            Value::Line { start, dir, len } => Value::Line {
                start: *start,
                dir: *dir,
                len: *len,
            },
            Value::Zone(z, s, n) => Value::Zone(*z, *s, *n),
            Value::Pattern(p) => Value::Pattern(*p),
            Value::Shape(p) => Value::Shape(*p),
            Value::Str(_) | Value::Route(_) | Value::List(_) => self.clone_owned(),
        }
    }

    /// Copying over a scalar (a state's variables copied onto a state kept for reuse)
    /// drops nothing; a list copied over a list, or a route over a route, keeps its
    /// storage.
    #[inline]
    fn clone_from(&mut self, source: &Value) {
        if self.set_payload(source) {
            return;
        }
        match (&mut *self, source) {
            (Value::List(to), Value::List(from)) => to.clone_from(from),
            (Value::Route(to), Value::Route(from)) => to.clone_from(from),
            (to, from) if !to.owns_heap() => std::mem::forget(std::mem::replace(to, from.clone())),
            (to, from) => *to = from.clone(),
        }
    }
}

impl Value {
    /// The slow path of `clone`: a value that owns heap storage.
    #[inline(never)]
    fn clone_owned(&self) -> Value {
        match self {
            Value::Str(s) => Value::Str(s.clone()),
            Value::Route(r) => Value::Route(r.clone()),
            Value::List(l) => Value::List(l.clone()),
            _ => unreachable!("only owned values reach clone_owned"),
        }
    }

    /// Writes `from` over this value where both are scalars of one kind: only the payload,
    /// in place; false (nothing written) otherwise. A whole value copied in right after it
    /// was built is read back in wider pieces than the bytes it was built from, which
    /// stalls the processor (see docs/ARCHITECTURE.md, "values just built").
    #[inline(always)]
    pub fn set_payload(&mut self, from: &Value) -> bool {
        // A cell over a cell, the commonest: tested on its own, a compare and a branch
        // that the processor learns, before the jump through a table of every kind.
        if let (Value::Cell(to), Value::Cell(from)) = (&mut *self, from) {
            *to = *from;
            return true;
        }
        match (self, from) {
            (Value::None, Value::None) => {}
            (Value::Bool(to), Value::Bool(from)) => *to = *from,
            (Value::Int(to), Value::Int(from)) => *to = *from,
            (Value::Seat(to), Value::Seat(from)) => *to = *from,
            (Value::Cell(to), Value::Cell(from)) => *to = *from,
            (Value::Comp(to), Value::Comp(from)) => *to = *from,
            (Value::Dir(to), Value::Dir(from)) => *to = *from,
            (Value::Enum(e, v), Value::Enum(f, w)) => (*e, *v) = (*f, *w),
            (
                Value::Line { start, dir, len },
                Value::Line {
                    start: s,
                    dir: d,
                    len: n,
                },
            ) => (*start, *dir, *len) = (*s, *d, *n),
            _ => return false,
        }
        true
    }

    /// Whether this value owns heap storage (a string, a route, a list).
    #[inline(always)]
    pub fn owns_heap(&self) -> bool {
        matches!(self, Value::Str(_) | Value::Route(_) | Value::List(_))
    }

    /// Drops a value, with the check for heap storage inlined: a scalar (the common
    /// case on the evaluator's hot path) costs nothing, where the drop glue is a call.
    #[inline(always)]
    pub fn discard(self) {
        if self.owns_heap() {
            drop(self)
        } else {
            std::mem::forget(self)
        }
    }

    /// Stores `v` in `slot`, discarding what was there (see `discard`).
    #[inline(always)]
    pub fn set(slot: &mut Value, v: Value) {
        std::mem::replace(slot, v).discard()
    }

    pub fn as_int(&self) -> i64 {
        match self {
            Value::Int(i) => *i,
            Value::Bool(b) => *b as i64,
            _ => 0,
        }
    }
    pub fn truthy(&self) -> bool {
        match self {
            Value::Bool(b) => *b,
            Value::None => false,
            Value::Int(i) => *i != 0,
            Value::List(l) => !l.is_empty(),
            _ => true,
        }
    }
}

/// Static types, as the checker infers them.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub enum Type {
    Int,
    Bool,
    Seat,
    Cell,
    Comp,
    Dir,
    Enum(u16),
    Phase,
    Line,
    Zone,
    Str,
    Pattern,
    Shape,
    Route,
    List(Box<Type>),
    /// `none`, which fits any seat, cell or component.
    Nothing,
    /// A type the checker could not work out because of an earlier error.
    Unknown,
}

impl Type {
    /// The element type when iterated over, if this is a collection.
    pub fn element(&self) -> Option<Type> {
        match self {
            Type::List(t) => Some((**t).clone()),
            Type::Line => Some(Type::Cell),
            Type::Zone => Some(Type::Comp),
            Type::Unknown => Some(Type::Unknown),
            _ => None,
        }
    }
}
