//! `muster play`: text play in the terminal. People type moves in notation or by number;
//! agents take the other seats. Each person sees only its own seat's view.

use super::log::{content_hash, GameLog, LogEntry};
use super::replay::replay_log;
use super::{agent_list, outcome_text, render_view, GameOpts, EXIT_OK};
use crate::agents::{self, Agent};
use crate::engine::{Engine, State};
use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;

const HELP: &str = "Enter a move in notation (e.g. as listed by `moves`) or its number. An
action's name may be shortened to any start of it that no other action on offer shares
(`mo a1 b2` for `move a1 b2`), and several moves of one turn go on one line, separated
by `;` (`mo a1 b2; mo b2 b3`).
Commands: moves (list legal moves), board (show the position), hint (what the computer would
play), undo (take back your last move against agents), save [FILE] (write the game log), help,
quit.";

/// Who sits at each seat.
pub enum Seat {
    Human,
    Agent(Box<dyn Agent>),
}

pub struct Session<'e> {
    pub engine: &'e Engine,
    pub seats: Vec<Seat>,
    pub log: GameLog,
    pub save: Option<std::path::PathBuf>,
    pub reveal: bool,
    /// Clear the screen between two people's turns (only on a terminal).
    pub clear_screen: bool,
    /// Colour the seats' pieces (only on a terminal, never with NO_COLOR).
    pub colour: bool,
    /// How many logged actions `undo` must keep: the person has seen hidden components
    /// that the last of them showed, and may not take back what it now knows.
    pub undo_floor: usize,
    /// For each seat, the cells the last action changed in its view (marked on its board).
    pub marks: Vec<Vec<bool>>,
    /// The rules and thinking time (ms) of the search that answers `hint`.
    pub adviser: (std::sync::Arc<Engine>, u64),
    /// Moves typed ahead on one line (`a; b; c`), with the seat that typed them: played in
    /// turn while that seat decides, dropped at the first refused or when another decides.
    pub queued: (u8, std::collections::VecDeque<String>),
}

pub fn run(
    file: &Path,
    opts: &GameOpts,
    agents_spec: Option<&str>,
    think: u64,
    save: Option<&Path>,
    reveal: bool,
    resume: Option<&Path>,
) -> i32 {
    let rules_text = crate::check::read_text(file).unwrap_or_default();
    // A resumed game goes on under its log's variant, players, seed and cap, saving to it.
    let resumed = match resume {
        Some(p) => match super::replay::read_log(p, &rules_text) {
            Ok(l) => Some(l),
            Err(code) => return code,
        },
        None => None,
    };
    let mut opts = opts.clone();
    if let Some(l) = &resumed {
        opts.variant = l.variant.clone();
        opts.players = l.players;
        opts.seed = Some(l.seed);
        opts.max_turns = opts.max_turns.or(l.max_turns);
    }
    // Without `--seed`, every game is a new one; the seed is printed so it can be replayed.
    let fresh = opts.seed.is_none();
    let seed = opts.seed.unwrap_or_else(rand::random);
    opts.seed = Some(seed);
    let (engine, players) = match super::prepare(file, &opts) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let names = match agent_list(agents_spec, players, |i| {
        if i == 0 {
            "human".into()
        } else {
            format!("ismcts:{}ms", think.max(1))
        }
    }) {
        Ok(n) => n,
        Err(code) => return code,
    };
    let seats = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            if n == "human" {
                Seat::Human
            } else {
                Seat::Agent(
                    agents::by_name(n, &engine, agents::agent_seed(seed, i)).expect("checked name"),
                )
            }
        })
        .collect();
    // A game with a person at a seat is never capped unless `--max-turns` says so: the
    // rules alone end it. Agents keep the capped rules for their own searches, so that
    // their playouts stay bounded.
    let capped = opts.max_turns.is_some() || !names.iter().any(|n| n == "human");
    let agents_engine = engine.clone();
    let engine = if capped {
        engine
    } else {
        let mut game = (*engine.game).clone();
        game.max_turns = u32::MAX;
        std::sync::Arc::new(Engine::new(game))
    };
    let log = match resumed {
        Some(l) => GameLog {
            players: Some(players),
            ..l
        },
        None => GameLog {
            rules: file
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_default(),
            hash: Some(content_hash(&rules_text)),
            variant: opts.variant.clone(),
            players: Some(players),
            seed,
            max_turns: capped.then_some(engine.game.max_turns),
            actions: vec![],
        },
    };
    if fresh {
        println!("seed {seed} (to play this deal again: --seed {seed})");
    }
    let mut session = Session {
        engine: &engine,
        seats,
        log,
        save: save.or(resume).map(Path::to_path_buf),
        reveal,
        clear_screen: std::io::stdout().is_terminal(),
        colour: std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
        undo_floor: 0,
        marks: Vec::new(),
        adviser: (agents_engine, think.max(1)),
        queued: (0, std::collections::VecDeque::new()),
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    match session.play(&mut stdin.lock(), &mut stdout.lock()) {
        Ok(()) => EXIT_OK,
        Err(e) => {
            eprintln!("error: {e}");
            if let Some(crate::engine::EngineError::Rules(_)) = e
                .get_ref()
                .and_then(|x| x.downcast_ref::<crate::engine::EngineError>())
            {
                session.keep_failed_log(file);
            }
            super::exit_code_of(&e)
        }
    }
}

impl<'e> Session<'e> {
    fn seat_name(&self, s: u8) -> &str {
        &self.engine.game.seats[s as usize].name
    }

    fn show(&self, state: &State, seat: u8, out: &mut dyn Write) -> std::io::Result<()> {
        let view = if self.reveal {
            self.engine.omniscient_view(state)
        } else {
            self.engine.view(state, seat)
        };
        let marks = self
            .marks
            .get(seat as usize)
            .map_or(&[][..], |m| m.as_slice());
        writeln!(
            out,
            "{}",
            super::board::render_view_marked(self.engine, &view, self.colour, marks)
        )
    }

    /// Tells each person what an action did, from that person's view: who played what (a
    /// component it cannot identify is `??`) and what changed (see `report`), at once when
    /// one person plays against agents (or everything, with `--reveal` or when only agents
    /// play), and to the person who acted; the other people at their next turn in hot-seat
    /// play. Marks the cells the action changed for the
    /// next board, and notes when it showed the one person something hidden, which `undo`
    /// may then not take back.
    fn tell(
        &mut self,
        before: &State,
        after: &State,
        action: &crate::engine::Action,
        actor: u8,
        untold: &mut [Vec<String>],
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        let engine = self.engine;
        let humans: Vec<u8> = (0..self.seats.len() as u8)
            .filter(|&h| matches!(self.seats[h as usize], Seat::Human))
            .collect();
        let everything = self.reveal || humans.is_empty();
        let actor_name = self.seat_name(actor).to_string();
        // (the lines to tell, the cells changed) for one viewer.
        let news = |viewer: Option<u8>| {
            let view = |s: &State| match viewer {
                Some(h) => engine.view(s, h),
                None => engine.omniscient_view(s),
            };
            let (v1, v2) = (view(before), view(after));
            let mut lines = engine
                .announce(before, after, action, actor, viewer)
                .lines(&actor_name, &|q| engine.game.seats[q as usize].name.clone());
            if viewer == Some(actor) {
                // The seat that acted knows what it did; it hears only of a reveal.
                lines.remove(0);
            }
            lines.extend(
                super::report::report(engine, &v1, &v2)
                    .into_iter()
                    .map(|l| format!("  {l}")),
            );
            let changed: Vec<bool> = v1
                .cells
                .iter()
                .zip(&v2.cells)
                .map(|(a, b)| a != b)
                .collect();
            (lines, changed)
        };
        if everything {
            let (lines, changed) = news(None);
            for l in lines {
                writeln!(out, "{l}")?;
            }
            self.marks = vec![changed; self.seats.len()];
            return Ok(());
        }
        for &h in &humans {
            let (lines, changed) = news(Some(h));
            self.marks[h as usize] = changed;
            // The person who acted is at the screen: told at once, even in hot-seat play.
            if humans.len() == 1 || h == actor {
                for l in lines {
                    writeln!(out, "{l}")?;
                }
            } else {
                untold[h as usize].extend(lines);
            }
        }
        if let &[h] = humans.as_slice() {
            let newly_seen = (0..engine.game.components.len() as u16).any(|c| {
                engine.visible_to(after, c, Some(h)) && !engine.visible_to(before, c, Some(h))
            });
            // The reveal of an `all` step shows the others' secret choices.
            let revealed = engine.is_secret_choice(before)
                && after.secret.is_empty()
                && before.secret.iter().any(|&(q, _)| q != h);
            if newly_seen || revealed {
                self.undo_floor = self.log.actions.len();
            }
        }
        Ok(())
    }

    /// After a rules error: writes the game's log, up to and including the action the
    /// rules failed on, where `--save` says or to a temporary file, and tells how to
    /// replay it.
    fn keep_failed_log(&self, file: &Path) {
        let path = self.save.clone().unwrap_or_else(|| {
            std::env::temp_dir().join(format!("muster-failed-game-{}.log", self.log.seed))
        });
        if std::fs::write(&path, self.log.to_text()).is_ok() {
            eprintln!(
                "  to see it again, replay its {} action(s): muster replay {} {}",
                self.log.actions.len(),
                file.display(),
                path.display()
            );
        }
    }

    fn humans(&self) -> usize {
        self.seats
            .iter()
            .filter(|s| matches!(s, Seat::Human))
            .count()
    }

    fn write_log(&self, path: &Path, out: &mut dyn Write) -> std::io::Result<()> {
        match std::fs::write(path, self.log.to_text()) {
            Ok(()) => writeln!(out, "saved to {}", path.display()),
            Err(e) => writeln!(out, "could not save to {}: {e}", path.display()),
        }
    }

    /// Plays to the end, or until a person quits or the input ends.
    pub fn play(&mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> std::io::Result<()> {
        let engine = self.engine;
        // A new game starts; a resumed one goes on from where its log ends (a log that
        // does not replay is invalid input, as for `replay`).
        let mut state = if self.log.actions.is_empty() {
            engine
                .start(
                    self.log.players.unwrap_or(engine.game.min_players),
                    self.log.seed,
                )
                .map_err(std::io::Error::other)?
        } else {
            replay_log(engine, &self.log, |_, _| {}).map_err(|e| {
                std::io::Error::other(super::InvalidInput(format!(
                    "the saved game does not replay: action {} (line {}) `{}`: {}",
                    e.number, e.line, e.text, e.reason
                )))
            })?
        };
        if !self.log.actions.is_empty() {
            writeln!(out, "resuming after {} action(s)", self.log.actions.len())?;
        }
        let mut last_human: Option<u8> = None;
        if let Some(l) = super::legend(engine) {
            writeln!(out, "Legend: {l}")?;
        }
        // What each person has not yet been told of the others' actions, in its own words.
        let mut untold: Vec<Vec<String>> = vec![Vec::new(); self.seats.len()];
        self.marks = vec![Vec::new(); self.seats.len()];
        while let Some(seat) = engine.decider(&state) {
            let legal = engine
                .try_legal_actions(&state)
                .map_err(std::io::Error::other)?;
            let chosen = match &mut self.seats[seat as usize] {
                Seat::Agent(agent) => {
                    let view = engine.view(&state, seat);
                    if self.clear_screen {
                        write!(
                            out,
                            "{} is thinking…",
                            engine.game.seats[seat as usize].name
                        )?;
                        out.flush()?;
                    }
                    let i = agent.choose(&view, &legal);
                    if self.clear_screen {
                        write!(out, "\r\x1b[2K")?;
                    }
                    legal[i].clone()
                }
                Seat::Human => {
                    if self.humans() > 1 && last_human.is_some_and(|h| h != seat) {
                        if self.clear_screen {
                            write!(out, "\x1b[2J\x1b[H")?;
                        }
                        writeln!(
                            out,
                            "— pass the seat to {}, then press Enter —",
                            self.seat_name(seat)
                        )?;
                        out.flush()?;
                        let mut line = String::new();
                        if input.read_line(&mut line)? == 0 {
                            return self.finish(&state, out, true);
                        }
                    }
                    last_human = Some(seat);
                    let told = std::mem::take(&mut untold[seat as usize]);
                    if self.humans() > 1 && !told.is_empty() {
                        writeln!(out, "Since your last turn:")?;
                        for t in told {
                            writeln!(out, "  {t}")?;
                        }
                    }
                    // The board once before the moves typed ahead, not before each.
                    if !self.typed_ahead(seat) {
                        self.show(&state, seat, out)?;
                    }
                    match self.prompt(&mut state, seat, &legal, input, out)? {
                        Some(a) => a,
                        None => return self.finish(&state, out, true),
                    }
                }
            };
            let before = state.clone();
            // Logged before it is applied: if the rules fail on it, the log kept for
            // replaying the failure ends with it.
            self.log.actions.push(LogEntry {
                seat: Some(engine.game.seats[seat as usize].name.clone()),
                action: engine.action_text(&state, &chosen),
                line: 0,
            });
            engine
                .apply(&mut state, &chosen)
                .map_err(std::io::Error::other)?;
            self.tell(&before, &state, &chosen, seat, &mut untold, out)?;
            if let Some(p) = &self.save {
                let _ = std::fs::write(p, self.log.to_text());
            }
        }
        let seat = last_human.unwrap_or(0);
        let view = if self.reveal || self.humans() != 1 {
            engine.omniscient_view(&state)
        } else {
            engine.view(&state, seat)
        };
        writeln!(out, "{}", render_view(engine, &view))?;
        self.finish(&state, out, false)
    }

    fn finish(&self, state: &State, out: &mut dyn Write, quit: bool) -> std::io::Result<()> {
        if quit {
            writeln!(
                out,
                "game left unfinished after {} action(s)",
                self.log.actions.len()
            )?;
        } else {
            writeln!(
                out,
                "game over: {} after {} turn(s)",
                outcome_text(self.engine, self.engine.outcome(state)),
                state.turns
            )?;
        }
        if let Some(p) = &self.save {
            self.write_log(p, out)?;
        }
        Ok(())
    }

    /// Asks a person for a move until one is legal; `None` to stop playing.
    fn prompt(
        &mut self,
        state: &mut State,
        seat: u8,
        legal: &[crate::engine::Action],
        input: &mut dyn BufRead,
        out: &mut dyn Write,
    ) -> std::io::Result<Option<crate::engine::Action>> {
        let engine = self.engine;
        if self.queued.0 != seat {
            self.queued.1.clear();
        }
        loop {
            let mut line = match self.queued.1.pop_front() {
                // A move typed ahead: echoed after the prompt, as if typed now.
                Some(next) => {
                    writeln!(out, "{}> {next}", self.seat_name(seat))?;
                    next
                }
                None => {
                    write!(out, "{}> ", self.seat_name(seat))?;
                    out.flush()?;
                    let mut line = String::new();
                    if input.read_line(&mut line)? == 0 {
                        writeln!(out)?;
                        return Ok(None);
                    }
                    line
                }
            };
            // Several moves on one line: this one now, the others when their turn comes.
            if let Some((first, rest)) = line.split_once(';') {
                self.queued = (
                    seat,
                    rest.split(';')
                        .map(|m| m.trim().to_string())
                        .filter(|m| !m.is_empty())
                        .collect(),
                );
                line = first.to_string();
            }
            let line = line.trim();
            let (cmd, rest) = line
                .split_once(char::is_whitespace)
                .map(|(c, r)| (c, r.trim()))
                .unwrap_or((line, ""));
            match cmd {
                "" => continue,
                "help" | "?" => {
                    writeln!(out, "{HELP}")?;
                    if let Some(l) = super::legend(engine) {
                        writeln!(out, "Legend: {l}")?;
                    }
                }
                "quit" | "exit" => return Ok(None),
                "hint" => {
                    // The search that plays the other seats, from this seat's view only.
                    let (rules, think) = &self.adviser;
                    let name = format!("ismcts:{think}ms");
                    let mut adviser = agents::by_name(&name, rules, self.log.seed ^ 0x5eed)
                        .expect("a known agent");
                    let i = adviser.choose(&engine.view(state, seat), legal);
                    writeln!(out, "hint: {}", engine.action_text(state, &legal[i]))?;
                }
                "board" => self.show(state, seat, out)?,
                "moves" => {
                    for (i, a) in legal.iter().enumerate() {
                        writeln!(out, "{:>4}. {}", i + 1, engine.action_text(state, a))?;
                    }
                }
                "save" => {
                    let path = if rest.is_empty() {
                        self.save.clone()
                    } else {
                        Some(rest.into())
                    };
                    match path {
                        Some(p) => self.write_log(&p, out)?,
                        None => writeln!(out, "say where: save FILE")?,
                    }
                }
                "undo" => {
                    if self.humans() != 1 {
                        writeln!(out, "undo works in games against agents only")?;
                        continue;
                    }
                    // Take back everything since this person's previous move.
                    let me = self.seat_name(seat).to_string();
                    let Some(pos) = self
                        .log
                        .actions
                        .iter()
                        .rposition(|a| a.seat.as_deref() == Some(me.as_str()))
                    else {
                        writeln!(out, "there is nothing of yours to undo")?;
                        continue;
                    };
                    if pos < self.undo_floor {
                        let shown = &self.log.actions[self.undo_floor - 1];
                        let what = match &shown.seat {
                            Some(who) if *who == me => format!("your move `{}`", shown.action),
                            Some(who) => format!("{who}'s move"),
                            None => "a move".into(),
                        };
                        writeln!(
                            out,
                            "cannot undo: {what} has shown you hidden cards or pieces since, and undo never takes back what you have seen"
                        )?;
                        continue;
                    }
                    self.log.actions.truncate(pos);
                    match replay_log(engine, &self.log, |_, _| {}) {
                        Ok(s) => {
                            *state = s;
                            writeln!(out, "took back your last move")?;
                            return self.prompt_after_undo(state, seat, input, out);
                        }
                        Err(e) => writeln!(out, "cannot undo: {}", e.reason)?,
                    }
                }
                _ => {
                    if let Ok(n) = line.parse::<usize>() {
                        if n >= 1 && n <= legal.len() {
                            return Ok(Some(legal[n - 1].clone()));
                        }
                        writeln!(out, "there is no move {n}: choose 1 to {}", legal.len())?;
                        continue;
                    }
                    let line = expand_action_name(engine, state, legal, line);
                    let refused = match engine.parse_action(state, &line) {
                        Ok(a) if legal.contains(&a) => return Ok(Some(a)),
                        Ok(a) => {
                            let why = engine
                                .why_illegal(state, &a)
                                .unwrap_or_else(|| "it is not legal now".into());
                            format!("illegal: {why} (type `moves` to list the legal moves)")
                        }
                        Err(e) => format!("cannot read that: {e}"),
                    };
                    writeln!(out, "{refused}")?;
                    if !self.queued.1.is_empty() {
                        let n = self.queued.1.len();
                        self.queued.1.clear();
                        writeln!(out, "(the {n} move(s) typed after it were not played)")?;
                    }
                }
            }
        }
    }

    /// Whether moves typed ahead wait to be played by `seat`.
    fn typed_ahead(&self, seat: u8) -> bool {
        self.queued.0 == seat && !self.queued.1.is_empty()
    }

    fn prompt_after_undo(
        &mut self,
        state: &mut State,
        seat: u8,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
    ) -> std::io::Result<Option<crate::engine::Action>> {
        self.show(state, seat, out)?;
        let legal = self.engine.legal_actions(state);
        self.prompt(state, seat, &legal, input, out)
    }
}

/// A move whose first word is the start of exactly one action name on offer, with that
/// name written whole (`mo a1 b2` for `move a1 b2`); any other text unchanged.
fn expand_action_name(
    engine: &Engine,
    state: &State,
    legal: &[crate::engine::Action],
    line: &str,
) -> String {
    let (first, rest) = line.split_once(' ').unwrap_or((line, ""));
    let mut names: Vec<String> = legal
        .iter()
        .map(|a| {
            let t = engine.action_text(state, a);
            t.split(' ').next().unwrap_or("").to_string()
        })
        .collect();
    names.sort();
    names.dedup();
    if names.iter().any(|n| n == first) {
        return line.to_string();
    }
    let starting: Vec<&String> = names.iter().filter(|n| n.starts_with(first)).collect();
    match starting[..] {
        [name] if rest.is_empty() => name.clone(),
        [name] => format!("{name} {rest}"),
        _ => line.to_string(),
    }
}
