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

/// The types whose views the `view_maps` target checks: every type that
/// holds a map, the map-keyed tree and maps nested 62 deep of
/// `schemas/hostile.pkt` first.
pub const MAP_TYPES: &[&str] = &[
    "test.hostile.MapTree",
    "test.hostile.DeepMaps",
    "test.hostile.Maps60",
    "test.hostile.BagWorld",
    "test.hostile.Bags",
    "test.everything.Everything",
    "test.arrays.SparseMaps",
    "test.limits.Chat",
    "test.limits.Packet",
    "test.frozen.Kitchen",
    "bench.collections.ScoreMap",
    "test.delta.World",
    "test.delta.Entity",
];

/// The first byte picks one of [`MAP_TYPES`], the rest is its input: the
/// view agrees with `decode` (accepted or rejected, error kind and offset),
/// its owned value is decode's value, and the runs of views agree too
/// ([`crate::props::view_agrees`]).
pub fn view_maps(data: &[u8]) -> Result<(), String> {
    let Some((&selector, input)) = data.split_first() else {
        return Ok(());
    };
    let name = MAP_TYPES[selector as usize % MAP_TYPES.len()];
    let entry = TYPES
        .iter()
        .find(|e| e.name == name)
        .unwrap_or_else(|| panic!("no generated type {name}"));
    match (entry.view)(input) {
        Some(Ok(_)) => Ok(()),
        Some(Err(e)) => Err(format!("{name}: {e}")),
        None => Err(format!("{name} has no view")),
    }
}

/// [`apply_agrees`] for one type: baseline encoding, delta, measure.
pub type ApplyCheck = fn(&[u8], &[u8], Measure) -> Result<(), String>;

/// One `@delta` type for the `apply_delta` target.
pub struct DeltaEntry {
    pub name: &'static str,
    /// See [`apply_agrees`].
    pub check: ApplyCheck,
    /// The delta of the value one encoding decodes to against the value of
    /// another, for seeds; `None` if either does not decode.
    pub delta: fn(&[u8], &[u8]) -> Option<Vec<u8>>,
}

/// Every `@delta` type of `schemas/`.
pub static DELTA_TYPES: &[DeltaEntry] = &[
    delta_entry::<crate::test::delta::Vec3>("test.delta.Vec3"),
    delta_entry::<crate::test::delta::Stats>("test.delta.Stats"),
    delta_entry::<crate::test::delta::Entity>("test.delta.Entity"),
    delta_entry::<crate::test::delta::World>("test.delta.World"),
    delta_entry::<crate::test::delta::Empty>("test.delta.Empty"),
    delta_entry::<crate::test::delta::QPos>("test.delta.QPos"),
    delta_entry::<crate::test::delta::Mover>("test.delta.Mover"),
    delta_entry::<crate::test::hostile::Bags>("test.hostile.Bags"),
    delta_entry::<crate::test::hostile::BagWorld>("test.hostile.BagWorld"),
];

const fn delta_entry<T>(name: &'static str) -> DeltaEntry
where
    T: pkt_runtime::delta::Delta + pkt_runtime::Encode + pkt_runtime::Decode + Clone + Default,
{
    DeltaEntry {
        name,
        check: apply_agrees::<T>,
        delta: delta_of::<T>,
    }
}

fn delta_of<T>(value: &[u8], baseline: &[u8]) -> Option<Vec<u8>>
where
    T: pkt_runtime::delta::Delta + pkt_runtime::Encode + pkt_runtime::Decode,
{
    let (v, b) = (T::decode(value).ok()?, T::decode(baseline).ok()?);
    let mut out = Vec::new();
    pkt_runtime::delta::encode(&v, &b, &mut out).ok()?;
    Some(out)
}

/// Applies `delta` to the value `baseline` decodes to (the default value
/// when it does not decode): a failed apply leaves the value unchanged; a
/// successful one gives a value that encodes (its limits hold), decodes back
/// to the same bytes, and is what applying its own delta against the
/// baseline gives; and the apply allocates (as counted by `measure`, patch
/// and grown value together) within [`heap_bound`] of the budget it charged.
pub fn apply_agrees<T>(baseline: &[u8], delta: &[u8], measure: Measure) -> Result<(), String>
where
    T: pkt_runtime::delta::Delta + pkt_runtime::Encode + pkt_runtime::Decode + Clone + Default,
{
    use pkt_runtime::{DecodeBudget, Limits, Reader};
    let base = T::decode(baseline).unwrap_or_default();
    let before = base.encode_to_vec_unchecked();
    let mut value = base.clone();
    let limits = Limits::DEFAULT;
    let budget = DecodeBudget::new(&limits, delta.len());
    let mut result = Ok(());
    let heap = measure(&mut || {
        let mut r = Reader::with_budget(delta, limits, &budget);
        result = value
            .read_patch(&mut r)
            .and_then(|p| r.expect_end().map(|()| p))
            .map(|p| value.apply_patch(p));
    });
    let charged = limits.decode_budget(delta.len()) - budget.memory_left();
    if heap > heap_bound(charged) {
        return Err(format!(
            "allocated {heap} bytes applying {} delta bytes, charging {charged}",
            delta.len()
        ));
    }
    // The entry point gives the same answer.
    let mut again = base.clone();
    let answer = pkt_runtime::delta::apply(&mut again, delta, &limits);
    if answer != result {
        return Err(format!("apply gives {answer:?}, read and apply {result:?}"));
    }
    if result.is_err() {
        if value.encode_to_vec_unchecked() != before {
            return Err(format!("a failed apply ({result:?}) changed the value"));
        }
        return Ok(());
    }
    let bytes = value
        .encode_to_vec()
        .map_err(|e| format!("the applied value does not encode: {e}"))?;
    let back = T::decode(&bytes).map_err(|e| format!("the applied value does not decode: {e}"))?;
    if back.encode_to_vec_unchecked() != bytes {
        return Err("the applied value decodes to another value".to_string());
    }
    let mut own = Vec::new();
    pkt_runtime::delta::encode(&value, &base, &mut own)
        .map_err(|e| format!("the applied value's delta does not encode: {e}"))?;
    let mut rebuilt = base.clone();
    pkt_runtime::delta::apply(&mut rebuilt, &own, &Limits::DEFAULT)
        .map_err(|e| format!("the applied value's own delta fails: {e}"))?;
    if rebuilt.encode_to_vec_unchecked() != bytes {
        return Err("the applied value's own delta gives another value".to_string());
    }
    Ok(())
}

/// The first byte picks one of [`DELTA_TYPES`], the next two are the
/// length of the baseline's encoding (little-endian, cut to what is
/// there), then the baseline, then the delta: see [`apply_agrees`].
pub fn apply_delta(data: &[u8], measure: Measure) -> Result<(), String> {
    let Some((&selector, rest)) = data.split_first() else {
        return Ok(());
    };
    let entry = &DELTA_TYPES[selector as usize % DELTA_TYPES.len()];
    let (len, rest) = match rest {
        [a, b, rest @ ..] => (u16::from_le_bytes([*a, *b]) as usize, rest),
        _ => (0, rest),
    };
    let (baseline, delta) = rest.split_at(len.min(rest.len()));
    (entry.check)(baseline, delta, measure).map_err(|e| format!("{}: {e}", entry.name))
}
