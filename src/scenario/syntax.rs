//! Scenario files parsed into spanned statements (grammar/scenario.pest).

use crate::diagnostic::Diagnostic;
use crate::syntax::ast::Span;
use pest::iterators::Pair;
use pest::Parser;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/scenario.pest"]
struct ScenarioParser;

/// A text with where it is in the scenario file.
#[derive(Clone, Debug, PartialEq)]
pub struct Spanned {
    pub text: String,
    pub span: Span,
}

/// A scenario file: the game its scenarios play, and the scenarios.
#[derive(Clone, Debug)]
pub struct ScenarioFile {
    /// The rules file, as written (relative to the scenario file's folder).
    pub rules: Spanned,
    pub settings: Settings,
    pub scenarios: Vec<Scenario>,
}

/// Which game: a variant, the player count, the seed (each may be given per scenario).
#[derive(Clone, Debug, Default)]
pub struct Settings {
    pub variant: Option<Spanned>,
    pub players: Option<u8>,
    pub seed: Option<u64>,
}

#[derive(Clone, Debug)]
pub struct Scenario {
    pub name: Spanned,
    /// The earlier scenario whose end this one starts from.
    pub from: Option<Spanned>,
    pub settings: Settings,
    /// The position built by hand, if any, with its span.
    pub position: Option<(Vec<Fact>, Span)>,
    pub steps: Vec<Step>,
}

/// Something true of a position: made so in `position { }`, checked as a step.
#[derive(Clone, Debug)]
pub enum Fact {
    /// A board diagram: rows of labels, `.` for an empty cell.
    Board(Spanned),
    /// What a cell holds: a label or `.`.
    At(Spanned, Spanned),
    /// What a zone holds, bottom first.
    In(Spanned, Vec<Spanned>),
    /// What lies on top of a zone, the last named on the very top (the rest of the zone
    /// stays as it is).
    On(Spanned, Vec<Spanned>),
    /// A seat's score, as the rules' `score` gives it (checked only; `none` without one).
    Score(Spanned, Spanned),
    /// How many cards or pieces a zone holds (checked only).
    Size(Spanned, usize, Span),
    /// A variable (`name` or `Seat.name`) and its value in notation.
    Var(Spanned, Spanned),
    Phase(Spanned),
    /// The seat whose turn it is.
    Turn(Spanned),
    Step(u16, Span),
    /// How many turns the game has had.
    Turns(u32, Span),
    /// Where every component the position does not place goes.
    Rest(Spanned),
    /// The seat deciding now, or `none`.
    Decider(Spanned),
    /// A seat's secret choice in an `all` step: an action's text, `??` (chosen, not
    /// shown to the viewer) or `none` (not chosen).
    Secret(Spanned, Spanned),
    Outcome(OutcomeSpec, Span),
}

#[derive(Clone, Debug, PartialEq)]
pub enum OutcomeSpec {
    /// The winners, written `Red` or `P1+P3`.
    Win(String),
    Draw,
    None,
    Capped,
}

#[derive(Clone, Debug)]
pub enum Step {
    /// Actions played in turn; each must be legal.
    Play(Vec<Spanned>),
    /// Actions that must be listed now.
    Legal(Vec<Spanned>),
    /// An action that must be refused, and words its reason must contain.
    Illegal(Spanned, Option<Spanned>),
    /// The listed actions (those starting with a prefix, if given): exactly these texts,
    /// or this many.
    Actions {
        prefix: Option<Spanned>,
        expect: Listed,
        span: Span,
    },
    /// What a seat sees: a cell or a zone, `??` for a component it cannot identify.
    Sees(Spanned, Fact),
    /// A position built by hand from the one the steps reached.
    Position(Vec<Fact>),
    /// The leaves of the legal-action tree `depth` actions deep.
    Perft {
        depth: u32,
        leaves: u64,
        span: Span,
    },
    Check(Fact),
}

#[derive(Clone, Debug)]
pub enum Listed {
    Exactly(Vec<Spanned>),
    Count(usize),
}

/// Parses a scenario file (`file` is its index in the caller's `Sources`).
pub fn parse(file: u16, text: &str) -> Result<ScenarioFile, Diagnostic> {
    let pairs = ScenarioParser::parse(Rule::file, text).map_err(|e| {
        let (start, end) = match e.location {
            pest::error::InputLocation::Pos(p) => (p, p),
            pest::error::InputLocation::Span((a, b)) => (a, b),
        };
        let found: String = text[start..]
            .split_whitespace()
            .next()
            .unwrap_or("the end of the file")
            .chars()
            .take(40)
            .collect();
        let expected = match &e.variant {
            pest::error::ErrorVariant::ParsingError { positives, .. } => positives
                .iter()
                .map(|r| format!("{r:?}").trim_end_matches('_').to_string())
                .collect::<Vec<_>>()
                .join(", "),
            pest::error::ErrorVariant::CustomError { message } => message.clone(),
        };
        Diagnostic::error(
            "muster::scenario-syntax",
            Span::new(file, start, end.max(start + found.len().min(1))),
            format!("unexpected `{found}`"),
        )
        .label("here")
        .help(format!("expected one of: {expected}"))
    })?;
    let b = Build { file };
    let root = pairs.into_iter().next().expect("file rule");
    let mut inner = root.into_inner();
    let game = inner.next().expect("game");
    let mut g = game.into_inner();
    let rules = b.string(g.next().expect("rules file"));
    let settings = b.settings(g);
    let scenarios = inner
        .filter(|p| p.as_rule() == Rule::scenario)
        .map(|p| b.scenario(p))
        .collect();
    Ok(ScenarioFile {
        rules,
        settings,
        scenarios,
    })
}

struct Build {
    file: u16,
}

impl Build {
    fn span(&self, p: &Pair<Rule>) -> Span {
        let s = p.as_span();
        Span::new(self.file, s.start(), s.end())
    }

    fn word(&self, p: Pair<Rule>) -> Spanned {
        Spanned {
            text: p.as_str().to_string(),
            span: self.span(&p),
        }
    }

    /// A quoted string, its escapes read (`\"`, `\\`, `\n`).
    fn string(&self, p: Pair<Rule>) -> Spanned {
        let span = self.span(&p);
        let raw = p.into_inner().next().map_or("", |i| i.as_str());
        let mut text = String::new();
        let mut chars = raw.chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                match chars.next() {
                    Some('n') => text.push('\n'),
                    Some(other) => text.push(other),
                    None => {}
                }
            } else {
                text.push(c);
            }
        }
        Spanned { text, span }
    }

    fn int(p: &Pair<Rule>) -> u64 {
        // The grammar takes digits only; a number too large saturates.
        p.as_str().parse().unwrap_or(u64::MAX)
    }

    fn settings<'a>(&self, pairs: impl Iterator<Item = Pair<'a, Rule>>) -> Settings {
        let mut s = Settings::default();
        for p in pairs {
            let Some(inner) = p.into_inner().next() else {
                continue;
            };
            let rule = inner.as_rule();
            let value = inner.into_inner().next().expect("setting value");
            match rule {
                Rule::variant => s.variant = Some(self.word(value)),
                Rule::players => s.players = Some(Self::int(&value).min(255) as u8),
                Rule::seed => s.seed = Some(Self::int(&value)),
                _ => {}
            }
        }
        s
    }

    fn scenario(&self, p: Pair<Rule>) -> Scenario {
        let mut inner = p.into_inner();
        let name = self.string(inner.next().expect("name"));
        let mut from = None;
        let mut settings = Vec::new();
        let mut position = None;
        let mut steps = Vec::new();
        for q in inner {
            match q.as_rule() {
                Rule::setting => settings.push(q),
                Rule::from => from = q.into_inner().next().map(|n| self.string(n)),
                Rule::position => {
                    let span = self.span(&q);
                    position = Some((q.into_inner().map(|f| self.fact(f)).collect(), span));
                }
                Rule::step => steps.push(self.step(q)),
                _ => {}
            }
        }
        Scenario {
            name,
            from,
            settings: self.settings(settings.into_iter()),
            position,
            steps,
        }
    }

    fn fact(&self, p: Pair<Rule>) -> Fact {
        self.fact_of(p.into_inner().next().expect("fact"))
    }

    /// A fact from its own rule (`at`, `inside`, `on`, `decider`, ...), as a `fact` or a
    /// `sees` holds it.
    fn fact_of(&self, p: Pair<Rule>) -> Fact {
        let span = self.span(&p);
        let rule = p.as_rule();
        let mut it = p.into_inner();
        let mut next = || self.word(it.next().expect("word"));
        match rule {
            Rule::board => Fact::Board(next()),
            Rule::at => {
                let cell = next();
                Fact::At(cell, next())
            }
            Rule::inside | Rule::on => {
                let zone = next();
                let list = it.next().expect("list");
                let items = list.into_inner().map(|w| self.word(w)).collect();
                if rule == Rule::on {
                    Fact::On(zone, items)
                } else {
                    Fact::In(zone, items)
                }
            }
            Rule::var => {
                let name = next();
                Fact::Var(name, next())
            }
            Rule::size => {
                let zone = next();
                Fact::Size(zone, next().text.parse().unwrap_or(usize::MAX), span)
            }
            Rule::score => {
                let seat = next();
                Fact::Score(seat, next())
            }
            Rule::phase => Fact::Phase(next()),
            Rule::turn => Fact::Turn(next()),
            Rule::step_no => Fact::Step(next().text.parse().unwrap_or(u16::MAX), span),
            Rule::turns => Fact::Turns(next().text.parse().unwrap_or(u32::MAX), span),
            Rule::rest => Fact::Rest(next()),
            Rule::decider => Fact::Decider(next()),
            Rule::secret => {
                let seat = next();
                let want = it.next().expect("choice");
                let want = match want.as_rule() {
                    Rule::string => self.string(want),
                    _ => self.word(want),
                };
                Fact::Secret(seat, want)
            }
            Rule::outcome => {
                let o = it.next().expect("outcome");
                let spec = match o.as_rule() {
                    Rule::win => OutcomeSpec::Win(
                        o.into_inner().next().map_or("", |w| w.as_str()).to_string(),
                    ),
                    Rule::draw => OutcomeSpec::Draw,
                    Rule::capped => OutcomeSpec::Capped,
                    _ => OutcomeSpec::None,
                };
                Fact::Outcome(spec, span)
            }
            other => unreachable!("not a fact: {other:?}"),
        }
    }

    fn step(&self, p: Pair<Rule>) -> Step {
        let p = p.into_inner().next().expect("step");
        let span = self.span(&p);
        match p.as_rule() {
            Rule::fact => Step::Check(self.fact(p)),
            Rule::position => Step::Position(p.into_inner().map(|f| self.fact(f)).collect()),
            Rule::play => Step::Play(p.into_inner().map(|s| self.string(s)).collect()),
            Rule::legal => Step::Legal(p.into_inner().map(|s| self.string(s)).collect()),
            Rule::illegal => {
                let mut it = p.into_inner();
                let text = self.string(it.next().expect("action"));
                Step::Illegal(text, it.next().map(|r| self.string(r)))
            }
            Rule::actions => {
                let mut prefix = None;
                let mut expect = Listed::Count(0);
                for q in p.into_inner() {
                    match q.as_rule() {
                        Rule::string => prefix = Some(self.string(q)),
                        Rule::texts => {
                            expect =
                                Listed::Exactly(q.into_inner().map(|s| self.string(s)).collect())
                        }
                        Rule::count => {
                            let n = q.into_inner().next().expect("count");
                            expect = Listed::Count(Self::int(&n) as usize)
                        }
                        _ => {}
                    }
                }
                Step::Actions {
                    prefix,
                    expect,
                    span,
                }
            }
            Rule::sees => {
                let mut it = p.into_inner();
                let seat = self.word(it.next().expect("seat"));
                let what = it.next().expect("what");
                // `sees SEAT at ...` / `sees SEAT in ...`: read as a fact.
                let fact = self.fact_of(what);
                Step::Sees(seat, fact)
            }
            Rule::perft => {
                let mut it = p.into_inner();
                let depth = Self::int(&it.next().expect("depth")).min(64) as u32;
                let leaves = Self::int(&it.next().expect("leaves"));
                Step::Perft {
                    depth,
                    leaves,
                    span,
                }
            }
            other => unreachable!("not a step: {other:?}"),
        }
    }
}
