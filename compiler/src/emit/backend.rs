//! The seam between the shared code generation and each language.
//!
//! A language implements [`Backend`]: its naming rules and reserved names
//! ([`Backend::naming`], which the checker holds schema names against), its
//! file extension, the analyses its view models share ([`Backend::Cx`]) and
//! the rendering of one type and one file from its view models and
//! templates ([`super::Templates`]). [`generate_with`] does the rest once
//! for every language: the per-file walk, the output file names (one rule,
//! [`super::output::stems`]) and the files a backend adds beside them.
//! Writing and `--check` are [`super::write_files`], also once.
//!
//! ```text
//! Ir ──► generate_with(backend) ──► for each schema file (stem from output::stems):
//!           │                           render_type(type) for each type ─┐
//!           │                           render_file(file, items) ◄───────┘
//!           │                           (both see every output file)
//!           └─► extra_files (mod.rs, PktRuntime.cs)
//! ```

use std::path::{Path, PathBuf};

use super::{output, GenOptions, GeneratedFile};
use crate::ir::{FileIndex, FileIr, Ir, TypeId};
use crate::names::Naming;

/// One target language.
pub trait Backend {
    /// What the backend computes once per run from the whole IR and shares
    /// between files (which types are boxed, a codec generator, options).
    type Cx<'ir>;

    /// How the language writes names and which names it reserves.
    fn naming(&self) -> &Naming;

    /// The extension of the file generated per schema file, without the dot.
    fn extension(&self) -> &str;

    /// Builds the shared analyses for one run.
    fn context<'ir>(&self, ir: &'ir Ir, options: &GenOptions) -> Self::Cx<'ir>;

    /// The text of one declared type of `file`. `files` is every output
    /// file of the run (`file` among them, at `file.index`), for languages
    /// that refer to another file's types by its path.
    fn render_type(
        &self,
        cx: &Self::Cx<'_>,
        files: &[OutputFile<'_>],
        file: &OutputFile<'_>,
        id: TypeId,
    ) -> String;

    /// The whole file for `file`, given its types' texts in declaration
    /// order (`files` as for [`Backend::render_type`]).
    fn render_file(
        &self,
        cx: &Self::Cx<'_>,
        files: &[OutputFile<'_>],
        file: &OutputFile<'_>,
        items: Vec<String>,
    ) -> String;

    /// Files the backend writes besides one per schema file (a module tree,
    /// runtime support). Their stems are in [`Naming::reserved_stems`].
    fn extra_files(&self, _cx: &Self::Cx<'_>, _files: &[OutputFile<'_>]) -> Vec<GeneratedFile> {
        Vec::new()
    }
}

/// A schema file and where its generated code goes.
#[derive(Clone, Debug)]
pub struct OutputFile<'ir> {
    pub index: FileIndex,
    pub file: &'ir FileIr,
    /// The output stem, unique among all outputs (see [`output::stems`]).
    pub stem: String,
    /// `<stem>.<extension>`, relative to the output directory.
    pub path: PathBuf,
    /// How the file's header names the schema (see [`output::schema_name`]).
    pub source: String,
}

/// The output file of every schema file of `ir`, in order, for a backend
/// whose files have `extension` and that writes `reserved_stems` itself, to
/// be written into `out_dir` (when known: headers name schemas from there).
pub fn output_files<'ir>(
    ir: &'ir Ir,
    extension: &str,
    reserved_stems: &[&str],
    out_dir: Option<&Path>,
) -> Vec<OutputFile<'ir>> {
    ir.files
        .iter()
        .zip(output::stems(ir, reserved_stems))
        .enumerate()
        .map(|(index, (file, stem))| OutputFile {
            index: FileIndex(index),
            file,
            path: PathBuf::from(format!("{stem}.{extension}")),
            source: output::schema_name(&file.path, out_dir),
            stem,
        })
        .collect()
}

/// Generates every file for the types declared in the IR's files (inputs and
/// their imports, since generated code refers to imported types) with
/// `backend`: one file per schema file, then the backend's extra files.
pub fn generate_with<B: Backend>(backend: &B, ir: &Ir, options: &GenOptions) -> Vec<GeneratedFile> {
    let cx = backend.context(ir, options);
    let files = output_files(
        ir,
        backend.extension(),
        backend.naming().reserved_stems,
        options.out_dir.as_deref(),
    );
    let mut out: Vec<GeneratedFile> = files
        .iter()
        .map(|f| {
            let items = f
                .file
                .types
                .iter()
                .map(|&id| backend.render_type(&cx, &files, f, id))
                .collect();
            GeneratedFile {
                path: f.path.clone(),
                contents: backend.render_file(&cx, &files, f, items),
            }
        })
        .collect();
    out.extend(backend.extra_files(&cx, &files));
    out
}
