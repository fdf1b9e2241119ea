//! pest pairs to the spanned AST.

use super::ast::*;
use super::errors::describe_parse_error;
use crate::diagnostic::Diagnostic;
use pest::iterators::Pair;
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest::Parser;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/muster.pest"]
struct MusterParser;

/// The deepest nesting of brackets and blocks a rules file may use.
pub const MAX_NESTING: usize = 64;

/// Parses one source file (its index in `Sources` is `file`).
pub fn parse(file: u16, text: &str) -> Result<Vec<Item>, Diagnostic> {
    if let Some(d) = too_deep(file, text) {
        return Err(d);
    }
    // A file that parses is parsed once, quickly; one that does not is parsed again with
    // pest collecting the literal tokens it tried, so errors can say "expected `in`"
    // (collecting them costs more than the parse). The setting is the process's, so it is
    // set and read under one lock: parses on other threads never see it half changed.
    static DETAIL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let pairs = {
        let _setting = DETAIL.lock().unwrap_or_else(|e| e.into_inner());
        pest::set_error_detail(false);
        match MusterParser::parse(Rule::file, text) {
            Ok(pairs) => pairs,
            Err(_) => {
                pest::set_error_detail(true);
                let again = MusterParser::parse(Rule::file, text);
                pest::set_error_detail(false);
                again.map_err(|e| describe_parse_error(file, text, e))?
            }
        }
    };
    let b = Builder {
        file,
        pratt: pratt(),
    };
    let file_pair = pairs.into_iter().next().expect("file rule");
    if let Some(d) = super::depth::too_deep(file, &file_pair) {
        return Err(d);
    }
    Ok(file_pair
        .into_inner()
        .filter(not_kw)
        .filter(|p| p.as_rule() != Rule::EOI)
        .map(|p| b.item(p))
        .collect())
}

/// Refuses absurd nesting before pest recurses into it.
fn too_deep(file: u16, text: &str) -> Option<Diagnostic> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some(
                        Diagnostic::error(
                            "muster::too-deep",
                            Span::new(file, i, i + 1),
                            "brackets are nested too deeply",
                        )
                        .label("this bracket")
                        .help(format!(
                            "a rules file may nest brackets and blocks at most {MAX_NESTING} deep"
                        )),
                    );
                }
            }
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

fn pratt() -> PrattParser<Rule> {
    {
        PrattParser::new()
            .op(Op::infix(Rule::or, Assoc::Left))
            .op(Op::infix(Rule::and, Assoc::Left))
            .op(Op::prefix(Rule::not))
            .op(Op::infix(Rule::eq, Assoc::Left)
                | Op::infix(Rule::ne, Assoc::Left)
                | Op::infix(Rule::lt, Assoc::Left)
                | Op::infix(Rule::le, Assoc::Left)
                | Op::infix(Rule::gt, Assoc::Left)
                | Op::infix(Rule::ge, Assoc::Left)
                | Op::infix(Rule::in_op, Assoc::Left)
                | Op::infix(Rule::not_in, Assoc::Left))
            .op(Op::infix(Rule::range, Assoc::Left))
            .op(Op::infix(Rule::add, Assoc::Left) | Op::infix(Rule::sub, Assoc::Left))
            .op(Op::infix(Rule::mul, Assoc::Left)
                | Op::infix(Rule::div, Assoc::Left)
                | Op::infix(Rule::rem, Assoc::Left))
            .op(Op::prefix(Rule::neg))
            .op(Op::postfix(Rule::field_access) | Op::postfix(Rule::index_access))
    }
}

/// Keyword tokens carry no meaning of their own: the builder skips them.
fn not_kw(p: &Pair<Rule>) -> bool {
    !KEYWORDS.contains(&p.as_rule())
}

const KEYWORDS: [Rule; 29] = [
    Rule::kw_form,
    Rule::kw_as,
    Rule::kw_transfer,
    Rule::kw_deal,
    Rule::kw_from,
    Rule::kw_by,
    Rule::kw_choose,
    Rule::kw_do,
    Rule::kw_draw,
    Rule::kw_else,
    Rule::kw_for,
    Rule::kw_if,
    Rule::kw_in,
    Rule::kw_let,
    Rule::kw_lose,
    Rule::kw_move,
    Rule::kw_onto,
    Rule::kw_place,
    Rule::kw_require,
    Rule::kw_shift,
    Rule::kw_shuffle,
    Rule::kw_skip,
    Rule::kw_swap,
    Rule::kw_then,
    Rule::kw_to,
    Rule::kw_toward,
    Rule::kw_when,
    Rule::kw_where,
    Rule::kw_win,
];

struct Builder {
    file: u16,
    pratt: PrattParser<Rule>,
}

fn string_value(p: Pair<Rule>) -> String {
    let inner = p
        .into_inner()
        .find(not_kw)
        .map(|p| p.as_str())
        .unwrap_or("");
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some(o) => out.push(o),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn int_value(p: &Pair<Rule>) -> i64 {
    // The grammar admits only digits; saturate absurdly long numbers.
    p.as_str().parse::<i64>().unwrap_or(i64::MAX)
}

impl Builder {
    fn span(&self, p: &Pair<Rule>) -> Span {
        let s = p.as_span();
        Span::new(self.file, s.start(), s.end())
    }

    fn ident(&self, p: Pair<Rule>) -> Ident {
        Ident {
            name: p.as_str().to_string(),
            span: self.span(&p),
        }
    }

    fn item(&self, p: Pair<Rule>) -> Item {
        let span = self.span(&p);
        let rule = p.as_rule();
        let mut it = p.into_inner().filter(not_kw).peekable();
        let grid_board = it
            .peek()
            .is_some_and(|p| matches!(p.as_rule(), Rule::int | Rule::board_hex));
        let kind = match rule {
            Rule::import => ItemKind::Import(string_value(it.next().unwrap())),
            Rule::game => {
                let mut g = GameDecl::default();
                for prop in it {
                    let ps = self.span(&prop);
                    match prop.as_rule() {
                        Rule::players => {
                            let nums: Vec<u32> = prop
                                .into_inner()
                                .filter(not_kw)
                                .map(|n| int_value(&n).min(u32::MAX as i64) as u32)
                                .collect();
                            g.players = Some((nums[0], *nums.get(1).unwrap_or(&nums[0]), ps));
                        }
                        Rule::max_turns => {
                            let n = prop.into_inner().find(not_kw).unwrap();
                            g.max_turns = Some((int_value(&n).min(u32::MAX as i64) as u32, ps));
                        }
                        Rule::first_phase => {
                            g.first_phase =
                                Some(self.ident(prop.into_inner().find(not_kw).unwrap()));
                        }
                        Rule::string => g.title = string_value(prop),
                        _ => unreachable!(),
                    }
                }
                ItemKind::Game(g)
            }
            Rule::seat => {
                let name = self.ident(it.next().unwrap());
                let fields = it.next().map(|f| self.fields(f)).unwrap_or_default();
                ItemKind::Seat { name, fields }
            }
            Rule::enum_decl => {
                let name = self.ident(it.next().unwrap());
                let values = it
                    .map(|v| {
                        let mut vi = v.into_inner().filter(not_kw);
                        let n = self.ident(vi.next().unwrap());
                        (n, vi.next().map(string_value))
                    })
                    .collect();
                ItemKind::Enum { name, values }
            }
            Rule::kind => {
                let name = self.ident(it.next().unwrap());
                let mut k = KindDecl {
                    name,
                    attrs: vec![],
                    label: None,
                };
                for part in it {
                    match part.as_rule() {
                        Rule::attr => {
                            let mut ai = part.into_inner().filter(not_kw);
                            let name = self.ident(ai.next().unwrap());
                            let ty_pair = ai.next().unwrap().into_inner().find(not_kw).unwrap();
                            let ty = match ty_pair.as_rule() {
                                Rule::int_range => {
                                    let sp = self.span(&ty_pair);
                                    let mut r = ty_pair.into_inner().filter(not_kw);
                                    let lo = int_value(&r.next().unwrap());
                                    let hi = int_value(&r.next().unwrap());
                                    AttrType::Range(lo, hi, sp)
                                }
                                _ => AttrType::Named(self.ident(ty_pair)),
                            };
                            let names = ai
                                .next()
                                .map(|n| n.into_inner().filter(not_kw).map(string_value).collect())
                                .unwrap_or_default();
                            k.attrs.push(AttrDecl { name, ty, names });
                        }
                        Rule::kind_label => {
                            let text = part.into_inner().find(not_kw).unwrap();
                            let sp = self.span(&text);
                            k.label = Some((string_value(text), sp))
                        }
                        _ => unreachable!(),
                    }
                }
                ItemKind::Kind(k)
            }
            Rule::label_decl => {
                let kind = self.ident(it.next().unwrap());
                ItemKind::Label {
                    kind,
                    template: string_value(it.next().unwrap()),
                }
            }
            Rule::notation_decl => {
                let kind = self.ident(it.next().unwrap());
                ItemKind::Notation {
                    kind,
                    template: string_value(it.next().unwrap()),
                }
            }
            Rule::deck => {
                let name = self.ident(it.next().unwrap());
                let kind = self.ident(it.next().unwrap());
                ItemKind::Deck {
                    name,
                    kind,
                    body: self.deck_body(it.next().unwrap()),
                }
            }
            Rule::board if !grid_board => {
                let mut areas = Vec::new();
                let mut links = Vec::new();
                for part in it {
                    let sp = self.span(&part);
                    match part.as_rule() {
                        Rule::area => {
                            let mut ai = part.into_inner().filter(not_kw);
                            let name = self.ident(ai.next().unwrap());
                            let mut per_seat = false;
                            let mut shaped = Vec::new();
                            for x in ai {
                                match x.as_rule() {
                                    Rule::per_seat => per_seat = true,
                                    _ => shaped = x.into_inner().map(|n| self.ident(n)).collect(),
                                }
                            }
                            areas.push(AreaDecl {
                                name,
                                per_seat,
                                shaped,
                                span: sp,
                            });
                        }
                        _ => {
                            let mut li = part.into_inner().filter(not_kw);
                            let a = self.ident(li.next().unwrap());
                            let b = self.ident(li.next().unwrap());
                            links.push(LinkRuleDecl {
                                a,
                                b,
                                when: self.expr(li.next().unwrap()),
                                span: sp,
                            });
                        }
                    }
                }
                ItemKind::Board(BoardDecl {
                    grid: false,
                    hex: false,
                    width: 0,
                    height: 0,
                    size_span: span,
                    regions: Vec::new(),
                    areas,
                    links,
                })
            }
            Rule::shapes_decl => {
                let name = self.ident(it.next().unwrap());
                let mut rules = Vec::new();
                let mut shapes = Vec::new();
                for part in it {
                    let sp = self.span(&part);
                    if part.as_rule() == Rule::shape_rule {
                        let r = part.into_inner().next().unwrap();
                        let n = r
                            .clone()
                            .into_inner()
                            .find(|x| x.as_rule() == Rule::int)
                            .map(|x| int_value(&x).clamp(0, u32::MAX as i64) as u32)
                            .unwrap_or(0);
                        let rule = match r.as_rule() {
                            Rule::rule_rows => ShapeRule::RowsAtMost(n),
                            Rule::rule_row_cells => ShapeRule::CellsPerRowAtMost(n),
                            Rule::rule_connected => ShapeRule::Connected,
                            Rule::rule_row_links => ShapeRule::RowsLinked,
                            _ => ShapeRule::DiagonalsInTriangles,
                        };
                        rules.push((rule, sp));
                        continue;
                    }
                    let mut si = part.into_inner().filter(not_kw).peekable();
                    let name = self.ident(si.next().unwrap());
                    let index = si
                        .next_if(|x| x.as_rule() == Rule::string)
                        .map(|x| (string_value(x.clone()), self.span(&x)));
                    let marks = si
                        .map(|m| {
                            // From the pairs' line index: a search, not a count from the start.
                            let (line, col) = m.line_col();
                            ArtMark {
                                ch: m.as_str().chars().next().unwrap_or('o'),
                                line: line as u32,
                                col: col.saturating_sub(1) as u32,
                                span: self.span(&m),
                            }
                        })
                        .collect();
                    shapes.push(ShapeDecl {
                        name,
                        index,
                        marks,
                        span: sp,
                    });
                }
                ItemKind::Shapes(ShapesDecl {
                    name,
                    rules,
                    shapes,
                })
            }
            Rule::board => {
                let hex = it.next_if(|p| p.as_rule() == Rule::board_hex).is_some();
                let w = it.next().unwrap();
                let h = it.next().unwrap();
                let size_span = self.span(&w).to(self.span(&h));
                let regions = it
                    .map(|r| {
                        let path = r.as_rule() == Rule::path;
                        let mut ri = r.into_inner().filter(not_kw);
                        let name = self.ident(ri.next().unwrap());
                        let mut next = ri.next().unwrap();
                        let seat = if next.as_rule() == Rule::name {
                            let s = self.ident(next);
                            next = ri.next().unwrap();
                            Some(s)
                        } else {
                            None
                        };
                        let loops = ri.next().is_some_and(|p| p.as_rule() == Rule::path_loop);
                        RegionDecl {
                            name,
                            seat,
                            cells: self.expr(next),
                            path,
                            loops,
                        }
                    })
                    .collect();
                ItemKind::Board(BoardDecl {
                    grid: true,
                    hex,
                    areas: Vec::new(),
                    links: Vec::new(),
                    width: int_value(&w).min(u32::MAX as i64) as u32,
                    height: int_value(&h).min(u32::MAX as i64) as u32,
                    size_span,
                    regions,
                })
            }
            Rule::zone => {
                let name = self.ident(it.next().unwrap());
                let per_seat = it.next().unwrap().as_str().starts_with("per");
                let mut z = ZoneDecl {
                    name,
                    per_seat,
                    visibility: Visibility::Public,
                    holds: vec![],
                    slots: 1,
                };
                for part in it {
                    match part.as_rule() {
                        Rule::zone_slots => {
                            let n = part.into_inner().find(not_kw).unwrap();
                            z.slots = int_value(&n).clamp(0, u32::MAX as i64) as u32;
                        }
                        Rule::visibility => {
                            z.visibility = match part.as_str() {
                                "public" => Visibility::Public,
                                "owner" => Visibility::Owner,
                                "hidden" => Visibility::Hidden,
                                _ => Visibility::Top,
                            }
                        }
                        Rule::holds => {
                            let mut hi = part.into_inner().filter(not_kw).peekable();
                            let copies = if hi.peek().map(|p| p.as_rule()) == Some(Rule::int) {
                                int_value(&hi.next().unwrap()).clamp(0, u32::MAX as i64) as u32
                            } else {
                                1
                            };
                            z.holds.push((copies, self.ident(hi.next().unwrap())));
                        }
                        _ => unreachable!(),
                    }
                }
                ItemKind::Zone(z)
            }
            Rule::var_decl => {
                let name = self.ident(it.next().unwrap());
                let mut next = it.next().unwrap();
                let per_seat = next.as_rule() == Rule::per_seat;
                let per_piece = next.as_rule() == Rule::per_piece;
                if per_seat || per_piece {
                    next = it.next().unwrap();
                }
                let mut visibility = Visibility::Public;
                if next.as_rule() == Rule::var_visibility {
                    visibility = match next.as_str() {
                        "owner" => Visibility::Owner,
                        "hidden" => Visibility::Hidden,
                        _ => Visibility::Public,
                    };
                    next = it.next().unwrap();
                }
                let clock = next.as_rule() == Rule::var_clock;
                if clock {
                    next = it.next().unwrap();
                }
                let mut ty = None;
                if next.as_rule() == Rule::var_type {
                    ty = Some(self.ident(next.into_inner().next().unwrap()));
                    next = it.next().unwrap();
                }
                ItemKind::Var {
                    name,
                    per_seat,
                    per_piece,
                    visibility,
                    clock,
                    ty,
                    init: self.expr(next),
                }
            }
            Rule::def => {
                let mut parts: Vec<Pair<Rule>> = it.collect();
                let body = self.expr(parts.pop().unwrap());
                let mut names = parts.into_iter().map(|p| self.ident(p));
                let name = names.next().unwrap();
                ItemKind::Def {
                    name,
                    params: names.collect(),
                    body,
                }
            }
            Rule::setup => ItemKind::Setup(self.block(it.next().unwrap())),
            Rule::phase => ItemKind::Phase(Box::new(self.phase(it))),
            Rule::action => {
                let name = self.ident(it.next().unwrap());
                ItemKind::Action(ActionDecl {
                    name,
                    clauses: it.map(|c| self.clause(c)).collect(),
                })
            }
            Rule::end_block => ItemKind::End(
                it.map(|r| {
                    let sp = self.span(&r);
                    match r.as_rule() {
                        Rule::win_when => {
                            let mut ri = r.into_inner().filter(not_kw);
                            EndRule::Win {
                                who: self.expr(ri.next().unwrap()),
                                when: self.expr(ri.next().unwrap()),
                            }
                        }
                        Rule::draw_when => EndRule::Draw {
                            when: self.expr(r.into_inner().find(not_kw).unwrap()),
                        },
                        Rule::score_rule => {
                            let mut ri = r.into_inner().filter(not_kw);
                            let seat = self.ident(ri.next().unwrap());
                            EndRule::Score {
                                seat,
                                value: self.expr(ri.next().unwrap()),
                            }
                        }
                        _ => EndRule::Stuck(
                            self.stuck_choice(r.into_inner().find(not_kw).unwrap()),
                            sp,
                        ),
                    }
                })
                .collect(),
            ),
            Rule::trigger => {
                let var = self.ident(it.next().unwrap());
                let enters = it.next().unwrap().as_str() == "enters";
                let zone = self.ident(it.next().unwrap());
                ItemKind::Trigger {
                    var,
                    enters,
                    zone,
                    body: self.block(it.next().unwrap()),
                }
            }
            Rule::display => {
                let mut shown = Vec::new();
                for entry in it {
                    let mut parts = entry.into_inner();
                    let name = self.ident(parts.next().unwrap());
                    let label = parts.next().map(string_value);
                    shown.push((name, label));
                }
                ItemKind::Display(shown)
            }
            Rule::reaction => {
                let name = self.ident(it.next().unwrap());
                let by = self.expr(it.next().unwrap().into_inner().find(not_kw).unwrap());
                let mut next = it.next().unwrap();
                let mut offer = None;
                if next.as_rule() == Rule::offer {
                    offer = Some(self.expr(next.into_inner().find(not_kw).unwrap()));
                    next = it.next().unwrap();
                }
                let mode_span = self.span(&next);
                let mode = match next.as_str() {
                    "one" => StepMode::One,
                    "optional" => StepMode::Optional,
                    "loop" => StepMode::Loop,
                    "all" => StepMode::All,
                    _ => StepMode::Repeat,
                };
                let mut actions = Vec::new();
                let mut after = Vec::new();
                for p in it {
                    match p.as_rule() {
                        Rule::word => actions.push(self.ident(p)),
                        Rule::block => after = self.block(p),
                        _ => {}
                    }
                }
                ItemKind::Reaction(ReactionDecl {
                    name,
                    by,
                    offer,
                    mode,
                    mode_span,
                    actions,
                    after,
                })
            }
            Rule::effect_decl => {
                let mut parts: Vec<Pair<Rule>> = it.collect();
                let body = self.block(parts.pop().unwrap());
                let mut names = parts.into_iter().map(|p| self.ident(p));
                let name = names.next().unwrap();
                ItemKind::Effect {
                    name,
                    params: names.collect(),
                    body,
                }
            }
            Rule::pattern_decl => {
                let name = self.ident(it.next().unwrap());
                ItemKind::Pattern {
                    name,
                    pat: self.pat(it.next().unwrap()),
                }
            }
            Rule::variant => {
                let name = self.ident(it.next().unwrap());
                ItemKind::Variant {
                    name,
                    items: it.map(|i| self.item(i)).collect(),
                }
            }
            r => unreachable!("item rule {r:?}"),
        };
        Item { kind, span }
    }

    fn fields(&self, p: Pair<Rule>) -> Vec<Field> {
        p.into_inner()
            .filter(not_kw)
            .map(|f| {
                let mut fi = f.into_inner().filter(not_kw);
                Field {
                    name: self.ident(fi.next().unwrap()),
                    value: self.expr(fi.next().unwrap()),
                }
            })
            .collect()
    }

    fn deck_body(&self, p: Pair<Rule>) -> Vec<DeckEntry> {
        p.into_inner()
            .filter(not_kw)
            .map(|e| match e.as_rule() {
                Rule::deck_for => {
                    let mut ei = e.into_inner().filter(not_kw);
                    DeckEntry::For {
                        var: self.ident(ei.next().unwrap()),
                        domain: self.expr(ei.next().unwrap()),
                        body: self.deck_body(ei.next().unwrap()),
                    }
                }
                _ => {
                    let span = self.span(&e);
                    let mut ei = e.into_inner().filter(not_kw).peekable();
                    let copies = if ei.peek().map(|p| p.as_rule()) == Some(Rule::int) {
                        int_value(&ei.next().unwrap()).clamp(0, u32::MAX as i64) as u32
                    } else {
                        1
                    };
                    DeckEntry::Card {
                        copies,
                        fields: self.fields(ei.next().unwrap()),
                        span,
                    }
                }
            })
            .collect()
    }

    fn phase<'i>(&self, mut it: impl Iterator<Item = Pair<'i, Rule>>) -> PhaseDecl {
        let name = self.ident(it.next().unwrap());
        let mut ph = PhaseDecl {
            name,
            skip: None,
            start: None,
            steps: vec![],
            before_turn: None,
            after_turn: None,
            until: None,
            next: None,
            reversed: false,
            enter: None,
        };
        for part in it {
            match part.as_rule() {
                Rule::order => {
                    ph.reversed = part.as_str().contains("reversed");
                    let mut oi = part
                        .into_inner()
                        .filter(not_kw)
                        .filter(|p| p.as_rule() != Rule::reversed);
                    if let Some(v) = oi.next() {
                        ph.skip = Some((self.ident(v), self.expr(oi.next().unwrap())));
                    }
                }
                Rule::enter => ph.enter = Some(self.block(part.into_inner().find(not_kw).unwrap())),
                Rule::start => ph.start = Some(self.expr(part.into_inner().find(not_kw).unwrap())),
                Rule::turn => {
                    ph.steps = part
                        .into_inner()
                        .filter(not_kw)
                        .map(|s| self.step(s))
                        .collect()
                }
                Rule::before_turn => {
                    ph.before_turn = Some(self.block(part.into_inner().find(not_kw).unwrap()))
                }
                Rule::after_turn => {
                    ph.after_turn = Some(self.block(part.into_inner().find(not_kw).unwrap()))
                }
                Rule::until => ph.until = Some(self.expr(part.into_inner().find(not_kw).unwrap())),
                Rule::next => {
                    ph.next = Some(self.next_phase(part.into_inner().find(not_kw).unwrap()))
                }
                r => unreachable!("phase item {r:?}"),
            }
        }
        ph
    }

    /// `RESULT`, or `if COND then RESULT else CHOICE`.
    fn stuck_choice(&self, p: Pair<Rule>) -> StuckChoice {
        let result = |p: Pair<Rule>| match p.as_str() {
            "draw" => StuckRule::Draw,
            "pass" => StuckRule::Pass,
            _ => StuckRule::Lose,
        };
        if p.as_rule() != Rule::stuck_if {
            return StuckChoice::Result(result(p));
        }
        let mut it = p.into_inner().filter(not_kw);
        let cond = self.expr(it.next().unwrap());
        let then = result(it.next().unwrap());
        let otherwise = Box::new(self.stuck_choice(it.next().unwrap()));
        StuckChoice::If(cond, then, otherwise)
    }

    /// `PHASE`, or `if COND then NEXT else NEXT`.
    fn next_phase(&self, p: Pair<Rule>) -> NextPhase {
        if p.as_rule() != Rule::next_if {
            return NextPhase::Phase(self.ident(p));
        }
        let mut it = p.into_inner().filter(not_kw);
        let cond = self.expr(it.next().unwrap());
        let then = Box::new(self.next_phase(it.next().unwrap()));
        let otherwise = Box::new(self.next_phase(it.next().unwrap()));
        NextPhase::If(cond, then, otherwise)
    }

    fn step(&self, p: Pair<Rule>) -> StepDecl {
        let span = self.span(&p);
        let mut st = StepDecl {
            by: None,
            mode: StepMode::One,
            mode_span: span,
            actions: vec![],
            condition: None,
            span,
        };
        for part in p.into_inner().filter(not_kw) {
            match part.as_rule() {
                Rule::by => st.by = Some(self.expr(part.into_inner().find(not_kw).unwrap())),
                Rule::step_mode => {
                    st.mode_span = self.span(&part);
                    st.mode = match part.as_str() {
                        "one" => StepMode::One,
                        "optional" => StepMode::Optional,
                        "loop" => StepMode::Loop,
                        "all" => StepMode::All,
                        _ => StepMode::Repeat,
                    }
                }
                Rule::word => st.actions.push(self.ident(part)),
                Rule::step_if => {
                    st.condition = Some(self.expr(part.into_inner().find(not_kw).unwrap()))
                }
                r => unreachable!("step part {r:?}"),
            }
        }
        st
    }

    fn clause(&self, p: Pair<Rule>) -> Clause {
        let rule = p.as_rule();
        let mut it = p.into_inner().filter(not_kw);
        match rule {
            Rule::choose => Clause::Choose {
                var: self.ident(it.next().unwrap()),
                domain: self.expr(it.next().unwrap()),
                reason: it.find(|p| p.as_rule() == Rule::string).map(string_value),
            },
            Rule::let_clause => Clause::Let {
                var: self.ident(it.next().unwrap()),
                value: self.expr(it.next().unwrap()),
            },
            Rule::require => {
                let mut first = it.next().unwrap();
                let afterwards = first.as_rule() == Rule::afterwards;
                if afterwards {
                    first = it.next().unwrap();
                }
                let cond = self.expr(first);
                let reason = it.find(|p| p.as_rule() == Rule::string).map(string_value);
                Clause::Require {
                    cond,
                    reason,
                    afterwards,
                }
            }
            Rule::do_clause => Clause::Do(self.block(it.next().unwrap())),
            r => unreachable!("clause {r:?}"),
        }
    }

    fn pat(&self, p: Pair<Rule>) -> Pat {
        match p.as_rule() {
            Rule::pat => {
                let mut alts: Vec<Pat> = p.into_inner().map(|q| self.pat(q)).collect();
                if alts.len() == 1 {
                    alts.pop().unwrap()
                } else {
                    Pat::Alt(alts)
                }
            }
            Rule::pat_seq => {
                let mut it = p.into_inner();
                let mut acc = self.pat(it.next().unwrap());
                while let Some(join) = it.next() {
                    let optional = join.as_str().contains('?');
                    let same = join.as_str().contains("same");
                    let then = self.pat(it.next().unwrap());
                    acc = Pat::Seq {
                        first: Box::new(acc),
                        optional,
                        same,
                        then: Box::new(then),
                    };
                }
                acc
            }
            _ => {
                // An atom.
                let span = self.span(&p);
                let (mut mods, mut letters, mut vector, mut range) =
                    (String::new(), String::new(), None, None);
                for part in p.into_inner() {
                    match part.as_rule() {
                        Rule::dir_mods => mods = part.as_str().to_string(),
                        Rule::atom_letter => letters = part.as_str().to_string(),
                        Rule::atom_vector => {
                            let mut n = part.into_inner();
                            let x = int_value(&n.next().unwrap());
                            let y = int_value(&n.next().unwrap());
                            vector = Some((x, y));
                        }
                        Rule::atom_range => range = Some(part.as_str().parse().unwrap_or(u32::MAX)),
                        _ => {}
                    }
                }
                Pat::Atom {
                    mods,
                    letters,
                    vector,
                    range,
                    span,
                }
            }
        }
    }

    fn block(&self, p: Pair<Rule>) -> Block {
        p.into_inner()
            .filter(not_kw)
            .map(|s| self.stmt(s))
            .collect()
    }

    fn stmt(&self, p: Pair<Rule>) -> Stmt {
        let span = self.span(&p);
        let rule = p.as_rule();
        let mut it = p.into_inner().filter(not_kw);
        if rule == Rule::call_stmt {
            let f = self.ident(it.next().unwrap());
            return Stmt {
                kind: StmtKind::Call(f, it.map(|a| self.expr(a)).collect()),
                span,
            };
        }
        if rule == Rule::transfer_stmt {
            let amount = self.expr(it.next().unwrap());
            let counter = self.ident(it.next().unwrap());
            let from = self.expr(it.next().unwrap());
            let to = self.expr(it.next().unwrap());
            return Stmt {
                kind: StmtKind::Transfer {
                    amount,
                    counter,
                    from,
                    to,
                },
                span,
            };
        }
        let mut e = || self.expr(it.next().unwrap());
        let kind = match rule {
            Rule::if_stmt => return self.if_stmt(span, it),
            Rule::for_stmt => {
                let var = self.ident(it.next().unwrap());
                StmtKind::For {
                    var,
                    domain: self.expr(it.next().unwrap()),
                    body: self.block(it.next().unwrap()),
                }
            }
            Rule::let_clause => StmtKind::Let {
                var: self.ident(it.next().unwrap()),
                value: self.expr(it.next().unwrap()),
            },
            Rule::move_stmt => {
                let (what, to) = (e(), e());
                let face = it.next().map(|f| f.as_str().ends_with("up"));
                StmtKind::Move { what, to, face }
            }
            Rule::end_turn_stmt => StmtKind::EndTurn,
            Rule::tuck_stmt => StmtKind::Tuck {
                what: e(),
                under: e(),
            },
            Rule::react_stmt => StmtKind::React(self.ident(it.next().unwrap())),
            Rule::form_stmt => StmtKind::Form {
                area: self.expr(it.next().unwrap()),
                shape: self.expr(it.next().unwrap()),
            },
            Rule::reveal_stmt => StmtKind::Face {
                what: e(),
                up: true,
            },
            Rule::conceal_stmt => StmtKind::Face {
                what: e(),
                up: false,
            },
            Rule::swap_stmt => StmtKind::Swap(e(), e()),
            Rule::shift_stmt => StmtKind::Shift {
                what: e(),
                dir: e(),
                steps: e(),
            },
            Rule::shuffle_stmt => StmtKind::Shuffle(e()),
            Rule::deal_stmt => StmtKind::Deal {
                count: e(),
                from: e(),
                to: e(),
            },
            Rule::place_stmt => StmtKind::Place {
                what: e(),
                onto: e(),
            },
            Rule::win_stmt => StmtKind::Win(e()),
            Rule::lose_stmt => StmtKind::Lose(e()),
            Rule::draw_stmt => StmtKind::Draw,
            Rule::assign => {
                let target = it
                    .next()
                    .unwrap()
                    .into_inner()
                    .filter(not_kw)
                    .map(|n| self.ident(n))
                    .collect();
                let op = match it.next().unwrap().as_str() {
                    "+=" => AssignOp::Add,
                    "-=" => AssignOp::Sub,
                    _ => AssignOp::Set,
                };
                StmtKind::Assign {
                    target,
                    op,
                    value: self.expr(it.next().unwrap()),
                }
            }
            r => unreachable!("statement {r:?}"),
        };
        Stmt { kind, span }
    }

    fn if_stmt<'i>(&self, span: Span, mut it: impl Iterator<Item = Pair<'i, Rule>>) -> Stmt {
        let cond = self.expr(it.next().unwrap());
        let then = self.block(it.next().unwrap());
        let otherwise = match it.next() {
            None => vec![],
            Some(p) if p.as_rule() == Rule::if_stmt => {
                let sp = self.span(&p);
                vec![self.if_stmt(sp, p.into_inner().filter(not_kw))]
            }
            Some(p) => self.block(p),
        };
        Stmt {
            kind: StmtKind::If {
                cond,
                then,
                otherwise,
            },
            span,
        }
    }

    fn expr(&self, p: Pair<Rule>) -> Expr {
        let file = &self.file;
        self.pratt
            .map_primary(|p| self.primary(p))
            .map_prefix(|op, rhs| {
                let s = op.as_span();
                let span = Span::new(*file, s.start(), s.end()).to(rhs.span);
                let u = if op.as_rule() == Rule::not {
                    UnOp::Not
                } else {
                    UnOp::Neg
                };
                Expr {
                    kind: ExprKind::Unary(u, Box::new(rhs)),
                    span,
                }
            })
            .map_postfix(|lhs, op| {
                let s = op.as_span();
                let span = lhs.span.to(Span::new(*file, s.start(), s.end()));
                let kind = if op.as_rule() == Rule::index_access {
                    let at = self.expr(op.into_inner().next().unwrap());
                    ExprKind::Index(Box::new(lhs), Box::new(at))
                } else {
                    ExprKind::Field(
                        Box::new(lhs),
                        self.ident(op.into_inner().find(not_kw).unwrap()),
                    )
                };
                Expr { kind, span }
            })
            .map_infix(|lhs, op, rhs| {
                let b = match op.as_rule() {
                    Rule::or => BinOp::Or,
                    Rule::and => BinOp::And,
                    Rule::eq => BinOp::Eq,
                    Rule::ne => BinOp::Ne,
                    Rule::lt => BinOp::Lt,
                    Rule::le => BinOp::Le,
                    Rule::gt => BinOp::Gt,
                    Rule::ge => BinOp::Ge,
                    Rule::in_op => BinOp::In,
                    Rule::not_in => BinOp::NotIn,
                    Rule::range => BinOp::Range,
                    Rule::add => BinOp::Add,
                    Rule::sub => BinOp::Sub,
                    Rule::mul => BinOp::Mul,
                    Rule::div => BinOp::Div,
                    _ => BinOp::Rem,
                };
                let span = lhs.span.to(rhs.span);
                Expr {
                    kind: ExprKind::Binary(b, Box::new(lhs), Box::new(rhs)),
                    span,
                }
            })
            .parse(p.into_inner().filter(not_kw))
    }

    fn primary(&self, p: Pair<Rule>) -> Expr {
        let span = self.span(&p);
        let rule = p.as_rule();
        let kind = match rule {
            Rule::expr => return self.expr(p),
            Rule::int => ExprKind::Int(int_value(&p)),
            Rule::string => ExprKind::Str(string_value(p)),
            Rule::boolean => ExprKind::Bool(p.as_str() == "true"),
            Rule::none_lit => ExprKind::None,
            Rule::name => ExprKind::Name(self.ident(p)),
            Rule::call => {
                let mut it = p.into_inner().filter(not_kw);
                let f = self.ident(it.next().unwrap());
                ExprKind::Call(f, it.map(|a| self.expr(a)).collect())
            }
            Rule::list => ExprKind::List(
                p.into_inner()
                    .filter(not_kw)
                    .map(|a| self.expr(a))
                    .collect(),
            ),
            Rule::if_expr => {
                let mut it = p.into_inner().filter(not_kw);
                let mut e = || Box::new(self.expr(it.next().unwrap()));
                ExprKind::If(e(), e(), e())
            }
            Rule::quantifier | Rule::aggregate => {
                let mut it = p.into_inner().filter(not_kw);
                let k = it.next().unwrap().as_str().to_string();
                let var = self.ident(it.next().unwrap());
                let coll = Box::new(self.expr(it.next().unwrap()));
                let body = Box::new(self.expr(it.next().unwrap()));
                match k.as_str() {
                    "any" => ExprKind::Quant(Quant::Any, var, coll, body),
                    "all" => ExprKind::Quant(Quant::All, var, coll, body),
                    "none" => ExprKind::Quant(Quant::None, var, coll, body),
                    "sum" => ExprKind::Agg(Agg::Sum, var, coll, body),
                    "max" => ExprKind::Agg(Agg::Max, var, coll, body),
                    "min" => ExprKind::Agg(Agg::Min, var, coll, body),
                    _ => ExprKind::Agg(Agg::Count, var, coll, body),
                }
            }
            Rule::comprehension => {
                let mut it = p.into_inner().filter(not_kw);
                let var = self.ident(it.next().unwrap());
                let coll = Box::new(self.expr(it.next().unwrap()));
                ExprKind::Comprehension(var, coll, it.next().map(|w| Box::new(self.expr(w))))
            }
            r => unreachable!("primary {r:?}"),
        };
        Expr { kind, span }
    }
}
