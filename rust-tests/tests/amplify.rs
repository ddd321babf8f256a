//! Amplifiers: inputs of 1 MB and 16 MB in the shapes of
//! `schemas/amplify.pkt`, whose decoded values would be far larger than their
//! bytes. Every decode either succeeds or fails with `BudgetExceeded` before
//! allocating, and the peak heap it builds stays within the bound of
//! docs/security.md (`fuzzing::heap_bound`): `HEAP_PER_CHARGED` × (budget
//! charged) + `HEAP_PER_INPUT` × (input bytes) + `HEAP_BASE`.

use pkt_runtime::{Decode, DecodeBudget, DecodeErrorKind, Limits, Reader};
use pkt_rust_tests::fuzzing::{heap_bound, HEAP_BASE, HEAP_PER_CHARGED};
use pkt_rust_tests::test::amplify::{
    Bigs, Defaults, FrozenBigs, IntMap, NestedLists, OptionalBigs, Strings, VariantList,
};
use pkt_test_support::alloc;

pkt_test_support::counting_allocator!();

/// What one decode did: accepted or the error kind, the budget it charged
/// and the peak heap above where it started.
struct Run {
    result: Result<(), DecodeErrorKind>,
    charged: usize,
    peak: usize,
}

fn run<T: Decode + Default>(input: &[u8], into: bool) -> Run {
    let limits = Limits::DEFAULT;
    let budget = DecodeBudget::new(&limits, input.len());
    let start = alloc::live();
    alloc::reset_peak();
    let result = {
        let mut r = Reader::with_budget(input, limits, &budget);
        let result = if into {
            T::default().decode_into_raw(&mut r)
        } else {
            T::decode_raw(&mut r).map(drop)
        };
        result
            .and_then(|()| r.expect_end())
            .map_err(|e| e.kind().clone())
    };
    let peak = alloc::peak() - start;
    let charged = limits.decode_budget(input.len()) - budget.memory_left();
    Run {
        result,
        charged,
        peak,
    }
}

fn message(body: &[u8]) -> Vec<u8> {
    let mut out = (body.len() as u32).to_le_bytes().to_vec();
    out.extend_from_slice(body);
    out
}

/// A message whose one field is a list of `count` copies of `elem`.
fn list_message(elem: &[u8], total: usize) -> Vec<u8> {
    let count = (total - 8) / elem.len();
    let mut body = (count as u32).to_le_bytes().to_vec();
    for _ in 0..count {
        body.extend_from_slice(elem);
    }
    message(&body)
}

type Decoder = fn(&[u8], bool) -> Run;

fn shapes(total: usize) -> Vec<(&'static str, Vec<u8>, Decoder)> {
    let mut desc_map = Vec::new();
    let count = (total - 8) / 5;
    desc_map.extend_from_slice(&(count as u32).to_le_bytes());
    for k in (0..count as i32).rev() {
        desc_map.extend_from_slice(&k.to_le_bytes());
        desc_map.push(1);
    }
    vec![
        (
            "list<BigS?> of absent",
            list_message(&[0], total),
            run::<OptionalBigs> as Decoder,
        ),
        (
            "list<FrozenBig> of absent Big? and empty strings",
            list_message(&[0; 5], total),
            run::<FrozenBigs>,
        ),
        (
            "list<Big> of empty bodies",
            list_message(&[0, 0, 0, 0], total),
            run::<Bigs>,
        ),
        (
            "list<Variants> of unknown tags",
            list_message(&[1, 0, 0, 0, 9], total),
            run::<VariantList>,
        ),
        (
            "list<Variants> of empty Large",
            list_message(&[5, 0, 0, 0, 2, 0, 0, 0, 0], total),
            run::<VariantList>,
        ),
        (
            "list<WithDefault> of empty bodies",
            list_message(&[0, 0, 0, 0], total),
            run::<Defaults>,
        ),
        (
            "list<list<list<u8>>> of empty lists",
            list_message(&[0, 0, 0, 0], total),
            run::<NestedLists>,
        ),
        (
            "list<string> of empty strings",
            list_message(&[0, 0, 0, 0], total),
            run::<Strings>,
        ),
        (
            "map<i32, u8> in descending order",
            message(&desc_map),
            run::<IntMap>,
        ),
    ]
}

fn check_shapes(total: usize) {
    for (name, input, decode) in shapes(total) {
        for into in [false, true] {
            let run = decode(&input, into);
            match &run.result {
                Ok(()) | Err(DecodeErrorKind::BudgetExceeded { .. }) => {}
                Err(other) => panic!("{name}: unexpected {other:?}"),
            }
            let bound = heap_bound(run.charged, input.len());
            println!(
                "{name}, {} bytes, {}: {:?}, charged {}, peak heap {} ({:.3} per charged byte, \
                 {:.3} per input byte)",
                input.len(),
                if into { "decode_into" } else { "decode" },
                run.result.as_ref().map_err(|k| format!("{k}")),
                run.charged,
                run.peak,
                run.peak as f64 / run.charged.max(1) as f64,
                run.peak as f64 / input.len() as f64,
            );
            assert!(
                run.peak <= bound,
                "{name}: peak heap {} over the bound {bound}",
                run.peak
            );
            // These shapes hold no small maps: the charges alone bound them.
            assert!(
                run.peak <= HEAP_PER_CHARGED * run.charged + HEAP_BASE,
                "{name}: peak heap {} for {} charged",
                run.peak,
                run.charged
            );
            assert!(
                run.charged <= Limits::DEFAULT.decode_budget(input.len()),
                "{name}: charged more than the budget"
            );
        }
    }
}

#[test]
fn one_megabyte_amplifiers_stay_within_the_memory_bound() {
    check_shapes(1 << 20);
}

#[test]
fn sixteen_megabyte_amplifiers_stay_within_the_memory_bound() {
    check_shapes(16 << 20);
}

#[test]
fn a_sixteen_mebibyte_frame_is_refused_by_the_frame_decoder_before_allocating() {
    // 16 MiB - 4 bytes of frame: the largest `max_frame` accepts.
    let input = list_message(&[0], 16 << 20);
    let mut frames = pkt_runtime::FrameDecoder::<OptionalBigs>::new();
    frames.push(&input);
    let start = alloc::live();
    alloc::reset_peak();
    let e = frames.next_frame().expect_err("over the budget");
    let peak = alloc::peak() - start;
    assert_eq!(e.offset(), 4, "the count prefix");
    assert!(
        matches!(
            e.kind(),
            DecodeErrorKind::BudgetExceeded { field, .. } if field == "test.amplify.OptionalBigs.items"
        ),
        "{e}"
    );
    assert!(peak < 4096, "allocated {peak} bytes before refusing");
}
