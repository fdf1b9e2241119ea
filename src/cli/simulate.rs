//! `muster simulate`: many games between agents, in parallel, with a report a designer can
//! decide from. Results depend only on the seed, never on `--jobs`.

use super::{agent_list, GameOpts, EXIT_INVALID, EXIT_OK, EXIT_USAGE};
use crate::agents;
use crate::engine::{Engine, Outcome};
use rayon::prelude::*;
use std::io::IsTerminal;
use std::path::Path;

/// What one simulated game came to.
#[derive(Clone, Debug)]
pub struct GameResult {
    pub outcome: Outcome,
    pub turns: u32,
    pub decisions: u64,
    pub branching: u64,
    /// How often each action was taken (by action id; the last two are `skip` and `done`).
    pub action_counts: Vec<u64>,
}

/// The seed of game `i` of a run seeded with `base` (SplitMix64, so nearby seeds differ).
pub fn game_seed(base: u64, i: u64) -> u64 {
    let mut z = base.wrapping_add(i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays one game between the named agents.
pub fn play_one(
    engine: &Engine,
    names: &[String],
    players: u8,
    seed: u64,
) -> Result<GameResult, String> {
    let mut state = engine.start(players, seed).map_err(|e| e.to_string())?;
    let mut seats: Vec<Box<dyn agents::Agent>> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            agents::by_name(n, seed ^ (0x5EED + i as u64))
                .ok_or_else(|| format!("unknown agent `{n}`"))
        })
        .collect::<Result<_, _>>()?;
    let n_actions = engine.game.actions.len();
    let mut r = GameResult {
        outcome: Outcome::Capped,
        turns: 0,
        decisions: 0,
        branching: 0,
        action_counts: vec![0; n_actions + 2],
    };
    let mut legal = Vec::new();
    while let Some(seat) = engine.decider(&state) {
        engine.legal_into(&state, &mut legal);
        if legal.is_empty() {
            return Err("the decider has no legal action but the game is not over".into());
        }
        r.decisions += 1;
        r.branching += legal.len() as u64;
        let view = engine.view(&state, seat);
        let i = seats[seat as usize].choose(&view, &legal);
        let a = &legal[i];
        let k = if (a.action as usize) < n_actions {
            a.action as usize
        } else if a.action == crate::engine::SKIP_ACTION {
            n_actions
        } else {
            n_actions + 1
        };
        r.action_counts[k] += 1;
        engine
            .apply_listed(&mut state, a)
            .map_err(|e| e.to_string())?;
    }
    r.turns = state.turns;
    r.outcome = state.outcome.clone().unwrap_or(Outcome::Capped);
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

pub fn run(
    file: &Path,
    games: u32,
    agents_spec: Option<&str>,
    opts: &GameOpts,
    jobs: Option<usize>,
    json: bool,
) -> i32 {
    let (engine, players) = match super::prepare(file, opts) {
        Ok(x) => x,
        Err(code) => return code,
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
        .num_threads(jobs.unwrap_or(0))
        .build()
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: cannot start worker threads: {e}");
            return EXIT_USAGE;
        }
    };
    let bar = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(games as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let started = std::time::Instant::now();
    let results: Vec<Result<GameResult, String>> = pool.install(|| {
        (0..games as u64)
            .into_par_iter()
            .map(|i| {
                let r = play_one(&engine, &names, players, game_seed(opts.seed, i));
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
            Err(e) => {
                eprintln!(
                    "error: game {} (seed {}) failed: {e}",
                    i + 1,
                    game_seed(opts.seed, i as u64)
                );
                return EXIT_INVALID;
            }
        }
    }
    let report = Report::new(&engine, &names, players, &ok, elapsed);
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report.json()).unwrap_or_default()
        );
    } else {
        print!("{}", report.text());
    }
    EXIT_OK
}

struct Report<'a> {
    engine: &'a Engine,
    names: &'a [String],
    players: u8,
    games: &'a [GameResult],
    elapsed: f64,
}

impl<'a> Report<'a> {
    fn new(
        engine: &'a Engine,
        names: &'a [String],
        players: u8,
        games: &'a [GameResult],
        elapsed: f64,
    ) -> Report<'a> {
        Report {
            engine,
            names,
            players,
            games,
            elapsed,
        }
    }

    fn wins(&self, seat: u8) -> u64 {
        self.games
            .iter()
            .filter(|g| matches!(&g.outcome, Outcome::Win(w) if w.contains(&seat)))
            .count() as u64
    }
    fn draws(&self) -> u64 {
        self.games
            .iter()
            .filter(|g| g.outcome == Outcome::Draw)
            .count() as u64
    }
    fn capped(&self) -> u64 {
        self.games
            .iter()
            .filter(|g| g.outcome == Outcome::Capped)
            .count() as u64
    }
    fn lengths(&self) -> (f64, u32, u32, u32) {
        let mut t: Vec<u32> = self.games.iter().map(|g| g.turns).collect();
        t.sort_unstable();
        if t.is_empty() {
            return (0.0, 0, 0, 0);
        }
        (
            t.iter().map(|&x| x as f64).sum::<f64>() / t.len() as f64,
            t[t.len() / 2],
            t[0],
            t[t.len() - 1],
        )
    }
    fn branching(&self) -> f64 {
        let (b, d) = self
            .games
            .iter()
            .fold((0u64, 0u64), |(b, d), g| (b + g.branching, d + g.decisions));
        if d == 0 {
            0.0
        } else {
            b as f64 / d as f64
        }
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

    fn text(&self) -> String {
        let n = self.games.len() as u64;
        let g = &self.engine.game;
        let mut out = format!(
            "{}: {} games, {} players ({}), {:.1}s\n",
            g.title,
            n,
            self.players,
            self.names.join(" vs "),
            self.elapsed
        );
        for p in 0..self.players {
            let w = self.wins(p);
            let (lo, hi) = wilson(w, n);
            out.push_str(&format!(
                "  {:<10} wins {:>5} ({:5.1}%, 95% CI {:.1}–{:.1}%)\n",
                g.seats[p as usize].name,
                w,
                pct(w, n),
                lo * 100.0,
                hi * 100.0
            ));
        }
        let (d, c) = (self.draws(), self.capped());
        out.push_str(&format!("  draws      {:>5} ({:5.1}%)\n  capped     {:>5} ({:5.1}%) — stopped at {} turns, not counted as wins\n", d, pct(d, n), c, pct(c, n), g.max_turns));
        let (mean, median, min, max) = self.lengths();
        out.push_str(&format!(
            "  length     mean {mean:.1} turns, median {median}, range {min}–{max}\n"
        ));
        out.push_str(&format!(
            "  branching  {:.1} legal actions per decision on average\n",
            self.branching()
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
        let n = self.games.len() as u64;
        let g = &self.engine.game;
        let seats: Vec<serde_json::Value> = (0..self.players)
            .map(|p| {
                let w = self.wins(p);
                let (lo, hi) = wilson(w, n);
                serde_json::json!({ "seat": g.seats[p as usize].name, "agent": self.names[p as usize], "wins": w, "win_rate": w as f64 / n.max(1) as f64, "ci95": [lo, hi] })
            })
            .collect();
        let (mean, median, min, max) = self.lengths();
        serde_json::json!({
            "game": g.title,
            "variant": g.variant,
            "games": n,
            "players": self.players,
            "seats": seats,
            "draws": self.draws(),
            "capped": self.capped(),
            "max_turns": g.max_turns,
            "length": { "mean": mean, "median": median, "min": min, "max": max },
            "branching": self.branching(),
            "actions": self.action_counts().into_iter().map(|(a, c)| (a, serde_json::json!(c))).collect::<serde_json::Map<_, _>>(),
            "seconds": self.elapsed,
        })
    }
}

fn pct(k: u64, n: u64) -> f64 {
    if n == 0 {
        0.0
    } else {
        100.0 * k as f64 / n as f64
    }
}
