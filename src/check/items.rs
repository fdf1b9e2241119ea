//! Lowering a whole game: the passes over declarations, in dependency order.

use super::consts;
use super::load::Loaded;
use super::symbols::{describe, fits, Ctx, VarInfo};
use crate::diagnostic::Diagnostic;
use crate::ir::{self, Type, Value};
use crate::similar::suggest;
use crate::syntax::ast::{self, Item, ItemKind, Span};
use std::collections::HashMap;

/// The largest board Muster plays on, in cells per side.
pub const MAX_BOARD_SIDE: u32 = 26;
/// The most components a game may hold.
pub const MAX_COMPONENTS: usize = 10_000;
/// The most numbered zones one zone name may stand for (`x N`).
pub const MAX_SLOTS: u32 = 64;
/// The most seats a game may have.
pub const MAX_SEATS: u32 = 8;
/// The longest game a rules file (or `--max-turns`) may allow, in turns.
pub const MAX_TURNS: u32 = 1_000_000;

pub fn variant_names(items: &[Item]) -> Vec<String> {
    items
        .iter()
        .filter_map(|i| match &i.kind {
            ItemKind::Variant { name, .. } => Some(name.name.clone()),
            _ => None,
        })
        .collect()
}

/// What a declaration replaces when a variant redeclares it.
pub(super) fn key(item: &Item) -> Option<(&'static str, String)> {
    Some(match &item.kind {
        ItemKind::Import(_) | ItemKind::Variant { .. } => return None,
        ItemKind::Game(_) => ("game", String::new()),
        ItemKind::Seat { name, .. } => ("seat", name.name.clone()),
        ItemKind::Enum { name, .. } => ("enum", name.name.clone()),
        ItemKind::Kind(k) => ("kind", k.name.name.clone()),
        ItemKind::Label { kind, .. } => ("label", kind.name.clone()),
        ItemKind::Notation { kind, .. } => ("notation", kind.name.clone()),
        ItemKind::Trigger {
            var, zone, enters, ..
        } => ("trigger", format!("{} {} {}", var.name, enters, zone.name)),
        ItemKind::Reaction(r) => ("reaction", r.name.name.clone()),
        ItemKind::Display(_) => ("display", String::new()),
        ItemKind::Effect { name, .. } => ("effect", name.name.clone()),
        ItemKind::Pattern { name, .. } => ("pattern", name.name.clone()),
        ItemKind::Shapes(d) => ("shapes", d.name.name.clone()),
        ItemKind::Deck { name, .. } => ("deck", name.name.clone()),
        ItemKind::Board(_) => ("board", String::new()),
        ItemKind::Zone(z) => ("zone", z.name.name.clone()),
        ItemKind::Var { name, .. } => ("var", name.name.clone()),
        ItemKind::Def { name, .. } => ("def", name.name.clone()),
        ItemKind::Setup(_) => ("setup", String::new()),
        ItemKind::Phase(p) => ("phase", p.name.name.clone()),
        ItemKind::Action(a) => ("action", a.name.name.clone()),
        ItemKind::End(_) => ("end", String::new()),
    })
}

/// The base items with a variant's items laid over them.
fn apply_variant<'a>(
    items: &'a [Item],
    variant: Option<&str>,
    sources: &crate::diagnostic::Sources,
    diags: &mut Vec<Diagnostic>,
) -> Vec<&'a Item> {
    let mut out: Vec<&Item> = Vec::new();
    let mut seen: HashMap<(&'static str, String), usize> = HashMap::new();
    for item in items {
        if let Some(k) = key(item) {
            if let Some(&prev) = seen.get(&k) {
                let what = if k.1.is_empty() {
                    format!("`{}`", k.0)
                } else {
                    format!("{} `{}`", k.0, k.1)
                };
                let (line, col) = sources.line_col(out[prev].span);
                let file = &sources.files[out[prev].span.file as usize].name;
                diags.push(
                    Diagnostic::error("muster::duplicate", item.span, format!("{what} is declared twice"))
                        .label("second declaration")
                        .help(format!("the first is at {file}:{line}:{col}; to change a declaration for a variant, put it inside `variant NAME {{ ... }}`")),
                );
                continue;
            }
            seen.insert(k, out.len());
            out.push(item);
        }
    }
    let Some(v) = variant else { return out };
    let Some(var) = items
        .iter()
        .find(|i| matches!(&i.kind, ItemKind::Variant { name, .. } if name.name == v))
    else {
        let names = variant_names(items);
        let help = if names.is_empty() {
            "this game declares no variants".to_string()
        } else {
            format!("known variants: {}", names.join(", "))
        };
        diags.push(
            Diagnostic::error(
                "muster::unknown-variant",
                Span::default(),
                format!("unknown variant `{v}`"),
            )
            .label("asked for here")
            .help(help),
        );
        return out;
    };
    let ItemKind::Variant { items: vitems, .. } = &var.kind else {
        unreachable!()
    };
    for vi in vitems {
        match key(vi) {
            // A variant's `game { ... }` changes only the properties it gives: both are
            // kept, and the header is merged when lowered.
            Some(k) if k.0 == "game" => out.push(vi),
            Some(k) => match seen.get(&k) {
                Some(&i) => out[i] = vi,
                None => {
                    seen.insert(k, out.len());
                    out.push(vi);
                }
            },
            None => diags.push(
                Diagnostic::error(
                    "muster::variant",
                    vi.span,
                    "a variant cannot hold imports or other variants",
                )
                .label("not allowed inside a variant")
                .help("put imports at the top of the file, and each variant at the top level"),
            ),
        }
    }
    out
}

pub fn lower(
    loaded: &Loaded,
    variant: Option<&str>,
) -> Result<(ir::Game, Vec<Diagnostic>), Vec<Diagnostic>> {
    let mut pre = Vec::new();
    let items = apply_variant(&loaded.items, variant, &loaded.sources, &mut pre);
    let mut cx = Ctx {
        diags: pre,
        ..Default::default()
    };
    let mut game = lower_items(&mut cx, &items, variant);
    record_places(&cx, &items, &loaded.sources, &mut game);
    super::warnings::warn(&mut cx, loaded, &items, &game, variant);
    let mut diags = cx.diags;
    // Errors first, in file order; warnings after.
    diags.sort_by_key(|d| (!d.is_error(), d.span.file, d.span.start));
    diags.truncate(super::MAX_ERRORS);
    if diags.iter().any(|d| d.is_error()) {
        Err(diags)
    } else {
        Ok((game, diags))
    }
}

/// Writes where each action and each of its `require`s is declared into the IR, as
/// `file:line:column` text, for rules errors at play time.
fn record_places(
    cx: &Ctx,
    items: &[&Item],
    sources: &crate::diagnostic::Sources,
    game: &mut ir::Game,
) {
    let place = |span: crate::syntax::ast::Span| {
        // The file's own name, without its folder, so that the IR is the same wherever
        // the file lies.
        let name = sources.files.get(span.file as usize).map_or("", |f| {
            let path = std::path::Path::new(&f.name);
            path.file_name().and_then(|n| n.to_str()).unwrap_or(&f.name)
        });
        let (line, col) = sources.line_col(span);
        format!("{name}:{line}:{col}")
    };
    for item in items {
        let ItemKind::Action(a) = &item.kind else {
            continue;
        };
        let Some(def) = cx
            .actions
            .get(&a.name.name)
            .and_then(|&id| game.actions.get_mut(id as usize))
        else {
            continue;
        };
        def.place = place(a.name.span);
        def.require_places = a
            .clauses
            .iter()
            .filter_map(|c| match c {
                ast::Clause::Require(e, _) => Some(place(e.span)),
                _ => None,
            })
            .collect();
    }
}

fn lower_items<'a>(cx: &mut Ctx<'a>, items: &[&'a Item], variant: Option<&str>) -> ir::Game {
    // Game header.
    let games: Vec<&ast::GameDecl> = items
        .iter()
        .filter_map(|i| {
            if let ItemKind::Game(g) = &i.kind {
                Some(g)
            } else {
                None
            }
        })
        .collect();
    let game_span = items
        .iter()
        .find(|i| matches!(i.kind, ItemKind::Game(_)))
        .map(|i| i.span)
        .unwrap_or_default();
    let mut header = games.first().cloned().cloned().unwrap_or_default();
    for over in games.iter().skip(1) {
        if !over.title.is_empty() {
            header.title = over.title.clone();
        }
        header.players = over.players.or(header.players);
        header.max_turns = over.max_turns.or(header.max_turns);
        header.first_phase = over.first_phase.clone().or(header.first_phase);
    }
    if !games.is_empty() && header.title.is_empty() {
        cx.error(
            Diagnostic::error("muster::no-game", game_span, "the game has no name")
                .label("name it here")
                .help("write `game \"My Game\" { ... }`"),
        );
    }
    if games.is_empty() {
        cx.error(
            Diagnostic::error(
                "muster::no-game",
                Span::default(),
                "this rules file declares no game",
            )
            .label("expected `game \"Name\" { players N }`")
            .help("start the file with `game \"My Game\" { players 2 }`"),
        );
    }
    if let Some((m, sp)) = header.max_turns {
        if m == 0 || m > MAX_TURNS {
            cx.error(
                Diagnostic::error(
                    "muster::limit",
                    sp,
                    format!("`max_turns {m}` is not a game length Muster plays"),
                )
                .label("bad game length")
                .help(format!("give a number of turns from 1 to {MAX_TURNS}")),
            );
        }
    }
    let (min_p, max_p) = match header.players {
        Some((lo, hi, sp)) => {
            if lo == 0 || hi < lo || hi > MAX_SEATS {
                cx.error(
                    Diagnostic::error(
                        "muster::players",
                        sp,
                        if lo == hi {
                            format!("`players {lo}` is not a player count Muster can seat")
                        } else {
                            format!("`players {lo}..{hi}` is not a player count Muster can seat")
                        },
                    )
                    .label("bad player count")
                    .help(format!(
                        "give a count from 1 to {MAX_SEATS}, or a range such as `3..6`"
                    )),
                );
            }
            (
                lo.clamp(1, MAX_SEATS) as u8,
                hi.clamp(lo.clamp(1, MAX_SEATS), MAX_SEATS) as u8,
            )
        }
        None => {
            if !games.is_empty() {
                cx.error(
                    Diagnostic::error(
                        "muster::players",
                        game_span,
                        "the game does not say how many players it has",
                    )
                    .help(
                        "add `players 2` (or a range such as `players 3..6`) to the `game` block",
                    ),
                );
            }
            (2, 2)
        }
    };

    // Names that later declarations may refer to before they are lowered.
    for item in items {
        match &item.kind {
            ItemKind::Def { name, params, body } => {
                cx.defs.insert(name.name.clone(), (params.as_slice(), body));
            }
            ItemKind::Effect { name, params, body } => {
                cx.effects
                    .insert(name.name.clone(), (params.as_slice(), body.as_slice()));
            }
            ItemKind::Pattern { name, .. } => {
                let id = cx.patterns.len() as u16;
                cx.patterns.insert(name.name.clone(), id);
            }
            ItemKind::Reaction(r) => {
                let id = cx.reactions.len() as u16;
                cx.reactions.insert(r.name.name.clone(), id);
            }
            ItemKind::Phase(p) => {
                let id = cx.phases.len() as u16;
                cx.phases.insert(p.name.name.clone(), id);
            }
            ItemKind::Action(a) => {
                let id = cx.actions.len() as u16;
                cx.actions.insert(a.name.name.clone(), id);
            }
            _ => {}
        }
    }
    lower_enums(cx, items);
    let patterns = super::patterns::lower_patterns(cx, items);
    lower_kinds(cx, items);
    let (families, shapes) = super::shapes::lower_shapes(cx, items);
    cx.family_shapes = families.iter().map(|f| f.shapes.clone()).collect();
    lower_board(cx, items);
    let (seats, seat_attrs) = lower_seats(cx, items, max_p);
    lower_regions(cx, items);
    super::shapes::lower_areas(cx, items, &shapes, &families);
    lower_decks(cx, items);
    let zones = lower_zones(cx, items);
    super::budget::check_tables(cx, items, &zones);

    let vars = lower_vars(cx, items);
    let display = lower_display(cx, items, &vars);
    let mut max_locals = 0u16;
    let mut setup = Vec::new();
    for item in items {
        if let ItemKind::Setup(b) = &item.kind {
            setup = cx.block(b);
            max_locals = max_locals.max(cx.reset_scope());
        }
    }
    let phases = lower_phases(cx, items, &mut max_locals);
    let actions = lower_actions(cx, items, &mut max_locals);
    let end = lower_end(cx, items, &mut max_locals);
    super::shapes::lower_link_rules(cx, items, &mut max_locals);
    let triggers = lower_triggers(cx, items, &mut max_locals);
    let reactions = lower_reactions(cx, items, &mut max_locals);
    if phases.is_empty() && !games.is_empty() {
        cx.error(
            Diagnostic::error(
                "muster::no-phase",
                Span::default(),
                "the game has no phase, so no one can ever act",
            )
            .help("add `phase play { turn { one of some_action } }`"),
        );
    }
    let first_phase = match &header.first_phase {
        None => 0,
        Some(n) => match cx.phases.get(&n.name) {
            Some(&p) => p,
            None => {
                let known: Vec<String> = cx.phases.keys().cloned().collect();
                cx.unknown("phase", n, "no such phase", known);
                0
            }
        },
    };
    warn_unoffered(cx, items, &phases, &reactions);

    ir::Game {
        format_version: ir::FORMAT_VERSION,
        title: header.title,
        variant: variant.map(str::to_string),
        min_players: min_p,
        max_players: max_p,
        max_turns: header.max_turns.map_or(1000, |m| m.0.clamp(1, MAX_TURNS)),
        first_phase,
        seats,
        seat_attrs,
        enums: std::mem::take(&mut cx.enums),
        attrs: std::mem::take(&mut cx.attrs),
        kinds: std::mem::take(&mut cx.kinds),
        components: std::mem::take(&mut cx.components),
        board: std::mem::take(&mut cx.board),
        zones,
        vars,
        setup,
        phases,
        actions,
        triggers,
        patterns,
        families,
        shapes,
        reactions,
        end,
        display,
        max_locals,
    }
}

/// `display { ... }`: the variables players are shown, each once, with its label.
fn lower_display(cx: &mut Ctx, items: &[&Item], vars: &[ir::VarDef]) -> Option<Vec<ir::Shown>> {
    let mut out: Option<Vec<ir::Shown>> = None;
    for item in items {
        let ItemKind::Display(entries) = &item.kind else {
            continue;
        };
        let shown = out.get_or_insert_with(Vec::new);
        for (name, label) in entries {
            let Some(id) = vars.iter().position(|v| v.name == name.name) else {
                let known: Vec<String> = vars.iter().map(|v| v.name.clone()).collect();
                cx.unknown("variable", name, "not a variable", known);
                continue;
            };
            if shown.iter().any(|s| s.var as usize == id) {
                let d = Diagnostic::error(
                    "muster::display",
                    name.span,
                    format!("`{}` is displayed twice", name.name),
                )
                .label("already listed");
                cx.error(d);
                continue;
            }
            shown.push(ir::Shown {
                var: id as u16,
                label: label.clone().unwrap_or_else(|| name.name.replace('_', " ")),
            });
        }
    }
    out
}

fn lower_enums(cx: &mut Ctx, items: &[&Item]) {
    for item in items {
        if let ItemKind::Enum { name, values } = &item.kind {
            let id = cx.enums.len() as u16;
            cx.enum_ids.insert(name.name.clone(), id);
            let mut vals = Vec::new();
            for (i, (v, short)) in values.iter().enumerate() {
                if let Some(&(other, _)) = cx.enum_values.get(&v.name) {
                    let d = Diagnostic::error(
                        "muster::duplicate",
                        v.span,
                        format!(
                            "`{}` is already a value of enum `{}`",
                            v.name,
                            cx.enums
                                .get(other as usize)
                                .map(|e| e.name.as_str())
                                .unwrap_or(&name.name)
                        ),
                    )
                    .label("declared again")
                    .help("enum values share one namespace: give this one another name");
                    cx.error(d);
                    continue;
                }
                cx.enum_values.insert(v.name.clone(), (id, i as u16));
                vals.push((
                    v.name.clone(),
                    short.clone().unwrap_or_else(|| v.name.clone()),
                ));
            }
            cx.enums.push(ir::EnumDef {
                name: name.name.clone(),
                values: vals,
            });
        }
    }
}

fn parse_label(cx: &mut Ctx, template: &str, span: Span, kind_attrs: &[u16]) -> Vec<ir::LabelPart> {
    let mut parts = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        if open > 0 {
            parts.push(ir::LabelPart::Text(rest[..open].to_string()));
        }
        let Some(close) = rest[open..].find('}') else {
            cx.error(
                Diagnostic::error(
                    "muster::label",
                    span,
                    "a label has a `{` with no matching `}`",
                )
                .label("unclosed `{`"),
            );
            return parts;
        };
        let name = &rest[open + 1..open + close];
        if name == "owner" {
            parts.push(ir::LabelPart::Owner);
        } else if let Some(&a) = cx.attr_ids.get(name).filter(|a| kind_attrs.contains(a)) {
            parts.push(ir::LabelPart::Attr(a));
        } else {
            let known: Vec<String> = kind_attrs
                .iter()
                .map(|a| cx.attrs[*a as usize].name.clone())
                .chain(["owner".to_string()])
                .collect();
            let mut d = Diagnostic::error(
                "muster::label",
                span,
                format!("the label names `{{{name}}}`, which is not an attribute of this kind"),
            )
            .label("in this label");
            if let Some(h) = suggest(name, known.iter().map(|s| s.as_str())) {
                d = d.help(h);
            }
            cx.error(d);
        }
        rest = &rest[open + close + 1..];
    }
    if !rest.is_empty() {
        parts.push(ir::LabelPart::Text(rest.to_string()));
    }
    parts
}

fn lower_kinds(cx: &mut Ctx, items: &[&Item]) {
    for item in items {
        let ItemKind::Kind(k) = &item.kind else {
            continue;
        };
        let mut own = Vec::new();
        for a in &k.attrs {
            let ty = match &a.ty {
                ast::AttrType::Range(lo, hi, sp) => {
                    if hi < lo {
                        cx.error(
                            Diagnostic::error(
                                "muster::range",
                                *sp,
                                format!("the range {lo}..{hi} is empty"),
                            )
                            .label("empty range")
                            .help("write the low end first"),
                        );
                    }
                    ir::AttrType::Int { lo: *lo, hi: *hi }
                }
                ast::AttrType::Named(n) => {
                    if n.name == "pattern" {
                        ir::AttrType::Pattern
                    } else {
                        match cx.enum_ids.get(&n.name) {
                            Some(&e) => ir::AttrType::Enum(e),
                            None => {
                                let mut d = Diagnostic::error(
                                    "muster::unknown-name",
                                    n.span,
                                    format!("unknown type `{}`", n.name),
                                )
                                .label("not an enum");
                                let known: Vec<String> = cx.enum_ids.keys().cloned().collect();
                                d = d.help(suggest(&n.name, known.iter().map(|s| s.as_str())).unwrap_or_else(|| "an attribute is a range such as `1..13` or the name of an enum".into()));
                                cx.error(d);
                                ir::AttrType::Int { lo: 0, hi: 0 }
                            }
                        }
                    }
                }
            };
            let id = match cx.attr_ids.get(&a.name.name) {
                Some(&id) => {
                    if cx.attrs[id as usize].ty != ty {
                        cx.error(Diagnostic::error("muster::type", a.name.span, format!("attribute `{}` has another type in another kind", a.name.name)).label("type differs").help("attributes with the same name must have the same type in every kind"));
                    }
                    id
                }
                None => {
                    let id = cx.attrs.len() as u16;
                    cx.attr_ids.insert(a.name.name.clone(), id);
                    cx.attrs.push(ir::AttrDef {
                        name: a.name.name.clone(),
                        ty,
                        names: a.names.clone(),
                    });
                    id
                }
            };
            own.push(id);
        }
        let label = match &k.label {
            Some((t, sp)) => parse_label(cx, t, *sp, &own),
            None => vec![ir::LabelPart::Text(k.name.name.clone())],
        };
        cx.kind_ids
            .insert(k.name.name.clone(), cx.kinds.len() as u16);
        cx.kinds.push(ir::KindDef {
            name: k.name.name.clone(),
            attrs: own,
            label,
            notation: None,
        });
    }
    for item in items {
        let (kind, template, is_label) = match &item.kind {
            ItemKind::Label { kind, template } => (kind, template, true),
            ItemKind::Notation { kind, template } => (kind, template, false),
            _ => continue,
        };
        match cx.kind_ids.get(&kind.name) {
            Some(&k) => {
                let own = cx.kinds[k as usize].attrs.clone();
                let parts = parse_label(cx, template, item.span, &own);
                if is_label {
                    cx.kinds[k as usize].label = parts;
                } else {
                    cx.kinds[k as usize].notation = Some(parts);
                }
            }
            None => {
                let known: Vec<String> = cx.kind_ids.keys().cloned().collect();
                cx.unknown("kind", kind, "no such kind", known);
            }
        }
    }
}

const GRID_DIRS: [(&str, i8, i8); 8] = [
    ("n", 0, 1),
    ("ne", 1, 1),
    ("e", 1, 0),
    ("se", 1, -1),
    ("s", 0, -1),
    ("sw", -1, -1),
    ("w", -1, 0),
    ("nw", -1, 1),
];

fn lower_board(cx: &mut Ctx, items: &[&Item]) {
    let Some(b) = items.iter().find_map(|i| {
        if let ItemKind::Board(b @ ast::BoardDecl { grid: true, .. }) = &i.kind {
            Some(b)
        } else {
            None
        }
    }) else {
        return;
    };
    if b.width == 0 || b.height == 0 || b.width > MAX_BOARD_SIDE || b.height > MAX_BOARD_SIDE * 2 {
        cx.error(
            Diagnostic::error(
                "muster::board",
                b.size_span,
                format!(
                    "a {} x {} grid is outside what Muster supports",
                    b.width, b.height
                ),
            )
            .label("board size")
            .help(format!(
                "a grid has 1 to {MAX_BOARD_SIDE} files and 1 to {} ranks",
                MAX_BOARD_SIDE * 2
            )),
        );
    }
    // A board out of bounds is checked at the largest size allowed, so that the cells
    // the file names are not reported again as unknown names.
    let bad =
        b.width == 0 || b.height == 0 || b.width > MAX_BOARD_SIDE || b.height > MAX_BOARD_SIDE * 2;
    let (w, h) = if bad {
        (MAX_BOARD_SIDE as u16, MAX_BOARD_SIDE as u16 * 2)
    } else {
        (b.width as u16, b.height as u16)
    };
    let mut board = ir::Board {
        width: w,
        height: h,
        ..Default::default()
    };
    board.dirs = GRID_DIRS
        .iter()
        .map(|(n, dx, dy)| ir::DirDef {
            name: n.to_string(),
            dx: *dx,
            dy: *dy,
        })
        .collect();
    for y in 0..h {
        for x in 0..w {
            let name = format!("{}{}", (b'a' + x as u8) as char, y + 1);
            cx.cell_ids.insert(name.clone(), board.cells.len() as u16);
            board.cells.push(ir::CellDef { name, x, y });
        }
    }
    for c in 0..board.cells.len() {
        let (x, y) = (board.cells[c].x as i32, board.cells[c].y as i32);
        for (_, dx, dy) in GRID_DIRS {
            let (nx, ny) = (x + dx as i32, y + dy as i32);
            board
                .links
                .push(if nx >= 0 && ny >= 0 && nx < w as i32 && ny < h as i32 {
                    (ny as u16) * w + nx as u16
                } else {
                    ir::NO_CELL
                });
        }
    }
    cx.board = board;
}

fn lower_seats(cx: &mut Ctx, items: &[&Item], max_p: u8) -> (Vec<ir::SeatDef>, Vec<String>) {
    let decls: Vec<(&ast::Ident, &Vec<ast::Field>)> = items
        .iter()
        .filter_map(|i| {
            if let ItemKind::Seat { name, fields } = &i.kind {
                Some((name, fields))
            } else {
                None
            }
        })
        .collect();
    if decls.is_empty() {
        cx.seats = (1..=max_p).map(|i| format!("P{i}")).collect();
        return (
            cx.seats
                .iter()
                .map(|n| ir::SeatDef {
                    name: n.clone(),
                    attrs: vec![],
                })
                .collect(),
            vec![],
        );
    }
    cx.seats = decls.iter().map(|(n, _)| n.name.clone()).collect();
    if decls.len() < max_p as usize {
        cx.error(
            Diagnostic::error(
                "muster::seats",
                decls[decls.len() - 1].0.span,
                format!(
                    "the game seats up to {max_p} players but declares {} seat(s)",
                    decls.len()
                ),
            )
            .label("last seat declared")
            .help("declare one `seat` for each player the game can have"),
        );
    }
    // Attribute names: the union over seats, in first-seen order.
    let mut names: Vec<String> = Vec::new();
    for (_, fields) in &decls {
        for f in fields.iter() {
            if !names.contains(&f.name.name) {
                names.push(f.name.name.clone());
            }
        }
    }
    let mut types: Vec<Type> = vec![Type::Unknown; names.len()];
    let mut seats = Vec::new();
    for (name, fields) in &decls {
        let mut attrs = vec![Value::None; names.len()];
        for (i, n) in names.iter().enumerate() {
            match fields.iter().find(|f| &f.name.name == n) {
                Some(f) => {
                    let (x, t) = cx.expr(&f.value);
                    if types[i] == Type::Unknown {
                        types[i] = t;
                    } else if !fits(&types[i], &t) {
                        let d = Diagnostic::error(
                            "muster::type",
                            f.value.span,
                            format!(
                                "seat attribute `{n}` is {} here but {} for another seat",
                                describe(cx, &t),
                                describe(cx, &types[i])
                            ),
                        )
                        .label("type differs");
                        cx.error(d);
                    }
                    match consts::fixed(&x, &[], &cx.board) {
                        Ok(v) => attrs[i] = v,
                        Err(why) => cx.not_fixed(
                            why,
                            Diagnostic::error(
                                "muster::not-constant",
                                f.value.span,
                                "a seat attribute must be fixed before play",
                            )
                            .label("depends on the game's state")
                            .help("use a number, a cell, an enum value or a list of them"),
                        ),
                    }
                }
                None => cx.error(
                    Diagnostic::error(
                        "muster::seats",
                        name.span,
                        format!(
                            "seat `{}` does not give `{n}`, which other seats give",
                            name.name
                        ),
                    )
                    .label("missing attribute")
                    .help(format!("add `{n}: ...` to this seat")),
                ),
            }
        }
        seats.push(ir::SeatDef {
            name: name.name.clone(),
            attrs,
        });
    }
    cx.seat_attrs = names.iter().cloned().zip(types).collect();
    (seats, names)
}

fn lower_regions(cx: &mut Ctx, items: &[&Item]) {
    let Some(b) = items.iter().find_map(|i| {
        if let ItemKind::Board(b) = &i.kind {
            Some(b)
        } else {
            None
        }
    }) else {
        return;
    };
    let mut order: Vec<&str> = Vec::new();
    let mut parts: HashMap<&str, Vec<&ast::RegionDecl>> = HashMap::new();
    for r in &b.regions {
        if !parts.contains_key(r.name.name.as_str()) {
            order.push(&r.name.name);
        }
        parts.entry(&r.name.name).or_default().push(r);
    }
    for name in order {
        let decls = &parts[name];
        let per_seat = decls[0].seat.is_some();
        let mut lists = if per_seat {
            vec![Vec::new(); cx.seats.len()]
        } else {
            vec![Vec::new()]
        };
        let mut given = vec![false; lists.len()];
        for r in decls {
            if r.seat.is_some() != per_seat {
                cx.error(
                    Diagnostic::error(
                        "muster::region",
                        r.name.span,
                        format!("region `{name}` is given both per seat and for everyone"),
                    )
                    .label("mixed")
                    .help("give it for every seat, `region name(Seat) = ...`, or once for all"),
                );
                continue;
            }
            let idx = match &r.seat {
                None => 0,
                Some(s) => match cx.seats.iter().position(|n| n == &s.name) {
                    Some(i) => i,
                    None => {
                        let known = cx.seats.clone();
                        cx.unknown("seat", s, "not a seat", known);
                        continue;
                    }
                },
            };
            if given[idx] {
                cx.error(
                    Diagnostic::error(
                        "muster::duplicate",
                        r.name.span,
                        format!("region `{name}` is given twice for the same seat"),
                    )
                    .label("again"),
                );
            }
            given[idx] = true;
            let x = cx.expect(&r.cells, &Type::List(Box::new(Type::Cell)), "a region");
            match consts::fixed(&x, &[], &cx.board) {
                Ok(Value::List(vs)) => {
                    lists[idx] = vs
                        .iter()
                        .filter_map(|v| {
                            if let Value::Cell(c) = v {
                                Some(*c)
                            } else {
                                None
                            }
                        })
                        .collect()
                }
                // Not cells: `expect` said so.
                Ok(_) => {}
                Err(why) => cx.not_fixed(
                    why,
                    Diagnostic::error(
                        "muster::not-constant",
                        r.cells.span,
                        "a region's cells must be fixed before play",
                    )
                    .label("not a fixed list of cells"),
                ),
            }
        }
        if per_seat {
            for (i, g) in given.iter().enumerate() {
                if !g {
                    let d = Diagnostic::error(
                        "muster::region",
                        decls[0].name.span,
                        format!("region `{name}` is not given for seat `{}`", cx.seats[i]),
                    )
                    .label("given for some seats only")
                    .help(format!("add `region {name}({}) = ...`", cx.seats[i]));
                    cx.error(d);
                }
            }
        }
        let id = cx.board.regions.len() as u16;
        cx.regions.insert(name.to_string(), (id, per_seat));
        cx.board.regions.push(ir::RegionDef {
            name: name.to_string(),
            per_seat,
            cells: lists,
        });
    }
}

fn lower_decks(cx: &mut Ctx, items: &[&Item]) {
    for item in items {
        let ItemKind::Deck { name, kind, body } = &item.kind else {
            continue;
        };
        let Some(&k) = cx.kind_ids.get(&kind.name) else {
            let known: Vec<String> = cx.kind_ids.keys().cloned().collect();
            cx.unknown("kind", kind, "no such kind", known);
            // Known, but empty: the zones holding it are not reported as well.
            cx.decks.insert(name.name.clone(), vec![]);
            continue;
        };
        let mut cards = Vec::new();
        let mut locals = Vec::new();
        deck_entries(cx, k, body, &mut locals, &mut cards);
        cx.reset_scope();
        cx.decks.insert(name.name.clone(), cards);
    }
}

/// Expands a deck's `for` loops and `card` entries into components (kept in `cx.components`
/// only when a zone holds the deck; here they are templates).
fn deck_entries(
    cx: &mut Ctx,
    kind: u16,
    body: &[ast::DeckEntry],
    locals: &mut Vec<Value>,
    out: &mut Vec<ir::CompId>,
) {
    for e in body {
        match e {
            ast::DeckEntry::For { var, domain, body } => {
                let (x, el) = cx.collection(domain, "the collection of a deck's `for`");
                let vals = match consts::fixed(&x, locals, &cx.board) {
                    Ok(Value::List(vals)) => vals,
                    // Not a collection: `collection` said so.
                    Ok(_) => continue,
                    Err(why) => {
                        cx.not_fixed(
                            why,
                            Diagnostic::error(
                                "muster::not-constant",
                                domain.span,
                                "a deck's `for` must run over a fixed list",
                            )
                            .label("not fixed before play")
                            .help("use a range such as `1..13` or an enum's name"),
                        );
                        continue;
                    }
                };
                let mark = cx.mark();
                let slot = cx.push_local(&var.name, el);
                for v in vals {
                    if !cx.spend(1, domain.span) {
                        break;
                    }
                    if locals.len() <= slot as usize {
                        locals.resize(slot as usize + 1, Value::None);
                    }
                    locals[slot as usize] = v;
                    deck_entries(cx, kind, body, locals, out);
                    if cx.diags.len() > super::MAX_ERRORS {
                        break;
                    }
                }
                cx.release(mark);
                cx.scope.next_slot = slot;
            }
            ast::DeckEntry::Card {
                copies,
                fields,
                span,
            } => {
                let kd = cx.kinds[kind as usize].attrs.clone();
                let mut attrs = vec![Value::None; cx.attrs.len()];
                let mut ok = true;
                for f in fields {
                    let Some(&a) = cx.attr_ids.get(&f.name.name).filter(|a| kd.contains(a)) else {
                        let known: Vec<String> = kd
                            .iter()
                            .map(|a| cx.attrs[*a as usize].name.clone())
                            .collect();
                        let mut d = Diagnostic::error(
                            "muster::unknown-field",
                            f.name.span,
                            format!(
                                "kind `{}` has no attribute `{}`",
                                cx.kinds[kind as usize].name, f.name.name
                            ),
                        )
                        .label("unknown attribute");
                        if let Some(h) = suggest(&f.name.name, known.iter().map(|s| s.as_str())) {
                            d = d.help(h);
                        }
                        cx.error(d);
                        ok = false;
                        continue;
                    };
                    let want = match cx.attrs[a as usize].ty {
                        ir::AttrType::Int { .. } => Type::Int,
                        ir::AttrType::Enum(e) => Type::Enum(e),
                        ir::AttrType::Pattern => Type::Pattern,
                    };
                    let x = cx.expect(&f.value, &want, &format!("attribute `{}`", f.name.name));
                    match consts::eval(&x, locals, &cx.board) {
                        Some(v) => {
                            if let (ir::AttrType::Int { lo, hi }, Value::Int(i)) =
                                (&cx.attrs[a as usize].ty, &v)
                            {
                                if i < lo || i > hi {
                                    cx.error(
                                        Diagnostic::error(
                                            "muster::range",
                                            f.value.span,
                                            format!(
                                                "`{}` is {i} here, outside its range {lo}..{hi}",
                                                f.name.name
                                            ),
                                        )
                                        .label("out of range"),
                                    );
                                }
                            }
                            attrs[a as usize] = v;
                        }
                        None => {
                            cx.error(
                                Diagnostic::error(
                                    "muster::not-constant",
                                    f.value.span,
                                    "a card's attributes must be fixed before play",
                                )
                                .label("not fixed"),
                            );
                            ok = false;
                        }
                    }
                }
                for a in &kd {
                    if ok
                        && attrs[*a as usize] == Value::None
                        && !fields
                            .iter()
                            .any(|f| f.name.name == cx.attrs[*a as usize].name)
                    {
                        let n = cx.attrs[*a as usize].name.clone();
                        cx.error(
                            Diagnostic::error(
                                "muster::missing-field",
                                *span,
                                format!("this card does not give its `{n}`"),
                            )
                            .label("incomplete card")
                            .help(format!("add `{n}: ...`")),
                        );
                        ok = false;
                    }
                }
                if cx.components.len() + *copies as usize > MAX_COMPONENTS {
                    cx.error(
                        Diagnostic::error(
                            "muster::limit",
                            *span,
                            format!("a game may have at most {MAX_COMPONENTS} cards and pieces"),
                        )
                        .label("too many"),
                    );
                    return;
                }
                for _ in 0..*copies {
                    out.push(cx.components.len() as u16);
                    cx.components.push(ir::Component {
                        kind,
                        attrs: attrs.clone(),
                    });
                }
            }
        }
    }
}

fn lower_zones(cx: &mut Ctx, items: &[&Item]) -> Vec<ir::ZoneDef> {
    // Deck templates become real components when a zone holds them; the templates
    // themselves are dropped afterwards.
    let templates = std::mem::take(&mut cx.components);
    let mut zones = Vec::new();
    for item in items {
        let ItemKind::Zone(z) = &item.kind else {
            continue;
        };
        let instances = if z.per_seat { cx.seats.len() } else { 1 };
        let mut initial = vec![Vec::new(); instances];
        for list in initial.iter_mut() {
            for (copies, deck) in &z.holds {
                let Some(cards) = cx.decks.get(&deck.name).cloned() else {
                    // A per-seat zone meets the same unknown deck once per seat: say it once.
                    if !cx.diags.iter().any(|e| e.span == deck.span) {
                        let known: Vec<String> = cx.decks.keys().cloned().collect();
                        cx.unknown("deck", deck, "no such deck", known);
                    }
                    continue;
                };
                for _ in 0..*copies {
                    if cards.is_empty() || !cx.room_for_components(cards.len(), deck.span) {
                        break;
                    }
                    for c in &cards {
                        list.push(cx.components.len() as u16);
                        cx.components.push(templates[*c as usize].clone());
                    }
                }
            }
        }
        let id = zones.len() as u16;
        if z.slots == 0 || z.slots > MAX_SLOTS {
            cx.error(
                Diagnostic::error(
                    "muster::limit",
                    z.name.span,
                    format!("zone `{}` asks for {} numbered zones", z.name.name, z.slots),
                )
                .label("here")
                .help(format!(
                    "a zone name may stand for 1 to {MAX_SLOTS} numbered zones"
                )),
            );
        }
        let slots = z.slots.clamp(1, MAX_SLOTS) as u16;
        cx.zones
            .insert(z.name.name.clone(), (id, z.per_seat, slots));
        let visibility = match z.visibility {
            ast::Visibility::Public => ir::Visibility::Public,
            ast::Visibility::Owner => ir::Visibility::Owner,
            ast::Visibility::Hidden => ir::Visibility::Hidden,
            ast::Visibility::Top => ir::Visibility::Top,
        };
        zones.push(ir::ZoneDef {
            name: z.name.name.clone(),
            per_seat: z.per_seat,
            visibility,
            slots,
            initial,
        });
    }
    zones
}

/// The types a variable may be declared with, besides enum names.
const TYPE_NAMES: [(&str, Type); 8] = [
    ("number", Type::Int),
    ("bool", Type::Bool),
    ("seat", Type::Seat),
    ("cell", Type::Cell),
    ("card", Type::Comp),
    ("direction", Type::Dir),
    ("phase", Type::Phase),
    ("route", Type::Route),
];

fn type_named(cx: &Ctx, name: &str) -> Option<Type> {
    if name == "cards" {
        return Some(Type::List(Box::new(Type::Comp)));
    }
    if let Some((_, t)) = TYPE_NAMES.iter().find(|(n, _)| *n == name) {
        return Some(t.clone());
    }
    cx.enum_ids.get(name).map(|&e| Type::Enum(e))
}

fn lower_vars(cx: &mut Ctx, items: &[&Item]) -> Vec<ir::VarDef> {
    let mut vars = Vec::new();
    for item in items {
        let ItemKind::Var {
            name,
            per_seat,
            per_piece,
            visibility,
            ty: declared,
            init,
        } = &item.kind
        else {
            continue;
        };
        let visibility = match visibility {
            ast::Visibility::Owner if !per_seat && !per_piece => {
                let d = Diagnostic::error(
                    "muster::var-owner",
                    name.span,
                    format!("`{}` is one variable for the whole game: no seat owns it", name.name),
                )
                .label("`owner` needs an owner")
                .help("say `var NAME per seat owner` (each seat sees its own) or `var NAME hidden` (no seat sees it)");
                cx.error(d);
                ir::Visibility::Hidden
            }
            ast::Visibility::Owner => ir::Visibility::Owner,
            ast::Visibility::Hidden => ir::Visibility::Hidden,
            _ => ir::Visibility::Public,
        };
        let (x, mut ty) = cx.expr(init);
        if let Some(t) = declared {
            match type_named(cx, &t.name) {
                Some(want) => {
                    if !fits(&want, &ty) {
                        let d = Diagnostic::error(
                            "muster::type",
                            init.span,
                            format!(
                                "`{}` is declared as {}, but starts as {}",
                                name.name,
                                describe(cx, &want),
                                describe(cx, &ty)
                            ),
                        )
                        .label("does not fit the declared type");
                        cx.error(d);
                    }
                    ty = want;
                }
                None => {
                    let mut known: Vec<String> =
                        TYPE_NAMES.iter().map(|(n, _)| n.to_string()).collect();
                    known.extend(cx.enum_ids.keys().cloned());
                    cx.unknown("type", t, "not a type", known);
                }
            }
        }
        cx.reset_scope();
        let id = vars.len() as u16;
        cx.vars.insert(
            name.name.clone(),
            VarInfo {
                id,
                per_seat: *per_seat,
                per_piece: *per_piece,
                ty,
            },
        );
        vars.push(ir::VarDef {
            name: name.name.clone(),
            per_seat: *per_seat,
            per_piece: *per_piece,
            visibility,
            init: x,
        });
    }
    vars
}

fn find_action(cx: &mut Ctx, n: &ast::Ident) -> Option<u16> {
    match cx.actions.get(&n.name) {
        Some(&a) => Some(a),
        None => {
            let known: Vec<String> = cx.actions.keys().cloned().collect();
            cx.unknown("action", n, "no such action", known);
            None
        }
    }
}

fn lower_phases(cx: &mut Ctx, items: &[&Item], max_locals: &mut u16) -> Vec<ir::Phase> {
    let mut phases = Vec::new();
    for item in items {
        let ItemKind::Phase(p) = &item.kind else {
            continue;
        };
        let skip = p.skip.as_ref().map(|(v, e)| {
            cx.push_local(&v.name, Type::Seat);
            let x = cx.expect(e, &Type::Bool, "the `skip ... when` condition");
            *max_locals = (*max_locals).max(cx.reset_scope());
            x
        });
        let start = p
            .start
            .as_ref()
            .map(|e| cx.expect(e, &Type::Seat, "a phase's `start`"));
        let mut steps = Vec::new();
        for s in &p.steps {
            let by = s.by.as_ref().map(|e| cx.expect(e, &Type::Seat, "`by`"));
            let actions = s
                .actions
                .iter()
                .filter_map(|a| find_action(cx, a))
                .collect();
            let condition = s
                .condition
                .as_ref()
                .map(|e| cx.expect(e, &Type::Bool, "a step's `if`"));
            let mode = match s.mode {
                ast::StepMode::One => ir::StepMode::One,
                ast::StepMode::Optional => ir::StepMode::Optional,
                ast::StepMode::Repeat => ir::StepMode::Repeat,
                ast::StepMode::Loop => ir::StepMode::Loop,
            };
            steps.push(ir::Step {
                by,
                mode,
                actions,
                condition,
            });
        }
        if steps.is_empty() {
            cx.error(
                Diagnostic::error(
                    "muster::no-turn",
                    p.name.span,
                    format!("phase `{}` has no turn, so no one acts in it", p.name.name),
                )
                .label("empty phase")
                .help("add `turn { one of some_action }`"),
            );
        }
        let enter = p.enter.as_ref().map(|b| cx.block(b)).unwrap_or_default();
        *max_locals = (*max_locals).max(cx.reset_scope());
        let before_turn = p
            .before_turn
            .as_ref()
            .map(|b| cx.block(b))
            .unwrap_or_default();
        *max_locals = (*max_locals).max(cx.reset_scope());
        let after_turn = p
            .after_turn
            .as_ref()
            .map(|b| cx.block(b))
            .unwrap_or_default();
        *max_locals = (*max_locals).max(cx.reset_scope());
        let until = p
            .until
            .as_ref()
            .map(|e| cx.expect(e, &Type::Bool, "a phase's `until`"));
        *max_locals = (*max_locals).max(cx.reset_scope());
        let next = p.next.as_ref().and_then(|n| match cx.phases.get(&n.name) {
            Some(&id) => Some(id),
            None => {
                let known: Vec<String> = cx.phases.keys().cloned().collect();
                cx.unknown("phase", n, "no such phase", known);
                None
            }
        });
        phases.push(ir::Phase {
            name: p.name.name.clone(),
            skip,
            start,
            steps,
            before_turn,
            after_turn,
            until,
            next,
            reversed: p.reversed,
            enter,
        });
    }
    phases
}

fn lower_actions(cx: &mut Ctx, items: &[&Item], max_locals: &mut u16) -> Vec<ir::ActionDef> {
    let mut actions = Vec::new();
    for item in items {
        let ItemKind::Action(a) = &item.kind else {
            continue;
        };
        if a.name.name == "done" || a.name.name == "skip" {
            cx.error(
                Diagnostic::error("muster::reserved", a.name.span, format!("`{}` is the name of a built-in action", a.name.name))
                    .label("reserved")
                    .help("`done` ends a repeated step and `skip` passes an optional one; give this action another name"),
            );
        }
        let mut clauses = Vec::new();
        let mut require_texts = Vec::new();
        let mut require_reasons = Vec::new();
        let mut choose_reasons: Vec<Option<String>> = Vec::new();
        let mut choose_count = 0usize;
        for c in &a.clauses {
            match c {
                ast::Clause::Choose {
                    var,
                    domain,
                    reason,
                } => {
                    let (d, el) = cx.collection(domain, "what `choose` picks from");
                    let slot = cx.push_local(&var.name, el.clone());
                    if reason.is_some() {
                        choose_reasons.resize(choose_count, None);
                        choose_reasons.push(reason.clone());
                    }
                    choose_count += 1;
                    clauses.push(ir::Clause::Choose {
                        slot,
                        name: var.name.clone(),
                        ty: el,
                        domain: d,
                    });
                }
                ast::Clause::Let { var, value } => {
                    let (x, t) = cx.expr(value);
                    let slot = cx.push_local(&var.name, t);
                    clauses.push(ir::Clause::Let { slot, value: x });
                }
                ast::Clause::Require(e, reason) => {
                    let x = cx.expect(e, &Type::Bool, "a `require`");
                    clauses.push(ir::Clause::Require {
                        index: require_texts.len() as u16,
                        cond: x,
                    });
                    require_texts.push(source_text(e));
                    require_reasons.push(reason.clone());
                }
                ast::Clause::Do(b) => clauses.push(ir::Clause::Do(cx.block(b))),
            }
        }
        let locals = cx.reset_scope();
        *max_locals = (*max_locals).max(locals);
        actions.push(ir::ActionDef {
            name: a.name.name.clone(),
            locals,
            clauses,
            require_texts,
            require_reasons,
            choose_reasons,
            place: String::new(),
            require_places: Vec::new(),
        });
    }
    actions
}

/// A compact rendering of an expression for messages (`require` explanations).
fn source_text(e: &ast::Expr) -> String {
    use ast::ExprKind as K;
    match &e.kind {
        K::Int(i) => i.to_string(),
        K::Str(s) => format!("{s:?}"),
        K::Bool(b) => b.to_string(),
        K::None => "none".into(),
        K::Name(n) => n.name.clone(),
        K::Call(f, a) => format!(
            "{}({})",
            f.name,
            a.iter().map(source_text).collect::<Vec<_>>().join(", ")
        ),
        K::Field(b, f) => format!("{}.{}", source_text(b), f.name),
        K::Unary(ast::UnOp::Not, x) => format!("not {}", source_text(x)),
        K::Unary(ast::UnOp::Neg, x) => format!("-{}", source_text(x)),
        K::Binary(op, a, b) => {
            let wrap = |x: &ast::Expr| {
                if matches!(x.kind, K::Binary(..)) {
                    format!("({})", source_text(x))
                } else {
                    source_text(x)
                }
            };
            format!("{} {} {}", wrap(a), op.symbol(), wrap(b))
        }
        K::If(c, a, b) => format!(
            "if {} then {} else {}",
            source_text(c),
            source_text(a),
            source_text(b)
        ),
        K::Quant(q, v, c, b) => format!(
            "{} {} in {}: {}",
            match q {
                ast::Quant::Any => "any",
                ast::Quant::All => "all",
                ast::Quant::None => "none",
            },
            v.name,
            source_text(c),
            source_text(b)
        ),
        K::Agg(a, v, c, b) => format!(
            "{} {} in {}: {}",
            match a {
                ast::Agg::Sum => "sum",
                ast::Agg::Max => "max",
                ast::Agg::Min => "min",
                ast::Agg::Count => "count",
            },
            v.name,
            source_text(c),
            source_text(b)
        ),
        K::Comprehension(v, c, w) => match w {
            Some(w) => format!(
                "[{} in {} where {}]",
                v.name,
                source_text(c),
                source_text(w)
            ),
            None => format!("[{} in {}]", v.name, source_text(c)),
        },
        K::List(items) => format!(
            "[{}]",
            items.iter().map(source_text).collect::<Vec<_>>().join(", ")
        ),
    }
}

fn lower_triggers(cx: &mut Ctx, items: &[&Item], max_locals: &mut u16) -> Vec<ir::Trigger> {
    let mut out = Vec::new();
    for item in items {
        let ItemKind::Trigger {
            var,
            enters,
            zone,
            body,
        } = &item.kind
        else {
            continue;
        };
        let Some(&(z, _, _)) = cx.zones.get(&zone.name) else {
            let known: Vec<String> = cx.zones.keys().cloned().collect();
            cx.unknown("zone", zone, "no such zone", known);
            continue;
        };
        cx.push_local(&var.name, Type::Comp);
        let body = cx.block(body);
        *max_locals = (*max_locals).max(cx.reset_scope());
        out.push(ir::Trigger {
            zone: z,
            enters: *enters,
            body,
        });
    }
    out
}

fn lower_reactions(cx: &mut Ctx, items: &[&Item], max_locals: &mut u16) -> Vec<ir::Reaction> {
    let mut out = Vec::new();
    for item in items {
        let ItemKind::Reaction(r) = &item.kind else {
            continue;
        };
        let by = cx.expect(&r.by, &Type::Seat, "who reacts (`by`)");
        let offer = r
            .offer
            .as_ref()
            .map(|c| cx.expect(c, &Type::Bool, "a reaction's `when`"));
        let actions = r
            .actions
            .iter()
            .filter_map(|a| find_action(cx, a))
            .collect();
        let after = cx.block(&r.after);
        *max_locals = (*max_locals).max(cx.reset_scope());
        let mode = match r.mode {
            ast::StepMode::One => ir::StepMode::One,
            ast::StepMode::Optional => ir::StepMode::Optional,
            ast::StepMode::Repeat => ir::StepMode::Repeat,
            ast::StepMode::Loop => ir::StepMode::Loop,
        };
        out.push(ir::Reaction {
            name: r.name.name.clone(),
            by,
            offer,
            mode,
            actions,
            after,
        });
    }
    out
}

fn lower_end(cx: &mut Ctx, items: &[&Item], max_locals: &mut u16) -> ir::EndRules {
    let mut end = ir::EndRules {
        wins: vec![],
        draws: vec![],
        stuck: ir::StuckRule::Pass,
        score: None,
    };
    for item in items {
        let ItemKind::End(rules) = &item.kind else {
            continue;
        };
        for r in rules {
            match r {
                ast::EndRule::Win { who, when } => {
                    let (w, t) = cx.expr(who);
                    if !fits(&Type::Seat, &t) && !fits(&Type::List(Box::new(Type::Seat)), &t) {
                        let d = Diagnostic::error("muster::type", who.span, format!("the winner must be a seat or a list of seats (who share the win), but this is {}", describe(cx, &t)))
                            .label("not a seat");
                        cx.error(d);
                    }
                    let c = cx.expect(when, &Type::Bool, "a `win ... when` condition");
                    end.wins.push((w, c));
                }
                ast::EndRule::Score { seat, value } => {
                    cx.push_local(&seat.name, Type::Seat);
                    end.score = Some(cx.expect(value, &Type::Int, "a score"));
                }
                ast::EndRule::Draw { when } => {
                    end.draws
                        .push(cx.expect(when, &Type::Bool, "a `draw when` condition"))
                }
                ast::EndRule::Stuck(s, _) => {
                    end.stuck = match s {
                        ast::StuckRule::Draw => ir::StuckRule::Draw,
                        ast::StuckRule::Pass => ir::StuckRule::Pass,
                        ast::StuckRule::Lose => ir::StuckRule::Lose,
                    }
                }
            }
            *max_locals = (*max_locals).max(cx.reset_scope());
        }
    }
    end
}

/// Warns about actions that no phase ever offers.
fn warn_unoffered(cx: &mut Ctx, items: &[&Item], phases: &[ir::Phase], reactions: &[ir::Reaction]) {
    // A misspelt action in a turn already has its error; a warning beside it misleads.
    if cx
        .diags
        .iter()
        .any(|d| d.message.starts_with("unknown action"))
    {
        return;
    }
    for item in items {
        let ItemKind::Action(a) = &item.kind else {
            continue;
        };
        let Some(&id) = cx.actions.get(&a.name.name) else {
            continue;
        };
        let in_turn = phases
            .iter()
            .any(|p| p.steps.iter().any(|s| s.actions.contains(&id)));
        let in_reaction = reactions.iter().any(|r| r.actions.contains(&id));
        if !in_turn && !in_reaction {
            cx.error(
                Diagnostic::warning(
                    "muster::unused-action",
                    a.name.span,
                    format!("action `{}` is never offered", a.name.name),
                )
                .label("no turn step or reaction lists it")
                .help(format!(
                    "add it to a turn step, e.g. `turn {{ one of {} }}`, or remove it",
                    a.name.name
                )),
            );
        }
    }
}
