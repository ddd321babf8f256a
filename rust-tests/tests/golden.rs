//! Golden bytes: values encoded by the generated code must match byte strings
//! computed by hand from docs/wire-format.md (the same ones listed there),
//! kept once in `schemas/vectors/` and named here.

use std::collections::BTreeMap;

use pkt_runtime::{Decode, Encode};
use pkt_rust_tests::game::net::{ClientPacket, Kick, KickReason, ServerPacket};
use pkt_rust_tests::game::scoreboard::Scoreboard;
use pkt_rust_tests::seeds::packets::{Int3Packet, Packet, TransformPacket};
use pkt_rust_tests::seeds::small::Small;
use pkt_rust_tests::seeds::world::WorldSnapshot;
use pkt_rust_tests::test::everything::Color;
use pkt_rust_tests::TYPES;
use pkt_test_support::vectors;

/// Encodes, compares with the bytes of the golden vector `name`, and
/// decodes them back.
fn golden<T: Encode + Decode + PartialEq + std::fmt::Debug>(value: &T, name: &str) {
    let expected = vectors::get(name).bytes;
    assert_eq!(
        value.encoded_len(),
        expected.len(),
        "encoded_len of {value:?}"
    );
    assert_eq!(
        value.encode_to_vec().unwrap(),
        expected,
        "encoding of {value:?}"
    );
    assert_eq!(&T::decode(&expected).expect("golden bytes decode"), value);
}

#[test]
fn seed_packets_are_exactly_the_sum_of_their_fields() {
    golden(&Packet { size: 4, id: 1234 }, "packet");
    golden(
        &Int3Packet {
            size: 16,
            id: 2345,
            x: 10,
            y: 102030,
            z: 99999999,
        },
        "int3_packet",
    );
    let transform = TransformPacket {
        size: 40,
        id: 3456,
        pos_x: 1.1,
        pos_y: 2.2,
        pos_z: 3.3,
        rot_x: 123.456,
        rot_y: 234.567,
        rot_z: 345.678,
        scale_x: 10000.0,
        scale_y: 20000.0,
        scale_z: 30000.0,
    };
    golden(&transform, "transform_packet");
    assert_eq!(transform.encode_to_vec().unwrap().len(), 40);
}

#[test]
fn message_with_a_string() {
    golden(
        &Small {
            id: 1,
            name: "hi".into(),
        },
        "small_hi",
    );
}

#[test]
fn message_with_a_list() {
    golden(
        &WorldSnapshot {
            cells: vec![1, -2, 3],
        },
        "world_snapshot",
    );
}

#[test]
fn map_keys_are_sorted_and_optionals_flagged() {
    let board = Scoreboard {
        round: 3,
        scores: BTreeMap::from([("zed".to_string(), -1), ("amy".to_string(), 10)]),
        mvp: Some("amy".into()),
    };
    golden(&board, "scoreboard_amy_zed");
}

#[test]
fn union_frames_carry_length_and_tag() {
    let kick = Kick {
        reason: KickReason::Idle,
        detail: "afk".into(),
        banned_until: Some(7),
    };
    golden(&kick, "kick");
    golden(&ServerPacket::Kick(kick), "server_kick");
    // The frame: body length, tag, then the payload's own encoding.
    let framed = vectors::get("server_kick").bytes;
    assert_eq!(&framed[..6], &[0x17, 0, 0, 0, 3, 0]);
    assert_eq!(&framed[6..], vectors::get("kick").bytes);
    golden(&ClientPacket::Ping(42), "client_ping");
}

#[test]
fn unknown_union_tags_and_enum_values_survive() {
    golden(
        &ServerPacket::Unknown {
            tag: 0x0400,
            body: vec![1, 2, 3],
        },
        "server_unknown",
    );
    golden(&Color::Unknown(7), "color_unknown");
    golden(&Color::Green, "color_green");
    assert_eq!(Color::decode(&[1]).unwrap(), Color::Green);
    assert!(matches!(Color::decode(&[7]).unwrap(), Color::Unknown(7)));
}

fn frozen_entry() -> pkt_rust_tests::test::frozen::Entry {
    pkt_rust_tests::test::frozen::Entry {
        level: pkt_rust_tests::test::frozen::Level::Warn,
        at: 7,
        source: "db".into(),
        text: "slow".into(),
    }
}

#[test]
fn frozen_structs_are_their_fields_back_to_back() {
    use pkt_rust_tests::test::frozen::Batch;
    golden(&frozen_entry(), "frozen_entry_warn");
    // In a message: the message's prefix, none of the struct's own.
    golden(
        &Batch {
            seq: 1,
            entries: vec![frozen_entry()],
            kitchens: Vec::new(),
            latest: None,
        },
        "frozen_batch_one",
    );
}

#[test]
fn frozen_struct_errors_name_kind_and_offset() {
    use pkt_rust_tests::test::frozen::Entry;
    let outcome = |b: &[u8]| {
        let e = Entry::decode(b).expect_err("rejected");
        let mut into = frozen_entry();
        let e2 = into.decode_into(b).expect_err("rejected");
        assert_eq!(
            (format!("{:?}", e.kind()), e.offset()),
            (format!("{:?}", e2.kind()), e2.offset()),
            "decode and decode_into agree"
        );
        (format!("{:?}", e.kind()), e.offset())
    };
    // Over `source @max(64)`, at its length prefix (as FrozenTests.cs expects).
    let (kind, at) = outcome(&pkt_test_support::hex::decode(
        "01 07 00 00 00 00 00 00 00 41 00 00 00",
    ));
    assert!(kind.starts_with("FieldTooLong"), "{kind}");
    assert_eq!(at, 9);
    let full = vectors::get("frozen_entry_warn").bytes;
    let (kind, at) = outcome(&full[..full.len() - 1]);
    assert!(kind.starts_with("LengthExceedsInput"), "{kind}");
    assert_eq!(at, 15);
    let mut bad = full.clone();
    *bad.last_mut().unwrap() = 0xff;
    let (kind, at) = outcome(&bad);
    assert!(kind.starts_with("InvalidUtf8"), "{kind}");
    assert_eq!(at, 22);
    // Encoders refuse what decoders reject.
    let mut long = frozen_entry();
    long.source = "x".repeat(65);
    assert!(long.encode_to_vec().is_err());
}

#[test]
fn frozen_decode_into_reuses_elements_and_leaves_none_stale() {
    use pkt_rust_tests::test::frozen::{Batch, Entry, Level};
    let entry = |at: u64, text: &str| Entry {
        level: Level::Info,
        at,
        source: "src".into(),
        text: text.into(),
    };
    let big = Batch {
        seq: 1,
        entries: (0..3).map(|i| entry(i, "a fairly long text")).collect(),
        kitchens: Vec::new(),
        latest: Some(entry(9, "latest")),
    };
    let small = Batch {
        seq: 2,
        entries: vec![entry(5, "short")],
        kitchens: Vec::new(),
        latest: None,
    };
    let mut target = Batch::decode(&big.encode_to_vec().unwrap()).unwrap();
    let text_buffer = target.entries[0].text.as_ptr();
    let list_buffer = target.entries.as_ptr();
    target.decode_into(&small.encode_to_vec().unwrap()).unwrap();
    assert_eq!(target, small, "no stale element or field survives");
    assert_eq!(target.entries.as_ptr(), list_buffer, "the list is reused");
    assert_eq!(
        target.entries[0].text.as_ptr(),
        text_buffer,
        "the element's string is reused"
    );
}

/// Every vector, named here or not, decodes with the generated Rust, has the
/// exact `encoded_len` and re-encodes to the same bytes.
#[test]
fn every_vector_round_trips_through_the_generated_rust() {
    let all = vectors::all();
    for v in &all {
        let entry = TYPES
            .iter()
            .find(|e| e.name == v.ty)
            .unwrap_or_else(|| panic!("{}: no generated type {}", v.name, v.ty));
        (entry.check)(&v.bytes, &v.bytes).unwrap_or_else(|e| panic!("{}: {e}", v.name));
    }
    println!("{} golden vectors round-trip", all.len());
}
