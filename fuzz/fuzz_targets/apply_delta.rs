//! Arbitrary bytes applied as a delta to a baseline of every `@delta` type
//! of the example schemas (`fuzzing::apply_delta`): no panic; a failed
//! apply leaves the value unchanged; a successful one gives a value that
//! encodes, decodes back to itself and is what its own delta against the
//! baseline gives; and the apply allocates within the bound of the decode
//! budget it charged.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pkt_rust_tests::fuzzing;

pkt_test_support::counting_allocator!();

fn measure(f: &mut dyn FnMut()) -> usize {
    pkt_test_support::alloc::measure(f).1.bytes
}

fuzz_target!(|data: &[u8]| {
    if let Err(e) = fuzzing::apply_delta(data, measure) {
        panic!("{e}");
    }
});
