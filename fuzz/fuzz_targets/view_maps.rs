//! Views of the types that hold maps (`fuzzing::MAP_TYPES`: a map-keyed
//! tree, maps nested 62 deep, maps of `@delta` values...), over inputs the
//! fuzzer mutates into unsorted, repeated and nested keys: the view accepts
//! and rejects what `decode` does, with the same error kind and offset, and
//! its owned value is decode's value (`fuzzing::view_maps`). The timeout of
//! `scripts/fuzz.sh` catches a view that does more than linear work.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pkt_rust_tests::fuzzing;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = fuzzing::view_maps(data) {
        panic!("{e}");
    }
});
