//! Helpers for generated fixed-size types (structs and enums).

use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::reader::Reader;
use crate::traits::FixedSize;
use crate::writer::Writer;

/// Appends the `count` values in `bytes` (`count * T::SIZE` bytes at
/// absolute `offset`) to `v` one at a time: the default
/// [`FixedSize::read_fixed_into`].
#[inline]
pub fn read_each<T: FixedSize>(
    v: &mut Vec<T>,
    count: usize,
    bytes: &[u8],
    offset: usize,
) -> Result<(), DecodeError> {
    if T::SIZE == 0 {
        for _ in 0..count {
            v.push(T::read_fixed(&[], offset)?);
        }
        return Ok(());
    }
    for (i, chunk) in bytes.chunks_exact(T::SIZE).enumerate() {
        v.push(T::read_fixed(chunk, offset + i * T::SIZE)?);
    }
    Ok(())
}

/// Appends the `count` values in `bytes` (`count * T::SIZE` bytes at
/// absolute `offset`) to `v`: the default [`FixedSize::read_fixed_into`].
/// Unless `T` is [`TOTAL`](FixedSize::TOTAL), a first pass checks every
/// value ([`FixedSize::is_valid`]); then one pass reads them
/// ([`FixedSize::read_valid`]) into the reserved vector, with no `Result`
/// per value. Invalid input takes the [`read_each`] path, for the same
/// error and the same values appended before it.
#[inline]
pub fn read_valid_into<T: FixedSize>(
    v: &mut Vec<T>,
    count: usize,
    bytes: &[u8],
    offset: usize,
) -> Result<(), DecodeError> {
    if T::SIZE == 0 || !(T::TOTAL || bytes.chunks_exact(T::SIZE).all(T::is_valid)) {
        return read_each(v, count, bytes, offset);
    }
    v.extend(bytes.chunks_exact(T::SIZE).map(T::read_valid));
    Ok(())
}

/// Writes `items` back to back: one copy when their memory is their
/// encoding ([`FixedSize::wire_bytes`]), else value by value.
#[inline]
pub fn write_slice<T: FixedSize>(items: &[T], w: &mut Writer<'_>) {
    match T::wire_bytes(items) {
        Some(bytes) => w.put_slice(bytes),
        None => T::write_fixed_slice(items, w.take_slice(items.len() * T::SIZE)),
    }
}

/// Writes one value, as [`write_slice`] does.
#[inline]
pub fn write<T: FixedSize>(v: &T, w: &mut Writer<'_>) {
    match T::wire_bytes(core::slice::from_ref(v)) {
        Some(bytes) => w.put_slice(bytes),
        None => v.write_fixed(w.take_slice(T::SIZE)),
    }
}

/// The next `n` values of `T` as bytes (`n * T::SIZE` of them), or, when
/// fewer are left, the error decoding them one scalar at a time gives (see
/// [`FixedSize::short_error`]).
#[inline]
pub fn read_run<'a, T: FixedSize>(r: &mut Reader<'a>, n: usize) -> Result<&'a [u8], DecodeError> {
    match r.take(n.saturating_mul(T::SIZE)) {
        Some(bytes) => Ok(bytes),
        None => Err(run_error::<T>(r.peek_rest(), r.position())),
    }
}

/// The first error in wire order of values of `T` back to back in `bytes`,
/// which ends inside one of them: an invalid whole value, else the short one.
#[cold]
pub fn run_error<T: FixedSize>(bytes: &[u8], offset: usize) -> DecodeError {
    if T::SIZE == 0 {
        return T::short_error(bytes, offset);
    }
    let whole = bytes.len() / T::SIZE;
    for (i, chunk) in bytes.chunks_exact(T::SIZE).enumerate() {
        if let Err(e) = T::read_fixed(chunk, offset + i * T::SIZE) {
            return e;
        }
    }
    let at = whole * T::SIZE;
    T::short_error(&bytes[at..], offset + at)
}

/// Reads a struct's fields one at a time from truncated bytes, for its
/// [`FixedSize::short_error`]: the first field that is invalid or cut off
/// gives the error.
pub struct Fields<'a> {
    bytes: &'a [u8],
    at: usize,
    offset: usize,
}

impl<'a> Fields<'a> {
    /// Fields of a struct whose (too short) bytes start at absolute `offset`.
    pub fn new(bytes: &'a [u8], offset: usize) -> Self {
        Self {
            bytes,
            at: 0,
            offset,
        }
    }

    /// The next field, of type `T`.
    pub fn field<T: FixedSize>(&mut self) -> Result<T, DecodeError> {
        let rest = self.bytes.get(self.at..).unwrap_or(&[]);
        let offset = self.offset + self.at;
        match rest.get(..T::SIZE) {
            Some(b) => {
                self.at += T::SIZE;
                T::read_fixed(b, offset)
            }
            None => Err(T::short_error(rest, offset)),
        }
    }

    /// The error `read` meets reading the fields in order.
    #[cold]
    pub fn error(mut self, read: impl FnOnce(&mut Self) -> Result<(), DecodeError>) -> DecodeError {
        match read(&mut self) {
            Err(e) => e,
            // Unreachable for bytes shorter than the struct.
            Ok(()) => DecodeError::new(
                DecodeErrorKind::UnexpectedEnd {
                    needed: 1,
                    remaining: 0,
                },
                self.offset + self.at,
            ),
        }
    }
}

/// [`Decode::decode_with_limits`](crate::Decode::decode_with_limits) for a
/// fixed-size value: exactly one value in `bytes`. A fixed-size value nests
/// nothing and charges nothing against the decode budget, so it needs no
/// [`Reader`]; the errors are the ones the reader gives, in the same order
/// (a short or invalid value, then [`DecodeErrorKind::TrailingBytes`]).
#[inline]
pub fn decode_exact<T: FixedSize>(bytes: &[u8]) -> Result<T, DecodeError> {
    let Some(value) = bytes.get(..T::SIZE) else {
        return Err(run_error::<T>(bytes, 0));
    };
    let value = T::read_fixed(value, 0)?;
    if bytes.len() > T::SIZE {
        return Err(DecodeError::new(
            DecodeErrorKind::TrailingBytes {
                count: bytes.len() - T::SIZE,
            },
            T::SIZE,
        ));
    }
    Ok(value)
}

/// `bytes` as an array of exactly `N` bytes, or
/// [`DecodeErrorKind::UnexpectedEnd`] at `offset`.
#[inline]
pub fn array<const N: usize>(bytes: &[u8], offset: usize) -> Result<&[u8; N], DecodeError> {
    bytes.try_into().map_err(|_| {
        DecodeError::new(
            DecodeErrorKind::UnexpectedEnd {
                needed: N,
                remaining: bytes.len(),
            },
            offset,
        )
    })
}

/// `bytes` as an array of exactly `N` bytes. Generated code always passes a
/// slice of the type's own size ([`FixedSize::read_valid`]); anything else is
/// a bug and panics.
#[inline]
pub fn array_ref<const N: usize>(bytes: &[u8]) -> &[u8; N] {
    bytes
        .try_into()
        .expect("FixedSize::read_valid called with a slice of the wrong size")
}

/// `out` as an array of exactly `N` bytes. Generated code always passes a
/// slice of the type's own size; anything else is a bug and panics.
#[inline]
pub fn array_mut<const N: usize>(out: &mut [u8]) -> &mut [u8; N] {
    out.try_into()
        .expect("FixedSize::write_fixed called with a slice of the wrong size")
}

/// [`Encode::encode_into_unchecked`](crate::Encode::encode_into_unchecked) for a fixed-size
/// value: one copy for a value whose memory is its encoding, else one resize
/// and the stores.
#[inline]
pub fn encode_into<T: FixedSize>(v: &T, out: &mut Vec<u8>) {
    match T::wire_bytes(core::slice::from_ref(v)) {
        Some(bytes) => out.extend_from_slice(bytes),
        None => {
            let start = out.len();
            out.resize(start + T::SIZE, 0);
            v.write_fixed(&mut out[start..]);
        }
    }
}

/// Appends a union variant whose payload is fixed-size: `header` (the frame
/// length and the tag, constant for the variant), then the value, in one
/// reservation. What the union's `encode_raw` writes for it.
#[inline]
pub fn append_variant<const H: usize, T: FixedSize>(out: &mut Vec<u8>, header: [u8; H], v: &T) {
    crate::writer::append(out, H + T::SIZE, |w| {
        w.put_array(header);
        write(v, w);
    });
}

/// [`Encode::encode_to_slice_unchecked`](crate::Encode::encode_to_slice_unchecked)
/// for a fixed-size value.
#[inline]
pub fn encode_to_slice<T: FixedSize>(v: &T, out: &mut [u8]) -> Result<usize, EncodeError> {
    match out.get_mut(..T::SIZE) {
        Some(out) => {
            v.write_fixed(out);
            Ok(T::SIZE)
        }
        None => Err(EncodeError::buffer_too_small(T::SIZE, out.len())),
    }
}

/// [`FixedSize::is_valid`] of a generated struct that can be invalid (holds
/// a `bool`): the struct's size, then the type and byte range of each field
/// that can be invalid. Every field is checked, without a branch per field.
///
/// ```
/// # #[derive(Clone, Copy, Debug, Default, PartialEq)]
/// # struct Flags { id: u16, on: bool, bits: [bool; 2] }
/// impl pkt_runtime::FixedSize for Flags {
///     const SIZE: usize = 5;
/// #   fn write_fixed(&self, out: &mut [u8]) {}
/// #   fn read_fixed(b: &[u8], at: usize) -> Result<Self, pkt_runtime::DecodeError> {
/// #       unimplemented!()
/// #   }
///     pkt_runtime::fixed_is_valid! {
///         5;
///         bool = 2..3;
///         [bool; 2] = 3..5;
///     }
/// }
/// use pkt_runtime::FixedSize;
/// assert!(Flags::is_valid(&[7, 7, 1, 0, 1]));
/// assert!(!Flags::is_valid(&[7, 7, 1, 2, 1]));
/// ```
#[macro_export]
macro_rules! fixed_is_valid {
    ($size:literal; $($t:ty = $start:literal..$end:literal;)*) => {
        #[inline]
        fn is_valid(bytes: &[u8]) -> bool {
            let bytes: &[u8; $size] = $crate::fixed::array_ref(bytes);
            true $(& <$t as $crate::FixedSize>::is_valid(&bytes[$start..$end]))*
        }
    };
}

/// Implements [`Encode`](crate::Encode) and [`Decode`](crate::Decode) for a
/// [`FixedSize`] type that is `Copy + Default`, including the bulk paths that
/// move a whole list or array of it with one bounds check. Generated structs
/// and enums use it, with the decoded-size model (`memory`, `align`) the
/// schema compiler computed. (A type deprecated in its schema gets its codec
/// without a warning: implementing it is no use of the type.)
#[macro_export]
macro_rules! fixed_codec {
    ($t:ty, memory = $memory:expr, align = $align:expr) => {
        #[allow(deprecated)]
        impl $crate::Encode for $t {
            #[inline]
            fn encoded_len(&self) -> usize {
                <$t as $crate::FixedSize>::SIZE
            }
            #[inline]
            fn encode_raw(&self, w: &mut $crate::Writer<'_>) {
                $crate::fixed::write(self, w);
            }
            #[inline]
            fn check_at(&self, _depth: u32, _max_depth: u32) -> Result<(), $crate::EncodeError> {
                // Nothing nests in a fixed-size value: only its quantized
                // floats to check.
                <$t as $crate::FixedSize>::check_fixed(self)
            }
            #[inline]
            fn encode_into(
                &self,
                out: &mut ::std::vec::Vec<u8>,
            ) -> Result<(), $crate::EncodeError> {
                // Never too large to frame.
                <$t as $crate::FixedSize>::check_fixed(self)?;
                $crate::fixed::encode_into(self, out);
                Ok(())
            }
            #[inline]
            fn encode_into_unchecked(&self, out: &mut ::std::vec::Vec<u8>) {
                $crate::fixed::encode_into(self, out);
            }
            #[inline]
            fn encode_to_slice_unchecked(
                &self,
                out: &mut [u8],
            ) -> Result<usize, $crate::EncodeError> {
                $crate::fixed::encode_to_slice(self, out)
            }
            #[inline]
            fn slice_encoded_len(items: &[Self]) -> usize {
                items.len() * <$t as $crate::FixedSize>::SIZE
            }
            #[inline]
            fn encode_slice(items: &[Self], w: &mut $crate::Writer<'_>) {
                $crate::fixed::write_slice(items, w);
            }
        }

        #[allow(deprecated)]
        impl $crate::FixedDefault for $t {
            #[inline]
            fn fixed_default() -> Self {
                <$t as ::core::default::Default>::default()
            }
        }

        #[allow(deprecated)]
        impl $crate::Decode for $t {
            const MIN_ENCODED_LEN: usize = <$t as $crate::FixedSize>::SIZE;
            const MEMORY: usize = $memory;
            const MEMORY_ALIGN: usize = $align;
            #[inline]
            fn placeholder() -> Self {
                <$t as ::core::default::Default>::default()
            }
            #[inline]
            fn decode_raw(r: &mut $crate::Reader<'_>) -> Result<Self, $crate::DecodeError> {
                let at = r.position();
                let bytes = $crate::fixed::read_run::<$t>(r, 1)?;
                <$t as $crate::FixedSize>::read_fixed(bytes, at)
            }
            #[inline]
            fn decode_with_limits(
                bytes: &[u8],
                _limits: $crate::Limits,
            ) -> Result<Self, $crate::DecodeError> {
                $crate::fixed::decode_exact(bytes)
            }
            #[inline]
            fn decode_vec(
                count: usize,
                r: &mut $crate::Reader<'_>,
            ) -> Result<::std::vec::Vec<Self>, $crate::DecodeError> {
                let mut v = ::std::vec::Vec::with_capacity(count);
                $crate::list::read_fixed_n(&mut v, count, r)?;
                Ok(v)
            }
            #[inline]
            fn decode_vec_into(
                v: &mut ::std::vec::Vec<Self>,
                count: usize,
                r: &mut $crate::Reader<'_>,
            ) -> Result<(), $crate::DecodeError> {
                $crate::list::read_fixed_n(v, count, r)
            }
            #[inline]
            fn decode_array<const N: usize>(
                r: &mut $crate::Reader<'_>,
            ) -> Result<[Self; N], $crate::DecodeError> {
                let at = r.position();
                let bytes = $crate::fixed::read_run::<$t>(r, N)?;
                <$t as $crate::FixedSize>::read_fixed_array(bytes, at)
            }
        }
    };
}
