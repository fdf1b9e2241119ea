//! Seeded random playouts of every shipped game and variant, fingerprinted: at each decision
//! the deciding seat and the texts of all its legal actions, in order, go into a 64-bit
//! FNV-1a hash, and at the end the outcome. The snapshot pins those traces, so a change to
//! the engine meant only to make it faster fails here if it lists any action differently,
//! lists them in another order, or plays any seeded game another way. On the way, every
//! listed action applies without an error and the ones checked are legal by `why_illegal`.

mod common;

use muster::engine::{Engine, Outcome};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Random playouts per game and variant, seeded 0, 1, ...; the player counts take turns, so
/// four cover every count a shipped game allows (Battalion, the chip game: 3 to 6).
const PLAYOUTS: u64 = 4;

/// Plays the seeded playouts of one game (`games/NAME.muster`) and variant, at most `cap`
/// actions each, and returns its line of the snapshot: how much was played and listed, the
/// outcomes, and the trace.
fn traces(name: &str, variant: Option<&str>, cap: usize) -> String {
    let e =
        Engine::new(common::compile_file_or_panic(&format!("games/{name}.muster"), variant).game);
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut fold = |bytes: &[u8]| {
        for &b in bytes {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    let (mut actions, mut listed) = (0usize, 0usize);
    let (mut wins, mut draws, mut capped, mut unfinished) = (0, 0, 0, 0);
    let counts = e.game.max_players - e.game.min_players + 1;
    for seed in 0..PLAYOUTS {
        let players = e.game.min_players + (seed % u64::from(counts)) as u8;
        let what = format!("{name} {variant:?} {players}p seed {seed}");
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut s = e.start(players, seed).expect("the game starts");
        let mut played = 0;
        while let Some(seat) = e.decider(&s) {
            if played == cap {
                break;
            }
            let legal = e.legal_actions(&s);
            assert!(!legal.is_empty(), "{what}: seat {seat} has no legal action");
            fold(format!("seat {seat}:").as_bytes());
            for a in &legal {
                let text = e.action_text(&s, a);
                fold(text.as_bytes());
                fold(b"\n");
                let mut t = s.clone();
                if let Err(err) = e.apply_listed(&mut t, a) {
                    panic!("{what}: listed `{text}` fails: {err}");
                }
            }
            listed += legal.len();
            let pick = rng.gen_range(0..legal.len());
            for a in [&legal[0], &legal[pick], &legal[legal.len() - 1]] {
                if let Some(why) = e.why_illegal(&s, a) {
                    panic!(
                        "{what}: listed `{}` is refused: {why}",
                        e.action_text(&s, a)
                    );
                }
            }
            e.apply_listed(&mut s, &legal[pick]).unwrap();
            played += 1;
        }
        actions += played;
        fold(format!("outcome {:?}\n", s.outcome).as_bytes());
        match s.outcome {
            Some(Outcome::Win(_)) => wins += 1,
            Some(Outcome::Draw) => draws += 1,
            Some(Outcome::Capped) => capped += 1,
            None => unfinished += 1,
        }
    }
    let game = match variant {
        Some(v) => format!("{name}/{v}"),
        None => name.to_string(),
    };
    format!(
        "{game}: {PLAYOUTS} playouts, {actions} actions, {listed} listed, outcomes \
         {wins} won {draws} drawn {capped} capped {unfinished} unfinished, trace {hash:#018x}"
    )
}

// Every shipped game and each variant its file declares, played the same way as ever.
#[test]
fn seeded_playouts_list_and_play_as_before() {
    let mut lines = Vec::new();
    for (name, variant) in common::shipped_games_and_variants() {
        // Battle Line's random games run to thousands of actions: its first 300 will do.
        let cap = if name == "battle_line" { 300 } else { 2_000 };
        lines.push(traces(&name, variant.as_deref(), cap));
    }
    insta::assert_snapshot!(lines.join("\n"));
}
