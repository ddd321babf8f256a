//! One interface over every codec, so the benchmarks and the report run the
//! same code. Everything is statically dispatched.
//!
//! Encoders write into a buffer the codec owns and reuses across calls,
//! where the codec's API allows; [`Codec::ENCODE`] says which kind of
//! buffer. Decoders produce an owned value (`String`s and `Vec`s included).

use rkyv::api::high::{HighSerializer, HighValidator};
use rkyv::bytecheck::CheckBytes;
use rkyv::de::Pool;
use rkyv::rancor::Strategy;
use rkyv::ser::allocator::ArenaHandle;
use rkyv::util::AlignedVec;

/// Room for the largest encoding in the benchmark (the 125,000-triangle mesh).
const SLICE_CAPACITY: usize = 8 << 20;

/// Encodes and decodes values of type `T`.
pub trait Codec<T> {
    /// How `encode` stores its output, for the report.
    const ENCODE: &'static str;

    /// Encodes `v`; the bytes are valid until the next call.
    fn encode(&mut self, v: &T) -> &[u8];

    /// Decodes a value from bytes produced by [`encode`](Codec::encode).
    /// `bytes` is 16-byte aligned (rkyv needs that).
    fn decode(&mut self, bytes: &[u8]) -> T;
}

/// pktc: `Encode::encode_into` a reused `Vec` (cleared first).
#[derive(Default)]
pub struct Pktc {
    buf: Vec<u8>,
}

impl<T: pkt_runtime::Encode + pkt_runtime::Decode> Codec<T> for Pktc {
    const ENCODE: &'static str = "reused Vec";

    #[inline]
    fn encode(&mut self, v: &T) -> &[u8] {
        self.buf.clear();
        v.encode_into(&mut self.buf).unwrap();
        &self.buf
    }

    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> T {
        T::decode(bytes).expect("pktc decodes its own output")
    }
}

/// pktc: `Encode::encode_to_slice` into a preallocated buffer.
pub struct PktcSlice {
    buf: Vec<u8>,
}

impl Default for PktcSlice {
    fn default() -> Self {
        Self {
            buf: vec![0; SLICE_CAPACITY],
        }
    }
}

impl<T: pkt_runtime::Encode + pkt_runtime::Decode> Codec<T> for PktcSlice {
    const ENCODE: &'static str = "preallocated slice";

    #[inline]
    fn encode(&mut self, v: &T) -> &[u8] {
        let n = v
            .encode_to_slice(&mut self.buf)
            .expect("buffer is large enough");
        &self.buf[..n]
    }

    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> T {
        T::decode(bytes).expect("pktc decodes its own output")
    }
}

/// bincode 2 through serde, with the given configuration, into a
/// preallocated slice (`encode_into_slice`).
pub struct Bincode<C> {
    buf: Vec<u8>,
    config: C,
}

/// bincode's fixed-width integer configuration (little-endian): the layout
/// closest to pktc's.
pub type BincodeFixint = Bincode<
    bincode::config::Configuration<
        bincode::config::LittleEndian,
        bincode::config::Fixint,
        bincode::config::NoLimit,
    >,
>;

/// bincode's default configuration (varint integers).
pub type BincodeVarint = Bincode<bincode::config::Configuration>;

impl Default for BincodeFixint {
    fn default() -> Self {
        Self {
            buf: vec![0; SLICE_CAPACITY],
            config: bincode::config::standard().with_fixed_int_encoding(),
        }
    }
}

impl Default for BincodeVarint {
    fn default() -> Self {
        Self {
            buf: vec![0; SLICE_CAPACITY],
            config: bincode::config::standard(),
        }
    }
}

impl<T, C> Codec<T> for Bincode<C>
where
    T: serde::Serialize + serde::de::DeserializeOwned,
    C: bincode::config::Config,
{
    const ENCODE: &'static str = "preallocated slice";

    #[inline]
    fn encode(&mut self, v: &T) -> &[u8] {
        let n = bincode::serde::encode_into_slice(v, &mut self.buf, self.config).expect("bincode");
        &self.buf[..n]
    }

    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> T {
        bincode::serde::decode_from_slice(bytes, self.config)
            .expect("bincode")
            .0
    }
}

/// postcard into a preallocated slice (`to_slice`).
pub struct Postcard {
    buf: Vec<u8>,
}

impl Default for Postcard {
    fn default() -> Self {
        Self {
            buf: vec![0; SLICE_CAPACITY],
        }
    }
}

impl<T: serde::Serialize + serde::de::DeserializeOwned> Codec<T> for Postcard {
    const ENCODE: &'static str = "preallocated slice";

    #[inline]
    fn encode(&mut self, v: &T) -> &[u8] {
        postcard::to_slice(v, &mut self.buf).expect("postcard")
    }

    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> T {
        postcard::from_bytes(bytes).expect("postcard")
    }
}

/// bitcode's own derive, through a reused `bitcode::Buffer` (which keeps
/// its allocations for encoding and decoding).
#[derive(Default)]
pub struct Bitcode {
    buf: bitcode::Buffer,
}

impl<T: bitcode::Encode + bitcode::DecodeOwned> Codec<T> for Bitcode {
    const ENCODE: &'static str = "reused bitcode::Buffer";

    #[inline]
    fn encode(&mut self, v: &T) -> &[u8] {
        self.buf.encode(v)
    }

    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> T {
        self.buf.decode(bytes).expect("bitcode")
    }
}

/// rkyv 0.8: `to_bytes_in` a reused `AlignedVec`; decoding is
/// `from_bytes` (validate with bytecheck, then deserialize to owned).
#[derive(Default)]
pub struct Rkyv {
    buf: AlignedVec,
}

impl<T> Codec<T> for Rkyv
where
    T: rkyv::Archive
        + for<'a> rkyv::Serialize<HighSerializer<AlignedVec, ArenaHandle<'a>, rkyv::rancor::Error>>,
    T::Archived: for<'a> CheckBytes<HighValidator<'a, rkyv::rancor::Error>>
        + rkyv::Deserialize<T, Strategy<Pool, rkyv::rancor::Error>>,
{
    const ENCODE: &'static str = "reused AlignedVec";

    #[inline]
    fn encode(&mut self, v: &T) -> &[u8] {
        let mut buf = core::mem::take(&mut self.buf);
        buf.clear();
        self.buf = rkyv::api::high::to_bytes_in::<_, rkyv::rancor::Error>(v, buf).expect("rkyv");
        &self.buf
    }

    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> T {
        rkyv::from_bytes::<T, rkyv::rancor::Error>(bytes).expect("rkyv")
    }
}

/// speedy (little-endian) streamed into a reused `Vec`
/// (`write_to_stream`); its `write_to_buffer` would walk the value twice.
#[derive(Default)]
pub struct Speedy {
    buf: Vec<u8>,
}

impl<T> Codec<T> for Speedy
where
    T: speedy::Writable<speedy::LittleEndian> + for<'a> speedy::Readable<'a, speedy::LittleEndian>,
{
    const ENCODE: &'static str = "reused Vec";

    #[inline]
    fn encode(&mut self, v: &T) -> &[u8] {
        self.buf.clear();
        v.write_to_stream_with_ctx(speedy::LittleEndian::default(), &mut self.buf)
            .expect("speedy");
        &self.buf
    }

    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> T {
        T::read_from_buffer_with_ctx(speedy::LittleEndian::default(), bytes).expect("speedy")
    }
}

/// wincode's configuration: its defaults (bincode layout, fixed-width
/// little-endian integers) with the preallocation limit raised from 4 MiB to
/// 64 MiB, which the 6 MB mesh needs.
pub type WincodeConfig = wincode::config::Configuration<true, { 64 << 20 }>;

const WINCODE: WincodeConfig =
    wincode::config::Configuration::default().with_preallocation_size_limit::<{ 64 << 20 }>();

/// wincode through its own derive, appended to a reused `Vec`
/// (`serialize_into`).
#[derive(Default)]
pub struct Wincode {
    buf: Vec<u8>,
}

impl<T> Codec<T> for Wincode
where
    T: wincode::SchemaWrite<WincodeConfig, Src = T>
        + for<'de> wincode::SchemaRead<'de, WincodeConfig, Dst = T>,
{
    const ENCODE: &'static str = "reused Vec";

    #[inline]
    fn encode(&mut self, v: &T) -> &[u8] {
        self.buf.clear();
        wincode::config::serialize_into(&mut self.buf, v, WINCODE).expect("wincode");
        &self.buf
    }

    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> T {
        wincode::config::deserialize(bytes, WINCODE).expect("wincode")
    }
}

/// The floor for a bulk data set: encoding copies the pktc encoding of the
/// value (made once) into a reused `Vec`, decoding clones the value, which
/// for a list of `Copy` structs is one allocation and one copy. No codec
/// that keeps all the data can do less.
#[derive(Default)]
pub struct Memcpy<T> {
    buf: Vec<u8>,
    wire: Vec<u8>,
    value: Option<T>,
    /// The address of the value `wire` encodes: the benchmark encodes the
    /// same value again and again, and comparing addresses keeps the timed
    /// loop a bare copy (comparing values would walk all the data).
    source: usize,
}

impl<T: pkt_runtime::Encode + Clone + PartialEq> Codec<T> for Memcpy<T> {
    const ENCODE: &'static str = "reused Vec";

    #[inline]
    fn encode(&mut self, v: &T) -> &[u8] {
        let source = v as *const T as usize;
        if self.source != source || self.value.is_none() {
            self.wire = v.encode_to_vec().expect("within limits");
            self.value = Some(v.clone());
            self.source = source;
        }
        self.buf.clear();
        self.buf.extend_from_slice(&self.wire);
        &self.buf
    }

    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> T {
        debug_assert_eq!(bytes, self.wire.as_slice());
        self.value.clone().expect("encode ran first")
    }
}

/// prost: `Message::encode` into a reused `Vec` (cleared first).
#[derive(Default)]
pub struct Prost {
    buf: Vec<u8>,
}

impl<T: prost::Message + Default> Codec<T> for Prost {
    const ENCODE: &'static str = "reused Vec";

    #[inline]
    fn encode(&mut self, v: &T) -> &[u8] {
        self.buf.clear();
        v.encode(&mut self.buf).expect("prost");
        &self.buf
    }

    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> T {
        T::decode(bytes).expect("prost")
    }
}

/// Bebop (generated owned types): `Record::serialize` into a reused `Vec`.
#[derive(Default)]
pub struct Bebop {
    buf: Vec<u8>,
}

impl<T: for<'r> bebop::Record<'r>> Codec<T> for Bebop {
    const ENCODE: &'static str = "reused Vec";

    #[inline]
    fn encode(&mut self, v: &T) -> &[u8] {
        self.buf.clear();
        v.serialize(&mut self.buf).expect("bebop");
        &self.buf
    }

    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> T {
        T::deserialize(bytes).expect("bebop")
    }
}

/// A stream of self-delimiting values, one after another in one buffer,
/// decoded back in a loop. `Stream<C>` encodes each frame with `C`'s
/// per-value API (bitcode and rkyv have no per-frame delimiting and encode
/// the whole `Vec` as one value instead; see the report).
#[derive(Default)]
pub struct Stream<C>(pub C);

impl<F: pkt_runtime::Encode + pkt_runtime::Decode> Codec<Vec<F>> for Stream<Pktc> {
    const ENCODE: &'static str = "reused Vec";

    #[inline]
    fn encode(&mut self, frames: &Vec<F>) -> &[u8] {
        let buf = &mut self.0.buf;
        buf.clear();
        for f in frames {
            f.encode_into(buf).unwrap();
        }
        buf
    }

    /// `decode_for_each`, pktc's loop over values back to back (one reader,
    /// each value checked as `decode_prefix` would check it).
    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> Vec<F> {
        let mut out = Vec::new();
        F::decode_for_each(bytes, |f| out.push(f)).expect("pktc");
        out
    }
}

impl<F: pkt_runtime::Encode + pkt_runtime::Decode> Codec<Vec<F>> for Stream<PktcSlice> {
    const ENCODE: &'static str = "preallocated slice";

    #[inline]
    fn encode(&mut self, frames: &Vec<F>) -> &[u8] {
        let buf = &mut self.0.buf;
        let mut pos = 0;
        for f in frames {
            pos += f
                .encode_to_slice(&mut buf[pos..])
                .expect("buffer is large enough");
        }
        &buf[..pos]
    }

    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> Vec<F> {
        Stream(Pktc::default()).decode(bytes)
    }
}

impl<F, C> Codec<Vec<F>> for Stream<Bincode<C>>
where
    F: serde::Serialize + serde::de::DeserializeOwned,
    C: bincode::config::Config,
{
    const ENCODE: &'static str = "preallocated slice";

    #[inline]
    fn encode(&mut self, frames: &Vec<F>) -> &[u8] {
        let Bincode { buf, config } = &mut self.0;
        let mut pos = 0;
        for f in frames {
            pos += bincode::serde::encode_into_slice(f, &mut buf[pos..], *config).expect("bincode");
        }
        &buf[..pos]
    }

    #[inline]
    fn decode(&mut self, mut bytes: &[u8]) -> Vec<F> {
        let mut out = Vec::new();
        while !bytes.is_empty() {
            let (f, n) = bincode::serde::decode_from_slice(bytes, self.0.config).expect("bincode");
            out.push(f);
            bytes = &bytes[n..];
        }
        out
    }
}

impl<F: serde::Serialize + serde::de::DeserializeOwned> Codec<Vec<F>> for Stream<Postcard> {
    const ENCODE: &'static str = "preallocated slice";

    #[inline]
    fn encode(&mut self, frames: &Vec<F>) -> &[u8] {
        let buf = &mut self.0.buf;
        let mut pos = 0;
        for f in frames {
            pos += postcard::to_slice(f, &mut buf[pos..])
                .expect("postcard")
                .len();
        }
        &buf[..pos]
    }

    #[inline]
    fn decode(&mut self, mut bytes: &[u8]) -> Vec<F> {
        let mut out = Vec::new();
        while !bytes.is_empty() {
            let (f, rest) = postcard::take_from_bytes(bytes).expect("postcard");
            out.push(f);
            bytes = rest;
        }
        out
    }
}

impl<F> Codec<Vec<F>> for Stream<Speedy>
where
    F: speedy::Writable<speedy::LittleEndian> + for<'a> speedy::Readable<'a, speedy::LittleEndian>,
{
    const ENCODE: &'static str = "reused Vec";

    #[inline]
    fn encode(&mut self, frames: &Vec<F>) -> &[u8] {
        let buf = &mut self.0.buf;
        buf.clear();
        for f in frames {
            f.write_to_stream_with_ctx(speedy::LittleEndian::default(), &mut *buf)
                .expect("speedy");
        }
        buf
    }

    #[inline]
    fn decode(&mut self, mut bytes: &[u8]) -> Vec<F> {
        let mut out = Vec::new();
        while !bytes.is_empty() {
            let (f, n) =
                F::read_with_length_from_buffer_with_ctx(speedy::LittleEndian::default(), bytes);
            out.push(f.expect("speedy"));
            bytes = &bytes[n..];
        }
        out
    }
}

impl<F> Codec<Vec<F>> for Stream<Wincode>
where
    F: wincode::SchemaWrite<WincodeConfig, Src = F>
        + for<'de> wincode::SchemaRead<'de, WincodeConfig, Dst = F>,
{
    const ENCODE: &'static str = "reused Vec";

    #[inline]
    fn encode(&mut self, frames: &Vec<F>) -> &[u8] {
        let buf = &mut self.0.buf;
        buf.clear();
        for f in frames {
            wincode::config::serialize_into(&mut *buf, f, WINCODE).expect("wincode");
        }
        buf
    }

    #[inline]
    fn decode(&mut self, mut bytes: &[u8]) -> Vec<F> {
        let mut out = Vec::new();
        while !bytes.is_empty() {
            let f: F = wincode::config::deserialize_from(&mut bytes, WINCODE).expect("wincode");
            out.push(f);
        }
        out
    }
}

impl<F: prost::Message + Default> Codec<Vec<F>> for Stream<Prost> {
    const ENCODE: &'static str = "reused Vec";

    #[inline]
    fn encode(&mut self, frames: &Vec<F>) -> &[u8] {
        let buf = &mut self.0.buf;
        buf.clear();
        for f in frames {
            f.encode_length_delimited(buf).expect("prost");
        }
        buf
    }

    #[inline]
    fn decode(&mut self, mut bytes: &[u8]) -> Vec<F> {
        let mut out = Vec::new();
        while !bytes.is_empty() {
            out.push(F::decode_length_delimited(&mut bytes).expect("prost"));
        }
        out
    }
}

impl<F: for<'r> bebop::Record<'r>> Codec<Vec<F>> for Stream<Bebop> {
    const ENCODE: &'static str = "reused Vec";

    #[inline]
    fn encode(&mut self, frames: &Vec<F>) -> &[u8] {
        let buf = &mut self.0.buf;
        buf.clear();
        for f in frames {
            f.serialize(buf).expect("bebop");
        }
        buf
    }

    #[inline]
    fn decode(&mut self, mut bytes: &[u8]) -> Vec<F> {
        let mut out = Vec::new();
        while !bytes.is_empty() {
            let (n, f) = F::_deserialize_chained(bytes).expect("bebop");
            out.push(f);
            bytes = &bytes[n..];
        }
        out
    }
}

/// pktc's `decode_into`: decodes into an existing value, reusing its
/// `String`s and `Vec`s.
pub fn pktc_decode_into<T: pkt_runtime::Decode>(bytes: &[u8], out: &mut T) {
    out.decode_into(bytes).expect("pktc decodes its own output");
}

/// [`pktc_decode_into`] for a stream: decodes frame by frame into the
/// existing frames of `out` (which must hold as many frames as the stream).
pub fn pktc_decode_stream_into<F: pkt_runtime::Decode>(mut bytes: &[u8], out: &mut [F]) {
    for slot in out {
        let len = bytes
            .first_chunk::<4>()
            .map(|p| u32::from_le_bytes(*p) as usize)
            .expect("frame length");
        let (frame, rest) = bytes.split_at(4 + len);
        slot.decode_into(frame)
            .expect("pktc decodes its own output");
        bytes = rest;
    }
    assert!(bytes.is_empty(), "more frames than slots");
}
