//! Golden output of the front end: the layout and IR of every valid schema,
//! and the rendered diagnostics of every invalid one. Each schema is a test
//! case of its own (`valid/game`, `invalid/dup_field`), so one can be run
//! alone and a failure names it.

mod common;

use common::{check, schema_trials, stem, trial};
use std::path::Path;

use pktc::ir::{Ir, Layout, TypeKind};

fn main() {
    let mut trials = Vec::new();

    trials.extend(schema_trials(
        "schemas",
        "valid",
        "valid_schemas_found",
        9,
        valid_schema_checks_and_matches_its_layout_and_ir,
    ));
    trials.extend(schema_trials(
        "schemas/warnings",
        "warnings",
        "warning_schemas_found",
        2,
        warning_schema_checks_with_its_warnings,
    ));
    trials.extend(schema_trials(
        "schemas/invalid",
        "invalid",
        "invalid_schemas_found",
        30,
        invalid_schema_yields_its_diagnostic,
    ));

    trials.extend([
        trial(
            "seed_packets_have_the_sizes_of_their_fields",
            seed_packets_have_the_sizes_of_their_fields,
        ),
        trial(
            "variable_types_report_their_minimum_size",
            variable_types_report_their_minimum_size,
        ),
        trial(
            "recursion_through_optionals_is_marked_for_boxing",
            recursion_through_optionals_is_marked_for_boxing,
        ),
        trial(
            "negated_constants_have_their_values_in_the_ir_and_the_generated_rust",
            negated_constants_have_their_values_in_the_ir_and_the_generated_rust,
        ),
    ]);
    common::run(trials)
}

fn settings(dir: &str) -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path(common::root().join("snapshots").join(dir));
    s.set_prepend_module_to_snapshot(false);
    s.set_omit_expression(true);
    s
}

fn valid_schema_checks_and_matches_its_layout_and_ir(path: &Path) {
    let checked = check(path).unwrap_or_else(|f| panic!("{} failed:\n{f}", path.display()));
    assert!(
        checked.warnings.is_empty(),
        "{}: unexpected warnings",
        path.display()
    );
    let name = stem(path);
    settings("layout").bind(|| {
        insta::assert_snapshot!(name.clone(), pktc::tools::layout::layout(&checked.ir));
    });
    settings("ir").bind(|| {
        insta::assert_json_snapshot!(name.clone(), checked.ir);
    });
}

fn invalid_schema_yields_its_diagnostic(path: &Path) {
    let failed = match check(path) {
        Ok(_) => panic!("{} was accepted", path.display()),
        Err(f) => f,
    };
    assert_stated_diagnostics(path, &failed.diagnostics, &failed.sources, "diagnostics");
}

/// A schema of `schemas/warnings/` passes the checks with the warnings it
/// states (as invalid schemas state their errors).
fn warning_schema_checks_with_its_warnings(path: &Path) {
    let checked = check(path).unwrap_or_else(|f| panic!("{} failed:\n{f}", path.display()));
    assert_stated_diagnostics(path, &checked.warnings, &checked.sources, "warnings");
}

/// Each file states the diagnostics it expects, in order, as
/// `// error[LINE:COL]: message` (or `// warning[...]`) lines
/// (`FILE:LINE:COL` when the diagnostic is in another file); their
/// rendering is the snapshot `dir/<stem>`.
fn assert_stated_diagnostics(
    path: &Path,
    diagnostics: &[pktc::diag::Diagnostic],
    sources: &pktc::diag::SourceMap,
    dir: &str,
) {
    // Lossy: one fixture is not UTF-8 on purpose.
    let bytes = std::fs::read(common::root().join(path)).expect("readable");
    let text = String::from_utf8_lossy(&bytes);
    let expected: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("// error") || l.starts_with("// warning"))
        .map(|l| l.trim_start_matches("// "))
        .collect();
    let actual: Vec<String> = diagnostics
        .iter()
        .map(|d| header(d, sources, path))
        .collect();
    let rendered = pktc::diag::render_all(diagnostics, sources);
    assert!(
        !expected.is_empty(),
        "{}: no expected diagnostics",
        path.display()
    );
    assert_eq!(actual, expected, "{}:\n{rendered}", path.display());
    settings(dir).bind(|| {
        insta::assert_snapshot!(stem(path), rendered);
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

/// `-NAME` stands wherever a negative number may: constant values,
/// `@quantize` bounds and integer defaults, qualified or not. The IR holds
/// the negated values, and generated Rust spells them; `pktc fmt` keeps them.
fn negated_constants_have_their_values_in_the_ir_and_the_generated_rust() {
    let path = Path::new("compiler/tests/inputs/negated_constants.pkt");
    let checked = check(path).unwrap_or_else(|f| panic!("{f}"));
    let ir = &checked.ir;
    let consts: Vec<(&str, i128)> = ir.files[0]
        .consts
        .iter()
        .map(|c| (c.name.as_str(), c.value))
        .collect();
    assert_eq!(
        consts,
        [("WORLD_HALF", 4096), ("FLOOR", -4096), ("CEILING", 4096)]
    );
    let ty = |name: &str| ir.types.iter().find(|t| t.name == name).expect("declared");
    for f in ty("Pos").kind.fields() {
        let q = f.quantize.as_ref().expect("quantized");
        assert_eq!(
            (q.min, q.max, q.step, q.steps),
            (-4096.0, 4096.0, 0.5, 16384)
        );
    }
    let defaults: Vec<Option<pktc::ir::Value>> = ty("Spawn")
        .kind
        .fields()
        .iter()
        .map(|f| f.default.clone())
        .collect();
    use pktc::ir::Value::Int;
    assert_eq!(
        defaults,
        [None, Some(Int(-4096)), Some(Int(4096)), Some(Int(-4096))]
    );
    let rust = pktc::emit::generate(ir, &pktc::emit::GenOptions::new(pktc::Lang::Rust));
    let text = &rust
        .iter()
        .find(|f| f.path == Path::new("negated_constants.rs"))
        .expect("generated")
        .contents;
    for line in [
        "pub const FLOOR: i32 = -4096;",
        "pub const CEILING: i64 = 4096;",
        "read_valid_f32(&bytes[0..2], -4096.0, 4096.0, 0.5, 16384)",
        "read_valid_f32(&bytes[2..4], -4096.0, 4096.0, 0.5, 16384)",
        "depth: -4096,",
        "height: 4096,",
        "bottom: -4096,",
    ] {
        assert!(text.contains(line), "{line} not in:\n{text}");
    }
    let source = std::fs::read_to_string(common::root().join(path)).expect("readable");
    let formatted = pktc::tools::format::format_source(&source).expect("formats");
    for kept in [
        "const CEILING: i64 = -FLOOR;",
        "@quantize(-test.negated.WORLD_HALF, WORLD_HALF, 0.5)",
        "bottom: i16 = -WORLD_HALF,",
    ] {
        assert!(formatted.contains(kept), "{kept} not in:\n{formatted}");
    }
}
