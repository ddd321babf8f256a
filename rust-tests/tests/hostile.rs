//! Hostile input: every decoder returns an error with an offset and never
//! panics, however the bytes are damaged.

mod support;

use pkt_runtime::{Decode, DecodeErrorKind, Encode, Limits};
use pkt_rust_tests::seeds::chat::ChatPacket;
use pkt_rust_tests::seeds::small::Small;
use pkt_rust_tests::test::everything::{Fixed, LinkedNode};
use pkt_rust_tests::TYPES;
use pktc::ir::TypeId;
use support::{ir, qualified, Gen, Rng};

#[test]
fn damaged_encodings_of_every_type_never_panic() {
    let ir = ir();
    let mut rng = Rng(0xA5A5_5A5A_0123_4567);
    let (mut accepted, mut rejected) = (0usize, 0usize);
    for i in 0..ir.types.len() {
        let id = TypeId(i);
        let name = qualified(&ir, id);
        let entry = TYPES.iter().find(|e| e.name == name).expect("generated");
        for seed in 0..100 {
            let mut bytes = Gen::new(&ir, seed + 17 * i as u64).encode(id);
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(bytes.len() as u64 + 1) as usize;
                match rng.below(4) {
                    0 if at < bytes.len() => bytes[at] ^= 1 << rng.below(8),
                    1 if at < bytes.len() => bytes[at] = 0xFF,
                    2 => bytes.insert(at, rng.next() as u8),
                    _ => bytes.truncate(at),
                }
            }
            match (entry.stable)(&bytes) {
                Ok(true) => accepted += 1,
                Ok(false) => rejected += 1,
                Err(e) => panic!("{name} (seed {seed}): {e}"),
            }
        }
    }
    assert!(
        rejected > 0 && accepted > 0,
        "{accepted} accepted, {rejected} rejected"
    );
}

fn kind<T: Decode>(bytes: &[u8]) -> (DecodeErrorKind, usize) {
    match T::decode(bytes) {
        Ok(_) => panic!("accepted"),
        Err(e) => (e.kind().clone(), e.offset()),
    }
}

#[test]
fn bad_utf8_is_an_error_at_its_byte() {
    let mut bytes = Small {
        id: 1,
        name: "héllo".into(),
    }
    .encode_to_vec()
    .unwrap();
    // The second byte of "é" becomes a lone lead byte.
    bytes[14] = 0xC3;
    assert_eq!(kind::<Small>(&bytes), (DecodeErrorKind::InvalidUtf8, 13));
}

#[test]
fn bool_must_be_zero_or_one() {
    let mut bytes = Fixed::default().encode_to_vec().unwrap();
    bytes[0] = 2;
    assert_eq!(kind::<Fixed>(&bytes), (DecodeErrorKind::InvalidBool(2), 0));
}

#[test]
fn max_is_enforced_before_reading_the_value() {
    let bytes = ChatPacket {
        sender_id: 1,
        nickname: "n".repeat(33),
        text: "hi".into(),
    }
    .encode_to_vec_unchecked();
    let (k, at) = kind::<ChatPacket>(&bytes);
    assert_eq!(
        k,
        DecodeErrorKind::FieldTooLong {
            field: "seeds.chat.ChatPacket.nickname".into(),
            len: 33,
            max: 32
        }
    );
    assert_eq!(at, 12, "the offset of the length prefix");
}

#[test]
fn nesting_is_bounded() {
    let mut node = LinkedNode::default();
    for i in 0..100 {
        node = LinkedNode {
            value: i,
            next: Some(Box::new(node)),
        };
    }
    assert_eq!(
        node.encode_to_vec().unwrap_err().kind(),
        &pkt_runtime::EncodeErrorKind::DepthExceeded { max: 64 },
        "the encoder refuses what the decoder would"
    );
    let bytes = node.encode_to_vec_unchecked();
    let (k, _) = kind::<LinkedNode>(&bytes);
    assert_eq!(k, DecodeErrorKind::DepthExceeded { max: 64 });
    let deep = Limits {
        max_depth: 200,
        ..Limits::DEFAULT
    };
    assert_eq!(LinkedNode::decode_with_limits(&bytes, deep).unwrap(), node);
}

#[test]
fn truncated_and_oversized_prefixes_name_their_offset() {
    let bytes = Small {
        id: 5,
        name: "abc".into(),
    }
    .encode_to_vec()
    .unwrap();
    let (k, at) = kind::<Small>(&bytes[..2]);
    assert!(matches!(k, DecodeErrorKind::UnexpectedEnd { .. }), "{k:?}");
    assert_eq!(at, 0);
    let mut lie = bytes.clone();
    lie[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    let (k, at) = kind::<Small>(&lie);
    assert!(
        matches!(k, DecodeErrorKind::LengthExceedsInput { .. }),
        "{k:?}"
    );
    assert_eq!(at, 8);
}

#[test]
fn encoders_refuse_values_over_their_limits() {
    use pkt_runtime::EncodeErrorKind;
    use pkt_rust_tests::game::net::{ChatMessage, ServerPacket};

    let long = ChatPacket {
        sender_id: 1,
        nickname: "n".repeat(33),
        text: "hi".into(),
    };
    let err = long.encode_to_vec().unwrap_err();
    assert_eq!(
        err.kind(),
        &EncodeErrorKind::FieldTooLong {
            field: "seeds.chat.ChatPacket.nickname".into(),
            len: 33,
            max: 32
        }
    );
    let mut out = vec![9];
    assert!(long.encode_into(&mut out).is_err());
    assert_eq!(out, [9], "nothing is written on error");

    // The limit is found inside a union variant's message.
    let chat = ServerPacket::Chat(ChatMessage {
        mentions: vec!["x".into(); 9],
        ..ChatMessage::default()
    });
    assert_eq!(
        chat.encode_to_vec().unwrap_err().kind(),
        &EncodeErrorKind::FieldTooLong {
            field: "game.net.ChatMessage.mentions".into(),
            len: 9,
            max: 8
        }
    );

    let ok = ChatPacket {
        nickname: "n".repeat(32),
        ..long
    };
    assert_eq!(ok.encode_to_vec().unwrap(), ok.encode_to_vec_unchecked());
}

/// The wire frames every length with a `u32`: an encoding past 4 GiB is an
/// error from every checked encoder, which writes nothing, not a panic in
/// the writer. (The 4 GiB of zeros are never touched, so the system hands
/// out no memory for them.)
#[test]
fn encodings_past_four_gibibytes_are_an_error() {
    use pkt_runtime::{Encode, EncodeError, EncodeErrorKind};
    use pkt_rust_tests::test::everything::Forwarded;
    let huge = Forwarded {
        version: 1,
        payload: vec![0u8; u32::MAX as usize - 11],
        unknown_fields: Vec::new(),
    };
    // Body prefix, version, payload length and payload: one byte too many.
    let too_large = EncodeErrorKind::TooLarge {
        len: u32::MAX as usize + 1,
    };
    assert_eq!(huge.encode_to_vec().unwrap_err().kind(), &too_large);
    let mut out = vec![1, 2, 3];
    assert_eq!(huge.encode_into(&mut out).unwrap_err().kind(), &too_large);
    assert_eq!(out, [1, 2, 3], "nothing written");
    let mut small = [0u8; 16];
    assert_eq!(
        huge.encode_to_slice(&mut small).unwrap_err().kind(),
        &too_large
    );
    assert_eq!(
        huge.encode_to_slice_unchecked(&mut small)
            .unwrap_err()
            .kind(),
        &too_large
    );
    assert_eq!(
        EncodeError::too_large(u32::MAX as usize + 1).to_string(),
        "encoding of 4294967296 bytes, more than the 4294967295 a length prefix can frame"
    );
    // One byte less can be framed: only the buffer is too small.
    let within = Forwarded {
        payload: vec![0u8; u32::MAX as usize - 12],
        ..huge
    };
    assert_eq!(
        within.encode_to_slice(&mut small).unwrap_err().kind(),
        &EncodeErrorKind::BufferTooSmall {
            needed: u32::MAX as usize,
            available: 16
        }
    );
}

/// `@max` on elements, keys and values (`schemas/limits.pkt`): each part over
/// its limit is refused by the encoders and rejected by `decode`,
/// `decode_into` and `view` at its prefix, named by its place; a value at
/// every limit goes through.
#[test]
fn element_limits_bind_every_part() {
    use pkt_runtime::EncodeErrorKind;
    use pkt_rust_tests::test::limits::{Chat, Line, Packet};
    use std::collections::BTreeMap;

    let full = Chat {
        mentions: vec!["m".repeat(24); 8],
        tags: BTreeMap::from([("k".repeat(32), vec![7; 256])]),
        notes: vec![Some("four".into()), None],
        grid: vec![vec!["five!".into(); 2]; 3],
        slots: [vec![1, 2], Vec::new(), vec![3]],
        groups: Some(BTreeMap::from([(1, vec![1, 2])])),
    };
    let bytes = full.encode_to_vec().expect("at every limit");
    assert_eq!(Chat::decode(&bytes).unwrap(), full);
    assert_eq!(Chat::view(&bytes).unwrap().to_owned(), full);

    // Each part one over its limit, with where its prefix lands.
    let cases: Vec<(Chat, &str, usize, usize)> = vec![
        (
            Chat {
                mentions: vec!["m".repeat(25)],
                ..Chat::default()
            },
            "test.limits.Chat.mentions[]",
            25,
            24,
        ),
        (
            Chat {
                tags: BTreeMap::from([("k".repeat(33), Vec::new())]),
                ..Chat::default()
            },
            "test.limits.Chat.tags[key]",
            33,
            32,
        ),
        (
            Chat {
                tags: BTreeMap::from([(String::new(), vec![0; 257])]),
                ..Chat::default()
            },
            "test.limits.Chat.tags[value]",
            257,
            256,
        ),
        (
            Chat {
                notes: vec![None, Some("fives".into())],
                ..Chat::default()
            },
            "test.limits.Chat.notes[]",
            5,
            4,
        ),
        (
            Chat {
                grid: vec![vec![String::new(); 3]],
                ..Chat::default()
            },
            "test.limits.Chat.grid[]",
            3,
            2,
        ),
        (
            Chat {
                grid: vec![Vec::new(), vec!["sixsix".into()]],
                ..Chat::default()
            },
            "test.limits.Chat.grid[][]",
            6,
            5,
        ),
        (
            Chat {
                slots: [Vec::new(), Vec::new(), vec![0; 3]],
                ..Chat::default()
            },
            "test.limits.Chat.slots[]",
            3,
            2,
        ),
        (
            Chat {
                groups: Some(BTreeMap::from([(9, vec![0; 3])])),
                ..Chat::default()
            },
            "test.limits.Chat.groups[value]",
            3,
            2,
        ),
    ];
    for (value, field, len, max) in cases {
        assert_eq!(
            value.encode_to_vec().unwrap_err().kind(),
            &EncodeErrorKind::FieldTooLong {
                field: field.into(),
                len,
                max
            },
            "{field}"
        );
        let bytes = value.encode_to_vec_unchecked();
        let (k, at) = kind::<Chat>(&bytes);
        assert_eq!(
            k,
            DecodeErrorKind::FieldTooLong {
                field: field.into(),
                len,
                max
            },
            "{field}"
        );
        // The prefix over the limit is `len` as a little-endian u32 there.
        assert_eq!(
            bytes[at..at + 4],
            (len as u32).to_le_bytes(),
            "{field} at {at}"
        );
        let e = Chat::view(&bytes).unwrap_err();
        assert_eq!((e.kind(), e.offset()), (&k, at), "{field}: view");
        let mut into = full.clone();
        let e = into.decode_into(&bytes).unwrap_err();
        assert_eq!((e.kind(), e.offset()), (&k, at), "{field}: decode_into");
    }

    // A variable-size struct's and a union variant's parts.
    let line = Line {
        words: vec!["toolong".into()],
        ..Line::default()
    };
    assert!(line.encode_to_vec().is_err());
    assert_eq!(
        kind::<Line>(&line.encode_to_vec_unchecked()),
        (
            DecodeErrorKind::FieldTooLong {
                field: "test.limits.Line.words[]".into(),
                len: 7,
                max: 6
            },
            4
        )
    );
    let say = Packet::Say(vec!["x".repeat(11)]);
    assert_eq!(
        say.encode_to_vec().unwrap_err().kind(),
        &EncodeErrorKind::FieldTooLong {
            field: "test.limits.Packet.Say[]".into(),
            len: 11,
            max: 10
        }
    );
    let bytes = say.encode_to_vec_unchecked();
    let expected = (
        DecodeErrorKind::FieldTooLong {
            field: "test.limits.Packet.Say[]".into(),
            len: 11,
            max: 10,
        },
        9,
    );
    assert_eq!(kind::<Packet>(&bytes), expected);
    let e = Packet::view(&bytes).unwrap_err();
    assert_eq!((e.kind().clone(), e.offset()), expected);
    let mut into = Packet::Say(Vec::new());
    let e = into.decode_into(&bytes).unwrap_err();
    assert_eq!((e.kind().clone(), e.offset()), expected);
    let mut other = Packet::Chat(Chat::default());
    let e = other.decode_into(&bytes).unwrap_err();
    assert_eq!((e.kind().clone(), e.offset()), expected);
    // Inside a variant's payload message, the message names its own field.
    let chat = Packet::Chat(Chat {
        mentions: vec!["m".repeat(25)],
        ..Chat::default()
    });
    assert!(matches!(
        chat.encode_to_vec().unwrap_err().kind(),
        EncodeErrorKind::FieldTooLong { field, .. } if field == "test.limits.Chat.mentions[]"
    ));
}
