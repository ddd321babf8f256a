//! Bounds-checked cursor over the input.

use core::cell::Cell;
use std::borrow::Cow;

use crate::error::{DecodeError, DecodeErrorKind};
use crate::limits::Limits;
use crate::traits::FixedSize;

/// What is left of one decode call's budgets: list and map elements
/// ([`Limits::max_total_elements`]) and decoded memory
/// ([`Limits::decode_budget`]). Shared by a reader made with
/// [`Reader::with_budget`] and all its sub-readers.
#[derive(Debug)]
pub struct DecodeBudget {
    elements: Cell<usize>,
    memory: Cell<usize>,
}

impl DecodeBudget {
    /// The full budgets of one decode call over `input_len` bytes.
    #[inline]
    pub fn new(limits: &Limits, input_len: usize) -> Self {
        Self {
            elements: Cell::new(limits.max_total_elements),
            memory: Cell::new(limits.decode_budget(input_len)),
        }
    }

    /// List and map elements left.
    #[inline]
    pub fn elements_left(&self) -> usize {
        self.elements.get()
    }

    /// Decode budget (bytes of the decoded-size model) left.
    #[inline]
    pub fn memory_left(&self) -> usize {
        self.memory.get()
    }

    /// A budget of its own with what is left of this one.
    #[inline]
    fn copy(&self) -> Self {
        Self {
            elements: Cell::new(self.elements.get()),
            memory: Cell::new(self.memory.get()),
        }
    }
}

/// Where a reader keeps its remaining budgets: its own, or, when `shared`
/// is set, those shared by a reader and all its sub-readers. A struct
/// rather than an enum, so that finding the budgets is one select and
/// copying them for a sub-reader takes no branch.
#[derive(Debug)]
struct Budget<'a> {
    /// The reader's own budgets; sub-readers get a copy that
    /// [`Reader::finish`] hands back.
    own: DecodeBudget,
    shared: Option<&'a DecodeBudget>,
}

impl<'a> Budget<'a> {
    fn own(budget: DecodeBudget) -> Self {
        Self {
            own: budget,
            shared: None,
        }
    }

    /// The budgets in use.
    #[inline(always)]
    fn cells(&self) -> &DecodeBudget {
        self.shared.unwrap_or(&self.own)
    }
}

impl Clone for Budget<'_> {
    #[inline]
    fn clone(&self) -> Self {
        Self {
            own: self.own.copy(),
            shared: self.shared,
        }
    }
}

/// Where a union variant's bytes lie, from [`Reader::variant_frame`].
#[derive(Clone, Copy, Debug)]
pub struct VariantFrame {
    start: usize,
    end: usize,
    depth: u32,
}

/// A bounds-checked cursor over a byte slice.
///
/// Every read checks the bytes left before touching them and never panics.
/// Offsets in errors and from [`position`](Reader::position) are absolute:
/// counted from the start of the original input, also inside the sub-readers
/// returned by [`message_body`](Reader::message_body) and
/// [`union_frame`](Reader::union_frame).
///
/// A reader also tracks the nesting depth and, for the whole decode call, a
/// budget of list and map elements and a budget of decoded memory (see
/// [`Limits`]). Readers made by
/// [`Reader::with_budget`] (which the [`Decode`](crate::Decode) entry points
/// use) share that budget with their sub-readers automatically; readers made
/// by [`Reader::new`] or [`Reader::with_limits`] hand a copy to each
/// sub-reader, which [`Reader::finish`] takes back.
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    /// The input up to this reader's end (a sub-reader's body or frame), so
    /// that a read checks one bound: `buf.len()`.
    buf: &'a [u8],
    start: usize,
    pos: usize,
    depth: u32,
    /// The bytes passed a view's validation already (see
    /// [`Reader::validated`]): a map read again need not check its keys.
    validated: bool,
    limits: Limits,
    budget: Budget<'a>,
}

impl<'a> Reader<'a> {
    /// A reader over `buf` with the default [`Limits`].
    pub fn new(buf: &'a [u8]) -> Self {
        Self::with_limits(buf, Limits::DEFAULT)
    }

    /// A reader over `buf` with the given limits.
    #[inline]
    pub fn with_limits(buf: &'a [u8], limits: Limits) -> Self {
        Self {
            buf,
            start: 0,
            pos: 0,
            depth: 0,
            validated: false,
            limits,
            budget: Budget::own(DecodeBudget::new(&limits, buf.len())),
        }
    }

    /// A reader over bytes that a view validated already, for reading them
    /// again: every check still runs (none can fail under `limits`, which
    /// are wider than those they passed), but a map's keys, known to be
    /// distinct, are not checked again for order or repeats, so that reading
    /// bytes again costs no more than reading them once (`view::Map`).
    #[inline]
    pub(crate) fn validated(buf: &'a [u8], limits: Limits) -> Self {
        let mut r = Self::with_limits(buf, limits);
        r.validated = true;
        r
    }

    /// Whether this reader reads bytes a view validated already
    /// ([`Reader::validated`]).
    #[inline]
    pub(crate) fn is_validated(&self) -> bool {
        self.validated
    }

    /// A reader over `buf` whose budgets live in `budget`, shared with every
    /// sub-reader; make it with [`DecodeBudget::new`] for `buf.len()` bytes.
    #[inline]
    pub fn with_budget(buf: &'a [u8], limits: Limits, budget: &'a DecodeBudget) -> Self {
        let mut r = Self::with_limits(buf, limits);
        r.budget.shared = Some(budget);
        r
    }

    /// The absolute offset of the next byte to read.
    #[inline]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Bytes left until the end of this reader (for a sub-reader: until the
    /// end of its body or frame).
    #[inline]
    pub fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    /// Whether no bytes are left.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.pos == self.buf.len()
    }

    /// The limits this reader enforces.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The current nesting depth (0 at top level).
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// List and map elements that may still be decoded in this decode call.
    pub fn elements_left(&self) -> usize {
        self.budget.cells().elements.get()
    }

    #[inline]
    fn set_budgets(&mut self, elements: usize, memory: usize) {
        let b = self.budget.cells();
        b.elements.set(elements);
        b.memory.set(memory);
    }

    /// Decode budget (bytes of the decoded-size model) left in this decode
    /// call.
    pub fn memory_left(&self) -> usize {
        self.budget.cells().memory.get()
    }

    /// Charges `needed` bytes of decoded memory against the decode budget,
    /// before they are allocated; [`DecodeErrorKind::BudgetExceeded`] at
    /// offset `at` when less is left. The error names no field; generated
    /// code adds the innermost field with [`DecodeError::in_field`].
    #[inline]
    pub fn charge(&mut self, needed: usize, at: usize) -> Result<(), DecodeError> {
        let memory = &self.budget.cells().memory;
        let left = memory.get();
        if needed > left {
            return Err(over_budget(needed, left, at));
        }
        memory.set(left - needed);
        Ok(())
    }

    /// Charges a boxed value of `memory` model bytes about to be decoded at
    /// the current position. `optional`: the value is `T?`, charged only when
    /// its flag byte says present (the charge names the flag's offset).
    /// `field` (`namespace.Type.field`, or empty) is named in the error.
    #[inline]
    pub fn charge_boxed(
        &mut self,
        field: &'static str,
        memory: usize,
        optional: bool,
    ) -> Result<(), DecodeError> {
        if optional && self.buf[self.pos..].first() != Some(&1) {
            return Ok(());
        }
        self.charge(memory, self.pos).map_err(|e| e.in_field(field))
    }

    /// Decodes the value of message field `field` (`namespace.Type.field`), naming it
    /// in a [`DecodeErrorKind::BudgetExceeded`] from inside that names no
    /// field yet.
    #[inline]
    pub fn field<T: crate::Decode>(&mut self, field: &'static str) -> Result<T, DecodeError> {
        T::decode_raw(self).map_err(|e| e.in_field(field))
    }

    /// [`field`](Reader::field) into an existing value.
    #[inline]
    pub fn field_into<T: crate::Decode>(
        &mut self,
        value: &mut T,
        field: &'static str,
    ) -> Result<(), DecodeError> {
        value.decode_into_raw(self).map_err(|e| e.in_field(field))
    }

    /// Views the value of message field `field` (`namespace.Type.field`), naming it
    /// in errors as [`field`](Reader::field) does.
    #[inline]
    pub fn view_field<V: crate::View<'a>>(
        &mut self,
        field: &'static str,
    ) -> Result<V, DecodeError> {
        V::view_raw(self).map_err(|e| e.in_field(field))
    }

    /// Charges the `len` bytes of a string default that a message field
    /// absent from an older body takes, at the body's end.
    #[inline]
    pub fn charge_default(&mut self, field: &'static str, len: usize) -> Result<(), DecodeError> {
        self.charge(len, self.pos).map_err(|e| e.in_field(field))
    }

    /// An error of `kind` at the current position.
    pub fn error(&self, kind: DecodeErrorKind) -> DecodeError {
        DecodeError::new(kind, self.pos)
    }

    #[cold]
    fn unexpected_end(&self, needed: usize) -> DecodeError {
        self.error(DecodeErrorKind::UnexpectedEnd {
            needed,
            remaining: self.remaining(),
        })
    }

    /// The next `N` bytes as an array reference, with one bounds check.
    #[inline]
    pub fn read_array<const N: usize>(&mut self) -> Result<&'a [u8; N], DecodeError> {
        let buf: &'a [u8] = self.buf;
        match buf[self.pos..].first_chunk::<N>() {
            Some(chunk) => {
                self.pos += N;
                Ok(chunk)
            }
            None => Err(self.unexpected_end(N)),
        }
    }

    /// The next `n` bytes.
    #[inline]
    pub fn read_slice(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        match self.take(n) {
            Some(s) => Ok(s),
            None => Err(self.unexpected_end(n)),
        }
    }

    /// The next `n` bytes, or `None` (and nothing read) if fewer are left.
    #[inline]
    pub(crate) fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let buf: &'a [u8] = self.buf;
        // Cut from the bytes left, so that no `pos + n` can overflow.
        let s = buf[self.pos..].get(..n)?;
        self.pos += n;
        Some(s)
    }

    /// Reads a `u8`.
    #[inline]
    pub fn read_u8(&mut self) -> Result<u8, DecodeError> {
        Ok(self.read_array::<1>()?[0])
    }

    /// Reads an `i8`.
    #[inline]
    pub fn read_i8(&mut self) -> Result<i8, DecodeError> {
        Ok(i8::from_le_bytes(*self.read_array()?))
    }

    /// Reads a little-endian `u16`.
    #[inline]
    pub fn read_u16(&mut self) -> Result<u16, DecodeError> {
        Ok(u16::from_le_bytes(*self.read_array()?))
    }

    /// Reads a little-endian `u32`.
    #[inline]
    pub fn read_u32(&mut self) -> Result<u32, DecodeError> {
        Ok(u32::from_le_bytes(*self.read_array()?))
    }

    /// Reads a little-endian `u64`.
    #[inline]
    pub fn read_u64(&mut self) -> Result<u64, DecodeError> {
        Ok(u64::from_le_bytes(*self.read_array()?))
    }

    /// Reads a little-endian `i16`.
    #[inline]
    pub fn read_i16(&mut self) -> Result<i16, DecodeError> {
        Ok(i16::from_le_bytes(*self.read_array()?))
    }

    /// Reads a little-endian `i32`.
    #[inline]
    pub fn read_i32(&mut self) -> Result<i32, DecodeError> {
        Ok(i32::from_le_bytes(*self.read_array()?))
    }

    /// Reads a little-endian `i64`.
    #[inline]
    pub fn read_i64(&mut self) -> Result<i64, DecodeError> {
        Ok(i64::from_le_bytes(*self.read_array()?))
    }

    /// Reads a little-endian `f32` (NaN payloads are kept).
    #[inline]
    pub fn read_f32(&mut self) -> Result<f32, DecodeError> {
        Ok(f32::from_le_bytes(*self.read_array()?))
    }

    /// Reads a little-endian `f64` (NaN payloads are kept).
    #[inline]
    pub fn read_f64(&mut self) -> Result<f64, DecodeError> {
        Ok(f64::from_le_bytes(*self.read_array()?))
    }

    /// Reads a `bool`: `0x00` or `0x01`, anything else is
    /// [`DecodeErrorKind::InvalidBool`].
    #[inline]
    pub fn read_bool(&mut self) -> Result<bool, DecodeError> {
        let at = self.pos;
        match self.read_u8()? {
            0 => Ok(false),
            1 => Ok(true),
            b => Err(DecodeError::new(DecodeErrorKind::InvalidBool(b), at)),
        }
    }

    /// Reads an optional's flag: `0x00` is `false` (absent), `0x01` is `true`
    /// (present), anything else is [`DecodeErrorKind::InvalidOptionFlag`].
    #[inline]
    pub fn read_option_flag(&mut self) -> Result<bool, DecodeError> {
        let at = self.pos;
        match self.read_u8()? {
            0 => Ok(false),
            1 => Ok(true),
            b => Err(DecodeError::new(DecodeErrorKind::InvalidOptionFlag(b), at)),
        }
    }

    /// Reads a `u32` length prefix and the `len` bytes after it: checks that
    /// they remain and that `len <= limits.max_len`, and charges them against
    /// the decode budget. Errors name the prefix's offset. Returns the bytes
    /// and their offset.
    #[inline]
    fn read_sized(&mut self, what: &'static str) -> Result<(usize, &'a [u8]), DecodeError> {
        let at = self.pos;
        let len = self.read_u32()? as usize;
        // The bytes are cut before the budget is charged, so that the
        // charge's store (which may be to this reader) does not make the
        // position be loaded and checked again.
        let start = self.pos;
        let buf: &'a [u8] = self.buf;
        let rest = &buf[start..];
        let Some(bytes) = rest.get(..len) else {
            return Err(DecodeError::new(
                DecodeErrorKind::LengthExceedsInput {
                    len,
                    remaining: rest.len(),
                },
                at,
            ));
        };
        if len > self.limits.max_len {
            return Err(DecodeError::new(
                DecodeErrorKind::LimitExceeded {
                    what,
                    value: len,
                    max: self.limits.max_len,
                },
                at,
            ));
        }
        self.charge(len, at)?;
        self.pos = start + len;
        Ok((start, bytes))
    }

    /// Reads a `u32` element count of a list or map.
    ///
    /// Before anything is allocated it checks, in this order, that
    /// `count * min_elem_size` bytes remain ([`DecodeErrorKind::LengthExceedsInput`]),
    /// that `count <= limits.max_len` and that the decode call's element
    /// budget covers `count` ([`DecodeErrorKind::LimitExceeded`]), then
    /// charges `count * elem_memory` against the decode budget
    /// ([`DecodeErrorKind::BudgetExceeded`]); every error names the prefix's
    /// offset. The count is then taken from the element budget. A
    /// `min_elem_size` of 0 (zero-sized elements) skips the first check.
    #[inline]
    pub fn read_count(
        &mut self,
        min_elem_size: usize,
        elem_memory: usize,
    ) -> Result<usize, DecodeError> {
        self.read_count_charging(min_elem_size, |count| count.saturating_mul(elem_memory))
    }

    /// Reads a map's entry count as [`read_count`](Reader::read_count)
    /// reads a list's, with `min_entry_size` the smallest encoded key and
    /// value, and charges what the decoded map may allocate
    /// ([`memory::map`](crate::memory::map)) where a key and a value take
    /// `entry_memory` model bytes together.
    #[inline]
    pub fn read_map_count(
        &mut self,
        min_entry_size: usize,
        entry_memory: usize,
    ) -> Result<usize, DecodeError> {
        self.read_count_charging(min_entry_size, |count| {
            crate::memory::map(count, entry_memory)
        })
    }

    #[inline]
    fn read_count_charging(
        &mut self,
        min_elem_size: usize,
        memory_of: impl Fn(usize) -> usize,
    ) -> Result<usize, DecodeError> {
        let at = self.pos;
        let count = self.read_u32()? as usize;
        // One branch for the usual case that every check passes; the
        // checks are made again in order for the error.
        let elements_left = self.elements_left();
        let memory_left = self.memory_left();
        let memory = memory_of(count);
        if (count.saturating_mul(min_elem_size) <= self.remaining())
            & (count <= self.limits.max_len)
            & (count <= elements_left)
            & (memory <= memory_left)
        {
            self.set_budgets(elements_left - count, memory_left - memory);
            return Ok(count);
        }
        Err(self.count_error(count, min_elem_size, memory, at))
    }

    /// The first check [`read_count`](Reader::read_count) fails for
    /// `count`, read at `at`, whose elements needed `memory` of the budget.
    #[cold]
    #[inline(never)]
    fn count_error(
        &self,
        count: usize,
        min_elem_size: usize,
        memory: usize,
        at: usize,
    ) -> DecodeError {
        let remaining = self.remaining();
        let needed = count.saturating_mul(min_elem_size);
        if needed > remaining {
            return DecodeError::new(
                DecodeErrorKind::LengthExceedsInput {
                    len: needed,
                    remaining,
                },
                at,
            );
        }
        if count > self.limits.max_len {
            return DecodeError::new(
                DecodeErrorKind::LimitExceeded {
                    what: "count",
                    value: count,
                    max: self.limits.max_len,
                },
                at,
            );
        }
        let left = self.elements_left();
        if count > left {
            let max = self.limits.max_total_elements;
            return DecodeError::new(
                DecodeErrorKind::LimitExceeded {
                    what: "total elements",
                    value: max.saturating_sub(left).saturating_add(count),
                    max,
                },
                at,
            );
        }
        // Else the charge is what failed.
        over_budget(memory, self.memory_left(), at)
    }

    #[inline]
    /// Reads a `string` as a slice of the input: `u32` byte length (checked
    /// and charged as [`read_string`](Reader::read_string) does), then
    /// UTF-8, validated; an invalid byte is [`DecodeErrorKind::InvalidUtf8`]
    /// at its offset.
    pub fn read_str(&mut self) -> Result<&'a str, DecodeError> {
        let (at, bytes) = self.read_sized("string length")?;
        utf8(bytes)
            .map_err(|e| DecodeError::new(DecodeErrorKind::InvalidUtf8, at + e.valid_up_to()))
    }

    /// Reads a `string`: `u32` byte length, then UTF-8. The length is
    /// checked before anything is allocated.
    #[inline]
    pub fn read_string(&mut self) -> Result<String, DecodeError> {
        self.read_str().map(String::from)
    }

    /// Reads a `string` into `s`, reusing its capacity.
    pub fn read_string_into(&mut self, s: &mut String) -> Result<(), DecodeError> {
        let v = self.read_str()?;
        if s.capacity() >= v.len() {
            s.clear();
            s.push_str(v);
        } else {
            // One exact allocation instead of growing the old buffer (which
            // would copy its old contents first).
            *s = String::from(v);
        }
        Ok(())
    }

    /// Reads `bytes` as a borrowed slice: `u32` length, then the bytes.
    #[inline]
    pub fn read_bytes_ref(&mut self) -> Result<&'a [u8], DecodeError> {
        self.read_sized("bytes length").map(|(_, bytes)| bytes)
    }

    /// Reads `bytes`: `u32` length, then the bytes. The length is checked
    /// before anything is allocated.
    #[inline]
    pub fn read_bytes(&mut self) -> Result<Vec<u8>, DecodeError> {
        self.read_bytes_ref().map(<[u8]>::to_vec)
    }

    /// Reads `bytes` into `v`, reusing its capacity.
    pub fn read_bytes_into(&mut self, v: &mut Vec<u8>) -> Result<(), DecodeError> {
        let b = self.read_bytes_ref()?;
        if v.capacity() >= b.len() {
            v.clear();
            v.extend_from_slice(b);
        } else {
            *v = b.to_vec();
        }
        Ok(())
    }

    /// [`DecodeErrorKind::FieldTooLong`] at offset `at` if `len > max`.
    #[inline]
    pub fn check_max(
        &self,
        field: &'static str,
        len: usize,
        max: usize,
        at: usize,
    ) -> Result<(), DecodeError> {
        if len > max {
            Err(DecodeError::new(
                DecodeErrorKind::FieldTooLong {
                    field: Cow::Borrowed(field),
                    len,
                    max,
                },
                at,
            ))
        } else {
            Ok(())
        }
    }

    /// Checks a field's `@max(max)` against the length or count prefix of the
    /// value about to be read, before anything is decoded or allocated.
    /// `optional`: the value is preceded by an option flag, and nothing is
    /// checked when the flag says absent. When the prefix is not all there,
    /// this passes and the decode that follows reports the short input.
    #[inline]
    pub fn peek_max(
        &self,
        field: &'static str,
        max: usize,
        optional: bool,
    ) -> Result<(), DecodeError> {
        match self.peek_len(optional) {
            Some((len, at)) => self.check_max(field, len, max, at),
            None => Ok(()),
        }
    }

    /// The length or count prefix about to be read, and its offset, without
    /// reading it: after an option flag when `optional` (`None` unless the
    /// flag is 1), and `None` when the prefix is not all there.
    #[inline]
    pub fn peek_len(&self, optional: bool) -> Option<(usize, usize)> {
        let mut at = self.pos;
        if optional {
            if self.buf.get(at) != Some(&1) {
                return None;
            }
            at += 1;
        }
        let b = self.buf.get(at..)?.first_chunk::<4>()?;
        Some((u32::from_le_bytes(*b) as usize, at))
    }

    /// Enters one level of nesting; [`DecodeErrorKind::DepthExceeded`] past
    /// `limits.max_depth`. Pair with [`leave`](Reader::leave).
    /// [`message_body`](Reader::message_body) and
    /// [`union_frame`](Reader::union_frame) count depth by themselves.
    pub fn enter(&mut self) -> Result<(), DecodeError> {
        self.depth = self.child_depth(self.pos)?;
        Ok(())
    }

    /// Leaves one level of nesting entered with [`enter`](Reader::enter).
    pub fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    #[inline]
    fn child_depth(&self, at: usize) -> Result<u32, DecodeError> {
        if self.depth >= self.limits.max_depth {
            return Err(DecodeError::new(
                DecodeErrorKind::DepthExceeded {
                    max: self.limits.max_depth,
                },
                at,
            ));
        }
        Ok(self.depth + 1)
    }

    /// Reads the values stored back to back in `bytes` with one reader:
    /// `step` reads one value and is given where it starts; each value gets
    /// fresh budgets, as the `_prefix` entry points would give it at the
    /// front of the bytes left. Stops at the first error and returns it.
    /// Reusing the reader saves its set-up per value, and lets `step` use
    /// each value where it was built, without moving it out of a `Result`.
    /// `min_len` is the type's `MIN_ENCODED_LEN` (see
    /// [`check_progress`](Self::check_progress)).
    #[inline(always)]
    pub(crate) fn back_to_back(
        bytes: &'a [u8],
        limits: Limits,
        min_len: usize,
        mut step: impl FnMut(&mut Self, usize) -> Result<(), DecodeError>,
    ) -> Result<(), DecodeError> {
        let mut r = Self::with_limits(bytes, limits);
        while !r.is_empty() {
            let start = r.position();
            r.fresh_budget();
            step(&mut r, start)?;
            r.check_progress(start, min_len)?;
        }
        Ok(())
    }

    /// After a value of a run was read from `start`: a value that took no
    /// bytes (an empty struct, an empty array) would be read again forever,
    /// so the bytes left are [`DecodeErrorKind::TrailingBytes`]. Only types
    /// whose `min_len` (their `MIN_ENCODED_LEN`, a constant) is 0 can take
    /// no bytes, so for the others this check compiles to nothing.
    #[inline(always)]
    pub(crate) fn check_progress(&self, start: usize, min_len: usize) -> Result<(), DecodeError> {
        if min_len == 0 && self.pos == start {
            self.expect_end()
        } else {
            Ok(())
        }
    }

    /// Gives this reader the budgets of a new one over the bytes left, as
    /// [`Reader::with_limits`] would: for reading the next of several
    /// values back to back, each on its own budget.
    #[inline]
    pub(crate) fn fresh_budget(&mut self) {
        self.budget = Budget::own(DecodeBudget::new(&self.limits, self.remaining()));
    }

    /// Moves back to `pos`, a position this reader had.
    #[inline]
    pub(crate) fn rewind(&mut self, pos: usize) {
        debug_assert!(pos <= self.pos);
        self.pos = pos;
    }

    /// A sub-reader over `start..end` at `depth`, sharing or copying the budget.
    #[inline]
    fn sub(&self, start: usize, end: usize, depth: u32) -> Reader<'a> {
        let buf: &'a [u8] = self.buf;
        Reader {
            buf: &buf[..end],
            start,
            pos: start,
            depth,
            validated: self.validated,
            limits: self.limits,
            budget: self.budget.clone(),
        }
    }

    /// Reads a `u32` length, checks that many bytes remain, and returns
    /// `(prefix offset, frame start, frame end)`.
    #[inline]
    fn read_frame(&mut self) -> Result<(usize, usize, usize), DecodeError> {
        let at = self.pos;
        let len = self.read_u32()? as usize;
        let remaining = self.remaining();
        if len > remaining {
            return Err(DecodeError::new(
                DecodeErrorKind::LengthExceedsInput { len, remaining },
                at,
            ));
        }
        Ok((at, self.pos, self.pos + len))
    }

    /// Reads a message's `u32` body length and returns a sub-reader over
    /// exactly the body, one level deeper. `self` moves past the body.
    ///
    /// Errors: [`DecodeErrorKind::UnexpectedEnd`] for a short prefix,
    /// [`DecodeErrorKind::LengthExceedsInput`] or
    /// [`DecodeErrorKind::DepthExceeded`] at the prefix's offset.
    #[inline]
    pub fn message_body(&mut self) -> Result<Reader<'a>, DecodeError> {
        let at = self.pos;
        let depth = self.child_depth(at)?;
        let (_, start, end) = self.read_frame()?;
        self.pos = end;
        Ok(self.sub(start, end, depth))
    }

    /// Reads a union's `u32` frame length and tag (`tag_width` bytes: 1 for a
    /// `u8` tag; any other value means a `u16` tag) and returns the tag with a
    /// sub-reader over the variant bytes, one level deeper. `self` moves past
    /// the frame.
    ///
    /// A frame too short to hold the tag is
    /// [`DecodeErrorKind::UnexpectedEnd`] at the tag's offset.
    #[inline]
    pub fn union_frame(&mut self, tag_width: usize) -> Result<(u16, Reader<'a>), DecodeError> {
        let (tag, frame) = self.variant_frame(tag_width)?;
        Ok((tag, self.variant_body(&frame)))
    }

    /// [`union_frame`](Reader::union_frame) without the sub-reader: the tag
    /// and where the variant's bytes lie. Read them with
    /// [`variant_body`](Reader::variant_body), or, for a fixed-size variant,
    /// [`fixed_variant`](Reader::fixed_variant), which needs no reader.
    /// `self` moves past the frame.
    #[inline]
    pub fn variant_frame(&mut self, tag_width: usize) -> Result<(u16, VariantFrame), DecodeError> {
        let at = self.pos;
        let depth = self.child_depth(at)?;
        let (_, start, end) = self.read_frame()?;
        // The tag is read inside the frame, so a frame too short for it
        // reports the frame's bytes as what remains.
        let outer: &'a [u8] = self.buf;
        self.buf = &outer[..end];
        let tag = if tag_width == 1 {
            self.read_u8().map(u16::from)
        } else {
            self.read_u16()
        };
        self.buf = outer;
        let tag = tag?;
        let frame = VariantFrame {
            start: self.pos,
            end,
            depth,
        };
        debug_assert!(start <= frame.start);
        self.pos = end;
        Ok((tag, frame))
    }

    /// A sub-reader over the variant bytes of `frame`, one level deeper;
    /// finish it with [`finish_variant`](Reader::finish_variant) and
    /// [`finish`](Reader::finish).
    #[inline]
    pub fn variant_body(&self, frame: &VariantFrame) -> Reader<'a> {
        self.sub(frame.start, frame.end, frame.depth)
    }

    /// The value of a variant whose type is fixed-size, read straight from
    /// the frame's bytes: the value and errors that decoding it from
    /// [`variant_body`](Reader::variant_body) and then
    /// [`finish_variant`](Reader::finish_variant) give (a short or invalid
    /// value, else [`DecodeErrorKind::VariantLength`] for bytes left over).
    /// A fixed-size value nests nothing and charges no budget, so there is
    /// nothing to [`finish`](Reader::finish).
    #[inline]
    pub fn fixed_variant<T: FixedSize>(
        &self,
        tag: u16,
        frame: &VariantFrame,
    ) -> Result<T, DecodeError> {
        let buf: &'a [u8] = self.buf;
        let bytes = &buf[frame.start..frame.end];
        let Some(value) = bytes.get(..T::SIZE) else {
            return Err(crate::fixed::run_error::<T>(bytes, frame.start));
        };
        let value = T::read_fixed(value, frame.start)?;
        if bytes.len() != T::SIZE {
            return Err(DecodeError::new(
                DecodeErrorKind::VariantLength {
                    tag,
                    expected: bytes.len(),
                    consumed: T::SIZE,
                },
                frame.start + T::SIZE,
            ));
        }
        Ok(value)
    }

    /// [`DecodeErrorKind::VariantLength`] (at the first unconsumed byte)
    /// unless the variant reader `body` from
    /// [`union_frame`](Reader::union_frame) is fully consumed.
    #[inline]
    pub fn finish_variant(&self, body: &Reader<'a>, tag: u16) -> Result<(), DecodeError> {
        if body.is_empty() {
            Ok(())
        } else {
            Err(body.error(DecodeErrorKind::VariantLength {
                tag,
                expected: body.buf.len() - body.start,
                consumed: body.pos - body.start,
            }))
        }
    }

    /// Takes back a finished sub-reader's element budget, so elements decoded
    /// inside a body count against the rest of this decode call. Needed only
    /// for readers made by [`Reader::new`] or [`Reader::with_limits`]; with a
    /// shared budget ([`Reader::with_budget`], used by every
    /// [`Decode`](crate::Decode) entry point) it does nothing.
    #[inline]
    pub fn finish(&mut self, body: Reader<'a>) {
        if self.budget.shared.is_none() {
            let own = &self.budget.own;
            own.elements
                .set(own.elements.get().min(body.elements_left()));
            own.memory.set(own.memory.get().min(body.memory_left()));
        }
    }

    /// [`DecodeErrorKind::TrailingBytes`] at the current position unless
    /// every byte has been read.
    #[inline]
    pub fn expect_end(&self) -> Result<(), DecodeError> {
        if self.is_empty() {
            Ok(())
        } else {
            Err(self.error(DecodeErrorKind::TrailingBytes {
                count: self.remaining(),
            }))
        }
    }

    /// Takes all bytes left in this reader (for unknown union bodies and
    /// `@preserve_unknown` fields), charging their length against the decode
    /// budget at the offset where they start, since they are kept.
    #[inline]
    pub fn keep_rest(&mut self) -> Result<&'a [u8], DecodeError> {
        self.charge(self.remaining(), self.pos)?;
        Ok(self.rest())
    }

    /// The bytes left in this reader, without consuming them.
    #[inline]
    pub fn peek_rest(&self) -> &'a [u8] {
        let buf: &'a [u8] = self.buf;
        &buf[self.pos..]
    }

    /// Takes all bytes left in this reader, uncharged.
    #[inline]
    pub fn rest(&mut self) -> &'a [u8] {
        let buf: &'a [u8] = self.buf;
        let s = &buf[self.pos..];
        self.pos = buf.len();
        s
    }
}

#[cold]
fn over_budget(needed: usize, left: usize, at: usize) -> DecodeError {
    DecodeError::new(
        DecodeErrorKind::BudgetExceeded {
            field: Cow::Borrowed(""),
            needed,
            left,
        },
        at,
    )
}

/// `bytes` as a `str`, as `core::str::from_utf8` gives it. ASCII, the usual
/// content of short strings (names, chat lines, log fields), is checked
/// first a word at a time ([`is_ascii`]), where `from_utf8` walks a short
/// string byte by byte until it is aligned; anything else goes to
/// `from_utf8`, for the same result and error.
#[inline]
pub(crate) fn utf8(bytes: &[u8]) -> Result<&str, core::str::Utf8Error> {
    if is_ascii(bytes) {
        #[allow(unsafe_code)]
        // SAFETY: every ASCII byte string is valid UTF-8.
        let s = unsafe { core::str::from_utf8_unchecked(bytes) };
        Ok(s)
    } else {
        core::str::from_utf8(bytes)
    }
}

/// Whether every byte is below 0x80. Under 64 bytes, whole words are ORed
/// together and the last word overlaps the one before it, so no byte is
/// tested on its own (`<[u8]>::is_ascii` tests the bytes after the last
/// aligned word one at a time); longer strings take `<[u8]>::is_ascii`'s
/// vectorised loop.
#[inline]
fn is_ascii(bytes: &[u8]) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    if bytes.len() >= 64 {
        return bytes.is_ascii();
    }
    let word = |b: &[u8]| b.try_into().map_or(HIGH, u64::from_le_bytes);
    if let Some(last) = bytes.last_chunk::<8>() {
        let any = bytes
            .chunks_exact(8)
            .fold(u64::from_le_bytes(*last), |acc, w| acc | word(w));
        return any & HIGH == 0;
    }
    if let (Some(a), Some(b)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        return (u32::from_le_bytes(*a) | u32::from_le_bytes(*b)) & 0x8080_8080 == 0;
    }
    bytes.iter().fold(0, |acc, b| acc | b) < 0x80
}

#[cfg(test)]
mod tests {
    use super::{is_ascii, utf8, Reader};
    use crate::{Decode, DecodeError, FixedSize};

    /// A variant read the general way: a sub-reader, the value, then the
    /// check that the frame is used up.
    fn through_body<T: Decode + FixedSize>(bytes: &[u8]) -> Result<(u16, T), DecodeError> {
        let mut r = Reader::new(bytes);
        let (tag, frame) = r.variant_frame(1)?;
        let mut body = r.variant_body(&frame);
        let v = T::decode_raw(&mut body)?;
        r.finish_variant(&body, tag)?;
        r.finish(body);
        Ok((tag, v))
    }

    fn straight<T: FixedSize>(bytes: &[u8]) -> Result<(u16, T), DecodeError> {
        let mut r = Reader::new(bytes);
        let (tag, frame) = r.variant_frame(1)?;
        Ok((tag, r.fixed_variant(tag, &frame)?))
    }

    /// `fixed_variant` gives what the sub-reader path gives, value or error
    /// (kind and offset), for frames of every length up to one past the
    /// value, with valid and invalid bytes.
    #[test]
    fn fixed_variant_agrees_with_the_sub_reader() {
        let mut checked = 0;
        for payload in 0..=10usize {
            for fill in [0u8, 1, 2, 0xff] {
                let mut bytes = ((payload + 1) as u32).to_le_bytes().to_vec();
                bytes.push(7);
                bytes.extend(core::iter::repeat_n(fill, payload));
                assert_eq!(straight::<u64>(&bytes), through_body::<u64>(&bytes));
                assert_eq!(straight::<bool>(&bytes), through_body::<bool>(&bytes));
                assert_eq!(
                    straight::<[bool; 3]>(&bytes),
                    through_body::<[bool; 3]>(&bytes)
                );
                assert_eq!(straight::<[u8; 0]>(&bytes), through_body::<[u8; 0]>(&bytes));
                checked += 4;
            }
        }
        assert_eq!(checked, 176);
        // A frame too short for its tag, and a length past the input.
        for bytes in [&[0u8, 0, 0, 0][..], &[9, 0, 0, 0, 1]] {
            assert_eq!(straight::<u64>(bytes), through_body::<u64>(bytes));
        }
        assert!(straight::<u64>(&[0, 0, 0, 0]).is_err());
    }

    #[test]
    fn utf8_agrees_with_from_utf8() {
        let mut cases: Vec<Vec<u8>> = vec![
            b"".to_vec(),
            b"a".to_vec(),
            b"meet at the north bridge, bring potions".to_vec(),
            "h\u{e9}llo w\u{f6}rld".as_bytes().to_vec(),
            vec![0x7f; 70],
            vec![0x80],
            vec![b'a', 0xc3],
            vec![0xff, b'a'],
        ];
        // One bad or non-ASCII byte at every position of ASCII runs of
        // lengths around the word and chunk sizes.
        for len in [1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 65] {
            for at in 0..len {
                for bad in [0x80, 0xc3, 0xff] {
                    let mut v = vec![b'x'; len];
                    v[at] = bad;
                    cases.push(v);
                }
            }
            let mut v = vec![b'x'; len];
            v.extend_from_slice("\u{e9}".as_bytes());
            cases.push(v);
        }
        for c in &cases {
            assert_eq!(utf8(c), core::str::from_utf8(c), "{c:?}");
        }
    }

    #[test]
    fn is_ascii_finds_a_high_byte_at_every_position_of_every_length() {
        for len in 0..80 {
            let clean = vec![0x7f; len];
            assert!(is_ascii(&clean), "{len}");
            for at in 0..len {
                for high in [0x80, 0xc3, 0xff] {
                    let mut v = clean.clone();
                    v[at] = high;
                    assert!(!is_ascii(&v), "{len} bytes, {high:#x} at {at}");
                }
            }
        }
    }
}
