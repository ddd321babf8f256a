//! Stream framing with `FrameDecoder`.

mod common;

use common::{chat, Chat, Packet};
use pkt_runtime::frame::FrameDecoder;
use pkt_runtime::{DecodeErrorKind, Encode, Limits};

fn packets() -> Vec<Packet> {
    vec![
        Packet::Ping(1),
        Packet::Chat(chat("alice", "hello", &["x"])),
        Packet::Unknown {
            tag: 77,
            body: vec![],
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

fn drain(d: &mut FrameDecoder<Packet>, out: &mut Vec<Packet>) {
    while let Some(p) = d.next_frame().unwrap() {
        out.push(p);
    }
}

#[test]
fn several_frames_in_one_push() {
    let ps = packets();
    let mut d = FrameDecoder::new();
    d.push(&stream(&ps));
    let mut got = Vec::new();
    drain(&mut d, &mut got);
    assert_eq!(got, ps);
    assert_eq!(d.buffered(), 0);
    assert_eq!(d.next_frame().unwrap(), None);
}

#[test]
fn byte_at_a_time() {
    let ps = packets();
    let bytes = stream(&ps);
    let mut d = FrameDecoder::<Packet>::default();
    let mut got = Vec::new();
    for (i, b) in bytes.iter().enumerate() {
        d.push(std::slice::from_ref(b));
        drain(&mut d, &mut got);
        assert!(d.buffered() <= i + 1);
    }
    assert_eq!(got, ps);
    assert_eq!(d.buffered(), 0);
    assert_eq!(d.stream_position(), bytes.len());
}

#[test]
fn split_at_every_offset() {
    let ps = packets();
    let bytes = stream(&ps);
    for cut in 0..=bytes.len() {
        let mut d = FrameDecoder::new();
        let mut got = Vec::new();
        d.push(&bytes[..cut]);
        drain(&mut d, &mut got);
        d.push(&bytes[cut..]);
        drain(&mut d, &mut got);
        assert_eq!(got, ps, "cut at {cut}");
        assert_eq!(d.buffered(), 0);
    }
}

#[test]
fn buffer_holds_only_the_partial_frame() {
    let ps = packets();
    let bytes = stream(&ps);
    let first = ps[0].encoded_len();
    let mut d = FrameDecoder::new();
    // The first frame plus three bytes of the second.
    d.push(&bytes[..first + 3]);
    assert_eq!(d.next_frame().unwrap(), Some(ps[0].clone()));
    assert_eq!(d.next_frame().unwrap(), None);
    assert_eq!(d.buffered(), 3);
    d.push(&bytes[first + 3..]);
    assert_eq!(d.buffered(), bytes.len() - first);
}

#[test]
fn oversized_length_is_rejected_before_buffering() {
    let limits = Limits {
        max_frame: 100,
        ..Limits::DEFAULT
    };
    let mut d = FrameDecoder::<Packet>::with_limits(limits);
    let ok = Packet::Ping(5).encode_to_vec().unwrap();
    d.push(&ok);
    d.push(&[101, 0, 0]);
    assert_eq!(d.next_frame().unwrap(), Some(Packet::Ping(5)));
    assert_eq!(d.next_frame().unwrap(), None, "prefix incomplete");
    d.push(&[0]);
    let e = d.next_frame().unwrap_err();
    assert_eq!(
        e.kind(),
        &DecodeErrorKind::LimitExceeded {
            what: "frame length",
            value: 101,
            max: 100
        }
    );
    assert_eq!(e.offset(), ok.len(), "offset of the prefix in the stream");
    assert_eq!(d.buffered(), 0);
    assert!(d.is_failed());
    // The decoder stays failed and buffers nothing more.
    d.push(&[0; 1000]);
    assert_eq!(d.buffered(), 0);
    assert_eq!(d.next_frame().unwrap_err(), e);

    // A frame of exactly max_frame bytes is fine.
    let mut d = FrameDecoder::<Packet>::with_limits(limits);
    let p = Packet::Unknown {
        tag: 3,
        body: vec![9; 99],
    };
    d.push(&p.encode_to_vec().unwrap());
    assert_eq!(d.next_frame().unwrap(), Some(p));

    // Default limit: 16 MiB.
    let mut d = FrameDecoder::<Packet>::new();
    d.push(&0xffff_fff0u32.to_le_bytes());
    assert!(matches!(
        d.next_frame().unwrap_err().kind(),
        DecodeErrorKind::LimitExceeded { .. }
    ));
}

#[test]
fn a_bad_frame_does_not_desync_the_next() {
    let a = Packet::Ping(1).encode_to_vec().unwrap();
    // Ping whose frame has one byte too many.
    let bad = [6, 0, 0, 0, 1, 7, 0, 0, 0, 0xee];
    let c = Packet::Chat(chat("bob", "hi", &[]))
        .encode_to_vec()
        .unwrap();
    // Frame holding invalid UTF-8 in the chat's `from`.
    let mut bad_utf8 = Packet::Chat(chat("bob", "", &[])).encode_to_vec().unwrap();
    let at = bad_utf8.iter().position(|&b| b == b'o').unwrap();
    bad_utf8[at] = 0xff;

    let mut bytes = a.clone();
    bytes.extend_from_slice(&bad);
    bytes.extend_from_slice(&c);
    bytes.extend_from_slice(&bad_utf8);
    bytes.extend_from_slice(&a);

    for chunk in [1, 3, bytes.len()] {
        let mut d = FrameDecoder::<Packet>::new();
        let mut results = Vec::new();
        for piece in bytes.chunks(chunk) {
            d.push(piece);
            loop {
                match d.next_frame() {
                    Ok(Some(p)) => results.push(Ok(p)),
                    Ok(None) => break,
                    Err(e) => results.push(Err((e.kind().clone(), e.offset()))),
                }
            }
        }
        let base_utf8 = a.len() + bad.len() + c.len();
        assert_eq!(
            results,
            vec![
                Ok(Packet::Ping(1)),
                Err((
                    DecodeErrorKind::VariantLength {
                        tag: 1,
                        expected: 5,
                        consumed: 4
                    },
                    a.len() + 9
                )),
                Ok(Packet::Chat(chat("bob", "hi", &[]))),
                Err((DecodeErrorKind::InvalidUtf8, base_utf8 + at)),
                Ok(Packet::Ping(1)),
            ],
            "chunk size {chunk}"
        );
        assert!(!d.is_failed());
    }
}

#[test]
fn zero_length_frame_is_skipped() {
    let mut d = FrameDecoder::<Packet>::new();
    d.push(&[0, 0, 0, 0]);
    d.push(&Packet::Ping(2).encode_to_vec().unwrap());
    let e = d.next_frame().unwrap_err();
    assert_eq!(
        (e.kind(), e.offset()),
        (
            &DecodeErrorKind::UnexpectedEnd {
                needed: 1,
                remaining: 0
            },
            4
        )
    );
    assert_eq!(d.next_frame().unwrap(), Some(Packet::Ping(2)));
}

#[test]
fn limits_apply_inside_frames() {
    let limits = Limits {
        max_len: 3,
        ..Limits::DEFAULT
    };
    let mut d = FrameDecoder::<Packet>::with_limits(limits);
    d.push(
        &Packet::Chat(chat("toolong", "", &[]))
            .encode_to_vec()
            .unwrap(),
    );
    d.push(&Packet::Chat(chat("ok", "", &[])).encode_to_vec().unwrap());
    assert!(matches!(
        d.next_frame().unwrap_err().kind(),
        DecodeErrorKind::LimitExceeded {
            what: "string length",
            ..
        }
    ));
    assert_eq!(
        d.next_frame().unwrap(),
        Some(Packet::Chat(chat("ok", "", &[])))
    );
}

#[test]
fn messages_are_frames_too() {
    let msgs = [chat("a", "b", &["c"]), Chat::default()];
    let mut bytes = Vec::new();
    for m in &msgs {
        m.encode_into(&mut bytes).unwrap();
    }
    let mut d = FrameDecoder::<Chat>::new();
    let mut got = Vec::new();
    for b in &bytes {
        d.push(std::slice::from_ref(b));
        while let Some(m) = d.next_frame().unwrap() {
            got.push(m);
        }
    }
    assert_eq!(got, msgs);
}

#[test]
fn a_flood_of_empty_frames_is_rejected_one_by_one_without_buffering() {
    let mut d = FrameDecoder::<Packet>::new();
    let chunk = [0u8; 4096]; // 1024 empty frames per push
    let mut errors = 0;
    for _ in 0..100 {
        d.push(&chunk);
        assert!(d.buffered() <= chunk.len(), "buffered {}", d.buffered());
        loop {
            match d.next_frame() {
                Ok(None) => break,
                Ok(Some(p)) => panic!("an empty frame decoded as {p:?}"),
                Err(e) => {
                    assert!(matches!(e.kind(), DecodeErrorKind::UnexpectedEnd { .. }));
                    errors += 1;
                }
            }
        }
        assert_eq!(d.buffered(), 0, "every empty frame was consumed");
    }
    assert_eq!(errors, 100 * 1024);
    assert!(
        !d.is_failed(),
        "empty frames are bad frames, not a broken stream"
    );
    d.push(&Packet::Ping(9).encode_to_vec().unwrap());
    assert_eq!(d.next_frame().unwrap(), Some(Packet::Ping(9)));
}

#[test]
fn garbage_between_frames_never_buffers_past_the_frame_limit() {
    // Garbage desynchronises framing: what follows is read as length
    // prefixes. The decoder must report errors or wait, never panic, and
    // never hold more than one frame limit plus the bytes just pushed.
    let limits = Limits {
        max_frame: 4096,
        ..Limits::DEFAULT
    };
    let good = stream(&packets());
    let mut state = 0x1234_5678_9abc_def0u64;
    let mut rand = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for round in 0..200 {
        let mut d = FrameDecoder::<Packet>::with_limits(limits);
        let mut bytes = good.clone();
        let at = (rand() as usize) % bytes.len();
        let garbage: Vec<u8> = (0..1 + rand() % 16).map(|_| rand() as u8).collect();
        bytes.splice(at..at, garbage);
        bytes.extend(std::iter::repeat_n(0xAAu8, 2 * limits.max_frame));
        let (mut decoded, mut errors) = (0, 0);
        for piece in bytes.chunks(1 + (rand() as usize) % 64) {
            d.push(piece);
            assert!(
                d.buffered() <= limits.max_frame + 4 + piece.len(),
                "round {round}: buffered {}",
                d.buffered()
            );
            loop {
                match d.next_frame() {
                    Ok(Some(_)) => decoded += 1,
                    Ok(None) => break,
                    Err(_) if d.is_failed() => break,
                    Err(_) => errors += 1,
                }
            }
            if d.is_failed() {
                break;
            }
        }
        // The tail of 0xAA bytes reads as a 2.8 GB length prefix wherever
        // framing lands, so every round must end with the stream refused.
        assert!(
            d.is_failed(),
            "round {round}: {decoded} decoded, {errors} errors, not failed"
        );
    }
}
