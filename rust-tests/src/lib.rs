//! The generated code for every schema in `schemas/`, one module per
//! namespace, and the per-type property check the tests run on each.

include!(concat!(env!("OUT_DIR"), "/pktc/mod.rs"));

/// Version 1 of the protocol in `schemas/evolution/`.
pub mod evo_v1 {
    include!(concat!(env!("OUT_DIR"), "/evo_v1/mod.rs"));
}

/// Version 2 of the protocol in `schemas/evolution/`.
pub mod evo_v2 {
    include!(concat!(env!("OUT_DIR"), "/evo_v2/mod.rs"));
}

/// Version 1 of the delta protocol in `schemas/delta_evolution/`.
pub mod delta_evo_v1 {
    include!(concat!(env!("OUT_DIR"), "/delta_evo_v1/mod.rs"));
}

/// Version 2 of the delta protocol in `schemas/delta_evolution/`.
pub mod delta_evo_v2 {
    include!(concat!(env!("OUT_DIR"), "/delta_evo_v2/mod.rs"));
}

/// `schemas/same_stem/`: imports of two files named `common.pkt`.
pub mod same_stem_output {
    include!(concat!(env!("OUT_DIR"), "/same_stem/mod.rs"));
}

pub mod deep;
pub mod fuzzing;
pub mod props;
pub mod render;

pub use props::Entry;

include!(concat!(env!("OUT_DIR"), "/types.rs"));
