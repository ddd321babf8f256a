//! Golden output of the front end: the layout and IR of every valid schema,
//! and the rendered diagnostics of every invalid one.

mod common;

use common::{check, schemas_in, stem};
use pkt_test_support::fixtures::each;
use std::path::Path;

use pktc::ir::{Ir, Layout, TypeKind};

fn settings(dir: &str) -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path(common::root().join("snapshots").join(dir));
    s.set_prepend_module_to_snapshot(false);
    s.set_omit_expression(true);
    s
}

#[test]
fn every_valid_schema_checks_and_matches_its_layout_and_ir() {
    let files = schemas_in("schemas");
    assert!(
        files.len() >= 9,
        "expected the example schemas, found {files:?}"
    );
    each(files, |path| {
        let checked = check(&path).unwrap_or_else(|f| panic!("{} failed:\n{f}", path.display()));
        assert!(
            checked.warnings.is_empty(),
            "{}: unexpected warnings",
            path.display()
        );
        let name = stem(&path);
        settings("layout").bind(|| {
            insta::assert_snapshot!(name.clone(), pktc::tools::layout::layout(&checked.ir));
        });
        settings("ir").bind(|| {
            insta::assert_json_snapshot!(name.clone(), checked.ir);
        });
    });
}

#[test]
fn every_invalid_schema_yields_its_diagnostic() {
    let files = schemas_in("schemas/invalid");
    assert!(
        files.len() >= 30,
        "expected the invalid schemas, found {}",
        files.len()
    );
    each(files, |path| {
        let failed = match check(&path) {
            Ok(_) => panic!("{} was accepted", path.display()),
            Err(f) => f,
        };
        let text = std::fs::read_to_string(common::root().join(&path)).expect("readable");
        // Each file states the diagnostics it expects, in order, as
        // `// error[LINE:COL]: message` lines (`FILE:LINE:COL` when the
        // diagnostic is in another file).
        let expected: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("// error") || l.starts_with("// warning"))
            .map(|l| l.trim_start_matches("// "))
            .collect();
        let actual: Vec<String> = failed
            .diagnostics
            .iter()
            .map(|d| header(d, &failed.sources, &path))
            .collect();
        assert!(
            !expected.is_empty(),
            "{}: no expected diagnostics",
            path.display()
        );
        assert_eq!(actual, expected, "{}:\n{failed}", path.display());
        let rendered = pktc::diag::render_all(&failed.diagnostics, &failed.sources);
        settings("diagnostics").bind(|| {
            insta::assert_snapshot!(stem(&path), rendered);
        });
    });
}

/// A diagnostic as the header line of an invalid schema states it.
fn header(d: &pktc::diag::Diagnostic, sources: &pktc::diag::SourceMap, path: &Path) -> String {
    let severity = if d.is_error() { "error" } else { "warning" };
    let span = d.primary_span().unwrap_or_else(|| {
        panic!(
            "{}: diagnostic without a location: {}",
            path.display(),
            d.message
        )
    });
    let (line, col) = sources.line_col(span.file, span.start);
    let file = &sources.get(span.file).path;
    let at = if file == path {
        format!("{line}:{col}")
    } else {
        let name = file.file_name().expect("file name").to_string_lossy();
        format!("{name}:{line}:{col}")
    };
    format!("{severity}[{at}]: {}", d.message)
}

fn type_named<'a>(ir: &'a Ir, name: &str) -> &'a pktc::ir::TypeDef {
    ir.types
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no type {name}"))
}

#[test]
fn seed_packets_have_the_sizes_of_their_fields() {
    let ir = check("schemas/seed_packets.pkt".as_ref())
        .expect("valid")
        .ir;
    for (name, size) in [("Packet", 4), ("Int3Packet", 16), ("TransformPacket", 40)] {
        assert_eq!(
            type_named(&ir, name).layout,
            Layout::Fixed { size },
            "{name}"
        );
    }
    let TypeKind::Struct { fields } = &type_named(&ir, "TransformPacket").kind else {
        panic!("TransformPacket is a struct");
    };
    let offsets: Vec<u32> = fields
        .iter()
        .map(|f| f.offset.expect("struct offset"))
        .collect();
    assert_eq!(offsets, [0, 2, 4, 8, 12, 16, 20, 24, 28, 32, 36]);
}

#[test]
fn variable_types_report_their_minimum_size() {
    let ir = check("schemas/game.pkt".as_ref()).expect("valid").ir;
    assert_eq!(
        type_named(&ir, "ServerPacket").layout,
        Layout::Variable { min_size: 6 }
    );
    assert_eq!(
        type_named(&ir, "ClientPacket").layout,
        Layout::Variable { min_size: 5 }
    );
    assert_eq!(type_named(&ir, "Vec3").layout, Layout::Fixed { size: 12 });
}

#[test]
fn recursion_through_optionals_is_marked_for_boxing() {
    let ir = check("schemas/everything.pkt".as_ref()).expect("valid").ir;
    let linked = type_named(&ir, "LinkedNode");
    let next = linked
        .kind
        .fields()
        .iter()
        .find(|f| f.name == "next")
        .expect("next");
    assert!(next.cyclic, "LinkedNode.next leads back to LinkedNode");
    let tree = type_named(&ir, "TreeNode");
    assert!(
        tree.kind.fields().iter().all(|f| !f.cyclic),
        "a list already breaks the cycle"
    );
}
