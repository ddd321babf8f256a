//! Encoding into [`bytes::BufMut`] and decoding from [`bytes::Buf`]
//! (feature `bytes`).
//!
//! ```
//! use bytes::{Bytes, BytesMut};
//! use pkt_runtime::bytes::{decode_buf, decode_prefix, encode_to_buf};
//!
//! let mut out = BytesMut::new();
//! encode_to_buf(&vec![1u16, 2], &mut out).unwrap();
//! encode_to_buf(&7u8, &mut out).unwrap();
//! let mut stream = out.freeze();
//! assert_eq!(decode_prefix::<Vec<u16>, _>(&mut stream).unwrap(), [1, 2]);
//! assert_eq!(decode_buf::<u8, _>(&mut stream).unwrap(), 7);
//! assert!(stream.is_empty());
//! ```

use core::mem::MaybeUninit;

use ::bytes::{Buf, BufMut, Bytes};

use crate::error::{DecodeError, EncodeError};
use crate::limits::Limits;
use crate::traits::{Decode, Encode};
use crate::writer::Writer;

/// Checks `value` ([`Encode::check_limits`]), then appends its encoding to
/// `buf`; on error nothing is written.
///
/// When `buf`'s current chunk ([`BufMut::chunk_mut`]) has room for the whole
/// encoding, the value is written straight into it (after `reserve`, a
/// `BytesMut` or `Vec<u8>` always has room). Otherwise the value is encoded
/// into a buffer of exactly its size and copied with
/// [`BufMut::put_slice`].
///
/// # Panics
///
/// If `buf` has less than [`Encode::encoded_len`] bytes of
/// [`remaining_mut`](BufMut::remaining_mut) capacity (as `put_slice` does).
pub fn encode_to_buf<T: Encode + ?Sized, B: BufMut + ?Sized>(
    value: &T,
    buf: &mut B,
) -> Result<(), EncodeError> {
    value.check_limits()?;
    crate::writer::frameable(value.encoded_len())?;
    encode_to_buf_unchecked(value, buf);
    Ok(())
}

/// [`encode_to_buf`] without the limit check.
///
/// # Panics
///
/// As [`encode_to_buf`], and when the encoding is longer than `u32::MAX`
/// bytes.
pub fn encode_to_buf_unchecked<T: Encode + ?Sized, B: BufMut + ?Sized>(value: &T, buf: &mut B) {
    let n = value.encoded_len();
    if n == 0 {
        return;
    }
    let chunk = buf.chunk_mut();
    if chunk.len() >= n {
        write_in_place(value, n, buf);
    } else {
        buf.put_slice(&value.encode_to_vec_unchecked());
    }
}

/// Writes `value` (exactly `n` bytes) into the first `n` bytes of
/// `buf.chunk_mut()`, which the caller checked are there, and advances,
/// without zero-filling the chunk first.
#[allow(unsafe_code)]
pub(crate) fn write_in_place<T: Encode + ?Sized, B: BufMut + ?Sized>(
    value: &T,
    n: usize,
    buf: &mut B,
) {
    let chunk = buf.chunk_mut();
    assert!(chunk.len() >= n, "chunk shorter than the encoding");
    let written = {
        // SAFETY: `chunk_mut` is at least `n` bytes long, so `ptr..ptr + n`
        // is valid for writes of (possibly uninitialised) bytes; the slice is
        // the only access to that memory while it lives (`buf` is borrowed
        // mutably here and not touched until the slice is dropped at the end
        // of this block). The writer never reads it.
        let out = unsafe {
            core::slice::from_raw_parts_mut(chunk.as_mut_ptr().cast::<MaybeUninit<u8>>(), n)
        };
        let mut w = Writer::new_uninit(out);
        value.encode_raw(&mut w);
        w.position()
    };
    assert_eq!(written, n, "encoded_len disagrees with encode_raw");
    // SAFETY: the writer initialised the first `written` bytes of the chunk.
    unsafe { buf.advance_mut(written) };
}

/// Checks `value`, then encodes it into a new [`Bytes`] of exactly its size
/// (one allocation, no copy).
pub fn encode_to_bytes<T: Encode + ?Sized>(value: &T) -> Result<Bytes, EncodeError> {
    value.encode_to_vec().map(Bytes::from)
}

/// Decodes exactly one value from all of `buf`'s remaining bytes with the
/// default [`Limits`]; trailing bytes are an error, as for
/// [`Decode::decode`].
///
/// The remaining bytes are consumed whether or not decoding succeeds. When
/// they are contiguous (`Bytes`, `BytesMut`, `&[u8]`, ...) they are decoded
/// where they are; otherwise (a chain of buffers, for example) they are first
/// gathered with one copy of exactly their size.
pub fn decode_buf<T: Decode, B: Buf + ?Sized>(buf: &mut B) -> Result<T, DecodeError> {
    decode_buf_with_limits(buf, Limits::DEFAULT)
}

/// [`decode_buf`] with the given limits.
pub fn decode_buf_with_limits<T: Decode, B: Buf + ?Sized>(
    buf: &mut B,
    limits: Limits,
) -> Result<T, DecodeError> {
    let n = buf.remaining();
    if buf.chunk().len() == n {
        let result = T::decode_with_limits(buf.chunk(), limits);
        buf.advance(n);
        result
    } else {
        let gathered = buf.copy_to_bytes(n);
        T::decode_with_limits(&gathered, limits)
    }
}

/// Decodes one value from the front of a contiguous buffer with the default
/// [`Limits`] and advances `buf` past it; bytes after the value stay in
/// `buf`. On error `buf` is unchanged.
///
/// This is [`Decode::decode_prefix`] for `Bytes`, `BytesMut` and `&[u8]`. A
/// stream of frames is better read with [`FrameDecoder`](crate::FrameDecoder)
/// or, with feature `tokio`, `codec::PacketCodec`, which wait for
/// a whole frame before decoding it.
pub fn decode_prefix<T: Decode, B: Buf + AsRef<[u8]> + ?Sized>(
    buf: &mut B,
) -> Result<T, DecodeError> {
    decode_prefix_with_limits(buf, Limits::DEFAULT)
}

/// [`decode_prefix`] with the given limits.
pub fn decode_prefix_with_limits<T: Decode, B: Buf + AsRef<[u8]> + ?Sized>(
    buf: &mut B,
    limits: Limits,
) -> Result<T, DecodeError> {
    let bytes = buf.as_ref();
    debug_assert_eq!(
        bytes.len(),
        buf.remaining(),
        "as_ref() is not the unread bytes"
    );
    let (value, used) = T::decode_prefix_with_limits(bytes, limits)?;
    buf.advance(used);
    Ok(value)
}
