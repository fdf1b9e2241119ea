//! Heap allocations on the engine's hot path, on each shipped game. The aim is none
//! inside a legal-action query or an `apply` of a listed action.
//!
//! A counting global allocator wraps `std::alloc::System` and counts every call to
//! `alloc`, `alloc_zeroed` and `realloc`. Seeded random playouts are played on each game
//! (the list of benches/engine.rs), and two calls are measured separately:
//!
//! - `engine.legal_into(&s, &mut buf)`, with one buffer reused across every query of the
//!   game, as a search agent would (so the buffer's first growths are counted, once);
//! - `engine.apply_listed(&mut next, &a)`, on a copy of the state made before the count
//!   starts with `next.clone_from(&s)` into a state kept from the last action (as a search
//!   keeps its states), so the copy itself is not counted.
//!
//! Each row gives, per game, the number of queries and applies measured, their
//! allocations in all, the mean and maximum per call, and the share of calls that
//! allocated nothing. The playouts are played once from cold (the first row of each game,
//! with the pools and buffers growing) and again with the same seeds once warm (`warm`),
//! which is what `tests/hot_path_allocs.rs` asserts is zero (over shorter playouts).
//!
//! Run with `cargo bench --bench allocs`. Each game plays on a thread of its own, so that
//! it warms the per-thread pools itself, and the games play one after another: nothing
//! else runs while a call is counted (the count is global), so the figures are exact.

use muster::check::compile_file;
use muster::engine::{Engine, Listed};
use rand::{Rng, SeedableRng};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

/// `System`, counting allocations (including `alloc_zeroed` and `realloc`).
struct Counting;

static ALLOCS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        System.alloc(layout)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        System.alloc_zeroed(layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        System.realloc(ptr, layout, new_size)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocs() -> u64 {
    ALLOCS.load(Ordering::SeqCst)
}

/// Allocation counts of one kind of call.
#[derive(Default)]
struct Tally {
    calls: u64,
    total: u64,
    max: u64,
    zero: u64,
}

impl Tally {
    fn add(&mut self, n: u64) {
        self.calls += 1;
        self.total += n;
        self.max = self.max.max(n);
        if n == 0 {
            self.zero += 1;
        }
    }

    fn mean(&self) -> f64 {
        self.total as f64 / self.calls.max(1) as f64
    }

    fn zero_share(&self) -> f64 {
        100.0 * self.zero as f64 / self.calls.max(1) as f64
    }
}

const PLAYOUTS: u32 = 20;

/// Each game on a thread of its own, so that it warms the per-thread pools itself.
fn measure(name: &'static str, players: u8, cap: u32) {
    std::thread::spawn(move || measure_here(name, players, cap))
        .join()
        .expect("the game plays");
}

fn measure_here(name: &str, players: u8, cap: u32) {
    let game = compile_file(format!("games/{name}.muster").as_ref(), None)
        .expect("a shipped game compiles");
    let engine = Engine::new(game.game);
    let mut buf = Listed::new();
    let first = engine.start(players, 0).expect("the game starts");
    let (mut s, mut next) = (first.clone(), first);
    for warm in [false, true] {
        let label = if warm { "  warm" } else { name };
        pass(&engine, label, players, cap, &mut buf, &mut s, &mut next);
    }
}

fn pass(
    engine: &Engine,
    name: &str,
    players: u8,
    cap: u32,
    buf: &mut Listed,
    s: &mut muster::engine::State,
    next: &mut muster::engine::State,
) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(14);
    let (mut legal, mut apply) = (Tally::default(), Tally::default());
    let mut capped = 0u32;
    for _ in 0..PLAYOUTS {
        let start = engine.start(players, rng.gen()).expect("the game starts");
        s.clone_from(&start);
        let mut actions = 0u32;
        while engine.decider(s).is_some() {
            if actions == cap {
                capped += 1;
                break;
            }
            let before = allocs();
            engine.legal_into(s, buf);
            legal.add(allocs() - before);
            assert!(!buf.is_empty(), "{name}: a decider with no legal action");
            let a = &buf[rng.gen_range(0..buf.len())];
            next.clone_from(s);
            let before = allocs();
            let r = engine.apply_listed(next, a);
            apply.add(allocs() - before);
            r.expect("a listed action applies");
            std::mem::swap(s, next);
            actions += 1;
        }
    }
    println!(
        "{name:<18} {players:>2} {:>6} {:>6} {:>9.2} {:>6} {:>7.1}% | {:>6} {:>6} {:>9.2} {:>6} {:>7.1}% | {capped:>2}/{PLAYOUTS}",
        legal.calls,
        legal.total,
        legal.mean(),
        legal.max,
        legal.zero_share(),
        apply.calls,
        apply.total,
        apply.mean(),
        apply.max,
        apply.zero_share(),
    );
}

fn main() {
    println!(
        "{:<18} {:>2} {:>6} {:>6} {:>9} {:>6} {:>8} | {:>6} {:>6} {:>9} {:>6} {:>8} | capped",
        "game",
        "pl",
        "legal",
        "allocs",
        "allocs",
        "max",
        "zero",
        "apply",
        "allocs",
        "allocs",
        "max",
        "zero"
    );
    println!(
        "{:<18} {:>2} {:>6} {:>6} {:>9} {:>6} {:>8} | {:>6} {:>6} {:>9} {:>6} {:>8} |",
        "", "", "calls", "total", "mean", "", "share", "calls", "total", "mean", "", "share"
    );
    measure("army_ants", 2, 5000);
    measure("battalion_chips", 4, 5000);
    measure("battaglione", 3, 5000);
    measure("battle_line", 2, 3000);
    measure("battalion_emperor", 3, 5000);
    measure("homeward", 4, 5000);
    measure("breakthrough", 2, 5000);
    measure("connect_four", 2, 5000);
    measure("goofspiel", 2, 5000);
    measure("hex", 2, 5000);
    measure("oh_hell", 4, 5000);
    measure("chess", 2, 300);
}
