//! `pktc fmt`: every example formats to a text that says the same, keeps
//! every comment and is stable; a messy schema's result is a snapshot. Each
//! example is a test case of its own for each of these checks
//! (`same_tree/valid/game`, `comments/invalid/duplicate_field`,
//! `formatted/game`).

mod common;

use common::{check_format, root, schema_trials, schemas_in, stem, trial};
use std::path::Path;

fn main() {
    let mut trials = Vec::new();

    let examples = parsable_examples();
    let count = examples.len();
    trials.push(trial("parsable_examples_found", move || {
        assert!(count > 30, "expected the example schemas");
    }));
    for (path, text) in &examples {
        let (name, text) = (path.display().to_string(), text.clone());
        trials.push(trial(format!("same_tree/{}", short(path)), move || {
            example_formats_to_the_same_tree_and_is_stable(name, text)
        }));
    }
    for (path, text) in examples {
        let name = path.display().to_string();
        trials.push(trial(format!("comments/{}", short(&path)), move || {
            comments_in_every_gap_survive(name, text)
        }));
    }

    trials.extend(schema_trials(
        "schemas",
        "formatted",
        "formatted_examples_found",
        1,
        example_is_formatted,
    ));

    trials.extend([
        trial(
            "tricky_inputs_keep_their_meaning",
            tricky_inputs_keep_their_meaning,
        ),
        trial("formats_a_messy_schema", formats_a_messy_schema),
        trial(
            "adding_a_line_changes_only_that_line",
            adding_a_line_changes_only_that_line,
        ),
        trial("line_endings_are_kept", line_endings_are_kept),
        trial(
            "cli_checks_and_rewrites_only_changed_files",
            cli_checks_and_rewrites_only_changed_files,
        ),
    ]);
    common::run(trials)
}

/// Every `.pkt` file of the examples, valid or not, that parses, with its
/// text.
fn parsable_examples() -> Vec<(std::path::PathBuf, String)> {
    let mut out = Vec::new();
    for dir in ["schemas", "schemas/invalid"] {
        for path in schemas_in(dir) {
            // One invalid example is not UTF-8: it is no text to format.
            let Ok(text) = std::fs::read_to_string(root().join(&path)) else {
                continue;
            };
            if common::tree(&text).is_ok() {
                out.push((path, text));
            }
        }
    }
    out
}

/// An example's name in a test case's: `valid/game`, `invalid/duplicate_field`.
fn short(path: &Path) -> String {
    let group = if path.starts_with("schemas/invalid") {
        "invalid"
    } else {
        "valid"
    };
    format!("{group}/{}", stem(path))
}

fn example_formats_to_the_same_tree_and_is_stable(name: String, text: String) {
    check_format(&text, &name);
}

fn example_is_formatted(path: &Path) {
    let text = std::fs::read_to_string(root().join(path)).expect("readable");
    let formatted = pktc::tools::format::format_source(&text).expect("parses");
    assert!(
        formatted == text,
        "{} is not formatted; run `pktc fmt {}`",
        path.display(),
        path.display()
    );
}

/// Positions where a comment can be inserted: right after whitespace that is
/// outside strings and comments.
fn gaps(text: &str) -> Vec<usize> {
    let comments = pktc::syntax::trivia::comments(text);
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut in_string = false;
    let mut i = 0;
    while i < b.len() {
        if let Some(c) = comments.iter().find(|c| c.start == i) {
            i = c.end;
            continue;
        }
        match b[i] {
            b'"' => in_string = !in_string,
            b'\\' if in_string => i += 1,
            b' ' | b'\n' if !in_string => out.push(i + 1),
            _ => {}
        }
        i += 1;
    }
    out
}

fn insert_everywhere(text: &str, comment: impl Fn(usize) -> String) -> String {
    let mut out = String::new();
    let mut prev = 0;
    for (n, at) in gaps(text).into_iter().enumerate() {
        out.push_str(&text[prev..at]);
        out.push_str(&comment(n));
        prev = at;
    }
    out.push_str(&text[prev..]);
    out
}

fn comments_in_every_gap_survive(name: String, text: String) {
    type Style = (&'static str, fn(usize) -> String);
    let styles: [Style; 4] = [
        ("block", |n| format!("/* b{n} */ ")),
        ("line", |n| format!("// l{n}\n")),
        ("doc-like", |n| format!("//// q{n}\n\n")),
        ("mixed", |n| match n % 3 {
            0 => format!("/* m{n} */"),
            1 => format!("// m{n}\n"),
            _ => format!("/* m{n}\n   spans lines */\n"),
        }),
    ];
    for (style, comment) in &styles {
        let mangled = insert_everywhere(&text, comment);
        check_format(&mangled, &format!("{name} with {style} comments"));
    }
}

fn tricky_inputs_keep_their_meaning() {
    let cases = [
        "",
        "// only a comment",
        "/* only a block */\n\n\n",
        "namespace a; // ns\n// eof",
        "struct A {} // after\n// before B\nstruct B {}",
        "struct A { x: u8 /* inside */ }",
        "struct A { x: u8, // one\n// own\n}",
        "message A { x: list< // why\n u8 >, }",
        "message A { @max(3) @deprecated x: string }",
        "message A { @deprecated @max(3) x: string }",
        "message A { x: string @deprecated @max(3) = \"d\" }",
        "enum E { A = 1 } enum F : u16 { B = 0xFF_FF, }",
        "union U { A(u8) = 1, reserved 2, 3, B(u16) = 4, reserved 5 }",
        "/// doc\n@preserve_unknown\nmessage M {}",
        "const X: u8 = 1; /* c */ const Y: u8 = 2;",
        "message M { x: u8 /* a */ /* b */ , y: u8 }\r\n// crlf\r\n",
        "struct S { x: u8??, y: [u8; 0x10] }",
        "/* a */ /* b */ namespace /* c */ a.b /* d */ ; /* e */",
        "message A { x: list<string@max(24)/* e */>@max(8) }",
        "message A { x: map<string @max( 3 ) @deprecated, [bytes @max(2); 2] @max(1)>? }",
        "struct S { x: list<list<string? @max(4)> @max(2) // row\n> }",
        // Comments stay between the tokens they were between.
        "struct S { x: u8,\n    /* before y */ y: u8 }",
        "message M { b: list<u8> // after the type\n        @max(3) }",
        "@preserve_unknown\n/* before the keyword */ message M {}",
        "union U { A(u8) /* before = */ = 1 }",
        "const X: u8 = 1 /* before ; */ ;",
        "enum E { A /* c */ = 1 }",
        "struct S { x: [u8 /* c */ ; 4] }",
    ];
    for src in cases {
        check_format(src, &format!("{src:?}"));
    }
}

fn formats_a_messy_schema() {
    let text =
        std::fs::read_to_string(root().join("compiler/tests/inputs/messy.pkt")).expect("readable");
    let out = check_format(&text, "messy.pkt");
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path(root().join("snapshots").join("fmt"));
    s.set_prepend_module_to_snapshot(false);
    s.set_omit_expression(true);
    s.bind(|| insta::assert_snapshot!("messy", out));
}

/// Nothing is aligned in columns: a new enum value, field or variant with a
/// longer name and a trailing comment leaves every other line as it was.
fn adding_a_line_changes_only_that_line() {
    let before = "enum E : u8 {\n    A = 1, // one\n    Bb = 2, // two\n}\n\n\
                  message M {\n    a: u8, // first\n    bb: u16 = 3, // second\n}\n\n\
                  union U {\n    A(u8) = 1, // one\n    reserved 2, // gone\n}\n";
    assert_eq!(check_format(before, "before"), before, "already formatted");
    for (after, new_line) in [
        (
            "    Bb = 2, // two\n",
            "    AVeryMuchLongerName = 3, // three\n",
        ),
        (
            "    bb: u16 = 3, // second\n",
            "    a_much_longer_field_name: map<string, u64> = 7, // third\n",
        ),
        (
            "    reserved 2, // gone\n",
            "    ALongerVariant(M) = 3, // new\n",
        ),
    ] {
        let edited = before.replacen(after, &format!("{after}{new_line}"), 1);
        assert_eq!(
            check_format(&edited, new_line),
            edited,
            "adding {new_line:?} changed other lines"
        );
    }
}

/// A file with `\r\n` line breaks (a Windows checkout with
/// `core.autocrlf`) keeps them, inside block comments too, and `fmt --check`
/// passes on it once formatted.
fn line_endings_are_kept() {
    let lf = "/// Doc.\nstruct A {\n    x: u8, /* a\n    block */\n}\n\nenum E {\n    V = 1,\n}\n";
    let crlf = lf.replace('\n', "\r\n");
    assert_eq!(check_format(&crlf, "crlf"), crlf);
    let messy = "struct A{x:u8,/* a\r\n  block */}\r\nenum E{V=1}\r\n";
    let out = check_format(messy, "messy crlf");
    assert_eq!(
        out.matches('\n').count(),
        out.matches("\r\n").count(),
        "{out:?}"
    );
    assert_eq!(check_format(lf, "lf"), lf);

    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("fmt-crlf");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("crlf.pkt"), &crlf).expect("write");
    let o = pktc(&["fmt", "--check", "crlf.pkt"], &dir);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

fn pktc(args: &[&str], dir: &std::path::Path) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_pktc"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("pktc runs")
}

fn cli_checks_and_rewrites_only_changed_files() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("fmt-cli");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("ugly.pkt"), "struct A{x:u8}").expect("write");
    std::fs::write(dir.join("tidy.pkt"), "struct A {\n    x: u8,\n}\n").expect("write");
    std::fs::write(dir.join("broken.pkt"), "struct A {").expect("write");

    let o = pktc(&["fmt", "--check", "ugly.pkt", "tidy.pkt"], &dir);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "would change: ugly.pkt\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("ugly.pkt")).unwrap(),
        "struct A{x:u8}",
        "--check writes nothing"
    );

    let o = pktc(&["fmt", "ugly.pkt", "tidy.pkt"], &dir);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "formatted ugly.pkt\n");
    assert_eq!(
        std::fs::read_to_string(dir.join("ugly.pkt")).unwrap(),
        "struct A {\n    x: u8,\n}\n"
    );

    let o = pktc(&["fmt", "--check", "ugly.pkt", "tidy.pkt"], &dir);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "");

    let o = pktc(&["fmt", "broken.pkt"], &dir);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--> broken.pkt:1:"), "{err}");
}
