//! Running C# programs under Mono's full AOT: every method compiled ahead of
//! time, no JIT at run time, as Unity's IL2CPP and iOS builds run. A program
//! that needs a JIT (a generic virtual method over a value type the compiler
//! could not see, `Reflection.Emit`, `dynamic`) fails under it with
//! `ExecutionEngineException`, where the JIT would hide the problem.
//!
//! `mono --full-aot` loads only assemblies that have an AOT image, the
//! framework's included (mscorlib, System and what they reference). The
//! framework images take a minute or two to build, so they are built once
//! per Mono installation into a cache directory (under the target
//! directory) and shared by every test and benchmark:
//!
//! ```text
//! <cache>/<mono version>/mscorlib.dll, mscorlib.dll.so, System.dll, ...
//! ```
//!
//! A program runs with `MONO_PATH=<cache dir>:<program dir>`, so Mono loads
//! the cached copies of the framework (and their images) instead of the
//! installed ones. [`FullAot::prepare`] lists what a program references
//! (transitively) with a small reflection-only C# helper and compiles what
//! the cache lacks; [`FullAot::compile`] compiles the program's own
//! assemblies; [`FullAot::command`] runs it.

use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant, SystemTime};

/// Lists the assemblies the assemblies named on the command line reference,
/// transitively, one path a line (the framework's are resolved as Mono
/// resolves them: from the GAC).
const REFERENCES_CS: &str = r#"using System;
using System.Collections.Generic;
using System.IO;
using System.Reflection;

static class References
{
    static int Main(string[] args)
    {
        var dirs = new List<string>();
        var seen = new HashSet<string>();
        var todo = new Stack<Assembly>();
        foreach (var path in args)
        {
            dirs.Add(Path.GetDirectoryName(Path.GetFullPath(path)));
            todo.Push(Assembly.ReflectionOnlyLoadFrom(path));
        }
        while (todo.Count > 0)
        {
            foreach (var name in todo.Pop().GetReferencedAssemblies())
            {
                if (!seen.Add(name.FullName)) continue;
                var found = Load(name, dirs);
                Console.WriteLine(found.Location);
                todo.Push(found);
            }
        }
        return 0;
    }

    // The framework from the GAC; the programs' own libraries from beside them.
    static Assembly Load(AssemblyName name, List<string> dirs)
    {
        try
        {
            return Assembly.ReflectionOnlyLoad(name.FullName);
        }
        catch (FileNotFoundException)
        {
            foreach (var dir in dirs)
            {
                foreach (var ext in new[] { ".dll", ".exe" })
                {
                    var path = Path.Combine(dir, name.Name + ext);
                    if (File.Exists(path)) return Assembly.ReflectionOnlyLoadFrom(path);
                }
            }
            throw;
        }
    }
}
"#;

/// How long a build of the cache by another process may hold its lock
/// before it is taken to have died.
const STALE_LOCK: Duration = Duration::from_secs(30 * 60);

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
        let version = mono_version()?;
        let framework = cache.join(sanitize(&version));
        std::fs::create_dir_all(&framework)
            .map_err(|e| format!("create {}: {e}", framework.display()))?;
        let _lock = Lock::take(&framework.join(".lock"))?;
        // In a directory of its own, so that it resolves references to the
        // installed framework, not to the copies in the cache.
        let helper = framework.join("references");
        let lister = helper.join("References.exe");
        if !lister.exists() {
            std::fs::create_dir_all(&helper)
                .map_err(|e| format!("create {}: {e}", helper.display()))?;
            let source = helper.join("References.cs");
            std::fs::write(&source, REFERENCES_CS).map_err(|e| format!("write helper: {e}"))?;
            run(Command::new("mcs").args([
                "-nologo".to_owned(),
                format!("-out:{}", lister.display()),
                source.display().to_string(),
            ]))?;
        }
        let mut list = Command::new("mono");
        list.arg(&lister).args(programs).current_dir(&helper);
        list.env_remove("MONO_PATH");
        let listed = run(&mut list)?;
        let aot = FullAot { framework };
        for line in listed.lines().map(str::trim).filter(|l| !l.is_empty()) {
            let source = Path::new(line);
            if programs.iter().any(|p| p.parent() == source.parent()) {
                // The program's own assemblies are compiled by `compile`.
                continue;
            }
            aot.cache_one(source)?;
        }
        Ok(aot)
    }

    /// Copies one framework assembly into the cache and compiles it, unless
    /// an identical copy with its image is there.
    fn cache_one(&self, source: &Path) -> Result<(), String> {
        let name = source
            .file_name()
            .ok_or_else(|| format!("{} has no file name", source.display()))?;
        let copy = self.framework.join(name);
        let image = image_of(&copy);
        let wanted =
            std::fs::read(source).map_err(|e| format!("read {}: {e}", source.display()))?;
        if image.exists() && std::fs::read(&copy).is_ok_and(|have| have == wanted) {
            return Ok(());
        }
        std::fs::write(&copy, &wanted).map_err(|e| format!("write {}: {e}", copy.display()))?;
        let _ = std::fs::remove_file(&image);
        self.compile(&copy)
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

/// The first line of `mono --version`, which names the exact build.
fn mono_version() -> Result<String, String> {
    let out = run(Command::new("mono").arg("--version"))?;
    Ok(out.lines().next().unwrap_or("unknown").to_owned())
}

/// A directory name for a version line.
fn sanitize(version: &str) -> String {
    version
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect::<String>()
        .chars()
        .take(100)
        .collect()
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

/// Excludes other processes (test binaries, the benchmark) from building the
/// cache at the same time; released when dropped.
struct Lock {
    path: PathBuf,
}

impl Lock {
    fn take(path: &Path) -> Result<Lock, String> {
        let start = Instant::now();
        loop {
            match File::create_new(path) {
                Ok(mut f) => {
                    // The holder's pid, so that a lock left by a killed
                    // process is recognised as such.
                    let _ = write!(f, "{}", std::process::id());
                    return Ok(Lock {
                        path: path.to_path_buf(),
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    if Self::abandoned(path) {
                        let _ = std::fs::remove_file(path);
                        continue;
                    }
                    if start.elapsed() > STALE_LOCK {
                        return Err(format!("{} is held by another process", path.display()));
                    }
                    std::thread::sleep(Duration::from_millis(500));
                }
                Err(e) => return Err(format!("create {}: {e}", path.display())),
            }
        }
    }

    /// Whether the process that took the lock is gone (where `/proc` tells),
    /// or the lock is older than any build of the cache takes.
    fn abandoned(path: &Path) -> bool {
        let proc = Path::new("/proc");
        if proc.join("self").exists() {
            if let Some(pid) = std::fs::read_to_string(path)
                .ok()
                .and_then(|t| t.trim().parse::<u32>().ok())
            {
                return !proc.join(pid.to_string()).exists();
            }
        }
        std::fs::metadata(path)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| SystemTime::now().duration_since(t).ok())
            .is_some_and(|age| age > STALE_LOCK)
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}
