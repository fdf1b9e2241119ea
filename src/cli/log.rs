//! Saved games: a small text file with the rules file's name and content hash, the
//! variant, the player count, the seed, then one action per line with who made it.
//!
//! ```text
//! # muster saved game
//! rules my_game.muster
//! hash 3f2a...
//! variant -
//! players 2
//! seed 7
//! max_turns 1000
//! White: step a1 a2
//! Blue: step c3 b3
//! ```
//! Hand-written logs work too: `hash`, `variant` and `max_turns` may be left out, and so
//! may the seat before an action. `max_turns` is written when the game had a length cap
//! (automated play, or `--max-turns`); a log without it replays with no cap.

use sha2::{Digest, Sha256};

#[derive(Clone, Debug, PartialEq)]
pub struct LogEntry {
    pub seat: Option<String>,
    pub action: String,
    /// The line number in the log file (1-based), for messages.
    pub line: usize,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct GameLog {
    pub rules: String,
    pub hash: Option<String>,
    pub variant: Option<String>,
    pub players: Option<u8>,
    pub seed: u64,
    /// The length cap the game was played under, if it had one (`max_turns N`); a game
    /// with a person at a seat has none.
    pub max_turns: Option<u32>,
    pub actions: Vec<LogEntry>,
}

/// The hash that identifies a rules file's content.
pub fn content_hash(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

impl GameLog {
    pub fn to_text(&self) -> String {
        let mut out = String::from("# muster saved game\n");
        out.push_str(&format!("rules {}\n", self.rules));
        if let Some(h) = &self.hash {
            out.push_str(&format!("hash {h}\n"));
        }
        out.push_str(&format!(
            "variant {}\n",
            self.variant.as_deref().unwrap_or("-")
        ));
        if let Some(p) = self.players {
            out.push_str(&format!("players {p}\n"));
        }
        out.push_str(&format!("seed {}\n", self.seed));
        if let Some(m) = self.max_turns {
            out.push_str(&format!("max_turns {m}\n"));
        }
        for a in &self.actions {
            match &a.seat {
                Some(s) => out.push_str(&format!("{s}: {}\n", a.action)),
                None => out.push_str(&format!("{}\n", a.action)),
            }
        }
        out
    }

    /// Reads a log; `Err` says which line is wrong and why.
    pub fn parse(text: &str) -> Result<GameLog, String> {
        let mut log = GameLog::default();
        let mut header = true;
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            let n = i + 1;
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if header {
                let (key, value) = line
                    .split_once(char::is_whitespace)
                    .map(|(k, v)| (k, v.trim()))
                    .unwrap_or((line, ""));
                match key {
                    "rules" => {
                        log.rules = value.to_string();
                        continue;
                    }
                    "hash" => {
                        log.hash = Some(value.to_string());
                        continue;
                    }
                    "variant" => {
                        log.variant = if value == "-" || value.is_empty() {
                            None
                        } else {
                            Some(value.to_string())
                        };
                        continue;
                    }
                    "players" => {
                        log.players = Some(value.parse().map_err(|_| {
                            format!("line {n}: `players` needs a number, not `{value}`")
                        })?);
                        continue;
                    }
                    "max_turns" => {
                        log.max_turns = Some(value.parse().map_err(|_| {
                            format!("line {n}: `max_turns` needs a whole number, not `{value}`")
                        })?);
                        continue;
                    }
                    "seed" => {
                        log.seed = value.parse().map_err(|_| {
                            format!("line {n}: `seed` needs a whole number, not `{value}`")
                        })?;
                        continue;
                    }
                    _ => header = false,
                }
            }
            let (seat, action) = match line.split_once(':') {
                Some((s, a)) if !s.trim().contains(' ') => {
                    (Some(s.trim().to_string()), a.trim().to_string())
                }
                _ => (None, line.to_string()),
            };
            if action.is_empty() {
                return Err(format!(
                    "line {n}: no action after `{}:`",
                    seat.unwrap_or_default()
                ));
            }
            log.actions.push(LogEntry {
                seat,
                action,
                line: n,
            });
        }
        Ok(log)
    }
}
