//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::io;
use std::path::{Path, PathBuf};

use libtest_mimic::{Arguments, Trial};
use pktc::load::FileReader;

/// A test case of a test file that runs its own `main` (`harness = false`):
/// it passes unless `check` panics, and libtest-mimic reports a panic (a
/// failed assertion, a snapshot mismatch) as the case's failure, with its
/// message.
pub fn trial(name: impl Into<String>, check: impl FnOnce() + Send + 'static) -> Trial {
    Trial::test(name, move || {
        check();
        Ok(())
    })
}

/// Runs `trials` as the standard test harness would, with its command-line
/// arguments (`--list`, a name filter, `--exact`, ...), and exits with its
/// status. Two cases of one name are a failure of the whole file: a filter
/// could not tell them apart.
pub fn run(trials: Vec<Trial>) -> ! {
    let mut names: Vec<&str> = trials.iter().map(|t| t.name()).collect();
    names.sort_unstable();
    let repeated: Vec<&str> = names
        .windows(2)
        .filter(|w| w[0] == w[1])
        .map(|w| w[0])
        .collect();
    assert!(repeated.is_empty(), "test cases named twice: {repeated:?}");
    libtest_mimic::run(&Arguments::from_args(), trials).exit()
}

/// The workspace root, so tests can name schemas as `schemas/x.pkt` (which is
/// also how they appear in snapshots).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("compiler/ has a parent")
        .to_path_buf()
}

/// Reads paths relative to the workspace root.
pub struct RootReader;

impl FileReader for RootReader {
    fn read(&self, path: &Path) -> io::Result<String> {
        std::fs::read_to_string(root().join(path))
    }
}

/// `.pkt` files directly inside `dir` (relative to the root), sorted.
pub fn schemas_in(dir: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("cannot list {dir}: {e}"))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pkt"))
        .map(|p| Path::new(dir).join(p.file_name().expect("file name")))
        .collect();
    out.sort();
    out
}

/// One case per schema in `dir`, named `{group}/{stem}`, running `check`
/// on its path, and before them the case `found`, which fails when `dir`
/// holds fewer than `at_least` schemas: an emptied fixture directory must
/// not pass by running nothing.
pub fn schema_trials(
    dir: &'static str,
    group: &str,
    found: &str,
    at_least: usize,
    check: fn(&Path),
) -> Vec<Trial> {
    let paths = schemas_in(dir);
    let count = paths.len();
    let mut trials = vec![trial(found, move || {
        assert!(
            count >= at_least,
            "expected at least {at_least} schemas in {dir}, found {count}"
        );
    })];
    for path in paths {
        trials.push(trial(format!("{group}/{}", stem(&path)), move || {
            check(&path)
        }));
    }
    trials
}

pub fn stem(path: &Path) -> String {
    path.file_stem()
        .expect("file stem")
        .to_string_lossy()
        .into_owned()
}

pub fn check(path: &Path) -> Result<pktc::Checked, pktc::Failed> {
    pktc::check_with(&[path.to_path_buf()], &RootReader)
}

/// The syntax tree of `src` without spans, for comparing what two texts say.
pub fn tree(src: &str) -> Result<String, pktc::diag::Diagnostic> {
    let mut file = pktc::syntax::parse(src, pktc::diag::FileId(0))?;
    file.erase_spans();
    Ok(format!("{file:?}"))
}

/// The text of every comment of `src`, in order.
pub fn comment_texts(src: &str) -> Vec<String> {
    pktc::syntax::trivia::comments(src)
        .iter()
        .map(|c| c.text(src).to_string())
        .collect()
}

/// Formats `src`, which must parse, and checks that the result parses to the
/// same tree, keeps every comment in order and is its own formatting.
/// Returns the formatted text.
pub fn check_format(src: &str, what: &str) -> String {
    let before = tree(src).unwrap_or_else(|d| panic!("{what}: does not parse: {}", d.message));
    let out = pktc::tools::format::format_source(src)
        .unwrap_or_else(|d| panic!("{what}: cannot format: {}", d.message));
    let after = tree(&out).unwrap_or_else(|d| {
        panic!(
            "{what}: formatted text does not parse: {}\n{out}",
            d.message
        )
    });
    assert!(
        before == after,
        "{what}: formatting changed the syntax tree\n--- input\n{src}\n--- output\n{out}"
    );
    assert_eq!(
        comment_texts(src),
        comment_texts(&out),
        "{what}: comments lost or reordered\n--- output\n{out}"
    );
    let again = pktc::tools::format::format_source(&out).expect("formatted text parses");
    assert!(
        again == out,
        "{what}: formatting is not idempotent\n--- once\n{out}\n--- twice\n{again}"
    );
    out
}

/// Writes generated Rust files under `target/<dir>` and asserts that rustfmt
/// would change nothing. Without rustfmt: a failure under `CI=true`, a loud
/// warning elsewhere.
pub fn assert_rustfmt_clean(files: &[pktc::emit::GeneratedFile], dir: &str) {
    let dir = root().join("target").join(dir);
    std::fs::create_dir_all(&dir).expect("create the rustfmt check directory");
    let mut paths = Vec::new();
    for f in files {
        let p = dir.join(&f.path);
        std::fs::write(&p, &f.contents).expect("write generated file");
        paths.push(p);
    }
    let out = match std::process::Command::new("rustfmt")
        .args(["--edition", "2021", "--check"])
        .args(&paths)
        .output()
    {
        Ok(out) => out,
        Err(e) => {
            let msg =
                format!("rustfmt is not available ({e}); generated code was not format-checked");
            if std::env::var_os("CI").is_some() {
                panic!("{msg}");
            }
            eprintln!("warning: {msg}");
            return;
        }
    };
    assert!(
        out.status.success(),
        "generated code is not rustfmt-clean:\n{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// Whether Mono's `mcs` and `mono` can run, for a test that compiles C#
/// (`what` it checks): under `CI=true` their absence is a failure, elsewhere
/// a loud warning and the test returns.
pub fn mono_available(what: &str) -> bool {
    let ok = |tool: &str| {
        std::process::Command::new(tool)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if ok("mcs") && ok("mono") {
        return true;
    }
    let msg = format!("mcs/mono not found (install mono-mcs and mono-runtime): {what} NOT checked");
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{msg}");
    }
    eprintln!("warning: {msg}");
    false
}
