//! Running a scenario file: each scenario starts its game, builds its position, then takes
//! its steps in order; the first step that does not hold fails the scenario, with a
//! diagnostic at that step saying what was expected and what was found.

use super::position::{self, Facts};
use super::syntax::{self, Fact, Listed, OutcomeSpec, Scenario, Settings, Spanned, Step};
use crate::diagnostic::{Diagnostic, Sources};
use crate::engine::{Engine, Outcome, Seen, State};
use crate::syntax::ast::Span;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// What running one scenario file found.
pub struct FileReport {
    /// The scenario file (and nothing else: the rules file's errors are summarised).
    pub sources: Sources,
    /// Each scenario's name and whether it passed.
    pub results: Vec<(String, bool)>,
    /// Why each failing scenario failed (and why the file could not run, if it could not).
    pub failures: Vec<Diagnostic>,
}

impl FileReport {
    pub fn passed(&self) -> usize {
        self.results.iter().filter(|r| r.1).count()
    }
    pub fn ok(&self) -> bool {
        self.failures.is_empty()
    }
}

const CODE: &str = "muster::scenario";

fn fail(span: Span, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(CODE, span, message).label("this does not hold")
}

/// Runs every scenario of one file.
pub fn run_file(path: &Path) -> FileReport {
    let mut sources = Sources::default();
    let text = match crate::check::read_text(path) {
        Ok(t) => t,
        Err(e) => {
            let f = sources.add(path.display().to_string(), "");
            return FileReport {
                sources,
                results: vec![],
                failures: vec![Diagnostic::error("muster::io", Span::new(f, 0, 0), e)],
            };
        }
    };
    let file = sources.add(path.display().to_string(), text.as_str());
    let parsed = match syntax::parse(file, &text) {
        Ok(p) => p,
        Err(d) => {
            return FileReport {
                sources,
                results: vec![],
                failures: vec![d],
            }
        }
    };
    let rules = path
        .parent()
        .unwrap_or(Path::new("."))
        .join(&parsed.rules.text);
    let mut engines: HashMap<Option<String>, Result<Arc<Engine>, Diagnostic>> = HashMap::new();
    let mut results = Vec::new();
    let mut failures = Vec::new();
    // Where each scenario that held ended, with its game and settings, for `from`.
    let mut ends: HashMap<String, (Arc<Engine>, Settings, State)> = HashMap::new();
    for sc in &parsed.scenarios {
        let start = match &sc.from {
            Some(f) => match ends.get(&f.text) {
                Some((e, settings, s)) => Ok((e.clone(), settings.clone(), Some(s.clone()))),
                None => Err(from_unknown(&parsed.scenarios, sc, f)),
            },
            None => {
                let settings = merged(&parsed.settings, &sc.settings);
                let variant = settings.variant.as_ref().map(|v| v.text.clone());
                engines
                    .entry(variant)
                    .or_insert_with(|| compile(&rules, &parsed.rules, settings.variant.as_ref()))
                    .clone()
                    .map(|e| (e, settings, None))
            }
        };
        let outcome = start.and_then(|(e, settings, from)| {
            run_scenario(&e, sc, &settings, from).map(|s| (e, settings, s))
        });
        results.push((sc.name.text.clone(), outcome.is_ok()));
        match outcome {
            Ok(end) => {
                ends.insert(sc.name.text.clone(), end);
            }
            Err(d) => failures.push(d),
        }
    }
    FileReport {
        sources,
        results,
        failures,
    }
}

/// The file's settings with a scenario's own on top.
fn merged(file: &Settings, own: &Settings) -> Settings {
    Settings {
        variant: own.variant.clone().or_else(|| file.variant.clone()),
        players: own.players.or(file.players),
        seed: own.seed.or(file.seed),
    }
}

fn compile(
    rules: &Path,
    named: &Spanned,
    variant: Option<&Spanned>,
) -> Result<Arc<Engine>, Diagnostic> {
    match crate::check::compile_file(rules, variant.map(|v| v.text.as_str())) {
        Ok(c) => Ok(Arc::new(Engine::new(c.game))),
        Err(f) => {
            let first = f
                .diagnostics
                .iter()
                .find(|d| d.is_error())
                .map(|d| {
                    let (line, col) = f.sources.line_col(d.span);
                    let name = &f.sources.files[d.span.file as usize].name;
                    format!("{name}:{line}:{col}: {}", d.message)
                })
                .unwrap_or_default();
            let span = variant.map_or(named.span, |v| v.span);
            Err(Diagnostic::error(
                "muster::scenario-game",
                span,
                format!("the rules file `{}` does not compile", rules.display()),
            )
            .label("this game")
            .help(format!(
                "{first} (run `muster validate {}` for every error)",
                rules.display()
            )))
        }
    }
}

/// Why a scenario cannot start `from` another: there is none of that name before it, or
/// it did not hold.
fn from_unknown(all: &[Scenario], sc: &Scenario, f: &Spanned) -> Diagnostic {
    let earlier = all
        .iter()
        .take_while(|x| !std::ptr::eq(*x, sc))
        .any(|x| x.name.text == f.text);
    let message = if earlier {
        format!(
            "scenario \"{}\" did not hold, so this one cannot start where it ended",
            f.text
        )
    } else {
        format!("no scenario \"{}\" comes before this one", f.text)
    };
    Diagnostic::error(CODE, f.span, message).label("starts from here")
}

/// Plays one scenario from the start of its game (or from `from`, where another ended);
/// where it ended, if every step held.
fn run_scenario(
    e: &Engine,
    sc: &Scenario,
    settings: &Settings,
    from: Option<State>,
) -> Result<State, Diagnostic> {
    let mut s = match from {
        Some(s) => s,
        None => {
            let players = settings.players.unwrap_or(e.game.min_players);
            let seed = settings.seed.unwrap_or(1);
            e.start(players, seed)
                .map_err(|err| fail(sc.name.span, format!("the game does not start: {err}")))?
        }
    };
    if let Some((facts, _)) = &sc.position {
        position::build(e, &mut s, facts)?;
    }
    for step in &sc.steps {
        take_step(e, &mut s, step)?;
    }
    Ok(s)
}

fn take_step(e: &Engine, s: &mut State, step: &Step) -> Result<(), Diagnostic> {
    match step {
        Step::Play(texts) => {
            for t in texts {
                play(e, s, t)?;
            }
        }
        Step::Legal(texts) => {
            let listed = Facts::legal_texts(e, s);
            for t in texts {
                if !listed.contains(&t.text) {
                    let why = match e.parse_action(s, &t.text) {
                        Ok(a) => e.why_illegal(s, &a).unwrap_or_default(),
                        Err(err) => err,
                    };
                    return Err(
                        fail(t.span, format!("`{}` is not legal here: {why}", t.text))
                            .help(listing(&listed, &t.text)),
                    );
                }
            }
        }
        Step::Illegal(t, because) => {
            let listed = Facts::legal_texts(e, s);
            if listed.contains(&t.text) {
                return Err(fail(t.span, format!("`{}` is legal here", t.text)));
            }
            let reason = match e.parse_action(s, &t.text) {
                Ok(a) => match e.why_illegal(s, &a) {
                    Some(r) => r,
                    None => return Err(fail(t.span, format!("`{}` is legal here", t.text))),
                },
                Err(err) => err,
            };
            if let Some(b) = because {
                if !reason.contains(&b.text) {
                    return Err(fail(
                        b.span,
                        format!(
                            "`{}` is refused, but not for this reason: expected a reason containing \"{}\", found \"{reason}\"",
                            t.text, b.text
                        ),
                    ));
                }
            }
        }
        Step::Actions {
            prefix,
            expect,
            span,
        } => {
            let listed: Vec<String> = Facts::legal_texts(e, s)
                .into_iter()
                .filter(|t| prefix.as_ref().is_none_or(|p| t.starts_with(&p.text)))
                .collect();
            match expect {
                Listed::Count(n) if listed.len() != *n => {
                    return Err(fail(
                        *span,
                        format!("expected {n} listed action(s), found {}", listed.len()),
                    )
                    .help(format!("listed: {}", quoted(&listed))));
                }
                Listed::Exactly(want) => {
                    let want: Vec<String> = want.iter().map(|w| w.text.clone()).collect();
                    let missing: Vec<String> = want
                        .iter()
                        .filter(|w| !listed.contains(w))
                        .cloned()
                        .collect();
                    let extra: Vec<String> = listed
                        .iter()
                        .filter(|l| !want.contains(l))
                        .cloned()
                        .collect();
                    if !missing.is_empty() || !extra.is_empty() {
                        let mut parts = Vec::new();
                        if !missing.is_empty() {
                            parts.push(format!("not listed: {}", quoted(&missing)));
                        }
                        if !extra.is_empty() {
                            parts.push(format!("listed but not expected: {}", quoted(&extra)));
                        }
                        return Err(fail(*span, "the listed actions differ".to_string())
                            .help(parts.join("; ")));
                    }
                }
                _ => {}
            }
        }
        Step::Sees(seat, fact) => {
            let p = position::seat(e, s, seat)?;
            let view = e.view(s, p);
            let seen = |x: &Seen| match *x {
                Seen::Empty => ".".to_string(),
                Seen::Known { comp, owner } => e.label_with(comp, owner, &view.attr_over),
                Seen::Hidden { .. } => "??".to_string(),
            };
            match fact {
                Fact::At(cell, want) => {
                    let c = position::cell(e, cell)?;
                    let found = seen(&view.cells[c as usize]);
                    if found != want.text {
                        return Err(fail(
                            want.span,
                            format!(
                                "{} sees `{found}` at {}, not `{}`",
                                seat.text, cell.text, want.text
                            ),
                        ));
                    }
                }
                Fact::In(zone, want) | Fact::On(zone, want) => {
                    let z = position::zone(e, zone)?;
                    let all = &view.zones[z as usize];
                    let from = match fact {
                        Fact::On(..) => all.len().saturating_sub(want.len()),
                        _ => 0,
                    };
                    let found: Vec<String> = all[from..].iter().map(seen).collect();
                    let want: Vec<String> = want.iter().map(|w| w.text.clone()).collect();
                    if found != want {
                        return Err(fail(
                            zone.span,
                            format!(
                                "{} sees [{}] in {}, not [{}]",
                                seat.text,
                                found.join(" "),
                                zone.text,
                                want.join(" ")
                            ),
                        ));
                    }
                }
                Fact::Decider(want) => {
                    let found = view.decider.map_or("none".to_string(), |d| {
                        e.game.seats[d as usize].name.clone()
                    });
                    if found != want.text {
                        return Err(fail(
                            want.span,
                            format!("{} sees `{found}` deciding, not `{}`", seat.text, want.text),
                        ));
                    }
                }
                Fact::Secret(whose, want) => {
                    let q = position::seat(e, s, whose)?;
                    let found = match view.secret.iter().find(|(c, _)| *c == q) {
                        None => "none".to_string(),
                        Some((_, None)) => "??".to_string(),
                        Some((_, Some(a))) => e.action_text(s, a),
                    };
                    if found != want.text {
                        return Err(fail(
                            want.span,
                            format!(
                                "{} sees `{found}` as {}'s secret choice, not `{}`",
                                seat.text, whose.text, want.text
                            ),
                        ));
                    }
                }
                _ => unreachable!(
                    "the grammar gives `sees` a cell, a zone, the decider or a secret choice"
                ),
            }
        }
        Step::Perft {
            depth,
            leaves,
            span,
        } => {
            let found = e
                .perft(s, *depth)
                .map_err(|err| fail(*span, format!("perft stopped: {err}")))?;
            if found != *leaves {
                return Err(fail(
                    *span,
                    format!("expected {leaves} leaves {depth} action(s) deep, found {found}"),
                ));
            }
        }
        Step::Check(fact) => check(e, s, fact)?,
        Step::Position(facts) => position::build(e, s, facts)?,
    }
    Ok(())
}

fn play(e: &Engine, s: &mut State, t: &Spanned) -> Result<(), Diagnostic> {
    let a = e.parse_action(s, &t.text).map_err(|err| {
        fail(t.span, format!("cannot play `{}`: {err}", t.text))
            .help(listing(&Facts::legal_texts(e, s), &t.text))
    })?;
    if let Some(why) = e.why_illegal(s, &a) {
        return Err(
            fail(t.span, format!("`{}` is not legal here: {why}", t.text))
                .help(listing(&Facts::legal_texts(e, s), &t.text)),
        );
    }
    e.apply(s, &a)
        .map_err(|err| fail(t.span, format!("`{}` fails: {err}", t.text)))
}

/// Checks a fact of the position.
fn check(e: &Engine, s: &State, fact: &Fact) -> Result<(), Diagnostic> {
    let differs = |span: Span, what: &str, want: &str, found: &str| {
        fail(span, format!("expected {what} `{want}`, found `{found}`"))
    };
    match fact {
        Fact::At(cell, want) => {
            let c = position::cell(e, cell)?;
            let found = Facts::at(e, s, c);
            if !Facts::matches(e, s, c, &want.text) {
                return Err(differs(
                    want.span,
                    &format!("at {}", cell.text),
                    &want.text,
                    &found,
                ));
            }
        }
        Fact::Board(diagram) => {
            for (cell, want) in position::diagram(e, diagram)? {
                if !Facts::matches(e, s, cell, &want.text) {
                    let name = &e.game.board.cells[cell as usize].name;
                    return Err(differs(
                        want.span,
                        &format!("at {name}"),
                        &want.text,
                        &Facts::at(e, s, cell),
                    ));
                }
            }
        }
        Fact::In(zone, want) | Fact::On(zone, want) => {
            let z = position::zone(e, zone)?;
            let all = &s.zones[z as usize];
            let (from, what) = match fact {
                Fact::On(..) => (all.len().saturating_sub(want.len()), " on top"),
                _ => (0, ""),
            };
            let here = &all[from..];
            let found: Vec<String> = here.iter().map(|&c| e.label(s, c)).collect();
            let same = found.len() == want.len()
                && here
                    .iter()
                    .zip(want)
                    .all(|(&c, w)| Facts::names(e, s, c, &w.text));
            if !same {
                let want: Vec<&str> = want.iter().map(|w| w.text.as_str()).collect();
                return Err(fail(
                    zone.span,
                    format!(
                        "expected {} to hold [{}]{what}, found [{}]",
                        zone.text,
                        want.join(" "),
                        found.join(" ")
                    ),
                ));
            }
        }
        Fact::Score(seat, want) => {
            let p = position::seat(e, s, seat)?;
            let found = e.score(s, p).map_or("none".to_string(), |n| n.to_string());
            if found != want.text {
                return Err(differs(
                    want.span,
                    &format!("score of {}", seat.text),
                    &want.text,
                    &found,
                ));
            }
        }
        Fact::Size(zone, n, span) => {
            let z = position::zone(e, zone)?;
            let found = s.zones[z as usize].len();
            if found != *n {
                return Err(differs(
                    *span,
                    &format!("size of {}", zone.text),
                    &n.to_string(),
                    &found.to_string(),
                ));
            }
        }
        Fact::Var(name, want) => {
            let v = position::var_slot(e, s, name)?;
            let found = e.value_text(s, &v.get(s));
            if found != want.text {
                return Err(differs(want.span, &name.text, &want.text, &found));
            }
        }
        Fact::Phase(want) => {
            let found = &e.game.phases[s.phase as usize].name;
            if *found != want.text {
                return Err(differs(want.span, "phase", &want.text, found));
            }
        }
        Fact::Turn(want) => {
            let found = &e.game.seats[s.turn_seat as usize].name;
            if *found != want.text {
                return Err(differs(want.span, "the turn of", &want.text, found));
            }
        }
        Fact::Step(n, span) => {
            if s.step != *n {
                return Err(differs(*span, "step", &n.to_string(), &s.step.to_string()));
            }
        }
        Fact::Turns(n, span) => {
            if s.turns != *n {
                return Err(differs(
                    *span,
                    "turns",
                    &n.to_string(),
                    &s.turns.to_string(),
                ));
            }
        }
        Fact::Decider(want) => {
            let found = e.decider(s).map_or("none".to_string(), |p| {
                e.game.seats[p as usize].name.clone()
            });
            if found != want.text {
                return Err(differs(want.span, "decider", &want.text, &found));
            }
        }
        Fact::Secret(seat, want) => {
            let p = position::seat(e, s, seat)?;
            let found = s
                .secret
                .iter()
                .find(|(q, _)| *q == p)
                .map_or("none".to_string(), |(_, a)| e.action_text(s, a));
            if found != want.text {
                return Err(differs(
                    want.span,
                    &format!("{}'s secret choice", seat.text),
                    &want.text,
                    &found,
                ));
            }
        }
        Fact::Outcome(want, span) => {
            let found = outcome_text(e, e.outcome(s));
            let wanted = match want {
                OutcomeSpec::Win(w) => format!("win {w}"),
                OutcomeSpec::Draw => "draw".into(),
                OutcomeSpec::None => "none".into(),
                OutcomeSpec::Capped => "capped".into(),
            };
            if found != wanted {
                return Err(differs(*span, "outcome", &wanted, &found));
            }
        }
        Fact::Rest(w) => {
            return Err(Diagnostic::error(
                "muster::scenario-syntax",
                w.span,
                "`rest in` belongs in a `position { }`",
            )
            .label("here"))
        }
    }
    Ok(())
}

/// An outcome as a scenario writes it: `win Red`, `win P1+P3`, `draw`, `capped`, `none`.
fn outcome_text(e: &Engine, o: Option<&Outcome>) -> String {
    match o {
        None => "none".into(),
        Some(Outcome::Draw) => "draw".into(),
        Some(Outcome::Capped) => "capped".into(),
        Some(Outcome::Win(seats)) => format!(
            "win {}",
            seats
                .iter()
                .map(|&p| e.game.seats[p as usize].name.as_str())
                .collect::<Vec<_>>()
                .join("+")
        ),
    }
}

fn quoted(texts: &[String]) -> String {
    if texts.is_empty() {
        return "none".into();
    }
    texts
        .iter()
        .map(|t| format!("\"{t}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The listed actions a mistyped text may have meant: those of the same action name, or
/// all of them if none.
fn listing(listed: &[String], text: &str) -> String {
    let name = text.split_whitespace().next().unwrap_or("");
    let same: Vec<String> = listed
        .iter()
        .filter(|l| l.split_whitespace().next() == Some(name))
        .cloned()
        .collect();
    let shown = if same.is_empty() { listed } else { &same[..] };
    let mut out = quoted(&shown[..shown.len().min(12)]);
    if shown.len() > 12 {
        out.push_str(&format!(" and {} more", shown.len() - 12));
    }
    format!("listed now: {out}")
}
