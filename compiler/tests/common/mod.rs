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
        std::fs::read(root().join(path)).and_then(pktc::load::utf8_text)
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

/// Every comment of `src`, in order, with where it is: the code tokens just
/// before and after it (commas aside, which the formatter adds) and whether
/// it shares its first line with the code before it (a doc comment never
/// does).
pub fn comment_places(src: &str) -> Vec<(String, String, String, bool)> {
    let comments = pktc::syntax::trivia::comments(src);
    let tokens = code_tokens(src, &comments);
    comments
        .iter()
        .map(|c| {
            let before = tokens[..tokens.partition_point(|t| t.1 <= c.start)].last();
            let after = tokens.get(tokens.partition_point(|t| t.0 < c.end));
            // A doc comment always gets a line of its own: it documents
            // what follows it.
            let same_line = c.kind != pktc::syntax::trivia::CommentKind::Doc
                && before.is_some_and(|t| !src[t.1..c.start].contains(['\n', '\r']));
            let text = |t: Option<&(usize, usize)>| t.map_or("", |t| &src[t.0..t.1]).to_string();
            (
                c.text(src).replace("\r\n", "\n"),
                text(before),
                text(after),
                same_line,
            )
        })
        .collect()
}

/// The code tokens of `src` outside `comments`, as byte ranges: names and
/// numbers, strings, single punctuation characters other than `,`; without
/// attributes, which the formatter may move (a field's `@max` goes after
/// its type).
fn code_tokens(src: &str, comments: &[pktc::syntax::trivia::Comment]) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut in_attr = false;
    for (start, end) in lex(src, comments) {
        let t = &src[start..end];
        if t.starts_with('@') {
            in_attr = true;
            continue;
        }
        if in_attr {
            match t {
                "(" => depth += 1,
                ")" if depth > 0 => depth -= 1,
                _ if depth > 0 => {}
                _ => in_attr = false,
            }
            if in_attr {
                in_attr = depth > 0 || t == "(";
                continue;
            }
        }
        out.push((start, end));
    }
    out
}

fn lex(src: &str, comments: &[pktc::syntax::trivia::Comment]) -> Vec<(usize, usize)> {
    let b = src.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-');
    let mut out = Vec::new();
    let mut comments = comments.iter().peekable();
    let mut i = 0;
    while i < b.len() {
        if let Some(c) = comments.next_if(|c| c.start <= i) {
            i = i.max(c.end);
            continue;
        }
        let start = i;
        match b[i] {
            b' ' | b'\t' | b'\r' | b'\n' | b',' => {
                i += 1;
                continue;
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(b.len());
            }
            c if word(c) || c == b'@' => {
                i += 1;
                while i < b.len() && word(b[i]) {
                    i += 1;
                }
            }
            _ => i += src[i..].chars().next().map_or(1, char::len_utf8),
        }
        out.push((start, i));
    }
    out
}

/// Formats `src`, which must parse, and checks that the result parses to the
/// same tree, keeps every comment in order and in its place, and is its own
/// formatting.
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
    // Every comment stays, in order, between the same code, and one that
    // followed code on its line still does.
    let (before, after) = (comment_places(src), comment_places(&out));
    let moved = before.iter().zip(&after).find(|(b, a)| b != a);
    assert!(
        before.len() == after.len() && moved.is_none(),
        "{what}: comments lost, reordered or moved: {moved:?}\n--- input\n{src}\n--- output\n{out}"
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

/// A fenced code block of a Markdown file: `` ```LANG key=value flag ``.
pub struct Block {
    pub lang: String,
    pub attrs: std::collections::HashMap<String, String>,
    pub text: String,
    /// The line of the opening fence, from 1.
    pub line: usize,
}

/// The fenced code blocks of `markdown`, in order.
pub fn blocks(markdown: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut lines = markdown.lines().enumerate();
    while let Some((i, line)) = lines.next() {
        let Some(info) = line.strip_prefix("```") else {
            continue;
        };
        let mut words = info.split_whitespace();
        let lang = words.next().unwrap_or("").to_string();
        let attrs = words
            .map(|w| match w.split_once('=') {
                Some((k, v)) => (k.to_string(), v.to_string()),
                None => (w.to_string(), String::new()),
            })
            .collect();
        let mut text = String::new();
        for (_, l) in lines.by_ref() {
            if l.starts_with("```") {
                break;
            }
            text.push_str(l);
            text.push('\n');
        }
        out.push(Block {
            lang,
            attrs,
            text,
            line: i + 1,
        });
    }
    out
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

/// A scratch directory `pktc-NAME-…` outside the repository (a crate in it
/// must not be taken for a member of this workspace), one per checkout so
/// that two checkouts' tests do not share it, emptied but for the `target/`
/// directories of its subdirectories (crates whose dependencies need not be
/// built again).
pub fn scratch_dir(name: &str) -> PathBuf {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    root().hash(&mut h);
    let dir = std::env::temp_dir().join(format!("pktc-{name}-{:016x}", h.finish()));
    if dir.exists() {
        for entry in std::fs::read_dir(&dir).expect("scratch dir") {
            let p = entry.expect("entry").path();
            if p.is_dir() && !p.is_symlink() {
                for inner in std::fs::read_dir(&p).expect("scratch subdirectory") {
                    let q = inner.expect("entry").path();
                    if !q.ends_with("target") {
                        remove(&q);
                    }
                }
            } else {
                remove(&p);
            }
        }
    }
    std::fs::create_dir_all(&dir).expect("create the scratch dir");
    dir
}

/// Removes a file, a symbolic link or a directory tree.
pub fn remove(p: &Path) {
    if p.is_dir() && !p.is_symlink() {
        std::fs::remove_dir_all(p).expect("clean");
    } else {
        std::fs::remove_file(p).expect("clean");
    }
}
