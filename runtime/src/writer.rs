//! Cursor over a pre-sized output buffer.

use core::marker::PhantomData;
use core::mem::MaybeUninit;

/// Writes values into a buffer that is already exactly as long as the
/// encoding (generated code computes the size first with
/// [`Encode::encoded_len`](crate::Encode::encoded_len)).
///
/// The buffer may be uninitialised ([`Writer::new_uninit`]): the writer only
/// ever stores into it, and every method that moves the position initialises
/// the bytes it moves over, so the first [`position`](Writer::position)
/// bytes are always initialised. That is what lets
/// [`Encode::encode_into`](crate::Encode::encode_into) write straight into a
/// vector's spare capacity instead of zero-filling it first.
///
/// # Panics
///
/// Writing past the end of the buffer is a bug in the caller's size
/// computation and panics. [`put_len`](Writer::put_len) and the methods built
/// on it also panic for lengths above `u32::MAX`, which the wire format
/// cannot represent; the checked encoders
/// ([`Encode::encode_to_vec`](crate::Encode::encode_to_vec) and the others)
/// refuse such values with an error before writing.
#[derive(Debug)]
pub struct Writer<'a> {
    /// Start of the buffer, valid for writes of `len` bytes for `'a`.
    ptr: *mut u8,
    len: usize,
    /// Bytes `..pos` are initialised.
    pos: usize,
    buf: PhantomData<&'a mut [MaybeUninit<u8>]>,
}

// SAFETY: a `Writer` is a `&mut [MaybeUninit<u8>]` in pointer form, which is
// `Send` and `Sync`.
#[allow(unsafe_code)]
unsafe impl Send for Writer<'_> {}
#[allow(unsafe_code)]
unsafe impl Sync for Writer<'_> {}

impl<'a> Writer<'a> {
    /// A writer at the start of `buf`.
    pub fn new(buf: &'a mut [u8]) -> Self {
        Self {
            ptr: buf.as_mut_ptr(),
            len: buf.len(),
            pos: 0,
            buf: PhantomData,
        }
    }

    /// A writer at the start of possibly uninitialised memory, such as a
    /// vector's [`spare_capacity_mut`](Vec::spare_capacity_mut). After
    /// writing, the first [`position`](Writer::position) bytes of `buf` are
    /// initialised.
    pub fn new_uninit(buf: &'a mut [MaybeUninit<u8>]) -> Self {
        Self {
            ptr: buf.as_mut_ptr().cast(),
            len: buf.len(),
            pos: 0,
            buf: PhantomData,
        }
    }

    /// Bytes written so far.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Bytes left in the buffer.
    pub fn remaining(&self) -> usize {
        self.len - self.pos
    }

    /// Moves the position `n` bytes on and returns where it was; panics
    /// when fewer than `n` bytes are left. The caller initialises the `n`
    /// bytes at the returned position before anything else can read them.
    #[inline]
    fn advance(&mut self, n: usize) -> usize {
        let start = self.pos;
        if n > self.len - start {
            too_short(n, self.len - start);
        }
        self.pos = start + n;
        start
    }

    /// The next `N` bytes, zeroed, for straight-line stores at constant
    /// offsets.
    #[inline]
    pub fn take<const N: usize>(&mut self) -> &mut [u8; N] {
        let start = self.advance(N);
        #[allow(unsafe_code)]
        // SAFETY: `start..start + N` is inside the buffer (`advance` checked)
        // and was never handed out before; it is initialised (zeroed) before
        // the reference to it is made, and the reference borrows `self`.
        unsafe {
            let p = self.ptr.add(start);
            p.write_bytes(0, N);
            &mut *p.cast::<[u8; N]>()
        }
    }

    /// The next `n` bytes, zeroed.
    #[inline]
    pub fn take_slice(&mut self, n: usize) -> &mut [u8] {
        let start = self.advance(n);
        #[allow(unsafe_code)]
        // SAFETY: as in `take`.
        unsafe {
            let p = self.ptr.add(start);
            p.write_bytes(0, n);
            core::slice::from_raw_parts_mut(p, n)
        }
    }

    /// Writes raw bytes (no length prefix).
    #[inline]
    pub fn put_slice(&mut self, bytes: &[u8]) {
        let start = self.advance(bytes.len());
        #[allow(unsafe_code)]
        // SAFETY: `start..start + bytes.len()` is inside the buffer, which
        // `bytes` (a shared borrow) cannot overlap: the buffer is borrowed
        // mutably for `'a`.
        unsafe {
            core::ptr::copy_nonoverlapping(bytes.as_ptr(), self.ptr.add(start), bytes.len());
        }
    }

    /// Writes `N` bytes (no length prefix).
    #[inline]
    pub fn put_array<const N: usize>(&mut self, bytes: [u8; N]) {
        let start = self.advance(N);
        #[allow(unsafe_code)]
        // SAFETY: `start..start + N` is inside the buffer.
        unsafe {
            self.ptr.add(start).cast::<[u8; N]>().write_unaligned(bytes);
        }
    }

    /// Writes a `u8`.
    #[inline]
    pub fn put_u8(&mut self, v: u8) {
        self.put_array([v]);
    }

    /// Writes an `i8`.
    #[inline]
    pub fn put_i8(&mut self, v: i8) {
        self.put_array(v.to_le_bytes());
    }

    /// Writes a little-endian `u16`.
    #[inline]
    pub fn put_u16(&mut self, v: u16) {
        self.put_array(v.to_le_bytes());
    }

    /// Writes a little-endian `u32`.
    #[inline]
    pub fn put_u32(&mut self, v: u32) {
        self.put_array(v.to_le_bytes());
    }

    /// Writes a little-endian `u64`.
    #[inline]
    pub fn put_u64(&mut self, v: u64) {
        self.put_array(v.to_le_bytes());
    }

    /// Writes a little-endian `i16`.
    #[inline]
    pub fn put_i16(&mut self, v: i16) {
        self.put_array(v.to_le_bytes());
    }

    /// Writes a little-endian `i32`.
    #[inline]
    pub fn put_i32(&mut self, v: i32) {
        self.put_array(v.to_le_bytes());
    }

    /// Writes a little-endian `i64`.
    #[inline]
    pub fn put_i64(&mut self, v: i64) {
        self.put_array(v.to_le_bytes());
    }

    /// Writes a little-endian `f32` (its IEEE-754 bits).
    #[inline]
    pub fn put_f32(&mut self, v: f32) {
        self.put_array(v.to_le_bytes());
    }

    /// Writes a little-endian `f64` (its IEEE-754 bits).
    #[inline]
    pub fn put_f64(&mut self, v: f64) {
        self.put_array(v.to_le_bytes());
    }

    /// Writes a `bool` as `0x00` or `0x01`.
    #[inline]
    pub fn put_bool(&mut self, v: bool) {
        self.put_u8(u8::from(v));
    }

    /// Writes a `u32` length or count.
    ///
    /// # Panics
    ///
    /// If `n > u32::MAX`.
    #[inline]
    pub fn put_len(&mut self, n: usize) {
        match u32::try_from(n) {
            Ok(n) => self.put_u32(n),
            Err(_) => panic!("length {n} does not fit the u32 length prefix"),
        }
    }

    /// Writes a `u32` placeholder and returns its position, for
    /// [`end_len`](Writer::end_len).
    #[inline]
    pub fn begin_len(&mut self) -> usize {
        let mark = self.pos;
        self.put_u32(0);
        mark
    }

    /// Backfills the placeholder at `mark` with the number of bytes written
    /// since it.
    ///
    /// # Panics
    ///
    /// If `mark` is not a position [`begin_len`](Writer::begin_len)
    /// returned (fewer than four bytes written from it).
    #[inline]
    pub fn end_len(&mut self, mark: usize) {
        let len = match self.pos.checked_sub(mark).and_then(|n| n.checked_sub(4)) {
            Some(len) => len,
            None => panic!("end_len: no length placeholder at {mark}"),
        };
        let len = match u32::try_from(len) {
            Ok(len) => len,
            Err(_) => panic!("length {len} does not fit the u32 length prefix"),
        };
        #[allow(unsafe_code)]
        // SAFETY: `mark + 4 <= pos <= len`: the four bytes are inside the
        // buffer (and already written, so they stay initialised).
        unsafe {
            self.ptr
                .add(mark)
                .cast::<[u8; 4]>()
                .write_unaligned(len.to_le_bytes());
        }
    }

    /// Writes a `string`: `u32` byte length, then the UTF-8 bytes.
    #[inline]
    pub fn put_string(&mut self, s: &str) {
        self.put_bytes(s.as_bytes());
    }

    /// Writes `bytes`: `u32` length, then the bytes.
    #[inline]
    pub fn put_bytes(&mut self, b: &[u8]) {
        let len = match u32::try_from(b.len()) {
            Ok(len) => len,
            Err(_) => panic!("length {} does not fit the u32 length prefix", b.len()),
        };
        // One bounds check for the prefix and the bytes. `4 + b.len()`
        // cannot overflow: a slice is at most `isize::MAX` bytes.
        let start = self.advance(4 + b.len());
        #[allow(unsafe_code)]
        // SAFETY: `advance` checked that `start + 4 + b.len() <= self.len`,
        // so both writes stay inside the buffer, which `b` (borrowed
        // shared) cannot overlap.
        unsafe {
            let p = self.ptr.add(start);
            p.cast::<[u8; 4]>().write_unaligned(len.to_le_bytes());
            core::ptr::copy_nonoverlapping(b.as_ptr(), p.add(4), b.len());
        }
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn too_short(needed: usize, left: usize) -> ! {
    panic!("Writer: {needed} bytes needed, {left} left")
}

/// `n` when an encoding of `n` bytes can be framed (every length prefix in
/// it is at most `n`, and prefixes are `u32`), else
/// [`EncodeErrorKind::TooLarge`](crate::EncodeErrorKind::TooLarge).
#[inline]
pub(crate) fn frameable(n: usize) -> Result<usize, crate::EncodeError> {
    if n > u32::MAX as usize {
        return Err(crate::EncodeError::too_large(n));
    }
    Ok(n)
}

/// Appends exactly `n` bytes written by `write` to `out`, writing straight
/// into its spare capacity (reserved here, never zero-filled): the one path
/// by which encoders fill a `Vec`. Only the bytes the writer initialised are
/// added; `write` must write all `n` (checked in debug builds, and a writer
/// cannot write more).
#[inline]
pub(crate) fn append(out: &mut Vec<u8>, n: usize, write: impl FnOnce(&mut Writer<'_>)) {
    out.reserve(n);
    let start = out.len();
    let mut w = Writer::new_uninit(&mut out.spare_capacity_mut()[..n]);
    write(&mut w);
    let written = w.position();
    debug_assert_eq!(written, n, "encoded_len disagrees with encode_raw");
    #[allow(unsafe_code)]
    // SAFETY: the writer initialised the first `written <= n` bytes of the
    // spare capacity, which `reserve` made at least `n` long.
    unsafe {
        out.set_len(start + written);
    }
}
