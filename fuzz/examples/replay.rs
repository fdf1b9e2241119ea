//! The fuzz targets without libFuzzer: a deterministic loop of pseudo-random inputs, for
//! machines without a nightly toolchain, and to replay saved inputs.
//!
//! ```text
//! cargo run --release --no-default-features --example replay -- check SECONDS [SEED]
//! cargo run --release --no-default-features --example replay -- play SECONDS [SEED]
//! cargo run --release --no-default-features --example replay -- file check|play PATH...
//! cargo run --release --no-default-features --example replay -- seeds DIR
//! ```
//!
//! `check` inputs are shipped games mangled in seeded ways (lines deleted, duplicated and
//! swapped, cuts, flipped characters, inserted tokens, dropped brackets), token soups and
//! raw bytes; `play` inputs are the seed inputs (whole games: shipped rules files carried
//! in the input, shipped games, generated games) with bytes changed, and raw bytes.
//! `seeds DIR` writes the seed inputs, to start libFuzzer's `play` corpus with. An input that panics is written to
//! `artifacts/<target>/` and the loop stops with exit code 1.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::time::{Duration, Instant};

/// splitmix64: small, seeded, and the same everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const TOKENS: [&str; 48] = [
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ",",
    ":",
    "=",
    "==",
    "!=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "..",
    ".",
    "not",
    "and",
    "or",
    "if",
    "then",
    "else",
    "in",
    "for",
    "move",
    "to",
    "phase",
    "action",
    "zone",
    "var",
    "def",
    "effect",
    "when",
    "react",
    "per seat",
    "x 64",
    "0",
    "1",
    "99999999999999999999",
    "\"",
    "\"t\"",
    "me",
    "card",
    "//",
    "/*",
    "variant v {",
];

fn boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// One to eight seeded edits of a rules text.
fn mangle(text: &str, rng: &mut Rng) -> String {
    let mut t = text.to_string();
    for _ in 0..1 + rng.below(8) {
        let mut lines: Vec<String> = t.lines().map(str::to_string).collect();
        let n = lines.len();
        let i = boundary(&t, rng.below(t.len() + 1));
        t = match rng.below(9) {
            0 if n > 0 => {
                lines.remove(rng.below(n));
                lines.join("\n")
            }
            1 if n > 0 => {
                let k = rng.below(n);
                let l = lines[k].clone();
                lines.insert(k, l);
                lines.join("\n")
            }
            2 if n > 0 => {
                let (a, b) = (rng.below(n), rng.below(n));
                lines.swap(a, b);
                lines.join("\n")
            }
            3 => t[..i].to_string(),
            4 => {
                let c = (b' ' + rng.below(95) as u8) as char;
                let rest: String = t[i..].chars().skip(1).collect();
                format!("{}{c}{rest}", &t[..i])
            }
            5 | 6 => format!(
                "{} {} {}",
                &t[..i],
                TOKENS[rng.below(TOKENS.len())],
                &t[i..]
            ),
            7 => match t[i..].find(|c: char| "{}()[]".contains(c)) {
                Some(k) => format!("{}{}", &t[..i + k], &t[i + k + 1..]),
                None => t.clone(),
            },
            _ => {
                let j = boundary(&t, rng.below(t.len() + 1));
                let (a, b) = (i.min(j), i.max(j));
                format!("{}{}{}", &t[..b], &t[a..b], &t[b..])
            }
        };
    }
    t
}

fn check_input(rng: &mut Rng, games: &[String]) -> Vec<u8> {
    match rng.below(10) {
        0 => (0..rng.below(400))
            .map(|_| rng.next() as u8)
            .collect::<Vec<u8>>(),
        1 | 2 => {
            let mut s = String::from("game \"F\" { players 2 }\n");
            for _ in 0..rng.below(200) {
                s.push_str(TOKENS[rng.below(TOKENS.len())]);
                s.push(if rng.below(4) == 0 { '\n' } else { ' ' });
            }
            s.into_bytes()
        }
        _ => mangle(&games[rng.below(games.len())], rng).into_bytes(),
    }
}

fn play_input(rng: &mut Rng, seeds: &[Vec<u8>]) -> Vec<u8> {
    // A seed input (a whole game) with its tail changed, or raw bytes in any mode.
    if rng.below(2) == 0 {
        let mut s = seeds[rng.below(seeds.len())].clone();
        let n = s.len();
        for _ in 0..1 + rng.below(8) {
            let i = n - 1 - rng.below(n.min(2_000));
            s[i] = rng.next() as u8;
        }
        return s;
    }
    (0..10 + rng.below(600)).map(|_| rng.next() as u8).collect()
}

/// Runs one input; on a panic, saves it and says where.
fn run(target: &str, input: &[u8], n: u64) -> bool {
    let ok = catch_unwind(AssertUnwindSafe(|| match target {
        "check" => muster_fuzz::check(input),
        _ => muster_fuzz::play(input),
    }))
    .is_ok();
    if !ok {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("artifacts")
            .join(target);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("crash-{n}"));
        std::fs::write(&path, input).unwrap();
        eprintln!("input {n} panicked; saved as {}", path.display());
    }
    ok
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("seeds") {
        // Writes the `play` seed corpus (whole games) into a folder.
        let dir = Path::new(args.get(1).map_or("corpus/play-seeds", String::as_str));
        std::fs::create_dir_all(dir).unwrap();
        let seeds = muster_fuzz::seed_inputs();
        for (i, s) in seeds.iter().enumerate() {
            std::fs::write(dir.join(format!("seed-{i:02}")), s).unwrap();
        }
        println!("{} seed inputs in {}", seeds.len(), dir.display());
        return;
    }
    if args.first().map(String::as_str) == Some("show") {
        // The rules file a generated `play` input (mode 2) stands for.
        let data = std::fs::read(&args[1]).unwrap();
        println!("{}", muster_fuzz::generate(data.get(1..).unwrap_or(&[])).0);
        return;
    }
    if args.first().map(String::as_str) == Some("generated") {
        // How many of N generated rules files compile; prints the first that does not.
        let n: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
        let mut rng = Rng(7);
        let (mut ok, mut shown) = (0, false);
        for _ in 0..n {
            let bytes: Vec<u8> = (0..200).map(|_| rng.next() as u8).collect();
            let (text, _) = muster_fuzz::generate(&bytes);
            match muster::check::compile_source("gen.muster", &text, None) {
                Ok(_) => ok += 1,
                Err(f) if !shown => {
                    shown = true;
                    eprintln!(
                        "{text}\n{}",
                        muster::diagnostic::render(&f.sources, &f.diagnostics, false)
                    );
                }
                Err(_) => {}
            }
        }
        println!("{ok} of {n} generated rules files compile");
        return;
    }
    if args.first().map(String::as_str) == Some("file") {
        let target = args[1].as_str();
        let mut ok = true;
        for (n, p) in args[2..].iter().enumerate() {
            ok &= run(target, &std::fs::read(p).unwrap(), n as u64);
        }
        std::process::exit(if ok { 0 } else { 1 });
    }
    let target = args.first().map(String::as_str).unwrap_or("check");
    assert!(
        target == "check" || target == "play",
        "target: check or play"
    );
    let seconds: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(60);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let games: Vec<String> = muster_fuzz::game_files()
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    let seeds = if target == "play" {
        muster_fuzz::shipped();
        muster_fuzz::seed_inputs()
    } else {
        vec![]
    };
    let mut rng = Rng(seed);
    let start = Instant::now();
    let mut n = 0u64;
    let mut slowest = Duration::ZERO;
    while start.elapsed() < Duration::from_secs(seconds) {
        let input = match target {
            "check" => check_input(&mut rng, &games),
            _ => play_input(&mut rng, &seeds),
        };
        let t = Instant::now();
        if !run(target, &input, n) {
            std::process::exit(1);
        }
        if t.elapsed() > Duration::from_secs(5) {
            // As libFuzzer would report a hang past `-timeout`: keep it to look at.
            let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("artifacts")
                .join(target);
            std::fs::create_dir_all(&dir).unwrap();
            let path = dir.join(format!("slow-{n}"));
            std::fs::write(&path, &input).unwrap();
            eprintln!(
                "input {n} took {:.1} s; saved as {}",
                t.elapsed().as_secs_f64(),
                path.display()
            );
        }
        slowest = slowest.max(t.elapsed());
        n += 1;
    }
    println!(
        "{target}: {n} inputs in {:.0} s from seed {seed}, no panic; slowest input {:.2} s",
        start.elapsed().as_secs_f64(),
        slowest.as_secs_f64()
    );
}
