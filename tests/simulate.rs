//! `muster simulate`, `bench` and `play` with search agents, through the binary: the
//! report's figures, `--compare` side by side, and the agents on the command line.

use std::process::{Command, Output};

const GAME: &str = "games/army_ants.muster";
const CHIPS: &str = "games/battalion_chips.muster";

fn muster(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_muster"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("muster runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn json(out: &Output) -> serde_json::Value {
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// A copy of Army Ants (with its library) that declares a variant with a short length cap,
/// in a folder of its own for each test (`tag`), as tests run at the same time.
fn game_with_variant(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("muster-simulate-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(dir.join("lib")).unwrap();
    std::fs::copy(
        "games/lib/standard_deck.muster",
        dir.join("lib/standard_deck.muster"),
    )
    .unwrap();
    let mut src = std::fs::read_to_string(GAME).unwrap();
    src.push_str(
        "\nvariant short {\n  game \"Army Ants\" {\n    players 2\n    max_turns 12\n  }\n}\n",
    );
    let p = dir.join("army_ants.muster");
    std::fs::write(&p, src).unwrap();
    p
}

#[test]
fn the_report_gives_rates_first_player_length_and_branching_by_phase() {
    let out = muster(&["simulate", GAME, "--games", "30", "--seed", "4"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let r = text(&out.stdout);
    for want in [
        "wins (95% CI)",
        "losses (95% CI)",
        "mean score",
        "first      Red in every game: wins",
        "fair share 50.0%",
        "length     mean",
        "median",
        "middle 80%",
        "by phase: rally",
        "battle",
        "actions    march",
    ] {
        assert!(r.contains(want), "missing `{want}` in\n{r}");
    }
    let v = json(&muster(&[
        "simulate", GAME, "--games", "30", "--seed", "4", "--json",
    ]));
    let n = v["games"].as_u64().unwrap();
    assert_eq!(n, 30);
    let seats = v["seats"].as_array().unwrap();
    for s in seats {
        let (w, l) = (s["wins"].as_u64().unwrap(), s["losses"].as_u64().unwrap());
        assert!(w + l <= n);
        let (lo, hi) = (
            s["ci95"][0].as_f64().unwrap(),
            s["ci95"][1].as_f64().unwrap(),
        );
        let rate = s["win_rate"].as_f64().unwrap();
        assert!(lo <= rate && rate <= hi, "{s}");
        assert!(s["mean_score"].as_f64().unwrap() > 0.0);
    }
    // Two seats, no draws here: one seat's wins are the other's losses.
    assert_eq!(
        seats[0]["wins"].as_u64().unwrap()
            + v["draws"].as_u64().unwrap()
            + v["capped"].as_u64().unwrap(),
        n - seats[1]["wins"].as_u64().unwrap()
    );
    assert_eq!(seats[0]["losses"], seats[1]["wins"]);
    assert_eq!(v["first_player"]["seat"], "Red");
    assert_eq!(v["first_player"]["wins"], seats[0]["wins"]);
    let phases = v["branching_by_phase"].as_object().unwrap();
    assert_eq!(
        phases.keys().map(String::as_str).collect::<Vec<_>>(),
        ["battle", "rally"]
    );
    // Ten rally decisions a game at most (five turns a seat), and fewer choices there.
    let rally = &phases["rally"];
    assert!(rally["decisions_per_game"].as_f64().unwrap() <= 10.0);
    assert!(rally["mean"].as_f64().unwrap() < phases["battle"]["mean"].as_f64().unwrap());
    let l = &v["length"];
    assert!(l["p10"].as_u64() <= l["median"].as_u64() && l["median"].as_u64() <= l["p90"].as_u64());
}

#[test]
fn compare_plays_a_variant_on_the_same_seeds_side_by_side() {
    let file = game_with_variant("variant");
    let f = file.to_str().unwrap();
    let out = muster(&[
        "simulate",
        f,
        "--games",
        "20",
        "--seed",
        "2",
        "--compare",
        "short",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let r = text(&out.stdout);
    assert!(r.contains("20 games each, same seeds (seed 2)"), "{r}");
    assert!(r.contains("A: Army Ants — army_ants.muster ("), "{r}");
    assert!(
        r.contains("B: Army Ants — army_ants.muster [variant short]"),
        "{r}"
    );
    for row in [
        "Red wins",
        "capped",
        "length mean",
        "branching in rally",
        "B − A",
    ] {
        assert!(r.contains(row), "missing `{row}` in\n{r}");
    }
    let v = json(&muster(&[
        "simulate",
        f,
        "--games",
        "20",
        "--seed",
        "2",
        "--compare",
        "short",
        "--json",
    ]));
    let (a, b) = (&v["base"], &v["compare"]);
    assert_eq!(a["variant"], serde_json::Value::Null);
    assert_eq!(b["variant"], "short");
    assert_eq!(b["max_turns"], 12);
    // Random play of Army Ants often runs past 12 turns: the variant caps more games.
    assert!(b["capped"].as_u64() > a["capped"].as_u64(), "{v}");
    assert!(b["length"]["max"].as_u64().unwrap() <= 12);
    let d = &v["differences"]["capped"];
    let pct = |x: &serde_json::Value| x.as_u64().unwrap() as f64 * 100.0 / 20.0;
    assert_eq!(d["base"].as_f64().unwrap(), pct(&a["capped"]));
    assert_eq!(
        d["difference"].as_f64().unwrap(),
        pct(&b["capped"]) - pct(&a["capped"])
    );
    // The same seeds: the variant plays exactly the games the base file plays when capped
    // at 12 turns from the command line.
    let short_base = muster(&[
        "simulate",
        f,
        "--games",
        "20",
        "--seed",
        "2",
        "--json",
        "--max-turns",
        "12",
    ]);
    let sb = json(&short_base);
    assert_eq!(sb["seats"], b["seats"]);
    assert_eq!(sb["capped"], b["capped"]);
}

#[test]
fn compare_with_a_copy_of_the_file_shows_no_difference() {
    // The copy only adds a variant: its base game is the same game.
    let copy = game_with_variant("copy");
    let v = json(&muster(&[
        "simulate",
        GAME,
        "--games",
        "12",
        "--seed",
        "8",
        "--compare",
        copy.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(v["base"]["seats"], v["compare"]["seats"]);
    let diffs = v["differences"].as_object().unwrap();
    assert!(diffs.len() > 10);
    for (k, d) in diffs {
        assert_eq!(d["difference"].as_f64(), Some(0.0), "{k}");
    }
}

// `--variant X --compare FILE` with the file being simulated compares the variant with the
// base game of that file (it used to play the variant on both sides), and says so.
#[test]
fn compare_naming_this_file_with_a_variant_compares_with_the_base_game() {
    let file = game_with_variant("base");
    let f = file.to_str().unwrap();
    let args = [
        "simulate",
        f,
        "--games",
        "20",
        "--seed",
        "2",
        "--variant",
        "short",
        "--compare",
        f,
    ];
    let out = muster(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let r = text(&out.stdout);
    assert!(
        r.contains("A: Army Ants — army_ants.muster [variant short] ("),
        "{r}"
    );
    assert!(
        r.contains("B: Army Ants — army_ants.muster [base game, without variant short] ("),
        "{r}"
    );
    let v = json(&muster(&[&args[..], &["--json"]].concat()));
    let (a, b) = (&v["base"], &v["compare"]);
    assert_eq!(a["variant"], "short");
    assert_eq!(a["max_turns"], 12);
    assert_eq!(b["variant"], serde_json::Value::Null);
    assert_ne!(b["max_turns"], 12);
    // The B side is the base game, as `simulate FILE` plays it on the same seeds.
    let plain = json(&muster(&[
        "simulate", f, "--games", "20", "--seed", "2", "--json",
    ]));
    assert_eq!(plain["seats"], b["seats"]);
    assert_eq!(plain["capped"], b["capped"]);
    assert!(a["capped"].as_u64() > b["capped"].as_u64(), "{v}");
}

// A comparison whose two sides would be the same game is refused as a usage error, with
// the option named and the way to write what was probably meant.
#[test]
fn compare_refuses_to_compare_a_game_with_itself() {
    let file = game_with_variant("itself");
    let f = file.to_str().unwrap();
    // The same file written another way is still the same file.
    let other_spelling = file.parent().unwrap().join(".").join("army_ants.muster");
    let o = other_spelling.to_str().unwrap();
    let out = muster(&["simulate", f, "--games", "2", "--compare", o]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    let e = text(&out.stderr);
    assert!(
        e.contains(&format!(
            "error: --compare {o} names the rules file being simulated, without a variant: \
             both sides would play the same games"
        )),
        "{e}"
    );
    assert!(
        e.contains(&format!("`--variant NAME --compare {o}`")),
        "{e}"
    );

    let out = muster(&[
        "simulate",
        f,
        "--games",
        "2",
        "--variant",
        "short",
        "--compare",
        "short",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    let e = text(&out.stderr);
    assert!(
        e.contains(
            "error: --compare short names the variant being simulated (--variant short): \
             both sides would play the same games"
        ),
        "{e}"
    );
    assert!(
        e.contains(&format!("`--variant short --compare {f}`")),
        "{e}"
    );
}

#[test]
fn compare_refuses_an_unknown_variant() {
    let out = muster(&["simulate", GAME, "--games", "2", "--compare", "nosuch"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("nosuch"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn search_agents_play_from_the_command_line() {
    // Greedy and a small search, on 3 seats of the chip game, deterministic across --jobs.
    let run = |jobs: &str| {
        json(&muster(&[
            "simulate",
            CHIPS,
            "--players",
            "3",
            "--games",
            "6",
            "--agents",
            "ismcts:30,greedy,random",
            "--seed",
            "5",
            "--jobs",
            jobs,
            "--json",
        ]))
    };
    let (one, two) = (run("1"), run("2"));
    assert_eq!(one["seats"], two["seats"]);
    assert_eq!(one["length"], two["length"]);
    assert_eq!(one["seats"][0]["agent"], "ismcts:30");
    let chips: f64 = (0..3)
        .map(|p| one["seats"][p]["mean_score"].as_f64().unwrap())
        .sum();
    // Chips change hands but are never made or lost: 10 a seat.
    assert!((chips - 30.0).abs() < 1e-9, "{chips}");
    let out = muster(&["simulate", GAME, "--agents", "mcts:x,random"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("`mcts:500ms` thinking time"));
}

#[test]
fn play_takes_a_think_time_and_agents_finish_a_game() {
    let out = muster(&[
        "play",
        GAME,
        "--agents",
        "greedy,mcts:20",
        "--seed",
        "6",
        "--think",
        "10",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let t = text(&out.stdout);
    assert!(
        t.contains("Red plays ") && t.contains("Black plays "),
        "{t}"
    );
    assert!(t.contains("game over: "), "{t}");
}

#[test]
fn bench_reports_one_thread_and_all_threads() {
    let out = muster(&["bench", GAME, "--seconds", "0.1"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let t = text(&out.stdout);
    let lines: Vec<&str> = t.lines().collect();
    assert!(lines[1].starts_with("  1 thread:"), "{t}");
    assert!(lines[2].contains(" threads:"), "{t}");
    for l in &lines[1..3] {
        assert!(
            l.contains("playouts/s") && l.contains("legal-action queries/s"),
            "{t}"
        );
    }
}

#[test]
fn bench_by_action_gives_each_listed_action_its_cost() {
    let out = muster(&["bench", GAME, "--seconds", "0.2", "--by-action"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let t = text(&out.stdout);
    let table: Vec<&str> = t
        .lines()
        .skip_while(|l| !l.contains("by action"))
        .skip(2)
        .collect();
    let row = |name: &str| -> Vec<f64> {
        let l = table
            .iter()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no row for {name}:\n{t}"));
        l.split_whitespace()
            .skip(1)
            .map(|x| x.trim_end_matches('%').parse().expect("a number"))
            .collect()
    };
    // Listings, µs, steps and actions found per listing; applications, µs and steps per
    // application; the share of the time.
    let (march, move_out, swap, attack) =
        (row("march"), row("move_out"), row("swap"), row("attack"));
    for r in [&march, &move_out, &swap, &attack] {
        assert_eq!(r.len(), 8, "{t}");
        assert!(r[0] >= 1.0 && r[1] > 0.0 && r[2] > 0.0, "{t}");
        // An action is applied at most as often as it is listed and found.
        assert!(r[4] <= r[0] * r[3] + 0.5, "{t}");
    }
    // Random play applies the common actions; an application takes time and steps.
    for r in [&march, &swap] {
        assert!(r[4] >= 1.0 && r[5] > 0.0 && r[6] > 0.0, "{t}");
    }
    // Marches and swaps are asked in every turn, moving out and attacks only in battle.
    assert_eq!(march[0], swap[0], "{t}");
    assert_eq!(move_out[0], attack[0], "{t}");
    assert!(march[0] > move_out[0], "{t}");
    let shares: f64 = table
        .iter()
        .filter_map(|l| l.split_whitespace().last())
        .map(|x| x.trim_end_matches('%').parse::<f64>().expect("a share"))
        .sum();
    assert!(
        (shares - 100.0).abs() < 0.5,
        "shares add up to {shares}:\n{t}"
    );
}

#[test]
fn bench_by_clause_gives_each_clause_its_own_steps() {
    let out = muster(&["bench", GAME, "--seconds", "0.2", "--by-clause"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let t = text(&out.stdout);
    assert!(!t.contains("by action"), "{t}");
    let table: Vec<&str> = t
        .lines()
        .skip_while(|l| !l.contains("by clause"))
        .skip(2)
        .collect();
    // Share, steps per run, runs, then the clause: its place among the action's clauses,
    // what it is, its action and where it stands.
    let row = |clause: &str| -> (f64, f64, u64) {
        let l = (table.iter())
            .find(|l| l.contains(clause))
            .unwrap_or_else(|| panic!("no row for {clause}:\n{t}"));
        let w: Vec<&str> = l.split_whitespace().collect();
        let share = w[0].trim_end_matches('%').parse().expect("a share");
        (
            share,
            w[1].parse().expect("steps"),
            w[2].parse().expect("runs"),
        )
    };
    // The attack's two `require`s are written after two `let`s; the engine judges them
    // first, `foe` and `att` read where they stand (`target.piece`, `from.piece`), so they
    // are the 4th and 5th clauses, right after `choose target`. The 4th, `foe.owner != me`,
    // is judged with the `choose` for the cells in sight at once, and counts with it (no
    // row of its own); the 5th runs for the targets the 4th lets pass, and the `let`s (now 6th
    // and 7th, 2 steps each: the piece and its local) only for those the 5th lets pass,
    // fewer times than it runs.
    assert!(
        !t.contains("4. `require foe.owner != me`"),
        "judged with its choose:\n{t}"
    );
    let (_, _, target_runs) = row("3. `choose target` of action `attack`");
    let (share, _, runs) = row("5. `require leader(foe) or (value(foe) <= value(att))`");
    let (_, let_steps, let_runs) = row("6. a `let` of action `attack`");
    assert!(share > 0.0 && runs > 0 && target_runs > 0, "{t}");
    assert_eq!(let_steps, 2.0, "{t}");
    assert!(let_runs > 0 && let_runs < runs, "{t}");
    // The costliest first.
    let shares: Vec<f64> = (table.iter())
        .map(|l| {
            l.split_whitespace()
                .next()
                .unwrap()
                .trim_end_matches('%')
                .parse()
                .unwrap()
        })
        .collect();
    assert!(shares.windows(2).all(|w| w[0] >= w[1]), "{t}");
    let sum: f64 = shares.iter().sum();
    assert!((sum - 100.0).abs() < 0.5, "shares add up to {sum}:\n{t}");
}
