//! Warnings: rules that check but are probably not what the designer meant. A zone no
//! rule ever names, a variant that changes nothing, a variant's definition, variable,
//! effect, pattern or reaction that replaces nothing (a misspelt name), and a condition
//! whose answer never depends on the game.

use super::consts;
use super::load::Loaded;
use super::symbols::Ctx;
use crate::diagnostic::{Diagnostic, Sources};
use crate::ir::{self, BinOp};
use crate::syntax::ast::{self, BinOp as AstOp, ExprKind, Item, ItemKind, StmtKind, UnOp};

/// Adds the warnings for one lowered game (the base game, or the base with `variant`).
/// Rules with errors get none: an error can make a sound declaration look unused.
pub fn warn(
    cx: &mut Ctx,
    loaded: &Loaded,
    items: &[&Item],
    game: &ir::Game,
    variant: Option<&str>,
) {
    if cx.diags.iter().any(|d| d.is_error()) {
        return;
    }
    unused_zones(cx, items);
    idle_clocks(cx, items, game);
    path_gaps(cx, items, game);
    constant_conditions(cx, items, game);
    match variant {
        None => idle_variants(cx, loaded),
        Some(list) => {
            for v in super::items::variant_list(list) {
                replaces_nothing(cx, loaded, game, v);
            }
        }
    }
}

/// The declarations a variant may add by a misspelt name without anything else noticing:
/// its kind (the keyword that declares it, and the word for it) and its name. Zones and
/// actions are left out: an unused zone or an action no step offers is warned of already.
fn replaceable(kind: &ItemKind) -> Option<(&'static str, &'static str, &ast::Ident)> {
    Some(match kind {
        ItemKind::Def { name, .. } => ("def", "definition", name),
        ItemKind::Var { name, .. } => ("var", "variable", name),
        ItemKind::Effect { name, .. } => ("effect", "effect", name),
        ItemKind::Pattern { name, .. } => ("pattern", "pattern", name),
        ItemKind::Reaction(r) => ("reaction", "reaction", &r.name),
        _ => return None,
    })
}

/// A variant's `def`, `var`, named `effect`, `pattern` or `reaction` whose name the base
/// game does not declare and that nothing uses: it replaces nothing and changes nothing,
/// most likely because its name is a misspelling of the declaration it was meant to
/// replace.
fn replaces_nothing(cx: &mut Ctx, loaded: &Loaded, game: &ir::Game, variant: &str) {
    let Some(ItemKind::Variant { items, .. }) = loaded
        .items
        .iter()
        .map(|i| &i.kind)
        .find(|k| matches!(k, ItemKind::Variant { name, .. } if name.name == variant))
    else {
        return;
    };
    let base = |keyword: &str| -> Vec<&str> {
        loaded
            .items
            .iter()
            .filter_map(|i| replaceable(&i.kind))
            .filter(|(k, _, _)| *k == keyword)
            .map(|(_, _, name)| name.name.as_str())
            .collect()
    };
    let shown = |n: &str| {
        game.display
            .iter()
            .flatten()
            .any(|s| game.vars.get(s.var as usize).is_some_and(|v| v.name == n))
    };
    for vi in items {
        let Some((keyword, what, name)) = replaceable(&vi.kind) else {
            continue;
        };
        let n = name.name.as_str();
        let known = base(keyword);
        if known.contains(&n) || cx.used.contains(n) || (keyword == "var" && shown(n)) {
            continue;
        }
        let rule = format!("a variant's `{keyword}` replaces the game's {what} of the same name");
        let help = match crate::similar::closest(n, known.iter().copied()) {
            Some(best) => format!("did you mean `{best}`? {rule}"),
            None => {
                format!("{rule}; name the one to change, use this one in the variant, or remove it")
            }
        };
        cx.error(
            Diagnostic::warning(
                "muster::replaces-nothing",
                name.span,
                format!(
                    "the game has no {what} `{n}`, so variant `{variant}` replaces nothing with it"
                ),
            )
            .label("replaces nothing, and nothing uses it")
            .help(help),
        );
    }
}

/// A path that jumps between two cells of a grid that do not touch (not even at a corner):
/// a piece moving along it skips the cells between, which is seldom what a track means.
fn path_gaps(cx: &mut Ctx, items: &[&Item], game: &ir::Game) {
    let board = &game.board;
    if !board.cell_area.is_empty() {
        return;
    }
    for item in items {
        let ItemKind::Board(b) = &item.kind else {
            continue;
        };
        for decl in b.regions.iter().filter(|r| r.path) {
            let Some(def) = board.regions.iter().find(|r| r.name == decl.name.name) else {
                continue;
            };
            let seat = decl
                .seat
                .as_ref()
                .and_then(|s| game.seats.iter().position(|x| x.name == s.name));
            let Some(cells) = def.cells.get(seat.unwrap_or(0)) else {
                continue;
            };
            let ends = if def.loops {
                cells.len()
            } else {
                cells.len().saturating_sub(1)
            };
            let gap = (0..ends)
                .map(|i| (cells[i], cells[(i + 1) % cells.len()]))
                .find(|&(a, z)| {
                    let (a, z) = (&board.cells[a as usize], &board.cells[z as usize]);
                    a.x.abs_diff(z.x) > 1 || a.y.abs_diff(z.y) > 1
                });
            if let Some((a, z)) = gap {
                let (a, z) = (&board.cells[a as usize].name, &board.cells[z as usize].name);
                cx.error(
                    Diagnostic::warning(
                        "muster::path-gap",
                        decl.cells.span,
                        format!("path `{}` jumps from `{a}` to `{z}`, which do not touch", decl.name.name),
                    )
                    .label(format!("`{a}` then `{z}`"))
                    .help("a piece moving along the path leaps the cells between them; list every cell the track passes, in order (`line(a1, a6)` gives a straight run of them)"),
                );
            }
        }
    }
}

/// A zone that no effect, action, condition or trigger names.
fn unused_zones(cx: &mut Ctx, items: &[&Item]) {
    let named_by_trigger: Vec<&str> = items
        .iter()
        .filter_map(|i| match &i.kind {
            ItemKind::Trigger { zone, .. } => Some(zone.name.as_str()),
            _ => None,
        })
        .collect();
    for item in items {
        let ItemKind::Zone(z) = &item.kind else {
            continue;
        };
        let name = z.name.name.as_str();
        if cx.used.contains(name) {
            continue;
        }
        let (label, help) = if named_by_trigger.contains(&name) {
            (
                "only a trigger names it",
                "no effect moves anything into or out of it, so its trigger never runs; \
                 use it in an action or effect, or remove it",
            )
        } else {
            (
                "no rule names it",
                "its cards stay where they start and no one can use them; \
                 use it in an action or effect, or remove it",
            )
        };
        cx.error(
            Diagnostic::warning(
                "muster::unused-zone",
                z.name.span,
                format!("zone `{name}` is never used"),
            )
            .label(label)
            .help(help),
        );
    }
}

/// A `clock` variable in a game that never reads `repetitions`: the word changes nothing.
fn idle_clocks(cx: &mut Ctx, items: &[&Item], game: &ir::Game) {
    if game.history {
        return;
    }
    for item in items {
        if let ItemKind::Var {
            name, clock: true, ..
        } = &item.kind
        {
            cx.error(
                Diagnostic::warning(
                    "muster::idle-clock",
                    name.span,
                    format!(
                        "`{}` is a `clock`, but no rule reads `repetitions`",
                        name.name
                    ),
                )
                .label("left out of positions no rule compares")
                .help(
                    "`clock` keeps a counter out of the positions `repetitions` compares; \
                     without `repetitions` it changes nothing: remove it, or add a rule such \
                     as `draw when repetitions >= 3`",
                ),
            );
        }
    }
}

/// Conditions that are always true or always false: `require true`, `x == x`, and
/// conditions made of constants only. Looks at every `require`, a step's `if`, a phase's
/// `until` and `skip ... when`, the conditions of `next if`, the end rules' `when`s and
/// `on stuck if` conditions, and the `if`s among effects.
fn constant_conditions(cx: &mut Ctx, items: &[&Item], game: &ir::Game) {
    let mut found = Vec::new();
    let board = &game.board;
    let mut check = |e: &ast::Expr, x: &ir::Expr| condition(e, x, board, &mut found);
    let mut actions = game.actions.iter();
    let mut phases = game.phases.iter();
    let mut wins = game.end.wins.iter();
    let mut draws = game.end.draws.iter();
    for item in items {
        match &item.kind {
            ItemKind::Action(a) => {
                let Some(act) = actions.next() else { return };
                let requires = a.clauses.iter().filter_map(|c| match c {
                    ast::Clause::Require { cond, .. } => Some(cond),
                    _ => None,
                });
                let conds = act.clauses.iter().filter_map(|c| match c {
                    ir::Clause::Require { cond, .. } => Some(cond),
                    _ => None,
                });
                for (e, x) in requires.zip(conds) {
                    check(e, x);
                }
                let blocks = a.clauses.iter().filter_map(|c| match c {
                    ast::Clause::Do(b) => Some(b),
                    _ => None,
                });
                let lowered = act.clauses.iter().filter_map(|c| match c {
                    ir::Clause::Do(b) => Some(b),
                    _ => None,
                });
                for (b, l) in blocks.zip(lowered) {
                    effects(b, l, &mut check);
                }
            }
            ItemKind::Phase(p) => {
                let Some(ph) = phases.next() else { return };
                for (s, st) in p.steps.iter().zip(&ph.steps) {
                    if let (Some(e), Some(x)) = (&s.condition, &st.condition) {
                        check(e, x);
                    }
                }
                if let (Some(e), Some(x)) = (&p.until, &ph.until) {
                    check(e, x);
                }
                if let (Some((_, e)), Some(x)) = (&p.skip, &ph.skip) {
                    check(e, x);
                }
                if let (Some(n), Some(l)) = (&p.next, &ph.next_if) {
                    next_conditions(n, l, &mut check);
                }
                for (b, l) in [
                    (&p.enter, &ph.enter),
                    (&p.before_turn, &ph.before_turn),
                    (&p.after_turn, &ph.after_turn),
                ] {
                    if let Some(b) = b {
                        effects(b, l, &mut check);
                    }
                }
            }
            ItemKind::Setup(b) => effects(b, &game.setup, &mut check),
            ItemKind::End(rules) => {
                for r in rules {
                    if let ast::EndRule::Stuck(choice, _) = r {
                        // `on stuck if COND then ... else if COND ...`: the conditions in
                        // order, as lowered.
                        let mut c = choice;
                        let mut lowered = game.end.stuck_if.iter();
                        while let ast::StuckChoice::If(e, _, otherwise) = c {
                            let Some((x, _)) = lowered.next() else { break };
                            check(e, x);
                            c = otherwise;
                        }
                        continue;
                    }
                    let (e, x) = match r {
                        ast::EndRule::Win { when, .. } => (when, wins.next().map(|w| &w.1)),
                        ast::EndRule::Draw { when } => (when, draws.next()),
                        _ => continue,
                    };
                    if let Some(x) = x {
                        check(e, x);
                    }
                }
            }
            _ => {}
        }
    }
    for d in found {
        cx.error(d);
    }
}

/// The conditions of `next if COND then PHASE else PHASE`, with the choice as lowered.
fn next_conditions(
    next: &ast::NextPhase,
    lowered: &ir::NextPhase,
    check: &mut impl FnMut(&ast::Expr, &ir::Expr),
) {
    if let (ast::NextPhase::If(e, a, b), ir::NextPhase::If(x, la, lb)) = (next, lowered) {
        check(e, x);
        next_conditions(a, la, check);
        next_conditions(b, lb, check);
    }
}

/// The `if`s among a block of effects, with the block as lowered (statement for statement).
fn effects(
    block: &[ast::Stmt],
    lowered: &[ir::Stmt],
    check: &mut impl FnMut(&ast::Expr, &ir::Expr),
) {
    for (s, l) in block.iter().zip(lowered) {
        match (&s.kind, l) {
            (
                StmtKind::If {
                    cond,
                    then,
                    otherwise,
                },
                ir::Stmt::If(c, a, b),
            ) => {
                check(cond, c);
                effects(then, a, check);
                effects(otherwise, b, check);
            }
            (StmtKind::For { body, .. }, ir::Stmt::For(_, _, b)) => effects(body, b, check),
            _ => {}
        }
    }
}

/// Warns if the condition `e` (lowered as `x`), or a part of it joined by `and`, `or` or
/// `not`, has the same answer whatever the game's state.
fn condition(e: &ast::Expr, x: &ir::Expr, board: &ir::Board, out: &mut Vec<Diagnostic>) {
    let constant = match consts::fixed(x, &[], board) {
        Ok(v) => Some((v.truthy(), "it does not depend on the game's state")),
        Err(_) => match x {
            ir::Expr::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b) if a == b => Some((
                *op == BinOp::Eq,
                "both sides of the comparison are the same",
            )),
            _ => None,
        },
    };
    if let Some((always, why)) = constant {
        let (message, label) = if always {
            ("this condition is always true", "always true")
        } else {
            ("this condition is never true", "never true")
        };
        out.push(
            Diagnostic::warning("muster::constant-condition", e.span, message)
                .label(label)
                .help(format!(
                    "{why}; compare with something that changes during play, or remove it"
                )),
        );
        return;
    }
    match (&e.kind, x) {
        (
            ExprKind::Binary(AstOp::And | AstOp::Or, a, b),
            ir::Expr::Binary(BinOp::And | BinOp::Or, xa, xb),
        ) => {
            condition(a, xa, board, out);
            condition(b, xb, board, out);
        }
        (ExprKind::Unary(UnOp::Not, a), ir::Expr::Not(xa)) => condition(a, xa, board, out),
        _ => {}
    }
}

/// Whether a variant's grid changes the base's: its size, or a region it gives otherwise
/// than the base (a region it does not give is kept as the base has it).
fn grid_changes(sources: &Sources, v: &ast::BoardDecl, base: &ast::BoardDecl) -> bool {
    let text = |b: &ast::BoardDecl, name: &str| -> Vec<String> {
        b.regions
            .iter()
            .filter(|r| r.name.name == name)
            .map(|r| {
                let span = ast::Span {
                    start: r.name.span.start,
                    ..r.cells.span
                };
                tokens(sources.text(span))
            })
            .collect()
    };
    (v.width, v.height) != (base.width, base.height)
        || v.regions
            .iter()
            .any(|r| text(v, &r.name.name) != text(base, &r.name.name))
}

/// A variant that is empty, or whose every declaration is the same as the base game's.
fn idle_variants(cx: &mut Ctx, loaded: &Loaded) {
    let base: Vec<&Item> = loaded
        .items
        .iter()
        .filter(|i| !matches!(i.kind, ItemKind::Variant { .. }))
        .collect();
    for item in &loaded.items {
        let ItemKind::Variant { name, items } = &item.kind else {
            continue;
        };
        let changes = items.iter().any(|vi| {
            let Some(k) = super::items::key(vi) else {
                return true;
            };
            let Some(b) = base
                .iter()
                .find(|b| super::items::key(b).as_ref() == Some(&k))
            else {
                return true; // something new
            };
            match (&vi.kind, &b.kind) {
                (ItemKind::Game(v), ItemKind::Game(g)) => header_changes(v, g),
                (ItemKind::Board(v), ItemKind::Board(g)) if v.grid && g.grid => {
                    grid_changes(&loaded.sources, v, g)
                }
                _ => !same_text(&loaded.sources, vi, b),
            }
        });
        if !changes {
            let why = if items.is_empty() {
                "it is empty"
            } else {
                "each of its declarations is the same as the base game's"
            };
            cx.error(
                Diagnostic::warning(
                    "muster::idle-variant",
                    name.span,
                    format!("variant `{}` changes nothing", name.name),
                )
                .label("plays exactly like the base game")
                .help(format!("{why}; change something in it, or remove it")),
            );
        }
    }
}

/// Whether a variant's `game { ... }` gives a property a value the base game does not.
fn header_changes(v: &ast::GameDecl, g: &ast::GameDecl) -> bool {
    (!v.title.is_empty() && v.title != g.title)
        || v.players
            .is_some_and(|(lo, hi, _)| g.players.map(|(a, b, _)| (a, b)) != Some((lo, hi)))
        || v.max_turns
            .is_some_and(|(m, _)| g.max_turns.map(|x| x.0) != Some(m))
        || v.first_phase.as_ref().is_some_and(|f| {
            g.first_phase.as_ref().map(|x| x.name.as_str()) != Some(f.name.as_str())
        })
}

/// Whether two declarations read the same, comments and spacing aside.
pub(super) fn same_text(sources: &Sources, a: &Item, b: &Item) -> bool {
    tokens(sources.text(a.span)) == tokens(sources.text(b.span))
}

/// A declaration's text without comments, with each run of spacing made one space.
pub(super) fn tokens(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut space = false;
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                if space && !out.is_empty() {
                    out.push(' ');
                }
                space = false;
                out.push(c);
                while let Some(s) = chars.next() {
                    out.push(s);
                    if s == '\\' {
                        if let Some(n) = chars.next() {
                            out.push(n);
                        }
                    } else if s == '"' {
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'/') => {
                while chars.next_if(|&n| n != '\n').is_some() {}
                space = true;
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut prev = ' ';
                for n in chars.by_ref() {
                    if prev == '*' && n == '/' {
                        break;
                    }
                    prev = n;
                }
                space = true;
            }
            c if c.is_whitespace() => space = true,
            c => {
                if space && !out.is_empty() {
                    out.push(' ');
                }
                space = false;
                out.push(c);
            }
        }
    }
    out
}
