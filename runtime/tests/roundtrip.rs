//! Round trips and exact encodings.

mod common;

use std::collections::BTreeMap;
use std::fmt::Debug;

use common::{chat, Chat, Node, Packet};
use pkt_runtime::{
    list, Decode, DecodeErrorKind, Encode, EncodeErrorKind, FixedSize, Limits, Reader, Writer,
};

fn rt<T: Encode + Decode + PartialEq + Debug>(v: T) -> Vec<u8> {
    let bytes = v.encode_to_vec().unwrap();
    assert_eq!(bytes.len(), v.encoded_len(), "encoded_len of {v:?}");
    let back = T::decode(&bytes).unwrap_or_else(|e| panic!("decode {v:?}: {e}"));
    assert_eq!(back, v);
    let (back, used) = T::decode_prefix(&bytes).unwrap();
    assert_eq!((back, used), (v, bytes.len()));
    bytes
}

#[test]
fn scalars_exact_bytes() {
    assert_eq!(rt(true), [1]);
    assert_eq!(rt(false), [0]);
    assert_eq!(rt(0xabu8), [0xab]);
    assert_eq!(rt(-2i8), [0xfe]);
    assert_eq!(rt(0x1234u16), [0x34, 0x12]);
    assert_eq!(rt(-2i16), [0xfe, 0xff]);
    assert_eq!(rt(0x1234_5678u32), [0x78, 0x56, 0x34, 0x12]);
    assert_eq!(rt(-1i32), [0xff; 4]);
    assert_eq!(rt(0x0102_0304_0506_0708u64), [8, 7, 6, 5, 4, 3, 2, 1]);
    assert_eq!(rt(i64::MIN), [0, 0, 0, 0, 0, 0, 0, 0x80]);
    assert_eq!(rt(1.0f32), [0, 0, 0x80, 0x3f]);
    assert_eq!(rt(-2.5f64), (-2.5f64).to_le_bytes());
}

#[test]
fn scalar_extremes_round_trip() {
    for v in [u8::MIN, u8::MAX] {
        rt(v);
    }
    for v in [i8::MIN, i8::MAX] {
        rt(v);
    }
    for v in [u16::MAX, 1] {
        rt(v);
    }
    for v in [i16::MIN, i16::MAX] {
        rt(v);
    }
    for v in [u32::MAX, 0] {
        rt(v);
    }
    for v in [i32::MIN, i32::MAX] {
        rt(v);
    }
    for v in [u64::MAX, 0] {
        rt(v);
    }
    for v in [i64::MIN, i64::MAX] {
        rt(v);
    }
    for v in [f32::MIN, f32::INFINITY, -0.0] {
        rt(v);
    }
    for v in [f64::MAX, f64::NEG_INFINITY, f64::EPSILON] {
        rt(v);
    }
}

#[test]
fn nan_payloads_are_kept() {
    let n32 = f32::from_bits(0x7fc0_1234);
    let b = n32.encode_to_vec().unwrap();
    assert_eq!(f32::decode(&b).unwrap().to_bits(), 0x7fc0_1234);
    let n64 = f64::from_bits(0xfff8_0000_dead_beef);
    let b = n64.encode_to_vec().unwrap();
    assert_eq!(f64::decode(&b).unwrap().to_bits(), 0xfff8_0000_dead_beef);
    let v = vec![n32, 1.0];
    let back = Vec::<f32>::decode(&v.encode_to_vec().unwrap()).unwrap();
    assert_eq!(back[0].to_bits(), 0x7fc0_1234);
}

#[test]
fn string_exact_bytes() {
    assert_eq!(rt("hi".to_string()), [2, 0, 0, 0, b'h', b'i']);
    assert_eq!(rt(String::new()), [0, 0, 0, 0]);
    rt("héllo wörld ✓ 🦀".to_string());
    assert_eq!("hi".encode_to_vec().unwrap(), [2, 0, 0, 0, b'h', b'i']);
}

#[test]
fn option_exact_bytes() {
    assert_eq!(rt(Some(7u16)), [1, 7, 0]);
    assert_eq!(rt(None::<u16>), [0]);
    assert_eq!(rt(Some("a".to_string())), [1, 1, 0, 0, 0, b'a']);
    assert_eq!(rt(Some(Some(false))), [1, 1, 0]);
    assert_eq!(rt(Some(None::<bool>)), [1, 0]);
}

#[test]
fn list_exact_bytes() {
    assert_eq!(rt(vec![1u32, 2]), [2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0]);
    assert_eq!(rt(Vec::<u64>::new()), [0, 0, 0, 0]);
    assert_eq!(rt(vec![1u8, 2, 3]), [3, 0, 0, 0, 1, 2, 3]);
    assert_eq!(rt(vec![true, false]), [2, 0, 0, 0, 1, 0]);
    assert_eq!(
        rt(vec!["a".to_string(), String::new()]),
        [2, 0, 0, 0, 1, 0, 0, 0, b'a', 0, 0, 0, 0]
    );
    assert_eq!(
        rt(vec![vec![1i16], vec![]]),
        [2, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0]
    );
    rt(vec![-1i8, 5, i8::MIN]);
    rt(vec![u16::MAX, 3]);
    rt(vec![i32::MIN, 0, i32::MAX]);
    rt(vec![1.5f64, -0.25]);
    rt(vec![Some(1u8), None]);
    assert_eq!(
        [1u8, 2].as_slice().encode_to_vec().unwrap(),
        [2, 0, 0, 0, 1, 2]
    );
}

#[test]
fn bytes_and_list_u8_are_the_same() {
    let data = vec![9u8, 8, 7];
    let mut buf = vec![0; 7];
    let mut w = Writer::new(&mut buf);
    w.put_bytes(&data);
    assert_eq!(buf, data.encode_to_vec().unwrap());
    let mut r = Reader::new(&buf);
    assert_eq!(r.read_bytes().unwrap(), data);
    assert!(r.is_empty());
}

#[test]
fn map_is_written_in_key_order() {
    let mut m = BTreeMap::new();
    m.insert(300u16, true);
    m.insert(2u16, false);
    m.insert(40u16, true);
    assert_eq!(rt(m), [3, 0, 0, 0, 2, 0, 0, 40, 0, 1, 0x2c, 1, 1]);
    let mut s = BTreeMap::new();
    s.insert("é".to_string(), 1u8);
    s.insert("b".to_string(), 2u8);
    s.insert("B".to_string(), 3u8);
    // Byte order: "B" (0x42) < "b" (0x62) < "é" (0xc3 0xa9).
    assert_eq!(
        rt(s),
        [3, 0, 0, 0, 1, 0, 0, 0, b'B', 3, 1, 0, 0, 0, b'b', 2, 2, 0, 0, 0, 0xc3, 0xa9, 1]
    );
    let mut b = BTreeMap::new();
    b.insert(true, vec![1u8]);
    b.insert(false, vec![]);
    assert_eq!(rt(b), [2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1]);
    rt(BTreeMap::<String, Vec<String>>::new());
}

#[test]
fn map_accepts_any_order() {
    // Keys 5 then 1: decoded regardless of order, re-encoded sorted.
    let bytes = [2, 0, 0, 0, 5, 50, 1, 10];
    let m = BTreeMap::<u8, u8>::decode(&bytes).unwrap();
    assert_eq!(m.into_iter().collect::<Vec<_>>(), [(1, 10), (5, 50)]);
}

#[test]
fn arrays_have_no_count() {
    assert_eq!(rt([1u16, 2, 3]), [1, 0, 2, 0, 3, 0]);
    assert_eq!(rt([7u8; 4]), [7; 4]);
    assert_eq!(rt([true, false]), [1, 0]);
    assert_eq!(
        rt(["x".to_string(), "yz".to_string()]),
        [1, 0, 0, 0, b'x', 2, 0, 0, 0, b'y', b'z']
    );
    rt([[1i32, -1], [2, -2]]);
    rt([Some(1u64), None, Some(3)]);
    rt([0u8; 0]);
    assert_eq!(<[u32; 3] as Decode>::MIN_ENCODED_LEN, 12);
    assert_eq!(<[[u16; 2]; 3] as FixedSize>::SIZE, 12);
}

#[test]
fn boxes_encode_their_contents() {
    assert_eq!(rt(Box::new(5u32)), [5, 0, 0, 0]);
    rt(Box::new(vec![Box::new("x".to_string())]));
    let mut b = Box::new(String::from("old"));
    b.decode_into(&"new".encode_to_vec().unwrap()).unwrap();
    assert_eq!(*b, "new");
}

#[test]
fn fixed_size_read_write() {
    let mut out = [0u8; 4];
    0x0a0b0c0du32.write_fixed(&mut out);
    assert_eq!(out, [0x0d, 0x0c, 0x0b, 0x0a]);
    assert_eq!(u32::read_fixed(&out, 0).unwrap(), 0x0a0b0c0d);
    let arr = [[1u8, 2], [3, 4], [5, 6]];
    let mut out = [0u8; 6];
    arr.write_fixed(&mut out);
    assert_eq!(out, [1, 2, 3, 4, 5, 6]);
    assert_eq!(<[[u8; 2]; 3]>::read_fixed(&out, 0).unwrap(), arr);
    let mut out = [0u8; 16];
    [1.5f64, -3.0].write_fixed(&mut out);
    assert_eq!(<[f64; 2]>::read_fixed(&out, 0).unwrap(), [1.5, -3.0]);
    let e = <[bool; 3]>::read_fixed(&[1, 0, 2], 100).unwrap_err();
    assert_eq!(e.kind(), &DecodeErrorKind::InvalidBool(2));
    assert_eq!(e.offset(), 102);
    let e = <[[bool; 2]; 2]>::read_fixed(&[1, 0, 1, 7], 10).unwrap_err();
    assert_eq!(
        (e.kind(), e.offset()),
        (&DecodeErrorKind::InvalidBool(7), 13)
    );
    let e = u64::read_fixed(&[1, 2, 3], 5).unwrap_err();
    assert_eq!(
        e.kind(),
        &DecodeErrorKind::UnexpectedEnd {
            needed: 8,
            remaining: 3
        }
    );
}

#[test]
fn list_fixed_helpers() {
    let items = [1u32, 0xdead_beef, 3];
    assert_eq!(list::fixed_len(&items), 16);
    let mut buf = vec![0u8; 16];
    let mut w = Writer::new(&mut buf);
    list::encode_fixed(&items, &mut w);
    assert_eq!(w.position(), 16);
    assert_eq!(buf, items.to_vec().encode_to_vec().unwrap());
    let mut r = Reader::new(&buf);
    assert_eq!(list::decode_fixed::<u32>(&mut r).unwrap(), items);
    assert!(r.is_empty());

    let structs = [[1u16, 2], [3, 4]];
    let mut buf = vec![0u8; list::fixed_len(&structs)];
    list::encode_fixed(&structs, &mut Writer::new(&mut buf));
    assert_eq!(buf, [2, 0, 0, 0, 1, 0, 2, 0, 3, 0, 4, 0]);
    let mut v = vec![[9u16, 9]; 5];
    list::decode_fixed_into(&mut v, &mut Reader::new(&buf)).unwrap();
    assert_eq!(v, structs);

    let bytes = b"payload".to_vec();
    let mut buf = vec![0u8; list::fixed_len(&bytes)];
    list::encode_fixed(&bytes, &mut Writer::new(&mut buf));
    assert_eq!(&buf[..4], [7, 0, 0, 0]);
    let mut v = Vec::with_capacity(64);
    let cap = v.capacity();
    list::decode_fixed_into::<u8>(&mut v, &mut Reader::new(&buf)).unwrap();
    assert_eq!(v, bytes);
    assert_eq!(v.capacity(), cap);

    // Bool lists are validated in bulk and report the bad byte's offset.
    let e = list::decode_fixed::<bool>(&mut Reader::new(&[3, 0, 0, 0, 1, 0, 5])).unwrap_err();
    assert_eq!(
        (e.kind(), e.offset()),
        (&DecodeErrorKind::InvalidBool(5), 6)
    );
}

#[test]
fn list_generic_helpers() {
    let items = vec![chat("a", "b", &["t"]), Chat::default()];
    let n = list::encoded_len(&items);
    let mut buf = vec![0u8; n];
    let mut w = Writer::new(&mut buf);
    list::encode(&items, &mut w);
    assert_eq!(w.position(), n);
    assert_eq!(buf, items.encode_to_vec().unwrap());
    assert_eq!(list::decode::<Chat>(&mut Reader::new(&buf)).unwrap(), items);
}

#[test]
fn writer_length_backfill_and_take() {
    let mut buf = [0xffu8; 13];
    let mut w = Writer::new(&mut buf);
    let mark = w.begin_len();
    *w.take::<2>() = [0xaa, 0xbb];
    w.take_slice(3).copy_from_slice(&[1, 2, 3]);
    w.end_len(mark);
    w.put_len(0);
    assert_eq!(w.position(), 13);
    assert_eq!(w.remaining(), 0);
    assert_eq!(buf, [5, 0, 0, 0, 0xaa, 0xbb, 1, 2, 3, 0, 0, 0, 0]);
}

#[test]
#[should_panic]
fn writer_past_the_end_panics() {
    let mut buf = [0u8; 3];
    Writer::new(&mut buf).put_u32(1);
}

#[test]
fn encode_to_slice_and_into() {
    let v = vec![1u16, 2];
    let mut out = [0xffu8; 10];
    assert_eq!(v.encode_to_slice(&mut out).unwrap(), 8);
    assert_eq!(out, [2, 0, 0, 0, 1, 0, 2, 0, 0xff, 0xff]);
    let mut short = [0u8; 7];
    let e = v.encode_to_slice(&mut short).unwrap_err();
    assert_eq!(
        e.kind(),
        &EncodeErrorKind::BufferTooSmall {
            needed: 8,
            available: 7
        }
    );
    assert_eq!(short, [0; 7], "nothing written on error");
    assert!(e.to_string().contains("needed 8"));

    let mut acc = vec![0xee];
    7u8.encode_into(&mut acc).unwrap();
    "x".encode_into(&mut acc).unwrap();
    assert_eq!(acc, [0xee, 7, 1, 0, 0, 0, b'x']);
}

#[test]
fn messages_and_unions_round_trip() {
    let c = chat("alice", "hello", &["a", "bb"]);
    let bytes = rt(c.clone());
    assert_eq!(&bytes[..4], &((bytes.len() - 4) as u32).to_le_bytes());
    rt(Node::chain(10));
    rt(Node {
        children: vec![Node::chain(3), Node::default(), Node::chain(2)],
    });
    assert_eq!(rt(Packet::Ping(7)), [5, 0, 0, 0, 1, 7, 0, 0, 0]);
    rt(Packet::Chat(c));
    let unknown = Packet::Unknown {
        tag: 9,
        body: vec![1, 2, 3],
    };
    assert_eq!(rt(unknown), [4, 0, 0, 0, 9, 1, 2, 3]);
}

#[test]
fn message_defaults_and_unknown_tail() {
    // Body holding only `from`: the other fields take their defaults.
    let mut bytes = vec![5, 0, 0, 0, 1, 0, 0, 0, b'z'];
    assert_eq!(Chat::decode(&bytes).unwrap(), chat("z", "", &[]));
    // Empty body.
    assert_eq!(Chat::decode(&[0, 0, 0, 0]).unwrap(), Chat::default());
    // A newer writer appended a field: skipped.
    let mut full = chat("a", "b", &[]).encode_to_vec().unwrap();
    full.extend_from_slice(&[0xde, 0xad]);
    let len = (full.len() - 4) as u32;
    full[..4].copy_from_slice(&len.to_le_bytes());
    assert_eq!(Chat::decode(&full).unwrap(), chat("a", "b", &[]));
    // A body that ends inside a field fails.
    bytes[0] = 3;
    bytes.truncate(7);
    let e = Chat::decode(&bytes).unwrap_err();
    assert!(
        matches!(e.kind(), DecodeErrorKind::UnexpectedEnd { .. }),
        "{e}"
    );
}

#[test]
fn decode_into_reuses_and_resizes() {
    let mut v = vec![
        "old-one".to_string(),
        "old-two".to_string(),
        "x".to_string(),
    ];
    v.decode_into(&vec!["a".to_string()].encode_to_vec().unwrap())
        .unwrap();
    assert_eq!(v, ["a"]);
    v.decode_into(&vec!["p", "q", "r"].encode_to_vec().unwrap())
        .unwrap();
    assert_eq!(v, ["p", "q", "r"]);

    let mut c = chat("x", "y", &["1", "2", "3"]);
    c.decode_into(&chat("n", "m", &["9"]).encode_to_vec().unwrap())
        .unwrap();
    assert_eq!(c, chat("n", "m", &["9"]));

    let mut o = Some(vec![1u8, 2]);
    o.decode_into(&[0]).unwrap();
    assert_eq!(o, None);
    o.decode_into(&[1, 1, 0, 0, 0, 4]).unwrap();
    assert_eq!(o, Some(vec![4]));

    let mut m: BTreeMap<u8, String> = [(1, "a".to_string()), (2, "b".to_string())].into();
    m.decode_into(&[1, 0, 0, 0, 3, 1, 0, 0, 0, b'c']).unwrap();
    assert_eq!(m, [(3, "c".to_string())].into());

    let mut a = [String::from("q"), String::from("r")];
    a.decode_into(&["s", "t"].encode_to_vec().unwrap()).unwrap();
    assert_eq!(a, ["s", "t"]);
}

#[test]
fn reader_primitives_and_positions() {
    let bytes = [0xff, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0xaa];
    let mut r = Reader::with_limits(&bytes, Limits::default());
    assert_eq!(r.read_i8().unwrap(), -1);
    assert!(r.read_bool().unwrap());
    assert_eq!(r.position(), 2);
    assert_eq!(r.read_array::<2>().unwrap(), &[2, 0]);
    assert_eq!(r.read_slice(3).unwrap(), &[0, 0, 0]);
    assert!(!r.read_option_flag().unwrap());
    assert_eq!(r.remaining(), 4);
    assert_eq!(r.rest(), &[0, 0, 0, 0xaa]);
    assert!(r.is_empty());
    assert_eq!(r.rest(), &[] as &[u8]);
}

#[test]
fn sub_readers_use_absolute_offsets() {
    // A junk byte, a message body of 7 bytes (u8, then a union frame), and
    // two more bytes.
    let bytes = [0x00, 7, 0, 0, 0, 0x11, 2, 0, 0, 0, 7, 8, 0xee, 0xff];
    let mut r = Reader::new(&bytes);
    r.read_u8().unwrap();
    let mut body = r.message_body().unwrap();
    assert_eq!(r.position(), 12);
    assert_eq!(body.position(), 5);
    assert_eq!(body.remaining(), 7);
    assert_eq!(body.depth(), 1);
    body.read_u8().unwrap();
    let e = body.read_u64().unwrap_err();
    assert_eq!(e.offset(), 6);
    let (tag, mut v) = body.union_frame(1).unwrap();
    assert_eq!((tag, v.position(), v.remaining(), v.depth()), (7, 11, 1, 2));
    let e = body.finish_variant(&v, tag).unwrap_err();
    assert_eq!(
        (e.kind(), e.offset()),
        (
            &DecodeErrorKind::VariantLength {
                tag: 7,
                expected: 1,
                consumed: 0
            },
            11
        )
    );
    assert_eq!(v.read_u8().unwrap(), 8);
    body.finish_variant(&v, tag).unwrap();
    assert!(body.is_empty());
    assert_eq!(r.remaining(), 2);
}

#[test]
fn u16_union_tags() {
    let bytes = [6, 0, 0, 0, 0x34, 0x12, 1, 2, 3, 4];
    let mut r = Reader::new(&bytes);
    let (tag, mut v) = r.union_frame(2).unwrap();
    assert_eq!(tag, 0x1234);
    assert_eq!(v.read_u32().unwrap(), 0x0403_0201);
    r.finish_variant(&v, tag).unwrap();
    assert!(r.is_empty());
}
