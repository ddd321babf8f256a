//! Schemas that nest as deep as they are long: 100,000 struct declarations
//! each holding the next inline or a list of the next, and as many messages
//! each holding a list of the next (rustc refuses them all, laying out the
//! inline chain or drop-checking the lists: `pktc check` does, once), and
//! 100,000 constants each defined by the previous one, which every pass of
//! the compiler walks. Each runs with bounded stack, on a 2 MiB thread (the
//! default of a test thread). A schema file over 16 MiB is refused before
//! it is parsed.
//!
//! The inner loop builds chains of 10,000 on a thread of a tenth of the
//! stack, so a pass whose stack grows with the chain overflows as soon as it
//! would on the full chain; `PKT_LONG_TESTS` runs the full chains.

use std::path::{Path, PathBuf};

use pktc::emit::{generate, GenOptions};
use pktc::Lang;

/// Declarations in a chain, and the stack every pass gets for it: 2 MiB
/// for 100,000 declarations, in proportion for shorter chains.
fn chain_len() -> usize {
    pkt_test_support::scaled(10_000, 100_000)
}

fn stack_size() -> usize {
    (2 << 20) / 100_000 * chain_len()
}

/// Runs `f` on a thread with [`stack_size`] bytes of stack.
fn on_chain_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(stack_size())
        .spawn(f)
        .expect("spawn")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}

fn write(name: &str, text: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("deep-schemas");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write schema");
    path
}

/// `struct S0 { a: S1 }` ... `struct S99999 { a: u8 }` (or messages), each
/// field's type `wrap` of the next (`{}`: the next type itself).
fn chain(keyword: &str, prefix: &str, wrap: &str) -> String {
    let n = chain_len();
    let mut s = String::new();
    for i in 0..n - 1 {
        let next = wrap.replace("{}", &format!("{prefix}{}", i + 1));
        s.push_str(&format!("{keyword} {prefix}{i} {{\n    a: {next},\n}}\n\n"));
    }
    s.push_str(&format!("{keyword} {prefix}{} {{\n    a: u8,\n}}\n", n - 1));
    s
}

fn consts() -> String {
    let n = chain_len();
    let mut s = String::from("const C0: u32 = 1;\n");
    for i in 1..n {
        s.push_str(&format!("const C{i}: u32 = C{};\n", i - 1));
    }
    s.push_str(&format!("\nstruct X {{\n    a: [u8; C{}],\n}}\n", n - 1));
    s
}

/// What `pktc inspect` of one input should do.
enum Inspect<'a> {
    /// Decode the type from the input and print the value in both formats,
    /// the JSON holding the given text and the dump the given number of
    /// lines.
    Decodes(&'a str, &'a [u8], &'a str, usize),
}

/// Every command's library entry point over one schema, then `inspect`.
fn every_pass(path: &Path, text: &str, inspect: Inspect<'_>) {
    let what = path.display().to_string();
    let checked = pktc::check(&[path.to_path_buf()]).unwrap_or_else(|f| panic!("{what}: {f}"));
    let ir = &checked.ir;
    assert!(!ir.types.is_empty(), "{what}: types");
    assert!(
        !pktc::tools::layout::layout(ir).is_empty(),
        "{what}: layout"
    );
    assert!(
        serde_json::to_string(ir).expect("dump ir").len() > chain_len(),
        "{what}: dump ir"
    );
    for lang in Lang::ALL {
        let files = generate(ir, &GenOptions::new(lang));
        assert!(!files.is_empty(), "{what}: gen {lang:?}");
    }
    let formatted = pktc::tools::format::format_source(text)
        .unwrap_or_else(|d| panic!("{what}: fmt {}", d.message));
    let again = pktc::tools::format::format_source(&formatted)
        .unwrap_or_else(|d| panic!("{what}: fmt {}", d.message));
    assert!(again == formatted, "{what}: formatting is stable");
    let report = pktc::tools::compat::compare(
        &[path.to_path_buf()],
        &pktc::load::FsReader,
        &[path.to_path_buf()],
        &pktc::load::FsReader,
    )
    .unwrap_or_else(|f| panic!("{what}: compat {f}"));
    assert!(!report.is_breaking(), "{what}: compat");
    use pktc::tools::inspect::Format;
    match inspect {
        Inspect::Decodes(ty, input, expected, lines) => {
            let json = pktc::tools::inspect::inspect(ir, ty, input, Format::Json, false)
                .unwrap_or_else(|(_, e)| panic!("{what}: inspect {e}"));
            assert!(json.contains(expected), "{what}: inspect JSON");
            let hex = pktc::tools::inspect::inspect(ir, ty, input, Format::Hex, false)
                .unwrap_or_else(|(_, e)| panic!("{what}: inspect {e}"));
            assert_eq!(hex.lines().count(), lines, "{what}: a dump line per value");
        }
    }
}

/// Structs each holding the next inline nest as deep as the chain in
/// generated Rust, which rustc refuses past 127 types: `check` reports it
/// once, where the limit is crossed, on the chain's stack.
#[test]
fn an_inline_struct_chain_is_refused_once() {
    on_chain_stack(|| {
        let text = chain("struct", "S", "{}");
        let path = write("inline_structs.pkt", &text);
        let failed = pktc::check(&[path]).expect_err("refused");
        assert_eq!(failed.diagnostics.len(), 1, "{failed}");
        let deepest = chain_len() - 128;
        assert!(
            failed.to_string().starts_with(&format!(
                "error: struct `S{deepest}` nests 128 types deep in generated Rust, more than the 127 rustc lays out"
            )),
            "{failed}"
        );
        let formatted = pktc::tools::format::format_source(&text)
            .unwrap_or_else(|d| panic!("fmt {}", d.message));
        assert!(formatted == text, "the chain is formatted as it is written");
    });
}

/// Structs or messages each holding a list of the next: rustc's drop check
/// takes a step for each list and overflows past 127 (E0320), so `check`
/// refuses the chain once, where it crosses the limit, on the chain's stack.
fn a_list_chain_is_refused_once(keyword: &str, prefix: &str) {
    let text = chain(keyword, prefix, "list<{}>");
    let path = write(&format!("{keyword}_lists.pkt"), &text);
    let failed = pktc::check(&[path]).expect_err("refused");
    assert_eq!(failed.diagnostics.len(), 1, "{failed}");
    let deepest = chain_len() - 129;
    assert!(
        failed.to_string().starts_with(&format!(
            "error: {keyword} `{prefix}{deepest}` nests 128 drop-check steps deep in generated \
             Rust, more than the 127 rustc follows"
        )),
        "{failed}"
    );
    let formatted =
        pktc::tools::format::format_source(&text).unwrap_or_else(|d| panic!("fmt {}", d.message));
    assert!(formatted == text, "the chain is formatted as it is written");
}

#[test]
fn a_struct_chain_through_lists_is_refused_once() {
    on_chain_stack(|| a_list_chain_is_refused_once("struct", "S"));
}

#[test]
fn a_message_chain_through_lists_is_refused_once() {
    on_chain_stack(|| a_list_chain_is_refused_once("message", "M"));
}

#[test]
fn a_constant_chain_compiles_everywhere() {
    on_chain_stack(|| {
        let text = consts();
        let path = write("consts.pkt", &text);
        every_pass(&path, &text, Inspect::Decodes("X", &[7], "7", 3));
    });
}

#[test]
fn a_50_mb_schema_is_refused_before_it_is_read() {
    let text = " ".repeat(50 << 20);
    let path = write("huge.pkt", &text);
    let failed = pktc::check(&[path]).expect_err("refused");
    let shown = failed.to_string();
    assert!(
        shown.contains("the file is 52428800 bytes, more than the 16 MiB a schema file may have"),
        "{shown}"
    );
}
