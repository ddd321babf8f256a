//! The rules of the decoded-size model (`docs/security.md`) that the
//! runtime applies itself: the model of the generic types (arrays, maps),
//! and which values are large enough to be decoded where they will live.
//!
//! The schema compiler states the model of every generated type
//! ([`Decode::MEMORY`](crate::Decode::MEMORY)) with these same constants, and
//! the C# runtime repeats them, so that every decoder charges the same
//! numbers at the same offsets.

/// A `String`, `Vec` or map: pointer, length, capacity.
pub const HANDLE: usize = 24;

/// What an array `[T; N]` adds to its `N` elements: in C# an array is an
/// object of its own, a reference (8 bytes) to a header (32 bytes in Mono
/// and IL2CPP, 24 in .NET) before the elements.
pub const ARRAY: usize = 40;

/// What a C# object adds to its fields (messages, unions, variable-size
/// structs): a reference (8 bytes) to a header (16 bytes).
pub const OBJECT: usize = 24;

/// Slots of a B-tree node of the Rust standard library's `BTreeMap`.
const NODE_SLOTS: usize = 11;

/// The fewest entries a node other than the root holds: a full node split
/// in two keeps at least this many on each side, and decoding never removes
/// entries.
const NODE_MIN_ENTRIES: usize = 5;

/// The model of `[T; n]` whose elements take `elem` each: the elements and
/// [`ARRAY`]. Saturates.
pub const fn array(elem: usize, n: usize) -> usize {
    elem.saturating_mul(n).saturating_add(ARRAY)
}

/// What a decoded map of `count` entries may allocate, where a key and a
/// value take `entry` model bytes together. Rust keeps a map in B-tree
/// nodes of 11 slots: up to 11 entries share one leaf (header, 11 keys and
/// 11 values, whatever the count); a larger map has at most one node per 5
/// entries after the root, each with 12 child links (96 bytes) besides. C#
/// keeps two arrays, which take less. Saturates.
pub const fn map(count: usize, entry: usize) -> usize {
    let leaf = NODE_SLOTS.saturating_mul(entry).saturating_add(40);
    if count == 0 {
        0
    } else if count <= NODE_SLOTS {
        leaf
    } else {
        let node = leaf.saturating_add(96);
        let nodes = 1 + (count - 1).div_ceil(NODE_MIN_ENTRIES);
        node.saturating_mul(nodes)
    }
}

/// Values whose model is at least this many bytes are decoded below the top
/// level where they will live, into a placeholder put there first (see
/// [`Decode::placeholder`](crate::Decode::placeholder)), never built on the
/// stack and moved: a list element, the value of an optional or a map, a
/// union's variant. Smaller values are built on the stack, which is faster;
/// a stack frame of a nesting level holds at most a few of them.
pub const DECODE_IN_PLACE_MIN: usize = 1024;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrays_and_maps() {
        assert_eq!(array(1, 1), 41);
        assert_eq!(array(8, 4096), 32768 + 40);
        assert_eq!(array(usize::MAX, 2), usize::MAX);
        assert_eq!(map(0, 5), 0);
        assert_eq!(map(1, 5), 95);
        assert_eq!(map(11, 5), 95);
        assert_eq!(map(12, 5), 191 * 4);
    }
}
