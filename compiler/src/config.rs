//! The `build.rs` API.
//!
//! ```no_run
//! // build.rs
//! fn main() -> Result<(), pktc::Error> {
//!     pktc::compile(&["schemas/game.pkt"])
//! }
//! ```
//!
//! and in the crate, where `$OUT_DIR/pktc/mod.rs` declares one module per
//! schema namespace:
//!
//! ```text
//! include!(concat!(env!("OUT_DIR"), "/pktc/mod.rs"));
//! ```
//!
//! A project with a project file (`pktc.toml`, see [`crate::project`])
//! reads its schemas and its Rust target's options from there:
//!
//! ```no_run
//! // build.rs
//! fn main() -> Result<(), pktc::Error> {
//!     pktc::compile_project("../pktc.toml")
//! }
//! ```

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use crate::emit::{self, GenOptions, WriteMode};
use crate::names::Lang;
use crate::project::Project;
use crate::Failed;

/// Settings for one code generation run.
#[derive(Clone, Debug)]
pub struct Config {
    out_dir: Option<PathBuf>,
    options: GenOptions,
    asmdef: Option<String>,
    rerun_if_changed: Option<bool>,
    /// The schemas of the project file read by [`Config::from_project`],
    /// compiled before any given to [`Config::compile`].
    schemas: Vec<PathBuf>,
    /// That project file, which the build reruns for.
    project: Option<PathBuf>,
}

impl Default for Config {
    fn default() -> Self {
        Config::new()
    }
}

impl Config {
    /// Rust output into `$OUT_DIR/pktc`.
    pub fn new() -> Self {
        Config {
            out_dir: None,
            options: GenOptions::new(Lang::Rust),
            asmdef: None,
            rerun_if_changed: None,
            schemas: Vec::new(),
            project: None,
        }
    }

    /// The schemas and the Rust target's options (`serde`) of the project
    /// file at `path` (`pktc.toml`, relative to the crate's folder in a
    /// build script), which must have exactly one `lang = "rust"` target.
    /// The output still goes to `$OUT_DIR/pktc` unless [`Config::out_dir`]
    /// says otherwise: the target's `out`, if any, is where `pktc gen`
    /// writes. [`Config::generate`] then compiles the project's schemas;
    /// the build reruns when the project file changes too.
    pub fn from_project(path: impl AsRef<Path>) -> Result<Config, Error> {
        let project = Project::read(path.as_ref()).map_err(Error::Project)?;
        let target = project.rust_target().map_err(Error::Project)?;
        let mut config = Config::new();
        config.options.serde = target.options.serde;
        config.schemas.clone_from(&project.schemas);
        config.project = Some(project.path);
        Ok(config)
    }

    /// [`Config::compile`] with no further inputs: the schemas of the
    /// project file read by [`Config::from_project`].
    pub fn generate(&self) -> Result<Vec<PathBuf>, Error> {
        self.compile(&[] as &[PathBuf])
    }

    /// Where to write; defaults to `$OUT_DIR/pktc`.
    pub fn out_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// The target language; Rust unless set.
    pub fn lang(&mut self, lang: Lang) -> &mut Self {
        self.options.lang = lang;
        self
    }

    /// C# only: whether to write `PktRuntime.cs` beside the generated files
    /// (on by default).
    pub fn csharp_runtime(&mut self, yes: bool) -> &mut Self {
        self.options.runtime = yes;
        self
    }

    /// C# only: whether to generate `unsafe` code for the hot paths (off by
    /// default): fixed-size structs store and load through a pointer after
    /// the same bounds checks, on little-endian hosts. The C# project must
    /// allow unsafe code (`/unsafe`, `AllowUnsafeBlocks`, Unity's "Allow
    /// 'unsafe' Code").
    pub fn csharp_unsafe(&mut self, yes: bool) -> &mut Self {
        self.options.unsafe_code = yes;
        self
    }

    /// C# only: also write the Unity assembly definition `<name>.asmdef`
    /// (see [`GenOptions::set_csharp_asmdef`]); an invalid name fails
    /// [`Config::compile`].
    pub fn csharp_asmdef(&mut self, name: &str) -> &mut Self {
        self.asmdef = Some(name.to_string());
        self
    }

    /// Rust only: whether every generated type derives `serde::Serialize`
    /// and `serde::Deserialize` (off by default). The crate then depends on
    /// `serde` (with `derive`) and, for fields that are arrays longer than 32
    /// elements, on `pkt-runtime` with feature `serde`.
    pub fn serde(&mut self, yes: bool) -> &mut Self {
        self.options.serde = yes;
        self
    }

    /// Whether to print `cargo:rerun-if-changed` for every schema read.
    /// Defaults to on when running inside a build script (`OUT_DIR` is set).
    pub fn rerun_if_changed(&mut self, yes: bool) -> &mut Self {
        self.rerun_if_changed = Some(yes);
        self
    }

    /// Checks `inputs` (and their imports; after the project's schemas,
    /// with [`Config::from_project`]), generates code, and writes the files
    /// whose content changed. Returns the paths of every generated file.
    /// Warnings about other languages than the one generated are not shown.
    pub fn compile(&self, inputs: &[impl AsRef<Path>]) -> Result<Vec<PathBuf>, Error> {
        let inputs: Vec<PathBuf> = self
            .schemas
            .iter()
            .cloned()
            .chain(inputs.iter().map(|p| p.as_ref().to_path_buf()))
            .collect();
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(|d| PathBuf::from(d).join("pktc"))
                .ok_or(Error::NoOutDir)?,
        };
        let rerun = self
            .rerun_if_changed
            .unwrap_or_else(|| std::env::var_os("OUT_DIR").is_some());
        let result = crate::check(&inputs);
        if rerun {
            let sources = match &result {
                Ok(c) => &c.sources,
                Err(f) => &f.sources,
            };
            for line in rerun_if_changed(sources, &inputs) {
                println!("{line}");
            }
            if let Some(project) = &self.project {
                println!("cargo:rerun-if-changed={}", project.display());
            }
        }
        let checked = result.map_err(Error::Schema)?;
        for w in checked
            .warnings
            .iter()
            .filter(|w| w.concerns(self.options.lang))
        {
            for line in crate::diag::render(w, &checked.sources).lines() {
                println!("cargo:warning={line}");
            }
        }
        let mut options = self.options.clone();
        options
            .set_csharp_asmdef(self.asmdef.as_deref())
            .map_err(Error::Option)?;
        options.out_dir = Some(out_dir.clone());
        let files = emit::generate(&checked.ir, &options);
        emit::write_files(&out_dir, &files, WriteMode::Write).map_err(Error::Write)?;
        Ok(files.iter().map(|f| out_dir.join(&f.path)).collect())
    }
}

/// `cargo:rerun-if-changed` lines for every schema read (inputs and their
/// imports) and for inputs that could not be read, so that creating them
/// triggers a rebuild. Never for outputs: listing an output would make every
/// build dirty.
fn rerun_if_changed(sources: &crate::diag::SourceMap, inputs: &[PathBuf]) -> Vec<String> {
    let mut lines: Vec<String> = sources
        .files()
        .map(|(_, f)| format!("cargo:rerun-if-changed={}", f.path.display()))
        .collect();
    for input in inputs {
        if sources.find(&crate::load::normalize(input)).is_none() {
            lines.push(format!("cargo:rerun-if-changed={}", input.display()));
        }
    }
    lines
}

/// Generates Rust for `inputs` into `$OUT_DIR/pktc` with default settings.
pub fn compile(inputs: &[impl AsRef<Path>]) -> Result<(), Error> {
    Config::new().compile(inputs).map(|_| ())
}

/// Generates Rust into `$OUT_DIR/pktc` for the schemas of the project file
/// at `path`, with its Rust target's options ([`Config::from_project`]).
pub fn compile_project(path: impl AsRef<Path>) -> Result<(), Error> {
    Config::from_project(path)?.generate().map(|_| ())
}

/// Why code generation failed.
pub enum Error {
    /// The schemas have errors; displays as rendered diagnostics.
    Schema(Failed),
    /// Reading or writing a file failed.
    Io(io::Error),
    /// Writing the output failed; names the file.
    Write(emit::WriteError),
    /// No output directory was set and `OUT_DIR` is not set (not in a build script).
    NoOutDir,
    /// A setting is invalid (an assembly definition name); says why.
    Option(String),
    /// The project file cannot be read, is not valid, or has no single
    /// Rust target; says where.
    Project(crate::project::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Schema(failed) => write!(f, "{failed}"),
            Error::Io(e) => write!(f, "cannot write generated code: {e}"),
            Error::Write(e) => write!(f, "cannot write generated code: {e}"),
            Error::NoOutDir => f.write_str(
                "no output directory: call Config::out_dir, or run inside a build script",
            ),
            Error::Option(e) => f.write_str(e),
            Error::Project(e) => write!(f, "{e}"),
        }
    }
}

// `fn main() -> Result<(), pktc::Error>` in build.rs prints the error with
// `Debug`; show the diagnostics as they are meant to be read.
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{self}")
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Schema(f) => Some(f),
            Error::Io(e) => Some(e),
            Error::Write(e) => Some(e),
            Error::Project(e) => Some(e),
            Error::NoOutDir | Error::Option(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_invalid_assembly_name_fails_before_anything_is_written() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let out = std::env::temp_dir().join("pktc-config-asmdef");
        let err = Config::new()
            .lang(Lang::CSharp)
            .out_dir(&out)
            .rerun_if_changed(false)
            .csharp_asmdef("Game/Protocol")
            .compile(&[root.join("schemas/small.pkt")])
            .expect_err("not an assembly name");
        assert!(matches!(err, Error::Option(_)), "{err}");
        assert!(
            err.to_string()
                .contains("`Game/Protocol` is not an assembly name"),
            "{err}"
        );
        assert!(!out.exists(), "nothing written");
    }

    #[test]
    fn from_project_takes_the_schemas_and_the_rust_target_options() {
        let dir = std::env::temp_dir().join(format!("pktc-config-project-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("schemas")).expect("mkdir");
        std::fs::write(
            dir.join("schemas/a.pkt"),
            "namespace a;\nmessage Hello {\n    name: string,\n}\n",
        )
        .expect("write");
        let project = dir.join("pktc.toml");
        std::fs::write(
            &project,
            "schemas = [\"schemas/a.pkt\"]\n[[target]]\nlang = \"csharp\"\nout = \"cs\"\n\
             [[target]]\nlang = \"rust\"\nserde = true\n",
        )
        .expect("write");
        let out = dir.join("out");
        let files = Config::from_project(&project)
            .expect("valid")
            .out_dir(&out)
            .rerun_if_changed(false)
            .generate()
            .expect("generates");
        assert_eq!(files, [out.join("a.rs"), out.join("mod.rs")]);
        let code = std::fs::read_to_string(out.join("a.rs")).expect("read");
        assert!(code.contains("serde::Serialize"), "{code}");
        assert!(!dir.join("cs").exists(), "only Rust, only into out");

        std::fs::write(&project, "schemas = [\"schemas/a.pkt\"]\n").expect("write");
        let err = Config::from_project(&project).expect_err("no rust target");
        assert!(matches!(err, Error::Project(_)), "{err}");
        assert!(err.to_string().contains("has no rust target"), "{err}");
        std::fs::remove_dir_all(&dir).expect("clean");
    }

    #[test]
    fn reruns_for_inputs_and_imports_only() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let game = root.join("schemas/game.pkt");
        let missing = root.join("schemas/not_yet_written.pkt");
        let checked = crate::check(std::slice::from_ref(&game)).expect("valid");
        let lines = rerun_if_changed(&checked.sources, &[game.clone(), missing.clone()]);
        let shown = |p: &Path| {
            format!(
                "cargo:rerun-if-changed={}",
                crate::load::normalize(p).display()
            )
        };
        assert_eq!(
            lines,
            [
                shown(&game),
                shown(&root.join("schemas/common.pkt")),
                format!("cargo:rerun-if-changed={}", missing.display()),
            ]
        );
    }
}
