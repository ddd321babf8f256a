//! pktc: a schema compiler for network packets.
//!
//! `.pkt` files are parsed ([`syntax`]), loaded with their imports ([`load`]),
//! resolved and checked ([`sema`]) into one language-neutral [`ir::Ir`] whose
//! types all carry their wire layout. [`emit`] turns the IR into Rust or C#;
//! [`Config`] is the `build.rs` entry point. [`tools`] holds the commands
//! beside the pipeline (`compat`, `fmt`, `inspect`, `layout`).

mod config;
pub mod delta;
pub mod diag;
pub mod emit;
pub mod ir;
pub mod load;
pub mod names;
pub mod project;
pub mod sema;
pub mod syntax;
pub mod text;
pub mod tools;
pub mod wire;

pub use config::{compile, compile_project, Config, Error};
pub use names::Lang;

use std::fmt;
use std::path::PathBuf;

use diag::{Diagnostic, SourceMap};
use load::{FileReader, FsReader};

/// A schema set that passed every check.
#[derive(Debug)]
pub struct Checked {
    pub sources: SourceMap,
    pub ir: ir::Ir,
    pub warnings: Vec<Diagnostic>,
}

/// Schemas that did not pass; [`fmt::Display`] renders the diagnostics.
#[derive(Debug)]
pub struct Failed {
    pub sources: SourceMap,
    pub diagnostics: Vec<Diagnostic>,
}

impl fmt::Display for Failed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(diag::render_all(&self.diagnostics, &self.sources).trim_end())
    }
}

impl std::error::Error for Failed {}

/// Parses and checks `inputs` and everything they import, from the file system.
pub fn check(inputs: &[PathBuf]) -> Result<Checked, Failed> {
    check_with(inputs, &FsReader)
}

/// As [`check`], reading files through `reader`.
pub fn check_with(inputs: &[PathBuf], reader: &dyn FileReader) -> Result<Checked, Failed> {
    check_into(SourceMap::default(), inputs, reader)
}

/// As [`check_with`], adding the files read to `sources`.
pub fn check_into(
    sources: SourceMap,
    inputs: &[PathBuf],
    reader: &dyn FileReader,
) -> Result<Checked, Failed> {
    let (loaded, mut diagnostics) = load::load_into(sources, inputs, reader);
    let (ir, more) = sema::analyze(&loaded);
    diagnostics.extend(more);
    match ir {
        Some(ir) if !diagnostics.iter().any(Diagnostic::is_error) => Ok(Checked {
            sources: loaded.sources,
            ir,
            warnings: diagnostics,
        }),
        _ => Err(Failed {
            sources: loaded.sources,
            diagnostics,
        }),
    }
}
