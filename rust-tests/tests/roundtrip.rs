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
    let (mut done, mut over) = (0, 0);
    for (i, _) in ir.types.iter().enumerate() {
        let id = pktc::ir::TypeId(i);
        let name = qualified(&ir, id);
        let entry = TYPES
            .iter()
            .find(|e| e.name == name)
            .unwrap_or_else(|| panic!("no generated type for {name}"));
        for seed in 0..cases {
            let mut gen = Gen::new(&ir, seed * 7919 + i as u64);
            let (bytes, other) = (gen.encode(id), gen.encode(id));
            done += 1;
            // A few random values of the amplifying shapes (a sparse map of
            // 32 KiB values) build more than the decode budget allows for
            // their size; every decoder rejects them by design (agreement.rs
            // and amplify.rs), so they are counted here, not round-tripped.
            if over_budget(&ir, id, &bytes) || over_budget(&ir, id, &other) {
                over += 1;
                continue;
            }
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
    assert!(
        over * 1000 <= done,
        "{over} of {done} random values are over the decode budget"
    );
}

/// Whether `bytes` decode to more than the default decode budget allows.
fn over_budget(ir: &pktc::ir::Ir, id: pktc::ir::TypeId, bytes: &[u8]) -> bool {
    let (_, error) =
        pktc::tools::inspect::decode(ir, id, bytes, pktc::tools::inspect::Limits::DEFAULT);
    error.is_some_and(|e| matches!(e.kind, pkt_runtime::DecodeErrorKind::BudgetExceeded { .. }))
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

/// Two types named `Note` in two namespaces: encode and decode errors name
/// each with its namespace.
#[test]
fn errors_qualify_a_type_name_two_namespaces_share() {
    use pkt_rust_tests::same_stem_output::same_stem::{client, server};
    let long = client::Note {
        text: "nine char".into(),
    };
    let e = pkt_runtime::Encode::encode_to_vec(&long).expect_err("over the client's LIMIT");
    assert!(e.to_string().contains("same_stem.client.Note.text"), "{e}");
    // Fine for the server's limit of 16, too long for the client's 8.
    let bytes = pkt_runtime::Encode::encode_to_vec(&server::Note {
        text: long.text.clone(),
    })
    .expect("within the server's LIMIT");
    let e = <client::Note as pkt_runtime::Decode>::decode(&bytes).expect_err("over 8");
    assert!(e.to_string().contains("same_stem.client.Note.text"), "{e}");
}

/// Constants named by namespace (`same_stem.server.LIMIT`) size an array,
/// limit a string and define a constant.
#[test]
fn qualified_constants_size_and_limit_fields() {
    use pkt_rust_tests::same_stem_output::same_stem::{Limited, SERVER_LIMIT};
    assert_eq!(SERVER_LIMIT, 16);
    let mut v = Limited {
        name: "eight ch".into(),
        key: [7; 16],
    };
    let bytes = pkt_runtime::Encode::encode_to_vec(&v).expect("within limits");
    assert_eq!(bytes.len(), 4 + 4 + 8 + 16);
    assert_eq!(<Limited as pkt_runtime::Decode>::decode(&bytes).unwrap(), v);
    v.name.push('!');
    assert!(
        pkt_runtime::Encode::encode_to_vec(&v).is_err(),
        "over same_stem.client.LIMIT"
    );
}
