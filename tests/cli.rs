//! Black-box tests of the `muster` binary: exit codes, bad input, and the save → replay
//! round trip.

mod common;

use common::binary::{muster, text};

const GAME: &str = "games/army_ants.muster";

fn temp(name: &str, content: &[u8]) -> std::path::PathBuf {
    let p = common::binary::temp_path("cli", name);
    std::fs::write(&p, content).unwrap();
    p
}

#[test]
fn validate_accepts_the_game() {
    let out = muster(&["validate", GAME], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "ok: games/army_ants.muster (0 error(s), 0 warning(s))\n"
    );
}

#[test]
fn validate_locates_an_error_and_exits_1() {
    let src = std::fs::read_to_string(GAME).unwrap().replace(
        "choose target in sight(from, orthogonal)",
        "choose target in sigth(from, orthogonal)",
    );
    let p = temp("typo.muster", src.as_bytes());
    // Imports resolve next to the file: copy the library beside it.
    std::fs::create_dir_all(p.parent().unwrap().join("lib")).unwrap();
    std::fs::copy(
        "games/lib/standard_deck.muster",
        p.parent().unwrap().join("lib/standard_deck.muster"),
    )
    .unwrap();
    let out = muster(&["validate", p.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("unknown function `sigth`"), "{err}");
    let line = src.lines().position(|l| l.contains("sigth")).unwrap() + 1;
    let col = src.lines().nth(line - 1).unwrap().find("sigth").unwrap() + 1;
    assert!(
        err.contains(&format!("typo.muster:{line}:{col}]")),
        "the diagnostic gives file:line:column: {err}"
    );
    assert!(err.contains("did you mean `sight`?"), "{err}");
}

#[test]
fn validate_json_gives_one_object_per_diagnostic() {
    let p = temp(
        "two.muster",
        b"game \"T\" { players 2 }\nphase p { turn { one of nope, nada } }\n",
    );
    let out = muster(&["validate", "--format", "json", p.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let items = v.as_array().unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(items[0]["line"], 2);
    assert_eq!(items[0]["code"], "muster::unknown-name");
    assert_eq!(items[1]["message"], "unknown action `nada`");
}

#[test]
fn missing_file_is_an_io_error() {
    let out = muster(&["validate", "no/such/file.muster"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no such file"));
}

#[test]
fn binary_junk_and_truncated_files_are_refused_without_panic() {
    let junk = temp("junk.muster", &[0u8, 159, 146, 150, 255, 0, 1, 2]);
    let out = muster(&["validate", junk.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("not a text file"));

    let full = std::fs::read_to_string(GAME).unwrap();
    let cut = temp("cut.muster", &full.as_bytes()[..full.len() / 2]);
    let out = muster(&["validate", cut.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(!text(&out.stderr).contains("panicked"));
}

#[test]
fn simulate_reports_results() {
    let out = muster(&["simulate", GAME, "--games", "40", "--seed", "1"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    for word in ["Red", "Black", "draws", "capped", "length", "branching"] {
        assert!(report.contains(word), "{report}");
    }
    let json = muster(
        &[
            "simulate", GAME, "--games", "40", "--seed", "1", "--json", "--jobs", "1",
        ],
        "",
    );
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let wins: u64 = v["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["wins"].as_u64().unwrap())
        .sum();
    assert_eq!(
        wins + v["draws"].as_u64().unwrap() + v["capped"].as_u64().unwrap(),
        40
    );
    // The same seed gives the same results whatever the number of threads.
    let again = muster(
        &[
            "simulate", GAME, "--games", "40", "--seed", "1", "--json", "--jobs", "2",
        ],
        "",
    );
    let w: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(v["seats"], w["seats"]);
    assert_eq!(v["length"], w["length"]);
}

#[test]
fn wrong_player_count_and_unknown_agent_are_usage_errors() {
    let out = muster(&["simulate", GAME, "--players", "3"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("for 2 players, not 3"));
    let out = muster(&["play", GAME, "--agents", "human,wizard"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown agent `wizard`"));
}

#[test]
fn play_reprompts_on_bad_input_and_quits_cleanly() {
    let out = muster(
        &["play", GAME, "--seed", "3"],
        "march z9 n 1\nfly a1\nmarch b1 n 1\n9999\nquit\n",
    );
    assert_eq!(out.status.code(), Some(0));
    let t = text(&out.stdout);
    assert!(
        t.contains("cannot read `z9` as the `run` of `march`"),
        "{t}"
    );
    assert!(t.contains("there is no action `fly`"), "{t}");
    assert!(
        t.contains("illegal: `1` is not one of the choices for `steps` here"),
        "{t}"
    );
    assert!(t.contains("there is no move 9999"), "{t}");
    assert!(t.contains("game left unfinished after 0 action(s)"), "{t}");
}

#[test]
fn a_saved_game_replays_to_the_same_final_position() {
    let log = temp("agents.log", b"");
    let out = muster(
        &[
            "play",
            GAME,
            "--agents",
            "random,random",
            "--seed",
            "11",
            "--save",
            log.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let played = text(&out.stdout);
    // The final board follows the last move's announcement and its report (indented).
    let after_last = played
        .rsplit_once("plays ")
        .unwrap()
        .1
        .split_once('\n')
        .unwrap()
        .1;
    let final_board = after_last
        .lines()
        .skip_while(|l| l.starts_with("  "))
        .collect::<Vec<_>>()
        .join("\n")
        .split("game over")
        .next()
        .unwrap()
        .to_string();
    let replay = muster(&["replay", GAME, log.to_str().unwrap()], "");
    assert_eq!(replay.status.code(), Some(0), "{}", text(&replay.stderr));
    let replayed = text(&replay.stdout);
    assert!(
        replayed.starts_with(final_board.trim_end()),
        "play ended with\n{final_board}\nreplay printed\n{replayed}"
    );
    let n = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("Red:") || l.starts_with("Black:"))
        .count();
    assert!(replayed.contains(&format!("{n} action(s) replayed")));
}

#[test]
fn a_corrupt_log_names_the_first_bad_action() {
    let log = temp("bad.log", b"rules army_ants.muster\nplayers 2\nseed 3\nRed: march b1 e 1\nBlack: swap a5 a6\nRed: attack a1 a8\n");
    let out = muster(&["replay", GAME, log.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("action 3 (line 6) `attack a1 a8` does not replay"),
        "{err}"
    );
    let junk = temp("junk.log", b"seed banana\n");
    let out = muster(&["replay", GAME, junk.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("`seed` needs a whole number"));
}

#[test]
fn moves_lists_actions_that_parse_back() {
    let out = muster(&["moves", GAME, "--seed", "3"], "");
    assert_eq!(out.status.code(), Some(0));
    let lines: Vec<String> = text(&out.stdout).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 35);
    assert_eq!(lines[0], "march b1 e 1");
    assert!(lines
        .iter()
        .all(|l| l.starts_with("march ") || l.starts_with("swap ") || l.starts_with("favor ")));
}

#[test]
fn dump_prints_ron_that_reads_back() {
    let out = muster(&["dump", GAME], "");
    assert_eq!(out.status.code(), Some(0));
    let game: muster::ir::Game =
        ron::from_str(&text(&out.stdout)).expect("the dump is RON of the IR");
    assert_eq!(game.title, "Army Ants");
    assert_eq!(game.components.len(), 52);
}

// ---- Battalion, the chip game -----------------------------------------------------

const CHIPS: &str = "games/battalion_chips.muster";

#[test]
fn validate_accepts_the_chip_game() {
    let out = muster(&["validate", CHIPS], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "ok: games/battalion_chips.muster (0 error(s), 0 warning(s))\n"
    );
}

#[test]
fn simulate_chip_game_counts_add_up() {
    let out = muster(
        &[
            "simulate",
            CHIPS,
            "--players",
            "5",
            "--games",
            "50",
            "--seed",
            "1",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(
        report.starts_with("Battalion (battalion_chips.muster): 50 games, 5 players (random vs random vs random vs random vs random)"),
        "{report}"
    );
    for seat in ["P1", "P2", "P3", "P4", "P5"] {
        assert!(report.contains(&format!("  {seat} ")), "{report}");
    }
    let json = muster(
        &[
            "simulate",
            CHIPS,
            "--players",
            "5",
            "--games",
            "50",
            "--seed",
            "1",
            "--json",
            "--jobs",
            "1",
        ],
        "",
    );
    assert_eq!(json.status.code(), Some(0), "{}", text(&json.stderr));
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(
        (v["games"].as_u64(), v["players"].as_u64()),
        (Some(50), Some(5))
    );
    let seats = v["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 5);
    let wins: Vec<u64> = seats.iter().map(|s| s["wins"].as_u64().unwrap()).collect();
    for (s, w) in seats.iter().zip(&wins) {
        assert_eq!(s["win_rate"].as_f64().unwrap(), *w as f64 / 50.0);
    }
    // Every game has at least one winner (wins may be shared, so the sum may exceed 50).
    let (draws, capped) = (v["draws"].as_u64().unwrap(), v["capped"].as_u64().unwrap());
    assert!(wins.iter().sum::<u64>() + draws + capped >= 50, "{v}");
    // Actions: 3 rounds of acquisition and one of bidding per game, 5 seats each; every
    // attack is answered by one defence or surrender.
    let count = |a: &str| v["actions"][a].as_u64().unwrap_or(0);
    assert_eq!(count("draw_card") + count("take_discard"), 50 * 15, "{v}");
    assert_eq!(count("discard"), 50 * 15, "{v}");
    assert_eq!(count("bid") + count("pass"), 50 * 5, "{v}");
    assert_eq!(count("attack"), count("defend") + count("surrender"), "{v}");
    assert!(count("attack") > 0, "{v}");
    // Turns: one per acquisition and bidding turn and per attack (plus any passed turn).
    let turns = v["length"]["mean"].as_f64().unwrap() * 50.0;
    let counted = (50 * 15 + 50 * 5 + count("attack")) as f64;
    assert!(
        turns > counted - 1e-6,
        "{turns} turns for {counted} turns with a decision"
    );
    assert!(v["length"]["min"].as_u64().unwrap() > 20, "{v}");
    // The same seed gives the same results whatever the number of threads.
    let again = muster(
        &[
            "simulate",
            CHIPS,
            "--players",
            "5",
            "--games",
            "50",
            "--seed",
            "1",
            "--json",
            "--jobs",
            "2",
        ],
        "",
    );
    let w: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(v["seats"], w["seats"]);
    assert_eq!(v["actions"], w["actions"]);
    assert_eq!(v["length"], w["length"]);
}

#[test]
fn chip_game_refuses_two_and_seven_players() {
    for (cmd, n) in [
        ("simulate", "2"),
        ("simulate", "7"),
        ("play", "2"),
        ("play", "7"),
    ] {
        let out = muster(&[cmd, CHIPS, "--players", n], "");
        assert_eq!(out.status.code(), Some(2), "{cmd} --players {n}");
        assert_eq!(
            text(&out.stderr),
            format!("error: Battalion is for 3 to 6 players, not {n}\n"),
            "{cmd} --players {n}"
        );
        assert!(text(&out.stdout).is_empty());
    }
}

#[test]
fn chip_game_play_reprompts_on_bad_input_and_quits_cleanly() {
    // P1 (the dealer, a person) plays last in each round; P2-P4 are random agents.
    let input = [
        "moves", // acquisition: draw_card, take_discard
        "bid 3", // no bidding yet
        "draw_card now",
        "draw_card",
        "1", // discard the first card listed
        "draw_card",
        "1",
        "take_discard",
        "1",
        "moves",  // bidding: P3 bid 5, and P1 holds no suit that long
        "bid 3",  // below 4
        "bid 11", // out of range
        "bid 10", // more than its longest suit
        "pass",
        "moves", // P3 attacks P1, who must answer
        "quit",
    ]
    .join("\n");
    let out = muster(
        &[
            "play",
            CHIPS,
            "--players",
            "4",
            "--seed",
            "1",
            "--agents",
            "human,random,random,random",
        ],
        &input,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let t = text(&out.stdout);
    for want in [
        "P1>    1. draw_card\n   2. take_discard\n",
        "illegal: `bid` is not offered now; the choices are: draw_card, take_discard",
        "cannot read that: `draw_card` takes 0 argument(s)",
        "P2 plays bid 4\n",
        "P3 plays bid 5\n",
        "P4 plays pass\n",
        "  highest bid 4 → 5\n",
        "phase bidding · turn 16 · P1 to decide",
        "P1>    1. pass\n",
        "illegal: `3` is not one of the choices for `n` here",
        "illegal: `11` is not one of the choices for `n` here",
        "illegal: a bid must be above the highest bid so far and no more than the cards of your longest suit",
        "P3 plays attack hearts QH+6H+5H+5H+2H P1\n",
        "attack_row: QH 6H 5H 5H 2H\n",
        "   4. surrender\n",
        "game left unfinished after 29 action(s)",
    ] {
        assert!(t.contains(want), "missing {want:?} in\n{t}");
    }
    // The person sees its own hand only.
    assert!(t.contains("hand (P2): 10 face down"), "{t}");
    assert!(t.contains("stock: 62 face down"), "{t}");
}

#[test]
fn chip_game_reveal_shows_hidden_cards() {
    let args = [
        "play",
        CHIPS,
        "--players",
        "3",
        "--seed",
        "2",
        "--agents",
        "human,random,random",
    ];
    let hidden = text(&muster(&args, "quit\n").stdout);
    assert!(hidden.contains("hand (P2): 10 face down\n"), "{hidden}");
    assert!(hidden.contains("hand (P3): 10 face down\n"), "{hidden}");
    assert!(hidden.contains("stock: 72 face down\n"), "{hidden}");
    let shown = text(&muster(&[&args[..], &["--reveal"]].concat(), "quit\n").stdout);
    assert!(!shown.contains("face down"), "{shown}");
    for line in ["hand (P1): ", "hand (P2): ", "hand (P3): ", "stock: "] {
        let l = shown
            .lines()
            .find(|l| l.starts_with(line))
            .unwrap_or_else(|| panic!("no {line:?} in {shown}"));
        let n = l[line.len()..].split(' ').count();
        assert_eq!(n, if line == "stock: " { 72 } else { 10 }, "{l}");
    }
    // The person's own hand is the same either way.
    let own = |t: &str| {
        t.lines()
            .find(|l| l.starts_with("hand (P1)"))
            .map(str::to_string)
    };
    assert_eq!(own(&hidden), own(&shown));
}

const BATTAGLIONE: &str = "games/battaglione.muster";

#[test]
fn validate_accepts_battaglione() {
    let out = muster(&["validate", BATTAGLIONE], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "ok: games/battaglione.muster (0 error(s), 0 warning(s))\n"
    );
}

// An unknown variant is a usage error (exit 2) that lists the variants the file declares,
// for every command that takes one.
#[test]
fn an_unknown_variant_lists_the_known_ones() {
    for (args, known) in [
        (
            vec![
                "simulate",
                BATTAGLIONE,
                "--variant",
                "nope",
                "--players",
                "3",
            ],
            "known variants: super_captain",
        ),
        (
            vec!["dump", BATTAGLIONE, "--variant", "nope"],
            "known variants: super_captain",
        ),
        (
            vec!["play", GAME, "--variant", "nope"],
            "known variants: minor_deployment, total_deployment",
        ),
    ] {
        let out = muster(&args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains("unknown variant `nope`"), "{args:?}: {err}");
        assert!(err.contains(known), "{args:?}: {err}");
        assert!(text(&out.stdout).is_empty(), "{args:?}");
    }
}

// Simulating super_captain with three players: 30 games, all won (a shared win counts for
// each winner), none capped, the report naming the variant.
#[test]
fn simulate_super_captain_with_three_players() {
    let args = [
        "simulate",
        BATTAGLIONE,
        "--variant",
        "super_captain",
        "--players",
        "3",
        "--games",
        "30",
    ];
    let out = muster(&args, "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(
        report.starts_with(
            "Battaglione (battaglione.muster [variant super_captain]): 30 games, 3 players"
        ),
        "{report}"
    );
    for word in ["P1", "P2", "P3", "draws", "capped"] {
        assert!(report.contains(word), "{report}");
    }
    let mut json_args = args.to_vec();
    json_args.extend(["--json", "--jobs", "1"]);
    let json = muster(&json_args, "");
    assert_eq!(json.status.code(), Some(0), "{}", text(&json.stderr));
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["variant"], "super_captain");
    assert_eq!(
        (v["games"].as_u64(), v["players"].as_u64()),
        (Some(30), Some(3))
    );
    // A few of these games may reach the length cap: a battle whose draw pile is spent for
    // good goes on while every player has a patrol (the discard pile's top), until someone
    // closes. There are no draws.
    let capped = v["capped"].as_u64().unwrap();
    assert_eq!(v["draws"].as_u64(), Some(0));
    assert!(capped * 4 < 30, "{capped} of 30 capped");
    let wins: u64 = v["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["wins"].as_u64().unwrap())
        .sum();
    assert!(
        wins + capped >= 30,
        "{wins} wins in {} games that end",
        30 - capped
    );
}

// Twin cards in different public places have different texts, so every saved game
// replays (these seeds once listed two different attacks as `shoot Bul P2 Sy`).
#[test]
fn battaglione_agent_games_replay_exactly() {
    for seed in ["2", "14", "32"] {
        let log = temp(&format!("bat{seed}.log"), b"");
        let out = muster(
            &[
                "play",
                "games/battaglione.muster",
                "--players",
                "2",
                "--agents",
                "random,random",
                "--seed",
                seed,
                "--save",
                log.to_str().unwrap(),
            ],
            "",
        );
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let replay = muster(
            &["replay", "games/battaglione.muster", log.to_str().unwrap()],
            "",
        );
        assert_eq!(
            replay.status.code(),
            Some(0),
            "seed {seed}: {}",
            text(&replay.stderr)
        );
    }
}

const EMPEROR: &str = "games/battalion_emperor.muster";

#[test]
fn emperor_game_validates_and_plays_at_two_to_four_players() {
    let out = muster(&["validate", EMPEROR], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    for players in ["2", "3", "4"] {
        let out = muster(
            &[
                "play",
                EMPEROR,
                "--players",
                players,
                "--agents",
                &vec!["random"; players.parse().unwrap()].join(","),
                "--seed",
                "3",
            ],
            "",
        );
        assert_eq!(
            out.status.code(),
            Some(0),
            "{players}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stdout).contains("game over: "),
            "{players} players"
        );
    }
    let out = muster(&["play", EMPEROR, "--players", "5"], "");
    assert_eq!(out.status.code(), Some(2), "five players is a usage error");
}

#[test]
fn a_person_sees_their_formation_face_up_and_the_others_face_down() {
    let mut input = String::from("deploy phalanx\nappoint 7S\n");
    for c in [
        "AS", "2S", "3S", "4S", "5S", "6S", "8S", "9S", "TS", "JS", "QS", "KS",
    ] {
        input.push_str(&format!("station {c}\n"));
    }
    // An illegal move at the prompt is refused with a reason, then play goes on.
    input.push_str("attack post1@S guard@H\npass\n");
    let out = muster(
        &["play", EMPEROR, "--agents", "human,random", "--seed", "2"],
        &input,
    );
    let t = text(&out.stdout);
    assert!(t.contains("post of S (phalanx 4-4-4):"), "{t}");
    assert!(t.contains("1:AS"), "own cards face up: {t}");
    // H's formation is drawn with its shape, every card face down.
    let h = t.rfind("post of H (").expect("H's formation is drawn");
    let h_part: String = t[h..].lines().take(6).collect::<Vec<_>>().join("\n");
    assert!(h_part.contains("1:??"), "{h_part}");
    assert!(
        !["AH", "2H", "KH", "QH"].iter().any(|c| h_part.contains(c)),
        "{h_part}"
    );
    assert!(
        t.contains("illegal: `guard@H` is not one of the choices"),
        "refused with a reason: {t}"
    );
}

// `validate -` reads the rules from the standard input (imports relative to the current
// folder), and locates its diagnostics in `<stdin>`.
#[test]
fn validate_reads_the_standard_input() {
    let good = std::fs::read_to_string("tests/pawn_race.muster").unwrap();
    let out = muster(&["validate", "-"], &good);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("ok: - (0 error(s)"));
    let bad = good.replace("var steps per seat = 0", "var steps per seat = 0\nzonk");
    let out = muster(&["validate", "-"], &bad);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("[<stdin>:"),
        "{}",
        text(&out.stderr)
    );
}
