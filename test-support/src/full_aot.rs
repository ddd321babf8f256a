//! Running C# programs under Mono's full AOT: every method compiled ahead of
//! time, no JIT at run time, as Unity's IL2CPP and iOS builds run. A program
//! that needs a JIT (a generic virtual method over a value type the compiler
//! could not see, `Reflection.Emit`, `dynamic`) fails under it with
//! `ExecutionEngineException`, where the JIT would hide the problem.
//!
//! The recipe is the script users run, `runtime/csharp/Tools~/full-aot.sh`
//! ([`SCRIPT`]): `mono --full-aot` loads only assemblies that have an AOT
//! image, the framework's included (mscorlib, System and what they
//! reference), so the script compiles copies of them into a cache folder
//! per Mono installation (a minute or two, once) and runs programs with
//! `MONO_PATH=<cache dir>:<program dir>`:
//!
//! ```text
//! <cache>/<mono version>/mscorlib.dll, mscorlib.dll.so, System.dll, ...
//! ```
//!
//! [`FullAot::prepare`] has the script build that cache for a program
//! (`--framework-only`); [`FullAot::compile`] compiles the program's own
//! assemblies; [`FullAot::command`] runs it. Tests that check the script
//! itself run it whole ([`script_command`]).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The script that compiles a program and the framework it loads ahead of
/// time and runs it under `mono --full-aot`: the recipe users run.
pub const SCRIPT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../runtime/csharp/Tools~/full-aot.sh"
);

/// `sh full-aot.sh --cache <cache> <program>`: compiles what `program`
/// needs (the framework once per Mono installation, into `cache`) and runs
/// it under `mono --full-aot`, with the arguments the caller adds after.
pub fn script_command(cache: &Path, program: &Path) -> Command {
    let mut c = Command::new("sh");
    c.arg(SCRIPT).arg("--cache").arg(cache).arg(program);
    c
}

/// The AOT-compiled framework for one Mono installation.
pub struct FullAot {
    /// Holds the framework assemblies and their images.
    framework: PathBuf,
}

impl FullAot {
    /// The AOT-compiled framework that the assemblies `programs` reference,
    /// compiled into `cache` (created if needed) unless already there.
    /// Errors say what failed (no Mono, no assembler, a failed compile).
    pub fn prepare(cache: &Path, programs: &[&Path]) -> Result<FullAot, String> {
        let mut framework = None;
        for program in programs {
            let mut c = Command::new("sh");
            c.arg(SCRIPT)
                .arg("--cache")
                .arg(cache)
                .arg("--framework-only")
                .arg(program);
            let out = run(&mut c)?;
            let dir = out.lines().last().unwrap_or("").trim();
            if dir.is_empty() {
                return Err(format!("{SCRIPT} printed no framework folder"));
            }
            framework = Some(PathBuf::from(dir));
        }
        let framework = framework.ok_or("no program to prepare")?;
        Ok(FullAot { framework })
    }

    /// Compiles `assembly` ahead of time (its image goes beside it), with
    /// the cached framework on the load path.
    pub fn compile(&self, assembly: &Path) -> Result<(), String> {
        let mut c = Command::new("mono");
        c.arg("--aot=full").arg(assembly);
        self.path(&mut c, assembly);
        run(&mut c).map(|_| ())?;
        let image = image_of(assembly);
        if image.exists() {
            Ok(())
        } else {
            Err(format!("mono --aot=full wrote no {}", image.display()))
        }
    }

    /// `mono --full-aot <program>` with the cached framework on the load
    /// path: every assembly it loads must have been compiled.
    pub fn command(&self, program: &Path) -> Command {
        let mut c = Command::new("mono");
        c.arg("--full-aot").arg(program);
        self.path(&mut c, program);
        c
    }

    fn path(&self, c: &mut Command, assembly: &Path) {
        let mut dirs = vec![self.framework.clone()];
        if let Some(dir) = assembly.parent().filter(|d| *d != self.framework) {
            dirs.push(dir.to_path_buf());
        }
        c.env(
            "MONO_PATH",
            std::env::join_paths(dirs).expect("paths without separators"),
        );
    }

    /// The directory holding the compiled framework.
    pub fn framework_dir(&self) -> &Path {
        &self.framework
    }
}

/// `X.dll` → `X.dll.so`: where `mono --aot` writes an assembly's image and
/// where `mono --full-aot` looks for it.
fn image_of(assembly: &Path) -> PathBuf {
    let mut name = assembly.as_os_str().to_owned();
    name.push(".so");
    PathBuf::from(name)
}

/// Runs a command; its stdout, or an error with everything it printed.
fn run(c: &mut Command) -> Result<String, String> {
    let out = c
        .output()
        .map_err(|e| format!("cannot run {:?}: {e}", c.get_program()))?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    if out.status.success() {
        Ok(stdout)
    } else {
        Err(format!(
            "{:?} {:?} failed ({}):\n{stdout}{}",
            c.get_program(),
            c.get_args().collect::<Vec<_>>(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}
