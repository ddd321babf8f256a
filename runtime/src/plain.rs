//! Types whose memory is their encoding, moved in bulk.
//!
//! On little-endian targets a list of `u16`..`f64` values, or of a struct
//! made only of them (and arrays and structs of them) with no padding,
//! encodes to exactly its bytes in memory. [`Plain`] marks such types; for
//! them a list is encoded with one copy of the slice's bytes and decoded
//! with one copy into the vector's spare capacity, with no per-element work.
//! On big-endian targets the same functions fall back to the element-wise
//! path, so generated code is the same everywhere.
//!
//! Generated structs get their `Plain` implementation through
//! [`plain!`](crate::plain!), which checks their layout at compile time, so
//! that generated code contains no `unsafe` and a layout that is not the
//! wire layout fails to compile.

use crate::error::DecodeError;
use crate::traits::FixedSize;

/// A [`FixedSize`] type whose in-memory representation on little-endian
/// targets is exactly its wire encoding.
///
/// # Safety
///
/// An implementation promises that `size_of::<Self>() == Self::SIZE`, that
/// on little-endian targets the bytes of a value in memory are exactly what
/// [`FixedSize::write_fixed`] writes for it, and that every byte string of
/// that length is a valid value, the one [`FixedSize::read_fixed`] decodes
/// it to. So: no padding, no `bool`, no enum, no pointer. Use
/// [`plain!`](crate::plain!) for structs, which checks all of that but the
/// field order at compile time.
#[allow(unsafe_code)]
pub unsafe trait Plain: FixedSize + Copy + 'static {}

macro_rules! plain_scalars {
    ($($t:ty)*) => {$(
        // SAFETY: integers and floats have no padding and no invalid bit
        // patterns; their little-endian bytes are their encoding.
        #[allow(unsafe_code)]
        unsafe impl Plain for $t {}
    )*};
}

plain_scalars!(u8 i8 u16 i16 u32 i32 u64 i64 f32 f64);

// SAFETY: an array is its elements back to back, without padding, and so
// is its encoding.
#[allow(unsafe_code)]
unsafe impl<T: Plain, const N: usize> Plain for [T; N] {}

/// `items` as their encoding, on little-endian targets; `None` on
/// big-endian ones. [`FixedSize::wire_bytes`] of a `Plain` type.
#[inline]
pub fn wire_bytes<T: Plain>(items: &[T]) -> Option<&[u8]> {
    #[cfg(target_endian = "little")]
    {
        #[allow(unsafe_code)]
        // SAFETY: `T: Plain` has no padding, so every byte of `items` is
        // initialised; the slice covers exactly `items`' memory and borrows
        // it.
        let bytes = unsafe {
            core::slice::from_raw_parts(items.as_ptr().cast::<u8>(), core::mem::size_of_val(items))
        };
        Some(bytes)
    }
    #[cfg(not(target_endian = "little"))]
    {
        let _ = items;
        None
    }
}

/// Encoded values of `T` as a slice of them, in place, when that is their
/// memory: on little-endian targets, when `bytes` holds a whole number of
/// values and starts at an address aligned for `T`. `None` otherwise
/// (`bytes` of `u8` and `i8` are always aligned).
#[inline]
pub fn from_wire_bytes<T: Plain>(bytes: &[u8]) -> Option<&[T]> {
    #[cfg(target_endian = "little")]
    {
        let size = core::mem::size_of::<T>();
        if size == 0
            || bytes.len() % size != 0
            || (bytes.as_ptr() as usize) % core::mem::align_of::<T>() != 0
        {
            return None;
        }
        #[allow(unsafe_code)]
        // SAFETY: the pointer is aligned for `T` and the `len / size` values
        // lie within `bytes`, which stays borrowed for the result's
        // lifetime; every byte string is a valid `T` (`Plain`) and its
        // little-endian memory is its encoding.
        let values =
            unsafe { core::slice::from_raw_parts(bytes.as_ptr().cast::<T>(), bytes.len() / size) };
        Some(values)
    }
    #[cfg(not(target_endian = "little"))]
    {
        let _ = bytes;
        None
    }
}

/// [`FixedSize::read_fixed_into`] of a `Plain` type: on little-endian
/// targets one reservation and one copy of `bytes` into `v`'s spare
/// capacity; elsewhere element by element.
#[inline]
pub fn read_fixed_into<T: Plain>(
    v: &mut Vec<T>,
    count: usize,
    bytes: &[u8],
    offset: usize,
) -> Result<(), DecodeError> {
    #[cfg(target_endian = "little")]
    {
        let _ = offset;
        let size = core::mem::size_of::<T>();
        // Whole values only, whatever the caller passed.
        let count = bytes.len().checked_div(size).unwrap_or(count);
        crate::list::reserve_exact(v, count);
        let len = v.len();
        #[allow(unsafe_code)]
        // SAFETY: `reserve_exact` made room for `count` more values after
        // `len`; `count * size <= bytes.len()` bytes are copied into that
        // room (which `bytes`, borrowed shared, cannot overlap), and every
        // byte string is a valid `T` (`Plain`), so the first `len + count`
        // values are initialised.
        unsafe {
            core::ptr::copy_nonoverlapping(
                bytes.as_ptr(),
                v.as_mut_ptr().add(len).cast::<u8>(),
                count * size,
            );
            v.set_len(len + count);
        }
        Ok(())
    }
    #[cfg(not(target_endian = "little"))]
    {
        crate::fixed::read_each(v, count, bytes, offset)
    }
}

/// One value from its encoding, with one copy of its bytes, on
/// little-endian targets; `None` on big-endian ones, where the caller reads
/// it field by field. [`FixedSize::read_valid`] of a generated `Plain`
/// struct.
///
/// # Panics
///
/// If `N` is not the size of `T` (generated code passes the type's own
/// size).
#[inline]
pub fn read<T: Plain, const N: usize>(bytes: &[u8; N]) -> Option<T> {
    assert_eq!(
        N,
        core::mem::size_of::<T>(),
        "plain::read of the wrong size"
    );
    #[cfg(target_endian = "little")]
    {
        #[allow(unsafe_code)]
        // SAFETY: `bytes` holds exactly `size_of::<T>()` bytes, read without
        // alignment; every byte string is a valid `T` (`Plain`) and its
        // little-endian memory is its encoding.
        let value = unsafe { core::ptr::read_unaligned(bytes.as_ptr().cast::<T>()) };
        Some(value)
    }
    #[cfg(not(target_endian = "little"))]
    {
        None
    }
}

/// Implements [`Plain`] for a generated struct after checking at compile
/// time that its memory is its wire layout: each field at its wire offset
/// with its wire size and itself `Plain`, the fields covering the whole
/// struct, and the struct's size its [`FixedSize::SIZE`]. A struct that
/// does not match (padding, a reordered or retyped field, a field that is
/// not `Plain`) fails to compile.
///
/// ```
/// #[derive(Clone, Copy, Debug, Default, PartialEq)]
/// #[repr(C)]
/// pub struct Vec2 {
///     pub x: f32,
///     pub y: f32,
/// }
/// # impl pkt_runtime::FixedSize for Vec2 {
/// #     const SIZE: usize = 8;
/// #     fn write_fixed(&self, out: &mut [u8]) {
/// #         self.x.write_fixed(&mut out[..4]);
/// #         self.y.write_fixed(&mut out[4..]);
/// #     }
/// #     fn read_fixed(b: &[u8], at: usize) -> Result<Self, pkt_runtime::DecodeError> {
/// #         Ok(Self { x: f32::read_fixed(&b[..4], at)?, y: f32::read_fixed(&b[4..], at + 4)? })
/// #     }
/// # }
/// # use pkt_runtime::FixedSize;
/// pkt_runtime::plain!(Vec2 { x: f32 = 0..4, y: f32 = 4..8 });
/// ```
///
/// A struct with padding does not compile:
///
/// ```compile_fail
/// #[derive(Clone, Copy)]
/// #[repr(C)]
/// pub struct Padded {
///     pub a: u8,
///     pub b: u32,
/// }
/// # impl pkt_runtime::FixedSize for Padded {
/// #     const SIZE: usize = 5;
/// #     fn write_fixed(&self, out: &mut [u8]) {}
/// #     fn read_fixed(b: &[u8], at: usize) -> Result<Self, pkt_runtime::DecodeError> {
/// #         Ok(Self { a: 0, b: 0 })
/// #     }
/// # }
/// pkt_runtime::plain!(Padded { a: u8 = 0..1, b: u32 = 1..5 });
/// ```
///
/// Nor does one that lists a field twice to leave out another:
///
/// ```compile_fail
/// #[derive(Clone, Copy)]
/// #[repr(C)]
/// pub struct Sneaky {
///     pub a: u16,
///     pub b: u8,
///     pub c: bool,
/// }
/// # impl pkt_runtime::FixedSize for Sneaky {
/// #     const SIZE: usize = 4;
/// #     fn write_fixed(&self, out: &mut [u8]) {}
/// #     fn read_fixed(b: &[u8], at: usize) -> Result<Self, pkt_runtime::DecodeError> {
/// #         Ok(Self { a: 0, b: 0, c: false })
/// #     }
/// # }
/// pkt_runtime::plain!(Sneaky { a: u16 = 0..2, b: u8 = 2..3, b: u8 = 2..3 });
/// ```
#[macro_export]
macro_rules! plain {
    ($t:ident { $($field:ident: $fty:ty = $start:literal..$end:literal),* $(,)? }) => {
        #[allow(deprecated)]
        const _: () = {
            const fn field_is_plain<T: $crate::plain::Plain>() {}
            assert!(::core::mem::size_of::<$t>() == <$t as $crate::FixedSize>::SIZE);
            assert!(0 $(+ ($end - $start))* == ::core::mem::size_of::<$t>());
            $(
                field_is_plain::<$fty>();
                assert!(::core::mem::offset_of!($t, $field) == $start);
                assert!(::core::mem::size_of::<$fty>() == $end - $start);
            )*
            // Each field has the type stated, and every field of the
            // struct is listed exactly once (a struct pattern without `..`
            // rejects a missing or repeated field).
            #[allow(dead_code)]
            fn field_types(v: &$t) {
                let $t { $($field: _),* } = v;
                $(let _: &$fty = &v.$field;)*
            }
        };
        // SAFETY: checked above: the fields are `Plain` and cover the struct
        // without padding at their wire offsets, so its memory is its
        // encoding.
        #[allow(deprecated)]
        unsafe impl $crate::plain::Plain for $t {}
    };
}
