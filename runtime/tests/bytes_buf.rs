//! Encoding into `BufMut` and decoding from `Buf` (feature `bytes`).

mod common;

use bytes::{Buf, BufMut, Bytes, BytesMut};
use common::{chat, Packet};
use pkt_runtime::bytes::{
    decode_buf, decode_buf_with_limits, decode_prefix, encode_to_buf, encode_to_bytes,
};
use pkt_runtime::{DecodeErrorKind, Encode, Limits};

fn sample() -> Vec<Packet> {
    vec![
        Packet::Ping(42),
        Packet::Chat(chat("dora", "the quick brown fox", &["a", "b"])),
        Packet::Unknown {
            tag: 200,
            body: vec![1, 2, 3],
        },
    ]
}

#[test]
fn encode_into_bytes_mut_and_vec_matches_encode_to_vec() {
    for p in sample() {
        let expected = p.encode_to_vec().unwrap();
        // Room in the chunk: written in place.
        let mut b = BytesMut::with_capacity(expected.len());
        encode_to_buf(&p, &mut b).unwrap();
        assert_eq!(&b[..], &expected[..]);
        // No room: BytesMut grows through put_slice.
        let mut b = BytesMut::new();
        encode_to_buf(&p, &mut b).unwrap();
        assert_eq!(&b[..], &expected[..]);
        // Vec<u8> as a BufMut, appending.
        let mut v = vec![0xee];
        encode_to_buf(&p, &mut v).unwrap();
        assert_eq!(v[0], 0xee);
        assert_eq!(&v[1..], &expected[..]);
        assert_eq!(encode_to_bytes(&p).unwrap(), expected);
    }
}

#[test]
fn encode_into_a_fixed_slice_and_a_limited_buf() {
    let p = Packet::Chat(chat("eve", "hello", &[]));
    let expected = p.encode_to_vec().unwrap();
    let mut storage = vec![0u8; expected.len() + 3];
    {
        let mut out: &mut [u8] = &mut storage[..];
        encode_to_buf(&p, &mut out).unwrap();
        assert_eq!(out.len(), 3);
    }
    assert_eq!(&storage[..expected.len()], &expected[..]);

    // A chunk shorter than the value: the copy path through `put_slice`.
    let mut chained = BytesMut::new().limit(expected.len());
    encode_to_buf(&p, &mut chained).unwrap();
    assert_eq!(&chained.into_inner()[..], &expected[..]);
}

#[test]
fn encode_to_buf_writes_what_encode_to_vec_does() {
    let mut b = BytesMut::new();
    encode_to_buf(&Packet::Ping(1), &mut b).unwrap();
    assert_eq!(&b[..], &Packet::Ping(1).encode_to_vec().unwrap()[..]);
}

#[test]
fn decode_whole_buffers_contiguous_and_chained() {
    let p = Packet::Chat(chat("finn", "ahoy", &["t"]));
    let bytes = Bytes::from(p.encode_to_vec().unwrap());
    let mut contiguous = bytes.clone();
    assert_eq!(decode_buf::<Packet, _>(&mut contiguous).unwrap(), p);
    assert!(contiguous.is_empty());

    let (a, b) = bytes.split_at(7);
    let mut chain = Bytes::copy_from_slice(a).chain(Bytes::copy_from_slice(b));
    assert_eq!(decode_buf::<Packet, _>(&mut chain).unwrap(), p);
    assert_eq!(chain.remaining(), 0);

    // Trailing bytes are an error, and the buffer is consumed anyway.
    let mut extra = BytesMut::from(&bytes[..]);
    extra.put_u8(0);
    let e = decode_buf::<Packet, _>(&mut extra).unwrap_err();
    assert_eq!(e.kind(), &DecodeErrorKind::TrailingBytes { count: 1 });
    assert!(extra.is_empty());

    let limits = Limits {
        max_depth: 0,
        ..Limits::DEFAULT
    };
    let mut b = bytes.clone();
    assert!(decode_buf_with_limits::<Packet, _>(&mut b, limits).is_err());
}

#[test]
fn decode_prefix_advances_past_one_value_and_leaves_the_rest() {
    let ps = sample();
    let mut stream = BytesMut::new();
    for p in &ps {
        encode_to_buf(p, &mut stream).unwrap();
    }
    let mut frozen = stream.clone().freeze();
    for p in &ps {
        assert_eq!(&decode_prefix::<Packet, _>(&mut stream).unwrap(), p);
        assert_eq!(&decode_prefix::<Packet, _>(&mut frozen).unwrap(), p);
    }
    assert!(stream.is_empty() && frozen.is_empty());

    // An incomplete value is an error and leaves the buffer unchanged.
    let full = ps[1].encode_to_vec().unwrap();
    let mut partial = Bytes::copy_from_slice(&full[..full.len() - 2]);
    let before = partial.clone();
    assert!(decode_prefix::<Packet, _>(&mut partial).is_err());
    assert_eq!(partial, before);
}

/// An encoding longer than the wire's `u32` length prefixes can frame is an
/// error, and nothing is written. (The 4 GiB of zeros are never touched, so
/// the system hands out no memory for them.)
#[test]
fn encodings_past_four_gibibytes_are_an_error() {
    let huge = Packet::Unknown {
        tag: 200,
        body: vec![0; u32::MAX as usize],
    };
    let mut b = BytesMut::new();
    let e = encode_to_buf(&huge, &mut b).unwrap_err();
    assert!(
        matches!(e.kind(), pkt_runtime::EncodeErrorKind::TooLarge { .. }),
        "{e}"
    );
    assert!(b.is_empty(), "nothing written");
}
