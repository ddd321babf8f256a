//! `PacketCodec` driven directly through the `tokio_util::codec` traits on a
//! `BytesMut`, the way `Framed` drives it.

mod common;

use std::io;

use bytes::BytesMut;
use common::{chat, Chat, Packet};
use pkt_runtime::codec::{PacketCodec, MAX_RESERVE};
use pkt_runtime::{
    DecodeError, DecodeErrorKind, Encode, EncodeError, EncodeErrorKind, Limits, Writer,
};
use tokio_util::codec::{Decoder, Encoder};

fn packets() -> Vec<Packet> {
    vec![
        Packet::Ping(1),
        Packet::Chat(chat("alice", "hello", &["x", "yz"])),
        Packet::Unknown {
            tag: 77,
            body: vec![9, 8, 7],
        },
        Packet::Chat(Chat::default()),
        Packet::Ping(u32::MAX),
    ]
}

fn stream(ps: &[Packet]) -> Vec<u8> {
    let mut out = Vec::new();
    for p in ps {
        p.encode_into(&mut out).unwrap();
    }
    out
}

fn decode_all(codec: &mut PacketCodec<Packet>, buf: &mut BytesMut) -> Vec<Packet> {
    let mut out = Vec::new();
    while let Some(p) = codec.decode(buf).expect("valid frame") {
        out.push(p);
    }
    out
}

fn decode_error(e: &io::Error) -> &DecodeError {
    e.get_ref()
        .and_then(|inner| inner.downcast_ref::<DecodeError>())
        .unwrap_or_else(|| panic!("not a DecodeError: {e:?}"))
}

#[test]
fn several_frames_in_one_buffer() {
    let ps = packets();
    let mut buf = BytesMut::from(&stream(&ps)[..]);
    let mut codec = PacketCodec::<Packet>::new();
    assert_eq!(decode_all(&mut codec, &mut buf), ps);
    assert!(buf.is_empty());
    assert_eq!(codec.stream_position(), stream(&ps).len());
    assert_eq!(codec.decode_eof(&mut buf).unwrap(), None);
}

#[test]
fn frames_split_at_every_byte_boundary() {
    let ps = packets();
    let bytes = stream(&ps);
    // Two pieces, split at every position.
    for cut in 0..=bytes.len() {
        let mut codec = PacketCodec::<Packet>::new();
        let mut buf = BytesMut::new();
        let mut got = Vec::new();
        for piece in [&bytes[..cut], &bytes[cut..]] {
            buf.extend_from_slice(piece);
            got.extend(decode_all(&mut codec, &mut buf));
        }
        assert_eq!(got, ps, "split at {cut}");
        assert!(buf.is_empty());
    }
    // One byte per call.
    let mut codec = PacketCodec::<Packet>::new();
    let mut buf = BytesMut::new();
    let mut got = Vec::new();
    for b in &bytes {
        buf.extend_from_slice(&[*b]);
        got.extend(decode_all(&mut codec, &mut buf));
    }
    assert_eq!(got, ps);
}

#[test]
fn oversized_prefix_is_rejected_before_buffering_and_the_codec_stays_failed() {
    let limits = Limits {
        max_frame: 1024,
        ..Limits::DEFAULT
    };
    let mut codec = PacketCodec::<Packet>::with_limits(limits);
    let mut buf = BytesMut::new();
    // Three bytes of a prefix announcing 4 GiB: nothing to do yet.
    buf.extend_from_slice(&[0xff, 0xff, 0xff]);
    assert!(codec.decode(&mut buf).unwrap().is_none());
    buf.extend_from_slice(&[0xff, 2, 5]);
    let e = codec.decode(&mut buf).unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::InvalidData);
    let de = decode_error(&e);
    assert_eq!(
        de.kind(),
        &DecodeErrorKind::LimitExceeded {
            what: "frame length",
            value: u32::MAX as usize,
            max: 1024,
        }
    );
    assert_eq!(de.offset(), 0);
    // Nothing was reserved for the announced frame and the bytes are dropped.
    assert!(buf.capacity() < 64, "capacity {}", buf.capacity());
    assert!(buf.is_empty());
    assert!(codec.is_failed());

    // Later input, even valid frames, gets the same error.
    buf.extend_from_slice(&stream(&packets()));
    let again = codec.decode(&mut buf).unwrap_err();
    assert_eq!(decode_error(&again), de);
    assert!(buf.is_empty());
}

#[test]
fn reservation_for_an_announced_frame_is_capped() {
    let mut codec = PacketCodec::<Packet>::new();
    let mut buf = BytesMut::new();
    // A valid prefix (under the default 16 MiB limit) for a 10 MiB frame.
    buf.extend_from_slice(&(10u32 << 20).to_le_bytes());
    assert!(codec.decode(&mut buf).unwrap().is_none());
    assert!(buf.capacity() <= 4 + MAX_RESERVE + 64, "{}", buf.capacity());
    assert!(buf.capacity() >= 4 + MAX_RESERVE);

    // A short frame gets exactly what it needs.
    let mut codec = PacketCodec::<Packet>::new();
    let mut buf = BytesMut::new();
    buf.extend_from_slice(&[10, 0, 0, 0]);
    assert!(codec.decode(&mut buf).unwrap().is_none());
    assert!(buf.capacity() >= 14);
}

#[test]
fn a_bad_frame_is_an_error_and_the_next_frame_decodes() {
    // A Ping frame whose body is one byte short of a u32 (length 4: tag + 3).
    let mut bytes = vec![4, 0, 0, 0, 1, 0xaa, 0xbb, 0xcc];
    let good = Packet::Chat(chat("bob", "hi", &[]));
    good.encode_into(&mut bytes).unwrap();
    let mut codec = PacketCodec::<Packet>::new();
    let mut buf = BytesMut::from(&bytes[..]);

    let e = codec.decode(&mut buf).unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::InvalidData);
    let de = decode_error(&e);
    assert!(
        matches!(de.kind(), DecodeErrorKind::UnexpectedEnd { .. }),
        "{de}"
    );
    // The offset counts from the start of the stream: the u32 starts at 5.
    assert_eq!(de.offset(), 5);
    assert!(!codec.is_failed());

    assert_eq!(codec.decode(&mut buf).unwrap(), Some(good));
    assert!(buf.is_empty());
    assert_eq!(codec.stream_position(), bytes.len());
}

#[test]
fn offsets_of_later_bad_frames_count_from_the_stream_start() {
    let first = Packet::Ping(3);
    let mut bytes = first.encode_to_vec().unwrap();
    let at = bytes.len();
    // Union frame with trailing garbage inside a Ping: VariantLength.
    bytes.extend_from_slice(&[6, 0, 0, 0, 1, 1, 2, 3, 4, 5]);
    let mut codec = PacketCodec::<Packet>::new();
    let mut buf = BytesMut::from(&bytes[..]);
    assert_eq!(codec.decode(&mut buf).unwrap(), Some(first));
    let e = codec.decode(&mut buf).unwrap_err();
    assert!(decode_error(&e).offset() >= at, "{e}");
}

#[test]
fn eof_inside_a_frame_is_unexpected_eof() {
    let bytes = Packet::Ping(5).encode_to_vec().unwrap();
    let mut codec = PacketCodec::<Packet>::new();
    let mut buf = BytesMut::from(&bytes[..bytes.len() - 1]);
    assert!(codec.decode(&mut buf).unwrap().is_none());
    let e = codec.decode_eof(&mut buf).unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::UnexpectedEof);
    assert!(matches!(
        decode_error(&e).kind(),
        DecodeErrorKind::UnexpectedEnd {
            needed: 9,
            remaining: 8
        }
    ));
}

#[test]
fn encoding_equals_encode_to_vec_and_appends() {
    let mut codec = PacketCodec::<Packet>::new();
    let mut dst = BytesMut::new();
    let mut expected = Vec::new();
    for p in packets() {
        let before = dst.len();
        codec.encode(&p, &mut dst).unwrap();
        assert_eq!(&dst[before..], &p.encode_to_vec().unwrap()[..]);
        expected.extend(p.encode_to_vec().unwrap());
        codec.encode(p.clone(), &mut dst).unwrap();
        expected.extend(p.encode_to_vec().unwrap());
    }
    assert_eq!(&dst[..], &expected[..]);
    // What the codec writes, it reads back.
    assert_eq!(
        decode_all(&mut codec, &mut dst),
        packets()
            .into_iter()
            .flat_map(|p| [p.clone(), p])
            .collect::<Vec<_>>()
    );
}

#[test]
fn encoding_reserves_exactly_once() {
    let p = Packet::Chat(chat("carol", &"x".repeat(1000), &["a"; 20]));
    let mut codec = PacketCodec::<Packet>::new();
    let mut dst = BytesMut::new();
    codec.encode(&p, &mut dst).unwrap();
    assert_eq!(dst.len(), p.encoded_len());
    assert_eq!(dst.capacity(), p.encoded_len());
}

/// A frame type with a `@max(8)` field, shaped like generated code.
#[derive(Debug)]
struct Limited(Chat);

impl Encode for Limited {
    fn encoded_len(&self) -> usize {
        5 + self.0.encoded_len()
    }
    fn encode_raw(&self, w: &mut Writer<'_>) {
        let mark = w.begin_len();
        w.put_u8(2);
        self.0.encode_raw(w);
        w.end_len(mark);
    }
    fn check_at(&self, _depth: u32, _max_depth: u32) -> Result<(), EncodeError> {
        pkt_runtime::check_max("Chat.text", &self.0.text, 8)
    }
}

#[test]
fn values_over_their_max_are_refused_and_nothing_is_written() {
    let mut codec = PacketCodec::<Packet, Limited>::new();
    let mut dst = BytesMut::new();
    codec
        .encode(Limited(chat("a", "short", &[])), &mut dst)
        .unwrap();
    let written = dst.len();
    let e = codec
        .encode(&Limited(chat("a", "far too long", &[])), &mut dst)
        .unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
    let inner = e.get_ref().unwrap().downcast_ref::<EncodeError>().unwrap();
    assert!(matches!(
        inner.kind(),
        EncodeErrorKind::FieldTooLong {
            len: 12,
            max: 8,
            ..
        }
    ));
    assert_eq!(dst.len(), written);
    // The accepted value reads back as the Chat variant.
    assert_eq!(
        codec.decode(&mut dst).unwrap(),
        Some(Packet::Chat(chat("a", "short", &[])))
    );
}

#[test]
fn frames_over_the_codecs_own_limit_are_refused() {
    let limits = Limits {
        max_frame: 16,
        ..Limits::DEFAULT
    };
    let mut codec = PacketCodec::<Packet>::with_limits(limits);
    let mut dst = BytesMut::new();
    let big = Packet::Chat(chat("someone", "a long message", &[]));
    let e = codec.encode(&big, &mut dst).unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
    assert!(dst.is_empty());
    codec.encode(&Packet::Ping(1), &mut dst).unwrap();
    assert_eq!(dst.len(), 9);
}

/// An encoding longer than the wire's `u32` length prefixes can frame is an
/// `InvalidInput` error holding `EncodeErrorKind::TooLarge`, and nothing is
/// written (the 4 GiB of zeros are never touched).
#[test]
fn encodings_past_four_gibibytes_are_an_error() {
    let mut codec = PacketCodec::<Packet>::new();
    let huge = Packet::Unknown {
        tag: 200,
        body: vec![0; u32::MAX as usize],
    };
    let mut dst = BytesMut::new();
    let e = codec.encode(&huge, &mut dst).unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
    let inner = e
        .get_ref()
        .and_then(|e| e.downcast_ref::<pkt_runtime::EncodeError>())
        .expect("an EncodeError");
    assert!(
        matches!(inner.kind(), pkt_runtime::EncodeErrorKind::TooLarge { .. }),
        "{inner}"
    );
    assert!(dst.is_empty(), "nothing written");
}
