//! Helpers shared by the test suites of the workspace (and the benchmarks'
//! seed values): one copy of each, so the suites cannot drift apart.
//!
//! - [`Rng`]: the deterministic xorshift64* generator of the random tests.
//! - [`hex`]: hex encoding and decoding of byte strings.
//! - [`alloc`]: a counting global allocator; declare it in a test binary with
//!   [`counting_allocator!`].
//! - [`vectors`]: the golden vectors of `schemas/vectors/`.

pub mod alloc;
pub mod hex;
mod rng;
pub mod vectors;

pub use rng::Rng;
