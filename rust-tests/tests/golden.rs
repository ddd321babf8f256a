//! Golden bytes: values encoded by the generated code must match byte strings
//! computed by hand from docs/wire-format.md (the same ones listed there).

use std::collections::BTreeMap;

use pkt_runtime::{Decode, Encode};
use pkt_rust_tests::game::net::{ClientPacket, Kick, KickReason, ServerPacket};
use pkt_rust_tests::game::scoreboard::Scoreboard;
use pkt_rust_tests::seeds::packets::{Int3Packet, Packet, TransformPacket};
use pkt_rust_tests::seeds::small::Small;
use pkt_rust_tests::seeds::world::WorldSnapshot;
use pkt_rust_tests::test::everything::Color;

fn bytes(hex: &str) -> Vec<u8> {
    hex.split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).expect("hex byte"))
        .collect()
}

/// Encodes, compares with the golden bytes, and decodes them back.
fn golden<T: Encode + Decode + PartialEq + std::fmt::Debug>(value: &T, hex: &str) {
    let expected = bytes(hex);
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
    golden(&Packet { size: 4, id: 1234 }, "04 00 d2 04");
    golden(
        &Int3Packet {
            size: 16,
            id: 2345,
            x: 10,
            y: 102030,
            z: 99999999,
        },
        "10 00 29 09 0a 00 00 00 8e 8e 01 00 ff e0 f5 05",
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
    golden(
        &transform,
        "28 00 80 0d cd cc 8c 3f cd cc 0c 40 33 33 53 40 79 e9 f6 42 27 91 6a 43 \
         c9 d6 ac 43 00 40 1c 46 00 40 9c 46 00 60 ea 46",
    );
    assert_eq!(transform.encode_to_vec().unwrap().len(), 40);
}

#[test]
fn message_with_a_string() {
    golden(
        &Small {
            id: 1,
            name: "hi".into(),
        },
        "0a 00 00 00 01 00 00 00 02 00 00 00 68 69",
    );
}

#[test]
fn message_with_a_list() {
    golden(
        &WorldSnapshot {
            cells: vec![1, -2, 3],
        },
        "10 00 00 00 03 00 00 00 01 00 00 00 fe ff ff ff 03 00 00 00",
    );
}

#[test]
fn map_keys_are_sorted_and_optionals_flagged() {
    let board = Scoreboard {
        round: 3,
        scores: BTreeMap::from([("zed".to_string(), -1), ("amy".to_string(), 10)]),
        mvp: Some("amy".into()),
    };
    golden(
        &board,
        "24 00 00 00 03 00 02 00 00 00 03 00 00 00 61 6d 79 0a 00 00 00 \
         03 00 00 00 7a 65 64 ff ff ff ff 01 03 00 00 00 61 6d 79",
    );
}

#[test]
fn union_frames_carry_length_and_tag() {
    let kick = Kick {
        reason: KickReason::Idle,
        detail: "afk".into(),
        banned_until: Some(7),
    };
    let kick_bytes = "11 00 00 00 01 03 00 00 00 61 66 6b 01 07 00 00 00 00 00 00 00";
    golden(&kick, kick_bytes);
    golden(
        &ServerPacket::Kick(kick),
        &format!("17 00 00 00 03 00 {kick_bytes}"),
    );
    golden(
        &ClientPacket::Ping(42),
        "09 00 00 00 05 2a 00 00 00 00 00 00 00",
    );
}

#[test]
fn unknown_union_tags_and_enum_values_survive() {
    golden(
        &ServerPacket::Unknown {
            tag: 0x0400,
            body: vec![1, 2, 3],
        },
        "05 00 00 00 00 04 01 02 03",
    );
    golden(&Color::Unknown(7), "07");
    golden(&Color::Green, "01");
    assert_eq!(Color::decode(&[1]).unwrap(), Color::Green);
    assert!(matches!(Color::decode(&[7]).unwrap(), Color::Unknown(7)));
}

/// `Entry { level: Warn, at: 7, source: "db", text: "slow" }` (frozen.pkt).
const FROZEN_ENTRY: &str = "01 07 00 00 00 00 00 00 00 02 00 00 00 64 62 04 00 00 00 73 6c 6f 77";

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
    golden(&frozen_entry(), FROZEN_ENTRY);
    // In a message: the message's prefix, none of the struct's own.
    golden(
        &Batch {
            seq: 1,
            entries: vec![frozen_entry()],
            kitchens: Vec::new(),
            latest: None,
        },
        &format!("24 00 00 00 01 00 00 00 01 00 00 00 {FROZEN_ENTRY} 00 00 00 00 00"),
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
    let (kind, at) = outcome(&bytes("01 07 00 00 00 00 00 00 00 41 00 00 00"));
    assert!(kind.starts_with("FieldTooLong"), "{kind}");
    assert_eq!(at, 9);
    let full = bytes(FROZEN_ENTRY);
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
