//! The hot path allocates nothing: a start in the storage of the last game's state
//! (`start_reusing`), a legal-action query (`legal_into` with a buffer the caller reuses)
//! and the `apply` of a listed action (`apply_listed`, on a state the caller reuses
//! through `clone_from`; `apply_and_list`, listing the next decision's actions ahead into
//! a buffer the caller reuses) make no heap allocation once warm, on every shipped game.
//!
//! A counting global allocator counts the allocations (`alloc`, `alloc_zeroed`, `realloc`)
//! of the thread that asks, so tests running side by side do not disturb the count. Each
//! game plays a few seeded random playouts three times with the same seeds: the first two
//! passes warm up (the per-thread pools of list buffers, the caller's buffers and states
//! grow to what the playouts need), the third is counted call by call and must allocate
//! nothing, on every game, including the apply that ends a game (its winners are kept on
//! the stack).

mod common;

use muster::engine::{Engine, Listed, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// `System`, counting the allocations of each thread.
struct Counting;

thread_local! {
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    // `try_with`: a thread being torn down has no counter left, and is not counted.
    let _ = ALLOCS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: every call goes straight to `System`, with the caller's layout and pointer; the
// count on the side touches only a thread-local `Cell` (a `const` one, which never
// allocates).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        System.alloc(layout)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        System.alloc_zeroed(layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        System.realloc(ptr, layout, new_size)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocs() -> u64 {
    ALLOCS.with(Cell::get)
}

/// The seeds of the playouts of each game, and the most actions each: enough to reach
/// every kind of decision of the shipped games, few enough for a debug build. Seed 52
/// plays a Battle Line game whose pattern walks need long lists of states (more than fit
/// on the stack) on different landings of the walk's scratch from one query to the next
/// (from action 95): before a landing took over a buffer another had grown
/// (`patterns.rs`, `room`), its third pass made 5 allocations in a query.
const SEEDS: [u64; 3] = [0, 1, 52];
const CAP: usize = 200;

/// The most allocations one start, one legal-action query and one apply made in the
/// counted pass.
fn worst(name: &str) -> (u64, u64, u64) {
    let e = Engine::new(common::compile_file_or_panic(&format!("games/{name}.muster"), None).game);
    let players = e.game.min_players;
    let mut buf = Listed::new();
    // The states a search would keep and copy positions into.
    let first = e.start(players, 0).expect("the game starts");
    let (mut last, mut next): (Option<State>, State) = (Some(first.clone()), first);
    let mut ahead = Listed::new();
    let (mut start, mut legal, mut apply) = (0, 0, 0);
    // Two passes to warm up: the two states take turns, and each must have grown to
    // what the playouts need of it.
    for pass in 0..3 {
        for seed in SEEDS {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            // Each game started in the storage of the last, as `muster bench` and
            // `simulate` start them (`start_reusing`).
            let before = allocs();
            let mut s = e
                .start_reusing(players, seed, last.take())
                .expect("the game starts");
            if pass == 2 {
                start = start.max(allocs() - before);
            }
            let mut n = 0;
            while n < CAP && e.decider(&s).is_some() {
                let before = allocs();
                e.legal_into(&s, &mut buf);
                let listing = allocs() - before;
                assert!(!buf.is_empty(), "{name}: a decider with no legal action");
                let a = &buf[rng.gen_range(0..buf.len())];
                // The first seed's playouts keep one state, as `muster bench` and
                // `simulate` do (what an apply drops, it must not make again in the
                // next); the others copy each position into a second state first.
                let one_state = seed == SEEDS[0];
                if !one_state {
                    next.clone_from(&s);
                }
                let to = if one_state { &mut s } else { &mut next };
                let before = allocs();
                // Every other action applied with the next decision's actions listed
                // ahead into a buffer of the caller's (`apply_and_list`).
                if n % 2 == 0 {
                    e.apply_listed(to, a).expect("a listed action applies");
                } else {
                    e.apply_and_list(to, a, &mut ahead)
                        .expect("a listed action applies");
                }
                let applying = allocs() - before;
                if pass == 2 {
                    legal = legal.max(listing);
                    apply = apply.max(applying);
                }
                if !one_state {
                    std::mem::swap(&mut s, &mut next);
                }
                n += 1;
            }
            last = Some(s);
        }
    }
    (start, legal, apply)
}

#[test]
fn starts_legal_queries_and_applies_allocate_nothing_once_warm() {
    let mut failures = Vec::new();
    let names = common::shipped_games();
    assert!(names.len() >= 12, "the shipped games: {names:?}");
    for name in &names {
        // Each game on a thread of its own, so that it warms the per-thread pools itself:
        // buffers left by another game would hide one it loses.
        let game = name.clone();
        let (start, legal, apply) = std::thread::spawn(move || worst(&game))
            .join()
            .expect("the game plays");
        if start > 0 || legal > 0 || apply > 0 {
            failures.push(format!(
                "{name}: at most {start} allocations in a start, {legal} in a legal-action \
                 query, {apply} in an apply (none allowed)"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
