//! The navigation index: every declared name and every use of a name, with its span,
//! built from the AST in one general pass. Go to definition, find references, hover,
//! completion and the outline all read it; the checker is not consulted.

use crate::syntax::ast::{
    AttrType, Block, Clause, DeckEntry, EndRule, Expr, ExprKind, Ident, Item, ItemKind, NextPhase,
    Span, StmtKind, StuckChoice, Visibility,
};

/// What a declared name is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclKind {
    Seat,
    SeatAttr,
    Enum,
    EnumValue,
    Kind,
    Attr,
    Deck,
    Region,
    Area,
    Zone,
    Var,
    Def,
    Effect,
    Pattern,
    Shapes,
    Shape,
    Phase,
    Action,
    Reaction,
    Variant,
    /// A local name: `let`, `choose`, `for`, a quantifier's or a comprehension's variable.
    Local,
    /// A parameter of a `def` or an `effect`.
    Param,
}

impl DeclKind {
    /// The word a designer uses for it.
    pub fn word(self) -> &'static str {
        match self {
            DeclKind::Seat => "seat",
            DeclKind::SeatAttr => "seat attribute",
            DeclKind::Enum => "enum",
            DeclKind::EnumValue => "enum value",
            DeclKind::Kind => "kind",
            DeclKind::Attr => "attribute",
            DeclKind::Deck => "deck",
            DeclKind::Region => "region",
            DeclKind::Area => "area",
            DeclKind::Zone => "zone",
            DeclKind::Var => "variable",
            DeclKind::Def => "definition",
            DeclKind::Effect => "effect",
            DeclKind::Pattern => "pattern",
            DeclKind::Shapes => "shape catalogue",
            DeclKind::Shape => "shape",
            DeclKind::Phase => "phase",
            DeclKind::Action => "action",
            DeclKind::Reaction => "reaction",
            DeclKind::Variant => "variant",
            DeclKind::Local => "local name",
            DeclKind::Param => "parameter",
        }
    }
    pub fn is_local(self) -> bool {
        matches!(self, DeclKind::Local | DeclKind::Param)
    }
}

/// One declaration of a name.
#[derive(Clone, Debug)]
pub struct Decl {
    pub name: String,
    pub kind: DeclKind,
    /// Where the name itself is written.
    pub span: Span,
    /// The whole declaration (the item, or for a local the construct that binds it).
    pub item: Span,
    /// Where a local name can be used (for completion); the item for a global name.
    pub scope: Span,
    /// A one-line summary for hovers: `zone hand per seat owner`, `action play(c, to)`.
    pub detail: String,
    /// The variant that declares it, if any.
    pub variant: Option<String>,
    /// For a local name, the word that binds it (`let`, `choose`, `for`), when its
    /// declaration's span does not include it.
    pub binder: String,
}

/// What a use of a name refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A top-level name, looked up by name among the declarations.
    Global(String),
    /// A local name: the index of its declaration.
    Local(usize),
}

/// One use of a name.
#[derive(Clone, Debug)]
pub struct Use {
    pub span: Span,
    pub target: Target,
}

/// An `import "path"` line.
#[derive(Clone, Debug)]
pub struct Import {
    pub span: Span,
    pub path: String,
}

#[derive(Clone, Debug, Default)]
pub struct Index {
    pub decls: Vec<Decl>,
    pub uses: Vec<Use>,
    pub imports: Vec<Import>,
}

impl Index {
    /// Indexes the items of a game (from every file) and its imports.
    pub fn build(items: &[Item], imports: Vec<Import>) -> Index {
        let mut b = Builder {
            index: Index {
                imports,
                ..Index::default()
            },
            scope: Vec::new(),
            variant: None,
        };
        for item in items {
            b.item(item);
        }
        b.index
    }

    /// The declarations of a top-level name.
    pub fn globals<'a>(&'a self, name: &'a str) -> impl Iterator<Item = (usize, &'a Decl)> + 'a {
        self.decls
            .iter()
            .enumerate()
            .filter(move |(_, d)| !d.kind.is_local() && d.name == name)
    }

    /// The name at a byte offset of a file: its target and the span of the name there.
    pub fn at(&self, file: u16, offset: u32) -> Option<(Target, Span)> {
        let inside = |s: &Span| s.file == file && s.start <= offset && offset <= s.end;
        if let Some(u) = self.uses.iter().find(|u| inside(&u.span)) {
            return Some((u.target.clone(), u.span));
        }
        self.decls
            .iter()
            .enumerate()
            .find(|(_, d)| inside(&d.span))
            .map(|(i, d)| {
                let t = if d.kind.is_local() {
                    Target::Local(i)
                } else {
                    Target::Global(d.name.clone())
                };
                (t, d.span)
            })
    }

    /// The declarations a target refers to.
    pub fn resolve<'a>(&'a self, target: &'a Target) -> Vec<&'a Decl> {
        match target {
            Target::Local(i) => self.decls.get(*i).into_iter().collect(),
            Target::Global(name) => self.globals(name).map(|(_, d)| d).collect(),
        }
    }

    /// Every place a target is written: its declarations, then its uses.
    pub fn references(&self, target: &Target, with_decls: bool) -> Vec<Span> {
        let mut out: Vec<Span> = Vec::new();
        if with_decls {
            out.extend(self.resolve(target).iter().map(|d| d.span));
        }
        out.extend(
            self.uses
                .iter()
                .filter(|u| &u.target == target)
                .map(|u| u.span),
        );
        out.sort_by_key(|s| (s.file, s.start));
        out.dedup();
        out
    }

    /// The local names usable at a byte offset of a file.
    pub fn locals_at(&self, file: u16, offset: u32) -> Vec<&Decl> {
        self.decls
            .iter()
            .filter(|d| {
                d.kind.is_local()
                    && d.scope.file == file
                    && d.scope.start <= offset
                    && offset <= d.scope.end
            })
            .collect()
    }
}

struct Builder {
    index: Index,
    /// The local names in scope: name and declaration index.
    scope: Vec<(String, usize)>,
    variant: Option<String>,
}

fn vis(v: Visibility) -> &'static str {
    match v {
        Visibility::Public => "public",
        Visibility::Owner => "owner",
        Visibility::Hidden => "hidden",
        Visibility::Top => "top",
    }
}

impl Builder {
    fn declare(&mut self, name: &Ident, kind: DeclKind, item: Span, detail: String) -> usize {
        self.index.decls.push(Decl {
            name: name.name.clone(),
            kind,
            span: name.span,
            item,
            scope: item,
            detail,
            variant: self.variant.clone(),
            binder: String::new(),
        });
        self.index.decls.len() - 1
    }

    /// Declares a local name, usable until `until` ends, and brings it into scope.
    fn local(&mut self, name: &Ident, kind: DeclKind, item: Span, until: Span, binder: &str) {
        let detail = format!("{} `{}`", kind.word(), name.name);
        let i = self.declare(name, kind, item, detail);
        self.index.decls[i].binder = binder.to_string();
        self.index.decls[i].scope = Span {
            file: name.span.file,
            start: name.span.start,
            end: until.end.max(name.span.end),
        };
        self.scope.push((name.name.clone(), i));
    }

    fn global(&mut self, name: &Ident) {
        self.index.uses.push(Use {
            span: name.span,
            target: Target::Global(name.name.clone()),
        });
    }

    /// A name in an expression: the innermost local of that name, else a global.
    fn name(&mut self, name: &Ident) {
        let target = match self.scope.iter().rev().find(|(n, _)| *n == name.name) {
            Some((_, i)) => Target::Local(*i),
            None => Target::Global(name.name.clone()),
        };
        self.index.uses.push(Use {
            span: name.span,
            target,
        });
    }

    fn item(&mut self, item: &Item) {
        let mark = self.scope.len();
        let sp = item.span;
        match &item.kind {
            ItemKind::Import(_) => {}
            ItemKind::Game(g) => {
                if let Some(p) = &g.first_phase {
                    self.global(p);
                }
            }
            ItemKind::Seat { name, fields } => {
                let names: Vec<&str> = fields.iter().map(|f| f.name.name.as_str()).collect();
                self.declare(
                    name,
                    DeclKind::Seat,
                    sp,
                    format!("seat {} {{ {} }}", name.name, names.join(", ")),
                );
                for f in fields {
                    self.declare(
                        &f.name,
                        DeclKind::SeatAttr,
                        f.name.span.to(f.value.span),
                        format!("seat attribute `{}` (of seat {})", f.name.name, name.name),
                    );
                    self.expr(&f.value);
                }
            }
            ItemKind::Enum { name, values } => {
                let list: Vec<&str> = values.iter().map(|(v, _)| v.name.as_str()).collect();
                self.declare(
                    name,
                    DeclKind::Enum,
                    sp,
                    format!("enum {} {{ {} }}", name.name, list.join(", ")),
                );
                for (v, _) in values {
                    self.declare(
                        v,
                        DeclKind::EnumValue,
                        v.span,
                        format!("`{}`: a value of enum {}", v.name, name.name),
                    );
                }
            }
            ItemKind::Kind(k) => {
                let attrs: Vec<&str> = k.attrs.iter().map(|a| a.name.name.as_str()).collect();
                self.declare(
                    &k.name,
                    DeclKind::Kind,
                    sp,
                    format!("kind {} {{ {} }}", k.name.name, attrs.join(", ")),
                );
                for a in &k.attrs {
                    let ty = match &a.ty {
                        AttrType::Range(lo, hi, _) => format!("{lo}..{hi}"),
                        AttrType::Named(t) => {
                            self.global(t);
                            t.name.clone()
                        }
                    };
                    self.declare(
                        &a.name,
                        DeclKind::Attr,
                        a.name.span,
                        format!("attribute `{}: {ty}` of kind {}", a.name.name, k.name.name),
                    );
                }
            }
            ItemKind::Label { kind, .. } | ItemKind::Notation { kind, .. } => self.global(kind),
            ItemKind::Deck { name, kind, body } => {
                self.declare(
                    name,
                    DeclKind::Deck,
                    sp,
                    format!("deck {} of kind {}", name.name, kind.name),
                );
                self.global(kind);
                self.deck(body, sp);
            }
            ItemKind::Board(b) => {
                for r in &b.regions {
                    let seat = r
                        .seat
                        .as_ref()
                        .map(|s| format!("({})", s.name))
                        .unwrap_or_default();
                    let whole = r.name.span.to(r.cells.span);
                    self.declare(
                        &r.name,
                        DeclKind::Region,
                        whole,
                        format!(
                            "{} {}{seat}{}",
                            if r.path { "path" } else { "region" },
                            r.name.name,
                            if r.loops { " (loop)" } else { "" }
                        ),
                    );
                    if let Some(s) = &r.seat {
                        self.global(s);
                    }
                    self.expr(&r.cells);
                }
                for a in &b.areas {
                    let per = if a.per_seat { " per seat" } else { "" };
                    self.declare(
                        &a.name,
                        DeclKind::Area,
                        a.span,
                        format!("area {}{per}", a.name.name),
                    );
                    for s in &a.shaped {
                        self.global(s);
                    }
                }
                for l in &b.links {
                    let m = self.scope.len();
                    self.local(&l.a, DeclKind::Local, l.span, l.span, "link");
                    self.local(&l.b, DeclKind::Local, l.span, l.span, "link");
                    self.expr(&l.when);
                    self.scope.truncate(m);
                }
            }
            ItemKind::Zone(z) => {
                let mut d = format!("zone {}", z.name.name);
                if z.per_seat {
                    d.push_str(" per seat");
                } else {
                    d.push_str(" shared");
                }
                if z.slots > 1 {
                    d.push_str(&format!(" x {}", z.slots));
                }
                d.push(' ');
                d.push_str(vis(z.visibility));
                if !z.holds.is_empty() {
                    let h: Vec<String> = z
                        .holds
                        .iter()
                        .map(|(n, k)| {
                            if *n > 1 {
                                format!("{n} {}", k.name)
                            } else {
                                k.name.clone()
                            }
                        })
                        .collect();
                    d.push_str(&format!(" {{ holds {} }}", h.join(", ")));
                }
                self.declare(&z.name, DeclKind::Zone, sp, d);
                for (_, k) in &z.holds {
                    self.global(k);
                }
            }
            ItemKind::Var {
                name,
                per_seat,
                per_piece,
                visibility,
                clock,
                ty,
                init,
            } => {
                let mut d = format!("var {}", name.name);
                if *per_seat {
                    d.push_str(" per seat");
                }
                if *per_piece {
                    d.push_str(" per piece");
                }
                if *visibility != Visibility::Public {
                    d.push(' ');
                    d.push_str(vis(*visibility));
                }
                if *clock {
                    d.push_str(" clock");
                }
                if let Some(t) = ty {
                    d.push_str(&format!(": {}", t.name));
                }
                self.declare(name, DeclKind::Var, sp, d);
                if let Some(t) = ty {
                    self.global(t);
                }
                self.expr(init);
            }
            ItemKind::Def { name, params, body } => {
                let ps: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
                let d = if params.is_empty() {
                    format!("def {}", name.name)
                } else {
                    format!("def {}({})", name.name, ps.join(", "))
                };
                self.declare(name, DeclKind::Def, sp, d);
                for p in params {
                    self.local(p, DeclKind::Param, sp, sp, "def");
                }
                self.expr(body);
            }
            ItemKind::Effect { name, params, body } => {
                let ps: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
                self.declare(
                    name,
                    DeclKind::Effect,
                    sp,
                    format!("effect {}({})", name.name, ps.join(", ")),
                );
                for p in params {
                    self.local(p, DeclKind::Param, sp, sp, "effect");
                }
                self.block(body, sp);
            }
            ItemKind::Setup(b) => self.block(b, sp),
            ItemKind::Phase(p) => {
                self.declare(
                    &p.name,
                    DeclKind::Phase,
                    sp,
                    format!("phase {}", p.name.name),
                );
                if let Some(b) = &p.enter {
                    self.block(b, sp);
                }
                if let Some((v, cond)) = &p.skip {
                    let m = self.scope.len();
                    self.local(v, DeclKind::Local, v.span.to(cond.span), cond.span, "skip");
                    self.expr(cond);
                    self.scope.truncate(m);
                }
                if let Some(e) = &p.start {
                    self.expr(e);
                }
                for s in &p.steps {
                    if let Some(by) = &s.by {
                        self.expr(by);
                    }
                    for a in &s.actions {
                        self.global(a);
                    }
                    if let Some(c) = &s.condition {
                        self.expr(c);
                    }
                }
                for b in [&p.before_turn, &p.after_turn].into_iter().flatten() {
                    self.block(b, sp);
                }
                if let Some(e) = &p.until {
                    self.expr(e);
                }
                let mut next: Vec<&NextPhase> = p.next.iter().collect();
                while let Some(n) = next.pop() {
                    match n {
                        NextPhase::Phase(name) => self.global(name),
                        NextPhase::If(cond, then, otherwise) => {
                            self.expr(cond);
                            next.push(otherwise);
                            next.push(then);
                        }
                    }
                }
            }
            ItemKind::Action(a) => {
                let params: Vec<&str> = a
                    .clauses
                    .iter()
                    .filter_map(|c| match c {
                        Clause::Choose { var, .. } => Some(var.name.as_str()),
                        _ => None,
                    })
                    .collect();
                self.declare(
                    &a.name,
                    DeclKind::Action,
                    sp,
                    format!("action {}({})", a.name.name, params.join(", ")),
                );
                for c in &a.clauses {
                    match c {
                        Clause::Choose { var, domain, .. } => {
                            self.expr(domain);
                            self.local(
                                var,
                                DeclKind::Local,
                                var.span.to(domain.span),
                                sp,
                                "choose",
                            );
                        }
                        Clause::Let { var, value } => {
                            self.expr(value);
                            self.local(var, DeclKind::Local, var.span.to(value.span), sp, "let");
                        }
                        Clause::Require { cond, .. } => self.expr(cond),
                        Clause::Do(b) => self.block(b, sp),
                    }
                }
            }
            ItemKind::End(rules) => {
                for r in rules {
                    match r {
                        EndRule::Win { who, when } => {
                            self.expr(who);
                            self.expr(when);
                        }
                        EndRule::Draw { when } => self.expr(when),
                        EndRule::Stuck(choice, _) => {
                            let mut c = choice;
                            while let StuckChoice::If(cond, _, otherwise) = c {
                                self.expr(cond);
                                c = otherwise;
                            }
                        }
                        EndRule::Score { seat, value } => {
                            let m = self.scope.len();
                            self.local(
                                seat,
                                DeclKind::Local,
                                seat.span.to(value.span),
                                value.span,
                                "score",
                            );
                            self.expr(value);
                            self.scope.truncate(m);
                        }
                    }
                }
            }
            ItemKind::Trigger {
                var, zone, body, ..
            } => {
                self.global(zone);
                self.local(var, DeclKind::Local, sp, sp, "when");
                self.block(body, sp);
            }
            ItemKind::Display(shown) => {
                for (name, _) in shown {
                    self.global(name);
                }
            }
            ItemKind::Reaction(r) => {
                self.declare(
                    &r.name,
                    DeclKind::Reaction,
                    sp,
                    format!("reaction {}", r.name.name),
                );
                self.expr(&r.by);
                if let Some(o) = &r.offer {
                    self.expr(o);
                }
                for a in &r.actions {
                    self.global(a);
                }
                self.block(&r.after, sp);
            }
            ItemKind::Pattern { name, .. } => {
                self.declare(
                    name,
                    DeclKind::Pattern,
                    sp,
                    format!("pattern {}", name.name),
                );
            }
            ItemKind::Shapes(s) => {
                self.declare(
                    &s.name,
                    DeclKind::Shapes,
                    sp,
                    format!("shapes {}", s.name.name),
                );
                for shape in &s.shapes {
                    self.declare(
                        &shape.name,
                        DeclKind::Shape,
                        shape.span,
                        format!("shape {} (of shapes {})", shape.name.name, s.name.name),
                    );
                }
            }
            ItemKind::Variant { name, items } => {
                self.declare(
                    name,
                    DeclKind::Variant,
                    sp,
                    format!("variant {}", name.name),
                );
                let outer = self.variant.replace(name.name.clone());
                for i in items {
                    self.item(i);
                }
                self.variant = outer;
            }
        }
        self.scope.truncate(mark);
    }

    fn deck(&mut self, body: &[DeckEntry], until: Span) {
        for e in body {
            match e {
                DeckEntry::For { var, domain, body } => {
                    self.expr(domain);
                    let m = self.scope.len();
                    self.local(var, DeclKind::Local, var.span.to(domain.span), until, "for");
                    self.deck(body, until);
                    self.scope.truncate(m);
                }
                DeckEntry::Card { fields, .. } => {
                    for f in fields {
                        self.global(&f.name);
                        self.expr(&f.value);
                    }
                }
            }
        }
    }

    /// A block of effects; names bound by `let` last until `until` ends.
    fn block(&mut self, block: &Block, until: Span) {
        let m = self.scope.len();
        for s in block {
            match &s.kind {
                StmtKind::If {
                    cond,
                    then,
                    otherwise,
                } => {
                    self.expr(cond);
                    self.block(then, s.span);
                    self.block(otherwise, s.span);
                }
                StmtKind::For { var, domain, body } => {
                    self.expr(domain);
                    let m = self.scope.len();
                    self.local(
                        var,
                        DeclKind::Local,
                        var.span.to(domain.span),
                        s.span,
                        "for",
                    );
                    self.block(body, s.span);
                    self.scope.truncate(m);
                }
                StmtKind::Let { var, value } => {
                    self.expr(value);
                    self.local(var, DeclKind::Local, s.span, until, "let");
                }
                StmtKind::Move { what, to, .. } => {
                    self.expr(what);
                    self.expr(to);
                }
                StmtKind::Face { what, .. } | StmtKind::Shuffle(what) => self.expr(what),
                StmtKind::Swap(a, b)
                | StmtKind::Place { what: a, onto: b }
                | StmtKind::Tuck { what: a, under: b }
                | StmtKind::Form { area: a, shape: b } => {
                    self.expr(a);
                    self.expr(b);
                }
                StmtKind::Shift { what, dir, steps } => {
                    self.expr(what);
                    self.expr(dir);
                    self.expr(steps);
                }
                StmtKind::EndTurn | StmtKind::Draw => {}
                StmtKind::React(n) => self.global(n),
                StmtKind::Call(n, args) => {
                    self.global(n);
                    for a in args {
                        self.expr(a);
                    }
                }
                StmtKind::Transfer {
                    amount,
                    counter,
                    from,
                    to,
                } => {
                    self.expr(amount);
                    self.global(counter);
                    self.expr(from);
                    self.expr(to);
                }
                StmtKind::Deal { count, from, to } => {
                    self.expr(count);
                    self.expr(from);
                    self.expr(to);
                }
                StmtKind::Win(e) | StmtKind::Lose(e) => self.expr(e),
                StmtKind::Assign { target, value, .. } => {
                    self.expr(value);
                    for (i, t) in target.iter().enumerate() {
                        if i == 0 {
                            self.name(t);
                        } else {
                            self.global(t);
                        }
                    }
                }
            }
        }
        self.scope.truncate(m);
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Str(_) | ExprKind::Bool(_) | ExprKind::None => {}
            ExprKind::Name(n) => self.name(n),
            ExprKind::Call(n, args) => {
                self.name(n);
                for a in args {
                    self.expr(a);
                }
            }
            ExprKind::Field(x, f) => {
                self.expr(x);
                self.global(f);
            }
            ExprKind::Unary(_, x) => self.expr(x),
            ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
                self.expr(a);
                self.expr(b);
            }
            ExprKind::If(c, a, b) => {
                self.expr(c);
                self.expr(a);
                self.expr(b);
            }
            ExprKind::Quant(_, v, dom, body) | ExprKind::Agg(_, v, dom, body) => {
                self.expr(dom);
                let m = self.scope.len();
                self.local(v, DeclKind::Local, v.span.to(dom.span), e.span, "");
                self.expr(body);
                self.scope.truncate(m);
            }
            ExprKind::Comprehension(v, dom, filter) => {
                self.expr(dom);
                let m = self.scope.len();
                self.local(v, DeclKind::Local, v.span.to(dom.span), e.span, "");
                if let Some(f) = filter {
                    self.expr(f);
                }
                self.scope.truncate(m);
            }
            ExprKind::List(xs) => {
                for x in xs {
                    self.expr(x);
                }
            }
        }
    }
}
