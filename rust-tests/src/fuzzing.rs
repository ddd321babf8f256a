//! What the decoders must survive, for the fuzz targets (`fuzz/`) and for
//! the fixed-budget replay in `cargo test`.

use crate::props::Measure;
use crate::TYPES;

/// Heap bytes one decode may allocate per byte of decode budget it charged
/// (docs/security.md).
pub const HEAP_PER_CHARGED: usize = 1;
/// Heap bytes one decode may allocate per input byte beyond its charges:
/// the B-tree leaf of a small map has 11 slots, which the per-entry charge
/// does not cover (a one-entry `map<string, string>`: a 544-byte leaf, 112
/// bytes charged, 12 bytes on the wire).
pub const HEAP_PER_INPUT: usize = 48;
/// Heap bytes one decode may allocate beyond both.
pub const HEAP_BASE: usize = 4096;

/// The heap one decode of `len` input bytes that charged `charged` bytes of
/// the decode budget may build.
pub fn heap_bound(charged: usize, len: usize) -> usize {
    HEAP_PER_CHARGED * charged + HEAP_PER_INPUT * len + HEAP_BASE
}

/// The first byte picks a generated type, the rest is its input. Decoding may
/// fail, but must not panic; `decode`, `decode_into` and `view` give the same answer
/// (error kind and offset); whatever decodes must encode to bytes that decode
/// and encode again to the same bytes; and the decode allocates (as counted
/// by `measure`, in bytes) within [`heap_bound`].
pub fn decode(data: &[u8], measure: Measure) -> Result<(), String> {
    let Some((&selector, input)) = data.split_first() else {
        return Ok(());
    };
    let entry = &TYPES[selector as usize % TYPES.len()];
    let [decoded, into] = (entry.outcomes)(input);
    if decoded != into {
        return Err(format!(
            "{}: decode gives {decoded:?}, decode_into {into:?}",
            entry.name
        ));
    }
    if let Some(viewed) = (entry.view)(input) {
        let viewed = viewed.map_err(|e| format!("{}: {e}", entry.name))?;
        if viewed != decoded {
            return Err(format!(
                "{}: decode gives {decoded:?}, view {viewed:?}",
                entry.name
            ));
        }
    }
    let (heap, charged) = (entry.decode_heap)(input, measure);
    if heap > heap_bound(charged, input.len()) {
        return Err(format!(
            "{}: allocated {heap} bytes for {} input bytes, charging {charged}",
            entry.name,
            input.len()
        ));
    }
    (entry.stable)(input)
        .map(|_| ())
        .map_err(|e| format!("{}: {e}", entry.name))
}
