//! The front end never panics: random bytes and random mutations of the
//! example schemas each end in `Ok` or in at least one located diagnostic.

mod common;

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};

use pkt_test_support::Rng;
use pktc::load::FileReader;

/// Files held in memory; every example schema is present so that mutated
/// imports can still resolve (or cycle).
struct MemReader(HashMap<PathBuf, String>);

impl FileReader for MemReader {
    fn read(&self, path: &Path) -> io::Result<String> {
        self.0
            .get(path)
            .cloned()
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "not in memory"))
    }
}

const TOKENS: &[&str] = &[
    "struct",
    "message",
    "enum",
    "union",
    "const",
    "import",
    "namespace",
    "reserved",
    "{",
    "}",
    "(",
    ")",
    "<",
    ">",
    "[",
    "]",
    ";",
    ":",
    ",",
    "=",
    "?",
    "@",
    "@max(",
    "@deprecated",
    "@preserve_unknown",
    "list<",
    "map<",
    "u8",
    "u16",
    "string",
    "bytes",
    "Unknown",
    "self",
    "0",
    "-1",
    "256",
    "65536",
    "0xFFFFFFFFFFFFFFFF",
    "99999999999999999999999",
    "1.5",
    "\"",
    "\"common.pkt\"",
    "///",
    "//",
    "/*",
    "*/",
    "\n",
    " ",
    "Vec3",
    "encoded_size",
    "x",
    "é",
];

fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut s: Vec<u8> = text.as_bytes().to_vec();
    for _ in 0..1 + rng.index(4) {
        let at = rng.index(s.len() + 1);
        match rng.index(6) {
            0 => {
                let end = (at + rng.index(16)).min(s.len());
                s.drain(at..end);
            }
            1 | 2 => {
                let t = TOKENS[rng.index(TOKENS.len())].as_bytes();
                s.splice(at..at, t.iter().copied());
            }
            3 => {
                let from = rng.index(s.len() + 1);
                let end = (from + rng.index(40)).min(s.len());
                let chunk: Vec<u8> = s[from..end].to_vec();
                s.splice(at..at, chunk);
            }
            4 if at < s.len() => s[at] = rng.next() as u8,
            _ => s.truncate(at),
        }
    }
    String::from_utf8_lossy(&s).into_owned()
}

fn assert_handled(reader: &MemReader, path: &Path, case: usize) {
    match pktc::check_with(&[path.to_path_buf()], reader) {
        Ok(checked) => {
            // Whatever passes must also lay out.
            let _ = pktc::tools::layout::layout(&checked.ir);
        }
        Err(failed) => {
            assert!(
                !failed.diagnostics.is_empty(),
                "case {case}: rejected without a diagnostic"
            );
            let text = failed.to_string();
            assert!(text.contains("error"), "case {case}: {text}");
        }
    }
}

#[test]
fn mutated_schemas_yield_ok_or_diagnostics() {
    let files = common::schemas_in("schemas");
    let originals: Vec<(PathBuf, String)> = files
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(common::root().join(p)).expect("readable");
            (p.clone(), text)
        })
        .collect();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let cases = pkt_test_support::scaled(400, 4000);
    let mut accepted = 0;
    for case in 0..cases {
        let (path, text) = &originals[case % originals.len()];
        let mut map: HashMap<PathBuf, String> = originals.iter().cloned().collect();
        map.insert(path.clone(), mutate(&mut rng, text));
        if common::tree(&map[path]).is_ok() {
            // Whatever parses must format to a text that says the same.
            common::check_format(&map[path], &format!("case {case}"));
        }
        let reader = MemReader(map);
        if pktc::check_with(std::slice::from_ref(path), &reader).is_ok() {
            accepted += 1;
        }
        assert_handled(&reader, path, case);
    }
    // Mutations that keep a file valid (inside comments, say) happen, but most break it.
    assert!(
        accepted < cases,
        "every mutation was accepted: the mutator is not mutating"
    );
}

#[test]
fn random_bytes_yield_diagnostics() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let path = PathBuf::from("random.pkt");
    for case in 0..pkt_test_support::scaled(200, 2000) {
        let len = rng.index(300);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        if common::tree(&text).is_ok() {
            common::check_format(&text, &format!("random case {case}"));
        }
        let reader = MemReader(HashMap::from([(path.clone(), text)]));
        assert_handled(&reader, &path, case);
    }
}

#[test]
fn hostile_nesting_is_a_diagnostic_not_a_stack_overflow() {
    let depth = 100_000;
    let cases = [
        format!(
            "message A {{ x: {}u8{} }}",
            "list<".repeat(depth),
            ">".repeat(depth)
        ),
        format!(
            "message A {{ x: {}u8{} }}",
            "[".repeat(depth),
            "; 2]".repeat(depth)
        ),
        "/*".repeat(depth),
        format!("message A {{ x: u8{} }}", "?".repeat(depth)),
        format!("message A {{ {} }}", "x: u8, ".repeat(depth)),
    ];
    let path = PathBuf::from("deep.pkt");
    for (i, text) in cases.into_iter().enumerate() {
        let reader = MemReader(HashMap::from([(path.clone(), text)]));
        match pktc::check_with(std::slice::from_ref(&path), &reader) {
            Ok(_) => panic!("case {i} was accepted"),
            Err(f) => assert!(!f.diagnostics.is_empty(), "case {i}"),
        }
    }
}

#[test]
fn schema_fuzz_corpus_replays_cleanly() {
    let dir = common::root().join("fuzz/corpus/schema");
    let path = PathBuf::from("fuzz.pkt");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("fuzz/corpus/schema exists") {
        let file = entry.expect("entry").path();
        let text = String::from_utf8_lossy(&std::fs::read(&file).expect("readable")).into_owned();
        if pktc::syntax::parse(&text, pktc::diag::FileId(0)).is_ok() {
            common::check_format(&text, &file.display().to_string());
        }
        let reader = MemReader(HashMap::from([(path.clone(), text)]));
        assert_handled(&reader, &path, n);
        n += 1;
    }
    assert!(n >= 40, "expected the committed corpus, found {n} inputs");
}

#[test]
fn endless_import_chains_stop_with_a_diagnostic() {
    // Every path reads as a file importing `sub/next.pkt` relative to itself:
    // a chain of distinct paths with no cycle, like a symlink to a parent.
    struct Endless;
    impl FileReader for Endless {
        fn read(&self, _: &Path) -> io::Result<String> {
            Ok("import \"sub/next.pkt\";\nmessage M { x: u8 }\n".to_string())
        }
    }
    let failed = pktc::check_with(&[PathBuf::from("top.pkt")], &Endless).unwrap_err();
    let text = failed.to_string();
    assert!(
        text.contains("imports nest more than 64 files deep"),
        "{text}"
    );
}

#[test]
fn a_symlink_loop_on_disk_is_an_import_cycle() {
    let dir = common::root().join("target/symlink-loop-test");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(
        dir.join("a.pkt"),
        "import \"sub/a.pkt\";\nmessage M { x: u8 }\n",
    )
    .expect("write");
    std::os::unix::fs::symlink(".", dir.join("sub")).expect("symlink");
    let failed = pktc::check(&[dir.join("a.pkt")]).unwrap_err();
    let text = failed.to_string();
    assert!(text.contains("import cycle"), "{text}");
    assert_eq!(failed.diagnostics.len(), 1, "{text}");
}
