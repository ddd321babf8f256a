//! Tools over checked schemas, beside the compile pipeline (`syntax` →
//! `load` → `sema` → `ir` → `emit`): each reads the pipeline's output and
//! none feeds back into it.
//!
//! - [`compat`]: `pktc compat`, wire compatibility between two versions.
//! - [`format`]: `pktc fmt`, canonical source formatting.
//! - [`inspect`]: `pktc inspect`, a decoder driven by the IR alone.
//! - [`layout`]: `pktc layout`, the wire layout of every type.

pub mod compat;
pub mod format;
pub mod inspect;
pub mod layout;
