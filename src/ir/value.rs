//! Runtime values and their static types.

use super::{CellId, CompId, PhaseId, SeatId, ZoneId};
use serde::{Deserialize, Serialize};

/// A value the rules compute with. Scalars are small and cheap to copy; lists own their items.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
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
    Str(String),
    /// A move pattern.
    Pattern(u16),
    /// A shape from a catalogue.
    Shape(u16),
    /// A move by a pattern, taken a part at a time (see `Route`).
    Route(Box<Route>),
    List(Vec<Value>),
}

/// A move by a pattern that may pause between its steps: the pattern, the cell the move
/// started from, the cell the piece has reached, and where in the pattern it stands. The
/// engine reads a pattern as a graph of steps (a rider's every square is a step);
/// `states` are the nodes of that graph the move may be at, each with the direction of
/// the last step ((0, 0) before the first), which `same` legs keep.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Route {
    pub pattern: u16,
    pub origin: CellId,
    pub at: CellId,
    pub states: Vec<(u16, (i8, i8))>,
}

impl Value {
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
