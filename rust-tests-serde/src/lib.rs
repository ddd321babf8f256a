//! The code generated with `Config::serde(true)` for every schema in
//! `schemas/` (and `rust-tests-serde/schemas/`), one module per namespace.
//! Generated code must build without warnings, serde attributes included.

#![deny(warnings)]

include!(concat!(env!("OUT_DIR"), "/pktc/mod.rs"));
