//! Code generation: IR → per-language view model → handlebars template → file.
//!
//! Each language module turns the IR into plain serializable view models in
//! which every name, type, size and decision is already computed; templates
//! only lay out text. Where the text differs by kind of type, the language
//! module picks a different template rather than the template branching.

mod csharp;
pub mod output;
mod rust;
mod templates;
mod write;

use std::path::PathBuf;

pub use csharp::{consts_class as csharp_consts_class, RUNTIME_STEM as CSHARP_RUNTIME_STEM};
pub use write::{write_files, WriteError, WriteMode, WriteReport};

use crate::ir::Ir;
use crate::names::Lang;

/// One output file, with a path relative to the output directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedFile {
    pub path: PathBuf,
    pub contents: String,
}

/// What to generate; shared by the command line and [`crate::Config`].
#[derive(Clone, Debug)]
pub struct GenOptions {
    pub lang: Lang,
    /// C#: also write the runtime support file `PktRuntime.cs`.
    pub runtime: bool,
    /// Rust: derive `serde::Serialize` and `serde::Deserialize` on every
    /// generated type (the crate using the code depends on `serde`, and on
    /// `pkt-runtime` with feature `serde` when a field is an array longer
    /// than 32 elements). Off by default; when off the output does not
    /// mention serde at all.
    pub serde: bool,
}

impl GenOptions {
    pub fn new(lang: Lang) -> Self {
        GenOptions {
            lang,
            runtime: true,
            serde: false,
        }
    }
}

/// Generates every file for the types declared in the IR's files (inputs and
/// their imports, since generated code refers to imported types).
pub fn generate(ir: &Ir, options: &GenOptions) -> Vec<GeneratedFile> {
    match options.lang {
        Lang::Rust => rust::generate(ir, options),
        Lang::CSharp => csharp::generate(ir, options),
    }
}
