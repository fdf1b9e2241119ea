//! `muster play`: text play in the terminal. People type moves in notation or by number;
//! agents take the other seats. Each person sees only its own seat's view.

use super::log::{content_hash, GameLog, LogEntry};
use super::replay::replay_log;
use super::{agent_list, outcome_text, render_view, GameOpts, EXIT_OK};
use crate::agents::{self, Agent};
use crate::engine::{Engine, State};
use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;

const HELP: &str = "Enter a move in notation (e.g. as listed by `moves`) or its number.
Commands: moves (list legal moves), board (show the position), undo (take back your last move
against agents), save [FILE] (write the game log), help, quit.";

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
}

pub fn run(
    file: &Path,
    opts: &GameOpts,
    agents_spec: Option<&str>,
    think: u64,
    save: Option<&Path>,
    reveal: bool,
) -> i32 {
    let rules_text = crate::check::read_text(file).unwrap_or_default();
    let (engine, players) = match super::prepare(file, opts) {
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
                    agents::by_name(n, &engine, opts.seed.wrapping_add(1 + i as u64))
                        .expect("checked name"),
                )
            }
        })
        .collect();
    let log = GameLog {
        rules: file
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default(),
        hash: Some(content_hash(&rules_text)),
        variant: opts.variant.clone(),
        players: Some(players),
        seed: opts.seed,
        actions: vec![],
    };
    let mut session = Session {
        engine: &engine,
        seats,
        log,
        save: save.map(Path::to_path_buf),
        reveal,
        clear_screen: std::io::stdout().is_terminal(),
        colour: std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    match session.play(&mut stdin.lock(), &mut stdout.lock()) {
        Ok(()) => EXIT_OK,
        Err(e) => {
            eprintln!("error: {e}");
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
        writeln!(
            out,
            "{}",
            super::render_view_styled(self.engine, &view, self.colour)
        )
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
        let mut state = engine
            .start(
                self.log.players.unwrap_or(engine.game.min_players),
                self.log.seed,
            )
            .map_err(std::io::Error::other)?;
        let mut last_human: Option<u8> = None;
        if let Some(l) = super::legend(engine) {
            writeln!(out, "Legend: {l}")?;
        }
        while let Some(seat) = engine.decider(&state) {
            let legal = engine
                .try_legal_actions(&state)
                .map_err(std::io::Error::other)?;
            let chosen = match &mut self.seats[seat as usize] {
                Seat::Agent(agent) => {
                    let view = engine.view(&state, seat);
                    let i = agent.choose(&view, &legal);
                    let text = engine.action_text(&state, &legal[i]);
                    writeln!(
                        out,
                        "{} plays {text}",
                        engine.game.seats[seat as usize].name
                    )?;
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
                    self.show(&state, seat, out)?;
                    match self.prompt(&mut state, seat, &legal, input, out)? {
                        Some(a) => a,
                        None => return self.finish(&state, out, true),
                    }
                }
            };
            let text = engine.action_text(&state, &chosen);
            engine
                .apply(&mut state, &chosen)
                .map_err(std::io::Error::other)?;
            self.log.actions.push(LogEntry {
                seat: Some(engine.game.seats[seat as usize].name.clone()),
                action: text,
                line: 0,
            });
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
        loop {
            write!(out, "{}> ", self.seat_name(seat))?;
            out.flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                writeln!(out)?;
                return Ok(None);
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
                    match engine.parse_action(state, line) {
                        Ok(a) if legal.contains(&a) => return Ok(Some(a)),
                        Ok(a) => {
                            let why = engine
                                .why_illegal(state, &a)
                                .unwrap_or_else(|| "it is not legal now".into());
                            writeln!(out, "illegal: {why} (type `moves` to list the legal moves)")?;
                        }
                        Err(e) => writeln!(out, "cannot read that: {e}")?,
                    }
                }
            }
        }
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
