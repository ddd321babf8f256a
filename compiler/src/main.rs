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
    /// Parse and check schemas; print diagnostics.
    Check {
        /// Schema files (their imports are read too).
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Show the wire layout of every type: sizes, offsets, tags.
    Layout {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Generate encoders and decoders.
    Gen {
        /// Target language.
        #[arg(long, value_enum)]
        lang: LangArg,
        /// Output directory.
        #[arg(short = 'o', long = "out-dir")]
        out_dir: PathBuf,
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
        #[arg(required = true)]
        files: Vec<PathBuf>,
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
        /// The bytes to decode; `-` for standard input.
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
        Command::Check { files } => with_checked(&files, |_| Ok(())),
        Command::Layout { files } => with_checked(&files, |c| {
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
        } => {
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
            format,
        } => compat(&files, against_git.as_deref(), format),
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
        } => with_checked(&files, |c| {
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
        } => with_checked(&files, |c| {
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
    let code = with_checked(files, |c| {
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
        stale = check && report.is_outdated();
        Ok(())
    });
    if stale {
        eprintln!("error: generated code is out of date; run pktc gen without --check");
        return ExitCode::FAILURE;
    }
    code
}

/// Exit status of `pktc compat` when either version fails to load or check.
const SCHEMA_ERROR: u8 = 3;

fn compat(files: &[PathBuf], against_git: Option<&str>, format: Format) -> ExitCode {
    use pktc::tools::compat::{self, GitReader};
    let usage = |message: String| {
        eprintln!("error: {message}");
        if let Format::Json = format {
            print_json(&serde_json::json!({ "error": "usage", "message": message }));
        }
        ExitCode::from(2)
    };
    let result = match against_git {
        Some(rev) => match GitReader::new(rev, &files[0]) {
            Ok(reader) => compat::compare_with_revision(&reader, files),
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
        Ok(report) => {
            match format {
                Format::Text => out!("{}", report.render()),
                Format::Json => print_json(&report.to_json()),
            }
            if report.is_breaking() {
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

fn read_input(path: &std::path::Path, hex: bool) -> Result<Vec<u8>, String> {
    use std::io::Read as _;
    let mut bytes = Vec::new();
    let read = if path.as_os_str() == "-" {
        std::io::stdin().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::read(path).map(|b| bytes = b)
    };
    read.map_err(|e| {
        format!(
            "cannot read {}: {}",
            pktc::load::display(path),
            pktc::load::describe_io(&e)
        )
    })?;
    if !hex {
        return Ok(bytes);
    }
    let text = String::from_utf8(bytes).map_err(|_| "hex input is not text".to_string())?;
    pktc::tools::inspect::parse_hex(&text).map_err(|e| format!("bad hex input: {e}"))
}

/// Checks the schemas, prints warnings or errors, and runs `then` on success.
fn with_checked(
    files: &[PathBuf],
    then: impl FnOnce(&pktc::Checked) -> Result<(), String>,
) -> ExitCode {
    match pktc::check(files) {
        Ok(checked) => {
            if !checked.warnings.is_empty() {
                eprint!(
                    "{}",
                    pktc::diag::render_all(&checked.warnings, &checked.sources)
                );
            }
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
