//! The `muster` command line: one module per subcommand. `main.rs` only calls [`main`].

mod bench;
mod board;
mod dump;
mod log;
mod lsp;
mod moves;
mod perft;
mod play;
mod replay;
mod report;
mod simulate;
mod test;
mod validate;

pub use board::{legend, render_view, render_view_styled, seat_colour};
pub use log::{GameLog, LogEntry};

use crate::check::{self, Compiled};
use crate::engine::Engine;
use clap::{Parser, Subcommand};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Exit codes, the same for every subcommand (the table is in README.md): all well,
/// invalid input (a rules file refused by the checker or failing in play, a saved game
/// that does not read or replay), and usage or I/O errors.
pub const EXIT_OK: i32 = 0;
pub const EXIT_INVALID: i32 = 1;
pub const EXIT_USAGE: i32 = 2;
/// A panic: a bug in Muster, never meant to happen (the code an unwound panic gives).
pub const EXIT_PANIC: i32 = 101;

/// The exit code for an error that ended a game in `play`: a rules error or a refused
/// action is invalid input; anything else (the terminal went away) an I/O error.
fn exit_code_of(e: &std::io::Error) -> i32 {
    match e.get_ref() {
        Some(x) if x.is::<crate::engine::EngineError>() || x.is::<InvalidInput>() => EXIT_INVALID,
        _ => EXIT_USAGE,
    }
}

/// Input that cannot be used, other than a rules file: a saved game that does not replay.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct InvalidInput(pub String);

#[derive(Parser, Debug)]
#[command(
    name = "muster",
    version,
    about = "Check and play board and card games written as rules files"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// Options shared by every command that starts a game.
#[derive(clap::Args, Debug, Clone)]
pub struct GameOpts {
    /// A variant declared in the rules file, or several applied in order: `--variant a,b`
    /// (an error names any two that change the same declaration).
    #[arg(long, value_name = "NAME[,NAME...]", value_parser = variant_list)]
    pub variant: Option<String>,
    /// How many players (for games with a range of player counts).
    #[arg(long)]
    pub players: Option<u8>,
    /// The seed of every random choice (shuffles, dice, random agents). `play` picks a
    /// fresh one when none is given, and prints it; the other commands use 1.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Stop the game after this many turns (default: the game's own `max_turns` for games
    /// among agents; no cap at all when a person plays a seat). At most `MAX_TURNS`,
    /// 1,000,000. Search agents' playouts stop at this cap too.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=crate::check::MAX_TURNS as i64))]
    pub max_turns: Option<u32>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Parse and check rules files, printing every diagnostic.
    Validate {
        #[arg(required = true)]
        /// The rules files to check (`-` reads one from the standard input).
        files: Vec<PathBuf>,
        /// `text` (default) or `json` (one object per diagnostic, on stdout).
        #[arg(long, default_value = "text")]
        format: String,
        /// Also check these variants applied together, in order: `--variant a,b`. (The
        /// base game and each variant alone are always checked.)
        #[arg(long, value_name = "NAME[,NAME...]", value_parser = variant_list)]
        variant: Option<String>,
    },
    /// Play in the terminal: people at the prompt, agents for the other seats.
    Play {
        /// The rules file.
        file: PathBuf,
        #[command(flatten)]
        game: GameOpts,
        /// One agent per seat, e.g. `human,mcts` (default: seat 1 human, the rest `ismcts`
        /// thinking `--think` milliseconds a move).
        #[arg(long)]
        agents: Option<String>,
        /// How long the default agent thinks per move, in milliseconds: more is stronger.
        #[arg(long, default_value_t = 1000)]
        think: u64,
        /// Write the game's log here as it goes (and at the end).
        #[arg(long)]
        save: Option<PathBuf>,
        /// Show everything, hidden cards included (debugging, watching agents).
        #[arg(long)]
        reveal: bool,
        /// Go on with a saved game (its rules variant, players and seed), saving to it.
        #[arg(long, value_name = "LOG", conflicts_with_all = ["variant", "players", "seed"])]
        resume: Option<PathBuf>,
    },
    /// Replay a saved game and print the final position.
    Replay {
        /// The rules file the game was played under.
        file: PathBuf,
        /// The saved game (written by `play --save`).
        log: PathBuf,
        /// Print every position, not only the last.
        #[arg(long)]
        verbose: bool,
        #[command(flatten)]
        view: replay::ViewOpts,
    },
    /// Print the legal actions at the start, or after a log.
    Moves {
        /// The rules file.
        file: PathBuf,
        /// List the actions after this saved game, instead of at the start.
        #[arg(long)]
        log: Option<PathBuf>,
        #[command(flatten)]
        game: GameOpts,
        #[command(flatten)]
        view: replay::ViewOpts,
    },
    /// Print the lowered IR as RON.
    Dump {
        /// The rules file.
        file: PathBuf,
        /// Dump this variant of the game instead of the base game (or several applied in
        /// order: `--variant a,b`).
        #[arg(long, value_name = "NAME[,NAME...]", value_parser = variant_list)]
        variant: Option<String>,
    },
    /// Play many games between agents and report the results.
    Simulate {
        /// The rules file.
        file: PathBuf,
        /// How many games to play.
        #[arg(long, default_value_t = 100)]
        games: u32,
        /// One agent per seat, e.g. `mcts,random` (default: random everywhere). Agents:
        /// random, greedy, mcts, ismcts; `mcts:N` searches N iterations a move (give more
        /// than the number of legal moves, or it barely searches).
        #[arg(long)]
        agents: Option<String>,
        #[command(flatten)]
        game: GameOpts,
        /// Worker threads (default, and at most: all cores). Results do not depend on it.
        #[arg(long)]
        jobs: Option<usize>,
        /// Print the report as one JSON object.
        #[arg(long)]
        json: bool,
        /// Also play another rules file, another variant of this one, or (naming this file
        /// with `--variant`) its base game, with the same seeds and agents, and show the two
        /// reports side by side.
        #[arg(long, value_name = "OTHER_FILE_OR_VARIANT")]
        compare: Option<String>,
    },
    /// Serve the Language Server Protocol on stdin and stdout, for editors.
    Lsp,
    /// Run rules scenarios: `*.scenarios` files, or every one in the folders given.
    Test {
        /// Scenario files or folders (searched recursively); default: the current folder.
        paths: Vec<PathBuf>,
        /// `text` (default: each failure located, then a summary, on stderr) or `json`
        /// (one object on stdout).
        #[arg(long, default_value = "text")]
        format: String,
    },
    /// Count the leaves of the legal-action tree (perft), from the start or a saved game.
    Perft {
        /// The rules file.
        file: PathBuf,
        /// How many actions deep.
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(0..=64))]
        depth: u32,
        /// Start from the position at the end of this saved game.
        #[arg(long)]
        log: Option<PathBuf>,
        /// Also print each first action with the leaves below it.
        #[arg(long)]
        divide: bool,
        #[command(flatten)]
        game: GameOpts,
    },
    /// Measure random playouts per second and legal-action queries per second.
    Bench {
        /// The rules file.
        file: PathBuf,
        /// How long each measurement runs, in seconds (0.1 to 600).
        #[arg(long, default_value_t = 3.0, value_parser = positive_seconds)]
        seconds: f64,
        /// Then what each action costs, one thread over as long again: how often it was
        /// asked, its time, its evaluation steps and the actions it found; how often it was
        /// applied, and that time and those steps; its share of all the time
        #[arg(long)]
        by_action: bool,
        /// Then what each clause of each action takes in listing the legal actions, one
        /// thread over as long again: its own evaluation steps (the clauses after it left
        /// out), how often it ran, its share of all the listing steps; the costliest first
        #[arg(long)]
        by_clause: bool,
        #[command(flatten)]
        game: GameOpts,
    },
}

pub fn main() -> i32 {
    report_panics();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { EXIT_OK };
            let _ = e.print();
            return code;
        }
    };
    run(cli)
}

pub fn run(cli: Cli) -> i32 {
    match cli.command {
        Command::Validate {
            files,
            format,
            variant,
        } => validate::run(&files, &format, variant.as_deref()),
        Command::Play {
            file,
            game,
            agents,
            think,
            save,
            reveal,
            resume,
        } => play::run(
            &file,
            &game,
            agents.as_deref(),
            think,
            save.as_deref(),
            reveal,
            resume.as_deref(),
        ),
        Command::Replay {
            file,
            log,
            verbose,
            view,
        } => replay::run(&file, &log, verbose, &view),
        Command::Moves {
            file,
            log,
            game,
            view,
        } => moves::run(&file, log.as_deref(), &game, &view),
        Command::Dump { file, variant } => dump::run(&file, variant.as_deref()),
        Command::Test { paths, format } => test::run(&paths, &format),
        Command::Perft {
            file,
            depth,
            log,
            divide,
            game,
        } => perft::run(&file, depth, log.as_deref(), divide, &game),
        Command::Simulate {
            file,
            games,
            agents,
            game,
            jobs,
            json,
            compare,
        } => simulate::run(
            &file,
            games,
            agents.as_deref(),
            &game,
            jobs,
            json,
            compare.as_deref(),
        ),
        Command::Bench {
            file,
            seconds,
            by_action,
            by_clause,
            game,
        } => bench::run(
            &file,
            seconds,
            bench::By {
                action: by_action,
                clause: by_clause,
            },
            &game,
        ),
        Command::Lsp => lsp::run(),
    }
}

/// Output piped into a program that stops reading (`muster moves ... | head`) ends the
/// command quietly with `EXIT_OK`, as a Unix filter does, instead of a panic from
/// `println!` on the closed pipe. Every other panic is reported as before, and ends the
/// program with `EXIT_PANIC`, the code an unwound panic gives: the release build aborts on
/// a panic (Cargo.toml), which would otherwise end it with a signal.
fn report_panics() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if text.starts_with("failed printing to stdout") && text.contains("Broken pipe") {
            std::process::exit(EXIT_OK);
        }
        default(info);
        std::process::exit(EXIT_PANIC);
    }));
}

/// Reads `--seconds`: a finite number of seconds above zero.
pub fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(format!("`{text}` is not a number of seconds above 0")),
    }
}

/// The worker threads `simulate` uses: the number asked for (all cores by default), at
/// most the cores there are and the games to play, at least one. More threads than cores
/// would only slow the games down; results never depend on it.
pub fn worker_threads(asked: Option<usize>, games: u32) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let asked = match asked {
        None | Some(0) => cores,
        Some(n) => n,
    };
    asked.min(cores).min(games.max(1) as usize).max(1)
}

/// The widest a column of a table or the board is padded to: names longer than this
/// overflow their column (Rust's formatter cannot pad to more than 65,535 characters).
pub const MAX_COLUMN: usize = 200;

/// Whether to colour output on stderr.
pub fn colour_stderr() -> bool {
    std::env::var_os("NO_COLOR").is_none() && std::io::stderr().is_terminal()
}

/// Diagnostics as the terminal on stderr shows them, as rustc does: in colour (unless
/// `NO_COLOR`) and wrapped at the terminal's width; piped or redirected, plain text at 100
/// columns.
pub fn render_for_stderr(
    sources: &crate::diagnostic::Sources,
    diags: &[crate::diagnostic::Diagnostic],
) -> String {
    let width = if std::io::stderr().is_terminal() {
        terminal_size::terminal_size_of(std::io::stderr()).map_or(100, |(w, _)| w.0 as usize)
    } else {
        100
    };
    crate::diagnostic::render_width(sources, diags, colour_stderr(), width)
}

/// `--variant a, b` as the checker and saved games write it, `a,b`; an empty name is
/// refused.
fn variant_list(text: &str) -> Result<String, String> {
    let names: Vec<&str> = text.split(',').map(str::trim).collect();
    if names.iter().any(|n| n.is_empty()) {
        return Err(format!(
            "`{text}` has an empty variant name; give one name, or several separated by \
             commas: `a,b`"
        ));
    }
    Ok(names.join(","))
}

/// Compiles a rules file, printing diagnostics on failure; `Err` holds the exit code.
pub fn load(path: &Path, variant: Option<&str>) -> Result<Compiled, i32> {
    match check::compile_file(path, variant) {
        Ok(c) => Ok(c),
        Err(failed) => {
            eprint!(
                "{}",
                render_for_stderr(&failed.sources, &failed.diagnostics)
            );
            let io = failed.diagnostics.iter().any(|d| d.code == "muster::io");
            let variant_missing = failed.diagnostics.iter().any(|d| {
                d.code == "muster::unknown-variant" || d.code == "muster::variant-conflict"
            });
            Err(if io || variant_missing {
                EXIT_USAGE
            } else {
                EXIT_INVALID
            })
        }
    }
}

/// The player count to use: the one asked for, or the game's smallest.
pub fn player_count(engine: &Engine, asked: Option<u8>) -> Result<u8, i32> {
    let g = &engine.game;
    match asked {
        None => Ok(g.min_players),
        Some(n) if n >= g.min_players && n <= g.max_players => Ok(n),
        Some(n) => {
            let range = if g.min_players == g.max_players {
                format!("{}", g.min_players)
            } else {
                format!("{} to {}", g.min_players, g.max_players)
            };
            eprintln!("error: {} is for {range} players, not {n}", g.title);
            Err(EXIT_USAGE)
        }
    }
}

/// Builds the engine for a game, applying `--max-turns`.
pub fn engine_for(mut compiled: Compiled, max_turns: Option<u32>) -> Arc<Engine> {
    if let Some(m) = max_turns {
        compiled.game.max_turns = m;
    }
    Arc::new(Engine::new(compiled.game))
}

/// Splits `--agents a,b,...` into one name per seat, checking each name.
pub fn agent_list(
    spec: Option<&str>,
    players: u8,
    default: impl Fn(u8) -> String,
) -> Result<Vec<String>, i32> {
    let names: Vec<String> = match spec {
        None => (0..players).map(default).collect(),
        Some(s) => s.split(',').map(|x| x.trim().to_lowercase()).collect(),
    };
    if names.len() != players as usize {
        eprintln!(
            "error: --agents gives {} agent(s) but the game has {players} seats",
            names.len()
        );
        return Err(EXIT_USAGE);
    }
    for n in &names {
        if n != "human" && !crate::agents::is_agent_name(n) {
            eprintln!(
                "error: unknown agent `{n}`; known agents: human, {} (search agents take a \
                 budget: `mcts:2000` iterations, `mcts:500ms` thinking time)",
                crate::agents::AGENT_NAMES.join(", ")
            );
            return Err(EXIT_USAGE);
        }
    }
    Ok(names)
}

/// The result of a game in words.
pub fn outcome_text(engine: &Engine, outcome: Option<&crate::engine::Outcome>) -> String {
    use crate::engine::Outcome;
    let name = |s: &u8| engine.game.seats[*s as usize].name.clone();
    match outcome {
        Some(Outcome::Win(w)) if w.len() == 1 => format!("{} wins", name(&w[0])),
        Some(Outcome::Win(w)) => format!(
            "{} share the win",
            w.iter().map(name).collect::<Vec<_>>().join(", ")
        ),
        Some(Outcome::Draw) => "a draw".into(),
        Some(Outcome::Capped) => "stopped by the length cap (no result)".into(),
        None => "still in play".into(),
    }
}

/// The common start of every command that plays: compile (with the variant), apply
/// `--max-turns`, and settle the player count. `Err` holds the exit code.
impl GameOpts {
    /// The seed asked for, or 1: simulations and benchmarks repeat unless told otherwise.
    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or(1)
    }
}

pub fn prepare(file: &Path, opts: &GameOpts) -> Result<(Arc<Engine>, u8), i32> {
    let compiled = load(file, opts.variant.as_deref())?;
    let engine = engine_for(compiled, opts.max_turns);
    let players = player_count(&engine, opts.players)?;
    Ok((engine, players))
}
