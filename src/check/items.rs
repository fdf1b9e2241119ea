//! Lowering a whole game: the passes over declarations, in dependency order. Each kind
//! of declaration is lowered in its own file under `items/`; this file applies a variant,
//! runs the passes in order and records where each action is declared.

use super::consts;
use super::load::Loaded;
use super::symbols::{describe, fits, Ctx, VarInfo};
use crate::diagnostic::Diagnostic;
use crate::ir::{self, Type, Value};
use crate::similar::suggest;
use crate::syntax::ast::{self, Item, ItemKind, Span};
use std::collections::HashMap;

mod actions;
mod board;
mod decks;
mod display;
mod end;
mod enums;
mod kinds;
mod phases;
mod reactions;
mod regions;
mod seats;
mod vars;
mod zones;

use self::actions::lower_actions;
use self::board::lower_board;
use self::decks::lower_decks;
use self::display::lower_display;
use self::end::lower_end;
use self::enums::lower_enums;
use self::kinds::lower_kinds;
use self::phases::{find_action, lower_phases, warn_unoffered};
use self::reactions::{lower_reactions, lower_triggers};
use self::regions::lower_regions;
use self::seats::lower_seats;
use self::vars::lower_vars;
use self::zones::lower_zones;

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
    let Some(list) = variant else { return out };
    let mut applied: Vec<&str> = Vec::new();
    // Which variant of the list declared each key, and where; the header by property.
    let mut by: HashMap<(&'static str, String), (&str, &Item)> = HashMap::new();
    let mut header_by: HashMap<&'static str, (&str, &Item, String)> = HashMap::new();
    let mut grids = GridMerge::default();
    for v in variant_list(list) {
        let Some((vname, vitems)) = find_variant(items, v, list, &applied, diags) else {
            continue;
        };
        applied.push(vname);
        for vi in vitems {
            match key(vi) {
                // A variant's `game { ... }` changes only the properties it gives: both are
                // kept, and the header is merged when lowered. Two variants of a list
                // may give the same property only the same value.
                Some(k) if k.0 == "game" => {
                    if let ItemKind::Game(g) = &vi.kind {
                        for (prop, value) in header_props(g) {
                            match header_by.get(prop) {
                                Some((first, at, was)) if *was != value => {
                                    diags.push(conflict(
                                        sources,
                                        (first, at.span),
                                        (vname, vi.span),
                                        &format!("game property `{prop}`"),
                                    ));
                                }
                                Some(_) => {}
                                None => {
                                    header_by.insert(prop, (vname, vi, value));
                                }
                            }
                        }
                    }
                    out.push(vi);
                }
                // A variant's grid over a grid: its size replaces the base's, and its regions
                // replace the base's regions of the same names (the others are kept), when
                // lowered. Both boards are kept, the variant's after.
                Some(k)
                    if grid_of(vi).is_some()
                        && seen.get(&k).is_some_and(|&i| grid_of(out[i]).is_some()) =>
                {
                    grids.note(sources, vname, vi, diags);
                    out.push(vi);
                }
                Some(k) => {
                    if k.0 == "board" {
                        if let Some((first, at, _)) = grids.size_by {
                            // A board of areas after a grid that another variant merged.
                            diags.push(conflict(
                                sources,
                                (first, at),
                                (vname, vi.span),
                                "the board",
                            ));
                            continue;
                        }
                        if grid_of(vi).is_some() {
                            grids.note(sources, vname, vi, diags);
                        }
                    }
                    if let Some(&(first, at)) = by.get(&k) {
                        // The same declaration, word for word, is no conflict.
                        if !super::warnings::same_text(sources, at, vi) {
                            diags.push(conflict(
                                sources,
                                (first, at.span),
                                (vname, vi.span),
                                &describe_key(&k),
                            ));
                        }
                        continue;
                    }
                    by.insert(k.clone(), (vname, vi));
                    match seen.get(&k) {
                        Some(&i) => out[i] = vi,
                        None => {
                            seen.insert(k, out.len());
                            out.push(vi);
                        }
                    }
                }
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
    }
    out
}

/// A grid board declaration, or `None` for any other item (a board of areas included).
pub(super) fn grid_of(item: &Item) -> Option<&ast::BoardDecl> {
    match &item.kind {
        ItemKind::Board(b) if b.grid => Some(b),
        _ => None,
    }
}

/// The text of a region declaration, from its name to the end of its cells.
fn region_span(r: &ast::RegionDecl) -> Span {
    Span {
        start: r.name.span.start,
        ..r.cells.span
    }
}

/// Which variant of a list gave the grid's size and each region, to refuse two variants
/// that give them differently.
#[derive(Default)]
struct GridMerge<'a> {
    size_by: Option<(&'a str, Span, (u32, u32))>,
    regions_by: HashMap<&'a str, (&'a str, Span, String)>,
}

impl<'a> GridMerge<'a> {
    fn note(
        &mut self,
        sources: &crate::diagnostic::Sources,
        vname: &'a str,
        vi: &'a Item,
        diags: &mut Vec<Diagnostic>,
    ) {
        let Some(b) = grid_of(vi) else { return };
        // `board grid W x H`, without the regions.
        let size_span = Span {
            end: b.size_span.end,
            ..vi.span
        };
        match self.size_by {
            Some((first, at, size)) if size != (b.width, b.height) => diags.push(conflict(
                sources,
                (first, at),
                (vname, size_span),
                "the board's size",
            )),
            Some(_) => {}
            None => self.size_by = Some((vname, size_span, (b.width, b.height))),
        }
        // A region given per seat is several declarations: compared all together.
        let mut texts: Vec<(&str, Span, String)> = Vec::new();
        for r in &b.regions {
            let text = super::warnings::tokens(sources.text(region_span(r)));
            match texts.iter_mut().find(|(n, ..)| *n == r.name.name) {
                Some(t) => {
                    t.2.push('\n');
                    t.2.push_str(&text);
                }
                None => texts.push((&r.name.name, region_span(r), text)),
            }
        }
        for (name, span, text) in texts {
            match self.regions_by.get(name) {
                Some((first, at, was)) if *was != text => diags.push(conflict(
                    sources,
                    (first, *at),
                    (vname, span),
                    &format!("region `{name}`"),
                )),
                Some(_) => {}
                None => {
                    self.regions_by.insert(name, (vname, span, text));
                }
            }
        }
    }
}

/// The names in a variant list, `a,b` or a single `a`, each trimmed, in order.
pub fn variant_list(list: &str) -> impl Iterator<Item = &str> {
    list.split(',').map(str::trim)
}

/// The declarations of the variant `v` of a list, or an error: an unknown name (with the
/// closest known one), an empty name, or a name given twice.
fn find_variant<'a>(
    items: &'a [Item],
    v: &str,
    list: &str,
    applied: &[&str],
    diags: &mut Vec<Diagnostic>,
) -> Option<(&'a str, &'a [Item])> {
    let found = items.iter().find_map(|i| match &i.kind {
        ItemKind::Variant { name, items } if name.name == v => {
            Some((name.name.as_str(), items.as_slice()))
        }
        _ => None,
    });
    let names = variant_names(items);
    let (message, help) = match found {
        Some(f) if !applied.contains(&f.0) => return Some(f),
        Some(_) => (
            format!("variant `{v}` is named twice in `{list}`"),
            "name each variant once; they apply in the order given".to_string(),
        ),
        None if v.is_empty() => (
            format!("the variant list `{list}` has an empty name"),
            "separate variant names with single commas, e.g. `--variant a,b`".to_string(),
        ),
        None => {
            let known = if names.is_empty() {
                "this game declares no variants".to_string()
            } else {
                format!("known variants: {}", names.join(", "))
            };
            let help = match crate::similar::closest(v, names.iter().map(String::as_str)) {
                Some(best) => format!("did you mean `{best}`? {known}"),
                None => known,
            };
            (format!("unknown variant `{v}`"), help)
        }
    };
    diags.push(
        Diagnostic::error("muster::unknown-variant", Span::default(), message)
            .label("asked for here")
            .help(help),
    );
    None
}

/// The header properties a variant's `game { ... }` gives, each with its value as text.
fn header_props(g: &ast::GameDecl) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    if !g.title.is_empty() {
        out.push(("title", g.title.clone()));
    }
    if let Some((lo, hi, _)) = g.players {
        out.push(("players", format!("{lo}..{hi}")));
    }
    if let Some((m, _)) = g.max_turns {
        out.push(("max_turns", m.to_string()));
    }
    if let Some(f) = &g.first_phase {
        out.push(("first_phase", f.name.clone()));
    }
    out
}

/// A declaration's key in words: `phase `play``, `the setup`.
fn describe_key(k: &(&'static str, String)) -> String {
    if k.0 == "end" {
        "the end rules".to_string()
    } else if k.1.is_empty() {
        format!("the {}", k.0)
    } else {
        format!("{} `{}`", k.0, k.1)
    }
}

/// The first line of a declaration: where a diagnostic about all of it points.
fn head(sources: &crate::diagnostic::Sources, span: Span) -> Span {
    let text = sources.text(span);
    match text.find('\n') {
        Some(i) => Span {
            end: span.start + text[..i].trim_end().len() as u32,
            ..span
        },
        None => span,
    }
}

/// Two variants of a list that both declare `what`, differently.
fn conflict(
    sources: &crate::diagnostic::Sources,
    first: (&str, Span),
    second: (&str, Span),
    what: &str,
) -> Diagnostic {
    let ((a, at), (b, bt)) = (first, second);
    let (line, col) = sources.line_col(at);
    let file = &sources.files[at.file as usize].name;
    Diagnostic::error(
        "muster::variant-conflict",
        head(sources, bt),
        format!("variants `{a}` and `{b}` both change {what}"),
    )
    .label(format!("`{b}` changes {what} here"))
    .related(head(sources, at), format!("`{a}` changes {what} here"))
    .help(format!(
        "they cannot be applied together; write one variant that combines `{a}` and `{b}`, \
         with {what} as the combined game should have it, and ask for that one instead \
         (`{a}`'s is at {file}:{line}:{col})"
    ))
}

pub fn lower(
    loaded: &Loaded,
    variant: Option<&str>,
) -> Result<(ir::Game, Vec<Diagnostic>), Vec<Diagnostic>> {
    let mut pre = Vec::new();
    let items = apply_variant(&loaded.items, variant, &loaded.sources, &mut pre);
    let mut cx = Ctx {
        diags: pre,
        board_variant: board_variant(&loaded.items, &items),
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

/// When the grid played on comes from a variant: the variant's name and the base game's
/// grid (width, height).
fn board_variant(all: &[Item], items: &[&Item]) -> Option<(String, u32, u32)> {
    let base = all.iter().find_map(grid_of)?;
    let played = items.iter().rev().find(|i| grid_of(i).is_some())?;
    all.iter().find_map(|v| match &v.kind {
        ItemKind::Variant { name, items } if items.iter().any(|i| std::ptr::eq(i, *played)) => {
            Some((name.name.clone(), base.width, base.height))
        }
        _ => None,
    })
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
                ast::Clause::Require { cond, .. } => Some(place(cond.span)),
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
        Some(n) => phases::find_phase(cx, n).unwrap_or(0),
    };
    warn_unoffered(cx, items, &phases, &reactions);

    ir::Game {
        format_version: ir::FORMAT_VERSION,
        title: header.title,
        variant: variant.map(|l| variant_list(l).collect::<Vec<_>>().join(",")),
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
        history: cx.used.contains("repetitions"),
    }
}

/// The six directions of a hex board (`board hex`), each rank drawn half a cell to the
/// right of the rank below: in the order of `around` on such a board.
pub(crate) const HEX_DIRS: [(&str, i8, i8); 6] = [
    ("e", 1, 0),
    ("ne", 0, 1),
    ("nw", -1, 1),
    ("w", -1, 0),
    ("sw", 0, -1),
    ("se", 1, -1),
];

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
