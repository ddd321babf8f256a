//! Every generated type against random canonical encodings written by an
//! independent, IR-driven encoder (tests/support): decode, exact length,
//! byte-identical re-encoding, decode_into over another value, prefix
//! decoding, trailing bytes and truncation; and the borrowed view, whose
//! owned value equals the decoded one.

mod support;

use pkt_rust_tests::TYPES;
use support::{ir, qualified, Gen};

/// Random values per type: every type in the inner loop, the full count
/// under `PKT_LONG_TESTS`.
fn cases_per_type() -> u64 {
    pkt_test_support::scaled(30, 300)
}

#[test]
fn every_type_round_trips_random_values() {
    let ir = ir();
    assert_eq!(
        TYPES.len(),
        ir.types.len(),
        "one generated type per schema type"
    );
    let cases = cases_per_type();
    let mut failures = Vec::new();
    let mut done = 0;
    for (i, _) in ir.types.iter().enumerate() {
        let id = pktc::ir::TypeId(i);
        let name = qualified(&ir, id);
        let entry = TYPES
            .iter()
            .find(|e| e.name == name)
            .unwrap_or_else(|| panic!("no generated type for {name}"));
        for seed in 0..cases {
            let mut gen = Gen::new(&ir, seed * 7919 + i as u64);
            let bytes = gen.encode(id);
            let other = gen.encode(id);
            done += 1;
            if let Err(e) = (entry.check)(&bytes, &other) {
                failures.push(format!("{name} (seed {seed}): {e}"));
                break;
            }
            match (entry.view)(&bytes) {
                None | Some(Ok(Ok(()))) => {}
                Some(Ok(Err(e))) => {
                    failures.push(format!(
                        "{name} (seed {seed}): view and decode reject {e:?}"
                    ));
                    break;
                }
                Some(Err(e)) => {
                    failures.push(format!("{name} (seed {seed}): view: {e}"));
                    break;
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(done, ir.types.len() as u64 * cases);
}

/// Both imported `common.pkt` files are generated (as `common.rs` and
/// `common_2.rs`) and their types round-trip side by side.
#[test]
fn files_with_the_same_name_both_generate() {
    use pkt_rust_tests::same_stem_output::same_stem::{client, server, Both};
    let v = Both {
        client: client::Settings { volume: 7 },
        server: server::Settings { tick_rate: 60 },
    };
    let bytes = pkt_runtime::Encode::encode_to_vec(&v).expect("within limits");
    assert_eq!(bytes, [3, 0, 0, 0, 7, 60, 0]);
    assert_eq!(<Both as pkt_runtime::Decode>::decode(&bytes).unwrap(), v);
    assert_eq!(client::LIMIT, 8);
    assert_eq!(server::LIMIT, 16);
}
