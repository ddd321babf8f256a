//! The `pktc` command.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

/// `print!` for results. A reader that stops early (`pktc inspect ... |
/// head`) closes the pipe: the rest of the output is dropped instead of
/// panicking, and the command still ends with its own exit status (a
/// breaking `compat` piped into `head` still exits 1).
macro_rules! out {
    ($($arg:tt)*) => { write_stdout(format_args!($($arg)*)) };
}

/// `println!` for results, as [`out!`].
macro_rules! outln {
    ($($arg:tt)*) => { write_stdout(format_args!("{}\n", format_args!($($arg)*))) };
}

static STDOUT_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn write_stdout(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    use std::sync::atomic::Ordering;
    if STDOUT_CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout.write_fmt(args).and_then(|()| stdout.flush()) {
        STDOUT_CLOSED.store(true, Ordering::Relaxed);
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("error: cannot write to standard output: {e}");
        }
    }
}

/// Checks .pkt schemas and generates Rust and C# encoders and decoders.
#[derive(Parser)]
#[command(name = "pktc", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse and check schemas; print diagnostics. Without files, checks
    /// the schemas of the project file (pktc.toml) and shows the warnings
    /// of its targets' languages only.
    Check {
        /// Schema files (their imports are read too).
        files: Vec<PathBuf>,
        /// The project file; by default pktc.toml in the current directory
        /// or the nearest parent that has one.
        #[arg(long, value_name = "FILE", conflicts_with = "files")]
        project: Option<PathBuf>,
    },
    /// Show the wire layout of every type: sizes, offsets, tags.
    Layout {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Generate encoders and decoders. Without arguments, for every target
    /// of the project file (pktc.toml).
    Gen {
        /// Target language.
        #[arg(long, value_enum, requires = "out_dir", requires = "files")]
        lang: Option<LangArg>,
        /// Output directory.
        #[arg(short = 'o', long = "out-dir", requires = "lang")]
        out_dir: Option<PathBuf>,
        /// Write nothing; exit 1 and list the files that would change.
        #[arg(long)]
        check: bool,
        /// C#: do not write the runtime support file PktRuntime.cs;
        /// TypeScript: import the npm package pkt-runtime instead of writing
        /// pkt_runtime.ts.
        #[arg(long)]
        no_runtime: bool,
        /// C#: also write the Unity assembly definition NAME.asmdef, which
        /// compiles the generated files into the assembly NAME (referencing
        /// the runtime package's assembly Pkt.Runtime with --no-runtime).
        #[arg(long, value_name = "NAME")]
        asmdef: Option<String>,
        /// Rust: derive serde::Serialize and serde::Deserialize on every type.
        #[arg(long)]
        serde: bool,
        /// C#: generate unsafe code for the hot paths (pointer stores and
        /// loads after the same bounds checks); the project must allow
        /// unsafe code.
        #[arg(long = "unsafe")]
        unsafe_code: bool,
        /// Schema files; with them, --lang and -o are required.
        #[arg(requires = "lang")]
        files: Vec<PathBuf>,
        /// The project file; by default pktc.toml in the current directory
        /// or the nearest parent that has one.
        #[arg(
            long,
            value_name = "FILE",
            conflicts_with_all = ["lang", "out_dir", "no_runtime", "asmdef", "serde", "unsafe_code"]
        )]
        project: Option<PathBuf>,
    },
    /// Run every check of the project file (pktc.toml) as CI would: check
    /// the schemas, compare them with the compat baseline (with the
    /// waivers), and `gen --check` every target. Prints one summary line
    /// per step and exits with the status of the first step that failed.
    Ci {
        /// The project file; by default pktc.toml in the current directory
        /// or the nearest parent that has one.
        #[arg(long, value_name = "FILE")]
        project: Option<PathBuf>,
        /// Compare with this git revision instead of the project's baseline
        /// (a pull request's target branch: `origin/$GITHUB_BASE_REF`).
        #[arg(long, value_name = "REV")]
        against_git: Option<String>,
    },
    /// Compare two versions of a schema and classify every change as
    /// breaking, source-only or safe. Exit status: 0 nothing breaking, 1
    /// something breaking, 2 usage error, 3 a version does not check.
    Compat {
        /// With --against-git: the schema files to compare with their versions
        /// at the revision. Otherwise exactly two files: OLD NEW.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Compare each file with its version at this git revision.
        #[arg(long, value_name = "REV")]
        against_git: Option<String>,
        /// Accept the deliberate changes listed in this file's
        /// `[[compat.waiver]]` tables (rule, place, reason, optional
        /// baseline): they are reported as waived and not counted. A waiver
        /// that matches no finding is an error (exit 1).
        #[arg(long, value_name = "FILE")]
        waivers: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Print the documentation of a `pktc compat` rule, such as
    /// `message-field-removed`.
    Explain {
        /// The rule's id, as `pktc compat` prints it in brackets.
        rule: String,
    },
    /// Format schema files in place (only the files named, not their imports).
    Fmt {
        /// Write nothing; exit 1 and list the files that would change.
        #[arg(long)]
        check: bool,
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Decode bytes as a schema type and print them as JSON or a hex dump.
    Inspect {
        /// The type: qualified (`game.net.ServerPacket`) or a unique bare name.
        #[arg(long = "type", value_name = "TYPE")]
        type_name: String,
        /// The bytes to decode; `-` for standard input. At most 16 MiB (the
        /// default frame limit; 64 MiB of text with --hex): a longer input is
        /// refused.
        #[arg(long, default_value = "-")]
        input: PathBuf,
        /// The input is hex text (whitespace ignored) instead of raw bytes.
        #[arg(long)]
        hex: bool,
        #[arg(long, value_enum, default_value = "json")]
        format: InspectFormat,
        /// The input is a sequence of frames of a union type.
        #[arg(long)]
        stream: bool,
        /// The input is a delta of a `@delta` type against the value
        /// encoded in FILE (read as the input is, raw or with --hex): print
        /// the fields that changed and the value the delta makes.
        #[arg(long, value_name = "FILE", conflicts_with = "stream")]
        delta_against: Option<PathBuf>,
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Print internal representations, for debugging and snapshots.
    Dump {
        #[arg(value_enum)]
        what: DumpWhat,
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum LangArg {
    Rust,
    #[value(name = "csharp", alias = "cs")]
    CSharp,
    #[value(name = "typescript", alias = "ts")]
    TypeScript,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum InspectFormat {
    Json,
    Hex,
}

#[derive(Clone, Copy, ValueEnum)]
enum DumpWhat {
    /// The resolved schema as JSON.
    Ir,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match cli.command {
        Command::Check { files, project } => {
            if !files.is_empty() {
                return with_checked(&files, Shown::All, |_| Ok(()));
            }
            let project = match open_project(project.as_deref()) {
                Ok(p) => p,
                Err(code) => return code,
            };
            let shown = match project.languages()[..] {
                [] => Shown::All,
                _ => Shown::Only(project.languages()),
            };
            with_checked(&project.schemas, shown, |_| Ok(()))
        }
        Command::Ci {
            project,
            against_git,
        } => match open_project(project.as_deref()) {
            Ok(p) => ci(&p, against_git),
            Err(code) => code,
        },
        Command::Layout { files } => with_checked(&files, Shown::All, |c| {
            out!("{}", pktc::tools::layout::layout(&c.ir));
            Ok(())
        }),
        Command::Gen {
            lang,
            out_dir,
            check,
            no_runtime,
            asmdef,
            serde,
            unsafe_code,
            files,
            project,
        } => {
            let (Some(lang), Some(out_dir)) = (lang, out_dir) else {
                if no_runtime || asmdef.is_some() || serde || unsafe_code {
                    eprintln!(
                        "error: without schema files, gen generates the targets of {}, \
                         which set their options; or give --lang, -o and the files",
                        pktc::project::FILE_NAME
                    );
                    return ExitCode::from(2);
                }
                return match open_project(project.as_deref()) {
                    Ok(p) => gen_project(&p, check),
                    Err(code) => code,
                };
            };
            let mut options = pktc::emit::GenOptions::new(match lang {
                LangArg::Rust => pktc::Lang::Rust,
                LangArg::CSharp => pktc::Lang::CSharp,
                LangArg::TypeScript => pktc::Lang::TypeScript,
            });
            options.runtime = !no_runtime;
            options.serde = serde;
            options.unsafe_code = unsafe_code;
            options.out_dir = Some(out_dir.clone());
            if let Some(name) = &asmdef {
                let set = match lang {
                    LangArg::CSharp => options.set_csharp_asmdef(Some(name)),
                    LangArg::Rust | LangArg::TypeScript => {
                        Err("--asmdef writes a Unity assembly definition for C# \
                                          code; use it with --lang csharp"
                            .to_string())
                    }
                };
                if let Err(e) = set {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            }
            gen(&files, &out_dir, &options, check)
        }
        Command::Compat {
            files,
            against_git,
            waivers,
            format,
        } => compat(&files, against_git.as_deref(), waivers.as_deref(), format),
        Command::Explain { rule } => explain(&rule),
        Command::Fmt { check, files } => fmt(&files, check),
        Command::Inspect {
            type_name,
            input,
            hex,
            format,
            stream,
            delta_against,
            files,
        } => with_checked(&files, Shown::All, |c| {
            let bytes = read_input(&input, hex)?;
            let format = match format {
                InspectFormat::Json => pktc::tools::inspect::Format::Json,
                InspectFormat::Hex => pktc::tools::inspect::Format::Hex,
            };
            let result = match &delta_against {
                Some(path) => {
                    if path.as_os_str() == "-" && input.as_os_str() == "-" {
                        return Err("the baseline and the delta cannot both be standard \
                                    input; name one with --input or --delta-against"
                            .to_string());
                    }
                    let baseline = read_input(path, hex)?;
                    pktc::tools::inspect::inspect_delta(
                        &c.ir, &type_name, &baseline, &bytes, format,
                    )
                }
                None => pktc::tools::inspect::inspect(&c.ir, &type_name, &bytes, format, stream),
            };
            match result {
                Ok(out) => {
                    out!("{out}");
                    Ok(())
                }
                Err((out, e)) => {
                    out!("{out}");
                    Err(e)
                }
            }
        }),
        Command::Dump {
            what: DumpWhat::Ir,
            files,
        } => with_checked(&files, Shown::All, |c| {
            let json = serde_json::to_string_pretty(&c.ir).map_err(|e| e.to_string())?;
            outln!("{json}");
            Ok(())
        }),
    }
}

fn gen(
    files: &[PathBuf],
    out_dir: &std::path::Path,
    options: &pktc::emit::GenOptions,
    check: bool,
) -> ExitCode {
    let mut stale = false;
    let code = with_checked(files, Shown::Only(vec![options.lang]), |c| {
        stale = write_target(c, out_dir, options, check)?.is_outdated();
        Ok(())
    });
    if stale && check {
        eprintln!("error: generated code is out of date; run pktc gen without --check");
        return ExitCode::FAILURE;
    }
    code
}

/// Generates one target's code from checked schemas and writes it to
/// `out_dir` (with `check`, only compares), listing the files changed and
/// removed (or that would be).
fn write_target(
    c: &pktc::Checked,
    out_dir: &std::path::Path,
    options: &pktc::emit::GenOptions,
    check: bool,
) -> Result<pktc::emit::WriteReport, String> {
    let generated = pktc::emit::generate(&c.ir, options);
    let mode = if check {
        pktc::emit::WriteMode::Check
    } else {
        pktc::emit::WriteMode::Write
    };
    let report = pktc::emit::write_files(out_dir, &generated, mode)
        .map_err(|e| format!("cannot write generated code: {e}"))?;
    for path in &report.changed {
        if check {
            outln!("would change: {}", path.display());
        } else {
            outln!("wrote {}", path.display());
        }
    }
    for path in &report.stale {
        if check {
            outln!("would remove: {}", path.display());
        } else {
            outln!("removed {}", path.display());
        }
    }
    Ok(report)
}

/// The project file given with --project, or else the one found from the
/// current directory up; a missing or invalid file is a usage error.
fn open_project(given: Option<&std::path::Path>) -> Result<pktc::project::Project, ExitCode> {
    use pktc::project::{Project, FILE_NAME};
    let path = match given {
        Some(p) => p.to_path_buf(),
        None => match Project::find(std::path::Path::new(".")) {
            Some(p) => p,
            None => {
                eprintln!(
                    "error: no schema files given, and no {FILE_NAME} in this directory \
                     or its parents"
                );
                return Err(ExitCode::from(2));
            }
        },
    };
    Project::read(&path).map_err(|e| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    })
}

/// `pktc gen` without arguments: every target of the project that has an
/// output folder, from one check of its schemas.
fn gen_project(project: &pktc::project::Project, check: bool) -> ExitCode {
    let targets: Vec<&pktc::project::Target> =
        project.targets.iter().filter(|t| t.out.is_some()).collect();
    if targets.is_empty() {
        eprintln!(
            "error: {} has no target with an `out` folder to generate into",
            pktc::load::display(&project.path)
        );
        return ExitCode::from(2);
    }
    let mut langs = Vec::new();
    for t in &targets {
        if !langs.contains(&t.lang) {
            langs.push(t.lang);
        }
    }
    let mut stale = false;
    let code = with_checked(&project.schemas, Shown::Only(langs), |c| {
        for t in &targets {
            let out = t.out.as_deref().expect("targets with a folder");
            stale |= write_target(c, out, &t.options, check)?.is_outdated();
        }
        Ok(())
    });
    if stale && check {
        eprintln!("error: generated code is out of date; run pktc gen without --check");
        return ExitCode::FAILURE;
    }
    code
}

/// How a step of `pktc ci` ended.
enum Outcome {
    Ok,
    /// With the exit status the step's own command has.
    Failed(u8),
    /// Not run, and not a failure: nothing to do, or an earlier step
    /// failed in a way that leaves nothing to check.
    Skipped,
}

/// One step of `pktc ci`: its name, how it ended, and a summary.
struct Step {
    name: String,
    outcome: Outcome,
    summary: String,
}

impl Step {
    fn new(name: impl Into<String>, outcome: Outcome, summary: impl Into<String>) -> Step {
        Step {
            name: name.into(),
            outcome,
            summary: summary.into(),
        }
    }
}

fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// `pktc ci`: check, compat against the baseline (the project's, or
/// `against_git`) with the waivers, and `gen --check` for every target.
/// Each step prints what its own command would; then one line per step.
/// The exit status is the first failed step's.
fn ci(project: &pktc::project::Project, against_git: Option<String>) -> ExitCode {
    use pktc::project::{Baseline, CompatError};
    use pktc::tools::compat::{ChangeKind, Version};
    const NOT_CHECKED: &str = "the schemas do not check";
    let mut steps: Vec<Step> = Vec::new();
    // Whether a step printed to standard output.
    let mut printed = false;

    let checked = match pktc::check(&project.schemas) {
        Ok(c) => {
            let shown = shown_warnings(&c, &Shown::Only(project.languages()));
            let files = plural(project.schemas.len(), "schema file");
            let summary = format!("{files}, {}", plural(shown, "warning"));
            steps.push(Step::new("check", Outcome::Ok, summary));
            Some(c)
        }
        Err(failed) => {
            eprintln!("{failed}");
            let errors = failed.diagnostics.iter().filter(|d| d.is_error()).count();
            steps.push(Step::new(
                "check",
                Outcome::Failed(1),
                plural(errors, "error"),
            ));
            None
        }
    };

    let baseline = against_git
        .map(Baseline::Git)
        .or_else(|| project.compat.baseline.clone());
    let step = match (&baseline, &checked) {
        (None, _) => Step::new("compat", Outcome::Skipped, "no baseline in [compat]"),
        (Some(b), None) => Step::new(
            format!("compat against {}", b.describe()),
            Outcome::Skipped,
            NOT_CHECKED,
        ),
        (Some(b), Some(_)) => {
            let name = format!("compat against {}", b.describe());
            match project.compat(b) {
                Ok((report, unused)) => {
                    out!("{}", report.render());
                    printed = true;
                    for u in &unused {
                        eprintln!("error: {u}");
                    }
                    let mut summary = format!(
                        "{} breaking, {} source-only, {} safe, {} waived",
                        report.count(ChangeKind::Breaking),
                        report.count(ChangeKind::SourceOnly),
                        report.count(ChangeKind::Safe),
                        report.waived()
                    );
                    if !unused.is_empty() {
                        summary.push_str(&format!(", {}", plural(unused.len(), "unused waiver")));
                    }
                    let outcome = if report.is_breaking() || !unused.is_empty() {
                        Outcome::Failed(1)
                    } else {
                        Outcome::Ok
                    };
                    Step::new(name, outcome, summary)
                }
                Err(CompatError::Baseline(e)) => {
                    eprintln!("error: {e}");
                    Step::new(name, Outcome::Failed(2), e)
                }
                Err(CompatError::Schema(e)) => {
                    eprintln!("{e}");
                    let which = match e.version {
                        Version::Old => "the baseline does not check",
                        Version::New => NOT_CHECKED,
                    };
                    Step::new(name, Outcome::Failed(SCHEMA_ERROR), which)
                }
            }
        }
    };
    steps.push(step);

    for t in &project.targets {
        let name = format!("gen {}", t.describe());
        let step = match (&t.out, &checked) {
            (None, _) => Step::new(
                name,
                Outcome::Skipped,
                "no `out` folder (a build script generates it)",
            ),
            (Some(_), None) => Step::new(name, Outcome::Skipped, NOT_CHECKED),
            (Some(out), Some(c)) => match write_target(c, out, &t.options, true) {
                Ok(r) if r.is_outdated() => {
                    printed = true;
                    let mut parts = Vec::new();
                    if !r.changed.is_empty() {
                        parts.push(format!("{} would change", plural(r.changed.len(), "file")));
                    }
                    if !r.stale.is_empty() {
                        parts.push(format!(
                            "{} would be removed",
                            plural(r.stale.len(), "file")
                        ));
                    }
                    let summary = format!("{}; run pktc gen", parts.join(", "));
                    Step::new(name, Outcome::Failed(1), summary)
                }
                Ok(_) => Step::new(name, Outcome::Ok, "up to date"),
                Err(e) => {
                    eprintln!("error: {e}");
                    Step::new(name, Outcome::Failed(1), e)
                }
            },
        };
        steps.push(step);
    }

    if printed {
        // The steps' own output above, the summary below.
        out!("\n");
    }
    let mut first_failure = None;
    for s in &steps {
        let verdict = match s.outcome {
            Outcome::Ok => "ok",
            Outcome::Failed(code) => {
                first_failure.get_or_insert(code);
                "FAILED"
            }
            Outcome::Skipped => "skipped",
        };
        outln!("{}: {verdict}: {}", s.name, s.summary);
    }
    match first_failure {
        Some(code) => ExitCode::from(code),
        None => ExitCode::SUCCESS,
    }
}

/// Exit status of `pktc compat` when either version fails to load or check.
const SCHEMA_ERROR: u8 = 3;

fn compat(
    files: &[PathBuf],
    against_git: Option<&str>,
    waivers: Option<&std::path::Path>,
    format: Format,
) -> ExitCode {
    use pktc::tools::compat::waivers::{Baseline, Waivers};
    use pktc::tools::compat::{self, GitReader};
    let usage = |message: String| {
        eprintln!("error: {message}");
        if let Format::Json = format {
            print_json(&serde_json::json!({ "error": "usage", "message": message }));
        }
        ExitCode::from(2)
    };
    let waivers = match waivers.map(Waivers::read).transpose() {
        Ok(w) => w,
        Err(e) => return usage(e),
    };
    let mut git_reader = None;
    let result = match against_git {
        Some(rev) => match GitReader::new(rev, &files[0]) {
            Ok(reader) => {
                let result = compat::compare_with_revision(&reader, files);
                git_reader = Some(reader);
                result
            }
            Err(e) => return usage(e.to_string()),
        },
        None => {
            let [old, new] = files else {
                return usage(
                    "compat takes two files, OLD NEW, or --against-git REV FILES...".into(),
                );
            };
            compat::compare(
                std::slice::from_ref(old),
                &pktc::load::FsReader,
                std::slice::from_ref(new),
                &pktc::load::FsReader,
            )
        }
    };
    match result {
        Ok(mut report) => {
            let resolve = |rev: &str| git_reader.as_ref().and_then(|r| r.commit(rev));
            let unused = match &waivers {
                Some(waivers) => {
                    let baseline = match &git_reader {
                        Some(reader) => Baseline::Git {
                            rev: reader.rev(),
                            commit: reader.commit(reader.rev()).unwrap_or_default(),
                            resolve: &resolve,
                        },
                        None => Baseline::Files,
                    };
                    report.apply_waivers(waivers, &baseline)
                }
                None => Vec::new(),
            };
            match format {
                Format::Text => out!("{}", report.render()),
                Format::Json => {
                    let mut json = report.to_json();
                    json["unused_waivers"] = unused
                        .iter()
                        .map(|u| u.to_json())
                        .collect::<Vec<_>>()
                        .into();
                    print_json(&json);
                }
            }
            for u in &unused {
                eprintln!("error: {u}");
            }
            if report.is_breaking() || !unused.is_empty() {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(error) => {
            eprintln!("{error}");
            if let Format::Json = format {
                print_json(&error.to_json());
            }
            ExitCode::from(SCHEMA_ERROR)
        }
    }
}

fn print_json(value: &serde_json::Value) {
    outln!(
        "{}",
        serde_json::to_string_pretty(value).expect("JSON values serialize")
    );
}

fn explain(id: &str) -> ExitCode {
    use pktc::tools::compat::Rule;
    match Rule::from_id(id) {
        Some(rule) => {
            outln!(
                "{} ({}): {}\n",
                rule.id(),
                rule.class().word(),
                rule.summary()
            );
            outln!("{}", rule.explain());
            ExitCode::SUCCESS
        }
        None => {
            eprintln!("error: `{id}` is not a rule of pktc compat");
            match Rule::similar(id) {
                Some(r) => eprintln!("  = help: did you mean `{}`?", r.id()),
                None => eprintln!(
                    "  = help: the rules are {}",
                    Rule::ALL
                        .iter()
                        .map(|r| r.id())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            }
            ExitCode::from(2)
        }
    }
}

fn fmt(files: &[PathBuf], check: bool) -> ExitCode {
    let mut failed = false;
    let mut stale = false;
    for path in files {
        match pktc::tools::format::format_path(path, check) {
            Ok(false) => {}
            Ok(true) if check => {
                outln!("would change: {}", path.display());
                stale = true;
            }
            Ok(true) => outln!("formatted {}", path.display()),
            Err(e) => {
                eprintln!("{e}");
                failed = true;
            }
        }
    }
    if stale {
        eprintln!("error: files are not formatted; run pktc fmt without --check");
    }
    if failed || stale {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// The input of `pktc inspect`: a file, or standard input for `-`, capped
/// at the default frame limit (`pktc::tools::inspect::read_input`).
fn read_input(path: &std::path::Path, hex: bool) -> Result<Vec<u8>, String> {
    let name = pktc::load::display(path);
    if path.as_os_str() == "-" {
        return pktc::tools::inspect::read_input(std::io::stdin().lock(), hex, "standard input");
    }
    let file = std::fs::File::open(path)
        .map_err(|e| format!("cannot read {name}: {}", pktc::load::describe_io(&e)))?;
    pktc::tools::inspect::read_input(file, hex, &name)
}

/// Which warnings a command shows.
enum Shown {
    All,
    /// Those about every language or about one of these.
    Only(Vec<pktc::Lang>),
}

/// Prints the warnings of `checked` that `shown` selects; returns how many.
fn shown_warnings(checked: &pktc::Checked, shown: &Shown) -> usize {
    let warnings: Vec<pktc::diag::Diagnostic> = checked
        .warnings
        .iter()
        .filter(|w| match shown {
            Shown::All => true,
            Shown::Only(langs) => langs.iter().any(|l| w.concerns(*l)),
        })
        .cloned()
        .collect();
    if !warnings.is_empty() {
        eprint!("{}", pktc::diag::render_all(&warnings, &checked.sources));
    }
    warnings.len()
}

/// Checks the schemas, prints the warnings `shown` selects or the errors,
/// and runs `then` on success.
fn with_checked(
    files: &[PathBuf],
    shown: Shown,
    then: impl FnOnce(&pktc::Checked) -> Result<(), String>,
) -> ExitCode {
    match pktc::check(files) {
        Ok(checked) => {
            shown_warnings(&checked, &shown);
            match then(&checked) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Err(failed) => {
            eprintln!("{failed}");
            ExitCode::FAILURE
        }
    }
}
