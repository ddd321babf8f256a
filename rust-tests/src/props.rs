//! What must hold for every generated type and every valid encoding.

use std::fmt::Debug;

use pkt_runtime::{Decode, DecodeErrorKind, Encode};

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Given a canonical encoding `bytes` of `T` and another encoding `other`:
/// decode succeeds; `encoded_len` is exact; encoding gives the same bytes
/// back; decoding into a value decoded from `other` equals a fresh decode;
/// prefix decoding reports the length; trailing bytes and every truncation
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
    let again = value.encode_to_vec();
    if again != bytes {
        return Err(format!(
            "re-encoding differs:\n  in:  {}\n  out: {}",
            hex(bytes),
            hex(&again)
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
    match T::decode(&tail) {
        Err(e) if matches!(e.kind(), DecodeErrorKind::TrailingBytes { count: 2 }) => {}
        other => return Err(format!("trailing bytes not rejected: {other:?}")),
    }
    for k in 0..bytes.len() {
        if let Ok(v) = T::decode(&bytes[..k]) {
            return Err(format!("truncated to {k} bytes still decodes: {v:?}"));
        }
    }
    Ok(())
}
