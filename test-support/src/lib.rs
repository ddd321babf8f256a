//! Helpers shared by the test suites of the workspace (and the benchmarks'
//! seed values): one copy of each, so the suites cannot drift apart.
//!
//! - [`Rng`]: the deterministic xorshift64* generator of the random tests.
//! - [`hex`]: hex encoding and decoding of byte strings.
//! - [`alloc`]: a counting global allocator; declare it in a test binary with
//!   [`counting_allocator!`].
//! - [`vectors`]: the golden vectors of `schemas/vectors/`.
//! - [`conformance`]: the case file every language's conformance driver reads.
//! - [`full_aot`]: running C# under Mono's full AOT (no JIT), as IL2CPP does.
//! - [`schema_gen`]: random valid schemas over every construct.
//! - [`long_tests`] and [`scaled`]: the long runs behind `PKT_LONG_TESTS`.

pub mod alloc;
pub mod conformance;
pub mod full_aot;
pub mod hex;
mod rng;
pub mod schema_gen;
pub mod vectors;

pub use rng::Rng;

/// The environment variable that asks for the long runs: full random
/// counts, full hostile corpora, external toolchain builds. `.ci/run` sets
/// it; the README's test command leaves it unset, so the inner loop stays
/// short.
pub const LONG_TESTS_VAR: &str = "PKT_LONG_TESTS";

/// Whether the long runs were asked for (`PKT_LONG_TESTS` set to anything
/// but empty or `0`).
pub fn long_tests() -> bool {
    std::env::var(LONG_TESTS_VAR).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// `long` when the long runs were asked for, `short` otherwise: the count of
/// a randomized test, say, so the inner loop covers every property with
/// fewer cases and CI runs them all.
pub fn scaled<T>(short: T, long: T) -> T {
    if long_tests() {
        long
    } else {
        short
    }
}
