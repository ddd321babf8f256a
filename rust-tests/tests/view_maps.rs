//! Views of maps whose keys are out of order at every level
//! (`schemas/hostile.pkt`, issue 35 item 1): the map-keyed tree 64 levels
//! deep and maps nested 62 deep through structs. Each level's set of keys
//! is one allocation, so allocations count the work of validating: a view
//! made the sets of every earlier entry again at every level, twice as many
//! with each level (64 levels never finished). Counted, never timed. Views
//! of the same maps in key order allocate nothing.

use pkt_runtime::view::view;
use pkt_runtime::{Decode, DecodeErrorKind, Encode, Limits, View};
use pkt_rust_tests::test::hostile::{DeepMaps, DeepMapsView, MapTree, MapTreeView};
use pkt_test_support::alloc;

pkt_test_support::counting_allocator!();

fn message(body: &[u8]) -> Vec<u8> {
    let mut out = (body.len() as u32).to_le_bytes().to_vec();
    out.extend_from_slice(body);
    out
}

/// Maps `levels` deep, every level but the last holding key `first` (the
/// rest) and then key `second` (an empty map): see
/// `tests/conformance.rs`. `structs` 0: a `MapTree`; 62: a `DeepMaps`.
fn maps(levels: usize, structs: usize, first: u8, second: u8) -> Vec<u8> {
    let value = |inner: &[u8]| {
        if structs == 0 {
            message(inner)
        } else {
            inner.to_vec()
        }
    };
    let mut map = if structs != 0 && levels == structs {
        vec![2, 0, 0, 0, first, 9, second, 9]
    } else {
        0u32.to_le_bytes().to_vec()
    };
    let empty = value(&0u32.to_le_bytes());
    for _ in 1..levels {
        let mut next = 2u32.to_le_bytes().to_vec();
        next.push(first);
        next.extend(value(&map));
        next.push(second);
        next.extend(&empty);
        map = next;
    }
    message(&map)
}

/// Views `bytes`, reads every part of the view (its `Debug` text walks
/// every map), and takes its owned value: the allocation calls of the view
/// alone, and the value, which must be decode's.
fn viewed<T>(bytes: &[u8]) -> (usize, usize)
where
    T: Decode + Encode + pkt_runtime::Viewable,
    for<'a> T::View<'a>: core::fmt::Debug,
{
    let (v, made) = alloc::measure(|| view::<T::View<'_>>(bytes, Limits::DEFAULT).unwrap());
    let (text, _) = alloc::measure(|| format!("{v:?}"));
    assert!(!text.is_empty());
    let owned = v.into_owned().encode_to_vec().unwrap();
    assert_eq!(owned, T::decode(bytes).unwrap().encode_to_vec().unwrap());
    (made.calls, text.len())
}

#[test]
fn a_map_keyed_tree_out_of_order_views_with_one_set_a_level() {
    for levels in [8, 16, 24, 32, 64] {
        let (calls, _) = viewed::<MapTree>(&maps(levels, 0, 1, 0));
        // One set per level that has two keys.
        assert!(calls < levels, "{levels} levels: {calls} allocations");
        let (sorted, _) = viewed::<MapTree>(&maps(levels, 0, 0, 1));
        assert_eq!(sorted, 0, "{levels} levels in key order");
    }
    let e = view::<MapTreeView>(&maps(65, 0, 1, 0), Limits::DEFAULT).unwrap_err();
    assert!(matches!(e.kind(), DecodeErrorKind::DepthExceeded { .. }));
    assert_eq!(Err(e), MapTree::decode(&maps(65, 0, 1, 0)).map(drop));
}

#[test]
fn maps_nested_62_deep_out_of_order_view_with_one_set_a_level() {
    for levels in [8, 16, 32, 62] {
        let (calls, _) = viewed::<DeepMaps>(&maps(levels, 62, 1, 0));
        assert!(calls <= levels, "{levels} levels: {calls} allocations");
        let (sorted, _) = viewed::<DeepMaps>(&maps(levels, 62, 0, 1));
        assert_eq!(sorted, 0, "{levels} levels in key order");
    }
    // A key repeated at the deepest level: the error decode gives.
    let mut bytes = maps(62, 62, 1, 0);
    let at = 4 + 61 * 5 + 6;
    assert_eq!(bytes[at], 0);
    bytes[at] = 1;
    let e = view::<DeepMapsView>(&bytes, Limits::DEFAULT).unwrap_err();
    assert_eq!(
        (e.kind(), e.offset()),
        (&DecodeErrorKind::DuplicateMapKey, at)
    );
    assert_eq!(Err(e), DeepMaps::decode(&bytes).map(drop));
}
