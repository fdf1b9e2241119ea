//! A quantifier's or a count's body that only compares attributes of the walk's item
//! with constants or other locals (`c.colour == red`, `c.colour == red or c.value >= 3`,
//! `c.colour == col`): judged on each item as the walk hands it over, without writing the
//! item into its local or calling the body's closures, and charged as `Eval::truth`
//! charges the body.

use super::*;
use crate::engine::state::NONE;

/// What an attribute of the item is compared with.
pub(super) enum Operand {
    /// A constant (a step, as `eval` charges it).
    Const(Value),
    /// A scalar held in another local (a step).
    Local(usize),
    /// An attribute of the component held in another local (`c.colour`: two steps, as
    /// `eval` charges the attribute and the local; none where the local holds no
    /// component).
    LocalAttr(usize, u16),
}

/// The body: comparisons of an attribute of the item, under `and` and `or`.
pub(super) struct ItemTest {
    node: Node,
    /// The other locals the body reads (each must hold a scalar: looked at before each
    /// item).
    locals: SmallVec<[usize; 2]>,
}

enum Node {
    /// An attribute of the item equal (or not) to a constant of an enumeration (the
    /// commonest): compared without the general comparison's match.
    IsEnum { attr: u16, e: u16, x: u16, eq: bool },
    Compare {
        op: BinOp,
        attr: u16,
        other: Operand,
        /// The other operand is written first (`red == c.colour`).
        swapped: bool,
    },
    Chain {
        and: bool,
        first: Box<Node>,
        then: Box<Node>,
    },
}

impl ItemTest {
    /// `body` as a test of the item in local `slot`, if it is one.
    pub(super) fn new(slot: usize, body: &Expr) -> Option<ItemTest> {
        let node = Node::new(slot, body)?;
        let mut locals = SmallVec::new();
        node.locals(&mut locals);
        Some(ItemTest { node, locals })
    }

    /// Whether the other locals the body reads hold scalars, as `judge` reads them: asked
    /// once for a walk (the body writes none of them), which is judged as written if not.
    #[inline(always)]
    pub(super) fn ready(&self, l: &[Value]) -> bool {
        self.locals.iter().all(|&s| !l[s].owns_heap())
    }

    /// The body judged on the item `v`, once `ready` said so: `None` where the item is not
    /// a component, and the body is then judged as written.
    #[inline(always)]
    pub(super) fn judge(&self, ev: &Eval, l: &[Value], v: &Value) -> Option<bool> {
        match *v {
            Value::Comp(c) if c != NONE => Some(self.node.quick(ev, l, c)),
            _ => None,
        }
    }
}

impl Node {
    fn new(slot: usize, body: &Expr) -> Option<Node> {
        let Expr::Binary(op, a, b) = body else {
            return None;
        };
        if let BinOp::And | BinOp::Or = op {
            return Some(Node::Chain {
                and: *op == BinOp::And,
                first: Box::new(Node::new(slot, a)?),
                then: Box::new(Node::new(slot, b)?),
            });
        }
        if !matches!(
            op,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        ) {
            return None;
        }
        let item_attr = |e: &Expr| match e {
            Expr::CompAttr(c, attr) if matches!(**c, Expr::Local(s) if s as usize == slot) => {
                Some(*attr)
            }
            _ => None,
        };
        let operand = |e: &Expr| match e {
            Expr::Const(v) if !v.owns_heap() => Some(Operand::Const(v.clone())),
            Expr::Local(s) if *s as usize != slot => Some(Operand::Local(*s as usize)),
            Expr::CompAttr(c, attr) => match **c {
                Expr::Local(s) if s as usize != slot => Some(Operand::LocalAttr(s as usize, *attr)),
                _ => None,
            },
            _ => None,
        };
        let (attr, other, swapped) = match (item_attr(a), item_attr(b)) {
            (Some(attr), None) => (attr, operand(b)?, false),
            (None, Some(attr)) => (attr, operand(a)?, true),
            _ => return None,
        };
        if let (Operand::Const(Value::Enum(e, x)), BinOp::Eq | BinOp::Ne) = (&other, op) {
            let (e, x, eq) = (*e, *x, *op == BinOp::Eq);
            return Some(Node::IsEnum { attr, e, x, eq });
        }
        Some(Node::Compare {
            op: *op,
            attr,
            other,
            swapped,
        })
    }

    fn locals(&self, out: &mut SmallVec<[usize; 2]>) {
        match self {
            Node::Compare {
                other: Operand::Local(s) | Operand::LocalAttr(s, _),
                ..
            } => out.push(*s),
            Node::IsEnum { .. } | Node::Compare { .. } => {}
            Node::Chain { first, then, .. } => {
                first.locals(out);
                then.locals(out);
            }
        }
    }

    /// `holds`, with the commonest node judged here, the rest in a call of its own.
    #[inline(always)]
    fn quick(&self, ev: &Eval, l: &[Value], c: u16) -> bool {
        match *self {
            Node::IsEnum { attr, e, x, eq } => is_enum(ev, c, attr, (e, x), eq),
            ref node => node.holds(ev, l, c),
        }
    }

    /// The body on component `c`, charged as `truth` charges it: the node, then its
    /// operands (the item's attribute and its local: two steps; the other: one, or two
    /// for another local's attribute).
    #[inline(never)]
    fn holds(&self, ev: &Eval, l: &[Value], c: u16) -> bool {
        match self {
            Node::IsEnum { attr, e, x, eq } => is_enum(ev, c, *attr, (*e, *x), *eq),
            Node::Compare {
                op,
                attr,
                other,
                swapped,
            } => {
                let x = match *other {
                    Operand::Const(ref v) => v,
                    Operand::Local(s) => &l[s],
                    Operand::LocalAttr(s, a) => {
                        if !budget::charge(1) {
                            return false;
                        }
                        match l[s] {
                            Value::Comp(o) if o != NONE => ev.eng.attr(ev.s, o, a),
                            _ => &Value::None,
                        }
                    }
                };
                if !budget::charge(4) {
                    return false;
                }
                let mine = ev.eng.attr(ev.s, c, *attr);
                if let Some(t) = enums_compared(*op, mine, x) {
                    return t;
                }
                if *swapped {
                    ops::compare(*op, x, mine)
                } else {
                    ops::compare(*op, mine, x)
                }
            }
            Node::Chain { and, first, then } => {
                budget::charge(1)
                    && if *and {
                        first.quick(ev, l, c) && then.quick(ev, l, c)
                    } else {
                        first.quick(ev, l, c) || then.quick(ev, l, c)
                    }
            }
        }
    }
}

/// `Node::IsEnum` on component `c`: whether its attribute `attr` is (`eq`) or is not the
/// value `x` of enumeration `e`, charged as the comparison is.
#[inline(always)]
fn is_enum(ev: &Eval, c: u16, attr: u16, (e, x): (u16, u16), eq: bool) -> bool {
    budget::charge(4)
        && matches!(*ev.eng.attr(ev.s, c, attr), Value::Enum(f, y) if f == e && y == x) == eq
}
