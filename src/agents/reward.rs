//! What a position is worth to each seat, from the outcome or, for a game cut short, from
//! the rules' declared `score`. Shared by the search agents.

use crate::engine::{Engine, Outcome, State};

/// How sharply a lead in score turns into reward: a lead of a quarter of the two scores'
/// sizes is worth as much as a win.
const MARGIN_GAIN: f64 = 4.0;

/// Each seat's reward in `[0, 1]` for `s` (written into `out`, one per seat).
///
/// A win is worth 1, shared among the winners (1/k each); a loss 0; a draw 0.5. A game
/// stopped by the length cap, or a playout cut short (no outcome yet), compares each seat's
/// declared `score` with the best of the other seats': level is 0.5, and the reward grows
/// (or falls) with the margin relative to the scores' size,
/// `0.5 + 0.5 * clamp(4 * (mine - best_other) / (|mine| + |best_other|), -1, 1)`, so that
/// being a little behind is still better than losing outright. Without a declared score
/// such a game is worth 0.5 to everyone still in it. Seats that are out get 0.
pub fn rewards(engine: &Engine, s: &State, out: &mut Vec<f64>) {
    let n = s.players as usize;
    out.clear();
    out.resize(n, 0.0);
    match &s.outcome {
        Some(Outcome::Win(w)) => {
            let share = 1.0 / w.len().max(1) as f64;
            for &p in w {
                if let Some(r) = out.get_mut(p as usize) {
                    *r = share;
                }
            }
        }
        Some(Outcome::Draw) => out.iter_mut().for_each(|r| *r = 0.5),
        Some(Outcome::Capped) | None => by_score(engine, s, out),
    }
}

fn by_score(engine: &Engine, s: &State, out: &mut [f64]) {
    let alive: Vec<u8> = (0..s.players)
        .filter(|&p| !s.eliminated[p as usize])
        .collect();
    if engine.game.end.score.is_none() || alive.len() < 2 {
        for &p in &alive {
            out[p as usize] = if alive.len() == 1 { 1.0 } else { 0.5 };
        }
        return;
    }
    let scores: Vec<i64> = (0..s.players)
        .map(|p| engine.score(s, p).unwrap_or(0))
        .collect();
    for &p in &alive {
        let best_other = alive
            .iter()
            .filter(|&&q| q != p)
            .map(|&q| scores[q as usize])
            .max()
            .unwrap_or(0);
        let mine = scores[p as usize];
        let scale = (mine.abs() + best_other.abs()).max(1) as f64;
        let margin = (mine - best_other) as f64 / scale;
        out[p as usize] = 0.5 + 0.5 * (MARGIN_GAIN * margin).clamp(-1.0, 1.0);
    }
}

/// A seat's standing for a one-step look-ahead: a win or loss outranks any score; else the
/// rules' score ahead of the best other seat (0 without a score).
pub fn standing(engine: &Engine, s: &State, seat: u8) -> f64 {
    const DECIDED: f64 = 1e12;
    match &s.outcome {
        Some(Outcome::Win(w)) if w.contains(&seat) => DECIDED / w.len() as f64,
        Some(Outcome::Win(_)) => -DECIDED,
        Some(Outcome::Draw) => 0.0,
        Some(Outcome::Capped) | None => {
            if s.eliminated.get(seat as usize) == Some(&true) {
                return -DECIDED;
            }
            let Some(mine) = engine.score(s, seat) else {
                return 0.0;
            };
            let best_other = (0..s.players)
                .filter(|&q| q != seat && !s.eliminated[q as usize])
                .filter_map(|q| engine.score(s, q))
                .max();
            (mine - best_other.unwrap_or(0)) as f64
        }
    }
}
