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
            field: "seeds.chat.ChatPacket.nickname",
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
            field: "game.net.ChatMessage.mentions",
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
