//! Helpers for generated fixed-size types (structs and enums).

use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::traits::FixedSize;

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

/// `out` as an array of exactly `N` bytes. Generated code always passes a
/// slice of the type's own size; anything else is a bug and panics.
#[inline]
pub fn array_mut<const N: usize>(out: &mut [u8]) -> &mut [u8; N] {
    out.try_into()
        .expect("FixedSize::write_fixed called with a slice of the wrong size")
}

/// [`Encode::encode_into`](crate::Encode::encode_into) for a fixed-size
/// value: one resize and the stores, no [`Writer`](crate::Writer).
#[inline]
pub fn encode_into<T: FixedSize>(v: &T, out: &mut Vec<u8>) {
    let start = out.len();
    out.resize(start + T::SIZE, 0);
    v.write_fixed(&mut out[start..]);
}

/// [`Encode::encode_to_slice`](crate::Encode::encode_to_slice) for a
/// fixed-size value.
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

/// Implements [`Encode`](crate::Encode) and [`Decode`](crate::Decode) for a
/// [`FixedSize`] type that is `Copy + Default`, including the bulk paths that
/// move a whole list or array of it with one bounds check. Generated structs
/// and enums use it.
#[macro_export]
macro_rules! fixed_codec {
    ($t:ty) => {
        impl $crate::Encode for $t {
            #[inline]
            fn encoded_len(&self) -> usize {
                <$t as $crate::FixedSize>::SIZE
            }
            #[inline]
            fn encode_raw(&self, w: &mut $crate::Writer<'_>) {
                let out = w.take_slice(<$t as $crate::FixedSize>::SIZE);
                $crate::FixedSize::write_fixed(self, out);
            }
            #[inline]
            fn encode_into(&self, out: &mut ::std::vec::Vec<u8>) {
                $crate::fixed::encode_into(self, out);
            }
            #[inline]
            fn encode_to_slice(&self, out: &mut [u8]) -> Result<usize, $crate::EncodeError> {
                $crate::fixed::encode_to_slice(self, out)
            }
            #[inline]
            fn slice_encoded_len(items: &[Self]) -> usize {
                items.len() * <$t as $crate::FixedSize>::SIZE
            }
            #[inline]
            fn encode_slice(items: &[Self], w: &mut $crate::Writer<'_>) {
                let out = w.take_slice(items.len() * <$t as $crate::FixedSize>::SIZE);
                <$t as $crate::FixedSize>::write_fixed_slice(items, out);
            }
        }

        impl $crate::Decode for $t {
            const MIN_ENCODED_LEN: usize = <$t as $crate::FixedSize>::SIZE;
            #[inline]
            fn decode_raw(r: &mut $crate::Reader<'_>) -> Result<Self, $crate::DecodeError> {
                let at = r.position();
                let bytes = r.read_slice(<$t as $crate::FixedSize>::SIZE)?;
                <$t as $crate::FixedSize>::read_fixed(bytes, at)
            }
            #[inline]
            fn decode_vec(
                count: usize,
                r: &mut $crate::Reader<'_>,
            ) -> Result<::std::vec::Vec<Self>, $crate::DecodeError> {
                let mut v = ::std::vec::Vec::new();
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
                let bytes = r.read_slice(N.saturating_mul(<$t as $crate::FixedSize>::SIZE))?;
                <$t as $crate::FixedSize>::read_fixed_array(bytes, at)
            }
        }
    };
}
