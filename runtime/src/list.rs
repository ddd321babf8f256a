//! Lists: `u32` element count, then the elements.
//!
//! The `*_fixed` functions handle lists of [`FixedSize`] elements with one
//! bounds check per list, and one bulk copy per list of
//! [`Plain`](crate::plain::Plain) elements (`u8`, which is also how `bytes`
//! fields are moved, the other numbers, and structs whose memory is their
//! encoding) on little-endian targets. The other functions take any
//! [`Encode`]/[`Decode`] element.

use crate::error::DecodeError;
use crate::reader::Reader;
use crate::traits::{Decode, Encode, FixedSize};
use crate::writer::Writer;

/// Encoded size of a list of fixed-size elements: `4 + items.len() * T::SIZE`.
#[inline]
pub fn fixed_len<T: FixedSize>(items: &[T]) -> usize {
    4 + items.len() * T::SIZE
}

/// Writes a list of fixed-size elements: count, then one bulk store.
#[inline]
pub fn encode_fixed<T: FixedSize>(items: &[T], w: &mut Writer<'_>) {
    w.put_len(items.len());
    crate::fixed::write_slice(items, w);
}

/// Reads a list of fixed-size elements.
#[inline]
pub fn decode_fixed<T: FixedSize + Decode>(r: &mut Reader<'_>) -> Result<Vec<T>, DecodeError> {
    let count = r.read_count(T::SIZE, T::MEMORY)?;
    let mut v = Vec::with_capacity(count);
    read_fixed_n(&mut v, count, r)?;
    Ok(v)
}

/// Reads a list of fixed-size elements into `v`, replacing its contents and
/// reusing its capacity.
#[inline]
pub fn decode_fixed_into<T: FixedSize + Decode>(
    v: &mut Vec<T>,
    r: &mut Reader<'_>,
) -> Result<(), DecodeError> {
    let count = r.read_count(T::SIZE, T::MEMORY)?;
    read_fixed_n(v, count, r)
}

/// Reads `count` fixed-size elements (a count already read and checked with
/// [`Reader::read_count`]) into `v`, replacing its contents and reusing its
/// capacity. One bounds check for the whole run.
#[inline]
pub fn read_fixed_n<T: FixedSize>(
    v: &mut Vec<T>,
    count: usize,
    r: &mut Reader<'_>,
) -> Result<(), DecodeError> {
    let at = r.position();
    let bytes = r.read_slice(count.saturating_mul(T::SIZE))?;
    v.clear();
    if T::SIZE != 0 {
        reserve_exact(v, count);
    }
    T::read_fixed_into(v, count, bytes, at)
}

/// Room for exactly `additional` more elements. A vector that has not
/// allocated yet (a field of a new value) is allocated at that size at once,
/// which costs less than growing it.
#[inline(always)]
pub(crate) fn reserve_exact<T>(v: &mut Vec<T>, additional: usize) {
    if v.capacity() == 0 {
        // Capacity 0: no allocation and no elements (zero-sized types have
        // capacity `usize::MAX`), so nothing is dropped.
        *v = Vec::with_capacity(additional);
    } else {
        v.reserve_exact(additional);
    }
}

/// A new vector for a list of `count` elements: allocated at that size when
/// the count was checked against the input, which a nonzero
/// `T::MIN_ENCODED_LEN` guarantees; otherwise empty, to grow with the
/// elements actually decoded instead of trusting the count.
#[inline(always)]
pub(crate) fn with_capacity_for<T: Decode>(count: usize) -> Vec<T> {
    Vec::with_capacity(if T::MIN_ENCODED_LEN == 0 { 0 } else { count })
}

/// [`Decode::decode_vec`] for types whose `decode_raw` decodes into a
/// default value (generated variable-size structs): each element is pushed
/// as a default and decoded where it lies in the vector, not built elsewhere
/// and then moved into it. An element that fails to decode is dropped with
/// the vector.
#[inline]
pub fn decode_vec_in_place<T: Decode + Default>(
    count: usize,
    r: &mut Reader<'_>,
) -> Result<Vec<T>, DecodeError> {
    if const { crate::traits::is_placed::<T>() } {
        return decode_vec_placed(count, r);
    }
    let mut v = with_capacity_for::<T>(count);
    while v.len() < count {
        v.push(T::default());
        if let Some(last) = v.last_mut() {
            last.decode_into_raw(r)?;
        }
    }
    Ok(v)
}

/// [`Decode::decode_vec`] for large elements
/// ([`memory::DECODE_IN_PLACE_MIN`](crate::memory::DECODE_IN_PLACE_MIN)):
/// each element is decoded into a placeholder
/// ([`Decode::placeholder`]) pushed where it will lie, so that no stack
/// frame holds an element while it is decoded (the elements of a recursive
/// message would otherwise take stack at every level of nesting).
pub fn decode_vec_placed<T: Decode>(
    count: usize,
    r: &mut Reader<'_>,
) -> Result<Vec<T>, DecodeError> {
    let mut v = with_capacity_for::<T>(count);
    for _ in 0..count {
        crate::traits::push_decoded(&mut v, r)?;
    }
    Ok(v)
}

/// Encoded size of a list: `4 +` the elements' sizes.
#[inline]
pub fn encoded_len<T: Encode>(items: &[T]) -> usize {
    4 + T::slice_encoded_len(items)
}

/// Writes a list: count, then the elements.
#[inline]
pub fn encode<T: Encode>(items: &[T], w: &mut Writer<'_>) {
    w.put_len(items.len());
    T::encode_slice(items, w);
}

/// Reads a list. The count is checked against the input and the limits
/// (using `T::MIN_ENCODED_LEN`) and charged against the decode budget
/// (`T::MEMORY` per element) before the vector is allocated.
#[inline]
pub fn decode<T: Decode>(r: &mut Reader<'_>) -> Result<Vec<T>, DecodeError> {
    let count = r.read_count(T::MIN_ENCODED_LEN, T::MEMORY)?;
    T::decode_vec(count, r)
}

/// Reads a list into `v`: existing elements are decoded into in place
/// (reusing their allocations), extra ones are dropped, missing ones pushed.
#[inline]
pub fn decode_into<T: Decode>(v: &mut Vec<T>, r: &mut Reader<'_>) -> Result<(), DecodeError> {
    let count = r.read_count(T::MIN_ENCODED_LEN, T::MEMORY)?;
    T::decode_vec_into(v, count, r)
}
