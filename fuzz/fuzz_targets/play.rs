//! Fuzz target: the interpreter playing a shipped game, each action picked by the input
//! from the legal list. Rules errors are allowed; panics are not.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    muster_fuzz::play(data);
});
