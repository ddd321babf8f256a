//! The C# backend.

use super::{GenOptions, GeneratedFile};
use crate::ir::Ir;

pub fn generate(_ir: &Ir, _options: &GenOptions) -> Vec<GeneratedFile> {
    unimplemented!("the C# backend is being written")
}
