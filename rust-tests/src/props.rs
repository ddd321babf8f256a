//! What must hold for every generated type and every valid encoding.

use std::fmt::Debug;

use pkt_runtime::{Decode, DecodeErrorKind, Encode, Viewable};
use pkt_test_support::hex::spaced as hex;

/// Runs a closure and returns how many allocations it made; supplied by a
/// test binary that installs a counting allocator.
pub type Measure = fn(&mut dyn FnMut()) -> usize;

/// The checks for one generated type, by qualified schema name.
pub struct Entry {
    pub name: &'static str,
    /// See [`check`].
    pub check: fn(&[u8], &[u8]) -> Result<(), String>,
    /// Allocations made by decoding `bytes` into a value already decoded from them.
    pub reuse: fn(&[u8], Measure) -> usize,
    /// Allocations made by `encode_into` a vector with room, and by `encode_to_vec`.
    pub encode: fn(&[u8], Measure) -> (usize, usize),
    /// See [`stable`].
    pub stable: fn(&[u8]) -> Result<bool, String>,
    /// Decodes arbitrary bytes and encodes the value again.
    pub reencode: fn(&[u8]) -> Result<Vec<u8>, pkt_runtime::DecodeError>,
    /// See [`outcomes`].
    pub outcomes: fn(&[u8]) -> [Outcome; 2],
    /// See [`outcome_over`].
    pub outcome_over: fn(&[u8], &[u8]) -> Outcome,
    /// See [`each_agrees`].
    pub each: fn(&[u8]) -> Result<(), String>,
    /// See [`decode_heap`].
    pub decode_heap: fn(&[u8], Measure) -> (usize, usize),
    /// See [`view_agrees`]; `None` for types without a view (enums and
    /// fixed-size structs, which are their own views).
    pub view: fn(&[u8]) -> Option<Result<Outcome, String>>,
    /// See [`view_allocations`].
    pub view_allocations: fn(&[u8], Measure) -> usize,
    /// The conformance driver's answer line for arbitrary bytes, decoded
    /// with the given limits or the default ones ([`crate::render::answer`]).
    pub conform: fn(&[u8], Option<pkt_runtime::Limits>) -> String,
    /// The same by the type's view ([`crate::render::view_answer`]), or by
    /// decode for a type that is its own view.
    pub conform_view: fn(&[u8], Option<pkt_runtime::Limits>) -> String,
    /// The same for a stream of frames ([`crate::render::frames`]).
    pub frames: fn(&[u8], Option<pkt_runtime::Limits>) -> String,
    /// `size_of` of the generated type.
    pub size: usize,
    /// `Decode::MEMORY` of the generated type.
    pub memory: usize,
}

/// What `decode_into` makes of arbitrary `bytes` over a value decoded from
/// the valid encoding `prior` (whose strings, lists and variants it reuses).
pub fn outcome_over<T: Decode>(bytes: &[u8], prior: &[u8]) -> Outcome {
    let mut value = T::decode(prior).expect("a valid encoding");
    value
        .decode_into(bytes)
        .map_err(|e| (format!("{:?}", e.kind()), e.offset()))
}

/// Decodes arbitrary bytes with the default limits and returns what
/// `measure` counted while decoding (and dropping) the value, with the decode
/// budget the call charged.
pub fn decode_heap<T: Decode>(bytes: &[u8], measure: Measure) -> (usize, usize) {
    let limits = pkt_runtime::Limits::DEFAULT;
    let budget = pkt_runtime::DecodeBudget::new(&limits, bytes.len());
    let used = measure(&mut || {
        let mut r = pkt_runtime::Reader::with_budget(bytes, limits, &budget);
        drop(T::decode_raw(&mut r));
    });
    (
        used,
        limits.decode_budget(bytes.len()) - budget.memory_left(),
    )
}

/// `decode_for_each` over arbitrary bytes reads what a loop of
/// `decode_prefix` calls over the bytes left reads: the same values (compared
/// by encoding), then the same error at the same offset in the whole buffer,
/// or the end; a value of no bytes ends both with the bytes left trailing.
pub fn each_agrees<T: Encode + Decode>(bytes: &[u8]) -> Result<(), String> {
    let outcome =
        |e: &pkt_runtime::DecodeError, at: usize| (format!("{:?}", e.kind()), e.offset() + at);
    let mut expected = Vec::new();
    let mut pos = 0;
    let expected_end = loop {
        if pos == bytes.len() {
            break Ok(());
        }
        match T::decode_prefix(&bytes[pos..]) {
            Ok((v, n)) => {
                expected.push(v.encode_to_vec_unchecked());
                if n == 0 {
                    let left = pkt_runtime::DecodeErrorKind::TrailingBytes {
                        count: bytes.len() - pos,
                    };
                    break Err((format!("{left:?}"), pos));
                }
                pos += n;
            }
            Err(e) => break Err(outcome(&e, pos)),
        }
    };
    let mut seen = Vec::new();
    let end = T::decode_for_each(bytes, |v| seen.push(v.encode_to_vec_unchecked()))
        .map_err(|e| outcome(&e, 0));
    if seen != expected || end != expected_end {
        return Err(format!(
            "decode_for_each read {} values and ended {end:?}; decode_prefix in a loop {} and {expected_end:?}",
            seen.len(),
            expected.len()
        ));
    }
    Ok(())
}

/// Accepted, or the error's kind (as `Debug` text) and offset.
pub type Outcome = Result<(), (String, usize)>;

/// What `decode` and `decode_into` (into a default value) make of
/// arbitrary bytes.
pub fn outcomes<T: Decode + Default>(bytes: &[u8]) -> [Outcome; 2] {
    let outcome = |r: Result<(), pkt_runtime::DecodeError>| {
        r.map_err(|e| (format!("{:?}", e.kind()), e.offset()))
    };
    let decoded = outcome(T::decode(bytes).map(drop));
    let mut value = T::default();
    let into = outcome(value.decode_into(bytes));
    [decoded, into]
}

pub const fn entry<T>(name: &'static str) -> Entry
where
    T: Encode + Decode + PartialEq + Debug + Default + crate::render::Render,
{
    Entry {
        name,
        check: check::<T>,
        reuse: reuse::<T>,
        encode: encode::<T>,
        stable: stable::<T>,
        reencode: reencode::<T>,
        outcomes: outcomes::<T>,
        outcome_over: outcome_over::<T>,
        each: each_agrees::<T>,
        decode_heap: decode_heap::<T>,
        view: |_| None,
        view_allocations: |_, _| 0,
        conform: crate::render::answer::<T>,
        conform_view: crate::render::answer::<T>,
        frames: crate::render::frames::<T>,
        size: core::mem::size_of::<T>(),
        memory: T::MEMORY,
    }
}

/// [`entry`] for a type with a generated view.
pub const fn viewed_entry<T>(name: &'static str) -> Entry
where
    T: Encode + Decode + PartialEq + Debug + Default + Viewable + crate::render::Render,
    for<'a> T::View<'a>: Debug,
{
    Entry {
        view: view_agrees::<T>,
        view_allocations: view_allocations::<T>,
        conform_view: crate::render::view_answer::<T>,
        ..entry::<T>(name)
    }
}

/// Views arbitrary bytes and checks the view against `decode`: the same
/// outcome (error kind and offset); for accepted bytes, a view whose owned
/// value encodes as the decoded value does (so every field agrees, NaN
/// payloads included), and `view_prefix` over the bytes and a tail takes
/// exactly the bytes; `view::each` and `view::for_each` view the bytes twice
/// over as two such values, and over rejected bytes start as `view_prefix`
/// does and stop at its error. `Err` says how they differ.
pub fn view_agrees<T>(bytes: &[u8]) -> Option<Result<Outcome, String>>
where
    T: Encode + Decode + Viewable,
{
    let limits = pkt_runtime::Limits::DEFAULT;
    let viewed = pkt_runtime::view::view::<T::View<'_>>(bytes, limits);
    let decoded = T::decode(bytes);
    let outcome = |e: &pkt_runtime::DecodeError| (format!("{:?}", e.kind()), e.offset());
    Some(match (viewed, decoded) {
        (Ok(view), Ok(value)) => {
            let owned = pkt_runtime::View::into_owned(view).encode_to_vec_unchecked();
            let expected = value.encode_to_vec_unchecked();
            if owned != expected {
                return Some(Err(format!(
                    "the view's owned value differs:\n  view:   {}\n  decode: {}",
                    hex(&owned),
                    hex(&expected)
                )));
            }
            let twice = [bytes, bytes].concat();
            let mut each = pkt_runtime::view::each::<T::View<'_>>(&twice, limits);
            for k in 0..2 {
                match each.next() {
                    Some(Ok(v))
                        if pkt_runtime::View::into_owned(v).encode_to_vec_unchecked()
                            == expected => {}
                    other => {
                        return Some(Err(format!(
                            "view::each, value {k} of two: {:?}",
                            other.map(|r| r.map(drop))
                        )))
                    }
                }
            }
            if each.next().is_some() || each.position() != twice.len() {
                return Some(Err("view::each does not end after two values".to_string()));
            }
            let mut lent = Vec::new();
            let all = pkt_runtime::view::for_each::<T::View<'_>>(&twice, limits, |v, b| {
                let owned = pkt_runtime::View::into_owned(*v).encode_to_vec_unchecked();
                lent.push((owned == expected, b.len()));
            });
            if all.is_err() || lent != [(true, bytes.len()), (true, bytes.len())] {
                return Some(Err(format!(
                    "view::for_each over two values: {all:?}, {lent:?}"
                )));
            }
            let mut tail = bytes.to_vec();
            tail.extend_from_slice(&[0xAB, 0xCD]);
            let taken =
                pkt_runtime::view::view_prefix::<T::View<'_>>(&tail, limits).map(|(_, n)| n);
            match taken {
                Ok(n) if n == bytes.len() => Ok(Ok(())),
                Ok(n) => Err(format!("view_prefix took {n} of {} bytes", bytes.len())),
                Err(e) => Err(format!("view_prefix failed: {e}")),
            }
        }
        (Err(v), Err(d)) if outcome(&v) == outcome(&d) => {
            // `view::each` and `view::for_each` start as `view_prefix` does
            // (the input may hold a valid value and more), and stop at an
            // error, keeping the bytes from it.
            let prefix = pkt_runtime::view::view_prefix::<T::View<'_>>(bytes, limits)
                .map(|(_, n)| n)
                .map_err(|e| outcome(&e));
            let mut each = pkt_runtime::view::each::<T::View<'_>>(bytes, limits);
            let first = each.next().map(|r| r.map(drop).map_err(|e| outcome(&e)));
            let agrees = match (&first, &prefix) {
                (None, _) => bytes.is_empty(),
                (Some(Ok(())), Ok(n)) => each.position() == *n,
                (Some(Err(e)), Err(p)) => e == p && each.next().is_none() && each.rest() == bytes,
                _ => false,
            };
            if !agrees {
                return Some(Err(format!(
                    "view::each gives {first:?}, view_prefix {prefix:?}"
                )));
            }
            let mut calls = 0;
            let all = pkt_runtime::view::for_each::<T::View<'_>>(bytes, limits, |_, _| calls += 1)
                .map_err(|e| outcome(&e));
            if let (Err(p), false) = (&prefix, bytes.is_empty()) {
                if all.as_ref() != Err(p) || calls != 0 {
                    return Some(Err(format!(
                        "view::for_each gives {all:?} after {calls} values, view_prefix {p:?}"
                    )));
                }
            }
            Ok(Err(outcome(&d)))
        }
        (v, d) => Err(format!(
            "view gives {:?}, decode {:?}",
            v.map(drop).map_err(|e| outcome(&e)),
            d.map(drop).map_err(|e| outcome(&e))
        )),
    })
}

/// Allocations made by viewing a valid encoding and reading every field
/// of the view (formatting it with `Debug`, which iterates every list and
/// map and views every lazy field, into a sink that only counts).
pub fn view_allocations<T>(bytes: &[u8], measure: Measure) -> usize
where
    T: Viewable,
    for<'a> T::View<'a>: Debug,
{
    struct Count(usize);
    impl core::fmt::Write for Count {
        fn write_str(&mut self, s: &str) -> core::fmt::Result {
            self.0 += s.len();
            Ok(())
        }
    }
    let mut sink = Count(0);
    let n = measure(&mut || {
        let view = pkt_runtime::view::view::<T::View<'_>>(bytes, pkt_runtime::Limits::DEFAULT)
            .expect("a valid encoding");
        core::fmt::write(&mut sink, format_args!("{view:?}")).expect("counting cannot fail");
    });
    assert!(sink.0 > 0, "the view was formatted");
    n
}

fn reencode<T: Encode + Decode>(bytes: &[u8]) -> Result<Vec<u8>, pkt_runtime::DecodeError> {
    T::decode(bytes).map(|v| {
        v.encode_to_vec()
            .expect("a decoded value is within its limits")
    })
}

/// Decodes arbitrary bytes. `Ok(false)` when they are rejected; `Ok(true)`
/// when they decode and the value's encoding decodes to the same value and
/// encodes to the same bytes again (the first encoding may differ from the
/// input: unordered map entries, say).
pub fn stable<T>(bytes: &[u8]) -> Result<bool, String>
where
    T: Encode + Decode + PartialEq + Debug,
{
    let Ok(value) = T::decode(bytes) else {
        return Ok(false);
    };
    let once = value
        .encode_to_vec()
        .map_err(|e| format!("a decoded value does not encode: {e}"))?;
    let again = T::decode(&once).map_err(|e| format!("re-encoding does not decode: {e}"))?;
    let twice = again
        .encode_to_vec()
        .map_err(|e| format!("a decoded value does not encode: {e}"))?;
    if once != twice {
        return Err(format!(
            "unstable encoding:\n  {}\n  {}",
            hex(&once),
            hex(&twice)
        ));
    }
    // Compare encodings rather than values: NaN payloads are equal as bytes.
    Ok(true)
}

fn reuse<T: Decode>(bytes: &[u8], measure: Measure) -> usize {
    let mut value = T::decode(bytes).expect("valid encoding");
    measure(&mut || value.decode_into(bytes).expect("valid encoding"))
}

fn encode<T: Encode + Decode>(bytes: &[u8], measure: Measure) -> (usize, usize) {
    let value = T::decode(bytes).expect("valid encoding");
    let mut out = Vec::with_capacity(bytes.len() + 16);
    out.push(0xEE);
    let into = measure(&mut || value.encode_into(&mut out).expect("within limits"));
    assert_eq!(&out[1..], bytes, "encode_into appends the encoding");
    let mut vec = Vec::new();
    let to_vec = measure(&mut || vec = value.encode_to_vec().expect("within limits"));
    assert_eq!(
        vec.capacity(),
        bytes.len(),
        "encode_to_vec allocates exactly the length"
    );
    (into, to_vec)
}

/// Given a canonical encoding `bytes` of `T` and another encoding `other`:
/// decode succeeds; `encoded_len` is exact; encoding gives the same bytes
/// back; decoding into a value decoded from `other` equals a fresh decode;
/// prefix decoding reports the length; `decode_for_each` reads the bytes
/// twice over as two such values; trailing bytes and every truncation
/// are errors.
pub fn check<T>(bytes: &[u8], other: &[u8]) -> Result<(), String>
where
    T: Encode + Decode + PartialEq + Debug,
{
    let value = T::decode(bytes).map_err(|e| format!("decode failed: {e} in {}", hex(bytes)))?;
    if value.encoded_len() != bytes.len() {
        return Err(format!(
            "encoded_len {} but the encoding has {} bytes: {value:?}",
            value.encoded_len(),
            bytes.len()
        ));
    }
    value
        .check_limits()
        .map_err(|e| format!("a decoded value fails its own limits: {e}"))?;
    let again = value
        .encode_to_vec()
        .map_err(|e| format!("a decoded value does not encode: {e}"))?;
    if again != bytes {
        return Err(format!(
            "re-encoding differs:\n  in:  {}\n  out: {}",
            hex(bytes),
            hex(&again)
        ));
    }
    // Every other encoder writes the same bytes (unions with fixed-size
    // variants have their own `encode_into`), after what `out` holds.
    let mut into = vec![0xEE; 3];
    value
        .encode_into(&mut into)
        .map_err(|e| format!("encode_into failed: {e}"))?;
    value.encode_into_unchecked(&mut into);
    let mut slice = vec![0; bytes.len()];
    let written = value
        .encode_to_slice(&mut slice)
        .map_err(|e| format!("encode_to_slice failed: {e}"))?;
    if into[..3] != [0xEE; 3]
        || into[3..] != [bytes, bytes].concat()
        || written != bytes.len()
        || slice != bytes
    {
        return Err(format!(
            "encode_into, encode_into_unchecked or encode_to_slice differ:\n  in:   {}\n  into: {}\n  slice: {}",
            hex(bytes),
            hex(&into),
            hex(&slice)
        ));
    }
    let mut reused = T::decode(other).map_err(|e| format!("decode of other failed: {e}"))?;
    reused
        .decode_into(bytes)
        .map_err(|e| format!("decode_into failed: {e}"))?;
    if reused != value {
        return Err(format!(
            "decode_into over another value differs:\n  {reused:?}\n  {value:?}"
        ));
    }
    let mut tail = bytes.to_vec();
    tail.extend_from_slice(&[0xAB, 0xCD]);
    match T::decode_prefix(&tail) {
        Ok((v, n)) if n == bytes.len() && v == value => {}
        Ok((_, n)) => return Err(format!("decode_prefix consumed {n} of {}", bytes.len())),
        Err(e) => return Err(format!("decode_prefix failed: {e}")),
    }
    let mut run = Vec::new();
    let end = T::decode_for_each(&[bytes, bytes].concat(), |v| run.push(v));
    let values = if bytes.is_empty() { 0 } else { 2 };
    if end.is_err() || run.len() != values || run.iter().any(|v| *v != value) {
        return Err(format!(
            "decode_for_each over the bytes twice: {end:?}, {} values {run:?}",
            run.len()
        ));
    }
    match T::decode(&tail) {
        Err(e) if matches!(e.kind(), DecodeErrorKind::TrailingBytes { count: 2 }) => {}
        other => return Err(format!("trailing bytes not rejected: {other:?}")),
    }
    for k in truncation_points(bytes.len()) {
        if let Ok(v) = T::decode(&bytes[..k]) {
            return Err(format!("truncated to {k} bytes still decodes: {v:?}"));
        }
    }
    Ok(())
}

/// Where [`check`] cuts an encoding of `len` bytes. Every cut costs a decode
/// of up to `len` bytes, so cutting everywhere is quadratic: a 75 KB value
/// takes seconds per case unoptimised. Short encodings (where most
/// structure is) are cut at every byte; longer ones at every byte of their
/// first and last `edge` bytes, where prefixes and the last field end, and
/// at `spread` cuts in between (four times as many of each under
/// `PKT_LONG_TESTS`).
fn truncation_points(len: usize) -> Box<dyn Iterator<Item = usize>> {
    let edge = pkt_test_support::scaled(256, 1024);
    let spread = edge;
    if len <= 4 * edge {
        return Box::new(0..len);
    }
    let middle = (len - 2 * edge) / spread;
    Box::new(
        (0..edge)
            .chain((1..spread).map(move |i| edge + i * middle))
            .chain(len - edge..len),
    )
}
