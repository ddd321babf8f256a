//! The [`Encode`], [`Decode`] and [`FixedSize`] traits.

use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::limits::Limits;
use crate::reader::{DecodeBudget, Reader};
use crate::writer::Writer;

/// A value with a wire encoding.
///
/// Implementations provide the exact size, the raw writer and the limit
/// check; the provided methods handle the output buffer.
///
/// The encoders refuse what the schema's own decoders would reject: before
/// writing anything, [`encode_to_vec`](Encode::encode_to_vec),
/// [`encode_into`](Encode::encode_into) and
/// [`encode_to_slice`](Encode::encode_to_slice) check every `@max` limit and
/// the nesting depth ([`check_limits`](Encode::check_limits)). The
/// `_unchecked` variants skip that walk over the value, for callers that
/// built the value within its limits themselves.
pub trait Encode {
    /// The exact number of bytes [`encode_raw`](Encode::encode_raw) writes.
    fn encoded_len(&self) -> usize;

    /// Writes exactly [`encoded_len`](Encode::encoded_len) bytes.
    fn encode_raw(&self, w: &mut Writer<'_>);

    /// Checks the `@max` limits in this value and the nesting of messages
    /// and unions, `depth` of which are around it: a message or union at
    /// `depth >= max_depth` is [`EncodeErrorKind::DepthExceeded`](crate::EncodeErrorKind::DepthExceeded),
    /// the rule the decoder applies, so the walk never recurses deeper than
    /// `max_depth`. Types that hold neither have nothing to check.
    #[inline]
    fn check_at(&self, depth: u32, max_depth: u32) -> Result<(), EncodeError> {
        let _ = (depth, max_depth);
        Ok(())
    }

    /// Checks this value against the `@max` limits declared in the schema
    /// and the default [`Limits::max_depth`]:
    /// [`EncodeErrorKind::FieldTooLong`](crate::EncodeErrorKind::FieldTooLong)
    /// names the first field over its limit.
    #[inline]
    fn check_limits(&self) -> Result<(), EncodeError> {
        self.check_at(0, Limits::DEFAULT.max_depth)
    }

    /// [`check_limits`](Encode::check_limits) with the depth limit of
    /// `limits`.
    #[inline]
    fn check_limits_with(&self, limits: &Limits) -> Result<(), EncodeError> {
        self.check_at(0, limits.max_depth)
    }

    /// Checks the value ([`check_limits`](Encode::check_limits)), then
    /// encodes it into a new vector, with exactly one allocation of exactly
    /// [`encoded_len`](Encode::encoded_len) bytes. An encoding longer than
    /// the wire's `u32` length prefixes can frame is
    /// [`EncodeErrorKind::TooLarge`](crate::EncodeErrorKind::TooLarge).
    #[inline]
    fn encode_to_vec(&self) -> Result<Vec<u8>, EncodeError> {
        self.check_limits()?;
        let n = crate::writer::frameable(self.encoded_len())?;
        let mut out = Vec::with_capacity(n);
        crate::writer::append(&mut out, n, |w| self.encode_raw(w));
        Ok(out)
    }

    /// Checks the value, then appends its encoding to `out`; allocates
    /// nothing when `out` has the capacity. On error (as for
    /// [`encode_to_vec`](Encode::encode_to_vec)) `out` is unchanged.
    #[inline]
    fn encode_into(&self, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        self.check_limits()?;
        let n = crate::writer::frameable(self.encoded_len())?;
        crate::writer::append(out, n, |w| self.encode_raw(w));
        Ok(())
    }

    /// Checks the value, then encodes it into the front of `out` and returns
    /// the number of bytes written, or
    /// [`EncodeErrorKind::BufferTooSmall`](crate::EncodeErrorKind::BufferTooSmall)
    /// (writing nothing) when `out` is too short; errors as for
    /// [`encode_to_vec`](Encode::encode_to_vec).
    #[inline]
    fn encode_to_slice(&self, out: &mut [u8]) -> Result<usize, EncodeError> {
        self.check_limits()?;
        self.encode_to_slice_unchecked(out)
    }

    /// [`encode_to_vec`](Encode::encode_to_vec) without the limit check: a
    /// value over its limits or nested too deep is written anyway, and its
    /// receiver rejects it.
    ///
    /// # Panics
    ///
    /// When the encoding is longer than `u32::MAX` bytes, which the checked
    /// encoders refuse with an error.
    #[inline]
    fn encode_to_vec_unchecked(&self) -> Vec<u8> {
        let n = self.encoded_len();
        let mut out = Vec::with_capacity(n);
        crate::writer::append(&mut out, n, |w| self.encode_raw(w));
        out
    }

    /// [`encode_into`](Encode::encode_into) without the limit check.
    ///
    /// # Panics
    ///
    /// As [`encode_to_vec_unchecked`](Encode::encode_to_vec_unchecked).
    #[inline]
    fn encode_into_unchecked(&self, out: &mut Vec<u8>) {
        crate::writer::append(out, self.encoded_len(), |w| self.encode_raw(w));
    }

    /// [`encode_to_slice`](Encode::encode_to_slice) without the limit check
    /// (the buffer and the length are still checked).
    #[inline]
    fn encode_to_slice_unchecked(&self, out: &mut [u8]) -> Result<usize, EncodeError> {
        let n = crate::writer::frameable(self.encoded_len())?;
        if out.len() < n {
            return Err(EncodeError::buffer_too_small(n, out.len()));
        }
        let mut w = Writer::new(&mut out[..n]);
        self.encode_raw(&mut w);
        debug_assert_eq!(w.position(), n, "encoded_len disagrees with encode_raw");
        Ok(n)
    }

    /// The encoded size of `items` back to back, without a count. Scalars
    /// override this (and [`encode_slice`](Encode::encode_slice)) with a
    /// multiplication and a bulk store.
    fn slice_encoded_len(items: &[Self]) -> usize
    where
        Self: Sized,
    {
        items.iter().map(Self::encoded_len).sum()
    }

    /// Writes `items` back to back, without a count.
    fn encode_slice(items: &[Self], w: &mut Writer<'_>)
    where
        Self: Sized,
    {
        for item in items {
            item.encode_raw(w);
        }
    }
}

/// A value that can be decoded from its wire encoding.
///
/// Implementations provide [`decode_raw`](Decode::decode_raw); the entry
/// points ([`decode`](Decode::decode) and friends) set up a [`Reader`] whose
/// element budget is shared by every nested body.
pub trait Decode: Sized {
    /// The smallest number of bytes any value of this type encodes to. List
    /// and map counts are checked against `count * MIN_ENCODED_LEN` before
    /// anything is allocated.
    const MIN_ENCODED_LEN: usize = 1;

    /// What one value takes in memory by the decoded-size model
    /// (`docs/security.md`): the amount a list charges per element against
    /// the decode budget. Generated types state the schema compiler's model,
    /// which every language's decoder charges alike; it is at least
    /// `size_of::<Self>()`.
    const MEMORY: usize = core::mem::size_of::<Self>();

    /// The alignment of the model, for the model of `Option<Self>`.
    const MEMORY_ALIGN: usize = core::mem::align_of::<Self>();

    /// Decodes one value from `r`.
    fn decode_raw(r: &mut Reader<'_>) -> Result<Self, DecodeError>;

    /// A value to decode into where the value will live: containers put it
    /// there first and decode into it ([`decode_into_raw`](Decode::decode_into_raw))
    /// when the value is large ([`memory::DECODE_IN_PLACE_MIN`]), rather than
    /// build the value on the stack and move it. The default value for
    /// generated types, zero for numbers, the empty value of strings,
    /// lists, maps and optionals, and arrays of those.
    ///
    /// [`memory::DECODE_IN_PLACE_MIN`]: crate::memory::DECODE_IN_PLACE_MIN
    fn placeholder() -> Self;

    /// Decodes one value into a new box. Generated messages and unions
    /// decode into a default value already in its box, so that a large
    /// recursive value is never built on the stack first.
    #[inline]
    fn decode_boxed(r: &mut Reader<'_>) -> Result<Box<Self>, DecodeError> {
        Self::decode_raw(r).map(Box::new)
    }

    /// Decodes one value from `r` into `self`, reusing its allocations where
    /// the type can. On error `self` holds a valid but unspecified value.
    #[inline]
    fn decode_into_raw(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError> {
        *self = Self::decode_raw(r)?;
        Ok(())
    }

    /// Decodes exactly one value with the default [`Limits`];
    /// [`DecodeErrorKind::TrailingBytes`] if bytes are left over.
    #[inline]
    fn decode(bytes: &[u8]) -> Result<Self, DecodeError> {
        Self::decode_with_limits(bytes, Limits::DEFAULT)
    }

    /// Decodes exactly one value with the given limits.
    #[inline]
    fn decode_with_limits(bytes: &[u8], limits: Limits) -> Result<Self, DecodeError> {
        let budget = DecodeBudget::new(&limits, bytes.len());
        let mut r = Reader::with_budget(bytes, limits, &budget);
        // The result is returned as it came, not unwrapped and wrapped
        // again, so a large value is built where the caller wants it.
        let value = Self::decode_raw(&mut r);
        if value.is_ok() {
            r.expect_end()?;
        }
        value
    }

    /// Decodes one value from the front of `bytes` with the default limits and
    /// returns it with the number of bytes it took.
    #[inline]
    fn decode_prefix(bytes: &[u8]) -> Result<(Self, usize), DecodeError> {
        Self::decode_prefix_with_limits(bytes, Limits::DEFAULT)
    }

    /// [`decode_prefix`](Decode::decode_prefix) with the given limits.
    #[inline]
    fn decode_prefix_with_limits(
        bytes: &[u8],
        limits: Limits,
    ) -> Result<(Self, usize), DecodeError> {
        let budget = DecodeBudget::new(&limits, bytes.len());
        let mut r = Reader::with_budget(bytes, limits, &budget);
        let value = Self::decode_raw(&mut r)?;
        Ok((value, r.position()))
    }

    /// Decodes the values stored back to back in `bytes` and calls `f` with
    /// each, in order. Each value is decoded as
    /// [`decode_prefix`](Decode::decode_prefix) would decode it at the front
    /// of the bytes left (the same checks, limits and budgets of its own);
    /// the first error stops the loop and is returned, its offset counted
    /// from the start of `bytes`. A value that takes no bytes (an empty
    /// struct) ends the run: the bytes after it are
    /// [`DecodeErrorKind::TrailingBytes`].
    ///
    /// One reader serves every value, and each value is handed to `f` from
    /// where it was built, without the reader set-up and the move through a
    /// `(value, length)` pair that calling `decode_prefix` in a loop costs
    /// per value. (Views of the values, and their bytes, come from the
    /// generated `for_each_view`.)
    #[inline]
    fn decode_for_each(bytes: &[u8], f: impl FnMut(Self)) -> Result<(), DecodeError> {
        Self::decode_for_each_with_limits(bytes, Limits::DEFAULT, f)
    }

    /// [`decode_for_each`](Decode::decode_for_each) with the given limits,
    /// which apply to each value.
    #[inline]
    fn decode_for_each_with_limits(
        bytes: &[u8],
        limits: Limits,
        mut f: impl FnMut(Self),
    ) -> Result<(), DecodeError> {
        // A match, not `?`: with `?` the value is copied once more on its
        // way to `f` (a quarter slower on a stream of game frames).
        Reader::back_to_back(
            bytes,
            limits,
            Self::MIN_ENCODED_LEN,
            |r, _| match Self::decode_raw(r) {
                Ok(v) => {
                    f(v);
                    Ok(())
                }
                Err(e) => Err(e),
            },
        )
    }

    /// Decodes exactly one value into `self` with the default limits,
    /// reusing its allocations.
    #[inline]
    fn decode_into(&mut self, bytes: &[u8]) -> Result<(), DecodeError> {
        self.decode_into_with_limits(bytes, Limits::DEFAULT)
    }

    /// [`decode_into`](Decode::decode_into) with the given limits.
    #[inline]
    fn decode_into_with_limits(&mut self, bytes: &[u8], limits: Limits) -> Result<(), DecodeError> {
        let budget = DecodeBudget::new(&limits, bytes.len());
        let mut r = Reader::with_budget(bytes, limits, &budget);
        self.decode_into_raw(&mut r)?;
        r.expect_end()
    }

    /// Decodes `count` values (the count is already read and checked).
    /// Scalars override this with one bounds check for the whole list.
    /// Large values are decoded where they lie in the vector
    /// ([`list::decode_vec_placed`](crate::list::decode_vec_placed)).
    fn decode_vec(count: usize, r: &mut Reader<'_>) -> Result<Vec<Self>, DecodeError> {
        if const { is_placed::<Self>() } {
            return crate::list::decode_vec_placed(count, r);
        }
        let mut v = crate::list::with_capacity_for::<Self>(count);
        for _ in 0..count {
            // A match, not `?`, as in `decode_for_each`: one copy less.
            match Self::decode_raw(r) {
                Ok(x) => v.push(x),
                Err(e) => return Err(e),
            }
        }
        Ok(v)
    }

    /// Decodes `count` values into `v`: existing elements are decoded into
    /// in place ([`decode_into_raw`](Decode::decode_into_raw)), extra ones are
    /// dropped and missing ones pushed.
    fn decode_vec_into(
        v: &mut Vec<Self>,
        count: usize,
        r: &mut Reader<'_>,
    ) -> Result<(), DecodeError> {
        v.truncate(count);
        for item in v.iter_mut() {
            item.decode_into_raw(r)?;
        }
        if Self::MIN_ENCODED_LEN != 0 {
            crate::list::reserve_exact(v, count - v.len());
        }
        if const { is_placed::<Self>() } {
            while v.len() < count {
                push_decoded(v, r)?;
            }
            return Ok(());
        }
        while v.len() < count {
            match Self::decode_raw(r) {
                Ok(x) => v.push(x),
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Decodes `N` values back to back into an array, without allocating.
    fn decode_array<const N: usize>(r: &mut Reader<'_>) -> Result<[Self; N], DecodeError> {
        array_from_fn(|_| Self::decode_raw(r))
    }
}

/// Whether values of `T` are decoded where they will live below the top
/// level ([`memory::DECODE_IN_PLACE_MIN`](crate::memory::DECODE_IN_PLACE_MIN)).
/// Tested in `const` blocks, so that the branch not taken is not compiled
/// for `T` and costs nothing, not even stack in a debug build.
#[inline(always)]
pub(crate) const fn is_placed<T: Decode>() -> bool {
    T::MEMORY >= crate::memory::DECODE_IN_PLACE_MIN
}

/// Pushes [`Decode::placeholder`] onto `v` and returns it, in a stack
/// frame of its own, so that the placeholder takes stack only while it is
/// built, not while it is decoded into.
#[inline(never)]
fn push_placeholder<T: Decode>(v: &mut Vec<T>) -> &mut T {
    v.push(T::placeholder());
    let last = v.len() - 1;
    &mut v[last]
}

/// Decodes one more element of `v` where it will lie, in a placeholder
/// pushed first.
#[inline]
pub(crate) fn push_decoded<T: Decode>(
    v: &mut Vec<T>,
    r: &mut Reader<'_>,
) -> Result<(), DecodeError> {
    push_placeholder(v).decode_into_raw(r)
}

/// Decodes a present `T` into `slot`, which holds none: where it will live
/// for a large `T`, else built by value.
#[inline]
pub(crate) fn decode_some<T: Decode>(
    slot: &mut Option<T>,
    r: &mut Reader<'_>,
) -> Result<(), DecodeError> {
    if const { is_placed::<T>() } {
        return set_placeholder(slot).decode_into_raw(r);
    }
    *slot = Some(T::decode_raw(r)?);
    Ok(())
}

#[inline(never)]
fn set_placeholder<T: Decode>(slot: &mut Option<T>) -> &mut T {
    slot.insert(T::placeholder())
}

/// Makes `slot` the variant `wrap` of [`Decode::placeholder`], in a stack
/// frame of its own. A union's `decode_into_raw` switches to a variant of
/// [`memory::DECODE_IN_PLACE_MIN`](crate::memory::DECODE_IN_PLACE_MIN) bytes
/// or more this way and decodes into its payload where it lies, instead of
/// building it on the stack ([`decode_variant`]), where a recursive union
/// would hold it while its children are decoded.
#[inline(never)]
pub fn set_variant_placeholder<T: Decode, U>(slot: &mut U, wrap: impl FnOnce(T) -> U) {
    *slot = wrap(T::placeholder());
}

/// Resets `slot` to [`Decode::placeholder`] (the type's default), in a
/// stack frame of its own: a message's `decode_into_raw` resets a large
/// field its input leaves out this way, so that the new value does not
/// take stack in the frame that goes on to decode the other fields.
#[inline(never)]
pub fn reset<T: Decode>(slot: &mut T) {
    *slot = T::placeholder();
}

/// A default value in a new box, built outside the caller's stack frame so
/// that recursive decoders keep small frames.
#[inline(never)]
pub fn boxed_default<T: Default>() -> Box<T> {
    Box::default()
}

/// Decodes a `T` and stores `wrap(value)` in `slot`, in a stack frame of its
/// own. A union's `decode_into_raw` calls it to switch to a variant, so that
/// the variant's value and the new union value take stack only while it
/// runs, not on the path through the union's recursive (boxed) variants.
#[inline(never)]
pub fn decode_variant<T: Decode, U>(
    slot: &mut U,
    r: &mut Reader<'_>,
    wrap: impl FnOnce(T) -> U,
) -> Result<(), DecodeError> {
    let value = T::decode_raw(r)?;
    *slot = wrap(value);
    Ok(())
}

/// Stores `wrap(value)` in `slot`, in a stack frame of its own: for a
/// boxed variant decoded before (see [`decode_variant`]).
#[inline(never)]
pub fn set_variant<T, U>(slot: &mut U, value: T, wrap: impl FnOnce(T) -> U) {
    *slot = wrap(value);
}

/// Builds an array from `f`, stopping at the first error. The values are
/// gathered on the stack as `Option`s, so nothing is allocated and no element
/// type needs a placeholder value.
pub(crate) fn array_from_fn<T, const N: usize>(
    mut f: impl FnMut(usize) -> Result<T, DecodeError>,
) -> Result<[T; N], DecodeError> {
    let mut error = None;
    let values: [Option<T>; N] = core::array::from_fn(|i| {
        if error.is_some() {
            return None;
        }
        f(i).map_err(|e| error = Some(e)).ok()
    });
    if let Some(e) = error {
        return Err(e);
    }
    // Every element is `Some`: an error would have returned above.
    Ok(values.map(|v| v.expect("every element was decoded")))
}

/// A type with a fixed wire size: scalars, enums, structs and arrays of them.
///
/// Generated code uses it to read and write such values at constant offsets
/// and to move whole lists of them with one bounds check (see
/// [`list`](crate::list)).
pub trait FixedSize: Sized {
    /// The encoded size in bytes.
    const SIZE: usize;

    /// Writes the value into `out`, which is exactly [`SIZE`](FixedSize::SIZE)
    /// bytes long (panics otherwise).
    fn write_fixed(&self, out: &mut [u8]);

    /// Checks that the value can be written: the ranges of the quantized
    /// floats (`@quantize`) in it, which encoders check before writing
    /// anything ([`Encode::check_at`] of a fixed-size type). Nothing to
    /// check for types without any.
    #[inline]
    fn check_fixed(&self) -> Result<(), EncodeError> {
        Ok(())
    }

    /// Reads a value from `bytes`, which is [`SIZE`](FixedSize::SIZE) bytes
    /// long; `offset` is the absolute offset of `bytes[0]`, for errors. Only
    /// types containing a `bool` can fail on correctly sized input; a short
    /// slice is [`DecodeErrorKind::UnexpectedEnd`].
    fn read_fixed(bytes: &[u8], offset: usize) -> Result<Self, DecodeError>;

    /// Whether every string of [`SIZE`](FixedSize::SIZE) bytes is a valid
    /// value, so that reading one cannot fail: true for numbers, enums (an
    /// unnamed number is `Unknown`) and structs and arrays without a `bool`
    /// inside. Lists of such values are read without a validation pass.
    const TOTAL: bool = false;

    /// Whether `bytes`, exactly [`SIZE`](FixedSize::SIZE) long, hold a valid
    /// value: whether [`read_fixed`](FixedSize::read_fixed) would succeed.
    /// Types that can be invalid (`bool` and what holds one) override it
    /// with a check of only the bytes that can be.
    #[inline]
    fn is_valid(bytes: &[u8]) -> bool {
        Self::read_fixed(bytes, 0).is_ok()
    }

    /// Reads a value from `bytes`, which is exactly
    /// [`SIZE`](FixedSize::SIZE) bytes long and valid
    /// ([`is_valid`](FixedSize::is_valid)), without a `Result`: the value
    /// [`read_fixed`](FixedSize::read_fixed) gives. Panics on a slice of
    /// another length; invalid bytes give an unspecified value or a panic.
    #[inline]
    fn read_valid(bytes: &[u8]) -> Self {
        match Self::read_fixed(bytes, 0) {
            Ok(v) => v,
            Err(e) => panic!("FixedSize::read_valid called with invalid bytes: {e}"),
        }
    }

    /// The error of reading a value from `bytes`, which is shorter than
    /// [`SIZE`](FixedSize::SIZE), at absolute `offset`: the first error in
    /// wire order, scalar by scalar, as every decoder reports it (an invalid
    /// `bool` before the cut, else [`DecodeErrorKind::UnexpectedEnd`] at the
    /// first scalar that does not fit). Structs and arrays override it.
    #[cold]
    fn short_error(bytes: &[u8], offset: usize) -> DecodeError {
        DecodeError::new(
            DecodeErrorKind::UnexpectedEnd {
                needed: Self::SIZE,
                remaining: bytes.len(),
            },
            offset,
        )
    }

    /// `items` as their encoding, when that is their memory: for
    /// [`Plain`](crate::plain::Plain) types on little-endian targets
    /// ([`plain::wire_bytes`](crate::plain::wire_bytes)), which lists and
    /// values then write with one copy. `None` (the default) otherwise.
    #[inline]
    fn wire_bytes(items: &[Self]) -> Option<&[u8]> {
        let _ = items;
        None
    }

    /// Writes `items` back to back into `out` (`items.len() * SIZE` bytes).
    fn write_fixed_slice(items: &[Self], out: &mut [u8]) {
        if Self::SIZE == 0 {
            return;
        }
        for (item, chunk) in items.iter().zip(out.chunks_exact_mut(Self::SIZE)) {
            item.write_fixed(chunk);
        }
    }

    /// Appends the values in `bytes` to `v`: `count` values, `bytes` being
    /// `count * SIZE` bytes long starting at absolute `offset`. On error the
    /// values before the first invalid one have been appended.
    ///
    /// The default checks the values first ([`is_valid`](FixedSize::is_valid),
    /// nothing for [`TOTAL`](FixedSize::TOTAL) types), then reads them
    /// without a `Result` per value ([`fixed::read_valid_into`](crate::fixed::read_valid_into)).
    #[inline]
    fn read_fixed_into(
        v: &mut Vec<Self>,
        count: usize,
        bytes: &[u8],
        offset: usize,
    ) -> Result<(), DecodeError> {
        crate::fixed::read_valid_into(v, count, bytes, offset)
    }

    /// Reads `N` values from `bytes` (`N * SIZE` bytes at absolute
    /// `offset`), without allocating.
    fn read_fixed_array<const N: usize>(
        bytes: &[u8],
        offset: usize,
    ) -> Result<[Self; N], DecodeError> {
        if bytes.len() < N.saturating_mul(Self::SIZE) {
            return Err(crate::fixed::run_error::<Self>(bytes, offset));
        }
        array_from_fn(|i| {
            let at = i * Self::SIZE;
            Self::read_fixed(&bytes[at..at + Self::SIZE], offset + at)
        })
    }
}

/// The default value of a [`FixedSize`] type, which borrowed views of large
/// fixed-size values ([`view::Fixed`](crate::view::Fixed),
/// [`view::FixedArray`](crate::view::FixedArray)) give when they are
/// themselves a default. Unlike [`Default`] it holds for arrays of any
/// length (`[[f32; 16]; 300]`); generated types get it from
/// [`fixed_codec!`](crate::fixed_codec).
pub trait FixedDefault: Sized {
    /// The value `Default::default()` gives, where there is one.
    fn fixed_default() -> Self;
}

impl<T: FixedDefault, const N: usize> FixedDefault for [T; N] {
    #[inline]
    fn fixed_default() -> Self {
        core::array::from_fn(|_| T::fixed_default())
    }
}

macro_rules! fixed_default_by_default {
    ($($t:ty),*) => {$(
        impl FixedDefault for $t {
            #[inline]
            fn fixed_default() -> Self {
                <$t as Default>::default()
            }
        }
    )*};
}

fixed_default_by_default!(bool, u8, u16, u32, u64, i8, i16, i32, i64, f32, f64);

/// The quantity an `@max(N)` limit counts: bytes of a string or `bytes`,
/// elements of a list or map; an absent optional counts 0.
pub trait MaxLen {
    /// The length compared with the limit.
    fn max_len(&self) -> usize;
}

impl MaxLen for String {
    fn max_len(&self) -> usize {
        self.len()
    }
}

impl<T> MaxLen for Vec<T> {
    fn max_len(&self) -> usize {
        self.len()
    }
}

impl<K, V> MaxLen for std::collections::BTreeMap<K, V> {
    fn max_len(&self) -> usize {
        self.len()
    }
}

impl<T: MaxLen> MaxLen for Option<T> {
    fn max_len(&self) -> usize {
        self.as_ref().map_or(0, T::max_len)
    }
}

impl<T: MaxLen + ?Sized> MaxLen for Box<T> {
    fn max_len(&self) -> usize {
        (**self).max_len()
    }
}

/// The depth of the value inside a message or union at `depth`, or
/// [`EncodeErrorKind::DepthExceeded`](crate::EncodeErrorKind::DepthExceeded)
/// when `depth >= max_depth`, as the decoder's rule has it. Generated
/// [`Encode::check_at`] calls it first.
#[inline]
pub fn enter_encode(depth: u32, max_depth: u32) -> Result<u32, EncodeError> {
    if depth >= max_depth {
        Err(EncodeError::new(crate::EncodeErrorKind::DepthExceeded {
            max: max_depth,
        }))
    } else {
        Ok(depth + 1)
    }
}

/// [`EncodeErrorKind::FieldTooLong`](crate::EncodeErrorKind::FieldTooLong)
/// when `value` is longer than the field's `@max`.
#[inline]
pub fn check_max<T: MaxLen + ?Sized>(
    field: &'static str,
    value: &T,
    max: usize,
) -> Result<(), EncodeError> {
    let len = value.max_len();
    if len > max {
        Err(EncodeError::field_too_long(field, len, max))
    } else {
        Ok(())
    }
}
