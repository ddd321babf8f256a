//! The generated code for every schema in `schemas/`, one module per
//! namespace, and the per-type property check the tests run on each.

include!(concat!(env!("OUT_DIR"), "/pktc/mod.rs"));

pub mod props;

/// A property check for one type: `(encoding, another encoding of the same type)`.
pub type Check = fn(&[u8], &[u8]) -> Result<(), String>;

include!(concat!(env!("OUT_DIR"), "/types.rs"));
