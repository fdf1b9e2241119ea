//! Fuzz target: the parser and the checker on arbitrary bytes. They may refuse the input
//! with diagnostics, never panic, hang or exhaust memory.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    muster_fuzz::check(data);
});
