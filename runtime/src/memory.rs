//! The decoded-size model (`docs/security.md`) of generated messages,
//! variable-size structs and unions, computed at compile time from the
//! types they hold. A generated type states its [`Decode::MEMORY`] with
//! [`memory!`](crate::memory!), as the [`record`] or [`union`] of its fields'
//! or variants' types, not as a number: the number follows from those types
//! wherever they are declared, so a change to one schema file changes the
//! generated code of no other.
//!
//! The schema compiler computes the same model (`pktc dump ir` shows it as
//! `memory`); the tests check every generated type against it.

use crate::Decode;

/// The model of one part of a value: its size and alignment in bytes.
pub type Part = (usize, usize);

/// The model of a value of type `T` stored inline.
pub const fn of<T: Decode>() -> Part {
    (T::MEMORY, T::MEMORY_ALIGN)
}

/// `n` rounded up to a multiple of `align` (a power of two), saturating.
const fn round_up(n: usize, align: usize) -> usize {
    n.saturating_add(align - 1) / align * align
}

/// A struct or message: its fields one after another in declaration order,
/// each at its alignment, the whole rounded up to the largest alignment
/// (the layout of `#[repr(C)]`). Returns the size; [`max_align`] is the
/// alignment.
pub const fn record<const N: usize>(fields: [Part; N]) -> usize {
    let mut size = 0;
    let mut i = 0;
    while i < fields.len() {
        size = round_up(size, fields[i].1).saturating_add(fields[i].0);
        i += 1;
    }
    round_up(size, max_align(fields))
}

/// The largest alignment of `parts`, at least 1.
pub const fn max_align<const N: usize>(parts: [Part; N]) -> usize {
    let mut align = 1;
    let mut i = 0;
    while i < parts.len() {
        if parts[i].1 > align {
            align = parts[i].1;
        }
        i += 1;
    }
    align
}

/// A union with a tag of `tag_size` bytes: its largest payload, at least the
/// unknown variant (the tag and the kept bytes, a `Vec<u8>`), rounded up to
/// the largest alignment, plus one alignment unit for the discriminant.
/// Returns the size.
pub const fn union<const N: usize>(tag_size: usize, payloads: [Part; N]) -> usize {
    let (mut size, mut align) = unknown_variant(tag_size);
    let mut i = 0;
    while i < payloads.len() {
        if payloads[i].0 > size {
            size = payloads[i].0;
        }
        if payloads[i].1 > align {
            align = payloads[i].1;
        }
        i += 1;
    }
    round_up(size, align).saturating_add(align)
}

/// The alignment of a union with a tag of `tag_size` bytes: the largest of
/// its payloads' and the unknown variant's.
pub const fn union_align<const N: usize>(tag_size: usize, payloads: [Part; N]) -> usize {
    let unknown = unknown_variant(tag_size).1;
    let payloads = max_align(payloads);
    if payloads > unknown {
        payloads
    } else {
        unknown
    }
}

/// The unknown variant: the tag, then a `Vec<u8>`.
const fn unknown_variant(tag_size: usize) -> Part {
    (
        record([(tag_size, tag_size), of::<Vec<u8>>()]),
        max_align([(tag_size, tag_size), of::<Vec<u8>>()]),
    )
}

/// `Decode::MEMORY` and `Decode::MEMORY_ALIGN` of a generated type, from
/// the types of its fields in declaration order (`record`) or of its union
/// variants' payloads (`union`, after the tag type). A boxed field or
/// variant, optional or not, is written `Box<T>`: a pointer, as
/// `Option<Box<T>>` is in memory. A part may state its model,
/// `= (size, align)`, instead of reading its type's: generated code does for
/// the types of its own schema file and frozen ones, which keeps the chain
/// of constants rustc evaluates as short as the chain of files.
///
/// ```
/// struct Player {
///     id: u32,
///     name: String,
///     best: Option<u64>,
/// }
/// # impl pkt_runtime::Decode for Player {
/// #     fn decode_raw(_: &mut pkt_runtime::Reader<'_>) -> Result<Self, pkt_runtime::DecodeError> { unimplemented!() }
/// pkt_runtime::memory! {
///     record {
///         id: u32,
///         name: String,
///         best: Option<u64> = (16, 8),
///     }
/// }
/// # }
/// use pkt_runtime::Decode;
/// // 4, padding to 8, 24, 16.
/// assert_eq!(Player::MEMORY, 48);
/// assert_eq!(Player::MEMORY_ALIGN, 8);
/// ```
#[macro_export]
macro_rules! memory {
    (record { $($field:ident: $t:ty $(= $part:expr)?,)* }) => {
        const MEMORY: usize = $crate::memory::record([$($crate::memory!(@part $t $(= $part)?)),*]);
        const MEMORY_ALIGN: usize =
            $crate::memory::max_align([$($crate::memory!(@part $t $(= $part)?)),*]);
    };
    (union $tag:ty { $($variant:ident($t:ty) $(= $part:expr)?,)* }) => {
        const MEMORY: usize = $crate::memory::union(
            ::core::mem::size_of::<$tag>(),
            [$($crate::memory!(@part $t $(= $part)?)),*],
        );
        const MEMORY_ALIGN: usize = $crate::memory::union_align(
            ::core::mem::size_of::<$tag>(),
            [$($crate::memory!(@part $t $(= $part)?)),*],
        );
    };
    (@part $t:ty = $part:expr) => {
        $part
    };
    // The type's constants read directly, not through `of`, and the parts
    // passed by value, not by a reference to a promoted array: either adds
    // to rustc's query depth at every level of a chain of types.
    (@part $t:ty) => {
        (<$t as $crate::Decode>::MEMORY, <$t as $crate::Decode>::MEMORY_ALIGN)
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_lay_fields_out_at_their_alignment() {
        // u8, u64, u8: 1 + 7 padding + 8 + 1, rounded up to 8.
        assert_eq!(record([of::<u8>(), of::<u64>(), of::<u8>()]), 24);
        assert_eq!(max_align([of::<u8>(), of::<u64>()]), 8);
        assert_eq!(record([of::<u8>(), of::<u8>()]), 2);
        assert_eq!(record([]), 0);
        // string + u32 enum (8) + u16? (4), rounded up to 8.
        assert_eq!(record([of::<String>(), (8, 4), of::<Option<u16>>()]), 40);
        assert_eq!(record([of::<Box<u64>>()]), 8);
    }

    #[test]
    fn unions_take_their_largest_payload_and_a_discriminant() {
        assert_eq!(union(1, [(2, 1)]), 32 + 8);
        assert_eq!(union(1, [(2, 1), (32768, 8)]), 32768 + 8);
        assert_eq!(union_align(2, [(2, 1)]), 8);
    }
}
