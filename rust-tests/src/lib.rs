//! The generated code for every schema in `schemas/`, one module per
//! namespace, and the per-type property check the tests run on each.

include!(concat!(env!("OUT_DIR"), "/pktc/mod.rs"));

pub mod props;

pub use props::Entry;

include!(concat!(env!("OUT_DIR"), "/types.rs"));
