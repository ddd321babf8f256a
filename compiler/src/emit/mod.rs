//! Code generation: IR → per-language view model → handlebars template → file.
//!
//! Each language is a [`Backend`] (`backend.rs`): it supplies its naming
//! rules and reserved names, its file extension and the rendering of a type
//! and a file; [`generate_with`] walks the files, names the outputs by one
//! rule ([`output::stems`]) and adds the backend's extra files, and
//! [`write_files`] writes them (or checks them, `--check`) for every
//! language alike. [`Templates`] is the registry every backend renders with.
//!
//! Each language module turns the IR into plain serializable view models in
//! which every name, type, size and decision is already computed; templates
//! only lay out text. Where the text differs by kind of type, the language
//! module picks a different template rather than the template branching.
//!
//! C# codecs: every encode, size and decode statement of a message, union or
//! variable-size struct comes from a `templates/csharp/codec/` template, one
//! per type constructor and operation (`write_list`, `size_optional`,
//! `read_map`, ...), in the way uniffi-rs emits one converter per type
//! constructor. The Rust side (`csharp/code.rs`) walks the type expression,
//! computes local names, sizes, budget charges and defaults into a view
//! model, renders the inner codecs first and hands their lines to the outer
//! template, which places them with `{{#each}}`; the indentation lives in the
//! templates. The public API wrappers shared by messages, unions and
//! variable-size structs are partials in `templates/csharp/api/`.
//!
//! C# value semantics (`Equals`, `GetHashCode`, `ToString`) are a second
//! partial declaration of each struct, message and union, built the same way
//! from the `templates/csharp/value/` templates by `csharp/value.rs`: they
//! read the fields and nothing else, so the codec part stays as it is.
//!
//! What stays in Rust code, and why:
//! - The scalar stores and loads of fixed-size structs (`store` and
//!   `load` in `csharp/code.rs`): the generated code keeps one
//!   straight-line little-endian `BinaryPrimitives` call (or byte store) at a
//!   constant offset per scalar, which is what makes fixed packets fast (no
//!   per-field call, no loop over fields). Which call, which cast and which
//!   bit conversion a scalar needs is a table from scalar type to text; as
//!   templates it would be eleven one-line templates chosen by the same
//!   table, no clearer. The structure around them (array loops, nested
//!   structs, the first-error-in-wire-order truncation checks) comes from
//!   `codec/fixed_*`, `codec/truncated_*` and `codec/validate_*`, and the
//!   struct's API from `struct.hbs`.
//! - Literals and names (`float_literal`, `string_literal`, `new_array`,
//!   default expressions): escaping and exact float bits are decisions, not
//!   layout.
//! - The recursion itself: type expressions nest arbitrarily, and a codec's
//!   locals are suffixed with its nesting depth so nested codecs never shadow
//!   one another; handlebars cannot compute that, so Rust renders each level.

mod backend;
mod csharp;
mod model;
pub mod output;
mod rust;
mod templates;
mod typescript;
mod write;

use std::path::PathBuf;

pub use backend::{generate_with, output_files, Backend, OutputFile};
pub use csharp::{
    consts_class as csharp_consts_class, NAMING as CSHARP_NAMING,
    RUNTIME_ASSEMBLY as CSHARP_RUNTIME_ASSEMBLY, RUNTIME_STEM as CSHARP_RUNTIME_STEM,
};
pub use rust::NAMING as RUST_NAMING;
pub use templates::Templates;
pub use typescript::{NAMING as TYPESCRIPT_NAMING, RUNTIME_STEM as TYPESCRIPT_RUNTIME_STEM};
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
/// [`GenOptions::default`] is the options of a backend of one's own (given
/// to [`generate_with`], which never reads `lang`).
#[derive(Clone, Debug)]
pub struct GenOptions {
    /// The built-in backend [`generate`] runs; nothing else reads it.
    pub lang: Lang,
    /// C#: also write the runtime support file `PktRuntime.cs`; TypeScript:
    /// write `pkt_runtime.ts` beside the modules, which import it (without
    /// it they import the npm package `pkt-runtime`).
    pub runtime: bool,
    /// Rust: derive `serde::Serialize` and `serde::Deserialize` on every
    /// generated type (the crate using the code depends on `serde`, and on
    /// `pkt-runtime` with feature `serde` when a field is an array longer
    /// than 32 elements). Off by default; when off the output does not
    /// mention serde at all.
    pub serde: bool,
    /// C#: generate `unsafe` code (pointer stores and loads after the same
    /// bounds checks) for the hot paths; the project must compile with
    /// `/unsafe` (`AllowUnsafeBlocks`). Off by default: the default output
    /// needs no unsafe code.
    pub unsafe_code: bool,
    /// The directory the files will be written to, given as the schema
    /// paths were (relative to the current directory, or absolute). Each
    /// file's header names its schema by the path from there, so the text
    /// does not depend on the directory pktc runs in; without it, by the
    /// schema's file name.
    pub out_dir: Option<PathBuf>,
    /// C#: the assembly definition to write beside the generated files
    /// (see [`GenOptions::set_csharp_asmdef`]).
    asmdef: Option<String>,
}

impl Default for GenOptions {
    /// Rust's options: [`GenOptions::new`] with [`Lang::Rust`].
    fn default() -> Self {
        GenOptions::new(Lang::Rust)
    }
}

impl GenOptions {
    pub fn new(lang: Lang) -> Self {
        GenOptions {
            lang,
            runtime: true,
            serde: false,
            unsafe_code: false,
            out_dir: None,
            asmdef: None,
        }
    }

    /// C#: also write a Unity assembly definition `<name>.asmdef`, so that
    /// Unity compiles the generated files into the assembly `name`, which
    /// references the runtime package's (`Pkt.Runtime`) unless
    /// [`GenOptions::runtime`] writes `PktRuntime.cs` beside them. Fails on
    /// a name that is not an assembly name.
    pub fn set_csharp_asmdef(&mut self, name: Option<&str>) -> Result<(), String> {
        if let Some(error) = name.and_then(csharp::assembly_name_error) {
            return Err(error);
        }
        self.asmdef = name.map(str::to_string);
        Ok(())
    }

    /// The assembly definition set by [`GenOptions::set_csharp_asmdef`].
    pub fn csharp_asmdef(&self) -> Option<&str> {
        self.asmdef.as_deref()
    }
}

/// Generates every file for the types declared in the IR's files (inputs and
/// their imports, since generated code refers to imported types).
pub fn generate(ir: &Ir, options: &GenOptions) -> Vec<GeneratedFile> {
    match options.lang {
        Lang::Rust => generate_with(&rust::RustBackend, ir, options),
        Lang::CSharp => generate_with(&csharp::CSharpBackend, ir, options),
        Lang::TypeScript => generate_with(&typescript::TypeScriptBackend, ir, options),
    }
}

/// The naming description of every built-in backend, in the order the
/// checker reports their diagnostics.
pub fn namings() -> [&'static crate::names::Naming; 3] {
    [&RUST_NAMING, &CSHARP_NAMING, &TYPESCRIPT_NAMING]
}

/// A constant that is a sum, written so that a reviewer can check it: ` //
/// ` and its nonzero `(size, what)` parts joined by ` + `, to follow the
/// number on its line; empty when there are fewer than two such parts.
pub(crate) fn sum_comment(parts: &[(u64, String)]) -> String {
    let terms: Vec<String> = parts
        .iter()
        .filter(|(size, _)| *size > 0)
        .map(|(size, what)| format!("{size} {what}"))
        .collect();
    if terms.len() < 2 {
        String::new()
    } else {
        format!(" // {}", terms.join(" + "))
    }
}
