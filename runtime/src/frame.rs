//! Decoding a byte stream of self-delimiting frames.
//!
//! A top-level union value is a frame: `u32` length, then that many bytes
//! (tag and variant). A message (`u32` body length, then the body) is framed
//! the same way, so [`FrameDecoder`] works for both.

use core::fmt;
use core::marker::PhantomData;

use crate::error::{DecodeError, DecodeErrorKind};
use crate::limits::Limits;
use crate::reader::{DecodeBudget, Reader};
use crate::traits::Decode;

/// Splits a byte stream into frames and decodes each as a `T`.
///
/// Push bytes as they arrive with [`push`](FrameDecoder::push) and call
/// [`next_frame`](FrameDecoder::next_frame) until it returns `Ok(None)`.
///
/// # Error policy
///
/// * A frame that fails to decode returns its error and is skipped: the
///   length prefix still delimits it, so the next call continues with the next
///   frame. Error offsets count from the start of the stream.
/// * A length prefix above [`Limits::max_frame`] is rejected with
///   [`DecodeErrorKind::LimitExceeded`] as soon as its four bytes arrive,
///   before any of the body is buffered. The stream cannot be resynchronised
///   after that: the decoder stays failed, returns the same error from every
///   later call and discards pushed bytes. Drop the connection.
/// * Garbage in the stream (a peer that does not speak the protocol, or a
///   corrupted connection) is read as length prefixes: expect decode errors,
///   and a `LimitExceeded` failure soon after. Nothing beyond one frame of
///   at most `max_frame` bytes is ever buffered. A caller that sees decode
///   errors from a peer it trusts to speak the protocol should drop the
///   connection: a skipped frame is only safe when its prefix was right.
///
/// # Memory
///
/// The buffer holds at most the current partial frame plus the bytes pushed
/// since; consumed frames are compacted away on the next push.
pub struct FrameDecoder<T> {
    buf: Vec<u8>,
    /// Start of the unconsumed bytes in `buf`.
    start: usize,
    /// Stream offset of `buf[start]`.
    stream_pos: usize,
    limits: Limits,
    failed: Option<DecodeError>,
    _marker: PhantomData<fn() -> T>,
}

impl<T> fmt::Debug for FrameDecoder<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FrameDecoder")
            .field("buffered", &self.buffered())
            .field("stream_pos", &self.stream_pos)
            .field("limits", &self.limits)
            .field("failed", &self.failed)
            .finish()
    }
}

impl<T: Decode> Default for FrameDecoder<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> FrameDecoder<T> {
    /// A decoder with the given limits; `limits.max_frame` bounds each
    /// frame's length prefix, the other limits apply within each frame.
    pub fn with_limits(limits: Limits) -> Self {
        Self {
            buf: Vec::new(),
            start: 0,
            stream_pos: 0,
            limits,
            failed: None,
            _marker: PhantomData,
        }
    }

    /// Buffers incoming bytes. Ignored once the decoder has failed.
    pub fn push(&mut self, bytes: &[u8]) {
        if self.failed.is_some() {
            return;
        }
        if self.start > 0 {
            self.buf.drain(..self.start);
            self.start = 0;
        }
        self.buf.extend_from_slice(bytes);
    }

    /// Bytes buffered but not yet returned as frames.
    pub fn buffered(&self) -> usize {
        self.buf.len() - self.start
    }

    /// Stream offset of the next unconsumed byte.
    pub fn stream_position(&self) -> usize {
        self.stream_pos
    }

    /// Whether the decoder has failed for good (see the error policy).
    pub fn is_failed(&self) -> bool {
        self.failed.is_some()
    }
}

impl<T: Decode> FrameDecoder<T> {
    /// A decoder with the default [`Limits`].
    pub fn new() -> Self {
        Self::with_limits(Limits::DEFAULT)
    }

    /// The next decoded frame, `Ok(None)` if more bytes are needed, or the
    /// error of one frame (see the error policy).
    pub fn next_frame(&mut self) -> Result<Option<T>, DecodeError> {
        let Some((start, base)) = self.take_frame()? else {
            return Ok(None);
        };
        let result = decode_frame(&self.buf[start..self.start], self.limits, base);
        if self.start == self.buf.len() {
            self.buf.clear();
            self.start = 0;
        }
        result.map(Some)
    }
}

impl<T> FrameDecoder<T> {
    /// Consumes the next complete frame and returns where it starts in the
    /// buffer (it ends at `self.start`) and its stream offset; `Ok(None)` if
    /// more bytes are needed. A bad length fails the decoder for good.
    fn take_frame(&mut self) -> Result<Option<(usize, usize)>, DecodeError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let avail = &self.buf[self.start..];
        let total = match frame_length(avail, &self.limits, self.stream_pos) {
            Ok(Some(total)) => total,
            Ok(None) => return Ok(None),
            Err(e) => {
                self.failed = Some(e.clone());
                self.buf = Vec::new();
                self.start = 0;
                return Err(e);
            }
        };
        if avail.len() < total {
            // Nothing is reserved for the announced length: the buffer only
            // grows with bytes that actually arrive.
            return Ok(None);
        }
        let start = self.start;
        let base = self.stream_pos;
        self.start += total;
        self.stream_pos = self.stream_pos.saturating_add(total);
        Ok(Some((start, base)))
    }
}

impl<T: crate::view::Viewable> FrameDecoder<T> {
    /// The next complete frame as a borrowed view into the decoder's buffer,
    /// with the frame's bytes (length prefix included), for a server that
    /// reads a field or two and forwards the bytes unchanged: nothing is
    /// copied or allocated. Errors and limits are those of
    /// [`next_frame`](FrameDecoder::next_frame), offsets counted from the
    /// start of the stream. The view borrows the decoder; the buffer is
    /// compacted by the next [`push`](FrameDecoder::push).
    pub fn next_view(&mut self) -> Result<Option<ViewedFrame<'_, T::View<'_>>>, DecodeError> {
        let Some((start, base)) = self.take_frame()? else {
            return Ok(None);
        };
        let bytes = &self.buf[start..self.start];
        crate::view::view::<T::View<'_>>(bytes, self.limits)
            .map(|view| Some(ViewedFrame { view, bytes }))
            .map_err(|e| e.shifted(base))
    }
}

/// A frame read by [`FrameDecoder::next_view`]: its view and its bytes.
#[derive(Clone, Copy, Debug)]
pub struct ViewedFrame<'a, V> {
    /// The frame's value, read in place.
    pub view: V,
    /// The frame's encoding, length prefix included.
    pub bytes: &'a [u8],
}

/// The length, prefix included, of the frame at the front of `avail`:
/// `Ok(None)` until its 4-byte prefix has arrived, and
/// [`DecodeErrorKind::LimitExceeded`] (at `stream_pos`) for a prefix above
/// `limits.max_frame`, before any of the body is buffered.
pub(crate) fn frame_length(
    avail: &[u8],
    limits: &Limits,
    stream_pos: usize,
) -> Result<Option<usize>, DecodeError> {
    let Some(prefix) = avail.first_chunk::<4>() else {
        return Ok(None);
    };
    let len = u32::from_le_bytes(*prefix) as usize;
    if len > limits.max_frame {
        return Err(DecodeError::new(
            DecodeErrorKind::LimitExceeded {
                what: "frame length",
                value: len,
                max: limits.max_frame,
            },
            stream_pos,
        ));
    }
    Ok(Some(4 + len))
}

/// Decodes one whole frame, which the value must consume exactly, with a
/// fresh element budget; error offsets count from `base`, the frame's
/// position in the stream.
pub(crate) fn decode_frame<T: Decode>(
    frame: &[u8],
    limits: Limits,
    base: usize,
) -> Result<T, DecodeError> {
    let budget = DecodeBudget::new(&limits, frame.len());
    let mut r = Reader::with_budget(frame, limits, &budget);
    T::decode_raw(&mut r)
        .and_then(|v| r.expect_end().map(|()| v))
        .map_err(|e| e.shifted(base))
}
