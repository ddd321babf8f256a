//! What the decoders must survive, for the fuzz targets (`fuzz/`) and for
//! the fixed-budget replay in `cargo test`.

use crate::TYPES;

/// The first byte picks a generated type, the rest is its input. Decoding may
/// fail, but must not panic, and whatever decodes must encode to bytes that
/// decode and encode again to the same bytes.
pub fn decode(data: &[u8]) -> Result<(), String> {
    let Some((&selector, input)) = data.split_first() else {
        return Ok(());
    };
    let entry = &TYPES[selector as usize % TYPES.len()];
    (entry.stable)(input)
        .map(|_| ())
        .map_err(|e| format!("{}: {e}", entry.name))
}

/// Allocation allowed while decoding `len` input bytes: proportional to the
/// input (the largest generated value per byte of wire), never to what a
/// length prefix claims.
pub fn allocation_bound(len: usize) -> usize {
    64 * 1024 + 4096 * len
}
