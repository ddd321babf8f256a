//! Lists of plain structs (memory = wire layout, `pkt_runtime::plain`) are
//! copied in bulk. The bulk paths must give exactly what the field-by-field
//! paths give: the same values, the same bytes and the same errors, and a
//! decoded list must cost exactly one allocation.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use pkt_runtime::plain::Plain;
use pkt_runtime::{fixed, Decode, DecodeErrorKind, Encode, FixedSize, Writer};
use pkt_rust_tests::bench::mesh::{Mesh, Triangle, Vec3};
use pkt_rust_tests::bench::minecraft::Abilities;
use pkt_rust_tests::bench::mk48::{Guidance, Transform, Vec2};
use pkt_rust_tests::seeds::packets::{Int3Packet, Packet, TransformPacket};

struct Counting;

thread_local! {
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations(f: impl FnOnce()) -> usize {
    let before = ALLOCS.with(Cell::get);
    f();
    ALLOCS.with(Cell::get) - before
}

/// Deterministic bytes (xorshift), NaN payloads and all.
fn noise(n: usize, mut seed: u64) -> Vec<u8> {
    (0..n)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as u8
        })
        .collect()
}

/// `count` values of `T` from `bytes`, field by field.
fn per_field<T: FixedSize>(bytes: &[u8]) -> Vec<T> {
    let mut v = Vec::new();
    fixed::read_each(&mut v, bytes.len() / T::SIZE, bytes, 0).expect("valid");
    v
}

/// The encoding of `items`, field by field.
fn per_field_bytes<T: FixedSize>(items: &[T]) -> Vec<u8> {
    let mut out = vec![0u8; items.len() * T::SIZE];
    for (item, chunk) in items.iter().zip(out.chunks_exact_mut(T::SIZE)) {
        item.write_fixed(chunk);
    }
    out
}

/// A list of `T` decoded and encoded through the bulk paths agrees with the
/// field-by-field paths, value for value and byte for byte.
fn bulk_agrees<T>(count: usize, seed: u64)
where
    T: Plain + Encode + Decode + core::fmt::Debug,
{
    assert!(
        T::wire_bytes(&[]).is_some() == cfg!(target_endian = "little"),
        "a plain type uses the bulk path on little-endian targets"
    );
    let elements = noise(count * T::SIZE, seed);
    let mut wire = (count as u32).to_le_bytes().to_vec();
    wire.extend_from_slice(&elements);

    let bulk = Vec::<T>::decode(&wire).expect("every byte string is a valid plain value");
    let reference = per_field::<T>(&elements);
    assert_eq!(bulk.len(), count);
    // Compared as bytes: NaNs are not equal to themselves.
    assert_eq!(
        per_field_bytes(&bulk),
        elements,
        "bulk decode, per-field encode"
    );
    assert_eq!(
        bulk.encode_to_vec().expect("no limits"),
        wire,
        "per-field decode, bulk encode"
    );
    assert_eq!(
        reference.encode_to_vec().expect("no limits"),
        wire,
        "per-field decode, bulk encode"
    );

    // Into an existing vector, and as the fixed-list helpers do it.
    let mut into = per_field::<T>(&noise(3 * T::SIZE, seed + 1));
    into.decode_into(&wire).expect("valid");
    assert_eq!(per_field_bytes(&into), elements);
    let mut out = vec![0u8; wire.len()];
    pkt_runtime::list::encode_fixed(&reference, &mut Writer::new(&mut out));
    assert_eq!(out, wire);

    // A list cut inside its last element: the count check names the prefix.
    if count > 0 {
        let short = &wire[..wire.len() - 1];
        let err = Vec::<T>::decode(short).expect_err("short");
        assert_eq!(err.offset(), 0);
        assert!(matches!(
            err.kind(),
            DecodeErrorKind::LengthExceedsInput { .. }
        ));
    }
}

#[test]
fn bulk_and_per_field_paths_agree_on_plain_structs_and_numbers() {
    for (count, seed) in [(0, 1), (1, 2), (7, 3), (1000, 4)] {
        bulk_agrees::<Triangle>(count, seed);
        bulk_agrees::<Vec3>(count, seed);
        bulk_agrees::<Vec2>(count, seed);
        bulk_agrees::<Packet>(count, seed);
        bulk_agrees::<Int3Packet>(count, seed);
        bulk_agrees::<TransformPacket>(count, seed);
        bulk_agrees::<u16>(count, seed);
        bulk_agrees::<i32>(count, seed);
        bulk_agrees::<u64>(count, seed);
        bulk_agrees::<f32>(count, seed);
        bulk_agrees::<f64>(count, seed);
    }
}

#[test]
fn structs_with_padding_bools_or_enums_are_not_plain() {
    // `Transform` (i8, u16, ..) would need padding; `Guidance` and
    // `Abilities` hold bools, which not every byte encodes.
    assert!(Transform::wire_bytes(&[Transform::default()]).is_none());
    assert!(Guidance::wire_bytes(&[Guidance::default()]).is_none());
    assert!(Abilities::wire_bytes(&[Abilities::default()]).is_none());
    assert_eq!(core::mem::size_of::<Triangle>(), Triangle::SIZE);
}

#[test]
fn invalid_bools_in_a_list_fail_at_their_offset() {
    // Guidance: angle u16, submerge bool, velocity i16; 5 bytes each.
    let items = vec![
        Guidance {
            angle: 1,
            submerge: true,
            velocity: -1,
        };
        4
    ];
    let mut wire = items.encode_to_vec().expect("no limits");
    assert_eq!(Vec::<Guidance>::decode(&wire).expect("valid"), items);
    // The third element's bool.
    let at = 4 + 2 * Guidance::SIZE + 2;
    wire[at] = 7;
    let err = Vec::<Guidance>::decode(&wire).expect_err("invalid bool");
    assert_eq!(err.offset(), at);
    assert!(matches!(err.kind(), DecodeErrorKind::InvalidBool(7)));
    // The same error as the element decoded on its own.
    let alone = Guidance::decode(&wire[4 + 2 * Guidance::SIZE..][..Guidance::SIZE])
        .expect_err("invalid bool");
    assert_eq!(alone.offset() + 4 + 2 * Guidance::SIZE, err.offset());
    assert_eq!(alone.kind(), err.kind());
}

#[test]
fn a_list_of_plain_structs_decodes_with_one_allocation() {
    let mesh = Mesh {
        triangles: (0..10_000)
            .map(|i| {
                let f = i as f32;
                let v = Vec3 {
                    x: f,
                    y: f + 0.5,
                    z: -f,
                };
                Triangle {
                    a: v,
                    b: v,
                    c: v,
                    normal: v,
                }
            })
            .collect(),
    };
    let wire = mesh.encode_to_vec().expect("no limits");
    let mut decoded = None;
    assert_eq!(
        allocations(|| decoded = Some(Mesh::decode(&wire).expect("valid"))),
        1
    );
    let decoded = decoded.expect("decoded");
    assert_eq!(decoded, mesh);
    assert_eq!(decoded.triangles.capacity(), mesh.triangles.len());

    // Encoding into a vector with room allocates nothing and zero-fills
    // nothing it does not overwrite.
    let mut out = Vec::with_capacity(wire.len() + 3);
    out.extend_from_slice(&[9, 9, 9]);
    assert_eq!(
        allocations(|| mesh.encode_into(&mut out).expect("no limits")),
        0
    );
    assert_eq!(&out[..3], &[9, 9, 9]);
    assert_eq!(&out[3..], &wire[..]);
}
