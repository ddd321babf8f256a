//! Allocation counts, measured with a counting global allocator.
//!
//! The counter is thread-local, so tests running in parallel do not disturb
//! each other.

mod common;

use std::collections::BTreeMap;

use common::{chat, Chat, Packet};
use pkt_runtime::{list, Decode, DecodeErrorKind, Encode, Reader};

pkt_test_support::counting_allocator!();

/// Runs `f` and returns its result with the number of allocations it made
/// on this thread.
fn count<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let (r, stats) = pkt_test_support::alloc::measure(f);
    (r, stats.calls)
}

#[test]
fn the_counter_counts() {
    let (v, n) = count(|| vec![1u8; 10]);
    assert_eq!((v.len(), n), (10, 1));
}

#[test]
fn huge_prefixes_fail_without_allocating() {
    let ff = [0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0];
    let is_len = |k: &DecodeErrorKind| matches!(k, DecodeErrorKind::LengthExceedsInput { .. });

    let (r, n) = count(|| String::decode(&ff));
    assert!(is_len(r.unwrap_err().kind()));
    assert_eq!(n, 0, "String");
    let (r, n) = count(|| Vec::<u8>::decode(&ff));
    assert!(is_len(r.unwrap_err().kind()));
    assert_eq!(n, 0, "Vec<u8>");
    let (r, n) = count(|| Vec::<u64>::decode(&ff));
    assert!(is_len(r.unwrap_err().kind()));
    assert_eq!(n, 0, "Vec<u64>");
    let (r, n) = count(|| Vec::<String>::decode(&ff));
    assert!(is_len(r.unwrap_err().kind()));
    assert_eq!(n, 0, "Vec<String>");
    let (r, n) = count(|| BTreeMap::<String, u64>::decode(&ff));
    assert!(is_len(r.unwrap_err().kind()));
    assert_eq!(n, 0, "BTreeMap");
    let (r, n) = count(|| Vec::<Chat>::decode(&ff));
    assert!(is_len(r.unwrap_err().kind()));
    assert_eq!(n, 0, "Vec<Chat>");
    let (r, n) = count(|| Packet::decode(&ff));
    assert!(is_len(r.unwrap_err().kind()));
    assert_eq!(n, 0, "Packet");
    let (r, n) = count(|| list::decode_fixed::<u32>(&mut Reader::new(&ff)));
    assert!(is_len(r.unwrap_err().kind()));
    assert_eq!(n, 0, "decode_fixed");

    // Reusing decoders do not touch the target either.
    let mut s = String::with_capacity(4);
    let (r, n) = count(|| s.decode_into(&ff));
    assert!(r.is_err());
    assert_eq!(n, 0);
}

#[test]
fn decode_into_same_shape_allocates_nothing() {
    let old = vec![
        "first".to_string(),
        "second".to_string(),
        "third!".to_string(),
    ];
    let new = vec!["one".to_string(), "two".to_string(), "three".to_string()];
    let bytes = new.encode_to_vec().unwrap();
    let mut target = old.clone();
    let (r, n) = count(|| target.decode_into(&bytes));
    r.unwrap();
    assert_eq!(target, new);
    assert_eq!(n, 0);

    // Shorter input truncates, still without allocating.
    let shorter = vec!["x".to_string()].encode_to_vec().unwrap();
    let (r, n) = count(|| target.decode_into(&shorter));
    r.unwrap();
    assert_eq!(target, ["x"]);
    assert_eq!(n, 0);

    // Longer input pushes new elements (which must allocate).
    let longer = vec!["a".to_string(), "b".to_string()]
        .encode_to_vec()
        .unwrap();
    let (r, n) = count(|| target.decode_into(&longer));
    r.unwrap();
    assert_eq!(target, ["a", "b"]);
    assert!(n >= 1);

    // A message with strings and a list, decoded into a same-shaped value.
    let mut c = chat("alice", "hello there", &["aa", "bb"]);
    let bytes = chat("bob", "hi", &["c", "d"]).encode_to_vec().unwrap();
    let (r, n) = count(|| c.decode_into(&bytes));
    r.unwrap();
    assert_eq!(c, chat("bob", "hi", &["c", "d"]));
    assert_eq!(n, 0);

    // Fixed lists reuse capacity.
    let mut v: Vec<u32> = Vec::with_capacity(8);
    let bytes = vec![1u32, 2, 3].encode_to_vec().unwrap();
    let (r, n) = count(|| v.decode_into(&bytes));
    r.unwrap();
    assert_eq!((v.as_slice(), n), ([1, 2, 3].as_slice(), 0));
}

#[test]
fn encode_to_vec_allocates_once_and_exactly() {
    let v = Packet::Chat(chat("alice", "hello", &["x", "y"]));
    let len = v.encoded_len();
    let (bytes, n) = count(|| v.encode_to_vec().unwrap());
    assert_eq!(n, 1);
    assert_eq!(bytes.len(), len);
    assert_eq!(bytes.capacity(), len);

    let m = BTreeMap::from([(1u8, "a".to_string()), (2, "b".to_string())]);
    let (bytes, n) = count(|| m.encode_to_vec().unwrap());
    assert_eq!(
        (n, bytes.capacity(), bytes.len()),
        (1, m.encoded_len(), m.encoded_len())
    );
}

#[test]
fn encode_into_with_capacity_allocates_nothing() {
    let v = Packet::Chat(chat("alice", "hello", &["x", "y"]));
    let mut out = Vec::with_capacity(256);
    out.push(0xaa);
    let (_, n) = count(|| {
        v.encode_into(&mut out).unwrap();
        v.encode_into(&mut out).unwrap();
    });
    assert_eq!(n, 0);
    let one = v.encode_to_vec().unwrap();
    assert_eq!(out.len(), 1 + 2 * one.len());
    assert_eq!(&out[1..1 + one.len()], one.as_slice());

    let mut slice = [0u8; 128];
    let (r, n) = count(|| v.encode_to_slice(&mut slice));
    assert_eq!(r.unwrap(), one.len());
    assert_eq!(n, 0);
}

#[test]
fn bytes_decode_allocates_once() {
    let data = vec![7u8; 1000].encode_to_vec().unwrap();
    let (v, n) = count(|| Vec::<u8>::decode(&data));
    assert_eq!(v.unwrap().len(), 1000);
    assert_eq!(n, 1);
    let data = vec![3u16; 100].encode_to_vec().unwrap();
    let (v, n) = count(|| Vec::<u16>::decode(&data));
    assert_eq!(v.unwrap(), [3; 100]);
    assert_eq!(n, 1);
    let data = vec![[1u32, 2]; 10].encode_to_vec().unwrap();
    let (v, n) = count(|| Vec::<[u32; 2]>::decode(&data));
    assert_eq!(v.unwrap(), [[1, 2]; 10]);
    assert_eq!(n, 1);
}

/// The encoding of a map whose keys arrive in the order of `keys`, each with
/// a `[u64; 4]` value.
fn map_in_order(keys: &[u32]) -> Vec<u8> {
    let mut out = (keys.len() as u32).to_le_bytes().to_vec();
    for k in keys {
        out.extend_from_slice(&k.to_le_bytes());
        out.extend_from_slice(&[0; 32]);
    }
    out
}

/// Key orders that leave a B-tree's nodes as empty as insertion can: every
/// split keeps at least 5 of 11 slots, and these make the split leave the
/// smaller half behind, or alternate.
fn hostile_orders(count: u32) -> Vec<(&'static str, Vec<u32>)> {
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut random: Vec<u32> = (0..count).collect();
    for i in (1..random.len()).rev() {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        random.swap(i, (rng % (i as u64 + 1)) as usize);
    }
    vec![
        ("ascending", (0..count).collect()),
        ("descending", (0..count).rev().collect()),
        (
            "alternating ends",
            (0..count)
                .map(|i| if i % 2 == 0 { i / 2 } else { u32::MAX - i / 2 })
                .collect(),
        ),
        // Each new key lands just after the middle of the previous ones'
        // range, where a full leaf splits off its larger half.
        (
            "seventh of eleven",
            (0..count)
                .map(|i| (i % 11) * 0x0100_0000 + (i / 11))
                .collect(),
        ),
        ("random", random),
    ]
}

#[test]
fn a_decoded_map_allocates_at_most_its_charge() {
    // The B-tree's spare slots are charged: a one-entry map of 72-byte
    // values allocates an 11-slot leaf.
    for count in [1u32, 5, 11, 12, 13, 60, 61, 1000, 20_000] {
        for (order, keys) in hostile_orders(count) {
            let input = map_in_order(&keys);
            let limits = pkt_runtime::Limits::DEFAULT;
            let budget = pkt_runtime::DecodeBudget::new(&limits, input.len());
            let (map, stats) = pkt_test_support::alloc::measure(|| {
                let mut r = Reader::with_budget(&input, limits, &budget);
                BTreeMap::<u32, [u64; 4]>::decode_raw(&mut r).expect("valid")
            });
            let charged = limits.decode_budget(input.len()) - budget.memory_left();
            assert_eq!(
                charged,
                pkt_runtime::memory::map(count as usize, 4 + 72),
                "{count} {order}"
            );
            assert!(
                stats.peak <= charged,
                "{count} entries, {order}: peak heap {} over the {charged} charged",
                stats.peak
            );
            assert_eq!(map.len(), count as usize);
        }
    }
}
