//! `muster simulate`: many games between agents, in parallel, with a report a designer can
//! decide from. Results depend only on the seed, never on `--jobs`. With `--compare`, a
//! second rules file or variant (or, naming the same file with `--variant`, the base game)
//! plays the same seeds and the two reports show side by side.

use super::{agent_list, GameOpts, EXIT_INVALID, EXIT_OK, EXIT_USAGE};
use crate::agents;
use crate::engine::{Action, Engine, Outcome, Playout, State};
use rayon::prelude::*;
use std::io::IsTerminal;
use std::path::Path;
use std::sync::Arc;

/// What one simulated game came to.
#[derive(Clone, Debug)]
pub struct GameResult {
    pub outcome: Outcome,
    pub turns: u32,
    /// The seat that made the game's first decision.
    pub first: Option<u8>,
    /// Per phase (by phase id): decisions taken, and legal actions summed over them.
    pub decisions: Vec<u64>,
    pub branching: Vec<u64>,
    /// How often each action was taken (by action id; the last two are `skip` and `done`).
    pub action_counts: Vec<u64>,
    /// Each seat's declared score at the end, if the rules declare one.
    pub scores: Option<Vec<i64>>,
}

/// The seed of game `i` of a run seeded with `base` (SplitMix64, so nearby seeds differ).
pub fn game_seed(base: u64, i: u64) -> u64 {
    let mut z = base.wrapping_add(i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A game that failed: why, and the actions taken up to and including the one that
/// failed, so that the game can be replayed.
#[derive(Debug)]
pub struct Failure {
    pub reason: String,
    pub actions: Vec<Action>,
}

impl Failure {
    /// A game that failed for `reason` after `actions` (the last among them, if it failed
    /// in one).
    fn after(reason: impl Into<String>, actions: Vec<Action>) -> Failure {
        Failure {
            reason: reason.into(),
            actions,
        }
    }
}

impl From<String> for Failure {
    fn from(reason: String) -> Failure {
        Failure::after(reason, vec![])
    }
}

/// The actions of the game `engine` plays for `players` from `seed` when each decision
/// takes the listed action `chosen` gives for it: found again by playing the game again,
/// which the same rules, seed and choices make the same game. A game keeps only its
/// choices as it is played (a number each), and the actions are found only for a game
/// that failed, up to and including the one that failed.
fn replayed(engine: &Engine, players: u8, seed: u64, chosen: &[u32]) -> Vec<Action> {
    let mut out = Vec::with_capacity(chosen.len());
    let Ok(mut s) = engine.start(players, seed) else {
        return out;
    };
    for &i in chosen {
        let Some(a) = engine
            .try_legal_actions(&s)
            .ok()
            .and_then(|legal| legal.into_iter().nth(i as usize))
        else {
            break;
        };
        let applied = engine.apply_listed(&mut s, &a);
        out.push(a);
        if applied.is_err() {
            break;
        }
    }
    out
}

/// What one worker keeps from game to game, so that a game after the first makes no new
/// storage for them: the playout's two buffers of legal actions (with the lists their
/// arguments hold), the record of the choices made (each the place of the action taken
/// among those listed: see `replayed`), and the last game's state (the next starts in
/// its storage: `Engine::start_reusing`).
#[derive(Default)]
pub struct Kept {
    playout: Playout,
    taken: Vec<u32>,
    state: Option<State>,
}

/// Plays one game between the named agents, in the storage `kept` from the last.
pub fn play_one(
    engine: &Arc<Engine>,
    names: &[String],
    players: u8,
    seed: u64,
    kept: &mut Kept,
) -> Result<GameResult, Failure> {
    let mut state = engine
        .start_reusing(players, seed, kept.state.take())
        .map_err(|e| e.to_string())?;
    let mut seats: Vec<Box<dyn agents::Agent>> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            agents::by_name(n, engine, agents::agent_seed(seed, i))
                .ok_or_else(|| format!("unknown agent `{n}`"))
        })
        .collect::<Result<_, _>>()?;
    // The choices made, in the worker's storage from its last game.
    let Kept { playout, taken, .. } = kept;
    taken.clear();
    let failed = |reason: String, taken: &[u32]| {
        Failure::after(reason, replayed(engine, players, seed, taken))
    };
    let n_actions = engine.game.actions.len();
    let n_phases = engine.game.phases.len();
    let mut r = GameResult {
        outcome: Outcome::Capped,
        turns: 0,
        first: engine.decider(&state),
        decisions: vec![0; n_phases],
        branching: vec![0; n_phases],
        action_counts: vec![0; n_actions + 2],
        scores: None,
    };
    // The next decision's actions are listed as the action before is applied, where the
    // engine can (`Playout`).
    playout.restart();
    while let Some(seat) = engine.decider(&state) {
        let legal = match playout.legal(engine, &state) {
            Ok(legal) => legal,
            Err(e) => return Err(failed(e.to_string(), taken)),
        };
        if legal.is_empty() {
            return Err(failed(
                "the decider has no legal action but the game is not over".into(),
                taken,
            ));
        }
        let phase = state.phase as usize;
        r.decisions[phase] += 1;
        r.branching[phase] += legal.len() as u64;
        let i = seats[seat as usize].choose_lazily(&|| engine.view(&state, seat), legal);
        let Some(a) = legal.get(i) else {
            let reason = format!("agent `{}` chose no listed action", names[seat as usize]);
            return Err(failed(reason, taken));
        };
        let k = if (a.action as usize) < n_actions {
            a.action as usize
        } else if a.action == crate::engine::SKIP_ACTION {
            n_actions
        } else {
            n_actions + 1
        };
        r.action_counts[k] += 1;
        taken.push(i as u32);
        if let Err(e) = playout.apply(engine, &mut state, i, None) {
            return Err(failed(e.to_string(), taken));
        }
    }
    r.turns = state.turns;
    r.outcome = state.outcome.clone().unwrap_or(Outcome::Capped);
    r.scores = (0..players)
        .map(|p| engine.score(&state, p))
        .collect::<Option<Vec<i64>>>();
    kept.state = Some(state);
    Ok(r)
}

/// The 95% Wilson interval of a proportion.
fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 0.0);
    }
    let (z, n, p) = (1.96f64, n as f64, k as f64 / n as f64);
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / d;
    ((c - h).max(0.0), (c + h).min(1.0))
}

/// Mean and the half-width of its 95% confidence interval (normal approximation).
fn mean_ci(xs: &[f64]) -> (f64, f64) {
    if xs.is_empty() {
        return (0.0, 0.0);
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, 0.0);
    }
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    (mean, 1.96 * (var / n).sqrt())
}

/// Plays `games` games on a worker pool; the results are in game order.
#[allow(clippy::too_many_arguments)]
fn play_all(
    engine: &Arc<Engine>,
    names: &[String],
    players: u8,
    games: u32,
    seed: u64,
    pool: &rayon::ThreadPool,
    label: &str,
    played: Played,
) -> Result<(Vec<GameResult>, f64), i32> {
    let bar = if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(games as u64);
        if !label.is_empty() {
            bar.set_message(label.to_string());
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "{msg} [{elapsed_precise}] {wide_bar} {pos}/{len} games (eta {eta})",
            ) {
                bar.set_style(style);
            }
        }
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let started = std::time::Instant::now();
    let results: Vec<Result<GameResult, Failure>> = pool.install(|| {
        (0..games as u64)
            .into_par_iter()
            .map_init(Kept::default, |kept, i| {
                let r = play_one(engine, names, players, game_seed(seed, i), kept);
                bar.inc(1);
                r
            })
            .collect()
    });
    bar.finish_and_clear();
    let elapsed = started.elapsed().as_secs_f64();
    let mut ok = Vec::new();
    for (i, r) in results.into_iter().enumerate() {
        match r {
            Ok(g) => ok.push(g),
            Err(f) => {
                let s = game_seed(seed, i as u64);
                eprintln!("error: game {} (seed {s}) failed: {}", i + 1, f.reason);
                played.explain(engine, names, players, s, &f);
                return Err(EXIT_INVALID);
            }
        }
    }
    Ok((ok, elapsed))
}

/// How the games were played, to tell how to play a failing one again.
#[derive(Clone, Copy)]
struct Played<'a> {
    file: &'a Path,
    opts: &'a GameOpts,
}

impl Played<'_> {
    /// Writes the failing game's log (every action up to the one that failed) to a
    /// temporary file and prints the commands that play it again.
    fn explain(&self, engine: &Engine, names: &[String], players: u8, seed: u64, f: &Failure) {
        let file = self.file.display();
        let Ok(mut s) = engine.start(players, seed) else {
            // It failed at the start: the seed is all there is.
            let mut flags = format!("--seed {seed} --players {players}");
            if let Some(v) = &self.opts.variant {
                flags.push_str(&format!(" --variant {v}"));
            }
            eprintln!("  to see it again: muster moves {file} {flags}");
            return;
        };
        let rules_text = crate::check::read_text(self.file).unwrap_or_default();
        let mut log = super::GameLog {
            rules: self
                .file
                .file_name()
                .map(|x| x.to_string_lossy().into_owned())
                .unwrap_or_default(),
            hash: Some(super::log::content_hash(&rules_text)),
            variant: self.opts.variant.clone(),
            players: Some(players),
            seed,
            max_turns: Some(engine.game.max_turns),
            actions: vec![],
        };
        for a in &f.actions {
            let seat = engine.decider(&s).unwrap_or(0);
            log.actions.push(super::LogEntry {
                seat: Some(engine.game.seats[seat as usize].name.clone()),
                action: engine.action_text(&s, a),
                line: 0,
            });
            if engine.apply_listed(&mut s, a).is_err() {
                break;
            }
        }
        let path = std::env::temp_dir().join(format!("muster-failed-game-{seed}.log"));
        if std::fs::write(&path, log.to_text()).is_ok() {
            eprintln!(
                "  to see it again, replay its {} action(s): muster replay {file} {}",
                log.actions.len(),
                path.display()
            );
        }
        // The agents are seeded from the game's seed as `play` seeds them.
        let mut flags = format!(
            "--seed {seed} --players {players} --agents {}",
            names.join(",")
        );
        if let Some(v) = &self.opts.variant {
            flags.push_str(&format!(" --variant {v}"));
        }
        eprintln!("  or watch the agents play it again: muster play {file} {flags}");
    }
}

/// The other side of a comparison: its rules file and options, and whether it is the base
/// game of the file being simulated (with `--variant` given on the command line).
struct Target {
    file: std::path::PathBuf,
    opts: GameOpts,
    base: bool,
}

/// What `--compare` names: another rules file, or a variant of the same file. Naming the
/// rules file being simulated while `--variant` is given compares that variant with the
/// base game. A comparison whose two sides would be the same game is refused, with the
/// reason and how to write what was probably meant.
fn compare_target(file: &Path, other: &str, opts: &GameOpts) -> Result<Target, String> {
    let as_path = Path::new(other);
    if as_path.is_file() {
        if !same_file(file, as_path) {
            return Ok(Target {
                file: as_path.to_path_buf(),
                opts: opts.clone(),
                base: false,
            });
        }
        if opts.variant.is_none() {
            return Err(format!(
                "--compare {other} names the rules file being simulated, without a variant: \
                 both sides would play the same games\n  to compare the base game with a \
                 variant, write `--compare NAME`; to compare a variant with the base game, \
                 `--variant NAME --compare {other}`"
            ));
        }
        let mut o = opts.clone();
        o.variant = None;
        return Ok(Target {
            file: file.to_path_buf(),
            opts: o,
            base: true,
        });
    }
    if opts.variant.as_deref() == Some(other) {
        return Err(format!(
            "--compare {other} names the variant being simulated (--variant {other}): both \
             sides would play the same games\n  to compare it with the base game, write \
             `--variant {other} --compare {}`; with another variant, `--compare OTHER`",
            file.display()
        ));
    }
    let mut o = opts.clone();
    o.variant = Some(other.to_string());
    Ok(Target {
        file: file.to_path_buf(),
        opts: o,
        base: false,
    })
}

/// Whether two paths name the same file, however they are written.
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

#[allow(clippy::too_many_arguments)]
pub fn run(
    file: &Path,
    games: u32,
    agents_spec: Option<&str>,
    opts: &GameOpts,
    jobs: Option<usize>,
    json: bool,
    compare: Option<&str>,
) -> i32 {
    let (engine, players) = match super::prepare(file, opts) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let other = match compare {
        None => None,
        Some(c) => {
            let t = match compare_target(file, c, opts) {
                Ok(t) => t,
                Err(why) => {
                    eprintln!("error: {why}");
                    return EXIT_USAGE;
                }
            };
            let what = match &opts.variant {
                Some(v) if t.base => format!(
                    "{} [base game, without variant {v}]",
                    describe(&t.file, &t.opts)
                ),
                _ => describe(&t.file, &t.opts),
            };
            match super::prepare(&t.file, &t.opts) {
                Ok((e, p)) if p == players => Some((e, what, t.file, t.opts)),
                Ok(_) => {
                    eprintln!(
                        "error: the games compared must seat the same players: give --players"
                    );
                    return EXIT_USAGE;
                }
                Err(code) => return code,
            }
        }
    };
    let names = match agent_list(agents_spec, players, |_| "random".into()) {
        Ok(n) => n,
        Err(code) => return code,
    };
    if names.iter().any(|n| n == "human") {
        eprintln!("error: simulate plays agents only; `human` cannot be one of them");
        return EXIT_USAGE;
    }
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(super::worker_threads(jobs, games))
        .build()
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: cannot start worker threads: {e}");
            return EXIT_USAGE;
        }
    };
    let here = describe(file, opts);
    let label = if other.is_some() { here.as_str() } else { "" };
    let played = Played { file, opts };
    let (ok, elapsed) = match play_all(
        &engine,
        &names,
        players,
        games,
        opts.seed(),
        &pool,
        label,
        played,
    ) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let report = Report {
        engine: &engine,
        what: here.clone(),
        names: &names,
        players,
        seed: opts.seed(),
        games: &ok,
        elapsed,
    };
    let Some((other_engine, there, other_file, other_opts)) = other else {
        if json {
            println!(
                "{}",
                serde_json::to_string_pretty(&report.json()).unwrap_or_default()
            );
        } else {
            print!("{}", report.text());
        }
        return EXIT_OK;
    };
    let (ok2, elapsed2) = match play_all(
        &other_engine,
        &names,
        players,
        games,
        opts.seed(),
        &pool,
        &there,
        Played {
            file: &other_file,
            opts: &other_opts,
        },
    ) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let report2 = Report {
        engine: &other_engine,
        what: there,
        names: &names,
        players,
        seed: opts.seed(),
        games: &ok2,
        elapsed: elapsed2,
    };
    if json {
        let v = serde_json::json!({
            "base": report.json(),
            "compare": report2.json(),
            "differences": differences(&report, &report2)
                .into_iter()
                .map(|(k, a, b)| (k, serde_json::json!({ "base": a, "compare": b, "difference": b.zip(a).map(|(b, a)| b - a) })))
                .collect::<serde_json::Map<_, _>>(),
        });
        println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
    } else {
        print!("{}", side_by_side(&report, &report2));
    }
    EXIT_OK
}

/// A rules file and variant in words: `my_game.muster`, `my_game.muster [variant x]`.
fn describe(file: &Path, opts: &GameOpts) -> String {
    let name = file
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_else(|| file.display().to_string());
    match &opts.variant {
        Some(v) => format!("{name} [variant {v}]"),
        None => name,
    }
}

struct Report<'a> {
    engine: &'a Engine,
    /// The rules file and variant.
    what: String,
    names: &'a [String],
    players: u8,
    seed: u64,
    games: &'a [GameResult],
    elapsed: f64,
}

impl Report<'_> {
    fn n(&self) -> u64 {
        self.games.len() as u64
    }
    fn count(&self, f: impl Fn(&GameResult) -> bool) -> u64 {
        self.games.iter().filter(|g| f(g)).count() as u64
    }
    fn wins(&self, seat: u8) -> u64 {
        self.count(|g| matches!(&g.outcome, Outcome::Win(w) if w.contains(&seat)))
    }
    fn losses(&self, seat: u8) -> u64 {
        self.count(|g| matches!(&g.outcome, Outcome::Win(w) if !w.contains(&seat)))
    }
    fn draws(&self) -> u64 {
        self.count(|g| g.outcome == Outcome::Draw)
    }
    fn capped(&self) -> u64 {
        self.count(|g| g.outcome == Outcome::Capped)
    }
    /// The seat that decides first in every game, if it is always the same.
    fn first_seat(&self) -> Option<u8> {
        let first = self.games.first()?.first?;
        self.games
            .iter()
            .all(|g| g.first == Some(first))
            .then_some(first)
    }
    /// Games the first decider won, and games with a first decider.
    fn first_player_wins(&self) -> (u64, u64) {
        let with = self.count(|g| g.first.is_some());
        let won = self.count(|g| match (&g.outcome, g.first) {
            (Outcome::Win(w), Some(f)) => w.contains(&f),
            _ => false,
        });
        (won, with)
    }
    fn mean_score(&self, seat: u8) -> Option<(f64, f64)> {
        let xs: Option<Vec<f64>> = self
            .games
            .iter()
            .map(|g| g.scores.as_ref().map(|s| s[seat as usize] as f64))
            .collect();
        xs.filter(|x| !x.is_empty()).map(|x| mean_ci(&x))
    }
    /// Mean, standard deviation, median, the 10th and 90th percentiles, minimum, maximum.
    fn lengths(&self) -> Lengths {
        let mut t: Vec<u32> = self.games.iter().map(|g| g.turns).collect();
        t.sort_unstable();
        if t.is_empty() {
            return Lengths::default();
        }
        let xs: Vec<f64> = t.iter().map(|&x| x as f64).collect();
        let n = xs.len() as f64;
        let mean = xs.iter().sum::<f64>() / n;
        let sd = (xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n).sqrt();
        let at = |q: f64| t[((t.len() - 1) as f64 * q).round() as usize];
        Lengths {
            mean,
            sd,
            median: t[t.len() / 2],
            p10: at(0.1),
            p90: at(0.9),
            min: t[0],
            max: t[t.len() - 1],
        }
    }
    /// Mean legal actions per decision, over all phases.
    fn branching(&self) -> f64 {
        let (b, d) = self.games.iter().fold((0u64, 0u64), |(b, d), g| {
            (
                b + g.branching.iter().sum::<u64>(),
                d + g.decisions.iter().sum::<u64>(),
            )
        });
        if d == 0 {
            0.0
        } else {
            b as f64 / d as f64
        }
    }
    /// Per phase that saw decisions: its name, mean legal actions per decision, and mean
    /// decisions per game.
    fn branching_by_phase(&self) -> Vec<(String, f64, f64)> {
        let g = &self.engine.game;
        (0..g.phases.len())
            .filter_map(|p| {
                let d: u64 = self.games.iter().map(|r| r.decisions[p]).sum();
                let b: u64 = self.games.iter().map(|r| r.branching[p]).sum();
                (d > 0).then(|| {
                    (
                        g.phases[p].name.clone(),
                        b as f64 / d as f64,
                        d as f64 / self.n().max(1) as f64,
                    )
                })
            })
            .collect()
    }
    fn action_counts(&self) -> Vec<(String, u64)> {
        let g = &self.engine.game;
        let mut names: Vec<String> = g.actions.iter().map(|a| a.name.clone()).collect();
        names.push("skip".into());
        names.push("done".into());
        let mut counts = vec![0u64; names.len()];
        for r in self.games {
            for (i, c) in r.action_counts.iter().enumerate() {
                counts[i] += c;
            }
        }
        names
            .into_iter()
            .zip(counts)
            .filter(|(_, c)| *c > 0)
            .collect()
    }
    fn seat_name(&self, p: u8) -> &str {
        &self.engine.game.seats[p as usize].name
    }

    fn text(&self) -> String {
        let n = self.n();
        let g = &self.engine.game;
        let mut out = format!(
            "{} ({}): {} games, {} players ({}), seed {}, {:.1}s\n",
            g.title,
            self.what,
            n,
            self.players,
            self.names.join(" vs "),
            self.seed,
            self.elapsed
        );
        // One row per seat: name, agent, wins, losses, mean score; columns padded to fit.
        let rate = |k: u64| {
            let (lo, hi) = wilson(k, n);
            format!(
                "{k} {:.1}% ({:.1}–{:.1}%)",
                pct(k, n),
                lo * 100.0,
                hi * 100.0
            )
        };
        let mut rows = vec![[
            "seat".to_string(),
            "agent".to_string(),
            "wins (95% CI)".to_string(),
            "losses (95% CI)".to_string(),
            if g.end.score.is_some() {
                "mean score (95% CI)".to_string()
            } else {
                String::new()
            },
        ]];
        for p in 0..self.players {
            rows.push([
                self.seat_name(p).to_string(),
                self.names[p as usize].clone(),
                rate(self.wins(p)),
                rate(self.losses(p)),
                match self.mean_score(p) {
                    Some((m, h)) => format!("{m:.1} ({:.1}–{:.1})", m - h, m + h),
                    None => String::new(),
                },
            ]);
        }
        let widths: Vec<usize> = (0..5)
            .map(|i| {
                let w = rows.iter().map(|r| r[i].chars().count()).max();
                w.unwrap_or(0).min(super::MAX_COLUMN)
            })
            .collect();
        for r in &rows {
            let mut line = String::from(" ");
            for (cell, w) in r.iter().zip(&widths) {
                line.push_str(&format!(" {cell:<w$} "));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        let (d, c) = (self.draws(), self.capped());
        out.push_str(&format!(
            "  draws      {:>5} ({:5.1}%)\n  capped     {:>5} ({:5.1}%) — stopped at {} turns, not counted as wins\n",
            d,
            pct(d, n),
            c,
            pct(c, n),
            g.max_turns
        ));
        let (fw, fn_) = self.first_player_wins();
        if fn_ > 0 {
            let (lo, hi) = wilson(fw, fn_);
            let who = match self.first_seat() {
                Some(p) => format!("{} in every game", self.seat_name(p)),
                None => "the seat that decides first".into(),
            };
            out.push_str(&format!(
                "  first      {who}: wins {:.1}% (95% CI {:.1}–{:.1}%), fair share {:.1}%\n",
                pct(fw, fn_),
                lo * 100.0,
                hi * 100.0,
                100.0 / self.players.max(1) as f64
            ));
        }
        let l = self.lengths();
        out.push_str(&format!(
            "  length     mean {:.1} turns (sd {:.1}), median {}, middle 80% {}–{}, range {}–{}\n",
            l.mean, l.sd, l.median, l.p10, l.p90, l.min, l.max
        ));
        let phases: Vec<String> = self
            .branching_by_phase()
            .iter()
            .map(|(p, b, d)| format!("{p} {b:.1} ({d:.1} decisions a game)"))
            .collect();
        out.push_str(&format!(
            "  branching  {:.1} legal actions per decision; by phase: {}\n",
            self.branching(),
            phases.join(", ")
        ));
        let counts = self.action_counts();
        let total: u64 = counts.iter().map(|(_, c)| c).sum();
        let parts: Vec<String> = counts
            .iter()
            .map(|(a, c)| format!("{a} {:.1}%", pct(*c, total)))
            .collect();
        out.push_str(&format!("  actions    {}\n", parts.join(", ")));
        out
    }

    fn json(&self) -> serde_json::Value {
        let n = self.n();
        let g = &self.engine.game;
        let seats: Vec<serde_json::Value> = (0..self.players)
            .map(|p| {
                let (w, l) = (self.wins(p), self.losses(p));
                let (lo, hi) = wilson(w, n);
                let (llo, lhi) = wilson(l, n);
                let mut v = serde_json::json!({
                    "seat": self.seat_name(p),
                    "agent": self.names[p as usize],
                    "wins": w,
                    "win_rate": w as f64 / n.max(1) as f64,
                    "ci95": [lo, hi],
                    "losses": l,
                    "loss_rate": l as f64 / n.max(1) as f64,
                    "loss_ci95": [llo, lhi],
                });
                if let Some((m, h)) = self.mean_score(p) {
                    v["mean_score"] = serde_json::json!(m);
                    v["score_ci95"] = serde_json::json!([m - h, m + h]);
                }
                v
            })
            .collect();
        let l = self.lengths();
        let (fw, fn_) = self.first_player_wins();
        let (flo, fhi) = wilson(fw, fn_);
        serde_json::json!({
            "game": g.title,
            "rules": self.what,
            "variant": g.variant,
            "games": n,
            "players": self.players,
            "seed": self.seed,
            "seats": seats,
            "draws": self.draws(),
            "capped": self.capped(),
            "max_turns": g.max_turns,
            "first_player": {
                "seat": self.first_seat().map(|p| self.seat_name(p).to_string()),
                "games": fn_,
                "wins": fw,
                "win_rate": fw as f64 / fn_.max(1) as f64,
                "ci95": [flo, fhi],
                "fair_share": 1.0 / self.players.max(1) as f64,
            },
            "length": { "mean": l.mean, "sd": l.sd, "median": l.median, "p10": l.p10, "p90": l.p90, "min": l.min, "max": l.max },
            "branching": self.branching(),
            "branching_by_phase": self.branching_by_phase().into_iter().map(|(p, b, d)| (p, serde_json::json!({ "mean": b, "decisions_per_game": d }))).collect::<serde_json::Map<_, _>>(),
            "actions": self.action_counts().into_iter().map(|(a, c)| (a, serde_json::json!(c))).collect::<serde_json::Map<_, _>>(),
            "seconds": self.elapsed,
        })
    }

    /// The figures `--compare` sets side by side: a name, the value, and how to show it.
    fn figures(&self) -> Vec<(String, f64, Shown)> {
        let n = self.n();
        let mut f = Vec::new();
        for p in 0..self.players {
            let name = self.seat_name(p);
            f.push((format!("{name} wins"), pct(self.wins(p), n), Shown::Pct));
            f.push((format!("{name} losses"), pct(self.losses(p), n), Shown::Pct));
            if let Some((m, _)) = self.mean_score(p) {
                f.push((format!("{name} mean score"), m, Shown::Num));
            }
        }
        f.push(("draws".into(), pct(self.draws(), n), Shown::Pct));
        f.push(("capped".into(), pct(self.capped(), n), Shown::Pct));
        let (fw, fn_) = self.first_player_wins();
        f.push(("first player wins".into(), pct(fw, fn_), Shown::Pct));
        let l = self.lengths();
        f.push(("length mean".into(), l.mean, Shown::Num));
        f.push(("length sd".into(), l.sd, Shown::Num));
        f.push(("length median".into(), l.median as f64, Shown::Num));
        f.push(("length p10".into(), l.p10 as f64, Shown::Num));
        f.push(("length p90".into(), l.p90 as f64, Shown::Num));
        f.push(("branching".into(), self.branching(), Shown::Num));
        for (p, b, _) in self.branching_by_phase() {
            f.push((format!("branching in {p}"), b, Shown::Num));
        }
        let counts = self.action_counts();
        let total: u64 = counts.iter().map(|(_, c)| c).sum();
        for (a, c) in counts {
            f.push((format!("action {a}"), pct(c, total), Shown::Pct));
        }
        f
    }
}

#[derive(Default)]
struct Lengths {
    mean: f64,
    sd: f64,
    median: u32,
    p10: u32,
    p90: u32,
    min: u32,
    max: u32,
}

#[derive(Clone, Copy, PartialEq)]
enum Shown {
    Pct,
    Num,
}

/// Every figure of either report, in the first report's order (then the second's own), with
/// its value on each side (`None` where a side has no such figure).
fn differences(a: &Report, b: &Report) -> Vec<(String, Option<f64>, Option<f64>)> {
    rows(a, b)
        .into_iter()
        .map(|(k, x, y, _)| (k, x, y))
        .collect()
}

fn rows(a: &Report, b: &Report) -> Vec<(String, Option<f64>, Option<f64>, Shown)> {
    let (fa, fb) = (a.figures(), b.figures());
    let mut out: Vec<(String, Option<f64>, Option<f64>, Shown)> = fa
        .iter()
        .map(|(k, v, s)| {
            let other = fb.iter().find(|(k2, _, _)| k2 == k).map(|x| x.1);
            (k.clone(), Some(*v), other, *s)
        })
        .collect();
    for (k, v, s) in &fb {
        if !fa.iter().any(|(k2, _, _)| k2 == k) {
            out.push((k.clone(), None, Some(*v), *s));
        }
    }
    out
}

fn side_by_side(a: &Report, b: &Report) -> String {
    let n = a.n();
    let mut out = format!(
        "{} games each, same seeds (seed {}), {} players ({})\n  A: {} — {} ({:.1}s)\n  B: {} — {} ({:.1}s)\n",
        n,
        a.seed,
        a.players,
        a.names.join(" vs "),
        a.engine.game.title,
        a.what,
        a.elapsed,
        b.engine.game.title,
        b.what,
        b.elapsed
    );
    let width = rows(a, b)
        .iter()
        .map(|r| r.0.chars().count())
        .max()
        .unwrap_or(0)
        .clamp(6, super::MAX_COLUMN);
    out.push_str(&format!(
        "  {:<width$}  {:>9}  {:>9}  {:>9}\n",
        "", "A", "B", "B − A"
    ));
    let show = |v: Option<f64>, s: Shown| match (v, s) {
        (None, _) => "—".to_string(),
        (Some(x), Shown::Pct) => format!("{x:.1}%"),
        (Some(x), Shown::Num) => format!("{x:.1}"),
    };
    for (k, x, y, s) in rows(a, b) {
        let d = match (x, y) {
            (Some(x), Some(y)) => format!("{:+.1}", y - x),
            _ => "—".into(),
        };
        out.push_str(&format!(
            "  {k:<width$}  {:>9}  {:>9}  {:>9}\n",
            show(x, s),
            show(y, s),
            d
        ));
    }
    for p in 0..a.players.min(b.players) {
        let (la, ha) = wilson(a.wins(p), n);
        let (lb, hb) = wilson(b.wins(p), b.n());
        out.push_str(&format!(
            "  95% CI of {} wins: A {:.1}–{:.1}%, B {:.1}–{:.1}%\n",
            a.seat_name(p),
            la * 100.0,
            ha * 100.0,
            lb * 100.0,
            hb * 100.0
        ));
    }
    out
}

fn pct(k: u64, n: u64) -> f64 {
    if n == 0 {
        0.0
    } else {
        100.0 * k as f64 / n as f64
    }
}

#[cfg(test)]
mod tests {
    use super::{play_one, Kept};
    use crate::check::compile_source;
    use crate::engine::Engine;
    use std::sync::Arc;

    /// Three stones put on three cells, one a turn; a stone put on an occupied cell is a
    /// rules error, so a game either fills the row in three actions or fails.
    const ROW: &str = "game \"Row\" { players 2\n max_turns 3 }\nboard grid 3 x 1\n\
        kind Stone { n: 1..2 }\ndeck d of Stone { 3 x card { n: 1 } }\n\
        zone pool shared public { holds d }\nphase p { turn { one of put } }\n\
        action put { choose x in cells do { move first(pool) to x } }\n";

    /// A worker plays its games in storage kept from the last (`Kept`): a game played
    /// after another, longer one comes to the same result, and one that fails records
    /// only its own actions, as each does played alone.
    #[test]
    fn games_played_in_kept_storage_come_out_as_played_alone() {
        let game = compile_source("row.muster", ROW, None)
            .unwrap_or_else(|_| panic!("row.muster does not compile"))
            .game;
        let engine = Arc::new(Engine::new(game));
        let names = ["random".to_string(), "random".to_string()];
        let alone = |seed| play_one(&engine, &names, 2, seed, &mut Kept::default());
        // A game that fills the row, and one that fails on its second action.
        let full = (0..200)
            .find(|&s| alone(s).is_ok())
            .expect("a game fills the row");
        let failing = (0..200)
            .find(|&s| alone(s).is_err_and(|f| f.actions.len() == 2))
            .expect("a game fails on its second action");
        let mut kept = Kept::default();
        let first = play_one(&engine, &names, 2, full, &mut kept).expect("it fills the row");
        assert_eq!(kept.taken.len(), 3);
        assert_eq!(format!("{first:?}"), format!("{:?}", alone(full).unwrap()));
        let failed = play_one(&engine, &names, 2, failing, &mut kept).unwrap_err();
        let failed_alone = alone(failing).unwrap_err();
        assert_eq!(failed.actions.len(), 2);
        assert_eq!(failed.actions, failed_alone.actions);
        assert_eq!(failed.reason, failed_alone.reason);
        // They are the game's own actions (found again from its choices): played again,
        // the first is legal and the second fails as it did.
        let mut s = engine.start(2, failing).expect("the game starts");
        assert!(engine.legal_actions(&s).contains(&failed.actions[0]));
        engine
            .apply_listed(&mut s, &failed.actions[0])
            .expect("the first action applies");
        assert!(engine.legal_actions(&s).contains(&failed.actions[1]));
        let e = engine
            .apply_listed(&mut s, &failed.actions[1])
            .expect_err("the second action fails");
        assert_eq!(e.to_string(), failed.reason);
        // And the full game again, after the failed one, as before.
        let again = play_one(&engine, &names, 2, full, &mut kept).expect("it fills the row");
        assert_eq!(format!("{again:?}"), format!("{first:?}"));
    }
}
