//! A [`tokio_util::codec`] codec for self-delimiting frames (feature `tokio`).
//!
//! [`PacketCodec`] reads and writes the same frames as
//! [`FrameDecoder`](crate::frame::FrameDecoder): a top-level union or message
//! value, which starts with its `u32` length. With
//! `tokio_util::codec::Framed` it turns a `TcpStream` into a stream of decoded
//! packets and a sink of packets to send:
//!
//! ```text
//! use futures::{SinkExt, StreamExt};
//! use pkt_runtime::codec::PacketCodec;
//! use tokio_util::codec::Framed;
//!
//! // Receives `ServerPacket`s, sends `ClientPacket`s.
//! let mut conn = Framed::new(stream, PacketCodec::<ServerPacket, ClientPacket>::new());
//! conn.send(&ClientPacket::Ping(1)).await?;
//! while let Some(packet) = conn.next().await {
//!     let packet: ServerPacket = packet?;
//! }
//! ```

use crate::frame::{decode_frame, frame_length};
use core::fmt;
use core::marker::PhantomData;
use std::io;

use bytes::{Buf, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

use crate::error::{DecodeError, DecodeErrorKind};
use crate::limits::Limits;
use crate::traits::{Decode, Encode};

/// The most [`PacketCodec`] reserves in advance for a frame whose length
/// prefix has arrived but whose body has not (64 KiB). Larger frames grow the
/// buffer only as their bytes arrive, so a peer cannot make the codec allocate
/// by announcing a large frame it never sends.
pub const MAX_RESERVE: usize = 64 * 1024;

/// Decodes frames as `In` and encodes `Out` values (by value or by
/// reference), for `tokio_util::codec::{FramedRead, FramedWrite, Framed}`.
///
/// Both directions use `std::io::Error`, so the codec plugs into
/// `Framed<TcpStream, _>` without conversions.
///
/// # Decoding and its error policy
///
/// The policy is the same as [`FrameDecoder`](crate::frame::FrameDecoder)'s:
///
/// * Until the four bytes of a length prefix are buffered, `decode` returns
///   `Ok(None)`. Once they are, the length is checked against
///   [`Limits::max_frame`]; within it, the codec reserves room for the rest
///   of the frame, at most [`MAX_RESERVE`] bytes, and waits for the frame.
/// * A complete frame is split off the buffer and decoded with the codec's
///   [`Limits`]; it must be exactly one `In` value.
/// * A frame that fails to decode is an error of kind
///   [`InvalidData`](io::ErrorKind::InvalidData) whose inner error
///   ([`get_ref`](io::Error::get_ref), [`into_inner`](io::Error::into_inner))
///   is the [`DecodeError`], with
///   its offset counted from the start of the stream. The frame is consumed:
///   the length prefix still delimits it, so calling `decode` again continues
///   with the next frame. (`FramedRead` ends the stream after an error; call
///   the codec directly to skip bad frames.)
/// * A length prefix above `max_frame` is an `InvalidData` error carrying
///   [`DecodeErrorKind::LimitExceeded`], returned as soon as its four bytes
///   are buffered, before anything is reserved for the body. The stream
///   cannot be resynchronised after that: the codec discards the buffered
///   bytes, stays failed and returns the same error from every later call.
///   Drop the connection.
/// * At the end of the stream, bytes of an incomplete frame are an error of
///   kind [`UnexpectedEof`](io::ErrorKind::UnexpectedEof) carrying
///   [`DecodeErrorKind::UnexpectedEnd`].
///
/// # Encoding
///
/// Encoding checks the value as [`Encode::encode_to_vec`] does: a value with
/// a field over its `@max` limit or nested deeper than the codec's
/// `max_depth` ([`Encode::check_limits_with`]) is refused with an error
/// of kind [`InvalidInput`](io::ErrorKind::InvalidInput) whose inner error
/// is the [`EncodeError`](crate::EncodeError), since the receiving side would reject
/// it. So is a value whose length prefix would exceed the codec's own
/// `max_frame`, since a peer with the same limits would drop the connection.
/// Nothing is written to the buffer on error. Otherwise the value is encoded
/// straight into the destination buffer after one `reserve` of its exact
/// size; no intermediate buffer is used.
///
/// Since the codec is an `Encoder` of both `Out` and `&Out`, a `Sink` method
/// that takes no item cannot infer which sink it is on: name the item type,
/// as in `SinkExt::<Out>::flush(&mut framed)` or
/// `SinkExt::<&Out>::close(&mut framed)`.
pub struct PacketCodec<In, Out = In> {
    limits: Limits,
    /// Stream offset of the first byte of the decode buffer.
    stream_pos: usize,
    failed: Option<DecodeError>,
    _marker: PhantomData<fn(Out) -> In>,
}

impl<In, Out> PacketCodec<In, Out> {
    /// A codec with the default [`Limits`].
    pub fn new() -> Self {
        Self::with_limits(Limits::DEFAULT)
    }

    /// A codec with the given limits: `limits.max_frame` bounds each frame's
    /// length prefix, the other limits apply within each frame.
    pub fn with_limits(limits: Limits) -> Self {
        Self {
            limits,
            stream_pos: 0,
            failed: None,
            _marker: PhantomData,
        }
    }

    /// The limits the codec decodes with.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Stream offset of the next byte `decode` will look at: the total length
    /// of the frames consumed so far.
    pub fn stream_position(&self) -> usize {
        self.stream_pos
    }

    /// Whether the codec has failed for good (an oversized length prefix; see
    /// the error policy).
    pub fn is_failed(&self) -> bool {
        self.failed.is_some()
    }

    fn encode_value<T: Encode + ?Sized>(&self, value: &T, dst: &mut BytesMut) -> io::Result<()> {
        value
            .check_limits_with(&self.limits)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        let n = crate::writer::frameable(value.encoded_len())
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        let frame_len = n.saturating_sub(4);
        if frame_len > self.limits.max_frame {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "frame length {frame_len} exceeds the limit of {}",
                    self.limits.max_frame
                ),
            ));
        }
        dst.reserve(n);
        crate::bytes::write_in_place(value, n, dst);
        Ok(())
    }
}

impl<In, Out> Default for PacketCodec<In, Out> {
    fn default() -> Self {
        Self::new()
    }
}

impl<In, Out> Clone for PacketCodec<In, Out> {
    fn clone(&self) -> Self {
        Self {
            limits: self.limits,
            stream_pos: self.stream_pos,
            failed: self.failed.clone(),
            _marker: PhantomData,
        }
    }
}

impl<In, Out> fmt::Debug for PacketCodec<In, Out> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PacketCodec")
            .field("limits", &self.limits)
            .field("stream_pos", &self.stream_pos)
            .field("failed", &self.failed)
            .finish()
    }
}

fn invalid_data(e: DecodeError) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e)
}

impl<In: Decode, Out> Decoder for PacketCodec<In, Out> {
    type Item = In;
    type Error = io::Error;

    fn decode(&mut self, src: &mut BytesMut) -> io::Result<Option<In>> {
        if let Some(e) = &self.failed {
            src.clear();
            return Err(invalid_data(e.clone()));
        }
        let total = match frame_length(src, &self.limits, self.stream_pos) {
            Ok(Some(total)) => total,
            Ok(None) => return Ok(None),
            Err(e) => {
                self.failed = Some(e.clone());
                src.clear();
                return Err(invalid_data(e));
            }
        };
        if src.len() < total {
            src.reserve((total - src.len()).min(MAX_RESERVE));
            return Ok(None);
        }
        let frame = src.split_to(total);
        let base = self.stream_pos;
        self.stream_pos = self.stream_pos.saturating_add(total);
        decode_frame(&frame, self.limits, base)
            .map(Some)
            .map_err(invalid_data)
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> io::Result<Option<In>> {
        match self.decode(src)? {
            Some(frame) => Ok(Some(frame)),
            None if src.is_empty() => Ok(None),
            None => {
                let needed = match src.first_chunk::<4>() {
                    Some(prefix) => 4 + u32::from_le_bytes(*prefix) as usize,
                    None => 4,
                };
                let e = DecodeError::new(
                    DecodeErrorKind::UnexpectedEnd {
                        needed,
                        remaining: src.len(),
                    },
                    self.stream_pos,
                );
                src.advance(src.len());
                Err(io::Error::new(io::ErrorKind::UnexpectedEof, e))
            }
        }
    }
}

impl<In, Out: Encode> Encoder<Out> for PacketCodec<In, Out> {
    type Error = io::Error;

    fn encode(&mut self, item: Out, dst: &mut BytesMut) -> io::Result<()> {
        self.encode_value(&item, dst)
    }
}

impl<In, Out: Encode> Encoder<&Out> for PacketCodec<In, Out> {
    type Error = io::Error;

    fn encode(&mut self, item: &Out, dst: &mut BytesMut) -> io::Result<()> {
        self.encode_value(item, dst)
    }
}
