//! What the decoders must survive, for the fuzz targets (`fuzz/`) and for
//! the fixed-budget replay in `cargo test`.

use crate::props::Measure;
use crate::TYPES;

/// Heap bytes one decode may allocate per byte of decode budget it charged
/// (docs/security.md). Maps are charged their B-tree nodes' spare slots
/// too, so nothing is allocated per input byte beyond the charges.
pub const HEAP_PER_CHARGED: usize = 1;
/// Heap bytes one decode may allocate beyond its charges.
pub const HEAP_BASE: usize = 4096;

/// The heap one decode that charged `charged` bytes of the decode budget
/// may build.
pub fn heap_bound(charged: usize) -> usize {
    HEAP_PER_CHARGED * charged + HEAP_BASE
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
    if heap > heap_bound(charged) {
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
