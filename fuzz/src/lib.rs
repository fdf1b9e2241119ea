//! The fuzz targets' bodies, shared by the libFuzzer targets (`fuzz_targets/`) and the
//! deterministic loop (`examples/replay.rs`).

use muster::check::{self, compile_file};
use muster::engine::{Engine, EngineError};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The parser and the checker on arbitrary bytes, as `muster validate` runs them: every
/// variant is checked and the diagnostics are rendered as text and as JSON.
pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (sources, diags) = match check::load_source("fuzz.muster", text, None) {
        Ok(loaded) => {
            let d = check::check_all(&loaded);
            (loaded.sources, d)
        }
        Err(f) => (f.sources, f.diagnostics),
    };
    assert!(
        diags.len() <= check::MAX_ERRORS,
        "{} diagnostics",
        diags.len()
    );
    let _ = muster::diagnostic::render(&sources, &diags, false);
    let _ = muster::diagnostic::to_json(&sources, &diags);
}

/// The shipped games (`games/*.muster`), each in its base form and with each variant.
pub fn shipped() -> &'static [(String, Engine)] {
    static GAMES: OnceLock<Vec<(String, Engine)>> = OnceLock::new();
    GAMES.get_or_init(|| {
        let mut out = Vec::new();
        for path in game_files() {
            let text = std::fs::read_to_string(&path).unwrap();
            // Variant names, as declared: `variant NAME {` at the start of a line.
            let variants = text.lines().filter_map(|l| {
                l.strip_prefix("variant ")
                    .and_then(|r| r.split_whitespace().next())
                    .map(str::to_string)
            });
            for v in std::iter::once(None).chain(variants.map(Some)) {
                let compiled = compile_file(&path, v.as_deref())
                    .unwrap_or_else(|_| panic!("{} does not compile", path.display()));
                let name = format!("{} {}", path.display(), v.as_deref().unwrap_or("-"));
                out.push((name, Engine::new(compiled.game)));
            }
        }
        assert!(out.len() >= 3, "no shipped games found");
        out
    })
}

/// The shipped rules files, sorted.
pub fn game_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../games");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "muster"))
        .collect();
    files.sort();
    files
}

/// The interpreter at play time. The first byte chooses what is played:
///
/// - `0`: a shipped game (see [`play_shipped`]);
/// - `1`: a rules file carried in the input (`[1, len: u32 LE, text, game bytes]`), so that
///   libFuzzer mutates whole rules files; the corpus is seeded with the shipped games;
/// - `2`: a small rules file generated from the input's bytes (see [`generate`]), built of
///   the constructs that do work at play time: choices over ranges, cells, zones and
///   subsets, quantifiers, growing lists, rolls, triggers, phases that hand over.
///
/// The game bytes pick the player count, the seed and then each action.
pub fn play(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    match mode % 3 {
        0 => play_shipped(rest),
        1 => {
            if rest.len() < 4 {
                return;
            }
            let len = u32::from_le_bytes(rest[..4].try_into().unwrap()) as usize;
            let rest = &rest[4..];
            let len = len.min(rest.len());
            let Ok(text) = std::str::from_utf8(&rest[..len]) else {
                return;
            };
            play_text(text, &rest[len..], 200);
        }
        _ => {
            let (text, game) = generate(rest);
            play_text(&text, game, 100);
        }
    }
}

/// Compiles a rules text (imports resolve in `games/`) and plays it on `game` bytes, at
/// most `max_actions` actions.
pub fn play_text(text: &str, game: &[u8], max_actions: usize) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../games");
    let Ok(loaded) = check::load_source("fuzz.muster", text, Some(&dir)) else {
        return;
    };
    let Ok(compiled) = check::compile(loaded, None) else {
        return;
    };
    let engine = Engine::new(compiled.game);
    play_engine("fuzz.muster", &engine, game, max_actions);
}

/// A shipped game: the input picks the game, then plays it (see [`play_engine`]).
pub fn play_shipped(data: &[u8]) {
    let games = shipped();
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let (name, engine) = &games[pick as usize % games.len()];
    play_engine(name, engine, rest, usize::MAX);
}

/// Plays a game: the bytes pick the player count and the seed, then each byte picks an
/// action from the legal list; every few actions a stretch of the input is also typed as
/// if at the prompt. Checks on the way that no two listed actions share a text, that each
/// listed action reads back from its notation and is accepted, and that every seat's view
/// renders. Rules errors end the game; panics are failures.
pub fn play_engine(name: &str, engine: &Engine, data: &[u8], max_actions: usize) {
    if data.len() < 9 {
        return;
    }
    let g = &engine.game;
    let players = g.min_players + data[0] % (g.max_players - g.min_players + 1);
    let seed = u64::from_le_bytes(data[1..9].try_into().unwrap());
    let Ok(mut s) = engine.start(players, seed) else {
        return; // a rules error at set-up
    };
    let moves = &data[9..];
    for (i, &b) in moves.iter().enumerate().take(max_actions) {
        if engine.decider(&s).is_none() {
            break;
        }
        let legal = match engine.try_legal_actions(&s) {
            Ok(l) => l,
            Err(EngineError::Rules(_)) => break,
            Err(e) => panic!("{name}: listing the actions: {e}"),
        };
        if legal.is_empty() {
            break;
        }
        if legal.len() > 20_000 && i > 0 {
            // Listing that many works (within the budget); doing it again for every
            // action would only make the input slow.
            break;
        }
        if legal.len() <= 2_000 {
            let mut texts: Vec<String> = legal.iter().map(|a| engine.action_text(&s, a)).collect();
            texts.sort();
            if let Some(w) = texts.windows(2).find(|w| w[0] == w[1]) {
                panic!("{name}: two legal actions are written `{}`", w[0]);
            }
        }
        if i % 7 == 6 {
            // Whatever a player might type: refused or read, never a panic.
            let typed = String::from_utf8_lossy(&moves[i..moves.len().min(i + 24)]);
            let _ = engine.parse_action(&s, &typed);
        }
        let a = &legal[b as usize % legal.len()];
        let text = engine.action_text(&s, a);
        match engine.parse_action(&s, &text) {
            Ok(back) => assert_eq!(&back, a, "{name}: `{text}` reads back as another action"),
            Err(e) => panic!("{name}: `{text}` does not read back: {e}"),
        }
        for seat in 0..players {
            let _ = muster::cli::render_view(engine, &engine.view(&s, seat));
        }
        match engine.apply(&mut s, a) {
            Ok(()) => {}
            Err(EngineError::Rules(_)) => break,
            Err(e) => panic!("{name}: listed action `{text}` refused: {e}"),
        }
    }
}

/// Reads small numbers from the input, then zeros.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }
    fn below(&mut self, n: usize) -> usize {
        self.byte() as usize % n.max(1)
    }
    fn pick<'s>(&mut self, items: &[&'s str]) -> &'s str {
        items[self.below(items.len())]
    }
}

/// Sizes for ranges, counts and limits: small ones mostly, some past the engine's limits.
const SIZES: [&str; 12] = [
    "0", "1", "2", "3", "5", "9", "40", "255", "1000", "100000", "100001", "5000000",
];

/// Conditions over the generated game's names (`x` a cell, `c` a piece where bound).
const CONDS: [&str; 14] = [
    "true",
    "n < {K}",
    "size(pool) > 0",
    "size(hand(me)) > 0",
    "all a in cells: any b in cells: a == b",
    "any a in cells: a.empty",
    "none p in seats: p == me",
    "(sum k in 1..{K}: k) > n",
    "(count a in cells: a.empty) > {K}",
    "size(xs) < {K}",
    "phase_turns > {K}",
    "(max k in xs: k) >= 0",
    "size(subsets(pool, 0, {K})) > 1",
    "turn_seat == me",
];

/// Actions: each a body of clauses.
const ACTIONS: [&str; 16] = [
    "choose x in cells require x.empty and size(pool) > 0 do { move first(pool) to x }",
    "choose c in hand(me) do { move c to pool }",
    "require size(pool) > 0 do { deal 1 from pool to hand(me) }",
    "choose k in 1..{K} do { n += k }",
    "choose a in 1..{K} choose b in 1..{K} require a != b do { n += 1 }",
    "require {C} do { n += 1  end turn }",
    "do { xs = xs + xs }",
    "do { let r = roll(1, {K})  n = r }",
    "choose s in subsets(pool, 0, {K}) do { move s to stash(me) }",
    "choose c in hand(me) + stash(me) do { move c to hand(opponent) }",
    "choose x in cells require not x.empty do { move x.piece to pool }",
    "require {C} do { for k in 1..{K} { n += 1 } }",
    "choose x in cells choose y in cells require x != y and not x.empty and y.empty do { move x.piece to y }",
    "do { shuffle pool  deal {K} from pool to stash(me) }",
    "require {C} do { win me }",
    "do { xs = [k in xs where k > n] + [n] }",
];

const MODES: [&str; 5] = ["one", "optional", "repeat", "loop", "all"];

/// A small rules file built from the input: a board, a deck of pieces in a pool, hands
/// and stashes, two variables, two or three phases that may hand over to one another,
/// actions from [`ACTIONS`], end rules, maybe a trigger. Returns the text and the bytes
/// left for the game.
pub fn generate(data: &[u8]) -> (String, &[u8]) {
    let mut b = Bytes(data);
    let fill = |b: &mut Bytes, s: &str| -> String {
        let mut out = s.to_string();
        while out.contains("{C}") {
            let c = format!("({})", b.pick(&CONDS));
            out = out.replacen("{C}", &c, 1);
        }
        while out.contains("{K}") {
            let k = b.pick(&SIZES);
            out = out.replacen("{K}", k, 1);
        }
        out
    };
    let w = 1 + b.below(8);
    let h = 1 + b.below(8);
    let pieces = 1 + b.below(12);
    let twins = b.below(2) == 0;
    let mut t = format!(
        "game \"Gen\" {{ players {}..{}  max_turns {} }}\n",
        1 + b.below(2),
        2 + b.below(3),
        1 + b.below(300)
    );
    t.push_str(&format!("board grid {w} x {h}\n"));
    t.push_str("kind Piece { v: 1..9 }\n");
    if twins {
        t.push_str(&format!(
            "deck d of Piece {{ {pieces} x card {{ v: 1 }} }}\n"
        ));
    } else {
        t.push_str(&format!(
            "deck d of Piece {{ for k in 1..{} {{ card {{ v: k }} }} }}\n",
            pieces.min(9)
        ));
    }
    t.push_str("zone pool shared public { holds d }\n");
    t.push_str(&format!(
        "zone hand per seat {}\n",
        b.pick(&["owner", "public", "hidden"])
    ));
    t.push_str(&format!(
        "zone stash per seat {}\n",
        b.pick(&["owner", "public", "hidden", "top"])
    ));
    t.push_str("var n = 0\nvar xs = [1, 2]\n");
    let n_actions = 1 + b.below(5);
    let mut names = Vec::new();
    for i in 0..n_actions {
        let template = b.pick(&ACTIONS);
        let body = fill(&mut b, template);
        t.push_str(&format!("action a{i} {{ {body} }}\n"));
        names.push(format!("a{i}"));
    }
    let n_phases = 1 + b.below(3);
    for p in 0..n_phases {
        let mode = b.pick(&MODES);
        let k = 1 + b.below(names.len());
        let offered: Vec<&str> = (0..k)
            .map(|_| names[b.below(names.len())].as_str())
            .collect();
        let mut offered_unique: Vec<&str> = Vec::new();
        for o in offered {
            if !offered_unique.contains(&o) {
                offered_unique.push(o);
            }
        }
        let cond = if b.below(3) == 0 {
            format!(" if {}", fill(&mut b, "{C}"))
        } else {
            String::new()
        };
        t.push_str(&format!(
            "phase p{p} {{\n  turn {{ {mode} of {}{cond} }}\n",
            offered_unique.join(", ")
        ));
        if b.below(2) == 0 {
            t.push_str(&format!("  until {}\n", fill(&mut b, "{C}")));
            t.push_str(&format!("  next p{}\n", b.below(n_phases)));
        }
        if b.below(3) == 0 {
            let hook = b.pick(&[
                "n += 1",
                "xs = xs + [n]",
                "deal 1 from pool to hand(me)",
                "for k in 1..{K} { n += 1 }",
            ]);
            let hook = fill(&mut b, hook);
            t.push_str(&format!("  after turn {{ {hook} }}\n"));
        }
        t.push_str("}\n");
    }
    match b.below(4) {
        0 => t.push_str(&format!("end {{ win me when {} }}\n", fill(&mut b, "{C}"))),
        1 => t.push_str("end { on stuck lose }\n"),
        2 => t.push_str(&format!(
            "end {{ draw when {}  on stuck draw }}\n",
            fill(&mut b, "{C}")
        )),
        _ => {}
    }
    if b.below(3) == 0 {
        t.push_str(&format!(
            "when c enters hand {{ {} }}\n",
            b.pick(&[
                "n += 1",
                "move c to stash(c.owner)",
                "deal 1 from pool to stash(c.owner)"
            ])
        ));
    }
    (t, b.0)
}

/// Seed inputs for the `play` corpus: each shipped game as a whole rules file (mode 1)
/// and as a shipped game (mode 0), each with enough action bytes to play a whole game, and
/// generated games (mode 2).
pub fn seed_inputs() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut noise = |n: usize| -> Vec<u8> {
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect()
    };
    for (k, path) in game_files().iter().enumerate() {
        let text = std::fs::read_to_string(path).unwrap();
        let mut input = vec![1u8];
        input.extend((text.len() as u32).to_le_bytes());
        input.extend(text.as_bytes());
        input.extend(noise(2_000));
        out.push(input);
        let mut input = vec![0u8, k as u8];
        input.extend(noise(3_000));
        out.push(input);
    }
    for _ in 0..16 {
        let mut input = vec![2u8];
        input.extend(noise(400));
        out.push(input);
    }
    out
}
