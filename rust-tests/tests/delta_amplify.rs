//! Amplifying deltas (`schemas/hostile.pkt`, issue 35 item 4): map deltas
//! of 1 KB to 1 MB in the shapes whose patches take the most memory per
//! byte, applied to baselines of a few thousand entries. Every apply either
//! succeeds or fails with `BudgetExceeded` before allocating, and the peak
//! heap it builds (patch and grown value) stays within the decode bound of
//! docs/security.md (`fuzzing::heap_bound`): 1 × (budget charged) + 4 KiB.

use std::collections::BTreeMap;

use pkt_runtime::delta::Delta;
use pkt_runtime::{DecodeBudget, DecodeErrorKind, Encode, Limits, Reader};
use pkt_rust_tests::fuzzing::heap_bound;
use pkt_rust_tests::test::hostile::{BagWorld, Bags};
use pkt_test_support::alloc;

pkt_test_support::counting_allocator!();

/// What one apply did: accepted or the error kind, the budget it charged
/// and the peak heap above where it started.
#[derive(Debug)]
struct Run {
    result: Result<(), DecodeErrorKind>,
    charged: usize,
    peak: usize,
}

/// Applies `delta` to `value` as `pkt_runtime::delta::apply` does, with
/// the budget in sight.
fn run<T: Delta>(value: &mut T, delta: &[u8], limits: Limits) -> Run {
    let budget = DecodeBudget::new(&limits, delta.len());
    let start = alloc::live();
    alloc::reset_peak();
    let result = {
        let mut r = Reader::with_budget(delta, limits, &budget);
        match value
            .read_patch(&mut r)
            .and_then(|p| r.expect_end().map(|()| p))
        {
            Ok(patch) => {
                value.apply_patch(patch);
                Ok(())
            }
            Err(e) => Err(e.kind().clone()),
        }
    };
    let peak = alloc::peak() - start;
    let charged = limits.decode_budget(delta.len()) - budget.memory_left();
    Run {
        result,
        charged,
        peak,
    }
}

/// A `BagWorld` delta naming only its map (field 0) with these sections.
fn world_delta(removed: &[u32], added: &[(u32, Vec<u8>)], changed: &[(u32, Vec<u8>)]) -> Vec<u8> {
    let mut body = vec![1, 1];
    body.extend((removed.len() as u32).to_le_bytes());
    for k in removed {
        body.extend(k.to_le_bytes());
    }
    for section in [added, changed] {
        body.extend((section.len() as u32).to_le_bytes());
        for (k, v) in section {
            body.extend(k.to_le_bytes());
            body.extend(v);
        }
    }
    let mut out = (body.len() as u32).to_le_bytes().to_vec();
    out.extend(body);
    out
}

/// A `Bags` delta naming the maps of `mask` (bit `i`: field `i`), each
/// with empty sections, or with `section` as each map delta.
fn bags_delta(mask: u16, section: &[u8]) -> Vec<u8> {
    let bytes = mask.to_le_bytes();
    let n = bytes.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
    let mut body = vec![n as u8];
    body.extend(&bytes[..n]);
    for _ in 0..mask.count_ones() {
        body.extend(section);
    }
    let mut out = (body.len() as u32).to_le_bytes().to_vec();
    out.extend(body);
    out
}

fn world(n: u32) -> BagWorld {
    BagWorld {
        bags: (0..n).map(|k| (k, Bags::default())).collect(),
    }
}

/// The shapes, for a delta of about `total` bytes against a baseline of
/// `n` entries (the changed and removed keys must be in it).
fn shapes(total: usize, n: u32) -> Vec<(&'static str, BagWorld, Vec<u8>)> {
    let empty_sections = [0u8; 12];
    // One added entry (key 0 = 0) in each nested map.
    let one_added = [0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    let mut out = Vec::new();
    let mut changed = |name, change: Vec<u8>| {
        let count = (total / (4 + change.len())).min(n as usize) as u32;
        let entries: Vec<_> = (0..count).map(|k| (k, change.clone())).collect();
        out.push((name, world(n), world_delta(&[], &[], &entries)));
    };
    // A change naming nothing: 9 bytes for a whole patch.
    changed("changed, empty patches", bags_delta(0, &[]));
    // Every map named, each with empty sections: 12 map patches.
    changed(
        "changed, every map named",
        bags_delta(0x0fff, &empty_sections),
    );
    changed("changed, one map named", bags_delta(1, &empty_sections));
    changed("changed, every map adding", bags_delta(0x0fff, &one_added));
    // New entries, each an empty body.
    let count = (total / 8) as u32;
    let added: Vec<_> = (0..count).map(|k| (k, vec![0, 0, 0, 0])).collect();
    out.push(("added", world(0), world_delta(&[], &added, &[])));
    let removed: Vec<u32> = (0..(total / 4).min(n as usize) as u32).collect();
    out.push(("removed", world(n), world_delta(&removed, &[], &[])));
    out
}

#[test]
fn map_deltas_allocate_within_their_charges() {
    let mut accepted = 0;
    let mut rejected = 0;
    for (total, n) in [
        (1_000, 200),
        (72_000, 10_000),
        (200_000, 30_000),
        (1_000_000, 30_000),
    ] {
        for (name, base, delta) in shapes(total, n) {
            let limits = Limits::DEFAULT;
            let mut value = base.clone();
            let r = run(&mut value, &delta, limits);
            let bound = heap_bound(r.charged);
            println!(
                "{name}, {} bytes: {:?}, peak {} of bound {bound} ({:.3} per charged byte)",
                delta.len(),
                r.result,
                r.peak,
                r.peak as f64 / r.charged.max(1) as f64
            );
            assert!(
                r.peak <= bound,
                "{name}, {} bytes: peak heap {} > {bound} (charged {})",
                delta.len(),
                r.peak,
                r.charged
            );
            // The same answer through the generated entry point, and an
            // unchanged value on error.
            let mut again = base.clone();
            let answer = again.apply_delta_with_limits(&delta, &limits);
            assert_eq!(answer.map_err(|e| e.kind().clone()), r.result, "{name}");
            match &r.result {
                Ok(()) => {
                    accepted += 1;
                    assert_eq!(again.encode_to_vec(), value.encode_to_vec(), "{name}");
                }
                Err(DecodeErrorKind::BudgetExceeded { .. }) => {
                    rejected += 1;
                    assert_eq!(value.encode_to_vec(), base.encode_to_vec(), "{name}");
                }
                Err(e) => panic!("{name}: {e:?}"),
            }
        }
    }
    // Both outcomes are exercised.
    assert!(
        accepted >= 8 && rejected >= 2,
        "{accepted} accepted, {rejected} rejected"
    );
}

/// The shape of the issue: a 72 KB delta changing 8,000 entries with
/// patches that name nothing peaked at 9.28 MB of heap against a 3.35 MB
/// budget; now what the patches take is what they are charged.
#[test]
fn patches_larger_than_their_values_are_charged() {
    let n = 8_000u32;
    let change = bags_delta(0, &[]);
    let entries: Vec<_> = (0..n).map(|k| (k, change.clone())).collect();
    let delta = world_delta(&[], &[], &entries);
    let base = world(n);
    let mut value = base.clone();
    let r = run(&mut value, &delta, Limits::DEFAULT);
    assert!(r.peak <= heap_bound(r.charged), "{r:?}");
    // A budget that holds the patches accepts the delta.
    let roomy = Limits {
        decode_budget_per_byte: 256,
        ..Limits::DEFAULT
    };
    let mut value = base.clone();
    let r = run(&mut value, &delta, roomy);
    assert_eq!(r.result, Ok(()), "{r:?}");
    assert!(r.peak <= heap_bound(r.charged), "{r:?}");
    let _: &BTreeMap<u32, Bags> = &value.bags;
}
