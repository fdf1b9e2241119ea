//! Bounds on how much the checker builds. Definitions and named effects are expanded
//! where they are used, and deck loops are unrolled, so a short file can ask for an
//! enormous or enormously deep game. Every expression, effect and loop round lowered is
//! counted here, and the first limit passed is reported once.

use super::symbols::Ctx;
use crate::diagnostic::Diagnostic;
use crate::syntax::ast::{Item, ItemKind, Span};

/// The deepest the lowered rules may nest once definitions and effects are expanded.
pub const MAX_EXPANDED_DEPTH: u32 = 200;
/// The most parts (expressions, effects, deck-loop rounds) lowering may produce for one
/// game or variant, once definitions and effects are expanded.
pub const MAX_EXPANDED_SIZE: u64 = 2_000_000;

/// The most values one rule (an action, a hook, a trigger...) may name: its `choose`s,
/// `let`s, loop variables and quantifier variables together.
pub const MAX_LOCALS: u16 = 1_000;
/// The most declarations of one kind (actions, phases, variables, enum values, ...).
pub const MAX_DECLARATIONS: usize = 10_000;
/// The most zones a game may have, counting each seat's zone and each numbered zone.
pub const MAX_ZONE_INSTANCES: usize = 10_000;

/// What lowering one expression cost: the parts it produced and how deep they nest.
#[derive(Clone, Copy, Debug, Default)]
pub struct Cost {
    pub size: u64,
    pub depth: u32,
}

#[derive(Default)]
pub struct Budget {
    depth: u32,
    peak: u32,
    size: u64,
    exhausted: bool,
    /// The innermost expression or effect entered, to locate a limit passed inside it.
    last: Span,
    locals_reported: bool,
}

impl Ctx<'_> {
    /// Enters one level of an expression or effect; false once a limit is passed (the
    /// caller then lowers nothing more below it).
    pub fn enter(&mut self, span: Span) -> bool {
        if self.budget.exhausted {
            return false;
        }
        self.budget.depth += 1;
        self.budget.size += 1;
        self.budget.last = span;
        self.budget.peak = self.budget.peak.max(self.budget.depth);
        if self.over(span, 0) {
            self.budget.depth -= 1;
            return false;
        }
        true
    }

    pub fn leave(&mut self) {
        self.budget.depth = self.budget.depth.saturating_sub(1);
    }

    /// Runs `f` (lowering an argument) and measures what it produced.
    pub fn measured<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> (T, Cost) {
        let (peak, size) = (self.budget.peak, self.budget.size);
        self.budget.peak = self.budget.depth;
        let out = f(self);
        let cost = Cost {
            size: self.budget.size - size,
            depth: self.budget.peak - self.budget.depth,
        };
        self.budget.peak = self.budget.peak.max(peak);
        (out, cost)
    }

    /// Uses an already lowered argument again (a parameter substituted in a body).
    pub fn reuse(&mut self, cost: Cost, span: Span) -> bool {
        if self.budget.exhausted {
            return false;
        }
        self.budget.size += cost.size;
        self.budget.peak = self.budget.peak.max(self.budget.depth + cost.depth);
        !self.over(span, cost.depth)
    }

    /// Spends `n` parts on something other than an expression (a deck loop's round).
    pub fn spend(&mut self, n: u64, span: Span) -> bool {
        if self.budget.exhausted {
            return false;
        }
        self.budget.size += n;
        !self.over(span, 0)
    }

    /// Whether one more local name fits in the current rule; reports the limit once if not.
    pub fn room_for_local(&mut self) -> bool {
        if self.scope.next_slot.saturating_sub(self.scope.bound_args) < MAX_LOCALS {
            return true;
        }
        if !self.budget.locals_reported {
            self.budget.locals_reported = true;
            let d = Diagnostic::error(
                "muster::limit",
                self.budget.last,
                format!("a rule may name at most {MAX_LOCALS} values"),
            )
            .label("one too many")
            .help("`choose`, `let`, `for` and quantifiers each name a value; split the rule with `def` or `effect`");
            self.error(d);
        }
        false
    }

    /// Whether `n` more components fit in the game; reports the limit (once per place) if not.
    pub fn room_for_components(&mut self, n: usize, span: Span) -> bool {
        use super::items::MAX_COMPONENTS;
        if self.components.len() + n <= MAX_COMPONENTS {
            return true;
        }
        if !self
            .diags
            .iter()
            .any(|d| d.span == span && d.code == "muster::limit")
        {
            let d = Diagnostic::error(
                "muster::limit",
                span,
                format!("a game may have at most {MAX_COMPONENTS} cards and pieces"),
            )
            .label("too many")
            .help("hold fewer copies of the deck, or make the deck smaller");
            self.error(d);
        }
        false
    }

    /// Reports the first limit passed, once.
    fn over(&mut self, span: Span, extra_depth: u32) -> bool {
        let d = if self.budget.depth + extra_depth > MAX_EXPANDED_DEPTH {
            Diagnostic::error(
                "muster::too-deep",
                span,
                "the rules nest too deeply here once definitions and effects are expanded",
            )
            .label("too deep once expanded")
            .help(format!(
                "definitions and effects are expanded where they are used, and the result may \
                 nest at most {MAX_EXPANDED_DEPTH} levels deep; use fewer definitions inside \
                 one another"
            ))
        } else if self.budget.size > MAX_EXPANDED_SIZE {
            Diagnostic::error(
                "muster::limit",
                span,
                "the rules grow too large here once definitions, effects and deck loops are expanded",
            )
            .label("too large once expanded")
            .help(format!(
                "a game may expand to at most {MAX_EXPANDED_SIZE} expressions, effects and \
                 deck-loop rounds; a definition used many times inside another multiplies"
            ))
        } else {
            return false;
        };
        self.budget.exhausted = true;
        self.error(d);
        true
    }
}

/// Counts the declarations of each kind, and the zones, against their limits: the engine
/// numbers them with 16 bits.
pub fn check_tables(cx: &mut Ctx, items: &[&Item], zones: &[crate::ir::ZoneDef]) {
    let mut counts: std::collections::HashMap<&'static str, usize> = Default::default();
    let seats = cx.seats.len().max(1);
    let mut instances = 0usize;
    for item in items {
        let Some((kind, _)) = super::items::key(item) else {
            continue;
        };
        let n = counts.entry(kind).or_default();
        *n += 1;
        let limit = if kind == "seat" {
            super::items::MAX_SEATS as usize
        } else {
            MAX_DECLARATIONS
        };
        if *n == limit + 1 {
            let d = Diagnostic::error(
                "muster::limit",
                item.span,
                format!(
                    "a game may declare at most {limit} {}",
                    match kind {
                        "var" => "variables",
                        "def" => "definitions",
                        "seat" => "seats",
                        _ => plural(kind),
                    }
                ),
            )
            .label("one too many");
            cx.error(d);
        }
        if let ItemKind::Enum { name, values } = &item.kind {
            if values.len() > MAX_DECLARATIONS {
                let d = Diagnostic::error(
                    "muster::limit",
                    name.span,
                    format!("an enum may have at most {MAX_DECLARATIONS} values"),
                )
                .label("too many values");
                cx.error(d);
            }
        }
        if let ItemKind::Zone(z) = &item.kind {
            let before = instances;
            let zone = zones.iter().find(|d| d.name == z.name.name);
            instances += if z.per_seat { seats } else { 1 } * zone.map_or(1, |d| d.slots as usize);
            if before <= MAX_ZONE_INSTANCES && instances > MAX_ZONE_INSTANCES {
                let d = Diagnostic::error(
                    "muster::limit",
                    z.name.span,
                    format!(
                        "a game may have at most {MAX_ZONE_INSTANCES} zones, counting each seat's and each numbered zone"
                    ),
                )
                .label("one too many");
                cx.error(d);
            }
        }
    }
}

/// "actions", "phases", ... for a declaration keyword.
fn plural(kind: &str) -> &'static str {
    match kind {
        "enum" => "enums",
        "kind" => "kinds",
        "label" => "labels",
        "notation" => "notations",
        "trigger" => "triggers",
        "reaction" => "reactions",
        "effect" => "effects",
        "deck" => "decks",
        "zone" => "zones",
        "phase" => "phases",
        "action" => "actions",
        _ => "declarations of one kind",
    }
}
