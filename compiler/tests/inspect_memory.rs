//! `pktc inspect` on hostile input: the amplifier shapes of
//! `schemas/amplify.pkt` at 64 KiB and 1 MiB are answered within a heap
//! bound proportional to the input (they used to abort it at 64 KiB), and a
//! 16 MiB frame of absent big optionals is rejected at its count prefix.

use std::path::Path;

use pkt_test_support::alloc;
use pktc::tools::inspect::{self, ErrorKind, Limits};

/// Heap bytes `pktc inspect` may build per input byte and per byte of decode
/// budget charged (docs/security.md): one annotated node per value read.
const INSPECT_PER_INPUT: usize = 256;
const INSPECT_PER_CHARGED: usize = 4;

pkt_test_support::counting_allocator!();

fn list_message(elem: &[u8], total: usize) -> Vec<u8> {
    let count = (total - 8) / elem.len();
    let mut body = (count as u32).to_le_bytes().to_vec();
    for _ in 0..count {
        body.extend_from_slice(elem);
    }
    let mut out = (body.len() as u32).to_le_bytes().to_vec();
    out.extend_from_slice(&body);
    out
}

#[test]
fn amplifiers_stay_within_the_inspect_heap_bound() {
    let schema = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/amplify.pkt");
    let ir = pktc::check(&[schema]).unwrap_or_else(|f| panic!("{f}")).ir;
    let shapes: [(&str, &[u8]); 7] = [
        ("OptionalBigs", &[0]),
        ("Bigs", &[0, 0, 0, 0]),
        ("VariantList", &[1, 0, 0, 0, 9]),
        ("VariantList", &[5, 0, 0, 0, 2, 0, 0, 0, 0]),
        ("Defaults", &[0, 0, 0, 0]),
        ("NestedLists", &[0, 0, 0, 0]),
        ("Strings", &[0, 0, 0, 0]),
    ];
    for total in [64 << 10, 1 << 20] {
        for (name, elem) in shapes {
            let id = inspect::find_type(&ir, name).expect("type");
            let input = list_message(elem, total);
            let start = alloc::live();
            alloc::reset_peak();
            let (node, err) = inspect::decode(&ir, id, &input, Limits::DEFAULT);
            drop(node);
            let peak = alloc::peak() - start;
            let budget = Limits::DEFAULT.decode_budget(input.len());
            let bound = INSPECT_PER_INPUT * input.len() + INSPECT_PER_CHARGED * budget;
            println!(
                "{name}, {} bytes: {:?}, peak heap {peak} ({:.1} per input byte)",
                input.len(),
                err.as_ref().map(|e| e.kind.to_string()),
                peak as f64 / input.len() as f64
            );
            assert!(peak <= bound, "{name}: peak {peak} over {bound}");
            if let Some(e) = err {
                assert!(
                    matches!(e.kind, ErrorKind::BudgetExceeded { .. }),
                    "{name}: {e}"
                );
            }
        }
    }
}

#[test]
fn a_sixteen_mebibyte_frame_of_absent_big_optionals_is_rejected_at_its_count() {
    let schema = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/amplify.pkt");
    let ir = pktc::check(&[schema]).unwrap_or_else(|f| panic!("{f}")).ir;
    let id = inspect::find_type(&ir, "OptionalBigs").expect("type");
    let input = list_message(&[0], 16 << 20);
    let (_, err) = inspect::decode(&ir, id, &input, Limits::DEFAULT);
    let e = err.expect("rejected");
    assert_eq!(e.offset, 4);
    match e.kind {
        ErrorKind::BudgetExceeded { field, .. } => {
            assert_eq!(field, "test.amplify.OptionalBigs.items")
        }
        other => panic!("{other}"),
    }
}

/// The shapes of `schemas/arrays.pkt`: empty values, nested arrays, struct
/// chains and sparse maps in lists, and lists of values close to the size
/// bound, with their elements' bytes. Each element is at most a few bytes;
/// inspect must build at most a few nodes per byte however deeply the
/// element's structs and arrays nest (it used to take a node per part: 3.2
/// GB for 100 KB).
fn array_shapes() -> [(&'static str, &'static [u8]); 8] {
    [
        ("WithEmpties", &[7]),
        ("OneByteArrays", &[7]),
        ("NestedArrays", &[7]),
        ("Chains", &[1, 2]),
        ("SparseMaps", &[1, 0, 0, 0, 5, 0]),
        ("ManyOptionals", &[0, 0, 0, 0]),
        ("ManyStrings", &[0, 0, 0, 0]),
        ("ManyNumbers", &[0, 0, 0, 0]),
    ]
}

/// A message of `total` bytes whose first field is a list of `count`
/// copies of `elem`, the rest of the body zeros (bytes a newer writer
/// added).
fn list_of(elem: &[u8], count: usize, total: usize) -> Vec<u8> {
    let mut out = ((total - 4) as u32).to_le_bytes().to_vec();
    out.extend_from_slice(&(count as u32).to_le_bytes());
    for _ in 0..count {
        out.extend_from_slice(elem);
    }
    out.resize(total, 0);
    out
}

#[test]
fn nested_arrays_and_empty_values_stay_within_the_inspect_heap_bound() {
    let schema = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/arrays.pkt");
    let ir = pktc::check(&[schema]).unwrap_or_else(|f| panic!("{f}")).ir;
    for total in pkt_test_support::scaled(vec![64 << 10], vec![64 << 10, 1 << 20]) {
        for (name, elem) in array_shapes() {
            let id = inspect::find_type(&ir, name).expect("type");
            let pktc::ir::Type::List(elem_ty) = &ir.ty(id).kind.fields()[0].ty else {
                panic!("{name}: a list first");
            };
            // What each element is charged: its model, and a map's nodes.
            let model = ir.memory(elem_ty).size as usize
                + match &elem_ty.ty {
                    pktc::ir::Type::Map(k, v) => {
                        let entry = ir.memory(k).size + ir.memory(v).size;
                        pkt_runtime::memory::map(1, entry as usize)
                    }
                    _ => 0,
                };
            let budget = Limits::DEFAULT.decode_budget(total);
            let all = (total - 8) / elem.len();
            // As many elements as the budget allows, and all that fit.
            for count in [all.min(budget / model), all] {
                let input = list_of(elem, count, total);
                let start = alloc::live();
                alloc::reset_peak();
                let (tree, err) = inspect::decode(&ir, id, &input, Limits::DEFAULT);
                let decoded = alloc::peak() - start;
                // Printing reads each fixed-size value again from the input,
                // one value at a time; the text (pretty, as the CLI prints it) is
                // built whole, and is bounded as the values are.
                let json = inspect::to_json_pretty(&tree);
                let text = json.len();
                drop((tree, json));
                let bound = INSPECT_PER_INPUT * input.len() + INSPECT_PER_CHARGED * budget;
                println!(
                    "{name} × {count}, {} bytes: {:?}, peak heap {decoded} ({:.1} per input byte), \
                     JSON {text} bytes ({:.1} per input byte)",
                    input.len(),
                    err.as_ref().map(|e| e.kind.to_string()),
                    decoded as f64 / input.len() as f64,
                    text as f64 / input.len() as f64
                );
                assert!(decoded <= bound, "{name}: peak {decoded} over {bound}");
                assert!(text <= bound, "{name}: {text} bytes of JSON over {bound}");
                match err {
                    None => assert!(count <= budget / model, "{name}: accepted past the budget"),
                    Some(e) => assert!(
                        matches!(e.kind, ErrorKind::BudgetExceeded { .. })
                            && count > budget / model,
                        "{name}: {e}"
                    ),
                }
            }
        }
    }
}
