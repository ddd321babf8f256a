//! The project file `pktc.toml`: the schema files, every target's language,
//! output folder and options, and the compat baseline and waivers, so that
//! `pktc gen`, `pktc check` and `pktc ci` need no arguments and a build
//! script reads the same settings ([`crate::Config::from_project`]).
//!
//! ```toml
//! schemas = ["schemas/game.pkt", "schemas/chat.pkt"]
//!
//! [[target]]
//! lang = "rust"                  # out left out: build.rs generates it
//! serde = true
//!
//! [[target]]
//! lang = "csharp"
//! out = "client/Assets/Net"
//! no_runtime = true
//! asmdef = "Skyforge.Protocol"
//!
//! [[target]]
//! lang = "typescript"
//! out = "bot/src/net"
//!
//! [compat]
//! baseline = "origin/main"       # a git revision; or baseline_dir = "FOLDER"
//!
//! [[compat.waiver]]
//! rule = "const-value-changed"
//! place = "game.chat.MAX_CHAT"
//! reason = "every reader accepts 512 since release 1.4"
//! ```
//!
//! Paths are relative to the file's folder. Keys are checked: a key the
//! format does not have is an error naming its line and column. Waivers are
//! read by the compat tool's own parser ([`Waivers::parse`]).

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use crate::emit::GenOptions;
use crate::names::Lang;
use crate::tools::compat::waivers::{self, Unused, Waiver, Waivers};
use crate::tools::compat::{self, GitReader, Report, SchemaError};

/// The project file's name, which `pktc` looks for.
pub const FILE_NAME: &str = "pktc.toml";

/// A project file, read and checked.
#[derive(Clone, Debug)]
pub struct Project {
    /// The file, as found or given.
    pub path: PathBuf,
    /// Its folder, which the paths in it are relative to (empty for the
    /// current directory).
    pub dir: PathBuf,
    /// The schema files, relative to the current directory (the project's
    /// folder joined with each path as written).
    pub schemas: Vec<PathBuf>,
    pub targets: Vec<Target>,
    pub compat: Compat,
}

/// One `[[target]]` table.
#[derive(Clone, Debug)]
pub struct Target {
    pub lang: Lang,
    /// Where `pktc gen` writes, relative to the current directory; `None`
    /// for a Rust target that only a build script generates.
    pub out: Option<PathBuf>,
    /// The options, with the output folder and assembly definition set.
    pub options: GenOptions,
    /// The line of the table in the project file.
    pub line: usize,
}

impl Target {
    /// How summaries name the target: `csharp client/Net`.
    pub fn describe(&self) -> String {
        let lang = lang_key(self.lang);
        match &self.out {
            Some(out) => format!("{lang} {}", crate::load::display(out)),
            None => lang.to_string(),
        }
    }
}

/// The `[compat]` table.
#[derive(Clone, Debug, Default)]
pub struct Compat {
    pub baseline: Option<Baseline>,
    /// The `[[compat.waiver]]` tables, named after the project file.
    pub waivers: Waivers,
}

/// What `pktc ci` compares the schemas with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Baseline {
    /// A git revision (`origin/main`, a tag, a SHA) of the repository that
    /// holds the schemas.
    Git(String),
    /// A folder holding the baseline's schema files at the same paths as
    /// the project's (relative to the current directory).
    Dir(PathBuf),
}

impl Baseline {
    /// `origin/main`, or the folder.
    pub fn describe(&self) -> String {
        match self {
            Baseline::Git(rev) => rev.clone(),
            Baseline::Dir(dir) => crate::load::display(dir),
        }
    }

    /// The old version of `schema` (one of [`Project::schemas`]) in a
    /// baseline folder.
    pub fn file_in_dir(dir: &Path, project_dir: &Path, schema: &Path) -> PathBuf {
        let relative = schema.strip_prefix(project_dir).unwrap_or(schema);
        crate::load::normalize(&dir.join(relative))
    }
}

/// Why a comparison with the baseline could not be made.
#[derive(Debug)]
pub enum CompatError {
    /// The baseline is not a revision of the repository, or the schemas
    /// are not in one.
    Baseline(String),
    /// A version does not check.
    Schema(SchemaError),
}

impl fmt::Display for CompatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompatError::Baseline(e) => write!(f, "error: {e}"),
            CompatError::Schema(e) => write!(f, "{e}"),
        }
    }
}

/// A project file that cannot be read or is not valid, with where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

/// The key a target's language is written as.
pub fn lang_key(lang: Lang) -> &'static str {
    match lang {
        Lang::Rust => "rust",
        Lang::CSharp => "csharp",
        Lang::TypeScript => "typescript",
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProject {
    schemas: Spanned<Vec<Spanned<String>>>,
    #[serde(default)]
    target: Vec<Spanned<RawTarget>>,
    #[serde(default)]
    compat: Option<RawCompat>,
}

#[derive(Clone, Copy, Deserialize)]
enum RawLang {
    #[serde(rename = "rust")]
    Rust,
    #[serde(rename = "csharp")]
    CSharp,
    #[serde(rename = "typescript")]
    TypeScript,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTarget {
    lang: RawLang,
    out: Option<Spanned<String>>,
    no_runtime: Option<Spanned<bool>>,
    asmdef: Option<Spanned<String>>,
    serde: Option<Spanned<bool>>,
    #[serde(rename = "unsafe")]
    unsafe_code: Option<Spanned<bool>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCompat {
    baseline: Option<Spanned<String>>,
    baseline_dir: Option<Spanned<String>>,
    /// Read here only so that a key a waiver does not have is reported with
    /// its line and column; [`Waivers::parse`] reads and checks them.
    #[serde(default)]
    #[allow(dead_code)]
    waiver: Vec<Waiver>,
}

/// 1-based line and column (in characters) of byte `offset` of `text`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

impl Project {
    /// Looks for [`FILE_NAME`] in `start` and then in each of its parents,
    /// as `git` and `cargo` look for theirs. Returns its path relative to
    /// `start` (`pktc.toml`, `../pktc.toml`), so that the schema paths in
    /// messages are relative too.
    pub fn find(start: &Path) -> Option<PathBuf> {
        let absolute = std::path::absolute(start).ok()?;
        let mut up = PathBuf::new();
        for dir in absolute.ancestors() {
            if dir.join(FILE_NAME).is_file() {
                return Some(up.join(FILE_NAME));
            }
            up.push("..");
        }
        None
    }

    /// Reads and checks the project file at `path`.
    pub fn read(path: &Path) -> Result<Project, Error> {
        let shown = crate::load::display(path);
        let text = crate::load::read_source(path).map_err(|e| {
            Error(format!(
                "cannot read {shown}: {}",
                crate::load::describe_io(&e)
            ))
        })?;
        Project::parse(path, &text)
    }

    /// Parses `text`, the contents of the project file at `path`.
    pub fn parse(path: &Path, text: &str) -> Result<Project, Error> {
        let shown = crate::load::display(path);
        let at = |offset: usize, message: &str| {
            let (line, column) = line_col(text, offset);
            Error(format!("{shown}:{line}:{column}: {message}"))
        };
        let raw: RawProject = toml::from_str(text).map_err(|e| {
            let message = e.message().trim_end().replace('\n', " ");
            match e.span() {
                Some(span) => at(span.start, &message),
                None => Error(format!("{shown}: {message}")),
            }
        })?;
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let relative = |p: &str| crate::load::normalize(&dir.join(p));

        if raw.schemas.get_ref().is_empty() {
            return Err(at(
                raw.schemas.span().start,
                "`schemas` names no schema file",
            ));
        }
        let mut schemas = Vec::new();
        for s in raw.schemas.get_ref() {
            if s.get_ref().trim().is_empty() {
                return Err(at(s.span().start, "a schema path is empty"));
            }
            schemas.push(relative(s.get_ref()));
        }

        let mut targets: Vec<Target> = Vec::new();
        for spanned in &raw.target {
            let start = spanned.span().start;
            let t = spanned.get_ref();
            let lang = match t.lang {
                RawLang::Rust => Lang::Rust,
                RawLang::CSharp => Lang::CSharp,
                RawLang::TypeScript => Lang::TypeScript,
            };
            let key = lang_key(lang);
            // An option for another language is a mistake, not a no-op.
            let only = |option: Option<&Spanned<bool>>, name: &str, langs: &[Lang]| match option {
                Some(o) if !langs.contains(&lang) => Err(at(
                    o.span().start,
                    &format!(
                        "`{name}` is an option of {} targets, not of {key}",
                        langs
                            .iter()
                            .map(|l| lang_key(*l))
                            .collect::<Vec<_>>()
                            .join(" and ")
                    ),
                )),
                _ => Ok(option.is_some_and(|o| *o.get_ref())),
            };
            let no_runtime = only(
                t.no_runtime.as_ref(),
                "no_runtime",
                &[Lang::CSharp, Lang::TypeScript],
            )?;
            let serde = only(t.serde.as_ref(), "serde", &[Lang::Rust])?;
            let unsafe_code = only(t.unsafe_code.as_ref(), "unsafe", &[Lang::CSharp])?;
            let out = match &t.out {
                Some(o) if o.get_ref().trim().is_empty() => {
                    return Err(at(o.span().start, "`out` is empty"));
                }
                Some(o) => Some(relative(o.get_ref())),
                None if lang == Lang::Rust => None,
                None => {
                    return Err(at(
                        start,
                        &format!("the {key} target names no `out` folder"),
                    ))
                }
            };
            let mut options = GenOptions::new(lang);
            options.runtime = !no_runtime;
            options.serde = serde;
            options.unsafe_code = unsafe_code;
            options.out_dir.clone_from(&out);
            if let Some(asmdef) = &t.asmdef {
                if lang != Lang::CSharp {
                    return Err(at(
                        asmdef.span().start,
                        &format!("`asmdef` is an option of csharp targets, not of {key}"),
                    ));
                }
                options
                    .set_csharp_asmdef(Some(asmdef.get_ref()))
                    .map_err(|e| at(asmdef.span().start, &e))?;
            }
            // Each `pktc gen` removes the files it wrote before that it no
            // longer writes: two targets in one folder would remove each
            // other's.
            if let Some(out) = &out {
                if let Some(other) = targets.iter().find(|o| o.out.as_ref() == Some(out)) {
                    return Err(at(
                        t.out.as_ref().map_or(start, |o| o.span().start),
                        &format!(
                            "the {} target of line {} writes to the same folder",
                            lang_key(other.lang),
                            other.line
                        ),
                    ));
                }
            }
            targets.push(Target {
                lang,
                out,
                options,
                line: line_col(text, start).0,
            });
        }

        let mut compat = Compat {
            baseline: None,
            waivers: Waivers {
                file: shown.clone(),
                entries: Vec::new(),
            },
        };
        if let Some(raw_compat) = &raw.compat {
            compat.baseline = match (&raw_compat.baseline, &raw_compat.baseline_dir) {
                (Some(_), Some(d)) => {
                    return Err(at(
                        d.span().start,
                        "`baseline` (a git revision) and `baseline_dir` (a folder) \
                         are alternatives; keep one",
                    ))
                }
                (Some(rev), None) if rev.get_ref().trim().is_empty() => {
                    return Err(at(rev.span().start, "`baseline` is empty"))
                }
                (Some(rev), None) => Some(Baseline::Git(rev.get_ref().clone())),
                (None, Some(d)) if d.get_ref().trim().is_empty() => {
                    return Err(at(d.span().start, "`baseline_dir` is empty"))
                }
                (None, Some(d)) => Some(Baseline::Dir(relative(d.get_ref()))),
                (None, None) => None,
            };
            compat.waivers = Waivers::parse(&shown, text).map_err(Error)?;
            if compat.baseline.is_none() {
                if let Some((_, line)) = compat.waivers.entries.first() {
                    return Err(Error(format!(
                        "{shown}:{line}: a waiver needs a baseline to compare with: \
                         set `baseline` or `baseline_dir` in [compat]"
                    )));
                }
            }
        }

        Ok(Project {
            path: path.to_path_buf(),
            dir,
            schemas,
            targets,
            compat,
        })
    }

    /// The languages of the targets, each once, in the order of the file.
    pub fn languages(&self) -> Vec<Lang> {
        let mut langs = Vec::new();
        for t in &self.targets {
            if !langs.contains(&t.lang) {
                langs.push(t.lang);
            }
        }
        langs
    }

    /// Compares the schemas with `baseline` as `pktc compat` does, and
    /// applies the project's waivers: the report, and the waivers that
    /// accepted nothing (errors).
    pub fn compat(&self, baseline: &Baseline) -> Result<(Report, Vec<Unused>), CompatError> {
        match baseline {
            Baseline::Git(rev) => {
                let reader = GitReader::new(rev.as_str(), &self.schemas[0])
                    .map_err(|e| CompatError::Baseline(e.to_string()))?;
                let mut report = compat::compare_with_revision(&reader, &self.schemas)
                    .map_err(CompatError::Schema)?;
                let resolve = |r: &str| reader.commit(r);
                let unused = report.apply_waivers(
                    &self.compat.waivers,
                    &waivers::Baseline::Git {
                        rev: reader.rev(),
                        commit: reader.commit(reader.rev()).unwrap_or_default(),
                        resolve: &resolve,
                    },
                );
                Ok((report, unused))
            }
            Baseline::Dir(dir) => {
                if !dir.is_dir() {
                    return Err(CompatError::Baseline(format!(
                        "the baseline folder {} does not exist",
                        crate::load::display(dir)
                    )));
                }
                // A schema the baseline does not have is new: its types
                // are added.
                let old: Vec<PathBuf> = self
                    .schemas
                    .iter()
                    .map(|s| Baseline::file_in_dir(dir, &self.dir, s))
                    .filter(|s| s.exists())
                    .collect();
                let fs = crate::load::FsReader;
                let mut report =
                    compat::compare(&old, &fs, &self.schemas, &fs).map_err(CompatError::Schema)?;
                let unused = report.apply_waivers(&self.compat.waivers, &waivers::Baseline::Files);
                Ok((report, unused))
            }
        }
    }

    /// The one Rust target, which a build script takes its options from.
    pub fn rust_target(&self) -> Result<&Target, Error> {
        let shown = crate::load::display(&self.path);
        let rust: Vec<&Target> = self
            .targets
            .iter()
            .filter(|t| t.lang == Lang::Rust)
            .collect();
        match rust[..] {
            [one] => Ok(one),
            [] => Err(Error(format!(
                "{shown} has no rust target: add a [[target]] table with lang = \"rust\""
            ))),
            _ => Err(Error(format!(
                "{shown} has {} rust targets (lines {}); a build script reads one",
                rust.len(),
                rust.iter()
                    .map(|t| t.line.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Project, Error> {
        Project::parse(Path::new("game/pktc.toml"), text)
    }

    #[test]
    fn reads_schemas_targets_and_compat_relative_to_the_file() {
        let p = parse(
            "schemas = [\"schemas/game.pkt\", \"./chat.pkt\"]\n\n\
             [[target]]\nlang = \"rust\"\nserde = true\n\n\
             [[target]]\nlang = \"csharp\"\nout = \"client/Net\"\nno_runtime = true\n\
             asmdef = \"Sky.Protocol\"\nunsafe = true\n\n\
             [[target]]\nlang = \"typescript\"\nout = \"../bot/net\"\n\n\
             [compat]\nbaseline = \"origin/main\"\n\n\
             [[compat.waiver]]\nrule = \"const-value-changed\"\nplace = \"g.MAX\"\n\
             reason = \"deployed\"\n",
        )
        .expect("valid");
        assert_eq!(
            p.schemas,
            [
                PathBuf::from("game/schemas/game.pkt"),
                PathBuf::from("game/chat.pkt")
            ]
        );
        let [rust, cs, ts] = &p.targets[..] else {
            panic!("three targets: {:?}", p.targets);
        };
        assert_eq!(
            (rust.lang, rust.out.as_ref(), rust.options.serde),
            (Lang::Rust, None, true)
        );
        assert_eq!(rust.line, 3);
        assert_eq!(cs.out, Some(PathBuf::from("game/client/Net")));
        assert!(!cs.options.runtime && cs.options.unsafe_code);
        assert_eq!(ts.out, Some(PathBuf::from("bot/net")));
        assert!(ts.options.runtime);
        assert_eq!(ts.describe(), "typescript bot/net");
        assert_eq!(p.compat.baseline, Some(Baseline::Git("origin/main".into())));
        assert_eq!(p.compat.waivers.entries.len(), 1);
        assert_eq!(p.compat.waivers.entries[0].1, 21);
        assert_eq!(p.compat.waivers.file, "game/pktc.toml");
        assert_eq!(p.languages(), [Lang::Rust, Lang::CSharp, Lang::TypeScript]);
        assert_eq!(p.rust_target().expect("one").line, 3);
    }

    #[test]
    fn unknown_keys_are_errors_with_their_line_and_column() {
        for (text, at, key) in [
            ("schemas = [\"a.pkt\"]\nschema = 1\n", "2:1", "schema"),
            (
                "schemas = [\"a.pkt\"]\n[[target]]\nlang = \"rust\"\n  output = \"x\"\n",
                "4:3",
                "output",
            ),
            (
                "schemas = [\"a.pkt\"]\n[compat]\nbaseline = \"main\"\nagainst = \"v1\"\n",
                "4:1",
                "against",
            ),
            (
                "schemas = [\"a.pkt\"]\n[compat]\nbaseline = \"main\"\n[[compat.waiver]]\n\
                 rule = \"const-value-changed\"\nplace = \"g.X\"\nreason = \"r\"\nwhy = 1\n",
                "8:1",
                "why",
            ),
            (
                "schemas = [\"a.pkt\"]\n[project]\nname = \"x\"\n",
                "2:2",
                "project",
            ),
        ] {
            let e = parse(text).expect_err(key).to_string();
            assert!(
                e.starts_with(&format!("game/pktc.toml:{at}: ")) && e.contains(key),
                "{key}: {e}"
            );
        }
    }

    #[test]
    fn mistakes_are_errors_that_say_where() {
        for (text, expected) in [
            ("", "game/pktc.toml:1:1: missing field `schemas`"),
            ("schemas = []\n", "game/pktc.toml:1:11: `schemas` names no schema file"),
            (
                "schemas = [\"a.pkt\"]\n[[target]]\nlang = \"cs\"\nout = \"x\"\n",
                "game/pktc.toml:3:8: unknown variant `cs`",
            ),
            (
                "schemas = [\"a.pkt\"]\n[[target]]\nlang = \"csharp\"\n",
                "game/pktc.toml:2:1: the csharp target names no `out` folder",
            ),
            (
                "schemas = [\"a.pkt\"]\n[[target]]\nlang = \"typescript\"\nout = \"x\"\nserde = true\n",
                "game/pktc.toml:5:9: `serde` is an option of rust targets, not of typescript",
            ),
            (
                "schemas = [\"a.pkt\"]\n[[target]]\nlang = \"rust\"\nout = \"x\"\nasmdef = \"A\"\n",
                "game/pktc.toml:5:10: `asmdef` is an option of csharp targets, not of rust",
            ),
            (
                "schemas = [\"a.pkt\"]\n[[target]]\nlang = \"csharp\"\nout = \"x\"\nasmdef = \"A/B\"\n",
                "game/pktc.toml:5:10: `A/B` is not an assembly name",
            ),
            (
                "schemas = [\"a.pkt\"]\n[[target]]\nlang = \"csharp\"\nout = \"x\"\n\
                 [[target]]\nlang = \"typescript\"\nout = \"./x\"\n",
                "game/pktc.toml:7:7: the csharp target of line 2 writes to the same folder",
            ),
            (
                "schemas = [\"a.pkt\"]\n[compat]\nbaseline = \"main\"\nbaseline_dir = \"old\"\n",
                "game/pktc.toml:4:16: `baseline` (a git revision) and `baseline_dir`",
            ),
            (
                "schemas = [\"a.pkt\"]\n[[compat.waiver]]\nrule = \"const-value-changed\"\n\
                 place = \"g.X\"\nreason = \"r\"\n",
                "game/pktc.toml:2: a waiver needs a baseline",
            ),
            (
                "schemas = [\"a.pkt\"]\n[compat]\nbaseline = \"main\"\n[[compat.waiver]]\n\
                 rule = \"const-value-change\"\nplace = \"g.X\"\nreason = \"r\"\n",
                "game/pktc.toml:4: `const-value-change` is not a rule of pktc compat; \
                 did you mean `const-value-changed`?",
            ),
        ] {
            let e = parse(text).expect_err(expected).to_string();
            assert!(e.starts_with(expected), "expected {expected:?}, got {e:?}");
        }
        let p = parse("schemas = [\"a.pkt\"]\n").expect("no targets is valid");
        let e = p.rust_target().expect_err("no rust target").to_string();
        assert!(e.contains("has no rust target"), "{e}");
    }

    #[test]
    fn a_baseline_folder_holds_the_schemas_at_the_same_paths() {
        let p = parse("schemas = [\"schemas/game.pkt\"]\n[compat]\nbaseline_dir = \"v1\"\n")
            .expect("valid");
        let Some(Baseline::Dir(dir)) = &p.compat.baseline else {
            panic!("{:?}", p.compat.baseline);
        };
        assert_eq!(dir, Path::new("game/v1"));
        assert_eq!(
            Baseline::file_in_dir(dir, &p.dir, &p.schemas[0]),
            Path::new("game/v1/schemas/game.pkt")
        );
    }

    #[test]
    fn finds_the_file_in_the_directory_or_a_parent() {
        let root = std::env::temp_dir().join(format!("pktc-project-find-{}", std::process::id()));
        let deep = root.join("a/b");
        std::fs::create_dir_all(&deep).expect("mkdir");
        std::fs::write(root.join(FILE_NAME), "schemas = [\"x.pkt\"]\n").expect("write");
        assert_eq!(Project::find(&root), Some(PathBuf::from("pktc.toml")));
        assert_eq!(Project::find(&deep), Some(PathBuf::from("../../pktc.toml")));
        std::fs::remove_dir_all(&root).expect("clean");
    }
}
