//! The Rust driver of the conformance harness (`tests/conformance.rs`,
//! whose module doc states the protocol): the value text of a decoded
//! value, and the answer line of one case. The [`Render`] impl of every
//! generated type is written by `build.rs` from the IR, as each other
//! language's driver generates its own.

use std::fmt::Write as _;

use pkt_runtime::{Decode, DecodeError, Encode, Limits};

/// Writes a value's language-neutral text (see the harness's module doc).
pub trait Render {
    fn render(&self, o: &mut String);
}

/// The answer line of the Rust view driver for one case, as [`answer`]
/// writes decode's: the view made with the case's limits, its owned value
/// encoded again and rendered.
pub fn view_answer<T>(bytes: &[u8], limits: Option<Limits>) -> String
where
    T: Decode + Encode + Render + pkt_runtime::Viewable,
{
    let viewed = pkt_runtime::view::view::<T::View<'_>>(bytes, limits.unwrap_or_default());
    match viewed {
        Ok(view) => {
            let value = pkt_runtime::View::into_owned(view);
            match value.encode_to_vec() {
                Ok(again) => {
                    let mut o = format!("ok {} ", pkt_test_support::hex::encode(&again));
                    value.render(&mut o);
                    o
                }
                Err(e) => format!("unencodable {e}"),
            }
        }
        Err(e) => format!("err {} {}", kind(&e), e.offset()),
    }
}

/// The answer line for one case: `ok <hex> <value>` or `err <kind> <offset>`.
pub fn answer<T: Decode + Encode + Render>(bytes: &[u8], limits: Option<Limits>) -> String {
    let decoded = match limits {
        Some(l) => T::decode_with_limits(bytes, l),
        None => T::decode(bytes),
    };
    match decoded {
        Ok(value) => match value.encode_to_vec() {
            Ok(again) => {
                let mut o = format!("ok {} ", pkt_test_support::hex::encode(&again));
                value.render(&mut o);
                o
            }
            Err(e) => format!("unencodable {e}"),
        },
        Err(e) => format!("err {} {}", kind(&e), e.offset()),
    }
}

/// The Rust driver: the answer to every case of a case file
/// ([`pkt_test_support::conformance`]), a line each.
pub fn drive(cases: &str) -> String {
    drive_with(cases, false)
}

/// The Rust view driver: [`drive`] with every case that is not a stream of
/// frames answered by the type's view ([`view_answer`]; types without a
/// generated view, fixed-size structs, are their own views and decode).
/// Frames are read by the frame reader, which decodes.
pub fn drive_view(cases: &str) -> String {
    drive_with(cases, true)
}

fn drive_with(cases: &str, view: bool) -> String {
    let mut out = String::new();
    for line in cases.lines() {
        let case =
            pkt_test_support::conformance::Case::parse(line).unwrap_or_else(|e| panic!("{e}"));
        let entry = crate::TYPES
            .iter()
            .find(|e| e.name == case.ty)
            .unwrap_or_else(|| panic!("no type {}", case.ty));
        let limits = case
            .limits
            .map(|[depth, len, frame, elements, base, per_byte]| Limits {
                max_depth: depth as u32,
                max_len: len as usize,
                max_frame: frame as usize,
                max_total_elements: elements as usize,
                decode_budget_base: base as usize,
                decode_budget_per_byte: per_byte as usize,
            });
        let answer = if case.frames {
            entry.frames
        } else if view {
            entry.conform_view
        } else {
            entry.conform
        };
        out.push_str(&answer(&case.bytes, limits));
        out.push('\n');
    }
    out
}

/// The answer line for a stream of frames: what a frame reader of `T` with
/// the given limits reads from `bytes` pushed at once, `frames ` and then
/// each frame's answer (as [`answer`] writes them) followed by ` ; `, and
/// last `end <bytes left buffered>`. A frame that fails to decode is
/// skipped; a frame length over the limit fails the reader, which ends the
/// line after its error.
pub fn frames<T: Decode + Encode + Render>(bytes: &[u8], limits: Option<Limits>) -> String {
    let mut reader = pkt_runtime::frame::FrameDecoder::<T>::with_limits(limits.unwrap_or_default());
    reader.push(bytes);
    let mut o = String::from("frames ");
    loop {
        match reader.next_frame() {
            Ok(Some(value)) => match value.encode_to_vec() {
                Ok(again) => {
                    let _ = write!(o, "ok {} ", pkt_test_support::hex::encode(&again));
                    value.render(&mut o);
                }
                Err(e) => {
                    let _ = write!(o, "unencodable {e}");
                }
            },
            Ok(None) => break,
            Err(e) => {
                let _ = write!(o, "err {} {}", kind(&e), e.offset());
                if reader.is_failed() {
                    o.push_str(" ; ");
                    break;
                }
            }
        }
        o.push_str(" ; ");
    }
    let _ = write!(o, "end {}", reader.buffered());
    o
}

/// The error kind's name, without its details (`LengthExceedsInput`):
/// what every language's decoder names alike.
pub fn kind(e: &DecodeError) -> String {
    let debug = format!("{:?}", e.kind());
    debug
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect()
}

pub fn boolean(o: &mut String, v: bool) {
    o.push_str(if v { "true" } else { "false" });
}

pub fn int(o: &mut String, v: impl std::fmt::Display) {
    let _ = write!(o, "{v}");
}

pub fn f32(o: &mut String, v: f32) {
    let _ = write!(o, "f32:{:08x}", v.to_bits());
}

pub fn f64(o: &mut String, v: f64) {
    let _ = write!(o, "f64:{:016x}", v.to_bits());
}

pub fn string(o: &mut String, s: &str) {
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 || c as u32 == 0x7F => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
}

pub fn bytes(o: &mut String, b: &[u8]) {
    o.push_str("0x");
    o.push_str(&pkt_test_support::hex::encode(b));
}

pub fn seq<'a, T: 'a>(
    o: &mut String,
    items: impl IntoIterator<Item = &'a T>,
    f: impl Fn(&mut String, &'a T),
) {
    o.push('[');
    for (i, x) in items.into_iter().enumerate() {
        if i > 0 {
            o.push(',');
        }
        f(o, x);
    }
    o.push(']');
}

pub fn map<'a, K: 'a, V: 'a>(
    o: &mut String,
    entries: impl IntoIterator<Item = (&'a K, &'a V)>,
    fk: impl Fn(&mut String, &'a K),
    fv: impl Fn(&mut String, &'a V),
) {
    o.push('{');
    for (i, (k, v)) in entries.into_iter().enumerate() {
        if i > 0 {
            o.push(',');
        }
        fk(o, k);
        o.push(':');
        fv(o, v);
    }
    o.push('}');
}

pub fn opt<'a, T>(o: &mut String, v: Option<&'a T>, f: impl Fn(&mut String, &'a T)) {
    match v {
        Some(x) => f(o, x),
        None => o.push_str("null"),
    }
}

/// An unknown union variant: `?<tag>(0x<body>)`.
pub fn unknown_variant(o: &mut String, tag: impl std::fmt::Display, body: &[u8]) {
    let _ = write!(o, "?{tag}(");
    bytes(o, body);
    o.push(')');
}

include!(concat!(env!("OUT_DIR"), "/render.rs"));
