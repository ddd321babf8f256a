//! Malformed and malicious input: every case must fail cleanly, with the
//! right error kind at the right absolute offset, and never panic.

mod common;

use std::collections::BTreeMap;

use common::{chat, Chat, Node, Packet};
use pkt_runtime::{Decode, DecodeError, DecodeErrorKind, Encode, Limits, Reader};

fn err<T: Decode + std::fmt::Debug>(bytes: &[u8]) -> (DecodeErrorKind, usize) {
    let e = T::decode(bytes).expect_err("decode should fail");
    (e.kind().clone(), e.offset())
}

fn err_with<T: Decode + std::fmt::Debug>(bytes: &[u8], limits: Limits) -> (DecodeErrorKind, usize) {
    let e = T::decode_with_limits(bytes, limits).expect_err("decode should fail");
    (e.kind().clone(), e.offset())
}

/// Decoding every proper prefix of a valid encoding fails, with an offset
/// inside the prefix; the full encoding decodes.
fn truncations<T: Encode + Decode + PartialEq + std::fmt::Debug>(v: &T) {
    let bytes = v.encode_to_vec().unwrap();
    for cut in 0..bytes.len() {
        let e = T::decode(&bytes[..cut]).expect_err(&format!("{v:?} cut at {cut} should fail"));
        assert!(e.offset() <= cut, "{v:?} cut at {cut}: {e}");
        assert!(T::decode_prefix(&bytes[..cut]).is_err());
    }
    assert_eq!(&T::decode(&bytes).unwrap(), v);
}

#[test]
fn truncated_at_every_offset() {
    truncations(&0x1122_3344_5566_7788u64);
    truncations(&-5i16);
    truncations(&1.25f32);
    truncations(&"hello".to_string());
    truncations(&Some(3u32));
    truncations(&vec![1u16, 2, 3]);
    truncations(&vec![true, false]);
    truncations(&vec!["a".to_string(), "bc".to_string()]);
    truncations(&vec![Some(vec![1u8, 2]), None]);
    truncations(&[[1u32, 2], [3, 4]]);
    truncations(&["x".to_string(), "y".to_string()]);
    truncations(&BTreeMap::from([
        (1u8, "a".to_string()),
        (2, "b".to_string()),
    ]));
    truncations(&chat("alice", "hi", &["t1", "t2"]));
    truncations(&Node::chain(5));
    truncations(&Packet::Ping(9));
    truncations(&Packet::Chat(chat("a", "b", &["c"])));
    truncations(&Packet::Unknown {
        tag: 200,
        body: vec![1, 2],
    });
}

#[test]
fn huge_length_prefixes_are_rejected_against_the_input() {
    let ff = [0xff, 0xff, 0xff, 0xff, 1, 2, 3];
    let big = |len| DecodeErrorKind::LengthExceedsInput { len, remaining: 3 };
    assert_eq!(err::<String>(&ff), (big(0xffff_ffff), 0));
    assert_eq!(err::<Vec<u8>>(&ff), (big(0xffff_ffff), 0));
    assert_eq!(err::<Vec<u64>>(&ff), (big(0xffff_ffff * 8), 0));
    assert_eq!(err::<Vec<String>>(&ff), (big(0xffff_ffff * 4), 0));
    assert_eq!(err::<BTreeMap<u32, String>>(&ff), (big(0xffff_ffff * 8), 0));
    assert_eq!(err::<Chat>(&ff), (big(0xffff_ffff), 0));
    assert_eq!(err::<Packet>(&ff), (big(0xffff_ffff), 0));
    // Nested: the offset is the inner prefix's.
    let mut nested = vec![1, 0, 0, 0];
    nested.extend_from_slice(&ff);
    assert_eq!(err::<Vec<Vec<String>>>(&nested).1, 4);
    // A count that fits the bytes only at a smaller element size.
    assert_eq!(
        err::<Vec<u32>>(&[2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0]),
        (
            DecodeErrorKind::LengthExceedsInput {
                len: 8,
                remaining: 7
            },
            0
        )
    );
}

#[test]
fn invalid_utf8_names_the_bad_byte() {
    assert_eq!(
        err::<String>(&[3, 0, 0, 0, b'a', 0xff, b'b']),
        (DecodeErrorKind::InvalidUtf8, 5)
    );
    // Truncated multi-byte sequence in a list element.
    let bytes = [2, 0, 0, 0, 1, 0, 0, 0, b'x', 2, 0, 0, 0, b'y', 0xe2];
    assert_eq!(
        err::<Vec<String>>(&bytes),
        (DecodeErrorKind::InvalidUtf8, 14)
    );
    let mut s = String::from("keep");
    let mut r = Reader::new(&[1, 0, 0, 0, 0x80]);
    assert!(r.read_string_into(&mut s).is_err());
}

#[test]
fn bad_bool_and_option_flags() {
    assert_eq!(err::<bool>(&[2]), (DecodeErrorKind::InvalidBool(2), 0));
    assert_eq!(
        err::<Vec<bool>>(&[3, 0, 0, 0, 1, 0, 0xff]),
        (DecodeErrorKind::InvalidBool(0xff), 6)
    );
    assert_eq!(
        err::<[bool; 2]>(&[0, 9]),
        (DecodeErrorKind::InvalidBool(9), 1)
    );
    assert_eq!(
        err::<Option<u8>>(&[2, 0]),
        (DecodeErrorKind::InvalidOptionFlag(2), 0)
    );
    assert_eq!(
        err::<Vec<Option<u8>>>(&[2, 0, 0, 0, 0, 0x80]),
        (DecodeErrorKind::InvalidOptionFlag(0x80), 5)
    );
    let mut o = Some(1u8);
    assert_eq!(
        o.decode_into(&[7]).unwrap_err().kind(),
        &DecodeErrorKind::InvalidOptionFlag(7)
    );
}

#[test]
fn trailing_bytes() {
    assert_eq!(
        err::<u16>(&[1, 0, 9]),
        (DecodeErrorKind::TrailingBytes { count: 1 }, 2)
    );
    let mut b = chat("a", "b", &[]).encode_to_vec().unwrap();
    let n = b.len();
    b.extend_from_slice(&[0, 0, 0]);
    assert_eq!(
        err::<Chat>(&b),
        (DecodeErrorKind::TrailingBytes { count: 3 }, n)
    );
    let (v, used) = Chat::decode_prefix(&b).unwrap();
    assert_eq!((v, used), (chat("a", "b", &[]), n));
    let limits = Limits {
        max_len: 1,
        ..Limits::DEFAULT
    };
    let (v, used) = String::decode_prefix_with_limits(&[1, 0, 0, 0, b'a', 9], limits).unwrap();
    assert_eq!((v.as_str(), used), ("a", 5));
    assert!(String::decode_prefix_with_limits(&[2, 0, 0, 0, b'a', 9], limits).is_err());
    let mut s = String::new();
    assert!(s
        .decode_into_with_limits(&[2, 0, 0, 0, b'a', b'b'], limits)
        .is_err());
    assert_eq!(
        s.decode_into(&[0, 0, 0, 0, 1]).unwrap_err().kind(),
        &DecodeErrorKind::TrailingBytes { count: 1 }
    );
}

#[test]
fn depth_limit() {
    let ok = Node::chain(64).encode_to_vec().unwrap();
    assert_eq!(Node::decode(&ok).unwrap(), Node::chain(64));
    // Each level is a 4-byte body length and a 4-byte count, so the 65th
    // message's prefix is at byte 64 * 8.
    let deep = Node::chain(65).encode_to_vec().unwrap();
    assert_eq!(
        err::<Node>(&deep),
        (DecodeErrorKind::DepthExceeded { max: 64 }, 512)
    );

    let limits = Limits {
        max_depth: 3,
        ..Limits::DEFAULT
    };
    assert!(Node::decode_with_limits(&Node::chain(3).encode_to_vec().unwrap(), limits).is_ok());
    assert_eq!(
        err_with::<Node>(&Node::chain(4).encode_to_vec().unwrap(), limits),
        (DecodeErrorKind::DepthExceeded { max: 3 }, 24)
    );
    // Unions count too: Packet (1) > Chat (2).
    let p = Packet::Chat(Chat::default()).encode_to_vec().unwrap();
    let limits = Limits {
        max_depth: 1,
        ..Limits::DEFAULT
    };
    assert_eq!(
        err_with::<Packet>(&p, limits),
        (DecodeErrorKind::DepthExceeded { max: 1 }, 5)
    );

    // A very deep hostile input fails without overflowing the stack.
    let levels = 100_000u32;
    let mut evil = Vec::new();
    for k in 0..levels {
        let body = 8 * (levels - k) - 4;
        evil.extend_from_slice(&body.to_le_bytes());
        evil.extend_from_slice(&1u32.to_le_bytes());
    }
    assert_eq!(
        err::<Node>(&evil),
        (DecodeErrorKind::DepthExceeded { max: 64 }, 512)
    );

    let mut r = Reader::with_limits(
        &[],
        Limits {
            max_depth: 1,
            ..Limits::DEFAULT
        },
    );
    r.enter().unwrap();
    assert_eq!(
        r.enter().unwrap_err().kind(),
        &DecodeErrorKind::DepthExceeded { max: 1 }
    );
    r.leave();
    r.enter().unwrap();
}

#[test]
fn length_limits() {
    let limits = Limits {
        max_len: 4,
        ..Limits::DEFAULT
    };
    let five = "abcde".to_string().encode_to_vec().unwrap();
    assert_eq!(
        err_with::<String>(&five, limits),
        (
            DecodeErrorKind::LimitExceeded {
                what: "string length",
                value: 5,
                max: 4
            },
            0
        )
    );
    assert!(
        String::decode_with_limits(&"abcd".to_string().encode_to_vec().unwrap(), limits).is_ok()
    );
    let mut r = Reader::with_limits(&five, limits);
    assert_eq!(
        r.read_bytes().unwrap_err().kind(),
        &DecodeErrorKind::LimitExceeded {
            what: "bytes length",
            value: 5,
            max: 4
        }
    );
    let list = vec![0u8; 5].encode_to_vec().unwrap();
    assert_eq!(
        err_with::<Vec<u8>>(&list, limits),
        (
            DecodeErrorKind::LimitExceeded {
                what: "count",
                value: 5,
                max: 4
            },
            0
        )
    );
    let map: BTreeMap<u8, u8> = (0..5).map(|i| (i, i)).collect();
    assert!(matches!(
        err_with::<BTreeMap<u8, u8>>(&map.encode_to_vec().unwrap(), limits).0,
        DecodeErrorKind::LimitExceeded { what: "count", .. }
    ));
}

#[test]
fn total_element_budget() {
    let limits = Limits {
        max_total_elements: 10,
        ..Limits::DEFAULT
    };
    // 2 + 5 + 4 = 11 elements; the last count (at byte 13) goes over.
    let v = vec![vec![0u8; 5], vec![0u8; 4]];
    assert_eq!(
        err_with::<Vec<Vec<u8>>>(&v.encode_to_vec().unwrap(), limits),
        (
            DecodeErrorKind::LimitExceeded {
                what: "total elements",
                value: 11,
                max: 10
            },
            13
        )
    );
    let v = vec![vec![0u8; 5], vec![0u8; 3]];
    assert!(Vec::<Vec<u8>>::decode_with_limits(&v.encode_to_vec().unwrap(), limits).is_ok());

    // The budget is shared across sibling message bodies: 3 children with one
    // child each is 6 elements.
    let tree = Node {
        children: vec![Node::chain(2), Node::chain(2), Node::chain(2)],
    };
    let bytes = tree.encode_to_vec().unwrap();
    let five = Limits {
        max_total_elements: 5,
        ..Limits::DEFAULT
    };
    let six = Limits {
        max_total_elements: 6,
        ..Limits::DEFAULT
    };
    assert!(matches!(
        err_with::<Node>(&bytes, five).0,
        DecodeErrorKind::LimitExceeded {
            what: "total elements",
            ..
        }
    ));
    assert_eq!(Node::decode_with_limits(&bytes, six).unwrap(), tree);
    // Same through a reader with its own budget: `finish` hands it back.
    let mut r = Reader::with_limits(&bytes, five);
    assert!(Node::decode_raw(&mut r).is_err());
    let mut r = Reader::with_limits(&bytes, six);
    assert_eq!(Node::decode_raw(&mut r).unwrap(), tree);
    assert_eq!(r.elements_left(), 0);
}

#[test]
fn field_max() {
    let r = Reader::new(&[]);
    r.check_max("name", 8, 8, 3).unwrap();
    let e = r.check_max("name", 9, 8, 3).unwrap_err();
    assert_eq!(
        (e.kind(), e.offset()),
        (
            &DecodeErrorKind::FieldTooLong {
                field: "name".into(),
                len: 9,
                max: 8
            },
            3
        )
    );
    assert_eq!(
        e.to_string(),
        "field `name` has length 9, more than its maximum 8 at byte 3"
    );
}

#[test]
fn union_frames() {
    // Ping with one byte too many in its frame.
    let bytes = [6, 0, 0, 0, 1, 7, 0, 0, 0, 0xee];
    assert_eq!(
        err::<Packet>(&bytes),
        (
            DecodeErrorKind::VariantLength {
                tag: 1,
                expected: 5,
                consumed: 4
            },
            9
        )
    );
    // Ping whose frame is too short for its u32.
    let bytes = [3, 0, 0, 0, 1, 7, 0];
    assert_eq!(
        err::<Packet>(&bytes),
        (
            DecodeErrorKind::UnexpectedEnd {
                needed: 4,
                remaining: 2
            },
            5
        )
    );
    // A frame must hold at least the tag.
    assert_eq!(
        err::<Packet>(&[0, 0, 0, 0]),
        (
            DecodeErrorKind::UnexpectedEnd {
                needed: 1,
                remaining: 0
            },
            4
        )
    );
    let mut r = Reader::new(&[1, 0, 0, 0, 9]);
    assert_eq!(
        r.union_frame(2).unwrap_err().kind(),
        &DecodeErrorKind::UnexpectedEnd {
            needed: 2,
            remaining: 1
        }
    );
    // A message inside a frame may not run past the frame.
    let mut p = Packet::Chat(chat("ab", "", &[])).encode_to_vec().unwrap();
    p[0] -= 1;
    p.pop();
    assert!(matches!(
        err::<Packet>(&p).0,
        DecodeErrorKind::LengthExceedsInput { .. }
    ));
}

#[test]
fn duplicate_map_key() {
    assert_eq!(
        err::<BTreeMap<u8, u8>>(&[2, 0, 0, 0, 5, 1, 5, 2]),
        (DecodeErrorKind::DuplicateMapKey, 6)
    );
    let mut m = BTreeMap::<String, bool>::new();
    assert!(m
        .decode_into(&[3, 0, 0, 0, 1, 0, 0, 0, b'k', 0, 1, 0, 0, 0, b'j', 0, 1, 0, 0, 0, b'k', 1])
        .is_err());
    let bytes = [2, 0, 0, 0, 1, 0, 0, 0, b'k', 0, 1, 0, 0, 0, b'k', 1];
    assert_eq!(
        err::<BTreeMap<String, bool>>(&bytes),
        (DecodeErrorKind::DuplicateMapKey, 10)
    );
}

#[test]
fn errors_display_their_offset() {
    let e = DecodeError::new(
        DecodeErrorKind::UnexpectedEnd {
            needed: 4,
            remaining: 1,
        },
        17,
    );
    assert!(e.to_string().ends_with(" at byte 17"), "{e}");
    let boxed: Box<dyn std::error::Error> = Box::new(e.clone());
    assert_eq!(boxed.to_string(), e.to_string());
    let kinds = [
        DecodeErrorKind::InvalidBool(2),
        DecodeErrorKind::InvalidOptionFlag(2),
        DecodeErrorKind::InvalidUtf8,
        DecodeErrorKind::LengthExceedsInput {
            len: 9,
            remaining: 1,
        },
        DecodeErrorKind::LimitExceeded {
            what: "count",
            value: 9,
            max: 1,
        },
        DecodeErrorKind::DepthExceeded { max: 3 },
        DecodeErrorKind::TrailingBytes { count: 2 },
        DecodeErrorKind::VariantLength {
            tag: 1,
            expected: 2,
            consumed: 1,
        },
        DecodeErrorKind::DuplicateMapKey,
    ];
    for k in kinds {
        let s = DecodeError::new(k, 5).to_string();
        assert!(s.ends_with(" at byte 5") && s.len() > 12, "{s}");
    }
}

#[test]
fn zero_sized_elements() {
    // Zero-size elements are not checked against the input, only against the
    // limits.
    let mut r = Reader::new(&[3, 0, 0, 0]);
    assert_eq!(r.read_count(0, 0).unwrap(), 3);
    let v = Vec::<[u8; 0]>::decode(&[3, 0, 0, 0]).unwrap();
    assert_eq!(v.len(), 3);
    let limits = Limits {
        max_len: 2,
        ..Limits::DEFAULT
    };
    assert!(Vec::<[u8; 0]>::decode_with_limits(&[3, 0, 0, 0], limits).is_err());
    assert!(Vec::<[u8; 0]>::decode(&[0xff, 0xff, 0xff, 0xff]).is_err());
}

/// A small deterministic generator, so the test needs no dependencies.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn try_all(bytes: &[u8]) {
    let _ = Chat::decode(bytes);
    let _ = Packet::decode(bytes);
    let _ = Node::decode(bytes);
    let _ = Vec::<String>::decode(bytes);
    let _ = Vec::<Option<Vec<u16>>>::decode(bytes);
    let _ = BTreeMap::<String, Vec<bool>>::decode(bytes);
    let _ = <[Option<bool>; 3]>::decode(bytes);
    let _ = <[[bool; 2]; 2] as pkt_runtime::FixedSize>::read_fixed(bytes, 0);
    let mut reuse = vec![String::from("x"); 3];
    let _ = reuse.decode_into(bytes);
}

#[test]
fn random_and_mutated_input_never_panics() {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    for _ in 0..pkt_test_support::scaled(5_000, 20_000) {
        let len = (rng.next() % 40) as usize;
        // Mostly small numbers, so prefixes often look plausible.
        let bytes: Vec<u8> = (0..len)
            .map(|_| match rng.next() % 4 {
                0 => 0,
                1 => 1,
                2 => (rng.next() % 8) as u8,
                _ => rng.next() as u8,
            })
            .collect();
        try_all(&bytes);
    }
    let seeds = [
        Packet::Chat(chat("alice", "hello", &["a", "b"]))
            .encode_to_vec()
            .unwrap(),
        Node {
            children: vec![Node::chain(3), Node::default()],
        }
        .encode_to_vec()
        .unwrap(),
        BTreeMap::from([("k".to_string(), vec![true])])
            .encode_to_vec()
            .unwrap(),
    ];
    for seed in &seeds {
        for i in 0..seed.len() {
            for delta in [1u8, 0x7f, 0xff] {
                let mut m = seed.clone();
                m[i] = m[i].wrapping_add(delta);
                try_all(&m);
            }
        }
    }
}

fn small_budget(base: usize, per_byte: usize) -> Limits {
    Limits {
        decode_budget_base: base,
        decode_budget_per_byte: per_byte,
        ..Limits::DEFAULT
    }
}

#[test]
fn decode_budget_is_charged_before_allocating() {
    // 3 × u64: 24 model bytes, charged at the count prefix.
    let list = vec![1u64, 2, 3].encode_to_vec().unwrap();
    assert!(Vec::<u64>::decode_with_limits(&list, small_budget(24, 0)).is_ok());
    assert_eq!(
        err_with::<Vec<u64>>(&list, small_budget(23, 0)),
        (
            DecodeErrorKind::BudgetExceeded {
                field: "".into(),
                needed: 24,
                left: 23
            },
            0
        )
    );
    // The per-byte part counts the whole input (28 bytes).
    assert!(Vec::<u64>::decode_with_limits(&list, small_budget(0, 1)).is_ok());
    // A string is charged its length at its length prefix, after the list
    // charged its handles (24 bytes each).
    let strings = vec!["abc".to_string()].encode_to_vec().unwrap();
    assert!(Vec::<String>::decode_with_limits(&strings, small_budget(27, 0)).is_ok());
    assert_eq!(
        err_with::<Vec<String>>(&strings, small_budget(26, 0)),
        (
            DecodeErrorKind::BudgetExceeded {
                field: "".into(),
                needed: 3,
                left: 2
            },
            4
        )
    );
    // A map entry is charged 2 × (key + value) + 16.
    let map: BTreeMap<u32, u8> = [(1, 2), (3, 4)].into_iter().collect();
    let bytes = map.encode_to_vec().unwrap();
    let needed = 2 * (2 * (4 + 1) + 16);
    assert!(BTreeMap::<u32, u8>::decode_with_limits(&bytes, small_budget(needed, 0)).is_ok());
    assert!(BTreeMap::<u32, u8>::decode_with_limits(&bytes, small_budget(needed - 1, 0)).is_err());
}

#[test]
fn readers_that_own_their_budget_take_it_back_from_bodies() {
    let limits = small_budget(30, 0);
    let inner = vec![1u64, 2].encode_to_vec().unwrap();
    let mut framed = (inner.len() as u32).to_le_bytes().to_vec();
    framed.extend_from_slice(&inner);
    framed.extend_from_slice(&framed.clone());
    let mut r = Reader::with_limits(&framed, limits);
    assert_eq!(r.memory_left(), 30);
    let mut body = r.message_body().unwrap();
    assert_eq!(Vec::<u64>::decode_raw(&mut body).unwrap(), [1, 2]);
    r.finish(body);
    assert_eq!(r.memory_left(), 14);
    let mut body = r.message_body().unwrap();
    let e = Vec::<u64>::decode_raw(&mut body).unwrap_err();
    assert_eq!(
        e.kind(),
        &DecodeErrorKind::BudgetExceeded {
            field: "".into(),
            needed: 16,
            left: 14
        }
    );
    assert_eq!(e.offset(), framed.len() / 2 + 4);
}

#[test]
fn budget_errors_name_the_innermost_field() {
    let e = DecodeError::new(
        DecodeErrorKind::BudgetExceeded {
            field: "".into(),
            needed: 2,
            left: 1,
        },
        7,
    );
    let named = e.in_field("Inner.items").in_field("Outer.inner");
    assert_eq!(
        named.kind(),
        &DecodeErrorKind::BudgetExceeded {
            field: "Inner.items".into(),
            needed: 2,
            left: 1
        }
    );
    assert_eq!(
        named.to_string(),
        "field `Inner.items` needs 2 more bytes of memory, only 1 left in the decode budget at byte 7"
    );
    // Other errors pass unchanged.
    let other = DecodeError::new(DecodeErrorKind::InvalidUtf8, 3);
    assert_eq!(other.clone().in_field("A.b"), other);
}

#[test]
fn short_fixed_values_fail_at_the_first_missing_scalar() {
    // [u32; 3] with 6 bytes: the second u32 is cut.
    let (k, at) = err::<[u32; 3]>(&[1, 0, 0, 0, 2, 0]);
    assert_eq!(
        (k, at),
        (
            DecodeErrorKind::UnexpectedEnd {
                needed: 4,
                remaining: 2
            },
            4
        )
    );
    // [bool; 3] with an invalid first byte and a missing third: the bool.
    assert_eq!(
        err::<[bool; 3]>(&[2, 0]),
        (DecodeErrorKind::InvalidBool(2), 0)
    );
    // decode_into reports the same.
    let mut v = [0u32; 3];
    let e = v.decode_into(&[1, 0, 0, 0, 2, 0]).unwrap_err();
    assert_eq!(e.offset(), 4);
}

#[test]
fn checked_then_unchecked_fixed_runs_match_value_by_value_reads() {
    use pkt_runtime::fixed::{read_each, read_valid_into};
    use pkt_runtime::FixedSize;

    fn same<T: FixedSize + PartialEq + std::fmt::Debug>(bytes: &[u8], offset: usize) {
        let count = bytes.len() / T::SIZE;
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let ra = read_valid_into::<T>(&mut a, count, bytes, offset);
        let rb = read_each::<T>(&mut b, count, bytes, offset);
        assert_eq!(ra, rb, "{bytes:?}");
        assert_eq!(a, b, "{bytes:?}");
        if ra.is_ok() {
            assert!(bytes.chunks_exact(T::SIZE).all(T::is_valid));
        }
    }

    /// A type with the provided `is_valid` and `read_valid`.
    #[derive(Debug, PartialEq)]
    struct Pair(u8, bool);
    impl FixedSize for Pair {
        const SIZE: usize = 2;
        fn write_fixed(&self, out: &mut [u8]) {
            out.copy_from_slice(&[self.0, u8::from(self.1)]);
        }
        fn read_fixed(bytes: &[u8], offset: usize) -> Result<Self, DecodeError> {
            Ok(Self(
                u8::read_fixed(&bytes[..1], offset)?,
                bool::read_fixed(&bytes[1..], offset + 1)?,
            ))
        }
    }

    // Every byte of four `[bool; 2]` values set to each of 0..4 in turn,
    // over a valid background: the first invalid byte is the error, at its
    // absolute offset, with the values before it appended.
    let base = [0u8, 1, 1, 0, 1, 1, 0, 0];
    for i in 0..base.len() {
        for b in 0..4 {
            let mut bytes = base;
            bytes[i] = b;
            same::<[bool; 2]>(&bytes, 100);
            same::<bool>(&bytes, 7);
            same::<Pair>(&bytes, 3);
        }
    }
    // Two invalid bytes: the first in wire order wins.
    same::<[bool; 2]>(&[0, 1, 5, 0, 0, 9, 1, 1], 0);
    // Types that are always valid read the same without a check.
    const { assert!(<[u16; 3]>::TOTAL && !<[bool; 1]>::TOTAL) };
    same::<[u16; 3]>(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], 0);
    same::<u8>(&[1, 2, 3], 0);
}
