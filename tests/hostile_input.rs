//! Regressions from the hostile-input audit: rules files, logs and command lines built to
//! break the engine and the command line. Each must be refused cleanly, never crash.

use muster::check::compile_source;
use muster::engine::{Engine, EngineError};

fn engine(rules: &str) -> Engine {
    match compile_source("hostile.muster", rules, None) {
        Ok(c) => Engine::new(c.game),
        Err(f) => panic!(
            "{}",
            muster::diagnostic::render(&f.sources, &f.diagnostics, false)
        ),
    }
}

/// Plays the first legal action until the game ends, fails or `moves` were taken.
fn play_first(engine: &Engine, moves: usize) -> Result<(), EngineError> {
    let mut s = engine.start(2, 1)?;
    for _ in 0..moves {
        if engine.decider(&s).is_none() {
            break;
        }
        let a = engine.legal_actions(&s)[0].clone();
        engine.apply(&mut s, &a)?;
    }
    Ok(())
}

/// Runs `f` on a thread with a small stack (256 KiB), so that a recursion that grows with
/// the number of turns shows as a stack overflow here and not only in long games.
fn small_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|t| {
        std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn_scoped(t, f)
            .unwrap()
            .join()
            .expect("no stack overflow")
    })
}

// Two phases that hand over to each other with nothing to decide: each phase change used
// to add a stack frame and restart the count of empty turns, until the stack overflowed.
// Now the empty turns are counted across phases, and the game stops with a rules error.
#[test]
fn phases_handing_over_with_no_decision_are_a_rules_error() {
    let e = engine(
        r#"
        game "Relay" { players 2  max_turns 1000000 }
        var n = 0
        phase a {
          turn { one of act if n < 0 }
          until true
          next b
        }
        phase b {
          turn { one of act if n < 0 }
          until true
          next a
        }
        action act { do { } }
    "#,
    );
    let err = small_stack(|| play_first(&e, 10)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "rules error [muster::run::no-progress]: the rules make no progress: 10000 turns passed with nothing to decide, \
         in setting up the game"
    );
}

// ---------------------------------------------------------------------------------------
// Through the binary.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn muster(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_muster"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("muster runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn temp(name: &str, content: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("muster-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, content).unwrap();
    p
}

fn code(out: &Output) -> Option<i32> {
    assert!(
        !text(&out.stderr).contains("panicked"),
        "{}",
        text(&out.stderr)
    );
    out.status.code()
}

// Names longer than Rust's formatter can pad to (65,535 characters) used to panic the
// board and the reports: a seat, a label and an action, each 70,000 characters long.
#[test]
fn very_long_names_play_replay_and_simulate() {
    let n = "a".repeat(70_000);
    let files = [
        format!(
            "game \"L\" {{ players 2 }}\nseat {n}\nseat B\nphase p {{ turn {{ one of go }} }}\n\
             action go {{ do {{ end turn }} }}\n"
        ),
        format!(
            "game \"L\" {{ players 2 }}\nboard grid 2 x 2\nkind Card {{ rank: 1..3 label \"{n}\" }}\n\
             deck d of Card {{ card {{ rank: 1 }} }}\nzone pile shared public {{ holds d }}\n\
             phase p {{ turn {{ one of go }} }}\n\
             action go {{ choose c in pile choose x in cells require x.empty do {{ move c to x }} }}\n"
        ),
        format!(
            "game \"L\" {{ players 2 }}\nphase p {{ turn {{ one of {n} }} }}\n\
             action {n} {{ do {{ end turn }} }}\n"
        ),
    ];
    for (i, rules) in files.iter().enumerate() {
        let f = temp(&format!("long{i}.muster"), rules.as_bytes());
        let log = f.with_extension("log");
        let (f, log) = (f.to_str().unwrap(), log.to_str().unwrap());
        let out = muster(&["simulate", f, "--games", "2", "--max-turns", "20"]);
        assert_eq!(code(&out), Some(0), "rules {i}");
        let out = muster(&[
            "play",
            f,
            "--agents",
            "random,random",
            "--max-turns",
            "20",
            "--save",
            log,
        ]);
        assert_eq!(code(&out), Some(0), "rules {i}");
        let out = muster(&["replay", f, log]);
        assert_eq!(code(&out), Some(0), "rules {i}");
    }
}

// `--seconds` must be a finite number of seconds above zero: NaN used to panic.
#[test]
fn bench_refuses_seconds_that_are_not_a_duration() {
    for bad in ["NaN", "inf", "-1", "0"] {
        let arg = format!("--seconds={bad}");
        let out = muster(&["bench", "games/army_ants.muster", &arg]);
        assert_eq!(code(&out), Some(2), "--seconds {bad}");
        assert!(
            text(&out.stderr).contains("is not a number of seconds above 0"),
            "{}",
            text(&out.stderr)
        );
    }
}

// Output piped into a program that stops reading (`| head`) ends the command quietly.
#[test]
fn a_closed_pipe_ends_the_command_quietly() {
    let log = temp(
        "pipe.log",
        b"# muster log\ngame games/battle_line.muster\nplayers 2\nseed 1\n",
    );
    let runs: [&[&str]; 2] = [
        &["moves", "games/battle_line.muster"],
        &[
            "replay",
            "games/battle_line.muster",
            log.to_str().unwrap(),
            "--verbose",
        ],
    ];
    for args in runs {
        let mut child = Command::new(env!("CARGO_BIN_EXE_muster"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Close the reading end before anything is written.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert_eq!(code(&out), Some(0), "{args:?}: {}", text(&out.stderr));
        assert_eq!(text(&out.stderr), "", "{args:?}");
    }
}

// `dump` writes the IR of valid rules however deeply they nest: 31 nested `if`s and a sum
// of 70 terms went past the RON writer's recursion limit.
#[test]
fn dump_writes_deeply_nested_rules() {
    let ifs = "if n < 100 { ".repeat(31) + "n += 1" + &" }".repeat(31);
    let sum = vec!["n"; 70].join(" + ");
    let rules = format!(
        "game \"Deep\" {{ players 2 }}\nvar n = 0\nphase p {{ turn {{ one of go }} }}\n\
         action go {{ require {sum} >= 0 do {{ {ifs} }} }}\n"
    );
    let f = temp("deep.muster", rules.as_bytes());
    let out = muster(&["validate", f.to_str().unwrap()]);
    assert_eq!(code(&out), Some(0), "{}", text(&out.stderr));
    let out = muster(&["dump", f.to_str().unwrap()]);
    assert_eq!(code(&out), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("format_version"));
}

// A UTF-8 byte-order mark at the start of a file is skipped, and an error after it is
// still placed at its line and column.
#[test]
fn a_byte_order_mark_is_skipped() {
    let good = "\u{feff}game \"Bom\" { players 2 }\nphase p { turn { one of go } }\naction go { do { end turn } }\n";
    let f = temp("bom.muster", good.as_bytes());
    let out = muster(&["validate", f.to_str().unwrap()]);
    assert_eq!(code(&out), Some(0), "{}", text(&out.stderr));
    let bad = good.replace("end turn", "end turm");
    let f = temp("bom_bad.muster", bad.as_bytes());
    let out = muster(&["validate", f.to_str().unwrap()]);
    assert_eq!(code(&out), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("bom_bad.muster:3:"), "{err}");
    assert!(!err.contains('\u{feff}'), "{err}");
}

// `max_turns` and `--max-turns` are bounded: 1 to `MAX_TURNS` turns.
#[test]
fn the_game_length_is_bounded() {
    let max = muster::check::MAX_TURNS;
    for (turns, ok) in [
        (0u64, false),
        (1, true),
        (max as u64, true),
        (max as u64 + 1, false),
        (4_294_967_295, false),
    ] {
        let rules = format!(
            "game \"Len\" {{ players 2  max_turns {turns} }}\nphase p {{ turn {{ one of go }} }}\n\
             action go {{ do {{ end turn }} }}\n"
        );
        let f = temp("len.muster", rules.as_bytes());
        let out = muster(&["validate", f.to_str().unwrap()]);
        assert_eq!(
            code(&out),
            Some(if ok { 0 } else { 1 }),
            "max_turns {turns}"
        );
        if !ok {
            assert!(
                text(&out.stderr).contains(&format!("`max_turns {turns}` is not a game length")),
                "{}",
                text(&out.stderr)
            );
        }
    }
    for (arg, want) in [("0", 2), ("1000001", 2), ("50", 0)] {
        let out = muster(&[
            "simulate",
            "games/army_ants.muster",
            "--games",
            "1",
            "--max-turns",
            arg,
        ]);
        assert_eq!(
            code(&out),
            Some(want),
            "--max-turns {arg}: {}",
            text(&out.stderr)
        );
    }
}

// `--jobs` beyond the cores there are is capped: 5,000 threads for two games took 20 s.
#[test]
fn simulate_caps_its_worker_threads() {
    let t = std::time::Instant::now();
    let out = muster(&[
        "simulate",
        "games/army_ants.muster",
        "--games",
        "2",
        "--jobs",
        "5000",
        "--max-turns",
        "10",
    ]);
    assert_eq!(code(&out), Some(0), "{}", text(&out.stderr));
    assert!(t.elapsed().as_secs() < 10, "{:?}", t.elapsed());
}

// One library imported by two spellings is read once (no duplicate declarations), and a
// file that imports itself is reported as a cycle.
#[test]
fn imports_are_known_by_their_canonical_path() {
    let lib = temp("imports/lib/pieces.muster", b"");
    std::fs::write(&lib, "kind Piece { rank: 1..3 }\n").unwrap();
    let body = "game \"Imp\" { players 2 }\nphase p { turn { one of go } }\naction go { do { end turn } }\n";
    let twice =
        format!("import \"lib/pieces.muster\"\nimport \"./lib/../lib/pieces.muster\"\n{body}");
    let f = temp("imports/twice.muster", twice.as_bytes());
    let out = muster(&["validate", f.to_str().unwrap()]);
    assert_eq!(code(&out), Some(0), "{}", text(&out.stderr));
    let own = format!("import \"./selfish.muster\"\n{body}");
    let f = temp("imports/selfish.muster", own.as_bytes());
    let out = muster(&["validate", f.to_str().unwrap()]);
    assert_eq!(code(&out), Some(1));
    assert!(
        text(&out.stderr).contains("`./selfish.muster` imports itself"),
        "{}",
        text(&out.stderr)
    );
}

// One table of exit codes for every subcommand (README.md): 0 success; 1 invalid input
// (rules refused by the checker or failing in play, a saved game that does not read or
// replay); 2 usage or I/O errors.
#[test]
fn exit_codes_are_one_table_for_every_subcommand() {
    // Valid for the checker, but no one ever has a decision: a rules error at the start.
    let idle = temp(
        "codes/idle.muster",
        b"game \"Idle\" { players 2  max_turns 1000000 }\nvar n = 0\nphase p { turn { one of go if n < 0 } }\n\
          action go { do { } }\n",
    );
    let invalid = temp(
        "codes/invalid.muster",
        b"game \"Bad\" { players 2 }\nphase p { turn { one of nope } }\n",
    );
    let idle_log = temp("codes/idle.log", b"players 2\nseed 1\n");
    let nine = temp("codes/nine.log", b"players 9\nseed 1\n");
    let junk_log = temp("codes/junk.log", b"this is not a log\n");
    let (idle, invalid) = (idle.to_str().unwrap(), invalid.to_str().unwrap());
    let (idle_log, nine, junk_log) = (
        idle_log.to_str().unwrap(),
        nine.to_str().unwrap(),
        junk_log.to_str().unwrap(),
    );
    let game = "games/army_ants.muster";
    let scenario = |name: &str, body: &str| {
        let rules = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(game);
        let text = format!("game {:?}\nscenario \"s\" {{ {body} }}\n", rules.display());
        temp(name, text.as_bytes()).to_str().unwrap().to_string()
    };
    let failing = scenario("codes/failing.scenarios", "decider Black");
    let passing = scenario("codes/passing.scenarios", "decider Red");
    let broken = scenario("codes/broken.scenarios", "jump");
    let (failing, passing, broken) = (failing.as_str(), passing.as_str(), broken.as_str());
    let cases: Vec<(Vec<&str>, i32)> = vec![
        // A rules error in play: 1 from every command that plays.
        (vec!["play", idle, "--agents", "random,random"], 1),
        (vec!["simulate", idle, "--games", "2"], 1),
        (vec!["replay", idle, idle_log], 1),
        (vec!["moves", idle], 1),
        (vec!["moves", idle, "--log", idle_log], 1),
        (vec!["bench", idle, "--seconds", "0.1"], 1),
        (vec!["perft", idle, "--depth", "1"], 1),
        (vec!["validate", idle], 0),
        (vec!["dump", idle], 0),
        // Rules the checker refuses: 1 everywhere.
        (vec!["validate", invalid], 1),
        (vec!["dump", invalid], 1),
        (vec!["play", invalid], 1),
        (vec!["simulate", invalid], 1),
        (vec!["replay", invalid, idle_log], 1),
        (vec!["moves", invalid], 1),
        (vec!["bench", invalid], 1),
        (vec!["perft", invalid], 1),
        // A scenario that does not hold, or a scenario file that cannot run: 1.
        (vec!["test", failing], 1),
        (vec!["test", broken], 1),
        (vec!["test", passing], 0),
        // A log with a player count the game does not seat, or not a log at all: 1.
        (vec!["replay", game, nine], 1),
        (vec!["moves", game, "--log", nine], 1),
        (vec!["replay", game, junk_log], 1),
        (vec!["moves", game, "--log", junk_log], 1),
        // A player count on the command line the game does not seat: usage, 2.
        (vec!["moves", game, "--players", "9"], 2),
        (vec!["simulate", game, "--players", "9"], 2),
        (vec!["play", game, "--players", "9"], 2),
        (vec!["bench", game, "--players", "9"], 2),
        (vec!["perft", game, "--players", "9"], 2),
        // A file that is not there: I/O, 2.
        (vec!["validate", "no/such.muster"], 2),
        (vec!["dump", "no/such.muster"], 2),
        (vec!["play", "no/such.muster"], 2),
        (vec!["simulate", "no/such.muster"], 2),
        (vec!["moves", "no/such.muster"], 2),
        (vec!["bench", "no/such.muster"], 2),
        (vec!["perft", "no/such.muster"], 2),
        (vec!["test", "no/such.scenarios"], 2),
        (vec!["replay", game, "no/such.log"], 2),
        // An unknown flag: usage, 2.
        (vec!["simulate", game, "--nope"], 2),
        (vec!["replay", game, idle_log, "--nope"], 2),
    ];
    for (args, want) in cases {
        let out = muster(&args);
        assert_eq!(code(&out), Some(want), "{args:?}: {}", text(&out.stderr));
    }
}

// ---------------------------------------------------------------------------------------
// The budget of one decision: each limit gone past at play time is a rules error naming
// what went over and where, never a hang or an abort.

/// The rules error of listing the first decision's actions, or of starting the game.
fn first_decision_error(rules: &str) -> String {
    let e = engine(rules);
    let r = e
        .start(2, 1)
        .and_then(|s| e.try_legal_actions(&s).map(|_| s))
        .and_then(|mut s| {
            for _ in 0..100 {
                let Some(a) = e.try_legal_actions(&s)?.first().cloned() else {
                    break;
                };
                e.apply(&mut s, &a)?;
            }
            Ok(s)
        });
    match r {
        Err(EngineError::Rules(r)) => {
            assert!(r.code.starts_with("muster::run::"), "{}", r.code);
            r.message
        }
        Err(other) => panic!("not a rules error: {other}"),
        Ok(_) => panic!("no rules error"),
    }
}

const HUGE_CHOICES: &str = r#"
        game "Huge" { players 2 }
        phase p { turn { one of pick } }
        action pick { choose a in 1..100000 choose b in 1..100000 do { end turn } }
    "#;
const HUGE_CHOICES_ERROR: &str = "more than 1,000,000 legal actions (`MAX_LEGAL_ACTIONS`), in \
    `choose b` of action `pick` (at hostile.muster:4:16), in listing the legal actions of P1 in \
    phase `p` (turn 1)";

const DOUBLING_LIST: &str = r#"
        game "Grow" { players 2 }
        var big = [1]
        phase p { turn { one of grow } }
        action grow { do { big = big + big } }
    "#;
const DOUBLING_LIST_ERROR: &str =
    "a list grew past 1,000,000 items (`MAX_LIST`), in applying `grow` (at hostile.muster:5:16)";

#[test]
fn two_huge_choices_go_past_the_legal_action_limit() {
    assert_eq!(first_decision_error(HUGE_CHOICES), HUGE_CHOICES_ERROR);
}

#[test]
fn a_list_that_doubles_goes_past_the_list_limit() {
    assert_eq!(first_decision_error(DOUBLING_LIST), DOUBLING_LIST_ERROR);
}

/// Decisions one after another on one thread, each over its budget: each names what went
/// over and where, and nothing of the decision before it.
#[test]
fn each_decision_over_its_budget_names_only_its_own_limit() {
    assert_eq!(first_decision_error(HUGE_CHOICES), HUGE_CHOICES_ERROR);
    assert_eq!(first_decision_error(DOUBLING_LIST), DOUBLING_LIST_ERROR);
    assert_eq!(first_decision_error(HUGE_CHOICES), HUGE_CHOICES_ERROR);
}

#[test]
fn nested_quantifiers_over_a_big_board_go_past_the_work_limit() {
    let m = first_decision_error(
        r#"
        game "Quant" { players 2 }
        board grid 26 x 52
        phase p { turn { one of go } }
        action go {
          require all a in cells: all b in cells: all c in cells: a == b or a != b or c == c
          do { end turn }
        }
    "#,
    );
    assert!(
        m.starts_with(
            "one decision took more than 20,000,000 evaluation steps (`MAX_WORK`), in \
             `require all a in cells: all b in cells: all c in cells:"
        ) && m.contains("of action `go`"),
        "{m}"
    );
}

#[test]
fn subsets_of_a_big_pile_go_past_the_subsets_limit() {
    let m = first_decision_error(
        r#"
        game "Subsets" { players 2 }
        kind Card { rank: 1..5000 }
        deck d of Card { for r in 1..5000 { card { rank: r } } }
        zone pile shared public { holds d }
        phase p { turn { one of go } }
        action go { choose s in subsets(pile, 0, 5000) do { end turn } }
    "#,
    );
    assert!(
        m.starts_with("`subsets` gave more than 100,000 choices (`MAX_SUBSETS`), in `choose s` of action `go`"),
        "{m}"
    );
}

#[test]
fn a_roll_over_a_range_too_large_is_a_rules_error() {
    let m = first_decision_error(
        r#"
        game "Roll" { players 2 }
        var r = 0
        phase p { turn { one of go } }
        action go { do { let x = roll(1, 1000000)  r = x } }
    "#,
    );
    assert_eq!(
        m,
        "the range 1..1000000 has 1,000,000 numbers, more than 100,000 (`MAX_RANGE`), in applying `go` (at hostile.muster:5:16)"
    );
    // Up to the limit, a roll reaches the top of its range.
    let e = engine(
        r#"
        game "Roll" { players 2 }
        var r = 0
        phase p { turn { one of go } }
        action go { do { let x = roll(99991, 100000)  r = x } }
    "#,
    );
    let mut s = e.start(2, 1).unwrap();
    let mut top = 0;
    for _ in 0..200 {
        let a = e.legal_actions(&s)[0].clone();
        e.apply(&mut s, &a).unwrap();
        top = top.max(s.globals[0].as_int());
    }
    assert_eq!(top, 100_000);
}

// A game `simulate` reports as failing is played again by `replay` on the log it writes
// (every action up to the failing one); the rules error says which action it struck in.
#[test]
fn a_failing_simulated_game_is_reproduced_by_play_and_replay() {
    let rules = b"game \"Crowd\" { players 2 }\nboard grid 3 x 1\nkind Stone { n: 1..2 }\n\
        deck d of Stone { 6 x card { n: 1 } }\nzone pool shared public { holds d }\n\
        phase p { turn { one of put } }\naction put { choose x in cells do { move first(pool) to x } }\n";
    let f = temp("crowd.muster", rules);
    let f = f.to_str().unwrap();
    let out = muster(&["simulate", f, "--games", "4", "--seed", "3"]);
    assert_eq!(code(&out), Some(1));
    let err = text(&out.stderr);
    let first = err.lines().next().unwrap();
    assert!(first.contains("is occupied"), "{err}");
    let reason = first.split(" failed: ").nth(1).unwrap().to_string();
    assert!(reason.contains(", in applying `put "), "{reason}");
    assert!(
        reason.starts_with("rules error [muster::run::occupied]: cannot move onto "),
        "{reason}"
    );
    // `replay` on the log it wrote fails on the same action with the same error.
    let replays_to_the_same_error = |err: &str| {
        let out = muster(&command_after(err, "replay its"));
        assert_eq!(code(&out), Some(1));
        assert!(
            text(&out.stderr).ends_with(&format!("does not replay: {reason}\n")),
            "{}",
            text(&out.stderr)
        );
    };
    replays_to_the_same_error(&err);
    // `play` with the seed and agents it names deals and plays the same game, to the
    // same rules error.
    let args = command_after(&err, "watch the agents");
    assert!(args.contains(&"--agents"), "{args:?}");
    let out = muster(&args);
    assert_eq!(code(&out), Some(1), "{args:?}");
    let err = text(&out.stderr);
    assert_eq!(
        err.lines().next(),
        Some(format!("error: {reason}").as_str())
    );
    // `play` keeps the game's log too, up to the action the rules failed on.
    replays_to_the_same_error(&err);
}

/// The arguments of the `muster ...` command printed on the line of `err` that contains
/// `marker`.
fn command_after<'a>(err: &'a str, marker: &str) -> Vec<&'a str> {
    let line = err
        .lines()
        .find(|l| l.contains(marker))
        .unwrap_or_else(|| panic!("no `{marker}` in {err}"));
    line.split_once(": muster ")
        .unwrap()
        .1
        .split_whitespace()
        .collect()
}
