//! Side-by-side benchmarks of pktc-generated Rust against other Rust
//! serializers. See `docs/benchmarks.md` for the results and how to
//! reproduce them.

#![allow(missing_docs)]

/// The pktc-generated types for the benchmark schemas.
#[allow(clippy::all)]
pub mod pkt {
    include!(concat!(env!("OUT_DIR"), "/pktc/mod.rs"));
}

pub mod baseline;
pub mod codec;
pub mod cost;
pub mod csharp_report;
pub mod data;
pub mod instructions;
pub mod peers;
pub mod public_data;
pub mod read;
pub mod suite;
pub mod text;
pub mod typescript_report;
pub mod world;
pub mod world_report;
