//! Allocation counts, with a counting global allocator: encoding into a
//! vector with room allocates nothing, `encode_to_vec` allocates once, and
//! decoding a same-shaped value into an existing one allocates nothing
//! (except for maps, whose B-tree nodes are rebuilt).

mod support;

use std::collections::HashSet;

use pkt_runtime::{Decode, Encode};
use pkt_rust_tests::game::net::{ChatChannel, ChatMessage, ServerPacket};
use pkt_rust_tests::seeds::chat::{Inventory, ItemKind, ItemSlot};
use pkt_rust_tests::seeds::packets::TransformPacket;
use pkt_rust_tests::seeds::world::WorldSnapshot;
use pkt_rust_tests::TYPES;
use pkt_test_support::alloc;
use pktc::ir::{Ir, Type, TypeId, TypeKind};
use support::{ir, qualified, Gen};

pkt_test_support::counting_allocator!();

fn measure(f: &mut dyn FnMut()) -> usize {
    alloc::measure(f).1.calls
}

fn contains_map(ir: &Ir, ty: &Type, seen: &mut HashSet<TypeId>) -> bool {
    match ty {
        Type::Map(..) => true,
        Type::List(t) | Type::Array(t, _) => contains_map(ir, t, seen),
        Type::Optional(t) => contains_map(ir, t, seen),
        Type::Named(r) => {
            if !seen.insert(r.id) {
                return false;
            }
            match &ir.ty(r.id).kind {
                TypeKind::Struct { fields } | TypeKind::Message { fields, .. } => {
                    fields.iter().any(|f| contains_map(ir, &f.ty, seen))
                }
                TypeKind::Union { variants, .. } => {
                    variants.iter().any(|v| contains_map(ir, &v.ty, seen))
                }
                TypeKind::Enum { .. } => false,
            }
        }
        _ => false,
    }
}

#[test]
fn every_type_encodes_without_scratch_and_redecodes_in_place() {
    let ir = ir();
    let mut checked = 0;
    for i in 0..ir.types.len() {
        let id = TypeId(i);
        let name = qualified(&ir, id);
        let entry = TYPES.iter().find(|e| e.name == name).expect("generated");
        let has_map = contains_map(
            &ir,
            &Type::Named(pktc::ir::TypeRef {
                id,
                name: name.clone(),
            }),
            &mut HashSet::new(),
        );
        for seed in 0..50 {
            let bytes = Gen::new(&ir, seed * 31 + i as u64).encode(id);
            let (into, to_vec) = (entry.encode)(&bytes, measure);
            assert_eq!(into, 0, "{name}: encode_into a vector with room allocated");
            assert_eq!(
                to_vec,
                usize::from(!bytes.is_empty()),
                "{name}: encode_to_vec"
            );
            assert_eq!(
                (entry.view_allocations)(&bytes, measure),
                0,
                "{name} (seed {seed}): viewing and reading every field allocated"
            );
            let reuse = (entry.reuse)(&bytes, measure);
            if !has_map {
                assert_eq!(
                    reuse, 0,
                    "{name} (seed {seed}): decode_into a same-shaped value allocated"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 1000, "checked {checked} values");
}

#[test]
fn steady_streams_decode_without_allocating() {
    let chat = ServerPacket::Chat(ChatMessage {
        channel: ChatChannel::Team,
        sender_id: 7,
        sender_name: "amy".into(),
        text: "on my way".into(),
        mentions: vec!["zed".into()],
        sent_at: 1_700_000_000,
    });
    let world = WorldSnapshot {
        cells: (0..30_000).collect(),
    };
    let inventory = Inventory {
        owner_id: 1,
        slots: (0..100)
            .map(|i| ItemSlot {
                slot: i,
                item_id: 1000 + i as u32,
                kind: ItemKind::Weapon,
                count: 1,
                durability: 100,
            })
            .collect(),
    };
    for (name, bytes) in [
        ("chat", chat.encode_to_vec().unwrap()),
        ("world", world.encode_to_vec().unwrap()),
        ("inventory", inventory.encode_to_vec().unwrap()),
    ] {
        let mut packet = ServerPacket::decode(&chat.encode_to_vec().unwrap()).unwrap();
        let mut snapshot = WorldSnapshot::default();
        let mut inv = Inventory::default();
        // First decode sizes the buffers; the next ones reuse them.
        for round in 0..3 {
            let n = measure(&mut || match name {
                "chat" => packet.decode_into(&bytes).unwrap(),
                "world" => snapshot.decode_into(&bytes).unwrap(),
                _ => inv.decode_into(&bytes).unwrap(),
            });
            if round > 0 {
                assert_eq!(n, 0, "{name}: round {round} allocated {n} times");
            }
        }
    }
    let transform = TransformPacket::default();
    let mut buf = Vec::with_capacity(64);
    assert_eq!(measure(&mut || transform.encode_into(&mut buf).unwrap()), 0);
    assert_eq!(measure(&mut || drop(transform.encode_to_vec().unwrap())), 1);
    assert_eq!(measure(&mut || drop(world.encode_to_vec().unwrap())), 1);
}

#[test]
fn huge_length_prefixes_allocate_nothing() {
    // A WorldSnapshot whose list claims 4 Gi cells in a 4-byte body.
    let lie = [4, 0, 0, 0, 0xff, 0xff, 0xff, 0xff];
    let n = measure(&mut || assert!(WorldSnapshot::decode(&lie).is_err()));
    assert_eq!(n, 0);
    // A ChatMessage whose name claims 4 GiB.
    let mut lie = vec![0u8; 4];
    lie.extend_from_slice(&[0, 7, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]);
    let len = (lie.len() - 4) as u32;
    lie[..4].copy_from_slice(&len.to_le_bytes());
    let n = measure(&mut || assert!(ChatMessage::decode(&lie).is_err()));
    assert_eq!(n, 0);
}

/// A boxed field (`Binary.left: Box<Expr>`) that is absent from older data
/// is reset inside its existing box: `decode_into` allocates nothing.
#[test]
fn absent_boxed_fields_reset_in_place() {
    use pkt_rust_tests::test::expressions::{Binary, Expr};
    let mut value = Binary {
        op: 1,
        left: Box::new(Expr::Literal(5)),
        right: Box::new(Expr::Literal(6)),
    };
    // A message body with only `op`: `left` and `right` take their defaults.
    let old = [1, 0, 0, 0, 9];
    assert_eq!(measure(&mut || value.decode_into(&old).unwrap()), 0);
    assert_eq!(value.op, 9);
    assert_eq!(*value.left, Expr::default());
    assert_eq!(*value.right, Expr::default());
}
