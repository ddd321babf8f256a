//! Cursor over a pre-sized output slice.

/// Writes values into a slice that is already exactly as long as the
/// encoding (generated code computes the size first with
/// [`Encode::encoded_len`](crate::Encode::encoded_len)).
///
/// # Panics
///
/// Writing past the end of the slice is a bug in the caller's size
/// computation and panics through slice indexing. [`put_len`](Writer::put_len)
/// and the methods built on it also panic for lengths above `u32::MAX`,
/// which the wire format cannot represent.
#[derive(Debug)]
pub struct Writer<'a> {
    buf: &'a mut [u8],
    pos: usize,
}

impl<'a> Writer<'a> {
    /// A writer at the start of `buf`.
    pub fn new(buf: &'a mut [u8]) -> Self {
        Self { buf, pos: 0 }
    }

    /// Bytes written so far.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Bytes left in the slice.
    pub fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    /// The next `N` bytes, for straight-line stores at constant offsets.
    #[inline]
    pub fn take<const N: usize>(&mut self) -> &mut [u8; N] {
        let start = self.pos;
        let left = self.buf.len().saturating_sub(start);
        self.pos += N;
        match self.buf[start..].first_chunk_mut::<N>() {
            Some(chunk) => chunk,
            None => panic!("Writer: {N} bytes needed, {left} left"),
        }
    }

    /// The next `n` bytes.
    #[inline]
    pub fn take_slice(&mut self, n: usize) -> &mut [u8] {
        let start = self.pos;
        self.pos += n;
        &mut self.buf[start..start + n]
    }

    /// Writes raw bytes (no length prefix).
    #[inline]
    pub fn put_slice(&mut self, bytes: &[u8]) {
        self.take_slice(bytes.len()).copy_from_slice(bytes);
    }

    /// Writes a `u8`.
    #[inline]
    pub fn put_u8(&mut self, v: u8) {
        self.take::<1>()[0] = v;
    }

    /// Writes an `i8`.
    #[inline]
    pub fn put_i8(&mut self, v: i8) {
        *self.take() = v.to_le_bytes();
    }

    /// Writes a little-endian `u16`.
    #[inline]
    pub fn put_u16(&mut self, v: u16) {
        *self.take() = v.to_le_bytes();
    }

    /// Writes a little-endian `u32`.
    #[inline]
    pub fn put_u32(&mut self, v: u32) {
        *self.take() = v.to_le_bytes();
    }

    /// Writes a little-endian `u64`.
    #[inline]
    pub fn put_u64(&mut self, v: u64) {
        *self.take() = v.to_le_bytes();
    }

    /// Writes a little-endian `i16`.
    #[inline]
    pub fn put_i16(&mut self, v: i16) {
        *self.take() = v.to_le_bytes();
    }

    /// Writes a little-endian `i32`.
    #[inline]
    pub fn put_i32(&mut self, v: i32) {
        *self.take() = v.to_le_bytes();
    }

    /// Writes a little-endian `i64`.
    #[inline]
    pub fn put_i64(&mut self, v: i64) {
        *self.take() = v.to_le_bytes();
    }

    /// Writes a little-endian `f32` (its IEEE-754 bits).
    #[inline]
    pub fn put_f32(&mut self, v: f32) {
        *self.take() = v.to_le_bytes();
    }

    /// Writes a little-endian `f64` (its IEEE-754 bits).
    #[inline]
    pub fn put_f64(&mut self, v: f64) {
        *self.take() = v.to_le_bytes();
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
    #[inline]
    pub fn end_len(&mut self, mark: usize) {
        let len = self.pos - mark - 4;
        match u32::try_from(len) {
            Ok(len) => self.buf[mark..mark + 4].copy_from_slice(&len.to_le_bytes()),
            Err(_) => panic!("length {len} does not fit the u32 length prefix"),
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
        self.put_len(b.len());
        self.put_slice(b);
    }
}
