//! Borrowed views: read a value in place, without building it.
//!
//! For every message, union and variable-size struct `T`, pktc generates a
//! view type `TView<'a>` and `T::view(&'a [u8])`. Making a view validates
//! the whole input once, with exactly the checks, limits, budget charges and
//! errors of [`Decode::decode`](crate::Decode::decode) (same kind, same
//! offset), and allocates nothing. Then:
//!
//! * scalars, enums and fixed-size structs are fields holding the value;
//! * strings are `&'a str` and `bytes` (and `list<u8>`) are `&'a [u8]`;
//! * lists of fixed-size elements are [`FixedList`]s: `len` and `get(i)` in
//!   O(1), iteration without allocating;
//! * other lists are [`List`]s and maps are [`Map`]s, which read their
//!   elements in order as they iterate;
//! * nested messages, unions and variable-size structs are their views,
//!   except where the owned type boxes them (recursive types): there the
//!   view holds a [`Lazy`], which views its bytes when asked;
//! * fields an older writer did not send hold their defaults, and unknown
//!   union variants their tag and bytes.
//!
//! Every field of a view is read while it is made, so reading one is a
//! field access. What costs more, and how much:
//!
//! * iterating a [`List`] or [`Map`] reads each element again (its checks
//!   included, so a list of strings checks their UTF-8 again), and
//!   [`Map::get`] is a linear search;
//! * [`Lazy::get`] validates its bytes again each time it is called, so a
//!   recursive structure read to the bottom through [`Lazy`] costs its depth
//!   times its size, the depth being at most [`Limits::max_depth`];
//! * a map whose keys are not in increasing order (pktc's encoders always
//!   sort them) is checked for repeated keys with one allocation, as
//!   `decode` does: its entries before the first key out of order are read
//!   once more for their keys, and a map read again is not checked again,
//!   so making a view reads each byte at most once more for each map
//!   around it (linear in the input for a given schema, at most
//!   [`Limits::max_depth`] times over for maps nested through a recursive
//!   message), plus O(n log n) for the keys of unsorted maps. Maps in
//!   increasing key order allocate nothing.
//!
//! [`View::into_owned`] (and the generated `to_owned`) builds the owned
//! value, equal to what `decode` returns for the same bytes.

use core::fmt;
use core::marker::PhantomData;

use crate::error::{DecodeError, DecodeErrorKind};
use crate::limits::Limits;
use crate::reader::Reader;
use crate::traits::{Decode, FixedDefault, FixedSize};

/// A value read in place from validated input.
///
/// Implemented by the generated view types, by fixed-size types (their
/// view is their value), `&'a str`, `&'a [u8]`, `Option`, and the
/// containers of this module.
pub trait View<'a>: Sized {
    /// The owned type this is a view of; its [`Decode`] constants say what
    /// a list or map of views checks and charges per element.
    type Owned: Decode;

    /// Validates one value at the reader's position and returns its view:
    /// the same checks, charges and errors as
    /// [`Decode::decode_raw`] of [`Owned`](View::Owned).
    fn view_raw(r: &mut Reader<'a>) -> Result<Self, DecodeError>;

    /// The owned value, as `decode` would have built it.
    fn into_owned(self) -> Self::Owned;
}

/// An owned type that has a generated view: messages, unions and
/// variable-size structs.
pub trait Viewable: Decode {
    /// The view type, `TView<'a>` for type `T`.
    type View<'a>: View<'a, Owned = Self> + Copy;
}

/// Views exactly one value in `bytes` with the given limits:
/// [`DecodeErrorKind::TrailingBytes`] if bytes are left over.
#[inline]
pub fn view<'a, V: View<'a>>(bytes: &'a [u8], limits: Limits) -> Result<V, DecodeError> {
    let mut r = Reader::with_limits(bytes, limits);
    // Returned as it came, so a large view is built in the caller's slot.
    let value = V::view_raw(&mut r);
    if value.is_ok() {
        r.expect_end()?;
    }
    value
}

/// Views one value at the front of `bytes` with the given limits, and
/// returns it with the number of bytes it took.
#[inline]
pub fn view_prefix<'a, V: View<'a>>(
    bytes: &'a [u8],
    limits: Limits,
) -> Result<(V, usize), DecodeError> {
    let mut r = Reader::with_limits(bytes, limits);
    let value = V::view_raw(&mut r)?;
    Ok((value, r.position()))
}

/// Views the values stored back to back in `bytes`, in order: each as
/// [`view_prefix`] views one at the front of the bytes left (the same
/// checks, and limits and budgets of its own), with error offsets counted
/// from the start of `bytes`. After an error the iterator ends;
/// [`Each::rest`] gives the bytes from the value that failed. A value that
/// takes no bytes (an empty struct) ends the run: the bytes after it are
/// [`DecodeErrorKind::TrailingBytes`], not infinitely many more values.
///
/// One reader serves every value, so a value costs no reader set-up. Each
/// view is moved out to the caller, which for a large view is a copy of all
/// of it; [`for_each`] lends each view instead.
#[inline]
pub fn each<'a, V: View<'a>>(bytes: &'a [u8], limits: Limits) -> Each<'a, V> {
    Each {
        r: Reader::with_limits(bytes, limits),
        failed: false,
        stalled: false,
        view: PhantomData,
    }
}

/// The iterator of [`each`].
pub struct Each<'a, V> {
    r: Reader<'a>,
    failed: bool,
    /// The last value took no bytes: the bytes left are trailing bytes (see
    /// `Reader::check_progress`), the next item's error.
    stalled: bool,
    view: PhantomData<fn() -> V>,
}

impl<'a, V> Each<'a, V> {
    /// How many bytes the values viewed so far took.
    #[inline]
    pub fn position(&self) -> usize {
        self.r.position()
    }

    /// The bytes not viewed yet: after an error, from the value that
    /// failed.
    #[inline]
    pub fn rest(&self) -> &'a [u8] {
        self.r.peek_rest()
    }
}

impl<V> fmt::Debug for Each<'_, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Each")
            .field("position", &self.position())
            .field("rest", &self.rest().len())
            .field("failed", &self.failed)
            .finish()
    }
}

impl<'a, V: View<'a>> Iterator for Each<'a, V> {
    type Item = Result<V, DecodeError>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.r.is_empty() {
            return None;
        }
        if self.stalled {
            self.failed = true;
            return self.r.expect_end().err().map(Err);
        }
        let start = self.r.position();
        self.r.fresh_budget();
        let value = V::view_raw(&mut self.r);
        if value.is_err() {
            self.failed = true;
            self.r.rewind(start);
        } else {
            let min_len = <V::Owned as Decode>::MIN_ENCODED_LEN;
            self.stalled = self.r.check_progress(start, min_len).is_err();
        }
        Some(value)
    }
}

impl<'a, V: View<'a>> core::iter::FusedIterator for Each<'a, V> {}

/// Views the values stored back to back in `bytes`, as [`each`] does, and
/// calls `f` with each view and its encoded bytes, in order; stops at the
/// first error and returns it (its offset counted from the start of
/// `bytes`). The view is built in place and lent to `f`, never moved: a view
/// of a message holds all its fields, and moving one out of an iterator
/// copies all of it, which for the views of a game's server frames (around
/// 170 bytes) is slower than making it.
#[inline]
pub fn for_each<'a, V: View<'a>>(
    bytes: &'a [u8],
    limits: Limits,
    mut f: impl FnMut(&V, &'a [u8]),
) -> Result<(), DecodeError> {
    let min_len = <V::Owned as Decode>::MIN_ENCODED_LEN;
    Reader::back_to_back(bytes, limits, min_len, |r, start| match V::view_raw(r) {
        Ok(ref v) => {
            f(v, &bytes[start..r.position()]);
            Ok(())
        }
        Err(e) => Err(e),
    })
}

/// The limits for reading again what a view validated already: every
/// check still runs, but none can fail on those bytes, which passed
/// stricter limits, at a greater depth, within a smaller budget.
const VALIDATED: Limits = Limits {
    max_depth: u32::MAX,
    max_len: usize::MAX,
    max_frame: usize::MAX,
    max_total_elements: usize::MAX,
    decode_budget_base: usize::MAX,
    decode_budget_per_byte: usize::MAX,
};

/// A reader over bytes a view validated already, to read them again: with
/// the [`VALIDATED`] limits, and maps not checked again for key order and
/// repeats ([`Reader::validated`]). So reading bytes again is linear in
/// them whatever their maps' key orders, and a map whose keys are out of
/// order, which reads its earlier entries again to find their keys
/// ([`keys_in_set`]), makes the maps inside them do nothing of the kind: a
/// byte is read at most once more for each map around it.
#[inline]
fn again(bytes: &[u8]) -> Reader<'_> {
    Reader::validated(bytes, VALIDATED)
}

/// Decodes bytes validated before with `decode`, an owned type's decoder:
/// the owned value of a view of large values, which the decoder places
/// where each will lie instead of building it on the stack (at every level
/// of a recursive value).
fn decode_validated<'a, T>(
    bytes: &'a [u8],
    decode: impl FnOnce(&mut Reader<'a>) -> Result<T, DecodeError>,
) -> T {
    match decode(&mut again(bytes)) {
        Ok(v) => v,
        Err(e) => unreachable!("bytes validated when the view was made: {e}"),
    }
}

/// Reads a view from bytes validated before, as the same type.
#[inline]
fn revalidated<'a, V: View<'a>>(r: &mut Reader<'a>) -> V {
    match V::view_raw(r) {
        Ok(v) => v,
        Err(e) => unreachable!("bytes validated when the view was made: {e}"),
    }
}

/// A reader's position, to take the bytes read since: generated views keep
/// the encoded bytes they read.
#[derive(Clone, Copy, Debug)]
pub struct Mark<'a> {
    rest: &'a [u8],
    start: usize,
}

impl<'a> Mark<'a> {
    /// The reader's current position.
    #[inline]
    pub fn new(r: &Reader<'a>) -> Self {
        Mark {
            rest: r.peek_rest(),
            start: r.position(),
        }
    }

    /// The bytes `r` read since the mark was made.
    #[inline]
    pub fn bytes(&self, r: &Reader<'a>) -> &'a [u8] {
        &self.rest[..r.position() - self.start]
    }
}

/// The bytes `read` consumed from `r`.
#[inline]
fn consumed<'a, T>(
    r: &mut Reader<'a>,
    read: impl FnOnce(&mut Reader<'a>) -> Result<T, DecodeError>,
) -> Result<(T, &'a [u8]), DecodeError> {
    let rest = r.peek_rest();
    let start = r.position();
    let value = read(r)?;
    Ok((value, &rest[..r.position() - start]))
}

// Fixed-size values are their own views.
impl<'a, T: FixedSize + Decode + Copy> View<'a> for T {
    type Owned = T;
    #[inline]
    fn view_raw(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        T::decode_raw(r)
    }
    #[inline]
    fn into_owned(self) -> T {
        self
    }
}

impl<'a> View<'a> for &'a str {
    type Owned = String;
    #[inline]
    fn view_raw(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        r.read_str()
    }
    #[inline]
    fn into_owned(self) -> String {
        String::from(self)
    }
}

/// `bytes` and `list<u8>`, which decode alike.
impl<'a> View<'a> for &'a [u8] {
    type Owned = Vec<u8>;
    #[inline]
    fn view_raw(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let count = r.read_count(<u8 as Decode>::MIN_ENCODED_LEN, <u8 as Decode>::MEMORY)?;
        r.read_slice(count)
    }
    #[inline]
    fn into_owned(self) -> Vec<u8> {
        self.to_vec()
    }
}

impl<'a, T: View<'a>> View<'a> for Option<T> {
    type Owned = Option<T::Owned>;
    #[inline]
    fn view_raw(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        if r.read_option_flag()? {
            T::view_raw(r).map(Some)
        } else {
            Ok(None)
        }
    }
    #[inline]
    fn into_owned(self) -> Self::Owned {
        self.map(T::into_owned)
    }
}

/// An array of variable-size elements (`[string; 2]`), each viewed.
/// Arrays of fixed-size elements are fixed-size, and their own views.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Array<V, const N: usize>(pub [V; N]);

impl<V: Default, const N: usize> Default for Array<V, N> {
    fn default() -> Self {
        Array(core::array::from_fn(|_| V::default()))
    }
}

impl<'a, V: View<'a>, const N: usize> View<'a> for Array<V, N> {
    type Owned = [V::Owned; N];
    #[inline]
    fn view_raw(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        crate::traits::array_from_fn(|_| V::view_raw(r)).map(Array)
    }
    #[inline]
    fn into_owned(self) -> Self::Owned {
        self.0.map(V::into_owned)
    }
}

/// A large array of variable-size elements (`[string; 1000]`), validated
/// and then read in place like a [`List`] of `N` elements rather than
/// copied into the view, so that a view is small whatever its schema.
pub struct ListArray<'a, V, const N: usize>(List<'a, V>);

impl<V, const N: usize> Clone for ListArray<'_, V, N> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<V, const N: usize> Copy for ListArray<'_, V, N> {}

impl<V, const N: usize> Default for ListArray<'_, V, N> {
    /// The view of the default array, `N` default elements (read from no
    /// bytes: [`get`](ListArray::get) and [`iter`](ListArray::iter) give
    /// default views).
    fn default() -> Self {
        ListArray(List::default())
    }
}

impl<'a, V: View<'a> + Default + 'a, const N: usize> ListArray<'a, V, N> {
    /// The number of elements, `N`.
    #[inline]
    pub fn len(&self) -> usize {
        N
    }

    /// Whether the array has no elements (never: arrays have at least one).
    #[inline]
    pub fn is_empty(&self) -> bool {
        N == 0
    }

    /// The encoded elements, back to back (empty for a default view).
    #[inline]
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0.bytes
    }

    /// The elements in order, each read as it is reached.
    pub fn iter(&self) -> impl Iterator<Item = V> + 'a {
        let read = self.0.iter();
        let defaults = N - self.0.count;
        read.chain((0..defaults).map(|_| V::default()))
    }

    /// Element `i`, or `None` past the end: reads the elements before it.
    pub fn get(&self, i: usize) -> Option<V> {
        self.iter().nth(i)
    }
}

impl<'a, V, const N: usize> ListArray<'a, V, N> {
    /// [`View::view_raw`] with each element validated by `elem` (which
    /// checks the limits on it, [`crate::max`]).
    pub(crate) fn view_with(
        r: &mut Reader<'a>,
        mut elem: impl FnMut(&mut Reader<'a>) -> Result<V, DecodeError>,
    ) -> Result<Self, DecodeError> {
        // As `Decode for [T; N]`: the elements back to back, no count.
        let ((), bytes) = consumed(r, |r| {
            for _ in 0..N {
                elem(r)?;
            }
            Ok(())
        })?;
        Ok(ListArray(List {
            bytes,
            count: N,
            _elem: PhantomData,
        }))
    }
}

impl<'a, V, const N: usize> View<'a> for ListArray<'a, V, N>
where
    V: View<'a> + Default,
    [V::Owned; N]: Decode,
{
    type Owned = [V::Owned; N];
    #[inline]
    fn view_raw(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        Self::view_with(r, V::view_raw)
    }
    /// Decodes the elements again with the owned type's decoder, which
    /// places large ones where they lie.
    fn into_owned(self) -> Self::Owned {
        if self.0.count == N {
            decode_validated(self.0.bytes, <[V::Owned; N]>::decode_raw)
        } else {
            // A default view: no bytes, default elements.
            core::array::from_fn(|_| V::default().into_owned())
        }
    }
}

impl<'a, V: View<'a> + Default + fmt::Debug + 'a, const N: usize> fmt::Debug
    for ListArray<'a, V, N>
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// A list of fixed-size elements, read in place: [`len`](FixedList::len)
/// and [`get`](FixedList::get) in O(1).
pub struct FixedList<'a, T> {
    bytes: &'a [u8],
    count: usize,
    _elem: PhantomData<fn() -> T>,
}

impl<T> Clone for FixedList<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for FixedList<'_, T> {}

impl<T> Default for FixedList<'_, T> {
    fn default() -> Self {
        FixedList {
            bytes: &[],
            count: 0,
            _elem: PhantomData,
        }
    }
}

impl<'a, T: FixedSize> FixedList<'a, T> {
    /// The number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether the list has no elements.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The encoded elements, `len() * T::SIZE` bytes.
    #[inline]
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Element `i`, or `None` past the end.
    #[inline]
    pub fn get(&self, i: usize) -> Option<T> {
        if i >= self.count {
            return None;
        }
        let at = i * T::SIZE;
        Some(T::read_valid(&self.bytes[at..at + T::SIZE]))
    }

    /// The elements in order.
    #[inline]
    pub fn iter(&self) -> FixedIter<'a, T> {
        FixedIter {
            bytes: self.bytes,
            left: self.count,
            _elem: PhantomData,
        }
    }

    /// The elements in a new vector.
    pub fn to_vec(&self) -> Vec<T> {
        self.iter().collect()
    }
}

impl<'a, T: crate::plain::Plain> FixedList<'a, T> {
    /// The elements as a slice of the input, without copying, when their
    /// memory is their encoding ([`Plain`](crate::plain::Plain) types, such
    /// as numbers and generated structs of numbers without padding) on a
    /// little-endian target and the input is aligned for `T` there. `None`
    /// otherwise; [`get`](FixedList::get) and [`iter`](FixedList::iter)
    /// always work.
    #[inline]
    pub fn as_slice(&self) -> Option<&'a [T]> {
        crate::plain::from_wire_bytes(self.bytes)
    }
}

/// Checks the `count` values of `T` in `bytes` (at absolute offset `at`)
/// as reading them would: the first invalid one is the error. Nothing to do
/// for [`TOTAL`](FixedSize::TOTAL) types; the others are checked with
/// [`FixedSize::is_valid`], and only invalid input is read value by value,
/// for the error.
#[inline]
fn check_each<T: FixedSize>(bytes: &[u8], count: usize, at: usize) -> Result<(), DecodeError> {
    if T::TOTAL || (T::SIZE != 0 && bytes.chunks_exact(T::SIZE).all(T::is_valid)) {
        return Ok(());
    }
    if T::SIZE == 0 {
        for _ in 0..count {
            T::read_fixed(&[], at)?;
        }
    } else {
        for (i, chunk) in bytes.chunks_exact(T::SIZE).enumerate() {
            T::read_fixed(chunk, at + i * T::SIZE)?;
        }
    }
    Ok(())
}

impl<'a, T: FixedSize + Decode> View<'a> for FixedList<'a, T> {
    type Owned = Vec<T>;
    #[inline]
    fn view_raw(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        // As `list::decode`: the count, then one run of elements, each
        // checked as `FixedSize::read_fixed_into` checks it.
        let count = r.read_count(T::MIN_ENCODED_LEN, T::MEMORY)?;
        let at = r.position();
        let bytes = r.read_slice(count.saturating_mul(T::SIZE))?;
        check_each::<T>(bytes, count, at)?;
        Ok(FixedList {
            bytes,
            count,
            _elem: PhantomData,
        })
    }
    #[inline]
    fn into_owned(self) -> Vec<T> {
        self.to_vec()
    }
}

impl<'a, T: FixedSize> IntoIterator for FixedList<'a, T> {
    type Item = T;
    type IntoIter = FixedIter<'a, T>;
    fn into_iter(self) -> FixedIter<'a, T> {
        self.iter()
    }
}

impl<T: FixedSize + fmt::Debug> fmt::Debug for FixedList<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The elements of a [`FixedList`].
pub struct FixedIter<'a, T> {
    bytes: &'a [u8],
    left: usize,
    _elem: PhantomData<fn() -> T>,
}

impl<T: FixedSize> Iterator for FixedIter<'_, T> {
    type Item = T;
    #[inline]
    fn next(&mut self) -> Option<T> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let (head, rest) = self.bytes.split_at(T::SIZE);
        self.bytes = rest;
        Some(T::read_valid(head))
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl<T: FixedSize> ExactSizeIterator for FixedIter<'_, T> {}

/// A large fixed-size array (`[u64; 4096]`), read in place like a
/// [`FixedList`] of `N` elements rather than copied into the view.
pub struct FixedArray<'a, T, const N: usize>(FixedList<'a, T>);

impl<T, const N: usize> Clone for FixedArray<'_, T, N> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, const N: usize> Copy for FixedArray<'_, T, N> {}

impl<T: FixedSize + FixedDefault + Copy, const N: usize> Default for FixedArray<'_, T, N> {
    /// An array of default values: its bytes are `N` encoded defaults,
    /// which a view cannot borrow from anywhere, so [`get`](FixedArray::get)
    /// gives `T::fixed_default()` for them.
    fn default() -> Self {
        FixedArray(FixedList::default())
    }
}

impl<'a, T: FixedSize + FixedDefault + 'a, const N: usize> FixedArray<'a, T, N> {
    /// `N`.
    #[inline]
    pub fn len(&self) -> usize {
        N
    }

    /// Whether `N` is 0.
    #[inline]
    pub fn is_empty(&self) -> bool {
        N == 0
    }

    /// Element `i`, or `None` past the end.
    #[inline]
    pub fn get(&self, i: usize) -> Option<T> {
        if i >= N {
            return None;
        }
        Some(self.0.get(i).unwrap_or_else(T::fixed_default))
    }

    /// The elements in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = T> + 'a {
        let list = self.0;
        (0..N).map(move |i| list.get(i).unwrap_or_else(T::fixed_default))
    }

    /// The encoded elements (empty for a default view).
    #[inline]
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0.as_bytes()
    }

    /// The array.
    pub fn to_array(&self) -> [T; N] {
        let list = self.0;
        core::array::from_fn(|i| list.get(i).unwrap_or_else(T::fixed_default))
    }
}

impl<'a, T: crate::plain::Plain, const N: usize> FixedArray<'a, T, N> {
    /// The elements in place, as [`FixedList::as_slice`].
    #[inline]
    pub fn as_slice(&self) -> Option<&'a [T]> {
        if self.0.count != N {
            return None;
        }
        self.0.as_slice()
    }
}

impl<'a, T, const N: usize> View<'a> for FixedArray<'a, T, N>
where
    T: FixedSize + FixedDefault + Decode + Copy,
    [T; N]: Decode,
{
    type Owned = [T; N];
    #[inline]
    fn view_raw(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        // As `Decode for [T; N]`: one run, then each value checked.
        let at = r.position();
        let bytes = crate::fixed::read_run::<T>(r, N)?;
        check_each::<T>(bytes, N, at)?;
        Ok(FixedArray(FixedList {
            bytes,
            count: N,
            _elem: PhantomData,
        }))
    }
    #[inline]
    fn into_owned(self) -> [T; N] {
        self.to_array()
    }
}

impl<T: FixedSize + FixedDefault + fmt::Debug, const N: usize> fmt::Debug for FixedArray<'_, T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// A large fixed-size value other than an array, read in place and
/// decoded when asked ([`get`](Fixed::get)) rather than copied into the
/// view.
pub struct Fixed<'a, T> {
    /// Empty for a default view.
    bytes: &'a [u8],
    _value: PhantomData<fn() -> T>,
}

impl<T> Clone for Fixed<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Fixed<'_, T> {}

impl<T> Default for Fixed<'_, T> {
    fn default() -> Self {
        Fixed {
            bytes: &[],
            _value: PhantomData,
        }
    }
}

impl<'a, T: FixedSize + FixedDefault> Fixed<'a, T> {
    /// The value.
    #[inline]
    pub fn get(&self) -> T {
        if self.bytes.is_empty() && T::SIZE != 0 {
            return T::fixed_default();
        }
        T::read_valid(self.bytes)
    }

    /// The encoded value (empty for a default view).
    #[inline]
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }
}

impl<'a, T: FixedSize + FixedDefault + Decode> View<'a> for Fixed<'a, T> {
    type Owned = T;
    #[inline]
    fn view_raw(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let at = r.position();
        let bytes = crate::fixed::read_run::<T>(r, 1)?;
        T::read_fixed(bytes, at)?;
        Ok(Fixed {
            bytes,
            _value: PhantomData,
        })
    }
    #[inline]
    fn into_owned(self) -> T {
        self.get()
    }
}

impl<T: FixedSize + FixedDefault + fmt::Debug> fmt::Debug for Fixed<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.get().fmt(f)
    }
}

/// A list of variable-size elements, each read as the list is iterated.
pub struct List<'a, V> {
    bytes: &'a [u8],
    count: usize,
    _elem: PhantomData<fn() -> V>,
}

impl<V> Clone for List<'_, V> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<V> Copy for List<'_, V> {}

impl<V> Default for List<'_, V> {
    fn default() -> Self {
        List {
            bytes: &[],
            count: 0,
            _elem: PhantomData,
        }
    }
}

impl<'a, V: View<'a>> List<'a, V> {
    /// The number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether the list has no elements.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The encoded elements, back to back.
    #[inline]
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The elements in order, each read as it is reached.
    #[inline]
    pub fn iter(&self) -> ListIter<'a, V> {
        ListIter {
            r: again(self.bytes),
            left: self.count,
            _elem: PhantomData,
        }
    }

    /// Element `i`, or `None` past the end: reads the elements before it.
    pub fn get(&self, i: usize) -> Option<V> {
        self.iter().nth(i)
    }
}

impl<'a, V: View<'a>> List<'a, V> {
    /// [`View::view_raw`] with each element validated by `elem` (which
    /// checks the limits on it, [`crate::max`]).
    #[inline]
    pub(crate) fn view_with(
        r: &mut Reader<'a>,
        mut elem: impl FnMut(&mut Reader<'a>) -> Result<V, DecodeError>,
    ) -> Result<Self, DecodeError> {
        let count = r.read_count(
            <V::Owned as Decode>::MIN_ENCODED_LEN,
            <V::Owned as Decode>::MEMORY,
        )?;
        let ((), bytes) = consumed(r, |r| {
            for _ in 0..count {
                elem(r)?;
            }
            Ok(())
        })?;
        Ok(List {
            bytes,
            count,
            _elem: PhantomData,
        })
    }
}

impl<'a, V: View<'a>> View<'a> for List<'a, V> {
    type Owned = Vec<V::Owned>;
    #[inline]
    fn view_raw(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        Self::view_with(r, V::view_raw)
    }
    fn into_owned(self) -> Self::Owned {
        if const { crate::traits::is_placed::<V::Owned>() } {
            return decode_validated(self.bytes, |r| V::Owned::decode_vec(self.count, r));
        }
        let mut v = Vec::with_capacity(self.count);
        v.extend(self.iter().map(V::into_owned));
        v
    }
}

impl<'a, V: View<'a>> IntoIterator for List<'a, V> {
    type Item = V;
    type IntoIter = ListIter<'a, V>;
    fn into_iter(self) -> ListIter<'a, V> {
        self.iter()
    }
}

impl<'a, V: View<'a> + fmt::Debug> fmt::Debug for List<'a, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The elements of a [`List`].
pub struct ListIter<'a, V> {
    r: Reader<'a>,
    left: usize,
    _elem: PhantomData<fn() -> V>,
}

impl<'a, V: View<'a>> Iterator for ListIter<'a, V> {
    type Item = V;
    #[inline]
    fn next(&mut self) -> Option<V> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        Some(revalidated(&mut self.r))
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl<'a, V: View<'a>> ExactSizeIterator for ListIter<'a, V> {}

/// A map, its entries read in wire order (increasing key order, as
/// pktc's encoders write it) as it is iterated.
pub struct Map<'a, K, V> {
    bytes: &'a [u8],
    count: usize,
    _entry: PhantomData<fn() -> (K, V)>,
}

impl<K, V> Clone for Map<'_, K, V> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<K, V> Copy for Map<'_, K, V> {}

impl<K, V> Default for Map<'_, K, V> {
    fn default() -> Self {
        Map {
            bytes: &[],
            count: 0,
            _entry: PhantomData,
        }
    }
}

impl<'a, K: View<'a>, V: View<'a>> Map<'a, K, V> {
    /// The number of entries.
    #[inline]
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether the map has no entries.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The encoded entries, back to back.
    #[inline]
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The entries in wire order, each read as it is reached.
    #[inline]
    pub fn iter(&self) -> MapIter<'a, K, V> {
        MapIter {
            r: again(self.bytes),
            left: self.count,
            _entry: PhantomData,
        }
    }

    /// The value for `key` (`map.get("name")`, `map.get(7)`), by a linear
    /// search.
    pub fn get(&self, key: K) -> Option<V>
    where
        K: PartialEq,
    {
        self.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }
}

impl<'a, K, V> View<'a> for Map<'a, K, V>
where
    K: View<'a> + Ord + Copy,
    K::Owned: Ord,
    V: View<'a>,
{
    type Owned = std::collections::BTreeMap<K::Owned, V::Owned>;

    fn view_raw(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        Self::view_with(r, K::view_raw, V::view_raw)
    }

    fn into_owned(self) -> Self::Owned {
        if const { crate::traits::is_placed::<V::Owned>() } {
            return decode_validated(self.bytes, |r| {
                let mut map = std::collections::BTreeMap::new();
                crate::impls::read_entries(
                    &mut map,
                    self.count,
                    r,
                    <K::Owned as Decode>::decode_raw,
                    <V::Owned as Decode>::decode_raw,
                    <V::Owned as Decode>::decode_into_raw,
                )
                .map(|()| map)
            });
        }
        self.iter()
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect()
    }
}

impl<'a, K, V> Map<'a, K, V>
where
    K: View<'a> + Ord + Copy,
    K::Owned: Ord,
    V: View<'a>,
{
    /// [`View::view_raw`] with each key and value validated by `key` and
    /// `value` (which check the limits on them, [`crate::max`]).
    pub(crate) fn view_with(
        r: &mut Reader<'a>,
        mut key: impl FnMut(&mut Reader<'a>) -> Result<K, DecodeError>,
        mut value: impl FnMut(&mut Reader<'a>) -> Result<V, DecodeError>,
    ) -> Result<Self, DecodeError> {
        let min = <K::Owned as Decode>::MIN_ENCODED_LEN
            .saturating_add(<V::Owned as Decode>::MIN_ENCODED_LEN);
        let entry = <K::Owned as Decode>::MEMORY.saturating_add(<V::Owned as Decode>::MEMORY);
        let count = r.read_map_count(min, entry)?;
        let entries = r.peek_rest();
        let start = r.position();
        let ((), bytes) = consumed(r, |r| {
            // Keys in increasing order cannot repeat; the first key out of
            // order switches to a set of the keys seen, as `decode` uses.
            // Bytes validated before hold distinct keys: read again, they
            // are not compared.
            let check = !r.is_validated();
            let mut last: Option<K> = None;
            for i in 0..count {
                let at = r.position();
                let k = key(r)?;
                if check && last.is_some_and(|last| last >= k) {
                    let before = &entries[..at - start];
                    let rest = Rest {
                        before,
                        i,
                        k,
                        at,
                        count,
                    };
                    return keys_in_set::<K, V>(r, rest, &mut key, &mut value);
                }
                last = Some(k);
                value(r)?;
            }
            Ok(())
        })?;
        Ok(Map {
            bytes,
            count,
            _entry: PhantomData,
        })
    }
}

/// Where a map's validation is when a key is not greater than the one
/// before: the entries `before` it, the entry's index `i`, its key `k` read
/// at `at`, and the entry count.
struct Rest<'a, K> {
    before: &'a [u8],
    i: usize,
    k: K,
    at: usize,
    count: usize,
}

/// The rest of a map's validation once the key `k` of entry `i`, read at
/// `at`, was not greater than the one before: the keys of the entries
/// `before` it go into a set, and every key from `i` on is looked up in it,
/// as `decode` does with its map. The reader is just past `k`. The earlier
/// entries are read again with [`again`], which checks no key order inside
/// them, so this costs one more read of them, not a validation of every
/// map they hold (which did the same for the maps inside, and so on: twice
/// the work for each level of unsorted maps nested in the earlier entries).
#[cold]
#[inline(never)]
fn keys_in_set<'a, K: View<'a> + Ord, V: View<'a>>(
    r: &mut Reader<'a>,
    rest: Rest<'a, K>,
    key: &mut impl FnMut(&mut Reader<'a>) -> Result<K, DecodeError>,
    value: &mut impl FnMut(&mut Reader<'a>) -> Result<V, DecodeError>,
) -> Result<(), DecodeError> {
    let mut seen = std::collections::BTreeSet::new();
    let mut again = again(rest.before);
    for _ in 0..rest.i {
        seen.insert(revalidated::<K>(&mut again));
        revalidated::<V>(&mut again);
    }
    if !seen.insert(rest.k) {
        return Err(DecodeError::new(DecodeErrorKind::DuplicateMapKey, rest.at));
    }
    value(r)?;
    for _ in rest.i + 1..rest.count {
        let at = r.position();
        if !seen.insert(key(r)?) {
            return Err(DecodeError::new(DecodeErrorKind::DuplicateMapKey, at));
        }
        value(r)?;
    }
    Ok(())
}

impl<'a, K: View<'a>, V: View<'a>> IntoIterator for Map<'a, K, V> {
    type Item = (K, V);
    type IntoIter = MapIter<'a, K, V>;
    fn into_iter(self) -> MapIter<'a, K, V> {
        self.iter()
    }
}

impl<'a, K: View<'a> + fmt::Debug, V: View<'a> + fmt::Debug> fmt::Debug for Map<'a, K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// The entries of a [`Map`].
pub struct MapIter<'a, K, V> {
    r: Reader<'a>,
    left: usize,
    _entry: PhantomData<fn() -> (K, V)>,
}

impl<'a, K: View<'a>, V: View<'a>> Iterator for MapIter<'a, K, V> {
    type Item = (K, V);
    #[inline]
    fn next(&mut self) -> Option<(K, V)> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let k = revalidated(&mut self.r);
        Some((k, revalidated(&mut self.r)))
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl<'a, K: View<'a>, V: View<'a>> ExactSizeIterator for MapIter<'a, K, V> {}

/// The view of a value the owned type boxes (a field or variant that closes
/// a cycle of types), validated with its container and viewed again when
/// asked: [`get`](Lazy::get) costs a validation of its bytes each call.
pub struct Lazy<'a, V> {
    /// `None`: the field was absent, and takes its default.
    bytes: Option<&'a [u8]>,
    _view: PhantomData<fn() -> V>,
}

impl<V> Clone for Lazy<'_, V> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<V> Copy for Lazy<'_, V> {}

impl<V> Default for Lazy<'_, V> {
    fn default() -> Self {
        Lazy {
            bytes: None,
            _view: PhantomData,
        }
    }
}

impl<'a, V: View<'a> + Default> Lazy<'a, V> {
    /// The view.
    #[inline]
    pub fn get(&self) -> V {
        match self.bytes {
            Some(bytes) => revalidated(&mut again(bytes)),
            None => V::default(),
        }
    }

    /// The encoded value (empty when it was absent and took its default).
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes.unwrap_or_default()
    }
}

impl<'a, V: View<'a> + Default> View<'a> for Lazy<'a, V> {
    type Owned = Box<V::Owned>;
    #[inline]
    fn view_raw(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let ((), bytes) = consumed(r, |r| V::view_raw(r).map(drop))?;
        Ok(Lazy {
            bytes: Some(bytes),
            _view: PhantomData,
        })
    }
    /// Decodes the bytes into a box with the owned type's decoder, which
    /// builds large and recursive values in place rather than on the stack.
    fn into_owned(self) -> Box<V::Owned> {
        match self.bytes {
            Some(bytes) => match V::Owned::decode_boxed(&mut again(bytes)) {
                Ok(v) => v,
                Err(e) => unreachable!("bytes validated when the view was made: {e}"),
            },
            None => Box::new(V::default().into_owned()),
        }
    }
}

impl<'a, V: View<'a> + Default + fmt::Debug> fmt::Debug for Lazy<'a, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.get().fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::Encode;

    /// Views `bytes` as `V` and decodes them as its owned type: the same
    /// outcome, and for accepted bytes the same value.
    fn agree<'a, V>(bytes: &'a [u8]) -> Result<V, DecodeError>
    where
        V: View<'a> + Copy + fmt::Debug,
        V::Owned: PartialEq + fmt::Debug,
    {
        let viewed = view::<V>(bytes, Limits::DEFAULT);
        let decoded = V::Owned::decode(bytes);
        match (&viewed, &decoded) {
            (Ok(v), Ok(d)) => assert_eq!(&v.into_owned(), d),
            (Err(v), Err(d)) => assert_eq!(v, d),
            _ => panic!("view {viewed:?} but decode {decoded:?}"),
        }
        viewed
    }

    fn encode<T: Encode>(v: &T) -> Vec<u8> {
        v.encode_to_vec().expect("within limits")
    }

    #[test]
    fn strings_bytes_and_optionals_borrow_the_input() {
        let bytes = encode(&String::from("héllo"));
        let s: &str = agree(&bytes).unwrap();
        assert_eq!(s, "héllo");
        assert!(core::ptr::eq(s.as_ptr(), bytes[4..].as_ptr()));
        let bytes = encode(&vec![1u8, 2, 3]);
        assert_eq!(agree::<&[u8]>(&bytes).unwrap(), [1, 2, 3]);
        let bytes = encode(&Some(String::from("x")));
        assert_eq!(agree::<Option<&str>>(&bytes).unwrap(), Some("x"));
        agree::<Option<&str>>(&[2]).unwrap_err();
        agree::<&str>(&[2, 0, 0, 0, 0xC3, 0x28]).unwrap_err();
    }

    #[test]
    fn fixed_lists_index_and_borrow_in_place() {
        let values: Vec<u32> = (0..100).map(|i| i * 7).collect();
        // The same encoding at two addresses one byte apart, so that the
        // elements are misaligned for `u32` at one of them at least.
        let encoded = encode(&values);
        let mut storage = vec![0u8; encoded.len() + 1];
        for shift in [0, 1] {
            storage[shift..shift + encoded.len()].copy_from_slice(&encoded);
            let bytes = &storage[shift..shift + encoded.len()];
            let list: FixedList<u32> = agree(bytes).unwrap();
            assert_eq!(list.len(), 100);
            assert_eq!(list.get(3), Some(21));
            assert_eq!(list.get(100), None);
            assert_eq!(list.iter().collect::<Vec<_>>(), values);
            let aligned = bytes[4..].as_ptr() as usize % 4 == 0;
            if cfg!(target_endian = "little") && aligned {
                assert_eq!(list.as_slice(), Some(&values[..]));
            } else {
                assert_eq!(list.as_slice(), None);
            }
        }
        // The first invalid bool, as decode reports it.
        agree::<FixedList<bool>>(&[3, 0, 0, 0, 1, 0, 7]).unwrap_err();
        let e = agree::<FixedList<bool>>(&[3, 0, 0, 0, 1, 9, 7]).unwrap_err();
        assert_eq!(e.offset(), 5);
    }

    #[test]
    fn lists_of_variable_elements_iterate_in_order() {
        let values = vec![String::from("a"), String::new(), String::from("ccc")];
        let bytes = encode(&values);
        let list: List<&str> = agree(&bytes).unwrap();
        assert_eq!(list.iter().collect::<Vec<_>>(), ["a", "", "ccc"]);
        assert_eq!(list.get(2), Some("ccc"));
        assert_eq!(list.get(3), None);
        assert_eq!(format!("{list:?}"), r#"["a", "", "ccc"]"#);
        // A count the input cannot hold, and a bad element.
        agree::<List<&str>>(&[9, 0, 0, 0, 0, 0, 0, 0]).unwrap_err();
        agree::<List<&str>>(&[1, 0, 0, 0, 9, 0, 0, 0]).unwrap_err();
    }

    /// A map's entries as written, in any order.
    fn map_bytes(entries: &[(&str, u32)]) -> Vec<u8> {
        let mut out = (entries.len() as u32).to_le_bytes().to_vec();
        for (k, v) in entries {
            out.extend(encode(&String::from(*k)));
            out.extend(v.to_le_bytes());
        }
        out
    }

    #[test]
    fn maps_find_repeated_keys_as_decode_does() {
        let sorted: BTreeMap<String, u32> = [("a".into(), 1), ("b".into(), 2)].into();
        let bytes = encode(&sorted);
        let map: Map<&str, u32> = agree(&bytes).unwrap();
        assert_eq!(map.get("b"), Some(2));
        assert_eq!(map.get("z"), None);
        assert_eq!(map.iter().collect::<Vec<_>>(), [("a", 1), ("b", 2)]);
        // Out of order but distinct: accepted, like decode.
        agree::<Map<&str, u32>>(&map_bytes(&[("b", 1), ("a", 2), ("c", 3)])).unwrap();
        // Repeated right away, after an out-of-order key, and at the end.
        for entries in [
            &[("a", 1), ("a", 2)][..],
            &[("b", 1), ("a", 2), ("b", 3)],
            &[("c", 1), ("a", 2), ("b", 3), ("a", 4)],
        ] {
            let e = agree::<Map<&str, u32>>(&map_bytes(entries)).unwrap_err();
            assert_eq!(e.kind(), &DecodeErrorKind::DuplicateMapKey);
        }
    }

    std::thread_local! {
        /// Views of [`Tree`] made on this thread.
        static TREE_VIEWS: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
    }

    fn tree_views() -> usize {
        TREE_VIEWS.with(|c| c.replace(0))
    }

    /// `message Tree { kids: map<u8, Tree> }` written by hand, the view
    /// counting how often it is made.
    #[derive(Clone, Copy, Debug, Default)]
    struct Tree<'a>(Map<'a, u8, Tree<'a>>);

    #[derive(Debug, Default, PartialEq)]
    struct OwnedTree(BTreeMap<u8, OwnedTree>);

    impl Decode for OwnedTree {
        const MIN_ENCODED_LEN: usize = 4;
        fn decode_raw(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
            r.enter()?;
            let kids = BTreeMap::decode_raw(r)?;
            r.leave();
            Ok(OwnedTree(kids))
        }
        fn placeholder() -> Self {
            OwnedTree::default()
        }
    }

    impl<'a> View<'a> for Tree<'a> {
        type Owned = OwnedTree;
        fn view_raw(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
            TREE_VIEWS.with(|c| c.set(c.get() + 1));
            r.enter()?;
            let kids = Map::view_raw(r)?;
            r.leave();
            Ok(Tree(kids))
        }
        fn into_owned(self) -> OwnedTree {
            OwnedTree(self.0.into_owned())
        }
    }

    /// A tree `levels` deep whose every level but the last has two kids,
    /// key 1 (the rest of the tree) written before key 0 (a leaf): the
    /// first key out of order is at the end of each level, after the whole
    /// subtree. Its trees, `2 × levels − 1`, are returned too.
    fn unsorted_chain(levels: usize) -> (Vec<u8>, usize) {
        let mut out = Vec::new();
        for _ in 1..levels {
            out.extend(2u32.to_le_bytes());
            out.push(1);
        }
        out.extend(0u32.to_le_bytes());
        for _ in 1..levels {
            out.push(0);
            out.extend(0u32.to_le_bytes());
        }
        (out, 2 * levels - 1)
    }

    /// Views every tree under `tree` through the map iterators.
    fn walk(tree: Tree<'_>) -> usize {
        1 + tree.0.iter().map(|(_, kid)| walk(kid)).sum::<usize>()
    }

    /// Item 1 of issue 35: each level of unsorted maps doubled the views
    /// made, so 64 levels (1,142 bytes of a generated schema) never
    /// finished. Each tree is now viewed at most once more for each map
    /// around it, counted here rather than timed.
    #[test]
    fn unsorted_nested_maps_view_in_linear_work() {
        for levels in [4, 8, 12, 16, 24, 32, 48, 64] {
            let (bytes, trees) = unsorted_chain(levels);
            let bound = trees * (levels + 1);
            tree_views();
            let tree: Tree = view(&bytes, Limits::DEFAULT).unwrap();
            let made = tree_views();
            assert!(made <= bound, "{levels} levels: {made} views > {bound}");
            // Each tree once, and each level's first subtree once more for
            // its key: 4,096 views of 127 trees at 64 levels.
            assert_eq!(made, trees + (levels - 1) * (levels - 1));
            assert_eq!(walk(tree), trees);
            let walked = tree_views();
            assert!(walked <= bound, "{levels} levels: {walked} views > {bound}");
            assert_eq!(tree.into_owned(), OwnedTree::decode(&bytes).unwrap());
            let owned = tree_views();
            assert!(owned <= bound, "{levels} levels: {owned} views > {bound}");
        }
        // One level more than the depth limit: the error decode gives.
        let (bytes, _) = unsorted_chain(65);
        agree::<Tree>(&bytes).unwrap_err();
        assert!(tree_views() <= 129 * 66);
        // A key repeated after the first out of order, at every level.
        let (mut bytes, _) = unsorted_chain(64);
        let last = bytes.len() - 5;
        bytes[last] = 1;
        let e = agree::<Tree>(&bytes).unwrap_err();
        assert_eq!(
            (e.kind(), e.offset()),
            (&DecodeErrorKind::DuplicateMapKey, last)
        );
    }

    #[test]
    fn lazy_values_view_again_when_asked() {
        let bytes = encode(&String::from("deep"));
        let lazy: Lazy<&str> = view(&bytes, Limits::DEFAULT).unwrap();
        assert_eq!(lazy.get(), "deep");
        assert_eq!(lazy.as_bytes(), &bytes[..]);
        assert_eq!(*lazy.into_owned(), "deep");
        assert_eq!(Lazy::<&str>::default().get(), "");
    }

    #[test]
    fn budgets_and_limits_fail_as_decode_fails() {
        let values: Vec<String> = (0..64).map(|i| "x".repeat(i)).collect();
        let bytes = encode(&values);
        let limits = Limits {
            decode_budget_base: 0,
            decode_budget_per_byte: 1,
            ..Limits::DEFAULT
        };
        let viewed = view::<List<&str>>(&bytes, limits).unwrap_err();
        let decoded = Vec::<String>::decode_with_limits(&bytes, limits).unwrap_err();
        assert_eq!(viewed, decoded);
        assert!(matches!(
            viewed.kind(),
            DecodeErrorKind::BudgetExceeded { .. }
        ));
        let limits = Limits {
            max_len: 10,
            ..Limits::DEFAULT
        };
        assert_eq!(
            view::<List<&str>>(&bytes, limits).unwrap_err(),
            Vec::<String>::decode_with_limits(&bytes, limits).unwrap_err()
        );
    }

    #[test]
    fn a_prefix_view_reports_its_length() {
        let mut bytes = encode(&String::from("abc"));
        bytes.extend([1, 2]);
        let (s, n) = view_prefix::<&str>(&bytes, Limits::DEFAULT).unwrap();
        assert_eq!((s, n), ("abc", 7));
        assert!(matches!(
            view::<&str>(&bytes, Limits::DEFAULT).unwrap_err().kind(),
            DecodeErrorKind::TrailingBytes { count: 2 }
        ));
    }

    #[test]
    fn runs_of_values_end_at_an_error_or_a_value_of_no_bytes() {
        let mut bytes = encode(&String::from("ab"));
        bytes.extend(encode(&String::from("c")));
        type Runs<'a> = (
            Vec<String>,
            Result<(), DecodeError>,
            Vec<(&'a str, usize)>,
            Result<(), DecodeError>,
            Vec<Result<&'a str, DecodeError>>,
        );
        fn strings(bytes: &[u8]) -> Runs<'_> {
            let mut seen = Vec::new();
            let end = String::decode_for_each(bytes, |s| seen.push(s));
            let mut viewed = Vec::new();
            let lent = for_each::<&str>(bytes, Limits::DEFAULT, |s, b| viewed.push((*s, b.len())));
            let iterated: Vec<_> = each::<&str>(bytes, Limits::DEFAULT).collect();
            (seen, end, viewed, lent, iterated)
        }
        let (seen, end, viewed, lent, iterated) = strings(&bytes);
        assert_eq!((seen, end), (vec!["ab".to_owned(), "c".to_owned()], Ok(())));
        assert_eq!((viewed, lent), (vec![("ab", 6), ("c", 5)], Ok(())));
        assert_eq!(iterated, [Ok("ab"), Ok("c")]);

        // A cut value fails after the values before it, at its length
        // prefix's offset in the whole buffer (6, not 0).
        let cut = &bytes[..bytes.len() - 1];
        let (seen, end, viewed, lent, iterated) = strings(cut);
        let e = end.unwrap_err();
        assert_eq!((seen.len(), viewed.len(), e.offset()), (1, 1, 6));
        assert_eq!(lent.unwrap_err(), e);
        assert_eq!(iterated, [Ok("ab"), Err(e)]);

        // An empty array takes no bytes: read once, then the rest are
        // trailing bytes, not an endless run of empty arrays.
        let mut calls = 0;
        let end = <[u8; 0]>::decode_for_each(&[7, 8], |_| calls += 1).unwrap_err();
        assert_eq!((calls, end.offset()), (1, 0));
        assert!(matches!(
            end.kind(),
            DecodeErrorKind::TrailingBytes { count: 2 }
        ));
        let mut lent = 0;
        let viewed = for_each::<[u8; 0]>(&[7, 8], Limits::DEFAULT, |_, _| lent += 1);
        assert_eq!((lent, viewed), (1, Err(end.clone())));
        let iterated: Vec<_> = each::<[u8; 0]>(&[7, 8], Limits::DEFAULT).collect();
        assert_eq!(iterated, [Ok([]), Err(end)]);
    }
}
